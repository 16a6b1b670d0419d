/* Unit test of the master-surface seam of a contact pair (src/contact/contact_surface.c, docs/developing.md "Adding a
   contact surface"): a surface type written here, outside the library (a tilted moving plane by its projection, with
   no fast path), gives a pair the same forces as the built-in rigid plane, whose frame the pair takes without a
   projection. Five nodes, some penetrating, some sticking, some sliding (Coulomb, mu_s > mu_k), over several steps with the
   surface moving: the forces agree to 1e-14 of the largest (both compute the same gap, frame and slip velocity, in
   another order only where the built-in plane folds its velocity into the gap). */
#include <stickslip/contact.h>
#include "../../../src/contact/contactimpl.h" /* white box: the surface ops and the pair */
#include "../../../src/contact/surfaceimpl.h" /* SKSurfaceTangents */
#include "test_pair_compare.h"

/* The test's surface: a plane through POINT with unit normal N moving at VELOCITY, tangent basis as the built-in plane. */
typedef struct {
  PetscReal point[3], n[3], velocity[3], t[2][3];
} TestPlane;

static PetscBool TestPlaneProject(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p,
                                  SKContactSupport *s)
{
  const TestPlane *tp = (const TestPlane *)data;
  PetscReal dist      = 0;

  (void)cutoff;
  s->face = -1, s->n = 0;
  for (PetscInt d = 0; d < 3; d++) dist += (x[d] - tp->point[d] - tp->velocity[d] * t) * tp->n[d];
  p->distance = dist;
  p->exact    = PETSC_TRUE;
  for (PetscInt d = 0; d < 3; d++) {
    p->point[d] = x[d] - dist * tp->n[d], p->normal[d] = tp->n[d], p->velocity[d] = tp->velocity[d];
    p->tangent[0][d] = tp->t[0][d], p->tangent[1][d] = tp->t[1][d];
  }
  return PETSC_TRUE;
}

static PetscErrorCode TestPlaneDestroy(void *data)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSurfaceOps TestPlaneOps = {.type = "test-plane", .project = TestPlaneProject, .destroy = TestPlaneDestroy};

int main(int argc, char **argv)
{
  const PetscInt n         = 5;
  const PetscReal point[3] = {0.1, -0.2, 0.05}, normal[3] = {0.1, 0.2, 1.0}, velocity[3] = {0.3, -0.1, 0.02}, eps_n = 1e8;
  const PetscReal w[5] = {0.01, 0.02, 0.015, 0.01, 0.02};
  PetscReal X[15], u[15], v[15], nn = 0, worst = 0, scale = 0;
  SKFrictionParams fp = {0};
  SKFrictionLaw law_a, law_b;
  SKContactPair pa, pb;
  SKContactSurface cs;
  SKRigidSurface plane;
  TestPlane *tp;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  fp.mu_s = 0.5, fp.mu_k = 0.4, fp.eps_t = 1e6;
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb-modified", &fp, &law_a));
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb-modified", &fp, &law_b));
  /* the built-in plane (it normalises the normal and picks the tangent basis), and the test's copy of it */
  PetscCall(SKRigidSurfaceCreatePlane(PETSC_COMM_SELF, 3, point, normal, &plane));
  PetscCall(SKContactPairCreateWithSurface(PETSC_COMM_SELF, 3, n, n, w, plane, eps_n, law_a, &pa));
  PetscCall(SKContactPairSetVelocity(pa, velocity));
  PetscCall(PetscNew(&tp));
  for (PetscInt d = 0; d < 3; d++) nn += normal[d] * normal[d];
  for (PetscInt d = 0; d < 3; d++) {
    tp->point[d] = point[d], tp->n[d] = normal[d] / PetscSqrtReal(nn), tp->velocity[d] = velocity[d];
    tp->t[0][d] = plane->tangent[0][d], tp->t[1][d] = plane->tangent[1][d];
  }
  PetscCall(SKContactSurfaceCreate(PETSC_COMM_SELF, 3, &TestPlaneOps, tp, &cs));
  PetscCall(SKContactPairCreateWithContactSurface(PETSC_COMM_SELF, 3, n, n, w, cs, eps_n, law_b, &pb));
  /* nodes around the plane: three below it by 1e-5 .. 3e-5 m (in contact), two above */
  for (PetscInt a = 0; a < n; a++) {
    const PetscReal off = a < 3 ? -1e-5 * (a + 1) : 1e-4;
    for (PetscInt d = 0; d < 3; d++) {
      X[3 * a + d] = point[d] + 0.3 * (a - 2) * (d == 0) + 0.2 * a * (d == 1) + off * tp->n[d];
      u[3 * a + d] = 0;
      v[3 * a + d] = (a % 2 ? 1e-3 : 0.5) * (d == 0 ? 1 : -0.5); /* sticking and sliding nodes */
    }
  }
  PetscCall(SKTestComparePairs(pa, pb, n, X, u, v, 6, &scale, &worst));
  PetscCheck(scale > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no contact force: the test's nodes do not touch the plane");
  PetscCheck(worst <= 1e-14 * scale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "a surface type registered outside the library gives forces %g N away from the built-in plane's (largest %g N)", (double)worst,
             (double)scale);
  PetscCall(SKContactPairDestroy(&pa));
  PetscCall(SKContactPairDestroy(&pb));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "contact surface seam: a test-local surface type gives the built-in plane's forces (%g N of %g N)\n", (double)worst,
                        (double)scale));
  PetscCall(PetscFinalize());
  return 0;
}
