/* contact: the deformable master surface of a contact pair, the side set of another body (docs/theory.md, "Contact
   between deformable bodies"). The surface is replicated on every rank (faces over the master nodes in natural order),
   its nodes' current positions and velocities are gathered each force evaluation, candidate faces come from a bucket
   grid rebuilt when the master nodes have moved more than its margin allows, and the reactions of the slave nodes are
   summed back to the ranks that own the master nodes. */
#include "contactimpl.h"
#include "surfaceimpl.h"
#include <stickslip/fem.h>

static void FaceBoxes(SKContactMeshSurface);

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
  ms->margin = 0.75 * ms->hmin; /* a small margin keeps few faces per cell; the grid is rebuilt after moves of hmin / 4 */
  PetscCall(PetscMalloc5(ms->nnodes * 2 * dim, &ms->xv, ms->nnodes * dim, &ms->react, ms->nnodes * dim, &ms->xgrid, ms->nnodes * 2 * dim,
                         &ms->sendbuf, ms->nfaces * 2 * dim, &ms->fbox));
  for (PetscInt m = 0; m < ms->nnodes; m++) /* the reference configuration at rest until the first update */
    for (PetscInt d = 0; d < dim; d++) ms->xv[m * 2 * dim + d] = ms->X0[m * dim + d], ms->xv[m * 2 * dim + dim + d] = 0;
  FaceBoxes(ms);
  PetscCall(SKContactMeshSurfaceBuildGrid(ms));
  PetscCall(SKContactMeshSurfaceNodeFaces(ms)); /* the projection tells the surface's own boundary from a shared edge with it */
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
  PetscCall(SKContactGridDestroy(&ms->grid));
  PetscCall(PetscFree(ms->cand_d2));
  PetscCall(PetscFree(ms->slave_natural));
  PetscCall(PetscFree(ms->slave_buf));
  PetscCall(PetscFree(ms->nstart));
  PetscCall(PetscFree(ms->nfaces_of));
  PetscCall(SKContactMortarCacheDestroy(&ms->mortar));
  PetscCall(PetscFree(ms->mortar_restore));
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
static PetscInt GridCell(const SKContactGrid *g, PetscInt d, PetscReal x)
{
  const PetscReal c = PetscFloorReal((x - g->lo[d]) * g->inv_cell);
  return c < 0 ? 0 : c >= g->ncell[d] ? g->ncell[d] - 1 : (PetscInt)c;
}

