/* The explicit solver's run loop and its registration as the solver of <explicit> inputs. */
#include "explicitimpl.h"
#include <signal.h>

/* The steps from ex->step to NSTEPS with their output, checkpoints (into CKDIR) and progress line PROGRESS. */
static PetscErrorCode TimeLoop(SKExplicit ex, SKOutput out, PetscInt nsteps, const char ckdir[], SKProgress progress)
{
  const PetscInt kill_step = ex->kill_step;

  PetscFunctionBegin;
  while (ex->step < nsteps) {
    PetscCall(SKExplicitStep(ex));
    PetscCall(SKExplicitOutputStep(ex, out, PETSC_FALSE));
    /* a checkpoint is written only over results that reached the file: a restart from it appends after them */
    if (out && ex->checkpoint_interval > 0 && ex->step % ex->checkpoint_interval == 0 && ex->step < nsteps) {
      PetscCall(SKOutputCheck(out));
      PetscCall(SKExplicitWriteCheckpoint(ex, ckdir, ex->checkpoint_keep));
    }
    PetscCall(SKProgressUpdate(progress, ex->t, ex->step));
    /* SIGTERM/SIGINT and a failed write of results.h5 on rank 0: reductions over the ranks, so every 16th step */
    if (ex->size > 1 && ex->step % 16 == 0) {
      PetscCall(SKSignalCheck(ex->comm));
      if (out) PetscCall(SKOutputCheck(out));
    }
    /* test hook (-explicit_kill_at_step): the process kills itself after this step, as an interrupted run would */
    if (ex->step == kill_step) (void)raise(SIGKILL);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitRun(SKExplicit ex, SKOutput out)
{
  PetscBool restart = PETSC_FALSE, restarted = PETSC_FALSE;
  char ckdir[PETSC_MAX_PATH_LEN] = "", path[PETSC_MAX_PATH_LEN];
  PetscInt nsteps, start_step, gsize, ncontacts;
  SKProgress progress;
  PetscErrorCode ierr;
  SKExplicitEnergy en;
  PetscReal *final;
  PetscLogDouble w0, w1;

  PetscFunctionBegin;
  /* the last step lands on t_end up to round-off; a step of a few ulps beyond is not taken */
  nsteps = (PetscInt)PetscCeilReal(ex->t_end / ex->dt - 1e-9);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-restart", &restart, NULL)); /* -restart false is no restart */
  if (out) PetscCall(SKOutputGetPath(out, "checkpoints", ckdir, sizeof(ckdir)));
  if (restart && out) {
    PetscCall(SKExplicitFindCheckpoint(ex->comm, ckdir, path, sizeof(path)));
    if (path[0]) {
      PetscCall(SKExplicitLoadCheckpoint(ex, path));
      PetscCall(PetscPrintf(ex->comm, "restarting from %s at t = %g s (step %" PetscInt_FMT ")\n", path, (double)ex->t, ex->step));
      restarted = PETSC_TRUE;
    } else
      PetscCall(PetscPrintf(ex->comm, "-restart: no valid checkpoint in %s, starting at t = 0\n", ckdir));
  }
  if (out) PetscCall(SKExplicitOutputSetUp(ex, out, restarted));
  if (!restarted) PetscCall(SKExplicitOutputStep(ex, out, PETSC_FALSE));
  PetscCall(SKExplicitSetupView(ex, "output set up"));
  start_step = ex->step;
  PetscCall(SKProgressCreate(ex->comm, "explicit", 0.0, ex->t_end, &progress));
  PetscCall(SKWallTime(&w0));
  ierr = TimeLoop(ex, out, nsteps, ckdir, progress);
  PetscCall(SKProgressDestroy(&progress)); /* also when the run stops (energy check, signal): the line cleared */
  PetscCall(ierr);
  PetscCall(SKWallTime(&w1));
  PetscCall(SKExplicitSetupView(ex, "time loop done"));
  PetscCall(SKExplicitOutputStep(ex, out, PETSC_TRUE));
  PetscCall(SKExplicitGetEnergy(ex, &en));
  if (!out) PetscFunctionReturn(PETSC_SUCCESS);

  /* the final state in natural node order: what restart tests compare bit for bit */
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  {
    const PetscInt dims[2] = {gsize, ex->dim};
    PetscCall(SKExplicitGatherNatural(ex, ex->X, &final));
    PetscCall(SKOutputWriteRealArray(out, "/explicit/final/coordinates", 2, dims, final));
    PetscCall(PetscFree(final));
    PetscCall(SKExplicitGatherNatural(ex, ex->u, &final));
    PetscCall(SKOutputWriteRealArray(out, "/explicit/final/displacement", 2, dims, final));
    PetscCall(PetscFree(final));
    PetscCall(SKExplicitGatherNatural(ex, ex->v, &final));
    PetscCall(SKOutputWriteRealArray(out, "/explicit/final/velocity", 2, dims, final));
    PetscCall(PetscFree(final));
  }
  PetscCall(SKExplicitOutputFinish(ex, out));
  PetscCall(SKOutputWriteAttributeReal(out, "/explicit/final", "time", ex->t));
  PetscCall(SKOutputWriteAttributeInt(out, "/explicit/final", "step", ex->step));
  PetscCall(SKOutputSummary(out, "steps", "%" PetscInt_FMT " of dt = %.6g s to t = %.6g s", ex->step - start_step, (double)ex->dt,
                            (double)ex->t));
  PetscCall(SKOutputSummary(out, "critical dt", "%.6g s (%s), element estimate %.6g s", (double)ex->dt_critical,
                            ex->critical_type == SK_EXPLICIT_CRITICAL_POWER ? "power iteration"
                                                                            : (ex->critical_element ? "element bound" : "stiffness bound"),
                            (double)ex->dt_element));
  PetscCall(SKExplicitGetNumContactPairs(ex, &ncontacts));
  if (ncontacts) {
    PetscCall(SKOutputSummary(out, "friction dt", "%.6g s with the friction moduli at the estimated normal load %.6g N per contact",
                              (double)ex->dt_friction, (double)ex->normal_load));
    PetscCall(SKOutputSummary(out, "contact dt",
                              "%.6g s: the stiffest contact node's penalty and friction stiffness with the switching margin",
                              (double)ex->dt_contact));
  }
  PetscCall(SKOutputSummary(out, "energy", "kinetic %.6g J, internal %.6g J, spring %.6g J, external work %.6g J, balance drift %.3g J",
                            (double)en.kinetic, (double)en.internal, (double)en.spring, (double)en.external_work,
                            (double)(en.balance - ex->energy0)));
  {
    PetscReal stored = 0, dissipated = 0, supplied = 0, scale = ex->energy_scale;
    for (PetscInt k = 0; k < ex->nterms; k++)
      if (en.booked[k]) stored += en.stored_terms[k], dissipated += en.dissipated_terms[k], supplied += en.supplied_terms[k];
    if (ncontacts)
      PetscCall(SKOutputSummary(out, "energy balance",
                                "kinetic + internal + spring + contact stored %.6g J + dissipated %.6g J - external work - surface work "
                                "%.6g J drifted by %.3g of the largest energy in play (%.6g J)",
                                (double)stored, (double)dissipated, (double)supplied,
                                (double)(scale > 0 ? PetscAbsReal(en.balance - ex->energy0) / scale : 0.0), (double)scale));
  }
  if (ex->step > start_step) PetscCall(SKOutputSummary(out, "time per step", "%.3g s", (double)((w1 - w0) / (ex->step - start_step))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solver, handed to *CTX as soon as it exists (SKExplicitCreateFromInput() sets it before reading). */
static PetscErrorCode ExplicitNew(SKInput input, void **ctx)
{
  SKExplicit ex = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = SKExplicitCreateFromInput(input, &ex);
  *ctx = ex;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExplicitRun(void *ctx, SKOutput out)
{
  PetscFunctionBegin;
  PetscCall(SKExplicitRun((SKExplicit)ctx, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExplicitDestroy(void **ctx)
{
  SKExplicit ex = (SKExplicit)*ctx;

  PetscFunctionBegin;
  PetscCall(SKExplicitDestroy(&ex));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a refused input must not leak the half-built solver: the error is passed on after freeing it */
static PetscErrorCode ExplicitSetup(SKInput input, void **ctx)
{
  PetscFunctionBegin;
  PetscCall(SKSolverSetupWith(input, ctx, ExplicitNew, ExplicitDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverExplicit = {
    "explicit",    "explicit.xsd", "explicit finite elements: hyperelastic bodies, lumped mass, central differences, MPI",
    ExplicitSetup, ExplicitRun,    ExplicitDestroy};
