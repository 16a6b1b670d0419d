/* contact: regularised Coulomb friction, F = N G(|v|) r(|v|) v/|v| with the Stribeck curve G of eq. 21 (constant mu_k
   when mu_s = mu_k) and a smooth ramp r: tanh(|v| / v_reg), or Threlfall's 1 - exp(-k |v| / v_reg) (v_reg = v95). */
#include "frictionimpl.h"

typedef enum { RAMP_TANH, RAMP_THRELFALL } RampType;

/* The context of the regularised laws: the Stribeck curve, the ramp's velocity scale and shape, the stick threshold. */
typedef struct {
  SKStribeckCurve G;
  PetscReal v_reg, k_threlfall, stick;
} RegularisedCtx;

/* The ramp r(s) and dr/ds at speed s >= 0. */
static inline void Ramp(RampType type, const RegularisedCtx *p, PetscReal s, PetscReal *r, PetscReal *dr)
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

static inline void RegularisedStep(RampType type, const RegularisedCtx *p, PetscInt dim, PetscReal N, const PetscReal v[], PetscReal F[],
                                   SKFrictionInfo *info)
{
  PetscReal speed = SKFrictionNorm(dim, v), G = SKStribeckValue(&p->G, speed), r, dr;

  Ramp(type, p, speed, &r, &dr);
  for (PetscInt i = 0; i < dim; i++) F[i] = speed > 0 ? N * G * r * v[i] / speed : 0;
  if (info) {
    info->slipping      = SKFrictionBelowThreshold(p->stick, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0;
  }
}

static inline void RegularisedRate(RampType type, const RegularisedCtx *p, PetscReal N, PetscReal v, PetscReal *F, PetscReal *dF_dv,
                                   SKFrictionInfo *info)
{
  PetscReal speed = PetscAbsReal(v), G, dG, r, dr;

  SKStribeckDerivative(&p->G, speed, &G, &dG);
  Ramp(type, p, speed, &r, &dr);
  *F     = N * G * r * (v < 0 ? -1 : 1);
  *dF_dv = N * (dG * r + G * dr); /* an odd function g(|v|) sgn v has derivative g'(|v|) */
  if (info) {
    info->slipping      = SKFrictionBelowThreshold(p->stick, speed) ? PETSC_FALSE : PETSC_TRUE;
    info->G             = G;
    info->stored_energy = 0;
  }
}

static void TanhStep(const void *ctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[], PetscReal F[],
                     SKFrictionInfo *info)
{
  (void)dt;
  (void)state;
  RegularisedStep(RAMP_TANH, (const RegularisedCtx *)ctx, dim, N, v, F, info);
}

static void ThrelfallStep(const void *ctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[], PetscReal F[],
                          SKFrictionInfo *info)
{
  (void)dt;
  (void)state;
  RegularisedStep(RAMP_THRELFALL, (const RegularisedCtx *)ctx, dim, N, v, F, info);
}

static void TanhRate(const void *ctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F, PetscReal dzdot_dz[],
                     PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  (void)z, (void)zdot, (void)dzdot_dz, (void)dzdot_dv, (void)dF_dz;
  RegularisedRate(RAMP_TANH, (const RegularisedCtx *)ctx, N, v, F, dF_dv, info);
}

static void ThrelfallRate(const void *ctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F,
                          PetscReal dzdot_dz[], PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info)
{
  (void)z, (void)zdot, (void)dzdot_dz, (void)dzdot_dv, (void)dF_dz;
  RegularisedRate(RAMP_THRELFALL, (const RegularisedCtx *)ctx, N, v, F, dF_dv, info);
}

static PetscInt RegularisedStateSize(PetscInt dim)
{
  (void)dim;
  return 0;
}

/* Largest slope of F(v): at v = 0, where G = mu_s and dr/ds is largest. */
static void TanhModuli(const void *ctx, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  const RegularisedCtx *p = (const RegularisedCtx *)ctx;

  *stiffness = 0;
  *damping   = N * p->G.mu_s / p->v_reg;
}

static void ThrelfallModuli(const void *ctx, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  const RegularisedCtx *p = (const RegularisedCtx *)ctx;

  *stiffness = 0;
  *damping   = N * p->G.mu_s * p->k_threlfall / p->v_reg;
}

static PetscErrorCode TanhCheck(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBegin;
  SKFrictionCheckThat(fail, "v_s", p->v_s >= 0, "friction v_s = %g m/s must be >= 0 (0: G = mu_k away from v = 0)", (double)p->v_s);
  SKFrictionCheckThat(fail, "theta", p->theta > 0, "friction theta = %g must be > 0", (double)p->theta);
  SKFrictionCheckThat(fail, "v_reg", p->v_reg > 0, "friction v_reg = %g m/s must be > 0", (double)p->v_reg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ThrelfallCheck(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBegin;
  PetscCall(TanhCheck(p, fail));
  SKFrictionCheckThat(fail, "k_threlfall", p->k_threlfall > 0, "friction k_threlfall = %g must be > 0", (double)p->k_threlfall);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RegularisedSetUp(SKFrictionLaw law)
{
  RegularisedCtx *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->G           = SKStribeckCurveFromParams(&law->params);
  c->v_reg       = law->params.v_reg;
  c->k_threlfall = law->params.k_threlfall;
  c->stick       = SKFrictionStickThreshold(&law->params);
  law->data      = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_CoulombTanh(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops = (SKFrictionLawOps){.step       = TanhStep,
                                .rate       = TanhRate,
                                .state_size = RegularisedStateSize,
                                .moduli     = TanhModuli,
                                .check      = TanhCheck,
                                .setup      = RegularisedSetUp,
                                .params     = "mu_s mu_k v_s theta v_reg"};
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_CoulombThrelfall(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops = (SKFrictionLawOps){.step       = ThrelfallStep,
                                .rate       = ThrelfallRate,
                                .state_size = RegularisedStateSize,
                                .moduli     = ThrelfallModuli,
                                .check      = ThrelfallCheck,
                                .setup      = RegularisedSetUp,
                                .params     = "mu_s mu_k v_s theta v_reg k_threlfall"};
  PetscFunctionReturn(PETSC_SUCCESS);
}
