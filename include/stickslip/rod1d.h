/* stickslip rod1d: two elastic rods in Coulomb frictional contact (Tsetas et al. 2022), the "rodpair" study.
   Rod 1 (free-free, force P(t) at z1 = 0) is a lumped-mass chain of N nodes; rod 2 (free at z2 = 0, fixed at z2 = L2)
   keeps its N_m in-vacuo modes (closed form, or exact per layer for a layered rod 2). Node i of rod 1 sits at zbar_i = z1_i + u1_i - l1 on
   rod 2. */
#ifndef STICKSLIP_ROD1D_H
#define STICKSLIP_ROD1D_H

#include <stickslip/solver.h>

/* Most segments (layers of constant EA and rho A) of a non-uniform rod 1 or a layered rod 2. */
#define SK_RODPAIR_MAX_SEGMENTS 32

/* Physical and discretisation parameters of a rod pair (SI units). */
typedef struct {
  PetscReal EA1;   /* rod 1 axial stiffness E1 A1 (N) */
  PetscReal rhoA1; /* rod 1 mass per unit length rho1 A1 (kg/m) */
  PetscReal L1;    /* rod 1 length (m) */
  PetscReal EA2;   /* rod 2 axial stiffness (N) */
  PetscReal rhoA2; /* rod 2 mass per unit length (kg/m) */
  PetscReal L2;    /* rod 2 length (m) */
  PetscReal l1;    /* length of rod 1 above the top of rod 2 at t = 0 (m); initial contact length is L1 - l1 */
  PetscReal mu_s;  /* static friction coefficient (-) */
  PetscReal mu_k;  /* kinetic friction coefficient (-), mu_k <= mu_s */
  PetscReal NF;    /* normal load per unit length of contact (N/m) */
  PetscInt N;      /* nodes of rod 1 (>= 1; a single node is a rigid block of mass rhoA1 L1) */
  PetscInt Nm;     /* modes of rod 2 (>= 1) */
  /* Non-uniform rod 1: nseg1 > 0 segments from the head z1 = 0 downwards, of lengths seg1_length (m, summing to L1),
     axial stiffness seg1_EA (N) and mass per length seg1_rhoA (kg/m); EA1 and rhoA1 are then not used. nseg1 = 0: a
     uniform rod 1 of EA1, rhoA1. */
  PetscInt nseg1;
  PetscReal seg1_length[SK_RODPAIR_MAX_SEGMENTS], seg1_EA[SK_RODPAIR_MAX_SEGMENTS], seg1_rhoA[SK_RODPAIR_MAX_SEGMENTS];
  /* Layered rod 2: nseg2 > 0 layers from its top z2 = 0 (where rod 1 enters) down to the fixed end z2 = L2, of lengths
     seg2_length (m, summing to L2), EA seg2_EA (N) and rho A seg2_rhoA (kg/m); EA2 and rhoA2 are then not used, and the
     modes come from the exact transfer matrices of the layers. nseg2 = 0: a uniform rod 2 of EA2, rhoA2. */
  PetscInt nseg2;
  PetscReal seg2_length[SK_RODPAIR_MAX_SEGMENTS], seg2_EA[SK_RODPAIR_MAX_SEGMENTS], seg2_rhoA[SK_RODPAIR_MAX_SEGMENTS];
  /* Depth-dependent friction: nfric > 0 points at depths fric_depth (m on rod 2, from 0, increasing, the last >= L2)
     with mu_s, mu_k (-) and N_F (N/m) there, each linear between points and constant beyond the last; mu_s, mu_k, NF
     are then not used. nfric = 0: uniform friction. */
  PetscInt nfric;
  PetscReal fric_depth[SK_RODPAIR_MAX_SEGMENTS], fric_mu_s[SK_RODPAIR_MAX_SEGMENTS], fric_mu_k[SK_RODPAIR_MAX_SEGMENTS],
      fric_NF[SK_RODPAIR_MAX_SEGMENTS];
  /* Hammer (pile driving; ram_mass = 0: none, the head is loaded by P(t) only): a rigid ram of ram_mass (kg) strikes the
     head z1 = 0 of rod 1 through a cushion of loading stiffness cushion_stiffness (N/m) and unloading stiffness
     cushion_stiffness / restitution^2 (Smith's model, 0 < restitution <= 1) that carries compression only; helmet_mass (kg,
     >= 0) is added to the head node of rod 1 (a helmet resting on the head). The ram and its velocity are two extra
     unknowns; SKRodPairHammerStrike() starts a blow. Only the RK45 integrator takes a hammer. */
  PetscReal ram_mass, cushion_stiffness, restitution, helmet_mass;
} SKRodPairParams;

