/* Bezier cells: NURBS patches (module iga) as mesh blocks whose elements are knot spans, with the registered cell
   type that describes them and the shell basis that evaluates the rational basis by Bezier extraction inside the
   ordinary element loops. */
#include "bezierimpl.h"
#include <string.h>

/* ---- the cell types (one per dimension and degree, registered on first use) ---- */

typedef struct {
  SKElementTypeInfo info;
  char name[32];
  PetscInt *face_nodes;
} SKBezierCellInfo;

static SKBezierCellInfo *sk_bezier_cells[2][SK_IGA_MAX_DEGREE + 1]; /* [dim - 2][p]; live for the whole program */

static PetscErrorCode SKBezierCreateBasis(SKMesh mesh, PetscInt block, void *basis);

PetscErrorCode SKBezierCellType(PetscInt dim, PetscInt p, SKElementType *type)
{
  SKBezierCellInfo *c;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Bezier cells of dimension %" PetscInt_FMT ": need 2 or 3",
             dim);
  PetscCheck(p >= 1 && p <= SK_IGA_MAX_DEGREE && PetscPowInt(p + 1, dim) <= SK_ELEMENT_MAX_NODES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Bezier cells of degree %" PetscInt_FMT " in %" PetscInt_FMT "D: need 1 <= p with (p+1)^dim <= %d control points per element",
             p, dim, SK_ELEMENT_MAX_NODES);
  c = sk_bezier_cells[dim - 2][p];
  if (!c) {
    const PetscInt q = p + 1, nf = 2 * dim, nfn = dim == 2 ? q : q * q;
    /* plain calloc: the description must outlive PetscFinalize() like the built-in table (reachable, never freed) */
    c = (SKBezierCellInfo *)calloc(1, sizeof(*c));
    PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    c->face_nodes = (PetscInt *)calloc((size_t)(nf * nfn), sizeof(PetscInt));
    PetscCheck(c->face_nodes, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    for (PetscInt f = 0; f < nf; f++) { /* the control points with index 0 or p in direction f/2, tensor order */
      const PetscInt d = f / 2, fixed = (f % 2) ? p : 0;
      PetscInt n = 0;
      for (PetscInt a = 0; a < PetscPowInt(q, dim); a++) {
        const PetscInt ia = (a / PetscPowInt(q, d)) % q;
        if (ia == fixed) c->face_nodes[f * nfn + n++] = a;
      }
    }
    PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "Bezier-%s%" PetscInt_FMT, dim == 2 ? "Q" : "H", p));
    c->info.name                = c->name;
    c->info.dim                 = dim;
    c->info.num_nodes           = PetscPowInt(q, dim);
    c->info.num_corners         = c->info.num_nodes; /* METIS sees every control point: neighbours share a face's worth */
    c->info.order               = p;
    c->info.simplex             = PETSC_FALSE;
    c->info.vtk_type            = dim == 2 ? 77 : 79; /* VTK_BEZIER_QUADRILATERAL, VTK_BEZIER_HEXAHEDRON */
    c->info.num_faces           = nf;
    c->info.face_name           = NULL;
    c->info.num_face_nodes      = nfn;
    c->info.num_face_corners    = 0; /* faces are not matched by nodes */
    c->info.face_nodes          = c->face_nodes;
    c->info.ref_coords          = NULL;
    c->info.num_common          = nfn;
    c->info.create_basis        = SKBezierCreateBasis;
    sk_bezier_cells[dim - 2][p] = c;
  }
  PetscCall(SKElementTypeRegister(&c->info, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the basis ---- */

static PetscErrorCode SKBezierBasisDestroy(void *ctx)
{
  SKBezierBasis *bb = (SKBezierBasis *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree2(bb->span, bb->w));
  PetscCall(PetscFree(bb->geo));
  for (PetscInt d = 0; d < bb->dim; d++) {
    PetscCall(PetscFree2(bb->force.N[d], bb->force.dN[d]));
    PetscCall(PetscFree2(bb->mass.N[d], bb->mass.dN[d]));
  }
  PetscCall(PetscFree(bb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tables and weights of RULE: m Gauss points per direction on every span of the patch's extraction operators. */
static PetscErrorCode SKBezierRuleTabulate(SKBezierBasis *bb, PetscInt m, SKBezierRule *rule)
{
  const PetscInt q = bb->q;
  PetscReal x[SK_IGA_MAX_DEGREE + 1], w[SK_IGA_MAX_DEGREE + 1], B[SK_IGA_MAX_DEGREE + 1][SK_IGA_MAX_DEGREE + 1],
      dB[SK_IGA_MAX_DEGREE + 1][SK_IGA_MAX_DEGREE + 1];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < bb->dim; d++) PetscCall(PetscFree2(rule->N[d], rule->dN[d]));
  rule->m  = m;
  rule->nq = PetscPowInt(m, bb->dim);
  PetscCall(SKQuadratureGaussLegendre(m, x, w));
  for (PetscInt g = 0; g < m; g++) SKBernsteinBasis(bb->p, x[g], B[g], dB[g]);
  for (PetscInt d = 0; d < bb->dim; d++) { /* N = C B per span and Gauss point */
    PetscCall(PetscMalloc2(bb->nspan[d] * m * q, &rule->N[d], bb->nspan[d] * m * q, &rule->dN[d]));
    for (PetscInt k = 0; k < bb->nspan[d]; k++)
      for (PetscInt g = 0; g < m; g++)
        for (PetscInt a = 0; a < q; a++) {
          const PetscReal *C = bb->C[d] + (k * q + a) * q;
          PetscReal v = 0.0, dv = 0.0;
          for (PetscInt i = 0; i < q; i++) v += C[i] * B[g][i], dv += C[i] * dB[g][i];
          rule->N[d][(k * m + g) * q + a]  = v;
          rule->dN[d][(k * m + g) * q + a] = dv;
        }
  }
  for (PetscInt qp = 0; qp < rule->nq; qp++) {
    PetscInt rest = qp;
    rule->wq[qp]  = 1.0;
    for (PetscInt d = 0; d < bb->dim; d++, rest /= m) rule->wq[qp] *= w[rest % m];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rational basis of element e at point g of RULE: R[a], dR[a*dim + k] = dR_a/dxi_k. */
static inline void SKBezierElementBasis(const SKBezierBasis *bb, const SKBezierRule *rule, PetscInt e, PetscInt g, PetscReal R[],
                                        PetscReal dR[])
{
  const PetscInt qd = bb->q, m = rule->m, p[3] = {bb->p, bb->p, bb->p};
  PetscReal N1[3][SK_IGA_MAX_DEGREE + 1], dN1[3][SK_IGA_MAX_DEGREE + 1];
  PetscInt rest = g;

  for (PetscInt d = 0; d < bb->dim; d++) {
    const PetscInt gd   = rest % m; /* Gauss point of direction d (the tensor rule numbers direction 0 fastest) */
    const PetscInt off  = (bb->span[e * bb->dim + d] * m + gd) * qd;
    const PetscReal *v  = rule->N[d] + off;
    const PetscReal *dv = rule->dN[d] + off;
    rest /= m;
    for (PetscInt a = 0; a < qd; a++) N1[d][a] = v[a], dN1[d][a] = dv[a];
  }
  SKRationalTensorBasis(bb->dim, p, N1, dN1, bb->w + e * bb->nen, R, dR);
}

static unsigned SKBezierGeometry(SKBasis basis, PetscInt q, const PetscInt elem[], const PetscReal X[], PetscReal N[], PetscReal dNdX[],
                                 PetscReal wdetJ[])
{
  const SKBezierBasis *bb = (const SKBezierBasis *)basis->ctx;
  const PetscInt dim = bb->dim, nen = bb->nen;
  SK_ALIGN PetscReal jac[9 * SK_L], G[9 * SK_L], det[SK_L];
  PetscReal dRb[SK_ELEMENT_MAX_NODES * 3 * SK_L];

  for (PetscInt l = 0; l < SK_L; l++) {
    PetscReal R[SK_ELEMENT_MAX_NODES], dR[SK_ELEMENT_MAX_NODES * 3];
    SKBezierElementBasis(bb, &bb->force, elem[l], q, R, dR);
    for (PetscInt a = 0; a < nen; a++) {
      if (N) N[a * SK_L + l] = R[a];
      for (PetscInt k = 0; k < dim; k++) dRb[(a * dim + k) * SK_L + l] = dR[a * dim + k];
    }
  }
  for (PetscInt k = 0; k < dim * dim * SK_L; k++) jac[k] = 0.0;
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt k = 0; k < dim; k++)
        for (PetscInt l = 0; l < SK_L; l++) SK_AT(jac, dim, d, k, l) += X[(a * dim + d) * SK_L + l] * dRb[(a * dim + k) * SK_L + l];
  SKLanesDetInvT(dim, jac, det, G); /* G[d][k] = (dX/dxi)^{-1}_{kd} */
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt l = 0; l < SK_L; l++) {
        PetscReal s = 0.0;
        for (PetscInt k = 0; k < dim; k++) s += dRb[(a * dim + k) * SK_L + l] * SK_AT(G, dim, d, k, l);
        dNdX[(a * dim + d) * SK_L + l] = s;
      }
  for (PetscInt l = 0; l < SK_L; l++) wdetJ[l] = bb->force.wq[q] * det[l];
  return SKLanesNonPositive(det);
}

/* The consistent-mass factors of Bezier cells (their mass_setup): G[e*nq + g] = rho w_g det J / W^2 at the Gauss points of
   the mass rule (p + 1 per direction, whatever the force's), W = sum_A w_A N_A; (M x)_A = int rho R_A R_B x_B dV then needs only the
   B-splines (SKBezierMassApply). The rule of p + 1 points per direction is exact for M on elements with an affine map (degree 2p per
   direction) and the usual full integration otherwise (docs/theory.md, "Higher-order mass of patches"). */
static PetscErrorCode SKBezierMassSetUp(SKBasis basis, PetscReal rho, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                        PetscReal **G, SKFEMFailure *fail)
{
  const SKBezierBasis *bb  = (const SKBezierBasis *)basis->ctx;
  const SKBezierRule *rule = &bb->mass;
  const PetscInt dim = bb->dim, nen = bb->nen, nq = rule->nq, q = bb->q, m = rule->m;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nelem * nq, G));
  SetFailure(fail, SK_FEM_OK, -1, -1, 0.0);
  for (PetscInt e = 0; e < nelem; e++)
    for (PetscInt g = 0; g < nq; g++) {
      PetscReal R[SK_ELEMENT_MAX_NODES], dR[SK_ELEMENT_MAX_NODES * 3], J[9] = {0}, det, W = 0.0;
      SKBezierElementBasis(bb, rule, e, g, R, dR);
      for (PetscInt a = 0; a < nen; a++) {
        PetscReal N   = bb->w[e * nen + a];
        PetscInt rest = g, ra = a;
        for (PetscInt d = 0; d < dim; d++, rest /= m, ra /= q) N *= rule->N[d][(bb->span[e * dim + d] * m + rest % m) * q + ra % q];
        W += N;
        for (PetscInt i = 0; i < dim; i++)
          for (PetscInt k = 0; k < dim; k++) J[i * dim + k] += X[conn[e * nen + a] * dim + i] * dR[a * dim + k];
      }
      det = dim == 2 ? J[0] * J[3] - J[1] * J[2]
                     : J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
      if (!(det > 0.0) || !(W > 0.0)) {
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, e, g, det);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      (*G)[e * nq + g] = rho * rule->wq[g] * det / (W * W);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduced rule of the internal force (its reduce_quadrature): p Gauss points per direction instead of p + 1, where
   it has no spurious zero-energy modes. It has some on patches with a single span in two or more directions (in 2D: in
   both) and for p = 1 (one point: hourglass modes); those keep the full rule (docs/theory.md, "Reduced quadrature of
   patches"). Before the reference geometry is stored. */
static PetscErrorCode SKBezierReduceQuadrature(SKBasis basis, PetscBool *reduced)
{
  SKBezierBasis *bb = (SKBezierBasis *)basis->ctx;
  PetscInt single   = 0;

  PetscFunctionBegin;
  PetscCheck(!bb->geo, PETSC_COMM_SELF, PETSC_ERR_ORDER, "set the quadrature of a Bezier basis before its reference geometry");
  for (PetscInt d = 0; d < bb->dim; d++) single += bb->nspan[d] == 1;
  *reduced = (PetscBool)(bb->p >= 2 && single < 2);
  if (!*reduced || bb->force.m < bb->q) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKBezierRuleTabulate(bb, bb->q - 1, &bb->force));
  basis->nq             = bb->force.nq;
  basis->internal_force = SKBezierInternalForceKernel(bb->dim, bb->q, bb->force.m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKBezierCreateBasis(SKMesh mesh, PetscInt block, void *basis_out)
{
  SKBasis *basis = (SKBasis *)basis_out;
  SKNURBSPatch patch;
  SKBezierBasis *bb;
  SKElementType type;
  const SKElementTypeInfo *info;
  const char *name;
  PetscInt ne, pdim, deg[3], *natural, *idx;
  PetscReal *weights;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKMeshGetBlock(mesh, block, &name, NULL, &type, &ne, NULL, NULL));
  PetscCall(SKElementTypeGetInfo(type, &info));
  PetscCall(SKMeshGetBlockCellData(mesh, block, (void **)&patch));
  PetscCheck(patch, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "block '%s' of %s cells has no NURBS patch: such blocks come from NURBS patch inputs", name, info->name);
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, NULL));
  PetscCall(PetscNew(&bb));
  bb->dim = pdim;
  bb->p   = deg[0];
  bb->q   = deg[0] + 1;
  bb->nen = info->num_nodes;
  for (PetscInt d = 0; d < pdim; d++) PetscCall(SKNURBSPatchGetExtraction(patch, d, &bb->nspan[d], &bb->C[d], NULL));
  PetscCall(SKBezierRuleTabulate(bb, bb->q, &bb->force));
  PetscCall(SKBezierRuleTabulate(bb, bb->q, &bb->mass));
  /* local element -> patch element (a distributed block holds some of the patch's elements) */
  {
    PetscInt ncp;
    PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
    PetscCall(PetscMalloc3(ne, &natural, bb->nen, &idx, ncp, &weights));
    PetscCall(SKNURBSPatchGetControlPoints(patch, NULL, weights));
  }
  PetscCall(SKMeshGetBlockNaturalElements(mesh, block, natural));
  PetscCall(PetscMalloc2(ne * pdim, &bb->span, ne * bb->nen, &bb->w));
  for (PetscInt e = 0; !ierr && e < ne; e++) {
    if (e % 4096 == 4095) ierr = SKSignalCheckSerial();
    if (!ierr) ierr = SKNURBSPatchGetElementSpans(patch, natural[e], bb->span + e * pdim);
    if (!ierr) ierr = SKNURBSPatchGetElementControlPoints(patch, natural[e], idx);
    for (PetscInt a = 0; !ierr && a < bb->nen; a++) bb->w[e * bb->nen + a] = weights[idx[a]];
  }
  PetscCall(PetscFree3(natural, idx, weights));
  if (ierr) PetscCall(SKBezierBasisDestroy(bb)); /* a signal stops the set-up here: nothing half-made is left behind */
  PetscCall(ierr);
  PetscCall(SKBasisCreateShell(info->name, pdim, bb->nen, bb->force.nq, info->vtk_type, SKBezierGeometry, bb, basis));
  PetscCall(SKBasisShellSetContextDestroy(*basis, SKBezierBasisDestroy));
  (*basis)->internal_force    = SKBezierInternalForceKernel(pdim, bb->q, bb->q); /* NULL: the generic loop */
  (*basis)->reduce_quadrature = SKBezierReduceQuadrature;
  (*basis)->element_mass      = SKBezierElementMass;
  (*basis)->set_reference     = SKBezierSetReference;
  (*basis)->mass_setup        = SKBezierMassSetUp;
  (*basis)->mass_apply        = SKBezierMassApply;
  (*basis)->degree            = bb->p;
  (*basis)->reference_measure = pdim == 2 ? 4.0 : 8.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- output: the rational Bezier points of the spans ---- */

PetscInt SKBezierVTKPointIndex(PetscInt dim, PetscInt p, PetscInt i, PetscInt j, PetscInt k)
{
  const PetscInt m   = p - 1; /* points strictly inside an edge */
  const PetscBool ib = (PetscBool)(i == 0 || i == p), jb = (PetscBool)(j == 0 || j == p), kb = (PetscBool)(dim == 2 || k == 0 || k == p);
  const PetscInt nb = (PetscInt)ib + (PetscInt)jb + (PetscInt)kb, corner = i ? (j ? 2 : 1) : (j ? 3 : 0);
  PetscInt offset;

  if ((dim != 2 && dim != 3) || p < 1 || i < 0 || i > p || j < 0 || j > p || k < 0 || k > (dim == 2 ? 0 : p)) return -1;
  if (dim == 2) {
    if (nb == 3) return corner;
    if (!ib && !jb) return 4 + 4 * m + (i - 1) + m * (j - 1);
    if (!ib) return 4 + (i - 1) + (j ? 2 * m : 0); /* edges along i: bottom (j = 0), then top */
    return 4 + (j - 1) + (i ? m : 3 * m);          /* edges along j: right (i = p) after the bottom, left after the top */
  }
  if (nb == 3) return corner + (k ? 4 : 0);
  offset = 8;
  if (nb == 2) {
    if (!ib) return offset + (i - 1) + (j ? 2 * m : 0) + (k ? 4 * m : 0);
    if (!jb) return offset + (j - 1) + (i ? m : 3 * m) + (k ? 4 * m : 0);
    /* the vertical edges: VTK's files before version 2.2 (ours: 1.0) list them at corners 0, 1, 3, 2 */
    return offset + 8 * m + (k - 1) + m * (i ? (j ? 3 : 1) : (j ? 2 : 0));
  }
  offset += 12 * m;
  if (nb == 1) {
    if (ib) return offset + (j - 1) + m * (k - 1) + (i ? m * m : 0);
    offset += 2 * m * m;
    if (jb) return offset + (i - 1) + m * (k - 1) + (j ? m * m : 0);
    offset += 2 * m * m;
    return offset + (i - 1) + m * (j - 1) + (k ? m * m : 0);
  }
  offset += 6 * m * m;
  return offset + (i - 1) + m * ((j - 1) + m * (k - 1));
}

PetscErrorCode SKMeshGetBezierPoints(SKMesh mesh, PetscInt b, PetscInt *degree, PetscInt *npoints, PetscReal **coef, PetscReal **weight)
{
  SKNURBSPatch patch;
  SKElementType type;
  const SKElementTypeInfo *info;
  const char *name;
  const PetscReal *C[3];
  PetscInt ne, pdim, deg[3], ncp, q, nen, *natural, *idx;
  PetscReal *w, *cf, *wb;

  PetscFunctionBegin;
  PetscCall(SKMeshGetBlock(mesh, b, &name, NULL, &type, &ne, NULL, NULL));
  PetscCall(SKElementTypeGetInfo(type, &info));
  PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
  PetscCheck(patch && info->create_basis == SKBezierCreateBasis, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "block '%s' holds %s cells, not the Bezier cells of a NURBS patch", name, info->name);
  PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, deg, NULL));
  PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
  q   = deg[0] + 1;
  nen = info->num_nodes;
  for (PetscInt d = 0; d < pdim; d++) PetscCall(SKNURBSPatchGetExtraction(patch, d, NULL, &C[d], NULL));
  PetscCall(PetscMalloc3(ne, &natural, nen, &idx, ncp, &w));
  PetscCall(PetscMalloc1(ne * nen * nen, &cf));
  PetscCall(PetscMalloc1(ne * nen, &wb));
  PetscCall(SKNURBSPatchGetControlPoints(patch, NULL, w));
  PetscCall(SKMeshGetBlockNaturalElements(mesh, b, natural));
  for (PetscInt e = 0; e < ne; e++) {
    PetscInt k[3] = {0, 0, 0};
    PetscCall(SKNURBSPatchGetElementSpans(patch, natural[e], k));
    PetscCall(SKNURBSPatchGetElementControlPoints(patch, natural[e], idx));
    for (PetscInt t = 0; t < nen; t++) { /* Bezier point t (tensor order) -> VTK position v */
      const PetscInt it[3] = {t % q, (t / q) % q, pdim == 3 ? t / (q * q) : 0};
      const PetscInt v     = SKBezierVTKPointIndex(pdim, deg[0], it[0], it[1], it[2]);
      PetscReal *row = cf + (e * nen + v) * nen, sum = 0.0;

      /* projective Bezier point: sum_a (prod_d C_d[a_d][i_d]) (w_a x_a, w_a); its weight is the last component */
      for (PetscInt a = 0; a < nen; a++) {
        PetscReal c = w[idx[a]];
        for (PetscInt d = 0, rest = a; d < pdim; d++, rest /= q) c *= C[d][(k[d] * q + rest % q) * q + it[d]];
        row[a] = c;
        sum += c;
      }
      PetscCheck(sum > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block '%s' element %" PetscInt_FMT ": Bezier weight %g is not positive", name,
                 natural[e], (double)sum);
      for (PetscInt a = 0; a < nen; a++) row[a] /= sum;
      wb[e * nen + v] = sum;
    }
  }
  PetscCall(PetscFree3(natural, idx, w));
  if (degree) *degree = deg[0];
  if (npoints) *npoints = nen;
  *coef   = cf;
  *weight = wb;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- patches as mesh blocks ---- */

static PetscErrorCode SKBezierPatchDestroy(void *ctx)
{
  SKNURBSPatch patch = (SKNURBSPatch)ctx;

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks, node sets and side sets of the Lagrange mesh EXTRA appended to MESH, its nodes numbered from NODE0 and its
   elements from ELEM0 (after the patches': the patch-face code counts control points patch after patch from 0). */
static PetscErrorCode AppendLagrangeMesh(SKMesh mesh, SKMesh extra, PetscInt node0, PetscInt elem0, PetscInt id0)
{
  PetscInt nb, nsets, *buf;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(extra, &nb));
  for (PetscInt b = 0; b < nb; b++) {
    const char *name;
    SKElementType type;
    const SKElementTypeInfo *info;
    const PetscInt *conn;
    PetscInt ne;
    PetscCall(SKMeshGetBlock(extra, b, &name, NULL, &type, &ne, NULL, &conn));
    PetscCall(SKElementTypeGetInfo(type, &info));
    PetscCall(PetscMalloc1(ne * info->num_nodes, &buf));
    for (PetscInt k = 0; k < ne * info->num_nodes; k++) buf[k] = conn[k] + node0;
    PetscCall(SKMeshAddBlock(mesh, name, id0 + b + 1, type, ne, buf));
    PetscCall(PetscFree(buf));
  }
  PetscCall(SKMeshGetNumNodeSets(extra, &nsets));
  for (PetscInt i = 0; i < nsets; i++) {
    const char *name;
    const PetscInt *nodes;
    PetscInt n;
    PetscCall(SKMeshGetNodeSet(extra, i, &name, &n, &nodes, NULL));
    PetscCall(PetscMalloc1(n, &buf));
    for (PetscInt k = 0; k < n; k++) buf[k] = nodes[k] + node0;
    PetscCall(SKMeshAddNodeSet(mesh, name, n, buf));
    PetscCall(PetscFree(buf));
  }
  PetscCall(SKMeshGetNumSideSets(extra, &nsets));
  for (PetscInt i = 0; i < nsets; i++) {
    const char *name;
    const PetscInt *elements, *faces;
    PetscInt n;
    PetscCall(SKMeshGetSideSet(extra, i, &name, &n, &elements, &faces, NULL));
    PetscCall(PetscMalloc1(n, &buf));
    for (PetscInt k = 0; k < n; k++) buf[k] = elements[k] + elem0;
    PetscCall(SKMeshAddSideSet(mesh, name, n, buf, faces));
    PetscCall(PetscFree(buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work of AddPatchBlock(), freed by its caller whatever happens: the copy of the patch until the mesh keeps it (then
   NULL) and the connectivity and set arrays */
typedef struct {
  SKNURBSPatch copy;
  PetscInt *conn, *nodes, *elements, *faces;
} PatchBlockWork;

/* Block I (named NAME) of MESH from a copy of PATCH, which the mesh keeps, its control points numbered from OFFSET: the
   node set of the whole patch and the node and side sets of its faces, also under the bare face names when BARE; *NELEM
   its element count */
static PetscErrorCode AddPatchBlock(SKMesh mesh, PetscInt i, SKNURBSPatch patch, const char name[], PetscInt offset, PetscInt dim,
                                    PetscBool bare, PatchBlockWork *w, PetscInt *nelem_out)
{
  SKNURBSPatch copy;
  SKElementType type;
  PetscInt deg[3], nelem, nen, nel[3], *conn, *nodes, *elements, *faces, ncp;
  char set[SK_MESH_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(SKNURBSPatchGetSizes(patch, NULL, NULL, deg, NULL));
  PetscCall(SKBezierCellType(dim, deg[0], &type));
  PetscCall(SKNURBSPatchDuplicate(patch, &w->copy));
  copy = w->copy;
  PetscCall(SKNURBSPatchGetNumElements(copy, &nelem, nel));
  PetscCall(SKNURBSPatchGetElementSize(copy, &nen));
  PetscCall(SKNURBSPatchGetControlNet(copy, &ncp, NULL));
  PetscCall(PetscMalloc4(nelem * nen, &w->conn, ncp, &w->nodes, nelem, &w->elements, nelem, &w->faces));
  conn = w->conn, nodes = w->nodes, elements = w->elements, faces = w->faces;
  for (PetscInt e = 0; e < nelem; e++) {
    if (e % 4096 == 4095) PetscCall(SKSignalCheckSerial());
    PetscCall(SKNURBSPatchGetElementControlPoints(copy, e, conn + e * nen));
    for (PetscInt a = 0; a < nen; a++) conn[e * nen + a] += offset;
  }
  PetscCall(SKMeshAddBlock(mesh, name, i + 1, type, nelem, conn));
  PetscCall(SKMeshSetBlockCellData(mesh, i, copy, SKBezierPatchDestroy));
  w->copy = NULL; /* the mesh's now */
  for (PetscInt k = 0; k < ncp; k++) nodes[k] = offset + k;
  PetscCall(SKMeshAddNodeSet(mesh, name, ncp, nodes)); /* the whole body */
  for (PetscInt f = 0; f < 2 * dim; f++) {
    const PetscInt d = f / 2, at = (f % 2) ? nel[d] - 1 : 0;
    PetscInt n, ns               = 0, first;
    PetscCall(SKMeshGetBlock(mesh, i, NULL, NULL, NULL, NULL, &first, NULL));
    PetscCall(SKNURBSPatchGetFaceControlPoints(copy, f, &n, nodes));
    for (PetscInt k = 0; k < n; k++) nodes[k] += offset;
    for (PetscInt e = 0; e < nelem; e++) {
      PetscInt k[3];
      PetscCall(SKNURBSPatchGetElementSpans(copy, e, k));
      if (k[d] == at) elements[ns] = first + e, faces[ns++] = f;
    }
    PetscCall(PetscSNPrintf(set, sizeof(set), "%s_%s", name, SKNURBSPatchFaceName(f)));
    PetscCall(SKMeshAddNodeSet(mesh, set, n, nodes));
    PetscCall(SKMeshAddSideSet(mesh, set, ns, elements, faces));
    if (bare) {
      PetscCall(SKMeshAddNodeSet(mesh, SKNURBSPatchFaceName(f), n, nodes));
      PetscCall(SKMeshAddSideSet(mesh, SKNURBSPatchFaceName(f), ns, elements, faces));
    }
  }
  *nelem_out = nelem;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SKMeshCreateFromNURBSPatches() with the Lagrange mesh EXTRA (or NULL) after the patches. */
static PetscErrorCode CreatePatchMesh(MPI_Comm comm, PetscInt npatch, const SKNURBSPatch patches[], const char *const names[], SKMesh extra,
                                      SKMesh *mesh)
{
  PetscInt dim = 0, ntotal = 0, *offset, nextra = 0, nelem_patches = 0;
  PetscReal *X;
  const PetscReal *Xextra = NULL;

  PetscFunctionBegin;
  PetscCheck(npatch >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "need at least one patch, got %" PetscInt_FMT, npatch);
  PetscCall(PetscMalloc1(npatch + 1, &offset));
  offset[0] = 0;
  for (PetscInt i = 0; i < npatch; i++) {
    PetscInt pdim, sdim, deg[3], ncp;
    PetscCall(SKNURBSPatchGetSizes(patches[i], &pdim, &sdim, deg, NULL));
    PetscCall(SKNURBSPatchGetControlNet(patches[i], &ncp, NULL));
    if (i == 0) dim = pdim;
    PetscCheck(pdim == sdim && pdim == dim && (dim == 2 || dim == 3), comm, PETSC_ERR_ARG_WRONG,
               "patch '%s' is %" PetscInt_FMT "D in %" PetscInt_FMT "D space: a mesh needs %" PetscInt_FMT "D patches in %" PetscInt_FMT
               "D (2 or 3)",
               names[i], pdim, sdim, dim, dim);
    for (PetscInt d = 1; d < pdim; d++)
      PetscCheck(deg[d] == deg[0], comm, PETSC_ERR_ARG_WRONG,
                 "patch '%s' has degree %" PetscInt_FMT " in direction 0 but %" PetscInt_FMT " in direction %" PetscInt_FMT
                 ": elevate to one degree in every direction",
                 names[i], deg[0], deg[d], d);
    offset[i + 1] = offset[i] + ncp;
  }
  ntotal = offset[npatch];
  if (extra) PetscCall(SKMeshGetNodes(extra, &nextra, &Xextra));
  PetscCall(PetscMalloc1((ntotal + nextra) * dim, &X));
  for (PetscInt i = 0; i < npatch; i++) PetscCall(SKNURBSPatchGetControlPoints(patches[i], X + offset[i] * dim, NULL));
  if (extra) PetscCall(PetscArraycpy(X + ntotal * dim, Xextra, nextra * dim));
  PetscCall(SKMeshCreate(comm, dim, ntotal + nextra, X, mesh));
  PetscCall(PetscFree(X));
  for (PetscInt i = 0; i < npatch; i++) {
    PatchBlockWork w = {NULL, NULL, NULL, NULL, NULL};
    PetscInt nelem   = 0;
    PetscErrorCode ierr;
    ierr = AddPatchBlock(*mesh, i, patches[i], names[i], offset[i], dim, (PetscBool)(npatch == 1 && !extra), &w, &nelem);
    PetscCall(SKNURBSPatchDestroy(&w.copy));
    PetscCall(PetscFree4(w.conn, w.nodes, w.elements, w.faces));
    if (ierr) PetscCall(PetscFree(offset)); /* a signal stops the set-up in the element loop: nothing half-made is left behind */
    PetscCall(ierr);
    nelem_patches += nelem;
  }
  if (extra) PetscCall(AppendLagrangeMesh(*mesh, extra, ntotal, nelem_patches, npatch));
  PetscCall(PetscFree(offset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateFromNURBSPatches(MPI_Comm comm, PetscInt npatch, const SKNURBSPatch patches[], const char *const names[],
                                            SKMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(CreatePatchMesh(comm, npatch, patches, names, NULL, mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The NP patches of MESH_NODE (and a Lagrange mesh file beside them) into *MESH: PATCHES[], NAMES[] and NAME_PTR[] are
   the caller's, who frees them whatever happens. */
static PetscErrorCode PatchMeshFromInput(SKInput input, SKNode mesh_node, PetscInt np, SKNURBSPatch patches[],
                                         char (*names)[SK_MESH_NAME_LEN], const char *name_ptr[], SKMesh *mesh)
{
  SKNode first = SKNodeFirstChild(mesh_node, "patch"), item;
  PetscInt i, dim = 0;
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &comm));
  /* the first patch's description fixes the dimension: a generator says it, explicit data by its <knots> */
  {
    SKNode gen = NULL;
    PetscCall(SKNodeGetChild(first, "box", &gen));
    if (!gen) PetscCall(SKNodeGetChild(first, "cylinder", &gen));
    dim = gen || SKNodeCountChildren(first, "knots") == 3 ? 3 : 2;
  }
  for (item = first, i = 0; item; item = SKNodeNextSibling(item, "patch"), i++) {
    PetscBool found;
    PetscCall(SKInputGetString(input, item, "name", names[i], sizeof(names[i]), &found));
    if (!found) PetscCall(PetscStrncpy(names[i], "body", sizeof(names[i])));
    for (PetscInt j = 0; j < i; j++)
      PetscCall(SKInputCheck(input, item, strcmp(names[i], names[j]), "a second patch named '%s'", names[i]));
    name_ptr[i] = names[i];
    PetscCall(SKNURBSPatchCreateFromInput(input, item, dim, &patches[i]));
  }
  { /* a Lagrange mesh from a file beside the patches (its nodes and elements numbered after theirs) */
    char file[PETSC_MAX_PATH_LEN];
    PetscBool has_file;
    SKMesh extra = NULL;
    PetscErrorCode ierr;
    PetscCall(SKInputGetString(input, mesh_node, "file", file, sizeof(file), &has_file));
    if (has_file) {
      PetscInt edim;
      PetscBool msh, xml;
      PetscCall(SKInputRequireFile(input, mesh_node, "file", file, sizeof(file)));
      PetscCall(PetscStrendswith(file, ".msh", &msh));
      PetscCall(PetscStrendswith(file, ".xml", &xml));
      PetscCall(
          SKInputCheck(input, mesh_node, msh || xml, "mesh file '%s' must end in .msh (Gmsh 4.1 ASCII) or .xml (stickslip mesh)", file));
      PetscCall(SKMeshCreateFromFile(comm, file, &extra));
      PetscCall(SKMeshGetDimension(extra, &edim));
      if (edim != dim) {
        PetscCall(SKMeshDestroy(&extra));
        PetscCall(
            SKInputError(input, mesh_node, "mesh file '%s' is %" PetscInt_FMT "D, the patches are %" PetscInt_FMT "D", file, edim, dim));
      }
    }
    ierr = CreatePatchMesh(comm, np, patches, name_ptr, extra, mesh);
    PetscCall(SKMeshDestroy(&extra));
    PetscCall(ierr);
  }
  for (item = first, i = 0; item; item = SKNodeNextSibling(item, "patch"), i++) {
    const PetscReal *X;
    const PetscInt *conn;
    PetscInt ne;
    SKBasis basis;
    SKFEMFailure fail;
    PetscErrorCode ierr;
    PetscCall(SKMeshGetNodes(*mesh, NULL, &X));
    PetscCall(SKMeshGetBlock(*mesh, i, NULL, NULL, NULL, &ne, NULL, &conn));
    PetscCall(SKBasisCreateForBlock(*mesh, i, &basis));
    ierr = SKFEMCheckReference(basis, ne, conn, X, NULL, &fail); /* stops on a signal (long on large patches) */
    PetscCall(SKBasisDestroy(&basis));
    PetscCall(ierr);
    PetscCall(SKInputCheck(input, item, fail.kind == SK_FEM_OK,
                           "patch '%s': element %" PetscInt_FMT " has det(dX/dxi) = %g at quadrature point %" PetscInt_FMT
                           ": the control net folds over (check the order and positions of the control points)",
                           names[i], fail.element, (double)fail.det, fail.qp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshCreateFromPatchInput(SKInput input, SKNode mesh_node, SKMesh *mesh)
{
  const PetscInt np = SKNodeCountChildren(mesh_node, "patch");
  SKNURBSPatch *patches;
  char(*names)[SK_MESH_NAME_LEN];
  const char **name_ptr;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKInputCheck(input, mesh_node, np > 0, "<mesh> has no <patch>"));
  PetscCall(PetscCalloc3(np, &patches, np, &names, np, &name_ptr));
  ierr = PatchMeshFromInput(input, mesh_node, np, patches, names, name_ptr, mesh);
  for (PetscInt i = 0; i < np; i++) PetscCall(SKNURBSPatchDestroy(&patches[i])); /* the mesh keeps copies */
  PetscCall(PetscFree3(patches, names, name_ptr));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMeshLocatePatchPoint(SKMesh mesh, const PetscReal x[], PetscInt *n, PetscInt nodes[], PetscReal R[], PetscReal *distance)
{
  PetscInt nb;

  PetscFunctionBegin;
  *n        = 0;
  *distance = PETSC_MAX_REAL;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  for (PetscInt b = 0; b < nb; b++) {
    SKElementType type;
    const SKElementTypeInfo *info;
    SKNURBSPatch patch;
    PetscInt pdim, nel[3], k[3], e = 0, nen;
    const PetscInt *conn;
    PetscReal u[3], xi[3], dist;

    PetscCall(SKMeshGetBlock(mesh, b, NULL, NULL, &type, NULL, NULL, &conn));
    PetscCall(SKElementTypeGetInfo(type, &info));
    if (info->create_basis != SKBezierCreateBasis) continue;
    PetscCall(SKMeshGetBlockCellData(mesh, b, (void **)&patch));
    PetscCall(SKNURBSPatchInvert(patch, x, u, &dist));
    if (dist >= *distance) continue;
    PetscCall(SKNURBSPatchGetSizes(patch, &pdim, NULL, NULL, NULL));
    PetscCall(SKNURBSPatchGetNumElements(patch, NULL, nel));
    for (PetscInt d = pdim - 1; d >= 0; d--) {
      const PetscReal *range;
      PetscCall(SKNURBSPatchGetExtraction(patch, d, NULL, NULL, &range));
      for (k[d] = 0; k[d] < nel[d] - 1 && u[d] >= range[2 * k[d] + 1]; k[d]++) {}
      xi[d] = 2.0 * (u[d] - range[2 * k[d]]) / (range[2 * k[d] + 1] - range[2 * k[d]]) - 1.0;
      e     = e * nel[d] + k[d];
    }
    PetscCall(SKNURBSPatchGetElementSize(patch, &nen));
    PetscCall(SKNURBSPatchElementBasis(patch, e, xi, R, NULL));
    for (PetscInt a = 0; a < nen; a++) nodes[a] = conn[e * nen + a];
    *n        = nen;
    *distance = dist;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
