/* The internal force of Bezier cells (NURBS patches) by sum factorisation, SK_LANES elements at a time.

   The rational basis of an element is R_A = w_A N_A / W with N_A = N_a0(xi0) N_a1(xi1) [N_a2(xi2)] the tensor product of
   the 1D B-splines of its spans and W = sum_A w_A N_A. Any field interpolated with it, v = sum_A R_A v_A, is
   v = V / W with V = sum_A (w_A v_A) N_A a tensor-product polynomial, and dv/dxi_k = (dV/dxi_k - v dW/dxi_k) / W. So
   the reference geometry X, the displacement u and W itself come at all (p+1)^dim Gauss points of the element from
   1D passes over the coefficients w_A, w_A X_A and w_A u_A, one direction at a time: O((p+1)^(dim+1)) operations per
   field instead of O((p+1)^(2 dim)) for the basis evaluated point by point. The force is the transpose:
     f_Ai = sum_q (w det J)_q P_ij dR_A/dX_j = w_A sum_q [ sum_k S_ik dN_A/dxi_k + S_i0 N_A ],
     S_ik = (w det J) P_ij (dxi_k/dX_j) / W,   S_i0 = -sum_k S_ik (dW/dxi_k) / W,
   the same 1D passes backwards. The reference geometry (det J and dxi/dX at every Gauss point) is computed once by
   SKBezierSetReference() with the same passes and stored per element, so that each evaluation passes only W and w u
   (1 + dim fields instead of 1 + 2 dim) and skips the Jacobian and its inverse; without it the Jacobian is recomputed
   from X every evaluation, as in the generic element loop. Both agree with that loop to round-off and with each other
   bit for bit (tests/unit/fem/test_bezier.c).
   The Gauss rule has m points per direction: m = q = p + 1 (full) or m = p (reduced, SKBasisReduceQuadrature()).
   Instantiated with the dimension, the control points per direction q = p + 1 (q = 2..4) and m as constants, so that
   every loop has a constant length and the lane loops vectorise. */
#include "bezierimpl.h"

/* Work arrays of one batch, sized for the largest instance (3D, q = 4). The layouts are documented where they are
   filled; every one ends in the lane index. */
#define SK_BF_Q 4
#define SK_BF_NEN (SK_BF_Q * SK_BF_Q * SK_BF_Q)
#define SK_BF_NF 7 /* fields: W, w X (dim), w u (dim) */
typedef struct {
  PetscInt elem[SK_L];
  SK_ALIGN PetscReal T[3 * SK_BF_Q * SK_BF_Q * SK_L], D[3 * SK_BF_Q * SK_BF_Q * SK_L]; /* 1D values and derivatives */
  SK_ALIGN PetscReal w[SK_BF_NEN * SK_L];                                              /* control point weights */
  SK_ALIGN PetscReal C[SK_BF_NF * SK_BF_NEN * SK_L];                                   /* coefficients of the fields */
  SK_ALIGN PetscReal A1[SK_BF_NF * SK_BF_NEN * 2 * SK_L];                              /* after the first 1D pass */
  SK_ALIGN PetscReal A2[SK_BF_NF * SK_BF_NEN * 3 * SK_L];                              /* after the second */
  SK_ALIGN PetscReal V[SK_BF_NF * SK_BF_NEN * 4 * SK_L]; /* the fields and their derivatives at the Gauss points */
  SK_ALIGN PetscReal S[3 * SK_BF_NEN * 4 * SK_L];        /* the stress coefficients at the Gauss points */
  SK_ALIGN PetscReal R[SK_BF_NEN * 3 * SK_L];            /* element force, (i * nen + a) * SK_L + l */
} SKBezierForceWork;

/* a loop over the lanes of a batch, which the compiler may vectorise: its iterations are independent (GCC cannot
   prove that here, the arrays being members of one work structure) */
#if defined(__GNUC__) && !defined(__clang__)
#define LANES(l) _Pragma("GCC ivdep") for (PetscInt l = 0; l < SK_L; l++)
#else
#define LANES(l) for (PetscInt l = 0; l < SK_L; l++)
#endif

