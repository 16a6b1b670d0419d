/* Mode-matching method: the closed-form (Duhamel) responses of rod 1's segment modes and rod 2's modes over an
   interval, the state and one node at any time of it, and the exact work of P. */
#include "mmmimpl.h"

/* Work of P(s) = Pc + P0 sin(W s + psi) over [0, tau] on a velocity v(s) = c1 + pa W cos(W s + psi) + sum_m w_m (B_m cos
   w_m s - A_m sin w_m s) (the modal closed form, rod 1 or rod 2, weighted by the mode values at node 0): exact, from
   cos/sin(w_m tau) already computed for the state at tau. The rigid-body mode is added by WorkRigid(). */
typedef struct {
  PetscReal Pc, P0, W, tau;
  LoadPhase L;
  PetscReal sum; /* accumulated work (J) */
} WorkAcc;

/* adds c phi_p(j) / M_p to g[a + p] for all modes of segment sg (a point load c at local node j) */
static void AddPointLoad(MMM *mm, const Seg *sg, PetscInt j, PetscReal c, PetscReal g[])
{
  const PetscReal *row;
  if (c == 0) return;
  row = SKMMMSegRow(mm, sg, j);
  for (PetscInt p = 0; p < sg->n; p++) g[sg->a + p] += c * row[p] / SKMMMModalMass(sg, p);
}

static inline PetscReal UniformFrequency(const Seg *sg, PetscInt p)
{
  return 2 * PetscSqrtReal(sg->ks / sg->ms) * PetscSinReal(0.5 * (sg->theta0 + p * sg->dtheta));
}

/* The frequencies of a uniform segment, which depend only on its end types, length and (ks, ms): kept per (end types,
   length) for the (ks, ms) that first asked (a new segment at every event took a libm sine per mode), NULL for another
   (ks, ms) (a second material), without the cache (mm->wc NULL) or when out of memory */
static const PetscReal *UniformFrequencies(MMM *mm, const Seg *sg)
{
  PetscInt slot = (PetscInt)sg->kind * (mm->N + 1) + sg->n;

  if (!mm->wc) return NULL;
  if (!mm->wc[slot]) {
    if (PetscMalloc1(sg->n, &mm->wc[slot])) return NULL;
    for (PetscInt p = 0; p < sg->n; p++) mm->wc[slot][p] = UniformFrequency(sg, p);
    mm->wcks[slot] = sg->ks;
    mm->wcms[slot] = sg->ms;
  }
  return mm->wcks[slot] == sg->ks && mm->wcms[slot] == sg->ms ? mm->wc[slot] : NULL;
}

/* Closed-form coefficients of every mode for a coupling step from t0, given q0, qd0: constant friction and Pc, the
   ramps k (us0 + vs tau) of the sticking end neighbours, and P0 sin(W t + phase) at node 0 */
void SKMMMSetupCoefficients(MMM *mm, PetscReal t0)
{
  PetscReal psi = mm->W * t0 + mm->phase, wmax = mm->wmax, sP = PetscSinReal(psi), cP = PetscCosReal(psi);

  for (PetscInt s = 0; s < mm->nseg; s++) {
    Seg *sg = &mm->seg[s];
    for (PetscInt p = 0; p < sg->n; p++) {
      mm->g0[sg->a + p] = mm->gF[sg->a + p];
      mm->g1[sg->a + p] = mm->gP[sg->a + p] = 0;
    }
    if (sg->left >= 0) {
      PetscReal k = mm->rp->model.spring[sg->left];
      AddPointLoad(mm, sg, 0, k * mm->us0[sg->left], mm->g0);
      AddPointLoad(mm, sg, 0, k * mm->vs[sg->left], mm->g1);
    }
    if (sg->right >= 0) {
      PetscReal k = mm->rp->model.spring[sg->right - 1];
      AddPointLoad(mm, sg, sg->n - 1, k * mm->us0[sg->right], mm->g0);
      AddPointLoad(mm, sg, sg->n - 1, k * mm->vs[sg->right], mm->g1);
    }
    if (sg->a == 0) {
      AddPointLoad(mm, sg, 0, mm->Pc, mm->g0);
      AddPointLoad(mm, sg, 0, mm->P0, mm->gP);
    }
    if (!sg->wset) {
      const PetscReal *wc = sg->general ? sg->wg : UniformFrequencies(mm, sg);
      if (wc)
        for (PetscInt p = 0; p < sg->n; p++) mm->w[sg->a + p] = wc[p];
      else
        for (PetscInt p = 0; p < sg->n; p++) mm->w[sg->a + p] = UniformFrequency(sg, p);
      sg->wset = PETSC_TRUE;
    }
    for (PetscInt p = 0; p < sg->n; p++) {
      PetscInt ip  = sg->a + p;
      PetscReal w  = mm->w[ip];
      PetscReal w2 = w * w, D;
      if (w < 1e-9 * wmax) continue; /* rigid-body mode: kept as q0, qd0, g0, g1, gP */
      D = w2 - mm->W * mm->W;
      if (PetscAbsReal(D) < 1e-9 * w2) D = 1e-9 * w2; /* exact resonance: detuned by 1e-9 */
      mm->c0[ip] = mm->g0[ip] / w2;
      mm->c1[ip] = mm->g1[ip] / w2;
      mm->pa[ip] = mm->gP[ip] / D;
      mm->A[ip]  = mm->q0[ip] - mm->c0[ip] - mm->pa[ip] * sP; /* sin, cos of the load phase once per step, not per mode */
      mm->B[ip]  = (mm->qd0[ip] - mm->c1[ip] - mm->pa[ip] * mm->W * cP) / w;
    }
  }
}

