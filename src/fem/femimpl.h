/* Private part of the fem module: the basis object and the inlined Lagrange geometry kernel that the element loops
   call directly for Lagrange bases (so that it is unrolled for their constant sizes). */
#ifndef STICKSLIP_FEMIMPL_H
#define STICKSLIP_FEMIMPL_H

#include <stickslip/fem.h>

/* A basis' own internal-force loop (SKFEMInternalForce() with the same arguments), for a cell kind whose structure a
   dedicated kernel exploits (the Bezier cells' sum factorisation); the clear failure is set by the caller. */
typedef PetscErrorCode (*SKBasisInternalForceFn)(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                                 const PetscReal u[], PetscReal f[], PetscReal *energy, SKFEMFailure *fail);
/* A basis' own element mass integrals (SKFEMLumpedMass(), SKFEMStiffnessBounds()), for a cell kind whose basis
   the element's quadrature rule does not integrate exactly (rational Bezier cells): for element e of the block
   (block-local) with control points Xe[a*dim + d], rowsum[a] = int N_a dV and, when diag != NULL, diag[a] =
   int N_a^2 dV (m^dim, density not included). *inverted: det(dX/dxi) <= 0 was met (the integrals are then void). */
typedef PetscErrorCode (*SKBasisElementMassFn)(SKBasis basis, PetscInt e, const PetscReal Xe[], PetscReal rowsum[], PetscReal diag[],
                                               PetscBool *inverted);

/* A basis' consistent-mass product (SKFEMMassOperatorCreate()), for a cell kind with a fast kernel for it (Bezier
   cells): set-up tabulates per element what the product needs into *G (nelem times the points of the basis' mass rule,
   which need not be those of its force; the caller frees it;
   *fail set on an inverted reference); apply adds y[v][conn[a]*bs + c] += sum_b M_ab x[v][conn[b]*bs + c], v < nvec,
   element by element in order: the elements elems[0..nelem-1] (ascending local numbers; G and conn are those of all the
   block's elements), or all elements 0..nelem-1 when elems is NULL. */
typedef PetscErrorCode (*SKBasisMassSetUpFn)(SKBasis basis, PetscReal rho, PetscInt nelem, const PetscInt conn[], const PetscReal X[],
                                             PetscReal **G, SKFEMFailure *fail);
typedef PetscErrorCode (*SKBasisMassApplyFn)(SKBasis basis, const PetscReal G[], PetscInt nelem, const PetscInt elems[],
                                             const PetscInt conn[], PetscInt bs, PetscInt nvec, const PetscReal *const x[],
                                             PetscReal *const y[]);

struct _n_SKBasis {
  char name[32];
  PetscBool shell; /* PETSC_TRUE: geometry comes from the user's function; else a Lagrange basis of `type` */
  SKElementType type;
  PetscInt dim, nodes, nq, degree, vtk_cell_type;
  PetscBool simplex;
  PetscReal reference_measure;
  PetscReal *ref, *xq, *wq, *N, *dN; /* tabulation (Lagrange bases), owned */
  SKBasisGeometryFn geometry;
  void *ctx;
  PetscErrorCode (*ctx_destroy)(void *); /* shell bases that own their context */
  PetscBool same_element; /* every element of a call is a copy of element `element` of the block (SKFEMBlockElementStiffness): */
  PetscInt element;       /* the id a shell geometry or the basis' own force loop is given for each of them */
  SKBasisInternalForceFn internal_force; /* optional: replaces the generic element loop of SKFEMInternalForce() */
  SKBasisElementMassFn element_mass;     /* optional: replaces the quadrature rule in the mass integrals */
  /* optional: keeps what the basis' force loop needs of the block's reference geometry (SKBasisSetReference()) */
  PetscErrorCode (*set_reference)(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[]);
  /* optional: a reduced quadrature of the force where the basis has one (SKBasisReduceQuadrature()) */
  PetscErrorCode (*reduce_quadrature)(SKBasis basis, PetscBool *reduced);
  SKBasisMassSetUpFn mass_setup; /* optional, with mass_apply: the consistent mass, matrix-free */
  SKBasisMassApplyFn mass_apply;
};

/* The bit mask of the first NL lanes of a batch (the live ones). */
static inline unsigned LaneMask(PetscInt nl)
{
  return (nl >= (PetscInt)(8 * sizeof(unsigned))) ? ~0u : ((1u << nl) - 1u);
}

