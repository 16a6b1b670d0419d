/* Unit tests of the 3D mortar distribution between deformable bodies (src/contact/contact_mortar.c):

   - the shares of flat non-matching surfaces (Q4 on Q4, Q4 on T3, T3 on Q4, T3 on T3, a coarse slave on a finer master): the
     slave weights distributed by the shares, sum_a w_a D_ab, are the master weights int N_b dA (the property behind
     the patch test) to round-off;
   - the static contact patch test of two blocks with non-matching interfaces (meshes/patch3d.xml: H8 faces 4 x 4 on
     3 x 3; meshes/patch3d_mixed.xml: H8 on T4, Q4 faces on T3 faces, and the sides swapped: T3 on Q4), one and two
     passes: started from the exact static state (uniform strain -P/E in both blocks, nu = 0, the penetration P/eps_N
     that carries the pressure P), nothing moves over 200 steps but round-off. The node-to-segment rule
     (distribution="point") is run too and must move: it loads the master with inconsistent forces. */
#include "../dynamics/test_explicit_common.h"
#include "test_contact_common.h" /* white box: the mortar shares */

/* The unit square at z = Z cut into N x N cells, Q4 (NFN 4) or two T3 each (NFN 3), outward normal +z (UP) or -z:
   nodes X[(N + 1)^2 * 3] and faces F. */
static void Grid(PetscInt N, PetscInt nfn, PetscBool up, PetscReal z, PetscReal X[], PetscInt F[], PetscInt *nf)
{
  PetscInt k = 0;
  for (PetscInt j = 0; j <= N; j++)
    for (PetscInt i = 0; i <= N; i++)
      X[3 * (j * (N + 1) + i)] = (PetscReal)i / N, X[3 * (j * (N + 1) + i) + 1] = (PetscReal)j / N, X[3 * (j * (N + 1) + i) + 2] = z;
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < N; i++) {
      const PetscInt c[4] = {j * (N + 1) + i, j * (N + 1) + i + 1, (j + 1) * (N + 1) + i + 1, (j + 1) * (N + 1) + i};
      if (nfn == 4) {
        for (PetscInt a = 0; a < 4; a++) F[k++] = c[up ? a : 3 - a];
      } else { /* two triangles along the (0,0)-(1,1) diagonal */
        const PetscInt t[2][3] = {{c[0], c[1], c[2]}, {c[0], c[2], c[3]}};
        for (PetscInt s = 0; s < 2; s++)
          for (PetscInt a = 0; a < 3; a++) F[k++] = t[s][up ? a : 2 - a];
      }
    }
  *nf = k / nfn;
}

/* Slave grid NS (faces of NFNS nodes, facing down) on master grid NM (NFNM, facing up, 1e-3 below): the distributed
   slave weights against the master weights. T3 on the same T3 grid: every node's share of the master node below it is
   int N_a N_a / int N_a = (A/6) / (A/3) = 1/2 summed over its faces, which a rule of degree below 2 misses. */
