/* stickslip fem: quadrature, element bases (the Lagrange bases of the mesh's element types T3, Q4, Q9, T4, H8, H27;
   any other basis, e.g. NURBS through Bezier extraction, as a "shell" basis with its own geometry function), and
   element kernels on gathered local arrays: internal force f_int = int B^T P dV, lumped mass, element stiffness,
   strain energy, Cauchy/von Mises stress, face integrals for tractions.

   Layouts (all caller-owned arrays; no global state; the internal force allocates nothing, the setup and output
   kernels one work buffer per call):
     nodal fields (coordinates X, displacement u, force f) are node-interleaved: X[node*dim + d];
     connectivity is conn[e*nodes + a] = local node of node a of element e, in the basis' node order (= VTK order of the mesh element type);
     per element at one quadrature point, basis gradients dNdX[a*dim + d] = dN_a/dX_d (reference configuration).
   Batched evaluation works on SK_LANES elements at once (see stickslip/material.h): a nodal quantity of node a,
   component d, element lane l sits at A[(a*dim + d)*SK_LANES + l].

   A basis provides (what a new one, e.g. a Bezier element of the iga module, must give):
     dim, nodes per element, quadrature points per element, VTK cell type;
     geometry(basis, q, elem, X, N, dNdX, wdetJ): for quadrature point q of the SK_LANES elements elem[] (block-local
       indices, so that a basis can look up per-element data such as extraction operators) with reference coordinates X
       (batched layout), fills basis values N[a*SK_LANES + l] (when N != NULL), physical gradients dNdX (batched) and
       wdetJ[l] = w_q det(dX/dxi); returns the bit mask of lanes with det(dX/dxi) <= 0.
   The element loops (internal force, mass, stress, energy) call only that, so every basis runs through the same loop. */
#ifndef STICKSLIP_FEM_H
#define STICKSLIP_FEM_H

#include <stickslip/material.h>
#include <stickslip/mesh.h>
#include <stickslip/iga.h>

#define SK_ELEMENT_MAX_NODES 64 /* enough for tricubic Bezier hexahedra */
#define SK_ELEMENT_MAX_QP 64

typedef struct _n_SKBasis *SKBasis;

typedef unsigned (*SKBasisGeometryFn)(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[],
                                      PetscReal dNdX[], PetscReal wdetJ[]);

/* Facts about a basis. */
typedef struct {
  const char *name;            /* "Q4", ... (owned by the basis) */
  PetscInt dim;                /* reference = spatial dimension, 2 or 3 */
  PetscInt nodes;              /* nodes per element */
  PetscInt qpoints;            /* quadrature points per element */
  PetscInt degree;             /* polynomial degree per direction (1 or 2 for Lagrange) */
  PetscInt vtk_cell_type;      /* VTK legacy cell type id (5, 9, 28, 10, 12, 29) */
  PetscBool simplex;           /* triangle/tetrahedron reference element */
  PetscReal reference_measure; /* area/volume of the reference element: 4, 8, 1/2, 1/6 */
} SKBasisInfo;

/* ---- quadrature ---- */

/* Gauss-Legendre rule with n >= 1 points on [-1, 1] (exact for degree 2n-1). x, w: n entries, caller's. */
PETSC_EXTERN PetscErrorCode SKQuadratureGaussLegendre(PetscInt n, PetscReal x[], PetscReal w[]);
/* Tensor Gauss rule on [-1,1]^dim with n points per direction: n^dim points x[q*dim + d], weights w[q]. */
PETSC_EXTERN PetscErrorCode SKQuadratureTensor(PetscInt dim, PetscInt n, PetscReal x[], PetscReal w[]);
/* Rule on the reference simplex (vertices 0, e_1, .., e_dim) exact for total degree `degree` >= 0: the centroid for
   degree <= 1, the symmetric 3-point (triangle) / 4-point (tetrahedron) rule for degree 2, collapsed (Duffy) Gauss
   rules above. With x == NULL only *nq is set (to size the arrays); otherwise x[q*dim + d], w[q] are filled. */
