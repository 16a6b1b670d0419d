/* stickslip iga: h-refinement (knot insertion) and p-refinement (degree elevation) of NURBS patches. Both are linear
   maps of the projective control net along one parametric direction, Q = A P; they are built as dense matrices
   (patches are small compared with the meshes they make) and applied by one routine. */
#include "iga/igaimpl.h"
#include <petscblaslapack.h>

/* Replaces the net by Q = A P along direction d: A is nnew x n[d], row-major; the other directions are untouched. */
static PetscErrorCode SKNURBSPatchApplyAlongDirection(SKNURBSPatch P, PetscInt d, PetscInt nnew, const PetscReal A[])
{
  const PetscInt nold = P->n[d], nc = P->ncomp;
  PetscInt nin = 1, nout = 1;
  PetscReal *Q;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < d; k++) nin *= P->n[k];
  for (PetscInt k = d + 1; k < 3; k++) nout *= P->n[k];
  PetscCall(PetscCalloc1(nout * nnew * nin * nc, &Q));
  for (PetscInt o = 0; o < nout; o++) {
    PetscErrorCode ierr = SKSignalCheckSerial();
    if (ierr) PetscCall(PetscFree(Q)); /* a signal stops the set-up: nothing half-made is left behind */
    PetscCall(ierr);
    for (PetscInt i = 0; i < nnew; i++)
      for (PetscInt j = 0; j < nold; j++) {
        const PetscReal a = A[i * nold + j];
        if (a == 0.0) continue;
        for (PetscInt in = 0; in < nin; in++)
          for (PetscInt c = 0; c < nc; c++) Q[((o * nnew + i) * nin + in) * nc + c] += a * P->Pw[((o * nold + j) * nin + in) * nc + c];
      }
  }
  PetscCall(PetscFree(P->Pw));
  P->Pw   = Q;
  P->n[d] = nnew;
  P->ncp  = nin * nnew * nout;
  PetscCall(SKNURBSPatchResetExtraction(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKCheckDirection(SKNURBSPatch patch, PetscInt d)
{
  PetscFunctionBegin;
  PetscCheck(d >= 0 && d < patch->pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "direction %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", d, patch->pdim);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchInsertKnots(SKNURBSPatch patch, PetscInt d, PetscInt nins, const PetscReal knots[])
{
  PetscInt p, n, m;
  PetscReal *A, *B, *U;

  PetscFunctionBegin;
  PetscCall(SKCheckDirection(patch, d));
  if (nins <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  p                 = patch->p[d];
  n                 = patch->n[d];
  m                 = patch->m[d];
  const PetscInt n0 = n;
  /* rows of A are the new control points in terms of the old ones: start from the identity, insert one knot at a time */
  PetscCall(PetscCalloc3((n0 + nins) * n0, &A, (n0 + nins) * n0, &B, m + nins, &U));
  PetscCall(PetscArraycpy(U, patch->U[d], m));
  for (PetscInt i = 0; i < n0; i++) A[i * n0 + i] = 1.0;
  for (PetscInt r = 0; r < nins; r++) {
    const PetscReal u = knots[r];
    PetscInt mult     = 0;
    if (!(u > U[0] && u < U[m - 1])) {
      PetscCall(PetscFree3(A, B, U));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "knot %g to insert in direction %" PetscInt_FMT " is not inside (%g, %g)",
              (double)u, d, (double)patch->U[d][0], (double)patch->U[d][m - 1]);
    }
    for (PetscInt i = 0; i < m; i++) mult += (U[i] == u);
    if (mult + 1 > p) {
      PetscCall(PetscFree3(A, B, U));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
              "inserting knot %g in direction %" PetscInt_FMT " makes its multiplicity %" PetscInt_FMT " > degree %" PetscInt_FMT,
              (double)u, d, mult + 1, p);
    }
    const PetscInt k = SKBSplineFindSpan(p, n, U, u);
    if (r % 256 == 255) { /* a set-up phase: SIGTERM honoured (core.h) */
      PetscErrorCode ierr = SKSignalCheckSerial();
      if (ierr) PetscCall(PetscFree3(A, B, U));
      PetscCall(ierr);
    }
    /* Boehm: Q_i = P_i (i <= k-p), alpha_i P_i + (1 - alpha_i) P_{i-1} (k-p < i <= k), P_{i-1} (i > k) */
    for (PetscInt i = 0; i <= n; i++) {
      PetscReal al = 0.0;
      if (i <= k - p)
        al = 1.0;
      else if (i <= k)
        al = (u - U[i]) / (U[i + p] - U[i]);
      for (PetscInt j = 0; j < n0; j++)
        B[i * n0 + j] = (i < n ? al * A[i * n0 + j] : 0.0) + (i > 0 ? (1.0 - al) * A[(i - 1) * n0 + j] : 0.0);
    }
    PetscCall(PetscArraycpy(A, B, (n + 1) * n0));
    for (PetscInt i = m; i > k + 1; i--) U[i] = U[i - 1];
    U[k + 1] = u;
    n++;
    m++;
  }
  PetscCall(SKNURBSPatchApplyAlongDirection(patch, d, n, A));
  PetscCall(PetscFree(patch->U[d]));
  PetscCall(PetscMalloc1(m, &patch->U[d]));
  PetscCall(PetscArraycpy(patch->U[d], U, m));
  patch->m[d] = m;
  PetscCall(PetscFree3(A, B, U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchRefine(SKNURBSPatch patch, PetscInt d, PetscInt parts)
{
  PetscInt nspan, k = 0;
  const PetscReal *range;
  PetscReal *knots;

  PetscFunctionBegin;
  PetscCall(SKCheckDirection(patch, d));
  PetscCheck(parts >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "refinement into %" PetscInt_FMT " parts: need >= 1", parts);
  PetscCall(SKNURBSPatchGetExtraction(patch, d, &nspan, NULL, &range));
  PetscCall(PetscMalloc1(nspan * (parts - 1) + 1, &knots));
  for (PetscInt e = 0; e < nspan; e++)
    for (PetscInt j = 1; j < parts; j++) knots[k++] = range[2 * e] + (range[2 * e + 1] - range[2 * e]) * j / parts;
  PetscCall(SKNURBSPatchInsertKnots(patch, d, k, knots));
  PetscCall(PetscFree(knots));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collocation matrix of the B-spline basis (degree p, knots U[m], n functions) at the points g[ng]: M[i*n + j]. */
static void SKBSplineCollocation(PetscInt p, PetscInt n, const PetscReal U[], PetscInt ng, const PetscReal g[], PetscReal M[])
{
  PetscReal ders[SK_IGA_MAX_DEGREE + 1];

  for (PetscInt i = 0; i < ng * n; i++) M[i] = 0.0;
  for (PetscInt i = 0; i < ng; i++) {
    const PetscInt span = SKBSplineFindSpan(p, n, U, g[i]);
    SKBSplineBasis(p, U, span, g[i], 0, ders);
    for (PetscInt a = 0; a <= p; a++) M[i * n + span - p + a] = ders[a];
  }
}

PetscErrorCode SKNURBSPatchElevateDegree(SKNURBSPatch patch, PetscInt d, PetscInt t)
{
  PetscInt p, n, m, p2, m2 = 0, n2;
  const PetscReal *U;
  PetscReal *U2, *g, *Mold, *Mnew, *A;
  PetscBLASInt bn, bnrhs, info, *ipiv;

  PetscFunctionBegin;
  PetscCall(SKCheckDirection(patch, d));
  PetscCheck(t >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "degree elevation by %" PetscInt_FMT ": need >= 0", t);
  if (t == 0) PetscFunctionReturn(PETSC_SUCCESS);
  p  = patch->p[d];
  n  = patch->n[d];
  m  = patch->m[d];
  U  = patch->U[d];
  p2 = p + t;
  PetscCheck(p2 <= SK_IGA_MAX_DEGREE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "degree %" PetscInt_FMT " + %" PetscInt_FMT " exceeds %d",
             p, t, SK_IGA_MAX_DEGREE);
  /* every distinct knot gains multiplicity t (the continuity C^{p-k} at a knot of multiplicity k is kept) */
  const PetscInt ndistinct = SKKnotVectorNumSpans(m, U) + 1;
  PetscCall(PetscMalloc1(m + ndistinct * t, &U2));
  for (PetscInt i = 0; i < m; i++) {
    U2[m2++] = U[i];
    if (i == m - 1 || U[i + 1] != U[i])
      for (PetscInt r = 0; r < t; r++) U2[m2++] = U[i];
  }
  n2 = m2 - p2 - 1;
  PetscCall(PetscMalloc5(n2, &g, n2 * n, &Mold, n2 * n2, &Mnew, n2 * n, &A, n2, &ipiv));
  for (PetscInt i = 0; i < n2; i++) { /* Greville abscissae of the new basis */
    g[i] = 0.0;
    for (PetscInt k = 1; k <= p2; k++) g[i] += U2[i + k];
    g[i] /= p2;
  }
  /* the patch lies in the new space: new basis at g times Q = old basis at g times P, i.e. Mnew A = Mold */
  SKBSplineCollocation(p, n, U, n2, g, Mold);
  SKBSplineCollocation(p2, n2, U2, n2, g, Mnew);
  { /* LAPACK wants column-major copies */
    PetscReal *Mc, *Bc;
    PetscCall(PetscMalloc2(n2 * n2, &Mc, n2 * n, &Bc));
    for (PetscInt i = 0; i < n2; i++) {
      for (PetscInt j = 0; j < n2; j++) Mc[j * n2 + i] = Mnew[i * n2 + j];
      for (PetscInt j = 0; j < n; j++) Bc[j * n2 + i] = Mold[i * n + j];
    }
    PetscCall(PetscBLASIntCast(n2, &bn));
    PetscCall(PetscBLASIntCast(n, &bnrhs));
    PetscCallBLAS("LAPACKgesv", LAPACKgesv_(&bn, &bnrhs, Mc, &bn, ipiv, Bc, &bn, &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "degree elevation: collocation matrix singular (LAPACK info %d)", (int)info);
    for (PetscInt i = 0; i < n2; i++)
      for (PetscInt j = 0; j < n; j++) A[i * n + j] = Bc[j * n2 + i];
    PetscCall(PetscFree2(Mc, Bc));
  }
  PetscCall(SKNURBSPatchApplyAlongDirection(patch, d, n2, A));
  PetscCall(PetscFree(patch->U[d]));
  patch->U[d] = U2;
  patch->m[d] = m2;
  patch->p[d] = p2;
  PetscCall(PetscFree5(g, Mold, Mnew, A, ipiv));
  PetscFunctionReturn(PETSC_SUCCESS);
}
