/* The material seam: a type defined here, outside the library, as docs/developing.md ("A material") describes (its
   own context built by setup from the elastic record, its kernel, one registration call), is created by name and its
   kernel sees only its context. The type: linear elasticity scaled by a factor held in its context (2 here).
   Checked: SKMaterialEvaluate() gives twice the built-in linear_elastic stress at random small F, 3D and plane strain,
   to round-off; the type is listed; registering a name twice is refused. Mutation caught: passing the record instead
   of the context to the kernel reads the wrong struct (scale = E) and fails the stress check by orders of magnitude. */
#include "../../../src/material/materialimpl.h"

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__)

typedef struct {
  PetscReal scale; /* first, so that reading the record as this struct would give E */
  PetscReal lambda, mu;
  PetscInt dim;
} ScaledCtx;

static unsigned ScaledStress(const void *vctx, SKMaterialBatch *b, PetscBool want_energy)
{
  const ScaledCtx *c = (const ScaledCtx *)vctx;
  const PetscInt dim = c->dim;

  for (PetscInt l = 0; l < SK_LANES; l++) {
    PetscReal tr = 0;
    for (PetscInt i = 0; i < dim; i++) tr += SK_AT(b->F, dim, i, i, l) - 1;
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) {
        const PetscReal eps       = 0.5 * (SK_AT(b->F, dim, i, j, l) + SK_AT(b->F, dim, j, i, l)) - (i == j ? 1 : 0);
        SK_AT(b->P, dim, i, j, l) = c->scale * ((i == j ? c->lambda * tr : 0) + 2 * c->mu * eps);
      }
    b->J[l]   = 1;
    b->P33[l] = c->scale * c->lambda * tr;
    if (want_energy) b->psi[l] = 0;
  }
  return 0;
}

static PetscErrorCode ScaledSetUp(SKMaterial mat)
{
  ScaledCtx *c;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->scale  = 2;
  c->lambda = mat->params.lambda;
  c->mu     = mat->params.mu;
  c->dim    = mat->params.dim;
  mat->data = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKMaterialOps Scaled = {.name         = "test_scaled_linear",
                                     .description  = "2 x linear elastic",
                                     .small_strain = PETSC_TRUE,
                                     .stress       = ScaledStress,
                                     .setup        = ScaledSetUp};

int main(int argc, char **argv)
{
  const SKStressState states[] = {SK_STRESS_STATE_3D, SK_STRESS_STATE_PLANE_STRAIN};
  unsigned long long seed      = 12345;
  PetscReal err = 0, scale = 0;
  PetscErrorCode ierr;
  char known[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKMaterialRegister(&Scaled));
  PetscCall(SKMaterialTypeList(known, sizeof(known)));
  CHECK(strstr(known, "test_scaled_linear") && strstr(known, "neo_hookean"), "the registered type is listed: %s", known);
  for (PetscInt s = 0; s < 2; s++) {
    SKMaterial mine, ref;
    const PetscInt dim = states[s] == SK_STRESS_STATE_3D ? 3 : 2;
    PetscCall(SKMaterialCreate("test_scaled_linear", states[s], 2e11, 0.3, 7800, &mine));
    PetscCall(SKMaterialCreate("linear_elastic", states[s], 2e11, 0.3, 7800, &ref));
    for (PetscInt trial = 0; trial < 20; trial++) {
      PetscReal F[9];
      SKMaterialPoint a, b;
      for (PetscInt k = 0; k < dim * dim; k++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        F[k] = (k % (dim + 1) == 0 ? 1 : 0) + 1e-3 * ((PetscReal)(seed >> 11) / 9007199254740992.0 - 0.5);
      }
      PetscCall(SKMaterialEvaluate(mine, F, &a));
      PetscCall(SKMaterialEvaluate(ref, F, &b));
      for (PetscInt k = 0; k < dim * dim; k++) {
        err   = PetscMax(err, PetscAbsReal(a.P[k] - 2 * b.P[k]));
        scale = PetscMax(scale, PetscAbsReal(b.P[k]));
      }
    }
    PetscCall(SKMaterialDestroy(&mine));
    PetscCall(SKMaterialDestroy(&ref));
  }
  /* the strain 1e-3 is formed from F near 1 by cancellation (the two kernels subtract the identity in a different
     order), which leaves 1e-16 / 1e-3 = 1e-13 of the stress per operation: measured 2.6e-13, checked at 1e-12 */
  CHECK(err < 1e-12 * scale, "registered type: stress differs from 2 x linear_elastic by %g of %g", (double)err, (double)scale);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKMaterialRegister(&Scaled);
  PetscCall(PetscPopErrorHandler());
  CHECK(ierr == PETSC_ERR_ARG_WRONGSTATE, "registering a name twice must be refused (got %d)", (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "registered material: stress %.1e of %.1e from 2 x linear_elastic\n", (double)err, (double)scale));
  PetscCall(PetscFinalize());
  return 0;
}
