#!/usr/bin/env python3
"""Cost of the contact on the explicit solver, on the velocity-controlled slider of section 3.2
(inputs/slider2d/slider-velocity-h0.1.xml: 66 nodes, 11 contact nodes with LuGre, dt = 1e-5 s), run with -log_view.
Prints, as its last line,
  RESULT contact_cost step_ns_per_contact_node=... contact_share=... step_ns=... contact_nodes=... steps=...
  step_ns_per_contact_node  nanoseconds of contact work per step and contact node: the time in the log event
                            "ContactForce" (one whole contact force evaluation of a pair: gaps and slip velocities of
                            the nodes, i.e. the search against the rigid plane, and the enforcement: penalty, friction
                            law, sticking statistics) divided by (evaluations x contact nodes)
  contact_share             that event's time over the time of the time loop (the program's "time per step" x steps):
                            the share of a step spent in contact search and enforcement
  step_ns                   the whole step (ns), for scale
The run's own results (histories every 100 steps) are written to a temporary directory; take the best of --repeat runs.

With --deformable N: contact between deformable bodies in 3D instead, a block of N x N x 1 H8 (1 x 1 m, (N + 1)^2
contact nodes) sliding under gravity with Coulomb friction on a slab of M x M x 2 H8 (M = 0.7 N, so the faces do not
match), the point distribution, about --steps steps at 0.9 of the critical step; ContactForce then also holds the gathering of the master
nodes and the search (log events ContactSearch and ContactGrid, nested). Prints as its last line
  RESULT contact_cost_deformable step_ns_per_contact_node=... contact_share=... grid_ns_per_face=...
         grid_ns_per_face_half=... step_ns=... contact_nodes=... steps=...
  grid_ns_per_face(_half)   one build of the bucket grid over the master faces per face, at N and at N / 2: equal
                            values mean a build time linear in the number of faces

With --deformable N --mortar: the same case with the mortar distribution (3D: clipping of slave and master faces) and
with the point distribution, run by run alternating, and as its last line
  RESULT contact_cost_mortar3d mortar_ns_per_contact_node=... point_ns_per_contact_node=... ratio=...
         mortar_share=... point_share=... contact_nodes=... steps=...
  (best of --repeat runs each; ratio = mortar / point per contact node and step)
  --mortar-tolerance T sets the contact's mortar_tolerance (without it the input default, 1e-3 in 3D; 0: the exact shares)

Usage: contact_cost.py STICKSLIP [--input INPUT] [--end SECONDS] [--repeat N] [--deformable N [--steps S] [--mortar [--mortar-tolerance T]]]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(HERE, "..", "..", "inputs", "slider2d", "slider-velocity-h0.1.xml")


def event_time(log, name):
    """Total time (s) and count of log event NAME over every stage of a -log_view report."""
    total, count = 0.0, 0
    for m in re.finditer(r"^%s\s+(\d+)\s+[0-9.]+\s+([0-9.eE+-]+)\s" % re.escape(name), log, re.M):
        count += int(m.group(1))
        total += float(m.group(2))
    return total, count


def measure(prog, text, tmp):
    path = os.path.join(tmp, "slider.xml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "out")
    r = subprocess.run([prog, "run", path, "-o", out, "-force", "-quiet", "-log_view"], capture_output=True, text=True)
    if r.returncode:
        sys.exit("FAIL: %s run failed\n%s%s" % (prog, r.stdout, r.stderr))
    per_step = float(re.search(r"time per step\s+([0-9.eE+-]+) s", r.stdout).group(1))
    steps = int(re.search(r"steps\s+(\d+) of dt", r.stdout).group(1))
    contact, calls = event_time(r.stdout, "ContactForce")
    if not calls:
        sys.exit("FAIL: no ContactForce log event in the -log_view report")
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    from postproc.results import Results

    nodes = int(np.count_nonzero(Results(out).array("explicit/contact_nodes/floor/weight") > 0))
    return per_step, steps, contact, calls, nodes, r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stickslip")
    ap.add_argument("--input", default=DEFAULT_INPUT)
    ap.add_argument("--end", type=float, default=1.0, help="simulated time (s), default 1 (1e5 steps)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--deformable", type=int, default=0, help="contact between deformable bodies, N x N contact faces")
    ap.add_argument("--steps", type=int, default=20, help="--deformable: time steps, default 20")
    ap.add_argument("--mortar", action="store_true", help="--deformable: the mortar distribution against the point one")
    ap.add_argument("--mortar-tolerance", type=float, default=None, help="--mortar: the contact's mortar_tolerance (default: the input default)")
    a = ap.parse_args()
    if a.deformable and a.mortar:
        return mortar(a)
    if a.deformable:
        return deformable(a)
    with open(a.input) as f:
        text = re.sub(r'(<time\b[^>]*\bend=")[^"]*', lambda m: m.group(1) + "%g" % a.end, f.read(), count=1)
    text = re.sub(r'fields="\d+"', 'fields="0"', text)
    best = None
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            per_step, steps, contact, calls, nodes, _ = measure(a.stickslip, text, tmp)
            row = (contact / (calls * nodes) * 1e9, contact / (per_step * steps), per_step * 1e9, nodes, steps)
            print("step %.0f ns, ContactForce %.4g s over %d calls, %d contact nodes: %.1f ns per contact node, share %.3f"
                  % (row[2], contact, calls, nodes, row[0], row[1]))
            if best is None or row[2] < best[2]:
                best = row
    print("input %s, %g s simulated, best of %d; machine %s" % (os.path.basename(a.input), a.end, a.repeat, os.uname().nodename))
    print("RESULT contact_cost step_ns_per_contact_node=%.1f contact_share=%.3f step_ns=%.0f contact_nodes=%d steps=%d" % best)


DEFORMABLE = """<explicit>
  <mesh file="%(mesh)s"/>
  <nodeset name="slab_base" lower="-1 -1 -0.001" upper="2 2 0.001"/>
  <block name="a" material="linear_elastic" E="1e7" nu="0.3" rho="1000"/>
  <block name="b" material="linear_elastic" E="1e7" nu="0.3" rho="1000"/>
  <gravity acceleration="0 0 -10"/>
  <initial_velocity nodeset="a_all" value="0.1 0 0"/>
  <displacement nodeset="slab_base" component="all"/>
  <contact name="floor" sideset="a_back" master="b_front" penalty="%(penalty)g" distribution="%(distribution)s"%(extra)s>
    <friction law="coulomb" mu_s="0.3" mu_k="0.3" eps_t="1e8"/>
  </contact>
  <time end="%(end)g" safety="0.9"/>
  <output histories="100000" fields="0"/>
