#!/usr/bin/env python3
"""The rod-2 modes study (about 15 minutes on two free cores; its tables are in docs/validation/rodpair.md, short cases
run in ctest): how many rod-2 modes the soft and the slow soft rod 2 need, and how well the run's truncation estimate
(/rodpair@rod2_truncation, docs/theory.md) predicts it.

For soft-omega1-caseA/B (rod 2 as rod 1) and slow-omega1-caseA/B (rod 2 as stiff as rod 1, four times as heavy: half
its wave speed), RK45 (the inputs' solver) over the inputs' 1 s at N = 301 with N_m = 25, 50, the default of
SKRodPairDefaultModes (95 for the slow rod 2, 50 for the soft one) and 300, and the mode-matching method at 50 and at
the default. Each run against
  - on the slow rod 2, the RK45 run with N_m = 300 (the same semi-discrete rod 1): the truncation error the estimate
    predicts (on the soft rod 2 it is below the oracle's resolution, see the table);
  - the converged independent oracle (oracle.py, Richardson 2 u(1 ms / 40) - u(1 ms / 20), whose own error is 5e-5
    on slow case A against 2 u(1 ms / 320) - u(1 ms / 160); the ctest check uses the same).
Runs already finished in OUTDIR are reused.
Errors are relative L2 of u1 over the horizon, the largest of the four sections z1 = 0, L1/3, 2L1/3, L1.

Usage: modes_study.py STICKSLIP OUTDIR [MARKDOWN]   (writes the table to MARKDOWN, default OUTDIR/modes.md)"""
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
from tests.common.runs import stickslip_run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
IN = os.path.join(ROOT, "inputs", "rodpair")
CASES = {"soft-omega1-caseA": 50, "soft-omega1-caseB": 50, "slow-omega1-caseA": 95, "slow-omega1-caseB": 95}
REFERENCE = ["slow-omega1-caseA", "slow-omega1-caseB"]  # with the N_m = 300 run (170 s CPU each)


def cached_run(prog, outdir, case, solver, nm):
    """a run, or the finished run already in OUTDIR (its results.h5 has cpu_time, written at the end)"""
    d = os.path.join(outdir, f"{case}_{solver}_{nm}")
    f = os.path.join(d, "results.h5")
    try:
        with h5py.File(f, "r") as h5:
            done = "cpu_time" in h5["rodpair"].attrs
    except (OSError, KeyError):
        done = False
    if not done:
        modes = ["-rodpair_modes", str(nm)] if nm is not None else []
        stickslip_run(prog, os.path.join(IN, case + ".xml"), d, "-force", "-quiet", "-rodpair_solver", solver, *modes)
    with h5py.File(f, "r") as h5:
        a = h5["rodpair"].attrs
        info = {k: a.get(k, float("nan")) for k in ("modes", "rod2_truncation", "rod2_modes_needed", "cpu_time")}
    return oracle.read_sections(f)[1], info


def worst(u, ref):
    return max(oracle.rel_l2(u[:, s], ref[:, s]) for s in range(4))


def main():
    prog, outdir = sys.argv[1], sys.argv[2]
    md = sys.argv[3] if len(sys.argv) > 3 else os.path.join(outdir, "modes.md")
    os.makedirs(outdir, exist_ok=True)
    t0 = time.time()
    jobs = []
    for case, default in CASES.items():
        for nm in sorted({25, 50, default} | ({300} if case in REFERENCE else set())):
            jobs.append((case, "rk45", nm))
        jobs += [(case, "mmm", 50), (case, "mmm", None)] if default != 50 else [(case, "mmm", None)]
    jobs.sort(key=lambda j: -(j[2] or 95))  # the longest first, two at a time (a 2-core machine)
    with ThreadPoolExecutor(2) as pool:
        res = dict(zip(jobs, pool.map(lambda j: cached_run(prog, outdir, *j), jobs)))
    lines = ["| case | solver | N_m | estimate (rod2_truncation) | needed for 1e-3 | vs N_m = 300 (RK45) | vs converged oracle | CPU (s) |",
             "|---|---|---|---|---|---|---|---|"]
    for case in CASES:
        p = oracle.read_input(os.path.join(IN, case + ".xml"))
        ref = 2 * oracle.simulate(p, 301, p["dt_out"] / 40, p["end"], p["dt_out"])[1] - oracle.simulate(
            p, 301, p["dt_out"] / 20, p["end"], p["dt_out"])[1]
        u300 = res[(case, "rk45", 300)][0] if case in REFERENCE else None
        for (c, solver, nm), (u, info) in res.items():
            if c != case:
                continue
            label = f"{info['modes']}" + (" (default)" if nm is None or nm == CASES[case] else "")
            vs300 = "-" if u300 is None or (solver, nm) == ("rk45", 300) else f"{worst(u, u300):.1e}"
            lines.append(f"| {case} | {solver} | {label} | {info['rod2_truncation']:.1e} | {info['rod2_modes_needed']} | {vs300} | "
                         f"{worst(u, ref):.1e} | {info['cpu_time']:.1f} |")
    lines += ["", f"Study time {time.time() - t0:.0f} s."]
    print("\n".join(lines))
    with open(md, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
