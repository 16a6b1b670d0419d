/* Limit mu_k N_F = 0: rod 1 is a free-free lumped chain under P(t) = P0 sin(W t). Its exact solution is the rigid-body
   motion plus the closed-form Duhamel response of the chain's modes phi_n(i) = cos(n pi i / (N - 1)) (checked here to
   be eigenvectors). The RK45 reference must reproduce it and close the energy balance. */
#include "rodpair_harmonic.h"

/* exact u_i(t) of the chain from rest */
static PetscReal Exact(const SKRodPairModel *m, const Harmonic *hm, PetscInt i, PetscReal t)
{
  PetscInt N  = m->N;
  PetscReal u = 0;
  for (PetscInt n = 0; n < N; n++) {
    PetscReal Mn = 0, Kn = 0, q;
    for (PetscInt j = 0; j < N; j++) Mn += m->mass[j] * PetscSqr(PetscCosReal(n * PETSC_PI * j / (N - 1)));
    for (PetscInt j = 0; j < N - 1; j++)
      Kn += m->spring[j] * PetscSqr(PetscCosReal(n * PETSC_PI * (j + 1) / (N - 1)) - PetscCosReal(n * PETSC_PI * j / (N - 1)));
    if (n == 0)
      q = hm->P0 / Mn * (t / hm->W - PetscSinReal(hm->W * t) / (hm->W * hm->W));
    else {
      PetscReal w = PetscSqrtReal(Kn / Mn);
      q           = hm->P0 / Mn / (w * w - hm->W * hm->W) * (PetscSinReal(hm->W * t) - hm->W / w * PetscSinReal(w * t));
    }
    u += PetscCosReal(n * PETSC_PI * i / (N - 1)) * q;
  }
  return u;
}

int main(int argc, char **argv)
{
  SKRodPairParams p = {
      .EA1 = 1e9, .rhoA1 = 1e3, .L1 = 50, .EA2 = 1e13, .rhoA2 = 1e7, .L2 = 50, .l1 = 25, .mu_s = 0, .mu_k = 0, .NF = 0, .N = 21, .Nm = 4};
  Harmonic hm = {.P0 = 2e4, .W = 150};
  SKRodPair rp;
  const PetscReal *u;
  SKRodPairEnergy e;
  PetscReal err = 0, umax = 0, T = 0.2;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, Load, &hm, &rp));
  /* the cos vectors are eigenvectors of the lumped chain: K phi = w^2 M phi to round-off */
  {
    const SKRodPairModel *m = &rp->model;
    PetscInt N              = m->N;
    PetscReal phi[64], f[64], res = 0, scale = 0;
    for (PetscInt n = 1; n < N; n++) {
      PetscReal w2 = PetscSqr(2 * PetscSqrtReal(p.EA1 / p.rhoA1) / (p.L1 / (N - 1)) * PetscSinReal(n * PETSC_PI / (2 * (N - 1))));
      for (PetscInt i = 0; i < N; i++) phi[i] = PetscCosReal(n * PETSC_PI * i / (N - 1));
      SKRodPairInternalForce(m, phi, f);
      for (PetscInt i = 0; i < N; i++) {
        res   = PetscMax(res, PetscAbsReal(-f[i] - w2 * m->mass[i] * phi[i]));
        scale = PetscMax(scale, PetscAbsReal(f[i]));
      }
    }
    PetscCheck(res < 1e-10 * scale, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cos vectors are not chain modes: residual %g of %g", (double)res,
               (double)scale);
  }
  PetscCall(SKRodPairDestroy(&rp));
  /* both integrators: RK45 (tolerance-limited) and the mode-matching method (closed form: exact up to round-off) */
  for (PetscInt method = 0; method < 2; method++) {
    PetscReal tol = method == 0 ? 1e-6 : 1e-9;
    err = umax = 0;
    PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, Load, &hm, &rp));
    PetscCall(SKRodPairSetTolerances(rp, 1e-10, 1e-14));
    PetscCall(SKRodPairSetLoadForm(rp, hm.P0, hm.W, 0));
    PetscCall(SKRodPairSolve(rp, method == 0 ? SK_RODPAIR_RK45 : SK_RODPAIR_MMM, T));
    PetscCall(SKRodPairGetState(rp, NULL, &u, NULL, NULL, NULL, NULL));
    for (PetscInt i = 0; i < p.N; i++) {
      PetscReal ue = Exact(&rp->model, &hm, i, T);
      err          = PetscMax(err, PetscAbsReal(u[i] - ue));
      umax         = PetscMax(umax, PetscAbsReal(ue));
    }
    PetscCall(SKRodPairGetEnergy(rp, &e));
    PetscCall(PetscPrintf(
        PETSC_COMM_SELF, "free-free chain, %s: max |u - exact| = %.3e of max |u| = %.3e; energy balance %.3e of work %.3e\n",
        SKRodPairMethods[method == 0 ? SK_RODPAIR_RK45 : SK_RODPAIR_MMM], (double)err, (double)umax, (double)e.balance, (double)e.work));
    /* RK45 at rtol 1e-10 over ~1e4 steps: 1e-6 of the peak is a loose but failing-when-wrong bound (a wrong end mass
       or spring gives O(1e-2)); MMM evaluates the same modal solution in closed form, so only round-off remains: 1e-9 */
    PetscCheck(err < tol * umax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "differs from the exact chain solution by %g", (double)err);
    /* energy: RK45 integrates the work as a quadrature of the same ODE; MMM by 3-point Gauss-Legendre on samples */
    PetscCheck(PetscAbsReal(e.balance) < 1e-6 * PetscAbsReal(e.work), PETSC_COMM_SELF, PETSC_ERR_PLIB, "energy balance %g of work %g",
               (double)e.balance, (double)e.work);
    PetscCall(SKRodPairDestroy(&rp));
  }
  PetscCall(PetscFinalize());
  return 0;
}
