/* Face integrals of every element type: on a reference-shaped element scaled by h, each face's weights sum to its
   area with the closed-form nodal fractions, int N n dA points outward with magnitude |face|; on a distorted
   quadratic element the normal integrals over the closed surface sum to zero (divergence theorem, exact here). */
#include <string.h>
#include "fem_test_mesh.h"

/* Fraction of a flat face's area carried by face node a (closed forms of int N_a / |face|). */
static PetscReal Fraction(const char *face, PetscInt a)
{
  if (!strcmp(face, "L2")) return 0.5;
  if (!strcmp(face, "L3")) return a < 2 ? 1.0 / 6.0 : 2.0 / 3.0;
  if (!strcmp(face, "T3")) return 1.0 / 3.0;
  if (!strcmp(face, "Q4")) return 0.25;
  return a < 4 ? 1.0 / 36.0 : (a < 8 ? 1.0 / 9.0 : 4.0 / 9.0); /* Q9 */
}

static PetscErrorCode TestType(const char *name)
{
  SKElementType type;
  const SKElementTypeInfo *info;
  PetscBool found;
  unsigned long long seed = 8;
  const PetscReal h       = 0.5;
  PetscReal Xe[27 * 3] = {0}, Xf[9 * 3], w[9], an[9 * 3], centre[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  PetscCall(SKElementTypeFromName(name, &type, &found));
  PetscCall(SKElementTypeGetInfo(type, &info));
  const PetscInt dim = info->dim, nf = info->num_face_nodes;
  for (PetscInt a = 0; a < info->num_nodes; a++)
    for (PetscInt d = 0; d < dim; d++) {
      Xe[a * dim + d] = h * info->ref_coords[a * dim + d];
      centre[d] += Xe[a * dim + d] / info->num_nodes;
    }
  for (PetscInt f = 0; f < info->num_faces; f++) {
    PetscReal area = 0.0, fc[3] = {0, 0, 0}, nvec[3] = {0, 0, 0}, nn = 0.0, dot = 0.0;
    for (PetscInt a = 0; a < nf; a++)
      for (PetscInt d = 0; d < dim; d++) Xf[a * dim + d] = Xe[info->face_nodes[f * nf + a] * dim + d];
    PetscCall(PetscArrayzero(w, nf)); /* the integrals are added */
    PetscCall(PetscArrayzero(an, nf * dim));
    PetscCall(SKFEMFaceIntegrals(type, Xf, w, an));
    for (PetscInt a = 0; a < nf; a++) {
      area += w[a];
      for (PetscInt d = 0; d < dim; d++) {
        nvec[d] += an[a * dim + d];
        fc[d] += Xf[a * dim + d] / nf;
      }
    }
    for (PetscInt d = 0; d < dim; d++) nn += nvec[d] * nvec[d], dot += nvec[d] * (fc[d] - centre[d]);
    /* flat faces: the rules are exact; round-off 1e-15 */
    PetscCheck(PetscAbsReal(PetscSqrtReal(nn) - area) < 1e-14 * area, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s face %" PetscInt_FMT ": |int n dA| = %g, area %g", name, f, (double)PetscSqrtReal(nn), (double)area);
    PetscCheck(dot > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s face %" PetscInt_FMT ": normal points inwards", name, f);
    for (PetscInt a = 0; a < nf; a++)
      PetscCheck(PetscAbsReal(w[a] - area * Fraction(info->face_name, a)) < 1e-14 * area, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%s face %" PetscInt_FMT " node %" PetscInt_FMT ": weight %g of %g", name, f, a, (double)w[a], (double)area);
  }
  /* closed surface of a distorted element: sum over faces and nodes of int N_a n dA = 0 */
  for (PetscInt a = 0; a < info->num_nodes; a++)
    for (PetscInt d = 0; d < dim; d++) Xe[a * dim + d] += 0.05 * h * SKTestRand(&seed);
  {
    PetscReal total[3] = {0, 0, 0};
    for (PetscInt f = 0; f < info->num_faces; f++) {
      for (PetscInt a = 0; a < nf; a++)
        for (PetscInt d = 0; d < dim; d++) Xf[a * dim + d] = Xe[info->face_nodes[f * nf + a] * dim + d];
      PetscCall(PetscArrayzero(w, nf));
      PetscCall(PetscArrayzero(an, nf * dim));
      PetscCall(SKFEMFaceIntegrals(type, Xf, w, an));
      for (PetscInt a = 0; a < nf; a++)
        for (PetscInt d = 0; d < dim; d++) total[d] += an[a * dim + d];
    }
    for (PetscInt d = 0; d < dim; d++)
      PetscCheck(PetscAbsReal(total[d]) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: closed surface normal integral %g", name,
                 (double)total[d]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt t = 0; t < SK_TEST_NUM_TYPES; t++) PetscCall(TestType(sk_test_types[t]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "face: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
