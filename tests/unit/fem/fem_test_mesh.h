/* Test helper for the fem unit tests: structured box meshes of any built-in element type on [0,L]^dim with
   n cells per direction, optionally with randomly moved interior nodes (boundary nodes stay on the box). */
#ifndef STICKSLIP_FEM_TEST_MESH_H
#define STICKSLIP_FEM_TEST_MESH_H

#include <math.h>
#include <stickslip/fem.h>

static const char *const sk_test_types[] = {"T3", "Q4", "Q9", "T4", "H8", "H27"};
#define SK_TEST_NUM_TYPES 6

typedef struct {
  PetscInt dim, nnodes, nelem, nodes_per_elem;
  PetscReal *X;
  PetscInt *conn;
  PetscReal L; /* box edge length, m */
} SKTestMesh;

static inline PetscReal SKTestRand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0)) * 2.0 - 1.0;
}

/* Builds the mesh. Tensor types use the type's reference node table to place nodes on a (p n + 1)^dim grid; T3 splits
   squares in 2, T4 splits cubes into the 6 Kuhn tetrahedra (all positively oriented). perturb: interior nodes move by
   up to perturb * (grid spacing) per direction. */
static inline PetscErrorCode SKTestMeshCreate(SKBasis basis, PetscInt n, PetscReal L, PetscReal perturb, unsigned long long seed,
                                              SKTestMesh *m)
{
  SKBasisInfo info;
  const PetscReal *ref;
  PetscInt p, np, dim, ncell = 1;

  PetscFunctionBeginUser;
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(SKBasisGetTabulation(basis, &ref, NULL, NULL, NULL, NULL));
  dim               = info.dim;
  p                 = info.simplex ? 1 : info.degree;
  np                = p * n + 1;
  m->dim            = dim;
  m->L              = L;
  m->nodes_per_elem = info.nodes;
  m->nnodes         = dim == 2 ? np * np : np * np * np;
  for (PetscInt d = 0; d < dim; d++) ncell *= n;
  m->nelem = info.simplex ? (dim == 2 ? 2 : 6) * ncell : ncell;
  PetscCall(PetscMalloc2(m->nnodes * dim, &m->X, m->nelem * info.nodes, &m->conn));
  for (PetscInt i = 0; i < m->nnodes; i++) {
    PetscInt r         = i;
    PetscBool boundary = PETSC_FALSE;
    for (PetscInt d = 0; d < dim; d++) {
      const PetscInt g = r % np;
      r /= np;
      m->X[i * dim + d] = L * g / (np - 1);
      if (g == 0 || g == np - 1) boundary = PETSC_TRUE;
    }
    if (!boundary)
      for (PetscInt d = 0; d < dim; d++) m->X[i * dim + d] += perturb * L / (np - 1) * SKTestRand(&seed);
  }
  for (PetscInt c = 0; c < ncell; c++) {
    PetscInt cell[3], r = c;
    for (PetscInt d = 0; d < dim; d++) cell[d] = r % n, r /= n;
    if (!info.simplex) {
      for (PetscInt a = 0; a < info.nodes; a++) {
        PetscInt id = 0, stride = 1;
        for (PetscInt d = 0; d < dim; d++) {
          id += (p * cell[d] + (PetscInt)llround((ref[a * dim + d] + 1.0) * 0.5 * p)) * stride;
          stride *= np;
        }
        m->conn[c * info.nodes + a] = id;
      }
      continue;
    }
    /* corner node of the cell at offset bits (bit d = +1 in direction d) */
#define SK_CORNER(bits) \
  ((cell[0] + ((bits)&1)) + (cell[1] + (((bits) >> 1) & 1)) * np + (dim == 3 ? (cell[2] + (((bits) >> 2) & 1)) * np * np : 0))
    if (dim == 2) {
      const PetscInt tri[2][3] = {{0, 1, 3}, {0, 3, 2}};
      for (PetscInt k = 0; k < 2; k++)
        for (PetscInt a = 0; a < 3; a++) m->conn[(2 * c + k) * 3 + a] = SK_CORNER(tri[k][a]);
    } else {
      const PetscInt perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}}; /* even, then odd */
      for (PetscInt k = 0; k < 6; k++) {
        PetscInt v[4], bits = 0;
        v[0] = SK_CORNER(0);
        for (PetscInt s = 0; s < 3; s++) {
          bits |= 1 << perm[k][s];
          v[s + 1] = SK_CORNER(bits);
        }
        if (k >= 3) { /* odd permutation: swap to keep det > 0 */
          const PetscInt tmp = v[1];
          v[1]               = v[2];
          v[2]               = tmp;
        }
        for (PetscInt a = 0; a < 4; a++) m->conn[(6 * c + k) * 4 + a] = v[a];
      }
    }
#undef SK_CORNER
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscErrorCode SKTestMeshDestroy(SKTestMesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(m->X, m->conn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1 when node i lies on the boundary of the box. */
static inline PetscBool SKTestMeshOnBoundary(const SKTestMesh *m, PetscInt i)
{
  for (PetscInt d = 0; d < m->dim; d++)
    if (m->X[i * m->dim + d] < 1e-12 * m->L || m->X[i * m->dim + d] > (1 - 1e-12) * m->L) return PETSC_TRUE;
  return PETSC_FALSE;
}

#endif
