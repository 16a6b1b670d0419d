# Regression tests of the explicit solver (module dynamics, root <explicit>), label "regression" unless noted.

# Bad inputs: `stickslip validate` must refuse each with "FILE:LINE: message" at the offending element (the expected line
# and a message regex are in a comment at the top of each file). The checker script is shared with the rod1d tests.
sk_add_bad_input_tests(regression_explicit_bad regression)

# d'Alembert wave in a bar, step load: the displacement has a kink at the front, so its L2 error falls like h
# (measured rates 1.16 and 0.99 for Q4, 1.06 and 0.99 for H8 over 50, 100, 200 cells; 0.98-1.11 up to 400); 0.9 leaves
# room for the pre-asymptotic level, and the finest error bound is 1.5x the measured 1.18e-3 at 200 cells (both types:
# with nu = 0 and the lateral motion held, both reduce to the same 1D lumped-mass chain).
foreach(elem q4 h8)
  sk_add_python_test(regression_explicit_bar_wave_step_${elem} ${SK_TEST_DIR}/check_bar_wave.py
    ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/bar_wave_${elem}.xml --load step --levels 50 100 200 --min-rate 0.9 --max-error 1.8e-3 LABELS regression)
  # Smooth (C1) load rising over 2e-5 s: second order (measured 2.12 and 1.95 for Q4, 1.95 and 1.95 for H8 over 50, 100,
  # 200 cells); 1.85 allows for the coarsest level resolving the rise with 5 cells; the finest bound is 1.5x the
  # measured 1.59e-4 at 200 cells.
  sk_add_python_test(regression_explicit_bar_wave_smooth_${elem} ${SK_TEST_DIR}/check_bar_wave.py
    ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/bar_wave_${elem}.xml --load smooth --levels 50 100 200 --min-rate 1.85 --max-error 2.4e-4 LABELS regression)
endforeach()

# Restart: killed with SIGKILL after step 550 (checkpoints every 100 steps, the last two kept: 400 and 500), restarted
# with -restart: bitwise the same final state and energy rows; then with the newest checkpoint damaged, resumed from
# the previous one, again bitwise identical. Exact equality is required, so there is no tolerance.
sk_add_python_test(regression_explicit_restart ${SK_TEST_DIR}/check_restart.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/neohookean_block.xml 550 LABELS regression)
# The same on 2 MPI ranks (the checkpoint is in the natural numbering, gathered on rank 0).
sk_add_python_test(regression_explicit_restart_mpi2 ${SK_TEST_DIR}/check_restart.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/neohookean_block.xml 550 ${SK_MPIEXEC} -n 2 --oversubscribe LABELS regression)
set_tests_properties(regression_explicit_restart_mpi2 PROPERTIES PROCESSORS 2)
# -explicit_history_interval: the histories of an input that sets histories="0" (the small block of the rough-surface
# tests), at the right steps; -explicit_field_interval is the same check on an IGA input (tests/regression/iga).
sk_add_python_test(regression_explicit_history_interval ${SK_TEST_DIR}/check_output_interval.py
  ARGS ${SK_PROGRAM} histories ${CMAKE_SOURCE_DIR}/tests/regression/rough3d/kappa_plate_tiny.xml LABELS regression)
# A restart continues only the run that wrote the checkpoint (digests of input, options, mesh; dt), and -force removes
# the checkpoints and step files of the earlier run but nothing of the user's. Exact checks, no tolerance.
sk_add_python_test(regression_explicit_restart_identity ${SK_TEST_DIR}/check_restart_identity.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/neohookean_block.xml 550 LABELS regression)

# 1 and 2 ranks: every history and the final state agree to 1e-12 relative (measured 6.1e-13 at worst, in a velocity
# of the watch point; the ranks only sum shared-node forces in another order).
sk_add_python_test(regression_explicit_mpi ${SK_TEST_DIR}/check_same_results.py
  ARGS ${SK_PROGRAM} 1e-12 ${CMAKE_SOURCE_DIR}/inputs/explicit/neohookean_block.xml 1 ${CMAKE_SOURCE_DIR}/inputs/explicit/neohookean_block.xml 2 ${SK_MPIEXEC}
  LABELS regression)
set_tests_properties(regression_explicit_mpi PROPERTIES PROCESSORS 2)

# 1 and 2 ranks on a chaotic contact run (a spinning block bouncing on a plane, 2 s): bitwise equal at first,
# a first difference at round-off (<= 1e-13 relative; measured 5.2e-18), growth by more than 1e6 (measured
# 9e8, to 4.6e-9 of the motion), and a one-ulp change of the initial angular velocity drifting as far within a factor
# 100 (measured 3.6e-9 vs 4.6e-9). docs/theory.md, "1 and 2 ranks".
sk_add_python_test(regression_explicit_rank_drift ${SK_TEST_DIR}/check_rank_drift.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_bounce.xml 2 1e-13 1e6 100 ${SK_MPIEXEC} LABELS regression)
set_tests_properties(regression_explicit_rank_drift PROPERTIES PROCESSORS 2)

