"""Post-processing of the 2D slider studies (inputs/slider2d/, explicit solver with contact against a rigid plane,
sections 3.1-3.3 of the LuGre/mortar paper): the figures and tables of docs/validation/slider2d.md.

    python3 -m postproc.slider2d springslider FIGDIR RIGID ELASTIC [ELASTIC ...]   # fig6-springslider.png (Fig. 6)
    python3 -m postproc.slider2d velocity FIGDIR RUN [RUN ...]    # fig10-midpoint.png, fig10-sticking.png, fig14-cof.png
    python3 -m postproc.slider2d fig9 FIGDIR FEM IGA [FEM IGA ...] # fig9-iga-fem.png (Fig. 9) and the differences
    python3 -m postproc.slider2d cyclic FIGDIR RUN                # fig16-cyclic.png (Fig. 16)
    python3 -m postproc.slider2d table RUN [RUN ...]              # markdown table of the measured quantities

RIGID is a springslider run (postproc.bk.load reads it); the others are explicit runs with one contact pair named
"floor", Q4 meshes or NURBS patches (IGA: the figure names of springslider and velocity get the prefix "iga-" when
an elastic run is a patch). The velocity runs are ordered coarse to fine; fig14 uses the last (finest) one.
"""
import os
import re
import sys

import numpy as np

from postproc.results import Results

PAIR = "floor"


def _input_value(res, element, attr):
    """Attribute ATTR of the first <ELEMENT> of the run's input (the copy in /meta/input), or None."""
    m = re.search(r"<%s\b[^>]*\b%s=\"([^\"]*)\"" % (element, attr), res.input_text or "")
    return m.group(1) if m else None


def load(path):
    """Dict of an explicit slider run: 'res', 'law', 'E', 'h' (element size in x, m), 't', contact history columns
    ('N', 'fx', 'cof', 'dissipation'), mass-centre 'x' (mean over all nodes), watch-point histories 'watch',
    end-of-run nodal statistics ('xnodes', 'ratio' sorted by x), global 'sticking' ratio, energy 'drift'."""
    res = Results(path)
    r = {"res": res, "law": _input_value(res, "friction", "law"), "E": float(_input_value(res, "block", "E"))}
    cells = _input_value(res, "rectangle", "cells") or _input_value(res, "patch", "refine")  # IGA: knot spans
    upper = _input_value(res, "rectangle", "upper").split()
    r["h"] = float(upper[0]) / int(cells.split()[0])
    r["iga"] = _input_value(res, "patch", "refine") is not None
    r["degree"] = _input_value(res, "patch", "degree")
    c = res.history("explicit/contact/" + PAIR)
    r["t"] = np.asarray(c["time"])
    r["N"], r["fx"], r["cof"] = np.asarray(c["normal_force"]), np.asarray(c["friction_x"]), np.asarray(c["cof"])
    r["dissipation"] = np.asarray(c["dissipation"])
    s = res.history("explicit/set/all")
    r["ts"], r["x"] = np.asarray(s["time"]), np.asarray(s["mean_u_x"])
    r["watch"] = {n.split("/")[-1]: res.history(n).asdict() for n in res.names() if n.startswith("explicit/watch/")}
    g = "explicit/contact_nodes/" + PAIR
    w = res.array(g + "/weight")
    X = res.array("explicit/final/coordinates")
    on = w > 0
    order = np.argsort(X[on, 0])
    r["xnodes"], r["ratio"] = X[on, 0][order], res.array(g + "/sticking_time_ratio")[on][order]
    r["sticking"] = res.attrs(g)["sticking_time_ratio"]
    e = res.history("explicit/energy")
    bal, wext = np.asarray(e["balance"]), np.asarray(e["external_work"])
    r["drift"] = float(np.max(np.abs(bal - bal[0])) / max(np.max(np.abs(wext)), 1e-300))
    r["external_work"] = float(wext[-1])
    return r


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, figdir, name):
    os.makedirs(figdir, exist_ok=True)
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, name), dpi=120)


def running_mean(t, y, window):
    """Mean of Y over the trailing WINDOW seconds at each time of the uniform grid T."""
    n = max(1, int(round(window / (t[1] - t[0]))))
    c = np.cumsum(np.insert(np.asarray(y, float), 0, 0.0))
    out = np.empty(len(y))
    for i in range(len(y)):
        j = max(0, i + 1 - n)
        out[i] = (c[i + 1] - c[j]) / (i + 1 - j)
    return out


