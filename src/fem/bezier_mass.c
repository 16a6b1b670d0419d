/* Mass integrals of Bezier cells, int R_a dV and int R_a^2 dV, to round-off: a Gauss rule exact for the polynomial
   integrands of B-spline elements, and adaptive subdivision for rational ones, whose integrands no Gauss rule
   integrates exactly (docs/theory.md, "Mass of rational elements"). Set-up only: the time loop never calls it. */
#include "bezierimpl.h"

/* the fewest points per direction of the base rule of a rational element */
#define SK_MASS_RATIONAL_POINTS 6
/* the largest check rule: 2 x ceil((d + 2) p / 2) for p = 7 in 2D (14 points) */
#define SK_MASS_MAX_POINTS 28
/* accept a cell when no direction's doubled rule changes an integral by more than this fraction of the element's
   volume; the accepted (doubled) rule is then far closer (Gauss rules converge geometrically here). Measured on
   tests/unit/fem/test_bezier_mass.c: 1e-7 leaves 5.6e-14 of the total mass, 1e-10 at most 7.6e-15 (round-off) */
#define SK_MASS_RTOL 1e-10
/* cells are not split below this width (of the reference interval [-1, 1]): 2^-40, far finer than the weights the
   inputs allow need (docs/theory.md) */
#define SK_MASS_MIN_WIDTH 1.8189894035458565e-12

typedef struct {
  PetscInt dim, p, q, nen, nout; /* nout: nen (row sums) or 2 nen (with the squares) */
  const PetscReal *C[3];         /* the element's 1D extraction operators, q x q each */
  const PetscReal *w, *Xe;       /* its weights and control points */
  PetscInt n[2];                 /* points per direction of the base rule and of the check rule */
  PetscReal x[2][SK_MASS_MAX_POINTS], wg[2][SK_MASS_MAX_POINTS];
  PetscReal vol; /* scale of the tolerance: the element's volume by the base rule */
} SKMassCell;

/* y = M x along axis AXIS of a tensor with extents n[3] (axis 0 fastest), M of m rows with row stride ld: y has
   extent m on that axis. Inlined, so that the mass product's instances below get it unrolled for their sizes. */
SK_HOT_INLINE void Apply1D(const PetscInt n[3], PetscInt axis, PetscInt m, const PetscReal *M, PetscInt ld, const PetscReal *x,
                           PetscReal *y)
{
  PetscInt inner = 1, outer = 1;

  for (PetscInt k = 0; k < axis; k++) inner *= n[k];
  for (PetscInt k = axis + 1; k < 3; k++) outer *= n[k];
  for (PetscInt o = 0; o < outer; o++)
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt in = 0; in < inner; in++) {
        PetscReal s = 0.0;
        for (PetscInt j = 0; j < n[axis]; j++) s += M[i * ld + j] * x[(o * n[axis] + j) * inner + in];
        y[(o * m + i) * inner + in] = s;
      }
}

/* The largest tensor of a box: 2n x n (x n) points, the check rule in one direction; n <= 14 in 2D (p = 7), 8 in 3D
   (p = 3) */
#define SK_MASS_MAX_TENSOR 1024

/* A tensor-product polynomial with coefficients coef[A] (the element's control points, direction 0 fastest) at the
   points of a box: op[d] (np[d] x q, row stride ld) per direction, the 1D values or derivatives. */
static void Evaluate(const SKMassCell *c, const PetscInt np[3], const PetscReal *const op[3], PetscInt ld, const PetscReal coef[],
                     PetscReal out[])
{
  PetscReal t0[SK_MASS_MAX_TENSOR], t1[SK_MASS_MAX_TENSOR];
  PetscInt n[3]      = {c->q, c->q, c->dim == 3 ? c->q : 1};
  const PetscReal *x = coef;

  for (PetscInt d = 0; d < c->dim; d++) {
    /* written by Apply1D before it is read (cppcheck cannot follow it; zeroing would cost a memset per call) */
    // cppcheck-suppress legacyUninitvar
    PetscReal *y = d == c->dim - 1 ? out : (d % 2 ? t1 : t0);
    Apply1D(n, d, np[d], op[d], ld, x, y);
    n[d] = np[d];
    x    = y;
  }
}

