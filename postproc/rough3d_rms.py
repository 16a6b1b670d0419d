"""The RMS sensitivity study of the rough-plate campaign (inputs/rough3d/rms/, docs/validation/rough3d.md, "How the
results move with the RMS roughness"): one campaign per RMS roughness, each over the same correlation lengths, seed and
count; this module reads their realisation files and tabulates and plots, per RMS and correlation length, the measures
the paper orders the correlation lengths by.

    python3 -m postproc.rough3d_rms table OUTDIR...          # markdown table on stdout, one row per (RMS, l_c)
    python3 -m postproc.rough3d_rms figure FIGDIR OUTDIR...  # rough3d-rms.png: the measures against the RMS
                                                             # (a campaign of RMS 0, the flat plate, as a dashed line)

Every OUTDIR is a campaign's output directory (its realisations/ is what is read, so a campaign still running or
stopped part way can be tabulated; its failure records are counted). Per realisation:
- global sticking-time ratio: the campaign's weighted mean of the nodal ratios (attribute of the file);
- high-sticking area: the share of the contact nodes whose sticking-time ratio exceeds 0.5 (the paper's "area of
  high sticking-time ratio", Fig. 18, read per realisation; the table of the full campaign gives it for the mean
  map, which a column repeats here);
- COF oscillation: the standard deviation in time of the realisation's global COF over the second half (t >= T / 2);
- contact area: the mean real contact area fraction over the second half.
Each is given as the mean over the finished realisations with its 95 % half-width (normal quantile, standard deviation
n - 1). Over the realisations of a cell: the spread of the sticking-time ratio (the paper's Fig. 18, lower row: the
standard deviation (n - 1) over the realisations of each node's ratio, averaged over the nodes, as in the full
campaign's table).
"""
import glob
import os
import sys

import h5py
import numpy as np

from postproc.rough3d import band

MEASURES = (
    ("global", "global sticking-time ratio"),
    ("high", "high-sticking area (ratio > 0.5)"),
    ("cof_osc", "COF oscillation, 2nd half (std in time)"),
    ("area", "contact area fraction, 2nd half"),
)


def read(outdirs):
    """{(rms, lc): {'n': finished, 'failed': failed, measure: per-realisation array, 'map': mean nodal ratio,
    'cof': mean COF, 'core_s': per-realisation core-seconds, 'dt': step}} over the campaigns OUTDIRS."""
    out = {}
    for outdir in outdirs:
        for path in sorted(glob.glob(os.path.join(outdir, "realisations", "*.h5"))):
            with h5py.File(path, "r") as f:
                a = {k: f.attrs[k] for k in f.attrs}
                key = (float(a["rms"]), float(a["correlation_length"]))
                d = out.setdefault(key, {"failed": 0, "global": [], "high": [], "cof_osc": [], "area": [], "maps": [],
                                         "area_rows": [], "cof": [], "core_s": [], "dt": set()})
                if os.path.basename(path).startswith("failed_"):
                    d["failed"] += 1
                    continue
                ratio, t, cof, area = (f[k][()] for k in ("sticking_time_ratio", "time", "cof", "contact_area_fraction"))
            half = t >= 0.5 * t[-1]
            d["global"].append(float(a["sticking_time_ratio"]))
            d["high"].append(float(np.mean(ratio > 0.5)))
            d["cof_osc"].append(float(np.std(cof[half])))
            d["area"].append(float(np.mean(area[half])))
            d["maps"].append(ratio)
            d["area_rows"].append(area)
            d["cof"].append(cof)
            d["core_s"].append(float(a["core_seconds"]))
            d["dt"].add(float(a["dt"]))
    for d in out.values():
        d["n"] = len(d["global"])
    return out


def spread_of(d):
    """The spread of the sticking-time ratio over the realisations of cell D: each node's standard deviation (n - 1),
    averaged over the nodes (nan for fewer than 2 realisations)."""
    return float(np.mean(np.std(d["maps"], axis=0, ddof=1))) if d["n"] > 1 else float("nan")


def table(outdirs):
    data = read(outdirs)
    print("| RMS (um) | l_c (m) | dt (s) | finished (failed) | global sticking-time ratio | high-sticking area | spread "
          "(mean std of the nodal ratio) | COF oscillation, 2nd half | contact area, 2nd half | high-sticking area of "
          "the mean map | core-s per realisation |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (rms, lc), d in sorted(data.items()):
        if d["n"] == 0:
            print("| %g | %g | | 0 (%d) | | | | | | | |" % (rms * 1e6, lc, d["failed"]))
            continue
        cells = []
        for m, _ in MEASURES:
            mean, hw = band(d[m])
            cells.append("%.4f +- %.4f" % (mean, hw))
        spread = spread_of(d)
        mean_map = np.mean(np.mean(d["maps"], axis=0) > 0.5)
        print("| %g | %g | %s | %d (%d) | %s | %s | %.4f | %s | %s | %.3f | %.1f |" % (
            rms * 1e6, lc, " ".join("%g" % s for s in sorted(d["dt"])), d["n"], d["failed"], cells[0], cells[1],
            spread, cells[2], cells[3], mean_map, np.mean(d["core_s"])))


def rms_axis(ax, ticks):
    """A log axis of the RMS (um) labelled at the study's values TICKS."""
    ax.set_xscale("log")
    ax.set_xticks(ticks)
    ax.set_xticklabels(["%g" % t for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("RMS roughness (um)")


def figure(figdir, outdirs):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = read(outdirs)
    flat = [d for (rms, _), d in data.items() if rms == 0 and d["n"] > 0]  # the flat plate: a line, not a point
    data = {k: d for k, d in data.items() if k[0] > 0}
    lcs = sorted({lc for _, lc in data})
    fig, axes = plt.subplots(2, 3, figsize=(13.5, 7.0))
    axes = axes.ravel()
    ticks = sorted({rms * 1e6 for rms, _ in data})
    for i, lc in enumerate(lcs):
        rows = sorted((rms, d) for (rms, l), d in data.items() if l == lc and d["n"] > 0)
        r = np.array([rms for rms, _ in rows]) * 1e6
        for ax, (m, label) in zip(axes, MEASURES):
            mean_hw = [band(d[m]) for _, d in rows]
            ax.errorbar(r, [v for v, _ in mean_hw], yerr=[h for _, h in mean_hw], marker="o", capsize=3,
                        color="C%d" % i, label="l_c = %g m" % lc)
            rms_axis(ax, ticks)
            ax.set_title(label, fontsize=9)
        spreads = [(rms * 1e6, spread_of(d)) for rms, d in rows if d["n"] > 1]
        axes[len(MEASURES)].plot([a for a, _ in spreads], [b for _, b in spreads], marker="o", color="C%d" % i)
    ax = axes[len(MEASURES)]
    rms_axis(ax, ticks)
    ax.set_title("spread: mean std of the nodal ratio over the realisations", fontsize=9)
    for ax, (m, _) in zip(axes, MEASURES):
        for d in flat:
            ax.axhline(np.mean(d[m]), color="0.5", ls="--", lw=1, label="flat plate (RMS 0)")
    axes[0].legend(fontsize=8)
    for ax in axes[len(MEASURES) + 1:]:
        ax.axis("off")
    fig.tight_layout()
    os.makedirs(figdir, exist_ok=True)
    fig.savefig(os.path.join(figdir, "rough3d-rms.png"), dpi=110)
    plt.close(fig)
    print("figure in", os.path.join(figdir, "rough3d-rms.png"))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "figure":
        figure(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
