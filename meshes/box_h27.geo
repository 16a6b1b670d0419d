// stickslip example mesh: box.geo with second-order complete elements (27-node hexahedra, 9-node quadrangles).
// box_h27.msh was written by make_box_msh.py (gmsh is not installed here); with gmsh:
//   gmsh -3 -format msh41 box_h27.geo -o box_h27.msh
Include "box.geo";
Mesh.ElementOrder = 2;
Mesh.SecondOrderIncomplete = 0;
