/* contact: the slave side of a contact pair behind an ops table (docs/developing.md, "Adding a slave-side kind"). The
   pair (contact_pair.c) sees only SKContactSide: the positions, velocities (and weighted gaps) of its contact points a
   block at a time, where their forces go, and what a master needs for a mortar distribution. Two kinds are built in:
   the contact nodes themselves (Lagrange faces, 2D and 3D, optionally with the side set as a deformable surface for
   the mortar distribution, contact_mesh.c) and the control points of a NURBS patch face (contact_patchface.c). */
#include "contactimpl.h"
#include "patchfaceimpl.h"

PetscErrorCode SKContactSideCreate(MPI_Comm comm, PetscInt dim, PetscInt n, const SKContactSideOps *ops, void *data, SKContactSide *side)
{
  SKContactSide s;

  PetscFunctionBegin;
  PetscCheck(ops && ops->points && ops->addforces && ops->destroy, comm, PETSC_ERR_ARG_NULL,
             "A contact side needs at least points, addforces and destroy");
  PetscCheck(!ops->packrestart == !ops->unpackrestart, comm, PETSC_ERR_ARG_WRONG,
             "A contact side with restart data needs both pack and unpack (%s)", ops->type ? ops->type : "unnamed");
  PetscCall(PetscNew(&s));
  s->comm = comm;
  s->dim  = dim;
  s->n    = n;
  s->ops  = ops;
  s->data = data;
  *side   = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactSideDestroy(SKContactSide *side)
{
  PetscFunctionBegin;
  if (!*side) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*side)->ops->destroy((*side)->data));
  PetscCall(PetscFree(*side));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactSideGetSupport(SKContactSide side, PetscInt i, SKContactMeshSurface *ms, PetscInt *node)
{
  PetscFunctionBegin;
  PetscCheck(side->ops->support, side->comm, PETSC_ERR_SUP, "A %s slave side exposes no support for a mortar distribution",
             side->ops->type);
  side->ops->support(side->data, i, ms, node);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the contact nodes themselves (Lagrange faces) ---- */

typedef struct {
  PetscInt dim, n;
  PetscInt *nodes;            /* local node of each point */
  SKContactMeshSurface slave; /* the side set as a deformable surface (mortar distribution), or NULL */
  PetscInt *index;            /* each point's node in slave */
} NodesSide;

static PetscErrorCode NodesUpdate(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                  SKContactSurface master)
{
  PetscFunctionBegin;
  (void)t, (void)master;
  PetscCall(SKContactMeshSurfaceUpdate(((NodesSide *)data)->slave, X, u, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nodes' own positions X + u and velocities, with the dimension a constant (the small loops unroll). */
static inline void NodesPointsDim(const NodesSide *ns, PetscInt i0, PetscInt n, const PetscReal X[], const PetscReal u[],
                                  const PetscReal v[], PetscReal x[], const PetscReal *vp[], const PetscInt dim)
{
  const PetscInt *nodes = ns->nodes + i0;

  if (!X) {
    for (PetscInt b = 0; b < n; b++) vp[b] = v + nodes[b] * dim;
    return;
  }
  for (PetscInt b = 0; b < n; b++) {
    const PetscInt o = nodes[b] * dim;
    vp[b]            = v + o;
    for (PetscInt d = 0; d < dim; d++) x[b * dim + d] = X[o + d] + u[o + d];
  }
}

static void NodesPoints(void *data, PetscInt i0, PetscInt n, const PetscReal X[], const PetscReal u[], const PetscReal v[], PetscReal x[],
                        const PetscReal *vp[], PetscReal gap[])
{
  const NodesSide *ns = (const NodesSide *)data;

  (void)gap; /* the gap is the distance of the node's position */
  if (ns->dim == 3)
    NodesPointsDim(ns, i0, n, X, u, v, x, vp, 3);
  else
    NodesPointsDim(ns, i0, n, X, u, v, x, vp, 2);
}

/* F += the forces FA of the nodes, with the dimension a constant (the small loops unroll). */
static inline void NodesAddForcesDim(const NodesSide *ns, PetscInt i0, PetscInt n, const PetscReal fa[], PetscReal f[], const PetscInt dim)
{
  for (PetscInt b = 0; b < n; b++) {
    PetscReal *fb = f + ns->nodes[i0 + b] * dim;
    for (PetscInt d = 0; d < dim; d++) fb[d] += fa[b * dim + d];
  }
}

static void NodesAddForces(void *data, PetscInt i0, PetscInt n, const PetscReal fn[], const PetscReal ft[], const PetscReal fa[],
                           PetscReal f[])
{
  const NodesSide *ns = (const NodesSide *)data;

  (void)fn, (void)ft;
  if (ns->dim == 3)
    NodesAddForcesDim(ns, i0, n, fa, f, 3);
  else
    NodesAddForcesDim(ns, i0, n, fa, f, 2);
}

static void NodesSupport(void *data, PetscInt i, SKContactMeshSurface *ms, PetscInt *node)
{
  const NodesSide *ns = (const NodesSide *)data;

  *ms   = ns->slave;
  *node = i < 0 ? -1 : ns->index[i]; /* i < 0: the surface only */
}

/* the positions of the slave surface's last grid build: a restarted run searches the same candidates */
static void NodesPack(void *data, PetscInt width, PetscInt offset, PetscReal nodal[])
{
  SKContactMeshSurfacePackGrid(((NodesSide *)data)->slave, width, offset, nodal);
}

static PetscErrorCode NodesUnpack(void *data, PetscInt width, PetscInt offset, const PetscReal nodal[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceUnpackGrid(((NodesSide *)data)->slave, width, offset, nodal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the per-face epochs of the slave surface's mortar shares (with a tolerance): a restarted run keeps the same shares */
static PetscErrorCode NodesGlobalSize(void *data, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceMortarStateSize(((NodesSide *)data)->slave, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NodesPackGlobal(void *data, PetscReal buf[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceMortarStatePack(((NodesSide *)data)->slave, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NodesUnpackGlobal(void *data, PetscInt n, const PetscReal buf[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceMortarStateUnpack(((NodesSide *)data)->slave, n, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NodesDestroy(void *data)
{
  NodesSide *ns = (NodesSide *)data;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceDestroy(&ns->slave));
  PetscCall(PetscFree(ns->index));
  PetscCall(PetscFree(ns->nodes));
  PetscCall(PetscFree(ns));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSideOps NodesOps = {.type = "nodes", .points = NodesPoints, .addforces = NodesAddForces, .destroy = NodesDestroy};

/* with the slave side set as a surface: its update, the mortar support and the restart of its grid */
static const SKContactSideOps NodesMortarOps = {.type          = "nodes",
                                                .update        = NodesUpdate,
                                                .points        = NodesPoints,
                                                .addforces     = NodesAddForces,
                                                .support       = NodesSupport,
                                                .packrestart   = NodesPack,
                                                .unpackrestart = NodesUnpack,
                                                .globalsize    = NodesGlobalSize,
                                                .packglobal    = NodesPackGlobal,
                                                .unpackglobal  = NodesUnpackGlobal,
                                                .destroy       = NodesDestroy};

PetscErrorCode SKContactSideCreateNodes(MPI_Comm comm, PetscInt dim, PetscInt n, const PetscInt nodes[], SKContactMeshSurface slave,
                                        const PetscInt natural[], SKContactSide *side)
{
  NodesSide *ns;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ns));
  ns->dim = dim;
  ns->n   = n;
  PetscCall(PetscMalloc1(n, &ns->nodes));
  PetscCall(PetscArraycpy(ns->nodes, nodes, n));
  if (slave) {
    PetscCheck(slave->dim == dim, comm, PETSC_ERR_ARG_INCOMP,
               "Slave surface of dimension %" PetscInt_FMT " for a contact in %" PetscInt_FMT "D", slave->dim, dim);
    ns->slave = slave;
    PetscCall(PetscMalloc1(n, &ns->index));
    for (PetscInt i = 0; i < n; i++) {
      ns->index[i] = SKContactMeshSurfaceFindNode(slave, natural[i]);
      PetscCheck(ns->index[i] >= 0, comm, PETSC_ERR_ARG_WRONG, "Contact node %" PetscInt_FMT " is not a node of the slave surface",
                 natural[i]);
    }
  }
  PetscCall(SKContactSideCreate(comm, dim, n, slave ? &NodesMortarOps : &NodesOps, ns, side));
  (*side)->nodal         = PETSC_TRUE;
  (*side)->restart_width = slave ? dim : 0; /* the positions of the slave grid's last build */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the control points of a NURBS patch face ---- */

typedef struct {
  PetscInt dim, n;
  SKContactPatchFace pf;
  PetscInt *index; /* each point's control point in pf */
} PatchFaceSide;

static PetscErrorCode PatchFaceUpdate(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                      SKContactSurface master)
{
  PetscFunctionBegin;
  PetscCall(SKContactPatchFaceUpdate(((PatchFaceSide *)data)->pf, X, u, v, master, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the weighted gaps, positions and velocities of the last update (a control point lies off the body) */
static void PatchFacePoints(void *data, PetscInt i0, PetscInt n, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                            PetscReal x[], const PetscReal *vp[], PetscReal gap[])
{
  const PatchFaceSide *ps = (const PatchFaceSide *)data;
  PetscReal gb, xb[3];

  (void)X, (void)u, (void)v;
  for (PetscInt b = 0; b < n; b++) {
    SKContactPatchFaceGetPoint(ps->pf, ps->index[i0 + b], &gb, xb, &vp[b]);
    if (gap) gap[b] = gb;
    if (x)
      for (PetscInt d = 0; d < ps->dim; d++) x[b * ps->dim + d] = xb[d];
  }
}

/* the loads N_A, F_A of the control points, spread over the face after the loop */
static void PatchFaceAddForces(void *data, PetscInt i0, PetscInt n, const PetscReal fn[], const PetscReal ft[], const PetscReal fa[],
                               PetscReal f[])
{
  const PatchFaceSide *ps = (const PatchFaceSide *)data;

  (void)fa, (void)f;
  for (PetscInt b = 0; b < n; b++) {
    PetscReal *load = SKContactPatchFaceGetLoad(ps->pf, ps->index[i0 + b]);
    load[0]         = fn[b];
    for (PetscInt d = 0; d < ps->dim; d++) load[1 + d] = ft[b * ps->dim + d];
  }
}

static PetscErrorCode PatchFaceDistribute(void *data, PetscReal f[], PetscReal *power)
{
  PetscFunctionBegin;
  PetscCall(SKContactPatchFaceDistribute(((PatchFaceSide *)data)->pf, f, power));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* against a deformable master: the master's weighted velocities (the slip the face's tractions work on) */
static PetscBool PatchFaceMasterVelocity(void *data, PetscInt i0, PetscInt n, const PetscReal *vm[])
{
  const PatchFaceSide *ps = (const PatchFaceSide *)data;

  for (PetscInt b = 0; b < n; b++)
    if (!SKContactPatchFaceGetMasterVelocity(ps->pf, ps->index[i0 + b], &vm[b])) return PETSC_FALSE;
  return PETSC_TRUE;
}

static PetscErrorCode PatchFaceWriteStickRatio(void *data, const PetscReal stick[], PetscReal elapsed, SKOutput out, const char group[])
{
  const PatchFaceSide *ps = (const PatchFaceSide *)data;

  PetscFunctionBegin;
  PetscCall(SKContactPatchFaceWriteStickRatio(ps->pf, ps->n, ps->index, stick, elapsed, out, group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PatchFaceDestroy(void *data)
{
  PatchFaceSide *ps = (PatchFaceSide *)data;

  PetscFunctionBegin;
  PetscCall(SKContactPatchFaceDestroy(&ps->pf));
  PetscCall(PetscFree(ps->index));
  PetscCall(PetscFree(ps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSideOps PatchFaceOps = {.type            = "NURBS patch face",
                                              .update          = PatchFaceUpdate,
                                              .points          = PatchFacePoints,
                                              .addforces       = PatchFaceAddForces,
                                              .distribute      = PatchFaceDistribute,
                                              .mastervelocity  = PatchFaceMasterVelocity,
                                              .writestickratio = PatchFaceWriteStickRatio,
                                              .destroy         = PatchFaceDestroy};

PetscErrorCode SKContactSideCreatePatchFace(SKContactPatchFace pf, PetscInt n, const PetscInt nodes[], SKContactSide *side)
{
  PatchFaceSide *ps;
  MPI_Comm comm;
  PetscInt dim;

  PetscFunctionBegin;
  SKContactPatchFaceGetComm(pf, &comm, &dim);
  PetscCall(PetscNew(&ps));
  ps->dim = dim;
  ps->n   = n;
  ps->pf  = pf;
  PetscCall(PetscMalloc1(n, &ps->index));
  for (PetscInt i = 0; i < n; i++) {
    ps->index[i] = SKContactPatchFaceFindLocal(pf, nodes[i]);
    PetscCheck(ps->index[i] >= 0, comm, PETSC_ERR_ARG_WRONG, "contact node %" PetscInt_FMT " is not a control point of the patch face",
               nodes[i]);
  }
  PetscCall(SKContactSideCreate(comm, dim, n, &PatchFaceOps, ps, side));
  (*side)->weighted_gap = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactPairSetPatchFace(SKContactPair cp, SKContactPatchFace pf)
{
  SKContactSide side;
  const PetscInt *nodes;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(SKContactPairGetNodal(cp, &n, &nodes, NULL, NULL, NULL));
  PetscCall(SKContactSideCreatePatchFace(pf, n, nodes, &side));
  PetscCall(SKContactPairSetSide(cp, side));
  PetscFunctionReturn(PETSC_SUCCESS);
}
