"""Compares the element type table of stickslip (mesh_element_table.json, written by unit_mesh_elementtype) with VTK's
own cells (python3-vtk9): every type's VTK cell type, the reference coordinates of its nodes in VTK's order
(vtkCell.GetParametricCoords, mapped from [0,1] to [-1,1] for quadrilaterals and hexahedra), and that every local
face of stickslip's is a face (3D) or edge (2D) of the VTK cell, as a set of nodes.

Usage: check_vtk_order.py TABLE.json [--self-test]
Tolerance: none; the reference coordinates are 0, +-1 and 0.5 in both, exact in binary. --self-test swaps two nodes
of the H27 table and of one face, one at a time, and requires the check to notice each change.
"""
import copy
import json
import sys

try:
    import vtk
except ImportError as exc:  # a failure, not a skip: this check pins the node order fem and the VTK writer rely on
    sys.exit(f"check_vtk_order.py: cannot import VTK with {sys.executable} ({exc}); install python3-vtk9 and "
             "configure CMake with the Debian python3 (-DPython3_EXECUTABLE=/usr/bin/python3)")

CELLS = {5: vtk.vtkTriangle, 9: vtk.vtkQuad, 28: vtk.vtkBiQuadraticQuad, 10: vtk.vtkTetra, 12: vtk.vtkHexahedron,
         29: vtk.vtkTriQuadraticHexahedron}


def check(table):
    """Returns a list of mismatches (empty when the table agrees with VTK)."""
    errors = []
    for name, t in table.items():
        cell = CELLS[t["vtk_type"]]()
        n, dim = cell.GetNumberOfPoints(), t["dim"]
        if cell.GetCellType() != t["vtk_type"] or len(t["ref_coords"]) != n * dim:
            errors.append(f"{name}: VTK cell type {cell.GetCellType()} with {n} points")
            continue
        pc = cell.GetParametricCoords()
        for a in range(n):
            for d in range(dim):
                want = pc[3 * a + d] if t["simplex"] else 2 * pc[3 * a + d] - 1
                if t["ref_coords"][a * dim + d] != want:
                    errors.append(f"{name}: node {a} coordinate {d} is {t['ref_coords'][a * dim + d]}, VTK has {want}")
        for a in range(n):
            cell.GetPointIds().SetId(a, a)
        vtk_faces = []
        for f in range(cell.GetNumberOfFaces() if dim == 3 else cell.GetNumberOfEdges()):
            face = cell.GetFace(f) if dim == 3 else cell.GetEdge(f)
            vtk_faces.append(sorted(face.GetPointId(k) for k in range(face.GetNumberOfPoints())))
        for f, nodes in enumerate(t["faces"]):
            if sorted(nodes) not in vtk_faces:
                errors.append(f"{name}: local face {f} {nodes} is not a face of VTK's cell")
    return errors


def main():
    with open(sys.argv[1]) as fh:
        table = json.load(fh)
    errors = check(table)
    if errors:
        sys.exit("check_vtk_order.py: the element table disagrees with VTK:\n  " + "\n  ".join(errors))
    if "--self-test" in sys.argv:
        broken = copy.deepcopy(table)
        c = broken["H27"]["ref_coords"]
        c[20 * 3:21 * 3], c[22 * 3:23 * 3] = c[22 * 3:23 * 3], c[20 * 3:21 * 3]  # two face centres swapped
        if not check(broken):
            sys.exit("check_vtk_order.py --self-test: swapping two H27 face centres went unnoticed")
        broken = copy.deepcopy(table)
        broken["H8"]["faces"][0][0] = 2  # face (0,1,5,4) -> (2,1,5,4)
        if not check(broken):
            sys.exit("check_vtk_order.py --self-test: a wrong H8 face went unnoticed")
    print("element table agrees with VTK" + (" (self-test passed)" if "--self-test" in sys.argv else ""))


if __name__ == "__main__":
    main()