PETSC_EXTERN PetscErrorCode SKQuadratureSimplex(PetscInt dim, PetscInt degree, PetscInt *nq, PetscReal x[], PetscReal w[]);

/* ---- element bases ---- */

/* Creates the Lagrange basis of a mesh element type (T3, Q4, Q9, T4, H8, H27) with full Gauss integration
   (1, 2x2, 3x3, 1, 2x2x2, 3x3x3 points). Destroy with SKBasisDestroy(). */
PETSC_EXTERN PetscErrorCode SKBasisCreateFromType(SKElementType type, SKBasis *basis);
/* The same from the element type's name ("T3", .., "H27"; also what SKElementTypeInfo.face_name gives for the faces
   of 3D elements). Unknown name: error PETSC_ERR_ARG_UNKNOWN_TYPE listing the known ones. */
PETSC_EXTERN PetscErrorCode SKBasisCreate(const char name[], SKBasis *basis);
/* Creates a basis defined only by its geometry function (see the header comment), e.g. a Bezier-extracted NURBS
   element. ctx is the caller's and must outlive the basis (SKBasisGetContext() returns it). */
PETSC_EXTERN PetscErrorCode SKBasisCreateShell(const char name[], PetscInt dim, PetscInt nodes, PetscInt qpoints, PetscInt vtk_cell_type,
                                               SKBasisGeometryFn geometry, void *ctx, SKBasis *basis);
PETSC_EXTERN PetscErrorCode SKBasisGetContext(SKBasis basis, void **ctx);
/* Makes a shell basis own its context: DESTROY(ctx) runs in SKBasisDestroy(). */
PETSC_EXTERN PetscErrorCode SKBasisShellSetContextDestroy(SKBasis basis, PetscErrorCode (*destroy)(void *));
/* The basis of block B of MESH: the Lagrange basis of a built-in type, or what a registered type's create_basis hook
   makes (Bezier cells: SKMeshCreateFromNURBSPatches()). Destroy with SKBasisDestroy(); the mesh must outlive it. */
PETSC_EXTERN PetscErrorCode SKBasisCreateForBlock(SKMesh mesh, PetscInt b, SKBasis *basis);
/* Tells the basis of a block the block's NELEM elements CONN and the reference coordinates X that every later
   SKFEMInternalForce() call will use (the explicit solver's block loop): a basis whose force loop can keep part of the
   reference geometry does so (Bezier cells: det J and dxi/dX at the Gauss points, 8 (1 + dim^2) bytes per point);
   the others ignore it. Forces are the same bit for bit either way. */
PETSC_EXTERN PetscErrorCode SKBasisSetReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[]);
/* Integrates the internal force (and strain energy, stresses) of the basis with its reduced rule, where it has one
   without spurious zero-energy modes: Bezier cells of degree p >= 2 with p Gauss points per direction instead of
   p + 1, except on patches with a single span in two or more directions (docs/theory.md, "Reduced quadrature of
   patches"); *reduced says whether the rule changed (Lagrange bases: never). The mass keeps its exact rule. Call it
   before SKBasisSetReference(). */
PETSC_EXTERN PetscErrorCode SKBasisReduceQuadrature(SKBasis basis, PetscBool *reduced);
/* Frees a basis and sets *basis = NULL. */
PETSC_EXTERN PetscErrorCode SKBasisDestroy(SKBasis *basis);
/* Facts about a basis (strings owned by the basis). */
PETSC_EXTERN PetscErrorCode SKBasisGetInfo(SKBasis basis, SKBasisInfo *info);
/* Tabulation of a Lagrange basis (pointers owned by the basis; NULL for shell bases): reference node coordinates
   ref[a*dim + d], quadrature points xq[q*dim + d] and weights wq[q], basis values N[q*nodes + a] and reference
   gradients dN[(q*nodes + a)*dim + k] = dN_a/dxi_k at the quadrature points. Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKBasisGetTabulation(SKBasis basis, const PetscReal **ref, const PetscReal **xq, const PetscReal **wq,
                                                 const PetscReal **N, const PetscReal **dN);
/* Basis values N[a] and reference gradients dN[a*dim + k] at a reference point xi (Lagrange bases only). */
PETSC_EXTERN PetscErrorCode SKBasisEvaluate(SKBasis basis, const PetscReal xi[], PetscReal N[], PetscReal dN[]);
/* The batched geometry at quadrature point q (see the header comment); *inverted = bit mask of lanes with det <= 0. */
PETSC_EXTERN PetscErrorCode SKBasisGeometryBatch(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[],
                                                 PetscReal dNdX[], PetscReal wdetJ[], unsigned *inverted);
