# Extra tests of the io module (included by tests/CMakeLists.txt with SK_TEST_DIR set to this folder).
sk_add_python_test(unit_io_output_h5py ${SK_TEST_DIR}/check_output.py ARGS $<TARGET_FILE:unit_io_output> LABELS unit)

# VTK writer
# unit_io_vtk (registered by the test_*.c glob) writes vtk_test_np1/ in the build dir; VTK's own reader checks it.
set_tests_properties(unit_io_vtk PROPERTIES FIXTURES_SETUP sk_vtk_files_np1)
sk_add_python_test(unit_io_vtk_readback ${SK_TEST_DIR}/check_vtk.py ARGS vtk_test_np1 LABELS unit)
set_tests_properties(unit_io_vtk_readback PROPERTIES FIXTURES_REQUIRED sk_vtk_files_np1)
# The comparison must notice a one-ulp change in any coordinate or array value (proves the check can fail).
sk_add_python_test(unit_io_vtk_readback_selftest ${SK_TEST_DIR}/check_vtk.py ARGS vtk_test_np1 --self-test LABELS unit)
set_tests_properties(unit_io_vtk_readback_selftest PROPERTIES FIXTURES_REQUIRED sk_vtk_files_np1)
# Two ranks: one .vtu per rank per step, one pvd DataSet per piece with part = rank.
sk_add_mpi_test(unit_io_vtk_np2 2 $<TARGET_FILE:unit_io_vtk>)
set_tests_properties(unit_io_vtk_np2 PROPERTIES LABELS unit FIXTURES_SETUP sk_vtk_files_np2)
sk_add_python_test(unit_io_vtk_readback_np2 ${SK_TEST_DIR}/check_vtk.py ARGS vtk_test_np2 LABELS unit)
set_tests_properties(unit_io_vtk_readback_np2 PROPERTIES FIXTURES_REQUIRED sk_vtk_files_np2)
# end VTK writer
