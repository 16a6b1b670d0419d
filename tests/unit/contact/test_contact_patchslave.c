/* Unit test of a slave NURBS patch face of degree 2 against a deformable master (docs/theory.md, "NURBS patch faces as
   deformable masters"): the bottom face of a degree-2 patch pressed, unevenly and sliding with Coulomb friction, on the
   top face of a degree-1 patch, once with that face as the NURBS master (contact_patchmaster.c) and once with its
   control points as a deformable Lagrange surface of L2 segments (contact_mesh.c). A degree-1 face with unit weights is
   those segments, so the two masters project every Gauss point onto the same points with the same shares: the forces of
   the two pairs agree to round-off (bound 1e-10 of the largest: Newton on the NURBS face against the closed form of the
   segments; measured 1.6e-15), over 3 evaluations (the friction state evolves to sliding). Each pair's forces sum to
   zero over both bodies (action = reaction Gauss point by Gauss point; 1e-12 of the largest force, measured 1e-15).
   Self-test: the mesh pair with its penalty x 1.01 must be caught. */
#include "test_contact_common.h"
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define EPS_N 1e9 /* penalty (Pa/m) */

/* The forces F[2 NN] of pair CP after 3 evaluations (t = 0, 0.01, 0.02 s: the slip of a step, 1 mm and more, makes the
   friction slide) at the displacements U and velocities V. */
