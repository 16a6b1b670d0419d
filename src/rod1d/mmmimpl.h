/* rod1d: private data of the mode-matching method (rodpair_mmm*.c): segments of rod 1 and their cached eigenpairs, the
   per-interval closed-form coefficients and the fast event evaluation. Only the rodpair_mmm*.c files include it. */
#ifndef STICKSLIP_MMMIMPL_H
#define STICKSLIP_MMMIMPL_H

#include "rodpairimpl.h"
#include "shared/sincos.h"
#include <petscblaslapack.h>
#include <fftw3.h>

typedef enum { SEG_FREE_FREE, SEG_FREE_FIXED, SEG_FIXED_FREE, SEG_FIXED_FIXED } SegKind;

typedef struct {
  PetscInt a, n, left, right; /* first node, node count, sticking neighbours (-1: free rod end) */
  SegKind kind;
  PetscReal theta0, dtheta; /* theta_p = theta0 + p dtheta */
  PetscReal mass;           /* modal mass (kg), the same for all p except the free-free end modes */
  const PetscReal *phi;     /* n x n mode matrix, row j = phi_p(j): from the cache below */
  PetscBool general;        /* no closed form: mass-normalised eigenpairs (modal mass 1) of the tridiagonal solve */
  PetscBool fast;           /* uniform and at least the crossover length: projected and reconstructed by fast transforms */
  PetscBool wset;           /* its frequencies mm->w[a, a + n) are current: set by the first coupling step of the interval,
                               or kept from the last interval when the segment was one of it (SKMMMProjectInterval) */
  PetscReal ks, ms;         /* uniform: spring (N/m) and interior node mass (kg) */
  const PetscReal *wg;      /* general: the n frequencies (rad/s), stored after the mode matrix */
} Seg;

/* Mode matrices of uniform segments depend only on (end types, length), those of non-uniform ones on (first node,
   length): a small cache of them keyed so (key SEG_GENERAL + first node for non-uniform ones), preallocated, reused
   across intervals (the same few segments recur as nodes near the tip switch), least recently used slot replaced. A
   non-uniform segment seen before thus costs no new eigen-solve. */
#define SEG_GENERAL 4
typedef struct {
  PetscInt nslot, cap, clock;
  PetscInt *kind, *n, *used;
  PetscReal *data; /* nslot x cap: mode matrix (n x n), then the n frequencies of a non-uniform segment */
} PhiCache;

/* Fast transforms of the uniform segments (rodpair_mmm_fft.c): chirp-z convolutions by complex FFTs of sizes 2^k, 3 2^k.
   A chirp table holds, for one (transform kind, length n), the pre- and post-chirps (n each) and the FFT of the
   convolution kernel (Mn = the smallest 2^k or 3 2^k >= 2n - 1), in M + 2 n complex values of MMMTransforms.pool
   (M >= Mn: a shared slot's room is that of the longest length). */
typedef struct {
  PetscInt kind, n, M, Mn, idx; /* M: room allocated; Mn: the convolution size of length n, idx its plan slot */
  double *kernel, *pre, *post;  /* complex values interleaved (re, im), as fftw_complex */
} ChirpTable;

typedef struct {
  PetscInt N, nmin, Mmax;   /* longest segment; uniform segments of at least nmin nodes use the transforms; largest M */
  unsigned flags;           /* FFTW planner flags of the convolution plans */
  PetscInt nplans, ntables; /* plans and chirp tables made */
  fftw_plan *fwd, *bwd;     /* forward and backward plans of size 2^k (slot 2k) and 3 2^k (slot 2k + 1), NULL until used */
  ChirpTable *tab;          /* nslot chirp tables, direct-mapped by kind and length */
  PetscInt nslot;
  double *buf, *work; /* Mmax complex values each (fftw_malloc) */
  /* room of the chirp tables (SKMMMTransformsCreate): carved in order when every length has a slot, else a fixed room
     per slot; 2 MB aligned, in transparent huge pages where the system has them */
  double *pool;
  size_t pool_size, pool_used; /* in doubles */
  PetscReal *cx, *cs, *cc;     /* work of the chirps' sines and cosines (N each) */
} MMMTransforms;

