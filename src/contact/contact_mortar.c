/* contact: the mortar distribution in 3D between two deformable surfaces of T3 or Q4 faces (docs/theory.md, "Mortar
   distribution in 3D"). The reaction of a slave node a goes to the master nodes b in the shares

     D_ab = int_{Gamma_s} N_a N_b(pi(x)) dA / int_{Gamma_s, covered} N_a dA,

   the integrals taken segment to segment in the manner of Puso and Laursen (2004): each slave face gets an averaged
   plane (its centre and normal), the master faces near it are projected onto that plane along its normal, the two
   polygons are clipped against each other, and the overlap is cut into triangles that carry a Gauss rule; at a point
   of a triangle the slave shape values come from the inverse map of the slave face in the plane and the master's from
   that of the projected master face. A uniform contact pressure then loads the master with its consistent nodal
   forces (the shares sum the master's weights int N_b dA), which is what the patch test needs.

   The shares of a slave face serve its nfn nodes: they are computed once per face and force evaluation (a cache on
   the slave surface, keyed by the update counts of both surfaces), or with a tolerance once per record of the face
   (per-face epochs, MortarCacheGet()). */
#include "contactimpl.h"

/* the message of a slave face or node whose shares need more master nodes than they can hold (%s: what, %d: the limit) */
#define MORTAR_TOO_FINE                                                                                                                 \
  "Mortar contact: a slave %s meets more than %d master nodes (the master side is much finer than the slave side); swap 'sideset' and " \
  "'master' of the contact so that the finer side is the slave"
#define MORTAR_MAX_POLY 16   /* vertices of a clipped polygon: at most 4 + 4 for two convex quadrilaterals */
#define MORTAR_MAX_FACE_B 64 /* master nodes one slave face's shares may reach */
#define MORTAR_MAX_CAND 256  /* master faces near one slave face */
#define MORTAR_KEEP_CAND 32  /* candidate master faces of a slave face whose positions are kept (tolerance) */

/* The shares of one slave face: for each of its nodes k the integral of N_k over the covered part (T[k]) and of
   N_k N_b for the master nodes b[j] (M[k][j]). */
typedef struct {
  PetscInt nb;
  PetscInt b[MORTAR_MAX_FACE_B];
  PetscReal M[4][MORTAR_MAX_FACE_B], T[4];
  PetscBool full; /* more than MORTAR_MAX_FACE_B master nodes met: the face cannot be distributed */
} FaceShares;

struct _n_SKContactMortarCache {
  SKContactMeshSurface master;         /* the master the shares were computed against (not a reference) */
  PetscReal tol;                       /* the move, relative to a slave face's size, that makes its shares be computed again */
  PetscInt gen, upd_master, upd_slave; /* generation of the positions: it changes when either surface was updated */
  PetscReal move2;                     /* the squared move that makes a face's shares be computed again */
  PetscInt *stamp;                     /* per face: the generation of the positions its shares were computed at (-1: none) */
  FaceShares *shares;                  /* per face */
  PetscInt *mark, mark_stamp;          /* per master face: the query it was last listed in (candidate search) */
  PetscInt cand[MORTAR_MAX_CAND];      /* candidates of the current query */
  /* with a tolerance (allocated on first use): the master's positions at the start of its epoch (xmref, 3 each; a new
     epoch once a master node has moved by more than half the tolerance) and the epoch's count; per slave face, the
     generation of the positions its shares are to be computed at (snap_gen), and the record of the face when it keeps
     its shares (snap_nc >= 0): the master epoch it was taken in, its corners' positions then (snap_x, 4 x 3) and its
     candidate master faces (snap_cand, sorted); snap_nc -1: not kept (computed again at every new generation) */
  PetscReal *xmref, *snap_x;
  PetscInt mepoch, *snap_gen, *snap_nc, *snap_epoch, *snap_cand;
  /* per slave node: its shares merged over its faces and normalised (node_n entries of node_b, node_N; -1: none, the
     node keeps its point rule), and the sum of its faces' stamps they were merged from (-1: never) */
  PetscInt *node_key, *node_n, *node_b;
  PetscReal *node_N;
  PetscInt *slot, *slot_stamp, merge_stamp; /* per master node: its place in the node being merged, valid when its stamp is
                                               that merge's */
};

PetscErrorCode SKContactMeshSurfaceSetMortarTolerance(SKContactMeshSurface ms, PetscReal tol)
{
  PetscFunctionBegin;
  PetscCheck(tol >= 0 && tol < 1, ms->comm, PETSC_ERR_ARG_OUTOFRANGE, "Mortar tolerance %g: must be in [0, 1)", (double)tol);
  ms->mortar_tol = tol;
  if (ms->mortar) ms->mortar->tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMortarCacheDestroy(SKContactMortarCache *cache)
{
  PetscFunctionBegin;
  if (!*cache) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*cache)->stamp, (*cache)->shares, (*cache)->mark));
  PetscCall(
      PetscFree6((*cache)->xmref, (*cache)->snap_x, (*cache)->snap_gen, (*cache)->snap_nc, (*cache)->snap_epoch, (*cache)->snap_cand));
  PetscCall(PetscFree4((*cache)->node_key, (*cache)->node_n, (*cache)->node_b, (*cache)->node_N));
  PetscCall(PetscFree2((*cache)->slot, (*cache)->slot_stamp));
  PetscCall(PetscFree(*cache));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shape values of a T3 (NFN 3: barycentric s, q) or Q4 (NFN 4: xi in [-1, 1]^2, nodes counter-clockwise from (-1, -1))
   face at the parameters XI. */
