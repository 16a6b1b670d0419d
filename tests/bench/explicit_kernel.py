#!/usr/bin/env python3
"""Benchmark of the explicit solver. Prints, as its last line,
  RESULT explicit_kernel q4_ns=... h8_ns=... h8_gflops=... peak_gflops=... calculix_ratio=... mpi2_speedup=...
  q4_ns, h8_ns    nanoseconds per element-cycle of a whole explicit step (internal force, assembly, update, energy
                  bookkeeping), Neo-Hookean, one core: wall time of the time loop / (elements x steps), from the
                  program's "time per step" (the loop alone, no setup or output; histories every 100 steps)
  h8_gflops, peak_gflops   from tests/bench/explicit_kernel_micro (the H8 internal-force kernel alone against this
                  core's FMA peak); "nan" when that program is not given
  calculix_ratio  CalculiX 2.20 (ccx, *DYNAMIC,EXPLICIT, NLGEOM, *HYPERELASTIC NEO HOOKE, C3D8, the same mesh and
                  material, OMP_NUM_THREADS=1) time per element-cycle divided by ours (h8 of the same mesh); ccx picks its
                  own stable increment, so the two runs take different step counts and are compared per element-cycle
  mpi2_speedup    time per step on 1 rank / on 2 ranks, H8 box of about 1e5 elements

Usage: explicit_kernel.py STICKSLIP [--micro EXPLICIT_KERNEL_MICRO] [--ccx ccx] [--quick]"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

E, NU, RHO = 1e6, 0.3, 1000.0

INPUT = """<explicit>
  <mesh><{gen} type="{type}" cells="{cells}" lower="{lower}" upper="{upper}"/></mesh>
  <block name="body" material="neo_hookean" E="{E}" nu="{nu}" rho="{rho}"/>
  <displacement nodeset="left" component="all"/>
  <traction sideset="right" value="{traction}"><function type="smoothstep" t0="0" t1="{t1}" value="1"/></traction>
  <time end="{end}" dt="{dt}"/>
  <output histories="100" fields="0"/>
  <options>-explicit_power_maxit 300</options>
