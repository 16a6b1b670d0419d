/* Unit tests of the material kernels against closed forms: objectivity (zero stress under rigid rotations),
   P = dpsi/dF, the small-strain limit, uniaxial/plane closed forms, inverted points, parameter checks, the registry. */
#include <math.h>
#include <string.h>
#include <stickslip/material.h>
#include "material/materialimpl.h" /* the lane-wise log of the Neo-Hookean kernel */

static const char *const types[]    = {"linear_elastic", "saint_venant_kirchhoff", "neo_hookean"};
static const SKStressState states[] = {SK_STRESS_STATE_3D, SK_STRESS_STATE_PLANE_STRAIN, SK_STRESS_STATE_PLANE_STRESS};
static const PetscReal E_ = 2.0e9, nu_ = 0.3; /* GPa range: tolerances below are relative to E */

/* Deterministic pseudo-random numbers in [-1, 1) (no dependence on PETSc's random backend). */
static PetscReal Rand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0)) * 2.0 - 1.0;
}

static void RandomF(PetscInt dim, PetscReal amp, unsigned long long *s, PetscReal F[])
{
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++) F[i * dim + j] = (i == j ? 1.0 : 0.0) + amp * Rand(s);
}

static void MatMul(PetscInt dim, const PetscReal A[], const PetscReal B[], PetscReal C[])
{
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++) {
      C[i * dim + j] = 0.0;
      for (PetscInt k = 0; k < dim; k++) C[i * dim + j] += A[i * dim + k] * B[k * dim + j];
    }
}

/* Rotation by angle about axis (unit) in 3D, or about z in 2D. */
static void Rotation(PetscInt dim, PetscReal angle, const PetscReal axis[3], PetscReal Q[])
{
  const PetscReal c = cos(angle), s = sin(angle);
  if (dim == 2) {
    Q[0] = c, Q[1] = -s, Q[2] = s, Q[3] = c;
    return;
  }
  const PetscReal x = axis[0], y = axis[1], z = axis[2];
  const PetscReal R[9] = {c + x * x * (1 - c),     x * y * (1 - c) - z * s, x * z * (1 - c) + y * s,
                          y * x * (1 - c) + z * s, c + y * y * (1 - c),     y * z * (1 - c) - x * s,
                          z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)};
  for (PetscInt k = 0; k < 9; k++) Q[k] = R[k];
}

static PetscReal MaxAbs(PetscInt n, const PetscReal a[])
{
  PetscReal m = 0.0;
  for (PetscInt k = 0; k < n; k++) m = PetscMax(m, PetscAbsReal(a[k]));
  return m;
}

