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

PetscErrorCode SKRodPairSolveCVODE(SKRodPair rp, PetscReal t_end)
{
  SUNContext sunctx;
  void *cv;
  N_Vector y, atolv;
  SUNNonlinearSolver nls;
  CVCtx ctx  = {rp, PETSC_SUCCESS};
  PetscInt n = rp->n, N2 = 2 * rp->model.N, ib = 0, stalls = 0;
  PetscReal t = rp->t, tprev;
  int *rootsfound, *rootdir;
  PetscBool *trigger;

  PetscFunctionBegin;
  CVCall(SUNContext_Create(NULL, &sunctx));
  y     = N_VMake_Serial(n, rp->y, sunctx); /* CVODE works on the rod pair's own state */
  atolv = N_VNew_Serial(n, sunctx);
  for (PetscInt j = 0; j < n; j++) NV_Ith_S(atolv, j) = j < n - 2 ? 0 : 1e30; /* energies are not error-controlled */
  {
    /* same absolute tolerances as RK45 (rodpair_rk45.c) */
    const SKRodPairModel *m = &rp->model;
    PetscReal w             = m->omega1_rod1;
    for (PetscInt i = 0; i < m->N; i++) {
      NV_Ith_S(atolv, i)        = rp->atol;
      NV_Ith_S(atolv, m->N + i) = rp->atol * w;
    }
    for (PetscInt k = 0; k < m->Nm; k++) {
      NV_Ith_S(atolv, 2 * m->N + k)         = rp->atol / m->psi_amp;
      NV_Ith_S(atolv, 2 * m->N + m->Nm + k) = rp->atol * w / m->psi_amp;
    }
  }
  PetscCall(PetscMalloc3(N2, &rootsfound, N2, &rootdir, N2, &trigger));
  for (PetscInt j = 0; j < N2; j++) rootdir[j] = -1; /* only positive -> non-positive crossings are events */
  cv = CVodeCreate(CV_ADAMS, sunctx);
  PetscCheck(cv, rp->comm, PETSC_ERR_LIB, "CVodeCreate failed");
  CVCall(CVodeInit(cv, CVRhs, t, y));
  CVCall(CVodeSetUserData(cv, &ctx));
  CVCall(CVodeSVtolerances(cv, rp->rtol, atolv));
  nls = SUNNonlinSol_FixedPoint(y, 0, sunctx);
  CVCall(CVodeSetNonlinearSolver(cv, nls));
  CVCall(CVodeSetMaxNumSteps(cv, 100000000));
  CVCall(CVodeRootInit(cv, (int)N2, CVRoots));
  CVCall(CVodeSetRootDirection(cv, rootdir));
  if (rp->hmax < PETSC_MAX_REAL) CVCall(CVodeSetMaxStep(cv, rp->hmax));

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
    CVCall(CVodeSetStopTime(cv, t_stop));
    tprev = t;
    flag  = CVode(cv, t_stop, y, &t, CV_ONE_STEP);
    PetscCall(ctx.ierr);
    CVCall(flag);
    rp->steps++;
    /* outputs in (tprev, t] from CVODE's interpolant */
    while (rp->monitor && rp->t_next_out <= t + 1e-9 * rp->dt_out) {
      N_Vector yo = N_VMake_Serial(n, rp->yint, sunctx);
      CVCall(CVodeGetDky(cv, PetscMin(rp->t_next_out, t), 0, yo));
      N_VDestroy(yo);
      PetscCall(SKRodPairOutput(rp, rp->t_next_out, rp->yint));
      rp->t_next_out += rp->dt_out;
    }
    (void)tprev;
    if (flag == CV_ROOT_RETURN) {
      CVCall(CVodeGetRootInfo(cv, rootsfound));
      for (PetscInt j = 0; j < N2; j++) trigger[j] = (rootsfound[j] != 0 && rp->armed[j]) ? PETSC_TRUE : PETSC_FALSE;
      event = PETSC_TRUE;
    } else {
      /* arm functions seen positive; a just-switched one that went the wrong way is re-decided now (as in RK45) */
      PetscCall(SKRodPairRHS(rp, t, rp->y, rp->ytmp));
      SKRodPairEventValues(rp, rp->y, rp->evals1);
      wrong_way = SKRodPairWrongWay(rp, t, rp->evals1, trigger);
      for (PetscInt j = 0; j < N2; j++)
        if (rp->evals1[j] > 0) rp->armed[j] = PETSC_TRUE;
      event = wrong_way;
      if (ib < rp->nbreak && t >= rp->breaks[ib]) {
        ib++;
        CVCall(CVodeReInit(cv, t, y)); /* the load jumps here */
      }
    }
    if (event) {
      PetscCheck(!wrong_way || ++stalls < 20 * N2 + 100, rp->comm, PETSC_ERR_NOT_CONVERGED,
                 "Stick/slip switching does not settle at t = %g s (Zeno chatter)", (double)t);
      if (!wrong_way) stalls = 0;
      PetscCall(SKRodPairResolve(rp, t, rp->y, trigger));
      PetscCall(SKRodPairRHS(rp, t, rp->y, rp->ytmp));
      SKRodPairEventValues(rp, rp->y, rp->evals0);
      SKRodPairArmAfterEvent(rp);
      CVCall(CVodeReInit(cv, t, y));
    }
  }
  {
    long nst, nfe, nge;
    CVCall(CVodeGetNumSteps(cv, &nst));
    CVCall(CVodeGetNumRhsEvals(cv, &nfe));
    CVCall(CVodeGetNumGEvals(cv, &nge));
    PetscCall(PetscInfo(NULL, "CVODE: %ld steps since the last reinit, %ld RHS and %ld root-function evaluations\n", nst, nfe, nge));
  }
  rp->t = t;
  CVodeFree(&cv);
  SUNNonlinSolFree(nls);
  N_VDestroy(atolv);
  N_VDestroy(y);
  SUNContext_Free(&sunctx);
  PetscCall(PetscFree3(rootsfound, rootdir, trigger));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
