/* rod1d: the "bars2020" study (Molenkamp et al. 2020): two bars with Threlfall friction over their moving overlap,
   advanced by the exact per-step modal Duhamel update, or the linear equivalent stepped bar of section 2.3. */
#include <stickslip/rod1d.h>
#include <stickslip/timefunction.h>
#include "barsimpl.h"

#define BARS_MAX_POINTS 64

typedef struct {
  PetscBool linear;          /* model type="linear": the stepped bar instead of the friction model */
  SKBarsCosineFamily fam[2]; /* bar 1 free-free (offset 0), bar 2 free at z = 0, fixed at z = L2 (offset 1/2) */
  PetscReal EA[2];           /* N */
  PetscReal muN, k;          /* N/m, - */
  PetscReal v95;             /* m/s; eq. 7 unless given */
  PetscBool implicit;        /* friction from the end-of-step relative velocity (default) or from that at t_i (paper) */
  PetscReal overlap0;        /* u0(0), m */
  SKTimeFunction load;       /* F(t) at x = 0 of bar 1, N */
  PetscReal t_end, dt;       /* s */
  PetscInt nsteps, out_every, nfield, linear_modes;
  PetscReal omega_max; /* highest modal frequency of the friction model, rad/s */
  PetscReal quad_h;    /* spacing of the midpoint rule over the overlap, m */
  PetscInt npoint[2];  /* output points of bar 1 (x) and bar 2 (z) */
  PetscReal point[2][BARS_MAX_POINTS];
} Bars2020Ctx;

/* A set of modes advanced together: the cosine family of one bar, or the stepped bar of the linear model. */
typedef struct {
  PetscInt n;
  PetscReal *omega, *mass, *g; /* rad/s, kg, phi(x_F)/mass (1/kg; NULL: unloaded) */
  PetscReal *eta, *etadot, *eta_old, *q, *proj, *S, *C;
  PetscReal *vfree;   /* modal velocities at the end of the step without friction (implicit friction update) */
  PetscReal *Sw, *Cw; /* Duhamel integrals over part of the step, scratch of LoadWork() */
  SKBarsStepCoef *coef;
} BarsModes;

/* Samples of a bar for output: NS points, TABLE[NS x n] mode values there. */
typedef struct {
  BarsModes *modes;
  PetscInt ns;
  PetscReal *table;
} BarsSampler;

