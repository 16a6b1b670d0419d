"""Checks of the rigid reference models (issue 6), one sub-command per ctest test (tests.cmake). Each states where its
tolerance comes from. Exit status non-zero on failure."""
import os
import re
import subprocess
import sys

import numpy as np

from postproc.bk import energy_residual, figures, load, slips
from postproc.springslider import coulomb_cycle, coulomb_exact, figure, measured_cycle

failures = []


def expect(cond, msg):
    print(("ok    " if cond else "FAIL  ") + msg)
    if not cond:
        failures.append(msg)


def exact_of(r):
    a = r["attrs"]
    return a["mass"], a["k_drive"], a["v_drive"], a["normal_force"], a["mu_s"], a["mu_k"]


def balance(r, tol=1e-3):
    # issue 6: the energy balance (work in = kinetic + spring + friction work) closes to 1e-3; rtol 1e-8 gives ~1e-8
    res = energy_residual(r)
    expect(res <= tol, f"energy residual {res:.2e} <= {tol:g}")


def cmd_coulomb_limit(run):
    """LuGre near its Coulomb limit reproduces the exact steady cycle to 2 % (issue 6; 0.1 % sampling + ~0.5 % LuGre)."""
    r = load(run)
    m, c = measured_cycle(r), coulomb_cycle(*exact_of(r))
    expect(m["slips"] >= 3, f"{m['slips']} slips (>= 3 for two steady cycles)")
    for k in ("t_first", "t_stick", "t_slip", "force_drop"):
        err = abs(m[k] - c[k]) / c[k]
        expect(err <= 0.02, f"{k}: LuGre {m[k]:.5f}, exact Coulomb {c[k]:.5f}, relative difference {err:.2e} <= 2e-2")
    balance(r)


def cmd_coulomb_exact(*runs):
    """The C closed form equals this independent Python one (round-off: 1e-9 m), and its cycle is the formula's (to the
    1 ms sampling, 1e-3 s)."""
    for run in runs:
        r = load(run)
        x, v = coulomb_exact(r["t"], *exact_of(r))
        expect(np.max(np.abs(r["x"][:, 0] - x)) <= 1e-9, f"{run}: closed-form x matches Python to 1e-9 m")
        expect(np.max(np.abs(r["v"][:, 0] - v)) <= 1e-9, f"{run}: closed-form v matches Python to 1e-9 m/s")
        a = r["attrs"]
        if a["mu_s"] > a["mu_k"]:
            m, c = measured_cycle(r), coulomb_cycle(*exact_of(r))
            for k in ("t_stick", "t_slip"):
                expect(abs(m[k] - c[k]) <= 2e-3, f"{run}: {k} {m[k]:.4f} vs {c[k]:.4f} s within 2 samples")


def cmd_springslider(run):
    """Canudas values: stick-slip occurs, break-away near mu_s N (3 %: creep at loading rate k V / (sigma0 N) with
    v_s = 1e-3 starts the slip ~1 % early, docs/theory.md), energy balance."""
    r = load(run)
    m, c = measured_cycle(r), coulomb_cycle(*exact_of(r))
    expect(m["slips"] >= 2, f"{m['slips']} slips in 6 s (stick-slip occurs)")
    expect(abs(m["t_first"] - c["t_first"]) <= 0.03 * c["t_first"], f"first stick {m['t_first']:.4f} s vs Coulomb {c['t_first']:.4f} s within 3 %")
    peak = np.max(r["friction"][:, 0])
    N, mu_s = r["attrs"]["normal_force"], r["attrs"]["mu_s"]
    expect(abs(peak - mu_s * N) <= 0.03 * mu_s * N, f"break-away friction {peak:.4f} N vs mu_s N = {mu_s * N:.4f} N within 3 %")
    ratio = float(r["sticking_time_ratio"][0])
    expect(0.3 < ratio < 0.95, f"sticking-time ratio {ratio:.3f} in (0.3, 0.95)")
    balance(r)


def cmd_decoupled(chain, single):
    """Uncoupled, unperturbed chain blocks = the spring-slider (same equations, same tolerances: agreement to the
    integrator's error, 1e-5 of the 0.1 m travel)."""
    a, b = load(chain), load(single)
    d = np.max(np.abs(a["x"] - b["x"][:, :1]))
    expect(d <= 1e-6, f"decoupled chain vs spring-slider: max |dx| = {d:.2e} m <= 1e-6 m")
    balance(a)


def cmd_chain(run):
    """BK n = 5: energy balance; the chain follows the support on average (over the second half, the mass centre advances
    V t to 15 %: the lag varies by about the per-block force drop / k_v, 15 mm of 150 mm); the mean friction per block
    lies between mu_k N and mu_s N; stick-slip occurs in every block."""
    r = load(run)
    a = r["attrs"]
    t, xm = r["t"], r["centre"]["x_mean"]
    h = len(t) // 2
    adv, exp_adv = xm[-1] - xm[h], a["v_drive"] * (t[-1] - t[h])
    expect(abs(adv - exp_adv) <= 0.15 * exp_adv, f"mass-centre advance {adv:.4f} m vs support {exp_adv:.4f} m within 15 %")
    fmean = np.mean(r["centre"]["friction_total"][h:]) / r["x"].shape[1]
    N = a["normal_force"]
    expect(a["mu_k"] * N <= fmean <= a["mu_s"] * N, f"mean friction per block {fmean:.4f} N in [mu_k N, mu_s N] = [{a['mu_k'] * N:.3f}, {a['mu_s'] * N:.3f}]")
    for i in range(r["x"].shape[1]):
        n_slips = len(slips(t, r["v"][:, i], 0.01 * a["v_drive"]))
        expect(n_slips >= 5, f"block {i + 1}: {n_slips} slips in 15 s")
    balance(r)


