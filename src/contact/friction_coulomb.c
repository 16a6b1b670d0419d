/* contact: classical and modified Coulomb friction by the penalty return mapping of eqs. 16-19 (discrete only: the
   law is defined by its update, so it has no continuous form for ODE integrators). */
#include "frictionimpl.h"

/* Eqs. 16-19: elastic trial t = t_n + eps_t v dt; if |t| <= mu_s N it sticks, else it is returned to mu_k N along the
   trial direction (delta xi = Phi + (mu_s - mu_k) N). Classical Coulomb is the same with mu_s = mu_k. */
static void CoulombStep(const void *vctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal t[], PetscReal F[],
                        SKFrictionInfo *info)
{
  const SKFrictionParams *p = (const SKFrictionParams *)vctx;
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

static void CoulombModuli(const SKFrictionParams *p, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  (void)N;
  *stiffness = p->eps_t;
  *damping   = 0;
}

static PetscErrorCode CoulombSetOps(SKFrictionLaw law)
{
  PetscFunctionBegin;
  law->ops.step       = CoulombStep;
  law->ops.rate       = NULL;
  law->ops.state_size = CoulombStateSize;
  law->ops.moduli     = CoulombModuli;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_Coulomb(SKFrictionLaw law)
{
  PetscFunctionBegin;
  PetscCheck(law->params.mu_s == law->params.mu_k, law->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "classical Coulomb friction has one coefficient (mu_s = mu_k), got mu_s = %g, mu_k = %g; use coulomb-modified",
             (double)law->params.mu_s, (double)law->params.mu_k);
  PetscCall(CoulombSetOps(law));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate_CoulombModified(SKFrictionLaw law)
{
  PetscFunctionBegin;
  PetscCall(CoulombSetOps(law));
  PetscFunctionReturn(PETSC_SUCCESS);
}