/* The first lane set in a non-zero MASK. */
static inline PetscInt FirstLane(unsigned mask)
{
  PetscInt l = 0;
  while (!(mask & (1u << l))) l++;
  return l;
}

/* Records a failure of the element loops (kind, element, quadrature point, det J or J there). */
static inline void SetFailure(SKFEMFailure *fail, SKFEMFailureKind kind, PetscInt element, PetscInt qp, PetscReal det)
{
  fail->kind    = kind;
  fail->element = element;
  fail->qp      = qp;
  fail->det     = det;
}

/* Adds the lumped masses of one element to m[conn[a]], from rho times its row sums rowsum[a*stride] = int N_a dV and its
   consistent diagonal diag[a*stride] = int N_a^2 dV: the row sums, or HRZ (diagonal scaled to the element mass) for
   SK_LUMPING_HRZ and, with SK_LUMPING_AUTO, for an element whose row sums are not all positive. */
PETSC_INTERN void SKFEMLumpElement(SKLumping lumping, PetscReal rho, PetscInt nodes, const PetscReal rowsum[], const PetscReal diag[],
                                   PetscInt stride, const PetscInt conn[], PetscReal m[]);

/* 1D Lagrange polynomial of degree p (nodes -1, [0,] 1) that is 1 at node coordinate c, and its derivative, at x. */
PETSC_INTERN void SKLagrange1D(PetscInt p, PetscReal c, PetscReal x, PetscReal *L, PetscReal *dL);
/* Basis values N[a] and reference gradients dN[a*dim + k] of the Lagrange basis of a mesh element type at xi. */
PETSC_INTERN void SKLagrangeBasis(const SKElementTypeInfo *s, const PetscReal xi[], PetscReal N[], PetscReal dN[]);

/* Lagrange (isoparametric) geometry at one quadrature point for SK_LANES elements: Jacobian dX/dxi from the
   reference gradients dN[a*dim + k] at that point, then dN/dX = dN/dxi (dX/dxi)^{-1}. */
SK_HOT_INLINE unsigned SKLagrangeGeometryKernel(const PetscInt dim, const PetscInt nodes, const PetscReal *restrict dN, PetscReal w,
                                                const PetscReal *restrict X, PetscReal *restrict dNdX, PetscReal *restrict wdetJ)
{
  SK_ALIGN PetscReal jac[9 * SK_L], G[9 * SK_L], det[SK_L];

  for (PetscInt k = 0; k < dim * dim * SK_L; k++) jac[k] = 0.0;
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt k = 0; k < dim; k++)
        for (PetscInt l = 0; l < SK_L; l++) SK_AT(jac, dim, d, k, l) += X[(a * dim + d) * SK_L + l] * dN[a * dim + k];
  SKLanesDetInvT(dim, jac, det, G); /* G[d][k] = (dX/dxi)^{-1}_{kd} */
  for (PetscInt a = 0; a < nodes; a++)
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt l = 0; l < SK_L; l++) {
        PetscReal s = 0.0;
        for (PetscInt k = 0; k < dim; k++) s += dN[a * dim + k] * SK_AT(G, dim, d, k, l);
        dNdX[(a * dim + d) * SK_L + l] = s;
      }
  for (PetscInt l = 0; l < SK_L; l++) wdetJ[l] = w * det[l];
  return SKLanesNonPositive(det);
}

/* The geometry of any basis: inlined for Lagrange ones (sizes are compile-time constants at the call sites), the
   basis' function otherwise. */
SK_HOT_INLINE unsigned SKBasisGeometry(SKBasis t, const PetscInt dim, const PetscInt nodes, PetscInt q, const PetscInt elem[],
                                       const PetscReal *restrict X, PetscReal *restrict N, PetscReal *restrict dNdX,
                                       PetscReal *restrict wdetJ)
{
  if (t->shell) {
    if (t->same_element) { /* copies of one element of the block (SKFEMBlockElementStiffness) */
      PetscInt e[SK_L];
      for (PetscInt l = 0; l < SK_L; l++) e[l] = t->element;
      return t->geometry(t, q, e, X, N, dNdX, wdetJ);
    }
    return t->geometry(t, q, elem, X, N, dNdX, wdetJ);
  }
  if (N)
    for (PetscInt a = 0; a < nodes; a++)
      for (PetscInt l = 0; l < SK_L; l++) N[a * SK_L + l] = t->N[q * nodes + a];
  return SKLagrangeGeometryKernel(dim, nodes, t->dN + q * nodes * dim, t->wq[q], X, dNdX, wdetJ);
}

#endif
