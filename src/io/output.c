/* stickslip io: the output directory and results.h5 (serial HDF5 from rank 0; layout in docs/output.md). */
#include <stickslip/output.h>
#include "io/ioimpl.h"
#include "shared/h5.h"
#include <hdf5.h>
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define SK_MAX_HISTORIES 256

struct _p_SKHistory {
  SKOutput out;
  hid_t dset;
  PetscInt ncols, rows;
  PetscInt interval; /* flush after this many appends */
  PetscInt nbuf;     /* rows buffered, not yet written */
  PetscReal *buf;    /* interval x ncols */
};

struct _p_SKOutput {
  MPI_Comm comm;
  PetscMPIInt rank, size;
  char *dir;
  hid_t file;          /* valid on rank 0 only */
  PetscBool append;    /* opened on existing results (restart) */
  PetscReal t_restart; /* appended histories keep the rows with time <= t_restart */
  PetscReal t_reached; /* largest time (first column) appended to any history */
  PetscInt nhist;
  SKHistory hist[SK_MAX_HISTORIES];
  PetscErrorCode failed; /* rank 0: the first write that failed (0 while none); later writes are skipped */
  char failure[1024];    /* its message (PETSc keeps 1023 characters of one) */
};

static PetscErrorCode SKOutputFlushFile(SKOutput out);

/* Rank 0's writes of results.h5 during a run: IERR is what one of them returned. The first failure is kept. A serial
   output raises it at once; in parallel the other ranks are elsewhere (in a step's exchanges, or waiting for rank 0 at
   the next collective call), so rank 0 goes on with them, writing nothing more, and SKOutputCheck() raises the failure
   on every rank together. SKOutputWrites() cleared errno before the write, so a value now is the system's reason (a
   full disk, a quota). */
static void SKOutputRecord(SKOutput out, PetscErrorCode ierr)
{
  const char *text;
  char *specific;
  const int err = errno;

  if (!ierr || out->failed) return;
  out->failed = ierr;
  (void)PetscErrorMessage(ierr, &text, &specific);
  (void)PetscSNPrintf(out->failure, sizeof(out->failure), "writing %s/results.h5 failed: %s%s%s", out->dir,
                      specific && specific[0] ? specific
                      : text                  ? text
                                              : "error without a message",
                      err ? ": " : "", err ? strerror(err) : "");
}

