/* Unit test of NURBS patch faces as a deformable master surface (src/contact/contact_patchmaster.c) on one rank: the
   closest-point projection onto the outer arc of an annulus sector (exact circle, degree 2, 4 spans) against the
   closed form (distance r - R, point and normal on the ray, the rational basis summing to one and giving the point),
   points past the arc's ends not in contact, and, after a smooth deformation of the control points, the projected
   distance against a dense sample of the deformed curve, refined by a ternary search, evaluated by the patch's own basis
   (SKNURBSPatchBasis). */
#include "test_contact_common.h" /* white box: the pair's master surface */
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define RO 1.0 /* outer radius (m) */

static PetscErrorCode Project(SKContactPair cp, const PetscReal x[], SKSurfaceProjection *p, SKContactSupport *s)
{
  PetscFunctionBeginUser;
  PetscCheck(cp->surface->ops->project(cp->surface->data, x, 0, PETSC_MAX_REAL, p, s), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
             "projection of (%g, %g) did not converge", (double)x[0], (double)x[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distance from X to the point at parameters (1, T) of PATCH with control points X0 + U (the patch's own basis). */
static PetscErrorCode CurveDistance(SKNURBSPatch patch, const PetscReal X0[], const PetscReal U[], PetscReal t, const PetscReal x[],
                                    PetscReal *dist)
{
  const PetscReal par[2] = {1, t};
  PetscReal xc[2]        = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(PatchPoint(patch, 2, par, X0, U, xc));
  *dist = PetscSqrtReal(PetscSqr(xc[0] - x[0]) + PetscSqr(xc[1] - x[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKNURBSPatch patch;
  SKMesh mesh;
  SKContactPair cp;
  const PetscReal *X;
  PetscInt nn;
  PetscReal *u, *v, err = 0, err_def = 0, worse = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKNURBSPatchCreateAnnulus(0.5, RO, 0.5 * PETSC_PI, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, 1)); /* a mesh takes equal degrees */
  PetscCall(SKNURBSPatchRefine(patch, 1, 4));
  PetscCall(MakePatchMaster(patch, "right", &mesh, &cp)); /* the outer arc */
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(PetscMalloc2(2 * nn, &u, 2 * nn, &v));

  /* the undeformed arc: closed form, at angles over the arc and radii on both sides */
  for (PetscInt k = 0; k < 200; k++) {
    const PetscReal th = 0.5 * PETSC_PI * (k + 0.37) / 200, r = RO * (0.9 + 0.2 * ((k * 7) % 13) / 12.0);
    const PetscReal x[2] = {r * PetscCosReal(th), r * PetscSinReal(th)}, n[2] = {PetscCosReal(th), PetscSinReal(th)};
    SKSurfaceProjection p;
    SKContactSupport s;
    PetscReal sum = 0;
    PetscCall(Project(cp, x, &p, &s));
    for (PetscInt a = 0; a < s.n; a++) sum += s.N[a];
    err = PetscMax(err, PetscAbsReal(p.distance - (r - RO)));
    for (PetscInt d = 0; d < 2; d++) err = PetscMax(err, PetscMax(PetscAbsReal(p.point[d] - RO * n[d]), PetscAbsReal(p.normal[d] - n[d])));
    err = PetscMax(err, PetscAbsReal(sum - 1));
  }
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "projection onto the exact arc off the closed form by %g", (double)err);
  { /* past the ends of the arc (below the x axis, left of the y axis) by more than the margin: no contact */
    const PetscReal xa[2] = {RO, -0.3}, xb[2] = {-0.3, RO};
    SKSurfaceProjection p;
    SKContactSupport s;
    PetscCall(Project(cp, xa, &p, &s));
    PetscCheck(p.distance > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a point past the end of the arc has distance %g", (double)p.distance);
    PetscCall(Project(cp, xb, &p, &s));
    PetscCheck(p.distance > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a point past the end of the arc has distance %g", (double)p.distance);
  }

  /* deformed: u = 0.05 (sin 3y, cos 2x) on every control point; the distance against a dense sample of the curve */
  for (PetscInt i = 0; i < nn; i++)
    u[2 * i] = 0.05 * PetscSinReal(3 * X[2 * i + 1]), u[2 * i + 1] = 0.05 * PetscCosReal(2 * X[2 * i]), v[2 * i] = v[2 * i + 1] = 0;
  PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
  for (PetscInt k = 0; k < 50; k++) {
    const PetscReal th = 0.5 * PETSC_PI * (k + 0.5) / 50, r = RO * (0.95 + 0.1 * ((k * 5) % 11) / 10.0);
    const PetscReal x[2] = {r * PetscCosReal(th), r * PetscSinReal(th)};
    SKSurfaceProjection p;
    SKContactSupport s;
    PetscReal best = PETSC_MAX_REAL;
    PetscCall(Project(cp, x, &p, &s));
    { /* the best of 2000 samples, then a ternary search around it to round-off */
      PetscReal t0 = 0, lo, hi;
      for (PetscInt j = 0; j <= 2000; j++) {
        PetscReal d = 0;
        PetscCall(CurveDistance(patch, X, u, (PetscReal)j / 2000, x, &d));
        if (d < best) best = d, t0 = (PetscReal)j / 2000;
      }
      lo = PetscMax(t0 - 1.0 / 2000, 0), hi = PetscMin(t0 + 1.0 / 2000, 1);
      for (PetscInt it = 0; it < 200; it++) {
        PetscReal d1 = 0, d2 = 0;
        const PetscReal m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        PetscCall(CurveDistance(patch, X, u, m1, x, &d1));
        PetscCall(CurveDistance(patch, X, u, m2, x, &d2));
        if (d1 < d2)
          hi = m2;
        else
          lo = m1;
        best = PetscMin(best, PetscMin(d1, d2));
      }
    }
    err_def = PetscMax(err_def, PetscAbsReal(PetscAbsReal(p.distance) - best));
    worse   = PetscMax(worse, PetscAbsReal(p.distance) - best);
  }
  /* the search finds the minimum to round-off; the projection is never farther */
  PetscCheck(err_def < 1e-12 && worse < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "projection onto the deformed arc off the dense sample by %g (farther by %g)", (double)err_def, (double)worse);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "exact arc: %.2e; deformed arc against a dense sample: %.2e (never farther: %.2e)\n", (double)err,
                        (double)err_def, (double)worse));
  PetscCall(SKContactPairDestroy(&cp));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscCall(PetscFree2(u, v));
  PetscCall(PetscFinalize());
  return 0;
}