def _prefix(rs):
    """'iga-' when a run is a NURBS patch (its figures then sit beside the Q4 ones), else ''."""
    return "iga-" if any(r["iga"] for r in rs) else ""


def _label(r):
    return ("IGA p = %s, " % r["degree"] if r["iga"] else "Q4 ") + "h = %.3g" % r["h"]


def slip_onsets(t, x, friction, speed=5e-3):
    """Times at which the mass-centre speed (from X(T)) rises above SPEED (m/s) and the largest FRICTION before each."""
    v = np.gradient(x, t)
    s = v > speed
    out, last = [], 0
    for i in np.nonzero(s[1:] & ~s[:-1])[0] + 1:
        out.append((t[i], np.max(friction[last:i])))
        last = i
    return out


def _print_onsets(name, onsets):
    print("%s: slip onsets (mass-centre speed > 5 mm/s) and the largest friction before each (N/m): %s"
          % (name, ", ".join("%.3f s %.3f" % o for o in onsets)))


def springslider(figdir, rigid, elastic, window=0.02):
    """Fig. 6 analogue: mass-centre displacement and global friction force of the rigid slider and the elastic ones
    (the elastic friction forces as their running mean over WINDOW seconds: the body's vibrations make the raw
    force fluctuate at a few hundred Hz)."""
    from postproc.bk import load as load_rigid

    plt = _plt()
    rs = [load(p) for p in elastic]
    fig, ax = plt.subplots(2, 1, figsize=(7.5, 6.5), sharex=True)
    rg = load_rigid(rigid)
    _print_onsets(os.path.basename(os.path.normpath(rigid)), slip_onsets(rg["t"], rg["x"][:, 0], rg["friction"][:, 0]))
    ax[0].plot(rg["t"], rg["x"][:, 0], "k-", lw=2.2, alpha=0.35, label="rigid, LuGre (springslider solver)")
    ax[1].plot(rg["t"], rg["friction"][:, 0], "k-", lw=2.2, alpha=0.35, label="rigid, LuGre (springslider solver)")
    for r in rs:
        label = "elastic E = %g MPa, %s, %s" % (r["E"] / 1e6, r["law"], _label(r))
        fmean = running_mean(r["t"], -r["fx"], window)
        _print_onsets(label,
                      slip_onsets(r["ts"], r["x"], np.interp(r["ts"], r["t"], fmean)))
        ax[0].plot(r["ts"], r["x"], lw=0.9, label=label)
        ax[1].plot(r["t"], running_mean(r["t"], -r["fx"], window), lw=0.8, label=label)
    ax[0].set_ylabel("mass-centre displacement (m)")
    ax[1].set_ylabel("global friction force (N/m);\nelastic: %g ms running mean" % (1e3 * window))
    ax[1].set_xlabel("t (s)")
    ax[1].set_xlim(0, rg["t"][-1])
    ax[0].legend(fontsize=7)
    ax[0].set_title("Spring-slider, rigid and elastic (cf. Fig. 6)")
    _save(fig, figdir, _prefix(rs) + "fig6-springslider.png")
    plt.close(fig)


def velocity(figdir, runs):
    """Figs. 10 and 14 analogues: midpoint displacement per mesh, nodal sticking-time ratio along the contact layer,
    and the global COF of the finest mesh."""
    plt = _plt()
    rs = [load(p) for p in runs]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for r in rs:
        w = r["watch"]["mid"]
        ax.plot(w["time"], 1e3 * np.asarray(w["u_x"]), lw=0.9, label="%s (sticking-time ratio %.3f)" % (_label(r), r["sticking"]))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("displacement of the contact-layer midpoint (mm)")
    ax.legend(fontsize=8)
    ax.set_title("Slider with top-layer velocity control: mesh sizes (cf. Fig. 10)")
    _save(fig, figdir, _prefix(rs) + "fig10-midpoint.png")
    plt.close(fig)

    fig, ax = plt.subplots(1, 2, figsize=(10, 3.8))
    for r in (rs[0], rs[-1]):
        w = r["watch"]["mid"]
        t = np.asarray(w["time"])
        m = (t >= 2) & (t <= 2.5)
        ax[0].plot(t[m], 1e3 * np.asarray(w["v_x"])[m], lw=0.8, label=_label(r))
    ax[0].legend(fontsize=8)
    for r in rs:
        ax[1].plot(r["xnodes"], r["ratio"], "o-", ms=3, lw=0.8, label=_label(r))
    ax[0].axhline(1.0, color="k", lw=0.6, ls="--")
    ax[0].set_xlabel("t (s)")
    ax[0].set_ylabel("midpoint velocity (mm/s); dashed: v_s")
    ax[1].set_xlabel("x of the contact node (m)")
    ax[1].set_ylabel("sticking-time ratio over 5 s")
    ax[1].legend(fontsize=8)
    ax[0].set_title("midpoint velocity, 2-2.5 s")
    ax[1].set_title("nodal sticking-time ratio (|v| < v_s)")
    _save(fig, figdir, _prefix(rs) + "fig10-sticking.png")
    plt.close(fig)

    r = rs[-1]
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    m = r["t"] > 0.05
    ax.plot(r["t"][m], r["cof"][m], lw=0.6, label="global COF, %s" % _label(r))
    ax.axhline(0.3, color="k", ls="--", lw=0.8, label="mu_k")
    ax.axhline(0.45, color="k", ls=":", lw=0.8, label="mu_s")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("|friction| / normal force")
    ax.legend(fontsize=8)
    ax.set_title("Global coefficient of friction (cf. Fig. 14)")
    _save(fig, figdir, _prefix(rs) + "fig14-cof.png")
    plt.close(fig)


