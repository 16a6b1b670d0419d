"""Post-processing of the rigid spring-slider (solver "springslider"): the exact Coulomb cycle and trajectory of
docs/theory.md in Python (independent of the C implementation, used by the regression tests to check it), the
cycle measured from a run, and the figure of docs/validation/bk.md in the style of the paper's Fig. 6 (rigid case):

    python3 -m postproc.springslider figure OUTDIR RUN [RUN ...]   # bk-springslider-rigid.png, labels from the law
    python3 -m postproc.springslider cycle RUN                     # measured vs exact cycle
"""
import os
import sys
import numpy as np

from postproc.bk import load, slips


def coulomb_cycle(m, k, V, N, mu_s, mu_k):
    """Exact steady cycle: dict with t_first, t_stick, t_slip, force_drop (docs/theory.md)."""
    w = np.sqrt(k / m)
    D = (mu_s - mu_k) * N / k
    beta = np.arctan(w * D / V)
    return dict(t_first=mu_s * N / (k * V), t_stick=2 * D / V, t_slip=(2 * np.pi - 2 * beta) / w, force_drop=2 * (mu_s - mu_k) * N)


def coulomb_exact(t, m, k, V, N, mu_s, mu_k):
    """Exact Coulomb trajectory (x, v) at times t, from rest with an unstretched spring."""
    c = coulomb_cycle(m, k, V, N, mu_s, mu_k)
    w, D = np.sqrt(k / m), (mu_s - mu_k) * N / k
    P = c["t_stick"] + c["t_slip"]
    t = np.asarray(t, float)
    x, v = np.zeros_like(t), np.zeros_like(t)
    tau = t - c["t_first"]
    j = np.floor(np.maximum(tau, 0) / P)
    r = tau - j * P
    t0 = c["t_first"] + j * P
    slip = (tau > 0) & (r < c["t_slip"])
    stick = (tau > 0) & ~slip
    s = mu_k * N / k + D * np.cos(w * r) + V / w * np.sin(w * r)
    x[slip] = (V * (t0 + r) - s)[slip]
    v[slip] = (V * (1 - np.cos(w * r)) + D * w * np.sin(w * r))[slip]
    x[stick] = (V * (t0 + c["t_slip"]) - (2 * mu_k - mu_s) * N / k)[stick]
    return x, v


def measured_cycle(r, v_thr=None):
    """Mean stick and slip durations and spring force drop over the steady cycles (after the first slip), and the
    first stick, from a springslider run; v_thr defaults to 1 % of the driver velocity."""
    a = r["attrs"]
    v_thr = v_thr if v_thr is not None else 0.01 * a["v_drive"]
    t, v, f = r["t"], r["v"][:, 0], r["spring"][:, 0]
    s = slips(t, v, v_thr)
    out = dict(t_first=s[0][0] if s else np.nan, slips=len(s))
    steady = [(s[i - 1][1], s[i][0], s[i][1]) for i in range(1, len(s)) if s[i][1] < t[-1]]
    if steady:
        out["t_stick"] = np.mean([b - a_ for a_, b, _ in steady])
        out["t_slip"] = np.mean([c - b for _, b, c in steady])
        out["force_drop"] = np.mean([np.interp(b, t, f) - np.interp(c, t, f) for _, b, c in steady])
    return out


def figure(outdir, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(outdir, exist_ok=True)
    fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    ref, t_max, x_max = None, np.inf, 0.0
    for p in runs:
        r = load(p)
        a = r["attrs"]
        label = f"rigid, {a['friction_law']}"
        if a["friction_law"] == "lugre":
            label += f" (v_s = {a['v_s']:g}, sigma0 = {a['sigma0']:g}, sigma2 = {a['sigma2']:g})"
        elif a["friction_law"] == "coulomb":
            label += f" (mu = {a['mu_k']:g})"
        t_max = min(t_max, r["t"][-1])
        x_max = max(x_max, float(np.max(r["x"][r["t"] <= t_max, 0])))
        ax[0].plot(r["t"], r["x"][:, 0], lw=1.2, label=label)
        ax[1].plot(r["t"], r["friction"][:, 0], lw=1.0, label=label)
        if ref is None and a["mu_s"] > a["mu_k"]:
            ref = r
    if ref is not None:
        a = ref["attrs"]
        t = ref["t"]
        x, v = coulomb_exact(t, a["mass"], a["k_drive"], a["v_drive"], a["normal_force"], a["mu_s"], a["mu_k"])
        F = np.where(v > 0, a["mu_k"] * a["normal_force"], a["k_drive"] * (a["v_drive"] * t - x))
        ax[0].plot(t, x, "k--", lw=0.8, label="exact Coulomb (mu_s, mu_k)")
        ax[1].plot(t, F, "k--", lw=0.8, label="exact Coulomb (mu_s, mu_k)")
    ax[1].set_xlim(0, t_max)
    ax[0].set_ylim(-0.03 * x_max, 1.1 * x_max)
    ax[0].set_ylabel("displacement (m)")
    ax[1].set_ylabel("friction force (N)")
    ax[1].set_xlabel("t (s)")
    ax[0].legend(fontsize=8)
    ax[0].set_title("Rigid spring-slider (cf. Fig. 6, rigid case)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "bk-springslider-rigid.png"), dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "figure":
        figure(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "cycle":
        r = load(sys.argv[2])
        a = r["attrs"]
        print("measured", measured_cycle(r))
        print("exact   ", coulomb_cycle(a["mass"], a["k_drive"], a["v_drive"], a["normal_force"], a["mu_s"], a["mu_k"]))
    else:
        print(__doc__)
        sys.exit(2)
