"""Two free NURBS bodies in frictional contact (tests/regression/contact/free_nurbs_slave.xml, and free_nurbs3d.xml in
3D: a block of degree 2, its bottom a slave patch face of degree 2, lands obliquely on a free slab whose top is the
NURBS master; no external force). Checked:

  1. action and reaction: the total momentum sum_a m_a v_a (m_a = rho int R_a dOmega, the row-sum lumped masses of
     the box-shaped patches, from the knots stored in results.h5) keeps the block's initial momentum to 1e-12 relative
     (measured 8e-17: every Gauss point's reaction is the opposite of its force, shares summing to 1); self-test: with
     the block's masses scaled by 1.01 the same check must fail;
  2. the bodies touched with friction (friction dissipation > 0), and the energy balance (kinetic + internal + stored
     contact energy + friction dissipation) drifts by less than 1e-3 of the initial kinetic energy, the bound of the
     Lagrange free bodies (measured 7.5e-5 of the largest energy).

usage: check_contact_free_nurbs.py PROGRAM INPUT V0_X V0_Y [V0_Z]   (the initial velocity of block a, patch "a")"""
import sys

import numpy as np

from two_bodies import balance_drift, finish, run_results

MOMENTUM = 1e-12  # relative: round-off of the sums of the forces
ENERGY = 1e-3  # of the initial kinetic energy


def lumped_masses(r, rho=1000.0):
    """Row-sum lumped masses (kg, per unit thickness in 2D) of the box-shaped B-spline patches of the run, patch after patch
    (the natural order of the control points), and the mask of patch a's control points."""
    masses, is_a = [], []
    for name in ("a", "b"):
        g = f"/explicit/patches/{name}"
        deg = np.asarray(r.array(g + "/degree"))
        cp = np.asarray(r.array(g + "/controlpoints"))
        ints = []
        for d in range(len(deg)):
            t = np.asarray(r.array(g + f"/knots_{d}"))
            t = (t - t[0]) / (t[-1] - t[0])
            p = int(deg[d])
            ints.append(np.array([(t[i + p + 1] - t[i]) / (p + 1) for i in range(len(t) - p - 1)]) * np.ptp(cp[:, d]))
        m = ints[0]
        for d in range(1, len(deg)):  # first direction fastest
            m = np.outer(ints[d], m).ravel()
        m = rho * m
        masses.append(m)
        is_a.append(np.full(len(m), name == "a"))
    return np.concatenate(masses), np.concatenate(is_a)


def main():
    prog, inp = sys.argv[1:3]
    v0 = np.array([float(x) for x in sys.argv[3:]])
    r = run_results(prog, inp)
    m, is_a = lumped_masses(r)
    v = np.asarray(r.array("/explicit/final/velocity"))
    c = r.history("/explicit/contact/landing")
    e = r.history("/explicit/energy")
    fails = []
    momentum = lambda masses: np.linalg.norm(masses @ v - np.sum(masses[is_a]) * v0) / np.linalg.norm(np.sum(masses[is_a]) * v0)
    err = momentum(m)
    if err > MOMENTUM:
        fails.append(f"total momentum {m @ v} vs {np.sum(m[is_a]) * v0}: {err:.3g} relative")
    selftest = momentum(np.where(is_a, 1.01 * m, m))
    if not selftest > MOMENTUM:
        fails.append(f"self-test: the block's masses x 1.01 give a momentum error of only {selftest:.3g}")
    if np.max(c["nodes_in_contact"]) == 0 or np.max(c["dissipation"]) <= 0:
        fails.append("the bodies never touched with friction")
    drift = balance_drift(e, 0.5 * np.sum(m[is_a]) * (v0 @ v0))
    if drift > ENERGY:
        fails.append(f"energy balance drift {drift:.3g} of the initial kinetic energy > {ENERGY}")
    finish(fails, f"momentum error {err:.3g} (self-test {selftest:.3g}), energy drift {drift:.3g} of the initial kinetic energy, "
           f"friction dissipation {c['dissipation'][-1]:.4g} J")


if __name__ == "__main__":
    main()
