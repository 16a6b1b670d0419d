/* stickslip mesh: unstructured meshes of Lagrange elements (nodes, element blocks, node sets, side sets),
   structured generators, XML and Gmsh .msh 4.1 readers, METIS partitioning with owned + ghost nodes.

   Element types and node ordering
   -------------------------------
   Every element type uses VTK's node ordering (the same as the VTK cell type named below), so the VTK
   writer passes connectivity through unchanged and `fem` evaluates its shape functions in this order.
   Reference coordinates (returned by SKElementTypeGetInfo() as ref_coords) are
     quadrilaterals and hexahedra: [-1, 1]^dim;   triangles and tetrahedra: the unit simplex (0 <= xi_i, sum xi_i <= 1).
     T3  VTK_TRIANGLE (5)                 (0,0) (1,0) (0,1)
     Q4  VTK_QUAD (9)                     (-1,-1) (1,-1) (1,1) (-1,1)
     Q9  VTK_BIQUADRATIC_QUAD (28)        corners as Q4; 4..7 mid-edges of edges (0,1) (1,2) (2,3) (3,0); 8 centre
     T4  VTK_TETRA (10)                   (0,0,0) (1,0,0) (0,1,0) (0,0,1)
     H8  VTK_HEXAHEDRON (12)              (-1,-1,-1) (1,-1,-1) (1,1,-1) (-1,1,-1), then the same at zeta = +1
     H27 VTK_TRIQUADRATIC_HEXAHEDRON (29) corners as H8; 8..19 mid-edges of edges (0,1) (1,2) (2,3) (3,0) (4,5) (5,6)
                                          (6,7) (7,4) (0,4) (1,5) (2,6) (3,7); 20..25 face centres of the faces
                                          xi=-1, xi=+1, eta=-1, eta=+1, zeta=-1, zeta=+1; 26 the centre.
                                          (This is VTK's implementation, vtkTriQuadraticHexahedron::GetParametricCoords();
                                          the class comment in VTK lists the face centres in another order and is wrong.)

   Local face numbering (a side = element + local face id)
   -------------------------------------------------------
   Face nodes are listed so that the outward normal follows the right-hand rule (3D: counter-clockwise seen from
   outside; 2D: the element lies to the left of the edge, outward normal = (dy, -dx)). Quadratic faces list the
   corners first, then the mid-edge nodes in the same cyclic order, then (Q9 faces) the face centre.
     T3  face f = edge (f, f+1 mod 3):   0: (0,1)  1: (1,2)  2: (2,0)                         face type L2
     Q4  face f = edge (f, f+1 mod 4):   0: (0,1) eta=-1  1: (1,2) xi=+1  2: (2,3) eta=+1  3: (3,0) xi=-1   L2
     Q9  as Q4 plus the mid-edge node 4+f:  0: (0,1,4) 1: (1,2,5) 2: (2,3,6) 3: (3,0,7)       face type L3
     T4  (ExodusII order)  0: (0,1,3)  1: (1,2,3)  2: (0,3,2)  3: (0,2,1)                        face type T3
     H8  (ExodusII order)  0: (0,1,5,4) eta=-1  1: (1,2,6,5) xi=+1  2: (2,3,7,6) eta=+1  3: (0,4,7,3) xi=-1
                           4: (0,3,2,1) zeta=-1  5: (4,5,6,7) zeta=+1                            face type Q4
     H27 as H8, each face a Q9 (corners, mid-edges, face centre)                                 face type Q9
   The full tables are in SKElementTypeInfo.face_nodes.

   Numbering, ownership and memory
   -------------------------------
   Node and element indices are 0-based. Elements are numbered block after block (block b holds the elements
   [first_element, first_element + num_elements)). Arrays returned by Get functions are owned by the mesh and stay
   valid until it is destroyed. Coordinates are in metres, interleaved (x0 y0 [z0] x1 y1 ...).

   A mesh made by a generator or a reader is "replicated": the whole mesh, the same on every rank of its
   communicator. SKMeshDistribute() makes a "distributed" mesh: on each rank the elements of one METIS part, its
   owned nodes first (their global numbers are contiguous per rank, in rank order) and then its ghost nodes (nodes of
   local elements owned by another rank, sorted by global number). A node is owned by the lowest rank among the
   parts of the elements that use it. Node and side sets of a distributed mesh hold the local entries (owned and
   ghost nodes); boundary faces are those of the whole mesh (inter-rank faces are not boundary faces).

   Mesh files
   ----------
   XML: root <mesh> (schema/mesh.xsd), either explicit data, a generator (<rectangle>/<box>), or file="x.msh|x.xml".
   Gmsh: .msh 4.1 ASCII; physical groups of the mesh dimension become element blocks (name and id of the group;
   an element in several such groups goes to the first; elements in none form the block "default", id 0; a group
   with several element types gives one block per type, named <group>_<type>), lower-dimensional physical groups
   become node sets, and those of dimension dim-1 also side sets (a face between two elements belongs to the
   lower-numbered one). Nodes used by no element of the mesh dimension are dropped; the others keep the file order.
   Errors in files are reported as "FILE:LINE: message" (error class SK_ERR_INPUT). */
