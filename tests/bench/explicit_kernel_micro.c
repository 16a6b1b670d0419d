/* Micro-benchmark of the explicit hot path: Neo-Hookean internal force of Q4 (plane strain) and H8 blocks on one core,
   in ns per element-cycle and GFLOP/s, against this core's double-precision FMA peak measured in the same run.
   Usage: explicit_kernel_micro [-q4_cells N] [-h8_cells N] [-reps R] [-peak 0]; prints one RESULT line (-peak 0 skips
   the peak, e.g. under valgrind: tests/bench/kernel_instructions.py).
   Build with the same flags as the library (for the peak to mean anything: -O3 -march=native -ffp-contract=fast). */
#include <stickslip/fem.h>
#include "../unit/fem/fem_test_mesh.h"

/* Floating-point operations of one element-cycle, counted from the loops in src/fem/kernels.c (an FMA counts 2):
   per quadrature point, dX/dxi, dN/dX and F (n d^2 FMA each), the residual (n d^2 FMA) and the scaling of P (d^2),
   two determinant + inverse evaluations (Jacobian and F: 42 flops in 3D, 8 in 2D), w det J (1), the Neo-Hookean
   coefficient (2) and P = mu F + c F^{-T} (3 d^2 counting mu F as a multiply); log(J) counts as 1. */
static double FlopsPerElement(PetscInt d, PetscInt n, PetscInt nq)
{
  const double inv = d == 3 ? 42.0 : 8.0;
  return nq * (2.0 * 4 * n * d * d + d * d + 2 * inv + 1 + 2 + 1 + 3.0 * d * d + (d == 2 ? 1 : 0));
}

/* Peak: 16 independent accumulators of SK_LANES doubles, acc = acc * a + b, enough to fill two FMA pipes with a
   latency of 4 cycles at 8 doubles per instruction. Compiled with the same flags as the kernels. */
static double MeasurePeak(PetscBool run)
{
  enum { K = 16 };
  PetscReal acc[K][SK_LANES], a = 0.999999, b = 1e-7;
  const long iters = 4000000; /* ~0.02 s per repetition: the best of many dodges load from other processes */
  PetscLogDouble t0, t1;
  double best = 0.0;

  for (int rep = 0; run && rep < 25; rep++) {
    for (int k = 0; k < K; k++)
      for (int l = 0; l < SK_LANES; l++) acc[k][l] = 1.0 + 1e-3 * (k + l);
    PetscTime(&t0);
    for (long it = 0; it < iters; it++)
      for (int k = 0; k < K; k++)
        for (int l = 0; l < SK_LANES; l++) acc[k][l] = acc[k][l] * a + b;
    PetscTime(&t1);
    double s = 0.0;
    for (int k = 0; k < K; k++)
      for (int l = 0; l < SK_LANES; l++) s += acc[k][l];
    if (s == 42.0) printf("unlikely\n"); /* keep the loop alive */
    best = PetscMax(best, 2.0 * K * SK_LANES * (double)iters / (t1 - t0) * 1e-9);
  }
  return best;
}

static PetscErrorCode Bench(const char *name, PetscInt cells, PetscInt reps, double *ns, double *gflops)
{
  SKBasis basis;
  SKBasisInfo info;
  SKMaterial mat;
  SKTestMesh m;
  SKFEMFailure fail;
  PetscReal *u, *f;
  unsigned long long seed = 1;
  PetscLogDouble t0, t1, best = 1e300;

  PetscFunctionBeginUser;
  PetscCall(SKBasisCreate(name, &basis));
  PetscCall(SKBasisGetInfo(basis, &info));
  PetscCall(SKMaterialCreate("neo_hookean", info.dim == 2 ? SK_STRESS_STATE_PLANE_STRAIN : SK_STRESS_STATE_3D, 1e6, 0.3, 1000.0, &mat));
  PetscCall(SKTestMeshCreate(basis, cells, 1.0, 0.1, 3, &m));
  PetscCall(PetscMalloc2(m.nnodes * m.dim, &u, m.nnodes * m.dim, &f));
  for (PetscInt k = 0; k < m.nnodes * m.dim; k++) u[k] = 1e-3 / cells * SKTestRand(&seed);
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PetscArrayzero(f, m.nnodes * m.dim)); /* part of a time step too: counted */
    PetscCall(PetscTime(&t0));
    PetscCall(SKFEMInternalForce(basis, mat, m.nelem, m.conn, m.X, u, f, NULL, &fail));
    PetscCall(PetscTime(&t1));
    PetscCheck(fail.kind == SK_FEM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "benchmark state inverted");
    best = PetscMin(best, t1 - t0);
  }
  *ns     = best / m.nelem * 1e9;
  *gflops = FlopsPerElement(info.dim, info.nodes, info.qpoints) * m.nelem / best * 1e-9;
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "# %s: %" PetscInt_FMT " elements, %.1f ns/element, %.0f flops/element, %.2f GFLOP/s (best of %" PetscInt_FMT ")\n",
                        name, m.nelem, *ns, FlopsPerElement(info.dim, info.nodes, info.qpoints), *gflops, reps));
  PetscCall(PetscFree2(u, f));
  PetscCall(SKTestMeshDestroy(&m));
  PetscCall(SKMaterialDestroy(&mat));
  PetscCall(SKBasisDestroy(&basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt q4_cells = 256, h8_cells = 40, reps = 20;
  PetscBool peak_run = PETSC_TRUE;
  double q4_ns, q4_gf, h8_ns, h8_gf, peak;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-q4_cells", &q4_cells, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-h8_cells", &h8_cells, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-peak", &peak_run, NULL));
  PetscCall(Bench("Q4", q4_cells, reps, &q4_ns, &q4_gf));
  PetscCall(Bench("H8", h8_cells, reps, &h8_ns, &h8_gf));
  peak = MeasurePeak(peak_run);
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
                        "RESULT explicit_kernel_micro q4_ns=%.1f h8_ns=%.1f h8_gflops=%.2f peak_gflops=%.1f h8_peak_fraction=%.3f\n", q4_ns,
                        h8_ns, h8_gf, peak, h8_gf / peak));
  PetscCall(PetscFinalize());
  return 0;
}
