# rodpair (docs/validation/rodpair.md): the mode-matching method against the RK45 reference on the validation case, and the energy
# balance of every input with both solvers, on shortened horizons (-rodpair_end) to stay within the CI budget.
set(SK_RP_IN ${CMAKE_SOURCE_DIR}/inputs/rodpair)
# sk_rp_run(NAME INPUT END SOLVER [OPTIONS...]): a run into rodpair/NAME of the build dir, fixture rodpair_NAME.
function(sk_rp_run name input end solver)
  sk_add_run_fixture(rodpair ${name} ${input} -rodpair_end ${end} -rodpair_solver ${solver} ${ARGN})
endfunction()
# sk_rp_check(NAME ARGS... FIXTURES f...): check_rodpair.py with a sub-command, needing the runs' fixtures.
function(sk_rp_check name)
  sk_add_fixture_check(rodpair_${name} ${SK_TEST_DIR}/check_rodpair.py ${ARGN})
endfunction()

# Validation case omega1-caseA over 0.25 s (about 800 stick/slip events; the tip starts sticking at 0.15 s).
# The requirement is < 1 % relative L2 at the tip and the three other sections; the two methods solve the same
# semi-discrete model and agree to 2.4e-5 here (3.6e-5 over the full 1 s, docs/validation/rodpair.md), so 1e-3 pins
# a regression 40x above the measured difference and 10x below the acceptance criterion.
sk_rp_run(o1a_rk45 ${SK_RP_IN}/omega1-caseA.xml 0.25 rk45)
sk_rp_run(o1a_mmm ${SK_RP_IN}/omega1-caseA.xml 0.25 mmm)
sk_rp_check(mmm_vs_rk45 ARGS agree rodpair/o1a_mmm/results.h5 rodpair/o1a_rk45/results.h5 1e-3 FIXTURES rodpair_o1a_rk45 rodpair_o1a_mmm)
sk_rp_check(mmm_vs_rk45_selftest ARGS selftest rodpair/o1a_rk45/results.h5 FIXTURES rodpair_o1a_rk45)

# Energy balance: the acceptance criterion 1e-3 (docs/design.md) of the work of P, each input with each solver, 0.1 s (pulse: 0.05 s,
# the pulse and the wave's arrival in the contact). Measured: 1e-8..1e-6 (rk45: integration tolerance; mmm: closed
# forms, Gauss-Legendre work, frozen slip positions), so 1e-3 fails only on a missing or wrong energy term.
foreach(case omega1-caseA omega1-caseB omega2-caseA omega2-caseB pulse-caseA pulse-caseB)
  set(end 0.1)
  if(case MATCHES "^pulse")
    set(end 0.05)
  endif()
  foreach(solver rk45 mmm)
    sk_rp_run(${case}_${solver} ${SK_RP_IN}/${case}.xml ${end} ${solver} -rodpair_output_state)
    sk_rp_check(energy_${case}_${solver} ARGS energy rodpair/${case}_${solver}/results.h5 1e-3 FIXTURES rodpair_${case}_${solver})
    # the same balance recomputed from the outputs (check_rodpair.py fields: work from P(t) and the load-point motion,
    # kinetic and strain energy from the nodal fields and the modal coordinates, the solver's dissipation), so that a
    # wrong energy term in the solver cannot cancel in its own balance column. Tolerance: the required 1e-3; measured
    # 4e-8..8e-6 (rk45), 3e-8..2e-6 (mmm); the work quadrature is fourth order in the 1 ms output interval.
    sk_rp_check(energy_fields_${case}_${solver} ARGS fields rodpair/${case}_${solver}/results.h5 ${SK_RP_IN}/${case}.xml 1e-3 FIXTURES
                rodpair_${case}_${solver})
  endforeach()
endforeach()
# it can fail: rod 1's masses 1 % off give a recomputed balance of 5e-3 on pulse-caseA
sk_rp_check(energy_fields_selftest ARGS fields rodpair/pulse-caseA_rk45/results.h5 ${SK_RP_IN}/pulse-caseA.xml 1e-3 1.01 FIXTURES
            rodpair_pulse-caseA_rk45)

