/* stickslip dynamics: rigid-body reference models of section 3 of lugre-mortar-explicit-contact-2024 — the spring-slider
   (one block) and the Burridge-Knopoff chain (n blocks) on a rigid surface with a friction law from contact.h, integrated
   with an adaptive stiff PETSc TS — and the closed-form steady stick-slip cycle of the Coulomb spring-slider.
   Theory and the derivation of the cycle: docs/theory.md. Solvers "springslider" and "burridgeknopoff". */
#ifndef STICKSLIP_RIGID_H
#define STICKSLIP_RIGID_H

#include <stickslip/contact.h>
#include <stickslip/solver.h>
#include <stickslip/timefunction.h>

/* A chain of n equal rigid blocks sliding on a surface that moves at v_belt. Block i (displacement x_i, m) is tied by a
   spring k_drive to a driver point moving as x_d(t) = v_drive t (the slider's driven spring; the BK "leaf" springs to the
   moving support), and by springs k_couple to blocks i - 1 and i + 1 (free chain ends). Each block is pressed by
   normal_force and feels friction F_i(v_i - v_belt) from the law, plus an optional external force f(t). Springs are
   unstretched at x_i = 0 and t = 0. Equations (docs/theory.md):
     m x_i'' = k_drive (x_d - x_i) + k_couple (x_{i+1} - 2 x_i + x_{i-1}) + f(t) - F_i,   z_i' from the law. */
typedef struct {
  PetscInt n;                  /* number of blocks, >= 1 */
  PetscReal mass;              /* mass of a block (kg), > 0 */
  PetscReal normal_force;      /* normal force on a block (N), >= 0 (m g for a block under gravity) */
  PetscReal k_drive;           /* stiffness of the spring to the driver (N/m), >= 0 */
  PetscReal k_couple;          /* stiffness between neighbouring blocks (N/m), >= 0 */
  PetscReal v_drive;           /* driver velocity (m/s) */
  PetscReal v_belt;            /* velocity of the sliding surface (m/s) */
  const SKTimeFunction *force; /* external force on every block (N), NULL for none; must outlive the chain */
} SKRigidChainParams;

/* Sampled state handed to a monitor: arrays of length n (owned by the chain, valid during the call). */
typedef struct {
  PetscReal t;               /* s */
  PetscReal x_drive;         /* driver position (m) */
  const PetscReal *x, *v;    /* block displacements (m) and velocities (m/s) */
  const PetscReal *friction; /* friction forces F_i against the relative sliding (N): the block feels -F_i */
  const PetscReal *z;        /* law state per block (LuGre bristle deflection, m); NULL for stateless laws */
  const PetscReal *spring;   /* force of the driver spring on each block, k_drive (x_d - x_i) (N) */
  PetscReal kinetic;         /* sum m v_i^2 / 2 (J) */
  PetscReal potential;       /* energy of all springs (J) */
  PetscReal work;            /* work done on the blocks by the driver, the external force and the belt since t = 0 (J) */
  PetscReal friction_work;   /* integral of sum F_i (v_i - v_belt) dt (J): dissipation + stored_friction */
  PetscReal stored_friction; /* energy held by the friction states now (LuGre sigma0 N z^2 / 2 summed) (J) */
  PetscReal energy_residual; /* kinetic + potential + friction_work - work - (kinetic + potential)(0) (J) */
  PetscInt steps, rejected;  /* accepted and rejected TS steps so far */
} SKRigidChainSample;

typedef PetscErrorCode (*SKRigidChainMonitorFn)(const SKRigidChainSample *sample, void *mctx);

typedef struct _p_SKRigidChain *SKRigidChain;

/* Creates the model. LAW must have a continuous form (lugre, coulomb-tanh, coulomb-threlfall: the Coulomb return
   mappings are discrete only; use SKSpringSliderCoulombCycle() for the exact Coulomb reference) and must outlive the
   chain. Options with PREFIX (e.g. "springslider_") configure the TS: -springslider_ts_type bdf, -..._ts_rtol, ... The
   caller owns *chain. */
PETSC_EXTERN PetscErrorCode SKRigidChainCreate(MPI_Comm comm, const SKRigidChainParams *p, SKFrictionLaw law, const char prefix[],
                                               SKRigidChain *chain);
