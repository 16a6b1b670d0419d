/* shared: the registry by name used by every pluggable kind (see registry.h). PETSc 3.18's PetscFunctionList cannot
   list its names or hold a descriptor, hence this small table. */
#include "shared/registry.h"

/* The registries holding memory, emptied together at PetscFinalize() (a registration needs no context, so one hook). */
#define SK_MAX_REGISTRIES 16
static SKRegistry *SKRegistries[SK_MAX_REGISTRIES];
static int SKNumRegistries = 0;

static PetscErrorCode SKRegistryDestroy(SKRegistry *reg)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < reg->n; i++) PetscCall(PetscFree(reg->entry[i].name));
  PetscCall(PetscFree(reg->entry));
  reg->n = reg->size = 0;
  reg->setup = reg->live = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKRegistryFinalizeAll(void)
{
  PetscFunctionBegin;
  for (int r = 0; r < SKNumRegistries; r++) PetscCall(SKRegistryDestroy(SKRegistries[r]));
  SKNumRegistries = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Registers the built-in entries on first use. */
static PetscErrorCode SKRegistrySetUp(SKRegistry *reg)
{
  PetscFunctionBegin;
  if (reg->setup) PetscFunctionReturn(PETSC_SUCCESS);
  reg->setup = PETSC_TRUE; /* before the call: it registers through SKRegistryAdd() */
  if (reg->builtin) PetscCall(reg->builtin());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryFind(SKRegistry *reg, const char name[], PetscInt *index)
{
  PetscFunctionBegin;
  PetscCall(SKRegistrySetUp(reg));
  *index = -1;
  for (PetscInt i = 0; i < reg->n && *index < 0; i++) {
    PetscBool match;

    PetscCall(PetscStrcmp(reg->entry[i].name, name, &match));
    if (match) *index = i;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryAdd(SKRegistry *reg, const char name[], const void *data, SKRegistryFn fn, PetscInt *index)
{
  PetscInt old;
  size_t len;

  PetscFunctionBegin;
  PetscCheck(name, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "a %s needs a name", reg->what);
  PetscCall(SKRegistryFind(reg, name, &old)); /* registers the built-in entries first */
  PetscCheck(old < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "%s '%s' is already registered", reg->what, name);
  PetscCall(PetscStrlen(name, &len));
  PetscCheck(len > 0 && len <= reg->name_max, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s name '%s' must have 1 to %zu characters",
             reg->what, name, reg->name_max);
  if (!reg->live) {
    PetscCheck(SKNumRegistries < SK_MAX_REGISTRIES, PETSC_COMM_SELF, PETSC_ERR_SUP, "more than %d registries", SK_MAX_REGISTRIES);
    if (!SKNumRegistries) PetscCall(PetscRegisterFinalize(SKRegistryFinalizeAll));
    SKRegistries[SKNumRegistries++] = reg;
    reg->live                       = PETSC_TRUE;
  }
  if (reg->n == reg->size) {
    SKRegistryEntry *grown;

    PetscCall(PetscCalloc1(2 * reg->size + 8, &grown));
    if (reg->n) PetscCall(PetscArraycpy(grown, reg->entry, reg->n));
    PetscCall(PetscFree(reg->entry));
    reg->entry = grown;
    reg->size  = 2 * reg->size + 8;
  }
  PetscCall(PetscStrallocpy(name, &reg->entry[reg->n].name));
  reg->entry[reg->n].data = data;
  reg->entry[reg->n].fn   = fn;
  if (index) *index = reg->n;
  reg->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryGet(SKRegistry *reg, PetscInt i, const char **name, const void **data, SKRegistryFn *fn)
{
  PetscFunctionBegin;
  PetscCall(SKRegistrySetUp(reg));
  PetscCheck(i >= 0 && i < reg->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s number %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")",
             reg->what, i, reg->n);
  if (name) *name = reg->entry[i].name;
  if (data) *data = reg->entry[i].data;
  if (fn) *fn = reg->entry[i].fn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryList(SKRegistry *reg, char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "empty buffer");
  PetscCall(SKRegistrySetUp(reg));
  buf[0] = 0;
  for (PetscInt i = 0; i < reg->n; i++) {
    if (i) PetscCall(PetscStrlcat(buf, ", ", len));
    PetscCall(PetscStrlcat(buf, reg->entry[i].name, len));
  }
  if (!reg->n) PetscCall(PetscStrncpy(buf, "(none registered)", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryUnknown(SKRegistry *reg, const char name[], char msg[], size_t len)
{
  char known[1024];

  PetscFunctionBegin;
  PetscCall(SKRegistryList(reg, known, sizeof(known)));
  PetscCall(PetscSNPrintf(msg, len, "unknown %s '%s'; known: %s", reg->what, name, known));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryLookup(SKRegistry *reg, MPI_Comm comm, const char name[], PetscInt *index)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryFind(reg, name, index));
  if (*index < 0) {
    char msg[1280];

    PetscCall(SKRegistryUnknown(reg, name, msg, sizeof(msg)));
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "%s", msg);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRegistryGetSize(SKRegistry *reg, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(SKRegistrySetUp(reg));
  *n = reg->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
