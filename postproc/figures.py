"""The standard figures of every solver, from one run's results.h5: what `postproc.summary OUTDIR --figures` draws.

    python3 -m postproc.figures RESULTS.h5|OUTDIR [FIGDIR]     writes NAME-*.png (NAME: the run's folder) into FIGDIR
                                                               (default: next to results.h5) and lists them

Each solver's figures are time histories from results.h5, in SI units, one line per history column, labelled with
the column's name (tests/regression/postproc checks the plotted data against the file):

| solver | figures |
|---|---|
| rodpair | space-time map of u1, u1 at four sections, relative velocity (postproc.rodpair), energy balance |
| bars2020 | displacement at the output points of both bars, energy balance |
| bowedstring | modal coordinates y1, y2 and the friction force (reduced and full model), memory kernel |
| springslider, burridgeknopoff | block displacement, velocity and friction force, energy balance |
| explicit | energy balance, each contact pair's forces and COF, node-set means, watch points |

Field data of the explicit solver (fields.pvd) are for ParaView.
"""
import os
import sys

from postproc.results import Results


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def history_figure(h, title, panels, xcol=None):
    """A figure of history H (a postproc.results.History) with one panel per (ylabel, [column, ...]) of PANELS, every
    column plotted against the time column XCOL (default: the first) and labelled with its name."""
    plt = _plt()
    xcol = xcol or h.columns[0]
    fig, axs = plt.subplots(len(panels), 1, figsize=(6.4, 1.2 + 1.8 * len(panels)), sharex=True, squeeze=False)
    for ax, (ylabel, cols) in zip(axs[:, 0], panels):
        for c in cols:
            ax.plot(h[xcol], h[c], lw=0.9, label=c)
        ax.set_ylabel(ylabel)
        if len(cols) > 1:
            ax.legend(fontsize=7, ncol=min(len(cols), 4))
    axs[-1, 0].set_xlabel(f"{xcol} ({h.unit(xcol) or 's'})")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def _energy(r, path, name, skip=("t", "time", "relative_residual", "overlap")):
    h = r.history(path)
    cols = [c for c in h.columns if c not in skip]
    return [(f"{name}-energy.png", history_figure(h, f"{name}: energy balance ({path})", [("energy (J)", cols)]))]


def _rodpair(r, name):
    from postproc import rodpair

    return rodpair.figure_objects(r.path, name) + _energy(r, "rodpair/energy", name)


def _bars2020(r, name):
    figs = []
    for bar in ("bar1", "bar2"):
        h = r.history(f"bars2020/{bar}")
        panels = [(f"{bar} u (m)", [c for c in h.columns if c.startswith("u(")]), (f"{bar} v (m/s)", [c for c in h.columns if c.startswith("v(")])]
        figs.append((f"{name}-{bar}.png", history_figure(h, f"{name}: {bar} at the output points", panels)))
    return figs + _energy(r, "bars2020/energy", name)


def _bowedstring(r, name):
    out = []
    for model in ("reduced", "full"):
        if r.has(f"bowedstring/{model}"):
            h = r.history(f"bowedstring/{model}")
            out.append((f"{name}-{model}.png", history_figure(h, f"{name}: {model} model",
                                                              [("y1", ["y1"]), ("y2", ["y2"]), ("friction force", ["force"])])))
    if r.has("bowedstring/kernel"):
        plt = _plt()
        k = r.array("bowedstring/kernel")
        fig, ax = plt.subplots(figsize=(6.4, 3.2))
        ax.plot(k[:, 0], k[:, 1], lw=0.9, label="kernel")
        ax.set_xlabel("tau")
        ax.set_ylabel("[L^1(tau)]_2")
        ax.set_title(f"{name}: memory kernel", fontsize=10)
        fig.tight_layout()
        out.append((f"{name}-kernel.png", fig))
    return out


def _rigid(root):
    def build(r, name):
        x, v, f = (r.history(f"{root}/{k}") for k in ("x", "v", "friction"))
        figs = [(f"{name}-x.png", history_figure(x, f"{name}: block displacement", [("x (m)", x.columns[1:])])),
                (f"{name}-v.png", history_figure(v, f"{name}: block velocity", [("v (m/s)", v.columns[1:])])),
                (f"{name}-friction.png", history_figure(f, f"{name}: friction force", [("F (N)", f.columns[1:])]))]
        return figs + _energy(r, f"{root}/energy", name)

    return build


def _explicit(r, name):
    figs = _energy(r, "explicit/energy", name)
    for path in r.names():
        parts = path.split("/")
        if len(parts) != 3 or "columns" not in r.attrs(path):
            continue
        kind, item = parts[1], parts[2]
        h = r.history(path)
        if kind == "contact":
            tang = [c for c in h.columns if c.startswith("friction_")]
            panels = [("force (N)", ["normal_force"] + tang), ("COF", ["cof"]), ("contact fraction", ["contact_fraction"])]
            figs.append((f"{name}-contact-{item}.png", history_figure(h, f"{name}: contact pair {item}", panels)))
        elif kind in ("set", "watch"):
            u = [c for c in h.columns if c.startswith(("mean_u_", "u_"))]
            v = [c for c in h.columns if c.startswith(("mean_v_", "v_"))]
            figs.append((f"{name}-{kind}-{item}.png", history_figure(h, f"{name}: {kind} {item}", [("u (m)", u), ("v (m/s)", v)])))
    return figs


SOLVERS = {  # top-level group of results.h5 -> figure builder
    "rodpair": _rodpair,
    "bars2020": _bars2020,
    "bowedstring": _bowedstring,
    "springslider": _rigid("springslider"),
    "burridgeknopoff": _rigid("burridgeknopoff"),
    "explicit": _explicit,
}


def build(r, name=None):
    """[(file name, matplotlib Figure)] of the standard figures of the run R (a postproc.results.Results); NAME prefixes
    the file names (default: the run's folder). [] for a solver without figures."""
    name = name or os.path.basename(os.path.dirname(os.path.abspath(r.path)))
    for group, fn in SOLVERS.items():
        if r.has(group):
            return fn(r, name)
    return []


def write(figs, figdir):
    """Writes the [(file name, Figure)] FIGS as PNG files into FIGDIR, closes them and returns their paths."""
    plt = _plt()
    os.makedirs(figdir, exist_ok=True)
    paths = []
    for fname, fig in figs:
        paths.append(os.path.join(figdir, fname))
        fig.savefig(paths[-1], dpi=120)
        plt.close(fig)
    return paths


def save(r, figdir=None, name=None):
    """Writes the standard figures of R into FIGDIR (default: next to results.h5) and returns their paths."""
    return write(build(r, name), figdir or os.path.dirname(os.path.abspath(r.path)))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    for p in save(Results(argv[1]), argv[2] if len(argv) > 2 else None):
        print(p)


if __name__ == "__main__":
    main(sys.argv)