static inline void FaceShape(PetscInt nfn, const PetscReal xi[2], PetscReal N[])
{
  if (nfn == 3) {
    N[0] = 1 - xi[0] - xi[1], N[1] = xi[0], N[2] = xi[1];
  } else {
    N[0] = 0.25 * (1 - xi[0]) * (1 - xi[1]), N[1] = 0.25 * (1 + xi[0]) * (1 - xi[1]);
    N[2] = 0.25 * (1 + xi[0]) * (1 + xi[1]), N[3] = 0.25 * (1 - xi[0]) * (1 + xi[1]);
  }
}

/* The map of a face in the plane from its NFN corners P[NFN][2]: y = a + b xi + c eta (+ e xi eta for a quadrilateral,
   whose parameters run over [-1, 1]^2 around its centre a; a triangle's barycentric s, q from its first corner a) and
   the inverse of the linear part [b c]. A parallelogram (e below round-off of b and c) is affine like a triangle. */
typedef struct {
  PetscReal a[2], b[2], c[2], e[2], inv[2][2];
  PetscBool affine;
} FaceMap;

static inline void FaceMapSetUp(PetscInt nfn, const PetscReal P[][2], FaceMap *m)
{
  PetscReal det;
  if (nfn == 3) {
    for (PetscInt d = 0; d < 2; d++) m->a[d] = P[0][d], m->b[d] = P[1][d] - P[0][d], m->c[d] = P[2][d] - P[0][d], m->e[d] = 0;
  } else {
    for (PetscInt d = 0; d < 2; d++) {
      m->a[d] = 0.25 * (P[0][d] + P[1][d] + P[2][d] + P[3][d]), m->b[d] = 0.25 * (P[1][d] + P[2][d] - P[0][d] - P[3][d]);
      m->c[d] = 0.25 * (P[2][d] + P[3][d] - P[0][d] - P[1][d]), m->e[d] = 0.25 * (P[0][d] + P[2][d] - P[1][d] - P[3][d]);
    }
  }
  det          = m->b[0] * m->c[1] - m->c[0] * m->b[1];
  m->inv[0][0] = m->c[1] / det, m->inv[0][1] = -m->c[0] / det, m->inv[1][0] = -m->b[1] / det, m->inv[1][1] = m->b[0] / det;
  m->affine = (PetscBool)(PetscAbsReal(m->e[0]) + PetscAbsReal(m->e[1]) <=
                          1e-13 * (PetscAbsReal(m->b[0]) + PetscAbsReal(m->b[1]) + PetscAbsReal(m->c[0]) + PetscAbsReal(m->c[1])));
}

/* The parameters XI[N][2] of the N (at most 6) points Y[N][2] of the plane by the map M: the linear part inverted, then,
   for a quadrilateral that is not a parallelogram, Newton's method on the bilinear map from there (quadratic
   convergence). The points' Newton steps are taken in turn, so that the processor overlaps their chains of dependent
   divisions; each point takes the same steps as alone. */
static inline void FaceMapInverseMany(const FaceMap *m, PetscInt n, const PetscReal y[][2], PetscReal xi[][2])
{
  PetscBool done[6];
  PetscInt left = n;

  for (PetscInt p = 0; p < n; p++) {
    const PetscReal r0 = y[p][0] - m->a[0], r1 = y[p][1] - m->a[1];
    xi[p][0] = m->inv[0][0] * r0 + m->inv[0][1] * r1, xi[p][1] = m->inv[1][0] * r0 + m->inv[1][1] * r1;
    done[p] = PETSC_FALSE;
  }
  if (m->affine) return;
  for (PetscInt it = 0; it < 12 && left > 0; it++)
    for (PetscInt p = 0; p < n; p++) {
      PetscReal *x = xi[p];
      if (done[p]) continue;
      {
        const PetscReal s0  = y[p][0] - (m->a[0] + m->b[0] * x[0] + (m->c[0] + m->e[0] * x[0]) * x[1]);
        const PetscReal s1  = y[p][1] - (m->a[1] + m->b[1] * x[0] + (m->c[1] + m->e[1] * x[0]) * x[1]);
        const PetscReal j00 = m->b[0] + m->e[0] * x[1], j01 = m->c[0] + m->e[0] * x[0], j10 = m->b[1] + m->e[1] * x[1],
                        j11 = m->c[1] + m->e[1] * x[0];
        const PetscReal det = j00 * j11 - j01 * j10, d0 = (j11 * s0 - j01 * s1) / det, d1 = (j00 * s1 - j10 * s0) / det;
        x[0] += d0, x[1] += d1;
        if (PetscAbsReal(d0) + PetscAbsReal(d1) < 1e-14) done[p] = PETSC_TRUE, left--;
      }
    }
}

/* Twice the signed area of the polygon P[N][2]. */
static inline PetscReal PolygonArea2(PetscInt n, const PetscReal P[][2])
{
  PetscReal A = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt m = (k + 1) % n;
    A += P[k][0] * P[m][1] - P[m][0] * P[k][1];
  }
  return A;
}

