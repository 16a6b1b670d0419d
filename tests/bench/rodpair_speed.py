#!/usr/bin/env python3
"""Speed of the rodpair solvers at equal accuracy on the validation case omega1-caseA (t = 0..1 s).

Reference: RK45 at rtol 1e-9 with N = 401, N_m = 50, converged in space and time (docs/validation/rodpair.md: N = 301
differs from it by 1e-4, N_m = 10 by 2e-6). At each of N = 51 and N = 301 (N_m = 10), every solver's accuracy knob is
scanned and its fastest setting whose tip-displacement history is within 1 % relative L2 of the reference is timed:
process CPU time of the solve as stored by the run (/rodpair@cpu_time; robust to other jobs on a shared machine, and
equal to wall time on an idle one: the solvers are serial), best of REPEAT runs.

Also: an event-free check of what the mode matching is for (mu_k N_F = 0: free rod 1; friction so large that nothing
slips: bonded rods; the MMM's coupling steps do not depend on N while RK45's steps grow like N; SK_BENCH_SCALING=0
skips it); the paper's comparison (a fixed-step Runge-Kutta at dt = 0.02 h/c against the MMM, N = 301, N_m = 50;
SK_BENCH_PAPER=0 skips it); the soft-rod-2 input soft-omega1-caseA at N = 301, N_m = 50 against its own reference
(SK_BENCH_SOFT=0 skips it); the layered pile inputs/rodpair/pile-two-layers.xml (a rod 1 in two segments, friction of two
soil layers; MMM takes the eigenpairs of the segments across the boundary in closed form as two uniform pieces) at N = 101, N_m = 20 over 0.1 s against RK45 at rtol
1e-9 at the same N (time-integration accuracy only), and the same for the layered rod 2 of
inputs/rodpair/layered-soil-omega1-caseB.xml (its modes from the layers' transfer matrices; line LAYERED2), and the
two-material rod 1 of inputs/rodpair/two-material-omega1.xml at its own N = 301, N_m = 50 over 0.25 s against RK45 at
rtol 1e-9 at that N (line NONUNIFORM); SK_BENCH_LAYERED=0 skips the three. SK_BENCH_RESULT=0 skips the RESULT
lines. SK_BENCH_CROSSOVER=1 (off by default) scans the MMM's transform settings on omega1-caseA (N = 101, 301, 1001):
the shortest segment on the fast transforms (-rodpair_mmm_transform_min), the node count from which an event
evaluation reconstructs a whole segment (-rodpair_mmm_transform_nodes) and FFTW_MEASURE against FFTW_ESTIMATE plans;
one CROSSOVER line per setting with the solve's CPU time (best of REPEAT). SK_BENCH_N1001=0 skips the RESULT line at
N = 1001 (RK45 takes about a minute per run there; CVODE is not run at that N).

Usage: rodpair_speed.py [STICKSLIP] [STICKSLIP_WITH_CVODE]   (defaults: $STICKSLIP, build/bin/stickslip)
Prints tables and, on its last lines:
PAPER rodpair rk_fixed_s=... mmm_s=... speedup=...
SOFT rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=301
LAYERED rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=101
LAYERED2 rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=101
NONUNIFORM rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=301
RESULT rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=51
RESULT rodpair mmm_s=... rk45_s=... cvode_s=... speedup_rk45=... speedup_cvode=... tip_l2=... n=301
RESULT rodpair mmm_s=... rk45_s=... cvode_s=nan speedup_rk45=... speedup_cvode=nan tip_l2=... n=1001
(tip_l2: the MMM's tip error at the timed setting; cvode_s=nan when no CVODE build is given)."""
import os
import platform
import sys
import tempfile
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUT = os.path.join(ROOT, "inputs", "rodpair", "omega1-caseA.xml")
sys.path.insert(0, ROOT)
from tests.common.runs import stickslip_run  # noqa: E402
SOFT = os.path.join(ROOT, "inputs", "rodpair", "soft-omega1-caseA.xml")
LAYERED = os.path.join(ROOT, "inputs", "rodpair", "pile-two-layers.xml")
LAYERED_OPTS = ["-rodpair_end", "0.1"]
SOIL = os.path.join(ROOT, "inputs", "rodpair", "layered-soil-omega1-caseB.xml")
TWOMAT = os.path.join(ROOT, "inputs", "rodpair", "two-material-omega1.xml")
TWOMAT_OPTS = ["-rodpair_end", "0.25"]
REPEAT = int(os.environ.get("SK_BENCH_REPEAT", "2"))
TOL = 0.01


