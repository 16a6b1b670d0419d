#!/usr/bin/env python3
"""The oracle study (minutes; its result is recorded in docs/validation/rodpair.md, a short case runs in ctest):

1. convergence of the oracle (oracle.py) in dt at N = 301 and in N at a fixed Courant number, tip displacement;
2. the C solvers (MMM and RK45 at N = 301, N_m = 50, the inputs' settings) against the converged oracle at the four
   sections z1 = 0, L1/3, 2L1/3, L1, for the six Table-1 inputs and the four soft-rod-2 inputs (E2A2/E1A1 = 1, 10).

The oracle is first order in dt (Coulomb switching inside a step), so "converged" means the Richardson extrapolation
2 u(dt/2) - u(dt) of two runs, with dt = 1 ms / 80 and 1 ms / 160 at N = 301 (Courant numbers c dt/h 0.075 and 0.0375).

Usage: oracle_study.py STICKSLIP OUTDIR [MARKDOWN]   (writes the tables to MARKDOWN, default OUTDIR/oracle.md)"""
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
IN = os.path.join(ROOT, "inputs", "rodpair")
TABLE1 = ["omega1-caseA", "omega1-caseB", "omega2-caseA", "omega2-caseB", "pulse-caseA", "pulse-caseB"]
SOFT = ["soft-omega1-caseA", "soft-omega1-caseB", "soft10-omega1-caseA", "soft10-omega1-caseB"]


def run_oracle(p, N, sub):
    _, u, _ = oracle.simulate(p, N, p["dt_out"] / sub, p["end"], p["dt_out"])
    return u


def richardson(p, N, sub):
    return 2 * run_oracle(p, N, 2 * sub) - run_oracle(p, N, sub)


def run_c(prog, case, solver, outdir):
    d = os.path.join(outdir, f"{case}_{solver}")
    cmd = [prog, "run", os.path.join(IN, case + ".xml"), "-o", d, "-force", "-quiet", "-rodpair_solver", solver]
    subprocess.run(cmd, check=True, capture_output=True)
    return oracle.read_sections(os.path.join(d, "results.h5"))[1]


def main():
    prog, outdir = sys.argv[1], sys.argv[2]
    md = sys.argv[3] if len(sys.argv) > 3 else os.path.join(outdir, "oracle.md")
    os.makedirs(outdir, exist_ok=True)
    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    t0 = time.time()
    emit("### Oracle convergence in dt (N = 301, tip u1(L1, t), relative L2 over the whole horizon against the "
         "extrapolation 2 u(dt = 1 ms / 160) - u(1 ms / 80))")
    emit()
    emit("| case | dt = 1 ms / 10 | / 20 | / 40 | / 80 | / 160 |")
    emit("|---|---|---|---|---|---|")
    for case in ["omega1-caseA", "pulse-caseA", "soft-omega1-caseB"]:
        p = oracle.read_input(os.path.join(IN, case + ".xml"))
        us = {s: run_oracle(p, 301, s)[:, 3] for s in (10, 20, 40, 80, 160)}
        ref = 2 * us[160] - us[80]
        emit(f"| {case} | " + " | ".join(f"{oracle.rel_l2(us[s], ref):.2e}" for s in (10, 20, 40, 80, 160)) + " |")
    emit()
    emit("### Oracle convergence in N (Courant number 0.075 and 0.0375, Richardson in dt, tip, relative L2 against N = 601)")
    emit()
    emit("| case | N = 51 | 101 | 201 | 301 | 401 |")
    emit("|---|---|---|---|---|---|")
    for case in ["omega1-caseA", "omega2-caseA", "soft-omega1-caseA"]:
        p = oracle.read_input(os.path.join(IN, case + ".xml"))
        us = {}
        for N in (51, 101, 201, 301, 401, 601):
            sub = max(10, int(round(80 * (N - 1) / 300)))
            us[N] = richardson(p, N, sub)[:, 3]
        emit(f"| {case} | " + " | ".join(f"{oracle.rel_l2(us[N], us[601]):.2e}" for N in (51, 101, 201, 301, 401)) + " |")
    emit()
    emit("### C solvers (N = 301, N_m = 50) against the converged oracle (N = 301), relative L2 of u1 at z1 = 0, L1/3, "
         "2L1/3, L1")
    emit()
    emit("| case | MMM | RK45 |")
    emit("|---|---|---|")
    worst = 0.0
    for case in TABLE1 + SOFT:
        p = oracle.read_input(os.path.join(IN, case + ".xml"))
        ref = richardson(p, 301, 80)
        row = []
        for solver in ("mmm", "rk45"):
            u = run_c(prog, case, solver, outdir)
            e = [oracle.rel_l2(u[:, s], ref[:, s]) for s in range(4)]
            worst = max(worst, max(e))
            row.append(", ".join(f"{x:.1e}" for x in e))
        emit(f"| {case} | " + " | ".join(row) + " |")
    emit()
    emit(f"Largest difference {worst:.2e}; study time {time.time() - t0:.0f} s.")
    with open(md, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"RESULT rodpair_oracle worst_l2={worst:.3e}")


if __name__ == "__main__":
    main()
