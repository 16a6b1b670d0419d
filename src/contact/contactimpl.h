/* contact: private structures of the contact pair (contact_pair.c), its master surfaces (contact_surface.c) and the deformable surface
 * (contact_mesh.c); only src/contact and white-box tests include it. */
#ifndef STICKSLIP_CONTACTIMPL_H
#define STICKSLIP_CONTACTIMPL_H

#include <stickslip/contact.h>

#define SK_CONTACT_MAX_STATE 8       /* friction state values per node the implicit damping's difference quotient takes */
#define SK_CONTACT_DAMPING_MAX_IT 8  /* regula falsi steps for a node's implicit damping per step (SKContactPairDampedAccelerations()) */
#define SK_CONTACT_DAMPING_RTOL 1e-3 /* and their tolerance on c, relative to c_max */

/* The contact dt (SKContactPairGetContactStep()): SK_CONTACT_SWITCH_MARGIN / omega_c at the stiffest contact node, omega_c^2
   = (eps_N w_a + k_t) / m_a (plus the master's), the frequency of the node on its contact springs alone. The closed
   spring alone allows 2 / omega_c; a one-sided spring that opens and closes needs a margin (measured on the Hertz case
   at 1 to 100 times its penalty: docs/theory.md, "Energy of contact"). */
#define SK_CONTACT_SWITCH_MARGIN 0.8
#define SK_CONTACT_MAX_SUPPORT 32       /* master nodes one slave node's reaction may go to (3D mortar distribution) */
#define SK_CONTACT_MORTAR_SUPPORT_2D 16 /* and in 2D */
#define SK_CONTACT_PROJECT_BLOCK 16     /* slave nodes a pair projects at once (SKContactSurfaceOps projectmany) */

/* The master nodes a slave node's reaction goes to and their shares: the face it projects onto with the shape values
   there, or (mortar distribution, 2D) the master nodes under its slave faces with int N_a N_b / int N_a. */
typedef struct {
  PetscInt face, n;                      /* the face projected onto (-1: none); number of master nodes */
  PetscInt node[SK_CONTACT_MAX_SUPPORT]; /* master node indices */
  PetscReal N[SK_CONTACT_MAX_SUPPORT];   /* shares, summing to 1 */
  PetscBool weighted;                    /* 3D mortar shares: xw, vw are their point's position and velocity */
  PetscReal xw[3], vw[3];                /* sum_b N_b x_b, sum_b N_b v_b of the master nodes (the gap's other end) */
} SKContactSupport;

/* A bucket grid of boxes (contact_mesh.c): cells of size cell (1 / inv_cell) from lo, ncell per direction; cell c lists,
   ascending, the boxes cfaces[cstart[c] .. cstart[c + 1]) that touch it when grown by the pad of the last fill; mcells
   and mfaces the allocated lengths of cstart and cfaces. */
typedef struct {
  PetscReal lo[3], cell, inv_cell;
  PetscInt ncell[3], *cstart, *cfaces, mcells, mfaces;
} SKContactGrid;
/* Fills the lists of grid G (lo, cell, inv_cell and ncell set by the caller, unused directions 1 cell) with the N boxes
   BOX + b STRIDE (lo, hi per direction, DIM directions) grown by PAD: a box's cells are those of its corners, clamped to
   the grid. */
PETSC_INTERN PetscErrorCode SKContactGridFill(SKContactGrid *g, PetscInt dim, PetscInt n, const PetscReal box[], PetscInt stride,
                                              PetscReal pad);
/* The cell of point X in G, or -1 outside it. */
static inline PetscInt SKContactGridFind(const SKContactGrid *g, PetscInt dim, const PetscReal x[])
{
  PetscInt c = 0;
  for (PetscInt d = dim - 1; d >= 0; d--) {
    const PetscReal r = PetscFloorReal((x[d] - g->lo[d]) * g->inv_cell);
    if (r < 0 || r >= g->ncell[d]) return -1;
    c = c * g->ncell[d] + (PetscInt)r;
  }
  return c;
}
PETSC_INTERN PetscErrorCode SKContactGridDestroy(SKContactGrid *g);

