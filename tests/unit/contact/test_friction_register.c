/* The friction-law seam: a law defined here, outside the library, in the way docs/developing.md ("A friction law")
   describes (its own context, check, setup, kernels, one registration line), is created by name, checked, and its
   kernels see only its context. The law: viscous friction F = c N v, with c taken from the record's sigma2 (s/m).
   Checked: the force equals the closed form c N v to round-off in 1D and 2D through the kernel and through
   SKFrictionLawStep(); its moduli; a negative c refused with the law's own message; the law listed among the known
   ones. Mutation caught: a kernel reading the parameter record instead of the context would see sigma2 through the
   wrong type and fail the force check. */
#include "../../../src/contact/frictionimpl.h"

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__)

typedef struct {
  PetscReal c; /* viscous coefficient per unit normal force (s/m) */
  PetscReal marker;
} ViscousCtx;

static void ViscousStep(const void *vctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[], PetscReal F[],
                        SKFrictionInfo *info)
{
  const ViscousCtx *c = (const ViscousCtx *)vctx;
  (void)dt;
  (void)state;
  for (PetscInt i = 0; i < dim; i++) F[i] = c->marker * c->c * N * v[i];
  if (info) {
    info->slipping      = PETSC_TRUE;
    info->G             = 0;
    info->stored_energy = 0;
  }
}

static PetscInt ViscousStateSize(PetscInt dim)
{
  (void)dim;
  return 0;
}

static void ViscousModuli(const void *vctx, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  const ViscousCtx *c = (const ViscousCtx *)vctx;
  *stiffness          = 0;
  *damping            = c->c * N;
}

static PetscErrorCode ViscousCheck(const SKFrictionParams *p, SKFrictionCheck *fail)
{
  PetscFunctionBeginUser;
  SKFrictionCheckThat(fail, "sigma2", p->sigma2 >= 0, "viscous friction needs sigma2 >= 0, got %g", (double)p->sigma2);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViscousSetUp(SKFrictionLaw law)
{
  ViscousCtx *c;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->c      = law->params.sigma2;
  c->marker = 1; /* a context that is not the record: the kernels must read this one */
  law->data = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViscousCreate(SKFrictionLaw law)
{
  PetscFunctionBeginUser;
  law->ops = (SKFrictionLawOps){
      .step = ViscousStep, .state_size = ViscousStateSize, .moduli = ViscousModuli, .check = ViscousCheck, .setup = ViscousSetUp};
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKFrictionParams p;
  SKFrictionLaw law;
  SKFrictionStepFn step;
  const void *ctx;
  PetscReal F[2], v[2] = {0.3, -0.7}, N = 12.5, k, c, err = 0;
  PetscErrorCode ierr;
  char known[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKContactInitializePackage());
  PetscCall(SKFrictionLawRegister("test-viscous", ViscousCreate));
  PetscCall(SKFrictionLawList(known, sizeof(known)));
  CHECK(strstr(known, "test-viscous") && strstr(known, "lugre"), "the registered law is listed: %s", known);

  PetscCall(SKFrictionParamsSetDefaults(&p));
  p.mu_s = p.mu_k = 0.3;
  p.sigma2        = 0.4;
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "test-viscous", &p, &law));
  PetscCall(SKFrictionLawGetKernels(law, &step, NULL, &ctx));
  for (PetscInt dim = 1; dim <= 2; dim++) {
    step(ctx, dim, 1e-3, N, v, NULL, F, NULL);
    for (PetscInt i = 0; i < dim; i++) err = PetscMax(err, PetscAbsReal(F[i] - 0.4 * N * v[i]));
    PetscCall(SKFrictionLawStep(law, dim, 1e-3, N, v, NULL, F, NULL));
    for (PetscInt i = 0; i < dim; i++) err = PetscMax(err, PetscAbsReal(F[i] - 0.4 * N * v[i]));
  }
  /* a product of three numbers: a few ulp of |F| ~ 3.5 */
  CHECK(err < 1e-14, "viscous force differs from c N v by %g", (double)err);
  PetscCall(SKFrictionLawGetTangentModuli(law, N, &k, &c));
  CHECK(k == 0 && c == 0.4 * N, "moduli %g %g, expected 0 and %g", (double)k, (double)c, (double)(0.4 * N));
  PetscCall(SKFrictionLawDestroy(&law));

  p.sigma2 = -1;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKFrictionLawCreate(PETSC_COMM_SELF, "test-viscous", &p, &law);
  PetscCall(PetscPopErrorHandler());
  CHECK(ierr == PETSC_ERR_ARG_OUTOFRANGE && law == NULL, "a negative coefficient must be refused by the law's check (got %d)", (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "registered law: force error %.1e, moduli ok, bad value refused\n", (double)err));
  PetscCall(PetscFinalize());
  return 0;
}
