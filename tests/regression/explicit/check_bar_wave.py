#!/usr/bin/env python3
"""Stress wave in a bar vs d'Alembert: runs inputs/explicit/bar_wave_<elem>.xml on refined meshes and checks
the relative L2 error of the displacement at the end time and its rate under refinement.

Usage: check_bar_wave.py STICKSLIP INPUT.xml [--load step|smooth] [--levels 25 50 100] [--min-rate R] [--max-error E]

The exact solution for a traction p e_x (pushing into the bar) switched on at t = 0 on the free end x = 0 of a bar with E, rho, nu = 0 is
u(x, t) = (p / E) * integral_0^(t - x/c) c f(s) ds, c = sqrt(E/rho), with f(t) the load's time function (1 for the
step; the C1 smoothstep over [0, t1] for the smooth load)."""
import argparse
import os
import re
import sys
import tempfile

import h5py
import numpy as np

from tests.common.runs import stickslip_run


def exact(x, t, p, E, rho, load, t1):
    c = np.sqrt(E / rho)
    tau = np.clip(t - x / c, 0.0, None)
    if load == "step":
        integral = tau
    else:  # integral of the smoothstep 3 s^2 - 2 s^3 (s = tau/t1), then 1
        s = np.clip(tau / t1, 0.0, 1.0)
        integral = np.where(tau < t1, t1 * (s**3 - 0.5 * s**4), t1 * 0.5 + (tau - t1))
    return (p / E) * c * integral


def bar_wave(prog, template, cells_x, load, t1, workdir):
    """Runs TEMPLATE with CELLS_X cells along the bar and the step or smooth (rise time T1) LOAD in WORKDIR; returns the
    final coordinates, displacement and time."""
    text = open(template).read()
    text = re.sub(r'cells="(\d+)', 'cells="%d' % cells_x, text, count=1)
    if load == "smooth":
        text = re.sub(r'<function type="constant" value="1"/>', '<function type="smoothstep" t0="0" t1="%g" value="1"/>' % t1, text)
    path = os.path.join(workdir, "bar_%d.xml" % cells_x)
    open(path, "w").write(text)
    out = os.path.join(workdir, "out_%d" % cells_x)
    stickslip_run(prog, path, out, "-force", "-quiet")
    with h5py.File(os.path.join(out, "results.h5"), "r") as f:
        X = f["/explicit/final/coordinates"][...]
        u = f["/explicit/final/displacement"][...]
        t = f["/explicit/final"].attrs["time"]
    return X, u, float(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("input")
    ap.add_argument("--load", default="step")
    ap.add_argument("--levels", type=int, nargs="+", default=[25, 50, 100])
    ap.add_argument("--min-rate", type=float, default=0.0)
    ap.add_argument("--max-error", type=float, default=1.0)
    a = ap.parse_args()
    text = open(a.input).read()
    E = float(re.search(r' E="([^"]+)"', text).group(1))
    rho = float(re.search(r' rho="([^"]+)"', text).group(1))
    p = float(re.search(r'<traction[^>]* value="([^ "]+)', text).group(1))
    t1 = 2e-5  # rise time of the smooth load (s): about 10 cells of the middle mesh
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.levels:
            X, u, t = bar_wave(a.prog, a.input, n, a.load, t1, tmp)
            ue = exact(X[:, 0], t, p, E, rho, a.load, t1)
            err = np.sqrt(np.sum((u[:, 0] - ue) ** 2) / np.sum(ue**2))
            errors.append(err)
            print("cells %4d  t = %.6e s  relative L2 error %.4e" % (n, t, err))
    rates = [np.log(errors[i] / errors[i + 1]) / np.log(a.levels[i + 1] / a.levels[i]) for i in range(len(errors) - 1)]
    print("rates", " ".join("%.3f" % r for r in rates))
    if errors[-1] > a.max_error:
        sys.exit("FAIL: finest error %.3e above %.3e" % (errors[-1], a.max_error))
    if min(rates) < a.min_rate:
        sys.exit("FAIL: rate %.3f below %.3f" % (min(rates), a.min_rate))
    print("ok")


if __name__ == "__main__":
    main()
