/* The bicubic B-spline surface through the samples (include/stickslip/rough.h).
   - It reproduces a bicubic polynomial exactly (the spline space contains it and interpolation is a projection):
     error below 1e-12 for values of order 1 (round-off of the banded solves, condition number of order 10).
   - It interpolates the samples of a random field to 1e-12 relative.
   - It keeps the RMS: over R realisations, the mean square of the surface on a grid 4 times finer than the samples,
     divided by sigma^2, has an ensemble mean within 3 standard errors of [1 - bound, 1]. Between the samples a cubic
     interpolant attenuates a wave of wavenumber k by a share of order (k dx)^4 / 384 of its mean square (the k^4 term
     of the spline's error constant); averaged over the Gaussian spectrum, whose 2D mean of |k|^4 is 32 / l_c^4, that
     is the stated bound (dx / l_c)^4 / 12: 8.3 % at the coarsest grid the generator accepts (l_c = dx), 0.52 % at
     l_c = 2 dx and 0.03 % at l_c = 4 dx. It is an estimate, not a theorem; the measured losses (printed) are
     6.6 +- 0.5 % at l_c = dx and within their standard error of the bound otherwise.
   - The node map moves the bottom face onto the surface lowered by the shift and leaves the top face where it was.
   - On the knots of an IGA patch (SKRoughSurfaceCreateWithKnots(), uniform ones here) it reproduces the same
     polynomial to 1e-12, its control net sits at the Greville abscissae of those knots, and knots that cannot
     interpolate at the samples (Schoenberg-Whitney violated) are refused with PETSC_ERR_ARG_WRONG. */
#include <stickslip/rough.h>

static PetscErrorCode TestPolynomial(void)
{
  const PetscInt n[2]       = {7, 5};
  const PetscReal length[2] = {2.0, 1.5};
  PetscReal h[35], err = 0;
  SKRoughSurface s;

#define POLY(x, y) ((x) * (x) * (x)-2 * (x) * (y) * (y) + (y)-0.3 * (x) * (x) * (y) * (y) * (y))
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n[1]; j++)
    for (PetscInt i = 0; i < n[0]; i++) {
      const PetscReal x = length[0] * i / (n[0] - 1), y = length[1] * j / (n[1] - 1);
      h[j * n[0] + i] = POLY(x, y);
    }
  PetscCall(SKRoughSurfaceCreate(n, length, h, &s));
  for (PetscInt j = 0; j <= 40; j++)
    for (PetscInt i = 0; i <= 40; i++) {
      const PetscReal x = length[0] * i / 40, y = length[1] * j / 40;
      err = PetscMax(err, PetscAbsReal(SKRoughSurfaceHeight(s, x, y) - POLY(x, y)));
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bicubic polynomial reproduced to %.2e\n", (double)err));
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bicubic polynomial reproduced only to %g", (double)err);
  PetscCall(SKRoughSurfaceDestroy(&s));
#undef POLY
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The polynomial of TestPolynomial() on uniform knots (3 and 2 spans, as a box patch refined to samples - 3 spans). */
static PetscErrorCode TestKnots(void)
{
  const PetscInt n[2]       = {6, 5};
  const PetscReal length[2] = {2.0, 1.5};
  const PetscReal tx[10] = {0, 0, 0, 0, 2.0 / 3, 4.0 / 3, 2, 2, 2, 2}, ty[9] = {0, 0, 0, 0, 0.75, 1.5, 1.5, 1.5, 1.5};
  const PetscReal bad[10] = {0, 0, 0, 0, 1.7, 1.8, 2, 2, 2, 2}; /* N_4 lives on [1.7, 2]: sample 4 (x = 1.6) is outside */
  const PetscReal *P;
  PetscReal h[30], err = 0, gerr = 0;
  PetscErrorCode ierr;
  SKRoughSurface s = NULL;

#define POLY(x, y) ((x) * (x) * (x)-2 * (x) * (y) * (y) + (y)-0.3 * (x) * (x) * (y) * (y) * (y))
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n[1]; j++)
    for (PetscInt i = 0; i < n[0]; i++) h[j * n[0] + i] = POLY(length[0] * i / (n[0] - 1), length[1] * j / (n[1] - 1));
  PetscCall(SKRoughSurfaceCreateWithKnots(n, length, tx, ty, h, &s));
  for (PetscInt j = 0; j <= 40; j++)
    for (PetscInt i = 0; i <= 40; i++) {
      const PetscReal x = length[0] * i / 40, y = length[1] * j / 40;
      err = PetscMax(err, PetscAbsReal(SKRoughSurfaceHeight(s, x, y) - POLY(x, y)));
    }
  PetscCall(SKRoughSurfaceGetControlNet(s, NULL, &P, NULL, NULL));
  for (PetscInt j = 0; j < n[1]; j++)
    for (PetscInt i = 0; i < n[0]; i++) {
      gerr = PetscMax(gerr, PetscAbsReal(P[3 * (j * n[0] + i)] - (tx[i + 1] + tx[i + 2] + tx[i + 3]) / 3));
      gerr = PetscMax(gerr, PetscAbsReal(P[3 * (j * n[0] + i) + 1] - (ty[j + 1] + ty[j + 2] + ty[j + 3]) / 3));
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "on uniform knots: polynomial reproduced to %.2e, control net off the Greville abscissae by %.2e\n", (double)err,
                        (double)gerr));
  PetscCheck(err < 1e-12 && gerr < 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "uniform knots: polynomial to %g, Greville to %g", (double)err,
             (double)gerr);
  PetscCall(SKRoughSurfaceDestroy(&s));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKRoughSurfaceCreateWithKnots(n, length, bad, NULL, h, &s);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_WRONG && !s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "knots violating Schoenberg-Whitney accepted (error %d)",
             (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "knots that cannot interpolate refused\n"));