# Soft rod 2 (E2A2/E1A1 = 1: a pile in soft soil). At N = 301 the RK45 reference used to stop here ("step size too
# small", the stick/slip switching chattering at one node whose holding force touches the cap: omega1 case A at
# t = 0.724 s, case B at t = 0.101 s); the Filippov tangency rule of SKRodPairWrongWay lets it pass. Tolerance: the
# the required 1 % (tip relative L2). Measured MMM vs RK45: case A 3.0e-4 over 0.8 s, case B 2.6e-5 over 0.15 s (with
# the sticking nodes' inertia lagged by a coupling step, before 2026-11-27: 3.3e-4 and 9.7e-5; case B over 1 s 3.3e-4,
# before 3.9e-3; docs/validation/rodpair.md, soft rod 2).
sk_rp_run(softA_rk45 ${SK_RP_IN}/soft-omega1-caseA.xml 0.8 rk45 -rodpair_output_state)
sk_rp_run(softA_mmm ${SK_RP_IN}/soft-omega1-caseA.xml 0.8 mmm -rodpair_output_state)
sk_rp_check(soft_caseA_mmm_vs_rk45 ARGS agree rodpair/softA_mmm/results.h5 rodpair/softA_rk45/results.h5 1e-2 FIXTURES rodpair_softA_rk45
            rodpair_softA_mmm)
sk_rp_run(softB_rk45 ${SK_RP_IN}/soft-omega1-caseB.xml 0.15 rk45)
sk_rp_run(softB_mmm ${SK_RP_IN}/soft-omega1-caseB.xml 0.15 mmm)
sk_rp_check(soft_caseB_mmm_vs_rk45 ARGS agree rodpair/softB_mmm/results.h5 rodpair/softB_rk45/results.h5 1e-2 FIXTURES rodpair_softB_rk45
            rodpair_softB_mmm)
# The CVODE peer (bench tree only, STICKSLIP_WITH_CVODE) on the same inputs; measured against RK45 over 1 s: 2.3e-5 (A),
# 3.8e-5 (B), the two share the model and differ only by integration tolerance.
if(STICKSLIP_WITH_CVODE)
  foreach(c A B)
    set(end 0.8)
    if(c STREQUAL "B")
      set(end 0.15)
    endif()
    sk_rp_run(soft${c}_cvode ${SK_RP_IN}/soft-omega1-case${c}.xml ${end} cvode)
    sk_rp_check(soft_case${c}_cvode_vs_rk45 ARGS agree rodpair/soft${c}_cvode/results.h5 rodpair/soft${c}_rk45/results.h5 1e-2 FIXTURES
                rodpair_soft${c}_rk45 rodpair_soft${c}_cvode)
  endforeach()
endif()

# Soft rod 2: the recomputed energy balance (rod 2's energy is no longer negligible here). Tolerance: the required 1e-3;
# measured 1.4e-7 (rk45) and 4.1e-5 (mmm: the pseudo-forces interpolated over a coupling step; 2.7e-4 when the sticking
# nodes' inertia was lagged by a step).
foreach(solver rk45 mmm)
  sk_rp_check(energy_fields_softA_${solver} ARGS fields rodpair/softA_${solver}/results.h5 ${SK_RP_IN}/soft-omega1-caseA.xml 1e-3 FIXTURES
              rodpair_softA_${solver})
endforeach()

# The independent oracle (oracle.py: both rods as finite-difference chains, leapfrog, Coulomb solved exactly per step
# as a projection onto the friction cone; numpy only, no code shared with the C solvers) at the runs' N = 301 with
# dt = 1 ms / 20, against the validation run (MMM, 0.25 s) and the soft-rod-2 run (RK45, case B, 0.15 s). The oracle is
# first order in dt: its own error at 1 ms / 20 is 4e-4 of the tip history over 1 s (oracle study in
# docs/validation/rodpair.md); measured 2.8e-4 (validation) and 5.1e-4 (soft); 2e-3 is 4x above that and 5x below the
# the required 1 %. The selftest shows a 1 % error at the tip fails a 5e-3 check.
sk_rp_check(oracle_o1a_mmm ARGS oracle ${SK_RP_IN}/omega1-caseA.xml rodpair/o1a_mmm/results.h5 2e-3 FIXTURES
            rodpair_o1a_mmm)
