/* stickslip app: the solvers built into this library. Adding a solver: one entry in builtin[] here. */
#include <stickslip/solver.h>
#include "app/appimpl.h"
#include <stickslip/dynamics.h>
#include <stickslip/memkernel.h>
#include <stickslip/rigid.h>
#include <stickslip/rod1d.h>

PetscErrorCode SKSolverRegisterAll(void)
{
  const SKSolverType *const builtin[] = {&SKSolverRodPair,      &SKSolverBars2020,        &SKSolverBowedString, &SKSolverExplicit,
                                         &SKSolverSpringSlider, &SKSolverBurridgeKnopoff, &SKSolverMeshFile,    &SKSolverCampaign};

  PetscFunctionBegin;
  PetscCall(SKInitializePackage());
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
    const SKSolverType *old;

    /* a test may have registered some already */
    PetscCall(SKSolverFind(builtin[i]->name, &old));
    if (!old) PetscCall(SKSolverRegister(builtin[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
