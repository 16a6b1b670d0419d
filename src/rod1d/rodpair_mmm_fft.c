/* Mode-matching method: the modal projection and the nodal reconstruction of a rod-1 segment, by fast transforms for
   uniform segments of at least the crossover length (O(n log n)) and by the dense mode rows otherwise (O(n^2)).
   The uniform segment modes are the bases of the discrete cosine and sine transforms (docs/theory.md):
     free-free   cos(pi j p/(n-1))              DCT-I both ways
     free-fixed  cos(pi j (p+1/2)/n)            projection a DCT-III, reconstruction a DCT-II
     fixed-free  the same with j -> n-1-j       (the node order reversed)
     fixed-fixed sin(pi (j+1)(p+1)/(n+1))       DST-I both ways
   All are y_k = sum_j x_j trig(pi (j + j0)(k + k0)/D). FFTW's r2r kinds (REDFT00, REDFT01/10, RODFT00) compute them, but
   a plan is per length, and an event changes the long segment's length: a run meets hundreds of lengths, and making
   their plans cost more than the transforms saved (docs/benchmarks.md). So each is computed as a chirp-z (Bluestein)
   convolution: with J = 2(j + j0), K = 2(k + k0), the angle pi J K/(4D) = pi (J^2 + K^2 - (K - J)^2)/(8D), so
     y_k = Re or -Im of  c_K sum_j (x_j c_J) conj(c_{K-J}),  c_q = exp(-i pi q^2/(8D)),
   a linear convolution of length n done by complex FFTs of a size M >= 2n - 1 of the form 2^k or 3 2^k: the plans are
   one pair per M (a handful per run), the chirps and the kernel's transform are kept per (kind, length) in a cache. */
#include "mmmimpl.h"
#include <stdlib.h>
#include <sys/mman.h>

PetscLogEvent SK_MMM_ProjectFFT, SK_MMM_ProjectDense, SK_MMM_NodalFFT, SK_MMM_NodalDense, SK_MMM_Plan;

/* -log_view: the segment passes of the mode matching by path (fast transform or dense rows), and the set-up of plans
   and chirp tables */
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

/* the transforms a segment needs, by (j0, k0, D, sine). The first TR_TABLES index the chirp tables: the DCT-II of a length
   runs on the DCT-III's table (Apply) */
enum { TR_DCT1, TR_DCT3, TR_DST1, TR_DCT2 };
#define TR_TABLES 3

/* The convolution size for length n: the smallest 2^k or 3 2^k >= 2n - 1 (FFTW is fast on both; the second
   family cuts the padding from up to 4n to up to 3n). Sets *idx to the plan slot of that size (2k or 2k + 1). */
static PetscInt ConvSize(PetscInt n, PetscInt *idx)
{
  PetscInt k = 0;
  while (((PetscInt)1 << k) < 2 * n - 1) k++;
  if (k >= 2 && 3 * ((PetscInt)1 << (k - 2)) >= 2 * n - 1) {
    *idx = 2 * (k - 2) + 1;
    return 3 * ((PetscInt)1 << (k - 2));
  }
  *idx = 2 * k;
  return (PetscInt)1 << k;
}

/* NDOUBLES of room for the chirp tables, 2 MB aligned and, where the system has transparent huge pages, backed by them
   (madvise: an advice, ignored where it cannot be followed; the room is then ordinary memory) */
