/* Bezier cells of NURBS patches in the ordinary element loops: patch test on distorted patches (uniform stress to
   round-off, zero force on interior control points, exact face reactions), positive row-sum masses that add up to
   rho times the volume, the volume itself where Gauss integration is exact, the cell-type registry, and METIS
   partitions of such blocks. 2D (p = 1..4) and 3D (p = 1..3). The sum-factorised internal force of the Bezier cells
   against the generic element loop (the rational basis point by point) on curved patches with unequal weights. All of it
   also with the reduced quadrature of the force (p Gauss points per direction), and the patches where that rule must
   fall back to the full one. */
#include <string.h>
#include <stickslip/fem.h>
#include "../../../src/fem/femimpl.h" /* white box: the sum-factorised force against the generic element loop */

static PetscReal Rand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((*s >> 11) * (1.0 / 9007199254740992.0)) * 2.0 - 1.0;
}

/* Box [0, L]^dim, degree p, n spans per direction, interior control points moved by up to amp of their spacing. */
static PetscErrorCode DistortedBox(PetscInt dim, PetscInt p, PetscInt n, PetscReal L, PetscReal amp, SKNURBSPatch *patch)
{
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
  SKNURBSPatch box;
  PetscInt deg[3], ncp[3], ntot, m[3];
  const PetscReal *U[3];
  PetscReal *X;
  unsigned long long seed = 11;

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchCreateBox(dim, lo, hi, &box));
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(SKNURBSPatchElevateDegree(box, d, p - 1));
    PetscCall(SKNURBSPatchRefine(box, d, n));
  }
  PetscCall(SKNURBSPatchGetSizes(box, NULL, NULL, deg, ncp));
  PetscCall(SKNURBSPatchGetControlNet(box, &ntot, NULL));
  for (PetscInt d = 0; d < dim; d++) PetscCall(SKNURBSPatchGetKnots(box, d, &m[d], &U[d]));
  PetscCall(PetscMalloc1(ntot * dim, &X));
  PetscCall(SKNURBSPatchGetControlPoints(box, X, NULL));
  for (PetscInt i = 0; i < ntot; i++) {
    PetscInt rest = i, interior = 1;
    for (PetscInt d = 0; d < dim; d++, rest /= ncp[d - 1]) interior &= (rest % ncp[d] != 0 && rest % ncp[d] != ncp[d] - 1);
    if (interior)
      for (PetscInt d = 0; d < dim; d++) X[i * dim + d] += amp * L / (ncp[d] - 1) * Rand(&seed);
  }
  PetscCall(SKNURBSPatchCreate(dim, dim, deg, ncp, U, X, NULL, patch));
  PetscCall(PetscFree(X));
  PetscCall(SKNURBSPatchDestroy(&box));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* REDUCED: the force with the reduced rule (p points per direction): F is still constant, and the interior forces still
   vanish in 2D (degree 2p - 1 per direction, which p Gauss points integrate exactly). */
