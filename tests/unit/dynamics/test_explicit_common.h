/* Shared helpers of the explicit solver's unit tests: an SKExplicit from an XML string, and the energy balance. */
#ifndef STICKSLIP_TEST_EXPLICIT_COMMON_H
#define STICKSLIP_TEST_EXPLICIT_COMMON_H

#include <stickslip/dynamics.h>
#include <string.h>

/* Loads the <explicit> input TEXT (registering the solver if the library's list does not hold it) and sets it up. */
static inline PetscErrorCode SKTestExplicitCreate(const char name[], const char text[], SKInput *input, SKExplicit *ex)
{
  const SKSolverType *type;

  PetscFunctionBeginUser;
  PetscCall(SKSolverRegisterAll());
  PetscCall(SKSolverFind("explicit", &type));
  if (!type) PetscCall(SKSolverRegister(&SKSolverExplicit));
  PetscCall(SKInputLoadMemory(PETSC_COMM_WORLD, name, text, strlen(text), input));
  PetscCall(SKInputInsertOptions(*input));
  PetscCall(SKExplicitCreateFromInput(*input, ex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
