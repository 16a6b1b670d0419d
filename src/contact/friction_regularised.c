/* contact: regularised Coulomb friction, F = N G(|v|) r(|v|) v/|v| with the Stribeck curve G of eq. 21 (constant mu_k
   when mu_s = mu_k) and a smooth ramp r: tanh(|v| / v_reg), or Threlfall's 1 - exp(-k |v| / v_reg) (v_reg = v95). */
#include "frictionimpl.h"

typedef enum { RAMP_TANH, RAMP_THRELFALL } RampType;

/* The ramp r(s) and dr/ds at speed s >= 0. */
static inline void Ramp(RampType type, const SKFrictionParams *p, PetscReal s, PetscReal *r, PetscReal *dr)
{
  if (type == RAMP_TANH) {
    PetscReal th = PetscTanhReal(s / p->v_reg);
    *r           = th;
    *dr          = (1 - th * th) / p->v_reg;
  } else {
    PetscReal e = PetscExpReal(-p->k_threlfall * s / p->v_reg);
    *r          = -expm1(-p->k_threlfall * s / p->v_reg);
    *dr         = p->k_threlfall * e / p->v_reg;
  }
}

static inline void RegularisedStep(RampType type, const SKFrictionParams *p, PetscInt dim, PetscReal N, const PetscReal v[], PetscReal F[],
                                   SKFrictionInfo *info)
{
  PetscReal speed = SKFrictionNorm(dim, v), G = SKFrictionStribeck(p, speed), r, dr;

  Ramp(type, p, speed, &r, &dr);
  for (PetscInt i = 0; i < dim; i++) F[i] = speed > 0 ? N * G * r * v[i] / speed : 0;
  if (info) {
    info->slipping      = SKFrictionIsSticking(p, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0;
  }
}

static inline void RegularisedRate(RampType type, const SKFrictionParams *p, PetscReal N, PetscReal v, PetscReal *F, PetscReal *dF_dv,
                                   SKFrictionInfo *info)
{
  PetscReal speed = PetscAbsReal(v), G, dG, r, dr;

  SKFrictionStribeckDerivative(p, speed, &G, &dG);
  Ramp(type, p, speed, &r, &dr);
  *F     = N * G * r * (v < 0 ? -1 : 1);
  *dF_dv = N * (dG * r + G * dr); /* an odd function g(|v|) sgn v has derivative g'(|v|) */
  if (info) {
    info->slipping      = SKFrictionIsSticking(p, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0;
  }
}

static void TanhStep(const void *ctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[], PetscReal F[],
                     SKFrictionInfo *info)
{
  (void)dt;
  (void)state;
  RegularisedStep(RAMP_TANH, (const SKFrictionParams *)ctx, dim, N, v, F, info);
}

static void ThrelfallStep(const void *ctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[], PetscReal F[],
                          SKFrictionInfo *info)
{
  (void)dt;
  (void)state;
  RegularisedStep(RAMP_THRELFALL, (const SKFrictionParams *)ctx, dim, N, v, F, info);
}

static void TanhRate(const void *ctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F, PetscReal dzdot_dz[],
                     PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  (void)z, (void)zdot, (void)dzdot_dz, (void)dzdot_dv, (void)dF_dz;
  RegularisedRate(RAMP_TANH, (const SKFrictionParams *)ctx, N, v, F, dF_dv, info);
}

static void ThrelfallRate(const void *ctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F,
                          PetscReal dzdot_dz[], PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  (void)z, (void)zdot, (void)dzdot_dz, (void)dzdot_dv, (void)dF_dz;
  RegularisedRate(RAMP_THRELFALL, (const SKFrictionParams *)ctx, N, v, F, dF_dv, info);
}

static PetscInt RegularisedStateSize(PetscInt dim)
{
  (void)dim;
  return 0;
}

/* Largest slope of F(v): at v = 0, where G = mu_s and dr/ds is largest. */
static void TanhModuli(const SKFrictionParams *p, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  *stiffness = 0;
  *damping   = N * p->mu_s / p->v_reg;
}

static void ThrelfallModuli(const SKFrictionParams *p, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  *stiffness = 0;
  *damping   = N * p->mu_s * p->k_threlfall / p->v_reg;
}

PetscErrorCode SKFrictionLawCreate_CoulombTanh(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops.step       = TanhStep;
  law->ops.rate       = TanhRate;
  law->ops.state_size = RegularisedStateSize;
  law->ops.moduli     = TanhModuli;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_CoulombThrelfall(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops.step       = ThrelfallStep;
  law->ops.rate       = ThrelfallRate;
  law->ops.state_size = RegularisedStateSize;
  law->ops.moduli     = ThrelfallModuli;
  PetscFunctionReturn(PETSC_SUCCESS);
}
