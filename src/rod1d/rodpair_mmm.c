/* Mode-matching method (Tsetas et al. 2022, Sect. 3.2) for the rod pair. Within an interval of fixed stick/slip state,
   rod 1 splits into segments of non-sticking nodes whose ends are free (rod ends, half mass) or attached to sticking
   nodes. A uniform segment's eigenpairs are closed form and depend only on its length and end types:
     free-free   phi_p(j) = cos(j p pi/(n-1))                 free-fixed phi_p(j) = cos(j (2p+1) pi/(2n))
     fixed-fixed phi_p(j) = sin((j+1)(p+1) pi/(n+1))         fixed-free: free-fixed mirrored
   with w_p = 2 sqrt(k/m) sin(theta_p/2). Their modal responses to constant friction, a linear ramp of the end nodes
   (sticking nodes move with rod 2) and P(t) = Pc + P0 sin(W t + phase) are closed form (Duhamel). Rod 2 keeps its own
   modes; the sticking nodes and slipping friction load it as pseudo-forces (the paper's [37]) that are interpolated
   linearly over a coupling step and integrated exactly. The end of an interval, the first stick->slip or slip->stick
   transition, is bracketed on samples of the closed form and located by safeguarded Newton on the closed-form time
   derivatives of the event functions; switching reuses the logic of
   the reference integrator (SKRodPairResolve), so both solve the same semi-discrete model.
   This file: event location and the time loop; rodpair_mmm_segments.c: segments and their modes; rodpair_mmm_fft.c:
   the fast transforms of uniform segments (their modes are discrete cosine and sine bases); rodpair_mmm_closed.c: the
   closed forms over an interval (mmmimpl.h: the shared data). */
#include "mmmimpl.h"

/* Acceleration of the non-sticking node i at tau from the chain equation that its segment's closed form satisfies
   exactly: its springs to the neighbours (a sticking neighbour on its ramp us0 + vs tau, as in the closed form), the
   slip friction and P at node 0; the nodes' u are those FastEvents() formed (mm->nu), so no further modal sum. */
static PetscReal ChainAcceleration(MMM *mm, PetscReal tau, PetscInt i, PetscReal P)
{
  const SKRodPairModel *md = &mm->rp->model;
  PetscReal f              = mm->Ffric[i] + (i == 0 ? P : 0);

  for (PetscInt nb = i - 1; nb <= i + 1; nb += 2) {
    if (nb < 0 || nb >= mm->N) continue;
    f += md->spring[PetscMin(i, nb)] * ((mm->rp->state[nb] == SK_ROD_STICK ? mm->us0[nb] + mm->vs[nb] * tau : mm->nu[nb]) - mm->nu[i]);
  }
  return f / md->mass[i];
}

/* Event values of the NSEL functions LIST[] (ascending) at tau from the closed forms, with the same meaning as
   SKRodPairEventValues(): slipping nodes s (v - g . etadot), sticking nodes mu_s N_F len - |F| with the holding force
   F = m g . etadd - (spring forces) - P, contact gaps. Only what a function needs is evaluated: O(n + N_m) each, and
   the bookkeeping is over the listed functions, not all 2N. With DE (else NULL) also their time derivatives from the
   same closed forms: a gap moves with +-v, a slipping node's function with s (a - g . etadd), a sticking node's with
   -sign(F) dF/dtau. */
