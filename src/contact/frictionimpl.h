/* contact: private structure of a friction law (ops table + parameters) and the create functions of the built-in laws.
   Only src/contact/friction*.c and white-box unit tests include this header. */
#ifndef STICKSLIP_FRICTIONIMPL_H
#define STICKSLIP_FRICTIONIMPL_H

#include <stickslip/contact.h>

typedef struct {
  SKFrictionStepFn step;                /* required */
  SKFrictionRateFn rate;                /* NULL: no continuous form */
  PetscInt (*state_size)(PetscInt dim); /* values of state per point for DIM tangential components */
  void (*moduli)(const SKFrictionParams *p, PetscReal N, PetscReal *stiffness, PetscReal *damping);
} SKFrictionLawOps;

struct _p_SKFrictionLaw {
  MPI_Comm comm;
  char name[64];
  SKFrictionParams params; /* the kernels' context: every built-in kernel reads only this */
  SKFrictionLawOps ops;
};

/* Create functions of the built-in laws: set law->ops after checking the parameters they use. */
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_LuGre(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_Coulomb(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombModified(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombTanh(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombThrelfall(SKFrictionLaw);

/* Stribeck curve G(speed) of eq. 21 and its derivative dG/dspeed (speed >= 0); at speed = 0 the derivative is the
   one-sided value where finite (theta >= 1) and 0 otherwise (only Jacobians use it). */
PETSC_INTERN void SKFrictionStribeckDerivative(const SKFrictionParams *p, PetscReal speed, PetscReal *G, PetscReal *dG);

/* Euclidean norm of a DIM-vector (DIM = 1 or 2, or 3 for callers that pass a full vector). */
static inline PetscReal SKFrictionNorm(PetscInt dim, const PetscReal a[])
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < dim; i++) s += a[i] * a[i];
  return PetscSqrtReal(s);
}

#endif
