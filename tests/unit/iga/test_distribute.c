/* Bezier blocks on a distributed mesh: the METIS partition, ghost control points and the block-local element ids that
   the Bezier basis maps back to patch elements. The lumped masses and the internal force of a curved (rational) patch
   under a smooth finite displacement, computed rank by rank and summed onto the owners, equal the replicated values
   at the same (natural) control points to round-off. Run on 1 and 2 ranks (tests.cmake). */
#include <math.h>
#include <stickslip/fem.h>

int main(int argc, char **argv)
{
  const char *names[1] = {"ring"};
  SKNURBSPatch patch;
  SKMesh rep, dist;
  SKMaterial mat;
  PetscSF sf;
  PetscInt nn[2], ne[2], nowned;
  const PetscInt *conn[2], *natural;
  const PetscReal *X[2];
  PetscReal *u[2], *f[2], *m[2], fmax = 0.0, mmax = 0.0, errf = 0.0, errm = 0.0;
  MPI_Datatype dof3;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKNURBSPatchCreateAnnulus(1.0, 1.5, 0.5 * PETSC_PI, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, 1));
  PetscCall(SKNURBSPatchRefine(patch, 0, 4));
  PetscCall(SKNURBSPatchRefine(patch, 1, 7));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_WORLD, 1, &patch, names, &rep));
  PetscCall(SKMeshDistribute(rep, &dist));
  PetscCall(SKMaterialCreate("neo_hookean", SK_STRESS_STATE_PLANE_STRAIN, 1.0e7, 0.3, 1000.0, &mat));
  for (PetscInt k = 0; k < 2; k++) {
    SKMesh mesh = k ? dist : rep;
    SKBasis basis;
    SKFEMFailure fail;
    PetscCall(SKMeshGetNodes(mesh, &nn[k], &X[k]));
    PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne[k], NULL, &conn[k]));
    PetscCall(PetscCalloc3(nn[k] * 2, &u[k], nn[k] * 2, &f[k], nn[k], &m[k]));
    for (PetscInt a = 0; a < nn[k]; a++) { /* smooth, finite: |grad u| ~ 0.1 */
      u[k][2 * a]     = 0.05 * sin(2.0 * X[k][2 * a + 1]) + 0.02 * X[k][2 * a] * X[k][2 * a];
      u[k][2 * a + 1] = 0.04 * cos(1.5 * X[k][2 * a]) * X[k][2 * a + 1];
    }
    PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
    PetscCall(SKFEMLumpedMass(basis, 1000.0, SK_LUMPING_ROWSUM, ne[k], conn[k], X[k], m[k], &fail));
    PetscCall(SKFEMInternalForce(basis, mat, ne[k], conn[k], X[k], u[k], f[k], NULL, &fail));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "failure %d", (int)fail.kind);
    PetscCall(SKBasisDestroy(&basis));
  }
  /* ghost contributions onto the owners */
  PetscCall(SKMeshCreateNodeSF(dist, &sf));
  PetscCallMPI(MPI_Type_contiguous(2, MPIU_REAL, &dof3));
  PetscCallMPI(MPI_Type_commit(&dof3));
  PetscCall(PetscSFReduceBegin(sf, MPIU_REAL, m[1], m[1], MPI_SUM));
  PetscCall(PetscSFReduceEnd(sf, MPIU_REAL, m[1], m[1], MPI_SUM));
  PetscCall(PetscSFReduceBegin(sf, dof3, f[1], f[1], MPI_SUM));
  PetscCall(PetscSFReduceEnd(sf, dof3, f[1], f[1], MPI_SUM));
  PetscCall(SKMeshGetNodeOwnership(dist, &nowned, NULL, NULL));
  PetscCall(SKMeshGetNaturalNodes(dist, &natural));
  for (PetscInt a = 0; a < nn[0]; a++) {
    mmax = PetscMax(mmax, m[0][a]);
    for (PetscInt i = 0; i < 2; i++) fmax = PetscMax(fmax, PetscAbsReal(f[0][2 * a + i]));
  }
  for (PetscInt a = 0; a < nowned; a++) {
    const PetscInt g = natural[a];
    errm             = PetscMax(errm, PetscAbsReal(m[1][a] - m[0][g]));
    for (PetscInt i = 0; i < 2; i++) errf = PetscMax(errf, PetscAbsReal(f[1][2 * a + i] - f[0][2 * g + i]));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &errm, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &errf, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  /* the same element integrals summed in another order at shared control points (at most 9 terms): a few ulps */
  PetscCheck(errm <= 1e-14 * mmax && errf <= 1e-13 * fmax, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "distributed vs replicated: mass error %g (max %g), force error %g (max %g)", (double)errm, (double)mmax, (double)errf,
             (double)fmax);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "distribute: mass error %.2e, force error %.2e relative: passed\n", (double)(errm / mmax),
                        (double)(errf / fmax)));
  PetscCallMPI(MPI_Type_free(&dof3));
  PetscCall(PetscSFDestroy(&sf));
  for (PetscInt k = 0; k < 2; k++) PetscCall(PetscFree3(u[k], f[k], m[k]));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKMeshDestroy(&dist));
  PetscCall(SKMeshDestroy(&rep));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscCall(PetscFinalize());
  return 0;
}
