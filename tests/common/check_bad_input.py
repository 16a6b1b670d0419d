#!/usr/bin/env python3
"""Shared by the bad-input tests of every solver. Runs `stickslip validate BAD.xml` and checks that it fails with exactly one `BAD.xml:LINE: message` line whose LINE
is the element named in the file's expect-line comment and whose message matches its expect-message regex.
Usage: check_bad_input.py STICKSLIP BAD.xml"""
import re
import subprocess
import sys


def main():
    prog, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    m = re.search(r'expect-line "([^"]+)", expect-message "([^"]+)"', text)
    if not m:
        sys.exit(f"{path}: no expect-line/expect-message comment")
    token, regex = m.group(1), m.group(2)
    line = next(i + 1 for i, l in enumerate(text.splitlines()) if l.strip().startswith(token))
    r = subprocess.run([prog, "validate", path], capture_output=True, text=True)
    out = r.stdout + r.stderr
    print(out)
    if r.returncode == 0:
        sys.exit(f"FAIL: {path} was accepted")
    want = re.compile(re.escape(path) + ":" + str(line) + ": .*" + regex)
    if not any(want.search(l) for l in out.splitlines()):
        sys.exit(f"FAIL: no line matching {want.pattern!r}")
    print(f"ok: refused at line {line} with /{regex}/")


if __name__ == "__main__":
    main()
