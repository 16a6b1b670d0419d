/* SUNDIALS CVODE peer of the rod-pair reference integrator (benchmark-only build option STICKSLIP_WITH_CVODE):
   the same right-hand side, event functions and switching as RK45 (rodpair.c), integrated by CVODE's Adams method
   with fixed-point iteration (the system is not stiff at the accuracy asked) and CVODE's own root finding. */
#include "rodpairimpl.h"

#if !defined(SK_HAVE_CVODE)
PetscErrorCode SKRodPairSolveCVODE(SKRodPair rp, PetscReal t_end)
{
  PetscFunctionBegin;
  (void)t_end;
  SETERRQ(rp->comm, PETSC_ERR_SUP, SK_RODPAIR_NO_CVODE_MESSAGE);
}
#else
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

typedef struct {
  SKRodPair rp;
  PetscErrorCode ierr;
} CVCtx;

static int CVRhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data)
{
  CVCtx *c = (CVCtx *)data;
  c->ierr  = SKRodPairRHS(c->rp, t, NV_DATA_S(y), NV_DATA_S(ydot));
  return c->ierr ? -1 : 0;
}

/* armed functions are the event values; unarmed ones (just switched) a positive constant until seen positive */
static int CVRoots(sunrealtype t, N_Vector y, sunrealtype *g, void *data)
{
  CVCtx *c     = (CVCtx *)data;
  SKRodPair rp = c->rp;
  c->ierr      = SKRodPairRHS(rp, t, NV_DATA_S(y), rp->ytmp);
  if (c->ierr) return -1;
  SKRodPairEventValues(rp, NV_DATA_S(y), g);
  for (PetscInt j = 0; j < 2 * rp->model.N; j++)
    if (!rp->armed[j]) g[j] = 1;
  return 0;
}

