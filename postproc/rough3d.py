"""Post-processing of the rough-plate campaign (inputs/rough3d/, <campaign> solver; section 4 of the LuGre/mortar paper):
the figures and the table of docs/validation/rough3d.md.

    python3 -m postproc.rough3d figures OUTDIR FIGDIR    # fig17-surface.png, fig18-sticking.png, fig19-cof.png,
                                                         # rough3d-area.png, rough3d-convergence.png
    python3 -m postproc.rough3d table OUTDIR             # markdown table of the statistics per correlation length
    python3 -m postproc.rough3d compare FE_OUTDIR IGA_OUTDIR [FIGDIR]
                                                         # FE against IGA on the same realisations: markdown table
                                                         # (and rough3d-fe-iga.png in FIGDIR)

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


def realisations_by_lc(outdir):
    """The finished realisation files of OUTDIR grouped by correlation length: {lc: {realisation number: dict}} (read
    from the files themselves, so that a campaign still running or stopped part way can be compared too)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(outdir, "realisations", "realisation_*.h5"))):
        with h5py.File(path, "r") as f:
            d = {k: f[k][()] for k in f}  # the nodal sticking_time_ratio; its global value is an attribute
            d["attrs"] = {k: f.attrs[k] for k in f.attrs}
        out.setdefault(float(d["attrs"]["correlation_length"]), {})[int(d["attrs"]["realisation"])] = d
    return out


def band(values, axis=0):
    """Mean and 95 % half-width (normal quantile 1.96, standard deviation n - 1) of VALUES along AXIS."""
    v = np.asarray(values, float)
    n = v.shape[axis]
    return v.mean(axis=axis), (1.96 * v.std(axis=axis, ddof=1) / np.sqrt(n) if n > 1 else np.full(v.mean(axis=axis).shape, np.nan))


def x_profile(x, ratio):
    """RATIO at the contact points averaged across y, per column x: (x, ratio)."""
    x = np.round(x, 9)
    xs = np.unique(x)
    return xs, np.array([np.mean(ratio[x == v]) for v in xs])


def bspline_basis(t, x):
    """The clamped cubic B-spline basis of knot vector T at the points X: array (len(x), len(t) - 4), Cox-de Boor."""
    t, x = np.asarray(t, float), np.atleast_1d(np.asarray(x, float))
    B = np.zeros((len(x), len(t) - 1))
    for k in range(len(t) - 1):  # degree 0, the last non-empty span closed at the right end
        B[:, k] = (t[k] <= x) & ((x < t[k + 1]) | ((x == t[-1]) & (t[k + 1] == t[-1]) & (t[k] < t[k + 1])))
    for p in range(1, 4):
        C = np.zeros((len(x), len(t) - 1 - p))
        for k in range(len(t) - 1 - p):
            if t[k + p] > t[k]:
                C[:, k] += (x - t[k]) / (t[k + p] - t[k]) * B[:, k]
            if t[k + p + 1] > t[k + 1]:
                C[:, k] += (t[k + p + 1] - x) / (t[k + p + 1] - t[k + 1]) * B[:, k + 1]
        B = C
    return B[:, :len(t) - 4]


def surface_difference(heights, fine=8):
    """RMS and largest difference, over a grid of FINE points per sample interval of the unit square, between the two
    bicubic interpolants of the n x n samples HEIGHTS: on the averaged knots (the FE path's surface) and on the uniform
    knots of a patch with n - 3 spans (the IGA path's bottom face); then the same away from the edges (beyond two sample
    intervals of them), where the two knot vectors differ least."""
    n = int(round(np.sqrt(len(heights))))
    h = np.reshape(heights, (n, n))
    xs, xf = np.arange(n) / (n - 1), np.arange(fine * (n - 1) + 1) / (fine * (n - 1))
    surfaces = []
    for t in ([0.0] * 4 + [(j + 1) / (n - 1) for j in range(1, n - 3)] + [1.0] * 4,
              [0.0] * 4 + [j / (n - 3) for j in range(1, n - 3)] + [1.0] * 4):
        N = bspline_basis(t, xs)
        C = np.linalg.solve(N, np.linalg.solve(N, h).T).T  # along y (rows), then along x
        F = bspline_basis(t, xf)
        surfaces.append(F @ C @ F.T)
    d = surfaces[1] - surfaces[0]
    inner = (xf > 2 / (n - 1)) & (xf < 1 - 2 / (n - 1))
    di = d[np.ix_(inner, inner)]
    return np.sqrt(np.mean(d ** 2)), np.max(np.abs(d)), np.sqrt(np.mean(di ** 2)), np.max(np.abs(di))


