# The command line program: bad inputs give one file:line error, usage and help, -force protection.
sk_add_python_test(cli_bad_inputs ${SK_TEST_DIR}/check_bad_inputs.py LABELS regression)
