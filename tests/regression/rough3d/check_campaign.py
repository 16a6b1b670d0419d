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
  failures  campaign_failing.xml, in which 5 of 9 realisations go unstable (why: the comments of its inputs), on 1 rank,
            or with `mpi` on 2 ranks as 2 groups of one rank and as one group of 2 ranks: every realisation is run; the
            failed ones (0 1 2 3 5) leave a failure record and no result, the finished ones (4 6 7 8) a result; each
            failed index is named with its time and message in the summary and in results.h5 (/campaign_failures), the
            message being the one of the rank that met the problem (in a group of 2 the other rank only knows that
            the contact "failed on another rank"); the exit status is 2; the statistics of each l_c are over its
            finished realisations: none for l_c = 0.1 m, realisation 4 alone for l_c = 1 m (bitwise its arrays),
            all three for l_c = 10 m (the mean of the global ratio to 1e-14: Welford's update and numpy's sum differ by
            a few round-offs of values near 0.5, while a realisation too many or too few moves it by 1e-2 or more).
            On 1 rank the run is made with -malloc_debug -malloc_dump, and PETSc must report no memory left
            allocated at the end: a failed realisation's solver, input, surface and arrays are released (before,
            each failure left its solver's input and arrays behind: 5 blocks per failure). Then -restart runs nothing
            and keeps the failure records, -restart -campaign_retry_failed runs exactly the 5 failed ones again (they
            fail again) and leaves the finished ones alone, and -realisation K of a failed K does not run it again
            (exit status 2), of a finished K does nothing (exit status 0). A SIGTERM sent once the first record is
            written is not taken for a failure of the realisation it interrupts: the campaign stops (exit status 2,
            "interrupted by SIGTERM", realisations left to run) and -restart finishes it.
  option    -realisation: bad values (-1, -5, the number of realisations, 1.5, abc, empty) are input errors for
            validate and run (exit status 1, one line naming the option and the valid range, nothing written);
            before, -1 ran the whole campaign, -5 failed on the digest file and the others exited 2. A good value
            (the last realisation) runs that realisation alone (exit status 0).
  iga       the IGA path: campaign_iga_tiny.xml (a box patch of degree 3, 3 x 3 x 1 uniform knot spans, 6 x 6 samples)
            and its finite-element twin campaign_fe_twin.xml: both finish every realisation, and their samples
            (heights) are bitwise the same (same field, seed, count: the same realisations). The patch's bottom face,
            evaluated here from the bottom control points of each realisation file with the patch's knots
            (0 0 0 0 1/3 2/3 1 1 1 1), interpolates the samples at the sample points: s(x_i, y_j) - h_ij is one
            constant (minus the shift that rests the plate on its highest asperity) to 1e-12 RMS (round-off of a
            banded solve with a collocation matrix of condition below 10 on heights of 1e-4 m is about 1e-19 m, 2e-15
            RMS; 1e-12 RMS = 5e-17 m), and the minimum of the face over the campaign's grid of 8 points per sample interval is 0 to
            the same tolerance. Self-test: with the knots of the finite-element path's surface (0 0 0 0 0.4 0.6 1 1 1
            1) the same residual is above 1e-3 RMS, so the check tells the two surfaces apart. The aggregated
            statistics (results.h5, /campaign/lc_<i>) are the mean and standard deviation (n - 1) of the
            per-realisation files to 1e-12 (values of order 1; Welford and numpy differ by round-off), and leaving
            one realisation out moves the mean by more than 1e-6 (self-test).
  kappa     the real contact area against load (inputs/rough3d/kappa-*.xml, docs/validation/rough3d.md) on a small block:
            kappa_tiny.xml run with -campaign_record_nodal. The recorded nodal normal forces sum to the recorded total
            normal force at every row to 1e-12 of its largest value (the same sum in another order: measured 3e-16);
            the share of the face's area on nodes with a force, counted by postproc.rough3d from the nodal forces with
            the flat face's tributary areas, is the campaign's contact_area_fraction (mortar weights of the mapped face)
            to 1e-4 at every row (the mapped face's weights exceed the flat ones by about g^2 / 2 = 1e-4 relative:
            measured 2.8e-6; one node more or less moves the fraction by 1 / 289 = 3.5e-3); the postproc's bicubic
            spline of the samples, from which g is computed, meets the mapped bottom nodes to 1e-12 RMS (measured
            1e-18 m = 2e-15 RMS); and the fitted kappa over the whole face (2 elements per correlation length) is
            KAPPA_TINY to 5 %: the value measured on 2026-11-27, with the tolerance of the ramp-speed error measured on
            the study's coarsest mesh (kappa-32.xml at twice the ramp time: see KAPPA_TINY).
