/* Quadrature rules: Gauss-Legendre, tensor products on [-1,1]^dim, and rules on the reference triangle/tetrahedron. */
#include <math.h>
#include "femimpl.h"

/* Legendre polynomial P_n(z), its derivative (|z| < 1) and P_{n-1}(z), by the three-term recurrence. */
static void LegendreP(PetscInt n, PetscReal z, PetscReal *p, PetscReal *dp, PetscReal *pm1)
{
  PetscReal p0 = 1.0, p1 = z;
  for (PetscInt k = 2; k <= n; k++) {
    const PetscReal p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
    p0                 = p1;
    p1                 = p2;
  }
  *p   = p1;
  *dp  = n * (z * p1 - p0) / (z * z - 1.0);
  *pm1 = p0;
}

PetscErrorCode SKQuadratureGaussLegendre(PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Gauss-Legendre rule with %" PetscInt_FMT " points: need 1..64",
             n);
  /* Newton on P_n from the classical cosine guesses; mirrored so that the rule is exactly symmetric */
  for (PetscInt i = 0; i < n / 2; i++) {
    PetscReal z = cos(PETSC_PI * (i + 0.75) / (n + 0.5)), p, dp, pm1;
    for (PetscInt it = 0; it < 100; it++) {
      LegendreP(n, z, &p, &dp, &pm1);
      z -= p / dp;
      if (fabs(p / dp) < 1e-16) break;
    }
    LegendreP(n, z, &p, &dp, &pm1);
    x[i]         = -z;
    x[n - 1 - i] = z;
    /* w = 2 (1 - z^2) / (n P_{n-1}(z))^2: better conditioned than 2 / ((1 - z^2) P_n'(z)^2) */
    w[i] = w[n - 1 - i] = 2.0 * (1.0 - z) * (1.0 + z) / ((n * pm1) * (n * pm1));
  }
  if (n % 2) { /* middle point z = 0: P_n'(0) from the recurrence */
    PetscReal p, dp, pm1;
    LegendreP(n, 0.0, &p, &dp, &pm1);
    x[n / 2] = 0.0;
    w[n / 2] = 2.0 / (dp * dp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKQuadratureTensor(PetscInt dim, PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscReal g[64], gw[64];
  PetscInt nq = 1;

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Tensor rule in dimension %" PetscInt_FMT, dim);
  PetscCall(SKQuadratureGaussLegendre(n, g, gw));
  for (PetscInt d = 0; d < dim; d++) nq *= n;
  for (PetscInt q = 0; q < nq; q++) {
    PetscInt r = q; /* first coordinate fastest */
    w[q]       = 1.0;
    for (PetscInt d = 0; d < dim; d++) {
      x[q * dim + d] = g[r % n];
      w[q] *= gw[r % n];
      r /= n;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKQuadratureSimplex(PetscInt dim, PetscInt degree, PetscInt *nq, PetscReal x[], PetscReal w[])
{
  const PetscReal vol = dim == 2 ? 0.5 : 1.0 / 6.0;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Simplex rule in dimension %" PetscInt_FMT, dim);
  PetscCheck(degree >= 0 && degree <= 40, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Simplex rule of degree %" PetscInt_FMT, degree);
  if (degree <= 1) {
    *nq = 1;
    if (!x) PetscFunctionReturn(PETSC_SUCCESS);
    for (PetscInt d = 0; d < dim; d++) x[d] = 1.0 / (dim + 1);
    w[0] = vol;
  } else if (degree == 2) {
    /* points on the medians: barycentric (a, b, b[, b]) and permutations */
    const PetscReal a = dim == 2 ? 2.0 / 3.0 : (5.0 + 3.0 * sqrt(5.0)) / 20.0, b = dim == 2 ? 1.0 / 6.0 : (5.0 - sqrt(5.0)) / 20.0;
    *nq = dim + 1;
    if (!x) PetscFunctionReturn(PETSC_SUCCESS);
    for (PetscInt q = 0; q <= dim; q++) {
      /* vertex q gets weight a: its reference coordinates are (lambda_1, .., lambda_dim) */
      for (PetscInt d = 0; d < dim; d++) x[q * dim + d] = (q == d + 1) ? a : b;
      w[q] = vol / (dim + 1);
    }
  } else {
    /* collapsed Gauss: ints over [0,1]^dim with the Duffy map; the Jacobian adds dim-1 to the degree in the last
       collapsed direction, so n = ceil((degree + dim)/2) points per direction are exact */
    const PetscInt n = (degree + dim + 1) / 2;
    PetscReal g[64], gw[64];
    *nq = dim == 2 ? n * n : n * n * n;
    if (!x) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(SKQuadratureGaussLegendre(n, g, gw));
    for (PetscInt i = 0; i < n; i++) g[i] = 0.5 * (g[i] + 1.0), gw[i] *= 0.5;
    for (PetscInt q = 0; q < *nq; q++) {
      const PetscReal s = g[q % n], t = g[(q / n) % n], r = dim == 3 ? g[q / (n * n)] : 0.0;
      const PetscReal ws = gw[q % n], wt = gw[(q / n) % n], wr = dim == 3 ? gw[q / (n * n)] : 1.0;
      if (dim == 2) {
        x[2 * q] = s * (1 - t), x[2 * q + 1] = t;
        w[q] = ws * wt * (1 - t);
      } else {
        x[3 * q] = s * (1 - t) * (1 - r), x[3 * q + 1] = t * (1 - r), x[3 * q + 2] = r;
        w[q] = ws * wt * wr * (1 - t) * (1 - r) * (1 - r);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
