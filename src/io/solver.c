/* stickslip io: the registry of solvers by root element name, the embedded schema lookup, and the io log events. */
#include <stickslip/solver.h>
#include "io/ioimpl.h"
#include "shared/registry.h"
#include <string.h>

extern const SKEmbeddedFile SKSchemaTable[];

/* The registry (shared/registry.h): root element name -> the solver's SKSolverType, in registration order (the order of
   --help); the program registers its solvers (SKSolverRegisterAll()). */
static SKRegistry SKSolvers = SK_REGISTRY_INITIALIZER("solver", 63, NULL);

PetscLogEvent SK_EVENT_InputLoad, SK_EVENT_OutputWrite, SK_EVENT_VTKWrite;

PetscErrorCode SKIOInitializePackage(void)
{
  static PetscBool initialized = PETSC_FALSE;

  PetscFunctionBegin;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("SKInputLoad", SK_CLASSID, &SK_EVENT_InputLoad));
  PetscCall(PetscLogEventRegister("SKOutputWrite", SK_CLASSID, &SK_EVENT_OutputWrite));
  PetscCall(PetscLogEventRegister("SKVTKWrite", SK_CLASSID, &SK_EVENT_VTKWrite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverRegister(const SKSolverType *type)
{
  PetscFunctionBegin;
  PetscCheck(type && type->name && type->schema && type->setup && type->run && type->destroy, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
             "solver type must provide name, schema, setup, run and destroy");
  PetscCheck(SKSchemaGet(type->schema), PETSC_COMM_SELF, PETSC_ERR_PLIB, "solver '%s' names schema '%s', which is not in schema/",
             type->name, type->schema);
  PetscCall(SKRegistryAdd(&SKSolvers, type->name, type, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverSetupWith(SKInput input, void **ctx, PetscErrorCode (*read)(SKInput, void **), PetscErrorCode (*destroy)(void **))
{
  void *c = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ctx = NULL;
  ierr = read(input, &c);
  if (ierr) {
    if (c) PetscCall(destroy(&c));
    PetscFunctionReturn(ierr);
  }
  *ctx = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverRunWith(void *ctx, SKOutput out, void *work, PetscErrorCode (*run)(void *, SKOutput, void *),
                               PetscErrorCode (*release)(void *))
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = run(ctx, out, work);
  PetscCall(release(work));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverFind(const char name[], const SKSolverType **type)
{
  PetscInt i;

  PetscFunctionBegin;
  *type = NULL;
  PetscCall(SKRegistryFind(&SKSolvers, name, &i));
  if (i >= 0) PetscCall(SKSolverGet(i, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverList(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryList(&SKSolvers, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverGetCount(PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryGetSize(&SKSolvers, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverGet(PetscInt i, const SKSolverType **type)
{
  const void *data;

  PetscFunctionBegin;
  PetscCall(SKRegistryGet(&SKSolvers, i, NULL, &data, NULL));
  *type = (const SKSolverType *)data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *SKSchemaGet(const char name[])
{
  if (!name) return NULL;
  for (const SKEmbeddedFile *f = SKSchemaTable; f->name; f++)
    if (!strcmp(f->name, name)) return f->text;
  return NULL;
}
