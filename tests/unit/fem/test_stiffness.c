/* Element stiffness (finite differences of f_int): symmetric, with exactly dim (translations) + rotations zero
   eigenvalues at the undeformed state for every basis; K u = f_int(u) for linear elasticity; translations stay
   zero modes at a deformed state; and f_int = d(strain energy)/du, which ties the force to the energy. */
#include "fem_test_mesh.h"

/* Eigenvalues of a symmetric n x n matrix (destroyed) by cyclic Jacobi rotations, ascending into ev. Self-contained
   so that the test does not depend on how LAPACK is linked. */
static void SymmetricEigenvalues(PetscInt n, PetscReal A[], PetscReal ev[])
{
  for (PetscInt sweep = 0; sweep < 100; sweep++) {
    PetscReal off = 0.0, diag = 0.0;
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) {
        if (i == j)
          diag += A[i * n + j] * A[i * n + j];
        else
          off += A[i * n + j] * A[i * n + j];
      }
    if (off <= 1e-30 * diag) break;
    for (PetscInt p = 0; p < n; p++)
      for (PetscInt q = p + 1; q < n; q++) {
        if (A[p * n + q] == 0.0) continue;
        const PetscReal theta = (A[q * n + q] - A[p * n + p]) / (2.0 * A[p * n + q]);
        const PetscReal t     = (theta >= 0 ? 1.0 : -1.0) / (PetscAbsReal(theta) + PetscSqrtReal(theta * theta + 1.0)),
                        c = 1.0 / PetscSqrtReal(t * t + 1.0), s = t * c;
        for (PetscInt k = 0; k < n; k++) { /* A <- A R (columns p, q) */
          const PetscReal akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (PetscInt k = 0; k < n; k++) { /* A <- R^T A (rows p, q) */
          const PetscReal apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  for (PetscInt i = 0; i < n; i++) ev[i] = A[i * n + i];
  for (PetscInt i = 1; i < n; i++) /* insertion sort, n <= 81 */
    for (PetscInt j = i; j > 0 && ev[j - 1] > ev[j]; j--) {
      const PetscReal tmp = ev[j];
      ev[j]               = ev[j - 1];
      ev[j - 1]           = tmp;
    }
}

/* One element: reference nodes under an affine map, non-corner nodes (quadratic types) bumped. */
static void DistortedElement(SKBasis basis, unsigned long long *seed, PetscReal Xe[])
{
  SKBasisInfo info;
  const PetscReal *ref;
  const PetscReal A[9] = {1.0, 0.2, -0.1, 0.1, 0.8, 0.15, 0.05, -0.1, 1.2};
  (void)SKBasisGetInfo(basis, &info);
  (void)SKBasisGetTabulation(basis, &ref, NULL, NULL, NULL, NULL);
  for (PetscInt a = 0; a < info.nodes; a++)
    for (PetscInt i = 0; i < info.dim; i++) {
      Xe[a * info.dim + i] = 0.0;
      for (PetscInt j = 0; j < info.dim; j++) Xe[a * info.dim + i] += A[i * 3 + j] * ref[a * info.dim + j];
      if (info.degree == 2 && a >= (info.dim == 2 ? 4 : 8)) Xe[a * info.dim + i] += 0.05 * SKTestRand(seed);
    }
}

static PetscErrorCode TestType(const char *name)
{
  SKBasis basis;
  SKBasisInfo info;
  SKFEMFailure fail;
  unsigned long long seed = 99;
  PetscReal Xe[81], ue[81], K[81 * 81], Kc[81 * 81], ev[81], f[81];
  PetscInt conn[27];

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(name, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  const PetscInt dim = info.dim, n = info.nodes * dim, nzero = dim == 2 ? 3 : 6;
  const char *mats[2] = {"linear_elastic", "neo_hookean"};
  for (PetscInt a = 0; a < info.nodes; a++) conn[a] = a;
  DistortedElement(basis, &seed, Xe);
  for (PetscInt mi = 0; mi < 2; mi++) {
    SKMaterial mat;
    PetscReal kmax = 0.0, asym = 0.0;
    PetscCall(SKMaterialCreate(mats[mi], dim == 2 ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D, 1.0e6, 0.3, 1.0, &mat));
    PetscCall(PetscArrayzero(ue, n));
    PetscCall(SKFEMElementStiffness(basis, mat, Xe, ue, K, &fail));
    for (PetscInt i = 0; i < n * n; i++) kmax = PetscMax(kmax, PetscAbsReal(K[i]));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) asym = PetscMax(asym, PetscAbsReal(K[i * n + j] - K[j * n + i]));
    /* FD error ~1e-10 relative (see SKFEMElementStiffness); 1e-7 catches any real asymmetry */
    PetscCheck(asym <= 1e-7 * kmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s/%s: K not symmetric, %g of %g", name, mats[mi], (double)asym,
               (double)kmax);
    {
      PetscInt zeros = 0;
      PetscReal emax;
      for (PetscInt i = 0; i < n; i++)
        for (PetscInt j = 0; j < n; j++) Kc[i * n + j] = 0.5 * (K[i * n + j] + K[j * n + i]);
      SymmetricEigenvalues(n, Kc, ev);
      emax = ev[n - 1];
      /* rigid-body modes give |lambda| ~ FD noise (1e-10 lambda_max); the softest deformation mode of these elements
         is above 1e-4 lambda_max: 1e-7 separates them */
      for (PetscInt i = 0; i < n; i++) {
        PetscCheck(ev[i] > -1e-7 * emax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s/%s: negative eigenvalue %g", name, mats[mi], (double)ev[i]);
        if (PetscAbsReal(ev[i]) < 1e-7 * emax) zeros++;
      }
      PetscCheck(zeros == nzero, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s/%s: %" PetscInt_FMT " zero eigenvalues, expected %" PetscInt_FMT " (smallest %g %g %g of %g)", name, mats[mi], zeros,
                 nzero, (double)ev[0], (double)ev[nzero - 1], (double)ev[nzero], (double)emax);
    }
    /* a deformed state */
    for (PetscInt i = 0; i < n; i++) ue[i] = 0.05 * SKTestRand(&seed);
    PetscCall(SKFEMElementStiffness(basis, mat, Xe, ue, K, &fail));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "deformed state inverted");
    PetscCall(PetscArrayzero(f, n));
    PetscCall(SKFEMInternalForce(basis, mat, 1, conn, Xe, ue, f, NULL, &fail));
    if (mi == 0) { /* linear: K u = f_int(u) (FD of a linear map is exact up to round-off) */
      for (PetscInt i = 0; i < n; i++) {
        PetscReal Ku = 0.0;
        for (PetscInt j = 0; j < n; j++) Ku += K[i * n + j] * ue[j];
        PetscCheck(PetscAbsReal(Ku - f[i]) <= 1e-8 * kmax * 0.05, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: K u = %g but f_int = %g", name,
                   (double)Ku, (double)f[i]);
      }
    }
    /* translations: K t = 0 at any state (f_int does not see them) */
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt i = 0; i < n; i++) {
        PetscReal Kt = 0.0;
        for (PetscInt a = 0; a < info.nodes; a++) Kt += K[i * n + a * dim + d];
        PetscCheck(PetscAbsReal(Kt) <= 1e-7 * kmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s/%s: translation %" PetscInt_FMT " not a zero mode at a deformed state: %g", name, mats[mi], d, (double)Kt);
      }
    /* f_int = dPi/du by central differences of the energy; h = 1e-6: round-off eps |Pi| / h ~ 1e-11 |f|, truncation
       h^2 |f''| ~ 1e-12 |f|; 1e-8 catches a force/energy mismatch of 1e-7 */
    for (PetscInt j = 0; j < n; j++) {
      PetscReal ep = 0.0, em = 0.0, fmax = 0.0;
      const PetscReal h = 1e-6, uj = ue[j];
      ue[j] = uj + h;
      PetscCall(SKFEMInternalForce(basis, mat, 1, conn, Xe, ue, NULL, &ep, &fail));
      ue[j] = uj - h;
      PetscCall(SKFEMInternalForce(basis, mat, 1, conn, Xe, ue, NULL, &em, &fail));
      ue[j] = uj;
      for (PetscInt i = 0; i < n; i++) fmax = PetscMax(fmax, PetscAbsReal(f[i]));
      PetscCheck(PetscAbsReal((ep - em) / (2 * h) - f[j]) <= 1e-8 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s/%s: dPi/du_%" PetscInt_FMT " = %g but f = %g", name, mats[mi], j, (double)((ep - em) / (2 * h)), (double)f[j]);
    }
    PetscCall(SKMaterialDestroy(&mat));
  }
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) PetscCall(TestType(sk_test_types[t]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stiffness: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
