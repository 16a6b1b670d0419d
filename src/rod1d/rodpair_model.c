/* Semi-discrete rod-pair model: lumped-mass chain for rod 1, free-fixed modes for rod 2 (rodpair_rod2.c), and their coupling.
   Pure kernels on plain arrays; no state beyond the model struct. */
#include "rodpairimpl.h"
#include "shared/sincos.h"
#include <string.h>

/* Integral over [a, b] (m) of rod 1 of 1 / EA (COMPLIANCE, m/N) or of rho A (kg), segment by segment */
static PetscReal SegmentIntegral(const SKRodPairParams *p, PetscReal a, PetscReal b, PetscBool compliance)
{
  PetscReal z0 = 0, sum = 0;
  for (PetscInt s = 0; s < p->nseg1; s++) {
    PetscReal z1 = s == p->nseg1 - 1 ? PetscMax(p->L1, b) : z0 + p->seg1_length[s], lo = PetscMax(a, z0), hi = PetscMin(b, z1);
    if (hi > lo) sum += (hi - lo) * (compliance ? 1 / p->seg1_EA[s] : p->seg1_rhoA[s]);
    z0 = z1;
  }
  return sum;
}

/* The segment of rod 1 that holds the element [a, b] of nominal length H whole, or -1 when a segment boundary lies
   inside it. A boundary within 1e-12 H of a node counts as at the node: the piece of the other material it would cut
   off changes the element's spring and mass by at most that relative amount, below the round-off of the node positions
   i H that the element's ends carry anyway. */
static PetscInt SegmentOf(const SKRodPairParams *p, PetscReal a, PetscReal b, PetscReal h)
{
  PetscReal z0 = 0, tol = 1e-12 * h;
  for (PetscInt s = 0; s < p->nseg1; s++) {
    PetscReal z1 = s == p->nseg1 - 1 ? PetscMax(p->L1, b) : z0 + p->seg1_length[s];
    if (a >= z0 - tol && b <= z1 + tol) return s;
    z0 = z1;
  }
  return -1;
}