static LoadPhase LoadPhaseAt(const MMM *mm, PetscReal t0, PetscReal tau)
{
  PetscReal psi = mm->W * t0 + mm->phase;
  LoadPhase L;
  SinCos(mm->W * tau + psi, &L.s, &L.c);
  SinCos(psi, &L.s0, &L.c0);
  return L;
}

static inline PetscBool IsRigidMode(const MMM *mm, PetscInt ip)
{
  return (PetscBool)(mm->w[ip] < 1e-9 * mm->wmax);
}

/* the rigid-body mode (w = 0, p = 0 of a free-free segment) at tau: polynomial in tau plus the harmonic load's part */
static inline void RigidModeAt(const MMM *mm, PetscInt ip, PetscReal tau, const LoadPhase *L, PetscReal *q, PetscReal *qd)
{
  PetscReal W = mm->W, g = mm->gP[ip];
  *q  = mm->q0[ip] + mm->qd0[ip] * tau + 0.5 * mm->g0[ip] * tau * tau + mm->g1[ip] * tau * tau * tau / 6;
  *qd = mm->qd0[ip] + mm->g0[ip] * tau + 0.5 * mm->g1[ip] * tau * tau;
  if (W > 0 && g != 0) {
    *q -= g / (W * W) * (L->s - L->s0 - W * tau * L->c0);
    *qd -= g / W * (L->c - L->c0);
  }
}

/* q and qdot of N flexible modes from cos, sin (w tau) and the load phase's sin(W t + phase), W cos(W t + phase): a
   function of its own so that the restrict parameters let the compiler vectorise it (on local restrict pointers GCC
   would need a run-time overlap check per pair of the ten arrays, and gives up) */
static void ModalValues(PetscInt n, PetscReal tau, PetscReal sP, PetscReal WcP, const PetscReal *restrict w, const PetscReal *restrict c0,
                        const PetscReal *restrict c1, const PetscReal *restrict pa, const PetscReal *restrict A,
                        const PetscReal *restrict B, const PetscReal *restrict cw, const PetscReal *restrict sw, PetscReal *restrict qv,
                        PetscReal *restrict qdv)
{
  for (PetscInt p = 0; p < n; p++) {
    qv[p]  = c0[p] + c1[p] * tau + pa[p] * sP + A[p] * cw[p] + B[p] * sw[p];
    qdv[p] = c1[p] + pa[p] * WcP + w[p] * (B[p] * cw[p] - A[p] * sw[p]);
  }
}

/* modal values of segment s at tau (q, qdot, cos and sin of w tau), cached until the tau or the coefficients change:
   one sin/cos per mode and evaluation time (a vectorised batch), shared by the nodal values, the events, the energy
   terms and EndStep. Flexible modes: q = c0 + c1 tau + pa sin(W t + phase) + A cos(w tau) + B sin(w tau). */
