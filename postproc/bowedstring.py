"""Figures and numbers of the bowedstring study (Szalai 2013) for docs/validation/bowedstring.md:
Fig. V.2 (a-c) contact displacement, velocity and friction force of the reduced and full models, (d) the friction
jump at stick onset versus N; Fig. III.2 string kernel L1(tau), conservative and damped, and its convergence in N;
Fig. III.3 cantilever kernel, conservative and damped, and its power law near 0. Every curve comes from runs of
the stickslip program. Usage:
    python3 -m postproc.bowedstring [--program build/bin/stickslip] [--out docs/validation/bowedstring]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from postproc.results import Results  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
INPUTS = os.path.join(ROOT, "inputs", "bowedstring")


def run(prog, inp, out, *opts):
    cmd = [prog, "run", os.path.join(INPUTS, inp), "-o", out, "-force", "-quiet", *opts]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}{r.stderr}")
    return Results(os.path.join(out, "results.h5"))


def kernel(prog, tmp, inp, modes, damping, table="kernel"):
    r = run(prog, inp, os.path.join(tmp, f"k-{inp}-{modes}-{damping}"), "-bowedstring_model", "kernel",
            "-bowedstring_modes", str(modes), "-bowedstring_damping", repr(damping))
    k = r.array(f"bowedstring/{table}")
    return k[:, 0], k[:, 1], r.attrs("bowedstring/kernel")


def plot_phases(ax, h, col, color, label):
    """Slip solid, stick dash-dotted (as in the paper's Fig. V.2(c))."""
    t, y, s = h["t"], h[col], h["stick"] > 0.5
    ys, yk = np.where(s, np.nan, y), np.where(s, y, np.nan)
    ax.plot(t, ys, "-", color=color, lw=1, label=f"{label} slip")
    ax.plot(t, yk, "-.", color=color, lw=2, label=f"{label} stick")


def fig_v2abc(prog, tmp, out, inp, name, lines):
    r = run(prog, inp, os.path.join(tmp, name), "-bowedstring_model", "both")
    red, full = r.history("bowedstring/reduced"), r.history("bowedstring/full")
    fig, axs = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for ax, col, lab in zip(axs, ("y1", "y2", "force"), ("(a) displacement y1", "(b) velocity y2", "(c) friction force F")):
        ax.plot(full["t"], full[col], color="tab:red", lw=3, alpha=0.5, label="full model (II.3)")
        plot_phases(ax, red, col, "tab:blue", "reduced (IV.1)")
        ax.set_ylabel(lab)
        ax.grid(alpha=0.3)
    axs[0].legend(fontsize=8, loc="upper right")
    axs[-1].set_xlabel("t")
    a = r.attrs("bowedstring")
    fig.suptitle(f"{inp}: N = {a['modes']}, D = {a['damping']}, dt = {a['dt']}")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"{name}.png"), dpi=110)
    plt.close(fig)
    ev_r, ev_f = r.array("bowedstring/reduced_events"), r.array("bowedstring/full_events")
    lines.append(f"## {name} ({inp}, N = {a['modes']}, D = {a['damping']})\n")
    lines.append("| event | kind | reduced t | full t | full F before | full F after |")
    lines.append("|---|---|---|---|---|---|")
    kinds = {0: "release", 1: "stick onset", 2: "crossing"}
    for i in range(min(len(ev_r), len(ev_f), 12)):
        lines.append(f"| {i} | {kinds[int(ev_f[i, 1])]} | {ev_r[i, 0]:.5f} | {ev_f[i, 0]:.5f} | {ev_f[i, 2]:.4f} | {ev_f[i, 3]:.4f} |")
    for m in ("reduced", "full"):
        at = r.attrs(f"bowedstring/{m}")
        if "period" in at:
            lines.append(f"\n{m}: period {at['period']:.6f}, stick duration {at['stick_duration']:.6f}, solve {at['wall_time']:.3f} s")
        else:
            lines.append(f"\n{m}: no limit cycle in the second half of the run; solve {at['wall_time']:.3f} s")
    lines.append("")


def fig_v2d(prog, tmp, out, lines):
    fig, axs = plt.subplots(1, 2, figsize=(11, 4))
    ns, jumps = [20, 40, 80, 160, 320, 640], []
    for n, c in zip(ns, plt.cm.viridis(np.linspace(0, 0.9, len(ns)))):
        r = run(prog, "section5.xml", os.path.join(tmp, f"jump{n}"), "-bowedstring_model", "full", "-bowedstring_modes", str(n),
                "-bowedstring_dt", "1e-5")
        h, ev = r.history("bowedstring/full"), r.array("bowedstring/full_events")
        onset = ev[ev[:, 1] == 1][0]
        jumps.append(abs(onset[3] - onset[2]))
        sel = (h["t"] > onset[0] - 0.01) & (h["t"] < onset[0] + 0.03)
        t, f, s = h["t"][sel], h["force"][sel], h["stick"][sel] > 0.5
        axs[0].plot(t[~s], f[~s], "-", color=c, label=f"N = {n}")
        axs[0].plot(t[s], f[s], "-.", color=c)
        axs[0].plot([onset[0], onset[0]], [onset[2], onset[3]], "--", color=c, lw=0.8)
    axs[0].set_xlabel("t")
    axs[0].set_ylabel("friction force F (full model)")
    axs[0].set_title("(d) first stick onset: slip (solid), stick (dash-dot), jump (dashed)")
    axs[0].legend(fontsize=8)
    axs[1].loglog(ns, jumps, "o-", label="|F(onset+) - F(onset-)|")
    axs[1].loglog(ns, jumps[0] * ns[0] / np.array(ns), "k:", label="~ 1/N")
    axs[1].set_xlabel("N")
    axs[1].set_ylabel("jump")
    axs[1].legend()
    axs[1].grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig-v2d.png"), dpi=110)
    plt.close(fig)
    lines.append("## Friction jump at the first stick onset, full model (Fig. V.2(d))\n")
    lines.append("| N | jump | N x jump |")
    lines.append("|---|---|---|")
    for n, j in zip(ns, jumps):
        lines.append(f"| {n} | {j:.5f} | {n * j:.2f} |")
    lines.append("")


