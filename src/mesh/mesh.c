/* stickslip mesh: the mesh object (nodes, blocks, sets), its checks, boundary faces and node-to-element map. */
#include "mesh/meshimpl.h"
#include <stdlib.h>

PetscLogEvent SK_EVENT_MeshPartition, SK_EVENT_MeshDistribute, SK_EVENT_MeshRead;

PetscErrorCode SKMeshInitializePackage(void)
{
  static PetscBool initialized = PETSC_FALSE;

  PetscFunctionBegin;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("SKMeshPartition", SK_CLASSID, &SK_EVENT_MeshPartition));
  PetscCall(PetscLogEventRegister("SKMeshDistribute", SK_CLASSID, &SK_EVENT_MeshDistribute));
  PetscCall(PetscLogEventRegister("SKMeshRead", SK_CLASSID, &SK_EVENT_MeshRead));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreate(MPI_Comm comm, PetscInt dim, PetscInt num_nodes, const PetscReal coords[], SKMesh *mesh)
{
  SKMesh m;

  PetscFunctionBegin;
  PetscCall(SKMeshInitializePackage());
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "mesh dimension must be 2 or 3, not %" PetscInt_FMT, dim);
  PetscCheck(num_nodes >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "negative number of nodes %" PetscInt_FMT, num_nodes);
  PetscCall(PetscNew(&m));
  m->comm             = comm;
  m->dim              = dim;
  m->num_nodes        = num_nodes;
  m->num_owned        = num_nodes;
  m->global_num_nodes = num_nodes;
  PetscCall(PetscMalloc1(num_nodes * dim, &m->coords));
  if (num_nodes) PetscCall(PetscArraycpy(m->coords, coords, num_nodes * dim));
  *mesh = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKMeshSetDestroy(SKMeshSet *set)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(set->nodes));
  PetscCall(PetscFree(set->elements));
  PetscCall(PetscFree(set->faces));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshDestroy(SKMesh *mesh)
{
  SKMesh m = *mesh;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt b = 0; b < m->num_blocks; b++) {
    SKMeshCellData *cd = m->blocks[b].cell_data;
    PetscCall(PetscFree(m->blocks[b].conn));
    if (cd && --cd->refct == 0) {
      if (cd->destroy) PetscCall(cd->destroy(cd->data));
      PetscCall(PetscFree(cd));
    }
  }
  for (PetscInt i = 0; i < m->num_node_sets; i++) PetscCall(SKMeshSetDestroy(&m->node_sets[i]));
  for (PetscInt i = 0; i < m->num_side_sets; i++) PetscCall(SKMeshSetDestroy(&m->side_sets[i]));
  PetscCall(PetscFree(m->blocks));
  PetscCall(PetscFree(m->node_sets));
  PetscCall(PetscFree(m->side_sets));
  PetscCall(PetscFree(m->coords));
  PetscCall(PetscFree(m->boundary_elements));
  PetscCall(PetscFree(m->boundary_faces));
  PetscCall(PetscFree(m->node_element_offsets));
  PetscCall(PetscFree(m->node_elements));
  PetscCall(PetscFree(m->ghost_global));
  PetscCall(PetscFree(m->ghost_rank));
  PetscCall(PetscFree(m->natural_nodes));
  PetscCall(PetscFree(m->natural_elements));
  PetscCall(PetscFree(m));
  *mesh = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Adding elements or sets invalidates the caches. */
