/* Depth-dependent friction, checked against a closed form: a rigid rod 1 (one node, mass M = rhoA1 L1, contact
   [u, Lc + u] on rod 2, Lc = L1 - l1) on a rigid rod 2 (a million times heavier) with mu_s = mu_k = mu0 + mu1 z and
   constant N_F. The friction force is then C(u) = N_F (mu0 Lc + mu1 (Lc u + Lc^2 / 2)), linear in u: under a
   constant force P > C(0) the block slips as an oscillator, M u'' = (P - C(0)) - k_f u, k_f = N_F mu1 Lc, so
   u(t) = D (1 - cos(w t)), D = (P - C(0)) / k_f, w = sqrt(k_f / M), until v = 0 at t = pi / w, where it sticks for good
   (the force it needs, P, is below the capacity C(2 D) = 2 P - C(0)). The permanent set is 2 D. */
#include "../../../src/rod1d/rodpairimpl.h"

static PetscReal ConstantLoad(void *ctx, PetscReal t)
{
  (void)t;
  return *(PetscReal *)ctx;
}

int main(int argc, char **argv)
{
  SKRodPairParams p = {0};
  PetscReal P       = 1e4, Lc, C0, kf, D, w, M, t1, t2, u_mid, u_end;
  SKRodPair rp;
  const PetscReal *u;
  const SKRodNodeState *st;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  p.EA1 = 1e9, p.rhoA1 = 1e3, p.L1 = 50, p.l1 = 25;
  p.EA2 = 1e18, p.rhoA2 = 1e12, p.L2 = 50;
  p.N = 1, p.Nm = 2;
  p.nfric         = 2; /* mu from 0.3 at the top of rod 2 to 0.6 at its bottom, N_F = 1 kN/m */
  p.fric_depth[0] = 0, p.fric_mu_s[0] = p.fric_mu_k[0] = 0.3, p.fric_NF[0] = 1e3;
  p.fric_depth[1] = 50, p.fric_mu_s[1] = p.fric_mu_k[1] = 0.6, p.fric_NF[1] = 1e3;
  M  = p.rhoA1 * p.L1;
  Lc = p.L1 - p.l1;
  C0 = 1e3 * (0.3 * Lc + 0.006 * Lc * Lc / 2);
  kf = 1e3 * 0.006 * Lc;
  D  = (P - C0) / kf;
  w  = PetscSqrtReal(kf / M);
  t1 = 0.5 * PETSC_PI / w; /* u = D, at full speed */
  t2 = 1.5 * PETSC_PI / w; /* stuck since pi / w at u = 2 D */

  PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, ConstantLoad, &P, &rp));
  PetscCall(SKRodPairSetTolerances(rp, 1e-10, 1e-12));
  PetscCall(SKRodPairSolve(rp, SK_RODPAIR_RK45, t1));
  PetscCall(SKRodPairGetState(rp, NULL, &u, NULL, NULL, NULL, &st));
  u_mid = u[0];
  PetscCall(SKRodPairSolve(rp, SK_RODPAIR_RK45, t2));
  PetscCall(SKRodPairGetState(rp, NULL, &u, NULL, NULL, NULL, &st));
  u_end = u[0];
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "linear friction profile, rigid block: u(pi/2w) = %.9g m (exact %.9g), set = %.9g m (exact %.9g), state %d\n",
                        (double)u_mid, (double)D, (double)u_end, (double)(2 * D), (int)st[0]));
  /* RK45 at rtol 1e-10 on a smooth slip phase; rod 2's motion under the 1e4 N force is ~1e-12 m. 1e-7 relative:
     a profile integrated as if constant (mu at the node's centre) gives a different k_f and fails by 1e-2, a capacity
     frozen at the start position never stops the block */
  PetscCheck(PetscAbsReal(u_mid - D) < 1e-7 * D && PetscAbsReal(u_end - 2 * D) < 1e-7 * D && st[0] == SK_ROD_STICK, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "block on a linear friction profile: u = %g, %g, expected %g, %g", (double)u_mid, (double)u_end, (double)D,
             (double)(2 * D));
  PetscCall(SKRodPairDestroy(&rp));
  PetscCall(PetscFinalize());
  return 0;
}
