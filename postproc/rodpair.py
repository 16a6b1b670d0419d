"""Figures of the rodpair study (Tsetas et al. 2022) from results.h5, in the kinds the paper shows.

    python3 -m postproc.rodpair figures RESULTS.h5 OUTDIR [NAME]     space-time map, sections, relative velocity
    python3 -m postproc.rodpair compare A.h5 B.h5 OUTDIR NAME          sections of two runs (e.g. MMM vs RK45)
    python3 -m postproc.rodpair convergence OUTDIR CASE=DIR ...        R = L2_i / L2_final versus N and N_m
    python3 -m postproc.rodpair summary RESULTS.h5                     stick fraction per section, offsets, counts

The convergence command reads runs named <DIR>/N<nodes>_M<modes>/results.h5 (written by
postproc/rodpair_convergence.py) and writes a figure and a markdown table.
"""
import glob
import os
import re
import sys

import numpy as np

from postproc.results import Results

SECTIONS = [("u1_0", "z1 = 0"), ("u1_L/3", "z1 = L1/3"), ("u1_2L/3", "z1 = 2L1/3"), ("u1_L", "z1 = L1")]
STICK = 3  # SKRodNodeState SK_ROD_STICK


def load(path):
    """dict with t, z1, u1 (nt x ng), vrel, state (nt x N), sections (dict by column), energy, attrs"""
    r = Results(path)
    d = {k: r.array("rodpair/" + k) for k in ("time", "z1", "u1", "vrel", "state", "z1_nodes")}
    for name in ("sections", "energy"):
        d[name] = r.history("rodpair/" + name).asdict()
    d["attrs"] = r.attrs("rodpair")
    return d


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure_objects(path, name):
    """[(file name, Figure)]: space-time map of u1, time signatures at the four sections, relative velocity at 2L/3 and L"""
    plt = _plt()
    d = load(path)
    figs = []
    L1 = d["z1"][-1]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    m = ax.pcolormesh(d["time"], d["z1"] / L1, 1e3 * d["u1"].T, shading="auto", cmap="Greys")
    ax.invert_yaxis()
    ax.set_xlabel("t (s)")
    ax.set_ylabel("z1 / L1")
    fig.colorbar(m, ax=ax, label="u1 (mm)")
    ax.set_title(f"{name}: displacement u1(z1, t)")
    fig.tight_layout()
    figs.append((f"{name}-spacetime.png", fig))

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for col, label in SECTIONS:
        ax.plot(d["sections"]["t"], 1e3 * d["sections"][col], label=label, gid=col)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("u1 (mm)")
    ax.legend(fontsize=8)
    ax.set_title(f"{name}: displacement at four sections")
    fig.tight_layout()
    figs.append((f"{name}-sections.png", fig))

    fig, axs = plt.subplots(2, 1, figsize=(6.4, 4.4), sharex=True)
    for ax, col, label in zip(axs, ("vrel_2L/3", "vrel_L"), ("z1 = 2L1/3", "z1 = L1")):
        ax.plot(d["sections"]["t"], 1e3 * d["sections"][col], lw=0.8, gid=col)
        ax.set_ylabel("v1 - v2 (mm/s)")
        ax.set_title(label, fontsize=9)
    axs[-1].set_xlabel("t (s)")
    fig.suptitle(f"{name}: relative velocity")
    fig.tight_layout()
    figs.append((f"{name}-vrel.png", fig))
    return figs


def figures(path, outdir, name=None):
    """space-time map of u1, time signatures at the four sections, relative velocity at 2L/3 and L, as PNG files in OUTDIR"""
    from postproc.figures import write

    return write(figure_objects(path, name or os.path.basename(os.path.dirname(os.path.abspath(path)))), outdir)


def compare(path_a, path_b, outdir, name):
    """the four sections of two runs on top of each other, with their relative L2 differences"""
    plt = _plt()
    a, b = load(path_a), load(path_b)
    la, lb = a["attrs"].get("solver", "a"), b["attrs"].get("solver", "b")
    fig, axs = plt.subplots(2, 2, figsize=(7.2, 5.0), sharex=True)
    out = {}
    for ax, (col, label) in zip(axs.flat, SECTIONS):
        ua, ub = a["sections"][col], b["sections"][col]
        out[col] = float(np.linalg.norm(ua - ub) / np.linalg.norm(ub))
        ax.plot(b["sections"]["t"], 1e3 * ub, "k-", lw=1.5, label=lb)
        ax.plot(a["sections"]["t"], 1e3 * ua, "r--", lw=1.0, label=la)
        ax.set_title(f"{label}: rel. L2 diff {out[col]:.1e}", fontsize=9)
        ax.set_ylabel("u1 (mm)")
    axs[0, 0].legend(fontsize=8)
    for ax in axs[-1]:
        ax.set_xlabel("t (s)")
    fig.tight_layout()
    os.makedirs(outdir, exist_ok=True)
    f = os.path.join(outdir, f"{name}.png")
    fig.savefig(f, dpi=120)
    plt.close(fig)
    return f, out


