"""Shared by the contact regression checks: runs the program on an input in a temporary directory and returns the
histories the checks read, as plain numpy arrays."""
import os
import tempfile

import numpy as np

from postproc.results import Results
from tests.common.runs import stickslip_run


def run_histories(prog, inp, paths):
    """Runs `PROG run INP` and returns {path: {column: array}} for each history path in PATHS."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        stickslip_run(prog, inp, out)
        r = Results(os.path.join(out, "results.h5"))
        return {p: {k: np.asarray(v) for k, v in r.history(p).asdict().items()} for p in paths}
