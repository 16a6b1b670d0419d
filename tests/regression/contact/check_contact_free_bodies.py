"""Runs inputs/explicit/contact_free_bodies.xml (a block landing obliquely on a free slab, LuGre friction, two passes,
no net external force) or its 3D form contact_free_bodies3d.xml and checks that the total momentum keeps its initial value to 1e-12 relative and that the
energy balance with the contact work (penalty and friction) closes to 1e-3 of the initial kinetic energy.

usage: check_contact_free_bodies.py PROGRAM INPUT MESH V0_X V0_Y [V0_Z]   (the initial velocity of block a)"""
import sys

import numpy as np

from two_bodies import balance_drift, finish, lumped_masses, run_results


def main():
    prog, inp, mesh = sys.argv[1:4]
    v0 = np.array([float(x) for x in sys.argv[4:]])
    r = run_results(prog, inp)
    X, m, body = lumped_masses(mesh, {"a": 1000.0, "b": 1000.0})
    assert np.allclose(np.asarray(r.array("/explicit/final/coordinates")), X)  # natural node order
    v = np.asarray(r.array("/explicit/final/velocity"))
    c = r.history("/explicit/contact/landing")
    e = r.history("/explicit/energy")
    fails = []
    p0 = np.sum(m[body == "a"]) * v0
    p = m @ v
    # the reactions are the slave forces times shape values that sum to 1 at every projection, and the two point loads
    # cancel node for node: the momentum changes by round-off only
    err = np.linalg.norm(p - p0) / np.linalg.norm(p0)
    if err > 1e-12:
        fails.append(f"total momentum {p} vs {p0}: {err:.3g} relative")
    if np.max(c["nodes_in_contact"]) == 0 or np.max(c["dissipation"]) <= 0:
        fails.append("the bodies never touched with friction")
    # the energy balance with the contact work columns (central differences drift O(dt^2)); the required bound (docs/design.md)
    k0 = 0.5 * np.sum(m[body == "a"]) * (v0 @ v0)
    drift = balance_drift(e, k0)
    if drift > 1e-3:
        fails.append(f"energy balance drift {drift:.3g} of the initial kinetic energy > 1e-3")
    finish(fails, f"momentum error {err:.3g}, energy drift {drift:.3g}, friction dissipation {c['dissipation'][-1]:.4g} J (pass 1)")


if __name__ == "__main__":
    main()