#ifndef STICKSLIP_MESH_H
#define STICKSLIP_MESH_H

#include <stickslip/input.h>
#include <petscvec.h>
#include <petscsf.h>

/* Maximum length of block and set names, including the terminating NUL. */
#define SK_MESH_NAME_LEN 64

/* The built-in Lagrange element types; further cell types (e.g. the Bezier cells of NURBS patches, module fem) get ids
   from SKElementTypeRegister(), at and above SK_ELEMENT_NUM_TYPES, and are looked up like the built-in ones. */
typedef enum {
  SK_ELEMENT_T3,
  SK_ELEMENT_Q4,
  SK_ELEMENT_Q9,
  SK_ELEMENT_T4,
  SK_ELEMENT_H8,
  SK_ELEMENT_H27,
  SK_ELEMENT_NUM_TYPES
} SKElementType;

typedef struct _p_SKMesh *SKMesh;

/* Static description of an element type (see the tables at the top of this file). A registered type fills the same
   fields: its faces list their nodes in any fixed order, and num_face_corners = 0 says that its faces are not matched
   by nodes (Bezier cells of a smooth patch share control points with elements that are not face neighbours), so the
   boundary-face search skips them and its side sets come from whoever makes its blocks. */
typedef struct {
  const char *name;        /* "T3", "Q4", ... */
  PetscInt dim;            /* spatial and reference dimension */
  PetscInt num_nodes;      /* nodes per element */
  PetscInt num_corners;    /* vertices (the nodes METIS and face matching look at) */
  PetscInt order;          /* polynomial order of the Lagrange basis, 1 or 2 */
  PetscBool simplex;       /* triangle/tetrahedron (reference simplex) or tensor product ([-1,1]^dim) */
  int vtk_type;            /* VTK cell type number */
  PetscInt num_faces;      /* faces (edges in 2D) */
  const char *face_name;   /* "L2", "L3", "T3", "Q4", "Q9" */
  PetscInt num_face_nodes; /* nodes per face */
  PetscInt num_face_corners;
  const PetscInt *face_nodes;  /* [num_faces][num_face_nodes] local node ids, outward right-hand-rule order */
  const PetscReal *ref_coords; /* [num_nodes][dim] reference coordinates of the nodes (NULL for a registered type) */
  /* Registered types only (zero/NULL for the built-in Lagrange types): */
  PetscInt num_common; /* METIS: two elements sharing at least this many of their num_corners nodes are neighbours
                          (0: num_face_corners) */
  /* Makes the element basis of block B of MESH (a block of this type, with its cell data, SKMeshGetBlockCellData()):
     basis points to an SKBasis of module fem, destroyed by the caller with SKBasisDestroy(). */
  PetscErrorCode (*create_basis)(SKMesh mesh, PetscInt block, void *basis);
} SKElementTypeInfo;

/* Looks up an element type by name ("T3", "Q4", "Q9", "T4", "H8", "H27", or a registered one); *found = PETSC_FALSE if unknown. */
PETSC_EXTERN PetscErrorCode SKElementTypeFromName(const char name[], SKElementType *type, PetscBool *found);
/* Registers a cell type described by INFO (owned by the caller, must stay valid for the life of the program; name
   unique) and returns its id. Registering a name again returns the id it already has. */
