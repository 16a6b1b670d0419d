#!/usr/bin/env python3
"""An independent oracle for the rod pair: shares no code (and no discretisation of rod 2) with the C solvers.

Both rods are lumped-mass finite-difference chains on the same spacing h = L1/(N-1) (rod 2 fixed at z2 = L2, free at
z2 = 0; a non-uniform rod 1 or a layered rod 2 with element springs and masses from its segments), integrated by the leapfrog (symplectic Euler) scheme; the Coulomb law is imposed per time step as a set-valued
law on the velocities at the end of the step (Moreau's velocity-level time stepping): the friction impulse on the pair
(rod-1 node i, rod-2 node j facing it) is the projection onto the friction cone [-cap dt, cap dt] of the impulse that
would make their relative velocity zero, which is the exact solution of the one-step problem
    w = w_free + dt (1/m1 + 1/m2) F,   F in -cap Sign(w).
Each rod-1 node in contact faces exactly one rod-2 node (the grids match), so the per-step problems are independent
and solved exactly. Small displacements: the pairing and the capacities (mu N_F times the node's tributary length on
rod 2, half at both ends of the contact) are those of the undeformed configuration. The load enters as its exact
average over each step (closed forms of the harmonic and pulse functions), so a pulse's impulse is exact.

The C code instead keeps rod 2 in N_m analytic modes, couples the nodes by segment averages of the modes, moves the
contact points with u1, and integrates with events (RK45, CVODE) or closed forms (mode matching); the oracle converges
to the same continuum problem as dt -> 0 and N -> infinity, and at equal N to nearly the same semi-discrete rod 1.

A library: check_rodpair.py (commands oracle, oracle_selftest) and oracle_study.py use it.
numpy only (plus h5py to read the results)."""
import xml.etree.ElementTree as ET

import numpy as np

SECTIONS = ["u1_0", "u1_L/3", "u1_2L/3", "u1_L"]


def read_input(path):
    """The physical parameters of a <rodpair> input (SI units)."""
    root = ET.parse(path).getroot()
    r1, r2, fr, fn, tm = (root.find(k) for k in ("rod1", "rod2", "friction", "load/function", "time"))
    if fr.find("point") is not None:
        raise ValueError(f"oracle: {path} has depth-dependent friction, which the oracle does not model")
    segs = [(float(s.get("length")), float(s.get("EA")), float(s.get("rhoA"))) for s in r1.findall("segment")]
    segs2 = [(float(s.get("length")), float(s.get("EA")), float(s.get("rhoA"))) for s in r2.findall("segment")]
    p = {"EA1": float(r1.get("EA", "nan")), "rhoA1": float(r1.get("rhoA", "nan")), "L1": float(r1.get("length")), "seg1": segs,
         "l1": float(r1.get("offset")), "EA2": float(r2.get("EA", "nan")), "rhoA2": float(r2.get("rhoA", "nan")), "seg2": segs2,
         "L2": float(r2.get("length")), "mu_s": float(fr.get("mu_s")), "mu_k": float(fr.get("mu_k")),
         "NF": float(fr.get("normal_load")), "end": float(tm.get("end")), "dt_out": float(tm.get("output_interval", "1e-3"))}
    p["load"] = {k: fn.get(k) for k in fn.keys()}
    return p


def load_average(load, t0, t1):
    """(1/(t1 - t0)) * integral of P(t) over [t0, t1], closed form (N)."""
    kind = load["type"]
    if kind == "harmonic":
        a, w, ph = float(load["amplitude"]), float(load["omega"]), float(load.get("phase", "0"))
        return a * (np.cos(w * t0 + ph) - np.cos(w * t1 + ph)) / (w * (t1 - t0))
    if kind == "pulse":
        a, s, d = float(load["amplitude"]), float(load.get("start", "0")), float(load["duration"])
        return a * max(0.0, min(t1, s + d) - max(t0, s)) / (t1 - t0)
    if kind == "constant":
        return float(load.get("value", load.get("amplitude")))
    raise ValueError(f"oracle: load type {kind} not supported")


def rod1_chain(p, N):
    """Lumped masses (N) and element springs (N - 1) of rod 1 (see chain)."""
    return chain(p["L1"], p.get("seg1"), p["EA1"], p["rhoA1"], N)


def chain(L, segs, EA_uniform, rhoA_uniform, N):
    """Lumped masses (N) and element springs (N - 1) of a rod of length L on N equally spaced nodes: uniform, or from its
    segments (lengths, EA, rho A from z = 0 down): an element's springs in series (1 / sum of overlap / EA) and half of
    its mass at each end node."""
    h = L / (N - 1)
    if not segs:
        m1 = np.full(N, rhoA_uniform * h)
        m1[[0, -1]] *= 0.5
        return m1, np.full(N - 1, EA_uniform / h)
    edges = np.cumsum([0.0] + [s[0] for s in segs])
    z = np.linspace(0.0, L, N)
    comp, mel = np.zeros(N - 1), np.zeros(N - 1)
    for (length, EA, rhoA), a, b in zip(segs, edges[:-1], edges[1:]):
        overlap = np.clip(np.minimum(z[1:], b) - np.maximum(z[:-1], a), 0.0, None)
        comp += overlap / EA
        mel += overlap * rhoA
    m1 = np.zeros(N)
    m1[:-1] += 0.5 * mel
    m1[1:] += 0.5 * mel
    return m1, 1.0 / comp


