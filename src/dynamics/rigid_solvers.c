/* dynamics: the "springslider" and "burridgeknopoff" studies (section 3 of lugre-mortar-explicit-contact-2024): reading
   and checking their inputs, running the rigid chain of rigid.c (or the exact Coulomb spring-slider for the Coulomb
   return-mapping laws) and writing results.h5 (layout in docs/validation/bk.md). */
#include <stickslip/rigid.h>

#define RIGID_MAX_BLOCKS 10000

typedef struct {
  const char *root; /* "springslider" or "burridgeknopoff" */
  char prefix[32];
  SKRigidChainParams p;
  SKTimeFunction force;
  PetscBool has_force;
  SKFrictionLaw law;
  PetscBool exact; /* Coulomb return-mapping law on the spring-slider: the closed-form trajectory */
  PetscReal *x0;   /* initial displacements (m) */
  PetscReal perturbation;
  PetscReal t_end, dt_out, rtol, atol;
} RigidCtx;

/* ------------------------------------------------------------------ setup */

static PetscErrorCode ReadBlocks(SKInput input, SKNode node, RigidCtx *ctx)
{
  PetscReal g = 9.81, N = 0;
  PetscBool has_N;

  PetscFunctionBegin;
  PetscCall(SKInputRequireReal(input, node, "mass", &ctx->p.mass));
  PetscCall(SKInputCheckPositive(input, node, "mass", ctx->p.mass));
  PetscCall(SKInputGetReal(input, node, "gravity", &g, NULL));
  PetscCall(SKInputCheckNonNegative(input, node, "gravity", g));
  PetscCall(SKInputGetReal(input, node, "normal_force", &N, &has_N));
  if (has_N) PetscCall(SKInputCheckNonNegative(input, node, "normal_force", N));
  ctx->p.normal_force = has_N ? N : ctx->p.mass * g;
  PetscCall(SKInputCheck(input, node, ctx->p.normal_force > 0,
                         "the normal force on a block is 0 (gravity = 0 and no normal_force): nothing would hold the blocks"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadSpring(SKInput input, SKNode parent, const char name[], PetscReal *k, PetscReal *v)
{
  SKNode node;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(input, parent, name, &node));
  PetscCall(SKInputRequireReal(input, node, "stiffness", k));
  PetscCall(SKInputCheckNonNegative(input, node, "stiffness", *k));
  if (v) PetscCall(SKInputGetReal(input, node, "velocity", v, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <friction>, <time>, optional <surface> and <force>: shared by both studies. */
static PetscErrorCode ReadCommon(SKInput input, SKNode root, RigidCtx *ctx)
{
  SKNode node, fn;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(input, root, "friction", &node));
  PetscCall(SKFrictionLawCreateFromXML(input, node, &ctx->law));
  {
    SKFrictionRateFn rate;
    const char *name;
    PetscCall(SKFrictionLawGetKernels(ctx->law, NULL, &rate, NULL));
    PetscCall(SKFrictionLawGetName(ctx->law, &name));
    ctx->exact = rate ? PETSC_FALSE : PETSC_TRUE;
    PetscCall(SKInputCheck(input, node, !ctx->exact || ctx->p.n == 1,
                           "friction law '%s' is a discrete return mapping without a continuous form: the Burridge-Knopoff chain needs "
                           "lugre, coulomb-tanh or coulomb-threlfall",
                           name));
  }
  PetscCall(SKNodeGetChild(root, "surface", &node));
  if (node) PetscCall(SKInputGetReal(input, node, "velocity", &ctx->p.v_belt, NULL));
  PetscCall(SKNodeGetChild(root, "force", &node));
  if (node) {
    PetscCall(SKInputRequireChild(input, node, "function", &fn));
    PetscCall(SKTimeFunctionFromXML(input, fn, &ctx->force));
    ctx->has_force = PETSC_TRUE;
    ctx->p.force   = &ctx->force;
  }
  PetscCall(SKInputRequireChild(input, root, "time", &node));
  PetscCall(SKInputRequireReal(input, node, "end", &ctx->t_end));
  PetscCall(SKInputCheckPositive(input, node, "end", ctx->t_end));
  ctx->dt_out = 1e-3;
  PetscCall(SKInputGetReal(input, node, "output", &ctx->dt_out, NULL));
  PetscCall(SKInputCheckPositive(input, node, "output", ctx->dt_out));
  PetscCall(SKInputCheck(input, node, ctx->t_end / ctx->dt_out <= 1e7, "end / output = %g output rows is too many (at most 1e7)",
                         (double)(ctx->t_end / ctx->dt_out)));
  ctx->rtol = 1e-8;
  ctx->atol = 1e-10;
  PetscCall(SKInputGetReal(input, node, "rtol", &ctx->rtol, NULL));
  PetscCall(SKInputCheck(input, node, ctx->rtol > 0 && ctx->rtol < 0.1, "rtol = %g must lie in (0, 0.1)", (double)ctx->rtol));
  PetscCall(SKInputGetReal(input, node, "atol", &ctx->atol, NULL));
  PetscCall(SKInputCheckPositive(input, node, "atol", ctx->atol));
  if (ctx->exact) {
    const SKFrictionParams *fp;
    PetscCall(SKFrictionLawGetParams(ctx->law, &fp));
    PetscCall(SKInputCheck(input, root, !ctx->has_force && ctx->p.v_belt == 0 && ctx->p.k_drive > 0 && ctx->p.v_drive > 0,
                           "with a Coulomb return-mapping law the rigid spring-slider is solved in closed form, which needs a driven "
                           "spring (stiffness, velocity > 0), a fixed surface and no <force>"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidCtxCreate(SKInput input, const char root_name[], void **vctx, RigidCtx **ctx, SKNode *root)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(ctx));
  *vctx        = *ctx;
  (*ctx)->root = root_name;
  PetscCall(PetscSNPrintf((*ctx)->prefix, sizeof((*ctx)->prefix), "%s_", root_name));
  PetscCall(SKRigidChainReadOptions(PETSC_COMM_SELF, (*ctx)->prefix));
  PetscCall(SKInputGetRoot(input, root));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpringSliderRead(SKInput input, void **vctx)
{
  RigidCtx *ctx;
  SKNode root, node;

  PetscFunctionBegin;
  PetscCall(RigidCtxCreate(input, "springslider", vctx, &ctx, &root));
  ctx->p.n = 1;
  PetscCall(SKInputRequireChild(input, root, "block", &node));
  PetscCall(ReadBlocks(input, node, ctx));
  PetscCall(ReadSpring(input, root, "spring", &ctx->p.k_drive, &ctx->p.v_drive));
  PetscCall(PetscCalloc1(1, &ctx->x0));
  PetscCall(ReadCommon(input, root, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BurridgeKnopoffRead(SKInput input, void **vctx)
{
  RigidCtx *ctx;
  SKNode root, node;
  PetscInt nx0 = RIGID_MAX_BLOCKS;
  PetscBool has_x0;

  PetscFunctionBegin;
  PetscCall(RigidCtxCreate(input, "burridgeknopoff", vctx, &ctx, &root));
  PetscCall(SKInputRequireChild(input, root, "blocks", &node));
  PetscCall(SKInputRequireInt(input, node, "n", &ctx->p.n));
  PetscCall(SKInputCheck(input, node, ctx->p.n >= 1 && ctx->p.n <= RIGID_MAX_BLOCKS, "n = %" PetscInt_FMT " blocks must lie in [1, %d]",
                         ctx->p.n, RIGID_MAX_BLOCKS));
  PetscCall(ReadBlocks(input, node, ctx));
  PetscCall(PetscCalloc1(RIGID_MAX_BLOCKS, &ctx->x0));
  PetscCall(SKInputGetRealList(input, node, "initial", &nx0, ctx->x0, &has_x0));
  if (has_x0) {
    PetscCall(SKInputCheck(input, node, nx0 == ctx->p.n, "initial lists %" PetscInt_FMT " displacements for n = %" PetscInt_FMT " blocks",
                           nx0, ctx->p.n));
  } else {
    /* The symmetric chain needs a perturbation to desynchronise (section 3.2). A golden-ratio sequence in [-1/2, 1/2)
       is deterministic, needs no random generator and never repeats. */
    PetscCall(SKInputGetReal(input, node, "perturbation", &ctx->perturbation, NULL));
    PetscCall(SKInputCheckNonNegative(input, node, "perturbation", ctx->perturbation));
    for (PetscInt i = 0; i < ctx->p.n; i++) {
      PetscReal q = (i + 1) * 0.6180339887498949;
      ctx->x0[i]  = ctx->perturbation * (q - PetscFloorReal(q) - 0.5);
    }
  }
  PetscCall(ReadSpring(input, root, "support", &ctx->p.k_drive, &ctx->p.v_drive));
  PetscCall(ReadSpring(input, root, "coupling", &ctx->p.k_couple, NULL));
  PetscCall(ReadCommon(input, root, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidDestroy(void **vctx)
{
  RigidCtx *ctx = (RigidCtx *)*vctx;

  PetscFunctionBegin;
  if (ctx) {
    if (ctx->has_force) PetscCall(SKTimeFunctionReset(&ctx->force));
    PetscCall(SKFrictionLawDestroy(&ctx->law));
    PetscCall(PetscFree(ctx->x0));
  }
  PetscCall(PetscFree(*vctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The readers under the solver contract (a refused input leaves nothing behind). */
static PetscErrorCode SpringSliderSetup(SKInput input, void **vctx)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, vctx, SpringSliderRead, RigidDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BurridgeKnopoffSetup(SKInput input, void **vctx)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, vctx, BurridgeKnopoffRead, RigidDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ run */

enum { H_X, H_V, H_F, H_SPRING, H_Z, H_NBLOCK };

typedef struct {
  RigidCtx *ctx;
  SKHistory block[H_NBLOCK]; /* t + one column per block (x also has x_drive) */
  SKHistory centre, energy;
  PetscReal *row;
  PetscReal *stick_time, t_prev, max_residual, max_work;
  PetscInt nslip_events, nrows;
  PetscBool *was_sticking;
  const SKFrictionParams *fp;
} RigidWriter;

static PetscErrorCode CreateBlockHistory(SKOutput out, const char root[], const char name[], const char unit[], PetscInt n, PetscBool drive,
                                         SKHistory *h)
{
  PetscInt ncol = 1 + n + (drive ? 1 : 0), c = 0;
  char **names;
  const char **units;
  char path[128];

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(ncol, &names, ncol, &units));
  PetscCall(PetscStrallocpy("t", &names[c]));
  units[c++] = "s";
  if (drive) {
    PetscCall(PetscStrallocpy("x_drive", &names[c]));
    units[c++] = "m";
  }
  for (PetscInt i = 0; i < n; i++) {
    char buf[64];
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_%" PetscInt_FMT, name, i + 1));
    PetscCall(PetscStrallocpy(buf, &names[c]));
    units[c++] = unit;
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "/%s/%s", root, name));
  PetscCall(SKOutputHistoryCreate(out, path, ncol, (const char *const *)names, units, h));
  PetscCall(SKHistorySetFlushInterval(*h, 1024));
  for (PetscInt k = 0; k < ncol; k++) PetscCall(PetscFree(names[k]));
  PetscCall(PetscFree2(names, units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteSample(const SKRigidChainSample *s, void *vw)
{
  RigidWriter *w   = (RigidWriter *)vw;
  const PetscInt n = w->ctx->p.n;
  const PetscReal *cols[H_NBLOCK];
  PetscReal xm = 0, vm = 0, Ft = 0, dt = s->t - w->t_prev;

  PetscFunctionBegin;
  cols[H_X]      = s->x;
  cols[H_V]      = s->v;
  cols[H_F]      = s->friction;
  cols[H_SPRING] = s->spring;
  cols[H_Z]      = s->z;
  for (PetscInt h = 0; h < H_NBLOCK; h++) {
    PetscInt c = 0;
    if (!w->block[h]) continue;
    w->row[c++] = s->t;
    if (h == H_X) w->row[c++] = s->x_drive;
    for (PetscInt i = 0; i < n; i++) w->row[c++] = cols[h][i];
    PetscCall(SKHistoryAppend(w->block[h], w->row));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscBool stick = SKFrictionIsSticking(w->fp, PetscAbsReal(s->v[i] - w->ctx->p.v_belt));
    xm += s->x[i] / n;
    vm += s->v[i] / n;
    Ft += s->friction[i];
    /* sticking time: a sample interval counts as sticking when both ends stick (section 3.2 definition) */
    if (w->nrows > 0 && stick && w->was_sticking[i]) w->stick_time[i] += dt;
    if (w->nrows > 0 && !stick && w->was_sticking[i]) w->nslip_events++;
    w->was_sticking[i] = stick;
  }
  {
    PetscReal row[6] = {s->t, xm, vm, Ft, Ft / (n * w->ctx->p.normal_force), 0};
    PetscCall(SKHistoryAppend(w->centre, row));
  }
  {
    PetscReal row[9] = {s->t,
                        s->kinetic,
                        s->potential,
                        s->work,
                        s->friction_work,
                        s->stored_friction,
                        s->friction_work - s->stored_friction,
                        s->energy_residual,
                        s->energy_residual / PetscMax(PetscAbsReal(s->work), 1e-300)};
    PetscCall(SKHistoryAppend(w->energy, row));
  }
  w->max_residual = PetscMax(w->max_residual, PetscAbsReal(s->energy_residual));
  w->max_work     = PetscMax(w->max_work, PetscAbsReal(s->work));
  w->t_prev       = s->t;
  w->nrows++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The closed-form Coulomb spring-slider sampled like the ODE model: friction mu_k N while slipping, the spring force while
   stuck; dissipation mu_k N x (the block only moves forward); the work follows from the energy identity, so the
   residual is zero by construction (there is no integration error to measure). */
static PetscErrorCode SolveExactCoulomb(RigidCtx *ctx, RigidWriter *w)
{
  const SKRigidChainParams *p = &ctx->p;
  const SKFrictionParams *fp  = w->fp;
  PetscInt nout               = (PetscInt)PetscCeilReal(ctx->t_end / ctx->dt_out - 1e-9);
  SKRigidChainSample s;
  PetscReal x, v, F, spring;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&s, sizeof(s)));
  s.x        = &x;
  s.v        = &v;
  s.friction = &F;
  s.spring   = &spring;
  for (PetscInt k = 0; k <= nout; k++) {
    s.t = PetscMin(k * ctx->dt_out, ctx->t_end);
    PetscCall(SKSpringSliderCoulombExact(p->mass, p->k_drive, p->v_drive, p->normal_force, fp->mu_s, fp->mu_k, s.t, &x, &v));
    s.x_drive       = p->v_drive * s.t;
    spring          = p->k_drive * (s.x_drive - x);
    F               = v > 0 ? fp->mu_k * p->normal_force : spring;
    s.kinetic       = 0.5 * p->mass * v * v;
    s.potential     = 0.5 * spring * spring / p->k_drive;
    s.friction_work = fp->mu_k * p->normal_force * x;
    s.work          = s.kinetic + s.potential + s.friction_work;
    PetscCall(WriteSample(&s, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a run holds, freed by RigidWorkRelease() whether the run ends or stops with an error. */
typedef struct {
  RigidWriter w;
  SKRigidChain chain;
} RigidWork;

static PetscErrorCode RigidRunWith(void *vctx, SKOutput out, void *work)
{
  RigidCtx *ctx           = (RigidCtx *)vctx;
  RigidWriter *w          = &((RigidWork *)work)->w;
  SKRigidChain *chain_out = &((RigidWork *)work)->chain;
  const PetscInt n        = ctx->p.n;
  SKRigidChain chain;
  const char *law_name, *ts_type = "closed form";
  char group[64];
  PetscInt ns;
  PetscLogDouble t0, t1;
  SKRigidChainSample last;

  PetscFunctionBegin;
  PetscCall(SKWallTime(&t0));
  PetscCall(PetscMemzero(&last, sizeof(last)));
  w->ctx = ctx;
  PetscCall(SKFrictionLawGetParams(ctx->law, &w->fp));
  PetscCall(SKFrictionLawGetName(ctx->law, &law_name));
  PetscCall(SKFrictionLawGetStateSize(ctx->law, 1, &ns));
  PetscCall(PetscMalloc1(n + 2, &w->row));
  PetscCall(PetscCalloc2(n, &w->stick_time, n, &w->was_sticking));

  PetscCall(CreateBlockHistory(out, ctx->root, "x", "m", n, PETSC_TRUE, &w->block[H_X]));
  PetscCall(CreateBlockHistory(out, ctx->root, "v", "m/s", n, PETSC_FALSE, &w->block[H_V]));
  PetscCall(CreateBlockHistory(out, ctx->root, "friction", "N", n, PETSC_FALSE, &w->block[H_F]));
  PetscCall(CreateBlockHistory(out, ctx->root, "spring", "N", n, PETSC_FALSE, &w->block[H_SPRING]));
  if (ns && !ctx->exact) PetscCall(CreateBlockHistory(out, ctx->root, "z", "m", n, PETSC_FALSE, &w->block[H_Z]));
  {
    const char *cols[5]  = {"t", "x_mean", "v_mean", "friction_total", "cof_global"};
    const char *units[5] = {"s", "m", "m/s", "N", "1"};
    PetscCall(PetscSNPrintf(group, sizeof(group), "/%s/centre", ctx->root));
    PetscCall(SKOutputHistoryCreate(out, group, 5, cols, units, &w->centre));
    PetscCall(SKHistorySetFlushInterval(w->centre, 1024));
  }
  {
    const char *cols[9]  = {"t",           "kinetic",  "potential",        "work", "friction_work", "stored_friction",
                            "dissipation", "residual", "relative_residual"};
    const char *units[9] = {"s", "J", "J", "J", "J", "J", "J", "J", "1"};
    PetscCall(PetscSNPrintf(group, sizeof(group), "/%s/energy", ctx->root));
    PetscCall(SKOutputHistoryCreate(out, group, 9, cols, units, &w->energy));
    PetscCall(SKHistorySetFlushInterval(w->energy, 1024));
  }
  PetscCall(PetscSNPrintf(group, sizeof(group), "/%s", ctx->root));
  PetscCall(SKOutputWriteAttributeString(out, group, "friction_law", law_name));
  PetscCall(SKOutputWriteAttributeInt(out, group, "n", n));
  PetscCall(SKOutputWriteAttributeReal(out, group, "mass", ctx->p.mass));
  PetscCall(SKOutputWriteAttributeReal(out, group, "normal_force", ctx->p.normal_force));
  PetscCall(SKOutputWriteAttributeReal(out, group, "k_drive", ctx->p.k_drive));
  PetscCall(SKOutputWriteAttributeReal(out, group, "k_couple", ctx->p.k_couple));
  PetscCall(SKOutputWriteAttributeReal(out, group, "v_drive", ctx->p.v_drive));
  PetscCall(SKOutputWriteAttributeReal(out, group, "v_belt", ctx->p.v_belt));
  PetscCall(SKOutputWriteAttributeReal(out, group, "mu_s", w->fp->mu_s));
  PetscCall(SKOutputWriteAttributeReal(out, group, "mu_k", w->fp->mu_k));
  PetscCall(SKOutputWriteAttributeReal(out, group, "v_s", w->fp->v_s));
  PetscCall(SKOutputWriteAttributeReal(out, group, "theta", w->fp->theta));
  PetscCall(SKOutputWriteAttributeReal(out, group, "sigma0", w->fp->sigma0));
  PetscCall(SKOutputWriteAttributeReal(out, group, "sigma1", w->fp->sigma1));
  PetscCall(SKOutputWriteAttributeReal(out, group, "sigma2", w->fp->sigma2));
  PetscCall(SKOutputWriteAttributeReal(out, group, "stick_threshold", SKFrictionStickThreshold(w->fp)));
  {
    PetscInt dims[1] = {n};
    char path[96];
    PetscCall(PetscSNPrintf(path, sizeof(path), "/%s/initial_displacement", ctx->root));
    PetscCall(SKOutputWriteRealArray(out, path, 1, dims, ctx->x0));
  }
  /* the closed-form Coulomb cycle of the driven spring-slider, for comparison (docs/theory.md) */
  if (n == 1 && ctx->p.k_drive > 0 && ctx->p.v_drive > 0 && w->fp->mu_s >= w->fp->mu_k) {
    SKCoulombCycle cy;
    PetscCall(SKSpringSliderCoulombCycle(ctx->p.mass, ctx->p.k_drive, ctx->p.v_drive, ctx->p.normal_force, w->fp->mu_s, w->fp->mu_k, &cy));
    PetscCall(SKOutputWriteAttributeReal(out, group, "coulomb_t_first", cy.t_first));
    PetscCall(SKOutputWriteAttributeReal(out, group, "coulomb_t_stick", cy.t_stick));
    PetscCall(SKOutputWriteAttributeReal(out, group, "coulomb_t_slip", cy.t_slip));
    PetscCall(SKOutputWriteAttributeReal(out, group, "coulomb_force_drop", cy.force_drop));
    PetscCall(SKOutputSummary(out, "coulomb_cycle", "first stick %.4f s, stick %.4f s, slip %.4f s, spring force drop %.4f N",
                              (double)cy.t_first, (double)cy.t_stick, (double)cy.t_slip, (double)cy.force_drop));
  }

  if (ctx->exact) {
    PetscCall(SolveExactCoulomb(ctx, w));
  } else {
    PetscCall(SKRigidChainCreate(PETSC_COMM_SELF, &ctx->p, ctx->law, ctx->prefix, chain_out));
    chain = *chain_out;
    PetscCall(SKRigidChainSetInitialDisplacements(chain, ctx->x0));
    PetscCall(SKRigidChainSetTolerances(chain, ctx->rtol, ctx->atol));
    PetscCall(SKRigidChainSolve(chain, ctx->t_end, ctx->dt_out, WriteSample, w));
    PetscCall(SKRigidChainGetTSType(chain, &ts_type));
  }
  PetscCall(SKWallTime(&t1));
  for (PetscInt i = 0; i < n; i++) w->stick_time[i] /= ctx->t_end;
  {
    PetscInt dims[1] = {n};
    char path[96];
    PetscCall(PetscSNPrintf(path, sizeof(path), "/%s/sticking_time_ratio", ctx->root));
    PetscCall(SKOutputWriteRealArray(out, path, 1, dims, w->stick_time));
  }
  PetscCall(SKOutputWriteAttributeReal(out, group, "energy_residual", w->max_residual / PetscMax(w->max_work, 1e-300)));
  PetscCall(SKOutputWriteAttributeReal(out, group, "wall_time", (PetscReal)(t1 - t0)));
  PetscCall(SKOutputWriteAttributeString(out, group, "integrator", ts_type));
  PetscCall(SKOutputSummary(out, "model", "%" PetscInt_FMT " rigid block%s, friction law %s, %s", n, n > 1 ? "s" : "", law_name, ts_type));
  PetscCall(SKOutputSummary(out, "output_rows", "%" PetscInt_FMT, w->nrows));
  {
    PetscReal mean = 0;
    for (PetscInt i = 0; i < n; i++) mean += w->stick_time[i] / n;
    PetscCall(SKOutputSummary(out, "sticking_time_ratio", "%.4f (mean over blocks; threshold %g m/s)", (double)mean,
                              (double)SKFrictionStickThreshold(w->fp)));
  }
  PetscCall(SKOutputSummary(out, "slip_events", "%" PetscInt_FMT, w->nslip_events));
  PetscCall(SKOutputSummary(out, "energy_residual", "%.3e (max |E - E0 + D - W| / max |W|)",
                            (double)(w->max_residual / PetscMax(w->max_work, 1e-300))));
  PetscCall(SKOutputSummary(out, "wall_time", "%.3f s", (double)(t1 - t0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidWorkRelease(void *work)
{
  RigidWork *r = (RigidWork *)work;

  PetscFunctionBegin;
  PetscCall(SKRigidChainDestroy(&r->chain));
  PetscCall(PetscFree(r->w.row));
  PetscCall(PetscFree2(r->w.stick_time, r->w.was_sticking));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidRun(void *ctx, SKOutput out)
{
  RigidWork work;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&work, sizeof(work)));
  PetscCall(SKSolverRunWith(ctx, out, &work, RigidRunWith, RigidWorkRelease));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverSpringSlider = {
    "springslider",
    "springslider.xsd",
    "rigid spring-slider with LuGre / regularised friction (adaptive stiff TS) or the exact Coulomb solution (section 3.1)",
    SpringSliderSetup,
    RigidRun,
    RigidDestroy};
const SKSolverType SKSolverBurridgeKnopoff = {"burridgeknopoff",
                                              "burridgeknopoff.xsd",
                                              "Burridge-Knopoff chain of rigid blocks with LuGre friction (adaptive stiff TS, section 3.2)",
                                              BurridgeKnopoffSetup,
                                              RigidRun,
                                              RigidDestroy};