def measure(prog, outdir, opts, inp=INPUT):
    """A run of INP into OUTDIR with the options OPTS: its tip displacement history, solve CPU time, events and steps
    (None when the run failed)."""
    if stickslip_run(prog, inp, outdir, "-force", "-quiet", *opts, check=False).returncode != 0:
        return None
    with h5py.File(os.path.join(outdir, "results.h5"), "r") as f:
        g = f["rodpair"]
        sec = g["sections"][:]
        cols = [c.decode() if isinstance(c, bytes) else str(c) for c in g["sections"].attrs["columns"]]
        return {"tip": sec[:, cols.index("u1_L")], "wall": float(g.attrs["cpu_time"]), "events": int(g.attrs["events"]),
                "steps": int(g.attrs["steps"])}


def l2(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def scan(prog, tmp, name, settings, ref, inp=INPUT):
    """every setting once; the fastest one within TOL is re-timed (best of REPEAT).
    Returns (wall time, tip error, setting label) or (nan, nan, None). Looser is not always faster: RK45 at rtol 1e-4
    locates many spurious stick/slip events and is slower than at 1e-5."""
    ok = []
    for label, opts in settings:
        r = measure(prog, os.path.join(tmp, f"{name}_{label}"), opts, inp)
        if r is None:
            print(f"  {name:6s} {label:22s} failed")
            continue
        e = l2(r["tip"], ref)
        print(f"  {name:6s} {label:22s} tip L2 {e:.2e}  cpu {r['wall']:.3f} s  events {r['events']}", flush=True)
        if e < TOL:
            ok.append((r["wall"], e, label, opts))
    if not ok:
        return float("nan"), float("nan"), None
    best, e, label, opts = min(ok)
    for _ in range(REPEAT - 1):
        r2 = measure(prog, os.path.join(tmp, f"{name}_{label}"), opts, inp)
        if r2 is not None:
            best = min(best, r2["wall"])
    print(f"  {name:6s} timed at {label}: {best:.3f} s (best of {REPEAT})", flush=True)
    return best, e, label


def scaling(prog, tmp):
    """MMM coupling steps and RK45 steps versus N on the validation input without events (N_F = 0: free rod 1; N_F = 1e6:
    bonded), N_m = 10, RK45 at rtol 1e-6."""
    with open(INPUT) as f:
        text = f.read()
    print("  event-free scaling (omega1-caseA with normal_load 0 / 1e6, N_m = 10): N, MMM steps and cpu, RK45 steps and cpu")
    for label, nf in (("free", "0"), ("bonded", "1e6")):
        inp = os.path.join(tmp, f"{label}.xml")
        with open(inp, "w") as f:
            f.write(text.replace('normal_load="1000"', f'normal_load="{nf}"'))
        for n in (51, 101, 201, 401):
            disc = ["-rodpair_nodes", str(n), "-rodpair_modes", "10"]
            m = measure(prog, os.path.join(tmp, "sc_mmm"), ["-rodpair_solver", "mmm", "-rodpair_mmm_coupling", "2"] + disc, inp)
            r = measure(prog, os.path.join(tmp, "sc_rk"), ["-rodpair_solver", "rk45", "-rodpair_rtol", "1e-6", "-rodpair_atol", "1e-12"] + disc, inp)
            if m is None or r is None:
                sys.exit(f"scaling run failed ({label}, N {n})")
            print(f"  {label:7s} N {n:4d}  mmm {m['steps']:6d} steps {m['wall']:.3f} s   rk45 {r['steps']:6d} steps {r['wall']:.3f} s"
                  f"   ({m['events']} / {r['events']} events)", flush=True)


def compare_at(prog, prog_cv, tmp, n, ref, inp, modes, extra=(), rtols=(1e-4, 1e-5, 1e-6)):
    """MMM, RK45 and CVODE at N = n (N_m = modes), each at its fastest accuracy setting within TOL of the reference.
    Returns the RESULT fields."""
    disc = ["-rodpair_nodes", str(n), "-rodpair_modes", str(modes)] + list(extra)
    rk = [(f"N {n} rtol {r:g}", ["-rodpair_solver", "rk45", "-rodpair_rtol", f"{r:g}", "-rodpair_atol", "1e-12"] + disc)
          for r in rtols]
    cv = [(f"N {n} rtol {r:g}", ["-rodpair_solver", "cvode", "-rodpair_rtol", f"{r:g}", "-rodpair_atol", "1e-12"] + disc)
          for r in (1e-5, 1e-6)]
    mm = [(f"N {n} coupling {c:g}", ["-rodpair_solver", "mmm", "-rodpair_mmm_coupling", f"{c:g}"] + disc) for c in (2, 0.5)]
    t_mmm, e_mmm, _ = scan(prog, tmp, "mmm", mm, ref, inp)
    t_rk, _, _ = scan(prog, tmp, "rk45", rk, ref, inp)
    t_cv = float("nan")
    if prog_cv:
        t_cv, _, _ = scan(prog_cv, tmp, "cvode", cv, ref, inp)
    return (f"mmm_s={t_mmm:.4g} rk45_s={t_rk:.4g} cvode_s={t_cv:.4g} speedup_rk45={t_rk / t_mmm:.3g} "
            f"speedup_cvode={t_cv / t_mmm:.3g} tip_l2={e_mmm:.3g} n={n}")


def crossover(prog, tmp):
    """solve CPU time (best of REPEAT) of the MMM on omega1-caseA (coupling 2, N_m = 10) for each transform setting"""
    lines = []
    for n in (101, 301, 1001):
        base = ["-rodpair_solver", "mmm", "-rodpair_mmm_coupling", "2", "-rodpair_nodes", str(n), "-rodpair_modes", "10"]
        settings = [("transform_min", str(m), ["-rodpair_mmm_transform_min", str(m)]) for m in (16, 32, 64, 128, 256, 100000)]
        settings += [("transform_nodes", str(k), ["-rodpair_mmm_transform_nodes", str(k)]) for k in (8, 16, 32, 64, 128, 100000)]
        settings += [("fft_measure", "1", ["-rodpair_mmm_fft_measure"])]
        for key, val, opts in settings:
            if n == 1001 and key == "transform_min" and val == "100000":
                continue  # the dense path at N = 1001 takes minutes (docs/benchmarks.md)
            best = float("inf")
            for _ in range(REPEAT):
                r = measure(prog, os.path.join(tmp, "xo"), base + opts)
                if r is None:
                    sys.exit(f"crossover run failed ({key} {val}, N {n})")
                best = min(best, r["wall"])
            line = f"CROSSOVER rodpair n={n} {key}={val} mmm_s={best:.4g} events={r['events']}"
            print("  " + line, flush=True)
            lines.append(line)
    return lines


def reference(prog, tmp, inp, label, n=401, modes=50, extra=()):
    ref = measure(prog, os.path.join(tmp, "ref_" + label), ["-rodpair_solver", "rk45", "-rodpair_rtol", "1e-9", "-rodpair_atol",
                                                         "1e-12", "-rodpair_nodes", str(n), "-rodpair_modes", str(modes)] + list(extra),
              inp)
    if ref is None:
        sys.exit("reference run failed")
    print(f"  reference ({label}) rk45 rtol 1e-9, N {n}, N_m {modes}: cpu {ref['wall']:.3f} s, events {ref['events']}", flush=True)
    return ref["tip"]


def paper(prog, tmp, ref):
    """The paper's comparison: a Runge-Kutta integrator with a fixed step of 0.02 h/c (RK45 with that maximum step and
    a tolerance so loose that the step never shrinks below it except at events), N = 301, N_m = 50, against the MMM
    at the inputs' defaults, over the first 0.25 s (tip errors against the reference's first 0.25 s)."""
    h_over_c, end = 50.0 / 300 / 1000.0, ["-rodpair_end", "0.25"]  # 0.25 s: the fixed step costs about 50 s per second
    fixed = measure(prog, os.path.join(tmp, "paper_rk"), ["-rodpair_solver", "rk45", "-rodpair_rtol", "1", "-rodpair_atol", "1",
                                                      "-rodpair_max_step", f"{0.02 * h_over_c:.6g}"] + end)
    mmm = measure(prog, os.path.join(tmp, "paper_mmm"), ["-rodpair_solver", "mmm"] + end)
    if fixed is None or mmm is None:
        sys.exit("paper comparison failed")
    print(f"  paper comparison, N 301, N_m 50: fixed-step RK dt = 0.02 h/c: {fixed['steps']} steps, cpu {fixed['wall']:.3f} s, "
          f"tip L2 {l2(fixed['tip'], ref[:len(fixed['tip'])]):.2e}; MMM cpu {mmm['wall']:.3f} s, "
          f"tip L2 {l2(mmm['tip'], ref[:len(mmm['tip'])]):.2e}", flush=True)
    return f"rk_fixed_s={fixed['wall']:.4g} mmm_s={mmm['wall']:.4g} speedup={fixed['wall'] / mmm['wall']:.3g}"


def main():
    prog = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("STICKSLIP", os.path.join(ROOT, "build", "bin", "stickslip"))
    prog_cv = sys.argv[2] if len(sys.argv) > 2 else None
    print(f"rodpair_speed: {platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}; input {os.path.relpath(INPUT, ROOT)}")
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        if os.environ.get("SK_BENCH_SCALING", "1") != "0":
            scaling(prog, tmp)
        if os.environ.get("SK_BENCH_CROSSOVER", "0") != "0":
            lines += crossover(prog, tmp)
        need_ref = os.environ.get("SK_BENCH_PAPER", "1") != "0" or os.environ.get("SK_BENCH_RESULT", "1") != "0"
        ref = reference(prog, tmp, INPUT, "omega1-caseA") if need_ref else None
        if os.environ.get("SK_BENCH_PAPER", "1") != "0":
            lines.append("PAPER rodpair " + paper(prog, tmp, ref))
        if os.environ.get("SK_BENCH_SOFT", "1") != "0":
            ref_soft = reference(prog, tmp, SOFT, "soft-omega1-caseA")
            lines.append("SOFT rodpair " + compare_at(prog, prog_cv, tmp, 301, ref_soft, SOFT, 50))
        if os.environ.get("SK_BENCH_LAYERED", "1") != "0":
            ref_lay = reference(prog, tmp, LAYERED, "pile-two-layers", 101, 20, LAYERED_OPTS)
            lines.append("LAYERED rodpair " + compare_at(prog, prog_cv, tmp, 101, ref_lay, LAYERED, 20, LAYERED_OPTS))
            ref_soil = reference(prog, tmp, SOIL, "layered-soil-omega1-caseB", 101, 20, LAYERED_OPTS)
            lines.append("LAYERED2 rodpair " + compare_at(prog, prog_cv, tmp, 101, ref_soil, SOIL, 20, LAYERED_OPTS))
            ref_two = reference(prog, tmp, TWOMAT, "two-material-omega1", 301, 50, TWOMAT_OPTS)
            lines.append("NONUNIFORM rodpair " + compare_at(prog, prog_cv, tmp, 301, ref_two, TWOMAT, 50, TWOMAT_OPTS))
        if os.environ.get("SK_BENCH_RESULT", "1") != "0":
            for n in (51, 301):
                lines.append("RESULT rodpair " + compare_at(prog, prog_cv, tmp, n, ref, INPUT, 10))
            if os.environ.get("SK_BENCH_N1001", "1") != "0":
                # RK45 only (the target at this N is against RK45), at rtol 1e-5: 1e-4 is 1.3e-2 off the reference and
                # took 258 s against 50 s (163 877 spurious events, 2026-11-27); 1e-6 left out to bound the run time
                lines.append("RESULT rodpair " + compare_at(prog, None, tmp, 1001, ref, INPUT, 10, rtols=(1e-5,)))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
