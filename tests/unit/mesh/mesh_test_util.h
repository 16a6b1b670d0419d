/* Helpers shared by the mesh unit tests: temporary files, expected input errors, comparing two meshes up to node
   and element numbering. Header-only so that each test stays one executable. */
#ifndef STICKSLIP_MESH_TEST_UTIL_H
#define STICKSLIP_MESH_TEST_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif

#include <stickslip/mesh.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes TEXT to DIR/NAME; the full path goes to path. */
static inline PetscErrorCode WriteTempFile(const char dir[], const char name[], const char text[], char path[], size_t len)
{
  FILE *fp;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/%s", dir, name));
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
  fputs(text, fp);
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* IERR must be an input error whose message contains every one of WANT (NULL-terminated list). */
static inline PetscErrorCode ExpectInputError(PetscErrorCode ierr, const char *const want[])
{
  const char *text, *msg;

  PetscFunctionBegin;
  PetscCheck(ierr == SK_ERR_INPUT, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected an input error containing '%s', got code %d", want[0],
             (int)ierr);
  PetscCall(PetscErrorMessage(ierr, &text, (char **)&msg));
  for (PetscInt i = 0; want[i]; i++)
    PetscCheck(msg && strstr(msg, want[i]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "message '%s' does not contain '%s'", msg ? msg : "", want[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorted, padded list of (mapped) node numbers: identifies a face or an element whatever its node order. */
typedef struct {
  PetscInt v[27];
  PetscInt index;
} NodeKey;

/* Writes TEXT with its first FROM replaced by TO as DIR/NAME, reads it with SKMeshCreateFromFile() (by extension: .msh
   or .xml) and expects an input error "NAME:LINE: ... WANT ..." and no mesh. */
static inline PetscErrorCode ExpectBrokenFile(const char dir[], const char name[], const char text[], const char from[], const char to[],
                                              int line, const char want[])
{
  char buf[4096], path[PETSC_MAX_PATH_LEN], where[64];
  const char *at        = strstr(text, from);
  const char *expect[3] = {where, want, NULL};
  SKMesh mesh           = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(at, PETSC_COMM_SELF, PETSC_ERR_PLIB, "'%s' is not in the test mesh", from);
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)));
  PetscCall(WriteTempFile(dir, name, buf, path, sizeof(path)));
  PetscCall(PetscSNPrintf(where, sizeof(where), "%s:%d:", name, line));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKMeshCreateFromFile(PETSC_COMM_SELF, path, &mesh);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectInputError(ierr, expect));
  PetscCheck(!mesh, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a failed read returned a mesh");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline int NodeKeyCompare(const void *a, const void *b)
{
  const NodeKey *x = (const NodeKey *)a, *y = (const NodeKey *)b;

  for (int k = 0; k < 27; k++)
    if (x->v[k] != y->v[k]) return x->v[k] < y->v[k] ? -1 : 1;
  return 0;
}

static inline PetscErrorCode NodeKeyMake(PetscInt n, const PetscInt nodes[], const PetscInt *map, PetscInt index, NodeKey *key)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < 27; k++) key->v[k] = k < n ? (map ? map[nodes[k]] : nodes[k]) : PETSC_MAX_INT;
  PetscCall(PetscSortInt(n, key->v));
  key->index = index;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keys of the elements (WHICH = -1) or of the sides of side set WHICH, nodes mapped through MAP (NULL: identity),
   sorted. Caller frees *keys. */
static inline PetscErrorCode MeshKeys(SKMesh mesh, PetscInt which, const PetscInt *map, PetscInt *n, NodeKey **keys)
{
  const PetscInt *elements, *faces;

  PetscFunctionBegin;
  if (which < 0)
    PetscCall(SKMeshGetNumElements(mesh, n));
  else
    PetscCall(SKMeshGetSideSet(mesh, which, NULL, n, &elements, &faces, NULL));
  PetscCall(PetscMalloc1(*n, keys));
  for (PetscInt i = 0; i < *n; i++) {
    PetscInt nodes[27], nn;
    const PetscInt *en;

    if (which < 0) {
      SKElementType type;
      const SKElementTypeInfo *info;

      PetscCall(SKMeshGetElement(mesh, i, NULL, &type, &en));
      PetscCall(SKElementTypeGetInfo(type, &info));
      nn = info->num_nodes;
      PetscCall(PetscArraycpy(nodes, en, nn));
    } else
      PetscCall(SKMeshGetFaceNodes(mesh, elements[i], faces[i], &nn, nodes));
    PetscCall(NodeKeyMake(nn, nodes, map, i, &(*keys)[i]));
  }
  qsort(*keys, (size_t)*n, sizeof(NodeKey), NodeKeyCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A and B are the same mesh up to node and element numbering: same nodes (coordinates within TOL), same elements
   (same node lists, and with ORDERED the same node order), same blocks, and every node set and side set of B is in A
   with the same members. */
static inline PetscErrorCode CompareMeshes(SKMesh a, SKMesh b, PetscReal tol, PetscBool ordered)
{
  PetscInt dim, dimb, na, nb, nea, neb, *map, nblocks, nblocksb, nsets;
  const PetscReal *xa, *xb;
  NodeKey *ka, *kb;

  PetscFunctionBegin;
  PetscCall(SKMeshGetDimension(a, &dim));
  PetscCall(SKMeshGetDimension(b, &dimb));
  PetscCall(SKMeshGetNodes(a, &na, &xa));
  PetscCall(SKMeshGetNodes(b, &nb, &xb));
  PetscCheck(dim == dimb && na == nb, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "dimension %" PetscInt_FMT "/%" PetscInt_FMT ", nodes %" PetscInt_FMT "/%" PetscInt_FMT, dim, dimb, na, nb);
  PetscCall(PetscMalloc1(na, &map));
  for (PetscInt i = 0; i < na; i++) {
    map[i] = -1;
    for (PetscInt j = 0; j < nb && map[i] < 0; j++) {
      PetscReal dist = 0;

      for (PetscInt d = 0; d < dim; d++) dist = PetscMax(dist, PetscAbsReal(xa[i * dim + d] - xb[j * dim + d]));
      if (dist <= tol) map[i] = j;
    }
    PetscCheck(map[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node %" PetscInt_FMT " of the first mesh has no match", i);
  }
  {
    PetscInt *sorted, m = na;

    PetscCall(PetscMalloc1(na, &sorted));
    PetscCall(PetscArraycpy(sorted, map, na));
    PetscCall(PetscSortRemoveDupsInt(&m, sorted));
    PetscCheck(m == na, PETSC_COMM_SELF, PETSC_ERR_PLIB, "nodes of the first mesh match only %" PetscInt_FMT " distinct nodes", m);
    PetscCall(PetscFree(sorted));
  }
  PetscCall(MeshKeys(a, -1, map, &nea, &ka));
  PetscCall(MeshKeys(b, -1, NULL, &neb, &kb));
  PetscCheck(nea == neb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "elements %" PetscInt_FMT "/%" PetscInt_FMT, nea, neb);
  for (PetscInt i = 0; i < nea; i++) {
    PetscCheck(!NodeKeyCompare(&ka[i], &kb[i]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT " of the first mesh has no match",
               ka[i].index);
    if (ordered) {
      const PetscInt *ea, *eb;
      SKElementType type;
      const SKElementTypeInfo *info;

      PetscCall(SKMeshGetElement(a, ka[i].index, NULL, &type, &ea));
      PetscCall(SKMeshGetElement(b, kb[i].index, NULL, NULL, &eb));
      PetscCall(SKElementTypeGetInfo(type, &info));
      for (PetscInt k = 0; k < info->num_nodes; k++)
        PetscCheck(map[ea[k]] == eb[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT ": node %" PetscInt_FMT " differs",
                   ka[i].index, k);
    }
  }
  PetscCall(PetscFree(ka));
  PetscCall(PetscFree(kb));
  PetscCall(SKMeshGetNumBlocks(a, &nblocks));
  PetscCall(SKMeshGetNumBlocks(b, &nblocksb));
  PetscCheck(nblocks == nblocksb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "blocks %" PetscInt_FMT "/%" PetscInt_FMT, nblocks, nblocksb);
  for (PetscInt i = 0; i < nblocks; i++) {
    const char *name, *nameb;
    PetscInt id, idb;
    SKElementType t, tb;

    PetscCall(SKMeshGetBlock(a, i, &name, &id, &t, NULL, NULL, NULL));
    PetscCall(SKMeshGetBlock(b, i, &nameb, &idb, &tb, NULL, NULL, NULL));
    PetscCheck(!strcmp(name, nameb) && id == idb && t == tb, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "block %" PetscInt_FMT ": '%s' %" PetscInt_FMT " vs '%s' %" PetscInt_FMT, i, name, id, nameb, idb);
  }
  PetscCall(SKMeshGetNumNodeSets(b, &nsets));
  for (PetscInt s = 0; s < nsets; s++) {
    const char *name;
    PetscInt n, nsa, ia, *mapped;
    const PetscInt *nodes, *nodesa;

    PetscCall(SKMeshGetNodeSet(b, s, &name, &n, &nodes, NULL));
    PetscCall(SKMeshFindNodeSet(a, name, &ia));
    PetscCheck(ia >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the first mesh has no node set '%s'", name);
    PetscCall(SKMeshGetNodeSet(a, ia, NULL, &nsa, &nodesa, NULL));
    PetscCheck(nsa == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node set '%s': %" PetscInt_FMT "/%" PetscInt_FMT " nodes", name, nsa, n);
    PetscCall(PetscMalloc1(n, &mapped));
    for (PetscInt i = 0; i < n; i++) mapped[i] = map[nodesa[i]];
    PetscCall(PetscSortInt(n, mapped));
    for (PetscInt i = 0; i < n; i++) PetscCheck(mapped[i] == nodes[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "node set '%s' differs", name);
    PetscCall(PetscFree(mapped));
  }
  PetscCall(SKMeshGetNumSideSets(b, &nsets));
  for (PetscInt s = 0; s < nsets; s++) {
    const char *name;
    PetscInt ia, n, nsa;

    PetscCall(SKMeshGetSideSet(b, s, &name, NULL, NULL, NULL, NULL));
    PetscCall(SKMeshFindSideSet(a, name, &ia));
    PetscCheck(ia >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the first mesh has no side set '%s'", name);
    PetscCall(MeshKeys(a, ia, map, &nsa, &ka));
    PetscCall(MeshKeys(b, s, NULL, &n, &kb));
    PetscCheck(nsa == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "side set '%s': %" PetscInt_FMT "/%" PetscInt_FMT " sides", name, nsa, n);
    for (PetscInt i = 0; i < n; i++)
      PetscCheck(!NodeKeyCompare(&ka[i], &kb[i]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "side set '%s' differs", name);
    PetscCall(PetscFree(ka));
    PetscCall(PetscFree(kb));
  }
  PetscCall(PetscFree(map));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Makes a fresh temporary directory into dir[]; RemoveTempFiles() empties and removes it. */
static inline PetscErrorCode MakeTempDir(char dir[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(dir, "/tmp/sk_mesh_test_XXXXXX", len));
  PetscCheck(mkdtemp(dir), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "mkdtemp failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Removes DIR/NAMES[i] for the NULL-terminated NAMES, then DIR. */
static inline PetscErrorCode RemoveTempFiles(const char dir[], const char *const names[])
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  for (PetscInt i = 0; names[i]; i++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, names[i]));
    (void)unlink(path);
  }
  (void)rmdir(dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
