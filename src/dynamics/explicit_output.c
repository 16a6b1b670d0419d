/* Explicit solver output: energy balance, watch-point and node-set histories in results.h5 (/explicit/...), the
   patches' control nets, and VTK/PVD fields (one piece per rank, one .pvd for the run; NURBS patches as rational Bezier
   cells). The state accessors it reads are in explicit_state.c. */
#include "explicitimpl.h"
#include <string.h>

static const char *const axes[] = {"x", "y", "z"};

/* /explicit/patches/NAME for every block that is a NURBS patch: degree[pdim], knots_<d>, controlpoints [n][sdim + 1]
   (x y [z] in m, weight), attribute first_node (its first control point in the natural node numbering). */
static PetscErrorCode WritePatches(SKExplicit ex, SKOutput out)
{
  PetscInt first_node = 0;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const PetscReal *ref;
    SKNURBSPatch patch;
    const char *name;
    char path[PETSC_MAX_PATH_LEN], group[PETSC_MAX_PATH_LEN];
    PetscInt pdim, sdim, deg[3], ncp, dims[2];
    PetscReal *X, *w, *net;

    PetscCall(SKBasisGetTabulation(ex->blocks[b].basis, &ref, NULL, NULL, NULL, NULL));
    PetscCall(SKMeshGetBlockCellData(ex->mesh, b, (void **)&patch));
    if (ref || !patch) continue;
    PetscCall(SKMeshGetBlock(ex->mesh, b, &name, NULL, NULL, NULL, NULL, NULL));
    PetscCall(SKNURBSPatchGetSizes(patch, &pdim, &sdim, deg, NULL));
    PetscCall(SKNURBSPatchGetControlNet(patch, &ncp, NULL));
    PetscCall(PetscSNPrintf(group, sizeof(group), "/explicit/patches/%s", name));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/degree", group));
    PetscCall(SKOutputWriteIntArray(out, path, 1, &pdim, deg));
    for (PetscInt d = 0; d < pdim; d++) {
      PetscInt m;
      const PetscReal *U;
      PetscCall(SKNURBSPatchGetKnots(patch, d, &m, &U));
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/knots_%" PetscInt_FMT, group, d));
      PetscCall(SKOutputWriteRealArray(out, path, 1, &m, U));
    }
    PetscCall(PetscMalloc3(ncp * sdim, &X, ncp, &w, ncp * (sdim + 1), &net));
    PetscCall(SKNURBSPatchGetControlPoints(patch, X, w));
    for (PetscInt i = 0; i < ncp; i++) {
      for (PetscInt c = 0; c < sdim; c++) net[i * (sdim + 1) + c] = X[i * sdim + c];
      net[i * (sdim + 1) + sdim] = w[i];
    }
    dims[0] = ncp;
    dims[1] = sdim + 1;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/controlpoints", group));
    PetscCall(SKOutputWriteRealArray(out, path, 2, dims, net));
    PetscCall(SKOutputWriteAttributeInt(out, group, "first_node", first_node));
    { /* the rule of the internal force: (p + 1)^dim points per element, or p^dim with quadrature="reduced" */
      SKBasisInfo info;
      PetscCall(SKBasisGetInfo(ex->blocks[b].basis, &info));
      PetscCall(SKOutputWriteAttributeInt(out, group, "force_quadrature_points", info.qpoints));
    }
    PetscCall(PetscFree3(X, w, net));
    first_node += ncp;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Column names "<prefix>_x", ... for dim components, into names[] (storage in buf[dim][16]). */
/* appends the DIM columns PREFIX_x, PREFIX_y (, PREFIX_z) in UNIT to names/units at *nc (names kept in buf[0..dim-1]) */
static void VectorColumns(PetscInt dim, const char prefix[], const char unit[], char buf[][16], const char *names[], const char *units[],
                          PetscInt *nc)
{
  for (PetscInt d = 0; d < dim; d++) {
    (void)PetscSNPrintf(buf[d], 16, "%s_%s", prefix, axes[d]);
    names[*nc] = buf[d], units[(*nc)++] = unit;
  }
}

PetscErrorCode SKExplicitOutputSetUp(SKExplicit ex, SKOutput out, PetscBool restart)
{
  const PetscInt dim = ex->dim;
  const char *names[SK_EXPLICIT_ENERGY_MAXCOL], *units[SK_EXPLICIT_ENERGY_MAXCOL];
  char buf[12][16], path[PETSC_MAX_PATH_LEN], (*colbuf)[SK_MESH_NAME_LEN + 16];
  PetscInt nc = 0, gsize, gelem, ncontacts;

  PetscFunctionBegin;
  /* a restarted run keeps the rows and field steps written up to the checkpoint's time and appends after them */
  if (restart) PetscCall(SKOutputSetRestartTime(out, ex->t));
  names[nc] = "time", units[nc++] = "s";
  names[nc] = "kinetic", units[nc++] = "J";
  names[nc] = "internal", units[nc++] = "J";
  names[nc] = "spring", units[nc++] = "J";
  names[nc] = "external_work", units[nc++] = "J";
  /* per term its forces' work; a term that books its own energy also what it stores, dissipated and supplied */
  PetscCall(PetscMalloc1(4 * SK_EXPLICIT_MAX_TERMS, &colbuf));
  for (PetscInt k = 0, c = 0; k < ex->nterms; k++) {
    static const char *const kinds[] = {"work", "stored", "dissipated", "supplied"};
    const PetscInt nkind             = ex->terms[k].ops && ex->terms[k].ops->energy ? 4 : 1;
    for (PetscInt j = 0; j < nkind; j++, c++) {
      (void)PetscSNPrintf(colbuf[c], sizeof(colbuf[c]), "%s_%s", kinds[j], ex->terms[k].name);
      names[nc] = colbuf[c], units[nc++] = "J";
    }
  }
  names[nc] = "balance", units[nc++] = "J";
  {
    PetscErrorCode ierr = SKOutputHistoryCreate(out, "/explicit/energy", nc, names, units, &ex->energy_hist);
    PetscCall(PetscFree(colbuf)); /* also when the history is refused */
    PetscCall(ierr);
  }
  for (PetscInt i = 0; i < ex->nwatch; i++) {
    nc        = 0;
    names[nc] = "time", units[nc++] = "s";
    VectorColumns(dim, "u", "m", buf, names, units, &nc);
    VectorColumns(dim, "v", "m/s", buf + 3, names, units, &nc);
    PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/watch/%s", ex->watch[i].name));
    PetscCall(SKOutputHistoryCreate(out, path, nc, names, units, &ex->watch[i].hist));
  }
  for (PetscInt i = 0; i < ex->nsethist; i++) {
    nc        = 0;
    names[nc] = "time", units[nc++] = "s";
    VectorColumns(dim, "mean_u", "m", buf, names, units, &nc);
    VectorColumns(dim, "mean_v", "m/s", buf + 3, names, units, &nc);
    VectorColumns(dim, "reaction", "N", buf + 6, names, units, &nc);
    PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/set/%s", ex->sethist[i].name));
    PetscCall(SKOutputHistoryCreate(out, path, nc, names, units, &ex->sethist[i].hist));
  }
  for (PetscInt k = 0; k < ex->nterms; k++) {
    SKExplicitTerm *term = &ex->terms[k];
    if (term->ops && term->ops->historycreate) PetscCall(term->ops->historycreate(term->ctx, out, term->name, &term->hist));
  }
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  PetscCall(SKMeshGetGlobalNumElements(ex->mesh, &gelem));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt", ex->dt));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_critical", ex->dt_critical));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_element_estimate", ex->dt_element));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_friction", ex->dt_friction));
  PetscCall(SKExplicitGetNumContactPairs(ex, &ncontacts));
  if (ncontacts) PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_contact", ex->dt_contact));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "normal_load_estimate", ex->normal_load));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit", "power_iterations", ex->power_its));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit", "nodes", gsize));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit", "elements", gelem));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit", "dim", dim));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit", "ranks", ex->size));
  PetscCall(WritePatches(ex, out));
  if (ex->field_interval > 0) {
    PetscCall(SKOutputGetPath(out, "fields.pvd", path, sizeof(path)));
    if (restart)
      PetscCall(SKPVDOpen(ex->comm, path, ex->t, &ex->pvd));
    else
      PetscCall(SKPVDCreate(ex->comm, path, &ex->pvd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What to say about a drift DRIFT (J) of the balance EN: the term that injected most of it names itself and what to change
   (ops->diagnose, e.g. a contact pair: its penalty and a step that would be stable); otherwise the time step. */
static PetscErrorCode EnergyDriftCause(SKExplicit ex, const SKExplicitEnergy *en, PetscReal drift, char cause[], size_t len)
{
  PetscInt worst      = -1;
  PetscReal injected0 = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTerm *term = &ex->terms[k];
    /* the term's forces did work_k on the bodies, its books hold stored + dissipated - supplied: the rest it injected */
    const PetscReal injected =
        en->booked[k] ? en->work_terms[k] + en->stored_terms[k] + en->dissipated_terms[k] - en->supplied_terms[k] : 0;
    if (!term->ops || !term->ops->diagnose) continue;
    if (PetscAbsReal(injected) > 0.5 * PetscAbsReal(drift) && PetscAbsReal(injected) > PetscAbsReal(injected0))
      worst = k, injected0 = injected;
  }
  if (worst >= 0)
    PetscCall(ex->terms[worst].ops->diagnose(ex->terms[worst].ctx, ex->terms[worst].name, ex->dt, injected0, cause, len));
  else
    PetscCall(PetscSNPrintf(cause, len, "Reduce the time step (now %g s, critical %g s) or the safety factor; ", (double)ex->dt,
                            (double)ex->dt_critical));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run-time energy check on the energies EN of the current step, at every history sample (or, with no histories, at
   the samples of ex->energy_check_interval). */
static PetscErrorCode CheckEnergy(SKExplicit ex, const SKExplicitEnergy *en)
{
  PetscReal scale;

  PetscFunctionBegin;
  /* Energy blow-up (docs/theory.md, "Run-time energy check"): the drift of the balance relative to the largest energy
     in play so far (kinetic, internal, spring, |work| of the loads and of every force term) must stay below the
     tolerance. A run stops when it exceeds it at two samples in a row without receding, or at once when it
     is not finite. A drift that exceeds it only while the energies are still tiny (the first steps of a run that
     starts at rest, where one step's accounting of a penalty or a prescribed motion is a large part of the energy)
     recedes as the energy grows and is not a blow-up; a blow-up's drift grows with the energy it creates. */
  if (!ex->have_energy0) ex->energy0 = en->balance, ex->have_energy0 = PETSC_TRUE;
  scale = PetscMax(PetscMax(en->kinetic, en->internal), PetscMax(PetscAbsReal(en->external_work), en->spring));
  for (PetscInt k = 0; k < ex->nterms; k++) {
    if (en->booked[k])
      scale = PetscMax(scale, PetscMax(PetscAbsReal(en->stored_terms[k]),
                                       PetscMax(PetscAbsReal(en->dissipated_terms[k]), PetscAbsReal(en->supplied_terms[k]))));
    else
      scale = PetscMax(scale, PetscAbsReal(en->work_terms[k]));
  }
  ex->energy_scale = PetscMax(ex->energy_scale, scale);
  {
    const PetscReal rel    = ex->energy_scale > 0 ? PetscAbsReal(en->balance - ex->energy0) / ex->energy_scale : 0;
    const PetscBool finite = PetscIsInfOrNanReal(rel) ? PETSC_FALSE : PETSC_TRUE;
    /* a drift within the internal energy's round-off (a run whose energies are still of that order) is no blow-up */
    const PetscReal allowed = PetscMax(ex->energy_tolerance * ex->energy_scale, ex->energy_roundoff);
    const PetscBool over    = finite && PetscAbsReal(en->balance - ex->energy0) > allowed ? PETSC_TRUE : PETSC_FALSE;
    const PetscBool stop    = !finite || (over && ex->energy_over && rel >= ex->energy_rel_prev) ? PETSC_TRUE : PETSC_FALSE;
    ex->energy_over         = over;
    ex->energy_rel_prev     = rel;
    /* a passive term (friction, damping) cannot give energy back: its dissipation may wobble by the integration error,
       but a fall beyond the tolerance means it fed the motion (an unstable friction law or step) */
    for (PetscInt k = 0; k < ex->nterms && finite; k++) {
      SKExplicitTerm *term = &ex->terms[k];
      if (!en->booked[k]) continue;
      term->dissipated_max = PetscMax(term->dissipated_max, en->dissipated_terms[k]);
      PetscCheck(
          term->dissipated_max - en->dissipated_terms[k] <= allowed, ex->comm, PETSC_ERR_NOT_CONVERGED,
          "Energy from friction at t = %g s (step %" PetscInt_FMT "): the energy dissipated by %s %s fell by %g J from its largest "
          "value %g J, more than %g of the largest energy in play (%g J): its friction or damping gave energy back to the bodies. "
          "Lower the time step (now %g s) or the friction's stiffness or damping; -explicit_energy_tolerance sets the allowed fraction",
          (double)ex->t, ex->step, term->ops->type, term->name, (double)(term->dissipated_max - en->dissipated_terms[k]),
          (double)term->dissipated_max, (double)ex->energy_tolerance, (double)ex->energy_scale, (double)ex->dt);
    }
    if (stop) {
      char cause[512] = "";
      PetscCall(EnergyDriftCause(ex, en, en->balance - ex->energy0, cause, sizeof(cause)));
      SETERRQ(ex->comm, PETSC_ERR_NOT_CONVERGED,
              "Energy blow-up at t = %g s (step %" PetscInt_FMT
              "): the energy balance drifted by %g J, %g of the largest energy in play (%g J; allowed %g) and not receding. %s"
              "-explicit_energy_tolerance sets the allowed fraction",
              (double)ex->t, ex->step, (double)(en->balance - ex->energy0), (double)rel, (double)ex->energy_scale,
              (double)ex->energy_tolerance, cause);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteHistories(SKExplicit ex)
{
  const PetscInt dim = ex->dim;
  SKExplicitEnergy en;
  PetscReal row[SK_EXPLICIT_ENERGY_MAXCOL];
  PetscInt nc = 0;

  PetscFunctionBegin;
  PetscCall(SKExplicitGetEnergy(ex, &en));
  row[nc++] = ex->t;
  row[nc++] = en.kinetic;
  row[nc++] = en.internal;
  row[nc++] = en.spring;
  row[nc++] = en.external_work;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    row[nc++] = en.work_terms[k];
    if (en.booked[k]) row[nc++] = en.stored_terms[k], row[nc++] = en.dissipated_terms[k], row[nc++] = en.supplied_terms[k];
  }
  row[nc++] = en.balance;
  if (ex->energy_hist) PetscCall(SKHistoryAppend(ex->energy_hist, row));
  PetscCall(CheckEnergy(ex, &en)); /* after the row is written: a run it stops has its last balance in results.h5 */
  for (PetscInt i = 0; i < ex->nwatch; i++) {
    const PetscInt node = ex->watch[i].node;
    nc                  = 0;
    row[nc++]           = ex->t;
    for (PetscInt d = 0; d < 2 * dim; d++) row[nc + d] = 0;
    if (node >= 0)
      for (PetscInt d = 0; d < dim; d++) row[nc + d] = ex->u[node * dim + d], row[nc + dim + d] = ex->v[node * dim + d];
    for (PetscInt a = 0; a < ex->watch[i].n; a++) { /* a point of a NURBS patch */
      const PetscInt na = ex->watch[i].nodes[a];
      if (na >= 0)
        for (PetscInt d = 0; d < dim; d++)
          row[nc + d] += ex->watch[i].R[a] * ex->u[na * dim + d], row[nc + dim + d] += ex->watch[i].R[a] * ex->v[na * dim + d];
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, row + 1, (PetscMPIInt)(2 * dim), MPIU_REAL, MPIU_SUM, ex->comm));
    if (ex->watch[i].hist) PetscCall(SKHistoryAppend(ex->watch[i].hist, row));
  }
  for (PetscInt i = 0; i < ex->nsethist; i++) {
    const SKExplicitSetHistory *h = &ex->sethist[i];
    row[0]                        = ex->t;
    for (PetscInt d = 0; d < 3 * dim; d++) row[1 + d] = 0;
    for (PetscInt j = 0; j < h->n; j++) {
      const PetscInt node = h->nodes[j];
      if (node >= ex->nowned) continue;
      for (PetscInt d = 0; d < dim; d++) {
        row[1 + d] += ex->u[node * dim + d] / h->global_size;
        row[1 + dim + d] += ex->v[node * dim + d] / h->global_size;
        row[1 + 2 * dim + d] += ex->react[node * dim + d];
      }
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, row + 1, (PetscMPIInt)(3 * dim), MPIU_REAL, MPIU_SUM, ex->comm));
    if (h->hist) PetscCall(SKHistoryAppend(h->hist, row));
  }
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTerm *term = &ex->terms[k];
    if (term->ops && term->ops->historyappend) PetscCall(term->ops->historyappend(term->ctx, term->hist, ex->t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether block b holds the Bezier cells of a NURBS patch. */
static PetscErrorCode SKExplicitBlockIsBezier(SKExplicit ex, PetscInt b, PetscBool *bezier)
{
  SKElementType et;
  const SKElementTypeInfo *info;

  PetscFunctionBegin;
  PetscCall(SKMeshGetBlock(ex->mesh, b, NULL, NULL, &et, NULL, NULL, NULL));
  PetscCall(SKElementTypeGetInfo(et, &info));
  *bezier = (PetscBool)(info->vtk_type == SK_VTK_BEZIER_QUADRILATERAL || info->vtk_type == SK_VTK_BEZIER_HEXAHEDRON);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills the points of a frame and its cells (offsets, conn, types: the caller's arrays of nelem + 1, the connectivity
   size and nelem entries). */
static PetscErrorCode SKFramePointsCreate(SKExplicit ex, SKFramePoints *fp, PetscInt offsets[], PetscInt conn[], SKVTKCellType types[])
{
  PetscInt *bezier_use, nz = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(fp, sizeof(*fp)));
  PetscCall(PetscCalloc1(ex->nlocal, &fp->point));
  PetscCall(PetscCalloc1(ex->nlocal, &bezier_use));
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    PetscBool bez;
    PetscCall(SKExplicitBlockIsBezier(ex, b, &bez));
    for (PetscInt k = 0; k < blk->nelem * blk->nodes; k++) {
      if (bez)
        bezier_use[blk->conn[k]] = 1;
      else
        fp->point[blk->conn[k]] = 1;
    }
    if (bez) fp->nbez += blk->nelem * blk->nodes, nz += blk->nelem * blk->nodes * blk->nodes;
  }
  for (PetscInt a = 0; a < ex->nlocal; a++) fp->nkept += (fp->point[a] || !bezier_use[a]) ? 1 : 0;
  PetscCall(PetscMalloc1(fp->nkept, &fp->kept));
  fp->npoints = fp->nkept + fp->nbez;
  for (PetscInt a = 0, n = 0; a < ex->nlocal; a++) {
    if (fp->point[a] || !bezier_use[a])
      fp->kept[n] = a, fp->point[a] = n++;
    else
      fp->point[a] = -1;
  }
  PetscCall(PetscFree(bezier_use));
  PetscCall(PetscMalloc4(fp->nbez + 1, &fp->bez_ptr, nz, &fp->bez_node, nz, &fp->bez_coef, fp->npoints, &fp->weight));
  PetscCall(PetscMalloc1(ex->nelem, &fp->degree));
  for (PetscInt i = 0; i < fp->nkept; i++) fp->weight[i] = 1.0;
  fp->bez_ptr[0] = 0;
  offsets[0]     = 0;
  for (PetscInt b = 0, j = 0; b < ex->nblocks; b++) {
    const SKExplicitBlock *blk = &ex->blocks[b];
    const PetscInt nen         = blk->nodes;
    SKElementType et;
    const SKElementTypeInfo *info;
    PetscInt degree = 0, nb = 0;
    PetscReal *coef = NULL, *w = NULL;
    PetscBool bez;

    PetscCall(SKMeshGetBlock(ex->mesh, b, NULL, NULL, &et, NULL, NULL, NULL));
    PetscCall(SKElementTypeGetInfo(et, &info));
    PetscCall(SKExplicitBlockIsBezier(ex, b, &bez));
    if (bez) {
      PetscCall(SKMeshGetBezierPoints(ex->mesh, b, &degree, &nb, &coef, &w));
      PetscCheck(nb == nen, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "block %" PetscInt_FMT ": %" PetscInt_FMT " Bezier points for %" PetscInt_FMT " nodes", b, nb, nen);
    }
    for (PetscInt e = 0; e < blk->nelem; e++) {
      const PetscInt g = blk->first + e;
      offsets[g + 1]   = offsets[g] + nen;
      types[g]         = (SKVTKCellType)info->vtk_type;
      fp->degree[g]    = bez ? degree : info->order;
      for (PetscInt a = 0; a < nen; a++) {
        if (!bez) {
          conn[offsets[g] + a] = fp->point[blk->conn[e * nen + a]];
          continue;
        }
        conn[offsets[g] + a]      = fp->nkept + j;
        fp->weight[fp->nkept + j] = w[e * nen + a];
        fp->bez_ptr[j + 1]        = fp->bez_ptr[j] + nen;
        for (PetscInt c = 0; c < nen; c++) {
          fp->bez_node[fp->bez_ptr[j] + c] = blk->conn[e * nen + c];
          fp->bez_coef[fp->bez_ptr[j] + c] = coef[(e * nen + a) * nen + c];
        }
        j++;
      }
    }
    PetscCall(PetscFree(coef));
    PetscCall(PetscFree(w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKFramePointsDestroy(SKFramePoints *fp)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(fp->point));
  PetscCall(PetscFree(fp->kept));
  PetscCall(PetscFree4(fp->bez_ptr, fp->bez_node, fp->bez_coef, fp->weight));
  PetscCall(PetscFree(fp->degree));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* out[npoints*ncomp] = the nodal field in[nlocal*ncomp] at the frame's points. */
void SKFramePointsMap(const SKFramePoints *fp, PetscInt ncomp, const PetscReal in[], PetscReal out[])
{
  for (PetscInt i = 0; i < fp->nkept; i++)
    for (PetscInt c = 0; c < ncomp; c++) out[i * ncomp + c] = in[fp->kept[i] * ncomp + c];
  for (PetscInt j = 0; j < fp->nbez; j++) {
    PetscReal *o = out + (fp->nkept + j) * ncomp;
    for (PetscInt c = 0; c < ncomp; c++) o[c] = 0.0;
    for (PetscInt k = fp->bez_ptr[j]; k < fp->bez_ptr[j + 1]; k++)
      for (PetscInt c = 0; c < ncomp; c++) o[c] += fp->bez_coef[k] * in[fp->bez_node[k] * ncomp + c];
  }
}

/* Writes the nodal field VALUES[nlocal*ncomp] at the frame's points (vectors when VECTOR, else scalars). */
PetscErrorCode SKFramePointsWrite(const SKFramePoints *fp, SKVTK vtk, const char name[], PetscInt ncomp, PetscBool vector,
                                  const PetscReal values[])
{
  PetscReal *out;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(fp->npoints * ncomp, &out));
  SKFramePointsMap(fp, ncomp, values, out);
  if (vector)
    PetscCall(SKVTKWriteVectors(vtk, SK_VTK_POINT_DATA, name, ncomp, fp->npoints, out));
  else
    PetscCall(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, name, ncomp, fp->npoints, out));
  PetscCall(PetscFree(out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The point data of the registered terms: once per kind (ops table), for all its terms together. */
static PetscErrorCode WriteTermFields(SKExplicit ex, const SKFramePoints *fp, SKVTK vtk)
{
  const SKExplicitTerm *same[SK_EXPLICIT_MAX_TERMS];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTermOps *ops = ex->terms[k].ops;
    PetscInt n = 0, seen = 0;
    if (!ops || !ops->writefields) continue;
    for (PetscInt j = 0; j < k; j++) seen += ex->terms[j].ops == ops;
    if (seen) continue; /* written with the first term of its kind */
    for (PetscInt j = k; j < ex->nterms; j++)
      if (ex->terms[j].ops == ops) same[n++] = &ex->terms[j];
    PetscCall(ops->writefields(ex, n, same, fp, vtk));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's piece of the frame into VTK (open; its write failures are raised when it is closed). Collective: the
   contact terms assemble their nodal fields. */
static PetscErrorCode WritePiece(SKExplicit ex, SKVTK vtk, SKFramePoints *fp, const PetscInt offsets[], const PetscInt conn[],
                                 const SKVTKCellType types[], const PetscInt ids[], const PetscInt ranks[], const PetscReal sigma[],
                                 const PetscReal vm[])
{
  PetscReal *X;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(fp->npoints * ex->dim, &X));
  SKFramePointsMap(fp, ex->dim, ex->X, X);
  PetscCall(SKVTKWritePoints(vtk, fp->npoints, ex->dim, X));
  PetscCall(PetscFree(X));
  PetscCall(SKVTKWriteCells(vtk, ex->nelem, offsets, conn, types));
  if (fp->nbez) { /* what VTK's Bezier cells read: their weights and degrees */
    PetscCall(SKVTKSetAttribute(vtk, SK_VTK_POINT_DATA, "RationalWeights", "RationalWeights"));
    PetscCall(SKVTKSetAttribute(vtk, SK_VTK_CELL_DATA, "HigherOrderDegrees", "HigherOrderDegrees"));
  }
  PetscCall(SKFramePointsWrite(fp, vtk, "displacement", ex->dim, PETSC_TRUE, ex->u));
  PetscCall(SKFramePointsWrite(fp, vtk, "velocity", ex->dim, PETSC_TRUE, ex->v));
  if (fp->nbez) PetscCall(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "RationalWeights", 1, fp->npoints, fp->weight));
  PetscCall(WriteTermFields(ex, fp, vtk));
  PetscCall(SKVTKWriteTensors(vtk, SK_VTK_CELL_DATA, "cauchy_stress", 3, ex->nelem, sigma));
  PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "von_mises", 1, ex->nelem, vm));
  PetscCall(SKVTKWriteIntScalars(vtk, SK_VTK_CELL_DATA, "block_id", ex->nelem, ids));
  PetscCall(SKVTKWriteIntScalars(vtk, SK_VTK_CELL_DATA, "rank", ex->nelem, ranks));
  if (fp->nbez) {
    PetscReal *deg;
    PetscCall(PetscMalloc1(3 * ex->nelem, &deg));
    for (PetscInt g = 0; g < ex->nelem; g++)
      for (PetscInt d = 0; d < 3; d++) deg[3 * g + d] = d < ex->dim ? (PetscReal)fp->degree[g] : 0.0;
    PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "HigherOrderDegrees", 3, ex->nelem, deg));
    PetscCall(PetscFree(deg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteFields(SKExplicit ex)
{
  char path[PETSC_MAX_PATH_LEN];
  SKVTK vtk = NULL;
  SKFramePoints fp;
  PetscInt *offsets, *conn, *ids, *ranks, nconn = 0;
  SKVTKCellType *types;
  PetscReal *sigma, *vm;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* each rank writes its piece of the frame; a piece that one rank cannot create or write (a removed directory, a full
     disk) stops every rank, which would otherwise wait for it in the fields' assembly or the collection: the file is
     opened first, and its writes report their failure at the close (SKVTKClose()) */
  PetscCall(SKPVDGetStepFileName(ex->pvd, ex->field_count, path, sizeof(path)));
  ierr = SKVTKOpen(path, SK_VTK_XML_BINARY, "stickslip explicit", &vtk); /* .vtu: the XML form a .pvd can list */
  ierr = SKCheckCollective(ex->comm, ierr);
  if (ierr) PetscCall(SKVTKDiscard(&vtk));
  PetscCall(ierr);
  PetscCall(PetscMalloc5(ex->nelem + 1, &offsets, ex->nelem, &types, ex->nelem, &ids, ex->nelem, &ranks, ex->nelem * 9, &sigma));
  PetscCall(PetscMalloc1(ex->nelem, &vm));
  for (PetscInt b = 0; b < ex->nblocks; b++) nconn += ex->blocks[b].nelem * ex->blocks[b].nodes;
  PetscCall(PetscMalloc1(nconn, &conn));
  PetscCall(SKFramePointsCreate(ex, &fp, offsets, conn, types));
  for (PetscInt b = 0; b < ex->nblocks; b++)
    for (PetscInt e = 0; e < ex->blocks[b].nelem; e++)
      ids[ex->blocks[b].first + e] = ex->blocks[b].id, ranks[ex->blocks[b].first + e] = ex->rank;
  PetscCall(SKExplicitGetElementStress(ex, sigma, vm));
  PetscCall(WritePiece(ex, vtk, &fp, offsets, conn, types, ids, ranks, sigma, vm));
  PetscCall(SKFramePointsDestroy(&fp));
  PetscCall(PetscFree5(offsets, types, ids, ranks, sigma));
  PetscCall(PetscFree(vm));
  PetscCall(PetscFree(conn));
  ierr = SKVTKClose(&vtk);
  PetscCall(SKCheckCollective(ex->comm, ierr));
  PetscCall(SKPVDAddStep(ex->pvd, ex->t, path));
  ex->field_count++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitOutputStep(SKExplicit ex, SKOutput out, PetscBool final)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_Output, 0, 0, 0, 0));
  /* at the final step, what its interval did not already write at this step */
  if (ex->history_interval > 0 && (ex->step % ex->history_interval == 0) != final)
    PetscCall(WriteHistories(ex));
  else if (ex->history_interval == 0 && (ex->step % ex->energy_check_interval == 0) != final) {
    SKExplicitEnergy en; /* no histories: the energy check at its own samples */
    PetscCall(SKExplicitGetEnergy(ex, &en));
    PetscCall(CheckEnergy(ex, &en));
  }
  if (out && ex->pvd && (ex->step % ex->field_interval == 0) != final) PetscCall(WriteFields(ex));
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_Output, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* End-of-run results of the registered terms (docs/output.md; e.g. the contact statistics). Collective. */
PetscErrorCode SKExplicitOutputFinish(SKExplicit ex, SKOutput out)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ex->nterms; k++) {
    const SKExplicitTerm *term = &ex->terms[k];
    if (term->ops && term->ops->finish) PetscCall(term->ops->finish(ex, term, out));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
