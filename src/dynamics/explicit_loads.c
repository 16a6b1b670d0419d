/* Explicit solver set-up: boundary conditions, loads (tractions, pressures, gravity, nodal forces), springs and initial
   conditions from the input. */
#include "explicitimpl.h"
#include <string.h>

static PetscErrorCode AddBC(SKExplicit ex, SKNode node, SKExplicitBCKind kind)
{
  PetscInt n, gs, mask, ib = ex->nbc;
  const PetscInt *nodes;
  SKExplicitBC *bc;

  PetscFunctionBegin;
  PetscCall(SKExplicitNodeSetFromInput(ex, node, "nodeset", &n, &nodes, &gs));
  PetscCall(PetscRealloc(sizeof(SKExplicitBC) * (ex->nbc + 1), &ex->bc));
  bc = &ex->bc[ex->nbc++];
  PetscCall(PetscMemzero(bc, sizeof(*bc)));
  bc->kind = kind;
  PetscCall(SKExplicitReadFunction(ex, node, 0.0, &bc->f));
  if (kind == SK_EXPLICIT_BC_ROTATION) {
    PetscReal norm = 0;
    mask           = (1 << ex->dim) - 1;
    bc->axis[2]    = 1.0;
    PetscCall(SKExplicitReadVector(ex, node, "center", 0, bc->center, NULL));
    if (ex->dim == 3) {
      PetscCall(SKExplicitReadVector(ex, node, "axis", 3, bc->axis, NULL));
      norm = PetscSqrtReal(PetscSqr(bc->axis[0]) + PetscSqr(bc->axis[1]) + PetscSqr(bc->axis[2]));
      PetscCall(SKInputCheck(ex->input, node, norm > 0, "rotation axis is zero"));
      for (PetscInt d = 0; d < 3; d++) bc->axis[d] /= norm;
    }
  } else
    PetscCall(SKExplicitReadComponents(ex, node, "component", &mask));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt d = 0; d < ex->dim; d++)
      if (mask & (1 << d)) ex->dof_bc[nodes[i] * ex->dim + d] = ib; /* a later condition on the same dof wins */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddLoad(SKExplicit ex, SKNode node, PetscReal **p)
{
  SKExplicitLoad *ld;

  PetscFunctionBegin;
  PetscCall(PetscRealloc(sizeof(SKExplicitLoad) * (ex->nloads + 1), &ex->loads));
  ld = &ex->loads[ex->nloads++];
  PetscCall(PetscMemzero(ld, sizeof(*ld)));
  ld->n = -1; /* dense while the input fills it; SKExplicitCompressLoads() keeps the non-zeros */
  PetscCall(PetscCalloc1(ex->ndof, &ld->p));
  PetscCall(SKExplicitReadFunction(ex, node, 1.0, &ld->f));
  *p = ld->p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every dense load pattern -> its non-zero entries (the products s p are then added in the same order per dof). */
PetscErrorCode SKExplicitCompressLoads(SKExplicit ex)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < ex->nloads; l++) {
    SKExplicitLoad *ld = &ex->loads[l];
    PetscReal *dense   = ld->p;
    PetscInt n         = 0;

    if (ld->n >= 0) continue;
    for (PetscInt i = 0; i < ex->ndof; i++) n += dense[i] != 0.0;
    PetscCall(PetscMalloc1(n, &ld->idx));
    PetscCall(PetscMalloc1(n, &ld->p));
    ld->n = 0;
    for (PetscInt i = 0; i < ex->ndof; i++)
      if (dense[i] != 0.0) ld->idx[ld->n] = i, ld->p[ld->n++] = dense[i];
    PetscCall(PetscFree(dense));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The components a spring acts on and the velocity of its far end (read before any work array of the caller exists, so
   that a refused input leaves nothing to free). */
static PetscErrorCode ReadSpring(SKExplicit ex, SKNode node, PetscInt *mask, PetscReal vel[3])
{
  PetscFunctionBegin;
  PetscCall(SKExplicitReadComponents(ex, node, "components", mask));
  PetscCall(SKExplicitReadVector(ex, node, "velocity", 0, vel, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddSprings(SKExplicit ex, PetscInt mask, const PetscReal vel[3], PetscInt n, const PetscInt nodes[],
                                 const PetscReal k[])
{
  PetscFunctionBegin;
  PetscCall(PetscRealloc(sizeof(SKExplicitSpring) * (ex->nsprings + n), &ex->springs));
  for (PetscInt i = 0; i < n; i++) {
    SKExplicitSpring *s = &ex->springs[ex->nsprings++];
    PetscCall(PetscMemzero(s, sizeof(*s)));
    s->node = nodes[i];
    s->k    = k[i];
    s->mask = mask;
    for (PetscInt d = 0; d < 3; d++) s->velocity[d] = vel[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Loads, boundary conditions, springs, initial velocity. */
PetscErrorCode SKExplicitReadLoadsAndConditions(SKExplicit ex, SKNode root)
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ex->ndof, &ex->dof_bc));
  for (PetscInt i = 0; i < ex->ndof; i++) ex->dof_bc[i] = -1;
  for (SKNode item = SKNodeFirstChild(root, NULL); item; item = SKNodeNextSibling(item, NULL)) {
    const char *tag = SKNodeName(item);
    PetscInt ns, gs;
    const PetscInt *nodes;

    if (!strcmp(tag, "displacement"))
      PetscCall(AddBC(ex, item, SK_EXPLICIT_BC_DISPLACEMENT));
    else if (!strcmp(tag, "velocity"))
      PetscCall(AddBC(ex, item, SK_EXPLICIT_BC_VELOCITY));
    else if (!strcmp(tag, "rotation"))
      PetscCall(AddBC(ex, item, SK_EXPLICIT_BC_ROTATION));
    else if (!strcmp(tag, "point_load") || !strcmp(tag, "gravity")) {
      PetscReal val[3]     = {0, 0, 0}, *p;
      const PetscBool grav = (PetscBool)!strcmp(tag, "gravity");
      PetscCall(SKExplicitReadVector(ex, item, grav ? "acceleration" : "force", 0, val, NULL));
      if (grav) {
        nodes = NULL;
        ns    = ex->nlocal;
      } else
        PetscCall(SKExplicitNodeSetFromInput(ex, item, "nodeset", &ns, &nodes, &gs));
      PetscCall(AddLoad(ex, item, &p));
      for (PetscInt j = 0; j < ns; j++) {
        const PetscInt node = nodes ? nodes[j] : j;
        for (PetscInt d = 0; d < dim; d++) p[node * dim + d] += grav ? ex->mass[node] * val[d] : val[d];
      }
    } else if (!strcmp(tag, "traction") || !strcmp(tag, "distributed_spring") || !strcmp(tag, "pressure")) {
      const PetscInt *elements, *faces;
      const PetscBool pressure = (PetscBool)!strcmp(tag, "pressure"), traction = (PetscBool)!strcmp(tag, "traction");
      PetscReal *w, *an = NULL, *p = NULL, val[3] = {0, 0, 0}, vel[3] = {0, 0, 0}, k = 0;
      PetscInt *list, nl = 0, mask = 0;
      /* the input first, then the work arrays: a refused input leaves nothing to free */
      PetscCall(SKExplicitSideSetFromInput(ex, item, "sideset", &ns, &elements, &faces));
      if (pressure) PetscCall(SKInputRequireReal(ex->input, item, "value", &val[0]));
      if (traction) PetscCall(SKExplicitReadVector(ex, item, "value", 0, val, NULL));
      if (pressure || traction)
        PetscCall(AddLoad(ex, item, &p));
      else {
        PetscCall(SKInputRequireReal(ex->input, item, "stiffness", &k));
        PetscCall(SKInputCheckPositive(ex->input, item, "stiffness", k));
        PetscCall(ReadSpring(ex, item, &mask, vel));
      }
      PetscCall(PetscCalloc1(ex->nlocal, &w));
      if (pressure) PetscCall(PetscCalloc1(ex->nlocal * dim, &an));
      PetscCall(SKExplicitFaceWeights(ex, ns, elements, faces, w, an));
      PetscCall(SKExplicitAssembleNodal(ex, w, 1));
      if (pressure) { /* a dead pressure pushes into the body: minus the outward area vectors of the reference faces */
        PetscCall(SKExplicitAssembleNodal(ex, an, dim));
        for (PetscInt j = 0; j < ex->nlocal * dim; j++) p[j] = -val[0] * an[j];
        PetscCall(PetscFree(an));
      } else if (traction) {
        for (PetscInt j = 0; j < ex->nlocal; j++)
          for (PetscInt d = 0; d < dim; d++) p[j * dim + d] = w[j] * val[d];
      } else {
        PetscCall(PetscMalloc1(ex->nlocal, &list));
        for (PetscInt j = 0; j < ex->nlocal; j++)
          if (w[j] != 0.0) list[nl] = j, w[nl++] = k * w[j];
        PetscCall(AddSprings(ex, mask, vel, nl, list, w));
        PetscCall(PetscFree(list));
      }
      PetscCall(PetscFree(w));
    } else if (!strcmp(tag, "spring")) {
      PetscReal k, *kk, vel[3] = {0, 0, 0};
      PetscInt mask;
      PetscCall(SKExplicitNodeSetFromInput(ex, item, "nodeset", &ns, &nodes, &gs));
      PetscCall(SKInputRequireReal(ex->input, item, "stiffness", &k));
      PetscCall(SKInputCheckPositive(ex->input, item, "stiffness", k));
      PetscCall(ReadSpring(ex, item, &mask, vel));
      PetscCall(PetscMalloc1(ns, &kk));
      for (PetscInt j = 0; j < ns; j++) kk[j] = k;
      PetscCall(AddSprings(ex, mask, vel, ns, nodes, kk));
      PetscCall(PetscFree(kk));
    } else if (!strcmp(tag, "initial_velocity")) {
      PetscReal val[3] = {0, 0, 0}, omega[3] = {0, 0, 0}, c[3] = {0, 0, 0}, L[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      PetscInt nL = 9;
      PetscBool has;
      PetscCall(SKExplicitNodeSetFromInput(ex, item, "nodeset", &ns, &nodes, &gs));
      PetscCall(SKExplicitReadVector(ex, item, "value", 0, val, NULL));
      PetscCall(SKExplicitReadVector(ex, item, "angular_velocity", dim == 2 ? 1 : 3, dim == 2 ? omega + 2 : omega, NULL));
      PetscCall(SKExplicitReadVector(ex, item, "center", 0, c, NULL));
      PetscCall(SKInputGetRealList(ex->input, item, "gradient", &nL, L, &has));
      PetscCall(SKInputCheck(ex->input, item, !has || nL == dim * dim,
                             "attribute 'gradient' needs %" PetscInt_FMT " values (the velocity gradient, row by row), got %" PetscInt_FMT,
                             dim * dim, nL));
      for (PetscInt j = 0; j < ns; j++) {
        PetscReal r[3] = {0, 0, 0};
        for (PetscInt d = 0; d < dim; d++) r[d] = ex->X[nodes[j] * dim + d] - c[d];
        {
          const PetscReal w_r[3] = {omega[1] * r[2] - omega[2] * r[1], omega[2] * r[0] - omega[0] * r[2],
                                    omega[0] * r[1] - omega[1] * r[0]};
          for (PetscInt d = 0; d < dim; d++) {
            PetscReal Lr = 0;
            for (PetscInt e = 0; e < dim; e++) Lr += L[d * dim + e] * r[e]; /* L stays zero without 'gradient' */
            ex->v[nodes[j] * dim + d] = val[d] + w_r[d] + Lr;
          }
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
