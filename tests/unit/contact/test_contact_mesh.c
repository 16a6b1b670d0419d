/* Unit tests of the deformable master surface (src/contact/contact_mesh.c) on one rank: closest-point projection onto
   L2, T3 and Q4 faces against closed forms, the bucket-grid search against a search over every face (no face within
   the guaranteed depth is missed, also after the surface has moved and the grid was rebuilt; a 2D chain and a warped 3D
   Q4 sheet, whose projections are also checked against their optimality conditions and a dense sample of the face), and the mortar shares
   of non-matching flat surfaces (int N_a N_b sums to the master weights: the property behind the patch test), and
   slave points past the end of an open master surface (no contact), and the projection of a block of points against
   the projection of each. */
#include "test_contact_common.h" /* white box: projection, grid, mortar shares */

/* The nearest face of X by trying every face: its squared distance. */
static PetscReal BruteForce(SKContactMeshSurface ms, const PetscReal x[])
{
  PetscReal best = PETSC_MAX_REAL;
  for (PetscInt f = 0; f < ms->nfaces; f++) {
    /* a copy of the surface whose grid is one huge cell holding face f alone */
    PetscInt one[1] = {f}, start[2] = {0, 1};
    PetscReal d2 = 0;
    SKSurfaceProjection p;
    SKContactSupport s;
    struct _p_SKContactMeshSurface tmp = *ms;
    tmp.grid.cstart = start, tmp.grid.cfaces = one, tmp.grid.cell = 1e31, tmp.grid.inv_cell = 1 / tmp.grid.cell;
    for (PetscInt d = 0; d < 3; d++) tmp.grid.lo[d] = -1e30, tmp.grid.ncell[d] = 1;
    (void)SKContactMeshSurfaceProject(&tmp, x, &p, &s);
    for (PetscInt d = 0; d < ms->dim; d++) d2 += PetscSqr(x[d] - p.point[d]);
    best = PetscMin(best, d2);
  }
  return best;
}

