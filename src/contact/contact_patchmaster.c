/* contact: NURBS patch faces of a 2D or 3D body as a deformable master surface (docs/theory.md, "NURBS patch faces as
   deformable masters"). A slave point is projected onto the deformed boundary curve or surface (Newton on the one or
   two parameters of each candidate Bezier face element, from the best of a sampling, safeguarded by backtracking), and
   its reaction goes to the face element's control points with the rational basis values there (node-to-segment, point
   distribution). The face elements are tabulated on every rank from the replicated patches; the control points'
   current positions, the slave rows and the sums of the reactions are those of a deformable mesh surface
   (contact_mesh.c) over the same control points, so that the reactions are summed in the global slave order whatever
   the partition. */
#include "contactimpl.h"
#include "patchfaceimpl.h"
#include "surfaceimpl.h"
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define PM_MAX_NODES SK_IGA_FACE_MAX_NODES /* control points of one face element ((p + 1)^(dim - 1)) */
#define PM_MAX_IT 30                       /* Newton iterations per face element */
#define PM_SHORT_STEP 1e-3                 /* Newton steps (in xi on [-1, 1]) taken without the decrease test */

typedef struct {
  SKContactMeshSurface ms; /* the control points: gathered positions and velocities, masses, slave rows, reactions */
  PetscInt dim, npar;      /* space dimension; face parameters, dim - 1 */
  PetscInt p, nfn, nfaces; /* degree along the face, control points per face element ((p + 1)^npar), face elements */
  PetscInt nsample;        /* start values per face parameter sampled before Newton */
  PetscInt *faces;         /* nfaces * nfn control points (indices of ms), tensor order, the first face parameter fastest */
  PetscReal *C, *wt;       /* nfaces * npar * (p + 1)^2 Bezier extraction per face parameter, N_a = sum_i C[a (p + 1) + i] B_i;
                              nfaces * nfn weights */
  PetscReal *sign;         /* per face: the outward normal is sign (t_y, -t_x) in 2D, sign t_1 x t_2 in 3D (t_k = dx/dxi_k) */
  PetscInt *ends;          /* per face: bit 2k (2k + 1) if xi_k = -1 (+1) is on the boundary of its patch face */
  PetscReal *box;          /* per face: bounding boxes (2 dim each) of its current control points and Bezier points */
  PetscReal *bez;          /* per face: its current Bezier points, projective (w x, w), 4 values each, tensor order */
  PetscReal hmin, margin;  /* smallest face size at the reference (m); search margin around the boxes (m) */
  SKContactGrid grid;      /* bucket grid of the faces' control points' boxes (the first box of each) grown by the margin */
} PatchMaster;

/* Bernstein polynomials of degree P at XI in [-1, 1] and their first and second derivatives. */
static void Bernstein2(PetscInt p, PetscReal xi, PetscReal B[], PetscReal dB[], PetscReal d2B[])
{
  PetscReal B2[SK_IGA_MAX_DEGREE + 1];

  SKBernsteinBasis(p, xi, B, dB);
  for (PetscInt i = 0; i <= p; i++) d2B[i] = 0;
  if (p < 2) return;
  /* d2 B_i^p / dxi^2 = p (p - 1) / 4 (B_{i-2}^{p-2} - 2 B_{i-1}^{p-2} + B_i^{p-2}), t = (1 + xi) / 2 */
  SKBernsteinBasis(p - 2, xi, B2, NULL);
  for (PetscInt i = 0; i <= p; i++) {
    const PetscReal a = i >= 2 ? B2[i - 2] : 0, b = (i >= 1 && i - 1 <= p - 2) ? B2[i - 1] : 0, c = i <= p - 2 ? B2[i] : 0;
    d2B[i] = 0.25 * p * (p - 1) * (a - 2 * b + c);
  }
}

/* Rational basis of face F at XI[npar] in [-1, 1]^npar: R[a], dR[a npar + k] = dR_a/dxi_k and the second derivatives
   d2R[a nh + h] (h = 0 for d2/dxi_0^2, then 1 for d2/dxi_0 dxi_1 and 2 for d2/dxi_1^2 in 3D; nh = npar (npar + 1) / 2):
   the tensor product of the univariate B-splines of each face parameter, weighted, by the quotient rule. */
