/* stickslip memkernel: point-contact memory-kernel reduction of a linear structure with one friction contact
   (Szalai 2013, "Modelling elastic structures with strong nonlinearities ...", sections III-V) and its
   full-modal reference, with the bowed string of section V as the application.

   Units: the quantities are those of the modal equations x_k'' + 2 D_k w_k x_k' + w_k^2 x_k = n_k F(t) (II.3) with
   mass-normalised modes: time in s, frequencies in rad/s, the contact displacement y1 in m, velocity y2 in m/s,
   the contact force F in N per unit modal mass (the paper's study is non-dimensional, so "1" everywhere).
   Memory given to a function is owned by the caller unless the comment says otherwise. */
#ifndef STICKSLIP_MEMKERNEL_H
#define STICKSLIP_MEMKERNEL_H

#include <stickslip/solver.h>

/* Registers the module's log events (SKMemKernel, SKMemReduced, SKMemFull) after SKInitializePackage(); idempotent.
   Called by the functions below, so -log_view shows where the time of a bowedstring run goes. */
PETSC_EXTERN PetscErrorCode SKMemKernelInitializePackage(void);

/* Modal data of a linear structure seen from one contact point. */
typedef struct {
  PetscInt n;       /* number of modes */
  PetscReal *omega; /* natural angular frequencies w_k (rad/s), > 0 */
  PetscReal *zeta;  /* damping ratios D_k, 0 <= D_k < 1 */
  PetscReal *shape; /* mode-shape values at the contact point [n]_k (mass-normalised modes) */
} SKModalData;

/* Allocates MD for N modes (arrays zeroed). Release with SKModalDataReset(). */
PETSC_EXTERN PetscErrorCode SKModalDataCreate(PetscInt n, SKModalData *md);
/* Frees the arrays of MD and zeroes it. */
PETSC_EXTERN PetscErrorCode SKModalDataReset(SKModalData *md);
/* Checks the data of MD (n >= 1, w_k > 0, 0 <= D_k < 1, finite shapes) and raises PETSC_ERR_ARG_OUTOFRANGE naming
   the first bad mode. */
PETSC_EXTERN PetscErrorCode SKModalDataCheck(const SKModalData *md);

/* Pre-tensed string on [0, 1] (III.21), wave speed C (1/s in the non-dimensional length), fixed ends, contact at
   XI in (0, 1): w_k = C k pi, [n]_k = sin(k pi XI), D_k = ZETA for all modes. MD is created here. */
PETSC_EXTERN PetscErrorCode SKModalDataCreateString(PetscInt n, PetscReal c, PetscReal xi, PetscReal zeta, SKModalData *md);
/* Euler-Bernoulli cantilever u_tt = -u_xxxx on [0, 1] (III.31), clamped at 0, contact at the free end:
   w_k = beta_k^2 with 1 + cos(beta) cosh(beta) = 0 (Newton from (k - 1/2) pi), [n]_k = 2 (-1)^(k+1), D_k = ZETA.
   MD is created here. */
PETSC_EXTERN PetscErrorCode SKModalDataCreateCantilever(PetscInt n, PetscReal zeta, SKModalData *md);

/* The reduced model's constant terms for the lifting vector m = e_P / [n]_P (III.6) on pivot mode P (0-based;
   the paper takes the first mode): A (III.23), row-major 2x2, and L_inf (III.17, III.28); L_inf[0] = 0 always.
   Errors if [n]_P = 0 (the lifting does not exist). */
PETSC_EXTERN PetscErrorCode SKMemoryKernelConstants(const SKModalData *md, PetscInt pivot, PetscReal A[4], PetscReal linf[2]);
/* The integrated memory kernel [L^1(tau)]_2 (III.18) at NTAU times TAU[] >= 0 (s), into L1[] (m/s per N).
   The first component [L^1]_1 is identically zero for this lifting ((III.26), first line) and is not returned.
   Evaluated in closed form per mode; this corrects the damped-case coefficients of the paper's (III.29), see
   docs/theory.md. */
PETSC_EXTERN PetscErrorCode SKMemoryKernelL1(const SKModalData *md, PetscInt pivot, PetscInt ntau, const PetscReal tau[], PetscReal l1[]);
/* Closed-form right limit of [L^1]_2 at tau = 0+ for the string with uniform damping D (III.30):
   acos(D) / (2 pi c sqrt(1 - D^2)). */
PETSC_EXTERN PetscReal SKMemoryStringL1RightLimit(PetscReal c, PetscReal zeta);

/* Friction between bow and string (V.1). The force on the string opposes the relative velocity:
   F = -sign(v) (mu - kappa + kappa exp(-sigma |v|)), v = y2 - v0, and |F| <= mu while sticking (v = 0).
   (The paper writes F_c = f_c(v_rel); with its sign the "friction" would feed slip, see docs/theory.md.) */
typedef struct {
  PetscReal mu;    /* static friction force limit, = |F(0+)| (N per unit modal mass) */
  PetscReal kappa; /* drop of the force from static to fully developed sliding (same unit as mu), 0 <= kappa <= mu */
  PetscReal sigma; /* decay rate of the force with slip speed (s/m) */
  PetscReal v0;    /* bow speed (m/s) */
} SKBowFriction;

/* Slip force on the string for slip side SIDE (+1: v > 0, -1: v < 0) at relative velocity V (m/s); pure. */
PETSC_EXTERN PetscReal SKBowFrictionSlipForce(const SKBowFriction *fr, PetscInt side, PetscReal v);

