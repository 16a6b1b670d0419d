/* contact: NURBS patch faces of a 2D body as a deformable master surface (docs/theory.md, "NURBS patch faces as
   deformable masters"). A slave node is projected onto the deformed boundary curve (Newton on the parameter of each
   Bezier face element, from the best of a sampling, safeguarded by backtracking), and its reaction goes to the face
   element's control points with the rational basis values there (node-to-segment, point distribution). The face
   elements are tabulated on every rank from the replicated patches; the control points' current positions, the slave
   rows and the sums of the reactions are those of a deformable mesh surface (contact_mesh.c) over the same control
   points, so that the reactions are summed in the global slave order whatever the partition. */
#include "contactimpl.h"
#include "patchfaceimpl.h"
#include "surfaceimpl.h"
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define PM_MAX_NODES (SK_IGA_MAX_DEGREE + 1) /* control points of one face element */
#define PM_SAMPLES 8                         /* start values per face element sampled before Newton */
#define PM_MAX_IT 30                         /* Newton iterations per face element */
#define PM_SHORT_STEP 1e-3                   /* Newton steps (in xi on [-1, 1]) taken without the decrease test */

typedef struct {
  SKContactMeshSurface ms; /* the control points: gathered positions and velocities, masses, slave rows, reactions */
  PetscInt dim, p, nfn, nfaces;
  PetscInt *faces;        /* nfaces * nfn control points (indices of ms) in the order of the face parameter */
  PetscReal *C, *wt;      /* nfaces * nfn * nfn Bezier extraction N_a = sum_i C[a nfn + i] B_i, nfaces * nfn weights */
  PetscReal *sign;        /* per face: the outward normal is sign (t_y, -t_x) for the tangent t along the parameter */
  PetscInt *ends;         /* per face: 1 if its start, 2 if its end (bits) is an end of its patch face */
  PetscReal *box;         /* per face: bounding box of its current control points (2 dim) */
  PetscReal hmin, margin; /* smallest face length at the reference (m); search margin around the boxes (m) */
} PatchMaster;

/* Rational basis of face F at xi in [-1, 1]: R[a], dR[a] = dR_a/dxi, d2R[a]. */
static void FaceBasis(const PatchMaster *pm, PetscInt f, PetscReal xi, PetscReal R[], PetscReal dR[], PetscReal d2R[])
{
  const PetscInt p = pm->p, nfn = pm->nfn;
  const PetscReal *C = pm->C + f * nfn * nfn, *w = pm->wt + f * nfn;
  PetscReal B[PM_MAX_NODES], dB[PM_MAX_NODES], d2B[PM_MAX_NODES] = {0}, B2[PM_MAX_NODES], W = 0, dW = 0, d2W = 0;
  PetscReal N[PM_MAX_NODES], dN[PM_MAX_NODES], d2N[PM_MAX_NODES];

  SKBernsteinBasis(p, xi, B, dB);
  if (p >= 2) { /* d2 B_i^p / dxi^2 = p (p - 1) / 4 (B_{i-2}^{p-2} - 2 B_{i-1}^{p-2} + B_i^{p-2}), t = (1 + xi) / 2 */
    SKBernsteinBasis(p - 2, xi, B2, NULL);
    for (PetscInt i = 0; i <= p; i++) {
      const PetscReal a = i >= 2 ? B2[i - 2] : 0, b = (i >= 1 && i - 1 <= p - 2) ? B2[i - 1] : 0, c = i <= p - 2 ? B2[i] : 0;
      d2B[i] = 0.25 * p * (p - 1) * (a - 2 * b + c);
    }
  }
  for (PetscInt a = 0; a < nfn; a++) {
    N[a] = dN[a] = d2N[a] = 0;
    for (PetscInt i = 0; i < nfn; i++) N[a] += C[a * nfn + i] * B[i], dN[a] += C[a * nfn + i] * dB[i], d2N[a] += C[a * nfn + i] * d2B[i];
    N[a] *= w[a], dN[a] *= w[a], d2N[a] *= w[a];
    W += N[a], dW += dN[a], d2W += d2N[a];
  }
  for (PetscInt a = 0; a < nfn; a++) {
    R[a]   = N[a] / W;
    dR[a]  = (dN[a] - R[a] * dW) / W;
    d2R[a] = (d2N[a] - 2 * dR[a] * dW - R[a] * d2W) / W;
  }
}

