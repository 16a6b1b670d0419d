"""The energy balance of every contact input in inputs/ at its own settings (docs/validation/contact.md, "Energy balance
of every contact input"): runs each with the given program and prints a markdown table of its step, contact dt, largest
energy in play, the balance drift at the end and its largest value once the energy in play has reached a tenth of its
final value (both relative to the largest energy in play so far, the run-time check's measure) and the contact pairs'
discontinuity work (signed, relative to the largest energy in play, to compare with the signed drift at the end).
The page's table is generated from `summary` by `python3 -m postproc.validate contact-energy` (postproc/studies.py);
this command prints the same row for any input.

usage: python3 -m postproc.contact_energy PROGRAM [INPUT ...]   (default: every input with a <contact> in inputs/)"""
import glob
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from postproc.results import Results


def relative_drift(res):
    """Per history row of /explicit/energy of the Results RES: |balance - balance_0| relative to the largest energy in
    play so far (kinetic, internal, spring, |external work|, the pairs' stored, dissipated and |supplied| energy: the
    run-time check's measure; 0 while nothing is in play), and that largest energy (J)."""
    e = res.history("/explicit/energy")
    cols = [c for c in e.columns if c in ("kinetic", "internal", "spring", "external_work") or c.startswith(("stored_", "dissipated_", "supplied_"))]
    scale = np.maximum.accumulate(np.max(np.abs(np.array([e[c] for c in cols])), axis=0))
    rel = np.zeros(len(scale))
    ok = scale > 0
    rel[ok] = np.abs(e["balance"] - e["balance"][0])[ok] / scale[ok]
    return rel, scale


def balance(res):
    """(final drift, largest drift) of the balance relative to the running largest energy in play, that energy (J) and
    the signed drift at the end (J)."""
    e = res.history("/explicit/energy")
    rel, scale = relative_drift(res)
    # the largest drift once the energy in play has reached a tenth of its final value: before, one step's accounting is
    # a large part of the tiny energy then in play, and the run-time check waits for it to recede
    grown = scale >= 0.1 * scale[-1]
    return rel[-1], rel[grown].max(), scale[-1], e["balance"][-1] - e["balance"][0]


def options(text):
    """The options a run of an input with the text TEXT needs for the table: the energy history of an input that writes
    none (histories="0", the rough-surface studies' realisation inputs), every step as by default."""
    return ["-explicit_history_interval", "1"] if 'histories="0"' in text else []


def inputs(root="."):
    """{path from ROOT: its options} of every explicit input of inputs/ under ROOT with a contact pair, sorted."""
    out = {}
    for f in sorted(glob.glob(os.path.join(root, "inputs", "*", "*.xml"))):
        text = open(f).read()
        if "<contact" in text and "<explicit" in text:
            out[os.path.relpath(f, root)] = options(text)
    return out


def summary(res):
    """The row of the table for the Results RES of a run: step, contact dt (s), largest energy in play (J), drift at the
    end, largest drift (relative), signed drift at the end and the pairs' discontinuity work (relative, signed)."""
    a = res.attrs("/explicit")
    end, worst, scale, drift = balance(res)
    disc = sum(res.history(n)["discontinuity_work"][-1] for n in res.names()
               if n.startswith("explicit/contact/") and n.count("/") == 2)
    return a["dt"], a.get("dt_contact", float("nan")), scale, end, worst, drift / scale, disc / scale


def main():
    prog = sys.argv[1]
    print("| input | dt (s) | contact dt (s) | largest energy (J) | drift at the end | largest drift | signed drift at the end | discontinuity work | wall (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for inp, opts in ({i: options(open(i).read()) for i in sys.argv[2:]} or inputs()).items():
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.time()
            p = subprocess.run([prog, "run", inp, "-o", tmp, "-force", "-quiet", *opts], capture_output=True, text=True)
            wall = time.time() - t0
            if p.returncode:
                print(f"| `{inp}` | failed: {p.stderr.strip().splitlines()[0][:120]} | | | | | | | {wall:.0f} |", flush=True)
                continue
            dt, dtc, scale, end, worst, drift, disc = summary(Results(tmp))
            print(f"| `{inp}` | {dt:.3g} | {dtc:.3g} | {scale:.3g} | {end:.2g} | {worst:.2g} | {drift:+.2g} | {disc:+.2g} | "
                  f"{wall:.0f} |", flush=True)


if __name__ == "__main__":
    main()
