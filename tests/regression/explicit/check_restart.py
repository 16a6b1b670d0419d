#!/usr/bin/env python3
"""Checkpoint/restart of the explicit solver: a run killed with SIGKILL and restarted with -restart ends in
bitwise the same state (displacement, velocity, the energy history and, with <contact>, every contact history
/explicit/contact/<name> and the sticking-time statistics /explicit/contact_nodes/<name>/*) as an uninterrupted run; with the newest checkpoint damaged, the restart detects it (checksum) and resumes from the previous one, again
bitwise identical. Exact equality is the requirement: the state in a checkpoint is the full state of the integrator.

Usage: check_restart.py STICKSLIP INPUT.xml KILL_STEP [mpiexec -n N]"""
import os
import shutil
import sys
import tempfile

import h5py
import numpy as np

from tests.common.runs import stickslip_run


def final(out):
    with h5py.File(os.path.join(out, "results.h5"), "r") as f:
        contact = {}
        if "/explicit/contact" in f:
            contact = {name: h[...] for name, h in f["/explicit/contact"].items()}
        # the end-of-run sticking-time statistics accumulate over every step, so they test that the restart carries them
        if "/explicit/contact_nodes" in f:
            for name, g in f["/explicit/contact_nodes"].items():
                contact.update({"%s/%s" % (name, k): d[...] for k, d in g.items()})
        return f["/explicit/final/displacement"][...], f["/explicit/final/velocity"][...], f["/explicit/energy"][...], contact


def compare(ref, got, what):
    u0, v0, e0, c0 = ref
    u1, v1, e1, c1 = got
    if not (np.array_equal(u0, u1) and np.array_equal(v0, v1)):
        sys.exit("FAIL (%s): final state differs: max |du| = %g, max |dv| = %g" % (what, np.abs(u0 - u1).max(), np.abs(v0 - v1).max()))
    # -restart appends to the interrupted run's results.h5: it keeps the rows up to the checkpoint and drops those
    # written after it, so the whole history must equal the uninterrupted run's, row for row
    if e1.shape != e0.shape or not np.array_equal(e0, e1):
        n = min(len(e0), len(e1))
        sys.exit("FAIL (%s): energy history differs: %d rows vs %d, max diff over common rows %g"
                 % (what, len(e1), len(e0), np.abs(e0[:n] - e1[:n]).max() if n else 0.0))
    # the contact histories (friction force, dissipation...) depend on the friction state carried across steps
    if sorted(c0) != sorted(c1):
        sys.exit("FAIL (%s): contact histories %s vs %s" % (what, sorted(c1), sorted(c0)))
    for name in c0:
        h0, h1 = c0[name], c1[name]
        if h1.shape != h0.shape or not np.array_equal(h0, h1):
            n = min(len(h0), len(h1))
            sys.exit("FAIL (%s): contact history %s differs: %d rows vs %d, max diff over common rows %g"
                     % (what, name, len(h1), len(h0), np.abs(h0[:n] - h1[:n]).max() if n else 0.0))
    print("ok (%s): final state, all %d energy rows and %d contact histories (%s rows) bitwise identical"
          % (what, len(e1), len(c1), ", ".join(str(len(h)) for h in c1.values())))


def pvd_times(out):
    import xml.etree.ElementTree as ET
    return sorted(float(d.get("timestep")) for d in ET.parse(os.path.join(out, "fields.pvd")).getroot().iter("DataSet"))


def main():
    prog, inp, kill = sys.argv[1], sys.argv[2], sys.argv[3]
    launcher = sys.argv[4:]

    def output(out, *options):
        p = stickslip_run(prog, inp, out, "-quiet", *options, prefix=launcher, show="command")
        return p.stdout + p.stderr

    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "a")
        output(a)
        ref = final(a)

        b = os.path.join(tmp, "b")
        p = stickslip_run(prog, inp, b, "-quiet", "-explicit_kill_at_step", kill, prefix=launcher, check=False, show="command")
        # killed by SIGKILL: -9 directly, or 137 (128 + 9) through mpiexec
        if p.returncode == 0:
            sys.exit("FAIL: the run was not killed\n" + p.stdout + p.stderr)
        ckpts = sorted(os.listdir(os.path.join(b, "checkpoints")))
        print("checkpoints after the kill:", ckpts)
        if len(ckpts) < 2:
            sys.exit("FAIL: expected two checkpoints, got %s" % ckpts)
        c = os.path.join(tmp, "c")
        shutil.copytree(b, c)
        out = output(b, "-restart")
        if "restarting from" not in out or ckpts[-1] not in out:
            sys.exit("FAIL: did not restart from the newest checkpoint %s:\n%s" % (ckpts[-1], out))
        compare(ref, final(b), "restart after SIGKILL")
        if os.path.exists(os.path.join(a, "fields.pvd")) and pvd_times(a) != pvd_times(b):
            sys.exit("FAIL: fields.pvd after the restart lists %s, the uninterrupted run %s" % (pvd_times(b), pvd_times(a)))

        # damage the newest checkpoint in the middle of its data: the checksum must catch it
        newest = os.path.join(c, "checkpoints", ckpts[-1])
        size = os.path.getsize(newest)
        with open(newest, "r+b") as f:
            f.seek(size // 2)
            f.write(b"\x00\xff" * 64)
        out = output(c, "-restart")
        if "damaged" not in out or ckpts[-2] not in out:
            sys.exit("FAIL: the damaged checkpoint was not detected or the previous one not used:\n%s" % out)
        compare(ref, final(c), "restart from the previous checkpoint after damage")


if __name__ == "__main__":
    main()
