/* contact: the contact pair, a body's side set against a master surface (contact_surface.c: a rigid analytic surface,
   surface*.c, or the side set of another body, contact_mesh.c) and a slave side (contact_side.c: the contact nodes,
   or the control points of a NURBS patch face), each reached only through its ops table; mortar nodal weighted penalty (eqs. 29-34 of the
   paper) with one friction state per contact node; used by the explicit solver as a registered force term. */
#include "contactimpl.h"
#include "surfaceimpl.h"

PetscErrorCode SKContactPairCreatePlane(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscReal w[],
                                        const PetscReal point[], const PetscReal normal[], PetscReal eps_n, SKFrictionLaw law,
                                        SKContactPair *cpp)
{
  SKRigidSurface plane;

  PetscFunctionBegin;
  PetscCall(SKRigidSurfaceCreatePlane(comm, dim, point, normal, &plane));
  PetscCall(SKContactPairCreateWithSurface(comm, dim, nlocal, nowned, w, plane, eps_n, law, cpp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A plane's frame is the same at every node: written here once (at creation and when its velocity changes), so that
   the force loop skips it. */
static void ContactFillFlatFrame(SKContactPair cp)
{
  const struct _p_SKContactSurface *sf = cp->surface;
  const PetscInt dim                   = cp->dim;

  if (!sf->flat) return;
  for (PetscInt i = 0; i < cp->n; i++)
    for (PetscInt d = 0; d < dim; d++) {
      for (PetscInt k = 0; k < dim - 1; k++) cp->frame[i * dim * dim + k * dim + d] = sf->tangent[k][d];
      cp->frame[i * dim * dim + (dim - 1) * dim + d] = sf->velocity[d];
    }
}

/* The law's tangent moduli as k0 + k1 N and c0 + c1 N (exact for every built-in law; checked at N = 2 into
   cp->affine), so that the force loop needs no call per node. */
static PetscErrorCode ContactProbeModuli(SKContactPair cp)
{
  PetscReal k1, c1, k2, c2;

  PetscFunctionBegin;
  PetscCall(SKFrictionLawGetTangentModuli(cp->law, 0.0, &cp->kt0, &cp->ct0));
  PetscCall(SKFrictionLawGetTangentModuli(cp->law, 1.0, &k1, &c1));
  PetscCall(SKFrictionLawGetTangentModuli(cp->law, 2.0, &k2, &c2));
  cp->kt1    = k1 - cp->kt0;
  cp->ct1    = c1 - cp->ct0;
  cp->affine = (PetscBool)(PetscAbsReal(k2 - cp->kt0 - 2 * cp->kt1) <= 1e-12 * PetscAbsReal(k2) &&
                           PetscAbsReal(c2 - cp->ct0 - 2 * cp->ct1) <= 1e-12 * PetscAbsReal(c2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair of the nodes with w[a] > 0 without its surface (set by the callers). */
static PetscErrorCode ContactPairCreate(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscReal w[], PetscReal eps_n,
                                        SKFrictionLaw law, SKContactPair *cpp)
{
  SKContactPair cp;
  SKFrictionRateFn rate;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "Contact needs dim 2 or 3, not %" PetscInt_FMT, dim);
  PetscCheck(eps_n > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Contact penalty %g Pa/m must be > 0", (double)eps_n);
  PetscCall(PetscNew(&cp));
  cp->comm  = comm;
  cp->dim   = dim;
  cp->eps_n = eps_n;
  cp->law   = law;
  PetscCallMPI(MPI_Comm_size(comm, &cp->size));
  for (PetscInt a = 0; a < nowned; a++)
    if (w[a] > 0) cp->n++;
  PetscCall(PetscMalloc2(cp->n, &cp->nodes, cp->n, &cp->w));
  cp->n = 0;
  for (PetscInt a = 0; a < nowned && a < nlocal; a++)
    if (w[a] > 0) cp->nodes[cp->n] = a, cp->w[cp->n++] = w[a];
  PetscCall(SKFrictionLawGetKernels(law, &cp->step, &rate, &cp->law_ctx));
  PetscCall(SKFrictionLawGetStateSize(law, dim - 1, &cp->nstate));
  PetscCall(PetscCalloc4(cp->n * cp->nstate, &cp->state, cp->n * cp->nstate, &cp->trial, cp->n, &cp->stored, cp->n, &cp->stored_trial));
  PetscCall(PetscCalloc2(cp->n, &cp->fn, cp->n * dim, &cp->ft));
  PetscCall(PetscCalloc4(cp->n, &cp->stick_time, cp->n, &cp->stick_time_trial, cp->n, &cp->contact_time, cp->n, &cp->contact_time_trial));
  PetscCall(PetscCalloc3(cp->n, &cp->gap, cp->n, &cp->gap_commit, cp->n, &cp->fn_commit));
  PetscCall(PetscCalloc3(cp->n * dim, &cp->ffr_commit, cp->n * dim, &cp->dft, cp->n * dim, &cp->dft_commit));
  PetscCall(PetscCalloc1(cp->n * dim * dim, &cp->frame));
  PetscCall(ContactProbeModuli(cp));
  {
    const SKFrictionParams *p;
    PetscCall(SKFrictionLawGetParams(law, &p));
    cp->frictionless = (PetscBool)(p->mu_s == 0 && p->mu_k == 0);
  }
  cp->passes = 1;
  *cpp       = cp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairCreateWithSurface(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscReal w[],
                                              SKRigidSurface surface, PetscReal eps_n, SKFrictionLaw law, SKContactPair *cpp)
{
  PetscInt sdim;
  SKContactSurface cs;

  PetscFunctionBegin;
  PetscCall(SKRigidSurfaceGetType(surface, NULL, &sdim));
  PetscCheck(sdim == dim, comm, PETSC_ERR_ARG_INCOMP, "Rigid surface of dimension %" PetscInt_FMT " for a contact in %" PetscInt_FMT "D",
             sdim, dim);
  PetscCall(SKContactSurfaceCreateRigid(surface, &cs));
  PetscCall(SKContactPairCreateWithContactSurface(comm, dim, nlocal, nowned, w, cs, eps_n, law, cpp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairCreateWithContactSurface(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscReal w[],
                                                     SKContactSurface surface, PetscReal eps_n, SKFrictionLaw law, SKContactPair *cpp)
{
  PetscFunctionBegin;
  PetscCheck(surface->dim == dim, comm, PETSC_ERR_ARG_INCOMP,
             "A %s surface of dimension %" PetscInt_FMT " for a contact in %" PetscInt_FMT "D", surface->ops->type, surface->dim, dim);
  PetscCheck(!surface->ops->react, comm, PETSC_ERR_SUP,
             "A %s surface takes reactions: create the pair with the slave nodes' natural numbers (SKContactPairCreateWithMesh())",
             surface->ops->type);
  PetscCall(ContactPairCreate(comm, dim, nlocal, nowned, w, eps_n, law, cpp));
  (*cpp)->surface = surface;
  PetscCall(SKContactSideCreateNodes(comm, dim, (*cpp)->n, (*cpp)->nodes, NULL, NULL, &(*cpp)->side));
  ContactFillFlatFrame(*cpp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairCreateWithNodeSurface(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscInt natural[],
                                                  const PetscReal w[], SKContactSurface surface, SKContactMeshSurface nodes,
                                                  PetscInt max_support, SKContactMeshSurface slave, PetscReal eps_n, SKFrictionLaw law,
                                                  SKContactPair *cpp)
{
  PetscInt *nat;

  PetscFunctionBegin;
  PetscCheck(surface->dim == dim, comm, PETSC_ERR_ARG_INCOMP,
             "Master surface of dimension %" PetscInt_FMT " for a contact in %" PetscInt_FMT "D", surface->dim, dim);
  PetscCall(ContactPairCreate(comm, dim, nlocal, nowned, w, eps_n, law, cpp));
  (*cpp)->surface = surface;
  PetscCall(PetscMalloc1((*cpp)->n, &nat));
  PetscCall(PetscMalloc1((*cpp)->n, &(*cpp)->slot));
  for (PetscInt i = 0; i < (*cpp)->n; i++) nat[i] = natural[(*cpp)->nodes[i]];
  PetscCall(SKContactMeshSurfaceSetSlaves(nodes, (*cpp)->n, nat, max_support, (*cpp)->slot));
  PetscCall(SKContactSideCreateNodes(comm, dim, (*cpp)->n, (*cpp)->nodes, slave, nat, &(*cpp)->side));
  PetscCall(PetscFree(nat));
  if (slave) {
    PetscCheck(surface->ops->distribute, comm, PETSC_ERR_SUP, "A %s master surface has no mortar distribution", surface->ops->type);
    (*cpp)->mortar = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairCreateWithMesh(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscInt natural[],
                                           const PetscReal w[], SKContactMeshSurface ms, SKContactMeshSurface slave, PetscReal eps_n,
                                           SKFrictionLaw law, SKContactPair *cpp)
{
  SKContactSurface surface;

  PetscFunctionBegin;
  PetscCheck(ms->dim == dim, comm, PETSC_ERR_ARG_INCOMP,
             "Master surface of dimension %" PetscInt_FMT " for a contact in %" PetscInt_FMT "D", ms->dim, dim);
  PetscCall(SKContactSurfaceCreateMesh(ms, &surface));
  /* a slave node's reaction goes to one master face (point distribution) or to the faces under its own (mortar) */
  PetscCall(SKContactPairCreateWithNodeSurface(comm, dim, nlocal, nowned, natural, w, surface, ms,
                                               !slave     ? ms->nfn
                                               : dim == 2 ? SK_CONTACT_MORTAR_SUPPORT_2D
                                                          : SK_CONTACT_MAX_SUPPORT,
                                               slave, eps_n, law, cpp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairDestroy(SKContactPair *cpp)
{
  SKContactPair cp = *cpp;

  PetscFunctionBegin;
  if (!cp) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKFrictionLawDestroy(&cp->law));
  PetscCall(PetscFree2(cp->nodes, cp->w));
  PetscCall(PetscFree4(cp->state, cp->trial, cp->stored, cp->stored_trial));
  PetscCall(PetscFree2(cp->fn, cp->ft));
  PetscCall(PetscFree4(cp->stick_time, cp->stick_time_trial, cp->contact_time, cp->contact_time_trial));
  PetscCall(PetscFree3(cp->gap, cp->gap_commit, cp->fn_commit));
  PetscCall(PetscFree3(cp->ffr_commit, cp->dft, cp->dft_commit));
  PetscCall(PetscFree(cp->frame));
  PetscCall(PetscFree(cp->check_minv));
  PetscCall(PetscFree4(cp->c_damp, cp->normal, cp->vt, cp->F));
  PetscCall(SKContactSurfaceDestroy(&cp->surface));
  PetscCall(SKContactSideDestroy(&cp->side));
  PetscCall(PetscFree(cp->slot));
  PetscCall(PetscFree(cp));
  *cpp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetSide(SKContactPair cp, SKContactSide side)
{
  PetscFunctionBegin;
  PetscCheck(side->dim == cp->dim && side->n == cp->n, cp->comm, PETSC_ERR_ARG_INCOMP,
             "A %s slave side of %" PetscInt_FMT " points in %" PetscInt_FMT "D for a pair of %" PetscInt_FMT
             " contact nodes in %" PetscInt_FMT "D",
             side->ops->type, side->n, side->dim, cp->n, cp->dim);
  /* a side whose points are not nodes applies the reactions itself, at the points where its forces act */
  PetscCheck(side->nodal || !cp->surface->ops->react || (side->ops->distribute && cp->surface->ops->applyreaction), cp->comm, PETSC_ERR_SUP,
             "contact on a %s against a %s master: the side does not apply its reactions to the master", side->ops->type,
             cp->surface->ops->type);
  PetscCheck(!cp->mortar || side->ops->support, cp->comm, PETSC_ERR_SUP, "A %s slave side gives no support for the mortar distribution",
             side->ops->type);
  PetscCall(SKContactSideDestroy(&cp->side));
  cp->side = side;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetVelocity(SKContactPair cp, const PetscReal velocity[])
{
  PetscFunctionBegin;
  PetscCall(SKContactSurfaceSetVelocity(cp->surface, velocity));
  ContactFillFlatFrame(cp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Speed (m/s) of contact node I tangentially to the surface, relative to it, from the local velocities V. */
static PetscReal ContactPairSlipSpeed(SKContactPair cp, PetscInt i, const PetscReal v[])
{
  const PetscInt dim     = cp->dim;
  const PetscReal *frame = cp->frame + i * dim * dim; /* the node's frame of the last force evaluation */
  const PetscReal *va;
  PetscReal speed2 = 0, gap;

  cp->side->ops->points(cp->side->data, i, 1, NULL, NULL, v, NULL, &va, &gap); /* the point's velocity (on a patch face: weighted) */
  for (PetscInt k = 0; k < dim - 1; k++) {
    PetscReal vt = 0;
    for (PetscInt d = 0; d < dim; d++) vt += (va[d] - frame[(dim - 1) * dim + d]) * frame[k * dim + d];
    speed2 += vt * vt;
  }
  return PetscSqrtReal(speed2);
}

/* The worst node of the run-time stability check of one force evaluation. */
typedef struct {
  PetscReal ratio;                        /* dt^2 omega_a^2 + 2 dt c_a / m_a, stable while <= 4 */
  PetscReal x[3], N, k, c, m, omega2, dt; /* the node's position, normal force, law moduli, mass, omega_a^2, the step it needs */
} ContactStability;

/* Central differences with a force that depends on the previous half-step velocity are stable for one degree of
   freedom of mass m, stiffness k and damping c while dt^2 omega^2 + 2 dt c / m <= 4 (omega^2 = k / m; the pure damper
   limit is dt <= 2 m / c); with the damping taken implicitly (SK_CONTACT_DAMPING_IMPLICIT) the limit is
   dt^2 omega^2 <= 4 + 2 dt c / m, implied by dt^2 omega^2 <= 4, so c is left out. Checked per contact node with omega_a^2 = omega_max^2 +
   (k_t(N_a) - k_t(0)) / m_a, the friction law's moduli at the node's actual normal force on top of what the critical step already holds;
   the moduli of the laws are affine in N (checked when the check is armed), so no call per node. Records the node in WORST when it is the
   worst so far. Pure. */
static void ContactCheckNode(SKContactPair cp, PetscInt i, const PetscReal x[], PetscReal N, ContactStability *worst)
{
  /* a deformable master moves too: the relative motion of the pair sees 1 / m_a + 1 / m_b */
  const PetscReal dt = cp->check_dt, minv = cp->check_minv[i] + cp->master_minv, k = cp->kt0 + cp->kt1 * N, c_law = cp->ct0 + cp->ct1 * N;
  const PetscReal c  = cp->damping == SK_CONTACT_DAMPING_IMPLICIT ? 0.0 : c_law; /* the damping taken explicitly */
  const PetscReal w2 = cp->check_omega2 + (k - cp->kt0) * minv, ratio = dt * dt * w2 + 2 * dt * c * minv;

  if (ratio > worst->ratio) {
    worst->ratio  = ratio;
    worst->N      = N;
    worst->k      = k;
    worst->c      = c_law;
    worst->m      = 1 / minv;
    worst->omega2 = w2;
    worst->dt     = 4 / (c * minv + PetscSqrtReal(PetscSqr(c * minv) + 4 * w2)); /* the root of dt^2 w2 + 2 dt c / m = 4 */
    for (PetscInt d = 0; d < cp->dim; d++) worst->x[d] = x[d];
  }
}

/* The law's force F[] (tangential components) of node I over the step DT at normal force N and tangential velocity W,
   from the node's committed state (the state itself is not touched). */
static void ContactStepForce(SKContactPair cp, PetscInt i, PetscReal dt, PetscReal N, const PetscReal w[], PetscReal F[])
{
  PetscReal z[SK_CONTACT_MAX_STATE];

  for (PetscInt j = 0; j < cp->nstate; j++) z[j] = cp->state[i * cp->nstate + j];
  cp->step(cp->law_ctx, cp->dim - 1, dt, N, w, z, F, NULL);
}

/* First guess of the implicit damping of node I (N s/m): the local slope dF_k/dv_k of the law's step at the node's
   tangential velocity VT (force F), by a one-sided difference away from zero, averaged over the components and clamped
   to [0, c_max], c_max = c_t(N) the law's damping modulus. SKContactPairDampedAccelerations() raises it to the secant
   over the velocity change of the step. Pure. */
static PetscReal ContactDampingSlope(SKContactPair cp, PetscInt i, PetscReal dt, PetscReal N, const PetscReal vt[], const PetscReal F[])
{
  const PetscInt nt    = cp->dim - 1;
  const PetscReal cmax = cp->ct0 + cp->ct1 * N;
  PetscReal c          = 0;

  if (cmax <= 0) return 0.0; /* Coulomb return mapping: no damping */
  for (PetscInt k = 0; k < nt; k++) {
    PetscReal w[2] = {vt[0], nt > 1 ? vt[1] : 0}, Fh[2] = {0, 0};
    const PetscReal h = (vt[k] < 0 ? -1 : 1) * 1e-6 * PetscMax(PetscAbsReal(vt[k]), cp->v_scale);
    w[k] += h;
    ContactStepForce(cp, i, dt, N, w, Fh);
    c += (Fh[k] - F[k]) / h / nt;
  }
  return PetscMin(PetscMax(c, 0.0), cmax);
}

/* A node that passed through the surface (SKContactPairForce() stops): its index, position, depth behind the surface (m;
   -1 when the search lost it) and its contact length (m). */
typedef struct {
  PetscInt node;
  PetscReal x[3], depth, length;
} ContactPenetration;

/* Sums of one force evaluation over the nodes (local): the friction dissipation of the step, the power of the surface on
   the body and the discontinuity work of the step (docs/theory.md, "Energy of contact"). */
typedef struct {
  PetscReal diss, power, disc;
} ContactEnergySums;

/* The work the normal penalty force does on the relative motion over a step in which the node switches, beyond the
   change of its stored energy: the trapezoidal work (N0 + N1)/2 (g1 - g0) minus -(E1 - E0), E = N^2 / (2 eps_N w) and
   N = -eps_N w g while g < 0. Closing (N0 = 0, g0 >= 0 > g1): -N1 g0 / 2 <= 0; opening (N1 = 0, g0 < 0 <= g1): N0 g1 / 2
   >= 0; 0 without a switch (the trapezoid is exact for a force linear in g). G1 is bounded by the relative displacement
   REACH of the step, as a projection may skip far points (cutoff) and return a lower bound or no distance. Pure. */
static inline PetscReal ContactDiscontinuityWork(PetscReal N0, PetscReal g0, PetscReal N1, PetscReal g1, PetscReal reach)
{
  if (N1 > 0 && N0 <= 0) return -0.5 * N1 * PetscMax(g0, 0.0);
  if (N1 <= 0 && N0 > 0) return 0.5 * N0 * PetscMin(PetscMax(g1, 0.0), reach);
  return 0.0;
}

/* The forces of the contact nodes of CP at time T (step DT since the committed state) into F, the trial friction states
   and statistics, the energy sums of the step into SUMS; projection failures, unstable nodes and nodes that passed
   through counted in FAILED[3] (the last such node in BAD_NODE, the worst stability ratio in WORST, the last node through
   in PEN). DIM is a constant where it is called. */
static inline PetscErrorCode ContactPairNodes(SKContactPair cp, PetscReal t, PetscReal dt, const PetscReal X[], const PetscReal u[],
                                              const PetscReal v[], PetscReal f[], const SKFrictionParams *params, PetscInt failed[],
                                              PetscInt *bad_node, ContactStability *worst, ContactPenetration *pen, ContactEnergySums *sums,
                                              const PetscInt dim)
{
  const PetscInt nt = dim - 1, ns = cp->nstate;
  PetscReal diss = 0, power = 0, disc = 0;
  /* a surface that takes the reactions belongs to a body of the model: its motion is not a supply of energy */
  const PetscBool rigid = cp->surface->ops->react ? PETSC_FALSE : PETSC_TRUE;
  /* the nodes go a block at a time: positions (one call of the side), then the projections of the block (one call for a
     surface with projectmany), then the penalty and friction of each node, then its forces (one call of the side) */
  PetscReal xblk[SK_CONTACT_PROJECT_BLOCK * 3], wgap[SK_CONTACT_PROJECT_BLOCK] = {0}; /* positions: dim per node */
  PetscReal fblk[SK_CONTACT_PROJECT_BLOCK * 3];                                       /* forces on the body: dim per node */
  const PetscReal *vblk[SK_CONTACT_PROJECT_BLOCK];
  SKSurfaceProjection proj[SK_CONTACT_PROJECT_BLOCK]; /* filled by every projection of a curved or deformable surface */
  SKContactSupport support[SK_CONTACT_PROJECT_BLOCK];
  PetscBool ok[SK_CONTACT_PROJECT_BLOCK];
  const struct _p_SKContactSurface *sf = cp->surface;
  const SKContactSurfaceOps *sops      = sf->ops;
  /* a plane's frame is constant: its nodes skip the projection call and the copy of the frame */
  const PetscBool flat                = sf->flat;
  const struct _p_SKContactSide *side = cp->side;
  const SKContactSideOps *dops        = side->ops;
  /* a side that spreads its points' forces over the body books the power of their normal part itself */
  const PetscBool spread = dops->distribute ? PETSC_TRUE : PETSC_FALSE, weighted_gap = side->weighted_gap;
  const PetscBool mortar3d = (PetscBool)(cp->mortar && dim == 3);
  /* a side that spreads its forces also applies their reactions to a master that takes them (no rows recorded here) */
  const PetscBool record = (PetscBool)(sops->react && !spread);

  PetscFunctionBegin;
  for (PetscInt i0 = 0; i0 < cp->n; i0 += SK_CONTACT_PROJECT_BLOCK) {
    const PetscInt nb = PetscMin(cp->n - i0, SK_CONTACT_PROJECT_BLOCK);
    const PetscReal *vmblk[SK_CONTACT_PROJECT_BLOCK];
    PetscBool own_vm;
    dops->points(side->data, i0, nb, X, u, v, xblk, vblk, wgap); /* a control point of a patch face: weighted */
    /* against a deformable master, a patch face's own weighted master velocity (its slip as its tractions see it) */
    own_vm = (PetscBool)(dops->mastervelocity && !rigid && dops->mastervelocity(side->data, i0, nb, vmblk));
    if (!flat) { /* cutoff 0: only penetrating nodes need the exact projection (the others carry no force) */
      if (sops->projectmany)
        sops->projectmany(sf->data, nb, xblk, t, 0.0, proj, support, ok);
      else
        for (PetscInt b = 0; b < nb; b++) ok[b] = sops->project(sf->data, xblk + b * dim, t, 0.0, &proj[b], &support[b]);
      for (PetscInt b = 0; b < nb; b++)
        if (!ok[b]) failed[0]++, *bad_node = i0 + b;
    }
    for (PetscInt b = 0; b < nb; b++) {
      const PetscInt i    = i0 + b;
      const PetscReal *va = vblk[b];
      PetscReal *x = xblk + b * dim, vt[2] = {0, 0}, F[2] = {0, 0}, N, dist = 0, *frame = cp->frame + i * dim * dim, *fa = fblk + b * dim;
      const PetscReal *normal = sf->normal, *velocity = sf->velocity, (*tangent)[3] = sf->tangent;
      SKFrictionInfo info = {PETSC_FALSE, 0, 0};

      if (flat) {
        dist = SKContactSurfaceFlatGap(sf, dim, x, t);
      } else {
        dist = proj[b].distance, normal = proj[b].normal, velocity = own_vm ? vmblk[b] : proj[b].velocity, tangent = proj[b].tangent;
        for (PetscInt d = 0; d < dim; d++) {
          for (PetscInt k = 0; k < nt; k++) frame[k * dim + d] = tangent[k][d];
          frame[nt * dim + d] = velocity[d];
        }
      }
      if (weighted_gap) dist = wgap[b];
      if (mortar3d && dist < 0.5 * PETSC_MAX_REAL) {
        /* the 3D mortar gap: to the shares' point of the master nodes, g_a = n . (x_a - sum_b s_ab x_b), the same linear
           functional of the positions by which the reaction is distributed, so that the normal forces derive from the
           stored energy for given shares and normal (docs/theory.md, "Contact between deformable bodies") */
        PetscCall(sops->distribute(sf->data, cp->side, i, &support[b]));
        if (support[b].weighted) { /* and the slip relative to the velocity of that point: the friction's work is the bodies' */
          dist = 0, velocity = support[b].vw;
          for (PetscInt d = 0; d < dim; d++) dist += (x[d] - support[b].xw[d]) * normal[d], frame[nt * dim + d] = velocity[d];
        }
      }
      N = dist < 0 ? -cp->eps_n * cp->w[i] * dist : 0.0; /* eps_N max(0, -g_a), g_a = w_a dist */
      { /* a node deeper than its own contact length behind the surface, or one in contact that the search of a deformable
           master no longer finds (it went deeper than the search reaches), has passed through: no penalty holds it (checked
           in runs, with the stability check armed) */
        const PetscReal length = dim == 2 ? cp->w[i] : PetscSqrtReal(cp->w[i]);
        const PetscBool lost   = (PetscBool)(dist >= 0.5 * PETSC_MAX_REAL && cp->fn_commit[i] > 0 && dt > 0);
        if (cp->check_dt > 0 && (lost || -dist > length)) {
          failed[2]++;
          pen->node = i, pen->depth = lost ? -1.0 : -dist, pen->length = length;
          for (PetscInt d = 0; d < dim; d++) pen->x[d] = x[d];
        }
      }
      for (PetscInt k = 0; k < nt; k++) {
        PetscReal s = 0; /* accumulated in a register: the law reads vt[] right after */
        for (PetscInt d = 0; d < dim; d++) s += (va[d] - velocity[d]) * tangent[k][d];
        vt[k] = s;
      }
      if (N > 0 && cp->check_dt > 0) ContactCheckNode(cp, i, x, N, worst);
      /* a few values per node: loops, not library calls */
      for (PetscInt k = 0; k < ns; k++)
        cp->trial[i * ns + k] = N > 0 ? cp->state[i * ns + k] : 0.0; /* out of contact: the bristles / stick point relax */
      if (N > 0) cp->step(cp->law_ctx, nt, dt, N, vt, cp->trial + i * ns, F, &info);
      if (cp->c_damp) {
        cp->c_damp[i] = N > 0 ? ContactDampingSlope(cp, i, dt, N, vt, F) : 0.0;
        for (PetscInt d = 0; d < dim; d++) cp->normal[i * dim + d] = normal[d];
        for (PetscInt k = 0; k < nt; k++) cp->vt[i * 2 + k] = vt[k], cp->F[i * 2 + k] = F[k];
      }
      cp->stored_trial[i] = N > 0 ? info.stored_energy : 0.0;
      cp->fn[i]           = N;
      cp->gap[i]          = dist;
      if (dt > 0 &&
          (N > 0) != (cp->fn_commit[i] > 0)) { /* a switch; the step's relative displacement bounds the distance of a node that opened */
        PetscReal reach = 0;
        for (PetscInt d = 0; d < dim; d++) reach += PetscSqr((va[d] - velocity[d]) * dt);
        /* a mesh surface with no face near gives no distance: the node is then far off and the opening is not booked */
        disc += ContactDiscontinuityWork(cp->fn_commit[i], cp->gap_commit[i], N, dist < 0.5 * PETSC_MAX_REAL ? dist : 0.0,
                                         PetscSqrtReal(reach));
      }
      { /* trial sticking-time statistics over the step of length dt that ends here: the node counts as in contact when
           it carries a normal force, and as sticking when, in addition, its slip speed over the step (from the half-step
           velocities v, the ones the friction law saw) is below the stick threshold */
        PetscReal speed2 = 0;
        for (PetscInt k = 0; k < nt; k++) speed2 += vt[k] * vt[k];
        cp->contact_time_trial[i] = cp->contact_time[i] + (N > 0 ? dt : 0.0);
        cp->stick_time_trial[i] =
            cp->stick_time[i] + (N > 0 && !cp->frictionless && SKFrictionIsSticking(params, PetscSqrtReal(speed2)) ? dt : 0.0);
      }
      {
        /* friction dissipation of the step: the work the law's force on the body loses on the relative motion, trapezoidal
           in the forces at both ends of the step (the explicit loop's work of the same forces), less the change of the
           energy the law stores (docs/theory.md, "Energy of contact"); a law that gives energy back shows as a falling
           dissipation, which the explicit solver's energy check refuses. The motion is the one the law sees: a node's own
           velocity, or on a NURBS patch face the weighted velocity, on which the face's distributed forces do that work */
        PetscReal lost = 0;
        for (PetscInt d = 0; d < dim; d++) {
          PetscReal ftd = 0;
          for (PetscInt k = 0; k < nt; k++) ftd -= F[k] * tangent[k][d]; /* the body feels -F */
          cp->ft[i * dim + d] = ftd;
          fa[d]               = N * normal[d] + ftd;
          if (rigid) power += (spread ? ftd : fa[d]) * velocity[d]; /* spread: the side books the normal part */
          lost -= 0.5 * (cp->ffr_commit[i * dim + d] + ftd) * (va[d] - velocity[d]) * dt;
        }
        diss += lost - (cp->stored_trial[i] - cp->stored[i]);
      }
      if (record && N > 0) {                                                                          /* action and reaction */
        if (cp->mortar && !mortar3d) PetscCall(sops->distribute(sf->data, cp->side, i, &support[b])); /* 3D: above */
        sops->react(sf->data, cp->slot[i], &support[b], fa);
      }
    }
    dops->addforces(side->data, i0, nb, cp->fn + i0, cp->ft + i0 * dim, fblk, f); /* to the nodes, or recorded to be spread */
  }
  sums->diss  = diss;
  sums->power = power;
  sums->disc  = disc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Work of the surface up to the last force evaluation (J, local): the committed work and the trapezoid over the step. */
static PetscReal ContactPairSurfaceWork(SKContactPair cp)
{
  return cp->surface_work + 0.5 * (cp->surface_power + cp->surface_power_trial) * cp->dt_last;
}

/* The energy sums of the last evaluation become the committed ones (a new step begins). */
static PetscErrorCode ContactPairCommitEnergy(SKContactPair cp)
{
  PetscFunctionBegin;
  cp->surface_work  = ContactPairSurfaceWork(cp);
  cp->surface_power = cp->surface_power_trial;
  cp->damping_diss  = cp->damping_diss_trial;
  cp->disc_work     = cp->disc_work_trial;
  PetscCall(PetscArraycpy(cp->gap_commit, cp->gap, cp->n));
  PetscCall(PetscArraycpy(cp->fn_commit, cp->fn, cp->n));
  /* the friction force of the law alone (the damping force was added to ft after the evaluation) */
  for (PetscInt i = 0; i < cp->n * cp->dim; i++) cp->ffr_commit[i] = cp->ft[i] - cp->dft[i], cp->dft_commit[i] = cp->dft[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairForce(void *ctx, PetscReal t, PetscInt nlocal, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                  PetscReal f[])
{
  SKContactPair cp   = (SKContactPair)ctx;
  const PetscInt dim = cp->dim, ns = cp->nstate;
  PetscReal dt;
  ContactEnergySums sums = {0, 0, 0};
  PetscInt failed[3]     = {0, 0, 0}; /* projection failures, unstable nodes, nodes through the surface */
  ContactPenetration pen = {-1, {0, 0, 0}, 0, 0};
  PetscInt bad_node      = -1;
  ContactStability worst = {4 * (1 + 1e-12), {0, 0, 0}, 0, 0, 0, 0, 0, 0};
  char msg[1024]; /* written only on failure */
  const SKFrictionParams *params;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_CONTACT_Force, 0, 0, 0, 0));
  (void)nlocal;
  PetscCall(SKFrictionLawGetParams(cp->law, &params));
  if (cp->called && t > cp->t_last) { /* a new step: the last trial becomes the committed state */
    PetscCall(PetscArraycpy(cp->state, cp->trial, cp->n * ns));
    PetscCall(PetscArraycpy(cp->stored, cp->stored_trial, cp->n));
    cp->dissipation = cp->dissipation_trial;
    PetscCall(ContactPairCommitEnergy(cp));
    cp->t_commit = cp->t_last;
    PetscCall(PetscArraycpy(cp->stick_time, cp->stick_time_trial, cp->n));
    PetscCall(PetscArraycpy(cp->contact_time, cp->contact_time_trial, cp->n));
  }
  if (!cp->called) cp->t_commit = t;
  cp->called  = PETSC_TRUE;
  cp->t_last  = t;
  dt          = t - cp->t_commit;
  cp->dt_last = dt;
  PetscCall(PetscArrayzero(cp->dft, cp->n * dim)); /* the implicit damping adds its force after the evaluation */
  if (cp->surface->ops->update) PetscCall(cp->surface->ops->update(cp->surface->data, t, X, u, v));
  if (cp->side->ops->update) PetscCall(cp->side->ops->update(cp->side->data, t, X, u, v, cp->surface));
  if (cp->mortar && cp->surface->ops->prepare) PetscCall(cp->surface->ops->prepare(cp->surface->data, cp->side));
  /* the nodes' loop with the dimension a constant (its small loops unroll) */
  if (dim == 3)
    PetscCall(ContactPairNodes(cp, t, dt, X, u, v, f, params, failed, &bad_node, &worst, &pen, &sums, 3));
  else
    PetscCall(ContactPairNodes(cp, t, dt, X, u, v, f, params, failed, &bad_node, &worst, &pen, &sums, 2));
  if (cp->side->ops->distribute) { /* the side spreads its points' forces over the body */
    PetscReal power;
    PetscCall(cp->side->ops->distribute(cp->side->data, f, &power));
    sums.power += power;
  }
  if (cp->surface->ops->addreactions) PetscCall(cp->surface->ops->addreactions(cp->surface->data, f));
  cp->dissipation_trial   = cp->dissipation + sums.diss;
  cp->damping_diss_trial  = cp->damping_diss;
  cp->surface_power_trial = sums.power;
  cp->disc_work_trial     = cp->disc_work + sums.disc;
  PetscCall(PetscLogEventEnd(SK_CONTACT_Force, 0, 0, 0, 0));
  /* every rank stops together, the one with the problem says what it is */
  failed[1] = worst.N > 0 ? 1 : 0;
  if (failed[0]) {
    const PetscInt a = cp->nodes[bad_node];
    PetscCall(
        PetscSNPrintf(msg, sizeof(msg),
                      "Closest-point projection of a contact node at (%g, %g, %g) m onto the %s surface did not converge at t = %g s "
                      "(%d Newton iterations): the node is far inside the surface or at a point equally close to several parts of it; "
                      "lower the time step or raise the penalty",
                      (double)(X[a * dim] + u[a * dim]), (double)(X[a * dim + 1] + u[a * dim + 1]),
                      (double)(dim == 3 ? X[a * dim + 2] + u[a * dim + 2] : 0), cp->surface->ops->type, (double)t, SK_SURFACE_MAX_IT));
  } else if (failed[2]) {
    if (pen.depth < 0)
      PetscCall(PetscSNPrintf(msg, sizeof(msg),
                              "A contact node at (%g, %g, %g) m in contact at the previous step is now farther behind the %s surface than "
                              "its search reaches at t = %g s: the bodies passed through each other. Raise the penalty (%g Pa/m) or lower "
                              "the time step",
                              (double)pen.x[0], (double)pen.x[1], (double)pen.x[2], cp->surface->ops->type, (double)t, (double)cp->eps_n));
    else
      PetscCall(
          PetscSNPrintf(msg, sizeof(msg),
                        "A contact node at (%g, %g, %g) m is %g m behind the %s surface at t = %g s, more than its contact length %g m "
                        "(its weight w_a as a length): the penalty %g Pa/m does not hold the bodies apart. Raise the penalty, lower "
                        "the load or the time step, or check that the contact sides face each other",
                        (double)pen.x[0], (double)pen.x[1], (double)pen.x[2], (double)pen.depth, cp->surface->ops->type, (double)t,
                        (double)pen.length, (double)cp->eps_n));
  } else if (failed[1]) {
    PetscCall(PetscSNPrintf(
        msg, sizeof(msg),
        "Contact became unstable at t = %g s: a node at (%g, %g, %g) m with normal force N = %g N and lumped mass %g kg gets "
        "from the friction law a tangential stiffness %g N/m and damping %g N s/m%s; with the body's omega_max^2 that needs "
        "dt <= %g s, but dt = %g s. Lower the time step (<time dt> or safety), the friction %s (sigma0), or the penalty (it "
        "bounds the normal force)%s",
        (double)t, (double)worst.x[0], (double)worst.x[1], (double)worst.x[2], (double)worst.N, (double)worst.m, (double)worst.k,
        (double)worst.c, cp->damping == SK_CONTACT_DAMPING_IMPLICIT ? " (taken implicitly)" : " (taken explicitly)", (double)worst.dt,
        (double)cp->check_dt, cp->damping == SK_CONTACT_DAMPING_IMPLICIT ? "stiffness" : "damping (sigma1, sigma2) or stiffness",
        cp->damping == SK_CONTACT_DAMPING_IMPLICIT ? "" : "; or take the damping implicitly (<contact damping=\"implicit\">)"));
  }
  if (cp->size > 1) {
    PetscInt local[3] = {failed[0], failed[1], failed[2]};
    PetscCallMPI(MPI_Allreduce(local, failed, 3, MPIU_INT, MPI_MAX, cp->comm));
    /* the program prints the first error of rank 0 only: another rank's message goes to stderr here */
    if (local[0] || local[1] || local[2]) PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "stickslip: error: %s\n", msg));
    PetscCheck(!(failed[0] || failed[1] || failed[2]) || local[0] || local[1] || local[2], PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
               "Contact failed on another rank at t = %g s (see its message)", (double)t);
  }
  PetscCheck(!(failed[0] || failed[1] || failed[2]), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetStabilityCheck(SKContactPair cp, PetscReal dt, PetscReal omega2, const PetscReal mass[])
{
  PetscFunctionBegin;
  PetscCheck(dt > 0 && omega2 >= 0, cp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Stability check needs dt > 0 and omega^2 >= 0, got %g s and %g 1/s^2", (double)dt, (double)omega2);
  PetscCheck(cp->affine, cp->comm, PETSC_ERR_SUP,
             "The stability check needs tangent moduli affine in the normal force; this friction law's are not");
  if (!cp->check_minv) PetscCall(PetscMalloc1(cp->n, &cp->check_minv));
  for (PetscInt i = 0; i < cp->n; i++) {
    PetscCheck(mass[cp->nodes[i]] > 0, cp->comm, PETSC_ERR_ARG_OUTOFRANGE, "Contact node %" PetscInt_FMT " has mass %g kg", cp->nodes[i],
               (double)mass[cp->nodes[i]]);
    cp->check_minv[i] = 1 / mass[cp->nodes[i]];
  }
  cp->check_dt     = dt;
  cp->check_omega2 = omega2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStepBound(SKContactPair cp, const PetscReal mass[], PetscReal omega2, PetscReal normal_load, PetscReal *dt)
{
  PetscReal wsum = 0, bound = PETSC_MAX_REAL, wm = 0, contact = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCheck(omega2 >= 0 && normal_load >= 0, cp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Step bound needs omega^2 >= 0 and a normal load >= 0, got %g 1/s^2 and %g N", (double)omega2, (double)normal_load);
  for (PetscInt i = 0; i < cp->n; i++) wsum += cp->w[i];
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &wsum, 1, MPIU_REAL, MPIU_SUM, cp->comm));
  if (cp->surface->ops->omega2) { /* both sides move: the master's omega^2 (the same on every rank) adds to every slave node's */
    PetscReal wmax = 0;
    for (PetscInt i = 0; i < cp->n; i++) wmax = PetscMax(wmax, cp->w[i]);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &wmax, 1, MPIU_REAL, MPIU_MAX, cp->comm));
    PetscCall(cp->surface->ops->omega2(cp->surface->data, cp->eps_n, wmax, cp->kt0, &wm, &cp->master_minv));
  }
  for (PetscInt i = 0; i < cp->n; i++) {
    const PetscReal m = mass[cp->nodes[i]], N = wsum > 0 ? normal_load * cp->w[i] / wsum : 0.0;
    PetscReal kt, ct;
    if (m <= 0) continue;
    PetscCall(SKFrictionLawGetTangentModuli(cp->law, N, &kt, &ct));
    {
      const PetscReal wc2 = wm + (cp->eps_n * cp->w[i] + kt) / m, w2 = omega2 + wc2;
      const PetscReal cm = cp->damping == SK_CONTACT_DAMPING_IMPLICIT ? 0.0 : ct / m;
      if (w2 > 0 || cm > 0) bound = PetscMin(bound, 4 / (cm + PetscSqrtReal(cm * cm + 4 * w2))); /* root of dt^2 w2 + 2 dt c / m = 4 */
      if (wc2 > 0) contact = PetscMin(contact, SK_CONTACT_SWITCH_MARGIN / PetscSqrtReal(wc2));
    }
  }
  {
    PetscReal b[2] = {bound, contact};
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, b, 2, MPIU_REAL, MPIU_MIN, cp->comm));
    *dt            = b[0];
    cp->dt_contact = b[1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetPasses(SKContactPair cp, PetscInt passes)
{
  PetscFunctionBegin;
  PetscCheck(passes >= 1, cp->comm, PETSC_ERR_ARG_OUTOFRANGE, "A pair is one of %" PetscInt_FMT " passes: must be at least 1", passes);
  cp->passes = passes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairIsFrictionless(SKContactPair cp, PetscBool *frictionless)
{
  PetscFunctionBegin;
  *frictionless = cp->frictionless;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetContactStep(SKContactPair cp, PetscReal *dt)
{
  PetscFunctionBegin;
  *dt = cp->dt_contact;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairDiagnoseDrift(SKContactPair cp, const char name[], PetscReal dt, PetscReal injected, char msg[], size_t len)
{
  const PetscReal dtc = cp->dt_contact;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(msg, len,
                          "Contact pair %s (penalty %g Pa/m) gave the bodies %g J beyond its booked energy: a one-sided penalty gains "
                          "energy when its nodes open and close at a step near its own limit. Its contact dt is %g s (the step its "
                          "stiffest node's penalty and friction stiffness allow with the switching margin); the run has dt = %g s: "
                          "%s",
                          name, (double)cp->eps_n, (double)injected, (double)dtc, (double)dt,
                          dt > dtc ? "set <time dt> at or below the contact dt, lower safety, or lower the penalty; "
                                   : "halve the step (<time dt> or safety) or lower the penalty; "));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStats(SKContactPair cp, SKContactPairStats *s)
{
  PetscReal sums[11] = {0}, fnorm;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  for (PetscInt i = 0; i < cp->n; i++) {
    sums[0] += cp->fn[i];
    for (PetscInt d = 0; d < cp->dim; d++) sums[1 + d] += cp->ft[i * cp->dim + d];
    if (cp->fn[i] > 0) {
      sums[4] += 1;
      sums[5] += cp->fn[i] * cp->fn[i] / (2 * cp->eps_n * cp->w[i]); /* eps_N g^2 / (2 w) = N^2 / (2 eps_N w) */
    }
  }
  sums[6] = cp->dissipation_trial;
  for (PetscInt i = 0; i < cp->n; i++) sums[7] += cp->stored_trial[i];
  sums[8]  = cp->damping_diss_trial;
  sums[9]  = ContactPairSurfaceWork(cp);
  sums[10] = cp->disc_work_trial;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sums, 11, MPIU_REAL, MPIU_SUM, cp->comm));
  s->normal_force = sums[0];
  for (PetscInt d = 0; d < 3; d++) s->friction_force[d] = sums[1 + d];
  fnorm                   = PetscSqrtReal(PetscSqr(sums[1]) + PetscSqr(sums[2]) + PetscSqr(sums[3]));
  s->cof                  = sums[0] > 0 ? fnorm / sums[0] : 0.0;
  s->nactive              = (PetscInt)sums[4];
  s->penalty_energy       = sums[5];
  s->friction_dissipation = sums[6];
  s->stored_tangential    = sums[7];
  s->damping_dissipation  = sums[8];
  s->dissipation          = sums[6] + sums[8];
  s->surface_work         = sums[9];
  s->discontinuity_work   = sums[10];
  {
    PetscInt n = cp->n;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPIU_INT, MPI_SUM, cp->comm));
    s->nnodes = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetNodal(SKContactPair cp, PetscInt *n, const PetscInt *nodes[], const PetscReal *w[], const PetscReal *fn[],
                                     const PetscReal *ft[])
{
  PetscFunctionBegin;
  if (n) *n = cp->n;
  if (nodes) *nodes = cp->nodes;
  if (w) *w = cp->w;
  if (fn) *fn = cp->fn;
  if (ft) *ft = cp->ft;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairHistoryCreate(SKContactPair cp, SKOutput out, const char path[], SKHistory *hist)
{
  const char *names[] = {"time",
                         "normal_force",
                         "friction_x",
                         "friction_y",
                         "friction_z",
                         "cof",
                         "nodes_in_contact",
                         "contact_fraction",
                         "dissipation",
                         "stored_normal",
                         "stored_tangential",
                         "friction_dissipation",
                         "damping_dissipation",
                         "surface_work",
                         "discontinuity_work"};
  const char *units[] = {"s", "N", "N", "N", "N", "1", "1", "1", "J", "J", "J", "J", "J", "J", "J"};
  const char *n[15], *u[15];
  PetscInt nc = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 15; i++)
    if (i != 4 || cp->dim == 3) n[nc] = names[i], u[nc++] = units[i];
  PetscCall(SKOutputHistoryCreate(out, path, nc, n, u, hist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairHistoryAppend(SKContactPair cp, SKHistory hist, PetscReal t)
{
  SKContactPairStats st;
  PetscReal row[15];
  PetscInt nc = 0;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetStats(cp, &st));
  row[nc++] = t;
  row[nc++] = st.normal_force;
  for (PetscInt d = 0; d < cp->dim; d++) row[nc++] = st.friction_force[d];
  row[nc++] = st.cof;
  row[nc++] = (PetscReal)st.nactive;
  row[nc++] = st.nnodes > 0 ? (PetscReal)st.nactive / (PetscReal)st.nnodes : 0.0;
  row[nc++] = st.dissipation;
  row[nc++] = st.penalty_energy;
  row[nc++] = st.stored_tangential;
  row[nc++] = st.friction_dissipation;
  row[nc++] = st.damping_dissipation;
  row[nc++] = st.surface_work;
  row[nc++] = st.discontinuity_work;
  if (hist) PetscCall(SKHistoryAppend(hist, row));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restart layout per node: state, trial (nstate each), stored, stored_trial, fn, ft (dim), then the sticking-time
   statistics stick_time, stick_time_trial, contact_time, contact_time_trial, then the energy booking's gap,
   gap_commit, fn_commit, ffr_commit, dft, dft_commit (dim each of the last three) (on the contact nodes); then the master
   surface's restart values (restart_width; a deformable one: the positions of its last grid build, dim, on its nodes)
   and the slave side's (restart_width; with the slave side set as a surface: those of its grid, dim). */
#define SK_CONTACT_RESTART_NODE(cp) (2 * (cp)->nstate + 3 + (cp)->dim + 4 + 3 + 3 * (cp)->dim)

PetscErrorCode SKContactPairGetRestartSize(SKContactPair cp, PetscInt *width)
{
  PetscFunctionBegin;
  *width = SK_CONTACT_RESTART_NODE(cp) + cp->surface->restart_width + cp->side->restart_width;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the per-node arrays between the pair and the packed nodal array, in the direction given by PACK. */
static PetscErrorCode ContactPairCopyRestart(SKContactPair cp, PetscInt nowned, PetscReal nodal[], PetscBool pack)
{
  const PetscInt ns = cp->nstate, dim = cp->dim;
  PetscInt width;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetRestartSize(cp, &width));
  for (PetscInt i = 0; i < cp->n; i++) {
    PetscReal *row         = nodal + cp->nodes[i] * width;
    PetscReal *parts[16]   = {cp->state + i * ns,   cp->trial + i * ns,         cp->stored + i,     cp->stored_trial + i,
                              cp->fn + i,           cp->ft + i * dim,           cp->stick_time + i, cp->stick_time_trial + i,
                              cp->contact_time + i, cp->contact_time_trial + i, cp->gap + i,        cp->gap_commit + i,
                              cp->fn_commit + i,    cp->ffr_commit + i * dim,   cp->dft + i * dim,  cp->dft_commit + i * dim};
    const PetscInt len[16] = {ns, ns, 1, 1, 1, dim, 1, 1, 1, 1, 1, 1, 1, dim, dim, dim};

    PetscCheck(cp->nodes[i] < nowned, cp->comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Contact node %" PetscInt_FMT " is not owned (%" PetscInt_FMT " owned)", cp->nodes[i], nowned);
    for (PetscInt k = 0; k < 16; row += len[k], k++) {
      if (pack)
        PetscCall(PetscArraycpy(row, parts[k], len[k]));
      else
        PetscCall(PetscArraycpy(parts[k], row, len[k]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairPackRestart(SKContactPair cp, PetscInt nowned, PetscReal nodal[], PetscReal scalars[])
{
  PetscInt width;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetRestartSize(cp, &width));
  PetscCall(PetscArrayzero(nodal, nowned * width));
  PetscCall(ContactPairCopyRestart(cp, nowned, nodal, PETSC_TRUE));
  if (cp->surface->ops->packrestart) cp->surface->ops->packrestart(cp->surface->data, width, SK_CONTACT_RESTART_NODE(cp), nodal);
  if (cp->side->ops->packrestart)
    cp->side->ops->packrestart(cp->side->data, width, SK_CONTACT_RESTART_NODE(cp) + cp->surface->restart_width, nodal);
  scalars[0]  = cp->t_commit;
  scalars[1]  = cp->t_last;
  scalars[2]  = cp->called ? 1.0 : 0.0;
  scalars[3]  = cp->dissipation;
  scalars[4]  = cp->dissipation_trial;
  scalars[5]  = cp->damping_diss;
  scalars[6]  = cp->damping_diss_trial;
  scalars[7]  = cp->surface_work;
  scalars[8]  = cp->surface_power;
  scalars[9]  = cp->surface_power_trial;
  scalars[10] = cp->disc_work;
  scalars[11] = cp->disc_work_trial;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairUnpackRestart(SKContactPair cp, PetscInt nowned, const PetscReal nodal[], const PetscReal scalars[])
{
  PetscInt width;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetRestartSize(cp, &width));
  PetscCall(ContactPairCopyRestart(cp, nowned, (PetscReal *)nodal, PETSC_FALSE));
  if (cp->surface->ops->unpackrestart)
    PetscCall(cp->surface->ops->unpackrestart(cp->surface->data, width, SK_CONTACT_RESTART_NODE(cp), nodal));
  if (cp->side->ops->unpackrestart)
    PetscCall(cp->side->ops->unpackrestart(cp->side->data, width, SK_CONTACT_RESTART_NODE(cp) + cp->surface->restart_width, nodal));
  cp->t_commit            = scalars[0];
  cp->t_last              = scalars[1];
  cp->called              = scalars[2] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  cp->dissipation         = scalars[3];
  cp->dissipation_trial   = scalars[4];
  cp->damping_diss        = scalars[5];
  cp->damping_diss_trial  = scalars[6];
  cp->surface_work        = scalars[7];
  cp->surface_power       = scalars[8];
  cp->surface_power_trial = scalars[9];
  cp->disc_work           = scalars[10];
  cp->disc_work_trial     = scalars[11];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetGlobalRestartSize(SKContactPair cp, PetscInt *n)
{
  PetscFunctionBegin;
  *n = 0;
  if (cp->side->ops->globalsize) PetscCall(cp->side->ops->globalsize(cp->side->data, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairPackGlobalRestart(SKContactPair cp, PetscReal buf[])
{
  PetscFunctionBegin;
  if (cp->side->ops->packglobal) PetscCall(cp->side->ops->packglobal(cp->side->data, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairUnpackGlobalRestart(SKContactPair cp, PetscInt n, const PetscReal buf[])
{
  PetscFunctionBegin;
  PetscCheck(n == 0 || cp->side->ops->unpackglobal, cp->comm, PETSC_ERR_ARG_INCOMP,
             "Checkpoint: %" PetscInt_FMT " values of replicated contact state for a slave side that keeps none", n);
  if (cp->side->ops->unpackglobal) PetscCall(cp->side->ops->unpackglobal(cp->side->data, n, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStateSize(SKContactPair cp, PetscInt *nstate)
{
  PetscFunctionBegin;
  *nstate = cp->nstate;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairAddNodalFields(SKContactPair cp, const PetscReal v[], PetscReal pressure[], PetscReal traction[],
                                           PetscReal stick[], PetscInt ncomp, PetscReal state[])
{
  const PetscInt dim = cp->dim, nc = PetscMin(ncomp, cp->nstate);
  const SKFrictionParams *p;

  PetscFunctionBegin;
  PetscCall(SKFrictionLawGetParams(cp->law, &p));
  for (PetscInt i = 0; i < cp->n; i++) {
    const PetscInt a = cp->nodes[i];

    /* each of N passes carries 1/N of the penalty: N times its own force per area is the interface pressure */
    pressure[a] += cp->passes * cp->fn[i] / cp->w[i];
    for (PetscInt d = 0; d < dim; d++) traction[a * dim + d] += cp->passes * cp->ft[i * dim + d] / cp->w[i];
    stick[a] += (cp->fn[i] > 0 && !cp->frictionless && SKFrictionIsSticking(p, ContactPairSlipSpeed(cp, i, v))) ? 1.0 : 0.0;
    /* the trial state is the one at the last force evaluation, i.e. at the time of the output */
    for (PetscInt k = 0; k < nc; k++) state[a * ncomp + k] += cp->trial[i * cp->nstate + k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairWriteSurfaceStickRatio(SKContactPair cp, PetscReal elapsed, SKOutput out, const char group[])
{
  PetscFunctionBegin;
  if (cp->side->ops->writestickratio) PetscCall(cp->side->ops->writestickratio(cp->side->data, cp->stick_time_trial, elapsed, out, group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStickTimes(SKContactPair cp, PetscInt *n, const PetscReal *stick[], const PetscReal *contact[])
{
  PetscFunctionBegin;
  if (n) *n = cp->n;
  if (stick) *stick = cp->stick_time_trial; /* the trial values are those up to the last force evaluation */
  if (contact) *contact = cp->contact_time_trial;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStickingTimeRatio(SKContactPair cp, PetscReal elapsed, PetscReal *ratio, PetscReal *contact_ratio)
{
  PetscReal sums[3] = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt i = 0; i < cp->n; i++) {
    sums[0] += cp->w[i] * cp->stick_time_trial[i];
    sums[1] += cp->w[i] * cp->contact_time_trial[i];
    sums[2] += cp->w[i];
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPIU_REAL, MPIU_SUM, cp->comm));
  if (ratio) *ratio = elapsed > 0 && sums[2] > 0 ? sums[0] / (sums[2] * elapsed) : 0.0;
  if (contact_ratio) *contact_ratio = sums[1] > 0 ? sums[0] / sums[1] : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairAddNodalStickRatio(SKContactPair cp, PetscReal elapsed, PetscReal ratio[])
{
  PetscFunctionBegin;
  if (elapsed > 0)
    for (PetscInt i = 0; i < cp->n; i++) ratio[cp->nodes[i]] += cp->stick_time_trial[i] / elapsed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetStickThreshold(SKContactPair cp, PetscReal *threshold)
{
  const SKFrictionParams *p;

  PetscFunctionBegin;
  PetscCall(SKFrictionLawGetParams(cp->law, &p));
  *threshold = SKFrictionStickThreshold(p);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetDamping(SKContactPair cp, SKContactDamping damping)
{
  PetscFunctionBegin;
  PetscCheck(damping == SK_CONTACT_DAMPING_EXPLICIT || damping == SK_CONTACT_DAMPING_IMPLICIT, cp->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown contact damping treatment %d", (int)damping);
  PetscCheck(damping == SK_CONTACT_DAMPING_EXPLICIT || !cp->surface->ops->react, cp->comm, PETSC_ERR_SUP,
             "Implicit contact damping acts on the slave nodes only: not available against a deformable surface");
  PetscCheck(damping == SK_CONTACT_DAMPING_EXPLICIT || cp->affine, cp->comm, PETSC_ERR_SUP,
             "Implicit contact damping needs tangent moduli affine in the normal force; this friction law's are not");
  PetscCheck(cp->nstate <= SK_CONTACT_MAX_STATE, cp->comm, PETSC_ERR_SUP,
             "Implicit contact damping takes friction laws with at most %d state values per node, not %" PetscInt_FMT, SK_CONTACT_MAX_STATE,
             cp->nstate);
  { /* the velocity scale of the law's nonlinearity, for the difference step of the damping slope */
    const SKFrictionParams *p;
    PetscReal thr;
    PetscCall(SKFrictionLawGetParams(cp->law, &p));
    thr         = SKFrictionStickThreshold(p);
    cp->v_scale = thr > 0 ? PetscMin(thr, p->v_reg) : p->v_reg;
  }
  cp->damping = damping;
  if (damping == SK_CONTACT_DAMPING_IMPLICIT && !cp->c_damp)
    PetscCall(PetscCalloc4(cp->n, &cp->c_damp, cp->n * cp->dim, &cp->normal, 2 * cp->n, &cp->vt, 2 * cp->n, &cp->F));
  if (damping == SK_CONTACT_DAMPING_EXPLICIT) PetscCall(PetscFree4(cp->c_damp, cp->normal, cp->vt, cp->F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetDamping(SKContactPair cp, SKContactDamping *damping)
{
  PetscFunctionBegin;
  *damping = cp->damping;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairGetNodalDamping(SKContactPair cp, PetscInt *n, const PetscInt *nodes[], const PetscReal *c[],
                                            const PetscReal *normal[])
{
  PetscFunctionBegin;
  /* explicit damping: no node carries an implicit part */
  if (n) *n = cp->c_damp ? cp->n : 0;
  if (nodes) *nodes = cp->nodes;
  if (c) *c = cp->c_damp;
  if (normal) *normal = cp->normal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKContactDampedAcceleration(PetscInt dim, PetscReal m, PetscReal dt, PetscReal c, const PetscReal n[], const PetscReal f[],
                                 PetscInt prescribed, PetscReal a[])
{
  /* free rows F of (alpha I - beta n n^T) a = f, alpha = m + dt c, beta = dt c: with the prescribed part moved to the
     right, g = f_F + beta n_F (n_P . a_P), and (alpha I - beta n_F n_F^T)^-1 = (I + beta n_F n_F^T / (alpha - beta |n_F|^2)) / alpha,
     where alpha - beta |n_F|^2 >= m > 0 */
  const PetscReal alpha = m + dt * c, beta = dt * c;
  PetscReal np_ap = 0, nf2 = 0, nf_g = 0, g[3];

  for (PetscInt d = 0; d < dim; d++)
    if (prescribed & (1 << d)) np_ap += n[d] * a[d];
  for (PetscInt d = 0; d < dim; d++) {
    if (prescribed & (1 << d)) continue;
    g[d] = f[d] + beta * n[d] * np_ap;
    nf2 += n[d] * n[d];
    nf_g += n[d] * g[d];
  }
  for (PetscInt d = 0; d < dim; d++)
    if (!(prescribed & (1 << d))) a[d] = (g[d] + beta * n[d] * nf_g / (alpha - beta * nf2)) / alpha;
}

/* The acceleration of contact node I (into A[] at its dofs, PRESCRIBED its mask) with the implicit damping C, and the
   residual g(c) = s - c of the damping, s the secant (F(v_t + dv_t) - F(v_t)) . dv_t / |dv_t|^2 of the law's force over
   the velocity change dv_t = dt a_t this gives, clamped to [0, c_max]; g = 0 for a change too small to matter. */
static PetscReal ContactDampingResidual(SKContactPair cp, PetscInt i, PetscReal dt, PetscReal c, PetscReal m, const PetscReal f[],
                                        PetscInt prescribed, PetscReal a[])
{
  const PetscInt dim = cp->dim, nt = dim - 1;
  const PetscReal N = cp->fn[i], cmax = cp->ct0 + cp->ct1 * N, *frame = cp->frame + i * dim * dim, *vt = cp->vt + 2 * i, *F = cp->F + 2 * i;
  PetscReal w[2] = {vt[0], vt[1]}, dv[2] = {0, 0}, Fw[2] = {0, 0}, dv2 = 0, dFdv = 0, h;

  SKContactDampedAcceleration(dim, m, dt, c, cp->normal + i * dim, f, prescribed, a);
  for (PetscInt k = 0; k < nt; k++) {
    for (PetscInt d = 0; d < dim; d++) dv[k] += dt * a[d] * frame[k * dim + d]; /* v_{n+3/2} - v_{n+1/2} */
    dv2 += dv[k] * dv[k];
    w[k] += dv[k];
  }
  h = 1e-6 * PetscMax(PetscSqrtReal(vt[0] * vt[0] + vt[1] * vt[1]), cp->v_scale);
  if (dv2 <= h * h) return 0.0;
  ContactStepForce(cp, i, cp->dt_last, N, w, Fw);
  for (PetscInt k = 0; k < nt; k++) dFdv += (Fw[k] - F[k]) * dv[k];
  return PetscMin(PetscMax(dFdv / dv2, 0.0), cmax) - c;
}

PetscErrorCode SKContactPairDampedAccelerations(SKContactPair cp, PetscReal dt, const PetscReal mass[], const PetscReal f[],
                                                const PetscInt dof_prescribed[], PetscReal a[])
{
  const PetscInt dim = cp->dim;

  PetscFunctionBegin;
  if (!cp->c_damp) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < cp->n; i++) {
    const PetscInt node  = cp->nodes[i];
    const PetscReal cmax = cp->ct0 + cp->ct1 * cp->fn[i], m = mass[node], *fi = f + node * dim;
    PetscReal *ai = a + node * dim, c = cp->c_damp[i], g, lo, hi, glo, ghi;
    PetscInt prescribed = 0, side = 0;

    if (cp->fn[i] <= 0 || cmax <= 0) continue;
    for (PetscInt d = 0; d < dim; d++)
      if (dof_prescribed[node * dim + d] >= 0) prescribed |= 1 << d;
    /* g(c) = s(c) - c: g(0) >= 0 >= g(c_max); from the local slope, Illinois' regula falsi on the bracket */
    g = ContactDampingResidual(cp, i, dt, c, m, fi, prescribed, ai);
    if (PetscAbsReal(g) <= SK_CONTACT_DAMPING_RTOL * cmax) {
      cp->c_damp[i] = c;
      continue;
    }
    if (g > 0)
      lo = c, glo = g, hi = cmax, ghi = ContactDampingResidual(cp, i, dt, cmax, m, fi, prescribed, ai);
    else
      hi = c, ghi = g, lo = 0, glo = ContactDampingResidual(cp, i, dt, 0.0, m, fi, prescribed, ai);
    c = glo <= 0 ? lo : ghi >= 0 ? hi : c;
    for (PetscInt it = 0; it < SK_CONTACT_DAMPING_MAX_IT && glo > 0 && ghi < 0; it++) {
      c = (lo * ghi - hi * glo) / (ghi - glo);
      g = ContactDampingResidual(cp, i, dt, c, m, fi, prescribed, ai);
      if (PetscAbsReal(g) <= SK_CONTACT_DAMPING_RTOL * cmax) break;
      if (g > 0) {
        lo = c, glo = g;
        if (side == 1) ghi *= 0.5;
        side = 1;
      } else {
        hi = c, ghi = g;
        if (side == -1) glo *= 0.5;
        side = -1;
      }
    }
    /* the last evaluation may be at an end of the bracket: solve with the c kept */
    SKContactDampedAcceleration(dim, m, dt, c, cp->normal + i * dim, fi, prescribed, ai);
    cp->c_damp[i] = c;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairAddDampingForce(SKContactPair cp, PetscReal dt, const PetscReal a[], const PetscReal v[], PetscReal f[],
                                            PetscReal g[])
{
  const PetscInt dim = cp->dim;
  PetscReal diss = 0, power = 0;

  PetscFunctionBegin;
  if (!cp->c_damp) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < cp->n; i++) {
    const PetscInt node  = cp->nodes[i];
    const PetscReal *nrm = cp->normal + i * dim, *vs = cp->frame + i * dim * dim + (dim - 1) * dim; /* surface velocity */
    PetscReal an = 0, vn = 0;

    PetscReal lost = 0;

    for (PetscInt d = 0; d < dim; d++) an += nrm[d] * a[node * dim + d], vn += nrm[d] * (v[node * dim + d] - vs[d]);
    for (PetscInt d = 0; d < dim; d++) {
      const PetscReal df = cp->c_damp[i] == 0 ? 0.0 : -dt * cp->c_damp[i] * (a[node * dim + d] - an * nrm[d]); /* -dt c (I - n n^T) a */
      cp->ft[i * dim + d] += df;
      cp->dft[i * dim + d] = df;
      f[node * dim + d] += df;
      if (g) g[node * dim + d] += df;
      /* the body feels df: trapezoidal in the damping forces of the step's two ends, as the friction's dissipation */
      lost -= 0.5 * (cp->dft_commit[i * dim + d] + df) * (v[node * dim + d] - vs[d] - vn * nrm[d]) * cp->dt_last;
      if (!cp->surface->ops->react) power += df * vs[d];
    }
    diss += lost;
  }
  cp->damping_diss_trial += diss;
  cp->surface_power_trial += power;
  PetscFunctionReturn(PETSC_SUCCESS);
}
