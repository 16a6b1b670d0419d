# The command line program: bad inputs give one file:line error, usage and help, -force protection.
sk_add_python_test(cli_bad_inputs ${SK_TEST_DIR}/check_bad_inputs.py LABELS regression)
# The program end to end: help/version/usage, OUTDIR protection and -force, option precedence, quiet in a pipe.
sk_add_python_test(cli_program ${SK_TEST_DIR}/check_program.py LABELS regression)
# results.h5's run status (running/completed/failed), a closed stdout, SIGTERM, the refusal after a failed run, an
# unwritable output path.
sk_add_python_test(cli_run_status ${SK_TEST_DIR}/check_run_status.py LABELS regression)
# SIGTERM inside the time loop of every other solver: exit 2, one line, status failed; label refusal: make asan-check
# runs it, so the stopped runs are checked for leaks.
sk_add_python_test(cli_sigterm_solvers ${SK_TEST_DIR}/check_sigterm_solvers.py LABELS "regression;refusal")
# Unused (misspelled) options are errors, -help lists the options with their defaults, validate refuses what run
# refuses (mmm with a table load) and reads a Gmsh .msh.
sk_add_python_test(cli_options ${SK_TEST_DIR}/check_options.py LABELS regression)
# run X -help lists every option of the bowedstring, bars2020, explicit, rodpair and campaign solvers with its values
# (options read in repeated-title blocks or outside any block were missing).
sk_add_python_test(cli_help ${SK_TEST_DIR}/check_help.py LABELS regression)
# A failure that rank 0 (or a campaign group's rank 0) meets alone in a file it reads or writes for all ranks, or one rank
# in its own piece of a field frame, ends every rank together on 2 ranks, with the exit status and the one error line of
# the run on 1 rank (checkpoints, the .pvd, results.h5 and its histories on a restart, a campaign's directory, failure
# records and results, a .vtu piece that cannot be created or written; each once hung).
sk_add_python_test(cli_rank0_failures ${SK_TEST_DIR}/check_rank0_failures.py LABELS "regression;mpi")
set_tests_properties(cli_rank0_failures PROPERTIES PROCESSORS 2 TIMEOUT 600)
# A disk that fills up during a run (a small tmpfs; skipped where mounting is not allowed): results.h5's histories, a
# checkpoint, a campaign's realisation files and bars2020's histories end the run with exit status 2 and one error line
# on 1 rank and on 2 (a 2-rank run once hung; the others crashed in MPI_Finalize), what was written stays readable, and
# the checkpoint left is one a restart can use. Label refusal: the sanitizer job checks that these stopped runs leak nothing.
sk_add_python_test(cli_full_disk ${SK_TEST_DIR}/check_full_disk.py LABELS "regression;mpi;refusal")
set_tests_properties(cli_full_disk PROPERTIES PROCESSORS 2 TIMEOUT 600 SKIP_RETURN_CODE 77)
# Option values are checked like input values: one that does not parse or lies outside its range gives exit status 1
# and one "option -NAME VALUE: ..." line with the values it takes, for every option of every solver (PETSc's parsers
# stopped "abc" with exit status 2 and a message naming no option; most options took any number).
sk_add_python_test(cli_option_values ${SK_TEST_DIR}/check_option_values.py LABELS "regression;refusal")
# A run that would need more memory than it may use (the machine's, or a ulimit set on the process) is refused at
# set-up with the numbers: the rod pair's output rows, the bowed string's samples, a mesh (before: the rod pair failed
# in its allocation after writing results.h5, the bowed string ran until one failed). Not under the sanitizers
# (AddressSanitizer cannot run under an address-space limit).
sk_add_python_test(cli_memory_limits ${SK_TEST_DIR}/check_memory_limits.py LABELS regression)
