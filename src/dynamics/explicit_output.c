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
  const char *names[32], *units[32];
  char buf[12][16], path[PETSC_MAX_PATH_LEN];
  PetscInt nc = 0, gsize, gelem;

  PetscFunctionBegin;
  /* a restarted run keeps the rows and field steps written up to the checkpoint's time and appends after them */
  if (restart) PetscCall(SKOutputSetRestartTime(out, ex->t));
  names[nc] = "time", units[nc++] = "s";
  names[nc] = "kinetic", units[nc++] = "J";
  names[nc] = "internal", units[nc++] = "J";
  names[nc] = "spring", units[nc++] = "J";
  names[nc] = "external_work", units[nc++] = "J";
  for (PetscInt k = 0; k < ex->nterms; k++) {
    (void)PetscSNPrintf(buf[k], 16, "work_%s", ex->terms[k].name);
    names[nc] = buf[k], units[nc++] = "J";
  }
  names[nc] = "balance", units[nc++] = "J";
  PetscCall(SKOutputHistoryCreate(out, "/explicit/energy", nc, names, units, &ex->energy_hist));
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
  for (PetscInt i = 0; i < ex->ncontacts; i++) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/contact/%s", ex->contact_names[i]));
    PetscCall(SKContactPlaneHistoryCreate(ex->contacts[i], out, path, &ex->contact_hist[i]));
  }
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  PetscCall(SKMeshGetGlobalNumElements(ex->mesh, &gelem));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt", ex->dt));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_critical", ex->dt_critical));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_element_estimate", ex->dt_element));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit", "dt_friction", ex->dt_friction));
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