Usage: check_campaign.py restart|groups|symmetry|failures|option|iga|kappa WORKDIR [mpi]"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

from tests.common.runs import run_command

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
from postproc.rough3d import bspline_basis  # noqa: E402 (the repository's post-processing, for the IGA surface)
PROG = os.environ.get("STICKSLIP", "stickslip")
MPI = ["mpiexec", "-n", "2", "--oversubscribe"]
WAIT = 240  # s: the time limit of a run (a group left waiting would hang)


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
    run_command(MPI + [PROG, "run", inp, "-o", a, "-force", "-quiet"], show=True, timeout=WAIT)
    r = run_command(MPI + [PROG, "run", inp, "-o", b, "-force", "-quiet", "-campaign_kill_after", "1"], check=False, show=True, timeout=WAIT)
    if r.returncode == 0:
        sys.exit("FAIL: the campaign that should have been killed finished")
    before = {f: (os.stat(f).st_ino, os.stat(f).st_mtime_ns) for f in files(b)}
    ntask = len(files(a))
    print(f"killed campaign left {len(before)} of {ntask} realisations")
    if not 1 <= len(before) < ntask:
        sys.exit("FAIL: the kill did not happen part way")
    r = run_command(MPI + [PROG, "run", inp, "-o", b, "-restart", "-quiet"], show=True, timeout=WAIT)
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
        run_command(cmd + ["run", inp, "-o", d, "-quiet"] + extra, show=True, timeout=WAIT)
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
    run_command([PROG, "run", os.path.join(HERE, "campaign_flat.xml"), "-o", out, "-force", "-quiet"], show=True, timeout=WAIT)
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


FAILED, FINISHED = [0, 1, 2, 3, 5], [4, 6, 7, 8]  # campaign_failing.xml: tasks = l_c index x 3 + r


def failure_records(d):
    return sorted(glob.glob(os.path.join(d, "realisations", "failed_*.h5")))


def task_of(path):
    return int(re.search(r"_(\d+)\.h5$", path).group(1))


def stamps(paths):
    return {f: (os.stat(f).st_ino, os.stat(f).st_mtime_ns) for f in paths}


