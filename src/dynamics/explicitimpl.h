/* Private state of the explicit solver (module dynamics): shared by explicit_setup.c, explicit_step.c,
   explicit_output.c and checkpoint.c. */
#ifndef STICKSLIP_EXPLICITIMPL_H
#define STICKSLIP_EXPLICITIMPL_H

#include <stickslip/dynamics.h>
#include <stickslip/fem.h>
#include <stickslip/material.h>
#include <stickslip/timefunction.h>
#include <stickslip/vtk.h>
#include <stickslip/contact.h>

typedef struct {
  SKBasis basis;
  SKMaterial mat;
  PetscInt nelem, first, nodes;
  const PetscInt *conn; /* local node numbers, owned by the mesh */
  PetscInt id;          /* user block id (VTK cell data) */
} SKExplicitBlock;

/* Prescribed motion of some dofs. Displacement-like kinds give u(t); the velocity kind gives v(t). */
typedef enum { SK_EXPLICIT_BC_DISPLACEMENT, SK_EXPLICIT_BC_VELOCITY, SK_EXPLICIT_BC_ROTATION } SKExplicitBCKind;

typedef struct {
  SKExplicitBCKind kind;
  SKTimeFunction f;    /* displacement (m), velocity (m/s) or rotation angle (rad) */
  PetscReal center[3]; /* rotation: centre (m) */
  PetscReal axis[3];   /* rotation: unit axis (3D; 2D rotates about z) */
} SKExplicitBC;

/* A load pattern: a fixed nodal force vector (N, local dofs, complete on every copy of a node) times f(t). */
typedef struct {
  PetscReal *p;
  SKTimeFunction f;
} SKExplicitLoad;

/* One spring from a node to ground or to a point driven at constant velocity (u_d = velocity t). */
typedef struct {
  PetscInt node;         /* local node */
  PetscReal k;           /* N/m */
  PetscInt mask;         /* bit d set: acts on component d */
  PetscReal velocity[3]; /* m/s of the driven end; zero for ground */
  PetscReal force[3];    /* spring force on the node at the current step (N), for the driver's work */
} SKExplicitSpring;

typedef struct {
  char name[SK_MESH_NAME_LEN];
  SKExplicitForceFn fn;
  void *ctx;
  PetscReal *f, *f_old; /* this term's local partial force at the current and the previous step */
  PetscReal work;       /* work done on the body (J), summed over ranks */
} SKExplicitTerm;

/* Watch point (nearest node) and node-set histories. */
typedef struct {
  char name[SK_MESH_NAME_LEN];
  PetscInt node; /* local node index if owned here, else -1 */
  SKHistory hist;
} SKExplicitWatch;

typedef struct {
  char name[SK_MESH_NAME_LEN];
  PetscInt n;
  const PetscInt *nodes; /* local nodes of the set (owned and ghost; only owned ones are summed) */
  PetscInt global_size;
  SKHistory hist;
} SKExplicitSetHistory;

struct _p_SKExplicit {
  MPI_Comm comm;
  PetscMPIInt rank, size;
  SKInput input; /* not owned; valid during setup */
  SKMesh mesh;   /* distributed */
  SKMesh rmesh;  /* replicated, during setup only */
  PetscInt dim, nlocal, nowned, ndof, nelem;
  const PetscReal *X;
  const PetscInt *natural_nodes, *natural_elements;
  PetscSF sf;      /* dof-level star forest: ghost dofs -> owner dofs */
  PetscSF node_sf; /* the same per node */

  PetscInt nblocks;
  SKExplicitBlock *blocks;

  /* state at step n (local dofs) */
  PetscInt step;
  PetscReal t, dt, t_end;
  PetscReal *u, *v, *a, *vh, *du;
  PetscReal *mass;  /* per node, assembled */
  PetscReal *f;     /* total force at the current step */
  PetscReal *fwork; /* loads + reactions: the external forces whose work is W_external */
  PetscReal *fwork_new;
  PetscReal *react;  /* reactions at prescribed dofs (N), 0 elsewhere */
  PetscReal kinetic; /* kinetic energy at the current step (J), global */

