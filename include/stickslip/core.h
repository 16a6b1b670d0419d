/* stickslip core: version, package registration (log classes, events, stages), progress reporting.
   Error handling follows PETSc: every function returns PetscErrorCode, calls are wrapped in PetscCall(). */
#ifndef STICKSLIP_CORE_H
#define STICKSLIP_CORE_H

#include <petscsys.h>

/* PETSc 3.18 (Debian 12) predates PETSC_SUCCESS (3.19); stickslip writes the modern form everywhere. */
#if PETSC_VERSION_LT(3, 19, 0)
#define PETSC_SUCCESS ((PetscErrorCode)0)
#endif

#define SK_VERSION_MAJOR 0
#define SK_VERSION_MINOR 1
#define SK_VERSION_PATCH 0
#define SK_VERSION_STRING "0.1.0"

/* Error code for bad user input (file:line messages). The app prints the message of such an error once, without a traceback. */
#define SK_ERR_INPUT PETSC_ERR_USER_INPUT

/* The width, in doubles, of the GNU vector types (vector_size) of the hand-vectorised kernels (the Bezier passes, the
   Neo-Hookean stress, the rod pair's mode recurrences): one AVX-512 register where the target has it, else 4 (256 bits,
   which an AVX2 machine that splits them runs as fast as two of 128 with fewer instructions). Every lane's arithmetic is
   the same at either width, so results do not depend on it (docs/benchmarks.md measures both). */
#if defined(__AVX512F__)
#define SK_VEC_WIDTH 8
#else
#define SK_VEC_WIDTH 4
#endif

/* Class id of stickslip objects, for PetscLogEventRegister() and PetscInfo(). */
extern PetscClassId SK_CLASSID;

/* Registers the stickslip log class and the log events of core and io. Idempotent; called by the app and by tests.
   Modules register their own events in their own XxxInitializePackage(), which calls this first. */
PETSC_EXTERN PetscErrorCode SKInitializePackage(void);

/* Progress report of a run: "explicit: t = 1.2e-01 s  step 1200   12.0 %  ETA 0:00:31". On a terminal one line
   redrawn in place a few times a second and cleared at the end; otherwise (stdout a file or a pipe, or the process
   started by an MPI launcher, whose ranks' stdout is the launcher's pseudo-terminal even when the job's output goes to
   a file) a plain line every -progress_interval seconds (default SK_PROGRESS_INTERVAL_DEFAULT). Silent with the option
   -quiet and on ranks other than 0. */
typedef struct _n_SKProgress *SKProgress;
#define SK_PROGRESS_INTERVAL_DEFAULT 60.0

/* Creates a progress reporter for a run from t_start to t_end (s). label names the solver. */
PETSC_EXTERN PetscErrorCode SKProgressCreate(MPI_Comm comm, const char label[], PetscReal t_start, PetscReal t_end, SKProgress *progress);
/* Reports that the run reached time t (s) at step (or interval) number step; rate-limited as above. */
PETSC_EXTERN PetscErrorCode SKProgressUpdate(SKProgress progress, PetscReal t, PetscInt step);
/* Reports a count instead of a time: t_end of SKProgressCreate() is the total, and SKProgressUpdate(p, k, k) prints
   "campaign: 12 of 40 realisations started  30.0 %  ETA ..." for WHAT "realisations started". */
PETSC_EXTERN PetscErrorCode SKProgressSetCount(SKProgress progress, const char what[]);
/* Clears a redrawn progress line and frees the reporter. */
PETSC_EXTERN PetscErrorCode SKProgressDestroy(SKProgress *progress);

/* Options read with the values they take. Inside a PetscOptionsBegin()/PetscOptionsEnd() block, SKOptionsReal() and
   SKOptionsInt() take a range written as an interval, "(0, inf)", "[0, 1)", "[-1, inf)" (inf: no bound; infinities and
   NaN are never taken), SKOptionsBool() the words PETSc reads as logical values, SKOptionsEnum() the names of the list;
   otherwise they are PetscOptionsReal(), PetscOptionsInt(), PetscOptionsBool(), PetscOptionsEnum() (listed by -help,
   marked used). A value that does not parse or lies outside its range is kept in CHECKS (the first one) and the option
   is not read (SET false); SKOptionsCheck() after PetscOptionsEnd() raises it as a bad input (SK_ERR_INPUT, exit status 1):
   "option -explicit_power_maxit 0: outside [1, inf), the values it takes". (PETSc's own parsers would stop the run as a
   failure, with a message that does not name the option, and an error inside the block would leak its strings.) */
typedef struct {
  PetscBool bad;
  char message[512];
} SKOptionsChecks;
#define SKOptionsReal(checks, opt, text, man, current, value, set, range) \
  SKOptionsReal_Private(PetscOptionsObject, checks, opt, text, man, current, value, set, range)
#define SKOptionsInt(checks, opt, text, man, current, value, set, range) \
  SKOptionsInt_Private(PetscOptionsObject, checks, opt, text, man, current, value, set, range)
#define SKOptionsBool(checks, opt, text, man, current, value, set) \
  SKOptionsBool_Private(PetscOptionsObject, checks, opt, text, man, current, value, set)
