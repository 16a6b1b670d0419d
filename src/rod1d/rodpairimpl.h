/* Private data of the rod pair: the semi-discrete model (pure kernels on plain arrays) and the integrator workspace. */
#ifndef STICKSLIP_RODPAIRIMPL_H
#define STICKSLIP_RODPAIRIMPL_H

#include <stickslip/rod1d.h>

/* The semi-discrete model. Rod 1: node masses, springs between consecutive nodes, tributary half-lengths.
   Rod 2 (uniform): mode n has shape psi_n(z) = psi_amp cos(k_n z), k_n = (2n - 1) pi / (2 L2), frequency omega_n = c2 k_n.
   Rod 2 (layered, rodpair_rod2.c): in layer j, [zl_j, zl_j+1], psi_n(z) = R_nj cos(phi_nj + omega_n (z - zl_j) / c_j),
   with amplitudes and phases from the transfer matrices of the layers; psi_amp is then max R_nj, a bound of |psi_n|.
   Node i in contact loads rod 2 uniformly over its tributary segment [zbar_i - hl_i, zbar_i + hr_i] clipped to [0, L2];
   it "sees" the average rod-2 velocity over that segment, g_i . etadot, with g_in = average of psi_n on the segment. */
typedef struct {
  PetscInt N, Nm;
  PetscReal l1, L2;
  PetscReal *z;             /* material coordinate of node i (m) */
  PetscReal *mass;          /* lumped mass (kg) */
  PetscReal *spring;        /* N - 1 spring stiffnesses EA1/h (N/m) */
  PetscReal *hl, *hr;       /* tributary half-lengths to the left / right (m) */
  PetscReal *cap_s, *cap_k; /* mu_s NF, mu_k NF (N/m): times the clipped tributary length they give the force */
  PetscReal *omega;         /* rod-2 modal frequencies (rad/s) */
  PetscReal k1;             /* uniform rod 2: wavenumber of mode 1 (1/m); k_n = (2n - 1) k1 */
  PetscReal psi_amp;        /* uniform rod 2: the modes' amplitude sqrt(2 / (rho A2 L2)); layered: the largest R_nj */
  /* layered rod 2 (nlay2 > 0; 0 for a uniform one) */
  PetscInt nlay2;
  PetscReal *zl2;           /* nlay2 + 1 layer boundaries from 0 to L2 (m) */
  PetscReal *slow2;         /* 1 / c_j per layer (s/m) */
  PetscReal *amp2, *phase2; /* R_nj, phi_nj at [n * nlay2 + j] (m^-1/2 kg^-1/2, rad) */
  PetscReal rod2_root_rtol; /* relative bracket width the frequencies were located to */
  PetscReal omega1_rod1;    /* first flexible frequency of rod 1 (rad/s), for tolerance scaling */
  PetscBool uniform1;       /* rod 1 uniform (no segments): spacing, masses and springs by the closed formulas */
  /* depth-dependent friction (nfric > 0 points; cap_s, cap_k then hold the largest mu N_F, a bound) */
  PetscInt nfric;
  PetscReal *fz, *fmus, *fmuk, *fnf; /* depth (m), mu_s, mu_k (-), N_F (N/m) at the points */
} SKRodPairModel;

/* Builds the model of a rod pair (rod 1 uniform or in segments: element springs EA/h in series, lumped masses); frees with
 * SKRodPairModelDestroy. */
PETSC_INTERN PetscErrorCode SKRodPairModelCreate(const SKRodPairParams *p, SKRodPairModel *m);
PETSC_INTERN PetscErrorCode SKRodPairModelDestroy(SKRodPairModel *m);
/* Rod 2's modes (rodpair_rod2.c): fills omega, psi_amp and k1 (uniform) or the layer tables (layered) of M from P. The
   layered frequencies are the roots of the Pruefer phase of the transfer-matrix solution, located by bisection. */
