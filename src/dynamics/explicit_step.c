/* Explicit solver time stepping: force assembly (internal + registered terms, summed over ranks, then loads and
   springs), central differences in velocity form with prescribed motions, work bookkeeping, the critical time step. */
#include "explicitimpl.h"

PetscLogEvent SK_EXPLICIT_InternalForce, SK_EXPLICIT_Exchange, SK_EXPLICIT_Update, SK_EXPLICIT_Output, SK_EXPLICIT_CriticalStep;

/* Sums the ghost entries into their owners (when REDUCE), then copies the owners' values to every ghost copy. */
static PetscErrorCode ExchangeNodal(SKExplicit ex, PetscReal array[], PetscInt bs, PetscBool reduce)
{
  PetscSF sf = bs == 1 ? ex->node_sf : ex->sf;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_Exchange, 0, 0, 0, 0));
  PetscCheck(bs == 1 || bs == ex->dim, ex->comm, PETSC_ERR_ARG_OUTOFRANGE, "Block size %" PetscInt_FMT " is neither 1 nor the dimension",
             bs);
  /* roots (owned entries) and leaves (ghost entries) are disjoint parts of the same array */
  if (reduce) {
    PetscCall(PetscSFReduceBegin(sf, MPIU_REAL, array, array, MPIU_SUM));
    PetscCall(PetscSFReduceEnd(sf, MPIU_REAL, array, array, MPIU_SUM));
  }
  PetscCall(PetscSFBcastBegin(sf, MPIU_REAL, array, array, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, MPIU_REAL, array, array, MPI_REPLACE));
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_Exchange, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitAssembleNodal(SKExplicit ex, PetscReal array[], PetscInt bs)
{
  PetscFunctionBegin;
  PetscCall(ExchangeNodal(ex, array, bs, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Prescribed displacement of component d of local node i at time t (displacement-like conditions). */
static PetscReal PrescribedDisplacement(const SKExplicit ex, const SKExplicitBC *bc, PetscInt i, PetscInt d, PetscReal t)
{
  const PetscInt dim = ex->dim;
  PetscReal r[3]     = {0, 0, 0}, th, c, s, kr, kxr[3];
  const PetscReal *k = bc->axis;

  if (bc->kind == SK_EXPLICIT_BC_DISPLACEMENT) return SKTimeFunctionEval(&bc->f, t);
  /* rotation by Rodrigues' formula: R r = r cos + (k x r) sin + k (k.r)(1 - cos) */
  for (PetscInt j = 0; j < dim; j++) r[j] = ex->X[i * dim + j] - bc->center[j];
  th     = SKTimeFunctionEval(&bc->f, t);
  c      = PetscCosReal(th);
  s      = PetscSinReal(th);
  kr     = k[0] * r[0] + k[1] * r[1] + k[2] * r[2];
  kxr[0] = k[1] * r[2] - k[2] * r[1];
  kxr[1] = k[2] * r[0] - k[0] * r[2];
  kxr[2] = k[0] * r[1] - k[1] * r[0];
  return r[d] * (c - 1.0) + kxr[d] * s + k[d] * kr * (1.0 - c);
}

/* Velocity of a prescribed dof at time t: exact for velocity conditions, a central difference over +-dt otherwise. */
static PetscReal PrescribedVelocity(const SKExplicit ex, const SKExplicitBC *bc, PetscInt i, PetscInt d, PetscReal t)
{
  if (bc->kind == SK_EXPLICIT_BC_VELOCITY) return SKTimeFunctionEval(&bc->f, t);
  return (PrescribedDisplacement(ex, bc, i, d, t + ex->dt) - PrescribedDisplacement(ex, bc, i, d, t - ex->dt)) / (2.0 * ex->dt);
}

PetscReal SKExplicitSpringForce(const SKExplicit ex, const SKExplicitSpring *s, PetscReal t, PetscReal force[3])
{
  PetscReal e = 0;
  for (PetscInt d = 0; d < ex->dim; d++) {
    const PetscReal stretch = (s->mask & (1 << d)) ? ex->u[s->node * ex->dim + d] - s->velocity[d] * t : 0.0;
    force[d]                = -s->k * stretch;
    e += 0.5 * s->k * stretch * stretch;
  }
  return e;
}

/* Total force at the current (u, vh, t): f = -f_int + terms, summed over ranks, + loads + springs. Also the load part
   into fwork_new and the local increment of the drivers' work (when not first) into dwork[0]; the terms' work follows
   in TermWork(), once the implicit contact damping has made their forces final. */
static PetscErrorCode ComputeForces(SKExplicit ex, PetscBool first, PetscReal dwork[])
{
  const PetscInt dim = ex->dim, ndof = ex->ndof;
  PetscInt bad       = 0;
  SKFEMFailure fail  = {SK_FEM_OK, -1, -1, 0.0};
  PetscInt bad_block = -1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_InternalForce, 0, 0, 0, 0));
  PetscCall(PetscArrayzero(ex->f, ndof));
  for (PetscInt b = 0; b < ex->nblocks && !bad; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    PetscCall(SKFEMInternalForce(blk->basis, blk->mat, blk->nelem, blk->conn, ex->X, ex->u, ex->f, NULL, &fail));
    if (fail.kind != SK_FEM_OK) bad = 1, bad_block = b;
  }
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_InternalForce, 0, 0, 0, 0));
  /* a failed element on one rank must stop every rank before the next collective */
  if (ex->size > 1) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_MAX, ex->comm));
  if (bad) {
    if (bad_block >= 0)
      PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[ex->blocks[bad_block].first + fail.element], ex->t));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "An element on another rank turned inside out at t = %g s (see its message)",
            (double)ex->t);
  }
  for (PetscInt i = 0; i < ndof; i++) ex->f[i] = -ex->f[i];
  for (PetscInt k = 0; k < ex->nterms; k++) {
    SKExplicitTerm *term = &ex->terms[k];
    PetscReal *tmp       = term->f_old;
    term->f_old          = term->f;
    term->f              = tmp;
    PetscCall(PetscArrayzero(term->f, ndof));
    PetscCall(term->fn(term->ctx, ex->t, ex->nlocal, ex->X, ex->u, ex->vh, term->f));
    for (PetscInt i = 0; i < ndof; i++) ex->f[i] += term->f[i];
  }
  PetscCall(SKExplicitAssembleNodal(ex, ex->f, dim));

  PetscCall(PetscArrayzero(ex->fwork_new, ndof));
  for (PetscInt l = 0; l < ex->nloads; l++) {
    const SKExplicitLoad *ld = &ex->loads[l];
    const PetscReal s        = SKTimeFunctionEval(&ld->f, ex->t);
    if (s != 0.0)
      for (PetscInt k = 0; k < ld->n; k++) ex->fwork_new[ld->idx[k]] += s * ld->p[k];
  }
  for (PetscInt i = 0; i < ndof; i++) ex->f[i] += ex->fwork_new[i];
  dwork[0] = 0;
  for (PetscInt k = 0; k < ex->nsprings; k++) {
    SKExplicitSpring *s = &ex->springs[k];
    PetscReal fs[3];
    (void)SKExplicitSpringForce(ex, s, ex->t, fs);
    for (PetscInt d = 0; d < dim; d++) {
      ex->f[s->node * dim + d] += fs[d];
      /* the driver moves the far end by du_d = velocity dt: d(K + U + E_spring) = f_s . du_d, the driver's work */
      if (!first && s->node < ex->nowned) dwork[0] += 0.5 * (fs[d] + s->force[d]) * s->velocity[d] * ex->dt;
      s->force[d] = fs[d];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local increments of the terms' work over the step, trapezoidal in the forces they applied: into dwork[1 + k]. */
static void TermWork(SKExplicit ex, PetscReal dwork[])
{
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTerm *term = &ex->terms[k];
    PetscReal w                = 0;
    for (PetscInt i = 0; i < ex->ndof; i++) w += 0.5 * (ex->dt * ex->vh[i]) * (term->f[i] + term->f_old[i]);
    dwork[1 + k] = w;
  }
}

/* Whether a term takes its damping implicitly (the same on every rank: set from the input). */
static PetscBool TermHasImplicitDamping(const SKExplicitTerm *term)
{
  return (PetscBool)(term->ops && term->ops->implicit && term->ops->damp && term->ops->implicit(term->ctx));
}

/* Implicit damping of the terms that take it (contact: docs/theory.md, "Stability of the contact forces in the
   explicit scheme"): each term sets the accelerations of its owned nodes and adds its damping force to its own and
   to the total force, so that m a = f holds with the force actually applied (work, reactions); the ghost copies take
   their owner's acceleration. Deterministic in (f, a at prescribed dofs, the terms' state): a restart redoes it
   bitwise. */
static PetscErrorCode ContactDamping(SKExplicit ex)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    SKExplicitTerm *term = &ex->terms[k];
    if (TermHasImplicitDamping(term)) PetscCall(term->ops->damp(term->ctx, ex->dt, ex->mass, ex->f, ex->dof_bc, ex->a, ex->vh, term->f));
  }
  /* ghost copies of damped nodes do not know their damping: every copy takes its owner's acceleration */
  if (ex->size > 1) PetscCall(ExchangeNodal(ex, ex->a, ex->dim, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether any term takes contact damping implicitly (then the accelerations of ghost nodes come from their owners). */
static PetscBool HasImplicitDamping(SKExplicit ex)
{
  for (PetscInt k = 0; k < ex->nterms; k++)
    if (TermHasImplicitDamping(&ex->terms[k])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* With the iterated mass: the reactions (M a - f at the prescribed dofs, into the external forces), one pass over the
   elements that touch a prescribed dof, and into *kinetic the local v^T M_L v / 2 with the lumped mass M_L, the step's blow-up guard: the
   kinetic energy of the balance, v^T M v / 2, is computed where the energies are read (SKExplicitGetEnergy()), at the history rows, not at
   every step. */
static PetscErrorCode IteratedMassReactions(SKExplicit ex, PetscReal *kinetic)
{
  PetscReal *Ma = ex->mass_work[0];

  PetscFunctionBegin;
  PetscCall(SKExplicitMassApplyPrescribed(ex, ex->a, Ma)); /* M a only where it is read */
  for (PetscInt i = 0; i < ex->ndof; i++) {
    ex->react[i] = ex->dof_bc[i] < 0 ? 0.0 : Ma[i] - ex->f[i];
    ex->fwork_new[i] += ex->react[i];
  }
  *kinetic = 0;
  for (PetscInt i = 0; i < ex->nowned * ex->dim; i++) *kinetic += 0.5 * ex->mass[i / ex->dim] * ex->v[i] * ex->v[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitFinishStep(SKExplicit ex, PetscBool first)
{
  const PetscInt dim = ex->dim, ndof = ex->ndof, nterm = ex->nterms;
  const PetscReal dt = ex->dt;
  PetscReal sums[2 + SK_EXPLICIT_MAX_TERMS + 1], dwork[1 + SK_EXPLICIT_MAX_TERMS];

  PetscFunctionBegin;
  if (first) { /* the prescribed motion at the current time, before the forces see u */
    for (PetscInt i = 0; i < ndof; i++) {
      const PetscInt ib = ex->dof_bc[i];
      if (ib < 0) continue;
      if (ex->bc[ib].kind != SK_EXPLICIT_BC_VELOCITY) ex->u[i] = PrescribedDisplacement(ex, &ex->bc[ib], i / dim, i % dim, ex->t);
      if (dt > 0) ex->v[i] = PrescribedVelocity(ex, &ex->bc[ib], i / dim, i % dim, ex->t);
    }
    /* velocity-dependent force terms see the current velocity at a start */
    PetscCall(PetscArraycpy(ex->vh, ex->v, ndof));
  }
  PetscCall(ComputeForces(ex, first, dwork));
  for (PetscInt i = 0; i < ndof; i++) {
    const PetscInt ib = ex->dof_bc[i];
    if (ib < 0)
      ex->a[i] = ex->f[i] / ex->mass[i / dim];
    else {
      const PetscReal vt = dt > 0 ? PrescribedVelocity(ex, &ex->bc[ib], i / dim, i % dim, ex->t) : ex->v[i];
      ex->a[i]           = first ? 0.0 : 2.0 * (vt - ex->vh[i]) / dt;
      ex->v[i]           = vt;
    }
  }
  if (dt > 0 && HasImplicitDamping(ex)) PetscCall(ContactDamping(ex));
  if (ex->mass_iterated) { /* the free accelerations again, by the iterated mass (the damping forces are in f) */
    PetscCall(SKExplicitMassSolve(ex, ex->f, ex->a));
    if (!first)
      for (PetscInt i = 0; i < ndof; i++)
        if (ex->dof_bc[i] < 0) ex->v[i] = ex->vh[i] + 0.5 * dt * ex->a[i];
    PetscCall(IteratedMassReactions(ex, &sums[0]));
  } else
    for (PetscInt i = 0; i < ndof; i++) {
      if (ex->dof_bc[i] < 0) {
        ex->react[i] = 0;
        if (!first) ex->v[i] = ex->vh[i] + 0.5 * dt * ex->a[i];
      } else {
        ex->react[i] = ex->mass[i / dim] * ex->a[i] - ex->f[i];
        ex->fwork_new[i] += ex->react[i];
      }
    }
  if (!first) TermWork(ex, dwork);
  /* global sums: kinetic energy, external work increment, term work increments, and the drivers' work */
  if (!ex->mass_iterated) sums[0] = 0;
  sums[1] = 0;
  for (PetscInt i = 0; i < ex->nowned * dim; i++) {
    if (!ex->mass_iterated) sums[0] += 0.5 * ex->mass[i / dim] * ex->v[i] * ex->v[i];
    if (!first) sums[1] += 0.5 * (dt * ex->vh[i]) * (ex->fwork[i] + ex->fwork_new[i]);
  }
  sums[1] += dwork[0];
  for (PetscInt k = 0; k < nterm; k++) sums[2 + k] = dwork[1 + k];
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sums, (PetscMPIInt)(2 + nterm), MPIU_REAL, MPIU_SUM, ex->comm));
  ex->kinetic = sums[0];
  if (!first) {
    ex->external_work += sums[1];
    for (PetscInt k = 0; k < nterm; k++) ex->terms[k].work += sums[2 + k];
  }
  PetscCheck(PetscIsNormalReal(ex->kinetic) || ex->kinetic == 0.0, ex->comm, PETSC_ERR_NOT_CONVERGED,
             "The run became unstable at t = %g s (step %" PetscInt_FMT
             "): kinetic energy = %g. Reduce the time step (dt or the safety factor, now dt = %g s, critical %g s), "
             "or check loads and springs (a stiff spring lowers the critical time step)",
             (double)ex->t, ex->step, (double)ex->kinetic, (double)dt, (double)ex->dt_critical);
  {
    PetscReal *tmp = ex->fwork;
    ex->fwork      = ex->fwork_new;
    ex->fwork_new  = tmp;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitRestoreForces(SKExplicit ex)
{
  const PetscInt dim = ex->dim;
  PetscReal dwork[1 + SK_EXPLICIT_MAX_TERMS], kinetic = 0;

  PetscFunctionBegin;
  PetscCall(ComputeForces(ex, PETSC_TRUE, dwork));
  /* the same forces and the restored accelerations at prescribed dofs give the step's damping and accelerations bitwise */
  if (ex->dt > 0 && HasImplicitDamping(ex)) PetscCall(ContactDamping(ex));
  if (ex->mass_iterated) { /* the restored accelerations are those of the iterated mass: only M a and M v are needed */
    PetscCall(IteratedMassReactions(ex, &kinetic));
  } else {
    for (PetscInt i = 0; i < ex->ndof; i++) {
      ex->react[i] = ex->dof_bc[i] < 0 ? 0.0 : ex->mass[i / dim] * ex->a[i] - ex->f[i];
      ex->fwork_new[i] += ex->react[i];
    }
    for (PetscInt i = 0; i < ex->nowned * dim; i++) kinetic += 0.5 * ex->mass[i / dim] * ex->v[i] * ex->v[i];
  }
  PetscCallMPI(MPI_Allreduce(&kinetic, &ex->kinetic, 1, MPIU_REAL, MPIU_SUM, ex->comm));
  {
    PetscReal *tmp = ex->fwork;
    ex->fwork      = ex->fwork_new;
    ex->fwork_new  = tmp;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitStep(SKExplicit ex)
{
  const PetscInt dim = ex->dim, ndof = ex->ndof;
  const PetscReal dt = ex->dt, t_next = (PetscReal)(ex->step + 1) * dt;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_Update, 0, 0, 0, 0));
  for (PetscInt i = 0; i < ndof; i++) {
    const PetscInt ib = ex->dof_bc[i];
    PetscReal vh      = ex->v[i] + 0.5 * dt * ex->a[i];
    if (ib >= 0) {
      const SKExplicitBC *bc = &ex->bc[ib];
      vh                     = bc->kind == SK_EXPLICIT_BC_VELOCITY ? SKTimeFunctionEval(&bc->f, ex->t + 0.5 * dt)
                                                                   : (PrescribedDisplacement(ex, bc, i / dim, i % dim, t_next) - ex->u[i]) / dt;
    }
    ex->vh[i] = vh;
    ex->u[i] += dt * vh;
  }
  ex->step++;
  ex->t = t_next;
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_Update, 0, 0, 0, 0));
  PetscCall(SKExplicitFinishStep(ex, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitAdvance(SKExplicit ex, PetscInt nsteps)
{
  PetscFunctionBegin;
  for (PetscInt s = 0; s < nsteps; s++) PetscCall(SKExplicitStep(ex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Global number of local node i. */
static PetscInt GlobalNode(SKExplicit ex, PetscInt i, PetscInt gstart, const PetscInt ghost[])
{
  return i < ex->nowned ? gstart + i : ghost[i - ex->nowned];
}

PetscErrorCode SKExplicitGetOperators(SKExplicit ex, Mat *K, Vec *mass, IS *constrained)
{
  const PetscInt dim = ex->dim;
  PetscInt gstart, gsize, nghost, *d_nnz, *o_nnz, *mark, nc = 0, *cidx, rstart;
  const PetscInt *ghost, *offsets, *elems;
  PetscReal *Ke, *Xe, *ue;
  PetscInt *dofs;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, &gstart, &gsize));
  PetscCall(SKMeshGetGhostNodes(ex->mesh, &nghost, &ghost, NULL));
  /* preallocation from the local node-element map (exact inside a rank; interface rows may need a few mallocs) */
  PetscCall(SKMeshGetNodeElements(ex->mesh, &offsets, &elems));
  PetscCall(PetscCalloc3(ex->nowned * dim, &d_nnz, ex->nowned * dim, &o_nnz, ex->nlocal, &mark));
  for (PetscInt i = 0; i < ex->nlocal; i++) mark[i] = -1;
  for (PetscInt i = 0; i < ex->nowned; i++) {
    PetscInt nd = 0, no = 0;
    for (PetscInt k = offsets[i]; k < offsets[i + 1]; k++) {
      const PetscInt *nodes;
      SKElementType type;
      const SKElementTypeInfo *info;
      PetscCall(SKMeshGetElement(ex->mesh, elems[k], NULL, &type, &nodes));
      PetscCall(SKElementTypeGetInfo(type, &info));
      for (PetscInt a = 0; a < info->num_nodes; a++)
        if (mark[nodes[a]] != i) {
          mark[nodes[a]] = i;
          if (nodes[a] < ex->nowned)
            nd++;
          else
            no++;
        }
    }
    if (ex->size > 1) no += nd; /* elements on other ranks are not seen here */
    for (PetscInt d = 0; d < dim; d++)
      d_nnz[i * dim + d] = PetscMin(nd * dim, ex->nowned * dim), o_nnz[i * dim + d] = PetscMin(no * dim, (gsize - ex->nowned) * dim);
  }
  PetscCall(MatCreateAIJ(ex->comm, ex->nowned * dim, ex->nowned * dim, PETSC_DETERMINE, PETSC_DETERMINE, 0, d_nnz, 0, o_nnz, K));
  PetscCall(MatSetOption(*K, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(PetscFree3(d_nnz, o_nnz, mark));
  PetscCall(PetscMalloc4(SK_ELEMENT_MAX_NODES * 3 * SK_ELEMENT_MAX_NODES * 3, &Ke, SK_ELEMENT_MAX_NODES * 3, &Xe, SK_ELEMENT_MAX_NODES * 3,
                         &ue, SK_ELEMENT_MAX_NODES * 3, &dofs));
  PetscCall(PetscArrayzero(ue, SK_ELEMENT_MAX_NODES * 3));
  /* the element loop stops on a signal or a failed element: K and the work arrays are freed then */
  for (PetscInt b = 0; !ierr && b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    const PetscInt n           = blk->nodes * dim;
    for (PetscInt e = 0; !ierr && e < blk->nelem; e++) {
      const PetscInt *c = blk->conn + e * blk->nodes;
      SKFEMFailure fail;
      for (PetscInt a = 0; a < blk->nodes; a++)
        for (PetscInt d = 0; d < dim; d++) {
          Xe[a * dim + d]   = ex->X[c[a] * dim + d];
          dofs[a * dim + d] = GlobalNode(ex, c[a], gstart, ghost) * dim + d;
        }
      ierr = SKFEMBlockElementStiffness(blk->basis, blk->mat, e, Xe, ue, Ke, &fail);
      if (!ierr && fail.kind != SK_FEM_OK) ierr = SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + e], -1.0);
      if (!ierr) ierr = MatSetValues(*K, n, dofs, n, dofs, Ke, ADD_VALUES);
    }
  }
  if (ierr) {
    PetscCall(PetscFree4(Ke, Xe, ue, dofs));
    PetscCall(MatDestroy(K));
  }
  PetscCall(ierr);
  for (PetscInt k = 0; k < ex->nsprings; k++) {
    const SKExplicitSpring *s = &ex->springs[k];
    if (s->node >= ex->nowned) continue;
    for (PetscInt d = 0; d < dim; d++)
      if (s->mask & (1 << d)) PetscCall(MatSetValue(*K, (gstart + s->node) * dim + d, (gstart + s->node) * dim + d, s->k, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree4(Ke, Xe, ue, dofs));

  PetscCall(MatCreateVecs(*K, mass, NULL));
  PetscCall(VecGetOwnershipRange(*mass, &rstart, NULL));
  {
    PetscReal *m;
    PetscCall(VecGetArray(*mass, &m));
    for (PetscInt i = 0; i < ex->nowned * dim; i++) m[i] = ex->mass[i / dim];
    PetscCall(VecRestoreArray(*mass, &m));
  }
  PetscCall(PetscMalloc1(ex->nowned * dim, &cidx));
  for (PetscInt i = 0; i < ex->nowned * dim; i++)
    if (ex->dof_bc[i] >= 0) cidx[nc++] = rstart + i;
  PetscCall(ISCreateGeneral(ex->comm, nc, cidx, PETSC_OWN_POINTER, constrained));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitZeroConstrained(Vec x, IS constrained)
{
  PetscInt nc;
  const PetscInt *cidx;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(constrained, &nc));
  PetscCall(ISGetIndices(constrained, &cidx));
  for (PetscInt k = 0; k < nc; k++) PetscCall(VecSetValue(x, cidx[k], 0.0, INSERT_VALUES));
  PetscCall(ISRestoreIndices(constrained, &cidx));
  PetscCall(VecAssemblyBegin(x));
  PetscCall(VecAssemblyEnd(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool SKExplicitPowerConverged(PetscInt k, PetscReal lambda, PetscReal *lambda_old, PetscReal rtol)
{
  if (k % 10) return PETSC_FALSE;
  if (PetscAbsReal(lambda - *lambda_old) <= rtol * PetscAbsReal(lambda)) return PETSC_TRUE;
  *lambda_old = lambda;
  return PETSC_FALSE;
}

PetscErrorCode SKExplicitPowerStart(Vec x, IS constrained)
{
  PetscInt rstart, rend;
  PetscReal *xa;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(x, &rstart, &rend));
  PetscCall(VecGetArray(x, &xa));
  /* start vector from a hash of the global dof number: the same on any number of ranks, rich in every mode */
  for (PetscInt i = rstart; i < rend; i++) {
    unsigned long long h = SKHashBytes(SK_FNV_SEED, &i, sizeof(i));
    xa[i - rstart]       = 0.5 + (PetscReal)(h % 1000003) / 1000003.0;
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(SKExplicitZeroConstrained(x, constrained));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitPowerIteration(Mat K, Vec mass, IS constrained, PetscReal rtol, PetscInt maxit, PetscReal *lambda_max,
                                        PetscInt *its)
{
  Vec d, x, y, z;
  PetscReal lambda = 0, lambda_old = 0;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(mass, &d));
  PetscCall(VecDuplicate(mass, &x));
  PetscCall(VecDuplicate(mass, &y));
  PetscCall(VecDuplicate(mass, &z));
  PetscCall(VecCopy(mass, d));
  PetscCall(VecSqrtAbs(d));
  PetscCall(VecReciprocal(d));
  PetscCall(SKExplicitZeroConstrained(d, constrained));
  PetscCall(SKExplicitPowerStart(x, constrained));
  *its = 0;
  for (PetscInt k = 1; k <= maxit; k++) {
    if ((ierr = SKSignalCheckSerial())) break; /* a long set-up phase: SIGTERM honoured (core.h), one volatile read */
    PetscReal nx;
    PetscCall(VecNorm(x, NORM_2, &nx));
    if (nx == 0.0) break;
    PetscCall(VecScale(x, 1.0 / nx));
    PetscCall(VecPointwiseMult(y, x, d));
    PetscCall(MatMult(K, y, z));
    PetscCall(VecPointwiseMult(z, z, d));
    PetscCall(VecDot(z, x, &lambda)); /* Rayleigh quotient of D K D at the unit vector x */
    PetscCall(VecCopy(z, x));
    *its = k;
    if (SKExplicitPowerConverged(k, lambda, &lambda_old, rtol)) break;
  }
  *lambda_max = lambda;
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Peak magnitude (N) of the resultant of the applied loads (body forces, point loads, tractions times their time
   functions) over the run, sampled at SK_EXPLICIT_LOAD_SAMPLES + 1 equally spaced times of [0, t_end]. */
#define SK_EXPLICIT_LOAD_SAMPLES 1000
static PetscErrorCode ExplicitPeakLoad(SKExplicit ex, PetscReal *peak)
{
  const PetscInt dim = ex->dim;
  PetscReal *resultant, best = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ex->nloads * dim + 1, &resultant));
  for (PetscInt l = 0; l < ex->nloads; l++) /* the non-zero entries of the owned dofs (a load pattern is sparse) */
    for (PetscInt k = 0; k < ex->loads[l].n && ex->loads[l].idx[k] < ex->nowned * dim; k++)
      resultant[l * dim + ex->loads[l].idx[k] % dim] += ex->loads[l].p[k];
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, resultant, (PetscMPIInt)(ex->nloads * dim), MPIU_REAL, MPIU_SUM, ex->comm));
  for (PetscInt k = 0; k <= SK_EXPLICIT_LOAD_SAMPLES; k++) {
    const PetscReal t = ex->t_end * k / SK_EXPLICIT_LOAD_SAMPLES;
    PetscReal F[3]    = {0, 0, 0};
    for (PetscInt l = 0; l < ex->nloads; l++) {
      const PetscReal s = SKTimeFunctionEval(&ex->loads[l].f, t);
      for (PetscInt d = 0; d < dim; d++) F[d] += s * resultant[l * dim + d];
    }
    best = PetscMax(best, PetscSqrtReal(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]));
  }
  PetscCall(PetscFree(resultant));
  *peak = best;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One past the last of the consecutive terms that share the group of term I (the passes of one <contact>; a term without
   a group is its own). */
static PetscInt GroupEnd(SKExplicit ex, PetscInt i)
{
  PetscInt j = i + 1;
  while (ex->terms[i].group >= 0 && j < ex->nterms && ex->terms[j].group == ex->terms[i].group) j++;
  return j;
}

/* *DT (s: the body's own critical step, or PETSC_MAX_REAL) lowered to what every term with a step bound allows when
   each carries the normal load NORMAL_LOAD (N) (contact pairs). Consecutive terms of one group (the passes of one
   <contact>) act on the same nodes together: the omega^2 each adds to the body's are summed. */
static PetscErrorCode ExplicitContactStep(SKExplicit ex, PetscReal normal_load, PetscReal *dt)
{
  const PetscReal omega2 = *dt < PETSC_MAX_REAL ? 4 / PetscSqr(*dt) : 0.0;

  PetscFunctionBegin;
  for (PetscInt i = 0, end; i < ex->nterms; i = end) {
    PetscReal bound = PETSC_MAX_REAL, extra = 0;

    end = GroupEnd(ex, i);
    for (PetscInt j = i; j < end; j++) {
      const SKExplicitTerm *term = &ex->terms[j];
      if (!term->ops || !term->ops->stepbound) continue;
      PetscCall(term->ops->stepbound(term->ctx, SKExplicitContactMass(ex), omega2, normal_load, &bound));
      if (bound < PETSC_MAX_REAL) extra += 4 / PetscSqr(bound) - omega2;
    }
    if (end == i + 1)
      *dt = PetscMin(*dt, bound);
    else if (extra > 0)
      *dt = PetscMin(*dt, 2 / PetscSqrtReal(omega2 + extra));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The smallest of the terms' own steps (ops->ownstep, from their last stepbound): the contact dt. Terms of one group act on
   the same nodes together: their omega^2 add, 1 / dt^2 = sum_k 1 / dt_k^2. */
static PetscErrorCode ExplicitOwnStep(SKExplicit ex, PetscReal *dt)
{
  PetscFunctionBegin;
  *dt = PETSC_MAX_REAL;
  for (PetscInt i = 0, end; i < ex->nterms; i = end) {
    PetscReal inv2 = 0;
    end            = GroupEnd(ex, i);
    for (PetscInt j = i; j < end; j++) {
      const SKExplicitTerm *term = &ex->terms[j];
      PetscReal own;
      if (!term->ops || !term->ops->ownstep) continue;
      PetscCall(term->ops->ownstep(term->ctx, &own));
      if (own < PETSC_MAX_REAL) inv2 += 1 / PetscSqr(own);
    }
    if (inv2 > 0) *dt = PetscMin(*dt, 1 / PetscSqrtReal(inv2));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a block's cells have Lagrange nodes (on the body); Bezier cells (patches) have control points instead */
static PetscErrorCode BlockHasNodes(const SKExplicitBlock *blk, PetscBool *has)
{
  const PetscReal *ref;

  PetscFunctionBegin;
  PetscCall(SKBasisGetTabulation(blk->basis, &ref, NULL, NULL, NULL, NULL));
  *has = ref ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element bound of a block (SKFEMStiffnessBounds) with, unless NULL, its row bound added into r; failures raised */
static PetscErrorCode BlockStiffnessBounds(SKExplicit ex, const SKExplicitBlock *blk, PetscReal r[], PetscReal *omega2)
{
  SKFEMFailure fail;

  PetscFunctionBegin;
  PetscCall(SKFEMStiffnessBounds(blk->basis, blk->mat, blk->lumping, blk->nelem, blk->conn, ex->X, r, omega2, &fail));
  if (fail.kind != SK_FEM_OK) PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + fail.element], -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* omega_max^2 <= max over the free dofs i of sum_j |K_ij| / m_i (Gershgorin on M^-1 K), with sum_j |K_ij| <= the sum over
   the elements of node i of their |K^e| row sums (module fem), plus the springs on the diagonal. Matrix-free and O(n):
   each element once; the sums over ranks are exact up to the summation order, so 1 and 2 ranks agree to round-off.
   The same pass gives the element bound (omega2[b]) of the blocks flagged in WANT. */
static PetscErrorCode StiffnessBound(SKExplicit ex, const PetscBool want[], PetscReal *lambda, PetscReal omega2[])
{
  const PetscInt dim = ex->dim;
  PetscReal *r, lam = 0.0;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ex->ndof, &r));
  for (PetscInt b = 0; !ierr && b < ex->nblocks; b++) ierr = BlockStiffnessBounds(ex, &ex->blocks[b], r, want[b] ? &omega2[b] : NULL);
  if (ierr) PetscCall(PetscFree(r)); /* a signal or a failed element stops the pass */
  PetscCall(ierr);
  PetscCall(SKExplicitAssembleNodal(ex, r, dim));
  for (PetscInt k = 0; k < ex->nsprings; k++) {
    const SKExplicitSpring *s = &ex->springs[k];
    for (PetscInt d = 0; d < dim; d++)
      if (s->mask & (1 << d)) r[s->node * dim + d] += s->k;
  }
  for (PetscInt i = 0; i < ex->nowned * dim; i++)
    if (ex->dof_bc[i] < 0)
      lam = PetscMax(lam, ex->mass_iterated ? (ex->mass_iterations + 1) * r[i] / ex->mass_diag[i] : r[i] / ex->mass[i / dim]);
  PetscCall(PetscFree(r));
  PetscCallMPI(MPI_Allreduce(&lam, lambda, 1, MPIU_REAL, MPIU_MAX, ex->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const SKExplicitCriticalStepTypes[] = {"auto", "power", "bound", "SKExplicitCriticalStepType", "SK_EXPLICIT_CRITICAL_", NULL};

/* The element bound of the whole mesh: the largest element eigenvalue of the blocks (omega2) plus the springs' k / m on
   their own dofs (lambda_max(A + B) <= lambda_max(A) + lambda_max(B)), times the iterated mass's factor; max over the
   ranks */
static PetscErrorCode ElementBound(SKExplicit ex, const PetscReal omega2[], PetscReal *lambda)
{
  PetscReal v[2] = {0, 0}; /* elements, springs */

  PetscFunctionBegin;
  for (PetscInt b = 0; b < ex->nblocks; b++) v[0] = PetscMax(v[0], omega2[b]);
  for (PetscInt k = 0; k < ex->nsprings; k++) {
    const SKExplicitSpring *s = &ex->springs[k];
    if (s->node >= ex->nowned) continue;
    for (PetscInt d = 0; d < ex->dim; d++)
      if ((s->mask & (1 << d)) && ex->dof_bc[s->node * ex->dim + d] < 0) v[1] = PetscMax(v[1], s->k / ex->mass[s->node]);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPIU_REAL, MPIU_MAX, ex->comm));
  *lambda = SKExplicitMassBoundFactor(ex) * (v[0] + v[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The largest eigenvalue of M^-1 K of the bodies (lambda) by the power iteration or the row bound of the critical step's
   type, the element bound of the blocks flagged in WANT (omega2), with the row bound also the whole mesh's element bound
   where ELEMENT (lambda_el); its: the power iterations */
static PetscErrorCode BodyLambda(SKExplicit ex, const PetscBool want[], PetscBool element, PetscReal *lambda, PetscReal *lambda_el,
                                 PetscReal omega2[], PetscInt *its)
{
  PetscFunctionBegin;
  if (ex->critical_type == SK_EXPLICIT_CRITICAL_POWER) {
    Mat K;
    Vec mass;
    IS cons;
    PetscErrorCode ierr;
    PetscCall(SKExplicitGetOperators(ex, &K, &mass, &cons));
    if (ex->mass_iterated)
      ierr = SKExplicitMassPowerIteration(ex, K, cons, ex->power_rtol, ex->power_its, lambda, its);
    else
      ierr = SKExplicitPowerIteration(K, mass, cons, ex->power_rtol, ex->power_its, lambda, its);
    PetscCall(MatDestroy(&K));
    PetscCall(VecDestroy(&mass));
    PetscCall(ISDestroy(&cons));
    PetscCall(ierr);
    for (PetscInt b = 0; b < ex->nblocks; b++)
      if (want[b]) PetscCall(BlockStiffnessBounds(ex, &ex->blocks[b], NULL, &omega2[b]));
  } else {
    PetscCall(StiffnessBound(ex, want, lambda, omega2));
    /* both bounds are proofs: the bound takes the tighter */
    if (element) PetscCall(ElementBound(ex, omega2, lambda_el));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitCriticalTimeStep(SKExplicit ex)
{
  PetscReal lambda, lambda_el = 0, hmin = PETSC_MAX_REAL, dt_body, *omega2;
  PetscInt its = 0, gsize, ncontacts;
  PetscBool *nodes, *want, element = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_CriticalStep, 0, 0, 0, 0));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  if (ex->critical_type == SK_EXPLICIT_CRITICAL_AUTO)
    ex->critical_type = gsize * ex->dim <= SK_EXPLICIT_POWER_MAX_DOFS ? SK_EXPLICIT_CRITICAL_POWER : SK_EXPLICIT_CRITICAL_BOUND;
  /* The element bound of the blocks of Bezier cells, whose element-size estimate it is. With the bound, that of every
     block where a block has Bezier cells or quadratic ones: there the row bound is loosest (H27 0.51 of the power
     iteration's step, the element bound 0.89; p = 3 patches 0.64 and 0.89), while on linear cells the element bound
     gains little (H8 0.4 %, T4 7 %) for about twice the set-up (docs/theory.md, "Critical time step"). */
  PetscCall(PetscMalloc3(ex->nblocks, &omega2, ex->nblocks, &nodes, ex->nblocks, &want));
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    PetscCall(BlockHasNodes(&ex->blocks[b], &nodes[b]));
    omega2[b] = 0;
    if (!nodes[b] || ex->blocks[b].order >= 2) element = PETSC_TRUE;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &element, 1, MPIU_BOOL, MPI_LOR, ex->comm));
  for (PetscInt b = 0; b < ex->nblocks; b++)
    want[b] = (PetscBool)(!nodes[b] || (element && ex->critical_type == SK_EXPLICIT_CRITICAL_BOUND));
  ierr = BodyLambda(ex, want, element, &lambda, &lambda_el, omega2, &its);
  if (ierr) { /* a signal or a failed element stopped it */
    PetscCall(PetscFree3(omega2, nodes, want));
    PetscCall(PetscLogEventEnd(SK_EXPLICIT_CriticalStep, 0, 0, 0, 0));
  }
  PetscCall(ierr);
  ex->critical_element = PETSC_FALSE;
  if (ex->critical_type == SK_EXPLICIT_CRITICAL_BOUND && lambda_el > 0 && lambda_el < lambda) {
    lambda               = lambda_el;
    ex->critical_element = PETSC_TRUE;
  }
  dt_body = lambda > 0 ? 2.0 / PetscSqrtReal(lambda) : PETSC_MAX_REAL;
  /* element-size estimate l_e / c_e, l_e the smallest node distance of the element */
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    PetscReal c;
    PetscCall(SKMaterialGetWaveSpeed(blk->mat, &c));
    if (!nodes[b]) {
      /* no Lagrange nodes (Bezier cells): control points are not on the body, their distances say little; the
         element eigenvalue bound is a safe lower bound of the critical step instead, times the factor by which the
         iterated mass raises the frequencies at most (docs/theory.md) */
      const PetscReal w2 = omega2[b] * SKExplicitMassBoundFactor(ex);
      if (w2 > 0) hmin = PetscMin(hmin, 2.0 / PetscSqrtReal(w2));
      continue;
    }
    for (PetscInt e = 0; e < blk->nelem; e++) {
      const PetscInt *n = blk->conn + e * blk->nodes;
      for (PetscInt p = 0; p < blk->nodes; p++)
        for (PetscInt q = p + 1; q < blk->nodes; q++) {
          PetscReal d2 = 0;
          for (PetscInt d = 0; d < ex->dim; d++) d2 += PetscSqr(ex->X[n[p] * ex->dim + d] - ex->X[n[q] * ex->dim + d]);
          hmin = PetscMin(hmin, PetscSqrtReal(d2) / c);
        }
    }
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &hmin, 1, MPIU_REAL, MPIU_MIN, ex->comm));
  ex->power_its = its;
  { /* the energy check's floor (docs/theory.md, "Run-time energy check"): a strain energy summed from terms of the order of
       the modulus rho c^2 per volume carries a round-off of a few eps rho c^2 V, eps M c^2 over the bodies */
    PetscReal mass = 0, c2 = 0;
    for (PetscInt a = 0; a < ex->nowned; a++) mass += ex->mass[a];
    for (PetscInt b = 0; b < ex->nblocks; b++) {
      PetscReal c;
      PetscCall(SKMaterialGetWaveSpeed(ex->blocks[b].mat, &c));
      c2 = PetscMax(c2, c * c);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &mass, 1, MPIU_REAL, MPIU_SUM, ex->comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &c2, 1, MPIU_REAL, MPIU_MAX, ex->comm));
    ex->energy_roundoff = 4 * PETSC_MACHINE_EPSILON * mass * c2;
  }
  /* contact penalties and the friction laws at rest: lambda_max(A + B) <= lambda_max(A) + lambda_max(B), on both estimates */
  ex->dt_critical = dt_body;
  ex->dt_element  = hmin;
  PetscCall(ExplicitContactStep(ex, 0.0, &ex->dt_critical));
  PetscCall(ExplicitContactStep(ex, 0.0, &ex->dt_element));
  PetscCall(PetscInfo(NULL, "critical time step %g s (%s, %" PetscInt_FMT " iterations), element-size estimate %g s\n",
                      (double)ex->dt_critical, SKExplicitCriticalStepTypes[ex->critical_type], its, (double)ex->dt_element));
  /* the power iteration converges from below in omega^2, so a far too large value means it has not converged: the
     element estimate (which bounds the largest element frequency) then decides; with every dof prescribed nothing can go
     unstable, and the element estimate still sets a sensible step */
  if (dt_body == PETSC_MAX_REAL)
    ex->dt_critical = ex->dt_element, dt_body = hmin;
  else if (ex->critical_type == SK_EXPLICIT_CRITICAL_POWER &&
           ex->dt_critical > 1.5 * PetscSqrtReal(SKExplicitMassBoundFactor(ex)) * ex->dt_element) {
    /* with the iterated mass the element estimate includes its guaranteed but loose factor: compare without it, with
       the lumped mass's estimate, which the iterated mass's step does not exceed (its effective inverse is larger) */
    PetscCall(PetscPrintf(
        ex->comm,
        "warning: the power iteration gave a critical time step %g s above 1.5 times the element-size estimate %g s after %" PetscInt_FMT
        " iterations; using the element estimate (raise -explicit_power_maxit)\n",
        (double)ex->dt_critical, (double)ex->dt_element, its));
    ex->dt_critical = ex->dt_element, dt_body = hmin;
  }
  /* the friction moduli at an estimated normal load (docs/theory.md, "Critical time step"): twice the peak applied load,
     the dynamic amplification of a suddenly applied load, on each pair, shared by its nodes in proportion to their weights */
  ex->normal_load = 0;
  ex->dt_friction = ex->dt_critical;
  ex->dt_contact  = PETSC_MAX_REAL;
  PetscCall(SKExplicitGetNumContactPairs(ex, &ncontacts));
  if (ncontacts) {
    PetscCall(ExplicitPeakLoad(ex, &ex->normal_load));
    ex->normal_load *= 2;
    PetscCall(ExplicitContactStep(ex, ex->normal_load, &dt_body));
    ex->dt_friction = PetscMin(ex->dt_critical, dt_body);
    PetscCall(ExplicitOwnStep(ex, &ex->dt_contact)); /* with the friction stiffness at the same load */
  }
  PetscCall(PetscFree3(omega2, nodes, want));
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_CriticalStep, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
