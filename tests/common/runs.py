"""One way for the test scripts to run the program on an input: `stickslip run INPUT -o OUT [OPTIONS]`, optionally
under a launcher (mpiexec) or in another working directory, its output captured.

    from tests.common.runs import stickslip_run
    p = stickslip_run(prog, inp, out, "-quiet")                  # a failed run ends the test with FAIL and its output
    p = stickslip_run(prog, inp, out, check=False)               # the caller looks at p.returncode, p.stdout, p.stderr
"""
import subprocess
import sys


def stickslip_run(prog, inp, out, *options, prefix=(), cwd=None, check=True, show=False, timeout=None):
    """Runs PREFIX PROG run INP -o OUT OPTIONS with stdout and stderr captured as text and returns the
    CompletedProcess. show: print the command, its exit status and its output. check: a non-zero exit ends the test
    (exit status 1) with 'FAIL:', the command and the end of its output."""
    cmd = [*prefix, prog, "run", inp, "-o", out, *options]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    if show:
        print("$", " ".join(cmd), "->", p.returncode)
        print(p.stdout + p.stderr)
    if check and p.returncode:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    return p
