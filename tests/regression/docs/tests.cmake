# The input reference covers every element and attribute of every schema.
sk_add_python_test(docs_input_reference ${SK_TEST_DIR}/check_input_docs.py LABELS regression)
# Defaults stated in words equal the schemas' (check_defaults.py; a stale default fails it): the schemas' own
# documentation, docs/input.md, the friction defaults' comment (contact.h) and code, "<element attribute> defaults to X"
# in the public headers, input comments; and critical steps stated in input comments agree with what the program
# prints (1 %: three significant digits).
sk_add_python_test(docs_defaults ${SK_TEST_DIR}/check_defaults.py ARGS ${SK_PROGRAM} LABELS regression)
# No "issue N" citations or paths outside the repository in tracked text, no PetscFunctionBeginUser in the library,
# no module including another module's private header (check_self_contained.py).
sk_add_python_test(docs_self_contained ${SK_TEST_DIR}/check_self_contained.py LABELS regression)