/* Projections onto single faces against closed forms. */
static PetscErrorCode TestProjection(void)
{
  SKContactMeshSurface ms;
  SKSurfaceProjection p;
  SKContactSupport s;

  PetscFunctionBeginUser;
  { /* L2 from (0, 0) to (2, 1): outward normal (1, -2) / sqrt(5) (the element on the left of the edge) */
    const PetscReal X[] = {0, 0, 2, 1}, x[2] = {1.0 + 0.1, 0.5 - 0.2};
    const PetscInt faces[] = {0, 1};
    PetscCall(MakeSurface(2, 2, 2, X, 1, faces, &ms));
    (void)SKContactMeshSurfaceProject(ms, x, &p, &s);
    /* x = midpoint + 0.1 (1, -2): distance 0.1 sqrt(5) along the normal, shares 1/2 */
    PetscCheck(s.face == 0 && PetscAbsReal(p.distance - 0.1 * PetscSqrtReal(5.0)) < 1e-14 && PetscAbsReal(s.N[0] - 0.5) < 1e-14 &&
                   PetscAbsReal(p.normal[0] - 1 / PetscSqrtReal(5.0)) < 1e-14,
               PETSC_COMM_SELF, PETSC_ERR_PLIB, "L2 projection: distance %g, share %g", (double)p.distance, (double)s.N[0]);
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  { /* T3 (0,0,0) (1,0,0) (0,1,0): normal +z; the point (0.2, 0.3, -0.05) is 0.05 behind it at barycentric (0.5, 0.2, 0.3) */
    const PetscReal X[] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, x[3] = {0.2, 0.3, -0.05};
    const PetscInt faces[] = {0, 1, 2};
    PetscCall(MakeSurface(3, 3, 3, X, 1, faces, &ms));
    (void)SKContactMeshSurfaceProject(ms, x, &p, &s);
    PetscCheck(PetscAbsReal(p.distance + 0.05) < 1e-14 && PetscAbsReal(s.N[0] - 0.5) < 1e-14 && PetscAbsReal(s.N[1] - 0.2) < 1e-14 &&
                   PetscAbsReal(s.N[2] - 0.3) < 1e-14 && PetscAbsReal(p.normal[2] - 1) < 1e-14,
               PETSC_COMM_SELF, PETSC_ERR_PLIB, "T3 projection: distance %g, shares %g %g %g", (double)p.distance, (double)s.N[0],
               (double)s.N[1], (double)s.N[2]);
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  { /* Q4, a parallelogram in the plane z = 0.1 x (Newton on the bilinear map), normal (-0.1, 0, 1) / |.| */
    const PetscReal X[] = {0, 0, 0, 2, 0, 0.2, 2.5, 1, 0.25, 0.5, 1, 0.05}, xi[2] = {0.3, -0.4}, off = 0.02;
    const PetscInt faces[] = {0, 1, 2, 3};
    const PetscReal sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1}, nn = PetscSqrtReal(1.01), n[3] = {-0.1 / nn, 0, 1 / nn};
    PetscReal x[3] = {0, 0, 0}, Nq[4];
    for (PetscInt a = 0; a < 4; a++) {
      Nq[a] = 0.25 * (1 + sx[a] * xi[0]) * (1 + sy[a] * xi[1]);
      for (PetscInt d = 0; d < 3; d++) x[d] += Nq[a] * X[a * 3 + d];
    }
    for (PetscInt d = 0; d < 3; d++) x[d] += off * n[d];
    PetscCall(MakeSurface(3, 4, 4, X, 1, faces, &ms));
    (void)SKContactMeshSurfaceProject(ms, x, &p, &s);
    for (PetscInt a = 0; a < 4; a++)
      PetscCheck(PetscAbsReal(s.N[a] - Nq[a]) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Q4 projection: share %g, expected %g",
                 (double)s.N[a], (double)Nq[a]);
    PetscCheck(PetscAbsReal(p.distance - off) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Q4 projection: distance %g, expected %g",
               (double)p.distance, (double)off);
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A wavy 2D chain of N faces: the grid finds the nearest face of random points within the depth, as a search over
   every face does, before and after a displacement that forces rebuilds. */
static PetscErrorCode TestSearch(void)
{
  const PetscInt N = 200;
  SKContactMeshSurface ms;
  PetscReal *X, *u, *v;
  PetscInt *faces, rebuilds;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(2 * (N + 1), &X, 2 * (N + 1), &u, 2 * (N + 1), &v));
  PetscCall(PetscMalloc1(2 * N, &faces));
  for (PetscInt i = 0; i <= N; i++) {
    X[2 * i]     = 0.01 * i + 0.003 * PetscSinReal(0.7 * i); /* faces of 0.006 to 0.014 m */
    X[2 * i + 1] = 0.05 * PetscSinReal(0.1 * i);
    u[2 * i] = u[2 * i + 1] = v[2 * i] = v[2 * i + 1] = 0;
  }
  for (PetscInt f = 0; f < N; f++) faces[2 * f] = f + 1, faces[2 * f + 1] = f; /* outward +y-ish */
  PetscCall(MakeSurface(2, 2, N + 1, X, N, faces, &ms));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0, 1));
  for (PetscInt round = 0; round < 3; round++) {
    if (round > 0) { /* move the surface by a rigid shift and a wave of several face sizes: the grid must follow */
      for (PetscInt i = 0; i <= N; i++) u[2 * i] = 0.05 * round, u[2 * i + 1] = 0.03 * round * PetscSinReal(0.05 * i);
      PetscCall(SKContactMeshSurfaceUpdate(ms, X, u, v));
    }
    for (PetscInt k = 0; k < 2000; k++) {
      PetscReal r[2], x[2], d2;
      SKSurfaceProjection p;
      SKContactSupport s;
      const PetscInt i = (PetscInt)(k % N);
      PetscCall(PetscRandomGetValueReal(rnd, &r[0]));
      PetscCall(PetscRandomGetValueReal(rnd, &r[1]));
      /* a point near face i, within the depth on either side */
      for (PetscInt d = 0; d < 2; d++)
        x[d] = (1 - r[0]) * (X[2 * (i + 1) + d] + u[2 * (i + 1) + d]) + r[0] * (X[2 * i + d] + u[2 * i + d]) + (2 * r[1] - 1) * ms->depth;
      (void)SKContactMeshSurfaceProject(ms, x, &p, &s);
      d2 = BruteForce(ms, x);
      PetscCheck(s.face >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "round %" PetscInt_FMT ": the grid missed the faces near (%g, %g)", round,
                 (double)x[0], (double)x[1]);
      PetscCheck(PetscAbsReal(PetscSqr(x[0] - p.point[0]) + PetscSqr(x[1] - p.point[1]) - d2) <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "round %" PetscInt_FMT ": the grid's nearest face is not the nearest", round);
    }
  }
  PetscCall(SKContactMeshSurfaceGetInfo(ms, NULL, NULL, NULL, &rebuilds));
  PetscCheck(rebuilds >= 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the grid was built %" PetscInt_FMT " times, the moves needed a rebuild",
             rebuilds);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(SKContactMeshSurfaceDestroy(&ms));
  PetscCall(PetscFree3(X, u, v));
  PetscCall(PetscFree(faces));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A warped 3D surface of N x N Q4 faces (jittered nodes on a wavy sheet, so no face is a parallelogram), moved twice so
   that the grid is rebuilt: random points within the depth find the nearest face as a search over every face does, and
   each projection onto a face is its closest point: for a point over the inside of the face the residual is
   orthogonal to both tangents (1e-12 of the face size, the Newton stop at 1e-13 of the parameters), and no point of a
   dense sample of the face (41 x 41 parameters) is nearer. */
/* The nodes X[3 (N + 1)^2] of a warped N x N sheet over the unit square: jittered in the plane by 0.2 of the spacing, a
   smooth bump of 0.1 plus a random 0.1 of the spacing out of it (RND draws in [-1, 1]). */
static PetscErrorCode WarpedSheet(PetscInt N, PetscRandom rnd, PetscReal X[])
{
  const PetscReal h = 1.0 / N;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j <= N; j++)
    for (PetscInt i = 0; i <= N; i++) {
      const PetscInt m = j * (N + 1) + i;
      PetscReal r[3];
      for (PetscInt d = 0; d < 3; d++) PetscCall(PetscRandomGetValueReal(rnd, &r[d]));
      X[3 * m]     = h * (i + 0.2 * r[0]);
      X[3 * m + 1] = h * (j + 0.2 * r[1]);
      X[3 * m + 2] = 0.1 * PetscSinReal(3.0 * X[3 * m]) * PetscCosReal(2.0 * X[3 * m + 1]) + 0.1 * h * r[2];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSearchQ4(void)
{
  const PetscInt N = 12, nn = (N + 1) * (N + 1);
  const PetscReal h = 1.0 / N;
  SKContactMeshSurface ms;
  PetscReal *X, *u, *v;
  PetscInt *faces, rebuilds, inside = 0;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(3 * nn, &X, 3 * nn, &u, 3 * nn, &v));
  PetscCall(PetscMalloc1(4 * N * N, &faces));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1, 1));
  PetscCall(WarpedSheet(N, rnd, X));
  for (PetscInt m = 0; m < 3 * nn; m++) u[m] = v[m] = 0;
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < N; i++) {
      const PetscInt f = j * N + i, m = j * (N + 1) + i;
      faces[4 * f] = m, faces[4 * f + 1] = m + 1, faces[4 * f + 2] = m + N + 2, faces[4 * f + 3] = m + N + 1; /* normal +z */
    }
  PetscCall(MakeSurface(3, 4, nn, X, N * N, faces, &ms));
  for (PetscInt round = 0; round < 3; round++) {
    if (round > 0) { /* a rigid shift and a bending wave of a few face sizes */
      for (PetscInt m = 0; m < nn; m++)
        u[3 * m] = 0.3 * h * round, u[3 * m + 1] = -0.2 * h * round, u[3 * m + 2] = 0.05 * round * PetscSinReal(5.0 * X[3 * m + 1]);
      PetscCall(SKContactMeshSurfaceUpdate(ms, X, u, v));
    }
    for (PetscInt k = 0; k < 1500; k++) {
      const PetscInt f = k % (N * N), *fn = faces + 4 * f;
      const PetscReal sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
      PetscReal r[3], x[3] = {0, 0, 0}, d2, xf[4][3], t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0}, xi[2] = {0, 0}, g1 = 0, g2 = 0,
                      dmin = PETSC_MAX_REAL;
      SKSurfaceProjection p;
      SKContactSupport s;
      for (PetscInt d = 0; d < 3; d++) PetscCall(PetscRandomGetValueReal(rnd, &r[d]));
      for (PetscInt a = 0; a < 4; a++)
        for (PetscInt d = 0; d < 3; d++) xf[a][d] = X[3 * fn[a] + d] + u[3 * fn[a] + d];
      /* a point over face f, within the depth above or below it */
      for (PetscInt a = 0; a < 4; a++)
        for (PetscInt d = 0; d < 3; d++) x[d] += 0.25 * (1 + sx[a] * r[0]) * (1 + sy[a] * r[1]) * xf[a][d];
      x[2] += r[2] * ms->depth;
      (void)SKContactMeshSurfaceProject(ms, x, &p, &s);
      d2 = BruteForce(ms, x);
      PetscCheck(s.face >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "round %" PetscInt_FMT ": the grid missed the faces near (%g, %g, %g)",
                 round, (double)x[0], (double)x[1], (double)x[2]);
      PetscCheck(PetscAbsReal(PetscSqr(x[0] - p.point[0]) + PetscSqr(x[1] - p.point[1]) + PetscSqr(x[2] - p.point[2]) - d2) <= 1e-14,
                 PETSC_COMM_SELF, PETSC_ERR_PLIB, "round %" PetscInt_FMT ": the grid's nearest face is not the nearest", round);
      /* the closest point on the face found: its parameters from the shape values (N_1 + N_2 - N_0 - N_3 = xi_1, ...) */
      xi[0] = s.N[1] + s.N[2] - s.N[0] - s.N[3], xi[1] = s.N[2] + s.N[3] - s.N[0] - s.N[1];
      {
        const PetscInt *bn = faces + 4 * s.face;
        for (PetscInt a = 0; a < 4; a++)
          for (PetscInt d = 0; d < 3; d++) {
            xf[a][d] = X[3 * bn[a] + d] + u[3 * bn[a] + d];
            t1[d] += 0.25 * sx[a] * (1 + sy[a] * xi[1]) * xf[a][d], t2[d] += 0.25 * sy[a] * (1 + sx[a] * xi[0]) * xf[a][d];
          }
      }
      if (PetscAbsReal(xi[0]) < 1 - 1e-9 && PetscAbsReal(xi[1]) < 1 - 1e-9) {
        for (PetscInt d = 0; d < 3; d++) g1 += (x[d] - p.point[d]) * t1[d], g2 += (x[d] - p.point[d]) * t2[d];
        PetscCheck(PetscAbsReal(g1) < 1e-12 * h * h && PetscAbsReal(g2) < 1e-12 * h * h, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "Q4 projection not orthogonal: residual . tangents %g %g (face size %g)", (double)g1, (double)g2, (double)h);
        inside++;
      }
      for (PetscInt i = 0; i <= 40; i++)
        for (PetscInt j = 0; j <= 40; j++) {
          const PetscReal a0 = -1 + 0.05 * i, a1 = -1 + 0.05 * j;
          PetscReal q[3] = {0, 0, 0}, dd = 0;
          for (PetscInt a = 0; a < 4; a++)
            for (PetscInt d = 0; d < 3; d++) q[d] += 0.25 * (1 + sx[a] * a0) * (1 + sy[a] * a1) * xf[a][d];
          for (PetscInt d = 0; d < 3; d++) dd += PetscSqr(x[d] - q[d]);
          dmin = PetscMin(dmin, dd);
        }
      PetscCheck(d2 <= dmin * (1 + 1e-12), PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "Q4 projection: a sampled point of the face is nearer (%g < %g)", (double)dmin, (double)d2);
    }
  }
  PetscCall(SKContactMeshSurfaceGetInfo(ms, NULL, NULL, NULL, &rebuilds));
  PetscCheck(rebuilds >= 2 && inside > 2000, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "the grid was built %" PetscInt_FMT " times (the moves needed a rebuild), %" PetscInt_FMT " points inside a face", rebuilds,
             inside);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(SKContactMeshSurfaceDestroy(&ms));
  PetscCall(PetscFree3(X, u, v));
  PetscCall(PetscFree(faces));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mortar shares of a slave chain of 7 faces over a master chain of 10 on the same line y = 0 (facing each other):
   sum_a w_a share_ab = w_b, the consistent load of a uniform pressure, to round-off. */
