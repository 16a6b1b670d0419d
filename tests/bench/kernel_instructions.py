#!/usr/bin/env python3
"""Instructions per element of the internal-force kernel, counted by valgrind (callgrind): a figure that does not
depend on the load of the machine, unlike the wall times of explicit_kernel.py. Prints, as its last line,
  RESULT kernel_instructions h8_instructions_per_element=... q4_instructions_per_element=...
  counted inside SKFEMInternalForce() (and what it calls: geometry, material) over -reps calls on H8 and Q4 blocks of
  tests/bench/explicit_kernel_micro, divided by reps x elements.
valgrind does not run AVX-512 code: build the micro benchmark for AVX2 (or less), e.g.
  cmake -S . -B build-avx2 -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=-march=x86-64-v3 -ffp-contract=fast"
  cmake --build build-avx2 --target explicit_kernel_micro
The counts of such a build track the kernel's code (inlining, vectorisation) but are not those of the tuned build.

Usage: kernel_instructions.py EXPLICIT_KERNEL_MICRO [--reps R]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def count(micro, kind, cells, reps, tmp):
    """Instructions inside SKFEMInternalForce per element for a block of KIND ('h8' or 'q4') of CELLS per side."""
    out = os.path.join(tmp, "callgrind.%s.out" % kind)
    other = {"h8": "-q4_cells", "q4": "-h8_cells"}[kind]
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
           "--toggle-collect=SKFEMInternalForce", micro, "-%s_cells" % kind, str(cells), other, "1", "-reps", str(reps),
           "-peak", "0"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("FAIL: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    m = re.search(r"# %s: (\d+) elements" % kind.upper(), r.stdout)
    nelem = int(m.group(1))
    m1 = re.search(r"# %s: (\d+) elements" % ("Q4" if kind == "h8" else "H8"), r.stdout)
    nother = int(m1.group(1))
    total = None
    for line in open(out):
        if line.startswith("totals:") or line.startswith("summary:"):
            total = int(line.split()[1])
    # the other block (one cell) is counted too: a few thousand instructions per call, below 0.1 % here
    return total / (reps * (nelem + nother))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("micro")
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        h8 = count(a.micro, "h8", 20, a.reps, tmp)
        q4 = count(a.micro, "q4", 90, a.reps, tmp)
    print("RESULT kernel_instructions h8_instructions_per_element=%.1f q4_instructions_per_element=%.1f" % (h8, q4))


if __name__ == "__main__":
    main()