void SKMMMSegModes(MMM *mm, PetscInt s, PetscReal t0, PetscReal tau)
{
  const Seg *sg    = &mm->seg[s];
  const PetscInt a = sg->a, n = sg->n;
  PetscReal *restrict qv = mm->qv + a, *restrict qdv = mm->qdv + a, *restrict cw = mm->cwv + a, *restrict sw = mm->swv + a;
  const PetscReal *restrict w = mm->w + a, *restrict c0 = mm->c0 + a, *restrict c1 = mm->c1 + a, *restrict pa = mm->pa + a;
  const PetscReal *restrict A = mm->A + a, *restrict B = mm->B + a;
  PetscReal *restrict arg = mm->arg + a;
  LoadPhase L;

  if (mm->segtau[s] == tau) return;
  if (tau == 0) { /* the step's initial values: no trigonometry (the coupling-step ends ask for them often) */
    for (PetscInt p = 0; p < n; p++) qv[p] = mm->q0[a + p], qdv[p] = mm->qd0[a + p], cw[p] = 1, sw[p] = 0;
    mm->segtau[s] = tau;
    return;
  }
  L = LoadPhaseAt(mm, t0, tau);
  if (tau == mm->tdt && mm->dtok[s]) { /* the step's end again: the same sines and cosines */
    for (PetscInt p = 0; p < n; p++) cw[p] = mm->cwd[a + p], sw[p] = mm->swd[a + p];
  } else {
    for (PetscInt p = 0; p < n; p++) arg[p] = w[p] * tau;
    SKSinCosArray(n, arg, sw, cw);
    if (tau == mm->tdt) {
      for (PetscInt p = 0; p < n; p++) mm->cwd[a + p] = cw[p], mm->swd[a + p] = sw[p];
      mm->dtok[s] = PETSC_TRUE;
    }
  }
  ModalValues(n, tau, L.s, mm->W * L.c, w, c0, c1, pa, A, B, cw, sw, qv, qdv);
  if (sg->kind == SEG_FREE_FREE && IsRigidMode(mm, a)) RigidModeAt(mm, a, tau, &L, &qv[0], &qdv[0]); /* cw = 1, sw = 0 already */
  mm->segtau[s] = tau;
}

/* rod 2 in closed form at tau of the coupling step (cached) */
void SKMMMRod2At(MMM *mm, PetscReal tau)
{
  const SKRodPairModel *md = &mm->rp->model;

  if (mm->r2tau == tau) return;
  for (PetscInt n = 0; n < mm->Nm; n++) mm->arg[n] = md->omega[n] * tau;
  SKSinCosArray(mm->Nm, mm->arg, mm->sw2, mm->cw2); /* one vectorised batch */
  for (PetscInt n = 0; n < mm->Nm; n++) {
    PetscReal w = md->omega[n], w2 = w * w, c = mm->cw2[n], s = mm->sw2[n];
    mm->et[n]    = mm->eQ0[n] / w2 + mm->eS[n] * tau / w2 + mm->eA[n] * c + mm->eB[n] * s;
    mm->etd[n]   = mm->eS[n] / w2 + w * (mm->eB[n] * c - mm->eA[n] * s);
    mm->etdd[n]  = -w2 * (mm->eA[n] * c + mm->eB[n] * s);
    mm->etddd[n] = -w2 * w * (mm->eB[n] * c - mm->eA[n] * s);
  }
  mm->r2tau = tau;
}

/* rod-1 displacement and velocity of every node of the segments at tau (sticking nodes are not touched) */
static PetscErrorCode Rod1At(MMM *mm, PetscReal t0, PetscReal tau, PetscReal y[])
{
  PetscInt N = mm->N;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg         = &mm->seg[s];
    const PetscReal *Q[2] = {mm->qv + sg->a, mm->qdv + sg->a};
    PetscReal *U[2]       = {y + sg->a, y + N + sg->a};
    SKMMMSegModes(mm, s, t0, tau);
    PetscCall(SKMMMSegSynthesize(mm, sg, 2, Q, U));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* int_0^tau sin(eps s + phi) ds and int_0^tau cos(eps s + phi) ds, given sin/cos of phi and of eps tau + phi; the sinc
   form near eps tau = 0 avoids the cancellation of the difference quotient */
static void TrigIntegrals(PetscReal eps, PetscReal tau, PetscReal s0, PetscReal c0, PetscReal s1, PetscReal c1, PetscReal *S, PetscReal *C)
{
  if (PetscAbsReal(eps * tau) > 1e-2) {
    *S = (c0 - c1) / eps;
    *C = (s1 - s0) / eps;
  } else {
    PetscReal x = 0.5 * eps * tau, x2 = x * x, sinc = 1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)), sm = s0, cm = c0, sx, cx;
    SinCos(x, &sx, &cx);
    sm = s0 * cx + c0 * sx; /* sin and cos of phi + x */
    cm = c0 * cx - s0 * sx;
    *S = tau * sinc * sm;
    *C = tau * sinc * cm;
  }
}

