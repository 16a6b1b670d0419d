"""Post-processing of the rough-plate campaign (inputs/rough3d/, <campaign> solver; section 4 of the LuGre/mortar paper):
the figures and the table of docs/validation/rough3d.md.

    python3 -m postproc.rough3d figures OUTDIR FIGDIR    # fig17-surface.png, fig18-sticking.png, fig19-cof.png,
                                                         # rough3d-area.png, rough3d-convergence.png
    python3 -m postproc.rough3d table OUTDIR             # markdown table of the statistics per correlation length
    python3 -m postproc.rough3d compare FE_OUTDIR IGA_OUTDIR [FIGDIR]
                                                         # FE against IGA on the same realisations: markdown table
                                                         # (and rough3d-fe-iga.png in FIGDIR)
    python3 -m postproc.rough3d kappa OUTDIR... [FIGDIR] # real contact area against load (inputs/rough3d/kappa-*.xml,
                                                         # run with -campaign_record_nodal): g, E*, a_r(p), fitted kappa
                                                         # per mesh, markdown table (and rough3d-kappa.png in FIGDIR)

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
          "high-sticking area, ratio > 0.5 (mean +- 95 %) | "
          "COF, 2nd half (mean +- 95 %) | contact area, 2nd half (mean +- 95 %) | mean ratio across y at x = 0 / L/2 / L | "
          "campaign core-s per realisation (wall x ranks) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
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
            hi = band([np.mean(r["sticking_time_ratio"] > 0.5) for r in R])  # the paper's "area of high sticking"
            c = band([np.mean(r["cof"][half]) for r in R])
            ar = band([np.mean(r["contact_area_fraction"][half]) for r in R])
            mean_map = np.mean([r["sticking_time_ratio"] for r in R], axis=0)
            xs, prof = x_profile(R[0]["x"], mean_map)
            at = [prof[np.argmin(np.abs(xs - v))] for v in (xs[0], 0.5 * (xs[0] + xs[-1]), xs[-1])]
            core = np.mean([r["attrs"]["core_seconds"] for r in R])
            row[name] = dict(R=R, t=t, map=mean_map, xs=xs, prof=prof, cof=band([r["cof"] for r in R]))
            print("| %g | %s | %d | %.4f +- %.4f | %s | %.3f +- %.3f | %.4f +- %.4f | %.3f +- %.3f | %.2f / %.2f / %.2f | %.1f |" % (
                lc, name, len(R), g[0], g[1], ("%+.4f +- %.4f" % diff) if name == "IGA" else "", hi[0], hi[1], c[0], c[1], ar[0],
                ar[1], at[0], at[1], at[2], core))
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


# ---- real contact area against load (inputs/rough3d/kappa-*.xml) ----

KAPPA_FIT = (0.02, 0.10)  # the small-area range of the fit: real contact area fraction a_r from 2 % to 10 %
KAPPA_MARGIN = 0.125  # the inner region keeps this far (m; 2 l_c of the kappa inputs) from the edges of the face
KAPPA_REFERENCES = ((np.sqrt(8 / np.pi), "Persson sqrt(8/pi)"), (2.0, "BEM/GFMD about 2"), (np.sqrt(2 * np.pi), "BGT sqrt(2 pi)"))


def spline_surface(heights, lengths=(1.0, 1.0), fine=16):
    """The finite-element path's surface (docs/theory.md, "Bicubic B-spline surface"): the bicubic interpolant of the
    n x n samples HEIGHTS on the averaged (for uniform samples: the sample parameters 2 .. n - 3) clamped knots, on a
    grid of FINE points per sample interval over [0, Lx] x [0, Ly]: (xf, yf, s[j, i]) with y along the first index."""
    n = int(round(np.sqrt(len(heights))))
    h = np.reshape(heights, (n, n))
    t = [0.0] * 4 + [(j + 1) / (n - 1) for j in range(1, n - 3)] + [1.0] * 4
    xs, uf = np.arange(n) / (n - 1), np.arange(fine * (n - 1) + 1) / (fine * (n - 1))
    N = bspline_basis(t, xs)
    C = np.linalg.solve(N, np.linalg.solve(N, h).T).T  # along y (rows), then along x
    F = bspline_basis(t, uf)
    return lengths[0] * uf, lengths[1] * uf, F @ C @ F.T


def rms_gradient(x, y, s):
    """RMS of |grad s| over the grid (x, y, s[j, i]): second-order differences, the mean over the grid points."""
    sy, sx = np.gradient(s, y, x)
    return float(np.sqrt(np.mean(sx ** 2 + sy ** 2)))


def study_parameters(outdir):
    """E (Pa), nu, the penalty (Pa/m) and the side lengths (m) of the study of the campaign that wrote OUTDIR, read from
    its input (the path results.h5 records, relative to the directory it ran in: tried from the working directory
    and from the repository root)."""
    import xml.etree.ElementTree as ET

    with h5py.File(os.path.join(outdir, "results.h5"), "r") as f:
        name = f["meta"].attrs["input_file"]
        name = name.decode() if isinstance(name, bytes) else str(name)
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = next((p for p in (name, os.path.join(root_dir, name)) if os.path.exists(p)), None)
    if path is None:
        raise FileNotFoundError("%s: the campaign input %s is not found from here or from %s" % (outdir, name, root_dir))
    study = os.path.join(os.path.dirname(path), ET.parse(path).getroot().find("study").get("file"))
    root = ET.parse(study).getroot()
    block, contact, box = root.find("block"), root.find("contact"), root.find("mesh/box")
    lower, upper = [float(v) for v in box.get("lower").split()], [float(v) for v in box.get("upper").split()]
    return {"E": float(block.get("E")), "nu": float(block.get("nu")), "penalty": float(contact.get("penalty")),
            "lengths": (upper[0] - lower[0], upper[1] - lower[1]), "lower": lower[:2], "study": study}


def kappa_fit(a, p, lo=KAPPA_FIT[0], hi=KAPPA_FIT[1]):
    """kappa' = sum a p / sum p^2 over the rows with LO <= a <= HI: the least-squares slope through the origin of a
    against p (p already in units of g E*), and the number of rows used (nan and 0 without rows in the range)."""
    m = (a >= lo) & (a <= hi)
    return (float(np.sum(a[m] * p[m]) / np.sum(p[m] ** 2)) if m.any() else float("nan")), int(m.sum())


def kappa_mesh(outdir, margin=KAPPA_MARGIN):
    """Everything the kappa table and figure need from one mesh's campaign (realisation 0)."""
    par = study_parameters(outdir)
    r = realisation(outdir, 0)
    if "normal_force_nodes" not in r:
        raise KeyError("%s: no normal_force_nodes: run the campaign with -campaign_record_nodal" % outdir)
    Lx, Ly = par["lengths"]
    x, y = r["x"] - par["lower"][0], r["y"] - par["lower"][1]
    nx = len(np.unique(np.round(x, 9)))
    h = Lx / (nx - 1)
    # the nodes' tributary areas on the uniform grid of the face (the mortar weights of a flat H8 face)
    w = h * h * np.where(np.isclose(x, 0) | np.isclose(x, Lx), 0.5, 1) * np.where(np.isclose(y, 0) | np.isclose(y, Ly), 0.5, 1)
    fn = r["normal_force_nodes"]
    touching = fn > 0
    estar = par["E"] / (1 - par["nu"] ** 2)
    xf, yf, s = spline_surface(r["heights"], (Lx, Ly))
    g = rms_gradient(xf, yf, s)
    # the mesh's own face: its nodes' heights (the surface lowered by its minimum over them), bilinear between them
    zg = np.zeros((nx, nx))
    zg[np.rint(y / h).astype(int), np.rint(x / h).astype(int)] = r["z"]
    # |grad|^2 averaged over each bilinear element: dz/dx varies linearly across it between its two x edges' differences
    # a and b, so its mean square is (a^2 + a b + b^2) / 3 (likewise dz/dy)
    ax, bx = (zg[:-1, 1:] - zg[:-1, :-1]) / h, (zg[1:, 1:] - zg[1:, :-1]) / h
    ay, by = (zg[1:, :-1] - zg[:-1, :-1]) / h, (zg[1:, 1:] - zg[:-1, 1:]) / h
    g_mesh = float(np.sqrt(np.mean((ax ** 2 + ax * bx + bx ** 2 + ay ** 2 + ay * by + by ** 2) / 3)))
    inner = (x >= margin) & (x <= Lx - margin) & (y >= margin) & (y <= Ly - margin)
    a_in = (touching[:, inner] * w[inner]).sum(axis=1) / w[inner].sum()
    p_in = fn[:, inner].sum(axis=1) / w[inner].sum()
    a_all = (touching * w).sum(axis=1) / w.sum()
    p_all = r["normal_force"] / (Lx * Ly)
    pen = np.where(touching, fn / (par["penalty"] * w), 0.0)  # nodal penetration fn / (eps_N w_a) (m)
    rms = float(r["rms"])
    d = {"outdir": outdir, "h": h, "nodes": nx, "lc": float(r["correlation_length"]), "rms": rms, "g": g, "g_mesh": g_mesh,
         "g_gauss": 2 * rms / float(r["correlation_length"]), "estar": estar, "time": r["time"], "a_in": a_in, "p_in": p_in,
         "a_all": a_all, "p_all": p_all, "a_campaign": r["contact_area_fraction"], "wall": float(r["wall_time"]),
         "steps": int(r["steps"]), "dt": float(r["dt"]), "dofs": int(r["dofs"]), "n_inner": int(inner.sum()),
         "inner_touching": touching[:, inner].sum(axis=1)}
    for key in ("in", "all"):
        d["kappa_" + key], d["rows_" + key] = kappa_fit(d["a_" + key], d["p_" + key] / (g * estar))
    m = (a_in >= KAPPA_FIT[0]) & (a_in <= KAPPA_FIT[1])
    d["pen_mean"] = float(np.sum(pen[m][:, inner] * w[inner]) / np.sum(touching[m][:, inner] * w[inner])) / rms if m.any() else np.nan
    d["pen_max"] = float(np.max(pen[m][:, inner])) / rms if m.any() else np.nan
    # the mapped face against this spline: node z = s(x, y) - min over the nodes
    sn = spline_at(r["heights"], (Lx, Ly), x, y)
    d["spline_at_nodes_err"] = float(np.max(np.abs((sn - np.min(sn)) - r["z"])))
    return d


