/* The fast segment transforms of the mode-matching method (chirp-z convolutions, rodpair_mmm_fft.c) against the dense
   mode rows and against the mode sums written out term by term with libm's cos/sin, for every end type of a uniform
   segment and lengths from 2 to 1001 (powers of two, primes, odd and even); the projection followed by the
   reconstruction must return the nodal vector (the modes and modal masses of the code are a mass-orthogonal basis).
   Then a whole stick-slip run by both paths. A mirrored basis (fixed-free taken for free-fixed) must be caught. */
#include "rodpair_harmonic.h"
#include "../../../src/rod1d/mmmimpl.h"

/* phi_p(j) of segment SG written out, independent of the rotation recurrence and the transforms */
static PetscReal ModeValue(const Seg *sg, PetscInt j, PetscInt p)
{
  PetscInt n = sg->n;
  switch (sg->kind) {
  case SEG_FREE_FREE:
    return PetscCosReal(PETSC_PI * j * p / (n - 1));
  case SEG_FREE_FIXED:
    return PetscCosReal(PETSC_PI * j * (p + 0.5) / n);
  case SEG_FIXED_FREE:
    return PetscCosReal(PETSC_PI * (n - 1 - j) * (p + 0.5) / n);
  case SEG_FIXED_FIXED:
    return PetscSinReal(PETSC_PI * (j + 1) * (p + 1) / (n + 1));
  }
  return 0;
}

static PetscReal MaxAbsDiff(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal d = 0;
  for (PetscInt i = 0; i < n; i++) d = PetscMax(d, PetscAbsReal(a[i] - b[i]));
  return d;
}