def simulate(p, N, dt, t_end, dt_out):
    """Rod pair on N nodes per rod length h; returns output times, u1 at the four sections (nt x 4), and the energy
    history (nt x 5: work of P, kinetic, strain, dissipated, balance) of the oracle itself."""
    h = p["L1"] / (N - 1)
    M = int(round(p["L2"] / h))  # rod-2 nodes 0..M, node M fixed
    off = int(round(p["l1"] / h))
    if abs(M * h - p["L2"]) > 1e-9 * p["L2"] or abs(off * h - p["l1"]) > 1e-9 * p["l1"] + 1e-12:
        raise ValueError(f"oracle: L2 and l1 must be multiples of h = {h} (choose N accordingly)")
    m1, k1 = rod1_chain(p, N)  # k1: one spring (uniform) or one per element (segments)
    m2full, k2 = chain(p["L2"], p.get("seg2"), p["EA2"], p["rhoA2"], M + 1)  # rod 2 on nodes 0..M (layers: per element)
    m2 = m2full[:M]  # free nodes 0..M-1, node M fixed
    i1 = np.arange(off, N)  # rod-1 nodes in contact, facing rod-2 nodes 0..N-1-off
    j2 = i1 - off
    trib = np.full(len(i1), h)
    trib[[0, -1]] = 0.5 * h  # first contact node at the top of rod 2, last the tip of rod 1
    cap_s, cap_k = p["mu_s"] * p["NF"] * trib, p["mu_k"] * p["NF"] * trib
    dinv = dt * (1 / m1[i1] + 1 / m2[j2])
    u1, v1, u2, v2 = np.zeros(N), np.zeros(N), np.zeros(M), np.zeros(M)
    f1, f2 = np.zeros(N), np.zeros(M)
    sub = int(round(dt_out / dt))
    if abs(sub * dt - dt_out) > 1e-9 * dt_out:
        raise ValueError("oracle: dt must divide the output interval")
    nout = int(np.floor(t_end / dt_out + 1e-9))
    sec = [0, (N - 1) // 3, 2 * (N - 1) // 3, N - 1] if (N - 1) % 3 == 0 else None
    zs = np.array([0, 1 / 3, 2 / 3, 1]) * (N - 1)
    times, out, en = np.zeros(nout + 1), np.zeros((nout + 1, 4)), np.zeros((nout + 1, 5))
    work = diss = 0.0
    sticking = np.zeros(len(i1), dtype=bool)

    def record(r, t):
        times[r] = t
        out[r] = u1[sec] if sec else np.interp(zs, np.arange(N), u1)
        kin = 0.5 * (m1 @ (v1 * v1) + m2 @ (v2 * v2))
        strain = 0.5 * (np.sum(k1 * np.diff(u1) ** 2) + np.sum(k2[:-1] * np.diff(u2) ** 2) + k2[-1] * u2[-1] ** 2)
        en[r] = [work, kin, strain, diss, kin + strain + diss - work]

    record(0, 0.0)
    step = 0
    for r in range(1, nout + 1):
        for _ in range(sub):
            t0 = step * dt
            step += 1
            P = load_average(p["load"], t0, t0 + dt)
            du = np.diff(u1)
            f1[:] = 0
            f1[:-1] += k1 * du
            f1[1:] -= k1 * du
            f1[0] += P
            d2 = np.diff(u2)
            f2[:] = 0
            f2[:-1] += k2[:-1] * d2
            f2[1:] -= k2[:-1] * d2
            f2[-1] -= k2[-1] * u2[-1]
            v1old0 = v1[0]
            v1 += dt * f1 / m1
            v2 += dt * f2 / m2
            # Coulomb, exactly per step: F = projection of the sticking force onto the cone (static cap if the pair
            # was sticking, kinetic otherwise; the inputs have mu_s = mu_k)
            w = v1[i1] - v2[j2]
            fstick = -w / dinv
            cap = np.where(sticking, cap_s, cap_k)
            F = np.clip(fstick, -cap, cap)
            sticking = np.abs(fstick) <= cap
            v1[i1] += dt * F / m1[i1]
            v2[j2] -= dt * F / m2[j2]
            # energy of the oracle: work of P on the step's mean velocity, dissipation F (v1 - v2) at the mid-velocity
            work += P * dt * 0.5 * (v1old0 + v1[0])
            diss -= dt * np.dot(F, 0.5 * (w + (v1[i1] - v2[j2])))
            u1 += dt * v1
            u2 += dt * v2
        record(r, r * dt_out)
    return times, out, en


def rel_l2(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def read_sections(path):
    import h5py

    with h5py.File(path, "r") as f:
        g = f["rodpair"]
        sec = g["sections"][:]
        cols = [c.decode() if isinstance(c, bytes) else str(c) for c in g["sections"].attrs["columns"]]
        return sec[:, cols.index("t")], np.column_stack([sec[:, cols.index(s)] for s in SECTIONS]), int(g.attrs["nodes"])
