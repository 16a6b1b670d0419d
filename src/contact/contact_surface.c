/* contact: the master surface of a contact pair behind an ops table (docs/developing.md, "Adding a contact surface").
   The pair (contact_pair.c) sees only SKContactSurface: a projection, and for a surface that belongs to a body the
   reactions, its share of the step bound and its restart data. Two kinds are built in: a rigid analytic surface
   (surface*.c) and the deformable side set of another body (contact_mesh.c). */
#include "contactimpl.h"
#include "surfaceimpl.h"

PetscErrorCode SKContactSurfaceCreate(MPI_Comm comm, PetscInt dim, const SKContactSurfaceOps *ops, void *data, SKContactSurface *surface)
{
  SKContactSurface s;

  PetscFunctionBegin;
  PetscCheck(ops && ops->project && ops->destroy, comm, PETSC_ERR_ARG_NULL, "A contact surface needs at least project and destroy");
  PetscCheck(!ops->react == !ops->addreactions, comm, PETSC_ERR_ARG_WRONG,
             "A contact surface that feels reactions needs both react and addreactions (%s)", ops->type ? ops->type : "unnamed");
  PetscCall(PetscNew(&s));
  s->comm  = comm;
  s->dim   = dim;
  s->ops   = ops;
  s->data  = data;
  *surface = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactSurfaceDestroy(SKContactSurface *surface)
{
  PetscFunctionBegin;
  if (!*surface) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*surface)->ops->destroy((*surface)->data));
  PetscCall(PetscFree(*surface));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- a rigid analytic surface ---- */

/* A plane's frame is the same at every point: kept in the surface (flat) so that the pair skips the projection. */
static void RigidFillFlat(SKContactSurface s)
{
  const struct _p_SKRigidSurface *sf = (const struct _p_SKRigidSurface *)s->data;

  s->flat = (PetscBool)(sf->project == SKSurfaceProject_Plane);
  for (PetscInt d = 0; d < 3; d++) {
    s->point[d] = sf->point[d], s->normal[d] = sf->direction[d], s->velocity[d] = sf->velocity[d];
    for (PetscInt k = 0; k < 2; k++) s->tangent[k][d] = sf->tangent[k][d];
  }
}

static PetscBool RigidProject(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p, SKContactSupport *s)
{
  s->face = -1, s->n = 0; /* a rigid surface takes no reaction */
  return SKRigidSurfaceProjectPoint((SKRigidSurface)data, x, t, cutoff, p);
}

