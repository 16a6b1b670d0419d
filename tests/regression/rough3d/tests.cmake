# Rough-plate campaign (src/dynamics/campaign.c) on tiny inputs: kill -9 and restart on 2 ranks against an
# uninterrupted campaign, the flat plate's mirror symmetry, and bad inputs refused with file:line.
sk_add_python_test(rough3d_campaign_restart ${SK_TEST_DIR}/check_campaign.py ARGS restart rough3d LABELS "regression;mpi")
set_tests_properties(rough3d_campaign_restart PROPERTIES PROCESSORS 2 TIMEOUT 300)
sk_add_python_test(rough3d_flat_symmetry ${SK_TEST_DIR}/check_campaign.py ARGS symmetry rough3d LABELS regression)
sk_add_bad_input_tests(rough3d_bad regression)
# the figure and table scripts on the uninterrupted campaign of the restart test
set_tests_properties(rough3d_campaign_restart PROPERTIES FIXTURES_SETUP rough3d_campaign)
sk_add_python_test(rough3d_postproc ${CMAKE_SOURCE_DIR}/postproc/rough3d.py ARGS figures rough3d/uninterrupted rough3d/figures LABELS regression)
set_tests_properties(rough3d_postproc PROPERTIES FIXTURES_REQUIRED rough3d_campaign)
# the surfaces on 1 rank and on one group of 2 ranks against 2 groups of one rank
sk_add_python_test(rough3d_campaign_groups ${SK_TEST_DIR}/check_campaign.py ARGS groups rough3d LABELS "regression;mpi")
set_tests_properties(rough3d_campaign_groups PROPERTIES PROCESSORS 2 TIMEOUT 300 FIXTURES_REQUIRED rough3d_campaign)
# -realisation validated
sk_add_python_test(rough3d_realisation_option ${SK_TEST_DIR}/check_campaign.py ARGS option rough3d LABELS regression)
# a campaign in which 5 of 9 realisations fail: on 1 rank (with -restart, -campaign_retry_failed, SIGTERM, a leak check),
# on 2 ranks as 2 groups of one and as one group of 2
sk_add_python_test(rough3d_campaign_failures ${SK_TEST_DIR}/check_campaign.py ARGS failures rough3d LABELS regression)
sk_add_python_test(rough3d_campaign_failures_mpi ${SK_TEST_DIR}/check_campaign.py ARGS failures rough3d mpi LABELS "regression;mpi")
set_tests_properties(rough3d_campaign_failures_mpi PROPERTIES PROCESSORS 2 TIMEOUT 300)
# the IGA path: the patch's bottom face interpolates the samples, the same realisations as the FE twin, the aggregates
sk_add_python_test(rough3d_campaign_iga ${SK_TEST_DIR}/check_campaign.py ARGS iga rough3d LABELS regression)
# the RMS study's post-processing against the campaign's own aggregates, on the same uninterrupted campaign
sk_add_python_test(rough3d_rms_postproc ${SK_TEST_DIR}/check_rms_postproc.py ARGS rough3d/uninterrupted LABELS regression)
set_tests_properties(rough3d_rms_postproc PROPERTIES FIXTURES_REQUIRED rough3d_campaign)
# the real contact area against load (inputs/rough3d/kappa-*.xml) on a small block: nodal force records, the area
# count and the spline of postproc.rough3d kappa against the campaign's, the fitted kappa against its measured value
sk_add_python_test(rough3d_kappa ${SK_TEST_DIR}/check_campaign.py ARGS kappa rough3d LABELS regression)