PetscErrorCode SKContactGridFill(SKContactGrid *g, PetscInt dim, PetscInt n, const PetscReal box[], PetscInt stride, PetscReal pad)
{
  const PetscInt total = g->ncell[0] * g->ncell[1] * g->ncell[2];
  PetscInt c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};

  PetscFunctionBegin;
  if (total + 1 > g->mcells) {
    PetscCall(PetscFree(g->cstart));
    PetscCall(PetscMalloc1(total + 1, &g->cstart));
    g->mcells = total + 1;
  }
  PetscCall(PetscArrayzero(g->cstart, total + 1));
  /* two passes over the boxes (count, then fill) into a CSR array: cell -> boxes whose box grown by pad touches it */
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (PetscInt c = 0; c < total; c++) g->cstart[c + 1] += g->cstart[c];
      if (g->cstart[total] > g->mfaces) {
        PetscCall(PetscFree(g->cfaces));
        PetscCall(PetscMalloc1(g->cstart[total], &g->cfaces));
        g->mfaces = g->cstart[total];
      }
    }
    for (PetscInt f = 0; f < n; f++) {
      for (PetscInt d = 0; d < dim; d++) {
        c0[d] = GridCell(g, d, box[f * stride + 2 * d] - pad);
        c1[d] = GridCell(g, d, box[f * stride + 2 * d + 1] + pad);
      }
      for (PetscInt k = c0[2]; k <= c1[2]; k++)
        for (PetscInt j = c0[1]; j <= c1[1]; j++)
          for (PetscInt i = c0[0]; i <= c1[0]; i++) {
            const PetscInt c = (k * g->ncell[1] + j) * g->ncell[0] + i;
            if (pass == 0)
              g->cstart[c + 1]++;
            else
              g->cfaces[g->cstart[c]++] = f;
          }
    }
    if (pass == 1) { /* the fill advanced each start to the next cell's: shift back */
      for (PetscInt c = total; c > 0; c--) g->cstart[c] = g->cstart[c - 1];
      g->cstart[0] = 0;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactGridDestroy(SKContactGrid *g)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(g->cstart));
  PetscCall(PetscFree(g->cfaces));
  g->mcells = g->mfaces = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceBuildGrid(SKContactMeshSurface ms)
{
  const PetscInt dim = ms->dim;
  PetscReal hi[3]    = {0, 0, 0};
  PetscInt total = 1, fullest = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_CONTACT_Grid, 0, 0, 0, 0));
  for (PetscInt d = 0; d < dim; d++) ms->grid.lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
  for (PetscInt m = 0; m < ms->nnodes; m++)
    for (PetscInt d = 0; d < dim; d++) {
      const PetscReal x      = ms->xv[m * 2 * dim + d];
      ms->grid.lo[d]         = PetscMin(ms->grid.lo[d], x - ms->margin);
      hi[d]                  = PetscMax(hi[d], x + ms->margin);
      ms->xgrid[m * dim + d] = x;
    }
  /* cells of half the longest edge, at most about 16 per face so that the grid stays O(n) */
  ms->grid.cell = 0.5 * ms->hmax;
  for (;;) {
    total = 1;
    for (PetscInt d = 0; d < dim; d++) {
      ms->grid.ncell[d] = (PetscInt)PetscCeilReal((hi[d] - ms->grid.lo[d]) / ms->grid.cell);
      if (ms->grid.ncell[d] < 1) ms->grid.ncell[d] = 1;
      total *= ms->grid.ncell[d];
    }
    if (total <= 16 * ms->nfaces + 64) break;
    ms->grid.cell *= 2;
  }
  ms->grid.inv_cell = 1 / ms->grid.cell; /* the cell of a point: a product, not a division, in the search */
  for (PetscInt d = dim; d < 3; d++) ms->grid.ncell[d] = 1;
  PetscCall(SKContactGridFill(&ms->grid, dim, ms->nfaces, ms->fbox, 2 * dim, ms->margin));
  for (PetscInt c = 0; c < total; c++) fullest = PetscMax(fullest, ms->grid.cstart[c + 1] - ms->grid.cstart[c]);
  if (fullest > ms->ncand) { /* room for the box distances of the candidates of any cell, for a block of points (the search's scratch) */
    PetscCall(PetscFree(ms->cand_d2));
    PetscCall(PetscMalloc1(SK_CONTACT_PROJECT_BLOCK * fullest, &ms->cand_d2));
    ms->ncand = fullest;
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
  ms->nupdate++;
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
  /* no slave node in contact yet: its row's count is zero; on several ranks the rows are summed, so all of them */
  if (ms->size > 1)
    PetscCall(PetscArrayzero(ms->slave_buf, ms->nslave * ms->slave_width));
  else
    for (PetscInt i = 0; i < ms->nslave; i++) ms->slave_buf[i * ms->slave_width] = 0;
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

/* The projection of a point onto one face: squared distance, shape values N[nfn] there, point XB, unit outward normal
   NRM (of the face's plane, or of the segment in 2D; Q4 at the point), whether the point projects inside the face */
typedef struct {
  PetscReal d2, N[4], xb[3], nrm[3];
  PetscBool inside;
} FaceProjection;

/* ProjectFace() onto bilinear quadrilaterals (x(xi) = a + b xi1 + c xi2 + e xi1 xi2) of the WIDTH points X[WIDTH * 3]
   onto their faces F[WIDTH], into FP[WIDTH]: Gauss-Newton on the parameters from the centre, clamped to [-1, 1]^2. The
   points go lane by lane through loops of constant length WIDTH (1, or SK_CONTACT_PROJECT_BLOCK) that the compiler
   vectorises; every lane does the same arithmetic as a single point, and a lane that has converged keeps its
   parameters while the others iterate. Pure. */
static inline void ProjectQ4(const struct _p_SKContactMeshSurface *ms, const PetscInt f[], const PetscReal x[], FaceProjection fp[],
                             const PetscInt width)
{
  const PetscReal *xv = ms->xv;
  PetscReal a[3][SK_CONTACT_PROJECT_BLOCK], b[3][SK_CONTACT_PROJECT_BLOCK], c[3][SK_CONTACT_PROJECT_BLOCK], e[3][SK_CONTACT_PROJECT_BLOCK];
  PetscReal px[3][SK_CONTACT_PROJECT_BLOCK], xi[2][SK_CONTACT_PROJECT_BLOCK], prev[SK_CONTACT_PROJECT_BLOCK];
  int active[SK_CONTACT_PROJECT_BLOCK], any = 1; /* int, not PetscBool: a lane mask the vectoriser takes */

#define XN(l, a, d) xv[ms->faces[f[l] * 4 + (a)] * 6 + (d)]
  for (PetscInt l = 0; l < width; l++) { /* the coefficients once per face, so an iteration is a few dozen flops */
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal x0 = XN(l, 0, d), x1 = XN(l, 1, d), x2 = XN(l, 2, d), x3 = XN(l, 3, d);
      a[d][l] = 0.25 * (x0 + x1 + x2 + x3), b[d][l] = 0.25 * (x1 + x2 - x0 - x3), c[d][l] = 0.25 * (x2 + x3 - x0 - x1),
      e[d][l]  = 0.25 * (x0 + x2 - x1 - x3);
      px[d][l] = x[l * 3 + d];
    }
    xi[0][l] = xi[1][l] = 0, prev[l] = 0, active[l] = 1; /* prev: the size of the last step (none yet) */
  }
  for (PetscInt it = 0; it < SK_SURFACE_MAX_IT && any; it++) {
    any = 0;
    for (PetscInt l = 0; l < width; l++) {
      PetscReal g1 = 0, g2 = 0, h11 = 0, h12 = 0, h22 = 0, det, dx, dy, step, tolxi, xi0, xi1;
      int converged;
      for (PetscInt d = 0; d < 3; d++) {
        const PetscReal r  = px[d][l] - (a[d][l] + b[d][l] * xi[0][l] + (c[d][l] + e[d][l] * xi[0][l]) * xi[1][l]);
        const PetscReal t1 = b[d][l] + e[d][l] * xi[1][l], t2 = c[d][l] + e[d][l] * xi[0][l];
        g1 += r * t1, g2 += r * t2, h11 += t1 * t1, h12 += t1 * t2, h22 += t2 * t2;
      }
      det = 1 / (h11 * h22 - h12 * h12);
      dx  = (h22 * g1 - h12 * g2) * det;
      dy  = (h11 * g2 - h12 * g1) * det;
      xi0 = xi[0][l] + dx, xi1 = xi[1][l] + dy;
      /* converged when this step, or the next one predicted from the last two, is below 1e-13 of the parameters
         (relative: far points have |xi| >> 1). The prediction step^2 / prev bounds the next step of a linearly converging
         iteration (ratio step / prev) and of a quadratically converging one (step^3 / prev^2), so it saves the
         iteration that would only confirm convergence (no division on the iteration's critical path; prev = 0 at first) */
      step      = PetscAbsReal(dx) + PetscAbsReal(dy);
      tolxi     = 1e-13 * (1 + PetscAbsReal(xi0) + PetscAbsReal(xi1));
      converged = (step < tolxi) | (step * step < tolxi * prev[l]);
      xi[0][l]  = active[l] ? xi0 : xi[0][l];
      xi[1][l]  = active[l] ? xi1 : xi[1][l];
      prev[l]   = step;
      active[l] = active[l] & !converged;
      any |= active[l];
    }
  }
  for (PetscInt l = 0; l < width; l++) {
    fp[l].inside = (PetscBool)(PetscAbsReal(xi[0][l]) <= 1 && PetscAbsReal(xi[1][l]) <= 1);
    if (!fp[l].inside) { /* the nearest point of the face is on its boundary: the nearest of the four straight edges */
      const PetscReal cx[4] = {-1, 1, 1, -1}, cy[4] = {-1, -1, 1, 1};
      PetscReal emin = PETSC_MAX_REAL;
      for (PetscInt k = 0; k < 4; k++) {
        const PetscInt m = (k + 1) % 4;
        PetscReal ee = 0, re = 0, t, de = 0;
        for (PetscInt d = 0; d < 3; d++)
          ee += PetscSqr(XN(l, m, d) - XN(l, k, d)), re += (px[d][l] - XN(l, k, d)) * (XN(l, m, d) - XN(l, k, d));
        t = PetscMin(PetscMax(re / ee, 0.0), 1.0);
        for (PetscInt d = 0; d < 3; d++) de += PetscSqr(px[d][l] - XN(l, k, d) - t * (XN(l, m, d) - XN(l, k, d)));
        if (de < emin) emin = de, xi[0][l] = cx[k] + t * (cx[m] - cx[k]), xi[1][l] = cy[k] + t * (cy[m] - cy[k]);
      }
    }
  }
#undef XN
  for (PetscInt l = 0; l < width; l++) {
    const PetscReal s = xi[0][l], q = xi[1][l];
    PetscReal t1[3], t2[3], nrm[3], len, d2 = 0;
    fp[l].N[0] = 0.25 * (1 - s) * (1 - q), fp[l].N[1] = 0.25 * (1 + s) * (1 - q);
    fp[l].N[2] = 0.25 * (1 + s) * (1 + q), fp[l].N[3] = 0.25 * (1 - s) * (1 + q);
    for (PetscInt d = 0; d < 3; d++) t1[d] = b[d][l] + e[d][l] * q, t2[d] = c[d][l] + e[d][l] * s;
    nrm[0] = t1[1] * t2[2] - t1[2] * t2[1], nrm[1] = t1[2] * t2[0] - t1[0] * t2[2], nrm[2] = t1[0] * t2[1] - t1[1] * t2[0];
    len = 1 / PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal xb = a[d][l] + b[d][l] * s + (c[d][l] + e[d][l] * s) * q;
      fp[l].nrm[d]       = nrm[d] * len;
      fp[l].xb[d]        = xb;
      d2 += PetscSqr(px[d][l] - xb);
    }
    fp[l].d2 = d2;
  }
}

