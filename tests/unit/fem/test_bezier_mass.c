/* Lumped masses of rational Bezier cells (2D Bezier-Q and 3D Bezier-H cells, p = 2 and 3) against closed forms: the
   total mass of a free rational patch is rho times its area or volume for every lumping (a unit square with one
   heavy middle weight W = 2, 10, 100 on its bottom edge, extruded in 3D; an annulus and a cylinder section; a net
   graded in positions and weights), and the row sums of a net with the weights 1, W, 1 in every row equal the closed
   form of int R_a dx. The elements' own Gauss rule misses these by 1e-3 to 80 %: the check can fail. */
#include <math.h>
#include <stickslip/fem.h>

/* Round-off of a sum of a few hundred positive element masses, each integrated to about 1e-15 relative (measured
   2e-15 at W = 100 in 2D and 3D): 1e-12 relative is the criterion the masses must meet, 500x their round-off. */
#define TOL 1e-12

/* Nodal masses (kg) of the single patch PATCH (in its control point order) with density RHO and LUMPING, their total
   in *total, and the volume by the cells' own Gauss rule in *gauss_volume. */
static PetscErrorCode PatchMasses(SKNURBSPatch patch, PetscReal rho, SKLumping lumping, PetscReal m[], PetscReal *total,
                                  PetscReal *gauss_volume)
{
  const char *names[1] = {"body"};
  SKMesh mesh;
  SKBasis basis;
  SKFEMFailure fail;
  PetscInt nn, ne;
  const PetscInt *conn;
  const PetscReal *X;

  PetscFunctionBeginUser;
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
  PetscCall(PetscArrayzero(m, nn));
  PetscCall(SKFEMLumpedMass(basis, rho, lumping, ne, conn, X, m, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mass: element %" PetscInt_FMT " inverted", fail.element);
  *total = 0.0;
  for (PetscInt a = 0; a < nn; a++) {
    PetscCheck(m[a] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mass %g at control point %" PetscInt_FMT, (double)m[a], a);
    *total += m[a];
  }
  *gauss_volume = 0.0;
  PetscCall(SKFEMCheckReference(basis, ne, conn, X, gauss_volume, &fail));
  PetscCall(SKBasisDestroy(&basis));
  PetscCall(SKMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The unit square (cube) of the rational plate: degree 2 in x with control x 0, 0.5, 1, degree 1 in y (and z); weight
   W at the middle point of the bottom row (every row when TENSOR), 1 elsewhere. Then every direction elevated to
   degree P and split into REFINE spans. */
static PetscErrorCode RationalPlate(PetscInt dim, PetscReal W, PetscBool tensor, PetscInt P, PetscInt refine, SKNURBSPatch *patch)
{
  const PetscReal U2[6] = {0, 0, 0, 1, 1, 1}, U1[4] = {0, 0, 1, 1};
  const PetscReal *U[3] = {U2, U1, U1};
  const PetscInt deg[3] = {2, 1, 1}, ncp[3] = {3, 2, 2};
  PetscReal X[12 * 3], w[12];
  PetscInt n = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < (dim == 3 ? 2 : 1); k++)
    for (PetscInt j = 0; j < 2; j++)
      for (PetscInt i = 0; i < 3; i++, n++) {
        X[n * dim] = 0.5 * i, X[n * dim + 1] = j;
        if (dim == 3) X[n * dim + 2] = k;
        w[n] = i == 1 && (j == 0 || tensor) ? W : 1.0;
      }
  PetscCall(SKNURBSPatchCreate(dim, dim, deg, ncp, U, X, w, patch));
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(SKNURBSPatchElevateDegree(*patch, d, P - deg[d]));
    PetscCall(SKNURBSPatchRefine(*patch, d, refine));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* int_0^1 R_0 x'(t) dt of the quadratic arc with weights 1, W, 1 and control x 0, 1/2, 1 (the first control point's
   share of the unit length; the last has the same, the middle 1 - 2 of it): by partial fractions (sympy),
   (W^2 - 2) / (4 (W^2 - 1)) + W acosh(W) / (4 (W^2 - 1)^(3/2)); 1/6 at W = 1 (the B-spline value). */
static PetscReal EndShare(PetscReal W)
{
  const PetscReal s = W * W - 1;
  return (W * W - 2) / (4 * s) + W * acosh(W) / (4 * s * PetscSqrtReal(s));
}

static PetscErrorCode Check(const char what[], PetscReal value, PetscReal exact, PetscReal tol)
{
  const PetscReal err = PetscAbsReal(value - exact) / PetscAbsReal(exact);

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-58s %.16g  exact %.16g  rel. error %.1e\n", what, (double)value, (double)exact, (double)err));
  PetscCheck(err <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: relative error %g above %g", what, (double)err, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscReal rho = 1000.0, Ws[3] = {2, 10, 100};
  const char *lumpname[3] = {"auto", "rowsum", "hrz"};
  PetscReal *m, total, gvol;
  char what[128];

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscMalloc1(4096, &m));
  /* 1. the plate of the rational bottom edge: total mass rho (unit area / volume) for any W, lumping, degree, refinement */
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt iw = 0; iw < 3; iw++)
      for (PetscInt P = 2; P <= 3; P++)
        for (PetscInt lump = 0; lump < 3; lump++) {
          SKNURBSPatch patch;
          const PetscInt refine = P == 2 ? 1 : 3;
          PetscCall(RationalPlate(dim, Ws[iw], PETSC_FALSE, P, refine, &patch));
          PetscCall(PatchMasses(patch, rho, (SKLumping)lump, m, &total, &gvol));
          PetscCall(PetscSNPrintf(what, sizeof(what),
                                  "%" PetscInt_FMT "D plate W = %g, p = %" PetscInt_FMT ", %" PetscInt_FMT "^%" PetscInt_FMT
                                  " spans, %s: mass",
                                  dim, (double)Ws[iw], P, refine, dim, lumpname[lump]));
          PetscCall(Check(what, total, rho, TOL));
          /* what the cells' own (p + 1)^d Gauss points give (the masses before): off by 4e-3 .. 0.84 on one span */
          if (refine == 1 && lump == 0)
            PetscCheck(PetscAbsReal(gvol - 1.0) > 1e-3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "self-test: the Gauss volume %.16g is exact",
                       (double)gvol);
          PetscCall(SKNURBSPatchDestroy(&patch));
        }
  /* 2. weights 1, W, 1 in every row (column): the row sums are the closed-form shares of the arc times the 1/3 of each
     quadratic Bernstein polynomial across (y, z elevated to degree 2 on one span) */
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt iw = 0; iw < 3; iw++) {
      SKNURBSPatch patch;
      const PetscReal across = dim == 2 ? 1.0 / 3 : 1.0 / 9, share[3] = {EndShare(Ws[iw]), 1 - 2 * EndShare(Ws[iw]), EndShare(Ws[iw])};
      PetscReal worst = -1.0, exact = 0.0;
      PetscInt n, at                = 0;
      PetscCall(RationalPlate(dim, Ws[iw], PETSC_TRUE, 2, 1, &patch));
      PetscCall(PatchMasses(patch, rho, SK_LUMPING_ROWSUM, m, &total, &gvol));
      PetscCall(SKNURBSPatchGetControlNet(patch, &n, NULL));
      for (PetscInt a = 0; a < n; a++) {
        const PetscReal e = rho * share[a % 3] * across;
        if (PetscAbsReal(m[a] - e) / e > worst) worst = PetscAbsReal(m[a] - e) / e, at = a, exact = e;
      }
      PetscCall(PetscSNPrintf(what, sizeof(what), "%" PetscInt_FMT "D weights 1 W 1 per row, W = %g: worst row sum (%" PetscInt_FMT ")",
                              dim, (double)Ws[iw], at));
      PetscCall(Check(what, m[at], exact, TOL));
      PetscCall(SKNURBSPatchDestroy(&patch));
    }
  /* 3. annulus 1 < r < 2 over 90 degrees (exact circles, middle weights cos 45 degrees) and the cylinder section of
     length 0.5: area 3 pi / 4, volume 3 pi / 8 */
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt P = 2; P <= 3; P++)
      for (PetscInt lump = 0; lump < 3; lump++) {
        SKNURBSPatch patch;
        const PetscReal exact = rho * 0.75 * PETSC_PI * (dim == 2 ? 1.0 : 0.5);
        PetscInt deg[3];
        if (dim == 2)
          PetscCall(SKNURBSPatchCreateAnnulus(1.0, 2.0, 0.5 * PETSC_PI, &patch));
        else
          PetscCall(SKNURBSPatchCreateCylinderSection(1.0, 2.0, 0.5 * PETSC_PI, 0.5, &patch));
        PetscCall(SKNURBSPatchGetSizes(patch, NULL, NULL, deg, NULL));
        for (PetscInt d = 0; d < dim; d++) {
          PetscCall(SKNURBSPatchElevateDegree(patch, d, P - deg[d]));
          PetscCall(SKNURBSPatchRefine(patch, d, d == 1 ? 3 : 2));
        }
        PetscCall(PatchMasses(patch, rho, (SKLumping)lump, m, &total, &gvol));
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s p = %" PetscInt_FMT ", %s: mass", dim == 2 ? "annulus" : "cylinder section", P,
                                lumpname[lump]));
        PetscCall(Check(what, total, exact, TOL));
        PetscCall(SKNURBSPatchDestroy(&patch));
      }
  /* 4. a graded net: control points at L (i / (n - 1))^2 and weights 4^i per direction (product weights), degree 2 with
     5 control points (3 spans) per direction. Each coordinate is a rational B-spline function of its own parameter with
     increasing coefficients, so the patch is the box [0, L]^d, volume prod L, whatever the weights */
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt lump = 0; lump < 3; lump++) {
      const PetscReal U[8] = {0, 0, 0, 1.0 / 3, 2.0 / 3, 1, 1, 1}, *Us[3] = {U, U, U}, L[3] = {1.0, 0.7, 0.4};
      const PetscInt deg[3] = {2, 2, 2}, ncp[3] = {5, 5, 5}, n = dim == 2 ? 25 : 125;
      PetscReal X[125 * 3], w[125], exact                      = rho;
      SKNURBSPatch patch;
      for (PetscInt a = 0; a < n; a++) {
        PetscInt rest = a;
        w[a]          = 1.0;
        for (PetscInt d = 0; d < dim; d++, rest /= 5) {
          const PetscInt i = rest % 5;
          X[a * dim + d]   = L[d] * (i / 4.0) * (i / 4.0);
          w[a] *= PetscPowReal(4.0, (PetscReal)i);
        }
      }
      for (PetscInt d = 0; d < dim; d++) exact *= L[d];
      PetscCall(SKNURBSPatchCreate(dim, dim, deg, ncp, Us, X, w, &patch));
      PetscCall(PatchMasses(patch, rho, (SKLumping)lump, m, &total, &gvol));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%" PetscInt_FMT "D graded net, weights 4^i, %s: mass", dim, lumpname[lump]));
      PetscCall(Check(what, total, exact, TOL));
      PetscCall(SKNURBSPatchDestroy(&patch));
    }
  PetscCall(PetscFree(m));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bezier mass: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
