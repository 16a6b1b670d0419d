/* dynamics: the Monte-Carlo campaign of the rough-plate study (XML root <campaign>, schema/campaign.xsd; section 4 of
   lugre-mortar-explicit-contact-2024). A campaign is a driver above the explicit solver: realisation K is a pure
   function of (input, K): the study's plate with its bottom nodes mapped onto the K-th random rough surface. Each
   realisation is written to its own file, atomically (temporary name, then rename), stamped with a digest of the
   inputs; realisations are handed out dynamically to groups of ranks (PetscSubcomm) through an MPI atomic counter, or
   run one at a time (-realisation K) under a job scheduler; a campaign started again runs only the missing ones.
   The statistics (Welford mean and variance, confidence bands) are aggregated into results.h5 once all exist. */
#include "explicitimpl.h"
#include <stickslip/rough.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#define SK_CAMPAIGN_MAX_LC 16
#define SKCallH5(call, what) PetscCheck((call) >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error in %s", what)

typedef struct {
  MPI_Comm comm;
  char study[PETSC_MAX_PATH_LEN];
  SKRandomFieldParams field; /* correlation length and lengths set per realisation */
  PetscInt nlc, count, every;
  PetscReal lc[SK_CAMPAIGN_MAX_LC];
  PetscReal lower[3], upper[3]; /* bounding box of the study's plate (m) */
  char digest[32];              /* FNV-1a of the campaign and study inputs, hex */
  /* options, read in the set-up so that validate checks them and -help lists them */
  char dir[PETSC_MAX_PATH_LEN]; /* -campaign_dir: where the realisations go (empty: the output directory) */
  PetscInt task;                /* -realisation K: run only realisation K (-1: the whole campaign) */
  PetscInt groups;              /* -campaign_groups: MPI groups (0: one per rank) */
  PetscInt kill_after;          /* -campaign_kill_after: test hook, SIGKILL after this many realisations (-1: never) */
} Campaign;

/* The node map of a realisation: bottom nodes onto the surface lowered by its minimum over them. */
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

/* Creates the explicit problem of INPUT with MAP; a refused input frees the half-built solver. */
static PetscErrorCode CreateStudy(SKInput input, SKExplicitNodeMapFn map, void *ctx, SKExplicit *ex)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ex  = NULL;
  ierr = SKExplicitCreateFromInputMapped(input, map, ctx, ex);
  if (ierr) {
    (void)SKExplicitDestroy(ex);
    return ierr;
  }
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