static void FaceBasis(const PatchMaster *pm, PetscInt f, const PetscReal xi[], PetscReal R[], PetscReal dR[], PetscReal d2R[])
{
  const PetscInt q = pm->p + 1, npar = pm->npar, nfn = pm->nfn, nh = npar * (npar + 1) / 2;
  const PetscReal *w = pm->wt + f * nfn;
  PetscReal N1[2][3][SK_IGA_MAX_DEGREE + 1], W[6] = {0, 0, 0, 0, 0, 0}; /* W, dW/dxi_k (1 + k), d2W (1 + npar + h) */
  PetscReal N[PM_MAX_NODES][6];

  for (PetscInt k = 0; k < npar; k++) { /* N1[k][j][a]: the j-th derivative of the univariate B-spline a of parameter k */
    const PetscReal *C = pm->C + (f * npar + k) * q * q;
    PetscReal B[3][SK_IGA_MAX_DEGREE + 1];
    Bernstein2(pm->p, xi[k], B[0], B[1], B[2]);
    for (PetscInt j = 0; j < 3; j++)
      for (PetscInt a = 0; a < q; a++) {
        N1[k][j][a] = 0;
        for (PetscInt i = 0; i < q; i++) N1[k][j][a] += C[a * q + i] * B[j][i];
      }
  }
  for (PetscInt a = 0; a < nfn; a++) { /* N[a]: value, first (1 + k) and second (1 + npar + h) derivatives of w_a N_a */
    const PetscInt a0 = a % q, a1 = a / q;
    if (npar == 1) {
      for (PetscInt j = 0; j < 3; j++) N[a][j] = w[a] * N1[0][j][a0];
    } else {
      const PetscReal *u = N1[0][0], *du = N1[0][1], *d2u = N1[0][2], *v = N1[1][0], *dv = N1[1][1], *d2v = N1[1][2];
      N[a][0] = w[a] * u[a0] * v[a1];
      N[a][1] = w[a] * du[a0] * v[a1], N[a][2] = w[a] * u[a0] * dv[a1];
      N[a][3] = w[a] * d2u[a0] * v[a1], N[a][4] = w[a] * du[a0] * dv[a1], N[a][5] = w[a] * u[a0] * d2v[a1];
    }
    for (PetscInt j = 0; j < 1 + npar + nh; j++) W[j] += N[a][j];
  }
  for (PetscInt a = 0; a < nfn; a++) {
    R[a] = N[a][0] / W[0];
    for (PetscInt k = 0; k < npar; k++) dR[a * npar + k] = (N[a][1 + k] - R[a] * W[1 + k]) / W[0];
    for (PetscInt k = 0, h = 0; k < npar; k++)
      for (PetscInt l = k; l < npar; l++, h++)
        d2R[a * nh + h] = (N[a][1 + npar + h] - dR[a * npar + k] * W[1 + l] - dR[a * npar + l] * W[1 + k] - R[a] * W[1 + npar + h]) / W[0];
  }
}

/* Point X, tangents DX[k] = dx/dxi_k and second derivatives D2X[h] (as in FaceBasis()) of face F at XI from the
   positions XV (2 dim per control point), and the basis R there. */
static void FacePoint(const PatchMaster *pm, PetscInt f, const PetscReal xi[], const PetscReal xv[], PetscReal R[], PetscReal x[],
                      PetscReal dx[][3], PetscReal d2x[][3])
{
  const PetscInt dim = pm->dim, npar = pm->npar, nh = npar * (npar + 1) / 2, *fn = pm->faces + f * pm->nfn;
  PetscReal dR[2 * PM_MAX_NODES], d2R[3 * PM_MAX_NODES];

  FaceBasis(pm, f, xi, R, dR, d2R);
  for (PetscInt d = 0; d < dim; d++) {
    x[d] = 0;
    for (PetscInt k = 0; k < npar; k++) dx[k][d] = 0;
    for (PetscInt h = 0; h < nh; h++) d2x[h][d] = 0;
    for (PetscInt a = 0; a < pm->nfn; a++) {
      const PetscReal xa = xv[fn[a] * 2 * dim + d];
      x[d] += R[a] * xa;
      for (PetscInt k = 0; k < npar; k++) dx[k][d] += dR[a * npar + k] * xa;
      for (PetscInt h = 0; h < nh; h++) d2x[h][d] += d2R[a * nh + h] * xa;
    }
  }
}

static PetscReal Dist2(PetscInt dim, const PetscReal a[], const PetscReal b[])
{
  PetscReal s = 0;
  for (PetscInt d = 0; d < dim; d++) s += PetscSqr(a[d] - b[d]);
  return s;
}

/* Point X of face F at XI from its Bezier points (Boxes()): the cheap evaluation of the samples. */
static void SamplePoint(const PatchMaster *pm, PetscInt f, const PetscReal xi[], PetscReal x[])
{
  const PetscInt q = pm->p + 1, nfn = pm->nfn;
  const PetscReal *bez = pm->bez + f * nfn * 4;
  PetscReal B[2][SK_IGA_MAX_DEGREE + 1], pw[4] = {0, 0, 0, 0};

  for (PetscInt k = 0; k < pm->npar; k++) SKBernsteinBasis(pm->p, xi[k], B[k], NULL);
  for (PetscInt i = 0; i < nfn; i++) {
    const PetscReal b = pm->npar == 1 ? B[0][i] : B[0][i % q] * B[1][i / q];
    for (PetscInt d = 0; d < 4; d++) pw[d] += b * bez[i * 4 + d];
  }
  for (PetscInt d = 0; d < pm->dim; d++) x[d] = pw[d] / pw[3];
}