typedef struct {
  SKRodPair rp;
  PetscInt N, Nm, nseg;
  Seg *seg;
  PetscReal wmax, P0, W, phase, Pc; /* wmax: bound of the rod-1 frequencies (rad/s) */
  /* per rod-1 mode (indexed a + p): frequency and closed-form coefficients of q_p(tau) */
  PetscReal *w, *c0, *c1, *pa, *A, *B, *q0, *qd0, *g0, *g1, *gP;
  PetscReal *phi;                     /* work: one node's mode values */
  PetscReal *us0, *vs, *eta0, *etad0; /* start of the coupling step: sticking nodes, rod 2 */
  PetscReal *eA, *eB, *eQ0, *eS;      /* rod-2 closed form: eta = eQ0/w^2 + eS tau/w^2 + eA cos + eB sin */
  PetscReal *Ffric;                   /* slip friction of each node over the interval (N) */
  PetscReal *gF;                      /* modal projection of the slip friction, phi_p . F / M_p (N) */
  PetscReal *Qslip;                   /* rod-2 modal load of the slip friction over the interval (Nm) */
  PetscReal *alag;                    /* acceleration of each sticking node at the start of the coupling step (N) */
  PetscReal W0, D0;                   /* work and dissipation at the start of the coupling step */
  PetscReal *kfac, *kd, *kx, kdt;     /* StickInertia: Cholesky factor of I + G^T diag(m) G + diag(1/d - 1) for the step
                                         length kdt (< 0: none), d (Nm), work (Nm) */
  PetscBool implicit_mass;            /* the interval's sticking nodes weigh enough on rod 2 for StickInertia (trace of G^T diag(m) G
                                         above SK_MMM_IMPLICIT_MASS) */
  PetscReal dt_sample;
  PhiCache cache;
  MMMTransforms tr;
  PetscReal *rowL, *rowR; /* first and last row of the mode matrix of each segment without one (at [a, a + n)) */
  PetscReal *xw;          /* work: 3 N nodal vectors to project */
  PetscReal *nu, *nv;     /* u, v of the nodes an event evaluation needs (N each) */
  PetscInt *nidx;         /* work: local indices of those nodes in a segment (N) */
  PetscInt *nodes;        /* work: the nodes an event evaluation needs, ascending (N) */
  PetscBool *need;        /* work: the nodes an event evaluation needs (N) */
  PetscInt nodes_min;     /* a segment with at least this many needed nodes is reconstructed whole by the transforms */
  /* segments of the interval that just ended, whose modal values qv, qdv are at its end (SKMMMRememberSegments) and
     its slip friction: a segment of the next interval with the same nodes and ends takes them over unprojected */
  PetscInt nprev, *prev_a, *prev_n, *prev_kind;
  PetscReal *Fprev;
  PetscReal *scratch;                             /* N x N + N: mode matrices of non-uniform segments when the cache is full */
  PetscReal *eigd, *eige, *eigz, *eigw, *eigwork; /* tridiagonal eigen-solve: diagonal, off-diagonal, vectors, values, work */
  PetscBLASInt *eigiwork;                         /* its integer work and support of the vectors */
  /* fast event evaluation: per-segment modal values cached at one tau, rod 2 at one tau, Lipschitz bounds */
  PetscInt *segof;              /* segment of each node, -1 if sticking */
  PetscReal *segtau, *qv, *qdv; /* tau of the cached modal values of each segment; q, qdot (N) */
  PetscReal *cwv, *swv;         /* cos, sin (w_p tau) of the cached modal values (N) */
  PetscReal *arg;               /* work: w_p tau (max(N, N_m)) */
  /* cos, sin (w_p dt) at the end dt = tdt of the coupling step (N), valid for the segments flagged in dtok: the step's
     start asks for them (the end loads of rod 2), its end again after the samples took the cached tau elsewhere */
  PetscReal tdt, *cwd, *swd;
  PetscBool *dtok;
  PetscReal r2tau, *et, *etd, *etdd; /* rod 2 at r2tau */
  PetscReal *etddd;                  /* its third time derivative there (Nm): the rates of the sticking nodes' events */
  PetscReal *devals, *devb;          /* work: rates of the event functions (2N each) for the root finder */
  PetscReal *cw2, *sw2;              /* cos, sin (omega_n r2tau) (Nm) */
  const PetscReal *gstart;           /* coupling (N x Nm) of each slipping node at the interval start: the slip-coupling
                                        cache of the model (SKRodPairSlipCoupling), which nothing changes until the next
                                        interval starts */
  PetscReal *capS;                   /* static capacity mu_s N_F (clipped length) of each node at the interval start (N) */
  PetscReal *bv, *ba;                /* per segment: bounds of |velocity| and |acceleration| of its nodes */
  PetscReal *gmax, *dgl;             /* per node: largest |g_n| of its coupling vector; for sticking i - 1, i the largest
                                        |g_i,n - g_i-1,n| (N each, set per interval) */
  PetscReal *rate;                   /* bound of |d e_j / d tau| per event function (2N) */
  PetscReal **wc;                    /* frequencies of uniform segments by (end types, length), made on first use (4 (N + 1)),
                                        NULL where they could take more than SK_MMM_FREQ_CACHE bytes in all */
  PetscReal *wcks, *wcms;            /* the (ks, ms) each was made for (4 (N + 1)) */
  PetscReal *noise;                  /* round-off level of each event function: a just-switched node is "going the
                                        wrong way" only beyond it (with mu_s = mu_k a release is marginal) */
} MMM;