PETSC_EXTERN PetscErrorCode SKElementTypeRegister(const SKElementTypeInfo *info, SKElementType *type);
/* The static description of TYPE (owned by the library or, for a registered type, by its registrant). */
PETSC_EXTERN PetscErrorCode SKElementTypeGetInfo(SKElementType type, const SKElementTypeInfo **info);
/* Comma-separated list of the element type names, into buf (for error messages). */
PETSC_EXTERN PetscErrorCode SKElementTypeList(char buf[], size_t len);
/* Pure kernel: determinant of the Jacobian d x / d xi at the element centre (xi = 0, or the simplex centroid) for an
   element of TYPE with node coordinates coords[num_nodes][dim] (m). Units m^dim per unit reference measure. Built-in
   types only (a registered type's geometry is its basis'). */
PETSC_EXTERN PetscErrorCode SKElementTypeCentreJacobian(SKElementType type, const PetscReal coords[], PetscReal *det_j);
/* Pure kernel: det J (m^dim per unit reference measure) at reference point XI[dim] for an element of TYPE with node
   coordinates coords[num_nodes][dim] (m). */
PETSC_EXTERN PetscErrorCode SKElementTypeJacobian(SKElementType type, const PetscReal coords[], const PetscReal xi[], PetscReal *det_j);
/* Pure kernel: the smallest det J over the centre, the nodes and the tensor Gauss points of the element's rule
   (order + 1 per direction), and the reference point xi_min[dim] where it is. A valid element has det J > 0 at all of
   them; for Q4 and H8 det J is multilinear, so the corners bound it. */
PETSC_EXTERN PetscErrorCode SKElementTypeMinJacobian(SKElementType type, const PetscReal coords[], PetscReal *det_j, PetscReal xi_min[]);

/* Creates a replicated mesh of dimension DIM (2 or 3) with NUM_NODES nodes at COORDS[num_nodes][dim] (m, copied);
   add blocks and sets with the SKMeshAdd*() functions. */
PETSC_EXTERN PetscErrorCode SKMeshCreate(MPI_Comm comm, PetscInt dim, PetscInt num_nodes, const PetscReal coords[], SKMesh *mesh);
/* Frees the mesh and everything it owns; *mesh = NULL. */
PETSC_EXTERN PetscErrorCode SKMeshDestroy(SKMesh *mesh);

/* Appends a block of NUM_ELEMENTS elements of TYPE with connectivity CONN[num_elements][num_nodes] (0-based node
   indices, copied). NAME must be unique among blocks; ID is the user's block number (Gmsh physical tag). Errors:
   a node index out of range (names the block, element and node), a type of another dimension, a duplicate name. */
PETSC_EXTERN PetscErrorCode SKMeshAddBlock(SKMesh mesh, const char name[], PetscInt id, SKElementType type, PetscInt num_elements,
                                           const PetscInt conn[]);
/* Adds a node set (NODES copied, sorted and made unique). Errors: duplicate name, a node out of range. */
PETSC_EXTERN PetscErrorCode SKMeshAddNodeSet(SKMesh mesh, const char name[], PetscInt n, const PetscInt nodes[]);
/* Adds a side set of N sides (ELEMENTS[i], FACES[i]); copied and sorted by (element, face), duplicates removed.
   Errors: duplicate name, an element or local face out of range. */
PETSC_EXTERN PetscErrorCode SKMeshAddSideSet(SKMesh mesh, const char name[], PetscInt n, const PetscInt elements[], const PetscInt faces[]);

/* Finds the first inverted or degenerate element: the smallest det J of SKElementTypeMinJacobian() (centre, nodes,
   Gauss points) <= 1e-12 h^dim, h the element's bounding-box diagonal. *element = -1 (and *det_j = 0) when there is
   none. */
PETSC_EXTERN PetscErrorCode SKMeshFindInvertedElement(SKMesh mesh, PetscInt *element, PetscReal *det_j);
/* Raises an SK_ERR_INPUT error naming the block, element and det J if any element is inverted or degenerate. */
PETSC_EXTERN PetscErrorCode SKMeshCheck(SKMesh mesh);