def cmd_integrators(ra, rb):
    """ROSW vs BDF2, both at rtol 1e-8: identical up to the first slips (mass centre to 1e-5 m over the first 4 s; the
    chain later amplifies differences, which is the paper's point about DOF sensitivity, so only early times)."""
    a, b = load(ra), load(rb)
    sel = a["t"] <= 4.0
    d = np.max(np.abs(a["centre"]["x_mean"][sel] - b["centre"]["x_mean"][sel]))
    expect(d <= 1e-5, f"ROSW vs BDF2 mass centre over [0, 4] s: max difference {d:.2e} m <= 1e-5 m")
    balance(b)


def cmd_bad_inputs():
    """Each bad value is refused by `stickslip validate` with `FILE:LINE: message` naming the problem (issue 6)."""
    exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
    src = os.environ.get("SK_SOURCE_DIR", ".")
    work = os.path.abspath("bk/bad_inputs")
    os.makedirs(work, exist_ok=True)
    ss = open(os.path.join(src, "inputs/slider2d/springslider-rigid.xml")).read()
    bk = open(os.path.join(src, "inputs/bk/bk-n5.xml")).read()
    cases = [
        ("sigma0-zero", ss, 'sigma0="1e5"', 'sigma0="0"', r"sigma0 = 0\.? 1/m must be > 0"),
        ("sigma0-negative", bk, 'sigma0="1e5"', 'sigma0="-1"', r"sigma0 = -1\.? 1/m must be > 0"),
        ("vs-negative", ss, 'v_s="1e-3"', 'v_s="-1e-3"', r"v_s = -0.001 m/s must be >= 0"),
        ("muk-above-mus", ss, 'mu_k="0.3"', 'mu_k="0.5"', r"mu_k = 0.5 must not exceed mu_s = 0.45"),
        ("sigma1-negative", ss, 'sigma1="316.227766"', 'sigma1="-3"', r"sigma1 = -3\.? s/m must be >= 0"),
        ("theta-zero", ss, 'theta="2"', 'theta="0"', r"theta = 0\.? must be > 0"),
        ("classical-two-mu", ss, 'law="lugre"', 'law="coulomb"', r"classical Coulomb friction has one coefficient"),
        ("bk-coulomb", bk, 'law="lugre"', 'law="coulomb-modified"', r"discrete return mapping without a continuous form"),
        ("bk-n-zero", bk, 'n="5"', 'n="0"', r"n|positiveInt|minInclusive|not accepted|valid"),
        ("bk-initial-count", bk, 'perturbation="1e-3"', 'initial="0 1e-3"', r"initial lists 2 displacements for n = 5 blocks"),
        ("mass-negative", ss, 'mass="1"', 'mass="-1"', r"mass|positiveReal|minExclusive|valid"),
        ("unknown-law", ss, 'law="lugre"', 'law="dahl"', r"law|dahl|enumeration|valid"),
        ("output-count", ss, 'output="1e-3"', 'output="1e-9"', r"too many"),
    ]
    for name, text, old, new, rx in cases:
        assert old in text, f"{name}: '{old}' not in the base input"
        path = os.path.join(work, name + ".xml")
        bad = text.replace(old, new, 1)
        open(path, "w").write(bad)
        line = next(i + 1 for i, l in enumerate(bad.splitlines()) if new in l)
        p = subprocess.run([exe, "validate", path], capture_output=True, text=True, timeout=20)
        err = p.stderr.strip().splitlines()
        first = err[0] if err else ""
        ok = p.returncode != 0 and re.match(re.escape(path) + r":" + str(line) + r": ", first) and re.search(rx, first)
        expect(bool(ok), f"{name}: rc {p.returncode}, '{first}' (expected {path}:{line}: ... /{rx}/)")


def cmd_validate_inputs():
    """Every study input of issue 6 passes `stickslip validate` (schema and physics checks)."""
    exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
    src = os.environ.get("SK_SOURCE_DIR", ".")
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [os.path.join(src, "inputs/slider2d/springslider-rigid.xml")] + [os.path.join(src, f"inputs/bk/bk-n{n}.xml") for n in (3, 5, 10, 15)]
    paths += [os.path.join(here, f) for f in sorted(os.listdir(here)) if f.endswith(".xml")]
    for path in paths:
        p = subprocess.run([exe, "validate", path], capture_output=True, text=True, timeout=20)
        expect(p.returncode == 0, f"validate {os.path.relpath(path, src)}: rc {p.returncode} {p.stderr.strip()[:200]}")


def cmd_figures(outdir, bk_run, *ss_runs):
    """The figure scripts run on real results and write their PNG files."""
    figures(outdir, [bk_run])
    figure(outdir, list(ss_runs))
    for f in ("bk-n5-local.png", "bk-centre.png", "bk-springslider-rigid.png"):
        p = os.path.join(outdir, f)
        expect(os.path.exists(p) and os.path.getsize(p) > 10000, f"{p} written")


if __name__ == "__main__":
    cmd = globals()["cmd_" + sys.argv[1]]
    cmd(*sys.argv[2:])
    print(f"{len(failures)} failure(s)" if failures else "all checks passed")
    sys.exit(1 if failures else 0)
