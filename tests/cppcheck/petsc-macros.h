// clang-format off
/* Simplified PETSc control-flow macros for cppcheck only (make cppcheck passes --include=this file).
   cppcheck does not read PETSc's headers; without these it cannot see that PetscCall/PetscCheck/SETERRQ
   return on error and reports impossible null dereferences after them. */
#define PetscFunctionBegin
#define PetscFunctionBeginUser
#define PetscFunctionReturn(x) return (x)
#define PetscCall(x) do { if ((x) != 0) return 1; } while (0)
#define PetscCallMPI(x) do { if ((x) != 0) return 1; } while (0)
#define PetscCallVoid(x) do { if ((x) != 0) return; } while (0)
#define PetscCallAbort(c, x) do { (void)(c); if ((x) != 0) abort(); } while (0)
#define PetscCheck(cond, comm, err, ...) do { if (!(cond)) return (err); } while (0)
#define PetscAssert(cond, comm, err, ...) do { if (!(cond)) return (err); } while (0)
#define SETERRQ(comm, err, ...) return (err)
#define PETSC_EXTERN extern
#define PETSC_SUCCESS 0
