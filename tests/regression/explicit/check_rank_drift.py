#!/usr/bin/env python3
"""1 and 2 MPI ranks on a chaotic contact run: the two runs differ only by round-off (the ranks add the element
forces of shared nodes in another order), and the dynamics amplify it. This shows that a large late difference is
round-off growth and not a bug: the watch point's displacement must agree to round-off over the first output rows
(relative difference <= FIRST_TOL; a wrong ghost exchange or a missing contact force on one rank differs at O(1) at
once) and the difference must then grow (by more than GROWTH over the run). The growth is the motion's own: a
third run on one rank with the initial angular velocity changed by one ulp (8.9e-16 relative) drifts away from the
first just as far (its largest difference within a factor SPREAD of the ranks' one). Bursts of growth come at
contact and stick/slip switches, where a difference in the last digits moves a switch by a step.
Prints the largest relative difference per time window for both pairs (the table in docs/theory.md).

Usage: check_rank_drift.py STICKSLIP INPUT.xml END FIRST_TOL GROWTH SPREAD MPIEXEC"""
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish  # noqa: E402

prog, inp, end, first_tol, growth, spread, mpiexec = (sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]),
                                                       float(sys.argv[5]), float(sys.argv[6]), sys.argv[7])
work = tempfile.mkdtemp(prefix="rank_drift_")
text = re.sub(r'<time end="[^"]*"', f'<time end="{end:g}"', open(inp).read())
path = os.path.join(work, "input.xml")
open(path, "w").write(text)
# one ulp more initial angular velocity (6 -> 6 + 8.9e-16)
text, n = re.subn(r'angular_velocity="6"', 'angular_velocity="6.000000000000001"', text)
assert n == 1, "INPUT must start with angular_velocity=\"6\""
perturbed = os.path.join(work, "perturbed.xml")
open(perturbed, "w").write(text)


def watch(nproc, path=path, tag=""):
    out = os.path.join(work, f"np{nproc}{tag}")
    cmd = [prog, "run", path, "-o", out, "-quiet"]
    if nproc > 1:
        cmd = [mpiexec, "-n", str(nproc), "--oversubscribe"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if r.returncode:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    with h5py.File(os.path.join(out, "results.h5"), "r") as f:
        name = next(iter(f["/explicit/watch"]))
        return f["/explicit/watch/" + name][...]


a, b, c = watch(1), watch(2), watch(1, perturbed, "p")
check(a.shape == b.shape == c.shape and np.array_equal(a[:, 0], b[:, 0]), "same output times in the three runs")
t = a[:, 0]
scale = np.max(np.abs(a[:, 1:3] - a[0, 1:3]))  # the size of the motion
rel = np.max(np.abs(a[:, 1:3] - b[:, 1:3]), axis=1) / scale
relp = np.max(np.abs(a[:, 1:3] - c[:, 1:3]), axis=1) / scale
print("largest |difference of u| / max |u - u(0)| of the watch point, by time window:")
print("  window (s)                 1 vs 2 ranks   1 rank vs 1 ulp of omega0")
edges = np.unique(np.concatenate([[0], np.geomspace(max(t[1], 1e-3), t[-1], 12)]))
for lo, hi in zip(edges[:-1], edges[1:]):
    m = (t > lo) & (t <= hi)
    if m.any():
        print(f"  ({lo:8.4f}, {hi:8.4f}]      {rel[m].max():.2e}       {relp[m].max():.2e}")
nz = np.nonzero(rel)[0]
first = rel[nz[0]] if len(nz) else 0.0
print(f"first_nonzero={first:.3e} at_t={t[nz[0]] if len(nz) else 0:.4f} largest={rel.max():.3e} largest_perturbed={relp.max():.3e}")
check(first <= first_tol, f"the first difference is round-off: {first:.2e} <= {first_tol:g}")
check(rel.max() >= growth * max(first, 1e-16), f"the difference grows: largest {rel.max():.2e} >= {growth:g} x the first")
check(rel.max() <= spread * relp.max() and relp.max() <= spread * rel.max(),
      f"one ulp in the initial state drifts as far ({relp.max():.2e}) as the ranks ({rel.max():.2e}), within a factor {spread:g}")
finish("check_rank_drift")
