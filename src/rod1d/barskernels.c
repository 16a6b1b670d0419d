/* rod1d bars2020: pure kernels of the two-bar Threlfall model (modal data, exact per-step Duhamel update, load integrals)
   and of the linear equivalent stepped bar (characteristic equation, its roots, modes, modal masses). */
#include "barsimpl.h"

PetscErrorCode SKBarsCosineFamilyModes(const SKBarsCosineFamily *fam, PetscReal omega[], PetscReal mass[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < fam->n; j++) {
    PetscReal kappa = (j + fam->offset) * PETSC_PI / fam->length;
    omega[j]        = kappa * fam->c;
    /* int_0^L cos^2(kappa x) dx = L/2 unless kappa = 0 (the rigid mode), where it is L */
    mass[j] = fam->rhoA * (kappa == 0 ? fam->length : 0.5 * fam->length);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* phi_j(x) = cos((j + o) beta) with beta = pi x / L satisfies phi_{j+1} = 2 cos(beta) phi_j - phi_{j-1}. */
static void CosineRecurrence(const SKBarsCosineFamily *fam, PetscReal x, PetscReal *y0, PetscReal *y1, PetscReal *alpha)
{
  PetscReal beta = PETSC_PI * x / fam->length;
  *y0            = PetscCosReal(fam->offset * beta);
  *y1            = PetscCosReal((1 + fam->offset) * beta);
  *alpha         = 2 * PetscCosReal(beta);
}

/* Points are processed in blocks of SK_BARS_BLOCK so that the three-term recurrences of different points run side by
   side (independent dependency chains, vectorisable) instead of one latency-bound chain at a time. */
#define SK_BARS_BLOCK 8

void SKBarsCosineFamilyEval(const SKBarsCosineFamily *fam, const PetscReal a[], PetscInt np, const PetscReal x[], PetscReal out[])
{
  for (PetscInt p0 = 0; p0 < np; p0 += SK_BARS_BLOCK) {
    PetscInt nb = PetscMin(SK_BARS_BLOCK, np - p0);
    PetscReal y0[SK_BARS_BLOCK], y1[SK_BARS_BLOCK], al[SK_BARS_BLOCK], b1[SK_BARS_BLOCK] = {0}, b2[SK_BARS_BLOCK] = {0};

    for (PetscInt i = 0; i < nb; i++) CosineRecurrence(fam, x[p0 + i], &y0[i], &y1[i], &al[i]);
    for (PetscInt i = nb; i < SK_BARS_BLOCK; i++) y0[i] = y1[i] = al[i] = 0;
    /* Clenshaw: b_j = a_j + alpha b_{j+1} - b_{j+2}; sum = y0 b_0 + (y1 - alpha y0) b_1 */
    for (PetscInt j = fam->n - 1; j >= 1; j--) {
      for (PetscInt i = 0; i < SK_BARS_BLOCK; i++) {
        PetscReal b = a[j] + al[i] * b1[i] - b2[i];
        b2[i]       = b1[i];
        b1[i]       = b;
      }
    }
    for (PetscInt i = 0; i < nb; i++) out[p0 + i] = fam->n ? y0[i] * (a[0] + al[i] * b1[i] - b2[i]) + (y1[i] - al[i] * y0[i]) * b1[i] : 0;
  }
}

void SKBarsCosineFamilyProject(const SKBarsCosineFamily *fam, PetscInt np, const PetscReal x[], const PetscReal w[], PetscReal acc[])
{
  for (PetscInt p0 = 0; p0 < np; p0 += SK_BARS_BLOCK) {
    PetscInt nb = PetscMin(SK_BARS_BLOCK, np - p0);
    PetscReal y0[SK_BARS_BLOCK], y1[SK_BARS_BLOCK], al[SK_BARS_BLOCK], wb[SK_BARS_BLOCK];

    if (!fam->n) return;
    for (PetscInt i = 0; i < SK_BARS_BLOCK; i++) {
      if (i < nb)
        CosineRecurrence(fam, x[p0 + i], &y0[i], &y1[i], &al[i]);
      else
        y0[i] = y1[i] = al[i] = 0;
      wb[i] = i < nb ? w[p0 + i] : 0;
    }
    for (PetscInt j = 0; j < fam->n; j++) {
      PetscReal s = 0;
      for (PetscInt i = 0; i < SK_BARS_BLOCK; i++) {
        PetscReal y2 = al[i] * y1[i] - y0[i];
        s += wb[i] * y0[i];
        y0[i] = y1[i];
        y1[i] = y2;
      }
      acc[j] += s;
    }
  }
}

PetscReal SKBarsCosineFamilySum(const SKBarsCosineFamily *fam, const PetscReal a[], PetscReal x)
{
  PetscReal v;
  SKBarsCosineFamilyEval(fam, a, 1, &x, &v);
  return v;
}

void SKBarsCosineFamilyAddProjection(const SKBarsCosineFamily *fam, PetscReal w, PetscReal x, PetscReal acc[])
{
  SKBarsCosineFamilyProject(fam, 1, &x, &w, acc);
}

PetscReal SKBarsThrelfallImplicit(PetscReal dv_free, PetscReal r, PetscReal muN, PetscReal k, PetscReal v95)
{
  /* y = |dv_new| solves g(y) = y + a (1 - exp(-k y / v95)) - |dv_free| = 0 with a = r muN; g is increasing and concave,
     g(max(0, |dv_free| - a)) <= 0, so Newton from there stays below the root and converges monotonically */
  PetscReal A = PetscAbsReal(dv_free), a = r * muN, s = k / v95, y = PetscMax(0, A - a), m;

  if (r == 0) return SKBarsThrelfall(dv_free, muN, k, v95);
  if (A == 0 || muN == 0) return 0;
  for (PetscInt it = 0; it < 100; it++) {
    PetscReal e = PetscExpReal(-s * y), g = y - a * expm1(-s * y) - A, dy = -g / (1 + a * s * e);
    y += dy;
    if (PetscAbsReal(dy) <= 4 * PETSC_MACHINE_EPSILON * (y + 1 / s)) break;
  }
  y = PetscMin(PetscMax(y, 0), A);
  m = -muN * expm1(-s * y);
  return dv_free > 0 ? m : -m;
}

PetscReal SKBarsV95(PetscReal muN, PetscReal dt, PetscReal rho1A1)
{
  return 4 * muN * dt / (PETSC_PI * rho1A1);
}

void SKBarsStepCoefCompute(PetscReal omega, PetscReal h, SKBarsStepCoef *coef)
{
  PetscReal wh = omega * h;

  coef->cw = PetscCosReal(wh);
  if (omega == 0) {
    coef->sw  = h;
    coef->wsw = 0;
    coef->omc = 0.5 * h * h;
  } else {
    PetscReal s = PetscSinReal(0.5 * wh);
    coef->sw    = PetscSinReal(wh) / omega;
    coef->wsw   = omega * PetscSinReal(wh);
    coef->omc   = 2 * s * s / (omega * omega); /* 1 - cos(wh) without cancellation */
  }
}

PetscInt SKBarsLoadBreakpoints(const SKTimeFunction *f, PetscReal a, PetscReal b, PetscInt nmax, PetscReal bp[])
{
  PetscInt n = 0;

  switch (f->type) {
  case SK_TF_RAMP:
  case SK_TF_SMOOTHSTEP:
  case SK_TF_PULSE:
    if (f->t0 > a && f->t0 < b && n < nmax) bp[n++] = f->t0;
    if (f->t1 > a && f->t1 < b && n < nmax) bp[n++] = f->t1;
    break;
  case SK_TF_TABLE:
    for (PetscInt i = 0; i < f->ntable; i++)
      if (f->times[i] > a && f->times[i] < b && n < nmax) bp[n++] = f->times[i];
    break;
  default:
    break;
  }
  return n;
}

#define SK_BARS_GAUSS 8
static const PetscReal gauss_x[SK_BARS_GAUSS] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                                                 0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
static const PetscReal gauss_w[SK_BARS_GAUSS] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                                                 0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

PetscErrorCode SKBarsLoadDuhamel(const SKTimeFunction *f, PetscReal a, PetscReal b, PetscInt n, const PetscReal omega[], PetscReal S[],
                                 PetscReal C[])
{
  PetscReal bp[SK_BARS_MAX_SEGMENTS + 2];
  PetscInt nbp;

  PetscFunctionBegin;
  PetscCheck(f->type != SK_TF_TABLE || f->ntable <= SK_BARS_MAX_SEGMENTS, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "bars2020 load tables are limited to %d points (got %" PetscInt_FMT ")", SK_BARS_MAX_SEGMENTS, f->ntable);
  for (PetscInt j = 0; j < n; j++) S[j] = C[j] = 0;
  nbp         = SKBarsLoadBreakpoints(f, a, b, SK_BARS_MAX_SEGMENTS, bp + 1);
  bp[0]       = a;
  bp[nbp + 1] = b;
  for (PetscInt p = 0; p <= nbp; p++) {
    PetscReal lo = bp[p], hi = bp[p + 1], half = 0.5 * (hi - lo), mid = 0.5 * (hi + lo);
    for (PetscInt g = 0; g < SK_BARS_GAUSS; g++) {
      PetscReal tau = mid + half * gauss_x[g], fw = half * gauss_w[g] * SKTimeFunctionEval(f, tau), lag = b - tau;
      if (fw == 0) continue;
      for (PetscInt j = 0; j < n; j++) {
        PetscReal wl = omega[j] * lag;
        S[j] += fw * (omega[j] == 0 ? lag : PetscSinReal(wl) / omega[j]);
        C[j] += fw * PetscCosReal(wl);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKBarsModalStep(PetscInt n, const SKBarsStepCoef coef[], const PetscReal g[], const PetscReal S[], const PetscReal C[],
                     const PetscReal q[], PetscReal eta[], PetscReal etadot[])
{
  for (PetscInt j = 0; j < n; j++) {
    const SKBarsStepCoef *k = &coef[j];
    PetscReal e             = k->cw * eta[j] + k->sw * etadot[j];
    PetscReal ed            = -k->wsw * eta[j] + k->cw * etadot[j];
    if (g) {
      e += g[j] * S[j];
      ed += g[j] * C[j];
    }
    if (q) {
      e += q[j] * k->omc;
      ed += q[j] * k->sw;
    }
    eta[j]    = e;
    etadot[j] = ed;
  }
}

PetscReal SKBarsModalEnergy(PetscInt n, const PetscReal omega[], const PetscReal mass[], const PetscReal eta[], const PetscReal etadot[])
{
  PetscReal e = 0;
  for (PetscInt j = 0; j < n; j++) e += 0.5 * mass[j] * (etadot[j] * etadot[j] + omega[j] * omega[j] * eta[j] * eta[j]);
  return e;
}

/* ---------------- linear equivalent stepped bar ---------------- */

PetscReal SKBarsSteppedLength(const SKBarsStepped *bar)
{
  PetscReal L = 0;
  for (PetscInt i = 0; i < bar->nseg; i++) L += bar->len[i];
  return L;
}

/* Carries (u, N = EA u') from the start of segment i over a length s <= len[i] of it. */
static void SegmentTransfer(const SKBarsStepped *bar, PetscInt i, PetscReal omega, PetscReal s, PetscReal *u, PetscReal *N)
{
  PetscReal k = omega * PetscSqrtReal(bar->rhoA[i] / bar->EA[i]), ks = k * s, c = PetscCosReal(ks), sn = PetscSinReal(ks);
  PetscReal u0 = *u, N0 = *N, EAk = bar->EA[i] * k;

  *u = u0 * c + (k == 0 ? N0 * s / bar->EA[i] : N0 * sn / EAk);
  *N = -EAk * u0 * sn + N0 * c;
}

PetscReal SKBarsSteppedModeValue(const SKBarsStepped *bar, PetscReal omega, PetscReal s)
{
  PetscReal u = 1, N = 0, start = 0;

  for (PetscInt i = 0; i < bar->nseg; i++) {
    if (s <= start + bar->len[i] || i == bar->nseg - 1) {
      SegmentTransfer(bar, i, omega, PetscMin(s - start, bar->len[i]), &u, &N);
      return u;
    }
    SegmentTransfer(bar, i, omega, bar->len[i], &u, &N);
    start += bar->len[i];
  }
  return u;
}

PetscReal SKBarsSteppedCharacteristic(const SKBarsStepped *bar, PetscReal omega)
{
  return SKBarsSteppedModeValue(bar, omega, SKBarsSteppedLength(bar));
}

PetscReal SKBarsSteppedModalMass(const SKBarsStepped *bar, PetscReal omega)
{
  PetscReal u = 1, N = 0, m = 0;

  for (PetscInt i = 0; i < bar->nseg; i++) {
    /* phi = P cos(ks) + R sin(ks) on the segment, P = u, R = N / (EA k) */
    PetscReal k = omega * PetscSqrtReal(bar->rhoA[i] / bar->EA[i]), l = bar->len[i], P = u, R = N / (bar->EA[i] * k);
    PetscReal s2 = PetscSinReal(2 * k * l) / (4 * k), c2 = (1 - PetscCosReal(2 * k * l)) / (2 * k);
    m += bar->rhoA[i] * (P * P * (0.5 * l + s2) + R * R * (0.5 * l - s2) + P * R * c2);
    SegmentTransfer(bar, i, omega, l, &u, &N);
  }
  return m;
}

PetscErrorCode SKBarsSteppedRoots(const SKBarsStepped *bar, PetscInt n, PetscReal omega[])
{
  PetscReal tau  = 0, h, lo, flo;
  PetscInt found = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < bar->nseg; i++) tau += bar->len[i] * PetscSqrtReal(bar->rhoA[i] / bar->EA[i]);
  /* roots are pi / tau apart on average; a scan much finer than that cannot step over a pair of them unless two
     segments are nearly decoupled, which the unit test of the refined scan would reveal */
  h   = PETSC_PI / tau / 16;
  lo  = 0.5 * h; /* omega = 0 is a root of no fixed-free bar; start just above it */
  flo = SKBarsSteppedCharacteristic(bar, lo);
  while (found < n) {
    PetscReal hi = lo + h, fhi = SKBarsSteppedCharacteristic(bar, hi);
    if (flo == 0) {
      omega[found++] = lo;
    } else if (flo * fhi < 0) {
      PetscReal a = lo, b = hi, fa = flo;
      for (PetscInt it = 0; it < 200 && b - a > 4 * PETSC_MACHINE_EPSILON * b; it++) {
        PetscReal m = 0.5 * (a + b), fm = SKBarsSteppedCharacteristic(bar, m);
        if (fm == 0)
          a = b = m;
        else if (fa * fm < 0)
          b = m;
        else {
          a  = m;
          fa = fm;
        }
      }
      omega[found++] = 0.5 * (a + b);
    }
    lo  = hi;
    flo = fhi;
    PetscCheck(lo < 1e6 * (n + 1) * PETSC_PI / tau, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "stepped-bar root scan found only %" PetscInt_FMT " of %" PetscInt_FMT " roots", found, n);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
