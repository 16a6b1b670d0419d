#!/usr/bin/env python3
"""Checks of rodpair runs (results.h5 written by `stickslip run`).

  check_rodpair.py agree A.h5 B.h5 TOL   relative L2 difference of u1 at z1 = 0, L1/3, 2L1/3, L1 below TOL
  check_rodpair.py energy A.h5 TOL       max_t |kinetic + strain + dissipated - work| / max_t |work| below TOL
  check_rodpair.py selftest A.h5         the agree check fails when one section is perturbed by 1 % (it can fail)
"""
import sys

import numpy as np

from postproc.results import Results

SECTIONS = ["u1_0", "u1_L/3", "u1_2L/3", "u1_L"]


def rel_l2(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def agree(fa, fb, tol, perturb=0.0):
    ha, hb = Results(fa).history("rodpair/sections"), Results(fb).history("rodpair/sections")
    if len(ha) != len(hb) or np.max(np.abs(ha["t"] - hb["t"])) > 1e-12:
        return [f"output times differ ({len(ha)} vs {len(hb)} rows)"]
    bad = []
    for name in SECTIONS:
        a = ha[name] * (1 + perturb if name == "u1_L" else 1)
        e = rel_l2(a, hb[name])
        print(f"{name:8s} relative L2 difference {e:.3e} (tolerance {tol:g})")
        if not e < tol:
            bad.append(f"{name}: {e:.3e} >= {tol:g}")
    return bad


def energy(f, tol):
    h = Results(f).history("rodpair/energy")
    work = np.max(np.abs(h["work"]))
    err = np.max(np.abs(h["balance"])) / work
    print(f"energy balance {err:.3e} of max work {work:.4g} J (tolerance {tol:g})")
    return [] if err < tol and work > 0 else [f"energy balance {err:.3e} >= {tol:g}"]


def main():
    cmd = sys.argv[1]
    if cmd == "agree":
        bad = agree(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif cmd == "energy":
        bad = energy(sys.argv[2], float(sys.argv[3]))
    elif cmd == "selftest":
        bad = [] if agree(sys.argv[2], sys.argv[2], 1e-3, perturb=0.01) else ["a 1 % perturbation passed the check"]
    else:
        sys.exit(f"unknown command {cmd}")
    if bad:
        sys.exit("FAIL: " + "; ".join(bad))
    print("ok")


if __name__ == "__main__":
    main()
