/* Unit test of a slave NURBS patch face of degree 2 against a deformable master (docs/theory.md, "NURBS patch faces as
   deformable masters", "The mortar rule of NURBS patch faces"): the bottom face of a degree-2 patch pressed, unevenly
   and sliding with Coulomb friction, on the top face of a degree-1 patch with knots that do not match, once with that
   face as the NURBS master (contact_patchmaster.c) and once with its control points as a deformable Lagrange surface
   (L2 segments in 2D, Q4 faces in 3D; contact_mesh.c), with the point rule (the slave face's Gauss points) and the
   mortar rule (its face elements split where the projection crosses the master's face edges, from the master's face
   corners). A degree-1 face with unit weights is those segments or bilinear quadrilaterals, so the two masters project
   every point onto the same points with the same shares and give the same corners and tangents: the forces of the two
   pairs agree to round-off (bound 1e-10 of the largest: Newton on the NURBS face against the closed form or the
   Gauss-Newton of the mesh faces; measured up to 1e-14), over 3 evaluations (the friction state evolves to sliding).
   Each pair's forces sum to zero over both bodies (action = reaction point by point; 1e-12 of the largest force,
   measured 1e-15). The mortar rule must differ from the point rule (the master's knots cross the slave's face
   elements), and the mesh pair with its penalty x 1.01 must be caught (self-tests). */
#include "test_contact_common.h"
#include <stickslip/fem.h>
#include <stickslip/iga.h>

#define EPS_N 1e9 /* penalty (Pa/m) */

/* The forces F[DIM NN] of pair CP after 3 evaluations (t = 0, 0.01, 0.02 s: the slip of a step, 1 mm and more, makes the
   friction slide) at the displacements U and velocities V. */