static PetscErrorCode Consistency(PetscInt ns, PetscInt nfns, PetscInt nm, PetscInt nfnm)
{
  PetscReal *Xs, *Xm, *ws, *wm, *wsum, err = 0, diag = 0;
  PetscInt *Fs, *Fm, nfs, nfm;
  const PetscInt nns = (ns + 1) * (ns + 1), nnm = (nm + 1) * (nm + 1);
  SKContactMeshSurface slave, master;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc5(3 * nns, &Xs, 3 * nnm, &Xm, nns, &ws, nnm, &wm, nnm, &wsum));
  PetscCall(PetscMalloc2(2 * 3 * ns * ns, &Fs, 2 * 3 * nm * nm, &Fm));
  Grid(ns, nfns, PETSC_FALSE, 0, Xs, Fs, &nfs);
  Grid(nm, nfnm, PETSC_TRUE, -1e-3, Xm, Fm, &nfm);
  PetscCall(MakeSurface(3, nfns, nns, Xs, nfs, Fs, &slave));
  PetscCall(MakeSurface(3, nfnm, nnm, Xm, nfm, Fm, &master));
  PetscCall(PetscArrayzero(ws, nns));
  PetscCall(PetscArrayzero(wm, nnm));
  PetscCall(PetscArrayzero(wsum, nnm));
  for (PetscInt f = 0; f < nfs; f++) {
    PetscReal wf[4] = {0, 0, 0, 0};
    PetscCall(SKContactFaceWeights(3, nfns, Xs, Fs + nfns * f, wf));
    for (PetscInt a = 0; a < nfns; a++) ws[Fs[nfns * f + a]] += wf[a];
  }
  for (PetscInt f = 0; f < nfm; f++) {
    PetscReal wf[4] = {0, 0, 0, 0};
    PetscCall(SKContactFaceWeights(3, nfnm, Xm, Fm + nfnm * f, wf));
    for (PetscInt a = 0; a < nfnm; a++) wm[Fm[nfnm * f + a]] += wf[a];
  }
  for (PetscInt a = 0; a < nns; a++) {
    const PetscInt la  = SKContactMeshSurfaceFindNode(slave, a);
    SKContactSupport s = {-1, 0, {0}, {0}, PETSC_FALSE, {0, 0, 0}, {0, 0, 0}};
    PetscCall(SKContactMeshSurfaceMortar(master, slave, la, &s));
    PetscCheck(s.n > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "slave node %" PetscInt_FMT " has no mortar shares", a);
    for (PetscInt k = 0; k < s.n; k++) {
      wsum[master->natural[s.node[k]]] += ws[a] * s.N[k];
      if (nfns == 3 && nfnm == 3 && ns == nm && master->natural[s.node[k]] == a) diag = PetscMax(diag, PetscAbsReal(s.N[k] - 0.5));
    }
  }
  for (PetscInt b = 0; b < nnm; b++) err = PetscMax(err, PetscAbsReal(wsum[b] - wm[b]) * nm * nm);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "mortar shares %s %" PetscInt_FMT "x%" PetscInt_FMT " on %s %" PetscInt_FMT "x%" PetscInt_FMT
                        ": max |sum_a w_a D_ab - w_b| / (1/nm^2) = %.3g\n",
                        nfns == 4 ? "Q4" : "T3", ns, ns, nfnm == 4 ? "Q4" : "T3", nm, nm, (double)err));
  /* round-off: the integrals are exact (the shape values are polynomials of degree 2 in the plane on these faces, the
     rule has degree 4; on a triangle on a triangle they are affine, the rule has degree 2), sums of O(10) terms */
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the distributed slave weights miss the master weights by %g", (double)err);
  if (nfns == 3 && nfnm == 3 && ns == nm) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  matching T3: max |D_aa - 1/2| = %.3g\n", (double)diag));
    PetscCheck(diag < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "matching T3 faces: a node's share of its own master node misses 1/2 by %g",
               (double)diag);
  }
  PetscCall(SKContactMeshSurfaceDestroy(&slave));
  PetscCall(SKContactMeshSurfaceDestroy(&master));
  PetscCall(PetscFree5(Xs, Xm, ws, wm, wsum));
  PetscCall(PetscFree2(Fs, Fm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Two blocks, a (y in [0.5, 1]) pressed by P on its top onto b (y in [0, 0.5], held in y at its base), from the exact
   static state; SLAVE and MASTER the side sets of the pair. Returns the largest displacement change after 200 steps
   relative to the penetration P / eps_N. */
static PetscErrorCode StaticPatch(const char mesh[], const char slave[], const char master[], PetscInt passes, const char distribution[],
                                  PetscReal *drift)
{
  const PetscReal P = 1e5, E = 1e7, eps_n = 4e8, d = P / eps_n;
  const char *dir = getenv("SK_SOURCE_DIR");
  char text[4096];
  SKInput input;
  SKExplicit ex;
  SKMesh m;
  PetscReal *u, *v, *u0;
  const PetscReal *X;
  const PetscInt *anodes;
  PetscInt nl, na, is;

  PetscFunctionBeginUser;
  PetscCheck(dir, PETSC_COMM_WORLD, PETSC_ERR_USER, "SK_SOURCE_DIR is not set (the test runs from ctest)");
  PetscCall(PetscSNPrintf(text, sizeof(text),
                          "<explicit><mesh file=\"%s/meshes/%s\"/>"
                          "<nodeset name=\"b_base\" lower=\"-0.001 -0.001 -0.001\" upper=\"1.001 0.001 1.001\"/>"
                          "<block name=\"a\" material=\"linear_elastic\" E=\"%g\" nu=\"0\" rho=\"1000\"/>"
                          "<block name=\"b\" material=\"linear_elastic\" E=\"%g\" nu=\"0\" rho=\"1000\"/>"
                          "<displacement nodeset=\"b_base\" component=\"y\"/>"
                          "<traction sideset=\"a_top\" value=\"0 %g 0\"/>"
                          "<contact name=\"patch\" sideset=\"%s\" master=\"%s\" penalty=\"%g\" passes=\"%" PetscInt_FMT
                          "\" distribution=\"%s\">"
                          "<friction law=\"coulomb\" mu_s=\"0.3\" mu_k=\"0.3\" eps_t=\"1e8\"/></contact>"
                          "<time end=\"1\" safety=\"0.9\"/></explicit>",
                          dir, mesh, (double)E, (double)E, (double)-P, slave, master, (double)eps_n, passes, distribution));
  PetscCall(SKTestExplicitCreate("patch3d", text, &input, &ex));
  PetscCall(SKExplicitGetMesh(ex, &m));
  PetscCall(SKMeshGetNodes(m, &nl, &X));
  PetscCall(SKMeshFindNodeSet(m, "a_all", &is));
  PetscCall(SKMeshGetNodeSet(m, is, NULL, &na, &anodes, NULL));
  PetscCall(SKExplicitGetStateWrite(ex, &u, &v));
  /* b: u_y = -P/E y from its fixed base; a: its bottom d below b's top, the same strain */
  for (PetscInt p = 0; p < nl; p++) u[3 * p + 1] = -P / E * X[3 * p + 1];
  for (PetscInt k = 0; k < na; k++) u[3 * anodes[k] + 1] -= d;
  PetscCall(PetscMalloc1(3 * nl, &u0));
  PetscCall(PetscArraycpy(u0, u, 3 * nl));
  PetscCall(SKExplicitRestoreState(ex, &u, &v));
  PetscCall(SKExplicitAdvance(ex, 200));
  PetscCall(SKExplicitGetStateWrite(ex, &u, &v));
  *drift = 0;
  for (PetscInt k = 0; k < 3 * nl; k++) *drift = PetscMax(*drift, PetscAbsReal(u[k] - u0[k]) / d);
  PetscCall(SKExplicitRestoreState(ex, &u, &v));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, drift, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "static patch %s, %s on %s, %" PetscInt_FMT " pass(es), %s: max |u - u0| / d = %.3g\n", mesh,
                        slave, master, passes, distribution, (double)*drift));
  PetscCall(PetscFree(u0));
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* the interfaces: H8 faces 4 x 4 on 3 x 3; Q4 faces on T3 faces; T3 faces on Q4 faces */
  const char *cases[3][3] = {
      {"patch3d.xml", "a_bottom", "b_top"}, {"patch3d_mixed.xml", "a_bottom", "b_top"}, {"patch3d_mixed.xml", "b_top", "a_bottom"}};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKContactInitializePackage());
  PetscCall(Consistency(4, 4, 3, 4));
  PetscCall(Consistency(4, 4, 3, 3));
  PetscCall(Consistency(3, 3, 4, 4));
  PetscCall(Consistency(4, 3, 3, 3)); /* T3 on T3: the 3-point rule */
  PetscCall(Consistency(3, 3, 3, 3)); /* and on the same grid */
  PetscCall(Consistency(2, 4, 4, 4)); /* a coarse slave on a master twice as fine: 25 master nodes under the middle slave node */
  for (PetscInt c = 0; c < 3; c++)
    for (PetscInt passes = 1; passes <= 2; passes++) {
      PetscReal drift, point;
      PetscCall(StaticPatch(cases[c][0], cases[c][1], cases[c][2], passes, "mortar", &drift));
      PetscCall(StaticPatch(cases[c][0], cases[c][1], cases[c][2], passes, "point", &point));
      /* the static state is an exact discrete equilibrium with consistent contact loads: only round-off moves it
         (relative to the penetration, which is 1/40 of the elastic shortening here, so bounded by 1e-6 of the applied
         pressure's displacements); node-to-segment loads the master inconsistently: it must move by far more */
      PetscCheck(drift < 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the mortar static patch moved by %g of the penetration", cases[c][0],
                 (double)drift);
      PetscCheck(point > 1e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
                 "%s: the node-to-segment static patch moved by only %g: the test cannot tell the rules apart", cases[c][0], (double)point);
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3D mortar: consistent shares and static patch tests ok\n"));
  PetscCall(PetscFinalize());
  return 0;
}