static PetscErrorCode WriteHistories(SKExplicit ex)
{
  const PetscInt dim = ex->dim;
  SKExplicitEnergy en;
  PetscReal row[32], scale;
  PetscInt nc = 0;

  PetscFunctionBegin;
  PetscCall(SKExplicitGetEnergy(ex, &en));
  row[nc++] = ex->t;
  row[nc++] = en.kinetic;
  row[nc++] = en.internal;
  row[nc++] = en.spring;
  row[nc++] = en.external_work;
  for (PetscInt k = 0; k < ex->nterms; k++) row[nc++] = en.work_terms[k];
  row[nc++] = en.balance;
  if (ex->energy_hist) PetscCall(SKHistoryAppend(ex->energy_hist, row));
  /* Energy blow-up (docs/theory.md, "Run-time energy check"): the drift of the balance relative to the largest energy
     in play so far (kinetic, internal, spring, |work| of the loads and of every force term) must stay below the
     tolerance. A run stops when it exceeds it at two history samples in a row without receding, or at once when it
     is not finite. A drift that exceeds it only while the energies are still tiny (the first steps of a run that
     starts at rest, where one step's accounting of a penalty or a prescribed motion is a large part of the energy)
     recedes as the energy grows and is not a blow-up; a blow-up's drift grows with the energy it creates. */
  if (!ex->have_energy0) ex->energy0 = en.balance, ex->have_energy0 = PETSC_TRUE;
  scale = PetscMax(PetscMax(en.kinetic, en.internal), PetscMax(PetscAbsReal(en.external_work), en.spring));
  for (PetscInt k = 0; k < ex->nterms; k++) scale = PetscMax(scale, PetscAbsReal(en.work_terms[k]));
  ex->energy_scale = PetscMax(ex->energy_scale, scale);
  {
    const PetscReal rel    = ex->energy_scale > 0 ? PetscAbsReal(en.balance - ex->energy0) / ex->energy_scale : 0;
    const PetscBool finite = PetscIsInfOrNanReal(rel) ? PETSC_FALSE : PETSC_TRUE;
    const PetscBool over   = finite && rel > ex->energy_tolerance ? PETSC_TRUE : PETSC_FALSE;
    const PetscBool stop   = !finite || (over && ex->energy_over && rel >= ex->energy_rel_prev) ? PETSC_TRUE : PETSC_FALSE;
    ex->energy_over        = over;
    ex->energy_rel_prev    = rel;
    PetscCheck(!stop, ex->comm, PETSC_ERR_NOT_CONVERGED,
               "Energy blow-up at t = %g s (step %" PetscInt_FMT
               "): the energy balance drifted by %g J, %g of the largest energy in play (%g J; allowed %g) and not receding. "
               "Reduce the time step (now %g s, critical %g s) or the safety factor; -explicit_energy_tolerance sets the allowed "
               "fraction",
               (double)ex->t, ex->step, (double)(en.balance - ex->energy0), (double)rel, (double)ex->energy_scale,
               (double)ex->energy_tolerance, (double)ex->dt, (double)ex->dt_critical);
  }
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
  for (PetscInt i = 0; i < ex->ncontacts; i++) PetscCall(SKContactPlaneHistoryAppend(ex->contacts[i], ex->contact_hist[i], ex->t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The points of a field frame: the local nodes that some Lagrange cell uses or that no cell uses (in their local
   order; all local nodes when there is no NURBS patch), then for every element of a NURBS patch block its own Bezier
   points (the control points themselves are not shown: they are not on the body). A nodal field f becomes point
   values through SKFramePointsMap(): copied at the nodes, sum_a coef[j][a] f(node a) at Bezier point j. */
typedef struct {
  PetscInt nkept, npoints, nbez;
  PetscInt *kept;      /* [nkept] local node of each kept point */
  PetscInt *point;     /* [nlocal] point of a kept node, -1 for a control point */
  PetscInt *bez_ptr;   /* [nbez + 1] */
  PetscInt *bez_node;  /* [bez_ptr[nbez]] local nodes */
  PetscReal *bez_coef; /* [bez_ptr[nbez]] */
  PetscReal *weight;   /* [npoints] RationalWeights: 1 at the nodes, the Bezier weight at the Bezier points */
  PetscInt *degree;    /* [nelem] HigherOrderDegrees of each cell */
} SKFramePoints;

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
static void SKFramePointsMap(const SKFramePoints *fp, PetscInt ncomp, const PetscReal in[], PetscReal out[])
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
static PetscErrorCode SKFramePointsWrite(const SKFramePoints *fp, SKVTK vtk, const char name[], PetscInt ncomp, PetscBool vector,
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

/* Contact point data (zero off the contact surfaces, summed over pairs): contact_pressure (Pa), contact_traction
   (friction traction on the body, Pa), contact_stick (1 sticking, 0 otherwise), contact_state (friction state per
   node, as many components as the largest law state, e.g. the LuGre bristle deflection in m) and
   contact_sticking_time_ratio (time in contact and sticking up to now over the time elapsed, 1). */
static PetscErrorCode WriteContactFields(SKExplicit ex, const SKFramePoints *fp, SKVTK vtk)
{
  const PetscInt n = ex->nlocal, dim = ex->dim;
  PetscInt ncomp = 1, *stick;
  PetscReal *pressure, *traction, *rstick, *state, *col, *ratio;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < ex->ncontacts; i++) {
    PetscInt ns;
    PetscCall(SKContactPlaneGetStateSize(ex->contacts[i], &ns));
    ncomp = PetscMax(ncomp, ns);
  }
  PetscCall(PetscCalloc5(n, &pressure, n * dim, &traction, n, &rstick, n * ncomp, &state, PetscMax(n, fp->npoints), &col));
  PetscCall(PetscMalloc1(fp->npoints, &stick));
  PetscCall(PetscCalloc1(n, &ratio));
  for (PetscInt i = 0; i < ex->ncontacts; i++) {
    PetscCall(SKContactPlaneAddNodalFields(ex->contacts[i], ex->v, pressure, traction, rstick, ncomp, state));
    PetscCall(SKContactPlaneAddNodalStickRatio(ex->contacts[i], ex->t, ratio));
  }
  /* owned values are complete and ghosts zero: assembling copies them to the ghosts */
  PetscCall(SKExplicitAssembleNodal(ex, pressure, 1));
  PetscCall(SKExplicitAssembleNodal(ex, traction, dim));
  PetscCall(SKExplicitAssembleNodal(ex, rstick, 1));
  PetscCall(SKExplicitAssembleNodal(ex, ratio, 1));
  for (PetscInt k = 0; k < ncomp; k++) {
    for (PetscInt a = 0; a < n; a++) col[a] = state[a * ncomp + k];
    PetscCall(SKExplicitAssembleNodal(ex, col, 1));
    for (PetscInt a = 0; a < n; a++) state[a * ncomp + k] = col[a];
  }
  SKFramePointsMap(fp, 1, rstick, col); /* at a Bezier point: sticking if its combination of the nodes' flags is */
  for (PetscInt a = 0; a < fp->npoints; a++) stick[a] = col[a] > 0 ? 1 : 0;
  PetscCall(SKFramePointsWrite(fp, vtk, "contact_pressure", 1, PETSC_FALSE, pressure));
  PetscCall(SKFramePointsWrite(fp, vtk, "contact_traction", dim, PETSC_TRUE, traction));
  PetscCall(SKVTKWriteIntScalars(vtk, SK_VTK_POINT_DATA, "contact_stick", fp->npoints, stick));
  PetscCall(SKFramePointsWrite(fp, vtk, "contact_state", ncomp, PETSC_FALSE, state));
  PetscCall(SKFramePointsWrite(fp, vtk, "contact_sticking_time_ratio", 1, PETSC_FALSE, ratio));
  PetscCall(PetscFree5(pressure, traction, rstick, state, col));
  PetscCall(PetscFree(stick));
  PetscCall(PetscFree(ratio));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteFields(SKExplicit ex)
{
  char path[PETSC_MAX_PATH_LEN];
  SKVTK vtk;
  SKFramePoints fp;
  PetscInt *offsets, *conn, *ids, *ranks, nconn = 0;
  SKVTKCellType *types;
  PetscReal *sigma, *vm, *X;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(ex->nelem + 1, &offsets, ex->nelem, &types, ex->nelem, &ids, ex->nelem, &ranks, ex->nelem * 9, &sigma));
  PetscCall(PetscMalloc1(ex->nelem, &vm));
  for (PetscInt b = 0; b < ex->nblocks; b++) nconn += ex->blocks[b].nelem * ex->blocks[b].nodes;
  PetscCall(PetscMalloc1(nconn, &conn));
  PetscCall(SKFramePointsCreate(ex, &fp, offsets, conn, types));
  for (PetscInt b = 0; b < ex->nblocks; b++)
    for (PetscInt e = 0; e < ex->blocks[b].nelem; e++)
      ids[ex->blocks[b].first + e] = ex->blocks[b].id, ranks[ex->blocks[b].first + e] = ex->rank;
  PetscCall(SKExplicitGetElementStress(ex, sigma, vm));
  PetscCall(SKPVDGetStepFileName(ex->pvd, ex->field_count, path, sizeof(path)));
  PetscCall(SKVTKOpen(path, SK_VTK_XML_BINARY, "stickslip explicit", &vtk)); /* .vtu: the XML form a .pvd can list */
  PetscCall(PetscMalloc1(fp.npoints * ex->dim, &X));
  SKFramePointsMap(&fp, ex->dim, ex->X, X);
  PetscCall(SKVTKWritePoints(vtk, fp.npoints, ex->dim, X));
  PetscCall(PetscFree(X));
  PetscCall(SKVTKWriteCells(vtk, ex->nelem, offsets, conn, types));
  if (fp.nbez) { /* what VTK's Bezier cells read: their weights and degrees */
    PetscCall(SKVTKSetAttribute(vtk, SK_VTK_POINT_DATA, "RationalWeights", "RationalWeights"));
    PetscCall(SKVTKSetAttribute(vtk, SK_VTK_CELL_DATA, "HigherOrderDegrees", "HigherOrderDegrees"));
  }
  PetscCall(SKFramePointsWrite(&fp, vtk, "displacement", ex->dim, PETSC_TRUE, ex->u));
  PetscCall(SKFramePointsWrite(&fp, vtk, "velocity", ex->dim, PETSC_TRUE, ex->v));
  if (fp.nbez) PetscCall(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "RationalWeights", 1, fp.npoints, fp.weight));
  if (ex->ncontacts > 0) PetscCall(WriteContactFields(ex, &fp, vtk));
  PetscCall(SKVTKWriteTensors(vtk, SK_VTK_CELL_DATA, "cauchy_stress", 3, ex->nelem, sigma));
  PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "von_mises", 1, ex->nelem, vm));
  PetscCall(SKVTKWriteIntScalars(vtk, SK_VTK_CELL_DATA, "block_id", ex->nelem, ids));
  PetscCall(SKVTKWriteIntScalars(vtk, SK_VTK_CELL_DATA, "rank", ex->nelem, ranks));
  if (fp.nbez) {
    PetscReal *deg;
    PetscCall(PetscMalloc1(3 * ex->nelem, &deg));
    for (PetscInt g = 0; g < ex->nelem; g++)
      for (PetscInt d = 0; d < 3; d++) deg[3 * g + d] = d < ex->dim ? (PetscReal)fp.degree[g] : 0.0;
    PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "HigherOrderDegrees", 3, ex->nelem, deg));
    PetscCall(PetscFree(deg));
  }
  PetscCall(SKVTKClose(&vtk));
  PetscCall(SKPVDAddStep(ex->pvd, ex->t, path));
  ex->field_count++;
  PetscCall(SKFramePointsDestroy(&fp));
  PetscCall(PetscFree5(offsets, types, ids, ranks, sigma));
  PetscCall(PetscFree(vm));
  PetscCall(PetscFree(conn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitOutputStep(SKExplicit ex, SKOutput out, PetscBool final)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SK_EXPLICIT_Output, 0, 0, 0, 0));
  /* at the final step, what its interval did not already write at this step */
  if (ex->history_interval > 0 && (ex->step % ex->history_interval == 0) != final) PetscCall(WriteHistories(ex));
  if (out && ex->pvd && (ex->step % ex->field_interval == 0) != final) PetscCall(WriteFields(ex));
  PetscCall(PetscLogEventEnd(SK_EXPLICIT_Output, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* End-of-run contact statistics (docs/output.md), per pair under /explicit/contact_nodes/<name>: the arrays weight (w_a,
   m^2 or m), stick_time and contact_time (s) and sticking_time_ratio (stick_time over the elapsed time, 1), one value
   per node in natural order and zero off the contact surface, and the attributes time (the elapsed time, s),
   stick_threshold (m/s), sticking_time_ratio (weighted mean, SKContactPlaneGetStickingTimeRatio()) and
   sticking_time_ratio_in_contact; the global ratio is also an attribute of the pair's history; on a NURBS patch face
   also the ratio on the physical face (SKContactPlaneWriteSurfaceStickRatio()). Collective. */
PetscErrorCode SKExplicitOutputFinish(SKExplicit ex, SKOutput out)
{
  static const char *const names[] = {"weight", "stick_time", "contact_time", "sticking_time_ratio"};
  PetscInt gsize;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  for (PetscInt i = 0; i < ex->ncontacts; i++) {
    const PetscInt *nodes;
    const PetscReal *w, *stick, *contact;
    PetscReal *local, *global, *column = NULL, ratio, ratio_contact, threshold;
    PetscInt n;
    char group[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];

    PetscCall(SKContactPlaneGetNodal(ex->contacts[i], &n, &nodes, &w, NULL, NULL));
    PetscCall(SKContactPlaneGetStickTimes(ex->contacts[i], NULL, &stick, &contact));
    PetscCall(PetscCalloc1(ex->nowned * 4, &local));
    for (PetscInt j = 0; j < n; j++) {
      PetscReal *row = local + nodes[j] * 4;
      row[0]         = w[j];
      row[1]         = stick[j];
      row[2]         = contact[j];
      row[3]         = ex->t > 0 ? stick[j] / ex->t : 0.0;
    }
    PetscCall(SKExplicitGatherNaturalBlock(ex, local, 4, &global));
    PetscCall(PetscFree(local));
    if (ex->rank == 0) PetscCall(PetscMalloc1(gsize, &column));
    PetscCall(PetscSNPrintf(group, sizeof(group), "/explicit/contact_nodes/%s", ex->contact_names[i]));
    for (PetscInt k = 0; k < 4; k++) {
      if (ex->rank == 0)
        for (PetscInt a = 0; a < gsize; a++) column[a] = global[a * 4 + k];
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", group, names[k]));
      PetscCall(SKOutputWriteRealArray(out, path, 1, &gsize, column));
    }
    PetscCall(PetscFree(column));
    PetscCall(PetscFree(global));
    PetscCall(SKContactPlaneGetStickingTimeRatio(ex->contacts[i], ex->t, &ratio, &ratio_contact));
    PetscCall(SKContactPlaneGetStickThreshold(ex->contacts[i], &threshold));
    PetscCall(SKOutputWriteAttributeReal(out, group, "time", ex->t));
    PetscCall(SKOutputWriteAttributeReal(out, group, "stick_threshold", threshold));
    PetscCall(SKOutputWriteAttributeReal(out, group, "sticking_time_ratio", ratio));
    PetscCall(SKOutputWriteAttributeReal(out, group, "sticking_time_ratio_in_contact", ratio_contact));
    PetscCall(SKContactPlaneWriteSurfaceStickRatio(ex->contacts[i], ex->t, out, group)); /* NURBS patch faces */
    PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/contact/%s", ex->contact_names[i]));
    PetscCall(SKOutputWriteAttributeReal(out, path, "sticking_time_ratio", ratio));
    PetscCall(SKOutputSummary(out, "sticking-time ratio", "%s: %.4g of the time (%.4g of the time in contact), threshold %g m/s",
                              ex->contact_names[i], (double)ratio, (double)ratio_contact, (double)threshold));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