/* The mortar shares of the faces of a slave surface (contact_mortar.c). */
typedef struct _n_SKContactMortarCache *SKContactMortarCache;

struct _p_SKContactMeshSurface {
  MPI_Comm comm;
  PetscMPIInt size;        /* ranks of comm */
  PetscInt dim, nfn;       /* space dimension, nodes per face */
  PetscInt nnodes, nfaces; /* master nodes and faces (global, replicated) */
  PetscInt *faces;         /* nfaces * nfn master node indices, faces sorted by face_key */
  PetscInt *face_key;      /* natural element * 8 + local face */
  PetscInt *natural;       /* natural number of each master node (sorted) */
  PetscInt *local;         /* its owned local node on this rank, or -1 */
  PetscReal *X0;           /* reference coordinates (nnodes * dim) */
  PetscReal *mass, *w;     /* lumped masses (kg) and weights int N_b dA (reference) of the master nodes */
  PetscReal hmin, hmax;    /* smallest face size (length, or square root of the area) and longest edge (m) */
  PetscReal *xv;           /* current positions and velocities, 2 dim per node (gathered each evaluation) */
  PetscReal *fbox;         /* bounding box of each face at xv: per face and direction the lowest and highest coordinate */
  PetscReal *sendbuf;      /* this rank's part of xv */
  PetscReal *react;        /* reactions on the master nodes of this evaluation (nnodes * dim, N) */
  PetscInt nslave;         /* slave nodes of the pair (global) and their natural numbers, sorted */
  PetscInt *slave_natural;
  PetscInt row_support; /* master nodes per slave row: the face's nodes (point distribution), the mortar limit (2D, 3D) */
  PetscInt slave_width; /* per slave node in slave_buf: n, force on the slave (dim), row_support pairs (master node, share) */
  PetscReal *slave_buf;
  /* bucket grid of the faces' bounding boxes grown by margin, at the positions xgrid of the last build */
  SKContactGrid grid;
  PetscReal *xgrid, margin, depth;
  PetscInt nrebuild;
  PetscReal *cand_d2; /* scratch of the search: box distances of one cell's candidates (ncand per point of a block) */
  PetscInt ncand;
  PetscInt refct;               /* pairs holding the surface (two passes share both sides) */
  PetscInt *nstart, *nfaces_of; /* faces of each node (CSR over nodes), built on first use */
  PetscInt nupdate;             /* updates of xv so far (SKContactMeshSurfaceUpdate()) */
  SKContactMortarCache mortar;  /* as the slave side of a 3D mortar distribution: its face shares, or NULL */
  PetscReal mortar_tol;         /* and the move of a face, relative to its size, that makes its shares be computed again */
  PetscReal *mortar_restore;    /* a checkpoint's per-face epochs for the cache, until it takes them (or NULL) */
  PetscInt mortar_nrestore;
};

/* contact_mesh.c */
/* Rebuilds the bucket grid at the current positions. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceBuildGrid(SKContactMeshSurface);
/* Gathers the current positions X + u and velocities v (local arrays) of the master nodes, zeroes the reactions and
   rebuilds the grid when a master node has moved more than margin - depth since the last build. Collective. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceUpdate(SKContactMeshSurface, const PetscReal X[], const PetscReal u[], const PetscReal v[]);
/* Projection of x onto the nearest candidate face: distance, point, normal, tangents, velocity (interpolated) into P,
   the face's nodes and shape values into S (S->face = -1 and P->distance = PETSC_MAX_REAL when no face is near). */
PETSC_INTERN PetscBool SKContactMeshSurfaceProject(SKContactMeshSurface, const PetscReal x[], SKSurfaceProjection *p, SKContactSupport *s);
/* SKContactMeshSurfaceProject() of the N points X[N * dim] into P[N] and S[N], the same result for each; faster than
   one call per point (the projections of a block of points overlap). */
