"""Post-processing of the bars2020 study (Molenkamp et al. 2020): reading results.h5, the comparison metrics used by
the regression tests (relative L2 difference to the linear equivalent model, the eq. 29 truncation criterion, the
energy balance) and the figures of docs/validation/bars2020.md (`python3 -m postproc.bars2020 figures RUNDIR OUTDIR`)."""
import sys
import os
import numpy as np

from postproc.results import Results


def load(path):
    """Dict of numpy arrays from a bars2020 results.h5 (or its directory): field histories u/v of both bars on the
    field grid (rows: times), point histories, energy columns, and the run's attributes."""
    res = Results(path)
    r = {"attrs": res.attrs("bars2020")}
    for b in ("bar1", "bar2"):
        for q in ("u", "v"):
            h = res.history("bars2020/field/%s_%s" % (b, q))
            r["t"] = h.data[:, 0]
            r["%s_%s" % (b, q)] = h.data[:, 1:]
            if q == "u":
                # column names are like "u(x=2.5)": the positions of the field grid
                r[b + "_x"] = np.array([float(c.split("=")[1].rstrip(")")) for c in h.columns[1:]])
        if res.has("bars2020/" + b):
            r[b + "_points"] = res.history("bars2020/" + b).data
    r["energy"] = res.history("bars2020/energy").asdict()
    return r


def _on_times(a, b, key):
    """a[key] interpolated onto b's output times (runs may use different steps)."""
    A = a[key]
    if A.shape[0] == b[key].shape[0] and np.allclose(a["t"], b["t"]):
        return A
    return np.stack([np.interp(b["t"], a["t"], A[:, j]) for j in range(A.shape[1])], axis=1)


def rel_l2(a, b, key, xmax=None):
    """Relative L2 difference ||a - b|| / ||b|| of field KEY (e.g. 'bar1_v') over the horizon and over the bar
    (points with x <= xmax only, if given), a interpolated onto b's times."""
    A = _on_times(a, b, key)
    B = b[key]
    bar = key.split("_")[0]
    sel = np.ones(B.shape[1], bool) if xmax is None else b[bar + "_x"] <= xmax + 1e-12
    return float(np.linalg.norm(A[:, sel] - B[:, sel]) / np.linalg.norm(B[:, sel]))


def truncation_delta(coarse, fine, bar, xmax=None, arrival=1e-3):
    """Eq. 29: delta(x, t) = |u_0.9N - u_N| / |u_N| on the field grid, restricted to (x, t) after the first wave has
    arrived at x (|u_N| has exceeded ARRIVAL times its maximum over the bar, before which the denominator is zero) and
    to x <= xmax. Returns (t, x, delta with NaN where not defined)."""
    key = bar + "_u"
    A = _on_times(coarse, fine, key)
    B = fine[key]
    x = fine[bar + "_x"]
    arrived = np.maximum.accumulate(np.abs(B), axis=0) > arrival * np.abs(B).max()
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.abs(A - B) / np.abs(B)
    d[~arrived] = np.nan
    if xmax is not None:
        d[:, x > xmax + 1e-12] = np.nan
    return fine["t"], x, d


def energy_residual(r):
    """max |E + D - W| / max |W| over the run (W: load work, D: friction dissipation, E: kinetic + strain)."""
    e = r["energy"]
    return float(np.max(np.abs(e["residual"])) / np.max(np.abs(e["work_load"])))


# ---------------------------------------------------------------- figures

