/* Element types: partition of unity, Kronecker property at the nodes, reference gradients against finite differences,
   tabulation consistency, physical gradients and det(J) w on a distorted element, inverted-element detection, registry. */
#include <string.h>
#include "fem_test_mesh.h"

static PetscErrorCode TestType(const char *name)
{
  SKBasis basis;
  SKBasisInfo info;
  const PetscReal *ref, *xq, *wq, *Nt, *dNt;
  PetscReal N[27], dN[81], Np[27], dNp[81], Nm[27], dNm[81], xi[3], xh[3];
  unsigned long long seed = 42;

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(name, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(SKBasisGetTabulation(basis, &ref, &xq, &wq, &Nt, &dNt));
  const PetscInt dim = info.dim, nn = info.nodes;
  /* Kronecker delta at the nodes (exact: the Lagrange factors are exactly 0 or 1 there) */
  for (PetscInt b = 0; b < nn; b++) {
    PetscCall(SKBasisEvaluate(basis, ref + b * dim, N, dN));
    for (PetscInt a = 0; a < nn; a++)
      PetscCheck(PetscAbsReal(N[a] - (a == b ? 1.0 : 0.0)) < 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s: N_%" PetscInt_FMT "(node %" PetscInt_FMT ") = %g", name, a, b, (double)N[a]);
  }
  for (PetscInt trial = 0; trial < 20; trial++) {
    /* random point inside the reference element */
    PetscReal sum = 0.0;
    for (PetscInt d = 0; d < dim; d++) {
      xi[d] = info.simplex ? 0.5 * (1 + SKTestRand(&seed)) : SKTestRand(&seed);
      sum += xi[d];
    }
    if (info.simplex && sum > 1)
      for (PetscInt d = 0; d < dim; d++) xi[d] /= (sum + 0.1);
    PetscCall(SKBasisEvaluate(basis, xi, N, dN));
    /* partition of unity, zero-sum gradients and linear completeness sum_a N_a xi_a = xi (round-off: 1e-14) */
    PetscReal pu = 0.0, gsum[3] = {0, 0, 0}, xsum[3] = {0, 0, 0}, jac[9] = {0};
    for (PetscInt a = 0; a < nn; a++) {
      pu += N[a];
      for (PetscInt k = 0; k < dim; k++) {
        gsum[k] += dN[a * dim + k];
        xsum[k] += N[a] * ref[a * dim + k];
        for (PetscInt j = 0; j < dim; j++) jac[k * dim + j] += ref[a * dim + k] * dN[a * dim + j];
      }
    }
    PetscCheck(PetscAbsReal(pu - 1.0) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sum N = %.17g", name, (double)pu);
    for (PetscInt k = 0; k < dim; k++) {
      PetscCheck(PetscAbsReal(gsum[k]) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sum dN/dxi_%" PetscInt_FMT " = %g", name, k,
                 (double)gsum[k]);
      PetscCheck(PetscAbsReal(xsum[k] - xi[k]) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: not linearly complete", name);
      for (PetscInt j = 0; j < dim; j++)
        PetscCheck(PetscAbsReal(jac[k * dim + j] - (k == j ? 1.0 : 0.0)) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: sum xi_a (x) dN_a != I", name);
    }
    /* gradients against central differences; truncation h^2 N''' / 6 <= 1e-12 for these polynomials, round-off 1e-16/h */
    for (PetscInt k = 0; k < dim; k++) {
      const PetscReal h = 1e-5;
      PetscCall(PetscArraycpy(xh, xi, dim));
      xh[k] = xi[k] + h;
      PetscCall(SKBasisEvaluate(basis, xh, Np, dNp));
      xh[k] = xi[k] - h;
      PetscCall(SKBasisEvaluate(basis, xh, Nm, dNm));
      for (PetscInt a = 0; a < nn; a++) {
        const PetscReal fd = (Np[a] - Nm[a]) / (2 * h);
        PetscCheck(PetscAbsReal(fd - dN[a * dim + k]) < 1e-9, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: dN_%" PetscInt_FMT "/dxi_%" PetscInt_FMT " = %g, FD %g", name, a, k, (double)dN[a * dim + k], (double)fd);
      }
    }
  }
  /* tabulation = evaluation at the quadrature points; weights sum to the reference measure */
  {
    PetscReal wsum = 0.0;
    for (PetscInt q = 0; q < info.qpoints; q++) {
      PetscCall(SKBasisEvaluate(basis, xq + q * dim, N, dN));
      for (PetscInt a = 0; a < nn; a++)
        PetscCheck(N[a] == Nt[q * nn + a], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: tabulated N differs", name);
      for (PetscInt k = 0; k < nn * dim; k++)
        PetscCheck(dN[k] == dNt[q * nn * dim + k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: tabulated dN differs", name);
      wsum += wq[q];
    }
    PetscCheck(PetscAbsReal(wsum - info.reference_measure) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: weights sum to %g", name,
               (double)wsum);
  }
  /* physical geometry of a distorted element: X = affine map of the reference nodes + a small bump on the
     non-corner nodes. Checks sum_a X_a (x) dN_a/dX = I and sum_q w det J = volume (exact for an affine element) */
  for (PetscInt bumped = 0; bumped < 2; bumped++) {
    const PetscReal A[9] = {2.0, 0.3, -0.2, 0.1, 1.5, 0.25, 0.05, -0.1, 0.8}, c[3] = {1.0, -2.0, 0.5};
    PetscReal Xe[27 * 3], Nq[27 * 27], G[27 * 27 * 3], wdetJ[27], detA, vol = 0.0;
    PetscInt bad;
    for (PetscInt a = 0; a < nn; a++)
      for (PetscInt i = 0; i < dim; i++) {
        Xe[a * dim + i] = c[i];
        for (PetscInt j = 0; j < dim; j++) Xe[a * dim + i] += A[i * 3 + j] * ref[a * dim + j];
        if (bumped && info.degree == 2 && a >= (dim == 2 ? 4 : 8)) Xe[a * dim + i] += 0.05 * SKTestRand(&seed);
      }
    detA = dim == 2 ? A[0] * A[4] - A[1] * A[3]
                    : A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]);
    PetscCall(SKBasisEvaluateElement(basis, 0, Xe, Nq, G, wdetJ, &bad));
    PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: valid element flagged inverted", name);
    for (PetscInt q = 0; q < info.qpoints; q++) {
      vol += wdetJ[q];
      for (PetscInt i = 0; i < dim; i++)
        for (PetscInt j = 0; j < dim; j++) {
          PetscReal s = 0.0;
          for (PetscInt a = 0; a < nn; a++) s += Xe[a * dim + i] * G[(q * nn + a) * dim + j];
          PetscCheck(PetscAbsReal(s - (i == j ? 1.0 : 0.0)) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sum X (x) dN/dX != I (%g)", name,
                     (double)s);
        }
    }
    if (!bumped)
      PetscCheck(PetscAbsReal(vol - detA * info.reference_measure) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: volume %g != %g", name,
                 (double)vol, (double)(detA * info.reference_measure));
    /* mirror the element (swap x coordinates' sign): det < 0 at every quadrature point, reported */
    for (PetscInt a = 0; a < nn; a++) Xe[a * dim] = -Xe[a * dim];
    PetscCall(SKBasisEvaluateElement(basis, 0, Xe, NULL, G, wdetJ, &bad));
    PetscCheck(bad == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: mirrored element not flagged (bad qp %" PetscInt_FMT ")", name, bad);
  }
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static unsigned DummyGeometry(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[], PetscReal dNdX[],
                              PetscReal wdetJ[])
{
  (void)basis, (void)q, (void)elem, (void)X, (void)N, (void)dNdX, (void)wdetJ;
  return 0;
}

static PetscErrorCode TestTable(void)
{
  SKBasis basis = NULL;
  PetscErrorCode ierr;
  PetscReal xi[3]        = {0, 0, 0}, N[27], dN[81];
  const PetscInt vtk[]   = {5, 9, 28, 10, 12, 29};
  const PetscInt nodes[] = {3, 4, 9, 4, 8, 27}, nq[] = {1, 4, 9, 1, 8, 27};

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < SK_TEST_NUM_TYPES; i++) {
    SKBasisInfo info;
    PetscCall(SKBasisCreate(sk_test_types[i], &basis));
    PetscCall(SKBasisGetInfo(basis, &info));
    PetscCheck(info.vtk_cell_type == vtk[i] && info.nodes == nodes[i] && info.qpoints == nq[i], PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: wrong table entry", sk_test_types[i]);
    PetscCall(SKBasisDestroy(&basis));
  }
  /* misuse is an error, not a crash: an unknown name (listing the known ones), a shell without geometry,
     evaluating a shell's reference basis, an oversized shell */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKBasisCreate("Q8", &basis);
  PetscCheck(ierr == PETSC_ERR_ARG_UNKNOWN_TYPE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unknown element type accepted");
  {
    const char *text, *specific;
    PetscCall(PetscErrorMessage(ierr, &text, (char **)&specific));
    PetscCheck(specific && strstr(specific, "H27") && strstr(specific, "Q8"), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "message does not list known types: %s", specific ? specific : "");
  }
  ierr = SKBasisCreateShell("shell", 2, 4, 4, 9, NULL, NULL, &basis);
  PetscCheck(ierr == PETSC_ERR_ARG_NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell without geometry accepted");
  PetscCall(SKBasisCreateShell("shell", 2, 4, 4, 9, DummyGeometry, NULL, &basis));
  ierr = SKBasisEvaluate(basis, xi, N, dN);
  PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell reference basis evaluated");
  ierr = SKBasisCreateShell("big", 3, SK_ELEMENT_MAX_NODES + 1, 8, 12, DummyGeometry, NULL, &basis);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "oversized shell accepted");
  PetscCall(PetscPopErrorHandler());
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt i = 0; i < SK_TEST_NUM_TYPES; i++) PetscCall(TestType(sk_test_types[i]));
  PetscCall(TestTable());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "element: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
