"""Named checks for the test scripts: check(cond, what) prints "ok" or "FAIL" with WHAT and remembers failures;
finish(name) prints the verdict and exits with status 1 if any check failed; program(name) gives the program under
test ($STICKSLIP), the source tree ($SK_SOURCE_DIR) and a fresh scratch directory NAME. Import from a test script with
sys.path.insert(0, <tests/common>)."""
import os
import shutil
import sys

failures = []


def check(cond, what):
    print(("ok  " if cond else "FAIL"), what)
    if not cond:
        failures.append(what)


def finish(name):
    print(f"{name}:", "FAILED" if failures else "ok")
    sys.exit(1 if failures else 0)


def program(name):
    exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
    src = os.environ.get("SK_SOURCE_DIR", ".")
    work = os.path.abspath(name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return exe, src, work
