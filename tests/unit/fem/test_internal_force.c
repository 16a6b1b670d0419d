/* The internal-force loop: results do not depend on batching (to round-off; bitwise without FMA contraction), a shell basis that reuses a
   built-in geometry runs through the same loop with the same result, a 90-degree rigid rotation gives zero force and energy, the energy of
   a homogeneous deformation is psi V, and an element turned inside out is reported with its index and turned into a message with the
   element and the time. */
#include <string.h>
#include "fem_test_mesh.h"

static PetscErrorCode MakeDisplacement(const SKTestMesh *m, unsigned long long seed, PetscReal amp, PetscReal u[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < m->nnodes * m->dim; k++) u[k] = amp * m->L * SKTestRand(&seed);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block evaluation vs one element at a time in the same order: the batch an element sits in does not matter. */
static PetscErrorCode TestBatching(SKBasis basis, SKMaterial mat, const SKTestMesh *m)
{
  SKFEMFailure fail;
  PetscReal *u, *f1, *f2, e1 = 0.0, e2 = 0.0, fmax = 0.0;
  const PetscInt nn = m->nodes_per_elem;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc3(m->nnodes * m->dim, &u, m->nnodes * m->dim, &f1, m->nnodes * m->dim, &f2));
  PetscCall(MakeDisplacement(m, 3, 0.01, u));
  PetscCall(SKFEMInternalForce(basis, mat, m->nelem, m->conn, m->X, u, f1, &e1, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unexpected failure");
  for (PetscInt e = 0; e < m->nelem; e++) PetscCall(SKFEMInternalForce(basis, mat, 1, m->conn + e * nn, m->X, u, f2, &e2, &fail));
  /* bit for bit without FMA contraction (every lane runs the same instructions); with -ffp-contract=fast some lanes
     may be contracted differently: a few ulp of the largest force */
  for (PetscInt k = 0; k < m->nnodes * m->dim; k++) fmax = PetscMax(fmax, PetscAbsReal(f1[k]));
  for (PetscInt k = 0; k < m->nnodes * m->dim; k++)
    PetscCheck(PetscAbsReal(f1[k] - f2[k]) <= 16 * PETSC_MACHINE_EPSILON * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "force depends on batching at dof %" PetscInt_FMT ": %.17g vs %.17g", k, (double)f1[k], (double)f2[k]);
  /* energies are summed in the same element order but in a different association per call: round-off only */
  PetscCheck(PetscAbsReal(e1 - e2) <= 1e-13 * PetscAbsReal(e1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "energy %g vs %g", (double)e1, (double)e2);
  PetscCall(PetscFree3(u, f1, f2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A shell basis forwarding to the built-in geometry: what a Bezier/NURBS basis will look like to the loop. */
static unsigned ForwardGeometry(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[], PetscReal dNdX[],
                                PetscReal wdetJ[])
{
  SKBasis inner;
  unsigned bad = 0;
  (void)SKBasisGetContext(basis, (void **)&inner);
  (void)SKBasisGeometryBatch(inner, q, elem, X, N, dNdX, wdetJ, &bad);
  return bad;
}

static PetscErrorCode TestShell(SKBasis basis, SKMaterial mat, const SKTestMesh *m)
{
  SKBasis shell;
  SKBasisInfo info;
  SKFEMFailure fail;
  PetscReal *u, *f1, *f2, *m1, *m2, fmax = 0.0;

  PetscFunctionBeginUser;
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(SKBasisCreateShell("forward", info.dim, info.nodes, info.qpoints, info.vtk_cell_type, ForwardGeometry, basis, &shell));
  PetscCall(PetscCalloc5(m->nnodes * m->dim, &u, m->nnodes * m->dim, &f1, m->nnodes * m->dim, &f2, m->nnodes, &m1, m->nnodes, &m2));
  PetscCall(MakeDisplacement(m, 4, 0.01, u));
  PetscCall(SKFEMInternalForce(basis, mat, m->nelem, m->conn, m->X, u, f1, NULL, &fail));
  PetscCall(SKFEMInternalForce(shell, mat, m->nelem, m->conn, m->X, u, f2, NULL, &fail));
  for (PetscInt k = 0; k < m->nnodes * m->dim; k++) fmax = PetscMax(fmax, PetscAbsReal(f1[k]));
  /* same arithmetic up to the compiler's freedom in the generic (non-unrolled) instantiation: round-off */
  for (PetscInt k = 0; k < m->nnodes * m->dim; k++)
    PetscCheck(PetscAbsReal(f1[k] - f2[k]) <= 1e-13 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell basis force differs: %g vs %g",
               (double)f1[k], (double)f2[k]);
  PetscCall(SKFEMLumpedMass(basis, 3.0, SK_LUMPING_AUTO, m->nelem, m->conn, m->X, m1, &fail));
  PetscCall(SKFEMLumpedMass(shell, 3.0, SK_LUMPING_AUTO, m->nelem, m->conn, m->X, m2, &fail));
  for (PetscInt k = 0; k < m->nnodes; k++)
    PetscCheck(PetscAbsReal(m1[k] - m2[k]) <= 1e-14 * m1[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell basis mass differs");
  PetscCall(PetscFree5(u, f1, f2, m1, m2));
  PetscCall(SKBasisDestroy(&shell));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u = (Q - I) X with Q the exact 90-degree rotation about z: zero force, energy and stress to round-off (NH, SVK). */
static PetscErrorCode TestRotation(SKBasis basis, SKMaterial mat, const SKTestMesh *m)
{
  SKFEMFailure fail;
  PetscReal *u, *f, *vm, energy = 0.0;
  const PetscInt dim = m->dim;
  SKBasisInfo info;

  PetscFunctionBeginUser;
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(PetscCalloc3(m->nnodes * dim, &u, m->nnodes * dim, &f, m->nelem * info.qpoints, &vm));
  for (PetscInt n = 0; n < m->nnodes; n++) {
    const PetscReal *X = m->X + n * dim;
    u[n * dim + 0]     = -X[1] - X[0];
    u[n * dim + 1]     = X[0] - X[1];
  }
  PetscCall(SKFEMInternalForce(basis, mat, m->nelem, m->conn, m->X, u, f, &energy, &fail));
  PetscCall(SKFEMStress(basis, mat, m->nelem, m->conn, m->X, u, NULL, vm, NULL, NULL, &fail));
  /* scale: E h^(dim-1); round-off in F is ~1e-16 * |u|/h, stresses ~1e-16 E... allow 1e-12 */
  const SKMaterialParams *p;
  PetscCall(SKMaterialGetParams(mat, &p));
  for (PetscInt k = 0; k < m->nnodes * dim; k++)
    PetscCheck(PetscAbsReal(f[k]) <= 1e-12 * p->E * m->L, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rotation: force %g", (double)f[k]);
  for (PetscInt k = 0; k < m->nelem * info.qpoints; k++)
    PetscCheck(vm[k] <= 1e-12 * p->E, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rotation: von Mises %g", (double)vm[k]);
  PetscCheck(PetscAbsReal(energy) <= 1e-12 * p->E * pow(m->L, (double)dim), PETSC_COMM_SELF, PETSC_ERR_PLIB, "rotation: energy %g",
             (double)energy);
  PetscCall(PetscFree3(u, f, vm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Homogeneous stretch: energy = psi(F) V exactly (to round-off). */
static PetscErrorCode TestEnergy(SKBasis basis, SKMaterial mat, const SKTestMesh *m)
{
  SKFEMFailure fail;
  SKMaterialPoint pt;
  PetscReal *u, energy = 0.0, F[9] = {0};
  const PetscInt dim   = m->dim;
  const PetscReal s[3] = {1.2, 0.9, 1.05};

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(m->nnodes * dim, &u));
  for (PetscInt i = 0; i < dim; i++) F[i * dim + i] = s[i];
  for (PetscInt n = 0; n < m->nnodes; n++)
    for (PetscInt i = 0; i < dim; i++) u[n * dim + i] = (s[i] - 1.0) * m->X[n * dim + i];
  PetscCall(SKMaterialEvaluate(mat, F, &pt));
  PetscCall(SKFEMInternalForce(basis, mat, m->nelem, m->conn, m->X, u, NULL, &energy, &fail));
  const PetscReal V = pow(m->L, (double)dim);
  PetscCheck(PetscAbsReal(energy - pt.psi * V) <= 1e-12 * PetscAbsReal(pt.psi * V), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "energy %.16g, psi V = %.16g", (double)energy, (double)(pt.psi * V));
  PetscCall(PetscFree(u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Push one interior node through its neighbours: the first (lowest-index) inverted element is reported. */
static PetscErrorCode TestInverted(SKBasis basis, SKMaterial mat, const SKTestMesh *m)
{
  SKFEMFailure fail;
  PetscReal *u, *f;
  PetscInt node = -1, first = -1;
  const PetscInt dim = m->dim, nn = m->nodes_per_elem;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(m->nnodes * dim, &u, m->nnodes * dim, &f));
  for (PetscInt n = 0; n < m->nnodes && node < 0; n++)
    if (!SKTestMeshOnBoundary(m, n)) node = n;
  for (PetscInt e = 0; e < m->nelem && first < 0; e++)
    for (PetscInt a = 0; a < nn; a++)
      if (m->conn[e * nn + a] == node) first = e;
  /* move it by the box size along the diagonal: every element around it inverts (at least at one point) */
  for (PetscInt i = 0; i < dim; i++) u[node * dim + i] = 1.0 * m->L;
  PetscCall(SKFEMInternalForce(basis, mat, m->nelem, m->conn, m->X, u, f, NULL, &fail));
  PetscCheck(fail.kind == SK_FEM_INVERTED_CURRENT, PETSC_COMM_SELF, PETSC_ERR_PLIB, "inversion not detected (kind %d)", (int)fail.kind);
  PetscCheck(fail.element >= first && fail.det <= 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "reported element %" PetscInt_FMT " (first with the node: %" PetscInt_FMT ") det %g", fail.element, first, (double)fail.det);
  {
    PetscErrorCode ierr;
    const char *text, *msg;
    char want[64];
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SKFEMFailureRaise(PETSC_COMM_SELF, &fail, 1000 + fail.element, 0.25);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_NOT_CONVERGED, PETSC_COMM_SELF, PETSC_ERR_PLIB, "wrong error code %d", (int)ierr);
    PetscCall(PetscErrorMessage(ierr, &text, (char **)&msg));
    PetscCall(PetscSNPrintf(want, sizeof(want), "Element %" PetscInt_FMT " ", 1000 + fail.element));
    PetscCheck(msg && strstr(msg, want) && strstr(msg, "t = 0.25 s"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "message lacks element or time: %s",
               msg ? msg : "");
  }
  PetscCall(PetscFree2(u, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) {
    SKBasis basis;
    SKBasisInfo info;
    SKTestMesh m;
    PetscCall(SKBasisCreate(sk_test_types[t], &basis));
    PetscCall(SKBasisGetInfo(basis, &info));
    /* 3 cells per direction: 9..162 elements, never a multiple of SK_LANES for all types, so partial batches run */
    PetscCall(SKTestMeshCreate(basis, 3, 0.1, 0.15, 21, &m));
    for (PetscInt mi = 0; mi < 3; mi++) {
      const char *names[3] = {"linear_elastic", "saint_venant_kirchhoff", "neo_hookean"};
      SKMaterial mat;
      PetscCall(SKMaterialCreate(names[mi], info.dim == 2 ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D, 2.0e8, 0.3, 1000.0, &mat));
      PetscCall(TestBatching(basis, mat, &m));
      PetscCall(TestShell(basis, mat, &m));
      PetscCall(TestEnergy(basis, mat, &m));
      if (mi > 0) {
        PetscCall(TestRotation(basis, mat, &m));
        PetscCall(TestInverted(basis, mat, &m));
      }
      PetscCall(SKMaterialDestroy(&mat));
    }
    PetscCall(SKTestMeshDestroy(&m));
    PetscCall(SKBasisDestroy(&basis));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "internal force: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
