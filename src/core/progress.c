/* stickslip core: the one-line progress report of long runs (time, step, percent, ETA), only on a terminal. */
#include <stickslip/core.h>
#include <unistd.h>

struct _n_SKProgress {
  MPI_Comm comm;
  PetscBool active; /* rank 0, stdout is a TTY and -quiet is not set */
  char label[64];
  PetscReal t_start, t_end;
  PetscLogDouble wall_start, wall_last;
  PetscBool printed;
  PetscMPIInt size;
};

/* Minimum seconds between two updates: a terminal redraw per step would cost more than a step. */
#define SK_PROGRESS_PERIOD 0.25

PetscErrorCode SKProgressCreate(MPI_Comm comm, const char label[], PetscReal t_start, PetscReal t_end, SKProgress *progress)
{
  SKProgress p;
  PetscMPIInt rank;
  PetscBool quiet = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  p->comm    = comm;
  p->t_start = t_start;
  p->t_end   = t_end;
  PetscCall(PetscStrncpy(p->label, label, sizeof(p->label)));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &p->size));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quiet", &quiet, NULL));
  p->active = (rank == 0 && !quiet && isatty(STDOUT_FILENO)) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(SKWallTime(&p->wall_start));
  p->wall_last = p->wall_start;
  *progress    = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKProgressUpdate(SKProgress p, PetscReal t, PetscInt step)
{
  PetscLogDouble now, elapsed, eta = -1;
  PetscReal frac;

  PetscFunctionBegin;
  /* a SIGTERM/SIGINT stops a serial run here; a parallel solver calls the (collective) check itself, since not every
     solver calls this on all its ranks at the same steps */
  if (p->size == 1) PetscCall(SKSignalCheck(p->comm));
  if (!p->active) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKWallTime(&now));
  if (now - p->wall_last < SK_PROGRESS_PERIOD) PetscFunctionReturn(PETSC_SUCCESS);
  p->wall_last = now;
  elapsed      = now - p->wall_start;
  frac         = p->t_end > p->t_start ? (t - p->t_start) / (p->t_end - p->t_start) : 1.0;
  frac         = PetscMax(0.0, PetscMin(1.0, frac));
  if (frac > 1e-6) eta = elapsed * (1.0 - frac) / frac;
  if (eta >= 0) {
    long s = (long)(eta + 0.5);
    printf("\r%s: t = %.4e s  step %" PetscInt_FMT "  %5.1f %%  ETA %ld:%02ld:%02ld  ", p->label, (double)t, step, (double)(100 * frac),
           s / 3600, (s / 60) % 60, s % 60);
  } else {
    printf("\r%s: t = %.4e s  step %" PetscInt_FMT "  %5.1f %%  ", p->label, (double)t, step, (double)(100 * frac));
  }
  fflush(stdout);
  p->printed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKProgressDestroy(SKProgress *progress)
{
  PetscFunctionBegin;
  if (!*progress) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*progress)->printed) {
    printf("\r\033[K");
    fflush(stdout);
  }
  PetscCall(PetscFree(*progress));
  PetscFunctionReturn(PETSC_SUCCESS);
}