def spline_at(heights, lengths, x, y):
    """The bicubic interpolant of HEIGHTS (as spline_surface()) at the points (x, y)."""
    n = int(round(np.sqrt(len(heights))))
    h = np.reshape(heights, (n, n))
    t = [0.0] * 4 + [(j + 1) / (n - 1) for j in range(1, n - 3)] + [1.0] * 4
    N = bspline_basis(t, np.arange(n) / (n - 1))
    C = np.linalg.solve(N, np.linalg.solve(N, h).T).T
    Bx, By = bspline_basis(t, np.clip(x / lengths[0], 0, 1)), bspline_basis(t, np.clip(y / lengths[1], 0, 1))
    return np.einsum("pj,ji,pi->p", By, C, Bx)


def kappa(outdirs, figdir=None):
    """The kappa study: a table row per mesh (markdown on stdout) and, with FIGDIR, rough3d-kappa.png."""
    meshes = sorted((kappa_mesh(o) for o in outdirs), key=lambda d: d["h"], reverse=True)
    d0 = meshes[0]
    print("RMS %.3g m, l_c %.4g m, g of the spline %.5f (Gaussian closed form 2 RMS / l_c = %.5f), E* = %.6g Pa; "
          "fit over %g <= a_r <= %g, inner region %g m from the edges" % (d0["rms"], d0["lc"], d0["g"], d0["g_gauss"], d0["estar"],
                                                                         KAPPA_FIT[0], KAPPA_FIT[1], KAPPA_MARGIN))
    print()
    print("| mesh (cells per side) | elements per l_c | g of the mesh's face / g | kappa, inner region | rows in fit | contact nodes in "
          "the inner region at a_r = 2 % / 10 % | kappa, whole face | mean / largest penetration over RMS (fit range) | steps, dt (s) | "
          "wall time (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in meshes:
        n_at = [int(round(a * d["n_inner"])) for a in KAPPA_FIT]
        print("| %d | %.0f | %.3f | %.3f | %d | %d / %d | %.3f | %.3f / %.3f | %d, %.3g | %.0f |" % (
            d["nodes"] - 1, d["lc"] / d["h"], d["g_mesh"] / d["g"], d["kappa_in"], d["rows_in"], n_at[0], n_at[1], d["kappa_all"],
            d["pen_mean"], d["pen_max"], d["steps"], d["dt"], d["wall"]))
    for d in meshes:
        print("  %s: the mapped nodes against the spline of the samples: largest difference %.2e m" % (d["outdir"], d["spline_at_nodes_err"]),
              file=sys.stderr)
    if not figdir:
        return meshes
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(figdir, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    pmax = 0
    for i, d in enumerate(meshes):
        q = d["p_in"] / (d["g"] * d["estar"])
        pmax = max(pmax, float(np.max(q[d["a_in"] <= 0.2])) if np.any(d["a_in"] <= 0.2) else 0)
        lab = "%d x %d (%.0f per l_c): kappa %.2f" % (d["nodes"] - 1, d["nodes"] - 1, d["lc"] / d["h"], d["kappa_in"])
        axes[0].plot(q, d["a_in"], "o", ms=2.5, color="C%d" % i, label=lab)
        ok = (q > 0) & (d["a_in"] > 0)
        axes[1].plot(d["a_in"][ok], d["a_in"][ok] / q[ok], "-o", ms=2.5, lw=0.8, color="C%d" % i, label=lab)
    qq = np.linspace(0, pmax, 2)
    for k, (val, name) in enumerate(KAPPA_REFERENCES):
        axes[0].plot(qq, val * qq, ":", color="0.%d" % (2 + 3 * k), label="%s = %.2f" % (name, val))
        axes[1].axhline(val, ls=":", color="0.%d" % (2 + 3 * k), label="%s = %.2f" % (name, val))
    for a in KAPPA_FIT:
        axes[1].axvline(a, color="0.8", lw=0.8)
    axes[0].set_xlim(0, pmax)
    axes[0].set_ylim(0, 0.2)
    axes[0].set_xlabel("p / (g E*)")
    axes[0].set_ylabel("real contact area fraction a_r")
    axes[0].set_title("inner region (%g m from the edges)" % KAPPA_MARGIN)
    axes[0].legend(fontsize=7)
    axes[1].set_xlim(0, 0.2)
    axes[1].set_ylim(0, 5)
    axes[1].set_xlabel("a_r")
    axes[1].set_ylabel("a_r g E* / p")
    axes[1].set_title("local kappa (fit range between the grey lines)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "rough3d-kappa.png"), dpi=110)
    plt.close(fig)
    print("figure in", os.path.join(figdir, "rough3d-kappa.png"))
    return meshes


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) >= 5 else None)
    elif len(sys.argv) >= 3 and sys.argv[1] == "kappa":
        dirs = sys.argv[2:]
        figdir = None if os.path.exists(os.path.join(dirs[-1], "results.h5")) else dirs.pop()
        kappa(dirs, figdir)
    else:
        sys.exit(__doc__)
