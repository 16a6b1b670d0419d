/* Mode-matching method: the modal projection and the nodal reconstruction of a rod-1 segment, by FFTW's real-to-real
   transforms for uniform segments of at least the crossover length (O(n log n)) and by the dense mode rows otherwise
   (O(n^2)). The uniform segment modes are the bases of the discrete cosine and sine transforms (docs/theory.md):
     free-free   cos(j p pi/(n-1))          project and reconstruct: REDFT00 (DCT-I)
     free-fixed  cos(j (p+1/2) pi/n)        project: REDFT01 (DCT-III), reconstruct: REDFT10 (DCT-II)
     fixed-free  the same with j -> n-1-j   (the node order reversed)
     fixed-fixed sin((j+1)(p+1) pi/(n+1))  project and reconstruct: RODFT00 (DST-I)
   FFTW's transforms carry a factor 2 on the interior terms and count the end terms of REDFT00 (and the first of
   REDFT01) once: the ends are doubled on the way in and everything is halved on the way out. */
#include "mmmimpl.h"

enum { TR_REDFT00, TR_REDFT01, TR_REDFT10, TR_RODFT00, TR_KINDS };

PetscLogEvent SK_MMM_ProjectFFT, SK_MMM_ProjectDense, SK_MMM_NodalFFT, SK_MMM_NodalDense, SK_MMM_Plan;

