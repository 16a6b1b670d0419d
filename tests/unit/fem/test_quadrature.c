/* Quadrature exactness: Gauss-Legendre (exact to 2n-1 and not 2n), tensor rules, simplex rules (exact to their degree,
   and the degree-1 and degree-2 rules not beyond), against closed-form monomial integrals. */
#include <math.h>
#include <stickslip/fem.h>

static PetscReal Factorial(PetscInt n)
{
  PetscReal f = 1.0;
  for (PetscInt k = 2; k <= n; k++) f *= k;
  return f;
}

/* int over [-1,1] of x^k */
static PetscReal MonoLine(PetscInt k)
{
  return k % 2 ? 0.0 : 2.0 / (k + 1);
}

/* tolerance: the rules sum at most a few hundred terms of O(1): 1e-13 absolute is ~100 ulps; the non-exact checks
   use the smallest true error of a degree-2n monomial, O(1e-3) or larger */
static PetscErrorCode TestGauss(void)
{
  PetscReal x[64], w[64];

  PetscFunctionBeginUser;
  for (PetscInt n = 1; n <= 10; n++) {
    PetscCall(SKQuadratureGaussLegendre(n, x, w));
    for (PetscInt k = 0; k <= 2 * n; k++) {
      PetscReal s = 0.0;
      for (PetscInt q = 0; q < n; q++) s += w[q] * pow(x[q], (double)k);
      if (k <= 2 * n - 1)
        PetscCheck(PetscAbsReal(s - MonoLine(k)) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "GL(%" PetscInt_FMT ") not exact for x^%" PetscInt_FMT ": %g", n, k, (double)(s - MonoLine(k)));
      else
        PetscCheck(PetscAbsReal(s - MonoLine(k)) > 1e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "GL(%" PetscInt_FMT ") unexpectedly exact for x^%" PetscInt_FMT, n, k);
    }
  }
  /* tensor rules: x^a y^b z^c exact for a, b, c <= 2n-1 */
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt n = 1; n <= 3; n++) {
      PetscReal xt[27 * 3], wt[27];
      PetscInt nq = dim == 2 ? n * n : n * n * n;
      PetscCall(SKQuadratureTensor(dim, n, xt, wt));
      for (PetscInt a = 0; a < 2 * n; a++)
        for (PetscInt b = 0; b < 2 * n; b++)
          for (PetscInt c = 0; c < (dim == 3 ? 2 * n : 1); c++) {
            PetscReal s = 0.0, exact = MonoLine(a) * MonoLine(b) * (dim == 3 ? MonoLine(c) : 1.0);
            for (PetscInt q = 0; q < nq; q++)
              s += wt[q] * pow(xt[q * dim], (double)a) * pow(xt[q * dim + 1], (double)b) *
                   (dim == 3 ? pow(xt[q * dim + 2], (double)c) : 1.0);
            PetscCheck(PetscAbsReal(s - exact) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                       "tensor rule dim %" PetscInt_FMT " n %" PetscInt_FMT " not exact", dim, n);
          }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* int over the reference simplex of x^a y^b z^c = a! b! c! / (a + b + c + dim)! */
static PetscErrorCode TestSimplex(void)
{
  PetscFunctionBeginUser;
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt deg = 0; deg <= 7; deg++) {
      PetscInt nq;
      PetscReal *x, *w, maxerr_next = 0.0;
      PetscCall(SKQuadratureSimplex(dim, deg, &nq, NULL, NULL));
      PetscCall(PetscMalloc2(nq * dim, &x, nq, &w));
      PetscCall(SKQuadratureSimplex(dim, deg, &nq, x, w));
      for (PetscInt q = 0; q < nq; q++) PetscCheck(w[q] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "non-positive simplex weight");
      for (PetscInt a = 0; a <= deg + 1; a++)
        for (PetscInt b = 0; a + b <= deg + 1; b++)
          for (PetscInt c = 0; a + b + c <= deg + 1; c++) {
            if (dim == 2 && c > 0) break;
            PetscReal s = 0.0, exact = Factorial(a) * Factorial(b) * Factorial(c) / Factorial(a + b + c + dim);
            for (PetscInt q = 0; q < nq; q++)
              s += w[q] * pow(x[q * dim], (double)a) * pow(x[q * dim + 1], (double)b) * (dim == 3 ? pow(x[q * dim + 2], (double)c) : 1.0);
            if (a + b + c <= deg)
              PetscCheck(PetscAbsReal(s - exact) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                         "simplex dim %" PetscInt_FMT " degree %" PetscInt_FMT " rule fails on x^%" PetscInt_FMT " y^%" PetscInt_FMT
                         " z^%" PetscInt_FMT ": %g",
                         dim, deg, a, b, c, (double)(s - exact));
            else
              maxerr_next = PetscMax(maxerr_next, PetscAbsReal(s - exact));
          }
      /* the low-order rules are not exact one degree higher (the collapsed ones can be, by symmetry) */
      if (deg >= 1 && deg <= 2)
        PetscCheck(maxerr_next > 1e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "simplex degree %" PetscInt_FMT " rule exact beyond its degree?",
                   deg);
      PetscCall(PetscFree2(x, w));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestGauss());
  PetscCall(TestSimplex());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "quadrature: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
