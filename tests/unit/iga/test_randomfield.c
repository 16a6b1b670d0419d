/* The random field generator (include/stickslip/rough.h) against the statistics it is built to have.
   - counter-based numbers: uniform mean 1/2 and variance 1/12, normal mean 0, variance 1, and no correlation between
     neighbouring counters or streams, each within 3 standard errors of N samples;
   - the field (Gaussian autocorrelation): over R realisations the per-realisation spatial averages of h^2 / sigma^2,
     h^3 / sigma^3, h^4 / sigma^4 and h(x) h(x + l_c) / sigma^2 are independent samples; their means must lie within 3
     standard errors (the sample standard deviation over sqrt(R)) of the targets 1, 0, 3 and exp(-1). The targets are
     exact for the generator up to the periodic images of the autocorrelation (below exp(-16)) and the spectrum cut at
     the Nyquist wavenumber (below exp(-60) here), far below the standard errors; 3 standard errors is the usual
     two-sided 0.3 % test level, and the seeds are fixed, so the outcome is reproducible;
   - determinism: the same realisation gives the same bits whatever was sampled before, from a field created anew,
     and on every MPI rank (each rank samples in another order; run on 1 and 2 ranks);
   - bad parameters (rms < 0, l_c <= 0, l_c below the grid spacing, fewer than 4 samples) are refused. */
#include <stickslip/rough.h>
#include <stickslip/dynamics.h>

/* mean and standard error of x[0..n-1] */
static void MeanSE(PetscInt n, const PetscReal x[], PetscReal *mean, PetscReal *se)
{
  PetscReal s = 0, s2 = 0;
  for (PetscInt i = 0; i < n; i++) s += x[i];
  s /= n;
  for (PetscInt i = 0; i < n; i++) s2 += PetscSqr(x[i] - s);
  *mean = s;
  *se   = PetscSqrtReal(s2 / (n - 1) / n);
}

