/* The identity of a run (input.h): SKOptionsGetRunDigest() keeps exactly the options that can change results, sorted,
   with their values (so that the order on the command line does not matter and -o/-restart/-log_view do not count);
   SKInputGetDigest() ignores comments and attribute order/quoting (canonical XML) but not a changed value. Exact
   comparisons: digests and strings have no tolerance. */
#include <stickslip/input.h>
#include <stickslip/mesh.h>
#include <stickslip/solver.h>

static PetscErrorCode Canonical(const char options[], char **canonical, unsigned long long *digest)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscOptionsInsertString(NULL, options));
  PetscCall(SKOptionsGetRunDigest(canonical, digest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InputDigest(const char text[], unsigned long long *digest)
{
  SKInput input;

  PetscFunctionBegin;
  PetscCall(SKInputLoadMemory(PETSC_COMM_WORLD, "digest.xml", text, strlen(text), &input));
  PetscCall(SKInputGetDigest(input, digest));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char *c1, *c2;
  unsigned long long d1, d2, d3;
  const char *mesh1 =
      "<?xml version='1.0'?>\n<!-- one -->\n<mesh dim='2'><nodes>0 0 1 0 0 1</nodes><block name='b' type='T3'>0 1 2</block></mesh>\n";
  const char *mesh2 =
      "<?xml version=\"1.0\"?>\n<mesh dim=\"2\"><!-- two --><nodes>0 0 1 0 0 1</nodes><block type=\"T3\" name=\"b\">0 1 2</block></mesh>";
  const char *mesh3 = "<?xml version='1.0'?>\n<mesh dim='2'><nodes>0 0 1 0 0 2</nodes><block name='b' type='T3'>0 1 2</block></mesh>\n";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(Canonical("-o out -rodpair_solver mmm -quiet -restart -rodpair_end -0.5 -log_view -explicit_kill_at_step 3 -force", &c1, &d1));
  PetscCall(Canonical("-rodpair_end -0.5 -rodpair_solver mmm", &c2, &d2));
  PetscCheck(!strcmp(c1, "-rodpair_end -0.5 -rodpair_solver mmm"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "canonical options '%s'", c1);
  PetscCheck(!strcmp(c1, c2) && d1 == d2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "'%s' and '%s' differ", c1, c2);
  PetscCall(PetscFree(c1));
  PetscCall(PetscFree(c2));
  PetscCall(Canonical("-rodpair_end -0.5 -rodpair_solver rk45", &c1, &d1));
  PetscCheck(d1 != d2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "another solver gives the same digest");
  PetscCall(PetscFree(c1));
  PetscCall(PetscOptionsClear(NULL));

  PetscCall(SKSolverRegisterAll()); /* <mesh> as a root element (the mesh-file type of the program) */
  PetscCall(InputDigest(mesh1, &d1));
  PetscCall(InputDigest(mesh2, &d2));
  PetscCall(InputDigest(mesh3, &d3));
  PetscCheck(d1 == d2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "comments, quotes or attribute order changed the input digest");
  PetscCheck(d1 != d3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a changed coordinate left the input digest unchanged");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "run digests ok\n"));
  PetscCall(PetscFinalize());
  return 0;
}