/* -log_view: the segment passes of the mode matching by path (fast transform or dense rows) */
PetscErrorCode SKMMMRegisterLogEvents(void)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(PetscLogEventRegister("RodPairMMMProjFFT", SK_CLASSID, &SK_MMM_ProjectFFT));
  PetscCall(PetscLogEventRegister("RodPairMMMProjDense", SK_CLASSID, &SK_MMM_ProjectDense));
  PetscCall(PetscLogEventRegister("RodPairMMMNodalFFT", SK_CLASSID, &SK_MMM_NodalFFT));
  PetscCall(PetscLogEventRegister("RodPairMMMNodalDense", SK_CLASSID, &SK_MMM_NodalDense));
  PetscCall(PetscLogEventRegister("RodPairMMMPlan", SK_CLASSID, &SK_MMM_Plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMMMTransformsCreate(PetscInt N, PetscInt nmin, MMMTransforms *tr)
{
  PetscFunctionBegin;
  tr->N    = N;
  tr->nmin = nmin;
  PetscCall(PetscCalloc1((size_t)TR_KINDS * (N + 1), &tr->plan));
  /* fftw_malloc: SIMD-aligned, so every buffer may be passed to a plan made on another (fftw_execute_r2r) */
  tr->in  = (double *)fftw_malloc(sizeof(double) * (size_t)N);
  tr->out = (double *)fftw_malloc(sizeof(double) * (size_t)N);
  PetscCheck(tr->in && tr->out, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_malloc of %" PetscInt_FMT " doubles failed", N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMMMTransformsDestroy(MMMTransforms *tr)
{
  PetscFunctionBegin;
  if (tr->plan)
    for (PetscInt k = 0; k < TR_KINDS * (tr->N + 1); k++)
      if (tr->plan[k]) fftw_destroy_plan(tr->plan[k]);
  PetscCall(PetscFree(tr->plan));
  if (tr->in) fftw_free(tr->in);
  if (tr->out) fftw_free(tr->out);
  tr->in = tr->out = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the plan of transform KIND of size n, made on first use (FFTW_ESTIMATE: no trial runs; docs/benchmarks.md measured
   FFTW_MEASURE against it) and kept for the run. Plans are made and run by this rank's thread only. */
static PetscErrorCode GetPlan(MMMTransforms *tr, PetscInt kind, PetscInt n, fftw_plan *plan)
{
  static const fftw_r2r_kind fk[TR_KINDS] = {FFTW_REDFT00, FFTW_REDFT01, FFTW_REDFT10, FFTW_RODFT00};
  fftw_plan *p                            = &tr->plan[kind * (tr->N + 1) + n];

  PetscFunctionBegin;
  if (!*p) {
    PetscCall(PetscLogEventBegin(SK_MMM_Plan, 0, 0, 0, 0));
    *p = fftw_plan_r2r_1d((int)n, tr->in, tr->out, fk[kind], FFTW_ESTIMATE);
    PetscCall(PetscLogEventEnd(SK_MMM_Plan, 0, 0, 0, 0));
    PetscCheck(*p, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan a real-to-real transform of size %" PetscInt_FMT, n);
    tr->nplans++;
  }
  *plan = *p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = sum over the other index of the segment's mode values times x, through the transform of kind KIND: the ends of
   x doubled as that transform needs (DOUBLE_FIRST, DOUBLE_LAST), x read and y written in reverse node order for a
   fixed-free segment (REV_IN, REV_OUT) */
static PetscErrorCode Apply(MMMTransforms *tr, PetscInt kind, PetscInt n, PetscBool double_first, PetscBool double_last, PetscBool rev_in,
                            PetscBool rev_out, const PetscReal x[], PetscReal y[])
{
  fftw_plan plan;
  double *in = tr->in, *out = tr->out;

  PetscFunctionBegin;
  PetscCall(GetPlan(tr, kind, n, &plan));
  if (rev_in)
    for (PetscInt j = 0; j < n; j++) in[j] = x[n - 1 - j];
  else
    for (PetscInt j = 0; j < n; j++) in[j] = x[j];
  if (double_first) in[0] *= 2;
  if (double_last) in[n - 1] *= 2;
  fftw_execute_r2r(plan, in, out);
  if (rev_out)
    for (PetscInt j = 0; j < n; j++) y[j] = 0.5 * out[n - 1 - j];
  else
    for (PetscInt j = 0; j < n; j++) y[j] = 0.5 * out[j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Modal sums S[v][p] = sum_j phi_p(j) X[v][j] of NV vectors of the segment's nodes (p, j = 0..n-1) */
PetscErrorCode SKMMMSegProject(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *X[], PetscReal *S[])
{
  PetscInt n = sg->n;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(sg->fast ? SK_MMM_ProjectFFT : SK_MMM_ProjectDense, 0, 0, 0, 0));
  if (sg->fast) {
    for (PetscInt v = 0; v < nv; v++) {
      switch (sg->kind) {
      case SEG_FREE_FREE:
        PetscCall(Apply(&mm->tr, TR_REDFT00, n, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, X[v], S[v]));
        break;
      case SEG_FREE_FIXED:
      case SEG_FIXED_FREE:
        PetscCall(Apply(&mm->tr, TR_REDFT01, n, PETSC_TRUE, PETSC_FALSE, (PetscBool)(sg->kind == SEG_FIXED_FREE), PETSC_FALSE, X[v], S[v]));
        break;
      case SEG_FIXED_FIXED:
        PetscCall(Apply(&mm->tr, TR_RODFT00, n, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, X[v], S[v]));
        break;
      }
    }
  } else {
    for (PetscInt v = 0; v < nv; v++)
      for (PetscInt p = 0; p < n; p++) S[v][p] = 0;
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal *row = SKMMMSegRow(mm, sg, j);
      for (PetscInt v = 0; v < nv; v++) {
        const PetscReal xj = X[v][j];
        PetscReal *s       = S[v];
        for (PetscInt p = 0; p < n; p++) s[p] += row[p] * xj;
      }
    }
  }
  PetscCall(PetscLogEventEnd(sg->fast ? SK_MMM_ProjectFFT : SK_MMM_ProjectDense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Nodal values U[v][j] = sum_p phi_p(j) Q[v][p] of NV modal vectors (j, p = 0..n-1) */
PetscErrorCode SKMMMSegSynthesize(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *Q[], PetscReal *U[])
{
  PetscInt n = sg->n;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(sg->fast ? SK_MMM_NodalFFT : SK_MMM_NodalDense, 0, 0, 0, 0));
  if (sg->fast) {
    for (PetscInt v = 0; v < nv; v++) {
      switch (sg->kind) {
      case SEG_FREE_FREE:
        PetscCall(Apply(&mm->tr, TR_REDFT00, n, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, Q[v], U[v]));
        break;
      case SEG_FREE_FIXED:
      case SEG_FIXED_FREE:
        PetscCall(
            Apply(&mm->tr, TR_REDFT10, n, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, (PetscBool)(sg->kind == SEG_FIXED_FREE), Q[v], U[v]));
        break;
      case SEG_FIXED_FIXED:
        PetscCall(Apply(&mm->tr, TR_RODFT00, n, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, Q[v], U[v]));
        break;
      }
    }
  } else {
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal *row = SKMMMSegRow(mm, sg, j);
      for (PetscInt v = 0; v < nv; v++) {
        const PetscReal *q = Q[v];
        PetscReal s        = 0;
        for (PetscInt p = 0; p < n; p++) s += row[p] * q[p];
        U[v][j] = s;
      }
    }
  }
  PetscCall(PetscLogEventEnd(sg->fast ? SK_MMM_NodalFFT : SK_MMM_NodalDense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