def fig9(figdir, pairs):
    """Fig. 9 analogue: midpoint displacement of the contact layer with Q4 and IGA for each (FEM, IGA) pair of runs of
    one mesh size; prints per pair the largest midpoint difference before the first slip of the midpoint (|v| > v_s
    = 1 mm/s) and over the run, and both sticking-time ratios."""
    plt = _plt()
    fig, ax = plt.subplots(len(pairs), 1, figsize=(7.5, 3.3 * len(pairs)), squeeze=False)
    for k, (pf, pi) in enumerate(pairs):
        rf, ri = load(pf), load(pi)
        wf, wi = rf["watch"]["mid"], ri["watch"]["mid"]
        t, uf, ui = np.asarray(wf["time"]), np.asarray(wf["u_x"]), np.interp(wf["time"], wi["time"], wi["u_x"])
        slip = np.nonzero((np.abs(np.asarray(wf["v_x"])) > 1e-3) & (t > 0.1))[0]
        first = t[slip[0]] if len(slip) else t[-1]
        before = np.max(np.abs(uf - ui)[t < first])
        print("h = %.3g: midpoint |Q4 - IGA| up to the first slip (%.3f s) %.3g mm, over the run %.3g mm; sticking-time "
              "ratio Q4 %.3f, IGA %.3f" % (rf["h"], first, 1e3 * before, 1e3 * np.max(np.abs(uf - ui)), rf["sticking"], ri["sticking"]))
        for r, u in ((rf, uf), (ri, ui)):
            ax[k, 0].plot(t, 1e3 * u, lw=0.9, label="%s (sticking-time ratio %.3f)" % (_label(r), r["sticking"]))
        ax[k, 0].set_ylabel("midpoint u_x (mm)")
        ax[k, 0].legend(fontsize=8)
        ax[k, 0].set_title("Slider with top-layer velocity control, IGA and FEM, h = %.3g (cf. Fig. 9)" % rf["h"])
    ax[-1, 0].set_xlabel("t (s)")
    _save(fig, figdir, "fig9-iga-fem.png")
    plt.close(fig)


def _watch_x(name):
    """x (m) of the cyclic input's watch points x0, x025, x05, x075, x1."""
    return float(name[1:]) if len(name) == 2 else float(name[1] + "." + name[2:])


def cyclic(figdir, run):
    """Fig. 16 analogue: displacement and velocity of contact-layer points under the cyclic force."""
    plt = _plt()
    r = load(run)
    fig, ax = plt.subplots(2, 1, figsize=(7.5, 6.5), sharex=True)
    for name in sorted(r["watch"], key=_watch_x):
        w, x = r["watch"][name], _watch_x(name)
        ax[0].plot(w["time"], 1e3 * np.asarray(w["u_x"]), lw=0.9, label="x = %g m" % x)
        ax[1].plot(w["time"], 1e3 * np.asarray(w["v_x"]), lw=0.6, label="x = %g m" % x)
    ax[0].set_ylabel("displacement u_x (mm)")
    ax[1].set_ylabel("velocity v_x (mm/s)")
    ax[1].set_xlabel("t (s)")
    ax[0].legend(fontsize=8)
    ax[0].set_title("Slider under a cyclic force below break-away, removed at 6 s (cf. Fig. 16)")
    _save(fig, figdir, "fig16-cyclic.png")
    plt.close(fig)