static PetscErrorCode CampaignSetup(SKInput input, void **ctx)
{
  Campaign *c;
  SKNode root, study, rough, real, record;
  SKInput sin   = NULL;
  SKExplicit ex = NULL;
  PetscInt seed = 1;
  PetscBool found, isexplicit, has_task = PETSC_FALSE;
  SKRoughSpectrumFn fn;
  const char *text;
  size_t size;
  unsigned long long hash;
  char known[256], task[64] = "";
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  PetscCall(SKInputGetComm(input, &c->comm));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKRandomFieldParamsSetDefaults(&c->field));
  PetscCall(SKInputRequireChild(input, root, "study", &study));
  PetscCall(SKInputRequireFile(input, study, "file", c->study, sizeof(c->study)));

  PetscCall(SKInputRequireChild(input, root, "roughness", &rough));
  PetscCall(SKInputRequireReal(input, rough, "rms", &c->field.rms));
  PetscCall(SKInputCheck(input, rough, c->field.rms >= 0, "rms = %g m: the RMS roughness must be >= 0", (double)c->field.rms));
  c->nlc = SK_CAMPAIGN_MAX_LC;
  PetscCall(SKInputGetRealList(input, rough, "correlation_lengths", &c->nlc, c->lc, &found));
  PetscCall(
      SKInputCheck(input, rough, found && c->nlc >= 1, "correlation_lengths: give 1 to %d correlation lengths (m)", SK_CAMPAIGN_MAX_LC));
  for (PetscInt i = 0; i < c->nlc; i++)
    PetscCall(SKInputCheck(input, rough, c->lc[i] > 0, "correlation length %g m (number %" PetscInt_FMT ") must be > 0", (double)c->lc[i],
                           i + 1));
  PetscCall(SKInputGetInt(input, rough, "samples", &c->field.n[0], NULL));
  PetscCall(SKInputCheck(input, rough, c->field.n[0] >= 4,
                         "samples = %" PetscInt_FMT ": a bicubic surface needs at least 4 samples per side", c->field.n[0]));
  c->field.n[1] = c->field.n[0];
  PetscCall(SKInputGetString(input, rough, "spectrum", c->field.spectrum, sizeof(c->field.spectrum), NULL));
  PetscCall(SKRoughSpectrumFind(c->field.spectrum, &fn));
  PetscCall(SKRoughSpectrumList(known, sizeof(known)));
  PetscCall(SKInputCheck(input, rough, fn != NULL, "unknown spectrum '%s' (known: %s)", c->field.spectrum, known));

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

  /* the study: an explicit input with a 3D plate and a contact pair; its bounding box sets the sampled rectangle */
  ierr = SKInputLoad(c->comm, c->study, &sin);
  if (!ierr) {
    SKNode sroot;
    ierr = SKInputGetRoot(sin, &sroot);
    if (!ierr) ierr = PetscStrcmp(SKNodeName(sroot), "explicit", &isexplicit);
    if (!ierr)
      ierr = SKInputCheck(input, study, isexplicit, "study '%s' is a <%s> input, not an <explicit> one", c->study, SKNodeName(sroot));
    if (!ierr) ierr = CreateStudy(sin, BoxMap, c, &ex);
    if (!ierr)
      ierr = SKInputCheck(input, study, ex->dim == 3, "study '%s' is %" PetscInt_FMT "D: the rough plate is 3D", c->study, ex->dim);
    if (!ierr) ierr = SKInputCheck(input, study, ex->ncontacts >= 1, "study '%s' has no <contact> pair", c->study);
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
  if (ierr) {
    PetscCall(PetscFree(c));
    return ierr;
  }
  c->task = -1, c->groups = 0, c->kill_after = -1;
  PetscOptionsBegin(c->comm, NULL, "campaign driver", NULL);
  PetscCall(PetscOptionsString("-campaign_dir", "directory of the realisations (default: the output directory)", "", c->dir, c->dir,
                               sizeof(c->dir), NULL));
  /* read as text: PETSc's integer parser turns "1.5" or "abc" into a failure of the run, not an input error */
  PetscCall(PetscOptionsString("-realisation", "run only realisation K = l_c index x count + r (job arrays; default: the whole campaign)",
                               "", task, task, sizeof(task), &has_task));
  PetscCall(PetscOptionsInt("-campaign_groups", "MPI groups sharing the realisations (0: one per rank)", "", c->groups, &c->groups, NULL));
  PetscCall(PetscOptionsInt("-campaign_kill_after", "test hook: SIGKILL after this many realisations (-1: never)", "", c->kill_after,
                            &c->kill_after, NULL));
  PetscOptionsEnd();
  if (has_task) ierr = ParseTask(c, task, &c->task);
  if (ierr) PetscCall(PetscFree(c));
  PetscCall(ierr);
  *ctx = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- small HDF5 helpers for the realisation files (written and read by one process) ---- */

static PetscErrorCode H5WriteReals(hid_t file, const char name[], PetscInt n, const PetscReal v[])
{
  hsize_t dim = (hsize_t)n;
  hid_t space = H5Screate_simple(1, &dim, NULL), dset;

  PetscFunctionBegin;
  dset = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(dset, name);
  SKCallH5(H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), name);
  H5Dclose(dset);
  H5Sclose(space);
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

static PetscErrorCode H5WriteAttr(hid_t file, const char name[], hid_t type, const void *value)
{
  hid_t space = H5Screate(H5S_SCALAR), attr = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);

  PetscFunctionBegin;
  SKCallH5(attr, name);
  SKCallH5(H5Awrite(attr, type, value), name);
  H5Aclose(attr);
  H5Sclose(space);
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

/* Runs task K on the ranks of GCOMM; rank 0 of GCOMM gets the results in R. */
static PetscErrorCode RunRealisation(const Campaign *c, MPI_Comm gcomm, PetscInt task, Realisation *r)
{
  SKRandomFieldParams p = c->field;
  SKRandomField field;
  RoughMap map;
  SKInput sin;
  SKExplicit ex;
  SKContactPair cp;
  PetscInt nsteps, gsize, row = 0;
  PetscReal *local, *stick = NULL, *mask = NULL, *X = NULL;
  PetscMPIInt grank;
  PetscLogDouble w0, w1;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKWallTime(&w0));
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
  p.correlation_length = c->lc[task / c->count];
  PetscCall(PetscMalloc1(p.n[0] * p.n[1], &r->heights));
  PetscCall(SKRandomFieldCreate(&p, &field));
  PetscCall(SKRandomFieldSample(field, task, r->heights)); /* the stream is the task: independent over l_c too */
  PetscCall(SKRandomFieldDestroy(&field));
  PetscCall(SKRoughSurfaceCreate(p.n, p.length, r->heights, &map.surface));
  map.c = c;
  PetscCall(SKInputLoad(gcomm, c->study, &sin));
  ierr = CreateStudy(sin, RoughNodeMap, &map, &ex);
  PetscCall(SKRoughSurfaceDestroy(&map.surface));
  if (ierr) { /* e.g. an element inverted by the surface: the error says which */
    PetscCall(SKInputDestroy(&sin));
    PetscCall(PetscFree(r->heights));
    return ierr;
  }
  cp      = ex->contacts[0];
  nsteps  = (PetscInt)PetscCeilReal(ex->t_end / ex->dt - 1e-9);
  r->nrec = (nsteps + c->every - 1) / c->every;
  PetscCall(PetscMalloc1(r->nrec, &r->time));
  PetscCall(PetscMalloc1(r->nrec, &r->cof));
  PetscCall(PetscMalloc1(r->nrec, &r->area));
  while (ex->step < nsteps) {
    SKContactPairStats st;
    PetscCall(SKExplicitAdvance(ex, PetscMin(c->every, nsteps - ex->step)));
    PetscCall(SKContactPairGetStats(cp, &st));
    r->time[row] = ex->t;
    r->cof[row]  = st.cof;
    PetscCall(ContactAreaFraction(ex, cp, &r->area[row]));
    row++;
  }
  /* nodal sticking-time ratios and the contact-node mask, gathered in natural order */
  {
    PetscInt n;
    const PetscInt *nodes;
    const PetscReal *w, *fn, *ft;
    PetscCall(PetscCalloc1(2 * ex->nlocal, &local));
    PetscCall(SKContactPairAddNodalStickRatio(cp, ex->t, local));
    PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &w, &fn, &ft));
    for (PetscInt i = 0; i < n; i++) local[ex->nlocal + nodes[i]] = 1;
    PetscCall(SKExplicitGatherNaturalBlock(ex, local, 1, &stick));
    PetscCall(SKExplicitGatherNaturalBlock(ex, local + ex->nlocal, 1, &mask));
    PetscCall(SKExplicitGatherNaturalBlock(ex, ex->X, 3, &X));
    PetscCall(PetscFree(local));
  }
  PetscCall(SKContactPairGetStickingTimeRatio(cp, ex->t, &r->ratio, NULL));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  r->steps = ex->step;
  r->dofs  = 3 * gsize;
  r->dt    = ex->dt;
  if (!grank) {
    for (PetscInt i = 0; i < gsize; i++) r->ncontact += mask[i] > 0;
    PetscCall(PetscMalloc1(r->ncontact, &r->x));
    PetscCall(PetscMalloc1(r->ncontact, &r->y));
    PetscCall(PetscMalloc1(r->ncontact, &r->z));
    PetscCall(PetscMalloc1(r->ncontact, &r->stick));
    for (PetscInt i = 0, k = 0; i < gsize; i++)
      if (mask[i] > 0) {
        r->x[k] = X[3 * i], r->y[k] = X[3 * i + 1], r->z[k] = X[3 * i + 2];
        r->stick[k++] = stick[i];
      }
  }
  PetscCall(PetscFree(stick));
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree(X));
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&sin));
  PetscCall(SKWallTime(&w1));
  r->wall = w1 - w0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes realisation TASK into DIR/realisations atomically: a temporary file renamed once complete. */