def _plot_family(runs, labels, title, fname, snap_times):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 2, figsize=(11, 7.5))
    names = [("bar1_u", "(a) displacement of bar 1 (m)"), ("bar1_v", "(b) velocity of bar 1 (m/s)"),
             ("bar2_u", "(c) displacement of bar 2 (m)"), ("bar2_v", "(d) velocity of bar 2 (m/s)")]
    styles = ["-", "--", "-.", ":", "-"]
    for k, (key, lab) in enumerate(names):
        a = ax.flat[k]
        bar = key.split("_")[0]
        for ts, col in zip(snap_times, ["C0", "C1", "C2", "C3"]):
            for r, l, s in zip(runs, labels, styles):
                i = int(np.argmin(np.abs(r["t"] - ts)))
                a.plot(r[bar + "_x"], r[key][i], s, color=col, lw=1.6 if l == "linear" else 1.0,
                       label="%s, t = %.3f s" % (l, ts) if k == 0 else None)
        a.set_xlabel("x (m)" if bar == "bar1" else "z (m)")
        a.set_title(lab, fontsize=10)
        a.grid(alpha=0.3)
    ax.flat[0].legend(fontsize=6, ncol=2)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)
    plt.close(fig)


def _plot_points(runs, labels, title, fname):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 2, figsize=(11, 7.5))
    for k, (bar, q) in enumerate([("bar1", "u"), ("bar1", "v"), ("bar2", "u"), ("bar2", "v")]):
        a = ax.flat[k]
        for r, l in zip(runs, labels):
            x = r[bar + "_x"]
            j = int(np.argmin(np.abs(x - (0.0 if bar == "bar1" else 2.5))))
            a.plot(r["t"], r["%s_%s" % (bar, q)][:, j], lw=1.5 if l == "linear" else 0.9, label=l)
        a.set_xlabel("t (s)")
        a.set_title("%s of %s at %s = %g m" % ("displacement (m)" if q == "u" else "velocity (m/s)", bar.replace("bar", "bar "),
                                                "x" if bar == "bar1" else "z", x[j]), fontsize=10)
        a.grid(alpha=0.3)
    ax.flat[0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)
    plt.close(fig)


