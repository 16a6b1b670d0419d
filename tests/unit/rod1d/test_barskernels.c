/* Unit tests of the bars2020 kernels (src/rod1d/barskernels.c) against closed forms: modal data, Clenshaw sums,
   Threlfall law (explicit and implicit), exact per-step Duhamel update, zero-friction bar response, stepped-bar roots/orthogonality. */
#include <petscsys.h>
#include "rod1d/barsimpl.h"

#define CHECK_CLOSE(got, want, tol, what)                                                                                        \
  PetscCheck(PetscAbsReal((got) - (want)) <= (tol), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: got %.15g, want %.15g (tol %g)", what, \
             (double)(got), (double)(want), (double)(tol))

/* Modal data of eqs. 13, 14, 17 and the Clenshaw sum/projection against direct cosine sums.
   Tolerance 1e-12 n: the three-term recurrence loses up to n^2 eps (~1e-11 at n = 300) near beta = 0 or pi. */
static PetscErrorCode TestCosineFamily(void)
{
  SKBarsCosineFamily fams[2] = {{300, 0.0, 20.0, 1.0, 5000.0}, {300, 0.5, 20.0, 5.0, 500.0}};

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < 2; f++) {
    SKBarsCosineFamily *fam = &fams[f];
    PetscReal *omega, *mass, *a, *acc;
    PetscCall(PetscMalloc4(fam->n, &omega, fam->n, &mass, fam->n, &a, fam->n, &acc));
    PetscCall(SKBarsCosineFamilyModes(fam, omega, mass));
    for (PetscInt j = 0; j < fam->n; j++) {
      PetscReal w = (f == 0 ? j : (2.0 * (j + 1) - 1) / 2.0) * PETSC_PI * fam->c / fam->length; /* eq. 13 / eq. 14 with m = j + 1 */
      CHECK_CLOSE(omega[j], w, 1e-12 * (1 + w), "modal frequency");
      CHECK_CLOSE(mass[j], fam->rhoA * fam->length * (f == 0 && j == 0 ? 1.0 : 0.5), 1e-14, "modal mass");
      a[j] = PetscSinReal(1.7 * j + 0.3) / (1 + 0.01 * j);
    }
    for (PetscReal x = 0; x <= fam->length; x += 0.37) {
      PetscReal direct = 0;
      for (PetscInt j = 0; j < fam->n; j++) direct += a[j] * PetscCosReal((j + fam->offset) * PETSC_PI * x / fam->length);
      CHECK_CLOSE(SKBarsCosineFamilySum(fam, a, x), direct, 1e-12 * fam->n, "Clenshaw sum");
      for (PetscInt j = 0; j < fam->n; j++) acc[j] = 0;
      SKBarsCosineFamilyAddProjection(fam, 0.7, x, acc);
      for (PetscInt j = 0; j < fam->n; j++)
        CHECK_CLOSE(acc[j], 0.7 * PetscCosReal((j + fam->offset) * PETSC_PI * x / fam->length), 1e-12 * fam->n, "projection");
    }
    {
      /* blocked versions at 13 points (one full block of 8 and a partial one) against the single-point ones */
      PetscReal xs[13], ws[13], vals[13], *acc2;
      PetscCall(PetscCalloc1(fam->n, &acc2));
      for (PetscInt j = 0; j < fam->n; j++) acc[j] = 0;
      for (PetscInt p = 0; p < 13; p++) {
        xs[p] = fam->length * (p + 0.3) / 13;
        ws[p] = 1 + 0.1 * p;
        SKBarsCosineFamilyAddProjection(fam, ws[p], xs[p], acc2);
      }
      SKBarsCosineFamilyEval(fam, a, 13, xs, vals);
      SKBarsCosineFamilyProject(fam, 13, xs, ws, acc);
      for (PetscInt p = 0; p < 13; p++) CHECK_CLOSE(vals[p], SKBarsCosineFamilySum(fam, a, xs[p]), 1e-13, "blocked evaluation");
      for (PetscInt j = 0; j < fam->n; j++) CHECK_CLOSE(acc[j], acc2[j], 1e-12, "blocked projection");
      PetscCall(PetscFree(acc2));
    }
    PetscCall(PetscFree4(omega, mass, a, acc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Threlfall law: T(v95) = 0.95 muN (1 - e^-3 = 0.9502 for k = 3), odd, zero at rest, saturating; v95 of eq. 7. */
static PetscErrorCode TestThrelfall(void)
{
  PetscFunctionBeginUser;
  CHECK_CLOSE(SKBarsThrelfall(0.02, 10, 3, 0.02), 10 * (1 - PetscExpReal(-3.0)), 1e-14, "T(v95)");
  CHECK_CLOSE(SKBarsThrelfall(-0.02, 10, 3, 0.02), -10 * (1 - PetscExpReal(-3.0)), 1e-14, "T(-v95)");
  CHECK_CLOSE(SKBarsThrelfall(0, 10, 3, 0.02), 0, 0, "T(0)");
  CHECK_CLOSE(SKBarsThrelfall(1e3, 10, 3, 0.02), 10, 1e-14, "saturation");
  CHECK_CLOSE(SKBarsThrelfall(1e-12, 10, 3, 0.02), 10 * 3 * 1e-12 / 0.02, 1e-18, "slope at rest k muN / v95 (next term x^2/2 ~ 1e-19)");
  CHECK_CLOSE(SKBarsV95(10, 1e-6, 1), 4e-5 / PETSC_PI, 1e-20, "eq. 7");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Implicit Threlfall force: it solves T = T_threlfall(dv - r T) (to round-off, tolerance 1e-12 muN, over relative
   velocities from deep stick to full sliding, both signs), reduces to the explicit law for r = 0, and about dv = 0 it
   damps the relative velocity by 1 / (1 + r k muN / v95) per step: with eq. 7's v95 and section 3's masses that is
   1 / (1 + (k pi / 4)(1 + rho1A1 / rho2A2)) = 0.261, where the explicit update multiplies it by -1.83 (closed forms). */
static PetscErrorCode TestThrelfallImplicit(void)
{
  const PetscReal muN = 100, k = 3, dt = 1e-6, rho1 = 1, rho2 = 5, v95 = SKBarsV95(muN, dt, rho1), r = dt * (1 / rho1 + 1 / rho2);

  PetscFunctionBeginUser;
  for (PetscReal e = -9; e <= 1; e += 0.25) {
    for (PetscInt sgn = -1; sgn <= 1; sgn += 2) {
      PetscReal dv = sgn * PetscPowReal(10, e), T = SKBarsThrelfallImplicit(dv, r, muN, k, v95);
      CHECK_CLOSE(T, SKBarsThrelfall(dv - r * T, muN, k, v95), 1e-12 * muN, "implicit Threlfall fixed point");
      PetscCheck(T * dv > 0 && PetscAbsReal(r * T) <= PetscAbsReal(dv) * (1 + 1e-14), PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "implicit Threlfall: T = %g must oppose dv = %g and not reverse it", (double)T, (double)dv);
    }
  }
  CHECK_CLOSE(SKBarsThrelfallImplicit(0.3 * v95, 0, muN, k, v95), SKBarsThrelfall(0.3 * v95, muN, k, v95), 1e-14 * muN, "r = 0");
  CHECK_CLOSE(SKBarsThrelfallImplicit(0, r, muN, k, v95), 0, 0, "T at rest");
  {
    PetscReal dv = 1e-9 * v95, T = SKBarsThrelfallImplicit(dv, r, muN, k, v95), damp = 1 / (1 + k * PETSC_PI / 4 * (1 + rho1 / rho2));
    CHECK_CLOSE((dv - r * T) / dv, damp, 1e-8, "linearised decay per step (next term ~ dv / v95)");
    CHECK_CLOSE(1 - r * SKBarsThrelfall(dv, muN, k, v95) / dv, 1 - k * PETSC_PI / 4 * (1 + rho1 / rho2), 1e-8, "explicit: -1.83");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Exact step against closed forms of one oscillator: free vibration, constant force, pulse load (breakpoint inside a
   step), rigid mode (omega = 0). Tolerance 1e-11 relative: the update is exact, only round-off over 1000 steps remains. */
static PetscErrorCode TestModalStep(void)
{
  const PetscReal omegas[3] = {0.0, 785.398, 1.9e5};
  SKTimeFunction pulse      = {.type = SK_TF_PULSE, .amplitude = 10, .t0 = 0, .t1 = 1e-3};

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 3; i++) {
    PetscReal w = omegas[i], dt = 3.3e-6, eta = 0.01, etadot = 2.0, q = -0.5, g = 0.05, eta2 = 0, etadot2 = 0, S, C;
    SKBarsStepCoef coef;
    PetscInt nsteps = 1000; /* t_end = 3.3e-3 > pulse end 1e-3, which falls inside step 303 */
    SKBarsStepCoefCompute(w, dt, &coef);
    for (PetscInt s = 0; s < nsteps; s++) {
      SKBarsModalStep(1, &coef, NULL, NULL, NULL, &q, &eta, &etadot);
      PetscCall(SKBarsLoadDuhamel(&pulse, s * dt, (s + 1) * dt, 1, &w, &S, &C));
      SKBarsModalStep(1, &coef, &g, &S, &C, NULL, &eta2, &etadot2);
    }
    {
      PetscReal t = nsteps * dt, tp = pulse.t1, A = g * pulse.amplitude, e, ed, e2, ed2;
      if (w == 0) {
        e   = 0.01 + 2.0 * t + 0.5 * q * t * t;
        ed  = 2.0 + q * t;
        e2  = A * tp * (t - 0.5 * tp);
        ed2 = A * tp;
      } else {
        e   = 0.01 * PetscCosReal(w * t) + 2.0 / w * PetscSinReal(w * t) + q * (1 - PetscCosReal(w * t)) / (w * w);
        ed  = -0.01 * w * PetscSinReal(w * t) + 2.0 * PetscCosReal(w * t) + q * PetscSinReal(w * t) / w;
        e2  = A * (PetscCosReal(w * (t - tp)) - PetscCosReal(w * t)) / (w * w);
        ed2 = A * (-PetscSinReal(w * (t - tp)) + PetscSinReal(w * t)) / w;
      }
      CHECK_CLOSE(eta, e, 1e-11 * (PetscAbsReal(e) + 1e-3), "free + constant force displacement");
      CHECK_CLOSE(etadot, ed, 1e-11 * (PetscAbsReal(ed) + 1), "free + constant force velocity");
      CHECK_CLOSE(eta2, e2, 1e-11 * (PetscAbsReal(e2) + A / (w * w + 1)), "pulse displacement");
      CHECK_CLOSE(etadot2, ed2, 1e-11 * (PetscAbsReal(ed2) + A / (w + 1)), "pulse velocity");
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Zero friction, bar 1 of section 3 (free-free, rhoA = 1, c = 5000, L = 20) under the block load 10 N for 1 ms:
   d'Alembert gives the free-end velocity F/(rhoA c) = 2e-3 m/s during the pulse and rest after it until the wave
   returns at 2L/c = 8 ms, so u(0, 3 ms) = 2e-6 m; the rigid mode carries the momentum F t_p / (rhoA L).
   Tolerance 1 % on u: the modal sum of a kinked displacement converges like 1/N (N = 2000 modes, error ~0.1 %). */
static PetscErrorCode TestBarWave(void)
{
  SKBarsCosineFamily fam = {2000, 0.0, 20.0, 1.0, 5000.0};
  SKTimeFunction pulse   = {.type = SK_TF_PULSE, .amplitude = 10, .t0 = 0, .t1 = 1e-3};
  PetscReal *omega, *mass, *g, *S, *C, *eta, *etadot, dt = 5e-6;
  SKBarsStepCoef *coef;
  PetscInt n = fam.n, nsteps = 600;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc7(n, &omega, n, &mass, n, &g, n, &S, n, &C, n, &eta, n, &etadot));
  PetscCall(PetscMalloc1(n, &coef));
  PetscCall(SKBarsCosineFamilyModes(&fam, omega, mass));
  for (PetscInt j = 0; j < n; j++) {
    g[j]   = 1.0 / mass[j]; /* phi_j(0) = 1 */
    eta[j] = etadot[j] = 0;
    SKBarsStepCoefCompute(omega[j], dt, &coef[j]);
  }
  for (PetscInt s = 0; s < nsteps; s++) {
    PetscCall(SKBarsLoadDuhamel(&pulse, s * dt, (s + 1) * dt, n, omega, S, C));
    SKBarsModalStep(n, coef, g, S, C, NULL, eta, etadot);
  }
  CHECK_CLOSE(SKBarsCosineFamilySum(&fam, eta, 0), 2e-6, 2e-8, "u1(0, 3 ms) vs d'Alembert");
  CHECK_CLOSE(etadot[0], 10 * 1e-3 / 20.0, 1e-15, "rigid-mode momentum");
  /* the wave front is at c t = 15 m: the bar ahead of it (x > 15 m) is still at rest, behind the pulse tail (x < 10 m) too */
  CHECK_CLOSE(SKBarsCosineFamilySum(&fam, eta, 17.5), 0, 2e-8, "u1 ahead of the front");
  CHECK_CLOSE(SKBarsCosineFamilySum(&fam, etadot, 12.5), 2e-3, 2e-5, "u1dot inside the pulse (x = 12.5 m)");
  CHECK_CLOSE(SKBarsModalEnergy(n, omega, mass, eta, etadot), 10 * 10 * 1e-3 / 5000.0, 1e-3 * 2e-5, "energy = work F^2 t_p / (rhoA c)");
  PetscCall(PetscFree7(omega, mass, g, S, C, eta, etadot));
  PetscCall(PetscFree(coef));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stepped bar (section 2.3). (a) Three equal segments form a uniform fixed-free bar: roots (2m-1) pi c / (2L) and
   modal mass rhoA L / 2 to 1e-10 relative (bisection to round-off). (b) The 3-bar equivalent of section 3: no root
   missed (no sign change between consecutive roots on a 64x finer grid), modes orthogonal with respect to rhoA
   (eq. 25) to 1e-9 relative by 40-point Gauss per wavelength, and a_n from the closed form equal to the quadrature. */
static PetscErrorCode TestStepped(void)
{
  SKBarsStepped uni = {3, {5, 5, 5}, {1.25e6, 1.25e6, 1.25e6}, {7, 8, 5}};
  SKBarsStepped eqv = {3, {1, 6, 5}, {25e6, 26.25e6, 1.25e6}, {10, 10, 10}};
  PetscInt n = 40, nfine = 64;
  PetscReal omega[200];

  PetscFunctionBeginUser;
  PetscCall(SKBarsSteppedRoots(&uni, n, omega));
  for (PetscInt m = 0; m < n; m++) {
    PetscReal w = (2.0 * m + 1) * PETSC_PI * 500.0 / (2 * 20.0);
    CHECK_CLOSE(omega[m], w, 1e-10 * w, "uniform-bar root");
    CHECK_CLOSE(SKBarsSteppedModalMass(&uni, omega[m]), 5 * 20 / 2.0, 1e-9, "uniform-bar modal mass");
    CHECK_CLOSE(SKBarsSteppedModeValue(&uni, omega[m], 11.3), PetscCosReal(w * 11.3 / 500.0), 1e-9, "uniform-bar mode shape");
  }
  PetscCall(SKBarsSteppedRoots(&eqv, 200, omega));
  for (PetscInt m = 0; m < 200; m++) {
    PetscReal lo = m == 0 ? 1e-9 : omega[m - 1], hi = omega[m], f0 = SKBarsSteppedCharacteristic(&eqv, lo + 1e-7 * (hi - lo));
    for (PetscInt i = 1; i < nfine; i++) {
      PetscReal f = SKBarsSteppedCharacteristic(&eqv, lo + (hi - lo) * (i + 0.5) / nfine);
      PetscCheck(f * f0 > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "root missed between %g and %g rad/s", (double)lo, (double)hi);
    }
  }
  {
    /* Gauss quadrature, per segment, fine enough for mode 60 (ks up to ~200 per segment) */
    PetscInt nm = 60, ncell = 400;
    PetscReal M[60][60];
    PetscCall(PetscArrayzero(&M[0][0], 60 * 60));
    for (PetscInt i = 0; i < eqv.nseg; i++) {
      PetscReal start = 0;
      for (PetscInt k = 0; k < i; k++) start += eqv.len[k];
      for (PetscInt c = 0; c < ncell; c++) {
        for (PetscInt gq = 0; gq < 5; gq++) {
          static const PetscReal gx[5] = {-0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831, 0.9061798459386640};
          static const PetscReal gw[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                                          0.2369268850561891};
          PetscReal h = eqv.len[i] / ncell, s = start + h * (c + 0.5 + 0.5 * gx[gq]), w = 0.5 * h * gw[gq] * eqv.rhoA[i], phi[60];
          for (PetscInt a = 0; a < nm; a++) phi[a] = SKBarsSteppedModeValue(&eqv, omega[a], s);
          for (PetscInt a = 0; a < nm; a++)
            for (PetscInt b = 0; b < nm; b++) M[a][b] += w * phi[a] * phi[b];
        }
      }
    }
    for (PetscInt a = 0; a < nm; a++) {
      CHECK_CLOSE(M[a][a], SKBarsSteppedModalMass(&eqv, omega[a]), 1e-9 * M[a][a], "closed-form modal mass");
      for (PetscInt b = 0; b < a; b++) CHECK_CLOSE(M[a][b] / PetscSqrtReal(M[a][a] * M[b][b]), 0, 1e-9, "orthogonality (eq. 25)");
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestCosineFamily());
  PetscCall(TestThrelfall());
  PetscCall(TestThrelfallImplicit());
  PetscCall(TestModalStep());
  PetscCall(TestBarWave());
  PetscCall(TestStepped());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bars2020 kernels: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
