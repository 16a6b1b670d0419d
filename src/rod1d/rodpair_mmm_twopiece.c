/* Mode-matching method: eigenpairs of a rod-1 segment made of two uniform chains joined at one node (a two-material
   rod whose material boundary falls on a node, the segments that straddle it), without a general eigen-solve
   (docs/theory.md, rod pair, has the derivation).

   Holding the joint node i fixed, each piece is a uniform chain (spring k, node mass m_s, m nodes) whose far end is
   held by a spring k or is a free rod end (half-mass node) and whose near end hangs on the joint by a spring k (a piece
   may be empty: the joint is then an end node, held by its spring or free). With c = 1 - lambda m_s / (2 k),
   (K - lambda M) / k of a piece is tridiag(-1, 2c, -1) (first diagonal entry c at a free far end), whose leading
   determinants are the Chebyshev polynomials U_j(c) (held far end) or T_j(c) (free far end). A displacement of the
   joint drives the piece as u_j = u_i P_j(c) / P_m(c), j counted from the far end (P = U or T), and the joint's
   equation is the secular equation

     f(lambda) = k_A (1 - R_A(lambda)) + k_B (1 - R_B(lambda)) - lambda M_i = 0,   R = P_(m-1) / P_m,

   whose poles are the eigenvalues of the pieces with the joint held (closed form: the zeros of U_m or T_m). f falls
   monotonically from +inf to -inf between consecutive poles (each pole term is -k^2 phi^2 / (lambda_p - lambda) and a
   chain mode never vanishes at its end), so the n eigenvalues are one per interval of the n - 1 sorted poles, from 0
   to the Gershgorin bound. In the band of a piece (c >= -1, c = cos theta) P_j is sin((j + 1) theta) / sin(theta) or
   cos(j theta); above it (c = -cosh psi) the growing sinh or cosh, taken as ratios to P_m. The eigenvector joins the
   two pieces' shapes where it is largest (TwoPieceVector), and modes of nearly equal frequency are re-orthogonalised.
   Where a pole of one piece equals one of the other to round-off (equal wave speeds and commensurate lengths), the
   interval between them is empty; the caller then takes the general eigen-solve. */
#include "mmmimpl.h"

typedef struct {
  PetscInt m;      /* nodes (the joint excluded) */
  PetscBool free;  /* far end a free rod end (half-mass node), else held by a spring k */
  PetscReal k, ms; /* spring (N/m), interior node mass (kg) */
  PetscReal lmax;  /* top of its band, 4 k / m_s */
} Piece;

/* TP_CLUSTER: relative gap below which a mode is re-orthogonalised against an earlier one, at most TP_WINDOW of them;
   TP_EDGE: theta within this of pi, or psi below it, takes the band-edge limits of R; TP_RESYNC: steps of the rotation
   between restarts from libm's sine and cosine; TP_POLE_GAP: poles of the two pieces closer than this (relative) count
   as shared */
#define TP_CLUSTER 1e-3
#define TP_WINDOW 8
#define TP_EDGE 1e-7
#define TP_RESYNC 16
#define TP_POLE_GAP 1e-12

/* theta of c = cos theta = 1 - 2 S2 (S2 = lambda / lmax in [0, 1]) from its sine and cosine, which keep their relative
   accuracy at both band edges where acos(c) or 2 asin(sqrt(S2)) would amplify the round-off of S2 */
static PetscReal PieceTheta(PetscReal s2)
{
  s2 = PetscMax(s2, 0);
  return PetscAtan2Real(2 * PetscSqrtReal(s2 * (1 - s2)), 1 - 2 * s2);
}

/* 1 - R(lambda), R = P_(m-1)(c) / P_m(c), of piece PC: in the band as a product (cos(m th) - cos((m - 1) th) and
   sin((m + 1) th) - sin(m th) by the sum-to-product rules, sin(th / 2) = sqrt(s2)), so that f keeps its relative
   accuracy at the lowest frequencies where R tends to 1 */
