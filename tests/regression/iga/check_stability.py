#!/usr/bin/env python3
"""The critical time step the explicit solver reports for a NURBS patch is sharp: the run at 0.99 of it completes with
the energy kept (the solver's own check, 5 % of the energy in play), and the run at 1.05 of it (testing option
-explicit_unsafe_safety) is stopped by the energy check with its message. Usage: check_stability.py STICKSLIP INPUT.xml"""
import re
import sys
import tempfile

from tests.common.runs import stickslip_run


def main():
    prog, inp = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        p = stickslip_run(prog, inp, tmp + "/a", "-explicit_unsafe_safety", "0.99", check=False)
        out = p.log
        print(out)
        if p.returncode:
            sys.exit("FAIL: the run at 0.99 of the critical step did not complete")
        crit = float(re.search(r"critical dt\s+(\S+) s \(power iteration\)", out).group(1))
        dt = float(re.search(r"of dt = (\S+) s", out).group(1))
        if not 0.98 * crit <= dt <= 0.99 * crit:
            sys.exit(f"FAIL: dt {dt} is not 0.98-0.99 of the critical {crit}")
        p = stickslip_run(prog, inp, tmp + "/b", "-explicit_unsafe_safety", "1.05", check=False)
        print(p.log)
        if p.returncode == 0 or not re.search(r"Energy blow-up at t = .* Reduce the time step", p.log):
            sys.exit("FAIL: the run at 1.05 of the critical step was not stopped by the energy check")
    print("ok")


if __name__ == "__main__":
    main()