def check_failed_campaign(d, r, what):
    """The checks of one run of campaign_failing.xml into D (R: its completed process)."""
    if r.returncode != 2:
        sys.exit(f"FAIL: {what}: exit status {r.returncode}, expected 2 (realisations failed)")
    if not re.search(r"9 of 9 realisations to run", r.stdout):
        sys.exit(f"FAIL: {what}: the summary does not say that all 9 realisations are run")
    done, failed = [task_of(f) for f in files(d)], [task_of(f) for f in failure_records(d)]
    if done != FINISHED or failed != FAILED:
        sys.exit(f"FAIL: {what}: results {done} and failure records {failed}, expected {FINISHED} and {FAILED}")
    if glob.glob(os.path.join(d, "realisations", "*.tmp.*")):
        sys.exit(f"FAIL: {what}: temporary files left")
    if f"5 of 9 realisations failed ({' '.join(map(str, FAILED))})" not in r.stderr:
        sys.exit(f"FAIL: {what}: the error does not name the failed realisations")
    with h5py.File(os.path.join(d, "results.h5"), "r") as f:
        task, time = f["campaign_failures/task"][()], f["campaign_failures/time"][()]
        messages = {int(k.split("_")[1]): str(v) for k, v in f["campaign_failures/task"].attrs.items()}
        lc = [f[f"campaign/lc_{i}"] for i in range(3)]
        counts = [(int(g.attrs["finished"]), int(g.attrs["failed"])) for g in lc]
        if list(task) != FAILED or sorted(messages) != FAILED:
            sys.exit(f"FAIL: {what}: /campaign_failures lists {list(task)} ({sorted(messages)} messages)")
        for k, t in zip(task, time):
            line = re.search(rf"^  failed +realisation {k} \(l_c = [0-9.]+ m, number {k % 3}\) at t = ([0-9.e-]+) s: (.+)$", r.stdout, re.M)
            if not line or not 0 < t < 0.15 or float(line.group(1)) != float("%g" % t) or line.group(2) != messages[k]:
                sys.exit(f"FAIL: {what}: realisation {k}: no summary line with its time {t} and message")
            if not messages[k] or "another rank" in messages[k]:
                sys.exit(f"FAIL: {what}: realisation {k}: message {messages[k]!r} is not the one of the rank that met the problem")
        if counts != [(0, 3), (1, 2), (3, 0)]:
            sys.exit(f"FAIL: {what}: finished/failed per l_c {counts}, expected [(0, 3), (1, 2), (3, 0)]")
        if "sticking_time_ratio_mean" in lc[0]:
            sys.exit(f"FAIL: {what}: statistics written for l_c = 0.1 m, whose realisations all failed")
        r4 = arrays(os.path.join(d, "realisations", "realisation_00004.h5"))
        if not np.array_equal(lc[1]["sticking_time_ratio_mean"][()], r4["sticking_time_ratio"]) or \
                not np.array_equal(lc[1]["cof_mean"][()], r4["cof"]) or lc[1]["convergence"].shape != (1, 4):
            sys.exit(f"FAIL: {what}: the statistics of l_c = 1 m are not those of realisation 4 alone")
        ratios = []
        for k in (6, 7, 8):
            with h5py.File(os.path.join(d, "realisations", "realisation_%05d.h5" % k), "r") as g:
                ratios.append(float(g.attrs["sticking_time_ratio"]))
        mean = float(lc[2]["global_sticking_time_ratio_mean"][0])
        if abs(mean - np.mean(ratios)) > 1e-14 or lc[2]["convergence"].shape != (3, 4):
            sys.exit(f"FAIL: {what}: l_c = 10 m: mean {mean} over the realisations, {np.mean(ratios)} over the files 6 7 8")
    print(f"ok: {what}: 9 run, failed {FAILED} named with time and message, statistics over {FINISHED}")


