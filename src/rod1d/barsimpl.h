/* rod1d bars2020 (Molenkamp et al. 2020): private kernels of the two-bar Threlfall-friction modal model and of its
   linear equivalent stepped bar. Pure functions on plain arrays, unit-tested in tests/unit/rod1d/test_bars*.c. */
#ifndef STICKSLIP_ROD1D_BARSIMPL_H
#define STICKSLIP_ROD1D_BARSIMPL_H

#include <math.h>
#include <stickslip/timefunction.h>

/* Cosine mode family of a uniform bar of length L: phi_j(x) = cos((j + offset) pi x / L), j = 0..n-1.
   offset 0: free-free (paper eq. 13, rigid-body mode j = 0 included); offset 1/2: free at x = 0, fixed at x = L (eq. 14). */
typedef struct {
  PetscInt n;       /* number of modes */
  PetscReal offset; /* 0 (free-free) or 0.5 (free-fixed) */
  PetscReal length; /* m */
  PetscReal rhoA;   /* mass per length, kg/m */
  PetscReal c;      /* wave speed sqrt(EA / rhoA), m/s */
} SKBarsCosineFamily;

/* Angular frequencies omega_j = (j + offset) pi c / L (rad/s) and modal masses rhoA int_0^L phi_j^2 dx (kg), eq. 17:
   rhoA L for the rigid mode, rhoA L / 2 otherwise. Arrays of length fam->n, owned by the caller. */
PetscErrorCode SKBarsCosineFamilyModes(const SKBarsCosineFamily *fam, PetscReal omega[], PetscReal mass[]);

/* sum_j a[j] phi_j(x) by Clenshaw's recurrence (O(n), no trigonometric call per term). */
PetscReal SKBarsCosineFamilySum(const SKBarsCosineFamily *fam, const PetscReal a[], PetscReal x);
/* acc[j] += w phi_j(x) for all j (the transposed operation: projection of a point load w at x). */
void SKBarsCosineFamilyAddProjection(const SKBarsCosineFamily *fam, PetscReal w, PetscReal x, PetscReal acc[]);
/* The same at NP points at once (the hot loop of the friction integrals): out[p] = sum_j a[j] phi_j(x[p]), and
   acc[j] += sum_p w[p] phi_j(x[p]). */
void SKBarsCosineFamilyEval(const SKBarsCosineFamily *fam, const PetscReal a[], PetscInt np, const PetscReal x[], PetscReal out[]);
void SKBarsCosineFamilyProject(const SKBarsCosineFamily *fam, PetscInt np, const PetscReal x[], const PetscReal w[], PetscReal acc[]);

/* Threlfall's regularised Coulomb law (paper eqs. 3-4, with |dv| in the exponent, which the paper's sgn-form implies):
   T = muN sgn(dv) (1 - exp(-k |dv| / v95)), N/m, dv in m/s. */
static inline PetscReal SKBarsThrelfall(PetscReal dv, PetscReal muN, PetscReal k, PetscReal v95)
{
  PetscReal m = -muN * expm1(-k * PetscAbsReal(dv) / v95);
  return dv > 0 ? m : (dv < 0 ? -m : 0);
}

/* Threlfall force consistent with the end-of-step relative velocity (backward Euler in the friction term only): the T
   (N/m) that solves  T = SKBarsThrelfall(dv_free - r T),  where dv_free (m/s) is the relative velocity the bars would
   have at the end of the step without friction and r = dt (1/rho1A1 + 1/rho2A2) (m^2 s/kg) is how much a friction
   force density held over the step changes the relative velocity. Unique (the residual is monotone in T); solved by
   Newton on |dv_new| from a point below the root, where the concave residual makes the iteration monotone. With eq. 7's
   v95 the law is stiff on the scale of one step (r k muN / v95 = 2.83 for section 3), which the explicit evaluation
   T(dv(t_i)) turns into a step-to-step chatter; this evaluation decays it instead (docs/theory.md). */
PetscReal SKBarsThrelfallImplicit(PetscReal dv_free, PetscReal r, PetscReal muN, PetscReal k, PetscReal v95);

/* Velocity threshold of eq. 7: v95 = 4 muN dt / (pi rho1A1), m/s. */
PetscReal SKBarsV95(PetscReal muN, PetscReal dt, PetscReal rho1A1);

