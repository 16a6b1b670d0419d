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
   the slave surface, keyed by the update counts of both surfaces). */
#include "contactimpl.h"

#define MORTAR_MAX_POLY 16   /* vertices of a clipped polygon: at most 4 + 4 for two convex quadrilaterals */
#define MORTAR_MAX_FACE_B 64 /* master nodes one slave face's shares may reach */
#define MORTAR_MAX_CAND 256  /* master faces near one slave face */

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
  PetscInt nfaces;                     /* slave faces */
  PetscInt gen, upd_master, upd_slave; /* generation of the shares: it changes when either surface was updated */
  PetscInt *stamp;                     /* per face: the generation its shares belong to (-1: none) */
  FaceShares *shares;                  /* per face */
  PetscInt *mark, mark_stamp;          /* per master face: the query it was last listed in (candidate search) */
  PetscInt cand[MORTAR_MAX_CAND];      /* candidates of the current query */
};

PetscErrorCode SKContactMortarCacheDestroy(SKContactMortarCache *cache)
{
  PetscFunctionBegin;
  if (!*cache) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*cache)->stamp, (*cache)->shares, (*cache)->mark));
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

/* The parameters XI of the point Y of the plane inside the face whose NFN corners are P[NFN][2] in the plane: the
   linear map of a triangle inverted exactly, the bilinear map of a quadrilateral by Newton's method from its centre
   (quadratic convergence; a parallelogram converges in one step). */
