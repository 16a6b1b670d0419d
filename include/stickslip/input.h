/* stickslip io: loading an XML input safely, validating it against the embedded schema of its solver,
   and typed access to elements and attributes with file:line error messages.

   Every user-facing problem is raised with SKInputError() (or SKInputCheck()), which makes a PETSc error of
   class SK_ERR_INPUT whose message is exactly "FILE:LINE: message". The app prints that message once and
   exits non-zero. */
#ifndef STICKSLIP_INPUT_H
#define STICKSLIP_INPUT_H

#include <stickslip/core.h>

/* A loaded and schema-validated input document (owns the libxml2 tree). */
typedef struct _p_SKInput *SKInput;
/* An element of the document; valid while its SKInput lives. NULL means "absent". */
typedef const struct _n_SKNode *SKNode;

/* Parses FILENAME with safe options (no network, no entity substitution, no DTD loading, default size limits),
   looks up the solver named by the root element (see solver.h) and validates the document against that
   solver's embedded schema. Errors: unreadable/empty/malformed file, unknown root (the message lists the known
   ones), schema violation; each as "FILENAME:LINE: message". */
PETSC_EXTERN PetscErrorCode SKInputLoad(MPI_Comm comm, const char filename[], SKInput *input);
/* Same as SKInputLoad() from a memory buffer; NAME is used in messages (fuzzing, tests). */
PETSC_EXTERN PetscErrorCode SKInputLoadMemory(MPI_Comm comm, const char name[], const char *buffer, size_t size, SKInput *input);
/* Same as SKInputLoad() for a file that is not a solver input (e.g. an XML mesh file): its root element must be ROOT
   and it is validated against the embedded schema SCHEMA (e.g. "mesh", "mesh.xsd"); the solver registry is not used. */
PETSC_EXTERN PetscErrorCode SKInputLoadWithSchema(MPI_Comm comm, const char filename[], const char root[], const char schema[],
                                                  SKInput *input);
PETSC_EXTERN PetscErrorCode SKInputDestroy(SKInput *input);

/* The file name as given, and its directory (for resolving relative paths such as mesh files). */
PETSC_EXTERN PetscErrorCode SKInputGetFileName(SKInput input, const char *name[]);
PETSC_EXTERN PetscErrorCode SKInputGetDirectory(SKInput input, const char *dir[]);
/* The raw bytes of the input file (for the copy stored in results.h5). Owned by INPUT. */
PETSC_EXTERN PetscErrorCode SKInputGetText(SKInput input, const char *text[], size_t *size);
PETSC_EXTERN PetscErrorCode SKInputGetComm(SKInput input, MPI_Comm *comm);

/* Tree navigation. */
PETSC_EXTERN PetscErrorCode SKInputGetRoot(SKInput input, SKNode *root);
PETSC_EXTERN const char *SKNodeName(SKNode node);
PETSC_EXTERN int SKNodeLine(SKNode node);
/* First child element named NAME (NULL if none). */
PETSC_EXTERN PetscErrorCode SKNodeGetChild(SKNode parent, const char name[], SKNode *child);
/* Like SKNodeGetChild() but a missing child is an input error at the parent's line. */
PETSC_EXTERN PetscErrorCode SKInputRequireChild(SKInput input, SKNode parent, const char name[], SKNode *child);
/* The child elements named NAME (NAME == NULL: all child elements) in document order, one at a time and without
   allocating anything (an input error in the loop's body leaves nothing to free):
     for (SKNode c = SKNodeFirstChild(parent, name); c; c = SKNodeNextSibling(c, name)) ...
   SKNodeFirstChild() is NULL when there is none (or PARENT is NULL), SKNodeNextSibling() after the last one. */
PETSC_EXTERN SKNode SKNodeFirstChild(SKNode parent, const char name[]);
PETSC_EXTERN SKNode SKNodeNextSibling(SKNode node, const char name[]);
/* How many child elements named NAME (NAME == NULL: all) PARENT has. */
PETSC_EXTERN PetscInt SKNodeCountChildren(SKNode parent, const char name[]);
/* Text content of an element, whitespace-trimmed, copied into buf (truncation is an input error). */
PETSC_EXTERN PetscErrorCode SKInputGetText_Node(SKInput input, SKNode node, char buf[], size_t len);