/* Geometry of one element e at all its quadrature points, plain layout: Xe[a*dim + d] (its nodes' reference
   coordinates, m), N[q*nodes + a], dNdX[(q*nodes + a)*dim + d] (1/m), wdetJ[q] (m^dim); N may be NULL.
   *bad_qp = first quadrature point with det(dX/dxi) <= 0, or -1. */
PETSC_EXTERN PetscErrorCode SKBasisEvaluateElement(SKBasis basis, PetscInt e, const PetscReal Xe[], PetscReal N[], PetscReal dNdX[],
                                                   PetscReal wdetJ[], PetscInt *bad_qp);

/* ---- NURBS patches as mesh blocks of Bezier cells (src/fem/bezier.c) ----
   A patch of parametric = spatial dimension 2 or 3 and the same degree p in every direction becomes a block whose
   nodes are its control points and whose elements are its knot spans, each with its (p+1)^dim control points
   (direction 0 fastest, as in stickslip/iga.h). The cell type "Bezier-Q<p>" (2D) or "Bezier-H<p>" (3D) is registered
   on first use: VTK type 77 / 79, faces numbered as the patch faces (0 left, 1 right, 2 bottom, 3 top, 4 back,
   5 front) with their control points in tensor order, not matched by nodes (side sets come from the patch). Its basis
   is the rational basis by Bezier extraction with (p+1)^dim Gauss points; every element loop of this module runs on it
   unchanged. */

/* The registered Bezier cell type of dimension DIM and degree P (registers it on first call). */
PETSC_EXTERN PetscErrorCode SKBezierCellType(PetscInt dim, PetscInt p, SKElementType *type);
/* Position of the Bezier control point with tensor indices (i, j, k) (0..p each; k = 0 in 2D) in VTK's point order of
   a VTK_BEZIER_QUADRILATERAL (DIM 2) or VTK_BEZIER_HEXAHEDRON (DIM 3) of degree P in every direction: the corners in
   the order of the linear quadrilateral/hexahedron, then the edge points, the face points and the interior points,
   each group in VTK's order (the PointIndexFromIJK of VTK's higher-order cells, with the ordering of the vertical
   hexahedron edges that VTK reads from .vtu files of version 1.0). Pure; -1 for indices out of range. */
PETSC_EXTERN PetscInt SKBezierVTKPointIndex(PetscInt dim, PetscInt p, PetscInt i, PetscInt j, PetscInt k);
/* The Bezier points of the local elements of block B of MESH (a block of Bezier cells) for output as VTK rational
   Bezier cells: each element of degree *degree has *npoints = (p+1)^dim of them, in VTK's order
   (SKBezierVTKPointIndex()). Point j of element e is the combination sum_a coef[(e*npoints + j)*npoints + a] y_a of
   the values y_a at the element's control points (its block connectivity, in order) and has the rational weight
   weight[e*npoints + j]: with y the control point coordinates it gives the rational Bezier point of the span (the
   extraction operator applied to the projective control net, divided by its weight), with y a displacement or
   velocity the Bezier coefficients of that field, which VTK then interpolates with the same rational basis as the
   geometry. The coefficients of a point sum to 1. coef and weight are allocated here; free them with PetscFree(). */
PETSC_EXTERN PetscErrorCode SKMeshGetBezierPoints(SKMesh mesh, PetscInt b, PetscInt *degree, PetscInt *npoints, PetscReal **coef,
                                                  PetscReal **weight);