PETSC_INTERN void SKContactMeshSurfaceProjectMany(SKContactMeshSurface, PetscInt n, const PetscReal x[], SKSurfaceProjection p[],
                                                  SKContactSupport s[]);
/* The pair's N owned slave nodes by their NATURAL numbers: their places SLOT[n] in the global list. A slave node's
   reaction goes to at most MAX_SUPPORT master nodes (nfn <= MAX_SUPPORT <= SK_CONTACT_MAX_SUPPORT). Collective. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceSetSlaves(SKContactMeshSurface, PetscInt n, const PetscInt natural[], PetscInt max_support,
                                                          PetscInt slot[]);
/* Records the FORCE[dim] (N) on the slave node at SLOT and its support: its reaction -N_b FORCE goes to the support's nodes. */
PETSC_INTERN void SKContactMeshSurfaceReact(SKContactMeshSurface, PetscInt slot, const SKContactSupport *s, const PetscReal force[]);
/* Gathers the recorded slave forces, sums their reactions in the global slave order (the same on every partition) and
   adds them to the owned master nodes in F[] (local dofs). Collective. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceAddReactions(SKContactMeshSurface, PetscReal f[]);
/* Mortar distribution: the shares int_{faces of a} N_a N_b(pi(x)) dx / sum_b of the same of the nodes b of MASTER
   under the faces of node A of SLAVE (both at their gathered current positions), by Gauss points on the pieces of
   the slave faces between the projections of the master nodes. Leaves S unchanged (the point distribution) when no
   piece projects inside a master face, or when more than SK_CONTACT_MORTAR_SUPPORT_2D master nodes are involved. In 3D,
   SKContactMeshSurfaceMortar3D(). */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortar(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a,
                                                       SKContactSupport *s);
/* The faces of each node of MS (nstart, nfaces_of), built on the first call. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceNodeFaces(SKContactMeshSurface ms);
/* SKContactMeshSurfaceMortar() in 3D (contact_mortar.c): segment-to-segment shares of T3 or Q4 faces by clipping in the
   averaged plane of each slave face; an error when a node's faces meet more master nodes than a support holds. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortar3D(SKContactMeshSurface master, SKContactMeshSurface slave, PetscInt a,
                                                         SKContactSupport *s);
PETSC_INTERN PetscErrorCode SKContactMortarCacheDestroy(SKContactMortarCache *);
/* Restart of the 3D mortar distribution's per-face epochs with a tolerance (the records its kept shares are computed
   from, the same on every rank): their size N (0: no such state), packed into BUF[N], restored from BUF[N] (taken when
   the cache next needs them). A restored run then computes bitwise the shares of the uninterrupted one. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortarStateSize(SKContactMeshSurface slave, PetscInt *n);
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortarStatePack(SKContactMeshSurface slave, PetscReal buf[]);
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortarStateUnpack(SKContactMeshSurface slave, PetscInt n, const PetscReal buf[]);
/* Before the 3D mortar distributions of a force evaluation, on every rank: starts a new epoch of the shares of SLAVE
   against MASTER when a node has moved beyond the tolerance (the same decision on every partition). No-op in 2D. */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceMortarPrepare(SKContactMeshSurface master, SKContactMeshSurface slave);
/* Restart of the search grid: the positions the grid was last built at (dim per master node) of the master nodes this
   rank owns, into / from columns OFFSET .. OFFSET + dim of row a of NODAL (WIDTH values per owned local node a); the
   unpack gathers them on every rank and rebuilds the grid there (collective), so that a restarted run searches the
   same candidate faces as the uninterrupted one (the mortar rule projects points far from contact, whose nearest
   candidate depends on the grid). */
PETSC_INTERN void SKContactMeshSurfacePackGrid(SKContactMeshSurface ms, PetscInt width, PetscInt offset, PetscReal nodal[]);
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceUnpackGrid(SKContactMeshSurface ms, PetscInt width, PetscInt offset,
                                                           const PetscReal nodal[]);