/* Solves the Newton system H s = -g of the free parameters (FREE[k]) of NPAR (1 or 2), H the Hessian of the squared
   distance / 2 (hk[0], hk[1], hk[2] = H_00, H_01, H_11) or, where that is not positive definite, its Gauss-Newton part
   (gn likewise); a bound parameter gets no step. Where the tangents degenerate (a collapsed edge of the control net:
   the Gauss-Newton matrix singular) each parameter takes its own diagonal step, or none. */
static void NewtonStep(PetscInt npar, const PetscBool free[], const PetscReal g[], const PetscReal hk[], const PetscReal gn[],
                       PetscReal s[])
{
  if (npar == 2 && free[0] && free[1]) {
    const PetscReal *h = (hk[0] > 0 && hk[0] * hk[2] - hk[1] * hk[1] > 0) ? hk : gn, det = h[0] * h[2] - h[1] * h[1];
    if (det > 0) {
      s[0] = -(h[2] * g[0] - h[1] * g[1]) / det;
      s[1] = -(h[0] * g[1] - h[1] * g[0]) / det;
      return;
    }
  }
  for (PetscInt k = 0; k < npar; k++) { /* one free parameter: its diagonal */
    const PetscInt i  = k == 0 ? 0 : 2;
    const PetscReal d = hk[i] > 0 ? hk[i] : gn[i];
    s[k]              = free[k] && d > 0 ? -g[k] / d : 0;
  }
}

/* The point of face F nearest to X: its parameters XI[npar] and squared distance (returned); *CONVERGED whether Newton
   met its tolerance. From the best of nsample^npar samples, Newton on the gradient of |x(xi) - X|^2 / 2,
   g_k = (x - X) . x_k, with the Hessian x_k . x_l + (x - X) . x_kl (its Gauss-Newton part x_k . x_l where that is not
   positive definite); a parameter at a bound that the gradient pushes outward is held there (its step zero), each
   step is clamped to [-1, 1]^npar and, unless shorter than PM_SHORT_STEP, halved until the distance decreases. */
static PetscReal ProjectOnFace(const PatchMaster *pm, PetscInt f, const PetscReal X[], const PetscReal xv[], PetscReal xi[],
                               PetscBool *converged)
{
  const PetscInt dim = pm->dim, npar = pm->npar, ns = pm->nsample, nsamples = npar == 1 ? ns : ns * ns;
  PetscReal R[PM_MAX_NODES], x[3], dx[2][3], d2x[3][3], best = PETSC_MAX_REAL;

  for (PetscInt j = 0; j < nsamples; j++) {
    const PetscReal s[2] = {-1 + 2.0 * (j % ns) / (ns - 1), -1 + 2.0 * (j / ns) / (ns - 1)};
    PetscReal d2;
    SamplePoint(pm, f, s, x);
    d2 = Dist2(dim, x, X);
    if (d2 < best) {
      best = d2;
      for (PetscInt k = 0; k < npar; k++) xi[k] = s[k];
    }
  }
  *converged = PETSC_FALSE;
  for (PetscInt it = 0; it < PM_MAX_IT; it++) {
    PetscReal g[2] = {0, 0}, hk[3] = {0, 0, 0}, gn[3] = {0, 0, 0}, step[2], xn[2] = {0, 0}, d2n = PETSC_MAX_REAL, len = 0, moved = 0;
    PetscBool short_step, free[2] = {PETSC_TRUE, PETSC_TRUE}, any = PETSC_FALSE;
    FacePoint(pm, f, xi, xv, R, x, dx, d2x);
    for (PetscInt k = 0, h = 0; k < npar; k++) {
      for (PetscInt d = 0; d < dim; d++) g[k] += (x[d] - X[d]) * dx[k][d];
      for (PetscInt l = k; l < npar; l++, h++) {
        const PetscInt i = npar == 1 ? 0 : (k == 0 ? l : 2); /* hk[0] = H_00, hk[1] = H_01, hk[2] = H_11 */
        for (PetscInt d = 0; d < dim; d++) gn[i] += dx[k][d] * dx[l][d], hk[i] += dx[k][d] * dx[l][d] + (x[d] - X[d]) * d2x[h][d];
      }
    }
    if (npar == 1) hk[2] = hk[0], gn[2] = gn[0];
    /* a parameter at a bound the descent direction points past stays there */
    for (PetscInt k = 0; k < npar; k++) {
      free[k] = (PetscBool) !((xi[k] <= -1 && g[k] > 0) || (xi[k] >= 1 && g[k] < 0));
      any     = (PetscBool)(any || free[k]);
    }
    if (any) NewtonStep(npar, free, g, hk, gn, step);
    for (PetscInt k = 0; any && k < npar; k++) len = PetscMax(len, PetscAbsReal(step[k]));
    if (!any || len < 1e-14) { /* at a bound (or corner), or stationary */
      *converged = PETSC_TRUE;
      break;
    }
    /* a short Newton step is taken as it is: near the minimum the distance changes by less than its round-off */
    short_step = (PetscBool)(len < PM_SHORT_STEP);
    for (PetscInt j = 0; j < 30; j++) {
      PetscReal xt[3];
      for (PetscInt k = 0; k < npar; k++) xn[k] = PetscMin(PetscMax(xi[k] + step[k], -1.0), 1.0), step[k] *= 0.5;
      FacePoint(pm, f, xn, xv, R, xt, dx, d2x);
      d2n = Dist2(dim, xt, X);
      if (d2n <= best || short_step) break;
    }
    if (d2n > best && !short_step) { /* no decrease along the step: the minimum to round-off */
      *converged = PETSC_TRUE;
      break;
    }
    for (PetscInt k = 0; k < npar; k++) moved = PetscMax(moved, PetscAbsReal(xn[k] - xi[k])), xi[k] = xn[k];
    best = d2n;
    if (moved < 1e-13) {
      *converged = PETSC_TRUE;
      break;
    }
  }
  return best;
}

