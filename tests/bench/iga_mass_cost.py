#!/usr/bin/env python3
"""Cost per step of the iterated mass of NURBS patches (<block mass="iterated">, docs/theory.md, "Higher-order mass of
patches") against the lumped mass, on the meshes of iga_cost.py (unit square 2D, cube 3D, Neo-Hookean, one core, the
solver's "time per step", minimum of --repeat runs). Prints, as its last line,
  RESULT iga_mass_cost p2_2d_ratio=... p3_2d_ratio=... p2_3d_ratio=... p3_3d_ratio=... p3_2d_step_ratio=...
  pK_Dd_ratio        (time per step, iterated mass, mass_iterations = p - 1) / (time per step, lumped mass), same mesh
  p3_2d_step_ratio   (critical step, iterated) / (critical step, lumped) of the 2D p = 3 case (the clamped unit square)
Also printed per case: the two times, the critical steps and the CPU model (/proc/cpuinfo).

With --vs OTHER (a second build), every case is also run with OTHER, the two alternating run by run (each one's minimum
over the same stretch of time), and the RESULT line adds vs_pK_Dd_ratio, OTHER's ratio of the same case.

Usage: iga_mass_cost.py STICKSLIP [--repeat N] [--steps N] [--cells2d N] [--cells3d N] [--vs OTHER]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iga_cost import step_time  # noqa: E402


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def critical_step(prog, tmp, name):
    """The critical step the solver reported for the input NAME.xml of step_time (its last run's output is rerun)."""
    r = subprocess.run([prog, "run", os.path.join(tmp, name + ".xml"), "-o", os.path.join(tmp, name), "-force", "-quiet"],
                       capture_output=True, text=True)
    return float(re.search(r"critical dt\s+([0-9.eE+-]+) s", r.stdout).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--cells2d", type=int, default=100)
    ap.add_argument("--cells3d", type=int, default=20)
    ap.add_argument("--vs", help="a second build to compare with, run by run")
    a = ap.parse_args()
    progs = [a.prog] + ([a.vs] if a.vs else [])
    print(f"CPU: {cpu_model()}")
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for dim, n in ((2, a.cells2d), (3, a.cells3d)):
            for p in (2, 3):
                spans = n + 1 - p
                t = [{"lumped": float("inf"), "iterated": float("inf")} for _ in progs]
                for _ in range(a.repeat):  # the builds alternate run by run
                    for j, prog in enumerate(progs):
                        for mass in ("lumped", "iterated"):
                            tj, _ = step_time(prog, tmp, f"{mass}_p{p}_{dim}", dim, "patch", p, spans, a.steps, 1, f' mass="{mass}"')
                            t[j][mass] = min(t[j][mass], tj)
                if a.vs:
                    result[f"vs_p{p}_{dim}d_ratio"] = t[1]["iterated"] / t[1]["lumped"]
                t = t[0]
                result[f"p{p}_{dim}d_ratio"] = t["iterated"] / t["lumped"]
                line = (f"{dim}D p = {p}, {spans}^{dim} spans: lumped {t['lumped'] * 1e3:.3g} ms/step, iterated "
                        f"{t['iterated'] * 1e3:.3g} ms/step, ratio {result[f'p{p}_{dim}d_ratio']:.2f}")
                if dim == 2 and p == 3:
                    dl, di = critical_step(a.prog, tmp, f"lumped_p{p}_{dim}"), critical_step(a.prog, tmp, f"iterated_p{p}_{dim}")
                    result["p3_2d_step_ratio"] = di / dl
                    line += f"; critical step lumped {dl:.4g} s, iterated {di:.4g} s"
                if a.vs:
                    line += f"; with {a.vs}: ratio {result[f'vs_p{p}_{dim}d_ratio']:.2f}"
                print(line, flush=True)
    keys = ("p2_2d_ratio", "p3_2d_ratio", "p2_3d_ratio", "p3_3d_ratio", "p3_2d_step_ratio")
    keys += tuple("vs_" + k for k in keys[:4] if a.vs)
    print("RESULT iga_mass_cost " + " ".join(f"{k}={result[k]:.3g}" for k in keys))


if __name__ == "__main__":
    main()