PETSC_INTERN PetscErrorCode SKRodPairRod2Modes(const SKRodPairParams *p, SKRodPairModel *m);
PETSC_INTERN PetscErrorCode SKRodPairRod2Destroy(SKRodPairModel *m);
/* Mode shape psi_n(z) of rod 2 (z in [0, L2]). */
PETSC_INTERN PetscReal SKRodPairRod2Shape(const SKRodPairModel *m, PetscInt n, PetscReal z);
/* Layered rod 2: g[n] = integral of psi_n over [a, b] (0 <= a < b <= L2), divided by (b - a). */
PETSC_INTERN void SKRodPairRod2Average(const SKRodPairModel *m, PetscReal a, PetscReal b, PetscReal g[]);
/* Coupling vector g[Nm] of a node at position zbar with half-lengths hl, hr (see above). Returns the clipped length. */
PETSC_INTERN PetscReal SKRodPairCoupling(const SKRodPairModel *m, PetscReal zbar, PetscReal hl, PetscReal hr, PetscReal g[]);
/* SKRodPairCoupling of K nodes IDX[] at positions ZBAR[] into G[b] (Nm each) and their clipped lengths LEN[b], four
   at a time in vector lanes: the same operations per node (COUPLING_DOUBLE, COUPLING_ROTATE), though the compiler may
   contract the vectorised sin/cos into FMAs otherwise than the scalar one (values within an ulp or two). Returns how
   many it did (a multiple of 4, in order; 0 for a layered rod 2; it stops at a group with a node off rod 2): the
   caller does the rest. */
PETSC_INTERN PetscInt SKRodPairCouplings(const SKRodPairModel *m, PetscInt k, const PetscInt idx[], const PetscReal zbar[], PetscReal *g[],
                                         PetscReal len[]);
/* Friction capacity (N) of node i at position zbar on rod 2: the integral of mu N_F over its clipped tributary segment,
   mu = mu_k (KINETIC) or mu_s. Uniform friction: cap times the clipped length. */
PETSC_INTERN PetscReal SKRodPairCapacity(const SKRodPairModel *m, PetscInt i, PetscReal zbar, PetscBool kinetic);
/* Internal force -K u at each node (N). */
PETSC_INTERN void SKRodPairInternalForce(const SKRodPairModel *m, const PetscReal u[], PetscReal f[]);
/* Energies of rod 1 (kinetic, strain) and rod 2 (kinetic, strain) for a state. */
PETSC_INTERN void SKRodPairModelEnergy(const SKRodPairModel *m, const PetscReal u[], const PetscReal v[], const PetscReal eta[],
                                       const PetscReal etad[], PetscReal e[4]);
/* Is zbar on rod 2? */
static inline PetscBool SKRodPairOnRod2(const SKRodPairModel *m, PetscReal zbar)
{
  return (zbar >= 0 && zbar <= m->L2) ? PETSC_TRUE : PETSC_FALSE;
}

/* Event kinds, per node. */
typedef enum {
  SK_EV_NONE,
  SK_EV_SLIP_ZERO,  /* relative velocity of a slipping node reached zero */
  SK_EV_STICK_FREE, /* holding force of a sticking node reached mu_s NF h */
  SK_EV_CONTACT     /* node entered or left rod 2 */
} SKRodEventKind;

/* Branch of the cushion law (Smith): loading at stiffness k (F = k d), unloading and reloading at k / e^2 along the line
   through (dmax, k dmax), open (the ram has left: F = 0 until the next blow). d = w - u1(0), the compression. */
typedef enum { SK_CUSHION_OPEN, SK_CUSHION_LOADING, SK_CUSHION_UNLOADING } SKRodCushionState;

struct _p_SKRodPair {
  MPI_Comm comm;
  SKRodPairParams params;
  SKRodPairModel model;
  SKRodPairLoadFn load;
  void *load_ctx;

  /* state y = [u (N), v (N), eta (Nm), etad (Nm), (w, wdot: ram, with a hammer), work, dissipated], time, node states */
  PetscInt n;
  PetscInt nev; /* event functions: two per node, two more for a hammer's cushion */
  /* hammer (params.ram_mass > 0): the cushion's branch of Smith's law, its largest compression dmax of the contact, and
     the energies of earlier blows (what their rams and cushions carried away, the cushion losses) */
  PetscBool hammer;
  SKRodCushionState cushion, prev_cushion;
  PetscReal dmax, hammer_input, hammer_left, cushion_loss_done, out_force, out_ram_velocity;
  PetscReal t, *y;
  SKRodNodeState *state, *prev_state; /* prev_state: before the last SKRodPairResolve() */
  PetscBool *armed;                   /* event function of the node has been seen positive since its last switch */
  PetscInt *redecided;                /* times the node was re-decided at t = redecide_t (SKRodPairWrongWay) */
  PetscReal redecide_t;
  PetscReal *gstick;                /* N x Nm: coupling vectors of sticking nodes, frozen when they stuck */
  PetscReal *gslip, *zslip, *lslip; /* N x Nm, N, N: the last coupling vector computed for each slipping node, its position
                                       zbar (PETSC_MAX_REAL: none) and clipped length (SKRodPairSlipCoupling) */
  PetscReal *gram;                  /* N x N: g_i . g_k for sticking nodes */
  PetscBool factored;
  PetscInt nstick, *stick_idx; /* sticking nodes of the current factorization */
  PetscReal *chol;             /* Nm x Nm Cholesky factor of I + G^T diag(m) G (diag(1/m) + G G^T by Woodbury) */
  PetscReal *capm;             /* the same matrix I + G^T diag(m) G unfactored: rod 2's modal mass with the sticking nodes */
  PetscReal *mg;               /* work (Nm): m_i g_i of one node while C is formed */
  PetscReal *gout;             /* work (N x Nm): the slipping nodes' coupling vectors at an output (SKRodPairOutput) */
  PetscInt *cw_idx;            /* work (N each): the nodes of a batch of couplings (SKRodPairSlipCouplingsAt), their */
  PetscReal *cw_zbar, *cw_len; /* positions, lengths and coupling vectors; in a right-hand side the slipping nodes in */
  PetscReal **cw_g;            /* their order with their couplings, then the sticking nodes' couplings and projections */