/* Typed attributes. The Get* forms leave *value untouched and set *found = PETSC_FALSE when the attribute is
   absent (found may be NULL: then absence keeps the default silently). The Require* forms make absence an input error.
   A malformed number is always an input error ("FILE:LINE: attribute 'E' = 'abc' is not a real number"). */
PETSC_EXTERN PetscErrorCode SKInputGetReal(SKInput input, SKNode node, const char attr[], PetscReal *value, PetscBool *found);
PETSC_EXTERN PetscErrorCode SKInputRequireReal(SKInput input, SKNode node, const char attr[], PetscReal *value);
PETSC_EXTERN PetscErrorCode SKInputGetInt(SKInput input, SKNode node, const char attr[], PetscInt *value, PetscBool *found);
PETSC_EXTERN PetscErrorCode SKInputRequireInt(SKInput input, SKNode node, const char attr[], PetscInt *value);
PETSC_EXTERN PetscErrorCode SKInputGetBool(SKInput input, SKNode node, const char attr[], PetscBool *value, PetscBool *found);
/* String attribute copied into buf of length len (truncation is an input error). */
PETSC_EXTERN PetscErrorCode SKInputGetString(SKInput input, SKNode node, const char attr[], char buf[], size_t len, PetscBool *found);
PETSC_EXTERN PetscErrorCode SKInputRequireString(SKInput input, SKNode node, const char attr[], char buf[], size_t len);
/* Whitespace-separated list of reals in an attribute; *n in: capacity of values, out: count read. */
PETSC_EXTERN PetscErrorCode SKInputGetRealList(SKInput input, SKNode node, const char attr[], PetscInt *n, PetscReal values[],
                                               PetscBool *found);
/* Resolves a file path attribute relative to the input's directory and checks that the file is readable
   ("FILE:LINE: mesh file 'x.msh' (resolved to '/a/x.msh') does not exist"). */
PETSC_EXTERN PetscErrorCode SKInputRequireFile(SKInput input, SKNode node, const char attr[], char path[], size_t len);

/* Raises an input error "FILE:LINE: <formatted message>" at NODE's line (NODE NULL: line 0). Use as
   PetscCall(SKInputError(input, node, "...", ...)); it always returns SK_ERR_INPUT. */
PETSC_EXTERN PetscErrorCode SKInputError(SKInput input, SKNode node, const char fmt[], ...) PETSC_ATTRIBUTE_FORMAT(3, 4);
/* The same for a file that is not an SKInput (a Gmsh mesh, a table): raises "FILE:LINE: <formatted message>". */
PETSC_EXTERN PetscErrorCode SKFileError(MPI_Comm comm, const char file[], int line, const char fmt[], ...) PETSC_ATTRIBUTE_FORMAT(4, 5);
/* Physical sanity helpers: each raises an input error naming the attribute and value when violated. */
PETSC_EXTERN PetscErrorCode SKInputCheckPositive(SKInput input, SKNode node, const char attr[], PetscReal value);
PETSC_EXTERN PetscErrorCode SKInputCheckNonNegative(SKInput input, SKNode node, const char attr[], PetscReal value);
/* PetscCall(SKInputCheck(input, node, cond, "message %g", x)): input error unless COND holds. */
#define SKInputCheck(input, node, cond, ...) ((cond) ? PETSC_SUCCESS : SKInputError((input), (node), __VA_ARGS__))

/* Inserts the <options> of the input into the PETSc options database without overriding options that were
   given on the command line (command line wins). Format: <options>-rodpair_solver rk45 -quiet</options>. */
PETSC_EXTERN PetscErrorCode SKInputInsertOptions(SKInput input);

/* Identity of a run, for checkpoints (a restart must continue the same study). SKInputGetDigest(): FNV-1a hash of the
   input's canonical XML (W3C Canonical XML 1.0 without comments: attribute order, quoting and comments do not count).
   SKOptionsGetRunDigest(): the options that can change results, as a canonical string ("-name value" pairs sorted by
   name, allocated; the caller frees it) and its hash. Left out are the options that only steer output, diagnostics
   or the program itself: -o, -force, -restart, -quiet, -help, -sk_traceback, -sk_allow_unused, -options_left,
   -explicit_kill_at_step, and PETSc's -log_*, -malloc_*, -info, -memory_view, -options_view, -no_signal_handler. */
PETSC_EXTERN PetscErrorCode SKInputGetDigest(SKInput input, unsigned long long *digest);
PETSC_EXTERN PetscErrorCode SKOptionsGetRunDigest(char **canonical, unsigned long long *digest);

#endif
