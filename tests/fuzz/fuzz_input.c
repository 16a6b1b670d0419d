/* libFuzzer harness for the input loader: every byte string must give either a loaded input or one SK_ERR_INPUT
   error whose message is "fuzz.xml:LINE: ...", never a crash, a hang, a leak or another kind of error.
   Built with SK_FUZZ_SETUP (the harness fuzz_setup), a loaded input then goes through its solver's set-up (every check
   of the input, the mesh, masses, critical step, modes), which must end in a context (then destroyed) or in one such
   input error with nothing left allocated. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stickslip/solver.h>
#include <sanitizer/lsan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* fuzz_schemas[]: the stems of the schema files in schema/, written by CMake (tests/fuzz/CMakeLists.txt). */
#include "fuzz_schemas.h"

/* The name the loader puts in front of its messages. */
#define FUZZ_NAME "fuzz.xml"

/* Stand-ins for solvers whose schema is embedded but whose code is not registered (yet): the loader only needs the
   name and the schema, and with them the fuzzer reaches schema validation for every schema in schema/. */
static PetscErrorCode FuzzSetup(SKInput input, void **ctx)
{
  PetscFunctionBeginUser;
  (void)input;
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FuzzRun(void *ctx, SKOutput out)
{
  PetscFunctionBeginUser;
  (void)ctx;
  (void)out;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FuzzDestroy(void **ctx)
{
  PetscFunctionBeginUser;
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FuzzRegisterSchemas(void)
{
  static SKSolverType types[sizeof(fuzz_schemas) / sizeof(fuzz_schemas[0])];
  static char files[sizeof(fuzz_schemas) / sizeof(fuzz_schemas[0])][PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  for (size_t i = 0; fuzz_schemas[i]; i++) {
    const SKSolverType *existing;

    if (!strcmp(fuzz_schemas[i], "common") || !strcmp(fuzz_schemas[i], "rigid")) continue; /* shared types, not a study */
    PetscCall(SKSolverFind(fuzz_schemas[i], &existing));
    if (existing) continue;
    PetscCall(PetscSNPrintf(files[i], sizeof(files[i]), "%s.xsd", fuzz_schemas[i]));
    types[i] = (SKSolverType){fuzz_schemas[i], files[i], "fuzzing stand-in", FuzzSetup, FuzzRun, FuzzDestroy};
    PetscCall(SKSolverRegister(&types[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reports a broken contract and aborts, so libFuzzer keeps the input as a crash reproducer. */
static void FuzzFail(const char what[], PetscErrorCode ierr)
{
  const char *text = NULL;
  char *specific   = NULL;

  PetscErrorMessage(ierr, &text, &specific);
  fprintf(stderr, "fuzz_input: %s (error %d, %s): %s\n", what, (int)ierr, text ? text : "?", specific ? specific : "");
  abort();
}

/* True if MSG has the form "fuzz.xml:LINE: message" with a positive line. */
static int FuzzIsInputMessage(const char *msg)
{
  const size_t n = sizeof(FUZZ_NAME) - 1;
  const char *p;
  long line = 0;

  if (!msg || strncmp(msg, FUZZ_NAME ":", n + 1)) return 0;
  for (p = msg + n + 1; *p >= '0' && *p <= '9'; p++) line = 10 * line + (*p - '0');
  return line > 0 && p[0] == ':' && p[1] == ' ' && p[2] != '\0';
}

/* SK_FUZZ_VERBOSE=1 prints each input's outcome: for replaying a reproducer or checking what the seeds reach. */
static int fuzz_verbose;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  /* PETSc's own SIGSEGV/SIGFPE handler would hide crashes from AddressSanitizer and libFuzzer. */
  if (setenv("PETSC_OPTIONS", "-no_signal_handler", 1)) abort();
  /* MPI_Init (inside PETSc) keeps allocations it never frees; they are not ours and would be reported as leaks by
     the first leak check of any input. Allocations made while LeakSanitizer is disabled count as non-leaks. */
  __lsan_disable();
  if (PetscInitializeNoArguments()) abort();
  if (SKSolverRegisterAll()) abort();
  if (FuzzRegisterSchemas()) abort();
  __lsan_enable();
  /* Errors are the expected outcome for most inputs: return them silently instead of printing tracebacks. */
  if (PetscPushErrorHandler(PetscReturnErrorHandler, NULL)) abort();
  fuzz_verbose = getenv("SK_FUZZ_VERBOSE") != NULL;
  return 0;
}

/* A refusal by STAGE ("loader" or "set-up") must be one SK_ERR_INPUT error "fuzz.xml:LINE: message" that hands out
   nothing (OBJ is what the stage would have returned). */
static void FuzzCheckRefusal(const char stage[], PetscErrorCode ierr, const void *obj)
{
  char *specific = NULL, what[128];

  (void)PetscSNPrintf(what, sizeof(what), "%s failed with an error other than SK_ERR_INPUT", stage);
  if (ierr != SK_ERR_INPUT) FuzzFail(what, ierr);
  (void)PetscSNPrintf(what, sizeof(what), "%s failed but handed out its object", stage);
  if (obj) FuzzFail(what, ierr);
  PetscErrorMessage(ierr, NULL, &specific);
  (void)PetscSNPrintf(what, sizeof(what), "the %s's input error message is not 'fuzz.xml:LINE: message'", stage);
  if (!FuzzIsInputMessage(specific)) FuzzFail(what, ierr);
  if (fuzz_verbose) fprintf(stderr, "fuzz: %s refused: %s\n", stage, specific);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  SKInput input = NULL;
  PetscErrorCode ierr;

  ierr = SKInputLoadMemory(PETSC_COMM_SELF, FUZZ_NAME, (const char *)data, size, &input);
  if (ierr) {
    FuzzCheckRefusal("loader", ierr, input);
    return 0;
  }
  if (!input) FuzzFail("loader succeeded without an input", ierr);
  if (fuzz_verbose) fprintf(stderr, "fuzz: loaded\n");
#if defined(SK_FUZZ_SETUP)
  {
    SKNode root;
    const SKSolverType *type = NULL;
    void *ctx                = NULL;

    if (SKInputGetRoot(input, &root) || SKSolverFind(SKNodeName(root), &type) || !type) FuzzFail("a loaded input without its solver", 0);
    ierr = type->setup(input, &ctx);
    if (ierr)
      FuzzCheckRefusal("set-up", ierr, ctx);
    else {
      if (fuzz_verbose) fprintf(stderr, "fuzz: set up\n");
      ierr = type->destroy(&ctx);
      if (ierr || ctx) FuzzFail("the solver's destroy failed", ierr);
    }
  }
#endif
  ierr = SKInputDestroy(&input);
  if (ierr || input) FuzzFail("SKInputDestroy() failed", ierr);
  return 0;
}
