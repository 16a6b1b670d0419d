#!/bin/sh
# Regenerates the figures of docs/validation/bk.md (docs/validation/slider2d/bk*.png) from the study inputs.
# Usage: tests/regression/bk/make_figures.sh [STICKSLIP] [OUTDIR]   (run from the repository root; about 30 s on 2 cores)
set -e
exe=${1:-build/bin/stickslip}
out=${2:-build/bk-figures}
here=$(dirname "$0")
for n in 3 5 10 15; do "$exe" run inputs/bk/bk-n$n.xml -o "$out/bk-n$n" -force -quiet; done
"$exe" run inputs/slider2d/springslider-rigid.xml -o "$out/springslider" -force -quiet
for c in lugre-coulomb-limit coulomb-modified coulomb; do "$exe" run "$here/springslider-$c.xml" -o "$out/$c" -force -quiet; done
PYTHONPATH=. MPLBACKEND=Agg /usr/bin/python3 -m postproc.bk figures docs/validation/slider2d "$out"/bk-n3 "$out"/bk-n5 "$out"/bk-n10 "$out"/bk-n15
PYTHONPATH=. MPLBACKEND=Agg /usr/bin/python3 -m postproc.springslider figure docs/validation/slider2d "$out/springslider" "$out/lugre-coulomb-limit" \
  "$out/coulomb-modified" "$out/coulomb"
