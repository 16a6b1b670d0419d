/* Linear elasticity (small strain): eps = sym(F - I), sigma = lambda tr(eps) I + 2 mu eps, psi = sigma:eps / 2.
   All stress measures coincide (P = S = sigma); it is not objective, so it is only for small rotations too. */
#include "materialimpl.h"

/* Plane stress: sigma33 = lambda (tr2 eps + eps33) + 2 mu eps33 = 0. */
static void LinearElasticPlaneStressF33(const void *ctx, SKMaterialBatch *b)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  for (PetscInt l = 0; l < SK_L; l++) {
    const PetscReal tr2 = b->F[0 * SK_L + l] + b->F[3 * SK_L + l] - 2.0;
    b->F33[l]           = 1.0 - p->lambda * tr2 / (p->lambda + 2.0 * p->mu);
  }
}

static inline unsigned LinearElasticKernel(const SKMaterialParams *p, const PetscInt dim, SKMaterialBatch *b, PetscBool want_energy)
{
  const PetscReal mu = p->mu, lambda = p->lambda;
  SK_ALIGN PetscReal tr[SK_L], G[9 * SK_L];

  SKLanesDetInvT(dim, b->F, b->J, G); /* J only for reporting: this law does not need J > 0 */
  for (PetscInt l = 0; l < SK_L; l++) tr[l] = (dim == 2) ? b->F33[l] - 1.0 : 0.0;
  if (dim == 2)
    for (PetscInt l = 0; l < SK_L; l++) b->J[l] *= b->F33[l];
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt l = 0; l < SK_L; l++) tr[l] += SK_AT(b->F, dim, i, i, l) - 1.0;
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++)
      for (PetscInt l = 0; l < SK_L; l++)
        SK_AT(b->P, dim, i, j, l) =
            mu * (SK_AT(b->F, dim, i, j, l) + SK_AT(b->F, dim, j, i, l)) + (i == j ? lambda * tr[l] - 2.0 * mu : 0.0);
  if (dim == 2)
    for (PetscInt l = 0; l < SK_L; l++) b->P33[l] = lambda * tr[l] + 2.0 * mu * (b->F33[l] - 1.0);
  if (want_energy)
    for (PetscInt l = 0; l < SK_L; l++) {
      PetscReal w = 0.0;
      if (dim == 2) w = b->P33[l] * (b->F33[l] - 1.0);
      for (PetscInt i = 0; i < dim; i++)
        for (PetscInt j = 0; j < dim; j++)
          w += SK_AT(b->P, dim, i, j, l) * (0.5 * (SK_AT(b->F, dim, i, j, l) + SK_AT(b->F, dim, j, i, l)) - (i == j ? 1.0 : 0.0));
      b->psi[l] = 0.5 * w;
    }
  return 0;
}

static unsigned LinearElasticStress(const void *ctx, SKMaterialBatch *b, PetscBool want_energy)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  return p->dim == 3 ? LinearElasticKernel(p, 3, b, want_energy) : LinearElasticKernel(p, 2, b, want_energy);
}

const SKMaterialOps SKMaterialLinearElastic = {.name             = "linear_elastic",
                                               .description      = "linear elastic (small strain), sigma = lambda tr(eps) I + 2 mu eps",
                                               .small_strain     = PETSC_TRUE,
                                               .plane_stress_f33 = LinearElasticPlaneStressF33,
                                               .stress           = LinearElasticStress};
