/* The shared Dormand-Prince 5(4) pair (src/shared/dopri5.h) on the harmonic oscillator x'' = -x, a closed form that
   exercises every stage: with fixed steps the global error at t = 2 falls as h^5 (measured order within 0.3 of 5
   between h = 0.1 and 0.05, where the error is far above round-off: a wrong tableau entry drops the order to 1-4); the
   error norm estimates the local error (the difference of the 5th- and 4th-order solutions, O(h^5)) and falls as h^5;
   the dense output is 4th order in h at the mid-points (order within 0.3 of 5 for the local interpolation error,
   which is O(h^5) per step); FSAL: k[6] equals f at the new point bit for bit. A non-autonomous equation
   y' = cos t checks the stage times (the last two at T_LAST): its solution sin t is reproduced to 1e-10 at h = 0.1. */
#include <stickslip/core.h>
#include "shared/dopri5.h"

static PetscErrorCode Oscillator(void *ctx, PetscReal t, const PetscReal y[], PetscReal dy[])
{
  PetscFunctionBegin;
  (void)ctx;
  (void)t;
  dy[0] = y[1];
  dy[1] = -y[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Forced(void *ctx, PetscReal t, const PetscReal y[], PetscReal dy[])
{
  PetscFunctionBegin;
  (void)ctx;
  (void)y;
  dy[0] = PetscCosReal(t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Integrates the oscillator from (1, 0) to t = 2 with N steps; returns the global error, the largest error norm with
   atol = 1 and rtol = 0 (the local error estimate), the largest dense-output error at the step mid-points. */
static PetscErrorCode Run(PetscInt N, PetscReal *global, PetscReal *estimate, PetscReal *dense)
{
  PetscReal kb[7][2], *k[7], y[2] = {1, 0}, yn[2], yt[2], h = 2.0 / N, t = 0;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < 7; s++) k[s] = kb[s];
  PetscCall(Oscillator(NULL, 0, y, k[0]));
  *estimate = *dense = 0;
  for (PetscInt i = 0; i < N; i++) {
    PetscReal f[2], r[5], ks[7];

    PetscCall(SKDopriStep(Oscillator, NULL, 2, t, h, t + h, y, k, yt, yn));
    PetscCall(Oscillator(NULL, t + h, yn, f));
    PetscCheck(f[0] == k[6][0] && f[1] == k[6][1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "FSAL: k[6] is not f(t + h, yn)");
    *estimate = PetscMax(*estimate, SKDopriErrorNorm(2, h, k, y, yn, NULL, 1, 0));
    for (PetscInt s = 0; s < 7; s++) ks[s] = k[s][0];
    SKDopriDense(h, y[0], yn[0], ks, r);
    /* the local solution through (t, y) at the mid-point */
    *dense = PetscMax(*dense, PetscAbsReal(SKDopriDenseEval(r, 0.5) - (y[0] * PetscCosReal(h / 2) + y[1] * PetscSinReal(h / 2))));
    y[0]   = yn[0];
    y[1]   = yn[1];
    for (PetscInt c = 0; c < 2; c++) k[0][c] = k[6][c];
    t += h;
  }
  *global = PetscSqrtReal(PetscSqr(y[0] - PetscCosReal(2.0)) + PetscSqr(y[1] + PetscSinReal(2.0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscReal g1, e1, d1, g2, e2, d2, og, oe, od;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(Run(20, &g1, &e1, &d1));
  PetscCall(Run(40, &g2, &e2, &d2));
  og = PetscLog2Real(g1 / g2);
  oe = PetscLog2Real(e1 / e2);
  od = PetscLog2Real(d1 / d2);
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "global error %.3e -> %.3e (order %.2f), estimate %.3e -> %.3e (order %.2f), dense %.3e -> %.3e (order %.2f)\n",
                        (double)g1, (double)g2, (double)og, (double)e1, (double)e2, (double)oe, (double)d1, (double)d2, (double)od));
  PetscCheck(PetscAbsReal(og - 5) < 0.3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "global order %g, expected 5", (double)og);
  PetscCheck(PetscAbsReal(oe - 5) < 0.3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "error-estimate order %g, expected 5", (double)oe);
  PetscCheck(PetscAbsReal(od - 5) < 0.3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dense-output local order %g, expected 5", (double)od);
  PetscCheck(SKDopriFactor(1) == 0.9 && SKDopriFactor(1e12) == 0.2 && SKDopriFactor(0) == 5, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "step-size factor not limited to [0.2, 5]");
  {
    PetscReal kb[7], *k[7], y = 0, yn, yt, t = 0, h = 0.1;

    for (PetscInt s = 0; s < 7; s++) k[s] = &kb[s];
    PetscCall(Forced(NULL, 0, &y, k[0]));
    for (PetscInt i = 0; i < 30; i++, t += h) {
      PetscCall(SKDopriStep(Forced, NULL, 1, t, h, t + h, &y, k, &yt, &yn));
      y     = yn;
      kb[0] = *k[6];
    }
    PetscCheck(PetscAbsReal(y - PetscSinReal(t)) < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "y' = cos t: %g vs sin t = %g", (double)y,
               (double)PetscSinReal(t));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "dopri5 tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
