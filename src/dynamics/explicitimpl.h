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

/* columns of /explicit/energy: time, kinetic, internal, spring, external work, balance and up to 4 per term */
#define SK_EXPLICIT_ENERGY_MAXCOL (6 + 4 * SK_EXPLICIT_MAX_TERMS)
#define SK_EXPLICIT_DEFAULT_FRAMES 50 /* field frames over a run when <output fields> is not given */
#define SK_EXPLICIT_ENERGY_CHECKS 100 /* samples of the run-time energy check over a run that writes no histories */
/* How the critical time step is found (-explicit_critical_step; docs/theory.md, "Critical time step"): the power
   iteration on the assembled stiffness (tight, from below), the Gershgorin bound of the element stiffnesses (safe,
   matrix-free), or auto: the power iteration up to SK_EXPLICIT_POWER_MAX_DOFS global dofs, the bound above. */
typedef enum { SK_EXPLICIT_CRITICAL_AUTO, SK_EXPLICIT_CRITICAL_POWER, SK_EXPLICIT_CRITICAL_BOUND } SKExplicitCriticalStepType;
PETSC_INTERN const char *const SKExplicitCriticalStepTypes[];
/* 2e4 dofs: the power iteration costs about 2 s of CPU there (3.4 s at 34 000 dofs, measured), and the largest input
   in inputs/ has 1 250 */
#define SK_EXPLICIT_POWER_MAX_DOFS 20000
/* the most mass_iterations of <block mass="iterated">: each costs a pass over the elements per step, and the default p - 1
   already gives the order of the consistent mass (docs/theory.md, "Higher-order mass of patches") */
#define SK_EXPLICIT_MASS_MAX_ITERATIONS 8

/* How the terms that book their own energy enter the balance (-explicit_energy_booking, a test hook that shows what the
   energy check relies on): FULL, their stored + dissipated - supplied energy (the default); NOSTORED, the same without
   the stored energy; WORK, their forces' work, which absorbs whatever energy the forces inject. */
typedef enum { SK_EXPLICIT_BOOKING_FULL, SK_EXPLICIT_BOOKING_NOSTORED, SK_EXPLICIT_BOOKING_WORK } SKExplicitEnergyBooking;
PETSC_INTERN const char *const SKExplicitEnergyBookings[];

typedef struct {
  SKBasis basis;
  SKMaterial mat;
  PetscInt nelem, first, nodes, order; /* order: of its cells' basis (Lagrange 1 or 2, Bezier the degree) */
  const PetscInt *conn;                /* local node numbers, owned by the mesh */
  PetscInt id;                         /* user block id (VTK cell data) */
  SKFEMMassOperator mop;               /* mass="iterated": the block's consistent mass (NULL: its lumped mass enters ex->mass_other) */
  SKLumping lumping;                   /* of its lumped masses (the element bound of the critical step forms them alike) */
  PetscInt nreact, *react_elem;        /* with mop: its elements that touch a prescribed dof (ascending), all the reactions need */
} SKExplicitBlock;

/* Prescribed motion of some dofs. Displacement-like kinds give u(t); the velocity kind gives v(t). */
typedef enum { SK_EXPLICIT_BC_DISPLACEMENT, SK_EXPLICIT_BC_VELOCITY, SK_EXPLICIT_BC_ROTATION } SKExplicitBCKind;

typedef struct {
  SKExplicitBCKind kind;
  SKTimeFunction f;    /* displacement (m), velocity (m/s) or rotation angle (rad) */
  PetscReal center[3]; /* rotation: centre (m) */
  PetscReal axis[3];   /* rotation: unit axis (3D; 2D rotates about z) */
} SKExplicitBC;

/* A load pattern: a fixed nodal force vector (N, local dofs, complete on every copy of a node) times f(t), stored by
   its non-zero entries p[k] at dofs idx[k] (ascending; a traction touches only its side set). */
