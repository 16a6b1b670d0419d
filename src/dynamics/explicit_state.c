/* Explicit solver: its state for callers (energies, time and step, mesh, nodal arrays, element stresses) and the
   gathers of nodal arrays into natural order on rank 0 (used by the output, checkpoints and campaigns). */
#include "explicitimpl.h"
#include <string.h>

const char *const SKExplicitEnergyBookings[] = {"full", "nostored", "work", "SKExplicitEnergyBooking", "SK_EXPLICIT_BOOKING_", NULL};

PetscErrorCode SKExplicitGetEnergy(SKExplicit ex, SKExplicitEnergy *en)
{
  PetscReal local[2] = {0, 0};

  PetscFunctionBegin;
  PetscCall(PetscMemzero(en, sizeof(*en)));
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    SKFEMFailure fail;
    /* an inverted element stops the force computation of the step first, so fail is not looked at here */
    PetscCall(SKFEMInternalForce(blk->basis, blk->mat, blk->nelem, blk->conn, ex->X, ex->u, NULL, &local[0], &fail));
  }
  for (PetscInt k = 0; k < ex->nsprings; k++) {
    PetscReal fs[3];
    if (ex->springs[k].node < ex->nowned) local[1] += SKExplicitSpringForce(ex, &ex->springs[k], ex->t, fs);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, local, 2, MPIU_REAL, MPIU_SUM, ex->comm));
  en->kinetic = ex->kinetic;
  if (ex->mass_iterated) { /* the step keeps the lumped v^T M_L v / 2 as its guard; the balance takes v^T M v / 2 */
    PetscReal *Mv = ex->mass_work[1], kinetic = 0;
    PetscCall(SKExplicitMassApply(ex, 1, (const PetscReal *const *)&ex->v, &Mv));
    for (PetscInt i = 0; i < ex->nowned * ex->dim; i++) kinetic += 0.5 * ex->v[i] * Mv[i];
    PetscCallMPI(MPI_Allreduce(&kinetic, &en->kinetic, 1, MPIU_REAL, MPIU_SUM, ex->comm));
  }
  en->internal      = local[0];
  en->spring        = local[1];
  en->external_work = ex->external_work;
  en->balance       = en->kinetic + en->internal + en->spring - en->external_work;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTerm *term = &ex->terms[k];
    en->work_terms[k]          = term->work;
    en->booked[k]              = term->ops && term->ops->energy ? PETSC_TRUE : PETSC_FALSE;
    if (en->booked[k]) PetscCall(term->ops->energy(term->ctx, &en->stored_terms[k], &en->dissipated_terms[k], &en->supplied_terms[k]));
    if (en->booked[k] && ex->booking != SK_EXPLICIT_BOOKING_WORK)
      en->balance +=
          (ex->booking == SK_EXPLICIT_BOOKING_NOSTORED ? 0.0 : en->stored_terms[k]) + en->dissipated_terms[k] - en->supplied_terms[k];
    else
      en->balance -= term->work;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetTime(SKExplicit ex, PetscReal *t, PetscInt *step)
{
  PetscFunctionBegin;
  if (t) *t = ex->t;
  if (step) *step = ex->step;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetTimeStep(SKExplicit ex, PetscReal *dt, PetscReal *dt_critical, PetscReal *dt_element)
{
  PetscFunctionBegin;
  if (dt) *dt = ex->dt;
  if (dt_critical) *dt_critical = ex->dt_critical;
  if (dt_element) *dt_element = ex->dt_element;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetMesh(SKExplicit ex, SKMesh *mesh)
{
  PetscFunctionBegin;
  *mesh = ex->mesh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetState(SKExplicit ex, PetscInt *nlocal, const PetscReal *u[], const PetscReal *v[], const PetscReal *a[],
                                  const PetscReal *mass[])
{
  PetscFunctionBegin;
  if (nlocal) *nlocal = ex->nlocal;
  if (u) *u = ex->u;
  if (v) *v = ex->v;
  if (a) *a = ex->a;
  if (mass) *mass = ex->mass;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetStateWrite(SKExplicit ex, PetscReal *u[], PetscReal *v[])
{
  PetscFunctionBegin;
  if (u) *u = ex->u;
  if (v) *v = ex->v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitRestoreState(SKExplicit ex, PetscReal *u[], PetscReal *v[])
{
  PetscFunctionBegin;
  if (u) *u = NULL;
  if (v) *v = NULL;
  PetscCall(PetscArraycpy(ex->vh, ex->v, ex->ndof));
  PetscCall(SKExplicitFinishStep(ex, PETSC_TRUE));
  ex->have_energy0 = PETSC_FALSE; /* a new reference state for the energy check */
  ex->energy_scale = ex->energy_rel_prev = 0;
  ex->energy_over                        = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetElementStress(SKExplicit ex, PetscReal sigma[], PetscReal vm[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    SKFEMFailure fail;
    PetscCall(SKFEMStress(blk->basis, blk->mat, blk->nelem, blk->conn, ex->X, ex->u, NULL, NULL, sigma ? sigma + blk->first * 9 : NULL,
                          vm ? vm + blk->first : NULL, &fail));
    if (fail.kind != SK_FEM_OK)
      PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + fail.element], ex->t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gathers the owned part of a local nodal array (dim per node) into natural order on rank 0 (*global allocated
   there, NULL elsewhere). */
PetscErrorCode SKExplicitGatherNatural(SKExplicit ex, const PetscReal local[], PetscReal **global)
{
  PetscFunctionBegin;
  PetscCall(SKExplicitGatherNaturalBlock(ex, local, ex->dim, global));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same with bs values per node. */
PetscErrorCode SKExplicitGatherNaturalBlock(SKExplicit ex, const PetscReal local[], PetscInt bs, PetscReal **global)
{
  const PetscInt dim = bs;
  PetscInt gsize;
  PetscMPIInt n = (PetscMPIInt)ex->nowned, *counts = NULL, *displs = NULL, *dcounts = NULL, *ddispls = NULL;
  PetscInt *ids   = NULL;
  PetscReal *vals = NULL;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  *global = NULL;
  if (ex->rank == 0) {
    PetscCall(PetscMalloc4(ex->size, &counts, ex->size, &displs, ex->size, &dcounts, ex->size, &ddispls));
    PetscCall(PetscMalloc2(gsize, &ids, gsize * dim, &vals));
    PetscCall(PetscMalloc1(gsize * dim, global));
  }
  PetscCallMPI(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, ex->comm));
  if (ex->rank == 0) {
    displs[0] = 0;
    for (PetscMPIInt r = 0; r < ex->size; r++) {
      if (r) displs[r] = displs[r - 1] + counts[r - 1];
      dcounts[r] = counts[r] * (PetscMPIInt)dim;
      ddispls[r] = displs[r] * (PetscMPIInt)dim;
    }
  }
  PetscCallMPI(MPI_Gatherv(ex->natural_nodes, n, MPIU_INT, ids, counts, displs, MPIU_INT, 0, ex->comm));
  PetscCallMPI(MPI_Gatherv(local, n * (PetscMPIInt)dim, MPIU_REAL, vals, dcounts, ddispls, MPIU_REAL, 0, ex->comm));
  if (ex->rank == 0) {
    for (PetscInt i = 0; i < gsize; i++)
      for (PetscInt d = 0; d < dim; d++) (*global)[ids[i] * dim + d] = vals[i * dim + d];
    PetscCall(PetscFree4(counts, displs, dcounts, ddispls));
    PetscCall(PetscFree2(ids, vals));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
