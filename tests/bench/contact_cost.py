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

Usage: contact_cost.py STICKSLIP [--input INPUT] [--end SECONDS] [--repeat N]"""
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
    return per_step, steps, contact, calls, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stickslip")
    ap.add_argument("--input", default=DEFAULT_INPUT)
    ap.add_argument("--end", type=float, default=1.0, help="simulated time (s), default 1 (1e5 steps)")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with open(a.input) as f:
        text = re.sub(r'(<time\b[^>]*\bend=")[^"]*', lambda m: m.group(1) + "%g" % a.end, f.read(), count=1)
    text = re.sub(r'fields="\d+"', 'fields="0"', text)
    best = None
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeat):
            per_step, steps, contact, calls, nodes = measure(a.stickslip, text, tmp)
            row = (contact / (calls * nodes) * 1e9, contact / (per_step * steps), per_step * 1e9, nodes, steps)
            print("step %.0f ns, ContactForce %.4g s over %d calls, %d contact nodes: %.1f ns per contact node, share %.3f"
                  % (row[2], contact, calls, nodes, row[0], row[1]))
            if best is None or row[2] < best[2]:
                best = row
    print("input %s, %g s simulated, best of %d; machine %s" % (os.path.basename(a.input), a.end, a.repeat, os.uname().nodename))
    print("RESULT contact_cost step_ns_per_contact_node=%.1f contact_share=%.3f step_ns=%.0f contact_nodes=%d steps=%d" % best)


if __name__ == "__main__":
    main()