/* Contact state of a node of rod 1. */
typedef enum {
  SK_ROD_FREE     = 0, /* not in contact with rod 2 (or frictionless) */
  SK_ROD_SLIP_POS = 1, /* slipping, relative velocity > 0: kinetic friction -mu_k NF per length */
  SK_ROD_SLIP_NEG = 2, /* slipping, relative velocity < 0 */
  SK_ROD_STICK    = 3  /* sticking to rod 2 */
} SKRodNodeState;

/* Energy account of a run (J). balance = kinetic + strain + dissipated - work, which is 0 for the exact solution. */
typedef struct {
  PetscReal work;       /* work of P(t) */
  PetscReal kinetic1;   /* kinetic energy of rod 1 */
  PetscReal strain1;    /* strain energy of rod 1 */
  PetscReal kinetic2;   /* kinetic energy of rod 2 (retained modes) */
  PetscReal strain2;    /* strain energy of rod 2 (retained modes) */
  PetscReal dissipated; /* energy dissipated by friction */
  /* with a hammer (0 without): work is then the work of the cushion force on the head (the energy transferred) */
  PetscReal hammer_input;   /* kinetic energy M v0^2 / 2 of the ram at its impacts, summed over the blows */
  PetscReal ram_kinetic;    /* kinetic energy of the ram, with what the rams of earlier blows carried away */
  PetscReal cushion_stored; /* recoverable elastic energy in the cushion */
  PetscReal cushion_loss;   /* energy lost in the cushion's hysteresis (1 - e^2) k dmax^2 / 2 per contact */
  PetscReal balance;        /* without a hammer: kinetic + strain + dissipated - work; with one: kinetic + strain +
                               dissipated + ram_kinetic + cushion_stored + cushion_loss - hammer_input */
} SKRodPairEnergy;

/* A rod pair with its semi-discrete model, state and time integrator. */
typedef struct _p_SKRodPair *SKRodPair;

/* Load P(t) (N) at z1 = 0: value at time t (s). Must be pure. */
typedef PetscReal (*SKRodPairLoadFn)(void *ctx, PetscReal t);

/* Called at each output time with the state there: u1, v1 (N values, m and m/s), vrel = v1 - (rod 2 velocity under
   the node) (m/s), eta, etadot (N_m mass-normalised modal coordinates of rod 2, sqrt(kg) m and sqrt(kg) m/s), the
   node states and the energy account. Arrays are owned by the rod pair and valid during the call. */
typedef PetscErrorCode (*SKRodPairMonitorFn)(void *ctx, PetscReal t, const PetscReal u1[], const PetscReal v1[], const PetscReal vrel[],
                                             const PetscReal eta[], const PetscReal etadot[], const SKRodNodeState state[],
                                             const SKRodPairEnergy *energy);

/* Integration method: reference Dormand-Prince RK45 with event location, SUNDIALS CVODE with root finding (only
   when built with STICKSLIP_WITH_CVODE), or the mode-matching method. */
typedef enum { SK_RODPAIR_RK45, SK_RODPAIR_CVODE, SK_RODPAIR_MMM } SKRodPairMethod;
PETSC_EXTERN const char *const SKRodPairMethods[];
/* Why a build without CVODE refuses SK_RODPAIR_CVODE: the rodpair solver's set-up (so that validate refuses it too)
   and SKRodPairSolve() say the same. */
#define SK_RODPAIR_NO_CVODE_MESSAGE \
  "stickslip was built without CVODE; reconfigure with -DSTICKSLIP_WITH_CVODE=ON or use -rodpair_solver rk45"

/* Creates a rod pair from PARAMS (copied) and the load LOAD(LOAD_CTX, t) (the context is borrowed: it must outlive
   the rod pair). Checks the parameters with PetscCheck (PETSC_ERR_ARG_OUTOFRANGE); user input is checked earlier by the
   solver's setup with file:line messages. The state is at rest, u1 = 0, eta = 0, at t = 0. */
