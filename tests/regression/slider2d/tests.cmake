# Regression tests of the 2D slider studies (inputs/slider2d/, docs/validation/slider2d.md), label "regression"; tolerances and where they
# come from are in check_slider2d.py.
set(SK_SLIDER_IN ${CMAKE_SOURCE_DIR}/inputs/slider2d)

# The elastic spring-slider made stiffer (E = 1e7, 1e8 Pa) agrees with the rigid one, better as E grows, over the first
# stick and slip (2.6 s); its energy balance closes to 1e-3. About 5 s.
sk_add_python_test(regression_slider2d_elastic_vs_rigid ${SK_TEST_DIR}/check_slider2d.py
  ARGS elastic ${SK_PROGRAM} ${SK_SLIDER_IN}/springslider-rigid.xml ${SK_SLIDER_IN}/springslider-elastic.xml LABELS regression)

# Energy balance including the frictional dissipation closes to 1e-3 in the slider studies, on shortened
# horizons that include slips: the elastic spring-slider at E = 1 MPa (2.6 s: first slip), the velocity-controlled
# slider (h = 0.25, 2 s: several stick-slip cycles) and the cyclic force (2 s: a full load cycle); and, independently of
# the balance, the friction force and dissipation of the velocity-controlled slider driven as a whole (steady sliding)
# against their closed form. About 8 s.
sk_add_python_test(regression_slider2d_energy ${SK_TEST_DIR}/check_slider2d.py
  ARGS energy ${SK_PROGRAM} ${SK_SLIDER_IN}/springslider-elastic.xml:2.6 ${SK_SLIDER_IN}/slider-velocity-h0.25.xml:2
  ${SK_SLIDER_IN}/slider-cyclic.xml:2 LABELS regression)

# The velocity-controlled slider (section 3.2, h = 0.25, 5 s): stick-slip of the contact layer and the global COF
# about mu_k (Fig. 14). About 2 s.
sk_add_python_test(regression_slider2d_velocity ${SK_TEST_DIR}/check_slider2d.py
  ARGS velocity ${SK_PROGRAM} ${SK_SLIDER_IN}/slider-velocity-h0.25.xml LABELS regression)

# The cyclic force below break-away (section 3.3, 8 s): pre-sliding only, larger near the loaded edge, no drift after
# the force is removed (Fig. 16). About 5 s.
sk_add_python_test(regression_slider2d_cyclic ${SK_TEST_DIR}/check_slider2d.py
  ARGS cyclic ${SK_PROGRAM} ${SK_SLIDER_IN}/slider-cyclic.xml LABELS regression)

# The velocity-controlled slider as a NURBS patch (h = 0.25, contact on the patch face): steady sliding of every
# control point against the closed form mu(V) (round-off: the weighted velocity of each is V), then 3 s of stick-slip
# with the mean global COF within 0.02 of mu_k (the mean friction equals the mean drive). About 15 s.
sk_add_python_test(regression_slider2d_iga ${SK_TEST_DIR}/check_slider2d.py
  ARGS iga ${SK_PROGRAM} ${SK_SLIDER_IN}/iga-slider-velocity-h0.25.xml LABELS regression)
