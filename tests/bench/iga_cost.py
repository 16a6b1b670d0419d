#!/usr/bin/env python3
"""Cost of NURBS patches (Bezier cells) in the explicit solver against Lagrange meshes of the same number of nodes.
Prints, as its last line,
  RESULT iga_cost p2_2d_ratio=... p2_2d_reduced_ratio=... p3_2d_ratio=... ... p3_3d_ratio=... p3_3d_reduced_ratio=...
  pK_Dd_ratio   (time per control point and step of a degree-K patch) / (time per node and step of Q4 in 2D, H8 in
                3D) on the same square/cube with the same number of nodes: 2D 101 x 101 nodes (Q4 100 x 100 cells, p = 2
                99 x 99 spans, p = 3 98 x 98), 3D 21^3 (H8 20^3, p = 2 19^3, p = 3 18^3). Neo-Hookean, one core, the
                solver's "time per step" (the time loop alone, no setup or output), the minimum of --repeat runs (the
                machine is shared: the minimum is the least disturbed run).
  pK_Dd_reduced_ratio  the same with the reduced quadrature of the force (<block quadrature="reduced">: p Gauss points
                per direction instead of p + 1).
Also printed per case: nodes, elements, time per step, time per node and step, and per element and step, and for
the patches the set-up and output time of a run (its wall time less its time loop: mesh, masses, critical step).

With --vs OTHER (a second build), each patch case of the full rule is also run with OTHER, the two alternating run by
run, and the RESULT line adds pK_Dd_speedup = (OTHER's time per step) / (STICKSLIP's) for each of them.

Usage: iga_cost.py STICKSLIP [--repeat N] [--steps N] [--vs OTHER]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

E, NU, RHO = 1e6, 0.3, 1000.0

LAGRANGE = '<{gen} type="{type}" cells="{cells}" lower="{lower}" upper="{upper}"/>'
PATCH = '<patch name="body" degree="{p}" refine="{cells}"><{gen} lower="{lower}" upper="{upper}"/></patch>'
INPUT = """<explicit>
  <mesh>{mesh}</mesh>
  <block name="body" material="neo_hookean" E="{E}" nu="{nu}" rho="{rho}"{state}/>
  <displacement nodeset="left" component="all"/>
  <gravity acceleration="{g}"/>
  <time end="{end}" dt="{dt}"/>
  <output histories="100" fields="0"/>
</explicit>
"""


def step_time(prog, tmp, name, dim, kind, p, cells, steps, repeat, block=""):
    """Minimum over REPEAT runs of the program's time per step (s) for one mesh of the unit square/cube, and of the
    time of a run outside its time loop (s: set-up and output, its wall time less the time loop). BLOCK: more
    attributes of the <block> (e.g. the mass)."""
    gen = "rectangle" if dim == 2 else "box"
    lower, upper = " ".join(["0"] * dim), " ".join(["1"] * dim)
    if kind == "lagrange":
        mesh = LAGRANGE.format(gen=gen, type="Q4" if dim == 2 else "H8", cells=" ".join([str(cells)] * dim), lower=lower, upper=upper)
    else:
        mesh = PATCH.format(p=p, gen=gen, cells=" ".join([str(cells)] * dim), lower=lower, upper=upper)
    c = (E * (1 - NU) / ((1 + NU) * (1 - 2 * NU)) / RHO) ** 0.5
    dt = 0.1 / cells / c  # below the critical step of every case (p = 3: about 0.6 h / c)
    g = " ".join(["0", "-1"] + (["0"] if dim == 3 else []))
    text = INPUT.format(mesh=mesh, E=E, nu=NU, rho=RHO, state=(' stress_state="plane_strain"' if dim == 2 else "") + block, g=g, end=steps * dt, dt=dt)
    path = os.path.join(tmp, name + ".xml")
    open(path, "w").write(text)
    best, setup = None, float("inf")
    for _ in range(repeat):
        r = subprocess.run([prog, "run", path, "-o", os.path.join(tmp, name), "-force", "-quiet"], capture_output=True, text=True)
        if r.returncode:
            sys.exit("FAIL: %s\n%s%s" % (path, r.stdout, r.stderr))
        m = re.search(r"time per step\s+([0-9.eE+-]+) s", r.stdout)
        if not m:
            sys.exit("FAIL: no 'time per step' in the output of %s:\n%s" % (path, r.stdout))
        t = float(m.group(1))
        best = t if best is None else min(best, t)
        w = re.search(r"total wall time\s+([0-9.eE+-]+) s", r.stdout)
        nsteps = int(re.search(r"steps\s+(\d+) of dt", r.stdout).group(1))
        if w:
            setup = min(setup, float(w.group(1)) - nsteps * t)
    return best, setup


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--vs", help="a second build to compare the patch cases with, run by run")
    a = ap.parse_args()
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for dim, n in ((2, 100), (3, 20)):  # n cells of Q4/H8: (n + 1)^dim nodes; a degree-p patch with n + 1 - p spans
            nodes = (n + 1) ** dim
            t_lag, _ = step_time(a.prog, tmp, f"lag{dim}", dim, "lagrange", 1, n, a.steps, a.repeat)
            per_lag = t_lag / nodes
            print(f"{dim}D {'Q4' if dim == 2 else 'H8'}: {nodes} nodes, {n ** dim} elements, {t_lag:.4g} s/step, "
                  f"{per_lag * 1e9:.1f} ns per node-step, {t_lag / n ** dim * 1e9:.1f} ns per element-step")
            for p, rule in ((2, ""), (2, "reduced"), (3, ""), (3, "reduced")):
                spans, key = n + 1 - p, f"p{p}_{dim}d" + ("_" + rule if rule else "")
                block = f' quadrature="{rule}"' if rule else ""
                if a.vs and not rule:  # alternate the two builds run by run: each one's minimum over the same stretch of time
                    t, setup, t_vs = float("inf"), float("inf"), float("inf")
                    for _ in range(a.repeat):
                        t1, s1 = step_time(a.prog, tmp, f"p{p}_{dim}", dim, "patch", p, spans, a.steps, 1)
                        t2, _ = step_time(a.vs, tmp, f"p{p}_{dim}vs", dim, "patch", p, spans, a.steps, 1)
                        t, setup, t_vs = min(t, t1), min(setup, s1), min(t_vs, t2)
                    result[f"{key}_speedup"] = t_vs / t
                    print(f"{dim}D p = {p} with {a.vs}: {t_vs:.4g} s/step, speedup {t_vs / t:.2f}")
                else:
                    t, setup = step_time(a.prog, tmp, key, dim, "patch", p, spans, a.steps, a.repeat, block)
                result[f"{key}_ratio"] = (t / nodes) / per_lag
                print(f"{dim}D p = {p}{' (' + rule + ' quadrature)' if rule else ''}: {nodes} control points, {spans ** dim} elements, "
                      f"{t:.4g} s/step, {t / nodes * 1e9:.1f} ns per control-point-step, {t / spans ** dim * 1e9:.1f} ns per element-step, "
                      f"ratio {result[f'{key}_ratio']:.2f}, set-up and output {setup:.3g} s")
    print("RESULT iga_cost " + " ".join(f"{k}={v:.3g}" for k, v in result.items()))


if __name__ == "__main__":
    main()
