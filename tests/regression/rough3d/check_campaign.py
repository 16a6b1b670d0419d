#!/usr/bin/env python3
"""Checks of the rough-plate campaign (src/dynamics/campaign.c) on the tiny inputs of this folder.

  restart   kill -9 a 2-rank campaign part way (-campaign_kill_after 1: the first rank to finish a realisation kills
            itself with SIGKILL, and mpiexec ends the other), start it again with -restart, and compare with an
            uninterrupted 2-rank campaign: every realisation exists exactly once, the ones finished before the kill are
            not run again (same inode and modification time), the others are run by the restart (its summary says
            how many), and every array of every realisation and of the aggregated statistics is bitwise the same
            (a realisation is a pure function of input and index, and both campaigns use the same rank layout).
  groups    the surfaces do not depend on the rank layout: the tiny campaign on 1 rank and on 2 ranks in one group of 2
            gives bitwise the same samples (heights) and mapped bottom nodes (z) as 2 groups of one rank (the
            uninterrupted run of `restart`, which must have run first); the dynamics agree to round-off only (the
            explicit solver's sums run in another order on 2 ranks), so their largest difference is printed, not checked.
  symmetry  the flat plate (RMS = 0) driven in x: the sticking-time ratios at (x, y) and (x, L - y) agree to 1e-10
            (the problem is mirror-symmetric about y = L / 2; what breaks the symmetry is round-off in the sums,
            1e-16 relative per step, so 1e-10 leaves a margin of several orders of magnitude and still catches any
            asymmetric indexing or mapping of the surface).
  option    -realisation: bad values (-1, -5, the number of realisations, 1.5, abc, empty) are input errors for
            validate and run (exit status 1, one line naming the option and the valid range, nothing written);
            before, -1 ran the whole campaign, -5 failed on the digest file and the others exited 2. A good value
            (the last realisation) runs that realisation alone (exit status 0).
Usage: check_campaign.py restart|groups|symmetry|option WORKDIR"""
import glob
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.environ.get("STICKSLIP", "stickslip")
MPI = ["mpiexec", "-n", "2", "--oversubscribe"]


def run(args, expect_ok=True):
    r = subprocess.run(args, capture_output=True, text=True)
    print(" ".join(args), "->", r.returncode)
    print(r.stdout[-2000:], r.stderr[-2000:])
    if expect_ok and r.returncode != 0:
        sys.exit("FAIL: the run failed")
    return r


def files(d):
    return sorted(glob.glob(os.path.join(d, "realisations", "realisation_*.h5")))


def arrays(path):
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and not name.startswith("meta"):
                out[name] = obj[()]
        f.visititems(visit)
    return out


def same(a, b, what):
    A, B = arrays(a), arrays(b)
    if set(A) != set(B):
        sys.exit(f"FAIL: {what}: datasets differ: {sorted(set(A) ^ set(B))}")
    for k in A:
        if A[k].dtype.kind == "f" and not np.array_equal(A[k], B[k]):
            sys.exit(f"FAIL: {what}: {k} differs (max {np.max(np.abs(A[k] - B[k]))})")


def restart(work):
    inp = os.path.join(HERE, "campaign_tiny.xml")
    a, b = os.path.join(work, "uninterrupted"), os.path.join(work, "killed")
    for d in (a, b):  # realisations of the same input in an output directory are kept, even with -force
        shutil.rmtree(d, ignore_errors=True)
    run(MPI + [PROG, "run", inp, "-o", a, "-force", "-quiet"])
    r = run(MPI + [PROG, "run", inp, "-o", b, "-force", "-quiet", "-campaign_kill_after", "1"], expect_ok=False)
    if r.returncode == 0:
        sys.exit("FAIL: the campaign that should have been killed finished")
    before = {f: (os.stat(f).st_ino, os.stat(f).st_mtime_ns) for f in files(b)}
    ntask = len(files(a))
    print(f"killed campaign left {len(before)} of {ntask} realisations")
    if not 1 <= len(before) < ntask:
        sys.exit("FAIL: the kill did not happen part way")
    r = run(MPI + [PROG, "run", inp, "-o", b, "-restart", "-quiet"])
    m = re.search(r"(\d+) of (\d+) realisations to run", r.stdout)
    if not m or int(m.group(1)) != ntask - len(before):
        sys.exit(f"FAIL: the restart should run exactly the {ntask - len(before)} missing realisations")
    for f, stamp in before.items():
        if (os.stat(f).st_ino, os.stat(f).st_mtime_ns) != stamp:
            sys.exit(f"FAIL: {f} was run again")
    fa, fb = files(a), files(b)
    if [os.path.basename(f) for f in fa] != [os.path.basename(f) for f in fb]:
        sys.exit("FAIL: the realisation files differ")
    for x, y in zip(fa, fb):
        same(x, y, os.path.basename(x))
    A, B = arrays(os.path.join(a, "results.h5")), arrays(os.path.join(b, "results.h5"))
    keys = [k for k in A if k.startswith("campaign")]
    if not keys or any(not np.array_equal(A[k], B[k]) for k in keys):
        sys.exit("FAIL: the aggregated statistics differ")
    print(f"ok: {ntask} realisations once each, {len(before)} kept from before the kill, all bitwise equal; "
          f"{len(keys)} aggregated arrays equal")


