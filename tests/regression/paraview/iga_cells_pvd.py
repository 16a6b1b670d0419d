"""pvbatch script (ParaView 5.11): opens the fields.pvd of a run on one quarter-annulus or cylinder-section NURBS patch
(axis z through the origin, r_inner <= r <= r_outer) and reports, as JSON, what ParaView's rational Bezier cells give:

    xvfb-run -a pvbatch iga_cells_pvd.py FIELDS.pvd OUT.png OUT.json X Y [Z]

times, points, cells, cell types and arrays (association, components) of the last frame; for every Bezier cell the
radii of the points VTK evaluates on its radial faces (parametric coordinate 0 = 0 and 1, a 5 x 5 grid of the others:
cell edges and interior points of the face, including the vertical edges of hexahedra); the point X [Y Z] located in
the cells (reference configuration) with the displacement and velocity VTK interpolates there at the last time. The
last frame is rendered coloured by the displacement to OUT.png."""
import json
import math
import os
import sys

from paraview import servermanager, simple
from paraview.vtk.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonCore import reference

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_pvd import render  # noqa: E402

pvd, png, out = sys.argv[1:4]
probe = [float(v) for v in sys.argv[4:]] + [0.0] * (7 - len(sys.argv))
reader = simple.PVDReader(FileName=pvd)
times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
merged = simple.MergeBlocks(Input=reader)
merged.UpdatePipeline(times[-1])
grid = servermanager.Fetch(merged)
arrays = {}
for assoc, data in (("point", grid.GetPointData()), ("cell", grid.GetCellData())):
    for k in range(data.GetNumberOfArrays()):
        a = data.GetArray(k)
        arrays[a.GetName()] = {"association": assoc, "components": a.GetNumberOfComponents()}
types = sorted({grid.GetCellType(c) for c in range(grid.GetNumberOfCells())})
radii = []  # per cell and radial face: the radii of the evaluated points
grid_1d = [0.0, 0.25, 0.5, 0.75, 1.0]
for c in range(grid.GetNumberOfCells()):
    cell = grid.GetCell(c)
    dim = cell.GetCellDimension()
    weights = [0.0] * cell.GetNumberOfPoints()
    for r0 in (0.0, 1.0):
        face = []
        for s in grid_1d:
            for t in grid_1d if dim == 3 else [0.0]:
                x = [0.0, 0.0, 0.0]
                cell.EvaluateLocation(reference(0), [r0, s, t], x, weights)
                face.append(math.hypot(x[0], x[1]))
        radii.append(face)
# the probe point: its cell and parametric coordinates by VTK's own inversion, then VTK's interpolation weights
pcoords, weights = [0.0, 0.0, 0.0], [0.0] * 64
cell_id = grid.FindCell(probe, None, 0, 1e-10, reference(0), pcoords, weights)
found = {"cell": cell_id}
if cell_id >= 0:
    cell = grid.GetCell(cell_id)
    w = [0.0] * cell.GetNumberOfPoints()
    x = [0.0, 0.0, 0.0]
    cell.EvaluateLocation(reference(0), pcoords, x, w)
    found["x"] = x
    for name in ("displacement", "velocity"):
        values = vtk_to_numpy(grid.GetPointData().GetArray(name))
        found[name] = [sum(w[a] * values[cell.GetPointId(a)][k] for a in range(len(w))) for k in range(3)]
result = {"times": times, "points": grid.GetNumberOfPoints(), "cells": grid.GetNumberOfCells(), "types": types,
          "arrays": arrays, "radii": radii, "probe": found,
          "degrees": vtk_to_numpy(grid.GetCellData().GetArray("HigherOrderDegrees")).tolist()
          if grid.GetCellData().GetArray("HigherOrderDegrees") else None}

render(merged, png, times[-1], "displacement")
with open(out, "w") as f:
    json.dump(result, f, indent=1)
