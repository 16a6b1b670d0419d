// stickslip mesh of the 3D Hertz test (inputs/explicit/contact_hertz3d.xml): a quarter model (symmetry planes x = 0
// and z = 0) of an elastic hemisphere of radius R = 0.05 m, centre (0, R, 0), flat top y = R, touching at the origin an
// elastic block [0, L] x [-L, 0] x [0, L], L = 0.05 m. Two separate volumes (the origin is a node of each). 4-node
// tetrahedra of size hf within df of the origin (where the contact radius grows to about 5e-3 m), growing linearly to
// hc at dc from it. Physical groups: volumes ball and block; surfaces ball_surface (the spherical surface, the contact
// side), ball_top (y = R), block_top (y = 0), block_base (y = -L), sym_x (x = 0 of both bodies), sym_z (z = 0).
//   gmsh -3 hertz_ball_block.geo -format msh41 -o hertz_ball_block.msh
SetFactory("OpenCASCADE");
R = 0.05; L = 0.05; rc = 1e-2;
If (!Exists(hf)) hf = 6e-4; EndIf // -setnumber hf ... for the refinement studies
If (!Exists(hb)) hb = hf; EndIf // the block's size at the contact (the master side)
hc = 8e-3; df = 7e-3; dc = 4e-2;
Sphere(1) = {0, R, 0, R};
Box(2) = {0, 0, 0, R, R, R};
BooleanIntersection(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
// the part within rc of the axis (rc = 1 cm, twice the contact radius) is a volume of its own, so that its spherical
// surface alone is the contact side set: the coarse faces far from contact would otherwise be slave faces whose
// weight enters the contact's critical step at the finest master node
Cylinder(10) = {0, -R, 0, 0, 3 * R, 0, rc};
BooleanIntersection(11) = { Volume{3}; }{ Volume{10}; };
BooleanDifference(12) = { Volume{3}; Delete; }{ Volume{10}; Delete; };
BooleanFragments{ Volume{11, 12}; Delete; }{}
Box(4) = {0, -L, 0, L, L, L};
e = 1e-6;
ball_top() = Surface In BoundingBox{-e, R-e, -e, R+e, R+e, R+e};
ball_x() = Surface In BoundingBox{-e, -e, -e, e, R+e, R+e};
ball_z() = Surface In BoundingBox{-e, -e, -e, R+e, R+e, e};
ball_sph() = Surface In BoundingBox{-e, -e, -e, rc+e, R/5, rc+e}; // (the cylinder's wall and the planes reach y = R)
Printf("contact faces %g: %g", #ball_sph(), ball_sph(0));
blk_top() = Surface In BoundingBox{-e, -e, -e, L+e, e, L+e};
blk_base() = Surface In BoundingBox{-e, -L-e, -e, L+e, -L+e, L+e};
blk_x() = Surface In BoundingBox{-e, -L-e, -e, e, e, L+e};
blk_z() = Surface In BoundingBox{-e, -L-e, -e, L+e, e, e};
// the size: hf (ball, y > 0) or hb (block, y <= 0) within df of the origin, then growing linearly to hc at dc
Field[1] = MathEval;
Field[1].F = Sprintf("(%g * (1 - Min(1, Max(0, y / 1e-9))) + %g * Min(1, Max(0, y / 1e-9))) * (1 - Min(1, Max(0, (Sqrt(x*x + y*y + z*z) - %g) / %g))) + %g * Min(1, Max(0, (Sqrt(x*x + y*y + z*z) - %g) / %g))",
                     hb, hf, df, dc - df, hc, df, dc - df);
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0; Mesh.MeshSizeFromPoints = 0; Mesh.MeshSizeFromCurvature = 0;
Physical Volume("ball", 1) = {11, 12};
Physical Volume("block", 2) = {4};
Physical Surface("ball_surface", 1) = {ball_sph()};
Physical Surface("ball_top", 2) = {ball_top()};
Physical Surface("block_top", 3) = {blk_top()};
Physical Surface("block_base", 4) = {blk_base()};
Physical Surface("sym_x", 5) = {ball_x(), blk_x()};
Physical Surface("sym_z", 6) = {ball_z(), blk_z()};
