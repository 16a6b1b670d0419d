"""A disk that fills up during a run: the run stops with exit status 2 and one error line naming the file and the
system's reason, on 1 rank and on 2, and what it had written stays readable. The disk is a small tmpfs mounted for the
test (it needs the right to mount, which root has on the CI machine; without it the test is skipped, exit status 77).
Before, a 2-rank run whose rank 0 could not write results.h5 hung (the other ranks went on stepping and waited in the
next exchange), and a checkpoint, a campaign's realisation file or a bars2020 history that met the full disk made HDF5
1.10 crash in MPI_Finalize (exit status 139) after the error line. The cases:
  results      the explicit solver's histories, one row every step, outgrow the disk (results.h5);
  checkpoint   the second checkpoint does not fit: the checkpoint directory is a disk of one checkpoint and half of
               another (its size measured from the same run on the ordinary disk); the first checkpoint stays whole,
               no temporary file is left, and a -restart from it (on the ordinary disk) completes;
  realisation  a campaign's realisation files outgrow the disk; the realisations written before it stay;
  bars2020     the bars' field histories (rows buffered 256 at a time) outgrow the disk (serial solver, 1 rank);
  rodpair      the rod pair's output rows outgrow the disk during a mode-matching solve (serial solver, 1 rank): in the
               sanitizer job LeakSanitizer checks that the solve frees its work arrays when it stops (it did not);
  sizes        the checkpointed run on disks of 4 to 15 pages: whichever write meets the full disk first (a checkpoint,
               a flush of results.h5's metadata, its final arrays), the run completes or ends with exit status 2 and
               one error line, never a crash or a hang (a flush of results.h5 that failed once crashed it).
Every run is started under `timeout`, so a run that hangs fails its check (exit status 124)."""
import math
import os
import shutil
import subprocess
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from runs import run_command  # noqa: E402

exe, src, work = program("cli_full_disk")
BOUNCE = os.path.join(src, "inputs/explicit/contact_bounce.xml")
RESTART = os.path.join(src, "inputs/explicit/contact_restart.xml")  # checkpoints every 110 steps, 2 kept
CAMPAIGN = os.path.join(src, "tests/regression/rough3d/campaign_tiny.xml")  # 6 realisation files of about 13 kB
BARS = os.path.join(src, "inputs/bars2020/block-muN1.xml")  # results.h5 of about 4.6 MB
RODPAIR = os.path.join(src, "inputs/rodpair/omega1-caseA.xml")  # results.h5 of about 3 MB per simulated second
HANG = 120  # s: every run here takes a few seconds at most
LAUNCH = {"serial": [], "mpi2": ["mpiexec", "-n", "2"]}
PAGE = 4096  # tmpfs counts whole pages
DISK = os.path.join(work, "disk")
NOSPACE = os.strerror(28)  # ENOSPC: "No space left on device"


def run(mode, *args, cwd=None):
    return run_command(["timeout", HANG, *LAUNCH[mode], exe, *args], cwd=cwd or work, check=False, timeout=3 * HANG)


def pages(path):
    return math.ceil(os.path.getsize(path) / PAGE)