static PetscErrorCode PatchTest(PetscInt dim, PetscInt p, const char *mname, PetscBool reduced)
{
  const PetscReal L = 2.0, amp = 0.1, rho = 1000.0;
  const char *names[1] = {"body"};
  SKNURBSPatch patch;
  SKMesh mesh;
  SKBasis basis;
  SKBasisInfo info;
  SKMaterial mat;
  SKMaterialPoint pt;
  SKFEMFailure fail;
  PetscInt nn, ne, nq;
  const PetscInt *conn;
  const PetscReal *X;
  PetscReal A[9], F[9], *u, *f, *sig, *mass, volume = 0.0, msum = 0.0, scale = 0.0;
  unsigned long long seed = 5;

  PetscFunctionBeginUser;
  PetscCall(DistortedBox(dim, p, 3, L, amp, &patch));
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
  if (reduced) {
    PetscBool done;
    PetscCall(SKBasisReduceQuadrature(basis, &done));
    PetscCheck(done == (p >= 2), PETSC_COMM_SELF, PETSC_ERR_PLIB, "p = %" PetscInt_FMT " on 3 spans per direction: reduced %d", p,
               (int)done);
  }
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCheck(info.nodes == PetscPowInt(p + 1, dim) && info.degree == p && info.vtk_cell_type == (dim == 2 ? 77 : 79) &&
                 info.qpoints == PetscPowInt(reduced && p >= 2 ? p : p + 1, dim),
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "basis info");
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
  nq = info.qpoints;
  PetscCall(SKFEMCheckReference(basis, ne, conn, X, &volume, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "inverted element %" PetscInt_FMT, fail.element);
  /* moving interior control points keeps the domain (the boundary depends on the boundary control points only); det J
     has degree (dim p - 1) per direction, integrated exactly by p + 1 Gauss points when dim p - 1 <= 2p + 1 */
  if ((dim == 2 || p <= 2) && !reduced)
    PetscCheck(PetscAbsReal(volume - PetscPowReal(L, dim)) < 1e-13 * PetscPowReal(L, dim), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%" PetscInt_FMT "D p = %" PetscInt_FMT ": volume %.16g, expected %g", dim, p, (double)volume, (double)PetscPowReal(L, dim));
  PetscCall(PetscCalloc4(nn * dim, &u, nn * dim, &f, ne * nq * 9, &sig, nn, &mass));
  PetscCall(SKFEMLumpedMass(basis, rho, SK_LUMPING_ROWSUM, ne, conn, X, mass, &fail));
  for (PetscInt a = 0; a < nn; a++) {
    PetscCheck(mass[a] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "control point %" PetscInt_FMT ": mass %g", a, (double)mass[a]);
    msum += mass[a];
  }
  /* the row sums add up to int rho dV by the partition of unity, and the masses are integrated exactly (a Gauss rule of
     degree (dim + 1) p - 1, src/fem/bezier_mass.c): rho L^dim to round-off, also in 3D p = 3 where the volume above is not */
  PetscCheck(PetscAbsReal(msum - rho * PetscPowReal(L, dim)) < 1e-12 * rho * PetscPowReal(L, dim), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "mass %.16g vs rho V %.16g", (double)msum, (double)(rho * PetscPowReal(L, dim)));

  PetscCall(SKMaterialCreate(mname, dim == 2 ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D, 1.0e7, 0.3, rho, &mat));
  for (PetscInt i = 0; i < dim; i++)
    for (PetscInt j = 0; j < dim; j++) A[i * dim + j] = 0.1 * Rand(&seed), F[i * dim + j] = (i == j ? 1.0 : 0.0) + A[i * dim + j];
  PetscCall(SKMaterialEvaluate(mat, F, &pt));
  for (PetscInt a = 0; a < nn; a++)
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) u[a * dim + i] += A[i * dim + j] * X[a * dim + j];
  PetscCall(SKFEMInternalForce(basis, mat, ne, conn, X, u, f, NULL, &fail));
  PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "failure in element %" PetscInt_FMT, fail.element);
  PetscCall(SKFEMStress(basis, mat, ne, conn, X, u, sig, NULL, NULL, NULL, &fail));
  for (PetscInt k = 0; k < 9; k++) scale = PetscMax(scale, PetscAbsReal(pt.sigma[k]));
  /* NURBS reproduce linear fields (sum R_a = 1, sum R_a X_a = x), so F and sigma are constant to round-off: sums of
     (p+1)^dim terms with gradients O(1/h); 1e-11 relative as for the Lagrange patch test */
  for (PetscInt k = 0; k < ne * nq; k++)
    for (PetscInt c = 0; c < 9; c++)
      PetscCheck(PetscAbsReal(sig[k * 9 + c] - pt.sigma[c]) <= 1e-11 * scale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "%" PetscInt_FMT "D p = %" PetscInt_FMT " %s: sigma_%" PetscInt_FMT " at qp %" PetscInt_FMT " = %g, expected %g", dim, p,
                 mname, c, k, (double)sig[k * 9 + c], (double)pt.sigma[c]);
  /* the nodal forces P : int grad R_a dV vanish at interior control points only if the quadrature integrates
     grad R_a det J exactly: degree 3p - 1 per direction in 3D (2p - 1 in 2D) against 2p + 1 for p + 1 Gauss points, so
     3D p = 3 on a distorted net is left out (measured: interior forces 3e-8 of the scale, the quadrature error) */
  if (dim == 2 || (p <= 2 && !reduced)) {
    const PetscReal fscale   = scale * PetscPowReal(L / 3.0, dim - 1);
    PetscReal reaction[3][3] = {{0}};
    for (PetscInt a = 0; a < nn; a++) {
      PetscBool boundary = PETSC_FALSE;
      for (PetscInt d = 0; d < dim; d++) boundary = (PetscBool)(boundary || X[a * dim + d] < 1e-12 || X[a * dim + d] > L - 1e-12);
      if (!boundary)
        for (PetscInt i = 0; i < dim; i++)
          PetscCheck(PetscAbsReal(f[a * dim + i]) <= 1e-11 * fscale, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                     "%" PetscInt_FMT "D p = %" PetscInt_FMT " %s: interior control point %" PetscInt_FMT " force %g (scale %g)", dim, p,
                     mname, a, (double)f[a * dim + i], (double)fscale);
      for (PetscInt d = 0; d < dim; d++)
        if (X[a * dim + d] > L - 1e-12)
          for (PetscInt i = 0; i < dim; i++) reaction[d][i] += f[a * dim + i];
    }
    /* reaction on the face X_d = L: P e_d |face| (per unit thickness in 2D) */
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt i = 0; i < dim; i++) {
        const PetscReal expect = pt.P[i * dim + d] * PetscPowReal(L, dim - 1);
        PetscCheck(PetscAbsReal(reaction[d][i] - expect) <= 1e-11 * scale * PetscPowReal(L, dim - 1), PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "%" PetscInt_FMT "D p = %" PetscInt_FMT ": reaction %g on face %" PetscInt_FMT ", expected %g", dim, p,
                   (double)reaction[d][i], d, (double)expect);
      }
  }
  /* METIS on Bezier blocks: every part gets elements */
  {
    PetscInt part[64 * 27], count[3] = {0, 0, 0};
    PetscCall(SKMeshPartition(mesh, 3, part));
    for (PetscInt e = 0; e < ne; e++) count[part[e]]++;
    PetscCheck(count[0] && count[1] && count[2], PETSC_COMM_SELF, PETSC_ERR_PLIB, "empty METIS part");
  }
  PetscCall(PetscFree4(u, f, sig, mass));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The registry: Bezier cell types are registered once, found by name and listed. */
