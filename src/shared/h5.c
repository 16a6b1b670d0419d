/* shared: the HDF5 helpers and the atomic file commit of every writer of the program (h5.h). */
#include "shared/h5.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

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