typedef struct {
  PetscInt n;
  PetscInt *idx;
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

typedef struct _SKExplicitTermOps SKExplicitTermOps;
typedef struct _SKFramePoints SKFramePoints;

typedef struct {
  char name[SK_MESH_NAME_LEN];
  SKExplicitForceFn fn;
  void *ctx;
  const SKExplicitTermOps *ops; /* what else the term does (NULL: a force only) */
  PetscInt group;               /* terms of one group act on the same nodes together (their omega^2 add in the step bound) */
  SKHistory hist;               /* its history, owned by the output (ops->historycreate), or NULL */
  PetscReal *f, *f_old;         /* this term's local partial force at the current and the previous step */
  PetscReal work;               /* work done on the body (J), summed over ranks */
  PetscReal dissipated_max;     /* largest energy the term has booked as dissipated at a history sample (J; the energy check) */
} SKExplicitTerm;

#define SK_EXPLICIT_TERM_RESTART_NSCALAR \
  12 /* scalars per rank a term checkpoints: the first 3 the same on every rank, the others summed over ranks */

/* What a registered force term does besides its force (docs/developing.md, "A force term"). Every hook is optional;
   CTX is the term's context. The explicit loop, the time step, checkpoints and output reach a term only through
   these. */
struct _SKExplicitTermOps {
  const char *type; /* for messages */
  /* the step (s) the body's omega^2 OMEGA2 (1/s^2) allows with the term, under a normal load LOAD (N) */
  PetscErrorCode (*stepbound)(void *ctx, const PetscReal mass[], PetscReal omega2, PetscReal load, PetscReal *dt);
  /* the run-time stability check of the step DT chosen for OMEGA2 */
  PetscErrorCode (*setstep)(void *ctx, PetscReal dt, PetscReal omega2, const PetscReal mass[]);
  /* implicit damping: whether the term takes it (the same on every rank), and then the accelerations A of its nodes
     from the total force F (prescribed dofs DOF_BC keep theirs) and the damping force added to FTERM and F */
  PetscBool (*implicit)(void *ctx);
  PetscErrorCode (*damp)(void *ctx, PetscReal dt, const PetscReal mass[], PetscReal f[], const PetscInt dof_bc[], PetscReal a[],
                         const PetscReal vh[], PetscReal fterm[]);
  /* restart: WIDTH values per owned node and SK_EXPLICIT_TERM_RESTART_NSCALAR scalars per rank */
  PetscErrorCode (*restartsize)(void *ctx, PetscInt *width);
  PetscErrorCode (*packrestart)(void *ctx, PetscInt nowned, PetscReal nodal[], PetscReal scalars[]);
  PetscErrorCode (*unpackrestart)(void *ctx, PetscInt nowned, const PetscReal nodal[], const PetscReal scalars[]);
  /* restart of state that is the same on every rank (written from rank 0): its size *N, packed into BUF[N], restored
     on every rank from BUF[N] (optional with the three above) */
  PetscErrorCode (*globalsize)(void *ctx, PetscInt *n);
  PetscErrorCode (*packglobal)(void *ctx, PetscReal buf[]);
  PetscErrorCode (*unpackglobal)(void *ctx, PetscInt n, const PetscReal buf[]);
  /* its history at PATH of OUT, and a row of it at time T */
  PetscErrorCode (*historycreate)(void *ctx, SKOutput out, const char path[], SKHistory *hist);
  PetscErrorCode (*historyappend)(void *ctx, SKHistory hist, PetscReal t);
  /* the point data of a field frame of the N terms with these ops together (arrays summed over them) */
  PetscErrorCode (*writefields)(SKExplicit ex, PetscInt n, const SKExplicitTerm *const terms[], const SKFramePoints *fp, SKVTK vtk);
  /* end-of-run results of TERM into OUT */
  PetscErrorCode (*finish)(SKExplicit ex, const SKExplicitTerm *term, SKOutput out);
  /* energy booking (docs/theory.md, "Energy of contact"): what the term stores at its last force evaluation, what it has
     dissipated and the work of its own prescribed motions since the start (J, summed over ranks; collective). A term
     without it enters the balance with the work of its forces, which absorbs any energy they inject. */
  PetscErrorCode (*energy)(void *ctx, PetscReal *stored, PetscReal *dissipated, PetscReal *supplied);
  /* when the balance drifts: a sentence on how the term may be the cause and what to change, given the step DT and the
     energy INJECTED by the term (its forces' work plus its booked energy, J), into MSG[LEN] */
  PetscErrorCode (*diagnose)(void *ctx, const char name[], PetscReal dt, PetscReal injected, char msg[], size_t len);
  /* the step (s) the term's own stiffness allows with its margin (contact: the one-sided switching), set by the last
     stepbound; the automatic step keeps below it (terms of one group add their omega^2) */
  PetscErrorCode (*ownstep)(void *ctx, PetscReal *dt);
  PetscErrorCode (*destroy)(void *ctx);
};

/* The points of a field frame (explicit_output.c): the local nodes that some Lagrange cell uses or that no cell uses
   (in their local order; all local nodes when there is no NURBS patch), then for every element of a NURBS patch block
   its own Bezier points (the control points themselves are not shown: they are not on the body). A nodal field f
   becomes point values through SKFramePointsMap(): copied at the nodes, sum_a coef[j][a] f(node a) at Bezier point j. */
struct _SKFramePoints {
  PetscInt nkept, npoints, nbez;
  PetscInt *kept;      /* [nkept] local node of each kept point */
  PetscInt *point;     /* [nlocal] point of a kept node, -1 for a control point */
  PetscInt *bez_ptr;   /* [nbez + 1] */
  PetscInt *bez_node;  /* [bez_ptr[nbez]] local nodes */
  PetscReal *bez_coef; /* [bez_ptr[nbez]] */
  PetscReal *weight;   /* [npoints] RationalWeights: 1 at the nodes, the Bezier weight at the Bezier points */
  PetscInt *degree;    /* [nelem] HigherOrderDegrees of each cell */
};
/* A nodal field IN (ncomp per local node) at the points of FP into OUT (ncomp per point). */
PETSC_INTERN void SKFramePointsMap(const SKFramePoints *fp, PetscInt ncomp, const PetscReal in[], PetscReal out[]);
/* Writes the nodal field VALUES (ncomp per local node) as point data NAME of the frame (a vector when VECTOR). */
PETSC_INTERN PetscErrorCode SKFramePointsWrite(const SKFramePoints *fp, SKVTK vtk, const char name[], PetscInt ncomp, PetscBool vector,
                                               const PetscReal values[]);
/* explicit_term.c: registers a force term with OPS (NULL: SKExplicitAddForceTerm()) and GROUP (-1: its own); destroys
   them all (a term with ops->destroy owns its context). */
PETSC_INTERN PetscErrorCode SKExplicitDestroyTerms(SKExplicit ex);
PETSC_INTERN PetscErrorCode SKExplicitAddTerm(SKExplicit ex, const char name[], SKExplicitForceFn fn, const SKExplicitTermOps *ops,
                                              void *ctx, PetscInt group);

/* Watch point (nearest node, or a point of a NURBS patch) and node-set histories. */
typedef struct {
  char name[SK_MESH_NAME_LEN];
  PetscInt node; /* local node index if owned here, else -1 */
  SKHistory hist;
  /* on a NURBS patch: the point is sum_a R[a] (node a) over the control points of its element (local indices if
     owned here, else -1; n = 0 for the nearest-node watch points) */
  PetscInt n, nodes[SK_ELEMENT_MAX_NODES];
  PetscReal R[SK_ELEMENT_MAX_NODES];
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
  PetscReal *u, *v, *a, *vh; /* the increment of a step is dt vh: recomputed, not stored */
  PetscReal *mass;           /* per node, assembled */
  /* mass="iterated" on some block (explicit_mass.c): a solves M a = f by mass_iterations iterations preconditioned by
     mass_diag; M = the consistent mass of those blocks + mass_other (per node: the lumped masses of the other blocks) */
  PetscBool mass_iterated;
  PetscInt mass_iterations; /* the largest count of the blocks' */
  PetscReal *mass_other;    /* per node, assembled */
  PetscReal *mass_diag;     /* per dof, the preconditioner D (kg) */
  PetscReal *mass_contact;  /* per node, min_c D / (iterations + 1): the mass the contact pairs bound their steps with */
  PetscReal *mass_work[3];  /* ndof each */
  PetscReal mass_ratio;     /* max over the free dofs of mass / mass_diag (for the bounds of the critical step) */
  PetscReal *f;             /* total force at the current step */
  PetscReal *fwork;         /* loads + reactions: the external forces whose work is W_external */
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
  SKExplicitTerm terms[SK_EXPLICIT_MAX_TERMS]; /* the <contact> pairs among them (explicit_contact_term.c) */
  PetscInt *body;                              /* per natural element: its body (connected group of elements), for contact checks */

  /* time step */
  PetscReal dt_critical, dt_element, safety; /* critical step of body, penalties and friction at rest (s); its element estimate */
  PetscReal dt_contact;                      /* the terms' own steps with their margins (contact dt, s; PETSC_MAX_REAL without contact) */
  PetscReal normal_load;                     /* estimated normal load on each contact pair (N): twice the peak applied load */
  PetscReal dt_friction; /* the critical step with the friction moduli at that load (s), <= dt_critical; sets the automatic step */
  PetscInt power_its;
  SKExplicitCriticalStepType critical_type; /* -explicit_critical_step; how dt_critical was found (never auto after
                                               SKExplicitCriticalTimeStep) */
  PetscReal unsafe_safety;                  /* -explicit_unsafe_safety: replaces <time safety> (0: not given) */
  PetscBool critical_element;               /* bound: the element bound of a mesh of patches was the tighter (else Gershgorin) */
  /* -explicit_setup_view: time and memory at the phase boundaries of the set-up */
  PetscBool setup_view;
  PetscLogDouble setup_t0, setup_seconds; /* start of SKExplicitCreateFromInput and its duration (s) */
  PetscReal power_rtol;
  PetscInt kill_step;              /* test hook -explicit_kill_at_step: SIGKILL after this step (-1: never) */
  SKExplicitEnergyBooking booking; /* test hook -explicit_energy_booking */

  /* energy accumulators (global) */
  PetscReal external_work, energy0;
  PetscBool have_energy0;
  PetscReal energy_tolerance;
  PetscReal energy_scale;    /* the run-time energy check: largest energy in play so far (J) */
  PetscReal energy_roundoff; /* the run-time energy check: round-off of the internal energy, 4 eps sum_nodes m c_max^2 (J);
                                a drift below it is not a blow-up */
  PetscReal energy_rel_prev; /* |balance - energy0| / energy_scale at the previous history sample */
  PetscBool energy_over;     /* that sample exceeded the tolerance */

  /* output settings */
  PetscInt field_interval, history_interval, checkpoint_interval, checkpoint_keep;
  PetscInt energy_check_interval; /* steps between the energy check's samples: the histories', or with none its own */
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
/* With -explicit_setup_view, prints the wall and CPU time since the set-up began and the memory (now, peak) after PHASE. */
PETSC_INTERN PetscErrorCode SKExplicitSetupView(SKExplicit, const char phase[]);
/* explicit_input.c */
/* The node set named by attribute ATTR of NODE (must exist and not be empty): local nodes and the global size. */
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
/* explicit_state.c */
/* Gathers the owned part of a local nodal array (dim per node) into natural order on rank 0 (*global allocated there,
   NULL elsewhere); the Block variant with bs values per node. */
PETSC_INTERN PetscErrorCode SKExplicitGatherNatural(SKExplicit, const PetscReal local[], PetscReal **global);
PETSC_INTERN PetscErrorCode SKExplicitGatherNaturalBlock(SKExplicit, const PetscReal local[], PetscInt bs, PetscReal **global);
/* checkpoint.c */
/* The run's digests from the input, the options database and the replicated mesh (before distribution). */
PETSC_INTERN PetscErrorCode SKExplicitSetDigests(SKExplicit, SKMesh replicated);
/* explicit_mass.c */
/* y[v] = M x[v] (v < nvec), assembled over ranks on every copy of a node. */
PETSC_INTERN PetscErrorCode SKExplicitMassApply(SKExplicit, PetscInt nvec, const PetscReal *const x[], PetscReal *const y[]);
/* y = M x at the prescribed dofs (bit for bit as SKExplicitMassApply()), over the elements that touch them only; the
   other entries of y are partial sums, not M x. */
PETSC_INTERN PetscErrorCode SKExplicitMassApplyPrescribed(SKExplicit, const PetscReal x[], PetscReal y[]);
/* The accelerations of the free dofs from the (assembled) force F by the iterated mass, with the prescribed ones of A. */
PETSC_INTERN PetscErrorCode SKExplicitMassSolve(SKExplicit, const PetscReal f[], PetscReal a[]);
/* The preconditioner (distance weights), after the conditions are read; nothing without mass="iterated". */
PETSC_INTERN PetscErrorCode SKExplicitMassSetUp(SKExplicit);
/* The factor by which the largest frequency^2 of the lumped mass bounds that of the iterated one (1 without it):
   (iterations + 1) times the largest lumped/preconditioner ratio. */
PETSC_INTERN PetscReal SKExplicitMassBoundFactor(SKExplicit);
/* The power iteration of the critical step with the iterated mass: the largest eigenvalue of B K, B its effective
   inverse, from below (Rayleigh quotients of K^1/2 B K^1/2). */
PETSC_INTERN PetscErrorCode SKExplicitMassPowerIteration(SKExplicit, Mat K, IS constrained, PetscReal rtol, PetscInt maxit,
                                                         PetscReal *lambda_max, PetscInt *its);
/* The nodal masses the contact pairs bound their steps with: the lumped ones, or with the iterated mass min_c D/(k + 1),
   below which its effective mass never goes in any mode (docs/theory.md, "Higher-order mass of patches"). */
static inline const PetscReal *SKExplicitContactMass(SKExplicit ex)
{
  return ex->mass_iterated ? ex->mass_contact : ex->mass;
}
/* explicit_step.c: the start vector of the power iterations (a hash of the global dof number, 0 at constrained dofs);
   zeroes the constrained entries of a Vec; whether a power iteration at iteration K has converged (every 10th
   iteration, relative change of LAMBDA below RTOL; *LAMBDA_OLD remembers the last check). */
PETSC_INTERN PetscErrorCode SKExplicitPowerStart(Vec x, IS constrained);
PETSC_INTERN PetscErrorCode SKExplicitZeroConstrained(Vec x, IS constrained);
PETSC_INTERN PetscBool SKExplicitPowerConverged(PetscInt k, PetscReal lambda, PetscReal *lambda_old, PetscReal rtol);
PETSC_EXTERN PetscLogEvent SK_EXPLICIT_Mass;
/* explicit_output.c */
PETSC_INTERN PetscErrorCode SKExplicitOutputSetUp(SKExplicit, SKOutput, PetscBool restart);
/* Histories and fields due at the current step (their intervals divide it); with FINAL, those not due (the last step). */
PETSC_INTERN PetscErrorCode SKExplicitOutputStep(SKExplicit, SKOutput, PetscBool final);
PETSC_INTERN PetscErrorCode SKExplicitOutputFinish(SKExplicit, SKOutput);

/* Components named in an input: "x", "y", "z" or "all" -> bit mask. */
PETSC_INTERN PetscErrorCode SKExplicitReadComponents(SKExplicit ex, SKNode node, const char attr[], PetscInt *mask);
/* A vector attribute with exactly dim components (or `count` when count > 0); absent -> *found false, v untouched. */
PETSC_INTERN PetscErrorCode SKExplicitReadVector(SKExplicit ex, SKNode node, const char attr[], PetscInt count, PetscReal v[],
                                                 PetscBool *found);
/* The child <function> of NODE, or the constant DEFAULT_VALUE when there is none. */
PETSC_INTERN PetscErrorCode SKExplicitReadFunction(SKExplicit ex, SKNode node, PetscReal default_value, SKTimeFunction *f);
/* The side set named by attribute ATTR of NODE (must exist and not be empty). */
PETSC_INTERN PetscErrorCode SKExplicitSideSetFromInput(SKExplicit ex, SKNode node, const char attr[], PetscInt *n,
                                                       const PetscInt **elements, const PetscInt **faces);
/* Reference-area weights w[node] += int_face N_a dA (m^2 in 3D, m in 2D) over the sides of a side set: the consistent
   nodal load of a unit dead traction (SKFEMFaceIntegrals() per face; on NURBS patch faces the rational basis); and when
   an != NULL the area vectors an[node*dim + c] += int_face N_a n_c dA (n the outward unit normal of the reference
   face): minus the consistent nodal load of a unit dead pressure. */
PETSC_INTERN PetscErrorCode SKExplicitFaceWeights(SKExplicit ex, PetscInt nsides, const PetscInt elements[], const PetscInt faces[],
                                                  PetscReal w[], PetscReal an[]);

/* explicit_contact_setup.c */
/* <contact name sideset surface ... penalty> with a <friction law=.../> child: a side set against a rigid surface, or
   with master="SIDESET" against the side set of another body (module contact). The side set must lie on the boundary;
   the weights are those of a unit traction on it. */
PETSC_INTERN PetscErrorCode SKExplicitReadContacts(SKExplicit ex, SKNode root);
/* explicit_contact_term.c: the pair CP of the <contact> with index GROUP (its passes share it) registered as the force
   term NAME, which owns it from then on (also when the registration fails) (a two-pass pair is two pairs, <name> and
   <name>_2). */
PETSC_INTERN PetscErrorCode SKExplicitAddContactTerm(SKExplicit ex, const char name[], SKContactPair cp, PetscInt group);

/* explicit_loads.c */
/* Every dense load pattern -> its non-zero entries (the products s p are then added in the same order per dof). */
PETSC_INTERN PetscErrorCode SKExplicitCompressLoads(SKExplicit ex);
/* Loads, boundary conditions, springs, initial velocity. */
PETSC_INTERN PetscErrorCode SKExplicitReadLoadsAndConditions(SKExplicit ex, SKNode root);

/* explicit_mesh_setup.c */
/* Root-level <nodeset name lower upper> (nodes in a box) and <sideset name axis value> (boundary faces on a plane),
   added to the replicated mesh before it is distributed; plus the implicit node set "all". */
PETSC_INTERN PetscErrorCode SKExplicitAddInputSets(SKExplicit ex, SKNode root, SKMesh mesh);
/* The bodies of the (replicated) mesh: ex->body[natural element] = the smallest node number of its connected group of
   elements (elements sharing a node are connected). O(nodes + element nodes). */
PETSC_INTERN PetscErrorCode SKExplicitFindBodies(SKExplicit ex, SKMesh mesh);
/* Every element of the reference mesh must have det(dX/dxi) > 0 at every quadrature point. */
PETSC_INTERN PetscErrorCode SKExplicitCheckReference(SKExplicit ex, SKNode mesh_node, SKMesh mesh);
/* <watch name point>: the node nearest to the point in the replicated mesh; watch[i].node holds its natural number
   until the mesh is distributed. */
PETSC_INTERN PetscErrorCode SKExplicitReadWatchPoints(SKExplicit ex, SKNode root, SKMesh mesh);
/* <block name material E nu rho [state] [element]>: the material and element type of each block of the mesh. */
PETSC_INTERN PetscErrorCode SKExplicitReadBlocks(SKExplicit ex, SKNode root);

#endif
