#!/usr/bin/env python3
"""The IGA slider studies of docs/validation/slider2d.md ("slider2d-iga") with the full and the reduced quadrature of
the patch force (<block quadrature="reduced">, docs/theory.md, "Reduced quadrature of patches"), side by side: each
input of inputs/slider2d/ run as it is and with quadrature="reduced" added to its patch block, and the table values of
`postproc.slider2d` (sticking-time ratio, mean COF and COF range after 1 s, normal force range, dissipation, energy
drift) of both. Prints a markdown table (one row per input and rule) and, last,
  RESULT iga_reduced_sliders stick_ratio_max_change=... mean_cof_max_rel_change=... dissipation_max_rel_change=...
(the largest absolute change of the sticking-time ratio and relative changes of the mean COF and the dissipation,
reduced against full, over the inputs). Seven explicit runs of 5-35 s per rule.

Usage: iga_reduced_sliders.py STICKSLIP [OUTDIR]   (run from the top of the repository; OUTDIR default: a temporary
directory)"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.getcwd())
from postproc.slider2d import load, table_values  # noqa: E402

RUNS = ["iga-springslider-elastic"] + [f"iga-slider-velocity-h{h}" for h in ("0.5", "0.25", "0.16", "0.15", "0.125", "0.1")]


def row(name, rule, v):
    h, stick, cof, (c0, c1), (n0, n1), diss, drift = v
    return (f"| {name} | {rule} | {h:.3g} | {stick:.3f} | {cof:.4f} | {c0:.3f} .. {c1:.3f} | {n0:.0f} .. {n1:.0f} | "
            f"{diss:.4g} | {drift:.1e} |")


def main():
    prog = sys.argv[1]
    tmp = tempfile.TemporaryDirectory()
    outdir = sys.argv[2] if len(sys.argv) > 2 else tmp.name
    os.makedirs(outdir, exist_ok=True)
    print("| run | quadrature | h (m) | sticking-time ratio | mean COF (t > 1 s) | COF range | normal force (N/m) | "
          "dissipation (J/m) | energy drift |")
    print("|---|---|---|---|---|---|---|---|---|")
    dstick = dcof = ddiss = 0.0
    for name in RUNS:
        text = open(f"inputs/slider2d/{name}.xml").read()
        reduced, n = re.subn(r'(<block name="body"[^>]*?)\s*/>', r'\1 quadrature="reduced"/>', text)
        if n != 1:
            sys.exit(f"FAIL: {name}: no single <block name=\"body\"> to add the attribute to")
        values = {}
        for rule, t in (("full", text), ("reduced", reduced)):
            path = os.path.join(outdir, f"{name}-{rule}.xml")
            open(path, "w").write(t)
            out = os.path.join(outdir, f"{name}-{rule}")
            r = subprocess.run([prog, "run", path, "-o", out, "-force", "-quiet"], capture_output=True, text=True)
            if r.returncode:
                sys.exit(f"FAIL: {path}\n{r.stdout}{r.stderr}")
            values[rule] = table_values(load(out))
            print(row(name, rule, values[rule]), flush=True)
        f, g = values["full"], values["reduced"]
        dstick = max(dstick, abs(g[1] - f[1]))
        dcof = max(dcof, abs(g[2] / f[2] - 1))
        ddiss = max(ddiss, abs(g[5] / f[5] - 1))
    print(f"RESULT iga_reduced_sliders stick_ratio_max_change={dstick:.3g} mean_cof_max_rel_change={dcof:.3g} "
          f"dissipation_max_rel_change={ddiss:.3g}")


if __name__ == "__main__":
    main()