/* A replicated mesh of NPATCH patches as separate bodies: block i named names[i] (id i + 1) holds patch i (copied: the
   caller keeps its patches), control points numbered patch after patch. Sets: "<name>_<face>" (node set: the face's
   control points; side set: the elements on it) for every face of every patch, and "<face>" too when NPATCH = 1;
   the node set "<name>" holds all control points of the patch.
   Errors (PETSC_ERR_ARG_WRONG): patches of different dimensions, pdim != sdim, unequal degrees per direction (elevate
   first), more than SK_ELEMENT_MAX_NODES control points per element. */
PETSC_EXTERN PetscErrorCode SKMeshCreateFromNURBSPatches(MPI_Comm comm, PetscInt npatch, const SKNURBSPatch patches[],
                                                         const char *const names[], SKMesh *mesh);

/* The replicated mesh of a <mesh> element made of <patch> children (one block per patch, named by its name attribute,
   default "body"; sets as above). Input errors at the offending line, including a control net whose Jacobian
   det(dX/dxi) is not positive at some quadrature point (named by patch, element and point). */
PETSC_EXTERN PetscErrorCode SKMeshCreateFromPatchInput(SKInput input, SKNode mesh_node, SKMesh *mesh);

/* The point of the NURBS blocks of a replicated MESH nearest to x (m), found by parameter inversion
   (SKNURBSPatchInvert): its element's *n control points nodes[] (mesh node numbers, caller's array of
   SK_ELEMENT_MAX_NODES) with the basis values R[] there (they sum to 1), and *distance (m) from x. A field there is
   sum_a R[a] u[nodes[a]]. *n = 0 when the mesh has no NURBS block. */
PETSC_EXTERN PetscErrorCode SKMeshLocatePatchPoint(SKMesh mesh, const PetscReal x[], PetscInt *n, PetscInt nodes[], PetscReal R[],
                                                   PetscReal *distance);

/* ---- faces of NURBS patches (src/fem/face_patch.c) ---- */

#define SK_IGA_FACE_EXTRA_QP 3   /* Gauss points per face direction: degree + this (the rational area element is not polynomial) */
#define SK_IGA_FACE_MAX_NODES 16 /* control points of one face element (2D: p + 1 <= 8; 3D: (p + 1)^2 with p <= 3) */
#define SK_IGA_FACE_MAX_QP 100   /* quadrature points of one face element (2D: p + 3 <= 10; 3D: (p + 3)^2 <= 36) */

/* The normal of a face parametrisation from its tangents T (one in 2D, two in 3D; 3 components each, the third 0 in 2D):
   (t_y, -t_x) in 2D, t_1 x t_2 in 3D, into N[DIM]; returns its length, the line or area element per unit of the face
   parameters. (NURBS patch faces: their quadrature and the contact master's normals.) */
