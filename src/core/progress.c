/* stickslip core: the progress report of long runs (time, step, percent, ETA): a line redrawn in place on a terminal,
   plain lines now and then in a log. */
#include <stickslip/core.h>
#include <unistd.h>

typedef enum {
  SK_PROGRESS_OFF,    /* ranks other than 0, -quiet */
  SK_PROGRESS_REDRAW, /* one line redrawn in place ("\r"), cleared at the end: a terminal */
  SK_PROGRESS_LINES   /* a plain line every -progress_interval seconds: a log file, a pipe, an MPI launcher's output */
} SKProgressMode;

struct _n_SKProgress {
  MPI_Comm comm;
  SKProgressMode mode;
  PetscReal period; /* seconds between two reports */
  char label[64];
  PetscReal t_start, t_end;
  PetscLogDouble wall_start, wall_last;
  PetscBool printed;
  PetscMPIInt size;
  char what[64]; /* SKProgressSetCount(): "12 of 40 <what>" instead of the time and step */
};

/* Minimum seconds between two redraws: a terminal redraw per step would cost more than a step. */
#define SK_PROGRESS_REDRAW_PERIOD 0.25

PetscErrorCode SKProgressCreate(MPI_Comm comm, const char label[], PetscReal t_start, PetscReal t_end, SKProgress *progress)
{
  SKProgress p;
  PetscMPIInt rank;
  PetscBool quiet    = PETSC_FALSE, set;
  PetscReal interval = SK_PROGRESS_INTERVAL_DEFAULT;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quiet", &quiet, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-progress_interval", &interval, &set));
  PetscCheck(!set || interval > 0, comm, SK_ERR_INPUT, "-progress_interval %g must be > 0", (double)interval);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscNew(&p));
  p->comm    = comm;
  p->t_start = t_start;
  p->t_end   = t_end;
  PetscCall(PetscStrncpy(p->label, label, sizeof(p->label)));
  PetscCallMPI(MPI_Comm_size(comm, &p->size));
  if (rank != 0 || quiet) p->mode = SK_PROGRESS_OFF;
  /* Open MPI's mpiexec gives its ranks a pseudo-terminal as stdout whatever its own stdout is, so isatty() holds even
     when the job's output goes to a file, which a redrawn line would fill with carriage returns and escape codes */
  else if (isatty(STDOUT_FILENO) && !SKLaunchedByMPI())
    p->mode = SK_PROGRESS_REDRAW;
  else
    p->mode = SK_PROGRESS_LINES;
  p->period = p->mode == SK_PROGRESS_REDRAW ? SK_PROGRESS_REDRAW_PERIOD : interval;
  PetscCall(SKWallTime(&p->wall_start));
  p->wall_last = p->wall_start;
  *progress    = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKProgressUpdate(SKProgress p, PetscReal t, PetscInt step)
{
  PetscLogDouble now, elapsed, eta = -1;
  PetscReal frac;
  const char *start = p->mode == SK_PROGRESS_REDRAW ? "\r" : "", *end = p->mode == SK_PROGRESS_REDRAW ? "  " : "\n";
  char head[160];

  PetscFunctionBegin;
  /* a SIGTERM/SIGINT stops a serial run here; a parallel solver calls the (collective) check itself, since not every
     solver calls this on all its ranks at the same steps */
  if (p->size == 1) PetscCall(SKSignalCheck(p->comm));
  if (p->mode == SK_PROGRESS_OFF) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKWallTime(&now));
  if (now - p->wall_last < p->period) PetscFunctionReturn(PETSC_SUCCESS);
  p->wall_last = now;
  elapsed      = now - p->wall_start;
  frac         = p->t_end > p->t_start ? (t - p->t_start) / (p->t_end - p->t_start) : 1.0;
  frac         = PetscMax(0.0, PetscMin(1.0, frac));
  if (frac > 1e-6) eta = elapsed * (1.0 - frac) / frac;
  if (p->what[0])
    PetscCall(
        PetscSNPrintf(head, sizeof(head), "%s: %" PetscInt_FMT " of %" PetscInt_FMT " %s", p->label, step, (PetscInt)p->t_end, p->what));
  else
    PetscCall(PetscSNPrintf(head, sizeof(head), "%s: t = %.4e s  step %" PetscInt_FMT, p->label, (double)t, step));
  if (eta >= 0) {
    long s = (long)(eta + 0.5);
    printf("%s%s  %5.1f %%  ETA %ld:%02ld:%02ld%s", start, head, (double)(100 * frac), s / 3600, (s / 60) % 60, s % 60, end);
  } else {
    printf("%s%s  %5.1f %%%s", start, head, (double)(100 * frac), end);
  }
  fflush(stdout);
  p->printed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKProgressSetCount(SKProgress p, const char what[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(p->what, what, sizeof(p->what)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKProgressDestroy(SKProgress *progress)
{
  PetscFunctionBegin;
  if (!*progress) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*progress)->printed && (*progress)->mode == SK_PROGRESS_REDRAW) {
    printf("\r\033[K");
    fflush(stdout);
  }
  PetscCall(PetscFree(*progress));
  PetscFunctionReturn(PETSC_SUCCESS);
}
