#!/usr/bin/env python3
"""The run-time energy check does not stop a run whose energy balance drifts only by the round-off of the strain
energy (docs/theory.md, "Run-time energy check"): INPUT (stable/energy_roundoff.xml, gravity ramped from rest at a small
step) must finish (exit 0), and its balance must stay within the floor the check allows, 4 eps M c^2 (M the mass, c the
wave speed of its material: the floor is 2.1e-10 J there). Self-test: at some history sample the drift exceeds the
tolerance 0.05 of the largest energy seen so far, so that without the floor the check would have stopped the run (it
did, at step 30, before the floor existed).
Usage: check_energy_roundoff.py STICKSLIP INPUT.xml"""
import subprocess
import sys
import tempfile

import h5py
import numpy as np

EPS = np.finfo(float).eps


def main():
    prog, path = sys.argv[1], sys.argv[2]
    mass, c2 = 1000 * 1 * 1 * 0.2, 1.2e6 / 1000  # rho L L H; (lambda + 2 mu) / rho for E = 1e6, nu = 0.25
    floor = 4 * EPS * mass * c2
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([prog, "run", path, "-o", tmp, "-force", "-quiet"], capture_output=True, text=True)
        print(r.stdout + r.stderr)
        if r.returncode != 0:
            sys.exit("FAIL: the run stopped (exit %d)" % r.returncode)
        with h5py.File(tmp + "/results.h5", "r") as f:
            e = f["/explicit/energy"]
            cols = [c.decode() if isinstance(c, bytes) else c for c in e.attrs["columns"]]
            a = e[()]
    drift = np.abs(a[:, cols.index("balance")] - a[0, cols.index("balance")])
    scale = np.maximum.accumulate(np.max(np.abs(a[:, [cols.index(k) for k in cols if k not in ("time", "balance")]]), axis=1))
    rel = np.where(scale > 0, drift / np.where(scale > 0, scale, 1), 0)
    print(f"largest drift {drift.max():.3g} J (floor {floor:.3g} J); largest drift / energy so far {rel.max():.3g} (tolerance 0.05)")
    if drift.max() > floor:
        sys.exit("FAIL: the balance drifted beyond the round-off floor")
    if rel.max() <= 0.05:
        sys.exit("FAIL: self-test: the drift never exceeds the relative tolerance, the case does not exercise the floor")
    print("ok")


if __name__ == "__main__":
    main()
