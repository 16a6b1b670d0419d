#!/usr/bin/env python3
"""Figure of a hammer blow sequence (docs/validation/rodpair.md, "Pile driving"): set and blow count per blow, the head
force of the first blows, and the residual axial force and friction profiles of rod 1 after blows (from
/rodpair/hammer_blows, /rodpair/hammer and /rodpair/residual_*). Usage: plot_hammer.py RESULTS.h5 OUT.png"""
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from postproc.results import Results  # noqa: E402


def main():
    res, png = sys.argv[1], sys.argv[2]
    r = Results(res)
    b, h = r.history("rodpair/hammer_blows"), r.history("rodpair/hammer")
    Nax, Ff, cap = r.array("rodpair/residual_axial_force"), r.array("rodpair/residual_friction"), r.array("rodpair/residual_capacity")
    z = r.array("rodpair/z1_nodes")
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(14, 4.2))
    a1.bar(b["blow"], 1e3 * b["set"], color="tab:blue")
    a1.set_xlabel("blow")
    a1.set_ylabel("set (mm)")
    a1b = a1.twinx()
    a1b.plot(b["blow"], b["blows_per_0.25m"], "o-", color="tab:red")
    a1b.set_ylabel("blow count per 0.25 m", color="tab:red")
    a1.set_title("set and blow count per blow")
    for k in range(min(2, len(b["blow"]))):
        sel = (h["t"] >= b["t_start"][k]) & (h["t"] <= b["t_start"][k] + 0.03)
        a2.plot(1e3 * (h["t"][sel] - b["t_start"][k]), 1e-6 * h["head_force"][sel], label=f"blow {k + 1}")
    a2.set_xlabel("time after impact (ms)")
    a2.set_ylabel("cushion force on the head (MN)")
    a2.legend()
    a2.set_title("head force")
    zm = 0.5 * (z[1:] + z[:-1])
    for k in sorted({0, 1, len(b["blow"]) // 2, len(b["blow"]) - 1}):
        a3.plot(1e-3 * Nax[k], zm, label=f"axial force after blow {k + 1}")
    h_trib = np.concatenate([[0.0], np.diff(z) / 2]) + np.concatenate([np.diff(z) / 2, [0.0]])  # tributary lengths
    a3.plot(1e-3 * Ff[-1] / h_trib, z, "k:", lw=1, label="friction per length after the last (kN/m)")
    a3.plot(1e-3 * cap[-1] / h_trib, z, color="0.6", lw=0.8, label="static capacity per length (kN/m)")
    a3.invert_yaxis()
    a3.set_xlabel("kN (axial: tension > 0)")
    a3.set_ylabel("z1 (m from the head)")
    a3.legend(fontsize=7)
    a3.set_title("residual (locked-in) state")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main()
