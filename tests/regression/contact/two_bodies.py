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


def layer_stress_spread(g, X, axis=1):
    """Largest spread (max - min) of a component of the cell data cauchy_stress of grid G over a layer of elements
    (elements whose centres have the same coordinate AXIS, y by default; X the point coordinates)."""
    from vtk.util.numpy_support import vtk_to_numpy

    sig = vtk_to_numpy(g.GetCellData().GetArray("cauchy_stress"))
    cy = np.array([np.mean([X[g.GetCell(c).GetPointId(k), axis] for k in range(g.GetCell(c).GetNumberOfPoints())])
                   for c in range(g.GetNumberOfCells())])
    return max(float(np.max(sig[np.abs(cy - y) < 1e-9].max(axis=0) - sig[np.abs(cy - y) < 1e-9].min(axis=0)))
               for y in np.unique(np.round(cy, 9)))


def interface_uniformity(outdir, axis, level, npoints, pressure):
    """The uniform state of a contact patch test run in OUTDIR, over the output times at which at least NPOINTS slave
    points (contact_pressure > 0 on the plane coordinate AXIS = LEVEL; the master's points carry none) are in contact:
    the largest spread of their pressure and the largest tangential traction, both relative to PRESSURE, the largest
    spread of the stress over a layer of elements across AXIS relative to PRESSURE, and the count of those outputs."""
    worst, tang, n, stress = 0.0, 0.0, 0, 0.0
    for _, g, X, point in field_frames(outdir):
        p = point("contact_pressure").ravel()
        tr = point("contact_traction")
        on = (np.abs(X[:, axis] - level) < 1e-9) & (p > 0)
        if np.count_nonzero(on) < npoints:  # not (yet, or no longer) in contact everywhere
            continue
        n += 1
        worst = max(worst, (p[on].max() - p[on].min()) / pressure)
        tang = max(tang, np.max(np.linalg.norm(tr[on], axis=1)) / pressure)
        stress = max(stress, layer_stress_spread(g, X, axis) / pressure)
    return worst, tang, n, stress


def exact_state_errors(outdir, npoints, pressure, stress):
    """A contact patch test run in OUTDIR against its exact uniform state, over the output times at which at least
    NPOINTS points carry a contact pressure (contact_pressure > 0; only contact points do): PRESSURE(t) the exact
    interface pressure (Pa), STRESS(t, block_id) the exact Cauchy stress of each cell (an (ncells, 9) array from the cell
    data block_id). Returns the largest deviation of the contact pressure from PRESSURE(t), the largest spread of it
    (max - min), the largest tangential traction and the largest deviation of a cell's stress component from STRESS, all
    relative to PRESSURE(t), and the count of those outputs."""
    from vtk.util.numpy_support import vtk_to_numpy

    dev, spread, tang, sdev, n = 0.0, 0.0, 0.0, 0.0, 0
    for t, g, _, point in field_frames(outdir):
        p = point("contact_pressure").ravel()
        on = p > 0
        if np.count_nonzero(on) < npoints:  # not (yet) in contact everywhere
            continue
        n += 1
        p0 = pressure(t)
        dev = max(dev, np.max(np.abs(p[on] - p0)) / p0)
        spread = max(spread, (p[on].max() - p[on].min()) / p0)
        tang = max(tang, np.max(np.linalg.norm(point("contact_traction")[on], axis=1)) / p0)
        sig = vtk_to_numpy(g.GetCellData().GetArray("cauchy_stress"))
        block = vtk_to_numpy(g.GetCellData().GetArray("block_id")).ravel()
        sdev = max(sdev, np.max(np.abs(sig - stress(t, block))) / p0)
    return dev, spread, tang, sdev, n


def check_uniformity(what, worst, tang, n, stress, drift, tol, energy, fails, lines, tol_tangential=None):
    """Appends to LINES the measured values of one patch test run WHAT (interface_uniformity() and the energy drift) and
    to FAILS what exceeds its bound: TOL for the spreads and tractions (TOL_TANGENTIAL for the tractions when given),
    ENERGY for the drift, at least 3 outputs."""
    lines.append(f"{what}: pressure spread {worst:.2g}, tangential traction {tang:.2g}, stress spread {stress:.2g} "
                 f"over {n} outputs, energy drift {drift:.2g}")
    if n < 3 or worst > tol or tang > (tol if tol_tangential is None else tol_tangential) or stress > tol:
        fails.append(f"{what}: pressure spread {worst:.3g}, tangential traction {tang:.3g}, stress spread {stress:.3g} "
                     f"(> {tol}), {n} outputs")
    if drift > energy:
        fails.append(f"{what}: energy drift {drift:.3g} > {energy}")


def finish(fails, summary):
    """Prints the measured values, then exits with the failures, if any."""
    print(summary)
    if fails:
        raise SystemExit("FAIL: " + "; ".join(fails))
