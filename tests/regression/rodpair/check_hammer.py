#!/usr/bin/env python3
"""Checks of the hammer (docs/theory.md "Hammer and cushion", docs/validation/rodpair.md "Pile driving").

  check_hammer.py closed RESULTS INPUT RTOL [SCALE]  head force against the closed form of a rigid ram on a linear cushion
                                                   into a semi-infinite elastic pile, F'' + (k/Z) F' + (k/M) F = 0,
                                                   F(0) = 0, F'(0) = k v0, until the force drops to zero: max |F - F_exact|
                                                   over max F below RTOL (SCALE: the closed form's k times SCALE, a
                                                   self-test that must fail)
  check_hammer.py energy RESULTS INPUT TOL [SCALE]  energy of every blow: ram impact energy = kinetic + strain of both rods
                                                   + friction dissipation + cushion stored and lost + ram energy left, at
                                                   every output time, over the impact energy below TOL; the ram's kinetic
                                                   energy recomputed from its velocity history and the cushion loss from
                                                   the blows' peak forces, (1 - e^2) F_max^2 / (2 k) (SCALE: the loss
                                                   times SCALE, a self-test)
  check_hammer.py residual RESULTS TOL [SCALE]     the locked-in state after every blow: at each node of rod 1 the axial
                                                   force difference balances the friction force, |N_i - N_i-1 + F_i| below
                                                   TOL times the largest friction force, every friction force within its
                                                   static capacity, and the friction forces summing to zero (no head
                                                   force), every blow having come to rest (SCALE: the axial
                                                   forces times SCALE, a self-test)
Prints what it compares and "ok", or the failures and exits 1."""
import sys
import xml.etree.ElementTree as ET

import numpy as np

from postproc.results import Results


def hammer_of(inp):
    root = ET.parse(inp).getroot()
    h = root.find("load/hammer")
    v0 = h.get("impact_velocity")
    if v0 is None:
        v0 = np.sqrt(2 * float(h.get("efficiency", "1")) * 9.80665 * float(h.get("drop_height")))
    return float(h.get("ram_mass")), float(v0), float(h.get("cushion_stiffness")), float(h.get("restitution")), root


def closed(res, inp, rtol, scale=1.0):
    M, v0, k, e, root = hammer_of(inp)
    r1 = root.find("rod1")
    Z = np.sqrt(float(r1.get("EA")) * float(r1.get("rhoA")))
    k *= scale
    a = k / (2 * Z)
    wd = np.sqrt(k / M - a * a)  # under-damped for the inputs checked here
    h = Results(res).history("rodpair/hammer")
    t, F = h["t"], h["head_force"]
    t_zero = np.pi / wd  # the closed form's force returns to zero here
    sel = (t > 0) & (t < t_zero) & (F > 0)
    exact = k * v0 * np.exp(-a * t[sel]) * np.sin(wd * t[sel]) / wd
    err = np.max(np.abs(F[sel] - exact)) / np.max(exact)
    print(f"head force over {sel.sum()} output times to {t_zero:.5f} s (force back to zero): peak {np.max(F[sel]):.6e} N, "
          f"closed form {np.max(exact):.6e} N, max difference / peak {err:.2e} (tolerance {rtol})")
    return [] if err < rtol else [f"head force differs from the closed form by {err:.2e} of its peak"]


