/* stickslip io: the VTK writer (UNSTRUCTURED_GRID with point and cell data; legacy .vtk or XML .vtu, each in ASCII or
   big-endian binary) and the .pvd collection that ties the .vtu files of a time series (and the MPI pieces of a step)
   together for ParaView. */
#ifndef STICKSLIP_VTK_H
#define STICKSLIP_VTK_H

#include <stickslip/core.h>

/* One .vtk or .vtu file being written by one process (each MPI rank writes its own piece). */
typedef struct _p_SKVTK *SKVTK;
/* A .pvd collection (rank 0 of its communicator writes it). */
typedef struct _p_SKPVD *SKPVD;

/* The same calls write any of the four; values are exact in all of them (text with %.17g round-trips every double). */
typedef enum {
  SK_VTK_ASCII,      /* legacy .vtk, values printed with %.17g: human-readable, large */
  SK_VTK_BINARY,     /* legacy .vtk, big-endian IEEE doubles and 32-bit ints as the format requires, on any host */
  SK_VTK_XML_ASCII,  /* XML .vtu, values printed with %.17g (the XML forms are what a .pvd needs: see SKPVDAddStep()) */
  SK_VTK_XML_BINARY, /* XML .vtu, base64 of big-endian data (byte_order="BigEndian", header_type="UInt64") */
} SKVTKFormat;

/* VTK cell type ids (vtkCellType.h) with their fixed node counts; the node order is VTK's. */
typedef enum {
  SK_VTK_VERTEX                  = 1,  /* 1 node */
  SK_VTK_LINE                    = 3,  /* 2 nodes */
  SK_VTK_TRIANGLE                = 5,  /* 3 nodes */
  SK_VTK_QUAD                    = 9,  /* 4 nodes */
  SK_VTK_TETRA                   = 10, /* 4 nodes */
  SK_VTK_HEXAHEDRON              = 12, /* 8 nodes */
  SK_VTK_QUADRATIC_EDGE          = 21, /* 3 nodes */
  SK_VTK_QUADRATIC_TRIANGLE      = 22, /* 6 nodes */
  SK_VTK_QUADRATIC_QUAD          = 23, /* 8 nodes (serendipity) */
  SK_VTK_QUADRATIC_TETRA         = 24, /* 10 nodes */
  SK_VTK_QUADRATIC_HEXAHEDRON    = 25, /* 20 nodes (serendipity) */
  SK_VTK_BIQUADRATIC_QUAD        = 28, /* 9 nodes (Lagrange Q9) */
  SK_VTK_TRIQUADRATIC_HEXAHEDRON = 29, /* 27 nodes (Lagrange H27) */
  SK_VTK_BEZIER_QUADRILATERAL    = 77, /* (p+1)^2 nodes, p >= 1: a rational Bezier patch (XML files only) */
  SK_VTK_BEZIER_HEXAHEDRON       = 79, /* (p+1)^3 nodes, p >= 1 (XML files only) */
} SKVTKCellType;

/* Where a data array lives: one value (tuple) per point or per cell. */
typedef enum {
  SK_VTK_POINT_DATA,
  SK_VTK_CELL_DATA,
} SKVTKLocation;

/* Number of nodes of a cell type, 0 for the Bezier types (the count depends on the degree), or -1 if the writer does not
   know the type. A Bezier cell of degree p has (p+1)^dim nodes in VTK's order (corners, edges, faces, interior: see
   SKBezierVTKPointIndex() of stickslip/fem.h); VTK reads its degree from the cell data array declared as
   "HigherOrderDegrees" and its rational weights from the point data array declared as "RationalWeights"
   (SKVTKSetAttribute()); without weights the cell is polynomial. */
PETSC_EXTERN PetscInt SKVTKCellTypeNumNodes(SKVTKCellType type);

/* Creates FILENAME (overwriting it) and writes the header: for legacy files the version line, TITLE (one line, at most
   255 characters, NULL: "stickslip"; XML files have no title), the format and DATASET UNSTRUCTURED_GRID. Use the
   extension .vtk for the legacy formats and .vtu for the XML ones (readers go by it). Then call, in this order:
   SKVTKWritePoints(), SKVTKWriteCells(), any number of SKVTKWrite{Scalars,IntScalars,Vectors,Tensors}() (all point
   data arrays together, all cell data arrays together, either group first), SKVTKClose(). */
PETSC_EXTERN PetscErrorCode SKVTKOpen(const char filename[], SKVTKFormat format, const char title[], SKVTK *vtk);
/* Finishes and closes the file and frees VTK (*vtk = NULL). Freed even on error; it is an error (after closing) if
   the points or the cells were never written, or if writing failed (disk full). A write or seek that fails does not
   raise where it happens: the first failure is kept, later writes to the file are skipped, and SKVTKClose() raises it
   ("Writing FILE failed: reason"), so that a writer whose steps include collective work (assembling the fields of a
   parallel frame) keeps step with the other ranks until the close. */
PETSC_EXTERN PetscErrorCode SKVTKClose(SKVTK *vtk);
/* Closes VTK without finishing it, removes its file and frees it (*vtk = NULL; NULL is allowed): the piece of a frame
   that another rank could not write. Raises nothing about the file. */
