#!/usr/bin/env python3
"""Hertz contact in 3D between two deformable bodies (inputs/explicit/contact_hertz3d.xml and its reduced mesh): an
elastic hemisphere of radius R pressed onto an elastic block, frictionless, quarter model with the symmetry planes
x = 0 and z = 0, the input's point distribution (DISTRIBUTION=mortar reruns the mortar one, which this case does not
pass: docs/validation/contact.md). For a load P Hertz's solution (Johnson, Contact Mechanics, 1985, section 4.2)
is

    p(r) = p0 sqrt(1 - r^2 / a^2),   a = (3 P R / (4 E*))^(1/3),   p0 = 3 P / (2 pi a^2),

with 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2 (both bodies elastic). P, a and p0 are read as postproc/contact_hertz3d.py
describes (P four times the pair's normal force, a and p0 fitted to the nodal pressures of the last field frame).

Checked:
  1. a and p0 each within 3 % of Hertz's values for the measured P (the required bound; measured values in
     tests/regression/contact/tests.cmake and docs/validation/contact.md);
  2. the test is at a/R about 0.1 (0.09 to 0.12);
  3. the symmetry planes: the nodes on x = 0 or z = 0 fit the ellipsoid as well as the others (rms misfit at most
     twice theirs): a weight or a reaction lost on a symmetry plane shows there alone;
  4. quasi-static: kinetic / internal energy at the end below 1e-3.

Usage: check_contact_hertz3d.py STICKSLIP INPUT.xml [MESH.msh [DISTRIBUTION]]   (MESH replaces the input's mesh,
DISTRIBUTION its pair's distribution)"""
import os
import re
import sys
import tempfile

from postproc.contact_hertz3d import R, measure
from tests.common.runs import stickslip_run

TOL = 0.03  # a and p0 against Hertz (the required bound)
KE_RATIO = 1e-3  # kinetic over internal energy at the end
SYM_RATIO = 2.0  # rms misfit of the symmetry-plane nodes over that of the others


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__)
    prog, inp = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if len(sys.argv) > 3:  # the same input on another mesh (and with another distribution)
            with open(inp) as f:
                text = re.sub(r'<mesh file="[^"]*"', '<mesh file="%s"' % os.path.abspath(sys.argv[3]), f.read())
            if len(sys.argv) > 4:
                text = re.sub(r'distribution="[^"]*"', 'distribution="%s"' % sys.argv[4], text)
            inp = os.path.join(tmp, os.path.basename(inp))
            with open(inp, "w") as f:
                f.write(text)
        out = os.path.join(tmp, "out")
        stickslip_run(prog, inp, out, "-quiet")
        m = measure(out)
    P, a, p0, a_h, p0_h, ke = (m[k] for k in ("P", "a", "p0", "a_hertz", "p0_hertz", "kinetic_ratio"))
    print("P = %.6g N, a/R = %.4f, %d contact nodes in the quarter (%d fitted), %d across 2a on z = 0"
          % (P, a_h / R, m["contact_nodes"], m["fitted"], m["across"]))
    print("a  = %.6g m, Hertz %.6g m: %+.4f" % (a, a_h, a / a_h - 1))
    print("p0 = %.6g Pa, Hertz %.6g Pa: %+.4f (nodal pressure at the axis: %+.4f)" % (p0, p0_h, p0 / p0_h - 1, m["p_centre"] / p0_h - 1))
    print("rms misfit / p0: %.4f on the %d symmetry-plane nodes, %.4f on the others" % (m["misfit_sym"], m["symmetry_nodes"], m["misfit_inner"]))
    print("kinetic / internal energy at the end: %.3g" % ke)
    fails = []
    if not abs(a / a_h - 1) <= TOL:
        fails.append("a off Hertz by %.4f > %g" % (a / a_h - 1, TOL))
    if not abs(p0 / p0_h - 1) <= TOL:
        fails.append("p0 off Hertz by %.4f > %g" % (p0 / p0_h - 1, TOL))
    if not 0.09 <= a_h / R <= 0.12:
        fails.append("a/R = %.4f is not about 0.1" % (a_h / R))
    if not m["misfit_sym"] <= SYM_RATIO * m["misfit_inner"]:
        fails.append("the symmetry-plane nodes misfit by %.4f, the others by %.4f" % (m["misfit_sym"], m["misfit_inner"]))
    if not ke < KE_RATIO:
        fails.append("kinetic / internal energy %.3g >= %g: not quasi-static" % (ke, KE_RATIO))
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("ok: contact radius and peak pressure within %g of Hertz" % TOL)


if __name__ == "__main__":
    main()