/* The 1D tables of the batch's elements, T[(d q^2 + g q + a) SK_L + l] = N_a(xi_g) of direction d (D: derivative; g < m),
   and the weights w[a SK_L + l]. */
SK_HOT_INLINE void GatherTables(const SKBezierBasis *bb, const PetscInt dim, const PetscInt q, const PetscInt m, const PetscInt elem[],
                                SKBezierForceWork *w)
{
  const PetscInt nen = bb->nen;
  for (PetscInt l = 0; l < SK_L; l++) {
    const PetscInt e = elem[l];
    for (PetscInt d = 0; d < dim; d++) {
      const PetscInt off = bb->span[e * dim + d] * m * q;
      for (PetscInt k = 0; k < m * q; k++) {
        w->T[(d * q * q + k) * SK_L + l] = bb->force.N[d][off + k];
        w->D[(d * q * q + k) * SK_L + l] = bb->force.dN[d][off + k];
      }
    }
    for (PetscInt a = 0; a < nen; a++) w->w[a * SK_L + l] = bb->w[e * nen + a];
  }
}

/* The passes treat a lane block (the SK_L values of one index of a work array) as SK_BF_NV vectors of SK_BF_VW lanes
   (GNU vector extensions; GCC and Clang lower them to the widest vectors the target has, or to scalars), so that every
   array of a pass is addressed from one base pointer with offsets known at compile time; SK_BF_VW = SK_VEC_WIDTH
   (stickslip/core.h: 8 lanes with AVX-512, else 4; docs/benchmarks.md). */
#define SK_BF_VW SK_VEC_WIDTH
#define SK_BF_NV (SK_L / SK_BF_VW)
_Static_assert(SK_L % SK_BF_VW == 0, "a lane block is a whole number of vectors");
typedef PetscReal SKBFVec __attribute__((vector_size(SK_BF_VW * sizeof(PetscReal))));
/* the same, for arrays aligned only to a PetscReal (the stored geometry, from PetscMalloc) */
typedef PetscReal SKBFVecU __attribute__((vector_size(SK_BF_VW * sizeof(PetscReal)), aligned(sizeof(PetscReal))));

/* One forward 1D pass with the tables T, D of a direction (T[(g q + a) SK_L + l] = N_a(xi_g), a < q): for every outer
   index o < no, Gauss point g < m and inner index i < ni, with in[((o q + a) ni + i) nin + v] and
   out[((o m + g) ni + i) (nin + 1) + v] (lane blocks),
     out_v = sum_a N_a(xi_g) in_v (v < nin),   out_nin = sum_a N_a'(xi_g) in_0,
   each sum in the order of a. */
SK_HOT_INLINE void Forward1D(const PetscInt q, const PetscInt m, const PetscInt no, const PetscInt ni, const PetscInt nin,
                             const PetscReal *T, const PetscReal *D, const PetscReal *in, PetscReal *out)
{
  const SKBFVec *t = (const SKBFVec *)T, *dt = (const SKBFVec *)D, *x = (const SKBFVec *)in;
  SKBFVec *y = (SKBFVec *)out;

  for (PetscInt o = 0; o < no; o++)
    for (PetscInt g = 0; g < m; g++)
      for (PetscInt i = 0; i < ni; i++)
        for (PetscInt c = 0; c < SK_BF_NV; c++) {
          const SKBFVec *xo = x + ((o * q * ni + i) * nin) * SK_BF_NV + c, *to = t + g * q * SK_BF_NV + c, *dto = dt + g * q * SK_BF_NV + c;
          SKBFVec *yo = y + (((o * m + g) * ni + i) * (nin + 1)) * SK_BF_NV + c;
          SKBFVec s[4], sd = {0};
          for (PetscInt v = 0; v < nin; v++) s[v] = (SKBFVec){0};
          for (PetscInt a = 0; a < q; a++) {
            const SKBFVec ta = to[a * SK_BF_NV], *xa = xo + a * ni * nin * SK_BF_NV;
            for (PetscInt v = 0; v < nin; v++) s[v] += ta * xa[v * SK_BF_NV];
            sd += dto[a * SK_BF_NV] * xa[0];
          }
          for (PetscInt v = 0; v < nin; v++) yo[v * SK_BF_NV] = s[v];
          yo[nin * SK_BF_NV] = sd;
        }
}

