#!/usr/bin/env python3
"""Cost of one realisation of the rough-plate campaign at the study's settings (inputs/rough3d/campaign.xml:
20 x 20 x 4 H8 plate, h = 0.05 m, 441 contact nodes with LuGre, dt = 1.5e-4 s to T = 1.5 s), run alone with
-realisation K on one rank and -log_view. Prints, as its last line,
  RESULT rough_realisation core_s=... steps=... contact_points=... dofs=... wall_s=... element_share=...
         contact_share=... setup_share=... step_us=...
  core_s         CPU time (user + system) of the process, s: the core-seconds the realisation costs. On a machine shared
                 with other jobs the wall time (wall_s) is longer by the time the process waited for a core.
  element_share  share of the process's logged time in the element loop (log event ExplicitIntForce)
  contact_share  share in the contact force evaluations (ContactForce: search against the plane, penalty, LuGre)
  setup_share    share in the critical time step's power iteration (ExplicitCritDt), done once per realisation
  step_us        core microseconds per step (core_s / steps)
With --end T the realisation runs to T (s) instead of the study's end time (a copy of the campaign and its study
with <time end="T">: the same surface, fewer steps), e.g. to compare the FE and IGA plates side by side:
  rough_realisation.py STICKSLIP --input inputs/rough3d/campaign-compare-fe.xml --end 0.6    # 4000 steps
  rough_realisation.py STICKSLIP --input inputs/rough3d/campaign-compare-iga.xml --end 0.6   # 4000 steps
Usage: rough_realisation.py STICKSLIP [--input CAMPAIGN] [--realisation K] [--end T]"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(HERE, "..", "..", "inputs", "rough3d", "campaign.xml")


def event_time(log, name):
    """Total time (s) of log event NAME over every stage of a -log_view report."""
    return sum(float(m.group(1)) for m in re.finditer(r"^%s\s+\d+\s+[0-9.]+\s+([0-9.eE+-]+)\s" % re.escape(name), log, re.M))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stickslip")
    ap.add_argument("--input", default=DEFAULT_INPUT)
    ap.add_argument("--realisation", type=int, default=0)
    ap.add_argument("--end", type=float, help="end time (s) instead of the study's")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if a.end is not None:  # copies of the campaign and its study, the study's <time end> replaced
            text = open(a.input).read()
            study = re.search(r'<study\s+file="([^"]+)"', text).group(1)
            body = open(os.path.join(os.path.dirname(os.path.abspath(a.input)), study)).read()
            body, n = re.subn(r'(<time\b[^>]*\bend=")[^"]*(")', r"\g<1>%r\g<2>" % a.end, body)
            if n != 1:
                sys.exit("FAIL: no <time end=...> in the study %s" % study)
            open(os.path.join(tmp, "study.xml"), "w").write(body)
            a.input = os.path.join(tmp, "campaign.xml")
            open(a.input, "w").write(text.replace('file="%s"' % study, 'file="study.xml"'))
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.time()
        r = subprocess.run([a.stickslip, "run", a.input, "-o", os.path.join(tmp, "task"), "-campaign_dir", tmp, "-realisation",
                            str(a.realisation), "-quiet", "-log_view"], capture_output=True, text=True)
        wall = time.time() - w0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode:
            sys.exit("FAIL: the realisation failed\n%s%s" % (r.stdout, r.stderr))
        core = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        with h5py.File(os.path.join(tmp, "realisations", "realisation_%05d.h5" % a.realisation), "r") as f:
            steps, points, dofs = int(f.attrs["steps"]), int(f.attrs["contact_points"]), int(f.attrs["dofs"])
    total = float(re.search(r"^Time \(sec\):\s+([0-9.eE+-]+)", r.stdout, re.M).group(1))
    shares = {k: event_time(r.stdout, e) / total for k, e in
              (("element_share", "ExplicitIntForce"), ("contact_share", "ContactForce"), ("setup_share", "ExplicitCritDt"))}
    print("realisation %d of %s: %d steps, %d contact points, %d dofs; %.1f core-s (%.1f s wall)" %
          (a.realisation, a.input, steps, points, dofs, core, wall))
    print("RESULT rough_realisation core_s=%.2f steps=%d contact_points=%d dofs=%d wall_s=%.2f %s step_us=%.0f" %
          (core, steps, points, dofs, wall, " ".join("%s=%.3f" % kv for kv in shares.items()), 1e6 * core / steps))


if __name__ == "__main__":
    main()