/* Closest point of X on face F into FP (the Q4 case is ProjectQ4() of one point). Pure. */
static inline void ProjectFace(const struct _p_SKContactMeshSurface *ms, PetscInt f, const PetscReal x[], FaceProjection *fp,
                               const PetscInt dim, const PetscInt nfn)
{
  const PetscInt *fn  = ms->faces + f * nfn;
  const PetscReal *xv = ms->xv;
  PetscReal d2 = 0, len, *N = fp->N, *nrm = fp->nrm, *xb = fp->xb;

  if (dim == 3 && nfn == 4) {
    ProjectQ4(ms, &f, x, fp, 1);
    return;
  }
#define XN(a, d) xv[fn[a] * 2 * dim + (d)]
  if (dim == 2) {
    const PetscReal t[2] = {XN(1, 0) - XN(0, 0), XN(1, 1) - XN(0, 1)}, L2 = t[0] * t[0] + t[1] * t[1];
    PetscReal s = ((x[0] - XN(0, 0)) * t[0] + (x[1] - XN(0, 1)) * t[1]) / L2;
    fp->inside  = (PetscBool)(s >= 0 && s <= 1);
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
    det        = a11 * a22 - a12 * a12;
    s          = (a22 * b1 - a12 * b2) / det;
    q          = (a11 * b2 - a12 * b1) / det;
    fp->inside = (PetscBool)(s >= 0 && q >= 0 && s + q <= 1);
    s = PetscMax(s, 0.0), q = PetscMax(q, 0.0);
    if (s + q > 1) s /= s + q, q = 1 - s;
    N[0] = 1 - s - q, N[1] = s, N[2] = q;
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1], nrm[1] = e1[2] * e2[0] - e1[0] * e2[2], nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    for (PetscInt d = 0; d < 3; d++) nrm[d] /= len;
  }
  for (PetscInt d = 0; d < dim; d++) {
    xb[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) xb[d] += N[a] * XN(a, d);
    d2 += PetscSqr(x[d] - xb[d]);
  }
