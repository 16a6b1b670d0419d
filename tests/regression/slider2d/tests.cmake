# Regression tests of the 2D slider studies (issue 6, inputs/slider2d/), label "regression"; tolerances and where they
# come from are in check_slider2d.py.
set(SK_SLIDER_IN ${CMAKE_SOURCE_DIR}/inputs/slider2d)

# The elastic spring-slider made stiffer (E = 1e7, 1e8 Pa) agrees with the rigid one, better as E grows, over the first
# stick and slip (2.6 s); its energy balance closes to 1e-3. About 5 s.
sk_add_python_test(regression_slider2d_elastic_vs_rigid ${SK_TEST_DIR}/check_slider2d.py
  ARGS elastic ${SK_PROGRAM} ${SK_SLIDER_IN}/springslider-rigid.xml ${SK_SLIDER_IN}/springslider-elastic.xml LABELS regression)
