/* stickslip dynamics: the explicit finite-element solver (XML root <explicit>, schema/explicit.xsd): lumped mass,
   central differences in velocity form, loads, boundary conditions and springs, energy balance, watch points,
   VTK/PVD fields, HDF5 checkpoints, MPI through the distributed mesh of module mesh.

   Force assembly is a sum of terms: internal + external (loads, gravity, tractions) + springs + any number of
   registered terms (contact, damping...) added with SKExplicitAddForceTerm(). Each registered term gets its own
   work column in the energy balance, so that K + U + E_spring - W_external - sum_k W_k stays constant to O(dt^2).

   Arrays handed out by this module are in local node order of the distributed mesh (owned nodes, then ghosts),
   node-interleaved with dim entries per node (a[node*dim + d]), SI units. */
#ifndef STICKSLIP_DYNAMICS_H
#define STICKSLIP_DYNAMICS_H

#include <stickslip/solver.h>
#include <stickslip/mesh.h>
#include <stickslip/contact.h>
#include <petscmat.h>

/* The solver registered under the root element name "explicit" (one line in src/app/register.c). */
PETSC_EXTERN const SKSolverType SKSolverExplicit;

/* The Monte-Carlo campaign of a rough plate (XML root "campaign", src/dynamics/campaign.c): realisations of an <explicit>
   study with its bottom face mapped onto random rough surfaces (include/stickslip/rough.h), spread over MPI groups or
   run one at a time (-realisation K), resumable, aggregated into mean, standard deviation and confidence bands. */
PETSC_EXTERN const SKSolverType SKSolverCampaign;

typedef struct _p_SKExplicit *SKExplicit;

/* Energies at the current step (J), summed over all ranks. work_terms[k] is the work done on the bodies by the forces of
   the k-th registered force term (trapezoidal in its forces). A term that books its own energy (booked[k]: the contact
   pairs; docs/theory.md, "Energy of contact") enters the balance with what it stores, what it dissipated and the work
   of its own prescribed motions instead of its forces' work, so that energy its discrete forces inject shows as drift:
   balance = kinetic + internal + spring - external_work + sum over booked terms (stored + dissipated - supplied)
   - sum over the other terms work_terms[k] (constant for an exact integrator; its drift measures the time-integration
   error). */
#define SK_EXPLICIT_MAX_TERMS 8
typedef struct {
  PetscReal kinetic;       /* 1/2 v^T M v */
  PetscReal internal;      /* strain energy, int psi dV */
  PetscReal spring;        /* energy stored in discrete and distributed springs */
  PetscReal external_work; /* work of loads, gravity, tractions, reactions at prescribed dofs and spring drivers */
  PetscReal work_terms[SK_EXPLICIT_MAX_TERMS];
  PetscBool booked[SK_EXPLICIT_MAX_TERMS];           /* the term books its own energy: the three below are its terms */
  PetscReal stored_terms[SK_EXPLICIT_MAX_TERMS];     /* energy it stores now (contact: normal and tangential penalty) */
  PetscReal dissipated_terms[SK_EXPLICIT_MAX_TERMS]; /* dissipated since the start (contact: friction and damping) */
  PetscReal supplied_terms[SK_EXPLICIT_MAX_TERMS];   /* work of its prescribed motions (contact: a moving rigid surface) */
  PetscReal balance;
} SKExplicitEnergy;

/* A registered force term. Called once per step with time t (s), the local nodes' reference coordinates X (m),
   displacements u (m) and half-step velocities v (m/s) (nlocal nodes, owned then ghost, dim per node), it ADDS its
   contribution to f (N, same layout). Contributions are summed over ranks like element forces: a rank adds only what
   it owns (its contact segments, its elements), ghost entries included. Return errors with PetscCall conventions. */
typedef PetscErrorCode (*SKExplicitForceFn)(void *ctx, PetscReal t, PetscInt nlocal, const PetscReal X[], const PetscReal u[],
                                            const PetscReal v[], PetscReal f[]);

/* Reads and checks an <explicit> input (mesh, blocks, loads, BCs, time step against the critical one): everything
   `stickslip validate` needs. Collective on the input's communicator. Bad input: SK_ERR_INPUT "file:line: message".
   Destroy with SKExplicitDestroy(). */
PETSC_EXTERN PetscErrorCode SKExplicitCreateFromInput(SKInput input, SKExplicit *ex);
PETSC_EXTERN PetscErrorCode SKExplicitDestroy(SKExplicit *ex);
/* Changes the reference node coordinates COORDS[nnodes][dim] (m) of the replicated mesh in place (ctx: the caller's). */
typedef PetscErrorCode (*SKExplicitNodeMapFn)(void *ctx, PetscInt nnodes, PetscInt dim, PetscReal coords[]);
/* SKExplicitCreateFromInput() with the reference geometry changed by MAP (may be NULL) after the input's node and side
   sets are found and before the mesh is checked and distributed: a realisation of a rough plate is the input's plate
   with its bottom nodes mapped onto the surface. MAP is called on every rank with the same replicated mesh. */
PETSC_EXTERN PetscErrorCode SKExplicitCreateFromInputMapped(SKInput input, SKExplicitNodeMapFn map, void *map_ctx, SKExplicit *ex);

/* The contact pairs of EX (its <contact> elements in input order; a two-pass pair is two, <name> then <name>_2): how
   many (*N), and the I-th of them (0 <= I < *N; owned by EX, valid until SKExplicitDestroy()), for a driver above the
   solver that reads a pair's statistics (SKContactPairGetStats(), SKContactPairGetStickingTimeRatio(), ...). */
PETSC_EXTERN PetscErrorCode SKExplicitGetNumContactPairs(SKExplicit ex, PetscInt *n);
PETSC_EXTERN PetscErrorCode SKExplicitGetContactPair(SKExplicit ex, PetscInt i, SKContactPair *cp);

