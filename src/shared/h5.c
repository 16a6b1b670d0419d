/* shared: the HDF5 helpers and the atomic file commit of every writer of the program (h5.h). */
#include "shared/h5.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

PetscErrorCode SKH5WriteArray(hid_t loc, const char path[], hid_t memtype, PetscInt ndims, const PetscInt dims[], const void *data)
{
  hsize_t hd[8];
  hid_t space, dset, lcpl;

  PetscFunctionBegin;
  PetscCheck(ndims >= 1 && ndims <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "arrays have 1 to 8 dimensions, got %" PetscInt_FMT,
             ndims);
  for (PetscInt i = 0; i < ndims; i++) hd[i] = (hsize_t)dims[i];
  space = H5Screate_simple((int)ndims, hd, NULL);
  SKCallH5(space, path);
  lcpl = H5Pcreate(H5P_LINK_CREATE);
  SKCallH5(lcpl, path);
  SKCallH5(H5Pset_create_intermediate_group(lcpl, 1), path);
  if (H5Lexists(loc, path, H5P_DEFAULT) > 0) SKCallH5(H5Ldelete(loc, path, H5P_DEFAULT), path);
  dset = H5Dcreate2(loc, path, memtype, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  PetscCheck(dset >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error: cannot create dataset %s", path);
  SKCallH5(H5Dwrite(dset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), path);
  SKCallH5(H5Dclose(dset), path);
  SKCallH5(H5Pclose(lcpl), path);
  SKCallH5(H5Sclose(space), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKH5WriteAttribute(hid_t obj, const char name[], hid_t memtype, const void *value)
{
  hid_t space, attr;

  PetscFunctionBegin;
  if (H5Aexists(obj, name) > 0) SKCallH5(H5Adelete(obj, name), name);
  space = H5Screate(H5S_SCALAR);
  SKCallH5(space, name);
  attr = H5Acreate2(obj, name, memtype, space, H5P_DEFAULT, H5P_DEFAULT);
  SKCallH5(attr, name);
  SKCallH5(H5Awrite(attr, memtype, value), name);
  SKCallH5(H5Aclose(attr), name);
  SKCallH5(H5Sclose(space), name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFileCommit(const char tmp[], const char path[])
{
  PetscFunctionBegin;
  PetscCheck(rename(tmp, path) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to %s: %s", tmp, path, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKH5ImageCreate(const char name[], hid_t *file)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);

  PetscFunctionBegin;
  SKCallH5(fapl, "H5Pcreate");
  /* grown 1 MiB at a time, no backing store: nothing of it reaches the disk but through SKH5ImageCommit() */
  if (H5Pset_fapl_core(fapl, 1 << 20, 0) < 0) {
    H5Pclose(fapl);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error in H5Pset_fapl_core");
  }
  *file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  PetscCheck(*file >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 cannot make %s in memory", name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes the N bytes of IMAGE to the new file TMP, flushed to the disk; on failure TMP is removed and the reason is in
   WHY. */
static PetscErrorCode SKWriteImage(const void *image, size_t n, const char tmp[], char why[], size_t len)
{
  FILE *fp;
  int failed;

  PetscFunctionBegin;
  why[0] = 0;
  errno  = 0;
  fp     = fopen(tmp, "wb");
  failed = !fp || fwrite(image, 1, n, fp) != n;
  if (fp) {
    failed = fflush(fp) != 0 || failed;
    failed = fsync(fileno(fp)) != 0 || failed;
    failed = fclose(fp) != 0 || failed;
  }
  if (failed) {
    PetscCall(PetscSNPrintf(why, len, "Writing %s failed: %s", tmp, errno ? strerror(errno) : "short write"));
    (void)unlink(tmp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKH5ImageCommit(hid_t *file, const char tmp[], const char path[])
{
  ssize_t size;
  void *image                       = NULL;
  char why[PETSC_MAX_PATH_LEN + 64] = "";
  PetscErrorCode ierr               = PETSC_SUCCESS;

  PetscFunctionBegin;
  size = H5Fflush(*file, H5F_SCOPE_LOCAL) < 0 ? -1 : H5Fget_file_image(*file, NULL, 0);
  if (size > 0) {
    ierr = PetscMalloc((size_t)size, &image);
    if (!ierr && H5Fget_file_image(*file, image, (size_t)size) != size) size = -1;
  }
  /* in memory: the close writes nothing */
  (void)H5Fclose(*file);
  *file = H5I_INVALID_HID;
  if (!ierr && size > 0) ierr = SKWriteImage(image, (size_t)size, tmp, why, sizeof(why));
  PetscCall(PetscFree(image));
  PetscCall(ierr);
  PetscCheck(size > 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 cannot give the bytes of %s", tmp);
  PetscCheck(!why[0], PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s", why);
  PetscCall(SKFileCommit(tmp, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}
