/* stickslip shared: the Dormand-Prince 5(4) pair (DOPRI5); see dopri5.h. */
#include "shared/dopri5.h"

/* The tableau (Hairer, Norsett, Wanner, Table II.5.2): nodes C, coefficients A (row s for stage s), the error weights
   E = b5 - b4 (stage 7 is the new point, FSAL) and the dense-output weights D of the 4th-order continuous extension. */
static const PetscReal DP_C[7]    = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
static const PetscReal DP_A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
static const PetscReal DP_E[7] = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
static const PetscReal DP_D[7] = {-12715105075.0 / 11282082432.0,  0,
                                  87487479700.0 / 32700410799.0,   -10690763975.0 / 1880347072.0,
                                  701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                                  69997945.0 / 29380423.0};

/* sum_s W[s] ks[s] over the non-zero weights, left to right */
static inline PetscReal Weighted(const PetscReal w[], PetscInt ns, PetscReal *const k[], PetscInt j)
{
  PetscReal acc = w[0] * k[0][j];

  for (PetscInt s = 1; s < ns; s++)
    if (w[s] != 0) acc += w[s] * k[s][j];
  return acc;
}

PetscErrorCode SKDopriStep(SKDopriRHS f, void *ctx, PetscInt n, PetscReal t, PetscReal h, PetscReal t_last, const PetscReal y[],
                           PetscReal *const k[7], PetscReal ytmp[], PetscReal yn[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < n; j++) ytmp[j] = y[j] + h * DP_A[1][0] * k[0][j]; /* (h a21) k1: the rod pair's rounding */
  PetscCall(f(ctx, t + DP_C[1] * h, ytmp, k[1]));
  for (PetscInt s = 2; s < 6; s++) {
    for (PetscInt j = 0; j < n; j++) ytmp[j] = y[j] + h * Weighted(DP_A[s], s, k, j);
    PetscCall(f(ctx, s == 5 ? t_last : t + DP_C[s] * h, ytmp, k[s]));
  }
  for (PetscInt j = 0; j < n; j++) yn[j] = y[j] + h * Weighted(DP_A[6], 6, k, j);
  PetscCall(f(ctx, t_last, yn, k[6]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKDopriErrorNorm(PetscInt m, PetscReal h, PetscReal *const k[7], const PetscReal y[], const PetscReal yn[],
                           const PetscReal atolv[], PetscReal atol, PetscReal rtol)
{
  PetscReal err = 0;

  for (PetscInt j = 0; j < m; j++) {
    PetscReal ej = h * Weighted(DP_E, 7, k, j), sc = (atolv ? atolv[j] : atol) + rtol * PetscMax(PetscAbsReal(y[j]), PetscAbsReal(yn[j]));

    err += (ej / sc) * (ej / sc);
  }
  return PetscSqrtReal(err / m);
}

PetscReal SKDopriFactor(PetscReal err)
{
  return PetscMin(5.0, PetscMax(0.2, 0.9 * PetscPowReal(PetscMax(err, 1e-10), -0.2)));
}

void SKDopriDense(PetscReal h, PetscReal y0, PetscReal y1, const PetscReal ks[7], PetscReal r[5])
{
  PetscReal d = DP_D[0] * ks[0], ydiff = y1 - y0, bspl = h * ks[0] - ydiff;

  for (PetscInt s = 1; s < 7; s++)
    if (DP_D[s] != 0) d += DP_D[s] * ks[s];
  r[0] = y0;
  r[1] = ydiff;
  r[2] = bspl;
  r[3] = ydiff - h * ks[6] - bspl;
  r[4] = h * d;
}
