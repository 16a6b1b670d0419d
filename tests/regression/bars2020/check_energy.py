"""The energy balance closes: max over the run of |E_kin + E_strain + D_friction - W_load| / max |W_load|
below 1e-3 (the acceptance bound, docs/design.md). W_load is integrated independently of the update (Gauss points inside each step with the
closed-form intra-step velocity), D is the work of the step-constant friction forces; round-off gives ~1e-13.
Also the dissipation must not be negative at the end (friction removes energy). Usage: check_energy.py RUN..."""
import sys
from postproc import bars2020 as B

bad = []
for run in sys.argv[1:]:
    r = B.load(run)
    res = B.energy_residual(r)
    d = r["energy"]["dissipation"][-1]
    w = r["energy"]["work_load"][-1]
    print("%s: energy residual %.2e, dissipation / work %.4f" % (run, res, d / w))
    if not res < 1e-3 or d < -1e-9 * abs(w):
        bad.append(run)
print("FAILED: " + ", ".join(bad) if bad else "energy balances close")
sys.exit(1 if bad else 0)