int main(int argc, char **argv)
{
  const PetscInt lengths[] = {2, 3, 4, 5, 7, 8, 16, 31, 64, 97, 128, 255, 256, 257, 301, 512, 1000, 1001};
  const SegKind kinds[]    = {SEG_FREE_FREE, SEG_FREE_FIXED, SEG_FIXED_FREE, SEG_FIXED_FIXED};
  const char *names[]      = {"free-free", "free-fixed", "fixed-free", "fixed-fixed"};
  PetscInt Nmax            = 1001;
  SKRodPairParams p        = RodPairCaseA(Nmax, 4);
  Harmonic hm              = {.P0 = 2e4, .W = 20};
  SKRodPair rp;
  MMM mm = {0};
  PetscReal *x, *xs, *sf, *sd, *se, *back, worst = 0, worst_rt = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, Load, &hm, &rp));
  mm.rp = rp;
  mm.N  = Nmax;
  PetscCall(PetscMalloc1(Nmax, &mm.phi));
  PetscCall(PetscMalloc3(Nmax, &mm.rowL, Nmax, &mm.rowR, 3 * Nmax, &mm.xw));
  PetscCall(PetscMalloc6(Nmax, &x, Nmax, &xs, Nmax, &sf, Nmax, &sd, Nmax, &se, Nmax, &back));
  PetscCall(SKMMMRegisterLogEvents());
  PetscCall(SKMMMTransformsCreate(Nmax, 2, FFTW_ESTIMATE, &mm.tr));
  for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
    for (PetscInt k = 0; k < 4; k++) {
      Seg sg                = {0};
      PetscInt n            = lengths[l];
      const PetscReal *X[1] = {x}, *Sx[1] = {sf};
      PetscReal *S[1] = {sf}, *U[1] = {back}, xmax = 0, smax = 0, d_fd, d_fe, d_rt;
      sg.n  = n;
      sg.ms = 1;
      SKMMMSegSetKind(&sg, kinds[k]);
      SKMMMSegEndRows(&mm, &sg);
      /* a deterministic, non-smooth vector: all modes are present */
      for (PetscInt j = 0; j < n; j++) {
        x[j] = PetscSinReal(1.7 * j * j + 0.3) + 0.25 * ((j * 7919) % 13 - 6);
        xmax += PetscAbsReal(x[j]);
      }
      sg.fast = PETSC_TRUE;
      PetscCall(SKMMMSegProject(&mm, &sg, 1, X, S));
      sg.fast = PETSC_FALSE;
      S[0]    = sd;
      PetscCall(SKMMMSegProject(&mm, &sg, 1, X, S));
      for (PetscInt q = 0; q < n; q++) {
        se[q] = 0;
        for (PetscInt j = 0; j < n; j++) se[q] += ModeValue(&sg, j, q) * x[j];
        smax = PetscMax(smax, PetscAbsReal(se[q]));
      }
      /* every sum is bounded by sum_j |x_j| = xmax; the transforms carry ~log2(n) eps of it, the dense rotation
         recurrence and the written-out sum ~n eps (2.2e-13 at n = 1001): 1e-12 of xmax is above both, and a wrong mode
         set is off by O(1) of xmax (the self-test below) */
      d_fd = MaxAbsDiff(n, sf, sd);
      d_fe = MaxAbsDiff(n, sf, se);
      /* reconstruction of the modal coordinates q = (sum_j phi_p(j) m_j x_j) / M_p returns x (m_j = 1 here, halved at
         a free end: a free segment end is a rod end, whose node carries half an element) */
      for (PetscInt j = 0; j < n; j++) {
        PetscBool free_end = (PetscBool)((j == 0 && (sg.kind == SEG_FREE_FREE || sg.kind == SEG_FREE_FIXED)) ||
                                         (j == n - 1 && (sg.kind == SEG_FREE_FREE || sg.kind == SEG_FIXED_FREE)));
        xs[j]              = x[j] * (free_end ? 0.5 : 1);
      }
      X[0]    = xs;
      S[0]    = sf;
      sg.fast = PETSC_TRUE;
      PetscCall(SKMMMSegProject(&mm, &sg, 1, X, S));
      for (PetscInt q = 0; q < n; q++) sf[q] /= SKMMMModalMass(&sg, q);
      Sx[0] = sf;
      PetscCall(SKMMMSegSynthesize(&mm, &sg, 1, Sx, U));
      d_rt = MaxAbsDiff(n, back, x);
      /* the reconstruction by the dense rows must agree with the transforms as well */
      sg.fast = PETSC_FALSE;
      U[0]    = sd;
      PetscCall(SKMMMSegSynthesize(&mm, &sg, 1, Sx, U));
      d_fd     = PetscMax(d_fd, MaxAbsDiff(n, back, sd));
      worst    = PetscMax(worst, PetscMax(d_fd, d_fe) / xmax);
      worst_rt = PetscMax(worst_rt, d_rt / xmax);
      PetscCheck(d_fd <= 1e-12 * xmax && d_fe <= 1e-12 * xmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s n = %" PetscInt_FMT ": transform vs dense %g, vs written-out sums %g (of %g)", names[k], n, (double)d_fd, (double)d_fe,
                 (double)xmax);
      PetscCheck(d_rt <= 1e-12 * xmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s n = %" PetscInt_FMT ": projection + reconstruction off by %g",
                 names[k], n, (double)d_rt);
      (void)smax;
    }
  }
  PetscCall(
      PetscPrintf(PETSC_COMM_SELF,
                  "segment transforms, n = 2..1001, 4 end types: fast vs dense and written-out sums within %.2e, round trip within %.2e "
                  "(relative to sum |x|)\n",
                  (double)worst, (double)worst_rt));
  /* self-test: the fixed-free basis taken for the free-fixed one is caught by the same check */
  {
    Seg a = {0}, b = {0};
    const PetscReal *X[1] = {x};
    PetscReal *S[1] = {sf}, xmax = 0, d;
    a.n = b.n = 301;
    a.ms = b.ms = 1;
    SKMMMSegSetKind(&a, SEG_FREE_FIXED);
    SKMMMSegSetKind(&b, SEG_FIXED_FREE);
    SKMMMSegEndRows(&mm, &b);
    a.fast = PETSC_TRUE;
    for (PetscInt j = 0; j < a.n; j++) xmax += PetscAbsReal(x[j]);
    PetscCall(SKMMMSegProject(&mm, &a, 1, X, S));
    S[0] = sd;
    PetscCall(SKMMMSegProject(&mm, &b, 1, X, S));
    d = MaxAbsDiff(a.n, sf, sd);
    PetscCheck(d > 1e-3 * xmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "self-test: a mirrored basis differs by only %g of %g", (double)d,
               (double)xmax);
  }
  PetscCall(SKMMMTransformsDestroy(&mm.tr));
  PetscCall(PetscFree(mm.phi));
  PetscCall(PetscFree3(mm.rowL, mm.rowR, mm.xw));
  PetscCall(PetscFree6(x, xs, sf, sd, se, back));
  PetscCall(SKRodPairDestroy(&rp));

  /* a whole run (omega1-caseA, N = 301, 0.1 s: the first stick-slip events) by the transforms (segments from 2 nodes
     on) and by the dense rows only. Both solve the same closed forms; the transforms differ from the dense sums by
     1e-14 relative (above), which the event location (to 1e-9 of a coupling step) carries into the event times at the
     same relative size. Measured: 4e-14 of the peak displacement, 151 events by both; 1e-12 is 25x that and orders
     below a wrong mode (O(1)) or a wrong event (1e-4 and more). */
  {
    SKRodPairParams q = RodPairCaseA(301, 10);
    PetscReal uf[301], ud[301], d, scale = 0;
    PetscInt evf, evd;
    for (PetscInt path = 0; path < 2; path++) {
      PetscCall(HarmonicRodPairCreate(&q, &hm, &rp));
      PetscCall(SKRodPairSetMMMTransforms(rp, path == 0 ? 2 : 100000, SK_RODPAIR_MMM_NODES_MIN, PETSC_FALSE));
      PetscCall(HarmonicRodPairFinish(&rp, &q, SK_RODPAIR_MMM, 0.1, path == 0 ? uf : ud));
      PetscCall(SKRodPairGetCounts(rp, NULL, NULL, NULL, path == 0 ? &evf : &evd));
      PetscCall(SKRodPairDestroy(&rp));
    }
    for (PetscInt i = 0; i < q.N; i++) scale = PetscMax(scale, PetscAbsReal(ud[i]));
    d = MaxAbsDiff(q.N, uf, ud);
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "run by transforms vs dense rows: max |du| = %.3e of %.3e; events %" PetscInt_FMT " and %" PetscInt_FMT "\n",
                          (double)d, (double)scale, evf, evd));
    PetscCheck(evf > 10 && evf == evd && d < 1e-12 * scale, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the two paths differ: %g of %g", (double)d,
               (double)scale);
  }
  PetscCall(PetscFinalize());
  return 0;
}
