/* Element bases: the Lagrange bases of the mesh element types (node order and reference coordinates from the mesh
   module's type table, VTK order) tabulated at full-integration Gauss points, shell bases that bring their own
   geometry, and the per-element geometry entry points. */
#include <math.h>
#include "femimpl.h"

/* 1D Lagrange polynomial of degree p (nodes -1, [0,] 1) that is 1 at node coordinate c, and its derivative, at x. */
void SKLagrange1D(PetscInt p, PetscReal c, PetscReal x, PetscReal *L, PetscReal *dL)
{
  const PetscReal nodes1[] = {-1, 1}, nodes2[] = {-1, 0, 1}, *nodes = p == 1 ? nodes1 : nodes2;
  PetscReal val = 1.0, der = 0.0;

  for (PetscInt m = 0; m <= p; m++) {
    if (nodes[m] == c) continue;
    const PetscReal den = c - nodes[m];
    der                 = der * (x - nodes[m]) / den + val / den; /* product rule, accumulated */
    val *= (x - nodes[m]) / den;
  }
  *L  = val;
  *dL = der;
}

/* Basis values N[a] and reference gradients dN[a*dim + k] of a Lagrange basis at xi. */
void SKLagrangeBasis(const SKElementTypeInfo *s, const PetscReal xi[], PetscReal N[], PetscReal dN[])
{
  const PetscInt dim = s->dim;
  if (s->simplex) { /* linear: barycentric coordinates */
    N[0] = 1.0;
    for (PetscInt k = 0; k < dim; k++) {
      N[0] -= xi[k];
      dN[k] = -1.0;
    }
    for (PetscInt a = 1; a <= dim; a++) {
      N[a] = xi[a - 1];
      for (PetscInt k = 0; k < dim; k++) dN[a * dim + k] = (k == a - 1) ? 1.0 : 0.0;
    }
    return;
  }
  for (PetscInt a = 0; a < s->num_nodes; a++) { /* tensor product of 1D Lagrange polynomials */
    PetscReal L[3], dL[3];
    for (PetscInt d = 0; d < dim; d++) SKLagrange1D(s->order, s->ref_coords[a * dim + d], xi[d], &L[d], &dL[d]);
    N[a] = 1.0;
    for (PetscInt d = 0; d < dim; d++) N[a] *= L[d];
    for (PetscInt k = 0; k < dim; k++) {
      dN[a * dim + k] = 1.0;
      for (PetscInt d = 0; d < dim; d++) dN[a * dim + k] *= (d == k) ? dL[d] : L[d];
    }
  }
}

