/* Material registry (lookup by name), parameter checks, and the scalar and batched evaluation entry points
   that wrap the pure kernels of each type. */
#include <math.h>
#include "materialimpl.h"
#include "shared/registry.h"

const char *const SKStressStateNames[] = {"3d", "plane_strain", "plane_stress", NULL};

/* The registry (shared/registry.h): type name -> its const SKMaterialOps. Adding a material: one new file with a const
   SKMaterialOps and one line in builtin[] below (or SKMaterialRegister() from outside the library). */
static PetscErrorCode SKMaterialRegisterBuiltin(void)
{
  const SKMaterialOps *const builtin[] = {&SKMaterialLinearElastic, &SKMaterialSaintVenantKirchhoff, &SKMaterialNeoHookean};

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) PetscCall(SKMaterialRegister(builtin[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static SKRegistry SKMaterialTypes = SK_REGISTRY_INITIALIZER("material", 63, SKMaterialRegisterBuiltin);

PetscErrorCode SKMaterialTypeList(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryList(&SKMaterialTypes, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialRegister(const SKMaterialOps *ops)
{
  PetscFunctionBegin;
  PetscCheck(ops && ops->name && ops->stress, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "A material type needs a name and a stress kernel");
  PetscCall(SKRegistryAdd(&SKMaterialTypes, ops->name, ops, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialTypeExists(const char type[], PetscBool *exists)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(SKRegistryFind(&SKMaterialTypes, type, &i));
  *exists = i >= 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialLameFromYoung(PetscReal E, PetscReal nu, PetscReal *lambda, PetscReal *mu)
{
  PetscFunctionBegin;
  PetscCheck(E > 0.0 && PetscIsNormalReal(E), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Young's modulus E = %g Pa must be positive",
             (double)E);
  PetscCheck(nu > -1.0 && nu < 0.5, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Poisson's ratio nu = %g must lie in (-1, 0.5)", (double)nu);
  *lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  *mu     = E / (2.0 * (1.0 + nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialCreate(const char type[], SKStressState state, PetscReal E, PetscReal nu, PetscReal rho, SKMaterial *mat)
{
  const void *data;
  const SKMaterialOps *ops;
  SKMaterial m;
  PetscReal lambda, mu;
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(SKRegistryLookup(&SKMaterialTypes, PETSC_COMM_SELF, type, &i));
  PetscCall(SKRegistryGet(&SKMaterialTypes, i, NULL, &data, NULL));
  ops = (const SKMaterialOps *)data;
  PetscCheck(state >= SK_STRESS_STATE_3D && state <= SK_STRESS_STATE_PLANE_STRESS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown stress state %d", (int)state);
  PetscCheck(state != SK_STRESS_STATE_PLANE_STRESS || ops->plane_stress_f33, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "Material type %s has no plane stress version", type);
  PetscCheck(rho >= 0.0 && PetscIsNormalReal(rho + 1.0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Density rho = %g kg/m^3 must be non-negative", (double)rho);
  PetscCall(SKMaterialLameFromYoung(E, nu, &lambda, &mu)); /* checks E and nu before anything is allocated */
  PetscCall(PetscNew(&m));
  m->ops           = ops;
  m->params.E      = E;
  m->params.nu     = nu;
  m->params.rho    = rho;
  m->params.dim    = state == SK_STRESS_STATE_3D ? 3 : 2;
  m->params.state  = state;
  m->params.lambda = lambda;
  m->params.mu     = mu;
  if (ops->setup) PetscCall(ops->setup(m));
  *mat = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialSetFromXML(SKMaterial mat, SKInput input, SKNode node)
{
  PetscFunctionBegin;
  if (mat->ops->setfromxml) PetscCall(mat->ops->setfromxml(mat, input, node));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialDestroy(SKMaterial *mat)
{
  PetscFunctionBegin;
  if (!mat || !*mat) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*mat)->data));
  PetscCall(PetscFree(*mat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialGetParams(SKMaterial mat, const SKMaterialParams **params)
{
  PetscFunctionBegin;
  *params = &mat->params;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialGetType(SKMaterial mat, const char **type)
{
  PetscFunctionBegin;
  *type = mat->ops->name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialGetWaveSpeed(SKMaterial mat, PetscReal *c)
{
  const SKMaterialParams *p = &mat->params;

  PetscFunctionBegin;
  PetscCheck(p->rho > 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Wave speed needs a positive density, got rho = %g kg/m^3",
             (double)p->rho);
  if (p->state == SK_STRESS_STATE_PLANE_STRESS)
    *c = PetscSqrtReal(p->E / (p->rho * (1.0 - p->nu * p->nu)));
  else
    *c = PetscSqrtReal((p->lambda + 2.0 * p->mu) / p->rho);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Out-of-plane stretch per lane: 1 in plane strain, the material's S33 = 0 solution in plane stress. */
static void SKMaterialOutOfPlaneStretch(SKMaterial mat, SKMaterialBatch *b)
{
  if (mat->params.state == SK_STRESS_STATE_PLANE_STRESS)
    mat->ops->plane_stress_f33(SKMaterialContext(mat), b);
  else
    for (PetscInt l = 0; l < SK_LANES; l++) b->F33[l] = 1.0;
}

PetscErrorCode SKMaterialStressBatch(SKMaterial mat, SKMaterialBatch *b, PetscBool want_energy, unsigned *inverted)
{
  PetscFunctionBegin;
  if (mat->params.dim == 2) SKMaterialOutOfPlaneStretch(mat, b);
  *inverted = mat->ops->stress(SKMaterialContext(mat), b, want_energy);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMaterialEvaluate(SKMaterial mat, const PetscReal F[], SKMaterialPoint *pt)
{
  const PetscInt dim = mat->params.dim;
  SKMaterialBatch b;
  SK_ALIGN PetscReal G[9 * SK_LANES], Jin[SK_LANES];
  unsigned mask;

  PetscFunctionBegin;
  /* lane 0 holds the point; the other lanes the identity, so that they are harmless */
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++)
      for (PetscInt l = 0; l < SK_LANES; l++) b.F[(i * dim + j) * SK_LANES + l] = l ? (i == j ? 1.0 : 0.0) : F[i * dim + j];
  for (PetscInt l = 0; l < SK_LANES; l++) b.F33[l] = 1.0;
  PetscCall(SKMaterialStressBatch(mat, &b, PETSC_TRUE, &mask));
  PetscCall(PetscArrayzero(pt->P, 9));
  PetscCall(PetscArrayzero(pt->S, 9));
  PetscCall(PetscArrayzero(pt->sigma, 9));
  pt->J        = b.J[0];
  pt->F33      = dim == 2 ? b.F33[0] : 1.0;
  pt->inverted = (mask & 1u) ? PETSC_TRUE : PETSC_FALSE;
  if (pt->inverted) {
    for (PetscInt k = 0; k < 9; k++) pt->P[k] = pt->S[k] = pt->sigma[k] = NAN;
    pt->psi = NAN;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  pt->psi = b.psi[0];
  for (PetscInt k = 0; k < dim * dim; k++) pt->P[k] = b.P[k * SK_LANES];
  if (mat->ops->small_strain) {
    PetscCall(PetscArraycpy(pt->S, pt->P, dim * dim));
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) pt->sigma[i * 3 + j] = pt->P[i * dim + j];
    if (dim == 2) pt->sigma[8] = b.P33[0];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* S = F^{-1} P and sigma = P F^T / J; in 2D the out-of-plane parts are S33 = P33/F33, sigma33 = P33 F33/J */
  SKLanesDetInvT(dim, b.F, Jin, G);
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++) {
      PetscReal s = 0.0, c = 0.0;
      for (PetscInt k = 0; k < dim; k++) {
        s += G[(k * dim + i) * SK_LANES] * pt->P[k * dim + j];
        c += pt->P[i * dim + k] * F[j * dim + k];
      }
      pt->S[i * dim + j]   = s;
      pt->sigma[i * 3 + j] = c / pt->J;
    }
  if (dim == 2) pt->sigma[8] = b.P33[0] * b.F33[0] / pt->J;
  PetscFunctionReturn(PETSC_SUCCESS);
}
