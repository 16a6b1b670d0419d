/* stickslip memkernel: the bow friction law (V.1) and the sampled trajectories with their stick/slip events. */
#include "memkernel/memkernelimpl.h"

PetscReal SKBowFrictionSlipForce(const SKBowFriction *fr, PetscInt side, PetscReal v)
{
  return -(PetscReal)side * (fr->mu - fr->kappa + fr->kappa * PetscExpReal(-fr->sigma * PetscAbsReal(v)));
}

PetscErrorCode SKBowTrajectoryReset(SKBowTrajectory *traj)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(traj->t, traj->y1, traj->y2, traj->force, traj->stick));
  PetscCall(PetscFree4(traj->event_t, traj->event_kind, traj->event_force_before, traj->event_force_after));
  PetscCall(PetscMemzero(traj, sizeof(*traj)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBowTrajectoryAddSample(SKBowTrajectory *traj, PetscReal t, PetscReal y1, PetscReal y2, PetscReal force, PetscInt stick)
{
  PetscFunctionBegin;
  if (traj->nsamples == traj->capacity) {
    PetscInt cap = PetscMax(1024, 2 * traj->capacity);
    PetscReal *nt, *ny1, *ny2, *nf;
    PetscInt *ns;

    PetscCall(PetscMalloc5(cap, &nt, cap, &ny1, cap, &ny2, cap, &nf, cap, &ns));
    PetscCall(PetscArraycpy(nt, traj->t, traj->nsamples));
    PetscCall(PetscArraycpy(ny1, traj->y1, traj->nsamples));
    PetscCall(PetscArraycpy(ny2, traj->y2, traj->nsamples));
    PetscCall(PetscArraycpy(nf, traj->force, traj->nsamples));
    PetscCall(PetscArraycpy(ns, traj->stick, traj->nsamples));
    PetscCall(PetscFree5(traj->t, traj->y1, traj->y2, traj->force, traj->stick));
    traj->t        = nt;
    traj->y1       = ny1;
    traj->y2       = ny2;
    traj->force    = nf;
    traj->stick    = ns;
    traj->capacity = cap;
  }
  traj->t[traj->nsamples]     = t;
  traj->y1[traj->nsamples]    = y1;
  traj->y2[traj->nsamples]    = y2;
  traj->force[traj->nsamples] = force;
  traj->stick[traj->nsamples] = stick;
  traj->nsamples++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBowTrajectoryAddEvent(SKBowTrajectory *traj, PetscReal t, PetscInt kind, PetscReal before, PetscReal after)
{
  PetscFunctionBegin;
  if (traj->nevents == traj->event_capacity) {
    PetscInt cap = PetscMax(64, 2 * traj->event_capacity);
    PetscReal *nt, *nb, *na;
    PetscInt *nk;

    PetscCall(PetscMalloc4(cap, &nt, cap, &nk, cap, &nb, cap, &na));
    PetscCall(PetscArraycpy(nt, traj->event_t, traj->nevents));
    PetscCall(PetscArraycpy(nk, traj->event_kind, traj->nevents));
    PetscCall(PetscArraycpy(nb, traj->event_force_before, traj->nevents));
    PetscCall(PetscArraycpy(na, traj->event_force_after, traj->nevents));
    PetscCall(PetscFree4(traj->event_t, traj->event_kind, traj->event_force_before, traj->event_force_after));
    traj->event_t            = nt;
    traj->event_kind         = nk;
    traj->event_force_before = nb;
    traj->event_force_after  = na;
    traj->event_capacity     = cap;
  }
  traj->event_t[traj->nevents]            = t;
  traj->event_kind[traj->nevents]         = kind;
  traj->event_force_before[traj->nevents] = before;
  traj->event_force_after[traj->nevents]  = after;
  traj->nevents++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKBowTrajectoryLimitCycle(const SKBowTrajectory *traj, PetscReal t_from, PetscInt ncycles, PetscReal *period,
                                         PetscReal *stick_duration)
{
  PetscInt first = -1, last = -1, count = 0;
  PetscReal stick_sum = 0;

  PetscFunctionBegin;
  /* Onsets after t_from; a cycle runs from one onset to the next, its stick time from the onset to the release. */
  for (PetscInt e = 0; e < traj->nevents; e++) {
    if (traj->event_kind[e] != 1 || traj->event_t[e] < t_from) continue;
    if (first < 0) first = e;
    last = e;
    count++;
  }
  PetscCheck(count >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Only %" PetscInt_FMT " stick onsets after t = %g: no limit cycle to measure (run longer)", count, (double)t_from);
  if (ncycles > 0 && ncycles < count - 1) {
    PetscInt skip = count - 1 - ncycles;

    for (PetscInt e = first + 1; e <= last && skip > 0; e++) {
      if (traj->event_kind[e] != 1) continue;
      first = e;
      skip--;
    }
    count = ncycles + 1;
  }
  *period = (traj->event_t[last] - traj->event_t[first]) / (count - 1);
  for (PetscInt e = first; e < last; e++) {
    if (traj->event_kind[e] != 1) continue;
    for (PetscInt r = e + 1; r < traj->nevents; r++) {
      if (traj->event_kind[r] == 0) {
        stick_sum += traj->event_t[r] - traj->event_t[e];
        break;
      }
    }
  }
  *stick_duration = stick_sum / (count - 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}
