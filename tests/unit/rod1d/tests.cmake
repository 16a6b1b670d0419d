# Extra tests of the rodpair solver of module rod1d (included by tests/CMakeLists.txt with SK_TEST_DIR set here).
# (The bars* tests of the same module are registered by their own file; this block only covers rodpair.)
# Bad inputs: `stickslip validate` must refuse each with "FILE:LINE: message" at the offending element; the expected
# line and message regex are in a comment at the top of each file.
sk_add_bad_input_tests(unit_rod1d_rodpair_bad unit)
