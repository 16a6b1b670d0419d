"""Implicit contact damping (docs/theory.md, "Stability of the contact forces in the explicit scheme") on
inputs/explicit/contact_damping.xml: a block pressed on a plane and pushed below break-away, LuGre with sigma1 = 1000
s/m per newton, so that at the body's critical step the damping of a contact node is far beyond what the explicit
treatment takes (2 dt c / m ~ 35 > 4).

  1. damping="explicit" at the critical step stops with the stability message (the damping limits it);
  2. damping="implicit" runs at the critical step and at a quarter of it, and damping="explicit" at
     dt = 1e-6 s (2 dt c / m ~ 0.08) gives the reference;
  3. the mean horizontal displacement of the block (pre-sliding, ~60 um) agrees with the reference to 3e-3 of its
     largest value at the critical step (measured 7.3e-4) and the error falls like dt (first order: the damping force
     is taken at the next half-step velocity instead of the previous one, a shift of dt times its rate; measured
     ratio 4.3 between dt and dt / 4, bound [2.5, 8], a second-order error would give 16);
  4. the energy balance (work of the contact force actually applied, f - dt c a_t) closes to 1e-6 of the external
     work at the critical step (central differences drift O(dt^2): measured 5.5e-7, and 3.4e-8 at dt / 4).

The same check runs on inputs/explicit/contact_damping_iga.xml, the block as a NURBS patch of degree 2 whose contact
points are control points with mortar-weighted velocities (the damping taken at each control point's own velocity);
MASS is the lumped mass of an inner contact point (kg/m: 1.25 for the Q4 block, half a cell; 0.833 for the patch,
rho x 0.05 m x h_y / 3, the integral of a bottom control point's basis function), used only to report 2 dt c / m.

usage: check_contact_damping.py PROGRAM INPUT [MASS]"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from contact_run import run_histories

SET, ENERGY = "/explicit/set/all", "/explicit/energy"


def variant(tmp, inp, name, damping, dt):
    """A copy of INP with the contact's damping and the time step set (dt None: safety 0.9 of the critical step)."""
    text = open(inp).read()
    text, n = re.subn(r'penalty="1e7"( damping="[a-z]+")?>', 'penalty="1e7" damping="%s">' % damping, text)
    if n != 1:
        sys.exit("FAIL: no contact element with penalty 1e7 in " + inp)
    if dt is not None:
        text = text.replace('safety="0.9"', 'dt="%r"' % dt)
    path = os.path.join(tmp, name + ".xml")
    open(path, "w").write(text)
    return path


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    mass = float(sys.argv[3]) if len(sys.argv) > 3 else 1000 * 0.05 * 0.05 / 2
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        # 2. implicit at the automatic step (read back from its dt) and at a quarter of it, explicit reference at 1e-6 s
        crit = run_histories(prog, inp, [SET, ENERGY])
        dt = float(np.diff(crit[ENERGY]["time"][:2])[0]) / 10  # histories every 10 steps
        # 1. the explicit damping at that step (given: the automatic step would include the damping at the estimated
        #    normal load): the run-time check stops it
        r = subprocess.run([prog, "run", variant(tmp, inp, "explicit_crit", "explicit", dt), "-o", os.path.join(tmp, "o"), "-quiet"],
                           capture_output=True, text=True)
        if r.returncode == 0 or not re.search(r"Contact became unstable.*taken explicitly.*needs dt <=", r.stdout + r.stderr):
            fails.append("damping=explicit at the critical step did not stop with the stability message:\n" + r.stdout + r.stderr)
        quarter = run_histories(prog, variant(tmp, inp, "implicit_quarter", "implicit", dt / 4), [SET, ENERGY])
        ref = run_histories(prog, variant(tmp, inp, "explicit_ref", "explicit", 1e-6), [SET])
    tref, uref = ref[SET]["time"], ref[SET]["mean_u_x"]
    scale = np.max(np.abs(uref))
    err = []
    for h in (crit, quarter):
        u = np.interp(tref, h[SET]["time"], h[SET]["mean_u_x"])
        err.append(np.max(np.abs(u - uref)) / scale)
    # the damping the explicit scheme would have to take at the critical step: inner contact point, N_a = weight / 8,
    # m_a = MASS
    c_over_m = (1000 + 0.4) * (1000 * 0.4 * 0.1 * 10 / 8) / mass
    print(f"critical dt {dt:.4g} s: 2 dt c / m = {2 * dt * c_over_m:.3g}; mean u_x error vs explicit at 1e-6 s: {err[0]:.3g} "
          f"(dt), {err[1]:.3g} (dt / 4), ratio {err[0] / err[1]:.3g}")
    if 2 * dt * c_over_m < 20:
        fails.append(f"the case is not stiff enough: 2 dt c / m = {2 * dt * c_over_m:.3g}")
    if err[0] > 3e-3:
        fails.append(f"displacement error at the critical step {err[0]:.3g} > 3e-3")
    if not 2.5 <= err[0] / err[1] <= 8:
        fails.append(f"error ratio dt : dt / 4 = {err[0] / err[1]:.3g}, not first order ([2.5, 8])")
    for name, h in (("dt", crit), ("dt / 4", quarter)):
        e = h[ENERGY]
        drift = np.max(np.abs(e["balance"] - e["balance"][0])) / np.max(np.abs(e["external_work"]))
        print(f"energy balance drift ({name}): {drift:.3g} of the external work")
        if drift > 1e-6:
            fails.append(f"energy balance drift {drift:.3g} > 1e-6 ({name})")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("ok")


if __name__ == "__main__":
    main()
