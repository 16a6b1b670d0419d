"""Hertz contact in 3D between two deformable bodies (docs/validation/contact.md): what a run of
inputs/explicit/contact_hertz3d.xml (an elastic hemisphere pressed onto an elastic block, quarter model) gives against
Hertz's solution for two elastic spheres, here a sphere of radius R on a flat (Johnson, Contact Mechanics, 1985,
section 4.2): p(r) = p0 sqrt(1 - r^2 / a^2),

    a = (3 P R / (4 E*))^(1/3),   p0 = 3 P / (2 pi a^2),   1 / E* = (1 - nu1^2) / E1 + (1 - nu2^2) / E2.

  * P: four times the pair's normal force (the quarter model carries a quarter of the load);
  * a and p0: the fit of postproc/contact_hertz.py (p_a^2 = p0^2 - (p0 / a)^2 r_a^2, r_a the distance of the slave node
    from the axis at its current position, p_a = |f_a| / w_a of the last field frame) over the slave (ball) nodes in
    contact, without the outermost ring: the nodes in contact that share an element edge with a surface node out of
    contact, whose weights straddle the edge of contact (their averages are not point values of p);
  * the symmetry planes: the rms misfit of the pressures of the nodes on x = 0 or z = 0 and of the other nodes, to the
    fitted ellipsoid, relative to p0 (their weights w_a are those of the faces inside the quarter: a wrong weight there
    shows as a misfit of those nodes alone).

    python3 -m postproc.contact_hertz3d OUTDIR      prints the numbers of a run"""
import os
import sys

import numpy as np

from postproc.contact_hertz import fit_ellipse, read_last_frame
from postproc.results import Results

E, NU, R = 1e7, 0.3, 0.05  # both bodies of the input; the ball's radius, its centre at (0, R, 0)
PAIR = "ball"


def surface_edges(g, on):
    """The element edges (pairs of point ids) of the grid G whose two ends are both marked in the boolean array ON."""
    from vtk.util.numpy_support import vtk_to_numpy

    conn = vtk_to_numpy(g.GetCells().GetConnectivityArray()) if hasattr(g.GetCells(), "GetConnectivityArray") else None
    if conn is None:  # legacy layout: n, ids, n, ids, ...
        raw = vtk_to_numpy(g.GetCells().GetData())
        tets = raw.reshape(-1, 5)[:, 1:]
    else:
        tets = conn.reshape(-1, 4)
    pairs = np.concatenate([tets[:, [i, j]] for i in range(4) for j in range(i + 1, 4)])
    pairs = pairs[on[pairs[:, 0]] & on[pairs[:, 1]]]
    return np.unique(np.sort(pairs, axis=1), axis=0)


def measure(out, pair=PAIR):
    """dict of the run in OUT: P (N, whole sphere), a and p0 fitted and Hertz's a_hertz, p0_hertz for that P,
    contact_nodes (slave nodes in contact in the quarter), fitted (the nodes of the fit), across (contact nodes along
    a diameter: 2 x those on the positive x axis - 1), p_centre (the nodal pressure at the axis), misfit_sym and
    misfit_inner (rms misfit to the fit over p0, nodes on a symmetry plane and the others), a_all and p0_all (the fit
    over all contact nodes, the outermost ring included), kinetic_ratio (kinetic /
    internal energy at the end), X, u, p (the ball's surface nodes in the last frame)."""
    from vtk.util.numpy_support import vtk_to_numpy

    g = read_last_frame(out)
    X = vtk_to_numpy(g.GetPoints().GetData())
    u = vtk_to_numpy(g.GetPointData().GetArray("displacement"))
    p = vtk_to_numpy(g.GetPointData().GetArray("contact_pressure")).ravel()
    ball = np.abs(np.linalg.norm(X - [0.0, R, 0.0], axis=1) - R) < 1e-9 * R
    ball &= X[:, 1] < R - 1e-9 * R  # the spherical surface, not the rim of the flat top
    res = Results(os.path.join(out, "results.h5"))
    contact = res.history(f"/explicit/contact/{pair}").asdict()
    energy = res.history("/explicit/energy").asdict()
    P = 4 * float(np.asarray(contact["normal_force"])[-1])
    es = 1 / (2 * (1 - NU**2) / E)
    a_h = (3 * P * R / (4 * es)) ** (1 / 3)
    edges = surface_edges(g, ball)
    linked = np.zeros(len(X), bool)  # the block's node at the origin is on the sphere too, but on no edge of the ball
    linked[edges.ravel()] = True
    ball &= linked
    incontact = ball & (p > 0)
    edge_of = np.zeros(len(X), bool)  # a contact node with a ball-surface neighbour out of contact
    for i, j in ((0, 1), (1, 0)):
        e = edges[incontact[edges[:, i]] & ~incontact[edges[:, j]]]
        edge_of[e[:, i]] = True
    fit = incontact & ~edge_of
    x = X + u
    r = np.hypot(x[:, 0], x[:, 2])
    onx = np.abs(X[:, 0]) < 1e-12
    onz = np.abs(X[:, 2]) < 1e-12
    axis = incontact & onx & onz
    m = dict(P=P, a_hertz=a_h, p0_hertz=3 * P / (2 * np.pi * a_h**2), contact_nodes=int(np.count_nonzero(incontact)),
             fitted=int(np.count_nonzero(fit)), across=2 * int(np.count_nonzero(incontact & onz)) - 1,
             p_centre=float(p[axis][0]) if np.any(axis) else np.nan, X=X[ball], u=u[ball], p=p[ball],
             kinetic_ratio=float(np.asarray(energy["kinetic"])[-1]) / float(np.asarray(energy["internal"])[-1]))
    if m["fitted"] < 6:  # no contact zone to fit
        return {**m, "a": np.nan, "p0": np.nan, "a_all": np.nan, "p0_all": np.nan, "misfit_sym": np.nan, "misfit_inner": np.nan}
    p0, a = fit_ellipse(r[fit], p[fit])
    p0_all, a_all = fit_ellipse(r[incontact], p[incontact])  # with the outermost ring: how much the choice moves them
    mis = (p - p0 * np.sqrt(np.clip(1 - (r / a) ** 2, 0, None))) / p0
    sym = fit & (onx | onz)
    m.update(p0=p0, a=a, p0_all=p0_all, a_all=a_all, misfit_sym=float(np.sqrt(np.mean(mis[sym] ** 2))),
             misfit_inner=float(np.sqrt(np.mean(mis[fit & ~sym] ** 2))), symmetry_nodes=int(np.count_nonzero(sym)))
    return m


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    m = measure(*sys.argv[1:])
    print({k: v for k, v in m.items() if k not in ("X", "u", "p")})
    print("a %+.2f %%, p0 %+.2f %% (all contact nodes: %+.2f %%, %+.2f %%), p at the axis %+.2f %% of Hertz"
          % tuple(100 * (m[k] / m[h] - 1) for k, h in (("a", "a_hertz"), ("p0", "p0_hertz"), ("a_all", "a_hertz"), ("p0_all", "p0_hertz"), ("p_centre", "p0_hertz"))))