static PetscErrorCode WriteRealisation(const Campaign *c, const char dir[], PetscInt task, PetscMPIInt granks, const Realisation *r)
{
  char path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 32];
  const char *digest = c->digest;
  hid_t file, strtype;
  const PetscInt lci = task / c->count, index = task % c->count, n2 = c->field.n[0] * c->field.n[1];
  const PetscReal core_s = r->wall * granks, lc = c->lc[lci], seed = (PetscReal)c->field.seed;
  const int64_t ints[5] = {task, index, r->steps, r->dofs, r->ncontact};

  PetscFunctionBegin;
  PetscCall(RealisationPath(dir, task, path, sizeof(path)));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()));
  file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  PetscCheck(file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create %s", tmp);
  PetscCall(H5WriteReals(file, "x", r->ncontact, r->x));
  PetscCall(H5WriteReals(file, "y", r->ncontact, r->y));
  PetscCall(H5WriteReals(file, "z", r->ncontact, r->z));
  PetscCall(H5WriteReals(file, "sticking_time_ratio", r->ncontact, r->stick));
  PetscCall(H5WriteReals(file, "time", r->nrec, r->time));
  PetscCall(H5WriteReals(file, "cof", r->nrec, r->cof));
  PetscCall(H5WriteReals(file, "contact_area_fraction", r->nrec, r->area));
  PetscCall(H5WriteReals(file, "heights", n2, r->heights));
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(H5WriteAttr(file, "digest", strtype, &digest));
  H5Tclose(strtype);
  PetscCall(H5WriteAttr(file, "task", H5T_NATIVE_INT64, &ints[0]));
  PetscCall(H5WriteAttr(file, "realisation", H5T_NATIVE_INT64, &ints[1]));
  PetscCall(H5WriteAttr(file, "steps", H5T_NATIVE_INT64, &ints[2]));
  PetscCall(H5WriteAttr(file, "dofs", H5T_NATIVE_INT64, &ints[3]));
  PetscCall(H5WriteAttr(file, "contact_points", H5T_NATIVE_INT64, &ints[4]));
  PetscCall(H5WriteAttr(file, "correlation_length", H5T_NATIVE_DOUBLE, &lc));
  PetscCall(H5WriteAttr(file, "rms", H5T_NATIVE_DOUBLE, &c->field.rms));
  PetscCall(H5WriteAttr(file, "seed", H5T_NATIVE_DOUBLE, &seed));
  PetscCall(H5WriteAttr(file, "dt", H5T_NATIVE_DOUBLE, &r->dt));
  PetscCall(H5WriteAttr(file, "sticking_time_ratio", H5T_NATIVE_DOUBLE, &r->ratio));
  PetscCall(H5WriteAttr(file, "wall_time", H5T_NATIVE_DOUBLE, &r->wall));
  PetscCall(H5WriteAttr(file, "core_seconds", H5T_NATIVE_DOUBLE, &core_s));
  SKCallH5(H5Fclose(file), "H5Fclose");
  PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s", tmp, path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads realisation TASK; a digest other than this campaign's is an error (the file belongs to another input). */
static PetscErrorCode ReadRealisation(const Campaign *c, const char dir[], PetscInt task, Realisation *r)
{
  char path[PETSC_MAX_PATH_LEN], *digest = NULL;
  hid_t file, strtype;
  PetscBool same;
  PetscInt n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(RealisationPath(dir, task, path, sizeof(path)));
  file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  PetscCheck(file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", path);
  strtype = H5Tcopy(H5T_C_S1);
  H5Tset_size(strtype, H5T_VARIABLE);
  PetscCall(H5ReadAttr(file, "digest", strtype, &digest));
  H5Tclose(strtype);
  PetscCall(PetscStrcmp(digest, c->digest, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s was computed from another input (digest %s, this campaign %s)", path,
             digest, c->digest);
  H5free_memory(digest);
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

/* Aggregates every correlation length into OUT under /campaign/lc_<i> (rank 0 of OUT reads; others pass). */
static PetscErrorCode Aggregate(const Campaign *c, const char dir[], SKOutput out)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < c->nlc; i++) {
    Welford stick = {0}, cof = {0}, area = {0}, ratio = {0};
    PetscReal *conv, core = 0;
    Realisation r;
    char group[64], path[PETSC_MAX_PATH_LEN];
    const PetscInt cdims[2] = {c->count, 4};

    PetscCall(PetscSNPrintf(group, sizeof(group), "/campaign/lc_%" PetscInt_FMT, i));
    PetscCall(PetscMalloc1(4 * c->count, &conv));
    for (PetscInt k = 0; k < c->count; k++) {
      PetscCall(ReadRealisation(c, dir, i * c->count + k, &r));
      if (!k) {
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
      conv[4 * k + 0] = ratio.count;
      conv[4 * k + 1] = ratio.mean[0];
      conv[4 * k + 2] = ratio.count > 1 ? PetscSqrtReal(ratio.m2[0] / (ratio.count - 1)) : 0;
      conv[4 * k + 3] = 1.96 * conv[4 * k + 2] / PetscSqrtReal((PetscReal)ratio.count);
      PetscCall(RealisationReset(&r));
    }
    PetscCall(WelfordWrite(&stick, out, group, "sticking_time_ratio"));
    PetscCall(WelfordWrite(&cof, out, group, "cof"));
    PetscCall(WelfordWrite(&area, out, group, "contact_area_fraction"));
    PetscCall(WelfordWrite(&ratio, out, group, "global_sticking_time_ratio"));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/convergence", group));
    PetscCall(SKOutputWriteRealArray(out, path, 2, cdims, conv));
    PetscCall(SKOutputWriteAttributeString(out, path, "columns", "n mean std ci95_halfwidth"));
    PetscCall(SKOutputWriteAttributeReal(out, group, "correlation_length", c->lc[i]));
    PetscCall(SKOutputWriteAttributeInt(out, group, "count", c->count));
    PetscCall(SKOutputWriteAttributeReal(out, group, "core_seconds_per_realisation", core / c->count));
    PetscCall(SKOutputSummary(
        out, group, "l_c = %g m: %" PetscInt_FMT " realisations, global sticking-time ratio %.4f +- %.4f (95 %%), %.1f core-s each",
        (double)c->lc[i], c->count, (double)conv[4 * (c->count - 1) + 1], (double)conv[4 * (c->count - 1) + 3], (double)(core / c->count)));
    PetscCall(PetscFree(conv));
  }
  PetscCall(SKOutputWriteAttributeString(out, "/campaign", "digest", c->digest));
  PetscCall(SKOutputWriteAttributeReal(out, "/campaign", "rms", c->field.rms));
  PetscCall(SKOutputWriteAttributeInt(out, "/campaign", "samples", c->field.n[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Removes the realisation files (and their temporaries) and the digest of DIR/realisations. */
static PetscErrorCode ClearRealisations(const char dir[])
{
  char path[PETSC_MAX_PATH_LEN], file[2 * PETSC_MAX_PATH_LEN];
  DIR *d;
  struct dirent *e;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations", dir));
  if (!(d = opendir(path))) PetscFunctionReturn(PETSC_SUCCESS);
  while ((e = readdir(d)))
    if (!strncmp(e->d_name, "realisation_", 12) || !strcmp(e->d_name, "digest")) {
      PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s", path, e->d_name));
      (void)remove(file);
    }
  (void)closedir(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The realisations directory and its digest file: created on first use. Another input's digest is an error, unless
   -force (as for results.h5): then the old realisations are removed. */
static PetscErrorCode PrepareDirectory(const Campaign *c, const char dir[])
{
  char path[PETSC_MAX_PATH_LEN], old[32] = "";
  PetscMPIInt rank;
  PetscInt bad    = 0;
  PetscBool force = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-force", &force, NULL));
  if (!rank) {
    FILE *f;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations", dir));
    (void)mkdir(path, 0777);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/realisations/digest", dir));
    if ((f = fopen(path, "r"))) {
      if (!fgets(old, sizeof(old), f)) old[0] = 0;
      (void)fclose(f);
      old[strcspn(old, "\n")] = 0;
      bad                     = strcmp(old, c->digest) != 0;
      if (bad && force) {
        PetscCall(ClearRealisations(dir));
        bad = 0;
      }
    }
    if (!FileExists(path)) {
      PetscCheck((f = fopen(path, "w")), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
      (void)fprintf(f, "%s\n", c->digest);
      (void)fclose(f);
    }
  }
  PetscCallMPI(MPI_Bcast(&bad, 1, MPIU_INT, 0, c->comm));
  PetscCheck(!bad, c->comm, PETSC_ERR_FILE_UNEXPECTED,
             "%s/realisations holds realisations of another input (digest %s, this input %s): use another output directory or -force", dir,
             old, c->digest);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runs task K on GCOMM and writes it (rank 0 of GCOMM); test hook -campaign_kill_after N: that rank kills itself with
   SIGKILL after writing its N-th realisation, as a campaign killed part way would die. */
static PetscErrorCode RunAndWrite(const Campaign *c, const char dir[], MPI_Comm gcomm, PetscInt task, PetscInt *written)
{
  Realisation r;
  PetscMPIInt grank, gsize;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
  PetscCallMPI(MPI_Comm_size(gcomm, &gsize));
  PetscCall(RunRealisation(c, gcomm, task, &r));
  if (!grank) {
    PetscCall(WriteRealisation(c, dir, task, gsize, &r));
    PetscCall(PetscInfo(NULL, "realisation %" PetscInt_FMT " (l_c = %g m): %" PetscInt_FMT " steps in %.2f s\n", task,
                        (double)c->lc[task / c->count], r.steps, r.wall));
  }
  PetscCall(RealisationReset(&r));
  if (++*written == c->kill_after && !grank) (void)raise(SIGKILL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CampaignRun(void *ctx, SKOutput out)
{
  Campaign *c          = (Campaign *)ctx;
  const PetscInt ntask = c->nlc * c->count;
  char dir[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  const char *outdir;
  PetscInt task, *missing, nmissing = 0, written = 0, groups;
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCallMPI(MPI_Comm_size(c->comm, &size));
  PetscCall(SKOutputGetDirectory(out, &outdir));
  PetscCall(PetscStrncpy(dir, c->dir[0] ? c->dir : outdir, sizeof(dir)));
  PetscCall(PrepareDirectory(c, dir));
  PetscCall(SKOutputFlush(out)); /* results.h5 consistent on disk: a killed campaign can be started again with -restart */
  task = c->task;
  if (task >= 0) { /* one realisation on all ranks, for job arrays; no aggregation (the set-up checked K) */
    PetscCall(RealisationPath(dir, task, path, sizeof(path)));
    if (FileExists(path))
      PetscCall(SKOutputSummary(out, "realisation", "%" PetscInt_FMT " exists already (%s): nothing to do", task, path));
    else {
      PetscCall(RunAndWrite(c, dir, c->comm, task, &written));
      PetscCall(SKOutputSummary(out, "realisation", "%" PetscInt_FMT " written to %s", task, path));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* the missing realisations, as rank 0 sees the directory */
  PetscCall(PetscMalloc1(ntask, &missing));
  if (!rank)
    for (PetscInt k = 0; k < ntask; k++) {
      PetscCall(RealisationPath(dir, k, path, sizeof(path)));
      if (!FileExists(path)) missing[nmissing++] = k;
    }
  PetscCallMPI(MPI_Bcast(&nmissing, 1, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(missing, (PetscMPIInt)nmissing, MPIU_INT, 0, c->comm));
  PetscCall(SKOutputSummary(out, "campaign", "%" PetscInt_FMT " of %" PetscInt_FMT " realisations to run, input digest %s", nmissing, ntask,
                            c->digest));

  if (nmissing) {
    PetscSubcomm psub;
    MPI_Comm gcomm;
    MPI_Win win;
    int *counter, next = 0;
    const int one_int = 1;
    PetscMPIInt grank;

    groups = c->groups > 0 ? c->groups : size;
    PetscCheck(groups >= 1 && groups <= size && size % groups == 0, c->comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-campaign_groups %" PetscInt_FMT " must divide the %d ranks", groups, (int)size);
    PetscCall(PetscSubcommCreate(c->comm, &psub));
    PetscCall(PetscSubcommSetNumber(psub, groups));
    PetscCall(PetscSubcommSetType(psub, PETSC_SUBCOMM_CONTIGUOUS));
    gcomm = PetscSubcommChild(psub);
    PetscCallMPI(MPI_Comm_rank(gcomm, &grank));
    /* dynamic hand-out: an atomic counter on rank 0; each group's first rank takes the next missing realisation */
    PetscCallMPI(MPI_Win_allocate(rank ? 0 : (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, c->comm, &counter, &win));
    if (!rank) *counter = 0;
    PetscCallMPI(MPI_Barrier(c->comm));
    for (;;) {
      if (!grank) {
        PetscCallMPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        PetscCallMPI(MPI_Fetch_and_op(&one_int, &next, MPI_INT, 0, 0, MPI_SUM, win));
        PetscCallMPI(MPI_Win_unlock(0, win));
      }
      PetscCallMPI(MPI_Bcast(&next, 1, MPI_INT, 0, gcomm));
      if (next >= nmissing) break;
      PetscCall(RunAndWrite(c, dir, gcomm, missing[next], &written));
    }
    PetscCallMPI(MPI_Barrier(c->comm));
    PetscCallMPI(MPI_Win_free(&win));
    PetscCall(PetscSubcommDestroy(&psub));
  }
  PetscCall(PetscFree(missing));

  /* aggregate when every realisation is there (a job array may still be running others) */
  nmissing = 0;
  if (!rank)
    for (PetscInt k = 0; k < ntask; k++) {
      PetscCall(RealisationPath(dir, k, path, sizeof(path)));
      nmissing += !FileExists(path);
    }
  PetscCallMPI(MPI_Bcast(&nmissing, 1, MPIU_INT, 0, c->comm));
  if (nmissing)
    PetscCall(SKOutputSummary(out, "campaign", "%" PetscInt_FMT " realisations still missing: statistics not aggregated", nmissing));
  else
    PetscCall(Aggregate(c, dir, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CampaignDestroy(void **ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverCampaign = {
    "campaign",    "campaign.xsd", "Monte-Carlo campaign of a rough plate on a rigid plane over MPI groups",
    CampaignSetup, CampaignRun,    CampaignDestroy};