static void WorkSmooth(WorkAcc *wa, PetscReal c1, PetscReal pa)
{
  const LoadPhase *L = &wa->L;
  PetscReal W = wa->W, tau = wa->tau, S, C;

  wa->sum += wa->Pc * c1 * tau;
  if (W <= 0) return;
  S = (L->c0 - L->c) / W;
  C = (L->s - L->s0) / W;
  /* sin(a) cos(a) = sin(2a) / 2: int = (cos 2 psi - cos 2(W tau + psi)) / (4 W) = (sin^2(W tau + psi) - sin^2 psi) / (2 W) */
  wa->sum += wa->Pc * pa * W * C + wa->P0 * c1 * S + wa->P0 * pa * W * (L->s * L->s - L->s0 * L->s0) / (2 * W);
}

static void WorkOscillator(WorkAcc *wa, PetscReal A, PetscReal B, PetscReal w, PetscReal cw, PetscReal sw)
{
  const LoadPhase *L = &wa->L;
  PetscReal W        = wa->W, Sp, Cp, Sm, Cm;

  wa->sum += wa->Pc * (B * sw - A * (1 - cw)); /* Pc int w (B cos - A sin) */
  if (W <= 0 || wa->P0 == 0) return;
  /* sin(a) cos(b) = (sin(a + b) + sin(a - b)) / 2, sin(a) sin(b) = (cos(a - b) - cos(a + b)) / 2 with a = W s + psi, b = w s */
  TrigIntegrals(W + w, wa->tau, L->s0, L->c0, L->s * cw + L->c * sw, L->c * cw - L->s * sw, &Sp, &Cp);
  TrigIntegrals(W - w, wa->tau, L->s0, L->c0, L->s * cw - L->c * sw, L->c * cw + L->s * sw, &Sm, &Cm);
  wa->sum += wa->P0 * w * 0.5 * (B * (Sp + Sm) - A * (Cm - Cp));
}

/* the rigid-body mode's velocity qd0 + g0 s + g1 s^2 / 2 - (gP / W)(cos(W s + psi) - cos psi), weighted by r */
static void WorkRigid(WorkAcc *wa, PetscReal r, PetscReal qd0, PetscReal g0, PetscReal g1, PetscReal gP)
{
  const LoadPhase *L = &wa->L;
  PetscReal W = wa->W, tau = wa->tau, w = 0, S, C, I1, I2;

  w += wa->Pc * (qd0 * tau + g0 * tau * tau / 2 + g1 * tau * tau * tau / 6);
  if (W > 0) {
    S  = (L->c0 - L->c) / W;                                 /* int sin(W s + psi) */
    C  = (L->s - L->s0) / W;                                 /* int cos(W s + psi) */
    I1 = (C - tau * L->c) / W;                               /* int s sin(W s + psi) */
    I2 = (-tau * tau * L->c + 2 * (tau * L->s - S) / W) / W; /* int s^2 sin(W s + psi) */
    w -= wa->Pc * gP / W * (C - tau * L->c0);
    w += wa->P0 * (qd0 * S + g0 * I1 + 0.5 * g1 * I2 - gP / W * ((L->s * L->s - L->s0 * L->s0) / (2 * W) - L->c0 * S));
  }
  wa->sum += r * w;
}