sk_rp_check(oracle_softB_rk45 ARGS oracle ${SK_RP_IN}/soft-omega1-caseB.xml rodpair/softB_rk45/results.h5 2e-3 FIXTURES
            rodpair_softB_rk45)
sk_rp_check(oracle_selftest ARGS oracle_selftest ${SK_RP_IN}/omega1-caseA.xml rodpair/o1a_mmm/results.h5 FIXTURES
            rodpair_o1a_mmm)

# The mode matching at its defaults on the soft rod 2 (E2A2 = E1A1: the sticking part of rod 1 weighs as much as rod 2
# under it) against the converged independent oracle (Richardson in dt of 1 ms / 20 and / 40) over 0.25 s. Tolerance:
# 1e-3, what the defaults are meant to give on these inputs. Measured: 3.3e-5 (A) and 1.9e-4 (B); with the former
# default (inertia of the sticking nodes lagged by a coupling step of 0.5 / omega_Nm) case B was 1.59e-3 off here (and
# 4.1e-3 over 1 s), case A 2.3e-4 (docs/validation/rodpair.md, soft rod 2).
foreach(c A B)
  sk_rp_run(soft${c}_mmm_default ${SK_RP_IN}/soft-omega1-case${c}.xml 0.25 mmm)
  sk_rp_check(soft_case${c}_mmm_default_oracle ARGS converged ${SK_RP_IN}/soft-omega1-case${c}.xml 1e-3 rodpair/soft${c}_mmm_default/results.h5
              FIXTURES rodpair_soft${c}_mmm_default)
endforeach()

