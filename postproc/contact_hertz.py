"""Hertz contact in 2D (docs/validation/contact.md): what a run of inputs/explicit/contact_hertz.xml gives against
Hertz's plane-strain solution for a rigid cylinder on an elastic half-plane (Johnson, Contact Mechanics, 1985,
section 4.3): p(x) = p0 sqrt(1 - x^2 / a^2), a = sqrt(4 P R / (pi E*)), p0 = sqrt(P E* / (pi R)), E* = E / (1 - nu^2).

  * P: twice the pair's normal force (the half model carries half the load);
  * a and p0: least-squares fit of p_a^2 = p0^2 - (p0 / a)^2 x_a^2 over the contact nodes (nodal pressure
    p_a = |f_a| / w_a at the current position x_a, from the last field frame), without the two outermost ones, whose
    weights straddle the edge where p falls off as a square root (their averages are not point values of p).

The NURBS version (inputs/explicit/iga_hertz*.xml, an elastic cylinder on the block, both patches) takes E* of both
bodies and the block's points only (the cylinder's Bezier points on its tangent y = 0 are not contact nodes):
measure(out, es=ES_IGA, block=1).

    python3 -m postproc.contact_hertz OUTDIR [iga|iga2]      prints the numbers of a run (iga2: the block of degree 2)
    python3 -m postproc.contact_hertz OUTDIR cylinders R2    two cylinders (meshes/make_iga_hertz_cylinders.py)
    python3 -m postproc.contact_hertz refine PROGRAM OUTDIR HF
        runs inputs/explicit/contact_hertz.xml on the mesh of meshes/hertz_block.geo with the fine size hf = HF
        (meshed by gmsh into OUTDIR)"""
import glob
import os
import sys

import numpy as np

from postproc.results import Results

E, NU, R = 1e7, 0.3, 0.05  # the input's block and cylinder
PAIR = "cylinder"
ES_IGA = 1 / ((1 - NU**2) / E + (1 - NU**2) / (10 * E))  # iga_hertz*.xml: the cylinder 10 times as stiff as the block


def read_last_frame(out):
    """The vtkUnstructuredGrid of the last field frame of OUT."""
    import vtk

    path = sorted(glob.glob(os.path.join(out, "fields_*.vtu")))[-1]
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def last_frame(out, block=None, weights=False):
    """(reference coordinates, displacement, contact pressure) of the nodes in the last field frame of OUT (with BLOCK,
    the points of that block's cells only; with WEIGHTS, their rational weights too)."""
    from vtk.util.numpy_support import vtk_to_numpy

    g = read_last_frame(out)
    X = vtk_to_numpy(g.GetPoints().GetData())
    p = vtk_to_numpy(g.GetPointData().GetArray("contact_pressure")).ravel()
    u = vtk_to_numpy(g.GetPointData().GetArray("displacement"))
    rw = g.GetPointData().GetArray("RationalWeights")  # patches only
    w = vtk_to_numpy(rw).ravel() if weights and rw is not None else np.ones(len(p))
    if block is not None:
        ids = vtk_to_numpy(g.GetCellData().GetArray("block_id")).ravel()
        keep = set()
        for c in np.flatnonzero(ids == block):
            cell = g.GetCell(int(c))
            keep.update(cell.GetPointId(k) for k in range(cell.GetNumberOfPoints()))
        keep = np.array(sorted(keep))
        X, u, p, w = X[keep], u[keep], p[keep], w[keep]
    return (X, u, p, w) if weights else (X, u, p)


def fit_ellipse(r, p):
    """(p0, a) of the least-squares fit of p^2 = p0^2 - (p0 / a)^2 r^2 to the pressures P at the distances R from the
    centre of contact (Hertz's p = p0 sqrt(1 - r^2 / a^2), in 2D and in 3D)."""
    c = np.linalg.lstsq(np.c_[np.ones(len(r)), np.asarray(r) ** 2], np.asarray(p) ** 2, rcond=None)[0]
    return np.sqrt(c[0]), np.sqrt(-c[0] / c[1])


def face_values(xref, x, c):
    """The points of a top face of degree 2, C0 at its knots (make_iga_hertz.py DEGREE 2), sorted along the face with
    their control values C (N_A / A_A, the coefficients of the face's pressure p = sum_A R_A N_A / A_A, eq. 34 of the
    paper): the pressure and the positions at the knots (R_A = 1 there, the control point's own value) and at the middle
    of each element (1/4, 1/2, 1/4 of its three control points: the face is straight and evenly parametrised)."""
    mid = lambda v: np.r_[v[0], np.c_[0.25 * v[:-2:2] + 0.5 * v[1:-1:2] + 0.25 * v[2::2], v[2::2]].ravel()]
    return mid(xref), mid(x), mid(c)


