/* Contact on NURBS patch faces (src/contact/contact_patchface.c) against a rigid plane, on 1 and 2 ranks (tests.cmake):
   1. the outer arc (radius 2, quarter circle) of an annulus pushed into the plane y = 2.5 (normal +y, the whole arc
      penetrating): by the partition of unity sum_A A_A g_A = int g dgamma, so the normal forces sum to
      eps_N int (2.5 - y) dgamma = eps_N (2.5 pi - 4) (closed form), whereas the control points (off the arc) would give
      another value (printed);
   2. a cubic rectangle patch whose flat bottom face penetrates the plane y = 0 by d: every control point's weighted
      gap is -d, so N_A = eps_N A_A d at each of them;
   3. the arc of 1 deformed by a non-uniform displacement: the forces on the control points are minus the derivative of
      the stored energy sum_A N_A^2 / (2 eps_N A_A) (eq. 34 of the paper), by central differences along a direction;
   4. the deformed and moving arc of 3 against the plane (whose weighted quantities the face forms by its weighting
      matrix, linear in the control points) and against a sine surface of amplitude 0 on the same line (the same plane,
      but reached by a closest-point projection at every Gauss point): the same normal and friction forces. */
#include <stickslip/contact.h>
#include <stickslip/fem.h>

/* The pair of side set NAME of the (distributed) MESH against the plane y = Y0 with normal +y (with SINE: as a sine
   surface of amplitude 0 there), its weights assembled onto the owners. */
static PetscErrorCode MakePair(SKMesh mesh, const char name[], PetscReal y0, PetscReal eps, PetscBool sine, SKContactPair *cp)
{
  PetscInt i, ns, nn, nowned;
  const PetscInt *elements, *faces;
  const PetscReal *X;
  const PetscReal point[2] = {0, y0}, normal[2] = {0, 1}, wavelength[1] = {0.7};
  PetscReal *w;
  PetscSF sf;
  SKFrictionParams fp;
  SKFrictionLaw law;
  SKRigidSurface plane;
  SKContactPatchFace pf;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetNodeOwnership(mesh, &nowned, NULL, NULL));
  PetscCall(SKMeshFindSideSet(mesh, name, &i));
  PetscCall(SKMeshGetSideSet(mesh, i, NULL, &ns, &elements, &faces, NULL));
  PetscCall(PetscCalloc1(nn, &w));
  for (PetscInt s = 0; s < ns; s++) {
    PetscInt fn[SK_ELEMENT_MAX_NODES], nf;
    PetscReal wf[SK_IGA_FACE_MAX_NODES] = {0};
    PetscCall(SKMeshGetFaceNodes(mesh, elements[s], faces[s], &nf, fn));
    PetscCall(SKMeshPatchFaceWeights(mesh, elements[s], faces[s], X, wf, NULL));
    for (PetscInt a = 0; a < nf; a++) w[fn[a]] += wf[a];
  }
  PetscCall(SKMeshCreateNodeSF(mesh, &sf));
  PetscCall(PetscSFReduceBegin(sf, MPIU_REAL, w, w, MPI_SUM));
  PetscCall(PetscSFReduceEnd(sf, MPIU_REAL, w, w, MPI_SUM));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(SKFrictionParamsSetDefaults(&fp));
  fp.mu_s = fp.mu_k = 0.3;
  PetscCall(SKFrictionLawCreate(PETSC_COMM_WORLD, "coulomb", &fp, &law));
  if (sine)
    PetscCall(SKRigidSurfaceCreateSine(PETSC_COMM_WORLD, 2, point, 0.0, wavelength, PETSC_FALSE, &plane));
  else
    PetscCall(SKRigidSurfaceCreatePlane(PETSC_COMM_WORLD, 2, point, normal, &plane));
  PetscCall(SKContactPairCreateWithSurface(PETSC_COMM_WORLD, 2, nn, nowned, w, plane, eps, law, cp));
  PetscCall(SKContactPatchFaceCreate(PETSC_COMM_WORLD, mesh, ns, elements, faces, &pf));
  PetscCall(SKContactPairSetPatchFace(*cp, pf));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One force evaluation at displacement (0, uy) of every node, at rest. */