#define SKOptionsEnum(checks, opt, text, man, list, current, value, set) \
  SKOptionsEnum_Private(PetscOptionsObject, checks, opt, text, man, list, current, value, set)
PETSC_EXTERN PetscErrorCode SKOptionsReal_Private(PetscOptionItems *, SKOptionsChecks *, const char[], const char[], const char[],
                                                  PetscReal, PetscReal *, PetscBool *, const char[]);
PETSC_EXTERN PetscErrorCode SKOptionsInt_Private(PetscOptionItems *, SKOptionsChecks *, const char[], const char[], const char[], PetscInt,
                                                 PetscInt *, PetscBool *, const char[]);
PETSC_EXTERN PetscErrorCode SKOptionsBool_Private(PetscOptionItems *, SKOptionsChecks *, const char[], const char[], const char[],
                                                  PetscBool, PetscBool *, PetscBool *);
PETSC_EXTERN PetscErrorCode SKOptionsEnum_Private(PetscOptionItems *, SKOptionsChecks *, const char[], const char[], const char[],
                                                  const char *const *, PetscEnum, PetscEnum *, PetscBool *);
PETSC_EXTERN PetscErrorCode SKOptionsCheck(MPI_Comm comm, const SKOptionsChecks *checks);

/* Options are written "-name [value]": PETSc drops a word that is neither a name nor the value right after one
   ("rodpair_nodes 5" without its dash, "-rodpair_nodes 5 7"), so that such a typo would run with the default. Returns
   the index of the first such word of WORDS, -1 if there is none. The program refuses them on the command line and in
   an input's <options> element. */
PETSC_EXTERN PetscInt SKOptionsStrayWord(PetscInt n, const char *const words[]);

/* Bytes of memory this process may use: the machine's physical memory, or a lower limit set on the process (ulimit -v
   or -d: RLIMIT_AS, RLIMIT_DATA); PETSC_MAX_REAL where the system says nothing. The size checks of a set-up refuse
   what could not fit (a mesh, the rod pair's output rows, the bowed string's samples) before they allocate it. */
PETSC_EXTERN PetscReal SKMachineMemory(void);

/* True when an MPI launcher (mpiexec, srun) started this process: its environment has the launcher's variables. The
   first call decides; make it before MPI_Init() (PetscInitialize()), since Open MPI's singleton start sets some of those
   variables itself (the program does; a library user who calls it later gets true, and progress lines). */
PETSC_EXTERN PetscBool SKLaunchedByMPI(void);

/* Wall-clock seconds since an arbitrary origin (monotonic). */
PETSC_EXTERN PetscErrorCode SKWallTime(PetscLogDouble *seconds);

/* Pure kernel: the 64-bit FNV-1a hash (Fowler, Noll, Vo) of n bytes, chained from seed (start with SK_FNV_SEED):
   checkpoint checksums and the digests that identify a run. Not cryptographic. */
#define SK_FNV_SEED 0xcbf29ce484222325ULL
PETSC_EXTERN unsigned long long SKHashBytes(unsigned long long seed, const void *data, size_t n);

/* Signals of a run. SKSignalsInstall() (call after PetscInitialize(), which installs PETSc's own handlers) ignores
   SIGPIPE, so that a closed stdout (`stickslip run ... | head -1`) never kills a run (output errors are checked where
   they matter), and catches SIGTERM and SIGINT: the handler only records the signal; a second one of them ends the
   process at once. SKSignalCheck() raises PETSC_ERR_SIG "interrupted by SIGTERM" once a signal was recorded, so that
   the run stops through the ordinary error path (which records the run as failed in results.h5). Collective on COMM
   (the ranks agree on whether any of them was signalled); SKProgressUpdate() and SKHistoryAppend() call it. */
PETSC_EXTERN PetscErrorCode SKSignalsInstall(void);
PETSC_EXTERN PetscErrorCode SKSignalCheck(MPI_Comm comm);
/* The same, not collective, for the long loops of a set-up over one process' data (refinement, Bezier extraction,
   masses, the stiffness bounds of the critical step): raises the error once a signal was recorded if the program runs
   alone (PETSC_COMM_WORLD of size 1); in a parallel run it does nothing (a rank stopping alone would leave the others
   waiting in the next collective call), and the set-up's collective SKSignalCheck() between its phases stops it. Cheap
   enough for every iteration of a loop whose body takes microseconds. */
PETSC_EXTERN PetscErrorCode SKSignalCheckSerial(void);

/* Raises on every rank of COMM the error that some of its ranks met alone, with the code and message of the lowest such
   rank, so that a failure of what one rank reads or writes for all (results.h5, a checkpoint, the .pvd collection, a
   campaign's files: rank 0's work) never leaves the others waiting for it in their next collective call. IERR is what
   this rank's own part returned (PETSC_SUCCESS if it had none); returns PETSC_SUCCESS on every rank when none failed.
   Collective on COMM. */
PETSC_EXTERN PetscErrorCode SKCheckCollective(MPI_Comm comm, PetscErrorCode ierr);

#endif
