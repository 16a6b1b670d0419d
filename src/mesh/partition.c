/* stickslip mesh: METIS partition of the elements and distribution of a replicated mesh into local parts with
   owned + ghost nodes, plus the PETSc objects (PetscSF, ghosted Vec) built from them. */
#include "mesh/meshimpl.h"
#include <metis.h>

PetscErrorCode SKMeshPartition(SKMesh mesh, PetscInt nparts, PetscInt part[])
{
  idx_t ne = (idx_t)mesh->num_elements, nn = (idx_t)mesh->num_nodes, ncommon = PETSC_MAX_INT, np = (idx_t)nparts, objval,
        options[METIS_NOPTIONS];
  idx_t *eptr, *eind, *epart, *npart;
  int status;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "the mesh is already distributed");
  PetscCheck(nparts >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "number of parts must be positive, not %" PetscInt_FMT, nparts);
  PetscCheck(nparts <= mesh->num_elements, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "cannot split %" PetscInt_FMT " elements into %" PetscInt_FMT " parts", mesh->num_elements, nparts);
  if (nparts == 1) {
    for (PetscInt e = 0; e < mesh->num_elements; e++) part[e] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(SK_EVENT_MeshPartition, 0, 0, 0, 0));
  PetscCall(PetscMalloc1(ne + 1, &eptr));
  PetscCall(PetscMalloc1(ne, &epart));
  PetscCall(PetscMalloc1(nn, &npart));
  eptr[0] = 0;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
    /* Elements are neighbours when they share a face: 2 corners in 2D, 3 or 4 in 3D (the fewest over the blocks); a
       registered type says how many of its corner nodes neighbours share (Bezier cells: a face's control points). */
    if (mesh->blocks[b].num_elements) ncommon = PetscMin(ncommon, (idx_t)(info->num_common ? info->num_common : info->num_face_corners));
    for (PetscInt e = 0; e < mesh->blocks[b].num_elements; e++)
      eptr[mesh->blocks[b].first_element + e + 1] = eptr[mesh->blocks[b].first_element + e] + (idx_t)info->num_corners;
  }
  PetscCall(PetscMalloc1(eptr[ne], &eind));
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    /* Only the corners: mid-edge and centre nodes add no adjacency and would only slow METIS down. */
    for (PetscInt e = 0; e < blk->num_elements; e++)
      for (PetscInt a = 0; a < info->num_corners; a++) eind[eptr[blk->first_element + e] + a] = (idx_t)blk->conn[e * info->num_nodes + a];
  }
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED]      = 0; /* fixed seed: the same partition on every run */
  options[METIS_OPTION_NUMBERING] = 0;
  status = METIS_PartMeshDual(&ne, &nn, eptr, eind, NULL, NULL, &ncommon, &np, NULL, options, &objval, epart, npart);
  PetscCheck(status == METIS_OK, PETSC_COMM_SELF, PETSC_ERR_LIB, "METIS_PartMeshDual failed with status %d", status);
  for (PetscInt e = 0; e < mesh->num_elements; e++) part[e] = (PetscInt)epart[e];
  PetscCall(PetscFree(eptr));
  PetscCall(PetscFree(eind));
  PetscCall(PetscFree(epart));
  PetscCall(PetscFree(npart));
  PetscCall(PetscLogEventEnd(SK_EVENT_MeshPartition, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the distribution of a replicated mesh works out on each rank, in natural (replicated) numbering unless said. */
typedef struct {
  PetscMPIInt size, rank;
  PetscInt *part;    /* the part (rank) of each element */
  PetscInt *owner;   /* the owning rank of each node */
  PetscInt *start;   /* the first global node number of each rank (size + 1 entries) */
  PetscInt *global;  /* the global number of each node */
  PetscInt *loc;     /* the local number of each node, -1 when it is not on this rank */
  PetscInt *ghosts;  /* the global numbers of this rank's ghosts, sorted */
  PetscInt *natural; /* the natural number of each local node (handed to the distributed mesh) */
  PetscInt *eloc;    /* the local number of each element, -1 when it is not on this rank */
  PetscInt nowned, nghost, nelem_local;
} MeshDistribution;

/* The element partition: one rank partitions and broadcasts, so every rank works from the same partition even if METIS
   were not bitwise reproducible across processes. A failure there is raised on every rank, with its message, instead
   of leaving the others waiting in the broadcast. */
static PetscErrorCode MeshDistributionPartition(SKMesh mesh, MeshDistribution *md)
{
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(mesh->num_elements, &md->part));
  if (md->rank == 0) ierr = SKMeshPartition(mesh, md->size, md->part);
  ierr = SKCheckCollective(mesh->comm, ierr);
  if (ierr) PetscCall(PetscFree(md->part));
  PetscCall(ierr);
  PetscCallMPI(MPI_Bcast(md->part, (PetscMPIInt)mesh->num_elements, MPIU_INT, 0, mesh->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node owners and global numbers: a node belongs to the lowest part among the elements using it (nodes of no element
   stay with rank 0); global numbers go rank by rank, natural order inside a rank. */
static PetscErrorCode MeshDistributionNumberNodes(SKMesh mesh, MeshDistribution *md)
{
  PetscInt *fill;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(mesh->num_nodes, &md->owner));
  for (PetscInt v = 0; v < mesh->num_nodes; v++) md->owner[v] = PETSC_MAX_INT;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    for (PetscInt e = 0; e < blk->num_elements; e++)
      for (PetscInt a = 0; a < info->num_nodes; a++) {
        const PetscInt v = blk->conn[e * info->num_nodes + a];

        md->owner[v] = PetscMin(md->owner[v], md->part[blk->first_element + e]);
      }
  }
  for (PetscInt v = 0; v < mesh->num_nodes; v++)
    if (md->owner[v] == PETSC_MAX_INT) md->owner[v] = 0;

  PetscCall(PetscCalloc1(md->size + 1, &md->start));
  PetscCall(PetscCalloc1(md->size, &fill));
  PetscCall(PetscMalloc1(mesh->num_nodes, &md->global));
  for (PetscInt v = 0; v < mesh->num_nodes; v++) md->start[md->owner[v] + 1]++;
  for (PetscMPIInt r = 0; r < md->size; r++) md->start[r + 1] += md->start[r];
  for (PetscInt v = 0; v < mesh->num_nodes; v++) md->global[v] = md->start[md->owner[v]] + fill[md->owner[v]]++;
  PetscCall(PetscFree(fill));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's nodes: the owned ones (natural order = global order), then the ghosts (nodes of local elements owned
   elsewhere) sorted by global number; loc and natural map between the two numberings. */
static PetscErrorCode MeshDistributionLocalNodes(SKMesh mesh, MeshDistribution *md)
{
  PetscInt *loc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(mesh->num_nodes, &md->loc));
  PetscCall(PetscMalloc1(mesh->num_nodes, &md->ghosts));
  loc = md->loc;
  for (PetscInt v = 0; v < mesh->num_nodes; v++) loc[v] = md->owner[v] == md->rank ? md->nowned++ : -1;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    for (PetscInt e = 0; e < blk->num_elements; e++) {
      if (md->part[blk->first_element + e] != md->rank) continue;
      for (PetscInt a = 0; a < info->num_nodes; a++) {
        const PetscInt v = blk->conn[e * info->num_nodes + a];

        if (loc[v] == -1) {
          loc[v]                   = -2; /* seen ghost */
          md->ghosts[md->nghost++] = md->global[v];
        }
      }
    }
  }
  PetscCall(PetscSortInt(md->nghost, md->ghosts));
  /* global -> natural for the ghosts: invert over the nodes seen as ghosts */
  PetscCall(PetscMalloc1(md->nowned + md->nghost, &md->natural));
  for (PetscInt v = 0; v < mesh->num_nodes; v++) {
    if (loc[v] >= 0)
      md->natural[loc[v]] = v;
    else if (loc[v] == -2) {
      PetscInt i;

      PetscCall(PetscFindInt(md->global[v], md->nghost, md->ghosts, &i));
      loc[v]                      = md->nowned + i;
      md->natural[md->nowned + i] = v;
    }
  }
  PetscCall(PetscMalloc1(mesh->num_elements, &md->eloc));
  for (PetscInt e = 0; e < mesh->num_elements; e++) md->eloc[e] = md->part[e] == md->rank ? md->nelem_local++ : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local part D: its nodes with their coordinates, and every block with its local elements (blocks keep their order
   and stay, empty, on ranks without their elements, so block indices agree). */
static PetscErrorCode MeshDistributionCreateLocal(SKMesh mesh, const MeshDistribution *md, SKMesh *dist)
{
  const PetscInt nlocal = md->nowned + md->nghost;
  PetscReal *coords;
  SKMesh d;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nlocal * mesh->dim, &coords));
  for (PetscInt i = 0; i < nlocal; i++)
    for (PetscInt k = 0; k < mesh->dim; k++) coords[i * mesh->dim + k] = mesh->coords[md->natural[i] * mesh->dim + k];
  PetscCall(SKMeshCreate(mesh->comm, mesh->dim, nlocal, coords, &d));
  PetscCall(PetscFree(coords));
  for (PetscInt b = 0; b < mesh->num_blocks; b++) {
    const SKMeshBlock *blk        = &mesh->blocks[b];
    const SKElementTypeInfo *info = NULL;
    PetscInt *conn, n = 0;

    PetscCall(SKElementTypeGetInfo(blk->type, &info));
    PetscCall(PetscMalloc1(blk->num_elements * info->num_nodes, &conn));
    for (PetscInt e = 0; e < blk->num_elements; e++) {
      if (md->part[blk->first_element + e] != md->rank) continue;
      for (PetscInt a = 0; a < info->num_nodes; a++) conn[n * info->num_nodes + a] = md->loc[blk->conn[e * info->num_nodes + a]];
      n++;
    }
    PetscCall(SKMeshAddBlock(d, blk->name, blk->id, blk->type, n, conn));
    PetscCall(PetscFree(conn));
    d->blocks[b].natural_first = blk->first_element;
    PetscCall(SKMeshShareBlockCellData(mesh, d, b));
  }
  *dist = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The node and side sets of D: the local entries, with the global sizes of the whole mesh; then the boundary faces of
   the whole mesh restricted to the local elements (set after the Add calls, which reset caches). */
