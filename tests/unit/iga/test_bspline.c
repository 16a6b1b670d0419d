/* B-spline kernels: knot vector validation, Bezier extraction against hand-derived operators and against the
   B-spline basis at random points, partition of unity and derivative consistency (exact identities), Bernstein basis. */
#include <math.h>
#include <stickslip/iga.h>

static PetscReal Rand01(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0));
}

/* Hand-derived: U = [0,0,0,.5,1,1,1], p = 2. The three functions on [0,.5] in Bernstein form: N0 = B0,
   N1 = B1 + B2/2, N2 = B2/2; on [.5,1]: N1 = B0/2, N2 = B0/2 + B1, N3 = B2. The entries are dyadic, so exact. */
static PetscErrorCode TestExtractionHand(void)
{
  const PetscReal U[]  = {0, 0, 0, 0.5, 1, 1, 1};
  const PetscReal C1[] = {1, 0, 0, 0, 1, 0.5, 0, 0, 0.5}, C2[] = {0.5, 0, 0, 0.5, 1, 0, 0, 0, 1};
  PetscReal C[18], range[4];
  PetscInt first[2];

  PetscFunctionBeginUser;
  PetscCheck(SKKnotVectorNumSpans(7, U) == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "spans");
  PetscCall(SKBezierExtraction1D(2, 7, U, C, first, range));
  for (PetscInt k = 0; k < 9; k++) {
    PetscCheck(C[k] == C1[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "C1[%" PetscInt_FMT "] = %g, expected %g", k, (double)C[k], (double)C1[k]);
    PetscCheck(C[9 + k] == C2[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "C2[%" PetscInt_FMT "] = %g, expected %g", k, (double)C[9 + k],
               (double)C2[k]);
  }
  PetscCheck(first[0] == 0 && first[1] == 1 && range[0] == 0 && range[1] == 0.5 && range[2] == 0.5 && range[3] == 1, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "first/range");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Non-uniform knot vectors with repeated interior knots (multiplicities 1 .. p) for degree p. */
static PetscInt MakeKnots(PetscInt p, PetscReal U[])
{
  const PetscReal interior[] = {0.1, 0.35, 0.35, 0.6, 0.6, 0.6, 0.8};
  PetscInt m                 = 0;
  for (PetscInt i = 0; i <= p; i++) U[m++] = 0.0;
  for (PetscInt i = 0; i < 7; i++) {
    PetscInt mult = 1;
    while (i + mult < 7 && interior[i + mult] == interior[i]) mult++;
    for (PetscInt r = 0; r < PetscMin(mult, p); r++) U[m++] = interior[i];
    i += mult - 1;
  }
  for (PetscInt i = 0; i <= p; i++) U[m++] = 1.0;
  return m;
}

/* Tolerances: the B-spline values are convex combinations computed with O(p^2) flops of O(1) numbers, so identities
   hold to a few ulps; 1e-14 absolute (the brief's figure) is ~50 ulps. Derivatives scale like p / (smallest span)
   ~ 5 / 0.1 = 50, so derivative identities get 1e-14 times that scale. */
static PetscErrorCode TestBasis(void)
{
  unsigned long long seed = 7;

  PetscFunctionBeginUser;
  for (PetscInt p = 1; p <= 5; p++) {
    PetscReal U[32], ders[3 * 9], C[16 * 36], range[32], B[9], dB[9], g[32];
    PetscInt first[16];
    const PetscInt m = MakeKnots(p, U), n = m - p - 1, nspan = SKKnotVectorNumSpans(m, U);
    PetscBool ok;
    char reason[256];

    PetscCall(SKKnotVectorCheck(p, n, m, U, &ok, reason, sizeof(reason)));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": valid knots refused: %s", p, reason);
    PetscCall(SKBezierExtraction1D(p, m, U, C, first, range));
    for (PetscInt i = 0; i < n; i++) { /* Greville abscissae: sum_i g_i N_i(u) = u (linear precision) */
      g[i] = 0.0;
      for (PetscInt k = 1; k <= p; k++) g[i] += U[i + k];
      g[i] /= p;
    }
    const PetscReal dscale = p / 0.05;
    for (PetscInt t = 0; t < 200; t++) {
      const PetscReal u   = t == 0 ? 0.0 : (t == 1 ? 1.0 : Rand01(&seed));
      const PetscInt span = SKBSplineFindSpan(p, n, U, u);
      const PetscInt nder = PetscMin(p, 2);
      PetscReal sum[3] = {0, 0, 0}, lin[2] = {0, 0};
      PetscCheck(U[span] <= u && (u < U[span + 1] || (u == 1.0 && span == n - 1)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "span of %g",
                 (double)u);
      SKBSplineBasis(p, U, span, u, nder, ders);
      for (PetscInt a = 0; a <= p; a++) {
        for (PetscInt k = 0; k <= nder; k++) sum[k] += ders[k * (p + 1) + a];
        lin[0] += g[span - p + a] * ders[a];
        lin[1] += g[span - p + a] * ders[p + 1 + a];
        PetscCheck(ders[a] >= -1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "negative basis value %g", (double)ders[a]);
      }
      PetscCheck(PetscAbsReal(sum[0] - 1.0) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": sum N = 1 + %g", p,
                 (double)(sum[0] - 1));
      PetscCheck(PetscAbsReal(sum[1]) < 1e-14 * dscale, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": sum N' = %g", p,
                 (double)sum[1]);
      if (nder >= 2)
        PetscCheck(PetscAbsReal(sum[2]) < 1e-14 * dscale * dscale, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": sum N'' = %g",
                   p, (double)sum[2]);
      PetscCheck(PetscAbsReal(lin[0] - u) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": sum g N = u + %g", p,
                 (double)(lin[0] - u));
      PetscCheck(PetscAbsReal(lin[1] - 1.0) < 1e-14 * dscale, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": sum g N' = 1 + %g",
                 p, (double)(lin[1] - 1));
      /* the extraction operator of the span reproduces the B-splines from the Bernstein basis, values and derivatives */
      PetscInt e = 0;
      while (e + 1 < nspan && u >= range[2 * e + 1]) e++;
      PetscCheck(first[e] == span - p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "first %" PetscInt_FMT " != span - p %" PetscInt_FMT, first[e],
                 span - p);
      const PetscReal h = range[2 * e + 1] - range[2 * e], xi = 2.0 * (u - range[2 * e]) / h - 1.0;
      SKBernsteinBasis(p, xi, B, dB);
      for (PetscInt a = 0; a <= p; a++) {
        PetscReal v = 0.0, dv = 0.0;
        for (PetscInt i = 0; i <= p; i++) v += C[(e * (p + 1) + a) * (p + 1) + i] * B[i], dv += C[(e * (p + 1) + a) * (p + 1) + i] * dB[i];
        PetscCheck(PetscAbsReal(v - ders[a]) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": extraction value error %g",
                   p, (double)(v - ders[a]));
        PetscCheck(PetscAbsReal(dv * 2.0 / h - ders[p + 1 + a]) < 1e-14 * dscale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "p = %" PetscInt_FMT ": extraction derivative error %g", p, (double)(dv * 2.0 / h - ders[p + 1 + a]));
      }
      /* derivative against central differences inside the span (error h^2 N''' / 6 ~ 1e-12 dscale^3: 1e-6 relative) */
      if (u > range[2 * e] + 1e-4 && u < range[2 * e + 1] - 1e-4) {
        const PetscReal du = 1e-6;
        PetscReal dp[9], dm[9];
        SKBSplineBasis(p, U, span, u + du, 0, dp);
        SKBSplineBasis(p, U, span, u - du, 0, dm);
        for (PetscInt a = 0; a <= p; a++)
          PetscCheck(PetscAbsReal((dp[a] - dm[a]) / (2 * du) - ders[p + 1 + a]) < 1e-6 * dscale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "p = %" PetscInt_FMT ": N' vs finite difference %g", p, (double)((dp[a] - dm[a]) / (2 * du) - ders[p + 1 + a]));
      }
    }
    /* Bernstein: partition of unity, derivative sums to zero, end values */
    for (PetscInt t = 0; t < 20; t++) {
      const PetscReal xi = 2 * Rand01(&seed) - 1;
      PetscReal s = 0, ds = 0;
      SKBernsteinBasis(p, xi, B, dB);
      for (PetscInt i = 0; i <= p; i++) s += B[i], ds += dB[i];
      PetscCheck(PetscAbsReal(s - 1) < 1e-14 && PetscAbsReal(ds) < 1e-14 * p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Bernstein sums %g %g",
                 (double)s, (double)ds);
    }
    SKBernsteinBasis(p, -1.0, B, dB);
    PetscCheck(B[0] == 1.0 && dB[0] == -0.5 * p && dB[1] == 0.5 * p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Bernstein at -1");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every kind of invalid knot vector is refused with a reason naming the problem. */
static PetscErrorCode TestKnotCheck(void)
{
  struct {
    PetscInt p, n, m;
    PetscReal U[10];
    const char *expect;
  } cases[] = {
      {2, 3, 7, {0, 0, 0, 0.5, 1, 1, 1}, "need n + p + 1"},    /* 3 control points of degree 2 need 6 knots */
      {2, 4, 7, {0, 0, 0.6, 0.5, 1, 1, 1}, "not open"},        /* U[2] != U[0] */
      {2, 4, 7, {0, 0, 0, 0.7, 0.5, 1, 1}, "decrease"},        /* 0.7 > 0.5 */
      {2, 4, 7, {0, 0, 0, 0.5, 0.9, 1, 1}, "not open"},        /* the last three are not equal */
      {2, 6, 9, {0, 0, 0, 0.5, 0.5, 0.5, 1, 1, 1}, "repeats"}, /* interior multiplicity 3 > p */
      {0, 2, 3, {0, 0, 1}, "degree"},                          /* degree 0 */
      {1, 2, 4, {0, 0, 0, 0}, "empty parameter range"},        /* no span */
  };

  PetscFunctionBeginUser;
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscBool ok;
    char reason[256], *found;
    PetscCall(SKKnotVectorCheck(cases[c].p, cases[c].n, cases[c].m, cases[c].U, &ok, reason, sizeof(reason)));
    PetscCheck(!ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %zu accepted", c);
    PetscCall(PetscStrstr(reason, cases[c].expect, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %zu: reason \"%s\" does not mention \"%s\"", c, reason, cases[c].expect);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestExtractionHand());
  PetscCall(TestBasis());
  PetscCall(TestKnotCheck());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bspline: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
