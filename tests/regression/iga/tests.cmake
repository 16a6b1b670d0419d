# Regression tests of NURBS patches in the explicit solver (module iga, Bezier cells of fem), label "regression".
# Bad IGA inputs are in tests/regression/explicit/bad/iga-*.xml (registered there) and, for the size and weight limits,
# in bad/ here: each refused at its line (tests/common/check_bad_input.py).
sk_add_bad_input_tests(regression_iga_bad regression)
# refine="10000 10000" refused within 1 s beyond the program's start-up and without allocating (peak below 200 MB).
sk_add_python_test(regression_iga_size_limits ${SK_TEST_DIR}/check_size_limits.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/bad/iga-refine-too-large.xml ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_block_slide.xml LABELS regression)
# SIGTERM stops a long set-up (a 1500 x 1500 span patch) within 1 s, in two of its phases. About 20 s.
# label refusal: make asan-check runs it, so the set-ups stopped by the signal are checked for leaks (33 s under ASan)
sk_add_python_test(regression_iga_sigterm_setup ${SK_TEST_DIR}/check_sigterm_setup.py ARGS ${SK_PROGRAM} LABELS "regression;refusal")
# Kinetic energy of free rational plates and blocks (W = 2, 10, 100, 2D and 3D) in uniform motion: 5 J to 1e-12.
sk_add_python_test(regression_iga_rational_mass ${SK_TEST_DIR}/check_rational_mass.py ARGS ${SK_PROGRAM} LABELS regression)
# -explicit_field_interval: field frames of an input that sets fields="0", at the right steps.
sk_add_python_test(regression_iga_field_interval ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_output_interval.py
  ARGS ${SK_PROGRAM} fields ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_block_slide.xml LABELS regression)

# Several patches are separate bodies: bitwise the single-body run, the other body exactly at rest.
sk_add_python_test(regression_iga_two_bodies ${SK_TEST_DIR}/check_two_bodies.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_two_bodies.xml ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_cantilever.xml LABELS regression)

# 1 and 2 ranks are compared in tests/unit/iga/test_distribute.c (masses and forces to round-off): whole runs of this
# clamped cantilever differ between 1 and 2 ranks by ~1e-7 in the internal energy already with Lagrange Q9 elements, a
# property of the solver's run, not of the cells.

# Critical time step of a p = 3 patch from the power iteration (tight tolerance): stable at 0.99, stopped by the energy
# check at 1.05 (the top mode then grows by ~1.9 per step: it blows up within a few tens of steps).
sk_add_python_test(regression_iga_stability ${SK_TEST_DIR}/check_stability.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_plate_stability.xml LABELS regression)

# The same with the iterated mass (docs/theory.md, "Higher-order mass of patches"): the step the power iteration on its
# operator B K reports is stable at 0.99 and stopped by the energy check at 1.05 (measured: blow-up at step 25).
sk_add_python_test(regression_iga_stability_iterated ${SK_TEST_DIR}/check_stability.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_plate_stability_iterated.xml LABELS regression)

# Restart with the iterated mass, through contact on a patch face: killed after step 2500 (checkpoints every 1000),
# restarted bitwise identical (final state, energy rows, contact histories); exact equality, no tolerance.
sk_add_python_test(regression_iga_restart_iterated ${CMAKE_SOURCE_DIR}/tests/regression/explicit/check_restart.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/block_slide_iterated_restart.xml 2500 LABELS regression)

# results.h5 records the patches (degree, knots, control net) consistently with the mesh nodes.
sk_add_python_test(regression_iga_patch_output ${SK_TEST_DIR}/check_patch_output.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_two_bodies.xml LABELS regression)

# Contact on a patch face: a NURBS block sliding with Coulomb friction on a rigid plane (inputs/explicit/iga_block_slide.xml):
# stopping distance and dissipation to 1 % of the rigid-block closed forms, the contact reaction equal to the weight
# to 2e-3 while sliding and at rest (tolerances derived in the script).
sk_add_python_test(regression_iga_block_slide ${SK_TEST_DIR}/check_block_slide.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_block_slide.xml LABELS regression)
# The same on 2 ranks, against the same closed forms: the face's control points are gathered each step, so the weighted
# gaps of the same positions are the same bits (unit_iga_contact_face_mpi2). Whole runs are not compared bit by bit:
# the element forces summed across ranks come in another order, and the Coulomb law's stick decision at the stop
# amplifies that round-off (measured 3.8e-8 relative in the normal force history, 2e-6 in the internal energy of the
# nearly rigid block, 2e-5 in its residual final velocity).
sk_add_python_test(regression_iga_block_slide_mpi2 ${SK_TEST_DIR}/check_block_slide.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_block_slide.xml ${SK_MPIEXEC} LABELS regression)
set_tests_properties(regression_iga_block_slide_mpi2 PROPERTIES PROCESSORS 2)
# Large-deflection Neo-Hookean cantilever (32 % of the length), IGA p = 2 and 3 against a stored Q9 reference, with a
# tolerance from the reference's mesh convergence (check_cantilever_large.py). About 35 s.
sk_add_python_test(regression_iga_cantilever_large ${SK_TEST_DIR}/check_cantilever_large.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_cantilever_large.xml ${SK_TEST_DIR}/cantilever_large_q9.csv LABELS regression)
# The same with the reduced quadrature of the force (quadrature="reduced"), same tolerance. About 25 s.
sk_add_python_test(regression_iga_cantilever_large_reduced ${SK_TEST_DIR}/check_cantilever_large.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_cantilever_large.xml ${SK_TEST_DIR}/cantilever_large_q9.csv --reduced LABELS regression)