static PetscReal PieceQ(const Piece *pc, PetscReal lambda)
{
  PetscReal s2, m = (PetscReal)pc->m;
  if (pc->m == 0) return 1; /* an empty piece: the joint's spring to a held neighbour (k = 0 at a free rod end) */
  s2 = lambda / pc->lmax;
  if (s2 <= 1) {
    PetscReal th = PieceTheta(s2), sh = PetscSqrtReal(PetscMax(s2, 0));
    if (th > PETSC_PI - TP_EDGE) return pc->free ? 2 : (2 * m + 1) / (m + 1);
    if (th == 0) return pc->free ? 0 : 1 / (m + 1);
    if (pc->free) return -2 * PetscSinReal((m - 0.5) * th) * sh / PetscCosReal(m * th);
    return 2 * PetscCosReal((m + 0.5) * th) * sh / PetscSinReal((m + 1) * th);
  } else {
    PetscReal psi = 2 * PetscAcoshReal(PetscSqrtReal(s2)), e = PetscExpReal(-psi);
    if (psi < TP_EDGE) return pc->free ? 2 : (2 * m + 1) / (m + 1);
    if (pc->free) return 1 + e * (1 + PetscExpReal(-2 * (m - 1) * psi)) / (1 + PetscExpReal(-2 * m * psi));
    return 1 + e * (1 - PetscExpReal(-2 * m * psi)) / (1 - PetscExpReal(-2 * (m + 1) * psi));
  }
}

/* The shape of piece PC driven at frequency^2 LAMBDA into v[0..m], v[j] from the far end and v[m] at the joint: in the
   band P_j unscaled (bounded by m + 1), above it P_j / P_m (v[m] = 1) by the growing ratio recurrence */
static void PieceShape(const Piece *pc, PetscReal lambda, PetscReal v[])
{
  PetscReal s2;
  if (pc->m == 0) {
    v[0] = 1;
    return;
  }
  s2 = lambda / pc->lmax;
  if (s2 <= 1) { /* cos theta = c and sin theta = 2 sqrt(s2 (1 - s2)) from s2 itself: no angle near the band edge */
    PetscReal ct = 1 - 2 * s2, st = 2 * PetscSqrtReal(PetscMax(s2, 0) * (1 - s2));
    PetscReal c = pc->free ? 1 : ct, s = pc->free ? 0 : st, t, th = PieceTheta(s2); /* angle (j + 1) theta (held) or j theta (free) */
    for (PetscInt j = 0; j <= pc->m; j++) {
      if (j % TP_RESYNC == TP_RESYNC - 1) { /* the rotation's drift (j eps) restarted from libm's values */
        PetscReal x = (pc->free ? j : j + 1) * th;
        c = PetscCosReal(x), s = PetscSinReal(x);
      }
      v[j] = pc->free ? c : s;
      t    = c * ct - s * st;
      s    = s * ct + c * st;
      c    = t;
    }
  } else { /* r_j = P_j / P_(j+1) = 1 / (2c - r_(j-1)) from r_(-1) = 0 (held: P_(-1) = 0), or r_0 = 1 / c (free: P_1 = c P_0);
              the growing solution, so the recurrence is stable; then P_j / P_m = r_j r_(j+1) .. r_(m-1) */
    PetscReal c2 = 2 * (1 - 2 * s2), r = pc->free ? 2 / c2 : 0;
    for (PetscInt j = 0; j < pc->m; j++) {
      if (!pc->free || j > 0) r = 1 / (c2 - r);
      v[j] = r;
    }
    v[pc->m] = 1;
    for (PetscInt j = pc->m - 1; j >= 0; j--) v[j] *= v[j + 1];
  }
}

/* f(lambda) of the secular equation */
static PetscReal Secular(const Piece *A, const Piece *B, PetscReal Mi, PetscReal lambda)
{
  return A->k * PieceQ(A, lambda) + B->k * PieceQ(B, lambda) - lambda * Mi;
}

