# Regression tests of the bowedstring study (module memkernel; Szalai 2013 section V). Tolerances are justified in
# check_bowedstring.py next to each assertion.
set(SK_BOW_CHECK ${SK_TEST_DIR}/check_bowedstring.py)
set(SK_BOW_INPUTS ${CMAKE_SOURCE_DIR}/inputs/bowedstring)
# Bad inputs: `stickslip validate` refuses each with "FILE:LINE: message" (line and message in the file's comment).
sk_add_bad_input_tests(bowedstring_bad regression)
# Paper parameters: the reduced and full models stick and slip at the same times (transient to steady sliding).
sk_add_python_test(bowedstring_transient ${SK_BOW_CHECK} ARGS transient ${SK_PROGRAM} ${SK_BOW_INPUTS}/section5.xml
                   ${CMAKE_BINARY_DIR}/out/bowedstring-transient LABELS regression)
# D = 0.01: same stick-slip limit cycle (period, stick duration within 1 %).
sk_add_python_test(bowedstring_limitcycle ${SK_BOW_CHECK} ARGS limitcycle ${SK_PROGRAM} ${SK_BOW_INPUTS}/section5-limitcycle.xml
                   ${CMAKE_BINARY_DIR}/out/bowedstring-limitcycle LABELS regression)
# Fig. V.2(d): the friction jump at stick onset decreases with the number of modes (full model).
sk_add_python_test(bowedstring_jump ${SK_BOW_CHECK} ARGS jump ${SK_PROGRAM} ${SK_BOW_INPUTS}/section5.xml
                   ${CMAKE_BINARY_DIR}/out/bowedstring-jump LABELS regression)
# The same friction at the tip of the Euler-Bernoulli cantilever (Hoelder kernel, section IV case 3): same limit cycle.
sk_add_python_test(bowedstring_cantilever ${SK_BOW_CHECK} ARGS limitcycle ${SK_PROGRAM} ${SK_BOW_INPUTS}/cantilever-tip.xml
                   ${CMAKE_BINARY_DIR}/out/bowedstring-cantilever LABELS regression)