/* Raises the kept failure, if any (on the rank that kept it). */
static PetscErrorCode SKOutputRaise(SKOutput out)
{
  PetscFunctionBegin;
  PetscCheck(!out->failed, PETSC_COMM_SELF, out->failed, "%s", out->failure);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKOutputKeep(SKOutput out, PetscErrorCode ierr)
{
  PetscFunctionBegin;
  SKOutputRecord(out, ierr);
  if (out->size == 1) PetscCall(SKOutputRaise(out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether this rank writes results.h5 now: rank 0, while no write has failed (errno cleared for SKOutputKeep()). */
static PetscBool SKOutputWrites(SKOutput out)
{
  if (out->rank || out->failed) return PETSC_FALSE;
  errno = 0;
  return PETSC_TRUE;
}

/* mkdir -p: creates DIR and its missing parents. A directory that cannot be made is not an error here but a reason in
   WHY (empty when all went well): the caller is rank 0 alone, and the ranks learn of it together (SKOutputCreate()). */
static PetscErrorCode SKMakeDirectories(const char dir[], char why[], size_t len)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  why[0] = 0;
  PetscCall(PetscStrncpy(path, dir, sizeof(path)));
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      PetscCall(PetscSNPrintf(why, len, "cannot create directory %s: %s", path, strerror(errno)));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    *p = '/';
  }
  if (mkdir(path, 0777) != 0 && errno != EEXIST)
    PetscCall(PetscSNPrintf(why, len, "cannot create output directory %s: %s", path, strerror(errno)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Opens the group or dataset OBJECT, creating it (with parents) as a group if missing. */
/* Creates (CREATE) or opens read-write results.h5 at PATH. Closing it closes every object still open in it (an error
   path may leave one): the file is closed there and then, not by HDF5 inside MPI_Finalize(). */
static hid_t SKResultsFileOpen(const char path[], PetscBool create)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file;

  if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
    if (fapl >= 0) H5Pclose(fapl);
    return H5I_INVALID_HID;
  }
  file = create ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen(path, H5F_ACC_RDWR, fapl);
  H5Pclose(fapl);
  return file;
}

static hid_t SKOpenObject(hid_t file, const char object[])
{
  hid_t lcpl, g;

  if (!strcmp(object, "/")) return H5Oopen(file, "/", H5P_DEFAULT);
  if (H5Lexists(file, object, H5P_DEFAULT) > 0) return H5Oopen(file, object, H5P_DEFAULT);
  lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  g = H5Gcreate2(file, object, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  return g;
}

static hid_t SKStringType(void)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

/* Writes a string attribute NAME = VALUE on an open object (replacing an existing one). */
static PetscErrorCode SKWriteStringAttribute(hid_t obj, const char name[], const char value[])
{
  hid_t type = SKStringType(), space = H5Screate(H5S_SCALAR), attr;

  PetscFunctionBegin;
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(attr, "H5Acreate2");
  SKCallH5(H5Awrite(attr, type, &value), "H5Awrite");
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes an array of N strings as attribute NAME on an open object. */
static PetscErrorCode SKWriteStringListAttribute(hid_t obj, const char name[], PetscInt n, const char *const values[])
{
  hsize_t dim = (hsize_t)n;
  hid_t type = SKStringType(), space = H5Screate_simple(1, &dim, NULL), attr;

  PetscFunctionBegin;
  attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(attr, "H5Acreate2");
  SKCallH5(H5Awrite(attr, type, values), "H5Awrite");
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKWriteStringDataset(hid_t file, const char path[], const char value[])
{
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), type = SKStringType(), space = H5Screate(H5S_SCALAR), dset;

  PetscFunctionBegin;
  H5Pset_create_intermediate_group(lcpl, 1);
  dset = H5Dcreate2(file, path, type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(dset, "H5Dcreate2");
  SKCallH5(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), "H5Dwrite");
  H5Dclose(dset);
  H5Sclose(space);
  H5Tclose(type);
  H5Pclose(lcpl);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /meta/options: the options database of this invocation (command line and <options>, -restart included). */
static PetscErrorCode SKWriteOptions(hid_t file)
{
  char *options = NULL;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetAll(NULL, &options));
  PetscCall(SKWriteStringDataset(file, "/meta/options", options ? options : ""));
  PetscCall(PetscFree(options));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads string attribute NAME of OBJECT into value[len] (empty when absent or unreadable). */
static void SKReadStringAttribute(hid_t file, const char object[], const char name[], char value[], size_t len)
{
  hid_t obj, attr, type;
  char *s = NULL;

  value[0] = 0;
  if (H5Lexists(file, object, H5P_DEFAULT) <= 0 && strcmp(object, "/")) return;
  obj = H5Oopen(file, object, H5P_DEFAULT);
  if (obj < 0) return;
  if (H5Aexists(obj, name) > 0 && (attr = H5Aopen(obj, name, H5P_DEFAULT)) >= 0) {
    type = SKStringType();
    if (H5Aread(attr, type, &s) >= 0 && s) {
      (void)PetscStrncpy(value, s, len);
      H5free_memory(s);
    }
    H5Tclose(type);
    H5Aclose(attr);
  }
  H5Oclose(obj);
}

static PetscErrorCode SKOutputWriteMetadata(SKOutput out, SKInput input)
{
  hid_t meta;
  char date[64], host[256];
  time_t now = time(NULL);
  struct tm tm;
  PetscMPIInt size;
  char petsc_version[128];

  PetscFunctionBegin;
  meta = SKOpenObject(out->file, "/meta");
  SKCallH5(meta, "creating /meta");
  gmtime_r(&now, &tm);
  strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (gethostname(host, sizeof(host)) != 0) PetscCall(PetscStrncpy(host, "unknown", sizeof(host)));
  host[sizeof(host) - 1] = 0;
  PetscCall(PetscGetVersion(petsc_version, sizeof(petsc_version)));
  PetscCallMPI(MPI_Comm_size(out->comm, &size));
  PetscCall(SKWriteStringAttribute(meta, "version", SK_VERSION_STRING));
  PetscCall(SKWriteStringAttribute(meta, "date", date));
  PetscCall(SKWriteStringAttribute(meta, "host", host));
  PetscCall(SKWriteStringAttribute(meta, "petsc_version", petsc_version));
  {
    hid_t space = H5Screate(H5S_SCALAR), attr = H5Acreate2(meta, "mpi_ranks", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    int n = size;
    SKCallH5(H5Awrite(attr, H5T_NATIVE_INT, &n), "H5Awrite");
    H5Aclose(attr);
    H5Sclose(space);
  }
  PetscCall(SKWriteOptions(out->file));
  if (input) {
    const char *name, *text;
    PetscCall(SKInputGetFileName(input, &name));
    PetscCall(SKInputGetText(input, &text, NULL));
    PetscCall(SKWriteStringAttribute(meta, "input_file", name));
    PetscCall(SKWriteStringDataset(out->file, "/meta/input", text));
  }
  H5Oclose(meta);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why an existing results.h5 at PATH blocks a new run, and what to pass: into msg[len], after the directory name. */
static PetscErrorCode SKOutputDescribeExisting(const char path[], char msg[], size_t len)
{
  hid_t file      = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  char status[32] = "", message[256] = "";

  PetscFunctionBegin;
  if (file >= 0) {
    SKReadStringAttribute(file, "/meta", "status", status, sizeof(status));
    SKReadStringAttribute(file, "/meta", "status_message", message, sizeof(message));
    H5Fclose(file);
  }
  if (file < 0)
    PetscCall(PetscSNPrintf(msg, len,
                            "holds a results.h5 that cannot be read (a run killed while creating it?); use -force to start afresh "
                            "(it removes the files of the earlier run), or choose another directory with -o"));
  else if (!strcmp(status, "completed") || !status[0])
    PetscCall(
        PetscSNPrintf(msg, len, "already holds results (results.h5); use -force to overwrite them, or choose another directory with -o"));
  else
    PetscCall(PetscSNPrintf(msg, len,
                            "holds the results of a run that did not complete (status '%s'%s%s); use -force to start afresh, -restart "
                            "to resume it from its newest checkpoint (solvers with checkpoints), or choose another directory with -o",
                            status, message[0] ? ": " : (strcmp(status, "running") ? "" : ": killed, or still running"), message));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether NAME is a file or directory that a run writes into its output directory: results.h5, checkpoints/, a .pvd
   collection and its temporary file, and the collections' step files STEM_NNNNNN.vtu and STEM_NNNNNN_pNNNN.vtu. */
static PetscBool SKOutputIsOwnFile(const char name[])
{
  size_t n = strlen(name), i = 0, d;

  if (!strcmp(name, "results.h5") || !strcmp(name, "checkpoints")) return PETSC_TRUE;
  while (i < n && (isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-')) i++;
  if (i == 0) return PETSC_FALSE;
  if (!strcmp(name + i, ".pvd") || !strcmp(name + i, ".pvd.tmp")) return PETSC_TRUE;
  /* step files: the stem ends in _NNNNNN or _NNNNNN_pNNNN, then .vtu */
  if (strcmp(name + i, ".vtu")) return PETSC_FALSE;
  for (d = 0; d < 4 && i > d && isdigit((unsigned char)name[i - 1 - d]); d++) {}
  if (d == 4 && i >= 6 && name[i - 5] == 'p' && name[i - 6] == '_') i -= 6;
  for (d = 0; d < 6 && i > d && isdigit((unsigned char)name[i - 1 - d]); d++) {}
  return (PetscBool)(d == 6 && i >= 8 && name[i - 7] == '_');
}

/* Removes what an earlier run wrote into DIR (the names of SKOutputIsOwnFile(); in checkpoints/ only checkpoint
   files), so that nothing of it is read later: a -restart must not find the checkpoints of another study, ParaView must
   not list its step files. Nothing else in DIR is touched. */
static PetscErrorCode SKOutputRemovePrevious(const char dir[], char why[], size_t len)
{
  DIR *d = opendir(dir);
  struct dirent *de;
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  why[0] = 0;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  while (!why[0] && (de = readdir(d))) {
    if (!SKOutputIsOwnFile(de->d_name)) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, de->d_name));
    if (!strcmp(de->d_name, "checkpoints")) {
      DIR *c = opendir(path);
      struct dirent *ce;
      char file[PETSC_MAX_PATH_LEN];

      if (!c) continue;
      while (!why[0] && (ce = readdir(c))) {
        if (strncmp(ce->d_name, "checkpoint_", 11) && strcmp(ce->d_name, ".checkpoint.tmp")) continue;
        PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s", path, ce->d_name));
        if (unlink(file) != 0) PetscCall(PetscSNPrintf(why, len, "cannot remove %s of the earlier run: %s", file, strerror(errno)));
      }
      closedir(c);
      (void)rmdir(path); /* kept if it holds files of the user */
    } else if (strcmp(de->d_name, "results.h5") && unlink(path) != 0)
      PetscCall(PetscSNPrintf(why, len, "cannot remove %s of the earlier run: %s", path, strerror(errno)));
  }
  closedir(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKOutputSetStatus(). */
static PetscErrorCode SKOutputWriteStatus(SKOutput out, SKOutputStatus status, const char message[])
{
  static const char *const names[] = {"running", "completed", "failed"};
  hid_t meta;
  char date[64];
  time_t now = time(NULL);
  struct tm tm;

  PetscFunctionBegin;
  meta = SKOpenObject(out->file, "/meta");
  SKCallH5(meta, "opening /meta");
  gmtime_r(&now, &tm);
  strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
  PetscCall(SKWriteStringAttribute(meta, "status", names[status]));
  PetscCall(SKWriteStringAttribute(meta, "status_message", message ? message : ""));
  PetscCall(SKWriteStringAttribute(meta, "status_date", date));
  PetscCall(SKH5WriteAttribute(meta, "status_time", H5T_NATIVE_DOUBLE, &out->t_reached));
  H5Oclose(meta);
  PetscCall(SKOutputFlushFile(out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputSetStatus(SKOutput out, SKOutputStatus status, const char message[])
{
  PetscFunctionBegin;
  if (out->rank) PetscFunctionReturn(PETSC_SUCCESS);
  /* a failed run's status is written even after a failed write (the failure may have been another object's) */
  if (status == SK_OUTPUT_FAILED) {
    errno = 0;
    PetscCall(SKOutputWriteStatus(out, status, message));
  } else if (SKOutputWrites(out))
    PetscCall(SKOutputKeep(out, SKOutputWriteStatus(out, status, message)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKOutputCreate(): makes or clears the directory and creates results.h5 with /meta and the status
   "running", or raises the refusal (PETSC_COMM_SELF: SKOutputCreate() raises it on every rank). */
static PetscErrorCode SKOutputCreateFile(SKOutput o, PetscBool force, SKInput input)
{
  char path[PETSC_MAX_PATH_LEN], refusal[PETSC_MAX_PATH_LEN + 256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/results.h5", o->dir));
  PetscCall(SKMakeDirectories(o->dir, refusal, sizeof(refusal)));
  /* Keep HDF5's own error stack quiet: failures are reported through PETSc. */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  /* an output path that cannot be written is a refused output directory, like an existing one (exit status 1) */
  PetscCheck(!refusal[0], PETSC_COMM_SELF, SK_ERR_INPUT, "%s", refusal);
  if (access(path, F_OK) == 0 && !force) {
    PetscCall(SKOutputDescribeExisting(path, refusal, sizeof(refusal)));
    SETERRQ(PETSC_COMM_SELF, SK_ERR_INPUT, "%s %s", o->dir, refusal);
  }
  PetscCall(SKOutputRemovePrevious(o->dir, refusal, sizeof(refusal)));
  PetscCheck(!refusal[0], PETSC_COMM_SELF, SK_ERR_INPUT, "%s", refusal);
  errno   = 0;
  o->file = SKResultsFileOpen(path, PETSC_TRUE);
  PetscCheck(o->file >= 0, PETSC_COMM_SELF, SK_ERR_INPUT, "cannot create %s: %s", path, errno ? strerror(errno) : "HDF5 error");
  PetscCall(SKOutputWriteMetadata(o, input));
  PetscCall(SKOutputWriteStatus(o, SK_OUTPUT_RUNNING, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees an output whose creation or reopening failed (rank 0 may hold the file open). */
static PetscErrorCode SKOutputFreeFailed(SKOutput o)
{
  PetscFunctionBegin;
  if (o->file >= 0) (void)H5Fclose(o->file);
  PetscCall(PetscFree(o->dir));
  PetscCall(PetscFree(o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputCreate(MPI_Comm comm, const char dir[], PetscBool force, SKInput input, SKOutput *out)
{
  SKOutput o;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKIOInitializePackage());
  PetscCall(PetscNew(&o));
  o->comm = comm;
  o->file = -1;
  PetscCallMPI(MPI_Comm_size(comm, &o->size));
  o->t_reached = 0;
  PetscCallMPI(MPI_Comm_rank(comm, &o->rank));
  PetscCall(PetscStrallocpy(dir, &o->dir));
  /* rank 0 makes the directory and the file; every rank raises its refusal or failure together (the other ranks once
     waited for rank 0 forever) */
  if (o->rank == 0) ierr = SKOutputCreateFile(o, force, input);
  ierr = SKCheckCollective(comm, ierr);
  if (ierr) PetscCall(SKOutputFreeFailed(o));
  PetscCall(ierr);
  *out = o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Counts /meta restarts and stamps the date of this one. */
static PetscErrorCode SKOutputNoteRestart(SKOutput out)
{
  hid_t meta = SKOpenObject(out->file, "/meta"), space, attr;
  int count  = 0;
  char date[64];
  time_t now = time(NULL);
  struct tm tm;

  PetscFunctionBegin;
  SKCallH5(meta, "opening /meta");
  if (H5Aexists(meta, "restart_count") > 0) {
    attr = H5Aopen(meta, "restart_count", H5P_DEFAULT);
    SKCallH5(H5Aread(attr, H5T_NATIVE_INT, &count), "H5Aread");
    H5Aclose(attr);
    H5Adelete(meta, "restart_count");
  }
  count++;
  space = H5Screate(H5S_SCALAR);
  attr  = H5Acreate2(meta, "restart_count", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(H5Awrite(attr, H5T_NATIVE_INT, &count), "H5Awrite");
  H5Aclose(attr);
  H5Sclose(space);
  gmtime_r(&now, &tm);
  strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
  PetscCall(SKWriteStringAttribute(meta, "last_restart_date", date));
  /* /meta/options becomes this invocation's (with -restart); the first run's are kept as /meta/options_initial */
  if (H5Lexists(out->file, "/meta/options", H5P_DEFAULT) > 0) {
    if (H5Lexists(out->file, "/meta/options_initial", H5P_DEFAULT) <= 0)
      SKCallH5(H5Lmove(out->file, "/meta/options", out->file, "/meta/options_initial", H5P_DEFAULT, H5P_DEFAULT), "H5Lmove");
    else
      SKCallH5(H5Ldelete(out->file, "/meta/options", H5P_DEFAULT), "H5Ldelete");
  }
  PetscCall(SKWriteOptions(out->file));
  H5Oclose(meta);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKOutputOpen(): reopens results.h5 at PATH and notes the restart, or raises why not. */
static PetscErrorCode SKOutputReopenFile(SKOutput o, const char path[])
{
  PetscFunctionBegin;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  o->file = SKResultsFileOpen(path, PETSC_FALSE);
  PetscCheck(o->file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN,
             "cannot reopen %s to append to it (is it a results file of stickslip, and writable?)", path);
  PetscCall(SKOutputNoteRestart(o));
  PetscCall(SKOutputWriteStatus(o, SK_OUTPUT_RUNNING, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputOpen(MPI_Comm comm, const char dir[], SKInput input, SKOutput *out)
{
  SKOutput o;
  char path[PETSC_MAX_PATH_LEN];
  int exists = 0;
  PetscMPIInt rank;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/results.h5", dir));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) exists = access(path, F_OK) == 0;
  PetscCallMPI(MPI_Bcast(&exists, 1, MPI_INT, 0, comm));
  if (!exists) {
    PetscCall(SKOutputCreate(comm, dir, PETSC_FALSE, input, out));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SKIOInitializePackage());
  PetscCall(PetscNew(&o));
  o->comm = comm;
  o->file = -1;
  PetscCallMPI(MPI_Comm_size(comm, &o->size));
  o->append    = PETSC_TRUE;
  o->t_restart = PETSC_MIN_REAL; /* a solver that resumes says from where; otherwise the histories start afresh */
  o->t_reached = 0;
  o->rank      = rank;
  PetscCall(PetscStrallocpy(dir, &o->dir));
  if (o->rank == 0) ierr = SKOutputReopenFile(o, path);
  ierr = SKCheckCollective(comm, ierr);
  if (ierr) PetscCall(SKOutputFreeFailed(o));
  PetscCall(ierr);
  *out = o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputSetRestartTime(SKOutput out, PetscReal t)
{
  PetscFunctionBegin;
  out->t_restart = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputIsRestart(SKOutput out, PetscBool *restart)
{
  PetscFunctionBegin;
  *restart = out->append;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restart: reopens the existing history dataset H->dset at PATH (access properties DAPL) and keeps its rows with time
   <= t_restart. */
static PetscErrorCode SKHistoryReopen(SKOutput out, SKHistory h, const char path[], hid_t dapl)
{
  hsize_t dims[2], start[2] = {0, 0}, count[2];
  hid_t space, mspace;
  PetscReal *t;
  PetscInt keep = 0;

  PetscFunctionBegin;
  h->dset = H5Dopen2(out->file, path, dapl);
  SKCallH5(h->dset, "H5Dopen2");
  space = H5Dget_space(h->dset);
  PetscCheck(H5Sget_simple_extent_ndims(space) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s in results.h5 is not a history", path);
  H5Sget_simple_extent_dims(space, dims, NULL);
  PetscCheck((PetscInt)dims[1] == h->ncols, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "cannot append to %s: it has %d columns, the restarted run writes %" PetscInt_FMT " (was the input changed?)", path,
             (int)dims[1], h->ncols);
  if (dims[0]) {
    count[0] = dims[0];
    count[1] = 1;
    PetscCall(PetscMalloc1(dims[0], &t));
    SKCallH5(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL), "H5Sselect_hyperslab");
    mspace = H5Screate_simple(2, count, NULL);
    SKCallH5(H5Dread(h->dset, H5T_NATIVE_DOUBLE, mspace, space, H5P_DEFAULT, t), "H5Dread");
    H5Sclose(mspace);
    while (keep < (PetscInt)dims[0] && t[keep] <= out->t_restart) keep++;
    PetscCall(PetscFree(t));
  }
  H5Sclose(space);
  dims[0] = (hsize_t)keep;
  SKCallH5(H5Dset_extent(h->dset, dims), "H5Dset_extent");
  h->rows = keep;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKHistoryWriteBuffer(SKHistory h)
{
  hsize_t dims[2], start[2], count[2];
  hid_t fspace, mspace;

  PetscFunctionBegin;
  if (!h->nbuf) PetscFunctionReturn(PETSC_SUCCESS);
  dims[0]  = (hsize_t)(h->rows + h->nbuf);
  dims[1]  = (hsize_t)h->ncols;
  start[0] = (hsize_t)h->rows;
  start[1] = 0;
  count[0] = (hsize_t)h->nbuf;
  count[1] = (hsize_t)h->ncols;
  SKCallH5(H5Dset_extent(h->dset, dims), "H5Dset_extent");
  fspace = H5Dget_space(h->dset);
  SKCallH5(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL), "H5Sselect_hyperslab");
  mspace = H5Screate_simple(2, count, NULL);
  SKCallH5(H5Dwrite(h->dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, h->buf), "H5Dwrite");
  H5Sclose(mspace);
  H5Sclose(fspace);
  h->rows += h->nbuf;
  h->nbuf = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the histories' buffered rows written and the file flushed. */
static PetscErrorCode SKOutputFlushFile(SKOutput out)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < out->nhist; i++) PetscCall(SKHistoryWriteBuffer(out->hist[i]));
  SKCallH5(H5Fflush(out->file, H5F_SCOPE_GLOBAL), "H5Fflush");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the buffered rows of H written and the file flushed (a full buffer). */
static PetscErrorCode SKHistoryWriteFlush(SKHistory h)
{
  PetscFunctionBegin;
  PetscCall(SKHistoryWriteBuffer(h));
  SKCallH5(H5Fflush(h->out->file, H5F_SCOPE_GLOBAL), "H5Fflush");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputFlush(SKOutput out)
{
  PetscFunctionBegin;
  if (SKOutputWrites(out)) PetscCall(SKOutputKeep(out, SKOutputFlushFile(out)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputCheck(SKOutput out)
{
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  if (out->failed) ierr = SKOutputRaise(out);
  PetscCall(SKCheckCollective(out->comm, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: closes results.h5 (errno cleared for SKOutputRecord()). */
static PetscErrorCode SKOutputCloseFile(SKOutput out)
{
  PetscFunctionBegin;
  errno = 0;
  SKCallH5(H5Fclose(out->file), "H5Fclose");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputDestroy(SKOutput *out)
{
  SKOutput o = *out;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!o) PetscFunctionReturn(PETSC_SUCCESS);
  /* the file is closed and everything freed also when the last rows cannot be written: HDF5 would otherwise close it
     itself inside MPI_Finalize(), where the failing flush crashed the program (HDF5 1.10) */
  if (SKOutputWrites(o)) SKOutputRecord(o, SKOutputFlushFile(o));
  for (PetscInt i = 0; i < o->nhist; i++) {
    if (o->rank == 0) H5Dclose(o->hist[i]->dset);
    PetscCall(PetscFree(o->hist[i]->buf));
    PetscCall(PetscFree(o->hist[i]));
  }
  if (o->rank == 0) SKOutputRecord(o, SKOutputCloseFile(o));
  /* the last word on a failure never raised (this rank's: it is the end of the run) */
  ierr = SKOutputRaise(o);
  PetscCall(PetscFree(o->dir));
  PetscCall(PetscFree(*out));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputGetDirectory(SKOutput out, const char *dir[])
{
  PetscFunctionBegin;
  *dir = out->dir;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputGetPath(SKOutput out, const char file[], char path[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, len, "%s/%s", out->dir, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKOutputHistoryCreate(): the dataset of H at PATH created, or reopened on a restart. */
static PetscErrorCode SKHistoryOpenDataset(SKOutput out, SKHistory h, const char path[], const char *const colnames[],
                                           const char *const units[])
{
  hsize_t dims[2] = {0, (hsize_t)h->ncols}, maxdims[2] = {H5S_UNLIMITED, (hsize_t)h->ncols}, chunk[2];
  hid_t space, dcpl, lcpl, dapl;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* Chunks of about 32 kB: large enough for throughput, small enough that a flush writes little. */
  chunk[0] = (hsize_t)PetscMax(1, 4096 / h->ncols);
  chunk[1] = (hsize_t)h->ncols;
  /* No chunk cache: the rows go to the file when a buffer is written (it is flushed right after anyway). A chunk that
     a full disk left dirty in the cache made every later close of the file fail, and HDF5 1.10 then crashed in
     MPI_Finalize() closing it again; written through, the failure is the write's, and the file closes. */
  dapl = H5Pcreate(H5P_DATASET_ACCESS);
  SKCallH5(dapl, "H5Pcreate");
  SKCallH5(H5Pset_chunk_cache(dapl, 0, 0, 1.0), "H5Pset_chunk_cache");
  space = H5Screate_simple(2, dims, maxdims);
  dcpl  = H5Pcreate(H5P_DATASET_CREATE);
  SKCallH5(H5Pset_chunk(dcpl, 2, chunk), "H5Pset_chunk");
  if (out->append && H5Lexists(out->file, path, H5P_DEFAULT) > 0) {
    H5Pclose(dcpl);
    H5Sclose(space);
    ierr = SKHistoryReopen(out, h, path, dapl);
    H5Pclose(dapl);
    PetscCall(ierr);
  } else {
    lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    h->dset = H5Dcreate2(out->file, path, H5T_NATIVE_DOUBLE, space, lcpl, dcpl, dapl);
    H5Pclose(dapl);
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
    PetscCheck(h->dset >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot create history %s in results.h5 (does it exist already?)", path);
    if (colnames) PetscCall(SKWriteStringListAttribute(h->dset, "columns", h->ncols, colnames));
    if (units) PetscCall(SKWriteStringListAttribute(h->dset, "units", h->ncols, units));
  }
  PetscCall(PetscMalloc1(h->ncols, &h->buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputHistoryCreate(SKOutput out, const char path[], PetscInt ncols, const char *const colnames[],
                                     const char *const units[], SKHistory *hist)
{
  SKHistory h;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCheck(ncols > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "history %s needs at least one column", path);
  PetscCheck(out->nhist < SK_MAX_HISTORIES, PETSC_COMM_SELF, PETSC_ERR_SUP, "more than %d histories", SK_MAX_HISTORIES);
  PetscCall(PetscNew(&h));
  h->out      = out;
  h->ncols    = ncols;
  h->interval = 1;
  h->dset     = -1;
  /* rank 0 makes the dataset; one it cannot make or reopen (a restart into the results of another input) is an error of
     every rank, which once waited for rank 0 forever. Other ranks keep a handle so that calls stay collective-friendly;
     it is freed with the output. */
  if (out->rank == 0) ierr = out->failed ? SKOutputRaise(out) : SKHistoryOpenDataset(out, h, path, colnames, units);
  ierr = SKCheckCollective(out->comm, ierr);
  if (ierr) {
    if (h->dset >= 0) H5Dclose(h->dset);
    PetscCall(PetscFree(h->buf));
    PetscCall(PetscFree(h));
  }
  PetscCall(ierr);
  out->hist[out->nhist++] = h;
  *hist                   = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKHistorySetFlushInterval(SKHistory h, PetscInt interval)
{
  PetscFunctionBegin;
  PetscCheck(interval >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "flush interval must be >= 1, got %" PetscInt_FMT, interval);
  if (SKOutputWrites(h->out)) {
    PetscCall(SKOutputKeep(h->out, SKHistoryWriteBuffer(h)));
    PetscCall(PetscFree(h->buf));
    PetscCall(PetscMalloc1(interval * h->ncols, &h->buf));
  }
  h->interval = interval;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKHistoryAppend(SKHistory h, const PetscReal row[])
{
  PetscFunctionBegin;
  if (h->out->rank) PetscFunctionReturn(PETSC_SUCCESS);
  /* SIGTERM/SIGINT stop a serial run at its next row (parallel solvers check collectively themselves) */
  if (h->out->size == 1) PetscCall(SKSignalCheck(PETSC_COMM_SELF));
  if (!SKOutputWrites(h->out)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(SK_EVENT_OutputWrite, 0, 0, 0, 0));
  PetscCall(PetscArraycpy(h->buf + h->nbuf * h->ncols, row, h->ncols));
  h->out->t_reached = PetscMax(h->out->t_reached, row[0]);
  if (++h->nbuf == h->interval) PetscCall(SKOutputKeep(h->out, SKHistoryWriteFlush(h)));
  PetscCall(PetscLogEventEnd(SK_EVENT_OutputWrite, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKHistoryGetRows(SKHistory h, PetscInt *rows)
{
  PetscFunctionBegin;
  *rows = h->rows + h->nbuf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes a fixed array of native type MEMTYPE at PATH (rank 0). */
static PetscErrorCode SKOutputWriteArray(SKOutput out, const char path[], PetscInt ndims, const PetscInt dims[], hid_t memtype,
                                         const void *data)
{
  PetscFunctionBegin;
  if (SKOutputWrites(out)) PetscCall(SKOutputKeep(out, SKH5WriteArray(out->file, path, memtype, ndims, dims, data)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputWriteRealArray(SKOutput out, const char path[], PetscInt ndims, const PetscInt dims[], const PetscReal data[])
{
  PetscFunctionBegin;
  PetscCall(SKOutputWriteArray(out, path, ndims, dims, H5T_NATIVE_DOUBLE, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputWriteIntArray(SKOutput out, const char path[], PetscInt ndims, const PetscInt dims[], const PetscInt data[])
{
  PetscFunctionBegin;
  PetscCall(SKOutputWriteArray(out, path, ndims, dims, sizeof(PetscInt) == 8 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: writes the scalar attribute NAME of native type MEMTYPE on OBJECT, or the string VALUE when MEMTYPE is
   H5I_INVALID_HID. */
static PetscErrorCode SKOutputPutAttribute(SKOutput out, const char object[], const char name[], hid_t memtype, const void *value)
{
  hid_t obj = SKOpenObject(out->file, object);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(obj >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot open or create %s in results.h5", object);
  ierr =
      memtype == H5I_INVALID_HID ? SKWriteStringAttribute(obj, name, (const char *)value) : SKH5WriteAttribute(obj, name, memtype, value);
  H5Oclose(obj);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKOutputWriteAttribute(SKOutput out, const char object[], const char name[], hid_t memtype, const void *value)
{
  PetscFunctionBegin;
  if (SKOutputWrites(out)) PetscCall(SKOutputKeep(out, SKOutputPutAttribute(out, object, name, memtype, value)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputWriteAttributeReal(SKOutput out, const char object[], const char name[], PetscReal value)
{
  PetscFunctionBegin;
  PetscCall(SKOutputWriteAttribute(out, object, name, H5T_NATIVE_DOUBLE, &value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputWriteAttributeInt(SKOutput out, const char object[], const char name[], PetscInt value)
{
  PetscFunctionBegin;
  PetscCall(SKOutputWriteAttribute(out, object, name, sizeof(PetscInt) == 8 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, &value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputWriteAttributeString(SKOutput out, const char object[], const char name[], const char value[])
{
  PetscFunctionBegin;
  PetscCall(SKOutputWriteAttribute(out, object, name, H5I_INVALID_HID, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOutputSummary(SKOutput out, const char key[], const char fmt[], ...)
{
  char value[512];
  va_list ap;
  size_t used;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  va_start(ap, fmt);
  ierr = PetscVSNPrintf(value, sizeof(value), fmt, &used, ap);
  va_end(ap);
  PetscCall(ierr);
  PetscCall(PetscPrintf(out->comm, "  %-30s %s\n", key, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SKOutputLibraryBegin(void)
{
  (void)H5dont_atexit();
  (void)H5open();
}

void SKOutputLibraryEnd(void)
{
  if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) == 0) (void)H5close();
}
