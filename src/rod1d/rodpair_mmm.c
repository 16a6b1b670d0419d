/* Mode-matching method (Tsetas et al. 2022, Sect. 3.2) for the rod pair. Within an interval of fixed stick/slip state,
   rod 1 splits into segments of non-sticking nodes whose ends are free (rod ends, half mass) or attached to sticking
   nodes. A uniform segment's eigenpairs are closed form and depend only on its length and end types:
     free-free   phi_p(j) = cos(j p pi/(n-1))                 free-fixed phi_p(j) = cos(j (2p+1) pi/(2n))
     fixed-fixed phi_p(j) = sin((j+1)(p+1) pi/(n+1))         fixed-free: free-fixed mirrored
   with w_p = 2 sqrt(k/m) sin(theta_p/2). Their modal responses to constant friction, a linear ramp of the end nodes
   (sticking nodes move with rod 2) and P(t) = Pc + P0 sin(W t + phase) are closed form (Duhamel). Rod 2 keeps its own
   modes; the sticking nodes and slipping friction load it as pseudo-forces (the paper's [37]) that are interpolated
   linearly over a coupling step and integrated exactly. The end of an interval, the first stick->slip or slip->stick
   transition, is bracketed on samples of the closed form and located by regula falsi; switching reuses the logic of
   the reference integrator (SKRodPairResolve), so both solve the same semi-discrete model.
   This file: event location and the time loop; rodpair_mmm_segments.c: segments and their modes; rodpair_mmm_fft.c:
   the fast transforms of uniform segments (their modes are discrete cosine and sine bases); rodpair_mmm_closed.c: the
   closed forms over an interval (mmmimpl.h: the shared data). */
#include "mmmimpl.h"

/* The nodes that the NJ event functions JS need, ascending, in mm->nlist (returns their number): the functions' own
   nodes and the neighbours of a sticking node whose holding force is asked for */
static PetscInt NeededNodes(MMM *mm, PetscInt nj, const PetscInt js[])
{
  PetscInt nneed = 0, *list = mm->nlist;

  for (PetscInt b = 0; b < nj; b++) {
    PetscInt i = js[b] / 2;
    for (PetscInt nb = i - 1; nb <= i + 1; nb++) {
      if (nb < 0 || nb >= mm->N || mm->need[nb]) continue;
      if (nb != i && !(js[b] % 2 == 0 && mm->rp->state[i] == SK_ROD_STICK)) continue;
      mm->need[nb]  = PETSC_TRUE;
      list[nneed++] = nb;
    }
  }
  for (PetscInt b = 0; b < nneed; b++) mm->need[list[b]] = PETSC_FALSE;
  /* JS comes ascending (the due list), so only a sticking node's left neighbour can be out of place, by at most two
     places: insertion sort is linear here */
  for (PetscInt b = 1; b < nneed; b++) {
    PetscInt x = list[b], c = b;
    for (; c > 0 && list[c - 1] > x; c--) list[c] = list[c - 1];
    list[c] = x;
  }
  return nneed;
}

/* u, v (and with ACCEL the accelerations) at tau of the NNEED nodes in mm->nlist into mm->nu, nv (na): per segment in
   one batch (or the whole segment by the transforms when most of it is needed), the sticking nodes from rod 2 */
static PetscErrorCode NodesAt(MMM *mm, PetscReal t0, PetscReal tau, PetscInt nneed, PetscBool accel)
{
  const PetscInt *list = mm->nlist, N = mm->N;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nneed;) {
    PetscInt i = list[b], s = mm->segof[i], k = 0;
    if (s < 0) {
      SKMMMNodeUV(mm, t0, tau, i, &mm->nu[i], &mm->nv[i]);
      b++;
      continue;
    }
    const Seg *sg = &mm->seg[s];
    for (; b < nneed && mm->segof[list[b]] == s; b++) mm->nidx[k++] = list[b] - sg->a;
    SKMMMSegModes(mm, s, t0, tau);
    if (!accel && sg->fast && k >= mm->nodes_min) {
      const PetscReal *Q[2] = {mm->qv + sg->a, mm->qdv + sg->a};
      PetscReal *U[2]       = {mm->nu + sg->a, mm->nv + sg->a};
      PetscCall(SKMMMSegSynthesize(mm, sg, 2, Q, U));
      continue;
    }
    if (accel) SKMMMSegAccel(mm, s, t0, tau);
    SKMMMSegNodesUV(mm, sg, k, mm->nidx, mm->xw, mm->xw + N, accel ? mm->xw + 2 * N : NULL);
    for (PetscInt c = 0; c < k; c++) {
      mm->nu[sg->a + mm->nidx[c]] = mm->xw[c];
      mm->nv[sg->a + mm->nidx[c]] = mm->xw[N + c];
      if (accel) mm->na[sg->a + mm->nidx[c]] = mm->xw[2 * N + c];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Event function j at tau from the nodal values of NodesAt (its nodes current) and rod 2 at tau, with the same
   meaning as SKRodPairEventValues(): slipping nodes s (v - g . etadot), sticking nodes mu_s N_F len - |F| with the
   holding force F = m g . etadd - (spring forces) - P, contact gaps. With DE also its time derivative, exact for the
   closed forms: s (a - g . etaddd), -sgn(F) dF/dt, +-v (the accelerations na must be current). */
static PetscReal EventValue(MMM *mm, PetscReal t0, PetscReal tau, PetscInt j, PetscReal *de)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm, i = j / 2;
  PetscReal u = mm->nu[i], v = mm->nv[i], e = 1, d = 0;

  SKMMMRod2At(mm, tau);
  if (j % 2 == 1) {
    PetscReal zbar = md->z[i] + u - md->l1, gap = PetscMin(zbar + md->hr[i], md->L2 + md->hl[i] - zbar);
    PetscReal sgn = zbar + md->hr[i] <= md->L2 + md->hl[i] - zbar ? 1 : -1; /* d gap / du */
    e             = rp->state[i] == SK_ROD_FREE ? (md->cap_s[0] > 0 ? -gap : 1) : gap;
    d             = rp->state[i] == SK_ROD_FREE ? (md->cap_s[0] > 0 ? -sgn * v : 0) : sgn * v;
  } else if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) {
    const PetscReal *g = mm->gstart + i * Nm, s = rp->state[i] == SK_ROD_SLIP_POS ? 1 : -1;
    PetscReal w = 0, ag = 0;
    for (PetscInt n = 0; n < Nm; n++) w += g[n] * mm->etd[n];
    e = s * (v - w);
    if (de) {
      for (PetscInt n = 0; n < Nm; n++) ag += g[n] * mm->etdd[n];
      d = s * (mm->na[i] - ag);
    }
  } else if (rp->state[i] == SK_ROD_STICK) {
    const PetscReal *g = rp->gstick + i * Nm;
    PetscReal a = 0, fint = i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0;
    for (PetscInt n = 0; n < Nm; n++) a += g[n] * mm->etdd[n];
    if (i > 0) fint += md->spring[i - 1] * (mm->nu[i - 1] - u);
    if (i < N - 1) fint += md->spring[i] * (mm->nu[i + 1] - u);
    e = mm->capS[i] - PetscAbsReal(md->mass[i] * a - fint);
    if (de) { /* etaddd = eS - w^2 etadot (the closed form); the neighbours' velocities are current */
      PetscReal jerk = 0, dfint = i == 0 ? mm->P0 * mm->W * PetscCosReal(mm->W * (t0 + tau) + mm->phase) : 0;
      for (PetscInt n = 0; n < Nm; n++) jerk += g[n] * (mm->eS[n] - md->omega[n] * md->omega[n] * mm->etd[n]);
      if (i > 0) dfint += md->spring[i - 1] * (mm->nv[i - 1] - v);
      if (i < N - 1) dfint += md->spring[i] * (mm->nv[i + 1] - v);
      d = (md->mass[i] * a - fint >= 0 ? -1 : 1) * (md->mass[i] * jerk - dfint);
    }
  }
  if (de) *de = d;
  return e;
}

