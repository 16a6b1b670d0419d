# Rigid reference models (docs/validation/bk.md): runs of the springslider / burridgeknopoff inputs (fixtures) and their python
# checks (check_bk.py), bad inputs, and the figure scripts. Runs write into the build dir under bk/<name>.
set(SK_BK_IN ${CMAKE_SOURCE_DIR}/inputs)
# sk_bk_run(NAME INPUT [OPTIONS...]): stickslip run INPUT -o bk/NAME, a fixture named bk_NAME.
function(sk_bk_run name input)
  sk_add_run_fixture(bk ${name} ${input} TIMEOUT 120 ${ARGN})
endfunction()
# sk_bk_check(NAME ARGS... FIXTURES f...): check_bk.py with a sub-command, needing the runs' fixtures.
function(sk_bk_check name)
  sk_add_fixture_check(bk_${name} ${SK_TEST_DIR}/check_bk.py ${ARGN})
endfunction()

sk_bk_run(springslider ${SK_BK_IN}/slider2d/springslider-rigid.xml)
sk_bk_run(coulomb_limit ${SK_TEST_DIR}/springslider-lugre-coulomb-limit.xml)
sk_bk_run(coulomb_modified ${SK_TEST_DIR}/springslider-coulomb-modified.xml)
sk_bk_run(coulomb ${SK_TEST_DIR}/springslider-coulomb.xml)
sk_bk_run(decoupled ${SK_TEST_DIR}/bk-decoupled.xml)
sk_bk_run(n5 ${SK_BK_IN}/bk/bk-n5.xml)
# the same chain with another stiff integrator (variable-step BDF2): the trajectories agree until the chain's
# sensitivity amplifies the integration error (check_bk.py integrators)
sk_bk_run(n5_bdf ${SK_BK_IN}/bk/bk-n5.xml -burridgeknopoff_ts_type bdf -burridgeknopoff_ts_bdf_order 2)

sk_bk_check(coulomb_limit ARGS coulomb_limit bk/coulomb_limit FIXTURES bk_coulomb_limit)
sk_bk_check(coulomb_exact ARGS coulomb_exact bk/coulomb_modified bk/coulomb FIXTURES bk_coulomb_modified bk_coulomb)
sk_bk_check(springslider ARGS springslider bk/springslider FIXTURES bk_springslider)
sk_bk_check(decoupled ARGS decoupled bk/decoupled bk/springslider FIXTURES bk_decoupled bk_springslider)
sk_bk_check(chain ARGS chain bk/n5 FIXTURES bk_n5)
sk_bk_check(integrators ARGS integrators bk/n5 bk/n5_bdf FIXTURES bk_n5 bk_n5_bdf)
sk_bk_check(bad_inputs ARGS bad_inputs)
sk_bk_check(validate_inputs ARGS validate_inputs)
sk_bk_check(figures ARGS figures bk/figures bk/n5 bk/springslider bk/coulomb_modified FIXTURES bk_n5 bk_springslider bk_coulomb_modified)
