# Extra tests of the rodpair solver of module rod1d (included by tests/CMakeLists.txt with SK_TEST_DIR set here).
# (The bars* tests of the same module are registered by their own file; this block only covers rodpair.)
# Bad inputs: `stickslip validate` must refuse each with "FILE:LINE: message" at the offending element; the expected
# line and message regex are in a comment at the top of each file.
sk_add_bad_input_tests(unit_rod1d_rodpair_bad unit)
# A build without CVODE (STICKSLIP_WITH_CVODE OFF, the default) refuses the solver cvode, from the input or from an
# option, as an input error in validate as in run, not only when the run starts.
if(NOT STICKSLIP_WITH_CVODE)
  sk_add_bad_input_tests(unit_rod1d_rodpair_bad_nocvode unit DIR bad-nocvode)
endif()