static inline PetscReal SKFaceAreaVector(PetscInt dim, const PetscReal t[][3], PetscReal n[])
{
  PetscReal len;

  if (dim == 2)
    n[0] = t[0][1], n[1] = -t[0][0];
  else {
    n[0] = t[0][1] * t[1][2] - t[0][2] * t[1][1];
    n[1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
    n[2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
  }
  len = n[0] * n[0] + n[1] * n[1]; /* written out: GCC 12 at -O3 -march=native warned of the loop's n as uninitialized */
  if (dim == 3) len += n[2] * n[2];
  return PetscSqrtReal(len);
}
/* Quadrature over face F (0 left .. 5 front) of element E of a 2D or 3D solid PATCH, E on that face: *nfn control
   points of the face (in element order, as SKMeshGetFaceNodes() lists them for a Bezier cell; their places in the
   element's control point list into local[] when it is not NULL) and *nq Gauss points
   (degree + SK_IGA_FACE_EXTRA_QP per face direction) with the face basis R[q*nfn + a] (the rational basis of the element
   on the face, summing to one), the area element wdA[q] (Gauss weight times |dx/dxi| over the face; m in 2D, m^2 in
   3D) and, when x != NULL, the point x[q*dim + c] (m), all at the face's control point coordinates Xf[a*dim + c] (m;
   NULL: the patch's own). Caller arrays of SK_IGA_FACE_MAX_QP and SK_IGA_FACE_MAX_QP * SK_IGA_FACE_MAX_NODES entries
   (times dim for x and an) suffice. A uniform dead traction t gives the consistent loads f_a = sum_q R[q*nfn + a] wdA[q] t.
   When an != NULL, an[q*dim + c] is the Gauss weight times the outward area vector (dx/dxi turned by -90 degrees in
   2D, the cross product of the two tangents in 3D; its length is wdA[q]): a dead pressure p gives
   f_a = -p sum_q R[q*nfn + a] an[q]. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchFaceQuadrature(SKNURBSPatch patch, PetscInt e, PetscInt f, const PetscReal Xf[], PetscInt *nfn,
                                                       PetscInt local[], PetscInt *nq, PetscReal R[], PetscReal wdA[], PetscReal x[],
                                                       PetscReal an[]);
/* The same at N given points of the face: XI[q*(dim-1) + j] in [-1, 1] along the face's free directions in increasing
   order (the order of the Gauss points above, the first direction fastest) with weights WQ[q] (wdA[q] = WQ[q] |dx/dxi|,
   an[q] WQ[q] times the area vector); when dR != NULL also dR[(q*nfn + a)*(dim-1) + j] = dR_a/dxi_j. WQ and wdA may be
   NULL together. At most SK_IGA_FACE_MAX_QP points per call for the caller arrays sized as above. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchFacePoints(SKNURBSPatch patch, PetscInt e, PetscInt f, const PetscReal Xf[], PetscInt n,
                                                   const PetscReal xi[], const PetscReal wq[], PetscInt *nfn, PetscInt local[],
                                                   PetscReal R[], PetscReal dR[], PetscReal wdA[], PetscReal x[], PetscReal an[]);
/* The NURBS patch of element E of MESH (a local element) and E's element number in the patch (*patch = NULL and
 *pe = -1 for a cell that is not a Bezier cell of a patch). */
PETSC_EXTERN PetscErrorCode SKMeshGetPatchElement(SKMesh mesh, PetscInt e, SKNURBSPatch *patch, PetscInt *pe);
/* ADDS the weights int R_a dA (m^(dim-1)) of face F of the Bezier cell E of MESH at the local node coordinates X[]
   (m) to w[a], a in SKMeshGetFaceNodes() order, and when an != NULL the area vectors int R_a n dA (n the outward unit
   normal) to an[a*dim + c]: the face integrals of a patch face (SKFEMFaceIntegrals() of Lagrange faces). */
PETSC_EXTERN PetscErrorCode SKMeshPatchFaceWeights(SKMesh mesh, PetscInt e, PetscInt f, const PetscReal X[], PetscReal w[], PetscReal an[]);

/* ---- element kernels over a block (one basis, one material) on local arrays ---- */

typedef enum {
  SK_FEM_OK                 = 0,
  SK_FEM_INVERTED_REFERENCE = 1, /* det(dX/dxi) <= 0: the reference mesh is invalid */
  SK_FEM_INVERTED_CURRENT   = 2  /* J = det F <= 0: the deformed element turned inside out (unstable run) */
} SKFEMFailureKind;

/* Where a kernel stopped; the caller turns it into a message with the global element id and the time. */
typedef struct {
  SKFEMFailureKind kind;
  PetscInt element; /* block-local element index, -1 if none */
  PetscInt qp;      /* quadrature point */
  PetscReal det;    /* the offending det(dX/dxi) or J */
} SKFEMFailure;

typedef enum {
  SK_LUMPING_AUTO   = 0, /* row sum; HRZ (diagonal scaling) for an element whose row sums are not all positive */
  SK_LUMPING_ROWSUM = 1, /* row sum only */
  SK_LUMPING_HRZ    = 2  /* HRZ for every element */
} SKLumping;

/* Internal force f += int B^T P dV of nelem elements of one block, and energy += int psi dV (J) when energy != NULL.
   conn: nelem*nodes local node indices; X, u: reference coordinates (m) and displacements (m), node-interleaved;
   f: N, node-interleaved, added to (may be NULL to get only the energy). On J <= 0 or det(dX/dxi) <= 0 the kernel
   stops, fills *fail (element, qp, value) and returns PETSC_SUCCESS: the caller raises the error. Deterministic:
   contributions are added element by element in order. */
PETSC_EXTERN PetscErrorCode SKFEMInternalForce(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                               const PetscReal u[], PetscReal f[], PetscReal *energy, SKFEMFailure *fail);
/* Lumped nodal masses m[node] += (kg), density rho (kg/m^3), with the given lumping. Row sum gives m_a = int rho N_a;
   HRZ gives m_a = M_e int N_a^2 / sum_b int N_b^2 (always positive). The integrals are the basis' quadrature, or its own
   element integrals where it has them (Bezier cells: to round-off, also for rational elements). Fails (in *fail) only
   on an inverted reference. */
PETSC_EXTERN PetscErrorCode SKFEMLumpedMass(SKBasis basis, PetscReal rho, SKLumping lumping, PetscInt nelem, const PetscInt conn[],
                                            const PetscReal X[], PetscReal m[], SKFEMFailure *fail);
/* The consistent mass M_ab = int rho N_a N_b dV of a block as a matrix-free operator (docs/theory.md, "Higher-order mass of
   patches"): set up once from the reference coordinates X (m) with density rho (kg/m^3), one number per element and
   quadrature point; applied element by element. Bases with a mass kernel only (NURBS patch cells; SKBasisHasMassOperator()).
   The operator keeps pointers to BASIS and CONN, which must outlive it. Fails (in *fail) only on an inverted reference. */
typedef struct _n_SKFEMMassOperator *SKFEMMassOperator;
PETSC_EXTERN PetscErrorCode SKBasisHasMassOperator(SKBasis basis, PetscBool *has);
PETSC_EXTERN PetscErrorCode SKFEMMassOperatorCreate(SKBasis basis, PetscReal rho, PetscInt nelem, const PetscInt conn[],
                                                    const PetscReal X[], SKFEMMassOperator *op, SKFEMFailure *fail);
/* y[v][node*bs + c] += (M x[v])[node*bs + c] (kg times the unit of x) for the nvec vectors x[v], bs components per node
   (each component separately), over the local elements of the block: ghost sums are the caller's. */
PETSC_EXTERN PetscErrorCode SKFEMMassOperatorApply(SKFEMMassOperator op, PetscInt bs, PetscInt nvec, const PetscReal *const x[],
                                                   PetscReal *const y[]);
/* The same product over the NSEL local elements SEL (ascending, each in 0..nelem-1) only: y[v] += M_sel x[v]. The entries of y at the
   nodes of no other element (those all of whose elements are selected) are those of SKFEMMassOperatorApply() bit for bit. */
PETSC_EXTERN PetscErrorCode SKFEMMassOperatorApplyElements(SKFEMMassOperator op, PetscInt nsel, const PetscInt sel[], PetscInt bs,
                                                           PetscInt nvec, const PetscReal *const x[], PetscReal *const y[]);
PETSC_EXTERN PetscErrorCode SKFEMMassOperatorDestroy(SKFEMMassOperator *op);
/* Checks det(dX/dxi) > 0 at every quadrature point of every element; *fail tells the first bad one. Also adds the
   block volume (m^dim) to *volume when volume != NULL. */
PETSC_EXTERN PetscErrorCode SKFEMCheckReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                                PetscReal *volume, SKFEMFailure *fail);
/* Tangent stiffness of one element, K = d f_int / d u at ue, by central differences of f_int (step 1e-6 of the element
   size; exact to round-off for linear elasticity, relative error ~1e-10 otherwise). Xe, ue: nodes*dim (element-local,
   node-interleaved); K: (nodes*dim)^2 row-major, N/m, overwritten. */
PETSC_EXTERN PetscErrorCode SKFEMElementStiffness(SKBasis basis, SKMaterial mat, const PetscReal Xe[], const PetscReal ue[], PetscReal K[],
                                                  SKFEMFailure *fail);
/* Two upper bounds of omega_max^2 at the undeformed state for the critical time step, from the element stiffnesses
   K^e of the material's tangent at F = I (central differences of P, relative error ~1e-10), one pass over the nelem
   elements of a block:
   - r (unless NULL), the row bound: r[node*dim + i] += sum over the columns of |K^e| in the row of (node, i) (N/m).
     Summed over all elements of a mesh, max_i r_i / m_i bounds the largest eigenvalue of M^-1 K (Gershgorin).
   - *omega2 (unless NULL), the element bound (rad^2/s^2): max_e lambda_max(M_e^-1 K_e), M_e the element's lumped
     masses as SKFEMLumpedMass() forms them with LUMPING (density from the material). Since K = sum K_e and M = sum M_e
     it bounds omega_max^2 of the assembled lumped system (Irons and Treharne); each element screened by a Cholesky
     factorisation, eigen-solved where that fails, the result (1 + 1e-10) times the largest eigenvalue found.
   docs/theory.md, "Critical time step". X: reference coordinates (m), node-interleaved. Fails (in *fail) only on an
   inverted reference. */
PETSC_EXTERN PetscErrorCode SKFEMStiffnessBounds(SKBasis basis, SKMaterial mat, SKLumping lumping, PetscInt nelem, const PetscInt conn[],
                                                 const PetscReal X[], PetscReal r[], PetscReal *omega2, SKFEMFailure *fail);
/* The same for element e (block-local index) of a block: what a shell basis (Bezier cells) needs to find its element's
   data; SKFEMElementStiffness() is this with e = 0. */
PETSC_EXTERN PetscErrorCode SKFEMBlockElementStiffness(SKBasis basis, SKMaterial mat, PetscInt e, const PetscReal Xe[],
                                                       const PetscReal ue[], PetscReal K[], SKFEMFailure *fail);
/* Cauchy stress (Pa, full symmetric 3x3 per point, row-major) and von Mises stress: per quadrature point into
   sigma_qp[(e*qpoints + q)*9], vm_qp[e*qpoints + q], and element averages (reference-volume weighted) into
   sigma_el[e*9], vm_el[e] (von Mises of the averaged stress). Any of the four outputs may be NULL. */
PETSC_EXTERN PetscErrorCode SKFEMStress(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                        const PetscReal u[], PetscReal sigma_qp[], PetscReal vm_qp[], PetscReal sigma_el[],
                                        PetscReal vm_el[], SKFEMFailure *fail);
/* Integrals over one face of an element of the mesh element type `type` (faces as in mesh.h: L2, L3 in 2D; T3, Q4,
   Q9 in 3D): Xf[a*dim + d] are the coordinates (m; reference or current) of the face's nodes in the face's order;
   ADDS w[a] += int N_a dA (m^(dim-1); per unit thickness in 2D) and, when an != NULL, an[a*dim + i] += int N_a n_i dA
   with n the outward normal (the right-hand rule of the face order), quadrature point by point, so that a caller
   summing over faces into nodal arrays gets the same rounding whether it gathers or not (callers zero them). A uniform traction t gives the
   nodal forces w[a] t, a pressure p the forces -p an[a]. Exact for flat faces; for curved quadratic faces an is exact and w is integrated
   with the element's Gauss rule. */
PETSC_EXTERN PetscErrorCode SKFEMFaceIntegrals(SKElementType type, const PetscReal Xf[], PetscReal w[], PetscReal an[]);
/* Von Mises equivalent stress of a symmetric 3x3 tensor (row-major), Pa. */
PETSC_EXTERN PetscReal SKVonMises(const PetscReal sigma[]);
/* Raises the error for a failure (no-op for SK_FEM_OK): "element <id> (quadrature point q) ... J = .. at t = .. s"
   with a hint on what to change. element_id is the caller's (global) id of fail->element; time in s, or a negative
   value when there is no time (setup). Error code SK_ERR_INPUT for an inverted reference, PETSC_ERR_NOT_CONVERGED
   for an inverted deformed element. */
PETSC_EXTERN PetscErrorCode SKFEMFailureRaise(MPI_Comm comm, const SKFEMFailure *fail, PetscInt element_id, PetscReal time);

#endif