#undef XN
  fp->d2 = d2;
}

/* Squared distance from X to the bounding box of face F (0 inside it), in DIM (2 or 3) dimensions. Pure; branch-free
   (the search calls it for every candidate face of a cell, and the outcome of a comparison there is hard to predict);
   called with a constant DIM so that the loop unrolls. */
static inline PetscReal FaceBoxDistance2(const PetscReal fbox[], PetscInt dim, PetscInt f, const PetscReal x[])
{
  const PetscReal *box = fbox + f * dim * 2;
  PetscReal d2         = 0;
  for (PetscInt d = 0; d < dim; d++) {
    /* out = max(t, 0) written as (t + |t|) / 2 (exact): GCC compiles t > 0 ? t : 0 here to a branch */
    const PetscReal below = box[2 * d] - x[d], above = x[d] - box[2 * d + 1], t = below > above ? below : above,
                    out = 0.5 * (t + PetscAbsReal(t));
    d2 += out * out;
  }
  return d2;
}

/* The box distances of the candidates CAND[0 .. n) of a cell into D2, and the index of the nearest (-1 if n = 0). */
static inline PetscInt CandidateBoxDistances(const PetscReal fbox[], const PetscInt dim, PetscInt n, const PetscInt cand[],
                                             const PetscReal x[], PetscReal d2[])
{
  PetscInt first = -1;
  PetscReal min  = PETSC_MAX_REAL;
  for (PetscInt k = 0; k < n; k++) d2[k] = FaceBoxDistance2(fbox, dim, cand[k], x);
  for (PetscInt k = 0; k < n; k++)
    if (d2[k] < min) first = k, min = d2[k];
  return first;
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

/* The search of SKContactMeshSurfaceProject in three phases, so that SKContactMeshSurfaceProjectMany() can run each
   phase over a block of points (the projections of different points are then independent work the processor overlaps,
   instead of one chain of dependent Gauss-Newton steps after another). Every phase is the same arithmetic for one point
   as for a block: the result of a point does not depend on its neighbours in the block. NFN and DIM are constants where
   these are called (so that the loops over them unroll). */

/* Phase 1: the cell of X and the box distances of its candidate faces into D2 (room for ms->ncand); returns the cell
   (-1 outside the grid: farther than the margin from every face) and the candidate whose box is nearest in *FIRST (-1
   for an empty cell). That face is projected first: its distance then skips the projection of most other candidates. */
static inline PetscInt SearchCell(const struct _p_SKContactMeshSurface *ms, const PetscReal x[], PetscReal d2[], PetscInt *first,
                                  const PetscInt dim)
{
  const PetscInt c = SKContactGridFind(&ms->grid, dim, x);

  *first = -1;
  if (c < 0) return -1;
  *first = CandidateBoxDistances(ms->fbox, dim, ms->grid.cstart[c + 1] - ms->grid.cstart[c], ms->grid.cfaces + ms->grid.cstart[c], x, d2);
  return c;
}

/* Phase 3: from the projection FP onto candidate FIRST of cell C (phase 2; none when FIRST < 0), the other candidates
   whose box distance D2 could beat it, then the result of SKContactMeshSurfaceProject() into P and S. */
static inline void ProjectFinish(const struct _p_SKContactMeshSurface *ms, const PetscReal x[], PetscInt c, PetscInt first,
                                 const PetscReal d2box[], const FaceProjection *fp, SKSurfaceProjection *p, SKContactSupport *s,
                                 const PetscInt dim, const PetscInt nfn)
{
  PetscInt best, n;
  const PetscInt *cand;
  FaceProjection bp, other; /* the best projection so far, and the one of another candidate */
  PetscReal tol;

  *p      = (SKSurfaceProjection){.distance = PETSC_MAX_REAL, .exact = PETSC_FALSE}; /* no face near: no force, a finite frame */
  s->face = -1;
  if (first < 0) return;
  tol  = 1e-20 * ms->hmax * ms->hmax;
  cand = ms->grid.cfaces + ms->grid.cstart[c];
  n    = ms->grid.cstart[c + 1] - ms->grid.cstart[c];
  best = cand[first];
  bp   = *fp;
  for (PetscInt k = 0; k < n; k++) {
    if (k == first) continue;
    /* a face whose bounding box is farther than the best face so far cannot be nearer: skip its projection */
    if (d2box[k] > bp.d2 + tol) continue;
    ProjectFace(ms, cand[k], x, &other, dim, nfn);
    /* the nearest face; among equally near ones (a point over a shared node) the one the point projects inside, and if
       both, the first: distances equal to 1e-12 relative tie, so that the choice, and the normal of a curved master
       with it, does not follow the last bits of the arithmetic (the NURBS master, contact_patchmaster.c, alike) */
    if (other.d2 < bp.d2 - (tol + 1e-12 * bp.d2) || (other.d2 <= bp.d2 + (tol + 1e-12 * bp.d2) && other.inside && !bp.inside))
      best = cand[k], bp = other;
  }
  s->face = best;
  s->n    = nfn;
  for (PetscInt a = 0; a < nfn; a++) s->node[a] = ms->faces[best * nfn + a], s->N[a] = bp.N[a];
  p->distance = 0;
  for (PetscInt d = 0; d < dim; d++) p->point[d] = bp.xb[d], p->normal[d] = bp.nrm[d];
  for (PetscInt d = 0; d < dim; d++) {
    p->distance += (x[d] - p->point[d]) * p->normal[d];
    p->velocity[d] = 0;
    for (PetscInt a = 0; a < nfn; a++) p->velocity[d] += s->N[a] * ms->xv[s->node[a] * 2 * dim + dim + d];
  }
  /* past the end of the master surface (the nearest point is on its boundary and the point projects onto no face): its
     distance is the true one, not the distance to the plane of the last face, which would press a slave node that
     has slid off the end as if the surface went on (docs/theory.md, "Contact between deformable bodies") */
  if (!bp.inside && ClampedToSurfaceBoundary(ms, best, s->N)) {
    /* beyond the boundary along the surface by more than 1 % of the smallest face: slave and master ends that coincide
       (a patch test, bars meeting face to face) stay in contact through round-off */
    PetscReal along2 = 0;
    for (PetscInt d = 0; d < dim; d++) along2 += PetscSqr((x[d] - p->point[d]) - p->distance * p->normal[d]);
    if (along2 > PetscSqr(1e-2 * ms->hmin)) p->distance = PetscSqrtReal(bp.d2);
  }
  p->exact = PETSC_TRUE;
  {
    const PetscReal e[3] = {1, 0, 0};
    SKSurfaceTangents(dim, p->normal, e, p->tangent);
  }
}
/* SKContactMeshSurfaceProject(): the three phases for one point */
static inline void Project(const struct _p_SKContactMeshSurface *ms, const PetscReal x[], SKSurfaceProjection *p, SKContactSupport *s,
                           const PetscInt dim, const PetscInt nfn)
{
  PetscInt first;
  const PetscInt c  = SearchCell(ms, x, ms->cand_d2, &first, dim);
  FaceProjection fp = {.d2 = PETSC_MAX_REAL}; /* (not read when there is no candidate) */

  if (first >= 0) ProjectFace(ms, ms->grid.cfaces[ms->grid.cstart[c] + first], x, &fp, dim, nfn);
  ProjectFinish(ms, x, c, first, ms->cand_d2, &fp, p, s, dim, nfn);
}

PetscBool SKContactMeshSurfaceProject(SKContactMeshSurface ms, const PetscReal x[], SKSurfaceProjection *p, SKContactSupport *s)
{
  if (ms->dim == 2)
    Project(ms, x, p, s, 2, 2);
  else if (ms->nfn == 4)
    Project(ms, x, p, s, 3, 4);
  else
    Project(ms, x, p, s, 3, 3);
  return PETSC_TRUE;
}

/* SKContactMeshSurfaceProjectMany(): each phase over the block */
static inline void ProjectMany(const struct _p_SKContactMeshSurface *ms, PetscInt n, const PetscReal x[], SKSurfaceProjection p[],
                               SKContactSupport s[], const PetscInt dim, const PetscInt nfn)
{
  PetscInt cell[SK_CONTACT_PROJECT_BLOCK], first[SK_CONTACT_PROJECT_BLOCK];
  FaceProjection fp[SK_CONTACT_PROJECT_BLOCK];

  for (PetscInt i = 0; i < n; i++) cell[i] = SearchCell(ms, x + i * dim, ms->cand_d2 + i * ms->ncand, &first[i], dim);
  if (dim == 3 && nfn == 4) { /* all points at once, padded to the whole block with the first point that has a face */
    PetscInt f[SK_CONTACT_PROJECT_BLOCK], pad = -1;
    PetscReal xs[SK_CONTACT_PROJECT_BLOCK * 3];
    for (PetscInt i = 0; i < n && pad < 0; i++)
      if (first[i] >= 0) pad = i;
    if (pad >= 0) {
      for (PetscInt i = 0; i < SK_CONTACT_PROJECT_BLOCK; i++) {
        const PetscInt j = i < n && first[i] >= 0 ? i : pad;
        f[i]             = ms->grid.cfaces[ms->grid.cstart[cell[j]] + first[j]];
        for (PetscInt d = 0; d < 3; d++) xs[i * 3 + d] = x[j * 3 + d];
      }
      ProjectQ4(ms, f, xs, fp, SK_CONTACT_PROJECT_BLOCK);
    }
  } else
    for (PetscInt i = 0; i < n; i++)
      if (first[i] >= 0) ProjectFace(ms, ms->grid.cfaces[ms->grid.cstart[cell[i]] + first[i]], x + i * dim, &fp[i], dim, nfn);
  for (PetscInt i = 0; i < n; i++)
    ProjectFinish(ms, x + i * dim, cell[i], first[i], ms->cand_d2 + i * ms->ncand, &fp[i], p + i, s + i, dim, nfn);
}

void SKContactMeshSurfaceProjectMany(SKContactMeshSurface ms, PetscInt n, const PetscReal x[], SKSurfaceProjection p[],
                                     SKContactSupport s[])
{
  for (PetscInt i0 = 0; i0 < n; i0 += SK_CONTACT_PROJECT_BLOCK) {
    const PetscInt nb = PetscMin(n - i0, SK_CONTACT_PROJECT_BLOCK);
    if (ms->dim == 2)
      ProjectMany(ms, nb, x + i0 * 2, p + i0, s + i0, 2, 2);
    else if (ms->nfn == 4)
      ProjectMany(ms, nb, x + i0 * 3, p + i0, s + i0, 3, 4);
    else
      ProjectMany(ms, nb, x + i0 * 3, p + i0, s + i0, 3, 3);
  }
}

PetscErrorCode SKContactMeshSurfaceSetSlaves(SKContactMeshSurface ms, PetscInt n, const PetscInt natural[], PetscInt max_support,
                                             PetscInt slot[])
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
  PetscCheck(max_support >= ms->nfn && max_support <= SK_CONTACT_MAX_SUPPORT, ms->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "A slave node's support of %" PetscInt_FMT " master nodes, not between %" PetscInt_FMT " and %d", max_support, ms->nfn,
             SK_CONTACT_MAX_SUPPORT);
  /* rows as narrow as the support allows: the rows are written and read back at every evaluation */
  ms->row_support = max_support;
  ms->slave_width = 1 + 2 * max_support + ms->dim;
  PetscCall(PetscMalloc1(ms->nslave * ms->slave_width, &ms->slave_buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKContactMeshSurfaceReact(SKContactMeshSurface ms, PetscInt slot, const SKContactSupport *s, const PetscReal force[])
{
  PetscReal *row = ms->slave_buf + slot * ms->slave_width;

  /* s->n <= row_support: a face's nodes (point distribution) or at most the mortar limit of the dimension. The row is
     the count, the force, then (node, share) pairs: the few cache lines a short support touches */
  row[0] = (PetscReal)s->n;
  for (PetscInt d = 0; d < ms->dim; d++) row[1 + d] = force[d];
  for (PetscInt k = 0; k < s->n; k++) row[1 + ms->dim + 2 * k] = (PetscReal)s->node[k], row[2 + ms->dim + 2 * k] = s->N[k];
}

/* The reactions -share * force of the NSLAVE rows of ROWS (WIDTH values each) summed into REACT in the order of the
   rows; DIM a constant where it is called, so that the loop over it unrolls. */
static inline void SumReactions(PetscInt nslave, PetscInt width, const PetscReal rows[], const PetscInt dim, PetscReal react[])
{
  for (PetscInt i = 0; i < nslave; i++) {
    const PetscReal *row = rows + i * width, *force = row + 1, *pairs = row + 1 + dim;
    const PetscInt n = (PetscInt)row[0];
    for (PetscInt k = 0; k < n; k++) {
      PetscReal *r = react + (PetscInt)pairs[2 * k] * dim;
      for (PetscInt d = 0; d < dim; d++) r[d] -= pairs[2 * k + 1] * force[d];
    }
  }
}

PetscErrorCode SKContactMeshSurfaceAddReactions(SKContactMeshSurface ms, PetscReal f[])
{
  const PetscInt dim = ms->dim, width = ms->slave_width;

  PetscFunctionBegin;
  /* every slave node's row comes from its owner (a sum with zeros elsewhere is exact); the reactions are then summed
     in the global order of the slave nodes on every rank: the same sums whatever the partition */
  if (ms->size > 1)
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, ms->slave_buf, (PetscMPIInt)(ms->nslave * width), MPIU_REAL, MPIU_SUM, ms->comm));
  PetscCall(PetscArrayzero(ms->react, ms->nnodes * dim));
  if (dim == 3)
    SumReactions(ms->nslave, width, ms->slave_buf, 3, ms->react);
  else
    SumReactions(ms->nslave, width, ms->slave_buf, 2, ms->react);
  for (PetscInt m = 0; m < ms->nnodes; m++) {
    const PetscInt p = ms->local[m];
    if (p < 0) continue;
    for (PetscInt d = 0; d < dim; d++) f[p * dim + d] += ms->react[m * dim + d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKContactMeshSurfaceFaceCorners(SKContactMeshSurface ms, PetscInt f, PetscReal x[], PetscReal t[])
{
  const PetscInt dim = ms->dim, nfn = ms->nfn, *fn = ms->faces + f * nfn;
  const PetscReal *xv = ms->xv;

  if (dim == 2) { /* L2: the chord is the tangent at both ends */
    for (PetscInt d = 0; d < 2; d++) {
      x[d] = xv[fn[0] * 4 + d], x[2 + d] = xv[fn[1] * 4 + d];
      t[d] = t[2 + d] = xv[fn[1] * 4 + d] - xv[fn[0] * 4 + d];
    }
    return;
  }
  for (PetscInt c = 0; c < 4; c++) {
    static const PetscInt q4[4] = {0, 1, 3, 2}, t3[4] = {0, 1, 2, 2}; /* tensor order (xi_1 fastest) of the face's nodes */
    const PetscInt a   = nfn == 4 ? q4[c] : t3[c];
    const PetscReal s1 = (c % 2) ? 1.0 : -1.0, s2 = (c / 2) ? 1.0 : -1.0;
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal x0 = xv[fn[0] * 6 + d], x1 = xv[fn[1] * 6 + d], x2 = xv[fn[2] * 6 + d];
      x[c * 3 + d] = xv[fn[a] * 6 + d];
      if (nfn == 4) { /* x(xi) = a + b xi_1 + c xi_2 + e xi_1 xi_2 with the Q4 node order of ProjectQ4() */
        const PetscReal x3 = xv[fn[3] * 6 + d], b = 0.25 * (x1 + x2 - x0 - x3), cc = 0.25 * (x2 + x3 - x0 - x1),
                        e  = 0.25 * (x0 + x2 - x1 - x3);
        t[(c * 2) * 3 + d] = b + e * s2, t[(c * 2 + 1) * 3 + d] = cc + e * s1;
      } else
        t[(c * 2) * 3 + d] = x1 - x0, t[(c * 2 + 1) * 3 + d] = x2 - x0; /* T3: flat, any two edges span its plane */
    }
  }
}

void SKContactMeshSurfaceApplyReaction(SKContactMeshSurface ms, const SKContactSupport *s, const PetscReal force[], PetscReal f[])
{
  for (PetscInt k = 0; k < s->n; k++) {
    const PetscInt p = ms->local[s->node[k]];
    if (p < 0) continue;
    for (PetscInt d = 0; d < ms->dim; d++) f[p * ms->dim + d] -= s->N[k] * force[d];
  }
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

PetscErrorCode SKContactMeshSurfaceNodeFaces(SKContactMeshSurface ms)
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
  if (s->n == SK_CONTACT_MORTAR_SUPPORT_2D) return PETSC_FALSE;
  s->node[s->n] = b, s->N[s->n++] = weight;
  return PETSC_TRUE;
}

PetscErrorCode SKContactMeshSurfaceMortar(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a, SKContactSupport *s)
{
  const PetscReal gx[2] = {0.5 - 0.5 / PetscSqrtReal(3.0), 0.5 + 0.5 / PetscSqrtReal(3.0)}; /* Gauss 2 on [0, 1] */
  SKContactSupport m    = {-1, 0, {0}, {0}, PETSC_FALSE, {0, 0, 0}, {0, 0, 0}};
  PetscReal total       = 0;
  PetscBool ok          = PETSC_TRUE;

  PetscFunctionBegin;
  if (master->dim == 3) {
    PetscCall(SKContactMeshSurfaceMortar3D(master, slave, a, s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SKContactMeshSurfaceNodeFaces(slave));
  for (PetscInt k = slave->nstart[a]; k < slave->nstart[a + 1] && ok; k++) {
    const PetscInt f = slave->nfaces_of[k], *fn = slave->faces + 2 * f, la = fn[0] == a ? 0 : 1;
    const PetscReal *x0 = slave->xv + fn[0] * 4, *x1 = slave->xv + fn[1] * 4;
    const PetscReal t[2] = {x1[0] - x0[0], x1[1] - x0[1]}, L2 = t[0] * t[0] + t[1] * t[1], len = PetscSqrtReal(L2);
    PetscReal cut[2 + 2 * SK_CONTACT_MORTAR_SUPPORT_2D];
    PetscInt ncut = 0;

    /* breakpoints: the projections onto the slave face of the nodes of the master faces near its Gauss points and ends */
    cut[ncut++] = 0;
    for (PetscInt q = 0; q <= 4; q++) {
      const PetscReal z = 0.25 * q, x[3] = {x0[0] + z * t[0], x0[1] + z * t[1], 0};
      SKSurfaceProjection p;
      SKContactSupport ps;
      (void)SKContactMeshSurfaceProject(master, x, &p, &ps);
      for (PetscInt j = 0; ps.face >= 0 && j < ps.n; j++) {
        const PetscReal *xb = master->xv + ps.node[j] * 4, zb = ((xb[0] - x0[0]) * t[0] + (xb[1] - x0[1]) * t[1]) / L2;
        PetscBool seen = PETSC_FALSE;
        if (zb <= 0 || zb >= 1) continue;
        for (PetscInt c = 0; c < ncut; c++) seen = (PetscBool)(seen || PetscAbsReal(cut[c] - zb) < 1e-12);
        if (!seen && ncut < 1 + 2 * SK_CONTACT_MORTAR_SUPPORT_2D) cut[ncut++] = zb;
      }
    }
    cut[ncut++] = 1;
    PetscCall(PetscSortReal(ncut, cut));
    for (PetscInt c = 0; c + 1 < ncut && ok; c++)
      for (PetscInt q = 0; q < 2 && ok; q++) {
        const PetscReal z = cut[c] + gx[q] * (cut[c + 1] - cut[c]), x[3] = {x0[0] + z * t[0], x0[1] + z * t[1], 0};
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

PetscErrorCode SKContactMeshSurfaceNearestFace(SKContactMeshSurface ms, const PetscReal x[], PetscReal *distance, PetscReal normal[],
                                               PetscBool *inside)
{
  FaceProjection best = {PETSC_MAX_REAL, {0}, {0}, {0}, PETSC_FALSE};

  PetscFunctionBegin;
  for (PetscInt f = 0; f < ms->nfaces; f++) {
    FaceProjection fp = {0, {0}, {0}, {0}, PETSC_FALSE};
    if (ms->dim == 2)
      ProjectFace(ms, f, x, &fp, 2, 2);
    else if (ms->nfn == 4)
      ProjectFace(ms, f, x, &fp, 3, 4);
    else
      ProjectFace(ms, f, x, &fp, 3, 3);
    /* an inside projection wins over a clamped one at the same distance (a node over the joint of two faces) */
    if (fp.d2 < best.d2 * (1 - 1e-12) || (fp.inside && !best.inside && fp.d2 <= best.d2 * (1 + 1e-12))) best = fp;
  }
  *distance = PetscSqrtReal(best.d2);
  for (PetscInt d = 0; d < ms->dim; d++) normal[d] = best.nrm[d];
  *inside = best.inside;
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
