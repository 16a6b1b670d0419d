/* The closed-form eigenpairs of a rod-1 segment made of two uniform chains joined at one node (secular equation of the
   joint, rodpair_mmm_twopiece.c) against the definition and against LAPACK's tridiagonal eigen-solve, for every end
   type, joints near either end and in the middle, stiffness and mass ratios above and below one (a piece's band ends
   below the other's top eigenvalues), and lengths from 3 to 1001 nodes: the residual |K phi - w^2 M phi| and the mass
   orthonormality |Phi^T M Phi - I| hold to round-off, the frequencies agree with LAPACK's; also with the joint at an
   end node and with poles of the two pieces within 1e-9 of each other. Segments that are not two pieces, or whose pieces
   share a frequency exactly (equal wave speeds, commensurate lengths), must be refused. */
#include "rodpair_harmonic.h"
#include "../../../src/rod1d/mmmimpl.h"

typedef struct {
  PetscInt n, i;            /* nodes, joint */
  PetscReal kA, mA, kB, mB; /* springs and interior node masses of the pieces */
  PetscBool freeL, freeR;   /* free rod ends (half-mass end node) */
} Case;

/* springs and masses of case C into kl, sp (n - 1), kr, mass (n); the joint's mass is half of each piece's */
static void Build(const Case *c, PetscReal *kl, PetscReal sp[], PetscReal *kr, PetscReal mass[])
{
  *kl = c->freeL ? 0 : c->kA;
  *kr = c->freeR ? 0 : c->kB;
  for (PetscInt j = 0; j < c->n - 1; j++) sp[j] = j < c->i ? c->kA : c->kB;
  for (PetscInt j = 0; j < c->n; j++) mass[j] = j < c->i ? c->mA : (j > c->i ? c->mB : 0.5 * (c->mA + c->mB));
  if (c->freeL) mass[0] *= 0.5;
  if (c->freeR) mass[c->n - 1] *= 0.5;
}

