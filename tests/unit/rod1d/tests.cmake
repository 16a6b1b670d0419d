# Extra tests of the rodpair solver of module rod1d (included by tests/CMakeLists.txt with SK_TEST_DIR set here).
# (The bars* tests of the same module are registered by their own file; this block only covers rodpair.)
# Bad inputs: `stickslip validate` must refuse each with "FILE:LINE: message" at the offending element; the expected
# line and message regex are in a comment at the top of each file.
file(GLOB SK_RODPAIR_BAD CONFIGURE_DEPENDS ${SK_TEST_DIR}/bad/*.xml)
foreach(bad IN LISTS SK_RODPAIR_BAD)
  get_filename_component(stem ${bad} NAME_WE)
  sk_add_python_test(unit_rod1d_rodpair_bad_${stem} ${CMAKE_SOURCE_DIR}/tests/common/check_bad_input.py ARGS ${SK_PROGRAM} ${bad} LABELS unit)
endforeach()
