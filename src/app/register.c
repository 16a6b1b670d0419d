/* stickslip app: the solvers built into this library. Adding a solver: one line here. */
#include <stickslip/solver.h>
#include "app/appimpl.h"
#include <stickslip/dynamics.h>
#include <stickslip/memkernel.h>
#include <stickslip/rigid.h>
#include <stickslip/rod1d.h>

PetscErrorCode SKSolverRegisterAll(void)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(SKSolverRegister(&SKSolverRodPair));
  PetscCall(SKSolverRegister(&SKSolverBars2020));
  PetscCall(SKSolverRegister(&SKSolverBowedString));
  PetscCall(SKSolverRegister(&SKSolverExplicit));
  PetscCall(SKSolverRegister(&SKSolverSpringSlider));
  PetscCall(SKSolverRegister(&SKSolverBurridgeKnopoff));
  PetscCall(SKSolverRegister(&SKSolverMeshFile));
  PetscCall(SKSolverRegister(&SKSolverCampaign));
  PetscFunctionReturn(PETSC_SUCCESS);
}
