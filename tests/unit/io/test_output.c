/* Writes a results.h5 through the output API for check_output.py to read back with h5py.
   Modes: `test_output DIR` writes a known file and exits; `test_output DIR -hang` appends a row every 10 ms
   forever, printing a line once 20 rows are flushed (the check then kills it with SIGKILL and reads the file). Row k of /test/history is
   (k, k^2, -k) with k = 0, 1, ... so the reader can verify every row it finds. */
#include <stickslip/output.h>
#include <unistd.h>

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
  PetscCall(SKOutputDestroy(&out));
  PetscCall(PetscFinalize());
  return 0;
}
