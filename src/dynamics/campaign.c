/* dynamics: the Monte-Carlo campaign of the rough-plate study (XML root <campaign>, schema/campaign.xsd; section 4 of
   lugre-mortar-explicit-contact-2024). A campaign is a driver above the explicit solver: realisation K is a pure
   function of (input, K): the study's plate with its bottom face on the K-th random rough surface. On the
   finite-element path (a <mesh> with <box> or elements) the bottom nodes are mapped onto the surface; on the IGA path
   (a <mesh> with one box <patch> of degree 3 whose control net has as many control points along x and y as there are
   samples) the samples are interpolated with the patch's own knot vectors and the bottom control points become the
   interpolating surface's control net, so the patch's bottom face is that surface exactly. Each
   realisation is written to its own file, atomically (temporary name, then rename), stamped with a digest of the
   inputs; realisations are handed out dynamically to groups of ranks (PetscSubcomm) through an MPI atomic counter, or
   run one at a time (-realisation K) under a job scheduler; a campaign started again runs only the missing ones.
   A realisation that fails (an instability the solver stops, an element its surface inverts) is contained in its
   group: it leaves a failure record (index, time, message) instead of a result and the campaign goes on.
   The statistics (Welford mean and variance, confidence bands) are aggregated into results.h5 over the finished
   realisations once every realisation has a result or a failure record. */
#include "explicitimpl.h"
#include "shared/h5.h"
#include <stickslip/rough.h>
#include <stickslip/iga.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#define SK_CAMPAIGN_MAX_LC 16

typedef struct {
  MPI_Comm comm;
  char study[PETSC_MAX_PATH_LEN];
  SKRandomFieldParams field; /* correlation length and lengths set per realisation */
  PetscInt nlc, count, every;
  PetscReal lc[SK_CAMPAIGN_MAX_LC];
  PetscReal lower[3], upper[3]; /* bounding box of the study's plate (m) */
  PetscBool patch;              /* the study's plate is a NURBS patch (the IGA path) */
  PetscReal *knots[2];          /* its knot vectors along x and y (m from the lower corner), samples + 4 each */
  char digest[32];              /* FNV-1a of the campaign and study inputs, hex */
  /* options, read in the set-up so that validate checks them and -help lists them */
  char dir[PETSC_MAX_PATH_LEN]; /* -campaign_dir: where the realisations go (empty: the output directory) */
  PetscInt task;                /* -realisation K: run only realisation K (-1: the whole campaign) */
  PetscInt groups;              /* -campaign_groups: MPI groups (0: one per rank) */
  PetscInt kill_after;          /* -campaign_kill_after: test hook, SIGKILL after this many realisations (-1: never) */
  PetscBool retry_failed;       /* -campaign_retry_failed: run the realisations with a failure record again */
  PetscBool record_nodal;       /* -campaign_record_nodal: also record each contact node's normal force per history row */
} Campaign;

static PetscErrorCode CampaignDestroy(void **);

/* The node map of a realisation: bottom nodes (or control points) onto the surface lowered by its minimum over them. */
typedef struct {
  SKRoughSurface surface;
  const Campaign *c;
} RoughMap;

