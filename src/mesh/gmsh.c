/* stickslip mesh: reader of Gmsh .msh 4.1 ASCII files. Physical groups of the mesh dimension become element
   blocks, lower-dimensional ones node sets, those of dimension dim-1 also side sets. Errors are "FILE:LINE: ...". */
#include "mesh/meshimpl.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Files beyond this size are refused before reading (a 1e6-element H8 mesh is about 100 MB). */
#define SK_GMSH_MAX_BYTES ((size_t)1 << 31)

typedef struct {
  MPI_Comm comm;
  const char *file;
  const char *p;
  int line;
} SKGmshLexer;

#define SKGmshError(lex, ...) SKFileError((lex)->comm, (lex)->file, (lex)->line, __VA_ARGS__)

/* Skips whitespace up to the next token (or the end of the text), counting lines. */
static void SKGmshSkipSpace(SKGmshLexer *lex)
{
  while (*lex->p && strchr(" \t\r\n", *lex->p)) {
    if (*lex->p == '\n') lex->line++;
    lex->p++;
  }
}

/* Copies the next whitespace-delimited token into buf. */
static PetscErrorCode SKGmshToken(SKGmshLexer *lex, const char what[], char buf[], size_t len)
{
  size_t n = 0;

  PetscFunctionBegin;
  SKGmshSkipSpace(lex);
  if (!*lex->p) PetscCall(SKGmshError(lex, "unexpected end of file, expected %s", what));
  while (*lex->p && !strchr(" \t\r\n", *lex->p)) {
    if (n + 1 < len) buf[n++] = *lex->p;
    lex->p++;
  }
  buf[n] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshInt(SKGmshLexer *lex, const char what[], PetscInt *value)
{
  char buf[64], *end;
  long long v;

  PetscFunctionBegin;
  PetscCall(SKGmshToken(lex, what, buf, sizeof(buf)));
  errno = 0;
  v     = strtoll(buf, &end, 10);
  if (end == buf || *end || errno == ERANGE || v > PETSC_MAX_INT || v < PETSC_MIN_INT)
    PetscCall(SKGmshError(lex, "expected %s (an integer), found '%s'", what, buf));
  *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshNonNegative(SKGmshLexer *lex, const char what[], PetscInt *value)
{
  PetscFunctionBegin;
  PetscCall(SKGmshInt(lex, what, value));
  if (*value < 0) PetscCall(SKGmshError(lex, "%s must not be negative (found %" PetscInt_FMT ")", what, *value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshReal(SKGmshLexer *lex, const char what[], PetscReal *value)
{
  char buf[64], *end;
  double v;

  PetscFunctionBegin;
  PetscCall(SKGmshToken(lex, what, buf, sizeof(buf)));
  errno = 0;
  v     = strtod(buf, &end);
  if (end == buf || *end || !isfinite(v) || (errno == ERANGE && v != 0.0))
    PetscCall(SKGmshError(lex, "expected %s (a finite real number), found '%s'", what, buf));
  *value = (PetscReal)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads the next token and requires it to be WORD. */
static PetscErrorCode SKGmshExpect(SKGmshLexer *lex, const char word[])
{
  char buf[64];

  PetscFunctionBegin;
  PetscCall(SKGmshToken(lex, word, buf, sizeof(buf)));
  if (strcmp(buf, word)) PetscCall(SKGmshError(lex, "expected '%s', found '%s'", word, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rest of the current line, trimmed, into buf (for quoted physical names, which may contain spaces). */
static PetscErrorCode SKGmshRestOfLine(SKGmshLexer *lex, char buf[], size_t len)
{
  size_t n = 0;

  PetscFunctionBegin;
  while (*lex->p == ' ' || *lex->p == '\t') lex->p++;
  while (*lex->p && *lex->p != '\n' && *lex->p != '\r') {
    if (n + 1 < len) buf[n++] = *lex->p;
    lex->p++;
  }
  while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t')) n--;
  buf[n] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gmsh element types this reader knows: number of nodes, dimension, stickslip type (-1 for points and lines). */
typedef struct {
  int gmsh;
  PetscInt num_nodes, dim;
  int type;
  const char *name;
} SKGmshType;

static const SKGmshType sk_gmsh_types[] = {
    {15, 1, 0, -1, "point"},
    {1, 2, 1, -1, "2-node line"},
    {8, 3, 1, -1, "3-node line"},
    {2, 3, 2, SK_ELEMENT_T3, "3-node triangle"},
    {3, 4, 2, SK_ELEMENT_Q4, "4-node quadrangle"},
    {10, 9, 2, SK_ELEMENT_Q9, "9-node quadrangle"},
    {4, 4, 3, SK_ELEMENT_T4, "4-node tetrahedron"},
    {5, 8, 3, SK_ELEMENT_H8, "8-node hexahedron"},
    {12, 27, 3, SK_ELEMENT_H27, "27-node hexahedron"},
};
#define SK_GMSH_NUM_TYPES ((PetscInt)(sizeof(sk_gmsh_types) / sizeof(sk_gmsh_types[0])))

/* Position of Gmsh node k of a vtk_type element in stickslip (VTK) order. Only the 27-node hexahedron differs: Gmsh
   lists its mid-edge nodes on edges (0,1) (0,3) (0,4) (1,2) (1,5) (2,3) (2,6) (3,7) (4,5) (4,7) (5,6) (6,7) and its
   face centres on faces (0,3,2,1) (0,1,5,4) (0,4,7,3) (1,2,6,5) (2,3,7,6) (4,5,6,7); the permutation is found by
   matching reference coordinates, so it cannot disagree with the element table. */
static PetscErrorCode SKGmshH27Permutation(PetscInt perm[27])
{
  static const PetscInt edges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3}, {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
  static const PetscInt faces[6][4]  = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3}, {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};
  const SKElementTypeInfo *info      = NULL;

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(SK_ELEMENT_H27, &info));
  for (PetscInt k = 0; k < 27; k++) {
    PetscReal x[3] = {0, 0, 0};
    PetscInt n = 1, corners[4] = {k, 0, 0, 0};

    if (k >= 8 && k < 20) {
      n = 2;
      PetscCall(PetscArraycpy(corners, edges[k - 8], 2));
    } else if (k >= 20 && k < 26) {
      n = 4;
      PetscCall(PetscArraycpy(corners, faces[k - 20], 4));
    } else if (k == 26)
      n = 0;
    for (PetscInt c = 0; c < n; c++)
      for (PetscInt d = 0; d < 3; d++) x[d] += info->ref_coords[corners[c] * 3 + d] / n;
    perm[k] = -1;
    for (PetscInt j = 0; j < 27; j++)
      if (x[0] == info->ref_coords[j * 3] && x[1] == info->ref_coords[j * 3 + 1] && x[2] == info->ref_coords[j * 3 + 2]) perm[k] = j;
    PetscCheck(perm[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no H27 node at the position of Gmsh node %" PetscInt_FMT, k);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt dim, tag, line;
  char name[SK_MESH_NAME_LEN];
  PetscInt count; /* elements found in the group */
} SKGmshPhysical;

typedef struct {
  PetscInt dim, tag, nphys, phys[8];
} SKGmshEntity;

typedef struct {
  /* physical names */
  PetscInt nphysical;
  SKGmshPhysical *physical;
  /* entities */
  PetscInt nentity;
  SKGmshEntity *entity;
  /* nodes, by tag */
  PetscInt num_nodes, max_node_tag;
  PetscInt *node_index; /* [max_node_tag + 1]: index in file order, -1 when absent */
  PetscReal *xyz;       /* [num_nodes][3] */
  PetscInt *node_tag;   /* [num_nodes] */
  /* elements */
  PetscInt num_elements, nconn;
  PetscInt *el_type;                                 /* index into sk_gmsh_types */
  PetscInt *el_entity;                               /* index into entity, -1 when the entity is not declared */
  PetscInt *el_tag, *el_line, *el_offset, *el_nodes; /* el_nodes: node indices, Gmsh order */
  /* work arrays of the mesh building, kept here so that an error anywhere leaks nothing */
  PetscInt *used, *order, *pairs, *set_nodes, *set_elements, *set_faces, *conn;
  PetscInt64 *keys;
  SKMeshFace *table;
} SKGmshFile;

static PetscErrorCode SKGmshFileDestroy(SKGmshFile *f)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(f->physical));
  PetscCall(PetscFree(f->entity));
  PetscCall(PetscFree(f->node_index));
  PetscCall(PetscFree(f->xyz));
  PetscCall(PetscFree(f->node_tag));
  PetscCall(PetscFree(f->el_type));
  PetscCall(PetscFree(f->el_entity));
  PetscCall(PetscFree(f->el_tag));
  PetscCall(PetscFree(f->el_line));
  PetscCall(PetscFree(f->el_offset));
  PetscCall(PetscFree(f->el_nodes));
  PetscCall(PetscFree(f->used));
  PetscCall(PetscFree(f->order));
  PetscCall(PetscFree(f->pairs));
  PetscCall(PetscFree(f->set_nodes));
  PetscCall(PetscFree(f->set_elements));
  PetscCall(PetscFree(f->set_faces));
  PetscCall(PetscFree(f->conn));
  PetscCall(PetscFree(f->keys));
  PetscCall(PetscFree(f->table));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshReadPhysicalNames(SKGmshLexer *lex, SKGmshFile *f)
{
  PetscFunctionBegin;
  PetscCall(SKGmshNonNegative(lex, "the number of physical names", &f->nphysical));
  PetscCall(PetscCalloc1(f->nphysical, &f->physical));
  for (PetscInt i = 0; i < f->nphysical; i++) {
    SKGmshPhysical *ph = &f->physical[i];
    char raw[256];
    size_t n;

    PetscCall(SKGmshNonNegative(lex, "a physical group dimension", &ph->dim));
    PetscCall(SKGmshInt(lex, "a physical tag", &ph->tag));
    ph->line = lex->line;
    PetscCall(SKGmshRestOfLine(lex, raw, sizeof(raw)));
    n = strlen(raw);
    if (n < 2 || raw[0] != '"' || raw[n - 1] != '"') PetscCall(SKGmshError(lex, "physical name must be in double quotes, found '%s'", raw));
    if (n - 2 >= SK_MESH_NAME_LEN || n == 2)
      PetscCall(SKGmshError(lex, "physical name %s must have 1 to %d characters", raw, SK_MESH_NAME_LEN - 1));
    PetscCall(PetscMemcpy(ph->name, raw + 1, n - 2));
    ph->name[n - 2] = 0;
    if (ph->dim > 3) PetscCall(SKGmshError(lex, "physical group dimension %" PetscInt_FMT " is not 0 to 3", ph->dim));
  }
  PetscCall(SKGmshExpect(lex, "$EndPhysicalNames"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshReadEntities(SKGmshLexer *lex, SKGmshFile *f)
{
  PetscInt count[4], k = 0;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 4; d++) PetscCall(SKGmshNonNegative(lex, "a number of entities", &count[d]));
  f->nentity = count[0] + count[1] + count[2] + count[3];
  PetscCall(PetscCalloc1(f->nentity, &f->entity));
  for (PetscInt d = 0; d < 4; d++)
    for (PetscInt i = 0; i < count[d]; i++, k++) {
      SKGmshEntity *ent = &f->entity[k];
      PetscReal x;
      PetscInt nbound, tmp;

      ent->dim = d;
      PetscCall(SKGmshInt(lex, "an entity tag", &ent->tag));
      /* Points have X Y Z; curves, surfaces and volumes a bounding box. */
      for (PetscInt c = 0; c < (d == 0 ? 3 : 6); c++) PetscCall(SKGmshReal(lex, "an entity coordinate", &x));
      PetscCall(SKGmshNonNegative(lex, "the number of physical tags", &ent->nphys));
      if (ent->nphys > 8)
        PetscCall(SKGmshError(lex, "entity %" PetscInt_FMT " has %" PetscInt_FMT " physical tags; at most 8 are supported", ent->tag,
                              ent->nphys));
      for (PetscInt p = 0; p < ent->nphys; p++) PetscCall(SKGmshInt(lex, "a physical tag", &ent->phys[p]));
      if (d > 0) {
        PetscCall(SKGmshNonNegative(lex, "the number of bounding entities", &nbound));
        for (PetscInt b = 0; b < nbound; b++) PetscCall(SKGmshInt(lex, "a bounding entity tag", &tmp));
      }
    }
  PetscCall(SKGmshExpect(lex, "$EndEntities"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshReadNodes(SKGmshLexer *lex, SKGmshFile *f)
{
  PetscInt nblocks, min_tag, k = 0;

  PetscFunctionBegin;
  PetscCall(SKGmshNonNegative(lex, "the number of node blocks", &nblocks));
  PetscCall(SKGmshNonNegative(lex, "the number of nodes", &f->num_nodes));
  PetscCall(SKGmshNonNegative(lex, "the smallest node tag", &min_tag));
  PetscCall(SKGmshNonNegative(lex, "the largest node tag", &f->max_node_tag));
  /* The tag -> index map is as long as the largest tag: refuse absurdly sparse numberings rather than allocate them. */
  if (f->max_node_tag > 8 * f->num_nodes + 1000000)
    PetscCall(SKGmshError(lex,
                          "the largest node tag %" PetscInt_FMT " is far above the number of nodes %" PetscInt_FMT
                          "; renumber the mesh (Gmsh: Mesh.RenumberNodes)",
                          f->max_node_tag, f->num_nodes));
  {
    char msg[512];
    PetscCall(SKMeshCheckSize(3, (PetscReal)f->num_nodes, 0, 1, 0, msg, sizeof(msg)));
    if (msg[0]) PetscCall(SKGmshError(lex, "%s", msg));
  }
  PetscCall(PetscMalloc1(f->max_node_tag + 1, &f->node_index));
  for (PetscInt t = 0; t <= f->max_node_tag; t++) f->node_index[t] = -1;
  PetscCall(PetscMalloc1(3 * f->num_nodes, &f->xyz));
  PetscCall(PetscMalloc1(f->num_nodes, &f->node_tag));
  for (PetscInt b = 0; b < nblocks; b++) {
    PetscInt edim, etag, parametric, n;

    PetscCall(SKGmshNonNegative(lex, "an entity dimension", &edim));
    PetscCall(SKGmshInt(lex, "an entity tag", &etag));
    PetscCall(SKGmshNonNegative(lex, "the parametric flag", &parametric));
    PetscCall(SKGmshNonNegative(lex, "the number of nodes in the block", &n));
    if (edim > 3) PetscCall(SKGmshError(lex, "entity dimension %" PetscInt_FMT " is not 0 to 3", edim));
    if (k + n > f->num_nodes)
      PetscCall(SKGmshError(lex, "the node blocks hold more than the %" PetscInt_FMT " nodes announced", f->num_nodes));
    for (PetscInt i = 0; i < n; i++) {
      PetscInt tag;

      PetscCall(SKGmshInt(lex, "a node tag", &tag));
      if (tag < 1 || tag > f->max_node_tag)
        PetscCall(SKGmshError(lex, "node tag %" PetscInt_FMT " is outside the announced range 1..%" PetscInt_FMT, tag, f->max_node_tag));
      if (f->node_index[tag] >= 0) PetscCall(SKGmshError(lex, "node tag %" PetscInt_FMT " is defined twice", tag));
      f->node_index[tag] = k + i;
      f->node_tag[k + i] = tag;
    }
    for (PetscInt i = 0; i < n; i++) {
      PetscReal u;

      for (PetscInt d = 0; d < 3; d++) PetscCall(SKGmshReal(lex, "a node coordinate", &f->xyz[3 * (k + i) + d]));
      if (parametric)
        for (PetscInt d = 0; d < edim; d++) PetscCall(SKGmshReal(lex, "a parametric coordinate", &u));
    }
    k += n;
  }
  if (k != f->num_nodes)
    PetscCall(SKGmshError(lex, "the node blocks hold %" PetscInt_FMT " nodes, but %" PetscInt_FMT " were announced", k, f->num_nodes));
  (void)min_tag;
  PetscCall(SKGmshExpect(lex, "$EndNodes"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshReadElements(SKGmshLexer *lex, SKGmshFile *f)
{
  PetscInt nblocks, min_tag, max_tag, k = 0, cap;

  PetscFunctionBegin;
  if (!f->node_index) PetscCall(SKGmshError(lex, "$Elements comes before $Nodes"));
  PetscCall(SKGmshNonNegative(lex, "the number of element blocks", &nblocks));
  PetscCall(SKGmshNonNegative(lex, "the number of elements", &f->num_elements));
  PetscCall(SKGmshNonNegative(lex, "the smallest element tag", &min_tag));
  PetscCall(SKGmshNonNegative(lex, "the largest element tag", &max_tag));
  {
    char msg[512];
    PetscCall(SKMeshCheckSize(3, (PetscReal)f->num_nodes, (PetscReal)f->num_elements, 1, 0, msg, sizeof(msg)));
    if (msg[0]) PetscCall(SKGmshError(lex, "%s", msg));
  }
  PetscCall(PetscMalloc1(f->num_elements, &f->el_type));
  PetscCall(PetscMalloc1(f->num_elements, &f->el_entity));
  PetscCall(PetscMalloc1(f->num_elements, &f->el_tag));
  PetscCall(PetscMalloc1(f->num_elements, &f->el_line));
  PetscCall(PetscMalloc1(f->num_elements + 1, &f->el_offset));
  cap = 8 * f->num_elements + 64;
  PetscCall(PetscMalloc1(cap, &f->el_nodes));
  f->el_offset[0] = 0;
  for (PetscInt b = 0; b < nblocks; b++) {
    PetscInt edim, etag, gtype, n, t, entity = -1;

    PetscCall(SKGmshNonNegative(lex, "an entity dimension", &edim));
    PetscCall(SKGmshInt(lex, "an entity tag", &etag));
    PetscCall(SKGmshInt(lex, "an element type", &gtype));
    PetscCall(SKGmshNonNegative(lex, "the number of elements in the block", &n));
    for (t = 0; t < SK_GMSH_NUM_TYPES; t++)
      if (sk_gmsh_types[t].gmsh == gtype) break;
    if (t == SK_GMSH_NUM_TYPES) {
      char known[256];

      PetscCall(SKElementTypeList(known, sizeof(known)));
      PetscCall(SKGmshError(
          lex,
          "Gmsh element type %" PetscInt_FMT
          " is not supported; stickslip reads points, 2- and 3-node lines and the element types %s (Gmsh types 2, 3, 10, 4, 5, 12)",
          gtype, known));
    }
    if (sk_gmsh_types[t].dim != edim)
      PetscCall(SKGmshError(lex, "a %s cannot belong to an entity of dimension %" PetscInt_FMT, sk_gmsh_types[t].name, edim));
    for (PetscInt e = 0; e < f->nentity; e++)
      if (f->entity[e].dim == edim && f->entity[e].tag == etag) entity = e;
    if (k + n > f->num_elements)
      PetscCall(SKGmshError(lex, "the element blocks hold more than the %" PetscInt_FMT " elements announced", f->num_elements));
    for (PetscInt i = 0; i < n; i++, k++) {
      const PetscInt nn = sk_gmsh_types[t].num_nodes;

      PetscCall(SKGmshInt(lex, "an element tag", &f->el_tag[k]));
      f->el_line[k]   = lex->line;
      f->el_type[k]   = t;
      f->el_entity[k] = entity;
      if (f->el_offset[k] + nn > cap) {
        cap = 2 * cap + nn;
        PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)cap, &f->el_nodes));
      }
      for (PetscInt a = 0; a < nn; a++) {
        PetscInt tag;

        SKGmshSkipSpace(lex);
        if (lex->line != f->el_line[k])
          PetscCall(SKFileError(lex->comm, lex->file, (int)f->el_line[k],
                                "element %" PetscInt_FMT " (a %s) needs %" PetscInt_FMT " node tags on its line", f->el_tag[k],
                                sk_gmsh_types[t].name, nn));
        PetscCall(SKGmshInt(lex, "a node tag", &tag));
        if (tag < 1 || tag > f->max_node_tag || f->node_index[tag] < 0)
          PetscCall(
              SKGmshError(lex, "element %" PetscInt_FMT " references node %" PetscInt_FMT ", which does not exist", f->el_tag[k], tag));
        f->el_nodes[f->el_offset[k] + a] = f->node_index[tag];
      }
      f->el_offset[k + 1] = f->el_offset[k] + nn;
    }
  }
  if (k != f->num_elements)
    PetscCall(
        SKGmshError(lex, "the element blocks hold %" PetscInt_FMT " elements, but %" PetscInt_FMT " were announced", k, f->num_elements));
  (void)min_tag;
  (void)max_tag;
  PetscCall(SKGmshExpect(lex, "$EndElements"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Physical group of element k: index into f->physical (-1 if the element's entity has none), and its tag. */
static PetscErrorCode SKGmshElementPhysical(const SKGmshFile *f, PetscInt k, PetscInt which, PetscInt *group, PetscInt *tag)
{
  const PetscInt dim = sk_gmsh_types[f->el_type[k]].dim;

  PetscFunctionBegin;
  *group = -1;
  *tag   = 0;
  if (f->el_entity[k] < 0 || which >= f->entity[f->el_entity[k]].nphys) PetscFunctionReturn(PETSC_SUCCESS);
  *tag = f->entity[f->el_entity[k]].phys[which];
  for (PetscInt i = 0; i < f->nphysical; i++)
    if (f->physical[i].dim == dim && f->physical[i].tag == *tag) *group = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Name of a physical group: its $PhysicalNames name, "group<tag>" when it has none, and "default" for elements in no
   physical group (tag 0; Gmsh saves those only when the file defines no physical group at all). */
static PetscErrorCode SKGmshGroupName(const SKGmshFile *f, PetscInt group, PetscInt tag, char name[SK_MESH_NAME_LEN])
{
  PetscFunctionBegin;
  if (group >= 0)
    PetscCall(PetscStrncpy(name, f->physical[group].name, SK_MESH_NAME_LEN));
  else if (tag == 0)
    PetscCall(PetscStrncpy(name, "default", SK_MESH_NAME_LEN));
  else
    PetscCall(PetscSNPrintf(name, SK_MESH_NAME_LEN, "group%" PetscInt_FMT, tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sort key of a mesh-dimension element: physical tag, then type, then file position. */
static PetscErrorCode SKGmshBlockKey(const SKGmshFile *f, PetscInt k, PetscInt *tag, PetscInt *type)
{
  PetscInt group;

  PetscFunctionBegin;
  PetscCall(SKGmshElementPhysical(f, k, 0, &group, tag));
  *type = f->el_type[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element blocks: one per (physical tag, element type) of the mesh-dimension elements, in that order. order[] gets
   the file element of every mesh element. */
static PetscErrorCode SKGmshBuildBlocks(SKGmshFile *f, PetscInt dim, SKMesh mesh)
{
  PetscInt64 *keys;
  PetscInt perm27[27], *conn, *order = f->order, *used = f->used, n = 0, i = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < f->num_elements; k++)
    if (sk_gmsh_types[f->el_type[k]].dim == dim) n++;
  PetscCall(PetscMalloc1(n, &f->keys));
  keys = f->keys;
  n    = 0;
  for (PetscInt k = 0; k < f->num_elements; k++) {
    PetscInt tag, type;

    if (sk_gmsh_types[f->el_type[k]].dim != dim) continue;
    PetscCall(SKGmshBlockKey(f, k, &tag, &type));
    keys[n++] = ((PetscInt64)tag * 16 + type) * 4294967296LL + k; /* k in the low 32 bits */
  }
  PetscCall(PetscSortInt64(n, keys));
  for (PetscInt j = 0; j < n; j++) order[j] = (PetscInt)(keys[j] & 0xffffffff);
  PetscCall(SKGmshH27Permutation(perm27));
  PetscCall(PetscMalloc1(27 * n, &f->conn));
  conn = f->conn;
  while (i < n) {
    PetscInt tag, type, tag2, type2, j = i, group;

    PetscCall(SKGmshBlockKey(f, order[i], &tag, &type));
    PetscCall(SKGmshElementPhysical(f, order[i], 0, &group, &tag));
    for (j = i; j < n; j++) {
      PetscCall(SKGmshBlockKey(f, order[j], &tag2, &type2));
      if (tag2 != tag) break;
    }
    PetscCall(SKGmshBlockKey(f, order[j - 1], &tag2, &type2));
    /* [i, j) is one physical group; it holds several element types when its first and last differ. */
    for (PetscInt s = i, e; s < j; s = e) {
      const SKElementTypeInfo *info = NULL;
      char name[SK_MESH_NAME_LEN];
      PetscInt t = f->el_type[order[s]];

      for (e = s; e < j && f->el_type[order[e]] == t; e++) continue;
      PetscCall(SKElementTypeGetInfo((SKElementType)sk_gmsh_types[t].type, &info));
      PetscCall(SKGmshGroupName(f, group, tag, name));
      if (type2 != type) {
        char base[SK_MESH_NAME_LEN];

        PetscCall(PetscStrncpy(base, name, sizeof(base)));
        PetscCall(PetscSNPrintf(name, sizeof(name), "%.55s_%s", base, info->name));
      }
      for (PetscInt m = s; m < e; m++)
        for (PetscInt a = 0; a < info->num_nodes; a++) {
          const PetscInt pos = info->num_nodes == 27 ? perm27[a] : a;

          conn[(m - s) * info->num_nodes + pos] = used[f->el_nodes[f->el_offset[order[m]] + a]];
        }
      PetscCall(SKMeshAddBlock(mesh, name, tag, (SKElementType)sk_gmsh_types[t].type, e - s, conn));
      if (group >= 0) f->physical[group].count += e - s;
    }
    i = j;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node sets (and, for dimension dim-1, side sets) of the lower-dimensional physical groups. */
static PetscErrorCode SKGmshBuildSets(MPI_Comm comm, const char file[], SKGmshFile *f, PetscInt dim, SKMesh mesh)
{
  PetscInt *pairs, npairs = 0, nface = 0, *nodes, *elements, *faces, *used = f->used;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(8 * f->nentity + 1, &f->pairs));
  pairs = f->pairs;
  for (PetscInt e = 0; e < f->nentity; e++)
    if (f->entity[e].dim < dim)
      for (PetscInt p = 0; p < f->entity[e].nphys; p++) pairs[npairs++] = f->entity[e].dim * 100000000 + f->entity[e].phys[p];
  PetscCall(PetscSortRemoveDupsInt(&npairs, pairs));
  PetscCall(PetscMalloc1(f->el_offset[f->num_elements], &f->set_nodes));
  PetscCall(PetscMalloc1(f->num_elements, &f->set_elements));
  PetscCall(PetscMalloc1(f->num_elements, &f->set_faces));
  nodes    = f->set_nodes;
  elements = f->set_elements;
  faces    = f->set_faces;
  for (PetscInt q = 0; q < npairs; q++) {
    const PetscInt gdim = pairs[q] / 100000000, tag = pairs[q] % 100000000;
    PetscInt group = -1, nn = 0, ns = 0;
    char name[SK_MESH_NAME_LEN];

    for (PetscInt i = 0; i < f->nphysical; i++)
      if (f->physical[i].dim == gdim && f->physical[i].tag == tag) group = i;
    PetscCall(SKGmshGroupName(f, group, tag, name));
    for (PetscInt k = 0; k < f->num_elements; k++) {
      const SKGmshType *gt = &sk_gmsh_types[f->el_type[k]];
      PetscBool in         = PETSC_FALSE;

      if (gt->dim != gdim || f->el_entity[k] < 0) continue;
      for (PetscInt p = 0; p < f->entity[f->el_entity[k]].nphys; p++) in = (PetscBool)(in || f->entity[f->el_entity[k]].phys[p] == tag);
      if (!in) continue;
      for (PetscInt a = f->el_offset[k]; a < f->el_offset[k + 1]; a++) {
        if (used[f->el_nodes[a]] < 0)
          PetscCall(SKFileError(comm, file, (int)f->el_line[k],
                                "element %" PetscInt_FMT " of physical group '%s' uses node %" PetscInt_FMT
                                ", which belongs to no %" PetscInt_FMT "D element",
                                f->el_tag[k], name, f->node_tag[f->el_nodes[a]], dim));
        nodes[nn++] = used[f->el_nodes[a]];
      }
      if (gdim == dim - 1) {
        /* Faces are matched by their corners, which Gmsh lists first (2 for lines, 3 or 4 for surfaces). */
        const PetscInt ncorners = gdim == 1 ? 2 : (gt->num_nodes == 3 ? 3 : 4);
        PetscInt corners[4], key[4], index;

        if (!f->table) PetscCall(SKMeshCreateFaceTable(mesh, &nface, &f->table));
        for (PetscInt c = 0; c < ncorners; c++) corners[c] = used[f->el_nodes[f->el_offset[k] + c]];
        SKMeshFaceKey(ncorners, corners, key);
        PetscCall(SKMeshFaceTableFind(nface, f->table, key, &index));
        if (index < 0)
          PetscCall(SKFileError(comm, file, (int)f->el_line[k],
                                "element %" PetscInt_FMT " of physical group '%s' is not a face of any %" PetscInt_FMT "D element",
                                f->el_tag[k], name, dim));
        /* On an interface between two elements the lower-numbered element takes the side. */
        elements[ns] = f->table[index].element;
        faces[ns++]  = f->table[index].face;
      }
      if (group >= 0) f->physical[group].count++;
    }
    PetscCall(SKMeshAddNodeSet(mesh, name, nn, nodes));
    if (gdim == dim - 1) PetscCall(SKMeshAddSideSet(mesh, name, ns, elements, faces));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Builds the mesh from the parsed file; END_LINE (the last line) is where file-wide problems are reported. */
static PetscErrorCode SKGmshBuild(MPI_Comm comm, const char file[], SKGmshFile *f, int end_line, SKMesh *mesh)
{
  PetscInt dim = 0, *used, nused = 0, bad;
  PetscReal *coords, lo = PETSC_MAX_REAL, hi = PETSC_MIN_REAL, det;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < f->num_elements; k++) dim = PetscMax(dim, sk_gmsh_types[f->el_type[k]].dim);
  if (dim < 2) PetscCall(SKFileError(comm, file, end_line, "the file has no 2D or 3D elements"));

  /* Nodes: those of the dim-dimensional elements, in file order; others (geometry points) are dropped. */
  PetscCall(PetscMalloc1(f->num_nodes, &f->used));
  used = f->used;
  for (PetscInt v = 0; v < f->num_nodes; v++) used[v] = -1;
  for (PetscInt k = 0; k < f->num_elements; k++)
    if (sk_gmsh_types[f->el_type[k]].dim == dim)
      for (PetscInt a = f->el_offset[k]; a < f->el_offset[k + 1]; a++) used[f->el_nodes[a]] = 0;
  for (PetscInt v = 0; v < f->num_nodes; v++)
    if (!used[v]) used[v] = nused++;
  for (PetscInt v = 0; v < f->num_nodes; v++) {
    if (used[v] < 0) continue;
    lo = PetscMin(lo, PetscMin(f->xyz[3 * v], f->xyz[3 * v + 1]));
    hi = PetscMax(hi, PetscMax(f->xyz[3 * v], f->xyz[3 * v + 1]));
  }
  if (dim == 2)
    for (PetscInt v = 0; v < f->num_nodes; v++)
      if (used[v] >= 0 && PetscAbsReal(f->xyz[3 * v + 2]) > 1e-12 * (hi - lo))
        PetscCall(SKFileError(comm, file, end_line,
                              "2D mesh: node %" PetscInt_FMT " has z = %g; stickslip reads 2D meshes in the plane z = 0", f->node_tag[v],
                              (double)f->xyz[3 * v + 2]));
  PetscCall(PetscMalloc1(nused * dim, &coords));
  for (PetscInt v = 0; v < f->num_nodes; v++)
    for (PetscInt d = 0; d < dim && used[v] >= 0; d++) coords[used[v] * dim + d] = f->xyz[3 * v + d];
  PetscCall(SKMeshCreate(comm, dim, nused, coords, mesh));
  PetscCall(PetscFree(coords));
  PetscCall(PetscMalloc1(f->num_elements, &f->order));
  PetscCall(SKGmshBuildBlocks(f, dim, *mesh));
  PetscCall(SKMeshFindInvertedElement(*mesh, &bad, &det));
  if (bad >= 0)
    PetscCall(SKFileError(comm, file, (int)f->el_line[f->order[bad]],
                          "element %" PetscInt_FMT
                          " is inverted or degenerate: its smallest det J (nodes, centre, Gauss points) is %g (is its node order Gmsh's?)",
                          f->el_tag[f->order[bad]], (double)det));
  PetscCall(SKGmshBuildSets(comm, file, f, dim, *mesh));
  for (PetscInt i = 0; i < f->nphysical; i++)
    if (f->physical[i].count == 0)
      PetscCall(SKFileError(comm, file, (int)f->physical[i].line,
                            "physical group '%s' (dimension %" PetscInt_FMT ", tag %" PetscInt_FMT ") has no elements", f->physical[i].name,
                            f->physical[i].dim, f->physical[i].tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads the whole file into a NUL-terminated buffer. */
static PetscErrorCode SKGmshSlurp(MPI_Comm comm, const char filename[], char **text)
{
  FILE *fp = fopen(filename, "rb");
  long size;
  size_t n;

  PetscFunctionBegin;
  PetscCheck(fp, comm, SK_ERR_INPUT, "%s:1: cannot read the file: %s", filename, strerror(errno));
  if (fseek(fp, 0, SEEK_END) || (size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
    fclose(fp);
    SETERRQ(comm, SK_ERR_INPUT, "%s:1: cannot read the file (not a regular file?)", filename);
  }
  if ((size_t)size > SK_GMSH_MAX_BYTES) {
    fclose(fp);
    SETERRQ(comm, SK_ERR_INPUT, "%s:1: the file is larger than %zu bytes", filename, SK_GMSH_MAX_BYTES);
  }
  if (PetscMalloc1((size_t)size + 1, text)) {
    fclose(fp);
    SETERRQ(comm, PETSC_ERR_MEM, "out of memory reading %s", filename);
  }
  n = fread(*text, 1, (size_t)size, fp);
  fclose(fp);
  (*text)[n] = 0;
  if (n != (size_t)size || strlen(*text) != n) {
    PetscCall(PetscFree(*text));
    SETERRQ(comm, SK_ERR_INPUT, "%s:1: %s", filename,
            n != (size_t)size ? "could not read the whole file" : "the file contains NUL bytes; stickslip reads ASCII .msh files only");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKGmshParse(SKGmshLexer *lex, SKGmshFile *f)
{
  char word[64], version[64];
  PetscInt file_type, data_size;
  PetscBool have_nodes = PETSC_FALSE, have_elements = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SKGmshExpect(lex, "$MeshFormat"));
  PetscCall(SKGmshToken(lex, "the format version", version, sizeof(version)));
  if (strcmp(version, "4.1"))
    PetscCall(SKGmshError(
        lex, "this is a Gmsh format %s file; stickslip reads format 4.1 (gmsh -format msh41, or Mesh.MshFileVersion = 4.1)", version));
  PetscCall(SKGmshInt(lex, "the file type", &file_type));
  if (file_type != 0) PetscCall(SKGmshError(lex, "binary .msh files are not supported; save as ASCII (Mesh.Binary = 0)"));
  PetscCall(SKGmshInt(lex, "the data size", &data_size));
  PetscCall(SKGmshExpect(lex, "$EndMeshFormat"));
  for (;;) {
    SKGmshSkipSpace(lex);
    if (!*lex->p) break;
    PetscCall(SKGmshToken(lex, "a section", word, sizeof(word)));
    if (!strcmp(word, "$PhysicalNames"))
      PetscCall(SKGmshReadPhysicalNames(lex, f));
    else if (!strcmp(word, "$Entities"))
      PetscCall(SKGmshReadEntities(lex, f));
    else if (!strcmp(word, "$Nodes")) {
      if (have_nodes) PetscCall(SKGmshError(lex, "a second $Nodes section"));
      PetscCall(SKGmshReadNodes(lex, f));
      have_nodes = PETSC_TRUE;
    } else if (!strcmp(word, "$Elements")) {
      if (have_elements) PetscCall(SKGmshError(lex, "a second $Elements section"));
      PetscCall(SKGmshReadElements(lex, f));
      have_elements = PETSC_TRUE;
    } else if (word[0] == '$') {
      /* Sections stickslip does not use ($PartitionedEntities, $Periodic, $NodeData, ...) are skipped. */
      char end[72], tok[72];

      PetscCall(PetscSNPrintf(end, sizeof(end), "$End%s", word + 1));
      do PetscCall(SKGmshToken(lex, end, tok, sizeof(tok)));
      while (strcmp(tok, end));
    } else
      PetscCall(SKGmshError(lex, "expected a section such as $Nodes, found '%s'", word));
  }
  if (!have_nodes || !have_elements) PetscCall(SKGmshError(lex, "the file has no %s section", have_nodes ? "$Elements" : "$Nodes"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateGmsh(MPI_Comm comm, const char filename[], SKMesh *mesh)
{
  char *text;
  SKGmshFile f;
  SKGmshLexer lex;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKMeshInitializePackage());
  *mesh = NULL;
  PetscCall(SKGmshSlurp(comm, filename, &text));
  PetscCall(PetscLogEventBegin(SK_EVENT_MeshRead, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&f, sizeof(f)));
  lex.comm = comm;
  lex.file = filename;
  lex.p    = text;
  lex.line = 1;
  ierr     = SKGmshParse(&lex, &f);
  if (!ierr) ierr = SKGmshBuild(comm, filename, &f, lex.line, mesh);
  if (ierr && *mesh) PetscCall(SKMeshDestroy(mesh));
  PetscCall(SKGmshFileDestroy(&f));
  PetscCall(PetscFree(text));
  PetscCall(PetscLogEventEnd(SK_EVENT_MeshRead, 0, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
