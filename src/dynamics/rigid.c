/* dynamics: the rigid-body chain (spring-slider, Burridge-Knopoff) with a continuous friction law, integrated by an
   adaptive stiff PETSc TS with the analytic Jacobian, and the closed-form Coulomb spring-slider cycle and trajectory. */
#include <petscts.h>
#include <stickslip/rigid.h>

struct _p_SKRigidChain {
  MPI_Comm comm;
  SKRigidChainParams p;
  SKFrictionLaw law;
  SKFrictionRateFn rate;
  const void *law_ctx;
  PetscInt ns, stride, nu; /* friction states per block (0 or 1), unknowns per block (2 + ns), all unknowns */
  PetscReal *x0;
  PetscReal rtol, atol_x;
  TS ts;
  Vec U, atol;
  Mat J;
  PetscReal *buf; /* sample arrays: x, v, F, z, spring (5 n) */
  PetscReal energy0;
};

/* Indices of the two energy integrals appended to the block unknowns. */
#define IW(c) ((c)->p.n * (c)->stride)
#define ID(c) ((c)->p.n * (c)->stride + 1)

/* f(t, u) of u' = f(t, u) and, if J is given, shift I - df/du added into J (ADD_VALUES on a zeroed matrix). */
static PetscErrorCode ChainEvaluate(SKRigidChain c, PetscReal t, const PetscReal u[], PetscReal f[], PetscReal shift, Mat J)
{
  const SKRigidChainParams *p = &c->p;
  const PetscInt s = c->stride, n = p->n;
  const PetscReal xd = p->v_drive * t, fe = p->force ? SKTimeFunctionEval(p->force, t) : 0, m = p->mass;
  PetscReal dW = 0, dD = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt ix = i * s, iv = ix + 1, iz = ix + 2;
    const PetscReal x = u[ix], v = u[iv], vr = v - p->v_belt, zero = 0;
    const PetscReal *z = c->ns ? &u[iz] : &zero;
    PetscReal zd = 0, F, Jzz = 0, Jzv = 0, JFz = 0, JFv, spring = p->k_drive * (xd - x), coup = 0, kdiag = p->k_drive;

    c->rate(c->law_ctx, p->normal_force, vr, z, &zd, &F, &Jzz, &Jzv, &JFz, &JFv, NULL);
    if (i > 0) coup += p->k_couple * (u[ix - s] - x), kdiag += p->k_couple;
    if (i < n - 1) coup += p->k_couple * (u[ix + s] - x), kdiag += p->k_couple;
    f[ix] = v;
    f[iv] = (spring + coup + fe - F) / m;
    if (c->ns) f[iz] = zd;
    dW += spring * p->v_drive + fe * v - F * p->v_belt;
    dD += F * vr;
    if (J) {
      PetscCall(MatSetValue(J, ix, ix, shift, ADD_VALUES));
      PetscCall(MatSetValue(J, ix, iv, -1.0, ADD_VALUES));
      PetscCall(MatSetValue(J, iv, iv, shift + JFv / m, ADD_VALUES));
      PetscCall(MatSetValue(J, iv, ix, kdiag / m, ADD_VALUES));
      if (i > 0) PetscCall(MatSetValue(J, iv, ix - s, -p->k_couple / m, ADD_VALUES));
      if (i < n - 1) PetscCall(MatSetValue(J, iv, ix + s, -p->k_couple / m, ADD_VALUES));
      PetscCall(MatSetValue(J, IW(c), ix, p->k_drive * p->v_drive, ADD_VALUES));
      PetscCall(MatSetValue(J, IW(c), iv, -(fe - JFv * p->v_belt), ADD_VALUES));
      PetscCall(MatSetValue(J, ID(c), iv, -(JFv * vr + F), ADD_VALUES));
      if (c->ns) {
        PetscCall(MatSetValue(J, iv, iz, JFz / m, ADD_VALUES));
        PetscCall(MatSetValue(J, iz, iz, shift - Jzz, ADD_VALUES));
        PetscCall(MatSetValue(J, iz, iv, -Jzv, ADD_VALUES));
        PetscCall(MatSetValue(J, IW(c), iz, JFz * p->v_belt, ADD_VALUES));
        PetscCall(MatSetValue(J, ID(c), iz, -JFz * vr, ADD_VALUES));
      }
    }
  }
  f[IW(c)] = dW;
  f[ID(c)] = dD;
  if (J) {
    PetscCall(MatSetValue(J, IW(c), IW(c), shift, ADD_VALUES));
    PetscCall(MatSetValue(J, ID(c), ID(c), shift, ADD_VALUES));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChainIFunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *vctx)
{
  SKRigidChain c = (SKRigidChain)vctx;
  const PetscScalar *u, *ud;
  PetscScalar *f;

  PetscFunctionBegin;
  (void)ts;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(Udot, &ud));
  PetscCall(VecGetArray(F, &f));
  PetscCall(ChainEvaluate(c, t, u, f, 0, NULL));
  for (PetscInt k = 0; k < c->nu; k++) f[k] = ud[k] - f[k];
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(VecRestoreArrayRead(Udot, &ud));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChainIJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, Mat B, void *vctx)
{
  SKRigidChain c = (SKRigidChain)vctx;
  const PetscScalar *u;

  PetscFunctionBegin;
  (void)ts;
  (void)Udot;
  PetscCall(MatZeroEntries(B));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(ChainEvaluate(c, t, u, c->buf, shift, B)); /* buf only as scratch for f here */
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainReadOptions(MPI_Comm comm, const char prefix[])
{
  TS ts;

  PetscFunctionBegin;
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetOptionsPrefix(ts, prefix));
  PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
  PetscCall(TSSetType(ts, TSROSW)); /* as SKRigidChainCreate() */
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainCreate(MPI_Comm comm, const SKRigidChainParams *p, SKFrictionLaw law, const char prefix[], SKRigidChain *chain)
{
  SKRigidChain c;
  const char *name;
  PetscInt *nnz;

  PetscFunctionBegin;
  PetscCall(SKFrictionLawGetName(law, &name));
  PetscCheck(p->n >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "a rigid chain needs at least one block, got %" PetscInt_FMT, p->n);
  PetscCheck(p->mass > 0 && p->normal_force >= 0 && p->k_drive >= 0 && p->k_couple >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "rigid chain: need mass > 0, normal_force >= 0, k_drive >= 0, k_couple >= 0 (got %g kg, %g N, %g N/m, %g N/m)",
             (double)p->mass, (double)p->normal_force, (double)p->k_drive, (double)p->k_couple);
  PetscCall(PetscNew(&c));
  c->comm = comm;
  c->p    = *p;
  c->law  = law;
  PetscCall(SKFrictionLawGetKernels(law, NULL, &c->rate, &c->law_ctx));
  if (!c->rate) {
    PetscCall(PetscFree(c));
    SETERRQ(comm, PETSC_ERR_SUP,
            "friction law '%s' is defined only as a discrete update and cannot drive the rigid ODE models; use lugre, coulomb-tanh or "
            "coulomb-threlfall (the exact Coulomb cycle is SKSpringSliderCoulombCycle())",
            name);
  }
  PetscCall(SKFrictionLawGetStateSize(law, 1, &c->ns));
  PetscCheck(c->ns <= 1, comm, PETSC_ERR_SUP, "rigid chains support friction laws with at most one state per tangential component");
  c->stride = 2 + c->ns;
  c->nu     = p->n * c->stride + 2;
  c->rtol   = 1e-8;
  c->atol_x = 1e-10;
  PetscCall(PetscCalloc1(p->n, &c->x0));
  PetscCall(PetscMalloc1(PetscMax(5 * p->n, c->nu), &c->buf));

  PetscCall(VecCreateSeq(PETSC_COMM_SELF, c->nu, &c->U));
  PetscCall(VecDuplicate(c->U, &c->atol));
  /* rows: x (x, v), v (x_{i-1}, x_i, x_{i+1}, v, z), z (v, z), W and D (every block unknown and themselves) */
  PetscCall(PetscMalloc1(c->nu, &nnz));
  for (PetscInt k = 0; k < c->nu; k++) nnz[k] = 5;
  nnz[IW(c)] = nnz[ID(c)] = c->nu;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, c->nu, c->nu, 0, nnz, &c->J));
  PetscCall(PetscFree(nnz));

  PetscCall(TSCreate(PETSC_COMM_SELF, &c->ts));
  PetscCall(TSSetOptionsPrefix(c->ts, prefix));
  PetscCall(TSSetProblemType(c->ts, TS_NONLINEAR));
  /* Rosenbrock-W (linearly implicit, L-stable, embedded error estimate): no Newton iterations on the |v| kink */
  PetscCall(TSSetType(c->ts, TSROSW));
  PetscCall(TSSetIFunction(c->ts, NULL, ChainIFunction, c));
  PetscCall(TSSetIJacobian(c->ts, c->J, c->J, ChainIJacobian, c));
  PetscCall(TSSetExactFinalTime(c->ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetMaxSteps(c->ts, PETSC_MAX_INT));
  PetscCall(TSSetMaxStepRejections(c->ts, -1));
  PetscCall(TSSetMaxSNESFailures(c->ts, -1));
  *chain = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainSetInitialDisplacements(SKRigidChain c, const PetscReal x0[])
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(c->x0, x0, c->p.n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainSetTolerances(SKRigidChain c, PetscReal rtol, PetscReal atol_x)
{
  PetscFunctionBegin;
  PetscCheck(rtol > 0 && atol_x > 0, c->comm, PETSC_ERR_ARG_OUTOFRANGE, "tolerances must be positive (rtol %g, atol %g m)", (double)rtol,
             (double)atol_x);
  c->rtol   = rtol;
  c->atol_x = atol_x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainGetTSType(SKRigidChain c, const char *type[])
{
  PetscFunctionBegin;
  PetscCall(TSGetType(c->ts, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills the sample at the current state. */
static PetscErrorCode ChainSample(SKRigidChain c, PetscReal t, SKRigidChainSample *smp)
{
  const SKRigidChainParams *p = &c->p;
  const PetscInt n = p->n, s = c->stride;
  const PetscScalar *u;
  PetscReal *x = c->buf, *v = x + n, *F = v + n, *z = F + n, *spring = z + n;
  const SKFrictionParams *fp;

  PetscFunctionBegin;
  PetscCall(SKFrictionLawGetParams(c->law, &fp));
  PetscCall(VecGetArrayRead(c->U, &u));
  smp->t               = t;
  smp->x_drive         = p->v_drive * t;
  smp->kinetic         = 0;
  smp->potential       = 0;
  smp->stored_friction = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal zd, Jd[4], JFv, zero = 0;
    x[i] = u[i * s];
    v[i] = u[i * s + 1];
    z[i] = c->ns ? u[i * s + 2] : 0;
    c->rate(c->law_ctx, p->normal_force, v[i] - p->v_belt, c->ns ? &z[i] : &zero, &zd, &F[i], &Jd[0], &Jd[1], &Jd[2], &JFv, NULL);
    spring[i] = p->k_drive * (smp->x_drive - x[i]);
    smp->kinetic += 0.5 * p->mass * v[i] * v[i];
    smp->potential += 0.5 * p->k_drive * (smp->x_drive - x[i]) * (smp->x_drive - x[i]);
    if (i < n - 1) smp->potential += 0.5 * p->k_couple * (u[(i + 1) * s] - x[i]) * (u[(i + 1) * s] - x[i]);
    if (c->ns) smp->stored_friction += 0.5 * fp->sigma0 * p->normal_force * z[i] * z[i];
  }
  smp->x               = x;
  smp->v               = v;
  smp->friction        = F;
  smp->z               = c->ns ? z : NULL;
  smp->spring          = spring;
  smp->work            = u[IW(c)];
  smp->friction_work   = u[ID(c)];
  smp->energy_residual = smp->kinetic + smp->potential + smp->friction_work - smp->work - c->energy0;
  PetscCall(VecRestoreArrayRead(c->U, &u));
  PetscCall(TSGetStepNumber(c->ts, &smp->steps));
  PetscCall(TSGetStepRejections(c->ts, &smp->rejected));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainSolve(SKRigidChain c, PetscReal t_end, PetscReal dt_out, SKRigidChainMonitorFn monitor, void *mctx)
{
  const SKFrictionParams *fp;
  SKRigidChainSample smp;
  PetscScalar *u, *at;
  PetscInt nout;

  PetscFunctionBegin;
  PetscCheck(t_end > 0 && dt_out > 0, c->comm, PETSC_ERR_ARG_OUTOFRANGE, "need t_end > 0 and dt_out > 0 (got %g s, %g s)", (double)t_end,
             (double)dt_out);
  PetscCall(SKFrictionLawGetParams(c->law, &fp));
  PetscCall(VecSet(c->U, 0));
  PetscCall(VecGetArray(c->U, &u));
  PetscCall(VecGetArray(c->atol, &at));
  for (PetscInt i = 0; i < c->p.n; i++) {
    u[i * c->stride]  = c->x0[i];
    at[i * c->stride] = at[i * c->stride + 1] = c->atol_x;
    if (c->ns) at[i * c->stride + 2] = 1e-6 * fp->mu_s / fp->sigma0; /* the bristle deflection lives on the scale mu_s / sigma0 */
  }
  at[IW(c)] = at[ID(c)] = c->atol_x;
  PetscCall(VecRestoreArray(c->atol, &at));
  PetscCall(VecRestoreArray(c->U, &u));
  PetscCall(TSSetTolerances(c->ts, 0, c->atol, c->rtol, NULL));
  PetscCall(TSSetTime(c->ts, 0));
  PetscCall(TSSetStepNumber(c->ts, 0));
  /* first step well below the bristle time scale sqrt(m / (sigma0 N)) and the slip time scale; the adaptor grows it */
  PetscCall(TSSetTimeStep(c->ts, PetscMin(1e-6, dt_out)));
  PetscCall(TSSetFromOptions(c->ts));
  c->energy0 = 0;
  PetscCall(ChainSample(c, 0, &smp));
  c->energy0          = smp.kinetic + smp.potential;
  smp.energy_residual = 0;
  if (monitor) PetscCall(monitor(&smp, mctx));
  nout = (PetscInt)PetscCeilReal(t_end / dt_out - 1e-9);
  for (PetscInt k = 1; k <= nout; k++) {
    PetscReal tk = PetscMin(k * dt_out, t_end), t;
    TSConvergedReason reason;
    PetscCall(TSSetMaxTime(c->ts, tk));
    PetscCall(TSSolve(c->ts, c->U));
    PetscCall(TSGetConvergedReason(c->ts, &reason));
    PetscCall(TSGetTime(c->ts, &t));
    PetscCheck(reason >= 0, c->comm, PETSC_ERR_NOT_CONVERGED,
               "the rigid-chain integrator failed at t = %g s (%s); tighten -ts_rtol or try -ts_type bdf", (double)t,
               TSConvergedReasons[reason]);
    PetscCall(ChainSample(c, tk, &smp));
    PetscCheck(PetscIsNormalReal(smp.kinetic + smp.potential + 1), c->comm, PETSC_ERR_FP,
               "the rigid chain blew up at t = %g s (energy %g J)", (double)tk, (double)(smp.kinetic + smp.potential));
    if (monitor) PetscCall(monitor(&smp, mctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidChainDestroy(SKRigidChain *chain)
{
  SKRigidChain c;

  PetscFunctionBegin;
  if (!chain || !*chain) PetscFunctionReturn(PETSC_SUCCESS);
  c = *chain;
  PetscCall(TSDestroy(&c->ts));
  PetscCall(MatDestroy(&c->J));
  PetscCall(VecDestroy(&c->U));
  PetscCall(VecDestroy(&c->atol));
  PetscCall(PetscFree(c->x0));
  PetscCall(PetscFree(c->buf));
  PetscCall(PetscFree(*chain));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ exact Coulomb spring-slider */

PetscErrorCode SKSpringSliderCoulombCycle(PetscReal m, PetscReal k, PetscReal V, PetscReal N, PetscReal mu_s, PetscReal mu_k,
                                          SKCoulombCycle *cy)
{
  PetscReal omega, Delta, beta;

  PetscFunctionBegin;
  PetscCheck(m > 0 && k > 0 && V > 0 && N > 0 && mu_s >= mu_k && mu_k >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "the Coulomb stick-slip cycle needs m, k, V, N > 0 and mu_s >= mu_k >= 0 (got %g, %g, %g, %g, %g, %g)", (double)m, (double)k,
             (double)V, (double)N, (double)mu_s, (double)mu_k);
  omega             = PetscSqrtReal(k / m);
  Delta             = (mu_s - mu_k) * N / k;
  beta              = PetscAtanReal(omega * Delta / V);
  cy->t_first       = mu_s * N / (k * V);
  cy->t_stick       = 2 * Delta / V;
  cy->t_slip        = (2 * PETSC_PI - 2 * beta) / omega;
  cy->force_max     = mu_s * N;
  cy->force_min     = (2 * mu_k - mu_s) * N;
  cy->force_drop    = 2 * (mu_s - mu_k) * N;
  cy->slip_distance = V * (cy->t_stick + cy->t_slip);
  cy->v_max         = V + PetscSqrtReal(V * V + omega * omega * Delta * Delta);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKSpringSliderCoulombExact(PetscReal m, PetscReal k, PetscReal V, PetscReal N, PetscReal mu_s, PetscReal mu_k, PetscReal t,
                                          PetscReal *x, PetscReal *v)
{
  SKCoulombCycle cy;
  PetscReal omega = PetscSqrtReal(k / m), Delta = (mu_s - mu_k) * N / k, P, tau, r, t0;
  PetscInt j;

  PetscFunctionBegin;
  PetscCall(SKSpringSliderCoulombCycle(m, k, V, N, mu_s, mu_k, &cy));
  if (t <= cy.t_first) {
    *x = 0;
    *v = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  P   = cy.t_stick + cy.t_slip;
  tau = t - cy.t_first;
  j   = (PetscInt)PetscFloorReal(tau / P);
  r   = tau - j * P;
  t0  = cy.t_first + j * P; /* start of this slip: spring extension mu_s N / k, block at rest */
  if (r < cy.t_slip) {
    PetscReal s = mu_k * N / k + Delta * PetscCosReal(omega * r) + V / omega * PetscSinReal(omega * r);
    *x          = V * (t0 + r) - s;
    *v          = V * (1 - PetscCosReal(omega * r)) + Delta * omega * PetscSinReal(omega * r);
  } else {
    *x = V * (t0 + cy.t_slip) - (2 * mu_k - mu_s) * N / k;
    *v = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
