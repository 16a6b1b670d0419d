# Real Gmsh (Debian gmsh 4.8, installed by scripts/install-deps.sh): every .geo of meshes/ meshed by gmsh inside the
# test (T3, Q4, Q9, T4, H8, H27, physical groups), run by stickslip on 1 and 2 ranks: volume from the kinetic energy,
# the "bottom" group's length/area from the contact weights, rigid translation, 1 = 2 ranks (bounds 1e-12, round-off:
# measured at most 1.4e-14; see the script).
find_program(SK_GMSH gmsh)
if(NOT SK_GMSH)
  set(SK_GMSH gmsh) # the test then fails with "No such file": install gmsh (scripts/install-deps.sh)
endif()
sk_add_python_test(regression_gmsh_meshes ${SK_TEST_DIR}/check_gmsh.py ARGS ${SK_GMSH} ${SK_PROGRAM} ${SK_MPIEXEC} LABELS regression)
set_tests_properties(regression_gmsh_meshes PROPERTIES PROCESSORS 2 TIMEOUT 300)
