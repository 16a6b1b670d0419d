# iga: the distributed Bezier-block test again on 2 MPI ranks (the serial run is unit_iga_distribute).
sk_add_mpi_test(unit_iga_distribute_mpi2 2 $<TARGET_FILE:unit_iga_distribute>)
set_tests_properties(unit_iga_distribute_mpi2 PROPERTIES LABELS "unit;mpi" TIMEOUT 120)
# iga: the random field's determinism across ranks (each rank samples the realisations in another order and the bits
# must agree); the serial run is registered by the glob as unit_iga_randomfield.
sk_add_mpi_test(unit_iga_randomfield_mpi2 2 $<TARGET_FILE:unit_iga_randomfield>)
set_tests_properties(unit_iga_randomfield_mpi2 PROPERTIES LABELS "unit;mpi" TIMEOUT 300)
# iga: contact on patch faces with the face distributed over 2 ranks (the serial run is unit_iga_contact_face): the
# gathered control points must give the same weighted gaps.
sk_add_mpi_test(unit_iga_contact_face_mpi2 2 $<TARGET_FILE:unit_iga_contact_face>)
set_tests_properties(unit_iga_contact_face_mpi2 PROPERTIES LABELS "unit;mpi" TIMEOUT 120)