/* Checks, before anything is allocated, that a mesh of NUM_NODES nodes and NUM_ELEMENTS elements of
   NODES_PER_ELEMENT nodes in dimension DIM (counts as reals, so that a product cannot overflow) can be indexed with
   PetscInt (nodes, elements, dofs = nodes x dim, connectivity entries) and fits in memory: an estimate of what the
   explicit solver holds (about 1 kB per node and 100 B + 16 B per element node, every rank holding the replicated
   mesh during set-up, plus ELEMENT_BYTES more per element that the cell kind keeps) against the physical memory of the
   machine. msg[len] gets the reason ("" when it fits), for the caller's FILE:LINE error. */
PETSC_EXTERN PetscErrorCode SKMeshCheckSize(PetscInt dim, PetscReal num_nodes, PetscReal num_elements, PetscInt nodes_per_element,
                                            PetscReal element_bytes, char msg[], size_t len);

/* FNV-1a hash of what defines a replicated mesh: dimension, coordinates, and every block's type and connectivity (the
   mesh as loaded; sets are not included). Identifies the mesh of a run in its checkpoints. */
PETSC_EXTERN PetscErrorCode SKMeshGetDigest(SKMesh mesh, unsigned long long *digest);

PETSC_EXTERN PetscErrorCode SKMeshGetComm(SKMesh mesh, MPI_Comm *comm);
/* Spatial dimension, 2 or 3. */
PETSC_EXTERN PetscErrorCode SKMeshGetDimension(SKMesh mesh, PetscInt *dim);
/* Number of local nodes (owned + ghost on a distributed mesh) and their coordinates [num_nodes][dim] (m). */
PETSC_EXTERN PetscErrorCode SKMeshGetNodes(SKMesh mesh, PetscInt *num_nodes, const PetscReal *coords[]);
/* Writable node coordinates of a replicated mesh (before SKMeshDistribute(), which copies them), e.g. to map a plate's
   bottom face onto a rough surface; the topology and the sets stay as they are. An error on a distributed mesh. */
PETSC_EXTERN PetscErrorCode SKMeshGetNodesWrite(SKMesh mesh, PetscInt *num_nodes, PetscReal *coords[]);
/* Number of local elements. */
PETSC_EXTERN PetscErrorCode SKMeshGetNumElements(SKMesh mesh, PetscInt *num_elements);
PETSC_EXTERN PetscErrorCode SKMeshGetNumBlocks(SKMesh mesh, PetscInt *num_blocks);
/* Block B: name, user id, element type, number of (local) elements, index of its first element, connectivity
   [num_elements][num_nodes_per_element] in local node indices. Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetBlock(SKMesh mesh, PetscInt b, const char *name[], PetscInt *id, SKElementType *type,
                                           PetscInt *num_elements, PetscInt *first_element, const PetscInt *conn[]);
/* Attaches DATA to block B (e.g. the NURBS patch and extraction operators of a block of Bezier cells), looked up by
   the block's type through SKMeshGetBlockCellData(). The mesh owns it from now on: DESTROY(data) (may be NULL) runs
   when the last mesh sharing it is destroyed (SKMeshDistribute() shares the cell data of every block). */
PETSC_EXTERN PetscErrorCode SKMeshSetBlockCellData(SKMesh mesh, PetscInt b, void *data, PetscErrorCode (*destroy)(void *));
/* The cell data of block B, NULL if none. */
PETSC_EXTERN PetscErrorCode SKMeshGetBlockCellData(SKMesh mesh, PetscInt b, void **data);
/* natural[e] = index, inside block B of the replicated mesh, of local element e of block B (identity on a replicated
   mesh): how per-element cell data made for the whole block is found on a distributed mesh. natural[] is the caller's
   (num_elements of the block). */
PETSC_EXTERN PetscErrorCode SKMeshGetBlockNaturalElements(SKMesh mesh, PetscInt b, PetscInt natural[]);
/* Index of the block named NAME, -1 if there is none. */
PETSC_EXTERN PetscErrorCode SKMeshFindBlock(SKMesh mesh, const char name[], PetscInt *b);
/* Element E: its block, type and nodes (local node indices, num_nodes of the type). Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetElement(SKMesh mesh, PetscInt e, PetscInt *block, SKElementType *type, const PetscInt *nodes[]);
/* Nodes of local face FACE of element E (num_face_nodes of the type, in the face's order) into nodes[]. */
PETSC_EXTERN PetscErrorCode SKMeshGetFaceNodes(SKMesh mesh, PetscInt e, PetscInt face, PetscInt *n, PetscInt nodes[]);