def compare(fe_dir, iga_dir, figdir=None):
    """FE against IGA on the same realisations (two campaigns with the same roughness, samples, seed and count): for
    every correlation length, the realisations both have finished, paired by their number. Table on stdout; with
    FIGDIR the figure rough3d-fe-iga.png (mean ratio maps, their profiles along x, the global COF with 95 % bands)."""
    fe, iga = realisations_by_lc(fe_dir), realisations_by_lc(iga_dir)
    lcs = sorted(set(fe) & set(iga))
    for lc in sorted(fe):  # the surfaces depend on the samples only: every l_c of the FE campaign
        R = list(fe[lc].values())
        sd = np.array([surface_difference(r["heights"]) for r in R]) / float(R[0]["attrs"]["rms"])
        print("l_c = %g m: the IGA bottom face against the FE path's surface between the samples: RMS difference %.2g RMS, "
              "largest %.2g RMS; beyond two sample intervals from the edges %.2g and %.2g RMS (over %d realisations)" % (
                  lc, np.mean(sd[:, 0]), np.max(sd[:, 1]), np.mean(sd[:, 2]), np.max(sd[:, 3]), len(R)), file=sys.stderr)
    rows = []
    print("| l_c (m) | path | realisations | global sticking-time ratio (mean +- 95 %) | IGA - FE, paired (mean +- 95 %) | "
          "COF, 2nd half (mean +- 95 %) | contact area, 2nd half (mean +- 95 %) | mean ratio across y at x = 0 / L/2 / L | "
          "campaign core-s per realisation (wall x ranks) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for lc in lcs:
        both = sorted(set(fe[lc]) & set(iga[lc]))
        for a, b in zip((fe[lc][k] for k in both), (iga[lc][k] for k in both)):
            if not np.array_equal(a["heights"], b["heights"]):
                sys.exit("l_c = %g m, realisation %d: the two paths have different samples" % (lc, a["attrs"]["realisation"]))
        diff = band([iga[lc][k]["attrs"]["sticking_time_ratio"] - fe[lc][k]["attrs"]["sticking_time_ratio"] for k in both])
        row = {"lc": lc}
        for name, R in (("FE", [fe[lc][k] for k in both]), ("IGA", [iga[lc][k] for k in both])):
            t = R[0]["time"]
            half = t >= 0.5 * t[-1]
            g = band([r["attrs"]["sticking_time_ratio"] for r in R])
            c = band([np.mean(r["cof"][half]) for r in R])
            ar = band([np.mean(r["contact_area_fraction"][half]) for r in R])
            mean_map = np.mean([r["sticking_time_ratio"] for r in R], axis=0)
            xs, prof = x_profile(R[0]["x"], mean_map)
            at = [prof[np.argmin(np.abs(xs - v))] for v in (xs[0], 0.5 * (xs[0] + xs[-1]), xs[-1])]
            core = np.mean([r["attrs"]["core_seconds"] for r in R])
            row[name] = dict(R=R, t=t, map=mean_map, xs=xs, prof=prof, cof=band([r["cof"] for r in R]))
            print("| %g | %s | %d | %.4f +- %.4f | %s | %.4f +- %.4f | %.3f +- %.3f | %.2f / %.2f / %.2f | %.1f |" % (
                lc, name, len(R), g[0], g[1], ("%+.4f +- %.4f" % diff) if name == "IGA" else "", c[0], c[1], ar[0], ar[1],
                at[0], at[1], at[2], core))
        rows.append(row)
    if not figdir or not rows:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(figdir, exist_ok=True)
    n = len(rows)
    fig, axes = plt.subplots(4, n, figsize=(4.2 * n, 13), squeeze=False)
    for i, row in enumerate(rows):
        for k, (name, label) in enumerate((("FE", "FE nodes"), ("IGA", "IGA control points"))):
            d, ax = row[name], axes[k][i]
            c = ax.tricontourf(d["R"][0]["x"], d["R"][0]["y"], d["map"], levels=np.linspace(0, 1, 21), cmap="jet")
            fig.colorbar(c, ax=ax)
            ax.set_aspect("equal")
            ax.set_title("l_c = %g m, %s: mean ratio (%d)" % (row["lc"], label, len(d["R"])), fontsize=9)
        ax = axes[2][i]
        for name, col in (("FE", "C0"), ("IGA", "C3")):
            ax.plot(row[name]["xs"], row[name]["prof"], "-o", ms=3, color=col, label=name)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("mean ratio across y")
        ax.legend(fontsize=8)
        ax = axes[3][i]
        for name, col in (("FE", "C0"), ("IGA", "C3")):
            m, h = row[name]["cof"]
            ax.fill_between(row[name]["t"], m - h, m + h, color=col, alpha=0.3)
            ax.plot(row[name]["t"], m, color=col, lw=0.8, label="%s, mean and 95 %% band" % name)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("global COF")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "rough3d-fe-iga.png"), dpi=100)
    plt.close(fig)
    print("figure in", os.path.join(figdir, "rough3d-fe-iga.png"))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) >= 5 else None)
    else:
        sys.exit(__doc__)
