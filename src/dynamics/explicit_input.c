/* Explicit solver set-up: what an input element says, read for the other set-up files (components, vectors and time
   functions of an element; node and side sets by name, checked; the consistent face weights of a side set). */
#include "explicitimpl.h"
#include <string.h>

/* Components named in an input: "x", "y", "z" or "all" -> bit mask. */
PetscErrorCode SKExplicitReadComponents(SKExplicit ex, SKNode node, const char attr[], PetscInt *mask)
{
  char buf[16] = "all";
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(ex->input, node, attr, buf, sizeof(buf), &found));
  if (!strcmp(buf, "all"))
    *mask = (1 << ex->dim) - 1;
  else {
    PetscCall(SKInputCheck(ex->input, node, strlen(buf) == 1 && buf[0] >= 'x' && buf[0] < 'x' + ex->dim,
                           "%s = '%s' is not a component of this %" PetscInt_FMT "D problem (x, y%s or all)", attr, buf, ex->dim,
                           ex->dim == 3 ? ", z" : ""));
    *mask = 1 << (buf[0] - 'x');
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector attribute with exactly dim components (or `count` when count > 0); absent -> *found false, v untouched. */
PetscErrorCode SKExplicitReadVector(SKExplicit ex, SKNode node, const char attr[], PetscInt count, PetscReal v[], PetscBool *found)
{
  PetscReal buf[3];
  PetscInt n = 3, want = count > 0 ? count : ex->dim;
  PetscBool has;

  PetscFunctionBegin;
  PetscCall(SKInputGetRealList(ex->input, node, attr, &n, buf, &has));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKInputCheck(ex->input, node, n == want, "attribute '%s' needs %" PetscInt_FMT " values, got %" PetscInt_FMT, attr, want, n));
  for (PetscInt d = 0; d < want; d++) v[d] = buf[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The child <function> of NODE, or the constant DEFAULT_VALUE when there is none. */
PetscErrorCode SKExplicitReadFunction(SKExplicit ex, SKNode node, PetscReal default_value, SKTimeFunction *f)
{
  SKNode fn;

  PetscFunctionBegin;
  PetscCall(SKNodeGetChild(node, "function", &fn));
  if (fn)
    PetscCall(SKTimeFunctionFromXML(ex->input, fn, f));
  else {
    PetscCall(PetscMemzero(f, sizeof(*f)));
    f->type      = SK_TF_CONSTANT;
    f->amplitude = default_value;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitNodeSetFromInput(SKExplicit ex, SKNode node, const char attr[], PetscInt *n, const PetscInt **nodes,
                                          PetscInt *global_size)
{
  char name[SK_MESH_NAME_LEN], list[1024];
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(ex->input, node, attr, name, sizeof(name)));
  PetscCall(SKMeshFindNodeSet(ex->mesh, name, &i));
  if (i < 0) {
    PetscCall(SKMeshListSets(ex->mesh, 0, list, sizeof(list)));
    PetscCall(SKInputError(ex->input, node, "unknown node set '%s' (known: %s)", name, list));
  }
  PetscCall(SKMeshGetNodeSet(ex->mesh, i, NULL, n, nodes, global_size));
  PetscCall(SKInputCheck(ex->input, node, *global_size > 0, "node set '%s' is empty (a box set without nodes inside?)", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The side set named by attribute ATTR of NODE (must exist and not be empty). */
PetscErrorCode SKExplicitSideSetFromInput(SKExplicit ex, SKNode node, const char attr[], PetscInt *n, const PetscInt **elements,
                                          const PetscInt **faces)
{
  char name[SK_MESH_NAME_LEN], list[1024];
  PetscInt i, global_size;

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(ex->input, node, attr, name, sizeof(name)));
  PetscCall(SKMeshFindSideSet(ex->mesh, name, &i));
  if (i < 0) {
    PetscCall(SKMeshListSets(ex->mesh, 1, list, sizeof(list)));
    PetscCall(SKInputError(ex->input, node, "unknown side set '%s' (known: %s)", name, list));
  }
  PetscCall(SKMeshGetSideSet(ex->mesh, i, NULL, n, elements, faces, &global_size));
  PetscCall(SKInputCheck(ex->input, node, global_size > 0, "side set '%s' is empty (no boundary face on its plane?)", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reference-area weights w[node] += int_face N_a dA (m^2 in 3D, m in 2D) over the sides of a side set, and the area
   vectors an[node*dim + c] += int_face N_a n_c dA when AN is not NULL (SKFEMFaceIntegrals() per face; on NURBS patch
   faces the rational basis). */
PetscErrorCode SKExplicitFaceWeights(SKExplicit ex, PetscInt nsides, const PetscInt elements[], const PetscInt faces[], PetscReal w[],
                                     PetscReal an[])
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < nsides; s++) {
    SKElementType type;
    const SKElementTypeInfo *info;
    PetscInt fn[SK_ELEMENT_MAX_NODES], nf;
    PetscReal Xf[SK_ELEMENT_MAX_NODES * 3], wf[SK_ELEMENT_MAX_NODES], af[SK_ELEMENT_MAX_NODES * 3];

    PetscCall(SKMeshGetElement(ex->mesh, elements[s], NULL, &type, NULL));
    PetscCall(SKElementTypeGetInfo(type, &info));
    PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &nf, fn));
    for (PetscInt a = 0; a < nf; a++) {
      wf[a] = w[fn[a]];
      for (PetscInt d = 0; d < dim; d++) {
        Xf[a * dim + d] = ex->X[fn[a] * dim + d];
        af[a * dim + d] = an ? an[fn[a] * dim + d] : 0.0;
      }
    }
    if (info->ref_coords)
      PetscCall(SKFEMFaceIntegrals(type, Xf, wf, an ? af : NULL));
    else /* a NURBS patch face: int R_a dA over the physical face (src/fem/face_patch.c) */
      PetscCall(SKMeshPatchFaceWeights(ex->mesh, elements[s], faces[s], ex->X, wf, an ? af : NULL));
    for (PetscInt a = 0; a < nf; a++) {
      w[fn[a]] = wf[a];
      if (an)
        for (PetscInt d = 0; d < dim; d++) an[fn[a] * dim + d] = af[a * dim + d];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