# Non-uniform rod 1 (two-material-omega1: the lower half twice as stiff, 1.5 times as heavy): MMM takes the eigenpairs
# of segments across the interface in closed form as two uniform pieces (the secular equation of their joint). Over 0.25 s (about 590 events) MMM and RK45 agree
# to 2.5e-5 (measured) and MMM and the independent oracle (which builds the segmented chain itself) to 3.9e-4; the
# tolerances are those of the uniform validation case above, for the same reasons (1e-3: 40x the measured MMM/RK45
# difference; 2e-3: the oracle's own first-order error 4e-4, 5x below the required 1 %).
sk_rp_run(tm_rk45 ${SK_RP_IN}/two-material-omega1.xml 0.25 rk45)
sk_rp_run(tm_mmm ${SK_RP_IN}/two-material-omega1.xml 0.25 mmm)
sk_rp_check(two_material_mmm_vs_rk45 ARGS agree rodpair/tm_mmm/results.h5 rodpair/tm_rk45/results.h5 1e-3 FIXTURES rodpair_tm_rk45 rodpair_tm_mmm)
sk_rp_check(two_material_oracle ARGS oracle ${SK_RP_IN}/two-material-omega1.xml rodpair/tm_mmm/results.h5 2e-3 FIXTURES rodpair_tm_mmm)
sk_rp_check(two_material_energy_mmm ARGS energy rodpair/tm_mmm/results.h5 1e-3 FIXTURES rodpair_tm_mmm)
# The run says why segments took LAPACK's eigen-solve: at N = 300 the boundary (25 m) falls inside an element
# (h = 50/299 m); at the input's N = 301 it is on node 150 and nothing is said (every segment in closed form).
add_test(NAME rodpair_two_material_offnode_hint COMMAND ${SK_PROGRAM} run ${SK_RP_IN}/two-material-omega1.xml -o rodpair/tm_offnode
         -force -rodpair_nodes 300 -rodpair_end 0.1 WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(rodpair_two_material_offnode_hint PROPERTIES ENVIRONMENT "${SK_TEST_ENV}" LABELS regression
                     PASS_REGULAR_EXPRESSION "segment boundaries +z1 = 25.000000 m falls inside an element")
add_test(NAME rodpair_two_material_onnode_quiet COMMAND ${SK_PROGRAM} run ${SK_RP_IN}/two-material-omega1.xml -o rodpair/tm_onnode
         -force -rodpair_end 0.1 WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(rodpair_two_material_onnode_quiet PROPERTIES ENVIRONMENT "${SK_TEST_ENV}" LABELS regression
                     FAIL_REGULAR_EXPRESSION "segment boundaries|LAPACK")

# Layered rod 2 (layered-soil-omega1-caseB: the soft rod 2 of soft-omega1-caseB as a soft 20 m layer over a stiffer,
# heavier 30 m one; modes from the layers' transfer matrices, src/rod1d/rodpair_rod2.c). Over 0.25 s at N = 301:
# MMM and RK45 agree to 5.2e-6 (measured), checked at 1e-3 as for the uniform cases; the independent oracle (oracle.py
# builds rod 2 as a finite-difference chain from the layers, no modes) agrees with MMM to 4.6e-4 (its own first-order
# error, as for the uniform cases), checked at 2e-3, 5x below the required 1 %. The oracle of the uniform soft rod 2
# differs from this run by 0.56-0.79 (measured): the layering is what is checked.
sk_rp_run(layered_rk45 ${SK_RP_IN}/layered-soil-omega1-caseB.xml 0.25 rk45)
sk_rp_run(layered_mmm ${SK_RP_IN}/layered-soil-omega1-caseB.xml 0.25 mmm)
sk_rp_check(layered_mmm_vs_rk45 ARGS agree rodpair/layered_mmm/results.h5 rodpair/layered_rk45/results.h5 1e-3 FIXTURES rodpair_layered_rk45
            rodpair_layered_mmm)
sk_rp_check(layered_oracle ARGS oracle ${SK_RP_IN}/layered-soil-omega1-caseB.xml rodpair/layered_mmm/results.h5 2e-3 FIXTURES rodpair_layered_mmm)
sk_rp_check(layered_energy_mmm ARGS energy rodpair/layered_mmm/results.h5 1e-3 FIXTURES rodpair_layered_mmm)
if(STICKSLIP_WITH_CVODE)
  sk_rp_run(layered_cvode ${SK_RP_IN}/layered-soil-omega1-caseB.xml 0.25 cvode)
  sk_rp_check(layered_cvode_vs_rk45 ARGS agree rodpair/layered_cvode/results.h5 rodpair/layered_rk45/results.h5 1e-3 FIXTURES
              rodpair_layered_rk45 rodpair_layered_cvode)
endif()

# Depth-dependent friction (pile-two-layers: a two-section pile, one blow, a soft soil layer over a stiff one with a
# linear transition) in all three solvers, over the blow and the first wave transits (0.06 s) at N = 101 (CI budget).
# Measured MMM vs RK45: 3.6e-4 at 2L/3, 1e-6 elsewhere (at N = 301 over the full 0.2 s: 3.4e-4 at most); the
# requirement is 1 %, pinned here. The profile itself is checked against a closed form in test_rodpair_profile.
sk_rp_run(pile_rk45 ${SK_RP_IN}/pile-two-layers.xml 0.06 rk45 -rodpair_nodes 101)
sk_rp_run(pile_mmm ${SK_RP_IN}/pile-two-layers.xml 0.06 mmm -rodpair_nodes 101)
sk_rp_check(pile_mmm_vs_rk45 ARGS agree rodpair/pile_mmm/results.h5 rodpair/pile_rk45/results.h5 1e-2 FIXTURES rodpair_pile_rk45 rodpair_pile_mmm)
sk_rp_check(pile_energy_mmm ARGS energy rodpair/pile_mmm/results.h5 1e-3 FIXTURES rodpair_pile_mmm)
sk_rp_check(pile_energy_rk45 ARGS energy rodpair/pile_rk45/results.h5 1e-3 FIXTURES rodpair_pile_rk45)
if(STICKSLIP_WITH_CVODE)
  sk_rp_run(pile_cvode ${SK_RP_IN}/pile-two-layers.xml 0.06 cvode -rodpair_nodes 101)
  sk_rp_check(pile_cvode_vs_rk45 ARGS agree rodpair/pile_cvode/results.h5 rodpair/pile_rk45/results.h5 1e-2 FIXTURES rodpair_pile_rk45
              rodpair_pile_cvode)
endif()

# Blow sequences (tests/regression/rodpair/blows, 3 blows of pile-blows.xml), MMM and RK45:
# stuck: friction so high that nothing slips; the set (change of the toe's slip u1 - u2 over a blow) must be zero. The
#   toe follows the material point of rod 2 it stuck to, whose position moves by rod 2's own deformation: measured
#   3.4e-10 m, so 1e-8 m is 30x above that and 5 orders below the set of the frictionless case (4e-3 m).
# free: no friction, rigid rod 2: the mean displacement of rod 1 equals the sum of the pulses' impulse displacements
#   P0 tau (t - t_k - tau/2) / M. MMM integrates the free chain in closed form: measured 4e-14 relative, checked at 1e-9.
#   RK45 integrates it to its tolerance (rtol 1e-7 of the input) and steps onto the pulse ends: measured 7.3e-8 after 3
#   blows, checked at 1e-6 (a wrong impulse, e.g. a pulse end missed by one step, is off by 1e-3 or more).
set(SK_RP_BLOW_RTOL_mmm 1e-9)
set(SK_RP_BLOW_RTOL_rk45 1e-6)
foreach(solver mmm rk45)
  foreach(c stuck free)
    sk_rp_run(blows_${c}_${solver} ${SK_TEST_DIR}/blows/${c}.xml 0.9 ${solver})
  endforeach()
  sk_add_python_test(rodpair_blows_stuck_${solver} ${SK_TEST_DIR}/check_blows.py ARGS stuck rodpair/blows_stuck_${solver}/results.h5 1e-8
                     LABELS regression)
  set_tests_properties(rodpair_blows_stuck_${solver} PROPERTIES FIXTURES_REQUIRED rodpair_blows_stuck_${solver})
  sk_add_python_test(rodpair_blows_free_${solver} ${SK_TEST_DIR}/check_blows.py ARGS free rodpair/blows_free_${solver}/results.h5
                     ${SK_TEST_DIR}/blows/free.xml ${SK_RP_BLOW_RTOL_${solver}} LABELS regression)
  set_tests_properties(rodpair_blows_free_${solver} PROPERTIES FIXTURES_REQUIRED rodpair_blows_free_${solver})
endforeach()

# Rod 2's modes by default (SKRodPairDefaultModes: enough for the frequencies rod 1's N nodes represent within 1 %, at
# least 50): the soft and the slow soft rod 2 at the inputs' default settings (RK45, N = 301, the default N_m: 50 and
# 95) over the full 1 s against the converged independent oracle (Richardson in dt of 1 ms / 20 and / 40, whose own
# error is 5e-5 on slow case A against 1 ms / 160 and / 320). Tolerance: the 1e-3 the default is chosen for. Measured
# (largest of the four sections; modes_study.py, docs/validation/rodpair.md): soft A 2.7e-4, soft B 2.5e-4, slow A
# 3.6e-4, slow B 6.2e-4. It can fail: slow case B with the former fixed 50 modes is 1.12e-3 off (measured) and must
# fail the same check.
foreach(case soft-omega1-caseA soft-omega1-caseB slow-omega1-caseA slow-omega1-caseB)
  sk_rp_run(default_${case} ${SK_RP_IN}/${case}.xml 1.0 rk45)
  # the default must not warn about its own modes
  set_tests_properties(rodpair_run_default_${case} PROPERTIES FAIL_REGULAR_EXPRESSION "too few modes")
endforeach()
sk_rp_run(slowB_modes50 ${SK_RP_IN}/slow-omega1-caseB.xml 1.0 rk45 -rodpair_modes 50)
foreach(case soft-omega1-caseA soft-omega1-caseB slow-omega1-caseA)
  sk_rp_check(default_modes_${case} ARGS converged ${SK_RP_IN}/${case}.xml 1e-3 rodpair/default_${case}/results.h5 FIXTURES
              rodpair_default_${case})
endforeach()
sk_rp_check(default_modes_slow-omega1-caseB ARGS converged ${SK_RP_IN}/slow-omega1-caseB.xml 1e-3 rodpair/default_slow-omega1-caseB/results.h5
            rodpair/slowB_modes50/results.h5 FIXTURES rodpair_default_slow-omega1-caseB rodpair_slowB_modes50)
# Too few modes are reported on stderr: slow case A with N_m = 10 over 0.3 s, truncation estimated at 2.1e-3 (measured),
# twice the 1e-3 the warning is for; the default runs above (estimated 1.3e-4 to 3.3e-4) must not warn.
sk_rp_run(slowA_modes10 ${SK_RP_IN}/slow-omega1-caseA.xml 0.3 rk45 -rodpair_modes 10)
set_tests_properties(rodpair_run_slowA_modes10 PROPERTIES PASS_REGULAR_EXPRESSION "warning: rod 2 has too few modes: N_m = 10 .*use N_m >= [0-9]+")

# Hammer and cushion (docs/theory.md "Hammer and cushion", docs/validation/rodpair.md "Pile driving"), RK45 only.
# closed: a rigid ram on a linear cushion (e = 1) into a 20 m frictionless pile at N = 201, against the closed form of the
#   head force F'' + (k/Z) F' + (k/M) F = 0 until it returns to zero (0.0101 s, before the toe's reflection at 2L/c = 0.04 s).
#   The lumped chain's head impedance converges in second order: max |F - F_exact| / F_max measured 1.33e-3, 3.31e-4, 7.8e-5,
#   1.65e-5 at N = 51, 101, 201, 401; 3e-4 is 4x the N = 201 value and below that of N = 101. Self-test: k 1 % off, 1.2e-2.
# energy: three blows on a short pile with shaft friction (rtol 1e-10, atol 1e-12): impact energy = both rods' kinetic
#   and strain energy + friction dissipation + cushion stored and lost + ram energy left, at every output time, recomputed
#   from the hammer history and the blows' peak forces; measured 2.4e-8 of one blow's impact energy (at the default atol
#   1e-10 it is 1.5e-6: the displacement tolerance); the required 1e-6. Self-test: the cushion loss 1e-4 off, 5.7e-5.
# residual: after each blow the axial force differences balance the locked-in friction at every node, each friction
#   force within its static capacity, the friction forces summing to zero (no head force once the ram has left). The
#   imbalance left is the inertia of the sticking pile riding on rod 2's undamped vibration: measured 4.2e-3..8.0e-3 of
#   the largest friction force, net friction 1.4e-4..6.9e-4; checked at 2e-2. Self-test: the axial forces 5 % off.
sk_rp_run(hammer_closed ${SK_TEST_DIR}/hammer/closed-form.xml 0.02 rk45)
sk_rp_run(hammer_blows ${SK_TEST_DIR}/hammer/blows.xml 0.9 rk45)
foreach(t closed closed_selftest energy energy_selftest residual residual_selftest)
  if(t MATCHES "^closed")
    set(args closed rodpair/hammer_closed/results.h5 ${SK_TEST_DIR}/hammer/closed-form.xml 3e-4)
    set(fix rodpair_hammer_closed)
    set(perturb 1.01)
  elseif(t MATCHES "^energy")
    set(args energy rodpair/hammer_blows/results.h5 ${SK_TEST_DIR}/hammer/blows.xml 1e-6)
    set(fix rodpair_hammer_blows)
    set(perturb 1.0001)
  else()
    set(args residual rodpair/hammer_blows/results.h5 2e-2)
    set(fix rodpair_hammer_blows)
    set(perturb 1.05)
  endif()
  if(t MATCHES "selftest$")
    list(APPEND args ${perturb})
  endif()
  sk_add_python_test(rodpair_hammer_${t} ${SK_TEST_DIR}/check_hammer.py ARGS ${args} LABELS regression)
  set_tests_properties(rodpair_hammer_${t} PROPERTIES FIXTURES_REQUIRED ${fix})
endforeach()
