/* The iterated mass of NURBS patch blocks (<block mass="iterated">; docs/theory.md, "Higher-order mass of patches"):
   the accelerations solve M a = f, M the consistent mass of those blocks (the lumped mass of the others), by a fixed
   number of iterations a <- a + D^-1 (f - M a) from a = D^-1 f, matrix-free; D a diagonal that reproduces a weight
   function vanishing at the prescribed dofs. Also the operator's bounds for the critical step. */
#include "explicitimpl.h"

PetscLogEvent SK_EXPLICIT_Mass;

/* The smallest share of the row sum (M 1)_i that D_i may take: then D^-1 M has its eigenvalues in (0, 1/0.55] (Gershgorin,
   M has no negative entry), below 2, where every iteration count gives a positive definite effective mass. */
#define SK_MASS_DIAG_MIN_SHARE 0.55

/* y[v] = M x[v], over all elements, or (PRESCRIBED) over those of SKExplicitBlock.react_elem only: y then holds M x at
   the prescribed dofs, all of whose elements are among those, and partial sums elsewhere. */
static PetscErrorCode MassApply(SKExplicit ex, PetscBool prescribed, PetscInt nvec, const PetscReal *const x[], PetscReal *const y[])
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_Mass, 0, 0, 0, 0));
  for (PetscInt v = 0; v < nvec; v++) PetscCall(PetscArrayzero(y[v], ex->ndof));
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    if (!blk->mop) continue;
    if (prescribed)
      PetscCall(SKFEMMassOperatorApplyElements(blk->mop, blk->nreact, blk->react_elem, dim, nvec, x, y));
    else
      PetscCall(SKFEMMassOperatorApply(blk->mop, dim, nvec, x, y));
  }
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_Mass, 0, 0, 0, 0));
  for (PetscInt v = 0; v < nvec; v++) {
    PetscCall(SKExplicitAssembleNodal(ex, y[v], dim));
    for (PetscInt i = 0; i < ex->ndof; i++) y[v][i] += ex->mass_other[i / dim] * x[v][i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitMassApply(SKExplicit ex, PetscInt nvec, const PetscReal *const x[], PetscReal *const y[])
{
  PetscFunctionBegin;
  PetscCall(MassApply(ex, PETSC_FALSE, nvec, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitMassApplyPrescribed(SKExplicit ex, const PetscReal x[], PetscReal y[])
{
  PetscFunctionBegin;
  PetscCall(MassApply(ex, PETSC_TRUE, 1, &x, &y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The elements of each block with a mass operator that touch a prescribed dof (ascending): the only ones the reactions
   (M a - f at those dofs) need. Every copy of a node has its dof_bc, so each rank lists all its elements that add to a
   prescribed dof, and the assembly over ranks completes the sums. */
static PetscErrorCode ReactionElements(SKExplicit ex)
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    SKExplicitBlock *blk = &ex->blocks[b];
    const PetscInt nen   = blk->nodes;
    if (!blk->mop) continue;
    PetscCall(PetscMalloc1(blk->nelem + 1, &blk->react_elem));
    blk->nreact = 0;
    for (PetscInt e = 0; e < blk->nelem; e++) {
      PetscBool touches = PETSC_FALSE;
      for (PetscInt a = 0; a < nen && !touches; a++)
        for (PetscInt d = 0; d < dim; d++) touches = (PetscBool)(touches || ex->dof_bc[blk->conn[e * nen + a] * dim + d] >= 0);
      if (touches) blk->react_elem[blk->nreact++] = e;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitMassSolve(SKExplicit ex, const PetscReal f[], PetscReal a[])
{
  PetscReal *Ma = ex->mass_work[0];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < ex->ndof; i++)
    if (ex->dof_bc[i] < 0) a[i] = f[i] / ex->mass_diag[i];
  for (PetscInt k = 0; k < ex->mass_iterations; k++) {
    PetscCall(SKExplicitMassApply(ex, 1, (const PetscReal *const *)&a, &Ma));
    for (PetscInt i = 0; i < ex->ndof; i++)
      if (ex->dof_bc[i] < 0) a[i] += (f[i] - Ma[i]) / ex->mass_diag[i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distance weights phi[i] in (0, 1] of the free dofs (0 at the prescribed ones, which M_ff phi must not see): per component c, with d the
   distance of the node to the nearest node whose component c is prescribed and D the largest such d over the free dofs, phi = (d/D)(2 -
   d/D): linear in d at the prescribed nodes, flat where d is largest; 1 when no dof of c is prescribed. */
static PetscErrorCode DistanceWeights(SKExplicit ex, PetscReal phi[])
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < dim; c++) {
    PetscInt nmine = 0, ntotal;
    PetscMPIInt *counts, *displs, nsend;
    PetscReal *mine, *all, dmax = 0, dmin = PETSC_MAX_REAL;

    for (PetscInt i = 0; i < ex->nowned; i++) nmine += ex->dof_bc[i * dim + c] >= 0;
    PetscCall(PetscMalloc1(dim * nmine + 1, &mine));
    nmine = 0;
    for (PetscInt i = 0; i < ex->nowned; i++)
      if (ex->dof_bc[i * dim + c] >= 0)
        for (PetscInt d = 0; d < dim; d++) mine[nmine++] = ex->X[i * dim + d];
    PetscCall(PetscMalloc2(ex->size, &counts, ex->size + 1, &displs));
    PetscCall(PetscMPIIntCast(nmine, &nsend));
    PetscCallMPI(MPI_Allgather(&nsend, 1, MPI_INT, counts, 1, MPI_INT, ex->comm));
    displs[0] = 0;
    for (PetscMPIInt r = 0; r < ex->size; r++) displs[r + 1] = displs[r] + counts[r];
    ntotal = displs[ex->size];
    PetscCall(PetscMalloc1(ntotal + 1, &all));
    PetscCallMPI(MPI_Allgatherv(mine, nsend, MPIU_REAL, all, counts, displs, MPIU_REAL, ex->comm));
    for (PetscInt i = 0; i < ex->nlocal; i++) {
      PetscReal best = PETSC_MAX_REAL;
      if (!ntotal || ex->dof_bc[i * dim + c] >= 0) {
        phi[i * dim + c] = ntotal ? 0.0 : 1.0;
        continue;
      }
      for (PetscInt j = 0; j < ntotal; j += dim) {
        PetscReal d2 = 0;
        for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(ex->X[i * dim + d] - all[j + d]);
        best = PetscMin(best, d2);
      }
      phi[i * dim + c] = PetscSqrtReal(best);
      dmax             = PetscMax(dmax, phi[i * dim + c]);
      if (phi[i * dim + c] > 0) dmin = PetscMin(dmin, phi[i * dim + c]);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dmax, 1, MPIU_REAL, MPIU_MAX, ex->comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dmin, 1, MPIU_REAL, MPIU_MIN, ex->comm));
    for (PetscInt i = 0; i < ex->nlocal; i++) {
      PetscReal *p = &phi[i * dim + c];
      if (ntotal && ex->dof_bc[i * dim + c] < 0) {
        /* a free control point on top of a prescribed one (coincident points): the nearest positive distance */
        const PetscReal s = PetscMax(*p, dmin) / dmax;
        *p                = s * (2.0 - s);
      }
    }
    PetscCall(PetscFree(all));
    PetscCall(PetscFree2(counts, displs));
    PetscCall(PetscFree(mine));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitMassSetUp(SKExplicit ex)
{
  const PetscInt dim = ex->dim;
  PetscReal *phi, *one, *Mphi, *Mone, ratio = 0, shared[2];
  PetscInt nclamped = 0;

  PetscFunctionBegin;
  if (!ex->mass_iterated) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc4(ex->ndof, &phi, ex->ndof, &one, ex->ndof, &Mphi, ex->ndof, &Mone));
  PetscCall(PetscMalloc1(ex->ndof, &ex->mass_diag));
  PetscCall(PetscMalloc1(ex->nlocal, &ex->mass_contact));
  PetscCall(ReactionElements(ex));
  PetscCall(DistanceWeights(ex, phi));
  for (PetscInt i = 0; i < ex->ndof; i++) one[i] = 1.0;
  {
    const PetscReal *x[2] = {phi, one};
    PetscReal *y[2]       = {Mphi, Mone};
    PetscCall(SKExplicitMassApply(ex, 2, x, y));
  }
  for (PetscInt i = 0; i < ex->ndof; i++) {
    PetscReal D = ex->dof_bc[i] < 0 ? Mphi[i] / phi[i] : Mone[i];
    if (D < SK_MASS_DIAG_MIN_SHARE * Mone[i]) {
      D = SK_MASS_DIAG_MIN_SHARE * Mone[i];
      if (i < ex->nowned * dim) nclamped++;
    }
    ex->mass_diag[i] = D;
    if (ex->dof_bc[i] < 0) ratio = PetscMax(ratio, ex->mass[i / dim] / D);
  }
  for (PetscInt n = 0; n < ex->nlocal; n++) {
    PetscReal m = PETSC_MAX_REAL;
    for (PetscInt c = 0; c < dim; c++) m = PetscMin(m, ex->mass_diag[n * dim + c]);
    ex->mass_contact[n] = m / (ex->mass_iterations + 1);
  }
  shared[0] = ratio, shared[1] = (PetscReal)nclamped;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &shared[0], 1, MPIU_REAL, MPIU_MAX, ex->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &shared[1], 1, MPIU_REAL, MPIU_SUM, ex->comm));
  ex->mass_ratio = shared[0] > 0 ? shared[0] : 1.0;
  PetscCall(PetscInfo(
      NULL, "iterated mass: %" PetscInt_FMT " iterations, largest lumped/diagonal ratio %g, %g diagonals raised to %g of the row sum\n",
      ex->mass_iterations, (double)ex->mass_ratio, (double)shared[1], (double)SK_MASS_DIAG_MIN_SHARE));
  PetscCall(PetscFree4(phi, one, Mphi, Mone));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKExplicitMassBoundFactor(SKExplicit ex)
{
  return ex->mass_iterated ? (PetscReal)(ex->mass_iterations + 1) * ex->mass_ratio : 1.0;
}

PetscErrorCode SKExplicitApplyMassInverse(SKExplicit ex, Vec fv, Vec av)
{
  const PetscReal *fa;
  PetscReal *aa, *f = ex->mass_iterated ? ex->mass_work[1] : NULL, *a = ex->mass_iterated ? ex->mass_work[2] : NULL;
  const PetscInt nown = ex->nowned * ex->dim;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(fv, &fa));
  PetscCall(VecGetArray(av, &aa));
  if (!ex->mass_iterated) {
    for (PetscInt i = 0; i < nown; i++) aa[i] = ex->dof_bc[i] < 0 ? fa[i] / ex->mass[i / ex->dim] : 0.0;
  } else {
    PetscCall(PetscArrayzero(f, ex->ndof));
    PetscCall(PetscArrayzero(a, ex->ndof));
    for (PetscInt i = 0; i < nown; i++) f[i] = fa[i];
    PetscCall(SKExplicitAssembleNodal(ex, f, ex->dim)); /* ghost copies take their owners' values (theirs are 0) */
    PetscCall(SKExplicitMassSolve(ex, f, a));
    for (PetscInt i = 0; i < nown; i++) aa[i] = a[i];
  }
  PetscCall(VecRestoreArrayRead(fv, &fa));
  PetscCall(VecRestoreArray(av, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitMassPowerIteration(SKExplicit ex, Mat K, IS constrained, PetscReal rtol, PetscInt maxit, PetscReal *lambda_max,
                                            PetscInt *its)
{
  Vec x, y, z;
  PetscReal lambda = 0, lambda_old = 0;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(K, &x, &z));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(SKExplicitPowerStart(x, constrained));
  *its = 0;
  for (PetscInt k = 1; k <= maxit; k++) {
    if ((ierr = SKSignalCheckSerial())) break; /* a long set-up phase: SIGTERM honoured (core.h), one volatile read */
    PetscReal nx, xKx, zBz;
    PetscCall(VecNorm(x, NORM_2, &nx));
    if (nx == 0.0) break;
    PetscCall(VecScale(x, 1.0 / nx));
    PetscCall(MatMult(K, x, z));
    PetscCall(SKExplicitZeroConstrained(z, constrained));
    PetscCall(SKExplicitApplyMassInverse(ex, z, y));
    PetscCall(VecDot(x, z, &xKx));
    PetscCall(VecDot(z, y, &zBz));
    if (!(xKx > 0)) break; /* x a rigid motion: no frequency to find */
    lambda = zBz / xKx;    /* Rayleigh quotient of K^1/2 B K^1/2 at K^1/2 x: from below */
    PetscCall(VecCopy(y, x));
    *its = k;
    if (SKExplicitPowerConverged(k, lambda, &lambda_old, rtol)) break;
  }
  *lambda_max = lambda;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
