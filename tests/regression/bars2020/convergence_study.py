"""Convergence study of mu N = 100 against the linear equivalent model, harmonic load (docs/validation/bars2020.md,
section "mu N = 100 against the linear equivalent model"): the modal Threlfall model with the implicit and the explicit
(paper) friction update over step sizes and mode counts, the finite-difference solution of the same regularised law
(fd_reference.py, the exact answer for each v95), and exact Coulomb friction. v95 follows eq. 7 throughout, so every
step size is also a different regularisation.
Usage (repo root): PYTHONPATH=. python3 tests/regression/bars2020/convergence_study.py STICKSLIP RUNDIR [FIGURE.png]
Prints a markdown table (relative L2 in %, bar 2 on z <= u0) and the friction dissipation over the load work."""
import os
import subprocess
import sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fd_reference as FD
from postproc import bars2020 as B

KEYS = ("bar1_u", "bar1_v", "bar2_u", "bar2_v")
DT_PAPER = 0.015 / 919  # a tenth of the shortest period of 50 + 50 modes (section 2.2), as the inputs choose it


def rel(a, b):
    return [100 * B.rel_l2(a, b, k, xmax=10.0 if k.startswith("bar2") else None) for k in KEYS]


def modal(exe, rundir, modes, dt, update):
    """Runs inputs/bars2020/harmonic-muN100.xml with MODES per bar, step DT and the given friction update."""
    src = open("inputs/bars2020/harmonic-muN100.xml").read()
    src = src.replace('<model type="threlfall"/>', '<model type="threlfall" friction_update="%s"/>' % update)
    src = src.replace('field_points="81"/>', 'field_points="81" interval="%.10g"/>' % DT_PAPER)
    name = "m%d-dt%.3g-%s" % (modes, dt, update)
    xml = os.path.join(rundir, name + ".xml")
    with open(xml, "w") as f:
        f.write(src)
    subprocess.run([exe, "run", xml, "-o", os.path.join(rundir, name), "-force", "-quiet", "-bars2020_modes", str(modes),
                    "-bars2020_dt", repr(dt)], check=True, stdout=subprocess.DEVNULL)
    return B.load(os.path.join(rundir, name))


def dissipation(r):
    e = r["energy"]
    return 100 * e["dissipation"][-1] / e["work_load"][-1]


def main():
    exe, rundir = sys.argv[1], sys.argv[2]
    os.makedirs(rundir, exist_ok=True)
    subprocess.run([exe, "run", "inputs/bars2020/linear-equivalent-harmonic.xml", "-o", os.path.join(rundir, "linear"), "-force",
                    "-quiet"], check=True, stdout=subprocess.DEVNULL)
    lin = B.load(os.path.join(rundir, "linear"))
    m_sub = 17  # FD step dt_paper / 17 < dx / c1 for dx = 1 cm
    coul = FD.simulate("coulomb", dt_out=DT_PAPER, m_sub=m_sub)
    print("| model | modes | dt (us) | v95 (m/s) | u1 | v1 | u2 | v2 | D/W | v2 vs FD same v95 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("| exact Coulomb (FD) | - | - | 0 | %.2f | %.2f | %.2f | %.2f | %.2f | - |" % (*rel(coul, lin), 100 * coul["dissipation"] / coul["work"]))
    rows = []
    cases = [(50, DT_PAPER), (50, 4e-6), (50, 2e-6), (50, 1e-6), (100, 8e-6), (100, 4e-6), (100, 2e-6), (100, 1e-6), (100, 5e-7),
             (200, 1e-6)]
    fd_cache = {}
    for dt in sorted({c[1] for c in cases}, reverse=True):
        v95 = 4 * 100 * dt / np.pi
        fd_cache[dt] = FD.simulate("threlfall", v95=v95, dt_out=DT_PAPER, m_sub=m_sub)
        r = rel(fd_cache[dt], lin)
        print("| Threlfall, exact (FD) | - | %.3g | %.3g | %.2f | %.2f | %.2f | %.2f | %.2f | - |"
              % (dt * 1e6, v95, *r, 100 * fd_cache[dt]["dissipation"] / fd_cache[dt]["work"]))
    for update in ("implicit", "explicit"):
        for modes, dt in cases:
            m = modal(exe, rundir, modes, dt, update)
            r = rel(m, lin)
            vfd = rel(m, fd_cache[dt])[3]
            rows.append((update, modes, dt, r))
            print("| modal, %s | %d | %.3g | %.3g | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
                  % (update, modes, dt * 1e6, m["attrs"]["v95"], *r, dissipation(m), vfd))
    if len(sys.argv) > 3:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(1, 2, figsize=(11, 4))
        dts = sorted(fd_cache)
        for a, k, lab in ((ax[0], 1, "bar 1 velocity"), (ax[1], 3, "bar 2 velocity (z <= 10 m)")):
            a.loglog([d * 1e6 for d in dts], [rel(fd_cache[d], lin)[k] for d in dts], "k-o", label="Threlfall, exact (FD)")
            for update, style in (("implicit", "-s"), ("explicit", "--^")):
                for modes, col in ((50, "C0"), (100, "C1")):
                    pts = [(dt, r[k]) for u, mo, dt, r in rows if u == update and mo == modes]
                    a.loglog([p[0] * 1e6 for p in pts], [p[1] for p in pts], style, color=col, label="modal %d modes, %s" % (modes, update))
            a.axhline(rel(coul, lin)[k], color="k", ls=":", label="exact Coulomb (FD)")
            a.axhline(2, color="r", lw=0.8, label="2 % (the bound of check_linear.py)")
            a.set_xlabel("dt (us); v95 = 4 muN dt / (pi rho1A1) (eq. 7)")
            a.set_ylabel("relative L2 difference to the linear model (%)")
            a.set_title("mu N = 100, harmonic load: " + lab, fontsize=10)
            a.grid(alpha=0.3, which="both")
        ax[0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(sys.argv[3], dpi=110)


if __name__ == "__main__":
    main()
