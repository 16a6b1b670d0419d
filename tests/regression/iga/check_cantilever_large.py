"""Large-deflection Neo-Hookean cantilever (inputs/explicit/iga_cantilever_large.xml: 1 m x 0.1 m, plane strain,
gravity 12 m/s^2 applied suddenly, the tip swings down to 32 % of the length) with NURBS patches of degree 2 and 3
(40 x 4 elements each) against the Q9 reference cantilever_large_q9.xml (160 x 16 elements), whose tip history is
stored in cantilever_large_q9.csv (made once, about 8 minutes: see --make-reference).

Tolerance, from the reference's own mesh convergence (tip displacement history, max over t in [0, 0.35] s and both
components; Q9 with 40 x 4, 80 x 8 and 160 x 16 elements):
  |Q9(40x4) - Q9(160x16)| = 3.47e-4 m, |Q9(80x8) - Q9(160x16)| = 9.27e-5 m: ratio 3.7, second order, so the
  reference is within 9.27e-5 / 3 = 3.1e-5 m of the converged history (Richardson).
  The patches have knot spans of the size of the Q9(40x4) elements; they must be as accurate as those within a
  factor 1.5: tol = 1.5 x 3.47e-4 + 3.1e-5 = 5.5e-4 m (0.17 % of the 0.32 m deflection). Measured: p = 2 4.8e-4 m,
  p = 3 4.1e-4 m (the row-sum lumped mass keeps IGA second order in time histories whatever p: from 20 x 2 to 40 x 4
  elements the errors fall by 3.0 and 3.4). It fails for p = 2 or 3 on 20 x 2 elements (1.4e-3 m) and for a linear
  elastic material instead of Neo-Hookean (6.1e-2 m: small strains, no axial shortening of the tip).
Also checked: the tip's largest deflection is at least 30 % of the length (the test is in the large-deformation range).
With --reduced the patches integrate their force with the reduced rule (<block quadrature="reduced">, p Gauss points
per direction), under the same tolerance: measured 4.2e-4 m (p = 2) and 4.1e-4 m (p = 3), as accurate as the full rule.

usage: check_cantilever_large.py PROGRAM INPUT REFERENCE.csv [--reduced]
       check_cantilever_large.py --make-reference OUTDIR REFERENCE.csv   (OUTDIR: a run of cantilever_large_q9.xml)"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from postproc.results import Results

TOL = 1.5 * 3.47e-4 + 9.27e-5 / 3  # m, see above


def tip(out):
    h = Results(out).history("explicit/watch/tip")
    return np.array(h["time"]), np.array(h["u_x"]), np.array(h["u_y"])


def main():
    if sys.argv[1] == "--make-reference":
        t, ux, uy = tip(sys.argv[2])
        keep = np.r_[np.arange(0, len(t) - 1, 10), len(t) - 1]  # every 10th row (about 1 ms) and the last
        np.savetxt(sys.argv[3], np.c_[t[keep], ux[keep], uy[keep]], delimiter=",", fmt="%.12g",
                   header="tip of inputs/explicit/cantilever_large_q9.xml (Q9 160 x 16): time (s), u_x (m), u_y (m)")
        return 0
    prog, inp, ref_csv = sys.argv[1:4]
    ref = np.loadtxt(ref_csv, delimiter=",")
    text = open(inp).read()
    if "--reduced" in sys.argv[4:]:
        text, n = re.subn(r'(<block [^>]*?)\s*/>', r'\1 quadrature="reduced"/>', text)
        assert n == 1, "the input must have one <block>"
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in (2, 3):
            path = os.path.join(tmp, f"p{p}.xml")
            open(path, "w").write(re.sub(r'degree="2"', f'degree="{p}"', text))
            out = os.path.join(tmp, f"p{p}")
            subprocess.run([prog, "run", path, "-o", out, "-quiet"], check=True, stdout=subprocess.DEVNULL)
            t, ux, uy = tip(out)
            # the reference is stored every ~1 ms: linear interpolation errs by dt^2/8 |u''| < 1e-5 m here
            err = max(np.max(np.abs(ux - np.interp(t, ref[:, 0], ref[:, 1]))), np.max(np.abs(uy - np.interp(t, ref[:, 0], ref[:, 2]))))
            peak = -np.min(uy)
            print(f"p = {p}: tip deflection up to {peak:.4f} m at t = {t[np.argmin(uy)]:.4f} s (reference {-ref[:, 2].min():.4f} m), "
                  f"largest difference from the Q9 reference {err:.3g} m (tolerance {TOL:.3g} m)")
            if err > TOL or abs(t[-1] - ref[-1, 0]) > 1e-12:
                fails.append(f"p = {p}: tip history {err:.3g} m from the reference, tolerance {TOL:.3g} m")
            if peak < 0.3:
                fails.append(f"p = {p}: the tip deflects only {peak:.3g} m, not a large deformation")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
