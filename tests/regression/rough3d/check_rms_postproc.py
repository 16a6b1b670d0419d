"""The RMS study's post-processing (postproc/rough3d_rms.py) against the campaign's own aggregation (src/dynamics/
campaign.c) on the uninterrupted tiny campaign of rough3d_campaign_restart: per correlation length the Python mean of
the realisations' global sticking-time ratios and of their contact-area histories must equal the aggregates the C code
wrote to results.h5 (the same numbers summed in another order: 1e-12), and the table must have one row per l_c with all
realisations finished.

    python3 check_rms_postproc.py OUTDIR
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.environ.get("SK_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..")))
from postproc import rough3d_rms  # noqa: E402
from tests.common.runs import run_command  # noqa: E402

TOL = 1e-12  # the same sums in another order, in double precision


def main(outdir):
    data = rough3d_rms.read([outdir])
    with h5py.File(os.path.join(outdir, "results.h5"), "r") as f:
        g = f["campaign"]
        groups = {float(g[k].attrs["correlation_length"]): g[k] for k in g}
        if sorted(groups) != sorted(lc for _, lc in data):
            sys.exit(f"FAIL: correlation lengths {sorted(lc for _, lc in data)} against {sorted(groups)}")
        for (rms, lc), d in data.items():
            s = groups[lc]
            if d["n"] != int(s.attrs["finished"]) or d["failed"]:
                sys.exit(f"FAIL: l_c = {lc}: {d['n']} finished, {d['failed']} failed; the campaign says {s.attrs['finished']}")
            checks = {"global sticking-time ratio": (np.mean(d["global"]), s["global_sticking_time_ratio_mean"][()][0]),
                      "contact area": (np.mean(np.mean(d["area_rows"], axis=0)), np.mean(s["contact_area_fraction_mean"][()]))}
            for what, (py, c) in checks.items():
                print(f"l_c = {lc}: {what} {py:.15g} (post-processing) against {c:.15g} (campaign)")
                if abs(py - c) > TOL * max(1.0, abs(c)):
                    sys.exit(f"FAIL: l_c = {lc}: {what} differs by {abs(py - c):.3g}")
    rows = [l for l in run_command([sys.executable, "-m", "postproc.rough3d_rms", "table", outdir]).stdout.splitlines()
            if l.startswith("| ") and not l.startswith("| RMS")]
    if len(rows) != len(data):
        sys.exit(f"FAIL: the table has {len(rows)} rows for {len(data)} (RMS, l_c) pairs")
    print("PASS")


if __name__ == "__main__":
    main(sys.argv[1])