/* Squared distance from X to a box of face F: of its control points (BEZIER 0) or of its Bezier points (1). */
static PetscReal BoxDistance2(const PatchMaster *pm, PetscInt f, PetscInt bezier, const PetscReal X[])
{
  const PetscReal *b = pm->box + (2 * f + bezier) * 2 * pm->dim;
  PetscReal s        = 0;
  for (PetscInt d = 0; d < pm->dim; d++) {
    const PetscReal e = PetscMax(PetscMax(b[2 * d] - X[d], X[d] - b[2 * d + 1]), 0.0);
    s += e * e;
  }
  return s;
}

/* The boxes of every face at the current positions. The face lies in the convex hull of its control points and,
   tighter, in that of its Bezier points (the projective points sum_a C_ai (w_a x_a, w_a), whose weights are positive):
   the first box decides whether a point is near the surface at all, the second which face elements may hold its
   nearest point, which on a smooth surface of degree 2 leaves one element instead of the 2^(dim - 1) whose control
   points overlap. */
static void Boxes(PatchMaster *pm)
{
  const PetscInt dim = pm->dim, nfn = pm->nfn, q = pm->p + 1, npar = pm->npar;
  const PetscReal *xv = pm->ms->xv;
  for (PetscInt f = 0; f < pm->nfaces; f++) {
    const PetscReal *C = pm->C + f * npar * q * q, *w = pm->wt + f * nfn;
    PetscReal *b = pm->box + f * 4 * dim;
    for (PetscInt d = 0; d < 2 * dim; d++) b[2 * d] = PETSC_MAX_REAL, b[2 * d + 1] = PETSC_MIN_REAL;
    for (PetscInt i = 0; i < nfn; i++) {
      PetscReal c[3], pw[4] = {0, 0, 0, 0}; /* control point i; Bezier point i */
      for (PetscInt a = 0; a < nfn; a++) {
        const PetscReal cai = npar == 1 ? C[a * q + i] : C[(a % q) * q + i % q] * C[q * q + (a / q) * q + i / q];
        for (PetscInt d = 0; d < dim; d++) pw[d] += cai * w[a] * xv[pm->faces[f * nfn + a] * 2 * dim + d];
        pw[3] += cai * w[a];
      }
      for (PetscInt d = 0; d < 4; d++) pm->bez[(f * nfn + i) * 4 + d] = pw[d];
      for (PetscInt d = 0; d < dim; d++) c[d] = xv[pm->faces[f * nfn + i] * 2 * dim + d];
      for (PetscInt d = 0; d < dim; d++) {
        b[2 * d] = PetscMin(b[2 * d], c[d]), b[2 * d + 1] = PetscMax(b[2 * d + 1], c[d]);
        b[2 * (dim + d)] = PetscMin(b[2 * (dim + d)], pw[d] / pw[3]), b[2 * (dim + d) + 1] = PetscMax(b[2 * (dim + d) + 1], pw[d] / pw[3]);
      }
    }
  }
}

/* The bucket grid of the current boxes (Boxes()): the cell size the mean largest extent of a face's control points' box
   plus the margin, so that a face touches a few cells, grown until the grid has at most 8 cells per face. */