static PetscErrorCode TestRegistry(void)
{
  SKElementType t1, t2, t3;
  PetscBool found;
  const SKElementTypeInfo *info;
  char list[512], *has;

  PetscFunctionBeginUser;
  PetscCall(SKBezierCellType(2, 2, &t1));
  PetscCall(SKBezierCellType(2, 2, &t2));
  PetscCheck(t1 == t2 && (int)t1 >= SK_ELEMENT_NUM_TYPES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "registration not idempotent");
  PetscCall(SKElementTypeFromName("Bezier-Q2", &t3, &found));
  PetscCheck(found && t3 == t1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "registered type not found by name");
  PetscCall(SKElementTypeGetInfo(t1, &info));
  PetscCheck(info->num_nodes == 9 && info->num_faces == 4 && info->num_face_nodes == 3 && info->face_nodes[1 * 3 + 0] == 2, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "Bezier-Q2 description");
  PetscCall(SKElementTypeList(list, sizeof(list)));
  PetscCall(PetscStrstr(list, "Bezier-Q2", &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_PLIB, "type list lacks the registered type: %s", list);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sum-factorised internal force, energy and one-element stiffness of the Bezier cells against the generic element
   loop (the basis evaluated point by point through the geometry function) on a cylinder section (3D) or annulus
   sector (2D): exact rational arcs, so the weights differ between control points, degree elevated to P and refined
   into spans of different 1D tables (end spans differ from inner ones), under a random displacement of 2 % of the
   size with the Neo-Hookean material. The two compute the same sums in a different order: forces and energy agree to
   1e-12 of their scale (sums of about (p+1)^(2 dim) terms, each with round-off near 1e-16), the finite-difference
   stiffness (force differences over a step of 1e-6 of the element size) to 1e-7. */
/* max_k |a_k - b_k| (B NULL: max_k |a_k|) */
static PetscReal MaxAbsDiff(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal m = 0;
  for (PetscInt k = 0; k < n; k++) m = PetscMax(m, PetscAbsReal(a[k] - (b ? b[k] : 0)));
  return m;
}

static PetscErrorCode TestSumFactorisation(PetscInt dim, PetscInt p, PetscBool reduced)
{
  const char *names[1] = {"body"};
  SKNURBSPatch patch;
  SKMesh mesh;
  SKBasis basis;
  SKMaterial mat;
  SKFEMFailure fail;
  const PetscReal *X;
  const PetscInt *conn;
  PetscInt nn, ne, nen, deg[3];
  PetscReal *u, *f[3], energy[3] = {0, 0, 0}, fscale, ferr, *K[3], *Xe, *ue, kscale, kerr;
  SKBasisInternalForceFn kernel;
  unsigned long long seed = 11;

  PetscFunctionBeginUser;
  if (dim == 2)
    PetscCall(SKNURBSPatchCreateAnnulus(1.0, 2.0, PETSC_PI / 2, &patch));
  else
    PetscCall(SKNURBSPatchCreateCylinderSection(1.0, 2.0, PETSC_PI / 2, 0.5, &patch));
  PetscCall(SKNURBSPatchGetSizes(patch, NULL, NULL, deg, NULL));
  for (PetscInt d = 0; d < dim; d++) {
    if (deg[d] < p) PetscCall(SKNURBSPatchElevateDegree(patch, d, p - deg[d]));
    PetscCall(SKNURBSPatchRefine(patch, d, d == 1 ? 5 : 3));
  }
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
  if (reduced) {
    PetscBool done;
    PetscCall(SKBasisReduceQuadrature(basis, &done));
    PetscCheck(done && basis->nq == PetscPowInt(p, dim), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%" PetscInt_FMT "D p = %" PetscInt_FMT ": not reduced", dim, p);
  }
  PetscCheck(basis->internal_force, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT "D p = %" PetscInt_FMT ": no sum-factorised kernel",
             dim, p);
  kernel = basis->internal_force;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, NULL, NULL, &ne, NULL, &conn));
  nen = PetscPowInt(p + 1, dim);
  PetscCall(SKMaterialCreate("neo_hookean", dim == 2 ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D, 1.0e7, 0.3, 1000.0, &mat));
  PetscCall(PetscMalloc4(nn * dim, &u, nn * dim, &f[0], nn * dim, &f[1], nn * dim, &f[2]));
  PetscCall(PetscMalloc5(nen * dim * nen * dim, &K[0], nen * dim * nen * dim, &K[1], nen * dim * nen * dim, &K[2], nen * dim, &Xe,
                         nen * dim, &ue));
  for (PetscInt k = 0; k < nn * dim; k++) u[k] = 0.02 * Rand(&seed);
  for (PetscInt pass = 0; pass < 3; pass++) { /* 0: the kernel, 1: the generic loop, 2: the kernel with the stored geometry */
    const PetscInt e      = ne / 2 + 1;       /* an inner element: not the first of the block */
    basis->internal_force = pass == 1 ? NULL : kernel;
    if (pass == 2) PetscCall(SKBasisSetReference(basis, ne, conn, X));
    PetscCall(PetscArrayzero(f[pass], nn * dim));
    PetscCall(SKFEMInternalForce(basis, mat, ne, conn, X, u, f[pass], &energy[pass], &fail));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "failure %d in element %" PetscInt_FMT, (int)fail.kind,
               fail.element);
    for (PetscInt a = 0; a < nen; a++)
      for (PetscInt d = 0; d < dim; d++) Xe[a * dim + d] = X[conn[e * nen + a] * dim + d], ue[a * dim + d] = u[conn[e * nen + a] * dim + d];
    PetscCall(SKFEMBlockElementStiffness(basis, mat, e, Xe, ue, K[pass], &fail));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "stiffness: failure %d", (int)fail.kind);
  }
  basis->internal_force = kernel;
  fscale = MaxAbsDiff(nn * dim, f[1], NULL), ferr = MaxAbsDiff(nn * dim, f[0], f[1]);
  kscale = MaxAbsDiff(nen * dim * nen * dim, K[1], NULL), kerr = MaxAbsDiff(nen * dim * nen * dim, K[0], K[1]);
  PetscCheck(ferr <= 1e-12 * fscale && PetscAbsReal(energy[0] - energy[1]) <= 1e-12 * PetscAbsReal(energy[1]) && kerr <= 1e-7 * kscale,
             PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%" PetscInt_FMT "D p = %" PetscInt_FMT
             "%s: sum factorisation off the element loop by %g (force), %g (energy), %g (stiffness), relative",
             dim, p, reduced ? " (reduced rule)" : "", (double)(ferr / fscale),
             (double)(PetscAbsReal(energy[0] - energy[1]) / PetscAbsReal(energy[1])), (double)(kerr / kscale));
  /* the stored geometry is the same arithmetic as the recomputed one: bit for bit where no multiply-add is fused; with
     -ffp-contract=fast (the tuned build, SK_FP_CONTRACT_FAST) the compiler may fuse the two instances differently, and
     then they agree to round-off: the bounds of the sum factorisation above */