def mount(size, at=DISK):
    """A fresh tmpfs of SIZE bytes at AT; False when mounting is not allowed here."""
    subprocess.run(["umount", at], capture_output=True)
    os.makedirs(at, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", at], capture_output=True, text=True)
    if p.returncode:
        print(f"cannot mount a tmpfs ({p.stderr.strip()})")
    return p.returncode == 0


def stops(case, mode, p, message):
    """The run stopped with exit status 2 and MESSAGE with the system's reason on one error line, once."""
    if p.returncode == 124:
        check(False, f"{case}, {mode}: the run hangs (killed after {HANG} s): {p.log.strip()[-300:]}")
        return
    lines = [line for line in p.log.splitlines() if "error:" in line]
    ok = p.returncode == 2 and len(lines) == 1 and message in lines[0] and NOSPACE in lines[0]
    check(ok, f"{case}, {mode}: exit status 2 and one error line with '{message}' and '{NOSPACE}'"
          + ("" if ok else f" (status {p.returncode}): {p.log.strip()[-400:]}"))


def status(path):
    with h5py.File(path, "r") as f:
        return f["meta"].attrs["status"]


# sizes of the checkpoint case from the same run on the ordinary disk
CKARGS = ["-explicit_field_interval", "0", "-explicit_history_interval", "0", "-quiet"]
ref = run("serial", "run", RESTART, "-o", os.path.join(work, "ck_ref"), *CKARGS)
check(ref.returncode == 0, f"checkpoint reference run completes ({ref.returncode})")
ck = sorted(os.listdir(os.path.join(work, "ck_ref", "checkpoints")))  # the last two, of the same size as the first
ck_pages = pages(os.path.join(work, "ck_ref", "checkpoints", ck[-1]))

if not mount(64 * PAGE):
    print("check_full_disk: skipped")
    sys.exit(77)
try:
    for mode in LAUNCH:
        mount(48 * PAGE)  # results.h5 of this run grows to about 15 MB
        out = os.path.join(DISK, "results")
        p = run(mode, "run", BOUNCE, "-o", out, "-quiet", "-explicit_field_interval", "0", "-explicit_history_interval", "1")
        stops("results", mode, p, f"writing {out}/results.h5 failed")
        st = status(os.path.join(out, "results.h5"))
        check(st != "completed", f"results, {mode}: results.h5 readable, its status not 'completed' ({st})")

        out = os.path.join(work, f"ck_full_{mode}")
        shutil.rmtree(out, ignore_errors=True)
        mount((ck_pages + max(1, ck_pages // 2)) * PAGE, os.path.join(out, "checkpoints"))
        p = run(mode, "run", RESTART, "-o", out, *CKARGS)
        stops("checkpoint", mode, p, f"Writing {out}/checkpoints/.checkpoint.tmp failed")
        left = sorted(os.listdir(os.path.join(out, "checkpoints")))
        check(left == ["checkpoint_%010d.h5" % 110], f"checkpoint, {mode}: the first checkpoint (step 110) alone is left ({left})")
        copy = os.path.join(work, f"ck_{mode}")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(out, copy)
        subprocess.run(["umount", os.path.join(out, "checkpoints")], capture_output=True)
        p = run(mode, "run", RESTART, "-o", copy, "-restart", *CKARGS)
        check(p.returncode == 0 and "restarting from" in p.log,
              f"checkpoint, {mode}: a -restart from it on the ordinary disk completes ({p.returncode})")

        mount(24 * PAGE)
        out = os.path.join(DISK, "campaign")
        p = run(mode, "run", CAMPAIGN, "-o", out, "-quiet")
        stops("realisation", mode, p, f"Writing {out}/realisations/realisation_0000")
        kept = [f for f in os.listdir(os.path.join(out, "realisations")) if f.startswith("realisation_")]
        check(all(f.endswith(".h5") for f in kept) and all(h5py.is_hdf5(os.path.join(out, "realisations", f)) for f in kept),
              f"realisation, {mode}: the realisations written before are whole HDF5 files, no temporary left ({kept})")

    for mode in LAUNCH:
        seen = []
        for npages in range(4, 16):
            mount(npages * PAGE)
            out = os.path.join(DISK, "sizes")
            p = run(mode, "run", RESTART, "-o", out, *CKARGS)
            errors = [line for line in p.log.splitlines() if "error:" in line]
            seen.append(p.returncode)
            ok = (p.returncode == 0 and not errors) or (p.returncode == 2 and len(errors) == 1 and NOSPACE in errors[0])
            if not ok:
                check(False, f"sizes, {mode}: {npages} pages: status {p.returncode}: {p.log.strip()[-300:]}")
        check(2 in seen and 0 in seen, f"sizes, {mode}: every run completes or stops with status 2 and one error line ({seen})")

    mount(64 * PAGE)
    out = os.path.join(DISK, "bars")
    p = run("serial", "run", BARS, "-o", out, "-quiet")
    stops("bars2020", "serial", p, f"writing {out}/results.h5 failed")

    mount(20 * PAGE)
    out = os.path.join(DISK, "rodpair")
    p = run("serial", "run", RODPAIR, "-o", out, "-quiet", "-rodpair_solver", "mmm", "-rodpair_end", "0.4")
    stops("rodpair", "serial", p, f"writing {out}/results.h5 failed")
finally:
    with open("/proc/mounts") as f:  # every tmpfs of the test, also those of a check that failed half-way
        for at in sorted((line.split()[1] for line in f if line.split()[1].startswith(work)), reverse=True):
            subprocess.run(["umount", at], capture_output=True)

finish("check_full_disk")
