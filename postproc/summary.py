"""What a results.h5 holds, and the study's standard figures.

    python3 -m postproc.summary OUTDIR|RESULTS.h5 [--figures]

Prints the provenance (/meta), every history with its rows and columns, and the fixed arrays. With --figures,
writes the solver's standard figures next to results.h5 (postproc/figures.py lists them for every solver).

From any directory: `PYTHONPATH=/path/to/stickslip python3 -m postproc.summary ...`, or the launcher
`/path/to/stickslip/scripts/stickslip-post summary ...` (docs/output.md, "Post-processing").
"""
import os
import sys

from postproc.results import Results


def describe(r):
    lines = [f"{r.path}", f"  stickslip {r.meta.get('version')}  {r.meta.get('date')}  on {r.meta.get('host')}"
             f"  ({r.meta.get('mpi_ranks')} MPI rank(s)), input {r.meta.get('input_file')}"]
    for name in r.names():
        if name.startswith("meta/"):
            continue
        if "columns" in r.attrs(name):
            h = r.history(name)
            cols = ", ".join(h.columns[:8]) + (", ..." if len(h.columns) > 8 else "")
            lines.append(f"  history {name}: {len(h)} rows; {cols}")
        else:
            lines.append(f"  array   {name}: shape {r.array(name).shape}")
    return "\n".join(lines)


def figures(r):
    """Writes the solver's standard figures (postproc.figures) next to results.h5 and returns their paths."""
    from postproc import figures as standard

    return standard.save(r)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    r = Results(argv[1])
    print(describe(r))
    if "--figures" in argv[2:]:
        for f in figures(r) or []:
            print("  figure", f)


if __name__ == "__main__":
    main(sys.argv)