static PetscErrorCode RigidDestroy(void *data)
{
  SKRigidSurface sf = (SKRigidSurface)data;

  PetscFunctionBegin;
  PetscCall(SKRigidSurfaceDestroy(&sf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidSetVelocity(SKContactSurface s, const PetscReal velocity[])
{
  PetscFunctionBegin;
  PetscCall(SKRigidSurfaceSetVelocity((SKRigidSurface)s->data, velocity));
  RigidFillFlat(s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSurfaceOps RigidOps = {
    .type = "rigid", .project = RigidProject, .setvelocity = RigidSetVelocity, .destroy = RigidDestroy};

PetscErrorCode SKContactSurfaceCreateRigid(SKRigidSurface rigid, SKContactSurface *surface)
{
  PetscFunctionBegin;
  PetscCall(SKContactSurfaceCreate(rigid->comm, rigid->dim, &RigidOps, rigid, surface));
  RigidFillFlat(*surface);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactSurfaceSetVelocity(SKContactSurface s, const PetscReal velocity[])
{
  PetscFunctionBegin;
  PetscCheck(s->ops->setvelocity, s->comm, PETSC_ERR_SUP, "A %s contact surface moves with its body, it takes no velocity", s->ops->type);
  PetscCall(s->ops->setvelocity(s, velocity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the deformable side set of another body ---- */

static PetscErrorCode MeshUpdate(void *data, PetscReal t, const PetscReal X[], const PetscReal u[], const PetscReal v[])
{
  PetscFunctionBegin;
  (void)t;
  PetscCall(SKContactMeshSurfaceUpdate((SKContactMeshSurface)data, X, u, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool MeshProject(void *data, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p, SKContactSupport *s)
{
  (void)t, (void)cutoff; /* the master's current positions come from the update; every point gets its exact projection */
  return SKContactMeshSurfaceProject((SKContactMeshSurface)data, x, p, s);
}

static void MeshProjectMany(void *data, PetscInt n, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection p[],
                            SKContactSupport s[], PetscBool ok[])
{
  (void)t, (void)cutoff;
  SKContactMeshSurfaceProjectMany((SKContactMeshSurface)data, n, x, p, s);
  for (PetscInt i = 0; i < n; i++) ok[i] = PETSC_TRUE;
}

static void MeshReact(void *data, PetscInt slot, const SKContactSupport *s, const PetscReal force[])
{
  SKContactMeshSurfaceReact((SKContactMeshSurface)data, slot, s, force);
}

static void MeshApplyReaction(void *data, const SKContactSupport *s, const PetscReal force[], PetscReal f[])
{
  SKContactMeshSurfaceApplyReaction((SKContactMeshSurface)data, s, force, f);
}

static void MeshFaceCorners(void *data, PetscInt face, PetscReal x[], PetscReal t[])
{
  SKContactMeshSurfaceFaceCorners((SKContactMeshSurface)data, face, x, t);
}

static PetscErrorCode MeshAddReactions(void *data, PetscReal f[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceAddReactions((SKContactMeshSurface)data, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshOmega2(void *data, PetscReal eps_n, PetscReal wmax, PetscReal kt, PetscReal *omega2, PetscReal *minv)
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceGetOmega2((SKContactMeshSurface)data, eps_n, wmax, kt, omega2, minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void MeshPack(void *data, PetscInt width, PetscInt offset, PetscReal nodal[])
{
  SKContactMeshSurfacePackGrid((SKContactMeshSurface)data, width, offset, nodal);
}

static PetscErrorCode MeshUnpack(void *data, PetscInt width, PetscInt offset, const PetscReal nodal[])
{
  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceUnpackGrid((SKContactMeshSurface)data, width, offset, nodal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the mortar shares over the faces of the slave side set around point I, from the side's own surface */
static PetscErrorCode MeshDistribute(void *data, SKContactSide slave, PetscInt i, SKContactSupport *s)
{
  SKContactMeshSurface sms;
  PetscInt a;

  PetscFunctionBegin;
  PetscCall(SKContactSideGetSupport(slave, i, &sms, &a));
  PetscCall(SKContactMeshSurfaceMortar((SKContactMeshSurface)data, sms, a, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshPrepare(void *data, SKContactSide slave)
{
  SKContactMeshSurface sms;
  PetscInt a;

  PetscFunctionBegin;
  PetscCall(SKContactSideGetSupport(slave, -1, &sms, &a));
  PetscCall(SKContactMeshSurfaceMortarPrepare((SKContactMeshSurface)data, sms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshDestroy(void *data)
{
  SKContactMeshSurface ms = (SKContactMeshSurface)data;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceDestroy(&ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKContactSurfaceOps MeshOps = {.type          = "deformable",
                                            .update        = MeshUpdate,
                                            .project       = MeshProject,
                                            .projectmany   = MeshProjectMany,
                                            .react         = MeshReact,
                                            .addreactions  = MeshAddReactions,
                                            .applyreaction = MeshApplyReaction,
                                            .facecorners   = MeshFaceCorners,
                                            .omega2        = MeshOmega2,
                                            .distribute    = MeshDistribute,
                                            .prepare       = MeshPrepare,
                                            .packrestart   = MeshPack,
                                            .unpackrestart = MeshUnpack,
                                            .destroy       = MeshDestroy};

PetscErrorCode SKContactSurfaceCreateMesh(SKContactMeshSurface ms, SKContactSurface *surface)
{
  PetscFunctionBegin;
  PetscCall(SKContactSurfaceCreate(ms->comm, ms->dim, &MeshOps, ms, surface));
  (*surface)->restart_width = ms->dim; /* the positions of the last grid build */
  PetscFunctionReturn(PETSC_SUCCESS);
}
