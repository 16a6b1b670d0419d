/* contact: the contact points of a NURBS patch face against a rigid surface (docs/theory.md, "Loads and contact on
   NURBS patch faces") or a deformable master, which then takes the reaction of each Gauss point at its projection
   (docs/theory.md, "NURBS patch faces as deformable masters"). The face's control points are the contact points;
   they lie off the surface, so their gap and velocity are the mortar averages of eq. 30 and 32 of the paper,
   g_A = int R_A g dgamma / A_A and
   v_A = int R_A v dgamma / A_A, integrated at the Gauss points of the physical face. The face (every face element of
   every patch face in the side set, in patch order) is tabulated on every rank from the replicated patches; each
   force evaluation gathers the current positions and velocities of its control points, so that every rank computes
   the same averages for the points it owns whatever the partition. Against a NURBS master the mortar rule
   (docs/theory.md, "The mortar rule of NURBS patch faces") splits each face element where the projection crosses from
   one master face to the next, and integrates each part with the face's Gauss rule. */
#include "contactimpl.h"
#include "patchfaceimpl.h"
#include <stickslip/fem.h>

struct _p_SKContactPatchFace {
  MPI_Comm comm;
  PetscMPIInt size;
  PetscInt dim, nnodes, nfaces, nfn, nq; /* control points; face elements, control points and Gauss points per face element */
  PetscInt *natural;                     /* natural number of each control point, sorted */
  PetscInt *local;                       /* its owned local node, or -1 */
  PetscInt *faces;                       /* nfaces * nfn control point indices */
  PetscReal *R, *W;                      /* nfaces * nq * nfn: face basis and R_a wdA at the reference (m^(dim-1)) */
  PetscReal *RA;                         /* nfaces * nq * nfn: R_a / A_a, the interpolation of the loads per area (eq. 34) */
  PetscReal *wq;                         /* nfaces * nq: sum_a R_a wdA = wdA, the reference measure of each Gauss point */
  PetscReal *xq;                         /* nfaces * nq * dim: the Gauss points of the face at the reference (m) */
  PetscReal *A;                          /* A_A = int R_A dgamma (reference, m^(dim-1)) */
  PetscReal *xv, *buf;                   /* gathered current position and velocity, 2 dim per control point */
  PetscReal *avg;                        /* per control point: weighted gap, position (dim), velocity (dim) */
  PetscReal *nv;                         /* nfaces * nq * 2 dim: normal and velocity of the surface at each Gauss point's projection */
  PetscReal *load, *lbuf;                /* per control point: N_A and F_A (dim) set by its owner, and the sum over ranks */
  /* against a master that takes reactions (a deformable body), set by the update: */
  SKContactSurface master;  /* the master of the last update (the pair's, not owned) */
  PetscBool reacts;         /* it takes reactions */
  SKContactSupport *sup;    /* nfaces * nq: the master nodes and shares at each Gauss point's projection */
  PetscBool *far;           /* nfaces * nq: no master face near the Gauss point (it carries no force) */
  SKContactSupport scratch; /* a rigid surface's (empty) support of a projection */
  PetscReal *vm;            /* per control point: int R_A v dgamma / A_A, v the master's velocity at the projection where the
                               point is near and the face's own elsewhere (dim) */
  /* the mortar rule (SKContactPatchFaceSetMortar()): a face element whose image meets several master faces has its
     integrals split where they meet, with these points of the last update instead of its Gauss points */
  PetscBool mortar;
  PetscInt nq1;        /* Gauss points per face direction */
  SKNURBSPatch *patch; /* per face element: its patch, element in the patch and face (the basis anywhere on it) */
  PetscInt *pelem, *pface;
  PetscInt *split, *nsplit; /* per face element: its first point in the arrays below and their count (-1, 0: not split) */
  PetscInt nx, mx;          /* points in use, allocated */
  PetscReal *xR, *xW, *xRA; /* nx * nfn: the face basis, R_a wdA and R_a / A_a at each point (as R, W, RA) */
  PetscReal *xwq, *xnv;     /* nx: wdA; nx * 2 dim: normal and velocity at its projection (as wq, nv) */
  SKContactSupport *xsup;   /* nx: the master nodes and shares at its projection */
  PetscBool *xfar;          /* nx: no master face near */
  /* against a plane (the master's flat frame, ByWeighting()) the weighted quantities are linear in the control points:
     the weighting P = D^-1 M, P_AB = int R_A R_B dgamma / A_A (control points A, B of a common face element), in
     compressed rows, made on the first such update (PlaneWeighting()); the forces are P^T applied to the loads */
  PetscInt *prow;  /* nnodes + 1 row starts */
  PetscInt *pcol;  /* the columns B of each row, ascending */
  PetscReal *pval; /* P_AB */
};

