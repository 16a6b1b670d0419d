"""Named checks for the test scripts: check(cond, what) prints "ok" or "FAIL" with WHAT and remembers failures;
finish(name) prints the verdict and exits with status 1 if any check failed. Import from a script beside it with
sys.path.insert(0, <tests/common>)."""
import sys

failures = []


def check(cond, what):
    print(("ok  " if cond else "FAIL"), what)
    if not cond:
        failures.append(what)


def finish(name):
    print(f"{name}:", "FAILED" if failures else "ok")
    sys.exit(1 if failures else 0)
