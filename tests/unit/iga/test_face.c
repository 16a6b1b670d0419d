/* Face integrals of NURBS patch faces (src/fem/face_patch.c): the weights int R_a dA of a uniform traction sum to the
   face length on the curved (inner and outer arcs) and straight faces of an annulus (and the face areas of a cylinder
   section in 3D), and the patch test under a traction
   load: on a distorted B-spline patch (interior control points moved) the internal force of the displacement u = eps x
   of a uniaxial stress equals the consistent traction loads of the two loaded faces at every control point. */
#include <math.h>
#include <stickslip/fem.h>

/* Sum over the sides of side set NAME of the weights of every face node into w[] (local nodes), and their total. */
static PetscErrorCode SideWeights(SKMesh mesh, const char name[], PetscReal w[], PetscReal *total)
{
  PetscInt i, n, gsize, nn, fn[SK_ELEMENT_MAX_NODES], nf;
  const PetscInt *elements, *faces;
  const PetscReal *X;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshFindSideSet(mesh, name, &i));
  PetscCheck(i >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no side set %s", name);
  PetscCall(SKMeshGetSideSet(mesh, i, NULL, &n, &elements, &faces, &gsize));
  *total = 0.0;
  for (PetscInt s = 0; s < n; s++) {
    PetscReal wf[SK_IGA_FACE_MAX_NODES] = {0};
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &nf, fn));
    PetscCall(SKMeshPatchFaceWeights(mesh, elements[s], faces[s], X, wf));
    for (PetscInt a = 0; a < nf; a++) {
      if (w) w[fn[a]] += wf[a];
      *total += wf[a];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *names[1] = {"body"};
  const PetscReal ri = 1.0, ro = 2.0;
  SKNURBSPatch patch;
  SKMesh mesh;
  PetscReal total, err;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  /* 1. annulus, cubic, 3 x 5 elements: left = inner arc (length ri pi / 2), right = outer arc, bottom/top = radial
     segments of length ro - ri. The weights sum to the quadrature of the length; the rational speed |dx/dxi| of the
     arcs is smooth, and degree + 3 Gauss points per 18-degree element integrate it to round-off (measured 1e-15
     relative, the same as the straight faces): 1e-13 relative leaves room for the sums. */
  PetscCall(SKNURBSPatchCreateAnnulus(ri, ro, 0.5 * PETSC_PI, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, 2));
  PetscCall(SKNURBSPatchElevateDegree(patch, 1, 1));
  PetscCall(SKNURBSPatchRefine(patch, 0, 3));
  PetscCall(SKNURBSPatchRefine(patch, 1, 5));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  {
    const char *faces[4]   = {"left", "right", "bottom", "top"};
    const PetscReal len[4] = {ri * PETSC_PI / 2, ro * PETSC_PI / 2, ro - ri, ro - ri};
    for (PetscInt f = 0; f < 4; f++) {
      PetscCall(SideWeights(mesh, faces[f], NULL, &total));
      err = PetscAbsReal(total - len[f]) / len[f];
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "annulus face %s: sum of weights %.16g, length %.16g, relative error %.2e\n", faces[f],
                            (double)total, (double)len[f], (double)err));
      PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face %s: weights sum to %.16g, not the length %.16g", faces[f],
                 (double)total, (double)len[f]);
    }
  }
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  /* the same in 3D: a 60-degree cylinder section (ri = 1, ro = 2, length 0.5), quadratic, 2 x 3 x 2 elements: areas of
     the inner and outer cylinders ri theta L, ro theta L, of the end sectors theta (ro^2 - ri^2) / 2 and of the radial
     planes (ro - ri) L; the area element |X_xi x X_eta| of the curved faces is rational, same bound as in 2D */
  PetscCall(SKNURBSPatchCreateCylinderSection(ri, ro, PETSC_PI / 3, 0.5, &patch));
  PetscCall(SKNURBSPatchElevateDegree(patch, 0, 1));
  PetscCall(SKNURBSPatchElevateDegree(patch, 2, 1));
  PetscCall(SKNURBSPatchRefine(patch, 0, 2));
  PetscCall(SKNURBSPatchRefine(patch, 1, 3));
  PetscCall(SKNURBSPatchRefine(patch, 2, 2));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  {
    const char *faces[6] = {"left", "right", "bottom", "top", "back", "front"};
    const PetscReal th = PETSC_PI / 3, L = 0.5;
    const PetscReal area[6] = {
        ri * th * L, ro * th * L, (ro - ri) * L, (ro - ri) * L, th * (ro * ro - ri * ri) / 2, th * (ro * ro - ri * ri) / 2};
    for (PetscInt f = 0; f < 6; f++) {
      PetscCall(SideWeights(mesh, faces[f], NULL, &total));
      err = PetscAbsReal(total - area[f]) / area[f];
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "cylinder section face %s: sum of weights %.16g, area %.16g, relative error %.2e\n", faces[f],
                            (double)total, (double)area[f], (double)err));
      PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face %s: weights sum to %.16g, not the area %.16g", faces[f], (double)total,
                 (double)area[f]);
    }
  }
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));

  /* 2. patch test: [0, 2] x [0, 1], quadratic, 4 x 3 elements, interior control points moved by up to 0.15 of a span
     (weights 1: a B-spline patch, so that adj(dX/dxi) dR/dxi is a polynomial of degree 2p - 1 per direction and the
     (p + 1)^2 Gauss rule integrates int grad R_a . sigma dV exactly; the straight faces' speed is polynomial too). */
  {
    const PetscReal lo[2] = {0, 0}, hi[2] = {2, 1}, E = 1e6, nu = 0.3, s = 1e3;
    const PetscReal lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
    /* uniaxial sigma_xx = s in plane strain: eps_yy = -lambda eps_xx / (lambda + 2 mu), sigma_xx = 4 mu (lambda + mu) eps_xx / (lambda + 2
     * mu) */
    const PetscReal exx = s * (lambda + 2 * mu) / (4 * mu * (lambda + mu)), eyy = -lambda * exx / (lambda + 2 * mu);
    SKNURBSPatch box, distorted;
    PetscInt deg[3], ncp[3], n, nn, ne;
    const PetscReal *U[2], *X;
    const PetscInt *conn;
    PetscReal *Xc, *wc, *u, *f, *wl, *wr, fmax = 0, dev = 0;
    PetscInt m[2];
    SKMaterial mat;
    SKBasis basis;
    SKFEMFailure fail;

    PetscCall(SKNURBSPatchCreateBox(2, lo, hi, &box));
    PetscCall(SKNURBSPatchElevateDegree(box, 0, 1));
    PetscCall(SKNURBSPatchElevateDegree(box, 1, 1));
    PetscCall(SKNURBSPatchRefine(box, 0, 4));
    PetscCall(SKNURBSPatchRefine(box, 1, 3));
    PetscCall(SKNURBSPatchGetSizes(box, NULL, NULL, deg, ncp));
    PetscCall(SKNURBSPatchGetControlNet(box, &n, NULL));
    PetscCall(PetscMalloc2(2 * n, &Xc, n, &wc));
    PetscCall(SKNURBSPatchGetControlPoints(box, Xc, wc));
    for (PetscInt j = 1; j < ncp[1] - 1; j++)
      for (PetscInt i = 1; i < ncp[0] - 1; i++) {
        const PetscInt a = j * ncp[0] + i;
        Xc[2 * a] += 0.15 * 0.5 * sin(3.0 * a);
        Xc[2 * a + 1] += 0.15 * 0.33 * cos(5.0 * a);
      }
    for (PetscInt d = 0; d < 2; d++) PetscCall(SKNURBSPatchGetKnots(box, d, &m[d], &U[d]));
    PetscCall(SKNURBSPatchCreate(2, 2, deg, ncp, U, Xc, wc, &distorted));
    PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &distorted, names, &mesh));
    PetscCall(SKMeshGetNodes(mesh, &nn, &X));
    PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
    PetscCall(PetscCalloc4(2 * nn, &u, 2 * nn, &f, nn, &wl, nn, &wr));
    for (PetscInt a = 0; a < nn; a++) u[2 * a] = exx * X[2 * a], u[2 * a + 1] = eyy * X[2 * a + 1];
    PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRAIN, E, nu, 1.0, &mat));
    PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
    PetscCall(SKFEMInternalForce(basis, mat, ne, conn, X, u, f, NULL, &fail));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "failure %d", (int)fail.kind);
    PetscCall(SideWeights(mesh, "left", wl, &total));
    PetscCall(SideWeights(mesh, "right", wr, &total));
    /* f_int_a = int grad R_a . sigma dV = int R_a sigma n dA: (w_right - w_left) s in x, 0 in y */
    for (PetscInt a = 0; a < nn; a++) {
      fmax = PetscMax(fmax, PetscAbsReal(f[2 * a]));
      dev  = PetscMax(dev, PetscAbsReal(f[2 * a] - (wr[a] - wl[a]) * s));
      dev  = PetscMax(dev, PetscAbsReal(f[2 * a + 1]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "patch test: largest internal force %.6g N, largest deviation from the traction loads %.3g N\n",
                          (double)fmax, (double)dev));
    /* round-off (measured 1.5e-13 relative): the internal force sums the (p + 1)^2 points of up to 4 elements of
       values ~ s h; 1e-11 relative to the largest nodal force */
    PetscCheck(dev < 1e-11 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "patch test failed: deviation %g N of %g N", (double)dev, (double)fmax);
    PetscCall(SKBasisDestroy(&basis));
    PetscCall(SKMaterialDestroy(&mat));
    PetscCall(PetscFree4(u, f, wl, wr));
    PetscCall(PetscFree2(Xc, wc));
    PetscCall(SKMeshDestroy(&mesh));
    PetscCall(SKNURBSPatchDestroy(&distorted));
    PetscCall(SKNURBSPatchDestroy(&box));
  }
  PetscCall(PetscFinalize());
  return 0;
}