/* Point, tangent and second derivative of face F at xi from the positions XV (2 dim per control point). */
static void FacePoint(const PatchMaster *pm, PetscInt f, PetscReal xi, const PetscReal xv[], PetscReal R[], PetscReal x[], PetscReal dx[],
                      PetscReal d2x[])
{
  const PetscInt dim = pm->dim, *fn = pm->faces + f * pm->nfn;
  PetscReal dR[PM_MAX_NODES], d2R[PM_MAX_NODES];

  FaceBasis(pm, f, xi, R, dR, d2R);
  for (PetscInt d = 0; d < dim; d++) {
    x[d] = dx[d] = d2x[d] = 0;
    for (PetscInt a = 0; a < pm->nfn; a++) {
      const PetscReal xa = xv[fn[a] * 2 * dim + d];
      x[d] += R[a] * xa, dx[d] += dR[a] * xa, d2x[d] += d2R[a] * xa;
    }
  }
}

static PetscReal Dist2(PetscInt dim, const PetscReal a[], const PetscReal b[])
{
  PetscReal s = 0;
  for (PetscInt d = 0; d < dim; d++) s += PetscSqr(a[d] - b[d]);
  return s;
}

/* The point of face F nearest to X: its parameter *XI and squared distance (returned); *CONVERGED whether Newton met
   its tolerance. From the best of PM_SAMPLES samples, Newton on (x(xi) - X) . x'(xi) = 0 with Gauss-Newton where the
   curvature term makes the slope non-positive, clamped to [-1, 1] and, unless shorter than PM_SHORT_STEP, backtracked
   until the distance decreases. */
static PetscReal ProjectOnFace(const PatchMaster *pm, PetscInt f, const PetscReal X[], const PetscReal xv[], PetscReal *xi_out,
                               PetscBool *converged)
{
  const PetscInt dim = pm->dim;
  PetscReal R[PM_MAX_NODES], x[3], dx[3], d2x[3], xi = -1, best = PETSC_MAX_REAL;

  for (PetscInt k = 0; k < PM_SAMPLES; k++) {
    const PetscReal s = -1 + 2.0 * k / (PM_SAMPLES - 1);
    PetscReal d2;
    FacePoint(pm, f, s, xv, R, x, dx, d2x);
    d2 = Dist2(dim, x, X);
    if (d2 < best) best = d2, xi = s;
  }
  *converged = PETSC_FALSE;
  for (PetscInt it = 0; it < PM_MAX_IT; it++) {
    PetscReal g = 0, h = 0, gn = 0, step, xn, d2n = PETSC_MAX_REAL;
    PetscBool short_step;
    FacePoint(pm, f, xi, xv, R, x, dx, d2x);
    for (PetscInt d = 0; d < dim; d++) g += (x[d] - X[d]) * dx[d], h += dx[d] * dx[d] + (x[d] - X[d]) * d2x[d], gn += dx[d] * dx[d];
    if (h <= 0) h = gn;
    step = -g / h;
    if ((xi <= -1 && step < 0) || (xi >= 1 && step > 0) || PetscAbsReal(step) < 1e-14) { /* at a bound, or stationary */
      *converged = PETSC_TRUE;
      break;
    }
    /* a short Newton step is taken as it is: near the minimum the distance changes by less than its round-off */
    short_step = (PetscBool)(PetscAbsReal(step) < PM_SHORT_STEP);
    for (PetscInt k = 0; k < 30; k++, step *= 0.5) {
      PetscReal xt[3];
      xn = PetscMin(PetscMax(xi + step, -1.0), 1.0);
      FacePoint(pm, f, xn, xv, R, xt, dx, d2x);
      d2n = Dist2(dim, xt, X);
      if (d2n <= best || short_step) break;
    }
    if (d2n > best && !short_step) { /* no decrease along the step: the minimum to round-off */
      *converged = PETSC_TRUE;
      break;
    }
    if (PetscAbsReal(xn - xi) < 1e-13) *converged = PETSC_TRUE;
    xi = xn, best = d2n;
    if (*converged) break;
  }
  *xi_out = xi;
  return best;
}

