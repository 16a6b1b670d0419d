"""Helpers of the regression tests of contact between deformable bodies: the lumped nodal masses of a Q4 or H8 XML mesh
(meshes/make_two_bodies.py writes them), the run of an input and its results."""
import os
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

from postproc.results import Results
from tests.common.runs import stickslip_run


def lumped_masses(mesh_file, rho):
    """Row-sum lumped masses (kg, per unit thickness in 2D) of the Q4 / H8 blocks of an XML mesh with density rho[block
    name]: each element gives a quarter (an eighth) of its volume, exact for the rectangles and boxes of the generator.
    Returns (coordinates, masses, block name per node)."""
    root = ET.parse(mesh_file).getroot()
    dim = int(root.get("dim"))
    X = np.array(root.find("nodes").text.split(), dtype=float).reshape(-1, dim)
    m = np.zeros(len(X))
    body = [""] * len(X)
    for b in root.findall("block"):
        nn = 4 if b.get("type") == "Q4" else 8
        conn = np.array(b.text.split(), dtype=int).reshape(-1, nn)
        for e in conn:
            ext = X[e].max(axis=0) - X[e].min(axis=0)
            m[e] += rho[b.get("name")] * np.prod(ext) / nn
            for a in e:
                body[a] = b.get("name")
    return X, m, np.array(body)


def run_results(prog, inp, extra=(), prefix=()):
    """Runs INP with PROG (under PREFIX, e.g. mpiexec -n 2) in a temporary directory; returns its Results."""
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "out")
    stickslip_run(prog, inp, out, *extra, prefix=prefix, cwd=tmp)
    return Results(os.path.join(out, "results.h5"))


def balance_drift(energy, scale):
    """Largest change of the energy balance column of /explicit/energy over the run, relative to SCALE (J)."""
    bal = np.asarray(energy["balance"])
    return np.max(np.abs(bal - bal[0])) / scale


def field_frames(outdir):
    """The field frames of the run in OUTDIR (fields.pvd), in order: (time step, vtkUnstructuredGrid, point
    coordinates, point array getter)."""
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy

    for d in ET.parse(os.path.join(outdir, "fields.pvd")).getroot().iter("DataSet"):
        r = vtk.vtkXMLUnstructuredGridReader()
        r.SetFileName(os.path.join(outdir, d.get("file")))
        r.Update()
        g = r.GetOutput()
        yield float(d.get("timestep")), g, vtk_to_numpy(g.GetPoints().GetData()), lambda name, g=g: vtk_to_numpy(g.GetPointData().GetArray(name))


def layer_stress_spread(g, X):
    """Largest spread (max - min) of a component of the cell data cauchy_stress of grid G over a layer of elements
    (elements whose centres have the same y; X the point coordinates)."""
    from vtk.util.numpy_support import vtk_to_numpy

    sig = vtk_to_numpy(g.GetCellData().GetArray("cauchy_stress"))
    cy = np.array([np.mean([X[g.GetCell(c).GetPointId(k), 1] for k in range(g.GetCell(c).GetNumberOfPoints())])
                   for c in range(g.GetNumberOfCells())])
    return max(float(np.max(sig[np.abs(cy - y) < 1e-9].max(axis=0) - sig[np.abs(cy - y) < 1e-9].min(axis=0)))
               for y in np.unique(np.round(cy, 9)))


def finish(fails, summary):
    """Prints the measured values, then exits with the failures, if any."""
    print(summary)
    if fails:
        raise SystemExit("FAIL: " + "; ".join(fails))
