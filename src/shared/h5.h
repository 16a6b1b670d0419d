/* shared: the one HDF5 helper layer of the program (h5.c): the error check of an HDF5 call, the writers of an array and of
   a scalar attribute, and the atomic commit of a file written under a temporary name. Used by the results file
   (output.c), the checkpoints (dynamics/checkpoint.c), the realisation files of a campaign (dynamics/campaign.c) and,
   for the commit, the ParaView collection (vtk.c). */
#ifndef STICKSLIP_SHARED_H5_H
#define STICKSLIP_SHARED_H5_H

#include <stickslip/core.h>
#include <hdf5.h>

/* Wraps an HDF5 call returning a negative value on failure; WHAT names the call or the object. */
#define SKCallH5(call, what) PetscCheck((call) >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error in %s", what)

/* Writes the array DATA of native type MEMTYPE and NDIMS (1 to 8) dimensions DIMS as dataset PATH of LOC, replacing an
   existing one and creating missing groups. */
PETSC_INTERN PetscErrorCode SKH5WriteArray(hid_t loc, const char path[], hid_t memtype, PetscInt ndims, const PetscInt dims[],
                                           const void *data);
/* Writes the scalar attribute NAME of native type MEMTYPE on the open object OBJ, replacing an existing one. */
PETSC_INTERN PetscErrorCode SKH5WriteAttribute(hid_t obj, const char name[], hid_t memtype, const void *value);
/* A file written whole (a checkpoint, a campaign's task file): SKH5ImageCreate() makes it in memory (HDF5's core
   driver; NAME only names it), SKH5ImageCommit() closes it and writes its bytes to TMP, renamed over PATH when complete
   (SKFileCommit()). HDF5 never writes to the disk itself: a full disk is a failed write of the commit, with the file
   closed and TMP removed, where HDF5 1.10 could not close a file whose flush had failed and crashed in MPI_Finalize(). */
PETSC_INTERN PetscErrorCode SKH5ImageCreate(const char name[], hid_t *file);
PETSC_INTERN PetscErrorCode SKH5ImageCommit(hid_t *file, const char tmp[], const char path[]);
/* Renames the complete file TMP over PATH: rename() is atomic, so a reader or a killed run sees the previous file (or
   none) or the new complete one, never a part. */
PETSC_INTERN PetscErrorCode SKFileCommit(const char tmp[], const char path[]);

#endif
