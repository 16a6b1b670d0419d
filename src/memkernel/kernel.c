/* stickslip memkernel: the reduced model's constants A, L_inf and the integrated memory kernel L^1 (Szalai 2013,
   (III.17)-(III.30)), all from closed forms per mode. */
#include "memkernel/memkernelimpl.h"

/* Taylor series below |z| = 1/2 (17 terms: error < 2^-17 / 17! relative), the closed form above. */
#define SK_PHI_SERIES_RADIUS 0.5
#define SK_PHI_SERIES_TERMS 17

static SKCplx PhiSeries(SKCplx z, PetscInt shift)
{
  SKCplx sum = 0, term = 1;
  PetscInt fact0 = 1;

  for (PetscInt j = 2; j <= shift; j++) fact0 *= j;
  term = 1.0 / fact0;
  for (PetscInt j = 0; j < SK_PHI_SERIES_TERMS; j++) {
    sum += term;
    term *= z / (j + shift + 1);
  }
  return sum;
}

SKCplx SKPhi1(SKCplx z)
{
  if (cabs(z) < SK_PHI_SERIES_RADIUS) return PhiSeries(z, 1);
  return (cexp(z) - 1) / z;
}

SKCplx SKPhi2(SKCplx z)
{
  if (cabs(z) < SK_PHI_SERIES_RADIUS) return PhiSeries(z, 2);
  return (cexp(z) - 1 - z) / (z * z);
}

static PetscErrorCode CheckPivot(const SKModalData *md, PetscInt pivot)
{
  PetscReal nmax = 0;

  PetscFunctionBegin;
  PetscCheck(pivot >= 0 && pivot < md->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Pivot mode %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", pivot, md->n);
  for (PetscInt k = 0; k < md->n; k++) nmax = PetscMax(nmax, PetscAbsReal(md->shape[k]));
  PetscCheck(PetscAbsReal(md->shape[pivot]) > 1e-12 * nmax, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Pivot mode %" PetscInt_FMT " has a node at the contact point ([n]_P = %g): choose another pivot", pivot,
             (double)md->shape[pivot]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMemoryKernelConstants(const SKModalData *md, PetscInt pivot, PetscReal A[4], PetscReal linf[2])
{
  PetscReal wp, flex = 0;

  PetscFunctionBegin;
  PetscCall(SKModalDataCheck(md));
  PetscCall(CheckPivot(md, pivot));
  wp   = md->omega[pivot];
  A[0] = 0;
  A[1] = 1;
  A[2] = -wp * wp;
  A[3] = -2 * md->zeta[pivot] * wp;
  /* Static flexibility n.K^-1.n at the contact point, summed smallest terms first. */
  for (PetscInt k = md->n - 1; k >= 0; k--) flex += PetscSqr(md->shape[k] / md->omega[k]);
  linf[0] = 0;
  linf[1] = wp * wp * flex;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* [L^0]_2 of mode k is n_k^2 (a_k h_k' + b_k h_k) with the impulse response h_k = exp(-D w t) sin(w_d t) / w_d,
   a_k = 1 - w_P^2 / w_k^2, b_k = 2 D_P w_P - 2 D_k w_P^2 / w_k: derived from (III.26) integrated once; it
   differs from the printed (III.29) in the damped case (see docs/theory.md). */
PetscErrorCode SKMemoryKernelModes(const SKModalData *md, PetscInt pivot, SKCplx lambda[], SKCplx coef[])
{
  PetscReal wp, zp;

  PetscFunctionBegin;
  PetscCall(CheckPivot(md, pivot));
  wp = md->omega[pivot];
  zp = md->zeta[pivot];
  for (PetscInt k = 0; k < md->n; k++) {
    PetscReal w = md->omega[k], z = md->zeta[k], wd = w * PetscSqrtReal(1 - z * z);
    PetscReal a = 1 - PetscSqr(wp / w), b = 2 * zp * wp - 2 * z * wp * wp / w;

    lambda[k] = -z * w + I * wd;
    coef[k]   = (k == pivot) ? 0 : PetscSqr(md->shape[k]) * (-I / wd) * (a * lambda[k] + b);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMemoryKernelL1(const SKModalData *md, PetscInt pivot, PetscInt ntau, const PetscReal tau[], PetscReal l1[])
{
  SKCplx *lambda, *coef;

  PetscFunctionBegin;
  PetscCall(SKMemKernelInitializePackage());
  PetscCall(SKModalDataCheck(md));
  PetscCall(PetscLogEventBegin(SK_EVENT_MemKernel, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(md->n, &lambda, md->n, &coef));
  PetscCall(SKMemoryKernelModes(md, pivot, lambda, coef));
  for (PetscInt j = 0; j < ntau; j++) {
    PetscReal sum = 0;

    PetscCheck(tau[j] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Kernel time %g must be non-negative", (double)tau[j]);
    /* L^1 = int_0^tau L^0 = sum Re(coef tau phi1(lambda tau)); highest modes (smallest terms) first. */
    for (PetscInt k = md->n - 1; k >= 0; k--) sum += creal(coef[k] * tau[j] * SKPhi1(lambda[k] * tau[j]));
    l1[j] = sum;
  }
  PetscCall(PetscFree2(lambda, coef));
  PetscCall(PetscLogEventEnd(SK_EVENT_MemKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKMemoryStringL1RightLimit(PetscReal c, PetscReal zeta)
{
  return PetscAcosReal(zeta) / (2 * PETSC_PI * c * PetscSqrtReal(1 - zeta * zeta));
}
