"""The rod pair against the explicit contact FEM (docs/validation/crossval.md) on a shortened horizon: runs the
mode-matching solver on a rodpair input and the crossval FEM input (two strips in frictional contact) over the same
END seconds of rod-pair time, and checks the relative L2 difference of u1 at the four sections z1 = 0, L1/3, 2L1/3, L1.

usage: check_crossval.py PROGRAM FEM_INPUT ROD_INPUT END TOLERANCE [MU]

With MU the FEM runs with that friction coefficient instead (mu_s = mu_k) and the check must FAIL, i.e. the largest
difference must exceed TOLERANCE: the selftest that the comparison sees a friction force off by the given factor."""
import os
import sys
import tempfile

from postproc.crossval import compare, preload_time, variant
from tests.common.runs import stickslip_run


def main():
    prog, fem_in, rod_in, end, tol = sys.argv[1:6]
    mu = float(sys.argv[6]) if len(sys.argv) > 6 else None
    end, tol = float(end), float(tol)
    tmp = tempfile.mkdtemp()
    rod = os.path.join(tmp, "rod")
    stickslip_run(prog, rod_in, rod, "-rodpair_solver", "mmm", "-rodpair_end", f"{end:g}")
    with open(fem_in) as f:
        t0 = preload_time(f.read())
    inp = variant(fem_in, tmp, "fem", end=t0 + end, mu=mu)
    fem = os.path.join(tmp, "fem")
    stickslip_run(prog, inp, fem)
    l2 = compare(os.path.join(fem, "results.h5"), os.path.join(rod, "results.h5"), "-", "crossval")
    if mu is None and l2.max() > tol:
        raise SystemExit(f"FAIL: FEM and mode matching differ by {l2.max():.3g} (relative L2, worst section) > {tol:g}")
    if mu is not None and l2.max() <= tol:
        raise SystemExit(f"FAIL (selftest): with mu = {mu:g} the difference {l2.max():.3g} stays within {tol:g}")
    print("selftest: the changed friction is caught" if mu is not None else "pass")


if __name__ == "__main__":
    main()
