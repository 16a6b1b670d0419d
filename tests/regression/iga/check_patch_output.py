#!/usr/bin/env python3
"""results.h5 records every NURBS patch (/explicit/patches/NAME: degree, knots_<d>, controlpoints x y [z] w,
attribute first_node): the knots and degrees give the number of control points stored, each knot vector is open,
and the stored control points are the mesh nodes first_node.. of /explicit/final/coordinates (same numbers).
Usage: check_patch_output.py STICKSLIP INPUT.xml"""
import subprocess
import sys
import tempfile

import h5py
import numpy as np


def main():
    prog, inp = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([prog, "run", inp, "-o", tmp, "-quiet"], capture_output=True, text=True)
        if r.returncode:
            sys.exit("FAIL: run\n" + r.stdout + r.stderr)
        f = h5py.File(tmp + "/results.h5", "r")
        X = f["/explicit/final/coordinates"][()]
        total = 0
        for name, g in f["/explicit/patches"].items():
            deg = g["degree"][()]
            counts = []
            for d, p in enumerate(deg):
                U = g["knots_%d" % d][()]
                if not (np.all(U[: p + 1] == U[0]) and np.all(U[-p - 1 :] == U[-1]) and np.all(np.diff(U) >= 0)):
                    sys.exit(f"FAIL: {name}: knots_{d} not open and non-decreasing")
                counts.append(len(U) - p - 1)
            net = g["controlpoints"][()]
            first = int(g.attrs["first_node"])
            if net.shape != (int(np.prod(counts)), X.shape[1] + 1):
                sys.exit(f"FAIL: {name}: controlpoints {net.shape}, knots give {counts}")
            if not np.array_equal(net[:, :-1], X[first : first + net.shape[0]]) or np.any(net[:, -1] <= 0):
                sys.exit(f"FAIL: {name}: control points differ from the mesh nodes from {first}")
            total += net.shape[0]
            print(f"{name}: degree {list(deg)}, control points {counts}, first node {first}")
        if total != X.shape[0]:
            sys.exit(f"FAIL: patches hold {total} control points, the mesh {X.shape[0]} nodes")
    print("ok")


if __name__ == "__main__":
    main()