/* Per-mode coefficients of the exact solution of  eta'' + omega^2 eta = f  over a step h with f constant (eqs. 18-23,
   rewritten about t_i so that no large omega t argument appears, and with their omega -> 0 limits for the rigid mode):
   cw = cos(omega h), sw = sin(omega h) / omega, wsw = omega sin(omega h), omc = (1 - cos(omega h)) / omega^2. */
typedef struct {
  PetscReal cw, sw, wsw, omc;
} SKBarsStepCoef;
void SKBarsStepCoefCompute(PetscReal omega, PetscReal h, SKBarsStepCoef *coef);

/* Duhamel integrals of the load over [a, b] for a mode of angular frequency omega:
   S = int_a^b f(t) sin(omega (b - t)) / omega dt and C = int_a^b f(t) cos(omega (b - t)) dt (unit of f times s^2 and s).
   Gauss-Legendre (8 points) on each piece between the breakpoints of f (pulse/ramp ends, table times), so a pulse is
   integrated to round-off; n modes at once. */
PetscErrorCode SKBarsLoadDuhamel(const SKTimeFunction *f, PetscReal a, PetscReal b, PetscInt n, const PetscReal omega[], PetscReal S[],
                                 PetscReal C[]);

/* Breakpoints of f (pulse/ramp ends, table times) strictly inside (a, b), ascending, at most nmax; returns their number. */
PetscInt SKBarsLoadBreakpoints(const SKTimeFunction *f, PetscReal a, PetscReal b, PetscInt nmax, PetscReal bp[]);

/* One exact step of n modes:  eta'' + omega^2 eta = g F(t) + q  with q constant over the step (friction, eq. 18/21/22/23):
     eta  <- cw eta + sw etadot + g S + q omc,   etadot <- -wsw eta + cw etadot + g C + q sw.
   g[j] = phi_j(x_F) / modal mass (1/kg; NULL: no load), q[j] in m/s^2 (NULL: none), S, C from SKBarsLoadDuhamel(). */
void SKBarsModalStep(PetscInt n, const SKBarsStepCoef coef[], const PetscReal g[], const PetscReal S[], const PetscReal C[],
                     const PetscReal q[], PetscReal eta[], PetscReal etadot[]);

/* Kinetic plus strain energy 1/2 sum mass_j (etadot_j^2 + omega_j^2 eta_j^2), J. */
PetscReal SKBarsModalEnergy(PetscInt n, const PetscReal omega[], const PetscReal mass[], const PetscReal eta[], const PetscReal etadot[]);

/* ---- Linear equivalent model (section 2.3): a stepped bar, free at s = 0 (load point) and fixed at its far end. ---- */
#define SK_BARS_MAX_SEGMENTS 8
typedef struct {
  PetscInt nseg;
  PetscReal rhoA[SK_BARS_MAX_SEGMENTS]; /* kg/m */
  PetscReal EA[SK_BARS_MAX_SEGMENTS];   /* N */
  PetscReal len[SK_BARS_MAX_SEGMENTS];  /* m */
} SKBarsStepped;

/* Displacement at the fixed end of the free vibration at omega with u(0) = 1, N(0) = 0 (transfer matrices through the
   segments, continuity of displacement and force at the interfaces). Its zeros are the eigenfrequencies. */
PetscReal SKBarsSteppedCharacteristic(const SKBarsStepped *bar, PetscReal omega);
/* The first n positive roots of the characteristic function (rad/s), ascending: sign scan with a step of 1/16 of the
   mean spacing pi / (sum len/c), then bisection to round-off. */
PetscErrorCode SKBarsSteppedRoots(const SKBarsStepped *bar, PetscInt n, PetscReal omega[]);
/* Mode shape at omega normalised to phi(0) = 1, at position s in [0, total length]. */
PetscReal SKBarsSteppedModeValue(const SKBarsStepped *bar, PetscReal omega, PetscReal s);
/* Modal mass a_n = sum_i int rhoA_i phi^2 (eq. 25), closed form per segment, kg. */
PetscReal SKBarsSteppedModalMass(const SKBarsStepped *bar, PetscReal omega);
PetscReal SKBarsSteppedLength(const SKBarsStepped *bar);

#endif