#if defined(SK_FP_CONTRACT_FAST)
  ferr = MaxAbsDiff(nn * dim, f[0], f[2]), kerr = MaxAbsDiff(nen * dim * nen * dim, K[0], K[2]);
  PetscCheck(ferr <= 1e-12 * fscale && PetscAbsReal(energy[0] - energy[2]) <= 1e-12 * PetscAbsReal(energy[1]) && kerr <= 1e-7 * kscale,
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT "D p = %" PetscInt_FMT ": the stored geometry changes the force", dim, p);
#else
  PetscCheck(!memcmp(f[0], f[2], nn * dim * sizeof(PetscReal)) && energy[0] == energy[2] &&
                 !memcmp(K[0], K[2], nen * dim * nen * dim * sizeof(PetscReal)),
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT "D p = %" PetscInt_FMT ": the stored geometry changes the force", dim, p);
#endif
  PetscCall(PetscFree4(u, f[0], f[1], f[2]));
  PetscCall(PetscFree5(K[0], K[1], K[2], Xe, ue));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduced rule is refused where it has spurious zero-energy modes (docs/theory.md, "Reduced quadrature of patches"):
   p = 1, and patches with a single span in two or more directions (in 2D: in both); the basis then keeps the full
   rule. SPANS: spans per direction. */
