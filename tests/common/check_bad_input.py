#!/usr/bin/env python3
"""Shared by the bad-input tests of every solver. Runs `stickslip validate BAD.xml` and `stickslip run BAD.xml` and checks
that each fails with exit status 1 and a `BAD.xml:LINE: message` line whose LINE is the element named in the file's
expect-line comment and whose message matches its expect-message regex (`run` must refuse what `validate` refuses).
Usage: check_bad_input.py STICKSLIP BAD.xml"""
import re
import subprocess
import sys
import tempfile


def main():
    prog, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    m = re.search(r'expect-line "([^"]+)", expect-message "([^"]+)"', text)
    if not m:
        sys.exit(f"{path}: no expect-line/expect-message comment")
    token, regex = m.group(1), m.group(2)
    line = next(i + 1 for i, l in enumerate(text.splitlines()) if l.strip().startswith(token))
    want = re.compile(re.escape(path) + ":" + str(line) + ": .*" + regex)
    with tempfile.TemporaryDirectory() as outdir:
        for command in (["validate", path], ["run", path, "-o", outdir, "-quiet"]):
            r = subprocess.run([prog, *command], capture_output=True, text=True, timeout=120)
            out = r.stdout + r.stderr
            print(out)
            if r.returncode != 1:
                sys.exit(f"FAIL: stickslip {command[0]} {path}: exit status {r.returncode}, expected 1 (bad input)")
            if not any(want.search(l) for l in out.splitlines()):
                sys.exit(f"FAIL: stickslip {command[0]}: no line matching {want.pattern!r}")
    print(f"ok: validate and run refuse it at line {line} with /{regex}/")


if __name__ == "__main__":
    main()
