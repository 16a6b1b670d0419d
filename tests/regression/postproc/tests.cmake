# The standard figures of every solver (postproc/figures.py) through scripts/stickslip-post from outside the
# repository: each solver's figures exist, plot the columns of results.h5 exactly, and their data pass a physical check
# (energy balance 1e-3 of the largest energy, friction force <= mu, mean normal force = weight to 3 %; see the script).
sk_add_python_test(regression_postproc_figures ${SK_TEST_DIR}/check_figures.py ARGS ${SK_PROGRAM} LABELS regression)
set_tests_properties(regression_postproc_figures PROPERTIES TIMEOUT 600)

# pyproject.toml: `pip install --no-deps --no-index .` into a fresh virtual environment works offline and installs the
# console script stickslip-post (check_install.py; a few seconds).
sk_add_python_test(regression_postproc_install ${SK_TEST_DIR}/check_install.py LABELS regression)