static PetscErrorCode Grid(PatchMaster *pm)
{
  const PetscInt dim = pm->dim;
  SKContactGrid *g   = &pm->grid;
  PetscReal hi[3] = {0, 0, 0}, mean = 0;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim; d++) g->lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
  for (PetscInt f = 0; f < pm->nfaces; f++) {
    const PetscReal *b = pm->box + f * 4 * dim;
    PetscReal ext      = 0;
    for (PetscInt d = 0; d < dim; d++) {
      g->lo[d] = PetscMin(g->lo[d], b[2 * d] - pm->margin), hi[d] = PetscMax(hi[d], b[2 * d + 1] + pm->margin);
      ext = PetscMax(ext, b[2 * d + 1] - b[2 * d]);
    }
    mean += ext / pm->nfaces;
  }
  g->cell = mean + pm->margin;
  for (;;) {
    PetscInt ncells = 1;
    for (PetscInt d = 0; d < dim; d++) g->ncell[d] = (PetscInt)((hi[d] - g->lo[d]) / g->cell) + 1, ncells *= g->ncell[d];
    if (ncells <= 8 * pm->nfaces) break;
    g->cell *= 2;
  }
  for (PetscInt d = dim; d < 3; d++) g->ncell[d] = 1;
  g->inv_cell = 1 / g->cell;
  PetscCall(SKContactGridFill(g, dim, pm->nfaces, pm->box, 4 * dim, pm->margin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PMUpdate(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[])
{
  PatchMaster *pm = (PatchMaster *)data;

  PetscFunctionBegin;
  (void)t;
  PetscCall(SKContactMeshSurfaceUpdate(pm->ms, X, u, v)); /* gathers the control points, clears the slave rows */
  Boxes(pm);                                              /* the curve lies in the convex hull of its control points */
  PetscCall(Grid(pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Outward unit normal of face F from its tangents DX at a point. */
static void FaceNormal(const PatchMaster *pm, PetscInt f, PetscReal dx[][3], PetscReal n[])
{
  const PetscReal len = pm->sign[f] / SKFaceAreaVector(pm->dim, (const PetscReal(*)[3])dx, n);
  for (PetscInt d = 0; d < pm->dim; d++) n[d] *= len;
}

/* Whether parameters XI of face F are clamped to a boundary of the whole patch face (an end of the curve in 2D, an edge
   of the surface in 3D); INSIDE whether they are inside the element. */
static PetscBool OnSurfaceBoundary(const PatchMaster *pm, PetscInt f, const PetscReal xi[], PetscBool *inside)
{
  PetscBool on = PETSC_FALSE;

  *inside = PETSC_TRUE;
  for (PetscInt k = 0; k < pm->npar; k++) {
    *inside = (PetscBool)(*inside && PetscAbsReal(xi[k]) < 1);
    on      = (PetscBool)(on || (xi[k] <= -1 && (pm->ends[f] & (1 << (2 * k)))) || (xi[k] >= 1 && (pm->ends[f] & (1 << (2 * k + 1)))));
  }
  return on;
}

static PetscBool PMProject(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p, SKContactSupport *s)
{
  const PatchMaster *pm = (const PatchMaster *)data;
  const PetscInt dim = pm->dim, nfn = pm->nfn;
  const PetscReal *xv = pm->ms->xv, tol = 1e-20 * pm->hmin * pm->hmin;
  PetscReal best = PETSC_MAX_REAL, bz = PETSC_MAX_REAL, bxi[2] = {0, 0}, m2 = PetscSqr(pm->margin), R[PM_MAX_NODES], xb[3], dx[2][3],
            d2x[3][3], along2 = 0;
  PetscInt bf = -1, first = -1, cell, ncand;
  const PetscInt *cand;
  PetscBool ok = PETSC_TRUE, bok = PETSC_TRUE, binside = PETSC_FALSE;

  (void)t, (void)cutoff; /* every point within the margin gets its exact projection */
  *p      = (SKSurfaceProjection){.distance = PETSC_MAX_REAL, .exact = PETSC_FALSE};
  s->face = -1, s->n = 0;
  /* the candidates: the faces of the grid cell of X (a face whose control points' box is within the margin of X is
     listed there); none when X is outside the grid */
  cell = SKContactGridFind(&pm->grid, dim, x);
  if (cell < 0) return PETSC_TRUE; /* no face within the margin: no contact */
  cand = pm->grid.cfaces + pm->grid.cstart[cell], ncand = pm->grid.cstart[cell + 1] - pm->grid.cstart[cell];
  /* the face with the nearest Bezier box first, among those whose control points' box is within the margin: its
     distance prunes most other faces */
  for (PetscInt i = 0; i < ncand; i++)
    if (BoxDistance2(pm, cand[i], 0, x) < m2) {
      const PetscReal d2 = BoxDistance2(pm, cand[i], 1, x);
      if (d2 < bz) bz = d2, first = cand[i];
    }
  if (first < 0) return PETSC_TRUE; /* no face within the margin: no contact */
  /* every face element whose Bezier box is nearer than the best point so far: a parameter that leaves one element is
     clamped to its boundary, where the neighbour element takes over. The faces not listed in the cell are farther than
     the margin; if the best point is farther too, they are searched as well (all faces, in order, as if the cell listed
     them: the same result as without the grid) */
  for (PetscInt pass = 0; pass < 2; pass++) {
    const PetscInt n = pass == 0 ? ncand : pm->nfaces;
    if (pass == 1) {
      if (best <= m2 - tol) break;
      best = PETSC_MAX_REAL, bf = -1, bok = PETSC_TRUE, binside = PETSC_FALSE;
    }
    for (PetscInt k = -1; k < n; k++) {
      const PetscInt f = k < 0 ? first : (pass == 0 ? cand[k] : k);
      PetscReal xi[2]  = {0, 0}, d2;
      PetscBool inside;
      if ((k >= 0 && f == first) || (k >= 0 && BoxDistance2(pm, f, 1, x) > best + tol)) continue;
      d2 = ProjectOnFace(pm, f, x, xv, xi, &ok);
      (void)OnSurfaceBoundary(pm, f, xi, &inside);
      /* the nearest face; at a shared point the face the point projects inside, and if both, the first: distances
         equal to 1e-12 relative tie (as the mesh master's, contact_mesh.c), whatever their last bits */
      if (d2 < best - (tol + 1e-12 * best) || (d2 <= best + (tol + 1e-12 * best) && inside && !binside)) {
        best = d2, bf = f, bok = ok, binside = inside;
        for (PetscInt j = 0; j < pm->npar; j++) bxi[j] = xi[j];
      }
    }
  }
  FacePoint(pm, bf, bxi, xv, R, xb, dx, d2x);
  FaceNormal(pm, bf, dx, p->normal);
  p->distance = 0;
  for (PetscInt d = 0; d < dim; d++) {
    p->point[d] = xb[d];
    p->distance += (x[d] - xb[d]) * p->normal[d];
    p->velocity[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) p->velocity[d] += R[a] * xv[pm->faces[bf * nfn + a] * 2 * dim + dim + d];
  }
  s->face = bf, s->n = nfn;
  for (PetscInt a = 0; a < nfn; a++) s->node[a] = pm->faces[bf * nfn + a], s->N[a] = R[a];
  /* past the boundary of the master surface (as the mesh surface, contact_mesh.c): the true distance, not the one to
     the tangent plane */
  if (OnSurfaceBoundary(pm, bf, bxi, &binside)) {
    for (PetscInt d = 0; d < dim; d++) along2 += PetscSqr((x[d] - xb[d]) - p->distance * p->normal[d]);
    if (along2 > PetscSqr(1e-2 * pm->hmin)) p->distance = PetscSqrtReal(best);
  }
  p->exact      = PETSC_TRUE;
  p->iterations = 0;
  {
    const PetscReal e[3] = {1, 0, 0};
    SKSurfaceTangents(dim, p->normal, e, p->tangent);
  }
  return bok;
}

static void PMFaceCorners(void *data, PetscInt face, PetscReal x[], PetscReal t[])
{
  const PatchMaster *pm = (const PatchMaster *)data;
  const PetscInt dim = pm->dim, npar = pm->npar, nc = npar == 1 ? 2 : 4;

  for (PetscInt c = 0; c < nc; c++) {
    const PetscReal xi[2] = {(c % 2) ? 1.0 : -1.0, (c / 2) ? 1.0 : -1.0};
    PetscReal R[PM_MAX_NODES], dx[2][3], d2x[3][3];
    FacePoint(pm, face, xi, pm->ms->xv, R, x + c * dim, dx, d2x);
    for (PetscInt k = 0; k < npar; k++)
      for (PetscInt d = 0; d < dim; d++) t[(c * npar + k) * dim + d] = dx[k][d];
  }
}

static void PMReact(void *data, PetscInt slot, const SKContactSupport *s, const PetscReal force[])
{
  SKContactMeshSurfaceReact(((PatchMaster *)data)->ms, slot, s, force);
}

static void PMApplyReaction(void *data, const SKContactSupport *s, const PetscReal force[], PetscReal f[])
{
  SKContactMeshSurfaceApplyReaction(((PatchMaster *)data)->ms, s, force, f);
}

static PetscErrorCode PMAddReactions(void *data, PetscReal f[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceAddReactions(((PatchMaster *)data)->ms, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PMOmega2(void *data, PetscReal eps_n, PetscReal wmax, PetscReal kt, PetscReal *omega2, PetscReal *minv)
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceGetOmega2(((PatchMaster *)data)->ms, eps_n, wmax, kt, omega2, minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PMDestroy(void *data)
{
  PatchMaster *pm = (PatchMaster *)data;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceDestroy(&pm->ms));
  PetscCall(PetscFree4(pm->faces, pm->C, pm->wt, pm->sign));
  PetscCall(PetscFree3(pm->ends, pm->box, pm->bez));
  PetscCall(SKContactGridDestroy(&pm->grid));
  PetscCall(PetscFree(pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSurfaceOps PatchMasterOps = {.type          = "NURBS patch face",
                                                   .update        = PMUpdate,
                                                   .project       = PMProject,
                                                   .facecorners   = PMFaceCorners,
                                                   .react         = PMReact,
                                                   .addreactions  = PMAddReactions,
                                                   .applyreaction = PMApplyReaction,
                                                   .omega2        = PMOmega2,
                                                   .destroy       = PMDestroy};

/* The face elements of the (patch, face) pairs the local sides name, replicated: control points (natural numbers
   into NAT), extraction per face parameter, weights, orientation and patch-face boundaries; pass 0 counts them. */
static PetscErrorCode TabulateFaces(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[], const PetscInt faces[],
                                    PatchMaster *pm, PetscInt **nat)
{
  const PetscInt npar = pm->npar;
  PetscInt nb, *flags, offset = 0, nface = 0;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCall(PetscCalloc1(6 * nb, &flags));
  PetscCall(SKContactPatchFaceFlags(comm, mesh, nsides, elements, faces, flags));
  for (PetscInt pass = 0; pass < 2; pass++) {
    offset = 0, nface = 0;
    for (PetscInt b = 0; b < nb; b++) {
      SKNURBSPatch patch;
      PetscInt ncp, nelem, nel[3], deg[3], pdim;
      PetscReal *weights;
      PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
      if (!patch) continue;
      PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
      PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, nel));
      PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, NULL));
      PetscCall(PetscMalloc1(ncp, &weights));
      PetscCall(SKNURBSPatchGetControlPoints(patch, NULL, weights));
      for (PetscInt f = 0; f < 2 * pdim; f++) {
        const PetscInt df = f / 2, p = deg[df == 0 ? 1 : 0];
        PetscInt dt[2] = {0, 0}, stride[3] = {1, 1, 1};
        const PetscReal *C[2] = {NULL, NULL};
        if (!flags[6 * b + f]) continue;
        for (PetscInt d = 0, j = 0; d < pdim; d++)
          if (d != df) dt[j++] = d; /* the face parameters: the other directions, in order */
        if (pass == 0) {
          for (PetscInt j = 0; j < npar; j++)
            PetscCheck((pm->p == 0 || pm->p == deg[dt[j]]) && deg[dt[j]] == p, comm, PETSC_ERR_ARG_WRONG,
                       "the master patch faces mix degrees %" PetscInt_FMT " and %" PetscInt_FMT " along the face", pm->p ? pm->p : p,
                       deg[dt[j]]);
          pm->p = p, pm->nfn = npar == 1 ? p + 1 : (p + 1) * (p + 1);
          PetscCheck(pm->nfn <= PM_MAX_NODES && pm->nfn <= SK_CONTACT_MAX_SUPPORT, comm, PETSC_ERR_SUP,
                     "a NURBS master face of degree %" PetscInt_FMT " in %" PetscInt_FMT "D: at most %d control points per face element", p,
                     pm->dim, PetscMin(PM_MAX_NODES, SK_CONTACT_MAX_SUPPORT));
          pm->nfaces += nelem / nel[df];
          continue;
        }
        for (PetscInt d = 1; d < pdim; d++) stride[d] = stride[d - 1] * (deg[d - 1] + 1);
        for (PetscInt j = 0; j < npar; j++) PetscCall(SKNURBSPatchGetExtraction(patch, dt[j], NULL, &C[j], NULL));
        for (PetscInt e = 0; e < nelem; e++) {
          const PetscInt q = p + 1;
          PetscInt k[3], idx[SK_ELEMENT_MAX_NODES];
          PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
          if (k[df] != ((f % 2) ? nel[df] - 1 : 0)) continue;
          PetscCall(SKNURBSPatchGetElementControlPoints(patch, e, idx));
          for (PetscInt a = 0; a < pm->nfn; a++) { /* face point a = a_0 + q a_1: index a_j along face parameter j */
            const PetscInt loc = ((f % 2) ? deg[df] : 0) * stride[df] + (a % q) * stride[dt[0]] + (npar == 2 ? (a / q) * stride[dt[1]] : 0);
            (*nat)[nface * pm->nfn + a] = offset + idx[loc];
            pm->wt[nface * pm->nfn + a] = weights[idx[loc]];
          }
          pm->ends[nface] = 0;
          for (PetscInt j = 0; j < npar; j++) {
            for (PetscInt i = 0; i < q * q; i++) pm->C[(nface * npar + j) * q * q + i] = C[j][k[dt[j]] * q * q + i];
            pm->ends[nface] |= (k[dt[j]] == 0 ? 1 : 0) << (2 * j) | (k[dt[j]] == nel[dt[j]] - 1 ? 1 : 0) << (2 * j + 1);
          }
          /* positive det(dX/dxi): the outward normal is (t_y, -t_x) on the right and bottom faces in 2D, t_1 x t_2 on the
             faces xi_0 = 1, xi_1 = -1 and xi_2 = 1 in 3D, the opposite on the others */
          pm->sign[nface] = (f == 1 || f == 2 || f == 5) ? 1.0 : -1.0;
          nface++;
        }
      }
      PetscCall(PetscFree(weights));
      offset += ncp;
    }
    if (pass == 0) {
      const PetscInt q = pm->p + 1;
      PetscCheck(pm->nfaces > 0, comm, PETSC_ERR_ARG_WRONG, "a NURBS master surface without faces");
      PetscCall(PetscMalloc4(pm->nfaces * pm->nfn, &pm->faces, pm->nfaces * npar * q * q, &pm->C, pm->nfaces * pm->nfn, &pm->wt, pm->nfaces,
                             &pm->sign));
      PetscCall(PetscMalloc3(pm->nfaces, &pm->ends, pm->nfaces * 4 * pm->dim, &pm->box, pm->nfaces * pm->nfn * 4, &pm->bez));
      PetscCall(PetscMalloc1(pm->nfaces * pm->nfn, nat));
    }
  }
  PetscCall(PetscFree(flags));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairCreateWithPatchMaster(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[],
                                                  const PetscInt faces[], PetscInt nlocal, PetscInt nowned, const PetscInt natural[],
                                                  const PetscReal X[], const PetscReal mass[], const PetscReal w[], PetscReal eps_n,
                                                  SKFrictionLaw law, SKContactPair *cp)
{
  PatchMaster *pm;
  PetscInt dim, *nat, *key, *seg, nseg = 0, ncell, ncarrier;
  SKContactSurface surface;

  PetscFunctionBegin;
  PetscCall(SKMeshGetDimension(mesh, &dim));
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_SUP, "NURBS patch faces as a deformable master surface in %" PetscInt_FMT "D", dim);
  PetscCall(PetscNew(&pm));
  pm->dim     = dim;
  pm->npar    = dim - 1;
  pm->nsample = dim == 2 ? 8 : 5; /* 8 in 2D; 5 x 5 in 3D, where each sample costs (p + 1)^2 basis functions */
  PetscCall(TabulateFaces(comm, mesh, nsides, elements, faces, pm, &nat));
  /* the carrier of the control points: the segments (2D) or quadrilaterals (3D) of the control net of the local sides'
     face elements (local nodes), keyed by natural element, face and cell of the net */
  ncell    = dim == 2 ? pm->p : pm->p * pm->p;
  ncarrier = dim == 2 ? 2 : 4;
  PetscCall(PetscMalloc2(nsides * ncell, &key, nsides * ncell * ncarrier, &seg));
  for (PetscInt s = 0; s < nsides; s++) {
    const PetscInt q = pm->p + 1;
    PetscInt fn[SK_ELEMENT_MAX_NODES], n;
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &n, fn));
    for (PetscInt c = 0; c < ncell; c++) {
      const PetscInt i = c % pm->p, j = c / pm->p, corner[4] = {j * q + i, j * q + i + 1, (j + 1) * q + i + 1, (j + 1) * q + i};
      key[nseg] = (natural[fn[0]] * 8 + faces[s]) * ncell + c; /* unique: a face element's first node, its face, the cell */
      for (PetscInt a = 0; a < ncarrier; a++) seg[ncarrier * nseg + a] = fn[corner[a]];
      nseg++;
    }
  }
  PetscCall(SKContactMeshSurfaceCreate(comm, dim, ncarrier, nseg, key, seg, nlocal, nowned, natural, X, mass, &pm->ms));
  PetscCall(PetscFree2(key, seg));
  for (PetscInt k = 0; k < pm->nfaces * pm->nfn; k++) {
    pm->faces[k] = SKContactMeshSurfaceFindNode(pm->ms, nat[k]);
    PetscCheck(pm->faces[k] >= 0, comm, PETSC_ERR_PLIB, "control point %" PetscInt_FMT " of a master face is not on the carrier", nat[k]);
  }
  PetscCall(PetscFree(nat));
  /* reference: the weights int R_b dA of the control points (the step bound) and the smallest face size (length in 2D,
     square root of the area in 3D) */
  {
    PetscReal xq[16], wq[16], *wb = pm->ms->w;
    const PetscInt nq = pm->p + 3, nqf = dim == 2 ? nq : nq * nq;
    PetscCall(SKQuadratureGaussLegendre(nq, xq, wq));
    PetscCall(PetscArrayzero(wb, pm->ms->nnodes));
    pm->hmin = PETSC_MAX_REAL;
    for (PetscInt f = 0; f < pm->nfaces; f++) {
      PetscReal size = 0;
      for (PetscInt g = 0; g < nqf; g++) {
        const PetscReal xi[2] = {xq[g % nq], xq[g / nq]};
        PetscReal R[PM_MAX_NODES], x[3], dx[2][3], d2x[3][3], n[3], j;
        FacePoint(pm, f, xi, pm->ms->xv, R, x, dx, d2x); /* xv holds the reference until the first update */
        j = SKFaceAreaVector(dim, (const PetscReal(*)[3])dx, n);
        j = dim == 2 ? j * wq[g] : j * wq[g % nq] * wq[g / nq];
        size += j;
        for (PetscInt a = 0; a < pm->nfn; a++) wb[pm->faces[f * pm->nfn + a]] += R[a] * j;
      }
      pm->hmin = PetscMin(pm->hmin, dim == 2 ? size : PetscSqrtReal(size));
    }
    pm->margin = 0.75 * pm->hmin; /* as the mesh surface: a point farther from every face box is not in contact */
  }
  Boxes(pm);
  PetscCall(Grid(pm));
  PetscCall(SKContactSurfaceCreate(comm, dim, &PatchMasterOps, pm, &surface));
  PetscCall(SKContactPairCreateWithNodeSurface(comm, dim, nlocal, nowned, natural, w, surface, pm->ms, pm->nfn, NULL, eps_n, law, cp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
