"""Runs inputs/explicit/contact_bars.xml (two equal elastic bars, nu = 0, bar a at v0 = 1 m/s hits bar b at rest; non-
matching meshes) and checks the classical result of the impact of equal bars: contact duration 2 L / c, contact stress
rho c v0 / 2, velocities exchanged (each to 1 %), and the total momentum.

usage: check_contact_bars.py PROGRAM INPUT MESH"""
import sys

import numpy as np

from two_bodies import finish, lumped_masses, run_results

E, RHO, L, H, V0 = 1e8, 1000.0, 1.0, 0.05, 1.0


def main():
    prog, inp, mesh = sys.argv[1:4]
    r = run_results(prog, inp)
    c = r.history("/explicit/contact/impact")
    t, fn = np.asarray(c["time"]), np.asarray(c["normal_force"])
    X, m, body = lumped_masses(mesh, {"a": RHO, "b": RHO})
    v = np.asarray(r.array("/explicit/final/velocity"))
    X0 = np.asarray(r.array("/explicit/final/coordinates"))  # reference coordinates
    assert np.allclose(X0, X)  # natural node order
    cw = np.sqrt(E / RHO)
    fails = []
    dt = t[1] - t[0]
    # the penalty contact of lumped masses chatters (nodes bounce within a few steps); the stress is the interface force
    # averaged over the width of the discrete wave front, 2 h / c (h = 0.02 m, the coarser mesh)
    w = max(1, int(round(2 * 0.02 / cw / dt)))
    sigma = np.convolve(fn, np.ones(w) / w, mode="same") / H
    plateau = sigma[(t > 0.15 * 2 * L / cw) & (t < 0.85 * 2 * L / cw)].mean()
    on = np.nonzero(sigma > 0.5 * plateau)[0]
    duration = t[on[-1]] - t[on[0]]
    # closed forms; 1 % is the required bound (docs/design.md) (measured 0.7 % on the duration, 0.003 % on the stress, 0.8 % of v0 on the
    # velocities: the penalty contact of the bars' end nodes chatters, and what bar a keeps is the chatter's last bounce)
    if abs(duration / (2 * L / cw) - 1) > 0.01:
        fails.append(f"contact duration {duration:.6g} s, expected 2 L / c = {2 * L / cw:.6g} s")
    if abs(plateau / (RHO * cw * V0 / 2) - 1) > 0.01:
        fails.append(f"contact stress {plateau:.6g} Pa, expected rho c v0 / 2 = {RHO * cw * V0 / 2:.6g} Pa")
    pa, pb = (np.sum(m[body == k] * v[body == k, 0]) for k in "ab")
    ma, mb = (np.sum(m[body == k]) for k in "ab")
    # velocities exchanged: mean velocities of the bars after the impact, to 1 % of v0
    if abs(pa / ma) > 0.01 * V0 or abs(pb / mb - V0) > 0.01 * V0:
        fails.append(f"mean velocities after impact {pa / ma:.4g}, {pb / mb:.4g} m/s, expected 0, {V0}")
    # total momentum: the reactions are the slave forces distributed by shape functions that sum to 1: round-off only
    p0 = ma * V0
    if abs(pa + pb - p0) > 1e-12 * p0:
        fails.append(f"total momentum {pa + pb:.17g} vs {p0:.17g}")
    finish(fails, f"duration {duration:.6g} s (2L/c {2 * L / cw:.6g}), stress {plateau:.6g} Pa (rho c v0/2 {RHO * cw * V0 / 2:.6g}), "
          f"velocities {pa / ma:.3g} {pb / mb:.6g} m/s, momentum error {abs(pa + pb - p0) / p0:.3g}")


if __name__ == "__main__":
    main()
