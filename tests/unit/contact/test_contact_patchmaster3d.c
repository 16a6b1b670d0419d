/* Unit test of NURBS patch faces as a deformable master surface in 3D (src/contact/contact_patchmaster.c) on one rank:
   the closest-point projection (Newton on the two face parameters) onto the outer face of a cylinder section (exact
   circle in the angle, degree 2 in every direction, 3 x 4 x 3 knot spans) against the closed form (distance r - R,
   point and normal on the radial ray, the rational basis at the projection summing to one), points past the
   surface's edges not in contact, and, after a smooth deformation of the control points, the projection against the
   first-order conditions (x - x_s orthogonal to both tangents) and a 101 x 101 sample of the whole deformed face
   evaluated by the patch's own basis (SKNURBSPatchBasis): the projection is never farther than the best sample; the
   shares of the reaction R_b against the derivative of the gap in the control points' positions (-R_b n, central
   differences) and the master velocity of a rigid translation. */
#include "test_contact_common.h" /* white box: the pair's master surface */
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define RO 1.0 /* outer radius (m) */
#define LZ 1.0 /* length along z (m) */

int main(int argc, char **argv)
{
  SKNURBSPatch patch;
  SKMesh mesh;
  SKContactPair cp;
  const PetscReal *X;
  PetscInt nn;
  PetscReal *u, *v, err = 0, ortho = 0, worse = -PETSC_MAX_REAL, dgap = 0, vel = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKNURBSPatchCreateCylinderSection(0.5, RO, 0.5 * PETSC_PI, LZ, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, 1)); /* a mesh takes equal degrees */
  PetscCall(SKNURBSPatchElevateDegree(patch, 2, 1));
  PetscCall(SKNURBSPatchRefine(patch, 0, 3));
  PetscCall(SKNURBSPatchRefine(patch, 1, 4));
  PetscCall(SKNURBSPatchRefine(patch, 2, 3));
  PetscCall(MakePatchMaster(patch, "right", &mesh, &cp)); /* the outer face, r = RO */
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(PetscMalloc2(3 * nn, &u, 3 * nn, &v));

  /* the undeformed face: closed form, at angles and heights over the face and radii on both sides */
  for (PetscInt k = 0; k < 300; k++) {
    const PetscReal th = 0.5 * PETSC_PI * (k + 0.37) / 300, r = RO * (0.9 + 0.2 * ((k * 7) % 13) / 12.0),
                    z    = LZ * ((k * 11) % 29 + 0.5) / 29;
    const PetscReal x[3] = {r * PetscCosReal(th), r * PetscSinReal(th), z}, n[3] = {PetscCosReal(th), PetscSinReal(th), 0};
    const PetscReal xb[3] = {RO * n[0], RO * n[1], z};
    SKSurfaceProjection p;
    SKContactSupport s;
    PetscReal sum = 0;
    PetscCheck(cp->surface->ops->project(cp->surface->data, x, 0, PETSC_MAX_REAL, &p, &s), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
               "projection of point %" PetscInt_FMT " did not converge", k);
    for (PetscInt a = 0; a < s.n; a++) sum += s.N[a];
    err = PetscMax(err, PetscAbsReal(p.distance - (r - RO)));
    for (PetscInt d = 0; d < 3; d++) err = PetscMax(err, PetscMax(PetscAbsReal(p.point[d] - xb[d]), PetscAbsReal(p.normal[d] - n[d])));
    err = PetscMax(err, PetscAbsReal(sum - 1));
  }
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "projection onto the exact cylinder off the closed form by %g", (double)err);
  { /* past the edges of the face (beyond z = LZ, below z = 0, past the angle 90 degrees) by more than 1 % of a face: the
       true distance, positive */
    const PetscReal xa[3][3] = {{0.7, 0.7, LZ + 0.1}, {0.7, 0.7, -0.1}, {-0.1, RO - 0.01, 0.5}};
    for (PetscInt k = 0; k < 3; k++) {
      SKSurfaceProjection p;
      SKContactSupport s;
      (void)cp->surface->ops->project(cp->surface->data, xa[k], 0, PETSC_MAX_REAL, &p, &s);
      PetscCheck(p.distance > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a point past an edge of the face has distance %g", (double)p.distance);
    }
  }

  /* deformed: u = 0.05 (sin 3y, cos 2x, sin 2x sin 3z) on every control point */
  for (PetscInt i = 0; i < nn; i++) {
    const PetscReal *Xi = X + 3 * i;
    u[3 * i]            = 0.05 * PetscSinReal(3 * Xi[1]);
    u[3 * i + 1]        = 0.05 * PetscCosReal(2 * Xi[0]);
    u[3 * i + 2]        = 0.05 * PetscSinReal(2 * Xi[0]) * PetscSinReal(3 * Xi[2]);
    v[3 * i] = v[3 * i + 1] = v[3 * i + 2] = 0;
  }
  PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
  for (PetscInt k = 0; k < 20; k++) {
    const PetscReal th = 0.5 * PETSC_PI * (k + 0.5) / 20, r = RO * (0.95 + 0.1 * ((k * 5) % 11) / 10.0),
                    z    = LZ * (0.1 + 0.8 * ((k * 7) % 19) / 18.0);
    const PetscReal x[3] = {r * PetscCosReal(th), r * PetscSinReal(th), z};
    SKSurfaceProjection p;
    SKContactSupport s;
    PetscReal best = PETSC_MAX_REAL, dp, t[2][3] = {{0}}, len[2] = {0, 0}, res[2] = {0, 0};
    PetscCheck(cp->surface->ops->project(cp->surface->data, x, 0, PETSC_MAX_REAL, &p, &s), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
               "projection of deformed point %" PetscInt_FMT " did not converge", k);
    dp = PetscSqrtReal(PetscSqr(x[0] - p.point[0]) + PetscSqr(x[1] - p.point[1]) + PetscSqr(x[2] - p.point[2]));
    for (PetscInt i = 0; i <= 100; i++)
      for (PetscInt j = 0; j <= 100; j++) {
        const PetscReal par[3] = {1, i / 100.0, j / 100.0};
        PetscReal xc[3]        = {0, 0, 0};
        PetscCall(PatchPoint(patch, 3, par, X, u, xc));
        best = PetscMin(best, PetscSqrtReal(PetscSqr(xc[0] - x[0]) + PetscSqr(xc[1] - x[1]) + PetscSqr(xc[2] - x[2])));
      }
    worse = PetscMax(worse, dp - best);
    /* first-order conditions: x - x_s along the normal, orthogonal to the tangents (the tangent basis of the pair) */
    for (PetscInt d = 0; d < 3; d++) t[0][d] = p.tangent[0][d], t[1][d] = p.tangent[1][d];
    for (PetscInt m = 0; m < 2; m++)
      for (PetscInt d = 0; d < 3; d++) res[m] += (x[d] - p.point[d]) * t[m][d], len[m] += t[m][d] * t[m][d];
    ortho = PetscMax(ortho, PetscMax(PetscAbsReal(res[0]) / PetscSqrtReal(len[0]), PetscAbsReal(res[1]) / PetscSqrtReal(len[1])));
    ortho = PetscMax(ortho, PetscAbsReal(PetscAbsReal(p.distance) - dp));
  }
  /* the Newton point is a stationary point to round-off and never farther than the sampled minimum (the sample's own
     spacing, 1/100 of the face's parameter range, puts the best sample at most about 1e-4 m above the minimum) */
  PetscCheck(ortho < 1e-12 && worse <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "projection onto the deformed face: off the normal by %g, farther than the best sample by %g", (double)ortho, (double)worse);
  { /* the shares of the reaction: at the closest point dg/dx_b = -R_b n, so the reaction -R_b N n of a slave force N n
       is the derivative of the stored penalty energy; against central differences of the gap in the position of every
       control point of the face (h = 1e-6 m: truncation O(h^2) and the gaps' round-off, a few 1e-16 m, over h: measured 2.2e-10, bound
       1e-8) at three points of the deformed face; and the master velocity of a rigid translation of the control points */
    const PetscReal pts[3][3] = {{1.02 * PetscCosReal(0.4), 1.02 * PetscSinReal(0.4), 0.45},
                                 {0.97 * PetscCosReal(1.1), 0.97 * PetscSinReal(1.1), 0.7},
                                 {PetscCosReal(0.2), PetscSinReal(0.2), 0.2}},
                    h = 1e-6, vt[3] = {0.3, -0.2, 0.1};
    PetscInt nf = 0, *fnodes, ncp[3];
    PetscCall(SKNURBSPatchGetSizes(patch, NULL, NULL, NULL, ncp));
    PetscCall(PetscMalloc1(nn, &fnodes));
    for (PetscInt i = 0; i < nn; i++) /* the face's control points (last in direction 0) in natural order: the master's nodes */
      if (i % ncp[0] == ncp[0] - 1) fnodes[nf++] = i;
    for (PetscInt k = 0; k < 3; k++) {
      SKSurfaceProjection p0, pp, pm;
      SKContactSupport s0, sp;
      PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
      (void)cp->surface->ops->project(cp->surface->data, pts[k], 0, PETSC_MAX_REAL, &p0, &s0);
      PetscCheck(s0.n > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "point %" PetscInt_FMT " is not near the face", k);
      for (PetscInt m = 0; m < nf; m++)
        for (PetscInt d = 0; d < 3; d++) {
          PetscReal expected = 0;
          u[3 * fnodes[m] + d] += h;
          PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
          (void)cp->surface->ops->project(cp->surface->data, pts[k], 0, PETSC_MAX_REAL, &pp, &sp);
          u[3 * fnodes[m] + d] -= 2 * h;
          PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
          (void)cp->surface->ops->project(cp->surface->data, pts[k], 0, PETSC_MAX_REAL, &pm, &sp);
          u[3 * fnodes[m] + d] += h;
          for (PetscInt a = 0; a < s0.n; a++)
            if (s0.node[a] == m) expected = -s0.N[a] * p0.normal[d];
          dgap = PetscMax(dgap, PetscAbsReal((pp.distance - pm.distance) / (2 * h) - expected));
        }
    }
    for (PetscInt i = 0; i < nn; i++)
      for (PetscInt d = 0; d < 3; d++) v[3 * i + d] = vt[d];
    PetscCall(cp->surface->ops->update(cp->surface->data, 0, X, u, v));
    for (PetscInt k = 0; k < 3; k++) {
      SKSurfaceProjection p;
      SKContactSupport s;
      (void)cp->surface->ops->project(cp->surface->data, pts[k], 0, PETSC_MAX_REAL, &p, &s);
      for (PetscInt d = 0; d < 3; d++) vel = PetscMax(vel, PetscAbsReal(p.velocity[d] - vt[d]));
    }
    PetscCall(PetscFree(fnodes));
  }
  PetscCheck(dgap < 1e-8 && vel < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "shares of the reaction off the derivative of the gap by %g; master velocity of a translation off by %g", (double)dgap,
             (double)vel);
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "exact cylinder: %.2e; deformed face: off the normal %.2e, against the best sample %.2e; dg/dx_b + R_b n: %.2e; "
                        "translation velocity: %.2e\n",
                        (double)err, (double)ortho, (double)worse, (double)dgap, (double)vel));
  PetscCall(SKContactPairDestroy(&cp));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscCall(PetscFree2(u, v));
  PetscCall(PetscFinalize());
  return 0;
}
