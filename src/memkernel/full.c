/* stickslip memkernel: the full-modal reference (II.3) of the bowed string, integrated with Dormand-Prince 5(4),
   its dense output locating stick/slip events, and stick as a constrained (Filippov sliding) phase. */
#include "memkernel/memkernelimpl.h"
#include "shared/dopri5.h"

#define NSCAN 16 /* dense-output points scanned per step for a sign change of the event functions */

typedef struct {
  const SKModalData *md;
  const SKBowFriction *fr;
  PetscInt phase; /* 0: stick, +1/-1: slip with v = y2 - v0 of that sign */
  PetscReal S;    /* n.n */
  PetscInt nrhs;
} FullCtx;

/* Contact functionals of a state-like vector z = (x, v): y1 = n.x, y2 = n.v, a0 = n.(-2 D w v - w^2 x). */
static void Functionals(const FullCtx *ctx, const PetscReal z[], PetscReal out[3])
{
  const SKModalData *md = ctx->md;
  const PetscReal *x = z, *v = z + md->n;
  PetscReal y1 = 0, y2 = 0, a0 = 0;

  for (PetscInt k = 0; k < md->n; k++) {
    PetscReal nk = md->shape[k], w = md->omega[k];

    y1 += nk * x[k];
    y2 += nk * v[k];
    a0 -= nk * (2 * md->zeta[k] * w * v[k] + w * w * x[k]);
  }
  out[0] = y1;
  out[1] = y2;
  out[2] = a0;
}

static PetscReal PhaseForce(const FullCtx *ctx, PetscReal y2, PetscReal a0)
{
  if (ctx->phase == 0) return -a0 / ctx->S;
  return SKBowFrictionSlipForce(ctx->fr, ctx->phase, y2 - ctx->fr->v0);
}

static void Rhs(FullCtx *ctx, const PetscReal z[], PetscReal dz[])
{
  const SKModalData *md = ctx->md;
  const PetscInt n      = md->n;
  PetscReal f[3], F;

  Functionals(ctx, z, f);
  F         = PhaseForce(ctx, f[1], f[2]);
  dz[2 * n] = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal w = md->omega[k];

    dz[k]     = z[n + k];
    dz[n + k] = -2 * md->zeta[k] * w * z[n + k] - w * w * z[k] + md->shape[k] * F;
    dz[2 * n] += 2 * md->zeta[k] * w * z[n + k] * z[n + k];
  }
  dz[2 * n + 1] = F * f[1]; /* power of the friction force on the structure */
  ctx->nrhs++;
}

/* Kinetic + strain energy of the modes, 1/2 sum (x_k'^2 + w_k^2 x_k^2). */
static PetscReal ModalEnergy(const SKModalData *md, const PetscReal z[])
{
  PetscReal e = 0;

  for (PetscInt k = 0; k < md->n; k++) e += 0.5 * (PetscSqr(z[md->n + k]) + PetscSqr(md->omega[k] * z[k]));
  return e;
}

