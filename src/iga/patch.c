/* stickslip iga: the NURBS patch object (projective control net, knots), its generators, evaluation, parameter
   inversion, elements by Bezier extraction and faces. */
#include <math.h>
#include "iga/igaimpl.h"

static const char *const sk_face_names[6] = {"left", "right", "bottom", "top", "back", "front"};

PetscErrorCode SKNURBSPatchCreate(PetscInt pdim, PetscInt sdim, const PetscInt degree[], const PetscInt num_cp[],
                                  const PetscReal *const knots[], const PetscReal coords[], const PetscReal weights[], SKNURBSPatch *patch)
{
  SKNURBSPatch P;

  PetscFunctionBegin;
  PetscCheck(pdim >= 1 && pdim <= 3 && sdim >= pdim && sdim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "patch dimensions: parametric %" PetscInt_FMT ", spatial %" PetscInt_FMT "; need 1 <= pdim <= sdim <= 3", pdim, sdim);
  for (PetscInt d = 0; d < pdim; d++) {
    PetscBool ok;
    char reason[256];
    PetscCall(SKKnotVectorCheck(degree[d], num_cp[d], num_cp[d] + degree[d] + 1, knots[d], &ok, reason, sizeof(reason)));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "knot vector of direction %" PetscInt_FMT ": %s", d, reason);
  }
  PetscCall(PetscNew(&P));
  P->pdim  = pdim;
  P->sdim  = sdim;
  P->ncomp = sdim + 1;
  P->ncp   = 1;
  for (PetscInt d = 0; d < 3; d++) {
    P->p[d] = d < pdim ? degree[d] : 0;
    P->n[d] = d < pdim ? num_cp[d] : 1;
    P->m[d] = d < pdim ? num_cp[d] + degree[d] + 1 : 0;
    P->ncp *= P->n[d];
    if (d < pdim) {
      PetscCall(PetscMalloc1(P->m[d], &P->U[d]));
      PetscCall(PetscArraycpy(P->U[d], knots[d], P->m[d]));
    }
  }
  PetscCall(PetscMalloc1(P->ncp * P->ncomp, &P->Pw));
  for (PetscInt i = 0; i < P->ncp; i++) {
    const PetscReal w = weights ? weights[i] : 1.0;
    if (!(w > 0)) {
      PetscCall(SKNURBSPatchDestroy(&P));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "control point %" PetscInt_FMT ": weight %g is not positive", i, (double)w);
    }
    for (PetscInt c = 0; c < sdim; c++) P->Pw[i * P->ncomp + c] = w * coords[i * sdim + c];
    P->Pw[i * P->ncomp + sdim] = w;
  }
  *patch = P;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchDuplicate(SKNURBSPatch patch, SKNURBSPatch *copy)
{
  SKNURBSPatch P;

  PetscFunctionBegin;
  PetscCall(PetscNew(&P));
  P->pdim  = patch->pdim;
  P->sdim  = patch->sdim;
  P->ncomp = patch->ncomp;
  P->ncp   = patch->ncp;
  for (PetscInt d = 0; d < 3; d++) {
    P->p[d] = patch->p[d];
    P->n[d] = patch->n[d];
    P->m[d] = patch->m[d];
    if (patch->U[d]) {
      PetscCall(PetscMalloc1(P->m[d], &P->U[d]));
      PetscCall(PetscArraycpy(P->U[d], patch->U[d], P->m[d]));
    }
  }
  PetscCall(PetscMalloc1(P->ncp * P->ncomp, &P->Pw));
  PetscCall(PetscArraycpy(P->Pw, patch->Pw, P->ncp * P->ncomp));
  *copy = P;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchResetExtraction(SKNURBSPatch patch)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree3(patch->C[d], patch->range[d], patch->first[d]));
  patch->extracted = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchDestroy(SKNURBSPatch *patch)
{
  PetscFunctionBegin;
  if (!*patch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKNURBSPatchResetExtraction(*patch));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree((*patch)->U[d]));
  PetscCall(PetscFree((*patch)->Pw));
  PetscCall(PetscFree(*patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchSetUpExtraction(SKNURBSPatch patch)
{
  PetscFunctionBegin;
  if (patch->extracted) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt d = 0; d < patch->pdim; d++) {
    const PetscInt q = patch->p[d] + 1;
    patch->nspan[d]  = SKKnotVectorNumSpans(patch->m[d], patch->U[d]);
    PetscCall(
        PetscMalloc3(patch->nspan[d] * q * q, &patch->C[d], 2 * patch->nspan[d], &patch->range[d], patch->nspan[d], &patch->first[d]));
    PetscCall(SKBezierExtraction1D(patch->p[d], patch->m[d], patch->U[d], patch->C[d], patch->first[d], patch->range[d]));
  }
  for (PetscInt d = patch->pdim; d < 3; d++) patch->nspan[d] = 1;
  patch->extracted = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- generators ---- */

PetscErrorCode SKNURBSPatchCreateBox(PetscInt dim, const PetscReal lower[], const PetscReal upper[], SKNURBSPatch *patch)
{
  const PetscInt degree[3] = {1, 1, 1}, num_cp[3] = {2, 2, 2};
  const PetscReal U[4] = {0, 0, 1, 1}, *knots[3] = {U, U, U};
  PetscReal X[8 * 3];

  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "box dimension %" PetscInt_FMT, dim);
  for (PetscInt d = 0; d < dim; d++)
    PetscCheck(upper[d] > lower[d], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "box direction %" PetscInt_FMT ": upper %g <= lower %g", d,
               (double)upper[d], (double)lower[d]);
  for (PetscInt i = 0; i < (1 << dim); i++)
    for (PetscInt d = 0; d < dim; d++) X[i * dim + d] = ((i >> d) & 1) ? upper[d] : lower[d];
  PetscCall(SKNURBSPatchCreate(dim, dim, degree, num_cp, knots, X, NULL, patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Control net of the annulus sector in z-layers: layer k at z[k], radial index i, angular index j (the exact rational
   quadratic arc: end points on the circle, middle point at the intersection of the end tangents, weight cos(angle/2)). */
static PetscErrorCode SKNURBSPatchCreateSector(PetscReal r_inner, PetscReal r_outer, PetscReal angle, PetscInt nz, const PetscReal z[],
                                               SKNURBSPatch *patch)
{
  const PetscInt degree[3] = {1, 2, 1}, num_cp[3] = {2, 3, nz}, sdim = nz > 1 ? 3 : 2;
  const PetscReal Ur[4] = {0, 0, 1, 1}, Ut[6] = {0, 0, 0, 1, 1, 1}, *knots[3] = {Ur, Ut, Ur};
  const PetscReal half = 0.5 * angle, wm = cos(half);
  PetscReal X[12 * 3], w[12];

  PetscFunctionBegin;
  PetscCheck(r_inner > 0 && r_outer > r_inner, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "annulus radii %g, %g: need 0 < inner < outer",
             (double)r_inner, (double)r_outer);
  PetscCheck(angle > 0 && angle <= 0.5 * PETSC_PI * (1 + 1e-14), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "annulus angle %g rad: need 0 < angle <= pi/2", (double)angle);
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < 3; j++)
      for (PetscInt i = 0; i < 2; i++) {
        const PetscInt a  = (k * 3 + j) * 2 + i;
        const PetscReal r = i ? r_outer : r_inner, th = j * half, rr = (j == 1) ? r / wm : r;
        X[a * sdim + 0] = rr * cos(th);
        X[a * sdim + 1] = rr * sin(th);
        if (sdim == 3) X[a * sdim + 2] = z[k];
        w[a] = (j == 1) ? wm : 1.0;
      }
  PetscCall(SKNURBSPatchCreate(sdim, sdim, degree, num_cp, knots, X, w, patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchCreateAnnulus(PetscReal r_inner, PetscReal r_outer, PetscReal angle, SKNURBSPatch *patch)
{
  PetscFunctionBegin;
  PetscCall(SKNURBSPatchCreateSector(r_inner, r_outer, angle, 1, NULL, patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchCreateCylinderSection(PetscReal r_inner, PetscReal r_outer, PetscReal angle, PetscReal length,
                                                 SKNURBSPatch *patch)
{
  const PetscReal z[2] = {0.0, length};

  PetscFunctionBegin;
  PetscCheck(length > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "cylinder section length %g: need > 0", (double)length);
  PetscCall(SKNURBSPatchCreateSector(r_inner, r_outer, angle, 2, z, patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- queries ---- */

PetscErrorCode SKNURBSPatchGetSizes(SKNURBSPatch patch, PetscInt *pdim, PetscInt *sdim, PetscInt degree[], PetscInt num_cp[])
{
  PetscFunctionBegin;
  if (pdim) *pdim = patch->pdim;
  if (sdim) *sdim = patch->sdim;
  for (PetscInt d = 0; d < 3; d++) {
    if (degree) degree[d] = patch->p[d];
    if (num_cp) num_cp[d] = patch->n[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetKnots(SKNURBSPatch patch, PetscInt d, PetscInt *m, const PetscReal *U[])
{
  PetscFunctionBegin;
  PetscCheck(d >= 0 && d < patch->pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "direction %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", d, patch->pdim);
  if (m) *m = patch->m[d];
  if (U) *U = patch->U[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetControlNet(SKNURBSPatch patch, PetscInt *n, const PetscReal *Pw[])
{
  PetscFunctionBegin;
  if (n) *n = patch->ncp;
  if (Pw) *Pw = patch->Pw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetControlPoints(SKNURBSPatch patch, PetscReal coords[], PetscReal weights[])
{
  const PetscInt sdim = patch->sdim, nc = patch->ncomp;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < patch->ncp; i++) {
    const PetscReal w = patch->Pw[i * nc + sdim];
    if (coords)
      for (PetscInt c = 0; c < sdim; c++) coords[i * sdim + c] = patch->Pw[i * nc + c] / w;
    if (weights) weights[i] = w;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the rational basis ---- */

void SKRationalTensorBasis(PetscInt pdim, const PetscInt p[], const PetscReal N1[][SK_IGA_MAX_DEGREE + 1],
                           const PetscReal dN1[][SK_IGA_MAX_DEGREE + 1], const PetscReal w[], PetscReal R[], PetscReal dR[])
{
  const PetscInt p1 = pdim > 1 ? p[1] : 0, p2 = pdim > 2 ? p[2] : 0;
  PetscReal W = 0.0, dW[3] = {0, 0, 0};
  PetscInt a = 0;

  /* weighted B-spline products w_a N_a and their derivatives; then R = w N / W, dR = (w dN - R dW) / W */
  for (PetscInt k = 0; k <= p2; k++)
    for (PetscInt j = 0; j <= p1; j++)
      for (PetscInt i = 0; i <= p[0]; i++, a++) {
        const PetscInt ii[3] = {i, j, k};
        PetscReal v          = w[a];
        for (PetscInt d = 0; d < pdim; d++) v *= N1[d][ii[d]];
        R[a] = v;
        W += v;
        if (dR)
          for (PetscInt kk = 0; kk < pdim; kk++) {
            PetscReal dv = w[a];
            for (PetscInt d = 0; d < pdim; d++) dv *= (d == kk) ? dN1[d][ii[d]] : N1[d][ii[d]];
            dR[a * pdim + kk] = dv;
            dW[kk] += dv;
          }
      }
  {
    const PetscReal iW = 1.0 / W; /* one division: this kernel runs at every quadrature point of every step */
    for (PetscInt b = 0; b < a; b++) {
      R[b] *= iW;
      if (dR)
        for (PetscInt kk = 0; kk < pdim; kk++) dR[b * pdim + kk] = (dR[b * pdim + kk] - R[b] * dW[kk]) * iW;
    }
  }
}

void SKNURBSPatchTensorBasis(SKNURBSPatch patch, const PetscReal N1[][SK_IGA_MAX_DEGREE + 1], const PetscReal dN1[][SK_IGA_MAX_DEGREE + 1],
                             const PetscInt first[], PetscInt idx[], PetscReal R[], PetscReal dR[])
{
  PetscReal w[729];
  PetscInt a = 0;

  for (PetscInt k = 0; k <= patch->p[2]; k++)
    for (PetscInt j = 0; j <= patch->p[1]; j++)
      for (PetscInt i = 0; i <= patch->p[0]; i++, a++) {
        const PetscInt ii[3] = {i, j, k};
        PetscInt g           = 0;
        for (PetscInt d = patch->pdim - 1; d >= 0; d--) g = g * patch->n[d] + first[d] + ii[d];
        idx[a] = g;
        w[a]   = patch->Pw[g * patch->ncomp + patch->sdim];
      }
  SKRationalTensorBasis(patch->pdim, patch->p, N1, dN1, w, R, dR);
}

PetscErrorCode SKNURBSPatchBasis(SKNURBSPatch patch, const PetscReal u[], PetscInt *nb, PetscInt idx[], PetscReal R[], PetscReal dR[])
{
  PetscReal N1[3][SK_IGA_MAX_DEGREE + 1], dN1[3][SK_IGA_MAX_DEGREE + 1], ders[2 * (SK_IGA_MAX_DEGREE + 1)];
  PetscInt first[3] = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < patch->pdim; d++) {
    const PetscInt p = patch->p[d], span = SKBSplineFindSpan(p, patch->n[d], patch->U[d], u[d]);
    const PetscReal ud = PetscMin(PetscMax(u[d], patch->U[d][0]), patch->U[d][patch->m[d] - 1]);
    SKBSplineBasis(p, patch->U[d], span, ud, 1, ders);
    for (PetscInt a = 0; a <= p; a++) N1[d][a] = ders[a], dN1[d][a] = ders[p + 1 + a];
    first[d] = span - p;
  }
  *nb = (patch->p[0] + 1) * (patch->p[1] + 1) * (patch->p[2] + 1);
  SKNURBSPatchTensorBasis(patch, N1, dN1, first, idx, R, dR);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchEvaluate(SKNURBSPatch patch, const PetscReal u[], PetscReal x[], PetscReal dxdu[])
{
  const PetscInt pdim = patch->pdim, sdim = patch->sdim, nc = patch->ncomp;
  PetscInt idx[729], nb; /* (SK_IGA_MAX_DEGREE + 1)^3 */
  PetscReal R[729], dR[729 * 3];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchBasis(patch, u, &nb, idx, R, dR));
  for (PetscInt c = 0; c < sdim; c++) {
    x[c] = 0.0;
    if (dxdu)
      for (PetscInt k = 0; k < pdim; k++) dxdu[c * pdim + k] = 0.0;
  }
  for (PetscInt a = 0; a < nb; a++) {
    const PetscReal *Pa = patch->Pw + idx[a] * nc;
    for (PetscInt c = 0; c < sdim; c++) {
      const PetscReal X = Pa[c] / Pa[sdim];
      x[c] += R[a] * X;
      if (dxdu)
        for (PetscInt k = 0; k < pdim; k++) dxdu[c * pdim + k] += dR[a * pdim + k] * X;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchInvert(SKNURBSPatch patch, const PetscReal x[], PetscReal u[], PetscReal *distance)
{
  const PetscInt pdim = patch->pdim, sdim = patch->sdim, ns = 8;
  PetscReal best = PETSC_MAX_REAL, y[3], J[9], lo[3], hi[3];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchSetUpExtraction(patch));
  for (PetscInt d = 0; d < pdim; d++) lo[d] = patch->U[d][0], hi[d] = patch->U[d][patch->m[d] - 1];
  /* start: the nearest of ns points per knot span and direction (span midpoints and quarter points) */
  PetscInt counts[3] = {1, 1, 1}, total = 1;
  for (PetscInt d = 0; d < pdim; d++) counts[d] = patch->nspan[d] * ns, total *= counts[d];
  for (PetscInt s = 0; s < total; s++) {
    PetscReal v[3], dist = 0.0;
    PetscInt rest = s;
    for (PetscInt d = 0; d < pdim; d++) {
      const PetscInt k = rest % counts[d], e = k / ns;
      rest /= counts[d];
      const PetscReal *r = patch->range[d] + 2 * e;
      v[d]               = r[0] + (r[1] - r[0]) * ((k % ns) + 0.5) / ns;
    }
    if (s % 4096 == 4095) PetscCall(SKSignalCheckSerial()); /* ns^pdim samples per element: long on big patches */
    PetscCall(SKNURBSPatchEvaluate(patch, v, y, NULL));
    for (PetscInt c = 0; c < sdim; c++) dist += PetscSqr(y[c] - x[c]);
    if (dist < best) {
      best = dist;
      for (PetscInt d = 0; d < pdim; d++) u[d] = v[d];
    }
  }
  /* Gauss-Newton on |x(u) - x|^2 (Newton when pdim = sdim), clamped to the parameter box */
  for (PetscInt it = 0; it < 50; it++) {
    PetscReal A[9] = {0}, g[3] = {0}, du[3], step = 0.0;
    PetscCall(SKNURBSPatchEvaluate(patch, u, y, J));
    for (PetscInt k = 0; k < pdim; k++) {
      for (PetscInt c = 0; c < sdim; c++) g[k] += J[c * pdim + k] * (x[c] - y[c]);
      for (PetscInt l = 0; l < pdim; l++)
        for (PetscInt c = 0; c < sdim; c++) A[k * pdim + l] += J[c * pdim + k] * J[c * pdim + l];
    }
    if (pdim == 1)
      du[0] = g[0] / A[0];
    else if (pdim == 2) {
      const PetscReal det = A[0] * A[3] - A[1] * A[2];
      du[0]               = (A[3] * g[0] - A[1] * g[1]) / det;
      du[1]               = (A[0] * g[1] - A[2] * g[0]) / det;
    } else {
      const PetscReal det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]);
      du[0] = (g[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (g[1] * A[8] - A[5] * g[2]) + A[2] * (g[1] * A[7] - A[4] * g[2])) / det;
      du[1] = (A[0] * (g[1] * A[8] - A[5] * g[2]) - g[0] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * g[2] - g[1] * A[6])) / det;
      du[2] = (A[0] * (A[4] * g[2] - g[1] * A[7]) - A[1] * (A[3] * g[2] - g[1] * A[6]) + g[0] * (A[3] * A[7] - A[4] * A[6])) / det;
    }
    for (PetscInt d = 0; d < pdim; d++) {
      if (!PetscIsNormalReal(du[d]) && du[d] != 0.0) du[d] = 0.0; /* singular Jacobian: stay */
      const PetscReal v = PetscMin(PetscMax(u[d] + du[d], lo[d]), hi[d]);
      step              = PetscMax(step, PetscAbsReal(v - u[d]) / (hi[d] - lo[d]));
      u[d]              = v;
    }
    if (step < 1e-15) break;
  }
  PetscCall(SKNURBSPatchEvaluate(patch, u, y, NULL));
  best = 0.0;
  for (PetscInt c = 0; c < sdim; c++) best += PetscSqr(y[c] - x[c]);
  *distance = PetscSqrtReal(best);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- elements ---- */

PetscErrorCode SKNURBSPatchGetNumElements(SKNURBSPatch patch, PetscInt *nelem, PetscInt nel[])
{
  PetscFunctionBegin;
  PetscCall(SKNURBSPatchSetUpExtraction(patch));
  if (nelem) *nelem = patch->nspan[0] * patch->nspan[1] * patch->nspan[2];
  if (nel)
    for (PetscInt d = 0; d < 3; d++) nel[d] = patch->nspan[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetElementSize(SKNURBSPatch patch, PetscInt *nen)
{
  PetscFunctionBegin;
  *nen = (patch->p[0] + 1) * (patch->p[1] + 1) * (patch->p[2] + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetElementSpans(SKNURBSPatch patch, PetscInt e, PetscInt k[])
{
  PetscInt rest = e;

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchSetUpExtraction(patch));
  PetscCheck(e >= 0 && e < patch->nspan[0] * patch->nspan[1] * patch->nspan[2], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "element %" PetscInt_FMT " of a patch with %" PetscInt_FMT, e, patch->nspan[0] * patch->nspan[1] * patch->nspan[2]);
  for (PetscInt d = 0; d < patch->pdim; d++) {
    k[d] = rest % patch->nspan[d];
    rest /= patch->nspan[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetExtraction(SKNURBSPatch patch, PetscInt d, PetscInt *nspan, const PetscReal *C[], const PetscReal *range[])
{
  PetscFunctionBegin;
  PetscCall(SKNURBSPatchSetUpExtraction(patch));
  PetscCheck(d >= 0 && d < patch->pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "direction %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", d, patch->pdim);
  if (nspan) *nspan = patch->nspan[d];
  if (C) *C = patch->C[d];
  if (range) *range = patch->range[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchElementBasis(SKNURBSPatch patch, PetscInt e, const PetscReal xi[], PetscReal R[], PetscReal dR[])
{
  PetscReal N1[3][SK_IGA_MAX_DEGREE + 1], dN1[3][SK_IGA_MAX_DEGREE + 1], B[SK_IGA_MAX_DEGREE + 1], dB[SK_IGA_MAX_DEGREE + 1];
  PetscInt k[3], first[3] = {0, 0, 0}, idx[729];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
  for (PetscInt d = 0; d < patch->pdim; d++) {
    const PetscInt q   = patch->p[d] + 1;
    const PetscReal *C = patch->C[d] + k[d] * q * q;
    SKBernsteinBasis(patch->p[d], xi[d], B, dB);
    for (PetscInt a = 0; a < q; a++) {
      N1[d][a] = dN1[d][a] = 0.0;
      for (PetscInt i = 0; i < q; i++) N1[d][a] += C[a * q + i] * B[i], dN1[d][a] += C[a * q + i] * dB[i];
    }
    first[d] = patch->first[d][k[d]];
  }
  SKNURBSPatchTensorBasis(patch, N1, dN1, first, idx, R, dR);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetElementControlPoints(SKNURBSPatch patch, PetscInt e, PetscInt idx[])
{
  PetscInt k[3], a = 0;

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
  for (PetscInt d = patch->pdim; d < 3; d++) k[d] = 0;
  for (PetscInt kk = 0; kk <= patch->p[2]; kk++)
    for (PetscInt j = 0; j <= patch->p[1]; j++)
      for (PetscInt i = 0; i <= patch->p[0]; i++, a++) {
        const PetscInt ii[3] = {i, j, kk};
        PetscInt g           = 0;
        for (PetscInt d = patch->pdim - 1; d >= 0; d--) g = g * patch->n[d] + patch->first[d][k[d]] + ii[d];
        idx[a] = g;
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- faces ---- */

const char *SKNURBSPatchFaceName(PetscInt f)
{
  return (f >= 0 && f < 6) ? sk_face_names[f] : "(none)";
}

PetscErrorCode SKNURBSPatchFaceFromName(SKNURBSPatch patch, const char name[], PetscInt *face, PetscBool *found)
{
  PetscFunctionBegin;
  *found = PETSC_FALSE;
  for (PetscInt f = 0; f < 2 * patch->pdim; f++) {
    PetscBool match;
    PetscCall(PetscStrcmp(name, sk_face_names[f], &match));
    if (match) {
      *face  = f;
      *found = PETSC_TRUE;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchGetFaceControlPoints(SKNURBSPatch patch, PetscInt f, PetscInt *n, PetscInt idx[])
{
  const PetscInt d = f / 2;

  PetscFunctionBegin;
  PetscCheck(f >= 0 && f < 2 * patch->pdim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "face %" PetscInt_FMT " of a %" PetscInt_FMT "D patch", f, patch->pdim);
  const PetscInt fixed = (f % 2) ? patch->n[d] - 1 : 0;
  *n                   = 0;
  for (PetscInt g = 0; g < patch->ncp; g++) {
    PetscInt rest = g, id = 0;
    for (PetscInt dd = 0; dd <= d; dd++) {
      id = rest % patch->n[dd];
      rest /= patch->n[dd];
    }
    if (id == fixed) idx[(*n)++] = g;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
