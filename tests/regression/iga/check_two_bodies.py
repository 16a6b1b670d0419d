#!/usr/bin/env python3
"""Several NURBS patches are separate bodies: in inputs/explicit/iga_two_bodies.xml the lower cantilever must move
exactly as the single one of iga_cantilever.xml (same patch, same operations in the same order per node: bitwise
equal histories) and the upper one, clamped and not started, must stay exactly at rest.
Usage: check_two_bodies.py STICKSLIP TWO.xml ONE.xml"""
import sys
import tempfile

import h5py
import numpy as np

from tests.common.runs import stickslip_run


def run_results(prog, inp, out):
    """Runs INP into OUT; returns its open results.h5."""
    stickslip_run(prog, inp, out, "-quiet")
    return h5py.File(out + "/results.h5", "r")


def main():
    prog, two, one = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        a = run_results(prog, two, tmp + "/two")
        b = run_results(prog, one, tmp + "/one")
        tip2, upper, tip1 = a["/explicit/watch/tip"][()], a["/explicit/watch/upper_tip"][()], b["/explicit/watch/tip"][()]
        diff = np.abs(tip2 - tip1).max()
        rest = np.abs(upper[:, 1:]).max()
        print(f"lower tip vs single body: max difference {diff:.3e}; upper body: max |u|, |v| {rest:.3e}")
        if tip2.shape != tip1.shape or diff != 0.0 or rest != 0.0:
            sys.exit("FAIL: the two bodies interact or differ from the single one")
    print("ok")


if __name__ == "__main__":
    main()