/* exact work of P over [0, tau] of the coupling step; the modal values at tau (SegModes, Rod2At) must be current */
static PetscReal WorkOfP(MMM *mm, PetscReal t0, PetscReal tau)
{
  SKRodPair rp = mm->rp;
  WorkAcc wa   = {mm->Pc, mm->P0, mm->W, tau, LoadPhaseAt(mm, t0, tau), 0};
  PetscReal c1 = 0, pa = 0;

  if (mm->nseg > 0 && mm->seg[0].a == 0) { /* node 0 slips or is free: rod-1 modes of segment 0 */
    const Seg *sg        = &mm->seg[0];
    const PetscReal *row = SKMMMSegRow(mm, sg, 0);
    for (PetscInt p = 0; p < sg->n; p++) {
      if (IsRigidMode(mm, p)) {
        WorkRigid(&wa, row[p], mm->qd0[p], mm->g0[p], mm->g1[p], mm->gP[p]);
        continue;
      }
      c1 += row[p] * mm->c1[p];
      pa += row[p] * mm->pa[p];
      WorkOscillator(&wa, row[p] * mm->A[p], row[p] * mm->B[p], mm->w[p], mm->cwv[p], mm->swv[p]);
    }
  } else { /* node 0 sticks: it moves with rod 2, v0 = g . etadot */
    const SKRodPairModel *md = &rp->model;
    const PetscReal *g       = rp->gstick;
    for (PetscInt n = 0; n < mm->Nm; n++) {
      PetscReal w = md->omega[n];
      c1 += g[n] * mm->eS[n] / (w * w);
      WorkOscillator(&wa, g[n] * mm->eA[n], g[n] * mm->eB[n], w, mm->cw2[n], mm->sw2[n]);
    }
  }
  WorkSmooth(&wa, c1, pa);
  return wa.sum;
}

/* Full state at tau of the current coupling step: rod 1 (segments in closed form, sticking nodes following rod 2),
   rod 2 in closed form, work of P and dissipation (constant slip forces), all exact for the closed forms. */
PetscErrorCode SKMMMStateAt(MMM *mm, PetscReal t0, PetscReal tau, PetscReal y[], PetscBool rod1)
{
  SKRodPair rp = mm->rp;
  PetscInt N = mm->N, Nm = mm->Nm;
  PetscReal diss = 0;

  PetscFunctionBegin;
  SKMMMRod2At(mm, tau);
  for (PetscInt s = 0; s < mm->nseg; s++) SKMMMSegModes(mm, s, t0, tau);
  if (rod1) PetscCall(Rod1At(mm, t0, tau, y));
  for (PetscInt n = 0; n < Nm; n++) {
    y[ETA_OFF(mm) + n]  = mm->et[n];
    y[ETAD_OFF(mm) + n] = mm->etd[n];
  }
  for (PetscInt i = 0; i < N; i++) {
    if (rp->state[i] == SK_ROD_STICK) {
      const PetscReal *g = rp->gstick + i * Nm;
      PetscReal du = 0, vv = 0;
      for (PetscInt n = 0; n < Nm; n++) {
        du += g[n] * (mm->et[n] - mm->eta0[n]);
        vv += g[n] * mm->etd[n];
      }
      y[i]     = mm->us0[i] + du;
      y[N + i] = vv;
    }
  }
  /* dissipation over the step: -F . (du - rod-2 displacement under the nodes) = -sum_p M_p gF_p dq_p - Qslip . deta */
  for (PetscInt sgi = 0; sgi < mm->nseg; sgi++) {
    const Seg *sg = &mm->seg[sgi];
    for (PetscInt p = 0; p < sg->n; p++) diss -= SKMMMModalMass(sg, p) * mm->gF[sg->a + p] * (mm->qv[sg->a + p] - mm->q0[sg->a + p]);
  }
  for (PetscInt n = 0; n < Nm; n++) diss -= mm->Qslip[n] * (mm->et[n] - mm->eta0[n]);
  y[rp->n - 2] = mm->W0 + WorkOfP(mm, t0, tau);
  y[rp->n - 1] = mm->D0 + diss;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* displacement and velocity of node i at tau from the closed forms */
void SKMMMNodeUV(MMM *mm, PetscReal t0, PetscReal tau, PetscInt i, PetscReal *u, PetscReal *v)
{
  PetscInt s = mm->segof[i], Nm = mm->Nm;

  if (s < 0) {
    const PetscReal *g = mm->rp->gstick + i * Nm;
    PetscReal du = 0, vv = 0;
    SKMMMRod2At(mm, tau);
    for (PetscInt n = 0; n < Nm; n++) {
      du += g[n] * (mm->et[n] - mm->eta0[n]);
      vv += g[n] * mm->etd[n];
    }
    *u = mm->us0[i] + du;
    *v = vv;
  } else {
    const Seg *sg = &mm->seg[s];
    PetscReal uu = 0, vv = 0;
    const PetscReal *row;
    SKMMMSegModes(mm, s, t0, tau);
    row = SKMMMSegRow(mm, sg, i - sg->a);
    for (PetscInt p = 0; p < sg->n; p++) {
      uu += row[p] * mm->qv[sg->a + p];
      vv += row[p] * mm->qdv[sg->a + p];
    }
    *u = uu;
    *v = vv;
  }
}