#define CVCall(f)                                                                                                       \
  do {                                                                                                                  \
    int _flag = (f);                                                                                                    \
    PetscCheck(_flag >= 0, rp->comm, PETSC_ERR_LIB, "CVODE: %s failed with flag %d at t = %g s", #f, _flag, (double)t); \
  } while (0)

/* What a solve holds: CVODE's objects, the root bookkeeping (2N) */
typedef struct {
  SUNContext sunctx;
  void *cv;
  N_Vector y, atolv;
  SUNNonlinearSolver nls;
  CVCtx ctx;
  int *rootsfound, *rootdir;
  PetscBool *trigger;
} CVWork;

static PetscErrorCode CVRun(SKRodPair rp, PetscReal t_end, CVWork *w)
{
  PetscInt n = rp->n, N2 = 2 * rp->model.N, ib = 0, stalls = 0;
  PetscReal t = rp->t, tprev;

  PetscFunctionBegin;
  w->ctx = (CVCtx){rp, PETSC_SUCCESS};
  CVCall(SUNContext_Create(NULL, &w->sunctx));
  w->y     = N_VMake_Serial(n, rp->y, w->sunctx); /* CVODE works on the rod pair's own state */
  w->atolv = N_VNew_Serial(n, w->sunctx);
  for (PetscInt j = 0; j < n; j++) NV_Ith_S(w->atolv, j) = j < n - 2 ? 0 : 1e30; /* energies are not error-controlled */
  {
    /* same absolute tolerances as RK45 (rodpair_rk45.c) */
    const SKRodPairModel *m = &rp->model;
    PetscReal w1            = m->omega1_rod1;
    for (PetscInt i = 0; i < m->N; i++) {
      NV_Ith_S(w->atolv, i)        = rp->atol;
      NV_Ith_S(w->atolv, m->N + i) = rp->atol * w1;
    }
    for (PetscInt k = 0; k < m->Nm; k++) {
      NV_Ith_S(w->atolv, 2 * m->N + k)         = rp->atol / m->psi_amp;
      NV_Ith_S(w->atolv, 2 * m->N + m->Nm + k) = rp->atol * w1 / m->psi_amp;
    }
  }
  PetscCall(PetscMalloc3(N2, &w->rootsfound, N2, &w->rootdir, N2, &w->trigger));
  for (PetscInt j = 0; j < N2; j++) w->rootdir[j] = -1; /* only positive -> non-positive crossings are events */
  w->cv = CVodeCreate(CV_ADAMS, w->sunctx);
  PetscCheck(w->cv, rp->comm, PETSC_ERR_LIB, "CVodeCreate failed");
  CVCall(CVodeInit(w->cv, CVRhs, t, w->y));
  CVCall(CVodeSetUserData(w->cv, &w->ctx));
  CVCall(CVodeSVtolerances(w->cv, rp->rtol, w->atolv));
  w->nls = SUNNonlinSol_FixedPoint(w->y, 0, w->sunctx);
  CVCall(CVodeSetNonlinearSolver(w->cv, w->nls));
  CVCall(CVodeSetMaxNumSteps(w->cv, 100000000));
  CVCall(CVodeRootInit(w->cv, (int)N2, CVRoots));
  CVCall(CVodeSetRootDirection(w->cv, w->rootdir));
  if (rp->hmax < PETSC_MAX_REAL) CVCall(CVodeSetMaxStep(w->cv, rp->hmax));

  if (rp->monitor && rp->t_next_out <= t) {
    PetscCall(SKRodPairOutput(rp, t, rp->y));
    rp->t_next_out = t + rp->dt_out;
  }
  while (ib < rp->nbreak && rp->breaks[ib] <= t) ib++;
  PetscCall(SKRodPairRHS(rp, t, rp->y, rp->ytmp));
  SKRodPairEventValues(rp, rp->y, rp->evals0);
  for (PetscInt j = 0; j < N2; j++) rp->armed[j] = rp->evals0[j] > 0 ? PETSC_TRUE : PETSC_FALSE;
  while (t < t_end * (1 - 1e-15)) {
    PetscReal t_stop = t_end;
    PetscBool event, wrong_way = PETSC_FALSE;
    int flag;

    if (ib < rp->nbreak && rp->breaks[ib] < t_stop) t_stop = rp->breaks[ib];
    CVCall(CVodeSetStopTime(w->cv, t_stop));
    tprev = t;
    flag  = CVode(w->cv, t_stop, w->y, &t, CV_ONE_STEP);
    PetscCall(w->ctx.ierr);
    CVCall(flag);
    rp->steps++;
    /* outputs in (tprev, t] from CVODE's interpolant */
    while (rp->monitor && rp->t_next_out <= t + 1e-9 * rp->dt_out) {
      N_Vector yo = N_VMake_Serial(n, rp->yint, w->sunctx);
      int dky     = CVodeGetDky(w->cv, PetscMin(rp->t_next_out, t), 0, yo);
      N_VDestroy(yo);
      PetscCheck(dky >= 0, rp->comm, PETSC_ERR_LIB, "CVODE: CVodeGetDky failed with flag %d at t = %g s", dky, (double)t);
      PetscCall(SKRodPairOutput(rp, rp->t_next_out, rp->yint));
      rp->t_next_out += rp->dt_out;
    }
    (void)tprev;
    if (flag == CV_ROOT_RETURN) {
      CVCall(CVodeGetRootInfo(w->cv, w->rootsfound));
      for (PetscInt j = 0; j < N2; j++) w->trigger[j] = (w->rootsfound[j] != 0 && rp->armed[j]) ? PETSC_TRUE : PETSC_FALSE;
      event = PETSC_TRUE;
    } else {
      /* arm functions seen positive; a just-switched one that went the wrong way is re-decided now (as in RK45) */
      PetscCall(SKRodPairRHS(rp, t, rp->y, rp->ytmp));
      SKRodPairEventValues(rp, rp->y, rp->evals1);
      wrong_way = SKRodPairWrongWay(rp, t, rp->evals1, w->trigger);
      for (PetscInt j = 0; j < N2; j++)
        if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
      event = wrong_way;
      if (ib < rp->nbreak && t >= rp->breaks[ib]) {
        ib++;
        CVCall(CVodeReInit(w->cv, t, w->y)); /* the load jumps here */
      }
    }
    if (event) {
      PetscCheck(!wrong_way || ++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      if (!wrong_way) stalls = 0;
      PetscCall(SKRodPairResolve(rp, t, rp->y, w->trigger));
      PetscCall(SKRodPairRHS(rp, t, rp->y, rp->ytmp));
      SKRodPairEventValues(rp, rp->y, rp->evals0);
      SKRodPairArmAfterEvent(rp);
      CVCall(CVodeReInit(w->cv, t, w->y));
    }
  }
  {
    long nst, nfe, nge;
    CVCall(CVodeGetNumSteps(w->cv, &nst));
    CVCall(CVodeGetNumRhsEvals(w->cv, &nfe));
    CVCall(CVodeGetNumGEvals(w->cv, &nge));
    PetscCall(PetscInfo(NULL, "CVODE: %ld steps since the last reinit, %ld RHS and %ld root-function evaluations\n", nst, nfe, nge));
  }
  rp->t = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairSolveCVODE(SKRodPair rp, PetscReal t_end)
{
  CVWork w = {0};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* CVODE's objects and the work arrays are freed whether the solve ends or stops with an error */
  ierr = CVRun(rp, t_end, &w);
  if (w.cv) CVodeFree(&w.cv);
  if (w.nls) SUNNonlinSolFree(w.nls);
  if (w.atolv) N_VDestroy(w.atolv);
  if (w.y) N_VDestroy(w.y);
  if (w.sunctx) SUNContext_Free(&w.sunctx);
  PetscCall(PetscFree3(w.rootsfound, w.rootdir, w.trigger));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
