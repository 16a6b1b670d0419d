#!/usr/bin/env python3
"""A restart continues only the run that wrote the checkpoint, and -force leaves nothing of an earlier run that a later
step could read. Before these checks (the scenario that was reported): a study A run into D with checkpoints, then a
study B (A with another gravity) run into D with -force and killed before its first checkpoint, then B with -restart
resumed A's checkpoint at A's time and exited 0; the checkpoint only compared sizes and dt, and -force left
checkpoints/ and the step files of A in place.

Checked here, on INPUT (an <explicit> input with <checkpoint> and <output fields=...>):
1. -force removes A's checkpoints/, .pvd and step files (and results.h5), and nothing else of the directory (a file
   of the user, even one in checkpoints/, survives); B's -restart then finds no checkpoint and starts B at t = 0, and
   its histories hold B's rows once (time strictly increasing).
2. A checkpoint of A is refused by a -restart of B (input differs), of A with an option that changes results
   (options differ) and of A on another mesh (mesh differs): exit status 1, a message naming what differs and -force.
3. A -restart of A with a run-neutral option (-log_view) is accepted: same input, same results.

Usage: check_restart_identity.py STICKSLIP INPUT.xml KILL_STEP"""
import glob
import os
import re
import shutil
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish  # noqa: E402
from tests.common.runs import stickslip_run  # noqa: E402

prog, inp, kill = sys.argv[1], sys.argv[2], sys.argv[3]
work = tempfile.mkdtemp(prefix="restart_identity_")


text = open(inp).read()
a = os.path.join(work, "a.xml")
b = os.path.join(work, "b.xml")
# the mesh file of an input given by file= must still resolve from the scratch directory
text = re.sub(r'file="([^"/][^"]*)"', lambda m: 'file="%s"' % os.path.join(os.path.dirname(os.path.abspath(inp)), m.group(1)), text)
open(a, "w").write(text)
text_b, n = re.subn(r'<gravity acceleration="[^"]*"', '<gravity acceleration="0 -20"', text)
assert n == 1, "INPUT needs a <gravity> element"
open(b, "w").write(text_b)
d = os.path.join(work, "D")

# A, complete, with checkpoints and fields; a file of the user in D and in D/checkpoints
r = stickslip_run(prog, a, d, "-quiet", check=False, show="command", timeout=300)
check(r.returncode == 0, "A runs: " + r.stderr[-300:])
check(len(glob.glob(os.path.join(d, "checkpoints", "checkpoint_*.h5"))) > 0, "A wrote checkpoints")
check(len(glob.glob(os.path.join(d, "fields_*.vtu"))) > 0, "A wrote step files")
for keep in ("notes.txt", "fields_note.vtu", os.path.join("checkpoints", "README")):
    open(os.path.join(d, keep), "w").write("the user's\n")

# B into D with -force, killed before its first checkpoint
r = stickslip_run(prog, b, d, "-force", "-quiet", "-explicit_kill_at_step", "5", check=False, show="command", timeout=300)
check(r.returncode != 0, "B is killed at step 5")
check(not glob.glob(os.path.join(d, "checkpoints", "checkpoint_*.h5")), "-force removed A's checkpoints")
# B, killed at step 5, wrote only its first frame; A's later frames must be gone
steps = sorted(os.path.basename(f) for f in glob.glob(os.path.join(d, "fields_0*.vtu")))
check(steps == ["fields_000000.vtu"], "-force removed A's step files (left: %s)" % steps[:4])
for keep in ("notes.txt", "fields_note.vtu", os.path.join("checkpoints", "README")):
    check(os.path.exists(os.path.join(d, keep)), f"-force kept the user's {keep}")
r = stickslip_run(prog, b, d, "-restart", "-quiet", check=False, show="command", timeout=300)
check(r.returncode == 0 and "no valid checkpoint" in r.stdout, "B's -restart finds no checkpoint and starts at t = 0")
with h5py.File(os.path.join(d, "results.h5"), "r") as f:
    t = f["/explicit/energy"][:, 0]
    check(t[0] == 0 and np.all(np.diff(t) > 0), "B's histories hold each time once, increasing (%d rows)" % len(t))
    check(f["/meta"].attrs["status"] == "completed", "results.h5 status completed")
    check("-restart" in f["/meta/options"][()].decode(), "/meta/options records -restart")

# A killed after its checkpoints; restarts of other runs are refused
r = stickslip_run(prog, a, d, "-force", "-quiet", "-explicit_kill_at_step", kill, check=False, show="command", timeout=300)
check(r.returncode != 0 and glob.glob(os.path.join(d, "checkpoints", "checkpoint_*.h5")), "A killed after writing checkpoints")
mesh_b = re.sub(r'cells="(\d+) (\d+)"', lambda m: 'cells="%d %s"' % (int(m.group(1)) + 1, m.group(2)), text)
open(os.path.join(work, "mesh.xml"), "w").write(mesh_b)
for what, args, pattern in (
    ("another input", [b], r"the input differs"),
    ("an option that changes results", [a, "-explicit_energy_tolerance", "0.5"], r"options that change results differ.*-explicit_energy_tolerance 0\.5"),
    ("another mesh", [os.path.join(work, "mesh.xml")], r"the mesh differs"),
):
    r = stickslip_run(prog, args[0], d, "-restart", "-quiet", *args[1:], check=False, show="command", timeout=300)
    err = r.stderr.strip()
    check(r.returncode == 1 and re.search(pattern, err) and "-force" in err and len(err.splitlines()) == 1,
          f"-restart with {what} refused (exit {r.returncode}): {err[:300]}")
r = stickslip_run(prog, a, d, "-restart", "-quiet", "-log_view", "ascii:" + os.path.join(work, "log.txt"), check=False, show="command", timeout=300)
check(r.returncode == 0 and "restarting from" in r.stdout, "-restart of A with -log_view accepted: " + r.stderr[-300:])

shutil.rmtree(work, ignore_errors=True)
finish("check_restart_identity")
