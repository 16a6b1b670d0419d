/* stickslip io: the registry of solvers by root element name, the embedded schema lookup, and the io log events. */
#include <stickslip/solver.h>
#include "io/ioimpl.h"
#include <string.h>

extern const SKEmbeddedFile SKSchemaTable[];

#define SK_MAX_SOLVERS 32

static const SKSolverType *SKSolvers[SK_MAX_SOLVERS];
static PetscInt SKNumSolvers = 0;

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
  const SKSolverType *existing;

  PetscFunctionBegin;
  PetscCheck(type && type->name && type->schema && type->setup && type->run && type->destroy, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
             "solver type must provide name, schema, setup, run and destroy");
  PetscCall(SKSolverFind(type->name, &existing));
  PetscCheck(!existing, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "solver '%s' is already registered", type->name);
  PetscCheck(SKNumSolvers < SK_MAX_SOLVERS, PETSC_COMM_SELF, PETSC_ERR_SUP, "too many solvers (raise SK_MAX_SOLVERS in %s)", __FILE__);
  PetscCheck(SKSchemaGet(type->schema), PETSC_COMM_SELF, PETSC_ERR_PLIB, "solver '%s' names schema '%s', which is not in schema/",
             type->name, type->schema);
  SKSolvers[SKNumSolvers++] = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverFind(const char name[], const SKSolverType **type)
{
  PetscFunctionBegin;
  *type = NULL;
  for (PetscInt i = 0; i < SKNumSolvers; i++)
    if (!strcmp(SKSolvers[i]->name, name)) *type = SKSolvers[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverList(char buf[], size_t len)
{
  PetscFunctionBegin;
  buf[0] = 0;
  for (PetscInt i = 0; i < SKNumSolvers; i++) {
    if (i) PetscCall(PetscStrlcat(buf, ", ", len));
    PetscCall(PetscStrlcat(buf, SKSolvers[i]->name, len));
  }
  if (!SKNumSolvers) PetscCall(PetscStrncpy(buf, "(none registered)", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverGetCount(PetscInt *n)
{
  PetscFunctionBegin;
  *n = SKNumSolvers;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSolverGet(PetscInt i, const SKSolverType **type)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < SKNumSolvers, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "solver index %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", i, SKNumSolvers);
  *type = SKSolvers[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *SKSchemaGet(const char name[])
{
  if (!name) return NULL;
  for (const SKEmbeddedFile *f = SKSchemaTable; f->name; f++)
    if (!strcmp(f->name, name)) return f->text;
  return NULL;
}
