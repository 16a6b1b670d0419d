"""Runs inputs/explicit/contact_slide.xml (a block sliding on a rigid plane, Coulomb mu = 0.3) and checks its contact
history /explicit/contact/floor and the energy balance with the contact work column.

usage: check_contact_slide.py PROGRAM INPUT"""
import os
import subprocess
import sys
import tempfile

import numpy as np

from postproc.results import Results


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([prog, "run", inp], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        r = Results(os.path.join(tmp, "out", "contact_slide", "results.h5"))
        c = r.history("/explicit/contact/floor")
        e = r.history("/explicit/energy")
        t, n, fx, fy = (np.asarray(c[k]) for k in ("time", "normal_force", "friction_x", "friction_y"))
        cof, frac, diss = (np.asarray(c[k]) for k in ("cof", "contact_fraction", "dissipation"))
        bal, wext, wc = (np.asarray(e[k]) for k in ("balance", "external_work", "work_floor"))
    fails = []
    # mean normal force = weight per unit thickness 1000 * 0.4 * 0.1 * 10 = 400 N/m (vertical momentum: the mass centre
    # only oscillates about rest, started from the unloaded shape); the time average over 0.2 s of the penalty bounce
    # measured 1.5 % off (the end phase of the oscillation): bound 3 %
    nmean = np.trapz(n, t) / (t[-1] - t[0])
    if abs(nmean - 400.0) > 12.0:
        fails.append(f"mean normal force {nmean:.6g} N/m, expected 400 +- 12")
    # sliding in +x everywhere it touches: the friction opposes it at exactly mu_k N (return mapping; round-off only)
    on = frac == 1.0
    if not on.any() or np.max(np.abs(cof[on] - 0.3)) > 1e-9 or np.any(fx[on] > 0) or np.any(np.abs(fy) > 0):
        fails.append(f"COF while sliding off mu_k = 0.3: {np.max(np.abs(cof[on] - 0.3)) if on.any() else 'never in full contact'}")
    # energy balance with the contact work column: central differences drift O(dt^2); the acceptance bound is 1e-3 of the work in play
    drift = np.max(np.abs(bal - bal[0])) / np.max(np.abs(wext))
    if drift > 1e-3:
        fails.append(f"energy balance drift {drift:.3g} of the external work > 1e-3")
    # dissipation grows monotonically and makes up the contact work but for the penalty energy (measured 0.34 %: bound 1 %)
    if np.any(np.diff(diss) < -1e-12) or abs(wc[-1] + diss[-1]) > 1e-2 * diss[-1]:
        fails.append(f"dissipation {diss[-1]:.6g} J vs contact work {wc[-1]:.6g} J")
    # the dissipation independently of the balance (which holds for any friction force): sliding everywhere, the
    # friction is mu N and the mass centre moves at v(t) = 0.1 + (5 - 0.3 * 10) t, so the dissipation is
    # int mu N v dt with N the recorded normal force (trapezoid over the 10-step samples). Measured 5.8e-5 relative at
    # the end (the contact layer vibrates about the mass centre); bound 1e-3. Mutation tried: the pair's dissipation
    # increment 1 % too large (src/contact/contact_pair.c): fails (1e-2), while the balance still closed; reverted.
    rate = 0.3 * n * (0.1 + 2.0 * t)
    dref = np.sum(0.5 * (rate[1:] + rate[:-1]) * np.diff(t))
    if abs(diss[-1] - diss[0] - dref) > 1e-3 * dref:
        fails.append(f"dissipation {diss[-1] - diss[0]:.6g} J vs int mu N v dt = {dref:.6g} J (closed-form v)")
    print(f"mean N {nmean:.6g} N/m, max |COF - 0.3| sliding {np.max(np.abs(cof[on] - 0.3)):.3g}, energy drift {drift:.3g}, "
          f"dissipation {diss[-1]:.6g} J, contact work {wc[-1]:.6g} J, int mu N v dt {dref:.6g} J")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


if __name__ == "__main__":
    main()