static PetscErrorCode Forces(SKContactPair cp, PetscInt dim, PetscInt nn, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                             PetscReal f[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(PetscArrayzero(f, dim * nn));
    PetscCall(SKContactPairForce(cp, 0.01 * k, nn, X, u, v, f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair of the slave face (side set a_bottom, or a_back in 3D) on the master side set b_top (b_front), as a NURBS
   master or (MESH_MASTER) as the L2 segments or Q4 faces of its control points, with the mortar rule (MORTAR) or the
   point rule and penalty EPS. */
static PetscErrorCode CreatePair(SKMesh mesh, PetscInt dim, PetscBool mesh_master, PetscBool mortar, PetscReal eps, SKContactPair *cp)
{
  const PetscInt *el_s, *fa_s, *el_m, *fa_m, *nat, nfn = dim == 2 ? 2 : 4;
  const PetscReal *X, *A;
  PetscInt nn, is, im, ns, nm, na, *natural, *key, *seg;
  PetscReal *mass, *w;
  SKContactPatchFace pf;
  SKFrictionLaw law;
  SKFrictionParams fp;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshFindSideSet(mesh, dim == 2 ? "a_bottom" : "a_back", &is));
  PetscCall(SKMeshGetSideSet(mesh, is, NULL, &ns, &el_s, &fa_s, NULL));
  PetscCall(SKMeshFindSideSet(mesh, dim == 2 ? "b_top" : "b_front", &im));
  PetscCall(SKMeshGetSideSet(mesh, im, NULL, &nm, &el_m, &fa_m, NULL));
  PetscCall(SKContactPatchFaceCreate(PETSC_COMM_SELF, mesh, ns, el_s, fa_s, &pf));
  PetscCall(SKContactPatchFaceSetMortar(pf, mortar));
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
    PetscCall(PetscMalloc2(nm, &key, nfn * nm, &seg));
    for (PetscInt s = 0; s < nm; s++) {
      PetscInt n, *sg = seg + nfn * s;
      PetscCall(SKMeshGetFaceNodes(mesh, el_m[s], fa_m[s], &n, sg));
      PetscCheck(n == nfn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a degree-1 face element of %" PetscInt_FMT " nodes", n);
      if (dim == 3) { /* tensor order to the Q4's counterclockwise order */
        const PetscInt t = sg[2];
        sg[2] = sg[3], sg[3] = t;
      }
      /* counterclockwise seen from outside (normal up): in 2D right to left, in 3D (x1 - x0) x (x3 - x0) along +z */
      if (dim == 2 ? X[2 * sg[0]] < X[2 * sg[1]]
                   : (X[3 * sg[1]] - X[3 * sg[0]]) * (X[3 * sg[3] + 1] - X[3 * sg[0] + 1]) -
                             (X[3 * sg[1] + 1] - X[3 * sg[0] + 1]) * (X[3 * sg[3]] - X[3 * sg[0]]) <
                         0) {
        const PetscInt j = dim == 2 ? 0 : 1, t = sg[j]; /* reversed: the two ends, or the second and fourth corners */
        sg[j] = sg[nfn - 1], sg[nfn - 1] = t;
      }
      key[s] = el_m[s] * 8 + fa_m[s];
    }
    PetscCall(SKContactMeshSurfaceCreate(PETSC_COMM_SELF, dim, nfn, nm, key, seg, nn, nn, natural, X, mass, &ms));
    PetscCall(SKContactPairCreateWithMesh(PETSC_COMM_SELF, dim, nn, nn, natural, w, ms, NULL, eps, law, cp));
    PetscCall(PetscFree2(key, seg));
  } else
    PetscCall(SKContactPairCreateWithPatchMaster(PETSC_COMM_SELF, mesh, nm, el_m, fa_m, nn, nn, natural, X, mass, w, eps, law, cp));
  PetscCall(SKContactPairSetPatchFace(*cp, pf));
  PetscCall(PetscFree3(natural, mass, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The case in DIM: the NURBS and mesh masters with the point rule and the mortar rule; the largest force and the
   largest difference between the two masters' forces (relative) into *DIFF, and the mortar rule's difference from the
   point rule into *RULES. */
static PetscErrorCode RunCase(PetscInt dim, PetscReal *diff, PetscReal *rules)
{
  SKNURBSPatch patches[2];
  SKMesh mesh;
  const char *names[]     = {"a", "b"};
  const PetscReal lo_a[3] = {0, 0, 0.1}, hi_a[3] = {1, 0.6, 0.3}, lo_b[3] = {-0.2, -0.1, 0}, hi_b[3] = {1.2, 0.7, 0.1};
  PetscReal lo[2][3], hi[2][3];
  const PetscReal *X;
  PetscInt nn, na;
  PetscReal *u, *v, *f[5], fmax[2] = {0, 0}, ftmax = 0, scaled = 0;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) { /* 2D: x and the vertical (the last coordinate of the 3D boxes) */
    const PetscInt e = (dim == 2 && d == 1) ? 2 : d;
    lo[0][d] = lo_a[e], hi[0][d] = hi_a[e], lo[1][d] = lo_b[e], hi[1][d] = hi_b[e];
  }
  PetscCall(SKNURBSPatchCreateBox(dim, lo[0], hi[0], &patches[0]));
  for (PetscInt d = 0; d < dim; d++) PetscCall(SKNURBSPatchElevateDegree(patches[0], d, 1));
  PetscCall(SKNURBSPatchRefine(patches[0], 0, 5));
  PetscCall(SKNURBSPatchRefine(patches[0], 1, dim == 2 ? 2 : 3));
  if (dim == 3) PetscCall(SKNURBSPatchRefine(patches[0], 2, 2));
  PetscCall(SKNURBSPatchCreateBox(dim, lo[1], hi[1], &patches[1]));
  PetscCall(SKNURBSPatchRefine(patches[1], 0, 8)); /* knots every 0.175 m (0.16 m along y) inside the slave's spans of 0.2 m */
  if (dim == 3) PetscCall(SKNURBSPatchRefine(patches[1], 1, 5));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 2, patches, names, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKNURBSPatchGetControlNet(patches[0], &na, NULL));
  PetscCall(PetscMalloc2(dim * nn, &u, dim * nn, &v));
  for (PetscInt k = 0; k < 5; k++) PetscCall(PetscMalloc1(dim * nn, &f[k]));
  for (PetscInt i = 0; i < nn; i++) {
    const PetscReal x = X[dim * i], y = dim == 3 ? X[dim * i + 1] : 0, z = X[dim * i + dim - 1];
    for (PetscInt d = 0; d < dim; d++) u[dim * i + d] = v[dim * i + d] = 0;
    if (i < na) /* the slave pressed in by 1 to 2 mm, sheared a little, sliding to the right */
      u[dim * i] = 5e-4 * (z - 0.1), u[dim * i + dim - 1] = -1e-3 * (1 + x + 0.3 * y), v[dim * i] = 0.1, v[dim * i + dim - 1] = -0.01;
    else /* the master's top waved, sliding the other way */
      u[dim * i + dim - 1] = 3e-4 * PetscSinReal(3 * x) * PetscCosReal(2 * y) * z / 0.1, v[dim * i] = -0.05 * x,
                        v[dim * i + dim - 1] = 0.01;
  }
  /* pairs: NURBS master point, mesh master point, NURBS master mortar, mesh master mortar, mesh master mortar x 1.01 */
  for (PetscInt k = 0; k < 5; k++) {
    SKContactPair cp;
    PetscReal sum[3] = {0, 0, 0};
    PetscCall(CreatePair(mesh, dim, (PetscBool)(k % 2 == 1 || k == 4), (PetscBool)(k >= 2), k == 4 ? 1.01 * EPS_N : EPS_N, &cp));
    PetscCall(Forces(cp, dim, nn, X, u, v, f[k]));
    PetscCall(SKContactPairDestroy(&cp));
    for (PetscInt i = 0; i < dim * nn; i++) {
      sum[i % dim] += f[k][i];
      if (k == 0 || k == 2) fmax[k / 2] = PetscMax(fmax[k / 2], PetscAbsReal(f[k][i]));
      if (k == 0 && i % dim == 0) ftmax = PetscMax(ftmax, PetscAbsReal(f[k][i])); /* tangential (x) */
    }
    for (PetscInt d = 0; k < 4 && d < dim; d++) /* action = reaction */
      PetscCheck(PetscAbsReal(sum[d]) <= 1e-12 * fmax[k / 2], PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%" PetscInt_FMT "D: the forces of pair %" PetscInt_FMT " sum to %g of the largest in direction %" PetscInt_FMT, dim, k,
                 (double)(sum[d] / fmax[k / 2]), d);
  }
  *diff = *rules = 0;
  for (PetscInt i = 0; i < dim * nn; i++) {
    *diff  = PetscMax(*diff, PetscMax(PetscAbsReal(f[0][i] - f[1][i]) / fmax[0], PetscAbsReal(f[2][i] - f[3][i]) / fmax[1]));
    *rules = PetscMax(*rules, PetscAbsReal(f[0][i] - f[2][i]) / fmax[0]);
    scaled = PetscMax(scaled, PetscAbsReal(f[3][i] - f[4][i]) / fmax[1]);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "%" PetscInt_FMT "D: largest force %.4g N (tangential %.4g N); NURBS against mesh master %.2e of it (point and "
                        "mortar rules); mortar against point rule %.2e; penalty x 1.01: %.2e\n",
                        dim, (double)fmax[0], (double)ftmax, (double)*diff, (double)*rules, (double)scaled));
  PetscCheck(ftmax > 0.1 * fmax[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "friction %g N against the largest force %g N: not sliding",
             (double)ftmax, (double)fmax[0]);
  PetscCheck(scaled > 1e-3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "self-test: the penalty x 1.01 changes the forces by only %g", (double)scaled);
  PetscCall(SKMeshDestroy(&mesh));
  for (PetscInt k = 0; k < 2; k++) PetscCall(SKNURBSPatchDestroy(&patches[k]));
  PetscCall(PetscFree2(u, v));
  for (PetscInt k = 0; k < 5; k++) PetscCall(PetscFree(f[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt dim = 2; dim <= 3; dim++) {
    PetscReal diff, rules;
    PetscCall(RunCase(dim, &diff, &rules));
    PetscCheck(diff <= 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%" PetscInt_FMT "D: NURBS and mesh masters differ by %g of the largest force", dim, (double)diff);
    PetscCheck(rules > 1e-4, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT "D: the mortar rule gives the point rule's forces to %g",
               dim, (double)rules);
  }
  PetscCall(PetscFinalize());
  return 0;
}
