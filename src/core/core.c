/* stickslip core: package registration (log class and events), wall-clock time, the FNV-1a hash, the signals of a
   run and collective errors. */
#include <stickslip/core.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

PetscClassId SK_CLASSID;

static PetscBool SKPackageInitialized = PETSC_FALSE;

PetscErrorCode SKInitializePackage(void)
{
  PetscFunctionBegin;
  if (SKPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SKPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("stickslip", &SK_CLASSID));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKWallTime(PetscLogDouble *seconds)
{
  struct timespec ts;

  PetscFunctionBegin;
  PetscCheck(clock_gettime(CLOCK_MONOTONIC, &ts) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "clock_gettime(CLOCK_MONOTONIC) failed");
  *seconds = (PetscLogDouble)ts.tv_sec + 1e-9 * (PetscLogDouble)ts.tv_nsec;
  PetscFunctionReturn(PETSC_SUCCESS);
}

unsigned long long SKHashBytes(unsigned long long seed, const void *data, size_t n)
{
  const unsigned char *p = (const unsigned char *)data;
  unsigned long long h   = seed;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL; /* the 64-bit FNV prime */
  }
  return h;
}

PetscReal SKMachineMemory(void)
{
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  PetscReal have    = pages > 0 && page > 0 ? (PetscReal)pages * (PetscReal)page : PETSC_MAX_REAL;
  const int which[] = {RLIMIT_AS, RLIMIT_DATA};

  /* a limit set on the process (ulimit -v, ulimit -d; a batch system's) is what it may use */
  for (size_t k = 0; k < sizeof(which) / sizeof(which[0]); k++) {
    struct rlimit lim;
    if (!getrlimit(which[k], &lim) && lim.rlim_cur != RLIM_INFINITY) have = PetscMin(have, (PetscReal)lim.rlim_cur);
  }
  return have;
}

/* The variables an MPI launcher sets in its ranks' environment: Open MPI's mpiexec, PMIx and PMI (srun, MPICH's
   hydra). A program without them runs as an MPI singleton. Read once: Open MPI's singleton start sets some of them in
   the process' own environment. */
PetscBool SKLaunchedByMPI(void)
{
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "PMI_FD"};
  static int launched             = -1;

  if (launched < 0) {
    launched = 0;
    for (size_t k = 0; k < sizeof(vars) / sizeof(vars[0]); k++)
      if (getenv(vars[k])) launched = 1;
  }
  return launched ? PETSC_TRUE : PETSC_FALSE;
}

/* the signal caught (0: none); only written by the handler, read by SKSignalCheck() */
static volatile sig_atomic_t sk_signal = 0;

static void SKSignalHandler(int sig)
{
  /* a second SIGTERM/SIGINT (the user insists): the default action, at once */
  if (sk_signal) {
    (void)signal(sig, SIG_DFL);
    (void)raise(sig);
    return;
  }
  sk_signal = sig;
}

PetscErrorCode SKSignalsInstall(void)
{
  struct sigaction sa;

  PetscFunctionBegin;
  PetscCheck(signal(SIGPIPE, SIG_IGN) != SIG_ERR, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot ignore SIGPIPE");
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SKSignalHandler;
  (void)sigemptyset(&sa.sa_mask);
  PetscCheck(sigaction(SIGTERM, &sa, NULL) == 0 && sigaction(SIGINT, &sa, NULL) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS,
             "cannot install the SIGTERM/SIGINT handler");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSignalCheck(MPI_Comm comm)
{
  int sig = (int)sk_signal;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm));
  PetscCheck(!sig, comm, PETSC_ERR_SIG, "interrupted by %s", sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a signal");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSignalCheckSerial(void)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  if (!sk_signal) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscCall(SKSignalCheck(PETSC_COMM_SELF));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKCheckCollective(MPI_Comm comm, PetscErrorCode ierr)
{
  struct {
    int code;
    char message[1024]; /* PETSc keeps 1023 characters of a message */
  } e = {0, ""};
  PetscMPIInt rank, size, first;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  first = ierr ? rank : size;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(PETSC_SUCCESS);
  if (rank == first) {
    const char *text;
    char *specific;
    /* the message of the error is PETSc's copy of its first message (the error handler may have printed nothing) */
    e.code = (int)ierr;
    PetscCall(PetscErrorMessage(ierr, &text, &specific));
    PetscCall(PetscStrncpy(e.message, specific && specific[0] ? specific : text ? text : "error without a message", sizeof(e.message)));
  }
  PetscCallMPI(MPI_Bcast(&e, (PetscMPIInt)sizeof(e), MPI_BYTE, first, comm));
  SETERRQ(comm, (PetscErrorCode)e.code, "%s", e.message);
}
