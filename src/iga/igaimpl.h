/* stickslip iga: the private NURBS patch structure and helpers shared by the iga sources. */
#ifndef STICKSLIP_IGAIMPL_H
#define STICKSLIP_IGAIMPL_H

#include <stickslip/iga.h>

struct _p_SKNURBSPatch {
  PetscInt pdim, sdim, ncomp; /* parametric and spatial dimension; ncomp = sdim + 1 (projective) */
  PetscInt p[3], n[3], m[3];  /* degree, control points, knots per direction (unused: p 0, n 1, m 0) */
  PetscReal *U[3];            /* knot vectors, owned */
  PetscInt ncp;               /* prod n[d] */
  PetscReal *Pw;              /* [ncp][ncomp] projective control net, owned */
  /* Bezier extraction, computed on first use and dropped when the patch is refined */
  PetscBool extracted;
  PetscInt nspan[3];
  PetscReal *C[3], *range[3];
  PetscInt *first[3];
};

/* Drops the cached extraction (after the knots changed). */
PETSC_INTERN PetscErrorCode SKNURBSPatchResetExtraction(SKNURBSPatch patch);
/* Computes the extraction operators if they are not cached. */
PETSC_INTERN PetscErrorCode SKNURBSPatchSetUpExtraction(SKNURBSPatch patch);
/* Tensor-product rational basis from 1D values N1[d][a] and derivatives dN1[d][a] (a = 0..p[d]) of each direction,
   first control point index first[d] per direction: control points idx[a], R[a], dR[a*pdim + k] (dR may be NULL). */
PETSC_INTERN void SKNURBSPatchTensorBasis(SKNURBSPatch patch, const PetscReal N1[][SK_IGA_MAX_DEGREE + 1],
                                          const PetscReal dN1[][SK_IGA_MAX_DEGREE + 1], const PetscInt first[], PetscInt idx[],
                                          PetscReal R[], PetscReal dR[]);

#endif
