"""Post-processing of the rigid reference models (solvers "springslider" and "burridgeknopoff", src/dynamics/rigid*.c):
reading their results.h5, stick-slip cycle measurements used by the regression tests, and the figures of
docs/validation/bk.md in the style of the paper's Figs. 12-13:

    python3 -m postproc.bk figures OUTDIR RUN_n3 RUN_n5 RUN_n10 RUN_n15   # bk-n5-local.png, bk-centre.png
    python3 -m postproc.bk check RUN [max_energy_residual]               # prints the summary, fails on a bad balance
"""
import os
import sys
import numpy as np

from postproc.results import Results


def load(path):
    """Dict from a springslider/burridgeknopoff results.h5 (or its directory): 'root', 'attrs', 't', per-block arrays
    'x', 'v', 'friction', 'spring' (rows: times, columns: blocks), 'x_drive', 'centre' and 'energy' column dicts,
    'sticking_time_ratio', 'initial_displacement'."""
    res = Results(path)
    root = "springslider" if res.has("springslider") else "burridgeknopoff"
    r = {"root": root, "attrs": res.attrs(root)}
    x = res.history(root + "/x").data
    r["t"], r["x_drive"], r["x"] = x[:, 0], x[:, 1], x[:, 2:]
    for name in ("v", "friction", "spring", "z"):
        if res.has(root + "/" + name):
            r[name] = res.history(root + "/" + name).data[:, 1:]
    for name in ("centre", "energy"):
        r[name] = res.history(root + "/" + name).asdict()
    r["sticking_time_ratio"] = res.array(root + "/sticking_time_ratio")
    r["initial_displacement"] = res.array(root + "/initial_displacement")
    return r


def slips(t, v, v_thr):
    """(start, end) times of the slips of one block: intervals where v > v_thr (open slips end at t[-1])."""
    moving = v > v_thr
    edges = np.flatnonzero(np.diff(moving.astype(int)))
    out, start = [], (t[0] if moving[0] else None)
    for e in edges:
        if moving[e + 1]:
            start = t[e + 1]
        elif start is not None:
            out.append((start, t[e + 1]))
            start = None
    if start is not None:
        out.append((start, t[-1]))
    return out


def energy_residual(r):
    """max |E - E0 + D - W| / max |W| over the run (the solver's own balance, recomputed from the columns)."""
    e = r["energy"]
    res = e["kinetic"] + e["potential"] + e["friction_work"] - e["work"]
    res -= res[0]
    return float(np.max(np.abs(res)) / max(np.max(np.abs(e["work"])), 1e-300))


def figures(outdir, runs):
    """Fig. 12 analogue (the n = 5 chain block by block: displacement, velocity, friction) and Fig. 13 analogue (mass
    centre displacement for every n) from the given run directories."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(outdir, exist_ok=True)
    data = [load(p) for p in runs]
    five = [d for d in data if d["x"].shape[1] == 5] or data[:1]
    d = five[0]
    fig, ax = plt.subplots(3, 1, figsize=(7, 8), sharex=True)
    for i in range(d["x"].shape[1]):
        ax[0].plot(d["t"], d["x"][:, i], lw=1, label=f"block {i + 1}")
        ax[1].plot(d["t"], d["v"][:, i], lw=1)
        ax[2].plot(d["t"], d["friction"][:, i], lw=1)
    ax[0].plot(d["t"], d["x_drive"], "k--", lw=0.8, label="support")
    ax[0].set_ylabel("displacement (m)")
    ax[1].set_ylabel("velocity (m/s)")
    ax[2].set_ylabel("friction force (N)")
    ax[2].set_xlabel("t (s)")
    ax[0].legend(fontsize=8, ncol=3)
    ax[0].set_title(f"Burridge-Knopoff chain, n = {d['x'].shape[1]}, LuGre (cf. Fig. 12)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "bk-n5-local.png"), dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for d in sorted(data, key=lambda d: d["x"].shape[1]):
        n = d["x"].shape[1]
        ax[0].plot(d["t"], d["centre"]["x_mean"], lw=1, label=f"n = {n}")
        ax[1].plot(d["t"], d["centre"]["cof_global"], lw=0.8, label=f"n = {n}")
    ax[0].plot(data[0]["t"], data[0]["x_drive"], "k--", lw=0.8, label="support")
    ax[0].set_ylabel("mass-centre displacement (m)")
    ax[1].set_ylabel("global COF (1)")
    ax[1].set_xlabel("t (s)")
    ax[0].legend(fontsize=8)
    ax[0].set_title("Burridge-Knopoff chain: mass centre for various n (cf. Fig. 13)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "bk-centre.png"), dpi=120)
    plt.close(fig)


def check(run, max_residual=1e-3):
    """Summary of one run; non-zero exit if the energy balance is worse than max_residual."""
    r = load(run)
    res = energy_residual(r)
    print(f"{r['root']}: n = {r['x'].shape[1]}, t_end = {r['t'][-1]:g} s, energy residual {res:.3e}, "
          f"sticking-time ratio {np.mean(r['sticking_time_ratio']):.4f}")
    return 0 if res <= max_residual else 1


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 1e-3))
    else:
        print(__doc__)
        sys.exit(2)
