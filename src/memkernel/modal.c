/* stickslip memkernel: modal data of a structure seen from its contact point; the string and the cantilever of
   Szalai (2013) section III.C-D. */
#include "memkernel/memkernelimpl.h"

PetscLogEvent SK_EVENT_MemKernel, SK_EVENT_MemReduced, SK_EVENT_MemFull;

static PetscBool SKMemKernelPackageInitialized = PETSC_FALSE;

PetscErrorCode SKMemKernelInitializePackage(void)
{
  PetscFunctionBegin;
  if (SKMemKernelPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SKMemKernelPackageInitialized = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("SKMemKernel", SK_CLASSID, &SK_EVENT_MemKernel));
  PetscCall(PetscLogEventRegister("SKMemReduced", SK_CLASSID, &SK_EVENT_MemReduced));
  PetscCall(PetscLogEventRegister("SKMemFull", SK_CLASSID, &SK_EVENT_MemFull));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKModalDataCreate(PetscInt n, SKModalData *md)
{
  PetscFunctionBegin;
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of modes %" PetscInt_FMT " must be at least 1", n);
  md->n = n;
  PetscCall(PetscCalloc1(n, &md->omega));
  PetscCall(PetscCalloc1(n, &md->zeta));
  PetscCall(PetscCalloc1(n, &md->shape));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKModalDataReset(SKModalData *md)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(md->omega));
  PetscCall(PetscFree(md->zeta));
  PetscCall(PetscFree(md->shape));
  md->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKModalDataCheck(const SKModalData *md)
{
  PetscFunctionBegin;
  PetscCheck(md->n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Modal data has no modes");
  for (PetscInt k = 0; k < md->n; k++) {
    PetscCheck(PetscIsNormalReal(md->omega[k]) && md->omega[k] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "Mode %" PetscInt_FMT ": natural frequency %g must be positive", k + 1, (double)md->omega[k]);
    PetscCheck(md->zeta[k] >= 0 && md->zeta[k] < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "Mode %" PetscInt_FMT ": damping ratio %g must be in [0, 1)", k + 1, (double)md->zeta[k]);
    PetscCheck(!PetscIsInfOrNanReal(md->shape[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "Mode %" PetscInt_FMT ": mode-shape value is not finite", k + 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKModalDataCreateString(PetscInt n, PetscReal c, PetscReal xi, PetscReal zeta, SKModalData *md)
{
  PetscFunctionBegin;
  PetscCheck(c > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Wave speed %g must be positive", (double)c);
  PetscCheck(xi > 0 && xi < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Contact point %g must lie inside the string (0, 1)", (double)xi);
  PetscCall(SKModalDataCreate(n, md));
  for (PetscInt k = 0; k < n; k++) {
    md->omega[k] = c * (k + 1) * PETSC_PI;
    md->zeta[k]  = zeta;
    md->shape[k] = PetscSinReal((k + 1) * PETSC_PI * xi);
  }
  PetscCall(SKModalDataCheck(md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root of cos(b) + sech(b) = 0 near (k - 1/2) pi: the sech form of 1 + cos cosh = 0 never overflows. */
static PetscErrorCode CantileverRoot(PetscInt k, PetscReal *beta)
{
  PetscReal b = (k - 0.5) * PETSC_PI;

  PetscFunctionBegin;
  for (PetscInt it = 0; it < 50; it++) {
    PetscReal e = PetscExpReal(-b), sech = 2 * e / (1 + e * e), tanh_b = (1 - e * e) / (1 + e * e);
    PetscReal f = PetscCosReal(b) + sech, df = -PetscSinReal(b) - sech * tanh_b, db = -f / df;
    b += db;
    if (PetscAbsReal(db) < 1e-15 * b) break;
  }
  PetscCheck(PetscAbsReal(b - (k - 0.5) * PETSC_PI) < 0.5, PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED,
             "Cantilever root %" PetscInt_FMT " did not converge (%g)", k, (double)b);
  *beta = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKModalDataCreateCantilever(PetscInt n, PetscReal zeta, SKModalData *md)
{
  PetscFunctionBegin;
  PetscCall(SKModalDataCreate(n, md));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal beta;

    PetscCall(CantileverRoot(k + 1, &beta));
    md->omega[k] = beta * beta;
    md->zeta[k]  = zeta;
    md->shape[k] = (k % 2 == 0) ? 2.0 : -2.0;
  }
  PetscCall(SKModalDataCheck(md));
  PetscFunctionReturn(PETSC_SUCCESS);
}
