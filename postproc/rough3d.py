"""Post-processing of the rough-plate campaign (inputs/rough3d/, <campaign> solver; section 4 of the LuGre/mortar paper):
the figures and the table of docs/validation/rough3d.md.

    python3 -m postproc.rough3d figures OUTDIR FIGDIR    # fig17-surface.png, fig18-sticking.png, fig19-cof.png,
                                                         # rough3d-area.png, rough3d-convergence.png
    python3 -m postproc.rough3d table OUTDIR             # markdown table of the statistics per correlation length

OUTDIR is the campaign's output directory: results.h5 with the aggregated statistics under /campaign/lc_<i> and the
per-realisation files in OUTDIR/realisations (layout in docs/output.md).
"""
import glob
import os
import sys

import h5py
import numpy as np


def load(outdir):
    """List of dicts, one per correlation length: 'lc', 'count' (realisations asked for), 'finished' (those the aggregate
    is over: a failed realisation is left out, /campaign_failures), 'x', 'y', 'time' and the aggregated arrays
    (NAME_mean, NAME_std, NAME_ci_low, NAME_ci_high for sticking_time_ratio, cof, contact_area_fraction and
    global_sticking_time_ratio), 'convergence' (n, mean, std, ci95 half-width), 'core_s' per realisation."""
    out = []
    with h5py.File(os.path.join(outdir, "results.h5"), "r") as f:
        g = f["campaign"]
        for name in sorted(g, key=lambda s: int(s.split("_")[1])):
            d = {k: g[name][k][()] for k in g[name]}
            d["lc"] = float(g[name].attrs["correlation_length"])
            d["count"] = int(g[name].attrs["count"])
            d["finished"] = int(g[name].attrs.get("finished", d["count"]))
            d["core_s"] = float(g[name].attrs.get("core_seconds_per_realisation", float("nan")))  # absent: none finished
            d["index"] = int(name.split("_")[1])
            out.append(d)
    return out


def realisation(outdir, task):
    """Arrays and attributes of realisation file TASK."""
    with h5py.File(os.path.join(outdir, "realisations", "realisation_%05d.h5" % task), "r") as f:
        d = {k: f[k][()] for k in f}
        d.update({k: f.attrs[k] for k in f.attrs})
    return d


def first_finished(outdir, s):
    """The first realisation of correlation length S (a load() entry) that finished (has its file)."""
    for k in range(s["count"]):
        if os.path.exists(os.path.join(outdir, "realisations", "realisation_%05d.h5" % (s["index"] * s["count"] + k))):
            return k
    raise FileNotFoundError("no realisation of l_c = %g m finished" % s["lc"])


def figures(outdir, figdir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(figdir, exist_ok=True)
    stats = [s for s in load(outdir) if s["finished"]]  # a correlation length whose realisations all failed has no statistics
    n = len(stats)

    # Fig. 17: one realisation per l_c, the bottom face of the mesh (nodes mapped onto the surface), heights in um
    fig = plt.figure(figsize=(4.2 * n, 3.6))
    for i, s in enumerate(stats):
        k = first_finished(outdir, s)
        r = realisation(outdir, s["index"] * s["count"] + k)
        ax = fig.add_subplot(1, n, i + 1, projection="3d")
        ax.plot_trisurf(r["x"], r["y"], 1e6 * r["z"], cmap="viridis", linewidth=0)
        ax.set_title("l_c = %g m (realisation %d)" % (s["lc"], k))
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_zlabel("z (um)")
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "fig17-surface.png"), dpi=110)
    plt.close(fig)

    # Fig. 18: mean and standard deviation of the sticking-time ratio over the bottom face
    fig, axes = plt.subplots(2, n, figsize=(4.2 * n, 7), squeeze=False)
    smax = max(float(np.max(s["sticking_time_ratio_std"])) for s in stats) or 1
    for i, s in enumerate(stats):  # one colour scale per row, so that the correlation lengths compare
        for row, (key, label, vmax) in enumerate((("sticking_time_ratio_mean", "mean", 1), ("sticking_time_ratio_std", "std", smax))):
            ax = axes[row][i]
            c = ax.tricontourf(s["x"], s["y"], s[key], levels=np.linspace(0, vmax, 21), cmap="jet", extend="max")
            fig.colorbar(c, ax=ax)
            ax.set_aspect("equal")
            ax.set_title("l_c = %g m: %s (%d realisations)" % (s["lc"], label, s["finished"]))
            ax.set_xlabel("x (m)")
            ax.set_ylabel("y (m)")
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "fig18-sticking.png"), dpi=110)
    plt.close(fig)

    # Fig. 19: global COF, mean with the spread (+- one standard deviation) and the 95 % band of the mean
    for key, name, label in (("cof", "fig19-cof.png", "global COF"), ("contact_area_fraction", "rough3d-area.png", "real contact area fraction")):
        fig, axes = plt.subplots(n, 1, figsize=(7, 2.4 * n), sharex=True, squeeze=False)
        for i, s in enumerate(stats):
            ax = axes[i][0]
            t, m, sd = s["time"], s[key + "_mean"], s[key + "_std"]
            ax.fill_between(t, m - sd, m + sd, color="C0", alpha=0.25, label="mean +- std")
            ax.fill_between(t, s[key + "_ci_low"], s[key + "_ci_high"], color="C1", alpha=0.5, label="95 % band of the mean")
            ax.plot(t, m, "k", lw=0.8, label="mean")
            ax.set_ylabel(label)
            ax.set_title("l_c = %g m, %d realisations" % (s["lc"], s["finished"]))
            ax.legend(fontsize=7, loc="lower right")
        axes[-1][0].set_xlabel("t (s)")
        fig.tight_layout()
        fig.savefig(os.path.join(figdir, name), dpi=110)
        plt.close(fig)

    # convergence of the global sticking-time ratio with the number of realisations
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for i, s in enumerate(stats):
        c = s["convergence"]
        ax.plot(c[:, 0], c[:, 1], "-o", ms=3, color="C%d" % i, label="l_c = %g m" % s["lc"])
        ax.fill_between(c[:, 0], c[:, 1] - c[:, 3], c[:, 1] + c[:, 3], color="C%d" % i, alpha=0.2)
    ax.set_xlabel("realisations")
    ax.set_ylabel("global sticking-time ratio (running mean, 95 %)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "rough3d-convergence.png"), dpi=110)
    plt.close(fig)
    print("figures in", figdir)


def table(outdir):
    stats = load(outdir)
    print("| l_c (m) | realisations | global sticking-time ratio (mean +- 95 %) | its std | area with mean ratio > 0.5 | "
          "mean std of the nodal ratio | COF, 2nd half (mean) | COF std in time, 2nd half (mean curve) | contact area, 2nd half | core-s per realisation |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in stats:
        if not s["finished"]:
            print("| %g | 0 of %d: all failed (/campaign_failures) | | | | | | | | |" % (s["lc"], s["count"]))
            continue
        c = s["convergence"][-1]
        half = s["time"] >= 0.5 * s["time"][-1]
        print("| %g | %s | %.4f +- %.4f | %.4f | %.3f | %.4f | %.4f | %.2e | %.3f | %.1f |" % (
            s["lc"], "%d" % s["finished"] if s["finished"] == s["count"] else "%d of %d" % (s["finished"], s["count"]), c[1], c[3], c[2], np.mean(s["sticking_time_ratio_mean"] > 0.5), np.mean(s["sticking_time_ratio_std"]),
            np.mean(s["cof_mean"][half]), np.std(s["cof_mean"][half]), np.mean(s["contact_area_fraction_mean"][half]), s["core_s"]))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
