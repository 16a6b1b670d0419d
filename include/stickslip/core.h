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

/* Class id of stickslip objects, for PetscLogEventRegister() and PetscInfo(). */
extern PetscClassId SK_CLASSID;

/* Registers the stickslip log class and the log events of core and io. Idempotent; called by the app and by tests.
   Modules register their own events in their own XxxInitializePackage(), which calls this first. */
PETSC_EXTERN PetscErrorCode SKInitializePackage(void);

/* Progress line on a terminal: "t = 1.2e-01 s  step 1200  12.0 %  ETA 0:00:31".
   Silent when stdout is not a TTY, when the option -quiet is set, and on ranks other than 0. */
typedef struct _n_SKProgress *SKProgress;

/* Creates a progress reporter for a run from t_start to t_end (s). label names the solver. */
PETSC_EXTERN PetscErrorCode SKProgressCreate(MPI_Comm comm, const char label[], PetscReal t_start, PetscReal t_end, SKProgress *progress);
/* Reports that the run reached time t (s) at step (or interval) number step; rate-limited to a few updates per second. */
PETSC_EXTERN PetscErrorCode SKProgressUpdate(SKProgress progress, PetscReal t, PetscInt step);
/* Clears the progress line and frees the reporter. */
PETSC_EXTERN PetscErrorCode SKProgressDestroy(SKProgress *progress);

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

/* sin(x) and cos(x) for the modal closed forms, where one solve evaluates them millions of times at moderate arguments:
   Cody-Waite reduction by pi/2 (three-part constant, exact products for |x| < 2^29) and Taylor polynomials of degree 15
   (sin) and 16 (cos) on |r| <= pi/4, whose truncation error (< 5e-17) is below the rounding; the quadrant is applied
   by selects, not branches, so that loops over many arguments (SKSinCosArray) vectorise. Error within a few ulp of
   max(|value|, 1/2) of libm for |x| <= 1e6 (tests/unit/core/test_sincos.c); not for |x| > 1e6. */
static inline void SKSinCos(PetscReal x, PetscReal *s, PetscReal *c)
{
  const PetscReal k =
      (x * 0.63661977236758134308 + 6755399441055744.0) - 6755399441055744.0; /* nearest multiple of pi/2 (1.5 2^52 rounds) */
  const PetscReal r  = ((x - k * 1.57079625129699707031e+00) - k * 7.54978941586159635336e-08) - k * 5.39030285815811905290e-15;
  const PetscReal r2 = r * r;
  const PetscReal S =
      r + r * r2 *
              (-1.0 / 6 +
               r2 * (1.0 / 120 +
                     r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800 - r2 / 1307674368000))))));
  const PetscReal C =
      1 + r2 * (-0.5 + r2 * (1.0 / 24 +
                             r2 * (-1.0 / 720 +
                                   r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
                                                             r2 * (1.0 / 479001600 + r2 * (-1.0 / 87178291200 + r2 / 20922789888000)))))));
  const int q       = (int)k & 3; /* x = k pi/2 + r: quadrant 0: (S, C), 1: (C, -S), 2: (-S, -C), 3: (-C, S) */
  const PetscReal a = (q & 1) ? C : S, b = (q & 1) ? S : C;
  *s = (q & 2) ? -a : a;
  *c = ((q + 1) & 2) ? -b : b;
}

/* SKSinCos() of N arguments X[] into S[], C[] (may not alias X). */
static inline void SKSinCosArray(PetscInt n, const PetscReal *restrict x, PetscReal *restrict s, PetscReal *restrict c)
{
  for (PetscInt i = 0; i < n; i++) SKSinCos(x[i], &s[i], &c[i]);
}

#endif
