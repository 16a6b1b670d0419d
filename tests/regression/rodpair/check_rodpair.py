#!/usr/bin/env python3
"""Checks of rodpair runs (results.h5 written by `stickslip run`).

  check_rodpair.py agree A.h5 B.h5 TOL   relative L2 difference of u1 at z1 = 0, L1/3, 2L1/3, L1 below TOL
  check_rodpair.py energy A.h5 TOL       max_t |kinetic + strain + dissipated - work| / max_t |work| below TOL
  check_rodpair.py selftest A.h5         the agree check fails when one section is perturbed by 1 % (it can fail)
  check_rodpair.py oracle INPUT.xml A.h5 TOL [SUB]   the same against the independent oracle (oracle.py) run over
      A's horizon at A's N with dt = output interval / SUB (default 20)
  check_rodpair.py oracle_selftest INPUT.xml A.h5    the oracle check at 5e-3 fails on a 1 % perturbation of the tip
  check_rodpair.py converged INPUT.xml TOL A.h5 [COARSE.h5]   A against the converged oracle, the Richardson
      extrapolation 2 u(dt/2) - u(dt) of two oracle runs at dt = output interval / 20 and / 40 over A's horizon at A's N,
      below TOL; COARSE (a run that must not pass, e.g. with too few modes) must fail the same check
  check_rodpair.py fields A.h5 INPUT.xml TOL [MASS]   the energy balance recomputed from the outputs of a run with
      -rodpair_output_state, not from the solver's balance column: work of P from P(t) (closed form from INPUT) and
      the load-point motion (integral of P du0 = P v0 dt), kinetic and strain energy of rod 1 from the nodal fields and the
      masses and stiffnesses of INPUT, of rod 2 from its modal coordinates and frequencies; with the solver's
      dissipation, max_t |work - kinetic - strain - dissipated| / max_t |work| below TOL, and the dissipation never
      decreasing. MASS scales rod 1's masses (a selftest: 1.01 must fail).
"""
import sys

import h5py
import numpy as np

from oracle import SECTIONS, read_input, read_sections, rel_l2, simulate
from postproc.results import Results


def sections_agree(ua, ub, tol, perturb=0.0, what="difference"):
    """u1 at the four sections (nt x 4 each): relative L2 of ua (tip scaled by 1 + perturb) against ub below tol"""
    bad = []
    for s, name in enumerate(SECTIONS):
        e = rel_l2(ua[:, s] * (1 + perturb if name == "u1_L" else 1), ub[:, s])
        print(f"{name:8s} relative L2 {what} {e:.3e} (tolerance {tol:g})")
        if not e < tol:
            bad.append(f"{name}: {e:.3e} >= {tol:g}")
    return bad


def agree(fa, fb, tol, perturb=0.0):
    ha, hb = Results(fa).history("rodpair/sections"), Results(fb).history("rodpair/sections")
    if len(ha) != len(hb) or np.max(np.abs(ha["t"] - hb["t"])) > 1e-12:
        return [f"output times differ ({len(ha)} vs {len(hb)} rows)"]
    return sections_agree(np.column_stack([ha[n] for n in SECTIONS]), np.column_stack([hb[n] for n in SECTIONS]), tol, perturb)


def against_oracle(inp, res, tol, sub=20, perturb=0.0):
    """the independent oracle (oracle.py) over the run's horizon at the run's N, dt = output interval / sub"""
    t, u, N = read_sections(res)
    dt_out = t[1] - t[0]
    _, uo, _ = simulate(read_input(inp), N, dt_out / sub, t[-1] + 0.5 * dt_out, dt_out)
    if len(uo) != len(t):
        return [f"output rows differ ({len(uo)} vs {len(t)})"]
    return sections_agree(u, uo, tol, perturb, "difference to the oracle")


def against_converged(inp, tol, res, coarse=None):
    """res against the converged oracle (Richardson in dt of 1/20 and 1/40 of the output interval); coarse must fail"""
    t, u, N = read_sections(res)
    dt_out = t[1] - t[0]
    p = read_input(inp)
    uo = [simulate(p, N, dt_out / sub, t[-1] + 0.5 * dt_out, dt_out)[1] for sub in (20, 40)]
    ref = 2 * uo[1] - uo[0]
    if len(ref) != len(t):
        return [f"output rows differ ({len(ref)} vs {len(t)})"]
    bad = sections_agree(u, ref, tol, what="difference to the converged oracle")
    if coarse is not None:
        print(f"{coarse} must fail:")
        if not sections_agree(read_sections(coarse)[1], ref, tol, what="difference to the converged oracle"):
            bad.append(f"{coarse} passed the check, which it must fail")
    return bad