PETSC_EXTERN PetscErrorCode SKVTKDiscard(SKVTK *vtk);

/* Writes the NPOINTS points: coords[NPOINTS*DIM] (m), point-major; DIM is 1, 2 or 3 and the file always gets three
   coordinates (missing ones are 0). */
PETSC_EXTERN PetscErrorCode SKVTKWritePoints(SKVTK vtk, PetscInt npoints, PetscInt dim, const PetscReal coords[]);
/* Writes NCELLS cells: the nodes of cell c are connectivity[offsets[c] .. offsets[c+1]-1] (0-based point numbers,
   offsets[0] = 0, offsets has NCELLS+1 entries), in VTK's node order for types[c]. The node count must match the
   type and every node must be a point of the file. */
PETSC_EXTERN PetscErrorCode SKVTKWriteCells(SKVTK vtk, PetscInt ncells, const PetscInt offsets[], const PetscInt connectivity[],
                                            const SKVTKCellType types[]);

/* Data arrays. N must be the number of points (POINT_DATA) or cells (CELL_DATA) of the file; NAME must be a single
   word (no white space, quotes, '<', '>' or '&'), unique within its location. values are tuple-major:
   values[i*ncomp + k]. In .vtu files all kinds are DataArrays with 1..4, 3 or 9 components.
   SCALARS: NCOMP = 1..4 doubles per tuple (LOOKUP_TABLE default). */
PETSC_EXTERN PetscErrorCode SKVTKWriteScalars(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt ncomp, PetscInt n,
                                              const PetscReal values[]);
/* Integer scalars (one per tuple, written as VTK "int", e.g. block id, MPI rank). Values must fit in 32 bits. */
PETSC_EXTERN PetscErrorCode SKVTKWriteIntScalars(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt n, const PetscInt values[]);
/* VECTORS: DIM = 1..3 components per tuple in VALUES, written as 3 (missing ones are 0), e.g. a 2D displacement. */
PETSC_EXTERN PetscErrorCode SKVTKWriteVectors(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt dim, PetscInt n,
                                              const PetscReal values[]);
/* TENSORS: a DIM x DIM tensor per tuple (DIM = 2 or 3, row-major, values[i*DIM*DIM + r*DIM + c]), written as 3 x 3
   (missing rows and columns are 0), e.g. a 2D Cauchy stress (Pa). */
PETSC_EXTERN PetscErrorCode SKVTKWriteTensors(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt dim, PetscInt n,
                                              const PetscReal values[]);

/* XML files: declares the array NAME of location LOC as VTK's attribute ATTRIBUTE (written into the <PointData> or
   <CellData> tag, e.g. RationalWeights="..." of the point data and HigherOrderDegrees="..." of the cell data, which
   VTK's Bezier cells read); ATTRIBUTE and NAME are single words. Call it before the first array of LOC, at most 4 times
   per location. Legacy files cannot declare these attributes: there the call is an error (write Bezier cells to .vtu). */
PETSC_EXTERN PetscErrorCode SKVTKSetAttribute(SKVTK vtk, SKVTKLocation loc, const char attribute[], const char name[]);

/* Creates the collection FILENAME (a .pvd) on COMM; rank 0 writes it, initially empty, and rewrites it after every
   SKPVDAddStep() (through a temporary file and rename(), so a killed run always leaves a complete collection).
   Collective, as SKPVDOpen() and SKPVDAddStep(): a collection that rank 0 cannot write is an error of every rank. */
PETSC_EXTERN PetscErrorCode SKPVDCreate(MPI_Comm comm, const char filename[], SKPVD *pvd);
/* Reopens the collection FILENAME of an interrupted run (restart): keeps its entries with time <= t_keep (s) and
   rewrites it; later SKPVDAddStep() calls append. A missing file starts an empty collection, as SKPVDCreate(). */
PETSC_EXTERN PetscErrorCode SKPVDOpen(MPI_Comm comm, const char filename[], PetscReal t_keep, SKPVD *pvd);
/* Frees PVD (*pvd = NULL); the file stays as last written. */
PETSC_EXTERN PetscErrorCode SKPVDDestroy(SKPVD *pvd);
/* Path, into path[len], of this rank's .vtu file for step STEP: "<dir of pvd>/<stem of pvd>_<step>.vtu" on one
   rank, "<dir>/<stem>_<step>_p<rank>.vtu" on several (step printed with 6 digits, rank with 4). */
PETSC_EXTERN PetscErrorCode SKPVDGetStepFileName(SKPVD pvd, PetscInt step, char path[], size_t len);
/* Collective: adds time step TIME (s) whose piece on each rank is FILE (this rank's .vtu, written with
   SK_VTK_XML_ASCII or SK_VTK_XML_BINARY, because ParaView's PVD reader reads only XML files: either a path that
   starts with the pvd's directory, as SKPVDGetStepFileName() gives, or a path relative to the pvd's directory) and
   rewrites the collection. Each rank's file becomes a DataSet with part = rank, stored relative to the pvd's
   directory so the output directory can be moved. */
PETSC_EXTERN PetscErrorCode SKPVDAddStep(SKPVD pvd, PetscReal time, const char file[]);

#endif