static inline void FaceInverse(PetscInt nfn, const PetscReal P[][2], const PetscReal y[2], PetscReal xi[2])
{
  if (nfn == 3) {
    const PetscReal a11 = P[1][0] - P[0][0], a12 = P[2][0] - P[0][0], a21 = P[1][1] - P[0][1], a22 = P[2][1] - P[0][1];
    const PetscReal r0 = y[0] - P[0][0], r1 = y[1] - P[0][1], det = a11 * a22 - a12 * a21;
    xi[0] = (a22 * r0 - a12 * r1) / det, xi[1] = (a11 * r1 - a21 * r0) / det;
    return;
  }
  {
    PetscReal a[2], b[2], c[2], e[2];
    for (PetscInt d = 0; d < 2; d++) {
      a[d] = 0.25 * (P[0][d] + P[1][d] + P[2][d] + P[3][d]), b[d] = 0.25 * (P[1][d] + P[2][d] - P[0][d] - P[3][d]);
      c[d] = 0.25 * (P[2][d] + P[3][d] - P[0][d] - P[1][d]), e[d] = 0.25 * (P[0][d] + P[2][d] - P[1][d] - P[3][d]);
    }
    xi[0] = xi[1] = 0;
    for (PetscInt it = 0; it < 12; it++) {
      const PetscReal r0  = y[0] - (a[0] + b[0] * xi[0] + (c[0] + e[0] * xi[0]) * xi[1]);
      const PetscReal r1  = y[1] - (a[1] + b[1] * xi[0] + (c[1] + e[1] * xi[0]) * xi[1]);
      const PetscReal j00 = b[0] + e[0] * xi[1], j01 = c[0] + e[0] * xi[0], j10 = b[1] + e[1] * xi[1], j11 = c[1] + e[1] * xi[0];
      const PetscReal det = j00 * j11 - j01 * j10, d0 = (j11 * r0 - j01 * r1) / det, d1 = (j00 * r1 - j10 * r0) / det;
      xi[0] += d0, xi[1] += d1;
      if (PetscAbsReal(d0) + PetscAbsReal(d1) < 1e-14) break;
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
   OUT (Sutherland-Hodgman); returns its vertex count (0: no overlap). */
static PetscInt ClipPolygon(PetscInt ns, const PetscReal S[][2], PetscInt nc, const PetscReal C[][2], PetscReal out[][2])
{
  PetscReal buf[2][MORTAR_MAX_POLY][2];
  PetscInt n = ns, cur = 0;

  for (PetscInt k = 0; k < ns; k++) buf[0][k][0] = S[k][0], buf[0][k][1] = S[k][1];
  for (PetscInt e = 0; e < nc && n > 0; e++) {
    const PetscReal *p0 = C[e], *p1 = C[(e + 1) % nc], ex = p1[0] - p0[0], ey = p1[1] - p0[1];
    const PetscReal(*in)[2] = buf[cur];
    PetscReal(*o)[2]        = buf[1 - cur];
    PetscInt m              = 0;
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *q0 = in[k], *q1 = in[(k + 1) % n];
      /* side of the edge: > 0 inside (left of a counter-clockwise edge) */
      const PetscReal s0 = ex * (q0[1] - p0[1]) - ey * (q0[0] - p0[0]), s1 = ex * (q1[1] - p0[1]) - ey * (q1[0] - p0[0]);
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

/* The 6-point rule of degree 4 on a triangle (Strang and Fix): barycentric points and weights summing to 1. */
static const PetscReal TriA[2] = {0.445948490915965, 0.091576213509771};
static const PetscReal TriW[2] = {0.223381589678011, 0.109951743655322};

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
   returns their count. */
static PetscInt MasterCandidates(SKContactMeshSurface ms, SKContactMortarCache cache, const PetscReal lo[], const PetscReal hi[])
{
  PetscInt c0[3], c1[3], n = 0;

  if (ms->nfaces == 0) return 0;
  cache->mark_stamp++;
  for (PetscInt d = 0; d < 3; d++) {
    const PetscReal a = PetscFloorReal((lo[d] - ms->lo[d]) * ms->inv_cell), b = PetscFloorReal((hi[d] - ms->lo[d]) * ms->inv_cell);
    if (b < 0 || a >= ms->ncell[d]) return 0; /* outside the grid: farther than its margin from every face */
    c0[d] = a < 0 ? 0 : (PetscInt)a;
    c1[d] = b >= ms->ncell[d] ? ms->ncell[d] - 1 : (PetscInt)b;
  }
  for (PetscInt k = c0[2]; k <= c1[2]; k++)
    for (PetscInt j = c0[1]; j <= c1[1]; j++)
      for (PetscInt i = c0[0]; i <= c1[0]; i++) {
        const PetscInt c = (k * ms->ncell[1] + j) * ms->ncell[0] + i;
        for (PetscInt q = ms->cstart[c]; q < ms->cstart[c + 1]; q++) {
          const PetscInt f = ms->cfaces[q];
          PetscBool meets  = PETSC_TRUE;
          if (cache->mark[f] == cache->mark_stamp) continue;
          cache->mark[f] = cache->mark_stamp;
          for (PetscInt d = 0; d < 3; d++)
            meets = (PetscBool)(meets && ms->fbox[(f * 3 + d) * 2] <= hi[d] && ms->fbox[(f * 3 + d) * 2 + 1] >= lo[d]);
          if (meets && n < MORTAR_MAX_CAND) cache->cand[n++] = f;
        }
      }
  return n;
}

/* The shares of slave face FS of SLAVE against MASTER at their gathered current positions into F. */
static void FaceMortar(SKContactMeshSurface master, SKContactMeshSurface slave, SKContactMortarCache cache, PetscInt fs, FaceShares *F)
{
  const PetscInt ns = slave->nfn, nm = master->nfn, *sn = slave->faces + fs * ns;
  PetscReal xs[4][3], c[3] = {0, 0, 0}, nrm[3], e1[3], e2[3], len, S[4][2], lo[3], hi[3], area2;
  PetscInt ncand;

  F->nb = 0, F->full = PETSC_FALSE;
  for (PetscInt k = 0; k < 4; k++) F->T[k] = 0;
  for (PetscInt k = 0; k < ns; k++)
    for (PetscInt d = 0; d < 3; d++) xs[k][d] = slave->xv[sn[k] * 6 + d], c[d] += xs[k][d] / ns;
  { /* the averaged plane: the normal of a triangle, or the cross product of a quadrilateral's diagonals (outward) */
    PetscReal u[3], v[3];
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
  for (PetscInt d = 0; d < 3; d++) lo[d] = PETSC_MAX_REAL, hi[d] = PETSC_MIN_REAL;
  for (PetscInt k = 0; k < ns; k++) {
    S[k][0] = S[k][1] = 0;
    for (PetscInt d = 0; d < 3; d++) {
      S[k][0] += (xs[k][d] - c[d]) * e1[d], S[k][1] += (xs[k][d] - c[d]) * e2[d];
      lo[d] = PetscMin(lo[d], xs[k][d]), hi[d] = PetscMax(hi[d], xs[k][d]);
    }
  }
  area2 = PolygonArea2(ns, S);
  /* the master faces that can touch: within the search depth of the face's box */
  for (PetscInt d = 0; d < 3; d++) lo[d] -= master->depth, hi[d] += master->depth;
  ncand = MasterCandidates(master, cache, lo, hi);
  for (PetscInt q = 0; q < ncand && !F->full; q++) {
    const PetscInt fm = cache->cand[q], *mn = master->faces + fm * nm;
    PetscReal Mp[4][2], poly[MORTAR_MAX_POLY][2], am;
    PetscInt np;
    for (PetscInt k = 0; k < nm; k++) {
      Mp[k][0] = Mp[k][1] = 0;
      for (PetscInt d = 0; d < 3; d++) {
        const PetscReal x = master->xv[mn[k] * 6 + d] - c[d];
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
    for (PetscInt t = 1; t + 1 < np; t++) { /* a fan of triangles over the convex overlap */
      const PetscReal *p0 = poly[0], *p1 = poly[t], *p2 = poly[t + 1];
      const PetscReal at = 0.5 * ((p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1]));
      PetscInt col[4];
      PetscBool ok = PETSC_TRUE;
      if (at <= 0) continue;
      for (PetscInt k = 0; k < nm && ok; k++) ok = FaceColumn(F, mn[k], &col[k]);
      if (!ok) {
        F->full = PETSC_TRUE;
        break;
      }
      for (PetscInt g = 0; g < 6; g++) {
        const PetscReal a = TriA[g / 3], b = 1 - 2 * a, wq = TriW[g / 3] * at;
        const PetscReal l0 = g % 3 == 0 ? b : a, l1 = g % 3 == 1 ? b : a, l2 = 1 - l0 - l1;
        const PetscReal y[2] = {l0 * p0[0] + l1 * p1[0] + l2 * p2[0], l0 * p0[1] + l1 * p1[1] + l2 * p2[1]};
        PetscReal xis[2], xim[2], Ns[4], Nm[4];
        FaceInverse(ns, (const PetscReal(*)[2])S, y, xis);
        FaceInverse(nm, (const PetscReal(*)[2])Mp, y, xim);
        FaceShape(ns, xis, Ns);
        FaceShape(nm, xim, Nm);
        for (PetscInt k = 0; k < ns; k++) {
          const PetscReal wk = wq * Ns[k];
          F->T[k] += wk;
          for (PetscInt m = 0; m < nm; m++) F->M[k][col[m]] += wk * Nm[m];
        }
      }
    }
  }
}

PetscErrorCode SKContactMeshSurfaceMortar3D(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a, SKContactSupport *s)
{
  SKContactMortarCache cache;
  SKContactSupport m = {-1, 0, {0}, {0}};
  PetscReal total    = 0;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceNodeFaces(slave));
  if (!slave->mortar || slave->mortar->master != master) {
    PetscCall(SKContactMortarCacheDestroy(&slave->mortar));
    PetscCall(PetscNew(&slave->mortar));
    PetscCall(
        PetscMalloc3(slave->nfaces, &slave->mortar->stamp, slave->nfaces, &slave->mortar->shares, master->nfaces, &slave->mortar->mark));
    for (PetscInt f = 0; f < slave->nfaces; f++) slave->mortar->stamp[f] = -1;
    for (PetscInt f = 0; f < master->nfaces; f++) slave->mortar->mark[f] = -1;
    slave->mortar->master = master, slave->mortar->nfaces = slave->nfaces, slave->mortar->mark_stamp = 0, slave->mortar->gen = 0;
    slave->mortar->upd_master = slave->mortar->upd_slave = -1;
  }
  cache = slave->mortar;
  if (cache->upd_master != master->nupdate || cache->upd_slave != slave->nupdate) { /* new positions: new shares */
    cache->gen++;
    cache->upd_master = master->nupdate, cache->upd_slave = slave->nupdate;
  }
  for (PetscInt k = slave->nstart[a]; k < slave->nstart[a + 1]; k++) {
    const PetscInt f = slave->nfaces_of[k], *fn = slave->faces + f * slave->nfn;
    FaceShares *F = cache->shares + f;
    PetscInt la   = 0;
    if (cache->stamp[f] != cache->gen) {
      FaceMortar(master, slave, cache, f, F);
      cache->stamp[f] = cache->gen;
    }
    PetscCheck(!F->full, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "Mortar contact: a slave face meets more than %d master nodes (the master side is much finer than the slave side); "
               "swap 'sideset' and 'master' of the contact so that the finer side is the slave",
               MORTAR_MAX_FACE_B);
    while (fn[la] != a) la++;
    total += F->T[la];
    for (PetscInt j = 0; j < F->nb; j++) {
      PetscBool added = PETSC_FALSE;
      if (F->M[la][j] == 0) continue;
      for (PetscInt q = 0; q < m.n && !added; q++)
        if (m.node[q] == F->b[j]) m.N[q] += F->M[la][j], added = PETSC_TRUE;
      if (added) continue;
      PetscCheck(m.n < SK_CONTACT_MAX_SUPPORT, PETSC_COMM_SELF, PETSC_ERR_SUP,
                 "Mortar contact: a slave node's faces meet more than %d master nodes (the master side is much finer than the slave "
                 "side); swap 'sideset' and 'master' of the contact so that the finer side is the slave",
                 SK_CONTACT_MAX_SUPPORT);
      m.node[m.n] = F->b[j], m.N[m.n++] = F->M[la][j];
    }
  }
  /* a node whose faces overlap no master face keeps its point distribution (it carries a force only when its own
     projection finds a face: at the edge of the master surface) */
  if (total <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m.n; k++) m.N[k] /= total;
  m.face = s->face;
  *s     = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}
