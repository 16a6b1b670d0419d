# Regression tests of the contact of the explicit solver (module contact: rigid surfaces and deformable bodies), label
# "regression".

# INPUT on 1 and 2 ranks gives the same histories and final state to BOUND (tests/regression/explicit/check_same_results.py).
function(sk_contact_same_on_2_ranks name bound input)
  sk_add_python_test(${name} ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_same_results.py
    ARGS ${SK_PROGRAM} ${bound} ${input} 1 ${input} 2 ${SK_MPIEXEC} LABELS regression)
  set_tests_properties(${name} PROPERTIES PROCESSORS 2)
endfunction()

# INPUT killed after step KILL and restarted from its checkpoints, bitwise one run, on 1 rank (NAME) and 2 (NAME_mpi2).
function(sk_contact_restart name input kill)
  set(script ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_restart.py)
  sk_add_python_test(${name} ${script} ARGS ${SK_PROGRAM} ${input} ${kill} LABELS regression)
  sk_add_python_test(${name}_mpi2 ${script} ARGS ${SK_PROGRAM} ${input} ${kill} ${SK_MPIEXEC} -n 2 --oversubscribe LABELS regression)
  set_tests_properties(${name}_mpi2 PROPERTIES PROCESSORS 2)
endfunction()

# Bad inputs: `stickslip validate` must refuse each with "FILE:LINE: message" at the offending element (<contact> or
# its <friction> child; the expected line and a message regex are in a comment at the top of each file). No tolerance.
sk_add_bad_input_tests(regression_contact_bad regression)

# A block sliding on the plane (inputs/explicit/contact_slide.xml): contact history and energy balance; tolerances in
# the script (mean normal force 3 %, COF while sliding 1e-9, energy balance 1e-3 of the external work).
sk_add_python_test(regression_contact_slide ${SK_TEST_DIR}/check_contact_slide.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_slide.xml LABELS regression)

# 1 and 2 ranks give the same histories and final state (contact pairs on partitioned side sets): measured 2.2e-13 on
# the contact history, 5.4e-12 on the internal energy (3e-4 of the kinetic energy, so its round-off is relatively
# larger) and 1.2e-11 on the final velocity; bound 1e-10.
sk_contact_same_on_2_ranks(regression_contact_slide_mpi 1e-10 ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_slide.xml)

# Restart with contact (inputs/explicit/contact_restart.xml: LuGre, so each contact node carries a bristle state):
# killed with SIGKILL after step 400 (checkpoints every 110 steps, the last two kept: 220 and 330, both with nodes in
# contact, so nonzero bristle states), restarted with -restart: final state, energy history and contact history
# bitwise those of one run; then again from the previous checkpoint after damaging the newest. Exact equality is required (the checkpoint holds the full friction state), so
# there is no tolerance. The same on 2 ranks (per-rank dissipation restored per rank).
sk_contact_restart(regression_contact_restart ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_restart.xml 400)

# VTK point data of contact (docs/output.md) on the patch test inputs/explicit/contact_patch.xml: the four arrays exist, are
# zero off the contact face, and the pressure is uniform on it to 1e-6 relative (the acceptance bound, docs/design.md; round-off only).
sk_add_python_test(regression_contact_fields ${SK_TEST_DIR}/check_contact_fields.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_patch.xml LABELS regression)
sk_add_python_test(regression_contact_fields_mpi2 ${SK_TEST_DIR}/check_contact_fields.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_patch.xml ${SK_MPIEXEC} -n 2 --oversubscribe LABELS regression)
set_tests_properties(regression_contact_fields_mpi2 PROPERTIES PROCESSORS 2)

# Curved rigid surfaces: a block sliding inside a rigid ring (2D circle) and inside a rigid cylinder (3D),
# Coulomb friction, braking rate against the rigid-block closed form (bound 5e-4, derived in the script) and energy
# balance (1e-3 of the initial kinetic energy).
foreach(ring contact_ring contact_ring3d)
  sk_add_python_test(regression_${ring} ${SK_TEST_DIR}/check_contact_ring.py
    ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/${ring}.xml LABELS regression)
