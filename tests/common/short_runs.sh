#!/bin/sh
# The short runs of the program that tests/valgrind/run.sh (memcheck) and tests/sanitizer/program_runs.sh (the
# sanitizer build: AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) make: the main paths of every solver,
# which the unit tests do not take. Each run, and the one unit test below, is started by WRAPPER (none: directly); a
# failure prints its output and ends the script with exit status 1.
# Usage: tests/common/short_runs.sh BUILD_DIR [WRAPPER...]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
shift
wrap="$*" # words without spaces (a command and its options)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# the program with ARGS (and -quiet)
check() { $wrap "$build/bin/stickslip" "$@" -quiet >"$out/log" 2>&1 || { cat "$out/log"; echo "FAILED: ${wrap:+$wrap }stickslip $*"; exit 1; }; }
# the test program NAME of the build
check_test() { SK_SOURCE_DIR="$root" $wrap "$build/tests/$1" >"$out/log" 2>&1 || { cat "$out/log"; echo "FAILED: ${wrap:+$wrap }$1"; exit 1; }; }

# a copy of input $1 with <time end="$2">, for a short run (its relative file="..." references made absolute)
short() {
  sed -e 's/<time end="[^"]*"/<time end="'"$2"'"/' -e 's|file="\([^/"][^"]*\)"|file="'"$(cd "$(dirname "$1")" && pwd)"'/\1"|g' "$1" \
    >"$out/short-$(basename "$1")" && echo "$out/short-$(basename "$1")"
}
check run "$root/inputs/rodpair/omega1-caseA.xml" -o "$out/rodpair-mmm" -rodpair_solver mmm -rodpair_end 0.02
check run "$root/inputs/rodpair/omega1-caseA.xml" -o "$out/rodpair-rk45" -rodpair_solver rk45 -rodpair_end 0.02
# a two-material rod 1 (the boundary on node 30 of 61): 31 segments across it in closed form as two uniform pieces
check run "$root/inputs/rodpair/two-material-omega1.xml" -o "$out/rodpair-two-material" -rodpair_nodes 61 -rodpair_modes 20 -rodpair_end 0.1
check run "$root/inputs/explicit/neohookean_block.xml" -o "$out/explicit"
check run "$root/inputs/slider2d/springslider-rigid.xml" -o "$out/slider"
check run "$(short "$root/inputs/explicit/contact_ring.xml" 0.01)" -o "$out/contact-circle"
check run "$(short "$root/inputs/explicit/contact_sine_pendulum.xml" 0.01)" -o "$out/contact-sine"
check run "$(short "$root/inputs/explicit/contact_damping.xml" 0.01)" -o "$out/contact-implicit-damping"
check run "$(short "$root/inputs/bars2020/block-muN10.xml" 0.0005)" -o "$out/bars2020"
check run "$(short "$root/inputs/bowedstring/section5.xml" 0.2)" -o "$out/bowedstring"
# NURBS patches in contact: the block's slave patch face on the NURBS slab with the mortar rule (split face elements,
# the master's bucket grid), in contact and sliding from the first step
check run "$(short "$root/tests/regression/contact/iga_block_slide_mpi.xml" 0.0003)" -o "$out/contact-nurbs-mortar"
# a patch face against a plane (the weighted gaps and velocities by the face's weighting, the forces by its transpose),
# the LuGre damping implicit at the control points
check run "$(short "$root/inputs/explicit/contact_damping_iga.xml" 0.01)" -o "$out/contact-patch-plane"
# a run that writes no histories (histories="0"): the energy check at its own samples and at the last step
check run "$(short "$root/tests/regression/rough3d/kappa_plate_tiny.xml" 0.002)" -o "$out/no-histories"
# the reduced quadrature of a 3D p = 3 patch (the force kernel with 3 of its 4 points per direction, its stored geometry)
cat >"$out/iga-reduced.xml" <<EOF
<explicit><mesh><patch name="body" degree="3" refine="3 2 2"><box lower="0 0 0" upper="1 0.5 0.5"/></patch></mesh>
<block name="body" material="neo_hookean" E="1e6" nu="0.3" rho="1000" quadrature="reduced"/>
<displacement nodeset="left" component="all"/><gravity acceleration="0 -10 0"/><time end="0.05"/><output fields="0"/>
</explicit>
EOF
check run "$out/iga-reduced.xml" -o "$out/iga-reduced"
# the 3D mortar distribution (clipping, shares, the static patch tests of two bodies) through its unit test
check_test unit_contact_contact_mortar3d
# a Burridge-Knopoff chain of 3 blocks to its first slip events (LuGre, PETSc's TS)
check run "$(short "$root/inputs/bk/bk-n3.xml" 3)" -o "$out/bk"
# the hammer and cushion of the pile-driving study (RK45 with the ram's separation event), the first 0.02 s of a blow
check run "$root/inputs/rodpair/pile-driving.xml" -o "$out/hammer" -rodpair_nodes 101 -rodpair_end 0.02
# contact between deformable bodies through the program: 2D free bodies (mortar, two passes), the 3D patch test
# (the 3D mortar rule), two NURBS bodies
check run "$(short "$root/inputs/explicit/contact_free_bodies.xml" 0.01)" -o "$out/contact-bodies"
check run "$(short "$root/inputs/explicit/contact_patch3d.xml" 0.005)" -o "$out/contact-patch3d"
check run "$(short "$root/inputs/explicit/iga_two_bodies.xml" 0.002)" -o "$out/contact-nurbs-bodies"
# a Monte-Carlo campaign of two tiny rough plates (the realisation files, their aggregation)
check run "$root/tests/regression/rough3d/campaign_tiny.xml" -o "$out/campaign"
check validate "$root/inputs/bowedstring/section5.xml"
check validate "$root/inputs/bars2020/block-muN10.xml"
echo "short runs of $(basename "$build")${wrap:+ under ${wrap%% *}}: clean"