/* purposes of an event evaluation, counted in rp->mmm_evals (SKRodPairGetMMMEventEvaluations) */
typedef enum { EVAL_SAMPLE, EVAL_BRACKET, EVAL_ROOT, EVAL_WRONG_WAY } EvalKind;

/* trace of G^T diag(m) G (the sticking nodes' mass on rod 2's modes, of modal mass 1) above which their inertia is taken
   implicitly over a coupling step (StickInertia): below it, lagged by a step, it changes nothing measurable */
#define SK_MMM_IMPLICIT_MASS 1e-2

/* largest memory (bytes) the frequencies of all (end types, length) may take for MMM.wc to be kept: the first touch of
   memory is dear (a page fault cost about 20 us on the 2-core VM), and at N = 1001 a run meets lengths it does not see
   again often enough to repay it */
#define SK_MMM_FREQ_CACHE (4 << 20)

#define ETA_OFF(mm) (2 * (mm)->N)
#define ETAD_OFF(mm) (2 * (mm)->N + (mm)->Nm)

/* sin and cos of x: the modal closed forms need them for every mode at every evaluation time (core.h) */
static inline void SinCos(PetscReal x, PetscReal *s, PetscReal *c)
{
  SKSinCos(x, s, c);
}

/* sin and cos of the load phase W (t0 + tau) + phase at tau and at the step start */
typedef struct {
  PetscReal s, c, s0, c0;
} LoadPhase;

/* acc + a b in one rounding where the target has fused multiply-adds, else two (the portable build's scalar loops):
   the interleaved chains of the dense passes round the same way whatever the compiler's vectoriser makes of them */
#if defined(__FMA__)
#define SK_MMM_MADD(acc, a, b) __builtin_fma((a), (b), (acc))
#else
#define SK_MMM_MADD(acc, a, b) ((acc) + (a) * (b))
#endif

/* Rows of a mode matrix PHI (n x n, row j = node j) dotted with two modal vectors: Y0[r] = sum_p phi_p(j) X0[p] and
   Y1[r] likewise for the NR rows j = ROWS[r] (ROWS NULL: j = r). One row's sum is a chain of dependent multiply-adds in
   the order p = 0 .. n - 1, bound by their latency; four rows' eight chains share a pass so that they fill the
   arithmetic units, each in the same order as alone (the results are those of a row at a time, bit for bit). */