/* The root of the secular equation in (lo, hi), f(lo+) > 0 > f(hi-): FLO and FHI are the values at the ends, or NULL
   for an end at a pole (+-inf). Illinois false position, bisecting while an end's value is unknown, to a few ulps. */
static PetscReal SecularRoot(const Piece *A, const Piece *B, PetscReal Mi, PetscReal lo, PetscReal hi, const PetscReal *flo,
                             const PetscReal *fhi)
{
  PetscReal a = lo, b = hi, fa = flo ? *flo : 0, fb = fhi ? *fhi : 0;
  PetscBool ka = flo ? PETSC_TRUE : PETSC_FALSE, kb = fhi ? PETSC_TRUE : PETSC_FALSE; /* end values known */
  PetscInt side = 0;
  for (PetscInt it = 0; it < 200 && b - a > 4 * PETSC_MACHINE_EPSILON * b; it++) {
    PetscReal x = ka && kb ? (a * fb - b * fa) / (fb - fa) : 0.5 * (a + b), fx;
    if (!(x > a && x < b)) x = 0.5 * (a + b);
    fx = Secular(A, B, Mi, x);
    if (fx == 0) return x;
    if (fx > 0) {
      a = x, fa = fx, ka = PETSC_TRUE;
      if (side == 1) fb *= 0.5;
      side = 1;
    } else {
      b = x, fb = fx, kb = PETSC_TRUE;
      if (side == -1) fa *= 0.5;
      side = -1;
    }
  }
  return 0.5 * (a + b);
}

/* Poles of piece PC (its eigenvalues with the joint held), ascending, into p[0..m) */
static void PiecePoles(const Piece *pc, PetscReal p[])
{
  for (PetscInt q = 1; q <= pc->m; q++) {
    PetscReal th = pc->free ? (q - 0.5) * PETSC_PI / pc->m : q * PETSC_PI / (pc->m + 1), s = PetscSinReal(th / 2);
    p[q - 1] = pc->lmax * s * s;
  }
}

/* The mass-normalised eigenvector X (n) at the root LAMBDA of the joint I between pieces A and B, from their shapes VA, VB
   (PieceShape). Shapes from both far ends satisfy every equation but the one where they meet, whose residual is about
   the root's round-off over the vector's value there (as in a twisted factorisation): meeting at the joint (the
   cross-multiplied form) is poor when the mode hardly moves the joint (next to a pole, at a band edge), so the shapes
   meet at the largest value instead, the other piece's shape carried through the joint and on by the three-term
   recurrence of the piece (only within its band, where that recurrence is neutrally stable). */
