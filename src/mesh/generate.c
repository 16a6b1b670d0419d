/* stickslip mesh: structured rectangle/box generators (any element type, graded) and sets of boundary faces on a
   coordinate plane. */
#include "mesh/meshimpl.h"

/* Node positions along one direction: CELLS cells of sizes h0 r^i from LOWER to UPPER, ORDER - 1 equally spaced
   nodes inside each cell; x[cells * order + 1]. */
static PetscErrorCode SKGradedPoints(PetscInt cells, PetscInt order, PetscReal lower, PetscReal upper, PetscReal ratio, PetscReal x[])
{
  const PetscReal length = upper - lower;
  PetscReal h, left = lower;

  PetscFunctionBegin;
  h = PetscAbsReal(ratio - 1) < 1e-14 ? length / cells : length * (ratio - 1) / (PetscPowRealInt(ratio, cells) - 1);
  for (PetscInt i = 0; i < cells; i++) {
    /* The last cell ends exactly at UPPER, so opposite faces are exactly planar whatever the round-off. */
    const PetscReal right = (i == cells - 1) ? upper : left + h;

    for (PetscInt k = 0; k < order; k++) x[i * order + k] = left + (right - left) * (PetscReal)k / (PetscReal)order;
    left = right;
    h *= ratio;
  }
  x[cells * order] = upper;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kuhn (Freudenthal) subdivision of the unit cell into dim! simplices: simplex s walks from corner 0 to corner
   (1,...,1) along the axes in the order of permutation s. The same split in every cell makes the mesh conforming. */
static const PetscInt sk_perm2[2][2] = {{0, 1}, {1, 0}};
static const PetscInt sk_perm3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* Corner offsets (0/1 per direction) of the simplices of the Kuhn split, oriented with positive volume. */
static PetscErrorCode SKKuhnSimplices(PetscInt dim, PetscInt *nsimplex, PetscInt offsets[6][4][3])
{
  PetscFunctionBegin;
  *nsimplex = dim == 2 ? 2 : 6;
  for (PetscInt s = 0; s < *nsimplex; s++) {
    const PetscInt *perm = dim == 2 ? sk_perm2[s] : sk_perm3[s];
    PetscReal edge[3][3] = {{0}}, det;

    for (PetscInt d = 0; d < 3; d++) offsets[s][0][d] = 0;
    for (PetscInt v = 1; v <= dim; v++) {
      for (PetscInt d = 0; d < 3; d++) offsets[s][v][d] = offsets[s][v - 1][d];
      offsets[s][v][perm[v - 1]] = 1;
    }
    for (PetscInt v = 1; v <= dim; v++)
      for (PetscInt d = 0; d < dim; d++) edge[v - 1][d] = (PetscReal)offsets[s][v][d];
    if (dim == 2)
      det = edge[0][0] * edge[1][1] - edge[0][1] * edge[1][0];
    else
      det = edge[0][0] * (edge[1][1] * edge[2][2] - edge[1][2] * edge[2][1]) -
            edge[0][1] * (edge[1][0] * edge[2][2] - edge[1][2] * edge[2][0]) +
            edge[0][2] * (edge[1][0] * edge[2][1] - edge[1][1] * edge[2][0]);
    if (det < 0) {
      for (PetscInt d = 0; d < 3; d++) {
        PetscInt t       = offsets[s][1][d];
        offsets[s][1][d] = offsets[s][2][d];
        offsets[s][2][d] = t;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateBox(MPI_Comm comm, SKElementType type, const PetscInt cells[], const PetscReal lower[], const PetscReal upper[],
                               const PetscReal ratio[], SKMesh *mesh)
{
  static const char *names[3][2] = {{"left", "right"}, {"bottom", "top"}, {"back", "front"}};
  const SKElementTypeInfo *info  = NULL;
  PetscInt dim, order, npoints[3] = {1, 1, 1}, stride[3], num_nodes = 1, num_cells = 1, nsimplex = 1, per_cell, *conn, offsets[6][4][3];
  PetscReal *x[3] = {NULL, NULL, NULL}, *coords;

  PetscFunctionBegin;
  PetscCall(SKMeshInitializePackage());
  PetscCall(SKElementTypeGetInfo(type, &info));
  dim   = info->dim;
  order = info->order;
  /* All checks before any allocation, so that a refused argument leaks nothing. */
  for (PetscInt d = 0; d < dim; d++) {
    PetscCheck(cells[d] >= 1, comm, SK_ERR_INPUT,
               "the number of cells in direction %" PetscInt_FMT " must be at least 1, not %" PetscInt_FMT, d, cells[d]);
    PetscCheck(upper[d] > lower[d], comm, SK_ERR_INPUT, "upper corner %g must exceed lower corner %g in direction %" PetscInt_FMT,
               (double)upper[d], (double)lower[d], d);
    PetscCheck(!ratio || ratio[d] > 0, comm, SK_ERR_INPUT, "grading ratio in direction %" PetscInt_FMT " must be positive, not %g", d,
               ratio ? (double)ratio[d] : 0.0);
  }
  for (PetscInt d = 0; d < dim; d++) {
    npoints[d] = cells[d] * order + 1;
    PetscCall(PetscMalloc1(npoints[d], &x[d]));
    PetscCall(SKGradedPoints(cells[d], order, lower[d], upper[d], ratio ? ratio[d] : 1.0, x[d]));
    num_nodes *= npoints[d];
    num_cells *= cells[d];
  }
  stride[0] = 1;
  stride[1] = npoints[0];
  stride[2] = npoints[0] * npoints[1];
  PetscCall(PetscMalloc1(num_nodes * dim, &coords));
  for (PetscInt v = 0; v < num_nodes; v++)
    for (PetscInt d = 0; d < dim; d++) coords[v * dim + d] = x[d][(v / stride[d]) % npoints[d]];

  if (info->simplex) PetscCall(SKKuhnSimplices(dim, &nsimplex, offsets));
  per_cell = nsimplex * info->num_nodes;
  PetscCall(PetscMalloc1(num_cells * per_cell, &conn));
  for (PetscInt c = 0; c < num_cells; c++) {
    PetscInt ijk[3] = {c % cells[0], (c / cells[0]) % cells[1], dim == 3 ? c / (cells[0] * cells[1]) : 0};

    for (PetscInt s = 0; s < nsimplex; s++)
      for (PetscInt a = 0; a < info->num_nodes; a++) {
        PetscInt v = 0;

        for (PetscInt d = 0; d < dim; d++) {
          /* Tensor types: reference coordinate -1/0/1 -> grid offset 0..order; simplices: Kuhn corner offset. */
          const PetscInt off =
              info->simplex ? offsets[s][a][d] : (PetscInt)PetscFloorReal((info->ref_coords[a * dim + d] + 1) * 0.5 * order + 0.5);

          v += (ijk[d] * order + off) * stride[d];
        }
        conn[c * per_cell + s * info->num_nodes + a] = v;
      }
  }
  PetscCall(SKMeshCreate(comm, dim, num_nodes, coords, mesh));
  PetscCall(SKMeshAddBlock(*mesh, "body", 1, type, num_cells * nsimplex, conn));
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(SKMeshAddPlaneSets(*mesh, names[d][0], d, lower[d]));
    PetscCall(SKMeshAddPlaneSets(*mesh, names[d][1], d, upper[d]));
  }
  PetscCall(PetscFree(conn));
  PetscCall(PetscFree(coords));
  for (PetscInt d = 0; d < dim; d++) PetscCall(PetscFree(x[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshAddPlaneSets(SKMesh mesh, const char name[], PetscInt d, PetscReal value)
{
  PetscInt nb, count = 0, nnodes = 0, *elements, *faces, *nodes, maxfn = 0;
  const PetscInt *belem, *bface;
  PetscReal lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL}, size = 0,
            tol;

  PetscFunctionBegin;
  PetscCheck(d >= 0 && d < mesh->dim, mesh->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "direction %" PetscInt_FMT " is not one of the mesh's %" PetscInt_FMT, d, mesh->dim);
  PetscCheck(!mesh->distributed, mesh->comm, PETSC_ERR_ARG_WRONGSTATE, "add sets before SKMeshDistribute()");
  for (PetscInt v = 0; v < mesh->num_nodes; v++)
    for (PetscInt k = 0; k < mesh->dim; k++) {
      lo[k] = PetscMin(lo[k], mesh->coords[v * mesh->dim + k]);
      hi[k] = PetscMax(hi[k], mesh->coords[v * mesh->dim + k]);
    }
  for (PetscInt k = 0; k < mesh->dim; k++) size = PetscMax(size, hi[k] - lo[k]);
  /* Coordinates generated or read in double precision agree to a few ulps of the mesh size. */
  tol = 1e-10 * size;
  for (PetscInt b = 0; b < mesh->num_blocks; b++) { /* the most nodes of a face */
    const SKElementTypeInfo *info;
    PetscCall(SKElementTypeGetInfo(mesh->blocks[b].type, &info));
    maxfn = PetscMax(maxfn, info->num_face_nodes);
  }
  PetscCall(SKMeshGetBoundaryFaces(mesh, &nb, &belem, &bface));
  PetscCall(PetscMalloc1(nb, &elements));
  PetscCall(PetscMalloc1(nb, &faces));
  PetscCall(PetscMalloc1(nb * maxfn, &nodes));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt *fn = nodes + nnodes, n; /* kept when the face is on the plane */
    PetscBool on = PETSC_TRUE;

    PetscCall(SKMeshGetFaceNodes(mesh, belem[i], bface[i], &n, fn));
    for (PetscInt k = 0; k < n; k++) on = (PetscBool)(on && PetscAbsReal(mesh->coords[fn[k] * mesh->dim + d] - value) <= tol);
    if (!on) continue;
    elements[count] = belem[i];
    faces[count++]  = bface[i];
    nnodes += n;
  }
  if (!count) { /* refused (the caller may say where the set was asked for): nothing left behind */
    PetscCall(PetscFree(elements));
    PetscCall(PetscFree(faces));
    PetscCall(PetscFree(nodes));
  }
  PetscCheck(count > 0, mesh->comm, SK_ERR_INPUT, "set '%s': no boundary face lies on the plane x[%" PetscInt_FMT "] = %g", name, d,
             (double)value);
  PetscCall(SKMeshAddNodeSet(mesh, name, nnodes, nodes));
  PetscCall(SKMeshAddSideSet(mesh, name, count, elements, faces));
  PetscCall(PetscFree(elements));
  PetscCall(PetscFree(faces));
  PetscCall(PetscFree(nodes));
  PetscFunctionReturn(PETSC_SUCCESS);
}
