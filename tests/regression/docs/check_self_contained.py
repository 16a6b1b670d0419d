"""The repository speaks for itself and the library keeps its seams: fails on text a reader of the repository cannot
follow or code that crosses a module boundary.

- "issue N" citations and paths outside the repository (../shared/) in any tracked text file;
- PetscFunctionBeginUser in the library (src/): it marks user code in PETSc's tracebacks;
- a module including another module's private header (src/<a>/*.c or *.h including "<b>/..impl.h", b != a);
- a public header (include/stickslip/) including a private one;
- a reference to a docs/*.md page that does not exist.
Mutation tried: an issue-number citation (the word issue, a space and a number) added to a comment of src/contact/friction.c, and #include "core/..." restored in
src/io/output.c with a coreimpl.h: both fail; reverted."""
import os
import re
import subprocess
import sys

src = os.environ.get("SK_SOURCE_DIR", ".")
try:
    files = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file outside build trees
    files = [os.path.relpath(os.path.join(d, f), src) for d, dirs, fs in os.walk(src) for f in fs
             if not os.path.relpath(d, src).split(os.sep)[0].startswith(("build", "."))]
text_ext = (".c", ".h", ".py", ".md", ".cmake", ".txt", ".xml", ".xsd", ".sh", ".geo")
bad = []
for f in files:
    if not f.endswith(text_ext) or f.startswith("tests/regression/docs/"):
        continue
    path = os.path.join(src, f)
    if not os.path.isfile(path):
        continue
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines()
    for n, line in enumerate(lines, 1):
        if re.search(r"\bissues? #?\d", line, re.I):
            bad.append(f"{f}:{n}: cites an issue number: {line.strip()[:100]}")
        if "../shared/" in line:
            bad.append(f"{f}:{n}: points outside the repository: {line.strip()[:100]}")
        if f.startswith("src/") and "PetscFunctionBeginUser" in line:
            bad.append(f"{f}:{n}: PetscFunctionBeginUser inside the library")
        for ref in re.findall(r"\bdocs/[\w/.-]*?\.md", line):
            if not os.path.isfile(os.path.join(src, ref)):
                bad.append(f"{f}:{n}: refers to {ref}, which does not exist")
        m = re.match(r'\s*#\s*include\s+"(\w+)/(\w+impl)\.h"', line)
        if m and f.startswith("src/") and f.split("/")[1] != m.group(1):
            bad.append(f"{f}:{n}: includes the private header {m.group(1)}/{m.group(2)}.h of module {m.group(1)}")
        if f.startswith("include/") and re.match(r'\s*#\s*include\s+"', line):
            bad.append(f"{f}:{n}: a public header includes a private one: {line.strip()}")
for b in bad:
    print("FAIL:", b)
print(f"{len(files)} tracked files read, {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
