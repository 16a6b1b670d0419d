/* Mode-matching method (Tsetas et al. 2022, Sect. 3.2) for the rod pair. Within an interval of fixed stick/slip state,
   rod 1 splits into segments of non-sticking nodes whose ends are free (rod ends, half mass) or attached to sticking
   nodes. A uniform segment's eigenpairs are closed form and depend only on its length and end types:
     free-free   phi_p(j) = cos(j p pi/(n-1))                 free-fixed phi_p(j) = cos(j (2p+1) pi/(2n))
     fixed-fixed phi_p(j) = sin((j+1)(p+1) pi/(n+1))         fixed-free: free-fixed mirrored
   with w_p = 2 sqrt(k/m) sin(theta_p/2). Their modal responses to constant friction, a linear ramp of the end nodes
   (sticking nodes move with rod 2) and P(t) = Pc + P0 sin(W t + phase) are closed form (Duhamel). Rod 2 keeps its own
   modes; the sticking nodes and slipping friction load it as pseudo-forces (the paper's [37]) that are interpolated
   linearly over a coupling step and integrated exactly. The end of an interval, the first stick->slip or slip->stick
   transition, is bracketed on samples of the closed form and located by regula falsi; switching reuses the logic of
   the reference integrator (SKRodPairResolve), so both solve the same semi-discrete model. */
#include "rodpairimpl.h"
#include "shared/sincos.h"
#include <petscblaslapack.h>

typedef enum { SEG_FREE_FREE, SEG_FREE_FIXED, SEG_FIXED_FREE, SEG_FIXED_FIXED } SegKind;

typedef struct {
  PetscInt a, n, left, right; /* first node, node count, sticking neighbours (-1: free rod end) */
  SegKind kind;
  PetscReal theta0, dtheta; /* theta_p = theta0 + p dtheta */
  PetscReal mass;           /* modal mass (kg), the same for all p except the free-free end modes */
  const PetscReal *phi;     /* n x n mode matrix, row j = phi_p(j): from the cache below */
  PetscBool general;        /* no closed form: mass-normalised eigenpairs (modal mass 1) of the tridiagonal solve */
  PetscReal ks, ms;         /* uniform: spring (N/m) and interior node mass (kg) */
  const PetscReal *wg;      /* general: the n frequencies (rad/s), stored after the mode matrix */
} Seg;

/* Mode matrices of uniform segments depend only on (end types, length), those of non-uniform ones on (first node,
   length): a small cache of them keyed so (key SEG_GENERAL + first node for non-uniform ones), preallocated, reused
   across intervals (the same few segments recur as nodes near the tip switch), least recently used slot replaced. A
   non-uniform segment seen before thus costs no new eigen-solve. */
#define SEG_GENERAL 4
typedef struct {
  PetscInt nslot, cap, clock;
  PetscInt *kind, *n, *used;
  PetscReal *data; /* nslot x cap: mode matrix (n x n), then the n frequencies of a non-uniform segment */
} PhiCache;

typedef struct {
  SKRodPair rp;
  PetscInt N, Nm, nseg;
  Seg *seg;
  PetscReal wmax, P0, W, phase, Pc; /* wmax: bound of the rod-1 frequencies (rad/s) */
  /* per rod-1 mode (indexed a + p): frequency and closed-form coefficients of q_p(tau) */
  PetscReal *w, *c0, *c1, *pa, *A, *B, *q0, *qd0, *g0, *g1, *gP;
  PetscReal *phi;                     /* work: one node's mode values */
  PetscReal *us0, *vs, *eta0, *etad0; /* start of the coupling step: sticking nodes, rod 2 */
  PetscReal *eA, *eB, *eQ0, *eS;      /* rod-2 closed form: eta = eQ0/w^2 + eS tau/w^2 + eA cos + eB sin */
  PetscReal *Ffric;                   /* slip friction of each node over the interval (N) */
  PetscReal *gF;                      /* modal projection of the slip friction, phi_p . F / M_p (N) */
  PetscReal *Qslip;                   /* rod-2 modal load of the slip friction over the interval (Nm) */
  PetscReal *alag;                    /* acceleration of each sticking node, lagged by one coupling step (N) */
  PetscReal W0, D0;                   /* work and dissipation at the start of the coupling step */
  PetscReal dt_sample;
  PhiCache cache;
  PetscReal *scratch;                             /* N x N + N: mode matrices of non-uniform segments when the cache is full */
  PetscReal *eigd, *eige, *eigz, *eigw, *eigwork; /* tridiagonal eigen-solve: diagonal, off-diagonal, vectors, values, work */
  PetscBLASInt *eigiwork;                         /* its integer work and support of the vectors */
  /* fast event evaluation: per-segment modal values cached at one tau, rod 2 at one tau, Lipschitz bounds */
  PetscInt *segof;                   /* segment of each node, -1 if sticking */
  PetscReal *segtau, *qv, *qdv;      /* tau of the cached modal values of each segment; q, qdot (N) */
  PetscReal *cwv, *swv;              /* cos, sin (w_p tau) of the cached modal values (N) */
  PetscReal *arg;                    /* work: w_p tau (N) */
  PetscReal r2tau, *et, *etd, *etdd; /* rod 2 at r2tau */
  PetscReal *cw2, *sw2;              /* cos, sin (omega_n r2tau) (Nm) */
  PetscReal *gstart, *lenS;          /* coupling (N x Nm) and clipped length of each node at the step start */
  PetscReal *capS;                   /* static capacity mu_s N_F (clipped length) of each node at the interval start (N) */
  PetscReal *bv, *ba;                /* per segment: bounds of |velocity| and |acceleration| of its nodes */
  PetscReal b2v, b2a, b2j;           /* rod 2: bounds of |velocity|, |acceleration|, |jerk| under any node */
  PetscReal *rate;                   /* bound of |d e_j / d tau| per event function (2N) */
  PetscReal *noise;                  /* round-off level of each event function: a just-switched node is "going the
                                        wrong way" only beyond it (with mu_s = mu_k a release is marginal) */
} MMM;

#define ETA_OFF(mm) (2 * (mm)->N)
#define ETAD_OFF(mm) (2 * (mm)->N + (mm)->Nm)

