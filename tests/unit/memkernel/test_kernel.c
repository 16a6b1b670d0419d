/* Unit tests of the memory kernel (Szalai 2013, section III): closed forms of L_inf and L^1(0+), the per-mode
   closed form of L^1 against quadrature of its definition, convergence in the number of modes, modal data. */
#include <stickslip/memkernel.h>

/* [L^1(tau)]_2 from its definition (III.18) with (III.26): G + 2 D_P w_P int G + w_P^2 int int G - tau L_inf,
   G = sum n_k^2 h_k, integrated by the trapezoidal rule on M cells (error O((tau/M)^2)). Pivot 0. */
static PetscErrorCode L1ByQuadrature(const SKModalData *md, PetscReal tau, PetscInt m, PetscReal *l1)
{
  PetscReal A[4], linf[2], ig = 0, iig = 0, gprev = 0, igprev = 0, dt = tau / m, wp = md->omega[0], zp = md->zeta[0];

  PetscFunctionBeginUser;
  PetscCall(SKMemoryKernelConstants(md, 0, A, linf));
  for (PetscInt j = 1; j <= m; j++) {
    PetscReal t = j * dt, g = 0;

    for (PetscInt k = 0; k < md->n; k++) {
      PetscReal w = md->omega[k], z = md->zeta[k], wd = w * PetscSqrtReal(1 - z * z);

      g += PetscSqr(md->shape[k]) * PetscExpReal(-z * w * t) * PetscSinReal(wd * t) / wd;
    }
    ig += 0.5 * dt * (g + gprev);
    iig += 0.5 * dt * (ig + igprev);
    gprev  = g;
    igprev = ig;
  }
  *l1 = gprev + 2 * zp * wp * ig + wp * wp * iig - tau * linf[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The right limit (III.30) for the string: L^1 at tau and tau/2 with enough modes that the dropped tail is below
   e^-36 (the terms decay like exp(-k pi c D tau)), then linear (Richardson) extrapolation to 0+, since
   L^1(tau) = L^1(0+) + s tau + O(tau^2) near 0 (appendix E: the jump comes from the 1/k terms only). */
static PetscErrorCode TestRightLimit(PetscReal c, PetscReal xi, PetscReal zeta, PetscReal *err)
{
  PetscReal tau[2] = {1e-3 / c, 0.5e-3 / c}, l1[2], limit, exact = SKMemoryStringL1RightLimit(c, zeta);
  SKModalData md;
  PetscInt n = (PetscInt)PetscCeilReal(36 / (PETSC_PI * c * zeta * tau[1]));

  PetscFunctionBeginUser;
  PetscCall(SKModalDataCreateString(n, c, xi, zeta, &md));
  PetscCall(SKMemoryKernelL1(&md, 0, 2, tau, l1));
  limit = 2 * l1[1] - l1[0];
  *err  = PetscAbsReal(limit - exact);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "right limit c=%g xi=%g D=%g N=%" PetscInt_FMT ": computed %.10f closed form %.10f |diff| %.2e\n",
                        (double)c, (double)xi, (double)zeta, n, (double)limit, (double)exact, (double)*err));
  PetscCall(SKModalDataReset(&md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKModalData md;
  PetscReal A[4], linf[2], err = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));

  /* 1. Right limit of L^1 at 0 for the string vs (III.30); the requirement is 1e-3, the extrapolation error is
        O(tau^2) ~ 1e-6, so 1e-5 is also asserted to catch a wrong kernel that happens to be close. */
  {
    const PetscReal cases[4][3] = {
        {1, 0.4, 0.1},
        {1, 0.4, 0.3},
        {2, 0.25, 0.05},
        {1, 0.4, 0.6},
    };
    for (PetscInt i = 0; i < 4; i++) {
      PetscCall(TestRightLimit(cases[i][0], cases[i][1], cases[i][2], &err));
      PetscCheck(err < 1e-3 && err < 1e-5, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Right limit of L1 off by %g", (double)err);
    }
  }

  /* 2. Static flexibility: L_inf = w_1^2 n.K^-1.n; string: sum sin^2(k pi xi) / (k pi c)^2 = xi (1 - xi) / (2 c^2),
        tail after N modes < 1 / (N pi^2 c^2), relative 1.3e-6 for N = 1e6 -> tolerance 2e-6. */
  PetscCall(SKModalDataCreateString(1000000, 1, 0.4, 0.1, &md));
  PetscCall(SKMemoryKernelConstants(&md, 0, A, linf));
  err = PetscAbsReal(linf[1] / (PETSC_PI * PETSC_PI * 0.4 * 0.6 / 2) - 1);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "string L_inf %.10f closed form %.10f rel %.2e; A = [%g %g; %g %g]\n", (double)linf[1],
                        (double)(PETSC_PI * PETSC_PI * 0.12), (double)err, (double)A[0], (double)A[1], (double)A[2], (double)A[3]));
  PetscCheck(err < 2e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "String L_inf off by %g relative", (double)err);
  PetscCheck(A[0] == 0 && A[1] == 1 && PetscAbsReal(A[2] + PETSC_PI * PETSC_PI) < 1e-14 && PetscAbsReal(A[3] + 0.2 * PETSC_PI) < 1e-14,
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "A of (III.23) wrong");
  PetscCall(SKModalDataReset(&md));
  /*    Cantilever: tip flexibility of a unit clamped-free beam is 1/3 = 4 sum beta_k^-4 (the tip values 2 (-1)^(k+1)
        and the roots enter); tail after 2000 modes < 1e-11. beta_1 = 1.87510406871196 (tables). */
  PetscCall(SKModalDataCreateCantilever(2000, 0.02, &md));
  PetscCall(SKMemoryKernelConstants(&md, 0, A, linf));
  err = PetscAbsReal(linf[1] / (md.omega[0] * md.omega[0]) - 1.0 / 3);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "cantilever beta_1 %.14f, tip flexibility %.14f (1/3): |diff| %.2e\n",
                        (double)PetscSqrtReal(md.omega[0]), (double)(linf[1] / (md.omega[0] * md.omega[0])), (double)err));
  PetscCheck(err < 1e-10 && PetscAbsReal(PetscSqrtReal(md.omega[0]) - 1.87510406871196) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Cantilever modal data wrong");
  PetscCall(SKModalDataReset(&md));

  /* 3. Closed form per mode vs quadrature of the definition, damped with unequal ratios and pivot damping, so the
        2 D_P w_P int G term that the printed (III.29) mishandles is exercised. Trapezoid with 2e5 cells: error
        ~ tau^2/M^2 * max|G''| ~ 1e-9; tolerance 1e-7. */
  PetscCall(SKModalDataCreateString(6, 1, 0.4, 0.1, &md));
  for (PetscInt k = 0; k < md.n; k++) md.zeta[k] = 0.05 + 0.04 * k;
  {
    const PetscReal taus[3] = {0.3, 1.1, 2.7};
    PetscReal l1[3], q = 0;

    PetscCall(SKMemoryKernelL1(&md, 0, 3, taus, l1));
    for (PetscInt j = 0; j < 3; j++) {
      PetscCall(L1ByQuadrature(&md, taus[j], 200000, &q));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "L1(%g): closed form %.12f quadrature %.12f diff %.1e\n", (double)taus[j], (double)l1[j],
                            (double)q, (double)(l1[j] - q)));
      PetscCheck(PetscAbsReal(l1[j] - q) < 1e-7, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "Closed-form L1 disagrees with its definition at tau = %g", (double)taus[j]);
    }
  }
  PetscCall(SKModalDataReset(&md));

  /* 4. Convergence in N (Fig. III.2(b)): RMS difference to N = 20480 over tau in (0, 4] for N = 20 ... 320. The kernel
        has jumps (tau = 0, 0.8, 1.2, 2, ...), so a truncated sum converges in L2 like N^-1/2: ratio sqrt(2) = 1.41 per
        doubling; damping smooths the high modes and the rate is faster. Asserted: monotone, ratio > 1.3. */
  {
    const PetscInt nt = 4000, nref = 20480;
    PetscReal *tau, *ref, *l1, prev = PETSC_INFINITY;

    PetscCall(PetscMalloc3(nt, &tau, nt, &ref, nt, &l1));
    for (PetscInt j = 0; j < nt; j++) tau[j] = 4.0 * (j + 1) / nt;
    PetscCall(SKModalDataCreateString(nref, 1, 0.4, 0.1, &md));
    PetscCall(SKMemoryKernelL1(&md, 0, nt, tau, ref));
    PetscCall(SKModalDataReset(&md));
    for (PetscInt n = 20; n <= 320; n *= 2) {
      PetscReal rms = 0;

      PetscCall(SKModalDataCreateString(n, 1, 0.4, 0.1, &md));
      PetscCall(SKMemoryKernelL1(&md, 0, nt, tau, l1));
      PetscCall(SKModalDataReset(&md));
      for (PetscInt j = 0; j < nt; j++) rms += PetscSqr(l1[j] - ref[j]);
      rms = PetscSqrtReal(rms / nt);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "N = %4" PetscInt_FMT ": RMS |L1_N - L1_ref| = %.3e (ratio %.2f)\n", n, (double)rms,
                            (double)(prev / rms)));
      PetscCheck(prev / rms > 1.3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "L1 does not converge with N (ratio %g)", (double)(prev / rms));
      prev = rms;
    }
    PetscCall(PetscFree3(tau, ref, l1));
  }

  /* 5. Friction law (V.1) on the string, opposing the slip: -+mu at v = 0+-, -+(mu - kappa) at large |v|, and
        kappa exp(-sigma |v|) in between (exact arithmetic up to one rounding: 1e-14). */
  {
    const SKBowFriction fr = {4, 0.32, 1, 1.5};

    PetscCheck(SKBowFrictionSlipForce(&fr, 1, 0) == -4 && SKBowFrictionSlipForce(&fr, -1, 0) == 4, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "Friction at v = 0 is not -+mu");
    PetscCheck(PetscAbsReal(SKBowFrictionSlipForce(&fr, 1, 1e3) + 3.68) < 1e-14 &&
                   PetscAbsReal(SKBowFrictionSlipForce(&fr, -1, -1e3) - 3.68) < 1e-14,
               PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sliding friction is not mu - kappa");
    PetscCheck(PetscAbsReal(SKBowFrictionSlipForce(&fr, -1, -2) - (3.68 + 0.32 * PetscExpReal(-2))) < 1e-14, PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "Friction decay wrong");
  }

  /* 6. Bad modal data is refused. */
  {
    PetscErrorCode ierr;

    PetscCall(SKModalDataCreateString(4, 1, 0.4, 0.1, &md));
    md.zeta[2] = 1.0;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SKModalDataCheck(&md);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Damping ratio 1 was accepted");
    PetscCall(SKModalDataReset(&md));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "memory kernel tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
