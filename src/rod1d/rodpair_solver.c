/* The "rodpair" study: reads and checks <rodpair> inputs, runs the chosen integrator and writes /rodpair of results.h5. */
#include <stickslip/rod1d.h>
#include <stickslip/timefunction.h>
#include <time.h>

/* standard gravity (m/s^2): a drop hammer's impact velocity sqrt(2 eta g h) */
#define SK_STANDARD_GRAVITY 9.80665

/* What --help says of the solver and -help of -rodpair_solver (whose list of methods PETSc prints in full): the
   CVODE peer only in a build with it */
#if defined(SK_HAVE_CVODE)
static const char SolverDescription[] = "two elastic rods in Coulomb stick-slip contact (Tsetas et al. 2022): RK45 reference, CVODE peer, "
                                        "mode matching";
static const char SolverHelp[]        = "integrator";
#else
static const char SolverDescription[] = "two elastic rods in Coulomb stick-slip contact (Tsetas et al. 2022): RK45 reference, mode "
                                        "matching (no CVODE peer in this build)";
static const char SolverHelp[]        = "integrator (cvode is not in this build)";
#endif

typedef struct {
  SKRodPairParams p;
  SKTimeFunction load;
  PetscReal t_end, dt_out, rtol, atol;
  PetscReal mmm_sample, mmm_coupling;        /* SKRodPairSetMMMSteps() */
  PetscInt mmm_transform_min, mmm_nodes_min; /* SKRodPairSetMMMTransforms() */
  PetscBool mmm_fft_measure;
  PetscReal max_step;      /* -rodpair_max_step (s; 0: none): the paper's fixed-step comparison */
  PetscBool output_state;  /* -rodpair_output_state: also the nodal u1, v1 and rod 2's modal coordinates */
  PetscBool modes_default; /* N_m from SKRodPairDefaultModes (neither the input nor -rodpair_modes gave it) */
  PetscInt ngrid;
  PetscInt nblows;       /* <blows count>: the pulse repeated (0: a single load function) */
  PetscReal blow_period; /* <blows period> (s) */
  /* <hammer> (p.ram_mass > 0): impact velocity (s), and for the blows the largest duration of a blow (s), the rest
     criterion (kinetic energy of rod 1 over the ram's impact energy) and the refusal blow count per 0.25 m */
  PetscBool hammer;
  PetscReal impact_velocity, rated_energy, blow_max, rest_energy, refusal;
  SKRodPairMethod method;
  MPI_Comm comm;
} RodPairCtx;

/* what the monitor writes: histories as the run goes, space-time fields buffered and written at the end */
typedef struct {
  RodPairCtx *ctx;
  SKRodPair rp;
  SKHistory sections, energy, hammer;
  SKProgress progress;
  PetscInt nt, row, N, Nm;
  PetscReal *times, *u, *vrel; /* nt x ngrid */
  PetscInt *state;             /* nt x N */
  PetscBool full;              /* -rodpair_output_state: also the nodal u1, v1 and rod 2's modal coordinates */
  PetscReal *un, *vn;          /* nt x N */
  PetscReal *eta, *etad;       /* nt x Nm */
  PetscReal max_balance, max_work;
} RodPairMonitor;

/* P(t): the load function, or with blows the pulse shifted to the blow whose period holds t */
static PetscReal RodPairLoad(void *ctx_in, PetscReal t)
{
  const RodPairCtx *ctx = (const RodPairCtx *)ctx_in;
  if (ctx->hammer) return 0; /* the head is loaded by the cushion only */
  if (ctx->nblows > 0) {
    PetscInt k = (PetscInt)PetscFloorReal(t / ctx->blow_period);
    t -= PetscMax(0, PetscMin(k, ctx->nblows - 1)) * ctx->blow_period;
  }
  return SKTimeFunctionEval(&ctx->load, t);
}

static PetscErrorCode RodPairDestroy(void **ctx_in);

/* Solves a blow sequence blow by blow and writes /rodpair/blows: after each blow period (or at the end time), the head
   displacement u1(0), the mean (rigid-body) displacement of rod 1, the slip of the toe u1(L1) - u2 (rod 2 under the toe), the permanent set
   of the blow (the change of the toe slip over its period) and the penetration (the toe slip accumulated since t = 0). */
