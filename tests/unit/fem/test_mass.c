/* Lumped mass: sums to rho * volume on distorted meshes for every basis and lumping; all positive; the closed-form
   nodal fractions of one reference-shaped element; HRZ used where row sums are not positive; inverted reference
   elements reported by the reference check. */
#include <string.h>
#include "fem_test_mesh.h"

/* Exact fractions of the element mass per node for an affine element (row sum = HRZ for these Lagrange types). */
static PetscReal ExpectedFraction(const char *name, const PetscReal *ref, PetscInt dim, PetscInt a)
{
  if (name[0] == 'T') return 1.0 / (dim + 1);
  if (!strcmp(name, "Q4")) return 0.25;
  if (!strcmp(name, "H8")) return 0.125;
  PetscReal f = 1.0; /* quadratic tensor: 1D fractions 1/6 (end), 2/3 (middle) */
  for (PetscInt d = 0; d < dim; d++) f *= ref[a * dim + d] == 0.0 ? 2.0 / 3.0 : 1.0 / 6.0;
  return f;
}

static PetscErrorCode TestType(const char *name)
{
  SKBasis basis;
  SKBasisInfo info;
  SKTestMesh m;
  SKFEMFailure fail;
  const PetscReal *ref, rho = 7800.0, L = 0.5;
  PetscReal *mass, vol = 0.0;

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(name, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(SKBasisGetTabulation(basis, &ref, NULL, NULL, NULL, NULL));
  const PetscInt dim = info.dim;
  PetscCall(SKTestMeshCreate(basis, 3, L, 0.2, 9, &m));
  PetscCall(PetscMalloc1(m.nnodes, &mass));
  PetscCall(SKFEMCheckReference(basis, m.nelem, m.conn, m.X, &vol, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: valid mesh flagged", name);
  /* moving interior nodes keeps the box volume; exact up to round-off of the Jacobians (1e-14 relative) */
  PetscCheck(PetscAbsReal(vol - pow(L, (double)dim)) < 1e-13 * vol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: volume %.16g", name, (double)vol);
  for (PetscInt lump = 0; lump < 3; lump++) {
    PetscReal total = 0.0;
    PetscCall(PetscArrayzero(mass, m.nnodes));
    PetscCall(SKFEMLumpedMass(basis, rho, (SKLumping)lump, m.nelem, m.conn, m.X, mass, &fail));
    for (PetscInt n = 0; n < m.nnodes; n++) {
      PetscCheck(mass[n] > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: lumping %" PetscInt_FMT " gives mass %g at node %" PetscInt_FMT, name,
                 lump, (double)mass[n], n);
      total += mass[n];
    }
    PetscCheck(PetscAbsReal(total - rho * vol) < 1e-13 * rho * vol, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: lumping %" PetscInt_FMT " total mass %.16g, rho V = %.16g", name, lump, (double)total, (double)(rho * vol));
  }
  /* one element with the reference shape scaled by h: closed-form fractions (row sum and HRZ agree here) */
  {
    PetscInt conn[27];
    PetscReal Xe[81], me[27];
    for (PetscInt a = 0; a < info.nodes; a++) {
      conn[a] = a;
      for (PetscInt d = 0; d < dim; d++) Xe[a * dim + d] = 0.3 * ref[a * dim + d];
    }
    for (PetscInt lump = 0; lump < 3; lump++) {
      PetscCall(PetscArrayzero(me, info.nodes));
      PetscCall(SKFEMLumpedMass(basis, rho, (SKLumping)lump, 1, conn, Xe, me, &fail));
      const PetscReal Me = rho * info.reference_measure * pow(0.3, (double)dim);
      for (PetscInt a = 0; a < info.nodes; a++)
        PetscCheck(PetscAbsReal(me[a] - Me * ExpectedFraction(name, ref, dim, a)) < 1e-13 * Me, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: node %" PetscInt_FMT " mass %g, expected %g", name, a, (double)me[a],
                   (double)(Me * ExpectedFraction(name, ref, dim, a)));
    }
    /* invert the element: the reference check and the mass report it */
    for (PetscInt a = 0; a < info.nodes; a++) Xe[a * dim] = -Xe[a * dim];
    PetscCall(SKFEMCheckReference(basis, 1, conn, Xe, NULL, &fail));
    PetscCheck(fail.kind == SK_FEM_INVERTED_REFERENCE && fail.element == 0 && fail.det < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: inverted element not reported", name);
    PetscCall(SKFEMLumpedMass(basis, rho, SK_LUMPING_AUTO, 1, conn, Xe, me, &fail));
    PetscCheck(fail.kind == SK_FEM_INVERTED_REFERENCE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: mass of an inverted element not refused",
               name);
    {
      PetscErrorCode ierr;
      const char *text, *msg;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SKFEMFailureRaise(PETSC_COMM_SELF, &fail, 77, -1.0);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscErrorMessage(ierr, &text, (char **)&msg));
      PetscCheck(ierr == SK_ERR_INPUT && msg && strstr(msg, "Element 77 is inverted in the reference mesh"), PETSC_COMM_SELF,
                 PETSC_ERR_PLIB, "%s: message %s", name, msg ? msg : "");
    }
  }
  PetscCall(PetscFree(mass));
  PetscCall(SKTestMeshDestroy(&m));
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A shell basis whose basis has a negative row sum (the serendipity-like quadratic triangle, T6, whose corner
   functions integrate to 0): AUTO must switch to HRZ and give positive masses. Built from the T6 basis in closed form. */
typedef struct {
  PetscInt nq;
  PetscReal x[64 * 2], w[64];
} T6Ctx;

static unsigned T6Geometry(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[], PetscReal dNdX[],
                           PetscReal wdetJ[])
{
  T6Ctx *c;
  (void)elem, (void)dNdX;
  (void)SKBasisGetContext(basis, (void **)&c);
  /* affine elements only (enough for this test): det J from the corners */
  const PetscReal x = c->x[2 * q], y = c->x[2 * q + 1], l0 = 1 - x - y;
  const PetscReal Nv[6] = {l0 * (2 * l0 - 1), x * (2 * x - 1), y * (2 * y - 1), 4 * l0 * x, 4 * x * y, 4 * y * l0};
  for (PetscInt l = 0; l < SK_LANES; l++) {
    const PetscReal J = (X[2 * SK_LANES + l] - X[0 * SK_LANES + l]) * (X[5 * SK_LANES + l] - X[1 * SK_LANES + l]) -
                        (X[4 * SK_LANES + l] - X[0 * SK_LANES + l]) * (X[3 * SK_LANES + l] - X[1 * SK_LANES + l]);
    wdetJ[l] = c->w[q] * J;
    if (N)
      for (PetscInt a = 0; a < 6; a++) N[a * SK_LANES + l] = Nv[a];
  }
  return 0;
}

static PetscErrorCode TestHRZFallback(void)
{
  SKBasis basis;
  SKFEMFailure fail;
  const PetscInt conn[6] = {0, 1, 2, 3, 4, 5};
  PetscReal X[12] = {0, 0, 1, 0, 0, 1, 0.5, 0, 0.5, 0.5, 0, 0.5}, m[6] = {0}, total = 0.0;

  PetscFunctionBeginUser;
  T6Ctx ctx;
  PetscCall(SKQuadratureSimplex(2, 4, &ctx.nq, ctx.x, ctx.w)); /* exact for N_a N_b (degree 4) */
  PetscCall(SKBasisCreateShell("T6test", 2, 6, ctx.nq, 22, T6Geometry, &ctx, &basis));
  PetscCall(SKFEMLumpedMass(basis, 2.0, SK_LUMPING_ROWSUM, 1, conn, X, m, &fail));
  /* row sums of T6: corners int N = 0, mid-sides A/3 */
  PetscCheck(PetscAbsReal(m[0]) < 1e-15 && PetscAbsReal(m[3] - 2.0 * 0.5 / 3) < 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "T6 row sums %g %g",
             (double)m[0], (double)m[3]);
  PetscCall(PetscArrayzero(m, 6));
  PetscCall(SKFEMLumpedMass(basis, 2.0, SK_LUMPING_AUTO, 1, conn, X, m, &fail));
  for (PetscInt a = 0; a < 6; a++) {
    PetscCheck(m[a] > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "AUTO lumping left mass %g at T6 node %" PetscInt_FMT, (double)m[a], a);
    total += m[a];
  }
  /* HRZ keeps the total and the ratios of the consistent diagonal: corner/mid = (A/30)/(8A/45) = 3/16 */
  PetscCheck(PetscAbsReal(total - 1.0) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HRZ total %g", (double)total);
  PetscCheck(PetscAbsReal(m[0] / m[3] - 3.0 / 16.0) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "HRZ ratio %g", (double)(m[0] / m[3]));
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) PetscCall(TestType(sk_test_types[t]));
  PetscCall(TestHRZFallback());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mass: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