  /* results of the last right-hand-side evaluation */
  PetscReal *force; /* friction force on each node of rod 1 (N) */
  PetscReal *vrel;  /* v1 - g . etad for nodes in contact (m/s) */
  PetscReal *fint, *b, *g, *rhs;

  /* integrator */
  PetscReal rtol, atol, hmax, h;
  PetscReal *atolv;
  PetscReal *k[7], *ytmp, *ynew, *yint, *rcont[5], *evals0, *evals1;
  PetscBool *watch, *trigger; /* RK45: the event functions watched over a step, and those that switch (nev each) */
  PetscInt nbreak;
  PetscReal *breaks;
  PetscReal dt_out, t_next_out;
  SKRodPairMonitorFn monitor;
  void *monitor_ctx;
  PetscReal *vrel_out;
  PetscInt steps, rejected, rhs_evals, events;
  /* mode matching: P(t) = Pc + P0 sin(W t + phase), Pc constant between breakpoints; sampling and coupling steps as
     fractions of 1/omega_max */
  PetscBool load_form_set;
  PetscReal load_P0, load_W, load_phase;
  PetscReal mmm_sample, mmm_coupling;
  PetscBool mmm_eigen_always;                            /* SKRodPairSetMMMEigenSolve() */
  PetscInt mmm_eig_solves, mmm_eig_hits, mmm_eig_closed; /* SKRodPairGetMMMEigenCounts() */
  PetscInt mmm_transform_min, mmm_nodes_min;             /* SKRodPairSetMMMTransforms() */
  PetscBool mmm_fft_measure;
  PetscInt mmm_plans, mmm_tables;                /* FFTW plans and chirp tables made by the last solve */
  PetscInt mmm_evals[SK_RODPAIR_MMM_EVAL_KINDS]; /* event evaluations of the last solve by purpose (SKRodPairGetMMMEventEvaluations) */
  PetscReal work_max;
  /* rod 2's modal truncation (SKRodPairOutput): sums over the output times and the slipping nodes of the squared rod-2
     velocity under the node carried by the top half of the retained modes, and of the squared relative velocity (the
     modes carry a sticking node along with rod 2; they decide when a slipping one sticks) */
  PetscReal trunc_band2, trunc_rel2;
};

/* Right-hand side dy/dt at (t, y) with the current node states; fills rp->force and rp->vrel. */
PETSC_INTERN PetscErrorCode SKRodPairRHS(SKRodPair rp, PetscReal t, const PetscReal y[], PetscReal dy[]);
/* Event function of each node for the state last passed to SKRodPairRHS (positive while nothing happens). */
PETSC_INTERN void SKRodPairEventValues(SKRodPair rp, const PetscReal y[], PetscReal e[]);
/* Switches the nodes that triggered (e <= 0 in ev) at state (t, y) and makes the stick set consistent. */
PETSC_INTERN PetscErrorCode SKRodPairResolve(SKRodPair rp, PetscReal t, PetscReal y[], const PetscBool trigger[]);
/* After an event (states switched by SKRodPairResolve(), rp->evals0 evaluated at the new state): arms the functions of
   the nodes that did not switch and are positive, disarms non-positive ones. Switched nodes are armed later, when
   their function is first seen positive. */