static PetscErrorCode RodPairSolveBlows(RodPairCtx *ctx, SKRodPair rp, SKRodPairMethod method, SKOutput out)
{
  const char *const cols[]  = {"t", "blow", "head", "mean", "toe_slip", "set", "penetration"};
  const char *const units[] = {"s", "1", "m", "m", "m", "m", "m"};
  SKHistory hist;
  PetscReal prev = 0;

  PetscFunctionBegin;
  PetscCall(SKOutputHistoryCreate(out, "/rodpair/blows", 7, cols, units, &hist));
  for (PetscInt k = 0; k < ctx->nblows && (k == 0 || k * ctx->blow_period < ctx->t_end); k++) {
    PetscReal t1 = k == ctx->nblows - 1 ? ctx->t_end : PetscMin((k + 1) * ctx->blow_period, ctx->t_end), t, u2, slip, ubar;
    const PetscReal *u;
    PetscCall(SKRodPairSolve(rp, method, t1));
    PetscCall(SKRodPairGetState(rp, &t, &u, NULL, NULL, NULL, NULL));
    PetscCall(SKRodPairGetRod2Displacement(rp, PetscClipInterval(ctx->p.L1 + u[ctx->p.N - 1] - ctx->p.l1, 0, ctx->p.L2), &u2));
    PetscCall(SKRodPairGetRod1MeanDisplacement(rp, &ubar));
    slip = u[ctx->p.N - 1] - u2;
    PetscCall(SKHistoryAppend(hist, (PetscReal[]){t, (PetscReal)(k + 1), u[0], ubar, slip, slip - prev, slip}));
    prev = slip;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rest criterion of a hammer blow: the ram has left, every node of rod 1 in contact sticks, and the kinetic energy
   of rod 1 is below rest_energy times the ram's impact energy. */
static PetscErrorCode HammerAtRest(RodPairCtx *ctx, SKRodPair rp, PetscBool *rest)
{
  const SKRodNodeState *state;
  SKRodPairEnergy e;
  PetscBool contact;

  PetscFunctionBegin;
  PetscCall(SKRodPairGetState(rp, NULL, NULL, NULL, NULL, NULL, &state));
  PetscCall(SKRodPairGetEnergy(rp, &e));
  PetscCall(SKRodPairGetHammer(rp, &contact, NULL, NULL));
  *rest = (PetscBool)(!contact && e.kinetic1 <= ctx->rest_energy * 0.5 * ctx->p.ram_mass * ctx->impact_velocity * ctx->impact_velocity);
  for (PetscInt i = 0; i < ctx->p.N && *rest; i++)
    if (state[i] == SK_ROD_SLIP_POS || state[i] == SK_ROD_SLIP_NEG) *rest = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves a hammer blow sequence: each blow starts from the state the last one left (displacements, stresses, stick
   states) and runs, in steps of the output interval, until the pile is at rest (HammerAtRest) or for at most
   blow_max; the sequence stops at refusal (the blow count per 0.25 m at or above ctx->refusal) or at the end time.
   Writes /rodpair/hammer_blows (one row per blow) and the residual profiles of rod 1 after each blow, gathered in
   AXIAL (nblows x (N - 1)), FRIC, CAP and UNOD (nblows x N). */
static PetscErrorCode HammerBlows(RodPairCtx *ctx, SKRodPair rp, SKOutput out, PetscInt *counts, PetscReal *axial, PetscReal *fric,
                                  PetscReal *cap, PetscReal *unod)
{
  const char *const cols[]  = {"blow",
                               "t_start",
                               "t_end",
                               "at_rest",
                               "head",
                               "set",
                               "blows_per_0.25m",
                               "max_head_force",
                               "energy_transferred",
                               "transfer_ratio",
                               "ram_velocity_after",
                               "toe_set"};
  const char *const units[] = {"1", "s", "s", "1", "m", "m", "1", "N", "J", "1", "m/s", "m"};
  PetscInt N = ctx->p.N, nb = 0, refusal_blow = 0, dims[2];
  PetscReal ein = 0.5 * ctx->p.ram_mass * ctx->impact_velocity * ctx->impact_velocity;
  SKHistory hist;

  PetscFunctionBegin;
  PetscCall(SKOutputHistoryCreate(out, "/rodpair/hammer_blows", 12, cols, units, &hist));
  for (PetscInt k = 0; k < ctx->nblows; k++) {
    PetscReal t0, t, head0, head1, toe0, w0, fmax, vram, set, count;
    PetscBool rest = PETSC_FALSE;
    const PetscReal *u, *f;
    SKRodPairEnergy e;
    PetscInt c[4];

    PetscCall(SKRodPairGetState(rp, &t0, &u, NULL, NULL, NULL, NULL));
    if (t0 >= ctx->t_end * (1 - 1e-12)) break;
    head0 = u[0];
    toe0  = u[N - 1];
    PetscCall(SKRodPairGetEnergy(rp, &e));
    w0 = e.work;
    PetscCall(SKRodPairHammerStrike(rp, ctx->impact_velocity));
    for (t = t0; !rest && t < PetscMin(t0 + ctx->blow_max, ctx->t_end) * (1 - 1e-12);) {
      PetscCall(SKRodPairSolve(rp, SK_RODPAIR_RK45, PetscMin(t + ctx->dt_out, PetscMin(t0 + ctx->blow_max, ctx->t_end))));
      PetscCall(SKRodPairGetCounts(rp, &c[0], &c[1], &c[2], &c[3]));
      for (PetscInt j = 0; j < 4; j++) counts[j] += c[j];
      PetscCall(SKRodPairGetState(rp, &t, NULL, NULL, NULL, NULL, NULL));
      PetscCall(HammerAtRest(ctx, rp, &rest));
    }
    PetscCall(SKRodPairGetState(rp, &t, &u, NULL, NULL, NULL, NULL));
    PetscCall(SKRodPairGetEnergy(rp, &e));
    PetscCall(SKRodPairGetHammer(rp, NULL, &fmax, &vram));
    head1 = u[0];
    set   = head1 - head0;
    count = set > 0 ? 0.25 / set : PETSC_INFINITY;
    PetscCall(SKHistoryAppend(hist, (PetscReal[]){(PetscReal)(k + 1), t0, t, rest ? 1 : 0, head1, set, count, fmax, e.work - w0,
                                                  (e.work - w0) / ein, vram, u[N - 1] - toe0}));
    /* the locked-in state: axial forces, friction forces and their static capacities, displacements */
    PetscCall(SKRodPairGetAxialForce(rp, axial + nb * (N - 1)));
    PetscCall(SKRodPairGetFriction(rp, &f, cap + nb * N));
    PetscCall(PetscArraycpy(fric + nb * N, f, N));
    PetscCall(PetscArraycpy(unod + nb * N, u, N));
    nb++;
    if (count >= ctx->refusal) {
      refusal_blow = k + 1;
      break;
    }
  }
  dims[0] = nb;
  dims[1] = N - 1;
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/residual_axial_force", 2, dims, axial));
  dims[1] = N;
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/residual_friction", 2, dims, fric));
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/residual_capacity", 2, dims, cap));
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/residual_u1", 2, dims, unod));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "blows", nb));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "refusal_blow", refusal_blow));
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "refusal_blows_per_0.25m", ctx->refusal));
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "impact_velocity", ctx->impact_velocity));
  PetscCall(SKOutputSummary(out, "hammer", "ram %g kg at %g m/s (%g J), cushion %g N/m, e = %g, helmet %g kg", (double)ctx->p.ram_mass,
                            (double)ctx->impact_velocity, (double)ein, (double)ctx->p.cushion_stiffness, (double)ctx->p.restitution,
                            (double)ctx->p.helmet_mass));
  if (nb > 0) {
    PetscReal set = unod[(nb - 1) * N] - (nb > 1 ? unod[(nb - 2) * N] : 0);
    PetscCall(SKOutputSummary(out, "blows",
                              "%" PetscInt_FMT " driven, penetration of the head %.6e m, last set %.4e m (%.4g blows per 0.25 m)", nb,
                              (double)unod[(nb - 1) * N], (double)set, (double)(set > 0 ? 0.25 / set : PETSC_INFINITY)));
  }
  if (refusal_blow)
    PetscCall(SKOutputSummary(out, "refusal", "at blow %" PetscInt_FMT " (%g blows per 0.25 m or more): driving stopped", refusal_blow,
                              (double)ctx->refusal));
  else
    PetscCall(SKOutputSummary(out, "refusal", "not reached (%g blows per 0.25 m)", (double)ctx->refusal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* HammerBlows() with the locked-in state after each blow (axial forces, friction forces and their static capacities,
   displacements of rod 1) in arrays freed also when a blow stops with an error. */
static PetscErrorCode RodPairSolveHammer(RodPairCtx *ctx, SKRodPair rp, SKOutput out, PetscInt *counts)
{
  const PetscInt N = ctx->p.N;
  PetscReal *axial, *fric, *cap, *unod;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(ctx->nblows * (N - 1), &axial, ctx->nblows * N, &fric, ctx->nblows * N, &cap, ctx->nblows * N, &unod));
  ierr = HammerBlows(ctx, rp, out, counts, axial, fric, cap, unod);
  PetscCall(PetscFree4(axial, fric, cap, unod));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <hammer> into CTX: ram mass, impact velocity (or drop height and efficiency, v0 = sqrt(2 eta g h)), cushion, helmet */
static PetscErrorCode RodPairReadHammer(SKInput input, SKNode ham, RodPairCtx *ctx)
{
  PetscReal h = 0, eta = 1;
  PetscBool has_v, has_h, has_eta;

  PetscFunctionBegin;
  ctx->hammer = PETSC_TRUE;
  PetscCall(SKInputRequireReal(input, ham, "ram_mass", &ctx->p.ram_mass));
  PetscCall(SKInputCheckPositive(input, ham, "ram_mass", ctx->p.ram_mass));
  PetscCall(SKInputRequireReal(input, ham, "cushion_stiffness", &ctx->p.cushion_stiffness));
  PetscCall(SKInputCheckPositive(input, ham, "cushion_stiffness", ctx->p.cushion_stiffness));
  PetscCall(SKInputRequireReal(input, ham, "restitution", &ctx->p.restitution));
  PetscCall(SKInputCheck(input, ham, ctx->p.restitution > 0 && ctx->p.restitution <= 1,
                         "restitution = %g must be in (0, 1]: the cushion's unloading stiffness is k / e^2", (double)ctx->p.restitution));
  PetscCall(SKInputGetReal(input, ham, "helmet_mass", &ctx->p.helmet_mass, NULL));
  PetscCall(SKInputCheckNonNegative(input, ham, "helmet_mass", ctx->p.helmet_mass));
  PetscCall(SKInputGetReal(input, ham, "impact_velocity", &ctx->impact_velocity, &has_v));
  PetscCall(SKInputGetReal(input, ham, "drop_height", &h, &has_h));
  PetscCall(SKInputGetReal(input, ham, "efficiency", &eta, &has_eta));
  PetscCall(SKInputCheck(input, ham, has_v != has_h, "hammer needs either impact_velocity or drop_height (with efficiency), not %s",
                         has_v ? "both" : "neither"));
  PetscCall(SKInputCheck(input, ham, !(has_v && has_eta), "efficiency goes with drop_height; impact_velocity is the velocity at impact"));
  if (has_v) {
    PetscCall(SKInputCheckPositive(input, ham, "impact_velocity", ctx->impact_velocity));
    ctx->rated_energy = 0.5 * ctx->p.ram_mass * ctx->impact_velocity * ctx->impact_velocity;
  } else {
    PetscCall(SKInputCheckPositive(input, ham, "drop_height", h));
    PetscCall(SKInputCheck(input, ham, eta > 0 && eta <= 1, "efficiency = %g must be in (0, 1]", (double)eta));
    ctx->impact_velocity = PetscSqrtReal(2 * eta * SK_STANDARD_GRAVITY * h);
    ctx->rated_energy    = ctx->p.ram_mass * SK_STANDARD_GRAVITY * h;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The N real attributes NAMES of NODE into VALUES: required ones (NFOUND == NULL), or optional ones whose number
   present is returned in NFOUND */
static PetscErrorCode ReadReals(SKInput input, SKNode node, PetscInt n, const char *const names[], PetscReal *const values[],
                                PetscInt *nfound)
{
  PetscFunctionBegin;
  if (nfound) *nfound = 0;
  for (PetscInt k = 0; k < n; k++) {
    PetscBool found;
    if (nfound) {
      PetscCall(SKInputGetReal(input, node, names[k], values[k], &found));
      *nfound += found ? 1 : 0;
    } else
      PetscCall(SKInputRequireReal(input, node, names[k], values[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rod's EA and rhoA (uniform) or its <segment> children (non-uniform) into *EA, *rhoA or *nseg and the segment arrays,
   checked: positive properties, segments that cover the rod (NAME, of length L) exactly (lengths summing to L to 1e-9
   relative). */
static PetscErrorCode ReadRodSegments(SKInput input, SKNode rod, const char name[], PetscReal L, PetscReal *EA, PetscReal *rhoA,
                                      PetscInt *nseg, PetscReal seg_length[], PetscReal seg_EA[], PetscReal seg_rhoA[])
{
  PetscReal sum  = 0;
  PetscInt found = 0, n = SKNodeCountChildren(rod, "segment");
  const char *const names[] = {"EA", "rhoA", "length"};
  SKNode last               = NULL;

  PetscFunctionBegin;
  PetscCall(ReadReals(input, rod, 2, names, (PetscReal *const[]){EA, rhoA}, &found));
  if (n == 0) {
    PetscCall(SKInputCheck(input, rod, found == 2, "%s needs EA and rhoA (a uniform rod) or segment children (a non-uniform rod)", name));
  } else {
    PetscCall(SKInputCheck(input, rod, found == 0, "%s has segments: give EA and rhoA on each segment, not on %s", name, name));
    PetscCall(SKInputCheck(input, rod, n <= SK_RODPAIR_MAX_SEGMENTS, "%s has %" PetscInt_FMT " segments, at most %d are allowed", name, n,
                           SK_RODPAIR_MAX_SEGMENTS));
    *nseg      = n;
    PetscInt s = 0;
    for (SKNode seg = SKNodeFirstChild(rod, "segment"); seg; seg = SKNodeNextSibling(seg, "segment"), s++) {
      PetscCall(ReadReals(input, seg, 3, names, (PetscReal *const[]){&seg_EA[s], &seg_rhoA[s], &seg_length[s]}, NULL));
      PetscCall(SKInputCheckPositive(input, seg, "length", seg_length[s]));
      PetscCall(SKInputCheckPositive(input, seg, "EA", seg_EA[s]));
      PetscCall(SKInputCheckPositive(input, seg, "rhoA", seg_rhoA[s]));
      sum += seg_length[s];
      last = seg;
    }
    PetscCall(SKInputCheck(input, last, PetscAbsReal(sum - L) <= 1e-9 * L,
                           "the segments of %s have a total length of %g m, not the rod's length %g m: they must cover the rod exactly",
                           name, (double)sum, (double)L));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Uniform friction (attributes of <friction>) or a depth profile (<point> children) into P, checked: depths from 0
   increasing to at least L2 (read before), 0 <= mu_k <= mu_s and N_F >= 0 at every point (so everywhere between). */
static PetscErrorCode RodPairReadFriction(SKInput input, SKNode fric, SKRodPairParams *p)
{
  PetscInt found = 0, n = SKNodeCountChildren(fric, "point");
  const char *const names[] = {"mu_s", "mu_k", "normal_load", "depth"};
  SKNode last               = NULL;

  PetscFunctionBegin;
  PetscCall(ReadReals(input, fric, 3, names, (PetscReal *const[]){&p->mu_s, &p->mu_k, &p->NF}, n == 0 ? NULL : &found));
  if (n > 0) {
    PetscCall(SKInputCheck(input, fric, found == 0, "friction has points: give mu_s, mu_k, normal_load on each point, not on friction"));
    PetscCall(SKInputCheck(input, fric, n <= SK_RODPAIR_MAX_SEGMENTS, "friction has %" PetscInt_FMT " points, at most %d are allowed", n,
                           SK_RODPAIR_MAX_SEGMENTS));
    p->nfric   = n;
    PetscInt k = 0;
    for (SKNode pt = SKNodeFirstChild(fric, "point"); pt; pt = SKNodeNextSibling(pt, "point"), k++) {
      PetscCall(ReadReals(input, pt, 4, names, (PetscReal *const[]){&p->fric_mu_s[k], &p->fric_mu_k[k], &p->fric_NF[k], &p->fric_depth[k]},
                          NULL));
      PetscCall(SKInputCheck(input, pt, k > 0 || p->fric_depth[0] == 0,
                             "the first friction point is at depth %g m: the profile must start at the top of rod 2, depth 0",
                             (double)p->fric_depth[0]));
      PetscCall(SKInputCheck(input, pt, k == 0 || p->fric_depth[k] > p->fric_depth[k - 1],
                             "friction point at depth %g m is not below the previous one (%g m): depths must increase",
                             (double)p->fric_depth[k], (double)(k > 0 ? p->fric_depth[k - 1] : 0)));
      PetscCall(SKInputCheckNonNegative(input, pt, "mu_k", p->fric_mu_k[k]));
      PetscCall(SKInputCheckNonNegative(input, pt, "normal_load", p->fric_NF[k]));
      PetscCall(SKInputCheck(input, pt, p->fric_mu_k[k] <= p->fric_mu_s[k],
                             "mu_k = %g exceeds mu_s = %g at depth %g m: kinetic friction must not exceed static friction",
                             (double)p->fric_mu_k[k], (double)p->fric_mu_s[k], (double)p->fric_depth[k]));
      last = pt;
    }
    PetscCall(SKInputCheck(input, last, p->fric_depth[n - 1] >= p->L2,
                           "the friction profile ends at depth %g m, above the bottom of rod 2 (L2 = %g m): it must cover rod 2",
                           (double)p->fric_depth[n - 1], (double)p->L2));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads the input into CTX (allocated by the caller, freed by it on failure). */
static PetscErrorCode RodPairRead(SKInput input, RodPairCtx *ctx)
{
  SKNode root, rod1, rod2, fric, load, fun = NULL, time, disc, ham;
  PetscBool found, modes_set = PETSC_FALSE, has_end = PETSC_TRUE;
  char solver[16]        = "rk45";
  SKOptionsChecks checks = {PETSC_FALSE, ""};

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &ctx->comm));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKInputRequireChild(input, root, "rod1", &rod1));
  PetscCall(SKInputRequireChild(input, root, "rod2", &rod2));
  PetscCall(SKInputRequireChild(input, root, "friction", &fric));
  PetscCall(SKInputRequireChild(input, root, "load", &load));
  PetscCall(SKNodeGetChild(load, "hammer", &ham));
  if (!ham) PetscCall(SKInputRequireChild(input, load, "function", &fun));
  PetscCall(SKInputRequireChild(input, root, "time", &time));
  PetscCall(SKNodeGetChild(root, "discretization", &disc));

  PetscCall(SKInputRequireReal(input, rod1, "length", &ctx->p.L1));
  /* rod 1 from the head z1 = 0 down, rod 2 in layers from its top z2 = 0 down to the fixed end */
  PetscCall(ReadRodSegments(input, rod1, "rod1", ctx->p.L1, &ctx->p.EA1, &ctx->p.rhoA1, &ctx->p.nseg1, ctx->p.seg1_length, ctx->p.seg1_EA,
                            ctx->p.seg1_rhoA));
  PetscCall(SKInputRequireReal(input, rod1, "offset", &ctx->p.l1));
  PetscCall(SKInputRequireReal(input, rod2, "length", &ctx->p.L2));
  PetscCall(ReadRodSegments(input, rod2, "rod2", ctx->p.L2, &ctx->p.EA2, &ctx->p.rhoA2, &ctx->p.nseg2, ctx->p.seg2_length, ctx->p.seg2_EA,
                            ctx->p.seg2_rhoA));
  PetscCall(RodPairReadFriction(input, fric, &ctx->p));
  if (ham) {
    PetscCall(RodPairReadHammer(input, ham, ctx));
    PetscCall(SKInputGetReal(input, time, "end", &ctx->t_end, &has_end));
  } else
    PetscCall(SKInputRequireReal(input, time, "end", &ctx->t_end));
  ctx->dt_out = 1e-3;
  PetscCall(SKInputGetReal(input, time, "output_interval", &ctx->dt_out, NULL));
  ctx->p.N   = 301;
  ctx->p.Nm  = 50;
  ctx->rtol  = 1e-7;
  ctx->atol  = 1e-10;
  ctx->ngrid = 101;
  if (disc) {
    PetscCall(SKInputGetInt(input, disc, "nodes", &ctx->p.N, NULL));
    PetscCall(SKInputGetInt(input, disc, "modes", &ctx->p.Nm, &modes_set));
    PetscCall(SKInputGetString(input, disc, "solver", solver, sizeof(solver), NULL));
    PetscCall(SKInputGetReal(input, disc, "rtol", &ctx->rtol, NULL));
    PetscCall(SKInputGetReal(input, disc, "atol", &ctx->atol, NULL));
    PetscCall(SKInputGetInt(input, disc, "output_points", &ctx->ngrid, NULL));
  }
  PetscCall(PetscEnumFind(SKRodPairMethods, solver, (PetscEnum *)&ctx->method, &found));
  PetscCall(SKInputCheck(input, disc, found, "unknown solver '%s' (known: rk45, cvode, mmm)", solver));

  /* physics sanity, each at the line of the element that holds the value */
  if (ctx->p.nseg1 == 0) PetscCall(SKInputCheckPositive(input, rod1, "EA", ctx->p.EA1));
  if (ctx->p.nseg2 == 0) PetscCall(SKInputCheckPositive(input, rod2, "EA", ctx->p.EA2));
  PetscCall(SKInputCheck(input, disc, ctx->p.N >= 3, "nodes = %" PetscInt_FMT ": rod 1 needs at least 3 nodes", ctx->p.N));
  PetscCall(SKInputCheck(input, disc, ctx->p.Nm >= 1, "modes = %" PetscInt_FMT ": rod 2 needs at least 1 mode", ctx->p.Nm));
  PetscCall(SKInputCheck(input, disc, ctx->ngrid >= 2, "output_points = %" PetscInt_FMT " must be at least 2", ctx->ngrid));
  PetscCall(SKInputCheck(input, rod1, ctx->p.l1 >= 0,
                         "offset l1 = %g m is negative: the contact would start above the top of rod 2 (outside the rods)",
                         (double)ctx->p.l1));
  PetscCall(SKInputCheck(input, rod1, ctx->p.l1 < ctx->p.L1,
                         "offset l1 = %g m is not smaller than the length of rod 1 L1 = %g m: rod 1 does not reach rod 2",
                         (double)ctx->p.l1, (double)ctx->p.L1));
  PetscCall(
      SKInputCheck(input, rod1, ctx->p.L1 - ctx->p.l1 <= ctx->p.L2,
                   "initial contact length L1 - l1 = %g m exceeds the length of rod 2 L2 = %g m: the contact would extend outside the rods",
                   (double)(ctx->p.L1 - ctx->p.l1), (double)ctx->p.L2));
  PetscCall(SKInputCheck(input, fric, ctx->p.nfric > 0 || ctx->p.mu_k <= ctx->p.mu_s,
                         "mu_k = %g exceeds mu_s = %g: kinetic friction must not exceed static friction", (double)ctx->p.mu_k,
                         (double)ctx->p.mu_s));
  {
    SKNode blows;
    PetscCall(SKNodeGetChild(load, "blows", &blows));
    if (ham) {
      PetscBool has_period;
      PetscReal period;
      ctx->nblows      = 1;
      ctx->blow_max    = 0.5;
      ctx->rest_energy = 1e-6;
      ctx->refusal     = 100;
      if (blows) {
        PetscCall(SKInputRequireInt(input, blows, "count", &ctx->nblows));
        PetscCall(SKInputCheck(input, blows, ctx->nblows >= 1, "blows count = %" PetscInt_FMT " must be at least 1", ctx->nblows));
        PetscCall(SKInputGetReal(input, blows, "period", &period, &has_period));
        PetscCall(SKInputCheck(input, blows, !has_period,
                               "a hammer's blows follow each other when the pile is at rest: period is for pulse blows; use max_duration"));
        PetscCall(SKInputGetReal(input, blows, "max_duration", &ctx->blow_max, NULL));
        PetscCall(SKInputCheckPositive(input, blows, "max_duration", ctx->blow_max));
        PetscCall(SKInputGetReal(input, blows, "rest_energy", &ctx->rest_energy, NULL));
        PetscCall(SKInputCheck(input, blows, ctx->rest_energy > 0 && ctx->rest_energy < 1,
                               "rest_energy = %g must be in (0, 1): the kinetic energy of rod 1 at rest over the ram's impact energy",
                               (double)ctx->rest_energy));
        PetscCall(SKInputGetReal(input, blows, "refusal", &ctx->refusal, NULL));
        PetscCall(SKInputCheckPositive(input, blows, "refusal", ctx->refusal));
      }
      if (!has_end) ctx->t_end = ctx->nblows * ctx->blow_max;
    }
    PetscCall(SKInputCheck(input, time, ctx->dt_out <= ctx->t_end, "output_interval = %g s exceeds the end time %g s", (double)ctx->dt_out,
                           (double)ctx->t_end));
    if (fun) PetscCall(SKTimeFunctionFromXML(input, fun, &ctx->load));
    if (blows && !ham) {
      PetscBool hammer_attr[3];
      const char *const hammer_only[] = {"max_duration", "rest_energy", "refusal"};
      PetscReal unused;
      for (PetscInt j = 0; j < 3; j++) {
        PetscCall(SKInputGetReal(input, blows, hammer_only[j], &unused, &hammer_attr[j]));
        PetscCall(SKInputCheck(input, blows, !hammer_attr[j], "%s is for hammer blows; pulse blows follow each other every period",
                               hammer_only[j]));
      }
      PetscCall(SKInputRequireInt(input, blows, "count", &ctx->nblows));
      PetscCall(SKInputRequireReal(input, blows, "period", &ctx->blow_period));
      PetscCall(SKInputCheck(input, blows, ctx->nblows >= 1, "blows count = %" PetscInt_FMT " must be at least 1", ctx->nblows));
      PetscCall(SKInputCheck(input, blows, ctx->load.type == SK_TF_PULSE, "blows repeat a pulse; this load is a %s function",
                             SKTimeFunctionTypes[ctx->load.type]));
      PetscCall(SKInputCheck(input, blows, ctx->load.t0 >= 0 && ctx->load.t1 <= ctx->blow_period,
                             "the pulse [%g, %g] s does not lie within the blow period %g s", (double)ctx->load.t0, (double)ctx->load.t1,
                             (double)ctx->blow_period));
    }
  }
  /* the options override the input; read here so that validate checks them and -help lists them */
  ctx->mmm_sample        = 1.0;
  ctx->mmm_coupling      = 0; /* SKRodPairDefaultMMMCoupling() */
  ctx->mmm_transform_min = SK_RODPAIR_MMM_SEG_MIN;
  ctx->mmm_nodes_min     = SK_RODPAIR_MMM_NODES_MIN;
  ctx->mmm_fft_measure   = PETSC_FALSE;
  PetscOptionsBegin(ctx->comm, NULL, "rodpair solver (the command line and <options> override the input)", NULL);
  PetscCall(
      SKOptionsEnum(&checks, "-rodpair_solver", SolverHelp, "", SKRodPairMethods, (PetscEnum)ctx->method, (PetscEnum *)&ctx->method, NULL));
  PetscCall(SKOptionsInt(&checks, "-rodpair_nodes", "nodes of rod 1", "", ctx->p.N, &ctx->p.N, NULL, "[3, inf)"));
  /* without modes in the input: enough for the frequencies rod 1's N nodes represent (SKRodPairDefaultModes) */
  if (!modes_set && ctx->p.N >= 3) ctx->p.Nm = SKRodPairDefaultModes(&ctx->p);
  PetscCall(SKOptionsInt(&checks, "-rodpair_modes", "modes of rod 2 (default: from the rods and N, SKRodPairDefaultModes)", "", ctx->p.Nm,
                         &ctx->p.Nm, &found, "[1, inf)"));
  ctx->modes_default = !modes_set && !found ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(SKOptionsReal(&checks, "-rodpair_rtol", "relative tolerance of rk45/cvode", "", ctx->rtol, &ctx->rtol, NULL, "(0, inf)"));
  PetscCall(SKOptionsReal(&checks, "-rodpair_atol", "absolute tolerance of rk45/cvode", "", ctx->atol, &ctx->atol, NULL, "(0, inf)"));
  PetscCall(SKOptionsReal(&checks, "-rodpair_end", "end time (s), shortens the run", "", ctx->t_end, &ctx->t_end, NULL, "(0, inf)"));
  PetscCall(SKOptionsReal(&checks, "-rodpair_mmm_sample", "mmm: sampling step factor", "SKRodPairSetMMMSteps", ctx->mmm_sample,
                          &ctx->mmm_sample, NULL, "(0, inf)"));
  PetscCall(SKOptionsReal(&checks, "-rodpair_mmm_coupling", "mmm: coupling step factor (0: from the rods)", "SKRodPairSetMMMSteps",
                          ctx->mmm_coupling, &ctx->mmm_coupling, NULL, "[0, inf)"));
  PetscCall(SKOptionsInt(&checks, "-rodpair_mmm_transform_min",
                         "mmm: shortest uniform segment projected by FFT (larger than N: dense only)", "SKRodPairSetMMMTransforms",
                         ctx->mmm_transform_min, &ctx->mmm_transform_min, NULL, "[2, inf)"));
  PetscCall(SKOptionsInt(&checks, "-rodpair_mmm_transform_nodes",
                         "mmm: nodes an event evaluation needs to reconstruct a whole segment by FFT", "SKRodPairSetMMMTransforms",
                         ctx->mmm_nodes_min, &ctx->mmm_nodes_min, NULL, "[1, inf)"));
  PetscCall(SKOptionsBool(&checks, "-rodpair_mmm_fft_measure", "mmm: FFTW plans by trial runs (FFTW_MEASURE)", "SKRodPairSetMMMTransforms",
                          ctx->mmm_fft_measure, &ctx->mmm_fft_measure, NULL));
  PetscCall(SKOptionsReal(&checks, "-rodpair_max_step", "rk45/cvode: largest step (s; 0: none)", "SKRodPairSetMaxStep", ctx->max_step,
                          &ctx->max_step, NULL, "[0, inf)"));
  PetscCall(SKOptionsBool(&checks, "-rodpair_output_state", "also write the nodal u1, v1 and rod 2's modal coordinates", "",
                          ctx->output_state, &ctx->output_state, NULL));
  PetscOptionsEnd();
  PetscCall(SKOptionsCheck(ctx->comm, &checks));
  PetscCall(SKInputCheck(input, time, ctx->t_end >= ctx->dt_out, "-rodpair_end %g s is shorter than the output interval %g s",
                         (double)ctx->t_end, (double)ctx->dt_out));
  { /* the output rows stay in memory until the run ends (RodPairRunWith()): refuse what cannot fit, or cannot be counted
       by PETSc's 32-bit indices, before the run allocates it */
    const PetscReal rows = PetscFloorReal(ctx->t_end / ctx->dt_out + 1e-9) + 1;
    const PetscReal wide = PetscMax((PetscReal)ctx->ngrid, (PetscReal)PetscMax(ctx->p.N, ctx->p.Nm));
    const PetscReal row  = 1 + 2.0 * ctx->ngrid + ctx->p.N + (ctx->output_state ? 2.0 * (ctx->p.N + ctx->p.Nm) : 0);
    const PetscReal need = rows * row * (PetscReal)sizeof(PetscReal), have = SKMachineMemory();

    PetscCall(SKInputCheck(input, time, rows * wide < (PetscReal)PETSC_MAX_INT,
                           "%.6g output rows (end %g s every output_interval %g s) of %.6g values: more than PETSc's 32-bit indices "
                           "count; raise output_interval or lower the end time",
                           (double)rows, (double)ctx->t_end, (double)ctx->dt_out, (double)wide));
    PetscCall(SKInputCheck(input, time, need <= have,
                           "%.6g output rows (end %g s every output_interval %g s) of %.6g values would need %.3g GB of memory, more than "
                           "the %.3g GB this run may use: raise output_interval or lower the end time (or output_points)",
                           (double)rows, (double)ctx->t_end, (double)ctx->dt_out, (double)row, (double)(need / 1e9), (double)(have / 1e9)));
  }
#if !defined(SK_HAVE_CVODE)
  /* refused here, not only when the run starts, so that an input that validates does not fail before its first step */
  PetscCall(SKInputCheck(input, disc ? disc : root, ctx->method != SK_RODPAIR_CVODE, "solver cvode: " SK_RODPAIR_NO_CVODE_MESSAGE));
#endif
  /* a hammer adds the ram's two unknowns and the cushion's events, which only the RK45 reference integrates */
  if (ham)
    PetscCall(SKInputCheck(input, ham, ctx->method == SK_RODPAIR_RK45,
                           "a hammer (ram and cushion: two extra unknowns with a separation event) needs solver rk45, not %s",
                           SKRodPairMethods[ctx->method]));
  /* the mode-matching method integrates the closed form of a harmonic, constant or pulse load only */
  else
    PetscCall(SKInputCheck(input, fun,
                           ctx->method != SK_RODPAIR_MMM || ctx->load.type == SK_TF_HARMONIC || ctx->load.type == SK_TF_CONSTANT ||
                               ctx->load.type == SK_TF_PULSE,
                           "solver mmm needs a harmonic, constant or pulse load; this input has a %s load: use rk45 or cvode",
                           SKTimeFunctionTypes[ctx->load.type]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The context, set as soon as it exists, read from INPUT. */
static PetscErrorCode RodPairNew(SKInput input, void **ctx_out)
{
  RodPairCtx *ctx;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ctx));
  *ctx_out = ctx;
  PetscCall(RodPairRead(input, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a refused input must not leak the context (the solver contract: *ctx is set only on success) */
static PetscErrorCode RodPairSetup(SKInput input, void **ctx_out)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, ctx_out, RodPairNew, RodPairDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RodPairDestroy(void **ctx_in)
{
  RodPairCtx *ctx = (RodPairCtx *)*ctx_in;

  PetscFunctionBegin;
  if (!ctx) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKTimeFunctionReset(&ctx->load));
  PetscCall(PetscFree(ctx));
  *ctx_in = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* linear interpolation of nodal values f at z1 = s L1 */
static PetscReal AtFraction(const PetscReal f[], PetscInt N, PetscReal s)
{
  PetscReal x = s * (N - 1), w;
  PetscInt i  = (PetscInt)PetscFloorReal(x);
  if (i >= N - 1) return f[N - 1];
  if (i < 0) return f[0];
  w = x - i;
  return (1 - w) * f[i] + w * f[i + 1];
}

static PetscErrorCode RodPairMonitorFn(void *mctx, PetscReal t, const PetscReal u[], const PetscReal v[], const PetscReal vrel[],
                                       const PetscReal eta[], const PetscReal etad[], const SKRodNodeState state[],
                                       const SKRodPairEnergy *e)
{
  RodPairMonitor *mon = (RodPairMonitor *)mctx;
  PetscInt N = mon->N, ng = mon->ctx->ngrid, r = mon->row;
  PetscReal row[13];
  const PetscReal frac[4] = {0, 1.0 / 3, 2.0 / 3, 1};

  PetscFunctionBegin;
  row[0] = t;
  for (PetscInt s = 0; s < 4; s++) {
    row[1 + s] = AtFraction(u, N, frac[s]);
    row[5 + s] = AtFraction(vrel, N, frac[s]);
    row[9 + s] = (PetscReal)state[(PetscInt)PetscFloorReal(frac[s] * (N - 1) + 0.5)];
  }
  PetscCall(SKHistoryAppend(mon->sections, row));
  row[0] = t;
  row[1] = e->work;
  row[2] = e->kinetic1;
  row[3] = e->strain1;
  row[4] = e->kinetic2;
  row[5] = e->strain2;
  row[6] = e->dissipated;
  row[7] = e->balance;
  PetscCall(SKHistoryAppend(mon->energy, row));
  if (mon->hammer) {
    row[0] = t;
    PetscCall(SKRodPairGetOutputHammer(mon->rp, &row[1], &row[2]));
    row[3] = v[0];
    row[4] = e->hammer_input;
    row[5] = e->ram_kinetic;
    row[6] = e->cushion_stored;
    row[7] = e->cushion_loss;
    PetscCall(SKHistoryAppend(mon->hammer, row));
  }
  mon->max_balance = PetscMax(mon->max_balance, PetscAbsReal(e->balance));
  mon->max_work    = PetscMax(mon->max_work, PetscAbsReal(e->hammer_input > 0 ? e->hammer_input : e->work));
  if (r < mon->nt) {
    mon->times[r] = t;
    for (PetscInt k = 0; k < ng; k++) {
      mon->u[r * ng + k]    = AtFraction(u, N, (PetscReal)k / (ng - 1));
      mon->vrel[r * ng + k] = AtFraction(vrel, N, (PetscReal)k / (ng - 1));
    }
    for (PetscInt i = 0; i < N; i++) mon->state[r * N + i] = (PetscInt)state[i];
    if (mon->full) {
      PetscCall(PetscArraycpy(mon->un + r * N, u, N));
      PetscCall(PetscArraycpy(mon->vn + r * N, v, N));
      PetscCall(PetscArraycpy(mon->eta + r * mon->Nm, eta, mon->Nm));
      PetscCall(PetscArraycpy(mon->etad + r * mon->Nm, etad, mon->Nm));
    }
    mon->row++;
  }
  PetscCall(SKProgressUpdate(mon->progress, t, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coordinates of the output grid and of the nodes of rod 1, /rodpair/z1 and /rodpair/z1_nodes. */
static PetscErrorCode WriteCoordinates(const RodPairCtx *ctx, const SKRodPairParams *p, SKOutput out)
{
  PetscReal *z;
  PetscInt n = ctx->ngrid;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(ctx->ngrid, p->N), &z));
  for (PetscInt k = 0; k < ctx->ngrid; k++) z[k] = p->L1 * k / (ctx->ngrid - 1);
  ierr = SKOutputWriteRealArray(out, "/rodpair/z1", 1, &n, z);
  if (!ierr) {
    for (PetscInt i = 0; i < p->N; i++) z[i] = p->L1 * i / (p->N - 1);
    n    = p->N;
    ierr = SKOutputWriteRealArray(out, "/rodpair/z1_nodes", 1, &n, z);
  }
  PetscCall(PetscFree(z));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a run holds, freed by RodPairWorkRelease() whether the run ends or stops with an error. */
typedef struct {
  SKRodPair rp;
  RodPairMonitor mon;
} RodPairWork;

static PetscErrorCode RodPairRunWith(void *vctx, SKOutput out, void *work)
{
  RodPairCtx *ctx        = (RodPairCtx *)vctx;
  SKRodPair *rp_out      = &((RodPairWork *)work)->rp;
  RodPairMonitor *mon    = &((RodPairWork *)work)->mon;
  SKRodPairParams p      = ctx->p;
  SKRodPairMethod method = ctx->method;
  PetscReal rtol = ctx->rtol, atol = ctx->atol, breaks[2], *bp = breaks, *bblow = NULL, wall0, wall1;
  PetscInt nbreak = 0, steps, rejected, rhs, events, dims[2], hcounts[4] = {0, 0, 0, 0};
  SKRodPair rp;
  SKRodPairEnergy e;
  PetscErrorCode ierr;
  const char *sec_cols[13]         = {"t",         "u1_0",   "u1_L/3",  "u1_2L/3",   "u1_L",       "vrel_0", "vrel_L/3",
                                      "vrel_2L/3", "vrel_L", "state_0", "state_L/3", "state_2L/3", "state_L"};
  const char *sec_units[13]        = {"s", "m", "m", "m", "m", "m/s", "m/s", "m/s", "m/s", "1", "1", "1", "1"};
  const char *en_cols[8]           = {"t", "work", "kinetic1", "strain1", "kinetic2", "strain2", "dissipated", "balance"};
  const char *en_units[8]          = {"s", "J", "J", "J", "J", "J", "J", "J"};
  static PetscLogEvent solve_event = 0;
  clock_t cpu0, cpu1;

  PetscFunctionBegin;
  if (!solve_event) PetscCall(PetscLogEventRegister("RodPairSolve", SK_CLASSID, &solve_event));

  PetscCall(SKRodPairCreate(ctx->comm, &p, RodPairLoad, ctx, rp_out));
  rp = *rp_out;
  PetscCall(SKRodPairSetTolerances(rp, rtol, atol));
  if (ctx->max_step > 0) PetscCall(SKRodPairSetMaxStep(rp, ctx->max_step)); /* the paper's fixed-step comparison */
  /* the integrators step onto the kinks and jumps of P(t) (none with a hammer: no P(t)) */
  switch (ctx->hammer ? SK_TF_CONSTANT : ctx->load.type) {
  case SK_TF_RAMP:
  case SK_TF_SMOOTHSTEP:
  case SK_TF_PULSE:
    breaks[nbreak++] = ctx->load.t0;
    breaks[nbreak++] = ctx->load.t1;
    break;
  case SK_TF_TABLE:
    bp     = ctx->load.times;
    nbreak = ctx->load.ntable;
    break;
  default:
    break;
  }
  if (ctx->nblows > 0) { /* both ends of every blow */
    PetscCall(PetscMalloc1(2 * ctx->nblows, &bblow));
    for (PetscInt k = 0; k < ctx->nblows; k++) {
      bblow[2 * k]     = ctx->load.t0 + k * ctx->blow_period;
      bblow[2 * k + 1] = ctx->load.t1 + k * ctx->blow_period;
    }
    bp     = bblow;
    nbreak = 2 * ctx->nblows;
  }
  ierr = nbreak ? SKRodPairSetBreakpoints(rp, nbreak, bp) : PETSC_SUCCESS;
  PetscCall(PetscFree(bblow));
  PetscCall(ierr);
  /* the closed form the mode-matching method integrates exactly */
  switch (ctx->load.type) {
  case SK_TF_HARMONIC:
    PetscCall(SKRodPairSetLoadForm(rp, ctx->load.amplitude, ctx->load.omega, ctx->load.phase));
    break;
  case SK_TF_CONSTANT:
  case SK_TF_PULSE:
    PetscCall(SKRodPairSetLoadForm(rp, 0, 0, 0));
    break;
  default:
    PetscCheck(method != SK_RODPAIR_MMM, ctx->comm, PETSC_ERR_SUP,
               "-rodpair_solver mmm needs a harmonic, constant or pulse load; this input has a %s load: use rk45",
               SKTimeFunctionTypes[ctx->load.type]);
  }
  PetscCall(SKRodPairSetMMMSteps(rp, ctx->mmm_sample, ctx->mmm_coupling));
  PetscCall(SKRodPairSetMMMTransforms(rp, ctx->mmm_transform_min, ctx->mmm_nodes_min, ctx->mmm_fft_measure));

  mon->ctx  = ctx;
  mon->rp   = rp;
  mon->N    = p.N;
  mon->Nm   = p.Nm;
  mon->full = ctx->output_state;
  mon->nt   = (PetscInt)PetscFloorReal(ctx->t_end / ctx->dt_out + 1e-9) + 1;
  PetscCall(
      PetscCalloc4(mon->nt, &mon->times, mon->nt * ctx->ngrid, &mon->u, mon->nt * ctx->ngrid, &mon->vrel, mon->nt * p.N, &mon->state));
  if (mon->full)
    PetscCall(PetscMalloc4(mon->nt * p.N, &mon->un, mon->nt * p.N, &mon->vn, mon->nt * p.Nm, &mon->eta, mon->nt * p.Nm, &mon->etad));
  PetscCall(SKOutputHistoryCreate(out, "/rodpair/sections", 13, sec_cols, sec_units, &mon->sections));
  PetscCall(SKOutputHistoryCreate(out, "/rodpair/energy", 8, en_cols, en_units, &mon->energy));
  PetscCall(SKHistorySetFlushInterval(mon->sections, 200));
  PetscCall(SKHistorySetFlushInterval(mon->energy, 200));
  if (ctx->hammer) {
    const char *hcols[8]  = {"t",           "head_force",     "ram_velocity", "head_velocity", "hammer_input",
                             "ram_kinetic", "cushion_stored", "cushion_loss"};
    const char *hunits[8] = {"s", "N", "m/s", "m/s", "J", "J", "J", "J"};
    PetscCall(SKOutputHistoryCreate(out, "/rodpair/hammer", 8, hcols, hunits, &mon->hammer));
    PetscCall(SKHistorySetFlushInterval(mon->hammer, 200));
  }
  PetscCall(SKProgressCreate(ctx->comm, "rodpair", 0, ctx->t_end, &mon->progress));
  PetscCall(SKRodPairSetMonitor(rp, ctx->dt_out, RodPairMonitorFn, mon));

  cpu0 = clock();
  PetscCall(SKWallTime(&wall0));
  PetscCall(PetscLogEventBegin(solve_event, 0, 0, 0, 0));
  if (ctx->hammer)
    PetscCall(RodPairSolveHammer(ctx, rp, out, hcounts));
  else if (ctx->nblows > 0)
    PetscCall(RodPairSolveBlows(ctx, rp, method, out));
  else
    PetscCall(SKRodPairSolve(rp, method, ctx->t_end));
  PetscCall(PetscLogEventEnd(solve_event, 0, 0, 0, 0));
  PetscCall(SKWallTime(&wall1));
  cpu1 = clock();
  PetscCall(SKProgressDestroy(&mon->progress));

  dims[0] = mon->row;
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/time", 1, dims, mon->times));
  dims[1] = ctx->ngrid;
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/u1", 2, dims, mon->u));
  PetscCall(SKOutputWriteRealArray(out, "/rodpair/vrel", 2, dims, mon->vrel));
  dims[1] = p.N;
  PetscCall(SKOutputWriteIntArray(out, "/rodpair/state", 2, dims, mon->state));
  if (mon->full) {
    PetscCall(SKOutputWriteRealArray(out, "/rodpair/u1_nodal", 2, dims, mon->un));
    PetscCall(SKOutputWriteRealArray(out, "/rodpair/v1_nodal", 2, dims, mon->vn));
    dims[1] = p.Nm;
    PetscCall(SKOutputWriteRealArray(out, "/rodpair/eta", 2, dims, mon->eta));
    PetscCall(SKOutputWriteRealArray(out, "/rodpair/etadot", 2, dims, mon->etad));
  }
  PetscCall(WriteCoordinates(ctx, &p, out));
  PetscCall(SKRodPairGetCounts(rp, &steps, &rejected, &rhs, &events));
  if (ctx->hammer) { /* the blows were solved in pieces: their sums */
    steps    = hcounts[0];
    rejected = hcounts[1];
    rhs      = hcounts[2];
    events   = hcounts[3];
  }
  PetscCall(SKRodPairGetEnergy(rp, &e));
  PetscCall(SKOutputWriteAttributeString(out, "/rodpair", "solver", SKRodPairMethods[method]));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "nodes", p.N));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "modes", p.Nm));
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "rtol", rtol));
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "atol", atol));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "events", events));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "intervals", events + 1));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "steps", steps));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "rejected_steps", rejected));
  PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "rhs_evaluations", rhs));
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "wall_time", wall1 - wall0));
  /* process CPU time of the solve: the benchmark's measure, robust to other jobs on the machine */
  PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "cpu_time", (PetscReal)(cpu1 - cpu0) / CLOCKS_PER_SEC));
  PetscCall(
      SKOutputWriteAttributeReal(out, "/rodpair", "energy_balance_relative", mon->max_work > 0 ? mon->max_balance / mon->max_work : 0));
  PetscCall(SKOutputSummary(out, "solver", "%s (N = %" PetscInt_FMT ", N_m = %" PetscInt_FMT ", rtol %g)", SKRodPairMethods[method], p.N,
                            p.Nm, (double)rtol));
  PetscCall(SKOutputSummary(out, "intervals",
                            "%" PetscInt_FMT " (events %" PetscInt_FMT ", steps %" PetscInt_FMT ", rejected %" PetscInt_FMT ")", events + 1,
                            events, steps, rejected));
  {
    const PetscReal *omega;
    PetscReal frtol;
    PetscInt nm;
    PetscCall(SKRodPairGetRod2Modes(rp, &nm, &omega, &frtol));
    PetscCall(SKOutputWriteRealArray(out, "/rodpair/rod2_frequencies", 1, &nm, omega));
    PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "rod2_frequency_rtol", frtol));
    if (p.nseg2 > 0)
      PetscCall(SKOutputSummary(
          out, "rod 2 modes",
          "%" PetscInt_FMT " from the transfer matrices of %" PetscInt_FMT " layers%s, highest %.6g rad/s, frequencies to %.1e relative",
          nm, p.nseg2, ctx->modes_default ? " (the default for these rods and N)" : "", (double)omega[nm - 1], (double)frtol));
    else
      PetscCall(SKOutputSummary(out, "rod 2 modes", "%" PetscInt_FMT " (closed form%s), highest %.6g rad/s", nm,
                                ctx->modes_default ? "; the default for these rods and N" : "", (double)omega[nm - 1]));
  }
  if (method == SK_RODPAIR_MMM && p.nseg1 > 0) {
    PetscInt solves, hits, closed;
    PetscCall(SKRodPairGetMMMEigenCounts(rp, &solves, &hits, &closed));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "eigen_solves", solves));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "eigen_closed_form", closed));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "eigen_cache_hits", hits));
    PetscCall(SKOutputSummary(out, "segment eigen-solves",
                              "%" PetscInt_FMT " (%" PetscInt_FMT
                              " in closed form as two uniform pieces; eigenpairs found in the cache %" PetscInt_FMT " times)",
                              solves, closed, hits));
    if (solves > closed) { /* say why the others took LAPACK: a boundary inside an element, or several within a segment */
      PetscReal h = p.L1 / (p.N - 1), z = 0, off = -1;
      for (PetscInt k = 0; k < p.nseg1 - 1 && off < 0; k++) {
        z += p.seg1_length[k];
        if (PetscAbsReal(z / h - PetscFloorReal(z / h + 0.5)) > 1e-9) off = z;
      }
      if (off >= 0)
        PetscCall(SKOutputSummary(out, "segment boundaries",
                                  "z1 = %.6f m falls inside an element (nodes every %.6f m): the segments across it take "
                                  "LAPACK's eigen-solve; with every boundary on a node (each segment's length a multiple of "
                                  "L1 / (N - 1)) they are in closed form",
                                  (double)off, (double)h));
      else
        PetscCall(SKOutputSummary(out, "segment boundaries",
                                  "on nodes; %" PetscInt_FMT " segments across more than one boundary (or whose two pieces share "
                                  "a frequency) took LAPACK's eigen-solve",
                                  solves - closed));
    }
  }
  if (method == SK_RODPAIR_MMM) {
    PetscInt plans, tables;
    PetscCall(SKRodPairGetMMMTransformCounts(rp, &plans, &tables));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "fft_plans", plans));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "fft_chirp_tables", tables));
    PetscReal coupling = ctx->mmm_coupling > 0 ? ctx->mmm_coupling : SKRodPairDefaultMMMCoupling(&p);
    PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "mmm_coupling", coupling));
    PetscCall(SKOutputSummary(out, "coupling step", "%g / omega of the last rod-2 mode%s", (double)coupling,
                              ctx->mmm_coupling > 0 ? "" : " (the default for these rods)"));
    {
      PetscInt ev[SK_RODPAIR_MMM_EVAL_KINDS], tot = 0;
      PetscCall(SKRodPairGetMMMEventEvaluations(rp, ev));
      for (PetscInt k = 0; k < SK_RODPAIR_MMM_EVAL_KINDS; k++) tot += ev[k];
      PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "event_evaluations", tot));
      PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "event_evaluations_root", ev[2]));
      PetscCall(SKOutputSummary(out, "event evaluations",
                                "%.3g per event (samples %" PetscInt_FMT ", bracket starts %" PetscInt_FMT ", root finder %" PetscInt_FMT
                                ", wrong-way searches %" PetscInt_FMT ")",
                                (double)tot / PetscMax(events, 1), ev[0], ev[1], ev[2], ev[3]));
    }
    PetscCall(SKOutputSummary(out, "segment transforms",
                              "FFT for segments of %" PetscInt_FMT " nodes and more, %" PetscInt_FMT " FFTW plans, %" PetscInt_FMT
                              " chirp tables",
                              ctx->mmm_transform_min, plans, tables));
  }
  {
    PetscReal est, ratio;
    PetscInt need;
    PetscCall(SKRodPairGetRod2Truncation(rp, SK_RODPAIR_TRUNCATION_TOL, &est, &ratio, &need));
    PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "rod2_truncation", est));
    PetscCall(SKOutputWriteAttributeReal(out, "/rodpair", "rod2_truncation_ratio", ratio));
    PetscCall(SKOutputWriteAttributeInt(out, "/rodpair", "rod2_modes_needed", need));
    PetscCall(SKOutputSummary(out, "rod 2 truncation",
                              "%.1e of u1 (estimated from the top modes' velocity ratio %.1e); %g needs N_m >= %" PetscInt_FMT, (double)est,
                              (double)ratio, (double)SK_RODPAIR_TRUNCATION_TOL, need));
    /* the user must see it, also with -quiet: stderr */
    if (est > SK_RODPAIR_TRUNCATION_TOL)
      PetscCall(PetscFPrintf(ctx->comm, PETSC_STDERR,
                             "stickslip: warning: rod 2 has too few modes: N_m = %" PetscInt_FMT
                             " truncates it by an estimated %.1e of the u1 histories, more than %g; use N_m >= %" PetscInt_FMT
                             " (-rodpair_modes or <discretization modes=>)\n",
                             p.Nm, (double)est, (double)SK_RODPAIR_TRUNCATION_TOL, need));
  }
  PetscCall(SKOutputSummary(out, "tip displacement", "%.6e m at t = %g s", (double)mon->u[(mon->row - 1) * ctx->ngrid + ctx->ngrid - 1],
                            (double)(ctx->hammer ? mon->times[mon->row - 1] : ctx->t_end))); /* hammer blows end at rest */
  PetscCall(SKOutputSummary(out, "energy balance",
                            ctx->hammer ? "%.3e of the ram's impact energy (max over time)" : "%.3e of the work of P (max over time)",
                            (double)(mon->max_work > 0 ? mon->max_balance / mon->max_work : 0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RodPairWorkRelease(void *work)
{
  RodPairWork *r = (RodPairWork *)work;

  PetscFunctionBegin;
  PetscCall(SKProgressDestroy(&r->mon.progress)); /* the progress line cleared also when the run stops */
  PetscCall(PetscFree4(r->mon.times, r->mon.u, r->mon.vrel, r->mon.state));
  PetscCall(PetscFree4(r->mon.un, r->mon.vn, r->mon.eta, r->mon.etad));
  PetscCall(SKRodPairDestroy(&r->rp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RodPairRun(void *ctx, SKOutput out)
{
  RodPairWork work;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&work, sizeof(work)));
  PetscCall(SKSolverRunWith(ctx, out, &work, RodPairRunWith, RodPairWorkRelease));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverRodPair = {
    .name        = "rodpair",
    .schema      = "rodpair.xsd",
    .description = SolverDescription,
    .setup       = RodPairSetup,
    .run         = RodPairRun,
    .destroy     = RodPairDestroy,
};
