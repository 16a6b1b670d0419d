// stickslip example mesh: a prism (m) over the triangle (0,0), (0.4,0), (0,0.2) in x-y, extruded 0.1 m along z, volume
// 0.004 m^3, unstructured 4-node tetrahedra (Gmsh's default 3D algorithm) of size about h. Physical groups: surfaces
// bottom (y = 0, area 0.04 m^2), back (x = 0), slope, front (z = 0), rear (z = 0.1); volume body.
//   gmsh -3 wedge_tet.geo -format msh41 -o wedge_tet.msh
h = 0.04;
Point(1) = {0, 0, 0, h}; Point(2) = {0.4, 0, 0, h}; Point(3) = {0, 0.2, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 1};
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 0.1} { Surface{1}; };
// out[0]: the top (z = 0.1), out[1]: the volume, out[2..4]: the sides along lines 1, 2, 3
Physical Surface("front", 4) = {1};
Physical Surface("rear", 5) = {out[0]};
Physical Surface("bottom", 1) = {out[2]};
Physical Surface("slope", 2) = {out[3]};
Physical Surface("back", 3) = {out[4]};
Physical Volume("body", 1) = {out[1]};
