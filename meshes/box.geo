// stickslip example mesh: the box [0,2] x [0,1] x [0,0.5] m with 4 x 3 x 2 hexahedra, graded along x
// (consecutive cell sizes in ratio 1.2), physical groups named like the sets of the structured generator.
// box.msh is Gmsh 4.8's output of
//   gmsh -3 box.geo -format msh41 -o box.msh
// (tests/regression/gmsh meshes it again with the installed gmsh and runs it).
Lx = 2; Ly = 1; Lz = 0.5;
nx = 4; ny = 3; nz = 2;
rx = 1.2;

Point(1) = {0, 0, 0};    Point(2) = {Lx, 0, 0};    Point(3) = {Lx, Ly, 0};    Point(4) = {0, Ly, 0};
Point(5) = {0, 0, Lz};   Point(6) = {Lx, 0, Lz};   Point(7) = {Lx, Ly, Lz};   Point(8) = {0, Ly, Lz};
// Every curve runs in the positive coordinate direction, so "Progression rx" grows with x.
Line(1) = {1, 2};  Line(2) = {4, 3};  Line(3) = {5, 6};  Line(4) = {8, 7};   // along x
Line(5) = {1, 4};  Line(6) = {2, 3};  Line(7) = {5, 8};  Line(8) = {6, 7};   // along y
Line(9) = {1, 5};  Line(10) = {2, 6}; Line(11) = {3, 7}; Line(12) = {4, 8};  // along z

Curve Loop(1) = {5, 12, -7, -9};  Plane Surface(1) = {1};  // x = 0
Curve Loop(2) = {6, 11, -8, -10}; Plane Surface(2) = {2};  // x = Lx
Curve Loop(3) = {1, 10, -3, -9};  Plane Surface(3) = {3};  // y = 0
Curve Loop(4) = {2, 11, -4, -12}; Plane Surface(4) = {4};  // y = Ly
Curve Loop(5) = {1, 6, -2, -5};   Plane Surface(5) = {5};  // z = 0
Curve Loop(6) = {3, 8, -4, -7};   Plane Surface(6) = {6};  // z = Lz
Surface Loop(1) = {1, 2, 3, 4, 5, 6};
Volume(1) = {1};

Transfinite Curve{1, 2, 3, 4} = nx + 1 Using Progression rx;
Transfinite Curve{5, 6, 7, 8} = ny + 1;
Transfinite Curve{9, 10, 11, 12} = nz + 1;
Transfinite Surface{1:6};
Recombine Surface{1:6};
Transfinite Volume{1};
Recombine Volume{1};

Physical Surface("left", 1) = {1};
Physical Surface("right", 2) = {2};
Physical Surface("bottom", 3) = {3};
Physical Surface("top", 4) = {4};
Physical Surface("back", 5) = {5};
Physical Surface("front", 6) = {6};
Physical Volume("body", 1) = {1};

Mesh.MshFileVersion = 4.1;
