/* Unit test of the slave-side seam of a contact pair (src/contact/contact_side.c, docs/developing.md "Adding a
   slave-side kind"): a side kind written here, outside the library (the contact nodes by their own positions and
   velocities, with its forces added back by the side), gives a pair the same forces as the built-in nodal side, over
   20 nodes (two blocks of the pair's loop, SK_CONTACT_PROJECT_BLOCK = 16) against a tilted moving plane with Coulomb
   friction, some nodes penetrating (sticking and sliding), some apart, over several steps. Both sides hand the pair the
   same numbers, so the forces agree to 1e-14 of the largest (in fact bitwise). Self-test: the same side with its forces
   scaled by 1.01 must be caught. */
#include <stickslip/contact.h>
#include "../../../src/contact/contactimpl.h" /* white box: the side ops and the pair */
#include "test_pair_compare.h"

/* The test's side: the N contact nodes NODES[] themselves; SCALE multiplies the forces it adds (1 but in the self-test). */
typedef struct {
  PetscInt dim, n, *nodes;
  PetscReal scale;
} TestSide;

static void TestSidePoints(void *data, PetscInt i0, PetscInt n, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                           PetscReal x[], const PetscReal *vp[], PetscReal gap[])
{
  const TestSide *ts = (const TestSide *)data;

  (void)gap;
  for (PetscInt b = 0; b < n; b++) {
    const PetscInt a = ts->nodes[i0 + b];
    vp[b]            = v + a * ts->dim;
    if (X)
      for (PetscInt d = 0; d < ts->dim; d++) x[b * ts->dim + d] = X[a * ts->dim + d] + u[a * ts->dim + d];
  }
}

static void TestSideAddForces(void *data, PetscInt i0, PetscInt n, const PetscReal fn[], const PetscReal ft[], const PetscReal fa[],
                              PetscReal f[])
{
  const TestSide *ts = (const TestSide *)data;

  (void)fn, (void)ft;
  for (PetscInt b = 0; b < n; b++)
    for (PetscInt d = 0; d < ts->dim; d++) f[ts->nodes[i0 + b] * ts->dim + d] += ts->scale * fa[b * ts->dim + d];
}

static PetscErrorCode TestSideDestroy(void *data)
{
  TestSide *ts = (TestSide *)data;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(ts->nodes));
  PetscCall(PetscFree(ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSideOps TestSideOps = {
    .type = "test-nodes", .points = TestSidePoints, .addforces = TestSideAddForces, .destroy = TestSideDestroy};

/* The largest force (N) of the built-in side and the largest difference of the test's side with SCALE over 6 steps. */
static PetscErrorCode CompareSides(PetscReal scale, PetscReal *largest, PetscReal *worst)
{
  enum { n = 20 };
  const PetscReal point[3] = {0.1, -0.2, 0.05}, normal[3] = {0.1, 0.2, 1.0}, velocity[3] = {0.3, -0.1, 0.02}, eps_n = 1e8;
  PetscReal X[3 * n], u[3 * n], v[3 * n], w[n], nn = 0, un[3];
  SKFrictionParams fp = {0};
  SKFrictionLaw law_a, law_b;
  SKContactPair pa, pb;
  SKRigidSurface plane_a, plane_b;
  SKContactSide side;
  TestSide *ts;
  const PetscInt *nodes;
  PetscInt nc;

  PetscFunctionBeginUser;
  fp.mu_s = 0.5, fp.mu_k = 0.4, fp.eps_t = 1e6;
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb-modified", &fp, &law_a));
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb-modified", &fp, &law_b));
  for (PetscInt a = 0; a < n; a++) w[a] = 0.01 + 0.001 * (a % 3);
  PetscCall(SKRigidSurfaceCreatePlane(PETSC_COMM_SELF, 3, point, normal, &plane_a));
  PetscCall(SKRigidSurfaceCreatePlane(PETSC_COMM_SELF, 3, point, normal, &plane_b));
  PetscCall(SKContactPairCreateWithSurface(PETSC_COMM_SELF, 3, n, n, w, plane_a, eps_n, law_a, &pa));
  PetscCall(SKContactPairCreateWithSurface(PETSC_COMM_SELF, 3, n, n, w, plane_b, eps_n, law_b, &pb));
  PetscCall(SKContactPairSetVelocity(pa, velocity));
  PetscCall(SKContactPairSetVelocity(pb, velocity));
  /* pair b gets the test's side over the same contact nodes */
  PetscCall(SKContactPairGetNodal(pb, &nc, &nodes, NULL, NULL, NULL));
  PetscCall(PetscNew(&ts));
  ts->dim = 3, ts->n = nc, ts->scale = scale;
  PetscCall(PetscMalloc1(nc, &ts->nodes));
  PetscCall(PetscArraycpy(ts->nodes, nodes, nc));
  PetscCall(SKContactSideCreate(PETSC_COMM_SELF, 3, nc, &TestSideOps, ts, &side));
  side->nodal = PETSC_TRUE;
  PetscCall(SKContactPairSetSide(pb, side));
  /* nodes around the plane: two of three below it by 1e-5 .. 4e-5 m (in contact), the others above */
  for (PetscInt d = 0; d < 3; d++) nn += normal[d] * normal[d];
  for (PetscInt d = 0; d < 3; d++) un[d] = normal[d] / PetscSqrtReal(nn);
  for (PetscInt a = 0; a < n; a++) {
    const PetscReal off = a % 3 ? -1e-5 * (a % 4 + 1) : 1e-4;
    for (PetscInt d = 0; d < 3; d++) {
      X[3 * a + d] = point[d] + 0.1 * (a % 5) * (d == 0) + 0.1 * (a / 5) * (d == 1) + off * un[d];
      u[3 * a + d] = 0;
      v[3 * a + d] = (a % 2 ? 1e-3 : 0.5) * (d == 0 ? 1 : -0.5); /* sticking and sliding nodes */
    }
  }
  PetscCall(SKTestComparePairs(pa, pb, n, X, u, v, 6, largest, worst));
  PetscCall(SKContactPairDestroy(&pa));
  PetscCall(SKContactPairDestroy(&pb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscReal largest, worst, largest_p, worst_p;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(CompareSides(1.0, &largest, &worst));
  PetscCheck(largest > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no contact force: the test's nodes do not touch the plane");
  PetscCheck(worst <= 1e-14 * largest, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "a side kind written outside the library gives forces %g N away from the built-in nodal side's (largest %g N)", (double)worst,
             (double)largest);
  /* self-test: forces 1 % off must show (the difference is 1e-2 of a force, far above 1e-14 of the largest) */
  PetscCall(CompareSides(1.01, &largest_p, &worst_p));
  PetscCheck(worst_p > 1e-14 * largest_p, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "self-test: forces scaled by 1.01 were not caught (%g N of %g N)", (double)worst_p, (double)largest_p);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "contact side seam: a test-local side kind gives the built-in nodal side's forces (%g N of %g N); forces 1 %% off "
                        "differ by %g N (caught)\n",
                        (double)worst, (double)largest, (double)worst_p));
  PetscCall(PetscFinalize());
  return 0;
}