def energy(f, tol):
    h = Results(f).history("rodpair/energy")
    work = np.max(np.abs(h["work"]))
    err = np.max(np.abs(h["balance"])) / work
    print(f"energy balance {err:.3e} of max work {work:.4g} J (tolerance {tol:g})")
    return [] if err < tol and work > 0 else [f"energy balance {err:.3e} >= {tol:g}"]


def load_value(load, t):
    """P(t) (N) of the <function> attributes of an input, closed forms."""
    a = float(load["amplitude"])
    if load["type"] == "harmonic":
        return a * np.sin(float(load["omega"]) * t + float(load.get("phase", "0")))
    if load["type"] == "pulse":
        s, d = float(load.get("start", "0")), float(load["duration"])
        return np.where((t >= s) & (t < s + d), a, 0.0)
    raise ValueError(f"load type {load['type']} not supported")


def fields(f, inp, tol, mass_scale=1.0):
    p = read_input(inp)
    with h5py.File(f, "r") as h5:
        g = h5["rodpair"]
        t, u, v, eta, etad = (g[k][:] for k in ("time", "u1_nodal", "v1_nodal", "eta", "etadot"))
    h = Results(f).history("rodpair/energy")
    N, Nm = u.shape[1], eta.shape[1]
    dz = p["L1"] / (N - 1)
    m = np.full(N, p["rhoA1"] * dz * mass_scale)
    m[[0, -1]] *= 0.5
    omega = np.sqrt(p["EA2"] / p["rhoA2"]) * (2 * np.arange(1, Nm + 1) - 1) * np.pi / (2 * p["L2"])
    kin = 0.5 * (v * v) @ m + 0.5 * np.sum(etad**2, axis=1)
    strain = 0.5 * p["EA1"] / dz * np.sum(np.diff(u, axis=1) ** 2, axis=1) + 0.5 * np.sum((omega * eta) ** 2, axis=1)
    # work = integral of P v0 dt on each output interval, with the load-point motion the cubic Hermite interpolant of
    # its displacement and velocity at the ends and 3-point Gauss-Legendre in time (P at interior points: exact for
    # the pulse, whose jumps are output times; fourth order for a harmonic P); the fields themselves are exact
    dt, du = np.diff(t), np.diff(u[:, 0])
    inc = np.zeros(len(dt))
    for s, w in zip(0.5 + 0.5 * np.sqrt(0.6) * np.array([-1.0, 0.0, 1.0]), [5 / 18, 8 / 18, 5 / 18]):
        vs = (6 * s - 6 * s * s) * du / dt + (3 * s * s - 4 * s + 1) * v[:-1, 0] + (3 * s * s - 2 * s) * v[1:, 0]
        inc += w * dt * load_value(p["load"], t[:-1] + s * dt) * vs
    work = np.concatenate([[0.0], np.cumsum(inc)])
    wmax = np.max(np.abs(work))
    err = np.max(np.abs(work - kin - strain - h["dissipated"])) / wmax
    ddiss = np.min(np.diff(h["dissipated"])) / wmax
    print(f"recomputed energy balance {err:.3e} of max work {wmax:.4g} J (tolerance {tol:g}); "
          f"recomputed/solver work {work[-1] / h['work'][-1]:.6f}; smallest dissipation step {ddiss:.1e}")
    bad = [] if err < tol and wmax > 0 else [f"recomputed energy balance {err:.3e} >= {tol:g}"]
    # round-off of the dissipation integral (it is a sum of non-negative terms in every solver)
    if ddiss < -1e-12:
        bad.append(f"dissipation decreases ({ddiss:.1e} of the work)")
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == "agree":
        bad = agree(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif cmd == "energy":
        bad = energy(sys.argv[2], float(sys.argv[3]))
    elif cmd == "fields":
        bad = fields(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]) if len(sys.argv) > 5 else 1.0)
        if len(sys.argv) > 5:
            bad = [] if bad else ["the check passed with rod 1's masses scaled"]
    elif cmd == "oracle":
        bad = against_oracle(sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) > 5 else 20)
    elif cmd == "converged":
        bad = against_converged(sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif cmd == "oracle_selftest":
        bad = [] if against_oracle(sys.argv[2], sys.argv[3], 5e-3, perturb=0.01) else ["a 1 % perturbation passed the check"]
    elif cmd == "selftest":
        bad = [] if agree(sys.argv[2], sys.argv[2], 1e-3, perturb=0.01) else ["a 1 % perturbation passed the check"]
    else:
        sys.exit(f"unknown command {cmd}")
    if bad:
        sys.exit("FAIL: " + "; ".join(bad))
    print("ok")


if __name__ == "__main__":
    main()