PETSC_EXTERN PetscErrorCode SKMeshGetNumNodeSets(SKMesh mesh, PetscInt *n);
/* Node set I: name, number of local nodes, sorted local node indices, and the number of nodes in the whole mesh
   (the same on every rank; use it to refuse an empty set). Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetNodeSet(SKMesh mesh, PetscInt i, const char *name[], PetscInt *n, const PetscInt *nodes[],
                                             PetscInt *global_size);
/* Index of the node set named NAME, -1 if there is none. */
PETSC_EXTERN PetscErrorCode SKMeshFindNodeSet(SKMesh mesh, const char name[], PetscInt *i);
PETSC_EXTERN PetscErrorCode SKMeshGetNumSideSets(SKMesh mesh, PetscInt *n);
/* Side set I: name, number of local sides, their elements and local faces (sorted by element, then face), and the
   number of sides in the whole mesh. Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetSideSet(SKMesh mesh, PetscInt i, const char *name[], PetscInt *n, const PetscInt *elements[],
                                             const PetscInt *faces[], PetscInt *global_size);
/* Index of the side set named NAME, -1 if there is none. */
PETSC_EXTERN PetscErrorCode SKMeshFindSideSet(SKMesh mesh, const char name[], PetscInt *i);
/* Comma-separated names of the node sets (WHICH = 0) or side sets (WHICH = 1), for "unknown set" messages. */
PETSC_EXTERN PetscErrorCode SKMeshListSets(SKMesh mesh, PetscInt which, char buf[], size_t len);

/* Faces that belong to exactly one element (matched by their corner nodes), as (element, local face) pairs sorted
   by element then face; computed on first call and cached. */
PETSC_EXTERN PetscErrorCode SKMeshGetBoundaryFaces(SKMesh mesh, PetscInt *n, const PetscInt *elements[], const PetscInt *faces[]);
/* Node-to-element map in CSR form: the elements using local node i are elements[offsets[i] .. offsets[i+1]-1],
   ascending. Computed on first call and cached. */
PETSC_EXTERN PetscErrorCode SKMeshGetNodeElements(SKMesh mesh, const PetscInt *offsets[], const PetscInt *elements[]);

/* ---- structured generators ---- */

/* Structured mesh of the box [lower, upper] (m) in dim = dimension of TYPE (T3, Q4, Q9: rectangle; T4, H8, H27:
   box) with CELLS[d] cells per direction. RATIO[d] > 0 is the geometric ratio of consecutive cell sizes along
   direction d (1 = uniform; as Gmsh's "Using Progression"); RATIO may be NULL. Quadratic elements have their
   mid-edge nodes at the middle of each cell interval. T3 cuts each cell along its (0,0)-(1,1) diagonal; T4 cuts each
   cell into 6 tetrahedra around its (0,0,0)-(1,1,1) diagonal (conforming). Nodes are numbered x fastest, then y,
   then z. One block "body" (id 1); node sets and side sets left/right (x = lower/upper), bottom/top (y), and in 3D
   back/front (z = lower/upper). */
PETSC_EXTERN PetscErrorCode SKMeshCreateBox(MPI_Comm comm, SKElementType type, const PetscInt cells[], const PetscReal lower[],
                                            const PetscReal upper[], const PetscReal ratio[], SKMesh *mesh);
/* Adds a node set and a side set named NAME for every boundary face whose nodes all satisfy x[d] = value (within
   1e-10 of the mesh size). Used by the generators; handy for meshes read from files. */
PETSC_EXTERN PetscErrorCode SKMeshAddPlaneSets(SKMesh mesh, const char name[], PetscInt d, PetscReal value);

/* ---- readers ---- */

/* Reads a Gmsh .msh 4.1 ASCII file (replicated on every rank of COMM). Supported elements: 2-node lines, 3-node
   lines, points (for sets), T3, Q4, Q9, T4, H8, H27 (Gmsh types 1, 8, 15, 2, 3, 10, 4, 5, 12); others are refused.
   The mesh dimension is the highest element dimension. Errors as "FILE:LINE: message". */
