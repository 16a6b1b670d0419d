/* Patch tests for every element basis: on a mesh with moved interior nodes, a linear displacement u = A X gives the
   constant stress of F = I + A at every quadrature point, zero internal force at interior nodes, and the exact
   reaction P N |face| on each face of the box. Run with linear elasticity and with Neo-Hookean at finite strain
   (F constant, so the patch test applies unchanged), plane strain and plane stress in 2D. */
#include "fem_test_mesh.h"

static PetscErrorCode PatchTest(const char *tname, const char *mname, SKStressState state)
{
  SKBasis basis;
  SKBasisInfo info;
  SKMaterial mat;
  SKTestMesh m;
  SKFEMFailure fail;
  SKMaterialPoint pt;
  unsigned long long seed = 17;
  PetscReal A[9], F[9], *u, *f, *sig, scale = 0.0;
  const PetscReal L = 2.0, amp = 0.1; /* finite strain: |A| ~ 0.1 */

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(tname, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  const PetscInt dim = info.dim;
  PetscCall(SKMaterialCreate(mname, state, 1.0e7, 0.3, 1000.0, &mat));
  PetscCall(SKTestMeshCreate(basis, 3, L, 0.2, 5, &m));
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++) A[i * dim + j] = amp * SKTestRand(&seed), F[i * dim + j] = (i == j ? 1.0 : 0.0) + A[i * dim + j];
  PetscCall(SKMaterialEvaluate(mat, F, &pt));
  PetscCall(PetscCalloc3(m.nnodes * dim, &u, m.nnodes * dim, &f, m.nelem * info.qpoints * 9, &sig));
  for (PetscInt n = 0; n < m.nnodes; n++)
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) u[n * dim + i] += A[i * dim + j] * m.X[n * dim + j];
  PetscCall(SKFEMInternalForce(basis, mat, m.nelem, m.conn, m.X, u, f, NULL, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: failure %d in element %" PetscInt_FMT, tname, (int)fail.kind,
             fail.element);
  PetscCall(SKFEMStress(basis, mat, m.nelem, m.conn, m.X, u, sig, NULL, NULL, NULL, &fail));
  for (PetscInt k = 0; k < 9; k++) scale = PetscMax(scale, PetscAbsReal(pt.sigma[k]));
  /* constant stress at every quadrature point: F is reproduced to round-off (gradients O(1/h), sums of O(10) terms),
     so sigma to ~1e-13 relative; 1e-11 leaves margin for the distorted Jacobians */
  for (PetscInt k = 0; k < m.nelem * info.qpoints; k++)
    for (PetscInt c = 0; c < 9; c++)
      PetscCheck(PetscAbsReal(sig[k * 9 + c] - pt.sigma[c]) <= 1e-11 * scale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s/%s: sigma_%" PetscInt_FMT " at qp %" PetscInt_FMT " = %g, expected %g", tname, mname, c, k, (double)sig[k * 9 + c],
                 (double)pt.sigma[c]);
  /* forces scale like |P| h^(dim-1); interior nodes carry zero force to round-off */
  {
    const PetscReal fscale   = scale * pow(L / 3.0, (double)(dim - 1));
    PetscReal reaction[3][3] = {{0}}; /* [face direction][component] on the faces X_d = L */
    for (PetscInt n = 0; n < m.nnodes; n++) {
      if (!SKTestMeshOnBoundary(&m, n))
        for (PetscInt i = 0; i < dim; i++)
          PetscCheck(PetscAbsReal(f[n * dim + i]) <= 1e-11 * fscale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "%s/%s: interior node %" PetscInt_FMT " force %g", tname, mname, n, (double)f[n * dim + i]);
      for (PetscInt d = 0; d < dim; d++)
        if (m.X[n * dim + d] > (1 - 1e-12) * L)
          for (PetscInt i = 0; i < dim; i++) reaction[d][i] += f[n * dim + i];
    }
    /* reaction on the face X_d = L is P e_d |face| (side faces' contributions to its edge nodes cancel in pairs);
       in 2D P is per unit thickness */
    const PetscReal area = pow(L, (double)(dim - 1));
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt i = 0; i < dim; i++)
        PetscCheck(PetscAbsReal(reaction[d][i] - pt.P[i * dim + d] * area) <= 1e-11 * scale * area, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s/%s: reaction on face %" PetscInt_FMT " component %" PetscInt_FMT " = %.15g, expected %.15g", tname, mname, d, i,
                   (double)reaction[d][i], (double)(pt.P[i * dim + d] * area));
  }
  PetscCall(PetscFree3(u, f, sig));
  PetscCall(SKTestMeshDestroy(&m));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) {
    const PetscBool two_d = t < 3 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PatchTest(sk_test_types[t], "linear_elastic", two_d ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D));
    PetscCall(PatchTest(sk_test_types[t], "neo_hookean", two_d ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D));
    PetscCall(PatchTest(sk_test_types[t], "saint_venant_kirchhoff", two_d ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D));
    if (two_d) {
      PetscCall(PatchTest(sk_test_types[t], "linear_elastic", SK_STRESS_STATE_PLANE_STRESS));
      PetscCall(PatchTest(sk_test_types[t], "neo_hookean", SK_STRESS_STATE_PLANE_STRESS));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "patch: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
