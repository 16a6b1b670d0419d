/* contact: private structure of the contact of a side set against a rigid surface (contact_plane.c); only src/contact and white-box tests
 * include it. */
#ifndef STICKSLIP_CONTACTIMPL_H
#define STICKSLIP_CONTACTIMPL_H

#include <stickslip/contact.h>

#define SK_CONTACT_MAX_STATE 8       /* friction state values per node the implicit damping's difference quotient takes */
#define SK_CONTACT_DAMPING_MAX_IT 8  /* regula falsi steps for a node's implicit damping per step (SKContactPlaneDampedAccelerations()) */
#define SK_CONTACT_DAMPING_RTOL 1e-3 /* and their tolerance on c, relative to c_max */

struct _p_SKContactPlane {
  MPI_Comm comm;
  PetscInt dim, n;          /* space dimension; owned contact nodes */
  PetscInt *nodes;          /* local node numbers of the owned contact nodes */
  PetscReal *w;             /* mortar nodal weights int N_a dA (m^2; m in 2D) */
  SKRigidSurface surface;   /* owned: the obstacle, its projection gives each node's gap, normal and tangent basis */
  PetscReal *frame;         /* per node at the last force evaluation: tangent basis ((dim - 1) * dim, the friction law's
                               components) then the surface velocity (dim), so n * dim * dim values */
  PetscMPIInt size;         /* ranks of comm */
  PetscReal check_dt;       /* run-time stability check (0: off): time step (s), */
  PetscReal check_omega2;   /* the omega_max^2 (1/s^2) it was chosen for, */
  PetscReal *check_minv;    /* the inverse lumped mass of each contact node (1/kg) */
  PetscBool affine;         /* the law's tangent moduli are affine in N (probed at creation): */
  PetscReal kt0, kt1;       /* the law's tangential stiffness kt0 + kt1 N (kt0 already in omega_max^2; N per m, 1/m) */
  PetscReal ct0, ct1;       /* and damping ct0 + ct1 N (N s/m, s/m) */
  SKContactDamping damping; /* explicit or linearly implicit damping (SKContactPlaneSetDamping()) */
  PetscReal *c_damp;        /* implicit damping: c_a per node at the last force evaluation (N s/m, 0 out of contact), */
  PetscReal *normal;        /* and the unit normal there (n * dim); all four NULL while the damping is explicit; */
  PetscReal *vt, *F;        /* the tangential velocity the law saw and its force (2 per node, in the frame) */
  PetscReal v_scale;        /* velocity scale of the law (m/s): the difference step of the damping slope is 1e-6 of it or of |v| */
  PetscReal eps_n;          /* penalty (Pa/m) */
  SKFrictionLaw law;        /* owned */
  SKFrictionStepFn step;
  const void *law_ctx;
  PetscInt nstate;                  /* friction state values per node */
  PetscReal *state, *trial;         /* committed state at t_commit and the trial state at t_last (n * nstate) */
  PetscReal *stored, *stored_trial; /* energy held by the state per node (J) */
  PetscReal t_commit, t_last;
  PetscReal dt_last; /* t_last - t_commit: the step of the last force evaluation (s) */
  PetscBool called;
  PetscReal *fn, *ft;                       /* last normal force magnitude (n) and friction force on the body (n * dim) */
  PetscReal dissipation, dissipation_trial; /* committed and trial accumulated dissipation (J), local */
  /* sticking-time statistics per node (s), committed and trial like the friction state: time in contact and sticking
     (SKFrictionIsSticking() on the tangential slip speed over the step), and time in contact */
  PetscReal *stick_time, *stick_time_trial, *contact_time, *contact_time_trial;
};

#endif
