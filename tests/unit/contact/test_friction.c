/* Unit tests of the friction laws against closed forms: LuGre steady sliding F = G(v) sgn v +
   sigma2 v, holding below mu_s N at rest with only elastic pre-sliding, exactness and stability of the step update up to
   sigma0 |v| dt / G = 1e6, the Coulomb return mapping, the regularised laws, Jacobians of the rate forms, the registry
   and the parameter checks. */
#include <stickslip/contact.h>

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__)

/* Round-off tolerance of a few operations on O(1) numbers: the updates are closed forms, not approximations. */
static const PetscReal TOL_EXACT = 1e-12;

static PetscReal Rand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0));
}

static PetscErrorCode LuGreParams(SKFrictionParams *p)
{
  PetscFunctionBeginUser;
  PetscCall(SKFrictionParamsSetDefaults(p)); /* Canudas de Wit et al. 1995 per unit normal force */
  p->mu_s = 0.45;
  p->mu_k = 0.3;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Constant sliding velocity: after enough steps F = N (G(|v|) v/|v| + sigma2 v) in 1D and 2D, for v_s > 0 and v_s = 0. */
static PetscErrorCode TestLuGreSteady(void)
{
  const PetscReal speeds[] = {1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 0.1, 1, 10}, N = 9.81;
  SKFrictionParams p;
  SKFrictionLaw law;

  PetscFunctionBeginUser;
  for (PetscInt vs_zero = 0; vs_zero < 2; vs_zero++) {
    PetscCall(LuGreParams(&p));
    if (vs_zero) p.v_s = 0;
    PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "lugre", &p, &law));
    for (PetscInt dim = 1; dim <= 2; dim++)
      for (size_t k = 0; k < sizeof(speeds) / sizeof(speeds[0]); k++)
        for (PetscInt sgn = -1; sgn <= 1; sgn += 2) {
          PetscReal v[2], z[2] = {0, 0}, F[2], dir[2] = {0.6, 0.8}, s = speeds[k], G = vs_zero ? p.mu_k : SKFrictionStribeck(&p, s);
          PetscReal dt = G / (p.sigma0 * s); /* a dt = 1 per step: 60 steps leave e^-60 of the transient */
          if (dim == 1) dir[0] = 1;
          for (PetscInt i = 0; i < dim; i++) v[i] = sgn * s * dir[i];
          for (PetscInt n = 0; n < 60; n++) PetscCall(SKFrictionLawStep(law, dim, dt, N, v, z, F, NULL));
          for (PetscInt i = 0; i < dim; i++) {
            PetscReal Fex = N * (G * sgn * dir[i] + p.sigma2 * v[i]);
            CHECK(PetscAbsReal(F[i] - Fex) <= TOL_EXACT * PetscAbsReal(Fex),
                  "LuGre steady state (v_s %s, dim %" PetscInt_FMT ", v = %g): F = %.15g, expected %.15g", vs_zero ? "0" : "> 0", dim,
                  (double)(sgn * s), (double)F[i], (double)Fex);
          }
        }
    PetscCall(SKFrictionLawDestroy(&law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The update is exact for constant v: one step of dt equals 1000 steps of dt / 1000 and the closed form, and it stays
   exact and bounded for sigma0 |v| dt / G from 1e-6 to 1e6 (reversal from the opposite steady deflection). A random
   sequence of velocities and steps (a dt up to 1e6) never leaves |z| <= mu_s / sigma0, the invariant set of eq. 20. */
static PetscErrorCode TestLuGreExactStable(void)
{
  SKFrictionParams p;
  SKFrictionLaw law;
  SKFrictionStepFn step;
  const void *ctx;
  const PetscReal N       = 2.0;
  unsigned long long seed = 42;

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "lugre", &p, &law));
  PetscCall(SKFrictionLawGetKernels(law, &step, NULL, &ctx));
  for (PetscReal x = 1e-6; x <= 1.0001e6; x *= 10) {
    const PetscReal v = -0.02, G = SKFrictionStribeck(&p, 0.02), a = p.sigma0 * 0.02 / G, dt = x / a, zss = -G / p.sigma0;
    PetscReal z1 = p.mu_s / p.sigma0, zn = z1, F1, Fn, zex;
    step(ctx, 1, dt, N, &v, &z1, &F1, NULL);
    for (PetscInt n = 0; n < 1000; n++) step(ctx, 1, dt / 1000, N, &v, &zn, &Fn, NULL);
    zex = zss + (p.mu_s / p.sigma0 - zss) * PetscExpReal(-x);
    CHECK(PetscAbsReal(z1 - zex) <= TOL_EXACT * p.mu_s / p.sigma0, "LuGre update at a dt = %g: z = %.15g, closed form %.15g", (double)x,
          (double)z1, (double)zex);
    /* 1000 steps accumulate ~1000 roundings */
    CHECK(PetscAbsReal(z1 - zn) <= 1e3 * PETSC_MACHINE_EPSILON * p.mu_s / p.sigma0,
          "LuGre update at a dt = %g: one step %.15g vs 1000 substeps %.15g", (double)x, (double)z1, (double)zn);
    {
      /* the force is that of the continuous solution at t + dt (its rate included), which for a dt >> 1 is the
         steady-state force: no residue of the step size (an average rate (z1 - z0) / dt would leave one) */
      PetscReal Fex = N * (p.sigma0 * zex + p.sigma1 * (v - a * zex) + p.sigma2 * v);
      CHECK(PetscIsNormalReal(F1) && PetscAbsReal(F1 - Fex) <= TOL_EXACT * N * p.mu_s,
            "LuGre force at a dt = %g: %.15g, continuous solution %.15g", (double)x, (double)F1, (double)Fex);
    }
  }
  {
    PetscReal z[2] = {0, 0}, F[2], zmax = 0;
    for (PetscInt n = 0; n < 20000; n++) {
      PetscReal v[2], dt, ang = 2 * PETSC_PI * Rand(&seed), s = PetscPowReal(10, -6 + 7 * Rand(&seed));
      v[0] = s * PetscCosReal(ang);
      v[1] = s * PetscSinReal(ang);
      dt   = PetscPowReal(10, -6 + 12 * Rand(&seed)) * SKFrictionStribeck(&p, s) / (p.sigma0 * s);
      step(ctx, 2, dt, N, v, z, F, NULL);
      zmax = PetscMax(zmax, PetscSqrtReal(z[0] * z[0] + z[1] * z[1]));
      CHECK(PetscIsNormalReal(F[0] * F[0] + F[1] * F[1] + 1), "LuGre force not finite at step %" PetscInt_FMT, n);
    }
    CHECK(zmax <= (1 + 1e-13) * p.mu_s / p.sigma0, "LuGre |z| = %g left the invariant set |z| <= mu_s / sigma0 = %g", (double)zmax,
          (double)(p.mu_s / p.sigma0));
  }
  PetscCall(SKFrictionLawDestroy(&law));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pre-sliding: pushing a point quasi-statically (|v| << v_s, so G = mu_s and the damping terms vanish) until the force
   is f mu_s N needs the displacement x = -(mu_s / sigma0) ln(1 - f) (eq. 20 with dz/dx = 1 - sigma0 z / mu_s); then at
   v = 0 the force is held for any time. */
static PetscErrorCode TestLuGrePresliding(void)
{
  SKFrictionParams p;
  SKFrictionLaw law;
  const PetscReal N = 9.81, fractions[] = {0.1, 0.5, 0.9, 0.99};

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "lugre", &p, &law));
  for (size_t k = 0; k < sizeof(fractions) / sizeof(fractions[0]); k++) {
    const PetscReal f = fractions[k], xex = -(p.mu_s / p.sigma0) * PetscLogReal(1 - f), v = 1e-9, dt = xex / v / 2000, zero = 0;
    PetscReal z = 0, F = 0, x = 0, Fhold;
    while (F < f * p.mu_s * N) {
      PetscCall(SKFrictionLawStep(law, 1, dt, N, &v, &z, &F, NULL));
      x += v * dt;
    }
    /* the loop overshoots by at most one step (x / 2000) and G(1e-9) = mu_s (1 - 1e-12): 1e-3 relative */
    CHECK(PetscAbsReal(x - xex) <= 1e-3 * xex, "LuGre pre-sliding to %g mu_s N: x = %g m, closed form %g m", (double)f, (double)x,
          (double)xex);
    {
      PetscReal z0 = z;
      Fhold        = N * p.sigma0 * z;
      for (PetscInt n = 0; n < 100; n++) PetscCall(SKFrictionLawStep(law, 1, 1e3, N, &zero, &z, &F, NULL));
      CHECK(z == z0 && PetscAbsReal(F - Fhold) <= TOL_EXACT * Fhold, "LuGre at rest must hold its force: %.17g became %.17g", (double)Fhold,
            (double)F);
    }
  }
  PetscCall(SKFrictionLawDestroy(&law));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Coulomb return mapping (eqs. 16-19): linear elastic stick below mu_s N, returned to mu_k N along the trial direction
   above it, elastic unloading on reversal; classical Coulomb slides at mu. */
static PetscErrorCode TestCoulomb(void)
{
  SKFrictionParams p;
  SKFrictionLaw law;
  SKFrictionInfo info;
  const PetscReal N = 3.0, dt = 1e-3;

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  p.eps_t = 1e4;
  for (PetscInt modified = 0; modified < 2; modified++) {
    PetscReal t[2] = {0, 0}, F[2], v[2] = {0.3, 0.4}, mu_slide;
    if (!modified)
      p.mu_s = p.mu_k;
    else
      p.mu_s = 0.45;
    mu_slide = p.mu_k;
    PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, modified ? "coulomb-modified" : "coulomb", &p, &law));
    /* |dt eps_t v| = 5 N per step... scale the velocity so the limit is crossed after exactly 4.5 steps */
    {
      PetscReal scale = p.mu_s * N / (4.5 * p.eps_t * dt * 0.5);
      v[0] *= scale, v[1] *= scale;
    }
    for (PetscInt n = 1; n <= 4; n++) {
      PetscCall(SKFrictionLawStep(law, 2, dt, N, v, t, F, &info));
      for (PetscInt i = 0; i < 2; i++)
        CHECK(PetscAbsReal(F[i] - p.eps_t * v[i] * dt * n) <= TOL_EXACT * p.mu_s * N, "Coulomb stick: F = eps_t g_T expected");
      CHECK(!info.slipping, "Coulomb below the limit must stick");
    }
    PetscCall(SKFrictionLawStep(law, 2, dt, N, v, t, F, &info));
    CHECK(info.slipping, "Coulomb above the limit must slip");
    CHECK(PetscAbsReal(PetscSqrtReal(F[0] * F[0] + F[1] * F[1]) - mu_slide * N) <= TOL_EXACT * N,
          "Coulomb slip at mu_k N: |F| = %g, expected %g", (double)PetscSqrtReal(F[0] * F[0] + F[1] * F[1]), (double)(mu_slide * N));
    CHECK(PetscAbsReal(F[0] * 0.8 - F[1] * 0.6) <= TOL_EXACT * N, "Coulomb slip force must lie along the slip direction");
    /* reversal: the trial drops below the limit, elastic unloading by eps_t v dt */
    {
      PetscReal vr[2] = {-v[0], -v[1]}, F0[2] = {F[0], F[1]};
      PetscCall(SKFrictionLawStep(law, 2, dt, N, vr, t, F, &info));
      CHECK(!info.slipping, "Coulomb reversal must stick");
      for (PetscInt i = 0; i < 2; i++)
        CHECK(PetscAbsReal(F[i] - (F0[i] + p.eps_t * vr[i] * dt)) <= TOL_EXACT * N, "Coulomb elastic unloading");
    }
    PetscCall(SKFrictionLawDestroy(&law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Regularised laws: odd, tanh(1) and 1 - e^-3 of mu N at v = v_reg, mu N at large speed, no state. */
static PetscErrorCode TestRegularised(void)
{
  const char *const names[] = {"coulomb-tanh", "coulomb-threlfall"};
  const PetscReal N = 5, ref[] = {PetscTanhReal(1.0), 1 - PetscExpReal(-3.0)};
  SKFrictionParams p;
  SKFrictionLaw law;

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  p.mu_s = p.mu_k; /* classical regularised: constant mu */
  for (PetscInt l = 0; l < 2; l++) {
    PetscInt ns;
    PetscReal v[2] = {0, -p.v_reg}, F[2];
    PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, names[l], &p, &law));
    PetscCall(SKFrictionLawGetStateSize(law, 2, &ns));
    CHECK(ns == 0, "regularised laws have no state");
    PetscCall(SKFrictionLawStep(law, 2, 1.0, N, v, NULL, F, NULL));
    CHECK(F[0] == 0 && PetscAbsReal(F[1] + ref[l] * p.mu_k * N) <= TOL_EXACT * N, "%s at v_reg: F = %g, expected %g", names[l],
          (double)F[1], (double)(-ref[l] * p.mu_k * N));
    v[1] = 1e3 * p.v_reg;
    PetscCall(SKFrictionLawStep(law, 2, 1.0, N, v, NULL, F, NULL));
    CHECK(PetscAbsReal(F[1] - p.mu_k * N) <= TOL_EXACT * N, "%s at large speed: F = %g, expected %g", names[l], (double)F[1],
          (double)(p.mu_k * N));
    PetscCall(SKFrictionLawDestroy(&law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rate forms: derivatives against central differences (relative 1e-6: the difference step 1e-7 relative gives a
   truncation error ~1e-10 and round-off ~1e-9 relative to the O(1) scales). */
static PetscErrorCode TestRateJacobians(void)
{
  const char *const names[] = {"lugre", "coulomb-tanh", "coulomb-threlfall"};
  const PetscReal N = 9.81, vs[] = {-0.3, -2e-3, 7e-4, 5e-3, 0.1};
  SKFrictionParams p;

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  for (PetscInt l = 0; l < 3; l++) {
    SKFrictionLaw law;
    SKFrictionRateFn rate;
    const void *ctx;
    PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, names[l], &p, &law));
    PetscCall(SKFrictionLawGetKernels(law, NULL, &rate, &ctx));
    CHECK(rate, "%s must have a rate form", names[l]);
    for (size_t k = 0; k < sizeof(vs) / sizeof(vs[0]); k++) {
      PetscReal v = vs[k], z = 0.3 * p.mu_s / p.sigma0, zd, F, Jzz, Jzv, JFz, JFv, hv = 1e-7 * PetscAbsReal(v),
                hz = 1e-7 * p.mu_s / p.sigma0;
      PetscReal zdp, zdm, Fp, Fm, a, b, c;
      rate(ctx, N, v, &z, &zd, &F, &Jzz, &Jzv, &JFz, &JFv, NULL);
      rate(ctx, N, v + hv, &z, &zdp, &Fp, &a, &b, &c, &c, NULL);
      rate(ctx, N, v - hv, &z, &zdm, &Fm, &a, &b, &c, &c, NULL);
      CHECK(PetscAbsReal((Fp - Fm) / (2 * hv) - JFv) <= 1e-6 * PetscMax(PetscAbsReal(JFv), N), "%s dF/dv at v = %g: %g vs difference %g",
            names[l], (double)v, (double)JFv, (double)((Fp - Fm) / (2 * hv)));
      if (l == 0) {
        PetscReal zp = z + hz, zm = z - hz;
        CHECK(PetscAbsReal((zdp - zdm) / (2 * hv) - Jzv) <= 1e-6 * PetscMax(PetscAbsReal(Jzv), 1), "lugre dzdot/dv at v = %g", (double)v);
        rate(ctx, N, v, &zp, &zdp, &Fp, &a, &b, &c, &c, NULL);
        rate(ctx, N, v, &zm, &zdm, &Fm, &a, &b, &c, &c, NULL);
        CHECK(PetscAbsReal((zdp - zdm) / (2 * hz) - Jzz) <= 1e-6 * PetscAbsReal(Jzz), "lugre dzdot/dz at v = %g", (double)v);
        CHECK(PetscAbsReal((Fp - Fm) / (2 * hz) - JFz) <= 1e-6 * PetscAbsReal(JFz), "lugre dF/dz at v = %g", (double)v);
      }
    }
    PetscCall(SKFrictionLawDestroy(&law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Registry and parameter checks: every bad value is refused with an error, the unknown name lists the known ones;
   the stick threshold defaults to v_s and is separate from the law. */
static PetscErrorCode TestChecks(void)
{
  SKFrictionParams p, bad;
  SKFrictionLaw law = NULL;
  PetscErrorCode ierr;
  char list[256];
  PetscBool has;

  PetscFunctionBeginUser;
  PetscCall(LuGreParams(&p));
  PetscCall(SKFrictionLawList(list, sizeof(list)));
  {
    char *hit;
    PetscCall(PetscStrstr(list, "coulomb-modified", &hit));
    has = hit ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscStrstr(list, "lugre", &hit));
    CHECK(has && hit, "registry lists the built-in laws: %s", list);
  }
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKFrictionLawCreate(PETSC_COMM_SELF, "no-such-law", &p, &law);
  CHECK(ierr == PETSC_ERR_ARG_UNKNOWN_TYPE && !law, "unknown law must fail");
  for (PetscInt c = 0; c < 6; c++) {
    const char *name = "lugre";
    bad              = p;
    switch (c) {
    case 0:
      bad.sigma0 = 0;
      break;
    case 1:
      bad.v_s = -1e-3;
      break;
    case 2:
      bad.mu_k = 0.5;
      break; /* > mu_s */
    case 3:
      bad.sigma1 = -1;
      break;
    case 4:
      bad.mu_k = 0;
      break; /* LuGre divides by G >= mu_k */
    case 5:
      name = "coulomb";
      break; /* mu_s != mu_k */
    }
    ierr = SKFrictionLawCreate(PETSC_COMM_SELF, name, &bad, &law);
    CHECK(ierr == PETSC_ERR_ARG_OUTOFRANGE && !law, "bad parameter set %" PetscInt_FMT " must be refused", c);
  }
  PetscCall(PetscPopErrorHandler());
  CHECK(SKFrictionStickThreshold(&p) == p.v_s, "stick threshold defaults to v_s");
  bad                = p;
  bad.stick_velocity = 1e-4;
  CHECK(SKFrictionIsSticking(&bad, 5e-5) && !SKFrictionIsSticking(&bad, 2e-4), "stick threshold stick_velocity");
  bad.v_s = bad.stick_velocity = 0;
  CHECK(SKFrictionStribeck(&bad, 1e-12) == p.mu_k && SKFrictionStribeck(&bad, 0) == p.mu_s, "v_s = 0 limit of G");
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestLuGreSteady());
  PetscCall(TestLuGreExactStable());
  PetscCall(TestLuGrePresliding());
  PetscCall(TestCoulomb());
  PetscCall(TestRegularised());
  PetscCall(TestRateJacobians());
  PetscCall(TestChecks());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "friction laws: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
