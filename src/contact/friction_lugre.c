/* contact: the LuGre friction law (eqs. 20-22) with a state update that is exact for a velocity constant over the step,
   so it stays stable and accurate for any sigma0 |v| dt / G(v) (docs/theory.md, section "LuGre update"). */
#include "frictionimpl.h"

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
  const SKFrictionParams *p = (const SKFrictionParams *)vctx;
  PetscReal speed = SKFrictionNorm(dim, v), G = SKFrictionStribeck(p, speed);
  PetscReal a = p->sigma0 * speed / G, x = a * dt, e = PetscExpReal(-x), w = dt * LuGrePhi(x), zz = 0;

  for (PetscInt i = 0; i < dim; i++) {
    PetscReal zdot;
    z[i] = z[i] * e + v[i] * w;
    zdot = v[i] - a * z[i];
    F[i] = N * (p->sigma0 * z[i] + p->sigma1 * zdot + p->sigma2 * v[i]);
    zz += z[i] * z[i];
  }
  if (info) {
    info->slipping      = SKFrictionIsSticking(p, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0.5 * p->sigma0 * N * zz;
  }
}

static void LuGreRate(const void *vctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F, PetscReal dzdot_dz[],
                      PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  const SKFrictionParams *p = (const SKFrictionParams *)vctx;
  PetscReal speed = PetscAbsReal(v), sgn = v < 0 ? -1 : 1, G, dG, a, da_dv;

  SKFrictionStribeckDerivative(p, speed, &G, &dG);
  a           = p->sigma0 * speed / G;
  da_dv       = p->sigma0 * sgn * (G - speed * dG) / (G * G); /* d/dv of sigma0 |v| / G(|v|) */
  zdot[0]     = v - a * z[0];
  dzdot_dz[0] = -a;
  dzdot_dv[0] = 1 - da_dv * z[0];
  *F          = N * (p->sigma0 * z[0] + p->sigma1 * zdot[0] + p->sigma2 * v);
  dF_dz[0]    = N * (p->sigma0 + p->sigma1 * dzdot_dz[0]);
  *dF_dv      = N * (p->sigma1 * dzdot_dv[0] + p->sigma2);
  if (info) {
    info->slipping      = SKFrictionIsSticking(p, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0.5 * p->sigma0 * N * z[0] * z[0];
  }
}

static PetscInt LuGreStateSize(PetscInt dim)
{
  return dim;
}

static void LuGreModuli(const SKFrictionParams *p, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  *stiffness = p->sigma0 * N;
  *damping   = (p->sigma1 + p->sigma2) * N;
}

PetscErrorCode SKFrictionLawCreate_LuGre(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops.step       = LuGreStep;
  law->ops.rate       = LuGreRate;
  law->ops.state_size = LuGreStateSize;
  law->ops.moduli     = LuGreModuli;
  PetscFunctionReturn(PETSC_SUCCESS);
}
