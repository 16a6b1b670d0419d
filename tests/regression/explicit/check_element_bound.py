#!/usr/bin/env python3
"""The bound of the critical time step (-explicit_critical_step bound) is the tighter of two proofs, Gershgorin's row
bound and, on meshes with Bezier or quadratic cells, the element eigenvalue bound of Irons and Treharne (docs/theory.md,
"Critical time step"), and there the element bound decides. Checked against the power iteration of the same input at
its tight tolerance (the input's options; the converged omega_max up to the 1e-10 of the stiffnesses' differences):
- the bound is a proof: its step is not above the power iteration's (to 1e-9, the two stiffnesses' differences);
- it is the element bound, and sharp: at least MIN_RATIO of the power iteration's step (measured: 0.932 on the p = 3
  plate of inputs/explicit/iga_plate_stability.xml, where the row bound alone gives 0.710; 0.894 on the H27 cube of
  element_bound_h27.xml, row bound 0.514);
- a run at 0.99 of it completes with the energy kept (the solver's energy check).
Usage: check_element_bound.py STICKSLIP INPUT.xml MIN_RATIO"""
import re
import sys
import tempfile

from tests.common.runs import stickslip_run


def critical(log, how):
    m = re.search(r"critical dt\s+(\S+) s \(" + how + r"\)", log)
    if not m:
        sys.exit(f"FAIL: no critical dt by the {how} in the summary\n{log}")
    return float(m.group(1))


def main():
    prog, inp, min_ratio = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        p = stickslip_run(prog, inp, tmp + "/power", check=False)
        if p.returncode:
            sys.exit("FAIL: the power iteration's run failed\n" + p.log)
        power = critical(p.log, "power iteration")
        p = stickslip_run(prog, inp, tmp + "/bound", "-explicit_critical_step", "bound", "-explicit_unsafe_safety", "0.99", check=False)
        print(p.log)
        if p.returncode:
            sys.exit("FAIL: the run at 0.99 of the bound's step did not complete")
        bound = critical(p.log, "element bound")
        dt = float(re.search(r"of dt = (\S+) s", p.log).group(1))
        print(f"power iteration {power:.6g} s, element bound {bound:.6g} s (ratio {bound / power:.4f}), dt {dt:.6g} s")
        if bound > power * (1 + 1e-9):
            sys.exit(f"FAIL: the bound's step {bound} is above the power iteration's {power}: not a bound")
        if bound < min_ratio * power:
            sys.exit(f"FAIL: the bound's step {bound} is below {min_ratio} of the power iteration's {power}")
        if not 0.98 * bound <= dt <= 0.99 * bound:
            sys.exit(f"FAIL: dt {dt} is not 0.98-0.99 of the bound {bound}")
    print("ok")


if __name__ == "__main__":
    main()