static PetscErrorCode SKMeshResetCaches(SKMesh mesh)
{
  PetscFunctionBegin;
  mesh->has_boundary = PETSC_FALSE;
  PetscCall(PetscFree(mesh->boundary_elements));
  PetscCall(PetscFree(mesh->boundary_faces));
  PetscCall(PetscFree(mesh->node_element_offsets));
  PetscCall(PetscFree(mesh->node_elements));
  PetscCall(PetscFree(mesh->natural_nodes));
  PetscCall(PetscFree(mesh->natural_elements));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Name lookup over an array of blocks or sets: FIRST is the first name, STRIDE the size of the structs. */
static PetscErrorCode SKMeshFindName(const char name[], PetscInt n, const char *first, size_t stride, PetscInt *index)
{
  PetscFunctionBegin;
  *index = -1;
  for (PetscInt i = 0; i < n; i++) {
    PetscBool same;

    PetscCall(PetscStrcmp(name, first + i * stride, &same));
    if (same) {
      *index = i;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshAddBlock(SKMesh mesh, const char name[], PetscInt id, SKElementType type, PetscInt num_elements, const PetscInt conn[])
{
  const SKElementTypeInfo *info = NULL;
  SKMeshBlock *blocks, *blk;
  PetscInt existing;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "add blocks and sets before SKMeshDistribute()");
  PetscCall(SKElementTypeGetInfo(type, &info));
  PetscCheck(info->dim == mesh->dim, mesh->comm, SK_ERR_INPUT,
             "block '%s': element type %s is %" PetscInt_FMT "D but the mesh is %" PetscInt_FMT "D", name, info->name, info->dim,
             mesh->dim);
  PetscCheck(num_elements >= 0, mesh->comm, PETSC_ERR_ARG_OUTOFRANGE, "block '%s': negative element count", name);
  {
    size_t len;

    PetscCall(PetscStrlen(name, &len));
    PetscCheck(len > 0 && len < SK_MESH_NAME_LEN, mesh->comm, SK_ERR_INPUT, "block name '%s' must have 1 to %d characters", name,
               SK_MESH_NAME_LEN - 1);
  }
  PetscCall(SKMeshFindName(name, mesh->num_blocks, mesh->blocks ? mesh->blocks[0].name : NULL, sizeof(SKMeshBlock), &existing));
  PetscCheck(existing < 0, mesh->comm, SK_ERR_INPUT, "the mesh already has a block named '%s'", name);
  for (PetscInt e = 0; e < num_elements; e++)
    for (PetscInt k = 0; k < info->num_nodes; k++) {
      const PetscInt v = conn[e * info->num_nodes + k];

      PetscCheck(v >= 0 && v < mesh->num_nodes, mesh->comm, SK_ERR_INPUT,
                 "block '%s': element %" PetscInt_FMT " references node %" PetscInt_FMT
                 ", which does not exist (the mesh has %" PetscInt_FMT " nodes, numbered from 0)",
                 name, e, v, mesh->num_nodes);
    }
  PetscCall(PetscMalloc1(mesh->num_blocks + 1, &blocks));
  if (mesh->num_blocks) PetscCall(PetscArraycpy(blocks, mesh->blocks, mesh->num_blocks));
  PetscCall(PetscFree(mesh->blocks));
  mesh->blocks = blocks;
  blk          = &blocks[mesh->num_blocks++];
  PetscCall(PetscMemzero(blk, sizeof(*blk)));
  PetscCall(PetscStrncpy(blk->name, name, sizeof(blk->name)));
  blk->id            = id;
  blk->type          = type;
  blk->num_elements  = num_elements;
  blk->first_element = mesh->num_elements;
  blk->natural_first = mesh->num_elements;
  PetscCall(PetscMalloc1(num_elements * info->num_nodes, &blk->conn));
  if (num_elements) PetscCall(PetscArraycpy(blk->conn, conn, num_elements * info->num_nodes));
  mesh->num_elements += num_elements;
  mesh->global_num_elements = mesh->num_elements;
  PetscCall(SKMeshResetCaches(mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Appends an empty set named NAME to *sets (checking the name) and returns it. */
static PetscErrorCode SKMeshAppendSet(SKMesh mesh, const char what[], const char name[], PetscInt *count, SKMeshSet **sets, SKMeshSet **set)
{
  SKMeshSet *grown;
  PetscInt existing;
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(name, &len));
  PetscCheck(len > 0 && len < SK_MESH_NAME_LEN, mesh->comm, SK_ERR_INPUT, "%s name '%s' must have 1 to %d characters", what, name,
             SK_MESH_NAME_LEN - 1);
  PetscCall(SKMeshFindName(name, *count, *count ? (*sets)[0].name : NULL, sizeof(SKMeshSet), &existing));
  PetscCheck(existing < 0, mesh->comm, SK_ERR_INPUT, "the mesh already has a %s named '%s'", what, name);
  PetscCall(PetscMalloc1(*count + 1, &grown));
  if (*count) PetscCall(PetscArraycpy(grown, *sets, *count));
  PetscCall(PetscFree(*sets));
  *sets = grown;
  *set  = &grown[(*count)++];
  PetscCall(PetscMemzero(*set, sizeof(**set)));
  PetscCall(PetscStrncpy((*set)->name, name, sizeof((*set)->name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshAddNodeSet(SKMesh mesh, const char name[], PetscInt n, const PetscInt nodes[])
{
  SKMeshSet *set;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "add blocks and sets before SKMeshDistribute()");
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(nodes[i] >= 0 && nodes[i] < mesh->num_nodes, mesh->comm, SK_ERR_INPUT,
               "node set '%s': node %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT " nodes, numbered from 0)", name,
               nodes[i], mesh->num_nodes);
  PetscCall(SKMeshAppendSet(mesh, "node set", name, &mesh->num_node_sets, &mesh->node_sets, &set));
  PetscCall(PetscMalloc1(n, &set->nodes));
  if (n) PetscCall(PetscArraycpy(set->nodes, nodes, n));
  set->n = n;
  PetscCall(PetscSortRemoveDupsInt(&set->n, set->nodes));
  set->global_size = set->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshAddSideSet(SKMesh mesh, const char name[], PetscInt n, const PetscInt elements[], const PetscInt faces[])
{
  SKMeshSet *set;
  PetscInt *keys, m = 0;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "add blocks and sets before SKMeshDistribute()");
  for (PetscInt i = 0; i < n; i++) {
    PetscInt b = 0, local = 0;
    const SKElementTypeInfo *info = NULL;

    PetscCheck(elements[i] >= 0 && elements[i] < mesh->num_elements, mesh->comm, SK_ERR_INPUT,
               "side set '%s': element %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT " elements, numbered from 0)", name,
               elements[i], mesh->num_elements);
    PetscCall(SKMeshLocateElement(mesh, elements[i], &b, &local));
    PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
    PetscCheck(faces[i] >= 0 && faces[i] < info->num_faces, mesh->comm, SK_ERR_INPUT,
               "side set '%s': element %" PetscInt_FMT " is a %s, which has faces 0 to %" PetscInt_FMT ", not %" PetscInt_FMT, name,
               elements[i], info->name, info->num_faces - 1, faces[i]);
  }
  PetscCall(SKMeshAppendSet(mesh, "side set", name, &mesh->num_side_sets, &mesh->side_sets, &set));
  /* Sort (element, face) pairs as one key: at most 6 faces per element. */
  PetscCall(PetscMalloc1(n, &keys));
  for (PetscInt i = 0; i < n; i++) keys[i] = elements[i] * 8 + faces[i];
  m = n;
  PetscCall(PetscSortRemoveDupsInt(&m, keys));
  PetscCall(PetscMalloc1(m, &set->elements));
  PetscCall(PetscMalloc1(m, &set->faces));
  for (PetscInt i = 0; i < m; i++) {
    set->elements[i] = keys[i] / 8;
    set->faces[i]    = keys[i] % 8;
  }
  set->n           = m;
  set->global_size = m;
  PetscCall(PetscFree(keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshLocateElement(SKMesh mesh, PetscInt e, PetscInt *block, PetscInt *local)
{
  PetscFunctionBegin;
  PetscCheck(e >= 0 && e < mesh->num_elements, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "element %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", e, mesh->num_elements);
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    if (e < mesh->blocks[b].first_element + mesh->blocks[b].num_elements) {
      *block = b;
      *local = e - mesh->blocks[b].first_element;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshFindInvertedElement(SKMesh mesh, PetscInt *element, PetscReal *det_j)
{
  PetscReal xe[27 * 3];

  PetscFunctionBegin;
  *element = -1;
  *det_j   = 0;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    if (!info->ref_coords) continue; /* registered types: their basis checks every quadrature point (SKFEMCheckReference) */
    for (PetscInt e = 0; e < blk->num_elements; e++) {
      PetscReal lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL}, h2 = 0,
                det, h, xi[3];

      for (PetscInt a = 0; a < info->num_nodes; a++)
        for (PetscInt d = 0; d < mesh->dim; d++) {
          xe[a * mesh->dim + d] = mesh->coords[blk->conn[e * info->num_nodes + a] * mesh->dim + d];
          lo[d]                 = PetscMin(lo[d], xe[a * mesh->dim + d]);
          hi[d]                 = PetscMax(hi[d], xe[a * mesh->dim + d]);
        }
      for (PetscInt d = 0; d < mesh->dim; d++) h2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
      h = PetscSqrtReal(h2);
      PetscCall(SKElementTypeMinJacobian(blk->type, xe, &det, xi));
      /* Relative threshold: det J scales as h^dim, so 1e-12 h^dim separates degenerate from merely small elements. */
      if (!(det > 1e-12 * PetscPowRealInt(h, mesh->dim))) {
        *element = blk->first_element + e;
        *det_j   = det;
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCheck(SKMesh mesh)
{
  PetscInt e, b = 0, local = 0;
  PetscReal det;

  PetscFunctionBegin;
  PetscCall(SKMeshFindInvertedElement(mesh, &e, &det));
  if (e >= 0) {
    PetscCall(SKMeshLocateElement(mesh, e, &b, &local));
    SETERRQ(mesh->comm, SK_ERR_INPUT,
            "element %" PetscInt_FMT " (element %" PetscInt_FMT " of block '%s') is inverted or degenerate: its smallest det J is %g", e,
            local, mesh->blocks[b].name, (double)det);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCheckSize(PetscInt dim, PetscReal num_nodes, PetscReal num_elements, PetscInt nodes_per_element,
                               PetscReal element_bytes, char msg[], size_t len)
{
  const PetscReal max_int = (PetscReal)PETSC_MAX_INT;
  /* bytes: coordinates, ~16 state and force vectors of dim values, lumped mass, numbering maps, VTK/checkpoint
     buffers per node (~1 kB in 3D); connectivity, batch workspace and stresses per element */
  const PetscReal need = num_nodes * 1024.0 + num_elements * (100.0 + 16.0 * nodes_per_element + element_bytes);
  const PetscReal have = SKMachineMemory();

  PetscFunctionBegin;
  msg[0] = 0;
  if (num_nodes * dim >= max_int || num_elements * nodes_per_element >= max_int)
    PetscCall(PetscSNPrintf(msg, len,
                            "the mesh would have %.6g nodes (%.6g dofs) and %.6g elements (%.6g connectivity entries), more than the %.6g "
                            "that PETSc's 32-bit indices can count: use fewer cells",
                            (double)num_nodes, (double)(num_nodes * dim), (double)num_elements, (double)(num_elements * nodes_per_element),
                            (double)max_int));
  else if (need > have)
    PetscCall(PetscSNPrintf(msg, len,
                            "the mesh of %.6g nodes and %.6g elements would need about %.3g GB of memory, more than the %.3g GB this run "
                            "may use (the machine's memory or the process' limit): use fewer cells",
                            (double)num_nodes, (double)num_elements, (double)(need / 1e9), (double)(have / 1e9)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetDigest(SKMesh mesh, unsigned long long *digest)
{
  unsigned long long h = SK_FNV_SEED;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "the digest is of the replicated mesh (before SKMeshDistribute())");
  h = SKHashBytes(h, &mesh->dim, sizeof(mesh->dim));
  h = SKHashBytes(h, mesh->coords, sizeof(PetscReal) * (size_t)(mesh->num_nodes * mesh->dim));
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;
    const int type                = (int)blk->type;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    h = SKHashBytes(h, &type, sizeof(type));
    h = SKHashBytes(h, &blk->num_elements, sizeof(blk->num_elements));
    h = SKHashBytes(h, blk->conn, sizeof(PetscInt) * (size_t)(blk->num_elements * info->num_nodes));
  }
  *digest = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetComm(SKMesh mesh, MPI_Comm *comm)
{
  PetscFunctionBegin;
  *comm = mesh->comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetDimension(SKMesh mesh, PetscInt *dim)
{
  PetscFunctionBegin;
  *dim = mesh->dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNodes(SKMesh mesh, PetscInt *num_nodes, const PetscReal *coords[])
{
  PetscFunctionBegin;
  if (num_nodes) *num_nodes = mesh->num_nodes;
  if (coords) *coords = mesh->coords;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNodesWrite(SKMesh mesh, PetscInt *num_nodes, PetscReal *coords[])
{
  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "Node coordinates can be changed only before SKMeshDistribute()");
  if (num_nodes) *num_nodes = mesh->num_nodes;
  if (coords) *coords = mesh->coords;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNumElements(SKMesh mesh, PetscInt *num_elements)
{
  PetscFunctionBegin;
  *num_elements = mesh->num_elements;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNumBlocks(SKMesh mesh, PetscInt *num_blocks)
{
  PetscFunctionBegin;
  *num_blocks = mesh->num_blocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetBlock(SKMesh mesh, PetscInt b, const char *name[], PetscInt *id, SKElementType *type, PetscInt *num_elements,
                              PetscInt *first_element, const PetscInt *conn[])
{
  PetscFunctionBegin;
  PetscCheck(b >= 0 && b < mesh->num_blocks, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "block %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", b, mesh->num_blocks);
  if (name) *name = mesh->blocks[b].name;
  if (id) *id = mesh->blocks[b].id;
  if (type) *type = mesh->blocks[b].type;
  if (num_elements) *num_elements = mesh->blocks[b].num_elements;
  if (first_element) *first_element = mesh->blocks[b].first_element;
  if (conn) *conn = mesh->blocks[b].conn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshSetBlockCellData(SKMesh mesh, PetscInt b, void *data, PetscErrorCode (*destroy)(void *))
{
  SKMeshBlock *blk;

  PetscFunctionBegin;
  PetscCheck(b >= 0 && b < mesh->num_blocks, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "block %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", b, mesh->num_blocks);
  blk = &mesh->blocks[b];
  PetscCheck(!blk->cell_data, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "block '%s' already has cell data", blk->name);
  PetscCall(PetscNew(&blk->cell_data));
  blk->cell_data->refct   = 1;
  blk->cell_data->data    = data;
  blk->cell_data->destroy = destroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshShareBlockCellData(SKMesh from, SKMesh mesh, PetscInt b)
{
  PetscFunctionBegin;
  mesh->blocks[b].cell_data = from->blocks[b].cell_data;
  if (mesh->blocks[b].cell_data) mesh->blocks[b].cell_data->refct++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetBlockCellData(SKMesh mesh, PetscInt b, void **data)
{
  PetscFunctionBegin;
  PetscCheck(b >= 0 && b < mesh->num_blocks, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "block %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", b, mesh->num_blocks);
  *data = mesh->blocks[b].cell_data ? mesh->blocks[b].cell_data->data : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetBlockNaturalElements(SKMesh mesh, PetscInt b, PetscInt natural[])
{
  const SKMeshBlock *blk;

  PetscFunctionBegin;
  PetscCheck(b >= 0 && b < mesh->num_blocks, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "block %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", b, mesh->num_blocks);
  blk = &mesh->blocks[b];
  for (PetscInt e = 0; e < blk->num_elements; e++)
    natural[e] = (mesh->natural_elements ? mesh->natural_elements[blk->first_element + e] : blk->first_element + e) - blk->natural_first;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshFindBlock(SKMesh mesh, const char name[], PetscInt *b)
{
  PetscFunctionBegin;
  PetscCall(SKMeshFindName(name, mesh->num_blocks, mesh->num_blocks ? mesh->blocks[0].name : NULL, sizeof(SKMeshBlock), b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetElement(SKMesh mesh, PetscInt e, PetscInt *block, SKElementType *type, const PetscInt *nodes[])
{
  PetscInt b = 0, local = 0;
  const SKElementTypeInfo *info = NULL;

  PetscFunctionBegin;
  PetscCall(SKMeshLocateElement(mesh, e, &b, &local));
  PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
  if (block) *block = b;
  if (type) *type = mesh->blocks[b].type;
  if (nodes) *nodes = mesh->blocks[b].conn + local * info->num_nodes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetFaceNodes(SKMesh mesh, PetscInt e, PetscInt face, PetscInt *n, PetscInt nodes[])
{
  SKElementType type;
  const PetscInt *en;
  const SKElementTypeInfo *info = NULL;

  PetscFunctionBegin;
  PetscCall(SKMeshGetElement(mesh, e, NULL, &type, &en));
  PetscCall(SKElementTypeGetInfo(type, &info));
  PetscCheck(face >= 0 && face < info->num_faces, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "a %s has faces 0 to %" PetscInt_FMT ", not %" PetscInt_FMT, info->name, info->num_faces - 1, face);
  for (PetscInt k = 0; k < info->num_face_nodes; k++) nodes[k] = en[info->face_nodes[face * info->num_face_nodes + k]];
  *n = info->num_face_nodes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNumNodeSets(SKMesh mesh, PetscInt *n)
{
  PetscFunctionBegin;
  *n = mesh->num_node_sets;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNodeSet(SKMesh mesh, PetscInt i, const char *name[], PetscInt *n, const PetscInt *nodes[], PetscInt *global_size)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < mesh->num_node_sets, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "node set %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", i, mesh->num_node_sets);
  if (name) *name = mesh->node_sets[i].name;
  if (n) *n = mesh->node_sets[i].n;
  if (nodes) *nodes = mesh->node_sets[i].nodes;
  if (global_size) *global_size = mesh->node_sets[i].global_size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshFindNodeSet(SKMesh mesh, const char name[], PetscInt *i)
{
  PetscFunctionBegin;
  PetscCall(SKMeshFindName(name, mesh->num_node_sets, mesh->num_node_sets ? mesh->node_sets[0].name : NULL, sizeof(SKMeshSet), i));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNumSideSets(SKMesh mesh, PetscInt *n)
{
  PetscFunctionBegin;
  *n = mesh->num_side_sets;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetSideSet(SKMesh mesh, PetscInt i, const char *name[], PetscInt *n, const PetscInt *elements[],
                                const PetscInt *faces[], PetscInt *global_size)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < mesh->num_side_sets, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "side set %" PetscInt_FMT " does not exist (the mesh has %" PetscInt_FMT ")", i, mesh->num_side_sets);
  if (name) *name = mesh->side_sets[i].name;
  if (n) *n = mesh->side_sets[i].n;
  if (elements) *elements = mesh->side_sets[i].elements;
  if (faces) *faces = mesh->side_sets[i].faces;
  if (global_size) *global_size = mesh->side_sets[i].global_size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshFindSideSet(SKMesh mesh, const char name[], PetscInt *i)
{
  PetscFunctionBegin;
  PetscCall(SKMeshFindName(name, mesh->num_side_sets, mesh->num_side_sets ? mesh->side_sets[0].name : NULL, sizeof(SKMeshSet), i));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshListSets(SKMesh mesh, PetscInt which, char buf[], size_t len)
{
  const PetscInt n      = which ? mesh->num_side_sets : mesh->num_node_sets;
  const SKMeshSet *sets = which ? mesh->side_sets : mesh->node_sets;

  PetscFunctionBegin;
  PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "empty buffer");
  buf[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (i) PetscCall(PetscStrlcat(buf, ", ", len));
    PetscCall(PetscStrlcat(buf, sets[i].name, len));
  }
  if (!n) PetscCall(PetscStrncpy(buf, "(none)", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- faces ---- */

void SKMeshFaceKey(PetscInt ncorners, const PetscInt corners[], PetscInt key[4])
{
  for (PetscInt k = 0; k < 4; k++) key[k] = k < ncorners ? corners[k] : -1;
  /* Insertion sort of at most 4 entries; the -1 padding stays last because only the first ncorners are sorted. */
  for (PetscInt i = 1; i < ncorners; i++)
    for (PetscInt j = i; j > 0 && key[j - 1] > key[j]; j--) {
      PetscInt t = key[j];
      key[j]     = key[j - 1];
      key[j - 1] = t;
    }
}

static int SKMeshFaceKeyCompare(const PetscInt a[4], const PetscInt b[4])
{
  for (int k = 0; k < 4; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

static int SKMeshFaceCompare(const void *pa, const void *pb)
{
  const SKMeshFace *a = (const SKMeshFace *)pa, *b = (const SKMeshFace *)pb;
  int c = SKMeshFaceKeyCompare(a->key, b->key);

  /* Ties broken by element and face so the order (and every result built on it) is deterministic. */
  if (c) return c;
  if (a->element != b->element) return a->element < b->element ? -1 : 1;
  return (a->face > b->face) - (a->face < b->face);
}

/* Calls FN for every face f of every element e (block-local) of every block whose faces are matched by their corner nodes,
   in (element, face) order. */
typedef PetscErrorCode (*SKMeshFaceVisitor)(SKMesh mesh, const SKMeshBlock *blk, const SKElementTypeInfo *info, PetscInt e, PetscInt f,
                                            void *ctx);

static PetscErrorCode SKMeshVisitFaces(SKMesh mesh, SKMeshFaceVisitor fn, void *ctx)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    if (!info->num_face_corners) continue; /* faces not matched by nodes (registered types such as Bezier cells) */
    for (PetscInt e = 0; e < blk->num_elements; e++)
      for (PetscInt f = 0; f < info->num_faces; f++) PetscCall(fn(mesh, blk, info, e, f, ctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The corners of face f of element e and their key. */
static void SKMeshElementFaceKey(const SKMeshBlock *blk, const SKElementTypeInfo *info, PetscInt e, PetscInt f, PetscInt corners[4],
                                 PetscInt key[4])
{
  for (PetscInt k = 0; k < info->num_face_corners; k++)
    corners[k] = blk->conn[e * info->num_nodes + info->face_nodes[f * info->num_face_nodes + k]];
  SKMeshFaceKey(info->num_face_corners, corners, key);
}

typedef struct {
  PetscInt n;
  SKMeshFace *faces;
} SKMeshFaceTableCtx;

static PetscErrorCode SKMeshFaceTableAdd(SKMesh mesh, const SKMeshBlock *blk, const SKElementTypeInfo *info, PetscInt e, PetscInt f,
                                         void *ctx)
{
  SKMeshFaceTableCtx *c = (SKMeshFaceTableCtx *)ctx;
  SKMeshFace *face      = &c->faces[c->n++];
  PetscInt corners[4];

  PetscFunctionBegin;
  (void)mesh;
  SKMeshElementFaceKey(blk, info, e, f, corners, face->key);
  face->element = blk->first_element + e;
  face->face    = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateFaceTable(SKMesh mesh, PetscInt *n, SKMeshFace *faces[])
{
  PetscInt count = 0;
  SKMeshFaceTableCtx c;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
    if (info->num_face_corners) count += mesh->blocks[b].num_elements * info->num_faces;
  }
  PetscCall(PetscMalloc1(count, faces));
  c.n     = 0;
  c.faces = *faces;
  PetscCall(SKMeshVisitFaces(mesh, SKMeshFaceTableAdd, &c));
  *n = c.n;
  if (count) qsort(*faces, (size_t)count, sizeof(SKMeshFace), SKMeshFaceCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshFaceTableFind(PetscInt n, const SKMeshFace faces[], const PetscInt key[4], PetscInt *index)
{
  PetscInt lo = 0, hi = n;

  PetscFunctionBegin;
  /* Lower bound: the first face whose key is not less than KEY. */
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;

    if (SKMeshFaceKeyCompare(faces[mid].key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *index = (lo < n && !SKMeshFaceKeyCompare(faces[lo].key, key)) ? lo : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt *off, *elems; /* node-element lists */
  PetscBool store;             /* second pass: store the faces, else count them */
  PetscInt n;
} SKMeshBoundaryCtx;

/* Counts or stores face f of element e unless another element shares it: one that holds every corner of the face
   (found in the element list of its first corner) and has a face with the same corners. */
static PetscErrorCode SKMeshBoundaryAdd(SKMesh mesh, const SKMeshBlock *blk, const SKElementTypeInfo *info, PetscInt e, PetscInt f,
                                        void *ctx)
{
  SKMeshBoundaryCtx *c = (SKMeshBoundaryCtx *)ctx;
  const PetscInt ge = blk->first_element + e, nc = info->num_face_corners;
  PetscInt corners[4] = {0, 0, 0, 0}, key[4];
  PetscBool shared    = PETSC_FALSE;

  PetscFunctionBegin;
  SKMeshElementFaceKey(blk, info, e, f, corners, key);
  for (PetscInt j = c->off[corners[0]]; j < c->off[corners[0] + 1] && !shared; j++) {
    const SKElementTypeInfo *info2 = NULL;
    const SKMeshBlock *blk2;
    PetscInt b2 = 0, l2 = 0, held = 0;

    if (c->elems[j] == ge) continue;
    PetscCall(SKMeshLocateElement(mesh, c->elems[j], &b2, &l2));
    blk2 = &mesh->blocks[b2];
    PetscCall(SKElementTypeGetInfo(blk2->type, &info2));
    if (info2->num_face_corners != nc) continue;
    for (PetscInt k = 0; k < nc && held == k; k++) /* stops at the first corner it lacks */
      for (PetscInt a = 0; a < info2->num_corners; a++)
        if (blk2->conn[l2 * info2->num_nodes + a] == corners[k]) {
          held++;
          break;
        }
    if (held < nc) continue;
    for (PetscInt f2 = 0; f2 < info2->num_faces && !shared; f2++) {
      PetscInt c2[4], key2[4];

      SKMeshElementFaceKey(blk2, info2, l2, f2, c2, key2);
      shared = (PetscBool)!SKMeshFaceKeyCompare(key, key2);
    }
  }
  if (!shared) {
    if (c->store) {
      mesh->boundary_elements[c->n] = ge;
      mesh->boundary_faces[c->n]    = f;
    }
    c->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetBoundaryFaces(SKMesh mesh, PetscInt *n, const PetscInt *elements[], const PetscInt *faces[])
{
  PetscFunctionBegin;
  if (!mesh->has_boundary) {
    SKMeshBoundaryCtx c = {NULL, NULL, PETSC_FALSE, 0};

    /* O(n) through the node-element lists (4 bytes per element node), not a sorted table of every face (24 bytes per
       face, and as much again inside qsort): the faces come out in (element, face) order. */
    PetscCall(SKMeshGetNodeElements(mesh, &c.off, &c.elems));
    PetscCall(SKMeshVisitFaces(mesh, SKMeshBoundaryAdd, &c));
    PetscCall(PetscMalloc1(c.n, &mesh->boundary_elements));
    PetscCall(PetscMalloc1(c.n, &mesh->boundary_faces));
    c.store = PETSC_TRUE;
    c.n     = 0;
    PetscCall(SKMeshVisitFaces(mesh, SKMeshBoundaryAdd, &c));
    mesh->num_boundary = c.n;
    mesh->has_boundary = PETSC_TRUE;
  }
  if (n) *n = mesh->num_boundary;
  if (elements) *elements = mesh->boundary_elements;
  if (faces) *faces = mesh->boundary_faces;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNodeElements(SKMesh mesh, const PetscInt *offsets[], const PetscInt *elements[])
{
  PetscFunctionBegin;
  if (!mesh->node_element_offsets) {
    PetscInt *off, *fill, *elem;

    PetscCall(PetscCalloc1(mesh->num_nodes + 1, &off));
    PetscCall(PetscCalloc1(mesh->num_nodes, &fill));
    for (PetscInt pass = 0; pass < 2; pass++) {
      for (PetscInt b = 0; b < mesh->num_blocks; b++) {
        const SKMeshBlock *blk        = &mesh->blocks[b];
        const SKElementTypeInfo *info = NULL;

        PetscCall(SKElementTypeGetInfo(blk->type, &info));
        for (PetscInt e = 0; e < blk->num_elements; e++)
          for (PetscInt a = 0; a < info->num_nodes; a++) {
            const PetscInt v = blk->conn[e * info->num_nodes + a];

            if (pass == 0)
              off[v + 1]++;
            else
              elem[off[v] + fill[v]++] = blk->first_element + e;
          }
      }
      if (pass == 0) {
        for (PetscInt v = 0; v < mesh->num_nodes; v++) off[v + 1] += off[v];
        PetscCall(PetscMalloc1(off[mesh->num_nodes], &elem));
      }
    }
    /* Elements are visited in ascending order, so each node's list is ascending; a node repeated in one element
       (not valid for these types, but harmless) would appear twice. */
    mesh->node_element_offsets = off;
    mesh->node_elements        = elem;
    PetscCall(PetscFree(fill));
  }
  if (offsets) *offsets = mesh->node_element_offsets;
  if (elements) *elements = mesh->node_elements;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshView(SKMesh mesh, PetscViewer viewer)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(mesh->comm, &rank));
  PetscCall(PetscViewerASCIIPrintf(viewer, "mesh: %" PetscInt_FMT "D, %" PetscInt_FMT " nodes, %" PetscInt_FMT " elements, %s\n", mesh->dim,
                                   mesh->global_num_nodes, mesh->global_num_elements, mesh->distributed ? "distributed" : "replicated"));
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
    PetscCall(
        PetscViewerASCIIPrintf(viewer, "  block '%s' (id %" PetscInt_FMT "): %s\n", mesh->blocks[b].name, mesh->blocks[b].id, info->name));
  }
  for (PetscInt i = 0; i < mesh->num_node_sets; i++)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  node set '%s': %" PetscInt_FMT " nodes\n", mesh->node_sets[i].name,
                                     mesh->node_sets[i].global_size));
  for (PetscInt i = 0; i < mesh->num_side_sets; i++)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  side set '%s': %" PetscInt_FMT " sides\n", mesh->side_sets[i].name,
                                     mesh->side_sets[i].global_size));
  if (mesh->distributed) {
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscViewerASCIISynchronizedPrintf(
        viewer, "  rank %d: %" PetscInt_FMT " elements, %" PetscInt_FMT " owned + %" PetscInt_FMT " ghost nodes\n", rank,
        mesh->num_elements, mesh->num_owned, mesh->num_ghost));
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