static PetscErrorCode RhsStep(void *ctx, PetscReal t, const PetscReal z[], PetscReal dz[])
{
  PetscFunctionBegin;
  (void)t; /* autonomous */
  Rhs((FullCtx *)ctx, z, dz);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dense coefficients of the three functionals from the functionals of z0, z1 and the stages. */
static void DenseScalars(PetscReal h, const PetscReal f0[3], const PetscReal f1[3], PetscReal fk[7][3], PetscReal r[3][5])
{
  for (PetscInt c = 0; c < 3; c++) {
    const PetscReal ks[7] = {fk[0][c], fk[1][c], fk[2][c], fk[3][c], fk[4][c], fk[5][c], fk[6][c]};

    SKDopriDense(h, f0[c], f1[c], ks, r[c]);
  }
}

/* Event functions of the current phase at dense point th: slip: side * v; stick: mu -+ F*. Returns the smaller. */
static PetscReal EventValue(const FullCtx *ctx, PetscReal r[3][5], PetscReal th, PetscInt *which)
{
  if (ctx->phase != 0) {
    *which = 0;
    return ctx->phase * (SKDopriDenseEval(r[1], th) - ctx->fr->v0);
  } else {
    PetscReal F = -SKDopriDenseEval(r[2], th) / ctx->S, gp = ctx->fr->mu - F, gm = ctx->fr->mu + F;

    *which = gp < gm ? 1 : -1;
    return PetscMin(gp, gm);
  }
}

static PetscErrorCode SampleRange(const FullCtx *ctx, PetscReal r[3][5], PetscReal t, PetscReal h, PetscReal t_stop, PetscReal sample_dt,
                                  PetscInt *next, SKBowTrajectory *traj)
{
  PetscFunctionBegin;
  while (*next * sample_dt <= t_stop * (1 + 1e-14)) {
    PetscReal th = (*next * sample_dt - t) / h, y1 = SKDopriDenseEval(r[0], th), y2 = SKDopriDenseEval(r[1], th),
              a0 = SKDopriDenseEval(r[2], th);

    if (ctx->phase == 0) y2 = ctx->fr->v0;
    PetscCall(SKBowTrajectoryAddSample(traj, *next * sample_dt, y1, y2, PhaseForce(ctx, y2, a0), ctx->phase == 0));
    (*next)++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On v = 0 (slip) decides stick or crossing with the Filippov condition |F*| <= mu; on |F*| = mu (stick) releases
   to the side the constraint force points to. Records the event. */
static PetscErrorCode Transition(FullCtx *ctx, PetscReal t, PetscReal z[], PetscInt which, SKBowTrajectory *traj)
{
  const SKModalData *md = ctx->md;
  PetscReal f[3], Fs;

  PetscFunctionBegin;
  Functionals(ctx, z, f);
  Fs = -f[2] / ctx->S;
  if (ctx->phase != 0) {
    PetscReal before = SKBowFrictionSlipForce(ctx->fr, ctx->phase, 0);

    if (PetscAbsReal(Fs) <= ctx->fr->mu) {
      /* Put the state exactly on the switching surface (the located root is within round-off of it). */
      PetscReal dv = (ctx->fr->v0 - f[1]) / ctx->S;

      for (PetscInt k = 0; k < md->n; k++) z[md->n + k] += md->shape[k] * dv;
      ctx->phase = 0;
      PetscCall(SKBowTrajectoryAddEvent(traj, t, 1, before, Fs));
    } else {
      ctx->phase = -ctx->phase;
      PetscCall(SKBowTrajectoryAddEvent(traj, t, 2, before, SKBowFrictionSlipForce(ctx->fr, ctx->phase, 0)));
    }
  } else {
    /* F* reached +mu: the force of the v < 0 side (+mu at v = 0-) continues it, and vice versa. */
    ctx->phase = which > 0 ? -1 : 1;
    PetscCall(SKBowTrajectoryAddEvent(traj, t, 0, Fs, SKBowFrictionSlipForce(ctx->fr, ctx->phase, 0)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve's state, stage derivatives and dense-output work, freed by SKMemoryFullSolve() whatever happens */
typedef struct {
  PetscReal *z, *z1, *zs, *k[7];
} FullWork;

/* The adaptive steps from t = 0 (state W->z, its first stage W->k[0]) with the initial step H to T_END: events, samples
   every SAMPLE_DT, progress; *STEPS the accepted steps */
static PetscErrorCode FullSteps(FullCtx *ctx, const SKMemoryFullSettings *settings, PetscReal t_end, PetscReal sample_dt, PetscReal h,
                                SKBowTrajectory *traj, FullWork *w, PetscInt *steps_out)
{
  const SKModalData *md = ctx->md;
  const PetscInt nerr = 2 * md->n, dim = 2 * md->n + 2;
  PetscReal *z = w->z, *z1 = w->z1, *zs = w->zs, **k = w->k, t = 0, t_phase = 0, f0[3], f1[3], fk[7][3], r[3][5];
  PetscInt next = 1, steps = 0;

  PetscFunctionBegin;
  while (t < t_end * (1 - 1e-14)) {
    PetscReal err = 0, th_event = -1;
    PetscInt which = 0;

    h = PetscMin(h, t_end - t);
    PetscCall(SKDopriStep(RhsStep, ctx, dim, t, h, t + h, z, k, zs, z1));
    err = SKDopriErrorNorm(nerr, h, k, z, z1, NULL, settings->atol,
                           settings->rtol); /* the energy integrals follow the state, not controlled */
    steps++;
    PetscCheck(PetscIsNormalReal(err) || err == 0, PETSC_COMM_SELF, PETSC_ERR_FP,
               "Full model: error estimate is not finite at t = %g (h = %g)", (double)t, (double)h);
    if (err > 1) {
      h *= SKDopriFactor(err);
      PetscCheck(h > 1e-14 * (1 + t), PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "Full model: step size underflow at t = %g", (double)t);
      continue;
    }
    Functionals(ctx, z, f0);
    Functionals(ctx, z1, f1);
    for (PetscInt s = 0; s < 7; s++) Functionals(ctx, k[s], fk[s]);
    DenseScalars(h, f0, f1, fk, r);
    /* First sign change of the event function on the step (roots closer than 1e-12 to the phase start are the
       tangential exit itself). */
    {
      PetscReal gprev = EventValue(ctx, r, 0, &which), thprev = 0;

      for (PetscInt j = 1; j <= NSCAN; j++) {
        PetscReal th = (PetscReal)j / NSCAN, g = EventValue(ctx, r, th, &which);

        if (g < 0 && t + th * h > t_phase + 1e-12 * (1 + t)) {
          PetscReal lo = gprev > 0 ? thprev : PetscMax(thprev, (t_phase + 1e-12 * (1 + t) - t) / h), hi = th;
          PetscInt wlo;

          for (PetscInt it = 0; it < 200 && hi - lo > 1e-15; it++) {
            PetscReal mid = 0.5 * (lo + hi);

            if (EventValue(ctx, r, mid, &wlo) < 0)
              hi = mid;
            else
              lo = mid;
          }
          th_event = hi;
          (void)EventValue(ctx, r, hi, &which);
          break;
        }
        gprev  = g;
        thprev = th;
      }
    }
    if (th_event >= 0) {
      PetscReal th = th_event;

      PetscCall(SampleRange(ctx, r, t, h, t + th * h, sample_dt, &next, traj));
      /* State at the event from the dense output of the full vector. */
      for (PetscInt i = 0; i < dim; i++) {
        const PetscReal ks[7] = {k[0][i], k[1][i], k[2][i], k[3][i], k[4][i], k[5][i], k[6][i]};
        PetscReal rz[5];

        SKDopriDense(h, z[i], z1[i], ks, rz);
        zs[i] = SKDopriDenseEval(rz, th);
      }
      PetscCall(PetscArraycpy(z, zs, dim));
      t += th * h;
      PetscCall(Transition(ctx, t, z, which, traj));
      t_phase = t;
      Rhs(ctx, z, k[0]);
      continue;
    }
    PetscCall(SampleRange(ctx, r, t, h, t + h, sample_dt, &next, traj));
    PetscCall(PetscArraycpy(z, z1, dim));
    t += h;
    if (settings->progress && steps % 256 == 0) PetscCall(SKProgressUpdate(settings->progress, t, steps));
    {
      PetscReal *tmp = k[0];

      k[0] = k[6];
      k[6] = tmp;
    }
    h *= SKDopriFactor(err);
    if (settings->h_max > 0) h = PetscMin(h, settings->h_max);
  }
  *steps_out = steps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMemoryFullSolve(const SKModalData *md, const SKBowFriction *fr, const SKMemoryFullSettings *settings,
                                 const PetscReal y_start[2], PetscReal t_end, PetscReal sample_dt, SKBowTrajectory *traj)
{
  const PetscInt n = md->n, dim = 2 * md->n + 2; /* + dissipated energy and friction work */
  FullCtx ctx;
  FullWork w = {0};
  PetscReal *z, **k = w.k, h, e0, wmax = 0, f0[3];
  PetscInt steps = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKMemKernelInitializePackage());
  PetscCall(SKModalDataCheck(md));
  PetscCheck(settings->rtol > 0 && settings->atol > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Tolerances rtol %g, atol %g must be positive", (double)settings->rtol, (double)settings->atol);
  PetscCheck(sample_dt > 0 && t_end > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sampling interval %g and end time %g must be positive",
             (double)sample_dt, (double)t_end);
  PetscCheck(md->shape[0] != 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Mode 1 has a node at the contact point: the initial state cannot be lifted onto it");
  ctx.md   = md;
  ctx.fr   = fr;
  ctx.S    = 0;
  ctx.nrhs = 0;
  for (PetscInt i = 0; i < n; i++) {
    ctx.S += PetscSqr(md->shape[i]);
    wmax = PetscMax(wmax, md->omega[i]);
  }
  PetscCall(PetscLogEventBegin(SK_EVENT_MemFull, 0, 0, 0, 0));
  PetscCall(PetscCalloc3(dim, &w.z, dim, &w.z1, dim, &w.zs));
  for (PetscInt s = 0; s < 7; s++) PetscCall(PetscCalloc1(dim, &k[s]));
  z = w.z;
  /* Initial state lifted with W: only the first mode moves (as in section V.B). */
  z[0]      = y_start[0] / md->shape[0];
  z[n]      = y_start[1] / md->shape[0];
  ctx.phase = y_start[1] > fr->v0 ? 1 : -1;
  if (y_start[1] == fr->v0) {
    Functionals(&ctx, z, f0);
    ctx.phase = PetscAbsReal(f0[2] / ctx.S) <= fr->mu ? 0 : (f0[2] > 0 ? 1 : -1);
  }
  e0 = ModalEnergy(md, z);
  h  = 0.1 / wmax;
  if (settings->h_max > 0) h = PetscMin(h, settings->h_max);
  Rhs(&ctx, z, k[0]);
  Functionals(&ctx, z, f0);
  /* the steps stop on an error or a signal (progress): the work is freed in any case */
  ierr = SKBowTrajectoryAddSample(traj, 0, f0[0], f0[1], PhaseForce(&ctx, f0[1], f0[2]), ctx.phase == 0);
  if (!ierr) ierr = FullSteps(&ctx, settings, t_end, sample_dt, h, traj, &w, &steps);
  if (!ierr) {
    PetscReal e1 = ModalEnergy(md, z), dis = z[2 * n], work = z[2 * n + 1];

    /* Energy balance E(t) - E(0) + dissipated = work of friction, relative to the energies involved. */
    traj->energy_residual = PetscAbsReal(e1 - e0 + dis - work) / PetscMax(e0 + dis + PetscAbsReal(work), PETSC_SMALL);
  }
  traj->steps     = steps;
  traj->rhs_evals = ctx.nrhs;
  for (PetscInt s = 0; s < 7; s++) PetscCall(PetscFree(k[s]));
  PetscCall(PetscFree3(w.z, w.z1, w.zs));
  PetscCall(PetscLogEventEnd(SK_EVENT_MemFull, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
