# The input reference covers every element and attribute of every schema.
sk_add_python_test(docs_input_reference ${SK_TEST_DIR}/check_input_docs.py LABELS regression)
# Defaults stated in words (schema documentation, docs/input.md, input comments) and critical steps stated in input
# comments agree with the schemas and with what the program prints (1 %: three significant digits; see the script).
sk_add_python_test(docs_documented_defaults ${SK_TEST_DIR}/check_documented_defaults.py ARGS ${SK_PROGRAM} LABELS regression)