PETSC_INTERN void SKRodPairArmAfterEvent(SKRodPair rp);
/* Marks in trigger[2N] the just-switched (unarmed) event functions that went negative at time t, e = their values,
   and returns whether any did: those nodes are re-decided at t by SKRodPairResolve(). A slipping node that was already
   re-decided twice at the same t sits at a tangency of the Coulomb law (holding force exactly at the cap, relative
   acceleration zero to first order): its state flips between stick and slip without time advancing. It is then kept
   slipping with its force at the cap, the boundary of the Filippov set, until its relative velocity leaves zero. */
PETSC_INTERN PetscBool SKRodPairWrongWay(SKRodPair rp, PetscReal t, const PetscReal e[], PetscBool trigger[]);
/* The parts of SKRodPairWrongWay() for integrators with their own wrong-way test (MMM): is node i a slipping node
   already re-decided twice at time t; count the nodes flagged in trigger[2N] as re-decided at t. */
PETSC_INTERN PetscBool SKRodPairAtTangency(SKRodPair rp, PetscReal t, PetscInt i);
PETSC_INTERN void SKRodPairCountRedecided(SKRodPair rp, PetscReal t, const PetscBool trigger[]);
/* The smallest watched (normalised) event function at the point x of a bracket, for SKRodPairLocateEvent(). */
typedef PetscErrorCode (*SKRodPairEventMinFn)(void *ctx, PetscReal x, PetscReal *fmin);
/* Earliest crossing in the bracket [a, b] with f(a) = fa > 0 >= f(b) = fb: regula falsi with the Illinois
   modification (the retained end's value is halved when the same side is kept twice) and a bisection every 8th
   iteration, until (b - a) scale <= tol or 100 iterations. *root = the final right end b, where f <= 0. Shared by
   the RK45 (on its dense output) and MMM (on its closed form) solvers. */
PETSC_INTERN PetscErrorCode SKRodPairLocateEvent(SKRodPairEventMinFn f, void *ctx, PetscReal a, PetscReal b, PetscReal fa, PetscReal fb,
                                                 PetscReal scale, PetscReal tol, PetscReal *root);
/* Dense Cholesky A = L L^T in place (lower triangle, row-major n x n; fails if A is not positive definite), and the
   solve x = A^-1 x with the factor: the Nm x Nm capacitance matrix of the stick systems (FactorStick), reused for every
   right-hand side until the stick set changes, and the MMM's implicit stick inertia. */
PETSC_INTERN PetscErrorCode SKRodPairCholeskyFactor(PetscInt n, PetscReal A[]);
PETSC_INTERN void SKRodPairCholeskySolve(PetscInt n, const PetscReal L[], PetscReal x[]);
/* The Nm x Nm matrix I + G^T diag(m) G of the current stick set (G: the sticking nodes' frozen coupling vectors), rod
   2's modal mass matrix with the sticking nodes riding on it; valid until the stick set changes. */
PETSC_INTERN PetscErrorCode SKRodPairStickCapacitance(SKRodPair rp, const PetscReal **C);
/* Sets the velocity of every sticking node to the rod-2 velocity it sticks to. */
PETSC_INTERN void SKRodPairProjectStick(SKRodPair rp, PetscReal y[]);
/* The coupling vector (SKRodPairCoupling) of node i at zbar, and its clipped length in LEN (if not NULL): kept per node
   and recomputed only when zbar changed, since the switching logic and the mode matching ask for it several times at
   the same state (before and after a switch, at the next interval's start) */
PETSC_INTERN const PetscReal *SKRodPairSlipCoupling(SKRodPair rp, PetscInt i, PetscReal zbar, PetscReal *len);
/* The coupling vectors of the slipping nodes of the state y by SKRodPairCouplings (four at a time): with GOUT NULL into
   the SKRodPairSlipCoupling cache, for the nodes whose position moved (the switching at an event asks for all of them
   at once), else into the rows of GOUT (N x Nm) */
PETSC_INTERN PetscErrorCode SKRodPairSlipCouplingsAt(SKRodPair rp, const PetscReal y[], PetscReal gout[]);
PETSC_INTERN PetscErrorCode SKRodPairSolveRK45(SKRodPair rp, PetscReal t_end);
PETSC_INTERN PetscErrorCode SKRodPairSolveMMM(SKRodPair rp, PetscReal t_end);
PETSC_INTERN PetscErrorCode SKRodPairSolveCVODE(SKRodPair rp, PetscReal t_end);
PETSC_INTERN PetscErrorCode SKRodPairEnergyOf(SKRodPair rp, const PetscReal y[], SKRodPairEnergy *e);
PETSC_INTERN PetscErrorCode SKRodPairOutput(SKRodPair rp, PetscReal t, const PetscReal y[]);

#endif
