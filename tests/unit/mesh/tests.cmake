# mesh: the partition/distribution test again on 2 MPI ranks (the serial run is registered by the glob as
# unit_mesh_partition). sk_add_mpi_test (tests/CMakeLists.txt) runs `mpiexec -n 2 --oversubscribe` with
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment.
sk_add_mpi_test(unit_mesh_partition_mpi2 2 $<TARGET_FILE:unit_mesh_partition>)
set_tests_properties(unit_mesh_partition_mpi2 PROPERTIES LABELS "unit;mpi" TIMEOUT 120)

# The element table (VTK node order, local faces) against VTK's own cells; unit_mesh_elementtype writes the table.
set_tests_properties(unit_mesh_elementtype PROPERTIES FIXTURES_SETUP sk_mesh_element_table)
sk_add_python_test(unit_mesh_vtk_order ${SK_TEST_DIR}/check_vtk_order.py ARGS mesh_element_table.json --self-test LABELS unit)
set_tests_properties(unit_mesh_vtk_order PROPERTIES FIXTURES_REQUIRED sk_mesh_element_table)