static PetscErrorCode TestMortar(void)
{
  const PetscInt ns = 7, nm = 10;
  PetscReal Xs[2 * 8], Xm[2 * 11], ws[8] = {0}, wsum[11] = {0};
  PetscInt fs[2 * 7], fm[2 * 10];
  SKContactMeshSurface slave, master;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i <= ns; i++) Xs[2 * i] = (PetscReal)i / ns, Xs[2 * i + 1] = 0;
  for (PetscInt i = 0; i <= nm; i++) Xm[2 * i] = (PetscReal)i / nm, Xm[2 * i + 1] = 0;
  for (PetscInt f = 0; f < ns; f++) fs[2 * f] = f + 1, fs[2 * f + 1] = f; /* slave faces outward -y: the body above */
  for (PetscInt f = 0; f < nm; f++) fm[2 * f] = f, fm[2 * f + 1] = f + 1; /* master faces outward +y: the body below */
  PetscCall(MakeSurface(2, 2, ns + 1, Xs, ns, fs, &slave));
  PetscCall(MakeSurface(2, 2, nm + 1, Xm, nm, fm, &master));
  for (PetscInt f = 0; f < ns; f++) { /* the face's weights, face-local, scattered to its nodes */
    PetscReal wf[2] = {0, 0};
    PetscCall(SKContactFaceWeights(2, 2, Xs, fs + 2 * f, wf));
    ws[fs[2 * f]] += wf[0], ws[fs[2 * f + 1]] += wf[1];
  }
  for (PetscInt a = 0; a <= ns; a++) {
    SKContactSupport s = {-1, 0, {0}, {0}, PETSC_FALSE, {0, 0, 0}, {0, 0, 0}};
    PetscCall(SKContactMeshSurfaceMortar(master, slave, SKContactMeshSurfaceFindNode(slave, a), &s));
    PetscCheck(s.n > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "slave node %" PetscInt_FMT " has no mortar shares", a);
    for (PetscInt k = 0; k < s.n; k++) wsum[s.node[k]] += ws[SKContactMeshSurfaceFindNode(slave, a)] * s.N[k];
  }
  for (PetscInt b = 0; b <= nm; b++) {
    const PetscReal wb = (b == 0 || b == nm ? 0.5 : 1.0) / nm;
    PetscCheck(PetscAbsReal(wsum[b] - wb) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "master node %" PetscInt_FMT ": %g, expected %g", b,
               (double)wsum[b], (double)wb);
  }
  PetscCall(SKContactMeshSurfaceDestroy(&slave));
  PetscCall(SKContactMeshSurfaceDestroy(&master));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A slave point past the end of an open master surface is not in contact: its distance is the true distance to the
   surface's boundary, not the distance to the plane of the last face. Before, (2.5, 0.01) past the end of the 2D line
   y = 0, x in [0, 2] (body above, normal -y) got -0.01, a penetration, and was pushed as if the line went on; the same
   for a point past the edge or the corner of a 3D surface of two Q4. Points over the surface, or past its end by less
   than 1 % of the smallest face, keep their normal distance; a point at a shared node or edge is not at the boundary. */