static PetscErrorCode MeshDistributionSets(SKMesh mesh, const MeshDistribution *md, SKMesh d)
{
  PetscInt cap = 0, *lists, nb;
  const PetscInt *belem, *bface;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < mesh->num_node_sets; s++) cap = PetscMax(cap, mesh->node_sets[s].n);
  for (PetscInt s = 0; s < mesh->num_side_sets; s++) cap = PetscMax(cap, 2 * mesh->side_sets[s].n);
  PetscCall(PetscMalloc1(cap, &lists));
  for (PetscInt s = 0; s < mesh->num_node_sets; s++) {
    const SKMeshSet *set = &mesh->node_sets[s];
    PetscInt n           = 0;

    for (PetscInt i = 0; i < set->n; i++)
      if (md->loc[set->nodes[i]] >= 0) lists[n++] = md->loc[set->nodes[i]];
    PetscCall(SKMeshAddNodeSet(d, set->name, n, lists));
    d->node_sets[s].global_size = set->global_size;
  }
  for (PetscInt s = 0; s < mesh->num_side_sets; s++) {
    const SKMeshSet *set = &mesh->side_sets[s];
    PetscInt n = 0, *faces = lists + set->n;

    for (PetscInt i = 0; i < set->n; i++)
      if (md->eloc[set->elements[i]] >= 0) {
        lists[n]   = md->eloc[set->elements[i]];
        faces[n++] = set->faces[i];
      }
    PetscCall(SKMeshAddSideSet(d, set->name, n, lists, faces));
    d->side_sets[s].global_size = set->global_size;
  }
  PetscCall(PetscFree(lists));

  PetscCall(SKMeshGetBoundaryFaces(mesh, &nb, &belem, &bface));
  PetscCall(PetscMalloc1(nb, &d->boundary_elements));
  PetscCall(PetscMalloc1(nb, &d->boundary_faces));
  d->num_boundary = 0;
  for (PetscInt i = 0; i < nb; i++)
    if (md->eloc[belem[i]] >= 0) {
      d->boundary_elements[d->num_boundary] = md->eloc[belem[i]];
      d->boundary_faces[d->num_boundary++]  = bface[i];
    }
  d->has_boundary = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The numbering of D: natural numbers of its nodes (taken from MD) and elements, owned and ghost counts, and each
   ghost's global number and owner. */
