/* The rod-pair object: state, right-hand side with Coulomb stick constraints, event functions and state switching.
   Shared by every integrator (RK45, CVODE) so that they all solve the same semi-discrete model. */
#include "rodpairimpl.h"

const char *const SKRodPairMethods[] = {"rk45", "cvode", "mmm", "SKRodPairMethod", "SK_RODPAIR_", NULL};

#define U(y) (y)
#define V(y) ((y) + rp->model.N)
#define ETA(y) ((y) + 2 * rp->model.N)
#define ETAD(y) ((y) + 2 * rp->model.N + rp->model.Nm)
#define RAM(y) ((y) + 2 * rp->model.N + 2 * rp->model.Nm) /* hammer: ram position w, velocity wdot */

static PetscBool Frictional(SKRodPair rp)
{
  return rp->model.cap_s[0] > 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* Cushion force (N) on the head for the state y, on the cushion's current branch (Smith): loading k d, unloading and
   reloading k / e^2 (d - d0) with d0 = dmax (1 - e^2), where that line meets F = 0; d = w - u1(0) the compression. */
static PetscReal CushionForce(SKRodPair rp, const PetscReal y[])
{
  const SKRodPairParams *p = &rp->params;
  PetscReal d = RAM(y)[0] - U(y)[0], e2 = p->restitution * p->restitution;

  switch (rp->cushion) {
  case SK_CUSHION_LOADING:
    return p->cushion_stiffness * d;
  case SK_CUSHION_UNLOADING:
    return p->cushion_stiffness / e2 * (d - rp->dmax * (1 - e2));
  default:
    return 0;
  }
}

/* Largest compression of the current contact: the present one while loading. */
static PetscReal CushionMaxCompression(SKRodPair rp, const PetscReal y[])
{
  return rp->cushion == SK_CUSHION_LOADING ? RAM(y)[0] - U(y)[0] : rp->dmax;
}

/* Energy lost in the cushion during the current contact: loading to dmax stores k dmax^2 / 2, of which unloading along
   k / e^2 returns e^2 k dmax^2 / 2; reloading and unloading along that line lose nothing. */
static PetscReal CushionLoss(SKRodPair rp, const PetscReal y[])
{
  const SKRodPairParams *p = &rp->params;
  PetscReal dm             = CushionMaxCompression(rp, y);

  return 0.5 * (1 - p->restitution * p->restitution) * p->cushion_stiffness * dm * dm;
}

/* Recoverable energy in the cushion: F^2 / (2 k / e^2) on either branch (on the loading line it is what unloading
   would give back). */
static PetscReal CushionStored(SKRodPair rp, const PetscReal y[])
{
  const SKRodPairParams *p = &rp->params;
  PetscReal F              = CushionForce(rp, y);

  return 0.5 * F * F * p->restitution * p->restitution / p->cushion_stiffness;
}

/* signed contact function: > 0 while the tributary segment of node i overlaps rod 2 */
static PetscReal ContactGap(const SKRodPairModel *m, PetscInt i, PetscReal ui)
{
  PetscReal zbar = m->z[i] + ui - m->l1;
  return PetscMin(zbar + m->hr[i], m->L2 + m->hl[i] - zbar);
}

PetscErrorCode SKRodPairCholeskyFactor(PetscInt n, PetscReal A[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < n; j++) {
    PetscReal d = A[j * n + j];
    for (PetscInt k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
    PetscCheck(d > 0, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT,
               "Stick constraint matrix is not positive definite (pivot %" PetscInt_FMT " = %g)", j, (double)d);
    d            = PetscSqrtReal(d);
    A[j * n + j] = d;
    for (PetscInt i = j + 1; i < n; i++) {
      PetscReal s = A[i * n + j];
      for (PetscInt k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / d;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKRodPairCholeskySolve(PetscInt n, const PetscReal L[], PetscReal x[])
{
  for (PetscInt i = 0; i < n; i++) {
    PetscReal s = x[i];
    for (PetscInt k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (PetscInt i = n - 1; i >= 0; i--) {
    PetscReal s = x[i];
    for (PetscInt k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}

/* c[l] += h g[l], l < n (restrict: vectorised) */
static void AddScaledRow(PetscInt n, PetscReal h, const PetscReal *restrict g, PetscReal *restrict c)
{
  for (PetscInt l = 0; l < n; l++) c[l] += h * g[l];
}

static PetscErrorCode FactorStick(SKRodPair rp)
{
  const SKRodPairModel *m = &rp->model;
  PetscInt ns = 0, Nm = m->Nm;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m->N; i++)
    if (rp->state[i] == SK_ROD_STICK) rp->stick_idx[ns++] = i;
  rp->nstick = ns;
  /* A = diag(1/m) + G G^T (the stick constraints a_i = g_i . etadd solved for the holding forces) is a diagonal plus a
     rank-Nm term: by the Woodbury identity A^-1 = D - D G C^-1 G^T D with D = diag(m) and C = I + G^T D G (Nm x Nm,
     symmetric, C >= I so well conditioned). Factoring C costs O(ns Nm^2), a solve O(ns Nm), where the ns x ns Cholesky
     factor of A cost O(ns^3) and O(ns^2) (ns ~ 50 at every event of the validation case at N = 301). */
  /* C's lower triangle accumulated node by node (outer products, vectorised over l), each entry's sum in the same order
     as a sum over the nodes per entry would take it */
  for (PetscInt k = 0; k < Nm; k++)
    for (PetscInt l = 0; l <= k; l++) rp->capm[k * Nm + l] = k == l ? 1 : 0;
  for (PetscInt a = 0; a < ns; a++) {
    PetscInt i         = rp->stick_idx[a];
    const PetscReal *g = rp->gstick + i * Nm;
    for (PetscInt k = 0; k < Nm; k++) rp->mg[k] = g[k] * m->mass[i];
    for (PetscInt k = 0; k < Nm; k++) AddScaledRow(k + 1, rp->mg[k], g, rp->capm + k * Nm);
  }
  for (PetscInt k = 0; k < Nm; k++)
    for (PetscInt l = 0; l < k; l++) rp->capm[l * Nm + k] = rp->capm[k * Nm + l];
  PetscCall(PetscArraycpy(rp->chol, rp->capm, Nm * Nm));
  PetscCall(SKRodPairCholeskyFactor(Nm, rp->chol));
  rp->factored = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairStickCapacitance(SKRodPair rp, const PetscReal **C)
{
  PetscFunctionBegin;
  if (!rp->factored) PetscCall(FactorStick(rp));
  *C = rp->capm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S[a] = G[a] . B for K coupling vectors: four dependent chains side by side, each in the order of one alone */
static void StickProjections(PetscInt Nm, PetscInt k, const PetscReal *const G[], const PetscReal B[], PetscReal S[])
{
  PetscInt a = 0;

  for (; a + 4 <= k; a += 4) {
    const PetscReal *g0 = G[a], *g1 = G[a + 1], *g2 = G[a + 2], *g3 = G[a + 3];
    PetscReal s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (PetscInt n = 0; n < Nm; n++) {
      s0 += g0[n] * B[n];
      s1 += g1[n] * B[n];
      s2 += g2[n] * B[n];
      s3 += g3[n] * B[n];
    }
    S[a] = s0, S[a + 1] = s1, S[a + 2] = s2, S[a + 3] = s3;
  }
  for (; a < k; a++) {
    PetscReal s = 0;
    for (PetscInt n = 0; n < Nm; n++) s += G[a][n] * B[n];
    S[a] = s;
  }
}

/* x = A^-1 x for the factored stick set (FactorStick), G[a] the coupling vector of its a-th node; w: Nm work values,
   s: one per sticking node */
static void StickSolve(SKRodPair rp, const PetscReal *const G[], PetscReal x[], PetscReal w[], PetscReal s[])
{
  const SKRodPairModel *m = &rp->model;
  PetscInt ns = rp->nstick, Nm = m->Nm;

  for (PetscInt k = 0; k < Nm; k++) w[k] = 0;
  for (PetscInt a = 0; a < ns; a++) {
    x[a] *= m->mass[rp->stick_idx[a]];
    for (PetscInt k = 0; k < Nm; k++) w[k] += G[a][k] * x[a];
  }
  SKRodPairCholeskySolve(Nm, rp->chol, w);
  StickProjections(Nm, ns, G, w, s);
  for (PetscInt a = 0; a < ns; a++) x[a] -= m->mass[rp->stick_idx[a]] * s[a];
}

/* The friction forces F[IDX[a]] of K nodes with coupling vectors G[a] load rod 2's modes, B -= F_i g_i, and each
   node's relative velocity is VREL[i] = v_i - g_i . etad. A node's product g_i . etad is a chain of dependent additions
   over the modes, bound by their latency: four nodes share a pass, each sum (and each entry of B over the nodes) in the
   order of one node at a time, so that the results are those of a node at a time, bit for bit. */
static void LoadRod2(PetscInt Nm, PetscInt k, const PetscInt idx[], const PetscReal *const G[], const PetscReal F[], const PetscReal v[],
                     const PetscReal etad[], PetscReal b[], PetscReal vrel[])
{
  PetscInt a = 0;

  for (; a + 4 <= k; a += 4) {
    const PetscReal *g0 = G[a], *g1 = G[a + 1], *g2 = G[a + 2], *g3 = G[a + 3];
    const PetscReal F0 = F[idx[a]], F1 = F[idx[a + 1]], F2 = F[idx[a + 2]], F3 = F[idx[a + 3]];
    PetscReal w0 = 0, w1 = 0, w2 = 0, w3 = 0;
    for (PetscInt n = 0; n < Nm; n++) {
      PetscReal bn = b[n];
      bn -= F0 * g0[n];
      bn -= F1 * g1[n];
      bn -= F2 * g2[n];
      bn -= F3 * g3[n];
      b[n] = bn;
      w0 += g0[n] * etad[n];
      w1 += g1[n] * etad[n];
      w2 += g2[n] * etad[n];
      w3 += g3[n] * etad[n];
    }
    vrel[idx[a]]     = v[idx[a]] - w0;
    vrel[idx[a + 1]] = v[idx[a + 1]] - w1;
    vrel[idx[a + 2]] = v[idx[a + 2]] - w2;
    vrel[idx[a + 3]] = v[idx[a + 3]] - w3;
  }
  for (; a < k; a++) {
    const PetscReal *gi = G[a], Fi = F[idx[a]];
    PetscReal w = 0;
    for (PetscInt n = 0; n < Nm; n++) {
      b[n] -= Fi * gi[n];
      w += gi[n] * etad[n];
    }
    vrel[idx[a]] = v[idx[a]] - w;
  }
}

PetscErrorCode SKRodPairRHS(SKRodPair rp, PetscReal t, const PetscReal y[], PetscReal dy[])
{
  const SKRodPairModel *m = &rp->model;
  PetscInt N = m->N, Nm = m->Nm;
  const PetscReal *u = U(y), *v = V(y), *eta = ETA(y), *etad = ETAD(y);
  PetscReal *b = rp->b, *g = rp->g, *F = rp->force, *fint = rp->fint, P = rp->load(rp->load_ctx, t), diss = 0, Fc = 0;
  PetscInt nslip = 0;

  PetscFunctionBegin;
  if (!rp->factored) PetscCall(FactorStick(rp));
  rp->rhs_evals++;
  SKRodPairInternalForce(m, u, fint);
  fint[0] += P;
  if (rp->hammer) {
    Fc = CushionForce(rp, y);
    fint[0] += Fc;
  }
  for (PetscInt n = 0; n < Nm; n++) b[n] = -m->omega[n] * m->omega[n] * eta[n];
  /* slipping nodes: kinetic friction on their clipped tributary length; the reaction loads rod 2 where they are now
     (the couplings of the nodes that moved, four at a time) */
  PetscCall(SKRodPairSlipCouplingsAt(rp, y, NULL));
  for (PetscInt i = 0; i < N; i++) {
    F[i] = 0;
    if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) {
      PetscReal zbar      = m->z[i] + u[i] - m->l1;
      rp->cw_g[nslip]     = rp->gslip + i * Nm;
      rp->cw_idx[nslip++] = i;
      F[i]                = (rp->state[i] == SK_ROD_SLIP_POS ? -1 : 1) * SKRodPairCapacity(m, i, zbar, PETSC_TRUE);
    }
  }
  LoadRod2(Nm, nslip, rp->cw_idx, (const PetscReal *const *)rp->cw_g, F, v, etad, b, rp->vrel);
  /* sticking nodes: holding forces from the constraints, with the coupling frozen at the moment they stuck */
  if (rp->nstick) {
    for (PetscInt a = 0; a < rp->nstick; a++) rp->cw_g[a] = rp->gstick + rp->stick_idx[a] * Nm;
    StickProjections(Nm, rp->nstick, (const PetscReal *const *)rp->cw_g, b, rp->rhs);
    for (PetscInt a = 0; a < rp->nstick; a++) rp->rhs[a] -= fint[rp->stick_idx[a]] / m->mass[rp->stick_idx[a]];
    StickSolve(rp, (const PetscReal *const *)rp->cw_g, rp->rhs, g, rp->cw_len);
    for (PetscInt a = 0; a < rp->nstick; a++) F[rp->stick_idx[a]] = rp->rhs[a];
    LoadRod2(Nm, rp->nstick, rp->stick_idx, (const PetscReal *const *)rp->cw_g, F, v, etad, b, rp->vrel);
  }
  for (PetscInt i = 0; i < N; i++) {
    dy[i]     = v[i];
    dy[N + i] = (fint[i] + F[i]) / m->mass[i];
    if (rp->state[i] != SK_ROD_FREE) diss -= F[i] * rp->vrel[i];
  }
  for (PetscInt n = 0; n < Nm; n++) {
    dy[2 * N + n]      = etad[n];
    dy[2 * N + Nm + n] = b[n];
  }
  if (rp->hammer) {
    dy[2 * N + 2 * Nm]     = RAM(y)[1];
    dy[2 * N + 2 * Nm + 1] = -Fc / rp->params.ram_mass;
    P += Fc; /* the work column is the work of the force on the head */
  }
  dy[rp->n - 2] = P * v[0];
  dy[rp->n - 1] = diss;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKRodPairEventValues(SKRodPair rp, const PetscReal y[], PetscReal e[])
{
  const SKRodPairModel *m = &rp->model;

  for (PetscInt i = 0; i < m->N; i++) {
    PetscReal gap = ContactGap(m, i, y[i]);
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      e[2 * i]     = 1;
      e[2 * i + 1] = Frictional(rp) ? -gap : 1;
      break;
    case SK_ROD_SLIP_POS:
      e[2 * i]     = rp->vrel[i];
      e[2 * i + 1] = gap;
      break;
    case SK_ROD_SLIP_NEG:
      e[2 * i]     = -rp->vrel[i];
      e[2 * i + 1] = gap;
      break;
    case SK_ROD_STICK: {
      e[2 * i]     = SKRodPairCapacity(m, i, m->z[i] + y[i] - m->l1, PETSC_FALSE) - PetscAbsReal(rp->force[i]);
      e[2 * i + 1] = gap;
    } break;
    }
  }
  /* the cushion: loading until the compression rate reaches zero; unloading until the force reaches zero (the ram
     leaves) or the compression passes dmax again (loading resumes) */
  if (rp->hammer) {
    PetscReal *eh = e + 2 * m->N;
    switch (rp->cushion) {
    case SK_CUSHION_LOADING:
      eh[0] = RAM(y)[1] - V(y)[0];
      eh[1] = 1;
      break;
    case SK_CUSHION_UNLOADING:
      eh[0] = CushionForce(rp, y);
      eh[1] = rp->dmax - (RAM(y)[0] - U(y)[0]);
      break;
    default:
      eh[0] = eh[1] = 1;
    }
  }
}

/* Switches the cushion's branch when one of its event functions (trigger[0], trigger[1]) fired at state y. */
static void CushionResolve(SKRodPair rp, const PetscReal y[], const PetscBool trigger[])
{
  rp->prev_cushion = rp->cushion;
  if (!trigger[0] && !trigger[1]) return;
  rp->armed[2 * rp->model.N] = rp->armed[2 * rp->model.N + 1] = PETSC_FALSE;
  rp->events++;
  if (rp->cushion == SK_CUSHION_LOADING) {
    rp->dmax    = RAM(y)[0] - U(y)[0];
    rp->cushion = SK_CUSHION_UNLOADING;
  } else if (rp->cushion == SK_CUSHION_UNLOADING)
    rp->cushion = trigger[1] ? SK_CUSHION_LOADING : SK_CUSHION_OPEN;
}

const PetscReal *SKRodPairSlipCoupling(SKRodPair rp, PetscInt i, PetscReal zbar, PetscReal *len)
{
  const SKRodPairModel *m = &rp->model;
  PetscReal *g            = rp->gslip + i * m->Nm;

  if (rp->zslip[i] != zbar) {
    rp->lslip[i] = SKRodPairCoupling(m, zbar, m->hl[i], m->hr[i], g);
    rp->zslip[i] = zbar;
  }
  if (len) *len = rp->lslip[i];
  return g;
}

PetscErrorCode SKRodPairSlipCouplingsAt(SKRodPair rp, const PetscReal y[], PetscReal gout[])
{
  const SKRodPairModel *m = &rp->model;
  PetscInt k = 0, done, *idx = rp->cw_idx;
  PetscReal *zb = rp->cw_zbar, *len = rp->cw_len, **g = rp->cw_g;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m->N; i++) {
    PetscReal zbar = m->z[i] + y[i] - m->l1;
    if ((rp->state[i] != SK_ROD_SLIP_POS && rp->state[i] != SK_ROD_SLIP_NEG) || (!gout && rp->zslip[i] == zbar)) continue;
    idx[k] = i;
    zb[k]  = zbar;
    g[k]   = (gout ? gout : rp->gslip) + i * m->Nm;
    k++;
  }
  done = SKRodPairCouplings(m, k, idx, zb, g, len);
  for (PetscInt b = 0; b < k; b++) {
    if (b >= done) len[b] = SKRodPairCoupling(m, zb[b], m->hl[idx[b]], m->hr[idx[b]], g[b]); /* the rest one by one */
    if (gout) continue;
    rp->lslip[idx[b]] = len[b];
    rp->zslip[idx[b]] = zb[b];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The stick constraint is imposed on accelerations, so the relative velocity of a sticking node would drift with the
   integration error; resetting v_i = g_i . etadot keeps it exactly zero, and a node released later starts from rest
   relative to rod 2, in the direction its holding force says. The kinetic-energy change is of the order of the tolerance. */
void SKRodPairProjectStick(SKRodPair rp, PetscReal y[])
{
  const SKRodPairModel *m = &rp->model;

  for (PetscInt i = 0; i < m->N; i++) {
    if (rp->state[i] == SK_ROD_STICK) {
      const PetscReal *g = rp->gstick + i * m->Nm;
      PetscReal w        = 0;
      for (PetscInt n = 0; n < m->Nm; n++) w += g[n] * ETAD(y)[n];
      V(y)[i] = w;
    }
  }
}

static PetscErrorCode Stick(SKRodPair rp, PetscInt i, PetscReal y[])
{
  const SKRodPairModel *m = &rp->model;

  PetscFunctionBegin;
  (void)SKRodPairCoupling(m, m->z[i] + y[i] - m->l1, m->hl[i], m->hr[i], rp->gstick + i * m->Nm);
  rp->state[i] = SK_ROD_STICK;
  rp->factored = PETSC_FALSE;
  SKRodPairProjectStick(rp, y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Slip(SKRodPair rp, PetscInt i, PetscReal direction)
{
  if (rp->state[i] == SK_ROD_STICK) rp->factored = PETSC_FALSE;
  rp->state[i] = direction > 0 ? SK_ROD_SLIP_POS : SK_ROD_SLIP_NEG;
}

/* Relative tolerance on the holding force before a sticking node is released: round-off of the constraint solve. */
#define SK_STICK_SLACK 1e-10

PetscErrorCode SKRodPairLocateEvent(SKRodPairEventMinFn f, void *ctx, PetscReal a, PetscReal b, PetscReal fa, PetscReal fb, PetscReal scale,
                                    PetscReal tol, PetscReal *root)
{
  PetscInt side = 0;

  PetscFunctionBegin;
  for (PetscInt it = 0; it < 100 && (b - a) * scale > tol; it++) {
    PetscReal th = (fb * a - fa * b) / (fb - fa), fth;

    if (!(th > a && th < b) || it % 8 == 7) th = 0.5 * (a + b);
    PetscCall(f(ctx, th, &fth));
    if (fth <= 0) {
      b  = th;
      fb = fth;
      if (side == -1) fa *= 0.5;
      side = -1;
    } else {
      a  = th;
      fa = fth;
      if (side == 1) fb *= 0.5;
      side = 1;
    }
  }
  *root = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairResolve(SKRodPair rp, PetscReal t, PetscReal y[], const PetscBool trigger[])
{
  const SKRodPairModel *m = &rp->model;
  PetscInt N              = m->N;
  PetscBool released      = PETSC_FALSE;

  PetscFunctionBegin;
  /* the forces before switching decide the slip direction of a released sticking node; without one the right-hand
     side below (after the switch) is the first one needed */
  for (PetscInt i = 0; i < N && !released; i++)
    released = (PetscBool)(trigger[2 * i] && !trigger[2 * i + 1] && rp->state[i] == SK_ROD_STICK);
  if (released) PetscCall(SKRodPairRHS(rp, t, y, rp->ytmp));
  for (PetscInt i = 0; i < N; i++) rp->prev_state[i] = rp->state[i];
  if (rp->hammer) CushionResolve(rp, y, trigger + 2 * N);
  for (PetscInt i = 0; i < N; i++) {
    if (!trigger[2 * i] && !trigger[2 * i + 1]) continue;
    rp->armed[2 * i] = rp->armed[2 * i + 1] = PETSC_FALSE;
    rp->events++;
    if (trigger[2 * i + 1]) {
      if (rp->state[i] == SK_ROD_FREE) { /* enters rod 2: slides with its relative velocity, or tries to stick */
        PetscReal w = 0, len = SKRodPairCoupling(m, m->z[i] + y[i] - m->l1, m->hl[i], m->hr[i], rp->g);
        (void)len;
        for (PetscInt n = 0; n < m->Nm; n++) w += rp->g[n] * ETAD(y)[n];
        if (V(y)[i] - w != 0)
          Slip(rp, i, V(y)[i] - w);
        else
          PetscCall(Stick(rp, i, y));
      } else {
        if (rp->state[i] == SK_ROD_STICK) rp->factored = PETSC_FALSE;
        rp->state[i] = SK_ROD_FREE;
      }
    } else if (rp->state[i] == SK_ROD_STICK)
      Slip(rp, i, -rp->force[i]);
    else
      PetscCall(Stick(rp, i, y));
  }
  /* release, one at a time and worst first, the sticking nodes whose holding force exceeds mu_s NF h */
  for (PetscInt it = 0; it <= N; it++) {
    PetscInt worst  = -1;
    PetscReal ratio = 1 + SK_STICK_SLACK;
    PetscCall(SKRodPairRHS(rp, t, y, rp->ytmp));
    for (PetscInt i = 0; i < N; i++) {
      if (rp->state[i] == SK_ROD_STICK) {
        PetscReal r = PetscAbsReal(rp->force[i]) / SKRodPairCapacity(m, i, m->z[i] + y[i] - m->l1, PETSC_FALSE);
        if (r > ratio) {
          ratio = r;
          worst = i;
        }
      }
    }
    if (worst < 0) break;
    Slip(rp, worst, -rp->force[worst]);
    rp->armed[2 * worst] = rp->armed[2 * worst + 1] = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool SKRodPairAtTangency(SKRodPair rp, PetscReal t, PetscInt i)
{
  PetscBool slipping = (PetscBool)(rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG);
  return (PetscBool)(slipping && t == rp->redecide_t && rp->redecided[i] >= 2);
}

void SKRodPairCountRedecided(SKRodPair rp, PetscReal t, const PetscBool trigger[])
{
  if (t != rp->redecide_t) {
    for (PetscInt i = 0; i < rp->model.N; i++) rp->redecided[i] = 0;
    rp->redecide_t = t;
  }
  for (PetscInt i = 0; i < rp->model.N; i++)
    if (trigger[2 * i] || trigger[2 * i + 1]) rp->redecided[i]++;
}

PetscBool SKRodPairWrongWay(SKRodPair rp, PetscReal t, const PetscReal e[], PetscBool trigger[])
{
  PetscBool any = PETSC_FALSE;

  for (PetscInt j = 0; j < rp->nev; j++) {
    trigger[j] = (!rp->armed[j] && e[j] < 0) ? PETSC_TRUE : PETSC_FALSE;
    if (trigger[j] && j % 2 == 0 && j < 2 * rp->model.N && SKRodPairAtTangency(rp, t, j / 2)) trigger[j] = PETSC_FALSE; /* keep slipping */
    any = (PetscBool)(any || trigger[j]);
  }
  SKRodPairCountRedecided(rp, t, trigger);
  return any;
}

void SKRodPairArmAfterEvent(SKRodPair rp)
{
  for (PetscInt i = 0; i < rp->model.N + (rp->hammer ? 1 : 0); i++) {
    PetscBool same = i < rp->model.N ? (PetscBool)(rp->state[i] == rp->prev_state[i]) : (PetscBool)(rp->cushion == rp->prev_cushion);
    for (PetscInt f = 0; f < 2; f++) {
      PetscInt j = 2 * i + f;
      if (same && rp->evals0[j] > 0) rp->armed[j] = PETSC_TRUE;
      if (rp->armed[j] && rp->evals0[j] <= 0) rp->armed[j] = PETSC_FALSE;
    }
  }
}

PetscErrorCode SKRodPairCreate(MPI_Comm comm, const SKRodPairParams *params, SKRodPairLoadFn load, void *load_ctx, SKRodPair *rp_out)
{
  SKRodPair rp;
  PetscInt N, Nm, n;

  PetscFunctionBegin;
  PetscCall(PetscNew(&rp));
  rp->comm     = comm;
  rp->params   = *params;
  rp->load     = load;
  rp->load_ctx = load_ctx;
  PetscCheck(params->ram_mass >= 0 && params->helmet_mass >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Ram mass %g kg and helmet mass %g kg must be non-negative", (double)params->ram_mass, (double)params->helmet_mass);
  PetscCheck(params->ram_mass == 0 || (params->cushion_stiffness > 0 && params->restitution > 0 && params->restitution <= 1), comm,
             PETSC_ERR_ARG_OUTOFRANGE, "Hammer: cushion stiffness %g N/m must be positive, restitution %g in (0, 1]",
             (double)params->cushion_stiffness, (double)params->restitution);
  PetscCall(SKRodPairModelCreate(params, &rp->model));
  N          = params->N;
  Nm         = params->Nm;
  rp->hammer = params->ram_mass > 0 ? PETSC_TRUE : PETSC_FALSE;
  n          = 2 * N + 2 * Nm + 2 + (rp->hammer ? 2 : 0);
  rp->n      = n;
  rp->nev    = 2 * N + (rp->hammer ? 2 : 0);
  PetscCall(PetscCalloc1(n, &rp->y));
  PetscCall(PetscCalloc1(N, &rp->state));
  PetscCall(PetscCalloc1(N, &rp->prev_state));
  PetscCall(PetscCalloc1(rp->nev, &rp->armed));
  PetscCall(PetscCalloc1(N, &rp->redecided));
  rp->redecide_t = -1;
  PetscCall(PetscCalloc1((size_t)N * Nm, &rp->gstick));
  PetscCall(PetscCalloc1(N, &rp->stick_idx));
  PetscCall(PetscCalloc1((size_t)Nm * Nm, &rp->chol));
  PetscCall(PetscCalloc1((size_t)Nm * Nm, &rp->capm));
  PetscCall(PetscCalloc1(Nm, &rp->mg));
  PetscCall(PetscCalloc1((size_t)N * Nm, &rp->gout));
  PetscCall(PetscCalloc1(N, &rp->force));
  PetscCall(PetscCalloc1(N, &rp->vrel));
  PetscCall(PetscCalloc1(N, &rp->vrel_out));
  PetscCall(PetscCalloc1(N, &rp->fint));
  PetscCall(PetscCalloc1(N, &rp->rhs));
  PetscCall(PetscCalloc1(Nm, &rp->b));
  PetscCall(PetscCalloc1(Nm, &rp->g));
  PetscCall(PetscMalloc3((size_t)N * Nm, &rp->gslip, N, &rp->zslip, N, &rp->lslip));
  PetscCall(PetscMalloc4(N, &rp->cw_idx, N, &rp->cw_zbar, N, &rp->cw_len, N, &rp->cw_g));
  for (PetscInt i = 0; i < N; i++) rp->zslip[i] = PETSC_MAX_REAL;
  PetscCall(PetscCalloc1(n, &rp->atolv));
  for (PetscInt s = 0; s < 7; s++) PetscCall(PetscCalloc1(n, &rp->k[s]));
  for (PetscInt s = 0; s < 5; s++) PetscCall(PetscCalloc1(n, &rp->rcont[s]));
  PetscCall(PetscCalloc1(n, &rp->ytmp));
  PetscCall(PetscCalloc1(n, &rp->ynew));
  PetscCall(PetscCalloc1(n, &rp->yint));
  PetscCall(PetscCalloc1(rp->nev, &rp->evals0));
  PetscCall(PetscCalloc1(rp->nev, &rp->evals1));
  PetscCall(PetscCalloc2(rp->nev, &rp->watch, rp->nev, &rp->trigger));
  rp->rtol              = 1e-7;
  rp->atol              = 1e-10;
  rp->hmax              = PETSC_MAX_REAL;
  rp->mmm_sample        = 1.0;
  rp->mmm_coupling      = 0; /* SKRodPairDefaultMMMCoupling() */
  rp->mmm_transform_min = SK_RODPAIR_MMM_SEG_MIN;
  rp->mmm_nodes_min     = SK_RODPAIR_MMM_NODES_MIN;
  /* at rest: every node whose tributary segment overlaps rod 2 sticks, then the overloaded ones are released */
  if (Frictional(rp)) {
    PetscBool *trigger;
    for (PetscInt i = 0; i < N; i++)
      if (ContactGap(&rp->model, i, 0) > 0) PetscCall(Stick(rp, i, rp->y));
    PetscCall(PetscCalloc1(rp->nev, &trigger));
    PetscCall(SKRodPairResolve(rp, 0, rp->y, trigger));
    PetscCall(PetscFree(trigger));
  }
  rp->events = 0;
  *rp_out    = rp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairDestroy(SKRodPair *rp_in)
{
  SKRodPair rp = *rp_in;

  PetscFunctionBegin;
  if (!rp) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKRodPairModelDestroy(&rp->model));
  PetscCall(PetscFree(rp->y));
  PetscCall(PetscFree(rp->state));
  PetscCall(PetscFree(rp->prev_state));
  PetscCall(PetscFree(rp->armed));
  PetscCall(PetscFree(rp->redecided));
  PetscCall(PetscFree(rp->gstick));
  PetscCall(PetscFree(rp->stick_idx));
  PetscCall(PetscFree(rp->chol));
  PetscCall(PetscFree(rp->capm));
  PetscCall(PetscFree(rp->mg));
  PetscCall(PetscFree(rp->gout));
  PetscCall(PetscFree(rp->force));
  PetscCall(PetscFree(rp->vrel));
  PetscCall(PetscFree(rp->vrel_out));
  PetscCall(PetscFree(rp->fint));
  PetscCall(PetscFree(rp->rhs));
  PetscCall(PetscFree(rp->b));
  PetscCall(PetscFree(rp->g));
  PetscCall(PetscFree3(rp->gslip, rp->zslip, rp->lslip));
  PetscCall(PetscFree4(rp->cw_idx, rp->cw_zbar, rp->cw_len, rp->cw_g));
  PetscCall(PetscFree(rp->atolv));
  for (PetscInt s = 0; s < 7; s++) PetscCall(PetscFree(rp->k[s]));
  for (PetscInt s = 0; s < 5; s++) PetscCall(PetscFree(rp->rcont[s]));
  PetscCall(PetscFree(rp->ytmp));
  PetscCall(PetscFree(rp->ynew));
  PetscCall(PetscFree(rp->yint));
  PetscCall(PetscFree(rp->evals0));
  PetscCall(PetscFree(rp->evals1));
  PetscCall(PetscFree2(rp->watch, rp->trigger));
  PetscCall(PetscFree(rp->breaks));
  PetscCall(PetscFree(rp));
  *rp_in = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetTolerances(SKRodPair rp, PetscReal rtol, PetscReal atol)
{
  PetscFunctionBegin;
  PetscCheck(rtol > 0 && atol > 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Tolerances must be positive, got rtol %g atol %g", (double)rtol,
             (double)atol);
  rp->rtol = rtol;
  rp->atol = atol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetMaxStep(SKRodPair rp, PetscReal hmax)
{
  PetscFunctionBegin;
  PetscCheck(hmax > 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Maximum step must be positive, got %g", (double)hmax);
  rp->hmax = hmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetBreakpoints(SKRodPair rp, PetscInt n, const PetscReal t[])
{
  PetscFunctionBegin;
  PetscCall(PetscFree(rp->breaks));
  rp->nbreak = n;
  PetscCall(PetscMalloc1(n, &rp->breaks));
  for (PetscInt i = 0; i < n; i++) rp->breaks[i] = t[i];
  PetscCall(PetscSortReal(n, rp->breaks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetLoadForm(SKRodPair rp, PetscReal P0, PetscReal W, PetscReal phase)
{
  PetscFunctionBegin;
  PetscCheck(W >= 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Load frequency must be non-negative, got %g", (double)W);
  rp->load_form_set = PETSC_TRUE;
  rp->load_P0       = P0;
  rp->load_W        = W;
  rp->load_phase    = phase;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKRodPairDefaultMMMCoupling(const SKRodPairParams *p)
{
  PetscReal ea1 = p->nseg1 > 0 ? 0 : p->EA1, ea2 = p->nseg2 > 0 ? PETSC_MAX_REAL : p->EA2;

  for (PetscInt s = 0; s < p->nseg1; s++) ea1 = PetscMax(ea1, p->seg1_EA[s]);
  for (PetscInt s = 0; s < p->nseg2; s++) ea2 = PetscMin(ea2, p->seg2_EA[s]);
  return 0.5 / PetscMax(1, 2 * ea1 / ea2);
}

PetscErrorCode SKRodPairSetMMMSteps(SKRodPair rp, PetscReal sample, PetscReal coupling)
{
  PetscFunctionBegin;
  PetscCheck(sample > 0 && coupling >= 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "MMM step fractions must be positive (coupling 0: the default), got %g %g", (double)sample, (double)coupling);
  rp->mmm_sample   = sample;
  rp->mmm_coupling = coupling;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetRod1MeanDisplacement(SKRodPair rp, PetscReal *ubar)
{
  PetscReal mu = 0, M = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < rp->model.N; i++) {
    mu += rp->model.mass[i] * rp->y[i];
    M += rp->model.mass[i];
  }
  *ubar = mu / M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetMMMEigenSolve(SKRodPair rp, PetscBool always)
{
  PetscFunctionBegin;
  rp->mmm_eigen_always = always;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetMMMTransforms(SKRodPair rp, PetscInt nmin, PetscInt nodes_min, PetscBool measure)
{
  PetscFunctionBegin;
  PetscCheck(nodes_min >= 1, rp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "The node count for a whole-segment reconstruction must be at least 1, got %" PetscInt_FMT, nodes_min);
  PetscCheck(nmin >= 2, rp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "The shortest segment for the fast transforms must be at least 2 nodes, got %" PetscInt_FMT, nmin);
  rp->mmm_transform_min = nmin;
  rp->mmm_nodes_min     = nodes_min;
  rp->mmm_fft_measure   = measure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetMMMTransformCounts(SKRodPair rp, PetscInt *plans, PetscInt *tables)
{
  PetscFunctionBegin;
  if (plans) *plans = rp->mmm_plans;
  if (tables) *tables = rp->mmm_tables;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetMMMEventEvaluations(SKRodPair rp, PetscInt counts[SK_RODPAIR_MMM_EVAL_KINDS])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < SK_RODPAIR_MMM_EVAL_KINDS; k++) counts[k] = rp->mmm_evals[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetMMMEigenCounts(SKRodPair rp, PetscInt *solves, PetscInt *hits, PetscInt *closed)
{
  PetscFunctionBegin;
  if (solves) *solves = rp->mmm_eig_solves;
  if (hits) *hits = rp->mmm_eig_hits;
  if (closed) *closed = rp->mmm_eig_closed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSetMonitor(SKRodPair rp, PetscReal dt_out, SKRodPairMonitorFn monitor, void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(dt_out > 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Output interval must be positive, got %g", (double)dt_out);
  rp->dt_out      = dt_out;
  rp->monitor     = monitor;
  rp->monitor_ctx = ctx;
  rp->t_next_out  = rp->t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairEnergyOf(SKRodPair rp, const PetscReal y[], SKRodPairEnergy *e)
{
  PetscReal en[4];

  PetscFunctionBegin;
  SKRodPairModelEnergy(&rp->model, U(y), V(y), ETA(y), ETAD(y), en);
  e->kinetic1       = en[0];
  e->strain1        = en[1];
  e->kinetic2       = en[2];
  e->strain2        = en[3];
  e->work           = y[rp->n - 2];
  e->dissipated     = y[rp->n - 1];
  e->hammer_input   = 0;
  e->ram_kinetic    = 0;
  e->cushion_stored = 0;
  e->cushion_loss   = 0;
  if (rp->hammer) {
    e->hammer_input   = rp->hammer_input;
    e->ram_kinetic    = 0.5 * rp->params.ram_mass * RAM(y)[1] * RAM(y)[1] + rp->hammer_left;
    e->cushion_stored = CushionStored(rp, y);
    e->cushion_loss   = rp->cushion_loss_done + CushionLoss(rp, y);
    e->balance = en[0] + en[1] + en[2] + en[3] + e->dissipated + e->ram_kinetic + e->cushion_stored + e->cushion_loss - e->hammer_input;
  } else
    e->balance = en[0] + en[1] + en[2] + en[3] + e->dissipated - e->work;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Calls the monitor for state y at time t (y is not the stored state: it may be interpolated). */
PetscErrorCode SKRodPairOutput(SKRodPair rp, PetscReal t, const PetscReal y[])
{
  SKRodPairEnergy e;
  const SKRodPairModel *m = &rp->model;

  PetscFunctionBegin;
  if (!rp->monitor) PetscFunctionReturn(PETSC_SUCCESS);
  /* the slipping nodes' couplings at y in vector lanes, apart from the right-hand side's cache: its values may differ
     in the last bit from the one-by-one ones (FMA contraction of the vectorised code), so the reference integrators'
     right-hand sides stay those of the scalar path */
  PetscCall(SKRodPairSlipCouplingsAt(rp, y, rp->gout));
  for (PetscInt i = 0; i < m->N; i++) {
    PetscReal w = 0, wtop = 0;
    const PetscReal *g = rp->gstick + i * m->Nm;
    if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG)
      g = rp->gout + i * m->Nm;
    else if (rp->state[i] != SK_ROD_STICK) {
      (void)SKRodPairCoupling(m, m->z[i] + y[i] - m->l1, m->hl[i], m->hr[i], rp->g);
      g = rp->g;
    }
    for (PetscInt n = 0; n < m->Nm; n++) {
      w += g[n] * ETAD(y)[n];
      if (n >= m->Nm - m->Nm / 2) wtop += g[n] * ETAD(y)[n];
    }
    rp->vrel_out[i] = V(y)[i] - w;
    if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) { /* the truncation estimate, SKRodPairGetRod2Truncation */
      rp->trunc_band2 += wtop * wtop;
      rp->trunc_rel2 += rp->vrel_out[i] * rp->vrel_out[i];
    }
  }
  if (rp->hammer) {
    rp->out_force        = CushionForce(rp, y);
    rp->out_ram_velocity = RAM(y)[1];
  }
  PetscCall(SKRodPairEnergyOf(rp, y, &e));
  PetscCall(rp->monitor(rp->monitor_ctx, t, U(y), V(y), rp->vrel_out, ETA(y), ETAD(y), rp->state, &e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolve(SKRodPair rp, SKRodPairMethod method, PetscReal t_end)
{
  PetscFunctionBegin;
  PetscCheck(!rp->hammer || method == SK_RODPAIR_RK45, rp->comm, PETSC_ERR_SUP,
             "A hammer (ram and cushion, two extra unknowns with a separation event) is integrated by rk45 only, not %s",
             SKRodPairMethods[method]);
  rp->steps = rp->rejected = rp->rhs_evals = rp->events = 0;
  switch (method) {
  case SK_RODPAIR_RK45:
    PetscCall(SKRodPairSolveRK45(rp, t_end));
    break;
  case SK_RODPAIR_CVODE:
    PetscCall(SKRodPairSolveCVODE(rp, t_end));
    break;
  case SK_RODPAIR_MMM:
    PetscCall(SKRodPairSolveMMM(rp, t_end));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetState(SKRodPair rp, PetscReal *t, const PetscReal *u1[], const PetscReal *v1[], const PetscReal *eta[],
                                 const PetscReal *etadot[], const SKRodNodeState *state[])
{
  PetscFunctionBegin;
  if (t) *t = rp->t;
  if (u1) *u1 = U(rp->y);
  if (v1) *v1 = V(rp->y);
  if (eta) *eta = ETA(rp->y);
  if (etadot) *etadot = ETAD(rp->y);
  if (state) *state = rp->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetEnergy(SKRodPair rp, SKRodPairEnergy *energy)
{
  PetscFunctionBegin;
  PetscCall(SKRodPairEnergyOf(rp, rp->y, energy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetCounts(SKRodPair rp, PetscInt *steps, PetscInt *rejected, PetscInt *rhs_evals, PetscInt *events)
{
  PetscFunctionBegin;
  if (steps) *steps = rp->steps;
  if (rejected) *rejected = rp->rejected;
  if (rhs_evals) *rhs_evals = rp->rhs_evals;
  if (events) *events = rp->events;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetRod2Modes(SKRodPair rp, PetscInt *nm, const PetscReal *omega[], PetscReal *rtol)
{
  PetscFunctionBegin;
  if (nm) *nm = rp->model.Nm;
  if (omega) *omega = rp->model.omega;
  if (rtol) *rtol = rp->model.rod2_root_rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetRod2Truncation(SKRodPair rp, PetscReal tol, PetscReal *estimate, PetscReal *ratio, PetscInt *needed)
{
  PetscReal r = rp->trunc_rel2 > 0 ? PetscSqrtReal(rp->trunc_band2 / rp->trunc_rel2) : 0, e = SK_RODPAIR_TRUNCATION_CALIBRATION * r;

  PetscFunctionBegin;
  PetscCheck(tol > 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Tolerance of the truncation estimate must be positive, got %g", (double)tol);
  if (estimate) *estimate = e;
  if (ratio) *ratio = r;
  /* the estimate falls like 1/N_m (docs/theory.md, rod pair) */
  if (needed) *needed = e > tol ? (PetscInt)PetscMin(PetscCeilReal(rp->model.Nm * e / tol), 1e9) : rp->model.Nm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetRod2Shape(SKRodPair rp, PetscInt n, PetscReal z2, PetscReal *psi)
{
  PetscFunctionBegin;
  PetscCheck(n >= 0 && n < rp->model.Nm, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Mode %" PetscInt_FMT " of rod 2: it has %" PetscInt_FMT, n, rp->model.Nm);
  *psi = SKRodPairRod2Shape(&rp->model, n, z2);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetRod2Displacement(SKRodPair rp, PetscReal z2, PetscReal *u2)
{
  const SKRodPairModel *m = &rp->model;

  PetscFunctionBegin;
  *u2 = 0;
  for (PetscInt n = 0; n < m->Nm; n++) *u2 += SKRodPairRod2Shape(m, n, z2) * ETA(rp->y)[n];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairHammerStrike(SKRodPair rp, PetscReal v0)
{
  PetscReal *ram = RAM(rp->y), M = rp->params.ram_mass;

  PetscFunctionBegin;
  PetscCheck(rp->hammer, rp->comm, PETSC_ERR_ARG_WRONGSTATE, "The rod pair has no hammer: set ram_mass in its parameters");
  PetscCheck(v0 > 0, rp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Impact velocity %g m/s must be positive", (double)v0);
  /* what the last blow's ram and cushion still hold leaves the account as carried away */
  rp->hammer_left += 0.5 * M * ram[1] * ram[1] + CushionStored(rp, rp->y);
  rp->cushion_loss_done += CushionLoss(rp, rp->y);
  ram[0]      = U(rp->y)[0];
  ram[1]      = v0;
  rp->cushion = SK_CUSHION_LOADING;
  rp->dmax    = 0;
  rp->hammer_input += 0.5 * M * v0 * v0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetHammer(SKRodPair rp, PetscBool *contact, PetscReal *max_force, PetscReal *ram_velocity)
{
  PetscFunctionBegin;
  PetscCheck(rp->hammer, rp->comm, PETSC_ERR_ARG_WRONGSTATE, "The rod pair has no hammer: set ram_mass in its parameters");
  if (contact) *contact = rp->cushion != SK_CUSHION_OPEN ? PETSC_TRUE : PETSC_FALSE;
  if (max_force) *max_force = rp->params.cushion_stiffness * CushionMaxCompression(rp, rp->y);
  if (ram_velocity) *ram_velocity = RAM(rp->y)[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetOutputHammer(SKRodPair rp, PetscReal *force, PetscReal *ram_velocity)
{
  PetscFunctionBegin;
  PetscCheck(rp->hammer, rp->comm, PETSC_ERR_ARG_WRONGSTATE, "The rod pair has no hammer: set ram_mass in its parameters");
  if (force) *force = rp->out_force;
  if (ram_velocity) *ram_velocity = rp->out_ram_velocity;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetFriction(SKRodPair rp, const PetscReal *force[], PetscReal cap[])
{
  const SKRodPairModel *m = &rp->model;

  PetscFunctionBegin;
  PetscCall(SKRodPairRHS(rp, rp->t, rp->y, rp->ytmp));
  *force = rp->force;
  if (cap)
    for (PetscInt i = 0; i < m->N; i++)
      cap[i] = rp->state[i] == SK_ROD_FREE ? 0 : SKRodPairCapacity(m, i, m->z[i] + U(rp->y)[i] - m->l1, PETSC_FALSE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairGetAxialForce(SKRodPair rp, PetscReal force[])
{
  const SKRodPairModel *m = &rp->model;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m->N - 1; i++) force[i] = m->spring[i] * (U(rp->y)[i + 1] - U(rp->y)[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
