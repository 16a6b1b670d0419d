#!/bin/sh
# Runs every bars2020 input (harmonic-muN100-fine.xml: the refined mu N = 100 run of the comparison with the linear
# model) and the 225-mode rerun of block mu N = 10 for eq. 29 into RUNDIR, then makes the figures of
# docs/validation/bars2020.md:  tests/regression/bars2020/run_all.sh [STICKSLIP] [RUNDIR]   (from the repo root)
set -e
exe=${1:-build/bin/stickslip}
rundir=${2:-build/bars2020-all}
mkdir -p "$rundir"
for f in inputs/bars2020/*.xml; do
  stem=$(basename "$f" .xml)
  "$exe" run "$f" -o "$rundir/$stem" -force -quiet
done
"$exe" run inputs/bars2020/block-muN10.xml -o "$rundir/block-muN10-0.9N" -force -quiet -bars2020_modes 225 -bars2020_dt 3.21268e-6
PYTHONPATH=. python3 -m postproc.bars2020 figures "$rundir" docs/validation/bars2020