def groups(work):
    inp = os.path.join(HERE, "campaign_tiny.xml")
    ref = files(os.path.join(work, "uninterrupted"))
    if not ref:
        sys.exit("FAIL: run the restart check first")
    for name, cmd in (("serial", [PROG]), ("one-group", MPI + [PROG])):
        d = os.path.join(work, name)
        shutil.rmtree(d, ignore_errors=True)
        extra = ["-campaign_groups", "1"] if name == "one-group" else []
        run(cmd + ["run", inp, "-o", d, "-quiet"] + extra)
        worst = 0.0
        for x, y in zip(ref, files(d)):
            A, B = arrays(x), arrays(y)
            for k in ("heights", "z", "x", "y"):
                if not np.array_equal(A[k], B[k]):
                    sys.exit(f"FAIL: {name}: {k} of {os.path.basename(x)} differs from 2 groups of one rank")
            worst = max(worst, max(float(np.max(np.abs(A[k] - B[k]))) for k in ("cof", "contact_area_fraction", "sticking_time_ratio")))
        print(f"ok: {name}: {len(ref)} surfaces bitwise equal; dynamics differ by at most {worst:.2e}")


def symmetry(work):
    out = os.path.join(work, "flat")
    run([PROG, "run", os.path.join(HERE, "campaign_flat.xml"), "-o", out, "-force", "-quiet"])
    with h5py.File(files(out)[0], "r") as f:
        x, y, s = f["x"][()], f["y"][()], f["sticking_time_ratio"][()]
    L = y.max() + y.min()
    worst = 0.0
    for i in range(len(x)):
        j = np.argmin((x - x[i]) ** 2 + (y - (L - y[i])) ** 2)
        if abs(x[j] - x[i]) > 1e-12 or abs(y[j] - (L - y[i])) > 1e-12:
            sys.exit(f"FAIL: no mirror node of ({x[i]}, {y[i]})")
        worst = max(worst, abs(s[i] - s[j]))
    print(f"{len(x)} contact nodes, sticking-time ratios {s.min():.4f} .. {s.max():.4f}, mirror asymmetry {worst:.2e}")
    if worst > 1e-10 or s.max() <= 0:
        sys.exit("FAIL: the flat plate's sticking-time ratios are not symmetric about y = L / 2 to 1e-10")
    print("ok")


def task_of(path):
    return int(re.search(r"_(\d+)\.h5$", path).group(1))


def option(work):
    inp = os.path.join(HERE, "campaign_tiny.xml")  # 2 correlation lengths x 3 realisations: tasks 0 .. 5
    for value in ("-1", "-5", "6", "1.5", "abc", ""):
        for command in ("validate", "run"):
            d = os.path.join(work, "option")
            shutil.rmtree(d, ignore_errors=True)
            args = [PROG, command, inp, "-realisation", value] + (["-o", d, "-quiet"] if command == "run" else [])
            r = run(args, expect_ok=False)
            err = [l for l in r.stderr.splitlines() if l.strip()]
            if r.returncode != 1 or len(err) != 1 or f"-realisation '{value}'" not in err[0] or "from 0 to 5" not in err[0]:
                sys.exit(f"FAIL: {command} -realisation {value!r}: exit status {r.returncode}, expected 1 with one line naming the option and 0 to 5")
            if os.path.exists(os.path.join(d, "realisations")):
                sys.exit(f"FAIL: run -realisation {value!r} wrote realisations")
    d = os.path.join(work, "option")
    shutil.rmtree(d, ignore_errors=True)
    run([PROG, "run", inp, "-realisation", "5", "-o", d, "-quiet"])
    if [task_of(f) for f in files(d)] != [5]:
        sys.exit("FAIL: -realisation 5 should write realisation 5 alone")
    print("ok: bad -realisation values are input errors; a good one runs that realisation alone")


if __name__ == "__main__":
    os.makedirs(sys.argv[2], exist_ok=True)
    {"restart": restart, "groups": groups, "symmetry": symmetry, "option": option}[sys.argv[1]](sys.argv[2])
