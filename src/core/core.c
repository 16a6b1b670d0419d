/* stickslip core: package registration (log class) and wall-clock time. */
#include <stickslip/core.h>
#include <time.h>

PetscClassId SK_CLASSID;

static PetscBool SKPackageInitialized = PETSC_FALSE;

PetscErrorCode SKInitializePackage(void)
{
  PetscFunctionBegin;
  if (SKPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SKPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("stickslip", &SK_CLASSID));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKWallTime(PetscLogDouble *seconds)
{
  struct timespec ts;

  PetscFunctionBegin;
  PetscCheck(clock_gettime(CLOCK_MONOTONIC, &ts) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "clock_gettime(CLOCK_MONOTONIC) failed");
  *seconds = (PetscLogDouble)ts.tv_sec + 1e-9 * (PetscLogDouble)ts.tv_nsec;
  PetscFunctionReturn(PETSC_SUCCESS);
}
