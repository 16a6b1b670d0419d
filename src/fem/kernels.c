/* Element loops over a block of one basis and one material on gathered local arrays: internal force and strain energy
   (the explicit hot path, batched over SK_LANES elements so that the lane loops vectorise), lumped mass, reference
   checks, stress output and the finite-difference element stiffness. Results are added into local nodal vectors by
   connectivity in element order, so they do not depend on batching. */
#include <math.h>
#include "femimpl.h"
#include <petscblaslapack.h>

/* Work arrays of one batch; nodal quantities in the batched layout A[(a*dim + d)*SK_LANES + l]. */
typedef struct {
  PetscInt elem[SK_LANES];
  SK_ALIGN PetscReal X[SK_ELEMENT_MAX_NODES * 3 * SK_LANES];
  SK_ALIGN PetscReal U[SK_ELEMENT_MAX_NODES * 3 * SK_LANES];
  SK_ALIGN PetscReal R[SK_ELEMENT_MAX_NODES * 3 * SK_LANES]; /* element residual / work */
  SK_ALIGN PetscReal G[SK_ELEMENT_MAX_NODES * 3 * SK_LANES]; /* dN/dX at one quadrature point */
  SK_ALIGN PetscReal N[SK_ELEMENT_MAX_NODES * SK_LANES];
  SK_ALIGN PetscReal wdetJ[SK_LANES];
} SKBatch;

/* Gathers the nodal field A (ncomp per node) of elements elem[] into the batched layout B. Lanes past the block end
   repeat element b so that their (discarded) results are well defined. */
static inline void Gather(const PetscInt dim, const PetscInt nodes, const PetscInt *restrict conn, const PetscInt *restrict elem,
                          const PetscReal *restrict A, PetscReal *restrict B)
{
  for (PetscInt l = 0; l < SK_L; l++) {
    const PetscInt *c = conn + elem[l] * nodes;
    for (PetscInt a = 0; a < nodes; a++)
      for (PetscInt d = 0; d < dim; d++) B[(a * dim + d) * SK_L + l] = A[c[a] * dim + d];
  }
}

static inline void BatchSetup(PetscInt b, PetscInt nelem, SKBatch *w, PetscInt *nl)
{
  *nl = PetscMin(SK_L, nelem - b);
  for (PetscInt l = 0; l < SK_L; l++) w->elem[l] = b + (l < *nl ? l : 0);
}

static void ClearFailure(SKFEMFailure *fail)
{
  SetFailure(fail, SK_FEM_OK, -1, -1, 0.0);
}

