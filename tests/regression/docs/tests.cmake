# The input reference covers every element and attribute of every schema.
sk_add_python_test(docs_input_reference ${SK_TEST_DIR}/check_input_docs.py LABELS regression)
