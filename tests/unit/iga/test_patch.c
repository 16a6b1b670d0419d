/* NURBS patches: exact circles of the annulus and cylinder generators, geometry unchanged by h-, p- and k-refinement,
   the element basis by Bezier extraction equal to the global rational basis, rational partition of unity and
   derivatives against finite differences, and parameter inversion. */
#include <math.h>
#include <stickslip/iga.h>

static PetscReal Rand01(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0));
}

#define NPTS 200

/* Parameter points: random, plus the corners of the parameter box. */
static void SamplePoints(PetscInt pdim, unsigned long long *seed, PetscReal u[])
{
  for (PetscInt t = 0; t < NPTS; t++)
    for (PetscInt d = 0; d < pdim; d++) u[t * 3 + d] = t < (1 << pdim) ? (PetscReal)((t >> d) & 1) : Rand01(seed);
}

/* Radius and angle of the annulus points: r = r_in + u0 (r_out - r_in) exactly (the radial direction is linear and
   the weights do not depend on it); |x| must match to round-off: 1e-13 relative to r_out = 2 is ~100 ulps, the
   rational sums have O(10) terms. */
static PetscErrorCode CheckCircle(SKNURBSPatch patch, PetscReal r_in, PetscReal r_out, PetscReal angle, const PetscReal u[],
                                  const char *what)
{
  PetscInt pdim, sdim;

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, &sdim, NULL, NULL));
  for (PetscInt t = 0; t < NPTS; t++) {
    PetscReal x[3];
    PetscCall(SKNURBSPatchEvaluate(patch, u + 3 * t, x, NULL));
    const PetscReal r = PetscSqrtReal(x[0] * x[0] + x[1] * x[1]), th = atan2(x[1], x[0]);
    const PetscReal rexact = r_in + u[3 * t] * (r_out - r_in);
    PetscCheck(PetscAbsReal(r - rexact) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: radius error %g at u = (%g, %g)", what,
               (double)(r - rexact), (double)u[3 * t], (double)u[3 * t + 1]);
    PetscCheck(th > -1e-14 && th < angle + 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: angle %g outside [0, %g]", what, (double)th,
               (double)angle);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same points before and after refinement: refinement changes the basis, not the map u -> x. Tolerance 1e-13
   of the patch size: knot insertion is a convex combination per step, degree elevation a collocation solve with
   condition number O(10) for these degrees. */
static PetscErrorCode CheckSameGeometry(SKNURBSPatch a, SKNURBSPatch b, const PetscReal u[], PetscReal size, const char *what)
{
  PetscInt sdim, pdim;

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchGetSizes(a, &pdim, &sdim, NULL, NULL));
  for (PetscInt t = 0; t < NPTS; t++) {
    PetscReal xa[3], xb[3], Ja[9], Jb[9];
    PetscCall(SKNURBSPatchEvaluate(a, u + 3 * t, xa, Ja));
    PetscCall(SKNURBSPatchEvaluate(b, u + 3 * t, xb, Jb));
    for (PetscInt c = 0; c < sdim; c++) {
      PetscCheck(PetscAbsReal(xa[c] - xb[c]) < 1e-13 * size, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: x_%" PetscInt_FMT " moved by %g", what,
                 c, (double)(xa[c] - xb[c]));
      for (PetscInt k = 0; k < pdim; k++)
        PetscCheck(PetscAbsReal(Ja[c * pdim + k] - Jb[c * pdim + k]) < 1e-12 * size, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: tangent dx_%" PetscInt_FMT "/du_%" PetscInt_FMT " changed by %g", what, c, k,
                   (double)(Ja[c * pdim + k] - Jb[c * pdim + k]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element basis (Bezier extraction) = global basis at the same point; rational partition of unity; derivatives
   against central differences (step 1e-6: truncation ~1e-12 times the third derivative, O(1e3) on the refined
   patches, so 1e-7 absolute). */
static PetscErrorCode CheckBasis(SKNURBSPatch patch, unsigned long long *seed, const char *what)
{
  PetscInt pdim, nelem, nen, nel[3];
  PetscInt idx[729], idx_e[729], nb;
  PetscReal R[729], dR[729 * 3], Re[729], dRe[729 * 3];

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, NULL, NULL));
  PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, nel));
  PetscCall(SKNURBSPatchGetElementSize(patch, &nen));
  for (PetscInt t = 0; t < 50; t++) {
    const PetscInt e = (PetscInt)(Rand01(seed) * nelem) % nelem;
    PetscInt k[3];
    PetscReal xi[3], u[3], h[3];
    PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
    for (PetscInt d = 0; d < pdim; d++) {
      const PetscReal *range;
      PetscCall(SKNURBSPatchGetExtraction(patch, d, NULL, NULL, &range));
      xi[d] = 2 * Rand01(seed) - 1;
      h[d]  = range[2 * k[d] + 1] - range[2 * k[d]];
      u[d]  = range[2 * k[d]] + 0.5 * (xi[d] + 1) * h[d];
    }
    PetscCall(SKNURBSPatchElementBasis(patch, e, xi, Re, dRe));
    PetscCall(SKNURBSPatchGetElementControlPoints(patch, e, idx_e));
    PetscCall(SKNURBSPatchBasis(patch, u, &nb, idx, R, dR));
    PetscCheck(nb == nen, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " functions, element has %" PetscInt_FMT, what, nb, nen);
    PetscReal sum = 0.0, dsum[3] = {0, 0, 0};
    for (PetscInt a = 0; a < nen; a++) {
      PetscCheck(idx[a] == idx_e[a], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: control point %" PetscInt_FMT " vs %" PetscInt_FMT, what, idx[a],
                 idx_e[a]);
      PetscCheck(PetscAbsReal(R[a] - Re[a]) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: R_%" PetscInt_FMT " %g vs extracted %g", what, a,
                 (double)R[a], (double)Re[a]);
      sum += R[a];
      for (PetscInt d = 0; d < pdim; d++) {
        /* dR/dxi = dR/du h/2; derivatives scale like p/h ~ 50 on these patches: 1e-14 * 50 */
        PetscCheck(PetscAbsReal(dR[a * pdim + d] * 0.5 * h[d] - dRe[a * pdim + d]) < 1e-14 * 50, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: dR/dxi_%" PetscInt_FMT " %g vs extracted %g", what, d, (double)(dR[a * pdim + d] * 0.5 * h[d]),
                   (double)dRe[a * pdim + d]);
        dsum[d] += dR[a * pdim + d];
      }
    }
    PetscCheck(PetscAbsReal(sum - 1) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sum R = 1 + %g", what, (double)(sum - 1));
    for (PetscInt d = 0; d < pdim; d++)
      PetscCheck(PetscAbsReal(dsum[d]) < 1e-14 * 50 / h[d], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: sum dR/du_%" PetscInt_FMT " = %g", what,
                 d, (double)dsum[d]);
    /* finite differences inside the element */
    for (PetscInt d = 0; d < pdim; d++) {
      PetscReal up[3], um[3], Rp[729], Rm[729];
      PetscInt ip[729], im[729], n1;
      const PetscReal du = 1e-6 * h[d];
      if (PetscAbsReal(xi[d]) > 0.99) continue;
      for (PetscInt c = 0; c < pdim; c++) up[c] = um[c] = u[c];
      up[d] += du;
      um[d] -= du;
      PetscCall(SKNURBSPatchBasis(patch, up, &n1, ip, Rp, NULL));
      PetscCall(SKNURBSPatchBasis(patch, um, &n1, im, Rm, NULL));
      for (PetscInt a = 0; a < nen; a++)
        PetscCheck(PetscAbsReal((Rp[a] - Rm[a]) / (2 * du) - dR[a * pdim + d]) < 1e-7 / h[d], PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%s: dR_%" PetscInt_FMT "/du_%" PetscInt_FMT " = %g, finite difference %g", what, a, d, (double)dR[a * pdim + d],
                   (double)((Rp[a] - Rm[a]) / (2 * du)));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestAnnulus(void)
{
  const PetscReal r_in = 1.0, r_out = 2.0, angle = 0.5 * PETSC_PI;
  unsigned long long seed = 3;
  PetscReal u[3 * NPTS];
  SKNURBSPatch coarse, h, p, k, cyl;

  PetscFunctionBeginUser;
  SamplePoints(2, &seed, u);
  PetscCall(SKNURBSPatchCreateAnnulus(r_in, r_out, angle, &coarse));
  PetscCall(CheckCircle(coarse, r_in, r_out, angle, u, "annulus"));
  /* h: uneven knots in both directions, one repeated */
  {
    const PetscReal k0[] = {0.3, 0.7}, k1[] = {0.2, 0.5, 0.5, 0.9};
    PetscCall(SKNURBSPatchDuplicate(coarse, &h));
    PetscCall(SKNURBSPatchInsertKnots(h, 0, 2, k0));
    PetscCall(SKNURBSPatchInsertKnots(h, 1, 4, k1));
    PetscCall(CheckCircle(h, r_in, r_out, angle, u, "annulus h-refined"));
    PetscCall(CheckSameGeometry(coarse, h, u, r_out, "annulus h-refined"));
    PetscCall(CheckBasis(h, &seed, "annulus h-refined"));
  }
  /* p: degree (1, 2) -> (3, 4) */
  PetscCall(SKNURBSPatchDuplicate(coarse, &p));
  PetscCall(SKNURBSPatchElevateDegree(p, 0, 2));
  PetscCall(SKNURBSPatchElevateDegree(p, 1, 2));
  PetscCall(CheckCircle(p, r_in, r_out, angle, u, "annulus p-refined"));
  PetscCall(CheckSameGeometry(coarse, p, u, r_out, "annulus p-refined"));
  /* k: elevate to (3, 3) then split into 4 x 5 spans (C^2 inside), and p on an h-refined patch (C^{p-1} kept) */
  PetscCall(SKNURBSPatchDuplicate(coarse, &k));
  PetscCall(SKNURBSPatchElevateDegree(k, 0, 2));
  PetscCall(SKNURBSPatchElevateDegree(k, 1, 1));
  PetscCall(SKNURBSPatchRefine(k, 0, 4));
  PetscCall(SKNURBSPatchRefine(k, 1, 5));
  {
    PetscInt deg[3], ncp[3], nelem;
    PetscCall(SKNURBSPatchGetSizes(k, NULL, NULL, deg, ncp));
    PetscCall(SKNURBSPatchGetNumElements(k, &nelem, NULL));
    /* k-refinement keeps C^{p-1}: n = spans + p per direction */
    PetscCheck(deg[0] == 3 && deg[1] == 3 && ncp[0] == 4 + 3 && ncp[1] == 5 + 3 && nelem == 20, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "k-refined sizes %" PetscInt_FMT "x%" PetscInt_FMT " cps", ncp[0], ncp[1]);
  }
  PetscCall(CheckCircle(k, r_in, r_out, angle, u, "annulus k-refined"));
  PetscCall(CheckSameGeometry(coarse, k, u, r_out, "annulus k-refined"));
  PetscCall(CheckBasis(k, &seed, "annulus k-refined"));
  PetscCall(SKNURBSPatchElevateDegree(h, 0, 1)); /* elevation of a patch with interior (and repeated) knots */
  PetscCall(SKNURBSPatchElevateDegree(h, 1, 2));
  PetscCall(CheckSameGeometry(coarse, h, u, r_out, "annulus h- then p-refined"));
  PetscCall(CheckBasis(h, &seed, "annulus h- then p-refined"));
  /* inversion: back from x to u (Newton converges quadratically; 1e-12 in u is far from round-off limited) */
  for (PetscInt t = 0; t < 20; t++) {
    PetscReal x[3], v[3], dist;
    PetscCall(SKNURBSPatchEvaluate(k, u + 3 * t, x, NULL));
    PetscCall(SKNURBSPatchInvert(k, x, v, &dist));
    PetscCheck(dist < 1e-13 && PetscAbsReal(v[0] - u[3 * t]) < 1e-12 && PetscAbsReal(v[1] - u[3 * t + 1]) < 1e-12, PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "inversion of (%g, %g): (%g, %g), distance %g", (double)u[3 * t], (double)u[3 * t + 1], (double)v[0],
               (double)v[1], (double)dist);
  }
  /* 3D: cylinder section, refined in all three directions */
  {
    PetscReal u3[3 * NPTS];
    SKNURBSPatch cyl0;
    SamplePoints(3, &seed, u3);
    PetscCall(SKNURBSPatchCreateCylinderSection(r_in, r_out, 0.3, 0.5, &cyl0));
    PetscCall(CheckCircle(cyl0, r_in, r_out, 0.3, u3, "cylinder"));
    PetscCall(SKNURBSPatchDuplicate(cyl0, &cyl));
    PetscCall(SKNURBSPatchElevateDegree(cyl, 2, 1));
    PetscCall(SKNURBSPatchRefine(cyl, 0, 2));
    PetscCall(SKNURBSPatchRefine(cyl, 1, 3));
    PetscCall(SKNURBSPatchRefine(cyl, 2, 2));
    PetscCall(CheckCircle(cyl, r_in, r_out, 0.3, u3, "cylinder refined"));
    PetscCall(CheckSameGeometry(cyl0, cyl, u3, r_out, "cylinder refined"));
    PetscCall(CheckBasis(cyl, &seed, "cylinder refined"));
    for (PetscInt t = 0; t < NPTS; t++) { /* z = u2 length */
      PetscReal x[3];
      PetscCall(SKNURBSPatchEvaluate(cyl, u3 + 3 * t, x, NULL));
      PetscCheck(PetscAbsReal(x[2] - 0.5 * u3[3 * t + 2]) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cylinder z error %g",
                 (double)(x[2] - 0.5 * u3[3 * t + 2]));
    }
    PetscCall(SKNURBSPatchDestroy(&cyl0));
  }
  PetscCall(SKNURBSPatchDestroy(&coarse));
  PetscCall(SKNURBSPatchDestroy(&h));
  PetscCall(SKNURBSPatchDestroy(&p));
  PetscCall(SKNURBSPatchDestroy(&k));
  PetscCall(SKNURBSPatchDestroy(&cyl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Box patches and faces; bad arguments refused. */
static PetscErrorCode TestBoxFaces(void)
{
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {2, 1, 3};
  SKNURBSPatch box;
  PetscInt idx[512], n, f;
  PetscBool found;
  PetscReal X[3 * 512];

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchCreateBox(3, lo, hi, &box));
  PetscCall(SKNURBSPatchElevateDegree(box, 0, 1));
  PetscCall(SKNURBSPatchRefine(box, 0, 3));
  PetscCall(SKNURBSPatchRefine(box, 2, 2));
  PetscCall(SKNURBSPatchGetControlPoints(box, X, NULL));
  for (PetscInt face = 0; face < 6; face++) {
    const PetscInt d = face / 2;
    PetscCall(SKNURBSPatchFaceFromName(box, SKNURBSPatchFaceName(face), &f, &found));
    PetscCheck(found && f == face, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face name %s", SKNURBSPatchFaceName(face));
    PetscCall(SKNURBSPatchGetFaceControlPoints(box, face, &n, idx));
    PetscInt expect = 1, ncp[3];
    PetscCall(SKNURBSPatchGetSizes(box, NULL, NULL, NULL, ncp));
    for (PetscInt dd = 0; dd < 3; dd++)
      if (dd != d) expect *= ncp[dd];
    PetscCheck(n == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face %s: %" PetscInt_FMT " control points, expected %" PetscInt_FMT,
               SKNURBSPatchFaceName(face), n, expect);
    for (PetscInt i = 0; i < n; i++) /* linear in every direction: the face control points lie on the face plane */
      PetscCheck(PetscAbsReal(X[idx[i] * 3 + d] - (face % 2 ? hi[d] : lo[d])) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "face %s: point off the plane", SKNURBSPatchFaceName(face));
  }
  PetscCall(SKNURBSPatchFaceFromName(box, "middle", &f, &found));
  PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unknown face found");
  PetscCall(SKNURBSPatchDestroy(&box));
  PetscCall(SKNURBSPatchCreateBox(2, lo, hi, &box));
  PetscCall(SKNURBSPatchFaceFromName(box, "front", &f, &found));
  PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2D patch has no front face");
  PetscCall(SKNURBSPatchDestroy(&box));
  /* a non-positive weight is refused */
  {
    const PetscInt deg[1] = {1}, ncp[1] = {2};
    const PetscReal U[] = {0, 0, 1, 1}, *knots[1] = {U}, x[2] = {0, 1}, w[2] = {1, 0};
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SKNURBSPatchCreate(1, 1, deg, ncp, knots, x, w, &box);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_WRONG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero weight accepted");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestAnnulus());
  PetscCall(TestBoxFaces());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "patch: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
