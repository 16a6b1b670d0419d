// stickslip example mesh: box.geo with second-order complete elements (27-node hexahedra, 9-node quadrangles).
// box_h27.msh is Gmsh 4.8's output of
//   gmsh -3 box_h27.geo -format msh41 -o box_h27.msh
Include "box.geo";
Mesh.ElementOrder = 2;
Mesh.SecondOrderIncomplete = 0;
