"""SIGTERM (what `timeout` and batch systems send) stops a run of each solver besides the explicit one (cli_run_status
checks that one) inside its time loop: exit status 2, one error line 'interrupted by SIGTERM', and results.h5 readable
with status 'failed' and that message. Each run is made long (its <time end> raised a hundredfold) and gets the signal
half a second after its results.h5 appears, so the signal lands in the time loop, not in the start-up; it must exit
within 5 s of the signal (it prints how long it took).
In the sanitizer job (label refusal) LeakSanitizer also checks that each stopped run frees what it holds: the bowed
string's reduced and full models did not (their step work), nor the mode-matching solve (its transforms and tables).
Usage: check_sigterm_solvers.py STICKSLIP"""
import os
import re
import subprocess
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from runs import terminate_in_loop  # noqa: E402

exe, src, work = program("cli_sigterm_solvers")
STOP = 5.0  # s from the signal to the exit: 0.06 to 0.08 s measured (Release); room for a sanitizer build, a loaded machine
CASES = [  # name, input, options
    ("rodpair-mmm", "inputs/rodpair/omega1-caseA.xml", ["-rodpair_solver", "mmm"]),
    ("rodpair-rk45", "inputs/rodpair/omega1-caseA.xml", ["-rodpair_solver", "rk45", "-rodpair_nodes", "51"]),
    ("bars2020", "inputs/bars2020/block-muN1.xml", []),
    ("bowedstring-reduced", "inputs/bowedstring/section5-limitcycle.xml", ["-bowedstring_model", "reduced"]),
    ("bowedstring-full", "inputs/bowedstring/section5-limitcycle.xml", ["-bowedstring_model", "full"]),
    ("rigid", "inputs/slider2d/springslider-rigid.xml", []),
    ("bk", "inputs/bk/bk-n5.xml", []),
]


def long_copy(name, path):
    """A copy of the input at PATH with its <time end> a hundred times larger."""
    text = open(os.path.join(src, path)).read()
    text, n = re.subn(r'(<time\b[^>]*\bend=")([^"]*)(")', lambda m: m.group(1) + repr(100 * float(m.group(2))) + m.group(3), text)
    check(n == 1, f"{name}: one <time end> in {path} ({n})")
    out = os.path.join(work, f"{name}.xml")
    open(out, "w").write(text)
    return out


for name, path, opts in CASES:
    out = os.path.join(work, name)
    p = subprocess.Popen([exe, "run", long_copy(name, path), "-o", out, "-force", "-quiet", *opts], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    stdout, stderr, seconds = terminate_in_loop(p, out)
    check(seconds < STOP, f"{name}: exit {seconds:.3f} s after the signal (at most {STOP} s)")
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("  (")]
    ok = p.returncode == 2 and len(lines) == 1 and "interrupted by SIGTERM" in lines[0]
    check(ok, f"{name}: exit status 2 and one error line 'interrupted by SIGTERM' (status {p.returncode})"
          + ("" if ok else f": {stderr.strip()[-1500:]}"))
    try:
        with h5py.File(os.path.join(out, "results.h5"), "r") as f:
            st = (f["meta"].attrs.get("status"), f["meta"].attrs.get("status_message"))
    except OSError as e:
        st = (f"unreadable: {e}", None)
    check(st == ("failed", "interrupted by SIGTERM"), f"{name}: results.h5 has status 'failed', 'interrupted by SIGTERM' ({st})")

finish("check_sigterm_solvers")
