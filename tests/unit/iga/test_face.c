/* Face integrals of NURBS patch faces (src/fem/face_patch.c): the weights int R_a dA of a uniform traction sum to the
   face length on the curved (inner and outer arcs) and straight faces of an annulus (and the face areas of a cylinder
   section in 3D), and their area vectors int R_a n dA (the loads of a pressure) to the chords of the faces turned
   outward; the patch test under a traction load: on a distorted B-spline patch (interior control points moved) the
   internal force of the displacement u = eps x of a uniaxial stress equals the consistent traction loads of the two
   loaded faces at every control point; and the defect of the same on the rational quarter annulus of the curved contact
   patch test, which falls with the spans as a quadrature error; the face basis at any point of a face against the
   face quadrature and central differences. */
#include <math.h>
#include <stickslip/fem.h>

/* Sum over the sides of side set NAME of the weights of every face node into w[] (local nodes), and their total; when
   AN is not NULL the area vectors int R_a n dA into an[] (dim per node), and their total into *ntotal. */
static PetscErrorCode SideWeights(SKMesh mesh, const char name[], PetscReal w[], PetscReal *total, PetscReal an[], PetscReal ntotal[])
{
  PetscInt i, n, gsize, nn, fn[SK_ELEMENT_MAX_NODES], nf, dim;
  const PetscInt *elements, *faces;
  const PetscReal *X;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetDimension(mesh, &dim));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshFindSideSet(mesh, name, &i));
  PetscCheck(i >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no side set %s", name);
  PetscCall(SKMeshGetSideSet(mesh, i, NULL, &n, &elements, &faces, &gsize));
  *total = 0.0;
  if (ntotal)
    for (PetscInt d = 0; d < dim; d++) ntotal[d] = 0.0;
  for (PetscInt s = 0; s < n; s++) {
    PetscReal wf[SK_IGA_FACE_MAX_NODES] = {0}, af[SK_IGA_FACE_MAX_NODES * 3] = {0};
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &nf, fn));
    PetscCall(SKMeshPatchFaceWeights(mesh, elements[s], faces[s], X, wf, af));
    for (PetscInt a = 0; a < nf; a++) {
      if (w) w[fn[a]] += wf[a];
      *total += wf[a];
      for (PetscInt d = 0; d < dim; d++) {
        if (an) an[fn[a] * dim + d] += af[a * dim + d];
        if (ntotal) ntotal[d] += af[a * dim + d];
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Largest difference between the total area vector of each face of MESH (named FACES) and the closed form EXACT
   (dim values per face), relative to the face's area AREA. */
static PetscErrorCode AreaVectorError(SKMesh mesh, PetscInt nfaces, const char *faces[], const PetscReal exact[], const PetscReal area[],
                                      PetscReal *err)
{
  PetscInt dim;
  PetscReal total, nt[3];

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetDimension(mesh, &dim));
  *err = 0.0;
  for (PetscInt f = 0; f < nfaces; f++) {
    PetscCall(SideWeights(mesh, faces[f], NULL, &total, NULL, nt));
    for (PetscInt d = 0; d < dim; d++) *err = PetscMax(*err, PetscAbsReal(nt[d] - exact[f * dim + d]) / area[f]);
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
      PetscCall(SideWeights(mesh, faces[f], NULL, &total, NULL, NULL));
      err = PetscAbsReal(total - len[f]) / len[f];
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "annulus face %s: sum of weights %.16g, length %.16g, relative error %.2e\n", faces[f],
                            (double)total, (double)len[f], (double)err));
      PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face %s: weights sum to %.16g, not the length %.16g", faces[f],
                 (double)total, (double)len[f]);
    }
  }
  {
    /* the area vectors int n dA of the faces (outward normals): -ri (1, 1) on the inner quarter arc, ro (1, 1) on the
       outer, -(ro - ri) e_y and -(ro - ri) e_x on the straight edges, so a pressure p on a face loads it by -p times
       its chord turned outward; the rational tangent of the arcs is integrated by the same degree + 3 Gauss points
       (measured 1.2e-15 relative to the face length; 1e-13 as for the weights) */
    const char *faces[4]      = {"left", "right", "bottom", "top"};
    const PetscReal exact[8]  = {-ri, -ri, ro, ro, 0, -(ro - ri), -(ro - ri), 0};
    const PetscReal length[4] = {ri * PETSC_PI / 2, ro * PETSC_PI / 2, ro - ri, ro - ri};
    PetscCall(AreaVectorError(mesh, 4, faces, exact, length, &err));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "annulus: area vectors of the faces, largest error %.2e of the face length\n", (double)err));
    PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "annulus area vectors off by %g of the face length", (double)err);
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
      PetscCall(SideWeights(mesh, faces[f], NULL, &total, NULL, NULL));
      err = PetscAbsReal(total - area[f]) / area[f];
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "cylinder section face %s: sum of weights %.16g, area %.16g, relative error %.2e\n", faces[f],
                            (double)total, (double)area[f], (double)err));
      PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face %s: weights sum to %.16g, not the area %.16g", faces[f], (double)total,
                 (double)area[f]);
    }
  }
  {
    /* area vectors of the 60-degree section: L ri (s, 1 - c, 0) inward on the inner face, L ro (s, 1 - c, 0) on the
       outer, (ro - ri) L (0, -1, 0) and (ro - ri) L (-s, c, 0) on the radial planes, -+ theta (ro^2 - ri^2) / 2 e_z on
       the ends (s, c the sine and cosine of 60 degrees); measured 2.2e-14 of the face area, bound as in 2D */
    const char *faces[6] = {"left", "right", "bottom", "top", "back", "front"};
    const PetscReal th = PETSC_PI / 3, L = 0.5, sn = PetscSinReal(th), cs = PetscCosReal(th), end = th * (ro * ro - ri * ri) / 2;
    const PetscReal exact[18] = {-L * ri * sn,
                                 -L * ri * (1 - cs),
                                 0,
                                 L * ro * sn,
                                 L * ro * (1 - cs),
                                 0,
                                 0,
                                 -(ro - ri) * L,
                                 0,
                                 -(ro - ri) * L * sn,
                                 (ro - ri) * L * cs,
                                 0,
                                 0,
                                 0,
                                 -end,
                                 0,
                                 0,
                                 end};
    const PetscReal area[6]   = {ri * th * L, ro * th * L, (ro - ri) * L, (ro - ri) * L, end, end};
    PetscCall(AreaVectorError(mesh, 6, faces, exact, area, &err));
    PetscCall(
        PetscPrintf(PETSC_COMM_SELF, "cylinder section: area vectors of the faces, largest error %.2e of the face area\n", (double)err));
    PetscCheck(err < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cylinder section area vectors off by %g of the face area", (double)err);
  }
  {
    /* the basis anywhere on a face (SKNURBSPatchFacePoints(), the mortar rule of contact splits face elements at such
       points): at the points and weights of the face's Gauss rule it gives SKNURBSPatchFaceQuadrature()'s values bit
       for bit (the same arithmetic), and its derivatives dR_a/dxi_j at an interior point match central differences of R
       with h = 1e-5 (truncation h^2 |R'''| / 6 about 1e-11, round-off 1e-16 / h = 1e-11: bound 1e-8) */
    PetscInt nel[3], k[3], e = -1, nfn, nq, nfn2, nelem, local[SK_IGA_FACE_MAX_NODES];
    PetscReal R[SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES], wdA[SK_IGA_FACE_MAX_QP], x[SK_IGA_FACE_MAX_QP * 3], an[SK_IGA_FACE_MAX_QP * 3];
    PetscReal R2[SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES], wdA2[SK_IGA_FACE_MAX_QP], x2[SK_IGA_FACE_MAX_QP * 3],
        an2[SK_IGA_FACE_MAX_QP * 3];
    PetscReal Rm[SK_IGA_FACE_MAX_NODES], gx[8], gw[8], xi[2 * SK_IGA_FACE_MAX_QP], wq[SK_IGA_FACE_MAX_QP], dR[SK_IGA_FACE_MAX_NODES * 2];
    PetscReal dmax = 0;
    PetscBool same = PETSC_TRUE;
    PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, nel));
    for (PetscInt el = 0; el < nelem && e < 0; el++) { /* an element on the outer face (right: the last span along xi_0) */
      PetscCall(SKNURBSPatchGetElementSpans(patch, el, k));
      if (k[0] == nel[0] - 1 && k[1] == 1) e = el;
    }
    PetscCall(SKNURBSPatchFaceQuadrature(patch, e, 1, NULL, &nfn, local, &nq, R, wdA, x, an));
    PetscCall(SKQuadratureGaussLegendre(5, gx, gw)); /* degree 2 + 3 points per face direction */
    PetscCheck(nq == 25, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " Gauss points on a face of degree 2", nq);
    for (PetscInt q = 0; q < nq; q++) xi[2 * q] = gx[q % 5], xi[2 * q + 1] = gx[q / 5], wq[q] = 1.0 * gw[q % 5] * gw[q / 5];
    PetscCall(SKNURBSPatchFacePoints(patch, e, 1, NULL, nq, xi, wq, &nfn2, NULL, R2, NULL, wdA2, x2, an2));
    for (PetscInt q = 0; q < nq; q++) {
      same = (PetscBool)(same && wdA[q] == wdA2[q]);
      for (PetscInt a = 0; a < nfn; a++) same = (PetscBool)(same && R[q * nfn + a] == R2[q * nfn + a]);
      for (PetscInt c = 0; c < 3; c++) same = (PetscBool)(same && x[q * 3 + c] == x2[q * 3 + c] && an[q * 3 + c] == an2[q * 3 + c]);
    }
    PetscCheck(same && nfn2 == nfn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the face points at the Gauss rule differ from the face quadrature");
    {
      const PetscReal p0[2] = {0.3, -0.45}, h = 1e-5;
      PetscCall(SKNURBSPatchFacePoints(patch, e, 1, NULL, 1, p0, NULL, &nfn2, NULL, R, dR, NULL, NULL, NULL));
      for (PetscInt j = 0; j < 2; j++) {
        PetscReal pp[2] = {p0[0], p0[1]}, pm[2] = {p0[0], p0[1]};
        pp[j] += h, pm[j] -= h;
        PetscCall(SKNURBSPatchFacePoints(patch, e, 1, NULL, 1, pp, NULL, &nfn2, NULL, R2, NULL, NULL, NULL, NULL));
        PetscCall(SKNURBSPatchFacePoints(patch, e, 1, NULL, 1, pm, NULL, &nfn2, NULL, Rm, NULL, NULL, NULL, NULL));
        for (PetscInt a = 0; a < nfn; a++) dmax = PetscMax(dmax, PetscAbsReal(dR[a * 2 + j] - (R2[a] - Rm[a]) / (2 * h)));
      }
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "face points: the Gauss rule's values bit for bit; dR/dxi against central differences %.2e\n",
                          (double)dmax));
    PetscCheck(dmax < 1e-8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dR/dxi off central differences by %g", (double)dmax);
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
    PetscCall(SideWeights(mesh, "left", wl, &total, NULL, NULL));
    PetscCall(SideWeights(mesh, "right", wr, &total, NULL, NULL));
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
  /* 3. the curved patch test's exact state (docs/theory.md, "A curved contact patch test"): the quarter annulus of the
     rings, degree 2, 3 x m elements (m along the arc), u = e X (equibiaxial strain e in plane strain, P = k e I with
     k = 2 (lambda + mu)). Its internal force equals k e times the area vectors int R_a n dA of the whole boundary only
     as far as the (p + 1)^2 Gauss rule of the elements integrates grad R_a exactly, which for the rational basis of
     the arcs (weights 1, cos 45 degrees, 1) it does not: the residual at the control points is the defect of the
     discrete divergence theorem. Measured (largest residual over the control points relative to the largest internal
     force; interior control points about half of it): m = 1: 4.2e-3, 2: 2.2e-4, 4: 6.6e-6, 8: 2.5e-7, 16: 8.3e-9,
     whatever the radial refinement (3 or 12 elements: 6.6e-6 and 7.4e-6 at m = 4); the same rule is exact on the
     B-spline patch of test 2. Checked at m = 2, 4, 8: the defect falls by more than 16 per halving of the spans
     (measured 33 and 26; 19 from m = 1 to 2), the order of a quadrature error of the rational basis, and is above round-off (1e-12) at m =
     8, so the test sees it. */
  {
    const PetscReal E = 1e7, nu = 0.3, e = 1e-6, lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
    const PetscReal k    = 2 * (lambda + mu);
    const char *faces[4] = {"left", "right", "bottom", "top"};
    PetscReal rel[3];

    for (PetscInt level = 0; level < 3; level++) {
      PetscInt nn, ne;
      const PetscInt m = 2 << level;
      const PetscReal *X;
      const PetscInt *conn;
      PetscReal *u, *f, *an, fmax = 0, dev = 0, devin = 0, nt[2];
      SKMaterial mat;
      SKBasis basis;
      SKFEMFailure fail;

      PetscCall(SKNURBSPatchCreateAnnulus(ri, ro, 0.5 * PETSC_PI, &patch));
      PetscCall(SKNURBSPatchElevateDegree(patch, 0, 1));
      PetscCall(SKNURBSPatchRefine(patch, 0, 3));
      PetscCall(SKNURBSPatchRefine(patch, 1, m));
      PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
      PetscCall(SKMeshGetNodes(mesh, &nn, &X));
      PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
      PetscCall(PetscCalloc3(2 * nn, &u, 2 * nn, &f, 2 * nn, &an));
      for (PetscInt a = 0; a < 2 * nn; a++) u[a] = e * X[a];
      for (PetscInt j = 0; j < 4; j++) PetscCall(SideWeights(mesh, faces[j], NULL, &total, an, nt));
      PetscCall(SKMaterialCreate("linear_elastic", SK_STRESS_STATE_PLANE_STRAIN, E, nu, 1.0, &mat));
      PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
      PetscCall(SKFEMInternalForce(basis, mat, ne, conn, X, u, f, NULL, &fail));
      PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "failure %d", (int)fail.kind);
      for (PetscInt a = 0; a < nn; a++) {
        const PetscBool interior = (PetscBool)(an[2 * a] == 0 && an[2 * a + 1] == 0);
        for (PetscInt d = 0; d < 2; d++) {
          const PetscReal r = PetscAbsReal(f[2 * a + d] - k * e * an[2 * a + d]);
          fmax              = PetscMax(fmax, PetscAbsReal(f[2 * a + d]));
          dev               = PetscMax(dev, r);
          if (interior) devin = PetscMax(devin, r);
        }
      }
      rel[level] = dev / fmax;
      PetscCall(PetscPrintf(PETSC_COMM_SELF,
                            "curved patch test, %" PetscInt_FMT " spans along the arc: residual of the uniform state %.2e of the largest "
                            "internal force, at interior control points %.2e\n",
                            m, (double)rel[level], (double)(devin / fmax)));
      PetscCall(SKBasisDestroy(&basis));
      PetscCall(SKMaterialDestroy(&mat));
      PetscCall(PetscFree3(u, f, an));
      PetscCall(SKMeshDestroy(&mesh));
      PetscCall(SKNURBSPatchDestroy(&patch));
    }
    PetscCheck(rel[0] > 16 * rel[1] && rel[1] > 16 * rel[2] && rel[2] > 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "curved patch test: residuals %g, %g, %g at 2, 4, 8 spans: not the quadrature defect of the rational basis", (double)rel[0],
               (double)rel[1], (double)rel[2]);
  }
  PetscCall(PetscFinalize());
  return 0;
}
