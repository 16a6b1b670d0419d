/* St Venant-Kirchhoff law: S = lambda tr(E) I + 2 mu E with the Green-Lagrange strain E = (F^T F - I)/2, P = F S,
   psi = lambda/2 tr(E)^2 + mu E:E. In 2D, E33 = (F33^2 - 1)/2 enters tr(E). */
#include <math.h>
#include "materialimpl.h"

/* Plane stress: S33 = lambda (tr2 E + E33) + 2 mu E33 = 0 is linear in E33. */
static void SaintVenantKirchhoffPlaneStressF33(const void *ctx, SKMaterialBatch *b)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  for (PetscInt l = 0; l < SK_L; l++) {
    PetscReal tr2 = 0.0;
    for (PetscInt k = 0; k < 4; k++) tr2 += b->F[k * SK_L + l] * b->F[k * SK_L + l];
    tr2                 = 0.5 * (tr2 - 2.0);
    const PetscReal E33 = -p->lambda * tr2 / (p->lambda + 2.0 * p->mu), c = 1.0 + 2.0 * E33;
    /* c <= 0 has no real stretch: F33 = 0 makes J = 0, which the stress kernel flags */
    b->F33[l] = c > 0.0 ? sqrt(c) : 0.0;
  }
}

static inline unsigned SaintVenantKirchhoffKernel(const SKMaterialParams *p, const PetscInt dim, SKMaterialBatch *b, PetscBool want_energy)
{
  const PetscReal mu = p->mu, lambda = p->lambda;
  SK_ALIGN PetscReal E[9 * SK_L] = {0}, S[9 * SK_L] = {0}, trE[SK_L], G[9 * SK_L];

  SKLanesDetInvT(dim, b->F, b->J, G);
  for (PetscInt l = 0; l < SK_L; l++) trE[l] = (dim == 2) ? 0.5 * (b->F33[l] * b->F33[l] - 1.0) : 0.0;
  if (dim == 2)
    for (PetscInt l = 0; l < SK_L; l++) b->J[l] *= b->F33[l];
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++)
      for (PetscInt l = 0; l < SK_L; l++) {
        PetscReal c = 0.0;
        for (PetscInt k = 0; k < dim; k++) c += SK_AT(b->F, dim, k, i, l) * SK_AT(b->F, dim, k, j, l);
        SK_AT(E, dim, i, j, l) = 0.5 * (c - (i == j ? 1.0 : 0.0));
      }
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt l = 0; l < SK_L; l++) trE[l] += SK_AT(E, dim, i, i, l);
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++)
      for (PetscInt l = 0; l < SK_L; l++) SK_AT(S, dim, i, j, l) = 2.0 * mu * SK_AT(E, dim, i, j, l) + (i == j ? lambda * trE[l] : 0.0);
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++)
      for (PetscInt l = 0; l < SK_L; l++) {
        PetscReal c = 0.0;
        for (PetscInt k = 0; k < dim; k++) c += SK_AT(b->F, dim, i, k, l) * SK_AT(S, dim, k, j, l);
        SK_AT(b->P, dim, i, j, l) = c;
      }
  if (dim == 2)
    for (PetscInt l = 0; l < SK_L; l++) {
      const PetscReal E33 = 0.5 * (b->F33[l] * b->F33[l] - 1.0);
      b->P33[l]           = b->F33[l] * (lambda * trE[l] + 2.0 * mu * E33);
    }
  if (want_energy)
    for (PetscInt l = 0; l < SK_L; l++) {
      PetscReal EE = 0.0;
      if (dim == 2) EE = 0.25 * (b->F33[l] * b->F33[l] - 1.0) * (b->F33[l] * b->F33[l] - 1.0);
      for (PetscInt k = 0; k < dim * dim; k++) EE += E[k * SK_L + l] * E[k * SK_L + l];
      b->psi[l] = 0.5 * lambda * trE[l] * trE[l] + mu * EE;
    }
  return SKLanesNonPositive(b->J);
}

static unsigned SaintVenantKirchhoffStress(const void *ctx, SKMaterialBatch *b, PetscBool want_energy)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  return p->dim == 3 ? SaintVenantKirchhoffKernel(p, 3, b, want_energy) : SaintVenantKirchhoffKernel(p, 2, b, want_energy);
}

const SKMaterialOps SKMaterialSaintVenantKirchhoff = {.name             = "saint_venant_kirchhoff",
                                                      .description      = "St Venant-Kirchhoff, S = lambda tr(E) I + 2 mu E",
                                                      .small_strain     = PETSC_FALSE,
                                                      .plane_stress_f33 = SaintVenantKirchhoffPlaneStressF33,
                                                      .stress           = SaintVenantKirchhoffStress};