# The Gmsh mesh meshes/box.msh and the generated mesh of the same box give the same results: the same elements, but
# Gmsh places the nodes of its progression up to 6.0e-10 m from the closed form the generator uses (2.4e-9 of the
# smallest cell, measured) and starts each hexahedron at another corner; the results follow within 5.6e-9 (measured,
# final velocity; 1.1e-9 on the histories): bound 5e-8.
sk_add_python_test(regression_explicit_gmsh_vs_generated ${SK_TEST_DIR}/check_same_results.py
  ARGS ${SK_PROGRAM} 5e-8 ${CMAKE_SOURCE_DIR}/inputs/explicit/box_generated.xml 1 ${CMAKE_SOURCE_DIR}/inputs/explicit/box_gmsh.xml 1 LABELS regression)
# ... and the Gmsh mesh on 2 ranks against the generated one on 1.
sk_add_python_test(regression_explicit_gmsh_mpi ${SK_TEST_DIR}/check_same_results.py
  ARGS ${SK_PROGRAM} 5e-8 ${CMAKE_SOURCE_DIR}/inputs/explicit/box_generated.xml 1 ${CMAKE_SOURCE_DIR}/inputs/explicit/box_gmsh.xml 2 ${SK_MPIEXEC}
  LABELS regression)
set_tests_properties(regression_explicit_gmsh_mpi PROPERTIES PROCESSORS 2)

# Unstable runs stop with a message that says what to change (exit status 2): energy blow-up, an element turned inside
# out. Label refusal: make asan-check runs them too (a stopped run leaves nothing behind).
file(GLOB SK_EXPLICIT_UNSTABLE CONFIGURE_DEPENDS ${SK_TEST_DIR}/unstable/*.xml)
foreach(input IN LISTS SK_EXPLICIT_UNSTABLE)
  get_filename_component(stem ${input} NAME_WE)
  sk_add_python_test(regression_explicit_unstable_${stem} ${SK_TEST_DIR}/check_run_fails.py ARGS ${SK_PROGRAM} ${input} LABELS regression
                     refusal)
endforeach()

# Field frames by default (docs/input.md, <output fields>): a run that does not ask for fields writes 50 to 52 frames
# from t = 0 to the end time (ceil-rounded interval; counted, no tolerance), on 1 and 2 ranks; fields="0" writes none.
# Failed before the default (no fields.pvd).
sk_add_python_test(regression_explicit_default_fields ${SK_TEST_DIR}/check_default_fields.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_slide.xml LABELS regression)
sk_add_python_test(regression_explicit_default_fields_mpi2 ${SK_TEST_DIR}/check_default_fields.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/contact_slide.xml ${SK_MPIEXEC} LABELS regression)
set_tests_properties(regression_explicit_default_fields_mpi2 PROPERTIES PROCESSORS 2)

# A drift at the strain energy's round-off is not a blow-up (docs/theory.md, "Run-time energy check"): a tiny NURBS
# plate with gravity ramped from rest at a small step finishes, its balance within 4 eps M c^2; before the floor the
# check stopped it at step 30 (energies 3e-12 J). The script's self-test checks that the case needs the floor.
sk_add_python_test(regression_explicit_energy_roundoff ${SK_TEST_DIR}/check_energy_roundoff.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/stable/energy_roundoff.xml LABELS regression)

# A dead pressure on Lagrange faces (Q4, H8) against the same load as a traction -p n on a flat face: the same energy
# histories to 1e-12 (measured 0: the same nodal loads), with a self-test (the traction 1 % larger must fail).
sk_add_python_test(regression_explicit_pressure ${SK_TEST_DIR}/check_pressure.py ARGS ${SK_PROGRAM} LABELS regression)

# The bound of the critical step (-explicit_critical_step bound) on Bezier and quadratic cells: the element eigenvalue
# bound, not above the power iteration's step (it is a proof) and at least a measured fraction of it (p = 3 plate 0.932,
# min 0.9; H27 cube 0.894, min 0.85; Gershgorin's row bound alone 0.710 and 0.514), stable at 0.99 of it.
sk_add_python_test(regression_explicit_element_bound_iga ${SK_TEST_DIR}/check_element_bound.py
  ARGS ${SK_PROGRAM} ${CMAKE_SOURCE_DIR}/inputs/explicit/iga_plate_stability.xml 0.9 LABELS regression)
sk_add_python_test(regression_explicit_element_bound_h27 ${SK_TEST_DIR}/check_element_bound.py
  ARGS ${SK_PROGRAM} ${SK_TEST_DIR}/element_bound_h27.xml 0.85 LABELS regression)