/* Squared distance from X to the box of face F. */
static PetscReal BoxDistance2(const PatchMaster *pm, PetscInt f, const PetscReal X[])
{
  const PetscReal *b = pm->box + f * 2 * pm->dim;
  PetscReal s        = 0;
  for (PetscInt d = 0; d < pm->dim; d++) {
    const PetscReal e = PetscMax(PetscMax(b[2 * d] - X[d], X[d] - b[2 * d + 1]), 0.0);
    s += e * e;
  }
  return s;
}

static void Boxes(PatchMaster *pm)
{
  const PetscInt dim  = pm->dim;
  const PetscReal *xv = pm->ms->xv;
  for (PetscInt f = 0; f < pm->nfaces; f++) {
    PetscReal *b = pm->box + f * 2 * dim;
    for (PetscInt d = 0; d < dim; d++) b[2 * d] = PETSC_MAX_REAL, b[2 * d + 1] = PETSC_MIN_REAL;
    for (PetscInt a = 0; a < pm->nfn; a++)
      for (PetscInt d = 0; d < dim; d++) {
        const PetscReal c = xv[pm->faces[f * pm->nfn + a] * 2 * dim + d];
        b[2 * d] = PetscMin(b[2 * d], c), b[2 * d + 1] = PetscMax(b[2 * d + 1], c);
      }
  }
}