/* Adds the integrals of R_a det J (and R_a^2 det J) over the box [lo, hi] of the reference cube with rule[d] (0: base,
   1: check) per direction to out[]. By sum factorisation: W = sum w_A N_A, V = sum w_A X_A N_A and their derivatives
   at the points one direction at a time, x = V / W, dx/dxi = (dV - x dW) / W; then int R_A det J = w_A sum_g
   (w det J / W)_g N_A(g) and int R_A^2 det J = w_A^2 sum_g (w det J / W^2)_g N_A(g)^2, contracted the same way.
   PETSC_FALSE: det J <= 0 at a point. */
static PetscBool CellRule(const SKMassCell *c, const PetscReal lo[], const PetscReal hi[], const PetscInt rule[], PetscReal out[])
{
  const PetscInt dim = c->dim, q = c->q, ld = SK_IGA_MAX_DEGREE + 1, nf = dim + 1;
  PetscReal N1[3][SK_MASS_MAX_POINTS][SK_IGA_MAX_DEGREE + 1], dN1[3][SK_MASS_MAX_POINTS][SK_IGA_MAX_DEGREE + 1], wt[3][SK_MASS_MAX_POINTS];
  PetscReal NT[3][SK_IGA_MAX_DEGREE + 1][SK_MASS_MAX_POINTS], N2T[3][SK_IGA_MAX_DEGREE + 1][SK_MASS_MAX_POINTS];
  PetscReal coef[4][SK_ELEMENT_MAX_NODES], F[4][4][SK_MASS_MAX_TENSOR], f[SK_MASS_MAX_TENSOR], h[SK_MASS_MAX_TENSOR];
  PetscReal r1[SK_ELEMENT_MAX_NODES] = {0}, r2[SK_ELEMENT_MAX_NODES] = {0}, t0[SK_MASS_MAX_TENSOR] = {0}, t1[SK_MASS_MAX_TENSOR] = {0};
  PetscInt np[3] = {1, 1, 1}, total = 1;

  for (PetscInt d = 0; d < dim; d++) {
    const PetscInt r    = rule[d];
    const PetscReal mid = 0.5 * (lo[d] + hi[d]), half = 0.5 * (hi[d] - lo[d]);
    np[d] = c->n[r];
    total *= np[d];
    for (PetscInt g = 0; g < np[d]; g++) {
      PetscReal B[SK_IGA_MAX_DEGREE + 1], dB[SK_IGA_MAX_DEGREE + 1];
      SKBernsteinBasis(c->p, mid + half * c->x[r][g], B, dB);
      wt[d][g] = half * c->wg[r][g];
      for (PetscInt a = 0; a < q; a++) { /* N = C B on this span */
        const PetscReal *Ca = c->C[d] + a * q;
        PetscReal v = 0.0, dv = 0.0;
        for (PetscInt i = 0; i < q; i++) v += Ca[i] * B[i], dv += Ca[i] * dB[i];
        N1[d][g][a]  = v;
        dN1[d][g][a] = dv;
        NT[d][a][g]  = v;
        N2T[d][a][g] = v * v;
      }
    }
  }
  /* fields W, w X_i; variants: values, then d/dxi_k */
  for (PetscInt a = 0; a < c->nen; a++) {
    coef[0][a] = c->w[a];
    for (PetscInt i = 0; i < dim; i++) coef[1 + i][a] = c->w[a] * c->Xe[a * dim + i];
  }
  for (PetscInt v = 0; v <= dim; v++) {
    const PetscReal *op[3];
    for (PetscInt d = 0; d < dim; d++) op[d] = (v == d + 1 ? &dN1[d][0][0] : &N1[d][0][0]);
    for (PetscInt fi = 0; fi < nf; fi++) Evaluate(c, np, op, ld, coef[fi], F[fi][v]);
  }
  for (PetscInt t = 0; t < total; t++) {
    const PetscReal W = F[0][0][t], iW = 1.0 / W;
    PetscReal J[9] = {0}, det, weight = 1.0;
    PetscInt rest = t;
    for (PetscInt d = 0; d < dim; d++) {
      weight *= wt[d][rest % np[d]];
      rest /= np[d];
    }
    for (PetscInt i = 0; i < dim; i++) {
      const PetscReal x = F[1 + i][0][t] * iW;
      for (PetscInt k = 0; k < dim; k++) J[i * dim + k] = (F[1 + i][1 + k][t] - x * F[0][1 + k][t]) * iW;
    }
    det = dim == 2 ? J[0] * J[3] - J[1] * J[2]
                   : J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
    if (!(det > 0.0) || !(W > 0.0)) return PETSC_FALSE;
    f[t] = weight * det * iW;
    h[t] = f[t] * iW;
  }
  /* contractions with N (and N^2) along each direction back to the control points */
  for (PetscInt s = 0; s < (c->nout > c->nen ? 2 : 1); s++) {
    PetscInt n[3]      = {np[0], np[1], np[2]};
    const PetscReal *x = s ? h : f;
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal *y = d == dim - 1 ? (s ? r2 : r1) : (d % 2 ? t1 : t0);
      Apply1D(n, d, q, s ? &N2T[d][0][0] : &NT[d][0][0], SK_MASS_MAX_POINTS, x, y);
      n[d] = q;
      x    = y;
    }
  }
  for (PetscInt a = 0; a < c->nen; a++) {
    out[a] += c->w[a] * r1[a];
    if (c->nout > c->nen) out[c->nen + a] += c->w[a] * c->w[a] * r2[a];
  }
  return PETSC_TRUE;
}

