/* stickslip memkernel: private helpers shared by the kernel, the reduced solver and the full-modal reference. */
#ifndef STICKSLIP_MEMORYIMPL_H
#define STICKSLIP_MEMORYIMPL_H

#include <stickslip/memkernel.h>
#include <complex.h>

typedef double _Complex SKCplx;

PETSC_INTERN PetscLogEvent SK_EVENT_MemKernel, SK_EVENT_MemReduced, SK_EVENT_MemFull;

/* Per-mode exponential form of the kernel: [L^0(tau)]_2 = sum_k Re(coef_k exp(lambda_k tau)) for tau > 0, with
   lambda_k = -D_k w_k + i w_k sqrt(1 - D_k^2). coef of the pivot mode is exactly zero. Arrays of md->n, caller owned. */
PETSC_INTERN PetscErrorCode SKMemoryKernelModes(const SKModalData *md, PetscInt pivot, SKCplx lambda[], SKCplx coef[]);
/* phi1(z) = (e^z - 1) / z and phi2(z) = (e^z - 1 - z) / z^2, accurate also for small |z|. */
PETSC_INTERN SKCplx SKPhi1(SKCplx z);
PETSC_INTERN SKCplx SKPhi2(SKCplx z);

/* Trajectory storage. */
PETSC_INTERN PetscErrorCode SKBowTrajectoryAddSample(SKBowTrajectory *traj, PetscReal t, PetscReal y1, PetscReal y2, PetscReal force,
                                                     PetscInt stick);
PETSC_INTERN PetscErrorCode SKBowTrajectoryAddEvent(SKBowTrajectory *traj, PetscReal t, PetscInt kind, PetscReal before, PetscReal after);

#endif
