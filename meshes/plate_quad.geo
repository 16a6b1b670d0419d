// stickslip example mesh: a parallelogram plate (m) with corners (0,0), (0.4,0), (0.45,0.1), (0.05,0.1), area 0.04 m^2,
// 8 x 2 quadrangles (transfinite + recombine: 4-node quadrangles; with -order 2 Gmsh writes 9-node quadrangles and
// 3-node boundary lines). Physical groups: curves bottom (y = 0, length 0.4 m), right, top, left; surface body.
//   gmsh -2 plate_quad.geo -format msh41 -o plate_quad.msh            (Q4)
//   gmsh -2 -order 2 plate_quad.geo -format msh41 -o plate_q9.msh     (Q9)
Point(1) = {0, 0, 0}; Point(2) = {0.4, 0, 0}; Point(3) = {0.45, 0.1, 0}; Point(4) = {0.05, 0.1, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {4, 3}; Line(4) = {1, 4};
Curve Loop(1) = {1, 2, -3, -4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = 9;
Transfinite Curve{2, 4} = 3;
Transfinite Surface{1};
Recombine Surface{1};
Physical Curve("bottom", 1) = {1};
Physical Curve("right", 2) = {2};
Physical Curve("top", 3) = {3};
Physical Curve("left", 4) = {4};
Physical Surface("body", 1) = {1};