</explicit>
"""


def deformable_run(prog, n, steps, tmp, distribution="point", extra=""):
    """One run of the deformable case with N x N slave faces: (step s, steps, ContactForce s and calls, contact nodes,
    ContactGrid s and builds, master faces)."""
    h, m = 1.0 / n, max(1, int(0.7 * n))
    mesh = os.path.join(tmp, "two_bodies_%d.xml" % n)
    subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "meshes", "make_two_bodies.py"), mesh,
                    "a:0,0,%g:1,1,%g:%d,%d,1" % (2 * h, 3 * h, n, n), "b:-0.05,-0.05,0:1.05,1.05,%g:%d,%d,2" % (2 * h, m, m)],
                   check=True)
    dt = 3e-4 * h  # about the solver's step (0.9 of 4.2e-4 h s at N = 20, less at larger N): about STEPS steps
    text = DEFORMABLE % {"mesh": mesh, "penalty": 4e7 / h, "end": steps * dt, "distribution": distribution, "extra": extra}
    per_step, nsteps, contact, calls, nodes, log = measure(prog, text, tmp)
    grid, builds = event_time(log, "ContactGrid")
    return per_step, nsteps, contact, calls, nodes, grid, builds, m * m


def deformable(a):
    best = None
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            per_step, steps, contact, calls, nodes, grid, builds, faces = deformable_run(a.stickslip, a.deformable, a.steps, tmp)
            half = deformable_run(a.stickslip, max(2, a.deformable // 2), a.steps, tmp)
            row = (contact / (calls * nodes) * 1e9, contact / (per_step * steps), grid / builds / faces * 1e9,
                   half[5] / half[6] / half[7] * 1e9, per_step * 1e9, nodes, steps)
            print("step %.0f ns, ContactForce %.4g s over %d calls, %d contact nodes: %.1f ns per contact node, share %.3f; "
                  "grid %d builds over %d faces, %.1f ns per face (%.1f at N / 2)" % (row[4], contact, calls, nodes, row[0], row[1],
                                                                                      builds, faces, row[2], row[3]))
            if best is None or row[4] < best[4]:
                best = row
    print("deformable N = %d, %d steps, best of %d; machine %s" % (a.deformable, a.steps, a.repeat, os.uname().nodename))
    print("RESULT contact_cost_deformable step_ns_per_contact_node=%.1f contact_share=%.3f grid_ns_per_face=%.1f "
          "grid_ns_per_face_half=%.1f step_ns=%.0f contact_nodes=%d steps=%d" % best)


def mortar(a):
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            for dist in ("mortar", "point"):
                extra = "" if dist == "point" or a.mortar_tolerance is None else ' mortar_tolerance="%g"' % a.mortar_tolerance
                per_step, steps, contact, calls, nodes, *_ = deformable_run(a.stickslip, a.deformable, a.steps, tmp, dist, extra)
                row = (contact / (calls * nodes) * 1e9, contact / (per_step * steps), nodes, steps)
                print("%s: step %.0f ns, ContactForce %.4g s over %d calls, %d contact nodes: %.1f ns per contact node, share %.3f"
                      % (dist, per_step * 1e9, contact, calls, nodes, row[0], row[1]))
                if dist not in best or row[0] < best[dist][0]:
                    best[dist] = row
    m, p = best["mortar"], best["point"]
    print("deformable N = %d, %d steps, best of %d, mortar_tolerance %s; machine %s"
          % (a.deformable, a.steps, a.repeat, "default" if a.mortar_tolerance is None else "%g" % a.mortar_tolerance, os.uname().nodename))
    print("RESULT contact_cost_mortar3d mortar_ns_per_contact_node=%.1f point_ns_per_contact_node=%.1f ratio=%.2f mortar_share=%.3f "
          "point_share=%.3f contact_nodes=%d steps=%d" % (m[0], p[0], m[0] / p[0], m[1], p[1], m[2], m[3]))


if __name__ == "__main__":
    main()
