/* Quadrature over one face element of a NURBS patch (a Bezier cell on a patch face): the rational basis of the face's
   control points and the area element of the physical face, for consistent face loads (tractions, distributed
   springs) and the mortar weights and weighted gaps of contact on patch faces (docs/theory.md, "Contact on NURBS
   patch faces"). */
#include "femimpl.h"

PetscErrorCode SKNURBSPatchFacePoints(SKNURBSPatch patch, PetscInt e, PetscInt f, const PetscReal Xf[], PetscInt n, const PetscReal xi[],
                                      const PetscReal wq[], PetscInt *nfn, PetscInt local[], PetscReal R[], PetscReal dR[], PetscReal wdA[],
                                      PetscReal x[], PetscReal an[])
{
  PetscInt pdim, sdim, deg[3], nel[3], k[3], nen, nface = 0, free_dir[2] = {0, 0}, fidx[SK_IGA_FACE_MAX_NODES];
  PetscInt idx[SK_ELEMENT_MAX_NODES];
  PetscReal Xl[SK_IGA_FACE_MAX_NODES * 3], Re[SK_ELEMENT_MAX_NODES], dRe[SK_ELEMENT_MAX_NODES * 3];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, &sdim, deg, NULL));
  PetscCall(SKNURBSPatchGetNumElements(patch, NULL, nel));
  PetscCall(SKNURBSPatchGetElementSize(patch, &nen));
  PetscCheck(pdim == sdim && pdim >= 2 && nen <= SK_ELEMENT_MAX_NODES, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "face quadrature of a %" PetscInt_FMT "D patch in %" PetscInt_FMT "D space with %" PetscInt_FMT
             " control points per element: needs a 2D or 3D solid patch with at most %d",
             pdim, sdim, nen, SK_ELEMENT_MAX_NODES);
  PetscCheck(f >= 0 && f < 2 * pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "face %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", f,
             pdim);
  const PetscInt d = f / 2, nt = pdim - 1, fixed = (f % 2) ? deg[d] : 0;
  /* det(dX/dxi) > 0 (checked when the mesh is made): (t_y, -t_x) in 2D and t_1 x t_2 in 3D (tangents along the free
     directions in increasing order) point out of the faces xi_0 = 1, xi_1 = -1 and xi_2 = 1, into the others */
  const PetscReal sign = (f == 1 || f == 2 || f == 5) ? 1.0 : -1.0;
  PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
  PetscCheck(k[d] == ((f % 2) ? nel[d] - 1 : 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "element %" PetscInt_FMT " of the patch is not on its face '%s'", e, SKNURBSPatchFaceName(f));
  /* the face's control points: index 0 (or p) in direction d, in element order; the others vanish on the face (open
     knot vectors), and so do their derivatives along it */
  for (PetscInt a = 0; a < nen; a++) {
    PetscInt stride = 1;
    for (PetscInt dd = 0; dd < d; dd++) stride *= deg[dd] + 1;
    if ((a / stride) % (deg[d] + 1) != fixed) continue;
    PetscCheck(nface < SK_IGA_FACE_MAX_NODES, PETSC_COMM_SELF, PETSC_ERR_SUP, "faces with more than %d control points",
               SK_IGA_FACE_MAX_NODES);
    fidx[nface++] = a;
  }
  for (PetscInt dd = 0, j = 0; dd < pdim; dd++)
    if (dd != d) free_dir[j++] = dd;
  if (!Xf) { /* the patch's own (reference) control points */
    const PetscReal *Pw;
    PetscCall(SKNURBSPatchGetControlNet(patch, NULL, &Pw));
    PetscCall(SKNURBSPatchGetElementControlPoints(patch, e, idx));
    for (PetscInt b = 0; b < nface; b++)
      for (PetscInt c = 0; c < sdim; c++) Xl[b * sdim + c] = Pw[idx[fidx[b]] * (sdim + 1) + c] / Pw[idx[fidx[b]] * (sdim + 1) + sdim];
    Xf = Xl;
  }
  *nfn = nface;
  if (local)
    for (PetscInt b = 0; b < nface; b++) local[b] = fidx[b];
  for (PetscInt q = 0; q < n; q++) {
    PetscReal xe[3], t[2][3] = {{0, 0, 0}, {0, 0, 0}}, c[3] = {0, 0, 0}, dA;
    xe[d] = (f % 2) ? 1.0 : -1.0;
    for (PetscInt j = 0; j < nt; j++) xe[free_dir[j]] = xi[q * nt + j];
    PetscCall(SKNURBSPatchElementBasis(patch, e, xe, Re, dRe));
    if (x)
      for (PetscInt c = 0; c < sdim; c++) x[q * sdim + c] = 0.0;
    for (PetscInt b = 0; b < nface; b++) {
      R[q * nface + b] = Re[fidx[b]];
      if (dR)
        for (PetscInt j = 0; j < nt; j++) dR[(q * nface + b) * nt + j] = dRe[fidx[b] * pdim + free_dir[j]];
      for (PetscInt c = 0; c < sdim; c++) {
        for (PetscInt j = 0; j < nt; j++) t[j][c] += dRe[fidx[b] * pdim + free_dir[j]] * Xf[b * sdim + c];
        if (x) x[q * sdim + c] += Re[fidx[b]] * Xf[b * sdim + c];
      }
    }
    dA = SKFaceAreaVector(nt + 1, (const PetscReal(*)[3])t, c);
    if (wdA) wdA[q] = wq[q] * dA;
    if (an)
      for (PetscInt k = 0; k < sdim; k++) an[q * sdim + k] = sign * wq[q] * c[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchFaceQuadrature(SKNURBSPatch patch, PetscInt e, PetscInt f, const PetscReal Xf[], PetscInt *nfn, PetscInt local[],
                                          PetscInt *nq, PetscReal R[], PetscReal wdA[], PetscReal x[], PetscReal an[])
{
  PetscInt pdim, deg[3], nq1 = 0;
  PetscReal gx[SK_IGA_MAX_DEGREE + SK_IGA_FACE_EXTRA_QP], gw[SK_IGA_MAX_DEGREE + SK_IGA_FACE_EXTRA_QP], xi[2 * SK_IGA_FACE_MAX_QP],
      wq[SK_IGA_FACE_MAX_QP];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, NULL));
  PetscCheck(f >= 0 && f < 2 * pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "face %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", f,
             pdim);
  for (PetscInt dd = 0; dd < pdim; dd++)
    if (dd != f / 2) nq1 = PetscMax(nq1, deg[dd] + SK_IGA_FACE_EXTRA_QP);
  PetscCall(SKQuadratureGaussLegendre(nq1, gx, gw));
  /* the tensor Gauss rule, the first free direction fastest */
  *nq = pdim == 2 ? nq1 : nq1 * nq1;
  for (PetscInt q = 0; q < *nq; q++) {
    wq[q] = 1.0;
    for (PetscInt j = 0, rest = q; j < pdim - 1; j++, rest /= nq1) {
      xi[q * (pdim - 1) + j] = gx[rest % nq1];
      wq[q] *= gw[rest % nq1];
    }
  }
  PetscCall(SKNURBSPatchFacePoints(patch, e, f, Xf, *nq, xi, wq, nfn, local, R, NULL, wdA, x, an));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetPatchElement(SKMesh mesh, PetscInt e, SKNURBSPatch *patch, PetscInt *pe)
{
  PetscInt b, first, ne, *natural;
  SKElementType type;
  const SKElementTypeInfo *info;

  PetscFunctionBegin;
  *patch = NULL;
  *pe    = -1;
  PetscCall(SKMeshGetElement(mesh, e, &b, &type, NULL));
  PetscCall(SKElementTypeGetInfo(type, &info));
  if (info->ref_coords) PetscFunctionReturn(PETSC_SUCCESS); /* a Lagrange cell */
  PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)patch));
  if (!*patch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKMeshGetBlock(mesh, b, NULL, NULL, NULL, &ne, &first, NULL));
  PetscCall(PetscMalloc1(ne, &natural));
  PetscCall(SKMeshGetBlockNaturalElements(mesh, b, natural));
  *pe = natural[e - first];
  PetscCall(PetscFree(natural));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshPatchFaceWeights(SKMesh mesh, PetscInt e, PetscInt f, const PetscReal X[], PetscReal w[], PetscReal an[])
{
  SKNURBSPatch patch;
  PetscInt pe, nfn = 0, nq = 0, fn[SK_ELEMENT_MAX_NODES], n, dim;
  PetscReal Xf[SK_IGA_FACE_MAX_NODES * 3], R[SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES], wdA[SK_IGA_FACE_MAX_QP],
      aq[SK_IGA_FACE_MAX_QP * 3];

  PetscFunctionBegin;
  PetscCall(SKMeshGetPatchElement(mesh, e, &patch, &pe));
  PetscCheck(patch, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "element %" PetscInt_FMT " is not a cell of a NURBS patch", e);
  PetscCall(SKMeshGetDimension(mesh, &dim));
  PetscCall(SKMeshGetFaceNodes(mesh, e, f, &n, fn));
  PetscCheck(n <= SK_IGA_FACE_MAX_NODES, PETSC_COMM_SELF, PETSC_ERR_SUP, "faces with %" PetscInt_FMT " control points", n);
  for (PetscInt a = 0; a < n; a++)
    for (PetscInt c = 0; c < dim; c++) Xf[a * dim + c] = X[fn[a] * dim + c];
  PetscCall(SKNURBSPatchFaceQuadrature(patch, pe, f, Xf, &nfn, NULL, &nq, R, wdA, NULL, aq));
  PetscCheck(nfn == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "face with %" PetscInt_FMT " nodes in the mesh but %" PetscInt_FMT " in the patch",
             n, nfn);
  for (PetscInt q = 0; q < nq; q++)
    for (PetscInt a = 0; a < nfn; a++) {
      w[a] += R[q * nfn + a] * wdA[q];
      if (an)
        for (PetscInt c = 0; c < dim; c++) an[a * dim + c] += R[q * nfn + a] * aq[q * dim + c];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}
