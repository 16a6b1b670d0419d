#!/usr/bin/env python3
"""Benchmark: memory-kernel reduction versus the full N-mode model of the bowed string, at the same accuracy.

Case: inputs/bowedstring/section5-limitcycle.xml (Szalai 2013 section V, D_k = 0.01) with N modes (default 1000).
Accuracy: the stick-slip limit cycle (period and stick duration over the second half of the run) against a reference,
the full model at rtol = 1e-10. Each model is run at its cheapest setting that meets the target (default 0.2 %
relative on both measures): the reduced model halves dt from 1e-3, the full model tightens rtol from 1e-3.
Times are the solvers' own wall times (results.h5 attribute wall_time: the solve only, no I/O, no kernel tables).
Run: python3 tests/bench/bowedstring_speed.py [--modes N] [--target REL] [--repeat 3] [--program build/bin/stickslip]
(the times reported are the best of --repeat runs of the chosen settings).
The last line is `RESULT bowedstring reduced_s=... full_s=... speedup=...`.
"""
import argparse
import datetime
import os
import platform
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from postproc.results import Results  # noqa: E402
from tests.common.runs import stickslip_run  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def measure(prog, inp, out, model, modes, extra):
    """A run of MODEL with MODES modes and the options EXTRA: its period, stick duration and wall time."""
    stickslip_run(prog, inp, out, "-force", "-quiet", "-bowedstring_model", model, "-bowedstring_modes", str(modes), *extra)
    a = Results(os.path.join(out, "results.h5")).attrs(f"bowedstring/{model}")
    return a.get("period"), a.get("stick_duration"), a["wall_time"]


def error(res, ref):
    if res[0] is None:
        return float("inf")
    return max(abs(res[0] / ref[0] - 1), abs(res[1] / ref[1] - 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modes", type=int, default=1000)
    ap.add_argument("--target", type=float, default=2e-3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--program", default=os.environ.get("STICKSLIP", os.path.join(ROOT, "build", "bin", "stickslip")))
    args = ap.parse_args()
    inp = os.path.join(ROOT, "inputs", "bowedstring", "section5-limitcycle.xml")
    tmp = tempfile.mkdtemp(prefix="bowedstring_speed_")
    print(f"bowedstring_speed: {platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
          f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, N = {args.modes}, target {args.target:g}")
    ref = measure(args.program, inp, os.path.join(tmp, "ref"), "full", args.modes, ["-bowedstring_full_rtol", "1e-10"])
    print(f"reference (full, rtol 1e-10): period {ref[0]:.6f} stick {ref[1]:.6f} ({ref[2]:.2f} s)")
    red = None
    for k in range(6):
        dt = 1e-3 / 2**k
        res = measure(args.program, inp, os.path.join(tmp, f"red{k}"), "reduced", args.modes, ["-bowedstring_dt", repr(dt)])
        print(f"reduced dt = {dt:.3e}: error {error(res, ref):.2e}, {res[2]:.3f} s")
        if error(res, ref) <= args.target:
            red = (dt, res)
            break
    full = None
    for rtol in (1e-3, 1e-4, 1e-5, 1e-6, 1e-7):
        res = measure(args.program, inp, os.path.join(tmp, f"full{rtol:g}"), "full", args.modes, ["-bowedstring_full_rtol", repr(rtol)])
        print(f"full rtol = {rtol:g}: error {error(res, ref):.2e}, {res[2]:.3f} s")
        if error(res, ref) <= args.target:
            full = (rtol, res)
            break
    if red is None or full is None:
        sys.exit("a model did not reach the target accuracy")
    print(f"same accuracy (<= {args.target:g}): reduced dt = {red[0]:.3e} (error {error(red[1], ref):.2e}), "
          f"full rtol = {full[0]:g} (error {error(full[1], ref):.2e})")
    # Best of --repeat runs of each chosen setting (a shared machine makes single timings noisy).
    t_red, t_full = red[1][2], full[1][2]
    for i in range(args.repeat - 1):
        t_red = min(t_red, measure(args.program, inp, os.path.join(tmp, f"rr{i}"), "reduced", args.modes, ["-bowedstring_dt", repr(red[0])])[2])
        t_full = min(t_full, measure(args.program, inp, os.path.join(tmp, f"fr{i}"), "full", args.modes, ["-bowedstring_full_rtol", repr(full[0])])[2])
    print(f"best of {args.repeat}: reduced {t_red:.3f} s, full {t_full:.3f} s")
    print(f"RESULT bowedstring reduced_s={t_red:.3f} full_s={t_full:.3f} speedup={t_full / t_red:.1f}")


if __name__ == "__main__":
    main()
