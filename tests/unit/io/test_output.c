/* Writes a results.h5 through the output API for check_output.py to read back with h5py.
   Modes: `test_output DIR` writes a known file and exits; `test_output DIR -hang` appends a row every 10 ms
   forever, printing a line once 20 rows are flushed (the check then kills it with SIGKILL and reads the file). Row k of /test/history is
   (k, k^2, -k) with k = 0, 1, ... so the reader can verify every row it finds.
   Checks of its own (exact: row counts are integers): both histories count 100 rows; an existing results directory
   is refused without force; a restart (SKOutputOpen at t = 49.5) keeps the 50 rows with k <= 49.5 of a history and
   appends after them. Mutations tried: SKHistoryGetRows() returning h->rows only (rows still buffered in the wide
   history are missed: fails "wide history has 98 rows"), and SKOutputCreate() ignoring an existing results.h5
   (fails "refused"); both reverted. */
#include <stickslip/output.h>
#include <unistd.h>

/* Restart semantics on a copy in DIR_restart: write 100 rows, reopen at t = 49.5, expect 50 kept and 60 after 10 more. */
static PetscErrorCode CheckRestart(const char dir[])
{
  char rdir[PETSC_MAX_PATH_LEN];
  const char *cols[] = {"time", "value"};
  SKOutput out;
  SKHistory h;
  PetscInt rows;
  PetscBool restart;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(rdir, sizeof(rdir), "%s_restart", dir));
  PetscCall(SKOutputCreate(PETSC_COMM_WORLD, rdir, PETSC_TRUE, NULL, &out));
  PetscCall(SKOutputHistoryCreate(out, "/test/h", 2, cols, NULL, &h));
  for (PetscInt k = 0; k < 100; k++) {
    PetscReal row[2] = {(PetscReal)k, (PetscReal)(2 * k)};
    PetscCall(SKHistoryAppend(h, row));
  }
  PetscCall(SKOutputDestroy(&out));
  PetscCall(SKOutputOpen(PETSC_COMM_WORLD, rdir, NULL, &out));
  PetscCall(SKOutputIsRestart(out, &restart));
  PetscCheck(restart, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKOutputOpen() on existing results is not a restart");
  PetscCall(SKOutputSetRestartTime(out, 49.5));
  PetscCall(SKOutputHistoryCreate(out, "/test/h", 2, cols, NULL, &h));
  PetscCall(SKHistoryGetRows(h, &rows));
  PetscCheck(rows == 50, PETSC_COMM_SELF, PETSC_ERR_PLIB, "restart at t = 49.5 kept %" PetscInt_FMT " rows, expected 50", rows);
  for (PetscInt k = 50; k < 60; k++) {
    PetscReal row[2] = {(PetscReal)k, (PetscReal)(2 * k)};
    PetscCall(SKHistoryAppend(h, row));
  }
  PetscCall(SKHistoryGetRows(h, &rows));
  PetscCheck(rows == 60, PETSC_COMM_SELF, PETSC_ERR_PLIB, "after 10 appends the restarted history has %" PetscInt_FMT " rows, expected 60",
             rows);
  PetscCall(SKOutputDestroy(&out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An output directory that holds results.h5 is refused without force (the program's "use -force"). */
static PetscErrorCode CheckRefused(const char dir[])
{
  SKOutput out = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKOutputCreate(PETSC_COMM_WORLD, dir, PETSC_FALSE, NULL, &out);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr != PETSC_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an existing results directory %s was not refused without force", dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKOutput out;
  SKHistory hist, wide;
  const char *cols[]  = {"k", "k2", "minus_k"};
  const char *units[] = {"1", "1", "1"};
  PetscBool hang = PETSC_FALSE, force = PETSC_TRUE;
  const char *dir = argc > 1 ? argv[1] : "test_output_dir";

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-hang", &hang, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-force", &force, NULL));
  PetscCall(SKOutputCreate(PETSC_COMM_WORLD, dir, force, NULL, &out));
  PetscCall(SKOutputHistoryCreate(out, "/test/history", 3, cols, units, &hist));
  if (hang) {
    for (PetscInt k = 0;; k++) {
      PetscReal row[3] = {(PetscReal)k, (PetscReal)(k * k), (PetscReal)-k};
      PetscCall(SKHistoryAppend(hist, row));
      /* Tell the checker once 20 rows are on disk, so it kills a run that really is mid-way (however slow the start). */
      if (k == 19) {
        printf("flushed 20 rows\n");
        fflush(stdout);
      }
      usleep(10000);
    }
  }
  PetscCall(SKOutputHistoryCreate(out, "/test/wide", 1000, NULL, NULL, &wide));
  PetscCall(SKHistorySetFlushInterval(wide, 7)); /* a flush interval that does not divide the row count */
  for (PetscInt k = 0; k < 100; k++) {
    PetscReal row[3] = {(PetscReal)k, (PetscReal)(k * k), (PetscReal)-k}, w[1000];
    PetscCall(SKHistoryAppend(hist, row));
    for (PetscInt j = 0; j < 1000; j++) w[j] = 1000.0 * k + j;
    PetscCall(SKHistoryAppend(wide, w));
  }
  {
    PetscInt dims[2] = {2, 3}, idims[1] = {4}, ivals[4] = {1, -2, 3, 4};
    PetscReal vals[6] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5};
    PetscCall(SKOutputWriteRealArray(out, "/test/array", 2, dims, vals));
    PetscCall(SKOutputWriteIntArray(out, "/test/ints", 1, idims, ivals));
    PetscCall(SKOutputWriteAttributeReal(out, "/test", "pi", PETSC_PI));
    PetscCall(SKOutputWriteAttributeInt(out, "/test", "answer", 42));
    PetscCall(SKOutputWriteAttributeString(out, "/test/history", "note", "unit check"));
  }
  {
    PetscInt rows;
    PetscCall(SKHistoryGetRows(hist, &rows));
    PetscCheck(rows == 100, PETSC_COMM_SELF, PETSC_ERR_PLIB, "history has %" PetscInt_FMT " rows, expected 100", rows);
    PetscCall(SKHistoryGetRows(wide, &rows));
    PetscCheck(rows == 100, PETSC_COMM_SELF, PETSC_ERR_PLIB, "wide history has %" PetscInt_FMT " rows, expected 100", rows);
  }
  PetscCall(SKOutputDestroy(&out));
  PetscCall(CheckRefused(dir));
  PetscCall(CheckRestart(dir));
  PetscCall(PetscFinalize());
  return 0;
}
