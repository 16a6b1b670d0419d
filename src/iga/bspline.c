/* stickslip iga: knot vectors, B-spline basis and derivatives, Bernstein polynomials and 1D Bezier extraction. */
#include "iga/igaimpl.h"

PetscErrorCode SKKnotVectorCheck(PetscInt p, PetscInt n, PetscInt m, const PetscReal U[], PetscBool *ok, char reason[], size_t len)
{
  char buf[256];

  PetscFunctionBegin;
  *ok    = PETSC_FALSE;
  buf[0] = 0;
  if (p < 1 || p > SK_IGA_MAX_DEGREE) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "degree %" PetscInt_FMT " is outside 1..%d", p, SK_IGA_MAX_DEGREE));
  } else if (n < p + 1) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf),
                            "%" PetscInt_FMT " control points are too few for degree %" PetscInt_FMT " (need >= %" PetscInt_FMT ")", n, p,
                            p + 1));
  } else if (m != n + p + 1) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf),
                            "%" PetscInt_FMT " knots for %" PetscInt_FMT " control points of degree %" PetscInt_FMT
                            ": need n + p + 1 = %" PetscInt_FMT,
                            m, n, p, n + p + 1));
  } else {
    PetscInt mult = 1;
    for (PetscInt i = 1; i < m && !buf[0]; i++) {
      if (!(U[i] >= U[i - 1])) {
        PetscCall(PetscSNPrintf(buf, sizeof(buf), "knots decrease: U[%" PetscInt_FMT "] = %g < U[%" PetscInt_FMT "] = %g", i, (double)U[i],
                                i - 1, (double)U[i - 1]));
        break;
      }
      mult = (U[i] == U[i - 1]) ? mult + 1 : 1;
      if (i <= p && mult != i + 1)
        PetscCall(PetscSNPrintf(buf, sizeof(buf),
                                "not open: the first p + 1 = %" PetscInt_FMT " knots must be equal (U[%" PetscInt_FMT "] = %g)", p + 1, i,
                                (double)U[i]));
      else if (i >= m - p - 1 && i > p && U[i] != U[m - 1])
        PetscCall(PetscSNPrintf(buf, sizeof(buf),
                                "not open: the last p + 1 = %" PetscInt_FMT " knots must be equal (U[%" PetscInt_FMT "] = %g)", p + 1, i,
                                (double)U[i]));
      else if (i < m - 1 && i > p && U[i] < U[m - 1] && mult > p)
        PetscCall(PetscSNPrintf(buf, sizeof(buf), "interior knot %g repeats %" PetscInt_FMT " times, more than the degree %" PetscInt_FMT,
                                (double)U[i], mult, p));
    }
    if (!buf[0] && !(U[0] < U[m - 1]))
      PetscCall(PetscSNPrintf(buf, sizeof(buf), "empty parameter range [%g, %g]", (double)U[0], (double)U[m - 1]));
  }
  *ok = buf[0] ? PETSC_FALSE : PETSC_TRUE;
  if (reason && len) PetscCall(PetscStrncpy(reason, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt SKKnotVectorNumSpans(PetscInt m, const PetscReal U[])
{
  PetscInt k = 0;
  for (PetscInt i = 0; i + 1 < m; i++)
    if (U[i + 1] > U[i]) k++;
  return k;
}

PetscInt SKBSplineFindSpan(PetscInt p, PetscInt n, const PetscReal U[], PetscReal u)
{
  PetscInt lo = p, hi = n; /* invariant: U[lo] <= u < U[hi] */

  if (u >= U[n]) return n - 1;
  if (u <= U[p]) {
    while (lo < n - 1 && U[lo + 1] <= U[p]) lo++; /* skip empty spans at the start (cannot happen for open vectors) */
    return lo;
  }
  while (hi - lo > 1) {
    const PetscInt mid = (lo + hi) / 2;
    if (u < U[mid])
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

void SKBSplineBasis(PetscInt p, const PetscReal U[], PetscInt span, PetscReal u, PetscInt nder, PetscReal ders[])
{
  /* tab[j][r] (r >= j... upper triangle): basis functions of degree j; lower triangle: knot differences */
  PetscReal tab[SK_IGA_MAX_DEGREE + 1][SK_IGA_MAX_DEGREE + 1], left[SK_IGA_MAX_DEGREE + 1], right[SK_IGA_MAX_DEGREE + 1];
  PetscReal coef[2][SK_IGA_MAX_DEGREE + 1];

  tab[0][0] = 1.0;
  for (PetscInt j = 1; j <= p; j++) {
    PetscReal carry = 0.0;
    left[j]         = u - U[span + 1 - j];
    right[j]        = U[span + j] - u;
    for (PetscInt r = 0; r < j; r++) {
      tab[j][r]         = right[r + 1] + left[j - r]; /* knot difference (lower triangle) */
      const PetscReal f = tab[r][j - 1] / tab[j][r];
      tab[r][j]         = carry + right[r + 1] * f;
      carry             = left[j - r] * f;
    }
    tab[j][j] = carry;
  }
  for (PetscInt j = 0; j <= p; j++) ders[j] = tab[j][p];
  if (nder > p) nder = p;
  /* derivatives: differences of the degree p - k functions, scaled by p!/(p-k)! at the end */
  for (PetscInt r = 0; r <= p; r++) {
    PetscInt s1 = 0, s2 = 1;
    coef[0][0] = 1.0;
    for (PetscInt k = 1; k <= nder; k++) {
      const PetscInt rk = r - k, pk = p - k;
      PetscReal d = 0.0;
      if (r >= k) {
        coef[s2][0] = coef[s1][0] / tab[pk + 1][rk];
        d           = coef[s2][0] * tab[rk][pk];
      }
      const PetscInt j1 = rk >= -1 ? 1 : -rk, j2 = (r - 1 <= pk) ? k - 1 : p - r;
      for (PetscInt j = j1; j <= j2; j++) {
        coef[s2][j] = (coef[s1][j] - coef[s1][j - 1]) / tab[pk + 1][rk + j];
        d += coef[s2][j] * tab[rk + j][pk];
      }
      if (r <= pk) {
        coef[s2][k] = -coef[s1][k - 1] / tab[pk + 1][r];
        d += coef[s2][k] * tab[r][pk];
      }
      ders[k * (p + 1) + r] = d;
      s1                    = 1 - s1;
      s2                    = 1 - s2;
    }
  }
  PetscReal factor = p;
  for (PetscInt k = 1; k <= nder; k++) {
    for (PetscInt j = 0; j <= p; j++) ders[k * (p + 1) + j] *= factor;
    factor *= p - k;
  }
}

void SKBernsteinBasis(PetscInt p, PetscReal xi, PetscReal B[], PetscReal dB[])
{
  const PetscReal t = 0.5 * (1.0 + xi), s = 1.0 - t;
  PetscReal lower[SK_IGA_MAX_DEGREE + 1]; /* degree p - 1 */

  B[0] = 1.0;
  for (PetscInt k = 1; k <= p; k++) { /* raise the degree: B^k_i = s B^{k-1}_i + t B^{k-1}_{i-1} */
    if (k == p)
      for (PetscInt i = 0; i < p; i++) lower[i] = B[i];
    B[k] = t * B[k - 1];
    for (PetscInt i = k - 1; i > 0; i--) B[i] = s * B[i] + t * B[i - 1];
    B[0] *= s;
  }
  if (!dB) return;
  if (p == 0) {
    dB[0] = 0.0;
    return;
  }
  /* d/dt B^p_i = p (B^{p-1}_{i-1} - B^{p-1}_i), dt/dxi = 1/2 */
  for (PetscInt i = 0; i <= p; i++) dB[i] = 0.5 * p * ((i > 0 ? lower[i - 1] : 0.0) - (i < p ? lower[i] : 0.0));
}

PetscErrorCode SKBezierExtraction1D(PetscInt p, PetscInt m, const PetscReal U[], PetscReal C[], PetscInt first[], PetscReal range[])
{
  const PetscInt q = p + 1, nspan = SKKnotVectorNumSpans(m, U);
  PetscReal alpha[SK_IGA_MAX_DEGREE + 1];
  PetscInt a = p, b = p + 1, e = 0; /* 0-based: the current span is [U[a], U[b]] */

  PetscFunctionBegin;
  PetscCheck(p >= 1 && p <= SK_IGA_MAX_DEGREE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "degree %" PetscInt_FMT " is outside 1..%d", p,
             SK_IGA_MAX_DEGREE);
  for (PetscInt k = 0; k < nspan * q * q; k++) C[k] = 0.0;
  for (PetscInt k = 0; k < nspan; k++)
    for (PetscInt i = 0; i < q; i++) C[(k * q + i) * q + i] = 1.0;
#define SK_C(k, r, c) C[((k)*q + (r)) * q + (c)]
  /* Borden et al. (2011), Algorithm 1, in 0-based indices: walk over the interior knots; a knot of multiplicity
     mult < p is raised to p by knot insertion, which changes the columns of the current operator and seeds the rows
     of the next one that overlap. */
  while (b < m - 1) {
    const PetscInt i0 = b;
    if (first) first[e] = a - p;
    if (range) range[2 * e] = U[a], range[2 * e + 1] = U[b];
    while (b < m - 1 && U[b + 1] == U[b]) b++;
    const PetscInt mult = b - i0 + 1;
    if (mult < p) {
      const PetscReal numer = U[b] - U[a];
      for (PetscInt j = p; j > mult; j--) alpha[j - mult - 1] = numer / (U[a + j] - U[a]);
      const PetscInt r = p - mult;
      for (PetscInt j = 1; j <= r; j++) {
        const PetscInt save = r - j, s = mult + j; /* save: 0-based row/column of the next operator */
        for (PetscInt k = p; k >= s; k--) {
          const PetscReal al = alpha[k - s];
          for (PetscInt row = 0; row < q; row++) SK_C(e, row, k) = al * SK_C(e, row, k) + (1.0 - al) * SK_C(e, row, k - 1);
        }
        if (b < m - 1 && e + 1 < nspan)
          for (PetscInt k = 0; k <= j; k++) SK_C(e + 1, save + k, save) = SK_C(e, p - j + k, p);
      }
    }
    e++;
    if (b < m - 1) {
      a = b;
      b++;
    }
  }
#undef SK_C
  PetscCheck(e == nspan, PETSC_COMM_SELF, PETSC_ERR_PLIB, "extraction found %" PetscInt_FMT " spans, expected %" PetscInt_FMT, e, nspan);
  PetscFunctionReturn(PETSC_SUCCESS);
}
