/* Reference integrator of the rod pair: Dormand-Prince 5(4) with embedded error control, FSAL, the 4th-order dense
   output of Hairer-Norsett-Wanner (DOPRI5), and stick/slip event location on the dense output (regula falsi,
   Illinois variant). All work arrays live in the rod pair: nothing is allocated in the step loop. */
#include "rodpairimpl.h"

static const PetscReal c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const PetscReal a21 = 1.0 / 5;
static const PetscReal a31 = 3.0 / 40, a32 = 9.0 / 40;
static const PetscReal a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const PetscReal a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
static const PetscReal a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176, a65 = -5103.0 / 18656;
static const PetscReal a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784, a76 = 11.0 / 84;
static const PetscReal e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
static const PetscReal d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0, d4 = -10690763975.0 / 1880347072.0,
                       d5 = 701980252875.0 / 199316789632.0, d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

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
}

static void Dense(SKRodPair rp, PetscReal theta, PetscReal y[])
{
  PetscReal th1 = 1 - theta;
  for (PetscInt j = 0; j < rp->n; j++)
    y[j] = rp->rcont[0][j] + theta * (rp->rcont[1][j] + th1 * (rp->rcont[2][j] + theta * (rp->rcont[3][j] + th1 * rp->rcont[4][j])));
}

static void BuildDense(SKRodPair rp, const PetscReal y0[], const PetscReal y1[], PetscReal h)
{
  PetscReal **k = rp->k;
  for (PetscInt j = 0; j < rp->n; j++) {
    PetscReal ydiff = y1[j] - y0[j], bspl = h * k[0][j] - ydiff;
    rp->rcont[0][j] = y0[j];
    rp->rcont[1][j] = ydiff;
    rp->rcont[2][j] = bspl;
    rp->rcont[3][j] = ydiff - h * k[6][j] - bspl;
    rp->rcont[4][j] = h * (d1 * k[0][j] + d3 * k[2][j] + d4 * k[3][j] + d5 * k[4][j] + d6 * k[5][j] + d7 * k[6][j]);
  }
}

/* min over the watched event functions, each normalised by its value at the step start (so 1 there) */
static PetscErrorCode WatchedMin(SKRodPair rp, PetscReal t, const PetscReal y[], const PetscBool watch[], PetscReal *fmin)
{
  PetscInt N2 = 2 * rp->model.N;

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
  PetscInt n = rp->n, N2 = 2 * rp->model.N, stalls = 0, ib = 0;
  PetscReal **k = rp->k, *y = rp->y, *yn = rp->ynew, *yt = rp->ytmp, t = rp->t, h;
  PetscBool *watch, *trigger;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(N2, &watch, N2, &trigger));
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
    /* the six stages; k[6] at the new point (FSAL) */
    for (PetscInt j = 0; j < n; j++) yt[j] = y[j] + h * a21 * k[0][j];
    PetscCall(SKRodPairRHS(rp, t + c2 * h, yt, k[1]));
    for (PetscInt j = 0; j < n; j++) yt[j] = y[j] + h * (a31 * k[0][j] + a32 * k[1][j]);
    PetscCall(SKRodPairRHS(rp, t + c3 * h, yt, k[2]));
    for (PetscInt j = 0; j < n; j++) yt[j] = y[j] + h * (a41 * k[0][j] + a42 * k[1][j] + a43 * k[2][j]);
    PetscCall(SKRodPairRHS(rp, t + c4 * h, yt, k[3]));
    for (PetscInt j = 0; j < n; j++) yt[j] = y[j] + h * (a51 * k[0][j] + a52 * k[1][j] + a53 * k[2][j] + a54 * k[3][j]);
    PetscCall(SKRodPairRHS(rp, t + c5 * h, yt, k[4]));
    for (PetscInt j = 0; j < n; j++) yt[j] = y[j] + h * (a61 * k[0][j] + a62 * k[1][j] + a63 * k[2][j] + a64 * k[3][j] + a65 * k[4][j]);
    /* at a breakpoint the load must be its left limit for the stages of this step */
    PetscCall(SKRodPairRHS(rp, hit_stop ? t + h * (1 - 1e-12) : t + h, yt, k[5]));
    for (PetscInt j = 0; j < n; j++) yn[j] = y[j] + h * (a71 * k[0][j] + a73 * k[2][j] + a74 * k[3][j] + a75 * k[4][j] + a76 * k[5][j]);
    PetscCall(SKRodPairRHS(rp, hit_stop ? t + h * (1 - 1e-12) : t + h, yn, k[6]));
    for (PetscInt j = 0; j < n - 2; j++) {
      PetscReal ej = h * (e1 * k[0][j] + e3 * k[2][j] + e4 * k[3][j] + e5 * k[4][j] + e6 * k[5][j] + e7 * k[6][j]);
      PetscReal sc = rp->atolv[j] + rp->rtol * PetscMax(PetscAbsReal(y[j]), PetscAbsReal(yn[j]));
      err += (ej / sc) * (ej / sc);
    }
    err = PetscSqrtReal(err / (n - 2));
    PetscCheck(!PetscIsInfOrNanReal(err), rp->comm, PETSC_ERR_FP, "RK45 produced NaN/Inf at t = %g s", (double)t);
    if (err > 1) {
      rp->rejected++;
      h *= PetscMax(0.2, 0.9 * PetscPowReal(err, -0.2));
      continue;
    }
    fac = PetscMin(5.0, PetscMax(0.2, 0.9 * PetscPowReal(PetscMax(err, 1e-10), -0.2)));
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
  PetscCall(PetscFree2(watch, trigger));
  PetscFunctionReturn(PETSC_SUCCESS);
}