  /* boundary conditions: per local dof, index of its BC or -1 */
  PetscInt nbc;
  SKExplicitBC *bc;
  PetscInt *dof_bc;

  PetscInt nloads;
  SKExplicitLoad *loads;
  PetscInt nsprings;
  SKExplicitSpring *springs;
  PetscInt nterms;
  SKExplicitTerm terms[SK_EXPLICIT_MAX_TERMS];
  /* <contact> pairs against rigid planes (module contact), registered as force terms named "contact_<name>" */
  PetscInt ncontacts;
  SKContactPlane *contacts;
  char (*contact_names)[SK_MESH_NAME_LEN]; /* also the names of their work columns */
  SKHistory *contact_hist;                 /* /explicit/contact/<name>, owned by the output */
  PetscReal contact_omega2;                /* their largest omega^2 (1/s^2), added to the body's in the critical time step */

  /* time step */
  PetscReal dt_critical, dt_element, safety;
  PetscInt power_its;
  PetscReal power_rtol;
  PetscInt kill_step; /* test hook -explicit_kill_at_step: SIGKILL after this step (-1: never) */

  /* energy accumulators (global) */
  PetscReal external_work, energy0;
  PetscBool have_energy0;
  PetscReal energy_tolerance;

  /* output settings */
  PetscInt field_interval, history_interval, checkpoint_interval, checkpoint_keep;
  PetscInt nwatch, nsethist;
  SKExplicitWatch *watch;
  SKExplicitSetHistory *sethist;
  SKHistory energy_hist;
  SKPVD pvd;
  PetscInt field_count;
  char description[256];

  /* identity of the run, stored in every checkpoint and compared on restart: input (canonical XML), options that
     change results (canonical string and hash), replicated mesh as loaded */
  unsigned long long digest_input, digest_options, digest_mesh;
  char *options_run;
};

/* log events (registered by SKExplicitCreateFromInput) */
PETSC_EXTERN PetscLogEvent SK_EXPLICIT_InternalForce, SK_EXPLICIT_Exchange, SK_EXPLICIT_Update, SK_EXPLICIT_Output,
    SK_EXPLICIT_CriticalStep;

/* explicit_setup.c */
PETSC_INTERN PetscErrorCode SKExplicitNodeSetFromInput(SKExplicit, SKNode, const char attr[], PetscInt *n, const PetscInt **nodes,
                                                       PetscInt *global_size);
/* explicit_step.c */
PETSC_INTERN PetscErrorCode SKExplicitAssembleNodal(SKExplicit, PetscReal array[], PetscInt bs);
PETSC_INTERN PetscErrorCode SKExplicitFinishStep(SKExplicit, PetscBool first);
PETSC_INTERN PetscErrorCode SKExplicitCriticalTimeStep(SKExplicit);
PETSC_INTERN PetscErrorCode SKExplicitStep(SKExplicit);
PETSC_INTERN PetscErrorCode SKExplicitRestoreForces(SKExplicit);
/* Force of spring s on its node at time t into force[dim] (N); returns its energy (J). */
PETSC_INTERN PetscReal SKExplicitSpringForce(const SKExplicit, const SKExplicitSpring *, PetscReal t, PetscReal force[3]);
/* checkpoint.c */
PETSC_INTERN PetscErrorCode SKExplicitGatherNatural(SKExplicit, const PetscReal local[], PetscReal **global);
PETSC_INTERN PetscErrorCode SKExplicitGatherNaturalBlock(SKExplicit, const PetscReal local[], PetscInt bs, PetscReal **global);
/* The run's digests from the input, the options database and the replicated mesh (before distribution). */
PETSC_INTERN PetscErrorCode SKExplicitSetDigests(SKExplicit, SKMesh replicated);
/* explicit_output.c */
PETSC_INTERN PetscErrorCode SKExplicitOutputSetUp(SKExplicit, SKOutput, PetscBool restart);
PETSC_INTERN PetscErrorCode SKExplicitOutputStep(SKExplicit, SKOutput, PetscBool force);
PETSC_INTERN PetscErrorCode SKExplicitOutputFinish(SKExplicit, SKOutput);

#endif
