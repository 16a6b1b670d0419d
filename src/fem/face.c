/* Integrals over one face of an element: the nodal weights int N_a dA and the vectors int N_a n dA that give
   consistent nodal loads of tractions and pressures, distributed springs, and the nodal weights of mortar contact. */
#include "femimpl.h"

PetscErrorCode SKFEMFaceIntegrals(SKElementType type, const PetscReal Xf[], PetscReal w[], PetscReal an[])
{
  const SKElementTypeInfo *info;
  PetscInt dim, nf, nq;
  /* basis values N[q * 9 + a] and reference derivatives dN (2D: dN[q * 9 + a]; 3D: dN[(q * 9 + a) * 2 + k]) */
  PetscReal wq[SK_ELEMENT_MAX_QP], N[SK_ELEMENT_MAX_QP * 9], dN[SK_ELEMENT_MAX_QP * 9 * 2];

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &info));
  dim = info->dim;
  nf  = info->num_face_nodes;
  PetscCheck(nf <= 9, PETSC_COMM_SELF, PETSC_ERR_SUP, "Faces with %" PetscInt_FMT " nodes", nf);
  if (dim == 2) { /* line faces list the corners, then the middle node (reference -1, 1, 0); Gauss 3: exact for N_a |t| on
                     straight L3 edges, and for int N_a n on curved ones */
    PetscReal xq[3];
    nq = 3;
    PetscCall(SKQuadratureGaussLegendre(nq, xq, wq));
    for (PetscInt q = 0; q < nq; q++) {
      const PetscReal x = xq[q];
      if (nf == 2) {
        N[q * 9 + 0] = 0.5 * (1 - x), N[q * 9 + 1] = 0.5 * (1 + x);
        dN[q * 9 + 0] = -0.5, dN[q * 9 + 1] = 0.5;
      } else {
        N[q * 9 + 0] = 0.5 * x * (x - 1), N[q * 9 + 1] = 0.5 * x * (x + 1), N[q * 9 + 2] = 1 - x * x;
        dN[q * 9 + 0] = x - 0.5, dN[q * 9 + 1] = x + 0.5, dN[q * 9 + 2] = -2 * x;
      }
    }
  } else { /* the face basis of that name and its quadrature (T3: degree 2; Q4, Q9: Gauss (order + 1)^2, exact for n dA of
              curved Q9 faces) */
    SKBasis fb;
    SKBasisInfo finfo;
    const PetscReal *tN, *tdN, *twq;

    PetscCall(SKBasisCreate(info->face_name, &fb));
    PetscCall(SKBasisGetInfo(fb, &finfo));
    PetscCall(SKBasisGetTabulation(fb, NULL, NULL, &twq, &tN, &tdN));
    nq = finfo.qpoints;
    PetscCheck(nq <= SK_ELEMENT_MAX_QP, PETSC_COMM_SELF, PETSC_ERR_SUP, "Face basis %s with %" PetscInt_FMT " quadrature points",
               info->face_name, nq);
    for (PetscInt q = 0; q < nq; q++) {
      wq[q] = twq[q];
      for (PetscInt a = 0; a < nf; a++) {
        N[q * 9 + a]            = tN[q * nf + a];
        dN[(q * 9 + a) * 2 + 0] = tdN[(q * nf + a) * 2 + 0];
        dN[(q * 9 + a) * 2 + 1] = tdN[(q * nf + a) * 2 + 1];
      }
    }
    PetscCall(SKBasisDestroy(&fb));
  }
  for (PetscInt q = 0; q < nq; q++) {
    PetscReal t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0}, c[3], dA;
    for (PetscInt a = 0; a < nf; a++)
      for (PetscInt d = 0; d < dim; d++) {
        const PetscReal x = Xf[a * dim + d];
        if (dim == 2)
          t1[d] += dN[q * 9 + a] * x;
        else {
          t1[d] += dN[(q * 9 + a) * 2 + 0] * x;
          t2[d] += dN[(q * 9 + a) * 2 + 1] * x;
        }
      }
    if (dim == 2) {
      c[0] = t1[1]; /* outward for an element on the left of the edge */
      c[1] = -t1[0];
      dA   = PetscSqrtReal(t1[0] * t1[0] + t1[1] * t1[1]);
    } else {
      c[0] = t1[1] * t2[2] - t1[2] * t2[1]; /* counter-clockwise seen from outside: outward */
      c[1] = t1[2] * t2[0] - t1[0] * t2[2];
      c[2] = t1[0] * t2[1] - t1[1] * t2[0];
      dA   = PetscSqrtReal(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    }
    for (PetscInt a = 0; a < nf; a++) {
      w[a] += wq[q] * dA * N[q * 9 + a];
      if (an)
        for (PetscInt d = 0; d < dim; d++) an[a * dim + d] += wq[q] * N[q * 9 + a] * c[d];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
