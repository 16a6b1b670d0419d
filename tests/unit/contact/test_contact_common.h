/* Helpers of the white-box unit tests of the deformable contact surfaces (src/contact). */
#ifndef STICKSLIP_TEST_CONTACT_COMMON_H
#define STICKSLIP_TEST_CONTACT_COMMON_H

#include <stickslip/contact.h>
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

#endif