static inline void SKMMMRowDots(const PetscReal *phi, PetscInt n, PetscInt nr, const PetscInt rows[], const PetscReal *x0,
                                const PetscReal *x1, PetscReal y0[], PetscReal y1[])
{
  PetscInt r = 0;

  for (; r + 4 <= nr; r += 4) {
    const PetscReal *a = phi + (size_t)(rows ? rows[r] : r) * n, *b = phi + (size_t)(rows ? rows[r + 1] : r + 1) * n;
    const PetscReal *c = phi + (size_t)(rows ? rows[r + 2] : r + 2) * n, *d = phi + (size_t)(rows ? rows[r + 3] : r + 3) * n;
    PetscReal a0 = 0, a1 = 0, b0 = 0, b1 = 0, c0 = 0, c1 = 0, d0 = 0, d1 = 0;
    for (PetscInt p = 0; p < n; p++) {
      a0 = SK_MMM_MADD(a0, a[p], x0[p]), a1 = SK_MMM_MADD(a1, a[p], x1[p]);
      b0 = SK_MMM_MADD(b0, b[p], x0[p]), b1 = SK_MMM_MADD(b1, b[p], x1[p]);
      c0 = SK_MMM_MADD(c0, c[p], x0[p]), c1 = SK_MMM_MADD(c1, c[p], x1[p]);
      d0 = SK_MMM_MADD(d0, d[p], x0[p]), d1 = SK_MMM_MADD(d1, d[p], x1[p]);
    }
    y0[r] = a0, y0[r + 1] = b0, y0[r + 2] = c0, y0[r + 3] = d0;
    y1[r] = a1, y1[r + 1] = b1, y1[r + 2] = c1, y1[r + 3] = d1;
  }
  for (; r < nr; r++) {
    const PetscReal *a = phi + (size_t)(rows ? rows[r] : r) * n;
    PetscReal a0 = 0, a1 = 0;
    for (PetscInt p = 0; p < n; p++) a0 = SK_MMM_MADD(a0, a[p], x0[p]), a1 = SK_MMM_MADD(a1, a[p], x1[p]);
    y0[r] = a0, y1[r] = a1;
  }
}

/* rodpair_mmm_segments.c */
/* row j of the mode matrix (phi_p(j), p = 0..n-1); valid until the next call */
PETSC_INTERN const PetscReal *SKMMMSegRow(MMM *mm, const Seg *sg, PetscInt j);
PETSC_INTERN PetscErrorCode SKMMMBuildSegments(MMM *mm);
/* u, v at the current modal values (SKMMMSegModes) of the K local nodes IDX of segment SG into U, V */
PETSC_INTERN void SKMMMSegNodesUV(MMM *mm, const Seg *sg, PetscInt k, const PetscInt idx[], PetscReal U[], PetscReal V[]);
/* modal mass of mode p of segment S (kg; 1 for the mass-normalised modes of a non-uniform one): inline, since the
   per-step coefficients and the dissipation ask for it once per mode */
static inline PetscReal SKMMMModalMass(const Seg *s, PetscInt p)
{
  if (s->general) return 1;
  if (s->kind == SEG_FREE_FREE && (p == 0 || p == s->n - 1)) return 2 * s->mass;
  return s->mass;
}
/* Once per interval (fixed stick/slip state): modal coordinates of every segment from the nodal state (a transform or
   a dense pass per segment, none for a segment the event left unchanged), and the modal projection of the (constant)
   slip friction. Later coupling steps of the same interval carry
   the modal coordinates over in closed form and only re-project the sparse end loads. */
PETSC_INTERN PetscErrorCode SKMMMProjectInterval(MMM *mm, const PetscReal y[]);
/* Records the segments of the ending interval, but not those holding a node flagged in TRIGGER[2N] (it switches); their
   modal values qv, qdv must be those at its end (SKMMMStateAt). */
PETSC_INTERN void SKMMMRememberSegments(MMM *mm, const PetscBool trigger[]);
/* Sets the end type KIND of a segment with n nodes and its closed-form mode parameters (theta0, dtheta, modal mass from
   sg->ms); the segment's n and ms must be set. */