static PetscErrorCode Evaluate(SKMesh mesh, SKContactPair cp, PetscReal uy, SKContactPairStats *st)
{
  PetscInt nn;
  const PetscReal *X;
  PetscReal *u, *v, *f;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(PetscCalloc3(2 * nn, &u, 2 * nn, &v, 2 * nn, &f));
  for (PetscInt a = 0; a < nn; a++) u[2 * a + 1] = uy;
  PetscCall(SKContactPairForce(cp, 0.0, nn, X, u, v, f));
  PetscCall(SKContactPairGetStats(cp, st));
  PetscCall(PetscFree3(u, v, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3. At the displacement u = (0.02 cos 2Y, -0.05 sin 3X) every point of the arc stays behind the plane y = 2.5, whose
   gap is affine in x: the stored energy E(u) = sum_A N_A^2 / (2 eps_N A_A) is then exactly quadratic in u, and its
   central difference along D, (E(u + h D) - E(u - h D)) / 2h, equals -f(u) . D up to round-off (eq. 34: f is minus the
   gradient of E). */
static PetscErrorCode ForcesAreEnergyGradient(SKMesh mesh, SKContactPair cp)
{
  const PetscReal h = 1e-4;
  PetscInt nn, nowned;
  const PetscReal *X;
  PetscReal *u, *v, *f, *D, E[2], work = 0, err;
  SKContactPairStats st;

  PetscFunctionBeginUser;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetNodeOwnership(mesh, &nowned, NULL, NULL));
  PetscCall(PetscCalloc4(2 * nn, &u, 2 * nn, &v, 2 * nn, &f, 2 * nn, &D));
  for (PetscInt a = 0; a < nn; a++) {
    const PetscReal x = X[2 * a], y = X[2 * a + 1];
    D[2 * a] = PetscSinReal(5 * y) + 0.3, D[2 * a + 1] = PetscCosReal(4 * x) - 0.2 * x; /* any direction: smooth, not uniform */
  }
  for (PetscInt k = 0; k < 2; k++) {
    for (PetscInt a = 0; a < nn; a++) {
      const PetscReal s = k ? -h : h;
      u[2 * a]          = 0.02 * PetscCosReal(2 * X[2 * a + 1]) + s * D[2 * a];
      u[2 * a + 1]      = -0.05 * PetscSinReal(3 * X[2 * a]) + s * D[2 * a + 1];
    }
    PetscCall(SKContactPairForce(cp, 0.0, nn, X, u, v, f));
    PetscCall(SKContactPairGetStats(cp, &st));
    E[k] = st.penalty_energy;
  }
  for (PetscInt a = 0; a < nn; a++) {
    u[2 * a]     = 0.02 * PetscCosReal(2 * X[2 * a + 1]);
    u[2 * a + 1] = -0.05 * PetscSinReal(3 * X[2 * a]);
  }
  PetscCall(PetscArrayzero(f, 2 * nn));
  PetscCall(SKContactPairForce(cp, 0.0, nn, X, u, v, f));
  PetscCall(SKContactPairGetStats(cp, &st));
  for (PetscInt i = 0; i < 2 * nowned; i++) work += f[i] * D[i]; /* the forces land on the owned control points */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &work, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  err = PetscAbsReal((E[0] - E[1]) / (2 * h) + work) / PetscAbsReal(work);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "deformed arc (%" PetscInt_FMT
                        " control points in contact): -f . D = %.15g N m, dE/ds by central differences %.15g N m, "
                        "relative difference %.2e\n",
                        st.nnodes, (double)-work, (double)((E[0] - E[1]) / (2 * h)), (double)err));
  /* E is quadratic, so the central difference is exact but for the round-off of E (~1e-16 E / h, E / |f . D| ~ 1e-2 m):
     1e-9 relative; forces on each control point itself (the row sum of eq. 34, the earlier rule) are off by 4.5e-2
     (measured by that mutation) */
  PetscCheck(err < 1e-9, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "forces are not minus the gradient of the stored energy: off by %g",
             (double)err);
  PetscCall(PetscFree4(u, v, f, D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 4. The arc of 1 at the displacement of 3 and the velocity v = (0.3 + 0.1 sin 4Y, 0.05 cos 2X), against the plane of CP
   and against the sine surface of amplitude 0 on the same line: the forces on the owned control points and the
   control points' normal and friction forces agree to round-off. */
static PetscErrorCode PlaneAgainstProjections(SKMesh mesh, SKContactPair cp, PetscReal eps)
{
  SKContactPair cs;
  PetscInt nn, nowned, n[2];
  const PetscReal *X, *fn[2], *ft[2];
  PetscReal *u, *v, *f[2], dev[2] = {0, 0}, scale[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(MakePair(mesh, "right", 2.5, eps, PETSC_TRUE, &cs));
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKMeshGetNodeOwnership(mesh, &nowned, NULL, NULL));
  PetscCall(PetscCalloc4(2 * nn, &u, 2 * nn, &v, 2 * nn, &f[0], 2 * nn, &f[1]));
  for (PetscInt a = 0; a < nn; a++) {
    u[2 * a]     = 0.02 * PetscCosReal(2 * X[2 * a + 1]);
    u[2 * a + 1] = -0.05 * PetscSinReal(3 * X[2 * a]);
    v[2 * a]     = 0.3 + 0.1 * PetscSinReal(4 * X[2 * a + 1]);
    v[2 * a + 1] = 0.05 * PetscCosReal(2 * X[2 * a]);
  }
  /* a step of 1e-4 s after an evaluation at t = 0 (the pair's first one starts its clock): the friction states advance,
     the velocity slipping along the plane */
  PetscCall(SKContactPairForce(cs, 0.0, nn, X, u, v, f[1]));
  PetscCall(PetscArrayzero(f[1], 2 * nn));
  PetscCall(SKContactPairForce(cp, 1e-4, nn, X, u, v, f[0]));
  PetscCall(SKContactPairForce(cs, 1e-4, nn, X, u, v, f[1]));
  PetscCall(SKContactPairGetNodal(cp, &n[0], NULL, NULL, &fn[0], &ft[0]));
  PetscCall(SKContactPairGetNodal(cs, &n[1], NULL, NULL, &fn[1], &ft[1]));
  PetscCheck(n[0] == n[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "the pairs have %" PetscInt_FMT " and %" PetscInt_FMT " points", n[0], n[1]);
  for (PetscInt i = 0; i < n[0]; i++) scale[0] = PetscMax(scale[0], PetscAbsReal(ft[0][2 * i]));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, scale, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "largest friction force %g N\n", (double)scale[0]));
  scale[0] = 0;
  for (PetscInt i = 0; i < 2 * nowned; i++) {
    dev[0]   = PetscMax(dev[0], PetscAbsReal(f[0][i] - f[1][i]));
    scale[0] = PetscMax(scale[0], PetscAbsReal(f[0][i]));
  }
  for (PetscInt i = 0; i < n[0]; i++) {
    dev[1]   = PetscMax(dev[1], PetscAbsReal(fn[0][i] - fn[1][i]));
    scale[1] = PetscMax(scale[1], PetscAbsReal(fn[0][i]));
    for (PetscInt d = 0; d < 2; d++) dev[1] = PetscMax(dev[1], PetscAbsReal(ft[0][2 * i + d] - ft[1][2 * i + d]));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, dev, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, scale, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "deformed, moving arc: plane by the weighting against Gauss-point projections, forces on the body off by "
                        "%.2e, control points' forces by %.2e (relative to the largest)\n",
                        (double)(dev[0] / scale[0]), (double)(dev[1] / scale[1])));
  /* the same integrals summed in another order (the weighting's rows against the Gauss points of 8 face elements, about
     100 terms of values up to the largest force each): round-off, 1e-13 leaves room for it; a wrong row or transpose
     moves them by 1e-2 or more */
  PetscCheck(scale[0] > 0 && scale[1] > 0 && dev[0] < 1e-13 * scale[0] && dev[1] < 1e-13 * scale[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "the plane's weighting and the projections differ: forces by %g, control points' forces by %g (largest %g, %g)",
             (double)dev[0], (double)dev[1], (double)scale[0], (double)scale[1]);
  PetscCall(PetscFree4(u, v, f[0], f[1]));
  PetscCall(SKContactPairDestroy(&cs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PATCH elevated by ELEV[d] and split into PARTS[d] spans per direction, as a replicated and a distributed mesh. */
static PetscErrorCode MakeMesh(SKNURBSPatch patch, const PetscInt elev[], const PetscInt parts[], SKMesh *rep, SKMesh *mesh)
{
  const char *names[1] = {"body"};

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < 2; d++) {
    PetscCall(SKNURBSPatchElevateDegree(patch, d, elev[d]));
    PetscCall(SKNURBSPatchRefine(patch, d, parts[d]));
  }
  PetscCall(SKMeshCreateFromNURBSPatches(PETSC_COMM_WORLD, 1, &patch, names, rep));
  PetscCall(SKMeshDistribute(*rep, mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscReal eps = 1e6;
  SKNURBSPatch patch;
  SKMesh rep, mesh;
  SKContactPair cp;
  SKContactPairStats st;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  /* 1. the annulus: quadratic (exact circles), 3 x 8 elements */
  PetscCall(SKNURBSPatchCreateAnnulus(1.0, 2.0, 0.5 * PETSC_PI, &patch));
  {
    const PetscInt elev[2] = {1, 0}, parts[2] = {3, 8};
    PetscCall(MakeMesh(patch, elev, parts, &rep, &mesh));
  }
  PetscCall(MakePair(mesh, "right", 2.5, eps, PETSC_FALSE, &cp));
  PetscCall(Evaluate(mesh, cp, 0.0, &st));
  {
    const PetscReal exact = eps * (2.5 * PETSC_PI - 4.0), err = PetscAbsReal(st.normal_force - exact) / exact;
    PetscInt ncp, n, nb, idx[9], nspan;
    PetscReal *Xc, *Iw, *Yw, gx[12], gw[12], dev[2] = {0, 0};
    const PetscReal *w, *fn, *range;
    const PetscInt *nodes, *natural;

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "arc in the plane: normal force %.15g N, closed form %.15g N, relative error %.2e\n",
                          (double)st.normal_force, (double)exact, (double)err));
    /* round-off: the tabulated R wdA sum to the arc's length to 1e-15 (unit_iga_face); 1e-12 relative leaves room for
       the 8 face elements x 5 points of sums */
    PetscCheck(err < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "normal force %.15g N is not eps int (2.5 - y) dgamma = %.15g N",
               (double)st.normal_force, (double)exact);
    /* each control point: I_A = int R_A dgamma and Y_A = int R_A y dgamma by the global basis and the patch's own
       evaluation (not the Bezier path of the code), 12 Gauss points per knot span of the arc (face u0 = 1) */
    PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
    PetscCall(PetscCalloc3(2 * ncp, &Xc, ncp, &Iw, ncp, &Yw));
    PetscCall(SKNURBSPatchGetControlPoints(patch, Xc, NULL));
    PetscCall(SKNURBSPatchGetExtraction(patch, 1, &nspan, NULL, &range));
    PetscCall(SKQuadratureGaussLegendre(12, gx, gw));
    for (PetscInt k = 0; k < nspan; k++)
      for (PetscInt g = 0; g < 12; g++) {
        const PetscReal h = 0.5 * (range[2 * k + 1] - range[2 * k]), uu[2] = {1.0, range[2 * k] + h * (1 + gx[g])};
        PetscReal x[2], J[4], R[9];
        PetscCall(SKNURBSPatchEvaluate(patch, uu, x, J));
        PetscCall(SKNURBSPatchBasis(patch, uu, &nb, idx, R, NULL));
        for (PetscInt a = 0; a < nb; a++) {
          const PetscReal ds = gw[g] * h * PetscSqrtReal(J[1] * J[1] + J[3] * J[3]); /* |dx/du1| du1 */
          Iw[idx[a]] += R[a] * ds;
          Yw[idx[a]] += R[a] * x[1] * ds;
        }
      }
    PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &w, &fn, NULL));
    PetscCall(SKMeshGetNaturalNodes(mesh, &natural));
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt A    = natural ? natural[nodes[i]] : nodes[i];
      const PetscReal ref = eps * (2.5 * Iw[A] - Yw[A]);
      dev[0]              = PetscMax(dev[0], PetscAbsReal(fn[i] - ref) / ref);
      dev[0]              = PetscMax(dev[0], PetscAbsReal(w[i] - Iw[A]) / Iw[A]);
      dev[1] = PetscMax(dev[1], PetscAbsReal(eps * w[i] * (2.5 - Xc[2 * A + 1]) - ref) / ref); /* the control point's own gap */
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, dev, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "per control point: weighted gap forces and weights off the independent integrals by %.2e (relative); the "
                          "control points' own gaps would be off by %.2e\n",
                          (double)dev[0], (double)dev[1]));
    /* the code integrates R_A y |dx/dxi| with degree + 3 = 5 Gauss points per 11.25-degree span, the reference with
       12: the integrand is rational (not a polynomial), and 5 points leave 2.7e-12 relative (measured); 1e-10 bounds
       it. The nodal gaps must be wrong by far
       more (the middle control points of the arc lie outside the circle) */
    PetscCheck(dev[0] < 1e-10 && dev[1] > 1e-4, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "weighted gaps off by %g, nodal ones by %g",
               (double)dev[0], (double)dev[1]);
    PetscCall(PetscFree3(Xc, Iw, Yw));
  }
  PetscCall(ForcesAreEnergyGradient(mesh, cp));
  PetscCall(PlaneAgainstProjections(mesh, cp, eps));
  PetscCall(SKContactPairDestroy(&cp));
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKMeshDestroy(&rep));
  PetscCall(SKNURBSPatchDestroy(&patch));

  /* 2. the flat face lowered by d: every weighted gap is -d */
  {
    const PetscReal lo[2] = {0, 0}, hi[2] = {1, 0.5}, d = 1e-3;
    PetscInt n;
    const PetscReal *w, *fn;
    PetscReal dev          = 0;
    const PetscInt elev[2] = {2, 2}, parts[2] = {6, 2};
    PetscCall(SKNURBSPatchCreateBox(2, lo, hi, &patch));
    PetscCall(MakeMesh(patch, elev, parts, &rep, &mesh));
    PetscCall(MakePair(mesh, "bottom", 0.0, eps, PETSC_FALSE, &cp));
    PetscCall(Evaluate(mesh, cp, -d, &st));
    PetscCall(SKContactPairGetNodal(cp, &n, NULL, &w, &fn, NULL));
    for (PetscInt i = 0; i < n; i++) dev = PetscMax(dev, PetscAbsReal(fn[i] / (eps * w[i]) - d));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dev, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "flat face lowered by %g m: %" PetscInt_FMT " control points, largest |g_A + d| = %.2e m\n",
                          (double)d, st.nnodes, (double)dev));
    /* round-off of a few sums of products of values ~1 times d: 1e-14 relative to d */
    PetscCheck(st.nnodes == 9 && dev < 1e-14 * d, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "weighted gaps off by %g m (%" PetscInt_FMT " points)",
               (double)dev, st.nnodes);
    PetscCall(SKContactPairDestroy(&cp));
    PetscCall(SKMeshDestroy(&mesh));
    PetscCall(SKMeshDestroy(&rep));
    PetscCall(SKNURBSPatchDestroy(&patch));
  }
  PetscCall(PetscFinalize());
  return 0;
}
