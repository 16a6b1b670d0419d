/* dynamics: the contact pairs of the explicit solver as force terms (docs/developing.md, "A force term"): the ops
   table through which the explicit loop, the time step, checkpoints and output reach a pair (module contact), the
   registration of the pairs read from the input (explicit_contact_setup.c) and the access to them for callers above
   the solver (the campaign). The pair is the term's context and holds the contact state; the solver struct holds none
   of it. The only place besides the set-up (explicit_contact_setup.c) that knows the pair's functions. */
#include "explicitimpl.h"
#include <stickslip/output.h>

static PetscErrorCode ContactTermStepBound(void *ctx, const PetscReal mass[], PetscReal omega2, PetscReal load, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairGetStepBound((SKContactPair)ctx, mass, omega2, load, dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermSetStep(void *ctx, PetscReal dt, PetscReal omega2, const PetscReal mass[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairSetStabilityCheck((SKContactPair)ctx, dt, omega2, mass));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool ContactTermImplicit(void *ctx)
{
  SKContactDamping damping;

  if (SKContactPairGetDamping((SKContactPair)ctx, &damping)) return PETSC_FALSE; /* cannot fail */
  return (PetscBool)(damping == SK_CONTACT_DAMPING_IMPLICIT);
}

/* Implicit contact damping (docs/theory.md, "Stability of the contact forces in the explicit scheme"): at each owned
   contact node, c_a and the acceleration from the effective tangential mass m_a + dt c_a instead of f / m_a
   (prescribed dofs keep theirs); then the force -dt c_a a_t is added to the pair's force and to the total. Their f and
   reactions stay uncorrected, as only owned values are summed (energy, set histories). */
static PetscErrorCode ContactTermDamp(void *ctx, PetscReal dt, const PetscReal mass[], PetscReal f[], const PetscInt dof_bc[],
                                      PetscReal a[], const PetscReal vh[], PetscReal fterm[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairDampedAccelerations((SKContactPair)ctx, dt, mass, f, dof_bc, a));
  PetscCall(SKContactPairAddDampingForce((SKContactPair)ctx, dt, a, vh, fterm, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermRestartSize(void *ctx, PetscInt *width)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairGetRestartSize((SKContactPair)ctx, width));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermPack(void *ctx, PetscInt nowned, PetscReal nodal[], PetscReal scalars[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairPackRestart((SKContactPair)ctx, nowned, nodal, scalars));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermUnpack(void *ctx, PetscInt nowned, const PetscReal nodal[], const PetscReal scalars[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairUnpackRestart((SKContactPair)ctx, nowned, nodal, scalars));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermGlobalSize(void *ctx, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairGetGlobalRestartSize((SKContactPair)ctx, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermPackGlobal(void *ctx, PetscReal buf[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairPackGlobalRestart((SKContactPair)ctx, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermUnpackGlobal(void *ctx, PetscInt n, const PetscReal buf[])
{
  PetscFunctionBegin;
  PetscCall(SKContactPairUnpackGlobalRestart((SKContactPair)ctx, n, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pair's history /explicit/contact/<name> (docs/output.md). */
static PetscErrorCode ContactTermHistoryCreate(void *ctx, SKOutput out, const char name[], SKHistory *hist)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/contact/%s", name));
  PetscCall(SKContactPairHistoryCreate((SKContactPair)ctx, out, path, hist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermHistoryAppend(void *ctx, SKHistory hist, PetscReal t)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairHistoryAppend((SKContactPair)ctx, hist, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Contact point data (zero off the contact surfaces, summed over pairs): contact_pressure (Pa), contact_traction
   (friction traction on the body, Pa), contact_stick (1 sticking, 0 otherwise), contact_state (friction state per
   node, as many components as the largest law state, e.g. the LuGre bristle deflection in m) and
   contact_sticking_time_ratio (time in contact and sticking up to now over the time elapsed, 1). */
static PetscErrorCode ContactTermWriteFields(SKExplicit ex, PetscInt nterms, const SKExplicitTerm *const terms[], const SKFramePoints *fp,
                                             SKVTK vtk)
{
  const PetscInt n = ex->nlocal, dim = ex->dim;
  PetscInt ncomp = 1, *stick;
  PetscReal *pressure, *traction, *rstick, *state, *col, *ratio;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nterms; i++) {
    PetscInt ns;
    PetscCall(SKContactPairGetStateSize((SKContactPair)terms[i]->ctx, &ns));
    ncomp = PetscMax(ncomp, ns);
  }
  PetscCall(PetscCalloc5(n, &pressure, n * dim, &traction, n, &rstick, n * ncomp, &state, PetscMax(n, fp->npoints), &col));
  PetscCall(PetscMalloc1(fp->npoints, &stick));
  PetscCall(PetscCalloc1(n, &ratio));
  for (PetscInt i = 0; i < nterms; i++) {
    PetscCall(SKContactPairAddNodalFields((SKContactPair)terms[i]->ctx, ex->v, pressure, traction, rstick, ncomp, state));
    PetscCall(SKContactPairAddNodalStickRatio((SKContactPair)terms[i]->ctx, ex->t, ratio));
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

/* End-of-run contact statistics (docs/output.md), per pair under /explicit/contact_nodes/<name>: the arrays weight (w_a,
   m^2 or m), stick_time and contact_time (s) and sticking_time_ratio (stick_time over the elapsed time, 1), one value
   per node in natural order and zero off the contact surface, and the attributes time (the elapsed time, s),
   stick_threshold (m/s), sticking_time_ratio (weighted mean, SKContactPairGetStickingTimeRatio()) and
   sticking_time_ratio_in_contact; the global ratio is also an attribute of the pair's history; on a NURBS patch face
   also the ratio on the physical face (SKContactPairWriteSurfaceStickRatio()). Collective. */
static PetscErrorCode ContactTermFinish(SKExplicit ex, const SKExplicitTerm *term, SKOutput out)
{
  static const char *const names[] = {"weight", "stick_time", "contact_time", "sticking_time_ratio"};
  PetscInt gsize;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  {
    const SKContactPair cp = (SKContactPair)term->ctx;
    const PetscInt *nodes;
    const PetscReal *w, *stick, *contact;
    PetscReal *local, *global, *column = NULL, ratio, ratio_contact, threshold;
    PetscBool frictionless;
    PetscInt n;
    char group[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];

    PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &w, NULL, NULL));
    PetscCall(SKContactPairGetStickTimes(cp, NULL, &stick, &contact));
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
    PetscCall(PetscSNPrintf(group, sizeof(group), "/explicit/contact_nodes/%s", term->name));
    for (PetscInt k = 0; k < 4; k++) {
      if (ex->rank == 0)
        for (PetscInt a = 0; a < gsize; a++) column[a] = global[a * 4 + k];
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", group, names[k]));
      PetscCall(SKOutputWriteRealArray(out, path, 1, &gsize, column));
    }
    PetscCall(PetscFree(column));
    PetscCall(PetscFree(global));
    PetscCall(SKContactPairGetStickingTimeRatio(cp, ex->t, &ratio, &ratio_contact));
    PetscCall(SKContactPairGetStickThreshold(cp, &threshold));
    PetscCall(SKContactPairIsFrictionless(cp, &frictionless));
    PetscCall(SKOutputWriteAttributeReal(out, group, "time", ex->t));
    PetscCall(SKOutputWriteAttributeInt(out, group, "frictionless", frictionless ? 1 : 0));
    PetscCall(PetscSNPrintf(path, sizeof(path), "/explicit/contact/%s", term->name));
    if (frictionless) { /* no friction force, no sticking: a ratio would only count slow nodes */
      PetscCall(SKOutputSummary(out, "sticking-time ratio", "%s: none (frictionless)", term->name));
    } else {
      PetscCall(SKOutputWriteAttributeReal(out, group, "stick_threshold", threshold));
      PetscCall(SKOutputWriteAttributeReal(out, group, "sticking_time_ratio", ratio));
      PetscCall(SKOutputWriteAttributeReal(out, group, "sticking_time_ratio_in_contact", ratio_contact));
      PetscCall(SKContactPairWriteSurfaceStickRatio(cp, ex->t, out, group)); /* NURBS patch faces */
      PetscCall(SKOutputWriteAttributeReal(out, path, "sticking_time_ratio", ratio));
      PetscCall(SKOutputSummary(out, "sticking-time ratio", "%s: %.4g of the time (%.4g of the time in contact), threshold %g m/s",
                                term->name, (double)ratio, (double)ratio_contact, (double)threshold));
    }
    {
      SKContactPairStats st;
      PetscCall(SKContactPairGetStats(cp, &st));
      PetscCall(SKOutputSummary(out, "contact energy",
                                "%s: stored normal %.4g J, tangential %.4g J; dissipated by friction %.4g J, by damping %.4g J; surface "
                                "work %.4g J; discontinuity work %.4g J",
                                term->name, (double)st.penalty_energy, (double)st.stored_tangential, (double)st.friction_dissipation,
                                (double)st.damping_dissipation, (double)st.surface_work, (double)st.discontinuity_work));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermEnergy(void *ctx, PetscReal *stored, PetscReal *dissipated, PetscReal *supplied)
{
  SKContactPairStats st;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetStats((SKContactPair)ctx, &st));
  *stored     = st.penalty_energy + st.stored_tangential;
  *dissipated = st.dissipation;
  *supplied   = st.surface_work;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermDiagnose(void *ctx, const char name[], PetscReal dt, PetscReal injected, char msg[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairDiagnoseDrift((SKContactPair)ctx, name, dt, injected, msg, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermOwnStep(void *ctx, PetscReal *dt)
{
  PetscFunctionBegin;
  PetscCall(SKContactPairGetContactStep((SKContactPair)ctx, dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ContactTermDestroy(void *ctx)
{
  SKContactPair cp = (SKContactPair)ctx;

  PetscFunctionBegin;
  PetscCall(SKContactPairDestroy(&cp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKExplicitTermOps ContactTermOps = {.type          = "contact",
                                                 .stepbound     = ContactTermStepBound,
                                                 .setstep       = ContactTermSetStep,
                                                 .implicit      = ContactTermImplicit,
                                                 .damp          = ContactTermDamp,
                                                 .restartsize   = ContactTermRestartSize,
                                                 .packrestart   = ContactTermPack,
                                                 .unpackrestart = ContactTermUnpack,
                                                 .globalsize    = ContactTermGlobalSize,
                                                 .packglobal    = ContactTermPackGlobal,
                                                 .unpackglobal  = ContactTermUnpackGlobal,
                                                 .historycreate = ContactTermHistoryCreate,
                                                 .historyappend = ContactTermHistoryAppend,
                                                 .writefields   = ContactTermWriteFields,
                                                 .finish        = ContactTermFinish,
                                                 .energy        = ContactTermEnergy,
                                                 .diagnose      = ContactTermDiagnose,
                                                 .ownstep       = ContactTermOwnStep,
                                                 .destroy       = ContactTermDestroy};

PetscErrorCode SKExplicitAddContactTerm(SKExplicit ex, const char name[], SKContactPair cp, PetscInt group)
{
  PetscFunctionBegin;
  if (SK_CONTACT_RESTART_NSCALAR != SK_EXPLICIT_TERM_RESTART_NSCALAR || ex->nterms >= SK_EXPLICIT_MAX_TERMS) {
    PetscCall(SKContactPairDestroy(&cp)); /* the term would own it */
    PetscCheck(SK_CONTACT_RESTART_NSCALAR == SK_EXPLICIT_TERM_RESTART_NSCALAR, ex->comm, PETSC_ERR_PLIB,
               "Contact restart scalars %d, terms take %d", SK_CONTACT_RESTART_NSCALAR, SK_EXPLICIT_TERM_RESTART_NSCALAR);
  }
  PetscCall(SKExplicitAddTerm(ex, name, SKContactPairForce, &ContactTermOps, cp, group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether TERM is a contact pair's. */
static inline PetscBool IsContactTerm(const SKExplicitTerm *term)
{
  return (PetscBool)(term->ops == &ContactTermOps);
}

PetscErrorCode SKExplicitGetNumContactPairs(SKExplicit ex, PetscInt *n)
{
  PetscFunctionBegin;
  *n = 0;
  for (PetscInt k = 0; k < ex->nterms; k++) *n += IsContactTerm(&ex->terms[k]) ? 1 : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitGetContactPair(SKExplicit ex, PetscInt i, SKContactPair *cp)
{
  PetscInt n = 0;

  PetscFunctionBegin;
  *cp = NULL;
  for (PetscInt k = 0; k < ex->nterms && !*cp; k++)
    if (IsContactTerm(&ex->terms[k]) && n++ == i) *cp = (SKContactPair)ex->terms[k].ctx;
  PetscCheck(*cp, ex->comm, PETSC_ERR_ARG_OUTOFRANGE, "Contact pair %" PetscInt_FMT " of %" PetscInt_FMT, i, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}
