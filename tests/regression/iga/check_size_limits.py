#!/usr/bin/env python3
"""A NURBS patch too large for the machine is refused up front: `stickslip validate` of bad/iga-refine-too-large.xml
(refine="10000 10000", degree 2: 1e8 elements, 127 GB by the mesh module's estimate) must exit with status 1 and
FILE:LINE: message (checked by regression_iga_bad_iga-refine-too-large) in under a second beyond the program's own
start-up (the time to validate a small input, MPI and PETSc initialisation: 0.1-0.9 s here), without allocating the
mesh: peak resident memory below 200 MB (a small input takes about 40 MB; the refused input took 5.5 GB and crashed
before the size check).
Usage: check_size_limits.py STICKSLIP TOO_LARGE.xml SMALL.xml"""
import resource
import subprocess
import sys
import time


def timed(prog, path):
    t0 = time.monotonic()
    r = subprocess.run([prog, "validate", path], capture_output=True, text=True)
    return time.monotonic() - t0, r.returncode, (r.stdout + r.stderr).strip()


def main():
    prog, big, small = sys.argv[1:4]
    t_big, status, out = timed(prog, big)  # first child: its peak memory is ru_maxrss of the children so far
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    t_small, status_small, _ = timed(prog, small)
    print("refused in %.3f s (exit %d, peak %.0f MB): %s" % (t_big, status, peak_mb, out))
    print("a small input validates in %.3f s (exit %d)" % (t_small, status_small))
    if status != 1 or status_small != 0 or t_big - t_small > 1.0 or peak_mb > 200:
        sys.exit("FAIL: expected exit 1 within 1 s beyond the start-up and below 200 MB")
    print("ok")


if __name__ == "__main__":
    main()