def _save_kernel_figure(fig, axs, path):
    """Common axes of the kernel figures (III.2, III.3), then save."""
    for ax in axs:
        ax.set_xlabel("tau")
        ax.set_ylabel("[L1(tau)]_2")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_iii2(prog, tmp, out, lines):
    fig, axs = plt.subplots(1, 2, figsize=(11, 4))
    for d, c in ((0.0, "tab:blue"), (0.1, "tab:red")):
        t, l1, a = kernel(prog, tmp, "section5.xml", 2560, d)
        axs[0].plot(t, l1, color=c, lw=0.8, label=f"D = {d} (N = 2560)")
    axs[0].axhline(a["L1_right_limit_closed_form"], color="tab:red", ls=":", lw=0.8, label="(III.30), D = 0.1")
    axs[0].set_title("(a) string, xi* = 0.4, c = 1")
    tref, lref, _ = kernel(prog, tmp, "section5.xml", 20480, 0.1)
    lines.append("## String kernel L1 (Fig. III.2), D = 0.1: RMS difference to N = 20480 over (0, 4]\n")
    lines.append("| N | RMS |")
    lines.append("|---|---|")
    for n, m in zip((20, 40, 80, 160), ("x", "^", "s", "o")):
        t, l1, _ = kernel(prog, tmp, "section5.xml", n, 0.1)
        axs[1].plot(t, l1, marker=m, markevery=80, ms=4, lw=0.8, label=f"N = {n}")
        lines.append(f"| {n} | {np.sqrt(np.mean((l1 - lref) ** 2)):.3e} |")
    axs[1].plot(tref, lref, "k", lw=0.5, label="N = 20480")
    axs[1].set_title("(b) truncations, D = 0.1")
    _save_kernel_figure(fig, axs, os.path.join(out, "fig-iii2.png"))
    lines.append(f"\nClosed form (III.30) for D = 0.1: {a['L1_right_limit_closed_form']:.7f}\n")


def fig_iii3(prog, tmp, out, lines):
    fig, axs = plt.subplots(1, 2, figsize=(11, 4))
    lines.append("## Cantilever kernel near 0 (Fig. III.3(b)): local exponent p of L1 ~ tau^p\n")
    lines.append("| D | tau range | p |")
    lines.append("|---|---|---|")
    for d, c in ((0.0, "tab:blue"), (0.02, "tab:red")):
        t, l1, _ = kernel(prog, tmp, "kernel-cantilever.xml", 4000, d)
        axs[0].plot(t, l1, color=c, lw=0.8, label=f"D = {d}")
        tl, ll, _ = kernel(prog, tmp, "kernel-cantilever.xml", 4000, d, "kernel_log")
        axs[1].loglog(tl, np.abs(ll), color=c, lw=0.8, label=f"D = {d}")
        sel = (tl > 1e-4) & (tl < 1e-3)
        p = np.polyfit(np.log(tl[sel]), np.log(np.abs(ll[sel])), 1)[0]
        lines.append(f"| {d} | 1e-4 .. 1e-3 | {p:.3f} |")
    c = np.abs(ll[0]) / np.sqrt(tl[0])
    axs[1].loglog(tl, c * np.sqrt(tl), "k:", label="~ tau^(1/2)")
    axs[0].set_title("(a) cantilever tip, N = 4000")
    axs[1].set_title("(b) near tau = 0")
    _save_kernel_figure(fig, axs, os.path.join(out, "fig-iii3.png"))
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", default=os.environ.get("STICKSLIP", os.path.join(ROOT, "build", "bin", "stickslip")))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "validation", "bowedstring"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="bowedstring_figs_")
    lines = ["# bowedstring: numbers behind the figures (written by `python3 -m postproc.bowedstring`)\n"]
    fig_v2abc(args.program, tmp, args.out, "section5.xml", "fig-v2abc", lines)
    fig_v2abc(args.program, tmp, args.out, "section5-limitcycle.xml", "fig-v2abc-limitcycle", lines)
    fig_v2d(args.program, tmp, args.out, lines)
    fig_iii2(args.program, tmp, args.out, lines)
    fig_iii3(args.program, tmp, args.out, lines)
    with open(os.path.join(args.out, "numbers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
