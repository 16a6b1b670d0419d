#!/usr/bin/env python3
"""Figure of a blow sequence: set per blow and penetration (from /rodpair/blows), head displacement over time (from
/rodpair/sections). Usage: plot_blows.py RESULTS.h5 OUT.png   (docs/validation/rodpair/pile-blows.png)."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from postproc.results import Results  # noqa: E402


def main():
    res, png = sys.argv[1], sys.argv[2]
    r = Results(res)
    b, s = r.history("rodpair/blows"), r.history("rodpair/sections")
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    a1.bar(b["blow"], 1e3 * b["set"], color="tab:blue", label="set per blow")
    a1.set_xlabel("blow")
    a1.set_ylabel("set per blow (mm)")
    a1b = a1.twinx()
    a1b.plot(b["blow"], 1e3 * b["penetration"], "o-", color="tab:red", label="penetration")
    a1b.set_ylabel("penetration (mm)", color="tab:red")
    a1.set_title("toe slip: set per blow and accumulated")
    a2.plot(s["t"], 1e3 * s["u1_0"], lw=0.8, label="head u1(0)")
    a2.plot(s["t"], 1e3 * s["u1_L"], lw=0.8, label="toe u1(L1)")
    a2.set_xlabel("t (s)")
    a2.set_ylabel("displacement (mm)")
    a2.legend()
    a2.set_title("head and toe displacement")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main()
