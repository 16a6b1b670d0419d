#!/usr/bin/env python3
"""Checks of the blow-sequence output /rodpair/blows (docs/validation/rodpair.md, "Blow sequences").

  check_blows.py stuck RESULTS TOL        every blow's set below TOL (m): friction so high that nothing slips
  check_blows.py free RESULTS INPUT RTOL  no friction, rigid rod 2: the mean displacement of rod 1 after each blow
                                          equals sum_k P0 tau (t - t_k - tau/2) / M (impulses of the pulses)
Prints one line per blow and "ok", or the failures and exits 1."""
import sys
import xml.etree.ElementTree as ET

import numpy as np

from postproc.results import Results


def blows(path):
    return Results(path).history("rodpair/blows")


def stuck(res, tol):
    h = blows(res)
    bad = []
    for b, s in zip(h["blow"], h["set"]):
        print(f"blow {int(b)}: set {s:.3e} m (tolerance {tol})")
        if not abs(s) < tol:
            bad.append(f"blow {int(b)}: set {s:.3e} m with nothing slipping")
    return bad


def free(res, inp, rtol):
    root = ET.parse(inp).getroot()
    r1, fn, bl = root.find("rod1"), root.find("load/function"), root.find("load/blows")
    segs = r1.findall("segment")
    M = sum(float(s.get("length")) * float(s.get("rhoA")) for s in segs) if segs else float(r1.get("length")) * float(r1.get("rhoA"))
    P0, t0, tau, T = float(fn.get("amplitude")), float(fn.get("start", "0")), float(fn.get("duration")), float(bl.get("period"))
    h = blows(res)
    bad = []
    for t, b, ubar in zip(h["t"], h["blow"], h["mean"]):
        exact = sum(P0 * tau * (t - (t0 + k * T) - tau / 2) / M for k in range(int(b)))
        err = abs(ubar - exact) / abs(exact)
        print(f"blow {int(b)}: mean displacement {ubar:.9e} m, closed form {exact:.9e} m, relative difference {err:.2e} (tolerance {rtol})")
        if not err < rtol:
            bad.append(f"blow {int(b)}: mean displacement {ubar} m, closed form {exact} m")
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == "stuck":
        bad = stuck(sys.argv[2], float(sys.argv[3]))
    elif cmd == "free":
        bad = free(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        sys.exit(f"unknown command {cmd}")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