/* The corners of face F at the current positions and the face's tangents there (the surface op facecorners): in 2D the
   two nodes of the L2 face, in 3D the four of a Q4 face in tensor order (its third and fourth nodes swapped) with the
   bilinear map's tangents, or the three of a T3 face and the third again, with two edges as tangents. */
PETSC_INTERN void SKContactMeshSurfaceFaceCorners(SKContactMeshSurface ms, PetscInt f, PetscReal x[], PetscReal t[]);
/* The reaction -S->N[k] FORCE added to the master nodes S->node[k] of MS this rank owns, in the local force F. */
PETSC_INTERN void SKContactMeshSurfaceApplyReaction(SKContactMeshSurface ms, const SKContactSupport *s, const PetscReal force[],
                                                    PetscReal f[]);
/* Index of the node with natural number NATURAL in MS (-1 if it has none). */
PETSC_INTERN PetscInt SKContactMeshSurfaceFindNode(SKContactMeshSurface ms, PetscInt natural);
/* max_b (eps_n (w_b + ws) + kt) / m_b over the master nodes (1/s^2), WS the largest slave weight, and max_b 1 / m_b (1/kg). */
PETSC_INTERN PetscErrorCode SKContactMeshSurfaceGetOmega2(SKContactMeshSurface, PetscReal eps_n, PetscReal ws, PetscReal kt,
                                                          PetscReal *omega2, PetscReal *minv_max);
/* Weights int N_a dA of one L2, T3 or Q4 face with nodes FN[] in X[] (node fn[a] at X + fn[a] * dim) added to w[a], a
   the node's place in the face. */
PETSC_INTERN PetscErrorCode SKContactFaceWeights(PetscInt dim, PetscInt nfn, const PetscReal X[], const PetscInt fn[], PetscReal w[]);

/* ---- the master surface of a pair (contact_surface.c; docs/developing.md, "Adding a contact surface") ---- */
typedef struct _p_SKContactSurface *SKContactSurface;
typedef struct _p_SKContactSide *SKContactSide; /* the slave side, below */

/* What a master surface does for its pair. DATA is the surface's own context. Required: project, destroy. A surface
   that belongs to a body (it moves with it and feels the reactions) also has update, react and addreactions, and
   usually omega2 and the restart pair. */