/* Map that only measures the plate's bounding box (setup). */
static PetscErrorCode BoxMap(void *ctx, PetscInt nn, PetscInt dim, PetscReal X[])
{
  Campaign *c = (Campaign *)ctx;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) c->lower[d] = PETSC_MAX_REAL, c->upper[d] = PETSC_MIN_REAL;
  for (PetscInt p = 0; p < nn; p++)
    for (PetscInt d = 0; d < dim; d++) {
      c->lower[d] = PetscMin(c->lower[d], X[p * dim + d]);
      c->upper[d] = PetscMax(c->upper[d], X[p * dim + d]);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RoughNodeMap(void *ctx, PetscInt nn, PetscInt dim, PetscReal X[])
{
  RoughMap *m         = (RoughMap *)ctx;
  const PetscReal *lo = m->c->lower, *hi = m->c->upper;
  PetscReal shift = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCheck(dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a rough plate is 3D, the mesh is %" PetscInt_FMT "D", dim);
  /* the plate rests on its highest asperity: the bottom face is the surface minus its minimum over the bottom nodes */
  for (PetscInt p = 0; p < nn; p++)
    if (PetscAbsReal(X[3 * p + 2] - lo[2]) <= 1e-9 * (hi[2] - lo[2]))
      shift = PetscMin(shift, SKRoughSurfaceHeight(m->surface, X[3 * p] - lo[0], X[3 * p + 1] - lo[1]));
  PetscCall(SKRoughSurfaceMapNodes(m->surface, lo, hi, shift, nn, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The IGA plate: control point p of the box patch (direction 0 fastest) sits at (i, j) = (p mod n0, p / n0 mod n1) of
   the surface's control net, which has the patch's knots; its z moves by (c_ij - shift) (upper_z - z) / H, so that the
   bottom face is the surface lowered by SHIFT and the patch between the bottom and the flat top is the same linear
   blend as the finite-element plate (a box patch reproduces linear functions: its z is a linear function of the third
   parameter). SHIFT is the minimum of the surface, over a grid of 8 points per sample interval (the plate rests on its
   highest asperity; the minimum between grid points is below it by the surface's curvature times the grid spacing
   squared, well under the flat penetration). */
static PetscErrorCode RoughPatchMap(void *ctx, PetscInt nn, PetscInt dim, PetscReal X[])
{
  RoughMap *m         = (RoughMap *)ctx;
  const PetscReal *lo = m->c->lower, *hi = m->c->upper, *P;
  const PetscReal *len = m->c->field.length, height = hi[2] - lo[2];
  PetscInt n[2], fine[2];
  PetscReal shift = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCheck(dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a rough plate is 3D, the patch is %" PetscInt_FMT "D", dim);
  PetscCall(SKRoughSurfaceGetControlNet(m->surface, n, &P, NULL, NULL));
  PetscCheck(nn % (n[0] * n[1]) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "the patch has %" PetscInt_FMT " control points, not a multiple of the %" PetscInt_FMT " x %" PetscInt_FMT " of the surface",
             nn, n[0], n[1]);
  for (PetscInt d = 0; d < 2; d++) fine[d] = 8 * (n[d] - 1) + 1;
  for (PetscInt j = 0; j < fine[1]; j++)
    for (PetscInt i = 0; i < fine[0]; i++)
      shift = PetscMin(shift, SKRoughSurfaceHeight(m->surface, len[0] * i / (fine[0] - 1), len[1] * j / (fine[1] - 1)));
  for (PetscInt p = 0; p < nn; p++) {
    const PetscReal *C = &P[3 * (p % (n[0] * n[1]))];
    PetscReal *x       = &X[3 * p];
    PetscCheck(PetscAbsReal(x[0] - lo[0] - C[0]) <= 1e-9 * len[0] && PetscAbsReal(x[1] - lo[1] - C[1]) <= 1e-9 * len[1], PETSC_COMM_SELF,
               PETSC_ERR_ARG_WRONG,
               "control point %" PetscInt_FMT " of the patch is at (%g, %g) m, not above the control point (%g, %g) m of the surface: "
               "the rough plate on the IGA path is a <box> patch",
               p, (double)x[0], (double)x[1], (double)(lo[0] + C[0]), (double)(lo[1] + C[1]));
    x[2] += (C[2] - shift) * (hi[2] - x[2]) / height;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The IGA path: a study whose <mesh> is one <patch>. Checks that it can carry the surface (degree 3, as many control
   points along x and y as samples) and keeps its knot vectors along x and y, in m from the plate's lower corner. */
static PetscErrorCode ReadPatchKnots(Campaign *c, SKInput input, SKNode study, SKInput sin)
{
  SKNode sroot, mesh;
  SKNURBSPatch patch = NULL;
  PetscInt np, deg[3], ncp[3];
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKInputGetRoot(sin, &sroot));
  PetscCall(SKNodeGetChild(sroot, "mesh", &mesh));
  np       = SKNodeCountChildren(mesh, "patch");
  c->patch = np > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (np == 1) ierr = SKNURBSPatchCreateFromInput(sin, SKNodeFirstChild(mesh, "patch"), 3, &patch);
  if (ierr) PetscCall(SKNURBSPatchDestroy(&patch)); /* the patch read before the error */
  PetscCall(ierr);
  if (!np) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(
      SKInputCheck(input, study, np == 1, "study '%s': a rough plate on the IGA path is one <patch>, not %" PetscInt_FMT, c->study, np));
  PetscCall(SKNURBSPatchGetSizes(patch, NULL, NULL, deg, ncp));
  ierr = SKInputCheck(input, study, deg[0] == 3,
                      "study '%s': the patch of a rough plate has degree 3 (the surface is bicubic), not %" PetscInt_FMT, c->study, deg[0]);
  for (PetscInt d = 0; !ierr && d < 2; d++)
    ierr = SKInputCheck(input, study, ncp[d] == c->field.n[d],
                        "study '%s': the patch has %" PetscInt_FMT " control points along %c, the campaign %" PetscInt_FMT
                        " samples: its bottom control net is the surface interpolating the samples, so give it "
                        "refine=\"%" PetscInt_FMT " %" PetscInt_FMT " ...\" (samples - 3 knot spans along x and y)",
                        c->study, ncp[d], (char)('x' + d), c->field.n[d], c->field.n[0] - 3, c->field.n[1] - 3);
  for (PetscInt d = 0; !ierr && d < 2; d++) {
    PetscInt m;
    const PetscReal *U;
    ierr = SKNURBSPatchGetKnots(patch, d, &m, &U);
    if (!ierr) ierr = PetscMalloc1(m, &c->knots[d]);
    for (PetscInt k = 0; !ierr && k < m; k++) c->knots[d][k] = (U[k] - U[0]) / (U[m - 1] - U[0]) * c->field.length[d];
  }
  if (!ierr) { /* a box: every control point above the Greville abscissae of the knots (RoughPatchMap() relies on it) */
    const PetscInt total = ncp[0] * ncp[1] * ncp[2];
    PetscReal *X;
    ierr = PetscMalloc1(3 * total, &X);
    if (!ierr) ierr = SKNURBSPatchGetControlPoints(patch, X, NULL);
    for (PetscInt p = 0; !ierr && p < total; p++) {
      const PetscInt ij[2] = {p % ncp[0], (p / ncp[0]) % ncp[1]};
      PetscBool box        = PETSC_TRUE;
      for (PetscInt d = 0; d < 2; d++) {
        const PetscReal *t = c->knots[d] + ij[d], g = c->lower[d] + (t[1] + t[2] + t[3]) / 3;
        box = box && PetscAbsReal(X[3 * p + d] - g) <= 1e-9 * c->field.length[d];
      }
      ierr = SKInputCheck(input, study, box,
                          "study '%s': control point %" PetscInt_FMT
                          " of the patch is at (%g, %g) m, off the Greville abscissae of its knots: "
                          "the rough plate on the IGA path is a <box> patch",
                          c->study, p, (double)X[3 * p], (double)X[3 * p + 1]);
    }
    PetscCall(PetscFree(X));
  }
  PetscCall(SKNURBSPatchDestroy(&patch));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Creates the explicit problem of INPUT with MAP; a refused input frees the half-built solver. */
static PetscErrorCode CreateStudy(SKInput input, SKExplicitNodeMapFn map, void *ctx, SKExplicit *ex)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ex  = NULL;
  ierr = SKExplicitCreateFromInputMapped(input, map, ctx, ex);
  if (ierr) (void)SKExplicitDestroy(ex);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The value of -realisation: an integer from 0 to (correlation lengths x count - 1), or an input error that says so. */
static PetscErrorCode ParseTask(const Campaign *c, const char text[], PetscInt *task)
{
  const PetscInt ntask = c->nlc * c->count;
  char *end;
  long value;

  PetscFunctionBegin;
  errno = 0;
  value = text[0] ? strtol(text, &end, 10) : -1;
  PetscCheck(text[0] && !*end && !errno && value >= 0 && value < ntask, c->comm, SK_ERR_INPUT,
             "-realisation '%s': give the index of one realisation, an integer from 0 to %" PetscInt_FMT " (%" PetscInt_FMT
             " correlation lengths x %" PetscInt_FMT " realisations; index = l_c index x %" PetscInt_FMT
             " + r), or leave the option out to run the whole campaign",
             text, ntask - 1, c->nlc, c->count, c->count);
  *task = (PetscInt)value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The campaign's own elements (study file, roughness, realisations, record) into C; *STUDY and *ROUGH are their nodes. */
static PetscErrorCode CampaignReadInput(SKInput input, Campaign *c, SKNode *study, SKNode *rough)
{
  SKNode root, real, record;
  PetscInt seed = 1;
  PetscBool found;
  SKRoughSpectrumFn fn;
  char known[256];

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &c->comm));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKRandomFieldParamsSetDefaults(&c->field));
  PetscCall(SKInputRequireChild(input, root, "study", study));
  PetscCall(SKInputRequireFile(input, *study, "file", c->study, sizeof(c->study)));

  PetscCall(SKInputRequireChild(input, root, "roughness", rough));
  PetscCall(SKInputRequireReal(input, *rough, "rms", &c->field.rms));
  PetscCall(SKInputCheck(input, *rough, c->field.rms >= 0, "rms = %g m: the RMS roughness must be >= 0", (double)c->field.rms));
  c->nlc = SK_CAMPAIGN_MAX_LC;
  PetscCall(SKInputGetRealList(input, *rough, "correlation_lengths", &c->nlc, c->lc, &found));
  PetscCall(
      SKInputCheck(input, *rough, found && c->nlc >= 1, "correlation_lengths: give 1 to %d correlation lengths (m)", SK_CAMPAIGN_MAX_LC));
  for (PetscInt i = 0; i < c->nlc; i++)
    PetscCall(SKInputCheck(input, *rough, c->lc[i] > 0, "correlation length %g m (number %" PetscInt_FMT ") must be > 0", (double)c->lc[i],
                           i + 1));
  PetscCall(SKInputGetInt(input, *rough, "samples", &c->field.n[0], NULL));
  PetscCall(SKInputCheck(input, *rough, c->field.n[0] >= 4,
                         "samples = %" PetscInt_FMT ": a bicubic surface needs at least 4 samples per side", c->field.n[0]));
  c->field.n[1] = c->field.n[0];
  PetscCall(SKInputGetString(input, *rough, "spectrum", c->field.spectrum, sizeof(c->field.spectrum), NULL));
  PetscCall(SKRoughSpectrumFind(c->field.spectrum, &fn));
  PetscCall(SKRoughSpectrumList(known, sizeof(known)));
  PetscCall(SKInputCheck(input, *rough, fn != NULL, "unknown spectrum '%s'; known: %s", c->field.spectrum, known));

  PetscCall(SKInputRequireChild(input, root, "realisations", &real));
  PetscCall(SKInputRequireInt(input, real, "count", &c->count));
  PetscCall(SKInputCheck(input, real, c->count >= 1, "count = %" PetscInt_FMT ": a campaign needs at least one realisation", c->count));
  PetscCall(SKInputGetInt(input, real, "seed", &seed, NULL));
  PetscCall(SKInputCheck(input, real, seed >= 0, "seed = %" PetscInt_FMT " must be >= 0", seed));
  c->field.seed = (uint64_t)seed;
  c->every      = 100;
  PetscCall(SKNodeGetChild(root, "record", &record));
  if (record) PetscCall(SKInputGetInt(input, record, "every", &c->every, NULL));
  PetscCall(SKInputCheck(input, record, c->every >= 1, "every = %" PetscInt_FMT " steps must be >= 1", c->every));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CampaignSetup(SKInput input, void **ctx)
{
  Campaign *c;
  SKNode study, rough;
  SKInput sin   = NULL;
  SKExplicit ex = NULL;
  PetscBool isexplicit, has_task = PETSC_FALSE;
  const char *text;
  size_t size;
  unsigned long long hash;
  char task[64]          = "";
  SKOptionsChecks checks = {PETSC_FALSE, ""};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  /* from here on an error frees C (validate of a refused input once left it behind) */
  ierr = CampaignReadInput(input, c, &study, &rough);

  /* the study: an explicit input with a 3D plate and a contact pair; its bounding box sets the sampled rectangle */
  if (!ierr) ierr = SKInputLoad(c->comm, c->study, &sin);
  if (!ierr) {
    SKNode sroot;
    PetscInt npairs = 0;
    ierr            = SKInputGetRoot(sin, &sroot);
    if (!ierr) ierr = PetscStrcmp(SKNodeName(sroot), "explicit", &isexplicit);
    if (!ierr)
      ierr = SKInputCheck(input, study, isexplicit, "study '%s' is a <%s> input, not an <explicit> one", c->study, SKNodeName(sroot));
    if (!ierr) ierr = CreateStudy(sin, BoxMap, c, &ex);
    if (!ierr)
      ierr = SKInputCheck(input, study, ex->dim == 3, "study '%s' is %" PetscInt_FMT "D: the rough plate is 3D", c->study, ex->dim);
    if (!ierr) ierr = SKExplicitGetNumContactPairs(ex, &npairs);
    if (!ierr) ierr = SKInputCheck(input, study, npairs >= 1, "study '%s' has no <contact> pair", c->study);
  }
  for (PetscInt d = 0; !ierr && d < 2; d++) {
    c->field.length[d] = c->upper[d] - c->lower[d];
    for (PetscInt i = 0; !ierr && i < c->nlc; i++)
      ierr =
          SKInputCheck(input, rough, c->lc[i] >= c->field.length[d] / (c->field.n[d] - 1),
                       "correlation length %g m is below the sample spacing %g m (plate side %g m over samples - 1 = %" PetscInt_FMT
                       "): the grid is too coarse for it; use more samples",
                       (double)c->lc[i], (double)(c->field.length[d] / (c->field.n[d] - 1)), (double)c->field.length[d], c->field.n[d] - 1);
  }
  if (!ierr) ierr = ReadPatchKnots(c, input, study, sin);
  if (!ierr) {
    /* the digest of both inputs: results of another input are never mixed in */
    PetscCall(SKInputGetText(input, &text, &size));
    hash = SKHashBytes(SK_FNV_SEED, text, size);
    PetscCall(SKInputGetText(sin, &text, &size));
    hash = SKHashBytes(hash, text, size);
    PetscCall(PetscSNPrintf(c->digest, sizeof(c->digest), "%016llx", hash));
  }
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&sin));
  if (ierr) PetscCall(CampaignDestroy((void **)&c));
  PetscCall(ierr);
  c->task = -1, c->groups = 0, c->kill_after = -1, c->retry_failed = PETSC_FALSE;
  PetscOptionsBegin(c->comm, NULL, "campaign driver", NULL);
  PetscCall(PetscOptionsString("-campaign_dir", "directory of the realisations (default: the output directory)", "", c->dir, c->dir,
                               sizeof(c->dir), NULL));
  /* read as text: PETSc's integer parser turns "1.5" or "abc" into a failure of the run, not an input error */
  PetscCall(PetscOptionsString("-realisation", "run only realisation K = l_c index x count + r (job arrays; default: the whole campaign)",
                               "", task, task, sizeof(task), &has_task));
  PetscCall(SKOptionsInt(&checks, "-campaign_groups", "MPI groups sharing the realisations (0: one per rank)", "", c->groups, &c->groups,
                         NULL, "[0, inf)"));
  PetscCall(SKOptionsBool(&checks, "-campaign_retry_failed",
                          "run the realisations that failed before again (default: keep their failure records)", "", c->retry_failed,
                          &c->retry_failed, NULL));
  PetscCall(SKOptionsBool(&checks, "-campaign_record_nodal",
                          "also write each contact node's normal force at every history row (normal_force_nodes)", "", c->record_nodal,
                          &c->record_nodal, NULL));
  PetscCall(SKOptionsInt(&checks, "-campaign_kill_after", "test hook: SIGKILL after this many realisations (-1: never)", "", c->kill_after,
                         &c->kill_after, NULL, "[-1, inf)"));
  PetscOptionsEnd();
  ierr = SKOptionsCheck(c->comm, &checks);
  if (!ierr && has_task) ierr = ParseTask(c, task, &c->task);
  if (ierr) PetscCall(CampaignDestroy((void **)&c));
  PetscCall(ierr);
  *ctx = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- small HDF5 helpers for the realisation files (written and read by one process) ---- */

static PetscErrorCode H5WriteReals(hid_t file, const char name[], PetscInt n, const PetscReal v[])
{
  PetscFunctionBegin;
  PetscCall(SKH5WriteArray(file, name, H5T_NATIVE_DOUBLE, 1, &n, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads 1D dataset NAME into *v (PetscMalloc1, caller frees), *n values. */
static PetscErrorCode H5ReadReals(hid_t file, const char name[], PetscInt *n, PetscReal **v)
{
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT), space;
  hsize_t dim;

  PetscFunctionBegin;
  SKCallH5(dset, name);
  space = H5Dget_space(dset);
  SKCallH5(H5Sget_simple_extent_dims(space, &dim, NULL), name);
  *n = (PetscInt)dim;
  PetscCall(PetscMalloc1(*n, v));
  SKCallH5(H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *v), name);
  H5Sclose(space);
  H5Dclose(dset);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5ReadAttr(hid_t file, const char name[], hid_t type, void *value)
{
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);

  PetscFunctionBegin;
  SKCallH5(attr, name);
  SKCallH5(H5Aread(attr, type, value), name);
  H5Aclose(attr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RealisationPath(const char dir[], PetscInt task, char path[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/realisations/realisation_%05" PetscInt_FMT ".h5", dir, task));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What one realisation gives, in natural node order over the contact nodes (on rank 0 of its group). */
typedef struct {
  PetscInt ncontact, nrec, steps, dofs;
  PetscReal *x, *y, *z, *stick; /* reference coordinates (m) and sticking-time ratio (1) of the contact nodes */
  PetscReal *time, *cof, *area; /* histories: time (s), global COF (1), real contact area fraction (1) */
  PetscReal *normal;            /* history: total contact normal force (N) */
  PetscReal *nodal;             /* with -campaign_record_nodal: normal force (N) of contact node k at row i, [i * ncontact + k] */
  PetscReal *heights;           /* the samples of the surface (m) */
  PetscReal ratio, wall, dt;    /* global sticking-time ratio (1), wall time (s), time step (s) */
} Realisation;

/* Frees the arrays of R, which are allocated one by one: ReadRealisation() gets them from HDF5 one by one (and no z),
   and PetscFree4() on such arrays frees only the first in PETSc's default (coalesced) allocation. */
static PetscErrorCode RealisationReset(Realisation *r)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(r->x));
  PetscCall(PetscFree(r->y));
  PetscCall(PetscFree(r->z));
  PetscCall(PetscFree(r->stick));
  PetscCall(PetscFree(r->time));
  PetscCall(PetscFree(r->cof));
  PetscCall(PetscFree(r->area));
  PetscCall(PetscFree(r->normal));
  PetscCall(PetscFree(r->nodal));
  PetscCall(PetscFree(r->heights));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Area fraction of the contact surface in contact: sum of the weights of the nodes with a normal force over all. */
static PetscErrorCode ContactAreaFraction(SKExplicit ex, SKContactPair cp, PetscReal *fraction)
{
  PetscInt n;
  const PetscInt *nodes;
  const PetscReal *w, *fn, *ft;
  PetscReal s[2] = {0, 0}, g[2];

  PetscFunctionBegin;
  PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &w, &fn, &ft));
  for (PetscInt i = 0; i < n; i++) {
    s[0] += fn[i] > 0 ? w[i] : 0;
    s[1] += w[i];
  }
  PetscCall(MPIU_Allreduce(s, g, 2, MPIU_REAL, MPI_SUM, ex->comm));
  *fraction = g[1] > 0 ? g[0] / g[1] : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a realisation holds while it runs; RealisationWorkDestroy() releases it whether the realisation finished or
   failed part way. */
typedef struct {
  SKRandomField field;
  SKRoughSurface surface;
  SKInput input;
  SKExplicit ex;
  PetscReal *local, *stick, *mask, *X;
} RealisationWork;

static PetscErrorCode RealisationWorkDestroy(RealisationWork *w)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(w->local));
  PetscCall(PetscFree(w->stick));
  PetscCall(PetscFree(w->mask));
  PetscCall(PetscFree(w->X));
  PetscCall(SKExplicitDestroy(&w->ex));
  PetscCall(SKInputDestroy(&w->input));
  PetscCall(SKRoughSurfaceDestroy(&w->surface));
  PetscCall(SKRandomFieldDestroy(&w->field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The normal force (N) of each contact node at the last force evaluation, gathered in natural order: on rank 0 of the
   group into FNODAL[NCONTACT] in the order of the contact-node mask W->mask (other ranks pass NULL). Collective. */
static PetscErrorCode GatherNodalNormalForce(SKExplicit ex, SKContactPair cp, RealisationWork *w, PetscInt ncontact, PetscReal fnodal[])
{
  PetscInt n, gsize;
  const PetscInt *nodes;
  const PetscReal *wt, *fn, *ft;
  PetscReal *global;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(w->local, ex->nlocal));
  PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &wt, &fn, &ft));
  for (PetscInt i = 0; i < n; i++) w->local[nodes[i]] = fn[i];
  PetscCall(SKExplicitGatherNaturalBlock(ex, w->local, 1, &global));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  if (fnodal)
    for (PetscInt i = 0, k = 0; i < gsize && k < ncontact; i++)
      if (w->mask[i] > 0) fnodal[k++] = global[i];
  PetscCall(PetscFree(global));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Computes task K on the ranks of GCOMM into R (rank 0 of GCOMM gets the arrays). What it creates is kept in W for the
   caller to release, so that an error part way leaks nothing. */
static PetscErrorCode RealisationCompute(const Campaign *c, MPI_Comm gcomm, PetscInt task, RealisationWork *w, Realisation *r)
{
  SKRandomFieldParams p = c->field;
  RoughMap map;
  SKExplicit ex;
  SKContactPair cp;
  PetscInt nsteps, gsize, row = 0;
  PetscMPIInt grank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
  p.correlation_length = c->lc[task / c->count];
  PetscCall(PetscMalloc1(p.n[0] * p.n[1], &r->heights));
  PetscCall(SKRandomFieldCreate(&p, &w->field));
  PetscCall(SKRandomFieldSample(w->field, task, r->heights)); /* the stream is the task: independent over l_c too */
  PetscCall(SKRandomFieldDestroy(&w->field));
  PetscCall(SKRoughSurfaceCreateWithKnots(p.n, p.length, c->knots[0], c->knots[1], r->heights, &w->surface)); /* NULL: FE path */
  map.surface = w->surface;
  map.c       = c;
  PetscCall(SKInputLoad(gcomm, c->study, &w->input));
  PetscCall(CreateStudy(w->input, c->patch ? RoughPatchMap : RoughNodeMap, &map,
                        &w->ex)); /* e.g. an element inverted by the surface: the error says which */
  PetscCall(SKRoughSurfaceDestroy(&w->surface));
  ex = w->ex;
  PetscCall(SKExplicitGetContactPair(ex, 0, &cp));
  nsteps  = (PetscInt)PetscCeilReal(ex->t_end / ex->dt - 1e-9);
  r->nrec = (nsteps + c->every - 1) / c->every;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  /* the contact nodes (a fixed set): their mask and reference coordinates, gathered in natural order */
  {
    PetscInt n;
    const PetscInt *nodes;
    const PetscReal *wt, *fn, *ft;
    PetscCall(PetscCalloc1(2 * ex->nlocal, &w->local));
    PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &wt, &fn, &ft));
    for (PetscInt i = 0; i < n; i++) w->local[ex->nlocal + nodes[i]] = 1;
    PetscCall(SKExplicitGatherNaturalBlock(ex, w->local + ex->nlocal, 1, &w->mask));
    PetscCall(SKExplicitGatherNaturalBlock(ex, ex->X, 3, &w->X));
  }
  if (!grank)
    for (PetscInt i = 0; i < gsize; i++) r->ncontact += w->mask[i] > 0;
  PetscCall(PetscMalloc1(r->nrec, &r->time));
  PetscCall(PetscMalloc1(r->nrec, &r->cof));
  PetscCall(PetscMalloc1(r->nrec, &r->area));
  PetscCall(PetscMalloc1(r->nrec, &r->normal));
  if (c->record_nodal && !grank) PetscCall(PetscMalloc1(r->nrec * r->ncontact, &r->nodal));
  while (ex->step < nsteps) {
    SKContactPairStats st;
    PetscCall(SKExplicitAdvance(ex, PetscMin(c->every, nsteps - ex->step)));
    PetscCall(SKContactPairGetStats(cp, &st));
    r->time[row]   = ex->t;
    r->cof[row]    = st.cof;
    r->normal[row] = st.normal_force;
    PetscCall(ContactAreaFraction(ex, cp, &r->area[row]));
    if (c->record_nodal) PetscCall(GatherNodalNormalForce(ex, cp, w, r->ncontact, r->nodal ? r->nodal + row * r->ncontact : NULL));
    row++;
    PetscCall(SKSignalCheck(gcomm)); /* SIGTERM or SIGINT stop the campaign (RunRealisation() lets it through) */
  }
  /* nodal sticking-time ratios, gathered in natural order */
  PetscCall(PetscArrayzero(w->local, ex->nlocal));
  PetscCall(SKContactPairAddNodalStickRatio(cp, ex->t, w->local));
  PetscCall(SKExplicitGatherNaturalBlock(ex, w->local, 1, &w->stick));
  PetscCall(SKContactPairGetStickingTimeRatio(cp, ex->t, &r->ratio, NULL));
  r->steps = ex->step;
  r->dofs  = 3 * gsize;
  r->dt    = ex->dt;
  if (!grank) {
    PetscCall(PetscMalloc1(r->ncontact, &r->x));
    PetscCall(PetscMalloc1(r->ncontact, &r->y));
    PetscCall(PetscMalloc1(r->ncontact, &r->z));
    PetscCall(PetscMalloc1(r->ncontact, &r->stick));
    for (PetscInt i = 0, k = 0; i < gsize; i++)
      if (w->mask[i] > 0) {
        r->x[k] = w->X[3 * i], r->y[k] = w->X[3 * i + 1], r->z[k] = w->X[3 * i + 2];
        r->stick[k++] = w->stick[i];
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why a realisation failed: what its failure record holds. */
typedef struct {
  PetscReal time;     /* the simulated time it had reached (s; 0 when its set-up failed) */
  PetscReal wall;     /* wall time until it failed (s) */
  char message[1024]; /* the message of its first error (PETSc keeps 1023 characters of it) */
} Failure;

/* Runs task K on the ranks of GCOMM (collective on GCOMM): the boundary of a realisation.
   A PETSc error inside the realisation returns up the stack on the ranks of the group (the error handler is set to
   return: nothing prints a traceback meant for a fatal error, nothing aborts) and is caught here. The explicit solver
   raises its run-time errors (instability, energy blow-up, inverted element, contact check) on every rank of its
   communicator together, each check being reduced over the ranks first, so no rank of the group is left waiting in
   one of its collectives; here the ranks agree on whether the realisation failed before anything else is collective,
   then release what it holds (its solver and input live on the group's communicator), and every rank of the group
   gets the time and message of the rank that met the problem. Nothing leaves the group: the other groups go on.
   An interrupt (PETSC_ERR_SIG: SIGTERM or SIGINT) is not the realisation's failure: it is raised again and stops the
   campaign. On return *failed says whether the realisation failed; if so WHY says why and R holds nothing, otherwise
   rank 0 of GCOMM has the results in R. */
static PetscErrorCode RunRealisation(const Campaign *c, MPI_Comm gcomm, PetscInt task, Realisation *r, PetscBool *failed, Failure *why)
{
  RealisationWork w;
  PetscErrorCode ierr;
  PetscLogDouble w0, w1;
  PetscMPIInt grank;
  PetscInt flags[2];
  char *base;
  struct {
    int priority, rank;
  } mine, source; /* MPI_2INT for MPI_MAXLOC */

  PetscFunctionBegin;
  PetscCall(SKWallTime(&w0));
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscMemzero(&w, sizeof(w)));
  PetscCall(PetscMemzero(why, sizeof(*why)));
  PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
  /* an error's message is PETSc's copy of its first message; emptied so that an earlier realisation's is never taken
     for this one's (an error code returned without a message then shows as PETSc's text of the code) */
  PetscCall(PetscErrorMessage(0, NULL, &base));
  base[0] = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RealisationCompute(c, gcomm, task, &w, r);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    const char *text;
    PetscCall(PetscErrorMessage(ierr, &text, &base));
    PetscCall(PetscStrncpy(why->message, base[0] ? base : text ? text : "error without a message", sizeof(why->message)));
    why->time = w.ex ? w.ex->t : 0;
  }
  flags[0] = ierr ? 1 : 0;
  flags[1] = ierr == PETSC_ERR_SIG ? 1 : 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPIU_INT, MPI_MAX, gcomm));
  PetscCall(RealisationWorkDestroy(&w));
  PetscCall(SKWallTime(&w1));
  r->wall = why->wall = w1 - w0;
  *failed             = flags[0] ? PETSC_TRUE : PETSC_FALSE;
  if (!*failed) PetscFunctionReturn(PETSC_SUCCESS);
  /* the message of the rank that met the problem: the solver's other ranks say it happened "on another rank" */
  mine.priority = !ierr ? 0 : strstr(why->message, "on another rank") ? 1 : 2;
  mine.rank     = grank;
  PetscCallMPI(MPI_Allreduce(&mine, &source, 1, MPI_2INT, MPI_MAXLOC, gcomm));
  PetscCallMPI(MPI_Bcast(why->message, (PetscMPIInt)sizeof(why->message), MPI_CHAR, source.rank, gcomm));
  PetscCallMPI(MPI_Bcast(&why->time, 1, MPIU_REAL, source.rank, gcomm));
  PetscCall(RealisationReset(r));
  PetscCheck(!flags[1], gcomm, PETSC_ERR_SIG, "%s", why->message);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A task's file, a result or a failure record, is made in memory and written under a temporary name, renamed once
   complete (SKH5ImageCommit()). It starts with the attributes that identify the task: digest, task (K), realisation
   (its index within its l_c), correlation_length, rms, seed, wall_time and core_seconds (wall time x ranks of the
   group). */
static PetscErrorCode TaskFileCreate(const Campaign *c, const char path[], PetscInt task, PetscReal wall, PetscMPIInt granks, char tmp[],
                                     size_t len, hid_t *file)
{
  const char *digest = c->digest;
  hid_t strtype;
  const PetscReal core_s = wall * granks, lc = c->lc[task / c->count], seed = (PetscReal)c->field.seed;
  const int64_t ints[2] = {task, task % c->count};

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tmp, len, "%s.tmp.%d", path, (int)getpid()));
  PetscCall(SKH5ImageCreate(tmp, file));
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(SKH5WriteAttribute(*file, "digest", strtype, &digest));
  H5Tclose(strtype);
  PetscCall(SKH5WriteAttribute(*file, "task", H5T_NATIVE_INT64, &ints[0]));
  PetscCall(SKH5WriteAttribute(*file, "realisation", H5T_NATIVE_INT64, &ints[1]));
  PetscCall(SKH5WriteAttribute(*file, "correlation_length", H5T_NATIVE_DOUBLE, &lc));
  PetscCall(SKH5WriteAttribute(*file, "rms", H5T_NATIVE_DOUBLE, &c->field.rms));
  PetscCall(SKH5WriteAttribute(*file, "seed", H5T_NATIVE_DOUBLE, &seed));
  PetscCall(SKH5WriteAttribute(*file, "wall_time", H5T_NATIVE_DOUBLE, &wall));
  PetscCall(SKH5WriteAttribute(*file, "core_seconds", H5T_NATIVE_DOUBLE, &core_s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaskFileCommit(hid_t file, const char tmp[], const char path[])
{
  PetscFunctionBegin;
  PetscCall(SKH5ImageCommit(&file, tmp, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Opens a task's file for reading; a digest other than this campaign's is an error (the file belongs to another
   input). */
static PetscErrorCode TaskFileOpen(const Campaign *c, const char path[], hid_t *file)
{
  char *digest = NULL;
  hid_t strtype;
  PetscBool same;

  PetscFunctionBegin;
  *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  PetscCheck(*file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", path);
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(H5ReadAttr(*file, "digest", strtype, &digest));
  H5Tclose(strtype);
  PetscCall(PetscStrcmp(digest, c->digest, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s was computed from another input (digest %s, this campaign %s)", path,
             digest, c->digest);
  H5free_memory(digest);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes realisation TASK into DIR/realisations. */
static PetscErrorCode WriteRealisation(const Campaign *c, const char dir[], PetscInt task, PetscMPIInt granks, const Realisation *r)
{
  char path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 32];
  hid_t file;
  const PetscInt n2     = c->field.n[0] * c->field.n[1];
  const int64_t ints[3] = {r->steps, r->dofs, r->ncontact};

  PetscFunctionBegin;
  PetscCall(RealisationPath(dir, task, path, sizeof(path)));
  PetscCall(TaskFileCreate(c, path, task, r->wall, granks, tmp, sizeof(tmp), &file));
  PetscCall(H5WriteReals(file, "x", r->ncontact, r->x));
  PetscCall(H5WriteReals(file, "y", r->ncontact, r->y));
  PetscCall(H5WriteReals(file, "z", r->ncontact, r->z));
  PetscCall(H5WriteReals(file, "sticking_time_ratio", r->ncontact, r->stick));
  PetscCall(H5WriteReals(file, "time", r->nrec, r->time));
  PetscCall(H5WriteReals(file, "cof", r->nrec, r->cof));
  PetscCall(H5WriteReals(file, "contact_area_fraction", r->nrec, r->area));
  PetscCall(H5WriteReals(file, "normal_force", r->nrec, r->normal));
  if (r->nodal) {
    const PetscInt dims[2] = {r->nrec, r->ncontact};
    PetscCall(SKH5WriteArray(file, "normal_force_nodes", H5T_NATIVE_DOUBLE, 2, dims, r->nodal));
  }
  PetscCall(H5WriteReals(file, "heights", n2, r->heights));
  PetscCall(SKH5WriteAttribute(file, "steps", H5T_NATIVE_INT64, &ints[0]));
  PetscCall(SKH5WriteAttribute(file, "dofs", H5T_NATIVE_INT64, &ints[1]));
  PetscCall(SKH5WriteAttribute(file, "contact_points", H5T_NATIVE_INT64, &ints[2]));
  PetscCall(SKH5WriteAttribute(file, "dt", H5T_NATIVE_DOUBLE, &r->dt));
  PetscCall(SKH5WriteAttribute(file, "sticking_time_ratio", H5T_NATIVE_DOUBLE, &r->ratio));
  PetscCall(TaskFileCommit(file, tmp, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads realisation TASK. */
static PetscErrorCode ReadRealisation(const Campaign *c, const char dir[], PetscInt task, Realisation *r)
{
  char path[PETSC_MAX_PATH_LEN];
  hid_t file;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(RealisationPath(dir, task, path, sizeof(path)));
  PetscCall(TaskFileOpen(c, path, &file));
  PetscCall(H5ReadReals(file, "x", &r->ncontact, &r->x));
  PetscCall(H5ReadReals(file, "y", &n, &r->y));
  PetscCall(H5ReadReals(file, "sticking_time_ratio", &n, &r->stick));
  PetscCall(H5ReadReals(file, "time", &r->nrec, &r->time));
  PetscCall(H5ReadReals(file, "cof", &n, &r->cof));
  PetscCall(H5ReadReals(file, "contact_area_fraction", &n, &r->area));
  PetscCall(H5ReadAttr(file, "sticking_time_ratio", H5T_NATIVE_DOUBLE, &r->ratio));
  PetscCall(H5ReadAttr(file, "core_seconds", H5T_NATIVE_DOUBLE, &r->wall));
  H5Fclose(file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The failure record of task K: DIR/realisations/failed_<K>.h5 in place of its result. */
static PetscErrorCode FailurePath(const char dir[], PetscInt task, char path[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/realisations/failed_%05" PetscInt_FMT ".h5", dir, task));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes the failure record of TASK: the identifying attributes, time (s) and message. */
static PetscErrorCode WriteFailure(const Campaign *c, const char dir[], PetscInt task, PetscMPIInt granks, const Failure *why)
{
  char path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 32];
  const char *message = why->message;
  hid_t file, strtype;

  PetscFunctionBegin;
  PetscCall(FailurePath(dir, task, path, sizeof(path)));
  PetscCall(TaskFileCreate(c, path, task, why->wall, granks, tmp, sizeof(tmp), &file));
  PetscCall(SKH5WriteAttribute(file, "time", H5T_NATIVE_DOUBLE, &why->time));
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(SKH5WriteAttribute(file, "message", strtype, &message));
  H5Tclose(strtype);
  PetscCall(TaskFileCommit(file, tmp, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadFailure(const Campaign *c, const char dir[], PetscInt task, Failure *why)
{
  char path[PETSC_MAX_PATH_LEN], *message = NULL;
  hid_t file, strtype;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(why, sizeof(*why)));
  PetscCall(FailurePath(dir, task, path, sizeof(path)));
  PetscCall(TaskFileOpen(c, path, &file));
  PetscCall(H5ReadAttr(file, "time", H5T_NATIVE_DOUBLE, &why->time));
  PetscCall(H5ReadAttr(file, "wall_time", H5T_NATIVE_DOUBLE, &why->wall));
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(H5ReadAttr(file, "message", strtype, &message));
  H5Tclose(strtype);
  PetscCall(PetscStrncpy(why->message, message, sizeof(why->message)));
  H5free_memory(message);
  H5Fclose(file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FileExists(const char path[])
{
  return (PetscBool)(access(path, F_OK) == 0);
}

/* Welford's streaming mean and sum of squared deviations of vectors of length n. */
typedef struct {
  PetscInt n, count;
  PetscReal *mean, *m2;
} Welford;

static PetscErrorCode WelfordAdd(Welford *w, PetscInt n, const PetscReal x[])
{
  PetscFunctionBegin;
  if (!w->mean) {
    w->n = n;
    PetscCall(PetscCalloc2(n, &w->mean, n, &w->m2));
  }
  PetscCheck(n == w->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "realisations of one correlation length differ in size (%" PetscInt_FMT " and %" PetscInt_FMT ")", n, w->n);
  w->count++;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal delta = x[i] - w->mean[i];
    w->mean[i] += delta / w->count;
    w->m2[i] += delta * (x[i] - w->mean[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes mean, standard deviation (n - 1) and the 95 % confidence band of the mean (normal quantile 1.96) of W under
   GROUP/NAME_{mean,std,ci_low,ci_high}; frees W. */
static PetscErrorCode WelfordWrite(Welford *w, SKOutput out, const char group[], const char name[])
{
  char path[PETSC_MAX_PATH_LEN];
  PetscReal *std, *lo, *hi;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(w->n, &std, w->n, &lo, w->n, &hi));
  for (PetscInt i = 0; i < w->n; i++) {
    std[i] = w->count > 1 ? PetscSqrtReal(w->m2[i] / (w->count - 1)) : 0;
    lo[i]  = w->mean[i] - 1.96 * std[i] / PetscSqrtReal((PetscReal)w->count);
    hi[i]  = w->mean[i] + 1.96 * std[i] / PetscSqrtReal((PetscReal)w->count);
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s_mean", group, name));
  PetscCall(SKOutputWriteRealArray(out, path, 1, &w->n, w->mean));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s_std", group, name));
  PetscCall(SKOutputWriteRealArray(out, path, 1, &w->n, std));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s_ci_low", group, name));
  PetscCall(SKOutputWriteRealArray(out, path, 1, &w->n, lo));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s_ci_high", group, name));
  PetscCall(SKOutputWriteRealArray(out, path, 1, &w->n, hi));
  PetscCall(PetscFree3(std, lo, hi));
  PetscCall(PetscFree2(w->mean, w->m2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Aggregates every correlation length into OUT under /campaign/lc_<i> over its finished realisations (every task
   has a result or a failure record; rank 0 of OUT reads, the others pass). */
static PetscErrorCode Aggregate(const Campaign *c, const char dir[], SKOutput out)
{
  PetscMPIInt rank;
  PetscInt finished_all = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < c->nlc; i++) {
    Welford stick = {0}, cof = {0}, area = {0}, ratio = {0};
    PetscReal *conv, core = 0;
    PetscInt n = 0; /* finished realisations of this l_c */
    Realisation r;
    char group[64], path[PETSC_MAX_PATH_LEN];

    PetscCall(PetscSNPrintf(group, sizeof(group), "/campaign/lc_%" PetscInt_FMT, i));
    PetscCall(PetscMalloc1(4 * c->count, &conv));
    for (PetscInt k = 0; k < c->count; k++) {
      PetscCall(RealisationPath(dir, i * c->count + k, path, sizeof(path)));
      if (!FileExists(path)) continue; /* failed: it has a failure record instead */
      PetscCall(ReadRealisation(c, dir, i * c->count + k, &r));
      if (!n) {
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/x", group));
        PetscCall(SKOutputWriteRealArray(out, path, 1, &r.ncontact, r.x));
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/y", group));
        PetscCall(SKOutputWriteRealArray(out, path, 1, &r.ncontact, r.y));
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/time", group));
        PetscCall(SKOutputWriteRealArray(out, path, 1, &r.nrec, r.time));
      }
      PetscCall(WelfordAdd(&stick, r.ncontact, r.stick));
      PetscCall(WelfordAdd(&cof, r.nrec, r.cof));
      PetscCall(WelfordAdd(&area, r.nrec, r.area));
      PetscCall(WelfordAdd(&ratio, 1, &r.ratio));
      core += r.wall;
      /* convergence of the statistics with the number of realisations: n, mean, std and 95 % half-width of the
         global sticking-time ratio */
      conv[4 * n + 0] = ratio.count;
      conv[4 * n + 1] = ratio.mean[0];
      conv[4 * n + 2] = ratio.count > 1 ? PetscSqrtReal(ratio.m2[0] / (ratio.count - 1)) : 0;
      conv[4 * n + 3] = 1.96 * conv[4 * n + 2] / PetscSqrtReal((PetscReal)ratio.count);
      PetscCall(RealisationReset(&r));
      n++;
    }
    if (n) {
      const PetscInt cdims[2] = {n, 4};
      PetscCall(WelfordWrite(&stick, out, group, "sticking_time_ratio"));
      PetscCall(WelfordWrite(&cof, out, group, "cof"));
      PetscCall(WelfordWrite(&area, out, group, "contact_area_fraction"));
      PetscCall(WelfordWrite(&ratio, out, group, "global_sticking_time_ratio"));
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/convergence", group));
      PetscCall(SKOutputWriteRealArray(out, path, 2, cdims, conv));
      PetscCall(SKOutputWriteAttributeString(out, path, "columns", "n mean std ci95_halfwidth"));
    }
    PetscCall(SKOutputWriteAttributeReal(out, group, "correlation_length", c->lc[i]));
    PetscCall(SKOutputWriteAttributeInt(out, group, "count", c->count));
    PetscCall(SKOutputWriteAttributeInt(out, group, "finished", n));
    PetscCall(SKOutputWriteAttributeInt(out, group, "failed", c->count - n));
    if (n) PetscCall(SKOutputWriteAttributeReal(out, group, "core_seconds_per_realisation", core / n));
    if (n == c->count)
      PetscCall(SKOutputSummary(
          out, group, "l_c = %g m: %" PetscInt_FMT " realisations, global sticking-time ratio %.4f +- %.4f (95 %%), %.1f core-s each",
          (double)c->lc[i], c->count, (double)conv[4 * (c->count - 1) + 1], (double)conv[4 * (c->count - 1) + 3],
          (double)(core / c->count)));
    else if (n)
      PetscCall(SKOutputSummary(out, group,
                                "l_c = %g m: %" PetscInt_FMT " of %" PetscInt_FMT " realisations finished (%" PetscInt_FMT
                                " failed), global sticking-time ratio over the finished ones %.4f +- %.4f (95 %%), %.1f core-s each",
                                (double)c->lc[i], n, c->count, c->count - n, (double)conv[4 * (n - 1) + 1], (double)conv[4 * (n - 1) + 3],
                                (double)(core / n)));
    else
      PetscCall(
          SKOutputSummary(out, group, "l_c = %g m: all %" PetscInt_FMT " realisations failed: no statistics", (double)c->lc[i], c->count));
    PetscCall(PetscFree(conv));
    finished_all += n;
  }
  PetscCall(SKOutputWriteAttributeString(out, "/campaign", "digest", c->digest));
  PetscCall(SKOutputWriteAttributeReal(out, "/campaign", "rms", c->field.rms));
  PetscCall(SKOutputWriteAttributeInt(out, "/campaign", "samples", c->field.n[0]));
  PetscCall(SKOutputWriteAttributeInt(out, "/campaign", "finished", finished_all));
  PetscCall(SKOutputWriteAttributeInt(out, "/campaign", "failed", c->nlc * c->count - finished_all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reports the NFAILED failed tasks: a summary line each (index, l_c, time, message), and in OUT the datasets
   /campaign_failures/task and time, the dataset task carrying the attribute message_<K> of each failed task K. Both are
   written even when none failed, so that a campaign whose failed realisations were run again with success lists none
   (rank 0 of OUT reads the records, the others pass). */
static PetscErrorCode ReportFailures(const Campaign *c, const char dir[], SKOutput out, PetscInt nfailed, const PetscInt tasks[])
{
  PetscMPIInt rank;
  PetscReal *times, none = 0;
  Failure *why;
  char name[32];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(nfailed, &times, nfailed, &why));
  for (PetscInt i = 0; i < nfailed; i++) {
    const PetscInt k = tasks[i];
    PetscCall(ReadFailure(c, dir, k, &why[i]));
    times[i] = why[i].time;
    /* as a summary line, but whole (SKOutputSummary() keeps 512 characters) */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-30s realisation %" PetscInt_FMT " (l_c = %g m, number %" PetscInt_FMT ") at t = %g s: %s\n",
                          "failed", k, (double)c->lc[k / c->count], k % c->count, (double)why[i].time, why[i].message));
  }
  /* HDF5 writes nothing from an empty array, but wants a buffer */
  PetscCall(SKOutputWriteIntArray(out, "/campaign_failures/task", 1, &nfailed, nfailed ? tasks : &nfailed));
  PetscCall(SKOutputWriteRealArray(out, "/campaign_failures/time", 1, &nfailed, nfailed ? times : &none));
  for (PetscInt i = 0; i < nfailed; i++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "message_%05" PetscInt_FMT, tasks[i]));
    PetscCall(SKOutputWriteAttributeString(out, "/campaign_failures/task", name, why[i].message));
  }
  PetscCall(PetscFree2(times, why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Removes the realisation files and failure records (and their temporaries) and the digest of DIR/realisations. */
static PetscErrorCode ClearRealisations(const char dir[])
{
  char path[PETSC_MAX_PATH_LEN], file[2 * PETSC_MAX_PATH_LEN];
  DIR *d;
  struct dirent *e;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations", dir));
  if (!(d = opendir(path))) PetscFunctionReturn(PETSC_SUCCESS);
  while ((e = readdir(d)))
    if (!strncmp(e->d_name, "realisation_", 12) || !strncmp(e->d_name, "failed_", 7) || !strcmp(e->d_name, "digest")) {
      PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s", path, e->d_name));
      (void)remove(file);
    }
  (void)closedir(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of PrepareDirectory(): the directories made, the digest read into old[len] (*BAD: another input's, kept
   unless FORCE) or written. */
static PetscErrorCode PrepareDigest(const Campaign *c, const char dir[], PetscBool force, char old[], size_t len, PetscInt *bad)
{
  char path[PETSC_MAX_PATH_LEN];
  FILE *f;

  PetscFunctionBegin;
  (void)mkdir(dir, 0777); /* -campaign_dir may name a directory not made yet (the -o directory exists by now) */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations", dir));
  (void)mkdir(path, 0777);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations/digest", dir));
  if ((f = fopen(path, "r"))) {
    if (!fgets(old, (int)len, f)) old[0] = 0;
    (void)fclose(f);
    old[strcspn(old, "\n")] = 0;
    *bad                    = strcmp(old, c->digest) != 0;
    if (*bad && force) {
      PetscCall(ClearRealisations(dir));
      *bad = 0;
    }
  }
  if (!FileExists(path)) {
    PetscCheck((f = fopen(path, "w")), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    (void)fprintf(f, "%s\n", c->digest);
    (void)fclose(f);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The realisations directory and its digest file: created on first use. Another input's digest is an error, unless
   -force (as for results.h5): then the old realisations are removed. */
static PetscErrorCode PrepareDirectory(const Campaign *c, const char dir[])
{
  char old[32] = "";
  PetscMPIInt rank;
  PetscInt bad        = 0;
  PetscBool force     = PETSC_FALSE;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-force", &force, NULL));
  /* a directory that rank 0 cannot write is an error of every rank (the others once waited for it forever) */
  if (!rank) ierr = PrepareDigest(c, dir, force, old, sizeof(old), &bad);
  PetscCall(SKCheckCollective(c->comm, ierr));
  PetscCallMPI(MPI_Bcast(&bad, 1, MPIU_INT, 0, c->comm));
  PetscCheck(!bad, c->comm, PETSC_ERR_FILE_UNEXPECTED,
             "%s/realisations holds realisations of another input (digest %s, this input %s): use another output directory or -force", dir,
             old, c->digest);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of RunAndWrite(): the result R of TASK, or its failure record WHY if FAILED. */
static PetscErrorCode WriteTask(const Campaign *c, const char dir[], PetscInt task, PetscMPIInt granks, PetscBool failed,
                                const Failure *why, const Realisation *r)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  if (failed) {
    PetscCall(WriteFailure(c, dir, task, granks, why));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(WriteRealisation(c, dir, task, granks, r));
  PetscCall(FailurePath(dir, task, path, sizeof(path)));
  if (FileExists(path)) PetscCheck(!remove(path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot remove %s", path);
  PetscCall(PetscInfo(NULL, "realisation %" PetscInt_FMT " (l_c = %g m): %" PetscInt_FMT " steps in %.2f s\n", task,
                      (double)c->lc[task / c->count], r->steps, r->wall));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runs task K on GCOMM and writes its result or, if it failed (*failed, WHY), its failure record (rank 0 of GCOMM); a
   result replaces the failure record of an earlier attempt. Test hook -campaign_kill_after N: that rank kills itself
   with SIGKILL after writing its N-th file, as a campaign killed part way would die. */
static PetscErrorCode RunAndWrite(const Campaign *c, const char dir[], MPI_Comm gcomm, PetscInt task, PetscInt *written, PetscBool *failed,
                                  Failure *why)
{
  Realisation r;
  PetscMPIInt grank, gsize;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
  PetscCallMPI(MPI_Comm_size(gcomm, &gsize));
  PetscCall(RunRealisation(c, gcomm, task, &r, failed, why));
  /* a file that the group's rank 0 cannot write is an error of the whole group (its other ranks would wait for it) */
  if (!grank) ierr = WriteTask(c, dir, task, gsize, *failed, why, &r);
  PetscCall(RealisationReset(&r));
  PetscCall(SKCheckCollective(gcomm, ierr));
  if (++*written == c->kill_after && !grank) (void)raise(SIGKILL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tasks of DIR as rank 0 sees it, on every rank: TODO[*ntodo] have neither a result nor (unless RETRY) a failure
   record; FAILED[*nfailed] have a failure record and no result (those not in TODO). The others have results. */
static PetscErrorCode ListTasks(const Campaign *c, const char dir[], PetscBool retry, PetscInt *ntodo, PetscInt todo[], PetscInt *nfailed,
                                PetscInt failed[])
{
  const PetscInt ntask = c->nlc * c->count;
  char path[PETSC_MAX_PATH_LEN];
  PetscInt n[2] = {0, 0};
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  if (!rank)
    for (PetscInt k = 0; k < ntask; k++) {
      PetscBool has_failure;
      PetscCall(RealisationPath(dir, k, path, sizeof(path)));
      if (FileExists(path)) continue;
      PetscCall(FailurePath(dir, k, path, sizeof(path)));
      has_failure = FileExists(path);
      if (has_failure && !retry)
        failed[n[1]++] = k;
      else
        todo[n[0]++] = k;
    }
  PetscCallMPI(MPI_Bcast(n, 2, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(todo, (PetscMPIInt)n[0], MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(failed, (PetscMPIInt)n[1], MPIU_INT, 0, c->comm));
  *ntodo   = n[0];
  *nfailed = n[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -realisation K: task K alone on all ranks (job arrays), no aggregation. Its failure is recorded as in a campaign and
   is this run's error; one recorded before is too, unless -campaign_retry_failed runs it again. */
static PetscErrorCode RunOneTask(const Campaign *c, const char dir[], SKOutput out)
{
  char path[PETSC_MAX_PATH_LEN], record[PETSC_MAX_PATH_LEN];
  PetscInt written = 0;
  PetscBool failed = PETSC_TRUE;
  PetscMPIInt rank;
  Failure why;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCall(RealisationPath(dir, c->task, path, sizeof(path)));
  PetscCall(FailurePath(dir, c->task, record, sizeof(record)));
  if (FileExists(path)) {
    PetscCall(SKOutputSummary(out, "realisation", "%" PetscInt_FMT " exists already (%s): nothing to do", c->task, path));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!FileExists(record) || c->retry_failed)
    PetscCall(RunAndWrite(c, dir, c->comm, c->task, &written, &failed, &why));
  else {
    PetscErrorCode ierr = PETSC_SUCCESS;
    /* a record that rank 0 cannot read is an error of every rank (the others once waited for it forever) */
    if (!rank) ierr = ReadFailure(c, dir, c->task, &why);
    PetscCall(SKCheckCollective(c->comm, ierr));
    PetscCallMPI(MPI_Bcast(&why, (PetscMPIInt)sizeof(why), MPI_BYTE, 0, c->comm));
    PetscCall(SKOutputSummary(out, "realisation", "%" PetscInt_FMT " failed before (%s): not run again without -campaign_retry_failed",
                              c->task, record));
  }
  if (!failed) {
    PetscCall(SKOutputSummary(out, "realisation", "%" PetscInt_FMT " written to %s", c->task, path));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(ReportFailures(c, dir, out, 1, &c->task));
  SETERRQ(c->comm, PETSC_ERR_NOT_CONVERGED, "realisation %" PetscInt_FMT " (l_c = %g m, number %" PetscInt_FMT ") failed at t = %g s: %s",
          c->task, (double)c->lc[c->task / c->count], c->task % c->count, (double)why.time, why.message);
}

static PetscErrorCode CampaignRun(void *ctx, SKOutput out)
{
  Campaign *c          = (Campaign *)ctx;
  const PetscInt ntask = c->nlc * c->count;
  char dir[PETSC_MAX_PATH_LEN], list[256] = "";
  const char *outdir;
  PetscInt *todo, *failed, ntodo, nfailed, written = 0, groups;
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCallMPI(MPI_Comm_size(c->comm, &size));
  PetscCall(SKOutputGetDirectory(out, &outdir));
  PetscCall(PetscStrncpy(dir, c->dir[0] ? c->dir : outdir, sizeof(dir)));
  PetscCall(PrepareDirectory(c, dir));
  PetscCall(SKOutputFlush(out)); /* results.h5 consistent on disk: a killed campaign can be started again with -restart */
  PetscCall(SKOutputCheck(out));
  if (c->task >= 0) {
    PetscCall(RunOneTask(c, dir, out));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  PetscCall(PetscMalloc2(ntask, &todo, ntask, &failed));
  PetscCall(ListTasks(c, dir, c->retry_failed, &ntodo, todo, &nfailed, failed));
  PetscCall(SKOutputSummary(out, "campaign", "%" PetscInt_FMT " of %" PetscInt_FMT " realisations to run, input digest %s", ntodo, ntask,
                            c->digest));
  if (nfailed)
    PetscCall(SKOutputSummary(out, "campaign",
                              "%" PetscInt_FMT " realisations failed before and are not run again (-campaign_retry_failed)", nfailed));

  if (ntodo) {
    PetscSubcomm psub;
    MPI_Comm gcomm;
    MPI_Win win;
    SKProgress progress;
    int *counter, next = 0;
    const int one_int = 1;
    PetscMPIInt grank;
    PetscErrorCode ierr = PETSC_SUCCESS;

    groups = c->groups > 0 ? c->groups : size;
    PetscCheck(groups >= 1 && groups <= size && size % groups == 0, c->comm, SK_ERR_INPUT,
               "-campaign_groups %" PetscInt_FMT ": the groups must divide the %d ranks evenly (0: one group per rank)", groups, (int)size);
    PetscCall(PetscSubcommCreate(c->comm, &psub));
    PetscCall(PetscSubcommSetNumber(psub, groups));
    PetscCall(PetscSubcommSetType(psub, PETSC_SUBCOMM_CONTIGUOUS));
    gcomm = PetscSubcommChild(psub);
    PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
    /* dynamic hand-out: an atomic counter on rank 0; each group's first rank takes the next realisation to run. A
       realisation that fails stays inside its group (RunRealisation()), which goes on with the next one. */
    PetscCallMPI(MPI_Win_allocate(rank ? 0 : (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, c->comm, &counter, &win));
    if (!rank) *counter = 0;
    PetscCallMPI(MPI_Barrier(c->comm));
    /* rank 0 reports how many realisations were handed out (a campaign's log showed nothing until its end) */
    PetscCall(SKProgressCreate(c->comm, "campaign", 0, ntodo, &progress));
    PetscCall(SKProgressSetCount(progress, "realisations started"));
    for (;;) {
      PetscBool fail;
      Failure why;
      if (!grank) {
        PetscCallMPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        PetscCallMPI(MPI_Fetch_and_op(&one_int, &next, MPI_INT, 0, 0, MPI_SUM, win));
        PetscCallMPI(MPI_Win_unlock(0, win));
      }
      PetscCallMPI(MPI_Bcast(&next, 1, MPI_INT, 0, gcomm));
      if (next >= ntodo) break;
      if (!rank) ierr = SKProgressUpdate(progress, next, next + 1); /* serial: a SIGTERM stops here, as below */
      if (ierr) break;
      /* an error of the group (a file it cannot write, an interrupt) ends its part; the groups raise it together below,
         when the others have run out of work (a group stopping alone would leave them waiting at the end) */
      ierr = RunAndWrite(c, dir, gcomm, todo[next], &written, &fail, &why);
      if (ierr) break;
      if (fail && !grank)
        PetscCall(PetscPrintf(PETSC_COMM_SELF,
                              "  realisation %" PetscInt_FMT " (l_c = %g m) failed at t = %g s (recorded; the campaign goes on)\n",
                              todo[next], (double)c->lc[todo[next] / c->count], (double)why.time));
    }
    (void)SKProgressDestroy(&progress);
    ierr = SKCheckCollective(c->comm, ierr); /* and every group is done */
    PetscCallMPI(MPI_Win_free(&win));
    PetscCall(PetscSubcommDestroy(&psub));
    if (ierr) PetscCall(PetscFree2(todo, failed));
    PetscCall(ierr);
  }

  /* aggregate when every realisation has a result or a failure record (a job array may still be running others) */
  PetscCall(ListTasks(c, dir, PETSC_FALSE, &ntodo, todo, &nfailed, failed));
  if (ntodo)
    PetscCall(SKOutputSummary(out, "campaign", "%" PetscInt_FMT " realisations still missing: statistics not aggregated", ntodo));
  else
    PetscCall(Aggregate(c, dir, out));
  PetscCall(ReportFailures(c, dir, out, nfailed, failed));
  for (PetscInt i = 0; i < nfailed; i++) {
    char item[32];
    size_t used = strlen(list);
    PetscCall(PetscSNPrintf(item, sizeof(item), "%s%" PetscInt_FMT, i ? " " : "", failed[i]));
    if (used + strlen(item) + 5 >= sizeof(list)) {
      PetscCall(PetscStrlcat(list, " ...", sizeof(list)));
      break;
    }
    PetscCall(PetscStrlcat(list, item, sizeof(list)));
  }
  PetscCall(PetscFree2(todo, failed));
  PetscCheck(!nfailed, c->comm, PETSC_ERR_NOT_CONVERGED,
             "%" PetscInt_FMT " of %" PetscInt_FMT
             " realisations failed (%s): their times and messages are in the summary (\"failed\") and in "
             "results.h5 (/campaign_failures); the statistics are over the %" PetscInt_FMT
             " that finished; -restart -campaign_retry_failed runs the failed ones again",
             nfailed, ntask, list, ntask - nfailed - ntodo);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CampaignDestroy(void **ctx)
{
  Campaign *c = (Campaign *)*ctx;

  PetscFunctionBegin;
  if (c) PetscCall(PetscFree(c->knots[0]));
  if (c) PetscCall(PetscFree(c->knots[1]));
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverCampaign = {
    "campaign",    "campaign.xsd", "Monte-Carlo campaign of a rough plate on a rigid plane over MPI groups",
    CampaignSetup, CampaignRun,    CampaignDestroy};