static PetscErrorCode TestReducedWhere(PetscInt dim, PetscInt p, const PetscInt spans[], PetscBool expect)
{
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const char *names[1] = {"body"};
  SKNURBSPatch patch;
  SKMesh mesh;
  SKBasis basis;
  SKBasisInfo info;
  PetscBool reduced;

  PetscFunctionBeginUser;
  PetscCall(SKNURBSPatchCreateBox(dim, lo, hi, &patch));
  for (PetscInt d = 0; d < dim; d++) {
    if (p > 1) PetscCall(SKNURBSPatchElevateDegree(patch, d, p - 1));
    PetscCall(SKNURBSPatchRefine(patch, d, spans[d]));
  }
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_SELF, 1, &patch, names, &mesh));
  PetscCall(SKBasisCreateForBlock(mesh, 0, &basis));
  PetscCall(SKBasisReduceQuadrature(basis, &reduced));
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCheck(reduced == expect && info.qpoints == PetscPowInt(expect ? p : p + 1, dim), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%" PetscInt_FMT "D p = %" PetscInt_FMT ", %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT
             " spans: reduced %d with %" PetscInt_FMT " points, expected %d",
             dim, p, spans[0], spans[1], dim == 3 ? spans[2] : 1, (int)reduced, info.qpoints, (int)expect);
  PetscCall(SKBasisDestroy(&basis));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestRegistry());
  for (PetscInt p = 1; p <= 4; p++) {
    PetscCall(PatchTest(2, p, "linear_elastic", PETSC_FALSE));
    PetscCall(PatchTest(2, p, "neo_hookean", PETSC_FALSE));
    PetscCall(PatchTest(2, p, "neo_hookean", PETSC_TRUE));
  }
  for (PetscInt p = 1; p <= 3; p++) {
    PetscCall(PatchTest(3, p, "neo_hookean", PETSC_FALSE));
    PetscCall(PatchTest(3, p, "neo_hookean", PETSC_TRUE));
  }
  {
    const PetscInt s11[3] = {1, 1, 4}, s12[3] = {1, 2, 1}, s21[3] = {2, 1, 1}, s13[3] = {1, 3, 2}, s14[3] = {1, 4, 1};
    PetscCall(TestReducedWhere(2, 2, s11, PETSC_FALSE)); /* 1 x 1 */
    PetscCall(TestReducedWhere(2, 3, s12, PETSC_TRUE));  /* 1 x 2 */
    PetscCall(TestReducedWhere(2, 1, s21, PETSC_FALSE)); /* p = 1 */
    PetscCall(TestReducedWhere(3, 3, s11, PETSC_FALSE)); /* 1 x 1 x 4 */
    PetscCall(TestReducedWhere(3, 2, s14, PETSC_FALSE)); /* 1 x 4 x 1 */
    PetscCall(TestReducedWhere(3, 3, s13, PETSC_TRUE));  /* 1 x 3 x 2 */
  }
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt p = 2; p <= 3; p++) {
      PetscCall(TestSumFactorisation(dim, p, PETSC_FALSE));
      PetscCall(TestSumFactorisation(dim, p, PETSC_TRUE));
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bezier: all tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