/* frequencies (rad/s, ascending) of K phi = w^2 M phi by LAPACK's stegr on M^-1/2 K M^-1/2 */
static PetscErrorCode Lapack(PetscInt n, PetscReal kl, const PetscReal sp[], PetscReal kr, const PetscReal mass[], PetscReal w[])
{
  PetscBLASInt bn, m = 0, lwork, liwork, il = 0, iu = 0, info = 0, *iwork;
  PetscReal vl = 0, vu = 0, abstol = 0, *d, *e, *z, *work;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(18 * n, &lwork));
  PetscCall(PetscBLASIntCast(10 * n, &liwork));
  PetscCall(PetscMalloc5(n, &d, n, &e, (size_t)n * n, &z, 18 * n, &work, 20 * n, &iwork));
  for (PetscInt j = 0; j < n; j++) {
    d[j] = ((j > 0 ? sp[j - 1] : kl) + (j < n - 1 ? sp[j] : kr)) / mass[j];
    e[j] = j < n - 1 ? -sp[j] / PetscSqrtReal(mass[j] * mass[j + 1]) : 0;
  }
  PetscCallBLAS("LAPACKstegr", LAPACKstegr_("V", "A", &bn, d, e, &vl, &vu, &il, &iu, &abstol, &m, w, z, &bn, iwork + 10 * n, work, &lwork,
                                            iwork, &liwork, &info));
  PetscCheck(info == 0 && m == bn, PETSC_COMM_SELF, PETSC_ERR_LIB, "stegr failed: info %d", (int)info);
  for (PetscInt p = 0; p < n; p++) w[p] = PetscSqrtReal(PetscMax(w[p], 0));
  PetscCall(PetscFree5(d, e, z, work, iwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscBool F = PETSC_FALSE, T = PETSC_TRUE;
  /* the two-material rod of inputs/rodpair/two-material-omega1.xml per element (EA/h, rho A h at h = 1/6 m) and
     contrasts either way; small segments; a joint next to either end */
  const Case cases[] = {
      {3, 1, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, T, F},
      {4, 2, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, F, F},
      {5, 1, 1, 1, 4, 1, F, T},
      {10, 3, 1, 1, 2, 1.5, T, T},
      {10, 8, 3, 1, 1, 2, F, T},
      {31, 15, 1, 1, 0.1, 1, T, F},
      {64, 20, 1, 1, 1, 3, T, F},
      {188, 150, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, T, F},
      {301, 150, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, T, T},
      {301, 150, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, F, F},
      {301, 40, 12e9, 1.5e3 / 6, 6e9, 1e3 / 6, T, F},
      {1001, 700, 1, 1, 5, 2, F, T},
      /* the joint an end node (one piece empty): held by the other material's spring, or a free end of its own mass */
      {241, 0, 12e9, 1.5e3 / 6, 6e9, 1e3 / 6, F, T},
      {151, 150, 6e9, 1e3 / 6, 12e9, 1.5e3 / 6, T, F},
      {40, 39, 1, 1, 3, 2, F, T},
      /* poles of the two pieces within 1e-9 to 1e-7 of each other (nearly equal wave speeds) */
      {301, 150, 1, 1, 1, 1.0000001, T, F},
      {301, 150, 1, 1, 1, 1.000000001, F, F},
      {1001, 500, 1, 1, 1.0000001, 1, T, T},
  };
  PetscInt nmax = 1001;
  PetscReal *sp, *mass, *phi, *w, *wl, *work, worst_res = 0, worst_orth = 0, worst_w = 0, kl, kr;
  PetscBool done;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscMalloc6(nmax, &sp, nmax, &mass, (size_t)nmax * nmax, &phi, nmax, &w, nmax, &wl, 3 * nmax, &work));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    const Case *cs = &cases[c];
    PetscInt n     = cs->n;
    PetscReal res = 0, orth = 0, dw = 0, kscale = PetscMax(cs->kA, cs->kB);
    Build(cs, &kl, sp, &kr, mass);
    PetscCall(SKMMMTwoPieceEigen(n, kl, sp, kr, mass, work, phi, w, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %zu (n = %" PetscInt_FMT ", joint %" PetscInt_FMT ") refused", c, n, cs->i);
    PetscCall(Lapack(n, kl, sp, kr, mass, wl));
    for (PetscInt p = 0; p < n; p++) {
      PetscReal l = w[p] * w[p];
      /* residual of K phi_p - w_p^2 M phi_p, relative to |K| |phi| (phi mass-normalised: |phi| ~ 1 / sqrt(m)) */
      for (PetscInt j = 0; j < n; j++) {
        PetscReal ul = j > 0 ? phi[(j - 1) * n + p] : 0, ur = j < n - 1 ? phi[(j + 1) * n + p] : 0, u = phi[j * n + p];
        PetscReal kj = (j > 0 ? sp[j - 1] : kl) + (j < n - 1 ? sp[j] : kr);
        PetscReal r  = kj * u - (j > 0 ? sp[j - 1] * ul : 0) - (j < n - 1 ? sp[j] * ur : 0) - l * mass[j] * u;
        res          = PetscMax(res, PetscAbsReal(r) * PetscSqrtReal(mass[j]) / (4 * kscale));
      }
      for (PetscInt q = 0; q <= p; q++) {
        PetscReal s = 0;
        for (PetscInt j = 0; j < n; j++) s += mass[j] * phi[j * n + p] * phi[j * n + q];
        orth = PetscMax(orth, PetscAbsReal(s - (p == q ? 1 : 0)));
      }
      dw = PetscMax(dw, PetscAbsReal(w[p] * w[p] - wl[p] * wl[p]) /
                            (wl[n - 1] * wl[n - 1])); /* in w^2: a zero eigenvalue's round-off is eps, its root not */
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "n = %4" PetscInt_FMT " joint %4" PetscInt_FMT
                          " ends %s-%s: residual %.2e, orthonormality %.2e, w^2 vs LAPACK %.2e\n",
                          n, cs->i, cs->freeL ? "free" : "held", cs->freeR ? "free" : "held", (double)res, (double)orth, (double)dw));
    worst_res  = PetscMax(worst_res, res);
    worst_orth = PetscMax(worst_orth, orth);
    worst_w    = PetscMax(worst_w, dw);
  }
  /* round-off. Residual: each equation holds to a few eps of its terms (1e-14 measured at n = 1001; a root off by one
     part in 1e12, or shapes meeting at the joint of a mode that hardly moves it, give 1e-12 and more). w^2: the roots
     to a few ulps against LAPACK's own eps ||K|| (1.1e-15 measured, of the largest w^2). Orthonormality: eps over the
     relative gap of the modes not re-orthogonalised (TP_CLUSTER = 1e-3), growing with n: 3e-13 at n = 301, 5.7e-13
     at n = 1001, 1.3e-12 at n = 1001 with poles of the two pieces 1e-7 apart (vectors made from their roots alone and
     met at the joint: 5e-11 and 1.5e-9 at n = 1001). */
  PetscCheck(worst_res < 1e-13 && worst_orth < 5e-12 && worst_w < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "closed-form two-piece eigenpairs off: residual %g, orthonormality %g, frequencies %g", (double)worst_res, (double)worst_orth,
             (double)worst_w);

  { /* refused: three pieces; pieces of equal wave speed and equal lengths (every pole shared) */
    const Case three = {20, 8, 1, 1, 2, 1, F, F}, equal = {21, 10, 1, 1, 2, 2, F, F};
    Build(&three, &kl, sp, &kr, mass);
    sp[15] = 5;
    PetscCall(SKMMMTwoPieceEigen(three.n, kl, sp, kr, mass, work, phi, w, &done));
    PetscCheck(!done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a three-piece segment was taken for two pieces");
    Build(&equal, &kl, sp, &kr, mass);
    PetscCall(SKMMMTwoPieceEigen(equal.n, kl, sp, kr, mass, work, phi, w, &done));
    PetscCheck(!done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pieces with shared frequencies were not left to the general solve");
  }
  PetscCall(PetscFree6(sp, mass, phi, w, wl, work));
  PetscCall(PetscFinalize());
  return 0;
}