/* Event values of the NJ functions JS at tau from the closed forms, written to E[j] (and their time derivatives to
   DE[j] unless DE is NULL). Only what a function needs is evaluated, O(n + N_m) each, and nothing over all N nodes (a
   sample selects a few dozen of the 2N functions). */
static PetscErrorCode FastEvents(MMM *mm, PetscReal t0, PetscReal tau, PetscInt nj, const PetscInt js[], PetscReal e[], PetscReal de[])
{
  PetscFunctionBegin;
  PetscCall(NodesAt(mm, t0, tau, NeededNodes(mm, nj, js), (PetscBool)(de != NULL)));
  for (PetscInt b = 0; b < nj; b++) e[js[b]] = EventValue(mm, t0, tau, js[b], de ? &de[js[b]] : NULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lipschitz bounds of the event functions over the coupling step, from the modal amplitudes: a function with value
   e > 0 cannot reach zero before e / rate, so it is not evaluated until then. */
static void SetupBounds(MMM *mm, PetscReal dt)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N               = mm->N;
  PetscReal W = mm->W, wmax = mm->wmax;

  mm->b2v = mm->b2a = mm->b2j = 0;
  for (PetscInt n = 0; n < mm->Nm; n++) {
    PetscReal w = md->omega[n], R = PetscAbsReal(mm->eA[n]) + PetscAbsReal(mm->eB[n]);
    mm->b2v += w * R + PetscAbsReal(mm->eS[n]) / (w * w);
    mm->b2a += w * w * R + PetscAbsReal(mm->eS[n]) / (w * w) * 0; /* forcing is inside the closed form's homogeneous part */
    mm->b2j += w * w * w * R;
  }
  mm->b2v *= md->psi_amp;
  mm->b2a *= md->psi_amp;
  mm->b2j *= md->psi_amp;
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    PetscReal bv = 0, ba = 0;
    for (PetscInt p = 0; p < sg->n; p++) {
      PetscInt ip = sg->a + p;
      PetscReal w = mm->w[ip];
      if (w < 1e-9 * wmax) {
        bv += PetscAbsReal(mm->qd0[ip]) + PetscAbsReal(mm->g0[ip]) * dt + 0.5 * PetscAbsReal(mm->g1[ip]) * dt * dt +
              (W > 0 ? 2 * PetscAbsReal(mm->gP[ip]) / W : 0);
        ba += PetscAbsReal(mm->g0[ip]) + PetscAbsReal(mm->g1[ip]) * dt + PetscAbsReal(mm->gP[ip]);
      } else {
        PetscReal R = PetscAbsReal(mm->A[ip]) + PetscAbsReal(mm->B[ip]);
        bv += PetscAbsReal(mm->c1[ip]) + PetscAbsReal(mm->pa[ip]) * W + w * R;
        ba += PetscAbsReal(mm->pa[ip]) * W * W + w * w * R;
      }
    }
    mm->bv[s] = bv;
    mm->ba[s] = ba;
  }
  for (PetscInt i = 0; i < N; i++) {
    PetscInt s          = mm->segof[i];
    PetscReal bv        = s < 0 ? mm->b2v : mm->bv[s];
    mm->rate[2 * i + 1] = bv;
    switch (rp->state[i]) {
    case SK_ROD_FREE:
      mm->rate[2 * i] = 0;
      break;
    case SK_ROD_SLIP_POS:
    case SK_ROD_SLIP_NEG:
      mm->rate[2 * i] = mm->ba[s] + mm->b2a;
      break;
    case SK_ROD_STICK: {
      PetscReal kl = i > 0 ? md->spring[i - 1] : 0, kr = i < N - 1 ? md->spring[i] : 0;
      PetscReal r =
          md->mass[i] * mm->b2j + md->cap_s[i] * mm->b2v + 2 * PetscMax(kl, kr) * mm->b2v + (i == 0 ? PetscAbsReal(mm->P0) * W : 0);
      if (i > 0) r += kl * (mm->segof[i - 1] < 0 ? mm->b2v : mm->bv[mm->segof[i - 1]]);
      if (i < N - 1) r += kr * (mm->segof[i + 1] < 0 ? mm->b2v : mm->bv[mm->segof[i + 1]]);
      mm->rate[2 * i] = r;
    } break;
    }
  }
}