/* The internal-force loop, written once; dim and nodes are compile-time constants in the instantiations below. */
SK_HOT_INLINE PetscErrorCode InternalForceBlock(SKBasis t, SKMaterial mat, const PetscInt dim, const PetscInt nodes, PetscInt nelem,
                                                const PetscInt conn[], const PetscReal Xg[], const PetscReal ug[], PetscReal f[],
                                                PetscReal *energy, SKFEMFailure *fail, SKBatch *w)
{
  const PetscInt nq = t->nq;
  PetscReal esum    = 0.0;
  SKMaterialBatch batch, *mb = &batch; /* a local of its own: the compiler sees that it aliases nothing in *w */
  SK_ALIGN PetscReal wdetJ[SK_L];
  PetscReal *F = mb->F, *P = mb->P;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nelem; b += SK_L) {
    PetscInt nl;
    BatchSetup(b, nelem, w, &nl);
    Gather(dim, nodes, conn, w->elem, Xg, w->X);
    Gather(dim, nodes, conn, w->elem, ug, w->U);
    for (PetscInt k = 0; k < nodes * dim * SK_L; k++) w->R[k] = 0.0;
    for (PetscInt q = 0; q < nq; q++) {
      unsigned bad = SKBasisGeometry(t, dim, nodes, q, w->elem, w->X, NULL, w->G, wdetJ) & LaneMask(nl);
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, b + l, q, t->wq ? wdetJ[l] / t->wq[q] : wdetJ[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      /* F = I + sum_a u_a (x) dN_a/dX */
      for (PetscInt i = 0; i < dim; i++)
        for (PetscInt j = 0; j < dim; j++)
          for (PetscInt l = 0; l < SK_L; l++) SK_AT(F, dim, i, j, l) = (i == j) ? 1.0 : 0.0;
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt i = 0; i < dim; i++)
          for (PetscInt j = 0; j < dim; j++)
            for (PetscInt l = 0; l < SK_L; l++) SK_AT(F, dim, i, j, l) += w->U[(a * dim + i) * SK_L + l] * w->G[(a * dim + j) * SK_L + l];
      PetscCall(SKMaterialStressBatch(mat, mb, energy ? PETSC_TRUE : PETSC_FALSE, &bad));
      bad &= LaneMask(nl);
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_CURRENT, b + l, q, mb->J[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (energy)
        for (PetscInt l = 0; l < nl; l++) esum += wdetJ[l] * mb->psi[l];
      if (!f) continue;
      /* r_a += (w det J) P dN_a/dX */
      for (PetscInt k = 0; k < dim * dim; k++)
        for (PetscInt l = 0; l < SK_L; l++) P[k * SK_L + l] *= wdetJ[l];
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt i = 0; i < dim; i++)
          for (PetscInt j = 0; j < dim; j++)
            for (PetscInt l = 0; l < SK_L; l++) w->R[(a * dim + i) * SK_L + l] += SK_AT(P, dim, i, j, l) * w->G[(a * dim + j) * SK_L + l];
    }
    if (!f) continue;
    for (PetscInt l = 0; l < nl; l++) {
      const PetscInt *c = conn + w->elem[l] * nodes;
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt i = 0; i < dim; i++) f[c[a] * dim + i] += w->R[(a * dim + i) * SK_L + l];
    }
  }
  if (energy) *energy += esum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMInternalForce(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                  const PetscReal u[], PetscReal f[], PetscReal *energy, SKFEMFailure *fail)
{
  const SKMaterialParams *p;
  SKBatch w;

  PetscFunctionBegin;
  PetscCall(SKMaterialGetParams(mat, &p));
  PetscCheck(p->dim == basis->dim, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
             "Material of dimension %" PetscInt_FMT " on %s elements of dimension %" PetscInt_FMT, p->dim, basis->name, basis->dim);
  ClearFailure(fail);
  if (basis->internal_force) {
    PetscCall(basis->internal_force(basis, mat, nelem, conn, X, u, f, energy, fail));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the Lagrange bases with their sizes as compile-time constants, so that the loops unroll and vectorise; shell
     bases (and any type added later) take the generic instantiation */
#define SK_FORCE_CASE(t, d, n)                                                               \
  case t:                                                                                    \
    PetscCall(InternalForceBlock(basis, mat, d, n, nelem, conn, X, u, f, energy, fail, &w)); \
    break
  switch (basis->shell ? SK_ELEMENT_NUM_TYPES : basis->type) {
    SK_FORCE_CASE(SK_ELEMENT_T3, 2, 3);
    SK_FORCE_CASE(SK_ELEMENT_Q4, 2, 4);
    SK_FORCE_CASE(SK_ELEMENT_Q9, 2, 9);
    SK_FORCE_CASE(SK_ELEMENT_T4, 3, 4);
    SK_FORCE_CASE(SK_ELEMENT_H8, 3, 8);
    SK_FORCE_CASE(SK_ELEMENT_H27, 3, 27);
  default:
    PetscCall(InternalForceBlock(basis, mat, basis->dim, basis->nodes, nelem, conn, X, u, f, energy, fail, &w));
  }
#undef SK_FORCE_CASE
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The loop of the non-hot kernels (mass, checks, stress): gather, geometry at each quadrature point, a visitor per
   quadrature point and one per batch. Written once; sizes are run-time values here. */
typedef PetscErrorCode (*SKQuadVisitor)(void *ctx, PetscInt b, PetscInt nl, PetscInt q, SKBatch *w, const PetscReal wdetJ[]);
typedef PetscErrorCode (*SKBatchVisitor)(void *ctx, PetscInt b, PetscInt nl, SKBatch *w);

static PetscErrorCode GeometryLoop(SKBasis t, PetscInt nelem, const PetscInt conn[], const PetscReal Xg[], const PetscReal ug[],
                                   PetscBool need_N, SKQuadVisitor visit_qp, SKBatchVisitor visit_batch, void *ctx, SKFEMFailure *fail)
{
  const PetscInt dim = t->dim, nodes = t->nodes;
  SKBatch batch, *w                  = &batch; /* on the stack, which honours its 64-byte alignment (PetscMalloc does not) */
  PetscReal *wdetJ = w->wdetJ;

  PetscFunctionBegin;
  ClearFailure(fail);
  for (PetscInt b = 0; b < nelem; b += SK_L) {
    PetscInt nl;
    if (b % (64 * SK_L) == 63 * SK_L) PetscCall(SKSignalCheckSerial());
    BatchSetup(b, nelem, w, &nl);
    Gather(dim, nodes, conn, w->elem, Xg, w->X);
    if (ug) Gather(dim, nodes, conn, w->elem, ug, w->U);
    PetscCall(PetscArrayzero(w->R, PetscMax(nodes * dim, 9) * SK_L)); /* visitors use 2*nodes (mass) or 9 (stress) rows */
    for (PetscInt q = 0; q < t->nq; q++) {
      const unsigned bad = SKBasisGeometry(t, dim, nodes, q, w->elem, w->X, need_N ? w->N : NULL, w->G, wdetJ) & LaneMask(nl);
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, b + l, q, t->wq ? wdetJ[l] / t->wq[q] : wdetJ[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (visit_qp) PetscCall(visit_qp(ctx, b, nl, q, w, wdetJ));
    }
    if (visit_batch) PetscCall(visit_batch(ctx, b, nl, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VolumeVisitor(void *ctx, PetscInt b, PetscInt nl, PetscInt q, SKBatch *w, const PetscReal wdetJ[])
{
  PetscReal *volume = (PetscReal *)ctx;

  PetscFunctionBegin;
  (void)b, (void)q, (void)w;
  for (PetscInt l = 0; l < nl; l++) *volume += wdetJ[l];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMCheckReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[], PetscReal *volume,
                                   SKFEMFailure *fail)
{
  PetscReal vol = 0.0;

  PetscFunctionBegin;
  PetscCall(GeometryLoop(basis, nelem, conn, X, NULL, PETSC_FALSE, VolumeVisitor, NULL, &vol, fail));
  if (volume) *volume += vol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  SKBasis t;
  PetscReal rho;
  SKLumping lumping;
  const PetscInt *conn;
  PetscReal *m;
} SKMassCtx;

/* Accumulates int rho N_a (row sums) in R[a] and int rho N_a^2 (consistent diagonal) in R[nodes + a]. */
static PetscErrorCode MassVisitor(void *ctx, PetscInt b, PetscInt nl, PetscInt q, SKBatch *w, const PetscReal wdetJ[])
{
  SKMassCtx *c         = (SKMassCtx *)ctx;
  const PetscInt nodes = c->t->nodes;

  PetscFunctionBegin;
  (void)b, (void)nl, (void)q;
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt l = 0; l < SK_L; l++) {
      const PetscReal Na = w->N[a * SK_L + l], rw = c->rho * wdetJ[l];
      w->R[a * SK_L + l] += rw * Na;
      w->R[(nodes + a) * SK_L + l] += rw * Na * Na;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKFEMLumpElement(SKLumping lumping, PetscReal rho, PetscInt nodes, const PetscReal rowsum[], const PetscReal diag[], PetscInt stride,
                      const PetscInt conn[], PetscReal m[])
{
  PetscReal total = 0.0, dsum = 0.0, rmin = PETSC_MAX_REAL;

  for (PetscInt a = 0; a < nodes; a++) {
    total += rowsum[a * stride];
    rmin = PetscMin(rmin, rowsum[a * stride]);
  }
  /* a row sum that is zero up to round-off (T6 corners) counts as non-positive: it would ruin the time step */
  const PetscBool hrz = lumping == SK_LUMPING_HRZ || (lumping == SK_LUMPING_AUTO && !(rmin > 1e-10 * total));
  if (hrz)
    for (PetscInt a = 0; a < nodes; a++) dsum += diag[a * stride];
  for (PetscInt a = 0; a < nodes; a++) m[conn[a]] += rho * (hrz ? total * diag[a * stride] / dsum : rowsum[a * stride]);
}

static PetscErrorCode MassScatter(void *ctx, PetscInt b, PetscInt nl, SKBatch *w)
{
  SKMassCtx *c         = (SKMassCtx *)ctx;
  const PetscInt nodes = c->t->nodes;

  PetscFunctionBegin;
  (void)b;
  for (PetscInt l = 0; l < nl; l++)
    SKFEMLumpElement(c->lumping, 1.0, nodes, w->R + l, w->R + nodes * SK_L + l, SK_L, c->conn + w->elem[l] * nodes, c->m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gathers the coordinates of element e into Xe (node-interleaved). */
static void GatherElement(PetscInt dim, PetscInt nodes, const PetscInt conn[], PetscInt e, const PetscReal X[], PetscReal Xe[])
{
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt d = 0; d < dim; d++) Xe[a * dim + d] = X[conn[e * nodes + a] * dim + d];
}

/* The basis' own mass integrals of element e (element_mass) for LUMPING: the row sums, and the squares only where the
   lumping needs them (HRZ, or AUTO on an element whose row sums are not all positive) */
static PetscErrorCode ElementMassIntegrals(SKBasis t, SKLumping lumping, PetscInt e, const PetscReal Xe[], PetscReal rowsum[],
                                           PetscReal diag[], PetscBool *inverted)
{
  PetscFunctionBegin;
  PetscCall(t->element_mass(t, e, Xe, rowsum, lumping == SK_LUMPING_HRZ ? diag : NULL, inverted));
  if (!*inverted && lumping == SK_LUMPING_AUTO) {
    PetscReal total = 0.0, rmin = PETSC_MAX_REAL;
    for (PetscInt a = 0; a < t->nodes; a++) total += rowsum[a], rmin = PetscMin(rmin, rowsum[a]);
    if (!(rmin > 1e-10 * total)) PetscCall(t->element_mass(t, e, Xe, rowsum, diag, inverted));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lumped masses through the basis' own element integrals (element_mass). */
static PetscErrorCode LumpedMassByElement(SKBasis t, PetscReal rho, SKLumping lumping, PetscInt nelem, const PetscInt conn[],
                                          const PetscReal X[], PetscReal m[], SKFEMFailure *fail)
{
  const PetscInt dim = t->dim, nodes = t->nodes;
  PetscReal Xe[SK_ELEMENT_MAX_NODES * 3], rowsum[SK_ELEMENT_MAX_NODES], diag[SK_ELEMENT_MAX_NODES];

  PetscFunctionBegin;
  ClearFailure(fail);
  for (PetscInt e = 0; e < nelem; e++) {
    PetscBool inverted;
    GatherElement(dim, nodes, conn, e, X, Xe);
    PetscCall(ElementMassIntegrals(t, lumping, e, Xe, rowsum, diag, &inverted));
    if (inverted) {
      SetFailure(fail, SK_FEM_INVERTED_REFERENCE, e, -1, 0.0);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    SKFEMLumpElement(lumping, rho, nodes, rowsum, diag, 1, conn + e * nodes, m);
    if (e % 64 == 63) PetscCall(SKSignalCheckSerial());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMLumpedMass(SKBasis basis, PetscReal rho, SKLumping lumping, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                               PetscReal m[], SKFEMFailure *fail)
{
  SKMassCtx c = {basis, rho, lumping, conn, m};

  PetscFunctionBegin;
  PetscCheck(rho >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Density %g kg/m^3 must be non-negative", (double)rho);
  if (basis->element_mass)
    PetscCall(LumpedMassByElement(basis, rho, lumping, nelem, conn, X, m, fail));
  else
    PetscCall(GeometryLoop(basis, nelem, conn, X, NULL, PETSC_TRUE, MassVisitor, MassScatter, &c, fail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct _n_SKFEMMassOperator {
  SKBasis basis; /* not owned */
  PetscInt nelem;
  const PetscInt *conn; /* not owned */
  PetscReal *G;         /* what the basis' product needs per element and quadrature point */
};

PetscErrorCode SKBasisHasMassOperator(SKBasis basis, PetscBool *has)
{
  PetscFunctionBegin;
  *has = (PetscBool)(basis->mass_setup && basis->mass_apply);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMMassOperatorCreate(SKBasis basis, PetscReal rho, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                       SKFEMMassOperator *op, SKFEMFailure *fail)
{
  PetscFunctionBegin;
  PetscCheck(basis->mass_setup && basis->mass_apply, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "basis %s has no consistent-mass kernel (NURBS patch cells have one)", basis->name);
  PetscCheck(rho >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Density %g kg/m^3 must be non-negative", (double)rho);
  PetscCall(PetscNew(op));
  (*op)->basis = basis;
  (*op)->nelem = nelem;
  (*op)->conn  = conn;
  PetscCall(basis->mass_setup(basis, rho, nelem, conn, X, &(*op)->G, fail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMMassOperatorApply(SKFEMMassOperator op, PetscInt bs, PetscInt nvec, const PetscReal *const x[], PetscReal *const y[])
{
  PetscFunctionBegin;
  PetscCall(op->basis->mass_apply(op->basis, op->G, op->nelem, NULL, op->conn, bs, nvec, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMMassOperatorApplyElements(SKFEMMassOperator op, PetscInt nsel, const PetscInt sel[], PetscInt bs, PetscInt nvec,
                                              const PetscReal *const x[], PetscReal *const y[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < nsel; i++)
    PetscCheck(sel[i] >= 0 && sel[i] < op->nelem && (i == 0 || sel[i] > sel[i - 1]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "element %" PetscInt_FMT " of the selection is %" PetscInt_FMT ": the selection must be ascending in 0..%" PetscInt_FMT, i,
               sel[i], op->nelem - 1);
  PetscCall(op->basis->mass_apply(op->basis, op->G, nsel, sel, op->conn, bs, nvec, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMMassOperatorDestroy(SKFEMMassOperator *op)
{
  PetscFunctionBegin;
  if (!*op) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*op)->G));
  PetscCall(PetscFree(*op));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the element eigenvalue bound (SKFEMStiffnessBounds) needs: the lumping, the density, the largest lambda_max(M_e^-1 K_e) so
   far, and work: S and R (n x n), eig (n) and work (lwork) for LAPACK, an element's masses m (nodes) and coordinates
   Xe (n), and for a basis without its own mass integrals the batch's int N_a and int N_a^2 (2 nodes SK_L, from the
   stiffness pass's quadrature points) */
typedef struct {
  SKLumping lumping;
  PetscReal rho, omega2;
  PetscReal *S, *R, *eig, *work, *m, *Xe, *rs;
  PetscBLASInt lwork;
  PetscInt nsolve; /* elements that needed the eigen-solve (the others passed the screening) */
} EigenBoundWork;

/* Relative margin of the element bound's screening: an element whose sigma I - M^-1/2 K M^-1/2 has a Cholesky factor at
   sigma = (1 + SK_EIG_SCREEN) times the largest eigenvalue so far cannot raise it beyond sigma. Far above the factor's
   backward error (n eps of the matrix, 4e-14 at n = 192), far below the 1e-10 of the stiffness's differences. */
#define SK_EIG_SCREEN 1e-10

/* The lumped masses of element e, lane l of the batch, as SKFEMLumpedMass() forms them with the lumping (so that
   M = sum M_e holds for the assembled masses) into eb->m: through the basis' own mass integrals, or from the integrals
   the stiffness pass gathered in eb->rs. *inverted: the basis' own integrals found the element inverted. */
static PetscErrorCode ElementMasses(SKBasis basis, PetscInt e, PetscInt l, const PetscInt conn[], const PetscReal X[], EigenBoundWork *eb,
                                    PetscBool *inverted)
{
  const PetscInt nodes = basis->nodes;
  PetscReal rowsum[SK_ELEMENT_MAX_NODES];
  PetscReal diag[SK_ELEMENT_MAX_NODES] = {0}; /* read only where the lumping needs it */
  PetscInt local[SK_ELEMENT_MAX_NODES];

  PetscFunctionBegin;
  *inverted = PETSC_FALSE;
  if (basis->element_mass) { /* as LumpedMassByElement */
    GatherElement(basis->dim, nodes, conn, e, X, eb->Xe);
    PetscCall(ElementMassIntegrals(basis, eb->lumping, e, eb->Xe, rowsum, diag, inverted));
    if (*inverted) PetscFunctionReturn(PETSC_SUCCESS);
  } else
    for (PetscInt a = 0; a < nodes; a++) rowsum[a] = eb->rs[a * SK_L + l], diag[a] = eb->rs[(nodes + a) * SK_L + l];
  for (PetscInt a = 0; a < nodes; a++) local[a] = a, eb->m[a] = 0.0;
  SKFEMLumpElement(eb->lumping, eb->rho, nodes, rowsum, diag, 1, local, eb->m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lambda_max(M_e^-1 K_e) of lane l of a batch's stiffnesses K (blocks b >= a formed, SK_L lanes) raises eb->omega2 (the
   largest so far) where it is above it: the symmetric form S = M^-1/2 K M^-1/2 is screened first by a Cholesky
   factorisation of sigma I - S at sigma = (1 + SK_EIG_SCREEN) omega2 (it exists if and only if every eigenvalue is
   below sigma: O(n^3 / 3), a quarter of the eigen-solve); only an element that fails it is eigen-solved (eigenvalues
   only). In a patch most elements are like the one that set the maximum and pass. */
static PetscErrorCode ElementEigenBound(const PetscInt dim, const PetscInt nodes, const PetscReal *K, PetscInt l, EigenBoundWork *eb)
{
  const PetscInt n = nodes * dim;
  PetscBLASInt bn, info;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(n, &bn));
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt b = a; b < nodes; b++)
      for (PetscInt i = 0; i < dim; i++)
        for (PetscInt k = 0; k < dim; k++) {
          const PetscInt pr = a * dim + i, qc = b * dim + k;
          PetscReal v = K[(pr * n + qc) * SK_L + l];
          /* a diagonal block holds both (i, k) and (k, i): C, from differences of P, is symmetric to round-off */
          if (b == a) v = 0.5 * (v + K[(qc * n + pr) * SK_L + l]);
          v /= PetscSqrtReal(eb->m[a] * eb->m[b]);
          eb->S[pr * n + qc] = eb->S[qc * n + pr] = v;
        }
  if (eb->omega2 > 0) {
    const PetscReal sigma = (1 + SK_EIG_SCREEN) * eb->omega2;
    for (PetscInt k = 0; k < n * n; k++) eb->R[k] = -eb->S[k];
    for (PetscInt k = 0; k < n; k++) eb->R[k * n + k] += sigma;
    PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("U", &bn, eb->R, &bn, &info));
    PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK potrf failed with info %d", (int)info);
    if (info == 0) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "U", &bn, eb->S, &bn, eb->eig, eb->work, &eb->lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev failed with info %d", (int)info);
  eb->omega2 = PetscMax(eb->omega2, eb->eig[n - 1]);
  eb->nsolve++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The stiffness bounds of a block, written once; dim and nodes are compile-time constants in the instantiations
   below. K is symmetric: only its blocks (a, b >= a) are formed, each |entry| counted in its row and its column's row
   (into r, unless NULL), and with EB each element's eigenvalue bound taken from the same K.
   C: reference tangent dP_ij/dF_kl at [((i*dim + j)*dim + k)*dim + l]; T, K: work arrays of nodes*dim^3*SK_L and
   (nodes*dim)^2*SK_L. */
static inline PetscErrorCode RowBoundBlock(SKBasis t, const PetscReal C[], const PetscInt dim, const PetscInt nodes, PetscInt nelem,
                                           const PetscInt conn[], const PetscReal Xg[], PetscReal r[], EigenBoundWork *eb,
                                           SKFEMFailure *fail, SKBatch *w, PetscReal *restrict T, PetscReal *restrict K)
{
  const PetscInt n     = nodes * dim;
  const PetscBool sums = (PetscBool)(eb && !t->element_mass); /* the element bound's masses from these quadrature points */
  SK_ALIGN PetscReal wdetJ[SK_L];

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nelem; b += SK_L) {
    PetscInt nl;
    BatchSetup(b, nelem, w, &nl);
    Gather(dim, nodes, conn, w->elem, Xg, w->X);
    for (PetscInt k = 0; k < n * n * SK_L; k++) K[k] = 0.0;
    for (PetscInt k = 0; k < 2 * nodes * SK_L && sums; k++) eb->rs[k] = 0.0;
    for (PetscInt q = 0; q < t->nq; q++) {
      const unsigned bad = SKBasisGeometry(t, dim, nodes, q, w->elem, w->X, sums ? w->N : NULL, w->G, wdetJ) & LaneMask(nl);
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, b + l, q, t->wq ? wdetJ[l] / t->wq[q] : wdetJ[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      for (PetscInt a = 0; a < nodes && sums; a++) /* int N_a and int N_a^2, as SKFEMLumpedMass()'s pass */
        for (PetscInt l = 0; l < SK_L; l++) {
          const PetscReal Na = w->N[a * SK_L + l];
          eb->rs[a * SK_L + l] += wdetJ[l] * Na;
          eb->rs[(nodes + a) * SK_L + l] += wdetJ[l] * Na * Na;
        }
      /* T_aikm = w det J sum_j dN_a/dX_j C_ijkm */
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt i = 0; i < dim; i++)
          for (PetscInt km = 0; km < dim * dim; km++) {
            PetscReal *Ta = T + ((a * dim + i) * dim * dim + km) * SK_L;
            for (PetscInt l = 0; l < SK_L; l++) Ta[l] = 0.0;
            for (PetscInt j = 0; j < dim; j++) {
              const PetscReal Cijkm = C[(i * dim + j) * dim * dim + km];
              for (PetscInt l = 0; l < SK_L; l++) Ta[l] += Cijkm * w->G[(a * dim + j) * SK_L + l];
            }
            for (PetscInt l = 0; l < SK_L; l++) Ta[l] *= wdetJ[l];
          }
      /* K_(ai)(bk) += sum_m T_aikm dN_b/dX_m, b >= a */
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt bn = a; bn < nodes; bn++)
          for (PetscInt i = 0; i < dim; i++)
            for (PetscInt k = 0; k < dim; k++) {
              PetscReal *Kr = K + ((a * dim + i) * n + bn * dim + k) * SK_L;
              for (PetscInt m = 0; m < dim; m++) {
                const PetscReal *Ta = T + (((a * dim + i) * dim + k) * dim + m) * SK_L, *Gb = w->G + (bn * dim + m) * SK_L;
                for (PetscInt l = 0; l < SK_L; l++) Kr[l] += Ta[l] * Gb[l];
              }
            }
    }
    if (b % (64 * SK_L) == 63 * SK_L || eb) PetscCall(SKSignalCheckSerial()); /* an element eigen-solve is dear */
    for (PetscInt l = 0; l < nl && eb; l++) {
      PetscBool inverted;
      PetscCall(ElementMasses(t, w->elem[l], l, conn, Xg, eb, &inverted));
      if (inverted) {
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, b + l, -1, 0.0);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      PetscCall(ElementEigenBound(dim, nodes, K, l, eb));
    }
    for (PetscInt l = 0; l < nl && r; l++) {
      const PetscInt *c = conn + w->elem[l] * nodes;
      for (PetscInt a = 0; a < nodes; a++)
        for (PetscInt bn = a; bn < nodes; bn++)
          for (PetscInt i = 0; i < dim; i++)
            for (PetscInt k = 0; k < dim; k++) {
              const PetscReal v = PetscAbsReal(K[((a * dim + i) * n + bn * dim + k) * SK_L + l]);
              r[c[a] * dim + i] += v;
              if (bn != a) r[c[bn] * dim + k] += v;
            }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMStiffnessBounds(SKBasis basis, SKMaterial mat, SKLumping lumping, PetscInt nelem, const PetscInt conn[],
                                    const PetscReal X[], PetscReal r[], PetscReal *omega2, SKFEMFailure *fail)
{
  const PetscInt dim = basis->dim, n = basis->nodes * dim;
  /* central differences of P at F = I: exact for the quadratic-in-F laws, relative error ~1e-10 (round-off eps/h) else */
  const PetscReal h = 1e-6;
  PetscReal C[81], *T, *K;
  const SKMaterialParams *p;
  SKBatch w;
  EigenBoundWork ebw = {0}, *eb = omega2 ? &ebw : NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKMaterialGetParams(mat, &p));
  PetscCheck(p->dim == dim, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
             "Material of dimension %" PetscInt_FMT " on %s elements of dimension %" PetscInt_FMT, p->dim, basis->name, dim);
  ClearFailure(fail);
  for (PetscInt km = 0; km < dim * dim; km++) {
    PetscReal F[9] = {0};
    SKMaterialPoint plus, minus;
    for (PetscInt d = 0; d < dim; d++) F[d * dim + d] = 1.0;
    F[km] += h;
    PetscCall(SKMaterialEvaluate(mat, F, &plus));
    F[km] -= 2.0 * h;
    PetscCall(SKMaterialEvaluate(mat, F, &minus));
    for (PetscInt ij = 0; ij < dim * dim; ij++) C[ij * dim * dim + km] = (plus.P[ij] - minus.P[ij]) / (2.0 * h);
  }
  PetscCall(PetscMalloc2(basis->nodes * dim * dim * dim * SK_L, &T, n * n * SK_L, &K));
  if (eb) {
    ebw.lumping = lumping;
    ebw.rho     = p->rho;
    PetscCall(PetscBLASIntCast(4 * n, &ebw.lwork));
    PetscCall(PetscMalloc6(n * n, &ebw.S, n * n, &ebw.R, n, &ebw.eig, 4 * n, &ebw.work, basis->nodes, &ebw.m, n, &ebw.Xe));
    PetscCall(PetscMalloc1(2 * basis->nodes * SK_L, &ebw.rs));
  }
  /* the loop stops on a signal (long on large meshes): its work is freed in any case */
#define SK_ROWBOUND_CASE(t, d, nn)                                                \
  case t:                                                                         \
    ierr = RowBoundBlock(basis, C, d, nn, nelem, conn, X, r, eb, fail, &w, T, K); \
    break
  switch (basis->shell ? SK_ELEMENT_NUM_TYPES : basis->type) {
    SK_ROWBOUND_CASE(SK_ELEMENT_Q4, 2, 4);
    SK_ROWBOUND_CASE(SK_ELEMENT_H8, 3, 8);
  default:
    ierr = RowBoundBlock(basis, C, dim, basis->nodes, nelem, conn, X, r, eb, fail, &w, T, K);
  }
#undef SK_ROWBOUND_CASE
  PetscCall(PetscFree2(T, K));
  if (eb && !ierr) {
    /* the screened elements are below the largest eigenvalue found by at most its margin */
    *omega2 = (1 + SK_EIG_SCREEN) * ebw.omega2;
    PetscCall(PetscInfo(NULL, "element bound: %" PetscInt_FMT " of %" PetscInt_FMT " elements eigen-solved, the others screened\n",
                        ebw.nsolve, nelem));
  }
  if (eb) {
    PetscCall(PetscFree6(ebw.S, ebw.R, ebw.eig, ebw.work, ebw.m, ebw.Xe));
    PetscCall(PetscFree(ebw.rs));
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKVonMises(const PetscReal s[])
{
  const PetscReal d0 = s[0] - s[4], d1 = s[4] - s[8], d2 = s[8] - s[0];
  return PetscSqrtReal(0.5 * (d0 * d0 + d1 * d1 + d2 * d2) + 3.0 * (s[1] * s[1] + s[5] * s[5] + s[2] * s[2]));
}

typedef struct {
  SKBasis t;
  SKMaterial mat;
  PetscReal *sigma_qp, *vm_qp, *sigma_el, *vm_el;
  PetscReal vol[SK_LANES];
  SKFEMFailure *fail;
} SKStressCtx;

/* Cauchy stress at one quadrature point, lane by lane through the scalar material entry point (output only). The
   element average accumulates sigma w det J in R[k] (k < 9). */
static PetscErrorCode StressVisitor(void *ctx, PetscInt b, PetscInt nl, PetscInt q, SKBatch *w, const PetscReal wdetJ[])
{
  SKStressCtx *c     = (SKStressCtx *)ctx;
  const PetscInt dim = c->t->dim, nodes = c->t->nodes, nq = c->t->nq;

  PetscFunctionBegin;
  if (q == 0)
    for (PetscInt l = 0; l < SK_L; l++) c->vol[l] = 0.0;
  for (PetscInt l = 0; l < nl; l++) {
    PetscReal F[9];
    SKMaterialPoint pt;
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt j = 0; j < dim; j++) {
        F[i * dim + j] = (i == j) ? 1.0 : 0.0;
        for (PetscInt a = 0; a < nodes; a++) F[i * dim + j] += w->U[(a * dim + i) * SK_L + l] * w->G[(a * dim + j) * SK_L + l];
      }
    PetscCall(SKMaterialEvaluate(c->mat, F, &pt));
    if (pt.inverted && c->fail->kind == SK_FEM_OK) SetFailure(c->fail, SK_FEM_INVERTED_CURRENT, b + l, q, pt.J);
    if (c->sigma_qp) PetscCall(PetscArraycpy(c->sigma_qp + ((b + l) * nq + q) * 9, pt.sigma, 9));
    if (c->vm_qp) c->vm_qp[(b + l) * nq + q] = SKVonMises(pt.sigma);
    for (PetscInt k = 0; k < 9; k++) w->R[k * SK_L + l] += pt.sigma[k] * wdetJ[l];
    c->vol[l] += wdetJ[l];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StressAverage(void *ctx, PetscInt b, PetscInt nl, SKBatch *w)
{
  SKStressCtx *c = (SKStressCtx *)ctx;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < nl; l++) {
    PetscReal s[9];
    for (PetscInt k = 0; k < 9; k++) s[k] = w->R[k * SK_L + l] / c->vol[l];
    if (c->sigma_el) PetscCall(PetscArraycpy(c->sigma_el + (b + l) * 9, s, 9));
    if (c->vm_el) c->vm_el[b + l] = SKVonMises(s);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMStress(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[], const PetscReal X[], const PetscReal u[],
                           PetscReal sigma_qp[], PetscReal vm_qp[], PetscReal sigma_el[], PetscReal vm_el[], SKFEMFailure *fail)
{
  SKStressCtx c = {basis, mat, sigma_qp, vm_qp, sigma_el, vm_el, {0}, NULL};
  SKFEMFailure current;

  PetscFunctionBegin;
  ClearFailure(&current);
  c.fail = &current;
  PetscCall(GeometryLoop(basis, nelem, conn, X, u, PETSC_FALSE, StressVisitor, StressAverage, &c, fail));
  if (fail->kind == SK_FEM_OK) *fail = current;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMElementStiffness(SKBasis basis, SKMaterial mat, const PetscReal Xe[], const PetscReal ue[], PetscReal K[],
                                     SKFEMFailure *fail)
{
  PetscFunctionBegin;
  PetscCall(SKFEMBlockElementStiffness(basis, mat, 0, Xe, ue, K, fail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMBlockElementStiffness(SKBasis basis, SKMaterial mat, PetscInt e, const PetscReal Xe[], const PetscReal ue[],
                                          PetscReal K[], SKFEMFailure *fail)
{
  const PetscInt dim = basis->dim, nodes = basis->nodes, n = nodes * dim, ncol = SK_L / 2;
  PetscInt conn[SK_L * SK_ELEMENT_MAX_NODES];
  PetscReal *X, *u, *f, lo[3], hi[3], size = 0.0, h;

  PetscFunctionBegin;
  PetscCall(SKSignalCheckSerial()); /* the critical step calls this for every element */
  for (PetscInt d = 0; d < dim; d++) lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt d = 0; d < dim; d++) lo[d] = PetscMin(lo[d], Xe[a * dim + d]), hi[d] = PetscMax(hi[d], Xe[a * dim + d]);
  for (PetscInt d = 0; d < dim; d++) size = PetscMax(size, hi[d] - lo[d]);
  /* central differences: truncation (h/size)^2, round-off eps size/h; both ~1e-10 relative at h = 1e-6 size (ideally
     eps^(1/3) ~ 6e-6) */
  h = 1e-6 * size;
  /* SK_L copies of the element, one per lane of a batch: the +h and -h displacements of SK_L / 2 columns per call (each
     lane's force is the same arithmetic as a call with the element alone, so K does not depend on this batching) */
  PetscCall(PetscMalloc3(SK_L * n, &X, SK_L * n, &u, SK_L * n, &f));
  for (PetscInt l = 0; l < SK_L; l++) {
    for (PetscInt a = 0; a < nodes; a++) conn[l * nodes + a] = l * nodes + a;
    PetscCall(PetscArraycpy(X + l * n, Xe, n));
  }
  basis->same_element = PETSC_TRUE; /* shell bases look up the data of element e of the block for every copy */
  basis->element      = e;
  for (PetscInt j0 = 0; j0 < n; j0 += ncol) {
    const PetscInt nc = PetscMin(ncol, n - j0);
    for (PetscInt c = 0; c < nc; c++)
      for (PetscInt s = 0; s < 2; s++) {
        PetscReal *ul = u + (2 * c + s) * n;
        PetscCall(PetscArraycpy(ul, ue, n));
        ul[j0 + c] = ue[j0 + c] + (s ? -h : h);
      }
    PetscCall(PetscArrayzero(f, 2 * nc * n));
    PetscCall(SKFEMInternalForce(basis, mat, 2 * nc, conn, X, u, f, NULL, fail));
    if (fail->kind != SK_FEM_OK) {
      fail->element = 0; /* (a copy of the one element of the call) */
      break;
    }
    for (PetscInt c = 0; c < nc; c++)
      for (PetscInt i = 0; i < n; i++) K[i * n + j0 + c] = (f[2 * c * n + i] - f[(2 * c + 1) * n + i]) / (2.0 * h);
  }
  basis->same_element = PETSC_FALSE;
  PetscCall(PetscFree3(X, u, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFEMFailureRaise(MPI_Comm comm, const SKFEMFailure *fail, PetscInt element_id, PetscReal time)
{
  char when[64] = "";

  PetscFunctionBegin;
  if (fail->kind == SK_FEM_OK) PetscFunctionReturn(PETSC_SUCCESS);
  if (time >= 0.0) PetscCall(PetscSNPrintf(when, sizeof(when), " at t = %g s", (double)time));
  PetscCheck(fail->kind != SK_FEM_INVERTED_REFERENCE, comm, SK_ERR_INPUT,
             "Element %" PetscInt_FMT " is inverted in the reference mesh: det(dX/dxi) = %g at quadrature point %" PetscInt_FMT
             "%s; check its node order (VTK convention) and its shape",
             element_id, (double)fail->det, fail->qp, when);
  SETERRQ(comm, PETSC_ERR_NOT_CONVERGED,
          "Element %" PetscInt_FMT " turned inside out: J = det F = %g at quadrature point %" PetscInt_FMT
          "%s; the run is unstable or the load too large: reduce the time step "
          "(safety factor) or the load, or refine the mesh there",
          element_id, (double)fail->det, fail->qp, when);
}
