#!/usr/bin/env python3
"""Scaling of the explicit solver with the mesh size (Neo-Hookean H8 box, no contact). Prints one line per size and, as
its last line,
  RESULT scale bytes_per_element=... setup_s_per_million=... step_ns_per_element=... mpi2_speedup=...
for the largest size (1e6 elements unless --quick):
  bytes_per_element    peak resident set (getrusage, the largest rank's) / elements, after the time loop; includes
                       the program's fixed part (libraries, MPI, HDF5: about 50 MB)
  setup_s_per_million  wall time from the start of the set-up to the forces at t = 0 (mesh generation, partition,
                       ghosts, mass, critical time step) / millions of elements; the CPU time is printed beside it
  step_ns_per_element  wall time per step of the time loop / elements, one rank
  mpi2_speedup         time per step on 1 rank / on 2 ranks, same mesh
The figures come from the program's -explicit_setup_view lines and its summary; the critical time step is the
default (-explicit_critical_step auto: the power iteration below 1e5 dofs, the stiffness bound above).

Usage: scale.py STICKSLIP [--quick] [--steps N] [--sizes 1e4 1e5 1e6] [--mpiexec mpiexec]"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from tests.common.runs import stickslip_run  # noqa: E402

E, NU, RHO = 1e6, 0.3, 1000.0
CELLS = {"1e3": (10, 10, 10), "1e4": (25, 20, 20), "1e5": (50, 50, 40), "1e6": (100, 100, 100)}

INPUT = """<explicit>
  <mesh><box type="H8" cells="{nx} {ny} {nz}" lower="0 0 0" upper="1 {ly} {lz}"/></mesh>
  <block name="body" material="neo_hookean" E="{E}" nu="{nu}" rho="{rho}"/>
  <displacement nodeset="left" component="all"/>
  <traction sideset="right" value="0 -1e3 0"><function type="smoothstep" t0="0" t1="{t1}" value="1"/></traction>
  <time end="{end}" dt="{dt}"/>
  <output histories="100" fields="0"/>
  <options>-explicit_setup_view {options}</options>
</explicit>
"""


def measure(prog, tmp, cells, steps, nproc=1, mpiexec="mpiexec", options=""):
    """Runs the box (with extra program OPTIONS); returns a dict of the measured figures."""
    nx, ny, nz = cells
    h = 1.0 / nx
    c = (E * (1 - NU) / ((1 + NU) * (1 - 2 * NU)) / RHO) ** 0.5
    dt = 0.3 * h / c  # below the critical step of the uniform mesh (h / c) and of its stiffness bound (0.73 h / c)
    name = "box%dx%dx%d-np%d" % (nx, ny, nz, nproc)
    path = os.path.join(tmp, name + ".xml")
    with open(path, "w") as f:
        f.write(INPUT.format(nx=nx, ny=ny, nz=nz, ly=ny * h, lz=nz * h, E=E, nu=NU, rho=RHO, t1=steps * dt / 2, end=steps * dt, dt=dt, options=options))
    launcher = [mpiexec, "-n", str(nproc), "--oversubscribe"] if nproc > 1 else []
    out = stickslip_run(prog, path, os.path.join(tmp, name), "-force", prefix=launcher).stdout
    cmd = [*launcher, prog, "run", path]

    def view(phase):
        m = re.search(r"setup %s\s+wall\s+([0-9.]+) s\s+cpu\s+([0-9.]+) s\s+rss\s+([0-9.]+) MiB\s+peak\s+([0-9.]+) MiB" % re.escape(phase), out)
        if not m:
            sys.exit("FAIL: no '%s' line in the output of %s\n%s" % (phase, " ".join(cmd), out[-3000:]))
        return [float(x) for x in m.groups()]

    done = view("forces at t = 0 (set-up done)")
    loop = view("time loop done")
    part = re.search(r"setup partition over \d+ ranks: elements (\d+)-(\d+), owned nodes (\d+)-(\d+), ghost nodes (\d+)-(\d+)", out)
    crit = re.search(r"critical dt\s+([0-9.eE+-]+) s \(([a-z ]+)\)", out)
    step = float(re.search(r"time per step\s+([0-9.eE+-]+) s", out).group(1))
    return {"elements": nx * ny * nz, "setup_wall": done[0], "setup_cpu": done[1], "peak_mib": loop[3], "step_s": step,
            "ghost": (int(part.group(5)), int(part.group(6))), "owned": (int(part.group(3)), int(part.group(4))),
            "critical": "%s s (%s)" % (crit.group(1), crit.group(2))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--quick", action="store_true", help="1e3 and 1e4 elements (a smoke test of the script)")
    ap.add_argument("--sizes", nargs="+", default=None, choices=sorted(CELLS))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--mpiexec", default="mpiexec")
    a = ap.parse_args()
    sizes = a.sizes or (["1e3", "1e4"] if a.quick else ["1e4", "1e5", "1e6"])
    res = None
    with tempfile.TemporaryDirectory() as tmp:
        for s in sizes:
            res = measure(a.prog, tmp, CELLS[s], a.steps)
            n = res["elements"]
            res["bytes_per_element"] = res["peak_mib"] * 1048576.0 / n
            res["setup_s_per_million"] = res["setup_wall"] / (n / 1e6)
            res["step_ns_per_element"] = res["step_s"] / n * 1e9
            print("%8d elements: %7.0f bytes per element (peak %.1f MiB), set-up %.2f s wall / %.2f s CPU = %.2f s per million, "
                  "step %.1f ns per element, critical dt %s"
                  % (n, res["bytes_per_element"], res["peak_mib"], res["setup_wall"], res["setup_cpu"], res["setup_s_per_million"],
                     res["step_ns_per_element"], res["critical"]), flush=True)
        two = measure(a.prog, tmp, CELLS[sizes[-1]], a.steps, nproc=2, mpiexec=a.mpiexec)
        res["mpi2_speedup"] = res["step_s"] / two["step_s"]
        print("%8d elements on 2 ranks: %.4f s per step (1 rank %.4f s): speedup %.2f; peak %.1f MiB per rank; owned nodes %d-%d, "
              "ghost nodes %d-%d per rank; set-up %.2f s wall / %.2f s CPU"
              % (res["elements"], two["step_s"], res["step_s"], res["mpi2_speedup"], two["peak_mib"], two["owned"][0], two["owned"][1],
                 two["ghost"][0], two["ghost"][1], two["setup_wall"], two["setup_cpu"]))
    print("RESULT scale bytes_per_element=%.0f setup_s_per_million=%.2f step_ns_per_element=%.1f mpi2_speedup=%.2f"
          % (res["bytes_per_element"], res["setup_s_per_million"], res["step_ns_per_element"], res["mpi2_speedup"]))


if __name__ == "__main__":
    main()
