/* Explicit solver setup: reads an <explicit> input (schema/explicit.xsd) into the solver state, checking the physics
   (every problem an input error at the offending element's line), distributes the mesh and assembles the lumped mass. */
#include "explicitimpl.h"
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* With -explicit_setup_view: one line per set-up phase on rank 0 with the wall time since the start of the set-up, the
   process CPU time (user + system, which a loaded machine does not inflate), the resident set size now and its peak so
   far (getrusage), each the maximum over the ranks. */
PetscErrorCode SKExplicitSetupView(SKExplicit ex, const char phase[])
{
  PetscLogDouble now, rss;
  struct rusage ru;
  PetscReal v[4];

  PetscFunctionBegin;
  PetscCall(PetscTime(&now));
  if (!ex->setup_view) PetscFunctionReturn(PETSC_SUCCESS);
  { /* the resident set now from /proc (PetscMemoryGetCurrentUsage may return the peak instead) */
    FILE *fp           = fopen("/proc/self/statm", "r");
    unsigned long size = 0, r = 0;
    if (fp && fscanf(fp, "%lu %lu", &size, &r) == 2)
      rss = (PetscLogDouble)r * (PetscLogDouble)sysconf(_SC_PAGESIZE);
    else
      PetscCall(PetscMemoryGetCurrentUsage(&rss));
    if (fp) (void)fclose(fp);
  }
  PetscCheck(!getrusage(RUSAGE_SELF, &ru), PETSC_COMM_SELF, PETSC_ERR_SYS, "getrusage() failed");
  v[0] = now - ex->setup_t0;
  v[1] = (PetscReal)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (PetscReal)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  v[2] = rss / 1048576.0;
  v[3] = (PetscReal)ru.ru_maxrss / 1024.0; /* kB on Linux */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, 4, MPIU_REAL, MPIU_MAX, ex->comm));
  PetscCall(PetscPrintf(ex->comm, "setup %-32s wall %8.3f s  cpu %8.3f s  rss %8.1f MiB  peak %8.1f MiB\n", phase, (double)v[0],
                        (double)v[1], (double)v[2], (double)v[3]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With -explicit_setup_view: the partition's quality, elements, owned and ghost nodes per rank (min and max). */
static PetscErrorCode PartitionView(SKExplicit ex)
{
  PetscInt nghost, v[6], w[6];

  PetscFunctionBegin;
  if (!ex->setup_view) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKMeshGetGhostNodes(ex->mesh, &nghost, NULL, NULL));
  v[0] = -ex->nelem, v[1] = ex->nelem, v[2] = -ex->nowned, v[3] = ex->nowned, v[4] = -nghost, v[5] = nghost;
  PetscCallMPI(MPI_Allreduce(v, w, 6, MPIU_INT, MPI_MAX, ex->comm));
  PetscCall(PetscPrintf(ex->comm,
                        "setup partition over %d ranks: elements %" PetscInt_FMT "-%" PetscInt_FMT ", owned nodes %" PetscInt_FMT
                        "-%" PetscInt_FMT ", ghost nodes %" PetscInt_FMT "-%" PetscInt_FMT " per rank\n",
                        ex->size, -w[0], w[1], -w[2], w[3], -w[4], w[5]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Components named in an input: "x", "y", "z" or "all" -> bit mask. */
static PetscErrorCode ReadComponents(SKExplicit ex, SKNode node, const char attr[], PetscInt *mask)
{
  char buf[16] = "all";
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(ex->input, node, attr, buf, sizeof(buf), &found));
  if (!strcmp(buf, "all"))
    *mask = (1 << ex->dim) - 1;
  else {
    PetscCall(SKInputCheck(ex->input, node, strlen(buf) == 1 && buf[0] >= 'x' && buf[0] < 'x' + ex->dim,
                           "%s = '%s' is not a component of this %" PetscInt_FMT "D problem (x, y%s or all)", attr, buf, ex->dim,
                           ex->dim == 3 ? ", z" : ""));
    *mask = 1 << (buf[0] - 'x');
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector attribute with exactly dim components (or `count` when count > 0); absent -> *found false, v untouched. */
static PetscErrorCode ReadVector(SKExplicit ex, SKNode node, const char attr[], PetscInt count, PetscReal v[], PetscBool *found)
{
  PetscReal buf[3];
  PetscInt n = 3, want = count > 0 ? count : ex->dim;
  PetscBool has;

  PetscFunctionBegin;
  PetscCall(SKInputGetRealList(ex->input, node, attr, &n, buf, &has));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKInputCheck(ex->input, node, n == want, "attribute '%s' needs %" PetscInt_FMT " values, got %" PetscInt_FMT, attr, want, n));
  for (PetscInt d = 0; d < want; d++) v[d] = buf[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The child <function> of NODE, or the constant DEFAULT_VALUE when there is none. */
static PetscErrorCode ReadFunction(SKExplicit ex, SKNode node, PetscReal default_value, SKTimeFunction *f)
{
  SKNode fn;

  PetscFunctionBegin;
  PetscCall(SKNodeGetChild(node, "function", &fn));
  if (fn)
    PetscCall(SKTimeFunctionFromXML(ex->input, fn, f));
  else {
    PetscCall(PetscMemzero(f, sizeof(*f)));
    f->type      = SK_TF_CONSTANT;
    f->amplitude = default_value;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitNodeSetFromInput(SKExplicit ex, SKNode node, const char attr[], PetscInt *n, const PetscInt **nodes,
                                          PetscInt *global_size)
{
  char name[SK_MESH_NAME_LEN], list[1024];
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(ex->input, node, attr, name, sizeof(name)));
  PetscCall(SKMeshFindNodeSet(ex->mesh, name, &i));
  if (i < 0) {
    PetscCall(SKMeshListSets(ex->mesh, 0, list, sizeof(list)));
    PetscCall(SKInputError(ex->input, node, "unknown node set '%s' (known: %s)", name, list));
  }
  PetscCall(SKMeshGetNodeSet(ex->mesh, i, NULL, n, nodes, global_size));
  PetscCall(SKInputCheck(ex->input, node, *global_size > 0, "node set '%s' is empty (a box set without nodes inside?)", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The side set named by attribute ATTR of NODE (must exist and not be empty). */
static PetscErrorCode SideSetFromInput(SKExplicit ex, SKNode node, const char attr[], PetscInt *n, const PetscInt **elements,
                                       const PetscInt **faces)
{
  char name[SK_MESH_NAME_LEN], list[1024];
  PetscInt i, global_size;

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(ex->input, node, attr, name, sizeof(name)));
  PetscCall(SKMeshFindSideSet(ex->mesh, name, &i));
  if (i < 0) {
    PetscCall(SKMeshListSets(ex->mesh, 1, list, sizeof(list)));
    PetscCall(SKInputError(ex->input, node, "unknown side set '%s' (known: %s)", name, list));
  }
  PetscCall(SKMeshGetSideSet(ex->mesh, i, NULL, n, elements, faces, &global_size));
  PetscCall(SKInputCheck(ex->input, node, global_size > 0, "side set '%s' is empty (no boundary face on its plane?)", name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reference-area weights w[node] += int_face N_a dA (m^2 in 3D, m in 2D) over the sides of a side set: the consistent
   nodal load of a unit dead traction (SKFEMFaceIntegrals() per face; on NURBS patch faces the rational basis). */
static PetscErrorCode FaceWeights(SKExplicit ex, PetscInt nsides, const PetscInt elements[], const PetscInt faces[], PetscReal w[])
{
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  for (PetscInt s = 0; s < nsides; s++) {
    SKElementType type;
    const SKElementTypeInfo *info;
    PetscInt fn[SK_ELEMENT_MAX_NODES], nf;
    PetscReal Xf[SK_ELEMENT_MAX_NODES * 3], wf[SK_ELEMENT_MAX_NODES];

    PetscCall(SKMeshGetElement(ex->mesh, elements[s], NULL, &type, NULL));
    PetscCall(SKElementTypeGetInfo(type, &info));
    PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &nf, fn));
    for (PetscInt a = 0; a < nf; a++) {
      wf[a] = w[fn[a]];
      for (PetscInt d = 0; d < dim; d++) Xf[a * dim + d] = ex->X[fn[a] * dim + d];
    }
    if (info->ref_coords)
      PetscCall(SKFEMFaceIntegrals(type, Xf, wf, NULL));
    else /* a NURBS patch face: int R_a dA over the physical face (src/fem/face_patch.c) */
      PetscCall(SKMeshPatchFaceWeights(ex->mesh, elements[s], faces[s], ex->X, wf));
    for (PetscInt a = 0; a < nf; a++) w[fn[a]] = wf[a];
  }
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
   and, when MS is not NULL, the side set as a deformable contact surface. */
static PetscErrorCode ContactSide(SKExplicit ex, SKNode node, const char attr[], PetscReal **w, SKContactMeshSurface *ms)
{
  const PetscInt *elements, *faces;
  PetscInt ns;

  PetscFunctionBegin;
  PetscCall(SideSetFromInput(ex, node, attr, &ns, &elements, &faces));
  PetscCall(CheckContactSides(ex, node, ns, elements, faces));
  PetscCall(PetscCalloc1(ex->nlocal, w));
  PetscCall(FaceWeights(ex, ns, elements, faces, *w));
  PetscCall(SKExplicitAssembleNodal(ex, *w, 1));
  if (ms) {
    PetscInt *key, *fnodes, nf = 0, nfn = 0;

    PetscCall(PetscMalloc2(ns, &key, ns * 9, &fnodes));
    for (PetscInt s = 0; s < ns; s++) {
      PetscCall(SKMeshGetFaceNodes(ex->mesh, elements[s], faces[s], &nf, fnodes + s * nf));
      PetscCall(SKInputCheck(ex->input, node, nfn == 0 || nf == nfn,
                             "side set '%s' mixes faces of %" PetscInt_FMT " and %" PetscInt_FMT " nodes", attr, nfn, nf));
      nfn    = nf;
      key[s] = ex->natural_elements[elements[s]] * 8 + faces[s];
    }
    {
      PetscInt nmax = nfn;
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nmax, 1, MPIU_INT, MPI_MAX, ex->comm));
      PetscCall(SKInputCheck(ex->input, node, (ex->dim == 2 && nmax == 2) || (ex->dim == 3 && (nmax == 3 || nmax == 4)),
                             "contact between deformable bodies takes linear faces (L2 in 2D; T3 or Q4 in 3D), the side set of '%s' has "
                             "%" PetscInt_FMT "-node faces",
                             attr, nmax));
      nfn = nmax;
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

/* A <contact sideset master> pair between deformable bodies: checks (different bodies, initial penetration within
   what the search finds) and the pair(s): one pass, or two with the sides swapped and the penalty halved. */
static PetscErrorCode ReadDeformableContact(SKExplicit ex, SKNode item, const char name[], PetscReal eps_n)
{
  SKContactMeshSurface slave_ms, master_ms;
  PetscReal *ws, *wm, depth[2];
  PetscInt passes = 1, nb[2];
  PetscBool mortar;
  PetscInt *bodies[2];
  SKNode fnode;

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
  PetscCall(ContactSide(ex, item, "sideset", &ws, &slave_ms));
  PetscCall(ContactSide(ex, item, "master", &wm, &master_ms));
  PetscCall(SurfaceBodies(ex, slave_ms, &nb[0], &bodies[0]));
  PetscCall(SurfaceBodies(ex, master_ms, &nb[1], &bodies[1]));
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
  PetscCall(PetscFree(bodies[0]));
  PetscCall(PetscFree(bodies[1]));
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
    SKFrictionLaw law;
    /* two passes average their forces: each carries half the penalty (normal and friction forces are linear in it) */
    const PetscReal eps = passes == 2 ? 0.5 * eps_n : eps_n;
    PetscCall(SKInputRequireChild(ex->input, item, "friction", &fnode));
    PetscCall(SKFrictionLawCreateFromXML(ex->input, fnode, &law));
    if (pass == 1)
      PetscCall(PetscSNPrintf(ex->contact_names[ex->ncontacts], SK_MESH_NAME_LEN, "%s_2", name));
    else
      PetscCall(PetscStrncpy(ex->contact_names[ex->ncontacts], name, SK_MESH_NAME_LEN));
    /* each pair holds a reference to the surfaces it uses: the first pass takes the creation's, the second its own */
    if (pass == 1) PetscCall(SKContactMeshSurfaceReference(slave_ms));
    if (pass == 1 && mortar) PetscCall(SKContactMeshSurfaceReference(master_ms));
    PetscCall(SKContactPlaneCreateWithMesh(ex->comm, ex->dim, ex->nlocal, ex->nowned, ex->natural_nodes, pass == 0 ? ws : wm,
                                           pass == 0 ? master_ms : slave_ms,
                                           !mortar     ? NULL
                                           : pass == 0 ? slave_ms
                                                       : master_ms,
                                           eps, law, &ex->contacts[ex->ncontacts++]));
  }
  if (!mortar) PetscCall(SKContactMeshSurfaceDestroy(&slave_ms)); /* the creation's reference, unused */
  PetscCall(PetscFree(ws));
  PetscCall(PetscFree(wm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The contact points of the side set named by attribute sideset of NODE when it lies on NURBS patch faces (*pf = NULL
   for Lagrange faces; a mix of both is an input error). */
static PetscErrorCode ContactPatchFace(SKExplicit ex, SKNode node, SKContactPatchFace *pf)
{
  const PetscInt *elements, *faces;
  PetscInt ns, counts[2] = {0, 0};

  PetscFunctionBegin;
  *pf = NULL;
  PetscCall(SideSetFromInput(ex, node, "sideset", &ns, &elements, &faces));
  for (PetscInt s = 0; s < ns; s++) {
    SKNURBSPatch patch;
    PetscInt pe;
    PetscCall(SKMeshGetPatchElement(ex->mesh, elements[s], &patch, &pe));
    counts[0] += patch ? 1 : 0;
  }
  counts[1] = ns;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPIU_INT, MPI_SUM, ex->comm));
  if (!counts[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKInputCheck(ex->input, node, counts[0] == counts[1],
                         "the contact side set mixes faces of NURBS patches (%" PetscInt_FMT ") and of Lagrange elements (%" PetscInt_FMT
                         ")",
                         counts[0], counts[1] - counts[0]));
  PetscCall(SKContactPatchFaceCreate(ex->comm, ex->mesh, ns, elements, faces, pf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <contact name sideset surface ... penalty> with a <friction law=.../> child: a side set against a rigid surface, or
   with master="SIDESET" against the side set of another body (module contact). The side set must lie on the boundary;
   the weights are those of a unit traction on it. */
static PetscErrorCode ReadContacts(SKExplicit ex, SKNode root)
{
  SKNode *items;
  PetscInt n;
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  PetscCall(SKNodeGetChildren(root, "contact", &n, &items));
  /* a two-pass pair is two pairs */
  PetscCall(PetscCalloc4(2 * n, &ex->contacts, 2 * n, &ex->contact_names, 2 * n, &ex->contact_hist, 2 * n, &ex->contact_group));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal *w, eps_n;
    SKNode fnode;
    SKFrictionLaw law;
    SKRigidSurface surface;
    char name[SK_MESH_NAME_LEN] = "contact", damping[16] = "implicit"; /* the schema allows implicit and explicit */
    PetscBool explicit_damping, deformable, has_damping;
    const PetscInt first = ex->ncontacts;

    PetscCall(SKInputGetString(ex->input, items[i], "name", name, sizeof(name), NULL));
    PetscCall(SKInputRequireReal(ex->input, items[i], "penalty", &eps_n));
    PetscCall(SKInputCheckPositive(ex->input, items[i], "penalty", eps_n));
    {
      char master[SK_MESH_NAME_LEN];
      PetscCall(SKInputGetString(ex->input, items[i], "master", master, sizeof(master), &deformable));
    }
    PetscCall(SKInputGetString(ex->input, items[i], "damping", damping, sizeof(damping), &has_damping));
    PetscCall(PetscStrcmp(damping, "explicit", &explicit_damping));
    if (deformable) {
      /* the implicit damping acts on the slave side only: a pair between deformable bodies takes the explicit
         treatment, also by default */
      PetscCall(SKInputCheck(ex->input, items[i], explicit_damping || !has_damping,
                             "damping=\"implicit\" acts on one side only: contact between deformable bodies takes damping=\"explicit\""));
      explicit_damping = PETSC_TRUE;
      PetscCall(ReadDeformableContact(ex, items[i], name, eps_n));
    } else {
      PetscReal kt, ct;
      SKContactPatchFace pf;

      PetscCall(PetscStrncpy(ex->contact_names[first], name, sizeof(ex->contact_names[first])));
      for (PetscInt k = 0; k < 2; k++) { /* the attributes of a pair between deformable bodies mean nothing here */
        static const char *const deformable_only[] = {"passes", "distribution"};
        char buf[64];
        PetscBool found;
        PetscCall(SKInputGetString(ex->input, items[i], deformable_only[k], buf, sizeof(buf), &found));
        PetscCall(
            SKInputCheck(ex->input, items[i], !found,
                         "attribute '%s' applies to contact between deformable bodies (master=); a pair with a rigid surface has none",
                         deformable_only[k]));
      }
      PetscCall(ContactSide(ex, items[i], "sideset", &w, NULL));
      PetscCall(ContactPatchFace(ex, items[i], &pf));
      PetscCall(SKInputRequireChild(ex->input, items[i], "friction", &fnode));
      PetscCall(SKFrictionLawCreateFromXML(ex->input, fnode, &law));
      PetscCall(SKRigidSurfaceCreateFromXML(ex->input, items[i], dim, &surface));
      /* the friction damping is implicit unless asked otherwise: stable for any damping, so that the default LuGre values
         run at the step the stiffness allows (docs/theory.md, "Critical time step"); a law without damping (Coulomb) takes
         the explicit path, which is then the same scheme without the per-node damping solve */
      PetscCall(SKFrictionLawGetTangentModuli(law, 1.0, &kt, &ct));
      if (!has_damping && ct == 0) explicit_damping = PETSC_TRUE;
      if (pf) { /* control points of a patch face see weighted velocities: the implicit damping (a node's own) does not apply */
        PetscCall(
            SKInputCheck(ex->input, items[i], explicit_damping || !has_damping,
                         "damping=\"implicit\" acts on a node's own velocity: contact on a NURBS patch face takes damping=\"explicit\""));
        explicit_damping = PETSC_TRUE;
      }
      PetscCall(
          SKContactPlaneCreateWithSurface(ex->comm, dim, ex->nlocal, ex->nowned, w, surface, eps_n, law, &ex->contacts[ex->ncontacts++]));
      if (pf) PetscCall(SKContactPlaneSetPatchFace(ex->contacts[ex->ncontacts - 1], pf));
      PetscCall(PetscFree(w));
    }
    for (PetscInt k = first; k < ex->ncontacts; k++) { /* the passes of one <contact> act together (ExplicitContactStep) */
      PetscCall(SKContactPlaneSetDamping(ex->contacts[k], explicit_damping ? SK_CONTACT_DAMPING_EXPLICIT : SK_CONTACT_DAMPING_IMPLICIT));
      ex->contact_group[k] = i;
    }
  }
  PetscCall(PetscFree(items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root-level <nodeset name lower upper> (nodes in a box) and <sideset name axis value> (boundary faces on a plane),
   added to the replicated mesh before it is distributed; plus the implicit node set "all". */
static PetscErrorCode AddInputSets(SKExplicit ex, SKNode root, SKMesh mesh)
{
  SKNode *items;
  PetscInt n, nn, idx;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKNodeGetChildren(root, "nodeset", &n, &items));
  for (PetscInt i = 0; i < n; i++) {
    char name[SK_MESH_NAME_LEN];
    PetscReal lo[3], hi[3];
    PetscInt *sel, ns = 0;

    PetscCall(SKInputRequireString(ex->input, items[i], "name", name, sizeof(name)));
    PetscCall(ReadVector(ex, items[i], "lower", 0, lo, NULL));
    PetscCall(ReadVector(ex, items[i], "upper", 0, hi, NULL));
    PetscCall(SKMeshFindNodeSet(mesh, name, &idx));
    PetscCall(SKInputCheck(ex->input, items[i], idx < 0, "node set '%s' is already defined", name));
    PetscCall(PetscMalloc1(nn, &sel));
    for (PetscInt p = 0; p < nn; p++) {
      PetscBool in = PETSC_TRUE;
      for (PetscInt d = 0; d < ex->dim; d++) in = (PetscBool)(in && X[p * ex->dim + d] >= lo[d] && X[p * ex->dim + d] <= hi[d]);
      if (in) sel[ns++] = p;
    }
    /* an empty set is refused where a condition uses it, with that condition's line */
    PetscCall(SKMeshAddNodeSet(mesh, name, ns, sel));
    PetscCall(PetscFree(sel));
  }
  PetscCall(PetscFree(items));
  PetscCall(SKNodeGetChildren(root, "sideset", &n, &items));
  for (PetscInt i = 0; i < n; i++) {
    char name[SK_MESH_NAME_LEN], axis[4];
    PetscReal value;

    PetscCall(SKInputRequireString(ex->input, items[i], "name", name, sizeof(name)));
    PetscCall(SKInputRequireString(ex->input, items[i], "axis", axis, sizeof(axis)));
    PetscCall(SKInputRequireReal(ex->input, items[i], "value", &value));
    PetscCall(SKInputCheck(ex->input, items[i], axis[0] >= 'x' && axis[0] < 'x' + ex->dim && !axis[1], "axis = '%s' is not x, y%s", axis,
                           ex->dim == 3 ? " or z" : ""));
    PetscCall(SKMeshFindSideSet(mesh, name, &idx));
    PetscCall(SKInputCheck(ex->input, items[i], idx < 0, "side set '%s' is already defined", name));
    { /* the mesh refuses an empty set without knowing the input: say where it was asked for */
      PetscErrorCode ierr;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SKMeshAddPlaneSets(mesh, name, axis[0] - 'x', value);
      PetscCall(PetscPopErrorHandler());
      PetscCall(SKInputCheck(ex->input, items[i], ierr != SK_ERR_INPUT,
                             "side set '%s' is empty: no boundary face lies on the plane %c = %g", name, axis[0], (double)value));
      PetscCall(ierr);
    }
  }
  PetscCall(PetscFree(items));
  PetscCall(SKMeshFindNodeSet(mesh, "all", &idx));
  if (idx < 0) {
    PetscInt *all;
    PetscCall(PetscMalloc1(nn, &all));
    for (PetscInt p = 0; p < nn; p++) all[p] = p;
    PetscCall(SKMeshAddNodeSet(mesh, "all", nn, all));
    PetscCall(PetscFree(all));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Representative node of X's class in the union-find forest PARENT, with path halving. */
static PetscInt FindRoot(PetscInt parent[], PetscInt x)
{
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* The bodies of the (replicated) mesh: ex->body[natural element] = the smallest node number of its connected group of
   elements (elements sharing a node are connected). O(nodes + element nodes). */
static PetscErrorCode FindBodies(SKExplicit ex, SKMesh mesh)
{
  PetscInt nn, ne, *parent;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, NULL));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  PetscCall(PetscMalloc1(nn, &parent));
  PetscCall(PetscMalloc1(ne, &ex->body));
  for (PetscInt i = 0; i < nn; i++) parent[i] = i;
  for (PetscInt e = 0; e < ne; e++) {
    SKElementType type;
    const SKElementTypeInfo *info;
    const PetscInt *conn;
    PetscCall(SKMeshGetElement(mesh, e, NULL, &type, &conn));
    PetscCall(SKElementTypeGetInfo(type, &info));
    for (PetscInt a = 1; a < info->num_nodes; a++) {
      const PetscInt r0 = FindRoot(parent, conn[0]), r1 = FindRoot(parent, conn[a]);
      if (r0 != r1) parent[PetscMax(r0, r1)] = PetscMin(r0, r1);
    }
  }
  for (PetscInt e = 0; e < ne; e++) {
    const PetscInt *conn;
    PetscCall(SKMeshGetElement(mesh, e, NULL, NULL, &conn));
    ex->body[e] = FindRoot(parent, conn[0]);
  }
  PetscCall(PetscFree(parent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every element of the reference mesh must have det(dX/dxi) > 0 at every quadrature point. */
static PetscErrorCode CheckReference(SKExplicit ex, SKNode mesh_node, SKMesh mesh)
{
  PetscInt nb;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCall(SKMeshGetNodes(mesh, NULL, &X));
  for (PetscInt b = 0; b < nb; b++) {
    const char *name;
    PetscInt ne, first;
    const PetscInt *conn;
    SKBasis basis;
    SKFEMFailure fail;

    PetscCall(SKMeshGetBlock(mesh, b, &name, NULL, NULL, &ne, &first, &conn));
    PetscCall(SKBasisCreateForBlock(mesh, b, &basis));
    PetscCall(SKFEMCheckReference(basis, ne, conn, X, NULL, &fail));
    PetscCall(SKBasisDestroy(&basis));
    PetscCall(
        SKInputCheck(ex->input, mesh_node, fail.kind == SK_FEM_OK,
                     "element %" PetscInt_FMT
                     " (block '%s') is inverted or degenerate in the reference mesh: det(dX/dxi) = %g at quadrature point %" PetscInt_FMT
                     "; check its node order (VTK convention, counter-clockwise in 2D) and its shape",
                     first + fail.element, name, (double)fail.det, fail.qp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <watch name point>: the node nearest to the point in the replicated mesh; watch[i].node holds its natural number
   until the mesh is distributed. */
static PetscErrorCode ReadWatchPoints(SKExplicit ex, SKNode root, SKMesh mesh)
{
  SKNode *items;
  PetscInt nn;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodes(mesh, &nn, &X));
  PetscCall(SKNodeGetChildren(root, "watch", &ex->nwatch, &items));
  PetscCall(PetscCalloc1(ex->nwatch, &ex->watch));
  for (PetscInt i = 0; i < ex->nwatch; i++) {
    PetscReal p[3], best = PETSC_MAX_REAL;
    PetscCall(SKInputRequireString(ex->input, items[i], "name", ex->watch[i].name, sizeof(ex->watch[i].name)));
    for (PetscInt j = 0; j < i; j++)
      PetscCall(SKInputCheck(ex->input, items[i], strcmp(ex->watch[i].name, ex->watch[j].name), "watch point '%s' is defined twice",
                             ex->watch[i].name));
    PetscCall(ReadVector(ex, items[i], "point", 0, p, NULL));
    ex->watch[i].node = -1;
    PetscCall(SKMeshLocatePatchPoint(mesh, p, &ex->watch[i].n, ex->watch[i].nodes, ex->watch[i].R, &best));
    if (ex->watch[i].n) continue; /* meshes of NURBS patches: the patch point nearest to the given one */
    best = PETSC_MAX_REAL;
    for (PetscInt q = 0; q < nn; q++) {
      PetscReal d2 = 0;
      for (PetscInt d = 0; d < ex->dim; d++) d2 += PetscSqr(X[q * ex->dim + d] - p[d]);
      if (d2 < best) best = d2, ex->watch[i].node = q;
    }
  }
  PetscCall(PetscFree(items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadBlocks(SKExplicit ex, SKNode root)
{
  SKNode *items;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(SKMeshGetNumBlocks(ex->mesh, &ex->nblocks));
  PetscCall(PetscCalloc1(ex->nblocks, &ex->blocks));
  PetscCall(SKNodeGetChildren(root, "block", &n, &items));
  for (PetscInt i = 0; i < n; i++) {
    char name[SK_MESH_NAME_LEN], type[64], state[32] = "", lumping[16] = "auto", list[1024];
    PetscReal E, nu, rho;
    PetscInt b;
    SKStressState ss = ex->dim == 3 ? SK_STRESS_STATE_3D : SK_STRESS_STATE_PLANE_STRAIN;
    PetscBool exists, found;
    SKElementType et;
    const SKElementTypeInfo *info;
    SKExplicitBlock *blk;
    SKFEMFailure fail;

    PetscCall(SKInputRequireString(ex->input, items[i], "name", name, sizeof(name)));
    PetscCall(SKMeshFindBlock(ex->mesh, name, &b));
    if (b < 0) {
      list[0] = 0;
      for (PetscInt k = 0; k < ex->nblocks; k++) {
        const char *bn;
        PetscCall(SKMeshGetBlock(ex->mesh, k, &bn, NULL, NULL, NULL, NULL, NULL));
        if (k) PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
        PetscCall(PetscStrlcat(list, bn, sizeof(list)));
      }
      PetscCall(SKInputError(ex->input, items[i], "unknown element block '%s' (the mesh has: %s)", name, list));
    }
    blk = &ex->blocks[b];
    PetscCall(SKInputCheck(ex->input, items[i], !blk->basis, "block '%s' has two materials", name));
    PetscCall(SKInputRequireString(ex->input, items[i], "material", type, sizeof(type)));
    PetscCall(SKMaterialTypeExists(type, &exists));
    if (!exists) {
      PetscCall(SKMaterialTypeList(list, sizeof(list)));
      PetscCall(SKInputError(ex->input, items[i], "unknown material '%s' (known: %s)", type, list));
    }
    PetscCall(SKInputRequireReal(ex->input, items[i], "E", &E));
    PetscCall(SKInputCheckPositive(ex->input, items[i], "E", E));
    PetscCall(SKInputRequireReal(ex->input, items[i], "nu", &nu));
    PetscCall(SKInputCheck(ex->input, items[i], nu > -1.0 && nu < 0.5, "Poisson's ratio nu = %g is outside (-1, 0.5)", (double)nu));
    PetscCall(SKInputRequireReal(ex->input, items[i], "rho", &rho));
    PetscCall(SKInputCheckPositive(ex->input, items[i], "rho", rho));
    PetscCall(SKInputGetString(ex->input, items[i], "stress_state", state, sizeof(state), &found));
    if (found) {
      PetscInt k;
      for (k = 0; SKStressStateNames[k]; k++)
        if (!strcmp(state, SKStressStateNames[k])) break;
      PetscCall(SKInputCheck(ex->input, items[i], SKStressStateNames[k] != NULL,
                             "unknown stress_state '%s' (3d, plane_strain, plane_stress)", state));
      ss = (SKStressState)k;
      PetscCall(SKInputCheck(ex->input, items[i], (ss == SK_STRESS_STATE_3D) == (ex->dim == 3),
                             "stress_state '%s' does not fit a %" PetscInt_FMT "D mesh", state, ex->dim));
    }
    PetscCall(SKInputGetString(ex->input, items[i], "lumping", lumping, sizeof(lumping), NULL));
    PetscCall(SKMaterialCreate(type, ss, E, nu, rho, &blk->mat));
    PetscCall(SKMeshGetBlock(ex->mesh, b, NULL, &blk->id, &et, &blk->nelem, &blk->first, &blk->conn));
    PetscCall(SKElementTypeGetInfo(et, &info));
    blk->nodes = info->num_nodes;
    PetscCall(SKBasisCreateForBlock(ex->mesh, b, &blk->basis));
    {
      const SKLumping lump = !strcmp(lumping, "rowsum") ? SK_LUMPING_ROWSUM : !strcmp(lumping, "hrz") ? SK_LUMPING_HRZ : SK_LUMPING_AUTO;
      PetscCall(SKFEMLumpedMass(blk->basis, rho, lump, blk->nelem, blk->conn, ex->X, ex->mass, &fail));
      if (fail.kind != SK_FEM_OK)
        PetscCall(SKFEMFailureRaise(PETSC_COMM_SELF, &fail, ex->natural_elements[blk->first + fail.element], -1.0));
    }
  }
  PetscCall(PetscFree(items));
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    const char *bn;
    PetscInt ne;
    PetscCall(SKMeshGetBlock(ex->mesh, b, &bn, NULL, NULL, &ne, NULL, NULL));
    PetscCall(SKInputCheck(ex->input, root, ex->blocks[b].basis != NULL,
                           "element block '%s' of the mesh has no material: add <block name=\"%s\" material=... E=... nu=... rho=.../>", bn,
                           bn));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
  PetscCall(ReadFunction(ex, node, 0.0, &bc->f));
  if (kind == SK_EXPLICIT_BC_ROTATION) {
    PetscReal norm = 0;
    mask           = (1 << ex->dim) - 1;
    bc->axis[2]    = 1.0;
    PetscCall(ReadVector(ex, node, "center", 0, bc->center, NULL));
    if (ex->dim == 3) {
      PetscCall(ReadVector(ex, node, "axis", 3, bc->axis, NULL));
      norm = PetscSqrtReal(PetscSqr(bc->axis[0]) + PetscSqr(bc->axis[1]) + PetscSqr(bc->axis[2]));
      PetscCall(SKInputCheck(ex->input, node, norm > 0, "rotation axis is zero"));
      for (PetscInt d = 0; d < 3; d++) bc->axis[d] /= norm;
    }
  } else
    PetscCall(ReadComponents(ex, node, "component", &mask));
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
  ld->n = -1; /* dense while the input fills it; CompressLoads() keeps the non-zeros */
  PetscCall(PetscCalloc1(ex->ndof, &ld->p));
  PetscCall(ReadFunction(ex, node, 1.0, &ld->f));
  *p = ld->p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every dense load pattern -> its non-zero entries (the products s p are then added in the same order per dof). */
static PetscErrorCode CompressLoads(SKExplicit ex)
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

static PetscErrorCode AddSprings(SKExplicit ex, SKNode node, PetscInt n, const PetscInt nodes[], const PetscReal k[])
{
  PetscInt mask;
  PetscReal vel[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCall(ReadComponents(ex, node, "components", &mask));
  PetscCall(ReadVector(ex, node, "velocity", 0, vel, NULL));
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
static PetscErrorCode ReadLoadsAndConditions(SKExplicit ex, SKNode root)
{
  SKNode *items;
  PetscInt n;
  const PetscInt dim = ex->dim;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ex->ndof, &ex->dof_bc));
  for (PetscInt i = 0; i < ex->ndof; i++) ex->dof_bc[i] = -1;
  PetscCall(SKNodeGetChildren(root, NULL, &n, &items));
  for (PetscInt i = 0; i < n; i++) {
    const char *tag = SKNodeName(items[i]);
    PetscInt ns, gs;
    const PetscInt *nodes;

    if (!strcmp(tag, "displacement"))
      PetscCall(AddBC(ex, items[i], SK_EXPLICIT_BC_DISPLACEMENT));
    else if (!strcmp(tag, "velocity"))
      PetscCall(AddBC(ex, items[i], SK_EXPLICIT_BC_VELOCITY));
    else if (!strcmp(tag, "rotation"))
      PetscCall(AddBC(ex, items[i], SK_EXPLICIT_BC_ROTATION));
    else if (!strcmp(tag, "point_load") || !strcmp(tag, "gravity")) {
      PetscReal val[3]     = {0, 0, 0}, *p;
      const PetscBool grav = (PetscBool)!strcmp(tag, "gravity");
      PetscCall(ReadVector(ex, items[i], grav ? "acceleration" : "force", 0, val, NULL));
      if (grav) {
        nodes = NULL;
        ns    = ex->nlocal;
      } else
        PetscCall(SKExplicitNodeSetFromInput(ex, items[i], "nodeset", &ns, &nodes, &gs));
      PetscCall(AddLoad(ex, items[i], &p));
      for (PetscInt j = 0; j < ns; j++) {
        const PetscInt node = nodes ? nodes[j] : j;
        for (PetscInt d = 0; d < dim; d++) p[node * dim + d] += grav ? ex->mass[node] * val[d] : val[d];
      }
    } else if (!strcmp(tag, "traction") || !strcmp(tag, "distributed_spring")) {
      const PetscInt *elements, *faces;
      PetscReal *w, *p, val[3] = {0, 0, 0}, k;
      PetscInt *list, nl = 0;
      PetscCall(SideSetFromInput(ex, items[i], "sideset", &ns, &elements, &faces));
      PetscCall(PetscCalloc1(ex->nlocal, &w));
      PetscCall(FaceWeights(ex, ns, elements, faces, w));
      PetscCall(SKExplicitAssembleNodal(ex, w, 1));
      if (!strcmp(tag, "traction")) {
        PetscCall(ReadVector(ex, items[i], "value", 0, val, NULL));
        PetscCall(AddLoad(ex, items[i], &p));
        for (PetscInt j = 0; j < ex->nlocal; j++)
          for (PetscInt d = 0; d < dim; d++) p[j * dim + d] = w[j] * val[d];
      } else {
        PetscCall(SKInputRequireReal(ex->input, items[i], "stiffness", &k));
        PetscCall(SKInputCheckPositive(ex->input, items[i], "stiffness", k));
        PetscCall(PetscMalloc1(ex->nlocal, &list));
        for (PetscInt j = 0; j < ex->nlocal; j++)
          if (w[j] != 0.0) list[nl] = j, w[nl++] = k * w[j];
        PetscCall(AddSprings(ex, items[i], nl, list, w));
        PetscCall(PetscFree(list));
      }
      PetscCall(PetscFree(w));
    } else if (!strcmp(tag, "spring")) {
      PetscReal k, *kk;
      PetscCall(SKExplicitNodeSetFromInput(ex, items[i], "nodeset", &ns, &nodes, &gs));
      PetscCall(SKInputRequireReal(ex->input, items[i], "stiffness", &k));
      PetscCall(SKInputCheckPositive(ex->input, items[i], "stiffness", k));
      PetscCall(PetscMalloc1(ns, &kk));
      for (PetscInt j = 0; j < ns; j++) kk[j] = k;
      PetscCall(AddSprings(ex, items[i], ns, nodes, kk));
      PetscCall(PetscFree(kk));
    } else if (!strcmp(tag, "initial_velocity")) {
      PetscReal val[3] = {0, 0, 0}, omega[3] = {0, 0, 0}, c[3] = {0, 0, 0};
      PetscCall(SKExplicitNodeSetFromInput(ex, items[i], "nodeset", &ns, &nodes, &gs));
      PetscCall(ReadVector(ex, items[i], "value", 0, val, NULL));
      PetscCall(ReadVector(ex, items[i], "angular_velocity", dim == 2 ? 1 : 3, dim == 2 ? omega + 2 : omega, NULL));
      PetscCall(ReadVector(ex, items[i], "center", 0, c, NULL));
      for (PetscInt j = 0; j < ns; j++) {
        PetscReal r[3] = {0, 0, 0};
        for (PetscInt d = 0; d < dim; d++) r[d] = ex->X[nodes[j] * dim + d] - c[d];
        {
          const PetscReal w_r[3] = {omega[1] * r[2] - omega[2] * r[1], omega[2] * r[0] - omega[0] * r[2],
                                    omega[0] * r[1] - omega[1] * r[0]};
          for (PetscInt d = 0; d < dim; d++) ex->v[nodes[j] * dim + d] = val[d] + w_r[d];
        }
      }
    }
  }
  PetscCall(PetscFree(items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadTimeAndOutput(SKExplicit ex, SKNode root)
{
  SKNode time, node;
  PetscReal dt = 0;
  PetscBool has_dt;
  SKNode *items;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(SKInputRequireChild(ex->input, root, "time", &time));
  PetscCall(SKInputRequireReal(ex->input, time, "end", &ex->t_end));
  PetscCall(SKInputCheckPositive(ex->input, time, "end", ex->t_end));
  ex->safety = 0.9;
  PetscCall(SKInputGetReal(ex->input, time, "safety", &ex->safety, NULL));
  PetscCall(SKInputCheck(ex->input, time, ex->safety > 0 && ex->safety <= 1, "safety = %g must be in (0, 1]", (double)ex->safety));
  {
    /* stability studies only: a safety factor above 1 on purpose (the energy check must then stop the run) */
    PetscBool unsafe;
    PetscReal factor;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-explicit_unsafe_safety", &factor, &unsafe));
    PetscCheck(!unsafe || factor > 0, ex->comm, PETSC_ERR_ARG_OUTOFRANGE, "-explicit_unsafe_safety %g must be positive", (double)factor);
    if (unsafe) ex->safety = factor;
  }
  PetscCall(SKInputGetReal(ex->input, time, "dt", &dt, &has_dt));
  PetscCall(SKExplicitCriticalTimeStep(ex));
  /* a zero or non-finite step would run no steps (or forever) and report success */
  PetscCall(SKInputCheck(ex->input, time, ex->dt_critical > 0 && PetscIsNormalReal(ex->dt_critical),
                         "the critical time step is %g s (element-size estimate %g s), not a positive finite number: look for "
                         "coincident nodes, a zero density or an infinite modulus or penalty",
                         (double)ex->dt_critical, (double)ex->dt_element));
  if (has_dt) {
    PetscCall(SKInputCheckPositive(ex->input, time, "dt", dt));
    PetscCall(SKInputCheck(
        ex->input, time, dt <= ex->dt_critical,
        "dt = %g s is above the critical time step %g s (2/omega_max of the mesh%s; element-size estimate %g s): use dt "
        "<= %g s, or leave dt out to "
        "get safety * critical",
        (double)dt, (double)ex->dt_critical,
        ex->critical_type == SK_EXPLICIT_CRITICAL_BOUND ? " from the stiffness bound, tighter by -explicit_critical_step power" : "",
        (double)ex->dt_element, (double)(ex->safety * ex->dt_critical)));
    ex->dt = dt;
  } else { /* the largest dt <= safety * critical (with the friction at the estimated normal load) that lands on the end time */
    const PetscReal n = PetscCeilReal(ex->t_end / (ex->safety * ex->dt_friction));
    ex->dt            = ex->t_end / n;
  }
  /* the step counter is a PetscInt: an overflowed count runs no steps and reports success */
  PetscCall(SKInputCheck(ex->input, time, ex->t_end / ex->dt < (PetscReal)PETSC_MAX_INT,
                         "end = %g s needs %g steps of dt = %g s, more than the %" PetscInt_FMT " a run can count: shorten the run or "
                         "coarsen the mesh",
                         (double)ex->t_end, (double)(ex->t_end / ex->dt), (double)ex->dt, (PetscInt)PETSC_MAX_INT));

  ex->history_interval = 1;
  /* fields by default: about SK_EXPLICIT_DEFAULT_FRAMES frames over the run (plus the initial one), so that the fields.pvd
     a user opens in ParaView exists and holds a sensible number of steps; fields="0" writes none */
  ex->field_interval = (PetscInt)PetscMax(1, PetscCeilReal(PetscFloorReal(ex->t_end / ex->dt + 0.5) / SK_EXPLICIT_DEFAULT_FRAMES));
  PetscCall(SKNodeGetChild(root, "output", &node));
  if (node) {
    PetscCall(SKInputGetInt(ex->input, node, "fields", &ex->field_interval, NULL));
    PetscCall(SKInputGetInt(ex->input, node, "histories", &ex->history_interval, NULL));
  }
  PetscCall(SKNodeGetChild(root, "checkpoint", &node));
  ex->checkpoint_keep = 2;
  if (node) {
    PetscCall(SKInputRequireInt(ex->input, node, "interval", &ex->checkpoint_interval));
    PetscCall(SKInputGetInt(ex->input, node, "keep", &ex->checkpoint_keep, NULL));
  }
  PetscCall(SKNodeGetChildren(root, "history", &n, &items));
  ex->nsethist = n;
  PetscCall(PetscCalloc1(n, &ex->sethist));
  for (PetscInt i = 0; i < n; i++) {
    SKExplicitSetHistory *h = &ex->sethist[i];
    PetscBool found;
    PetscCall(SKExplicitNodeSetFromInput(ex, items[i], "nodeset", &h->n, &h->nodes, &h->global_size));
    PetscCall(SKInputGetString(ex->input, items[i], "name", h->name, sizeof(h->name), &found));
    if (!found) PetscCall(SKInputRequireString(ex->input, items[i], "nodeset", h->name, sizeof(h->name)));
    for (PetscInt j = 0; j < i; j++)
      PetscCall(SKInputCheck(ex->input, items[i], strcmp(h->name, ex->sethist[j].name), "history '%s' is defined twice", h->name));
  }
  PetscCall(PetscFree(items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dof-level star forest from the mesh's node star forest: ghost dof (node, d) -> owner's (node, d). */
static PetscErrorCode CreateDofSF(SKExplicit ex)
{
  PetscSF nsf;
  PetscInt nroots, nleaves, *ilocal;
  const PetscInt *nl;
  const PetscSFNode *nr;
  PetscSFNode *iremote;

  PetscFunctionBegin;
  PetscCall(SKMeshCreateNodeSF(ex->mesh, &nsf));
  PetscCall(PetscSFGetGraph(nsf, &nroots, &nleaves, &nl, &nr));
  PetscCall(PetscMalloc1(nleaves * ex->dim, &ilocal));
  PetscCall(PetscMalloc1(nleaves * ex->dim, &iremote));
  for (PetscInt i = 0; i < nleaves; i++)
    for (PetscInt d = 0; d < ex->dim; d++) {
      ilocal[i * ex->dim + d]        = (nl ? nl[i] : i) * ex->dim + d;
      iremote[i * ex->dim + d].rank  = nr[i].rank;
      iremote[i * ex->dim + d].index = nr[i].index * ex->dim + d;
    }
  PetscCall(PetscSFCreate(ex->comm, &ex->sf));
  PetscCall(PetscSFSetGraph(ex->sf, nroots * ex->dim, nleaves * ex->dim, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(ex->sf));
  ex->node_sf = nsf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Log events of the explicit solver (once per process). */
static PetscErrorCode RegisterEvents(void)
{
  static PetscBool done = PETSC_FALSE;

  PetscFunctionBegin;
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  done = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("ExplicitIntForce", SK_CLASSID, &SK_EXPLICIT_InternalForce));
  PetscCall(PetscLogEventRegister("ExplicitExchange", SK_CLASSID, &SK_EXPLICIT_Exchange));
  PetscCall(PetscLogEventRegister("ExplicitUpdate", SK_CLASSID, &SK_EXPLICIT_Update));
  PetscCall(PetscLogEventRegister("ExplicitOutput", SK_CLASSID, &SK_EXPLICIT_Output));
  PetscCall(PetscLogEventRegister("ExplicitCritDt", SK_CLASSID, &SK_EXPLICIT_CriticalStep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitCreateFromInput(SKInput input, SKExplicit *exp)
{
  PetscFunctionBegin;
  PetscCall(SKExplicitCreateFromInputMapped(input, NULL, NULL, exp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitCreateFromInputMapped(SKInput input, SKExplicitNodeMapFn map, void *map_ctx, SKExplicit *exp)
{
  SKExplicit ex;
  SKNode root, mesh_node, desc;

  PetscFunctionBegin;
  PetscCall(RegisterEvents());
  PetscCall(PetscNew(&ex));
  *exp      = ex;
  ex->input = input;
  PetscCall(PetscTime(&ex->setup_t0));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-explicit_setup_view", &ex->setup_view, NULL));
  PetscCall(SKInputGetComm(input, &ex->comm));
  PetscCallMPI(MPI_Comm_rank(ex->comm, &ex->rank));
  PetscCallMPI(MPI_Comm_size(ex->comm, &ex->size));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKNodeGetChild(root, "description", &desc));
  if (desc) PetscCall(SKInputGetText_Node(input, desc, ex->description, sizeof(ex->description)));

  /* replicated mesh, input sets, reference check, watch points; then distribution */
  PetscCall(SKInputRequireChild(input, root, "mesh", &mesh_node));
  {
    SKNode patch;
    PetscCall(SKNodeGetChild(mesh_node, "patch", &patch));
    if (patch)
      PetscCall(SKMeshCreateFromPatchInput(input, mesh_node, &ex->rmesh)); /* NURBS patches (fem/bezier.c) */
    else
      PetscCall(SKMeshCreateFromInput(input, mesh_node, &ex->rmesh));
  }
  PetscCall(SKExplicitSetupView(ex, "replicated mesh"));
  PetscCall(SKMeshGetDimension(ex->rmesh, &ex->dim));
  PetscCall(AddInputSets(ex, root, ex->rmesh));
  if (map) { /* after the input sets (found on the generated geometry), before the reference check */
    PetscInt nn;
    PetscReal *coords;
    PetscCall(SKMeshGetNodesWrite(ex->rmesh, &nn, &coords));
    PetscCall(map(map_ctx, nn, ex->dim, coords));
  }
  PetscCall(CheckReference(ex, mesh_node, ex->rmesh));
  PetscCall(FindBodies(ex, ex->rmesh));
  PetscCall(ReadWatchPoints(ex, root, ex->rmesh));
  PetscCall(SKExplicitSetDigests(ex, ex->rmesh));
  PetscCall(SKExplicitSetupView(ex, "input sets, checks, watch points"));
  PetscCall(SKMeshDistribute(ex->rmesh, &ex->mesh));
  PetscCall(SKMeshDestroy(&ex->rmesh));
  PetscCall(SKExplicitSetupView(ex, "distributed, replicated freed"));

  PetscCall(SKMeshGetNodes(ex->mesh, &ex->nlocal, &ex->X));
  PetscCall(SKMeshGetNumElements(ex->mesh, &ex->nelem));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, &ex->nowned, NULL, NULL));
  PetscCall(SKMeshGetNaturalNodes(ex->mesh, &ex->natural_nodes));
  PetscCall(SKMeshGetNaturalElements(ex->mesh, &ex->natural_elements));
  ex->ndof = ex->nlocal * ex->dim;
  for (PetscInt i = 0; i < ex->nwatch; i++) {
    const PetscInt natural = ex->watch[i].node;
    ex->watch[i].node      = -1;
    for (PetscInt p = 0; p < ex->nowned; p++)
      if (ex->natural_nodes[p] == natural) ex->watch[i].node = p;
    for (PetscInt a = 0; a < ex->watch[i].n; a++) {
      const PetscInt na     = ex->watch[i].nodes[a];
      ex->watch[i].nodes[a] = -1;
      for (PetscInt p = 0; p < ex->nowned; p++)
        if (ex->natural_nodes[p] == na) ex->watch[i].nodes[a] = p;
    }
  }
  PetscCall(CreateDofSF(ex));
  PetscCall(SKExplicitSetupView(ex, "star forests"));
  PetscCall(PartitionView(ex));

  PetscCall(PetscCalloc1(ex->nlocal, &ex->mass));
  PetscCall(PetscCalloc4(ex->ndof, &ex->u, ex->ndof, &ex->v, ex->ndof, &ex->a, ex->ndof, &ex->vh));
  PetscCall(PetscCalloc2(ex->ndof, &ex->f, ex->ndof, &ex->react));
  PetscCall(PetscCalloc1(ex->ndof, &ex->fwork)); /* fwork and fwork_new are swapped each step: separate blocks */
  PetscCall(PetscCalloc1(ex->ndof, &ex->fwork_new));
  PetscCall(SKExplicitSetupView(ex, "state arrays"));
  PetscCall(ReadBlocks(ex, root));
  PetscCall(SKExplicitAssembleNodal(ex, ex->mass, 1));
  PetscCall(SKExplicitSetupView(ex, "blocks, lumped mass"));
  PetscCall(ReadLoadsAndConditions(ex, root));
  PetscCall(CompressLoads(ex));
  PetscCall(SKExplicitSetupView(ex, "loads, conditions"));

  ex->energy_tolerance = 0.05;
  ex->power_its        = 2000;
  ex->power_rtol       = 1e-6;
  ex->kill_step        = -1;
  PetscOptionsBegin(ex->comm, NULL, "explicit solver", NULL);
  PetscCall(PetscOptionsReal("-explicit_energy_tolerance", "allowed energy-balance drift, fraction of the energy in play", "",
                             ex->energy_tolerance, &ex->energy_tolerance, NULL));
  PetscCall(
      PetscOptionsInt("-explicit_power_maxit", "power iterations for the critical time step", "", ex->power_its, &ex->power_its, NULL));
  PetscCall(
      PetscOptionsReal("-explicit_power_rtol", "relative change that ends the power iteration", "", ex->power_rtol, &ex->power_rtol, NULL));
  PetscCall(PetscOptionsInt("-explicit_kill_at_step", "test hook: SIGKILL after this step", "", ex->kill_step, &ex->kill_step, NULL));
  PetscOptionsEnd();
  PetscCall(ReadContacts(ex, root));
  PetscCall(ReadTimeAndOutput(ex, root));
  PetscCall(SKExplicitSetupView(ex, "critical step, output"));
  for (PetscInt i = 0; i < ex->ncontacts; i++) {
    PetscCall(SKExplicitAddForceTerm(ex, ex->contact_names[i], SKContactPlaneForce, ex->contacts[i]));
    /* the friction moduli grow with the normal force, known only during the run: checked there against this step */
    PetscCall(SKContactPlaneSetStabilityCheck(ex->contacts[i], ex->dt, 4 / PetscSqr(ex->dt_critical), ex->mass));
  }

  /* accelerations at t = 0 */
  PetscCall(SKExplicitFinishStep(ex, PETSC_TRUE));
  PetscCall(SKExplicitSetupView(ex, "forces at t = 0 (set-up done)"));
  ex->input = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitDestroy(SKExplicit *exp)
{
  SKExplicit ex = *exp;

  PetscFunctionBegin;
  if (!ex) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt b = 0; b < ex->nblocks; b++) {
    if (ex->blocks[b].basis) PetscCall(SKBasisDestroy(&ex->blocks[b].basis));
    if (ex->blocks[b].mat) PetscCall(SKMaterialDestroy(&ex->blocks[b].mat));
  }
  PetscCall(PetscFree(ex->blocks));
  for (PetscInt i = 0; i < ex->nbc; i++) PetscCall(SKTimeFunctionReset(&ex->bc[i].f));
  for (PetscInt i = 0; i < ex->nloads; i++) {
    PetscCall(SKTimeFunctionReset(&ex->loads[i].f));
    PetscCall(PetscFree(ex->loads[i].p));
    PetscCall(PetscFree(ex->loads[i].idx));
  }
  for (PetscInt i = 0; i < ex->nterms; i++) {
    PetscCall(PetscFree(ex->terms[i].f));
    PetscCall(PetscFree(ex->terms[i].f_old));
  }
  for (PetscInt i = 0; i < ex->ncontacts; i++) PetscCall(SKContactPlaneDestroy(&ex->contacts[i]));
  PetscCall(PetscFree4(ex->contacts, ex->contact_names, ex->contact_hist, ex->contact_group));
  PetscCall(PetscFree(ex->body));
  PetscCall(PetscFree(ex->bc));
  PetscCall(PetscFree(ex->dof_bc));
  PetscCall(PetscFree(ex->loads));
  PetscCall(PetscFree(ex->springs));
  PetscCall(PetscFree(ex->watch));
  PetscCall(PetscFree(ex->sethist));
  PetscCall(PetscFree(ex->mass));
  PetscCall(PetscFree4(ex->u, ex->v, ex->a, ex->vh));
  PetscCall(PetscFree2(ex->f, ex->react));
  PetscCall(PetscFree(ex->fwork));
  PetscCall(PetscFree(ex->fwork_new));
  PetscCall(PetscSFDestroy(&ex->sf));
  PetscCall(PetscSFDestroy(&ex->node_sf));
  PetscCall(SKPVDDestroy(&ex->pvd));
  PetscCall(SKMeshDestroy(&ex->mesh));
  PetscCall(SKMeshDestroy(&ex->rmesh));
  PetscCall(PetscFree(ex->options_run));
  PetscCall(PetscFree(ex));
  *exp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitAddForceTerm(SKExplicit ex, const char name[], SKExplicitForceFn fn, void *ctx)
{
  SKExplicitTerm *t;

  PetscFunctionBegin;
  PetscCheck(ex->nterms < SK_EXPLICIT_MAX_TERMS, ex->comm, PETSC_ERR_ARG_OUTOFRANGE, "At most %d force terms", SK_EXPLICIT_MAX_TERMS);
  t = &ex->terms[ex->nterms++];
  PetscCall(PetscStrncpy(t->name, name, sizeof(t->name)));
  t->fn  = fn;
  t->ctx = ctx;
  PetscCall(PetscCalloc1(ex->ndof, &t->f));
  PetscCall(PetscCalloc1(ex->ndof, &t->f_old));
  /* the term acts from the current step on: recompute the forces so that a_n includes it */
  PetscCall(SKExplicitFinishStep(ex, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
