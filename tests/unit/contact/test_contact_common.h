/* Helpers of the white-box unit tests of the deformable contact surfaces (src/contact). */
#ifndef STICKSLIP_TEST_CONTACT_COMMON_H
#define STICKSLIP_TEST_CONTACT_COMMON_H

#include <stickslip/contact.h>
#include <stickslip/fem.h>
#include <stickslip/iga.h>
#include "../../../src/contact/contactimpl.h"

/* A surface of NF faces of NFN nodes FACES[] over the nodes X[n * dim] (natural numbers 0..n-1, unit masses). */
static inline PetscErrorCode MakeSurface(PetscInt dim, PetscInt nfn, PetscInt n, const PetscReal X[], PetscInt nf, const PetscInt faces[],
                                         SKContactMeshSurface *ms)
{
  PetscInt *key, *nat;
  PetscReal *mass;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(nf, &key, n, &nat, n, &mass));
  for (PetscInt f = 0; f < nf; f++) key[f] = f * 8;
  for (PetscInt i = 0; i < n; i++) nat[i] = i, mass[i] = 1;
  PetscCall(SKContactMeshSurfaceCreate(PETSC_COMM_SELF, dim, nfn, nf, key, faces, n, n, nat, X, mass, ms));
  PetscCall(PetscFree3(key, nat, mass));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A one-patch mesh of PATCH (block "patch") and a pair with its side set SIDE as the NURBS master and no slave nodes
   (the surface alone: natural numbers 0..n-1, unit masses, Coulomb friction). */
static inline PetscErrorCode MakePatchMaster(SKNURBSPatch patch, const char side[], SKMesh *mesh, SKContactPair *cp)
{
  const char *names[] = {"patch"};
  const PetscReal *X;
  const PetscInt *elements, *faces;
  PetscInt nn, iset, ns, *natural;
  PetscReal *mass, *w;
  SKFrictionLaw law;
  SKFrictionParams fp;

  PetscFunctionBeginUser;
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, mesh));
  PetscCall(SKMeshGetNodes(*mesh, &nn, &X));
  PetscCall(SKMeshFindSideSet(*mesh, side, &iset));
  PetscCall(SKMeshGetSideSet(*mesh, iset, NULL, &ns, &elements, &faces, NULL));
  PetscCall(PetscMalloc3(nn, &natural, nn, &mass, nn, &w));
  for (PetscInt i = 0; i < nn; i++) natural[i] = i, mass[i] = 1, w[i] = 0;
  PetscCall(SKFrictionParamsSetDefaults(&fp));
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb", &fp, &law)); /* the pair owns it */
  PetscCall(SKContactPairCreateWithPatchMaster(PETSC_COMM_SELF, *mesh, ns, elements, faces, nn, nn, natural, X, mass, w, 1e9, law, cp));
  PetscCall(PetscFree3(natural, mass, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Point X[dim] at parameters PAR of PATCH with control points X0 + U (dim values each), by the patch's own basis. */
static inline PetscErrorCode PatchPoint(SKNURBSPatch patch, PetscInt dim, const PetscReal par[], const PetscReal X0[], const PetscReal U[],
                                        PetscReal x[])
{
  PetscInt nb, idx[(SK_IGA_MAX_DEGREE + 1) * (SK_IGA_MAX_DEGREE + 1) * (SK_IGA_MAX_DEGREE + 1)];
  PetscReal R[(SK_IGA_MAX_DEGREE + 1) * (SK_IGA_MAX_DEGREE + 1) * (SK_IGA_MAX_DEGREE + 1)];

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchBasis(patch, par, &nb, idx, R, NULL));
  for (PetscInt d = 0; d < dim; d++) x[d] = 0;
  for (PetscInt a = 0; a < nb; a++)
    for (PetscInt d = 0; d < dim; d++) x[d] += R[a] * (X0[dim * idx[a] + d] + U[dim * idx[a] + d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
