/* Unit tests of the reduced delay equation against the full-modal event-driven reference (Szalai 2013, section V):
   same transient and limit cycle, time-step convergence, the friction jump at stick onset versus N, and the
   history compression (error bound, work per step independent of the run length). No input files. */
#include <stickslip/memkernel.h>

/* Section V: mu = 4, kappa = 0.32, sigma = 1, v0 = 1.5; string c = 1 bowed at xi = 0.4; y(0) = (-2.9224, -2.7668). */
static const SKBowFriction friction = {4, 0.32, 1, 1.5};
static const PetscReal y_start[2]   = {-2.9224, -2.7668};

static PetscErrorCode RunReduced(PetscInt n, PetscReal zeta, PetscReal dt, PetscInt window, PetscReal t_end, SKBowTrajectory *traj,
                                 SKMemoryReducedInfo *info)
{
  SKModalData md;
  SKMemoryReducedSettings s = {dt, 1e-10, window, 0, NULL};

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(traj, sizeof(*traj)));
  PetscCall(SKModalDataCreateString(n, 1, 0.4, zeta, &md));
  PetscCall(SKMemoryReducedSolve(&md, &friction, &s, y_start, t_end, 1, traj, info));
  PetscCall(SKModalDataReset(&md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunFull(PetscInt n, PetscReal zeta, PetscReal rtol, PetscReal t_end, SKBowTrajectory *traj)
{
  SKModalData md;
  SKMemoryFullSettings s = {rtol, 1e-2 * rtol, 0, NULL};

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(traj, sizeof(*traj)));
  PetscCall(SKModalDataCreateString(n, 1, 0.4, zeta, &md));
  PetscCall(SKMemoryFullSolve(&md, &friction, &s, y_start, t_end, 0.01, traj));
  PetscCall(SKModalDataReset(&md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKBowTrajectory red, full;
  SKMemoryReducedInfo info;
  const PetscReal dt = 5e-4;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));

  /* 1. Paper parameters (D = 0.1), N = 40: the transient sticks three times, then the string slides steadily.
        Reduced events are reported at the end of the step they fall in, so each time may differ from the located
        full-model event by up to dt (plus O(dt) drift): tolerance 2 dt. */
  PetscCall(RunReduced(40, 0.1, dt, 0, 4, &red, NULL));
  PetscCall(RunFull(40, 0.1, 1e-9, 4, &full));
  /* Energy balance of the full model: modal energy change + damping loss = friction work, to the integrator's
     accuracy (rtol 1e-9 per step over ~3e3 steps and three stick phases: 1e-6 is loose). */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "full model energy residual %.2e\n", (double)full.energy_residual));
  PetscCheck(full.energy_residual < 1e-6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Full model energy balance off by %g",
             (double)full.energy_residual);
  PetscCheck(red.nevents == full.nevents && red.nevents >= 6, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Transient: %" PetscInt_FMT " reduced vs %" PetscInt_FMT " full events", red.nevents, full.nevents);
  for (PetscInt e = 0; e < red.nevents; e++) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "transient event %" PetscInt_FMT " kind %" PetscInt_FMT ": reduced t = %.5f, full t = %.5f\n", e,
                          red.event_kind[e], (double)red.event_t[e], (double)full.event_t[e]));
    PetscCheck(red.event_kind[e] == full.event_kind[e] && PetscAbsReal(red.event_t[e] - full.event_t[e]) <= 2 * dt, PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "Transient event %" PetscInt_FMT " differs", e);
  }
  PetscCall(SKBowTrajectoryReset(&red));
  PetscCall(SKBowTrajectoryReset(&full));

  /* 2. Limit cycle (D = 0.01: with D = 0.1 the paper's oscillation decays to steady sliding, see the docs), N = 40:
        period and stick duration of the last 8 cycles within 1% (the acceptance criterion, docs/design.md); and 3. the reduced model
        converges with dt: the stick-duration error against the full model falls as dt is halved twice (first order
        from events falling inside steps: at least a factor 3 over two halvings). */
  {
    const PetscReal dts[3] = {2e-3, 1e-3, 5e-4};
    PetscReal pf, sf, errs[3];

    PetscCall(RunFull(40, 0.01, 1e-9, 40, &full));
    PetscCall(SKBowTrajectoryLimitCycle(&full, 20, 8, &pf, &sf));
    for (PetscInt i = 0; i < 3; i++) {
      PetscReal pr, sr;

      PetscCall(RunReduced(40, 0.01, dts[i], 0, 40, &red, NULL));
      PetscCall(SKBowTrajectoryLimitCycle(&red, 20, 8, &pr, &sr));
      errs[i] = PetscAbsReal(sr - sf);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "limit cycle dt = %g: period %.6f (full %.6f), stick %.6f (full %.6f)\n", (double)dts[i],
                            (double)pr, (double)pf, (double)sr, (double)sf));
      if (dts[i] == dt) {
        PetscCheck(PetscAbsReal(pr / pf - 1) < 0.01 && PetscAbsReal(sr / sf - 1) < 0.01, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "Reduced and full limit cycles differ by more than 1%%");
      }
      PetscCall(SKBowTrajectoryReset(&red));
    }
    PetscCheck(errs[1] < errs[0] && errs[2] < errs[1] && errs[2] < errs[0] / 3, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "Reduced model does not converge with dt: %g %g %g", (double)errs[0], (double)errs[1], (double)errs[2]);
    PetscCall(SKBowTrajectoryReset(&full));
  }

  /* 4. Jump of the friction force at the first stick onset, full model: it vanishes in the continuum limit
        (section IV, Fig. V.2(d)); measured it halves with each doubling of N (ratio asserted in [1.6, 2.4]). */
  {
    PetscReal prev = 0;

    for (PetscInt n = 20; n <= 160; n *= 2) {
      PetscReal jump = -1;

      PetscCall(RunFull(n, 0.1, 1e-9, 0.5, &full));
      for (PetscInt e = 0; e < full.nevents; e++)
        if (full.event_kind[e] == 1) {
          jump = PetscAbsReal(full.event_force_after[e] - full.event_force_before[e]);
          break;
        }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "N = %3" PetscInt_FMT ": friction jump at stick onset %.5f\n", n, (double)jump));
      PetscCheck(jump > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No stick onset found for N = %" PetscInt_FMT, n);
      if (prev > 0)
        PetscCheck(prev / jump > 1.6 && prev / jump < 2.4, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Jump does not decrease like 1/N: %g -> %g",
                   (double)prev, (double)jump);
      prev = jump;
      PetscCall(SKBowTrajectoryReset(&full));
    }
  }

  /* 5. History compression, N = 400, D = 0.1: compressed vs uncompressed convolution (window = all steps). The
        convolution error is bounded by tol = 1e-10 per step; the trajectory difference stays at round-off level as
        long as no stick decision flips, so 1e-7 on y is a loose bound. The work per step (window + 8 far modes)
        must not grow with the run length. */
  {
    SKBowTrajectory ref;
    SKMemoryReducedInfo info_long;
    PetscReal diff = 0;

    PetscCall(RunReduced(400, 0.1, dt, 0, 4, &red, &info));
    PetscCall(RunReduced(400, 0.1, dt, 1 << 30, 4, &ref, NULL));
    for (PetscInt i = 0; i < red.nsamples; i++)
      diff = PetscMax(diff, PetscMax(PetscAbsReal(red.y1[i] - ref.y1[i]), PetscAbsReal(red.y2[i] - ref.y2[i])));
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "compression: window %" PetscInt_FMT " steps, %" PetscInt_FMT
                          " far modes of 400, bound %.2e, max |y - y_uncompressed| %.2e\n",
                          info.window, info.far_modes, (double)info.error_bound, (double)diff));
    PetscCheck(info.window < 8000 && info.far_modes < 400 && info.error_bound <= 1e-10 && diff < 1e-7, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "Compression inactive or inaccurate");
    PetscCall(SKBowTrajectoryReset(&red));
    PetscCall(SKBowTrajectoryReset(&ref));
    PetscCall(RunReduced(400, 0.1, dt, 0, 64, &red, &info_long));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "work per step: t_end 4: %" PetscInt_FMT ", t_end 64: %" PetscInt_FMT "\n",
                          info.window + 8 * info.far_modes, info_long.window + 8 * info_long.far_modes));
    PetscCheck(info_long.window + 8 * info_long.far_modes <= info.window + 8 * info.far_modes, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "Work per step grows with the run length");
    PetscCall(SKBowTrajectoryReset(&red));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "memory reduced-model tests passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