PETSC_EXTERN PetscErrorCode SKRodPairCreate(MPI_Comm comm, const SKRodPairParams *params, SKRodPairLoadFn load, void *load_ctx,
                                            SKRodPair *rp);
PETSC_EXTERN PetscErrorCode SKRodPairDestroy(SKRodPair *rp);
/* Relative and absolute tolerances of the adaptive integrators. atol is in m for displacements; velocities and modal
   coordinates are scaled from it by the first flexible frequency of rod 1 and the rod-2 mode amplitude. Defaults 1e-7, 1e-10. */
PETSC_EXTERN PetscErrorCode SKRodPairSetTolerances(SKRodPair rp, PetscReal rtol, PetscReal atol);
/* Largest step (s) of the adaptive integrators (default: no limit beyond the output interval). */
PETSC_EXTERN PetscErrorCode SKRodPairSetMaxStep(SKRodPair rp, PetscReal hmax);
/* Times (s) the integrator must step onto because P(t) has a kink or jump there (e.g. the ends of a pulse). Copied. */
PETSC_EXTERN PetscErrorCode SKRodPairSetBreakpoints(SKRodPair rp, PetscInt n, const PetscReal t[]);
/* Declares the closed form the mode-matching method needs: P(t) = Pc + P0 sin(W t + phase) (N, rad/s, rad) with Pc
   constant between breakpoints (harmonic, constant and pulse loads). The load function must agree with it. */
PETSC_EXTERN PetscErrorCode SKRodPairSetLoadForm(SKRodPair rp, PetscReal P0, PetscReal W, PetscReal phase);
/* Mode-matching steps as fractions of 1/omega_max. COUPLING: the pseudo-force step that couples rod 2 and the sticking
   nodes, coupling / (omega of the last rod-2 mode); 0 (the default) takes SKRodPairDefaultMMMCoupling(); it does not
   depend on the rod-1 spacing. SAMPLE: event
   bracketing samples every sample / max(2 sqrt(k/m), omega of the last rod-2 mode) (default 1); a sample is not a time
   step but a closed-form evaluation of only those event functions whose Lipschitz bound allows a crossing by then. */
PETSC_EXTERN PetscErrorCode SKRodPairSetMMMSteps(SKRodPair rp, PetscReal sample, PetscReal coupling);
/* The default coupling step of the mode matching (a fraction of 1/omega of the last rod-2 mode) for rods P:
   0.5 / max(1, 2 EA1/EA2), EA1 the stiffest part of rod 1, EA2 the softest layer of rod 2. The sticking nodes' inertia
   on rod 2 is taken implicitly, but the spring forces rod 1 passes to rod 2 through them are interpolated linearly
   over the step, an error that grows with the stiffness rod 1 adds to rod 2: 0.5 for the paper's rod 2 (EA2 = 1e4 EA1),
   0.25 when rod 2 is as stiff as rod 1 (docs/validation/rodpair.md, soft rod 2). */
PETSC_EXTERN PetscReal SKRodPairDefaultMMMCoupling(const SKRodPairParams *p);
/* Mode matching: ALWAYS = PETSC_TRUE takes the eigenpairs of every rod-1 segment from LAPACK's tridiagonal eigen-solve
   that general non-uniform segments need, also where a closed form exists (uniform segments, two uniform pieces joined
   at a node): a check of either (default PETSC_FALSE). */
PETSC_EXTERN PetscErrorCode SKRodPairSetMMMEigenSolve(SKRodPair rp, PetscBool always);
/* Mode matching: uniform rod-1 segments of at least SEG_MIN nodes are projected onto their modes and reconstructed
   from them by fast discrete cosine and sine transforms (O(n log n), FFTW underneath), shorter ones by their dense mode
   rows (O(n^2), the faster below the crossover measured in docs/benchmarks.md). An event evaluation that needs at least
   NODES_MIN nodes of such a segment reconstructs it whole. MEASURE: FFTW plans by trial runs (FFTW_MEASURE) instead of
   its estimate. SEG_MIN >= 2 (a value above N keeps every segment on the dense path: a check of either), NODES_MIN >= 1;
   defaults SK_RODPAIR_MMM_SEG_MIN, SK_RODPAIR_MMM_NODES_MIN, PETSC_FALSE. */
