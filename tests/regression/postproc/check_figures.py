"""The standard figures of every solver (postproc/figures.py), drawn by `stickslip-post summary OUT --figures` from a
directory outside the repository and without PYTHONPATH, show the run's data:

  1. each solver's run (a shortened study input) gets its figures; every PNG the summary lists exists and is not blank;
  2. every plotted line is a column of a history of results.h5 (by its label or gid) against that history's time
     column, exactly (the rodpair sections in mm: 1e3 times the column); the bowedstring kernel is the kernel array
     and the rodpair space-time map is 1e3 u1;
  3. physics on the plotted data: every energy figure's balance (or residual) line stays within 1e-3 of the largest
     energy in the figure (the bound of the solvers' energy regression tests; measured 2.3e-14 (bars2020) to 1.2e-6
     (explicit contact)); the bowedstring friction force never exceeds mu (the friction law's bound); the explicit
     block's normal force averages its weight, 400 N/m, to 3 % (tests/regression/contact/check_contact_slide.py).

Before postproc/figures.py, `summary --figures` drew nothing for five of the six solvers and failed outside the
repository root. usage: check_figures.py PROGRAM"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

SRC = os.path.abspath(os.environ.get("SK_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")))
sys.path.insert(0, SRC)
from postproc import figures  # noqa: E402
from postproc.results import Results  # noqa: E402

# (run name, input, (old, new) substitutions that shorten it, options, figures expected)
CASES = [
    ("rodpair", "inputs/rodpair/pulse-caseA.xml", [('<time end="0.5"', '<time end="0.05"')], ["-rodpair_solver", "mmm"],
     ["spacetime", "sections", "vrel", "energy"]),
    ("bars2020", "inputs/bars2020/block-muN1.xml", [('<time end="0.015"', '<time end="0.003"')], [], ["bar1", "bar2", "energy"]),
    ("bowedstring", "inputs/bowedstring/section5.xml", [], [], ["reduced", "kernel"]),
    ("springslider", "inputs/slider2d/springslider-rigid.xml", [], [], ["x", "v", "friction", "energy"]),
    ("burridgeknopoff", "inputs/bk/bk-n3.xml", [('<time end="15"', '<time end="3"')], [], ["x", "v", "friction", "energy"]),
    ("explicit", "inputs/explicit/contact_slide.xml", [], [], ["energy", "contact-floor", "set-all"]),
]


def histories(r):
    """{column name: [(time, values), ...]} over every history of R."""
    out = {}
    for name in r.names():
        if "columns" in r.attrs(name):
            h = r.history(name)
            for c in h.columns[1:]:
                out.setdefault(c, []).append((np.asarray(h[h.columns[0]]), np.asarray(h[c])))
    return out


def check_lines(r, name, fname, fig, fails):
    cols = histories(r)
    checked = 0
    for ax in fig.axes:
        for line in ax.lines:
            key = line.get_gid() or line.get_label()
            x, y = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
            if name == "bowedstring" and fname.endswith("kernel.png"):
                k = r.array("bowedstring/kernel")
                ok = np.array_equal(x, k[:, 0]) and np.array_equal(y, k[:, 1])
            else:
                scale = 1e3 if name == "rodpair" and line.get_gid() else 1.0
                ok = any(len(t) == len(x) and np.array_equal(t, x) and np.allclose(y, scale * v, rtol=1e-15, atol=0)
                         for t, v in cols.get(key, []))
            checked += 1
            if not ok:
                fails.append(f"{name}: {fname}: line {key!r} is not the column {key!r} of a history of results.h5")
    if name == "rodpair" and fname.endswith("spacetime.png"):  # the map (the colour bar is another collection)
        u1 = 1e3 * r.array("rodpair/u1").T.ravel()
        maps = [np.asarray(m.get_array()).ravel() for ax in fig.axes for m in ax.collections if m.get_array() is not None]
        checked += 1
        if not any(len(m) == len(u1) and np.allclose(m, u1, rtol=1e-15, atol=0) for m in maps):
            fails.append(f"{name}: {fname}: the space-time map is not 1e3 u1")
    if not checked:
        fails.append(f"{name}: {fname}: no data plotted")


def check_physics(r, name, fname, fig, fails):
    for ax in fig.axes:
        ys = {ln.get_label(): np.asarray(ln.get_ydata()) for ln in ax.lines}
        for key in ("balance", "residual"):
            if key in ys and fname.endswith("energy.png"):
                scale = max(np.max(np.abs(v)) for k, v in ys.items() if k not in ("balance", "residual"))
                drift = np.max(np.abs(ys[key] - ys[key][0])) / scale
                print(f"  {fname}: {key} drift {drift:.3g} of the largest energy")
                if drift > 1e-3:
                    fails.append(f"{name}: {fname}: energy {key} drifts {drift:.3g} of the largest energy > 1e-3")
        if name == "bowedstring" and "force" in ys:
            mu = r.attrs("bowedstring")["mu"]
            if np.max(np.abs(ys["force"])) > mu * (1 + 1e-12):
                fails.append(f"{name}: {fname}: plotted friction force {np.max(np.abs(ys['force']))} above mu = {mu}")
        if name == "explicit" and "normal_force" in ys:
            t = np.asarray(ax.lines[0].get_xdata())
            mean = np.trapz(ys["normal_force"], t) / (t[-1] - t[0])
            print(f"  {fname}: mean normal force {mean:.6g} N/m")
            if abs(mean - 400.0) > 12.0:
                fails.append(f"{name}: {fname}: mean normal force {mean:.6g} N/m, expected 400 +- 12")


def main():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image
    import matplotlib.pyplot as plt

    prog = sys.argv[1]
    fails = []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with tempfile.TemporaryDirectory() as tmp:
        for name, inp, subs, opts, expected in CASES:
            text = open(os.path.join(SRC, inp), encoding="utf-8").read()
            for old, new in subs:
                assert old in text, (inp, old)
                text = text.replace(old, new)
            short = os.path.join(tmp, name + ".xml")
            with open(short, "w", encoding="utf-8") as f:
                f.write(text)
            out = os.path.join(tmp, name)
            subprocess.run([prog, "run", short, "-o", out, "-quiet"] + opts, check=True, stdout=subprocess.DEVNULL)
            # 1. the launcher, from the temporary directory, without PYTHONPATH
            s = subprocess.run([os.path.join(SRC, "scripts", "stickslip-post"), "summary", name, "--figures"], cwd=tmp, env=env,
                               capture_output=True, text=True)
            listed = re.findall(r"^\s*figure (\S+)$", s.stdout, re.M)
            want = [os.path.join(out, f"{name}-{e}.png") for e in expected]
            if s.returncode or sorted(listed) != sorted(want):
                fails.append(f"{name}: summary --figures listed {listed} (rc {s.returncode}), expected {want}\n{s.stderr}")
            for p in listed:
                img = matplotlib.image.imread(p) if os.path.exists(p) else None
                if img is None or np.std(img[..., :3]) == 0:
                    fails.append(f"{name}: {p} missing or blank")
            # 2. and 3. the data of each figure
            r = Results(out)
            for fname, fig in figures.build(r):
                check_lines(r, name, fname, fig, fails)
                check_physics(r, name, fname, fig, fails)
                plt.close(fig)
            print(f"{name}: {len(listed)} figures")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