def failures(work, mpi=False):
    inp = os.path.join(HERE, "campaign_failing.xml")
    if mpi:
        r = run_command(MPI + [PROG, "run", inp, "-o", os.path.join(work, "groups3"), "-quiet", "-campaign_groups", "3"], check=False, show=True, timeout=WAIT)
        if r.returncode != 1 or "must divide the 2 ranks" not in r.stdout + r.stderr:
            sys.exit(f"FAIL: -campaign_groups 3 on 2 ranks: exit {r.returncode}, expected 1 (bad input) and the message")
        for name, extra in (("two-groups", []), ("one-group", ["-campaign_groups", "1"])):
            d = os.path.join(work, "failing-" + name)
            shutil.rmtree(d, ignore_errors=True)
            check_failed_campaign(d, run_command(MPI + [PROG, "run", inp, "-o", d, "-quiet"] + extra, check=False, show=True, timeout=WAIT), name + " of 2 ranks")
        return
    d = os.path.join(work, "failing")
    shutil.rmtree(d, ignore_errors=True)
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-malloc_debug", "-malloc_dump"], check=False, show=True, timeout=WAIT)
    check_failed_campaign(d, r, "1 rank")
    leaks = re.findall(r"^\[ ?0\] \d+ bytes .*$", r.stdout + r.stderr, re.M)  # PetscMallocDump() prints on stdout
    if leaks:
        sys.exit(f"FAIL: memory left allocated after the campaign (-malloc_dump): {leaks[:5]}")
    before = stamps(files(d) + failure_records(d))
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-restart"], check=False, show=True, timeout=WAIT)
    if r.returncode != 2 or "0 of 9 realisations to run" not in r.stdout or "5 realisations failed before" not in r.stdout:
        sys.exit("FAIL: -restart should run nothing, keep the 5 failure records and exit 2")
    if stamps(files(d) + failure_records(d)) != before:
        sys.exit("FAIL: -restart touched a realisation or failure record")
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-restart", "-campaign_retry_failed"], check=False, show=True, timeout=WAIT)
    if r.returncode != 2 or "5 of 9 realisations to run" not in r.stdout:
        sys.exit("FAIL: -restart -campaign_retry_failed should run the 5 failed realisations again")
    if stamps(files(d)) != {f: before[f] for f in files(d)} or [task_of(f) for f in failure_records(d)] != FAILED:
        sys.exit("FAIL: -campaign_retry_failed ran a finished realisation or lost a failure record")
    if any(stamps([f])[f] == before[f] for f in failure_records(d)):
        sys.exit("FAIL: -campaign_retry_failed did not run every failed realisation again")
    before = stamps(failure_records(d))
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-restart", "-realisation", "3"], check=False, show=True, timeout=WAIT)
    if r.returncode != 2 or "failed before" not in r.stdout or stamps(failure_records(d)) != before:
        sys.exit("FAIL: -realisation 3 (failed before) should exit 2 without running it again")
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-restart", "-realisation", "4"], check=False, show=True, timeout=WAIT)
    if r.returncode != 0 or "exists already" not in r.stdout:
        sys.exit("FAIL: -realisation 4 (finished) should do nothing and exit 0")
    print("ok: -restart keeps the failure records, -campaign_retry_failed runs exactly the failed ones again")
    # the post-processing reads the aggregate over the finished realisations: the table counts them per correlation
    # length (0, 1 and 3 of 3 finish here) and the figures skip the correlation length without statistics
    table = run_command([sys.executable, "-m", "postproc.rough3d", "table", d]).stdout
    rows = [line.split("|")[2].strip() for line in table.splitlines() if line.startswith("| ") and "l_c" not in line]
    if rows != ["0 of 3: all failed (/campaign_failures)", "1 of 3", "3"]:
        sys.exit(f"FAIL: postproc.rough3d table counts the realisations as {rows}")
    run_command([sys.executable, "-m", "postproc.rough3d", "figures", d, os.path.join(d, "figures")])
    d = os.path.join(work, "interrupted")
    shutil.rmtree(d, ignore_errors=True)
    p = subprocess.Popen([PROG, "run", inp, "-o", d, "-quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while not (files(d) + failure_records(d)) and p.poll() is None:
        time.sleep(0.01)
    p.send_signal(signal.SIGTERM)  # the rest of the campaign takes about a second
    out, err = p.communicate(timeout=WAIT)
    n = len(files(d) + failure_records(d))
    print(err[-500:])
    if p.returncode != 2 or "interrupted by SIGTERM" not in err or not 1 <= n < 9:
        sys.exit(f"FAIL: SIGTERM: exit status {p.returncode}, {n} of 9 realisations recorded; expected 2, the interruption, and some left")
    r = run_command([PROG, "run", inp, "-o", d, "-quiet", "-restart"], check=False, show=True, timeout=WAIT)
    if r.returncode != 2 or f"{9 - n} of 9 realisations to run" not in r.stdout or \
            [task_of(f) for f in files(d)] != FINISHED or [task_of(f) for f in failure_records(d)] != FAILED:
        sys.exit("FAIL: -restart after SIGTERM should run the realisations left and end as an uninterrupted campaign")
    print(f"ok: SIGTERM stopped the campaign after {n} realisations; -restart ran the {9 - n} others")


def option(work):
    inp = os.path.join(HERE, "campaign_tiny.xml")  # 2 correlation lengths x 3 realisations: tasks 0 .. 5
    for value in ("-1", "-5", "6", "1.5", "abc", ""):
        for command in ("validate", "run"):
            d = os.path.join(work, "option")
            shutil.rmtree(d, ignore_errors=True)
            args = [PROG, command, inp, "-realisation", value] + (["-o", d, "-quiet"] if command == "run" else [])
            r = run_command(args, check=False, show=True, timeout=WAIT)
            err = [l for l in r.stderr.splitlines() if l.strip()]
            if r.returncode != 1 or len(err) != 1 or f"-realisation '{value}'" not in err[0] or "from 0 to 5" not in err[0]:
                sys.exit(f"FAIL: {command} -realisation {value!r}: exit status {r.returncode}, expected 1 with one line naming the option and 0 to 5")
            if os.path.exists(os.path.join(d, "realisations")):
                sys.exit(f"FAIL: run -realisation {value!r} wrote realisations")
    d = os.path.join(work, "option")
    shutil.rmtree(d, ignore_errors=True)
    run_command([PROG, "run", inp, "-realisation", "5", "-o", d, "-quiet"], show=True, timeout=WAIT)
    if [task_of(f) for f in files(d)] != [5]:
        sys.exit("FAIL: -realisation 5 should write realisation 5 alone")
    # a job-array task: its own -o, the realisations into a -campaign_dir that does not exist yet (made by the run)
    shared = os.path.join(work, "option_shared")
    shutil.rmtree(shared, ignore_errors=True)
    run_command([PROG, "run", inp, "-realisation", "4", "-o", d, "-force", "-quiet", "-campaign_dir", shared], show=True, timeout=WAIT)
    if [task_of(f) for f in files(shared)] != [4]:
        sys.exit("FAIL: -realisation 4 -campaign_dir NEW should write realisation 4 into NEW/realisations")
    print("ok: bad -realisation values are input errors; a good one runs that realisation alone, also into a new -campaign_dir")


def iga(work):
    rms, n = 5e-5, 6
    dirs = {}
    for name in ("campaign_iga_tiny.xml", "campaign_fe_twin.xml"):
        d = os.path.abspath(os.path.join(work, name[:-4]))  # absolute: postproc runs from the repository root
        shutil.rmtree(d, ignore_errors=True)
        run_command([PROG, "run", os.path.join(HERE, name), "-o", d, "-force", "-quiet"], show="command")
        dirs[name] = d
    fi, ff = files(dirs["campaign_iga_tiny.xml"]), files(dirs["campaign_fe_twin.xml"])
    if len(fi) != 4 or [task_of(f) for f in fi] != [task_of(f) for f in ff]:
        sys.exit(f"FAIL: expected 4 realisations on both paths, got {len(fi)} and {len(ff)}")
    uniform = [0, 0, 0, 0, 1 / 3, 2 / 3, 1, 1, 1, 1]
    averaged = [0, 0, 0, 0, 2 / 5, 3 / 5, 1, 1, 1, 1]
    xs = np.arange(n) / (n - 1)
    fine = np.arange(8 * (n - 1) + 1) / (8 * (n - 1))
    worst, worst_min, best_other = 0.0, 0.0, np.inf
    for a, b in zip(fi, ff):
        A, B = arrays(a), arrays(b)
        if not np.array_equal(A["heights"], B["heights"]):
            sys.exit(f"FAIL: {os.path.basename(a)}: the IGA and FE realisations have different samples")
        h = A["heights"].reshape(n, n)  # [j, i], x fastest
        order = np.lexsort((np.round(A["x"], 9), np.round(A["y"], 9)))  # rows of y: round-off in y must not reorder a row
        if len(order) != n * n:
            sys.exit(f"FAIL: {len(order)} contact control points, expected {n * n}")
        net = A["z"][order].reshape(n, n)
        for knots, tag in ((uniform, "patch"), (averaged, "other")):
            N = bspline_basis(knots, xs)
            d = N @ net @ N.T - h
            res = np.max(np.abs(d - d.mean())) / rms
            if tag == "patch":
                worst = max(worst, res)
                F = bspline_basis(knots, fine)
                worst_min = max(worst_min, abs(np.min(F @ net @ F.T)) / rms)
            else:
                best_other = min(best_other, res)
    print(f"bottom face against the samples: largest residual {worst:.2e} RMS (patch knots), smallest {best_other:.2e} RMS "
          f"(the FE surface's knots, self-test); |min of the face| {worst_min:.2e} RMS")
    if worst > 1e-12 or worst_min > 1e-12:
        sys.exit("FAIL: the patch's bottom face does not interpolate the samples (or does not rest on its lowest point)")
    if best_other < 1e-3:
        sys.exit("FAIL: self-test: the check does not tell the two surfaces apart")
    with h5py.File(os.path.join(dirs["campaign_iga_tiny.xml"], "results.h5"), "r") as f:
        for i in range(2):
            g = f["campaign/lc_%d" % i]
            R = [arrays(p) for p in fi if task_of(p) // 2 == i]
            glob_ratio = []
            for p in fi:
                if task_of(p) // 2 == i:
                    with h5py.File(p, "r") as r:
                        glob_ratio.append(float(r.attrs["sticking_time_ratio"]))
            for key, vals in (("sticking_time_ratio", [r["sticking_time_ratio"] for r in R]), ("cof", [r["cof"] for r in R]),
                              ("contact_area_fraction", [r["contact_area_fraction"] for r in R]),
                              ("global_sticking_time_ratio", [np.array([v]) for v in glob_ratio])):
                v = np.array(vals)
                err = max(np.max(np.abs(g[key + "_mean"][()] - v.mean(axis=0))), np.max(np.abs(g[key + "_std"][()] - v.std(axis=0, ddof=1))))
                if err > 1e-12:
                    sys.exit(f"FAIL: lc_{i}/{key}: the aggregate is {err:.2e} off the mean and std of the realisations")
                if key == "sticking_time_ratio" and np.max(np.abs(g[key + "_mean"][()] - v[:1].mean(axis=0))) < 1e-6:
                    sys.exit(f"FAIL: self-test: lc_{i}: leaving a realisation out does not change the mean")
    # the comparison script of docs/validation/rough3d.md ("FE against IGA") on the two campaigns: a row per path and l_c
    r = subprocess.run([sys.executable, "-m", "postproc.rough3d", "compare", dirs["campaign_fe_twin.xml"], dirs["campaign_iga_tiny.xml"]],
                       capture_output=True, text=True, cwd=os.path.join(HERE, "..", "..", ".."))
    print(r.stdout, r.stderr)
    if r.returncode or len([l for l in r.stdout.splitlines() if re.match(r"\| (0.25|1) \| (FE|IGA) \| 2 \|", l)]) != 4:
        sys.exit("FAIL: postproc.rough3d compare did not give the 4 rows (2 l_c x FE, IGA)")
    print("ok: same samples on both paths, the bottom face interpolates them, the aggregates are the means and stds of the realisations")


# kappa of kappa_tiny.xml over the whole face, fit over 0.02 <= a_r <= 0.10 (measured 2026-11-27: 4.009). The 5 %
# tolerance is below the result's own quasi-static error: the study's coarsest mesh (kappa-32.xml, the same mesh size,
# height, material and loading) gives kappa 4.40 with the ramp over 0.2 s and 4.69 over 0.4 s (docs/validation/rough3d.md,
# "Real contact area against load"), so a change of the code that moves kappa by more than 5 % changes the answer
KAPPA_TINY = 4.009


def kappa(work):
    from postproc.rough3d import kappa_mesh, realisation

    d = os.path.abspath(os.path.join(work, "kappa_tiny"))
    shutil.rmtree(d, ignore_errors=True)
    run_command([PROG, "run", os.path.join(HERE, "kappa_tiny.xml"), "-o", d, "-force", "-quiet", "-campaign_record_nodal"], show="command")
    r = realisation(d, 0)
    fn, total = r["normal_force_nodes"], r["normal_force"]
    if fn.shape != (len(total), len(r["x"])) or not np.max(total) > 0:
        sys.exit(f"FAIL: normal_force_nodes has shape {fn.shape}, expected ({len(total)}, {len(r['x'])}), or no force")
    err_sum = np.max(np.abs(fn.sum(axis=1) - total)) / np.max(total)
    m = kappa_mesh(d)
    err_area = np.max(np.abs(m["a_all"] - r["contact_area_fraction"]))
    err_spline = m["spline_at_nodes_err"] / m["rms"]
    print(f"nodal forces against the total: {err_sum:.2e}; area fraction from the nodal forces against the campaign's: {err_area:.2e}; "
          f"spline against the mapped nodes: {err_spline:.2e} RMS; kappa over the whole face {m['kappa_all']:.4f} ({m['rows_all']} rows), "
          f"largest a_r {np.max(m['a_all']):.3f}")
    if err_sum > 1e-12:
        sys.exit("FAIL: the nodal normal forces do not sum to the recorded total")
    if err_area > 1e-4:
        sys.exit("FAIL: the area fraction counted from the nodal forces is not the campaign's")
    if err_spline > 1e-12:
        sys.exit("FAIL: the postproc's spline is not the surface the nodes were mapped onto")
    if not abs(m["kappa_all"] / KAPPA_TINY - 1) <= 0.05:
        sys.exit(f"FAIL: kappa {m['kappa_all']:.4f}, expected {KAPPA_TINY} to 5 %")
    print("ok: nodal forces, area fraction and spline consistent; kappa as measured")


if __name__ == "__main__":
    os.makedirs(sys.argv[2], exist_ok=True)
    mode = {"restart": restart, "groups": groups, "symmetry": symmetry, "failures": failures, "option": option, "iga": iga, "kappa": kappa}[sys.argv[1]]
    if sys.argv[1] == "failures":
        mode(sys.argv[2], mpi=sys.argv[3:] == ["mpi"])
    else:
        mode(sys.argv[2])