/* The part of the convex polygon S[NS] (counter-clockwise) inside the convex polygon C[NC] (counter-clockwise) into
   OUT (Sutherland-Hodgman); returns its vertex count (0: no overlap). Each vertex's side of a clipping edge is computed
   once and read by both edges it ends: a vertex on the edge's line (faces with a common edge, the usual case of meshes
   whose boundaries meet) then counts as inside or outside for both, and either way the overlap keeps its area. Formed
   twice, the two values may differ in sign where the compiler fuses one product of the difference into a multiply-add
   and not the other (-ffp-contract=fast), and the vertex was dropped with the area next to it. */
static PetscInt ClipPolygon(PetscInt ns, const PetscReal S[][2], PetscInt nc, const PetscReal C[][2], PetscReal out[][2])
{
  PetscReal buf[2][MORTAR_MAX_POLY][2], side[MORTAR_MAX_POLY];
  PetscInt n = ns, cur = 0;

  for (PetscInt k = 0; k < ns; k++) buf[0][k][0] = S[k][0], buf[0][k][1] = S[k][1];
  for (PetscInt e = 0; e < nc && n > 0; e++) {
    const PetscReal *p0 = C[e], *p1 = C[(e + 1) % nc], ex = p1[0] - p0[0], ey = p1[1] - p0[1];
    const PetscReal(*in)[2] = buf[cur];
    PetscReal(*o)[2]        = buf[1 - cur];
    PetscInt m              = 0;
    /* side of the edge: > 0 inside (left of a counter-clockwise edge) */
    for (PetscInt k = 0; k < n; k++) side[k] = ex * (in[k][1] - p0[1]) - ey * (in[k][0] - p0[0]);
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *q0 = in[k], *q1 = in[(k + 1) % n], s0 = side[k], s1 = side[(k + 1) % n];
      if (s0 >= 0 && m < MORTAR_MAX_POLY) o[m][0] = q0[0], o[m][1] = q0[1], m++;
      if (((s0 >= 0) != (s1 >= 0)) && m < MORTAR_MAX_POLY) {
        const PetscReal t = s0 / (s0 - s1);
        o[m][0] = q0[0] + t * (q1[0] - q0[0]), o[m][1] = q0[1] + t * (q1[1] - q0[1]), m++;
      }
    }
    n = m, cur = 1 - cur;
  }
  for (PetscInt k = 0; k < n; k++) out[k][0] = buf[cur][k][0], out[k][1] = buf[cur][k][1];
  return n;
}

/* The 6-point rule of degree 4 on a triangle (Strang and Fix): barycentric points and weights summing to 1 (a point
   g takes a = TriA[g / 3] on two corners and 1 - 2 a on corner g % 3); the first of its two orbits with TriA[2] and
   TriW[2] is the 3-point rule of degree 2 (a = 1/6, weights 1/3). */
static const PetscReal TriA[3] = {0.445948490915965, 0.091576213509771, 1.0 / 6};
static const PetscReal TriW[3] = {0.223381589678011, 0.109951743655322, 1.0 / 3};

/* Adds WEIGHT to master node B's column of the face shares F; PETSC_FALSE when F is full. */
static PetscBool FaceColumn(FaceShares *F, PetscInt b, PetscInt *j)
{
  for (PetscInt k = 0; k < F->nb; k++)
    if (F->b[k] == b) {
      *j = k;
      return PETSC_TRUE;
    }
  if (F->nb == MORTAR_MAX_FACE_B) return PETSC_FALSE;
  *j       = F->nb;
  F->b[*j] = b;
  for (PetscInt k = 0; k < 4; k++) F->M[k][*j] = 0;
  F->nb++;
  return PETSC_TRUE;
}

/* The master faces whose current bounding box meets the box LO..HI, into cache->cand (at most MORTAR_MAX_CAND);
   returns their count, which is above MORTAR_MAX_CAND when more met the box (the caller refuses that). Only the cells that meet the box
   shrunk by r = min(depth, margin) on every side (to its centre where it is thinner than 2 r) are read: the grid lists a face in every cell
   its box at the last build, grown by the margin, touches, and the faces' boxes have moved by at most margin - depth since (or the grid was
   rebuilt), so a face whose current box meets the box at a point p is listed in every cell within r of p, one of which meets the shrunk
   box. The faces found are the same as over all the cells of the box, from far fewer cells (the box of a slave face spans several cells,
   each listing the many faces whose grown boxes touch it). */
