#!/usr/bin/env python3
"""Hertz contact in 2D on inputs/explicit/contact_hertz.xml: a rigid cylinder (radius R) pressed into an elastic block,
plane strain, frictionless, right half with the symmetry line x = 0. For a load P per unit length (whole cylinder)
Hertz's plane-strain solution (Johnson, Contact Mechanics, 1985, section 4.3) is

    p(x) = p0 sqrt(1 - x^2 / a^2),   a = sqrt(4 P R / (pi E*)),   p0 = 2 P / (pi a) = sqrt(P E* / (pi R)),

with E* = E / (1 - nu^2) (the cylinder rigid). P, a and p0 are read as postproc/contact_hertz.py describes (P from the
pair's normal force, a and p0 fitted to the nodal pressures of the last field frame).

Checked:
  1. a and p0 each within 3 % of Hertz's values for the measured P (the required bound (docs/design.md); measured
     -0.9 % and -1.3 %, the same to 0.1 % on a mesh twice as fine: what is left is the penalty and the finite block,
     docs/validation/contact.md);
  2. the test is at a/R about 0.1 (0.09 to 0.12) and resolves the contact: at least 20 contact nodes across 2a
     (measured 27);
  3. quasi-static: kinetic / internal energy at the end below 1e-3 (measured 7e-5; the load ramp is four periods of
     the block's lowest mode, and twice as long a ramp changes a and p0 by less than 0.1 point: 0.07 and 0.04).

With "iga MIN_NODES" the input is one of meshes/make_iga_hertz.py (an elastic NURBS cylinder, 10 times as stiff as the
block, on a NURBS block): E* of both bodies, the block's points only, and at least MIN_NODES contact nodes across 2a
(the coarse CI mesh has 13; docs/validation/contact.md has the mesh study). With "cylinders MIN_NODES R2" the input is
one of meshes/make_iga_hertz_cylinders.py (the NURBS cylinder on a lower NURBS cylinder of radius R2 whose outer arc is
a slave patch face of degree 2): E* of both bodies, 1 / R* = 1 / R + 1 / R2, the face's pressure at its knots and span
middles (postproc.contact_hertz.arc_values), at least MIN_NODES such face points across 2a, a and p0 within TOL_CYL.

Usage: check_contact_hertz.py STICKSLIP INPUT.xml [iga MIN_NODES | cylinders MIN_NODES R2]"""
import os
import sys
import tempfile

import numpy as np

from postproc.contact_hertz import ES_IGA, measure
from postproc.results import Results
from tests.common.runs import stickslip_run

TOL = 0.03  # a and p0 against Hertz (the required bound)
# two cylinders, the slave a patch face of degree 2: the bound asked for this case (measured on the CI mesh and the mesh
# study in tests/regression/contact/tests.cmake and docs/validation/contact.md)
TOL_CYL = 0.02
MIN_NODES = 20  # contact nodes across 2a
KE_RATIO = 1e-3  # kinetic over internal energy at the end


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    iga = len(sys.argv) > 3 and sys.argv[3] in ("iga", "cylinders")
    r2 = float(sys.argv[5]) if iga and sys.argv[3] == "cylinders" else None
    tol = TOL_CYL if r2 else TOL
    min_nodes = int(sys.argv[4]) if iga else MIN_NODES
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        summary = stickslip_run(prog, inp, out, "-quiet").stdout
        m = measure(out, es=ES_IGA, block=1, r2=r2) if iga else measure(out)
        res = Results(os.path.join(out, "results.h5"))
        nodes = res.attrs("/explicit/contact_nodes/cylinder")
        stick = res.array("/explicit/contact_nodes/cylinder/stick_time")
    n, pt = m["contact_nodes"], m["pressure"]
    if n < 4 or np.any(pt[:n] <= 0):
        sys.exit("FAIL: the contact zone is not one interval from x = 0: %s" % pt[: n + 2])
    P, a, p0, a_h, p0_h, across, ke = (m[k] for k in ("P", "a", "p0", "a_hertz", "p0_hertz", "across", "kinetic_ratio"))
    print("P = %.6g N/m, a/R* = %.4f, %d contact nodes across 2a" % (P, a_h / m["r_star"], across))
    print("a  = %.6g m, Hertz %.6g m: %+.4f (on the reference positions: %+.4f)" % (a, a_h, a / a_h - 1, m["a_reference"] / a_h - 1))
    print("p0 = %.6g Pa, Hertz %.6g Pa: %+.4f (nodal pressure at x = 0: %+.4f)" % (p0, p0_h, p0 / p0_h - 1, m["p_centre"] / p0_h - 1))
    print("kinetic / internal energy at the end: %.3g" % ke)
    fails = []
    if abs(a / a_h - 1) > tol:
        fails.append("a off Hertz by %.4f > %g" % (a / a_h - 1, tol))
    if abs(p0 / p0_h - 1) > tol:
        fails.append("p0 off Hertz by %.4f > %g" % (p0 / p0_h - 1, tol))
    if not 0.09 <= a_h / m["r_star"] <= 0.12:
        fails.append("a/R* = %.4f is not about 0.1" % (a_h / m["r_star"]))
    if across < min_nodes:
        fails.append("only %d contact nodes across 2a (< %d)" % (across, min_nodes))
    if not ke < KE_RATIO:
        fails.append("kinetic / internal energy %.3g >= %g: not quasi-static" % (ke, KE_RATIO))
    # frictionless (mu = 0): no friction force, so no sticking; the run reports no sticking-time ratio (it reported 0.23
    # of the time in contact, counting the nodes that move slowly, before it knew)
    if nodes.get("frictionless") != 1 or "sticking_time_ratio" in nodes or np.any(stick != 0) or "none (frictionless)" not in summary:
        fails.append("the frictionless pair reports a sticking-time ratio (attributes %s, largest stick time %g s)" % (sorted(nodes), np.max(stick)))
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("ok: contact half-width and peak pressure within %g of Hertz; no sticking-time ratio (frictionless)" % tol)


if __name__ == "__main__":
    main()
