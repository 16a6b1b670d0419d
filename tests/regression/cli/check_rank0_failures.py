"""A failure that rank 0 meets alone, in a file it reads or writes for every rank, ends every rank together: on 2 ranks
the run exits with the status of the same run on 1 rank and prints its error line once. Before, the other ranks waited
for rank 0 forever in their next collective call: every case below hung on 2 ranks until it was killed. The cases,
each made from the command line:
  checkpoint    the explicit solver's checkpoints/ is a regular file: the checkpoint cannot be written;
  pvd           a restart whose ParaView collection cannot be rewritten (fields.pvd.tmp is a directory);
  results       a restart into a results.h5 whose /meta is a dangling link;
  history       a restart without checkpoints into the results of another input, whose energy history has other
                columns;
  campaign_dir  a campaign whose -campaign_dir lies below a regular file: its digest cannot be written;
  record        -realisation K of a task whose failure record is not an HDF5 file;
  remove        a retried realisation that finishes but whose old failure record cannot be removed (a non-empty
                directory), written by the rank that ran it: on 2 groups of one rank (rank 1 may be the one) and on one
                group of 2 ranks;
  piece_open    a restart whose last field frame cannot be created on the last rank (its .vtu piece is a directory):
                the other ranks waited in the fields' assembly;
  piece_write   the same piece on a full disk (a link to /dev/full): the write fails, reported when the piece is closed.
Every run is started under `timeout`, so a run that hangs fails its check (exit status 124) instead of the suite.
Self-test: a command that outlives its timeout is reported as hanging."""
import os
import shutil
import subprocess
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from runs import run_command  # noqa: E402

exe, src, work = program("cli_rank0_failures")
EXPLICIT = os.path.join(src, "inputs/explicit/contact_restart.xml")  # checkpoints every 110 steps, fields every 100
OTHER = os.path.join(src, "inputs/explicit/box_generated.xml")  # another energy history: no contact columns
CAMPAIGN = os.path.join(src, "tests/regression/rough3d/campaign_tiny.xml")
HANG = 60  # s: every run here takes a few seconds at most
LAUNCH = {"serial": [], "mpi2": ["mpiexec", "-n", "2"]}


def run(mode, *args, check_status=False):
    """The program with ARGS in WORK/MODE (relative paths: the same messages in both modes), under timeout."""
    return run_command(["timeout", HANG, *LAUNCH[mode], exe, *args], cwd=os.path.join(work, mode), check=check_status,
                       timeout=3 * HANG)


def mkdir(mode, *parts):
    os.makedirs(os.path.join(work, mode, *parts), exist_ok=True)


def write(mode, path, text):
    with open(os.path.join(work, mode, path), "w") as f:
        f.write(text)


def set_up(case, mode):
    """Makes the failure of CASE in WORK/MODE; returns the arguments of the run that meets it."""
    if case == "checkpoint":
        mkdir(mode, "ck")
        write(mode, "ck/checkpoints", "not a directory\n")
        return ["run", EXPLICIT, "-o", "ck", "-quiet"]
    if case == "pvd":
        run(mode, "run", EXPLICIT, "-o", "pvd", "-quiet", check_status=True)
        mkdir(mode, "pvd", "fields.pvd.tmp")
        return ["run", EXPLICIT, "-o", "pvd", "-quiet", "-restart"]
    if case == "results":
        mkdir(mode, "res")
        with h5py.File(os.path.join(work, mode, "res", "results.h5"), "w") as f:
            f["meta"] = h5py.SoftLink("/nowhere")
        return ["run", EXPLICIT, "-o", "res", "-quiet", "-restart"]
    if case == "history":
        run(mode, "run", EXPLICIT, "-o", "hist", "-quiet", check_status=True)
        shutil.rmtree(os.path.join(work, mode, "hist", "checkpoints"))
        return ["run", OTHER, "-o", "hist", "-quiet", "-restart"]
    if case == "campaign_dir":
        write(mode, "blocker", "a regular file\n")
        return ["run", CAMPAIGN, "-o", "cdir", "-quiet", "-campaign_dir", "blocker/sub"]
    if case == "record":
        run(mode, "run", CAMPAIGN, "-o", "rec", "-quiet", "-realisation", "1", check_status=True)
        write(mode, "rec/realisations/failed_00000.h5", "not an HDF5 file\n")
        return ["run", CAMPAIGN, "-o", "rec", "-quiet", "-force", "-realisation", "0"]
    if case.startswith("piece"):
        run(mode, "run", EXPLICIT, "-o", case, "-quiet", check_status=True)
        piece = os.path.join(work, mode, case, "fields_000009" + ("_p0001" if mode == "mpi2" else "") + ".vtu")  # t_end
        os.remove(piece)
        if case == "piece_open":
            os.makedirs(os.path.join(piece, "x"))
        else:
            os.symlink("/dev/full", piece)
        return ["run", EXPLICIT, "-o", case, "-quiet", "-restart"]
    if case.startswith("remove"):
        mkdir(mode, case, "realisations", "failed_00000.h5", "x")
        groups = ["-campaign_groups", "1"] if case == "remove_group2" else []
        return ["run", CAMPAIGN, "-o", case, "-quiet", "-campaign_retry_failed", *groups]
    raise ValueError(case)


CASES = {  # the error line of each case (paths relative to WORK/MODE)
    "checkpoint": "Writing ck/checkpoints/.checkpoint.tmp failed: Not a directory",
    "pvd": "Cannot create pvd/fields.pvd.tmp: Is a directory",
    "results": "HDF5 error in opening /meta",
    "history": "cannot append to /explicit/energy: it has 10 columns, the restarted run writes 6",
    "campaign_dir": "cannot write blocker/sub/realisations/digest",
    "record": "cannot open rec/realisations/failed_00000.h5",
    "remove": "cannot remove remove/realisations/failed_00000.h5",
    "remove_group2": "cannot remove remove_group2/realisations/failed_00000.h5",
    "piece_open": "Cannot create VTK file piece_open/fields_000009",
    "piece_write": ".vtu failed: No space left on device",
}

p = run_command(["timeout", "1", "sleep", "10"], check=False)
check(p.returncode == 124, f"self-test: a command that outlives its timeout ends with status 124 ({p.returncode})")

serial = {}  # the exit status of each case on 1 rank
for case, message in CASES.items():
    status = {}
    for mode in LAUNCH:
        if case == "remove_group2" and mode == "serial":
            continue  # one group of 2 ranks: the serial run is the one of "remove"
        mkdir(mode)
        try:
            p = run(mode, *set_up(case, mode))
        except subprocess.TimeoutExpired:
            check(False, f"{case}, {mode}: the run still hangs after {3 * HANG} s")
            continue
        status[mode] = p.returncode
        if p.returncode == 124:
            check(False, f"{case}, {mode}: the run hangs (killed after {HANG} s): {p.log.strip()[-300:]}")
            continue
        once = p.log.count(message) == 1
        check(once, f"{case}, {mode}: the error once ('{message}')" + ("" if once else f": {p.log.strip()[-300:]}"))
    serial[case] = status.get("serial", serial.get("remove"))  # the serial run of "remove" for "remove_group2"
    check(serial[case] == 2 and status.get("mpi2") == serial[case],
          f"{case}: exit status 2 on 1 rank and the same on 2 ranks ({serial[case]}, {status.get('mpi2')})")

finish("check_rank0_failures")
