/* contact: the deformable master surface of a contact pair, the side set of another body (docs/theory.md, "Contact
   between deformable bodies"). The surface is replicated on every rank (faces over the master nodes in natural order),
   its nodes' current positions and velocities are gathered each force evaluation, candidate faces come from a bucket
   grid rebuilt when the master nodes have moved more than its margin allows, and the reactions of the slave nodes are
   summed back to the ranks that own the master nodes. */
#include "contactimpl.h"
#include "surfaceimpl.h"
#include <stickslip/fem.h>

static void FaceBoxes(SKContactMeshSurface);
static PetscErrorCode NodeFaces(SKContactMeshSurface);

/* Face (local node numbers FN[nfn]) of natural element EL, local face F, sorted by (EL, F): the gathered record. */
typedef struct {
  PetscInt key;   /* natural element * SK_MESH_SURFACE_MAX_FACES + local face */
  PetscInt first; /* offset of the face's natural node numbers in the gathered array */
} FaceKey;

#define SK_MESH_SURFACE_MAX_FACES 8 /* local faces per element, bound for the sort key */

static int CompareFaceKey(const void *a, const void *b)
{
  const PetscInt ka = ((const FaceKey *)a)->key, kb = ((const FaceKey *)b)->key;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

PetscErrorCode SKContactMeshSurfaceCreate(MPI_Comm comm, PetscInt dim, PetscInt nfn, PetscInt nsides, const PetscInt side_key[],
                                          const PetscInt side_nodes[], PetscInt nlocal, PetscInt nowned, const PetscInt natural[],
                                          const PetscReal X[], const PetscReal mass[], SKContactMeshSurface *msp)
{
  SKContactMeshSurface ms;
  PetscMPIInt size, *counts, *displs, mycount;
  PetscInt *keys, *nat, *sorted, ntotal, *perm, *lnat;
  PetscReal *coords, *buf;
  FaceKey *order;

  PetscFunctionBegin;
  PetscCheck((dim == 2 && nfn == 2) || (dim == 3 && (nfn == 3 || nfn == 4)), comm, PETSC_ERR_SUP,
             "Deformable contact surfaces take L2 faces in 2D and T3 or Q4 faces in 3D, not %" PetscInt_FMT "-node faces in %" PetscInt_FMT
             "D",
             nfn, dim);
  PetscCall(SKContactInitializePackage()); /* the log events */
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscNew(&ms));
  ms->size  = size;
  ms->comm  = comm;
  ms->dim   = dim;
  ms->nfn   = nfn;
  ms->refct = 1;
  /* gather every rank's faces (key, natural nodes, reference coordinates) */
  PetscCall(PetscMalloc2(size, &counts, size, &displs));
  PetscCall(PetscMPIIntCast(nsides, &mycount));
  PetscCallMPI(MPI_Allgather(&mycount, 1, MPI_INT, counts, 1, MPI_INT, comm));
  displs[0] = 0;
  for (PetscMPIInt r = 1; r < size; r++) displs[r] = displs[r - 1] + counts[r - 1];
  ntotal = displs[size - 1] + counts[size - 1];
  PetscCall(PetscMalloc3(ntotal, &keys, ntotal * nfn, &nat, ntotal * nfn * dim, &coords));
  PetscCallMPI(MPI_Allgatherv(side_key, mycount, MPIU_INT, keys, counts, displs, MPIU_INT, comm));
  {
    PetscInt *lnodes;
    PetscReal *lx;
    PetscCall(PetscMalloc2(nsides * nfn, &lnodes, nsides * nfn * dim, &lx));
    for (PetscInt s = 0; s < nsides * nfn; s++) {
      lnodes[s] = natural[side_nodes[s]];
      for (PetscInt d = 0; d < dim; d++) lx[s * dim + d] = X[side_nodes[s] * dim + d];
    }
    for (PetscMPIInt r = 0; r < size; r++) counts[r] *= (PetscMPIInt)nfn, displs[r] *= (PetscMPIInt)nfn;
    PetscCallMPI(MPI_Allgatherv(lnodes, mycount * (PetscMPIInt)nfn, MPIU_INT, nat, counts, displs, MPIU_INT, comm));
    for (PetscMPIInt r = 0; r < size; r++) counts[r] *= (PetscMPIInt)dim, displs[r] *= (PetscMPIInt)dim;
    PetscCallMPI(MPI_Allgatherv(lx, mycount * (PetscMPIInt)(nfn * dim), MPIU_REAL, coords, counts, displs, MPIU_REAL, comm));
    PetscCall(PetscFree2(lnodes, lx));
  }
  PetscCall(PetscFree2(counts, displs));
  /* faces in (natural element, face) order and nodes in natural order: the same surface whatever the partition */
  PetscCall(PetscMalloc1(ntotal, &order));
  for (PetscInt f = 0; f < ntotal; f++) order[f].key = keys[f], order[f].first = f * nfn;
  qsort(order, (size_t)ntotal, sizeof(*order), CompareFaceKey);
  PetscCall(PetscMalloc1(ntotal * nfn, &sorted));
  PetscCall(PetscArraycpy(sorted, nat, ntotal * nfn));
  ms->nnodes = ntotal * nfn;
  PetscCall(PetscSortRemoveDupsInt(&ms->nnodes, sorted));
  ms->nfaces = ntotal;
  PetscCall(PetscMalloc2(ntotal * nfn, &ms->faces, ntotal, &ms->face_key));
  PetscCall(PetscMalloc3(ms->nnodes, &ms->natural, ms->nnodes, &ms->local, ms->nnodes * dim, &ms->X0));
  PetscCall(PetscArraycpy(ms->natural, sorted, ms->nnodes));
  for (PetscInt f = 0; f < ntotal; f++) {
    ms->face_key[f] = order[f].key;
    for (PetscInt a = 0; a < nfn; a++) {
      PetscInt m;
      PetscCall(PetscFindInt(nat[order[f].first + a], ms->nnodes, ms->natural, &m));
      ms->faces[f * nfn + a] = m;
      for (PetscInt d = 0; d < dim; d++) ms->X0[m * dim + d] = coords[(order[f].first + a) * dim + d];
    }
  }
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(sorted));
  PetscCall(PetscFree3(keys, nat, coords));
  /* the owned copies of the master nodes on this rank, and the masses */
  PetscCall(PetscMalloc2(nowned, &lnat, nowned, &perm));
  for (PetscInt p = 0; p < nowned && p < nlocal; p++) lnat[p] = natural[p], perm[p] = p;
  PetscCall(PetscSortIntWithArray(nowned, lnat, perm));
  PetscCall(PetscCalloc1(ms->nnodes, &buf));
  for (PetscInt m = 0; m < ms->nnodes; m++) {
    PetscInt i;
    PetscCall(PetscFindInt(ms->natural[m], nowned, lnat, &i));
    ms->local[m] = i >= 0 ? perm[i] : -1;
    if (i >= 0) buf[m] = mass[perm[i]];
  }
  PetscCall(PetscFree2(lnat, perm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, buf, (PetscMPIInt)ms->nnodes, MPIU_REAL, MPIU_SUM, comm));
  ms->mass = buf;
  /* weights int N_b dA of the master nodes (reference), and the smallest and largest face sizes */
  PetscCall(PetscCalloc1(ms->nnodes, &ms->w));
  ms->hmin = PETSC_MAX_REAL;
  ms->hmax = 0;
  for (PetscInt f = 0; f < ms->nfaces; f++) {
    const PetscInt *fn = ms->faces + f * nfn;
    PetscReal h = 0, area = 0, wf[4];
    for (PetscInt a = 0; a < nfn; a++) {
      PetscReal e2 = 0;
      wf[a]        = 0;
      for (PetscInt d = 0; d < dim; d++) e2 += PetscSqr(ms->X0[fn[(a + 1) % nfn] * dim + d] - ms->X0[fn[a] * dim + d]);
      h = PetscMax(h, PetscSqrtReal(e2));
    }
    PetscCall(SKContactFaceWeights(dim, nfn, ms->X0, fn, wf));
    for (PetscInt a = 0; a < nfn; a++) ms->w[fn[a]] += wf[a], area += wf[a];
    ms->hmin = PetscMin(ms->hmin, dim == 2 ? area : PetscSqrtReal(area));
    ms->hmax = PetscMax(ms->hmax, h);
  }
  PetscCheck(ms->nfaces > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Deformable contact surface without faces");
  /* search: a point penetrating a face by at most depth still finds it while the master nodes have moved less than
     margin - depth since the grid was built */
  ms->depth  = 0.5 * ms->hmin;
  ms->margin = ms->hmin; /* a small margin keeps few faces per cell; the grid is rebuilt after moves of hmin / 2 */
  PetscCall(PetscMalloc5(ms->nnodes * 2 * dim, &ms->xv, ms->nnodes * dim, &ms->react, ms->nnodes * dim, &ms->xgrid, ms->nnodes * 2 * dim,
                         &ms->sendbuf, ms->nfaces * 2 * dim, &ms->fbox));
  for (PetscInt m = 0; m < ms->nnodes; m++) /* the reference configuration at rest until the first update */
    for (PetscInt d = 0; d < dim; d++) ms->xv[m * 2 * dim + d] = ms->X0[m * dim + d], ms->xv[m * 2 * dim + dim + d] = 0;
  FaceBoxes(ms);
  PetscCall(SKContactMeshSurfaceBuildGrid(ms));
  PetscCall(NodeFaces(ms)); /* the projection tells the surface's own boundary from a shared edge with it */
  *msp = ms;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceDestroy(SKContactMeshSurface *msp)
{
  SKContactMeshSurface ms = *msp;

  PetscFunctionBegin;
  *msp = NULL;
  if (!ms || --ms->refct > 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(ms->faces, ms->face_key));
  PetscCall(PetscFree3(ms->natural, ms->local, ms->X0));
  PetscCall(PetscFree(ms->mass));
  PetscCall(PetscFree(ms->w));
  PetscCall(PetscFree5(ms->xv, ms->react, ms->xgrid, ms->sendbuf, ms->fbox));
  PetscCall(PetscFree(ms->cstart)); /* two separate allocations */
  PetscCall(PetscFree(ms->cfaces));
  PetscCall(PetscFree(ms->slave_natural));
  PetscCall(PetscFree(ms->slave_buf));
  PetscCall(PetscFree(ms->nstart));
  PetscCall(PetscFree(ms->nfaces_of));
  PetscCall(PetscFree(ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactFaceWeights(PetscInt dim, PetscInt nfn, const PetscReal X[], const PetscInt fn[], PetscReal w[])
{
  PetscReal Xf[4 * 3];
  SKElementType type;
  PetscBool found;

  PetscFunctionBegin;
  /* the face integrals of an element whose face is this one: Q4 (L2 faces), T4 (T3), H8 (Q4) */
  PetscCall(SKElementTypeFromName(dim == 2 ? "Q4" : nfn == 3 ? "T4" : "H8", &type, &found));
  for (PetscInt a = 0; a < nfn; a++)
    for (PetscInt d = 0; d < dim; d++) Xf[a * dim + d] = X[fn[a] * dim + d];
  PetscCall(SKFEMFaceIntegrals(type, Xf, w, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bounding boxes of the faces at the positions in xv (after every change of xv: the search reads them). */
static void FaceBoxes(SKContactMeshSurface ms)
{
  const PetscInt dim = ms->dim, nfn = ms->nfn;
  for (PetscInt f = 0; f < ms->nfaces; f++)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal lo = PETSC_MAX_REAL, hi = PETSC_MIN_REAL;
      for (PetscInt a = 0; a < nfn; a++) {
        const PetscReal x = ms->xv[ms->faces[f * nfn + a] * 2 * dim + d];
        lo = PetscMin(lo, x), hi = PetscMax(hi, x);
      }
      ms->fbox[(f * dim + d) * 2] = lo, ms->fbox[(f * dim + d) * 2 + 1] = hi;
    }
}

/* Cell index of coordinate X along direction D, clamped to the grid. */
static PetscInt GridCell(const struct _p_SKContactMeshSurface *ms, PetscInt d, PetscReal x)
{
  const PetscReal c = PetscFloorReal((x - ms->lo[d]) / ms->cell);
  return c < 0 ? 0 : c >= ms->ncell[d] ? ms->ncell[d] - 1 : (PetscInt)c;
}

/* The bounding box of face F at the positions XV (2 dim per node) grown by PAD on every side, as cell ranges. */
static void FaceCells(const struct _p_SKContactMeshSurface *ms, PetscInt f, PetscReal pad, PetscInt c0[], PetscInt c1[])
{
  const PetscInt dim = ms->dim;
  for (PetscInt d = 0; d < dim; d++) {
    c0[d] = GridCell(ms, d, ms->fbox[(f * dim + d) * 2] - pad);
    c1[d] = GridCell(ms, d, ms->fbox[(f * dim + d) * 2 + 1] + pad);
  }
  for (PetscInt d = dim; d < 3; d++) c0[d] = c1[d] = 0;
}

PetscErrorCode SKContactMeshSurfaceBuildGrid(SKContactMeshSurface ms)
{
  const PetscInt dim = ms->dim;
  PetscReal hi[3]    = {0, 0, 0};
  PetscInt total     = 1, c0[3], c1[3];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_CONTACT_Grid, 0, 0, 0, 0));
  for (PetscInt d = 0; d < dim; d++) ms->lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
  for (PetscInt m = 0; m < ms->nnodes; m++)
    for (PetscInt d = 0; d < dim; d++) {
      const PetscReal x      = ms->xv[m * 2 * dim + d];
      ms->lo[d]              = PetscMin(ms->lo[d], x - ms->margin);
      hi[d]                  = PetscMax(hi[d], x + ms->margin);
      ms->xgrid[m * dim + d] = x;
    }
  /* cells of about the largest face, at most about 4 per face so that the grid stays O(n) */
  ms->cell = ms->hmax;
  for (;;) {
    total = 1;
    for (PetscInt d = 0; d < dim; d++) {
      ms->ncell[d] = (PetscInt)PetscCeilReal((hi[d] - ms->lo[d]) / ms->cell);
      if (ms->ncell[d] < 1) ms->ncell[d] = 1;
      total *= ms->ncell[d];
    }
    if (total <= 4 * ms->nfaces + 64) break;
    ms->cell *= 2;
  }
  for (PetscInt d = dim; d < 3; d++) ms->ncell[d] = 1;
  PetscCall(PetscFree(ms->cstart)); /* two separate allocations */
  PetscCall(PetscFree(ms->cfaces));
  PetscCall(PetscCalloc1(total + 1, &ms->cstart));
  /* two passes over the faces (count, then fill) into a CSR array: cell -> faces whose box grown by margin touches it */
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (PetscInt c = 0; c < total; c++) ms->cstart[c + 1] += ms->cstart[c];
      PetscCall(PetscMalloc1(ms->cstart[total], &ms->cfaces));
    }
    for (PetscInt f = 0; f < ms->nfaces; f++) {
      FaceCells(ms, f, ms->margin, c0, c1);
      for (PetscInt k = c0[2]; k <= c1[2]; k++)
        for (PetscInt j = c0[1]; j <= c1[1]; j++)
          for (PetscInt i = c0[0]; i <= c1[0]; i++) {
            const PetscInt c = (k * ms->ncell[1] + j) * ms->ncell[0] + i;
            if (pass == 0)
              ms->cstart[c + 1]++;
            else
              ms->cfaces[ms->cstart[c]++] = f;
          }
    }
    if (pass == 1) { /* the fill advanced each start to the next cell's: shift back */
      for (PetscInt c = total; c > 0; c--) ms->cstart[c] = ms->cstart[c - 1];
      ms->cstart[0] = 0;
    }
  }
  ms->nrebuild++;
  PetscCall(PetscLogEventEnd(SK_CONTACT_Grid, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceUpdate(SKContactMeshSurface ms, const PetscReal X[], const PetscReal u[], const PetscReal v[])
{
  const PetscInt dim = ms->dim;
  PetscReal move2    = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_CONTACT_Search, 0, 0, 0, 0));
  /* every master node's position and velocity from its owner; a sum with zeros elsewhere is exact */
  PetscCall(PetscArrayzero(ms->sendbuf, ms->nnodes * 2 * dim));
  for (PetscInt m = 0; m < ms->nnodes; m++) {
    const PetscInt p = ms->local[m];
    if (p < 0) continue;
    for (PetscInt d = 0; d < dim; d++) {
      ms->sendbuf[m * 2 * dim + d]       = X[p * dim + d] + u[p * dim + d];
      ms->sendbuf[m * 2 * dim + dim + d] = v[p * dim + d];
    }
  }
  /* one rank: no reduction (a collective costs about as much as this whole evaluation there) */
  if (ms->size > 1)
    PetscCallMPI(MPI_Allreduce(ms->sendbuf, ms->xv, (PetscMPIInt)(ms->nnodes * 2 * dim), MPIU_REAL, MPIU_SUM, ms->comm));
  else
    PetscCall(PetscArraycpy(ms->xv, ms->sendbuf, ms->nnodes * 2 * dim));
  FaceBoxes(ms);
  PetscCall(PetscArrayzero(ms->slave_buf, ms->nslave * ms->slave_width));
  for (PetscInt m = 0; m < ms->nnodes; m++) {
    PetscReal d2 = 0;
    for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(ms->xv[m * 2 * dim + d] - ms->xgrid[m * dim + d]);
    move2 = PetscMax(move2, d2);
  }
  PetscCall(PetscLogEventEnd(SK_CONTACT_Search, 0, 0, 0, 0));
  /* the same on every rank (xv is replicated): no reduction needed for the decision */
  if (PetscSqrtReal(move2) > ms->margin - ms->depth) PetscCall(SKContactMeshSurfaceBuildGrid(ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKContactMeshSurfacePackGrid(SKContactMeshSurface ms, PetscInt width, PetscInt offset, PetscReal nodal[])
{
  for (PetscInt m = 0; m < ms->nnodes; m++)
    if (ms->local[m] >= 0)
      for (PetscInt d = 0; d < ms->dim; d++) nodal[ms->local[m] * width + offset + d] = ms->xgrid[m * ms->dim + d];
}

PetscErrorCode SKContactMeshSurfaceUnpackGrid(SKContactMeshSurface ms, PetscInt width, PetscInt offset, const PetscReal nodal[])
{
  const PetscInt dim = ms->dim;

  PetscFunctionBegin;
  /* the build reads the positions in xv: the grid's positions there (the next evaluation gathers the current ones) */
  PetscCall(PetscArrayzero(ms->sendbuf, ms->nnodes * 2 * dim));
  for (PetscInt m = 0; m < ms->nnodes; m++)
    if (ms->local[m] >= 0)
      for (PetscInt d = 0; d < dim; d++) ms->sendbuf[m * 2 * dim + d] = nodal[ms->local[m] * width + offset + d];
  if (ms->size > 1)
    PetscCallMPI(MPI_Allreduce(ms->sendbuf, ms->xv, (PetscMPIInt)(ms->nnodes * 2 * dim), MPIU_REAL, MPIU_SUM, ms->comm));
  else
    PetscCall(PetscArraycpy(ms->xv, ms->sendbuf, ms->nnodes * 2 * dim));
  FaceBoxes(ms);
  PetscCall(SKContactMeshSurfaceBuildGrid(ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closest point of X on face F: parameters XI[dim - 1] of the face, shape values N[nfn] there, point XB, unit outward
   normal NRM (of the face's plane, or of the segment in 2D; Q4 at the point). Returns the squared distance. Pure. */
static PetscReal ProjectFace(const struct _p_SKContactMeshSurface *ms, PetscInt f, const PetscReal x[], PetscReal N[], PetscReal xb[],
                             PetscReal nrm[], PetscBool *inside)
{
  const PetscInt dim = ms->dim, nfn = ms->nfn, *fn = ms->faces + f * nfn;
  const PetscReal *xv = ms->xv;
  PetscReal d2        = 0, len;

#define XN(a, d) xv[fn[a] * 2 * dim + (d)]
  if (dim == 2) {
    const PetscReal t[2] = {XN(1, 0) - XN(0, 0), XN(1, 1) - XN(0, 1)}, L2 = t[0] * t[0] + t[1] * t[1];
    PetscReal s = ((x[0] - XN(0, 0)) * t[0] + (x[1] - XN(0, 1)) * t[1]) / L2;
    *inside     = (PetscBool)(s >= 0 && s <= 1);
    s           = PetscMin(PetscMax(s, 0.0), 1.0);
    N[0] = 1 - s, N[1] = s;
    len    = PetscSqrtReal(L2);
    nrm[0] = t[1] / len, nrm[1] = -t[0] / len; /* the element lies to the left of the edge */
  } else if (nfn == 3) {
    /* plane of the triangle, barycentric coordinates clamped to it */
    PetscReal e1[3], e2[3], r[3], a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0, det, s, q;
    for (PetscInt d = 0; d < 3; d++) {
      e1[d] = XN(1, d) - XN(0, d), e2[d] = XN(2, d) - XN(0, d), r[d] = x[d] - XN(0, d);
      a11 += e1[d] * e1[d], a12 += e1[d] * e2[d], a22 += e2[d] * e2[d], b1 += r[d] * e1[d], b2 += r[d] * e2[d];
    }
    det     = a11 * a22 - a12 * a12;
    s       = (a22 * b1 - a12 * b2) / det;
    q       = (a11 * b2 - a12 * b1) / det;
    *inside = (PetscBool)(s >= 0 && q >= 0 && s + q <= 1);
    s = PetscMax(s, 0.0), q = PetscMax(q, 0.0);
    if (s + q > 1) s /= s + q, q = 1 - s;
    N[0] = 1 - s - q, N[1] = s, N[2] = q;
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1], nrm[1] = e1[2] * e2[0] - e1[0] * e2[2], nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    for (PetscInt d = 0; d < 3; d++) nrm[d] /= len;
  } else { /* bilinear Q4: Newton on the parameters from the centre, clamped to [-1, 1]^2 */
    PetscReal xi[2] = {0, 0}, t1[3], t2[3];
    for (PetscInt it = 0; it < SK_SURFACE_MAX_IT; it++) {
      const PetscReal sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
      PetscReal p[3] = {0, 0, 0}, g1 = 0, g2 = 0, h11 = 0, h12 = 0, h22 = 0, det, dx, dy;
      for (PetscInt d = 0; d < 3; d++) t1[d] = t2[d] = 0;
      for (PetscInt a = 0; a < 4; a++) {
        N[a]                = 0.25 * (1 + sx[a] * xi[0]) * (1 + sy[a] * xi[1]);
        const PetscReal dNx = 0.25 * sx[a] * (1 + sy[a] * xi[1]), dNy = 0.25 * sy[a] * (1 + sx[a] * xi[0]);
        for (PetscInt d = 0; d < 3; d++) p[d] += N[a] * XN(a, d), t1[d] += dNx * XN(a, d), t2[d] += dNy * XN(a, d);
      }
      for (PetscInt d = 0; d < 3; d++) {
        const PetscReal r = x[d] - p[d];
        g1 += r * t1[d], g2 += r * t2[d], h11 += t1[d] * t1[d], h12 += t1[d] * t2[d], h22 += t2[d] * t2[d];
      }
      det = h11 * h22 - h12 * h12;
      dx  = (h22 * g1 - h12 * g2) / det;
      dy  = (h11 * g2 - h12 * g1) / det;
      xi[0] += dx, xi[1] += dy;
      if (PetscAbsReal(dx) + PetscAbsReal(dy) < 1e-13 * (1 + PetscAbsReal(xi[0]) + PetscAbsReal(xi[1])))
        break; /* relative: far points have |xi| >> 1 */
    }
    *inside = (PetscBool)(PetscAbsReal(xi[0]) <= 1 && PetscAbsReal(xi[1]) <= 1);
    xi[0] = PetscMin(PetscMax(xi[0], -1.0), 1.0), xi[1] = PetscMin(PetscMax(xi[1], -1.0), 1.0);
    {
      const PetscReal sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
      for (PetscInt d = 0; d < 3; d++) t1[d] = t2[d] = 0;
      for (PetscInt a = 0; a < 4; a++) {
        N[a] = 0.25 * (1 + sx[a] * xi[0]) * (1 + sy[a] * xi[1]);
        for (PetscInt d = 0; d < 3; d++)
          t1[d] += 0.25 * sx[a] * (1 + sy[a] * xi[1]) * XN(a, d), t2[d] += 0.25 * sy[a] * (1 + sx[a] * xi[0]) * XN(a, d);
      }
    }
    nrm[0] = t1[1] * t2[2] - t1[2] * t2[1], nrm[1] = t1[2] * t2[0] - t1[0] * t2[2], nrm[2] = t1[0] * t2[1] - t1[1] * t2[0];
    len = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    for (PetscInt d = 0; d < 3; d++) nrm[d] /= len;
  }
  for (PetscInt d = 0; d < dim; d++) {
    xb[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) xb[d] += N[a] * XN(a, d);
    d2 += PetscSqr(x[d] - xb[d]);
  }
#undef XN
  return d2;
}

/* Squared distance from X to the bounding box of face F (0 inside it). Pure. */
static inline PetscReal FaceBoxDistance2(const struct _p_SKContactMeshSurface *ms, PetscInt f, const PetscReal x[])
{
  PetscReal d2 = 0;
  for (PetscInt d = 0; d < ms->dim; d++) {
    const PetscReal lo = ms->fbox[(f * ms->dim + d) * 2], hi = ms->fbox[(f * ms->dim + d) * 2 + 1];
    if (x[d] < lo)
      d2 += PetscSqr(lo - x[d]);
    else if (x[d] > hi)
      d2 += PetscSqr(x[d] - hi);
  }
  return d2;
}

/* Whether master nodes A and B (surface numbers) are both nodes of a face other than F. */
static PetscBool SharedWithAnotherFace(const struct _p_SKContactMeshSurface *ms, PetscInt f, PetscInt a, PetscInt b)
{
  for (PetscInt k = ms->nstart[a]; k < ms->nstart[a + 1]; k++) {
    const PetscInt g = ms->nfaces_of[k];
    if (g == f) continue;
    for (PetscInt c = 0; c < ms->nfn; c++)
      if (ms->faces[g * ms->nfn + c] == b) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* A point whose projection onto face F was clamped to the face's boundary, with shape values N there: does that
   boundary point lie on the boundary of the whole master surface (an end node in 2D, an edge of one face only in 3D)?
   Then the point is past the end of the surface, not over it. */
static PetscBool ClampedToSurfaceBoundary(const struct _p_SKContactMeshSurface *ms, PetscInt f, const PetscReal N[])
{
  const PetscInt nfn = ms->nfn, *fn = ms->faces + f * nfn;
  PetscInt on[4], n                 = 0;

  for (PetscInt a = 0; a < nfn; a++)
    if (N[a] > 1e-12) on[n++] = a;
  if (ms->dim == 2) return (PetscBool)(n == 1 && ms->nstart[fn[on[0]] + 1] - ms->nstart[fn[on[0]]] == 1);
  if (n == 2) return (PetscBool)!SharedWithAnotherFace(ms, f, fn[on[0]], fn[on[1]]); /* on an edge of the face */
  if (n == 1) { /* at a corner: on the boundary when one of the face's two edges through it is */
    const PetscInt a = on[0], prev = fn[(a + nfn - 1) % nfn], next = fn[(a + 1) % nfn];
    return (PetscBool)(!SharedWithAnotherFace(ms, f, fn[a], prev) || !SharedWithAnotherFace(ms, f, fn[a], next));
  }
  return PETSC_FALSE;
}

PetscBool SKContactMeshSurfaceProject(SKContactMeshSurface ms, const PetscReal x[], SKSurfaceProjection *p, SKContactSupport *s)
{
  const PetscInt dim = ms->dim, nfn = ms->nfn;
  PetscInt c = 0, best = -1, first = -1;
  PetscReal best_d2 = PETSC_MAX_REAL, first_d2 = PETSC_MAX_REAL, N[4], xb[3], nrm[3], tol;
  PetscBool best_inside = PETSC_FALSE, inside;

  *p      = (SKSurfaceProjection){.distance = PETSC_MAX_REAL, .exact = PETSC_FALSE}; /* no face near: no force, a finite frame */
  s->face = -1;
  for (PetscInt d = 0; d < dim; d++) {
    const PetscReal r = (x[d] - ms->lo[d]) / ms->cell;
    if (r < 0 || r >= ms->ncell[d]) return PETSC_TRUE; /* outside the grid: farther than the margin from every face */
  }
  for (PetscInt d = dim - 1; d >= 0; d--) c = c * ms->ncell[d] + GridCell(ms, d, x[d]);
  tol = 1e-20 * ms->hmax * ms->hmax;
  /* the face whose bounding box is nearest first: its distance then skips the projection of most other candidates */
  for (PetscInt k = ms->cstart[c]; k < ms->cstart[c + 1]; k++) {
    const PetscReal d2 = FaceBoxDistance2(ms, ms->cfaces[k], x);
    if (d2 < first_d2) first = k, first_d2 = d2;
  }
  /* j = cstart[c] - 1 is that face, then every other candidate in the cell's order */
  for (PetscInt j = first < 0 ? ms->cstart[c] : ms->cstart[c] - 1; j < ms->cstart[c + 1]; j++) {
    const PetscInt f = ms->cfaces[j < ms->cstart[c] ? first : j];
    PetscReal d2;

    if (j == first) continue;
    /* a face whose bounding box is farther than the best face so far cannot be nearer: skip its projection */
    if (FaceBoxDistance2(ms, f, x) > best_d2 + tol) continue;
    d2 = ProjectFace(ms, f, x, N, xb, nrm, &inside);
    /* the nearest face; among equally near ones (a shared node) the one the point projects inside */
    if (d2 < best_d2 - tol || (d2 <= best_d2 + tol && inside && !best_inside)) {
      best = f, best_d2 = d2, best_inside = inside;
      for (PetscInt a = 0; a < nfn; a++) s->N[a] = N[a];
      for (PetscInt d = 0; d < dim; d++) p->point[d] = xb[d], p->normal[d] = nrm[d];
    }
  }
  if (best < 0) return PETSC_TRUE;
  s->face = best;
  s->n    = nfn;
  for (PetscInt a = 0; a < nfn; a++) s->node[a] = ms->faces[best * nfn + a];
  p->distance = 0;
  for (PetscInt d = 0; d < dim; d++) {
    p->distance += (x[d] - p->point[d]) * p->normal[d];
    p->velocity[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) p->velocity[d] += s->N[a] * ms->xv[s->node[a] * 2 * dim + dim + d];
  }
  /* past the end of the master surface (the nearest point is on its boundary and the point projects onto no face): its
     distance is the true one, not the distance to the plane of the last face, which would press a slave node that
     has slid off the end as if the surface went on (docs/theory.md, "Contact between deformable bodies") */
  if (!best_inside && ClampedToSurfaceBoundary(ms, best, s->N)) {
    /* beyond the boundary along the surface by more than 1 % of the smallest face: slave and master ends that coincide
       (a patch test, bars meeting face to face) stay in contact through round-off */
    PetscReal along2 = 0;
    for (PetscInt d = 0; d < dim; d++) along2 += PetscSqr((x[d] - p->point[d]) - p->distance * p->normal[d]);
    if (along2 > PetscSqr(1e-2 * ms->hmin)) p->distance = PetscSqrtReal(best_d2);
  }
  p->exact = PETSC_TRUE;
  {
    const PetscReal e[3] = {1, 0, 0};
    SKSurfaceTangents(dim, p->normal, e, p->tangent);
  }
  return PETSC_TRUE;
}

PetscErrorCode SKContactMeshSurfaceSetSlaves(SKContactMeshSurface ms, PetscInt n, const PetscInt natural[], PetscInt slot[])
{
  PetscMPIInt size, mycount, *counts, *displs;
  PetscInt total;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(ms->comm, &size));
  PetscCall(PetscMalloc2(size, &counts, size, &displs));
  PetscCall(PetscMPIIntCast(n, &mycount));
  PetscCallMPI(MPI_Allgather(&mycount, 1, MPI_INT, counts, 1, MPI_INT, ms->comm));
  displs[0] = 0;
  for (PetscMPIInt r = 1; r < size; r++) displs[r] = displs[r - 1] + counts[r - 1];
  total = displs[size - 1] + counts[size - 1];
  PetscCall(PetscFree(ms->slave_natural));
  PetscCall(PetscFree(ms->slave_buf));
  PetscCall(PetscMalloc1(total, &ms->slave_natural));
  PetscCallMPI(MPI_Allgatherv(natural, mycount, MPIU_INT, ms->slave_natural, counts, displs, MPIU_INT, ms->comm));
  PetscCall(PetscFree2(counts, displs));
  ms->nslave = total;
  PetscCall(PetscSortRemoveDupsInt(&ms->nslave, ms->slave_natural));
  PetscCheck(ms->nslave == total, ms->comm, PETSC_ERR_PLIB, "A slave node is owned twice");
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFindInt(natural[i], ms->nslave, ms->slave_natural, &slot[i]));
  ms->slave_width = 1 + 2 * SK_CONTACT_MAX_SUPPORT + ms->dim;
  PetscCall(PetscMalloc1(ms->nslave * ms->slave_width, &ms->slave_buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKContactMeshSurfaceReact(SKContactMeshSurface ms, PetscInt slot, const SKContactSupport *s, const PetscReal force[])
{
  PetscReal *row = ms->slave_buf + slot * ms->slave_width;

  row[0] = (PetscReal)s->n;
  for (PetscInt k = 0; k < s->n; k++) row[1 + k] = (PetscReal)s->node[k], row[1 + SK_CONTACT_MAX_SUPPORT + k] = s->N[k];
  for (PetscInt d = 0; d < ms->dim; d++) row[1 + 2 * SK_CONTACT_MAX_SUPPORT + d] = force[d];
}

PetscErrorCode SKContactMeshSurfaceAddReactions(SKContactMeshSurface ms, PetscReal f[])
{
  const PetscInt dim = ms->dim, width = ms->slave_width, M = SK_CONTACT_MAX_SUPPORT;

  PetscFunctionBegin;
  /* every slave node's row comes from its owner (a sum with zeros elsewhere is exact); the reactions are then summed
     in the global order of the slave nodes on every rank: the same sums whatever the partition */
  if (ms->size > 1)
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, ms->slave_buf, (PetscMPIInt)(ms->nslave * width), MPIU_REAL, MPIU_SUM, ms->comm));
  PetscCall(PetscArrayzero(ms->react, ms->nnodes * dim));
  for (PetscInt i = 0; i < ms->nslave; i++) {
    const PetscReal *row = ms->slave_buf + i * width;
    for (PetscInt k = 0; k < (PetscInt)row[0]; k++)
      for (PetscInt d = 0; d < dim; d++) ms->react[(PetscInt)row[1 + k] * dim + d] -= row[1 + M + k] * row[1 + 2 * M + d];
  }
  for (PetscInt m = 0; m < ms->nnodes; m++) {
    const PetscInt p = ms->local[m];
    if (p < 0) continue;
    for (PetscInt d = 0; d < dim; d++) f[p * dim + d] += ms->react[m * dim + d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt SKContactMeshSurfaceFindNode(SKContactMeshSurface ms, PetscInt natural)
{
  PetscInt lo = 0, hi = ms->nnodes - 1;
  while (lo <= hi) {
    const PetscInt mid = (lo + hi) / 2;
    if (ms->natural[mid] == natural) return mid;
    if (ms->natural[mid] < natural)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* The faces of each node of MS (CSR), built once. */
static PetscErrorCode NodeFaces(SKContactMeshSurface ms)
{
  PetscFunctionBegin;
  if (ms->nstart) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1(ms->nnodes + 1, &ms->nstart));
  PetscCall(PetscMalloc1(ms->nfaces * ms->nfn, &ms->nfaces_of));
  for (PetscInt k = 0; k < ms->nfaces * ms->nfn; k++) ms->nstart[ms->faces[k] + 1]++;
  for (PetscInt m = 0; m < ms->nnodes; m++) ms->nstart[m + 1] += ms->nstart[m];
  for (PetscInt f = 0; f < ms->nfaces; f++)
    for (PetscInt a = 0; a < ms->nfn; a++) ms->nfaces_of[ms->nstart[ms->faces[f * ms->nfn + a]]++] = f;
  for (PetscInt m = ms->nnodes; m > 0; m--) ms->nstart[m] = ms->nstart[m - 1];
  ms->nstart[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Adds WEIGHT to master node B's share in S (a new entry if needed); PETSC_FALSE when S is full. */
static PetscBool SupportAdd(SKContactSupport *s, PetscInt b, PetscReal weight)
{
  for (PetscInt k = 0; k < s->n; k++)
    if (s->node[k] == b) {
      s->N[k] += weight;
      return PETSC_TRUE;
    }
  if (s->n == SK_CONTACT_MAX_SUPPORT) return PETSC_FALSE;
  s->node[s->n] = b, s->N[s->n++] = weight;
  return PETSC_TRUE;
}

PetscErrorCode SKContactMeshSurfaceMortar(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a, SKContactSupport *s)
{
  const PetscReal gx[2] = {0.5 - 0.5 / PetscSqrtReal(3.0), 0.5 + 0.5 / PetscSqrtReal(3.0)}; /* Gauss 2 on [0, 1] */
  SKContactSupport m    = {-1, 0, {0}, {0}};
  PetscReal total       = 0;
  PetscBool ok          = PETSC_TRUE;

  PetscFunctionBegin;
  if (master->dim != 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(NodeFaces(slave));
  for (PetscInt k = slave->nstart[a]; k < slave->nstart[a + 1] && ok; k++) {
    const PetscInt f = slave->nfaces_of[k], *fn = slave->faces + 2 * f, la = fn[0] == a ? 0 : 1;
    const PetscReal *x0 = slave->xv + fn[0] * 4, *x1 = slave->xv + fn[1] * 4;
    const PetscReal t[2] = {x1[0] - x0[0], x1[1] - x0[1]}, L2 = t[0] * t[0] + t[1] * t[1], len = PetscSqrtReal(L2);
    PetscReal cut[2 + 2 * SK_CONTACT_MAX_SUPPORT];
    PetscInt ncut = 0;

    /* breakpoints: the projections onto the slave face of the nodes of the master faces near its Gauss points and ends */
    cut[ncut++] = 0;
    for (PetscInt q = 0; q <= 4; q++) {
      const PetscReal z = 0.25 * q, x[2] = {x0[0] + z * t[0], x0[1] + z * t[1]};
      SKSurfaceProjection p;
      SKContactSupport ps;
      (void)SKContactMeshSurfaceProject(master, x, &p, &ps);
      for (PetscInt j = 0; j < ps.n && ps.face >= 0; j++) {
        const PetscReal *xb = master->xv + ps.node[j] * 4, zb = ((xb[0] - x0[0]) * t[0] + (xb[1] - x0[1]) * t[1]) / L2;
        PetscBool seen = PETSC_FALSE;
        if (zb <= 0 || zb >= 1) continue;
        for (PetscInt c = 0; c < ncut; c++) seen = (PetscBool)(seen || PetscAbsReal(cut[c] - zb) < 1e-12);
        if (!seen && ncut < 1 + 2 * SK_CONTACT_MAX_SUPPORT) cut[ncut++] = zb;
      }
    }
    cut[ncut++] = 1;
    PetscCall(PetscSortReal(ncut, cut));
    for (PetscInt c = 0; c + 1 < ncut && ok; c++)
      for (PetscInt q = 0; q < 2 && ok; q++) {
        const PetscReal z = cut[c] + gx[q] * (cut[c + 1] - cut[c]), x[2] = {x0[0] + z * t[0], x0[1] + z * t[1]};
        const PetscReal Na = la == 0 ? 1 - z : z, wq = 0.5 * (cut[c + 1] - cut[c]) * len * Na;
        SKSurfaceProjection p;
        SKContactSupport ps;
        (void)SKContactMeshSurfaceProject(master, x, &p, &ps);
        if (ps.face < 0) continue;
        {
          /* only points over the inside of a master face carry: the pieces past its ends have no partner */
          const PetscInt *mf  = master->faces + 2 * ps.face;
          const PetscReal *m0 = master->xv + mf[0] * 4, *m1 = master->xv + mf[1] * 4;
          const PetscReal tm[2] = {m1[0] - m0[0], m1[1] - m0[1]},
                          zm    = ((x[0] - m0[0]) * tm[0] + (x[1] - m0[1]) * tm[1]) / (tm[0] * tm[0] + tm[1] * tm[1]);
          if (zm < 0 || zm > 1) continue;
        }
        for (PetscInt j = 0; j < ps.n && ok; j++) ok = SupportAdd(&m, ps.node[j], wq * ps.N[j]);
        total += wq;
      }
  }
  if (!ok || total <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m.n; k++) m.N[k] /= total;
  m.face = s->face;
  *s     = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceGetOmega2(SKContactMeshSurface ms, PetscReal eps_n, PetscReal ws, PetscReal kt, PetscReal *omega2,
                                             PetscReal *minv_max)
{
  PetscReal w2 = 0, mi = 0;

  PetscFunctionBegin;
  /* the slave weight a master node b carries, sum_a w_a N_b(xi_a), is int N_b dA = w_b up to the sampling error of the
     slave nodes, at most one slave weight WS */
  for (PetscInt m = 0; m < ms->nnodes; m++)
    if (ms->mass[m] > 0) w2 = PetscMax(w2, (eps_n * (ms->w[m] + ws) + kt) / ms->mass[m]), mi = PetscMax(mi, 1 / ms->mass[m]);
  *omega2 = w2;
  if (minv_max) *minv_max = mi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceGetInfo(SKContactMeshSurface ms, PetscInt *nnodes, PetscInt *nfaces, PetscReal *depth,
                                           PetscInt *nrebuild)
{
  PetscFunctionBegin;
  if (nnodes) *nnodes = ms->nnodes;
  if (nfaces) *nfaces = ms->nfaces;
  if (depth) *depth = ms->depth;
  if (nrebuild) *nrebuild = ms->nrebuild;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceDistance(SKContactMeshSurface ms, PetscInt n, const PetscReal pts[], PetscReal dist[])
{
  SKSurfaceProjection p;
  SKContactSupport s;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    (void)SKContactMeshSurfaceProject(ms, pts + i * ms->dim, &p, &s);
    dist[i] = p.distance;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceGetFaceKeys(SKContactMeshSurface ms, PetscInt *nfaces, const PetscInt *keys[])
{
  PetscFunctionBegin;
  *nfaces = ms->nfaces;
  *keys   = ms->face_key;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceReference(SKContactMeshSurface ms)
{
  PetscFunctionBegin;
  ms->refct++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
