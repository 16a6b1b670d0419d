"""Reads back what test_output wrote, through postproc's reader and raw h5py, and checks the documented layout.

Also: a writer killed with SIGKILL leaves a readable file holding the rows flushed so far, and an existing
output directory is refused without -force. Exact comparisons: every value is an integer below 2^53."""
import os
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

from postproc.results import Results

exe = sys.argv[1]
base = "test_output_check"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# 1. A complete file with the documented layout.
subprocess.run(["rm", "-rf", base], check=True)
subprocess.run([exe, base + "/full"], check=True)
path = base + "/full/results.h5"
with h5py.File(path, "r") as f:
    meta = f["meta"]
    check(meta.attrs["version"] != "", "meta/version is set")
    for key in ("date", "host", "petsc_version", "mpi_ranks"):
        check(key in meta.attrs, f"meta attribute {key}")
    check("options" in meta, "meta/options dataset")
    h = f["test/history"]
    check(h.shape == (100, 3), f"history shape {h.shape}")
    check(list(h.attrs["columns"]) == ["k", "k2", "minus_k"], "history column names")
    check(h.attrs["note"] == "unit check", "string attribute")
    k = np.arange(100.0)
    check(np.array_equal(h[:], np.stack([k, k * k, -k], axis=1)), "history values")
    w = f["test/wide"]
    check(w.shape == (100, 1000), f"wide shape {w.shape}")
    check(np.array_equal(w[:], 1000.0 * k[:, None] + np.arange(1000.0)[None, :]), "wide history values (flush interval 7)")
    check(np.array_equal(f["test/array"][:], np.arange(6).reshape(2, 3) + 0.5), "real array")
    check(np.array_equal(f["test/ints"][:], [1, -2, 3, 4]), "int array")
    check(abs(f["test"].attrs["pi"] - np.pi) == 0, "real attribute")
    check(f["test"].attrs["answer"] == 42, "int attribute")

r = Results(path)
check(np.array_equal(r.history("test/history")["k2"], k * k), "postproc.results column access")

# 2. An existing output directory is refused without -force, and nothing in it changes.
before = os.path.getmtime(path)
proc = subprocess.run([exe, base + "/full", "-force", "0"], capture_output=True, text=True)
check(proc.returncode != 0, "existing results refused without -force")
check("use -force" in proc.stderr, "refusal message names -force: " + proc.stderr.strip()[-200:])
check(os.path.getmtime(path) == before, "refused run left results.h5 untouched")

# 3. SIGKILL mid-run leaves a readable file with the rows written so far.
proc = subprocess.Popen([exe, base + "/killed", "-hang"], stdout=subprocess.PIPE, text=True)
proc.stdout.readline()  # "flushed 20 rows": the writer is mid-way (start-up under sanitizers can take seconds)
time.sleep(0.2)
proc.send_signal(signal.SIGKILL)
proc.wait()
with h5py.File(base + "/killed/results.h5", "r") as f:
    h = f["test/history"][:]
    n = h.shape[0]
    check(n >= 20, f"killed run kept the rows flushed before the kill (found {n}, expected >= 20)")
    kk = np.arange(float(n))
    check(np.array_equal(h, np.stack([kk, kk * kk, -kk], axis=1)), "killed run rows are intact")

print("check_output:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