#define SK_RODPAIR_MMM_SEG_MIN 32
#define SK_RODPAIR_MMM_NODES_MIN 32
PETSC_EXTERN PetscErrorCode SKRodPairSetMMMTransforms(SKRodPair rp, PetscInt seg_min, PetscInt nodes_min, PetscBool measure);
/* Mode matching, after a solve: FFTW plans and chirp tables (per transform kind and segment length) made. */
PETSC_EXTERN PetscErrorCode SKRodPairGetMMMTransformCounts(SKRodPair rp, PetscInt *plans, PetscInt *tables);
/* Mode matching, after a solve: closed-form evaluations of the event functions by purpose, COUNTS[0..3]: samples of
   the coupling steps, bracket starts (the watched functions where a bracket begins), the root finder (with the values
   at the root), the searches of a just-switched node going the wrong way. */
#define SK_RODPAIR_MMM_EVAL_KINDS 4
PETSC_EXTERN PetscErrorCode SKRodPairGetMMMEventEvaluations(SKRodPair rp, PetscInt counts[SK_RODPAIR_MMM_EVAL_KINDS]);
/* Mode matching, after a solve: eigen-solves of non-uniform segments (SOLVES), those of them made in closed form as two
   uniform pieces joined at a node instead of by LAPACK (CLOSED), and segment eigenpairs found in the cache instead of
   solved (HITS). Any pointer may be NULL. */
PETSC_EXTERN PetscErrorCode SKRodPairGetMMMEigenCounts(SKRodPair rp, PetscInt *solves, PetscInt *hits, PetscInt *closed);
/* Calls MONITOR every dt_out seconds (and at t = 0 and at the final time). */
PETSC_EXTERN PetscErrorCode SKRodPairSetMonitor(SKRodPair rp, PetscReal dt_out, SKRodPairMonitorFn monitor, void *ctx);
/* Integrates from the current time to t_end (s) with METHOD. */
PETSC_EXTERN PetscErrorCode SKRodPairSolve(SKRodPair rp, SKRodPairMethod method, PetscReal t_end);
/* Current time (s) and state; any output pointer may be NULL. u1, v1 (N values) and eta, etadot (Nm mass-normalised
   modal coordinates of rod 2, sqrt(kg) m and sqrt(kg) m/s) point into the rod pair. */
PETSC_EXTERN PetscErrorCode SKRodPairGetState(SKRodPair rp, PetscReal *t, const PetscReal *u1[], const PetscReal *v1[],
                                              const PetscReal *eta[], const PetscReal *etadot[], const SKRodNodeState *state[]);
PETSC_EXTERN PetscErrorCode SKRodPairGetEnergy(SKRodPair rp, SKRodPairEnergy *energy);
/* Counters of the last solve: accepted and rejected steps, right-hand-side evaluations, events (state changes). */
PETSC_EXTERN PetscErrorCode SKRodPairGetCounts(SKRodPair rp, PetscInt *steps, PetscInt *rejected, PetscInt *rhs_evals, PetscInt *events);
/* Hammer (params ram_mass > 0): starts a blow at the current time, the ram touching the unloaded cushion (its
   position that of the head) with velocity V0 > 0 (m/s, towards +z). What the ram and cushion of the previous blow
   still held is booked as carried away (SKRodPairEnergy ram_kinetic). */
PETSC_EXTERN PetscErrorCode SKRodPairHammerStrike(SKRodPair rp, PetscReal v0);
/* Hammer state now: whether the ram is in contact (the cushion compressed), the largest cushion force (N) of the blow,
   the ram velocity (m/s). Any output pointer may be NULL. */
PETSC_EXTERN PetscErrorCode SKRodPairGetHammer(SKRodPair rp, PetscBool *contact, PetscReal *max_force, PetscReal *ram_velocity);
/* Hammer, during a monitor call: the cushion force on the head (N) and the ram velocity (m/s) at the output time. */
PETSC_EXTERN PetscErrorCode SKRodPairGetOutputHammer(SKRodPair rp, PetscReal *force, PetscReal *ram_velocity);
/* The friction force on each node of rod 1 (N, N values owned by the rod pair) at the current state, and each node's
   static capacity mu_s N_F over its clipped tributary length (N, written to CAP[N] when not NULL). */
