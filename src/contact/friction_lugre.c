/* contact: the LuGre friction law (eqs. 20-22) with a state update that is exact for a velocity constant over the step,
   so it stays stable and accurate for any sigma0 |v| dt / G(v) (docs/theory.md, section "LuGre update"). */
#include "frictionimpl.h"

/* The context of the LuGre law: its Stribeck curve, bristle moduli per unit normal force and the stick threshold. */
typedef struct {
  SKStribeckCurve G;
  PetscReal sigma0, sigma1, sigma2, stick;
} LuGreCtx;

/* phi(x) = (1 - exp(-x)) / x, the weight of v dt in the exact update; phi(0) = 1, phi(x) -> 1/x for large x. */
static inline PetscReal LuGrePhi(PetscReal x)
{
  if (x < 1e-8) return 1 - 0.5 * x;
  return -expm1(-x) / x;
}

/* z' = v - a z with a = sigma0 |v| / G(v) is linear in z for constant v: z(t + dt) = z e^{-a dt} + v dt phi(a dt)
   (every component shares a). The force uses the end-of-step rate z' = v - a z(t + dt), which decays like e^{-a dt}
   instead of growing with a, so huge a dt gives exactly the steady-state force. */
static void LuGreStep(const void *vctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal z[], PetscReal F[],
                      SKFrictionInfo *info)
{
  const LuGreCtx *p = (const LuGreCtx *)vctx;
  PetscReal speed = SKFrictionNorm(dim, v), G = SKStribeckValue(&p->G, speed);
  PetscReal a = p->sigma0 * speed / G, x = a * dt, e = PetscExpReal(-x), w = dt * LuGrePhi(x), zz = 0;

  for (PetscInt i = 0; i < dim; i++) {
    PetscReal zdot;
    z[i] = z[i] * e + v[i] * w;
    zdot = v[i] - a * z[i];
    F[i] = N * (p->sigma0 * z[i] + p->sigma1 * zdot + p->sigma2 * v[i]);
    zz += z[i] * z[i];
  }
  if (info) {
    info->slipping      = SKFrictionBelowThreshold(p->stick, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0.5 * p->sigma0 * N * zz;
  }
}

static void LuGreRate(const void *vctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F, PetscReal dzdot_dz[],
                      PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  const LuGreCtx *p = (const LuGreCtx *)vctx;
  PetscReal speed = PetscAbsReal(v), sgn = v < 0 ? -1 : 1, G, dG, a, da_dv;

  SKStribeckDerivative(&p->G, speed, &G, &dG);
  a           = p->sigma0 * speed / G;
  da_dv       = p->sigma0 * sgn * (G - speed * dG) / (G * G); /* d/dv of sigma0 |v| / G(|v|) */
  zdot[0]     = v - a * z[0];
  dzdot_dz[0] = -a;
  dzdot_dv[0] = 1 - da_dv * z[0];
  *F          = N * (p->sigma0 * z[0] + p->sigma1 * zdot[0] + p->sigma2 * v);
  dF_dz[0]    = N * (p->sigma0 + p->sigma1 * dzdot_dz[0]);
  *dF_dv      = N * (p->sigma1 * dzdot_dv[0] + p->sigma2);
  if (info) {
    info->slipping      = SKFrictionBelowThreshold(p->stick, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0.5 * p->sigma0 * N * z[0] * z[0];
  }
}

static PetscInt LuGreStateSize(PetscInt dim)
{
  return dim;
}

static void LuGreModuli(const void *ctx, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  const LuGreCtx *p = (const LuGreCtx *)ctx;

  *stiffness = p->sigma0 * N;
  *damping   = (p->sigma1 + p->sigma2) * N;
}

static PetscErrorCode LuGreCheck(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBegin;
  SKFrictionCheckThat(fail, "mu_k", p->mu_k > 0, "friction law lugre needs mu_k > 0 (G(v) >= mu_k divides sigma0 |v|), got %g",
                      (double)p->mu_k);
  SKFrictionCheckThat(fail, "v_s", p->v_s >= 0, "friction v_s = %g m/s must be >= 0 (0: G = mu_k away from v = 0)", (double)p->v_s);
  SKFrictionCheckThat(fail, "theta", p->theta > 0, "friction theta = %g must be > 0", (double)p->theta);
  SKFrictionCheckThat(fail, "sigma0", p->sigma0 > 0, "friction sigma0 = %g 1/m must be > 0", (double)p->sigma0);
  SKFrictionCheckThat(fail, "sigma1", p->sigma1 >= 0, "friction sigma1 = %g s/m must be >= 0", (double)p->sigma1);
  SKFrictionCheckThat(fail, "sigma2", p->sigma2 >= 0, "friction sigma2 = %g s/m must be >= 0", (double)p->sigma2);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LuGreSetUp(SKFrictionLaw law)
{
  LuGreCtx *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->G      = SKStribeckCurveFromParams(&law->params);
  c->sigma0 = law->params.sigma0;
  c->sigma1 = law->params.sigma1;
  c->sigma2 = law->params.sigma2;
  c->stick  = SKFrictionStickThreshold(&law->params);
  law->data = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_LuGre(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops = (SKFrictionLawOps){.step       = LuGreStep,
                                .rate       = LuGreRate,
                                .state_size = LuGreStateSize,
                                .moduli     = LuGreModuli,
                                .check      = LuGreCheck,
                                .setup      = LuGreSetUp,
                                .params     = "mu_s mu_k v_s theta sigma0 sigma1 sigma2"};
  PetscFunctionReturn(PETSC_SUCCESS);
}
