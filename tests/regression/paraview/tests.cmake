# Real ParaView (Debian paraview 5.11, offscreen under xvfb-run; scripts/install-deps.sh installs them and unpacks
# ParaView's Python modules, which conflict with python3-vtk9, into SK_PARAVIEW_PYTHON): pvbatch opens the fields.pvd of
# a contact run on 1 and on 2 ranks, renders the last frame coloured by the displacement, and the test checks the time
# steps, arrays (names, components), cells and points and value ranges ParaView sees against the .pvd and results.h5
# (1e-12: the same Float64 data) and that the picture shows a coloured field. Measured: about 10 s per pvbatch run.
find_program(SK_PVBATCH pvbatch)
if(NOT SK_PVBATCH)
  set(SK_PVBATCH pvbatch) # the test then fails saying pvbatch is missing: install paraview (scripts/install-deps.sh)
endif()
set(SK_PARAVIEW_PYTHON /usr/local/lib/stickslip/paraview-python CACHE PATH "ParaView's Python modules for pvbatch (scripts/install-deps.sh)")
sk_add_python_test(regression_paraview ${SK_TEST_DIR}/check_paraview.py
  ARGS ${SK_PROGRAM} ${SK_MPIEXEC} ${SK_PVBATCH} ${SK_PARAVIEW_PYTHON} LABELS regression)
set_tests_properties(regression_paraview PROPERTIES PROCESSORS 2 TIMEOUT 600)

# The curved rational Bezier cells of NURBS patch runs in ParaView (check_iga_cells.py): the annulus on 1 and 2 ranks
# and the cylinder section, exact circles, the fields at a watch point, a rendered frame.
sk_add_python_test(regression_paraview_iga ${SK_TEST_DIR}/check_iga_cells.py
  ARGS ${SK_PROGRAM} ${SK_MPIEXEC} ${SK_PVBATCH} ${SK_PARAVIEW_PYTHON} LABELS regression)
set_tests_properties(regression_paraview_iga PROPERTIES PROCESSORS 2 TIMEOUT 600)