PetscErrorCode SKContactPatchFaceFlags(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[], const PetscInt faces[],
                                       PetscInt flags[])
{
  PetscInt nb;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  for (PetscInt s = 0; s < nsides; s++) {
    SKNURBSPatch patch;
    PetscInt b, pe;
    PetscCall(SKMeshGetElement(mesh, elements[s], &b, NULL, NULL));
    PetscCall(SKMeshGetPatchElement(mesh, elements[s], &patch, &pe));
    PetscCheck(patch, comm, PETSC_ERR_ARG_WRONG, "side of element %" PetscInt_FMT " is not on a NURBS patch", elements[s]);
    flags[6 * b + faces[s]] = 1;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, flags, (PetscMPIInt)(6 * nb), MPIU_INT, MPI_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPatchFaceCreate(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[], const PetscInt faces[],
                                        SKContactPatchFace *pfp)
{
  SKContactPatchFace pf;
  PetscInt nb, dim, *flags, *offset, nowned, *lnat, *perm;
  const PetscInt *natural;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCall(SKMeshGetDimension(mesh, &dim));
  PetscCall(PetscCalloc2(6 * nb, &flags, nb + 1, &offset));
  PetscCall(SKContactPatchFaceFlags(comm, mesh, nsides, elements, faces, flags));
  PetscCall(PetscNew(&pf));
  pf->comm = comm;
  pf->dim  = dim;
  PetscCallMPI(MPI_Comm_size(comm, &pf->size));
  /* control points are numbered patch after patch (SKMeshCreateFromNURBSPatches()); the face elements of each flagged face */
  for (PetscInt b = 0; b < nb; b++) {
    SKNURBSPatch patch;
    PetscInt ncp = 0, nelem, nel[3], deg[3], pdim;
    PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
    if (patch) {
      PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
      PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, nel));
      PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, NULL));
      for (PetscInt f = 0; f < 2 * pdim; f++)
        if (flags[6 * b + f]) pf->nfaces += nelem / nel[f / 2];
    }
    offset[b + 1] = offset[b] + ncp;
  }
  /* tabulate every face element: its control points (natural numbers) and, at the reference, R and R wdA */
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscInt nface = 0;
    for (PetscInt b = 0; b < nb; b++) {
      SKNURBSPatch patch;
      PetscInt nelem, pdim, nen, idx[SK_ELEMENT_MAX_NODES];
      PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
      if (!patch) continue;
      PetscCall(SKNURBSPatchGetNumElements(patch, &nelem, NULL));
      PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, NULL, NULL));
      PetscCall(SKNURBSPatchGetElementSize(patch, &nen));
      for (PetscInt f = 0; f < 2 * pdim; f++) {
        PetscInt nel[3], k[3];
        if (!flags[6 * b + f]) continue;
        PetscCall(SKNURBSPatchGetNumElements(patch, NULL, nel));
        for (PetscInt e = 0; e < nelem; e++) {
          PetscInt nfn, nq, loc[SK_IGA_FACE_MAX_NODES];
          PetscReal R[SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES], wdA[SK_IGA_FACE_MAX_QP];
          PetscCall(SKNURBSPatchGetElementSpans(patch, e, k));
          if (k[f / 2] != ((f % 2) ? nel[f / 2] - 1 : 0)) continue;
          PetscCall(SKNURBSPatchFaceQuadrature(patch, e, f, NULL, &nfn, loc, &nq, R, wdA, pass == 1 ? pf->xq + nface * pf->nq * dim : NULL,
                                               NULL));
          PetscCall(SKNURBSPatchGetElementControlPoints(patch, e, idx));
          if (pass == 1) pf->patch[nface] = patch, pf->pelem[nface] = e, pf->pface[nface] = f;
          if (pass == 0) {
            PetscCheck(nface == 0 || (nfn == pf->nfn && nq == pf->nq), comm, PETSC_ERR_ARG_WRONG,
                       "contact side set mixes patch faces of different degrees (%" PetscInt_FMT " and %" PetscInt_FMT
                       " control points per face element)",
                       pf->nfn, nfn);
            pf->nfn = nfn, pf->nq = nq;
            if (!pf->faces) {
              PetscCall(PetscMalloc3(pf->nfaces * nfn, &pf->faces, pf->nfaces * nq * nfn, &pf->R, pf->nfaces * nq * nfn, &pf->W));
              PetscCall(PetscMalloc1(pf->nfaces * nq * dim, &pf->xq));
              PetscCall(PetscMalloc3(pf->nfaces, &pf->patch, pf->nfaces, &pf->pelem, pf->nfaces, &pf->pface));
              for (pf->nq1 = 1; pf->nq1 * (dim == 2 ? 1 : pf->nq1) < nq;) pf->nq1++; /* the tensor rule's points per direction */
            }
          }
          for (PetscInt a = 0; a < nfn; a++) {
            const PetscInt nat = offset[b] + idx[loc[a]];
            if (pass == 0)
              pf->faces[nface * nfn + a] = nat;
            else
              PetscCall(PetscFindInt(nat, pf->nnodes, pf->natural, &pf->faces[nface * nfn + a]));
          }
          if (pass == 0)
            for (PetscInt q = 0; q < nq; q++)
              for (PetscInt a = 0; a < nfn; a++) {
                pf->R[(nface * nq + q) * nfn + a] = R[q * nfn + a];
                pf->W[(nface * nq + q) * nfn + a] = R[q * nfn + a] * wdA[q];
              }
          nface++;
        }
      }
    }
    if (pass == 0) { /* the control points: natural numbers, sorted */
      PetscCall(PetscMalloc1(pf->nfaces * pf->nfn, &pf->natural));
      PetscCall(PetscArraycpy(pf->natural, pf->faces, pf->nfaces * pf->nfn));
      pf->nnodes = pf->nfaces * pf->nfn;
      PetscCall(PetscSortRemoveDupsInt(&pf->nnodes, pf->natural));
    }
  }
  /* the owned local node of each control point; the mesh's numbering must be the patch order checked above */
  PetscCall(SKMeshGetNaturalNodes(mesh, &natural));
  PetscCall(SKMeshGetNodeOwnership(mesh, &nowned, NULL, NULL));
  PetscCall(PetscMalloc2(nowned, &lnat, nowned, &perm));
  for (PetscInt p = 0; p < nowned; p++) lnat[p] = natural ? natural[p] : p, perm[p] = p;
  PetscCall(PetscSortIntWithArray(nowned, lnat, perm));
  PetscCall(PetscMalloc1(pf->nnodes, &pf->local));
  for (PetscInt m = 0; m < pf->nnodes; m++) {
    PetscInt i;
    PetscCall(PetscFindInt(pf->natural[m], nowned, lnat, &i));
    pf->local[m] = i >= 0 ? perm[i] : -1;
  }
  PetscCall(PetscFree2(lnat, perm));
  for (PetscInt s = 0; s < nsides; s++) { /* every local side's nodes are control points of the tabulated faces */
    PetscInt fn[SK_ELEMENT_MAX_NODES], n;
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &n, fn));
    for (PetscInt a = 0; a < n; a++) {
      PetscInt m;
      PetscCall(PetscFindInt(natural ? natural[fn[a]] : fn[a], pf->nnodes, pf->natural, &m));
      PetscCheck(m >= 0, comm, PETSC_ERR_PLIB, "node %" PetscInt_FMT " of a contact side is not a control point of the patch face",
                 natural ? natural[fn[a]] : fn[a]);
    }
  }
  PetscCall(PetscFree2(flags, offset));
  PetscCall(PetscCalloc1(pf->nnodes, &pf->A));
  for (PetscInt k = 0; k < pf->nfaces * pf->nq * pf->nfn; k++)
    pf->A[pf->faces[(k / (pf->nq * pf->nfn)) * pf->nfn + k % pf->nfn]] += pf->W[k];
  PetscCall(PetscMalloc3(pf->nnodes * 2 * dim, &pf->xv, pf->nnodes * 2 * dim, &pf->buf, pf->nnodes * (1 + 2 * dim), &pf->avg));
  PetscCall(PetscMalloc3(pf->nfaces * pf->nq * 2 * dim, &pf->nv, pf->nnodes * (1 + dim), &pf->load, pf->nnodes * (1 + dim), &pf->lbuf));
  PetscCall(PetscMalloc2(pf->nfaces * pf->nq * pf->nfn, &pf->RA, pf->nfaces * pf->nq, &pf->wq));
  for (PetscInt k = 0; k < pf->nfaces * pf->nq * pf->nfn; k++)
    pf->RA[k] = pf->R[k] / pf->A[pf->faces[(k / (pf->nq * pf->nfn)) * pf->nfn + k % pf->nfn]];
  for (PetscInt k = 0; k < pf->nfaces * pf->nq; k++) { /* the Gauss point's share of a reaction (SKContactPatchFaceDistribute()) */
    pf->wq[k] = 0;
    for (PetscInt b = 0; b < pf->nfn; b++) pf->wq[k] += pf->W[k * pf->nfn + b];
  }
  *pfp = pf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPatchFaceDestroy(SKContactPatchFace *pfp)
{
  SKContactPatchFace pf = *pfp;

  PetscFunctionBegin;
  *pfp = NULL;
  if (!pf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3(pf->faces, pf->R, pf->W));
  PetscCall(PetscFree(pf->xq));
  PetscCall(PetscFree3(pf->patch, pf->pelem, pf->pface));
  PetscCall(PetscFree2(pf->split, pf->nsplit));
  PetscCall(PetscFree4(pf->xR, pf->xW, pf->xRA, pf->xwq));
  PetscCall(PetscFree3(pf->xnv, pf->xsup, pf->xfar));
  PetscCall(PetscFree(pf->natural));
  PetscCall(PetscFree(pf->local));
  PetscCall(PetscFree(pf->A));
  PetscCall(PetscFree3(pf->xv, pf->buf, pf->avg));
  PetscCall(PetscFree3(pf->nv, pf->load, pf->lbuf));
  PetscCall(PetscFree2(pf->RA, pf->wq));
  PetscCall(PetscFree3(pf->sup, pf->far, pf->vm));
  PetscCall(PetscFree(pf->prow));
  PetscCall(PetscFree2(pf->pcol, pf->pval));
  PetscCall(PetscFree(pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPatchFaceGetWeights(SKContactPatchFace pf, PetscInt *n, const PetscInt *natural[], const PetscReal *A[])
{
  PetscFunctionBegin;
  if (n) *n = pf->nnodes;
  if (natural) *natural = pf->natural;
  if (A) *A = pf->A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPatchFaceSetMortar(SKContactPatchFace pf, PetscBool mortar)
{
  PetscFunctionBegin;
  pf->mortar = mortar;
  if (mortar && !pf->split) PetscCall(PetscMalloc2(pf->nfaces, &pf->split, pf->nfaces, &pf->nsplit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Projects the point with face basis R of the face element with control points FN (positions and velocities gathered)
   onto SURFACE: the point and its velocity into XQ, VQ, the distance into *DIST, the normal and velocity of the surface
   there into NV (2 dim), the master's support into SP and, against a deformable master, whether no master face is near
   into *FAR. PETSC_FALSE when the projection did not converge. */
static PetscBool ProjectPoint(SKContactPatchFace pf, const PetscInt fn[], const PetscReal R[], SKContactSurface surface, PetscReal t,
                              PetscReal xq[], PetscReal vq[], PetscReal *dist, PetscReal nv[], SKContactSupport *sp, PetscBool *far)
{
  const PetscInt dim = pf->dim;
  SKSurfaceProjection proj;
  PetscBool ok;

  for (PetscInt d = 0; d < 3; d++) xq[d] = 0, vq[d] = 0;
  for (PetscInt a = 0; a < pf->nfn; a++)
    for (PetscInt d = 0; d < dim; d++) xq[d] += R[a] * pf->xv[fn[a] * 2 * dim + d], vq[d] += R[a] * pf->xv[fn[a] * 2 * dim + dim + d];
  ok = surface->ops->project(surface->data, xq, t, PETSC_MAX_REAL, &proj, sp);
  if (pf->reacts) {
    /* a deformable master gives no distance where no face is near (farther than its search margin): the point then
       adds nothing to the gaps (a constant: no force there, as the gap's derivative is the force), and its slip is its
       own velocity (no tangential force either), so that the forces stay the derivative of the stored energy and the
       law sees the power of the tangential tractions the face carries */
    *far = (PetscBool)(proj.distance >= 0.5 * PETSC_MAX_REAL);
    if (*far) {
      proj.distance = 0;
      sp->n         = 0;
      for (PetscInt d = 0; d < dim; d++) proj.normal[d] = 0, proj.velocity[d] = vq[d];
    }
  }
  for (PetscInt d = 0; d < dim; d++) nv[d] = proj.normal[d], nv[dim + d] = proj.velocity[d];
  *dist = proj.distance;
  return ok;
}

/* Adds a point's shares W (R_a wdA) of its distance DIST, position XQ and velocity VQ to the weighted quantities of the
   face element's control points FN, and of the master's velocity (NV + dim) against a deformable master. */
static void AccumulatePoint(SKContactPatchFace pf, const PetscInt fn[], const PetscReal W[], PetscReal dist, const PetscReal xq[],
                            const PetscReal vq[], const PetscReal nv[])
{
  const PetscInt dim = pf->dim, w = 1 + 2 * dim;

  if (pf->reacts)
    for (PetscInt a = 0; a < pf->nfn; a++)
      for (PetscInt d = 0; d < dim; d++) pf->vm[fn[a] * dim + d] += W[a] * nv[dim + d];
  for (PetscInt a = 0; a < pf->nfn; a++) {
    PetscReal *avg = pf->avg + fn[a] * w;
    avg[0] += W[a] * dist;
    for (PetscInt d = 0; d < dim; d++) avg[1 + d] += W[a] * xq[d], avg[1 + dim + d] += W[a] * vq[d];
  }
}

#define PF_MAX_CUTS 32 /* interior splits of one face element per face direction (master faces it meets, less one) */

/* The mortar rule's splits of face element F, whose Gauss points met the master faces SUP[q].face (those not FAR): where
   the closest-point projection onto the master crosses from one master face to the next. The corners of each face met
   are such points of the master; the slave point that projects onto a corner x_c is the one whose offset from it is
   normal to the master there, (x(xi) - x_c) . t_k = 0 for the master's tangents t_k at x_c (Newton on the face
   parameters xi at the current positions). Each preimage inside the element splits it along the face direction of
   each of its parameters: the faces' edges cross the element along its parameter lines when the two surfaces are
   parametrised alike (faces of extruded or revolved patches, flat faces of aligned meshes); otherwise the splits only
   add points. The interior splits per direction into CUTS[j][0 .. NCUT[j]), sorted, those closer than 1e-10 merged. */
static PetscErrorCode FaceCuts(SKContactPatchFace pf, PetscInt f, SKContactSurface surface, const SKContactSupport sup[],
                               const PetscBool far[], PetscInt ncut[], PetscReal cuts[][PF_MAX_CUTS])
{
  const PetscInt dim = pf->dim, npar = dim - 1, nc = npar == 1 ? 2 : 4, *fn = pf->faces + f * pf->nfn;
  PetscInt met[SK_IGA_FACE_MAX_QP], nmet = 0, nfn; /* at most one master face per Gauss point */
  PetscReal Xc[SK_IGA_FACE_MAX_NODES * 3];

  PetscFunctionBegin;
  ncut[0] = ncut[1] = 0;
  for (PetscInt q = 0; q < pf->nq; q++) { /* the master faces met, in order */
    PetscBool seen = PETSC_FALSE;
    if (far[q] || sup[q].face < 0) continue;
    for (PetscInt i = 0; i < nmet; i++) seen = (PetscBool)(seen || met[i] == sup[q].face);
    if (!seen) met[nmet++] = sup[q].face;
  }
  for (PetscInt a = 0; a < pf->nfn; a++)
    for (PetscInt d = 0; d < dim; d++) Xc[a * dim + d] = pf->xv[fn[a] * 2 * dim + d];
  for (PetscInt i = 0; i < nmet; i++) {
    PetscReal xc[4 * 3], tc[4 * 2 * 3];
    surface->ops->facecorners(surface->data, met[i], xc, tc);
    for (PetscInt c = 0; c < nc; c++) {
      const PetscReal *t  = tc + c * npar * dim;
      PetscReal xi[2]     = {0, 0};
      PetscBool converged = PETSC_FALSE;
      for (PetscInt it = 0; it < 30 && !converged; it++) {
        PetscReal R[SK_IGA_FACE_MAX_NODES], dR[SK_IGA_FACE_MAX_NODES * 2], x[3], T[2][3] = {{0, 0, 0}, {0, 0, 0}}, F[2] = {0, 0},
                                                                                 J[2][2] = {{0, 0}, {0, 0}}, step[2];
        PetscCall(SKNURBSPatchFacePoints(pf->patch[f], pf->pelem[f], pf->pface[f], Xc, 1, xi, NULL, &nfn, NULL, R, dR, NULL, x, NULL));
        for (PetscInt a = 0; a < nfn; a++)
          for (PetscInt j = 0; j < npar; j++)
            for (PetscInt d = 0; d < dim; d++) T[j][d] += dR[a * npar + j] * Xc[a * dim + d];
        for (PetscInt k = 0; k < npar; k++)
          for (PetscInt d = 0; d < dim; d++) {
            F[k] += (x[d] - xc[c * dim + d]) * t[k * dim + d];
            for (PetscInt j = 0; j < npar; j++) J[k][j] += t[k * dim + d] * T[j][d];
          }
        if (npar == 1)
          step[0] = F[0] / J[0][0];
        else {
          const PetscReal det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
          step[0]             = (J[1][1] * F[0] - J[0][1] * F[1]) / det;
          step[1]             = (J[0][0] * F[1] - J[1][0] * F[0]) / det;
        }
        converged = PETSC_TRUE;
        for (PetscInt j = 0; j < npar; j++) {
          if (!PetscIsNormalReal(step[j]) && step[j] != 0) step[j] = 0, it = 30; /* a degenerate system: no preimage */
          xi[j] -= step[j];
          converged = (PetscBool)(converged && PetscAbsReal(step[j]) < 1e-14);
          if (PetscAbsReal(xi[j]) > 8) it = 30; /* far outside the element: not one of its splits */
        }
      }
      if (!converged) continue;
      for (PetscInt j = 0; j < npar; j++) {
        PetscBool dup = (PetscBool)(xi[j] <= -1 + 1e-10 || xi[j] >= 1 - 1e-10);
        for (PetscInt k = 0; k < ncut[j] && !dup; k++) dup = (PetscBool)(PetscAbsReal(cuts[j][k] - xi[j]) < 1e-10);
        if (dup) continue;
        PetscCheck(ncut[j] < PF_MAX_CUTS, PETSC_COMM_SELF, PETSC_ERR_SUP,
                   "a slave patch face element meets more than %d master faces along one direction: refine the slave face, or take "
                   "distribution=\"point\"",
                   PF_MAX_CUTS + 1);
        cuts[j][ncut[j]++] = xi[j];
      }
    }
  }
  for (PetscInt j = 0; j < npar; j++) PetscCall(PetscSortReal(ncut[j], cuts[j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room for NEED mortar-rule points, keeping the first nx. */
static PetscErrorCode EnsurePoints(SKContactPatchFace pf, PetscInt need)
{
  const PetscInt nfn = pf->nfn, dim = pf->dim, m = PetscMax(need, 2 * pf->mx);
  PetscReal *R, *W, *RA, *wq, *nv;
  SKContactSupport *sup;
  PetscBool *far;

  PetscFunctionBegin;
  if (need <= pf->mx) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc4(m * nfn, &R, m * nfn, &W, m * nfn, &RA, m, &wq));
  PetscCall(PetscMalloc3(m * 2 * dim, &nv, m, &sup, m, &far));
  PetscCall(PetscArraycpy(R, pf->xR, pf->nx * nfn));
  PetscCall(PetscArraycpy(W, pf->xW, pf->nx * nfn));
  PetscCall(PetscArraycpy(RA, pf->xRA, pf->nx * nfn));
  PetscCall(PetscArraycpy(wq, pf->xwq, pf->nx));
  PetscCall(PetscArraycpy(nv, pf->xnv, pf->nx * 2 * dim));
  PetscCall(PetscArraycpy(sup, pf->xsup, pf->nx));
  PetscCall(PetscArraycpy(far, pf->xfar, pf->nx));
  PetscCall(PetscFree4(pf->xR, pf->xW, pf->xRA, pf->xwq));
  PetscCall(PetscFree3(pf->xnv, pf->xsup, pf->xfar));
  pf->xR = R, pf->xW = W, pf->xRA = RA, pf->xwq = wq, pf->xnv = nv, pf->xsup = sup, pf->xfar = far, pf->mx = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mortar rule's points of face element F split at CUTS: the Gauss rule of the face on each cell between the splits
   (the face basis and area element at the reference, as the element's own rule), each projected onto SURFACE and added
   to the weighted quantities; *FAILED counts the projections that did not converge. */
static PetscErrorCode SplitFace(SKContactPatchFace pf, PetscInt f, const PetscInt ncut[], PetscReal cuts[][PF_MAX_CUTS],
                                SKContactSurface surface, PetscReal t, PetscInt *failed)
{
  const PetscInt npar = pf->dim - 1, nq1 = pf->nq1, nfn = pf->nfn, *fn = pf->faces + f * nfn;
  const PetscInt ncell[2] = {ncut[0] + 1, npar == 2 ? ncut[1] + 1 : 1};
  PetscReal gx[SK_IGA_FACE_MAX_QP], gw[SK_IGA_FACE_MAX_QP];

  PetscFunctionBegin;
  PetscCall(SKQuadratureGaussLegendre(nq1, gx, gw));
  PetscCall(EnsurePoints(pf, pf->nx + ncell[0] * ncell[1] * pf->nq));
  pf->split[f]  = pf->nx;
  pf->nsplit[f] = ncell[0] * ncell[1] * pf->nq;
  for (PetscInt c = 0; c < ncell[0] * ncell[1]; c++) {
    PetscReal lo[2], half[2], xi[2 * SK_IGA_FACE_MAX_QP], wq[SK_IGA_FACE_MAX_QP], R[SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES],
        wdA[SK_IGA_FACE_MAX_QP];
    PetscInt n;
    for (PetscInt j = 0, i = c; j < npar; j++, i /= ncell[0]) {
      const PetscInt k = i % ncell[j];
      lo[j]            = k == 0 ? -1.0 : cuts[j][k - 1];
      half[j]          = 0.5 * ((k == ncut[j] ? 1.0 : cuts[j][k]) - lo[j]);
    }
    for (PetscInt q = 0; q < pf->nq; q++) {
      wq[q] = 1.0;
      for (PetscInt j = 0, r = q; j < npar; j++, r /= nq1) {
        xi[q * npar + j] = lo[j] + half[j] * (gx[r % nq1] + 1);
        wq[q] *= gw[r % nq1] * half[j];
      }
    }
    PetscCall(SKNURBSPatchFacePoints(pf->patch[f], pf->pelem[f], pf->pface[f], NULL, pf->nq, xi, wq, &n, NULL, R, NULL, wdA, NULL, NULL));
    for (PetscInt q = 0; q < pf->nq; q++) {
      const PetscInt k = pf->nx++;
      PetscReal *xR = pf->xR + k * nfn, *xW = pf->xW + k * nfn, dist, xq[3], vq[3];
      pf->xwq[k] = 0;
      for (PetscInt a = 0; a < nfn; a++) {
        xR[a] = R[q * nfn + a], xW[a] = R[q * nfn + a] * wdA[q];
        pf->xRA[k * nfn + a] = xR[a] / pf->A[fn[a]];
        pf->xwq[k] += xW[a];
      }
      if (!ProjectPoint(pf, fn, xR, surface, t, xq, vq, &dist, pf->xnv + k * 2 * pf->dim, pf->xsup + k, pf->xfar + k)) (*failed)++;
      AccumulatePoint(pf, fn, xW, dist, xq, vq, pf->xnv + k * 2 * pf->dim);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The weighting P = D^-1 M of the face in compressed rows (prow, pcol, pval): P_AB = sum over the face elements holding
   A and B of sum_q R_A R_B wdA_q / A_A, the columns of each row ascending. Every rank forms the same rows from the
   replicated face, in the same order. */
static PetscErrorCode PlaneWeighting(SKContactPatchFace pf)
{
  const PetscInt nn = pf->nnodes, nfn = pf->nfn, nq = pf->nq;
  PetscInt *nface, *fstart, *flist, *mark, nnz = 0;
  PetscReal *acc;

  PetscFunctionBegin;
  /* the face elements of each control point */
  PetscCall(PetscCalloc3(nn, &nface, nn + 1, &fstart, pf->nfaces * nfn, &flist));
  for (PetscInt k = 0; k < pf->nfaces * nfn; k++) nface[pf->faces[k]]++;
  for (PetscInt m = 0; m < nn; m++) fstart[m + 1] = fstart[m] + nface[m], nface[m] = 0;
  for (PetscInt k = 0; k < pf->nfaces * nfn; k++) {
    const PetscInt m              = pf->faces[k];
    flist[fstart[m] + nface[m]++] = k / nfn;
  }
  /* the columns of each row: the control points of its face elements (a count, then the sorted lists) */
  PetscCall(PetscMalloc2(nn, &mark, nn, &acc));
  for (PetscInt m = 0; m < nn; m++) mark[m] = -1;
  PetscCall(PetscMalloc1(nn + 1, &pf->prow));
  pf->prow[0] = 0;
  for (PetscInt pass = 0; pass < 2; pass++) {
    for (PetscInt a = 0; a < nn; a++) {
      PetscInt n = 0, *cols = pass ? pf->pcol + pf->prow[a] : NULL;
      for (PetscInt l = fstart[a]; l < fstart[a + 1]; l++) {
        const PetscInt f = flist[l], *fn = pf->faces + f * nfn;
        PetscInt ia = 0;
        while (fn[ia] != a) ia++;
        for (PetscInt b = 0; b < nfn; b++) {
          PetscReal s = 0;
          if (mark[fn[b]] != a) {
            mark[fn[b]] = a, acc[fn[b]] = 0;
            if (pass) cols[n] = fn[b];
            n++;
          }
          if (!pass) continue;
          for (PetscInt q = 0; q < nq; q++) s += pf->W[(f * nq + q) * nfn + ia] * pf->R[(f * nq + q) * nfn + b];
          acc[fn[b]] += s;
        }
      }
      if (!pass) {
        pf->prow[a + 1] = pf->prow[a] + n;
        continue;
      }
      PetscCall(PetscSortInt(n, cols));
      for (PetscInt k = 0; k < n; k++) pf->pval[pf->prow[a] + k] = acc[cols[k]] / pf->A[a];
    }
    if (!pass) {
      nnz = pf->prow[nn];
      PetscCall(PetscMalloc2(nnz, &pf->pcol, nnz, &pf->pval));
      for (PetscInt m = 0; m < nn; m++) mark[m] = -1;
    }
  }
  PetscCall(PetscFree2(mark, acc));
  PetscCall(PetscFree3(nface, fstart, flist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the weighted quantities of the last update (against the master pf->master) were formed by the weighting: a
   plane that takes no reactions, and the point rule */
static inline PetscBool ByWeighting(SKContactPatchFace pf)
{
  return (PetscBool)(pf->master->flat && !pf->reacts && !pf->mortar);
}

/* The weighted quantities against the plane pf->master at time T by P: position x_A = sum_B P_AB x_B, velocity
   likewise, gap g_A = g(x_A), the signed distance being affine in the position (as the projections of the Gauss points
   give it, to round-off, since the rows of P sum to 1). */
static void PlaneUpdate(SKContactPatchFace pf, PetscReal t)
{
  const PetscInt dim = pf->dim, w = 1 + 2 * dim;

  for (PetscInt a = 0; a < pf->nnodes; a++) {
    PetscReal x[3] = {0, 0, 0}, vv[3] = {0, 0, 0}, *avg = pf->avg + a * w;
    for (PetscInt k = pf->prow[a]; k < pf->prow[a + 1]; k++) {
      const PetscReal p = pf->pval[k], *xb = pf->xv + pf->pcol[k] * 2 * dim;
      for (PetscInt d = 0; d < dim; d++) x[d] += p * xb[d], vv[d] += p * xb[dim + d];
    }
    avg[0] = SKContactSurfaceFlatGap(pf->master, dim, x, t);
    for (PetscInt d = 0; d < dim; d++) avg[1 + d] = x[d], avg[1 + dim + d] = vv[d];
  }
}

PetscErrorCode SKContactPatchFaceUpdate(SKContactPatchFace pf, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                        SKContactSurface surface, PetscReal t)
{
  const PetscInt dim = pf->dim, w = 1 + 2 * dim, nfn = pf->nfn;
  PetscInt failed = 0;
  PetscReal qdist[SK_IGA_FACE_MAX_QP], qx[SK_IGA_FACE_MAX_QP][3], qv[SK_IGA_FACE_MAX_QP][3];

  PetscFunctionBegin;
  /* every control point has one owner: the sum of the owners' values and zeros is exact, the same on every rank */
  PetscCall(PetscArrayzero(pf->buf, pf->nnodes * 2 * dim));
  for (PetscInt m = 0; m < pf->nnodes; m++) {
    const PetscInt a = pf->local[m];
    if (a < 0) continue;
    for (PetscInt d = 0; d < dim; d++)
      pf->buf[m * 2 * dim + d] = X[a * dim + d] + u[a * dim + d], pf->buf[m * 2 * dim + dim + d] = v[a * dim + d];
  }
  if (pf->size > 1)
    PetscCallMPI(MPI_Allreduce(pf->buf, pf->xv, (PetscMPIInt)(pf->nnodes * 2 * dim), MPIU_REAL, MPIU_SUM, pf->comm));
  else
    PetscCall(PetscArraycpy(pf->xv, pf->buf, pf->nnodes * 2 * dim));
  PetscCall(PetscArrayzero(pf->avg, pf->nnodes * w));
  pf->master = surface;
  pf->reacts = surface->ops->react ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(!pf->mortar || (pf->reacts && surface->ops->facecorners), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "the mortar rule of a NURBS patch face needs a master surface that gives its face corners (a NURBS patch face), not %s",
             surface->ops->type);
  if (pf->reacts && !pf->sup)
    PetscCall(PetscMalloc3(pf->nfaces * pf->nq, &pf->sup, pf->nfaces * pf->nq, &pf->far, pf->nnodes * dim, &pf->vm));
  if (pf->reacts) PetscCall(PetscArrayzero(pf->vm, pf->nnodes * dim));
  if (ByWeighting(pf)) {
    if (!pf->prow) PetscCall(PlaneWeighting(pf));
    PlaneUpdate(pf, t);
    PetscCall(PetscArrayzero(pf->load, pf->nnodes * (1 + dim)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  pf->nx = 0;
  for (PetscInt f = 0; f < pf->nfaces; f++) {
    const PetscInt *fn = pf->faces + f * nfn, k0 = f * pf->nq;
    PetscInt ncut[2] = {0, 0};
    PetscReal cuts[2][PF_MAX_CUTS];
    for (PetscInt q = 0; q < pf->nq; q++) {
      const PetscInt k     = k0 + q;
      SKContactSupport *sp = pf->reacts ? pf->sup + k : &pf->scratch; /* a deformable master's shares are kept */
      if (!ProjectPoint(pf, fn, pf->R + k * nfn, surface, t, qx[q], qv[q], &qdist[q], pf->nv + k * 2 * dim, sp,
                        pf->reacts ? pf->far + k : NULL))
        failed++;
      if (!pf->mortar) AccumulatePoint(pf, fn, pf->W + k * nfn, qdist[q], qx[q], qv[q], pf->nv + k * 2 * dim);
    }
    if (!pf->mortar) continue;
    /* the mortar rule: the Gauss points stand unless the face element meets the edge of a master face */
    pf->split[f] = -1, pf->nsplit[f] = 0;
    PetscCall(FaceCuts(pf, f, surface, pf->sup + k0, pf->far + k0, ncut, cuts));
    if (ncut[0] + ncut[1] > 0)
      PetscCall(SplitFace(pf, f, ncut, cuts, surface, t, &failed));
    else
      for (PetscInt q = 0; q < pf->nq; q++)
        AccumulatePoint(pf, fn, pf->W + (k0 + q) * nfn, qdist[q], qx[q], qv[q], pf->nv + (k0 + q) * 2 * dim);
  }
  PetscCheck(!failed, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
             "Closest-point projection of %" PetscInt_FMT
             " quadrature points of a contact patch face onto the %s surface did not converge at t = %g s: "
             "lower the time step or raise the penalty",
             failed, surface->ops->type, (double)t);
  for (PetscInt m = 0; m < pf->nnodes; m++)
    for (PetscInt k = 0; k < w; k++) pf->avg[m * w + k] /= pf->A[m];
  if (pf->reacts)
    for (PetscInt m = 0; m < pf->nnodes; m++)
      for (PetscInt d = 0; d < dim; d++) pf->vm[m * dim + d] /= pf->A[m];
  PetscCall(PetscArrayzero(pf->load, pf->nnodes * (1 + dim))); /* the pair's loop sets the owned points' forces */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal *SKContactPatchFaceGetLoad(SKContactPatchFace pf, PetscInt m)
{
  return pf->load + m * (1 + pf->dim);
}

/* The force of one point (face basis over the control points' areas RA, shares W = R wdA, WQ = wdA, normal and surface
   velocity NV, master support SUP, FAR) from the control points' loads LOAD, added to the owned control points in F
   (and opposite to the master's nodes against a deformable master); the surface's power on the owned points into *PW. */
static void DistributePoint(SKContactPatchFace pf, const PetscInt fn[], const PetscReal RA[], const PetscReal W[], PetscReal wq,
                            const PetscReal nv[], const SKContactSupport *sup, PetscBool far, const PetscReal load[], PetscReal f[],
                            PetscReal *pw)
{
  const PetscInt dim = pf->dim, w = 1 + dim;
  const PetscReal *n = nv, *vs = nv + dim;
  PetscReal p = 0, tr[3] = {0, 0, 0}, trac[3], pn = 0;

  if (pf->reacts && far) return;
  for (PetscInt a = 0; a < pf->nfn; a++) {
    const PetscReal *la = load + fn[a] * w;
    p += RA[a] * la[0];
    for (PetscInt d = 0; d < dim; d++) tr[d] += RA[a] * la[1 + d];
  }
  if (p == 0 && tr[0] == 0 && tr[1] == 0 && tr[2] == 0) return; /* open: no force here */
  for (PetscInt d = 0; d < dim; d++) trac[d] = p * n[d] + tr[d], pn += p * n[d] * vs[d];
  if (pf->reacts) pn = 0;
  for (PetscInt b = 0; b < pf->nfn; b++) {
    const PetscInt node = pf->local[fn[b]];
    if (node < 0) continue;
    for (PetscInt d = 0; d < dim; d++) f[node * dim + d] += W[b] * trac[d];
    *pw += W[b] * pn;
  }
  if (pf->reacts) { /* action and reaction: the face's force at this point, sum_B W_B trac = wq trac */
    PetscReal force[3];
    for (PetscInt d = 0; d < dim; d++) force[d] = wq * trac[d];
    pf->master->ops->applyreaction(pf->master->data, sup, force, f);
  }
}

PetscErrorCode SKContactPatchFaceDistribute(SKContactPatchFace pf, PetscReal f[], PetscReal *power)
{
  const PetscInt dim = pf->dim, nfn = pf->nfn, w = 1 + dim;
  const PetscReal *load = pf->load;
  PetscReal pw          = 0;

  PetscFunctionBegin;
  /* one owner per control point: the sum over ranks is exact and the same on every rank */
  if (pf->size > 1) {
    PetscCallMPI(MPI_Allreduce(pf->load, pf->lbuf, (PetscMPIInt)(pf->nnodes * w), MPIU_REAL, MPIU_SUM, pf->comm));
    load = pf->lbuf;
  }
  /* eq. 34: the pressure p = sum_A R_A N_A / A_A and the traction sum_A R_A F_A / A_A at each Gauss point, and the force
     int R_B (p n + t) dgamma on the owned control points B; the surface's power int p n.v_s R_B dgamma on them. A
     deformable master takes the opposite of each Gauss point's force, sum_B R_B (p n + t) wdA, through its shares at
     the point's projection: every rank knows every Gauss point's force and applies them in the face order to the
     master nodes it owns, the same sums whatever the partition; the master's motion is then no supply of energy (no
     power), and a Gauss point with no master face near carries no force. The mortar rule's split face elements take
     their points instead of their Gauss points. */
  if (ByWeighting(pf)) {
    /* against a plane the same integrals by the weighting: f_B = sum_A P_AB (N_A n + F_A), and the power of the plane's
       motion through the pressure on the owned points, sum_B sum_A P_AB N_A (n . v_s) */
    const PetscReal *n = pf->master->normal;
    PetscReal nvs      = 0;
    for (PetscInt d = 0; d < dim; d++) nvs += n[d] * pf->master->velocity[d];
    for (PetscInt a = 0; a < pf->nnodes; a++) {
      const PetscReal *la = load + a * w;
      PetscReal trac[3];
      PetscBool open = PETSC_TRUE;
      for (PetscInt k = 0; k < w; k++) open = (PetscBool)(open && la[k] == 0);
      if (open) continue; /* no force */
      for (PetscInt d = 0; d < dim; d++) trac[d] = la[0] * n[d] + la[1 + d];
      for (PetscInt k = pf->prow[a]; k < pf->prow[a + 1]; k++) {
        const PetscInt node = pf->local[pf->pcol[k]];
        if (node < 0) continue;
        for (PetscInt d = 0; d < dim; d++) f[node * dim + d] += pf->pval[k] * trac[d];
        pw += pf->pval[k] * la[0] * nvs;
      }
    }
    *power = pw;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt f0 = 0; f0 < pf->nfaces; f0++) {
    const PetscInt *fn = pf->faces + f0 * nfn;
    if (pf->mortar && pf->split[f0] >= 0)
      for (PetscInt k = pf->split[f0]; k < pf->split[f0] + pf->nsplit[f0]; k++)
        DistributePoint(pf, fn, pf->xRA + k * nfn, pf->xW + k * nfn, pf->xwq[k], pf->xnv + k * 2 * dim, pf->xsup + k, pf->xfar[k], load, f,
                        &pw);
    else
      for (PetscInt k = f0 * pf->nq; k < (f0 + 1) * pf->nq; k++)
        DistributePoint(pf, fn, pf->RA + k * nfn, pf->W + k * nfn, pf->wq[k], pf->nv + k * 2 * dim, pf->reacts ? pf->sup + k : NULL,
                        pf->reacts ? pf->far[k] : PETSC_FALSE, load, f, &pw);
  }
  *power = pw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool SKContactPatchFaceGetMasterVelocity(SKContactPatchFace pf, PetscInt m, const PetscReal **vm)
{
  if (!pf->reacts) return PETSC_FALSE;
  *vm = pf->vm + m * pf->dim;
  return PETSC_TRUE;
}

void SKContactPatchFaceGetComm(SKContactPatchFace pf, MPI_Comm *comm, PetscInt *dim)
{
  *comm = pf->comm;
  *dim  = pf->dim;
}

PetscInt SKContactPatchFaceFindLocal(SKContactPatchFace pf, PetscInt node)
{
  for (PetscInt m = 0; m < pf->nnodes; m++)
    if (pf->local[m] == node) return m;
  return -1;
}

void SKContactPatchFaceGetPoint(SKContactPatchFace pf, PetscInt m, PetscReal *gap, PetscReal x[], const PetscReal **v)
{
  const PetscInt dim   = pf->dim;
  const PetscReal *avg = pf->avg + m * (1 + 2 * dim);

  *gap = avg[0];
  for (PetscInt d = 0; d < dim; d++) x[d] = avg[1 + d];
  *v = avg + 1 + dim;
}

PetscErrorCode SKContactPatchFaceWriteStickRatio(SKContactPatchFace pf, PetscInt n, const PetscInt index[], const PetscReal stick[],
                                                 PetscReal elapsed, SKOutput out, const char group[])
{
  PetscReal *ratio, *rq;
  PetscInt dims[2];
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  /* the control points' ratios on every rank (one owner each: the sum is exact), then interpolated on the face */
  PetscCall(PetscCalloc2(pf->nnodes, &ratio, pf->nfaces * pf->nq, &rq));
  if (elapsed > 0)
    for (PetscInt i = 0; i < n; i++) ratio[index[i]] = stick[i] / elapsed;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, ratio, (PetscMPIInt)pf->nnodes, MPIU_REAL, MPIU_SUM, pf->comm));
  for (PetscInt f = 0; f < pf->nfaces; f++)
    for (PetscInt q = 0; q < pf->nq; q++)
      for (PetscInt a = 0; a < pf->nfn; a++)
        rq[f * pf->nq + q] += pf->R[(f * pf->nq + q) * pf->nfn + a] * ratio[pf->faces[f * pf->nfn + a]];
  dims[0] = pf->nfaces * pf->nq;
  dims[1] = pf->dim;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/surface_points", group));
  PetscCall(SKOutputWriteRealArray(out, path, 2, dims, pf->xq));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/surface_sticking_time_ratio", group));
  PetscCall(SKOutputWriteRealArray(out, path, 1, dims, rq));
  PetscCall(PetscFree2(ratio, rq));
  PetscFunctionReturn(PETSC_SUCCESS);
}
