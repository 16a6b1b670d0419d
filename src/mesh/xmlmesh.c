/* stickslip mesh: the <mesh> element of inputs and XML mesh files (explicit data, generators, file references),
   read with the io module's typed access so every problem is reported as "FILE:LINE: message". */
#include "mesh/meshimpl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Work arrays of one reading, freed together whatever happens (errors included). */
typedef struct {
  char *text;
  size_t text_len;
  PetscReal *reals;
  PetscInt *ints;
} SKXmlMeshWork;

static PetscErrorCode SKXmlMeshWorkDestroy(SKXmlMeshWork *w)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(w->text));
  PetscCall(PetscFree(w->reals));
  PetscCall(PetscFree(w->ints));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parses the text of NODE as whitespace-separated numbers: non-negative integers (INTEGER) into w->ints, or finite
   reals into w->reals; *n gets the count. */
static PetscErrorCode SKXmlMeshNumbers(SKInput input, SKNode node, SKXmlMeshWork *w, PetscBool integer, PetscInt *n)
{
  PetscInt count = 0;
  const char *s;

  PetscFunctionBegin;
  if (!w->text) {
    const char *all;

    /* No element's text is longer than the whole file. */
    PetscCall(SKInputGetText(input, &all, &w->text_len));
    w->text_len += 1;
    PetscCall(PetscMalloc1(w->text_len, &w->text));
  }
  PetscCall(SKInputGetText_Node(input, node, w->text, w->text_len));
  for (s = w->text; *s;) {
    while (*s && strchr(" \t\r\n", *s)) s++;
    if (!*s) break;
    count++;
    while (*s && !strchr(" \t\r\n", *s)) s++;
  }
  PetscCall(PetscFree(w->reals));
  PetscCall(PetscFree(w->ints));
  if (integer)
    PetscCall(PetscMalloc1(count, &w->ints));
  else
    PetscCall(PetscMalloc1(count, &w->reals));
  count = 0;
  for (s = w->text; *s;) {
    char *end;

    while (*s && strchr(" \t\r\n", *s)) s++;
    if (!*s) break;
    errno = 0;
    if (integer) {
      long long v = strtoll(s, &end, 10);

      if (end == s || (*end && !strchr(" \t\r\n", *end)) || errno == ERANGE || v < 0 || v > PETSC_MAX_INT)
        PetscCall(SKInputError(input, node, "<%s>: number %" PetscInt_FMT " is not a non-negative integer", SKNodeName(node), count + 1));
      w->ints[count++] = (PetscInt)v;
    } else {
      double v = strtod(s, &end);

      if (end == s || (*end && !strchr(" \t\r\n", *end)) || !isfinite(v) || (errno == ERANGE && v != 0.0))
        PetscCall(SKInputError(input, node, "<%s>: value %" PetscInt_FMT " is not a finite real number", SKNodeName(node), count + 1));
      w->reals[count++] = (PetscReal)v;
    }
    s = end;
  }
  *n = count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads a list attribute of exactly DIM reals (REQUIRED, or else *found tells). */
static PetscErrorCode SKXmlMeshVector(SKInput input, SKNode node, const char attr[], PetscInt dim, PetscBool required, PetscReal v[3],
                                      PetscBool *found)
{
  PetscInt n = 4;
  PetscReal buf[4];
  PetscBool has;

  PetscFunctionBegin;
  PetscCall(SKInputGetRealList(input, node, attr, &n, buf, &has));
  if (found) *found = has;
  if (!has && required) PetscCall(SKInputError(input, node, "<%s> needs the attribute '%s'", SKNodeName(node), attr));
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  if (n != dim)
    PetscCall(SKInputError(input, node, "attribute '%s' of <%s> needs %" PetscInt_FMT " values (one per direction), not %" PetscInt_FMT,
                           attr, SKNodeName(node), dim, n));
  for (PetscInt d = 0; d < dim; d++) v[d] = buf[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element type attribute TYPE of NODE; an unknown name is an input error listing the known ones. */
static PetscErrorCode SKXmlMeshElementType(SKInput input, SKNode node, PetscInt dim, SKElementType *type)
{
  char name[16], known[512];
  PetscBool found;
  const SKElementTypeInfo *info = NULL;

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(input, node, "type", name, sizeof(name)));
  PetscCall(SKElementTypeFromName(name, type, &found));
  PetscCall(SKElementTypeList(known, sizeof(known)));
  if (!found) PetscCall(SKInputError(input, node, "unknown element type '%s'; known: %s", name, known));
  PetscCall(SKElementTypeGetInfo(*type, &info));
  if (info->dim != dim)
    PetscCall(SKInputError(input, node, "<%s> needs a %" PetscInt_FMT "D element type, and %s is %" PetscInt_FMT "D", SKNodeName(node), dim,
                           name, info->dim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKXmlMeshGenerator(SKInput input, SKNode gen, SKMesh *mesh)
{
  PetscBool box = (PetscBool)!strcmp(SKNodeName(gen), "box"), has_ratio;
  PetscInt dim  = box ? 3 : 2, cells[3];
  PetscReal rcells[3], lower[3], upper[3], ratio[3];
  SKElementType type;
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &comm));
  PetscCall(SKXmlMeshElementType(input, gen, dim, &type));
  PetscCall(SKXmlMeshVector(input, gen, "cells", dim, PETSC_TRUE, rcells, NULL));
  PetscCall(SKXmlMeshVector(input, gen, "lower", dim, PETSC_TRUE, lower, NULL));
  PetscCall(SKXmlMeshVector(input, gen, "upper", dim, PETSC_TRUE, upper, NULL));
  PetscCall(SKXmlMeshVector(input, gen, "ratio", dim, PETSC_FALSE, ratio, &has_ratio));
  for (PetscInt d = 0; d < dim; d++) {
    if (!(rcells[d] >= 1 && rcells[d] <= 1e7 && rcells[d] == PetscFloorReal(rcells[d])))
      PetscCall(SKInputError(input, gen, "attribute 'cells': %g is not a whole number of cells between 1 and 1e7", (double)rcells[d]));
    cells[d] = (PetscInt)rcells[d];
    if (!(upper[d] > lower[d]))
      PetscCall(SKInputError(input, gen, "upper corner %g must be above lower corner %g in direction %c", (double)upper[d],
                             (double)lower[d], (char)('x' + d)));
    if (has_ratio && !(ratio[d] > 0)) PetscCall(SKInputError(input, gen, "attribute 'ratio' must be positive, not %g", (double)ratio[d]));
  }
  {
    const SKElementTypeInfo *info = NULL;
    /* simplices: T3 cuts a cell in 2, T4 in 6 */
    PetscReal nodes = 1, elements = 1;
    char msg[512];

    PetscCall(SKElementTypeGetInfo(type, &info));
    for (PetscInt d = 0; d < dim; d++) nodes *= rcells[d] * info->order + 1, elements *= rcells[d];
    if (info->simplex) elements *= dim == 2 ? 2 : 6;
    PetscCall(SKMeshCheckSize(dim, nodes, elements, info->num_nodes, 0, msg, sizeof(msg)));
    if (msg[0]) PetscCall(SKInputError(input, gen, "%s", msg));
  }
  PetscCall(SKMeshCreateBox(comm, type, cells, lower, upper, has_ratio ? ratio : NULL, mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Explicit <nodes>, <block>s, <nodeset>s and <sideset>s into *mesh (which the caller destroys on error). */
static PetscErrorCode SKXmlMeshExplicit(SKInput input, SKNode root, SKXmlMeshWork *w, SKMesh *mesh)
{
  PetscInt dim = 0, n = 0, bad = -1, b = 0;
  PetscBool found;
  SKNode nodes;
  MPI_Comm comm;
  PetscReal det;

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &comm));
  PetscCall(SKInputGetInt(input, root, "dim", &dim, &found));
  if (!found) PetscCall(SKInputError(input, root, "<mesh> with explicit <nodes> needs dim=\"2\" or dim=\"3\""));
  PetscCall(SKInputCheck(input, root, dim == 2 || dim == 3, "attribute 'dim' must be 2 or 3, not %" PetscInt_FMT, dim));
  PetscCall(SKInputRequireChild(input, root, "nodes", &nodes));
  PetscCall(SKXmlMeshNumbers(input, nodes, w, PETSC_FALSE, &n));
  PetscCall(SKInputCheck(input, nodes, n > 0 && n % dim == 0,
                         "<nodes> needs %" PetscInt_FMT " coordinates per node; it has %" PetscInt_FMT " values", dim, n));
  PetscCall(SKMeshCreate(comm, dim, n / dim, w->reals, mesh));

  PetscCall(SKInputCheck(input, root, SKNodeFirstChild(root, "block") != NULL, "<mesh> needs at least one <block>"));
  for (SKNode blk = SKNodeFirstChild(root, "block"); blk; blk = SKNodeNextSibling(blk, "block"), b++) {
    SKElementType type;
    const SKElementTypeInfo *info = NULL;
    char name[SK_MESH_NAME_LEN];
    PetscInt id = b + 1, existing;

    PetscCall(SKInputRequireString(input, blk, "name", name, sizeof(name)));
    PetscCall(SKMeshFindBlock(*mesh, name, &existing));
    PetscCall(SKInputCheck(input, blk, existing < 0, "a second block named '%s'", name));
    PetscCall(SKInputGetInt(input, blk, "id", &id, NULL));
    PetscCall(SKXmlMeshElementType(input, blk, dim, &type));
    PetscCall(SKElementTypeGetInfo(type, &info));
    PetscCall(SKXmlMeshNumbers(input, blk, w, PETSC_TRUE, &n));
    PetscCall(SKInputCheck(input, blk, n > 0, "block '%s' is empty", name));
    PetscCall(SKInputCheck(input, blk, n % info->num_nodes == 0,
                           "block '%s' of %s elements needs %" PetscInt_FMT " node numbers per element; it has %" PetscInt_FMT " numbers",
                           name, info->name, info->num_nodes, n));
    for (PetscInt i = 0; i < n; i++)
      PetscCall(SKInputCheck(input, blk, w->ints[i] < (*mesh)->num_nodes,
                             "element %" PetscInt_FMT " of block '%s' references node %" PetscInt_FMT
                             ", which does not exist (the mesh has %" PetscInt_FMT " nodes, numbered from 0)",
                             i / info->num_nodes, name, w->ints[i], (*mesh)->num_nodes));
    PetscCall(SKMeshAddBlock(*mesh, name, id, type, n / info->num_nodes, w->ints));
  }
  PetscCall(SKMeshFindInvertedElement(*mesh, &bad, &det));
  if (bad >= 0) {
    PetscInt local = 0;
    SKNode blk     = SKNodeFirstChild(root, "block");

    PetscCall(SKMeshLocateElement(*mesh, bad, &b, &local));
    for (PetscInt k = 0; k < b; k++) blk = SKNodeNextSibling(blk, "block"); /* the blocks are the <block>s in order */
    PetscCall(SKInputError(
        input, blk,
        "element %" PetscInt_FMT
        " of block '%s' is inverted or degenerate: its smallest det J (nodes, centre, Gauss points) is %g (are its nodes in VTK order?)",
        local, (*mesh)->blocks[b].name, (double)det));
  }

  for (SKNode set = SKNodeFirstChild(root, "nodeset"); set; set = SKNodeNextSibling(set, "nodeset")) {
    char name[SK_MESH_NAME_LEN];
    PetscInt existing;

    PetscCall(SKInputRequireString(input, set, "name", name, sizeof(name)));
    PetscCall(SKMeshFindNodeSet(*mesh, name, &existing));
    PetscCall(SKInputCheck(input, set, existing < 0, "a second node set named '%s'", name));
    PetscCall(SKXmlMeshNumbers(input, set, w, PETSC_TRUE, &n));
    PetscCall(SKInputCheck(input, set, n > 0, "node set '%s' is empty", name));
    for (PetscInt i = 0; i < n; i++)
      PetscCall(SKInputCheck(input, set, w->ints[i] < (*mesh)->num_nodes,
                             "node set '%s': node %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT " nodes, numbered from 0)",
                             name, w->ints[i], (*mesh)->num_nodes));
    PetscCall(SKMeshAddNodeSet(*mesh, name, n, w->ints));
  }

  for (SKNode set = SKNodeFirstChild(root, "sideset"); set; set = SKNodeNextSibling(set, "sideset")) {
    char name[SK_MESH_NAME_LEN];
    PetscInt existing;

    PetscCall(SKInputRequireString(input, set, "name", name, sizeof(name)));
    PetscCall(SKMeshFindSideSet(*mesh, name, &existing));
    PetscCall(SKInputCheck(input, set, existing < 0, "a second side set named '%s'", name));
    PetscCall(SKXmlMeshNumbers(input, set, w, PETSC_TRUE, &n));
    PetscCall(SKInputCheck(input, set, n > 0, "side set '%s' is empty", name));
    PetscCall(
        SKInputCheck(input, set, n % 2 == 0, "side set '%s' needs pairs \"element face\"; it has %" PetscInt_FMT " numbers", name, n));
    /* Split the pairs in place: elements in the first half, faces in the second. */
    {
      PetscInt *pairs;

      PetscCall(PetscMalloc1(n, &pairs));
      PetscCall(PetscArraycpy(pairs, w->ints, n));
      for (PetscInt i = 0; i < n / 2; i++) {
        w->ints[i]         = pairs[2 * i];
        w->ints[n / 2 + i] = pairs[2 * i + 1];
      }
      PetscCall(PetscFree(pairs));
    }
    for (PetscInt i = 0; i < n / 2; i++) {
      const PetscInt e = w->ints[i], f = w->ints[n / 2 + i];
      PetscInt b = 0, local = 0;
      const SKElementTypeInfo *info = NULL;

      PetscCall(SKInputCheck(input, set, e < (*mesh)->num_elements,
                             "side set '%s': element %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT
                             " elements, numbered from 0)",
                             name, e, (*mesh)->num_elements));
      PetscCall(SKMeshLocateElement(*mesh, e, &b, &local));
      PetscCall(SKElementTypeGetInfo((*mesh)->blocks[b].type, &info));
      PetscCall(SKInputCheck(input, set, f < info->num_faces,
                             "side set '%s': element %" PetscInt_FMT " is a %s, with faces 0 to %" PetscInt_FMT ", not %" PetscInt_FMT,
                             name, e, info->name, info->num_faces - 1, f));
    }
    PetscCall(SKMeshAddSideSet(*mesh, name, n / 2, w->ints, w->ints + n / 2));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file ends in SUFFIX. */
static PetscBool SKHasSuffix(const char name[], const char suffix[])
{
  size_t n = strlen(name), m = strlen(suffix);

  return (PetscBool)(n >= m && !strcmp(name + n - m, suffix));
}

PetscErrorCode SKMeshCreateFromInput(SKInput input, SKNode node, SKMesh *mesh)
{
  char file[PETSC_MAX_PATH_LEN];
  PetscBool has_file;
  SKNode gen = NULL, nodes;
  SKXmlMeshWork w;
  PetscErrorCode ierr;
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscCall(SKMeshInitializePackage());
  *mesh = NULL;
  PetscCall(SKInputGetComm(input, &comm));
  PetscCall(SKInputGetString(input, node, "file", file, sizeof(file), &has_file));
  PetscCall(SKNodeGetChild(node, "rectangle", &gen));
  if (!gen) PetscCall(SKNodeGetChild(node, "box", &gen));
  PetscCall(SKNodeGetChild(node, "nodes", &nodes));
  {
    SKNode patch;
    PetscCall(SKNodeGetChild(node, "patch", &patch));
    PetscCall(
        SKInputCheck(input, node, !patch, "NURBS <patch> meshes are made by the solvers that read them (<explicit>), not by a mesh file"));
  }
  if (has_file) {
    PetscCall(SKInputCheck(input, node, !gen && !nodes, "<mesh file=\"%s\"> must be empty: the mesh comes from the file", file));
    PetscCall(SKInputRequireFile(input, node, "file", file, sizeof(file)));
    if (!SKHasSuffix(file, ".msh") && !SKHasSuffix(file, ".xml"))
      PetscCall(SKInputError(input, node, "mesh file '%s' must end in .msh (Gmsh 4.1 ASCII) or .xml (stickslip mesh)", file));
    PetscCall(SKMeshCreateFromFile(comm, file, mesh));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (gen) {
    PetscCall(SKXmlMeshGenerator(input, gen, mesh));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!nodes) PetscCall(SKInputError(input, node, "<mesh> needs file=\"...\", a <rectangle> or <box>, or <nodes> and <block> elements"));
  PetscCall(PetscMemzero(&w, sizeof(w)));
  ierr = SKXmlMeshExplicit(input, node, &w, mesh);
  PetscCall(SKXmlMeshWorkDestroy(&w));
  if (ierr) PetscCall(SKMeshDestroy(mesh));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateFromFile(MPI_Comm comm, const char filename[], SKMesh *mesh)
{
  SKInput input;
  SKNode root;
  PetscBool has_file;
  char other[PETSC_MAX_PATH_LEN];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKMeshInitializePackage());
  *mesh = NULL;
  if (SKHasSuffix(filename, ".msh")) {
    PetscCall(SKMeshCreateGmsh(comm, filename, mesh));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(SKHasSuffix(filename, ".xml"), comm, SK_ERR_INPUT,
             "%s:1: a mesh file must end in .msh (Gmsh 4.1 ASCII) or .xml (stickslip mesh)", filename);
  PetscCall(SKInputLoadWithSchema(comm, filename, "mesh", "mesh.xsd", &input));
  PetscCall(PetscLogEventBegin(SK_EVENT_MeshRead, 0, 0, 0, 0));
  PetscCall(SKInputGetRoot(input, &root));
  ierr = SKInputGetString(input, root, "file", other, sizeof(other), &has_file);
  /* A mesh file may not point at another one: that would allow reference cycles. */
  if (!ierr && has_file)
    ierr = SKInputError(input, root, "a mesh file cannot refer to another mesh file ('%s'); refer to that file directly", other);
  if (!ierr) ierr = SKMeshCreateFromInput(input, root, mesh);
  PetscCall(SKInputDestroy(&input));
  PetscCall(PetscLogEventEnd(SK_EVENT_MeshRead, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