def fig6_values(rigid, elastic=None):
    """Fig. 6 comparison over the whole run of the rigid spring-slider results RIGID (springslider solver) and the elastic
    slider results ELASTIC (explicit solver; None: the rigid one's own values): first slip onset (s; mass-centre speed
    above 5 mm/s, slip_onsets), mass-centre displacement error (the largest difference over the rigid one's largest
    displacement), friction error (L1 norm over time of the difference of the global friction forces over that of the
    rigid one; the elastic force raw, as the solver wrote it) and the sticking-time ratio. Errors None for the rigid."""
    from postproc.bk import load as load_rigid

    rg = load_rigid(rigid)
    tr, xr, fr = rg["t"], rg["x"][:, 0], rg["friction"][:, 0]
    if elastic is None:
        return slip_onsets(tr, xr, fr)[0][0], None, None, float(rg["sticking_time_ratio"][0])
    r = load(elastic)
    fmean = running_mean(r["t"], -r["fx"], 0.02)
    onset = slip_onsets(r["ts"], r["x"], np.interp(r["ts"], r["t"], fmean))[0][0]
    disp = np.max(np.abs(np.interp(tr, r["ts"], r["x"]) - xr)) / np.max(np.abs(xr))
    fric = np.trapz(np.abs(np.interp(tr, r["t"], -r["fx"]) - fr), tr) / np.trapz(np.abs(fr), tr)
    return onset, float(disp), float(fric), float(r["sticking"])


def damping_values(run, ref=None, v_s=1e-3):
    """The damping and time-step study of a velocity slider RUN (results directory) against REF (the same input at
    the smallest step; None: RUN is it): the midpoint's (watch point `mid`) u_x at the end (mm), the sticking-time ratio,
    mean COF and COF range after 1 s, the midpoint's slips (upward crossings of V_S by its velocity), the largest
    difference of its displacement from REF's (mm; "" for REF itself) and the energy drift."""
    r = load(run)
    _, sticking, cof, cof_range, _, _, drift = table_values(r)
    w = r["watch"]["mid"]
    t, u, v = (np.asarray(w[k]) for k in ("time", "u_x", "v_x"))
    slips = np.count_nonzero((v[1:] > v_s) & (v[:-1] <= v_s))
    diff = ""
    if ref is not None:
        wr = load(ref)["watch"]["mid"]
        tr = np.asarray(wr["time"])
        diff = 1e3 * float(np.max(np.abs(np.interp(tr, t, u) - np.asarray(wr["u_x"]))))
    return 1e3 * float(u[-1]), sticking, cof, cof_range, slips, diff, drift


def table_values(r):
    """The measured quantities of a run loaded by load(): h, sticking-time ratio, mean COF after 1 s, (min, max) of the
    COF and of the normal force after 1 s, frictional dissipation, energy-balance drift."""
    m = r["t"] > 1
    return (r["h"], r["sticking"], np.mean(r["cof"][m]), (np.min(r["cof"][m]), np.max(r["cof"][m])),
            (np.min(r["N"][m]), np.max(r["N"][m])), r["dissipation"][-1], r["drift"])


def table(runs):
    """Markdown rows: run and table_values()."""
    print("| run | h (m) | sticking-time ratio | mean COF (t > 1 s) | COF range | normal force (N/m) | dissipation (J/m) | energy drift |")
    print("|---|---|---|---|---|---|---|---|")
    for p in runs:
        h, sticking, cof, (c0, c1), (n0, n1), diss, drift = table_values(load(p))
        print("| %s | %.3g | %.3f | %.4f | %.3f .. %.3f | %.0f .. %.0f | %.4g | %.1e |" % (
            os.path.basename(os.path.normpath(p)), h, sticking, cof, c0, c1, n0, n1, diss, drift))


def main(argv):
    if len(argv) >= 5 and argv[1] == "springslider":
        springslider(argv[2], argv[3], argv[4:])
    elif len(argv) >= 4 and argv[1] == "velocity":
        velocity(argv[2], argv[3:])
    elif len(argv) >= 5 and len(argv) % 2 == 1 and argv[1] == "fig9":
        fig9(argv[2], list(zip(argv[3::2], argv[4::2])))
    elif len(argv) == 4 and argv[1] == "cyclic":
        cyclic(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "table":
        table(argv[2:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