static PetscInt MasterCandidates(SKContactMeshSurface ms, SKContactMortarCache cache, const PetscReal lo[], const PetscReal hi[])
{
  const PetscReal r = PetscMin(ms->depth, ms->margin);
  PetscInt c0[3], c1[3], n = 0;

  if (ms->nfaces == 0) return 0;
  cache->mark_stamp++;
  for (PetscInt d = 0; d < 3; d++) {
    const PetscReal mid = 0.5 * (lo[d] + hi[d]), slo = PetscMin(lo[d] + r, mid), shi = PetscMax(hi[d] - r, mid);
    const PetscReal a = PetscFloorReal((slo - ms->grid.lo[d]) * ms->grid.inv_cell),
                    b = PetscFloorReal((shi - ms->grid.lo[d]) * ms->grid.inv_cell);
    /* a point of a face is at least r inside the grid: a shrunk box a cell or more outside it meets none (the cell just
       outside is read as the border cell, for round-off) */
    if (b < -1 || a > ms->grid.ncell[d]) return 0;
    c0[d] = a < 0 ? 0 : a >= ms->grid.ncell[d] ? ms->grid.ncell[d] - 1 : (PetscInt)a;
    c1[d] = b < 0 ? 0 : b >= ms->grid.ncell[d] ? ms->grid.ncell[d] - 1 : (PetscInt)b;
  }
  for (PetscInt k = c0[2]; k <= c1[2]; k++)
    for (PetscInt j = c0[1]; j <= c1[1]; j++)
      for (PetscInt i = c0[0]; i <= c1[0]; i++) {
        const PetscInt c = (k * ms->grid.ncell[1] + j) * ms->grid.ncell[0] + i;
        for (PetscInt q = ms->grid.cstart[c]; q < ms->grid.cstart[c + 1]; q++) {
          const PetscInt f = ms->grid.cfaces[q];
          PetscBool meets  = PETSC_TRUE;
          if (cache->mark[f] == cache->mark_stamp) continue;
          cache->mark[f] = cache->mark_stamp;
          for (PetscInt d = 0; d < 3; d++)
            meets = (PetscBool)(meets && ms->fbox[(f * 3 + d) * 2] <= hi[d] && ms->fbox[(f * 3 + d) * 2 + 1] >= lo[d]);
          if (!meets) continue;
          if (n < MORTAR_MAX_CAND) cache->cand[n] = f;
          n++;
        }
      }
  return n;
}

/* The averaged plane of a slave face of NS corners XS: its centre C, its unit normal NRM (the normal of a triangle, or
   the cross product of a quadrilateral's diagonals; outward) and two unit vectors E1, E2 in it. */