#undef POLY
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Interpolation of the samples and the RMS on a 4x finer grid for l_c = lag grid spacings. */
static PetscErrorCode TestRandom(PetscReal lag, PetscInt R)
{
  const PetscReal bound = 1 / (12 * PetscPowReal(lag, 4)); /* (dx / l_c)^4 / 12 */
  SKRandomFieldParams p;
  SKRandomField field;
  PetscReal *h, *ratio, err = 0, mean = 0, se = 0;
  const PetscInt n = 20, fine = 4 * (n - 1) + 1;

  PetscFunctionBeginUser;
  PetscCall(SKRandomFieldParamsSetDefaults(&p));
  p.rms                = 1e-3;
  p.correlation_length = lag / (n - 1);
  p.seed               = 5;
  PetscCall(SKRandomFieldCreate(&p, &field));
  PetscCall(PetscMalloc2(n * n, &h, R, &ratio));
  for (PetscInt r = 0; r < R; r++) {
    SKRoughSurface s;
    PetscReal ms = 0;
    PetscCall(SKRandomFieldSample(field, r, h));
    PetscCall(SKRoughSurfaceCreate(p.n, p.length, h, &s));
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++)
        err = PetscMax(err, PetscAbsReal(SKRoughSurfaceHeight(s, (PetscReal)i / (n - 1), (PetscReal)j / (n - 1)) - h[j * n + i]) / p.rms);
    for (PetscInt j = 0; j < fine; j++)
      for (PetscInt i = 0; i < fine; i++) ms += PetscSqr(SKRoughSurfaceHeight(s, (PetscReal)i / (fine - 1), (PetscReal)j / (fine - 1)));
    ratio[r] = ms / (fine * fine) / PetscSqr(p.rms);
    mean += ratio[r] / R;
    PetscCall(SKRoughSurfaceDestroy(&s));
  }
  for (PetscInt r = 0; r < R; r++) se += PetscSqr(ratio[r] - mean);
  se = PetscSqrtReal(se / (R - 1) / R);
  PetscCall(PetscPrintf(
      PETSC_COMM_WORLD,
      "l_c = %g dx: samples interpolated to %.2e sigma; mean square on the 4x finer grid %.5f +- %.5f sigma^2 (bound 1 - %.4f)\n",
      (double)lag, (double)err, (double)mean, (double)se, (double)bound));
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "samples interpolated only to %g sigma", (double)err);
  PetscCheck(mean >= 1 - bound - 3 * se && mean <= 1 + 3 * se, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "interpolated mean square %g sigma^2 +- %g outside [1 - %g, 1]", (double)mean, (double)se, (double)bound);
  PetscCall(PetscFree2(h, ratio));
  PetscCall(SKRandomFieldDestroy(&field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestMapNodes(void)
{
  const PetscInt n[2]       = {5, 5};
  const PetscReal length[2] = {1, 1}, lower[3] = {0, 0, 0}, upper[3] = {1, 1, 0.2};
  PetscReal h[25], X[2 * 3 * 9];
  SKRoughSurface s;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 25; k++) h[k] = 1e-3 * PetscSinReal(1.7 * k);
  PetscCall(SKRoughSurfaceCreate(n, length, h, &s));
  for (PetscInt k = 0; k < 9; k++) { /* a 3 x 3 grid of nodes at the bottom (z = 0) and at the top (z = 0.2) */
    for (PetscInt l = 0; l < 2; l++) {
      X[3 * (9 * l + k) + 0] = 0.5 * (k % 3);
      X[3 * (9 * l + k) + 1] = 0.5 * (k / 3);
      X[3 * (9 * l + k) + 2] = 0.2 * l;
    }
  }
  PetscCall(SKRoughSurfaceMapNodes(s, lower, upper, -2e-3, 18, X));
  for (PetscInt k = 0; k < 9; k++) {
    const PetscReal want = SKRoughSurfaceHeight(s, X[3 * k], X[3 * k + 1]) + 2e-3;
    PetscCheck(PetscAbsReal(X[3 * k + 2] - want) < 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "bottom node %" PetscInt_FMT " at z = %g, not %g", k, (double)X[3 * k + 2], (double)want);
    PetscCheck(X[3 * (9 + k) + 2] == 0.2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "top node %" PetscInt_FMT " moved to z = %g", k,
               (double)X[3 * (9 + k) + 2]);
  }
  PetscCall(SKRoughSurfaceDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestPolynomial());
  PetscCall(TestMapNodes());
  PetscCall(TestKnots());
  PetscCall(TestRandom(1, 400));
  PetscCall(TestRandom(2, 400));
  PetscCall(TestRandom(4, 400));
  PetscCall(PetscFinalize());
  return 0;
}
