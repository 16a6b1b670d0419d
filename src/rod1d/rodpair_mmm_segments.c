/* Mode-matching method: the segments of rod 1 within an interval and their modes (closed form for uniform segments,
   the tridiagonal eigen-solve with a cache for the others), and the projection of the state onto them. */
#include "mmmimpl.h"
#include <string.h>

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
   robust representations, O(n^2) for all pairs where the QL of steqr costs O(n^3)). Writes the mode matrix, row j =
   phi_p(j), to PHI (n x n) and the frequencies (rad/s, ascending) to W. */
static PetscErrorCode SegEigenLAPACK(MMM *mm, const Seg *sg, PetscReal phi[], PetscReal w[])
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenpairs of the non-uniform segment SG into PHI and W as above: in closed form when it is two uniform pieces joined
   at a node (rodpair_mmm_twopiece.c), else by LAPACK (always, with SKRodPairSetMMMEigenSolve). A free-free segment's
   first mode is set to the exact rigid-body mode (w = 0, phi = 1 / sqrt(total mass)). */
static PetscErrorCode SegEigenSolve(MMM *mm, const Seg *sg, PetscReal phi[], PetscReal w[])
{
  const SKRodPairModel *md = &mm->rp->model;
  PetscInt n = sg->n, a = sg->a;
  PetscBool done = PETSC_FALSE;

  PetscFunctionBegin;
  if (!mm->rp->mmm_eigen_always)
    PetscCall(SKMMMTwoPieceEigen(n, sg->left >= 0 ? md->spring[a - 1] : 0, md->spring + a, sg->right >= 0 ? md->spring[a + n - 1] : 0,
                                 md->mass + a, mm->eigwork, phi, w, &done));
  if (done)
    mm->rp->mmm_eig_closed++;
  else
    PetscCall(SegEigenLAPACK(mm, sg, phi, w));
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
  if (sg->fast) { /* the transforms need no matrix; the few rows asked for (end loads, single nodes) are made on the fly */
    sg->phi = sg->wg = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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
  if (md->uniform1 && mm->rp->params.helmet_mass == 0) { /* a helmet makes the head node heavier: tested below */
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

/* lanes of the mode recurrence in SKMMMSegNodesUV: modes p0 .. p0 + 7 side by side in GCC/Clang vectors, one of 8 where
   the machine has 512-bit vectors, else two of 4 (the compilers' own vectorisers left this recurrence scalar; wider
   vectors than the machine's are spilled). Each lane does the same arithmetic either way. */
#define SEG_LANES 8
#define SEG_VW SK_VEC_WIDTH /* stickslip/core.h */
#define SEG_NV (SEG_LANES / SEG_VW)
/* nodes whose recurrences share a pass (NodesUVLanes): 4 with 32 vector registers (AVX-512), else 2 */
#define SEG_NB (SK_VEC_WIDTH == 8 ? 4 : 2)
typedef PetscReal SegLanes __attribute__((vector_size(SEG_VW * sizeof(PetscReal))));

/* u, v of NB (a constant where it is inlined) local nodes IDX of a uniform segment without a mode matrix: one lane
   recurrence per node (SKMMMSegNodesUV), the NB nodes' recurrences side by side in one pass over the modes. A pass of
   one node is a chain of dependent rotations, bound by their latency; NB independent chains fill the vector units,
   and each node's lanes do the same arithmetic in the same order as alone. */
static inline __attribute__((always_inline)) void NodesUVLanes(const Seg *sg, const PetscReal *qv, const PetscReal *qdv, PetscInt nb,
                                                               const PetscInt idx[], PetscReal U[], PetscReal V[])
{
  const PetscInt n  = sg->n;
  PetscBool use_sin = sg->kind == SEG_FIXED_FIXED ? PETSC_TRUE : PETSC_FALSE;
  SegLanes c[SEG_NB][SEG_NV], sn[SEG_NB][SEG_NV], uu[SEG_NB][SEG_NV], vv[SEG_NB][SEG_NV];
  PetscReal cL[SEG_NB], sL[SEG_NB], x[3 * SEG_NB], sx[3 * SEG_NB], cx[3 * SEG_NB];
  PetscInt p = 0;

  for (PetscInt r = 0; r < nb; r++) { /* the three angles of each node, their sines and cosines in one batch */
    PetscInt j = idx[r], J = sg->kind == SEG_FIXED_FREE ? n - 1 - j : (sg->kind == SEG_FIXED_FIXED ? j + 1 : j);
    x[r]          = J * sg->theta0;
    x[nb + r]     = J * sg->dtheta;
    x[2 * nb + r] = SEG_LANES * J * sg->dtheta;
  }
  SKSinCosArray(3 * nb, x, sx, cx);
  for (PetscInt r = 0; r < nb; r++) {
    PetscReal cc = cx[r], ss = sx[r], cy = cx[nb + r], sy = sx[nb + r], c0[SEG_LANES], s0[SEG_LANES];
    if (use_sin) { /* sin x = cos(x - pi/2) */
      PetscReal t = cc;
      cc          = ss;
      ss          = -t;
    }
    sL[r] = sx[2 * nb + r];
    cL[r] = cx[2 * nb + r];
    for (PetscInt l = 0; l < SEG_LANES; l++) { /* lane l starts at mode l */
      PetscReal t = cc * cy - ss * sy;
      c0[l]       = cc;
      s0[l]       = ss;
      ss          = ss * cy + cc * sy;
      cc          = t;
    }
    memcpy(c[r], c0, sizeof(c[r]));
    memcpy(sn[r], s0, sizeof(sn[r]));
    for (PetscInt h = 0; h < SEG_NV; h++) uu[r][h] = vv[r][h] = (SegLanes){0};
  }
  for (; p + SEG_LANES <= n; p += SEG_LANES)
    for (PetscInt h = 0; h < SEG_NV; h++) {
      SegLanes q, qd;
      memcpy(&q, qv + p + SEG_VW * h, sizeof(q));
      memcpy(&qd, qdv + p + SEG_VW * h, sizeof(qd));
      for (PetscInt r = 0; r < nb; r++) {
        SegLanes t;
        uu[r][h] += c[r][h] * q;
        vv[r][h] += c[r][h] * qd;
        t        = c[r][h] * cL[r] - sn[r][h] * sL[r];
        sn[r][h] = sn[r][h] * cL[r] + c[r][h] * sL[r];
        c[r][h]  = t;
      }
    }
  for (PetscInt r = 0; r < nb; r++) {
    PetscReal u = 0, v = 0;
    for (PetscInt l = 0; l < n - p; l++) {
      uu[r][l / SEG_VW][l % SEG_VW] += c[r][l / SEG_VW][l % SEG_VW] * qv[p + l];
      vv[r][l / SEG_VW][l % SEG_VW] += c[r][l / SEG_VW][l % SEG_VW] * qdv[p + l];
    }
    for (PetscInt l = 0; l < SEG_LANES; l++) {
      u += uu[r][l / SEG_VW][l % SEG_VW];
      v += vv[r][l / SEG_VW][l % SEG_VW];
    }
    U[r] = u;
    V[r] = v;
  }
}

/* u, v of the K local nodes IDX of segment SG from its current modal values (SKMMMSegModes), in U, V. Without a mode
   matrix, phi_p(j) = cos(J (theta0 + p dtheta)) (a sine for fixed-fixed ends, taken as the cosine a quarter turn back)
   runs over the modes in SEG_LANES lanes, each lane rotated by SEG_LANES J dtheta per pass: independent recurrences
   across the modes, so one node costs about n / 8 vector operations however few nodes are asked for (an event
   evaluation needs about 5 per segment; running the recurrence across the nodes instead left most lanes empty), and
   up to SEG_NB nodes share a pass (NodesUVLanes). */
void SKMMMSegNodesUV(MMM *mm, const Seg *sg, PetscInt k, const PetscInt idx[], PetscReal U[], PetscReal V[])
{
  const PetscReal *qv = mm->qv + sg->a, *qdv = mm->qdv + sg->a;
  const PetscInt n = sg->n;
  PetscInt b       = 0;

  if (sg->phi) {
    SKMMMRowDots(sg->phi, n, k, idx, qv, qdv, U, V);
    return;
  }
  for (; b + SEG_NB <= k; b += SEG_NB) NodesUVLanes(sg, qv, qdv, SEG_NB, idx + b, U + b, V + b);
#if SEG_NB > 2
  for (; b + 2 <= k; b += 2) NodesUVLanes(sg, qv, qdv, 2, idx + b, U + b, V + b);
#endif
  for (; b < k; b++) NodesUVLanes(sg, qv, qdv, 1, idx + b, U + b, V + b);
}

/* row j of the mode matrix (phi_p(j), p = 0..n-1); valid until the next call */
const PetscReal *SKMMMSegRow(MMM *mm, const Seg *sg, PetscInt j)
{
  if (sg->phi) return sg->phi + (size_t)j * sg->n;
  if (j == 0) return mm->rowL + sg->a;
  if (j == sg->n - 1) return mm->rowR + sg->a;
  SegPhi(sg, j, mm->phi);
  return mm->phi;
}

static PetscReal NodeMass(const MMM *mm, PetscInt i)
{
  return mm->rp->model.mass[i];
}

void SKMMMSegEndRows(MMM *mm, const Seg *s)
{
  if (s->phi) return;
  SegPhi(s, 0, mm->rowL + s->a);
  SegPhi(s, s->n - 1, mm->rowR + s->a);
}

void SKMMMSegSetKind(Seg *s, SegKind kind)
{
  s->kind = kind;
  switch (kind) {
  case SEG_FREE_FREE:
    s->theta0 = 0;
    s->dtheta = PETSC_PI / (s->n - 1);
    s->mass   = s->ms * (s->n - 1) / 2;
    break;
  case SEG_FREE_FIXED:
  case SEG_FIXED_FREE:
    s->theta0 = PETSC_PI / (2 * s->n);
    s->dtheta = PETSC_PI / s->n;
    s->mass   = s->ms * s->n / 2;
    break;
  case SEG_FIXED_FIXED:
    s->theta0 = PETSC_PI / (s->n + 1);
    s->dtheta = PETSC_PI / (s->n + 1);
    s->mass   = s->ms * (s->n + 1) / 2;
    break;
  }
}

PetscErrorCode SKMMMBuildSegments(MMM *mm)
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
    s->fast    = (PetscBool)(!s->general && s->n >= mm->tr.nmin);
    s->wset    = PETSC_FALSE;
    SKMMMSegSetKind(s, s->left < 0 ? (s->right < 0 ? SEG_FREE_FREE : SEG_FREE_FIXED) : (s->right < 0 ? SEG_FIXED_FREE : SEG_FIXED_FIXED));
    PetscCall(SegMatrix(mm, s, pass));
    SKMMMSegEndRows(mm, s);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Once per interval (fixed stick/slip state): modal coordinates of every segment from the nodal state (a transform
   or a dense pass per segment), and the modal projection of the (constant) slip friction. Later coupling steps of the
   same interval carry the modal coordinates over in closed form and only re-project the sparse end loads. */
void SKMMMRememberSegments(MMM *mm, const PetscBool trigger[])
{
  mm->nprev = mm->nseg;
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg    = &mm->seg[s];
    mm->prev_a[s]    = sg->a;
    mm->prev_n[s]    = sg->n;
    mm->prev_kind[s] = (PetscInt)sg->kind;
    /* a switched node may keep its segment (stuck and released at once) with its velocity set to rod 2's meanwhile */
    for (PetscInt j = sg->a; j < sg->a + sg->n; j++)
      if (trigger[2 * j] || trigger[2 * j + 1]) mm->prev_n[s] = -1;
  }
}

/* was SG a segment of the interval that just ended (same nodes, same ends)? The segments are ordered by first node. */
static PetscBool SegCarried(const MMM *mm, const Seg *sg)
{
  PetscInt lo = 0, hi = mm->nprev - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (mm->prev_a[mid] == sg->a) return (PetscBool)(mm->prev_n[mid] == sg->n && mm->prev_kind[mid] == (PetscInt)sg->kind);
    if (mm->prev_a[mid] < sg->a)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return PETSC_FALSE;
}

PetscErrorCode SKMMMProjectInterval(MMM *mm, const PetscReal y[])
{
  PetscInt N         = mm->N;
  const PetscReal *u = y, *v = y + N;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < mm->nseg; s++) {
    Seg *sg    = &mm->seg[s];
    PetscInt a = sg->a, n = sg->n, nv = 3;
    PetscReal *X[3] = {mm->xw, mm->xw + N, mm->xw + 2 * N}, *S[3] = {mm->q0 + a, mm->qd0 + a, mm->gF + a};
    sg->wset = SegCarried(mm, sg);
    if (sg->wset) {
      /* the segment's modes are unchanged, and qv, qdv are its modal values at the event: the state y there was
         reconstructed from them, so projecting it again would return them up to round-off. The slip friction is
         re-projected only if it changed (a node reversed its slip or entered rod 2 within the segment). */
      PetscBool same_F = PETSC_TRUE;
      for (PetscInt p = 0; p < n; p++) {
        mm->q0[a + p]  = mm->qv[a + p];
        mm->qd0[a + p] = mm->qdv[a + p];
      }
      for (PetscInt j = 0; j < n && same_F; j++) same_F = (PetscBool)(mm->Ffric[a + j] == mm->Fprev[a + j]);
      if (same_F) continue;
      X[0] = X[2];
      S[0] = S[2];
      nv   = 1;
    } else {
      for (PetscInt j = 0; j < n; j++) {
        PetscReal mi = NodeMass(mm, a + j);
        X[0][j]      = mi * u[a + j];
        X[1][j]      = mi * v[a + j];
      }
    }
    for (PetscInt j = 0; j < n; j++) X[2][j] = mm->Ffric[a + j];
    PetscCall(SKMMMSegProject(mm, sg, nv, (const PetscReal **)X, S));
    for (PetscInt p = 0; p < n; p++) {
      PetscReal Mp = SKMMMModalMass(sg, p);
      for (PetscInt k = 0; k < nv; k++) S[k][p] /= Mp;
    }
  }
  mm->nprev = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