/* Integrates over the box [lo, hi], whose base-rule integrals are I0, into out[]: for each direction the check rule
   in that direction alone estimates what the base rule misses there; the box is split in halves across every direction
   where that exceeds the tolerance, else it contributes I0 corrected by every direction's check. */
static PetscBool CellAdapt(const SKMassCell *c, const PetscReal lo[], const PetscReal hi[], const PetscReal I0[], PetscReal out[])
{
  const PetscReal tol = SK_MASS_RTOL * c->vol;
  PetscReal Ik[3][2 * SK_ELEMENT_MAX_NODES];
  PetscInt nsplit = 0, split[3];

  for (PetscInt k = 0; k < c->dim; k++) {
    PetscInt rule[3] = {0, 0, 0};
    PetscReal err    = 0.0;
    rule[k]          = 1;
    for (PetscInt a = 0; a < c->nout; a++) Ik[k][a] = 0.0;
    if (!CellRule(c, lo, hi, rule, Ik[k])) return PETSC_FALSE;
    for (PetscInt a = 0; a < c->nout; a++) err = PetscMax(err, PetscAbsReal(Ik[k][a] - I0[a]));
    if (err > tol && hi[k] - lo[k] > SK_MASS_MIN_WIDTH) split[nsplit++] = k;
  }
  if (!nsplit) {
    for (PetscInt a = 0; a < c->nout; a++) {
      PetscReal v = I0[a];
      for (PetscInt k = 0; k < c->dim; k++) v += Ik[k][a] - I0[a];
      out[a] += v;
    }
    return PETSC_TRUE;
  }
  for (PetscInt child = 0; child < (1 << nsplit); child++) {
    PetscReal clo[3], chi[3], Ic[2 * SK_ELEMENT_MAX_NODES] = {0};
    const PetscInt base[3] = {0, 0, 0};
    for (PetscInt d = 0; d < c->dim; d++) clo[d] = lo[d], chi[d] = hi[d];
    for (PetscInt s = 0; s < nsplit; s++) {
      const PetscInt k    = split[s];
      const PetscReal mid = 0.5 * (lo[k] + hi[k]);
      if (child & (1 << s))
        clo[k] = mid;
      else
        chi[k] = mid;
    }
    if (!CellRule(c, clo, chi, base, Ic) || !CellAdapt(c, clo, chi, Ic, out)) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

PetscErrorCode SKBezierElementMass(SKBasis basis, PetscInt e, const PetscReal Xe[], PetscReal rowsum[], PetscReal diag[],
                                   PetscBool *inverted)
{
  const SKBezierBasis *bb = (const SKBezierBasis *)basis->ctx;
  const PetscInt dim = bb->dim, p = bb->p, nen = bb->nen;
  const PetscReal lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
  const PetscInt base[3]                 = {0, 0, 0};
  PetscReal I0[2 * SK_ELEMENT_MAX_NODES] = {0}, out[2 * SK_ELEMENT_MAX_NODES] = {0};
  PetscBool rational = PETSC_FALSE, ok;
  SKMassCell c       = {.dim = dim, .p = p, .q = bb->q, .nen = nen, .nout = diag ? 2 * nen : nen, .w = bb->w + e * nen, .Xe = Xe};

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim; d++) c.C[d] = bb->C[d] + bb->span[e * dim + d] * bb->q * bb->q;
  /* equal weights (to round-off): R = N, and det J is a polynomial of degree d p - 1 per direction, so R_a det J has
     degree (d + 1) p - 1 and R_a^2 det J (d + 2) p - 1: the Gauss rule of ceil((d + k) p / 2) points is exact */
  for (PetscInt a = 1; a < nen; a++) rational = (PetscBool)(rational || PetscAbsReal(c.w[a] - c.w[0]) > 4 * PETSC_MACHINE_EPSILON * c.w[0]);
  c.n[0] = ((dim + (diag ? 2 : 1)) * p + 1) / 2;
  /* rational: no rule is exact, and Gauss rules converge geometrically for these analytic integrands, faster with more
     points than with halving the cell; 6 points cut the boxes of a graded net 19-fold (2D) and 6-fold (3D) against 3
     (measured) */
  if (rational) c.n[0] = PetscMax(c.n[0], SK_MASS_RATIONAL_POINTS);
  c.n[1] = 2 * c.n[0];
  for (PetscInt r = 0; r < 2; r++) PetscCall(SKQuadratureGaussLegendre(c.n[r], c.x[r], c.wg[r]));
  ok = CellRule(&c, lo, hi, base, I0);
  if (ok && rational) {
    c.vol = 0.0;
    for (PetscInt a = 0; a < nen; a++) c.vol += I0[a];
    ok = CellAdapt(&c, lo, hi, I0, out);
  } else
    for (PetscInt a = 0; a < c.nout; a++) out[a] = I0[a];
  *inverted = (PetscBool)!ok;
  for (PetscInt a = 0; a < nen; a++) {
    rowsum[a] = out[a];
    if (diag) diag[a] = out[nen + a];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the most fields of one mass product: 3 components of 2 vectors (the explicit solver's fused a, v) */
#define SK_MASS_MAX_FIELDS 6
/* the most points per direction of the product's elements: SK_ELEMENT_MAX_NODES = 64 control points, q = 8 in 2D */
#define SK_MASS_MAX_Q 8

/* One pass of a 1D operator along axis AXIS of a tensor of fields of SK_L elements: out[..i..][f][l] = sum_j M_l(i, j)
   in[..j..][f][l], q points per axis (axis 0 fastest), nf fields, then the lane l (the batch's element) innermost;
   M_l(i, j) = N[(i q + j) SK_L + l] (TRANS false) or N[(j q + i) SK_L + l] (TRANS true). */
SK_HOT_INLINE void FieldPass(const PetscInt dim, const PetscInt q, const PetscInt nf, PetscInt axis, const PetscReal *restrict N,
                             PetscBool trans, const PetscReal *restrict in, PetscReal *restrict out)
{
  PetscInt inner = nf, outer = 1;

  for (PetscInt k = 0; k < axis; k++) inner *= q;
  for (PetscInt k = axis + 1; k < dim; k++) outer *= q;
  for (PetscInt o = 0; o < outer; o++)
    for (PetscInt i = 0; i < q; i++) {
      PetscReal *restrict yo = out + (o * q + i) * inner * SK_L;
      { /* the first term sets the row (a zeroing loop becomes a slow rep stos for these short rows) */
        const PetscReal *restrict Mi0 = N + (trans ? i : i * q) * SK_L;
        const PetscReal *restrict x0  = in + o * q * inner * SK_L;
        for (PetscInt m = 0; m < inner; m++)
          for (PetscInt l = 0; l < SK_L; l++) yo[m * SK_L + l] = Mi0[l] * x0[m * SK_L + l];
      }
      for (PetscInt j = 1; j < q; j++) {
        const PetscReal *restrict Mij = N + (trans ? j * q + i : i * q + j) * SK_L;
        const PetscReal *restrict xo  = in + (o * q + j) * inner * SK_L;
        for (PetscInt m = 0; m < inner; m++)
          for (PetscInt l = 0; l < SK_L; l++) yo[m * SK_L + l] += Mij[l] * xo[m * SK_L + l];
      }
    }
}

/* The mass product of SKBezierMassApply() for one (dim, q), written once: the instances below get constant sizes. SK_L
   elements at a time, each in a lane (the lanes past the end repeat the last element and are discarded), all fields
   (components of all vectors) through the passes together; every lane does the arithmetic of one element alone, and the
   elements add into y in order, so the result does not depend on the batching. */
SK_HOT_INLINE void MassProduct(const SKBezierBasis *bb, const PetscInt dim, const PetscInt q, const PetscReal G[], PetscInt nelem,
                               const PetscInt elems[], const PetscInt conn[], PetscInt bs, PetscInt nvec, const PetscReal *const x[],
                               PetscReal *const y[])
{
  const PetscInt nen = dim == 2 ? q * q : q * q * q, nf = bs * nvec;

  for (PetscInt b = 0; b < nelem; b += SK_L) {
    const PetscInt nl = PetscMin(SK_L, nelem - b);
    PetscInt e[SK_L];
    SK_ALIGN PetscReal N[3 * SK_MASS_MAX_Q * SK_MASS_MAX_Q * SK_L], wl[SK_ELEMENT_MAX_NODES * SK_L];
    SK_ALIGN PetscReal t0[SK_ELEMENT_MAX_NODES * SK_MASS_MAX_FIELDS * SK_L], t1[SK_ELEMENT_MAX_NODES * SK_MASS_MAX_FIELDS * SK_L];

    for (PetscInt l = 0; l < SK_L; l++) e[l] = elems ? elems[b + PetscMin(l, nl - 1)] : b + PetscMin(l, nl - 1);
    for (PetscInt l = 0; l < SK_L; l++) {
      const PetscInt *c  = conn + e[l] * nen;
      const PetscReal *w = bb->w + e[l] * nen;
      for (PetscInt d = 0; d < dim; d++) { /* N[((d q + g) q + a) SK_L + l] of the element's span */
        const PetscReal *Nd = bb->mass.N[d] + bb->span[e[l] * dim + d] * q * q;
        for (PetscInt k = 0; k < q * q; k++) N[(d * q * q + k) * SK_L + l] = Nd[k];
      }
      for (PetscInt a = 0; a < nen; a++) {
        wl[a * SK_L + l] = w[a];
        for (PetscInt v = 0; v < nvec; v++)
          for (PetscInt k = 0; k < bs; k++) t0[(a * nf + v * bs + k) * SK_L + l] = w[a] * x[v][c[a] * bs + k];
      }
    }
    /* to the Gauss points, one direction at a time (t0 -> t1 -> t0 ...), times G, and back */
    /* each pass reads what the previous one wrote (t1 of pass 1 is written by pass 0; cppcheck cannot follow it) */
    // cppcheck-suppress legacyUninitvar
    for (PetscInt d = 0; d < dim; d++) FieldPass(dim, q, nf, d, N + d * q * q * SK_L, PETSC_FALSE, d % 2 ? t1 : t0, d % 2 ? t0 : t1);
    {
      PetscReal *tq = dim % 2 ? t1 : t0; /* (p + 1)^dim Gauss points, as many as control points */
      for (PetscInt g = 0; g < nen; g++) {
        PetscReal Gg[SK_L];
        for (PetscInt l = 0; l < SK_L; l++) Gg[l] = G[e[l] * nen + g];
        for (PetscInt f = 0; f < nf; f++)
          for (PetscInt l = 0; l < SK_L; l++) tq[(g * nf + f) * SK_L + l] *= Gg[l];
      }
    }
    for (PetscInt d = 0; d < dim; d++)
      FieldPass(dim, q, nf, d, N + d * q * q * SK_L, PETSC_TRUE, (dim + d) % 2 ? t1 : t0, (dim + d) % 2 ? t0 : t1);
    for (PetscInt l = 0; l < nl; l++) { /* 2 dim passes end in t0 */
      const PetscInt *c = conn + e[l] * nen;
      for (PetscInt a = 0; a < nen; a++)
        for (PetscInt v = 0; v < nvec; v++)
          for (PetscInt k = 0; k < bs; k++) y[v][c[a] * bs + k] += wl[a * SK_L + l] * t0[(a * nf + v * bs + k) * SK_L + l];
    }
  }
}

/* instances with constant sizes: DIM components (the solver's vectors) of NVEC vectors */
#define SK_MASS_PRODUCT(DIM, Q, NVEC)                                                                                         \
  static void MassProduct##DIM##Q##NVEC(const SKBezierBasis *bb, const PetscReal G[], PetscInt nelem, const PetscInt elems[], \
                                        const PetscInt conn[], const PetscReal *const x[], PetscReal *const y[])              \
  {                                                                                                                           \
    MassProduct(bb, DIM, Q, G, nelem, elems, conn, DIM, NVEC, x, y);                                                          \
  }
SK_MASS_PRODUCT(2, 2, 1)
SK_MASS_PRODUCT(2, 3, 1)
SK_MASS_PRODUCT(2, 4, 1)
SK_MASS_PRODUCT(2, 5, 1)
SK_MASS_PRODUCT(3, 2, 1)
SK_MASS_PRODUCT(3, 3, 1)
SK_MASS_PRODUCT(3, 4, 1)
SK_MASS_PRODUCT(2, 2, 2)
SK_MASS_PRODUCT(2, 3, 2)
SK_MASS_PRODUCT(2, 4, 2)
SK_MASS_PRODUCT(2, 5, 2)
SK_MASS_PRODUCT(3, 2, 2)
SK_MASS_PRODUCT(3, 3, 2)
SK_MASS_PRODUCT(3, 4, 2)

typedef void (*MassProductFn)(const SKBezierBasis *, const PetscReal[], PetscInt, const PetscInt[], const PetscInt[],
                              const PetscReal *const[], PetscReal *const[]);

PetscErrorCode SKBezierMassApply(SKBasis basis, const PetscReal G[], PetscInt nelem, const PetscInt elems[], const PetscInt conn[],
                                 PetscInt bs, PetscInt nvec, const PetscReal *const x[], PetscReal *const y[])
{
  const SKBezierBasis *bb = (const SKBezierBasis *)basis->ctx;
  const PetscInt dim = bb->dim, q = bb->q;

  PetscFunctionBegin;
  PetscCheck(bs * nvec <= SK_MASS_MAX_FIELDS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "mass product of %" PetscInt_FMT " fields: at most %d", bs * nvec, SK_MASS_MAX_FIELDS);
  /* degrees 1 to 4 in 2D and 1 to 3 in 3D, 1 or 2 vectors of dim components: constant sizes (unrolled); the others
     with the sizes as arguments */
  {
    static const MassProductFn fn[2][2][4] = {
        {{MassProduct221, MassProduct231, MassProduct241, MassProduct251},
         {MassProduct222, MassProduct232, MassProduct242, MassProduct252}},
        {{MassProduct321, MassProduct331, MassProduct341, NULL}, {MassProduct322, MassProduct332, MassProduct342, NULL}}};
    MassProductFn f = (bs == dim && (nvec == 1 || nvec == 2) && q >= 2 && q <= 5) ? fn[dim - 2][nvec - 1][q - 2] : NULL;
    if (f)
      f(bb, G, nelem, elems, conn, x, y);
    else
      MassProduct(bb, dim, q, G, nelem, elems, conn, bs, nvec, x, y);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
