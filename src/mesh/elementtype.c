/* stickslip mesh: the element type table (VTK node order, local faces, reference coordinates) and the
   Jacobian kernels used to find inverted elements. */
#include "mesh/meshimpl.h"
#include "shared/registry.h"

static const PetscReal t3_ref[] = {0, 0, 1, 0, 0, 1};
static const PetscInt t3_face[] = {0, 1, 1, 2, 2, 0};

static const PetscReal q4_ref[] = {-1, -1, 1, -1, 1, 1, -1, 1};
static const PetscInt q4_face[] = {0, 1, 1, 2, 2, 3, 3, 0};

static const PetscReal q9_ref[] = {-1, -1, 1, -1, 1, 1, -1, 1, 0, -1, 1, 0, 0, 1, -1, 0, 0, 0};
static const PetscInt q9_face[] = {0, 1, 4, 1, 2, 5, 2, 3, 6, 3, 0, 7};

static const PetscReal t4_ref[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
static const PetscInt t4_face[] = {0, 1, 3, 1, 2, 3, 0, 3, 2, 0, 2, 1};

static const PetscReal h8_ref[] = {-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1};
static const PetscInt h8_face[] = {0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 0, 4, 7, 3, 0, 3, 2, 1, 4, 5, 6, 7};

/* Checked against python3-vtk9: vtkTriQuadraticHexahedron().GetParametricCoords() (mapped from [0,1] to [-1,1]). */
static const PetscReal h27_ref[] = {-1, -1, -1, 1, -1, -1, 1, 1,  -1, -1, 1, -1, -1, -1, 1,  1, -1, 1, 1, 1, 1, -1, 1, 1, /* corners */
                                    0,  -1, -1, 1, 0,  -1, 0, 1,  -1, -1, 0, -1,                       /* edges 8-11, zeta = -1 */
                                    0,  -1, 1,  1, 0,  1,  0, 1,  1,  -1, 0, 1,                        /* edges 12-15, zeta = +1 */
                                    -1, -1, 0,  1, -1, 0,  1, 1,  0,  -1, 1, 0,                        /* edges 16-19, vertical */
                                    -1, 0,  0,  1, 0,  0,  0, -1, 0,  0,  1, 0,  0,  0,  -1, 0, 0,  1, /* face centres 20-25 */
                                    0,  0,  0};
static const PetscInt h27_face[] = {0, 1, 5, 4, 8,  17, 12, 16, 22, 1, 2, 6, 5, 9,  18, 13, 17, 21, 2, 3, 7, 6, 10, 19, 14, 18, 23,
                                    0, 4, 7, 3, 16, 15, 19, 11, 20, 0, 3, 2, 1, 11, 10, 9,  8,  24, 4, 5, 6, 7, 12, 13, 14, 15, 25};

static const SKElementTypeInfo sk_element_types[SK_ELEMENT_NUM_TYPES] = {
    {"T3", 2, 3, 3, 1, PETSC_TRUE, 5, 3, "L2", 2, 2, t3_face, t3_ref, 0, NULL},
    {"Q4", 2, 4, 4, 1, PETSC_FALSE, 9, 4, "L2", 2, 2, q4_face, q4_ref, 0, NULL},
    {"Q9", 2, 9, 4, 2, PETSC_FALSE, 28, 4, "L3", 3, 2, q9_face, q9_ref, 0, NULL},
    {"T4", 3, 4, 4, 1, PETSC_TRUE, 10, 4, "T3", 3, 3, t4_face, t4_ref, 0, NULL},
    {"H8", 3, 8, 8, 1, PETSC_FALSE, 12, 6, "Q4", 4, 4, h8_face, h8_ref, 0, NULL},
    {"H27", 3, 27, 8, 2, PETSC_FALSE, 29, 6, "Q9", 9, 4, h27_face, h27_ref, 0, NULL},
};

/* The registry (shared/registry.h): name -> description, the id of a type being its index, so the built-in types are
   registered first, in the order of SKElementType; cell types registered later (Bezier cells) follow. The
   descriptions belong to their registrants. */
static PetscErrorCode SKElementTypeRegisterBuiltin(void);
static SKRegistry SKElementTypes = SK_REGISTRY_INITIALIZER("element type", 63, SKElementTypeRegisterBuiltin);

static PetscErrorCode SKElementTypeRegisterBuiltin(void)
{
  PetscFunctionBegin;
  for (int t = 0; t < SK_ELEMENT_NUM_TYPES; t++)
    PetscCall(SKRegistryAdd(&SKElementTypes, sk_element_types[t].name, &sk_element_types[t], NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKElementTypeRegister(const SKElementTypeInfo *info, SKElementType *type)
{
  PetscBool found = PETSC_FALSE;
  PetscInt id;

  PetscFunctionBegin;
  PetscCall(SKElementTypeFromName(info->name, type, &found));
  if (found) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(info->dim == 2 || info->dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "cell type %s: dimension %" PetscInt_FMT,
             info->name, info->dim);
  PetscCheck(info->num_corners >= 1 && info->num_corners <= info->num_nodes && info->num_face_corners <= 4, PETSC_COMM_SELF,
             PETSC_ERR_ARG_OUTOFRANGE, "cell type %s: %" PetscInt_FMT " corners of %" PetscInt_FMT " nodes, %" PetscInt_FMT " face corners",
             info->name, info->num_corners, info->num_nodes, info->num_face_corners);
  PetscCheck(info->num_faces <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "cell type %s: %" PetscInt_FMT " faces, at most 8 (side sets)", info->name, info->num_faces);
  PetscCall(SKRegistryAdd(&SKElementTypes, info->name, info, NULL, &id));
  *type = (SKElementType)id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKElementTypeFromName(const char name[], SKElementType *type, PetscBool *found)
{
  PetscInt id;

  PetscFunctionBegin;
  PetscCall(SKRegistryFind(&SKElementTypes, name, &id));
  *found = id >= 0 ? PETSC_TRUE : PETSC_FALSE;
  if (id >= 0) *type = (SKElementType)id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKElementTypeGetInfo(SKElementType type, const SKElementTypeInfo **info)
{
  const void *data;

  PetscFunctionBegin;
  PetscCall(SKRegistryGet(&SKElementTypes, (PetscInt)type, NULL, &data, NULL));
  *info = (const SKElementTypeInfo *)data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKElementTypeList(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryList(&SKElementTypes, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Derivative at XI of the 1D Lagrange polynomial of ORDER (nodes -1, [0,] 1) that is 1 at node S. */
static PetscReal SKLagrangeDerivative(PetscInt order, PetscReal s, PetscReal xi, PetscReal *value)
{
  const PetscReal nodes[2][3] = {{-1, 1, 0}, {-1, 0, 1}};
  const PetscReal *x          = nodes[order - 1];
  PetscReal v = 1, d = 0;

  /* Product rule over the factors (xi - x_b) / (s - x_b), b != s. */
  for (PetscInt b = 0; b <= order; b++) {
    if (x[b] == s) continue;
    d = d * (xi - x[b]) / (s - x[b]) + v / (s - x[b]);
    v = v * (xi - x[b]) / (s - x[b]);
  }
  *value = v;
  return d;
}

PetscErrorCode SKElementTypeJacobian(SKElementType type, const PetscReal coords[], const PetscReal xi[], PetscReal *det_j)
{
  const SKElementTypeInfo *info = NULL;
  PetscReal jac[3][3]           = {{0}};

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &info));
  PetscCheck(info->ref_coords, PETSC_COMM_SELF, PETSC_ERR_SUP, "cell type %s has no node table: use its basis for its Jacobian",
             info->name);
  const PetscInt dim = info->dim;
  for (PetscInt a = 0; a < info->num_nodes; a++) {
    PetscReal grad[3];

    if (info->simplex) {
      /* Linear simplex: N_0 = 1 - sum xi, N_i = xi_i; the gradient is constant. */
      for (PetscInt j = 0; j < dim; j++) grad[j] = (a == 0) ? -1.0 : (a == j + 1 ? 1.0 : 0.0);
    } else {
      PetscReal val[3], der[3];

      for (PetscInt j = 0; j < dim; j++) der[j] = SKLagrangeDerivative(info->order, info->ref_coords[a * dim + j], xi[j], &val[j]);
      for (PetscInt j = 0; j < dim; j++) {
        grad[j] = der[j];
        for (PetscInt k = 0; k < dim; k++)
          if (k != j) grad[j] *= val[k];
      }
    }
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) jac[i][j] += coords[a * dim + i] * grad[j];
  }
  if (dim == 2)
    *det_j = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0];
  else
    *det_j = jac[0][0] * (jac[1][1] * jac[2][2] - jac[1][2] * jac[2][1]) - jac[0][1] * (jac[1][0] * jac[2][2] - jac[1][2] * jac[2][0]) +
             jac[0][2] * (jac[1][0] * jac[2][1] - jac[1][1] * jac[2][0]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKElementTypeCentreJacobian(SKElementType type, const PetscReal coords[], PetscReal *det_j)
{
  const PetscReal centre[3] = {0, 0, 0};

  PetscFunctionBegin;
  /* simplices are linear here: det J is the same everywhere */
  PetscCall(SKElementTypeJacobian(type, coords, centre, det_j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gauss-Legendre points on [-1, 1]: 2 points (exact to degree 3) and 3 points (degree 5). */
static const PetscReal sk_gauss2[] = {-0.57735026918962576451, 0.57735026918962576451};
static const PetscReal sk_gauss3[] = {-0.77459666924148337704, 0.0, 0.77459666924148337704};

PetscErrorCode SKElementTypeMinJacobian(SKElementType type, const PetscReal coords[], PetscReal *det_j, PetscReal xi_min[])
{
  const SKElementTypeInfo *info = NULL;
  PetscReal xi[3]               = {0, 0, 0}, det;

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &info));
  const PetscInt dim = info->dim;
  /* the nodes (a collapsed Q4 has det J = 0 only at its doubled corner) and the centre */
  PetscCall(SKElementTypeJacobian(type, coords, xi, det_j));
  for (PetscInt d = 0; d < dim; d++) xi_min[d] = xi[d];
  for (PetscInt a = 0; a < info->num_nodes && !info->simplex; a++) {
    PetscCall(SKElementTypeJacobian(type, coords, info->ref_coords + a * dim, &det));
    if (det < *det_j) {
      *det_j = det;
      for (PetscInt d = 0; d < dim; d++) xi_min[d] = info->ref_coords[a * dim + d];
    }
  }
  /* the tensor Gauss points of the element's rule: order + 1 per direction */
  if (!info->simplex) {
    const PetscInt ng = info->order + 1, npts = dim == 2 ? ng * ng : ng * ng * ng;
    const PetscReal *g = ng == 2 ? sk_gauss2 : sk_gauss3;
    for (PetscInt p = 0; p < npts; p++) {
      for (PetscInt d = 0, r = p; d < dim; d++, r /= ng) xi[d] = g[r % ng];
      PetscCall(SKElementTypeJacobian(type, coords, xi, &det));
      if (det < *det_j) {
        *det_j = det;
        for (PetscInt d = 0; d < dim; d++) xi_min[d] = xi[d];
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
