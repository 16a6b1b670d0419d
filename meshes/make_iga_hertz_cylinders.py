"""Writes the input of the 2D Hertz test between two NURBS cylinders (docs/validation/contact.md): the upper elastic
cylinder of meshes/make_iga_hertz.py (radius 0.05 m, centre (0, 0.05), the exact quarter annulus from r = 0.02 m below
its centre, degree 2, RADIAL x ANGULAR knot spans; its outer arc the NURBS master) pressed by a lower elastic cylinder
of radius R2 (centre (0, -R2)), the exact quarter annulus from r = R2 - 0.05 m (at least 0.02 m) above its centre, of
degree 2 and C0 at its
knots: per knot span of angle d the end control points on the arc and the middle one at r / cos(d / 2) with weight
cos(d / 2). Its spans are graded from the contact point as the block of make_iga_hertz.py (HF along the arc and in
depth within 8 mm, growing to 1 cm at 5 cm). Its outer arc is the slave side: a curved patch face of degree 2 whose
middle control points lie off the face (weighted gaps; the reaction of each Gauss point at its projection onto the
master; docs/theory.md, "NURBS patch faces as deformable masters").

    python3 meshes/make_iga_hertz_cylinders.py HF RADIAL ANGULAR R2 LIFT > OUT.xml

LIFT: the upward displacement of the lower cylinder's inner arc (m), with the C1 smoothstep of make_iga_hertz.py."""
import sys

import numpy as np

from make_iga_hertz import RI, graded, model


def main():
    hf, nr, na, r2, lift = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    # radial knots of the lower cylinder, from the inner arc out (depth graded from the outer arc)
    ri2 = max(RI, r2 - 0.05)
    depth = graded(hf, d2=min(5e-2, 0.6 * (r2 - ri2)), length=r2 - ri2)
    radii = r2 - depth[::-1]
    # angular spans from the right point (angle 0) to the top (pi / 2), graded in arc length from the top
    s = graded(hf, length=r2 * np.pi / 2)
    theta = np.sort(np.pi / 2 - s / r2)
    theta[0] = 0.0
    # the angular control points (angle, radius factor, weight) of a C0 quadratic arc
    ang = [(theta[0], 1.0, 1.0)]
    for t0, t1 in zip(theta[:-1], theta[1:]):
        h = 0.5 * (t1 - t0)
        ang += [(t0 + h, 1 / np.cos(h), np.cos(h)), (t1, 1.0, 1.0)]
    fr = lambda v: " ".join(f"{x:.17g}" for x in v)
    kr = "0 " + fr(np.linspace(0, 1, len(radii))) + " 1"  # degree 1, elevated by the patch's degree
    ka = "0 0 0 " + fr(np.repeat(theta[1:-1] / theta[-1], 2)) + " 1 1 1"
    # first direction radial (fastest), second angular: det(dX/dxi) > 0 (radius out, angle counterclockwise)
    cps = "  ".join(f"{r * f * np.cos(t):.17g} {-r2 + r * f * np.sin(t):.17g} {w:.17g}" for t, f, w in ang for r in radii)
    lower = f"""    <patch name="lower" degree="2">
      <knots degree="1" values="{kr}"/>
      <knots degree="2" values="{ka}"/>
      <controlpoints values="{cps}"/>
    </patch>"""
    print(f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- written by meshes/make_iga_hertz_cylinders.py {hf:g} {nr} {na} {r2:g} {lift:g}. Hertz contact in 2D between two
     NURBS cylinders (module contact, docs/validation/contact.md): the upper elastic cylinder of radius 0.05 m (exact
     quarter annulus below its centre (0, 0.05), degree 2, {nr} x {na} knot spans, E = 1e8 Pa, rho = 1e4 kg/m^3; held at
     its inner arc r = 0.02 m; its outer arc the deformable NURBS master) and the lower elastic cylinder of radius
     {r2:g} m (exact quarter annulus from r = {ri2:g} m above its centre (0, -{r2:g}), degree 2 and C0 at its knots, {len(radii) - 1} x
     {len(theta) - 1} spans of {hf:g} m near the contact; E = 1e7 Pa, nu = 0.3, rho = 1000 kg/m^3, plane strain; its
     outer arc the slave side, a curved patch face of degree 2), right halves with the symmetry line x = 0. The lower
     cylinder's inner arc is pushed up by {lift:g} m with a C1 smoothstep over 0.026 s. Frictionless.
     tests/regression/contact/check_contact_hertz.py compares a and p0 with Hertz for E* of both bodies and
     1 / R* = 1 / 0.05 + 1 / {r2:g}. -->
{model("Hertz: two elastic NURBS cylinders (plane strain, half model)", "lower", lower, nr, na, "lower_top",
        "lower_left", f"{lift:g}")}""")


if __name__ == "__main__":
    main()