/* A sampled trajectory of the contact point and the list of stick/slip transitions. */
typedef struct {
  PetscInt nsamples, capacity;
  PetscReal *t, *y1, *y2, *force; /* time (s), displacement (m), velocity (m/s), force on the string */
  PetscInt *stick;                /* 1 while sticking */
  PetscInt nevents, event_capacity;
  PetscReal *event_t;            /* time of the transition (s) */
  PetscInt *event_kind;          /* 1: stick onset, 0: release (stick -> slip), 2: crossing of v = 0 without sticking */
  PetscReal *event_force_before; /* force just before the transition */
  PetscReal *event_force_after;  /* force just after it (the jump at stick onset is after - before) */
  PetscInt steps;                /* time steps taken (accepted + rejected for the adaptive full model) */
  PetscInt rhs_evals;            /* right-hand side evaluations (full model) */
  PetscReal energy_residual;     /* full model: |E(end) - E(0) + damping loss - friction work| / (E(0) + loss + |work|) */
} SKBowTrajectory;

/* Frees the arrays of TRAJ and zeroes it. */
PETSC_EXTERN PetscErrorCode SKBowTrajectoryReset(SKBowTrajectory *traj);
/* Limit-cycle measures from the stick onsets after time T_FROM (s): mean period between consecutive onsets and
   mean stick duration (s) over the last NCYCLES complete cycles (NCYCLES <= 0: all after T_FROM). Errors if fewer
   than two onsets follow T_FROM. */
PETSC_EXTERN PetscErrorCode SKBowTrajectoryLimitCycle(const SKBowTrajectory *traj, PetscReal t_from, PetscInt ncycles, PetscReal *period,
                                                      PetscReal *stick_duration);

/* Settings of the reduced delay-equation solver. */
typedef struct {
  PetscReal dt;        /* time step (s) */
  PetscReal tol;       /* bound on the history-compression error of the convolution (m/s), see SKMemoryReducedSolve() */
  PetscInt window;     /* number of past steps summed directly; <= 0: chosen to minimise the cost per step */
  PetscInt pivot;      /* pivot mode of the lifting (0-based) */
  SKProgress progress; /* progress reporter, updated every 1024 steps (NULL: none; not owned) */
} SKMemoryReducedSettings;

/* Statistics of the kernel compression chosen by SKMemoryReducedSolve(). */
typedef struct {
  PetscInt window;       /* past steps summed directly with exact weights of all modes */
  PetscInt far_modes;    /* modes kept in the recursive far-field convolution */
  PetscReal error_bound; /* bound on |error of the convolution C(t)| (m/s) from dropping the other modes' far field */
  PetscReal jump_weight; /* weight of the current force in the velocity, ~ [L^1(0+)]_2 for many modes (m/s per N) */
} SKMemoryReducedInfo;

/* Solves the reduced delay equation (IV.1) for the contact point from y(0) = Y_START (lifted with W, so H(t) z(0) = 0)
   to T_END (s) with friction FR; stick through the implicit friction force ((IV.5), (V.4)): each step solves the
   scalar inclusion y2 = r + b F, F in -f_c(y2 - v0), whose graph is monotone, so stick (|F| <= mu) or slip is
   decided without a separate test. F is constant on each step (its end value), which makes the convolution
   d/dt int L^0(tau) F(t - tau) dtau exact with weights L^1((i+1)h) - L^1(ih); u = y - C e2 uses the trapezoidal rule.
   First order in h (events fall inside steps). The history is split into a direct window and a recursive sum over
   the modes whose far field is not negligible: the dropped ones bound the error of C by SETTINGS->tol at every step
   (|F| <= mu); the cost per step is O(window + far modes), not O(step number). A one-step stick that is left to the
   other side is reported as a crossing (event kind 2). Samples every SAMPLE_EVERY steps into TRAJ (reset it first);
   INFO may be NULL. */
PETSC_EXTERN PetscErrorCode SKMemoryReducedSolve(const SKModalData *md, const SKBowFriction *fr, const SKMemoryReducedSettings *settings,
                                                 const PetscReal y_start[2], PetscReal t_end, PetscInt sample_every, SKBowTrajectory *traj,
                                                 SKMemoryReducedInfo *info);

/* Settings of the full-modal event-driven reference. */
typedef struct {
  PetscReal rtol, atol; /* Dormand-Prince 5(4) local error tolerances (relative, absolute in state units) */
  PetscReal h_max;      /* largest step (s); <= 0: no limit */
  SKProgress progress;  /* progress reporter, updated every 256 steps (NULL: none; not owned) */
} SKMemoryFullSettings;

/* Integrates the N modal equations (II.3) with the same friction from x_P = Y_START[0] / [n]_P, x_P' = Y_START[1] / [n]_P
   (pivot P = 0), all other modes at rest, to T_END (s). Event-driven Filippov treatment: slip phases are smooth ODEs
   on one side of v = 0; a crossing of v = 0 is located on the dense output and either continues on the other side
   or, when the constraint force F* = -n.(-2 D W x' - W^2 x) / (n.n) lies in [-mu, mu], starts a stick phase in which
   F = F* keeps v = 0 exactly (a linear invariant of the Runge-Kutta method) until |F*| reaches mu. Also integrates
   the damping loss and the friction work for the energy balance (traj->energy_residual). Samples at the times
   k SAMPLE_DT into TRAJ (reset it first). */
PETSC_EXTERN PetscErrorCode SKMemoryFullSolve(const SKModalData *md, const SKBowFriction *fr, const SKMemoryFullSettings *settings,
                                              const PetscReal y_start[2], PetscReal t_end, PetscReal sample_dt, SKBowTrajectory *traj);

/* The "bowedstring" solver (root element <bowedstring>, schema bowedstring.xsd); registered in src/app/register.c. */
PETSC_EXTERN const SKSolverType SKSolverBowedString;

#endif
