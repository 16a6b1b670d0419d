// stickslip mesh of the Hertz test: the right half of an elastic block [0, 0.1] x [-0.1, 0] m (symmetry line x = 0),
// 3-node triangles of size hf = 4e-4 m within 8e-3 m of the origin (where a rigid cylinder of radius 0.05 m touches
// it: contact half-width about 5e-3 m), growing linearly to hc = 1e-2 m at 5e-2 m from it. Physical groups: curves
// top (y = 0, the contact side), sym (x = 0), base (y = -0.1), right (x = 0.1); surface body.
//   gmsh -2 hertz_block.geo -format msh41 -o hertz_block.msh
hf = 4e-4; hc = 1e-2;
Point(1) = {0, 0, 0, hf}; Point(2) = {0.1, 0, 0, hc}; Point(3) = {0.1, -0.1, 0, hc}; Point(4) = {0, -0.1, 0, hc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {-4, -3, -2, -1}; // counter-clockwise: positive det J
Plane Surface(1) = {1};
Field[1] = Distance; Field[1].PointsList = {1};
Field[2] = Threshold; Field[2].InField = 1; Field[2].SizeMin = hf; Field[2].SizeMax = hc; Field[2].DistMin = 8e-3; Field[2].DistMax = 5e-2;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0; Mesh.MeshSizeFromPoints = 0; Mesh.MeshSizeFromCurvature = 0;
Physical Curve("top", 1) = {1};
Physical Curve("right", 2) = {2};
Physical Curve("base", 3) = {3};
Physical Curve("sym", 4) = {4};
Physical Surface("body", 1) = {1};