static PetscErrorCode PoolAlloc(size_t ndoubles, double **pool)
{
  const size_t align = (size_t)2 << 20;
  size_t bytes       = ((sizeof(double) * ndoubles + align - 1) / align) * align;
  void *p            = NULL;

  PetscFunctionBegin;
  PetscCheck(posix_memalign(&p, align, bytes) == 0 && p, PETSC_COMM_SELF, PETSC_ERR_MEM, "allocation of %zu bytes of chirp tables failed",
             bytes);
#if defined(MADV_HUGEPAGE)
  (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
  *pool = (double *)p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The room (doubles) of a table of convolution size M with NC chirp values, rounded up to 64 bytes: a table's kernel
   is an output array of the plans, which were made on fftw_malloc's (SIMD-aligned) buffers */
static inline size_t TableRoom(PetscInt M, PetscInt nc)
{
  return (2 * (size_t)(M + nc) + 7) & ~(size_t)7;
}

/* The room of one shared slot: its table at its longest, M = Mmax with pre- and post-chirps of N values */
static inline size_t SlotRoom(const MMMTransforms *tr)
{
  return TableRoom(tr->Mmax, 2 * tr->N);
}

PetscErrorCode SKMMMTransformsCreate(PetscInt N, PetscInt nmin, unsigned flags, MMMTransforms *tr)
{
  PetscInt M, idx;

  PetscFunctionBegin;
  tr->N     = N;
  tr->nmin  = nmin;
  tr->flags = flags;
  M         = ConvSize(N, &idx);
  tr->Mmax  = M;
  /* one chirp table per (kind, length) up to 32 MB of them (all lengths at N = 301; a window of 172 lengths per kind at
     N = 1001, against the few lengths around the long segment's that a run moves through at a time) */
  tr->nslot = TR_TABLES * PetscMin(N + 1, PetscMax(16, (PetscInt)(32.0 * 1024 * 1024 / (16.0 * (M + 2 * N) * TR_TABLES))));
  PetscCall(PetscCalloc2(tr->nslot, &tr->tab, 128, &tr->fwd));
  PetscCall(PetscCalloc1(128, &tr->bwd));
  /* The tables' room is one allocation: when every length has a slot of its own (each table made once) carved in order,
     each table as long as its own length needs (at N = 301 a memalign per table cost more than its chirps); where slots
     are shared, a fixed room of the longest table per slot. Its pages are touched as tables are made, and a first touch
     of a 4 kB page cost about 20 us on the 2-core VM (14 % of the N = 301 solve, docs/benchmarks.md): the room is asked
     for in transparent huge pages where the system has them, one fault per 2 MB. */
  tr->pool_used = 0;
  tr->pool_size = (size_t)tr->nslot * SlotRoom(tr);
  PetscCall(PoolAlloc(tr->pool_size, &tr->pool));
  PetscCall(PetscMalloc3(N, &tr->cx, N, &tr->cs, N, &tr->cc));
  tr->buf  = (double *)fftw_malloc(2 * sizeof(double) * (size_t)M);
  tr->work = (double *)fftw_malloc(2 * sizeof(double) * (size_t)M);
  PetscCheck(tr->buf && tr->work, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_malloc of %" PetscInt_FMT " complex values failed", M);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMMMTransformsDestroy(MMMTransforms *tr)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < 128 && tr->fwd; k++) {
    if (tr->fwd[k]) fftw_destroy_plan(tr->fwd[k]);
    if (tr->bwd[k]) fftw_destroy_plan(tr->bwd[k]);
  }
  PetscCall(PetscFree2(tr->tab, tr->fwd));
  PetscCall(PetscFree(tr->bwd));
  PetscCall(PetscFree3(tr->cx, tr->cs, tr->cc));
  free(tr->pool);
  if (tr->buf) fftw_free(tr->buf);
  if (tr->work) fftw_free(tr->work);
  tr->buf = tr->work = tr->pool = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the forward and backward plans of size M (slot idx, ConvSize), made on first use (flags: FFTW_ESTIMATE or FFTW_MEASURE, see
   docs/benchmarks.md) and kept for the run. Plans are made and run by this rank's thread only. */
static PetscErrorCode GetPlans(MMMTransforms *tr, PetscInt M, PetscInt k, fftw_plan *fwd, fftw_plan *bwd)
{
  PetscFunctionBegin;
  if (!tr->fwd[k]) {
    double *tmp = (double *)fftw_malloc(2 * sizeof(double) * (size_t)M);
    PetscCall(PetscLogEventBegin(SK_MMM_Plan, 0, 0, 0, 0));
    /* out of place into tr->buf's size class; FFTW_MEASURE overwrites the arrays while planning: both are scratch */
    tr->fwd[k] = fftw_plan_dft_1d((int)M, (fftw_complex *)tmp, (fftw_complex *)tr->buf, FFTW_FORWARD, tr->flags);
    tr->bwd[k] = fftw_plan_dft_1d((int)M, (fftw_complex *)tr->buf, (fftw_complex *)tmp, FFTW_BACKWARD, tr->flags);
    PetscCall(PetscLogEventEnd(SK_MMM_Plan, 0, 0, 0, 0));
    fftw_free(tmp);
    PetscCheck(tr->fwd[k] && tr->bwd[k], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan a complex transform of size %" PetscInt_FMT,
               M);
    tr->nplans += 2;
  }
  *fwd = tr->fwd[k];
  *bwd = tr->bwd[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* exp(-i pi q/(8D)) for an integer q, reduced exactly modulo 16D first (q reaches 16 n^2) */
static inline void Chirp(long long q, long long D, PetscReal *re, PetscReal *im)
{
  long long r = q % (16 * D);
  PetscReal s, c;
  if (r < 0) r += 16 * D;
  SKSinCos(-PETSC_PI * (PetscReal)r / (8.0 * (PetscReal)D), &s, &c);
  *re = c;
  *im = s;
}

/* c[j] = exp(-i pi J^2/(8D)) for J = 2j + a, j < n, as Chirp() takes each (the same reduced q, the same angle), with
   J^2 mod 16D by exact integer steps ((J + 2)^2 - J^2 = 4J + 4 < 16D) instead of a 64-bit division each, and the sines
   and cosines in one vectorised batch (x, s, co: n work values each) */
static void ChirpRow(PetscInt n, PetscInt a, long long D, PetscReal x[], PetscReal s[], PetscReal co[], double c[])
{
  long long m = 16 * D, r = ((long long)a * a) % m;

  for (PetscInt j = 0; j < n; j++) {
    long long J = 2 * j + a;
    x[j]        = -PETSC_PI * (PetscReal)r / (8.0 * (PetscReal)D);
    r += 4 * J + 4;
    while (r >= m) r -= m;
  }
  SKSinCosArray(n, x, s, co);
  for (PetscInt j = 0; j < n; j++) {
    c[2 * j]     = co[j];
    c[2 * j + 1] = s[j];
  }
}

/* The chirp table of transform KIND at length n (a direct-mapped cache; rebuilt when another length took the
   slot): the FFT of the kernel conj(c_{K-J}) / M (M), pre-chirp c_J (n), post-chirp c_K (n), in the slot's room.
   A chirp depends only on q^2 (and D), and every |q| the kernel needs is a J or a K of the same table (DCT-I and DST-I:
   J = K, q = 2m; DCT-II/III: the odd q are the odd J or K), so only the 2n (DCT-I, DST-I: n) distinct chirps are
   taken, each once: the same values as one per entry. */
static PetscErrorCode GetTable(MMMTransforms *tr, PetscInt kind, PetscInt n, ChirpTable **tab)
{
  /* j0, k0 (times 2) and D - n of each kind */
  static const PetscInt a2[TR_TABLES] = {0, 0, 2}, b2[TR_TABLES] = {0, 1, 2}, dD[TR_TABLES] = {-1, 0, 1};
  ChirpTable *t = &tr->tab[(n % (tr->nslot / TR_TABLES)) * TR_TABLES + kind]; /* lengths within a window of nslot / 3 never collide */
  PetscInt M, idx;
  long long D = n + dD[kind];

  PetscFunctionBegin;
  if (t->kernel && t->kind == kind && t->n == n) {
    *tab = t;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(SK_MMM_Plan, 0, 0, 0, 0));
  M = ConvSize(n, &idx);
  if (kind == TR_DCT3 && M < 2 * n) M = ConvSize(n + 1, &idx); /* n <= 2: room for the DCT-II's kernel entry below */
  if (!t->kernel) {
    if (tr->nslot / TR_TABLES >= tr->N + 1) {
      /* own slot: carved in order, as long as this length needs (DCT-I, DST-I: the post-chirp is the pre-chirp) */
      const size_t need = TableRoom(M, (a2[kind] == b2[kind] ? 1 : 2) * n);
      PetscCheck(tr->pool_used + need <= tr->pool_size, PETSC_COMM_SELF, PETSC_ERR_PLIB, "chirp tables beyond their room");
      t->kernel = tr->pool + tr->pool_used;
      tr->pool_used += need;
      t->M = M;
    } else { /* shared slot: the room of the longest length */
      t->kernel = tr->pool + (size_t)(t - tr->tab) * SlotRoom(tr);
      t->M      = tr->Mmax;
    }
  }
  t->kind = kind;
  t->n    = n;
  t->Mn   = M;
  t->idx  = idx;
  t->pre  = t->kernel + 2 * t->M;
  t->post = a2[kind] == b2[kind] ? t->pre : t->pre + 2 * n;
  ChirpRow(n, a2[kind], D, tr->cx, tr->cs, tr->cc, t->pre);
  if (a2[kind] != b2[kind]) ChirpRow(n, b2[kind], D, tr->cx, tr->cs, tr->cc, t->post);
  {
    fftw_plan fwd, bwd;
    double *w = tr->buf;
    PetscCall(GetPlans(tr, M, idx, &fwd, &bwd));
    for (PetscInt m = 0; m < M; m++) w[2 * m] = w[2 * m + 1] = 0;
    /* the DCT-III's kernel also holds m = -n: shifted by one, it is the DCT-II's (Apply) */
    for (PetscInt m = kind == TR_DCT3 ? -n : -(n - 1); m <= n - 1; m++) {
      long long q = 2 * m + b2[kind] - a2[kind], aq = q < 0 ? -q : q;
      PetscReal re, im;
      /* c_q from the table entry with the same q^2: J = 2j + a2 or K = 2j + b2 equal to |q| */
      if (aq % 2 == a2[kind] % 2 && aq >= a2[kind] && (aq - a2[kind]) / 2 < n) {
        re = t->pre[aq - a2[kind]];
        im = t->pre[aq - a2[kind] + 1];
      } else if (aq % 2 == b2[kind] % 2 && aq >= b2[kind] && (aq - b2[kind]) / 2 < n) {
        re = t->post[aq - b2[kind]];
        im = t->post[aq - b2[kind] + 1];
      } else
        Chirp(q * q, D, &re, &im);
      w[2 * (m < 0 ? M + m : m)]     = re / M; /* conj(c_q) = exp(+i pi q^2/(8D)); 1/M: FFTW's backward transform is unscaled */
      w[2 * (m < 0 ? M + m : m) + 1] = -im / M;
    }
    fftw_execute_dft(fwd, (fftw_complex *)w, (fftw_complex *)t->kernel);
  }
  tr->ntables++;
  PetscCall(PetscLogEventEnd(SK_MMM_Plan, 0, 0, 0, 0));
  *tab = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y_k from the post-chirp c_K (P) and the convolution's entry (W), complex values (re, im) */
static inline PetscReal PostChirp(PetscInt kind, const double *P, const double *W)
{
  return kind == TR_DST1 ? -(P[0] * W[1] + P[1] * W[0]) : P[0] * W[0] - P[1] * W[1];
}

/* y_k = sum_j x_j trig(pi (j + j0)(k + k0)/D) of transform KIND (cos, or sin for the DST-I), x read and y written in
   reverse node order for a fixed-free segment (REV_IN, REV_OUT) */
static PetscErrorCode Apply(MMMTransforms *tr, PetscInt kind, PetscInt n, PetscBool rev_in, PetscBool rev_out, const PetscReal x[],
                            PetscReal y[])
{
  ChirpTable *t = NULL;
  fftw_plan fwd, bwd;
  double *w;
  const double *pre, *post;
  PetscInt M, shift;

  PetscFunctionBegin;
  /* The DCT-II (J = 2j + 1, K = 2k) on the DCT-III's table (J = 2j, K = 2k + 1; the same D): its pre-chirp is the
     DCT-III's post-chirp and the other way round, and its kernel conj(c_{2m - 1}) is the DCT-III's at m - 1, so its
     convolution is the DCT-III's read one index earlier */
  PetscCall(GetTable(tr, kind == TR_DCT2 ? TR_DCT3 : kind, n, &t));
  pre   = kind == TR_DCT2 ? t->post : t->pre;
  post  = kind == TR_DCT2 ? t->pre : t->post;
  shift = kind == TR_DCT2 ? 1 : 0;
  M     = t->Mn;
  PetscCall(GetPlans(tr, M, t->idx, &fwd, &bwd));
  w = tr->buf;
  for (PetscInt j = 0; j < n; j++) {
    PetscReal xj = rev_in ? x[n - 1 - j] : x[j];
    w[2 * j]     = xj * pre[2 * j];
    w[2 * j + 1] = xj * pre[2 * j + 1];
  }
  for (PetscInt m = n; m < M; m++) w[2 * m] = w[2 * m + 1] = 0;
  fftw_execute_dft(fwd, (fftw_complex *)w, (fftw_complex *)tr->work);
  for (PetscInt m = 0; m < M; m++) {
    PetscReal re        = tr->work[2 * m] * t->kernel[2 * m] - tr->work[2 * m + 1] * t->kernel[2 * m + 1];
    PetscReal im        = tr->work[2 * m] * t->kernel[2 * m + 1] + tr->work[2 * m + 1] * t->kernel[2 * m];
    tr->work[2 * m]     = re;
    tr->work[2 * m + 1] = im;
  }
  fftw_execute_dft(bwd, (fftw_complex *)tr->work, (fftw_complex *)w);
  /* c_K times the convolution: its real part is the cosine sum, minus its imaginary part the sine sum (k = 0 apart: the
     DCT-II reads the convolution's last entry there) */
  y[rev_out ? n - 1 : 0] = PostChirp(kind, post, w + 2 * (shift ? M - 1 : 0));
  for (PetscInt k = 1; k < n; k++) y[rev_out ? n - 1 - k : k] = PostChirp(kind, post + 2 * k, w + 2 * (k - shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The transform of a uniform segment: the projection y_p = sum_j phi_p(j) x_j (PROJECT) or the reconstruction
   y_j = sum_p phi_p(j) x_p; the two differ only for the free-fixed pair (DCT-III and DCT-II: transposes) */
static PetscErrorCode SegTransform(MMMTransforms *tr, const Seg *sg, PetscBool project, const PetscReal x[], PetscReal y[])
{
  PetscBool mirror = (PetscBool)(sg->kind == SEG_FIXED_FREE);

  PetscFunctionBegin;
  switch (sg->kind) {
  case SEG_FREE_FREE:
    PetscCall(Apply(tr, TR_DCT1, sg->n, PETSC_FALSE, PETSC_FALSE, x, y));
    break;
  case SEG_FREE_FIXED:
  case SEG_FIXED_FREE: /* the node order reversed: on the way in for a projection, on the way out for a reconstruction */
    PetscCall(Apply(tr, project ? TR_DCT3 : TR_DCT2, sg->n, (PetscBool)(project && mirror), (PetscBool)(!project && mirror), x, y));
    break;
  case SEG_FIXED_FIXED:
    PetscCall(Apply(tr, TR_DST1, sg->n, PETSC_FALSE, PETSC_FALSE, x, y));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PROJECT: modal sums Y[v][p] = sum_j phi_p(j) X[v][j]; else nodal values Y[v][j] = sum_p phi_p(j) X[v][p]; NV vectors,
   by the transforms for a fast segment, else by the mode rows */
static PetscErrorCode SegPass(MMM *mm, const Seg *sg, PetscBool project, PetscInt nv, const PetscReal *X[], PetscReal *Y[])
{
  PetscInt n          = sg->n;
  PetscLogEvent event = project ? (sg->fast ? SK_MMM_ProjectFFT : SK_MMM_ProjectDense) : (sg->fast ? SK_MMM_NodalFFT : SK_MMM_NodalDense);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(event, 0, 0, 0, 0));
  if (sg->fast) {
    for (PetscInt v = 0; v < nv; v++) PetscCall(SegTransform(&mm->tr, sg, project, X[v], Y[v]));
  } else if (!project && nv == 2 && sg->phi) {
    SKMMMRowDots(sg->phi, n, n, NULL, X[0], X[1], Y[0], Y[1]);
  } else if (project && sg->phi) {
    /* four rows scattered per pass over the modal sums, each sum taking them in the order of the rows as one at a time
       does (bit for bit), with a quarter of the loads and stores of the sums */
    PetscInt j = 0;
    for (PetscInt v = 0; v < nv; v++)
      for (PetscInt p = 0; p < n; p++) Y[v][p] = 0;
    for (; j + 4 <= n; j += 4) {
      const PetscReal *r0 = sg->phi + (size_t)j * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
      for (PetscInt v = 0; v < nv; v++) {
        const PetscReal x0 = X[v][j], x1 = X[v][j + 1], x2 = X[v][j + 2], x3 = X[v][j + 3];
        PetscReal *y = Y[v];
        for (PetscInt p = 0; p < n; p++) {
          PetscReal t = y[p];
          t           = SK_MMM_MADD(t, r0[p], x0);
          t           = SK_MMM_MADD(t, r1[p], x1);
          t           = SK_MMM_MADD(t, r2[p], x2);
          t           = SK_MMM_MADD(t, r3[p], x3);
          y[p]        = t;
        }
      }
    }
    for (; j < n; j++) {
      const PetscReal *row = sg->phi + (size_t)j * n;
      for (PetscInt v = 0; v < nv; v++)
        for (PetscInt p = 0; p < n; p++) Y[v][p] = SK_MMM_MADD(Y[v][p], row[p], X[v][j]);
    }
  } else {
    if (project)
      for (PetscInt v = 0; v < nv; v++)
        for (PetscInt p = 0; p < n; p++) Y[v][p] = 0;
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal *row = SKMMMSegRow(mm, sg, j);
      for (PetscInt v = 0; v < nv; v++) {
        if (project) { /* row j scattered into all modal sums */
          const PetscReal xj = X[v][j];
          for (PetscInt p = 0; p < n; p++) Y[v][p] += row[p] * xj;
        } else { /* row j dotted with the modal values */
          PetscReal s = 0;
          for (PetscInt p = 0; p < n; p++) s += row[p] * X[v][p];
          Y[v][j] = s;
        }
      }
    }
  }
  PetscCall(PetscLogEventEnd(event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMMMSegProject(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *X[], PetscReal *S[])
{
  PetscFunctionBegin;
  PetscCall(SegPass(mm, sg, PETSC_TRUE, nv, X, S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKMMMSegSynthesize(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *Q[], PetscReal *U[])
{
  PetscFunctionBegin;
  PetscCall(SegPass(mm, sg, PETSC_FALSE, nv, Q, U));
  PetscFunctionReturn(PETSC_SUCCESS);
}
