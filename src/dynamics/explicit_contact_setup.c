/* Explicit solver set-up: the <contact> elements (rigid surfaces, deformable pairs, NURBS patch faces) into contact
   pairs, with their side sets, weights and checks, each registered as a force term (explicit_contact_term.c) as soon
   as it exists, so that the term owns it whatever fails after. */
#include "explicitimpl.h"
#include <string.h>

/* What the reading of one <contact> has made and no pair owns yet, freed by ContactPartsDestroy() after the element
   whether it was read or refused (an input error anywhere leaves nothing behind). A pair takes the law, the rigid
   surface and the patch face (the field is then NULL) and a reference of each mesh surface (the creation's references
   stay here); the weights are copied. */
typedef struct {
  PetscReal *w[2];            /* nodal weights of the two sides (slave first) */
  SKContactMeshSurface ms[2]; /* the creation's references of the deformable sides (slave first) */
  SKFrictionLaw law;
  SKRigidSurface surface;
  SKContactPatchFace pf;
  PetscInt *bodies[2]; /* the bodies of the two sides */
} ContactParts;

static PetscErrorCode ContactPartsDestroy(ContactParts *c)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscFree(c->w[k]));
    PetscCall(SKContactMeshSurfaceDestroy(&c->ms[k]));
    PetscCall(PetscFree(c->bodies[k]));
  }
  PetscCall(SKFrictionLawDestroy(&c->law));
  PetscCall(SKRigidSurfaceDestroy(&c->surface));
  PetscCall(SKContactPatchFaceDestroy(&c->pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks that every face of a contact side set lies on the boundary of the mesh. */
static PetscErrorCode CheckContactSides(SKExplicit ex, SKNode node, PetscInt ns, const PetscInt elements[], const PetscInt faces[])
{
  const PetscInt *be, *bf;
  PetscInt nb;

  PetscFunctionBegin;
  PetscCall(SKMeshGetBoundaryFaces(ex->mesh, &nb, &be, &bf));
  for (PetscInt s = 0; s < ns; s++) {
    PetscBool on = PETSC_FALSE;
    SKNURBSPatch patch;
    PetscInt pe;
    PetscCall(SKMeshGetPatchElement(ex->mesh, elements[s], &patch, &pe));
    if (patch) continue; /* the side sets of a patch are its faces, on the boundary by construction */
    for (PetscInt b = 0; b < nb && !on; b++) on = (PetscBool)(be[b] == elements[s] && bf[b] == faces[s]);
    PetscCall(SKInputCheck(ex->input, node, on,
                           "a face of the contact side set is not on the boundary (element %" PetscInt_FMT ", face %" PetscInt_FMT ")",
                           ex->natural_elements[elements[s]], faces[s]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nodal weights of a contact side set named by ATTR (summed over ranks, complete on every copy) into *w (allocated)
   and, when MS is not NULL, the side set as a deformable contact surface. The pointers are the caller's ContactParts, so
   that an input error after the allocation leaves nothing behind. */
static PetscErrorCode ContactSide(SKExplicit ex, SKNode node, const char attr[], PetscReal **w, SKContactMeshSurface *ms)
{
  const PetscInt *elements, *faces;
  PetscInt ns, nfn = 0;

  PetscFunctionBegin;
  PetscCall(SKExplicitSideSetFromInput(ex, node, attr, &ns, &elements, &faces));
  PetscCall(CheckContactSides(ex, node, ns, elements, faces));
  if (ms) { /* the faces first: one kind, linear */
    for (PetscInt s = 0; s < ns; s++) {
      PetscInt fn[SK_ELEMENT_MAX_NODES], nf;
      PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &nf, fn));
      PetscCall(SKInputCheck(ex->input, node, nfn == 0 || nf == nfn,
                             "side set '%s' mixes faces of %" PetscInt_FMT " and %" PetscInt_FMT " nodes", attr, nfn, nf));
      nfn = nf;
    }
    { /* and over the ranks: minus the fewest nodes of a face (of the ranks that have faces), the most */
      PetscInt lim[2] = {ns ? -nfn : -PETSC_MAX_INT, nfn};
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, lim, 2, MPIU_INT, MPI_MAX, ex->comm));
      nfn = lim[1];
      PetscCall(SKInputCheck(ex->input, node, nfn == 0 || -lim[0] == nfn,
                             "side set '%s' mixes faces of %" PetscInt_FMT " and %" PetscInt_FMT " nodes", attr, -lim[0], nfn));
    }
    PetscCall(SKInputCheck(ex->input, node, (ex->dim == 2 && nfn == 2) || (ex->dim == 3 && (nfn == 3 || nfn == 4)),
                           "contact between deformable bodies takes linear faces (L2 in 2D; T3 or Q4 in 3D), the side set of '%s' has "
                           "%" PetscInt_FMT "-node faces",
                           attr, nfn));
  }
  PetscCall(PetscCalloc1(ex->nlocal, w));
  PetscCall(SKExplicitFaceWeights(ex, ns, elements, faces, *w, NULL));
  PetscCall(SKExplicitAssembleNodal(ex, *w, 1));
  if (ms) {
    PetscInt *key, *fnodes, nf;

    PetscCall(PetscMalloc2(ns, &key, ns * nfn, &fnodes));
    for (PetscInt s = 0; s < ns; s++) {
      PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &nf, fnodes + s * nfn));
      key[s] = ex->natural_elements[elements[s]] * 8 + faces[s];
    }
    PetscCall(SKContactMeshSurfaceCreate(ex->comm, ex->dim, nfn, ns, key, fnodes, ex->nlocal, ex->nowned, ex->natural_nodes, ex->X,
                                         ex->mass, ms));
    PetscCall(PetscFree2(key, fnodes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bodies (connected element groups, ex->body) the faces of surface MS belong to, sorted and unique, into *bodies. */
static PetscErrorCode SurfaceBodies(SKExplicit ex, SKContactMeshSurface ms, PetscInt *n, PetscInt **bodies)
{
  const PetscInt *keys;

  PetscFunctionBegin;
  PetscCall(SKContactMeshSurfaceGetFaceKeys(ms, n, &keys));
  PetscCall(PetscMalloc1(*n, bodies));
  for (PetscInt f = 0; f < *n; f++) (*bodies)[f] = ex->body[keys[f] / 8];
  PetscCall(PetscSortRemoveDupsInt(n, *bodies));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadPatchContact(SKExplicit, SKNode, const char[], PetscReal, PetscInt, PetscBool, PetscInt, ContactParts *,
                                       SKContactPair[], PetscInt *);
static PetscErrorCode SlavePatchFace(SKExplicit, SKNode, const char[], PetscBool, PetscBool, SKContactPatchFace *);
static PetscErrorCode SideSetMaxFaceNodes(SKExplicit, PetscInt, const PetscInt[], const PetscInt[], PetscInt *);
static PetscInt LinearFaceNodes(PetscInt);
static PetscErrorCode SideSetPatchFaces(SKExplicit, SKNode, const char[], PetscInt *, PetscInt *, PetscInt *, const PetscInt **,
                                        const PetscInt **);

/* The friction law of the <friction> child of contact ITEM for pass PASS (0 or 1) of a pair and the pair's term name PNAME
   (SK_MESH_NAME_LEN chars): NAME, and NAME_2 for the second pass. */
static PetscErrorCode PassLaw(SKExplicit ex, SKNode item, const char name[], PetscInt pass, SKFrictionLaw *law, char pname[])
{
  SKNode fnode;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(ex->input, item, "friction", &fnode));
  PetscCall(SKFrictionLawCreateFromXML(ex->input, fnode, law));
  if (pass == 1)
    PetscCall(PetscSNPrintf(pname, SK_MESH_NAME_LEN, "%s_2", name));
  else
    PetscCall(PetscStrncpy(pname, name, SK_MESH_NAME_LEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The penalty of each pass of a pair of PASSES passes: two passes average their forces, so each carries half of EPS_N
   (normal and friction forces are linear in it). */
static PetscReal PassPenalty(PetscReal eps_n, PetscInt passes)
{
  return passes == 2 ? 0.5 * eps_n : eps_n;
}

/* Registers PAIR, one pass of a pair of PASSES passes, as the force term PNAME of GROUP (the term owns the pair) into
   PAIRS[*NPAIRS]. */
static PetscErrorCode AddPassPair(SKExplicit ex, const char pname[], SKContactPair pair, PetscInt passes, PetscInt group,
                                  SKContactPair pairs[], PetscInt *npairs)
{
  PetscFunctionBegin;
  pairs[*npairs] = pair;
  PetscCall(SKExplicitAddContactTerm(ex, pname, pair, group));
  PetscCall(SKContactPairSetPasses(pair, passes));
  (*npairs)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sorted body lists BODIES[0] (NB[0] entries) of side set 'sideset' and BODIES[1] of 'master' of contact NAME must
   not share a body (self-contact is not implemented). */
static PetscErrorCode CheckDifferentBodies(SKExplicit ex, SKNode item, const char name[], const PetscInt nb[], PetscInt *bodies[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0, j = 0; i < nb[0] && j < nb[1];) {
    PetscCall(SKInputCheck(ex->input, item, bodies[0][i] != bodies[1][j],
                           "the side sets 'sideset' and 'master' of contact '%s' belong to the same body (connected elements): "
                           "self-contact is not implemented",
                           name));
    if (bodies[0][i] < bodies[1][j])
      i++;
    else
      j++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A <contact sideset master> pair between deformable bodies: checks (different bodies, initial penetration within
   what the search finds) and the pair(s): one pass, or two with the sides swapped and the penalty halved, registered
   as force terms of GROUP into PAIRS[*NPAIRS], with the parts C. */
static PetscErrorCode ReadDeformableContact(SKExplicit ex, SKNode item, const char name[], PetscReal eps_n, PetscInt group, ContactParts *c,
                                            SKContactPair pairs[], PetscInt *npairs)
{
  SKContactMeshSurface slave_ms, master_ms;
  /* the default in 3D: shares kept within 1e-3 of the smallest slave face (results within about 1e-5 of the exact shares at
     a quarter of their cost; docs/theory.md, "Contact between deformable bodies"); in 2D the shares are not cached */
  PetscReal *ws, *wm, depth[2], mortar_tol = ex->dim == 3 ? 1e-3 : 0;
  PetscInt passes = 1, nb[2], npatch, ntotal;
  PetscBool mortar;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < 10; k++) { /* the rigid surface's attributes mean nothing here */
    static const char *const rigid[] = {"surface", "point", "normal",    "center",     "axis",
                                        "radius",  "side",  "amplitude", "wavelength", "velocity"};
    char buf[256];
    PetscBool found;
    PetscCall(SKInputGetString(ex->input, item, rigid[k], buf, sizeof(buf), &found));
    PetscCall(SKInputCheck(ex->input, item, !found, "attribute '%s' describes a rigid surface; a pair with master= has none", rigid[k]));
  }
  PetscCall(SKInputGetInt(ex->input, item, "passes", &passes, NULL));
  {
    char dist[16] = "mortar"; /* the schema allows mortar and point */
    PetscCall(SKInputGetString(ex->input, item, "distribution", dist, sizeof(dist), NULL));
    PetscCall(PetscStrcmp(dist, "mortar", &mortar));
  }
  PetscCall(SKInputCheck(ex->input, item, passes == 1 || passes == 2, "passes = %" PetscInt_FMT " must be 1 or 2", passes));
  PetscCall(SideSetPatchFaces(ex, item, "master", &npatch, &ntotal, NULL, NULL, NULL));
  if (!npatch) { /* a slave side on patch faces of degree >= 2 (control points off the face) makes a NURBS pair too */
    const PetscInt *elements, *faces;
    PetscInt ns, nfn_max;
    PetscCall(SideSetPatchFaces(ex, item, "sideset", &npatch, &ntotal, &ns, &elements, &faces));
    PetscCall(SideSetMaxFaceNodes(ex, ns, elements, faces, &nfn_max));
    if (nfn_max <= LinearFaceNodes(ex->dim)) npatch = 0;
  }
  if (npatch) { /* the master, or a slave of degree >= 2, on NURBS patch faces */
    PetscCall(ReadPatchContact(ex, item, name, eps_n, passes, mortar, group, c, pairs, npairs));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SKInputGetReal(ex->input, item, "mortar_tolerance", &mortar_tol, NULL));
  PetscCall(
      SKInputCheck(ex->input, item, mortar_tol >= 0 && mortar_tol < 1, "mortar_tolerance = %g must be in [0, 1)", (double)mortar_tol));
  PetscCall(ContactSide(ex, item, "sideset", &c->w[0], &c->ms[0]));
  PetscCall(ContactSide(ex, item, "master", &c->w[1], &c->ms[1]));
  ws = c->w[0], wm = c->w[1], slave_ms = c->ms[0], master_ms = c->ms[1];
  PetscCall(SKContactMeshSurfaceSetMortarTolerance(slave_ms, mortar_tol));
  PetscCall(SKContactMeshSurfaceSetMortarTolerance(master_ms, mortar_tol));
  PetscCall(SurfaceBodies(ex, slave_ms, &nb[0], &c->bodies[0]));
  PetscCall(SurfaceBodies(ex, master_ms, &nb[1], &c->bodies[1]));
  PetscCall(CheckDifferentBodies(ex, item, name, nb, c->bodies));
  /* sides that look away from each other never touch (a block on the bottom face of a slab passes through it): over
     the nodes of each side whose nearest point on the other side lies inside one of its faces, the outward normals of
     the two sides must oppose at most of them; a pair apart at the start (no such node facing) still runs */
  for (PetscInt pass = 0; pass < passes; pass++) {
    SKContactMeshSurface own = pass == 0 ? slave_ms : master_ms, other = pass == 0 ? master_ms : slave_ms;
    const PetscReal *w = pass == 0 ? ws : wm;
    PetscInt count[2] = {0, 0}, stride = 1, nw = 0; /* nodes over the other side; of them facing the same way */
    PetscReal where[3] = {0, 0, 0}, cosine = 0;

    for (PetscInt p = 0; p < ex->nowned; p++) nw += w[p] > 0 ? 1 : 0;
    stride = PetscMax(1, nw / 2000); /* a brute-force search over the other side's faces: a sample of the nodes is enough */
    for (PetscInt p = 0, k = 0; p < ex->nowned; p++) {
      PetscReal d0, d1, n0[3] = {0, 0, 0}, n1[3] = {0, 0, 0}, c = 0;
      PetscBool in0, in1;
      if (w[p] <= 0 || k++ % stride) continue;
      PetscCall(SKContactMeshSurfaceNearestFace(own, ex->X + p * ex->dim, &d0, n0, &in0));
      PetscCall(SKContactMeshSurfaceNearestFace(other, ex->X + p * ex->dim, &d1, n1, &in1));
      if (!in1) continue;
      for (PetscInt d = 0; d < ex->dim; d++) c += n0[d] * n1[d];
      count[0]++;
      if (c > 0) {
        count[1]++;
        cosine = c;
        for (PetscInt d = 0; d < ex->dim; d++) where[d] = ex->X[p * ex->dim + d];
      }
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, count, 2, MPIU_INT, MPI_SUM, ex->comm));
    {
      char at[96];
      if (ex->dim == 2)
        PetscCall(PetscSNPrintf(at, sizeof(at), "(%g, %g)", (double)where[0], (double)where[1]));
      else
        PetscCall(PetscSNPrintf(at, sizeof(at), "(%g, %g, %g)", (double)where[0], (double)where[1], (double)where[2]));
      PetscCall(SKInputCheck(ex->input, item, !(count[1] > 0 && 2 * count[1] > count[0]),
                             "contact '%s': side sets 'sideset' and 'master' do not face each other: at %" PetscInt_FMT
                             " of the %" PetscInt_FMT
                             " nodes of '%s' over the other side their outward normals point the same way (cosine %.3g at %s m), so the "
                             "bodies would pass through each other; name the side of the other body that faces this one",
                             name, count[1], count[0], pass == 0 ? "sideset" : "master", (double)cosine, at));
    }
  }
  /* initial penetration: the search finds a face only while the penetration is below its depth */
  for (PetscInt pass = 0; pass < passes; pass++) {
    SKContactMeshSurface ms = pass == 0 ? master_ms : slave_ms;
    const PetscReal *w      = pass == 0 ? ws : wm;
    PetscReal worst         = PETSC_MAX_REAL, dist;
    for (PetscInt p = 0; p < ex->nowned; p++) {
      if (w[p] <= 0) continue;
      PetscCall(SKContactMeshSurfaceDistance(ms, 1, ex->X + p * ex->dim, &dist));
      worst = PetscMin(worst, dist);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPIU_REAL, MPIU_MIN, ex->comm));
    PetscCall(SKContactMeshSurfaceGetInfo(ms, NULL, NULL, &depth[pass], NULL));
    PetscCall(SKInputCheck(ex->input, item, worst >= -0.5 * depth[pass],
                           "contact '%s': a node of side set '%s' starts %g m inside the other body; the bound is %g m (a quarter of the "
                           "smallest face): move the bodies apart",
                           name, pass == 0 ? "sideset" : "master", (double)-worst, (double)(0.5 * depth[pass])));
  }
  for (PetscInt pass = 0; pass < passes; pass++) {
    SKContactMeshSurface master = pass == 0 ? master_ms : slave_ms, slave = !mortar ? NULL : pass == 0 ? slave_ms : master_ms;
    SKContactPair pair;
    char pname[SK_MESH_NAME_LEN];
    PetscCall(PassLaw(ex, item, name, pass, &c->law, pname));
    /* each pair holds a reference to the surfaces it uses (the creation's stay with C) and owns its law */
    PetscCall(SKContactMeshSurfaceReference(master));
    if (slave) PetscCall(SKContactMeshSurfaceReference(slave));
    PetscCall(SKContactPairCreateWithMesh(ex->comm, ex->dim, ex->nlocal, ex->nowned, ex->natural_nodes, pass == 0 ? ws : wm, master, slave,
                                          PassPenalty(eps_n, passes), c->law, &pair));
    c->law = NULL;
    PetscCall(AddPassPair(ex, pname, pair, passes, group, pairs, npairs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many sides of the side set named by ATTR of NODE lie on NURBS patch faces: *NPATCH of *NTOTAL (global counts);
   its local sides into ELEMENTS, FACES, NS (any may be NULL). */
static PetscErrorCode SideSetPatchFaces(SKExplicit ex, SKNode node, const char attr[], PetscInt *npatch, PetscInt *ntotal, PetscInt *ns,
                                        const PetscInt **elements, const PetscInt **faces)
{
  const PetscInt *el, *fa;
  PetscInt n, counts[2] = {0, 0};

  PetscFunctionBegin;
  PetscCall(SKExplicitSideSetFromInput(ex, node, attr, &n, &el, &fa));
  for (PetscInt s = 0; s < n; s++) {
    SKNURBSPatch patch;
    PetscInt pe;
    PetscCall(SKMeshGetPatchElement(ex->mesh, el[s], &patch, &pe));
    counts[0] += patch ? 1 : 0;
  }
  counts[1] = n;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPIU_INT, MPI_SUM, ex->comm));
  *npatch = counts[0], *ntotal = counts[1];
  if (ns) *ns = n;
  if (elements) *elements = el;
  if (faces) *faces = fa;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The contact points of the side set named by attribute ATTR of NODE when it lies on NURBS patch faces (*pf = NULL
   for Lagrange faces; a mix of both is an input error). */
static PetscErrorCode ContactPatchFace(SKExplicit ex, SKNode node, const char attr[], SKContactPatchFace *pf)
{
  const PetscInt *elements, *faces;
  PetscInt ns, npatch, ntotal;

  PetscFunctionBegin;
  *pf = NULL;
  PetscCall(SideSetPatchFaces(ex, node, attr, &npatch, &ntotal, &ns, &elements, &faces));
  if (!npatch) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKInputCheck(ex->input, node, npatch == ntotal,
                         "the contact side set mixes faces of NURBS patches (%" PetscInt_FMT ") and of Lagrange elements (%" PetscInt_FMT
                         ")",
                         npatch, ntotal - npatch));
  PetscCall(SKContactPatchFaceCreate(ex->comm, ex->mesh, ns, elements, faces, pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bodies (ex->body) of the local sides of side set ATTR of NODE, over all ranks, sorted and unique, into *bodies. */
static PetscErrorCode SideSetBodies(SKExplicit ex, SKNode node, const char attr[], PetscInt *n, PetscInt **bodies)
{
  const PetscInt *elements, *faces;
  PetscInt ns, *mine;
  PetscMPIInt size, count, *counts, *displs;

  PetscFunctionBegin;
  PetscCall(SKExplicitSideSetFromInput(ex, node, attr, &ns, &elements, &faces));
  PetscCall(PetscMalloc1(ns, &mine));
  for (PetscInt s = 0; s < ns; s++) mine[s] = ex->body[ex->natural_elements[elements[s]]];
  PetscCall(PetscSortRemoveDupsInt(&ns, mine));
  PetscCallMPI(MPI_Comm_size(ex->comm, &size));
  PetscCall(PetscMalloc2(size, &counts, size, &displs));
  PetscCall(PetscMPIIntCast(ns, &count));
  PetscCallMPI(MPI_Allgather(&count, 1, MPI_INT, counts, 1, MPI_INT, ex->comm));
  displs[0] = 0;
  for (PetscMPIInt r = 1; r < size; r++) displs[r] = displs[r - 1] + counts[r - 1];
  *n = displs[size - 1] + counts[size - 1];
  PetscCall(PetscMalloc1(*n, bodies));
  PetscCallMPI(MPI_Allgatherv(mine, count, MPIU_INT, *bodies, counts, displs, MPIU_INT, ex->comm));
  PetscCall(PetscSortRemoveDupsInt(n, *bodies));
  PetscCall(PetscFree2(counts, displs));
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The largest number of nodes of a face among the NS faces FACES[] of ELEMENTS[] of a side set, over all ranks. */
static PetscErrorCode SideSetMaxFaceNodes(SKExplicit ex, PetscInt ns, const PetscInt elements[], const PetscInt faces[], PetscInt *nfn_max)
{
  PetscFunctionBegin;
  *nfn_max = 0;
  for (PetscInt s = 0; s < ns; s++) {
    PetscInt fn[SK_ELEMENT_MAX_NODES], n;
    PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &n, fn));
    *nfn_max = PetscMax(*nfn_max, n);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, nfn_max, 1, MPIU_INT, MPI_MAX, ex->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The most nodes of a linear face in DIM dimensions (L2; T3 or Q4, also a degree-1 patch face): the control points of
   such a face lie on it, so its nodes are contact points. */
static PetscInt LinearFaceNodes(PetscInt dim)
{
  return dim == 2 ? 2 : 4;
}

/* The slave side of contact NAME (attribute SLAVE_ATTR of ITEM: sideset, or master in the second pass) when it lies on
   NURBS patch faces of degree >= 2 (faces of more control points than LinearFaceNodes()) into *PF (NULL otherwise:
   Lagrange L2, T3, Q4 faces or patch faces of degree 1, whose control points lie on the face, are slave nodes): its
   control points with weighted gaps, the reaction of each Gauss point at its projection onto the master
   (docs/theory.md). The mortar distribution is the mortar rule of the patch face (its integrals split where the
   master's faces meet); against a NURBS master (NURBS_MASTER) it takes patch faces of degree 1 as well, which against
   Lagrange faces are slave nodes of the Lagrange mortar distribution. */
static PetscErrorCode SlavePatchFace(SKExplicit ex, SKNode item, const char slave_attr[], PetscBool nurbs_master, PetscBool mortar,
                                     SKContactPatchFace *pf)
{
  const PetscInt *elements, *faces;
  PetscInt ns, npatch, ntotal, nfn_max;

  PetscFunctionBegin;
  *pf = NULL;
  PetscCall(SideSetPatchFaces(ex, item, slave_attr, &npatch, &ntotal, &ns, &elements, &faces));
  PetscCall(SideSetMaxFaceNodes(ex, ns, elements, faces, &nfn_max));
  if (!npatch || (nfn_max <= LinearFaceNodes(ex->dim) && !(nurbs_master && mortar))) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ContactPatchFace(ex, item, slave_attr, pf));
  if (*pf) PetscCall(SKContactPatchFaceSetMortar(*pf, mortar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A <contact sideset master> pair with NURBS patch faces on one side at least (2D and 3D; docs/input.md): one pass or two
   (the second with the sides swapped), each pass by its sides. Against a master on patch faces: the slave nodes (linear
   Lagrange faces, or patch faces of degree 1, whose control points lie on the face; the point distribution) or a slave
   patch face (SlavePatchFace()) with the NURBS master. Against a master on Lagrange faces (L2; T3, Q4): a slave patch
   face of degree >= 2 with the Lagrange surface as the master. The mortar distribution (the default) is the mortar rule
   of a slave patch face. What is not implemented is refused: slave nodes with the mortar distribution onto a NURBS
   master, Lagrange faces of more nodes than LinearFaceNodes() as a slave, and a pass with Lagrange faces or patch faces
   of degree 1 as the slave on Lagrange faces (a pair of two Lagrange sides, not mixed with a NURBS pass here). C holds
   what is not yet a pair's. */
static PetscErrorCode ReadPatchContact(SKExplicit ex, SKNode item, const char name[], PetscReal eps_n, PetscInt passes, PetscBool mortar,
                                       PetscInt group, ContactParts *c, SKContactPair pairs[], PetscInt *npairs)
{
  PetscInt nb[2];

  PetscFunctionBegin;
  {
    PetscBool found;
    char buf[64];
    PetscCall(SKInputGetString(ex->input, item, "mortar_tolerance", buf, sizeof(buf), &found));
    PetscCall(SKInputCheck(ex->input, item, !found,
                           "contact '%s': mortar_tolerance applies to the mortar distribution between Lagrange faces; with NURBS "
                           "patch faces the mortar rule is exact and has no tolerance",
                           name));
  }
  PetscCall(SideSetBodies(ex, item, "sideset", &nb[0], &c->bodies[0]));
  PetscCall(SideSetBodies(ex, item, "master", &nb[1], &c->bodies[1]));
  PetscCall(CheckDifferentBodies(ex, item, name, nb, c->bodies));
  for (PetscInt pass = 0; pass < passes; pass++) {
    const char *slave_attr = pass == 0 ? "sideset" : "master", *master_attr = pass == 0 ? "master" : "sideset";
    const PetscInt *elements, *faces;
    PetscInt ns, npatch, ntotal, nfn_max;
    SKContactPair pair;
    char pname[SK_MESH_NAME_LEN];

    PetscCall(SideSetPatchFaces(ex, item, master_attr, &npatch, &ntotal, NULL, NULL, NULL));
    PetscCall(SKInputCheck(ex->input, item, npatch == 0 || npatch == ntotal,
                           "contact '%s': side set '%s' mixes faces of NURBS patches (%" PetscInt_FMT
                           ") and of Lagrange elements (%" PetscInt_FMT "); as the master it must lie wholly on one kind",
                           name, master_attr, npatch, ntotal - npatch));
    /* the slave side's nodes are its contact points: on Lagrange faces they must be linear; a patch face of degree >= 2
       (any degree with the mortar rule onto a NURBS master) is a slave patch face PF */
    PetscCall(SlavePatchFace(ex, item, slave_attr, (PetscBool)(npatch > 0), mortar, &c->pf));
    if (!npatch) { /* a slave patch face on Lagrange faces */
      PetscCall(
          SKInputCheck(ex->input, item, c->pf != NULL,
                       "contact '%s': with passes=\"2\" the side set '%s' on Lagrange faces or NURBS patch faces of degree 1 would be "
                       "the slave on the Lagrange faces of '%s'; two passes between NURBS patch faces and Lagrange faces take "
                       "patch faces of degree >= 2",
                       name, slave_attr, master_attr));
      PetscCall(ContactSide(ex, item, slave_attr, &c->w[0], NULL));
      PetscCall(ContactSide(ex, item, master_attr, &c->w[1], &c->ms[1]));
      PetscCall(PassLaw(ex, item, name, pass, &c->law, pname));
      PetscCall(SKContactPairCreateWithMesh(ex->comm, ex->dim, ex->nlocal, ex->nowned, ex->natural_nodes, c->w[0], c->ms[1], NULL,
                                            PassPenalty(eps_n, passes), c->law, &pair));
      c->ms[1] = NULL; /* the pair took the creation's reference */
    } else {           /* slave nodes or a slave patch face on the NURBS master */
      PetscCall(SKInputCheck(ex->input, item, c->pf || !mortar,
                             "contact '%s': the slave side (attribute '%s') against a NURBS master is on Lagrange faces: the mortar "
                             "distribution (the default) onto a NURBS master integrates over slave patch faces; take "
                             "distribution=\"point\" (node-to-segment), or swap sideset and master (a slave patch face takes the "
                             "mortar rule on Lagrange faces)",
                             name, slave_attr));
      PetscCall(SKExplicitSideSetFromInput(ex, item, slave_attr, &ns, &elements, &faces));
      PetscCall(SideSetMaxFaceNodes(ex, ns, elements, faces, &nfn_max));
      PetscCall(SKInputCheck(ex->input, item, nfn_max <= LinearFaceNodes(ex->dim) || c->pf,
                             "contact '%s': the slave side (attribute '%s') against a NURBS master has faces of %" PetscInt_FMT
                             " nodes: a slave side against a deformable master takes linear Lagrange faces (L2 in 2D, T3 or Q4 in 3D) "
                             "or NURBS patch faces",
                             name, slave_attr, nfn_max));
      PetscCall(SideSetPatchFaces(ex, item, master_attr, &npatch, &ntotal, &ns, &elements, &faces));
      PetscCall(ContactSide(ex, item, slave_attr, &c->w[0], NULL));
      PetscCall(PassLaw(ex, item, name, pass, &c->law, pname));
      PetscCall(SKContactPairCreateWithPatchMaster(ex->comm, ex->mesh, ns, elements, faces, ex->nlocal, ex->nowned, ex->natural_nodes,
                                                   ex->X, ex->mass, c->w[0], PassPenalty(eps_n, passes), c->law, &pair));
    }
    c->law = NULL; /* the pair's */
    PetscCall(PetscFree(c->w[0]));
    PetscCall(PetscFree(c->w[1]));
    if (c->pf) PetscCall(SKContactPairSetPatchFace(pair, c->pf)); /* the pair owns it */
    c->pf = NULL;
    PetscCall(AddPassPair(ex, pname, pair, passes, group, pairs, npairs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One <contact> ITEM, the GROUP-th, with the parts C (freed by the caller whatever happens). */
static PetscErrorCode ReadContact(SKExplicit ex, SKNode item, PetscInt group, ContactParts *c)
{
  PetscReal eps_n;
  SKNode fnode;
  char name[SK_MESH_NAME_LEN] = "contact", damping[16] = "implicit"; /* the schema allows implicit and explicit */
  PetscBool explicit_damping, deformable, has_damping;
  SKContactPair pairs[2]; /* the pairs of this <contact>: a two-pass pair is two pairs */
  PetscInt npairs = 0;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(ex->input, item, "name", name, sizeof(name), NULL));
  PetscCall(SKInputRequireReal(ex->input, item, "penalty", &eps_n));
  PetscCall(SKInputCheckPositive(ex->input, item, "penalty", eps_n));
  {
    char master[SK_MESH_NAME_LEN];
    PetscCall(SKInputGetString(ex->input, item, "master", master, sizeof(master), &deformable));
  }
  PetscCall(SKInputGetString(ex->input, item, "damping", damping, sizeof(damping), &has_damping));
  PetscCall(PetscStrcmp(damping, "explicit", &explicit_damping));
  if (deformable) {
    /* the implicit damping acts on the slave side only: a pair between deformable bodies takes the explicit
       treatment, also by default */
    PetscCall(SKInputCheck(ex->input, item, explicit_damping || !has_damping,
                           "damping=\"implicit\" acts on one side only: contact between deformable bodies takes damping=\"explicit\""));
    explicit_damping = PETSC_TRUE;
    PetscCall(ReadDeformableContact(ex, item, name, eps_n, group, c, pairs, &npairs));
  } else {
    PetscReal kt, ct;

    for (PetscInt k = 0; k < 3; k++) { /* the attributes of a pair between deformable bodies mean nothing here */
      static const char *const deformable_only[] = {"passes", "distribution", "mortar_tolerance"};
      char buf[64];
      PetscBool found;
      PetscCall(SKInputGetString(ex->input, item, deformable_only[k], buf, sizeof(buf), &found));
      PetscCall(SKInputCheck(ex->input, item, !found,
                             "attribute '%s' applies to contact between deformable bodies (master=); a pair with a rigid surface has none",
                             deformable_only[k]));
    }
    PetscCall(ContactSide(ex, item, "sideset", &c->w[0], NULL));
    PetscCall(ContactPatchFace(ex, item, "sideset", &c->pf));
    PetscCall(SKInputRequireChild(ex->input, item, "friction", &fnode));
    PetscCall(SKFrictionLawCreateFromXML(ex->input, fnode, &c->law));
    PetscCall(SKRigidSurfaceCreateFromXML(ex->input, item, ex->dim, &c->surface));
    /* the friction damping is implicit unless asked otherwise: stable for any damping, so that the default LuGre values
       run at the step the stiffness allows (docs/theory.md, "Critical time step"); a law without damping (Coulomb) takes
       the explicit path, which is then the same scheme without the per-node damping solve */
    PetscCall(SKFrictionLawGetTangentModuli(c->law, 1.0, &kt, &ct));
    if (!has_damping && ct == 0) explicit_damping = PETSC_TRUE;
    PetscCall(
        SKContactPairCreateWithSurface(ex->comm, ex->dim, ex->nlocal, ex->nowned, c->w[0], c->surface, eps_n, c->law, &pairs[npairs]));
    c->law = NULL, c->surface = NULL;                                    /* the pair's */
    PetscCall(SKExplicitAddContactTerm(ex, name, pairs[npairs], group)); /* the term owns the pair */
    if (c->pf) PetscCall(SKContactPairSetPatchFace(pairs[npairs], c->pf));
    c->pf = NULL;
    npairs++;
  }
  /* the passes of one <contact> act together: one group of terms (ExplicitContactStep) */
  for (PetscInt k = 0; k < npairs; k++)
    PetscCall(SKContactPairSetDamping(pairs[k], explicit_damping ? SK_CONTACT_DAMPING_EXPLICIT : SK_CONTACT_DAMPING_IMPLICIT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <contact name sideset surface ... penalty> with a <friction law=.../> child: a side set against a rigid surface, or
   with master="SIDESET" against the side set of another body (module contact). The side set must lie on the boundary;
   the weights are those of a unit traction on it. */
PetscErrorCode SKExplicitReadContacts(SKExplicit ex, SKNode root)
{
  PetscInt group = 0;

  PetscFunctionBegin;
  for (SKNode item = SKNodeFirstChild(root, "contact"); item; item = SKNodeNextSibling(item, "contact"), group++) {
    ContactParts c = {{NULL, NULL}, {NULL, NULL}, NULL, NULL, NULL, {NULL, NULL}};
    PetscErrorCode ierr;

    ierr = ReadContact(ex, item, group, &c);
    PetscCall(ContactPartsDestroy(&c));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
