/* stickslip io: the output directory and results.h5 (metadata, time histories, fixed arrays).
   The layout is documented in docs/output.md. results.h5 is written by rank 0 of the output's communicator;
   calls on other ranks are no-ops, so solvers may call them collectively. SKOutputCreate(), SKOutputOpen() and
   SKOutputHistoryCreate() are collective: what rank 0 fails to do there fails on every rank (SKCheckCollective()).
   A write during the run that fails (a full disk, a quota) raises its error at once on one rank; on several, rank 0
   keeps the first failure, writes nothing more, and SKOutputCheck() raises it on every rank: a parallel solver calls
   it at its collective checks (the program after the run), so that the ranks stop together. */
#ifndef STICKSLIP_OUTPUT_H
#define STICKSLIP_OUTPUT_H

#include <stickslip/input.h>

typedef struct _p_SKOutput *SKOutput;
typedef struct _p_SKHistory *SKHistory;

/* Opens output directory DIR (created with parents if missing). If DIR already holds results.h5 and FORCE is false,
   fails (SK_ERR_INPUT) with a message that says what is there (complete results, or a run that did not complete, with
   its status) and what to pass (-force, -restart, -o). Otherwise first removes what an earlier run wrote there
   (results.h5, checkpoints/checkpoint_*.h5, *.pvd and their step files STEM_NNNNNN[_pNNNN].vtu; nothing else), creates
   results.h5 and writes /meta (version, date, input file name and copy, command-line and database options) with the
   status "running". An output path that cannot be created is SK_ERR_INPUT too. INPUT may be NULL (tests). */
PETSC_EXTERN PetscErrorCode SKOutputCreate(MPI_Comm comm, const char dir[], PetscBool force, SKInput input, SKOutput *out);
/* Reopens the results of an interrupted run in DIR for appending (the program's -restart): DIR/results.h5 is opened
   read-write (created as by SKOutputCreate() if missing) and /meta gets the attributes restart_count and
   last_restart_date; /meta/options becomes this invocation's options (the first run's move to /meta/options_initial). A history created
   afterwards with SKOutputHistoryCreate() reuses its existing dataset: it keeps the rows whose first column (time) is <= the time given to
   SKOutputSetRestartTime() and appends after them. */
PETSC_EXTERN PetscErrorCode SKOutputOpen(MPI_Comm comm, const char dir[], SKInput input, SKOutput *out);
/* Time (s) of the state a restarted solver resumes from; see SKOutputOpen(). Until it is called, a reopened history
   keeps no rows (a solver that does not resume starts its histories afresh). */
PETSC_EXTERN PetscErrorCode SKOutputSetRestartTime(SKOutput out, PetscReal t);
/* Whether OUT was opened by SKOutputOpen() on existing results (a restart). */
PETSC_EXTERN PetscErrorCode SKOutputIsRestart(SKOutput out, PetscBool *restart);
/* The run's status in results.h5, the /meta attributes status ("running", "completed", "failed"), status_message
   (the error of a failed run), status_time (s: the largest time written to any history) and status_date (UTC). Written
   "running" by SKOutputCreate()/SKOutputOpen(); the program writes "completed" or "failed". Flushes the file. */
typedef enum { SK_OUTPUT_RUNNING, SK_OUTPUT_COMPLETED, SK_OUTPUT_FAILED } SKOutputStatus;
PETSC_EXTERN PetscErrorCode SKOutputSetStatus(SKOutput out, SKOutputStatus status, const char message[]);
/* Collective: raises on every rank the first write of results.h5 that failed on rank 0 (see above), if any. */
PETSC_EXTERN PetscErrorCode SKOutputCheck(SKOutput out);
/* Flushes and closes results.h5 and frees OUT, also when the flush fails; then raises (on rank 0) the first failed
   write, if any, so that a failure no SKOutputCheck() raised still ends the program with an error. */
PETSC_EXTERN PetscErrorCode SKOutputDestroy(SKOutput *out);
PETSC_EXTERN PetscErrorCode SKOutputGetDirectory(SKOutput out, const char *dir[]);
/* Full path of FILE inside the output directory, into path[len]. */
PETSC_EXTERN PetscErrorCode SKOutputGetPath(SKOutput out, const char file[], char path[], size_t len);
/* Flushes results.h5 to disk (H5Fflush); histories flush themselves every SKOutputSetFlushInterval() appends. */
PETSC_EXTERN PetscErrorCode SKOutputFlush(SKOutput out);

/* A time history: an extendible 2D dataset PATH (e.g. "/rodpair/tip") of shape (rows, ncols), rows growing as the
   run goes. colnames[ncols] and units[ncols] are stored as attributes "columns" and "units" (units may be NULL).
   Intermediate groups are created. The history is owned by OUT and freed with it. Collective on OUT's communicator, like
   SKOutputCreate() and SKOutputOpen(): a history that rank 0 cannot create or reopen is an error of every rank. */
PETSC_EXTERN PetscErrorCode SKOutputHistoryCreate(SKOutput out, const char path[], PetscInt ncols, const char *const colnames[],
                                                  const char *const units[], SKHistory *hist);
/* Appends one row of ncols values. Rows are buffered and written in chunks; the file is flushed at least every
   `interval` appends (default 1: every row reaches the file), so a killed run keeps what it had. */
PETSC_EXTERN PetscErrorCode SKHistoryAppend(SKHistory hist, const PetscReal row[]);
PETSC_EXTERN PetscErrorCode SKHistorySetFlushInterval(SKHistory hist, PetscInt interval);
PETSC_EXTERN PetscErrorCode SKHistoryGetRows(SKHistory hist, PetscInt *rows);

/* Fixed arrays and attributes. PATH is a dataset path; groups are created as needed. */
PETSC_EXTERN PetscErrorCode SKOutputWriteRealArray(SKOutput out, const char path[], PetscInt ndims, const PetscInt dims[],
                                                   const PetscReal data[]);
PETSC_EXTERN PetscErrorCode SKOutputWriteIntArray(SKOutput out, const char path[], PetscInt ndims, const PetscInt dims[],
                                                  const PetscInt data[]);
/* Attributes on a group or dataset OBJECT (created as a group if it does not exist). */
PETSC_EXTERN PetscErrorCode SKOutputWriteAttributeReal(SKOutput out, const char object[], const char name[], PetscReal value);
PETSC_EXTERN PetscErrorCode SKOutputWriteAttributeInt(SKOutput out, const char object[], const char name[], PetscInt value);
PETSC_EXTERN PetscErrorCode SKOutputWriteAttributeString(SKOutput out, const char object[], const char name[], const char value[]);

/* The program's HDF5 library: SKOutputLibraryBegin() starts it before MPI is initialised (before PetscInitialize()), so
   that HDF5 hooks its clean-up neither into MPI_Finalize() nor into exit(); SKOutputLibraryEnd() ends it before
   PetscFinalize(), unless a file is still open. HDF5 1.10 frees a file whose close failed (a flush on a full disk) but
   keeps its identifier, and its own clean-up then crashed the program closing it again: such a run ends without that
   clean-up (the process exits). A program that calls neither leaves HDF5 its own clean-up. */
PETSC_EXTERN void SKOutputLibraryBegin(void);
PETSC_EXTERN void SKOutputLibraryEnd(void);

/* Prints a line of the end-of-run summary on stdout (rank 0), e.g. SKOutputSummary(out, "intervals", "%d", n). */
PETSC_EXTERN PetscErrorCode SKOutputSummary(SKOutput out, const char key[], const char fmt[], ...) PETSC_ATTRIBUTE_FORMAT(3, 4);

#endif