/* phi_p(j) for p = 0..n-1 at local node j, by rotation (no trigonometric call per mode) */
static void SegPhi(const Seg *s, PetscInt j, PetscReal phi[])
{
  PetscInt J  = s->kind == SEG_FIXED_FREE ? s->n - 1 - j : (s->kind == SEG_FIXED_FIXED ? j + 1 : j);
  PetscReal x = J * s->theta0, y = J * s->dtheta;
  PetscReal c = PetscCosReal(x), sn = PetscSinReal(x), cy = PetscCosReal(y), sy = PetscSinReal(y), t;
  PetscBool use_sin = s->kind == SEG_FIXED_FIXED ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt p = 0; p < s->n; p++) {
    phi[p] = use_sin ? sn : c;
    t      = c * cy - sn * sy;
    sn     = sn * cy + c * sy;
    c      = t;
  }
}

/* Mass-normalised eigenpairs of the non-uniform segment SG (springs to sticking neighbours included, their ends held):
   K phi = w^2 M phi as the symmetric tridiagonal M^-1/2 K M^-1/2 solved by LAPACK's stegr (through PETSc; relatively
   robust representations, O(n^2) for all pairs where the QL of steqr costs O(n^3)). Writes the
   mode matrix, row j = phi_p(j), to PHI (n x n) and the frequencies (rad/s, ascending) to W. A free-free segment's
   first mode is set to the exact rigid-body mode (w = 0, phi = 1 / sqrt(total mass)). */
static PetscErrorCode SegEigenSolve(MMM *mm, const Seg *sg, PetscReal phi[], PetscReal w[])
{
  const SKRodPairModel *md = &mm->rp->model;
  PetscInt n = sg->n, a = sg->a;
  PetscBLASInt bn, m = 0, lwork, liwork, il = 0, iu = 0, info = 0;
  PetscReal vl = 0, vu = 0, abstol = 0;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(18 * n, &lwork));
  PetscCall(PetscBLASIntCast(10 * n, &liwork));
  for (PetscInt j = 0; j < n; j++) {
    PetscReal kl = (j > 0 || sg->left >= 0) ? md->spring[a + j - 1] : 0, kr = (j < n - 1 || sg->right >= 0) ? md->spring[a + j] : 0;
    mm->eigd[j] = (kl + kr) / md->mass[a + j];
    if (j < n - 1) mm->eige[j] = -md->spring[a + j] / PetscSqrtReal(md->mass[a + j] * md->mass[a + j + 1]);
  }
  mm->eige[n - 1] = 0;
  PetscCallBLAS("LAPACKstegr", LAPACKstegr_("V", "A", &bn, mm->eigd, mm->eige, &vl, &vu, &il, &iu, &abstol, &m, mm->eigw, mm->eigz, &bn,
                                            mm->eigiwork + 10 * n, mm->eigwork, &lwork, mm->eigiwork, &liwork, &info));
  PetscCheck(info == 0 && m == bn, PETSC_COMM_SELF, PETSC_ERR_LIB,
             "LAPACK stegr failed with info %d (%d of %" PetscInt_FMT " pairs) on a rod-1 segment", (int)info, (int)m, n);
  for (PetscInt p = 0; p < n; p++) {
    w[p] = PetscSqrtReal(PetscMax(mm->eigw[p], 0));
    for (PetscInt j = 0; j < n; j++) phi[j * n + p] = mm->eigz[j + p * n] / PetscSqrtReal(md->mass[a + j]);
  }
  if (sg->kind == SEG_FREE_FREE) {
    PetscReal M = 0;
    for (PetscInt j = 0; j < n; j++) M += md->mass[a + j];
    w[0] = 0;
    for (PetscInt j = 0; j < n; j++) phi[j * n] = 1 / PetscSqrtReal(M);
  }
  mm->rp->mmm_eig_solves++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mode matrix of SG from the cache. When every slot holds a matrix of the current segmentation, NULL for a uniform
   segment (it then evaluates its modes on the fly) and the segment's own part of the scratch for a non-uniform one.
   PASS is the clock value when the current segmentation started. Sets sg->phi (and sg->wg). */