static PetscErrorCode CheckWithin(const char what[], PetscInt n, const PetscReal x[], PetscReal target)
{
  PetscReal mean, se;

  PetscFunctionBeginUser;
  MeanSE(n, x, &mean, &se);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-28s %.6f +- %.6f (target %.6f, %.2f standard errors)\n", what, (double)mean, (double)se,
                        (double)target, (double)((mean - target) / se)));
  PetscCheck(PetscAbsReal(mean - target) <= 3 * se, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %g is %g standard errors from %g", what,
             (double)mean, (double)((mean - target) / se), (double)target);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestNumbers(void)
{
  const PetscInt N = 200000;
  PetscReal *u, *u2, *z, *z2, *c1, *c2;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(N, &u, N, &u2, N, &z, N, &z2, N, &c1, N, &c2));
  for (PetscInt i = 0; i < N; i++) {
    PetscReal a, b;
    u[i]  = SKRandomUniform(7, 3, (uint64_t)i);
    u2[i] = PetscSqr(u[i] - 0.5);
    SKRandomNormalPair(7, 3, (uint64_t)i, &a, &b);
    z[i]  = a;
    z2[i] = b * b;
    /* neighbouring counters and neighbouring streams */
    c1[i] = (u[i] - 0.5) * (SKRandomUniform(7, 3, (uint64_t)i + 1) - 0.5);
    c2[i] = (u[i] - 0.5) * (SKRandomUniform(7, 4, (uint64_t)i) - 0.5);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "counter-based numbers, %" PetscInt_FMT " samples:\n", N));
  PetscCall(CheckWithin("uniform mean", N, u, 0.5));
  PetscCall(CheckWithin("uniform variance", N, u2, 1.0 / 12));
  PetscCall(CheckWithin("normal mean", N, z, 0));
  PetscCall(CheckWithin("normal variance", N, z2, 1));
  PetscCall(CheckWithin("covariance counter, counter+1", N, c1, 0));
  PetscCall(CheckWithin("covariance stream, stream+1", N, c2, 0));
  PetscCall(PetscFree6(u, u2, z, z2, c1, c2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ensemble statistics of R realisations on an n x n grid with l_c = lag grid spacings. */
static PetscErrorCode TestStatistics(PetscReal length, PetscInt n, PetscInt lag, PetscInt R)
{
  SKRandomFieldParams p;
  SKRandomField field;
  PetscReal *h, *m2, *m3, *m4, *rho;
  const PetscReal dx = length / (n - 1);

  PetscFunctionBeginUser;
  PetscCall(SKRandomFieldParamsSetDefaults(&p));
  p.rms                = 2e-3;
  p.correlation_length = lag * dx;
  p.length[0] = p.length[1] = length;
  p.n[0] = p.n[1] = n;
  p.seed          = 2024;
  PetscCall(SKRandomFieldCreate(&p, &field));
  PetscCall(PetscMalloc5(n * n, &h, R, &m2, R, &m3, R, &m4, R, &rho));
  for (PetscInt r = 0; r < R; r++) {
    PetscReal s2 = 0, s3 = 0, s4 = 0, c = 0;
    PetscInt npairs = 0;
    PetscCall(SKRandomFieldSample(field, r, h));
    for (PetscInt k = 0; k < n * n; k++) {
      const PetscReal x = h[k] / p.rms;
      s2 += x * x, s3 += x * x * x, s4 += x * x * x * x;
    }
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i + lag < n; i++, npairs += 2) c += h[j * n + i] * h[j * n + i + lag] + h[i * n + j] * h[(i + lag) * n + j];
    m2[r]  = s2 / (n * n);
    m3[r]  = s3 / (n * n);
    m4[r]  = s4 / (n * n);
    rho[r] = c / npairs / PetscSqr(p.rms);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "Gaussian field, %" PetscInt_FMT " x %" PetscInt_FMT " samples over %g m, l_c = %g m, %" PetscInt_FMT
                        " realisations:\n",
                        n, n, (double)length, (double)p.correlation_length, R));
  PetscCall(CheckWithin("<h^2> / sigma^2", R, m2, 1));
  if (lag < n) PetscCall(CheckWithin("autocorrelation at l_c", R, rho, PetscExpReal(-1)));
  PetscCall(CheckWithin("skewness <h^3> / sigma^3", R, m3, 0));
  PetscCall(CheckWithin("kurtosis <h^4> / sigma^4", R, m4, 3));
  PetscCall(PetscFree5(h, m2, m3, m4, rho));
  PetscCall(SKRandomFieldDestroy(&field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Same bits whatever came before, from a new field, and on every rank (each rank samples in another order). */
static PetscErrorCode TestDeterminism(void)
{
  SKRandomFieldParams p;
  SKRandomField f1, f2;
  const PetscInt nr = 6;
  PetscReal h[20 * 20], g[20 * 20];
  unsigned long long hash[6], hmin[6], hmax[6];
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(SKRandomFieldParamsSetDefaults(&p));
  p.rms                = 1e-3;
  p.correlation_length = 0.1;
  p.seed               = 99;
  PetscCall(SKRandomFieldCreate(&p, &f1));
  PetscCall(SKRandomFieldCreate(&p, &f2));
  for (PetscInt k = 0; k < nr; k++) {
    const PetscInt r = (k + 2 * rank) % nr; /* another order on every rank */
    PetscCall(SKRandomFieldSample(f1, r, h));
    hash[r] = SKHashBytes(SK_FNV_SEED, h, sizeof(h));
  }
  for (PetscInt r = nr - 1; r >= 0; r--) {
    PetscCall(SKRandomFieldSample(f2, r, g));
    PetscCheck(SKHashBytes(SK_FNV_SEED, g, sizeof(g)) == hash[r], PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "realisation %" PetscInt_FMT " differs between two fields sampled in other orders", r);
  }
  PetscCallMPI(MPI_Allreduce(hash, hmin, nr, MPI_UNSIGNED_LONG_LONG, MPI_MIN, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(hash, hmax, nr, MPI_UNSIGNED_LONG_LONG, MPI_MAX, PETSC_COMM_WORLD));
  for (PetscInt r = 0; r < nr; r++)
    PetscCheck(hmin[r] == hmax[r], PETSC_COMM_SELF, PETSC_ERR_PLIB, "realisation %" PetscInt_FMT " differs between ranks", r);
  PetscCall(
      PetscPrintf(PETSC_COMM_WORLD, "determinism: %" PetscInt_FMT " realisations bit-identical in any order on %d rank(s)\n", nr, size));
  PetscCall(SKRandomFieldDestroy(&f1));
  PetscCall(SKRandomFieldDestroy(&f2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExpectFailure(const SKRandomFieldParams *p, const char what[])
{
  SKRandomField f = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKRandomFieldCreate(p, &f);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s was not refused (error %d)", what, (int)ierr);
  PetscCall(SKRandomFieldDestroy(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadParameters(void)
{
  SKRandomFieldParams p, q;

  PetscFunctionBeginUser;
  PetscCall(SKRandomFieldParamsSetDefaults(&p));
  q     = p;
  q.rms = -1e-3;
  PetscCall(ExpectFailure(&q, "rms < 0"));
  q                    = p;
  q.correlation_length = 0;
  PetscCall(ExpectFailure(&q, "l_c = 0"));
  q                    = p;
  q.correlation_length = 0.04; /* spacing 1/19 */
  PetscCall(ExpectFailure(&q, "l_c below the grid spacing"));
  q      = p;
  q.n[1] = 3;
  PetscCall(ExpectFailure(&q, "3 samples"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestDeterminism());
  PetscCall(TestBadParameters());
  PetscCall(TestNumbers());
  /* l_c = 4 spacings (lag along the grid) on the paper's kind of grid; then a long correlation length (l_c = 10 L,
     the paper's largest), whose variance comes from the few lowest wavenumbers of the long periodic grid (the lag l_c
     is then beyond the plate: no autocorrelation check) */
  PetscCall(TestStatistics(1.0, 21, 4, 4000));
  PetscCall(TestStatistics(1.0, 21, 200, 300));
  PetscCall(PetscFinalize());
  return 0;
}