PETSC_INTERN void SKMMMSegSetKind(Seg *sg, SegKind kind);
/* Keeps the first and last mode rows of a segment without a mode matrix (in mm->rowL, rowR at [a, a + n)): the end
   loads, the work of P and the sticking neighbours' events need them at every step. */
PETSC_INTERN void SKMMMSegEndRows(MMM *mm, const Seg *sg);

/* rodpair_mmm_fft.c */
PETSC_EXTERN PetscLogEvent SK_MMM_ProjectFFT, SK_MMM_ProjectDense, SK_MMM_NodalFFT, SK_MMM_NodalDense, SK_MMM_Plan;
PETSC_INTERN PetscErrorCode SKMMMRegisterLogEvents(void);
PETSC_INTERN PetscErrorCode SKMMMTransformsCreate(PetscInt N, PetscInt nmin, unsigned flags, MMMTransforms *tr);
PETSC_INTERN PetscErrorCode SKMMMTransformsDestroy(MMMTransforms *tr);
/* Modal sums S[v][p] = sum_j phi_p(j) X[v][j], p = 0..n-1, of NV nodal vectors of segment SG (not divided by the modal
   mass): by the fast transform when sg->fast, else by the mode rows */
PETSC_INTERN PetscErrorCode SKMMMSegProject(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *X[], PetscReal *S[]);
/* Nodal values U[v][j] = sum_p phi_p(j) Q[v][p], j = 0..n-1, of NV modal vectors of segment SG */
PETSC_INTERN PetscErrorCode SKMMMSegSynthesize(MMM *mm, const Seg *sg, PetscInt nv, const PetscReal *Q[], PetscReal *U[]);

/* rodpair_mmm_twopiece.c */
/* Mass-normalised eigenpairs of a segment of N nodes made of two uniform chains joined at one node, in closed form
   (secular equation of the joint): springs KL to a held left neighbour (0: a free rod end), SP[j] between nodes j and
   j + 1 (n - 1 of them), KR to a held right neighbour (0: free), node masses MASS (n). Writes PHI (n x n, row j =
   phi_p(j)) and W (n, rad/s, ascending) and sets *DONE; *DONE is false, and nothing is written, when the segment is
   not of that form or two poles of its pieces nearly coincide (then the general eigen-solve). WORK: 3 n values. */
PETSC_INTERN PetscErrorCode SKMMMTwoPieceEigen(PetscInt n, PetscReal kl, const PetscReal sp[], PetscReal kr, const PetscReal mass[],
                                               PetscReal work[], PetscReal phi[], PetscReal w[], PetscBool *done);

/* rodpair_mmm_closed.c */
/* Closed-form coefficients of every mode for a coupling step from t0, given q0, qd0: constant friction and Pc, the
   ramps k (us0 + vs tau) of the sticking end neighbours, and P0 sin(W t + phase) at node 0 */
PETSC_INTERN void SKMMMSetupCoefficients(MMM *mm, PetscReal t0);
/* modal values of segment s at tau (q, qdot, cos and sin of w tau), cached until the tau or the coefficients change:
   one sin/cos per mode and evaluation time (a vectorised batch), shared by the nodal values, the events, the energy
   terms and EndStep. Flexible modes: q = c0 + c1 tau + pa sin(W t + phase) + A cos(w tau) + B sin(w tau). */
PETSC_INTERN void SKMMMSegModes(MMM *mm, PetscInt s, PetscReal t0, PetscReal tau);
/* rod 2 in closed form at tau of the coupling step (cached) */
PETSC_INTERN void SKMMMRod2At(MMM *mm, PetscReal tau);
/* Full state at tau of the current coupling step: rod 1 (segments in closed form, sticking nodes following rod 2),
   rod 2 in closed form, work of P and dissipation (constant slip forces), all exact for the closed forms. */
PETSC_INTERN PetscErrorCode SKMMMStateAt(MMM *mm, PetscReal t0, PetscReal tau, PetscReal y[], PetscBool rod1);
/* displacement and velocity of node i at tau from the closed forms */
PETSC_INTERN void SKMMMNodeUV(MMM *mm, PetscReal t0, PetscReal tau, PetscInt i, PetscReal *u, PetscReal *v);

#endif