/* One backward 1D pass, the transpose: with in[((o m + g) ni + i) nin + v] and out[((o q + a) ni + i) (nin - 1) + v],
     out_0 = sum_g [N_a(xi_g) in_0 + N_a'(xi_g) in_(nin-1)],   out_v = sum_g N_a(xi_g) in_v (0 < v < nin - 1),
   each sum in the order of g; out_0 times wt[a] (the control point weights, lane blocks) when WT is given (nin = 2,
   ni = 1, o q + a the control point). */
SK_HOT_INLINE void Backward1D(const PetscInt q, const PetscInt m, const PetscInt no, const PetscInt ni, const PetscInt nin,
                              const PetscReal *T, const PetscReal *D, const PetscReal *in, const PetscReal *wt, PetscReal *out)
{
  const SKBFVec *t = (const SKBFVec *)T, *dt = (const SKBFVec *)D, *x = (const SKBFVec *)in, *wv = (const SKBFVec *)wt;
  SKBFVec *y = (SKBFVec *)out;

  for (PetscInt o = 0; o < no; o++)
    for (PetscInt a = 0; a < q; a++)
      for (PetscInt i = 0; i < ni; i++)
        for (PetscInt c = 0; c < SK_BF_NV; c++) {
          const SKBFVec *xo = x + ((o * m * ni + i) * nin) * SK_BF_NV + c, *to = t + a * SK_BF_NV + c, *dto = dt + a * SK_BF_NV + c;
          SKBFVec *yo = y + (((o * q + a) * ni + i) * (nin - 1)) * SK_BF_NV + c;
          SKBFVec s[3];
          for (PetscInt v = 0; v < nin - 1; v++) s[v] = (SKBFVec){0};
          for (PetscInt g = 0; g < m; g++) {
            const SKBFVec tg = to[g * q * SK_BF_NV], *xg = xo + g * ni * nin * SK_BF_NV;
            s[0] += tg * xg[0] + dto[g * q * SK_BF_NV] * xg[(nin - 1) * SK_BF_NV];
            for (PetscInt v = 1; v < nin - 1; v++) s[v] += tg * xg[v * SK_BF_NV];
          }
          if (wv) s[0] = wv[(o * q + a) * SK_BF_NV + c] * s[0];
          for (PetscInt v = 0; v < nin - 1; v++) yo[v * SK_BF_NV] = s[v];
        }
}

/* the tables of direction d */
#define TD(d) (w->T + (d)*q * q * SK_L), (w->D + (d)*q * q * SK_L)

/* Forward passes: the fields C[(f nen + a) SK_L + l] (a = a0 + q a1 [+ q^2 a2]) to their values and reference
   derivatives at the Gauss points, V[((f nq + g) (dim + 1) + v) SK_L + l] (g = g0 + m g1 [+ m^2 g2]; v = 0 the value,
   1 + k the derivative along xi_k). */
SK_HOT_INLINE void Forward(const PetscInt dim, const PetscInt q, const PetscInt m, const PetscInt nf, SKBezierForceWork *w)
{
  const PetscInt nen = dim == 2 ? q * q : q * q * q;
  /* direction 0: A1[((f nen/q + rest) m + g0) 2 + v], rest = a1 [+ q a2], v: N or N' along xi_0 */
  Forward1D(q, m, nf * nen / q, 1, 1, TD(0), w->C, w->A1);
  if (dim == 2) { /* direction 1: to V (v = 0: N0 N1, 1: N0' N1, 2: N0 N1') */
    Forward1D(q, m, nf, m, 2, TD(1), w->A1, w->V);
    return;
  }
  /* direction 1: A2[((f q + a2) m^2 + g1 m + g0) 3 + v] (v = 0: N0 N1, 1: N0' N1, 2: N0 N1') */
  Forward1D(q, m, nf * q, m, 2, TD(1), w->A1, w->A2);
  /* direction 2: to V (v = 0 the value, 1..3 the derivatives along xi_0, xi_1, xi_2) */
  Forward1D(q, m, nf, m * m, 3, TD(2), w->A2, w->V);
}

