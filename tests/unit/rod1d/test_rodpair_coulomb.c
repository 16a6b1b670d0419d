/* Limit of a rigid rod 1 (one node, mass M = rhoA1 L1) on rigid ground (rod 2 a million times heavier): the classical
   Coulomb block (Den Hartog 1930; Makris & Constantinou 1991) under
   (a) a square pulse P0 on [0, T): x_final = x_T + M v_T^2 / (2 F), v_T = (P0 - F) T / M, x_T = (P0 - F) T^2 / (2 M);
   (b) P0 sin(W t), P0 > F: piecewise closed form, stick until |P| > F, slip until v = 0, then stick or reverse;
   the reference below evaluates those closed forms and finds v = 0 by bisection on the closed-form velocity. */
#include "../../../src/rod1d/rodpairimpl.h"

typedef struct {
  PetscInt pulse;
  PetscReal P0, W, T;
} Load_;

static PetscReal Load(void *ctx, PetscReal t)
{
  Load_ *l = (Load_ *)ctx;
  if (l->pulse) return (t >= 0 && t < l->T) ? l->P0 : 0;
  return l->P0 * PetscSinReal(l->W * t);
}

/* closed-form slip phase from (t0, x0, v0) with friction -s F: velocity and position at t */
static void SlipPhase(const Load_ *l, PetscReal M, PetscReal F, PetscReal s, PetscReal t0, PetscReal x0, PetscReal v0, PetscReal t,
                      PetscReal *x, PetscReal *v)
{
  PetscReal W = l->W, dt = t - t0;
  *v = v0 + (l->P0 * (PetscCosReal(W * t0) - PetscCosReal(W * t)) / W - s * F * dt) / M;
  *x = x0 + v0 * dt +
       (l->P0 * (dt * PetscCosReal(W * t0) / W - (PetscSinReal(W * t) - PetscSinReal(W * t0)) / (W * W)) - 0.5 * s * F * dt * dt) / M;
}

/* exact x(t) of the harmonically forced block, by marching the closed forms (bisection on v = 0 to 1e-15 s) */
static PetscReal HarmonicExact(const Load_ *l, PetscReal M, PetscReal F, PetscReal tq)
{
  PetscReal t = 0, x = 0, v = 0, dt = 1e-4;
  PetscInt sticking = 1;
  PetscReal s       = 0;
  while (t < tq) {
    if (sticking) {
      /* stuck until |P| exceeds F: scan, then bisect */
      PetscReal a = t, b = t + dt;
      if (PetscAbsReal(Load((void *)l, b)) <= F) {
        t = PetscMin(b, tq);
        continue;
      }
      for (int it = 0; it < 80; it++) {
        PetscReal c = 0.5 * (a + b);
        if (PetscAbsReal(Load((void *)l, c)) <= F)
          a = c;
        else
          b = c;
      }
      if (b > tq) return x;
      t        = b;
      s        = Load((void *)l, t) > 0 ? 1 : -1;
      sticking = 0;
    } else {
      PetscReal a = t, b = t + dt, xb, vb, xa, va;
      SlipPhase(l, M, F, s, t, x, v, b, &xb, &vb);
      if (vb * s > 0) {
        if (b >= tq) {
          SlipPhase(l, M, F, s, t, x, v, tq, &xa, &va);
          return xa;
        }
        /* keep the phase start, advance the scan */
        for (PetscReal tb = b + dt;; tb += dt) {
          SlipPhase(l, M, F, s, t, x, v, tb, &xb, &vb);
          if (tb >= tq && vb * s > 0) {
            SlipPhase(l, M, F, s, t, x, v, tq, &xa, &va);
            return xa;
          }
          if (vb * s <= 0) {
            a = tb - dt;
            b = tb;
            break;
          }
        }
      }
      for (int it = 0; it < 80; it++) {
        PetscReal c = 0.5 * (a + b);
        SlipPhase(l, M, F, s, t, x, v, c, &xa, &va);
        if (va * s > 0)
          a = c;
        else
          b = c;
      }
      if (b > tq) {
        SlipPhase(l, M, F, s, t, x, v, tq, &xa, &va);
        return xa;
      }
      SlipPhase(l, M, F, s, t, x, v, b, &x, &v);
      t = b;
      v = 0;
      if (PetscAbsReal(Load((void *)l, t)) <= F)
        sticking = 1;
      else
        s = -s;
    }
  }
  return x;
}

typedef struct {
  const Load_ *l;
  PetscReal M, F, err, xmax;
} Mon;

