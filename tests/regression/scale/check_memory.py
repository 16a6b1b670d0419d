#!/usr/bin/env python3
"""Memory guard of the explicit solver: the peak resident set (getrusage, as tests/bench/scale.py measures it) of two H8
Neo-Hookean boxes, 8 000 and 32 000 elements, gives the memory per additional element, which must stay below
MAX_BYTES. The difference removes the program's fixed part (libraries, MPI, HDF5). The critical step is the matrix-free
stiffness bound, so the figure is the storage of the mesh, the state and the set-up, which is what grows to a million
elements (the power iteration's assembled stiffness is for small meshes only).

Usage: check_memory.py STICKSLIP MAX_BYTES (tests/regression/scale/tests.cmake states the bound)"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import scale  # noqa: E402


def main():
    prog, limit = sys.argv[1], float(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        small = scale.measure(prog, tmp, (20, 20, 20), 5, options="-explicit_critical_step bound")
        large = scale.measure(prog, tmp, (40, 20, 40), 5, options="-explicit_critical_step bound")
    per = (large["peak_mib"] - small["peak_mib"]) * 1048576.0 / (large["elements"] - small["elements"])
    print("peak %.1f MiB at %d elements, %.1f MiB at %d: %.0f bytes per additional element (limit %.0f)"
          % (small["peak_mib"], small["elements"], large["peak_mib"], large["elements"], per, limit))
    if not per <= limit:
        sys.exit("FAIL: %.0f bytes per element > %.0f" % (per, limit))
    print("PASS")


if __name__ == "__main__":
    main()
