/* Pure kernels of the explicit solver: the power iteration for the largest eigenvalue of M^-1 K against a spring chain
   in closed form, and the FNV-1a checkpoint hash against the published test vectors. */
#include <stickslip/dynamics.h>

/* Fixed-fixed chain of n masses m joined by n+1 springs k: omega_j^2 = (4k/m) sin^2(j pi / (2(n+1))), j = 1..n. The
   last NC masses are constrained (excluded), which leaves a chain of n - NC masses fixed at both ends. */
static PetscErrorCode Chain(PetscInt n, PetscInt nc, PetscReal k, PetscReal m, PetscReal *lambda, PetscInt *its)
{
  Mat K;
  Vec mass;
  IS cons;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, &K));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(MatSetValue(K, i, i, 2 * k, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(K, i, i - 1, -k, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(K, i, i + 1, -k, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(K, &mass, NULL));
  PetscCall(VecSet(mass, m));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nc, n - nc, 1, &cons));
  PetscCall(SKExplicitPowerIteration(K, mass, cons, 1e-10, 20000, lambda, its));
  PetscCall(ISDestroy(&cons));
  PetscCall(VecDestroy(&mass));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  {
    const PetscInt n = 40, nc = 10, nfree = n - nc; /* the constrained tail acts as a fixed end */
    const PetscReal k = 3e5, m = 2.0;
    const PetscReal exact = 4 * k / m * PetscSqr(PetscSinReal(nfree * PETSC_PI / (2.0 * (nfree + 1))));
    PetscReal lambda;
    PetscInt its;
    PetscCall(Chain(n, nc, k, m, &lambda, &its));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "power iteration: lambda_max = %.10e (exact %.10e), relative error %.2e after %" PetscInt_FMT " iterations\n",
                          (double)lambda, (double)exact, (double)(lambda / exact - 1), its));
    /* the Rayleigh quotient approaches lambda_max from below (measured -5.8e-10 after 930 iterations with the stopping
       tolerance 1e-10 per 10 iterations); 1e-7 leaves a factor 100 for another start vector or rounding */
    PetscCheck(lambda <= exact * (1 + 1e-12) && lambda > exact * (1 - 1e-7), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "power iteration is off");
  }
  {
    /* FNV-1a 64-bit test vectors (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/) */
    PetscCheck(SKHashBytes(SK_FNV_SEED, "", 0) == 0xcbf29ce484222325ULL, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "hash of the empty string");
    PetscCheck(SKHashBytes(SK_FNV_SEED, "a", 1) == 0xaf63dc4c8601ec8cULL, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "hash of 'a'");
    PetscCheck(SKHashBytes(SK_FNV_SEED, "foobar", 6) == 0x85944171f73967e8ULL, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "hash of 'foobar'");
    /* chaining: hashing in two pieces is hashing the whole */
    PetscCheck(SKHashBytes(SKHashBytes(SK_FNV_SEED, "foo", 3), "bar", 3) == 0x85944171f73967e8ULL, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "chained hash");
  }
  PetscCall(PetscFinalize());
  return 0;
}
