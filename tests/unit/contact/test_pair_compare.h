/* Helper of the seam tests of the contact pair (test_contact_surface.c, test_contact_side.c): two pairs over the same
   moving nodes, force against force. */
#ifndef STICKSLIP_TEST_PAIR_COMPARE_H
#define STICKSLIP_TEST_PAIR_COMPARE_H

#include <stickslip/contact.h>

/* Advances the N nodes at X (3D) by STEPS steps of 1e-4 s at the velocities V (U accumulates the displacement) and
   evaluates PA and PB at each: the largest force component of PA (N) and the largest difference of PB's from it (N). */
static inline PetscErrorCode SKTestComparePairs(SKContactPair pa, SKContactPair pb, PetscInt n, const PetscReal X[], PetscReal u[],
                                                const PetscReal v[], PetscInt steps, PetscReal *largest, PetscReal *worst)
{
  PetscReal *fa, *fb;

  PetscFunctionBeginUser;
  *largest = *worst = 0;
  PetscCall(PetscMalloc2(3 * n, &fa, 3 * n, &fb));
  for (PetscInt step = 0; step < steps; step++) {
    const PetscReal t = 1e-4 * step;
    for (PetscInt k = 0; k < 3 * n; k++) fa[k] = fb[k] = 0, u[k] += 1e-4 * v[k];
    PetscCall(SKContactPairForce(pa, t, n, X, u, v, fa));
    PetscCall(SKContactPairForce(pb, t, n, X, u, v, fb));
    for (PetscInt k = 0; k < 3 * n; k++)
      *largest = PetscMax(*largest, PetscAbsReal(fa[k])), *worst = PetscMax(*worst, PetscAbsReal(fa[k] - fb[k]));
  }
  PetscCall(PetscFree2(fa, fb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