static PetscErrorCode BarsModesCreate(PetscInt n, PetscBool loaded, BarsModes *m)
{
  PetscFunctionBegin;
  m->n = n;
  PetscCall(PetscCalloc5(n, &m->omega, n, &m->mass, n, &m->eta, n, &m->etadot, n, &m->eta_old));
  PetscCall(PetscCalloc7(n, &m->q, n, &m->proj, n, &m->S, n, &m->C, n, &m->vfree, n, &m->Sw, n, &m->Cw));
  PetscCall(PetscCalloc1(n, &m->coef));
  m->g = NULL;
  if (loaded) PetscCall(PetscCalloc1(n, &m->g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BarsModesFinish(BarsModes *m, PetscReal dt)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < m->n; j++) SKBarsStepCoefCompute(m->omega[j], dt, &m->coef[j]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BarsModesDestroy(BarsModes *m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(m->omega, m->mass, m->eta, m->etadot, m->eta_old));
  PetscCall(PetscFree7(m->q, m->proj, m->S, m->C, m->vfree, m->Sw, m->Cw));
  PetscCall(PetscFree(m->coef));
  PetscCall(PetscFree(m->g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Modal velocities at the end of the step if no friction acted (load only; S, C of the step already computed). */
static void BarsModesFreeVelocity(BarsModes *m)
{
  for (PetscInt j = 0; j < m->n; j++)
    m->vfree[j] = -m->coef[j].wsw * m->eta[j] + m->coef[j].cw * m->etadot[j] + (m->g ? m->g[j] * m->C[j] : 0);
}

static void BarsSample(const BarsSampler *s, PetscBool velocity, PetscReal out[])
{
  const PetscReal *a = velocity ? s->modes->etadot : s->modes->eta;
  for (PetscInt p = 0; p < s->ns; p++) {
    const PetscReal *row = s->table + p * s->modes->n;
    PetscReal v          = 0;
    for (PetscInt j = 0; j < s->modes->n; j++) v += row[j] * a[j];
    out[p] = v;
  }
}

/* ------------------------------------------------------------------ setup */

static PetscErrorCode ReadBar(SKInput input, SKNode root, const char name[], PetscReal offset, Bars2020Ctx *ctx, PetscInt b)
{
  SKNode node;
  PetscReal EA = 0, c = 0;
  PetscBool hasEA, hasc;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(input, root, name, &node));
  ctx->fam[b].offset = offset;
  PetscCall(SKInputRequireReal(input, node, "rhoA", &ctx->fam[b].rhoA));
  PetscCall(SKInputCheckPositive(input, node, "rhoA", ctx->fam[b].rhoA));
  PetscCall(SKInputRequireReal(input, node, "length", &ctx->fam[b].length));
  PetscCall(SKInputCheckPositive(input, node, "length", ctx->fam[b].length));
  PetscCall(SKInputGetReal(input, node, "EA", &EA, &hasEA));
  PetscCall(SKInputGetReal(input, node, "c", &c, &hasc));
  PetscCall(SKInputCheck(input, node, hasEA != hasc, "<%s> needs exactly one of EA (N) and c (m/s)%s", name, hasEA ? ", not both" : ""));
  if (hasEA) {
    PetscCall(SKInputCheckPositive(input, node, "EA", EA));
    c = PetscSqrtReal(EA / ctx->fam[b].rhoA);
  } else {
    PetscCall(SKInputCheckPositive(input, node, "c", c));
    EA = ctx->fam[b].rhoA * c * c;
  }
  ctx->fam[b].c = c;
  ctx->EA[b]    = EA;
  PetscCall(SKInputRequireInt(input, node, "modes", &ctx->fam[b].n));
  /* bar 1 needs its rigid mode and at least one flexible mode */
  PetscCall(SKInputCheck(input, node, ctx->fam[b].n >= 2 - b, "<%s> modes = %" PetscInt_FMT " is too few (need at least %d)", name,
                         ctx->fam[b].n, 2 - (int)b));
  PetscCall(SKInputCheck(input, node, ctx->fam[b].n <= 100000, "<%s> modes = %" PetscInt_FMT " is unreasonably large (at most 100000)",
                         name, ctx->fam[b].n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads and checks the input into CTX (allocated by the caller, which frees it when this fails). */
static PetscErrorCode Bars2020Read(SKInput input, Bars2020Ctx *ctx)
{
  SKNode root, node, fn;
  char model[32] = "threlfall", update[32] = "implicit";
  PetscReal dt = 0, dt_max, interval = 0, ppw = 16, lambda_min;
  PetscBool has_dt, has_v95, has_int, flg, modes_set, dt_set;
  PetscInt modes_opt;
  SKOptionsChecks checks = {PETSC_FALSE, ""};

  PetscFunctionBegin;
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(ReadBar(input, root, "bar1", 0.0, ctx, 0));
  PetscCall(ReadBar(input, root, "bar2", 0.5, ctx, 1));

  PetscCall(SKInputRequireChild(input, root, "friction", &node));
  PetscCall(SKInputRequireReal(input, node, "muN", &ctx->muN));
  PetscCall(SKInputCheckNonNegative(input, node, "muN", ctx->muN));
  ctx->k = 3;
  PetscCall(SKInputGetReal(input, node, "k", &ctx->k, NULL));
  PetscCall(SKInputCheckPositive(input, node, "k", ctx->k));
  PetscCall(SKInputRequireReal(input, node, "overlap", &ctx->overlap0));
  PetscCall(SKInputCheckPositive(input, node, "overlap", ctx->overlap0));
  PetscCall(SKInputCheck(input, node, ctx->overlap0 <= ctx->fam[0].length && ctx->overlap0 < ctx->fam[1].length,
                         "overlap = %g m must not exceed the length of bar 1 (%g m) and must stay below that of bar 2 (%g m)",
                         (double)ctx->overlap0, (double)ctx->fam[0].length, (double)ctx->fam[1].length));
  PetscCall(SKInputGetReal(input, node, "v95", &ctx->v95, &has_v95));
  if (has_v95) PetscCall(SKInputCheckPositive(input, node, "v95", ctx->v95));

  PetscCall(SKInputRequireChild(input, root, "load", &node));
  PetscCall(SKInputRequireChild(input, node, "function", &fn));
  PetscCall(SKTimeFunctionFromXML(input, fn, &ctx->load));
  PetscCall(SKInputCheck(input, fn, ctx->load.type != SK_TF_TABLE || ctx->load.ntable <= SK_BARS_MAX_SEGMENTS,
                         "bars2020 load tables may have at most %d points (got %" PetscInt_FMT ")", SK_BARS_MAX_SEGMENTS,
                         ctx->load.ntable));

  PetscCall(SKInputRequireChild(input, root, "time", &node));
  PetscCall(SKInputRequireReal(input, node, "end", &ctx->t_end));
  PetscCall(SKInputCheckPositive(input, node, "end", ctx->t_end));
  PetscCall(SKInputGetReal(input, node, "dt", &dt, &has_dt));
  /* the command-line overrides, in one options block (blocks with the same title would be listed by -help only once)
     after the input values they override, so that -help shows those as the current ones; mode-truncation studies
     (eq. 29) rerun an input with fewer modes in both bars */
  modes_opt = ctx->fam[0].n;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bars2020 solver (the command line and <options> override the input)", NULL);
  PetscCall(SKOptionsInt(&checks, "-bars2020_modes", "modes in both bars (overrides <bar1 modes> and <bar2 modes>)", "", modes_opt,
                         &modes_opt, &modes_set, "[2, inf)"));
  PetscCall(SKOptionsReal(&checks, "-bars2020_dt",
                          "time step (s; overrides <time dt>; 0: none given, then a tenth of the shortest modal period)", "", dt, &dt,
                          &dt_set, "(0, inf)"));
  PetscOptionsEnd();
  PetscCall(SKOptionsCheck(PETSC_COMM_WORLD, &checks));
  if (modes_set) ctx->fam[0].n = ctx->fam[1].n = modes_opt;
  if (dt_set) has_dt = PETSC_TRUE;
  {
    PetscReal w1   = (ctx->fam[0].n - 1 + ctx->fam[0].offset) * PETSC_PI * ctx->fam[0].c / ctx->fam[0].length;
    PetscReal w2   = (ctx->fam[1].n - 1 + ctx->fam[1].offset) * PETSC_PI * ctx->fam[1].c / ctx->fam[1].length;
    ctx->omega_max = PetscMax(w1, w2);
  }
  /* section 2.2: the step must stay below a tenth of the shortest period of the modes included */
  dt_max = 2 * PETSC_PI / ctx->omega_max / 10;
  if (has_dt) {
    PetscCall(SKInputCheckPositive(input, node, "dt", dt));
    PetscCall(
        SKInputCheck(input, node, dt <= dt_max * (1 + 1e-12),
                     "dt = %g s is above a tenth of the shortest modal period (%g s for omega_max = %g rad/s); lower dt or the mode counts",
                     (double)dt, (double)dt_max, (double)ctx->omega_max));
    ctx->nsteps = (PetscInt)PetscCeilReal(ctx->t_end / dt - 1e-9);
  } else {
    ctx->nsteps = (PetscInt)PetscCeilReal(ctx->t_end / dt_max);
  }
  ctx->dt = ctx->t_end / ctx->nsteps; /* land exactly on t_end */
  PetscCall(SKInputCheck(input, node, ctx->nsteps <= 100000000, "end / dt = %" PetscInt_FMT " steps is too many", ctx->nsteps));
  if (!has_v95) ctx->v95 = SKBarsV95(ctx->muN, ctx->dt, ctx->fam[0].rhoA);

  PetscCall(SKInputRequireChild(input, root, "output", &node));
  for (PetscInt b = 0; b < 2; b++) {
    const char *attr = b ? "bar2" : "bar1";
    ctx->npoint[b]   = BARS_MAX_POINTS;
    PetscCall(SKInputGetRealList(input, node, attr, &ctx->npoint[b], ctx->point[b], &flg));
    if (!flg) ctx->npoint[b] = 0;
    for (PetscInt p = 0; p < ctx->npoint[b]; p++)
      PetscCall(SKInputCheck(input, node, ctx->point[b][p] >= 0 && ctx->point[b][p] <= ctx->fam[b].length,
                             "output point %s = %g m lies outside bar %d [0, %g] m", attr, (double)ctx->point[b][p], (int)b + 1,
                             (double)ctx->fam[b].length));
  }
  ctx->nfield = 81;
  PetscCall(SKInputGetInt(input, node, "field_points", &ctx->nfield, NULL));
  PetscCall(SKInputCheck(input, node, ctx->nfield >= 2 && ctx->nfield <= 10000, "field_points = %" PetscInt_FMT " must lie in [2, 10000]",
                         ctx->nfield));
  PetscCall(SKInputGetReal(input, node, "interval", &interval, &has_int));
  if (has_int) PetscCall(SKInputCheckPositive(input, node, "interval", interval));
  ctx->out_every = has_int ? PetscMax(1, (PetscInt)PetscFloorReal(interval / ctx->dt + 1e-9)) : 1;

  ctx->linear_modes = 0;
  PetscCall(SKNodeGetChild(root, "model", &node));
  if (node) {
    PetscCall(SKInputGetString(input, node, "type", model, sizeof(model), NULL));
    PetscCall(SKInputGetInt(input, node, "modes", &ctx->linear_modes, &flg));
    if (flg)
      PetscCall(SKInputCheck(input, node, ctx->linear_modes >= 1, "modes = %" PetscInt_FMT " must be at least 1", ctx->linear_modes));
    PetscCall(SKInputGetReal(input, node, "points_per_wavelength", &ppw, NULL));
    PetscCall(SKInputCheck(input, node, ppw >= 2, "points_per_wavelength = %g must be at least 2", (double)ppw));
    PetscCall(SKInputGetString(input, node, "friction_update", update, sizeof(update), NULL));
  }
  PetscCall(PetscStrcmp(update, "implicit", &ctx->implicit));
  if (!ctx->implicit) {
    PetscBool ok;
    PetscCall(PetscStrcmp(update, "explicit", &ok));
    PetscCall(SKInputCheck(input, node, ok, "friction_update = '%s' is unknown (known: implicit, explicit)", update));
  }
  PetscCall(PetscStrcmp(model, "linear", &ctx->linear));
  if (!ctx->linear) {
    PetscBool ok;
    PetscCall(PetscStrcmp(model, "threlfall", &ok));
    PetscCall(SKInputCheck(input, node, ok, "model type = '%s' is unknown (known: threlfall, linear)", model));
  }
  /* overlap quadrature: PPW points per shortest modal wavelength of either bar */
  lambda_min  = PetscMin(2 * ctx->fam[0].length / PetscMax(1, ctx->fam[0].n - 1), 4 * ctx->fam[1].length / (2 * ctx->fam[1].n - 1));
  ctx->quad_h = lambda_min / ppw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Bars2020Destroy(void **vctx)
{
  Bars2020Ctx *ctx = (Bars2020Ctx *)*vctx;

  PetscFunctionBegin;
  if (ctx) PetscCall(SKTimeFunctionReset(&ctx->load));
  PetscCall(PetscFree(*vctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The context, set as soon as it exists, read from INPUT. */
static PetscErrorCode Bars2020New(SKInput input, void **vctx)
{
  Bars2020Ctx *ctx;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ctx));
  *vctx = ctx;
  PetscCall(Bars2020Read(input, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the context is handed out only when the input is good, so a refused input leaks nothing */
static PetscErrorCode Bars2020Setup(SKInput input, void **vctx)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, vctx, Bars2020New, Bars2020Destroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ run */

/* Work of the load over [t, t + dt]: int F(tau) u1dot(0, tau) dtau with u1dot(0, tau) = sum_j phi_j(0) etadot_j(tau) from
   the closed-form intra-step solution, by the same piecewise Gauss rule as the Duhamel integrals. Independent of the
   update itself, so the energy balance checks it. */
static PetscErrorCode LoadWork(const SKTimeFunction *f, BarsModes *m, const PetscReal phi0[], PetscReal t, PetscReal dt, PetscReal *work)
{
  static const PetscReal gx[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  static const PetscReal gw[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  PetscReal bp[SK_BARS_MAX_SEGMENTS + 2];
  PetscInt nb;

  PetscFunctionBegin;
  *work      = 0;
  nb         = SKBarsLoadBreakpoints(f, t, t + dt, SK_BARS_MAX_SEGMENTS, bp + 1);
  bp[0]      = t;
  bp[nb + 1] = t + dt;
  for (PetscInt p = 0; p <= nb; p++) {
    PetscReal half = 0.5 * (bp[p + 1] - bp[p]), mid = 0.5 * (bp[p + 1] + bp[p]);
    for (PetscInt g = 0; g < 4; g++) {
      PetscReal tau = mid + half * gx[g], F = SKTimeFunctionEval(f, tau), v = 0;
      if (F == 0) continue;
      PetscCall(SKBarsLoadDuhamel(f, t, tau, m->n, m->omega, m->Sw, m->Cw));
      for (PetscInt j = 0; j < m->n; j++) {
        SKBarsStepCoef c;
        SKBarsStepCoefCompute(m->omega[j], tau - t, &c);
        v += phi0[j] * (-c.wsw * m->eta[j] + c.cw * m->etadot[j] + m->g[j] * m->Cw[j] + (m->q ? m->q[j] * c.sw : 0));
      }
      *work += half * gw[g] * F * v;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  SKHistory hist[2], field_u[2], field_v[2], energy;
  PetscReal buf[2 * BARS_MAX_POINTS + 1];
  PetscReal *fbuf;
} BarsWriters;

static PetscErrorCode MakeNames(const char prefix[], const char sym[], PetscInt n, const PetscReal x[], const char unit[], char ***names,
                                char ***units)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, names));
  PetscCall(PetscMalloc1(n + 1, units));
  for (PetscInt i = 0; i <= n; i++) {
    char buf[64];
    if (i == 0)
      PetscCall(PetscSNPrintf(buf, sizeof(buf), "t"));
    else
      PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s(%s=%g)", prefix, sym, (double)x[i - 1]));
    PetscCall(PetscStrallocpy(buf, &(*names)[i]));
    PetscCall(PetscStrallocpy(i == 0 ? "s" : unit, &(*units)[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeNames(PetscInt n, char ***names, char ***units)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i <= n; i++) {
    PetscCall(PetscFree((*names)[i]));
    PetscCall(PetscFree((*units)[i]));
  }
  PetscCall(PetscFree(*names));
  PetscCall(PetscFree(*units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One history with columns t, u at the points, v at the points. */
static PetscErrorCode PointHistoryCreate(SKOutput out, const char path[], const char sym[], PetscInt n, const PetscReal x[], SKHistory *h)
{
  char **names, **units, **vn, **vu;
  char **all, **allu;

  PetscFunctionBegin;
  PetscCall(MakeNames("u", sym, n, x, "m", &names, &units));
  PetscCall(MakeNames("v", sym, n, x, "m/s", &vn, &vu));
  PetscCall(PetscMalloc2(2 * n + 1, &all, 2 * n + 1, &allu));
  for (PetscInt i = 0; i <= n; i++) {
    all[i]  = names[i];
    allu[i] = units[i];
  }
  for (PetscInt i = 1; i <= n; i++) {
    all[n + i]  = vn[i];
    allu[n + i] = vu[i];
  }
  PetscCall(SKOutputHistoryCreate(out, path, 2 * n + 1, (const char *const *)all, (const char *const *)allu, h));
  PetscCall(SKHistorySetFlushInterval(*h, 256));
  PetscCall(PetscFree2(all, allu));
  PetscCall(FreeNames(n, &names, &units));
  PetscCall(FreeNames(n, &vn, &vu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldHistoryCreate(SKOutput out, const char path[], const char q[], const char sym[], PetscInt n, const PetscReal x[],
                                         const char unit[], SKHistory *h)
{
  char **names, **units;

  PetscFunctionBegin;
  PetscCall(MakeNames(q, sym, n, x, unit, &names, &units));
  PetscCall(SKOutputHistoryCreate(out, path, n + 1, (const char *const *)names, (const char *const *)units, h));
  PetscCall(SKHistorySetFlushInterval(*h, 256));
  PetscCall(FreeNames(n, &names, &units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal work, dissipation, e0;
} BarsEnergy;

static PetscErrorCode WriteRow(Bars2020Ctx *ctx, BarsSampler smp[2][2], BarsWriters *w, BarsModes *set[2], PetscInt nset, PetscReal t,
                               PetscReal overlap, const BarsEnergy *en)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < 2; b++) {
    PetscInt n = ctx->npoint[b];
    if (n) {
      w->buf[0] = t;
      BarsSample(&smp[b][0], PETSC_FALSE, w->buf + 1);
      BarsSample(&smp[b][0], PETSC_TRUE, w->buf + 1 + n);
      PetscCall(SKHistoryAppend(w->hist[b], w->buf));
    }
    w->fbuf[0] = t;
    BarsSample(&smp[b][1], PETSC_FALSE, w->fbuf + 1);
    PetscCall(SKHistoryAppend(w->field_u[b], w->fbuf));
    BarsSample(&smp[b][1], PETSC_TRUE, w->fbuf + 1);
    PetscCall(SKHistoryAppend(w->field_v[b], w->fbuf));
  }
  {
    PetscReal row[8] = {t, overlap, 0, 0, en->work, en->dissipation, 0, 0};
    for (PetscInt s = 0; s < nset; s++) row[2 + s] = SKBarsModalEnergy(set[s]->n, set[s]->omega, set[s]->mass, set[s]->eta, set[s]->etadot);
    row[6] = row[2] + row[3] + row[5] - row[4] - en->e0;
    row[7] = row[6] / PetscMax(PetscAbsReal(row[4]), PETSC_SMALL);
    PetscCall(SKHistoryAppend(w->energy, row));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scratch of the overlap quadrature: points in bar 1 (x) and bar 2 (z) coordinates, velocities, weighted forces. */
typedef struct {
  PetscInt cap;
  PetscReal *x, *z, *v1, *v2, *wT;
} BarsQuad;

/* Friction integrals of eqs. 15-16 by the midpoint rule over the contact, bar-1 points x in [max(0, L1 - u0), L1] facing
   bar-2 points z = x - L1 + u0; fills proj (N m per mode) of both bars. The relative velocity of eq. 5 is that of the
   modal velocities VEL1, VEL2: etadot(t_i) for the paper's explicit update, or the friction-free end-of-step velocities,
   from which SKBarsThrelfallImplicit() finds the force consistent with the end-of-step relative velocity. */
static void FrictionIntegrals(const Bars2020Ctx *ctx, PetscReal u0, const PetscReal vel1[], const PetscReal vel2[], BarsQuad *qd,
                              BarsModes *b1, BarsModes *b2)
{
  /* a friction force density held over the step changes the relative velocity by dt (1/rho1A1 + 1/rho2A2) per N/m */
  PetscReal r  = ctx->dt * (1 / ctx->fam[0].rhoA + 1 / ctx->fam[1].rhoA);
  PetscReal L1 = ctx->fam[0].length, x0 = PetscMax(0, L1 - u0), len = PetscMax(0, L1 - x0);
  PetscInt nq = PetscMin(qd->cap, (PetscInt)PetscCeilReal(len / ctx->quad_h));
  PetscReal w = nq ? len / nq : 0;

  for (PetscInt j = 0; j < b1->n; j++) b1->proj[j] = 0;
  for (PetscInt j = 0; j < b2->n; j++) b2->proj[j] = 0;
  for (PetscInt q = 0; q < nq; q++) {
    qd->x[q] = x0 + (q + 0.5) * w;
    qd->z[q] = qd->x[q] - L1 + u0;
  }
  SKBarsCosineFamilyEval(&ctx->fam[0], vel1, nq, qd->x, qd->v1);
  SKBarsCosineFamilyEval(&ctx->fam[1], vel2, nq, qd->z, qd->v2);
  for (PetscInt q = 0; q < nq; q++) {
    PetscReal dv = qd->v1[q] - qd->v2[q]; /* eq. 5 */
    qd->wT[q] =
        w * (ctx->implicit ? SKBarsThrelfallImplicit(dv, r, ctx->muN, ctx->k, ctx->v95) : SKBarsThrelfall(dv, ctx->muN, ctx->k, ctx->v95));
  }
  SKBarsCosineFamilyProject(&ctx->fam[0], nq, qd->x, qd->wT, b1->proj);
  SKBarsCosineFamilyProject(&ctx->fam[1], nq, qd->z, qd->wT, b2->proj);
}

/* The modal sets of the Threlfall model (section 2.2): the cosine family of each bar, bar 1 loaded at x = 0. */
static PetscErrorCode ThrelfallModesCreate(const Bars2020Ctx *ctx, BarsModes modes[2], BarsModes *set[2])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < 2; b++) {
    PetscCall(BarsModesCreate(ctx->fam[b].n, b == 0, &modes[b]));
    PetscCall(SKBarsCosineFamilyModes(&ctx->fam[b], modes[b].omega, modes[b].mass));
    PetscCall(BarsModesFinish(&modes[b], ctx->dt));
    set[b] = &modes[b];
  }
  for (PetscInt j = 0; j < modes[0].n; j++) modes[0].g[j] = 1.0 / modes[0].mass[j]; /* phi_j(0) = 1, eq. 15 */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one modal set of the linear equivalent model (section 2.3): the stepped bar ST (free part of bar 1, the overlap
   where both bars move together (masses and stiffnesses add), the rest of bar 2; zero-length segments are dropped) and
   its NLIN modes, the given number or every root below the friction model's omega_max. */
static PetscErrorCode LinearModesCreate(const Bars2020Ctx *ctx, SKBarsStepped *st, BarsModes modes[2], BarsModes *set[2], PetscInt *nlin)
{
  PetscReal *w, tau = 0, L1 = ctx->fam[0].length, L2 = ctx->fam[1].length;
  PetscInt ntry, n = 0;

  PetscFunctionBegin;
  st->nseg = 0;
  if (L1 - ctx->overlap0 > 0) {
    st->rhoA[st->nseg]  = ctx->fam[0].rhoA;
    st->EA[st->nseg]    = ctx->EA[0];
    st->len[st->nseg++] = L1 - ctx->overlap0;
  }
  st->rhoA[st->nseg]  = ctx->fam[0].rhoA + ctx->fam[1].rhoA;
  st->EA[st->nseg]    = ctx->EA[0] + ctx->EA[1];
  st->len[st->nseg++] = ctx->overlap0;
  st->rhoA[st->nseg]  = ctx->fam[1].rhoA;
  st->EA[st->nseg]    = ctx->EA[1];
  st->len[st->nseg++] = L2 - ctx->overlap0;
  for (PetscInt i = 0; i < st->nseg; i++) tau += st->len[i] * PetscSqrtReal(st->rhoA[i] / st->EA[i]);
  if (ctx->linear_modes)
    n = ctx->linear_modes;
  else {
    /* the same frequency content as the friction model: every root below its omega_max */
    ntry = (PetscInt)(ctx->omega_max * tau / PETSC_PI) + 16;
    PetscCall(PetscMalloc1(ntry, &w));
    PetscCall(SKBarsSteppedRoots(st, ntry, w));
    for (n = 0; n < ntry && w[n] <= ctx->omega_max; n++) {}
    PetscCall(PetscFree(w));
  }
  PetscCall(BarsModesCreate(n, PETSC_TRUE, &modes[0]));
  PetscCall(SKBarsSteppedRoots(st, n, modes[0].omega));
  for (PetscInt j = 0; j < n; j++) {
    modes[0].mass[j] = SKBarsSteppedModalMass(st, modes[0].omega[j]);
    modes[0].g[j]    = 1.0 / modes[0].mass[j]; /* phi_j(0) = 1 by normalisation, eq. 26 */
  }
  PetscCall(BarsModesFinish(&modes[0], ctx->dt));
  set[0] = &modes[0];
  set[1] = &modes[0];
  *nlin  = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The samplers of each bar: its output points (kind 0) and its field grid XF (kind 1), each a table of the mode shapes
   of SET at the points (cosines, or the stepped bar ST's modes for the linear model). */
static PetscErrorCode SamplersCreate(const Bars2020Ctx *ctx, BarsModes *set[2], const SKBarsStepped *st, PetscReal *xf[2],
                                     BarsSampler smp[2][2])
{
  PetscInt nf = ctx->nfield;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < 2; b++)
    for (PetscInt i = 0; i < nf; i++) xf[b][i] = ctx->fam[b].length * i / (nf - 1);
  for (PetscInt b = 0; b < 2; b++) {
    for (PetscInt kind = 0; kind < 2; kind++) {
      BarsSampler *s      = &smp[b][kind];
      const PetscReal *xs = kind ? xf[b] : ctx->point[b];
      s->modes            = set[b];
      s->ns               = kind ? nf : ctx->npoint[b];
      PetscCall(PetscMalloc1(s->ns * s->modes->n + 1, &s->table));
      for (PetscInt p = 0; p < s->ns; p++) {
        PetscReal *row = s->table + p * s->modes->n;
        if (!ctx->linear) {
          for (PetscInt j = 0; j < s->modes->n; j++)
            row[j] = PetscCosReal((j + ctx->fam[b].offset) * PETSC_PI * xs[p] / ctx->fam[b].length);
        } else {
          /* bar 2 point z sits at L1 - u0 + z of the stepped bar */
          PetscReal sp = b ? ctx->fam[0].length - ctx->overlap0 + xs[p] : xs[p];
          for (PetscInt j = 0; j < s->modes->n; j++) row[j] = SKBarsSteppedModeValue(st, s->modes->omega[j], sp);
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run's attributes under /bars2020 and its histories: points and fields of each bar, and the energy balance. */
static PetscErrorCode OutputsCreate(const Bars2020Ctx *ctx, SKOutput out, PetscInt nlin, PetscReal *xf[2], BarsWriters *wr)
{
  const char *cols[8]  = {"t", "overlap", "energy_bar1", "energy_bar2", "work_load", "dissipation", "residual", "relative_residual"};
  const char *units[8] = {"s", "m", "J", "J", "J", "J", "J", "1"};
  PetscInt nf          = ctx->nfield;

  PetscFunctionBegin;
  PetscCall(SKOutputWriteAttributeString(out, "/bars2020", "model", ctx->linear ? "linear" : "threlfall"));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "dt", ctx->dt));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "v95", ctx->v95));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "muN", ctx->muN));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "omega_max", ctx->omega_max));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "overlap0", ctx->overlap0));
  PetscCall(SKOutputWriteAttributeInt(out, "/bars2020", "modes_bar1", ctx->linear ? nlin : ctx->fam[0].n));
  PetscCall(SKOutputWriteAttributeInt(out, "/bars2020", "modes_bar2", ctx->linear ? nlin : ctx->fam[1].n));
  for (PetscInt b = 0; b < 2; b++) {
    const char *sym = b ? "z" : "x";
    if (ctx->npoint[b])
      PetscCall(PointHistoryCreate(out, b ? "/bars2020/bar2" : "/bars2020/bar1", sym, ctx->npoint[b], ctx->point[b], &wr->hist[b]));
    PetscCall(FieldHistoryCreate(out, b ? "/bars2020/field/bar2_u" : "/bars2020/field/bar1_u", "u", sym, nf, xf[b], "m", &wr->field_u[b]));
    PetscCall(
        FieldHistoryCreate(out, b ? "/bars2020/field/bar2_v" : "/bars2020/field/bar1_v", "v", sym, nf, xf[b], "m/s", &wr->field_v[b]));
  }
  PetscCall(SKOutputHistoryCreate(out, "/bars2020/energy", 8, cols, units, &wr->energy));
  PetscCall(SKHistorySetFlushInterval(wr->energy, 256));
  PetscCall(PetscMalloc1(nf + 1, &wr->fbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The modal friction loads q of the Threlfall model for the step from T: the friction integrals over the current
   overlap (which follows the rigid-body mode of bar 1; section 2.2: deformation does not change it; u0 <= 0 means the
   bars have separated), with the explicit or the implicit relative velocity. */
static PetscErrorCode FrictionLoads(const Bars2020Ctx *ctx, PetscReal t, BarsQuad *qd, BarsModes modes[2])
{
  PetscReal overlap = ctx->overlap0 + modes[0].eta[0], L2 = ctx->fam[1].length;

  PetscFunctionBegin;
  PetscCheck(overlap < L2, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
             "bar 1 reached the fixed end of bar 2 at t = %g s (overlap %g m >= L2 = %g m); shorten the run", (double)t, (double)overlap,
             (double)L2);
  if (ctx->muN > 0 && ctx->implicit) {
    for (PetscInt b = 0; b < 2; b++) BarsModesFreeVelocity(&modes[b]);
    FrictionIntegrals(ctx, overlap, modes[0].vfree, modes[1].vfree, qd, &modes[0], &modes[1]);
  } else if (ctx->muN > 0)
    FrictionIntegrals(ctx, overlap, modes[0].etadot, modes[1].etadot, qd, &modes[0], &modes[1]);
  for (PetscInt b = 0; b < 2; b++) {
    PetscReal sign = b ? 1 : -1; /* friction acts -T on bar 1 and +T on bar 2 (eqs. 1-2 with T2 = -T1 at matched points) */
    for (PetscInt j = 0; j < modes[b].n; j++) modes[b].q[j] = ctx->muN > 0 ? sign * modes[b].proj[j] / modes[b].mass[j] : 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One step from T: the load's Duhamel integrals, the friction loads, the modal update of every set, the load work and
   friction dissipation booked into EN, and the energy residual's running maximum MAX_RESID; a non-finite energy stops
   the run. */
static PetscErrorCode Bars2020Step(const Bars2020Ctx *ctx, PetscReal t, BarsModes modes[2], BarsModes *set[2], PetscInt nset,
                                   const PetscReal phi0[], BarsQuad *qd, BarsEnergy *en, PetscReal *max_resid)
{
  PetscReal dW, e = 0;

  PetscFunctionBegin;
  PetscCall(SKBarsLoadDuhamel(&ctx->load, t, t + ctx->dt, set[0]->n, set[0]->omega, set[0]->S, set[0]->C));
  if (!ctx->linear) PetscCall(FrictionLoads(ctx, t, qd, modes));
  PetscCall(LoadWork(&ctx->load, set[0], phi0, t, ctx->dt, &dW));
  for (PetscInt s = 0; s < nset; s++) {
    BarsModes *m = set[s];
    PetscCall(PetscArraycpy(m->eta_old, m->eta, m->n));
    SKBarsModalStep(m->n, m->coef, m->g, m->S, m->C, ctx->linear ? NULL : m->q, m->eta, m->etadot);
  }
  en->work += dW;
  if (!ctx->linear && ctx->muN > 0) {
    /* work of the step-constant friction forces: sum_q w T (du1 - du2) = sum_j proj1_j deta_j - sum_m proj2_m dzeta_m */
    for (PetscInt j = 0; j < modes[0].n; j++) en->dissipation += modes[0].proj[j] * (modes[0].eta[j] - modes[0].eta_old[j]);
    for (PetscInt j = 0; j < modes[1].n; j++) en->dissipation -= modes[1].proj[j] * (modes[1].eta[j] - modes[1].eta_old[j]);
  }
  for (PetscInt s = 0; s < nset; s++) e += SKBarsModalEnergy(set[s]->n, set[s]->omega, set[s]->mass, set[s]->eta, set[s]->etadot);
  PetscCheck(PetscIsNormalReal(e) || e == 0, PETSC_COMM_SELF, PETSC_ERR_FP, "energy is %g at t = %g s: the run is unstable; lower dt",
             (double)e, (double)t);
  *max_resid = PetscMax(*max_resid, PetscAbsReal(e + en->dissipation - en->work - en->e0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one-screen summary of a run and its wall time attribute. */
static PetscErrorCode Bars2020Summary(const Bars2020Ctx *ctx, SKOutput out, BarsModes *set[2], const BarsEnergy *en, PetscReal max_resid,
                                      PetscLogDouble wall)
{
  PetscFunctionBegin;
  PetscCall(SKOutputSummary(out, "model", "%s", ctx->linear ? "linear equivalent (stepped bar)" : "Threlfall friction, modal"));
  PetscCall(SKOutputSummary(out, "modes", "%" PetscInt_FMT " + %" PetscInt_FMT, set[0]->n, ctx->linear ? 0 : set[1]->n));
  PetscCall(SKOutputSummary(out, "steps", "%" PetscInt_FMT " of dt = %g s", ctx->nsteps, (double)ctx->dt));
  if (!ctx->linear) PetscCall(SKOutputSummary(out, "v95", "%g m/s", (double)ctx->v95));
  PetscCall(SKOutputSummary(out, "work_load", "%.6e J", (double)en->work));
  PetscCall(SKOutputSummary(out, "dissipation", "%.6e J", (double)en->dissipation));
  PetscCall(SKOutputSummary(out, "energy_residual", "%.3e (max |E + D - W| / max(W, 1e-300))",
                            (double)(max_resid / PetscMax(PetscAbsReal(en->work), 1e-300))));
  PetscCall(SKOutputSummary(out, "wall_time", "%.3f s", (double)wall));
  PetscCall(SKOutputWriteAttributeReal(out, "/bars2020", "wall_time", (PetscReal)wall));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a run allocates, freed by BarsWorkDestroy() whether the run ends or stops with an error. */
typedef struct {
  BarsModes modes[2], *set[2];
  BarsSampler smp[2][2];
  BarsWriters wr;
  PetscReal *phi0, *xf[2];
  SKBarsStepped st;
  SKProgress progress;
  BarsQuad qd;
} BarsWork;

static PetscErrorCode BarsWorkDestroy(void *work)
{
  BarsWork *w = (BarsWork *)work;

  PetscFunctionBegin;
  PetscCall(SKProgressDestroy(&w->progress)); /* the progress line cleared also when the run stops */
  for (PetscInt b = 0; b < 2; b++)
    for (PetscInt kind = 0; kind < 2; kind++) PetscCall(PetscFree(w->smp[b][kind].table));
  PetscCall(PetscFree2(w->xf[0], w->xf[1]));
  PetscCall(PetscFree(w->phi0));
  PetscCall(PetscFree(w->wr.fbuf));
  PetscCall(PetscFree5(w->qd.x, w->qd.z, w->qd.v1, w->qd.v2, w->qd.wT));
  for (PetscInt s = 0; s < 2; s++) PetscCall(BarsModesDestroy(&w->modes[s]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run into W: the modal sets and samplers, the outputs, then the steps with a row written every out_every steps. */
static PetscErrorCode Bars2020RunWith(void *vctx, SKOutput out, void *work)
{
  Bars2020Ctx *ctx = (Bars2020Ctx *)vctx;
  BarsWork *w      = (BarsWork *)work;
  BarsEnergy en    = {0, 0, 0};
  PetscInt nset = ctx->linear ? 1 : 2, nf = ctx->nfield, nlin = 0;
  PetscReal max_resid = 0;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(SKWallTime(&t0));
  /* the overlap never exceeds bar 1, so L1 / h + 1 points always suffice */
  w->qd.cap = (PetscInt)PetscCeilReal(ctx->fam[0].length / ctx->quad_h) + 1;
  PetscCall(PetscMalloc5(w->qd.cap, &w->qd.x, w->qd.cap, &w->qd.z, w->qd.cap, &w->qd.v1, w->qd.cap, &w->qd.v2, w->qd.cap, &w->qd.wT));
  if (!ctx->linear)
    PetscCall(ThrelfallModesCreate(ctx, w->modes, w->set));
  else
    PetscCall(LinearModesCreate(ctx, &w->st, w->modes, w->set, &nlin));
  PetscCall(PetscMalloc2(nf, &w->xf[0], nf, &w->xf[1]));
  PetscCall(SamplersCreate(ctx, w->set, &w->st, w->xf, w->smp));
  PetscCall(PetscMalloc1(w->set[0]->n, &w->phi0));
  for (PetscInt j = 0; j < w->set[0]->n; j++) w->phi0[j] = 1; /* both families are normalised to phi(0) = 1 at the loaded end */
  PetscCall(OutputsCreate(ctx, out, nlin, w->xf, &w->wr));

  PetscCall(SKProgressCreate(PETSC_COMM_SELF, "bars2020", 0, ctx->t_end, &w->progress));
  PetscCall(WriteRow(ctx, w->smp, &w->wr, w->set, nset, 0, ctx->overlap0, &en));
  for (PetscInt step = 0; step < ctx->nsteps; step++) {
    PetscCall(Bars2020Step(ctx, step * ctx->dt, w->modes, w->set, nset, w->phi0, &w->qd, &en, &max_resid));
    if ((step + 1) % ctx->out_every == 0 || step + 1 == ctx->nsteps)
      PetscCall(WriteRow(ctx, w->smp, &w->wr, w->set, nset, (step + 1) * ctx->dt,
                         ctx->linear ? ctx->overlap0 : ctx->overlap0 + w->modes[0].eta[0], &en));
    PetscCall(SKProgressUpdate(w->progress, (step + 1) * ctx->dt, step + 1));
  }
  PetscCall(SKProgressDestroy(&w->progress));
  PetscCall(SKWallTime(&t1));
  PetscCall(Bars2020Summary(ctx, out, w->set, &en, max_resid, t1 - t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Bars2020Run(void *vctx, SKOutput out)
{
  BarsWork w;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&w, sizeof(w)));
  PetscCall(SKSolverRunWith(vctx, out, &w, Bars2020RunWith, BarsWorkDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverBars2020 = {
    "bars2020",
    "bars2020.xsd",
    "two bars with Threlfall friction, modal Duhamel stepping, and the linear equivalent stepped bar (Molenkamp et al. 2020)",
    Bars2020Setup,
    Bars2020Run,
    Bars2020Destroy};
