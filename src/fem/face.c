/* Integrals over one face of an element: the nodal weights int N_a dA and the vectors int N_a n dA that give
   consistent nodal loads of tractions and pressures, distributed springs, and the nodal weights of mortar contact. */
#include "femimpl.h"

PetscErrorCode SKFEMFaceIntegrals(SKElementType type, const PetscReal Xf[], PetscReal w[], PetscReal an[])
{
  const SKElementTypeInfo *info, *finfo = NULL;
  PetscInt dim, nf, nq;
  PetscReal xq[9 * 2], wq[9], N[9], dN[9 * 2];

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &info));
  dim = info->dim;
  nf  = info->num_face_nodes;
  PetscCheck(nf <= 9, PETSC_COMM_SELF, PETSC_ERR_SUP, "Faces with %" PetscInt_FMT " nodes", nf);
  if (dim == 2)
    nq = 3; /* Gauss 3: exact for N_a |t| on straight L3 edges, and for int N_a n on curved ones */
  else {
    SKElementType ftype;
    PetscBool found;
    PetscCall(SKElementTypeFromName(info->face_name, &ftype, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face type %s of %s has no basis", info->face_name, info->name);
    PetscCall(SKElementTypeGetInfo(ftype, &finfo));
  }
  if (dim == 2)
    PetscCall(SKQuadratureGaussLegendre(nq, xq, wq));
  else if (finfo->simplex)
    PetscCall(SKQuadratureSimplex(2, 2, &nq, xq, wq));
  else {
    nq = (finfo->order + 1) * (finfo->order + 1); /* exact for n dA of curved Q9 faces (degree 3 per direction) */
    PetscCall(SKQuadratureTensor(2, finfo->order + 1, xq, wq));
  }
  PetscCall(PetscArrayzero(w, nf));
  if (an) PetscCall(PetscArrayzero(an, nf * dim));
  for (PetscInt q = 0; q < nq; q++) {
    PetscReal c[3] = {0, 0, 0}, dA;
    if (dim == 2) { /* line faces list the corners, then the middle node: reference coordinates -1, 1, 0 */
      const PetscReal xi_nodes[3] = {-1.0, 1.0, 0.0};
      PetscReal t[2]              = {0, 0};
      for (PetscInt a = 0; a < nf; a++) {
        SKLagrange1D(nf - 1, xi_nodes[a], xq[q], &N[a], &dN[a]);
        for (PetscInt d = 0; d < 2; d++) t[d] += Xf[a * 2 + d] * dN[a];
      }
      c[0] = t[1]; /* outward for an element on the left of the edge */
      c[1] = -t[0];
    } else {
      PetscReal t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0};
      SKLagrangeBasis(finfo, xq + 2 * q, N, dN);
      for (PetscInt a = 0; a < nf; a++)
        for (PetscInt d = 0; d < 3; d++) {
          t1[d] += Xf[a * 3 + d] * dN[2 * a];
          t2[d] += Xf[a * 3 + d] * dN[2 * a + 1];
        }
      c[0] = t1[1] * t2[2] - t1[2] * t2[1]; /* counter-clockwise seen from outside: outward */
      c[1] = t1[2] * t2[0] - t1[0] * t2[2];
      c[2] = t1[0] * t2[1] - t1[1] * t2[0];
    }
    dA = PetscSqrtReal(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (PetscInt a = 0; a < nf; a++) {
      w[a] += wq[q] * N[a] * dA;
      if (an)
        for (PetscInt d = 0; d < dim; d++) an[a * dim + d] += wq[q] * N[a] * c[d];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
