/* stickslip shared: the Dormand-Prince 5(4) pair (Hairer, Norsett and Wanner, "Solving ODEs I", section II.5, DOPRI5)
   with its embedded error estimate, FSAL and the 4th-order continuous extension. Library-internal (not in include/).
   The event-driven integrators of the rod pair (rod1d/rodpair_rk45.c) and of the bowed string's full modal model
   (memkernel/full.c) take their stages, error norm, step-size factor and dense output from here and keep their own
   event location and stick/slip logic. Every sum is formed in the order of the tableau, left to right, skipping the
   zero coefficients, so that both callers give the results they gave with their own copies bit for bit. */
#ifndef STICKSLIP_SHARED_DOPRI5_H
#define STICKSLIP_SHARED_DOPRI5_H

#include <stickslip/core.h>

/* Right-hand side dy = f(t, y) of a system of n equations; CTX is the caller's. */
typedef PetscErrorCode (*SKDopriRHS)(void *ctx, PetscReal t, const PetscReal y[], PetscReal dy[]);

/* One trial step of size H from (T, Y) with K[0] = f(T, Y) given: the stages K[1..5], the 5th-order solution YN and
   K[6] = f(T + H, YN) (first stage of the next step, FSAL). The last two stages are evaluated at T_LAST instead of
   T + H (a caller stopping at a discontinuity of the right-hand side passes its left limit). YTMP is n of work space.
   Arrays of length n; nothing is allocated. */
PETSC_EXTERN PetscErrorCode SKDopriStep(SKDopriRHS f, void *ctx, PetscInt n, PetscReal t, PetscReal h, PetscReal t_last,
                                        const PetscReal y[], PetscReal *const k[7], PetscReal ytmp[], PetscReal yn[]);

/* The error norm of the step, sqrt(1/m sum_j (e_j / sc_j)^2) over the first M components, e = h sum E_s k_s the
   difference of the 5th- and 4th-order solutions, sc_j = atol_j + rtol max(|y_j|, |yn_j|) with atol_j = ATOLV[j], or
   ATOL when ATOLV is NULL. The step is accepted when the norm is at most 1. */
PETSC_EXTERN PetscReal SKDopriErrorNorm(PetscInt m, PetscReal h, PetscReal *const k[7], const PetscReal y[], const PetscReal yn[],
                                        const PetscReal atolv[], PetscReal atol, PetscReal rtol);

/* The step-size factor for the error norm ERR of a step: 0.9 err^(-1/5) (the safety factor and order of DOPRI5),
   limited to [0.2, 5]; err below 1e-10 counts as 1e-10. */
PETSC_EXTERN PetscReal SKDopriFactor(PetscReal err);

/* Coefficients R of the dense output of one component on a step of size H: Y0, Y1 its values at the ends and KS its 7
   stage derivatives (KS[6] at the end). */
PETSC_EXTERN void SKDopriDense(PetscReal h, PetscReal y0, PetscReal y1, const PetscReal ks[7], PetscReal r[5]);

/* The dense output r0 + th (r1 + (1 - th)(r2 + th (r3 + (1 - th) r4))) at TH in [0, 1] of the step. */
static inline PetscReal SKDopriDenseEval(const PetscReal r[5], PetscReal th)
{
  PetscReal th1 = 1 - th;

  return r[0] + th * (r[1] + th1 * (r[2] + th * (r[3] + th1 * r[4])));
}

#endif
