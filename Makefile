# stickslip: thin wrapper over CMake. `make demo` and `make check` set up everything on a fresh Debian machine.
BUILD    ?= build
ASAN     ?= build-asan
JOBS     ?= $(shell nproc)
DEMO     ?= inputs/rodpair/omega1-caseA.xml
DEMO_OUT ?= out/demo
# The main job: the rod-pair validation case of Tsetas et al. 2022 by the mode-matching solver.
DEMO_OPTS ?= -rodpair_solver mmm
CMAKE_FLAGS ?=
MAKEFLAGS += --no-print-directory

.PHONY: all deps configure build demo check validate asan-check bench format format-check cppcheck fuzz clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	@cmake --build $(BUILD) -j $(JOBS) | grep -v -E '^\[ *[0-9]+%\] (Building|Linking|Built)' || true
	@test -x $(BUILD)/bin/stickslip

demo: build
	$(BUILD)/bin/stickslip run $(DEMO) -o $(DEMO_OUT) -force $(DEMO_OPTS)
	@PYTHONPATH=$(CURDIR) /usr/bin/python3 -m postproc.summary $(DEMO_OUT) --figures
	@echo "demo outputs are in $(DEMO_OUT)/: results.h5 (layout: docs/output.md) and the figures listed above"

check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Reruns the validation studies of docs/validation/ and rewrites their generated tables (postproc/studies.py lists them):
# `make validate`, or `make validate STUDY="crossval bk"` for some (a table name or a page stem).
STUDY ?=
validate: build
	PYTHONPATH=$(CURDIR) /usr/bin/python3 -m postproc.validate --program $(BUILD)/bin/stickslip --out $(BUILD)/validate -j $(JOBS) $(STUDY)

# AddressSanitizer + UndefinedBehaviorSanitizer build running the unit tests, the bad-input tests and the short runs of
# the program (the CI sanitizer job; LeakSanitizer checks every process at its exit, refusals included).
SANITIZER_ENV = ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=1 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
asan-check: deps
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Asan >/dev/null
	@cmake --build $(ASAN) -j $(JOBS) | grep -v -E '^\[ *[0-9]+%\] (Building|Linking|Built)' || true
	cd $(ASAN) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) -L 'unit|refusal'
	$(SANITIZER_ENV) tests/sanitizer/program_runs.sh $(ASAN)

# Benchmarks are built for this machine (-march=native) in their own tree; see docs/benchmarks.md.
bench: deps
	@cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DSTICKSLIP_NATIVE=ON -DSTICKSLIP_WITH_CVODE=ON >/dev/null
	@cmake --build build-bench -j $(JOBS) | grep -v -E '^\[ *[0-9]+%\] (Building|Linking|Built)' || true

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

cppcheck: configure
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability --inline-suppr \
	  --suppress=missingIncludeSystem --std=c11 --include=tests/cppcheck/petsc-macros.h -Iinclude -Isrc $$(git ls-files 'src/*.c' 'src/*.h')

fuzz: deps
	tests/fuzz/run.sh 60

clean:
	rm -rf $(BUILD) $(ASAN) build-bench build-fuzz