typedef struct {
  const char *type; /* for messages */
  /* before the projections of a force evaluation at time T, from the local X, u, v (collective; optional) */
  PetscErrorCode (*update)(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[]);
  /* projection of the point X at time T: distance, point, normal, tangents, velocity into P; the master nodes and shares
     of the point into S (S->n = 0 when the surface takes no reaction). Points farther than CUTOFF outside may skip the
     exact projection. Returns PETSC_FALSE when it did not converge. */
  PetscBool (*project)(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p, SKContactSupport *s);
  /* project of the N points X[N * dim] into P[N], S[N] and OK[N], the same result for each point; for a surface whose
     projections gain from being done a block at a time (optional: the pair calls project per point without it) */
  void (*projectmany)(void *data, PetscInt n, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection p[],
                      SKContactSupport s[], PetscBool ok[]);
  /* mortar distribution: the support S of contact point I of the slave side SLAVE instead of its point shares, from
     what the side exposes for it (SKContactSideGetSupport()) (optional) */
  PetscErrorCode (*distribute)(void *data, SKContactSide slave, PetscInt i, SKContactSupport *s);
  /* before the distributions of a force evaluation, on every rank (whether or not it has points in contact), after the
     updates of both sides: the state of the mortar distribution for SLAVE (optional) */
  PetscErrorCode (*prepare)(void *data, SKContactSide slave);
  /* the corners of face FACE (a projection's S->face) at the current positions, x[c dim + d], and the tangents of the
     face there along its parameters, t[(c npar + k) dim + d] (npar = dim - 1; 2 corners in 2D, 4 in 3D, the first
     parameter fastest), for a slave side that splits its integrals where the master's faces meet (the mortar rule of a
     NURBS patch face; optional: without it the slave side cannot take that rule) */
  void (*facecorners)(void *data, PetscInt face, PetscReal x[], PetscReal t[]);
  /* records FORCE (N) on the slave node at SLOT with support S; addreactions adds the recorded reactions to the local
     force F (collective). Both or neither. */
  void (*react)(void *data, PetscInt slot, const SKContactSupport *s, const PetscReal force[]);
  PetscErrorCode (*addreactions)(void *data, PetscReal f[]);
  /* adds the reaction -N_b FORCE (N) of a point with support S to the master nodes b this rank owns in the local force
     F at once, for a slave side whose points' forces every rank knows (a NURBS patch face, which calls it for the same
     points in the same order on every rank); optional, a slave side that is not nodal needs it */
  void (*applyreaction)(void *data, const SKContactSupport *s, const PetscReal force[], PetscReal f[]);
  /* the omega^2 (1/s^2) the surface's own nodes add for a penalty EPS_N on slave weights up to WMAX and a tangential
     stiffness KT, and its largest inverse nodal mass MINV (1/kg) (optional: a rigid surface adds nothing) */
  PetscErrorCode (*omega2)(void *data, PetscReal eps_n, PetscReal wmax, PetscReal kt, PetscReal *omega2, PetscReal *minv);
  /* restart: restart_width values per owned node at columns OFFSET.. of NODAL (WIDTH per node) (optional) */
  void (*packrestart)(void *data, PetscInt width, PetscInt offset, PetscReal nodal[]);
  PetscErrorCode (*unpackrestart)(void *data, PetscInt width, PetscInt offset, const PetscReal nodal[]);
  /* a prescribed rigid translation velocity (m/s) (optional) */
  PetscErrorCode (*setvelocity)(SKContactSurface, const PetscReal velocity[]);
  PetscErrorCode (*destroy)(void *data);
} SKContactSurfaceOps;

struct _p_SKContactSurface {
  MPI_Comm comm;
  PetscInt dim;
  const SKContactSurfaceOps *ops;
  void *data;             /* owned: destroyed by ops->destroy */
  PetscInt restart_width; /* nodal restart values per node (0: none) */
  /* a plane (flat): the same frame at every point, the gap (x - point - velocity t) . normal; the pair then skips the
     projection. Kept current by the surface. */
  PetscBool flat;
  PetscReal point[3], normal[3], velocity[3], tangent[2][3];
};

/* The signed distance of X from a flat surface (SF->flat) at time T: (x - point - velocity t) . normal. */
static inline PetscReal SKContactSurfaceFlatGap(const struct _p_SKContactSurface *sf, PetscInt dim, const PetscReal x[], PetscReal t)
{
  PetscReal g = 0;

  for (PetscInt d = 0; d < dim; d++) g += (x[d] - sf->point[d] - sf->velocity[d] * t) * sf->normal[d];
  return g;
}

/* A surface of DIM with OPS and DATA (owned). */
PETSC_INTERN PetscErrorCode SKContactSurfaceCreate(MPI_Comm, PetscInt dim, const SKContactSurfaceOps *ops, void *data, SKContactSurface *);
/* The built-in surfaces, taking ownership of the rigid surface / a reference to the mesh surface. */
PETSC_INTERN PetscErrorCode SKContactSurfaceCreateRigid(SKRigidSurface, SKContactSurface *);
PETSC_INTERN PetscErrorCode SKContactSurfaceCreateMesh(SKContactMeshSurface, SKContactSurface *);
PETSC_INTERN PetscErrorCode SKContactSurfaceSetVelocity(SKContactSurface, const PetscReal velocity[]);
PETSC_INTERN PetscErrorCode SKContactSurfaceDestroy(SKContactSurface *);
/* ---- the slave side of a pair (contact_side.c; docs/developing.md, "Adding a slave-side kind") ---- */

