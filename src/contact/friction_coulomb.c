/* contact: classical and modified Coulomb friction by the penalty return mapping of eqs. 16-19 (discrete only: the
   law is defined by its update, so it has no continuous form for ODE integrators). */
#include "frictionimpl.h"

/* The context of the Coulomb laws: what the return mapping reads. */
typedef struct {
  PetscReal mu_s, mu_k, eps_t;
} CoulombCtx;

/* Eqs. 16-19: elastic trial t = t_n + eps_t v dt; if |t| <= mu_s N it sticks, else it is returned to mu_k N along the
   trial direction (delta xi = Phi + (mu_s - mu_k) N). Classical Coulomb is the same with mu_s = mu_k. */
static void CoulombStep(const void *vctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal t[], PetscReal F[],
                        SKFrictionInfo *info)
{
  const CoulombCtx *p = (const CoulombCtx *)vctx;
  PetscReal norm, scale = 1;
  PetscBool slip;

  for (PetscInt i = 0; i < dim; i++) t[i] += p->eps_t * v[i] * dt;
  norm = SKFrictionNorm(dim, t);
  slip = norm - p->mu_s * N > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (slip) scale = p->mu_k * N / norm;
  for (PetscInt i = 0; i < dim; i++) {
    t[i] *= scale;
    F[i] = t[i];
  }
  if (info) {
    info->slipping      = slip;
    info->G             = slip ? p->mu_k : p->mu_s;
    PetscReal held      = slip ? p->mu_k * N : norm;
    info->stored_energy = 0.5 * held * held / p->eps_t;
  }
}

static PetscInt CoulombStateSize(PetscInt dim)
{
  return dim;
}

static void CoulombModuli(const void *ctx, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  const CoulombCtx *p = (const CoulombCtx *)ctx;
  (void)N;
  *stiffness = p->eps_t;
  *damping   = 0;
}

static PetscErrorCode CoulombCheckModified(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBegin;
  SKFrictionCheckThat(fail, "eps_t", p->eps_t > 0, "friction eps_t = %g must be > 0", (double)p->eps_t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CoulombCheckClassical(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBegin;
  SKFrictionCheckThat(fail, "mu_s", p->mu_s == p->mu_k,
                      "classical Coulomb friction has one coefficient: mu_s = %g differs from mu_k = %g (use law coulomb-modified)",
                      (double)p->mu_s, (double)p->mu_k);
  PetscCall(CoulombCheckModified(p, fail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CoulombSetUp(SKFrictionLaw law)
{
  CoulombCtx *c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->mu_s   = law->params.mu_s;
  c->mu_k   = law->params.mu_k;
  c->eps_t  = law->params.eps_t;
  law->data = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_Coulomb(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops = (SKFrictionLawOps){.step       = CoulombStep,
                                .state_size = CoulombStateSize,
                                .moduli     = CoulombModuli,
                                .check      = CoulombCheckClassical,
                                .setup      = CoulombSetUp,
                                .params     = "mu_s mu_k eps_t"};
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_CoulombModified(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops = (SKFrictionLawOps){.step       = CoulombStep,
                                .state_size = CoulombStateSize,
                                .moduli     = CoulombModuli,
                                .check      = CoulombCheckModified,
                                .setup      = CoulombSetUp,
                                .params     = "mu_s mu_k eps_t"};
  PetscFunctionReturn(PETSC_SUCCESS);
}
