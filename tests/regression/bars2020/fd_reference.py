"""Independent reference for the bars2020 study: the two bars of section 3 of Molenkamp et al. 2020 on a fine
finite-difference grid instead of modes, with the overlap coupled node pair by node pair in one of three ways:

  bonded     the pair moves together (the linear equivalent model of section 2.3, mu N -> infinity);
  coulomb    exact Coulomb friction |T| <= mu N: stick if the impulse that equalises the pair's velocities is within
             mu N l dt, else slip at mu N (Moreau's time stepping, no regularisation);
  threlfall  Threlfall's law T = muN sgn(dv) (1 - exp(-k |dv| / v95)) solved implicitly at the end of each step per pair
             (the exact solution of the regularised problem as dx, dt -> 0, whatever v95).

Lumped masses (rho A dx, halved at bar ends), leapfrog (velocities at half steps, second order), load F(t) on node 0 of
bar 1, bar 2 fixed at z = L2. Both bars share the spacing dx so that bar-1 node x pairs with bar-2 node z = x - L1 + u0;
the overlap is frozen at u0(0) (it moves by ~1e-6 m over the horizon, against dx = 5 mm). The time step is dt_out / m_sub,
below dx / c1 (CFL). Output on the 81-point field grids of the modal runs at their output times.

Usage: fd_reference.py MODE [V95] (prints the relative L2 differences of MODE against bonded). Library: simulate()."""
import numpy as np

SECTION3 = dict(rho1=1.0, EA1=25e6, L1=20.0, rho2=5.0, EA2=1.25e6, L2=20.0, u0=10.0)


def _threlfall_implicit(dvt, a, k, v95):
    """|dv_new| solving y + a (1 - exp(-k y / v95)) = |dvt| (a = pair compliance times mu N l dt, array), by Newton from
    max(0, |dvt| - a), below the root of the concave increasing residual (as SKBarsThrelfallImplicit)."""
    A = np.abs(dvt)
    y = np.maximum(A - a, 0.0)
    s = k / v95
    for _ in range(100):
        e = np.exp(-s * y)
        dy = -(y + a * (1 - e) - A) / (1 + a * s * e)
        y = y + dy
        if np.all(np.abs(dy) <= 1e-15 * (y + 1 / s)):
            break
    return y


def simulate(mode, muN=100.0, v95=None, k=3.0, dx=0.01, m_sub=17, dt_out=0.015 / 919, t_end=0.015, load=None, nfield=81,
        par=SECTION3):
    """Histories of the FD model on the field grids: dict with t, bar1_u, bar1_v, bar2_u, bar2_v (rows: output times
    k dt_out), bar1_x, bar2_x, and the load work and friction dissipation (J) over the horizon."""
    p = par
    n1, n2, s = int(round(p["L1"] / dx)), int(round(p["L2"] / dx)), int(round((p["L1"] - p["u0"]) / dx))
    dt = dt_out / m_sub
    if dt > dx / np.sqrt(p["EA1"] / p["rho1"]) * (1 + 1e-9):
        raise ValueError("dt = %g is above the CFL limit dx / c1" % dt)
    m1 = np.full(n1 + 1, p["rho1"] * dx)
    m2 = np.full(n2 + 1, p["rho2"] * dx)
    m1[[0, -1]] *= 0.5
    m2[[0, -1]] *= 0.5
    i1, j2 = np.arange(s, n1 + 1), np.arange(0, n1 - s + 1)  # pairs: bar-1 node s + j faces bar-2 node j
    trib = np.full(len(i1), dx)
    trib[[0, -1]] *= 0.5  # overlap length each pair carries
    red = 1 / m1[i1] + 1 / m2[j2]
    u1, v1, u2, v2 = np.zeros(n1 + 1), np.zeros(n1 + 1), np.zeros(n2 + 1), np.zeros(n2 + 1)
    load = load or (lambda t: 10 * np.sin(1000 * t))
    io1 = np.rint(np.linspace(0, p["L1"], nfield) / dx).astype(int)
    io2 = np.rint(np.linspace(0, p["L2"], nfield) / dx).astype(int)
    out = {q: [] for q in ("t", "bar1_u", "bar1_v", "bar2_u", "bar2_v")}

    def record(t, w1, w2):
        out["t"].append(t)
        for q, a in (("bar1_u", u1[io1]), ("bar2_u", u2[io2]), ("bar1_v", w1[io1]), ("bar2_v", w2[io2])):
            out[q].append(a.copy())

    record(0.0, v1, v2)
    work = diss = 0.0
    k1, k2 = p["EA1"] / dx, p["EA2"] / dx
    for n in range(int(round(t_end / dt))):
        d1, d2 = np.diff(u1) * k1, np.diff(u2) * k2
        f1 = np.concatenate(([d1[0]], d1[1:] - d1[:-1], [-d1[-1]]))
        f2 = np.concatenate(([d2[0]], d2[1:] - d2[:-1], [0.0]))
        F = load(n * dt)
        f1[0] += F
        w1, w2 = v1 + dt * f1 / m1, v2 + dt * f2 / m2
        w2[-1] = 0.0
        dvt = w1[i1] - w2[j2]
        if mode == "bonded":
            P = dvt / red
        elif mode == "coulomb":
            P = np.clip(dvt / red, -muN * trib * dt, muN * trib * dt)
        elif mode == "threlfall":
            P = np.sign(dvt) * (np.abs(dvt) - _threlfall_implicit(dvt, red * muN * trib * dt, k, v95)) / red
        else:
            raise ValueError("mode " + mode)
        w1[i1] -= P / m1[i1]
        w2[j2] += P / m2[j2]
        diss += np.sum(P * 0.5 * ((w1[i1] - w2[j2]) + (v1[i1] - v2[j2])))
        work += F * dt * 0.5 * (w1[0] + v1[0])
        o1, o2 = v1, v2
        v1, v2 = w1, w2
        u1, u2 = u1 + dt * v1, u2 + dt * v2
        if (n + 1) % m_sub == 0:
            # velocities live at half steps: v(t_{n+1}) = 3/2 v_{n+1/2} - 1/2 v_{n-1/2} to second order
            record((n + 1) * dt, 1.5 * v1 - 0.5 * o1, 1.5 * v2 - 0.5 * o2)
    r = {q: np.array(a) for q, a in out.items()}
    r["bar1_x"], r["bar2_x"] = np.linspace(0, p["L1"], nfield), np.linspace(0, p["L2"], nfield)
    r["work"], r["dissipation"] = work, diss
    return r


if __name__ == "__main__":
    import sys
    sys.path.insert(0, ".")
    from postproc import bars2020 as B
    mode = sys.argv[1]
    v95 = float(sys.argv[2]) if len(sys.argv) > 2 else None
    ref = simulate("bonded")
    r = simulate(mode, v95=v95)
    print("%s: D/W = %.4f" % (mode, r["dissipation"] / r["work"]))
    for key in ("bar1_u", "bar1_v", "bar2_u", "bar2_v"):
        print("%s vs bonded: %.4f" % (key, B.rel_l2(r, ref, key, xmax=10 if key.startswith("bar2") else None)))