def energy(res, inp, tol, scale=1.0):
    M, v0, k, e, _ = hammer_of(inp)
    r = Results(res)
    h, en, bl = r.history("rodpair/hammer"), r.history("rodpair/energy"), r.history("rodpair/hammer_blows")
    # the ram: what it has now and what the rams of the blows before carried away (their velocity when the next struck)
    t = h["t"]
    # blows struck by output time t: a blow strikes at its t_start, after the output there (written by the blow before),
    # except the first, struck before the output at t = 0; half an output interval absorbs the round-off of the times
    dt = t[1] - t[0]
    nblow = np.maximum(np.searchsorted(bl["t_start"], t - dt / 2, side="right"), 1)
    left = np.concatenate([[0.0], np.cumsum(0.5 * M * bl["ram_velocity_after"] ** 2)])
    ram = 0.5 * M * h["ram_velocity"] ** 2 + left[nblow - 1]
    # the cushion loss of the finished contacts from the blows' peak forces, and of the current one
    loss_blow = scale * 0.5 * (1 - e * e) * bl["max_head_force"] ** 2 / k
    done = np.concatenate([[0.0], np.cumsum(loss_blow)])
    after = t >= bl["t_end"][nblow - 1] - dt / 2  # output times where the blow struck last is over
    loss_now = np.where(after, done[nblow], h["cushion_loss"])
    stored = h["head_force"] ** 2 * e * e / (2 * k)
    inp_e = 0.5 * M * v0 * v0 * nblow
    total = en["kinetic1"] + en["strain1"] + en["kinetic2"] + en["strain2"] + en["dissipated"] + ram + stored + loss_now
    bal = np.abs(total - inp_e) / (0.5 * M * v0 * v0)
    own = np.max(np.abs(en["balance"])) / (0.5 * M * v0 * v0)
    err = np.max(bal)
    print(f"{len(bl['blow'])} blows, {len(t)} output times: energy balance recomputed {err:.2e}, the solver's own {own:.2e} of the "
          f"impact energy {0.5 * M * v0 * v0:.4g} J (tolerance {tol}); friction dissipated {en['dissipated'][-1]:.6g} J, "
          f"cushion lost {done[-1]:.6g} J, ram left {left[-1]:.6g} J")
    bad = []
    if not err < tol:
        bad.append(f"recomputed energy balance {err:.2e}")
    if not own < tol:
        bad.append(f"the solver's energy balance {own:.2e}")
    return bad


def residual(res, tol, scale=1.0):
    r = Results(res)
    Nax = scale * r.array("rodpair/residual_axial_force")
    Ff, cap = r.array("rodpair/residual_friction"), r.array("rodpair/residual_capacity")
    rest = r.history("rodpair/hammer_blows")["at_rest"]
    bad = [f"blow {b + 1} did not come to rest" for b in range(len(rest)) if rest[b] != 1]  # else no residual state
    for b in range(Nax.shape[0]):
        n = np.concatenate([[0.0], Nax[b], [0.0]])  # free head (the ram has left) and free toe
        imb = np.diff(n) + Ff[b]  # node i: N_i - N_i-1 + F_i = m_i a_i = 0 at rest
        fmax = np.max(np.abs(Ff[b]))
        e1 = np.max(np.abs(imb)) / fmax
        e2 = np.max(np.abs(Ff[b]) - cap[b] * (1 + 1e-10)) / fmax
        e3 = abs(np.sum(Ff[b])) / np.sum(np.abs(Ff[b]))
        print(f"blow {b + 1}: largest friction force {fmax:.4e} N, largest axial force {np.max(np.abs(Nax[b])):.4e} N, equilibrium "
              f"{e1:.2e}, friction over capacity {max(e2, 0):.2e}, net friction {e3:.2e} (tolerance {tol})")
        if not (e1 < tol and e2 <= 0 and e3 < tol):
            bad.append(f"blow {b + 1}: residual state not in equilibrium or beyond capacity ({e1:.2e}, {e2:.2e}, {e3:.2e})")
    return bad


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    nargs = {"closed": 3, "energy": 3, "residual": 2}
    if cmd not in nargs:
        sys.exit(f"unknown command {cmd}")
    scale = float(a[nargs[cmd]]) if len(a) > nargs[cmd] else None  # a self-test: the perturbed check must fail
    s = 1.0 if scale is None else scale
    if cmd == "closed":
        bad = closed(a[0], a[1], float(a[2]), s)
    elif cmd == "energy":
        bad = energy(a[0], a[1], float(a[2]), s)
    else:
        bad = residual(a[0], float(a[1]), s)
    if scale is not None:
        if not bad:
            sys.exit(f"self-test: the check passed with the perturbation {scale}; it cannot fail")
        print(f"self-test ok: the perturbation {scale} fails the check")
        return
    if bad:
        sys.exit("\n".join(bad))  # the failures on stderr, exit status 1
    print("ok")


if __name__ == "__main__":
    main()
