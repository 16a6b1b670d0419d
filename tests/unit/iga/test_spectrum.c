/* Lumped-mass spectra of NURBS patches, p = 1..4, against dense eigen-solves (LAPACK):
   - 1D bar (free-free, uniform knots, c = 1): omega_max h / c; for p = 1 the closed form 2 (the alternating mode of the
     lumped chain is exact) checks the assembly;
   - 2D square plate (free, plane strain) through the fem Bezier cells: omega_max h / c_d, the element eigenvalue bound
     (SKFEMStiffnessBounds) above it, and the explicit solver's power iteration below it (a Rayleigh quotient).
   Prints the table that docs/theory.md quotes. */
#include <stickslip/fem.h>
#include <stickslip/dynamics.h>
#include <petscblaslapack.h>

/* Eigenvalues of diag(m)^-1 K (dense, n x n, row-major; K overwritten), ascending into eig[n] (may be NULL), the largest
   into *lambda. */
static PetscErrorCode DenseEigenvalues(PetscInt n, PetscReal K[], const PetscReal m[], PetscReal *lambda, PetscReal all[])
{
  PetscBLASInt bn, lwork, info;
  PetscReal *eig, *work;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  lwork = 4 * bn;
  PetscCall(PetscMalloc2(n, &eig, lwork, &work));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j <= i; j++) K[i * n + j] = K[j * n + i] = 0.5 * (K[i * n + j] + K[j * n + i]) / PetscSqrtReal(m[i] * m[j]);
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "U", &bn, K, &bn, eig, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "syev info %d", (int)info);
  *lambda = eig[n - 1];
  if (all) PetscCall(PetscArraycpy(all, eig, n));
  PetscCall(PetscFree2(eig, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1D bar of unit length, E = rho = A = 1 (c = 1), nel uniform spans of degree p: free-free (clamped = PETSC_FALSE;
   *omega_h = omega_max h / c) or clamped at u = 0 (the first control point removed; omega1[k], k < 3, the three lowest
   frequencies). */
static PetscErrorCode Bar1D(PetscInt p, PetscInt nel, PetscBool clamped, PetscReal *omega_h, PetscReal omega1[])
{
  const PetscInt n = nel + p, m = n + p + 1; /* nel <= 200 */
  PetscReal U[256], *K, *M, x[16], w[16], ders[2 * 16];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < m; i++) U[i] = i <= p ? 0.0 : (i >= n ? 1.0 : (PetscReal)(i - p) / nel);
  PetscCall(PetscCalloc2(n * n, &K, n, &M));
  PetscCall(SKQuadratureGaussLegendre(p + 1, x, w));
  for (PetscInt e = 0; e < nel; e++) {
    const PetscReal a = (PetscReal)e / nel, h = 1.0 / nel;
    for (PetscInt q = 0; q <= p; q++) {
      const PetscReal u = a + 0.5 * (x[q] + 1) * h, wq = 0.5 * h * w[q];
      const PetscInt span = SKBSplineFindSpan(p, n, U, u);
      SKBSplineBasis(p, U, span, u, 1, ders);
      for (PetscInt i = 0; i <= p; i++) {
        M[span - p + i] += wq * ders[i]; /* row sum */
        for (PetscInt j = 0; j <= p; j++) K[(span - p + i) * n + span - p + j] += wq * ders[p + 1 + i] * ders[p + 1 + j];
      }
    }
  }
  PetscReal lambda, *eig;
  PetscCall(PetscMalloc1(n, &eig));
  if (clamped) { /* drop row and column 0 in place */
    for (PetscInt i = 1; i < n; i++)
      for (PetscInt j = 1; j < n; j++) K[(i - 1) * (n - 1) + j - 1] = K[i * n + j];
    PetscCall(DenseEigenvalues(n - 1, K, M + 1, &lambda, eig));
    for (PetscInt k = 0; k < 3; k++) omega1[k] = PetscSqrtReal(eig[k]);
  } else
    PetscCall(DenseEigenvalues(n, K, M, &lambda, eig));
  *omega_h = PetscSqrtReal(lambda) / nel;
  PetscCall(PetscFree(eig));
  PetscCall(PetscFree2(K, M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2D unit square, nel x nel elements of degree p, plane strain, free. */
static PetscErrorCode Plate2D(PetscInt p, PetscInt nel, PetscReal *omega_h, PetscReal *bound_h, PetscReal *power_h)
{
  const PetscReal lo[2] = {0, 0}, hi[2] = {1, 1};
  const char *names[1] = {"plate"};
  SKNURBSPatch patch;
  SKMesh mesh;
  SKBasis basis;
  SKMaterial mat;
  SKFEMFailure fail;
  PetscInt nn, ne, nen;
  const PetscInt *conn;
  const PetscReal *X;
  PetscReal *K, *Kd, *m, *mdof, Ke[64 * 2 * 64 * 2], Xe[64 * 2], ue[64 * 2] = {0}, c, lambda, omega2;

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchCreateBox(2, lo, hi, &patch));
  for (PetscInt d = 0; d < 2; d++) {
    PetscCall(SKNURBSPatchElevateDegree(patch, d, p - 1));
    PetscCall(SKNURBSPatchRefine(patch, d, nel));
  }
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
  PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRAIN, 1.0, 0.3, 1.0, &mat));
  PetscCall(SKMaterialGetWaveSpeed(mat, &c));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
  nen = PetscPowInt(p + 1, 2);
  PetscCall(PetscCalloc4(4 * nn * nn, &K, 4 * nn * nn, &Kd, nn, &m, 2 * nn, &mdof));
  PetscCall(SKFEMLumpedMass(basis, 1.0, SK_LUMPING_ROWSUM, ne, conn, X, m, &fail));
  for (PetscInt a = 0; a < nn; a++) mdof[2 * a] = mdof[2 * a + 1] = m[a];
  for (PetscInt e = 0; e < ne; e++) {
    for (PetscInt a = 0; a < nen; a++)
      for (PetscInt d = 0; d < 2; d++) Xe[a * 2 + d] = X[conn[e * nen + a] * 2 + d];
    PetscCall(SKFEMBlockElementStiffness(basis, mat, e, Xe, ue, Ke, &fail));
    for (PetscInt i = 0; i < 2 * nen; i++)
      for (PetscInt j = 0; j < 2 * nen; j++)
        K[(conn[e * nen + i / 2] * 2 + i % 2) * 2 * nn + conn[e * nen + j / 2] * 2 + j % 2] += Ke[i * 2 * nen + j];
  }
  PetscCall(PetscArraycpy(Kd, K, 4 * nn * nn));
  PetscCall(DenseEigenvalues(2 * nn, Kd, mdof, &lambda, NULL));
  *omega_h = PetscSqrtReal(lambda) / nel / c;
  PetscCall(SKFEMStiffnessBounds(basis, mat, SK_LUMPING_ROWSUM, ne, conn, X, NULL, &omega2, &fail));
  *bound_h = PetscSqrtReal(omega2) / nel / c;
  {
    Mat A;
    Vec mv;
    IS none;
    PetscInt its, *rows;
    PetscReal lp;
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2 * nn, 2 * nn, 2 * 2 * nen * 4, NULL, &A));
    PetscCall(PetscMalloc1(2 * nn, &rows));
    for (PetscInt i = 0; i < 2 * nn; i++) rows[i] = i;
    for (PetscInt i = 0; i < 2 * nn; i++)
      for (PetscInt j = 0; j < 2 * nn; j++)
        if (K[i * 2 * nn + j] != 0.0) PetscCall(MatSetValue(A, i, j, K[i * 2 * nn + j], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, 2 * nn, mdof, &mv));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 0, rows, PETSC_COPY_VALUES, &none));
    PetscCall(SKExplicitPowerIteration(A, mv, none, 1e-6, 2000, &lp, &its));
    *power_h = PetscSqrtReal(lp) / nel / c;
    PetscCall(ISDestroy(&none));
    PetscCall(VecDestroy(&mv));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFree(rows));
  }
  PetscCall(PetscFree4(K, Kd, m, mdof));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "p  1D omega_max h/c (40 el.)  2D omega_max h/c_d (6x6 el.)  element bound  power iteration (rtol 1e-6)\n"));
  for (PetscInt p = 1; p <= 4; p++) {
    PetscReal w1, w2, wb, wp;
    PetscCall(Bar1D(p, 40, PETSC_FALSE, &w1, NULL));
    PetscCall(Plate2D(p, 6, &w2, &wb, &wp));
    PetscCall(
        PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "  %.6f  %.6f  %.6f  %.6f\n", p, (double)w1, (double)w2, (double)wb, (double)wp));
    /* p = 1: the alternating mode of the free-free lumped chain has omega = 2c/h exactly; eigen-solve round-off ~1e-14 */
    if (p == 1)
      PetscCheck(PetscAbsReal(w1 - 2.0) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "1D p = 1: omega_max h/c = %.15g, expected 2",
                 (double)w1);
    /* Irons-Treharne: the element bound is above omega_max (up to the 1e-10 of the finite-difference stiffness) */
    PetscCheck(wb >= w2 * (1 - 1e-9), PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": element bound %g below omega_max %g", p,
               (double)wb, (double)w2);
    /* a Rayleigh quotient never exceeds the largest eigenvalue */
    PetscCheck(wp <= w2 * (1 + 1e-9), PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT ": power iteration %g above omega_max %g", p,
               (double)wp, (double)w2);
  }
  /* Convergence of the lowest frequencies of the clamped-free bar, omega_k = (2k - 1) pi c / (2L), under h-refinement
     (k-refined patches, C^{p-1}). The row-sum lumped mass is only second-order accurate (its error is that of a
     trapezoidal-like mass quadrature, O(h^2) whatever p), so the consistent-mass order 2p is lost for p >= 2: the
     measured order is 2 for every p (p = 1: the classical lumped linear bar, error -(omega h)^2/24 relative). */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "clamped-free bar, relative error of omega_1 and its order (16 -> 32 -> 64 elements)\n"));
  for (PetscInt p = 1; p <= 4; p++) {
    PetscReal err[3], omega[3], dummy;
    for (PetscInt l = 0; l < 3; l++) {
      PetscCall(Bar1D(p, 16 << l, PETSC_TRUE, &dummy, omega));
      err[l] = PetscAbsReal(omega[0] - 0.5 * PETSC_PI) / (0.5 * PETSC_PI);
    }
    const PetscReal r1 = PetscLog2Real(err[0] / err[1]), r2 = PetscLog2Real(err[1] / err[2]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "  %.3e %.3e %.3e  order %.3f %.3f\n", p, (double)err[0], (double)err[1],
                          (double)err[2], (double)r1, (double)r2));
    /* second order within 0.05 on the finest pair (the asymptotic range is reached at 16 elements for omega_1) */
    PetscCheck(PetscAbsReal(r2 - 2.0) < 0.05, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "p = %" PetscInt_FMT ": order %g, expected 2 (row-sum lumping)", p, (double)r2);
  }
  PetscCall(PetscFinalize());
  return 0;
}