static PetscErrorCode FastEvents(MMM *mm, EvalKind kind, PetscReal t0, PetscReal tau, PetscInt nsel, const PetscInt list[], PetscReal e[],
                                 PetscReal de[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm, nn = 0;
  PetscBool *need = mm->need;
  PetscInt *nodes = mm->nodes;
  PetscReal P = 0, dP = 0;

  PetscFunctionBegin;
  rp->mmm_evals[kind]++;
  /* the nodes needed, ascending: the listed ones, and the neighbours of a sticking node whose holding force is asked
     for, or of a slipping one whose rate is (its acceleration from the chain equation); LIST ascends, so appending
     i - 1, i, i + 1 when not yet taken keeps the order */
  for (PetscInt l = 0; l < nsel; l++) {
    PetscInt j = list[l], i = j / 2;
    PetscBool nb = (PetscBool)(j % 2 == 0 && (rp->state[i] == SK_ROD_STICK || (de && rp->state[i] != SK_ROD_FREE)));
    for (PetscInt m = nb ? i - 1 : i; m <= (nb ? i + 1 : i); m++)
      if (m >= 0 && m < N && !need[m]) {
        need[m]     = PETSC_TRUE;
        nodes[nn++] = m;
      }
  }
  /* their u, v: per segment in one batch (or the whole segment by the transforms when most of it is needed), the
     sticking nodes from rod 2 */
  for (PetscInt l = 0; l < nn;) {
    PetscInt i = nodes[l], s = mm->segof[i], k = 0;
    const Seg *sg;
    if (s < 0) {
      SKMMMNodeUV(mm, t0, tau, i, &mm->nu[i], &mm->nv[i]);
      l++;
      continue;
    }
    sg = &mm->seg[s];
    for (; l < nn && mm->segof[nodes[l]] == s; l++) mm->nidx[k++] = nodes[l] - sg->a;
    SKMMMSegModes(mm, s, t0, tau);
    if (sg->fast && k >= mm->nodes_min) {
      const PetscReal *Q[2] = {mm->qv + sg->a, mm->qdv + sg->a};
      PetscReal *U[2]       = {mm->nu + sg->a, mm->nv + sg->a};
      PetscCall(SKMMMSegSynthesize(mm, sg, 2, Q, U));
    } else {
      SKMMMSegNodesUV(mm, sg, k, mm->nidx, mm->xw, mm->xw + N);
      for (PetscInt b = 0; b < k; b++) {
        mm->nu[sg->a + mm->nidx[b]] = mm->xw[b];
        mm->nv[sg->a + mm->nidx[b]] = mm->xw[N + b];
      }
    }
  }
  for (PetscInt l = 0; l < nn; l++) need[nodes[l]] = PETSC_FALSE;
  if (de) {
    P  = rp->load(rp->load_ctx, t0 + tau);
    dP = mm->P0 * mm->W * PetscCosReal(mm->W * (t0 + tau) + mm->phase);
  }
  for (PetscInt l = 0; l < nsel; l++) {
    PetscInt j = list[l], i = j / 2;
    PetscReal u = mm->nu[i], v = mm->nv[i];
    if (j % 2 == 1) {
      PetscReal zbar = md->z[i] + u - md->l1, gap = PetscMin(zbar + md->hr[i], md->L2 + md->hl[i] - zbar);
      PetscReal dgap = zbar + md->hr[i] <= md->L2 + md->hl[i] - zbar ? v : -v;
      e[j]           = rp->state[i] == SK_ROD_FREE ? (md->cap_s[0] > 0 ? -gap : 1) : gap;
      if (de) de[j] = rp->state[i] == SK_ROD_FREE ? (md->cap_s[0] > 0 ? -dgap : 0) : dgap;
      continue;
    }
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      e[j] = 1;
      if (de) de[j] = 0;
      break;
    case SK_ROD_SLIP_POS:
    case SK_ROD_SLIP_NEG: {
      const PetscReal *g = mm->gstart + i * Nm;
      PetscReal w = 0, sgn = rp->state[i] == SK_ROD_SLIP_POS ? 1 : -1;
      SKMMMRod2At(mm, tau);
      for (PetscInt n = 0; n < Nm; n++) w += g[n] * mm->etd[n];
      e[j] = sgn * (v - w);
      if (de) { /* s (a - g . etadd) */
        PetscReal ga = 0;
        for (PetscInt n = 0; n < Nm; n++) ga += g[n] * mm->etdd[n];
        de[j] = sgn * (ChainAcceleration(mm, tau, i, P) - ga);
      }
    } break;
    case SK_ROD_STICK: {
      const PetscReal *g = rp->gstick + i * Nm;
      PetscReal a = 0, fint = i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0, F;
      SKMMMRod2At(mm, tau);
      for (PetscInt n = 0; n < Nm; n++) a += g[n] * mm->etdd[n];
      if (i > 0) fint += md->spring[i - 1] * (mm->nu[i - 1] - u);
      if (i < N - 1) fint += md->spring[i] * (mm->nu[i + 1] - u);
      F    = md->mass[i] * a - fint;
      e[j] = mm->capS[i] - PetscAbsReal(F);
      if (de) { /* -sign(F) dF/dtau, dF/dtau = m g . etadddot - (springs times the neighbours' relative velocities) - P' */
        PetscReal jk = 0, dfint = i == 0 ? dP : 0;
        for (PetscInt n = 0; n < Nm; n++) jk += g[n] * mm->etddd[n];
        if (i > 0) dfint += md->spring[i - 1] * (mm->nv[i - 1] - v);
        if (i < N - 1) dfint += md->spring[i] * (mm->nv[i + 1] - v);
        de[j] = -(F >= 0 ? 1 : -1) * (md->mass[i] * jk - dfint);
      }
    } break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The watched event functions WATCH[0..nwatch) at tau from the closed forms, each normalised by its value at the
   bracket's start: their minimum F and its time derivative DF (that of the smallest), the values in rp->evals1 and
   the rates in mm->devals; the last tau evaluated is kept. */
typedef struct {
  MMM *mm;
  PetscReal t0;
  PetscInt nwatch;
  const PetscInt *watch;
  const PetscReal *eprev;
  PetscReal last;
} ClosedEvent;

/* The smallest of the watched values E normalised by their values at the bracket's start, *F, and the rate DE of that
   function likewise normalised, *DF. */
static void WatchedMin(const ClosedEvent *ev, const PetscReal e[], const PetscReal de[], PetscReal *f, PetscReal *df)
{
  *f  = PETSC_MAX_REAL;
  *df = 0;
  for (PetscInt l = 0; l < ev->nwatch; l++) {
    PetscInt j  = ev->watch[l];
    PetscReal r = e[j] / ev->eprev[j];
    if (r < *f) {
      *f  = r;
      *df = de[j] / ev->eprev[j];
    }
  }
}

static PetscErrorCode ClosedEventMin(ClosedEvent *ev, EvalKind kind, PetscReal tau, PetscReal *f, PetscReal *df)
{
  PetscFunctionBegin;
  PetscCall(FastEvents(ev->mm, kind, ev->t0, tau, ev->nwatch, ev->watch, ev->mm->rp->evals1, ev->mm->devals));
  ev->last = tau;
  WatchedMin(ev, ev->mm->rp->evals1, ev->mm->devals, f, df);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root in (0, 1) of the cubic Hermite interpolant of f(0) = fa > 0 >= f(1) = fb with the slopes da, db (per unit
   of the interval): Newton on the cubic, kept inside its own sign bracket by bisection (no evaluations of f) */
static PetscReal HermiteRoot(PetscReal fa, PetscReal da, PetscReal fb, PetscReal db)
{
  PetscReal lo = 0, hi = 1, s = fa / (fa - fb);

  for (PetscInt it = 0; it < 60 && hi - lo > 1e-15; it++) {
    PetscReal s2 = s * s, s3 = s2 * s, sn;
    PetscReal p  = (2 * s3 - 3 * s2 + 1) * fa + (s3 - 2 * s2 + s) * da + (3 * s2 - 2 * s3) * fb + (s3 - s2) * db;
    PetscReal dp = 6 * (s2 - s) * (fa - fb) + (3 * s2 - 4 * s + 1) * da + (3 * s2 - 2 * s) * db;
    if (p > 0)
      lo = s;
    else
      hi = s;
    sn = dp < 0 ? s - p / dp : -1;
    if (!(sn > lo && sn < hi)) sn = 0.5 * (lo + hi);
    if (PetscAbsReal(sn - s) < 1e-15) break;
    s = sn;
  }
  return s;
}

/* The crossing in the bracket [a, b] of the watched functions' minimum f (f(a) = fa > 0 >= f(b) = fb, rates da, db):
   safeguarded Newton on the closed-form rates. The first point is the root of the cubic Hermite interpolant of both
   ends; from each point x the Newton point x - f/f' is aimed a quarter of TOL beyond the root, so that it usually lands
   on the side f <= 0 and ends the search: done when b - a <= TOL, or when f(x) <= 0 and the Newton step back from x is
   at most TOL/2 (the root is then within TOL/2 before x to second order). A Newton point outside the bracket, a rising
   f, or a bracket that does not shrink to half in two points falls back to the Hermite root of the bracket, then to
   bisection. *root = b, where f <= 0, as SKRodPairLocateEvent() returns. */
static PetscErrorCode LocateEventNewton(ClosedEvent *ev, PetscReal a, PetscReal fa, PetscReal da, PetscReal b, PetscReal fb, PetscReal db,
                                        PetscReal tol, PetscReal *root)
{
  PetscReal x = a + (b - a) * HermiteRoot(fa, da * (b - a), fb, db * (b - a)), w2 = b - a, w1 = b - a;

  PetscFunctionBegin;
  for (PetscInt it = 0; it < 100 && b - a > tol; it++) {
    PetscReal f = 0, df = 0, xn = -1;
    if (!(x > a && x < b)) x = 0.5 * (a + b);
    PetscCall(ClosedEventMin(ev, EVAL_ROOT, x, &f, &df));
    if (f <= 0) {
      b  = x;
      fb = f;
      db = df;
      if (df < 0 && f / df <= 0.5 * tol) break;
    } else {
      a  = x;
      fa = f;
      da = df;
    }
    if (df < 0) xn = x - f / df + 0.25 * tol;
    if (!(xn > a && xn < b) || b - a > 0.5 * w2) xn = a + (b - a) * HermiteRoot(fa, da * (b - a), fb, db * (b - a));
    if (!(xn > a && xn < b) || (it % 8 == 7 && b - a > 0.5 * w2)) xn = 0.5 * (a + b);
    w2 = w1;
    w1 = b - a;
    x  = xn;
  }
  *root = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lipschitz bounds of the event functions over the coupling step, from the modal amplitudes: a function with value
   e > 0 cannot reach zero before e / rate, so it is not evaluated until then. The rod-2 parts are bounded per node
   by the largest |g_n| of its own coupling vector times the sum of the modes' bounds (gmax, from StartInterval), and
   a spring between two sticking nodes by the largest |g_k,n - g_i,n| (dgl): both ride on rod 2, so their relative
   velocity is (g_k - g_i) . etadot, small where g varies little over an element (at N = 301 the former bound, each
   spring times the largest rod-2 velocity, was about a hundred times the sticking nodes' actual rates). O(N) per step. */
static void SetupBounds(MMM *mm, PetscReal dt)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N               = mm->N;
  PetscReal W = mm->W, wmax = mm->wmax, vsum = 0, asum = 0, jsum = 0;

  for (PetscInt n = 0; n < mm->Nm; n++) {
    PetscReal w = md->omega[n], R = PetscAbsReal(mm->eA[n]) + PetscAbsReal(mm->eB[n]);
    vsum += w * R + PetscAbsReal(mm->eS[n]) / (w * w);
    asum += w * w * R; /* forcing is inside the closed form's homogeneous part */
    jsum += w * w * w * R;
  }
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    PetscReal bv = 0, ba = 0;
    for (PetscInt p = 0; p < sg->n; p++) {
      PetscInt ip = sg->a + p;
      PetscReal w = mm->w[ip];
      if (w < 1e-9 * wmax) {
        bv += PetscAbsReal(mm->qd0[ip]) + PetscAbsReal(mm->g0[ip]) * dt + 0.5 * PetscAbsReal(mm->g1[ip]) * dt * dt +
              (W > 0 ? 2 * PetscAbsReal(mm->gP[ip]) / W : 0);
        ba += PetscAbsReal(mm->g0[ip]) + PetscAbsReal(mm->g1[ip]) * dt + PetscAbsReal(mm->gP[ip]);
      } else {
        PetscReal R = PetscAbsReal(mm->A[ip]) + PetscAbsReal(mm->B[ip]);
        bv += PetscAbsReal(mm->c1[ip]) + PetscAbsReal(mm->pa[ip]) * W + w * R;
        ba += PetscAbsReal(mm->pa[ip]) * W * W + w * w * R;
      }
    }
    mm->bv[s] = bv;
    mm->ba[s] = ba;
  }
  for (PetscInt i = 0; i < N; i++) {
    PetscInt s = mm->segof[i];
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      mm->rate[2 * i]     = 0;
      mm->rate[2 * i + 1] = mm->bv[s];
      break;
    case SK_ROD_SLIP_POS:
    case SK_ROD_SLIP_NEG: /* |a - g . etadd| */
      mm->rate[2 * i]     = mm->ba[s] + mm->gmax[i] * asum;
      mm->rate[2 * i + 1] = mm->bv[s];
      break;
    case SK_ROD_STICK: { /* |m g . etadddot - (springs times the neighbours' relative velocities) - P'| */
      PetscReal vi = mm->gmax[i] * vsum, r = md->mass[i] * mm->gmax[i] * jsum + md->cap_s[i] * vi + (i == 0 ? PetscAbsReal(mm->P0) * W : 0);
      for (PetscInt nb = i - 1; nb <= i + 1; nb += 2) {
        if (nb < 0 || nb >= N) continue;
        r += md->spring[PetscMin(i, nb)] * (mm->segof[nb] >= 0 ? mm->bv[mm->segof[nb]] + vi : mm->dgl[PetscMax(i, nb)] * vsum);
      }
      mm->rate[2 * i]     = r;
      mm->rate[2 * i + 1] = vi;
    } break;
    }
  }
}

/* Rod-2 modal load Qslip + sum over sticking nodes of g_i (spring forces + P - m_i a_i) at tau of the coupling step,
   with the sticking nodes on their ramps us0 + vs tau; with INERTIA the accelerations a_i are those of the step start
   (alag), else the inertia term is left out (StickInertia adds it at the step end) */
static void Rod2Load(MMM *mm, PetscReal t0, PetscReal tau, PetscBool inertia, PetscReal Q[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm;

  for (PetscInt n = 0; n < Nm; n++) Q[n] = mm->Qslip[n];
  for (PetscInt i = 0; i < N; i++) {
    const PetscReal *g;
    PetscReal ui, f;
    if (rp->state[i] != SK_ROD_STICK) continue;
    g  = rp->gstick + i * Nm;
    ui = mm->us0[i] + mm->vs[i] * tau;
    f  = (i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0) - (inertia ? md->mass[i] * mm->alag[i] : 0);
    for (PetscInt nb = i - 1; nb <= i + 1; nb += 2) {
      PetscReal un, vn;
      if (nb < 0 || nb >= N) continue;
      if (rp->state[nb] == SK_ROD_STICK)
        un = mm->us0[nb] + mm->vs[nb] * tau;
      else
        SKMMMNodeUV(mm, t0, tau, nb, &un, &vn);
      f += md->spring[PetscMin(i, nb)] * (un - ui);
    }
    for (PetscInt n = 0; n < Nm; n++) Q[n] += g[n] * f;
  }
}

/* The sticking nodes' inertia at the end of a coupling step of length dt, taken implicitly. Their accelerations
   a_i = g_i . etadd are linear over the step from alag (the step start) to a1, so the rod-2 load is linear too and
   the closed form gives, per mode (c, s = cos, sin(w dt), d = s / (w dt)),
     etadd(dt) = Q0 (c - d) - w^2 eta0 c - w etad0 s + d Q1,   Q1 = Qo1 - G^T diag(m) G etadd(dt)
   with Qo1 the end load without the inertia (Q1 on entry). So (D^-1 + G^T diag(m) G) etadd(dt) = D^-1 (...): an
   Nm x Nm SPD system (d > 0 while w dt < pi), whose matrix is I + G^T diag(m) G (SKRodPairStickCapacitance) plus
   diag(1/d - 1), factored once per interval and step length. Lagging the inertia by a step instead (a1 = alag) is
   first order in the step and, since the sticking part of rod 1 may weigh as much as rod 2 under it, amplifies on a
   light rod 2 (docs/validation/rodpair.md, soft rod 2). On return Q1 = Qo1 - G^T diag(m) G etadd(dt). Only used while
   the added mass matters (StartInterval). */
static PetscErrorCode StickInertia(MMM *mm, PetscReal dt, PetscReal Q1[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt Nm              = mm->Nm;
  const PetscReal *C;
  PetscReal *x = mm->kx, *d = mm->kd;

  PetscFunctionBegin;
  PetscCall(SKRodPairStickCapacitance(rp, &C));
  if (!rp->nstick) PetscFunctionReturn(PETSC_SUCCESS);
  if (mm->kdt != dt) {
    for (PetscInt n = 0; n < Nm; n++) {
      PetscReal wd = md->omega[n] * dt;
      d[n]         = PetscSinReal(wd) / wd;
    }
    for (PetscInt k = 0; k < Nm * Nm; k++) mm->kfac[k] = C[k];
    for (PetscInt n = 0; n < Nm; n++) mm->kfac[n * Nm + n] += 1 / d[n] - 1;
    PetscCall(SKRodPairCholeskyFactor(Nm, mm->kfac));
    mm->kdt = dt;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    PetscReal w = md->omega[n], s, c;
    SinCos(w * dt, &s, &c);
    x[n] = (mm->eQ0[n] * (c - d[n]) - w * w * mm->eta0[n] * c - w * mm->etad0[n] * s) / d[n] + Q1[n];
  }
  SKRodPairCholeskySolve(Nm, mm->kfac, x);
  for (PetscInt k = 0; k < Nm; k++) { /* Q1 -= (C - I) x */
    PetscReal a = -x[k];
    for (PetscInt l = 0; l < Nm; l++) a += C[k * Nm + l] * x[l];
    Q1[k] -= a;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Q -= f g (N_m values): restrict parameters, so that Q stays in registers across the modes instead of being
   re-read after every store (Q and g are both fields of the MMM, which the compiler must assume may overlap) */
static void SubtractScaled(PetscInt Nm, PetscReal f, const PetscReal *restrict g, PetscReal *restrict Q)
{
  for (PetscInt n = 0; n < Nm; n++) Q[n] -= f * g[n];
}

/* Starts an interval of fixed stick/slip state at (t0, y): segments, slip friction (constant over the interval), modal
   coordinates, rod-2 state, the exact accelerations of the sticking nodes, event values. O(N^2) in the segments. */
static PetscErrorCode StartInterval(MMM *mm, PetscReal t0, PetscReal y[], PetscReal dy[], PetscBool have_rhs)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm;

  PetscFunctionBegin;
  SKRodPairProjectStick(rp, y);
  PetscCall(SKMMMBuildSegments(mm));
  /* with HAVE_RHS, dy, the forces, the relative velocities and the event values (SwitchAt) are those of y: the
     projection of the sticking velocities above changes none of them (the event values read u, forces and vrel) */
  if (!have_rhs) {
    PetscCall(SKRodPairRHS(rp, t0, y, dy));
    SKRodPairEventValues(rp, y, rp->evals0);
  }
  for (PetscInt n = 0; n < Nm; n++) mm->Qslip[n] = 0;
  for (PetscInt i = 0; i < N; i++) {
    mm->Fprev[i] = mm->Ffric[i];
    mm->Ffric[i] = (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) ? rp->force[i] : 0;
    mm->us0[i]   = y[i];
    mm->vs[i]    = y[N + i];
    mm->alag[i]  = dy[N + i];
    /* the coupling at the interval start serves the slipping nodes only (sticking ones keep theirs from when they stuck):
       made current in the model's cache, read there through mm->gstart */
    if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG)
      (void)SKRodPairSlipCoupling(rp, i, md->z[i] + y[i] - md->l1, NULL);
    if (mm->Ffric[i] != 0) SubtractScaled(Nm, mm->Ffric[i], mm->gstart + i * Nm, mm->Qslip);
    mm->capS[i]          = rp->state[i] == SK_ROD_STICK ? SKRodPairCapacity(md, i, md->z[i] + y[i] - md->l1, PETSC_FALSE) : 0;
    mm->noise[2 * i]     = rp->state[i] == SK_ROD_STICK ? 1e-9 * mm->capS[i] : rp->atol * md->omega1_rod1;
    mm->noise[2 * i + 1] = rp->atol;
  }
  /* the per-node factors of the event bounds (SetupBounds): the largest |g_n| of each node's coupling vector, and for
     two sticking neighbours i - 1, i the largest |g_i,n - g_i-1,n| (in dgl[i]) */
  for (PetscInt i = 0; i < N; i++) {
    const PetscReal *g = rp->state[i] == SK_ROD_STICK ? rp->gstick + i * Nm : mm->gstart + i * Nm;
    PetscReal gm = 0, dg = 0; /* in registers: on mm->gmax[i] itself each step waited for the last store */
    if (rp->state[i] != SK_ROD_FREE) {
      for (PetscInt n = 0; n < Nm; n++) gm = PetscMax(gm, PetscAbsReal(g[n]));
      if (i > 0 && rp->state[i] == SK_ROD_STICK && rp->state[i - 1] == SK_ROD_STICK)
        for (PetscInt n = 0; n < Nm; n++) dg = PetscMax(dg, PetscAbsReal(g[n] - g[n - Nm]));
    }
    mm->gmax[i] = gm;
    mm->dgl[i]  = dg;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    mm->eta0[n]  = y[ETA_OFF(mm) + n];
    mm->etad0[n] = y[ETAD_OFF(mm) + n];
  }
  mm->W0  = y[rp->n - 2];
  mm->D0  = y[rp->n - 1];
  mm->kdt = -1; /* the stick set may have changed: StickInertia refactors */
  {
    /* the trace of G^T diag(m) G bounds its largest eigenvalue, the sticking nodes' mass seen by a rod-2 mode of modal
       mass 1, and the lag's error is proportional to it: the paper's rod 2 (rho A 1e4 times rod 1's) stays below
       SK_MMM_IMPLICIT_MASS with every node sticking (measured at most 2.5e-3 at N = 301, N_m = 50, 3.8e-3 with the
       heavier lower rod 1 of the pile inputs; taken implicitly its inertia moves the tip history of omega1-caseA by
       1e-10), one sticking node on the soft rod 2 weighs 0.16, on the soft10 one 0.016 */
    const PetscReal *C;
    PetscReal tr = 0;
    PetscCall(SKRodPairStickCapacitance(rp, &C));
    for (PetscInt n = 0; n < Nm; n++) tr += C[n * Nm + n] - 1;
    mm->implicit_mass = (PetscBool)(tr > SK_MMM_IMPLICIT_MASS);
  }
  PetscCall(SKMMMProjectInterval(mm, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts a coupling step [t0, t0 + dt] of the current interval: mode coefficients, rod-2 pseudo-forces at both ends
   (linear in between; the sticking nodes' inertia at the end implicit while it matters and the step resolves the top
   rod-2 mode, w dt < pi, else lagged) and rod-2 closed form, event bounds. O(n) per segment plus O(N_m) per sticking node. */
static PetscErrorCode StartStep(MMM *mm, PetscReal t0, PetscReal dt, PetscReal Qwork[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt Nm              = mm->Nm;
  PetscBool implicit       = (PetscBool)(mm->implicit_mass && md->omega[Nm - 1] * dt < PETSC_PI);

  PetscFunctionBegin;
  mm->Pc = rp->load(rp->load_ctx, t0 + 0.5 * dt) - mm->P0 * PetscSinReal(mm->W * (t0 + 0.5 * dt) + mm->phase);
  SKMMMSetupCoefficients(mm, t0);
  for (PetscInt s = 0; s < mm->nseg; s++) {
    mm->segtau[s] = -1;
    mm->dtok[s]   = PETSC_FALSE;
  }
  mm->tdt   = dt;
  mm->r2tau = -1;
  Rod2Load(mm, t0, 0, PETSC_TRUE, mm->eQ0);
  Rod2Load(mm, t0, dt, (PetscBool)!implicit, Qwork);
  if (implicit) PetscCall(StickInertia(mm, dt, Qwork));
  for (PetscInt n = 0; n < Nm; n++) {
    PetscReal w = md->omega[n], w2 = w * w;
    mm->eS[n] = (Qwork[n] - mm->eQ0[n]) / dt;
    mm->eA[n] = mm->eta0[n] - mm->eQ0[n] / w2;
    mm->eB[n] = (mm->etad0[n] - mm->eS[n] / w2) / w;
  }
  SetupBounds(mm, dt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ends a coupling step without event at tau = dt: the closed forms there become the next step's initial values, in
   modal form (no projection); the nodal state y is not needed. */
static void EndStep(MMM *mm, PetscReal t0, PetscReal dt, const PetscReal y_end[])
{
  SKRodPair rp = mm->rp;
  PetscInt N = mm->N, Nm = mm->Nm;

  SKMMMRod2At(mm, dt);
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    SKMMMSegModes(mm, s, t0, dt);
    for (PetscInt p = 0; p < sg->n; p++) {
      mm->q0[sg->a + p]  = mm->qv[sg->a + p];
      mm->qd0[sg->a + p] = mm->qdv[sg->a + p];
    }
  }
  for (PetscInt i = 0; i < N; i++) {
    if (rp->state[i] != SK_ROD_STICK) continue;
    const PetscReal *g = rp->gstick + i * Nm;
    PetscReal a        = 0;
    for (PetscInt n = 0; n < Nm; n++) a += g[n] * mm->etdd[n];
    mm->us0[i]  = y_end[i];
    mm->vs[i]   = y_end[N + i];
    mm->alag[i] = a;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    mm->eta0[n]  = mm->et[n];
    mm->etad0[n] = mm->etd[n];
  }
  mm->W0 = y_end[rp->n - 2];
  mm->D0 = y_end[rp->n - 1];
}

/* Switches the nodes flagged in TRIGGER at (t, y) with the reference integrator's logic and re-arms the events.
   Resolve's last right-hand side is at the switched state: it is kept in DY (with the forces and relative velocities)
   for the next interval's start. */
static PetscErrorCode SwitchAt(SKRodPair rp, PetscReal t, PetscReal y[], const PetscBool trigger[], PetscReal dy[])
{
  PetscFunctionBegin;
  PetscCall(SKRodPairSlipCouplingsAt(rp, y, NULL)); /* the slipping nodes moved since the interval began: all at once */
  PetscCall(SKRodPairResolve(rp, t, y, trigger));
  PetscCall(PetscArraycpy(dy, rp->ytmp, rp->n));
  SKRodPairEventValues(rp, y, rp->evals0);
  SKRodPairArmAfterEvent(rp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve's own work arrays besides MMM's: the time loop's states (n), the event bookkeeping (2N), rod 2's loads (N_m) */
typedef struct {
  PetscReal dtc; /* the coupling step */
  PetscReal *yw, *dy, *qbuf, *eprev, *tnext, *tlast, *margin;
  PetscInt *cand, *lsel, *lwatch, *ltrig;
  PetscBool *trigger, *sel;
} MMMLoop;

/* Everything the solve allocates, into MM and LP (zeroed by the caller: MMMDestroy() frees what a set-up that stopped
   half-way made) */
static PetscErrorCode MMMSetUp(SKRodPair rp, MMM *mm, MMMLoop *lp)
{
  PetscInt N = rp->model.N, Nm = rp->model.Nm, n = rp->n, N2 = 2 * N;
  PetscReal wmax;

  PetscFunctionBegin;
  mm->rp    = rp;
  mm->N     = N;
  mm->Nm    = Nm;
  mm->P0    = rp->load_P0;
  mm->W     = rp->load_W;
  mm->phase = rp->load_phase;
  if (rp->model.uniform1)
    wmax = 2 * PetscSqrtReal(rp->model.spring[0] / rp->model.mass[1]);
  else { /* Gershgorin bound of M^-1/2 K M^-1/2: 2 sqrt(k/m) again for a uniform chain */
    const SKRodPairModel *md = &rp->model;
    wmax                     = 0;
    for (PetscInt i = 0; i < N; i++) {
      PetscReal kl = i > 0 ? md->spring[i - 1] : 0, kr = i < N - 1 ? md->spring[i] : 0, r = (kl + kr) / md->mass[i];
      if (i > 0) r += kl / PetscSqrtReal(md->mass[i - 1] * md->mass[i]);
      if (i < N - 1) r += kr / PetscSqrtReal(md->mass[i] * md->mass[i + 1]);
      wmax = PetscMax(wmax, PetscSqrtReal(r));
    }
  }
  mm->wmax = wmax;
  /* samples for bracketing events: a fraction of the shortest period of rod 1 and of the retained rod-2 modes */
  mm->dt_sample = rp->mmm_sample / PetscMax(wmax, rp->model.omega[Nm - 1]);
  /* coupling (pseudo-force) step: resolves the retained rod-2 modes, independent of the rod-1 spacing */
  lp->dtc =
      PetscMin((rp->mmm_coupling > 0 ? rp->mmm_coupling : SKRodPairDefaultMMMCoupling(&rp->params)) / rp->model.omega[Nm - 1], rp->hmax);
  PetscCall(PetscCalloc1(N, &mm->seg));
  /* mode-matrix cache: up to 16 slots of N x N within 32 MB (at least 2) */
  mm->cache.cap   = N * N + N;
  mm->cache.nslot = PetscMax(2, PetscMin(16, (PetscInt)(32.0 * 1024 * 1024 / (8.0 * mm->cache.cap))));
  PetscCall(PetscMalloc1((size_t)mm->cache.nslot * mm->cache.cap, &mm->cache.data));
  PetscCall(PetscCalloc3(mm->cache.nslot, &mm->cache.kind, mm->cache.nslot, &mm->cache.n, mm->cache.nslot, &mm->cache.used));
  for (PetscInt k = 0; k < mm->cache.nslot; k++) mm->cache.n[k] = -1;
  PetscCall(PetscMalloc5((size_t)N * N + N, &mm->scratch, N, &mm->eigd, N, &mm->eige, (size_t)N * N, &mm->eigz, 18 * N, &mm->eigwork));
  PetscCall(PetscMalloc3(N, &mm->eigw, 12 * N, &mm->eigiwork, N, &mm->capS));
  PetscCall(PetscMalloc3(3 * N, &mm->xw, N, &mm->rowL, N, &mm->rowR));
  PetscCall(PetscMalloc5(N, &mm->nu, N, &mm->nv, N, &mm->nidx, N, &mm->nodes, N, &mm->need));
  for (PetscInt i = 0; i < N; i++) mm->need[i] = PETSC_FALSE;
  mm->nodes_min = rp->mmm_nodes_min;
  PetscCall(PetscMalloc4(N, &mm->prev_a, N, &mm->prev_n, N, &mm->prev_kind, N, &mm->Fprev));
  PetscCall(SKMMMRegisterLogEvents());
  PetscCall(SKMMMTransformsCreate(N, rp->mmm_transform_min, rp->mmm_fft_measure ? FFTW_MEASURE : FFTW_ESTIMATE, &mm->tr));
  rp->mmm_eig_solves = rp->mmm_eig_hits = rp->mmm_eig_closed = 0;
  for (PetscInt k = 0; k < SK_RODPAIR_MMM_EVAL_KINDS; k++) rp->mmm_evals[k] = 0;
  PetscCall(PetscCalloc5(N, &mm->w, N, &mm->c0, N, &mm->c1, N, &mm->pa, N, &mm->A));
  PetscCall(PetscCalloc5(N, &mm->B, N, &mm->q0, N, &mm->qd0, N, &mm->g0, N, &mm->g1));
  PetscCall(PetscCalloc3(N, &mm->gP, N, &mm->phi, N, &mm->us0));
  PetscCall(PetscCalloc4(N, &mm->vs, Nm, &mm->eta0, Nm, &mm->etad0, N, &mm->Ffric));
  PetscCall(PetscCalloc4(Nm, &mm->eA, Nm, &mm->eB, Nm, &mm->eQ0, Nm, &mm->eS));
  PetscCall(PetscMalloc4(n, &lp->yw, n, &lp->dy, Nm, &lp->qbuf, N2, &lp->eprev));
  PetscCall(PetscMalloc3(N2, &lp->cand, N2, &lp->trigger, N2, &lp->sel));
  PetscCall(PetscMalloc3(N2, &lp->lsel, N2, &lp->lwatch, N2, &lp->ltrig));
  PetscCall(PetscMalloc3(N2, &lp->tnext, N2, &lp->tlast, N2, &lp->margin));
  PetscCall(PetscCalloc3(N, &mm->gF, Nm, &mm->Qslip, N, &mm->alag));
  PetscCall(PetscCalloc5(N, &mm->segof, N, &mm->segtau, N, &mm->qv, N, &mm->qdv, Nm, &mm->et));
  PetscCall(PetscCalloc3(Nm, &mm->etd, Nm, &mm->etdd, N, &mm->bv));
  mm->gstart = rp->gslip;
  PetscCall(PetscCalloc3(N, &mm->ba, N2, &mm->rate, N2, &mm->noise));
  PetscCall(PetscCalloc5(N, &mm->cwv, N, &mm->swv, Nm, &mm->cw2, Nm, &mm->sw2, PetscMax(N, Nm), &mm->arg));
  PetscCall(PetscMalloc3((size_t)Nm * Nm, &mm->kfac, Nm, &mm->kd, Nm, &mm->kx));
  PetscCall(PetscCalloc3(N2, &mm->devals, N2, &mm->devb, Nm, &mm->etddd));
  PetscCall(PetscCalloc2(N, &mm->gmax, N, &mm->dgl));
  PetscCall(PetscCalloc3(N, &mm->cwd, N, &mm->swd, N, &mm->dtok));
  if ((size_t)2 * N * (N + 1) * sizeof(PetscReal) <= SK_MMM_FREQ_CACHE)
    PetscCall(PetscCalloc3(4 * (N + 1), &mm->wc, 4 * (N + 1), &mm->wcks, 4 * (N + 1), &mm->wcms));
  mm->tdt = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees what MMMSetUp() made, also after a set-up or a solve that stopped with an error; counts the transforms' plans and
   tables */
static PetscErrorCode MMMDestroy(MMM *mm, MMMLoop *lp)
{
  const PetscInt N = mm->N;

  PetscFunctionBegin;
  if (!mm->rp) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(mm->seg));
  PetscCall(PetscFree(mm->cache.data));
  PetscCall(PetscFree3(mm->cache.kind, mm->cache.n, mm->cache.used));
  PetscCall(PetscFree5(mm->scratch, mm->eigd, mm->eige, mm->eigz, mm->eigwork));
  PetscCall(PetscFree3(mm->eigw, mm->eigiwork, mm->capS));
  PetscCall(PetscFree3(mm->xw, mm->rowL, mm->rowR));
  PetscCall(PetscFree5(mm->nu, mm->nv, mm->nidx, mm->nodes, mm->need));
  PetscCall(PetscFree4(mm->prev_a, mm->prev_n, mm->prev_kind, mm->Fprev));
  mm->rp->mmm_plans  = mm->tr.nplans;
  mm->rp->mmm_tables = mm->tr.ntables;
  PetscCall(SKMMMTransformsDestroy(&mm->tr));
  PetscCall(PetscFree5(mm->w, mm->c0, mm->c1, mm->pa, mm->A));
  PetscCall(PetscFree5(mm->B, mm->q0, mm->qd0, mm->g0, mm->g1));
  PetscCall(PetscFree3(mm->gP, mm->phi, mm->us0));
  PetscCall(PetscFree4(mm->vs, mm->eta0, mm->etad0, mm->Ffric));
  PetscCall(PetscFree4(mm->eA, mm->eB, mm->eQ0, mm->eS));
  PetscCall(PetscFree4(lp->yw, lp->dy, lp->qbuf, lp->eprev));
  PetscCall(PetscFree3(lp->cand, lp->trigger, lp->sel));
  PetscCall(PetscFree3(lp->lsel, lp->lwatch, lp->ltrig));
  PetscCall(PetscFree3(lp->tnext, lp->tlast, lp->margin));
  PetscCall(PetscFree3(mm->gF, mm->Qslip, mm->alag));
  PetscCall(PetscFree5(mm->segof, mm->segtau, mm->qv, mm->qdv, mm->et));
  PetscCall(PetscFree3(mm->etd, mm->etdd, mm->bv));
  PetscCall(PetscFree3(mm->ba, mm->rate, mm->noise));
  PetscCall(PetscFree5(mm->cwv, mm->swv, mm->cw2, mm->sw2, mm->arg));
  PetscCall(PetscFree3(mm->kfac, mm->kd, mm->kx));
  PetscCall(PetscFree3(mm->devals, mm->devb, mm->etddd));
  PetscCall(PetscFree2(mm->gmax, mm->dgl));
  PetscCall(PetscFree3(mm->cwd, mm->swd, mm->dtok));
  for (PetscInt k = 0; k < 4 * (N + 1) && mm->wc; k++) PetscCall(PetscFree(mm->wc[k]));
  PetscCall(PetscFree3(mm->wc, mm->wcks, mm->wcms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The time loop from rp->t to t_end: coupling steps, event search, switching, outputs */
static PetscErrorCode MMMRun(MMM *mm, MMMLoop *lp, PetscReal t_end)
{
  SKRodPair rp = mm->rp;
  PetscInt N = rp->model.N, N2 = 2 * N, ib = 0, stalls = 0, ncand, *cand = lp->cand, *lsel = lp->lsel, *lwatch = lp->lwatch,
           *ltrig = lp->ltrig;
  PetscReal t = rp->t, *y = rp->y, *yw = lp->yw, *dy = lp->dy, *qbuf = lp->qbuf, *eprev = lp->eprev, *tnext = lp->tnext, *tlast = lp->tlast,
            *margin = lp->margin, dtc = lp->dtc;
  PetscBool *trigger = lp->trigger, *sel = lp->sel, new_interval = PETSC_TRUE, have_rhs = PETSC_FALSE;

  PetscFunctionBegin;
  if (rp->monitor && rp->t_next_out <= t) {
    PetscCall(SKRodPairOutput(rp, t, y));
    rp->t_next_out = t + rp->dt_out;
  }
  while (ib < rp->nbreak && rp->breaks[ib] <= t) ib++;
  PetscCall(SKRodPairRHS(rp, t, y, dy));
  SKRodPairEventValues(rp, y, rp->evals0);
  for (PetscInt j = 0; j < N2; j++) rp->armed[j] = rp->evals0[j] > 0 ? PETSC_TRUE : PETSC_FALSE;
  while (t < t_end * (1 - 1e-15)) {
    PetscReal t_stop = PetscMin(t_end, t + dtc), dt, tau_prev = 0, tau_ev = -1;
    PetscBool wrong_way = PETSC_FALSE;
    PetscInt nsamp;

    if (ib < rp->nbreak && rp->breaks[ib] < t_stop) t_stop = rp->breaks[ib];
    dt = t_stop - t;
    if (new_interval) {
      /* y is the full nodal state here; event values are exact */
      PetscCall(StartInterval(mm, t, y, dy, have_rhs));
      for (PetscInt j = 0; j < N2; j++) margin[j] = rp->evals0[j];
      new_interval = PETSC_FALSE;
      have_rhs     = PETSC_FALSE;
    }
    PetscCall(StartStep(mm, t, dt, qbuf));
    rp->steps++;
    /* next-check time of each function from its lower bound at the step start (carried over from the last step); the
       candidates: the functions a bound lets reach zero within the step, in ascending order. A function whose next
       check lies beyond the step never comes back within it (only an evaluation moves its next check), so the
       samples' bookkeeping runs over the candidates, not all 2N. */
    ncand = 0;
    for (PetscInt j = 0; j < N2; j++) {
      eprev[j]   = margin[j];
      tlast[j]   = 0;
      trigger[j] = PETSC_FALSE;
      /* tnext is read only for the candidates: the quotient is formed only where it can be <= dt (margin > rate dt
         (1 + 4 eps) gives a rounded margin / rate > dt), most functions are far from zero */
      if (!(rp->armed[j] && margin[j] > 0))
        tnext[j] = 0;
      else if (margin[j] <= mm->rate[j] * dt * (1 + 4 * PETSC_MACHINE_EPSILON))
        tnext[j] = margin[j] / mm->rate[j];
      else
        continue;
      if (tnext[j] <= dt) cand[ncand++] = j;
    }
    nsamp = (PetscInt)PetscCeilReal(dt / mm->dt_sample - 1e-9);
    for (PetscInt k = 1; k <= nsamp && tau_ev < 0; k++) {
      PetscReal tau, tmin = PETSC_MAX_REAL;
      PetscInt nsel = 0, nwatch = 0, nkeep = 0;
      /* jump to the first sample at or after the earliest time a bound lets a function reach zero: the samples in
         between are certainly event-free, so the cost follows the evaluations, not the sample grid */
      for (PetscInt l = 0; l < ncand; l++) {
        PetscInt j = cand[l];
        if (tnext[j] > dt) {
          trigger[j] = PETSC_FALSE;
          continue;
        }
        tmin          = PetscMin(tmin, tnext[j]);
        cand[nkeep++] = j;
      }
      ncand = nkeep;
      if (tmin > dt) break;
      k        = PetscMax(k, (PetscInt)PetscCeilReal(tmin / dt * nsamp - 1e-9));
      tau      = dt * k / nsamp;
      tau_prev = PetscMax(tau_prev, dt * (k - 1) / nsamp); /* a re-bracket start inside the sample interval is kept */
      for (PetscInt l = 0; l < ncand; l++) {
        PetscInt j = cand[l];
        sel[j]     = tnext[j] <= tau ? PETSC_TRUE : PETSC_FALSE;
        if (sel[j]) lsel[nsel++] = j;
      }
      rp->rhs_evals++;
      PetscCall(FastEvents(mm, EVAL_SAMPLE, t, tau, nsel, lsel, rp->evals1, NULL));
      for (PetscInt l = 0; l < ncand; l++) {
        PetscInt j = cand[l];
        trigger[j] = (sel[j] && !rp->armed[j] && rp->evals1[j] < -mm->noise[j]) ? PETSC_TRUE : PETSC_FALSE;
        if (trigger[j] && j % 2 == 0 && SKRodPairAtTangency(rp, t, j / 2)) trigger[j] = PETSC_FALSE; /* as in RK45 */
        if (sel[j] && rp->armed[j] && rp->evals1[j] <= 0) lwatch[nwatch++] = j;
        wrong_way = (PetscBool)(wrong_way || trigger[j]);
      }
      if (wrong_way && !nwatch) {
        /* a node switched earlier and not yet armed is negative here: either it went the right way first (then arm it
           where it is positive and bracket normally) or it went the wrong way from tau_prev on (re-decide it there) */
        PetscReal tl = tau_prev, tr = tau;
        PetscBool armed_now = PETSC_FALSE;
        PetscInt ntrig      = 0;
        for (PetscInt l = 0; l < ncand; l++) {
          PetscInt j = cand[l];
          sel[j]     = PETSC_FALSE; /* sel: seen positive in the search */
          if (trigger[j]) ltrig[ntrig++] = j;
        }
        for (PetscInt it = 0; it < 60 && tr - tl > 1e-9 * dt + 1e-15; it++) {
          PetscBool ok = PETSC_TRUE;
          tr           = 0.5 * (tl + tr);
          PetscCall(FastEvents(mm, EVAL_WRONG_WAY, t, tr, ntrig, ltrig, rp->evals1, NULL));
          for (PetscInt l = 0; l < ntrig; l++) {
            PetscInt j = ltrig[l];
            if (!(rp->evals1[j] > 0)) ok = PETSC_FALSE;
            if (rp->evals1[j] > 0) sel[j] = PETSC_TRUE;
          }
          if (ok) {
            armed_now = PETSC_TRUE;
            break;
          }
        }
        /* only the functions never seen positive went the wrong way; the others are left alone */
        if (!armed_now) {
          PetscBool left = PETSC_FALSE;
          for (PetscInt l = 0; l < ntrig; l++) {
            PetscInt j = ltrig[l];
            trigger[j] = (PetscBool)(!sel[j]);
            left       = (PetscBool)(left || trigger[j]);
          }
          if (!left) { /* each went positive at some point, not all at once: go on; they are checked at every sample */
            wrong_way = PETSC_FALSE;
            tau_prev  = tau;
            continue;
          }
        }
        if (armed_now) {
          for (PetscInt l = 0; l < ntrig; l++) {
            PetscInt j   = ltrig[l];
            rp->armed[j] = PETSC_TRUE;
            eprev[j]     = rp->evals1[j];
            tnext[j]     = tr;
            tlast[j]     = tr;
          }
          tau_prev  = tr;
          wrong_way = PETSC_FALSE;
          k--; /* bracket [tr, tau] again with the armed nodes */
          continue;
        }
        tau_ev = tau_prev;
        break;
      }
      if (nwatch) {
        /* bracket [tau_prev, tau] (every watched function was positive at tau_prev: evaluated there, or by its bound):
           safeguarded Newton on the min of the watched functions normalised by their values at tau_prev */
        PetscReal b = tau, fa, da, fb, db, ttol = 1e-9 * dt + 1e-15;
        ClosedEvent ev = {mm, t, nwatch, lwatch, eprev, -1};
        /* the rates at tau (its modal values are cached: no trigonometry), then the values and rates at tau_prev; at
           tau_prev every normalised function is 1 and the rate is that of the steepest */
        PetscCall(FastEvents(mm, EVAL_BRACKET, t, tau, nwatch, lwatch, rp->evals1, mm->devb));
        PetscCall(FastEvents(mm, EVAL_BRACKET, t, tau_prev, nwatch, lwatch, eprev, mm->devals));
        fa = 1;
        da = PETSC_MAX_REAL;
        for (PetscInt l = 0; l < nwatch; l++) da = PetscMin(da, mm->devals[lwatch[l]] / eprev[lwatch[l]]);
        WatchedMin(&ev, rp->evals1, mm->devb, &fb, &db);
        PetscCall(LocateEventNewton(&ev, tau_prev, fa, da, tau, fb, db, ttol, &b));
        /* the values at b: from the root finder's last evaluation when that was at b (the same evaluation) */
        if (ev.last != b) PetscCall(FastEvents(mm, EVAL_ROOT, t, b, nwatch, lwatch, rp->evals1, NULL));
        for (PetscInt l = 0; l < ncand; l++) trigger[cand[l]] = PETSC_FALSE;
        for (PetscInt l = 0; l < nwatch; l++) trigger[lwatch[l]] = (PetscBool)(rp->evals1[lwatch[l]] <= 0);
        tau_ev = b;
        break;
      }
      for (PetscInt l = 0; l < nsel; l++) {
        PetscInt j = lsel[l];
        if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
        eprev[j] = rp->evals1[j];
        tlast[j] = tau;
        tnext[j] = (rp->armed[j] && eprev[j] > 0) ? (mm->rate[j] > 0 ? tau + eprev[j] / mm->rate[j] : PETSC_MAX_REAL) : tau;
      }
      tau_prev = tau;
    }
    if (wrong_way && tau_ev == 0) {
      /* a node switched at t goes against its new state at once: re-decide it at t (as in RK45) */
      PetscCheck(++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      PetscCall(SKMMMStateAt(mm, t, 0, y, PETSC_TRUE));
      SKMMMRememberSegments(mm, trigger);
      SKRodPairCountRedecided(rp, t, trigger);
      PetscCall(SwitchAt(rp, t, y, trigger, dy));
      new_interval = PETSC_TRUE;
      have_rhs     = PETSC_TRUE;
      continue;
    }
    stalls = 0;
    {
      PetscReal tau_end = tau_ev >= 0 ? tau_ev : dt;
      /* outputs inside the step, from the closed form */
      while (rp->monitor && (rp->t_next_out < t + tau_end || (tau_ev < 0 && rp->t_next_out <= t + tau_end + 1e-9 * rp->dt_out))) {
        PetscCall(SKMMMStateAt(mm, t, rp->t_next_out - t, yw, PETSC_TRUE));
        PetscCall(SKRodPairOutput(rp, rp->t_next_out, yw));
        rp->t_next_out += rp->dt_out;
      }
      if (tau_ev >= 0) {
        /* the end of the interval: full nodal state, switch, new interval */
        PetscCall(SKMMMStateAt(mm, t, tau_end, y, PETSC_TRUE));
        SKMMMRememberSegments(mm, trigger);
        t += tau_end;
        if (ib < rp->nbreak && t >= rp->breaks[ib]) ib++;
        PetscCall(SwitchAt(rp, t, y, trigger, dy));
        new_interval = PETSC_TRUE;
        have_rhs     = PETSC_TRUE;
      } else {
        /* the interval goes on: carry the closed forms over, nodal rod 1 is not formed */
        PetscBool last = t_stop >= t_end * (1 - 1e-15) ? PETSC_TRUE : PETSC_FALSE; /* the run ends: form the nodal state */
        PetscCall(SKMMMStateAt(mm, t, dt, last ? y : yw, last));
        EndStep(mm, t, dt, last ? y : yw);
        for (PetscInt j = 0; j < N2; j++) margin[j] = (rp->armed[j] && eprev[j] > 0) ? eprev[j] - mm->rate[j] * (dt - tlast[j]) : eprev[j];
        t = t_stop;
        if (ib < rp->nbreak && t >= rp->breaks[ib]) ib++;
      }
    }
  }
  rp->t = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolveMMM(SKRodPair rp, PetscReal t_end)
{
  MMM mm     = {0};
  MMMLoop lp = {0};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(rp->model.N >= 3, rp->comm, PETSC_ERR_SUP, "The mode-matching method needs N >= 3 (uniform chain segments)");
  PetscCheck(rp->load_form_set, rp->comm, PETSC_ERR_SUP,
             "The mode-matching method needs P(t) = Pc + P0 sin(W t + phase) with Pc constant between breakpoints (harmonic, pulse, "
             "constant loads); call SKRodPairSetLoadForm()");
  /* the work arrays are freed whether the solve ends or stops with an error (a full disk, Zeno chatter) */
  ierr = MMMSetUp(rp, &mm, &lp);
  if (!ierr) ierr = MMMRun(&mm, &lp, t_end);
  PetscCall(MMMDestroy(&mm, &lp));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