def summary(path):
    """numbers the validation page quotes: stick fraction per section, final offsets, counts, energy balance"""
    d = load(path)
    s = {}
    for col, label in SECTIONS:
        key = col.replace("u1", "state")
        s[f"stick fraction at {label}"] = float(np.mean(d["sections"][key] == STICK))
        s[f"u1 at {label}, final (mm)"] = float(1e3 * d["sections"][col][-1])
    s["events"] = int(d["attrs"]["events"])
    s["energy balance / work"] = float(d["attrs"]["energy_balance_relative"])
    s["wall time (s)"] = float(d["attrs"]["wall_time"])
    return s


def _tip(path):
    d = load(path)
    return d["sections"]["t"], d["sections"]["u1_L"]


def _l2(t, u):
    return float(np.sqrt(np.trapz(u**2, t)))


def convergence_stats(run, final):
    """(R, relative L2 difference) of the tip history RUN = (t, u) against the FINAL one: R = L2 / L2_final (the paper's
    ratio, L2 the time integral of u^2) and |u - u_final| / |u_final| over the output times (a stricter measure)."""
    (t, u), (tf, uf) = run, final
    diff = float(np.linalg.norm(u - uf) / np.linalg.norm(uf)) if len(u) == len(uf) else float("nan")
    return _l2(t, u) / _l2(tf, uf), diff


def convergence(outdir, cases):
    """cases: list of (label, dir with N<n>_M<m> runs). R = L2_i / L2_final of the tip history (the paper's ratio) and the
    relative L2 difference of the tip history to the final run (a stricter measure); final = largest N and N_m"""
    plt = _plt()
    os.makedirs(outdir, exist_ok=True)
    fig, axs = plt.subplots(1, 2, figsize=(8.0, 3.4))
    rows = []
    for label, d in cases:
        runs = {}
        for p in glob.glob(os.path.join(d, "N*_M*", "results.h5")):
            m = re.search(r"N(\d+)_M(\d+)", p)
            runs[(int(m.group(1)), int(m.group(2)))] = _tip(p)
        if not runs:
            continue
        nmax, mmax = max(k[0] for k in runs), max(k[1] for k in runs)
        if (nmax, mmax) not in runs:
            continue

        def stats(key):
            return convergence_stats(runs[key], runs[(nmax, mmax)])

        ns = sorted(k[0] for k in runs if k[1] == mmax)
        ms = sorted(k[1] for k in runs if k[0] == nmax)
        axs[0].plot(ns, [stats((n, mmax))[0] for n in ns], "o-", label=label)
        axs[1].plot(ms, [stats((nmax, m))[0] for m in ms], "o-", label=label)
        for n in ns:
            rows.append((label, n, mmax) + stats((n, mmax)))
        for m in ms:
            if m != mmax:
                rows.append((label, nmax, m) + stats((nmax, m)))
    for ax, xl in zip(axs, ("N (nodes of rod 1)", "N_m (modes of rod 2)")):
        ax.axhspan(0.99, 1.01, color="0.9")
        ax.set_xlabel(xl)
        ax.set_ylabel("R = L2_i / L2_final (tip)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    f = os.path.join(outdir, "convergence.png")
    fig.savefig(f, dpi=120)
    plt.close(fig)
    table = ["| case | N | N_m | R = L2_i / L2_final | relative L2 difference to final |", "|---|---|---|---|---|"]
    table += [f"| {c} | {n} | {m} | {r:.4f} | {e:.2e} |" for c, n, m, r, e in rows]
    with open(os.path.join(outdir, "convergence.md"), "w") as fh:
        fh.write("\n".join(table) + "\n")
    return f, table


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "figures":
        for f in figures(argv[2], argv[3], argv[4] if len(argv) > 4 else None):
            print(f)
    elif cmd == "compare":
        f, out = compare(argv[2], argv[3], argv[4], argv[5])
        print(f, out)
    elif cmd == "convergence":
        f, table = convergence(argv[2], [tuple(a.split("=", 1)) for a in argv[3:]])
        print(f)
        print("\n".join(table))
    elif cmd == "summary":
        for k, v in summary(argv[2]).items():
            print(f"{k:40s} {v}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
