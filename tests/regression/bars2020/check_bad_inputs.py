"""bars2020 bad inputs: each is derived from inputs/bars2020/block-muN10.xml by one substitution and must be refused by
`stickslip validate` with a non-zero exit and exactly one stderr line "FILE:LINE: message" naming the problem, at the
line of the offending element (the lines below are those of block-muN10.xml)."""
import os
import re
import subprocess
import sys

exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
src = os.environ.get("SK_SOURCE_DIR", ".")
base = os.path.join(src, "inputs", "bars2020", "block-muN10.xml")
work = os.path.abspath("bars2020_bad_inputs")
os.makedirs(work, exist_ok=True)

# (name, regex to find, replacement, expected line, expected regex in the message)
CASES = [
    ("EA-and-c", r'<bar2 rhoA="5" c="500"', '<bar2 rhoA="5" c="500" EA="1e6"', 8, r"exactly one of EA .* and c"),
    ("neither-EA-nor-c", r'<bar2 rhoA="5" c="500"', '<bar2 rhoA="5"', 8, r"exactly one of EA .* and c"),
    ("dt-too-large", r'<time end="0.015"/>', '<time end="0.015" dt="1e-5"/>', 11, r"dt = 1e-05 s is above a tenth of the shortest modal period"),
    ("overlap-beyond-bar2", r'overlap="10"', 'overlap="25"', 9, r"overlap = 25\.? m must not exceed"),
    ("point-outside-bar2", r'bar2="0 2.5 5 10 15"', 'bar2="0 2.5 25"', 12, r"output point bar2 = 25\.? m lies outside bar 2"),
    ("too-few-modes", r'<bar1 rhoA="1" EA="25e6" length="20" modes="250"/>', '<bar1 rhoA="1" EA="25e6" length="20" modes="1"/>', 7, r"modes = 1 is too few"),
    ("negative-muN", r'muN="10"', 'muN="-1"', 9, r"muN"),
    ("zero-length", r'<bar1 rhoA="1" EA="25e6" length="20"', '<bar1 rhoA="1" EA="25e6" length="0"', 7, r"length"),
    ("unknown-model", r'<model type="threlfall"/>', '<model type="coulomb"/>', 13, r"type|coulomb"),
    ("unknown-friction-update", r'<model type="threlfall"/>', '<model type="threlfall" friction_update="midpoint"/>', 13, r"friction_update|midpoint"),
    ("no-load-function", r'<load><function [^>]*/></load>', '<load></load>', 10, r"function|load"),
]

text = open(base, encoding="utf-8").read()
failures = []
for name, find, repl, line, pattern in CASES:
    new, n = re.subn(find, repl, text, count=1)
    if n != 1:
        failures.append(f"{name}: /{find}/ not found in {base}")
        continue
    path = os.path.join(work, name + ".xml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    try:
        proc = subprocess.run([exe, "validate", path], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: hangs")
        continue
    err = [l for l in proc.stderr.splitlines() if l.strip()]
    ok = proc.returncode > 0 and len(err) == 1 and err[0].startswith(f"{path}:{line}: ") and re.search(pattern, err[0])
    if not ok:
        failures.append(f"{name}: exit {proc.returncode}, stderr {err[:3]} (expected '{path}:{line}: ' and /{pattern}/)")
    print(("ok  " if ok else "FAIL"), name, "|", err[0] if err else "")
print(f"{len(failures)} failed" if failures else "all bars2020 bad inputs refused correctly")
for f in failures:
    print("  ", f)
sys.exit(1 if failures else 0)