PETSC_EXTERN PetscErrorCode SKMeshCreateGmsh(MPI_Comm comm, const char filename[], SKMesh *mesh);
/* Reads a mesh file by its extension: .msh (Gmsh) or .xml (stickslip XML mesh, root <mesh>, validated). */
PETSC_EXTERN PetscErrorCode SKMeshCreateFromFile(MPI_Comm comm, const char filename[], SKMesh *mesh);
/* Makes the mesh described by a <mesh> element NODE of INPUT (a study's <mesh> or the root of a mesh file): explicit
   <nodes>/<block>/<nodeset>/<sideset>, a <rectangle> or <box> generator, or file="..." (relative to the input's
   directory). Every problem is an input error at the line of the offending element. */
PETSC_EXTERN PetscErrorCode SKMeshCreateFromInput(SKInput input, SKNode node, SKMesh *mesh);

/* ---- partitioning and distribution ---- */

/* METIS partition of the elements into NPARTS parts (METIS_PartMeshDual on the corner nodes, faces shared as the
   adjacency, fixed seed: deterministic). part[num_elements] (caller-allocated) gets the part of each element. The
   mesh must be replicated. NPARTS = 1 gives all zeros without calling METIS. */
PETSC_EXTERN PetscErrorCode SKMeshPartition(SKMesh mesh, PetscInt nparts, PetscInt part[]);
/* Collective. From a replicated MESH, makes *DIST holding on each rank the elements of its METIS part (computed on
   rank 0 and broadcast), owned then ghost nodes, local sets (see the top of this file). On one rank *DIST is a copy
   with no ghosts. */
PETSC_EXTERN PetscErrorCode SKMeshDistribute(SKMesh mesh, SKMesh *dist);
/* PETSC_TRUE for a mesh made by SKMeshDistribute(). */
PETSC_EXTERN PetscErrorCode SKMeshIsDistributed(SKMesh mesh, PetscBool *distributed);
/* Owned nodes are local nodes 0 .. num_owned-1 with global numbers global_start + i; global_size is the number of
   nodes of the whole mesh. A replicated mesh owns all its nodes (global_start 0) on every rank. Outputs may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetNodeOwnership(SKMesh mesh, PetscInt *num_owned, PetscInt *global_start, PetscInt *global_size);
/* Ghost nodes are local nodes num_owned .. num_owned+num_ghost-1; ghost_global[i] is the global number of ghost i,
   ascending (the array VecCreateGhost() wants), owner_rank[i] its owning rank. Outputs may be NULL. */
PETSC_EXTERN PetscErrorCode SKMeshGetGhostNodes(SKMesh mesh, PetscInt *num_ghost, const PetscInt *ghost_global[],
                                                const PetscMPIInt *owner_rank[]);
/* Index of every local node and element in the replicated mesh it was distributed from (identity on a replicated
   mesh): for output in the original numbering and for comparing runs on different numbers of ranks. */
PETSC_EXTERN PetscErrorCode SKMeshGetNaturalNodes(SKMesh mesh, const PetscInt *natural[]);
PETSC_EXTERN PetscErrorCode SKMeshGetNaturalElements(SKMesh mesh, const PetscInt *natural[]);
/* Number of elements in the whole mesh (the same on every rank). */
PETSC_EXTERN PetscErrorCode SKMeshGetGlobalNumElements(SKMesh mesh, PetscInt *n);
/* Star forest from every ghost node (leaf: its local index) to its owner's copy (root: local index on the owner);
   nroots = num_owned. PetscSFBcast owned -> ghost values, PetscSFReduce with MPI_SUM adds ghost contributions to
   the owners. Caller destroys *sf. Unit: one entry per node; for BS dofs per node use a block MPI type. */
PETSC_EXTERN PetscErrorCode SKMeshCreateNodeSF(SKMesh mesh, PetscSF *sf);
/* Ghosted vector with BS entries per node: owned nodes in the global part, local form ordered as the local nodes
   (VecGhostGetLocalForm). Caller destroys *v. On a replicated mesh with more than one rank this is an error. */
PETSC_EXTERN PetscErrorCode SKMeshCreateGhostVec(SKMesh mesh, PetscInt bs, Vec *v);

/* Prints a one-paragraph summary (dimension, nodes, blocks, sets; per-rank sizes when distributed) on VIEWER. */
PETSC_EXTERN PetscErrorCode SKMeshView(SKMesh mesh, PetscViewer viewer);

#endif
