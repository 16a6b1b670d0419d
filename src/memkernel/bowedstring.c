/* stickslip memkernel: the "bowedstring" solver (Szalai 2013, section V): reads the structure, friction and
   initial state, runs the reduced delay equation and/or the full modal model, writes histories and the kernel. */
#include <stickslip/solver.h>
#include <stickslip/memkernel.h>

typedef enum { BOW_REDUCED, BOW_FULL, BOW_BOTH, BOW_KERNEL } BowModel;

static const char *const BowModels[] = {"reduced", "full", "both", "kernel"};

typedef struct {
  char structure[32];
  PetscReal wave_speed, contact, damping;
  PetscInt modes;
  SKBowFriction friction;
  PetscReal y_start[2], t_end, dt;
  PetscReal tol, rtol, atol;
  PetscInt window, every, kernel_points;
  PetscReal kernel_end;
  BowModel model;
} BowCtx;

static PetscErrorCode BowRead(SKInput input, void **vctx)
{
  BowCtx *ctx;
  SKNode root, node, structure, time;
  PetscBool found, rtol_set;
  char model[32]         = "reduced";
  SKOptionsChecks checks = {PETSC_FALSE, ""};

  PetscFunctionBegin;
  PetscCall(PetscNew(&ctx));
  *vctx = ctx;
  PetscCall(SKInputGetRoot(input, &root));

  PetscCall(SKInputRequireChild(input, root, "structure", &structure));
  PetscCall(SKInputRequireString(input, structure, "type", ctx->structure, sizeof(ctx->structure)));
  PetscCall(SKInputRequireReal(input, structure, "damping", &ctx->damping));
  PetscCall(SKInputRequireInt(input, structure, "modes", &ctx->modes)); /* both checked after the options below */
  ctx->wave_speed = 1;
  ctx->contact    = 1;
  if (!strcmp(ctx->structure, "string")) {
    PetscCall(SKInputGetReal(input, structure, "wave_speed", &ctx->wave_speed, &found));
    PetscCall(SKInputCheck(input, structure, found, "the string needs its wave speed (attribute wave_speed, 1/s)"));
    PetscCall(SKInputCheckPositive(input, structure, "wave_speed", ctx->wave_speed));
    PetscCall(SKInputGetReal(input, structure, "contact", &ctx->contact, &found));
    PetscCall(SKInputCheck(input, structure, found, "the string needs its contact point (attribute contact, in (0, 1))"));
    PetscCall(SKInputCheck(input, structure, ctx->contact > 0 && ctx->contact < 1, "contact point xi* = %g lies outside the string (0, 1)",
                           (double)ctx->contact));
  } else {
    PetscCall(SKInputGetReal(input, structure, "contact", &ctx->contact, &found));
    PetscCall(SKInputCheck(input, structure, !found || ctx->contact == 1,
                           "the cantilever's contact point is its free end: contact = %g must be 1 or absent", (double)ctx->contact));
  }

  PetscCall(SKInputRequireChild(input, root, "friction", &node));
  PetscCall(SKInputRequireReal(input, node, "mu", &ctx->friction.mu));
  PetscCall(SKInputCheckPositive(input, node, "mu", ctx->friction.mu));
  PetscCall(SKInputRequireReal(input, node, "kappa", &ctx->friction.kappa));
  PetscCall(SKInputCheck(input, node, ctx->friction.kappa >= 0 && ctx->friction.kappa <= ctx->friction.mu,
                         "kappa = %g must lie in [0, mu = %g]: the sliding force mu - kappa cannot be negative",
                         (double)ctx->friction.kappa, (double)ctx->friction.mu));
  PetscCall(SKInputRequireReal(input, node, "sigma", &ctx->friction.sigma));
  PetscCall(SKInputCheckNonNegative(input, node, "sigma", ctx->friction.sigma));
  PetscCall(SKInputRequireReal(input, node, "bow_speed", &ctx->friction.v0));

  PetscCall(SKInputRequireChild(input, root, "initial", &node));
  PetscCall(SKInputRequireReal(input, node, "y1", &ctx->y_start[0]));
  PetscCall(SKInputRequireReal(input, node, "y2", &ctx->y_start[1]));

  PetscCall(SKInputRequireChild(input, root, "time", &time));
  PetscCall(SKInputRequireReal(input, time, "end", &ctx->t_end));
  PetscCall(SKInputCheckPositive(input, time, "end", ctx->t_end));
  PetscCall(SKInputRequireReal(input, time, "dt", &ctx->dt)); /* checked after the options below */

  ctx->tol    = 1e-10;
  ctx->window = 0;
  PetscCall(SKNodeGetChild(root, "reduced", &node));
  if (node) {
    PetscCall(SKInputGetReal(input, node, "tol", &ctx->tol, NULL));
    PetscCall(SKInputCheckPositive(input, node, "tol", ctx->tol));
    PetscCall(SKInputGetInt(input, node, "window", &ctx->window, NULL));
    PetscCall(SKInputCheck(input, node, ctx->window >= 0, "window = %" PetscInt_FMT " must be 0 (automatic) or positive", ctx->window));
  }
  ctx->rtol = 1e-9;
  ctx->atol = 1e-11;
  PetscCall(SKNodeGetChild(root, "full", &node));
  if (node) {
    PetscCall(SKInputGetReal(input, node, "rtol", &ctx->rtol, NULL));
    PetscCall(SKInputCheckPositive(input, node, "rtol", ctx->rtol));
    PetscCall(SKInputGetReal(input, node, "atol", &ctx->atol, NULL));
    PetscCall(SKInputCheckPositive(input, node, "atol", ctx->atol));
  }
  ctx->every         = 10;
  ctx->kernel_end    = 4;
  ctx->kernel_points = 2001;
  PetscCall(SKNodeGetChild(root, "output", &node));
  if (node) {
    PetscCall(SKInputGetInt(input, node, "every", &ctx->every, NULL));
    PetscCall(SKInputCheck(input, node, ctx->every >= 1, "every = %" PetscInt_FMT " must be at least 1", ctx->every));
    PetscCall(SKInputGetReal(input, node, "kernel_end", &ctx->kernel_end, NULL));
    PetscCall(SKInputCheckPositive(input, node, "kernel_end", ctx->kernel_end));
    PetscCall(SKInputGetInt(input, node, "kernel_points", &ctx->kernel_points, NULL));
    PetscCall(SKInputCheck(input, node, ctx->kernel_points >= 2 && ctx->kernel_points <= 1000000,
                           "kernel_points = %" PetscInt_FMT " must lie in [2, 1e6]", ctx->kernel_points));
  }

  /* the command-line overrides, in one options block (blocks with the same title would be listed by -help only once),
     read after the input values they override so that -help shows those as the current ones */
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bowedstring solver (the command line and <options> override the input)", NULL);
  PetscCall(SKOptionsReal(&checks, "-bowedstring_damping", "modal damping ratio (overrides <structure damping>)", "", ctx->damping,
                          &ctx->damping, NULL, "[0, 1)"));
  PetscCall(SKOptionsInt(&checks, "-bowedstring_modes", "modes of the structure (overrides <structure modes>)", "", ctx->modes, &ctx->modes,
                         NULL, "[1, 1e7]"));
  PetscCall(SKOptionsReal(&checks, "-bowedstring_dt", "time step (s; overrides <time dt>)", "", ctx->dt, &ctx->dt, NULL, "(0, inf)"));
  PetscCall(SKOptionsReal(&checks, "-bowedstring_full_rtol",
                          "relative tolerance of the full model (overrides <full rtol>; atol = 1e-2 rtol)", "", ctx->rtol, &ctx->rtol,
                          &rtol_set, "(0, inf)"));
  if (rtol_set) ctx->atol = 1e-2 * ctx->rtol; /* the input's ratio */
  PetscCall(PetscOptionsString("-bowedstring_model", "model to run: reduced, full, both or kernel", "", model, model, sizeof(model), NULL));
  PetscOptionsEnd();
  PetscCall(SKOptionsCheck(PETSC_COMM_WORLD, &checks));

  PetscCall(SKInputCheck(input, structure, ctx->damping >= 0 && ctx->damping < 1,
                         "damping ratio D = %g must lie in [0, 1) (an underdamped structure)", (double)ctx->damping));
  PetscCall(SKInputCheck(input, structure, ctx->modes >= 1, "no modes: modes = %" PetscInt_FMT " must be at least 1", ctx->modes));
  PetscCall(
      SKInputCheck(input, structure, ctx->modes <= 10000000, "modes = %" PetscInt_FMT " is unreasonably large (at most 1e7)", ctx->modes));
  PetscCall(SKInputCheckPositive(input, time, "dt", ctx->dt));
  PetscCall(
      SKInputCheck(input, time, ctx->dt <= ctx->t_end, "dt = %g s exceeds the horizon end = %g s", (double)ctx->dt, (double)ctx->t_end));
  PetscCall(SKInputCheck(input, time, ctx->t_end / ctx->dt <= 1e9, "end / dt = %g steps is too many", (double)(ctx->t_end / ctx->dt)));
  {
    PetscBool known = PETSC_FALSE;

    for (PetscInt m = 0; m < 4; m++)
      if (!strcmp(model, BowModels[m])) {
        ctx->model = (BowModel)m;
        known      = PETSC_TRUE;
      }
    PetscCall(SKInputCheck(input, root, known, "option -bowedstring_model %s is unknown (known: reduced, full, both, kernel)", model));
  }
  /* a model's trajectory keeps its samples in memory until it is written, in arrays that double as they grow (up to
     three times the samples' bytes while one grows): refuse what cannot fit before the run starts */
  if (ctx->model != BOW_KERNEL) {
    const PetscReal samples = PetscFloorReal(ctx->t_end / (ctx->dt * ctx->every)) + 1;
    const PetscReal need = 3 * samples * (PetscReal)(4 * sizeof(PetscReal) + sizeof(PetscInt)), have = SKMachineMemory();

    PetscCall(SKInputCheck(input, time, need <= have,
                           "%.6g samples (end %g s, one every %" PetscInt_FMT " steps of dt %g s) would need up to %.3g GB of memory, more "
                           "than the %.3g GB this run may use: raise <output every> or dt, or lower the end time",
                           (double)samples, (double)ctx->t_end, ctx->every, (double)ctx->dt, (double)(need / 1e9), (double)(have / 1e9)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BowDestroy(void **vctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*vctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* BowRead() under the solver contract (a refused input leaves nothing behind). */
static PetscErrorCode BowSetup(SKInput input, void **vctx)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, vctx, BowRead, BowDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kernel tables: [L1]_2 on a linear grid (0, kernel_end] and on a logarithmic one down to kernel_end 1e-5 (the
   power law of the beam near 0, Fig. III.3(b)); columns tau (s), L1 (m/s per N). */
static PetscErrorCode WriteKernel(const BowCtx *ctx, const SKModalData *md, SKOutput out)
{
  const PetscInt n = ctx->kernel_points;
  PetscReal *tau, *l1, *table, A[4], linf[2];
  PetscInt dims[2]    = {n, 2};
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &tau, n, &l1, 2 * n, &table));
  for (PetscInt grid = 0; grid < 2 && !ierr; grid++) {
    for (PetscInt j = 0; j < n; j++)
      tau[j] = grid == 0 ? ctx->kernel_end * j / (n - 1) : ctx->kernel_end * PetscPowReal(10.0, -5.0 + 5.0 * j / (n - 1));
    ierr = SKMemoryKernelL1(md, 0, n, tau, l1);
    if (ierr) break;
    for (PetscInt j = 0; j < n; j++) {
      table[2 * j]     = tau[j];
      table[2 * j + 1] = l1[j];
    }
    ierr = SKOutputWriteRealArray(out, grid == 0 ? "/bowedstring/kernel" : "/bowedstring/kernel_log", 2, dims, table);
  }
  PetscCall(PetscFree3(tau, l1, table)); /* also when a write fails */
  PetscCall(ierr);
  PetscCall(SKMemoryKernelConstants(md, 0, A, linf));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/kernel", "L_inf", linf[1]));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/kernel", "A21", A[2]));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/kernel", "A22", A[3]));
  if (!strcmp(ctx->structure, "string"))
    PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/kernel", "L1_right_limit_closed_form",
                                         SKMemoryStringL1RightLimit(ctx->wave_speed, ctx->damping)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* History /bowedstring/NAME (t, y1, y2, force, stick), events /bowedstring/NAME_events (t, kind, before, after) and
   the limit-cycle measures as attributes of the history. */
static PetscErrorCode WriteTrajectory(const BowCtx *ctx, const char name[], const SKBowTrajectory *traj, PetscLogDouble wall, SKOutput out)
{
  static const char *const cols[]  = {"t", "y1", "y2", "force", "stick"};
  static const char *const units[] = {"s", "m", "m/s", "N", "1"};
  char path[64], epath[64];
  SKHistory hist;
  PetscReal *ev, period, stick;
  PetscInt dims[2] = {traj->nevents, 4};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/bowedstring/%s", name));
  PetscCall(PetscSNPrintf(epath, sizeof(epath), "/bowedstring/%s_events", name));
  PetscCall(SKOutputHistoryCreate(out, path, 5, cols, units, &hist));
  PetscCall(SKHistorySetFlushInterval(hist, 4096));
  for (PetscInt i = 0; i < traj->nsamples; i++) {
    PetscReal row[5] = {traj->t[i], traj->y1[i], traj->y2[i], traj->force[i], (PetscReal)traj->stick[i]};

    PetscCall(SKHistoryAppend(hist, row));
  }
  PetscCall(PetscMalloc1(4 * PetscMax(traj->nevents, 1), &ev));
  for (PetscInt e = 0; e < traj->nevents; e++) {
    ev[4 * e]     = traj->event_t[e];
    ev[4 * e + 1] = traj->event_kind[e];
    ev[4 * e + 2] = traj->event_force_before[e];
    ev[4 * e + 3] = traj->event_force_after[e];
  }
  ierr = traj->nevents > 0 ? SKOutputWriteRealArray(out, epath, 2, dims, ev) : PETSC_SUCCESS;
  PetscCall(PetscFree(ev));
  PetscCall(ierr);
  PetscCall(SKOutputWriteAttributeReal(out, path, "wall_time", (PetscReal)wall));
  PetscCall(SKOutputWriteAttributeInt(out, path, "steps", traj->steps));
  PetscCall(SKOutputSummary(out, name, "%" PetscInt_FMT " steps, %" PetscInt_FMT " stick/slip events, %.3f s", traj->steps, traj->nevents,
                            (double)wall));
  /* The limit cycle over the second half of the run, if the motion sticks there. */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKBowTrajectoryLimitCycle(traj, 0.5 * ctx->t_end, 0, &period, &stick);
  PetscCall(PetscPopErrorHandler());
  if (ierr == PETSC_SUCCESS) {
    PetscCall(SKOutputWriteAttributeReal(out, path, "period", period));
    PetscCall(SKOutputWriteAttributeReal(out, path, "stick_duration", stick));
    PetscCall(SKOutputSummary(out, name, "limit cycle: period %.6f s, stick duration %.6f s", (double)period, (double)stick));
  } else {
    PetscReal last = -1;

    for (PetscInt e = 0; e < traj->nevents; e++)
      if (traj->event_kind[e] == 0) last = traj->event_t[e];
    PetscCall(
        SKOutputSummary(out, name, "no stick-slip limit cycle in the second half of the run (last release at t = %g s)", (double)last));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a run holds, freed by BowWorkRelease() whether the run ends or stops with an error. */
typedef struct {
  SKModalData md;
  SKBowTrajectory traj; /* of the model being run */
  SKProgress progress;
} BowWork;

static PetscErrorCode BowRunWith(void *vctx, SKOutput out, void *work)
{
  BowCtx *ctx = (BowCtx *)vctx;
  BowWork *w  = (BowWork *)work;

  PetscFunctionBegin;
  if (!strcmp(ctx->structure, "string"))
    PetscCall(SKModalDataCreateString(ctx->modes, ctx->wave_speed, ctx->contact, ctx->damping, &w->md));
  else
    PetscCall(SKModalDataCreateCantilever(ctx->modes, ctx->damping, &w->md));
  PetscCall(SKOutputWriteAttributeString(out, "/bowedstring", "structure", ctx->structure));
  PetscCall(SKOutputWriteAttributeString(out, "/bowedstring", "model", BowModels[ctx->model]));
  PetscCall(SKOutputWriteAttributeInt(out, "/bowedstring", "modes", ctx->modes));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring", "damping", ctx->damping));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring", "dt", ctx->dt));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring", "mu", ctx->friction.mu));
  PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring", "bow_speed", ctx->friction.v0));
  PetscCall(WriteKernel(ctx, &w->md, out));
  if (ctx->model == BOW_REDUCED || ctx->model == BOW_BOTH) {
    SKMemoryReducedSettings s = {ctx->dt, ctx->tol, ctx->window, 0, NULL};
    SKMemoryReducedInfo info;
    PetscLogDouble t0, t1;

    PetscCall(SKProgressCreate(PETSC_COMM_WORLD, "bowedstring reduced", 0, ctx->t_end, &w->progress));
    s.progress = w->progress;
    PetscCall(SKWallTime(&t0));
    PetscCall(SKMemoryReducedSolve(&w->md, &ctx->friction, &s, ctx->y_start, ctx->t_end, ctx->every, &w->traj, &info));
    PetscCall(SKWallTime(&t1));
    PetscCall(SKProgressDestroy(&w->progress));
    PetscCall(WriteTrajectory(ctx, "reduced", &w->traj, t1 - t0, out));
    PetscCall(SKOutputWriteAttributeInt(out, "/bowedstring/reduced", "window", info.window));
    PetscCall(SKOutputWriteAttributeInt(out, "/bowedstring/reduced", "far_modes", info.far_modes));
    PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/reduced", "history_error_bound", info.error_bound));
    PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/reduced", "jump_weight", info.jump_weight));
    PetscCall(SKOutputSummary(out, "reduced",
                              "history: window %" PetscInt_FMT " steps + %" PetscInt_FMT " far modes of %" PetscInt_FMT
                              ", convolution error <= %.2e",
                              info.window, info.far_modes, ctx->modes, (double)info.error_bound));
    PetscCall(SKBowTrajectoryReset(&w->traj));
  }
  if (ctx->model == BOW_FULL || ctx->model == BOW_BOTH) {
    SKMemoryFullSettings s = {ctx->rtol, ctx->atol, 0, NULL};
    PetscLogDouble t0, t1;

    PetscCall(SKProgressCreate(PETSC_COMM_WORLD, "bowedstring full", 0, ctx->t_end, &w->progress));
    s.progress = w->progress;
    PetscCall(SKWallTime(&t0));
    PetscCall(SKMemoryFullSolve(&w->md, &ctx->friction, &s, ctx->y_start, ctx->t_end, ctx->every * ctx->dt, &w->traj));
    PetscCall(SKWallTime(&t1));
    PetscCall(SKProgressDestroy(&w->progress));
    PetscCall(WriteTrajectory(ctx, "full", &w->traj, t1 - t0, out));
    PetscCall(SKOutputWriteAttributeInt(out, "/bowedstring/full", "rhs_evaluations", w->traj.rhs_evals));
    PetscCall(SKOutputWriteAttributeReal(out, "/bowedstring/full", "energy_residual", w->traj.energy_residual));
    PetscCall(SKOutputSummary(out, "full", "energy balance: |E - E0 + damping loss - friction work| = %.2e (relative)",
                              (double)w->traj.energy_residual));
    PetscCall(SKBowTrajectoryReset(&w->traj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BowWorkRelease(void *work)
{
  BowWork *w = (BowWork *)work;

  PetscFunctionBegin;
  PetscCall(SKProgressDestroy(&w->progress));
  PetscCall(SKBowTrajectoryReset(&w->traj));
  PetscCall(SKModalDataReset(&w->md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BowRun(void *ctx, SKOutput out)
{
  BowWork w;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&w, sizeof(w)));
  PetscCall(SKSolverRunWith(ctx, out, &w, BowRunWith, BowWorkRelease));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverBowedString = {
    "bowedstring",
    "bowedstring.xsd",
    "bowed string / point friction on a linear structure: memory-kernel reduction and full modal model (Szalai 2013)",
    BowSetup,
    BowRun,
    BowDestroy};
