/* stickslip app: the command line program (run, validate, --help, --version). */
#include <stickslip/mesh.h>
#include <stickslip/solver.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "usage: stickslip run INPUT.xml [-o OUTDIR] [-force] [-quiet] [PETSc options]\n"
                            "       stickslip validate INPUT.xml\n"
                            "       stickslip --help | --version\n";

static PetscErrorCode SKPrintHelp(void)
{
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stickslip %s: dynamics of elastic bodies in frictional contact with stick-slip\n\n%s\n",
                        SK_VERSION_STRING, usage));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "commands:\n"
                        "  run        run the study described by INPUT.xml; results go to OUTDIR\n"
                        "             (default: out/<input name>), which must not hold results unless -force is given\n"
                        "  validate   check INPUT.xml against its schema and the physical sanity rules, run nothing\n\n"
                        "options:\n"
                        "  -o OUTDIR      output directory (results.h5, VTK/PVD files)\n"
                        "  -force         overwrite the results of an earlier run in OUTDIR\n"
                        "  -restart       resume an interrupted run from its newest valid checkpoint in OUTDIR,\n"
                        "                 appending to its results (solvers with checkpoints: explicit)\n"
                        "  -quiet         no progress report\n"
                        "  -progress_interval S  seconds between two progress lines when stdout is not a terminal\n"
                        "                 (a log file, a pipe, an MPI launcher's output; default 60)\n"
                        "  -sk_traceback  print PETSc's full error traceback (for developers)\n"
                        "  -sk_allow_unused  run even if an option is used by nothing (otherwise an error: misspelled?)\n"
                        "  -log_view      PETSc's profile of where the time went\n"
                        "  Options in the input's <options> element apply too; the command line wins.\n"
                        "  stickslip run INPUT.xml -help lists every option of INPUT's solver with its default (and PETSc's),\n"
                        "  and runs nothing.\n\n"
                        "solvers (the root element of INPUT.xml):\n"));
  PetscCall(SKSolverGetCount(&n));
  for (PetscInt i = 0; i < n; i++) {
    const SKSolverType *type;
    PetscCall(SKSolverGet(i, &type));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s %s\n", type->name, type->description));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nexit status: 0 success, 1 bad input or refused output directory, 2 failure during the run.\n"
                                          "documentation: README.md, docs/input.md, docs/output.md\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a command holds; released by SKRunReset() whether the command succeeded or not. */
typedef struct {
  SKInput input;
  const SKSolverType *type;
  void *ctx;
  SKOutput out;
} SKRun;

static PetscErrorCode SKRunReset(SKRun *r)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = SKOutputDestroy(&r->out); /* freed also when it raises a failed write of results.h5; the rest after it */
  if (r->ctx) PetscCall(r->type->destroy(&r->ctx));
  PetscCall(SKInputDestroy(&r->input));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The program's own options (read for every command, so that -help lists them and none of them counts as unused). */
typedef struct {
  char dir[PETSC_MAX_PATH_LEN];
  PetscBool has_dir, force, restart, quiet, allow_unused;
  PetscReal progress_interval;
} SKProgramOptions;

static PetscErrorCode SKProgramOptionsRead(SKProgramOptions *o)
{
  PetscBool traceback    = PETSC_FALSE;
  SKOptionsChecks checks = {PETSC_FALSE, ""};

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "stickslip program options", NULL);
  PetscCall(PetscOptionsString("-o", "output directory (default: out/<input name>)", "", o->dir, o->dir, sizeof(o->dir), &o->has_dir));
  PetscCall(SKOptionsBool(&checks, "-force", "remove the results of an earlier run in the output directory and run afresh", "", o->force,
                          &o->force, NULL));
  PetscCall(SKOptionsBool(&checks, "-restart", "resume an interrupted run from its newest checkpoint (explicit solver)", "", o->restart,
                          &o->restart, NULL));
  PetscCall(SKOptionsBool(&checks, "-quiet", "no progress report", "", o->quiet, &o->quiet, NULL));
  /* read here so that it is never unused; SKProgressCreate() takes it from the options database */
  PetscCall(SKOptionsReal(&checks, "-progress_interval", "seconds between two progress lines when stdout is not a terminal", "",
                          o->progress_interval, &o->progress_interval, NULL, "(0, inf)"));
  PetscCall(SKOptionsBool(&checks, "-sk_traceback", "print PETSc's full error traceback", "", traceback, &traceback, NULL));
  PetscCall(SKOptionsBool(&checks, "-sk_allow_unused", "run even if an option is not used by the solver (e.g. misspelled)", "",
                          o->allow_unused, &o->allow_unused, NULL));
  PetscOptionsEnd();
  PetscCall(SKOptionsCheck(PETSC_COMM_WORLD, &checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An option that nothing read during the set-up is misspelled or meant for another solver: an input error (a silently
   ignored -rodpair_solvr ran another solver), unless -sk_allow_unused. PETSc reads some of its own options only at
   PetscFinalize(); those are not counted. */
static PetscErrorCode SKCheckUnusedOptions(const SKRun *r, PetscBool allow)
{
  static const char *const late[] = {"options_left", "malloc_dump", "malloc_view", "memory_view",  "log_view", "log_view_memory",
                                     "log_summary",  "log_trace",   "log_all",     "objects_dump", "help",     "h"};
  PetscInt n, bad = -1;
  char **names, **values;

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n && bad < 0; i++) {
    PetscBool is_late = PETSC_FALSE;
    for (size_t k = 0; k < sizeof(late) / sizeof(late[0]); k++)
      if (!strcmp(names[i], late[k])) is_late = PETSC_TRUE;
    if (!is_late) bad = i;
  }
  if (bad >= 0 && !allow) {
    char name[256];
    PetscCall(PetscStrncpy(name, names[bad], sizeof(name)));
    PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
    SETERRQ(PETSC_COMM_WORLD, SK_ERR_INPUT,
            "option -%s is not used by the %s solver (misspelled?): `stickslip run INPUT.xml -help` lists the options; pass "
            "-sk_allow_unused to run anyway",
            name, r->type->name);
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Loads the input and runs the solver's setup (all input checks, options included). */
static PetscErrorCode SKLoadAndSetup(const char filename[], SKRun *r, SKProgramOptions *o)
{
  SKNode root;

  PetscFunctionBegin;
  PetscCall(SKInputLoad(PETSC_COMM_WORLD, filename, &r->input));
  PetscCall(SKInputInsertOptions(r->input));
  PetscCall(SKProgramOptionsRead(o));
  PetscCall(SKInputGetRoot(r->input, &root));
  PetscCall(SKSolverFind(SKNodeName(root), &r->type));
  PetscCall(r->type->setup(r->input, &r->ctx));
  PetscCall(SKCheckUnusedOptions(r, o->allow_unused));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKDefaultOutputDir(const char filename[], char dir[], size_t len)
{
  const char *base = strrchr(filename, '/');
  char stem[PETSC_MAX_PATH_LEN], *dot;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(stem, base ? base + 1 : filename, sizeof(stem)));
  dot = strrchr(stem, '.');
  if (dot && dot != stem) *dot = 0;
  PetscCall(PetscSNPrintf(dir, len, "out/%s", stem));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKCommandRun(const char filename[], SKRun *r, PetscBool help)
{
  SKProgramOptions o = {"", PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, SK_PROGRESS_INTERVAL_DEFAULT};
  char *dir          = o.dir;
  PetscLogDouble t0, t1;
  PetscLogStage stage_setup, stage_run;

  PetscFunctionBegin;
  PetscCall(SKWallTime(&t0));
  PetscCall(PetscLogStageRegister("Setup", &stage_setup));
  PetscCall(PetscLogStageRegister("Run", &stage_run));
  PetscCall(PetscLogStagePush(stage_setup));
  PetscCall(SKLoadAndSetup(filename, r, &o));
  /* -help: the set-up has listed the options with their defaults; nothing is run */
  if (help) {
    PetscCall(PetscLogStagePop());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!o.has_dir) PetscCall(SKDefaultOutputDir(filename, dir, sizeof(o.dir)));
  /* -restart appends to the results of the interrupted run; the solver resumes from its newest checkpoint */
  if (o.restart)
    PetscCall(SKOutputOpen(PETSC_COMM_WORLD, dir, r->input, &r->out));
  else
    PetscCall(SKOutputCreate(PETSC_COMM_WORLD, dir, o.force, r->input, &r->out));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stickslip %s: %s solver, input %s\n", SK_VERSION_STRING, r->type->name, filename));
  PetscCall(PetscLogStagePop());
  PetscCall(PetscLogStagePush(stage_run));
  PetscCall(r->type->run(r->ctx, r->out));
  PetscCall(PetscLogStagePop());
  /* a write of results.h5 that failed on rank 0 of a parallel run is an error of every rank, here at the latest */
  PetscCall(SKOutputCheck(r->out));
  PetscCall(SKWallTime(&t1));
  PetscCall(SKOutputSummary(r->out, "total wall time", "%.3f s", (double)(t1 - t0)));
  PetscCall(SKOutputSummary(r->out, "results", "%s/results.h5", dir));
  PetscCall(SKOutputSetStatus(r->out, SK_OUTPUT_COMPLETED, NULL));
  PetscCall(SKOutputCheck(r->out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKCommandValidate(const char filename[], SKRun *r)
{
  SKProgramOptions o = {"", PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, SK_PROGRESS_INTERVAL_DEFAULT};
  size_t len         = strlen(filename);

  PetscFunctionBegin;
  /* a Gmsh mesh given directly: read and check it as a study would (XML meshes are inputs with root <mesh>) */
  if (len > 4 && !strcmp(filename + len - 4, ".msh")) {
    SKMesh mesh;
    PetscInt nodes, elements;

    PetscCall(SKMeshCreateGmsh(PETSC_COMM_WORLD, filename, &mesh));
    PetscCall(SKMeshGetNodes(mesh, &nodes, NULL));
    PetscCall(SKMeshGetNumElements(mesh, &elements));
    PetscCall(SKMeshDestroy(&mesh));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: valid Gmsh mesh, %" PetscInt_FMT " nodes, %" PetscInt_FMT " elements\n", filename, nodes,
                          elements));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SKLoadAndSetup(filename, r, &o));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: valid %s input\n", filename, r->type->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Open MPI's messaging layer for a program started without a launcher (an MPI singleton), where the environment does
   not choose one: ob1, which needs no probing of the network layers for one process. A serial start then takes 0.4 s
   instead of 0.6 s (docs/input.md, "Options"). Under mpiexec, srun or another launcher nothing is set. A singleton that
   forks no Open MPI daemon (ess_singleton_isolated) would start faster still, but such singletons share one session
   directory and one that ends can remove it under one that starts (1 start in 120 failed, six at a time). */
static void SingletonDefaults(void)
{
  if (!SKLaunchedByMPI()) (void)setenv("OMPI_MCA_pml", "ob1", 0);
}

int main(int argc, char **argv)
{
  PetscErrorCode ierr;
  const char *command = NULL, *filename = NULL;
  int pargc = 1;
  char **pargv;
  PetscBool help = PETSC_FALSE, version = PETSC_FALSE, traceback = PETSC_FALSE;
  int status = 0; /* exit status: 0 success, 1 bad input or usage, 2 failure during the run */
  PetscInt stray;

  /* The command and the input file come first (stickslip run INPUT.xml ...); everything else but --help and
     --version goes to PETSc's options database. */
  pargv = (char **)calloc((size_t)argc + 1, sizeof(char *));
  if (!pargv) return 2;
  pargv[0] = argv[0];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help") || !strcmp(argv[i], "-help")) {
      help = PETSC_TRUE;
      /* with a command, PETSc's -help makes the set-up list the solver's options (and PETSc's) with their defaults */
      if (command && !strcmp(argv[i], "-help")) pargv[pargc++] = argv[i];
    } else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-version"))
      version = PETSC_TRUE;
    else if (i == 1 && argv[i][0] != '-')
      command = argv[i];
    else if (i == 2 && command && argv[i][0] != '-')
      filename = argv[i];
    else
      pargv[pargc++] = argv[i];
  }
  /* a word PETSc would drop (an option without its dash, a second value): the run would silently use the default */
  stray = SKOptionsStrayWord(pargc - 1, (const char *const *)pargv + 1);
  if (version) {
    printf("stickslip %s\n", SK_VERSION_STRING);
    free(pargv);
    return 0;
  }
  SingletonDefaults();
  SKOutputLibraryBegin(); /* before MPI (output.h) */
  if (PetscInitialize(&pargc, &pargv, NULL, NULL) != PETSC_SUCCESS) {
    free(pargv);
    return 2;
  }
  ierr = SKSignalsInstall(); /* after PetscInitialize(), which installs PETSc's handlers */
  /* PETSc's traceback only with -sk_traceback; a value of it that is no logical value counts as false here (silently,
     under the return handler) and is refused with the program's options */
  if (!ierr) ierr = PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  if (!ierr && PetscOptionsGetBool(NULL, NULL, "-sk_traceback", &traceback, NULL)) traceback = PETSC_FALSE;
  if (!ierr && traceback) ierr = PetscPopErrorHandler();
  if (!ierr) ierr = SKSolverRegisterAll();
  if (!ierr && help && (!command || !filename))
    ierr = SKPrintHelp();
  else if (!ierr && !command) {
    (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "stickslip: no command given (stickslip --help tells more)\n%s", usage);
    status = 1;
  } else if (!ierr && strcmp(command, "run") && strcmp(command, "validate")) {
    (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "stickslip: unknown command '%s'\n%s", command, usage);
    status = 1;
  } else if (!ierr && !filename) {
    (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "stickslip %s: no input file given\n%s", command, usage);
    status = 1;
  } else if (!ierr && stray >= 0) {
    (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR,
                       "stickslip %s: '%s' is neither an option (-name) nor the value of the option before it; options are "
                       "written -name [value]\n",
                       command, pargv[1 + stray]);
    status = 1;
  } else if (!ierr) {
    SKRun r = {NULL, NULL, NULL, NULL};
    PetscErrorCode ierr_reset;
    ierr = !strcmp(command, "run") ? SKCommandRun(filename, &r, help) : SKCommandValidate(filename, &r);
    if (ierr && r.out) {
      const char *text;
      char *specific;
      /* results.h5 says that the run failed, why, and how far it got */
      (void)PetscErrorMessage(ierr, &text, &specific);
      (void)SKOutputSetStatus(r.out, SK_OUTPUT_FAILED, specific && specific[0] ? specific : text);
    }
    ierr_reset = SKRunReset(&r);
    if (!ierr) ierr = ierr_reset;
  }
  if (ierr) {
    const char *text;
    char *specific;
    /* The message of the first error is the whole story; for input errors it is already "FILE:LINE: message". */
    (void)PetscErrorMessage(ierr, &text, &specific);
    if (ierr == SK_ERR_INPUT)
      (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "%s\n", specific ? specific : text);
    else
      (void)PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "stickslip: error: %s\n  (%s; rerun with -sk_traceback for a traceback)\n",
                         specific && specific[0] ? specific : text, text ? text : "PETSc error");
    status = ierr == SK_ERR_INPUT ? 1 : 2;
  }
  if (!traceback) (void)PetscPopErrorHandler();
  SKOutputLibraryEnd();
  (void)PetscFinalize();
  free(pargv);
  return status;
}
