#!/usr/bin/env python3
"""Runs `stickslip run INPUT` and checks that it stops with exit status 2 (a failure during the run, docs/input.md) and
a message matching the regex in the input's expect-message comment (unstable runs: energy blow-up, inverted element,
NaN). Any other status fails, among them a sanitizer's report at the exit.
Usage: check_run_fails.py STICKSLIP INPUT.xml"""
import re
import subprocess
import sys
import tempfile


def main():
    prog, path = sys.argv[1], sys.argv[2]
    m = re.search(r'expect-message "([^"]+)"', open(path).read())
    if not m:
        sys.exit("%s: no expect-message comment" % path)
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([prog, "run", path, "-o", tmp, "-force", "-quiet"], capture_output=True, text=True)
    out = r.stdout + r.stderr
    print(out)
    if r.returncode == 0:
        sys.exit("FAIL: the run did not stop")
    if r.returncode != 2:
        sys.exit(f"FAIL: exit status {r.returncode}, expected 2 (a failure during the run)")
    if not re.search(m.group(1), out):
        sys.exit("FAIL: no message matching /%s/" % m.group(1))
    print("ok: stopped with /%s/" % m.group(1))


if __name__ == "__main__":
    main()