</explicit>
"""


def stickslip_step_time(prog, tmp, name, gen, etype, cells, size, steps, nproc=1, dt=None):
    """Runs the program and returns (seconds per step, elements, dt)."""
    dim = len(cells)
    lower = " ".join(["0"] * dim)
    upper = " ".join("%g" % s for s in size)
    nelem = int(np.prod(cells))
    h = min(s / c for s, c in zip(size, cells))
    c = np.sqrt(E * (1 - NU) / ((1 + NU) * (1 - 2 * NU)) / RHO)
    if dt is None:
        dt = 0.3 * h / c  # well below the critical step of any of these meshes
    traction = " ".join(["0", "-1e3"] + (["0"] if dim == 3 else []))
    text = INPUT.format(gen=gen, type=etype, cells=" ".join(map(str, cells)), lower=lower, upper=upper, E=E, nu=NU, rho=RHO,
                        traction=traction, t1=steps * dt / 2, end=steps * dt, dt=dt)
    path = os.path.join(tmp, name + ".xml")
    open(path, "w").write(text)
    cmd = [prog, "run", path, "-o", os.path.join(tmp, name), "-force", "-quiet"]
    if nproc > 1:
        cmd = ["mpiexec", "-n", str(nproc), "--oversubscribe", "--bind-to", "core"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    m = re.search(r"time per step\s+([0-9.eE+-]+) s", r.stdout)
    return float(m.group(1)), nelem, dt


def ccx_time(ccx, tmp, cells, size, total_time):
    """CalculiX explicit run on the same H8 box; returns (seconds per element-cycle, increments)."""
    nx, ny, nz = cells
    xs = [np.linspace(0, size[d], n + 1) for d, n in enumerate(cells)]

    def nid(i, j, k):
        return 1 + i + (nx + 1) * (j + (ny + 1) * k)

    mu, K = E / (2 * (1 + NU)), E / (3 * (1 - 2 * NU))
    lines = ["*NODE, NSET=NALL"]
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                lines.append("%d, %.12g, %.12g, %.12g" % (nid(i, j, k), xs[0][i], xs[1][j], xs[2][k]))
    lines.append("*ELEMENT, TYPE=C3D8, ELSET=EALL")
    e = 1
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                lines.append("%d, %s" % (e, ", ".join(map(str, n))))
                e += 1
    for name, i in (("LEFT", 0), ("RIGHT", nx)):
        lines.append("*NSET, NSET=%s" % name)
        ids = [nid(i, j, k) for k in range(nz + 1) for j in range(ny + 1)]
        lines += [", ".join(map(str, ids[a:a + 8])) for a in range(0, len(ids), 8)]
    lines += ["*MATERIAL, NAME=NH", "*HYPERELASTIC, NEO HOOKE", "%.12g, %.12g" % (mu / 2, 2 / K), "*DENSITY", "%g" % RHO,
              "*SOLID SECTION, ELSET=EALL, MATERIAL=NH", "*BOUNDARY", "LEFT, 1, 3",
              "*STEP, NLGEOM, INC=10000000", "*DYNAMIC, EXPLICIT", "1e-6, %g" % total_time,
              "*CLOAD", "RIGHT, 2, -1.0", "*NODE FILE, FREQUENCY=10000000", "U", "*END STEP"]
    d = os.path.join(tmp, "ccx")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "box.inp"), "w").write("\n".join(lines) + "\n")
    env = dict(os.environ, OMP_NUM_THREADS="1", CCX_NPROC_EQUATION_SOLVER="1")
    t0 = time.time()
    r = subprocess.run([ccx, "box"], cwd=d, capture_output=True, text=True, env=env)
    wall = time.time() - t0
    if r.returncode:
        sys.exit("FAIL: ccx\n" + r.stdout[-2000:] + r.stderr[-2000:])
    inc = float(re.search(r"SELECTED time increment:\s*([0-9.eE+-]+)", r.stdout).group(1))
    m = re.search(r"Total CalculiX Time:\s*([0-9.eE+-]+)", r.stdout)
    wall = float(m.group(1)) if m else wall
    increments = int(np.ceil(total_time / inc - 1e-9))
    return wall / (increments * nx * ny * nz), increments, inc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--micro", default=None)
    ap.add_argument("--ccx", default=shutil.which("ccx"))
    ap.add_argument("--quick", action="store_true", help="small meshes (a smoke test of the script)")
    a = ap.parse_args()
    q = a.quick
    with tempfile.TemporaryDirectory() as tmp:
        q4_cells, h8_cells = ((40, 40), (10, 10, 10)) if q else ((200, 200), (40, 20, 20))
        steps = 20 if q else 200
        t, n, _ = stickslip_step_time(a.prog, tmp, "q4", "rectangle", "Q4", q4_cells, (1.0, 1.0), steps)
        q4_ns = t / n * 1e9
        t, n, _ = stickslip_step_time(a.prog, tmp, "h8", "box", "H8", h8_cells, (1.0, 0.5, 0.5), steps)
        h8_ns = t / n * 1e9
        print("q4: %d elements, %.1f ns per element-cycle; h8: %d elements, %.1f ns per element-cycle" % (np.prod(q4_cells), q4_ns, n, h8_ns))

        gflops = peak = float("nan")
        if a.micro:
            r = subprocess.run([a.micro], capture_output=True, text=True)
            m = re.search(r"h8_gflops=([0-9.eE+-]+).*peak_gflops=([0-9.eE+-]+)", r.stdout)
            if m:
                gflops, peak = float(m.group(1)), float(m.group(2))
            print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "micro benchmark gave no output")

        ratio = float("nan")
        if a.ccx:
            ccx_cells = (10, 5, 5) if q else (20, 10, 10)
            per, incs, inc = ccx_time(a.ccx, tmp, ccx_cells, (1.0, 0.5, 0.5), 0.02 if q else 0.1)
            t, n, _ = stickslip_step_time(a.prog, tmp, "h8ccx", "box", "H8", ccx_cells, (1.0, 0.5, 0.5), steps)
            ours = t / n
            ratio = per / ours
            print("calculix: %d elements, %d increments of %.3e s, %.1f ns per element-cycle; ours %.1f ns: ratio %.2f" % (n, incs, inc, per * 1e9, ours * 1e9, ratio))

        big = (20, 10, 10) if q else (100, 32, 32)
        msteps = 10 if q else 200  # enough steps that start-up effects (first touch of the arrays) do not count
        t1, n, dt = stickslip_step_time(a.prog, tmp, "mpi1", "box", "H8", big, (1.0, 0.32, 0.32), msteps)
        t2, _, _ = stickslip_step_time(a.prog, tmp, "mpi2", "box", "H8", big, (1.0, 0.32, 0.32), msteps, nproc=2, dt=dt)
        speedup = t1 / t2
        print("mpi: %d H8 elements, %.4f s per step on 1 rank, %.4f s on 2: speedup %.2f" % (n, t1, t2, speedup))
    print("RESULT explicit_kernel q4_ns=%.1f h8_ns=%.1f h8_gflops=%.2f peak_gflops=%.1f calculix_ratio=%.2f mpi2_speedup=%.2f"
          % (q4_ns, h8_ns, gflops, peak, ratio, speedup))


if __name__ == "__main__":
    main()
