#!/bin/sh
# Short runs of the program under valgrind's memcheck: any invalid read/write, use of uninitialised memory or bad
# free fails (exit 9). Leaks are left to the sanitizer job (LeakSanitizer), which can tell OpenMPI's own from ours.
# Usage: tests/valgrind/run.sh [BUILD_DIR]   (default build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$root/build}/bin/stickslip
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
vg() { valgrind --error-exitcode=9 --leak-check=no -q "$exe" "$@" -quiet >"$out/log" 2>&1 || { cat "$out/log"; exit 9; }; }
# a copy of input $1 with <time end="$2">, for a short run
short() { sed 's/<time end="[^"]*"/<time end="'"$2"'"/' "$1" >"$out/short-$(basename "$1")" && echo "$out/short-$(basename "$1")"; }
vg run "$root/inputs/rodpair/omega1-caseA.xml" -o "$out/rodpair-mmm" -rodpair_solver mmm -rodpair_end 0.02
vg run "$root/inputs/rodpair/omega1-caseA.xml" -o "$out/rodpair-rk45" -rodpair_solver rk45 -rodpair_end 0.02
# a two-material rod 1 (the boundary on node 30 of 61): 31 segments across it in closed form as two uniform pieces
vg run "$root/inputs/rodpair/two-material-omega1.xml" -o "$out/rodpair-two-material" -rodpair_nodes 61 -rodpair_modes 20 -rodpair_end 0.1
vg run "$root/inputs/explicit/neohookean_block.xml" -o "$out/explicit"
vg run "$root/inputs/slider2d/springslider-rigid.xml" -o "$out/slider"
vg run "$(short "$root/inputs/explicit/contact_ring.xml" 0.01)" -o "$out/contact-circle"
vg run "$(short "$root/inputs/explicit/contact_sine_pendulum.xml" 0.01)" -o "$out/contact-sine"
vg run "$(short "$root/inputs/explicit/contact_damping.xml" 0.01)" -o "$out/contact-implicit-damping"
vg run "$(short "$root/inputs/bars2020/block-muN10.xml" 0.0005)" -o "$out/bars2020"
vg run "$(short "$root/inputs/bowedstring/section5.xml" 0.2)" -o "$out/bowedstring"
# NURBS patches in contact: the block's slave patch face on the NURBS slab with the mortar rule (split face elements,
# the master's bucket grid), in contact and sliding from the first step
vg run "$(short "$root/tests/regression/contact/iga_block_slide_mpi.xml" 0.0003)" -o "$out/contact-nurbs-mortar"
# a patch face against a plane (the weighted gaps and velocities by the face's weighting, the forces by its transpose),
# the LuGre damping implicit at the control points
vg run "$(short "$root/inputs/explicit/contact_damping_iga.xml" 0.01)" -o "$out/contact-patch-plane"
# a run that writes no histories (histories="0"): the energy check at its own samples and at the last step
vg run "$(short "$root/tests/regression/rough3d/kappa_plate_tiny.xml" 0.002)" -o "$out/no-histories"
# the reduced quadrature of a 3D p = 3 patch (the force kernel with 3 of its 4 points per direction, its stored geometry)
cat >"$out/iga-reduced.xml" <<EOF
<explicit><mesh><patch name="body" degree="3" refine="3 2 2"><box lower="0 0 0" upper="1 0.5 0.5"/></patch></mesh>
<block name="body" material="neo_hookean" E="1e6" nu="0.3" rho="1000" quadrature="reduced"/>
<displacement nodeset="left" component="all"/><gravity acceleration="0 -10 0"/><time end="0.05"/><output fields="0"/>
</explicit>
EOF
vg run "$out/iga-reduced.xml" -o "$out/iga-reduced"
# the 3D mortar distribution (clipping, shares, the static patch tests of two bodies) through its unit test
SK_SOURCE_DIR="$root" valgrind --error-exitcode=9 --leak-check=no -q "$(dirname "$exe")/../tests/unit_contact_contact_mortar3d" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 9; }
vg validate "$root/inputs/bowedstring/section5.xml"
vg validate "$root/inputs/bars2020/block-muN10.xml"
echo "valgrind: clean"
