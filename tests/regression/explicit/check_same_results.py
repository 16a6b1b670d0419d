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
many switching terms whose round-off is that of the energies in play. Final nodal arrays are compared after sorting the nodes by their coordinates (numberings may differ), each
against the largest magnitude of the whole array (a vector field's component that stays near zero, as the x velocity of
a one-dimensional wave, carries the round-off of the field, not of its own size).

Usage: check_same_results.py STICKSLIP RTOL A.xml NPROC_A B.xml NPROC_B [MPIEXEC]"""
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
    order = np.lexsort(np.round(X, 12).T[::-1])
    for name in list(out):
        if name.startswith("explicit/final/"):
            out[name] = (out[name][0][order], out[name][1])
    return out


def main():
    prog, rtol, a, na, b, nb = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
    mpiexec = sys.argv[7] if len(sys.argv) > 7 else "mpiexec"
    with tempfile.TemporaryDirectory() as tmp:
        stickslip_run(prog, a, os.path.join(tmp, "a"), "-quiet", prefix=launcher(mpiexec, na))
        stickslip_run(prog, b, os.path.join(tmp, "b"), "-quiet", prefix=launcher(mpiexec, nb))
        d1 = datasets(os.path.join(tmp, "a", "results.h5"))
        d2 = datasets(os.path.join(tmp, "b", "results.h5"))
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