static PetscErrorCode TestPastTheEnd(void)
{
  SKContactMeshSurface ms;
  SKSurfaceProjection p;
  SKContactSupport s;

  PetscFunctionBeginUser;
  { /* 2D: two L2 faces (0,0)-(1,0)-(2,0) */
    const PetscReal X[] = {0, 0, 1, 0, 2, 0}, past[2] = {2.5, 0.01}, over[2] = {1.5, 0.01}, back[2] = {-0.3, 0.02};
    const PetscInt faces[] = {0, 1, 1, 2};
    PetscCall(MakeSurface(2, 2, 3, X, 2, faces, &ms));
    (void)SKContactMeshSurfaceProject(ms, past, &p, &s);
    PetscCheck(s.face == 1 && PetscAbsReal(p.distance - PetscSqrtReal(0.25 + 1e-4)) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "2D past the end: distance %g, expected %g (the true distance)", (double)p.distance, (double)PetscSqrtReal(0.25 + 1e-4));
    (void)SKContactMeshSurfaceProject(ms, back, &p, &s);
    PetscCheck(s.face == 0 && PetscAbsReal(p.distance - PetscSqrtReal(0.09 + 4e-4)) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "2D before the start: distance %g", (double)p.distance);
    (void)SKContactMeshSurfaceProject(ms, over, &p, &s);
    PetscCheck(PetscAbsReal(p.distance + 0.01) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2D over the surface: distance %g, expected -0.01",
               (double)p.distance);
    { /* within 1 % of the smallest face past the end (0.5 % here): still in contact, so coinciding ends do not flicker */
      const PetscReal near_end[2] = {2.005, 0.01};
      (void)SKContactMeshSurfaceProject(ms, near_end, &p, &s);
      PetscCheck(PetscAbsReal(p.distance + 0.01) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "2D just past the end: distance %g, expected -0.01", (double)p.distance);
    }
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  { /* 3D: two Q4 in z = 0, [0,1]x[0,1] and [1,2]x[0,1], numbered so that the normal is +z */
    const PetscReal X[]     = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0};
    const PetscInt faces[]  = {0, 1, 4, 3, 1, 2, 5, 4};
    const PetscReal edge[3] = {2.4, 0.5, -0.01}, corner[3] = {2.3, 1.4, -0.01}, over[3] = {1.2, 0.7, -0.01}, seam[3] = {1.0, 0.5, -0.01};
    PetscCall(MakeSurface(3, 4, 6, X, 2, faces, &ms));
    (void)SKContactMeshSurfaceProject(ms, over, &p, &s);
    PetscCheck(PetscAbsReal(p.normal[2] - 1) < 1e-14 && PetscAbsReal(p.distance + 0.01) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "3D over the surface: distance %g, normal z %g", (double)p.distance, (double)p.normal[2]);
    (void)SKContactMeshSurfaceProject(ms, seam, &p, &s);
    PetscCheck(PetscAbsReal(p.distance + 0.01) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "3D over the shared edge: distance %g",
               (double)p.distance);
    (void)SKContactMeshSurfaceProject(ms, edge, &p, &s);
    PetscCheck(PetscAbsReal(p.distance - PetscSqrtReal(0.16 + 1e-4)) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "3D past the boundary edge: distance %g, expected %g", (double)p.distance, (double)PetscSqrtReal(0.16 + 1e-4));
    (void)SKContactMeshSurfaceProject(ms, corner, &p, &s);
    PetscCheck(PetscAbsReal(p.distance - PetscSqrtReal(0.09 + 0.16 + 1e-4)) < 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "3D past the corner: distance %g, expected %g", (double)p.distance, (double)PetscSqrtReal(0.09 + 0.16 + 1e-4));
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SKContactMeshSurfaceProjectMany() against SKContactMeshSurfaceProject() point by point on the surface MS, for N
   random points in the box LO..HI (some over faces, some past the surface's edges, some outside the search grid), so
   that every kind of result and a partly filled last block are met. The two agree to round-off: they do the same
   arithmetic, bitwise equal unless the compiler fuses multiply-adds differently in the vectorised block projection
   of bilinear faces than in the single one (-march=native builds); 1e-13 is far above that and far below any error
   of the search. */
static PetscErrorCode CheckProjectMany(SKContactMeshSurface ms, PetscRandom rnd, PetscInt n, const PetscReal lo[], const PetscReal hi[])
{
  const PetscInt dim = ms->dim;
  PetscReal *x, *f0;
  SKSurfaceProjection *p;
  SKContactSupport *s;
  PetscInt found = 0, none = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(n * dim, &x, n, &p, n, &s, n, &f0));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal r;
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      x[i * dim + d] = lo[d] + 0.5 * (r + 1) * (hi[d] - lo[d]);
    }
  SKContactMeshSurfaceProjectMany(ms, n, x, p, s);
  for (PetscInt i = 0; i < n; i++) {
    SKSurfaceProjection q;
    SKContactSupport t;
    PetscReal err = 0;
    (void)SKContactMeshSurfaceProject(ms, x + i * dim, &q, &t);
    PetscCheck(s[i].face == t.face, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "point %" PetscInt_FMT ": the block projection chose face %" PetscInt_FMT ", the single one %" PetscInt_FMT, i, s[i].face,
               t.face);
    if (t.face < 0) {
      PetscCheck(p[i].distance == PETSC_MAX_REAL && !p[i].exact, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "point %" PetscInt_FMT ": no face, yet a distance", i);
      none++;
      continue;
    }
    found++;
    PetscCheck(s[i].n == t.n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "point %" PetscInt_FMT ": support sizes differ", i);
    for (PetscInt a = 0; a < t.n; a++) {
      PetscCheck(s[i].node[a] == t.node[a], PETSC_COMM_SELF, PETSC_ERR_PLIB, "point %" PetscInt_FMT ": support nodes differ", i);
      err = PetscMax(err, PetscAbsReal(s[i].N[a] - t.N[a]));
    }
    err = PetscMax(err, PetscAbsReal(p[i].distance - q.distance) / ms->hmax);
    for (PetscInt d = 0; d < dim; d++) {
      err = PetscMax(err, PetscAbsReal(p[i].point[d] - q.point[d]) / ms->hmax);
      err = PetscMax(err, PetscAbsReal(p[i].normal[d] - q.normal[d]));
      err = PetscMax(err, PetscAbsReal(p[i].velocity[d] - q.velocity[d]));
      for (PetscInt k = 0; k < dim - 1; k++) err = PetscMax(err, PetscAbsReal(p[i].tangent[k][d] - q.tangent[k][d]));
    }
    PetscCheck(err <= 1e-13, PETSC_COMM_SELF, PETSC_ERR_PLIB, "point %" PetscInt_FMT ": block and single projections differ by %g", i,
               (double)err);
  }
  /* both kinds of point met (the box reaches well past the surface) */
  PetscCheck(found > 0 && none > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "the check met %" PetscInt_FMT " points near a face and %" PetscInt_FMT " far from all", found, none);
  PetscCall(PetscFree4(x, p, s, f0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block projection on a moving 2D chain, a warped 3D Q4 sheet and the same sheet cut into triangles. */
static PetscErrorCode TestProjectMany(void)
{
  const PetscInt N = 8, nn = (N + 1) * (N + 1), npts = 3 * SK_CONTACT_PROJECT_BLOCK + 5;
  const PetscReal h = 1.0 / N;
  SKContactMeshSurface ms;
  PetscReal *X, *u, *v;
  PetscInt *faces;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(3 * nn, &X, 3 * nn, &u, 3 * nn, &v));
  PetscCall(PetscMalloc1(6 * N * N, &faces));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1, 1));
  { /* 2D: a wavy chain of N * N segments, moved and with velocities */
    const PetscInt M      = N * N;
    const PetscReal lo[2] = {-0.3, -0.3}, hi[2] = {M * 0.01 + 0.3, 0.3};
    for (PetscInt i = 0; i <= M; i++) {
      X[2 * i] = 0.01 * i, X[2 * i + 1] = 0.05 * PetscSinReal(0.2 * i);
      u[2 * i] = 0.002, u[2 * i + 1] = 0.001 * PetscCosReal(0.3 * i), v[2 * i] = 0.1 * i, v[2 * i + 1] = -0.05 * i;
    }
    for (PetscInt f = 0; f < M; f++) faces[2 * f] = f + 1, faces[2 * f + 1] = f;
    PetscCall(MakeSurface(2, 2, M + 1, X, M, faces, &ms));
    PetscCall(SKContactMeshSurfaceUpdate(ms, X, u, v));
    PetscCall(CheckProjectMany(ms, rnd, npts, lo, hi));
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  PetscCall(WarpedSheet(N, rnd, X));
  for (PetscInt m = 0; m < 3 * nn; m++) { /* a small random displacement, random velocities */
    PetscCall(PetscRandomGetValueReal(rnd, &u[m]));
    PetscCall(PetscRandomGetValueReal(rnd, &v[m]));
    u[m] *= 0.01 * h;
  }
  for (PetscInt nfn = 4; nfn >= 3; nfn--) { /* the Q4 sheet, then its triangles */
    const PetscReal lo[3] = {-0.3, -0.3, -0.4}, hi[3] = {1.3, 1.3, 0.4};
    for (PetscInt j = 0; j < N; j++)
      for (PetscInt i = 0; i < N; i++) {
        const PetscInt f = j * N + i, m = j * (N + 1) + i, q[4] = {m, m + 1, m + N + 2, m + N + 1};
        if (nfn == 4)
          for (PetscInt a = 0; a < 4; a++) faces[4 * f + a] = q[a];
        else
          for (PetscInt a = 0; a < 3; a++) faces[6 * f + a] = q[a], faces[6 * f + 3 + a] = q[(a + 2) % 4];
      }
    PetscCall(MakeSurface(3, nfn, nn, X, nfn == 4 ? N * N : 2 * N * N, faces, &ms));
    PetscCall(SKContactMeshSurfaceUpdate(ms, X, u, v));
    PetscCall(CheckProjectMany(ms, rnd, npts, lo, hi));
    PetscCall(SKContactMeshSurfaceDestroy(&ms));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFree3(X, u, v));
  PetscCall(PetscFree(faces));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKContactInitializePackage());
  PetscCall(TestProjection());
  PetscCall(TestSearch());
  PetscCall(TestSearchQ4());
  PetscCall(TestMortar());
  PetscCall(TestPastTheEnd());
  PetscCall(TestProjectMany());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "contact mesh surface: projection, search and mortar shares ok\n"));
  PetscCall(PetscFinalize());
  return 0;
}
