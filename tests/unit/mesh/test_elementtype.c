/* Unit test of the element type table: VTK node order, reference coordinates, local faces (on the right face of the
   reference element, outward right-hand-rule order, quadratic faces consistent with the element) and the centre
   Jacobian kernel against affine maps with a known determinant. Writes the table to mesh_element_table.json in the
   working directory, which check_vtk_order.py compares with VTK's own cell definitions. */
#include <stickslip/mesh.h>

/* All reference data here are small integers or halves, exact in binary: comparisons of derived quantities (det J of
   an affine map with entries of order 1) can only be off by a few ulps, hence 1e-13. */
#define TOL 1e-13

static PetscErrorCode CheckFaces(const SKElementTypeInfo *info)
{
  const PetscInt dim = info->dim, nf = info->num_face_nodes;
  const PetscReal *ref = info->ref_coords;
  PetscReal centre[3]  = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt a = 0; a < info->num_corners; a++)
    for (PetscInt d = 0; d < dim; d++) centre[d] += ref[a * dim + d] / info->num_corners;
  for (PetscInt f = 0; f < info->num_faces; f++) {
    const PetscInt *fn  = info->face_nodes + f * nf;
    PetscReal normal[3] = {0, 0, 0}, fc[3] = {0, 0, 0}, dot = 0;

    for (PetscInt k = 0; k < info->num_face_corners; k++)
      for (PetscInt d = 0; d < dim; d++) fc[d] += ref[fn[k] * dim + d] / info->num_face_corners;
    if (dim == 2) {
      normal[0] = ref[fn[1] * dim + 1] - ref[fn[0] * dim + 1];
      normal[1] = -(ref[fn[1] * dim + 0] - ref[fn[0] * dim + 0]);
    } else {
      /* (c1 - c0) x (c_last - c0): outward for counter-clockwise corners seen from outside. */
      const PetscInt last = info->num_face_corners - 1;
      PetscReal u[3], v[3];

      for (PetscInt d = 0; d < 3; d++) {
        u[d] = ref[fn[1] * 3 + d] - ref[fn[0] * 3 + d];
        v[d] = ref[fn[last] * 3 + d] - ref[fn[0] * 3 + d];
      }
      normal[0] = u[1] * v[2] - u[2] * v[1];
      normal[1] = u[2] * v[0] - u[0] * v[2];
      normal[2] = u[0] * v[1] - u[1] * v[0];
    }
    for (PetscInt d = 0; d < dim; d++) dot += normal[d] * (fc[d] - centre[d]);
    PetscCheck(dot > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s face %" PetscInt_FMT ": normal is not outward", info->name, f);
    /* Every face node lies in the plane of the face: (x - c0) . n = 0. */
    for (PetscInt k = 0; k < nf; k++) {
      PetscReal off = 0;

      for (PetscInt d = 0; d < dim; d++) off += (ref[fn[k] * dim + d] - ref[fn[0] * dim + d]) * normal[d];
      PetscCheck(PetscAbsReal(off) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s face %" PetscInt_FMT ": node %" PetscInt_FMT " is off the face", info->name, f, fn[k]);
    }
    /* Quadratic faces: mid-edge nodes at the middle of consecutive corners, then the face centre. */
    if (nf > info->num_face_corners) {
      const PetscInt nc = info->num_face_corners;

      for (PetscInt k = 0; k < (dim == 2 ? 1 : nc); k++)
        for (PetscInt d = 0; d < dim; d++) {
          const PetscReal mid = 0.5 * (ref[fn[k] * dim + d] + ref[fn[(k + 1) % nc] * dim + d]);

          PetscCheck(PetscAbsReal(ref[fn[nc + k] * dim + d] - mid) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "%s face %" PetscInt_FMT ": node %" PetscInt_FMT " is not the mid-edge node", info->name, f, fn[nc + k]);
        }
      if (dim == 3)
        for (PetscInt d = 0; d < dim; d++)
          PetscCheck(PetscAbsReal(ref[fn[2 * nc] * dim + d] - fc[d]) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "%s face %" PetscInt_FMT ": last node is not the face centre", info->name, f);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The VTK order stated in mesh.h: mid-edge node k of Q9/H27 sits on the listed edge, H27 face centres on -x +x -y +y -z +z. */
static PetscErrorCode CheckVtkOrder(void)
{
  static const PetscInt q9_edges[4][2]   = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  static const PetscInt h27_edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  const SKElementTypeInfo *q9, *h27;

  PetscFunctionBegin;
  PetscCall(SKElementTypeGetInfo(SK_ELEMENT_Q9, &q9));
  PetscCall(SKElementTypeGetInfo(SK_ELEMENT_H27, &h27));
  PetscCheck(q9->vtk_type == 28 && h27->vtk_type == 29, PETSC_COMM_SELF, PETSC_ERR_PLIB, "VTK cell types");
  for (PetscInt e = 0; e < 4; e++)
    for (PetscInt d = 0; d < 2; d++)
      PetscCheck(q9->ref_coords[(4 + e) * 2 + d] == 0.5 * (q9->ref_coords[q9_edges[e][0] * 2 + d] + q9->ref_coords[q9_edges[e][1] * 2 + d]),
                 PETSC_COMM_SELF, PETSC_ERR_PLIB, "Q9 node %" PetscInt_FMT, 4 + e);
  for (PetscInt e = 0; e < 12; e++)
    for (PetscInt d = 0; d < 3; d++)
      PetscCheck(h27->ref_coords[(8 + e) * 3 + d] ==
                     0.5 * (h27->ref_coords[h27_edges[e][0] * 3 + d] + h27->ref_coords[h27_edges[e][1] * 3 + d]),
                 PETSC_COMM_SELF, PETSC_ERR_PLIB, "H27 node %" PetscInt_FMT, 8 + e);
  for (PetscInt f = 0; f < 6; f++)
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal want = (d == f / 2) ? (f % 2 ? 1.0 : -1.0) : 0.0;

      PetscCheck(h27->ref_coords[(20 + f) * 3 + d] == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "H27 face centre %" PetscInt_FMT, 20 + f);
    }
  for (PetscInt d = 0; d < 3; d++) PetscCheck(h27->ref_coords[26 * 3 + d] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "H27 centre");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* det J of x = A xi + b at the centre must be det A (and change sign with a mirror). */
static PetscErrorCode CheckJacobian(const SKElementTypeInfo *info, SKElementType type)
{
  const PetscReal A[3][3] = {{1.5, 0.2, -0.1}, {0.3, 0.8, 0.25}, {0.05, -0.2, 1.1}};
  PetscReal x[27 * 3], det_a, det_j, xi[3];
  const PetscInt dim = info->dim;

  PetscFunctionBegin;
  det_a = dim == 2 ? A[0][0] * A[1][1] - A[0][1] * A[1][0]
                   : A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  for (PetscInt mirror = 0; mirror < 2; mirror++) {
    for (PetscInt a = 0; a < info->num_nodes; a++)
      for (PetscInt i = 0; i < dim; i++) {
        x[a * dim + i] = 0.7 * (i + 1);
        for (PetscInt j = 0; j < dim; j++) x[a * dim + i] += A[i][j] * info->ref_coords[a * dim + j];
        if (mirror && i == 0) x[a * dim + i] = -x[a * dim + i];
      }
    PetscCall(SKElementTypeCentreJacobian(type, x, &det_j));
    PetscCheck(PetscAbsReal(det_j - (mirror ? -det_a : det_a)) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: det J %g, expected %g",
               info->name, (double)det_j, (double)(mirror ? -det_a : det_a));
    /* an affine map has the same det J everywhere: the minimum over nodes and Gauss points too */
    PetscCall(SKElementTypeMinJacobian(type, x, &det_j, xi));
    PetscCheck(PetscAbsReal(det_j - (mirror ? -det_a : det_a)) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: min det J %g, expected %g",
               info->name, (double)det_j, (double)(mirror ? -det_a : det_a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A Q4 collapsed onto a triangle (nodes 2 and 3 the same point) has det J > 0 at its centre and Gauss points: the
   minimum must be the closed form 0 at the doubled corner (1, 1). Bilinear map of the unit square with x2 = x3 = (0, 1):
   det J = (1 - eta) / 8 at (xi, eta), 1/8 at the centre. Tolerance: a few ulp of 1/8. */
static PetscErrorCode CheckCollapsedQ4(void)
{
  const PetscReal x[] = {0, 0, 1, 0, 0, 1, 0, 1};
  PetscReal det, xi[3];

  PetscFunctionBegin;
  PetscCall(SKElementTypeCentreJacobian(SK_ELEMENT_Q4, x, &det));
  PetscCheck(PetscAbsReal(det - 0.125) < TOL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "collapsed Q4: centre det J %g, expected 0.125",
             (double)det);
  PetscCall(SKElementTypeMinJacobian(SK_ELEMENT_Q4, x, &det, xi));
  PetscCheck(PetscAbsReal(det) < TOL && xi[1] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "collapsed Q4: min det J %g at (%g, %g), expected 0 at eta = 1", (double)det, (double)xi[0], (double)xi[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes the element type table as JSON to FILENAME for check_vtk_order.py, which compares it with VTK's own cells. */
static PetscErrorCode WriteTable(const char filename[])
{
  FILE *fp;

  PetscFunctionBegin;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, filename, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "{\n"));
  for (int t = 0; t < SK_ELEMENT_NUM_TYPES; t++) {
    const SKElementTypeInfo *info = NULL;

    PetscCall(SKElementTypeGetInfo((SKElementType)t, &info));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp,
                           "  \"%s\": {\"vtk_type\": %d, \"dim\": %" PetscInt_FMT ", \"simplex\": %s,\n    \"ref_coords\": [", info->name,
                           info->vtk_type, info->dim, info->simplex ? "true" : "false"));
    for (PetscInt a = 0; a < info->num_nodes * info->dim; a++)
      fprintf(fp, "%s%.17g", a ? ", " : "", (double)info->ref_coords[a]); /* PetscFPrintf writes "1." for %g: not JSON */
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "],\n    \"faces\": ["));
    for (PetscInt f = 0; f < info->num_faces; f++) {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s[", f ? ", " : ""));
      for (PetscInt k = 0; k < info->num_face_nodes; k++)
        PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s%" PetscInt_FMT, k ? ", " : "", info->face_nodes[f * info->num_face_nodes + k]));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "]"));
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "]}%s\n", t + 1 < SK_ELEMENT_NUM_TYPES ? "," : ""));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "}\n"));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char list[128];
  SKElementType type;
  PetscBool found;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (int t = 0; t < SK_ELEMENT_NUM_TYPES; t++) {
    const SKElementTypeInfo *info;

    PetscCall(SKElementTypeGetInfo((SKElementType)t, &info));
    PetscCall(SKElementTypeFromName(info->name, &type, &found));
    PetscCheck(found && type == (SKElementType)t, PETSC_COMM_SELF, PETSC_ERR_PLIB, "name lookup of %s", info->name);
    PetscCall(CheckFaces(info));
    PetscCall(CheckJacobian(info, (SKElementType)t));
  }
  PetscCall(CheckCollapsedQ4());
  PetscCall(CheckVtkOrder());
  PetscCall(SKElementTypeFromName("H20", &type, &found));
  PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "H20 is not a stickslip element type");
  PetscCall(SKElementTypeList(list, sizeof(list)));
  PetscCheck(!strcmp(list, "T3, Q4, Q9, T4, H8, H27"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "type list '%s'", list);
  PetscCall(WriteTable("mesh_element_table.json"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "element type table: OK (mesh_element_table.json written for check_vtk_order.py)\n"));
  PetscCall(PetscFinalize());
  return 0;
}
