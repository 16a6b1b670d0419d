// stickslip example mesh: an L-shaped plate (m), [0,0.4] x [0,0.1] without [0.3,0.4] x [0.05,0.1], area 0.035 m^2,
// unstructured 3-node triangles (Gmsh's default 2D algorithm) of size about h. Physical groups: curves bottom (y = 0,
// length 0.4 m), left (x = 0), right (x = 0.4), top (y = 0.1 and the step); surface body.
//   gmsh -2 lshape_tri.geo -format msh41 -o lshape_tri.msh
h = 0.02;
Point(1) = {0, 0, 0, h};     Point(2) = {0.4, 0, 0, h};   Point(3) = {0.4, 0.05, 0, h};
Point(4) = {0.3, 0.05, 0, h}; Point(5) = {0.3, 0.1, 0, h}; Point(6) = {0, 0.1, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 5}; Line(5) = {5, 6}; Line(6) = {6, 1};
Curve Loop(1) = {1, 2, 3, 4, 5, 6};
Plane Surface(1) = {1};
Physical Curve("bottom", 1) = {1};
Physical Curve("right", 2) = {2};
Physical Curve("top", 3) = {3, 4, 5};
Physical Curve("left", 4) = {6};
Physical Surface("body", 1) = {1};