def _plot_spectrogram(r, fname, z=2.5):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    j = int(np.argmin(np.abs(r["bar2_x"] - z)))
    t = r["t"]
    v = r["bar2_v"][:, j]
    dt = t[1] - t[0]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    nfft = min(2048, 1 << int(np.log2(len(v) // 3)))  # ~1/3 of the record: resolves 1000 rad/s = 159 Hz
    from matplotlib import mlab
    P, fr, tt = mlab.specgram(v - v.mean(), NFFT=nfft, Fs=1 / dt, noverlap=nfft - nfft // 16, pad_to=4 * nfft)
    db = 10 * np.log10(P + 1e-300)
    m = ax[0].pcolormesh(tt, fr, db, vmin=db.max() - 60, vmax=db.max(), shading="auto", cmap="viridis")
    fig.colorbar(m, ax=ax[0], label="dB")
    ax[0].set_ylim(0, 1400)
    for h in (1, 3, 5, 7, 9):
        ax[0].axhline(h * 1000 / (2 * np.pi), color="w", lw=0.5, ls="--")
    ax[0].set_xlabel("t (s)")
    ax[0].set_ylabel("f (Hz)")
    ax[0].set_title("bar 2 velocity at z = %g m, mu N = 1 (dashed: odd harmonics of 1000 rad/s)" % r["bar2_x"][j], fontsize=9)
    sel = t > 0.2 * t[-1]
    w = np.hanning(sel.sum())
    spec = np.abs(np.fft.rfft((v[sel] - v[sel].mean()) * w))
    f = np.fft.rfftfreq(sel.sum(), dt)
    ax[1].semilogy(f, spec / spec.max())
    for h in (1, 3, 5, 7, 9):
        ax[1].axvline(h * 1000 / (2 * np.pi), color="k", lw=0.5, ls="--")
    ax[1].set_xlim(0, 1400)
    ax[1].set_ylim(1e-4, 1.5)
    ax[1].set_xlabel("f (Hz)")
    ax[1].set_title("spectrum for t > %.3g s (Hann window)" % (0.2 * t[-1]), fontsize=9)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)
    plt.close(fig)
    return f, spec


def harmonic_amplitudes(r, z=2.5, tmin=0.004, omega=1000.0, orders=(1, 2, 3, 4, 5, 6, 7)):
    """Amplitudes of bar 2's velocity at z at the harmonics k omega (rad/s), relative to the fundamental, by a least-squares
    fit of a constant plus cos/sin(k omega t), k in ORDERS, over t > tmin (the horizon holds only ~2 periods of the load,
    too few for an FFT to separate the harmonics)."""
    j = int(np.argmin(np.abs(r["bar2_x"] - z)))
    t = r["t"]
    sel = t > tmin
    ts, v = t[sel], r["bar2_v"][sel, j]
    cols = [np.ones_like(ts)]
    for k in orders:
        cols += [np.cos(k * omega * ts), np.sin(k * omega * ts)]
    coef = np.linalg.lstsq(np.stack(cols, axis=1), v, rcond=None)[0]
    amp = {k: float(np.hypot(coef[1 + 2 * i], coef[2 + 2 * i])) for i, k in enumerate(orders)}
    return {k: amp[k] / amp[orders[0]] for k in orders}


def _plot_truncation(c, f, fname):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for a, bar, xmax in ((ax[0], "bar1", None), (ax[1], "bar2", 10.0)):
        t, x, d = truncation_delta(c, f, bar, xmax=xmax)
        m = a.pcolormesh(t, x[x <= (xmax or x.max()) + 1e-12], np.log10(d[:, x <= (xmax or x.max()) + 1e-12].T), vmin=-6, vmax=0, shading="auto")
        a.set_xlabel("t (s)")
        a.set_ylabel("x (m)" if bar == "bar1" else "z (m)")
        a.set_title("log10 delta of %s (eq. 29), %d vs %d modes" % (bar.replace("bar", "bar "), c["attrs"]["modes_bar1"], f["attrs"]["modes_bar1"]), fontsize=9)
        fig.colorbar(m, ax=a)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)
    plt.close(fig)


def figures(rundir, outdir):
    """Figures of docs/validation/bars2020.md from the runs in RUNDIR (one subfolder per input stem, as made by
    tests/regression/bars2020/run_all.sh)."""
    os.makedirs(outdir, exist_ok=True)
    mus = ["0.1", "1", "10", "100"]
    for kind, lin, snaps in (("block", "linear-equivalent", (0.002, 0.004, 0.008)), ("harmonic", "linear-equivalent-harmonic", (0.004, 0.008, 0.015))):
        runs = [load(os.path.join(rundir, "%s-muN%s" % (kind, m))) for m in mus]
        labels = ["mu N = %s" % m for m in mus]
        linr = load(os.path.join(rundir, lin))
        fine = os.path.join(rundir, "harmonic-muN100-fine")
        if kind == "harmonic" and os.path.isdir(fine):
            # the refined run of the comparison with the linear model (eq. 7 makes v95 ~ dt, section "mu N = 100")
            runs.append(load(fine))
            labels.append("mu N = 100, 100 modes, dt = 1 us")
        fig = "fig4" if kind == "block" else "fig5"
        _plot_family(runs + [linr], labels + ["linear"], "%s load: fields along the bars" % kind, os.path.join(outdir, "%s-%s-fields.png" % (fig, kind)), snaps)
        _plot_points(runs + [linr], labels + ["linear"], "%s load: time histories" % kind, os.path.join(outdir, "%s-%s-histories.png" % (fig, kind)))
    longrun = os.path.join(rundir, "harmonic-muN1-long")
    _plot_spectrogram(load(longrun if os.path.isdir(longrun) else os.path.join(rundir, "harmonic-muN1")),
                      os.path.join(outdir, "fig6-harmonic-muN1-timefrequency.png"))
    c = os.path.join(rundir, "block-muN10-0.9N")
    if os.path.isdir(c):
        _plot_truncation(load(c), load(os.path.join(rundir, "block-muN10")), os.path.join(outdir, "fig7-truncation.png"))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: python3 -m postproc.bars2020 figures RUNDIR OUTDIR")
