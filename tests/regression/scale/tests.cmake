# Memory guard of the explicit solver (tests/bench/scale.py measures the same at 1e4-1e6 elements): the peak resident
# set per additional H8 Neo-Hookean element between 8 000 and 32 000 elements, matrix-free critical step. Measured 380,
# 389 and 393 bytes (2026-11-23, three runs: allocator and page granularity give about +-10); 460 = 390 + 70, so three
# more arrays of one double per dof (24 bytes per element each), or an O(element) table kept from the set-up, fail it.
sk_add_python_test(regression_scale_memory ${SK_TEST_DIR}/check_memory.py ARGS ${SK_PROGRAM} 460 LABELS regression)