PETSC_EXTERN PetscErrorCode SKRodPairGetFriction(SKRodPair rp, const PetscReal *force[], PetscReal cap[]);
/* Axial force (N, tension positive) in each of the N - 1 elements of rod 1 at the current state, into FORCE[N - 1]. */
PETSC_EXTERN PetscErrorCode SKRodPairGetAxialForce(SKRodPair rp, PetscReal force[]);

/* Mass-weighted mean displacement of rod 1 (m): its rigid-body displacement, whatever its vibration. */
PETSC_EXTERN PetscErrorCode SKRodPairGetRod1MeanDisplacement(SKRodPair rp, PetscReal *ubar);
/* Rod 2's modes: their number, angular frequencies (rad/s, owned by the rod pair) and the relative accuracy to which the
   frequencies were located (0: closed form, a uniform rod 2; layered: the bisection's relative bracket width). */
PETSC_EXTERN PetscErrorCode SKRodPairGetRod2Modes(SKRodPair rp, PetscInt *nm, const PetscReal *omega[], PetscReal *rtol);
/* Rod 2's modal truncation, estimated from the outputs so far (a monitor must be set; it accumulates over every solve).
   RATIO: the rod-2 velocity under the slipping nodes carried by the top half of the retained modes (n > N_m / 2), over
   the relative velocity of those nodes, root mean square over output times and nodes (0 while nothing has slipped). Above the frequencies
   that drive the response the modal amplitudes fall off steadily, so the neglected modes carry a comparable amount; ESTIMATE: the relative
   L2 error of the u1 histories this causes, RATIO times SK_RODPAIR_TRUNCATION_CALIBRATION (measured against runs with many more modes,
   docs/theory.md). NEEDED: the N_m for an estimate of TOL, from its measured 1/N_m decay (N_m itself when the estimate is within TOL). Any
   output pointer may be NULL. */
PETSC_EXTERN PetscErrorCode SKRodPairGetRod2Truncation(SKRodPair rp, PetscReal tol, PetscReal *estimate, PetscReal *ratio,
                                                       PetscInt *needed);
/* Tolerance the run checks the truncation estimate against, and the calibration of the estimate (see above). */
#define SK_RODPAIR_TRUNCATION_TOL 1e-3
#define SK_RODPAIR_TRUNCATION_CALIBRATION 0.1
/* Default number of rod-2 modes for PARAMS (its N and rods): enough that rod 2's modes reach the frequency up to which
   rod 1's chain of N nodes represents waves within 1 % (docs/theory.md, rod pair), and at least 50. */
PETSC_EXTERN PetscInt SKRodPairDefaultModes(const SKRodPairParams *params);
/* Mode shape psi_n(z2) of rod 2 (mass-normalised, 1/sqrt(kg)) for n = 0 .. nm - 1, z2 in [0, L2] (m). */
PETSC_EXTERN PetscErrorCode SKRodPairGetRod2Shape(SKRodPair rp, PetscInt n, PetscReal z2, PetscReal *psi);
/* Displacement u2 (m) of rod 2 at z2 (m), from the current modal coordinates. */
PETSC_EXTERN PetscErrorCode SKRodPairGetRod2Displacement(SKRodPair rp, PetscReal z2, PetscReal *u2);

/* The "rodpair" study: root element <rodpair> of an input, schema rodpair.xsd. */
PETSC_EXTERN const SKSolverType SKSolverRodPair;

/* ======== bars2020 (src/rod1d/bars*.c) ========
   The "bars2020" study (Molenkamp et al. 2020): two bars, Threlfall-regularised friction over their moving overlap,
   modal solution with the rigid-body mode and the exact per-step Duhamel update, and the linear equivalent stepped
   bar of the paper's section 2.3. Root element <bars2020> of an input, schema bars2020.xsd; results in /bars2020 of
   results.h5 (layout in docs/validation/bars2020.md). */
PETSC_EXTERN const SKSolverType SKSolverBars2020;
/* ======== end of bars2020 section ======== */

#endif
