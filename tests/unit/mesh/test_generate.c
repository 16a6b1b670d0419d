/* Unit test of the structured generators for every element type: counts, grading, no inverted element, the volume
   of the box, boundary faces, the automatic sets, the node-to-element map, and refusal of bad arguments. */
#include <stickslip/mesh.h>

/* Coordinates come from a few multiplications and sums of numbers of order 1: 1e-12 relative is far above round-off
   and far below any real error (a wrong node moves by a cell size, 0.1 or more here). */
#define TOL 1e-12

static PetscErrorCode CheckBox(SKElementType type)
{
  const PetscInt cells[3]  = {3, 2, 2};
  const PetscReal lower[3] = {0, -1, 0}, upper[3] = {2, 1, 0.5}, ratio[3] = {1.3, 0.8, 1.0};
  const SKElementTypeInfo *info;
  SKMesh mesh;
  PetscInt dim, p, nn, ne, want_nodes = 1, want_cells = 1, per_cell, nb, bad, want_boundary, nsets;
  const PetscReal *x;
  const PetscInt *belem, *bface, *off, *elist;
  PetscReal volume = 0, want_volume = 1, det, refmeasure;

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(type, &info));
  dim        = info->dim;
  p          = info->order;
  per_cell   = info->simplex ? (dim == 2 ? 2 : 6) : 1;
  refmeasure = info->simplex ? (dim == 2 ? 0.5 : 1.0 / 6.0) : (dim == 2 ? 4.0 : 8.0);
  PetscCall(SKMeshCreateBox(PETSC_COMM_SELF, type, cells, lower, upper, ratio, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &nn, &x));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  for (PetscInt d = 0; d < dim; d++) {
    want_nodes *= cells[d] * p + 1;
    want_cells *= cells[d];
    want_volume *= upper[d] - lower[d];
  }
  PetscCheck(nn == want_nodes && ne == want_cells * per_cell, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: %" PetscInt_FMT " nodes, %" PetscInt_FMT " elements", info->name, nn, ne);

  /* Grading along x on the first row of nodes: consecutive cell sizes in ratio 1.3, ending at upper. */
  for (PetscInt i = 1; i < cells[0]; i++) {
    const PetscReal h0 = x[(i * p) * dim] - x[((i - 1) * p) * dim], h1 = x[((i + 1) * p) * dim] - x[(i * p) * dim];

    PetscCheck(PetscAbsReal(h1 / h0 - ratio[0]) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: grading %g", info->name, (double)(h1 / h0));
  }
  PetscCheck(x[(cells[0] * p) * dim] == upper[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: last x node %g", info->name,
             (double)x[(cells[0] * p) * dim]);

  /* Every element is straight-sided (mid nodes in the middle), so det J is constant and sums to the volume. */
  PetscCall(SKMeshFindInvertedElement(mesh, &bad, &det));
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: element %" PetscInt_FMT " inverted", info->name, bad);
  for (PetscInt e = 0; e < ne; e++) {
    const PetscInt *nodes;
    PetscReal xe[27 * 3];

    PetscCall(SKMeshGetElement(mesh, e, NULL, NULL, &nodes));
    for (PetscInt a = 0; a < info->num_nodes; a++)
      for (PetscInt d = 0; d < dim; d++) xe[a * dim + d] = x[nodes[a] * dim + d];
    PetscCall(SKElementTypeCentreJacobian(type, xe, &det));
    volume += det * refmeasure;
  }
  PetscCheck(PetscAbsReal(volume - want_volume) < TOL * want_volume, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: volume %g, expected %g",
             info->name, (double)volume, (double)want_volume);

  /* Boundary faces: the cell faces on the box surface, each split in 2 triangles for T4. */
  PetscCall(SKMeshGetBoundaryFaces(mesh, &nb, &belem, &bface));
  want_boundary = dim == 2 ? 2 * (cells[0] + cells[1])
                           : 2 * (cells[0] * cells[1] + cells[1] * cells[2] + cells[0] * cells[2]) * (info->simplex ? 2 : 1);
  PetscCheck(nb == want_boundary, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " boundary faces, expected %" PetscInt_FMT,
             info->name, nb, want_boundary);

  /* Sets: each plane has the nodes and sides of its face of the box, and nothing else. */
  PetscCall(SKMeshGetNumSideSets(mesh, &nsets));
  PetscCheck(nsets == 2 * dim, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " side sets", info->name, nsets);
  for (PetscInt s = 0; s < 2 * dim; s++) {
    const PetscInt d      = s / 2;
    const PetscReal plane = s % 2 ? upper[d] : lower[d];
    const char *name, *name2;
    PetscInt n, global, want_n = 1, want_sides = 1, index;
    const PetscInt *nodes, *elements, *faces;

    for (PetscInt k = 0; k < dim; k++)
      if (k != d) {
        want_n *= cells[k] * p + 1;
        want_sides *= cells[k];
      }
    if (info->simplex && dim == 3) want_sides *= 2;
    PetscCall(SKMeshGetNodeSet(mesh, s, &name, &n, &nodes, &global));
    PetscCheck(n == want_n && global == n, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: node set %s has %" PetscInt_FMT " nodes, expected %" PetscInt_FMT, info->name, name, n, want_n);
    for (PetscInt i = 0; i < n; i++)
      PetscCheck(x[nodes[i] * dim + d] == plane, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node set %s: node off the plane", info->name, name);
    PetscCall(SKMeshGetSideSet(mesh, s, &name2, &n, &elements, &faces, NULL));
    PetscCheck(!strcmp(name, name2) && n == want_sides, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: side set %s has %" PetscInt_FMT " sides, expected %" PetscInt_FMT, info->name, name2, n, want_sides);
    for (PetscInt i = 0; i < n; i++) {
      PetscInt fn[9], nf;

      PetscCall(SKMeshGetFaceNodes(mesh, elements[i], faces[i], &nf, fn));
      for (PetscInt k = 0; k < nf; k++)
        PetscCheck(x[fn[k] * dim + d] == plane, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: side set %s: face node off the plane", info->name,
                   name);
    }
    PetscCall(SKMeshFindSideSet(mesh, name, &index));
    PetscCheck(index == s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "find side set %s", name);
  }
  {
    static const char *names[6] = {"left", "right", "bottom", "top", "back", "front"};

    for (PetscInt s = 0; s < 2 * dim; s++) {
      PetscInt index;

      PetscCall(SKMeshFindNodeSet(mesh, names[s], &index));
      PetscCheck(index == s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node set %s is at %" PetscInt_FMT, names[s], index);
    }
  }

  /* Node-to-element map: inverse of the connectivity. */
  PetscCall(SKMeshGetNodeElements(mesh, &off, &elist));
  PetscCheck(off[nn] == ne * info->num_nodes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: node-element map has %" PetscInt_FMT " entries",
             info->name, off[nn]);
  for (PetscInt e = 0; e < ne; e++) {
    const PetscInt *nodes;

    PetscCall(SKMeshGetElement(mesh, e, NULL, NULL, &nodes));
    for (PetscInt a = 0; a < info->num_nodes; a++) {
      PetscInt loc;

      PetscCall(PetscFindInt(e, off[nodes[a] + 1] - off[nodes[a]], elist + off[nodes[a]], &loc));
      PetscCheck(loc >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: element %" PetscInt_FMT " missing from the list of node %" PetscInt_FMT,
                 info->name, e, nodes[a]);
    }
  }
  PetscCall(SKMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A call that must fail with an input error whose message contains WANT. */
static PetscErrorCode ExpectError(PetscErrorCode ierr, const char want[])
{
  const char *text, *msg;

  PetscFunctionBegin;
  PetscCheck(ierr == SK_ERR_INPUT, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected an input error containing '%s', got code %d", want,
             (int)ierr);
  PetscCall(PetscErrorMessage(ierr, &text, (char **)&msg));
  PetscCheck(msg && strstr(msg, want), PETSC_COMM_SELF, PETSC_ERR_PLIB, "message '%s' does not contain '%s'", msg ? msg : "", want);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscInt zero[3] = {2, 0, 1}, ok[3] = {1, 1, 1};
  const PetscReal lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1}, flat[3] = {1, 0, 1}, negative[3] = {1, -1, 1};
  SKMesh mesh = NULL;
  PetscErrorCode ierr;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (int t = 0; t < SK_ELEMENT_NUM_TYPES; t++) PetscCall(CheckBox((SKElementType)t));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKMeshCreateBox(PETSC_COMM_SELF, SK_ELEMENT_H8, zero, lower, upper, NULL, &mesh);
  PetscCall(ExpectError(ierr, "at least 1"));
  ierr = SKMeshCreateBox(PETSC_COMM_SELF, SK_ELEMENT_Q4, ok, lower, flat, NULL, &mesh);
  PetscCall(ExpectError(ierr, "must exceed"));
  ierr = SKMeshCreateBox(PETSC_COMM_SELF, SK_ELEMENT_T4, ok, lower, upper, negative, &mesh);
  PetscCall(ExpectError(ierr, "ratio"));
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!mesh, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a failed generator returned a mesh");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "structured generators: OK\n"));
  PetscCall(PetscFinalize());
  return 0;
}