/* Backward passes: the stress coefficients S[((i nq + g) (dim + 1) + v) SK_L + l] (v = 0 multiplies N_A, 1 + k
   dN_A/dxi_k) summed over the Gauss points into R[(i nen + a) SK_L + l], times the weights w_A. */
SK_HOT_INLINE void Backward(const PetscInt dim, const PetscInt q, const PetscInt m, SKBezierForceWork *w)
{
  const PetscInt nen = dim == 2 ? q * q : q * q * q;
  PetscReal *B1 = w->A1, *B2 = w->A2; /* the forward passes' space */

  if (dim == 2) /* direction 1: B1[((i q + a1) m + g0) 2 + v] (v = 0 multiplies N0, 1 N0') */
    Backward1D(q, m, dim, m, 3, TD(1), w->S, NULL, B1);
  else {
    /* direction 2: B2[((i q + a2) m^2 + g1 m + g0) 3 + v] (v = 0 multiplies N0 N1, 1 N0' N1, 2 N0 N1') */
    Backward1D(q, m, dim, m * m, 4, TD(2), w->S, NULL, B2);
    /* direction 1: B1[(((i q + a2) q + a1) m + g0) 2 + v] (v = 0 multiplies N0, 1 N0') */
    Backward1D(q, m, dim * q, m, 3, TD(1), B2, NULL, B1);
  }
  /* direction 0: R, for every control point a = a0 + q rest, times w_A */
  for (PetscInt i = 0; i < dim; i++) Backward1D(q, m, nen / q, 1, 2, TD(0), B1 + i * (nen / q) * m * 2 * SK_L, w->w, w->R + i * nen * SK_L);
}
#undef TD

/* The coefficients of the batch's fields into C: w_A, then w_A X_A (when X is given) and w_A u_A, in that order. */
SK_HOT_INLINE void GatherFields(const PetscInt dim, const PetscInt nen, const PetscInt *conn, PetscInt b, PetscInt nl, const PetscReal Xg[],
                                const PetscReal ug[], SKBezierForceWork *w)
{
  const PetscInt fu = Xg ? 1 + dim : 1; /* the first field of w u */
  for (PetscInt l = 0; l < SK_L; l++) {
    const PetscInt *c = conn + (b + (l < nl ? l : 0)) * nen;
    for (PetscInt a = 0; a < nen; a++) {
      const PetscReal wa = w->w[a * SK_L + l];
      w->C[a * SK_L + l] = wa;
      for (PetscInt d = 0; d < dim; d++) {
        if (Xg) w->C[((1 + d) * nen + a) * SK_L + l] = wa * Xg[c[a] * dim + d];
        if (ug) w->C[((fu + d) * nen + a) * SK_L + l] = wa * ug[c[a] * dim + d];
      }
    }
  }
}

/* The reference geometry at Gauss point G of the batch from the values V of the passes over W and w X (fields 0 and
   1..dim): det J and G[j][k] = dxi_k/dX_j. */
SK_HOT_INLINE void ReferenceGeometry(const PetscInt dim, const PetscInt nq, PetscInt g, const PetscReal *V, PetscReal det[], PetscReal G[])
{
  const PetscInt nv = dim + 1;
  SK_ALIGN PetscReal jac[9 * SK_L], iW[SK_L];
#define VV(f, v, l) V[(((f)*nq + g) * nv + (v)) * SK_L + (l)]
  LANES(l) iW[l] = 1.0 / VV(0, 0, l);
  for (PetscInt d = 0; d < dim; d++)
    for (PetscInt k = 0; k < dim; k++) LANES(l)
      {
        SK_AT(jac, dim, d, k, l) = (VV(1 + d, 1 + k, l) - VV(1 + d, 0, l) * iW[l] * VV(0, 1 + k, l)) * iW[l];
      }
#undef VV
  SKLanesDetInvT(dim, jac, det, G);
}