static void TwoPieceVector(const Piece *A, const Piece *B, PetscReal Mi, PetscInt i, PetscInt n, PetscReal lambda, const PetscReal vA[],
                           const PetscReal vB[], const PetscReal mass[], PetscReal x[])
{
  PetscReal DA = vA[A->m], DB = vB[B->m], big = 0, norm = 0, d = A->k + B->k - lambda * Mi;
  PetscInt k = i;
  for (PetscInt j = 0; j < n; j++) { /* the largest value of the cross-multiplied form, node by node */
    PetscReal t = j < i ? vA[j] * DB : (j == i ? DA * DB : vB[n - 1 - j] * DA);
    if (mass[j] * t * t > big) big = mass[j] * t * t, k = j;
  }
  if (k < i && lambda <= A->lmax) { /* B's shape through the joint, down piece A to node k; A's own shape below it */
    PetscReal c2 = 2 - lambda * A->ms / A->k, sc;
    x[i]         = DB;
    for (PetscInt j = 0; j < B->m; j++) x[n - 1 - j] = vB[j];
    x[i - 1] = (d * x[i] - (B->m > 0 ? B->k * x[i + 1] : 0)) / A->k;
    for (PetscInt j = i - 1; j > k; j--) x[j - 1] = c2 * x[j] - x[j + 1];
    sc = x[k] / vA[k];
    for (PetscInt j = 0; j < k; j++) x[j] = sc * vA[j];
  } else if (k > i && lambda <= B->lmax) { /* the mirror image: A's shape through the joint, up piece B to node k */
    PetscReal c2 = 2 - lambda * B->ms / B->k, sc;
    x[i]         = DA;
    for (PetscInt j = 0; j < A->m; j++) x[j] = vA[j];
    x[i + 1] = (d * x[i] - (A->m > 0 ? A->k * x[i - 1] : 0)) / B->k;
    for (PetscInt j = i + 1; j < k; j++) x[j + 1] = c2 * x[j] - x[j - 1];
    sc = x[k] / vB[n - 1 - k];
    for (PetscInt j = k + 1; j < n; j++) x[j] = sc * vB[n - 1 - j];
  } else { /* meeting at the joint: u_A = P_A,j P_B,m, u_B = P_B,j P_A,m */
    for (PetscInt j = 0; j < A->m; j++) x[j] = vA[j] * DB;
    x[i] = DA * DB;
    for (PetscInt j = 0; j < B->m; j++) x[n - 1 - j] = vB[j] * DA;
  }
  for (PetscInt j = 0; j < n; j++) norm += mass[j] * x[j] * x[j];
  norm = 1 / PetscSqrtReal(norm);
  for (PetscInt j = 0; j < n; j++) x[j] *= norm;
}

