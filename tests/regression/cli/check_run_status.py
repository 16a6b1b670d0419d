"""The status of a run in results.h5 and what a run that died leaves behind (docs/output.md, "Run status").
Before: `stickslip run ... | head -1` died of SIGPIPE (exit 59, PETSc's signal handler) and left a results.h5 with
histories but no final state and nothing saying it was incomplete; SIGTERM did the same; the next run into that
directory was refused with a message that only named -force.

Checked on an explicit run of 20 s (the block sliding on a plane, about 150000 steps, 3 s of wall time):
1. a completed run: /meta status 'completed', status_time the end time;
2. stdout closed after the first line (as `| head -1`): the run completes, exit 0, status 'completed';
3. SIGTERM mid-run: exit 2, one error line, status 'failed' with the message 'interrupted by SIGTERM' and a
   status_time between 0 and the end; the next run into the directory is refused (exit 1) with a message naming
   the status, -force and -restart; -force then runs;
4. a run that fails numerically (energy blow-up): status 'failed' with the error message;
5. an output path that cannot be created: exit 1 (a refused output directory), one line."""
import os
import re
import subprocess
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from runs import terminate_in_loop  # noqa: E402

exe, src, work = program("cli_run_status")


def status(out):
    with h5py.File(os.path.join(out, "results.h5"), "r") as f:
        a = f["/meta"].attrs
        return a.get("status"), a.get("status_message"), a.get("status_time"), "/explicit/final" in f


END = 20
text = open(os.path.join(src, "inputs/explicit/contact_slide.xml")).read()
text = re.sub(r'<time end="[^"]*"', f'<time end="{END}"', text)
inp = os.path.join(work, "long.xml")
open(inp, "w").write(text)

# 1 and 2: stdout closed after the first line, as `stickslip run ... | head -1` does
out = os.path.join(work, "pipe")
p = subprocess.Popen([exe, "run", inp, "-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = p.stdout.readline()
p.stdout.close()
err = p.stderr.read().decode()
rc = p.wait(timeout=300)
check(first.startswith(b"stickslip"), "first line read")
check(rc == 0, f"closed stdout: the run completes (exit {rc}) {err[-300:]}")
st = status(out)
check(st[0] == "completed" and st[3], f"closed stdout: status completed with the final state ({st[0]})")
check(abs(st[2] - END) < 1e-9, f"status_time is the end time {END} s ({st[2]})")

# 3: SIGTERM mid-run
out = os.path.join(work, "term")
p = subprocess.Popen([exe, "run", inp, "-o", out, "-quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# results.h5 appears when the set-up is done; the run then takes about 3 s (the file cannot be read meanwhile: HDF5
# locks a file that is open for writing, and the banner on stdout is buffered in the pipe)
stdout, stderr, _ = terminate_in_loop(p, out, setup_limit=30)
lines = [l for l in stderr.splitlines() if l.strip() and not l.startswith("  (")]
check(p.returncode == 2, f"SIGTERM: exit status 2 ({p.returncode})")
check(len(lines) == 1 and "interrupted by SIGTERM" in lines[0], f"SIGTERM: one error line: {stderr.strip()[:300]}")
st = status(out)
check(st[0] == "failed" and st[1] == "interrupted by SIGTERM", f"SIGTERM: status failed, 'interrupted by SIGTERM' ({st[0]}, {st[1]})")
check(0 < st[2] < END and not st[3], f"SIGTERM: status_time {st[2]} inside the run, no final state")
p = subprocess.run([exe, "run", inp, "-o", out, "-quiet"], capture_output=True, text=True, timeout=300)
msg = p.stderr.strip()
check(p.returncode == 1 and "did not complete" in msg and "failed" in msg and "-force" in msg and "-restart" in msg,
      f"next run refused, naming the status, -force and -restart: {msg[:300]}")
p = subprocess.run([exe, "run", inp, "-o", out, "-quiet", "-force"], capture_output=True, text=True, timeout=300)
check(p.returncode == 0 and status(out)[0] == "completed", "-force then runs to completion")

# 4: a numerical failure
out = os.path.join(work, "blowup")
p = subprocess.run([exe, "run", os.path.join(src, "tests/regression/explicit/unstable/energy-blowup.xml"), "-o", out, "-quiet"],
                   capture_output=True, text=True, timeout=300)
st = status(out)
check(p.returncode == 2 and st[0] == "failed" and "nergy" in st[1], f"energy blow-up: exit 2, status failed with the message ({st[1][:100]})")

# 5: an output path that cannot be created (a directory below a regular file)
blocker = os.path.join(work, "a-file")
open(blocker, "w").write("x")
p = subprocess.run([exe, "run", inp, "-o", os.path.join(blocker, "out")], capture_output=True, text=True, timeout=60)
check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1, f"unwritable output path: exit 1, one line ({p.returncode}: {p.stderr.strip()[:200]})")
# the same on 2 ranks: rank 0 makes the directory and every rank stops with its refusal (the other ranks once waited
# for rank 0 forever)
try:
    p = subprocess.run(["mpiexec", "-n", "2", exe, "run", inp, "-o", os.path.join(blocker, "out"), "-quiet"], capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 1 and (p.stdout + p.stderr).count("cannot create output directory") == 1,
          f"unwritable output path on 2 ranks: exit 1, the refusal once ({p.returncode}: {p.stderr.strip()[:200]})")
except subprocess.TimeoutExpired:
    check(False, "unwritable output path on 2 ranks: the run still hangs after 120 s")

finish("check_run_status")