static PetscErrorCode MeshDistributionNumbering(SKMesh mesh, MeshDistribution *md, SKMesh d)
{
  PetscFunctionBegin;
  d->natural_nodes = md->natural;
  md->natural      = NULL;
  PetscCall(PetscMalloc1(md->nelem_local, &d->natural_elements));
  for (PetscInt e = 0; e < mesh->num_elements; e++)
    if (md->eloc[e] >= 0) d->natural_elements[md->eloc[e]] = e;
  d->distributed         = PETSC_TRUE;
  d->num_owned           = md->nowned;
  d->num_ghost           = md->nghost;
  d->global_start        = md->start[md->rank];
  d->global_num_nodes    = mesh->num_nodes;
  d->global_num_elements = mesh->num_elements;
  PetscCall(PetscMalloc1(md->nghost, &d->ghost_global));
  PetscCall(PetscMalloc1(md->nghost, &d->ghost_rank));
  for (PetscInt i = 0; i < md->nghost; i++) {
    d->ghost_global[i] = md->ghosts[i];
    d->ghost_rank[i]   = (PetscMPIInt)md->owner[d->natural_nodes[md->nowned + i]];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the work arrays of MD (the natural numbers of the nodes have gone to the distributed mesh). */
static PetscErrorCode MeshDistributionDestroy(MeshDistribution *md)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(md->part));
  PetscCall(PetscFree(md->owner));
  PetscCall(PetscFree(md->start));
  PetscCall(PetscFree(md->global));
  PetscCall(PetscFree(md->loc));
  PetscCall(PetscFree(md->ghosts));
  PetscCall(PetscFree(md->natural));
  PetscCall(PetscFree(md->eloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshDistribute(SKMesh mesh, SKMesh *dist)
{
  MeshDistribution md = {0};
  SKMesh d            = NULL;

  PetscFunctionBegin;
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "the mesh is already distributed");
  PetscCall(PetscLogEventBegin(SK_EVENT_MeshDistribute, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_size(mesh->comm, &md.size));
  PetscCallMPI(MPI_Comm_rank(mesh->comm, &md.rank));
  PetscCheck(md.size <= mesh->num_elements, mesh->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "cannot distribute %" PetscInt_FMT " elements over %d ranks", mesh->num_elements, md.size);
  PetscCall(MeshDistributionPartition(mesh, &md));
  PetscCall(MeshDistributionNumberNodes(mesh, &md));
  PetscCall(MeshDistributionLocalNodes(mesh, &md));
  PetscCall(MeshDistributionCreateLocal(mesh, &md, &d));
  PetscCall(MeshDistributionSets(mesh, &md, d));
  PetscCall(MeshDistributionNumbering(mesh, &md, d));
  PetscCall(MeshDistributionDestroy(&md));
  PetscCall(PetscLogEventEnd(SK_EVENT_MeshDistribute, 0, 0, 0, 0));
  *dist = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshIsDistributed(SKMesh mesh, PetscBool *distributed)
{
  PetscFunctionBegin;
  *distributed = mesh->distributed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNodeOwnership(SKMesh mesh, PetscInt *num_owned, PetscInt *global_start, PetscInt *global_size)
{
  PetscFunctionBegin;
  if (num_owned) *num_owned = mesh->distributed ? mesh->num_owned : mesh->num_nodes;
  if (global_start) *global_start = mesh->distributed ? mesh->global_start : 0;
  if (global_size) *global_size = mesh->distributed ? mesh->global_num_nodes : mesh->num_nodes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetGhostNodes(SKMesh mesh, PetscInt *num_ghost, const PetscInt *ghost_global[], const PetscMPIInt *owner_rank[])
{
  PetscFunctionBegin;
  if (num_ghost) *num_ghost = mesh->num_ghost;
  if (ghost_global) *ghost_global = mesh->ghost_global;
  if (owner_rank) *owner_rank = mesh->ghost_rank;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Identity numbering for a replicated mesh, made on first request. */
static PetscErrorCode SKMeshIdentity(PetscInt n, PetscInt **array)
{
  PetscFunctionBegin;
  if (!*array) {
    PetscCall(PetscMalloc1(n, array));
    for (PetscInt i = 0; i < n; i++) (*array)[i] = i;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNaturalNodes(SKMesh mesh, const PetscInt *natural[])
{
  PetscFunctionBegin;
  PetscCall(SKMeshIdentity(mesh->num_nodes, &mesh->natural_nodes));
  *natural = mesh->natural_nodes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetNaturalElements(SKMesh mesh, const PetscInt *natural[])
{
  PetscFunctionBegin;
  PetscCall(SKMeshIdentity(mesh->num_elements, &mesh->natural_elements));
  *natural = mesh->natural_elements;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshGetGlobalNumElements(SKMesh mesh, PetscInt *n)
{
  PetscFunctionBegin;
  *n = mesh->global_num_elements;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A replicated mesh on several ranks has no ownership to build PETSc objects from. */
static PetscErrorCode SKMeshCheckOwnership(SKMesh mesh)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(mesh->comm, &size));
  PetscCheck(mesh->distributed || size == 1, mesh->comm, PETSC_ERR_ARG_WRONGSTATE,
             "the mesh is replicated on %d ranks: call SKMeshDistribute() first", size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateNodeSF(SKMesh mesh, PetscSF *sf)
{
  PetscMPIInt size;
  PetscInt *starts, *ilocal, num_owned;
  PetscSFNode *iremote;

  PetscFunctionBegin;
  PetscCall(SKMeshCheckOwnership(mesh));
  PetscCallMPI(MPI_Comm_size(mesh->comm, &size));
  PetscCall(SKMeshGetNodeOwnership(mesh, &num_owned, NULL, NULL));
  PetscCall(PetscMalloc1(size, &starts));
  {
    PetscInt my_start = mesh->distributed ? mesh->global_start : 0;

    PetscCallMPI(MPI_Allgather(&my_start, 1, MPIU_INT, starts, 1, MPIU_INT, mesh->comm));
  }
  PetscCall(PetscMalloc1(mesh->num_ghost, &ilocal));
  PetscCall(PetscMalloc1(mesh->num_ghost, &iremote));
  for (PetscInt i = 0; i < mesh->num_ghost; i++) {
    ilocal[i]        = num_owned + i;
    iremote[i].rank  = mesh->ghost_rank[i];
    iremote[i].index = mesh->ghost_global[i] - starts[mesh->ghost_rank[i]];
  }
  PetscCall(PetscSFCreate(mesh->comm, sf));
  PetscCall(PetscSFSetGraph(*sf, num_owned, mesh->num_ghost, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(*sf));
  PetscCall(PetscFree(starts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateGhostVec(SKMesh mesh, PetscInt bs, Vec *v)
{
  PetscInt num_owned;

  PetscFunctionBegin;
  PetscCall(SKMeshCheckOwnership(mesh));
  PetscCall(SKMeshGetNodeOwnership(mesh, &num_owned, NULL, NULL));
  PetscCall(VecCreateGhostBlock(mesh->comm, bs, bs * num_owned, PETSC_DECIDE, mesh->num_ghost, mesh->ghost_global, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
