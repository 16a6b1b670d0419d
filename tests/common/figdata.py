"""What a matplotlib figure shows, for tests of the figure scripts: captured_figures() makes Figure.savefig record each
figure's lines before it is written, so that a test compares the plotted data with the results, not the PNG's size."""
import os

import numpy as np


def captured_figures():
    """Patches matplotlib's Figure.savefig; returns the dict it fills: {file name: [[(label, x, y) per line] per axes]}."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    shown, save = {}, Figure.savefig

    def savefig(fig, fname, *args, **kwargs):
        shown[os.path.basename(str(fname))] = [[(ln.get_label(), np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float))
                                               for ln in a.get_lines()] for a in fig.axes]
        return save(fig, fname, *args, **kwargs)

    Figure.savefig = savefig
    return shown


def shows(line, t, y, scale=1.0):
    """Whether LINE (label, x, y) plots SCALE * Y(T) at its x values: every x is a sample time and the values agree
    exactly (the scripts plot the samples themselves, at most multiplied by a unit factor)."""
    _, lx, ly = line
    idx = np.searchsorted(t, lx)
    if len(lx) == 0 or np.any(idx >= len(t)) or not np.array_equal(t[idx], lx):
        return False
    return np.array_equal(ly, scale * np.asarray(y)[idx])