static PetscErrorCode PMUpdate(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[])
{
  PatchMaster *pm = (PatchMaster *)data;

  PetscFunctionBegin;
  (void)t;
  PetscCall(SKContactMeshSurfaceUpdate(pm->ms, X, u, v)); /* gathers the control points, clears the slave rows */
  Boxes(pm);                                              /* the curve lies in the convex hull of its control points */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool PMProject(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p, SKContactSupport *s)
{
  const PatchMaster *pm = (const PatchMaster *)data;
  const PetscInt dim = pm->dim, nfn = pm->nfn;
  const PetscReal *xv = pm->ms->xv, tol = 1e-20 * pm->hmin * pm->hmin;
  PetscReal best = PETSC_MAX_REAL, bxi = 0, m2 = PetscSqr(pm->margin), R[PM_MAX_NODES], xb[3], dx[3], d2x[3], len = 0, along2 = 0;
  PetscInt bf = -1, first = -1;
  PetscBool ok = PETSC_TRUE, bok = PETSC_TRUE;

  (void)t, (void)cutoff; /* every point within the margin gets its exact projection */
  *p      = (SKSurfaceProjection){.distance = PETSC_MAX_REAL, .exact = PETSC_FALSE};
  s->face = -1, s->n = 0;
  for (PetscInt f = 0; f < pm->nfaces; f++) { /* the nearest box first: its distance prunes most other faces */
    const PetscReal d2 = BoxDistance2(pm, f, x);
    if (d2 < m2) m2 = d2, first = f;
  }
  if (first < 0) return PETSC_TRUE; /* no face within the margin: no contact */
  for (PetscInt k = -1; k < pm->nfaces; k++) {
    const PetscInt f = k < 0 ? first : k;
    PetscReal xi, d2;
    if (k == first || (k >= 0 && BoxDistance2(pm, f, x) > best + tol)) continue;
    d2 = ProjectOnFace(pm, f, x, xv, &xi, &ok);
    /* the nearest face; at a shared point the face the point projects inside */
    if (d2 < best - tol || (d2 <= best + tol && PetscAbsReal(xi) < 1 && PetscAbsReal(bxi) >= 1)) best = d2, bxi = xi, bf = f, bok = ok;
  }
  FacePoint(pm, bf, bxi, xv, R, xb, dx, d2x);
  for (PetscInt d = 0; d < dim; d++) len += dx[d] * dx[d];
  len          = PetscSqrtReal(len);
  p->normal[0] = pm->sign[bf] * dx[1] / len, p->normal[1] = -pm->sign[bf] * dx[0] / len;
  p->distance = 0;
  for (PetscInt d = 0; d < dim; d++) {
    p->point[d] = xb[d];
    p->distance += (x[d] - xb[d]) * p->normal[d];
    p->velocity[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) p->velocity[d] += R[a] * xv[pm->faces[bf * nfn + a] * 2 * dim + dim + d];
  }
  s->face = bf, s->n = nfn;
  for (PetscInt a = 0; a < nfn; a++) s->node[a] = pm->faces[bf * nfn + a], s->N[a] = R[a];
  /* past an end of the master curve (as the mesh surface, contact_mesh.c): the true distance, not the one to the tangent */
  if ((bxi <= -1 && (pm->ends[bf] & 1)) || (bxi >= 1 && (pm->ends[bf] & 2))) {
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
  PetscCall(PetscFree2(pm->ends, pm->box));
  PetscCall(PetscFree(pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSurfaceOps PatchMasterOps = {.type          = "NURBS patch face",
                                                   .update        = PMUpdate,
                                                   .project       = PMProject,
                                                   .react         = PMReact,
                                                   .addreactions  = PMAddReactions,
                                                   .applyreaction = PMApplyReaction,
                                                   .omega2        = PMOmega2,
                                                   .destroy       = PMDestroy};

/* The face elements of the (patch, face) pairs the local sides name, replicated: control points (natural numbers
   into NAT), extraction, weights, orientation and patch-face ends; pass 0 counts them. */
static PetscErrorCode TabulateFaces(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[], const PetscInt faces[],
                                    PatchMaster *pm, PetscInt **nat)
{
  PetscInt nb, *flags, offset = 0, nface = 0;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCall(PetscCalloc1(6 * nb, &flags));
  PetscCall(SKContactPatchFaceFlags(comm, mesh, nsides, elements, faces, flags));
  for (PetscInt pass = 0; pass < 2; pass++) {
    offset = 0, nface = 0;
    for (PetscInt b = 0; b < nb; b++) {
      SKNURBSPatch patch;
      PetscInt ncp, nelem, nel[3], deg[3], ncp_d[3], pdim;
      PetscReal *weights;
      PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
      if (!patch) continue;
      PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
      PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, nel));
      PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, ncp_d));
      PetscCall(PetscMalloc1(ncp, &weights));
      PetscCall(SKNURBSPatchGetControlPoints(patch, NULL, weights));
      for (PetscInt f = 0; f < 4; f++) {
        const PetscInt df = f / 2, dt = 1 - df, p = deg[dt];
        const PetscReal *C;
        if (!flags[6 * b + f]) continue;
        if (pass == 0) {
          PetscCheck(pm->p == 0 || pm->p == p, comm, PETSC_ERR_ARG_WRONG,
                     "the master patch faces mix degrees %" PetscInt_FMT " and %" PetscInt_FMT " along the face", pm->p, p);
          pm->p = p, pm->nfn = p + 1;
          pm->nfaces += nel[dt];
          continue;
        }
        PetscCall(SKNURBSPatchGetExtraction(patch, dt, NULL, &C, NULL));
        for (PetscInt e = 0; e < nelem; e++) {
          PetscInt k[3], idx[SK_ELEMENT_MAX_NODES];
          PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
          if (k[df] != ((f % 2) ? nel[df] - 1 : 0)) continue;
          PetscCall(SKNURBSPatchGetElementControlPoints(patch, e, idx));
          for (PetscInt a = 0; a < pm->nfn; a++) {
            const PetscInt fixed = (f % 2) ? deg[df] : 0, loc = df == 0 ? a * (deg[0] + 1) + fixed : fixed * (deg[0] + 1) + a;
            (*nat)[nface * pm->nfn + a] = offset + idx[loc];
            pm->wt[nface * pm->nfn + a] = weights[idx[loc]];
            for (PetscInt i = 0; i < pm->nfn; i++) pm->C[(nface * pm->nfn + a) * pm->nfn + i] = C[(k[dt] * pm->nfn + a) * pm->nfn + i];
          }
          /* positive det(dX/dxi): the outward normal is (t_y, -t_x) on the right and bottom faces, the opposite on the others */
          pm->sign[nface] = (f == 1 || f == 2) ? 1.0 : -1.0;
          pm->ends[nface] = (k[dt] == 0 ? 1 : 0) | (k[dt] == nel[dt] - 1 ? 2 : 0);
          nface++;
        }
      }
      PetscCall(PetscFree(weights));
      offset += ncp;
    }
    if (pass == 0) {
      PetscCheck(pm->nfaces > 0, comm, PETSC_ERR_ARG_WRONG, "a NURBS master surface without faces");
      PetscCall(PetscMalloc4(pm->nfaces * pm->nfn, &pm->faces, pm->nfaces * pm->nfn * pm->nfn, &pm->C, pm->nfaces * pm->nfn, &pm->wt,
                             pm->nfaces, &pm->sign));
      PetscCall(PetscMalloc2(pm->nfaces, &pm->ends, pm->nfaces * 2 * pm->dim, &pm->box));
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
  PetscInt dim, *nat, *key, *seg, nseg = 0;
  SKContactSurface surface;

  PetscFunctionBegin;
  PetscCall(SKMeshGetDimension(mesh, &dim));
  PetscCheck(dim == 2, comm, PETSC_ERR_SUP, "NURBS patch faces as a deformable master surface: 2D only, not %" PetscInt_FMT "D", dim);
  PetscCall(PetscNew(&pm));
  pm->dim = dim;
  PetscCall(TabulateFaces(comm, mesh, nsides, elements, faces, pm, &nat));
  /* the carrier of the control points: the segments of the control polygon of the local sides' face elements (local
     nodes), keyed by natural element, face and segment */
  PetscCall(PetscMalloc2(nsides * pm->p, &key, nsides * pm->p * 2, &seg));
  for (PetscInt s = 0; s < nsides; s++) {
    PetscInt fn[SK_ELEMENT_MAX_NODES], n;
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &n, fn));
    for (PetscInt a = 0; a + 1 < n; a++) {
      key[nseg]         = (natural[fn[0]] * 8 + faces[s]) * 8 + a; /* unique: a face element's first node, its face, the segment */
      seg[2 * nseg]     = fn[a];
      seg[2 * nseg + 1] = fn[a + 1];
      nseg++;
    }
  }
  PetscCall(SKContactMeshSurfaceCreate(comm, dim, 2, nseg, key, seg, nlocal, nowned, natural, X, mass, &pm->ms));
  PetscCall(PetscFree2(key, seg));
  for (PetscInt k = 0; k < pm->nfaces * pm->nfn; k++) {
    pm->faces[k] = SKContactMeshSurfaceFindNode(pm->ms, nat[k]);
    PetscCheck(pm->faces[k] >= 0, comm, PETSC_ERR_PLIB, "control point %" PetscInt_FMT " of a master face is not on the carrier", nat[k]);
  }
  PetscCall(PetscFree(nat));
  /* reference: the weights int R_b dgamma of the control points (the step bound) and the smallest face length */
  {
    PetscReal xq[16], wq[16], *wb = pm->ms->w;
    const PetscInt nq = pm->p + 3;
    PetscCall(SKQuadratureGaussLegendre(nq, xq, wq));
    PetscCall(PetscArrayzero(wb, pm->ms->nnodes));
    pm->hmin = PETSC_MAX_REAL;
    for (PetscInt f = 0; f < pm->nfaces; f++) {
      PetscReal len = 0;
      for (PetscInt q = 0; q < nq; q++) {
        PetscReal R[PM_MAX_NODES], x[3], dx[3], d2x[3];
        FacePoint(pm, f, xq[q], pm->ms->xv, R, x, dx, d2x); /* xv holds the reference until the first update */
        const PetscReal j = PetscSqrtReal(dx[0] * dx[0] + dx[1] * dx[1]) * wq[q];
        len += j;
        for (PetscInt a = 0; a < pm->nfn; a++) wb[pm->faces[f * pm->nfn + a]] += R[a] * j;
      }
      pm->hmin = PetscMin(pm->hmin, len);
    }
    pm->margin = 0.75 * pm->hmin; /* as the mesh surface: a point farther from every face box is not in contact */
  }
  Boxes(pm);
  PetscCall(SKContactSurfaceCreate(comm, dim, &PatchMasterOps, pm, &surface));
  PetscCall(SKContactPairCreateWithNodeSurface(comm, dim, nlocal, nowned, natural, w, surface, pm->ms, pm->nfn, NULL, eps_n, law, cp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
