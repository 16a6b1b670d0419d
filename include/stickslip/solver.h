/* stickslip io: the solver registry. The root element of an input names its solver; each solver is a table of
   functions registered under that name, with the name of its embedded schema.

   An implementation provides (all required):
     name         the XML root element it handles, e.g. "rodpair"
     schema       the embedded schema file that validates such inputs, e.g. "rodpair.xsd" (from schema/)
     description  one line for `stickslip --help`
     setup        reads and checks the input (physics sanity) into a private context; must not write anything.
                  `stickslip validate` calls only this. It sets *ctx only on success; on failure it frees
                  whatever it allocated and leaves *ctx NULL (the program then calls destroy only for a non-NULL ctx).
     run          runs the study, writing into OUT
     destroy      frees the context
   Adding a solver is one file with a `const SKSolverType` and one line in SKSolverRegisterAll() (src/app). */
#ifndef STICKSLIP_SOLVER_H
#define STICKSLIP_SOLVER_H

#include <stickslip/output.h>

typedef struct {
  const char *name;
  const char *schema;
  const char *description;
  PetscErrorCode (*setup)(SKInput input, void **ctx);
  PetscErrorCode (*run)(void *ctx, SKOutput out);
  PetscErrorCode (*destroy)(void **ctx);
} SKSolverType;

/* Registers a solver type (the pointer must stay valid: use a static const object). Re-registering a name is an error. */
PETSC_EXTERN PetscErrorCode SKSolverRegister(const SKSolverType *type);
/* A setup written as one reader under the contract above: READ(input, &c) sets its context c as soon as it exists and
   may fail at any point; *ctx gets c only on success, and on failure DESTROY(&c) frees what READ made. */
PETSC_EXTERN PetscErrorCode SKSolverSetupWith(SKInput input, void **ctx, PetscErrorCode (*read)(SKInput, void **),
                                              PetscErrorCode (*destroy)(void **));
/* A run written under the same contract: RUN(ctx, out, work) keeps what it allocates in WORK (zeroed by the caller) and
   may fail at any point; RELEASE(work) frees it whether the run ended or stopped with an error, then the run's error is
   raised. */
PETSC_EXTERN PetscErrorCode SKSolverRunWith(void *ctx, SKOutput out, void *work, PetscErrorCode (*run)(void *, SKOutput, void *),
                                            PetscErrorCode (*release)(void *));
/* Looks up a solver by root element name; *type = NULL when unknown. */
PETSC_EXTERN PetscErrorCode SKSolverFind(const char name[], const SKSolverType **type);
/* Comma-separated list of registered names, into buf. */
PETSC_EXTERN PetscErrorCode SKSolverList(char buf[], size_t len);
/* Number of registered solvers and the i-th one (for --help). */
PETSC_EXTERN PetscErrorCode SKSolverGetCount(PetscInt *n);
PETSC_EXTERN PetscErrorCode SKSolverGet(PetscInt i, const SKSolverType **type);

/* Embedded schema files (schema/ *.xsd compiled into the library): contents by file name, NULL if unknown. */
PETSC_EXTERN const char *SKSchemaGet(const char name[]);

/* Registers every solver built into this library (defined in src/app/register.c). Idempotent. */
PETSC_EXTERN PetscErrorCode SKSolverRegisterAll(void);

#endif
