/* stickslip memkernel: time stepping of the reduced delay equation (IV.1) of one friction contact, with the stick
   phase through the implicit friction force (V.4) and a compressed history convolution. */
#include "memkernel/memkernelimpl.h"

/* Weight of lag i of int L^0(tau) F(t - tau) dtau, exact for F constant on each step
   (value at the step's end): for one mode Re(coef * lagw), lagw = int_{ih}^{(i+1)h} exp(lambda u) du
   = exp(lambda i h) h phi1(lambda h); EI holds exp(lambda i h). */
static SKCplx LagWeight(SKCplx lambda, PetscReal h, SKCplx ei)
{
  return ei * h * SKPhi1(lambda * h);
}

/* Bound of |far-field contribution| of one mode per unit force, for lags > window: the geometric sum of its lag
   weights. Infinite for an undamped mode (it is then always kept). */
static PetscReal FarBound(SKCplx lambda, SKCplx coef, PetscReal h, PetscInt window)
{
  PetscReal decay = PetscExpReal(creal(lambda) * h);

  if (coef == 0) return 0;
  if (decay >= 1) return PETSC_INFINITY;
  return cabs(coef * LagWeight(lambda, h, 1)) * PetscExpReal(creal(lambda) * (window + 1) * h) / (1 - decay);
}

/* Chooses which modes keep a far field for a given window: drop the smallest bounds while their sum (times mu)
   stays below tol. keep[k] is set; returns the count kept and the bound of what was dropped. */
static PetscErrorCode FarModes(PetscInt n, const SKCplx lambda[], const SKCplx coef[], PetscReal h, PetscInt window, PetscReal mu,
                               PetscReal tol, PetscReal bound[], PetscInt order[], PetscBool keep[], PetscInt *nkeep, PetscReal *dropped)
{
  PetscReal sum = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    bound[k] = mu * FarBound(lambda[k], coef[k], h, window);
    order[k] = k;
  }
  PetscCall(PetscSortRealWithPermutation(n, bound, order));
  *nkeep = 0;
  for (PetscInt j = 0; j < n; j++) {
    PetscInt k = order[j];

    if (sum + bound[k] <= tol) {
      sum += bound[k];
      keep[k] = PETSC_FALSE;
    } else {
      keep[k] = PETSC_TRUE;
      (*nkeep)++;
    }
  }
  *dropped = sum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves y2 = r + b F with F in -f_c(y2 - v0) (set-valued at v = 0) for F; the left side minus b F is strictly
   increasing in y2 when b kappa sigma < 1, so the solution is unique. Returns the force, velocity and stick flag. */