def arc_values(X, u, p, w, r2):
    """The outer arc r = R2 (centre (0, -R2)) of a quarter annulus of degree 2, C0 at its knots
    (meshes/make_iga_hertz_cylinders.py), from its top on: reference x, current x and the face's pressure
    p = sum_A R_A N_A / A_A at the knots (the control value, R_A = 1 there) and at the middle of each span (the rational
    basis at its middle, w_a B_a / sum_b w_b B_b with the Bernstein values 1/4, 1/2, 1/4; the middle control point lies
    off the arc). The arc's control points are the outermost point at each angle."""
    rad, ang = np.hypot(X[:, 0], X[:, 1] + r2), np.round(np.arctan2(X[:, 1] + r2, X[:, 0]), 10)
    order = np.lexsort((-rad, -ang))  # by angle from the top, the outermost first
    first = np.r_[True, ang[order][1:] != ang[order][:-1]]
    arc = order[first]
    xr, xc, c, wa = X[arc, 0], X[arc, 0] + u[arc, 0], p[arc], w[arc]
    out = [[xr[0]], [xc[0]], [c[0]]]
    for i in range(0, len(arc) - 2, 2):
        R = np.array([0.25, 0.5, 0.25]) * wa[i:i + 3]
        R /= R.sum()
        for k, v in enumerate((xr, xc, c)):
            out[k] += [R @ v[i:i + 3], v[i + 2]]
    return (np.array(v) for v in out)


def measure(out, es=E / (1 - NU**2), block=None, degree=1, r2=None):
    """dict of the run in OUT: P (N/m), a and p0 fitted and Hertz's a_hertz, p0_hertz for that P, a_reference (the fit
    on the reference positions), p_centre (the nodal pressure at x = 0), contact_nodes (in contact, the top surface
    from x = 0 on, in order), across (nodes across 2a), kinetic_ratio (kinetic / internal energy at the end). With
    DEGREE 2 the block's top is a slave patch face of degree 2: the pressure of the face at its knots and element
    middles (face_values()) instead of the nodal values. With R2 the lower body is a cylinder of radius R2 whose outer
    arc is the slave face (arc_values()), and Hertz's formulas take 1 / R* = 1 / R + 1 / R2 (r_star)."""
    X, u, p, w = last_frame(out, block, weights=True)
    res = Results(os.path.join(out, "results.h5"))
    contact = res.history(f"/explicit/contact/{PAIR}").asdict()
    energy = res.history("/explicit/energy").asdict()
    top = X[:, 1] == 0.0
    x, xref, pt = (X[top, 0] + u[top, 0]), X[top, 0], p[top]
    rs = R if r2 is None else 1 / (1 / R + 1 / r2)
    if r2 is not None:
        xref, x, pt = arc_values(X, u, p, w, r2)
    elif degree == 2:
        xref, first = np.unique(xref, return_index=True)  # the output repeats a point shared by two cells
        xref, x, pt = face_values(xref, x[first], pt[first])
    else:
        order = np.argsort(xref)
        x, xref, pt = x[order], xref[order], pt[order]
    n = int(np.count_nonzero(pt > 0))
    P = 2 * float(np.asarray(contact["normal_force"])[-1])
    m = dict(P=P, r_star=rs, a_hertz=np.sqrt(4 * P * rs / (np.pi * es)), p0_hertz=np.sqrt(P * es / (np.pi * rs)), pressure=pt,
             contact_nodes=n, across=2 * n - 1,  # the node at x = 0 once
             kinetic_ratio=float(np.asarray(energy["kinetic"])[-1]) / float(np.asarray(energy["internal"])[-1]))
    if n < 4:  # no contact zone to fit
        return {**m, "a": np.nan, "p0": np.nan, "a_reference": np.nan, "p_centre": pt[0]}
    k = n - 2
    p0, a = fit_ellipse(x[:k], pt[:k])
    m.update(p0=p0, a=a, a_reference=fit_ellipse(xref[:k], pt[:k])[1], p_centre=pt[0])
    return m


def refine(program, out, hf):
    """Runs the Hertz input into OUT on meshes/hertz_block.geo meshed by gmsh with its fine size hf = HF (m)."""
    import re
    import subprocess

    from postproc.variant import write

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "meshes", "hertz_block.geo")) as f:
        geo, n = re.subn(r"^hf = [^;]*;", f"hf = {hf};", f.read(), flags=re.M)
    if n != 1:
        sys.exit("postproc.contact_hertz: no 'hf = ...;' in meshes/hertz_block.geo")
    os.makedirs(out, exist_ok=True)
    geo_path, msh = os.path.join(out, "block.geo"), os.path.join(out, "block.msh")
    with open(geo_path, "w") as f:
        f.write(geo)
    subprocess.run(["gmsh", "-2", geo_path, "-format", "msh41", "-o", msh], check=True, stdout=subprocess.DEVNULL)
    inp = write(os.path.join(root, "inputs", "explicit", "contact_hertz.xml"), out, [f"mesh@file={msh}"])
    subprocess.run([program, "run", inp, "-o", out, "-force", "-quiet"], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "refine":
        refine(*sys.argv[2:4], sys.argv[4])
        sys.exit(0)
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    kw = dict(es=ES_IGA, block=1, degree=2 if sys.argv[2] == "iga2" else 1) if len(sys.argv) == 3 else {}
    if len(sys.argv) == 4:  # cylinders R2
        kw = dict(es=ES_IGA, block=1, r2=float(sys.argv[3]))
    print({k: v for k, v in measure(sys.argv[1], **kw).items() if k != "pressure"})
