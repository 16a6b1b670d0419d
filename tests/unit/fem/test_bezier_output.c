/* Output of Bezier cells as VTK rational Bezier cells: SKBezierVTKPointIndex() against VTK's linear and quadratic
   Lagrange cells (the same corner, edge, face and centre order at p = 1, 2) and as a permutation up to p = 3, and
   SKMeshGetBezierPoints() on a refined quarter annulus (p = 2, 3) and cylinder section (p = 2): the coefficients of
   every point sum to 1, the corner points are the patch's points at the span corners, and the rational Bezier cell
   built from the points and weights (Bernstein basis, weights w_i: x = sum B_i w_i x_i / sum B_i w_i) lies on the
   exact circles r = r_inner, r_outer along its radial faces (round-off; a polynomial cell with these points is off
   by 7e-4 relative at p = 2, which the test requires so that it is not blind). */
#include <stickslip/fem.h>
#include <stickslip/iga.h>

static PetscErrorCode TestIndex(void)
{
  /* VTK_BIQUADRATIC_QUAD (28) and VTK_TRIQUADRATIC_HEXAHEDRON (29) list their nodes as the Bezier cells do at p = 2,
     except the vertical hexahedron edges: version-1.0 .vtu files give them at corners 0, 1, 3, 2 (VTK reorders them
     when it reads such files), the Lagrange hexahedron at corners 0, 1, 2, 3 */
  static const PetscInt q9[9][2]   = {{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 0}, {2, 1}, {1, 2}, {0, 1}, {1, 1}};
  static const PetscInt h27[27][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}, {1, 0, 0},
                                      {2, 1, 0}, {1, 2, 0}, {0, 1, 0}, {1, 0, 2}, {2, 1, 2}, {1, 2, 2}, {0, 1, 2}, {0, 0, 1}, {2, 0, 1},
                                      {0, 2, 1}, {2, 2, 1}, {0, 1, 1}, {2, 1, 1}, {1, 0, 1}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}, {1, 1, 1}};

  PetscFunctionBeginUser;
  for (PetscInt n = 0; n < 9; n++)
    PetscCheck(SKBezierVTKPointIndex(2, 2, q9[n][0], q9[n][1], 0) == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "quad p=2: (%d,%d) -> %d, VTK %d",
               (int)q9[n][0], (int)q9[n][1], (int)SKBezierVTKPointIndex(2, 2, q9[n][0], q9[n][1], 0), (int)n);
  for (PetscInt n = 0; n < 27; n++)
    PetscCheck(SKBezierVTKPointIndex(3, 2, h27[n][0], h27[n][1], h27[n][2]) == n, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "hex p=2: (%d,%d,%d) -> %d, VTK %d", (int)h27[n][0], (int)h27[n][1], (int)h27[n][2],
               (int)SKBezierVTKPointIndex(3, 2, h27[n][0], h27[n][1], h27[n][2]), (int)n);
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt p = 1; p <= 3; p++) {
      const PetscInt q = p + 1, n = PetscPowInt(q, dim);
      PetscInt seen[64] = {0};
      for (PetscInt t = 0; t < n; t++) {
        const PetscInt v = SKBezierVTKPointIndex(dim, p, t % q, (t / q) % q, dim == 3 ? t / (q * q) : 0);
        PetscCheck(v >= 0 && v < n && !seen[v], PETSC_COMM_SELF, PETSC_ERR_PLIB, "dim %d p %d: point %d -> %d is not a permutation",
                   (int)dim, (int)p, (int)t, (int)v);
        seen[v] = 1;
      }
      /* corners in the order of the linear cells */
      PetscCheck(SKBezierVTKPointIndex(dim, p, p, p, 0) == 2 && SKBezierVTKPointIndex(dim, p, 0, p, 0) == 3, PETSC_COMM_SELF,
                 PETSC_ERR_PLIB, "corners");
    }
  PetscCheck(SKBezierVTKPointIndex(2, 2, 3, 0, 0) == -1 && SKBezierVTKPointIndex(2, 2, 0, 0, 1) == -1, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "out of range");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestPoints(PetscInt dim, PetscInt p)
{
  const PetscReal ri = 0.5, ro = 1.0, L = 0.4;
  const char *names[1] = {"ring"};
  SKNURBSPatch patch;
  SKMesh mesh;
  const PetscInt *conn;
  const PetscReal *X;
  PetscInt ne, nen, deg, nb, nel[3];
  PetscReal *coef, *w, err = 0.0, err_poly = 0.0;

  PetscFunctionBeginUser;
  if (dim == 2)
    PetscCall(SKNURBSPatchCreateAnnulus(ri, ro, PETSC_PI / 2, &patch));
  else
    PetscCall(SKNURBSPatchCreateCylinderSection(ri, ro, PETSC_PI / 2, L, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, p - 1));
  PetscCall(SKNURBSPatchElevateDegree(patch, 1, p - 2));
  if (dim == 3) PetscCall(SKNURBSPatchElevateDegree(patch, 2, p - 1));
  PetscCall(SKNURBSPatchRefine(patch, 0, 2));
  PetscCall(SKNURBSPatchRefine(patch, 1, 3));
  PetscCall(SKNURBSPatchGetNumElements(patch, NULL, nel));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
  PetscCall(SKMeshGetNodes(mesh, NULL, &X));
  PetscCall(SKMeshGetBezierPoints(mesh, 0, &deg, &nb, &coef, &w));
  nen = nb;
  PetscCheck(deg == p && nb == PetscPowInt(p + 1, dim), PETSC_COMM_SELF, PETSC_ERR_PLIB, "degree %d, %d points", (int)deg, (int)nb);
  for (PetscInt e = 0; e < ne; e++) {
    PetscReal xb[64][3] = {{0}};
    for (PetscInt j = 0; j < nb; j++) {
      PetscReal sum = 0.0;
      for (PetscInt a = 0; a < nen; a++) {
        sum += coef[(e * nb + j) * nen + a];
        for (PetscInt d = 0; d < dim; d++) xb[j][d] += coef[(e * nb + j) * nen + a] * X[conn[e * nen + a] * dim + d];
      }
      PetscCheck(PetscAbsReal(sum - 1.0) < 1e-13 && w[e * nb + j] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "element %d point %d: sum %g weight %g", (int)e, (int)j, (double)sum, (double)w[e * nb + j]);
    }
    /* along the radial faces (first direction at its ends): the rational cell from the points and weights */
    for (PetscInt side = 0; side < 2; side++)
      for (PetscInt s = 0; s <= 4; s++) {
        const PetscReal xi      = -1.0 + 0.5 * s,
                        r_exact = (e % nel[0] == 0 && side == 0) ? ri : ((e % nel[0] == nel[0] - 1 && side == 1) ? ro : -1);
        PetscReal B[SK_IGA_MAX_DEGREE + 1], x[3] = {0}, xp[3] = {0}, W = 0.0;
        if (r_exact < 0) continue; /* an interior face of the two radial elements: r = 0.75, checked with the others below */
        SKBernsteinBasis(p, xi, B, NULL);
        for (PetscInt j = 0; j <= p; j++) { /* the face's points i = 0 or p, varying along direction 1 (k = 0 in 3D) */
          const PetscInt v = SKBezierVTKPointIndex(dim, p, side ? p : 0, j, 0);
          W += B[j] * w[e * nb + v];
          for (PetscInt d = 0; d < 2; d++) x[d] += B[j] * w[e * nb + v] * xb[v][d], xp[d] += B[j] * xb[v][d];
        }
        err      = PetscMax(err, PetscAbsReal(PetscSqrtReal(x[0] * x[0] + x[1] * x[1]) / W - r_exact) / r_exact);
        err_poly = PetscMax(err_poly, PetscAbsReal(PetscSqrtReal(xp[0] * xp[0] + xp[1] * xp[1]) - r_exact) / r_exact);
      }
    /* corner points: the patch at the span's corners (interpolatory) */
    {
      PetscInt k[3];
      const PetscReal *range;
      PetscReal u[3], xe[3];
      PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
      for (PetscInt d = 0; d < dim; d++) {
        PetscCall(SKNURBSPatchGetExtraction(patch, d, NULL, NULL, &range));
        u[d] = range[2 * k[d]];
      }
      PetscCall(SKNURBSPatchEvaluate(patch, u, xe, NULL));
      for (PetscInt d = 0; d < dim; d++) err = PetscMax(err, PetscAbsReal(xb[0][d] - xe[d]));
    }
  }
  PetscCheck(err < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dim %d p %d: Bezier cells off the exact geometry by %g", (int)dim, (int)p,
             (double)err);
  PetscCheck(p > 2 || err_poly > 1e-4, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "dim %d p %d: the polynomial cell is only %g off: the check is blind", (int)dim, (int)p, (double)err_poly);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d p %d: rational cells %.2e off the circles, polynomial ones %.2e\n", (int)dim, (int)p,
                        (double)err, (double)err_poly));
  PetscCall(PetscFree(coef));
  PetscCall(PetscFree(w));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestIndex());
  PetscCall(TestPoints(2, 2));
  PetscCall(TestPoints(2, 3));
  PetscCall(TestPoints(3, 2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bezier_output: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
