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

PetscErrorCode SKMemoryReducedSolve(const SKModalData *md, const SKBowFriction *fr, const SKMemoryReducedSettings *settings,
                                    const PetscReal y_start[2], PetscReal t_end, PetscInt sample_every, SKBowTrajectory *traj,
                                    SKMemoryReducedInfo *info)
{
  const PetscInt n  = md->n;
  const PetscReal h = settings->dt;
  PetscInt nsteps, window, nfar = 0, *order, ring, stick_prev, stick_steps = 0;
  PetscReal A[4], linf[2], Minv[4], b[2], *w, *bound, dropped              = 0, *fbuf, fq, u[2], cq, y[2], force_before_stick;
  SKCplx *lambda, *coef, *far_cw, *far_ez, *far_s;
  PetscBool *keep;

  PetscFunctionBegin;
  PetscCheck(h > 0 && t_end > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Time step %g and end time %g must be positive", (double)h,
             (double)t_end);
  PetscCheck(settings->tol > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "History tolerance %g must be positive", (double)settings->tol);
  PetscCheck(sample_every >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sampling interval %" PetscInt_FMT " must be at least 1",
             sample_every);
  PetscCall(SKMemKernelInitializePackage());
  PetscCall(SKMemoryKernelConstants(md, settings->pivot, A, linf));
  PetscCall(PetscLogEventBegin(SK_EVENT_MemReduced, 0, 0, 0, 0));
  nsteps = (PetscInt)PetscCeilReal(t_end / h - 1e-9);
  PetscCall(PetscMalloc2(n, &lambda, n, &coef));
  PetscCall(PetscMalloc3(n, &bound, n, &order, n, &keep));
  PetscCall(SKMemoryKernelModes(md, settings->pivot, lambda, coef));

  /* Window: the direct sum costs window + n window / nsteps (weights) per step, the far field ~8 flops per kept
     mode; take the cheapest power of two (or the whole run) unless the user fixed it. */
  if (settings->window > 0)
    window = PetscMin(settings->window, nsteps);
  else {
    PetscReal best = PETSC_INFINITY;

    window = nsteps;
    for (PetscInt cand = 8;; cand *= 2) {
      PetscInt wc = PetscMin(cand, nsteps), nk;
      PetscReal cost, dr;

      PetscCall(FarModes(n, lambda, coef, h, wc, fr->mu, settings->tol, bound, order, keep, &nk, &dr));
      cost = wc + (PetscReal)n * wc / nsteps + 8.0 * (wc < nsteps ? nk : 0);
      if (cost < best) {
        best   = cost;
        window = wc;
      }
      if (wc == nsteps) break;
    }
  }
  PetscCall(FarModes(n, lambda, coef, h, window, fr->mu, settings->tol, bound, order, keep, &nfar, &dropped));
  if (window == nsteps) dropped = 0; /* no far field at all: nothing is dropped */

  /* Near weights w[i], lags 0..window, from all modes (highest first: smaller terms first). */
  PetscCall(PetscCalloc1(window + 1, &w));
  for (PetscInt k = n - 1; k >= 0; k--) {
    SKCplx ez = cexp(lambda[k] * h), ei = 1;

    if (coef[k] == 0) continue;
    for (PetscInt i = 0; i <= window; i++) {
      w[i] += creal(coef[k] * LagWeight(lambda[k], h, ei));
      ei *= ez;
    }
  }

  /* Far field of the kept modes: lag weights Re(coef w_{window+1} e^{lambda (i - window - 1) h}), summed recursively. */
  PetscCall(PetscMalloc3(PetscMax(nfar, 1), &far_cw, PetscMax(nfar, 1), &far_ez, PetscMax(nfar, 1), &far_s));
  nfar = 0;
  if (window < nsteps) {
    for (PetscInt k = 0; k < n; k++) {
      if (!keep[k]) continue;
      far_ez[nfar] = cexp(lambda[k] * h);
      far_cw[nfar] = coef[k] * LagWeight(lambda[k], h, cexp(lambda[k] * (window + 1) * h));
      far_s[nfar]  = 0;
      nfar++;
    }
  }

  /* u = y - C e2 obeys u' = A u + A e2 C + L_inf F: trapezoidal rule for the smooth A terms, the step's force
     exactly (F is constant on the step), M = I - h A / 2. Then y2 = r + b F_{q+1} with b below. */
  {
    PetscReal m00 = 1 - 0.5 * h * A[0], m01 = -0.5 * h * A[1], m10 = -0.5 * h * A[2], m11 = 1 - 0.5 * h * A[3], det = m00 * m11 - m01 * m10;
    PetscReal g0 = 0.5 * h * A[1] * w[0] + h * linf[0], g1 = 0.5 * h * A[3] * w[0] + h * linf[1];

    Minv[0] = m11 / det;
    Minv[1] = -m01 / det;
    Minv[2] = -m10 / det;
    Minv[3] = m00 / det;
    b[0]    = Minv[0] * g0 + Minv[1] * g1;
    b[1]    = Minv[2] * g0 + Minv[3] * g1 + w[0];
  }
  PetscCheck(b[1] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Reduced model: instantaneous compliance %g of the contact velocity is not positive; reduce the time step", (double)b[1]);
  PetscCheck(
      b[1] * fr->kappa * fr->sigma < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Reduced model: compliance %g times friction slope kappa sigma = %g is >= 1, the slip velocity is not unique (Friedlander ambiguity)",
      (double)b[1], (double)(fr->kappa * fr->sigma));

  ring = window + 2;
  PetscCall(PetscCalloc1(ring, &fbuf));
  u[0] = y[0] = y_start[0];
  u[1] = y[1] = y_start[1];
  cq          = 0;
  /* F_0 is only reported: with F constant on (t_q, t_{q+1}] the instant t = 0 carries no weight. */
  fq                 = (y_start[1] != fr->v0) ? SKBowFrictionSlipForce(fr, y_start[1] > fr->v0 ? 1 : -1, y_start[1] - fr->v0) : 0;
  stick_prev         = (y_start[1] == fr->v0);
  force_before_stick = fq;
  PetscCall(SKBowTrajectoryAddSample(traj, 0, y[0], y[1], fq, stick_prev));
  for (PetscInt q = 0; q < nsteps; q++) {
    PetscReal hist = 0, base[2], fnew, y2, t = (q + 1) * h;
    PetscInt imax = PetscMin(window, q), stick;

    /* C_{q+1} = w_0 F_{q+1} + hist: lags 1..window directly, older lags through the far-field recursion. */
    for (PetscInt i = 1; i <= imax; i++) hist += w[i] * fbuf[(q + 1 - i) % ring];
    if (q + 1 > window) {
      PetscReal fleave = (q - window >= 1) ? fbuf[(q - window) % ring] : 0;

      for (PetscInt j = 0; j < nfar; j++) {
        far_s[j] = far_ez[j] * far_s[j] + fleave;
        hist += creal(far_cw[j] * far_s[j]);
      }
    }
    {
      PetscReal c0 = u[0] + 0.5 * h * (A[0] * u[0] + A[1] * u[1] + A[1] * (cq + hist));
      PetscReal c1 = u[1] + 0.5 * h * (A[2] * u[0] + A[3] * u[1] + A[3] * (cq + hist));

      base[0] = Minv[0] * c0 + Minv[1] * c1;
      base[1] = Minv[2] * c0 + Minv[3] * c1 + hist;
    }
    PetscCall(SolveFrictionInclusion(fr, base[1], b[1], &fnew, &y2, &stick));
    y[0] = base[0] + b[0] * fnew;
    y[1] = y2;
    cq   = hist + w[0] * fnew;
    u[0] = y[0];
    u[1] = y[1] - cq;
    if (stick && !stick_prev) {
      PetscCall(SKBowTrajectoryAddEvent(traj, t, 1, fq, fnew));
      force_before_stick = fq;
    } else if (!stick && stick_prev && stick_steps == 1 && fnew * force_before_stick < 0) {
      /* A crossing of v = v0 lands on it for one step whenever some admissible force can stop it there (the
         time-stepping analogue of the Filippov test over a step): report it as the crossing it is. */
      traj->event_kind[traj->nevents - 1]        = 2;
      traj->event_force_after[traj->nevents - 1] = fnew;
    } else if (!stick && stick_prev)
      PetscCall(SKBowTrajectoryAddEvent(traj, t, 0, fq, fnew));
    else if (!stick && fnew * fq < 0)
      PetscCall(SKBowTrajectoryAddEvent(traj, t, 2, fq, fnew)); /* slip side changed */
    stick_steps          = stick ? stick_steps + 1 : 0;
    stick_prev           = stick;
    fq                   = fnew;
    fbuf[(q + 1) % ring] = fnew;
    if ((q + 1) % sample_every == 0 || q + 1 == nsteps) PetscCall(SKBowTrajectoryAddSample(traj, t, y[0], y[1], fq, stick));
    if (settings->progress && (q + 1) % 1024 == 0) PetscCall(SKProgressUpdate(settings->progress, t, q + 1));
  }
  traj->steps = nsteps;
  if (info) {
    info->window      = window;
    info->far_modes   = nfar;
    info->error_bound = dropped;
    info->jump_weight = b[1];
  }
  PetscCall(PetscFree(fbuf));
  PetscCall(PetscFree3(far_cw, far_ez, far_s));
  PetscCall(PetscFree(w));
  PetscCall(PetscFree3(bound, order, keep));
  PetscCall(PetscFree2(lambda, coef));
  PetscCall(PetscLogEventEnd(SK_EVENT_MemReduced, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