/* The stored geometry: per batch of SK_L elements, per Gauss point, det J then G (dim^2), lane last. */
#define SK_BF_GEO(dim) (1 + (dim) * (dim))

SK_HOT_INLINE PetscErrorCode BezierReference(SKBezierBasis *bb, const PetscInt dim, const PetscInt q, const PetscInt m, PetscInt nelem,
                                             const PetscInt conn[], const PetscReal Xg[])
{
  const PetscInt nen = dim == 2 ? q * q : q * q * q, nq = dim == 2 ? m * m : m * m * m, ng = SK_BF_GEO(dim);
  SKBezierForceWork work, *w = &work;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nelem; b += SK_L) {
    const PetscInt nl = PetscMin(SK_L, nelem - b);
    PetscReal *geo    = bb->geo + (b / SK_L) * nq * ng * SK_L;
    for (PetscInt l = 0; l < SK_L; l++) w->elem[l] = b + (l < nl ? l : 0);
    GatherTables(bb, dim, q, m, w->elem, w);
    GatherFields(dim, nen, conn, b, nl, Xg, NULL, w);
    Forward(dim, q, m, 1 + dim, w);
    for (PetscInt g = 0; g < nq; g++) ReferenceGeometry(dim, nq, g, w->V, geo + g * ng * SK_L, geo + (g * ng + 1) * SK_L);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

SK_HOT_INLINE PetscErrorCode BezierForce(SKBasis basis, SKMaterial mat, const PetscInt dim, const PetscInt q, const PetscInt m,
                                         PetscInt nelem, const PetscInt conn[], const PetscReal Xg[], const PetscReal ug[], PetscReal f[],
                                         PetscReal *energy, SKFEMFailure *fail)
{
  const SKBezierBasis *bb = (const SKBezierBasis *)basis->ctx;
  const PetscInt nen = dim == 2 ? q * q : q * q * q, nq = dim == 2 ? m * m : m * m * m, nv = dim + 1, ng = SK_BF_GEO(dim);
  const PetscBool stored = bb->geo ? PETSC_TRUE : PETSC_FALSE;
  const PetscInt nf = stored ? 1 + dim : 1 + 2 * dim, fu = stored ? 1 : 1 + dim; /* the fields, the first of w u */
  SKBezierForceWork work, *w                             = &work;
  SKMaterialBatch batch, *mb                             = &batch;
  PetscReal esum = 0.0;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nelem; b += SK_L) {
    const PetscInt nl   = PetscMin(SK_L, nelem - b);
    const unsigned live = LaneMask(nl);

    /* lanes past the block end repeat element b, so that their (discarded) results are well defined */
    for (PetscInt l = 0; l < SK_L; l++) w->elem[l] = basis->same_element ? basis->element : b + (l < nl ? l : 0);
    GatherTables(bb, dim, q, m, w->elem, w);
    GatherFields(dim, nen, conn, b, nl, stored ? NULL : Xg, ug, w); /* w_A, [w_A X_A,] w_A u_A */
    Forward(dim, q, m, nf, w);
    for (PetscInt g = 0; g < nq; g++) {
      SK_ALIGN PetscReal Gl[9 * SK_L], detl[SK_L];
      const PetscReal *V = w->V + g * nv * SK_L, *G = Gl, *det = detl;
      SKBFVec iW[SK_BF_NV];
      unsigned bad;
      if (!stored)
        ReferenceGeometry(dim, nq, g, w->V, detl, Gl);
      else if (!basis->same_element) { /* the batch's own elements: their stored geometry, lane by lane */
        det = bb->geo + ((b / SK_L) * nq + g) * ng * SK_L;
        G   = det + SK_L;
      } else { /* copies of one element */
        const PetscInt e    = basis->element;
        const PetscReal *ge = bb->geo + ((e / SK_L) * nq + g) * ng * SK_L + e % SK_L;
        LANES(l) detl[l]    = ge[0];
        for (PetscInt k = 0; k < dim * dim; k++) LANES(l) Gl[k * SK_L + l] = ge[(1 + k) * SK_L];
      }
      bad = SKLanesNonPositive(det) & live;
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_REFERENCE, b + l, g, det[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      /* du_i/dxi_k of the rational field, then F = I + du/dxi dxi/dX, vector by vector of lanes; V's value v of field f
         at this point is v[(f nq nv + v) SK_BF_NV], G (stored: not aligned to a vector) gv[(j dim + k) SK_BF_NV] */
      for (PetscInt c = 0; c < SK_BF_NV; c++) {
        const SKBFVec *v   = (const SKBFVec *)V + c;
        const SKBFVecU *gv = (const SKBFVecU *)G + c;
        SKBFVec du[9], *F = (SKBFVec *)mb->F + c;
        iW[c] = 1.0 / v[0];
        for (PetscInt d = 0; d < dim; d++)
          for (PetscInt k = 0; k < dim; k++) {
            const SKBFVec *vu = v + (fu + d) * nq * nv * SK_BF_NV;
            du[d * dim + k]   = (vu[(1 + k) * SK_BF_NV] - vu[0] * iW[c] * v[(1 + k) * SK_BF_NV]) * iW[c];
          }
        for (PetscInt i = 0; i < dim; i++)
          for (PetscInt j = 0; j < dim; j++) {
            SKBFVec s = (SKBFVec){0} + (i == j ? 1.0 : 0.0);
            /* du[0 .. dim^2 - 1] were all set above */
            // cppcheck-suppress uninitvar
            for (PetscInt k = 0; k < dim; k++) s += du[i * dim + k] * gv[(j * dim + k) * SK_BF_NV];
            F[(i * dim + j) * SK_BF_NV] = s;
          }
      }
      PetscCall(SKMaterialStressBatch(mat, mb, energy ? PETSC_TRUE : PETSC_FALSE, &bad));
      bad &= live;
      if (bad) {
        const PetscInt l = FirstLane(bad);
        SetFailure(fail, SK_FEM_INVERTED_CURRENT, b + l, g, mb->J[l]);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (energy)
        for (PetscInt l = 0; l < nl; l++) esum += bb->force.wq[g] * det[l] * mb->psi[l];
      if (!f) continue;
      /* S_ik = (w det J) P_ij dxi_k/dX_j / W, S_i0 = -sum_k S_ik dW/dxi_k / W, at S[((i nq + g) nv + v) SK_L] */
      for (PetscInt c = 0; c < SK_BF_NV; c++) {
        const SKBFVec *v = (const SKBFVec *)V + c, *P = (const SKBFVec *)mb->P + c;
        const SKBFVecU *gv = (const SKBFVecU *)G + c;
        const SKBFVec wdi  = bb->force.wq[g] * ((const SKBFVecU *)det)[c] * iW[c];
        for (PetscInt i = 0; i < dim; i++) {
          SKBFVec *s = (SKBFVec *)w->S + ((i * nq + g) * nv) * SK_BF_NV + c, s0 = {0};
          for (PetscInt k = 0; k < dim; k++) {
            SKBFVec t = {0};
            for (PetscInt j = 0; j < dim; j++) t += P[(i * dim + j) * SK_BF_NV] * gv[(j * dim + k) * SK_BF_NV];
            t *= wdi;
            s[(1 + k) * SK_BF_NV] = t;
            s0 -= t * v[(1 + k) * SK_BF_NV] * iW[c];
          }
          s[0] = s0;
        }
      }
    }
    if (!f) continue;
    Backward(dim, q, m, w);
    for (PetscInt l = 0; l < nl; l++) {
      const PetscInt *c = conn + (b + l) * nen;
      for (PetscInt a = 0; a < nen; a++)
        for (PetscInt i = 0; i < dim; i++) f[c[a] * dim + i] += w->R[(i * nen + a) * SK_L + l];
    }
  }
  if (energy) *energy += esum;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each instance (dim, q, m) of the kernel and of its reference-geometry pass. */
typedef PetscErrorCode (*BezierReferenceFn)(SKBezierBasis *, PetscInt, const PetscInt[], const PetscReal[]);
#define SK_BEZIER_INSTANCE(dim, q, m)                                                                                                    \
  static PetscErrorCode BezierForce_##dim##_##q##_##m(SKBasis basis, SKMaterial mat, PetscInt nelem, const PetscInt conn[],              \
                                                      const PetscReal X[], const PetscReal u[], PetscReal f[], PetscReal *energy,        \
                                                      SKFEMFailure *fail)                                                                \
  {                                                                                                                                      \
    return BezierForce(basis, mat, dim, q, m, nelem, conn, X, u, f, energy, fail);                                                       \
  }                                                                                                                                      \
  static PetscErrorCode BezierReference_##dim##_##q##_##m(SKBezierBasis *bb, PetscInt nelem, const PetscInt conn[], const PetscReal X[]) \
  {                                                                                                                                      \
    return BezierReference(bb, dim, q, m, nelem, conn, X);                                                                               \
  }
SK_BEZIER_INSTANCE(2, 2, 2)
SK_BEZIER_INSTANCE(2, 3, 3)
SK_BEZIER_INSTANCE(2, 4, 4)
SK_BEZIER_INSTANCE(3, 2, 2)
SK_BEZIER_INSTANCE(3, 3, 3)
SK_BEZIER_INSTANCE(3, 4, 4)
SK_BEZIER_INSTANCE(2, 3, 2)
SK_BEZIER_INSTANCE(2, 4, 3)
SK_BEZIER_INSTANCE(3, 3, 2)
SK_BEZIER_INSTANCE(3, 4, 3)
#undef SK_BEZIER_INSTANCE

/* The instances of the kernel and of its reference pass: [dim - 2][q - 2][q - m] (m = q: the full rule, q - 1: the
   reduced one; NULL where there is none). */
static const SKBasisInternalForceFn BezierForceKernels[2][3][2] = {
    {{BezierForce_2_2_2, NULL}, {BezierForce_2_3_3, BezierForce_2_3_2}, {BezierForce_2_4_4, BezierForce_2_4_3}},
    {{BezierForce_3_2_2, NULL}, {BezierForce_3_3_3, BezierForce_3_3_2}, {BezierForce_3_4_4, BezierForce_3_4_3}}};
static const BezierReferenceFn BezierReferenceKernels[2][3][2] = {
    {{BezierReference_2_2_2, NULL}, {BezierReference_2_3_3, BezierReference_2_3_2}, {BezierReference_2_4_4, BezierReference_2_4_3}},
    {{BezierReference_3_2_2, NULL}, {BezierReference_3_3_3, BezierReference_3_3_2}, {BezierReference_3_4_4, BezierReference_3_4_3}}};

PetscErrorCode SKBezierSetReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[])
{
  SKBezierBasis *bb = (SKBezierBasis *)basis->ctx;
  const PetscInt q = bb->q, m = bb->force.m, nq = bb->force.nq, dim = bb->dim;

  PetscFunctionBegin;
  PetscCall(PetscFree(bb->geo));
  if (!basis->internal_force || nelem == 0) PetscFunctionReturn(PETSC_SUCCESS); /* the generic loop stores nothing */
  PetscCall(PetscMalloc1(((nelem + SK_L - 1) / SK_L) * nq * SK_BF_GEO(dim) * SK_L, &bb->geo));
  PetscCall(BezierReferenceKernels[dim - 2][q - 2][q - m](bb, nelem, conn, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

SKBasisInternalForceFn SKBezierInternalForceKernel(PetscInt dim, PetscInt q, PetscInt m)
{
  if ((dim != 2 && dim != 3) || q < 2 || q > SK_BF_Q || m > q || m < q - 1) return NULL;
  return BezierForceKernels[dim - 2][q - 2][q - m];
}