static PetscErrorCode SegMatrix(MMM *mm, Seg *sg, PetscInt pass)
{
  PhiCache *c  = &mm->cache;
  PetscInt key = sg->general ? SEG_GENERAL + sg->a : (PetscInt)sg->kind, k, lru = -1;
  PetscReal *d;

  PetscFunctionBegin;
  for (k = 0; k < c->nslot; k++)
    if (c->kind[k] == key && c->n[k] == sg->n) break;
  if (k < c->nslot) {
    if (sg->general) mm->rp->mmm_eig_hits++;
  } else {
    for (PetscInt q = 0; q < c->nslot; q++)
      if (c->used[q] <= pass && (lru < 0 || c->used[q] < c->used[lru])) lru = q;
    if (lru < 0) {
      sg->phi = NULL;
      if (sg->general) { /* segments of a segmentation are disjoint: [a N, (a + n) N) holds n x n */
        sg->phi = mm->scratch + (size_t)sg->a * mm->N;
        sg->wg  = mm->scratch + (size_t)mm->N * mm->N + sg->a;
        PetscCall(SegEigenSolve(mm, sg, (PetscReal *)sg->phi, (PetscReal *)sg->wg));
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    k          = lru;
    c->kind[k] = key;
    c->n[k]    = sg->n;
    d          = c->data + (size_t)k * c->cap;
    if (sg->general)
      PetscCall(SegEigenSolve(mm, sg, d, d + (size_t)sg->n * sg->n));
    else
      for (PetscInt j = 0; j < sg->n; j++) SegPhi(sg, j, d + (size_t)j * sg->n);
  }
  c->used[k] = ++c->clock;
  sg->phi    = c->data + (size_t)k * c->cap;
  sg->wg     = sg->general ? sg->phi + (size_t)sg->n * sg->n : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Is the segment SG uniform (closed-form eigenpairs)? Then its spring and interior node mass in ks, ms. All its springs
   (to sticking neighbours included) and its node masses (doubled at the free rod ends) must be equal. */
static PetscBool SegUniform(const MMM *mm, Seg *sg)
{
  const SKRodPairModel *md = &mm->rp->model;
  PetscInt k0 = sg->left >= 0 ? sg->a - 1 : sg->a, k1 = sg->right >= 0 ? sg->a + sg->n - 1 : sg->a + sg->n - 2;

  if (mm->rp->mmm_eigen_always) return PETSC_FALSE;
  if (md->uniform1) {
    sg->ks = md->spring[0];
    sg->ms = md->mass[1];
    return PETSC_TRUE;
  }
  sg->ks = md->spring[PetscMax(k0, 0)];
  sg->ms = 0;
  for (PetscInt k = k0; k <= k1; k++)
    if (md->spring[k] != sg->ks) return PETSC_FALSE;
  for (PetscInt j = sg->a; j < sg->a + sg->n; j++) {
    PetscReal mj = (j == 0 || j == mm->N - 1) ? 2 * md->mass[j] : md->mass[j];
    if (j == sg->a)
      sg->ms = mj;
    else if (mj != sg->ms)
      return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* row j of the mode matrix (phi_p(j), p = 0..n-1); valid until the next call */
static const PetscReal *SegRow(MMM *mm, const Seg *sg, PetscInt j)
{
  if (sg->phi) return sg->phi + (size_t)j * sg->n;
  SegPhi(sg, j, mm->phi);
  return mm->phi;
}

static PetscReal NodeMass(const MMM *mm, PetscInt i)
{
  return mm->rp->model.mass[i];
}

static PetscErrorCode BuildSegments(MMM *mm)
{
  const SKRodNodeState *st = mm->rp->state;
  PetscInt N               = mm->N;

  PetscInt pass = mm->cache.clock;

  PetscFunctionBegin;
  mm->nseg = 0;
  for (PetscInt i = 0; i < N; i++) mm->segof[i] = -1;
  for (PetscInt i = 0; i < N;) {
    if (st[i] == SK_ROD_STICK) {
      i++;
      continue;
    }
    Seg *s = &mm->seg[mm->nseg++];
    s->a   = i;
    while (i < N && st[i] != SK_ROD_STICK) i++;
    s->n = i - s->a;
    for (PetscInt j = s->a; j < i; j++) mm->segof[j] = mm->nseg - 1;
    s->left    = s->a == 0 ? -1 : s->a - 1;
    s->right   = i == N ? -1 : i;
    s->general = SegUniform(mm, s) ? PETSC_FALSE : PETSC_TRUE;
    if (s->left < 0 && s->right < 0) {
      s->kind   = SEG_FREE_FREE;
      s->theta0 = 0;
      s->dtheta = PETSC_PI / (s->n - 1);
      s->mass   = s->ms * (s->n - 1) / 2;
    } else if (s->left < 0 || s->right < 0) {
      s->kind   = s->left < 0 ? SEG_FREE_FIXED : SEG_FIXED_FREE;
      s->theta0 = PETSC_PI / (2 * s->n);
      s->dtheta = PETSC_PI / s->n;
      s->mass   = s->ms * s->n / 2;
    } else {
      s->kind   = SEG_FIXED_FIXED;
      s->theta0 = PETSC_PI / (s->n + 1);
      s->dtheta = PETSC_PI / (s->n + 1);
      s->mass   = s->ms * (s->n + 1) / 2;
    }
    PetscCall(SegMatrix(mm, s, pass));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal ModalMass(const Seg *s, PetscInt p)
{
  if (s->general) return 1;
  if (s->kind == SEG_FREE_FREE && (p == 0 || p == s->n - 1)) return 2 * s->mass;
  return s->mass;
}

/* Once per interval (fixed stick/slip state): modal coordinates of every segment from the nodal state, O(n^2) per
   segment, and the modal projection of the (constant) slip friction. Later coupling steps of the same interval carry
   the modal coordinates over in closed form and only re-project the sparse end loads. */
static void ProjectInterval(MMM *mm, const PetscReal y[])
{
  PetscInt N         = mm->N;
  const PetscReal *u = y, *v = y + N;

  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    for (PetscInt p = 0; p < sg->n; p++) mm->q0[sg->a + p] = mm->qd0[sg->a + p] = mm->gF[sg->a + p] = 0;
    for (PetscInt j = 0; j < sg->n; j++) {
      PetscInt i           = sg->a + j;
      PetscReal mi         = NodeMass(mm, i);
      const PetscReal *row = SegRow(mm, sg, j);
      for (PetscInt p = 0; p < sg->n; p++) {
        PetscReal ph = row[p];
        mm->q0[sg->a + p] += ph * mi * u[i];
        mm->qd0[sg->a + p] += ph * mi * v[i];
        mm->gF[sg->a + p] += ph * mm->Ffric[i];
      }
    }
    for (PetscInt p = 0; p < sg->n; p++) {
      PetscReal Mp = ModalMass(sg, p);
      mm->q0[sg->a + p] /= Mp;
      mm->qd0[sg->a + p] /= Mp;
      mm->gF[sg->a + p] /= Mp;
    }
  }
}

/* adds c phi_p(j) / M_p to g[a + p] for all modes of segment sg (a point load c at local node j) */
static void AddPointLoad(MMM *mm, const Seg *sg, PetscInt j, PetscReal c, PetscReal g[])
{
  const PetscReal *row;
  if (c == 0) return;
  row = SegRow(mm, sg, j);
  for (PetscInt p = 0; p < sg->n; p++) g[sg->a + p] += c * row[p] / ModalMass(sg, p);
}

/* Closed-form coefficients of every mode for a coupling step from t0, given q0, qd0: constant friction and Pc, the
   ramps k (us0 + vs tau) of the sticking end neighbours, and P0 sin(W t + phase) at node 0 */
static void SetupCoefficients(MMM *mm, PetscReal t0)
{
  PetscReal psi = mm->W * t0 + mm->phase, wmax = mm->wmax;

  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
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
    for (PetscInt p = 0; p < sg->n; p++) {
      PetscInt ip  = sg->a + p;
      PetscReal w  = sg->general ? sg->wg[p] : 2 * PetscSqrtReal(sg->ks / sg->ms) * PetscSinReal(0.5 * (sg->theta0 + p * sg->dtheta));
      PetscReal w2 = w * w, D;
      mm->w[ip]    = w;
      if (w < 1e-9 * wmax) continue; /* rigid-body mode: kept as q0, qd0, g0, g1, gP */
      D = w2 - mm->W * mm->W;
      if (PetscAbsReal(D) < 1e-9 * w2) D = 1e-9 * w2; /* exact resonance: detuned by 1e-9 */
      mm->c0[ip] = mm->g0[ip] / w2;
      mm->c1[ip] = mm->g1[ip] / w2;
      mm->pa[ip] = mm->gP[ip] / D;
      mm->A[ip]  = mm->q0[ip] - mm->c0[ip] - mm->pa[ip] * PetscSinReal(psi);
      mm->B[ip]  = (mm->qd0[ip] - mm->c1[ip] - mm->pa[ip] * mm->W * PetscCosReal(psi)) / w;
    }
  }
}

/* sin and cos of x: the modal closed forms need them for every mode at every evaluation time (core.h) */
static inline void SinCos(PetscReal x, PetscReal *s, PetscReal *c)
{
  SKSinCos(x, s, c);
}

/* sin and cos of the load phase W (t0 + tau) + phase at tau and at the step start */
typedef struct {
  PetscReal s, c, s0, c0;
} LoadPhase;

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

/* modal values of segment s at tau (q, qdot, cos and sin of w tau), cached until the tau or the coefficients change:
   one sin/cos per mode and evaluation time (a vectorised batch), shared by the nodal values, the events, the energy
   terms and EndStep. Flexible modes: q = c0 + c1 tau + pa sin(W t + phase) + A cos(w tau) + B sin(w tau). */
static void SegModes(MMM *mm, PetscInt s, PetscReal t0, PetscReal tau)
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
  for (PetscInt p = 0; p < n; p++) arg[p] = w[p] * tau;
  SKSinCosArray(n, arg, sw, cw);
  {
    const PetscReal sP = L.s, WcP = mm->W * L.c;
    for (PetscInt p = 0; p < n; p++) {
      qv[p]  = c0[p] + c1[p] * tau + pa[p] * sP + A[p] * cw[p] + B[p] * sw[p];
      qdv[p] = c1[p] + pa[p] * WcP + w[p] * (B[p] * cw[p] - A[p] * sw[p]);
    }
  }
  if (sg->kind == SEG_FREE_FREE && IsRigidMode(mm, a)) RigidModeAt(mm, a, tau, &L, &qv[0], &qdv[0]); /* cw = 1, sw = 0 already */
  mm->segtau[s] = tau;
}

/* rod 2 in closed form at tau of the coupling step (cached) */
static void Rod2At(MMM *mm, PetscReal tau)
{
  const SKRodPairModel *md = &mm->rp->model;

  if (mm->r2tau == tau) return;
  for (PetscInt n = 0; n < mm->Nm; n++) {
    PetscReal w = md->omega[n], w2 = w * w, c, s;
    SinCos(w * tau, &s, &c);
    mm->et[n]   = mm->eQ0[n] / w2 + mm->eS[n] * tau / w2 + mm->eA[n] * c + mm->eB[n] * s;
    mm->etd[n]  = mm->eS[n] / w2 + w * (mm->eB[n] * c - mm->eA[n] * s);
    mm->etdd[n] = -w2 * (mm->eA[n] * c + mm->eB[n] * s);
    mm->cw2[n]  = c;
    mm->sw2[n]  = s;
  }
  mm->r2tau = tau;
}

/* rod-1 displacement and velocity of every node of the segments at tau (sticking nodes are not touched) */
static void Rod1At(MMM *mm, PetscReal t0, PetscReal tau, PetscReal y[])
{
  PetscInt N = mm->N;

  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    SegModes(mm, s, t0, tau);
    for (PetscInt j = 0; j < sg->n; j++) {
      PetscReal uu = 0, vv = 0;
      const PetscReal *row = SegRow(mm, sg, j);
      for (PetscInt p = 0; p < sg->n; p++) {
        uu += row[p] * mm->qv[sg->a + p];
        vv += row[p] * mm->qdv[sg->a + p];
      }
      y[sg->a + j]     = uu;
      y[N + sg->a + j] = vv;
    }
  }
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

/* Work of P(s) = Pc + P0 sin(W s + psi) over [0, tau] on a velocity v(s) = c1 + pa W cos(W s + psi) + sum_m w_m (B_m cos
   w_m s - A_m sin w_m s) (the modal closed form, rod 1 or rod 2, weighted by the mode values at node 0): exact, from
   cos/sin(w_m tau) already computed for the state at tau. The rigid-body mode is added by WorkRigid(). */
typedef struct {
  PetscReal Pc, P0, W, tau;
  LoadPhase L;
  PetscReal sum; /* accumulated work (J) */
} WorkAcc;

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
    const PetscReal *row = SegRow(mm, sg, 0);
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
static void StateAt(MMM *mm, PetscReal t0, PetscReal tau, PetscReal y[], PetscBool rod1)
{
  SKRodPair rp = mm->rp;
  PetscInt N = mm->N, Nm = mm->Nm;
  PetscReal diss = 0;

  Rod2At(mm, tau);
  for (PetscInt s = 0; s < mm->nseg; s++) SegModes(mm, s, t0, tau);
  if (rod1) Rod1At(mm, t0, tau, y);
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
    for (PetscInt p = 0; p < sg->n; p++) diss -= ModalMass(sg, p) * mm->gF[sg->a + p] * (mm->qv[sg->a + p] - mm->q0[sg->a + p]);
  }
  for (PetscInt n = 0; n < Nm; n++) diss -= mm->Qslip[n] * (mm->et[n] - mm->eta0[n]);
  y[rp->n - 2] = mm->W0 + WorkOfP(mm, t0, tau);
  y[rp->n - 1] = mm->D0 + diss;
}

/* displacement and velocity of node i at tau from the closed forms */
static void NodeUV(MMM *mm, PetscReal t0, PetscReal tau, PetscInt i, PetscReal *u, PetscReal *v)
{
  PetscInt s = mm->segof[i], Nm = mm->Nm;

  if (s < 0) {
    const PetscReal *g = mm->rp->gstick + i * Nm;
    PetscReal du = 0, vv = 0;
    Rod2At(mm, tau);
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
    SegModes(mm, s, t0, tau);
    row = SegRow(mm, sg, i - sg->a);
    for (PetscInt p = 0; p < sg->n; p++) {
      uu += row[p] * mm->qv[sg->a + p];
      vv += row[p] * mm->qdv[sg->a + p];
    }
    *u = uu;
    *v = vv;
  }
}

/* Event values of the selected functions at tau from the closed forms, with the same meaning as
   SKRodPairEventValues(): slipping nodes s (v - g . etadot), sticking nodes mu_s N_F len - |F| with the holding force
   F = m g . etadd - (spring forces) - P, contact gaps. Only what a function needs is evaluated: O(n + N_m) each. */
static void FastEvents(MMM *mm, PetscReal t0, PetscReal tau, const PetscBool sel[], PetscReal e[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm;

  for (PetscInt i = 0; i < N; i++) {
    PetscReal u, v;
    if (!sel[2 * i] && !sel[2 * i + 1]) continue;
    NodeUV(mm, t0, tau, i, &u, &v);
    if (sel[2 * i + 1]) {
      PetscReal zbar = md->z[i] + u - md->l1, gap = PetscMin(zbar + md->hr[i], md->L2 + md->hl[i] - zbar);
      e[2 * i + 1] = rp->state[i] == SK_ROD_FREE ? (md->cap_s[0] > 0 ? -gap : 1) : gap;
    }
    if (!sel[2 * i]) continue;
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      e[2 * i] = 1;
      break;
    case SK_ROD_SLIP_POS:
    case SK_ROD_SLIP_NEG: {
      const PetscReal *g = mm->gstart + i * Nm;
      PetscReal w        = 0;
      Rod2At(mm, tau);
      for (PetscInt n = 0; n < Nm; n++) w += g[n] * mm->etd[n];
      e[2 * i] = (rp->state[i] == SK_ROD_SLIP_POS ? 1 : -1) * (v - w);
    } break;
    case SK_ROD_STICK: {
      const PetscReal *g = rp->gstick + i * Nm;
      PetscReal a = 0, fint = i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0, un, vn;
      Rod2At(mm, tau);
      for (PetscInt n = 0; n < Nm; n++) a += g[n] * mm->etdd[n];
      if (i > 0) {
        NodeUV(mm, t0, tau, i - 1, &un, &vn);
        fint += md->spring[i - 1] * (un - u);
      }
      if (i < N - 1) {
        NodeUV(mm, t0, tau, i + 1, &un, &vn);
        fint += md->spring[i] * (un - u);
      }
      e[2 * i] = mm->capS[i] - PetscAbsReal(md->mass[i] * a - fint);
    } break;
    }
  }
}

/* The watched event functions from the closed forms at tau, each normalised by its value at the bracket's start. */
typedef struct {
  MMM *mm;
  PetscReal t0;
  const PetscBool *watch;
  const PetscReal *eprev;
} ClosedEvent;

static PetscErrorCode ClosedEventMin(void *ctx, PetscReal tau, PetscReal *fmin)
{
  ClosedEvent *ev = (ClosedEvent *)ctx;
  SKRodPair rp    = ev->mm->rp;

  PetscFunctionBegin;
  FastEvents(ev->mm, ev->t0, tau, ev->watch, rp->evals1);
  *fmin = PETSC_MAX_REAL;
  for (PetscInt j = 0; j < 2 * ev->mm->N; j++)
    if (ev->watch[j]) *fmin = PetscMin(*fmin, rp->evals1[j] / ev->eprev[j]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lipschitz bounds of the event functions over the coupling step, from the modal amplitudes: a function with value
   e > 0 cannot reach zero before e / rate, so it is not evaluated until then. */
static void SetupBounds(MMM *mm, PetscReal dt)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N               = mm->N;
  PetscReal W = mm->W, wmax = mm->wmax;

  mm->b2v = mm->b2a = mm->b2j = 0;
  for (PetscInt n = 0; n < mm->Nm; n++) {
    PetscReal w = md->omega[n], R = PetscAbsReal(mm->eA[n]) + PetscAbsReal(mm->eB[n]);
    mm->b2v += w * R + PetscAbsReal(mm->eS[n]) / (w * w);
    mm->b2a += w * w * R + PetscAbsReal(mm->eS[n]) / (w * w) * 0; /* forcing is inside the closed form's homogeneous part */
    mm->b2j += w * w * w * R;
  }
  mm->b2v *= md->psi_amp;
  mm->b2a *= md->psi_amp;
  mm->b2j *= md->psi_amp;
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
    PetscInt s          = mm->segof[i];
    PetscReal bv        = s < 0 ? mm->b2v : mm->bv[s];
    mm->rate[2 * i + 1] = bv;
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      mm->rate[2 * i] = 0;
      break;
    case SK_ROD_SLIP_POS:
    case SK_ROD_SLIP_NEG:
      mm->rate[2 * i] = mm->ba[s] + mm->b2a;
      break;
    case SK_ROD_STICK: {
      PetscReal kl = i > 0 ? md->spring[i - 1] : 0, kr = i < N - 1 ? md->spring[i] : 0;
      PetscReal r =
          md->mass[i] * mm->b2j + md->cap_s[i] * mm->b2v + 2 * PetscMax(kl, kr) * mm->b2v + (i == 0 ? PetscAbsReal(mm->P0) * W : 0);
      if (i > 0) r += kl * (mm->segof[i - 1] < 0 ? mm->b2v : mm->bv[mm->segof[i - 1]]);
      if (i < N - 1) r += kr * (mm->segof[i + 1] < 0 ? mm->b2v : mm->bv[mm->segof[i + 1]]);
      mm->rate[2 * i] = r;
    } break;
    }
  }
}

/* Rod-2 modal load Qslip + sum over sticking nodes of g_i (spring forces + P - m_i a_i) at tau of the coupling step,
   with the sticking nodes on their ramps us0 + vs tau and their accelerations lagged (pseudo-forces) */
static void Rod2Load(MMM *mm, PetscReal t0, PetscReal tau, PetscReal Q[])
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
    f  = (i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0) - md->mass[i] * mm->alag[i];
    for (PetscInt nb = i - 1; nb <= i + 1; nb += 2) {
      PetscReal un, vn;
      if (nb < 0 || nb >= N) continue;
      if (rp->state[nb] == SK_ROD_STICK)
        un = mm->us0[nb] + mm->vs[nb] * tau;
      else
        NodeUV(mm, t0, tau, nb, &un, &vn);
      f += md->spring[PetscMin(i, nb)] * (un - ui);
    }
    for (PetscInt n = 0; n < Nm; n++) Q[n] += g[n] * f;
  }
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
  PetscCall(BuildSegments(mm));
  if (!have_rhs) PetscCall(SKRodPairRHS(rp, t0, y, dy)); /* else: dy, forces and relative velocities are current */
  SKRodPairEventValues(rp, y, rp->evals0);
  for (PetscInt n = 0; n < Nm; n++) mm->Qslip[n] = 0;
  for (PetscInt i = 0; i < N; i++) {
    mm->Ffric[i] = (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) ? rp->force[i] : 0;
    mm->us0[i]   = y[i];
    mm->vs[i]    = y[N + i];
    mm->alag[i]  = dy[N + i];
    mm->lenS[i]  = SKRodPairCoupling(md, md->z[i] + y[i] - md->l1, md->hl[i], md->hr[i], mm->gstart + i * Nm);
    if (mm->Ffric[i] != 0)
      for (PetscInt n = 0; n < Nm; n++) mm->Qslip[n] -= mm->Ffric[i] * mm->gstart[i * Nm + n];
    mm->capS[i]          = SKRodPairCapacity(md, i, md->z[i] + y[i] - md->l1, PETSC_FALSE);
    mm->noise[2 * i]     = rp->state[i] == SK_ROD_STICK ? 1e-9 * mm->capS[i] : rp->atol * md->omega1_rod1;
    mm->noise[2 * i + 1] = rp->atol;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    mm->eta0[n]  = y[ETA_OFF(mm) + n];
    mm->etad0[n] = y[ETAD_OFF(mm) + n];
  }
  mm->W0 = y[rp->n - 2];
  mm->D0 = y[rp->n - 1];
  ProjectInterval(mm, y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts a coupling step [t0, t0 + dt] of the current interval: mode coefficients, rod-2 pseudo-forces at both ends
   (linear in between) and rod-2 closed form, event bounds. O(n) per segment plus O(N_m) per sticking node. */
static void StartStep(MMM *mm, PetscReal t0, PetscReal dt, PetscReal Qwork[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt Nm              = mm->Nm;

  mm->Pc = rp->load(rp->load_ctx, t0 + 0.5 * dt) - mm->P0 * PetscSinReal(mm->W * (t0 + 0.5 * dt) + mm->phase);
  SetupCoefficients(mm, t0);
  for (PetscInt s = 0; s < mm->nseg; s++) mm->segtau[s] = -1;
  mm->r2tau = -1;
  Rod2Load(mm, t0, 0, mm->eQ0);
  Rod2Load(mm, t0, dt, Qwork);
  for (PetscInt n = 0; n < Nm; n++) {
    PetscReal w = md->omega[n], w2 = w * w;
    mm->eS[n] = (Qwork[n] - mm->eQ0[n]) / dt;
    mm->eA[n] = mm->eta0[n] - mm->eQ0[n] / w2;
    mm->eB[n] = (mm->etad0[n] - mm->eS[n] / w2) / w;
  }
  SetupBounds(mm, dt);
}

/* Ends a coupling step without event at tau = dt: the closed forms there become the next step's initial values, in
   modal form (no projection); the nodal state y is not needed. */
static void EndStep(MMM *mm, PetscReal t0, PetscReal dt, const PetscReal y_end[])
{
  SKRodPair rp = mm->rp;
  PetscInt N = mm->N, Nm = mm->Nm;

  Rod2At(mm, dt);
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    SegModes(mm, s, t0, dt);
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
  PetscCall(SKRodPairResolve(rp, t, y, trigger));
  PetscCall(PetscArraycpy(dy, rp->ytmp, rp->n));
  SKRodPairEventValues(rp, y, rp->evals0);
  SKRodPairArmAfterEvent(rp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolveMMM(SKRodPair rp, PetscReal t_end)
{
  MMM mm     = {0};
  PetscInt N = rp->model.N, Nm = rp->model.Nm, n = rp->n, N2 = 2 * N, ib = 0, stalls = 0;
  PetscReal t = rp->t, *y = rp->y, *yw, *dy, *qbuf, *eprev, *tnext, *tlast, *margin, dtc, wmax;
  PetscBool *watch, *trigger, *sel, new_interval = PETSC_TRUE, have_rhs = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(N >= 3, rp->comm, PETSC_ERR_SUP, "The mode-matching method needs N >= 3 (uniform chain segments)");
  PetscCheck(rp->load_form_set, rp->comm, PETSC_ERR_SUP,
             "The mode-matching method needs P(t) = Pc + P0 sin(W t + phase) with Pc constant between breakpoints (harmonic, pulse, "
             "constant loads); call SKRodPairSetLoadForm()");
  mm.rp    = rp;
  mm.N     = N;
  mm.Nm    = Nm;
  mm.P0    = rp->load_P0;
  mm.W     = rp->load_W;
  mm.phase = rp->load_phase;
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
  mm.wmax = wmax;
  /* samples for bracketing events: a fraction of the shortest period of rod 1 and of the retained rod-2 modes */
  mm.dt_sample = rp->mmm_sample / PetscMax(wmax, rp->model.omega[Nm - 1]);
  /* coupling (pseudo-force) step: resolves the retained rod-2 modes, independent of the rod-1 spacing */
  dtc = PetscMin(rp->mmm_coupling / rp->model.omega[Nm - 1], rp->hmax);
  PetscCall(PetscCalloc1(N, &mm.seg));
  /* mode-matrix cache: up to 16 slots of N x N within 32 MB (at least 2) */
  mm.cache.cap   = N * N + N;
  mm.cache.nslot = PetscMax(2, PetscMin(16, (PetscInt)(32.0 * 1024 * 1024 / (8.0 * mm.cache.cap))));
  PetscCall(PetscMalloc1((size_t)mm.cache.nslot * mm.cache.cap, &mm.cache.data));
  PetscCall(PetscCalloc3(mm.cache.nslot, &mm.cache.kind, mm.cache.nslot, &mm.cache.n, mm.cache.nslot, &mm.cache.used));
  for (PetscInt k = 0; k < mm.cache.nslot; k++) mm.cache.n[k] = -1;
  PetscCall(PetscMalloc5((size_t)N * N + N, &mm.scratch, N, &mm.eigd, N, &mm.eige, (size_t)N * N, &mm.eigz, 18 * N, &mm.eigwork));
  PetscCall(PetscMalloc3(N, &mm.eigw, 12 * N, &mm.eigiwork, N, &mm.capS));
  rp->mmm_eig_solves = rp->mmm_eig_hits = 0;
  PetscCall(PetscCalloc5(N, &mm.w, N, &mm.c0, N, &mm.c1, N, &mm.pa, N, &mm.A));
  PetscCall(PetscCalloc5(N, &mm.B, N, &mm.q0, N, &mm.qd0, N, &mm.g0, N, &mm.g1));
  PetscCall(PetscCalloc3(N, &mm.gP, N, &mm.phi, N, &mm.us0));
  PetscCall(PetscCalloc4(N, &mm.vs, Nm, &mm.eta0, Nm, &mm.etad0, N, &mm.Ffric));
  PetscCall(PetscCalloc4(Nm, &mm.eA, Nm, &mm.eB, Nm, &mm.eQ0, Nm, &mm.eS));
  PetscCall(PetscMalloc4(n, &yw, n, &dy, Nm, &qbuf, N2, &eprev));
  PetscCall(PetscMalloc3(N2, &watch, N2, &trigger, N2, &sel));
  PetscCall(PetscMalloc3(N2, &tnext, N2, &tlast, N2, &margin));
  PetscCall(PetscCalloc3(N, &mm.gF, Nm, &mm.Qslip, N, &mm.alag));
  PetscCall(PetscCalloc5(N, &mm.segof, N, &mm.segtau, N, &mm.qv, N, &mm.qdv, Nm, &mm.et));
  PetscCall(PetscCalloc5(Nm, &mm.etd, Nm, &mm.etdd, (size_t)N * Nm, &mm.gstart, N, &mm.lenS, N, &mm.bv));
  PetscCall(PetscCalloc3(N, &mm.ba, N2, &mm.rate, N2, &mm.noise));
  PetscCall(PetscCalloc5(N, &mm.cwv, N, &mm.swv, Nm, &mm.cw2, Nm, &mm.sw2, N, &mm.arg));

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
      PetscCall(StartInterval(&mm, t, y, dy, have_rhs));
      for (PetscInt j = 0; j < N2; j++) margin[j] = rp->evals0[j];
      new_interval = PETSC_FALSE;
      have_rhs     = PETSC_FALSE;
    }
    StartStep(&mm, t, dt, qbuf);
    rp->steps++;
    /* next-check time of each function from its lower bound at the step start (carried over from the last step) */
    for (PetscInt j = 0; j < N2; j++) {
      eprev[j] = margin[j];
      tnext[j] = (rp->armed[j] && margin[j] > 0) ? (mm.rate[j] > 0 ? margin[j] / mm.rate[j] : PETSC_MAX_REAL) : 0;
      tlast[j] = 0;
    }
    nsamp = (PetscInt)PetscCeilReal(dt / mm.dt_sample - 1e-9);
    for (PetscInt k = 1; k <= nsamp && tau_ev < 0; k++) {
      PetscReal tau, tmin = PETSC_MAX_REAL;
      PetscBool any = PETSC_FALSE;
      /* jump to the first sample at or after the earliest time a bound lets a function reach zero: the samples in
         between are certainly event-free, so the cost follows the evaluations, not the sample grid */
      for (PetscInt j = 0; j < N2; j++) tmin = PetscMin(tmin, tnext[j]);
      if (tmin > dt) break;
      k        = PetscMax(k, (PetscInt)PetscCeilReal(tmin / dt * nsamp - 1e-9));
      tau      = dt * k / nsamp;
      tau_prev = PetscMax(tau_prev, dt * (k - 1) / nsamp); /* a re-bracket start inside the sample interval is kept */
      for (PetscInt j = 0; j < N2; j++) sel[j] = tnext[j] <= tau ? PETSC_TRUE : PETSC_FALSE;
      rp->rhs_evals++;
      FastEvents(&mm, t, tau, sel, rp->evals1);
      for (PetscInt j = 0; j < N2; j++) {
        watch[j]   = (sel[j] && rp->armed[j] && rp->evals1[j] <= 0) ? PETSC_TRUE : PETSC_FALSE;
        trigger[j] = (sel[j] && !rp->armed[j] && rp->evals1[j] < -mm.noise[j]) ? PETSC_TRUE : PETSC_FALSE;
        if (trigger[j] && j % 2 == 0 && SKRodPairAtTangency(rp, t, j / 2)) trigger[j] = PETSC_FALSE; /* as in RK45 */
        any       = (PetscBool)(any || watch[j]);
        wrong_way = (PetscBool)(wrong_way || trigger[j]);
      }
      if (wrong_way && !any) {
        /* a node switched earlier and not yet armed is negative here: either it went the right way first (then arm it
           where it is positive and bracket normally) or it went the wrong way from tau_prev on (re-decide it there) */
        PetscReal tl = tau_prev, tr = tau;
        PetscBool armed_now = PETSC_FALSE;
        for (PetscInt j = 0; j < N2; j++) sel[j] = PETSC_FALSE; /* sel: seen positive in the search */
        for (PetscInt it = 0; it < 60 && tr - tl > 1e-9 * dt + 1e-15; it++) {
          PetscBool ok = PETSC_TRUE;
          tr           = 0.5 * (tl + tr);
          FastEvents(&mm, t, tr, trigger, rp->evals1);
          for (PetscInt j = 0; j < N2; j++) {
            if (trigger[j] && !(rp->evals1[j] > 0)) ok = PETSC_FALSE;
            if (trigger[j] && rp->evals1[j] > 0) sel[j] = PETSC_TRUE;
          }
          if (ok) {
            armed_now = PETSC_TRUE;
            break;
          }
        }
        /* only the functions never seen positive went the wrong way; the others are left alone */
        if (!armed_now) {
          PetscBool left = PETSC_FALSE;
          for (PetscInt j = 0; j < N2; j++) {
            trigger[j] = (PetscBool)(trigger[j] && !sel[j]);
            left       = (PetscBool)(left || trigger[j]);
          }
          if (!left) { /* each went positive at some point, not all at once: go on; they are checked at every sample */
            wrong_way = PETSC_FALSE;
            tau_prev  = tau;
            continue;
          }
        }
        if (armed_now) {
          for (PetscInt j = 0; j < N2; j++) {
            if (trigger[j]) {
              rp->armed[j] = PETSC_TRUE;
              eprev[j]     = rp->evals1[j];
              tnext[j]     = tr;
              tlast[j]     = tr;
            }
          }
          tau_prev  = tr;
          wrong_way = PETSC_FALSE;
          k--; /* bracket [tr, tau] again with the armed nodes */
          continue;
        }
        tau_ev = tau_prev;
        break;
      }
      if (any) {
        /* bracket [tau_prev, tau] (every watched function was positive at tau_prev: evaluated there, or by its bound):
           regula falsi (Illinois) on the min of the watched functions normalised by their values at tau_prev */
        PetscReal b, fb = PETSC_MAX_REAL, ttol = 1e-9 * dt + 1e-15;
        ClosedEvent ev = {&mm, t, watch, eprev};
        FastEvents(&mm, t, tau_prev, watch, eprev);
        for (PetscInt j = 0; j < N2; j++)
          if (watch[j]) fb = PetscMin(fb, rp->evals1[j] / eprev[j]);
        PetscCall(SKRodPairLocateEvent(ClosedEventMin, &ev, tau_prev, tau, 1, fb, 1, ttol, &b));
        FastEvents(&mm, t, b, watch, rp->evals1);
        for (PetscInt j = 0; j < N2; j++) trigger[j] = (PetscBool)(watch[j] && rp->evals1[j] <= 0);
        tau_ev = b;
        break;
      }
      for (PetscInt j = 0; j < N2; j++) {
        if (!sel[j]) continue;
        if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
        eprev[j] = rp->evals1[j];
        tlast[j] = tau;
        tnext[j] = (rp->armed[j] && eprev[j] > 0) ? (mm.rate[j] > 0 ? tau + eprev[j] / mm.rate[j] : PETSC_MAX_REAL) : tau;
      }
      tau_prev = tau;
    }
    if (wrong_way && tau_ev == 0) {
      /* a node switched at t goes against its new state at once: re-decide it at t (as in RK45) */
      PetscCheck(++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      StateAt(&mm, t, 0, y, PETSC_TRUE);
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
        StateAt(&mm, t, rp->t_next_out - t, yw, PETSC_TRUE);
        PetscCall(SKRodPairOutput(rp, rp->t_next_out, yw));
        rp->t_next_out += rp->dt_out;
      }
      if (tau_ev >= 0) {
        /* the end of the interval: full nodal state, switch, new interval */
        StateAt(&mm, t, tau_end, y, PETSC_TRUE);
        t += tau_end;
        if (ib < rp->nbreak && t >= rp->breaks[ib]) ib++;
        PetscCall(SwitchAt(rp, t, y, trigger, dy));
        new_interval = PETSC_TRUE;
        have_rhs     = PETSC_TRUE;
      } else {
        /* the interval goes on: carry the closed forms over, nodal rod 1 is not formed */
        PetscBool last = t_stop >= t_end * (1 - 1e-15) ? PETSC_TRUE : PETSC_FALSE; /* the run ends: form the nodal state */
        StateAt(&mm, t, dt, last ? y : yw, last);
        EndStep(&mm, t, dt, last ? y : yw);
        for (PetscInt j = 0; j < N2; j++) margin[j] = (rp->armed[j] && eprev[j] > 0) ? eprev[j] - mm.rate[j] * (dt - tlast[j]) : eprev[j];
        t = t_stop;
        if (ib < rp->nbreak && t >= rp->breaks[ib]) ib++;
      }
    }
  }
  rp->t = t;
  PetscCall(PetscFree(mm.seg));
  PetscCall(PetscFree(mm.cache.data));
  PetscCall(PetscFree3(mm.cache.kind, mm.cache.n, mm.cache.used));
  PetscCall(PetscFree5(mm.scratch, mm.eigd, mm.eige, mm.eigz, mm.eigwork));
  PetscCall(PetscFree3(mm.eigw, mm.eigiwork, mm.capS));
  PetscCall(PetscFree5(mm.w, mm.c0, mm.c1, mm.pa, mm.A));
  PetscCall(PetscFree5(mm.B, mm.q0, mm.qd0, mm.g0, mm.g1));
  PetscCall(PetscFree3(mm.gP, mm.phi, mm.us0));
  PetscCall(PetscFree4(mm.vs, mm.eta0, mm.etad0, mm.Ffric));
  PetscCall(PetscFree4(mm.eA, mm.eB, mm.eQ0, mm.eS));
  PetscCall(PetscFree4(yw, dy, qbuf, eprev));
  PetscCall(PetscFree3(watch, trigger, sel));
  PetscCall(PetscFree3(tnext, tlast, margin));
  PetscCall(PetscFree3(mm.gF, mm.Qslip, mm.alag));
  PetscCall(PetscFree5(mm.segof, mm.segtau, mm.qv, mm.qdv, mm.et));
  PetscCall(PetscFree5(mm.etd, mm.etdd, mm.gstart, mm.lenS, mm.bv));
  PetscCall(PetscFree3(mm.ba, mm.rate, mm.noise));
  PetscCall(PetscFree5(mm.cwv, mm.swv, mm.cw2, mm.sw2, mm.arg));
  PetscFunctionReturn(PETSC_SUCCESS);
}