static void FacePlane(PetscInt ns, const PetscReal xs[][3], PetscReal c[], PetscReal nrm[], PetscReal e1[], PetscReal e2[])
{
  PetscReal u[3], v[3], len;

  for (PetscInt d = 0; d < 3; d++) c[d] = 0;
  for (PetscInt k = 0; k < ns; k++)
    for (PetscInt d = 0; d < 3; d++) c[d] += xs[k][d] / ns;
  for (PetscInt d = 0; d < 3; d++) {
    u[d] = ns == 3 ? xs[1][d] - xs[0][d] : xs[2][d] - xs[0][d];
    v[d] = ns == 3 ? xs[2][d] - xs[0][d] : xs[3][d] - xs[1][d];
  }
  nrm[0] = u[1] * v[2] - u[2] * v[1], nrm[1] = u[2] * v[0] - u[0] * v[2], nrm[2] = u[0] * v[1] - u[1] * v[0];
  len = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  for (PetscInt d = 0; d < 3; d++) nrm[d] /= len;
  len = 0;
  for (PetscInt d = 0; d < 3; d++) e1[d] = u[d], len += u[d] * nrm[d];
  for (PetscInt d = 0; d < 3; d++) e1[d] -= len * nrm[d];
  len = PetscSqrtReal(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (PetscInt d = 0; d < 3; d++) e1[d] /= len;
  e2[0] = nrm[1] * e1[2] - nrm[2] * e1[1], e2[1] = nrm[2] * e1[0] - nrm[0] * e1[2], e2[2] = nrm[0] * e1[1] - nrm[1] * e1[0];
}

/* The master faces that can touch the slave face of NS corners XS and unit normal of absolute value AN, sorted, into
   cache->cand; their count into NCAND. A point of the overlap on a master face lies within the search depth of the
   slave face along its normal, so inside the face's box grown by depth |n_d| in direction d, a little for round-off,
   and EXTRA (the moves the tolerance allows). */
static PetscErrorCode FaceCandidates(SKContactMeshSurface master, SKContactMortarCache cache, PetscInt ns, const PetscReal xs[][3],
                                     const PetscReal an[], PetscReal extra, PetscInt *ncand)
{
  PetscReal lo[3], hi[3];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    const PetscReal grow = master->depth * an[d] + 1e-9 * master->hmax + extra;
    lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
    for (PetscInt k = 0; k < ns; k++) lo[d] = PetscMin(lo[d], xs[k][d]), hi[d] = PetscMax(hi[d], xs[k][d]);
    lo[d] -= grow, hi[d] += grow;
  }
  *ncand = MasterCandidates(master, cache, lo, hi);
  PetscCheck(*ncand <= MORTAR_MAX_CAND, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "Mortar contact: %" PetscInt_FMT " master faces lie near one slave face, more than %d (the master side is much finer than the "
             "slave side, or the contact's search margin spans many faces); swap 'sideset' and 'master' of the contact so that the finer "
             "side is the slave",
             *ncand, MORTAR_MAX_CAND);
  /* in the order of the faces: the same sums whatever other faces the search lists (they overlap nothing) */
  PetscCall(PetscSortInt(*ncand, cache->cand));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The shares into F of the slave face of NS corners XS against the NCAND master faces CAND (sorted), master node b at
   XM + STRIDE * b. */
static PetscErrorCode FaceMortar(SKContactMeshSurface master, PetscInt ns, const PetscReal xs[][3], PetscInt ncand, const PetscInt cand[],
                                 const PetscReal *xm, PetscInt stride, FaceShares *F)
{
  const PetscInt nm = master->nfn;
  PetscReal c[3], nrm[3], e1[3], e2[3], S[4][2], area2;
  FaceMap smap, mmap;

  PetscFunctionBegin;
  F->nb = 0, F->full = PETSC_FALSE;
  for (PetscInt k = 0; k < 4; k++) F->T[k] = 0;
  FacePlane(ns, xs, c, nrm, e1, e2);
  for (PetscInt k = 0; k < ns; k++) {
    S[k][0] = S[k][1] = 0;
    for (PetscInt d = 0; d < 3; d++) S[k][0] += (xs[k][d] - c[d]) * e1[d], S[k][1] += (xs[k][d] - c[d]) * e2[d];
  }
  area2 = PolygonArea2(ns, S);
  FaceMapSetUp(ns, (const PetscReal(*)[2])S, &smap);
  /* a triangle on a triangle: both shape functions are affine in the plane, N_a N_b of degree 2, and the 3-point rule
     of degree 2 is exact; otherwise (a bilinear quadrilateral on either side) the 6-point rule of degree 4 */
  const PetscBool tri = (PetscBool)(ns == 3 && nm == 3);
  const PetscInt ng = tri ? 3 : 6, g0 = tri ? 6 : 0;
  for (PetscInt q = 0; q < ncand && !F->full; q++) {
    const PetscInt fm = cand[q], *mn = master->faces + fm * nm;
    PetscReal Mp[4][2], poly[MORTAR_MAX_POLY][2], am;
    PetscInt np;
    for (PetscInt k = 0; k < nm; k++) {
      const PetscReal *xk = xm + stride * mn[k];
      Mp[k][0] = Mp[k][1] = 0;
      for (PetscInt d = 0; d < 3; d++) {
        const PetscReal x = xk[d] - c[d];
        Mp[k][0] += x * e1[d], Mp[k][1] += x * e2[d];
      }
    }
    am = PolygonArea2(nm, Mp);
    /* a master face that faces the slave face runs clockwise seen along the slave's outward normal; one seen edge-on
       or from behind has no partner here */
    if (!(am < -1e-8 * area2)) continue;
    { /* counter-clockwise for the clipping: reverse the order (and keep the parameters through the inverse map, which
         reads the corners in the face's own order) */
      PetscReal R[4][2];
      for (PetscInt k = 0; k < nm; k++) R[k][0] = Mp[nm - 1 - k][0], R[k][1] = Mp[nm - 1 - k][1];
      np = ClipPolygon(ns, S, nm, (const PetscReal(*)[2])R, poly);
    }
    if (np < 3 || PolygonArea2(np, poly) <= 1e-12 * area2) continue;
    FaceMapSetUp(nm, (const PetscReal(*)[2])Mp, &mmap);
    { /* the master face's columns, then its integrals summed in registers: a 4 x 4 block (a triangle's fourth shape value
         is 0 and its row or column is not stored back), started from the face's sums so far so that every sum takes the
         same terms in the same order as one added point by point */
      PetscInt col[4];
      PetscReal Ml[4][4], Tl[4], Ns[4] = {0, 0, 0, 0}, Nm[4] = {0, 0, 0, 0};
      PetscBool ok = PETSC_TRUE;
      for (PetscInt k = 0; k < nm && ok; k++) ok = FaceColumn(F, mn[k], &col[k]);
      if (!ok) {
        F->full = PETSC_TRUE;
        break;
      }
      for (PetscInt k = 0; k < 4; k++) {
        Tl[k] = F->T[k];
        for (PetscInt m = 0; m < 4; m++) Ml[k][m] = m < nm ? F->M[k][col[m]] : 0;
      }
      for (PetscInt t = 1; t + 1 < np; t++) { /* a fan of triangles over the convex overlap */
        const PetscReal *p0 = poly[0], *p1 = poly[t], *p2 = poly[t + 1];
        const PetscReal at = 0.5 * ((p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1]));
        PetscReal y[6][2], xis[6][2], xim[6][2];
        if (at <= 0) continue;
        for (PetscInt g = 0; g < ng; g++) {
          const PetscReal a = TriA[(g0 + g) / 3], b = 1 - 2 * a;
          const PetscReal l0 = g % 3 == 0 ? b : a, l1 = g % 3 == 1 ? b : a, l2 = 1 - l0 - l1;
          y[g][0] = l0 * p0[0] + l1 * p1[0] + l2 * p2[0], y[g][1] = l0 * p0[1] + l1 * p1[1] + l2 * p2[1];
        }
        FaceMapInverseMany(&smap, ng, (const PetscReal(*)[2])y, xis);
        FaceMapInverseMany(&mmap, ng, (const PetscReal(*)[2])y, xim);
        for (PetscInt g = 0; g < ng; g++) {
          const PetscReal wq = TriW[(g0 + g) / 3] * at;
          FaceShape(ns, xis[g], Ns);
          FaceShape(nm, xim[g], Nm);
          for (PetscInt k = 0; k < 4; k++) {
            const PetscReal wk = wq * Ns[k];
            Tl[k] += wk;
            for (PetscInt m = 0; m < 4; m++) Ml[k][m] += wk * Nm[m];
          }
        }
      }
      for (PetscInt k = 0; k < ns; k++) {
        F->T[k] = Tl[k];
        for (PetscInt m = 0; m < nm; m++) F->M[k][col[m]] = Ml[k][m];
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the record of slave face F (tolerance) still stands: it was taken in the master's current epoch (so no master
   node has moved by more than the tolerance since) and none of its corners has moved by more than the tolerance. */
static PetscBool FaceKept(SKContactMeshSurface slave, SKContactMortarCache c, PetscInt f)
{
  const PetscInt ns = slave->nfn, *sn = slave->faces + f * ns;
  const PetscReal *xr = c->snap_x + 12 * f;

  if (c->snap_nc[f] < 0 || c->snap_epoch[f] != c->mepoch) return PETSC_FALSE;
  for (PetscInt k = 0; k < ns; k++) {
    const PetscReal *x = slave->xv + 6 * sn[k], *r = xr + 3 * k;
    if (PetscSqr(x[0] - r[0]) + PetscSqr(x[1] - r[1]) + PetscSqr(x[2] - r[2]) > c->move2) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* Records slave face F (tolerance) at the current generation: its corners' current positions and its candidate master
   faces, which include every face that the moves the tolerance allows (tol x hmin of the slave face, half that of the
   master since its epoch began and as much again until the next) can bring within reach. A face with more candidates
   than the record holds is not kept. */
static PetscErrorCode FaceRecord(SKContactMeshSurface master, SKContactMeshSurface slave, SKContactMortarCache c, PetscInt f)
{
  const PetscInt ns = slave->nfn, *sn = slave->faces + f * ns;
  PetscReal(*xr)[3] = (PetscReal(*)[3])(c->snap_x + 12 * f), cen[3], nrm[3], e1[3], e2[3], an[3];
  PetscInt n;

  PetscFunctionBegin;
  c->snap_gen[f] = c->gen, c->snap_nc[f] = -1, c->snap_epoch[f] = c->mepoch;
  for (PetscInt k = 0; k < ns; k++)
    for (PetscInt d = 0; d < 3; d++) xr[k][d] = slave->xv[6 * sn[k] + d];
  FacePlane(ns, (const PetscReal(*)[3])xr, cen, nrm, e1, e2);
  for (PetscInt d = 0; d < 3; d++) an[d] = PetscAbsReal(nrm[d]);
  PetscCall(FaceCandidates(master, c, ns, (const PetscReal(*)[3])xr, an, 2 * c->tol * slave->hmin, &n));
  if (n > MORTAR_KEEP_CAND) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt q = 0; q < n; q++) c->snap_cand[f * MORTAR_KEEP_CAND + q] = c->cand[q];
  c->snap_nc[f] = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The per-face epochs in a checkpoint (SKContactMeshSurfaceMortarStateSize()): the counts of master nodes and slave
   faces, the master epoch and its positions (3 per master node), then per slave face its candidates kept (snap_nc), its
   epoch, its corners (4 x 3) and its candidates (MORTAR_KEEP_CAND); integers as reals (exact). */
#define MORTAR_STATE_FACE (2 + 12 + MORTAR_KEEP_CAND)

PetscErrorCode SKContactMeshSurfaceMortarStateSize(SKContactMeshSurface slave, PetscInt *n)
{
  const SKContactMortarCache c = slave->mortar;

  PetscFunctionBegin;
  *n = c && c->tol > 0 && c->snap_gen ? 3 + 3 * c->master->nnodes + MORTAR_STATE_FACE * slave->nfaces : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceMortarStatePack(SKContactMeshSurface slave, PetscReal buf[])
{
  const SKContactMortarCache c = slave->mortar;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceMortarStateSize(slave, &n));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  buf[0] = (PetscReal)c->master->nnodes, buf[1] = (PetscReal)slave->nfaces, buf[2] = (PetscReal)c->mepoch;
  PetscCall(PetscArraycpy(buf + 3, c->xmref, 3 * c->master->nnodes));
  buf += 3 + 3 * c->master->nnodes;
  for (PetscInt f = 0; f < slave->nfaces; f++, buf += MORTAR_STATE_FACE) {
    buf[0] = (PetscReal)c->snap_nc[f], buf[1] = (PetscReal)c->snap_epoch[f];
    PetscCall(PetscArraycpy(buf + 2, c->snap_x + 12 * f, 12));
    for (PetscInt q = 0; q < MORTAR_KEEP_CAND; q++)
      buf[14 + q] = q < c->snap_nc[f] ? (PetscReal)c->snap_cand[f * MORTAR_KEEP_CAND + q] : -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checkpoint's records (slave->mortar_restore) into C, whose record arrays exist, consumed: every face's shares are
   computed again from its record at its next use, every node merged again. */
static PetscErrorCode MortarStateApply(SKContactMeshSurface slave, SKContactMortarCache c)
{
  const PetscReal *buf = slave->mortar_restore;

  PetscFunctionBegin;
  PetscCheck(slave->mortar_nrestore == 3 + 3 * c->master->nnodes + MORTAR_STATE_FACE * slave->nfaces &&
                 (PetscInt)buf[0] == c->master->nnodes && (PetscInt)buf[1] == slave->nfaces,
             slave->comm, PETSC_ERR_ARG_INCOMP,
             "Checkpoint: mortar records of %g master nodes and %g slave faces, this run has %" PetscInt_FMT " and %" PetscInt_FMT,
             (double)buf[0], (double)buf[1], c->master->nnodes, slave->nfaces);
  c->mepoch = (PetscInt)buf[2];
  PetscCall(PetscArraycpy(c->xmref, buf + 3, 3 * c->master->nnodes));
  buf += 3 + 3 * c->master->nnodes;
  for (PetscInt f = 0; f < slave->nfaces; f++, buf += MORTAR_STATE_FACE) {
    c->snap_nc[f] = (PetscInt)buf[0], c->snap_epoch[f] = (PetscInt)buf[1];
    PetscCall(PetscArraycpy(c->snap_x + 12 * f, buf + 2, 12));
    for (PetscInt q = 0; q < c->snap_nc[f]; q++) c->snap_cand[f * MORTAR_KEEP_CAND + q] = (PetscInt)buf[14 + q];
    c->snap_gen[f] = PetscMax(c->gen, 0), c->stamp[f] = -1;
  }
  for (PetscInt a = 0; a < slave->nnodes; a++) c->node_key[a] = -1;
  PetscCall(PetscFree(slave->mortar_restore));
  slave->mortar_nrestore = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceMortarStateUnpack(SKContactMeshSurface slave, PetscInt n, const PetscReal buf[])
{
  const SKContactMortarCache c = slave->mortar;

  PetscFunctionBegin;
  PetscCall(PetscFree(slave->mortar_restore));
  slave->mortar_nrestore = n;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, &slave->mortar_restore));
  PetscCall(PetscArraycpy(slave->mortar_restore, buf, n));
  if (c && c->snap_gen) PetscCall(MortarStateApply(slave, c)); /* records already taken at this run's start: replaced */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cache of SLAVE's shares against MASTER, created on first use, brought up to the surfaces' current positions. */
static PetscErrorCode MortarCacheGet(SKContactMeshSurface master, SKContactMeshSurface slave, SKContactMortarCache *cache)
{
  SKContactMortarCache c = slave->mortar;

  PetscFunctionBegin;
  if (!c || c->master != master) {
    PetscCall(SKContactMortarCacheDestroy(&slave->mortar));
    PetscCall(PetscNew(&c));
    PetscCall(PetscMalloc3(slave->nfaces, &c->stamp, slave->nfaces, &c->shares, master->nfaces, &c->mark));
    PetscCall(PetscMalloc4(slave->nnodes, &c->node_key, slave->nnodes, &c->node_n, slave->nnodes * SK_CONTACT_MAX_SUPPORT, &c->node_b,
                           slave->nnodes * SK_CONTACT_MAX_SUPPORT, &c->node_N));
    PetscCall(PetscMalloc2(master->nnodes, &c->slot, master->nnodes, &c->slot_stamp));
    for (PetscInt b = 0; b < master->nnodes; b++) c->slot_stamp[b] = -1;
    c->merge_stamp = -1;
    for (PetscInt f = 0; f < slave->nfaces; f++) c->stamp[f] = -1;
    for (PetscInt f = 0; f < master->nfaces; f++) c->mark[f] = -1;
    for (PetscInt a = 0; a < slave->nnodes; a++) c->node_key[a] = -1;
    c->master = master, c->tol = slave->mortar_tol, c->gen = -1;
    c->upd_master = c->upd_slave = -1;
    slave->mortar                = c;
  }
  if (c->upd_master != master->nupdate || c->upd_slave != slave->nupdate) { /* new positions: the shares may change */
    c->gen++;
    c->upd_master = master->nupdate, c->upd_slave = slave->nupdate;
    /* with a tolerance, per face (on every rank, for every face, so that the positions a face's shares are computed
       from do not depend on the force evaluation in which a rank first needs them): its recorded positions kept, or the
       current ones recorded */
    if (c->tol > 0) {
      c->move2 = PetscSqr(c->tol * slave->hmin);
      if (!c->snap_gen) {
        PetscCall(PetscMalloc6(3 * master->nnodes, &c->xmref, 12 * slave->nfaces, &c->snap_x, slave->nfaces, &c->snap_gen, slave->nfaces,
                               &c->snap_nc, slave->nfaces, &c->snap_epoch, slave->nfaces * MORTAR_KEEP_CAND, &c->snap_cand));
        for (PetscInt f = 0; f < slave->nfaces; f++) c->snap_nc[f] = -1;
        c->mepoch = -1;
        if (slave->mortar_restore) PetscCall(MortarStateApply(slave, c)); /* a restart: the checkpoint's records */
      }
      { /* the master's epoch: one pass over its nodes, in memory order */
        PetscBool moved = (PetscBool)(c->mepoch < 0);
        for (PetscInt i = 0; i < master->nnodes && !moved; i++) {
          const PetscReal *x = master->xv + 6 * i, *r = c->xmref + 3 * i;
          moved = (PetscBool)(PetscSqr(x[0] - r[0]) + PetscSqr(x[1] - r[1]) + PetscSqr(x[2] - r[2]) > 0.25 * c->move2);
        }
        if (moved) {
          c->mepoch++;
          for (PetscInt i = 0; i < master->nnodes; i++)
            for (PetscInt d = 0; d < 3; d++) c->xmref[3 * i + d] = master->xv[6 * i + d];
        }
      }
      for (PetscInt f = 0; f < slave->nfaces; f++)
        if (!FaceKept(slave, c, f)) PetscCall(FaceRecord(master, slave, c, f));
    }
  }
  *cache = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The shares of slave node A merged over its faces F (their node-to-face index LA[]) into the node's row of CACHE. */
static PetscErrorCode NodeMerge(SKContactMortarCache cache, PetscInt a, PetscInt nf, FaceShares *const F[], const PetscInt la[])
{
  PetscInt *b = cache->node_b + a * SK_CONTACT_MAX_SUPPORT, n = 0;
  PetscReal *N = cache->node_N + a * SK_CONTACT_MAX_SUPPORT, total = 0;

  PetscFunctionBegin;
  cache->merge_stamp++; /* the master nodes' places (cache->slot) of this merge: found in one look-up, not a search */
  for (PetscInt k = 0; k < nf; k++) {
    const FaceShares *G = F[k];
    total += G->T[la[k]];
    for (PetscInt j = 0; j < G->nb; j++) {
      const PetscReal w = G->M[la[k]][j];
      const PetscInt bj = G->b[j];
      if (w == 0) continue;
      if (cache->slot_stamp[bj] != cache->merge_stamp) {
        PetscCheck(n < SK_CONTACT_MAX_SUPPORT, PETSC_COMM_SELF, PETSC_ERR_SUP, MORTAR_TOO_FINE, "node", SK_CONTACT_MAX_SUPPORT);
        cache->slot_stamp[bj] = cache->merge_stamp, cache->slot[bj] = n;
        b[n] = bj, N[n++] = 0;
      }
      N[cache->slot[bj]] += w;
    }
  }
  /* a node whose faces overlap no master face keeps its point distribution (it carries a force only when its own
     projection finds a face: at the edge of the master surface) */
  if (total <= 0) n = -1;
  for (PetscInt q = 0; q < n; q++) N[q] /= total;
  cache->node_n[a] = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceMortarPrepare(SKContactMeshSurface master, SKContactMeshSurface slave)
{
  SKContactMortarCache cache;

  PetscFunctionBegin;
  if (master->dim == 3) PetscCall(MortarCacheGet(master, slave, &cache));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactMeshSurfaceMortar3D(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a, SKContactSupport *s)
{
  SKContactMortarCache cache = NULL;
  FaceShares *F[16];
  PetscInt la[16], nf = 0, key = 0;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceNodeFaces(slave));
  PetscCall(MortarCacheGet(master, slave, &cache));
  PetscCheck(slave->nstart[a + 1] - slave->nstart[a] <= 16, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "Mortar contact: a slave node on more than 16 faces of its surface");
  for (PetscInt k = slave->nstart[a]; k < slave->nstart[a + 1]; k++) {
    const PetscInt f = slave->nfaces_of[k], *fn = slave->faces + f * slave->nfn;
    FaceShares *G = cache->shares + f;
    /* the shares again when the positions they are to be computed from have changed: at every new generation, or with
       a tolerance when the face's record was taken again */
    const PetscInt want = cache->tol > 0 ? cache->snap_gen[f] : cache->gen;
    if (cache->stamp[f] != want) {
      const PetscInt ns = slave->nfn, *sn = slave->faces + f * ns;
      if (cache->tol > 0 && cache->snap_nc[f] >= 0) { /* from the record and the master's epoch */
        PetscCall(FaceMortar(master, ns, (const PetscReal(*)[3])(cache->snap_x + 12 * f), cache->snap_nc[f],
                             cache->snap_cand + f * MORTAR_KEEP_CAND, cache->xmref, 3, G));
      } else { /* from the current positions */
        PetscReal xs[4][3], cen[3], nrm[3], e1[3], e2[3], an[3];
        PetscInt ncand;
        for (PetscInt k = 0; k < ns; k++)
          for (PetscInt d = 0; d < 3; d++) xs[k][d] = slave->xv[6 * sn[k] + d];
        FacePlane(ns, (const PetscReal(*)[3])xs, cen, nrm, e1, e2);
        for (PetscInt d = 0; d < 3; d++) an[d] = PetscAbsReal(nrm[d]);
        PetscCall(FaceCandidates(master, cache, ns, (const PetscReal(*)[3])xs, an, 2 * cache->tol * slave->hmin, &ncand));
        PetscCall(FaceMortar(master, ns, (const PetscReal(*)[3])xs, ncand, cache->cand, master->xv, 6, G));
      }
      PetscCheck(!G->full, PETSC_COMM_SELF, PETSC_ERR_SUP, MORTAR_TOO_FINE, "face", MORTAR_MAX_FACE_B);
      cache->stamp[f] = want;
    }
    la[nf] = 0;
    while (fn[la[nf]] != a) la[nf]++;
    F[nf++] = G;
    key += cache->stamp[f]; /* a face's stamp grows when its shares are computed: the sum changes when a face's shares do */
  }
  if (cache->node_key[a] != key) {
    PetscCall(NodeMerge(cache, a, nf, F, la));
    cache->node_key[a] = key;
  }
  s->weighted = PETSC_FALSE; /* the point distribution of the projection stands */
  if (cache->node_n[a] < 0) PetscFunctionReturn(PETSC_SUCCESS);
  s->n        = cache->node_n[a];
  s->weighted = PETSC_TRUE;
  for (PetscInt d = 0; d < 3; d++) s->xw[d] = s->vw[d] = 0;
  for (PetscInt q = 0; q < s->n; q++) {
    const PetscInt b   = cache->node_b[a * SK_CONTACT_MAX_SUPPORT + q];
    const PetscReal Nq = cache->node_N[a * SK_CONTACT_MAX_SUPPORT + q], *xq = master->xv + 6 * b;
    s->node[q] = b, s->N[q] = Nq;
    for (PetscInt d = 0; d < 3; d++) s->xw[d] += Nq * xq[d], s->vw[d] += Nq * xq[3 + d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