/* What the slave side does for its pair: where the pair's contact points are and how they move, and where the force on
   a point goes in the body. Point i is the pair's contact node i (SKContactPairGetNodal()); a side keeps what it needs
   of them. DATA is the side's own context. Required: points, addforces, destroy. The pair calls points and addforces
   once per block of up to SK_CONTACT_PROJECT_BLOCK points, so a point costs no call of its own. */
typedef struct {
  const char *type; /* for messages */
  /* before the pair's loop of a force evaluation at time T, from the local X, u, v, against the pair's MASTER
     (collective; optional) */
  PetscErrorCode (*update)(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[], SKContactSurface master);
  /* of the points I0 .. I0 + N - 1: the positions X_PT[N * dim] (m; not set when X is NULL) and the velocities, VP[b]
     pointing at dim values (m/s, valid until the next update); a side with weighted_gap also sets their gaps GAP[N] (m) */
  void (*points)(void *data, PetscInt i0, PetscInt n, const PetscReal X[], const PetscReal u[], const PetscReal v[], PetscReal x_pt[],
                 const PetscReal *vp[], PetscReal gap[]);
  /* the forces on the body of the points I0 .. I0 + N - 1: normal force FN[N] (N), tangential (friction) force FT[N * dim]
     and total FA[N * dim] (N); added to the local force F, or recorded for distribute */
  void (*addforces)(void *data, PetscInt i0, PetscInt n, const PetscReal fn[], const PetscReal ft[], const PetscReal fa[], PetscReal f[]);
  /* after the loop: spreads the recorded forces over the body into F and returns the power of their normal part
     against the master's motion (W, owned share); against a master that takes reactions, also applies their reactions
     to it (the master's applyreaction), and the pair records none (collective; optional: without it, addforces adds to
     F, the pair books the power of the whole force and records the reactions with the master's react) */
  PetscErrorCode (*distribute)(void *data, PetscReal f[], PetscReal *power);
  /* against a master that takes reactions: the master's velocities VM[b] (dim values, m/s, valid until the next update)
     the slip of the points I0 .. I0 + N - 1 is taken against, in place of the velocity at the projection of the point's
     position; returns PETSC_FALSE (VM untouched) when the side gives none for this master (optional) */
  PetscBool (*mastervelocity)(void *data, PetscInt i0, PetscInt n, const PetscReal *vm[]);
  /* for a master's mortar distribution: the side as a deformable surface and point I's node in it (optional) */
  void (*support)(void *data, PetscInt i, SKContactMeshSurface *ms, PetscInt *node);
  /* restart: restart_width values per owned node at columns OFFSET.. of NODAL (WIDTH per node) (optional) */
  void (*packrestart)(void *data, PetscInt width, PetscInt offset, PetscReal nodal[]);
  PetscErrorCode (*unpackrestart)(void *data, PetscInt width, PetscInt offset, const PetscReal nodal[]);
  /* restart of state that is the same on every rank: its size *N, packed into BUF[N], restored from BUF[N] (optional) */
  PetscErrorCode (*globalsize)(void *data, PetscInt *n);
  PetscErrorCode (*packglobal)(void *data, PetscReal buf[]);
  PetscErrorCode (*unpackglobal)(void *data, PetscInt n, const PetscReal buf[]);
  /* end of run: the sticking-time ratio STICK[i] / ELAPSED of the points shown on the body's surface, under GROUP of
     OUT (collective; optional) */
  PetscErrorCode (*writestickratio)(void *data, const PetscReal stick[], PetscReal elapsed, SKOutput out, const char group[]);
  PetscErrorCode (*destroy)(void *data);
} SKContactSideOps;

struct _p_SKContactSide {
  MPI_Comm comm;
  PetscInt dim, n; /* space dimension; contact points (the pair's owned contact nodes) */
  const SKContactSideOps *ops;
  void *data;             /* owned: destroyed by ops->destroy */
  PetscInt restart_width; /* nodal restart values per node (0: none) */
  PetscBool nodal;        /* the points are the contact nodes themselves (own position, velocity and force): a master
                             that takes reactions needs it (the implicit damping takes a point's own node either way,
                             docs/theory.md, "Implicit contact damping") */
  PetscBool weighted_gap; /* a point's gap is the side's (points sets it), not the distance of its position */
};