static PetscErrorCode Monitor(void *ctx, PetscReal t, const PetscReal u[], const PetscReal v[], const PetscReal vrel[],
                              const PetscReal eta[], const PetscReal etad[], const SKRodNodeState st[], const SKRodPairEnergy *e)
{
  Mon *m       = (Mon *)ctx;
  PetscReal xe = HarmonicExact(m->l, m->M, m->F, t);

  PetscFunctionBeginUser;
  (void)v, (void)vrel, (void)eta, (void)etad, (void)st, (void)e;
  m->err  = PetscMax(m->err, PetscAbsReal(u[0] - xe));
  m->xmax = PetscMax(m->xmax, PetscAbsReal(xe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* rod 2 heavier by 1e9 and as fast: its motion under the block's friction is ~1e-13 m, below the checked digits */
  SKRodPairParams p = {.EA1   = 1e9,
                       .rhoA1 = 1e3,
                       .L1    = 50,
                       .EA2   = 1e18,
                       .rhoA2 = 1e12,
                       .L2    = 50,
                       .l1    = 25,
                       .mu_s  = 0.6,
                       .mu_k  = 0.6,
                       .NF    = 1e3,
                       .N     = 1,
                       .Nm    = 2};
  PetscReal M = p.rhoA1 * p.L1, F = p.mu_k * p.NF * (p.L1 - p.l1);
  SKRodPair rp;
  const PetscReal *u;
  SKRodPairEnergy e;
  PetscInt events;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  { /* (a) square pulse */
    Load_ l      = {.pulse = 1, .P0 = 2e4, .T = 0.01};
    PetscReal vT = (l.P0 - F) * l.T / M, xT = 0.5 * (l.P0 - F) * l.T * l.T / M, xf = xT + M * vT * vT / (2 * F);
    PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, Load, &l, &rp));
    PetscCall(SKRodPairSetTolerances(rp, 1e-10, 1e-16));
    PetscCall(SKRodPairSetBreakpoints(rp, 1, &l.T));
    PetscCall(SKRodPairSolve(rp, SK_RODPAIR_RK45, 0.1));
    PetscCall(SKRodPairGetState(rp, NULL, &u, NULL, NULL, NULL, NULL));
    PetscCall(SKRodPairGetCounts(rp, NULL, NULL, NULL, &events));
    PetscCall(SKRodPairGetEnergy(rp, &e));
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "pulse: x_final %.12e exact %.12e (rel %.2e), events %" PetscInt_FMT ", energy balance %.2e of work %.2e\n",
                          (double)u[0], (double)xf, (double)(PetscAbsReal(u[0] - xf) / xf), events, (double)e.balance, (double)e.work));
    /* the stop is located on the dense output to 1e-9 of a step; rtol 1e-10: 1e-7 is ample and fails on any wrong phase */
    PetscCheck(PetscAbsReal(u[0] - xf) < 1e-7 * xf, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pulse: final displacement %g, exact %g", (double)u[0],
               (double)xf);
    PetscCheck(rp->state[0] == SK_ROD_STICK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pulse: the block must end stuck");
    PetscCheck(PetscAbsReal(e.balance) < 1e-6 * e.work, PETSC_COMM_SELF, PETSC_ERR_PLIB, "pulse: energy balance %g of work %g",
               (double)e.balance, (double)e.work);
    PetscCall(SKRodPairDestroy(&rp));
  }
  { /* (b) harmonic force, stick-slip */
    Load_ l = {.pulse = 0, .P0 = 2e4, .W = 20};
    Mon mon = {.l = &l, .M = M, .F = F};
    PetscCall(SKRodPairCreate(PETSC_COMM_SELF, &p, Load, &l, &rp));
    PetscCall(SKRodPairSetTolerances(rp, 1e-10, 1e-16));
    PetscCall(SKRodPairSetMonitor(rp, 0.01, Monitor, &mon));
    PetscCall(SKRodPairSolve(rp, SK_RODPAIR_RK45, 1.0));
    PetscCall(SKRodPairGetCounts(rp, NULL, NULL, NULL, &events));
    PetscCall(SKRodPairGetEnergy(rp, &e));
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
                          "harmonic: max |x - exact| %.3e of max |x| %.3e, events %" PetscInt_FMT ", energy balance %.2e of work %.2e\n",
                          (double)mon.err, (double)mon.xmax, events, (double)e.balance, (double)e.work));
    /* same bound as (a); more than 4 events (stick-slip every half period) shows the switching really happened */
    PetscCheck(mon.err < 1e-7 * mon.xmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "harmonic: error %g", (double)mon.err);
    PetscCheck(events > 4, PETSC_COMM_SELF, PETSC_ERR_PLIB, "harmonic: only %" PetscInt_FMT " events", events);
    PetscCheck(PetscAbsReal(e.balance) < 1e-6 * e.work, PETSC_COMM_SELF, PETSC_ERR_PLIB, "harmonic: energy balance %g of work %g",
               (double)e.balance, (double)e.work);
    PetscCall(SKRodPairDestroy(&rp));
  }
  PetscCall(PetscFinalize());
  return 0;
}