/* Segments of a rod (WHAT, e.g. "Segment", of ROD, e.g. "rod 1"): positive properties, lengths summing to L (1e-9 relative) */
static PetscErrorCode CheckSegments(const char what[], const char rod[], PetscInt n, const PetscReal length[], const PetscReal EA[],
                                    const PetscReal rhoA[], PetscReal L)
{
  PetscReal sum = 0;

  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt s = 0; s < n; s++) {
    PetscCheck(length[s] > 0 && EA[s] > 0 && rhoA[s] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "%s %" PetscInt_FMT " of %s needs positive length, EA, rhoA, got %g %g %g", what, s, rod, (double)length[s], (double)EA[s],
               (double)rhoA[s]);
    sum += length[s];
  }
  PetscCheck(PetscAbsReal(sum - L) <= 1e-9 * L, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%ss of %s sum to %g m, not its length %g m",
             what, rod, (double)sum, (double)L);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairModelCreate(const SKRodPairParams *p, SKRodPairModel *m)
{
  PetscInt N = p->N;

  PetscFunctionBegin;
  PetscCheck(N >= 1 && p->Nm >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Need N >= 1 and Nm >= 1, got %" PetscInt_FMT ", %" PetscInt_FMT, N, p->Nm);
  PetscCheck((p->nseg1 > 0 || (p->EA1 > 0 && p->rhoA1 > 0)) && p->L1 > 0 && (p->nseg2 > 0 || (p->EA2 > 0 && p->rhoA2 > 0)) && p->L2 > 0,
             PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Rod properties must be positive");
  PetscCheck(p->nseg2 >= 0 && p->nseg2 <= SK_RODPAIR_MAX_SEGMENTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Rod 2 needs 0 to %d layers, got %" PetscInt_FMT, SK_RODPAIR_MAX_SEGMENTS, p->nseg2);
  PetscCall(CheckSegments("Layer", "rod 2", p->nseg2, p->seg2_length, p->seg2_EA, p->seg2_rhoA, p->L2));
  PetscCheck(p->nseg1 >= 0 && p->nseg1 <= SK_RODPAIR_MAX_SEGMENTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Rod 1 needs 0 to %d segments, got %" PetscInt_FMT, SK_RODPAIR_MAX_SEGMENTS, p->nseg1);
  PetscCall(CheckSegments("Segment", "rod 1", p->nseg1, p->seg1_length, p->seg1_EA, p->seg1_rhoA, p->L1));
  PetscCheck(p->l1 >= 0 && p->l1 < p->L1 && p->L1 - p->l1 <= p->L2 * (1 + 1e-12), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Need 0 <= l1 < L1 and L1 - l1 <= L2");
  PetscCheck(p->nfric > 0 || (p->mu_k >= 0 && p->mu_k <= p->mu_s && p->NF >= 0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Need 0 <= mu_k <= mu_s and NF >= 0");
  PetscCheck(p->nfric >= 0 && p->nfric <= SK_RODPAIR_MAX_SEGMENTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Friction profile needs 0 to %d points, got %" PetscInt_FMT, SK_RODPAIR_MAX_SEGMENTS, p->nfric);
  for (PetscInt k = 0; k < p->nfric; k++)
    PetscCheck(p->fric_mu_k[k] >= 0 && p->fric_mu_k[k] <= p->fric_mu_s[k] && p->fric_NF[k] >= 0 &&
                   (k == 0 ? p->fric_depth[0] == 0 : p->fric_depth[k] > p->fric_depth[k - 1]) &&
                   (k < p->nfric - 1 || p->fric_depth[k] >= p->L2),
               PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "Friction point %" PetscInt_FMT " (depth %g m): need depths from 0 increasing to >= L2, 0 <= mu_k <= mu_s, NF >= 0", k,
               (double)p->fric_depth[k]);
  PetscCall(PetscMemzero(m, sizeof(*m)));
  m->N  = N;
  m->Nm = p->Nm;
  m->l1 = p->l1;
  m->L2 = p->L2;
  PetscCall(PetscCalloc1(N, &m->z));
  PetscCall(PetscCalloc1(N, &m->mass));
  PetscCall(PetscCalloc1(N > 1 ? N - 1 : 1, &m->spring));
  PetscCall(PetscCalloc1(N, &m->hl));
  PetscCall(PetscCalloc1(N, &m->hr));
  PetscCall(PetscCalloc1(N, &m->cap_s));
  PetscCall(PetscCalloc1(N, &m->cap_k));
  PetscCall(PetscMalloc1(p->Nm, &m->omega));
  m->uniform1 = p->nseg1 == 0 ? PETSC_TRUE : PETSC_FALSE;
  if (N == 1) {
    /* a rigid rod: one node at the tip whose tributary segment is the whole initial contact [0, L1 - l1] */
    m->z[0]    = p->L1;
    m->mass[0] = m->uniform1 ? p->rhoA1 * p->L1 : SegmentIntegral(p, 0, p->L1, PETSC_FALSE);
    m->hl[0]   = p->L1 - p->l1;
  } else if (!m->uniform1) {
    /* element [z_i, z_i+1]: its springs in series, 1 / int dz / EA, and half its mass int rho A dz at each end */
    PetscReal h = p->L1 / (N - 1);
    for (PetscInt i = 0; i < N; i++) {
      m->z[i]  = i * h;
      m->hl[i] = i == 0 ? 0 : h / 2;
      m->hr[i] = i == N - 1 ? 0 : h / 2;
    }
    for (PetscInt i = 0; i < N - 1; i++) {
      PetscReal a = i * h, b = i == N - 2 ? p->L1 : (i + 1) * h, me;
      PetscInt s = SegmentOf(p, a, b, h);
      if (s >= 0) { /* within one segment: EA / h and rho A h exactly, so that its runs of elements are bitwise uniform */
        m->spring[i] = p->seg1_EA[s] / h;
        me           = p->seg1_rhoA[s] * h;
      } else {
        m->spring[i] = 1 / SegmentIntegral(p, a, b, PETSC_TRUE);
        me           = SegmentIntegral(p, a, b, PETSC_FALSE);
      }
      m->mass[i] += me / 2;
      m->mass[i + 1] += me / 2;
    }
  } else {
    PetscReal h = p->L1 / (N - 1);
    for (PetscInt i = 0; i < N; i++) {
      m->z[i]    = i * h;
      m->mass[i] = p->rhoA1 * h * ((i == 0 || i == N - 1) ? 0.5 : 1.0);
      m->hl[i]   = i == 0 ? 0 : h / 2;
      m->hr[i]   = i == N - 1 ? 0 : h / 2;
      if (i < N - 1) m->spring[i] = p->EA1 / h;
    }
  }
  if (p->helmet_mass > 0) m->mass[0] += p->helmet_mass; /* a hammer's helmet rests on the head */
  /* per unit length here; SKRodPairCoupling returns the clipped length the capacity applies to */
  m->nfric = p->nfric;
  if (p->nfric > 0) {
    PetscReal qs = 0, qk = 0;
    PetscCall(PetscMalloc4(p->nfric, &m->fz, p->nfric, &m->fmus, p->nfric, &m->fmuk, p->nfric, &m->fnf));
    for (PetscInt k = 0; k < p->nfric; k++) {
      m->fz[k]   = p->fric_depth[k];
      m->fmus[k] = p->fric_mu_s[k];
      m->fmuk[k] = p->fric_mu_k[k];
      m->fnf[k]  = p->fric_NF[k];
      qs         = PetscMax(qs, p->fric_mu_s[k] * p->fric_NF[k]);
      qk         = PetscMax(qk, p->fric_mu_k[k] * p->fric_NF[k]);
    }
    for (PetscInt i = 0; i < N; i++) m->cap_s[i] = qs, m->cap_k[i] = qk; /* bounds (the MMM's event rates, friction present) */
  } else
    for (PetscInt i = 0; i < N; i++) {
      m->cap_s[i] = p->mu_s * p->NF;
      m->cap_k[i] = p->mu_k * p->NF;
    }
  PetscCall(SKRodPairRod2Modes(p, m));
  if (m->uniform1)
    m->omega1_rod1 = PETSC_PI / p->L1 * PetscSqrtReal(p->EA1 / p->rhoA1);
  else { /* pi over the travel time of a wave through rod 1: the uniform rod's value for equal segments */
    PetscReal T = 0;
    for (PetscInt s = 0; s < p->nseg1; s++) T += p->seg1_length[s] * PetscSqrtReal(p->seg1_rhoA[s] / p->seg1_EA[s]);
    m->omega1_rod1 = PETSC_PI / T;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairModelDestroy(SKRodPairModel *m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(m->z));
  PetscCall(PetscFree(m->mass));
  PetscCall(PetscFree(m->spring));
  PetscCall(PetscFree(m->hl));
  PetscCall(PetscFree(m->hr));
  PetscCall(PetscFree(m->cap_s));
  PetscCall(PetscFree(m->cap_k));
  PetscCall(PetscFree(m->omega));
  PetscCall(SKRodPairRod2Destroy(m));
  if (m->nfric > 0) PetscCall(PetscFree4(m->fz, m->fmus, m->fmuk, m->fnf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the steps of the coupling recurrence, written once for the scalar (SKRodPairCoupling) and the vector lanes
   (SKRodPairCouplings), so that both make the same operations: (c2, s2) = cos, sin of the doubled angle of (c, s), and
   (c, s) rotated by it (t: a temporary) */
#define COUPLING_DOUBLE(c, s, c2, s2) ((c2) = (c) * (c) - (s) * (s), (s2) = 2 * (s) * (c))
#define COUPLING_ROTATE(c, s, c2, s2, t) ((t) = (c) * (c2) - (s) * (s2), (s) = (s) * (c2) + (c) * (s2), (c) = (t))

/* g_n = psi_amp cos(k_n c) sin(k_n d/2) / (k_n d/2) on the clipped segment of centre c and length d, which avoids the
   cancellation of sin(k b) - sin(k a) on short segments. The odd multiples (2n - 1) of k1 are generated by rotation,
   so a node costs two sin/cos pairs (SKSinCos) and O(Nm) multiplications. */
PetscReal SKRodPairCoupling(const SKRodPairModel *m, PetscReal zbar, PetscReal hl, PetscReal hr, PetscReal g[])
{
  PetscReal a = PetscMax(zbar - hl, 0), b = PetscMin(zbar + hr, m->L2);
  PetscReal d, c, xc, xd, cc, sc, c2, s2, cd, sd, d2c, d2s;

  if (b <= a) {
    for (PetscInt n = 0; n < m->Nm; n++) g[n] = 0;
    return 0;
  }
  if (m->nlay2 > 0) {
    SKRodPairRod2Average(m, a, b, g);
    return b - a;
  }
  d  = b - a;
  c  = 0.5 * (a + b);
  xc = m->k1 * c;
  xd = 0.5 * m->k1 * d;
  SKSinCos(xc, &sc, &cc);
  SKSinCos(xd, &sd, &cd);
  COUPLING_DOUBLE(cc, sc, c2, s2); /* the doubled angles by the double-angle formulas (within an ulp or two) */
  COUPLING_DOUBLE(cd, sd, d2c, d2s);
  for (PetscInt n = 0; n < m->Nm; n++) {
    PetscReal x = (2 * n + 1) * xd, t;
    g[n]        = m->psi_amp * cc * (x > 1e-8 ? sd / x : 1.0);
    COUPLING_ROTATE(cc, sc, c2, s2, t);
    COUPLING_ROTATE(cd, sd, d2c, d2s, t);
  }
  return d;
}

/* mu N_F at depth z of the profile (linear mu and N_F between points, constant outside) */
static PetscReal ProfileAt(const SKRodPairModel *m, PetscBool kinetic, PetscReal z)
{
  const PetscReal *mu = kinetic ? m->fmuk : m->fmus;
  PetscInt k = 0, n = m->nfric;
  PetscReal s;

  if (z <= m->fz[0]) return mu[0] * m->fnf[0];
  if (z >= m->fz[n - 1]) return mu[n - 1] * m->fnf[n - 1];
  while (m->fz[k + 1] < z) k++;
  s = (z - m->fz[k]) / (m->fz[k + 1] - m->fz[k]);
  return (mu[k] + s * (mu[k + 1] - mu[k])) * (m->fnf[k] + s * (m->fnf[k + 1] - m->fnf[k]));
}

/* the integral of mu N_F, a quadratic between profile points, by Simpson's rule on each piece: exact */
/* lanes of SKRodPairCouplings: four nodes side by side in a GCC/Clang vector (the per-node recurrence over the modes
   is a serial chain of rotations, latency-bound one node at a time) */
typedef PetscReal CouplingLanes __attribute__((vector_size(4 * sizeof(PetscReal))));
typedef long long CouplingMask __attribute__((vector_size(4 * sizeof(long long))));

PetscInt SKRodPairCouplings(const SKRodPairModel *m, PetscInt k, const PetscInt idx[], const PetscReal zbar[], PetscReal *g[],
                            PetscReal len[])
{
  PetscInt done = 0;

  if (m->nlay2 > 0) return 0;
  for (PetscInt b0 = 0; b0 + 4 <= k; b0 += 4) {
    CouplingLanes cc, sc, cd, sd, c2, s2, d2c, d2s, xd, xc, one = {1, 1, 1, 1};
    PetscReal x[8], sn[8], cs[8];
    PetscBool ok = PETSC_TRUE;
    for (PetscInt l = 0; l < 4; l++) {
      PetscInt i  = idx[b0 + l];
      PetscReal a = PetscMax(zbar[b0 + l] - m->hl[i], 0), b = PetscMin(zbar[b0 + l] + m->hr[i], m->L2), d = b - a, c = 0.5 * (a + b);
      if (b <= a) ok = PETSC_FALSE; /* off rod 2: the scalar path's zero vector */
      len[b0 + l] = d;
      xc[l]       = m->k1 * c;
      xd[l]       = 0.5 * m->k1 * d;
    }
    if (!ok) break;
    memcpy(x, &xc, sizeof(xc));
    memcpy(x + 4, &xd, sizeof(xd));
    SKSinCosArray(8, x, sn, cs); /* the two angles of the four nodes in one vectorised batch */
    memcpy(&sc, sn, sizeof(sc));
    memcpy(&cc, cs, sizeof(cc));
    memcpy(&sd, sn + 4, sizeof(sd));
    memcpy(&cd, cs + 4, sizeof(cd));
    COUPLING_DOUBLE(cc, sc, c2, s2);
    COUPLING_DOUBLE(cd, sd, d2c, d2s);
    for (PetscInt n = 0; n < m->Nm; n++) {
      CouplingLanes x = (2 * n + 1) * xd, t, r, q = sd / x;
      CouplingMask big = x > 1e-8; /* x > 1e-8 ? sd / x : 1, lane by lane */
      r                = (CouplingLanes)(((CouplingMask)q & big) | ((CouplingMask)one & ~big));
      t                = m->psi_amp * cc * r;
      for (PetscInt l = 0; l < 4; l++) g[b0 + l][n] = t[l];
      COUPLING_ROTATE(cc, sc, c2, s2, t);
      COUPLING_ROTATE(cd, sd, d2c, d2s, t);
    }
    done = b0 + 4;
  }
  return done;
}

PetscReal SKRodPairCapacity(const SKRodPairModel *m, PetscInt i, PetscReal zbar, PetscBool kinetic)
{
  PetscReal a = PetscMax(zbar - m->hl[i], 0), b = PetscMin(zbar + m->hr[i], m->L2), sum = 0;

  if (b <= a) return 0;
  if (m->nfric == 0) return (kinetic ? m->cap_k[i] : m->cap_s[i]) * (b - a);
  for (PetscInt k = 0; k <= m->nfric && a < b; k++) {
    PetscReal hi = k < m->nfric ? PetscMin(b, m->fz[k]) : b;
    if (hi <= a) continue;
    sum += (hi - a) / 6 * (ProfileAt(m, kinetic, a) + 4 * ProfileAt(m, kinetic, 0.5 * (a + hi)) + ProfileAt(m, kinetic, hi));
    a = hi;
  }
  return sum;
}

void SKRodPairInternalForce(const SKRodPairModel *m, const PetscReal u[], PetscReal f[])
{
  for (PetscInt i = 0; i < m->N; i++) f[i] = 0;
  for (PetscInt i = 0; i < m->N - 1; i++) {
    PetscReal s = m->spring[i] * (u[i + 1] - u[i]);
    f[i] += s;
    f[i + 1] -= s;
  }
}

void SKRodPairModelEnergy(const SKRodPairModel *m, const PetscReal u[], const PetscReal v[], const PetscReal eta[], const PetscReal etad[],
                          PetscReal e[4])
{
  e[0] = e[1] = e[2] = e[3] = 0;
  for (PetscInt i = 0; i < m->N; i++) e[0] += 0.5 * m->mass[i] * v[i] * v[i];
  for (PetscInt i = 0; i < m->N - 1; i++) e[1] += 0.5 * m->spring[i] * (u[i + 1] - u[i]) * (u[i + 1] - u[i]);
  for (PetscInt n = 0; n < m->Nm; n++) {
    e[2] += 0.5 * etad[n] * etad[n];
    e[3] += 0.5 * m->omega[n] * m->omega[n] * eta[n] * eta[n];
  }
}

/* Rod 1's chain represents a wave of wavenumber k at the frequency (2/tau) sin(k h/2), tau = h/c the time a wave takes
   to cross an element (the slowest element of a non-uniform rod 1), against c k in the continuum: within 1 % while
   x = k h/2 <= 0.2453 (sin x / x = 0.99), i.e. up to the frequency 2 x / tau. Rod 2's mode n lies near
   (2n - 1) pi / (2 T2), T2 the time a wave takes to travel along rod 2 (exact for a uniform rod 2), so the modes reach
   that frequency from n = 2 x T2 / (pi tau) + 1/2 on. At least 50, the fixed default this rule replaced. */
PetscInt SKRodPairDefaultModes(const SKRodPairParams *p)
{
  const PetscReal x = 0.2453178088540263;
  PetscReal slow1 = 0, T2 = 0;
  PetscInt n;

  if (p->nseg1 == 0) slow1 = PetscSqrtReal(p->rhoA1 / p->EA1);
  for (PetscInt s = 0; s < p->nseg1; s++) slow1 = PetscMax(slow1, PetscSqrtReal(p->seg1_rhoA[s] / p->seg1_EA[s]));
  if (p->nseg2 == 0) T2 = p->L2 * PetscSqrtReal(p->rhoA2 / p->EA2);
  for (PetscInt s = 0; s < p->nseg2; s++) T2 += p->seg2_length[s] * PetscSqrtReal(p->seg2_rhoA[s] / p->seg2_EA[s]);
  if (p->N < 2 || !(slow1 > 0) || !(T2 > 0)) return 50;
  n = (PetscInt)PetscCeilReal(2 * x * T2 / (PETSC_PI * slow1 * p->L1 / (p->N - 1)) + 0.5);
  return PetscMax(n, 50);
}
