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


def frames(out):
    pvd = os.path.join(out, "fields.pvd")
    if not os.path.exists(pvd):
        return None
    return [float(t) for t in re.findall(r'timestep="([^"]+)"', open(pvd).read())]


def main():
    prog, inp = sys.argv[1:3]
    fail = []
    with tempfile.TemporaryDirectory() as tmp:
        stickslip_run(prog, inp, tmp + "/with", "-quiet", "-explicit_field_interval", str(N))
        with h5py.File(tmp + "/with/results.h5", "r") as f:
            dt = f["/explicit"].attrs["dt"]
            t_end = f["/explicit/energy"][-1][0]
        steps = int(round(t_end / dt))
        want = [k * N * dt for k in range(steps // N + 1)] + ([steps * dt] if steps % N else [])
        got = frames(tmp + "/with")
        print("with -explicit_field_interval %d: %s frames over %d steps, expected %d" % (N, len(got) if got else 0, steps, len(want)))
        if not got or len(got) != len(want) or max(abs(a - b) for a, b in zip(got, want)) > 1e-12 * t_end:
            fail.append("frames %s, expected %s" % (got, want))
        p = stickslip_run(prog, inp, tmp + "/without", "-quiet", check=False)
        print("without the option: fields.pvd %s" % ("absent" if frames(tmp + "/without") is None else "present"))
        if p.returncode or frames(tmp + "/without") is not None:
            fail.append("the input's fields=\"0\" should write no frames")
        p = stickslip_run(prog, inp, tmp + "/negative", "-quiet", "-explicit_field_interval", "-1", check=False)
        print("-explicit_field_interval -1: exit %d, %s" % (p.returncode, p.log.strip().splitlines()[0] if p.log.strip() else ""))
        if p.returncode == 0 or "-explicit_field_interval -1" not in p.log:
            fail.append("a negative interval must be refused")
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    print("ok")


if __name__ == "__main__":
    main()
