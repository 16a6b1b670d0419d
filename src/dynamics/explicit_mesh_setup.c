/* Explicit solver set-up on the mesh: the input's own node and side sets, the bodies (connected components), the
   reference-configuration check, watch points and the blocks (material and element type per block). */
#include "explicitimpl.h"
#include <string.h>

/* Root-level <nodeset name lower upper> (nodes in a box) and <sideset name axis value> (boundary faces on a plane),
   added to the replicated mesh before it is distributed; plus the implicit node set "all". */
PetscErrorCode SKExplicitAddInputSets(SKExplicit ex, SKNode root, SKMesh mesh)
{
  PetscInt nn, idx;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  for (SKNode item = SKNodeFirstChild(root, "nodeset"); item; item = SKNodeNextSibling(item, "nodeset")) {
    char name[SK_MESH_NAME_LEN];
    PetscReal lo[3], hi[3];
    PetscInt *sel, ns = 0;

    PetscCall(SKInputRequireString(ex->input, item, "name", name, sizeof(name)));
    PetscCall(SKExplicitReadVector(ex, item, "lower", 0, lo, NULL));
    PetscCall(SKExplicitReadVector(ex, item, "upper", 0, hi, NULL));
    PetscCall(SKMeshFindNodeSet(mesh, name, &idx));
    PetscCall(SKInputCheck(ex->input, item, idx < 0, "node set '%s' is already defined", name));
    PetscCall(PetscMalloc1(nn, &sel));
    for (PetscInt p = 0; p < nn; p++) {
      PetscBool in = PETSC_TRUE;
      for (PetscInt d = 0; d < ex->dim; d++) in = (PetscBool)(in && X[p * ex->dim + d] >= lo[d] && X[p * ex->dim + d] <= hi[d]);
      if (in) sel[ns++] = p;
    }
    /* an empty set is refused where a condition uses it, with that condition's line */
    PetscCall(SKMeshAddNodeSet(mesh, name, ns, sel));
    PetscCall(PetscFree(sel));
  }
  for (SKNode item = SKNodeFirstChild(root, "sideset"); item; item = SKNodeNextSibling(item, "sideset")) {
    char name[SK_MESH_NAME_LEN], axis[4];
    PetscReal value;

    PetscCall(SKInputRequireString(ex->input, item, "name", name, sizeof(name)));
    PetscCall(SKInputRequireString(ex->input, item, "axis", axis, sizeof(axis)));
    PetscCall(SKInputRequireReal(ex->input, item, "value", &value));
    PetscCall(SKInputCheck(ex->input, item, axis[0] >= 'x' && axis[0] < 'x' + ex->dim && !axis[1], "axis = '%s' is not x, y%s", axis,
                           ex->dim == 3 ? " or z" : ""));
    PetscCall(SKMeshFindSideSet(mesh, name, &idx));
    PetscCall(SKInputCheck(ex->input, item, idx < 0, "side set '%s' is already defined", name));
    { /* the mesh refuses an empty set without knowing the input: say where it was asked for */
      PetscErrorCode ierr;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SKMeshAddPlaneSets(mesh, name, axis[0] - 'x', value);
      PetscCall(PetscPopErrorHandler());
      if (ierr == SK_ERR_INPUT) { /* the faces of NURBS patches are not found on planes: they are named sets of their own */
        PetscInt nb;
        void *patch = NULL;
        PetscCall(SKMeshGetNumBlocks(mesh, &nb));
        for (PetscInt b = 0; b < nb && !patch; b++) PetscCall(SKMeshGetBlockCellData(mesh, b, &patch));
        PetscCall(SKInputError(ex->input, item, "side set '%s' is empty: no boundary face lies on the plane %c = %g%s", name, axis[0],
                               (double)value,
                               patch ? " (the faces of NURBS patches are side sets of their own, NAME_FACE: NAME_left, NAME_right, ... "
                                       "with NAME the patch's name; docs/input.md, NURBS patches)"
                                     : ""));
      }
      PetscCall(ierr);
    }
  }
  PetscCall(SKMeshFindNodeSet(mesh, "all", &idx));
  if (idx < 0) {
    PetscInt *all;
    PetscCall(PetscMalloc1(nn, &all));
    for (PetscInt p = 0; p < nn; p++) all[p] = p;
    PetscCall(SKMeshAddNodeSet(mesh, "all", nn, all));
    PetscCall(PetscFree(all));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Representative node of X's class in the union-find forest PARENT, with path halving. */
static PetscInt FindRoot(PetscInt parent[], PetscInt x)
{
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* The bodies of the (replicated) mesh: ex->body[natural element] = the smallest node number of its connected group of
   elements (elements sharing a node are connected). O(nodes + element nodes). */
PetscErrorCode SKExplicitFindBodies(SKExplicit ex, SKMesh mesh)
{
  PetscInt nn, ne, *parent;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, NULL));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  PetscCall(PetscMalloc1(nn, &parent));
  PetscCall(PetscMalloc1(ne, &ex->body));
  for (PetscInt i = 0; i < nn; i++) parent[i] = i;
  for (PetscInt e = 0; e < ne; e++) {
    SKElementType type;
    const SKElementTypeInfo *info;
    const PetscInt *conn;
    PetscCall(SKMeshGetElement(mesh, e, NULL, &type, &conn));
    PetscCall(SKElementTypeGetInfo(type, &info));
    for (PetscInt a = 1; a < info->num_nodes; a++) {
      const PetscInt r0 = FindRoot(parent, conn[0]), r1 = FindRoot(parent, conn[a]);
      if (r0 != r1) parent[PetscMax(r0, r1)] = PetscMin(r0, r1);
    }
  }
  for (PetscInt e = 0; e < ne; e++) {
    const PetscInt *conn;
    PetscCall(SKMeshGetElement(mesh, e, NULL, NULL, &conn));
    ex->body[e] = FindRoot(parent, conn[0]);
  }
  PetscCall(PetscFree(parent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every element of the reference mesh must have det(dX/dxi) > 0 at every quadrature point. */
PetscErrorCode SKExplicitCheckReference(SKExplicit ex, SKNode mesh_node, SKMesh mesh)
{
  PetscInt nb;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCall(SKMeshGetNodes(mesh, NULL, &X));
  for (PetscInt b = 0; b < nb; b++) {
    const char *name;
    PetscInt ne, first;
    const PetscInt *conn;
    SKBasis basis;
    SKFEMFailure fail;
    PetscErrorCode ierr;

    PetscCall(SKMeshGetBlock(mesh, b, &name, NULL, NULL, &ne, &first, &conn));
    PetscCall(SKBasisCreateForBlock(mesh, b, &basis));
    ierr = SKFEMCheckReference(basis, ne, conn, X, NULL, &fail); /* stops on a signal (long on large meshes) */
    PetscCall(SKBasisDestroy(&basis));
    PetscCall(ierr);
    PetscCall(
        SKInputCheck(ex->input, mesh_node, fail.kind == SK_FEM_OK,
                     "element %" PetscInt_FMT
                     " (block '%s') is inverted or degenerate in the reference mesh: det(dX/dxi) = %g at quadrature point %" PetscInt_FMT
                     "; check its node order (VTK convention, counter-clockwise in 2D) and its shape",
                     first + fail.element, name, (double)fail.det, fail.qp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <watch name point>: the node nearest to the point in the replicated mesh; watch[i].node holds its natural number
   until the mesh is distributed. */
PetscErrorCode SKExplicitReadWatchPoints(SKExplicit ex, SKNode root, SKMesh mesh)
{
  PetscInt nn, i = 0;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  ex->nwatch = SKNodeCountChildren(root, "watch");
  PetscCall(PetscCalloc1(ex->nwatch, &ex->watch));
  for (SKNode item = SKNodeFirstChild(root, "watch"); item; item = SKNodeNextSibling(item, "watch"), i++) {
    PetscReal p[3], best = PETSC_MAX_REAL;
    PetscCall(SKInputRequireString(ex->input, item, "name", ex->watch[i].name, sizeof(ex->watch[i].name)));
    for (PetscInt j = 0; j < i; j++)
      PetscCall(SKInputCheck(ex->input, item, strcmp(ex->watch[i].name, ex->watch[j].name), "watch point '%s' is defined twice",
                             ex->watch[i].name));
    PetscCall(SKExplicitReadVector(ex, item, "point", 0, p, NULL));
    ex->watch[i].node = -1;
    PetscCall(SKMeshLocatePatchPoint(mesh, p, &ex->watch[i].n, ex->watch[i].nodes, ex->watch[i].R, &best));
    if (ex->watch[i].n) continue; /* meshes of NURBS patches: the patch point nearest to the given one */
    best = PETSC_MAX_REAL;
    for (PetscInt q = 0; q < nn; q++) {
      PetscReal d2 = 0;
      for (PetscInt d = 0; d < ex->dim; d++) d2 += PetscSqr(X[q * ex->dim + d] - p[d]);
      if (d2 < best) best = d2, ex->watch[i].node = q;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitReadBlocks(SKExplicit ex, SKNode root)
{
  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(ex->mesh, &ex->nblocks));
  PetscCall(PetscCalloc1(ex->nblocks, &ex->blocks));
  for (SKNode item = SKNodeFirstChild(root, "block"); item;
       item        = SKNodeNextSibling(item, "block")) { /* any iterated mass: the lumped masses of the other blocks are kept apart */
    char mass[16] = "lumped";
    PetscCall(SKInputGetString(ex->input, item, "mass", mass, sizeof(mass), NULL));
    PetscCall(SKInputCheck(ex->input, item, !strcmp(mass, "lumped") || !strcmp(mass, "iterated"),
                           "mass = '%s' is not a mass of this solver (known: lumped, iterated)", mass));
    if (!strcmp(mass, "iterated")) ex->mass_iterated = PETSC_TRUE;
  }
  if (ex->mass_iterated) {
    PetscCall(PetscCalloc1(ex->nlocal, &ex->mass_other));
    PetscCall(PetscMalloc3(ex->ndof, &ex->mass_work[0], ex->ndof, &ex->mass_work[1], ex->ndof, &ex->mass_work[2]));
  }
  for (SKNode item = SKNodeFirstChild(root, "block"); item; item = SKNodeNextSibling(item, "block")) {
    char name[SK_MESH_NAME_LEN], type[64], state[32] = "", lumping[16] = "auto", mass[16] = "lumped", quadrature[16] = "full", list[1024];
    PetscReal E, nu, rho;
    PetscInt b;
    SKStressState ss = ex->dim == 3 ? SK_STRESS_STATE_3D : SK_STRESS_STATE_PLANE_STRAIN;
    PetscBool exists, found;
    SKLumping lump;
    SKElementType et;
    const SKElementTypeInfo *info;
    SKExplicitBlock *blk;
    SKFEMFailure fail;

    PetscCall(SKInputRequireString(ex->input, item, "name", name, sizeof(name)));
    PetscCall(SKMeshFindBlock(ex->mesh, name, &b));
    if (b < 0) {
      list[0] = 0;
      for (PetscInt k = 0; k < ex->nblocks; k++) {
        const char *bn;
        PetscCall(SKMeshGetBlock(ex->mesh, k, &bn, NULL, NULL, NULL, NULL, NULL));
        if (k) PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
        PetscCall(PetscStrlcat(list, bn, sizeof(list)));
      }
      PetscCall(SKInputError(ex->input, item, "unknown element block '%s' (the mesh has: %s)", name, list));
    }
    blk = &ex->blocks[b];
    PetscCall(SKInputCheck(ex->input, item, !blk->basis, "block '%s' has two materials", name));
    PetscCall(SKInputRequireString(ex->input, item, "material", type, sizeof(type)));
    PetscCall(SKMaterialTypeExists(type, &exists));
    if (!exists) {
      PetscCall(SKMaterialTypeList(list, sizeof(list)));
      PetscCall(SKInputError(ex->input, item, "unknown material '%s'; known: %s", type, list));
    }
    PetscCall(SKInputRequireReal(ex->input, item, "E", &E));
    PetscCall(SKInputCheckPositive(ex->input, item, "E", E));
    PetscCall(SKInputRequireReal(ex->input, item, "nu", &nu));
    PetscCall(SKInputCheck(ex->input, item, nu > -1.0 && nu < 0.5, "Poisson's ratio nu = %g is outside (-1, 0.5)", (double)nu));
    PetscCall(SKInputRequireReal(ex->input, item, "rho", &rho));
    PetscCall(SKInputCheckPositive(ex->input, item, "rho", rho));
    PetscCall(SKInputGetString(ex->input, item, "stress_state", state, sizeof(state), &found));
    if (found) {
      PetscInt k;
      for (k = 0; SKStressStateNames[k]; k++)
        if (!strcmp(state, SKStressStateNames[k])) break;
      PetscCall(SKInputCheck(ex->input, item, SKStressStateNames[k] != NULL, "unknown stress_state '%s' (3d, plane_strain, plane_stress)",
                             state));
      ss = (SKStressState)k;
      PetscCall(SKInputCheck(ex->input, item, (ss == SK_STRESS_STATE_3D) == (ex->dim == 3),
                             "stress_state '%s' does not fit a %" PetscInt_FMT "D mesh", state, ex->dim));
    }
    PetscCall(SKInputGetString(ex->input, item, "lumping", lumping, sizeof(lumping), NULL));
    PetscCall(SKMaterialCreate(type, ss, E, nu, rho, &blk->mat));
    PetscCall(SKMaterialSetFromXML(blk->mat, ex->input, item));
    PetscCall(SKMeshGetBlock(ex->mesh, b, NULL, &blk->id, &et, &blk->nelem, &blk->first, &blk->conn));
    PetscCall(SKElementTypeGetInfo(et, &info));
    blk->nodes = info->num_nodes;
    blk->order = info->order;
    PetscCall(SKBasisCreateForBlock(ex->mesh, b, &blk->basis));
    PetscCall(SKInputGetString(ex->input, item, "quadrature", quadrature, sizeof(quadrature), NULL));
    PetscCall(SKInputCheck(ex->input, item, !strcmp(quadrature, "full") || !strcmp(quadrature, "reduced"),
                           "quadrature = '%s' is not a rule of this solver (known: full, reduced)", quadrature));
    if (!strcmp(quadrature, "reduced")) { /* docs/theory.md, "Reduced quadrature of patches" */
      PetscBool patch, reduced;
      PetscCall(SKBasisHasMassOperator(blk->basis, &patch));
      PetscCall(SKInputCheck(ex->input, item, patch, "quadrature=\"reduced\" needs a NURBS patch block; block '%s' has %s elements", name,
                             info->name));
      PetscCall(SKBasisReduceQuadrature(blk->basis, &reduced));
      if (!reduced)
        PetscCall(PetscPrintf(ex->comm,
                              "warning: block '%s' keeps the full quadrature: the reduced rule (p points per direction) has zero-energy "
                              "modes for p = 1 and on a patch with a single span in two or more directions\n",
                              name));
    }
    PetscCall(SKBasisSetReference(blk->basis, blk->nelem, blk->conn, ex->X)); /* before any force: the critical step's too */
    lump         = !strcmp(lumping, "rowsum") ? SK_LUMPING_ROWSUM : !strcmp(lumping, "hrz") ? SK_LUMPING_HRZ : SK_LUMPING_AUTO;
    blk->lumping = lump;
    PetscCall(SKFEMLumpedMass(blk->basis, rho, lump, blk->nelem, blk->conn, ex->X, ex->mass, &fail));
    if (fail.kind != SK_FEM_OK) PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + fail.element], -1.0));
    PetscCall(SKInputGetString(ex->input, item, "mass", mass, sizeof(mass), NULL));
    if (!strcmp(mass, "iterated")) { /* docs/theory.md, "Higher-order mass of patches" */
      PetscBool has;
      PetscInt its = info->order - 1, deg;
      PetscCall(SKBasisHasMassOperator(blk->basis, &has));
      PetscCall(
          SKInputCheck(ex->input, item, has, "mass=\"iterated\" needs a NURBS patch block; block '%s' has %s elements", name, info->name));
      PetscCall(SKInputCheck(ex->input, item, strcmp(lumping, "hrz"),
                             "mass=\"iterated\" takes the row-sum lumped mass as its start, not lumping=\"hrz\""));
      deg = info->order;
      PetscCall(SKInputGetInt(ex->input, item, "mass_iterations", &its, NULL));
      PetscCall(SKInputCheck(ex->input, item, its >= 0 && its <= SK_EXPLICIT_MASS_MAX_ITERATIONS,
                             "mass_iterations = %" PetscInt_FMT " is outside 0..%d (the default is p - 1 = %" PetscInt_FMT ")", its,
                             SK_EXPLICIT_MASS_MAX_ITERATIONS, deg - 1));
      ex->mass_iterations = PetscMax(ex->mass_iterations, its);
      PetscCall(SKFEMMassOperatorCreate(blk->basis, rho, blk->nelem, blk->conn, ex->X, &blk->mop, &fail));
      if (fail.kind != SK_FEM_OK)
        PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + fail.element], -1.0));
    } else {
      PetscBool set;
      PetscInt its;
      PetscCall(SKInputGetInt(ex->input, item, "mass_iterations", &its, &set));
      PetscCall(SKInputCheck(ex->input, item, !set, "mass_iterations needs mass=\"iterated\""));
      if (ex->mass_iterated) PetscCall(SKFEMLumpedMass(blk->basis, rho, lump, blk->nelem, blk->conn, ex->X, ex->mass_other, &fail));
    }
  }
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const char *bn;
    PetscInt ne;
    PetscCall(SKMeshGetBlock(ex->mesh, b, &bn, NULL, NULL, &ne, NULL, NULL));
    PetscCall(SKInputCheck(ex->input, root, ex->blocks[b].basis != NULL,
                           "element block '%s' of the mesh has no material: add <block name=\"%s\" material=... E=... nu=... rho=.../>", bn,
                           bn));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
