#!/usr/bin/env python3
"""-explicit_field_interval N and -explicit_history_interval N give the field frames and the histories of any explicit
input from the command line. KIND is `fields` or `histories`; INPUT must set the attribute of <output> to 0 (every IGA
input sets fields="0", the rough-surface studies' realisation inputs histories="0"). Run with N = 400 (fields) or 7
(histories), the run must write fields.pvd, or the /explicit/energy history, with a sample at t = 0, every N steps and
at the last step (times k N dt exactly), and without the option none; a negative N is refused.
Usage: check_output_interval.py STICKSLIP fields|histories INPUT.xml"""
import os
import re
import sys
import tempfile

import h5py

from tests.common.runs import stickslip_run

N = {"fields": 400, "histories": 7}
OPTION = {"fields": "-explicit_field_interval", "histories": "-explicit_history_interval"}


def samples(kind, out):
    """The times of the field frames (None without fields.pvd) or of the energy history's rows (None without rows)."""
    if kind == "fields":
        pvd = os.path.join(out, "fields.pvd")
        return [float(t) for t in re.findall(r'timestep="([^"]+)"', open(pvd).read())] if os.path.exists(pvd) else None
    with h5py.File(os.path.join(out, "results.h5"), "r") as f:
        rows = f["/explicit/energy"][:]
    return [float(r[0]) for r in rows] if len(rows) else None


def main():
    prog, kind, inp = sys.argv[1:4]
    n, option = N[kind], OPTION[kind]
    fail = []
    with tempfile.TemporaryDirectory() as tmp:
        stickslip_run(prog, inp, tmp + "/with", "-quiet", option, str(n))
        with h5py.File(tmp + "/with/results.h5", "r") as f:  # both runs with the option write the energy history
            dt = f["/explicit"].attrs["dt"]
            t_end = f["/explicit/energy"][-1][0]
        got = samples(kind, tmp + "/with")
        steps = int(round(t_end / dt))
        want = [k * n * dt for k in range(steps // n + 1)] + ([steps * dt] if steps % n else [])
        print("with %s %d: %s samples over %d steps, expected %d" % (option, n, len(got) if got else 0, steps, len(want)))
        if not got or len(got) != len(want) or max(abs(a - b) for a, b in zip(got, want)) > 1e-12 * t_end:
            fail.append("samples %s, expected %s" % (got, want))
        p = stickslip_run(prog, inp, tmp + "/without", "-quiet", check=False)
        print("without the option: %s" % ("none" if samples(kind, tmp + "/without") is None else "some"))
        if p.returncode or samples(kind, tmp + "/without") is not None:
            fail.append("the input's %s=\"0\" should write none" % kind)
        p = stickslip_run(prog, inp, tmp + "/negative", "-quiet", option, "-1", check=False)
        print("%s -1: exit %d, %s" % (option, p.returncode, p.log.strip().splitlines()[0] if p.log.strip() else ""))
        if p.returncode == 0 or option + " -1" not in p.log:
            fail.append("a negative interval must be refused")
    if fail:
        sys.exit("FAIL: " + "; ".join(fail))
    print("ok")


if __name__ == "__main__":
    main()
