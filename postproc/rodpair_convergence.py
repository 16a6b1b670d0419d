"""Convergence study of the rodpair cases (Tsetas et al. 2022, Fig. 13): tip-displacement L2 norm ratio
R = L2_i / L2_final versus the nodes N of rod 1 (at the largest N_m) and the modes N_m of rod 2 (at the largest N).

    python3 -m postproc.rodpair_convergence STICKSLIP OUTDIR [--solver mmm] [--end 1.0] [--cases omega1-caseA,...]
        [--nodes 51,101,201,301,401] [--modes 10,25,50,100]

Runs go to OUTDIR/runs/<case>/N<n>_M<m>/ (kept, reused when present); the figure and table go to OUTDIR (the figure of
docs/validation/rodpair.md is copied from there; its table is generated from the same runs by
`python3 -m postproc.validate rodpair-convergence`)."""
import argparse
import os
import subprocess

from postproc.rodpair import convergence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stickslip")
    ap.add_argument("outdir")
    ap.add_argument("--solver", default="mmm")
    ap.add_argument("--end", default="1.0")
    ap.add_argument("--cases", default="omega1-caseA,omega1-caseB,omega2-caseA,omega2-caseB")
    ap.add_argument("--nodes", default="51,101,201,301,401")
    ap.add_argument("--modes", default="10,25,50,100")
    a = ap.parse_args()
    nodes = [int(n) for n in a.nodes.split(",")]
    modes = [int(m) for m in a.modes.split(",")]
    cases = []
    for case in a.cases.split(","):
        d = os.path.join(a.outdir, "runs", case)
        combos = [(n, max(modes)) for n in nodes] + [(max(nodes), m) for m in modes]
        for n, m in sorted(set(combos)):
            out = os.path.join(d, f"N{n}_M{m}")
            if os.path.exists(os.path.join(out, "results.h5")):
                continue
            cmd = [a.stickslip, "run", os.path.join(ROOT, "inputs", "rodpair", f"{case}.xml"), "-o", out, "-force", "-quiet",
                   "-rodpair_solver", a.solver, "-rodpair_nodes", str(n), "-rodpair_modes", str(m), "-rodpair_end", a.end]
            print(" ".join(cmd[1:]), flush=True)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        cases.append((case, d))
    f, table = convergence(a.outdir, cases)
    print(f)
    print("\n".join(table))


if __name__ == "__main__":
    main()
