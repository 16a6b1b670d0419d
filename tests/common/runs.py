"""One way for the test scripts to run a command and the program: `stickslip run INPUT -o OUT [OPTIONS]` (or any other
subcommand), optionally under a launcher (mpiexec) or in another working directory, its output captured.

    from tests.common.runs import stickslip_run, stickslip, run_command
    p = stickslip_run(prog, inp, out, "-quiet")                  # a failed run ends the test with FAIL and its output
    p = stickslip_run(prog, inp, out, check=False)               # the caller looks at p.returncode, p.stdout, p.stderr
    p = stickslip(prog, "validate", inp, check=False)            # another subcommand (or none: stickslip(prog, "--help"))
    p = run_command(["/usr/bin/python3", "-m", "venv", d])       # any command, the same options
"""
import os
import signal
import subprocess
import sys
import time


def run_command(cmd, *, cwd=None, env=None, check=True, show=False, timeout=None, preexec_fn=None):
    """Runs the command list CMD with stdout and stderr captured as text and returns the CompletedProcess, with
    p.log = p.stdout + p.stderr.
    show: True prints the command, its exit status and the end of its output; "command" prints the command and exit status only.
    check: a non-zero exit ends the test (exit status 1) with 'FAIL:', the command and the end of its output.
    timeout (s): a command left waiting (an MPI group that hangs) raises subprocess.TimeoutExpired.
    preexec_fn: called in the child before the command starts (resource limits)."""
    cmd = [str(c) for c in cmd]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout, preexec_fn=preexec_fn)
    p.log = p.stdout + p.stderr
    if show:
        print("$", " ".join(cmd), "->", p.returncode)
        if show is True:
            print(p.stdout[-3000:] + p.stderr[-3000:])
    if check and p.returncode:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {p.returncode}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    return p


def stickslip(prog, *args, prefix=(), **kw):
    """Runs PREFIX PROG ARGS (any subcommand of the program) through run_command() with its keyword options."""
    return run_command([*prefix, prog, *args], **kw)


def stickslip_run(prog, inp, out, *options, prefix=(), **kw):
    """Runs PREFIX PROG run INP -o OUT OPTIONS through run_command() (keywords: cwd, env, check, show, timeout)."""
    return stickslip(prog, "run", inp, "-o", out, *options, prefix=prefix, **kw)


def terminate_in_loop(proc, out, delay=0.5, setup_limit=60):
    """Sends SIGTERM to the run PROC half a second (DELAY) after its OUT/results.h5 appears, which it does when the
    set-up is done (waiting SETUP_LIMIT seconds at most, or until the run ends), so that the signal lands in the time
    loop; returns (stdout, stderr) of the run, which the caller started with text pipes, and the seconds from the signal
    to the run's exit."""
    for _ in range(int(setup_limit / 0.05)):
        if os.path.exists(os.path.join(out, "results.h5")) or proc.poll() is not None:
            break
        time.sleep(0.05)
    time.sleep(delay)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=300)
    return stdout, stderr, time.monotonic() - t0
