#!/usr/bin/env python3
"""-explicit_field_interval N gives the field frames of any explicit input from the command line: the NURBS block of
inputs/explicit/iga_block_slide.xml (fields="0", like every IGA input) run with N = 400 must write fields.pvd with a
frame at t = 0, every N steps and at the last step (frames at k N dt exactly), and without the option none; a negative
N is refused.
Usage: check_field_interval.py STICKSLIP INPUT.xml"""
import os
import re
import sys
import tempfile

import h5py

from tests.common.runs import stickslip_run

N = 400


def run(prog, inp, out, *options):
    r = stickslip_run(prog, inp, out, "-quiet", *options, check=False)
    return r.returncode, r.stdout + r.stderr


def frames(out):
    pvd = os.path.join(out, "fields.pvd")
    if not os.path.exists(pvd):
        return None
    return [float(t) for t in re.findall(r'timestep="([^"]+)"', open(pvd).read())]


def main():
    prog, inp = sys.argv[1:3]
    fail = []
    with tempfile.TemporaryDirectory() as tmp:
        status, log = run(prog, inp, tmp + "/with", "-explicit_field_interval", str(N))
        if status:
            sys.exit("FAIL: run with -explicit_field_interval %d:\n%s" % (N, log))
        with h5py.File(tmp + "/with/results.h5", "r") as f:
            dt = f["/explicit"].attrs["dt"]
            t_end = f["/explicit/energy"][-1][0]
        steps = int(round(t_end / dt))
        want = [k * N * dt for k in range(steps // N + 1)] + ([steps * dt] if steps % N else [])
        got = frames(tmp + "/with")
        print("with -explicit_field_interval %d: %s frames over %d steps, expected %d" % (N, len(got) if got else 0, steps, len(want)))
        if not got or len(got) != len(want) or max(abs(a - b) for a, b in zip(got, want)) > 1e-12 * t_end:
            fail.append("frames %s, expected %s" % (got, want))
        status, log = run(prog, inp, tmp + "/without")
        print("without the option: fields.pvd %s" % ("absent" if frames(tmp + "/without") is None else "present"))
        if status or frames(tmp + "/without") is not None:
            fail.append("the input's fields=\"0\" should write no frames")
        status, log = run(prog, inp, tmp + "/negative", "-explicit_field_interval", "-1")
        print("-explicit_field_interval -1: exit %d, %s" % (status, log.strip().splitlines()[0] if log.strip() else ""))
        if status == 0 or "-explicit_field_interval -1" not in log:
            fail.append("a negative interval must be refused")
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    print("ok")


if __name__ == "__main__":
    main()