endforeach()
# The sine surface in a run (Newton projection of every contact node each step): a block swinging frictionless in a
# trough; period against the small-oscillation period of a rigid block with both corners on the sine (bound 1e-3,
# derived in the script; measured 1.2e-4).
sk_add_python_test(regression_contact_sine_pendulum ${SK_TEST_DIR}/check_contact_sine.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_sine_pendulum.xml LABELS regression)

# Unstable contact settings stop with a message that says what to change (the friction law's moduli at the actual
# normal force against the time step, checked during the run).
file(GLOB SK_CONTACT_UNSTABLE CONFIGURE_DEPENDS ${SK_TEST_DIR}/unstable/*.xml)
foreach(input IN LISTS SK_CONTACT_UNSTABLE)
  get_filename_component(stem ${input} NAME_WE)
  sk_add_python_test(regression_contact_unstable_${stem} ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_run_fails.py
    ARGS ${SK_PROGRAM} ${input} LABELS regression)
endforeach()

# Implicit contact damping (docs/theory.md, "Stability of the contact forces in the explicit scheme") on
# inputs/explicit/contact_damping.xml, LuGre with 2 dt c / m ~ 35 at the critical step: damping="explicit" stops there
# with the stability message; damping="implicit" runs and agrees with damping="explicit" at dt = 1e-6 s to
# 3e-3 (measured 7.3e-4), first order in dt, energy balance to 1e-6 (measured 5.5e-7); derivations in the script.
sk_add_python_test(regression_contact_damping ${SK_TEST_DIR}/check_contact_damping.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_damping.xml LABELS regression)
# 1 and 2 ranks with the implicit damping (ghost copies of contact nodes take their owner's acceleration): measured
# 1.5e-11 on the contact history, 5e-11 on the energy, 2.3e-9 on the final velocity: the block only creeps (1.5e-4
# m/s) under contact forces of ~50 N per node, so the round-off of the forces is relatively larger there. It is not
# the implicit damping: at dt = 2e-5 s the same input differs by 3.9e-10 (damping explicit) and 4.4e-10 (implicit).
# Bound 1e-8.
sk_contact_same_on_2_ranks(regression_contact_damping_mpi 1e-8 ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_damping.xml)
# The same on a NURBS patch of degree 2 (inputs/explicit/contact_damping_iga.xml): the damping taken at each contact
# control point's own velocity while the law sees the mortar-weighted one (docs/theory.md, "Implicit contact damping")
sk_add_python_test(regression_contact_damping_iga ${SK_TEST_DIR}/check_contact_damping.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_damping_iga.xml 0.8333333 LABELS regression)
# 1 and 2 ranks: measured 5.4e-11 on the set history, 1.5e-11 on the energy, 2.5e-9 on the final velocity of the
# creeping block, as the Q4 block above; bound 1e-8 as there.
sk_contact_same_on_2_ranks(regression_contact_damping_iga_mpi 1e-8 ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_damping_iga.xml)
# Restart with the implicit damping (inputs/explicit/contact_damping_restart.xml: stick, break-away and slip, killed
# after step 600, checkpoints 440 and 550): the per-node damping is solved again from the restored state, bitwise the
# same; no tolerance. (Before the restart redid the solve it took the first guess there: energy history off by 8e-5.)
sk_contact_restart(regression_contact_damping_restart ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_damping_restart.xml 600)

# Defaults must run the common case: a block on a plane (2D Q4 and 3D H8) with the default LuGre moduli, the default
# damping treatment and safety 0.9 runs to the end and slides as the rigid block's closed form (bound 3e-3, measured
# 1.2e-3; derivation in the script). Failed before the friction moduli entered the automatic step ("Contact became
# unstable" after 3 steps).
sk_add_python_test(regression_contact_defaults ${SK_TEST_DIR}/check_contact_defaults.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/defaults/lugre_block.xml ${SK_TEST_DIR}/defaults/lugre_block3d.xml LABELS regression)
# Contact between deformable bodies (docs/theory.md, "Contact between deformable bodies").
# Two equal bars impacting head-on (inputs/explicit/contact_bars.xml, non-matching meshes): duration 2 L / c, stress
# rho c v0 / 2 and exchanged velocities each to 1 % (the required bound (docs/design.md)), total momentum to 1e-12 (round-off).
sk_add_python_test(regression_contact_bars ${SK_TEST_DIR}/check_contact_bars.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_bars.xml ${CMAKE_SOURCE_DIR}/meshes/bars2d.xml LABELS regression)
# The master surface on another rank (equal element counts: METIS puts the bars on different ranks, so no element force
# is summed across ranks): 1 and 2 ranks with the fixed dt of the input agree to 1e-12 relative (the required bound (docs/design.md); the
# reactions are summed in the global order of the slave nodes on any partition: measured 0 on the contact history and
# the final state, 1.4e-15 on the energy history, whose sums over ranks come in another order).
sk_contact_same_on_2_ranks(regression_contact_bars_mpi 1e-12 ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_bars.xml)
# A block sliding with Coulomb friction on a deformable slab (inputs/explicit/contact_block_slide.xml): stopping
# distance v0^2 / (2 mu g) and dissipated energy M v0^2 / 2 each to 1 % (the required bound (docs/design.md)), energy balance 1e-3.
sk_add_python_test(regression_contact_block_slide ${SK_TEST_DIR}/check_contact_block_slide.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_block_slide.xml LABELS regression)
# Two free bodies in frictional contact (inputs/explicit/contact_free_bodies.xml, LuGre, two passes): total momentum
# constant to 1e-12 relative (round-off: measured 1.2e-15), energy balance with the friction work to 1e-3 (measured
# 2.4e-4).
sk_add_python_test(regression_contact_free_bodies ${SK_TEST_DIR}/check_contact_free_bodies.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_free_bodies.xml ${CMAKE_SOURCE_DIR}/meshes/block_on_slab2d.xml
  0.5 -0.05 LABELS regression)
# The same in 3D (inputs/explicit/contact_free_bodies3d.xml: H8 blocks, Q4 master faces, Coulomb, two passes of the
# mortar distribution): momentum to 1e-12, energy balance to 1e-3 (measured values printed by the script; the mortar
# distribution's own drift is 6.3e-4 of the largest energy, docs/theory.md "Energy of contact").
sk_add_python_test(regression_contact_free_bodies3d ${SK_TEST_DIR}/check_contact_free_bodies.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_free_bodies3d.xml ${CMAKE_SOURCE_DIR}/meshes/block_on_slab3d.xml
  0.5 0.2 -0.05 LABELS regression)
# Contact patch test with non-matching meshes (inputs/explicit/contact_patch2.xml, Taylor and Papadopoulos 1991): with
# the mortar distribution the interface pressure and the stress of each layer of elements are uniform to 1e-6 of the
# applied pressure (the required bound (docs/design.md); measured 1.8e-12 / 1.9e-13 one pass, 8.9e-13 / 1e-13 two
# passes) and no tangential traction appears; the point (node-to-segment) distribution's spreads are printed for the
# record (measured 0.26 / 0.15 one pass, 0.59 / 0.10 two passes).
sk_add_python_test(regression_contact_patch2 ${SK_TEST_DIR}/check_contact_patch2.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_patch2.xml LABELS regression)
# The same in 3D (inputs/explicit/contact_patch3d.xml: H8 faces 4 x 4 on 3 x 3), the 3D mortar distribution: measured
# 8.9e-13 / 3.7e-14 one pass, 1.1e-12 / 3.7e-14 two passes; node-to-segment 0.54 / 0.32 and 0.88 / 0.10. The Q4-on-T3
# interfaces (H8 on T4 blocks) are tested from their static state in unit_contact_contact_mortar3d: the lumped masses
# of a T4 mesh do not carry a one-dimensional wave, so the dynamic test would not isolate the contact.
sk_add_python_test(regression_contact_patch3d ${SK_TEST_DIR}/check_contact_patch2.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_patch3d.xml LABELS regression)
# A 3D mortar slave side far coarser than its master stops with the message that says to swap the sides (a slave face
# meeting 169 master nodes; 400 master faces near one slave face), never a contact force on part of the master; the
# same input with 4 x 4 master faces, and with the sides swapped, runs. About 4 s.
sk_add_python_test(regression_contact_mortar_coarse_slave ${SK_TEST_DIR}/check_contact_mortar_coarse_slave.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_patch3d.xml ${CMAKE_SOURCE_DIR}/meshes/make_two_bodies.py
  LABELS regression)
# 3D mortar on 1 and 2 ranks, the slab cut by the partition (rank 0 holds 16 of a's and 17 of b's elements): the shares are
# computed from the replicated faces in the global order, so the runs differ by round-off only, growing through the
# landing's contact switches. With the default mortar_tolerance="1e-3" (per-face epochs decided on every rank at every
# evaluation, shares computed from each face's record and the master epoch's positions) bound 1e-12, measured 2.8e-13
# (final velocity; 6.1e-16 contact history; with the one global epoch before 6.0e-13 and 1.9e-13); the exact shares
# (free_bodies3d_exact.xml, mortar_tolerance="0") measured 1.15e-12 on the contact history (2.4e-13 final velocity):
# bound 1e-11.
sk_contact_same_on_2_ranks(regression_contact_free_bodies3d_mpi 1e-12 ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_free_bodies3d.xml)
sk_contact_same_on_2_ranks(regression_contact_free_bodies3d_exact_mpi 1e-11 ${SK_TEST_DIR}/free_bodies3d_exact.xml)
# The same through a checkpoint (tests/regression/contact/free_bodies3d_tolerance_restart.xml, killed after step 160, in
# contact): bitwise the uninterrupted run on 1 and 2 ranks, no tolerance; the checkpoint carries the faces' records and
# the master epoch (without them the final velocity was 5e-7 m/s off).
sk_contact_restart(regression_contact_free_bodies3d_tolerance_restart ${SK_TEST_DIR}/free_bodies3d_tolerance_restart.xml 160)
# Hertz contact in 2D (inputs/explicit/contact_hertz.xml): a rigid cylinder pressed quasi-statically into an elastic
# block (plane strain, half model, Gmsh mesh meshes/hertz_block.msh), frictionless: contact half-width and peak
# pressure within 3 % of Hertz's formulas for the measured load at a/R = 0.105 (the required bound (docs/design.md); measured
# -0.9 % and -1.3 %), 27 contact nodes across 2a; derivation in the script, study in docs/validation/contact.md.
sk_add_python_test(regression_contact_hertz ${SK_TEST_DIR}/check_contact_hertz.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_hertz.xml LABELS regression)
# Restart of contact between deformable bodies (inputs/explicit/contact_free_bodies_restart.xml: the two free bodies,
# LuGre, two passes of the mortar rule): killed after step 1000, restarted from checkpoint 900 and then from 600:
# bitwise one run, on 1 and 2 ranks; no tolerance. Failed (final velocity off by 0.04 m/s) before the checkpoint held
# the positions of the search grids' last build: the mortar rule projects points of the slave faces far from contact,
# whose nearest candidate face depends on when the grid was rebuilt.
sk_contact_restart(regression_contact_free_bodies_restart ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_free_bodies_restart.xml 1000)

# Contact energy booking and the contact dt (docs/theory.md, "Energy of contact"): the Hertz case (first 8 ms), the two
# patch tests and the bars at 1, 10 and 100 times their penalty each close their balance to 1 % of the energy in play or
# stop naming the pair (an input's own dt above the stiffer critical step is refused and rerun with the automatic step);
# mutations: the Hertz case x100 at the closed-spring step is stopped, and booked by its forces' work it blows up with
# exit 0; the patch test without the stored penalty energy in the balance is stopped.
sk_add_python_test(regression_contact_penalty_scan ${SK_TEST_DIR}/check_penalty_scan.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit LABELS regression)
# Hertz contact in 3D between two deformable bodies (inputs/explicit/contact_hertz3d.xml): an elastic hemisphere pressed
# quasi-statically onto an elastic block, quarter model on rollers, frictionless; contact radius and peak pressure
# within 3 % of Hertz's formulas (E* of both bodies) for the measured load at a/R = 0.106 (the required bound
# (docs/design.md)), the symmetry-plane nodes fitting the ellipsoid as well as the others, kinetic / internal energy
# below 1e-3; derivation in the script, study in docs/validation/contact.md. The input's point (node-to-segment)
# distribution on the reduced mesh meshes/hertz_ball_block_coarse.msh (T4 of 1 mm at the contact, a/5; 28 s of CPU, 112 to 145 s
# of wall time on the shared machine): measured a +2.35 %, p0 +0.38 %, misfit 0.10 on the symmetry planes and 0.07
# elsewhere, kinetic ratio 1e-4 (on the input's own mesh, 0.6 mm: a +0.91 %, p0 -1.27 %). The mortar distribution is not
# tested here: the reduced mesh does not resolve a for it (+9.2 %, p0 -0.69 %); on the input's mesh it gives a +0.94 %,
# p0 -0.42 % in 5 min of CPU (docs/validation/contact.md, "Hertz in 3D").
sk_add_python_test(regression_contact_hertz3d ${SK_TEST_DIR}/check_contact_hertz3d.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_hertz3d.xml ${CMAKE_SOURCE_DIR}/meshes/hertz_ball_block_coarse.msh
  LABELS regression)
# NURBS patch faces as a deformable master (inputs/explicit/iga_block_slide_deformable.xml: a degree-1 NURBS block sliding
# with Coulomb friction on a degree-2 NURBS slab whose top face is the master, node-to-segment): the rigid-block closed
# forms of regression_contact_block_slide, stopping distance and dissipated energy each to 1 % (measured +0.88 % and
# 0.00 % with the energy left in the bodies, 2026-11-28), energy balance 2e-3 (measured 2.05e-5).
sk_add_python_test(regression_contact_iga_block_slide ${SK_TEST_DIR}/check_contact_block_slide.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_block_slide_deformable.xml a LABELS regression)
# The same over its first 3 ms on 1 and 2 ranks, the slab cut by the partition under the block (rank 0: the slab's left
# part; rank 1: the block and the slab's right part), so the reactions go to control points on the other rank, with the
# mortar distribution (tests/regression/contact/iga_block_slide_mpi.xml: the block's bottom a slave patch face of
# degree 1, every point's reaction applied by every rank in the face order): measured 1.6e-15 (2026-11-28) in the
# portable build, 9.9e-12 on the normal force with -march=native (make bench), where fused multiply-adds round the sums at
# the control points the ranks share differently; the energies agree to 3.6e-15 there. The bound is the conditioning of
# the normal force: the penalty (1.6e9 Pa/m) times gaps of about 6e-7 m (1000 Pa under the 200 N block) formed from
# positions of 0.1 m, so one rounding of a position (2.2e-17 m) is 3.6e-11 of the force, and a few of them 1e-10 (the
# bound of the other contact pairs on 2 ranks, above). With distribution="point" (the control points as slave nodes,
# their reactions summed in the slave order) the same measured 6.2e-12 in the portable build.
sk_contact_same_on_2_ranks(regression_contact_iga_block_slide_mpi 1e-10 ${SK_TEST_DIR}/iga_block_slide_mpi.xml)
# Hertz between two NURBS bodies (tests/regression/contact/iga_hertz_coarse.xml, written by meshes/make_iga_hertz.py
# 1.6e-3 4 24: an elastic NURBS cylinder, 10 times as stiff as the block, pressed by a degree-1 NURBS block; the
# cylinder's outer arc is the deformable master): a and p0 within 3 % of Hertz for E* of both bodies. Mesh study
# (docs/validation/contact.md): a / p0 errors +0.86 % / -2.00 % on this mesh (13 contact nodes across 2a), -0.30 % /
# -1.12 % at 8e-4 (29), -1.00 % / -1.24 % at 4e-4 (53; inputs/explicit/iga_hertz.xml), -0.90 % / -1.28 % at 2e-4 (109):
# this mesh's own error against the finest is 1.8 points (a) and 0.7 (p0), and the 3 % bound (the required one) holds
# its total error with 1 point to spare.
sk_add_python_test(regression_contact_iga_hertz ${SK_TEST_DIR}/check_contact_hertz.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/iga_hertz_coarse.xml iga 12 LABELS regression)
# NURBS patches and Lagrange elements in one mesh, in contact (tests/regression/contact/iga_hertz_lagrange.xml, written by
# meshes/make_iga_hertz.py 0.0016 4 24 q4 ../../../meshes/hertz_block_q4_coarse.xml: the block of iga_hertz_coarse.xml as
# Q4 elements from a mesh file beside the NURBS cylinder, the same discrete model as its degree-1 patch): Lagrange slave
# nodes on the NURBS master and, sides swapped, the NURBS slave face on the Lagrange master, each against the all-patch
# model, the mixed mesh on 1 and 2 ranks, the sides swapped with the mortar rule of the slave patch face, and two passes
# (one of each kind) against the all-patch model, over 0.006 s: measured 6.1e-12, 3.5e-12, 1.1e-11, 5.0e-12 and 6.3e-12,
# bound 1e-9 (the origin in the script). About 19 s of CPU.
sk_add_python_test(regression_contact_patch_lagrange ${SK_TEST_DIR}/check_contact_patch_lagrange.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/iga_hertz_coarse.xml ${SK_TEST_DIR}/iga_hertz_lagrange.xml ${SK_MPIEXEC} LABELS regression)
set_tests_properties(regression_contact_patch_lagrange PROPERTIES PROCESSORS 2)
# The NURBS master through a checkpoint: iga_block_slide_restart.xml killed after step 200 and restarted (checkpoints
# every 60 steps), bitwise the uninterrupted run, also from the previous checkpoint when the newest is damaged.
sk_add_python_test(regression_contact_iga_block_slide_restart ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_restart.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/iga_block_slide_restart.xml 200 LABELS regression)
# A slave patch face of degree 2 against a deformable NURBS master (docs/theory.md, "NURBS patch faces as deformable
# masters", "The mortar rule of NURBS patch faces"): the contact patch test tests/regression/contact/patch_nurbs_slave.xml
# with the mortar distribution, matching and non-matching knots, masters of degree 2 and 1, two passes (uniform state
# to round-off: measured up to 9.1e-13 of the applied pressure, bound 1e-6); the point distribution with matching knots
# (8.5e-13) and non-matching knots (the slave's Gauss points integrate the master's shares across its knots only
# approximately: measured 6.0e-3, bound 1e-2); and the energy balance, also slipping (measured drifts up to 1.8e-5,
# bound 1e-4); tolerances in the script.
sk_add_python_test(regression_contact_patch_nurbs_slave ${SK_TEST_DIR}/check_contact_patch_nurbs_slave.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/patch_nurbs_slave.xml LABELS regression)
# The same on 1 and 2 ranks with the mortar distribution, the interface cut by the partition (METIS: rank 0 holds the
# slave block and the master's right end, rank 1 the rest of the master, so most points' reactions go to control points
# of the other rank): measured 2.3e-13 (the contact history; energies against the largest energy, final fields against
# their largest value: check_same_results.py), bound 1e-12 as for the explicit solver alone (regression_explicit_mpi).
sk_contact_same_on_2_ranks(regression_contact_patch_nurbs_slave_mpi 1e-12 ${SK_TEST_DIR}/patch_nurbs_slave.xml)
# The same with two passes and the point distribution (tests/regression/contact/patch_nurbs_slave2.xml: both sides slave
# patch faces of degree 2 in turn, so reactions cross the partition both ways): measured 1.7e-13, bound 1e-12.
sk_contact_same_on_2_ranks(regression_contact_patch_nurbs_slave2_mpi 1e-12 ${SK_TEST_DIR}/patch_nurbs_slave2.xml)
# The 3D contact patch test of a NURBS slave face of degree 2 on a NURBS master (tests/regression/contact/patch_nurbs3d.xml;
# docs/theory.md, "NURBS patch faces as deformable masters", the projection on the two face parameters, and "The mortar
# rule of NURBS patch faces"): the mortar distribution with matching knots (measured 1.0e-13 of the applied pressure),
# non-matching knots (6.5e-14) and non-matching with two passes (1.4e-13), bound 1e-6; the point distribution with
# non-matching knots (measured 2.1e-3, bound 4e-3); energy drift below 1e-4 (measured 3.0e-5); tolerances in the script.
sk_add_python_test(regression_contact_patch_nurbs3d ${SK_TEST_DIR}/check_contact_patch_nurbs3d.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/patch_nurbs3d.xml LABELS regression)
# The same on 1 and 2 ranks with the mortar distribution (METIS: rank 0 holds the slave block and a quarter of the
# master, rank 1 the rest of the master, so most points' reactions go to control points of the other rank): measured
# 1.2e-15 (6.5e-15 on 2026-11-27; energies against the largest energy, final fields against their largest value);
# bound 1e-12.
sk_contact_same_on_2_ranks(regression_contact_patch_nurbs3d_mpi 1e-12 ${SK_TEST_DIR}/patch_nurbs3d.xml)
# The contact patch test on a curved NURBS interface (tests/regression/contact/patch_curved3d.xml and patch_curved2d.xml;
# docs/theory.md, "A curved contact patch test"): concentric quarter rings of degree 2 expanding homogeneously, dead
# pressures on their free arcs, the penalty that makes the uniform state exact. Each cell's stress and each slave
# point's pressure against the exact values, with the mortar distribution: matching knots (8 spans) measured 1.5e-7 and
# 7e-8 of the pressure, non-matching knots (6 on 8) 3.7e-7 and 2.2e-7, one and two passes, bound 1e-6 (the rest is the
# element quadrature of the rational basis, tests/unit/iga/test_face.c); the point distribution with non-matching knots
# 5.3e-4, bound 1e-3; energy drift below 1e-9 (measured 9e-11); a penalty 1 % off fails it.
sk_add_python_test(regression_contact_patch_curved3d ${SK_TEST_DIR}/check_contact_patch_curved.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/patch_curved3d.xml LABELS regression)
sk_add_python_test(regression_contact_patch_curved2d ${SK_TEST_DIR}/check_contact_patch_curved.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/patch_curved2d.xml --self-test LABELS regression)
# Action and reaction with a slave patch face of degree 2 (tests/regression/contact/free_nurbs_slave.xml: a NURBS block
# landing obliquely on a free NURBS slab, Coulomb friction, no external force): total momentum to 1e-12 relative
# (measured 1.8e-16) with a self-test (the block's masses x 1.01 must fail it), energy drift below 1e-3 of the initial
# kinetic energy (measured 1.4e-4); tolerances in the script.
sk_add_python_test(regression_contact_free_nurbs_slave ${SK_TEST_DIR}/check_contact_free_nurbs.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/free_nurbs_slave.xml 0.5 -0.2 LABELS regression)
# The same in 3D (tests/regression/contact/free_nurbs3d.xml: a degree-2 block landing at (0.5, 0.2, -0.2) m/s on a free
# degree-2 slab, its slave Gauss points projected on the two face parameters of the master, their master velocity in
# the slip): total momentum measured 4.2e-16 relative (self-test 4.8e-3), energy drift 1.7e-5 of the initial kinetic
# energy, friction dissipation 0.072 J; same bounds.
sk_add_python_test(regression_contact_free_nurbs3d ${SK_TEST_DIR}/check_contact_free_nurbs.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/free_nurbs3d.xml 0.5 0.2 -0.2 LABELS regression)
# Hertz between two NURBS cylinders with a slave patch face of degree 2 (tests/regression/contact/iga_hertz_cylinders.xml,
# written by meshes/make_iga_hertz_cylinders.py 1e-3 4 24 0.15 8e-4: the NURBS cylinder of regression_contact_iga_hertz
# (the master) on a lower NURBS cylinder of radius 0.15 m, degree 2 and C0, whose outer arc is the slave face with its
# middle control points off the arc): a and p0 within 2 % of Hertz for E* and R* of both (the bound asked for this
# case). Mesh study (docs/validation/contact.md, "Hertz between two NURBS cylinders"): a / p0 errors -1.80 % / -0.79 % at
# 1.2e-3 (15 face points across 2a), -0.60 % / -1.03 % on this mesh (19), -0.89 % / -1.14 % at 8e-4 (23); the mesh with
# 1.2e-3 is cheaper but holds a within 0.2 points of the bound, this one with 1.4 points to spare.
sk_add_python_test(regression_contact_iga_hertz_cylinders ${SK_TEST_DIR}/check_contact_hertz.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/iga_hertz_cylinders.xml cylinders 17 0.15 LABELS regression)
# The slave patch face of degree 2 through a checkpoint: free_nurbs_slave_restart.xml (the landing, 3 ms at a fixed dt)
# killed after step 70 (in contact, checkpoints every 20 steps) and restarted, bitwise the uninterrupted run, also from
# the previous checkpoint.
sk_add_python_test(regression_contact_free_nurbs_slave_restart ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_restart.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/free_nurbs_slave_restart.xml 70 LABELS regression)
