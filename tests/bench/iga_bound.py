#!/usr/bin/env python3
"""The bound of the critical time step on NURBS patches (-explicit_critical_step bound; docs/theory.md, "Critical time
step"): its step against the power iteration's, and the set-up time of a bound run.

Cases: the p = 3 plate of inputs/explicit/iga_plate_stability.xml (2D, 8 x 8 spans) and the unit cube (Neo-Hookean,
E = 1e6 Pa, nu = 0.3, rho = 1000 kg/m^3, clamped at x = 0) as one patch of p = 2 with 19^3 spans and p = 3 with 18^3
spans (the cubes of tests/bench/iga_cost.py). Each case runs 3 steps with the bound and 3 with the power iteration
(-explicit_power_rtol 1e-8). Per case: the two critical steps, their ratio (the bound's step over the power
iteration's: at most 1, the bound being a proof), which bound decided ("element bound" or "stiffness bound"), and the
set-up time of the bound run (its wall time less its time loop: mesh, masses, critical step), the minimum of --repeat
runs; with --vs OTHER the bound runs of OTHER alternate with them, run by run, and its critical step and set-up are
printed beside.

Usage: iga_bound.py STICKSLIP [--repeat N] [--vs OTHER]
Last line: RESULT iga_bound p3_2d_ratio=... p2_3d_ratio=... p3_3d_ratio=... p3_3d_setup_s=... [p3_3d_setup_vs_s=...]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATE = os.path.join(ROOT, "inputs", "explicit", "iga_plate_stability.xml")
CUBE = """<explicit>
  <mesh><patch name="body" degree="{p}" refine="{n} {n} {n}"><box lower="0 0 0" upper="1 1 1"/></patch></mesh>
  <block name="body" material="neo_hookean" E="1e6" nu="0.3" rho="1000"/>
  <displacement nodeset="left" component="all"/>
  <gravity acceleration="0 -1 0"/>
  <time end="{end}" dt="{dt}"/>
  <output histories="100" fields="0"/>
</explicit>
"""


def run(prog, inp, out, how, steps=None):
    """critical step (s), which method gave it, set-up time (s) of one run with -explicit_critical_step HOW"""
    opts = ["-explicit_critical_step", how, "-explicit_power_rtol", "1e-8"]
    r = subprocess.run([prog, "run", inp, "-o", out, "-force"] + opts, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"FAIL: {inp} ({how})\n{r.stdout}{r.stderr}")
    m = re.search(r"critical dt\s+(\S+) s \(([a-z ]+)\)", r.stdout)
    t = float(re.search(r"time per step\s+(\S+) s", r.stdout).group(1))
    n = int(re.search(r"steps\s+(\d+) of dt", r.stdout).group(1))
    wall = float(re.search(r"total wall time\s+(\S+) s", r.stdout).group(1))
    return float(m.group(1)), m.group(2), wall - n * t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--vs", help="a second build whose bound runs alternate with these")
    a = ap.parse_args()
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("p3_2d", None)]
        for p, n in ((2, 19), (3, 18)):
            path = os.path.join(tmp, f"cube{p}.xml")
            dt = 0.1 / n / (1e6 * 0.7 / (1.3 * 0.4) / 1000) ** 0.5  # below the critical step (as in iga_cost.py)
            with open(path, "w") as f:
                f.write(CUBE.format(p=p, n=n, dt=dt, end=3 * dt))
            cases.append((f"p{p}_3d", path))
        for key, inp in cases:
            if inp is None:  # the plate: 3 steps of its own step
                inp = os.path.join(tmp, "plate.xml")
                with open(PLATE) as f:
                    text = f.read()
                with open(inp, "w") as f:
                    f.write(text.replace('<time end="0.2" safety="0.99"/>', '<time end="3e-4" dt="1e-4"/>'))
            power, _, _ = run(a.prog, inp, os.path.join(tmp, "p"), "power")
            setup, setup_vs, bound_vs, how_vs = float("inf"), float("inf"), None, None
            for _ in range(a.repeat):
                bound, how, s = run(a.prog, inp, os.path.join(tmp, "b"), "bound")
                setup = min(setup, s)
                if a.vs:
                    bound_vs, how_vs, s = run(a.vs, inp, os.path.join(tmp, "v"), "bound")
                    setup_vs = min(setup_vs, s)
            result[f"{key}_ratio"] = bound / power
            line = (f"{key}: power iteration {power:.6g} s, bound {bound:.6g} s ({how}), ratio {bound / power:.4f}, "
                    f"set-up of the bound run {setup:.3g} s")
            if a.vs:
                line += f"; {a.vs}: bound {bound_vs:.6g} s ({how_vs}), ratio {bound_vs / power:.4f}, set-up {setup_vs:.3g} s"
            print(line, flush=True)
        result["p3_3d_setup_s"] = setup
        if a.vs:
            result["p3_3d_setup_vs_s"] = setup_vs
    print("RESULT iga_bound " + " ".join(f"{k}={v:.4g}" for k, v in result.items()))


if __name__ == "__main__":
    main()
