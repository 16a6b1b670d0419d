#!/usr/bin/env python3
"""Bearing graph of a hammer input (docs/validation/rodpair.md, "Pile driving"): the input's soil resistance scaled
(every friction point's normal load N_F times a factor), a few blows each, and the steady blow count per 0.25 m against
the shaft capacity (the integral of mu_s N_F over the embedded length at t = 0). The steady count is taken from the
toe's set of the last blow (from /rodpair/residual_u1): in steady driving the head's set equals it, but over the first
blows the head's set also holds the growth of the locked-in shortening of the pile, which at high resistance takes many
blows to saturate (the table lists both).

  bearing_graph.py INPUT.xml STICKSLIP OUTDIR PNG [--factors 0.5,1,...] [--blows 3]

Writes OUTDIR/f<factor>/results.h5, prints a Markdown table (the numbers of the docs) and draws PNG."""
import argparse
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from postproc.results import Results  # noqa: E402


def shaft_capacity(root):
    """integral of mu_s N_F over the initial contact [0, L1 - l1] of rod 2 (piecewise linear profile, constant below)"""
    r1, fr = root.find("rod1"), root.find("friction")
    depth = float(r1.get("length")) - float(r1.get("offset"))
    pts = fr.findall("point")
    z = np.linspace(0, depth, 20001)
    if pts:
        d = [float(p.get("depth")) for p in pts]
        q = [float(p.get("mu_s")) * float(p.get("normal_load")) for p in pts]
        f = np.interp(z, d, q)
    else:
        f = np.full_like(z, float(fr.get("mu_s")) * float(fr.get("normal_load")))
    return np.trapz(f, z)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("stickslip")
    ap.add_argument("outdir")
    ap.add_argument("png")
    ap.add_argument("--factors", default="0.5,1,1.5,2,3,4")
    ap.add_argument("--blows", type=int, default=3)
    a = ap.parse_args()
    rows = []
    for fac in [float(x) for x in a.factors.split(",")]:
        root = ET.parse(a.input).getroot()
        fr = root.find("friction")
        for p in fr.findall("point") or [fr]:
            p.set("normal_load", repr(float(p.get("normal_load")) * fac))
        root.find("load/blows").set("count", str(a.blows))
        d = os.path.join(a.outdir, f"f{fac:g}")
        os.makedirs(d, exist_ok=True)
        inp = os.path.join(d, "input.xml")
        ET.ElementTree(root).write(inp, xml_declaration=True, encoding="UTF-8")
        subprocess.run([a.stickslip, "run", inp, "-o", d, "-force", "-quiet"], check=True, stdout=subprocess.DEVNULL)
        r = Results(os.path.join(d, "results.h5"))
        b = r.history("rodpair/hammer_blows")
        toe = r.array("rodpair/residual_u1")[:, -1]
        toe_set = toe[-1] - (toe[-2] if len(toe) > 1 else 0.0)
        count = 0.25 / toe_set if toe_set > 0 else np.inf
        rows.append((fac, shaft_capacity(root), len(b["blow"]), b["set"][-1], toe_set, count, b["transfer_ratio"][-1]))
    print("| factor on N_F | shaft capacity (kN) | blows | head set, last blow (mm) | toe set, last blow (mm) | blow count per 0.25 m (toe) | energy transferred / impact energy |")
    print("|---|---|---|---|---|---|---|")
    for fac, cap, nb, s, ts, c, tr in rows:
        print(f"| {fac:g} | {cap / 1e3:.0f} | {nb} | {1e3 * s:.3f} | {1e3 * ts:.4f} | {c:.1f} | {tr:.3f} |")
    cap = np.array([x[1] for x in rows]) / 1e3
    cnt = np.array([x[5] for x in rows])
    ok = np.isfinite(cnt) & (cnt < 10 * float(ET.parse(a.input).getroot().find("load/blows").get("refusal", "100")))
    fig, ax = plt.subplots(figsize=(6, 4.2))
    ax.plot(cnt[ok], cap[ok], "o-")  # counts far beyond refusal (a toe that no longer moves) are off the graph
    ref = float(ET.parse(a.input).getroot().find("load/blows").get("refusal", "100"))
    ax.axvline(ref, color="tab:red", ls="--", label=f"refusal ({ref:g} per 0.25 m)")
    ax.set_xlabel("blow count per 0.25 m (from the toe's set)")
    ax.set_ylabel("shaft capacity (kN)")
    ax.set_title("bearing graph: " + os.path.basename(a.input))
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