/* Registers force term NAME (at most SK_EXPLICIT_MAX_TERMS; name used as the energy column "work_<name>"). Call
   before SKExplicitRun(). ctx stays the caller's. */
PETSC_EXTERN PetscErrorCode SKExplicitAddForceTerm(SKExplicit ex, const char name[], SKExplicitForceFn fn, void *ctx);

/* Runs to the end time, writing histories into OUT (results.h5 under /explicit), VTK/PVD fields into OUT's
   directory and checkpoints into OUT/checkpoints. With the option -restart, resumes from the newest valid checkpoint
   there. OUT may be NULL (no output, no checkpoints; tests). */
PETSC_EXTERN PetscErrorCode SKExplicitRun(SKExplicit ex, SKOutput out);
/* Advances NSTEPS steps without any output (tests, benchmarks). */
PETSC_EXTERN PetscErrorCode SKExplicitAdvance(SKExplicit ex, PetscInt nsteps);

/* Current time (s) and step number. */
PETSC_EXTERN PetscErrorCode SKExplicitGetTime(SKExplicit ex, PetscReal *t, PetscInt *step);
/* Time step in use and the critical one 2/omega_max (power iteration, or its Gershgorin bound: -explicit_critical_step)
   and the element-size estimate min l_e/c_e (s). */
PETSC_EXTERN PetscErrorCode SKExplicitGetTimeStep(SKExplicit ex, PetscReal *dt, PetscReal *dt_critical, PetscReal *dt_element);
/* The distributed mesh (owned by EX). */
PETSC_EXTERN PetscErrorCode SKExplicitGetMesh(SKExplicit ex, SKMesh *mesh);
/* Local state arrays (owned by EX; valid until the next step): displacement (m), velocity (m/s), acceleration (m/s^2),
   lumped nodal mass (kg, one per node). Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKExplicitGetState(SKExplicit ex, PetscInt *nlocal, const PetscReal *u[], const PetscReal *v[],
                                               const PetscReal *a[], const PetscReal *mass[]);
/* Writable state for setting initial conditions from code (tests): call SKExplicitRestoreState() afterwards, which
   recomputes the forces and accelerations at the current time. */
PETSC_EXTERN PetscErrorCode SKExplicitGetStateWrite(SKExplicit ex, PetscReal *u[], PetscReal *v[]);
PETSC_EXTERN PetscErrorCode SKExplicitRestoreState(SKExplicit ex, PetscReal *u[], PetscReal *v[]);
/* Energies at the current step (collective). */
PETSC_EXTERN PetscErrorCode SKExplicitGetEnergy(SKExplicit ex, SKExplicitEnergy *energy);
/* Cauchy stress (Pa, 3x3 row-major) and von Mises stress (Pa) averaged over each local element, into caller arrays
   sigma[nelem*9] and vm[nelem] (either may be NULL). */
PETSC_EXTERN PetscErrorCode SKExplicitGetElementStress(SKExplicit ex, PetscReal sigma[], PetscReal vm[]);

/* The operators of the linearised problem at the reference configuration, for eigenanalyses (SLEPc) and the
   critical time step: K (N/m, MPIAIJ, global dof = global node * dim + d, internal stiffness plus springs, no
   boundary conditions), the lumped mass as a Vec (kg per dof) and the IS of the dofs with a prescribed displacement or
   velocity. The caller destroys all three. */
PETSC_EXTERN PetscErrorCode SKExplicitGetOperators(SKExplicit ex, Mat *K, Vec *mass, IS *constrained);

/* The accelerations (m/s^2) a step computes from the force F (N) with the prescribed accelerations zero, a = B f: B the
   inverse of the lumped mass, or with <block mass="iterated"> the effective inverse of the iterated mass (docs/theory.md,
   "Higher-order mass of patches"); so B K is the operator whose spectrum sets the critical step. F and A are laid out
   as the Vecs of SKExplicitGetOperators(); A is 0 at the constrained dofs. Collective. */
PETSC_EXTERN PetscErrorCode SKExplicitApplyMassInverse(SKExplicit ex, Vec f, Vec a);

/* Pure kernel: the largest eigenvalue of diag(m)^-1 K (1/s^2) by power iteration on the symmetric form
   D K D (D = diag(m)^-1/2), the dofs in CONSTRAINED excluded, from a start vector that depends only on the global
   dof number (same result on any number of ranks to round-off). Stops when the Rayleigh quotient changes by less than
   rtol over 10 iterations or after maxit iterations; *its gets the count. */
PETSC_EXTERN PetscErrorCode SKExplicitPowerIteration(Mat K, Vec mass, IS constrained, PetscReal rtol, PetscInt maxit, PetscReal *lambda_max,
                                                     PetscInt *its);

/* Checkpoints: the newest valid checkpoint file in directory DIR (checkpoint_<step>.h5 with a matching checksum),
   into path[len]; path[0] = 0 when there is none. Damaged files are skipped with a PetscInfo() message. Rank 0 looks,
   everybody gets the answer. */
PETSC_EXTERN PetscErrorCode SKExplicitFindCheckpoint(MPI_Comm comm, const char dir[], char path[], size_t len);
/* Writes a checkpoint of the current state into DIR (temporary file, then rename; keeps the newest KEEP files). */
PETSC_EXTERN PetscErrorCode SKExplicitWriteCheckpoint(SKExplicit ex, const char dir[], PetscInt keep);
/* Loads the state saved in checkpoint file PATH (written from the same input, any number of ranks). */
PETSC_EXTERN PetscErrorCode SKExplicitLoadCheckpoint(SKExplicit ex, const char path[]);

#endif