static PetscErrorCode SolveFrictionInclusion(const SKBowFriction *fr, PetscReal r, PetscReal b, PetscReal *force, PetscReal *y2,
                                             PetscInt *stick)
{
  PetscReal rel = r - fr->v0;
  PetscInt side;
  PetscReal lo, hi, v;

  PetscFunctionBegin;
  if (PetscAbsReal(rel) <= b * fr->mu) {
    *force = -rel / b;
    *y2    = fr->v0;
    *stick = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  side = rel > 0 ? 1 : -1;
  /* In side * v, the solution lies between side*rel - b mu (> 0) and side*rel - b (mu - kappa). */
  lo = side * rel - b * fr->mu;
  hi = side * rel - b * (fr->mu - fr->kappa);
  v  = 0.5 * (lo + hi);
  for (PetscInt it = 0; it < 100; it++) {
    PetscReal e = PetscExpReal(-fr->sigma * v), g = v - side * rel + b * (fr->mu - fr->kappa + fr->kappa * e),
              dg = 1 - b * fr->kappa * fr->sigma * e, vn;

    if (g > 0)
      hi = v;
    else
      lo = v;
    vn = v - g / dg;
    if (!(vn >= lo && vn <= hi)) vn = 0.5 * (lo + hi);
    if (PetscAbsReal(vn - v) <= 1e-15 * (1 + PetscAbsReal(v))) {
      v = vn;
      break;
    }
    v = vn;
  }
  *y2    = fr->v0 + side * v;
  *force = SKBowFrictionSlipForce(fr, side, v);
  *stick = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The discretised reduced equation: the near lag weights, the far-field recursion of the kept modes, and the step
   matrices of the smooth part. */
typedef struct {
  PetscReal h, A[4], linf[2];
  PetscInt nsteps, window, nfar;
  PetscReal *w;                    /* near weights, lags 0..window */
  SKCplx *far_cw, *far_ez, *far_s; /* per kept mode: first far weight, step factor, running sum */
  PetscReal Minv[4], b[2];         /* the inverse of M = I - h A / 2, and y_{q+1} = base + b F_{q+1} */
  PetscReal dropped;               /* the bound of the far field left out */
  PetscReal *fbuf;                 /* the forces of the last window + 2 steps (a ring) */
} ReducedScheme;

/* The window: the direct sum costs window + n window / nsteps (weights) per step, the far field ~8 flops per kept
   mode; the cheapest power of two (or the whole run) unless the user fixed it. Then the far-field modes and the bound
   of what they leave out. */
static PetscErrorCode ReducedWindow(PetscInt n, const SKCplx lambda[], const SKCplx coef[], const SKBowFriction *fr,
                                    const SKMemoryReducedSettings *settings, PetscReal bound[], PetscInt order[], PetscBool keep[],
                                    ReducedScheme *sc)
{
  const PetscReal h = sc->h;

  PetscFunctionBegin;
  if (settings->window > 0)
    sc->window = PetscMin(settings->window, sc->nsteps);
  else {
    PetscReal best = PETSC_INFINITY;

    sc->window = sc->nsteps;
    for (PetscInt cand = 8;; cand *= 2) {
      PetscInt wc = PetscMin(cand, sc->nsteps), nk;
      PetscReal cost, dr;

      PetscCall(FarModes(n, lambda, coef, h, wc, fr->mu, settings->tol, bound, order, keep, &nk, &dr));
      cost = wc + (PetscReal)n * wc / sc->nsteps + 8.0 * (wc < sc->nsteps ? nk : 0);
      if (cost < best) {
        best       = cost;
        sc->window = wc;
      }
      if (wc == sc->nsteps) break;
    }
  }
  PetscCall(FarModes(n, lambda, coef, h, sc->window, fr->mu, settings->tol, bound, order, keep, &sc->nfar, &sc->dropped));
  if (sc->window == sc->nsteps) sc->dropped = 0; /* no far field at all: nothing is dropped */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The weights of the scheme: near weights w[i], lags 0..window, from all modes (highest first: smaller terms first);
   the far field of the kept modes, lag weights Re(coef w_{window+1} e^{lambda (i - window - 1) h}), summed
   recursively. */
static PetscErrorCode ReducedWeights(PetscInt n, const SKCplx lambda[], const SKCplx coef[], const PetscBool keep[], ReducedScheme *sc)
{
  const PetscReal h = sc->h;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(sc->window + 1, &sc->w));
  for (PetscInt k = n - 1; k >= 0; k--) {
    SKCplx ez = cexp(lambda[k] * h), ei = 1;

    if (coef[k] == 0) continue;
    for (PetscInt i = 0; i <= sc->window; i++) {
      sc->w[i] += creal(coef[k] * LagWeight(lambda[k], h, ei));
      ei *= ez;
    }
  }
  PetscCall(PetscMalloc3(PetscMax(sc->nfar, 1), &sc->far_cw, PetscMax(sc->nfar, 1), &sc->far_ez, PetscMax(sc->nfar, 1), &sc->far_s));
  sc->nfar = 0;
  if (sc->window < sc->nsteps) {
    for (PetscInt k = 0; k < n; k++) {
      if (!keep[k]) continue;
      sc->far_ez[sc->nfar] = cexp(lambda[k] * h);
      sc->far_cw[sc->nfar] = coef[k] * LagWeight(lambda[k], h, cexp(lambda[k] * (sc->window + 1) * h));
      sc->far_s[sc->nfar]  = 0;
      sc->nfar++;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The step matrices: u = y - C e2 obeys u' = A u + A e2 C + L_inf F: trapezoidal rule for the smooth A terms, the
   step's force exactly (F is constant on the step), M = I - h A / 2. Then y2 = r + b F_{q+1}; the contact velocity's
   compliance b[1] must be positive and small enough for a unique slip velocity. */
static PetscErrorCode ReducedStepMatrices(const SKBowFriction *fr, ReducedScheme *sc)
{
  const PetscReal h = sc->h, *A = sc->A, *w = sc->w;
  PetscReal *Minv = sc->Minv, *b = sc->b;
  PetscReal m00 = 1 - 0.5 * h * A[0], m01 = -0.5 * h * A[1], m10 = -0.5 * h * A[2], m11 = 1 - 0.5 * h * A[3], det = m00 * m11 - m01 * m10;
  PetscReal g0 = 0.5 * h * A[1] * w[0] + h * sc->linf[0], g1 = 0.5 * h * A[3] * w[0] + h * sc->linf[1];

  PetscFunctionBegin;
  Minv[0] = m11 / det;
  Minv[1] = -m01 / det;
  Minv[2] = -m10 / det;
  Minv[3] = m00 / det;
  b[0]    = Minv[0] * g0 + Minv[1] * g1;
  b[1]    = Minv[2] * g0 + Minv[3] * g1 + w[0];
  PetscCheck(b[1] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Reduced model: instantaneous compliance %g of the contact velocity is not positive; reduce the time step", (double)b[1]);
  PetscCheck(
      b[1] * fr->kappa * fr->sigma < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Reduced model: compliance %g times friction slope kappa sigma = %g is >= 1, the slip velocity is not unique (Friedlander ambiguity)",
      (double)b[1], (double)(fr->kappa * fr->sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The history part of C_{q+1} = w_0 F_{q+1} + hist: lags 1..window directly from the ring buffer FBUF of RING forces,
   older lags through the far-field recursion (which takes in the force leaving the window). */
static PetscReal ReducedHistory(ReducedScheme *sc, const PetscReal fbuf[], PetscInt ring, PetscInt q)
{
  PetscReal hist = 0;
  PetscInt imax  = PetscMin(sc->window, q);

  for (PetscInt i = 1; i <= imax; i++) hist += sc->w[i] * fbuf[(q + 1 - i) % ring];
  if (q + 1 > sc->window) {
    PetscReal fleave = (q - sc->window >= 1) ? fbuf[(q - sc->window) % ring] : 0;

    for (PetscInt j = 0; j < sc->nfar; j++) {
      sc->far_s[j] = sc->far_ez[j] * sc->far_s[j] + fleave;
      hist += creal(sc->far_cw[j] * sc->far_s[j]);
    }
  }
  return hist;
}

/* The stick/slip state of the contact between steps: the last force, whether it stuck and for how many steps, and the
   force just before the last stick. */
typedef struct {
  PetscInt stick_prev, stick_steps;
  PetscReal fq, force_before_stick;
} ReducedContact;

/* Records the event of a step ending at T with force FNEW and stick flag STICK, then advances the contact state. */
static PetscErrorCode ReducedEvent(SKBowTrajectory *traj, PetscReal t, PetscInt stick, PetscReal fnew, ReducedContact *c)
{
  PetscFunctionBegin;
  if (stick && !c->stick_prev) {
    PetscCall(SKBowTrajectoryAddEvent(traj, t, 1, c->fq, fnew));
    c->force_before_stick = c->fq;
  } else if (!stick && c->stick_prev && c->stick_steps == 1 && fnew * c->force_before_stick < 0) {
    /* A crossing of v = v0 lands on it for one step whenever some admissible force can stop it there (the
       time-stepping analogue of the Filippov test over a step): report it as the crossing it is. */
    traj->event_kind[traj->nevents - 1]        = 2;
    traj->event_force_after[traj->nevents - 1] = fnew;
  } else if (!stick && c->stick_prev)
    PetscCall(SKBowTrajectoryAddEvent(traj, t, 0, c->fq, fnew));
  else if (!stick && fnew * c->fq < 0)
    PetscCall(SKBowTrajectoryAddEvent(traj, t, 2, c->fq, fnew)); /* slip side changed */
  c->stick_steps = stick ? c->stick_steps + 1 : 0;
  c->stick_prev  = stick;
  c->fq          = fnew;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The time steps from Y_START: per step the history, the smooth part, the friction inclusion for the new force and
   velocity, the events and the samples every SAMPLE_EVERY steps. */
static PetscErrorCode ReducedSteps(ReducedScheme *sc, const SKBowFriction *fr, const SKMemoryReducedSettings *settings,
                                   const PetscReal y_start[2], PetscInt sample_every, SKBowTrajectory *traj)
{
  const PetscReal h = sc->h, *A = sc->A, *Minv = sc->Minv;
  const PetscInt ring = sc->window + 2;
  PetscReal *fbuf, u[2], y[2], cq = 0;
  ReducedContact c;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ring, &sc->fbuf)); /* freed by the caller, also when a signal stops the steps (progress) */
  fbuf = sc->fbuf;
  u[0] = y[0] = y_start[0];
  u[1] = y[1] = y_start[1];
  /* F_0 is only reported: with F constant on (t_q, t_{q+1}] the instant t = 0 carries no weight. */
  c.fq                 = (y_start[1] != fr->v0) ? SKBowFrictionSlipForce(fr, y_start[1] > fr->v0 ? 1 : -1, y_start[1] - fr->v0) : 0;
  c.stick_prev         = (y_start[1] == fr->v0);
  c.stick_steps        = 0;
  c.force_before_stick = c.fq;
  PetscCall(SKBowTrajectoryAddSample(traj, 0, y[0], y[1], c.fq, c.stick_prev));
  for (PetscInt q = 0; q < sc->nsteps; q++) {
    PetscReal hist = ReducedHistory(sc, fbuf, ring, q), base[2], fnew, y2, t = (q + 1) * h;
    PetscInt stick;

    {
      PetscReal c0 = u[0] + 0.5 * h * (A[0] * u[0] + A[1] * u[1] + A[1] * (cq + hist));
      PetscReal c1 = u[1] + 0.5 * h * (A[2] * u[0] + A[3] * u[1] + A[3] * (cq + hist));

      base[0] = Minv[0] * c0 + Minv[1] * c1;
      base[1] = Minv[2] * c0 + Minv[3] * c1 + hist;
    }
    PetscCall(SolveFrictionInclusion(fr, base[1], sc->b[1], &fnew, &y2, &stick));
    y[0] = base[0] + sc->b[0] * fnew;
    y[1] = y2;
    cq   = hist + sc->w[0] * fnew;
    u[0] = y[0];
    u[1] = y[1] - cq;
    PetscCall(ReducedEvent(traj, t, stick, fnew, &c));
    fbuf[(q + 1) % ring] = fnew;
    if ((q + 1) % sample_every == 0 || q + 1 == sc->nsteps) PetscCall(SKBowTrajectoryAddSample(traj, t, y[0], y[1], c.fq, stick));
    if (settings->progress && (q + 1) % 1024 == 0) PetscCall(SKProgressUpdate(settings->progress, t, q + 1));
  }
  traj->steps = sc->nsteps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMemoryReducedSolve(const SKModalData *md, const SKBowFriction *fr, const SKMemoryReducedSettings *settings,
                                    const PetscReal y_start[2], PetscReal t_end, PetscInt sample_every, SKBowTrajectory *traj,
                                    SKMemoryReducedInfo *info)
{
  const PetscInt n = md->n;
  ReducedScheme sc = {0};
  PetscInt *order;
  PetscReal *bound;
  SKCplx *lambda, *coef;
  PetscBool *keep;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(settings->dt > 0 && t_end > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Time step %g and end time %g must be positive",
             (double)settings->dt, (double)t_end);
  PetscCheck(settings->tol > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "History tolerance %g must be positive", (double)settings->tol);
  PetscCheck(sample_every >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sampling interval %" PetscInt_FMT " must be at least 1",
             sample_every);
  PetscCall(SKMemKernelInitializePackage());
  sc.h = settings->dt;
  PetscCall(SKMemoryKernelConstants(md, settings->pivot, sc.A, sc.linf));
  PetscCall(PetscLogEventBegin(SK_EVENT_MemReduced, 0, 0, 0, 0));
  sc.nsteps = (PetscInt)PetscCeilReal(t_end / sc.h - 1e-9);
  PetscCall(PetscMalloc2(n, &lambda, n, &coef));
  PetscCall(PetscMalloc3(n, &bound, n, &order, n, &keep));
  /* an error or a signal (progress) stops the steps: the work is freed in any case */
  ierr = SKMemoryKernelModes(md, settings->pivot, lambda, coef);
  if (!ierr) ierr = ReducedWindow(n, lambda, coef, fr, settings, bound, order, keep, &sc);
  if (!ierr) ierr = ReducedWeights(n, lambda, coef, keep, &sc);
  if (!ierr) ierr = ReducedStepMatrices(fr, &sc);
  if (!ierr) ierr = ReducedSteps(&sc, fr, settings, y_start, sample_every, traj);
  if (!ierr && info) {
    info->window      = sc.window;
    info->far_modes   = sc.nfar;
    info->error_bound = sc.dropped;
    info->jump_weight = sc.b[1];
  }
  PetscCall(PetscFree3(sc.far_cw, sc.far_ez, sc.far_s));
  PetscCall(PetscFree(sc.w));
  PetscCall(PetscFree(sc.fbuf));
  PetscCall(PetscFree3(bound, order, keep));
  PetscCall(PetscFree2(lambda, coef));
  PetscCall(PetscLogEventEnd(SK_EVENT_MemReduced, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
