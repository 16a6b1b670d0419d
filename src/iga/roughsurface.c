/* iga: the bicubic B-spline height surface through the samples of a random field (tensor-product interpolation by two
   sets of 1D banded solves), its evaluation, and the map of a finite-element plate's nodes onto it. */
#include <stickslip/rough.h>
#include "roughimpl.h"

#define SK_ROUGH_DEGREE 3

/* Knot span s of parameter u in the clamped knot vector t[n + 4] (t[s] <= u < t[s + 1], the last span for u = 1). */
static PetscInt FindSpan(PetscInt n, const PetscReal t[], PetscReal u)
{
  PetscInt lo = SK_ROUGH_DEGREE, hi = n;

  if (u >= t[n]) return n - 1;
  while (hi - lo > 1) {
    const PetscInt mid = (lo + hi) / 2;
    if (u < t[mid])
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/* The four nonzero cubic basis functions N[s - 3 .. s] at u in span s (Cox-de Boor, Piegl and Tiller algorithm A2.2). */
static void BasisFunctions(PetscInt s, const PetscReal t[], PetscReal u, PetscReal N[SK_ROUGH_DEGREE + 1])
{
  PetscReal left[SK_ROUGH_DEGREE + 1], right[SK_ROUGH_DEGREE + 1];

  N[0] = 1;
  for (PetscInt j = 1; j <= SK_ROUGH_DEGREE; j++) {
    PetscReal saved = 0;
    left[j]         = u - t[s + 1 - j];
    right[j]        = t[s + j] - u;
    for (PetscInt r = 0; r < j; r++) {
      const PetscReal tmp = N[r] / (right[r + 1] + left[j - r]);
      N[r]                = saved + right[r + 1] * tmp;
      saved               = left[j - r] * tmp;
    }
    N[j] = saved;
  }
}

/* Clamped cubic knot vector t[n + 4] on [0, length] for the uniform sample parameters u_i = i / (n - 1), interior
   knots by averaging (Piegl and Tiller eq. 9.8), which for uniform parameters are the sample parameters 2 .. n - 3. */
static void KnotVector(PetscInt n, PetscReal length, PetscReal t[])
{
  for (PetscInt j = 0; j <= SK_ROUGH_DEGREE; j++) t[j] = 0, t[n + j] = length;
  for (PetscInt j = 1; j <= n - 4; j++) t[SK_ROUGH_DEGREE + j] = length * (j + 1) / (n - 1);
}

/* The collocation matrix A[i][j] = N_j(x_i) (n x n, dense storage, band of half-width 3) factored in place by banded
   Gaussian elimination without pivoting, which is stable for B-spline collocation matrices (they are totally positive,
   de Boor 1978, chapter XIII). */
static PetscErrorCode CollocationFactor(PetscInt n, PetscReal length, const PetscReal t[], PetscReal A[])
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(A, n * n));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal x = length * i / (n - 1);
    const PetscInt s  = FindSpan(n, t, x);
    PetscReal N[SK_ROUGH_DEGREE + 1];
    BasisFunctions(s, t, x, N);
    for (PetscInt a = 0; a <= SK_ROUGH_DEGREE; a++) A[i * n + s - SK_ROUGH_DEGREE + a] = N[a];
  }
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(A[k * n + k] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "B-spline collocation matrix: zero pivot %" PetscInt_FMT, k);
    for (PetscInt i = k + 1; i < PetscMin(n, k + SK_ROUGH_DEGREE + 1); i++) {
      const PetscReal l = A[i * n + k] / A[k * n + k];
      for (PetscInt j = k + 1; j < PetscMin(n, k + SK_ROUGH_DEGREE + 1); j++) A[i * n + j] -= l * A[k * n + j];
      A[i * n + k] = l;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves LU x = b in place for b with N values at stride STRIDE (the factors from CollocationFactor()). */
static void CollocationSolve(PetscInt n, const PetscReal A[], PetscInt stride, PetscReal b[])
{
  for (PetscInt i = 1; i < n; i++)
    for (PetscInt k = PetscMax(0, i - SK_ROUGH_DEGREE); k < i; k++) b[i * stride] -= A[i * n + k] * b[k * stride];
  for (PetscInt i = n - 1; i >= 0; i--) {
    for (PetscInt k = i + 1; k < PetscMin(n, i + SK_ROUGH_DEGREE + 1); k++) b[i * stride] -= A[i * n + k] * b[k * stride];
    b[i * stride] /= A[i * n + i];
  }
}

PetscErrorCode SKRoughSurfaceCreate(const PetscInt n[2], const PetscReal length[2], const PetscReal h[], SKRoughSurface *surface)
{
  PetscFunctionBegin;
  PetscCall(SKRoughSurfaceCreateWithKnots(n, length, NULL, NULL, h, surface));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks that KNOTS[n + 4] is a clamped cubic knot vector on [0, length] whose basis can interpolate at the uniform
   sample points x_i = length i / (n - 1): non-decreasing, interior multiplicities <= 3, and N_i(x_i) > 0 for every i
   (Schoenberg-Whitney, de Boor 1978, chapter XIII: then the collocation matrix is nonsingular). */
static PetscErrorCode CheckKnots(PetscInt d, PetscInt n, PetscReal length, const PetscReal t[])
{
  const PetscReal tol = 1e-12 * length;

  PetscFunctionBegin;
  for (PetscInt j = 0; j <= SK_ROUGH_DEGREE; j++)
    PetscCheck(PetscAbsReal(t[j]) <= tol && PetscAbsReal(t[n + j] - length) <= tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "knot vector of direction %" PetscInt_FMT ": not clamped on [0, %g] m (knots %" PetscInt_FMT " and %" PetscInt_FMT
               " are %g and %g)",
               d, (double)length, j, n + j, (double)t[j], (double)t[n + j]);
  for (PetscInt j = 0; j < n + SK_ROUGH_DEGREE; j++)
    PetscCheck(t[j + 1] >= t[j], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "knot vector of direction %" PetscInt_FMT ": knot %" PetscInt_FMT " (%g m) is below the one before", d, j + 1,
               (double)t[j + 1]);
  for (PetscInt j = 1; j < n; j++)
    PetscCheck(t[j + SK_ROUGH_DEGREE] > t[j], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "knot vector of direction %" PetscInt_FMT ": knot %g m repeats more than %d times", d, (double)t[j], SK_ROUGH_DEGREE);
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal x = length * i / (n - 1);
    const PetscInt s  = FindSpan(n, t, x);
    PetscReal N[SK_ROUGH_DEGREE + 1];
    BasisFunctions(s, t, x, N);
    PetscCheck(i >= s - SK_ROUGH_DEGREE && i <= s && N[i - s + SK_ROUGH_DEGREE] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "knot vector of direction %" PetscInt_FMT ": basis function %" PetscInt_FMT " vanishes at sample %" PetscInt_FMT
               " (x = %g m), so the samples cannot be interpolated (Schoenberg-Whitney); put the knots between the samples",
               d, i, i, (double)x);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSurfaceCreateWithKnots(const PetscInt n[2], const PetscReal length[2], const PetscReal knots_x[],
                                             const PetscReal knots_y[], const PetscReal h[], SKRoughSurface *surface)
{
  const PetscReal *given[2] = {knots_x, knots_y};
  SKRoughSurface s;
  PetscReal *A;

  PetscFunctionBegin;
  PetscCall(SKRoughInitializePackage());
  for (PetscInt d = 0; d < 2; d++)
    PetscCheck(n[d] >= SK_ROUGH_DEGREE + 1 && length[d] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "a bicubic surface needs at least 4 samples over a positive length per direction (got %" PetscInt_FMT " over %g m)", n[d],
               (double)length[d]);
  for (PetscInt d = 0; d < 2; d++)
    if (given[d]) PetscCall(CheckKnots(d, n[d], length[d], given[d]));
  PetscCall(PetscLogEventBegin(SK_ROUGH_Interpolate, 0, 0, 0, 0));
  PetscCall(PetscNew(&s));
  for (PetscInt d = 0; d < 2; d++) {
    s->n[d]      = n[d];
    s->length[d] = length[d];
    PetscCall(PetscMalloc1(n[d] + SK_ROUGH_DEGREE + 1, &s->knots[d]));
    if (given[d])
      PetscCall(PetscArraycpy(s->knots[d], given[d], n[d] + SK_ROUGH_DEGREE + 1));
    else
      KnotVector(n[d], length[d], s->knots[d]);
  }
  PetscCall(PetscMalloc2(n[0] * n[1], &s->z, 3 * n[0] * n[1], &s->points));
  PetscCall(PetscArraycpy(s->z, h, n[0] * n[1]));
  /* along x for every row, then along y for every column */
  PetscCall(PetscMalloc1(PetscMax(n[0], n[1]) * PetscMax(n[0], n[1]), &A));
  PetscCall(CollocationFactor(n[0], length[0], s->knots[0], A));
  for (PetscInt j = 0; j < n[1]; j++) CollocationSolve(n[0], A, 1, &s->z[j * n[0]]);
  PetscCall(CollocationFactor(n[1], length[1], s->knots[1], A));
  for (PetscInt i = 0; i < n[0]; i++) CollocationSolve(n[1], A, n[0], &s->z[i]);
  PetscCall(PetscFree(A));
  for (PetscInt j = 0; j < n[1]; j++)
    for (PetscInt i = 0; i < n[0]; i++) {
      PetscReal *P = &s->points[3 * (j * n[0] + i)];
      /* Greville abscissae: the control points of the identity map, so x(u) and y(v) are linear and s a graph */
      P[0] = (s->knots[0][i + 1] + s->knots[0][i + 2] + s->knots[0][i + 3]) / 3;
      P[1] = (s->knots[1][j + 1] + s->knots[1][j + 2] + s->knots[1][j + 3]) / 3;
      P[2] = s->z[j * n[0] + i];
    }
  PetscCall(PetscLogFlops(2.0 * (2 * SK_ROUGH_DEGREE + 1) * 2 * n[0] * n[1]));
  PetscCall(PetscLogEventEnd(SK_ROUGH_Interpolate, 0, 0, 0, 0));
  *surface = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSurfaceDestroy(SKRoughSurface *surface)
{
  PetscFunctionBegin;
  if (!*surface) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*surface)->knots[0]));
  PetscCall(PetscFree((*surface)->knots[1]));
  PetscCall(PetscFree2((*surface)->z, (*surface)->points));
  PetscCall(PetscFree(*surface));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKRoughSurfaceHeight(SKRoughSurface s, PetscReal x, PetscReal y)
{
  const PetscReal u = PetscMin(PetscMax(x, 0), s->length[0]), v = PetscMin(PetscMax(y, 0), s->length[1]);
  const PetscInt su = FindSpan(s->n[0], s->knots[0], u), sv = FindSpan(s->n[1], s->knots[1], v);
  PetscReal Nu[SK_ROUGH_DEGREE + 1], Nv[SK_ROUGH_DEGREE + 1], z = 0;

  BasisFunctions(su, s->knots[0], u, Nu);
  BasisFunctions(sv, s->knots[1], v, Nv);
  for (PetscInt b = 0; b <= SK_ROUGH_DEGREE; b++) {
    const PetscReal *row = &s->z[(sv - SK_ROUGH_DEGREE + b) * s->n[0] + su - SK_ROUGH_DEGREE];
    PetscReal zb         = 0;
    for (PetscInt a = 0; a <= SK_ROUGH_DEGREE; a++) zb += Nu[a] * row[a];
    z += Nv[b] * zb;
  }
  return z;
}

PetscErrorCode SKRoughSurfaceGetControlNet(SKRoughSurface s, PetscInt n[2], const PetscReal *points[], const PetscReal *knots_x[],
                                           const PetscReal *knots_y[])
{
  PetscFunctionBegin;
  if (n) n[0] = s->n[0], n[1] = s->n[1];
  if (points) *points = s->points;
  if (knots_x) *knots_x = s->knots[0];
  if (knots_y) *knots_y = s->knots[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSurfaceMapNodes(SKRoughSurface s, const PetscReal lower[3], const PetscReal upper[3], PetscReal shift,
                                      PetscInt nnodes, PetscReal coords[])
{
  const PetscReal height = upper[2] - lower[2];

  PetscFunctionBegin;
  PetscCheck(height > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "plate height %g m must be > 0", (double)height);
  for (PetscInt p = 0; p < nnodes; p++) {
    PetscReal *X = &coords[3 * p];
    X[2] += (SKRoughSurfaceHeight(s, X[0] - lower[0], X[1] - lower[1]) - shift) * (upper[2] - X[2]) / height;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
