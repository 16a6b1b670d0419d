/* Stiffness row bound for the critical time step (SKFEMStiffnessBounds): the row sums of |K^e| equal those of the
   finite-difference element stiffness, and max_i r_i / m_i bounds the largest eigenvalue of M^-1 K of a small
   distorted mesh from above (Gershgorin), for every basis, two materials and, in 2D, both plane states. */
#include "fem_test_mesh.h"

/* STATE applies to the 2D types; the 3D ones are 3D. */
static PetscErrorCode TestType(const char *name, const char *mat_type, SKStressState state)
{
  SKBasis basis;
  SKBasisInfo info;
  SKMaterial mat;
  SKTestMesh m;
  SKFEMFailure fail;
  PetscReal *r, *rfd, *mass, *K, *x, *y, Ke[81 * 81], Xe[81], ue[81] = {0}, bound = 0.0, lambda = 0.0;
  unsigned long long seed = 7;

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(name, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  if (info.dim == 3) state = SK_STRESS_STATE_3D;
  PetscCall(SKMaterialCreate(mat_type, state, 2.0e6, 0.3, 800.0, &mat));
  PetscCall(SKTestMeshCreate(basis, 2, 0.5, 0.2, seed, &m));
  const PetscInt dim = m.dim, ndof = m.nnodes * dim, n = info.nodes * dim;
  PetscCall(PetscCalloc4(ndof, &r, ndof, &rfd, m.nnodes, &mass, ndof * ndof, &K));
  PetscCall(PetscMalloc2(ndof, &x, ndof, &y));
  PetscCall(SKFEMStiffnessBounds(basis, mat, SK_LUMPING_AUTO, m.nelem, m.conn, m.X, r, NULL, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: inverted element", name);
  PetscCall(SKFEMLumpedMass(basis, 800.0, SK_LUMPING_AUTO, m.nelem, m.conn, m.X, mass, &fail));
  for (PetscInt e = 0; e < m.nelem; e++) {
    const PetscInt *c = m.conn + e * info.nodes;
    for (PetscInt a = 0; a < info.nodes; a++)
      for (PetscInt d = 0; d < dim; d++) Xe[a * dim + d] = m.X[c[a] * dim + d];
    PetscCall(SKFEMElementStiffness(basis, mat, Xe, ue, Ke, &fail));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) {
        const PetscInt gi = c[i / dim] * dim + i % dim, gj = c[j / dim] * dim + j % dim;
        rfd[gi] += PetscAbsReal(Ke[i * n + j]);
        K[gi * ndof + gj] += Ke[i * n + j];
      }
  }
  /* the FD stiffness has a relative error ~1e-10 (SKFEMElementStiffness), the tangent of the bound ~1e-10: 1e-7 */
  for (PetscInt i = 0; i < ndof; i++)
    PetscCheck(PetscAbsReal(r[i] - rfd[i]) <= 1e-7 * rfd[i], PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s/%s: row %" PetscInt_FMT " bound %.12g but the FD stiffness gives %.12g", name, mat_type, i, (double)r[i],
               (double)rfd[i]);
  for (PetscInt i = 0; i < ndof; i++) bound = PetscMax(bound, r[i] / mass[i / dim]);
  /* lambda_max of M^-1/2 K M^-1/2 by power iteration (converges from below; 3000 iterations reach 1e-6 on these
     spectra), which the bound must not undercut */
  for (PetscInt i = 0; i < ndof; i++) x[i] = 1.0 + 0.5 * SKTestRand(&seed);
  for (PetscInt k = 0; k < 3000; k++) {
    PetscReal nx = 0.0;
    for (PetscInt i = 0; i < ndof; i++) nx += x[i] * x[i];
    nx = PetscSqrtReal(nx);
    for (PetscInt i = 0; i < ndof; i++) x[i] /= nx;
    lambda = 0.0;
    for (PetscInt i = 0; i < ndof; i++) {
      y[i] = 0.0;
      for (PetscInt j = 0; j < ndof; j++) y[i] += K[i * ndof + j] * x[j] / PetscSqrtReal(mass[j / dim]);
      y[i] /= PetscSqrtReal(mass[i / dim]);
      lambda += y[i] * x[i];
    }
    PetscCall(PetscArraycpy(x, y, ndof));
  }
  PetscCheck(lambda > 0 && bound >= lambda, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s/%s: bound %g below lambda_max %g", name, mat_type,
             (double)bound, (double)lambda);
  /* and not uselessly loose: measured 1.33 (T3) to 4.27 (H27) lambda_max on these meshes, the quadratic types the
     loosest; 5 flags a bound that has lost its tie to the stiffness */
  PetscCheck(bound <= 5.0 * lambda, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s/%s: bound %g is %g lambda_max", name, mat_type, (double)bound,
             (double)(bound / lambda));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-4s %-15s %-12s bound / lambda_max = %.3f\n", name, mat_type, SKStressStateNames[state],
                        (double)(bound / lambda)));
  PetscCall(PetscFree4(r, rfd, mass, K));
  PetscCall(PetscFree2(x, y));
  PetscCall(SKTestMeshDestroy(&m));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) {
    PetscCall(TestType(sk_test_types[t], "linear_elastic", SK_STRESS_STATE_PLANE_STRAIN));
    PetscCall(TestType(sk_test_types[t], "neo_hookean", SK_STRESS_STATE_PLANE_STRESS));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "row bound: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
