"""Contact patch test of a NURBS slave face of degree 2 against a deformable NURBS master
(tests/regression/contact/patch_nurbs_slave.xml: block a of degree 2 on block b, nu = 0, a uniform pressure of 1e5 Pa
applied at once on the top of a, b held vertically at its base, Coulomb friction; docs/theory.md, "NURBS patch faces as
deformable masters"), with the master of degree 2 and of degree 1. The exact solution is one-dimensional (plane waves
in y): the same gap at every point of the flat interface, so equal weighted gaps g_A and the same pressure N_A / A_A
at every slave control point; the master takes at each Gauss point of the slave face the opposite of its traction.
Reads the contact pressure of the slave control points (VTK point data contact_pressure on y = 0.5) and the Cauchy
stress of the elements (cell data cauchy_stress) at every output time with the whole interface in contact, and each
run's energy balance. Checked:

  1. the mortar distribution (the input's): each slave face element is integrated in parts between the master's
     knots, where the master's shares are polynomials, so the uniform state holds to round-off with matching knots (a
     of 7 x 2 spans on b of 7 x 3; measured 8.5e-13 of the applied pressure) and with non-matching knots (a of 5 x 2
     spans, the input; measured 5.2e-13, masters of degree 2 and 1): pressure, stress over a layer and tangential
     traction within TOL, the required bound (docs/design.md) of the Lagrange patch test;
  2. the point distribution (distribution="point", non-matching knots): the slave's Gauss points integrate the master's
     shares across its knots only approximately, so the master's loads are not quite those of a uniform traction:
     measured spreads 6.0e-3 (pressure), 1.3e-3 (stress) and tangential tractions 2.5e-3 of the applied pressure (the
     master of degree 2); bound TOL_POINT, the measured value with a margin of 1.6 (this run shows the checks fail when
     the state is not uniform); with matching knots it is exact as well (8.5e-13);
  3. two passes (passes="2": the master side is then the slave of the second pass, a slave patch face of degree 2 as
     well, each pass with half the penalty): both sides' points carry each pass's pressure, shown twice (the interface
     pressure), and the same bounds hold (measured with the mortar distribution 9.1e-13 matching, 6.8e-13 non-matching);
  4. energy: every run's balance (kinetic + internal + stored contact energy + friction dissipation - external work)
     drifts by less than ENERGY of the largest energy, also with a tangential load that makes block a slip (traction
     5e4 Pa along x, b held at its base; measured drifts 7.5e-6 to 1.8e-5, the load applied at once rings and the
     balance of the scheme is second order in dt), and the slipping run dissipates by friction.

usage: check_contact_patch_nurbs_slave.py PROGRAM INPUT"""
import os
import re
import subprocess
import sys
import tempfile

from two_bodies import check_uniformity, finish, interface_uniformity

TOL = 1e-6  # the mortar distribution, and the point distribution with matching knots: round-off (measured up to 9.1e-13),
# the required bound of the Lagrange patch test
TOL_POINT = 1e-2  # the point distribution, non-matching knots: the Gauss-point integration of the master's shares (6.0e-3)
ENERGY = 1e-4  # energy drift relative to the largest energy (measured 7.5e-6 to 1.8e-5)
PRESSURE = 1e5  # Pa, the load on the top of block a


def run(prog, inp, master_degree, slave_spans=5, slip=False, passes=1, distribution="mortar"):
    """Largest relative spread of the interface pressure and of the stress over a layer of elements over the output
    times with contact, the largest tangential traction relative to the pressure there, the count of those outputs, the
    energy drift of the run relative to its largest energy and its friction dissipation (J)."""
    with tempfile.TemporaryDirectory() as tmp:
        text = open(inp).read().replace('<patch name="b" degree="2"', f'<patch name="b" degree="{master_degree}"')
        text = text.replace('refine="5 2"', f'refine="{slave_spans} 2"')
        text = text.replace('distribution="mortar"', f'distribution="{distribution}"' + (' passes="2"' if passes == 2 else ""))
        if slip:
            text = text.replace('value="0 -1e5"', 'value="5e4 -1e5"').replace('component="y"/>', 'component="all"/>')
        path = os.path.join(tmp, "in.xml")
        with open(path, "w") as f:
            f.write(text)
        summary = subprocess.run([prog, "run", path, "-o", tmp], check=True, stdout=subprocess.PIPE, text=True).stdout
        drift = abs(float(re.search(r"drifted by (\S+) of the largest energy", summary).group(1)))
        dissipated = float(re.search(r"dissipated by friction (\S+) J", summary).group(1))
        worst, tang, n, stress = interface_uniformity(tmp, 1, 0.5, 2 * slave_spans + 1 + (passes - 1) * (2 * 7 + 1), PRESSURE)
        return worst, tang, n, stress, drift, dissipated


def main():
    prog, inp = sys.argv[1:3]
    fails, lines = [], []
    for spans, dist, tol in ((7, "mortar", TOL), (5, "mortar", TOL), (7, "point", TOL), (5, "point", TOL_POINT)):
        for deg, passes in ((2, 1), (1, 1), (2, 2)) if dist == "mortar" else ((2, 1),):
            worst, tang, n, stress, drift, _ = run(prog, inp, deg, spans, passes=passes, distribution=dist)
            what = f"{dist}, {'matching' if spans == 7 else 'non-matching'} knots, master of degree {deg}" + (", two passes" if passes == 2 else "")
            check_uniformity(what, worst, tang, n, stress, drift, tol, ENERGY, fails, lines)
    _, _, _, _, drift, dissipated = run(prog, inp, 2, slip=True)
    lines.append(f"slipping: energy drift {drift:.2g}, friction dissipation {dissipated:.3g} J")
    if drift > ENERGY or not dissipated > 0:
        fails.append(f"slipping: energy drift {drift:.3g} (> {ENERGY}?), friction dissipation {dissipated:.3g} J")
    finish(fails, "; ".join(lines))


if __name__ == "__main__":
    main()
