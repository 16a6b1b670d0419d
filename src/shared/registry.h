/* shared: the one registry mechanism of the program. Everything looked up by name (friction laws, materials, element
   types, solvers, roughness spectra) is an SKRegistry: names in registration order, each with a descriptor (a const
   table of ops, a cell description) or a function (a constructor, a spectral density). The index of an entry is its
   position in registration order, so a registry also numbers its entries (the element types use that as their id).
   An unknown name is reported as "unknown WHAT 'NAME'; known: A, B, C". A registry is a static variable of the module
   that owns it, initialised with SK_REGISTRY_INITIALIZER(what, longest name, function registering the built-in
   entries or NULL); the built-in entries are registered on the first use of the registry, and every registry is
   emptied at PetscFinalize() (and filled again on its next use). */
#ifndef STICKSLIP_SHARED_REGISTRY_H
#define STICKSLIP_SHARED_REGISTRY_H

#include <stickslip/core.h>

/* The generic function type of a registered function; cast back to the real type before the call (void (*)(void)
   converts to and from any function pointer type, as in PETSc's PetscFunctionList). */
typedef void (*SKRegistryFn)(void);

typedef struct {
  char *name;
  const void *data; /* the registered descriptor (owned by the registrant), or NULL */
  SKRegistryFn fn;  /* the registered function, or NULL */
} SKRegistryEntry;

typedef struct {
  const char *what;                /* what an entry is, for messages: "friction law", "material", ... */
  size_t name_max;                 /* longest name accepted, in characters */
  PetscErrorCode (*builtin)(void); /* registers the built-in entries (on first use), or NULL */
  PetscBool setup;                 /* the built-in entries are (being) registered */
  PetscBool live;                  /* holds memory, to be freed at PetscFinalize() */
  PetscInt n, size;                /* entries registered, entries allocated */
  SKRegistryEntry *entry;
} SKRegistry;

/* The initial value of a registry: WHAT for messages, names of at most NAME_MAX characters, BUILTIN (or NULL). */
#define SK_REGISTRY_INITIALIZER(what, name_max, builtin)                \
  {                                                                     \
    (what), (name_max), (builtin), PETSC_FALSE, PETSC_FALSE, 0, 0, NULL \
  }

/* Adds NAME with descriptor DATA and/or function FN at the end; the new index into *INDEX when INDEX is not NULL. A name
   already registered or of 0 or more than name_max characters is refused (PETSC_ERR_ARG_WRONGSTATE, _OUTOFRANGE). */
PETSC_INTERN PetscErrorCode SKRegistryAdd(SKRegistry *reg, const char name[], const void *data, SKRegistryFn fn, PetscInt *index);
/* The index of NAME, or -1 when it is not registered. */
PETSC_INTERN PetscErrorCode SKRegistryFind(SKRegistry *reg, const char name[], PetscInt *index);
/* Entry I (0 <= I < reg->n): its name, descriptor and function, each output optional (NULL). */
PETSC_INTERN PetscErrorCode SKRegistryGet(SKRegistry *reg, PetscInt i, const char **name, const void **data, SKRegistryFn *fn);
/* The names in registration order, ", "-separated, into BUF ("(none registered)" when empty). */
PETSC_INTERN PetscErrorCode SKRegistryList(SKRegistry *reg, char buf[], size_t len);
/* The message for an unknown NAME into MSG: "unknown WHAT 'NAME'; known: A, B, C" (for input errors at FILE:LINE). */
PETSC_INTERN PetscErrorCode SKRegistryUnknown(SKRegistry *reg, const char name[], char msg[], size_t len);
/* The index of NAME; an unknown name is the error PETSC_ERR_ARG_UNKNOWN_TYPE on COMM with SKRegistryUnknown()'s message. */
PETSC_INTERN PetscErrorCode SKRegistryLookup(SKRegistry *reg, MPI_Comm comm, const char name[], PetscInt *index);
/* The number of entries (the built-in ones registered first). */
PETSC_INTERN PetscErrorCode SKRegistryGetSize(SKRegistry *reg, PetscInt *n);

#endif
