/* Checkpoint/restart of the explicit solver: the state in the mesh's natural numbering (so any number of ranks can
   read it), written by rank 0 into a temporary HDF5 file that is then renamed, with an FNV-1a checksum over every
   stored byte so that a damaged newest file is detected and the previous one used, and the digests of the run that
   wrote it (input, options, mesh) so that a restart cannot continue another study. */
#include "explicitimpl.h"
#include "shared/h5.h"
#include <hdf5.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SK_CKPT_PREFIX "checkpoint_"
#define SK_CKPT_MAX 4096

/* Scalars stored with a checkpoint, in this order. */
enum {
  SC_STEP,
  SC_TIME,
  SC_DT,
  SC_EXT_WORK,
  SC_ENERGY0,
  SC_HAVE_ENERGY0,
  SC_FIELD_COUNT,
  SC_NDOF,
  SC_NTERMS,
  SC_ENERGY_SCALE,
  SC_ENERGY_REL_PREV,
  SC_ENERGY_OVER,
  SC_TERM_WORK,
  SC_COUNT = SC_TERM_WORK + SK_EXPLICIT_MAX_TERMS
};

static const char *const state_names[] = {"u", "v", "a", "vh"};
#define SK_CKPT_NSTATE 4

/* Contact pairs' state (format version 2 of the contact part): "contact_meta" = [version, npairs, nranks, width of
   each pair], then per pair "contact_nodal_<i>" (natural nodes x width) and "contact_scalars_<i>" (nranks x
   SK_EXPLICIT_TERM_RESTART_NSCALAR, the per-rank values). Written only with contact; a checkpoint without it is the format
   from before contact was checkpointed. Version 2 added the sticking-time statistics to the nodal part, version 3 the
   energy booking (gaps and normal forces per node, dissipations, surface and discontinuity work per rank), version 4
   per pair "contact_global_<i>" = [n, n values of the state that is the same on every rank (ops->packglobal: the 3D
   mortar distribution's per-face epochs)]; a version 3 file restores none of that (a tolerance's shares start again). */
#define SK_CKPT_CONTACT_VERSION 4
typedef struct {
  PetscInt n; /* pairs stored; -1: no contact data in the file */
  PetscInt nranks, width[SK_EXPLICIT_MAX_TERMS];
  hsize_t nodal_len[SK_EXPLICIT_MAX_TERMS]; /* natural nodes x width */
  PetscReal version;
  PetscReal *nodal[SK_EXPLICIT_MAX_TERMS], *scalars[SK_EXPLICIT_MAX_TERMS];
  PetscReal *global[SK_EXPLICIT_MAX_TERMS]; /* [n, n values] per pair (version 4), or NULL */
} SKCheckpointContact;

static PetscErrorCode CheckpointContactFree(SKCheckpointContact *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->n; i++) {
    PetscCall(PetscFree(c->nodal[i]));
    PetscCall(PetscFree(c->scalars[i]));
    PetscCall(PetscFree(c->global[i]));
  }
  c->n = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The force terms that checkpoint a state (ops->restartsize; the contact pairs), in their order: *N of them in IDX. */
static void RestartTerms(SKExplicit ex, PetscInt *n, PetscInt idx[])
{
  *n = 0;
  for (PetscInt k = 0; k < ex->nterms; k++)
    if (ex->terms[k].ops && ex->terms[k].ops->restartsize) idx[(*n)++] = k;
}

static PetscReal *StateArray(SKExplicit ex, PetscInt k)
{
  PetscReal *arrays[SK_CKPT_NSTATE] = {ex->u, ex->v, ex->a, ex->vh};
  return arrays[k];
}

/* Attributes of a checkpoint file that identify the run (see SKExplicitSetDigests()). */
static const char *const digest_names[] = {"digest_input", "digest_options", "digest_mesh"};
#define SK_CKPT_NDIGEST 3

