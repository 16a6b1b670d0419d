/* Checkpoints in process: a state saved and loaded into a fresh solver continues bit for bit like the original; the
   newest checkpoint damaged, SKExplicitFindCheckpoint() returns the previous one; only the newest KEEP are kept. */
#include "test_explicit_common.h"
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char text[] = "<explicit>"
                           "<mesh><rectangle type=\"Q9\" cells=\"6 3\" lower=\"0 0\" upper=\"0.3 0.1\"/></mesh>"
                           "<block name=\"body\" material=\"neo_hookean\" E=\"1e6\" nu=\"0.3\" rho=\"1000\"/>"
                           "<displacement nodeset=\"left\" component=\"all\"/>"
                           "<spring nodeset=\"right\" stiffness=\"1e4\" components=\"x\" velocity=\"0.2 0\"/>"
                           "<gravity acceleration=\"0 -9.81\"/>"
                           "<initial_velocity nodeset=\"all\" value=\"0 0.3\"/>"
                           "<time end=\"1\"/>"
                           "</explicit>";

int main(int argc, char **argv)
{
  SKInput in1, in2;
  SKExplicit a, b;
  char dir[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN], want[PETSC_MAX_PATH_LEN];
  const PetscReal *ua, *va, *ub, *vb;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "checkpoint_test_%d", (int)getpid()));
  PetscCall(SKTestExplicitCreate("a", text, &in1, &a));
  PetscCall(SKExplicitAdvance(a, 50));
  PetscCall(SKExplicitWriteCheckpoint(a, dir, 2));
  PetscCall(SKExplicitAdvance(a, 50));
  PetscCall(SKExplicitWriteCheckpoint(a, dir, 2));
  PetscCall(SKExplicitAdvance(a, 50));
  PetscCall(SKExplicitWriteCheckpoint(a, dir, 2)); /* steps 100 and 150 remain */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint_%010d.h5", dir, 50));
  PetscCheck(access(path, F_OK) != 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the oldest checkpoint was not removed");

  /* a fresh solver loaded from step 100 must reach step 150 with exactly the state of the original */
  PetscCall(SKTestExplicitCreate("b", text, &in2, &b));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint_%010d.h5", dir, 100));
  PetscCall(SKExplicitLoadCheckpoint(b, path));
  PetscCall(SKExplicitAdvance(b, 50));
  PetscCall(SKExplicitGetState(a, &n, &ua, &va, NULL, NULL));
  PetscCall(SKExplicitGetState(b, NULL, &ub, &vb, NULL, NULL));
  for (PetscInt i = 0; i < 2 * n; i++)
    PetscCheck(ua[i] == ub[i] && va[i] == vb[i], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "dof %" PetscInt_FMT " differs after the restart", i);
  {
    SKExplicitEnergy ea, eb;
    PetscCall(SKExplicitGetEnergy(a, &ea));
    PetscCall(SKExplicitGetEnergy(b, &eb));
    PetscCheck(ea.external_work == eb.external_work && ea.balance == eb.balance, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "energy accounts differ after the restart");
  }

  /* damage the newest (step 150): the search must fall back to step 100 */
  PetscCall(SKExplicitFindCheckpoint(PETSC_COMM_WORLD, dir, path, sizeof(path)));
  PetscCall(PetscSNPrintf(want, sizeof(want), "%s/checkpoint_%010d.h5", dir, 150));
  PetscCheck(!strcmp(path, want), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "newest checkpoint %s, expected %s", path, want);
  {
    FILE *f = fopen(want, "r+b");
    long size;
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", want);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, size - 200, SEEK_SET); /* inside the last state array: the file stays readable, only the checksum can tell */
    fputc(0x5a, f);
    fclose(f);
  }
  PetscCall(SKExplicitFindCheckpoint(PETSC_COMM_WORLD, dir, path, sizeof(path)));
  PetscCall(PetscSNPrintf(want, sizeof(want), "%s/checkpoint_%010d.h5", dir, 100));
  PetscCheck(!strcmp(path, want), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "after the damage: %s, expected %s", path, want);

  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint_%010d.h5", dir, 100));
  (void)unlink(path);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint_%010d.h5", dir, 150));
  (void)unlink(path);
  (void)rmdir(dir);
  PetscCall(SKExplicitDestroy(&a));
  PetscCall(SKExplicitDestroy(&b));
  PetscCall(SKInputDestroy(&in1));
  PetscCall(SKInputDestroy(&in2));
  PetscCall(PetscFinalize());
  return 0;
}
