/* contact: private structure of a rigid-plane contact (contact_plane.c); only src/contact and white-box tests include it. */
#ifndef STICKSLIP_CONTACTIMPL_H
#define STICKSLIP_CONTACTIMPL_H

#include <stickslip/contact.h>

struct _p_SKContactPlane {
  MPI_Comm comm;
  PetscInt dim, n;         /* space dimension; owned contact nodes */
  PetscInt *nodes;         /* local node numbers of the owned contact nodes */
  PetscReal *w;            /* mortar nodal weights int N_a dA (m^2; m in 2D) */
  PetscReal point[3];      /* a point of the plane at t = 0 (m) */
  PetscReal velocity[3];   /* rigid translation velocity of the plane (m/s) */
  PetscReal normal[3];     /* unit normal pointing to the body side */
  PetscReal tangent[2][3]; /* orthonormal tangent basis (dim - 1 vectors): the friction law's components */
  PetscReal eps_n;         /* penalty (Pa/m) */
  SKFrictionLaw law;       /* owned */
  SKFrictionStepFn step;
  const void *law_ctx;
  PetscInt nstate;                  /* friction state values per node */
  PetscReal *state, *trial;         /* committed state at t_commit and the trial state at t_last (n * nstate) */
  PetscReal *stored, *stored_trial; /* energy held by the state per node (J) */
  PetscReal t_commit, t_last;
  PetscBool called;
  PetscReal *fn, *ft;                       /* last normal force magnitude (n) and friction force on the body (n * dim) */
  PetscReal dissipation, dissipation_trial; /* committed and trial accumulated dissipation (J), local */
  /* sticking-time statistics per node (s), committed and trial like the friction state: time in contact and sticking
     (SKFrictionIsSticking() on the tangential slip speed over the step), and time in contact */
  PetscReal *stick_time, *stick_time_trial, *contact_time, *contact_time_trial;
};

#endif