/* Rod-2 modal load Qslip + sum over sticking nodes of g_i (spring forces + P - m_i a_i) at tau of the coupling step,
   with the sticking nodes on their ramps us0 + vs tau and their accelerations lagged (pseudo-forces) */
static void Rod2Load(MMM *mm, PetscReal t0, PetscReal tau, PetscReal Q[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm;

  for (PetscInt n = 0; n < Nm; n++) Q[n] = mm->Qslip[n];
  for (PetscInt i = 0; i < N; i++) {
    const PetscReal *g;
    PetscReal ui, f;
    if (rp->state[i] != SK_ROD_STICK) continue;
    g  = rp->gstick + i * Nm;
    ui = mm->us0[i] + mm->vs[i] * tau;
    f  = (i == 0 ? rp->load(rp->load_ctx, t0 + tau) : 0) - md->mass[i] * mm->alag[i];
    for (PetscInt nb = i - 1; nb <= i + 1; nb += 2) {
      PetscReal un, vn;
      if (nb < 0 || nb >= N) continue;
      if (rp->state[nb] == SK_ROD_STICK)
        un = mm->us0[nb] + mm->vs[nb] * tau;
      else
        SKMMMNodeUV(mm, t0, tau, nb, &un, &vn);
      f += md->spring[PetscMin(i, nb)] * (un - ui);
    }
    for (PetscInt n = 0; n < Nm; n++) Q[n] += g[n] * f;
  }
}

/* Starts an interval of fixed stick/slip state at (t0, y): segments, slip friction (constant over the interval), modal
   coordinates, rod-2 state, the exact accelerations of the sticking nodes, event values. O(N^2) in the segments. */
static PetscErrorCode StartInterval(MMM *mm, PetscReal t0, PetscReal y[], PetscReal dy[], PetscBool have_rhs)
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt N = mm->N, Nm = mm->Nm;

  PetscFunctionBegin;
  SKRodPairProjectStick(rp, y);
  PetscCall(SKMMMBuildSegments(mm));
  if (!have_rhs) PetscCall(SKRodPairRHS(rp, t0, y, dy)); /* else: dy, forces and relative velocities are current */
  SKRodPairEventValues(rp, y, rp->evals0);
  for (PetscInt n = 0; n < Nm; n++) mm->Qslip[n] = 0;
  for (PetscInt i = 0; i < N; i++) {
    mm->Fprev[i] = mm->Ffric[i];
    mm->Ffric[i] = (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG) ? rp->force[i] : 0;
    mm->us0[i]   = y[i];
    mm->vs[i]    = y[N + i];
    mm->alag[i]  = dy[N + i];
    /* the coupling at the interval start serves the slipping nodes only (sticking ones keep theirs from when they stuck) */
    if (rp->state[i] == SK_ROD_SLIP_POS || rp->state[i] == SK_ROD_SLIP_NEG)
      mm->lenS[i] = SKRodPairCoupling(md, md->z[i] + y[i] - md->l1, md->hl[i], md->hr[i], mm->gstart + i * Nm);
    if (mm->Ffric[i] != 0)
      for (PetscInt n = 0; n < Nm; n++) mm->Qslip[n] -= mm->Ffric[i] * mm->gstart[i * Nm + n];
    mm->capS[i]          = rp->state[i] == SK_ROD_STICK ? SKRodPairCapacity(md, i, md->z[i] + y[i] - md->l1, PETSC_FALSE) : 0;
    mm->noise[2 * i]     = rp->state[i] == SK_ROD_STICK ? 1e-9 * mm->capS[i] : rp->atol * md->omega1_rod1;
    mm->noise[2 * i + 1] = rp->atol;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    mm->eta0[n]  = y[ETA_OFF(mm) + n];
    mm->etad0[n] = y[ETAD_OFF(mm) + n];
  }
  mm->W0 = y[rp->n - 2];
  mm->D0 = y[rp->n - 1];
  PetscCall(SKMMMProjectInterval(mm, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts a coupling step [t0, t0 + dt] of the current interval: mode coefficients, rod-2 pseudo-forces at both ends
   (linear in between) and rod-2 closed form, event bounds. O(n) per segment plus O(N_m) per sticking node. */
static void StartStep(MMM *mm, PetscReal t0, PetscReal dt, PetscReal Qwork[])
{
  SKRodPair rp             = mm->rp;
  const SKRodPairModel *md = &rp->model;
  PetscInt Nm              = mm->Nm;

  mm->Pc = rp->load(rp->load_ctx, t0 + 0.5 * dt) - mm->P0 * PetscSinReal(mm->W * (t0 + 0.5 * dt) + mm->phase);
  SKMMMSetupCoefficients(mm, t0);
  for (PetscInt s = 0; s < mm->nseg; s++) mm->segtau[s] = -1;
  mm->r2tau = -1;
  Rod2Load(mm, t0, 0, mm->eQ0);
  Rod2Load(mm, t0, dt, Qwork);
  for (PetscInt n = 0; n < Nm; n++) {
    PetscReal w = md->omega[n], w2 = w * w;
    mm->eS[n] = (Qwork[n] - mm->eQ0[n]) / dt;
    mm->eA[n] = mm->eta0[n] - mm->eQ0[n] / w2;
    mm->eB[n] = (mm->etad0[n] - mm->eS[n] / w2) / w;
  }
  SetupBounds(mm, dt);
}

/* Ends a coupling step without event at tau = dt: the closed forms there become the next step's initial values, in
   modal form (no projection); the nodal state y is not needed. */
static void EndStep(MMM *mm, PetscReal t0, PetscReal dt, const PetscReal y_end[])
{
  SKRodPair rp = mm->rp;
  PetscInt N = mm->N, Nm = mm->Nm;

  SKMMMRod2At(mm, dt);
  for (PetscInt s = 0; s < mm->nseg; s++) {
    const Seg *sg = &mm->seg[s];
    SKMMMSegModes(mm, s, t0, dt);
    for (PetscInt p = 0; p < sg->n; p++) {
      mm->q0[sg->a + p]  = mm->qv[sg->a + p];
      mm->qd0[sg->a + p] = mm->qdv[sg->a + p];
    }
  }
  for (PetscInt i = 0; i < N; i++) {
    if (rp->state[i] != SK_ROD_STICK) continue;
    const PetscReal *g = rp->gstick + i * Nm;
    PetscReal a        = 0;
    for (PetscInt n = 0; n < Nm; n++) a += g[n] * mm->etdd[n];
    mm->us0[i]  = y_end[i];
    mm->vs[i]   = y_end[N + i];
    mm->alag[i] = a;
  }
  for (PetscInt n = 0; n < Nm; n++) {
    mm->eta0[n]  = mm->et[n];
    mm->etad0[n] = mm->etd[n];
  }
  mm->W0 = y_end[rp->n - 2];
  mm->D0 = y_end[rp->n - 1];
}

/* Switches the nodes flagged in TRIGGER at (t, y) with the reference integrator's logic and re-arms the events.
   Resolve's last right-hand side is at the switched state: it is kept in DY (with the forces and relative velocities)
   for the next interval's start. */
static PetscErrorCode SwitchAt(SKRodPair rp, PetscReal t, PetscReal y[], const PetscBool trigger[], PetscReal dy[])
{
  PetscFunctionBegin;
  PetscCall(SKRodPairResolve(rp, t, y, trigger));
  PetscCall(PetscArraycpy(dy, rp->ytmp, rp->n));
  SKRodPairEventValues(rp, y, rp->evals0);
  SKRodPairArmAfterEvent(rp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rod 1's highest frequency (rad/s): 2 sqrt(k/m) for a uniform chain, else the Gershgorin bound of M^-1/2 K M^-1/2 */
static PetscReal Rod1MaxFrequency(const SKRodPairModel *md)
{
  PetscReal wmax = 0;

  if (md->uniform1) return 2 * PetscSqrtReal(md->spring[0] / md->mass[1]);
  for (PetscInt i = 0; i < md->N; i++) {
    PetscReal kl = i > 0 ? md->spring[i - 1] : 0, kr = i < md->N - 1 ? md->spring[i] : 0, r = (kl + kr) / md->mass[i];
    if (i > 0) r += kl / PetscSqrtReal(md->mass[i - 1] * md->mass[i]);
    if (i < md->N - 1) r += kr / PetscSqrtReal(md->mass[i] * md->mass[i + 1]);
    wmax = PetscMax(wmax, PetscSqrtReal(r));
  }
  return wmax;
}

/* The solver's data for rod pair RP: load form, frequency bound and sample spacing, the mode-matrix cache, the fast
   transforms and the per-node and per-mode arrays (all sized N or N_m, so nothing is allocated while solving). */
static PetscErrorCode MMMCreate(SKRodPair rp, MMM *mm)
{
  PetscInt N = rp->model.N, Nm = rp->model.Nm;

  PetscFunctionBegin;
  /* the load is P0 sin(W t + phase) plus a Pc constant per coupling step */
  *mm = (MMM){.rp = rp, .N = N, .Nm = Nm, .P0 = rp->load_P0, .W = rp->load_W, .phase = rp->load_phase};
  /* samples for bracketing events: a fraction of the shortest period of rod 1 and of the retained rod-2 modes */
  mm->wmax      = Rod1MaxFrequency(&rp->model);
  mm->dt_sample = rp->mmm_sample / PetscMax(mm->wmax, rp->model.omega[Nm - 1]);
  mm->nodes_min = rp->mmm_nodes_min;
  PetscCall(PetscCalloc1(N, &mm->seg));
  /* mode-matrix cache: up to 16 slots of N x N within 32 MB (at least 2) */
  mm->cache.cap   = N * N + N;
  mm->cache.nslot = PetscMax(2, PetscMin(16, (PetscInt)(32.0 * 1024 * 1024 / (8.0 * mm->cache.cap))));
  PetscCall(PetscMalloc1((size_t)mm->cache.nslot * mm->cache.cap, &mm->cache.data));
  PetscCall(PetscCalloc3(mm->cache.nslot, &mm->cache.kind, mm->cache.nslot, &mm->cache.n, mm->cache.nslot, &mm->cache.used));
  for (PetscInt k = 0; k < mm->cache.nslot; k++) mm->cache.n[k] = -1;
  PetscCall(PetscMalloc5((size_t)N * N + N, &mm->scratch, N, &mm->eigd, N, &mm->eige, (size_t)N * N, &mm->eigz, 18 * N, &mm->eigwork));
  PetscCall(PetscMalloc3(N, &mm->eigw, 12 * N, &mm->eigiwork, N, &mm->capS));
  PetscCall(PetscMalloc3(3 * N, &mm->xw, N, &mm->rowL, N, &mm->rowR));
  PetscCall(PetscCalloc5(N, &mm->nu, N, &mm->nv, N, &mm->nidx, N, &mm->need, N, &mm->nlist));
  PetscCall(PetscMalloc4(N, &mm->prev_a, N, &mm->prev_n, N, &mm->prev_kind, N, &mm->Fprev));
  PetscCall(SKMMMRegisterLogEvents());
  PetscCall(SKMMMTransformsCreate(N, rp->mmm_transform_min, rp->mmm_fft_measure ? FFTW_MEASURE : FFTW_ESTIMATE, &mm->tr));
  PetscCall(PetscCalloc5(N, &mm->w, N, &mm->c0, N, &mm->c1, N, &mm->pa, N, &mm->A));
  PetscCall(PetscCalloc5(N, &mm->B, N, &mm->q0, N, &mm->qd0, N, &mm->g0, N, &mm->g1));
  PetscCall(PetscCalloc3(N, &mm->gP, N, &mm->phi, N, &mm->us0));
  PetscCall(PetscCalloc4(N, &mm->vs, Nm, &mm->eta0, Nm, &mm->etad0, N, &mm->Ffric));
  PetscCall(PetscCalloc4(Nm, &mm->eA, Nm, &mm->eB, Nm, &mm->eQ0, Nm, &mm->eS));
  PetscCall(PetscCalloc3(N, &mm->gF, Nm, &mm->Qslip, N, &mm->alag));
  PetscCall(PetscCalloc5(N, &mm->segof, N, &mm->segtau, N, &mm->qv, N, &mm->qdv, Nm, &mm->et));
  PetscCall(PetscCalloc2(N, &mm->qddv, N, &mm->na));
  PetscCall(PetscCalloc5(Nm, &mm->etd, Nm, &mm->etdd, (size_t)N * Nm, &mm->gstart, N, &mm->lenS, N, &mm->bv));
  PetscCall(PetscCalloc3(N, &mm->ba, 2 * N, &mm->rate, 2 * N, &mm->noise));
  PetscCall(PetscCalloc5(N, &mm->cwv, N, &mm->swv, Nm, &mm->cw2, Nm, &mm->sw2, N, &mm->arg));
  rp->mmm_eig_solves = rp->mmm_eig_hits = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MMMDestroy(MMM *mm)
{
  PetscFunctionBegin;
  mm->rp->mmm_plans  = mm->tr.nplans;
  mm->rp->mmm_tables = mm->tr.ntables;
  PetscCall(PetscFree(mm->seg));
  PetscCall(PetscFree(mm->cache.data));
  PetscCall(PetscFree3(mm->cache.kind, mm->cache.n, mm->cache.used));
  PetscCall(PetscFree5(mm->scratch, mm->eigd, mm->eige, mm->eigz, mm->eigwork));
  PetscCall(PetscFree3(mm->eigw, mm->eigiwork, mm->capS));
  PetscCall(PetscFree3(mm->xw, mm->rowL, mm->rowR));
  PetscCall(PetscFree5(mm->nu, mm->nv, mm->nidx, mm->need, mm->nlist));
  PetscCall(PetscFree4(mm->prev_a, mm->prev_n, mm->prev_kind, mm->Fprev));
  PetscCall(SKMMMTransformsDestroy(&mm->tr));
  PetscCall(PetscFree5(mm->w, mm->c0, mm->c1, mm->pa, mm->A));
  PetscCall(PetscFree5(mm->B, mm->q0, mm->qd0, mm->g0, mm->g1));
  PetscCall(PetscFree3(mm->gP, mm->phi, mm->us0));
  PetscCall(PetscFree4(mm->vs, mm->eta0, mm->etad0, mm->Ffric));
  PetscCall(PetscFree4(mm->eA, mm->eB, mm->eQ0, mm->eS));
  PetscCall(PetscFree3(mm->gF, mm->Qslip, mm->alag));
  PetscCall(PetscFree5(mm->segof, mm->segtau, mm->qv, mm->qdv, mm->et));
  PetscCall(PetscFree2(mm->qddv, mm->na));
  PetscCall(PetscFree5(mm->etd, mm->etdd, mm->gstart, mm->lenS, mm->bv));
  PetscCall(PetscFree3(mm->ba, mm->rate, mm->noise));
  PetscCall(PetscFree5(mm->cwv, mm->swv, mm->cw2, mm->sw2, mm->arg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The search for the end of an interval within a coupling step. Event function j (of 2N) is evaluated again at
   tnext[j], the first time its Lipschitz bound lets it reach zero. Only the functions due within the step are
   kept in a list (in index order, so the nodes they need come nearly sorted); a sample scans that list, not all 2N.
   sample the few it must evaluate, so a sample costs O(selected log N) and nothing over all 2N functions. */
typedef struct {
  PetscInt ndue, nsel, nwatch, ntrig;
  PetscReal dt;                              /* the coupling step: a function due after it is not in the due list */
  PetscInt *due;                             /* the functions with tnext <= dt, ascending */
  PetscInt *sel, *watch, *trig;              /* evaluated at the sample; armed and <= 0 there; switched and gone wrong */
  PetscReal *eprev, *tlast, *tnext, *margin; /* last value and when it was taken; next check; lower bound at a step end */
  PetscReal *scale, *de;                     /* the watched functions' scales and derivatives in the root finder */
  PetscBool *trigger, *seen;                 /* 2N flags: the functions that switch (for the switching logic); seen > 0 */
  PetscReal *yw, *dy, *qbuf;                 /* work: a state, the right-hand side at the interval start, N_m values */
} Search;

static PetscErrorCode SearchCreate(SKRodPair rp, Search *sr)
{
  PetscInt N2 = 2 * rp->model.N;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(N2, &sr->due, N2, &sr->sel, N2, &sr->watch, N2, &sr->trig));
  PetscCall(PetscMalloc4(N2, &sr->eprev, N2, &sr->tlast, N2, &sr->tnext, N2, &sr->margin));
  PetscCall(PetscCalloc4(N2, &sr->trigger, N2, &sr->seen, N2, &sr->scale, N2, &sr->de));
  PetscCall(PetscMalloc3(rp->n, &sr->yw, rp->n, &sr->dy, rp->model.Nm, &sr->qbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SearchDestroy(Search *sr)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(sr->due, sr->sel, sr->watch, sr->trig));
  PetscCall(PetscFree4(sr->eprev, sr->tlast, sr->tnext, sr->margin));
  PetscCall(PetscFree4(sr->trigger, sr->seen, sr->scale, sr->de));
  PetscCall(PetscFree3(sr->yw, sr->dy, sr->qbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The earliest next-check time of the due functions, dropping those no longer due within the step (order kept) */
static PetscReal DueMin(Search *sr)
{
  PetscReal tmin = PETSC_MAX_REAL;
  PetscInt m     = 0;

  for (PetscInt b = 0; b < sr->ndue; b++) {
    PetscInt j = sr->due[b];
    if (sr->tnext[j] > sr->dt) continue;
    sr->due[m++] = j;
    tmin         = PetscMin(tmin, sr->tnext[j]);
  }
  sr->ndue = m;
  return tmin;
}

/* the functions due at tau (tnext <= tau) into sr->sel, in ascending order */
static void DueAt(Search *sr, PetscReal tau)
{
  sr->nsel = 0;
  for (PetscInt b = 0; b < sr->ndue; b++)
    if (sr->tnext[sr->due[b]] <= tau) sr->sel[sr->nsel++] = sr->due[b];
}

/* next-check time of each function from its lower bound at the step start (carried over from the last step); the due
   list holds the functions that may need a check within the step (DT) */
static void SearchStart(Search *sr, const MMM *mm, PetscReal dt)
{
  const PetscBool *armed = mm->rp->armed;

  sr->ndue = 0;
  sr->dt   = dt;
  for (PetscInt j = 0; j < 2 * mm->N; j++) {
    sr->eprev[j] = sr->margin[j];
    sr->tnext[j] = (armed[j] && sr->margin[j] > 0) ? (mm->rate[j] > 0 ? sr->margin[j] / mm->rate[j] : PETSC_MAX_REAL) : 0;
    sr->tlast[j] = 0;
    if (sr->tnext[j] <= dt) sr->due[sr->ndue++] = j;
  }
}

/* lower bound of each function at the end of an event-free step, for the next step */
static void SearchCarry(Search *sr, const MMM *mm, PetscReal dt)
{
  const PetscBool *armed = mm->rp->armed;

  for (PetscInt j = 0; j < 2 * mm->N; j++)
    sr->margin[j] = (armed[j] && sr->eprev[j] > 0) ? sr->eprev[j] - mm->rate[j] * (dt - sr->tlast[j]) : sr->eprev[j];
}

typedef enum { WRONG_GO_ON, WRONG_REBRACKET, WRONG_EVENT } WrongWayAction;

/* Functions switched earlier and not yet armed (sr->trig) are negative at tau: either they went the right way first
   (then they are armed where all are positive, *tr, and the caller brackets [tr, tau] again) or some went the wrong way
   from tau_prev on (then sr->trig keeps those never seen positive: they are re-decided at tau_prev). */
static PetscErrorCode WrongWay(MMM *mm, Search *sr, PetscReal t, PetscReal dt, PetscReal tau_prev, PetscReal tau, PetscReal *tr_out,
                               WrongWayAction *action)
{
  SKRodPair rp = mm->rp;
  PetscReal tl = tau_prev, tr = tau, *e = rp->evals1;
  PetscInt m = 0;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < sr->ntrig; b++) sr->seen[sr->trig[b]] = PETSC_FALSE;
  for (PetscInt it = 0; it < 60 && tr - tl > 1e-9 * dt + 1e-15; it++) {
    PetscBool ok = PETSC_TRUE;
    tr           = 0.5 * (tl + tr);
    PetscCall(FastEvents(mm, t, tr, sr->ntrig, sr->trig, e, NULL));
    for (PetscInt b = 0; b < sr->ntrig; b++) {
      PetscInt j = sr->trig[b];
      if (e[j] > 0)
        sr->seen[j] = PETSC_TRUE;
      else
        ok = PETSC_FALSE;
    }
    if (ok) {
      for (PetscInt b = 0; b < sr->ntrig; b++) {
        PetscInt j   = sr->trig[b];
        rp->armed[j] = PETSC_TRUE;
        sr->eprev[j] = e[j];
        sr->tnext[j] = sr->tlast[j] = tr;
      }
      *tr_out = tr;
      *action = WRONG_REBRACKET;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* only the functions never seen positive went the wrong way; the others (each positive at some point, not all at
     once) are left alone and checked at every sample */
  for (PetscInt b = 0; b < sr->ntrig; b++)
    if (!sr->seen[sr->trig[b]]) sr->trig[m++] = sr->trig[b];
  sr->ntrig = m;
  *action   = m ? WRONG_EVENT : WRONG_GO_ON;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* min over the watched functions of e_j / scale_j at tau and the derivative of the smallest; E (2N) receives the values */
static PetscErrorCode WatchedMin(MMM *mm, Search *sr, PetscReal t, PetscReal tau, PetscReal e[], PetscReal *f, PetscReal *df)
{
  PetscFunctionBegin;
  PetscCall(FastEvents(mm, t, tau, sr->nwatch, sr->watch, e, sr->de));
  *f  = PETSC_MAX_REAL;
  *df = 0;
  for (PetscInt c = 0; c < sr->nwatch; c++) {
    PetscInt j = sr->watch[c];
    if (e[j] / sr->scale[j] < *f) {
      *f  = e[j] / sr->scale[j];
      *df = sr->de[j] / sr->scale[j];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first zero of the watched functions in [tau_prev, tau] (every one was positive at tau_prev: evaluated there, or
   by its bound; at least one is <= 0 at tau): safeguarded Newton on their min, each scaled by its Lipschitz bound,
   with the closed-form derivatives. A Newton point outside the bracket is replaced by its midpoint; a step below the
   tolerance is lengthened by a quarter of it, so that the point lands beyond the root and the bracket closes. Returns
   the bracket's right end (all watched functions > 0 before it, one <= 0 at it) and sets sr->trig to the watched
   functions <= 0 there. */
static PetscErrorCode Locate(MMM *mm, Search *sr, PetscReal t, PetscReal dt, PetscReal tau_prev, PetscReal tau, PetscReal *tau_ev)
{
  SKRodPair rp   = mm->rp;
  PetscReal ttol = 1e-9 * dt + 1e-15, *e = rp->evals1, a = tau_prev, b = tau, x = tau, f, df;
  PetscInt nwatch = sr->nwatch;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < nwatch; c++) sr->scale[sr->watch[c]] = mm->rate[sr->watch[c]] > 0 ? mm->rate[sr->watch[c]] : 1;
  PetscCall(WatchedMin(mm, sr, t, x, e, &f, &df));
  for (PetscInt c = 0; c < nwatch; c++) sr->eprev[sr->watch[c]] = e[sr->watch[c]]; /* the values at b */
  for (PetscInt it = 0; it < 100 && b - a > ttol; it++) {
    PetscReal d = df != 0 ? -f / df : 0, xn = x + d;
    if (PetscAbsReal(d) < 0.5 * ttol) xn = x + (d >= 0 ? 0.25 : -0.25) * ttol + d;
    if (!(xn > a && xn < b) || d == 0 || it % 8 == 7) xn = 0.5 * (a + b);
    x = xn;
    PetscCall(WatchedMin(mm, sr, t, x, e, &f, &df));
    if (f <= 0) {
      b = x;
      for (PetscInt c = 0; c < nwatch; c++) sr->eprev[sr->watch[c]] = e[sr->watch[c]];
    } else
      a = x;
  }
  sr->ntrig = 0;
  for (PetscInt c = 0; c < nwatch; c++)
    if (sr->eprev[sr->watch[c]] <= 0) sr->trig[sr->ntrig++] = sr->watch[c];
  *tau_ev = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the functions selected at tau: watched (armed, now <= 0) and triggered (not yet armed, below their noise: switched
   nodes going against their new state, except a slipping node at a Coulomb tangency, as in RK45) */
static void Classify(Search *sr, SKRodPair rp, const MMM *mm, PetscReal t)
{
  const PetscReal *e = rp->evals1;

  sr->nwatch = sr->ntrig = 0;
  for (PetscInt b = 0; b < sr->nsel; b++) {
    PetscInt j = sr->sel[b];
    if (rp->armed[j] && e[j] <= 0)
      sr->watch[sr->nwatch++] = j;
    else if (!rp->armed[j] && e[j] < -mm->noise[j] && !(j % 2 == 0 && SKRodPairAtTangency(rp, t, j / 2)))
      sr->trig[sr->ntrig++] = j;
  }
}

/* Samples the coupling step [t, t + dt] for the end of the interval, jumping to the first sample at or after the
   earliest time a bound lets a function reach zero (the samples in between are certainly event-free, so the cost
   follows the evaluations, not the sample grid). *tau_ev: the event time, -1 if none; then sr->trig holds the
   functions that switch. *redecide: the switched nodes in sr->trig go against their new state at once (tau_ev = 0). */
static PetscErrorCode SearchStep(MMM *mm, Search *sr, PetscReal t, PetscReal dt, PetscReal *tau_ev, PetscBool *redecide)
{
  SKRodPair rp       = mm->rp;
  PetscReal tau_prev = 0;
  PetscInt nsamp     = (PetscInt)PetscCeilReal(dt / mm->dt_sample - 1e-9);

  PetscFunctionBegin;
  *tau_ev   = -1;
  *redecide = PETSC_FALSE;
  for (PetscInt k = 1; k <= nsamp; k++) {
    PetscReal tau;
    PetscReal tmin = DueMin(sr);
    if (tmin > dt) break;
    k        = PetscMax(k, (PetscInt)PetscCeilReal(tmin / dt * nsamp - 1e-9));
    tau      = dt * k / nsamp;
    tau_prev = PetscMax(tau_prev, dt * (k - 1) / nsamp); /* a re-bracket start inside the sample interval is kept */
    DueAt(sr, tau);
    rp->rhs_evals++;
    PetscCall(FastEvents(mm, t, tau, sr->nsel, sr->sel, rp->evals1, NULL));
    Classify(sr, rp, mm, t);
    if (sr->ntrig && !sr->nwatch) {
      WrongWayAction action;
      PetscReal tr = tau;
      PetscCall(WrongWay(mm, sr, t, dt, tau_prev, tau, &tr, &action));
      if (action == WRONG_EVENT) {
        *tau_ev   = tau_prev;
        *redecide = (PetscBool)(tau_prev == 0);
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      tau_prev = action == WRONG_REBRACKET ? tr : tau;
      if (action == WRONG_REBRACKET) k--; /* bracket [tr, tau] again with the armed nodes */
      continue;
    }
    if (sr->nwatch) {
      PetscCall(Locate(mm, sr, t, dt, tau_prev, tau, tau_ev));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    for (PetscInt b = 0; b < sr->nsel; b++) {
      PetscInt j = sr->sel[b];
      if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
      sr->eprev[j] = rp->evals1[j];
      sr->tlast[j] = tau;
      sr->tnext[j] = (rp->armed[j] && sr->eprev[j] > 0) ? (mm->rate[j] > 0 ? tau + sr->eprev[j] / mm->rate[j] : PETSC_MAX_REAL) : tau;
    }
    tau_prev = tau;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ends the interval at t + tau: the full nodal state there, the switch of the functions in sr->trig (and those the
   switching logic releases), and the right-hand side of the switched state in sr->dy for the next interval. */
static PetscErrorCode SwitchInterval(MMM *mm, Search *sr, PetscReal t, PetscReal tau, PetscReal y[], PetscBool redecide)
{
  SKRodPair rp = mm->rp;

  PetscFunctionBegin;
  PetscCall(SKMMMStateAt(mm, t, tau, y, PETSC_TRUE));
  for (PetscInt b = 0; b < sr->ntrig; b++) sr->trigger[sr->trig[b]] = PETSC_TRUE;
  SKMMMRememberSegments(mm, sr->trigger);
  if (redecide) SKRodPairCountRedecided(rp, t + tau, sr->trigger);
  PetscCall(SwitchAt(rp, t + tau, y, sr->trigger, sr->dy));
  for (PetscInt b = 0; b < sr->ntrig; b++) sr->trigger[sr->trig[b]] = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the outputs inside [t, t + tau_end] of the current coupling step, from the closed forms (the end included when the
   step ends without event) */
static PetscErrorCode OutputsInStep(MMM *mm, Search *sr, PetscReal t, PetscReal tau_end, PetscBool event)
{
  SKRodPair rp = mm->rp;

  PetscFunctionBegin;
  while (rp->monitor && (rp->t_next_out < t + tau_end || (!event && rp->t_next_out <= t + tau_end + 1e-9 * rp->dt_out))) {
    PetscCall(SKMMMStateAt(mm, t, rp->t_next_out - t, sr->yw, PETSC_TRUE));
    PetscCall(SKRodPairOutput(rp, rp->t_next_out, sr->yw));
    rp->t_next_out += rp->dt_out;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolveMMM(SKRodPair rp, PetscReal t_end)
{
  MMM mm      = {0};
  Search sr   = {0};
  PetscInt N2 = 2 * rp->model.N, ib = 0, stalls = 0;
  PetscReal t = rp->t, *y = rp->y, dtc;
  PetscBool new_interval = PETSC_TRUE, have_rhs = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(rp->model.N >= 3, rp->comm, PETSC_ERR_SUP, "The mode-matching method needs N >= 3 (uniform chain segments)");
  PetscCheck(rp->load_form_set, rp->comm, PETSC_ERR_SUP,
             "The mode-matching method needs P(t) = Pc + P0 sin(W t + phase) with Pc constant between breakpoints (harmonic, pulse, "
             "constant loads); call SKRodPairSetLoadForm()");
  PetscCall(MMMCreate(rp, &mm));
  PetscCall(SearchCreate(rp, &sr));
  /* coupling (pseudo-force) step: resolves the retained rod-2 modes, independent of the rod-1 spacing */
  dtc = PetscMin(rp->mmm_coupling / rp->model.omega[rp->model.Nm - 1], rp->hmax);
  if (rp->monitor && rp->t_next_out <= t) {
    PetscCall(SKRodPairOutput(rp, t, y));
    rp->t_next_out = t + rp->dt_out;
  }
  while (ib < rp->nbreak && rp->breaks[ib] <= t) ib++;
  PetscCall(SKRodPairRHS(rp, t, y, sr.dy));
  SKRodPairEventValues(rp, y, rp->evals0);
  for (PetscInt j = 0; j < N2; j++) rp->armed[j] = rp->evals0[j] > 0 ? PETSC_TRUE : PETSC_FALSE;
  while (t < t_end * (1 - 1e-15)) {
    PetscReal t_stop = PetscMin(t_end, t + dtc), dt, tau_ev;
    PetscBool redecide;

    if (ib < rp->nbreak && rp->breaks[ib] < t_stop) t_stop = rp->breaks[ib];
    dt = t_stop - t;
    if (new_interval) { /* y is the full nodal state here; event values are exact */
      PetscCall(StartInterval(&mm, t, y, sr.dy, have_rhs));
      PetscCall(PetscArraycpy(sr.margin, rp->evals0, N2));
      new_interval = have_rhs = PETSC_FALSE;
    }
    StartStep(&mm, t, dt, sr.qbuf);
    rp->steps++;
    SearchStart(&sr, &mm, dt);
    PetscCall(SearchStep(&mm, &sr, t, dt, &tau_ev, &redecide));
    if (redecide) { /* a node switched at t goes against its new state at once: re-decide it at t (as in RK45) */
      PetscCheck(++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      PetscCall(SwitchInterval(&mm, &sr, t, 0, y, PETSC_TRUE));
      new_interval = have_rhs = PETSC_TRUE;
      continue;
    }
    stalls = 0;
    PetscCall(OutputsInStep(&mm, &sr, t, tau_ev >= 0 ? tau_ev : dt, (PetscBool)(tau_ev >= 0)));
    if (tau_ev >= 0) { /* the end of the interval: full nodal state, switch, new interval */
      PetscCall(SwitchInterval(&mm, &sr, t, tau_ev, y, PETSC_FALSE));
      t += tau_ev;
      new_interval = have_rhs = PETSC_TRUE;
    } else { /* the interval goes on: carry the closed forms over; the nodal rod 1 is formed only when the run ends */
      PetscBool last = t_stop >= t_end * (1 - 1e-15) ? PETSC_TRUE : PETSC_FALSE;
      PetscCall(SKMMMStateAt(&mm, t, dt, last ? y : sr.yw, last));
      EndStep(&mm, t, dt, last ? y : sr.yw);
      SearchCarry(&sr, &mm, dt);
      t = t_stop;
    }
    if (ib < rp->nbreak && t >= rp->breaks[ib]) ib++;
  }
  rp->t = t;
  PetscCall(SearchDestroy(&sr));
  PetscCall(MMMDestroy(&mm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