/* Reads the TS options with PREFIX that SKRigidChainCreate() and the solve will use (type, tolerances, the chosen
   type's own options) on a throw-away TS, so that a solver's set-up lists them with -help and marks them used for the
   program's unused-option check before the run. */
PETSC_EXTERN PetscErrorCode SKRigidChainReadOptions(MPI_Comm comm, const char prefix[]);
/* Initial displacements x_i(0) (m), n values (default 0); velocities start at 0, friction states at 0. */
PETSC_EXTERN PetscErrorCode SKRigidChainSetInitialDisplacements(SKRigidChain chain, const PetscReal x0[]);
/* Relative tolerance of the adaptive integrator and the absolute tolerance of displacements (m); the other absolute
   tolerances follow (velocities: atol_x / 1 s; friction state: 1e-6 mu_s / sigma0; energies: atol_x times 1 N).
   Defaults 1e-8 and 1e-10 m. Options -PREFIXts_rtol/-PREFIXts_atol are read afterwards and win. */
PETSC_EXTERN PetscErrorCode SKRigidChainSetTolerances(SKRigidChain chain, PetscReal rtol, PetscReal atol_x);
/* Integrates from t = 0 to t_end (s), calling MONITOR (may be NULL) at t = 0 and every dt_out (s) up to t_end, at
   exactly those times (the steps are shortened to land on them). Fails with a message if the integrator diverges. */
PETSC_EXTERN PetscErrorCode SKRigidChainSolve(SKRigidChain chain, PetscReal t_end, PetscReal dt_out, SKRigidChainMonitorFn monitor,
                                              void *mctx);
/* The TS type actually used (after options), for the summary. */
PETSC_EXTERN PetscErrorCode SKRigidChainGetTSType(SKRigidChain chain, const char *type[]);
PETSC_EXTERN PetscErrorCode SKRigidChainDestroy(SKRigidChain *chain);

/* The exact steady stick-slip cycle of the Coulomb spring-slider (one block, mass m (kg), driver spring k (N/m) pulled at
   V > 0 (m/s), fixed surface, normal force N (N), static mu_s >= kinetic mu_k; mu_s = mu_k, classical Coulomb, gives
   t_stick = 0: the block stops for an instant and slips on): with omega = sqrt(k/m),
   Delta = (mu_s - mu_k) N / k and beta = atan(omega Delta / V),
     t_stick = 2 Delta / V,  t_slip = (2 pi - 2 beta) / omega,  spring force drop = 2 (mu_s - mu_k) N,
   the spring force swinging between mu_s N (break-away) and (2 mu_k - mu_s) N (re-stick); the first stick from the
   unstretched spring lasts t_first = mu_s N / (k V). Derivation: docs/theory.md. */
typedef struct {
  PetscReal t_first, t_stick, t_slip; /* s */
  PetscReal force_drop;               /* drop of the spring force over a slip (N) */
  PetscReal force_max, force_min;     /* spring force at break-away and at re-stick (N) */
  PetscReal slip_distance;            /* block travel per slip, V (t_stick + t_slip) (m) */
  PetscReal v_max;                    /* peak block velocity during a slip (m/s) */
} SKCoulombCycle;

PETSC_EXTERN PetscErrorCode SKSpringSliderCoulombCycle(PetscReal m, PetscReal k, PetscReal V, PetscReal N, PetscReal mu_s, PetscReal mu_k,
                                                       SKCoulombCycle *cycle);
/* The exact Coulomb trajectory of the same spring-slider started at rest with an unstretched spring: block
   displacement x (m) and velocity v (m/s) at time t >= 0 (s). */
PETSC_EXTERN PetscErrorCode SKSpringSliderCoulombExact(PetscReal m, PetscReal k, PetscReal V, PetscReal N, PetscReal mu_s, PetscReal mu_k,
                                                       PetscReal t, PetscReal *x, PetscReal *v);

/* Solvers of the studies (register in src/app/register.c): XML roots "springslider" and "burridgeknopoff". */
PETSC_EXTERN const SKSolverType SKSolverSpringSlider;
PETSC_EXTERN const SKSolverType SKSolverBurridgeKnopoff;

#endif