static PetscErrorCode Forces(SKContactPair cp, PetscInt nn, const PetscReal X[], const PetscReal u[], const PetscReal v[], PetscReal f[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(PetscArrayzero(f, 2 * nn));
    PetscCall(SKContactPairForce(cp, 0.01 * k, nn, X, u, v, f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair of the slave face (side set SLAVE) on the master side set MASTER, as a NURBS master or (MESH_MASTER) as the
   L2 segments of its control points, with penalty EPS. */
static PetscErrorCode CreatePair(SKMesh mesh, PetscBool mesh_master, PetscReal eps, SKContactPair *cp)
{
  const PetscInt *el_s, *fa_s, *el_m, *fa_m, *nat;
  const PetscReal *X, *A;
  PetscInt nn, is, im, ns, nm, na, *natural, *key, *seg;
  PetscReal *mass, *w;
  SKContactPatchFace pf;
  SKFrictionLaw law;
  SKFrictionParams fp;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshFindSideSet(mesh, "a_bottom", &is));
  PetscCall(SKMeshGetSideSet(mesh, is, NULL, &ns, &el_s, &fa_s, NULL));
  PetscCall(SKMeshFindSideSet(mesh, "b_top", &im));
  PetscCall(SKMeshGetSideSet(mesh, im, NULL, &nm, &el_m, &fa_m, NULL));
  PetscCall(SKContactPatchFaceCreate(PETSC_COMM_SELF, mesh, ns, el_s, fa_s, &pf));
  PetscCall(PetscCalloc3(nn, &natural, nn, &mass, nn, &w));
  for (PetscInt i = 0; i < nn; i++) natural[i] = i, mass[i] = 0.1;
  PetscCall(SKContactPatchFaceGetWeights(pf, &na, &nat, &A));
  for (PetscInt i = 0; i < na; i++) w[nat[i]] = A[i]; /* the slave control points, weighted int R_A dgamma */
  PetscCall(SKFrictionParamsSetDefaults(&fp));
  fp.mu_s = fp.mu_k = 0.3;
  fp.eps_t          = 1e10; /* stiff enough to slide over one step of the test */
  PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, "coulomb", &fp, &law));
  if (mesh_master) {
    SKContactMeshSurface ms;
    PetscCall(PetscMalloc2(nm, &key, 2 * nm, &seg));
    for (PetscInt s = 0; s < nm; s++) {
      PetscInt n;
      PetscCall(SKMeshGetFaceNodes(mesh, el_m[s], fa_m[s], &n, seg + 2 * s));
      PetscCheck(n == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a degree-1 face element of %" PetscInt_FMT " nodes", n);
      if (X[2 * seg[2 * s]] < X[2 * seg[2 * s + 1]]) { /* the top face counterclockwise (right to left): normal up */
        const PetscInt t = seg[2 * s];
        seg[2 * s] = seg[2 * s + 1], seg[2 * s + 1] = t;
      }
      key[s] = el_m[s] * 8 + fa_m[s];
    }
    PetscCall(SKContactMeshSurfaceCreate(PETSC_COMM_SELF, 2, 2, nm, key, seg, nn, nn, natural, X, mass, &ms));
    PetscCall(SKContactPairCreateWithMesh(PETSC_COMM_SELF, 2, nn, nn, natural, w, ms, NULL, eps, law, cp));
    PetscCall(PetscFree2(key, seg));
  } else
    PetscCall(SKContactPairCreateWithPatchMaster(PETSC_COMM_SELF, mesh, nm, el_m, fa_m, nn, nn, natural, X, mass, w, eps, law, cp));
  PetscCall(SKContactPairSetPatchFace(*cp, pf));
  PetscCall(PetscFree3(natural, mass, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKNURBSPatch patches[2];
  SKMesh mesh;
  SKContactPair cp[3];
  const char *names[]     = {"a", "b"};
  const PetscReal lo_a[2] = {0, 0.1}, hi_a[2] = {1, 0.3}, lo_b[2] = {-0.2, 0}, hi_b[2] = {1.2, 0.1};
  const PetscReal *X;
  PetscInt nn, na;
  PetscReal *u, *v, *f[3], fmax = 0, ftmax = 0, diff = 0, scaled = 0, sum[2][2] = {{0, 0}, {0, 0}};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKNURBSPatchCreateBox(2, lo_a, hi_a, &patches[0]));
  PetscCall(SKNURBSPatchElevateDegree(patches[0], 0, 1));
  PetscCall(SKNURBSPatchElevateDegree(patches[0], 1, 1));
  PetscCall(SKNURBSPatchRefine(patches[0], 0, 5));
  PetscCall(SKNURBSPatchRefine(patches[0], 1, 2));
  PetscCall(SKNURBSPatchCreateBox(2, lo_b, hi_b, &patches[1]));
  PetscCall(SKNURBSPatchRefine(patches[1], 0, 7)); /* knots that do not match the slave's */
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 2, patches, names, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKNURBSPatchGetControlNet(patches[0], &na, NULL));
  PetscCall(PetscMalloc5(2 * nn, &u, 2 * nn, &v, 2 * nn, &f[0], 2 * nn, &f[1], 2 * nn, &f[2]));
  for (PetscInt i = 0; i < nn; i++) {
    const PetscReal x = X[2 * i], y = X[2 * i + 1];
    if (i < na) /* the slave pressed in by 1 to 2 mm, sheared a little, sliding to the right */
      u[2 * i] = 5e-4 * (y - 0.1), u[2 * i + 1] = -1e-3 * (1 + x), v[2 * i] = 0.1, v[2 * i + 1] = -0.01;
    else /* the master's top waved, sliding the other way */
      u[2 * i] = 0, u[2 * i + 1] = 3e-4 * PetscSinReal(3 * x) * y / 0.1, v[2 * i] = -0.05 * x, v[2 * i + 1] = 0.01;
  }
  PetscCall(CreatePair(mesh, PETSC_FALSE, EPS_N, &cp[0]));
  PetscCall(CreatePair(mesh, PETSC_TRUE, EPS_N, &cp[1]));
  PetscCall(CreatePair(mesh, PETSC_TRUE, 1.01 * EPS_N, &cp[2]));
  for (PetscInt k = 0; k < 3; k++) PetscCall(Forces(cp[k], nn, X, u, v, f[k]));
  for (PetscInt i = 0; i < 2 * nn; i++) {
    fmax = PetscMax(fmax, PetscAbsReal(f[0][i]));
    if (i % 2 == 0) ftmax = PetscMax(ftmax, PetscAbsReal(f[0][i])); /* tangential (x) */
    diff   = PetscMax(diff, PetscAbsReal(f[0][i] - f[1][i]));
    scaled = PetscMax(scaled, PetscAbsReal(f[0][i] - f[2][i]));
    for (PetscInt k = 0; k < 2; k++) sum[k][i % 2] += f[k][i];
  }
  PetscCheck(ftmax > 0.1 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "friction %g N against the largest force %g N: not sliding",
             (double)ftmax, (double)fmax);
  PetscCheck(diff <= 1e-10 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "NURBS and mesh masters differ by %g of the largest force",
             (double)(diff / fmax));
  PetscCheck(scaled > 1e-3 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "self-test: the penalty x 1.01 changes the forces by only %g",
             (double)(scaled / fmax));
  for (PetscInt k = 0; k < 2; k++)
    for (PetscInt d = 0; d < 2; d++)
      PetscCheck(PetscAbsReal(sum[k][d]) <= 1e-12 * fmax, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "the forces of pair %" PetscInt_FMT " sum to %g of the largest in direction %" PetscInt_FMT, k, (double)(sum[k][d] / fmax),
                 d);
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "largest force %.4g N (tangential %.4g N); NURBS against mesh master %.2e of it (penalty x 1.01: %.2e); sums "
                        "%.1e %.1e, %.1e %.1e\n",
                        (double)fmax, (double)ftmax, (double)(diff / fmax), (double)(scaled / fmax), (double)(sum[0][0] / fmax),
                        (double)(sum[0][1] / fmax), (double)(sum[1][0] / fmax), (double)(sum[1][1] / fmax)));
  for (PetscInt k = 0; k < 3; k++) PetscCall(SKContactPairDestroy(&cp[k]));
  PetscCall(SKMeshDestroy(&mesh));
  for (PetscInt k = 0; k < 2; k++) PetscCall(SKNURBSPatchDestroy(&patches[k]));
  PetscCall(PetscFree5(u, v, f[0], f[1], f[2]));
  PetscCall(PetscFinalize());
  return 0;
}
