#!/usr/bin/env python3
"""Two explicit runs give the same results: every history of /explicit (energy, watch points, node sets) and the final
state, column by column, within RTOL relative to the largest magnitude of the column. Used for
  - 1 and 2 MPI ranks (1e-12): the runs differ only in the order in which element forces are summed at nodes
    shared by the ranks (round-off, ~1e-16 per step, growing slowly through the dynamics);
  - a Gmsh mesh and the generated mesh of the same box: same nodes and elements, possibly numbered otherwise.
The energy history's columns share one scale, the largest energy of the history: the "balance" column is a difference
of large terms, and a term that stays small (the friction dissipation of a pair that never slips, a pair's work) is a
sum of contributions whose round-off is that of the energies in play, not of its own size. A contact history's friction force components are bounded by the normal force (their round-off is that of the
normal force: in a patch test they are pure round-off), and its COF by 1: those are their scales. Its energy columns
(dissipation, stored, work) share one scale, the largest of them: a small one (the discontinuity work) is the sum of
many switching terms whose round-off is that of the energies in play. Final nodal arrays (and a contact pair's per-node statistics) are compared after sorting the nodes by their coordinates (numberings may differ), each
against the largest magnitude of the whole array (a vector field's component that stays near zero, as the x velocity of
a one-dimensional wave, carries the round-off of the field, not of its own size).

With --mesh-independent (two discretisations of one model, e.g. a block as a degree-1 NURBS patch and as Q4 elements)
the datasets that describe the mesh itself (/explicit/patches, /explicit/blocks, /explicit/mesh) are left out, and so
are the per-node contact statistics (/explicit/contact_nodes) and the count of nodes in contact of a contact history
(nodes_in_contact, contact_fraction): they count steps and nodes, and a node that starts at zero gap (the first point
of a Hertz contact) enters contact at a step its round-off decides (5 steps apart between the NURBS and the Q4 block
of tests/regression/contact/iga_hertz_lagrange.xml), while its force, near zero then, leaves the other columns alone.

Usage: check_same_results.py STICKSLIP RTOL A.xml NPROC_A B.xml NPROC_B [MPIEXEC] [--mesh-independent]"""
import os
import sys
import tempfile

import h5py
import numpy as np

from tests.common.runs import stickslip_run


def launcher(mpiexec, nproc):
    """The prefix that runs the program on NPROC ranks (none for one)."""
    return [mpiexec, "-n", str(nproc), "--oversubscribe"] if nproc > 1 else ()


def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and name.startswith("explicit/"):
                cols = [c.decode() if isinstance(c, bytes) else str(c) for c in obj.attrs.get("columns", [])]
                out[name] = (obj[...], cols)
        f.visititems(visit)
    # final nodal arrays in coordinate order
    X = out["explicit/final/coordinates"][0]
    # nodes of two bodies may share a position (a contact point at the start): those are ordered by their final
    # displacement (to 1e-9 m, far above the runs' round-off and far below the bodies' difference)
    U = out["explicit/final/displacement"][0]
    order = np.lexsort(tuple(np.round(U, 9).T[::-1]) + tuple(np.round(X, 12).T[::-1]))
    for name in list(out):  # and the per-node end-of-run contact statistics (natural order as well)
        if name.startswith("explicit/final/") or (name.startswith("explicit/contact_nodes/") and len(out[name][0]) == len(X)):
            out[name] = (out[name][0][order], out[name][1])
    return out


def main():
    args = [a for a in sys.argv if a != "--mesh-independent"]
    prog, rtol, a, na, b, nb = args[1], float(args[2]), args[3], int(args[4]), args[5], int(args[6])
    mpiexec = args[7] if len(args) > 7 else "mpiexec"
    with tempfile.TemporaryDirectory() as tmp:
        stickslip_run(prog, a, os.path.join(tmp, "a"), "-quiet", prefix=launcher(mpiexec, na))
        stickslip_run(prog, b, os.path.join(tmp, "b"), "-quiet", prefix=launcher(mpiexec, nb))
        d1 = datasets(os.path.join(tmp, "a", "results.h5"))
        d2 = datasets(os.path.join(tmp, "b", "results.h5"))
    mesh_independent = len(args) < len(sys.argv)
    if mesh_independent:
        for d in (d1, d2):
            for name in [n for n in d if n.startswith(("explicit/patches/", "explicit/blocks/", "explicit/mesh/", "explicit/contact_nodes/"))]:
                del d[name]
    if sorted(d1) != sorted(d2):
        sys.exit("FAIL: different datasets: %s vs %s" % (sorted(d1), sorted(d2)))
    worst = 0.0
    for name in sorted(d1):
        (x, cols), (y, _) = d1[name], d2[name]
        if x.shape != y.shape:
            sys.exit("FAIL: %s has shape %s in the first run, %s in the second" % (name, x.shape, y.shape))
        x2, y2 = x.reshape(x.shape[0], -1), y.reshape(y.shape[0], -1)
        col_worst = 0.0
        for j in range(x2.shape[1]):
            if mesh_independent and j < len(cols) and cols[j] in ("nodes_in_contact", "contact_fraction"):
                continue
            scale = np.abs(x2[:, j]).max()
            if name == "explicit/energy" and j > 0:  # all but time
                scale = np.abs(x2[:, 1:]).max()
            if name.startswith("explicit/final/"):
                scale = np.abs(x2).max()
            if j < len(cols) and cols[j].startswith("friction_") and "normal_force" in cols:
                scale = max(scale, np.abs(x2[:, cols.index("normal_force")]).max())
            if j < len(cols) and cols[j] == "cof":
                scale = max(scale, 1.0)
            energy = [k for k, c in enumerate(cols) if "dissipation" in c or c.startswith("stored") or c.endswith("_work")]
            if j in energy and "normal_force" in cols:
                scale = max(scale, np.abs(x2[:, energy]).max())
            if scale == 0:
                if np.abs(y2[:, j]).max() != 0:
                    sys.exit("FAIL: %s column %d is zero in the first run only" % (name, j))
                continue
            err = np.abs(x2[:, j] - y2[:, j]).max() / scale
            col_worst = max(col_worst, err)
            if err > rtol:
                sys.exit("FAIL: %s column %d differs by %.3e relative (> %.1e)" % (name, j, err, rtol))
        worst = max(worst, col_worst)
        print("%-40s %-10s largest relative difference %.2e" % (name, x.shape, col_worst))
    print("largest relative difference %.3e (tolerance %.1e): ok" % (worst, rtol))


if __name__ == "__main__":
    main()
