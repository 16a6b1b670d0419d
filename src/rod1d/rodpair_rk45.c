/* Reference integrator of the rod pair: Dormand-Prince 5(4) with embedded error control, FSAL, the 4th-order dense
   output of Hairer-Norsett-Wanner (DOPRI5), and stick/slip event location on the dense output (regula falsi,
   Illinois variant). The stages, error norm and dense output are the shared DOPRI5 (shared/dopri5.h); the events,
   switching and output are the rod pair's. All work arrays live in the rod pair: nothing is allocated in the step loop. */
#include "rodpairimpl.h"
#include "shared/dopri5.h"

/* Absolute tolerance per component: displacements atol (m), velocities atol * omega1 of rod 1, rod-2 modal
   coordinates the same divided by the mode amplitude, energies excluded from the error norm (they are quadratures). */
static void SetAbsTol(SKRodPair rp)
{
  const SKRodPairModel *m = &rp->model;
  PetscInt N = m->N, Nm = m->Nm;
  PetscReal w = m->omega1_rod1 > 0 ? m->omega1_rod1 : 1;

  for (PetscInt i = 0; i < N; i++) {
    rp->atolv[i]     = rp->atol;
    rp->atolv[N + i] = rp->atol * w;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    rp->atolv[2 * N + n]      = rp->atol / m->psi_amp;
    rp->atolv[2 * N + Nm + n] = rp->atol * w / m->psi_amp;
  }
  if (rp->hammer) { /* the ram: a displacement and a velocity */
    rp->atolv[2 * N + 2 * Nm]     = rp->atol;
    rp->atolv[2 * N + 2 * Nm + 1] = rp->atol * w;
  }
}

static void Dense(SKRodPair rp, PetscReal theta, PetscReal y[])
{
  for (PetscInt j = 0; j < rp->n; j++) {
    const PetscReal r[5] = {rp->rcont[0][j], rp->rcont[1][j], rp->rcont[2][j], rp->rcont[3][j], rp->rcont[4][j]};

    y[j] = SKDopriDenseEval(r, theta);
  }
}

static void BuildDense(SKRodPair rp, const PetscReal y0[], const PetscReal y1[], PetscReal h)
{
  PetscReal **k = rp->k;

  for (PetscInt j = 0; j < rp->n; j++) {
    const PetscReal ks[7] = {k[0][j], k[1][j], k[2][j], k[3][j], k[4][j], k[5][j], k[6][j]};
    PetscReal r[5];

    SKDopriDense(h, y0[j], y1[j], ks, r);
    for (PetscInt c = 0; c < 5; c++) rp->rcont[c][j] = r[c];
  }
}