/* A side of N points in DIM with OPS and DATA (owned). */
PETSC_INTERN PetscErrorCode SKContactSideCreate(MPI_Comm, PetscInt dim, PetscInt n, const SKContactSideOps *ops, void *data,
                                                SKContactSide *);
/* The built-in sides: the N contact nodes NODES[] (local) themselves, with SLAVE (or NULL; a reference is taken) the side
   set as a deformable surface for a mortar distribution, NATURAL[] the nodes' natural numbers (used with SLAVE only);
   the control points NODES[] of the patch face PF (taken over), with its weighted gaps and velocities. */
PETSC_INTERN PetscErrorCode SKContactSideCreateNodes(MPI_Comm, PetscInt dim, PetscInt n, const PetscInt nodes[], SKContactMeshSurface slave,
                                                     const PetscInt natural[], SKContactSide *);
PETSC_INTERN PetscErrorCode SKContactSideCreatePatchFace(SKContactPatchFace pf, PetscInt n, const PetscInt nodes[], SKContactSide *);
/* What SIDE exposes of point I for a master's mortar distribution (its ops->support); an error without it. */
PETSC_INTERN PetscErrorCode SKContactSideGetSupport(SKContactSide side, PetscInt i, SKContactMeshSurface *ms, PetscInt *node);
PETSC_INTERN PetscErrorCode SKContactSideDestroy(SKContactSide *);
/* Replaces the slave side of CP by SIDE (taken over; its points are CP's contact nodes), with the checks of what the
   side allows (a side whose points are not nodes takes explicit damping and a master that takes no reactions). */
PETSC_INTERN PetscErrorCode SKContactPairSetSide(SKContactPair cp, SKContactSide side);

/* A pair of the nodes with W > 0 against SURFACE (taken over), for surfaces that take no reaction; the rigid and the
   deformable constructors of contact.h end here or in SKContactPairCreateWithMesh(). */
PETSC_INTERN PetscErrorCode SKContactPairCreateWithContactSurface(MPI_Comm, PetscInt dim, PetscInt nlocal, PetscInt nowned,
                                                                  const PetscReal w[], SKContactSurface surface, PetscReal eps_n,
                                                                  SKFrictionLaw law, SKContactPair *);

/* A pair of the nodes with W > 0 against SURFACE (taken over), a surface of a body whose reactions go through the slave
   rows of NODES (its master nodes; the caller's reference stays with SURFACE), each row of at most MAX_SUPPORT master
   nodes; SLAVE (or NULL: point distribution; a reference is taken over) the slave side set for a mortar distribution.
   SKContactPairCreateWithMesh() and the NURBS patch-face master (contact_patchmaster.c) end here. Collective. */
PETSC_INTERN PetscErrorCode SKContactPairCreateWithNodeSurface(MPI_Comm, PetscInt dim, PetscInt nlocal, PetscInt nowned,
                                                               const PetscInt natural[], const PetscReal w[], SKContactSurface surface,
                                                               SKContactMeshSurface nodes, PetscInt max_support, SKContactMeshSurface slave,
                                                               PetscReal eps_n, SKFrictionLaw law, SKContactPair *);