PetscErrorCode SKBasisCreateFromType(SKElementType type, SKBasis *basis)
{
  const SKElementTypeInfo *s;
  SKBasis t;
  PetscInt dim, nodes, nq, rule;

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &s));
  PetscCheck(!s->simplex || s->order == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "Element type %s: only linear simplices have a basis", s->name);
  dim   = s->dim;
  nodes = s->num_nodes;
  PetscCheck(nodes <= SK_ELEMENT_MAX_NODES && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_SUP, "Element type %s is too large", s->name);
  /* full integration: order + 1 Gauss points per direction; one point for the constant-gradient simplices */
  rule = s->simplex ? 1 : s->order + 1;
  if (s->simplex)
    PetscCall(SKQuadratureSimplex(dim, rule, &nq, NULL, NULL));
  else
    nq = dim == 2 ? rule * rule : rule * rule * rule;
  PetscCall(PetscNew(&t));
  PetscCall(PetscStrncpy(t->name, s->name, sizeof(t->name)));
  t->shell             = PETSC_FALSE;
  t->type              = type;
  t->dim               = dim;
  t->nodes             = nodes;
  t->nq                = nq;
  t->degree            = s->order;
  t->vtk_cell_type     = s->vtk_type;
  t->simplex           = s->simplex;
  t->reference_measure = s->simplex ? (dim == 2 ? 0.5 : 1.0 / 6.0) : (dim == 2 ? 4.0 : 8.0);
  PetscCall(PetscMalloc5(nodes * dim, &t->ref, nq * dim, &t->xq, nq, &t->wq, nq * nodes, &t->N, nq * nodes * dim, &t->dN));
  PetscCall(PetscArraycpy(t->ref, s->ref_coords, nodes * dim));
  if (s->simplex)
    PetscCall(SKQuadratureSimplex(dim, rule, &nq, t->xq, t->wq));
  else
    PetscCall(SKQuadratureTensor(dim, rule, t->xq, t->wq));
  for (PetscInt q = 0; q < nq; q++) SKLagrangeBasis(s, t->xq + q * dim, t->N + q * nodes, t->dN + q * nodes * dim);
  *basis = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisCreate(const char name[], SKBasis *basis)
{
  SKElementType type;
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(SKElementTypeFromName(name, &type, &found));
  if (!found) {
    char known[512];
    PetscCall(SKElementTypeList(known, sizeof(known)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown element type '%s'; known: %s", name, known);
  }
  PetscCall(SKBasisCreateFromType(type, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisCreateShell(const char name[], PetscInt dim, PetscInt nodes, PetscInt qpoints, PetscInt vtk_cell_type,
                                  SKBasisGeometryFn geometry, void *ctx, SKBasis *basis)
{
  SKBasis t;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Element dimension %" PetscInt_FMT ": need 2 or 3", dim);
  PetscCheck(nodes >= 1 && nodes <= SK_ELEMENT_MAX_NODES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Element with %" PetscInt_FMT " nodes: at most %d", nodes, SK_ELEMENT_MAX_NODES);
  PetscCheck(qpoints >= 1 && qpoints <= SK_ELEMENT_MAX_QP, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Element with %" PetscInt_FMT " quadrature points: at most %d", qpoints, SK_ELEMENT_MAX_QP);
  PetscCheck(geometry, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "A shell basis needs a geometry function");
  PetscCall(PetscNew(&t));
  PetscCall(PetscStrncpy(t->name, name, sizeof(t->name)));
  t->shell         = PETSC_TRUE;
  t->dim           = dim;
  t->nodes         = nodes;
  t->nq            = qpoints;
  t->vtk_cell_type = vtk_cell_type;
  t->geometry      = geometry;
  t->ctx           = ctx;
  *basis           = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisShellSetContextDestroy(SKBasis basis, PetscErrorCode (*destroy)(void *))
{
  PetscFunctionBegin;
  PetscCheck(basis->shell, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "basis %s is not a shell basis", basis->name);
  basis->ctx_destroy = destroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisCreateForBlock(SKMesh mesh, PetscInt b, SKBasis *basis)
{
  const SKElementTypeInfo *info;
  SKElementType type;

  PetscFunctionBegin;
  PetscCall(SKMeshGetBlock(mesh, b, NULL, NULL, &type, NULL, NULL, NULL));
  PetscCall(SKElementTypeGetInfo(type, &info));
  if (info->create_basis)
    PetscCall(info->create_basis(mesh, b, basis));
  else
    PetscCall(SKBasisCreateFromType(type, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisGetContext(SKBasis basis, void **ctx)
{
  PetscFunctionBegin;
  *ctx = basis->ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisDestroy(SKBasis *basis)
{
  PetscFunctionBegin;
  if (!*basis) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*basis)->ctx_destroy) PetscCall((*basis)->ctx_destroy((*basis)->ctx));
  if ((*basis)->ref) PetscCall(PetscFree5((*basis)->ref, (*basis)->xq, (*basis)->wq, (*basis)->N, (*basis)->dN));
  PetscCall(PetscFree(*basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisSetReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[])
{
  PetscFunctionBegin;
  if (basis->set_reference) PetscCall(basis->set_reference(basis, nelem, conn, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisReduceQuadrature(SKBasis basis, PetscBool *reduced)
{
  PetscFunctionBegin;
  *reduced = PETSC_FALSE;
  if (basis->reduce_quadrature) PetscCall(basis->reduce_quadrature(basis, reduced));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisGetInfo(SKBasis basis, SKBasisInfo *info)
{
  PetscFunctionBegin;
  info->name              = basis->name;
  info->dim               = basis->dim;
  info->nodes             = basis->nodes;
  info->qpoints           = basis->nq;
  info->degree            = basis->degree;
  info->vtk_cell_type     = basis->vtk_cell_type;
  info->simplex           = basis->simplex;
  info->reference_measure = basis->reference_measure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisGetTabulation(SKBasis basis, const PetscReal **ref, const PetscReal **xq, const PetscReal **wq, const PetscReal **N,
                                    const PetscReal **dN)
{
  PetscFunctionBegin;
  if (ref) *ref = basis->ref;
  if (xq) *xq = basis->xq;
  if (wq) *wq = basis->wq;
  if (N) *N = basis->N;
  if (dN) *dN = basis->dN;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisEvaluate(SKBasis basis, const PetscReal xi[], PetscReal N[], PetscReal dN[])
{
  const SKElementTypeInfo *s;

  PetscFunctionBegin;
  PetscCheck(!basis->shell, PETSC_COMM_SELF, PETSC_ERR_SUP, "Basis %s is a shell: it has no reference basis to evaluate", basis->name);
  PetscCall(SKElementTypeGetInfo(basis->type, &s));
  SKLagrangeBasis(s, xi, N, dN);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisGeometryBatch(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[], PetscReal dNdX[],
                                    PetscReal wdetJ[], unsigned *inverted)
{
  PetscFunctionBegin;
  PetscCheck(q >= 0 && q < basis->nq, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Quadrature point %" PetscInt_FMT " of %" PetscInt_FMT, q,
             basis->nq);
  *inverted = SKBasisGeometry(basis, basis->dim, basis->nodes, q, elem, X, N, dNdX, wdetJ);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBasisEvaluateElement(SKBasis basis, PetscInt e, const PetscReal Xe[], PetscReal N[], PetscReal dNdX[], PetscReal wdetJ[],
                                      PetscInt *bad_qp)
{
  const PetscInt dim = basis->dim, nodes = basis->nodes;
  PetscReal X[SK_ELEMENT_MAX_NODES * 3 * SK_LANES], Nb[SK_ELEMENT_MAX_NODES * SK_LANES], G[SK_ELEMENT_MAX_NODES * 3 * SK_LANES],
      w[SK_LANES];
  PetscInt elem[SK_LANES];

  PetscFunctionBegin;
  *bad_qp = -1;
  for (PetscInt l = 0; l < SK_LANES; l++) elem[l] = e; /* every lane the same element: the geometry is valid in all */
  for (PetscInt k = 0; k < nodes * dim; k++)
    for (PetscInt l = 0; l < SK_LANES; l++) X[k * SK_LANES + l] = Xe[k];
  for (PetscInt q = 0; q < basis->nq; q++) {
    unsigned bad = SKBasisGeometry(basis, dim, nodes, q, elem, X, Nb, G, w);
    if (bad && *bad_qp < 0) *bad_qp = q;
    if (N)
      for (PetscInt a = 0; a < nodes; a++) N[q * nodes + a] = Nb[a * SK_LANES];
    for (PetscInt k = 0; k < nodes * dim; k++) dNdX[q * nodes * dim + k] = G[k * SK_LANES];
    wdetJ[q] = w[0];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
