/* stickslip mesh: the private mesh structure and helpers shared by the mesh sources. */
#ifndef STICKSLIP_MESHIMPL_H
#define STICKSLIP_MESHIMPL_H

#include <stickslip/mesh.h>

/* Cell data of a block, shared (reference counted) by a replicated mesh and the meshes distributed from it. */
typedef struct {
  PetscInt refct;
  void *data;
  PetscErrorCode (*destroy)(void *);
} SKMeshCellData;

typedef struct {
  char name[SK_MESH_NAME_LEN];
  PetscInt id;
  SKElementType type;
  PetscInt num_elements;
  PetscInt first_element;
  PetscInt natural_first; /* first_element of this block in the replicated mesh */
  PetscInt *conn;         /* [num_elements][num_nodes of type] */
  SKMeshCellData *cell_data;
} SKMeshBlock;

/* A node set (nodes) or a side set (elements + faces; nodes unused). */
typedef struct {
  char name[SK_MESH_NAME_LEN];
  PetscInt n;
  PetscInt global_size;
  PetscInt *nodes;
  PetscInt *elements;
  PetscInt *faces;
} SKMeshSet;

struct _p_SKMesh {
  MPI_Comm comm;
  PetscInt dim;
  PetscInt num_nodes;
  PetscReal *coords;
  PetscInt num_blocks;
  SKMeshBlock *blocks;
  PetscInt num_elements;
  PetscInt num_node_sets, num_side_sets;
  SKMeshSet *node_sets, *side_sets;

  /* caches, built on first use */
  PetscBool has_boundary;
  PetscInt num_boundary;
  PetscInt *boundary_elements, *boundary_faces;
  PetscInt *node_element_offsets, *node_elements;

  /* distribution (replicated mesh: distributed = false, all nodes owned, natural = identity) */
  PetscBool distributed;
  PetscInt num_owned, global_start, global_num_nodes, global_num_elements;
  PetscInt num_ghost;
  PetscInt *ghost_global;
  PetscMPIInt *ghost_rank;
  PetscInt *natural_nodes, *natural_elements;
};

/* One face of one element, keyed by its sorted corner nodes (unused key slots are -1). */
typedef struct {
  PetscInt key[4];
  PetscInt element, face;
} SKMeshFace;

/* Every face of every element, sorted by key (faces shared by two elements are adjacent). Caller frees *faces. */
PETSC_INTERN PetscErrorCode SKMeshCreateFaceTable(SKMesh mesh, PetscInt *n, SKMeshFace *faces[]);
/* The key (sorted corners, padded with -1) of a face given by its corner nodes. */
PETSC_INTERN void SKMeshFaceKey(PetscInt ncorners, const PetscInt corners[], PetscInt key[4]);
/* Binary search of KEY in a sorted face table; *index = -1 if absent, else the first face with that key. */
PETSC_INTERN PetscErrorCode SKMeshFaceTableFind(PetscInt n, const SKMeshFace faces[], const PetscInt key[4], PetscInt *index);
/* Block holding element E and E's index inside it. */
PETSC_INTERN PetscErrorCode SKMeshLocateElement(SKMesh mesh, PetscInt e, PetscInt *block, PetscInt *local);
/* Makes block B of MESH share the cell data of block B of FROM (distribution). */
PETSC_INTERN PetscErrorCode SKMeshShareBlockCellData(SKMesh from, SKMesh mesh, PetscInt b);
/* Registers the mesh log events (idempotent). */
PETSC_INTERN PetscErrorCode SKMeshInitializePackage(void);
PETSC_INTERN PetscLogEvent SK_EVENT_MeshPartition, SK_EVENT_MeshDistribute, SK_EVENT_MeshRead;

#endif
