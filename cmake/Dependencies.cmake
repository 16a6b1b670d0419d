# Finds the Debian packages stickslip builds on and bundles them as the interface target SK::deps.
# HDF5 is the MPI build that PETSc itself links (pkg-config hdf5-openmpi); no second HDF5 is linked.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SK_PETSC REQUIRED IMPORTED_TARGET PETSc>=3.18)
pkg_check_modules(SK_SLEPC REQUIRED IMPORTED_TARGET slepc>=3.18)
pkg_check_modules(SK_HDF5 REQUIRED IMPORTED_TARGET hdf5-openmpi)
pkg_check_modules(SK_XML2 REQUIRED IMPORTED_TARGET libxml-2.0)
# FFTW (serial, double) samples the random rough surfaces (src/iga/randomfield.c).
pkg_check_modules(SK_FFTW REQUIRED IMPORTED_TARGET fftw3)
find_path(SK_METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(SK_METIS_LIBRARY metis REQUIRED)
# Modules call LAPACK directly (eigenproblems of small dense matrices); PETSc's pkg-config entry does not list it.
find_library(SK_LAPACK_LIBRARY lapack REQUIRED)
find_library(SK_BLAS_LIBRARY blas REQUIRED)
find_program(SK_MPIEXEC NAMES mpiexec mpirun REQUIRED)
# Debian's python3 carries numpy/h5py/matplotlib/vtk; prefer it over any other python3 on the PATH.
if(EXISTS /usr/bin/python3 AND NOT Python3_EXECUTABLE)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

add_library(SK::deps INTERFACE IMPORTED)
target_link_libraries(SK::deps INTERFACE PkgConfig::SK_SLEPC PkgConfig::SK_PETSC PkgConfig::SK_HDF5 PkgConfig::SK_XML2 PkgConfig::SK_FFTW ${SK_METIS_LIBRARY} ${SK_LAPACK_LIBRARY} ${SK_BLAS_LIBRARY} m)
target_include_directories(SK::deps INTERFACE ${SK_METIS_INCLUDE_DIR})

if(STICKSLIP_WITH_CVODE)
  find_path(SK_CVODE_INCLUDE_DIR cvode/cvode.h REQUIRED)
  find_library(SK_CVODE_LIBRARY sundials_cvode REQUIRED)
  find_library(SK_NVECSERIAL_LIBRARY sundials_nvecserial REQUIRED)
  add_library(SK::cvode INTERFACE IMPORTED)
  target_include_directories(SK::cvode INTERFACE ${SK_CVODE_INCLUDE_DIR})
  target_link_libraries(SK::cvode INTERFACE ${SK_CVODE_LIBRARY} ${SK_NVECSERIAL_LIBRARY})
endif()