static PetscErrorCode RHS(void *ctx, PetscReal t, const PetscReal y[], PetscReal dy[])
{
  PetscFunctionBegin;
  PetscCall(SKRodPairRHS((SKRodPair)ctx, t, y, dy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* min over the watched event functions, each normalised by its value at the step start (so 1 there) */
static PetscErrorCode WatchedMin(SKRodPair rp, PetscReal t, const PetscReal y[], const PetscBool watch[], PetscReal *fmin)
{
  PetscInt N2 = rp->nev;

  PetscFunctionBegin;
  PetscCall(SKRodPairRHS(rp, t, y, rp->ytmp));
  SKRodPairEventValues(rp, y, rp->evals1);
  *fmin = PETSC_MAX_REAL;
  for (PetscInt j = 0; j < N2; j++)
    if (watch[j]) *fmin = PetscMin(*fmin, rp->evals1[j] / rp->evals0[j]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The watched event functions on the dense output of the step [t, t + h], at theta in [0, 1]. */
typedef struct {
  SKRodPair rp;
  PetscReal t, h;
  const PetscBool *watch;
} DenseEvent;

static PetscErrorCode DenseEventMin(void *ctx, PetscReal theta, PetscReal *fmin)
{
  DenseEvent *ev = (DenseEvent *)ctx;

  PetscFunctionBegin;
  Dense(ev->rp, theta, ev->rp->yint);
  PetscCall(WatchedMin(ev->rp, ev->t + theta * ev->h, ev->rp->yint, ev->watch, fmin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OutputUpTo(SKRodPair rp, PetscReal t0, PetscReal h, PetscReal t1, PetscBool inclusive)
{
  PetscFunctionBegin;
  while (rp->monitor && (rp->t_next_out < t1 || (inclusive && rp->t_next_out <= t1 + 1e-9 * rp->dt_out))) {
    Dense(rp, h > 0 ? (rp->t_next_out - t0) / h : 0, rp->yint);
    PetscCall(SKRodPairOutput(rp, rp->t_next_out, rp->yint));
    rp->t_next_out += rp->dt_out;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolveRK45(SKRodPair rp, PetscReal t_end)
{
  PetscInt n = rp->n, N2 = rp->nev, stalls = 0, ib = 0; /* N2: the event functions, two per node (and a hammer's two) */
  PetscReal **k = rp->k, *y = rp->y, *yn = rp->ynew, *yt = rp->ytmp, t = rp->t, h;
  PetscBool *watch = rp->watch, *trigger = rp->trigger;

  PetscFunctionBegin;
  SetAbsTol(rp);
  if (rp->monitor && rp->t_next_out <= t) {
    PetscCall(SKRodPairOutput(rp, t, y));
    rp->t_next_out = t + rp->dt_out;
  }
  PetscCall(SKRodPairRHS(rp, t, y, k[0]));
  SKRodPairEventValues(rp, y, rp->evals0);
  for (PetscInt j = 0; j < N2; j++) rp->armed[j] = rp->evals0[j] > 0 ? PETSC_TRUE : PETSC_FALSE;
  /* first step: a small fraction of the first flexible period of rod 1, then left to the error control */
  h = rp->h > 0 ? rp->h : PetscMin(1e-3 / rp->model.omega1_rod1, rp->hmax);
  while (rp->nbreak && ib < rp->nbreak && rp->breaks[ib] <= t) ib++;
  while (t < t_end) {
    PetscReal t_stop = t_end, err = 0, fac;
    PetscBool hit_stop = PETSC_FALSE, any = PETSC_FALSE, wrong_way = PETSC_FALSE;

    if (ib < rp->nbreak && rp->breaks[ib] < t_stop) t_stop = rp->breaks[ib];
    h = PetscMin(h, rp->hmax);
    if (t + h >= t_stop * (1 - 1e-14) || t + 1.01 * h > t_stop) {
      h        = t_stop - t;
      hit_stop = PETSC_TRUE;
    }
    PetscCheck(h > 1e-14 * PetscMax(1, PetscAbsReal(t)), rp->comm, PETSC_ERR_NOT_CONVERGED,
               "RK45 step size %g too small at t = %g s: the stick/slip switching chatters; loosen -rodpair_rtol or check the input",
               (double)h, (double)t);
    /* the six stages; k[6] at the new point (FSAL); at a breakpoint the load must be its left limit for the last two */
    PetscCall(SKDopriStep(RHS, rp, n, t, h, hit_stop ? t + h * (1 - 1e-12) : t + h, y, k, yt, yn));
    err = SKDopriErrorNorm(n - 2, h, k, y, yn, rp->atolv, 0, rp->rtol);
    PetscCheck(!PetscIsInfOrNanReal(err), rp->comm, PETSC_ERR_FP, "RK45 produced NaN/Inf at t = %g s", (double)t);
    if (err > 1) {
      rp->rejected++;
      h *= SKDopriFactor(err);
      continue;
    }
    fac = SKDopriFactor(err);
    /* events: armed functions that reached <= 0, or unarmed ones (just switched) that went the wrong way */
    SKRodPairEventValues(rp, yn, rp->evals1);
    for (PetscInt j = 0; j < N2; j++) {
      watch[j] = (rp->armed[j] && rp->evals1[j] <= 0) ? PETSC_TRUE : PETSC_FALSE;
      any      = (PetscBool)(any || watch[j]);
    }
    wrong_way = (PetscBool)(!any && SKRodPairWrongWay(rp, t, rp->evals1, trigger));
    if (wrong_way && !any) {
      /* a node switched at t went against its new state at once: re-decide it at t, with a smaller step */
      PetscCheck(++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      PetscCall(SKRodPairResolve(rp, t, y, trigger));
      PetscCall(SKRodPairRHS(rp, t, y, k[0]));
      SKRodPairEventValues(rp, y, rp->evals0);
      h *= 0.5;
      continue;
    }
    BuildDense(rp, y, yn, h);
    if (any) {
      /* earliest crossing by regula falsi (Illinois) on the min of the normalised watched functions */
      PetscReal b, fb, ttol = 1e-9 * h + 1e-15;
      DenseEvent ev = {rp, t, h, watch};
      PetscCall(WatchedMin(rp, t + h, yn, watch, &fb));
      PetscCall(SKRodPairLocateEvent(DenseEventMin, &ev, 0, 1, 1, fb, h, ttol, &b));
      Dense(rp, b, rp->yint);
      PetscCall(WatchedMin(rp, t + b * h, rp->yint, watch, &fb));
      for (PetscInt j = 0; j < N2; j++) trigger[j] = (PetscBool)(watch[j] && rp->evals1[j] <= 0);
      for (PetscInt j = 0; j < n; j++) y[j] = rp->yint[j]; /* before the output reuses yint */
      PetscCall(OutputUpTo(rp, t, h, t + b * h, PETSC_FALSE));
      t = t + b * h;
      PetscCall(SKRodPairResolve(rp, t, y, trigger));
      PetscCall(SKRodPairRHS(rp, t, y, k[0]));
      SKRodPairEventValues(rp, y, rp->evals0);
      SKRodPairArmAfterEvent(rp);
      rp->steps++;
      h = PetscMax(b * h, h * 1e-3);
      continue;
    }
    stalls = 0;
    rp->steps++;
    PetscCall(OutputUpTo(rp, t, h, t + h, PETSC_TRUE));
    if (hit_stop)
      t = t_stop;
    else
      t += h;
    for (PetscInt j = 0; j < n; j++) y[j] = yn[j];
    SKRodPairProjectStick(rp, y); /* a change of the order of the tolerance: FSAL k[6] stays valid to that order */
    if (hit_stop && ib < rp->nbreak && t >= rp->breaks[ib]) {
      ib++;
      PetscCall(SKRodPairRHS(rp, t, y, k[0])); /* the load jumps here: no FSAL */
    } else {
      PetscReal *tmp = k[0];
      k[0]           = k[6];
      k[6]           = tmp;
    }
    for (PetscInt j = 0; j < N2; j++) {
      rp->evals0[j] = rp->evals1[j];
      if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
    }
    if (!hit_stop) h *= fac;
  }
  rp->t = t;
  rp->h = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}