PetscErrorCode SKMMMTwoPieceEigen(PetscInt n, PetscReal kl, const PetscReal sp[], PetscReal kr, const PetscReal mass[], PetscReal work[],
                                  PetscReal phi[], PetscReal w[], PetscBool *done)
{
  Piece A = {0}, B = {0};
  PetscInt i = -1, na, nb;
  PetscReal Mi, me0, *pole = work, *pa, *pb, *vA = work + n, *vB = work + 2 * n, ub, f0, fub;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (n < 3) PetscFunctionReturn(PETSC_SUCCESS);
  /* the joint: where the springs change (an end node when only a spring to a held neighbour differs), else where the
     node mass does (end masses of free rod ends doubled); a piece may be empty (the joint an end node) */
  for (PetscInt j = 1; j < n - 1 && i < 0; j++)
    if (sp[j] != sp[j - 1]) i = j;
  if (i < 0 && kl != 0 && kl != sp[0]) i = 0;
  if (i < 0 && kr != 0 && kr != sp[n - 2]) i = n - 1;
  me0 = kl == 0 ? 2 * mass[0] : mass[0];
  if (i < 0)
    for (PetscInt j = 1; j < n && i < 0; j++)
      if ((j == n - 1 && kr == 0 ? 2 * mass[j] : mass[j]) != me0) i = j;
  if (i < 0) PetscFunctionReturn(PETSC_SUCCESS);
  A  = (Piece){.m = i, .free = kl == 0 ? PETSC_TRUE : PETSC_FALSE, .k = i > 0 ? sp[0] : kl, .ms = i > 0 ? me0 : 1};
  B  = (Piece){.m    = n - 1 - i,
               .free = kr == 0 ? PETSC_TRUE : PETSC_FALSE,
               .k    = i < n - 1 ? sp[n - 2] : kr,
               .ms   = i == n - 1 ? 1 : (kr == 0 ? 2 * mass[n - 1] : mass[n - 1])};
  Mi = mass[i];
  /* every spring and node of each piece uniform */
  if ((i > 0 && kl != 0 && kl != A.k) || (i < n - 1 && kr != 0 && kr != B.k)) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < n - 1; j++)
    if (sp[j] != (j < i ? A.k : B.k)) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < n; j++) {
    PetscReal mj = ((j == 0 && kl == 0) || (j == n - 1 && kr == 0)) ? 2 * mass[j] : mass[j];
    if (j != i && mj != (j < i ? A.ms : B.ms)) PetscFunctionReturn(PETSC_SUCCESS);
  }
  A.lmax = A.m > 0 ? 4 * A.k / A.ms : 0;
  B.lmax = B.m > 0 ? 4 * B.k / B.ms : 0;
  /* the poles of both pieces, merged; a pole of one piece equal to one of the other to round-off (pieces of equal wave
     speed and commensurate lengths) leaves no interval to search: the segment goes to the general solve */
  na = A.m, nb = B.m, pa = vA, pb = vB;
  PiecePoles(&A, pa);
  PiecePoles(&B, pb);
  for (PetscInt r = 0, x = 0, y = 0; r < n - 1; r++) pole[r] = (y >= nb || (x < na && pa[x] <= pb[y])) ? pa[x++] : pb[y++];
  for (PetscInt r = 1; r < n - 1; r++)
    if (pole[r] - pole[r - 1] < TP_POLE_GAP * pole[r]) PetscFunctionReturn(PETSC_SUCCESS);
  /* Gershgorin: every eigenvalue at most the largest row sum of M^-1 |K| */
  ub  = PetscMax(PetscMax(A.lmax, B.lmax), 2 * (A.k + B.k) / Mi) * (1 + 1e-6);
  f0  = Secular(&A, &B, Mi, 0); /* the finite ends of the first and the last interval */
  fub = Secular(&A, &B, Mi, ub);
  for (PetscInt r = 0; r < n; r++) {
    PetscReal lo = r == 0 ? 0 : pole[r - 1], hi = r == n - 1 ? ub : pole[r], lambda;
    if (r == 0 && A.free && B.free)
      lambda = 0; /* the rigid-body mode (the caller sets it exactly) */
    else
      lambda = SecularRoot(&A, &B, Mi, lo, hi, r == 0 ? &f0 : NULL, r == n - 1 ? &fub : NULL);
    w[r] = PetscSqrtReal(lambda);
    PieceShape(&A, lambda, vA);
    PieceShape(&B, lambda, vB);
    TwoPieceVector(&A, &B, Mi, i, n, lambda, vA, vB, mass, phi + (size_t)r * n); /* mode r in row r: transposed at the end */
  }
  /* A vector made from its eigenvalue is orthogonal to the others only to about eps / (relative gap): modes within
     TP_CLUSTER (relative) of one of the TP_WINDOW before them (the tops of the bands, where the frequencies crowd) are
     re-orthogonalised against those in the mass inner product (modified Gram-Schmidt, as inverse iteration does) */
  for (PetscInt r = 1; r < n; r++) {
    PetscReal lr = w[r] * w[r], norm = 0, *xr = phi + (size_t)r * n;
    PetscInt q0 = r;
    while (q0 > 0 && q0 > r - TP_WINDOW && lr - w[q0 - 1] * w[q0 - 1] < TP_CLUSTER * lr) q0--;
    if (q0 == r) continue;
    for (PetscInt q = q0; q < r; q++) {
      const PetscReal *xq = phi + (size_t)q * n;
      PetscReal d         = 0;
      for (PetscInt j = 0; j < n; j++) d += mass[j] * xq[j] * xr[j];
      for (PetscInt j = 0; j < n; j++) xr[j] -= d * xq[j];
    }
    for (PetscInt j = 0; j < n; j++) norm += mass[j] * xr[j] * xr[j];
    norm = 1 / PetscSqrtReal(norm);
    for (PetscInt j = 0; j < n; j++) xr[j] *= norm;
  }
  for (PetscInt jb = 0; jb < n; jb += 32) /* row j = phi_p(j): transposed in place, by blocks */
    for (PetscInt rb = jb; rb < n; rb += 32)
      for (PetscInt j = jb; j < PetscMin(jb + 32, n); j++)
        for (PetscInt r = PetscMax(rb, j + 1); r < PetscMin(rb + 32, n); r++) {
          PetscReal t            = phi[(size_t)j * n + r];
          phi[(size_t)j * n + r] = phi[(size_t)r * n + j];
          phi[(size_t)r * n + j] = t;
        }
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