/* Zero stress under rigid rotations (exact 90 degrees, and a general one), for the finite-strain laws. */
static PetscErrorCode TestRotation(void)
{
  const PetscReal axis[3] = {1.0 / sqrt(3.0), 1.0 / sqrt(3.0), 1.0 / sqrt(3.0)}, zaxis[3] = {0, 0, 1};
  PetscFunctionBeginUser;
  for (PetscInt t = 1; t < 3; t++)
    for (PetscInt s = 0; s < 3; s++) {
      SKMaterial mat;
      SKMaterialPoint pt;
      PetscReal Q[9];
      PetscInt dim = states[s] == SK_STRESS_STATE_3D ? 3 : 2;
      PetscCall(SKMaterialCreate(types[t], states[s], E_, nu_, 1000.0, &mat));
      for (PetscInt r = 0; r < 2; r++) {
        Rotation(dim, r == 0 ? PETSC_PI / 2 : 0.7, r == 0 ? zaxis : axis, Q);
        if (r == 0) /* the exact 90-degree rotation matrix (cos(pi/2) is 6e-17, not 0) */
          for (PetscInt k = 0; k < dim * dim; k++) Q[k] = round(Q[k]);
        PetscCall(SKMaterialEvaluate(mat, Q, &pt));
        /* round-off: entries of F are O(1), stresses O(E eps); 1e-13 E allows a few hundred ulps */
        PetscReal tol = r == 0 ? 1e-14 * E_ : 1e-13 * E_;
        PetscCheck(MaxAbs(9, pt.P) <= tol && MaxAbs(9, pt.sigma) <= tol && PetscAbsReal(pt.psi) <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s %s: rotation %" PetscInt_FMT " gives |P| = %g, |sigma| = %g, psi = %g", types[t], SKStressStateNames[states[s]], r,
                   (double)MaxAbs(9, pt.P), (double)MaxAbs(9, pt.sigma), (double)pt.psi);
        PetscCheck(PetscAbsReal(pt.J - 1.0) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "J = %.17g under a rotation", (double)pt.J);
      }
      /* objectivity of a strained state: P(QF) = Q P(F), sigma(QF) = Q sigma(F) Q^T */
      {
        unsigned long long seed = 11;
        PetscReal F[9], QF[9], QP[9];
        SKMaterialPoint p0, p1;
        RandomF(dim, 0.2, &seed, F);
        MatMul(dim, Q, F, QF);
        PetscCall(SKMaterialEvaluate(mat, F, &p0));
        PetscCall(SKMaterialEvaluate(mat, QF, &p1));
        MatMul(dim, Q, p0.P, QP);
        for (PetscInt k = 0; k < dim * dim; k++)
          PetscCheck(PetscAbsReal(QP[k] - p1.P[k]) <= 1e-12 * E_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: P(QF) != Q P(F) by %g", types[t],
                     SKStressStateNames[states[s]], (double)(QP[k] - p1.P[k]));
        PetscCheck(PetscAbsReal(p0.psi - p1.psi) <= 1e-12 * E_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "psi not objective");
      }
      PetscCall(SKMaterialDestroy(&mat));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P = dpsi/dF by central differences, for every type and stress state (in plane stress the in-plane P is the
   derivative of the reduced energy since S33 = 0). Tolerance: truncation h^2 |psi'''| ~ 1e-12 E and round-off
   eps |psi| / h ~ 1e-11 E with h = 1e-6; 1e-8 E leaves a margin of 1000 and still catches any wrong term (O(0.1 E)). */
static PetscErrorCode TestDerivative(void)
{
  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < 3; t++)
    for (PetscInt s = 0; s < 3; s++) {
      SKMaterial mat;
      SKMaterialPoint pt, pp, pm;
      PetscInt dim            = states[s] == SK_STRESS_STATE_3D ? 3 : 2;
      unsigned long long seed = 7 + (unsigned long long)(3 * t + s);
      PetscReal F[9], Fh[9], h = 1e-6;
      PetscCall(SKMaterialCreate(types[t], states[s], E_, nu_, 1000.0, &mat));
      for (PetscInt trial = 0; trial < 5; trial++) {
        RandomF(dim, 0.25, &seed, F);
        PetscCall(SKMaterialEvaluate(mat, F, &pt));
        PetscCheck(!pt.inverted, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unexpected inversion");
        for (PetscInt k = 0; k < dim * dim; k++) {
          PetscCall(PetscArraycpy(Fh, F, dim * dim));
          Fh[k] = F[k] + h;
          PetscCall(SKMaterialEvaluate(mat, Fh, &pp));
          Fh[k] = F[k] - h;
          PetscCall(SKMaterialEvaluate(mat, Fh, &pm));
          const PetscReal d = (pp.psi - pm.psi) / (2 * h);
          PetscCheck(PetscAbsReal(d - pt.P[k]) <= 1e-8 * E_, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "%s %s: dpsi/dF_%" PetscInt_FMT " = %.10g but P = %.10g", types[t], SKStressStateNames[states[s]], k, (double)d,
                     (double)pt.P[k]);
        }
      }
      PetscCall(SKMaterialDestroy(&mat));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Small-strain limit: for F = I + e H the finite-strain laws agree with linear elasticity up to O(e) relative. */
static PetscErrorCode TestSmallStrain(void)
{
  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < 3; s++) {
    SKMaterial le;
    PetscInt dim            = states[s] == SK_STRESS_STATE_3D ? 3 : 2;
    unsigned long long seed = 5;
    PetscReal F[9], e = 1e-6;
    SKMaterialPoint p0, p1;
    PetscCall(SKMaterialCreate("linear_elastic", states[s], E_, nu_, 1000.0, &le));
    RandomF(dim, e, &seed, F);
    PetscCall(SKMaterialEvaluate(le, F, &p0));
    for (PetscInt t = 1; t < 3; t++) {
      SKMaterial mat;
      PetscCall(SKMaterialCreate(types[t], states[s], E_, nu_, 1000.0, &mat));
      PetscCall(SKMaterialEvaluate(mat, F, &p1));
      /* geometric and material nonlinearity are O(e |P|); 20 e covers the constants (a few lambda/mu) */
      for (PetscInt k = 0; k < 9; k++)
        PetscCheck(PetscAbsReal(p1.sigma[k] - p0.sigma[k]) <= 20 * e * MaxAbs(9, p0.sigma), PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s %s: sigma_%" PetscInt_FMT " %g vs linear %g", types[t], SKStressStateNames[states[s]], k, (double)p1.sigma[k],
                   (double)p0.sigma[k]);
      PetscCheck(PetscAbsReal(p1.F33 - p0.F33) <= 20 * e * e + 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "F33 differs from linear elasticity");
      PetscCall(SKMaterialDestroy(&mat));
    }
    PetscCall(SKMaterialDestroy(&le));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Expect(const char *what, PetscReal got, PetscReal want, PetscReal tol)
{
  PetscFunctionBeginUser;
  PetscCheck(PetscAbsReal(got - want) <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s = %.16g, expected %.16g (tol %g)", what, (double)got,
             (double)want, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closed forms (tolerance: a few ulps of E, the operations are a handful of flops). */
static PetscErrorCode TestClosedForms(void)
{
  SKMaterial mat;
  SKMaterialPoint pt;
  PetscReal lambda, mu, tol = 1e-13 * E_;
  const PetscReal e = 0.01, st = 1.3; /* small strain, and a large stretch */

  PetscFunctionBeginUser;
  PetscCall(SKMaterialLameFromYoung(E_, nu_, &lambda, &mu));
  /* linear elastic uniaxial stress: F = diag(1+e, 1-nu e, 1-nu e) -> sigma11 = E e, others 0 */
  {
    const PetscReal F[9] = {1 + e, 0, 0, 0, 1 - nu_ * e, 0, 0, 0, 1 - nu_ * e};
    PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_3D, E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, F, &pt));
    PetscCall(Expect("LE 3D uniaxial sigma11", pt.sigma[0], E_ * e, tol));
    PetscCall(Expect("LE 3D uniaxial sigma22", pt.sigma[4], 0.0, tol));
    PetscCall(Expect("LE 3D uniaxial psi", pt.psi, 0.5 * E_ * e * e, 1e-13 * E_ * e));
    PetscCall(SKMaterialDestroy(&mat));
  }
  /* linear elastic plane stress: F = diag(1+e, 1-nu e) -> sigma11 = E e, eps33 = -nu e */
  {
    const PetscReal F[4] = {1 + e, 0, 0, 1 - nu_ * e};
    PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRESS, E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, F, &pt));
    PetscCall(Expect("LE plane stress sigma11", pt.sigma[0], E_ * e, tol));
    PetscCall(Expect("LE plane stress sigma22", pt.sigma[4], 0.0, tol));
    PetscCall(Expect("LE plane stress sigma33", pt.sigma[8], 0.0, tol));
    PetscCall(Expect("LE plane stress F33", pt.F33, 1 - nu_ * e, 1e-15));
    PetscCall(SKMaterialDestroy(&mat));
  }
  /* linear elastic plane strain uniaxial strain: sigma11 = (lambda+2mu) e, sigma22 = sigma33 = lambda e */
  {
    const PetscReal F[4] = {1 + e, 0, 0, 1};
    PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRAIN, E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, F, &pt));
    PetscCall(Expect("LE plane strain sigma11", pt.sigma[0], (lambda + 2 * mu) * e, tol));
    PetscCall(Expect("LE plane strain sigma22", pt.sigma[4], lambda * e, tol));
    PetscCall(Expect("LE plane strain sigma33", pt.sigma[8], lambda * e, tol));
    PetscCall(SKMaterialDestroy(&mat));
  }
  /* Neo-Hookean uniaxial strain F = diag(s,1,1): P11 = mu (s - 1/s) + lambda ln s / s, P22 = P33 = lambda ln s,
     sigma = P F^T / J: sigma11 = P11, sigma22 = lambda ln s / s; same in plane strain */
  for (PetscInt s = 0; s < 2; s++) {
    const PetscReal F3[9] = {st, 0, 0, 0, 1, 0, 0, 0, 1}, F2[4] = {st, 0, 0, 1};
    const PetscReal P11 = mu * (st - 1 / st) + lambda * log(st) / st, P22 = lambda * log(st);
    PetscCall(SKMaterialCreate("neo_hookean", states[s], E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, s ? F2 : F3, &pt));
    PetscCall(Expect("NH uniaxial strain P11", pt.P[0], P11, tol));
    PetscCall(Expect("NH uniaxial strain P22", pt.P[s ? 3 : 4], P22, tol));
    PetscCall(Expect("NH uniaxial strain sigma11", pt.sigma[0], P11, tol));
    PetscCall(Expect("NH uniaxial strain sigma33", pt.sigma[8], P22 / st, tol));
    PetscCall(Expect("NH uniaxial strain psi", pt.psi, 0.5 * mu * (st * st - 1) - mu * log(st) + 0.5 * lambda * log(st) * log(st), tol));
    PetscCall(Expect("NH uniaxial strain S11", pt.S[0], P11 / st, tol));
    PetscCall(SKMaterialDestroy(&mat));
  }
  /* St Venant-Kirchhoff uniaxial strain: E11 = (s^2-1)/2, S11 = (lambda+2mu) E11, S22 = lambda E11, P11 = s S11 */
  for (PetscInt s = 0; s < 2; s++) {
    const PetscReal F3[9] = {st, 0, 0, 0, 1, 0, 0, 0, 1}, F2[4] = {st, 0, 0, 1}, E11 = 0.5 * (st * st - 1);
    PetscCall(SKMaterialCreate("saint_venant_kirchhoff", states[s], E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, s ? F2 : F3, &pt));
    PetscCall(Expect("SVK uniaxial strain P11", pt.P[0], st * (lambda + 2 * mu) * E11, tol));
    PetscCall(Expect("SVK uniaxial strain S22", pt.S[s ? 3 : 4], lambda * E11, tol));
    PetscCall(Expect("SVK uniaxial strain psi", pt.psi, 0.5 * (lambda + 2 * mu) * E11 * E11, tol));
    PetscCall(SKMaterialDestroy(&mat));
  }
  /* plane stress, finite strain: S33 = 0, so sigma33 = 0; SVK has F33 in closed form (E33 = -lambda tr2E/(lambda+2mu)),
     NH satisfies mu (c - 1) + lambda ln(J2 sqrt(c)) = 0 with c = F33^2 (Newton, so to round-off only) */
  {
    const PetscReal F[4] = {st, 0.1, -0.05, 0.9}, E11 = 0.5 * (st * st + 0.05 * 0.05 - 1), E22 = 0.5 * (0.1 * 0.1 + 0.81 - 1);
    const PetscReal E33 = -lambda * (E11 + E22) / (lambda + 2 * mu);
    PetscCall(SKMaterialCreate("saint_venant_kirchhoff", SK_STRESS_STATE_PLANE_STRESS, E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, F, &pt));
    PetscCall(Expect("SVK plane stress F33", pt.F33, sqrt(1 + 2 * E33), 1e-15));
    PetscCall(Expect("SVK plane stress sigma33", pt.sigma[8], 0.0, tol));
    PetscCall(SKMaterialDestroy(&mat));
    PetscCall(SKMaterialCreate("neo_hookean", SK_STRESS_STATE_PLANE_STRESS, E_, nu_, 1000.0, &mat));
    PetscCall(SKMaterialEvaluate(mat, F, &pt));
    const PetscReal c = pt.F33 * pt.F33, J2 = F[0] * F[3] - F[1] * F[2];
    PetscCall(Expect("NH plane stress S33 residual / mu", (mu * (c - 1) + lambda * log(J2 * pt.F33)) / mu, 0.0, 1e-14));
    PetscCall(Expect("NH plane stress sigma33", pt.sigma[8], 0.0, tol));
    PetscCall(Expect("NH plane stress J", pt.J, J2 * pt.F33, 1e-15));
    PetscCall(SKMaterialDestroy(&mat));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inverted points are flagged (finite-strain laws), never for linear elasticity; batch lanes are independent and
   bitwise identical whatever their position (same instruction sequence for every lane). */
static PetscErrorCode TestInvertedAndBatch(void)
{
  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < 3; t++)
    for (PetscInt s = 0; s < 3; s++) {
      SKMaterial mat;
      SKMaterialPoint pt;
      SKMaterialBatch b1, b2;
      PetscInt dim = states[s] == SK_STRESS_STATE_3D ? 3 : 2, nn = dim * dim;
      PetscReal Fin[9]        = {-1, 0, 0, 0, 1, 0, 0, 0, 1};
      unsigned long long seed = 3;
      unsigned mask;
      if (dim == 2) Fin[1] = 0, Fin[2] = 0, Fin[3] = 1;
      PetscCall(SKMaterialCreate(types[t], states[s], E_, nu_, 1000.0, &mat));
      PetscCall(SKMaterialEvaluate(mat, Fin, &pt));
      PetscCheck(pt.inverted == (t > 0 ? PETSC_TRUE : PETSC_FALSE), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: inversion flag %d", types[t],
                 SKStressStateNames[states[s]], (int)pt.inverted);
      for (PetscInt l = 0; l < SK_LANES; l++) {
        PetscReal Fl[9];
        RandomF(dim, 0.2, &seed, Fl);
        for (PetscInt k = 0; k < nn; k++) b1.F[k * SK_LANES + l] = (l == 3) ? Fin[k] : Fl[k];
      }
      PetscCall(SKMaterialStressBatch(mat, &b1, PETSC_TRUE, &mask));
      PetscCheck(mask == (t > 0 ? 1u << 3 : 0u), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: inverted mask %#x", types[t], mask);
      /* reverse the lanes: results must follow. Bit for bit in a build without FMA contraction (every lane runs the
         same instructions); with -ffp-contract=fast the compiler may contract some lanes differently, so allow 4 ulp */
      for (PetscInt k = 0; k < nn; k++)
        for (PetscInt l = 0; l < SK_LANES; l++) b2.F[k * SK_LANES + l] = b1.F[k * SK_LANES + SK_LANES - 1 - l];
      PetscCall(SKMaterialStressBatch(mat, &b2, PETSC_TRUE, &mask));
      for (PetscInt l = 0; l < SK_LANES; l++) {
        PetscReal pmax = 0.0;
        if (l == 3 && t > 0) continue;
        for (PetscInt k = 0; k < nn; k++) pmax = PetscMax(pmax, PetscAbsReal(b1.P[k * SK_LANES + l]));
        PetscCheck(PetscAbsReal(b1.psi[l] - b2.psi[SK_LANES - 1 - l]) <= 4 * PETSC_MACHINE_EPSILON * PetscAbsReal(b1.psi[l]),
                   PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: lane %" PetscInt_FMT " psi depends on the lane", types[t],
                   SKStressStateNames[states[s]], l);
        for (PetscInt k = 0; k < nn; k++)
          PetscCheck(PetscAbsReal(b1.P[k * SK_LANES + l] - b2.P[k * SK_LANES + SK_LANES - 1 - l]) <= 4 * PETSC_MACHINE_EPSILON * pmax,
                     PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: lane %" PetscInt_FMT " P depends on the lane", types[t],
                     SKStressStateNames[states[s]], l);
      }
      /* and the scalar entry point agrees with the batch (same tolerance as above) */
      {
        PetscReal Fl[9], pmax = 0.0;
        for (PetscInt k = 0; k < nn; k++) Fl[k] = b1.F[k * SK_LANES + 5], pmax = PetscMax(pmax, PetscAbsReal(b1.P[k * SK_LANES + 5]));
        PetscCall(SKMaterialEvaluate(mat, Fl, &pt));
        for (PetscInt k = 0; k < nn; k++)
          PetscCheck(PetscAbsReal(pt.P[k] - b1.P[k * SK_LANES + 5]) <= 4 * PETSC_MACHINE_EPSILON * pmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "scalar and batch P differ");
      }
      PetscCall(SKMaterialDestroy(&mat));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bad parameters and unknown names are refused, with the known names listed. */
static PetscErrorCode TestChecks(void)
{
  SKMaterial mat = NULL;
  PetscErrorCode ierr;
  const char *text, *specific;
  const PetscReal bad_nu[] = {0.5, -1.0, 0.7, -1.5}, bad_E[] = {0.0, -1.0};
  PetscReal c;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKMaterialCreate("mooney_rivlin", SK_STRESS_STATE_3D, E_, nu_, 1.0, &mat);
  PetscCheck(ierr == PETSC_ERR_ARG_UNKNOWN_TYPE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unknown type accepted");
  PetscCall(PetscErrorMessage(ierr, &text, (char **)&specific));
  PetscCheck(specific && strstr(specific, "neo_hookean") && strstr(specific, "linear_elastic") && strstr(specific, "mooney_rivlin"),
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "message does not list the known types: %s", specific ? specific : "(none)");
  for (size_t i = 0; i < sizeof(bad_nu) / sizeof(bad_nu[0]); i++) {
    ierr = SKMaterialCreate("neo_hookean", SK_STRESS_STATE_3D, E_, bad_nu[i], 1.0, &mat);
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "nu = %g accepted", (double)bad_nu[i]);
  }
  for (size_t i = 0; i < sizeof(bad_E) / sizeof(bad_E[0]); i++) {
    ierr = SKMaterialCreate("neo_hookean", SK_STRESS_STATE_3D, bad_E[i], nu_, 1.0, &mat);
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "E = %g accepted", (double)bad_E[i]);
  }
  ierr = SKMaterialCreate("neo_hookean", SK_STRESS_STATE_3D, E_, nu_, -1.0, &mat);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "negative density accepted");
  PetscCall(PetscPopErrorHandler());
  /* values just inside the range are accepted; Lame parameters and wave speed against closed forms */
  PetscCall(SKMaterialCreate("neo_hookean", SK_STRESS_STATE_PLANE_STRESS, E_, 0.499, 1.0, &mat));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKMaterialCreate("neo_hookean", SK_STRESS_STATE_3D, E_, -0.99, 1.0, &mat));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRESS, E_, nu_, 7800.0, &mat));
  PetscCall(SKMaterialGetWaveSpeed(mat, &c));
  PetscCall(Expect("plane stress wave speed", c, sqrt(E_ / (7800.0 * (1 - nu_ * nu_))), 1e-12 * c));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_3D, E_, nu_, 7800.0, &mat));
  PetscCall(SKMaterialGetWaveSpeed(mat, &c));
  PetscCall(Expect("3D wave speed", c, sqrt(E_ * (1 - nu_) / (7800.0 * (1 + nu_) * (1 - 2 * nu_))), 1e-12 * c));
  PetscCall(SKMaterialDestroy(&mat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vectorisable log against libm over 600 decades and near 1 (where ln J is small and matters most):
   within 4 ulp of log() (measured: 2), and ln 1 = 0 exactly so that rigid motions give exactly zero stress. */
static PetscErrorCode TestLog(void)
{
  unsigned long long seed = 23;
  PetscReal x[SK_LANES], y[SK_LANES], maxulp = 0.0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 20000; k++) {
    for (PetscInt l = 0; l < SK_LANES; l++) x[l] = (k % 2) ? exp(700.0 * Rand(&seed)) : 1.0 + 1e-3 * Rand(&seed);
    SKLanesLog(x, y);
    for (PetscInt l = 0; l < SK_LANES; l++) {
      const PetscReal ref = log(x[l]), ulp = nextafter(PetscAbsReal(ref), INFINITY) - PetscAbsReal(ref);
      if (ref != 0.0) maxulp = PetscMax(maxulp, PetscAbsReal(y[l] - ref) / ulp);
    }
  }
  PetscCheck(maxulp <= 4.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "lane log off by %g ulp", (double)maxulp);
  for (PetscInt l = 0; l < SK_LANES; l++) x[l] = 1.0;
  SKLanesLog(x, y);
  PetscCheck(y[0] == 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "lane log(1) = %g", (double)y[0]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestLog());
  PetscCall(TestRotation());
  PetscCall(TestDerivative());
  PetscCall(TestSmallStrain());
  PetscCall(TestClosedForms());
  PetscCall(TestInvertedAndBatch());
  PetscCall(TestChecks());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "material: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