struct _p_SKContactPair {
  MPI_Comm comm;
  PetscInt dim, n;          /* space dimension; owned contact nodes */
  PetscInt *nodes;          /* local node numbers of the owned contact nodes */
  PetscReal *w;             /* mortar nodal weights int N_a dA (m^2; m in 2D) */
  SKContactSurface surface; /* owned: the master surface, its projection gives each node's gap, normal, tangent
                               basis and the master nodes that take the reaction */
  PetscReal master_minv;    /* largest inverse lumped mass of a master node (1/kg), 0 for a rigid surface */
  PetscInt *slot;           /* each contact node's place in the surface's slave list (reactions), or NULL */
  SKContactSide side;       /* owned: the slave side, where the contact points are and where their forces go */
  PetscBool mortar;         /* the master distributes the reactions by the side's support (mortar) */
  PetscReal *frame;         /* per node at the last force evaluation: tangent basis ((dim - 1) * dim, the friction law's
                               components) then the surface velocity (dim), so n * dim * dim values */
  PetscMPIInt size;         /* ranks of comm */
  PetscReal check_dt;       /* run-time stability check (0: off): time step (s), */
  PetscReal check_omega2;   /* the omega_max^2 (1/s^2) it was chosen for, */
  PetscReal *check_minv;    /* the inverse lumped mass of each contact node (1/kg) */
  PetscBool affine;         /* the law's tangent moduli are affine in N (probed at creation): */
  PetscReal kt0, kt1;       /* the law's tangential stiffness kt0 + kt1 N (kt0 already in omega_max^2; N per m, 1/m) */
  PetscReal ct0, ct1;       /* and damping ct0 + ct1 N (N s/m, s/m) */
  SKContactDamping damping; /* explicit or linearly implicit damping (SKContactPairSetDamping()) */
  PetscReal *c_damp;        /* implicit damping: c_a per node at the last force evaluation (N s/m, 0 out of contact), */
  PetscReal *normal;        /* and the unit normal there (n * dim); all four NULL while the damping is explicit; */
  PetscReal *vt, *F;        /* the tangential velocity the law saw and its force (2 per node, in the frame) */
  PetscReal v_scale;        /* velocity scale of the law (m/s): the difference step of the damping slope is 1e-6 of it or of |v| */
  PetscReal eps_n;          /* penalty (Pa/m) */
  SKFrictionLaw law;        /* owned */
  SKFrictionStepFn step;
  const void *law_ctx;
  PetscInt nstate;                  /* friction state values per node */
  PetscReal *state, *trial;         /* committed state at t_commit and the trial state at t_last (n * nstate) */
  PetscReal *stored, *stored_trial; /* energy held by the state per node (J) */
  PetscReal t_commit, t_last;
  PetscReal dt_last; /* t_last - t_commit: the step of the last force evaluation (s) */
  PetscBool called;
  PetscReal *fn, *ft;                       /* last normal force magnitude (n) and friction force on the body (n * dim) */
  PetscReal dissipation, dissipation_trial; /* committed and trial accumulated friction dissipation (J), local */
  /* energy booking (docs/theory.md, "Energy of contact"), local sums, committed and trial like the friction state */
  PetscReal damping_diss, damping_diss_trial;   /* dissipated by the implicit contact damping (J) */
  PetscReal surface_work;                       /* work of a moving rigid surface on the body up to t_commit (J) */
  PetscReal surface_power, surface_power_trial; /* its power sum_a f_a . v_s (W) at t_commit and at t_last */
  PetscReal disc_work, disc_work_trial;         /* work the normal penalty does beyond -d(stored) when a node opens or closes (J) */
  PetscReal *gap, *gap_commit, *fn_commit;      /* per node: signed distance (m; weighted gap on a patch face) at t_last and
                                                   t_commit, normal force at t_commit (N) */
  PetscReal *ffr_commit, *dft, *dft_commit;     /* per node (dim): the law's friction force on the body at t_commit, the implicit
                                                    damping force at t_last and at t_commit (N) */
  PetscReal dt_contact;                         /* the pair's contact step with the switching margin (s; SKContactPairGetStepBound) */
  PetscBool frictionless;                       /* mu_s = mu_k = 0: no friction force, so no sticking either (the statistics count none) */
  PetscInt passes; /* the pair is one of PASSES over one interface, each with 1/PASSES of the penalty (fields scale) */
  /* sticking-time statistics per node (s), committed and trial like the friction state: time in contact and sticking
     (SKFrictionIsSticking() on the tangential slip speed over the step), and time in contact */
  PetscReal *stick_time, *stick_time_trial, *contact_time, *contact_time_trial;
};

#endif