PetscErrorCode SKExplicitSetDigests(SKExplicit ex, SKMesh replicated)
{
  PetscFunctionBegin;
  PetscCall(SKInputGetDigest(ex->input, &ex->digest_input));
  PetscCall(PetscFree(ex->options_run));
  PetscCall(SKOptionsGetRunDigest(&ex->options_run, &ex->digest_options));
  PetscCall(SKMeshGetDigest(replicated, &ex->digest_mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run identity into an open checkpoint file: the three digests and the canonical options (for the message). */
static PetscErrorCode WriteIdentity(SKExplicit ex, hid_t file)
{
  const unsigned long long digests[SK_CKPT_NDIGEST] = {ex->digest_input, ex->digest_options, ex->digest_mesh};
  hid_t type;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < SK_CKPT_NDIGEST; k++) PetscCall(SKH5WriteAttribute(file, digest_names[k], H5T_NATIVE_ULLONG, &digests[k]));
  /* a fixed-length string, kept in the attribute itself: the end of the file stays the last state array */
  type = H5Tcopy(H5T_C_S1);
  SKCallH5(H5Tset_size(type, strlen(ex->options_run) + 1), "options");
  PetscCall(SKH5WriteAttribute(file, "options", type, ex->options_run));
  SKCallH5(H5Tclose(type), "options");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads the run identity stored in an open checkpoint FILE: digests[k] (0 when absent: a checkpoint from before they
   were stored) and the options string into options[len]. */
static PetscErrorCode ReadIdentityAttributes(hid_t file, unsigned long long digests[], char options[], size_t len)
{
  hid_t attr, type;

  PetscFunctionBegin;
  options[0] = 0;
  for (PetscInt k = 0; k < SK_CKPT_NDIGEST; k++) {
    digests[k] = 0;
    if (H5Aexists(file, digest_names[k]) <= 0 || (attr = H5Aopen(file, digest_names[k], H5P_DEFAULT)) < 0) continue;
    if (H5Aread(attr, H5T_NATIVE_ULLONG, &digests[k]) < 0) digests[k] = 0;
    H5Aclose(attr);
  }
  if (H5Aexists(file, "options") > 0 && (attr = H5Aopen(file, "options", H5P_DEFAULT)) >= 0) {
    type = H5Aget_type(attr);
    if (type >= 0 && H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) == 0 && H5Tget_size(type) <= len) {
      if (H5Aread(attr, type, options) < 0) options[0] = 0;
      options[len - 1] = 0;
    }
    if (type >= 0) H5Tclose(type);
    H5Aclose(attr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The identity enters the checksum after the arrays (when stored), so that a damaged identity is a damaged file. */
static unsigned long long HashIdentity(unsigned long long hash, const unsigned long long digests[], const char options[])
{
  hash = SKHashBytes(hash, digests, SK_CKPT_NDIGEST * sizeof(unsigned long long));
  return SKHashBytes(hash, options, strlen(options));
}

/* Reads the run identity of checkpoint PATH (rank 0): see ReadIdentityAttributes(), and the time step *dt (s; 0 if
   unreadable). */
static PetscErrorCode ReadIdentity(const char path[], unsigned long long digests[], char options[], size_t len, PetscReal *dt)
{
  PetscReal scalars[SC_COUNT];
  hid_t file;
  H5E_auto2_t func;
  void *data;

  PetscFunctionBegin;
  options[0] = 0;
  for (PetscInt k = 0; k < SK_CKPT_NDIGEST; k++) digests[k] = 0;
  *dt = 0;
  H5Eget_auto2(H5E_DEFAULT, &func, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file >= 0) {
    hid_t d = H5Dopen2(file, "scalars", H5P_DEFAULT);
    if (d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, scalars) >= 0) *dt = scalars[SC_DT];
    if (d >= 0) H5Dclose(d);
    PetscCall(ReadIdentityAttributes(file, digests, options, len));
    H5Fclose(file);
  }
  H5Eset_auto2(H5E_DEFAULT, func, data);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Appends "; REASON" (or REASON to an empty buffer) to what[len]. PetscSNPrintf into the rest of the buffer, since
   PETSc 3.18's PetscStrlcat() limits by the length of the appended string rather than of the buffer. */
static PetscErrorCode AppendReason(char what[], size_t len, const char reason[])
{
  const size_t n = strlen(what);

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what + n, len - n, "%s%s", n ? "; " : "", reason));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Refuses checkpoint PATH unless it was written by this run (same input, options that change results, mesh and dt),
   saying what differs and what to pass. Collective. */
static PetscErrorCode CheckIdentity(SKExplicit ex, const char path[])
{
  unsigned long long digests[SK_CKPT_NDIGEST];
  PetscReal dt                                   = 0;
  const unsigned long long mine[SK_CKPT_NDIGEST] = {ex->digest_input, ex->digest_options, ex->digest_mesh};
  char options[4096], what[8600] = "";
  const char *dir;

  PetscFunctionBegin;
  if (ex->rank == 0) PetscCall(ReadIdentity(path, digests, options, sizeof(options), &dt));
  PetscCallMPI(MPI_Bcast(digests, SK_CKPT_NDIGEST, MPI_UNSIGNED_LONG_LONG, 0, ex->comm));
  PetscCallMPI(MPI_Bcast(&dt, 1, MPIU_REAL, 0, ex->comm));
  PetscCallMPI(MPI_Bcast(options, sizeof(options), MPI_CHAR, 0, ex->comm));
  if (!digests[0] && !digests[1] && !digests[2])
    PetscCall(PetscSNPrintf(what, sizeof(what), "it does not record the run that wrote it (an older version of stickslip)"));
  else {
    if (digests[0] != mine[0]) PetscCall(AppendReason(what, sizeof(what), "the input differs"));
    if (digests[1] != mine[1]) {
      char buf[8400];
      PetscCall(PetscSNPrintf(buf, sizeof(buf), "the options that change results differ (checkpoint: '%s', this run: '%s')", options,
                              ex->options_run));
      PetscCall(AppendReason(what, sizeof(what), buf));
    }
    if (digests[2] != mine[2]) PetscCall(AppendReason(what, sizeof(what), "the mesh differs"));
    if (dt != ex->dt) {
      char buf[128];
      PetscCall(PetscSNPrintf(buf, sizeof(buf), "dt differs (checkpoint %g s, this run %g s)", (double)dt, (double)ex->dt));
      PetscCall(AppendReason(what, sizeof(what), buf));
    }
  }
  dir = strrchr(path, '/');
  PetscCheck(!what[0], ex->comm, SK_ERR_INPUT,
             "cannot restart from %s: it was written by another run: %s. To run this input from t = 0 into the same directory pass "
             "-force instead of -restart (the earlier results are removed), or choose another directory with -o",
             dir ? dir + 1 : path, what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes the N reals DATA as dataset NAME of FILE and adds them to the checksum HASH. */
static PetscErrorCode WriteArray(hid_t file, const char name[], PetscInt n, const PetscReal data[], unsigned long long *hash)
{
  PetscFunctionBegin;
  PetscCall(SKH5WriteArray(file, name, H5T_NATIVE_DOUBLE, 1, &n, data));
  *hash = SKHashBytes(*hash, data, (size_t)n * sizeof(PetscReal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checkpoint files in DIR, newest (highest step) first; names[k] allocated. */
static PetscErrorCode ListCheckpoints(const char dir[], PetscInt *n, char ***names)
{
  DIR *d = opendir(dir);
  struct dirent *de;
  PetscInt cap = 16;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscMalloc1(cap, names));
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (strncmp(de->d_name, SK_CKPT_PREFIX, strlen(SK_CKPT_PREFIX)) || len < 4 || strcmp(de->d_name + len - 3, ".h5")) continue;
    if (*n == cap) {
      cap *= 2;
      PetscCall(PetscRealloc(sizeof(char *) * cap, names));
    }
    PetscCall(PetscStrallocpy(de->d_name, &(*names)[(*n)++]));
  }
  closedir(d);
  /* zero-padded step numbers: reverse lexicographic order is newest first */
  for (PetscInt i = 1; i < *n; i++)
    for (PetscInt j = i; j > 0 && strcmp((*names)[j - 1], (*names)[j]) < 0; j--) {
      char *t         = (*names)[j];
      (*names)[j]     = (*names)[j - 1];
      (*names)[j - 1] = t;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeNames(PetscInt n, char ***names)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree((*names)[i]));
  PetscCall(PetscFree(*names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKExplicitWriteCheckpoint(): the file of the state gathered in GLOBAL and CONTACT (NRT pairs), then
   the older checkpoints beyond KEEP removed. */
static PetscErrorCode WriteCheckpointFile(SKExplicit ex, const char dir[], PetscInt keep, PetscInt gsize, PetscReal *const global[],
                                          PetscInt nrt, const SKCheckpointContact *contact)
{
  PetscReal scalars[SC_COUNT];
  char tmp[PETSC_MAX_PATH_LEN], final[PETSC_MAX_PATH_LEN];
  hid_t file;
  unsigned long long hash = SK_FNV_SEED;
  char **names;
  PetscInt n;

  PetscFunctionBegin;
  PetscCheck(mkdir(dir, 0777) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create checkpoint directory %s: %s",
             dir, strerror(errno));
  PetscCall(PetscMemzero(scalars, sizeof(scalars)));
  scalars[SC_STEP]            = (PetscReal)ex->step;
  scalars[SC_TIME]            = ex->t;
  scalars[SC_DT]              = ex->dt;
  scalars[SC_EXT_WORK]        = ex->external_work;
  scalars[SC_ENERGY0]         = ex->energy0;
  scalars[SC_HAVE_ENERGY0]    = ex->have_energy0 ? 1.0 : 0.0;
  scalars[SC_FIELD_COUNT]     = (PetscReal)ex->field_count;
  scalars[SC_NDOF]            = (PetscReal)(gsize * ex->dim);
  scalars[SC_NTERMS]          = (PetscReal)ex->nterms;
  scalars[SC_ENERGY_SCALE]    = ex->energy_scale;
  scalars[SC_ENERGY_REL_PREV] = ex->energy_rel_prev;
  scalars[SC_ENERGY_OVER]     = ex->energy_over ? 1.0 : 0.0;
  for (PetscInt k = 0; k < ex->nterms; k++) scalars[SC_TERM_WORK + k] = ex->terms[k].work;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s/.checkpoint.tmp", dir));
  PetscCall(PetscSNPrintf(final, sizeof(final), "%s/" SK_CKPT_PREFIX "%010" PetscInt_FMT ".h5", dir, ex->step));
  PetscCall(SKH5ImageCreate(tmp, &file));
  PetscCall(WriteArray(file, "scalars", SC_COUNT, scalars, &hash));
  for (PetscInt k = 0; k < SK_CKPT_NSTATE; k++) PetscCall(WriteArray(file, state_names[k], gsize * ex->dim, global[k], &hash));
  if (nrt > 0) {
    PetscReal meta[3 + SK_EXPLICIT_MAX_TERMS];
    meta[0] = SK_CKPT_CONTACT_VERSION;
    meta[1] = (PetscReal)nrt;
    meta[2] = (PetscReal)ex->size;
    for (PetscInt i = 0; i < nrt; i++) meta[3 + i] = (PetscReal)contact->width[i];
    PetscCall(WriteArray(file, "contact_meta", 3 + nrt, meta, &hash));
    for (PetscInt i = 0; i < nrt; i++) {
      char name[64];
      PetscCall(PetscSNPrintf(name, sizeof(name), "contact_nodal_%" PetscInt_FMT, i));
      PetscCall(WriteArray(file, name, gsize * contact->width[i], contact->nodal[i], &hash));
      PetscCall(PetscSNPrintf(name, sizeof(name), "contact_scalars_%" PetscInt_FMT, i));
      PetscCall(WriteArray(file, name, ex->size * SK_EXPLICIT_TERM_RESTART_NSCALAR, contact->scalars[i], &hash));
      PetscCall(PetscSNPrintf(name, sizeof(name), "contact_global_%" PetscInt_FMT, i));
      PetscCall(WriteArray(file, name, 1 + (PetscInt)contact->global[i][0], contact->global[i], &hash));
    }
  }
  PetscCall(WriteIdentity(ex, file));
  {
    const unsigned long long digests[SK_CKPT_NDIGEST] = {ex->digest_input, ex->digest_options, ex->digest_mesh};
    hash                                              = HashIdentity(hash, digests, ex->options_run);
  }
  PetscCall(SKH5WriteAttribute(file, "checksum", H5T_NATIVE_ULLONG, &hash));
  PetscCall(SKH5ImageCommit(&file, tmp, final)); /* a reader sees the old set of files or the new complete one */
  PetscCall(ListCheckpoints(dir, &n, &names));
  for (PetscInt i = keep; i < n; i++) {
    char old[PETSC_MAX_PATH_LEN];
    PetscCall(PetscSNPrintf(old, sizeof(old), "%s/%s", dir, names[i]));
    (void)unlink(old);
  }
  PetscCall(FreeNames(n, &names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitWriteCheckpoint(SKExplicit ex, const char dir[], PetscInt keep)
{
  PetscReal *global[SK_CKPT_NSTATE];
  PetscInt gsize;
  PetscErrorCode ierr = PETSC_SUCCESS;

  SKCheckpointContact contact = {-1, 0, {0}, {0}, 0, {NULL}, {NULL}, {NULL}};
  PetscInt nrt, rt[SK_EXPLICIT_MAX_TERMS];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < SK_CKPT_NSTATE; k++) PetscCall(SKExplicitGatherNatural(ex, StateArray(ex, k), &global[k]));
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  RestartTerms(ex, &nrt, rt);
  for (PetscInt i = 0; i < nrt; i++) {
    const SKExplicitTerm *term = &ex->terms[rt[i]];
    PetscReal *nodal, scal[SK_EXPLICIT_TERM_RESTART_NSCALAR], *all = NULL;
    PetscCall(term->ops->restartsize(term->ctx, &contact.width[i]));
    PetscCall(PetscMalloc1(ex->nowned * contact.width[i], &nodal));
    PetscCall(term->ops->packrestart(term->ctx, ex->nowned, nodal, scal));
    PetscCall(SKExplicitGatherNaturalBlock(ex, nodal, contact.width[i], &contact.nodal[i]));
    PetscCall(PetscFree(nodal));
    if (ex->rank == 0) PetscCall(PetscMalloc1(ex->size * SK_EXPLICIT_TERM_RESTART_NSCALAR, &all));
    PetscCallMPI(
        MPI_Gather(scal, SK_EXPLICIT_TERM_RESTART_NSCALAR, MPIU_REAL, all, SK_EXPLICIT_TERM_RESTART_NSCALAR, MPIU_REAL, 0, ex->comm));
    contact.scalars[i] = all;
    if (ex->rank == 0) { /* the same on every rank: rank 0's */
      PetscInt n = 0;
      if (term->ops->globalsize) PetscCall(term->ops->globalsize(term->ctx, &n));
      PetscCall(PetscMalloc1(n + 1, &contact.global[i]));
      contact.global[i][0] = (PetscReal)n;
      if (n) PetscCall(term->ops->packglobal(term->ctx, contact.global[i] + 1));
    }
  }
  /* a file that cannot be written (a full disk) is an error of every rank: the others would wait for rank 0 forever */
  if (ex->rank == 0) ierr = WriteCheckpointFile(ex, dir, keep, gsize, global, nrt, &contact);
  for (PetscInt k = 0; k < SK_CKPT_NSTATE; k++) PetscCall(PetscFree(global[k]));
  for (PetscInt i = 0; i < nrt; i++) {
    PetscCall(PetscFree(contact.nodal[i]));
    PetscCall(PetscFree(contact.scalars[i]));
    PetscCall(PetscFree(contact.global[i]));
  }
  PetscCall(SKCheckCollective(ex->comm, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads dataset NAME of N values (allocated into *data) and hashes it; *ok = false when absent, of another size or
   unreadable. */
static PetscErrorCode ReadArray(hid_t file, const char name[], hsize_t n, PetscReal **data, unsigned long long *hash, PetscBool *ok)
{
  hid_t d   = H5Dopen2(file, name, H5P_DEFAULT), s;
  hsize_t m = 0;

  PetscFunctionBegin;
  *data = NULL;
  *ok   = (PetscBool)(d >= 0);
  if (*ok) {
    s   = H5Dget_space(d);
    *ok = (PetscBool)(s >= 0 && H5Sget_simple_extent_ndims(s) == 1 && H5Sget_simple_extent_dims(s, &m, NULL) == 1 && m == n);
    if (s >= 0) H5Sclose(s);
  }
  if (*ok) {
    PetscCall(PetscMalloc1(n, data));
    *ok = (PetscBool)(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) >= 0);
    if (*ok)
      *hash = SKHashBytes(*hash, *data, n * sizeof(PetscReal));
    else
      PetscCall(PetscFree(*data));
  }
  if (d >= 0) H5Dclose(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Length of 1-D dataset NAME, 0 when absent. */
static hsize_t ArrayLength(hid_t file, const char name[])
{
  hsize_t m = 0;
  hid_t d, s;

  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return 0;
  d = H5Dopen2(file, name, H5P_DEFAULT);
  if (d < 0) return 0;
  s = H5Dget_space(d);
  if (s < 0 || H5Sget_simple_extent_ndims(s) != 1 || H5Sget_simple_extent_dims(s, &m, NULL) != 1) m = 0;
  if (s >= 0) H5Sclose(s);
  H5Dclose(d);
  return m;
}

/* The contact part of a checkpoint (after the state arrays, in the hash order of the writer) into *c (c->n = -1
   when the file has none); arrays allocated only when c is kept by the caller. */
static PetscErrorCode ReadContact(hid_t file, SKCheckpointContact *c, unsigned long long *hash, PetscBool *ok)
{
  hsize_t nmeta = ArrayLength(file, "contact_meta");
  PetscReal *meta;

  PetscFunctionBegin;
  c->n = -1;
  if (!nmeta) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ReadArray(file, "contact_meta", nmeta, &meta, hash, ok));
  if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  *ok = (PetscBool)(nmeta >= 3 && meta[1] >= 0 && meta[1] <= SK_EXPLICIT_MAX_TERMS && nmeta == (hsize_t)(3 + (PetscInt)meta[1]) &&
                    meta[2] >= 1);
  if (*ok) {
    c->version = meta[0];
    c->nranks  = (PetscInt)meta[2];
    c->n       = 0;
    for (PetscInt i = 0; *ok && i < (PetscInt)meta[1]; i++) {
      char name[64];
      c->width[i] = (PetscInt)meta[3 + i];
      PetscCall(PetscSNPrintf(name, sizeof(name), "contact_nodal_%" PetscInt_FMT, i));
      c->nodal_len[i] = ArrayLength(file, name);
      *ok             = (PetscBool)(c->width[i] > 0 && c->nodal_len[i] % (hsize_t)c->width[i] == 0);
      if (!*ok) break;
      PetscCall(ReadArray(file, name, c->nodal_len[i], &c->nodal[i], hash, ok));
      if (!*ok) break;
      PetscCall(PetscSNPrintf(name, sizeof(name), "contact_scalars_%" PetscInt_FMT, i));
      PetscCall(ReadArray(file, name, (hsize_t)(c->nranks * SK_EXPLICIT_TERM_RESTART_NSCALAR), &c->scalars[i], hash, ok));
      if (*ok && c->version >= 4) {
        hsize_t len;
        PetscCall(PetscSNPrintf(name, sizeof(name), "contact_global_%" PetscInt_FMT, i));
        len = ArrayLength(file, name);
        PetscCall(ReadArray(file, name, len, &c->global[i], hash, ok));
        *ok = (PetscBool)(*ok && len >= 1 && (hsize_t)c->global[i][0] + 1 == len);
        if (!*ok) PetscCall(PetscFree(c->scalars[i]));
      }
      if (!*ok) {
        PetscCall(PetscFree(c->nodal[i]));
        PetscCall(PetscFree(c->global[i]));
        break;
      }
      c->n++;
    }
  }
  PetscCall(PetscFree(meta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads checkpoint PATH on this process: scalars[SC_COUNT] and, when state != NULL, the SK_CKPT_NSTATE arrays of
   ndof values each (allocated) and the contact part into *contact. *valid = false for an unreadable file or a
   checksum mismatch (state and contact freed). */
static PetscErrorCode ReadCheckpoint(const char path[], PetscReal scalars[], PetscReal *state[], SKCheckpointContact *contact,
                                     PetscBool *valid)
{
  SKCheckpointContact c = {-1, 0, {0}, {0}, 0, {NULL}, {NULL}, {NULL}};
  hid_t file, attr;
  unsigned long long stored = 0, hash = SK_FNV_SEED;
  H5E_auto2_t func;
  void *data;
  PetscBool ok                      = PETSC_TRUE;
  PetscInt ndof                     = 0;
  PetscReal *arrays[SK_CKPT_NSTATE] = {NULL, NULL, NULL, NULL};

  PetscFunctionBegin;
  *valid = PETSC_FALSE;
  H5Eget_auto2(H5E_DEFAULT, &func, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* a damaged file is expected here: no HDF5 error stack on stderr */
  file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) ok = PETSC_FALSE;
  if (ok) {
    hid_t d = H5Dopen2(file, "scalars", H5P_DEFAULT);
    ok      = (PetscBool)(d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, scalars) >= 0);
    if (d >= 0) H5Dclose(d);
    if (ok) hash = SKHashBytes(hash, scalars, SC_COUNT * sizeof(PetscReal));
    ndof = ok ? (PetscInt)scalars[SC_NDOF] : 0;
  }
  for (PetscInt k = 0; ok && k < SK_CKPT_NSTATE; k++) {
    hid_t d   = H5Dopen2(file, state_names[k], H5P_DEFAULT), s;
    hsize_t n = 0;
    ok        = (PetscBool)(d >= 0);
    if (ok) {
      s  = H5Dget_space(d);
      ok = (PetscBool)(s >= 0 && H5Sget_simple_extent_dims(s, &n, NULL) == 1 && n == (hsize_t)ndof);
      if (s >= 0) H5Sclose(s);
    }
    if (ok) {
      PetscCall(PetscMalloc1(ndof, &arrays[k]));
      ok = (PetscBool)(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, arrays[k]) >= 0);
      if (ok) hash = SKHashBytes(hash, arrays[k], ndof * sizeof(PetscReal));
    }
    if (d >= 0) H5Dclose(d);
  }
  if (ok) PetscCall(ReadContact(file, &c, &hash, &ok));
  if (ok) {
    unsigned long long digests[SK_CKPT_NDIGEST];
    char options[4096];
    PetscCall(ReadIdentityAttributes(file, digests, options, sizeof(options)));
    if (digests[0] || digests[1] || digests[2]) hash = HashIdentity(hash, digests, options);
  }
  if (ok) {
    attr = H5Aopen(file, "checksum", H5P_DEFAULT);
    ok   = (PetscBool)(attr >= 0 && H5Aread(attr, H5T_NATIVE_ULLONG, &stored) >= 0 && stored == hash);
    if (attr >= 0) H5Aclose(attr);
  }
  if (file >= 0) H5Fclose(file);
  H5Eset_auto2(H5E_DEFAULT, func, data);
  for (PetscInt k = 0; k < SK_CKPT_NSTATE; k++) {
    if (ok && state)
      state[k] = arrays[k];
    else
      PetscCall(PetscFree(arrays[k]));
  }
  if (ok && state && contact)
    *contact = c;
  else
    PetscCall(CheckpointContactFree(&c));
  *valid = ok;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitFindCheckpoint(MPI_Comm comm, const char dir[], char path[], size_t len)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  path[0] = 0;
  if (rank == 0) {
    char **names;
    PetscInt n;
    PetscCall(ListCheckpoints(dir, &n, &names));
    for (PetscInt i = 0; i < n; i++) {
      PetscReal scalars[SC_COUNT];
      PetscBool valid;
      char p[PETSC_MAX_PATH_LEN];
      PetscCall(PetscSNPrintf(p, sizeof(p), "%s/%s", dir, names[i]));
      PetscCall(ReadCheckpoint(p, scalars, NULL, NULL, &valid));
      if (valid) {
        PetscCall(PetscStrncpy(path, p, len));
        break;
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "checkpoint %s is damaged (unreadable or checksum mismatch); trying an older one\n", p));
    }
    PetscCall(FreeNames(n, &names));
  }
  PetscCallMPI(MPI_Bcast(path, (PetscMPIInt)len, MPI_CHAR, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restores the contact pairs from C (read on rank 0): refuses a checkpoint without contact data (the format from
   before contact state was checkpointed) or with other pairs, then scatters each pair's nodal and per-rank values.
   With another number of ranks the dissipation, accumulated per rank, goes to rank 0 as the sum. Frees C. */
static PetscErrorCode LoadContact(SKExplicit ex, const char path[], PetscInt gsize, SKCheckpointContact *c)
{
  PetscReal info[3 + 2 * SK_EXPLICIT_MAX_TERMS];
  PetscInt nranks;

  PetscInt nrt, rt[SK_EXPLICIT_MAX_TERMS];

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(info, 3 + 2 * SK_EXPLICIT_MAX_TERMS));
  if (ex->rank == 0) {
    info[0]                             = (PetscReal)c->n;
    info[1]                             = (PetscReal)c->nranks;
    info[2 + 2 * SK_EXPLICIT_MAX_TERMS] = c->version;
    for (PetscInt i = 0; i < c->n; i++) info[2 + 2 * i] = (PetscReal)c->width[i], info[3 + 2 * i] = (PetscReal)c->nodal_len[i];
  }
  PetscCallMPI(MPI_Bcast(info, 3 + 2 * SK_EXPLICIT_MAX_TERMS, MPIU_REAL, 0, ex->comm));
  RestartTerms(ex, &nrt, rt);
  if (nrt == 0 && info[0] <= 0) {
    if (ex->rank == 0) PetscCall(CheckpointContactFree(c));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(info[0] >= 0, ex->comm, PETSC_ERR_ARG_INCOMP,
             "Checkpoint %s has no contact state (written before contact was checkpointed, or by a run without <contact>); "
             "this run has %" PetscInt_FMT " contact pair(s) and cannot restart from it",
             path, nrt);
  PetscCheck((PetscInt)info[0] == nrt, ex->comm, PETSC_ERR_ARG_INCOMP,
             "Checkpoint %s holds %g contact pair(s); this run has %" PetscInt_FMT, path, (double)info[0], nrt);
  PetscCheck(info[2 + 2 * SK_EXPLICIT_MAX_TERMS] == SK_CKPT_CONTACT_VERSION || info[2 + 2 * SK_EXPLICIT_MAX_TERMS] == 3, ex->comm,
             PETSC_ERR_ARG_INCOMP, "Checkpoint %s: contact state format version %g, this program reads versions 3 and %d", path,
             (double)info[2 + 2 * SK_EXPLICIT_MAX_TERMS], SK_CKPT_CONTACT_VERSION);
  nranks = (PetscInt)info[1];
  for (PetscInt i = 0; i < nrt; i++) {
    const SKExplicitTerm *term = &ex->terms[rt[i]];
    PetscInt width;
    PetscReal *nodal, *local, scal[SK_EXPLICIT_TERM_RESTART_NSCALAR];

    PetscCall(term->ops->restartsize(term->ctx, &width));
    PetscCheck((PetscInt)info[2 + 2 * i] == width && (PetscInt)info[3 + 2 * i] == gsize * width, ex->comm, PETSC_ERR_ARG_INCOMP,
               "Checkpoint %s: contact pair %s has %g values per node for %g values, this run %" PetscInt_FMT " for %" PetscInt_FMT
               " nodes (another friction law or mesh?)",
               path, term->name, (double)info[2 + 2 * i], (double)info[3 + 2 * i], width, gsize);
    nodal = ex->rank == 0 ? c->nodal[i] : NULL;
    if (ex->rank) PetscCall(PetscMalloc1(gsize * width, &nodal));
    PetscCallMPI(MPI_Bcast(nodal, (PetscMPIInt)(gsize * width), MPIU_REAL, 0, ex->comm));
    PetscCall(PetscMalloc1(ex->nowned * width, &local));
    for (PetscInt a = 0; a < ex->nowned; a++)
      for (PetscInt k = 0; k < width; k++) local[a * width + k] = nodal[ex->natural_nodes[a] * width + k];
    if (ex->rank) PetscCall(PetscFree(nodal));
    if (ex->rank == 0) {
      if (nranks == ex->size) {
        PetscCallMPI(MPI_Scatter(c->scalars[i], SK_EXPLICIT_TERM_RESTART_NSCALAR, MPIU_REAL, scal, SK_EXPLICIT_TERM_RESTART_NSCALAR,
                                 MPIU_REAL, 0, ex->comm));
      } else {
        PetscCall(PetscArraycpy(scal, c->scalars[i], SK_EXPLICIT_TERM_RESTART_NSCALAR));
        for (PetscInt r = 1; r < nranks; r++)
          for (PetscInt k = 3; k < SK_EXPLICIT_TERM_RESTART_NSCALAR; k++)
            scal[k] += c->scalars[i][r * SK_EXPLICIT_TERM_RESTART_NSCALAR + k];
      }
    } else if (nranks == ex->size) {
      PetscCallMPI(
          MPI_Scatter(NULL, SK_EXPLICIT_TERM_RESTART_NSCALAR, MPIU_REAL, scal, SK_EXPLICIT_TERM_RESTART_NSCALAR, MPIU_REAL, 0, ex->comm));
    }
    if (nranks != ex->size) {
      PetscReal times[3];
      if (ex->rank == 0) PetscCall(PetscArraycpy(times, scal, 3));
      PetscCallMPI(MPI_Bcast(times, 3, MPIU_REAL, 0, ex->comm));
      if (ex->rank) {
        PetscCall(PetscArraycpy(scal, times, 3));
        for (PetscInt k = 3; k < SK_EXPLICIT_TERM_RESTART_NSCALAR; k++) scal[k] = 0; /* the sums are all on rank 0 */
      }
    }
    PetscCall(term->ops->unpackrestart(term->ctx, ex->nowned, local, scal));
    PetscCall(PetscFree(local));
    { /* the state that is the same on every rank, from rank 0 (none in a version 3 file) */
      PetscInt n = ex->rank == 0 && c->global[i] ? (PetscInt)c->global[i][0] : 0;
      PetscReal *buf;
      PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, ex->comm));
      if (n) {
        PetscCall(PetscMalloc1(n, &buf));
        if (ex->rank == 0) PetscCall(PetscArraycpy(buf, c->global[i] + 1, n));
        PetscCallMPI(MPI_Bcast(buf, (PetscMPIInt)n, MPIU_REAL, 0, ex->comm));
        PetscCheck(term->ops->unpackglobal, ex->comm, PETSC_ERR_ARG_INCOMP,
                   "Checkpoint %s: contact pair %s has %" PetscInt_FMT " values of replicated state, this run keeps none", path, term->name,
                   n);
        PetscCall(term->ops->unpackglobal(term->ctx, n, buf));
        PetscCall(PetscFree(buf));
      }
    }
  }
  if (ex->rank == 0) PetscCall(CheckpointContactFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKExplicitLoadCheckpoint(SKExplicit ex, const char path[])
{
  PetscReal scalars[SC_COUNT], *state[SK_CKPT_NSTATE] = {NULL, NULL, NULL, NULL};
  PetscBool valid = PETSC_FALSE;
  PetscInt gsize, ndof;
  SKCheckpointContact contact = {-1, 0, {0}, {0}, 0, {NULL}, {NULL}, {NULL}};

  PetscFunctionBegin;
  PetscCall(SKMeshGetNodeOwnership(ex->mesh, NULL, NULL, &gsize));
  ndof = gsize * ex->dim;
  PetscCall(CheckIdentity(ex, path));
  if (ex->rank == 0) PetscCall(ReadCheckpoint(path, scalars, state, &contact, &valid));
  PetscCallMPI(MPI_Bcast(&valid, 1, MPIU_BOOL, 0, ex->comm));
  PetscCheck(valid, ex->comm, PETSC_ERR_FILE_READ, "Checkpoint %s is damaged (unreadable or checksum mismatch)", path);
  PetscCallMPI(MPI_Bcast(scalars, SC_COUNT, MPIU_REAL, 0, ex->comm));
  PetscCheck((PetscInt)scalars[SC_NDOF] == ndof && (PetscInt)scalars[SC_NTERMS] == ex->nterms, ex->comm, PETSC_ERR_ARG_INCOMP,
             "Checkpoint %s does not belong to this input: %g dofs, %g force terms; the run has %" PetscInt_FMT " dofs, %" PetscInt_FMT
             " terms",
             path, (double)scalars[SC_NDOF], (double)scalars[SC_NTERMS], ndof, ex->nterms);
  for (PetscInt k = 0; k < SK_CKPT_NSTATE; k++) {
    PetscReal *local = StateArray(ex, k);
    if (ex->rank) PetscCall(PetscMalloc1(ndof, &state[k]));
    PetscCallMPI(MPI_Bcast(state[k], (PetscMPIInt)ndof, MPIU_REAL, 0, ex->comm));
    for (PetscInt i = 0; i < ex->nlocal; i++)
      for (PetscInt d = 0; d < ex->dim; d++) local[i * ex->dim + d] = state[k][ex->natural_nodes[i] * ex->dim + d];
    PetscCall(PetscFree(state[k]));
  }
  PetscCall(LoadContact(ex, path, gsize, &contact));
  ex->step            = (PetscInt)scalars[SC_STEP];
  ex->t               = scalars[SC_TIME];
  ex->external_work   = scalars[SC_EXT_WORK];
  ex->energy0         = scalars[SC_ENERGY0];
  ex->have_energy0    = scalars[SC_HAVE_ENERGY0] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  ex->energy_scale    = scalars[SC_ENERGY_SCALE];
  ex->energy_rel_prev = scalars[SC_ENERGY_REL_PREV];
  ex->energy_over     = scalars[SC_ENERGY_OVER] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  ex->field_count     = (PetscInt)scalars[SC_FIELD_COUNT];
  for (PetscInt k = 0; k < ex->nterms; k++) ex->terms[k].work = scalars[SC_TERM_WORK + k];
  PetscCall(SKExplicitRestoreForces(ex));
  PetscFunctionReturn(PETSC_SUCCESS);
}
