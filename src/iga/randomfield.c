/* iga: stationary Gaussian random fields for rough surfaces. A counter-based generator (a pure function of seed,
   stream and counter), the registry of spectra, and sampling by the spectral method: random complex coefficients
   weighted by the square root of the discrete spectrum, one inverse FFT over a padded periodic grid, the real part. */
#include <stickslip/rough.h>
#include "roughimpl.h"
#include "shared/registry.h"

PetscLogEvent SK_ROUGH_Sample, SK_ROUGH_Interpolate;

uint64_t SKRandomHash(uint64_t seed, uint64_t stream, uint64_t counter)
{
  const uint64_t arg[3] = {seed, stream, counter};
  uint64_t h            = 0x6a09e667f3bcc909ULL; /* any odd constant: the fractional bits of sqrt(2) */

  for (int r = 0; r < 3; r++) {
    /* one splitmix64 step per argument: add the argument and the golden-ratio increment, then the finaliser */
    h += arg[r] + 0x9e3779b97f4a7c15ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
  }
  return h;
}

PetscReal SKRandomUniform(uint64_t seed, uint64_t stream, uint64_t counter)
{
  return ((SKRandomHash(seed, stream, counter) >> 11) + 1) * 0x1.0p-53;
}

void SKRandomNormalPair(uint64_t seed, uint64_t stream, uint64_t counter, PetscReal *z0, PetscReal *z1)
{
  const PetscReal u1 = SKRandomUniform(seed, stream, 2 * counter), u2 = SKRandomUniform(seed, stream, 2 * counter + 1);
  const PetscReal r = PetscSqrtReal(-2 * PetscLogReal(u1)), theta = 2 * PETSC_PI * u2;

  *z0 = r * PetscCosReal(theta);
  *z1 = r * PetscSinReal(theta);
}

/* ---- spectra ---- */

/* C(r) = exp(-(r / lc)^2) in 2D: S(k) = lc^2 / (4 pi) exp(-(k lc)^2 / 4) (the constant is dropped) */
static PetscReal SpectrumGaussian(PetscReal k, PetscReal lc)
{
  return PetscExpReal(-0.25 * PetscSqr(k * lc));
}

/* The registry (shared/registry.h): spectrum name -> its spectral density function. Adding a spectrum: a function like
   SpectrumGaussian() and one line here. */
static PetscErrorCode SKRoughSpectrumRegisterBuiltin(void)
{
  PetscFunctionBegin;
  PetscCall(SKRoughSpectrumRegister("gaussian", SpectrumGaussian));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static SKRegistry SKRoughSpectra =
    SK_REGISTRY_INITIALIZER("spectrum", sizeof(((SKRandomFieldParams *)NULL)->spectrum) - 1, SKRoughSpectrumRegisterBuiltin);
static PetscBool SKRoughPackageInitialized = PETSC_FALSE;

static PetscErrorCode SKRoughFinalizePackage(void)
{
  PetscFunctionBegin;
  SKRoughPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughInitializePackage(void)
{
  PetscFunctionBegin;
  if (SKRoughPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SKRoughPackageInitialized = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("RoughSample", SK_CLASSID, &SK_ROUGH_Sample));
  PetscCall(PetscLogEventRegister("RoughInterpolate", SK_CLASSID, &SK_ROUGH_Interpolate));
  PetscCall(PetscRegisterFinalize(SKRoughFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSpectrumFind(const char name[], SKRoughSpectrumFn *fn)
{
  SKRegistryFn f = NULL;
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(SKRoughInitializePackage());
  PetscCall(SKRegistryFind(&SKRoughSpectra, name, &i));
  if (i >= 0) PetscCall(SKRegistryGet(&SKRoughSpectra, i, NULL, NULL, &f));
  *fn = (SKRoughSpectrumFn)f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSpectrumRegister(const char name[], SKRoughSpectrumFn fn)
{
  PetscFunctionBegin;
  PetscCall(SKRegistryAdd(&SKRoughSpectra, name, NULL, (SKRegistryFn)fn, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRoughSpectrumList(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKRoughInitializePackage());
  PetscCall(SKRegistryList(&SKRoughSpectra, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the field ---- */

PetscErrorCode SKRandomFieldParamsSetDefaults(SKRandomFieldParams *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->rms                = 0;
  p->correlation_length = 1;
  p->length[0] = p->length[1] = 1;
  p->n[0] = p->n[1] = 20;
  p->seed           = 1;
  PetscCall(PetscStrncpy(p->spectrum, "gaussian", sizeof(p->spectrum)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The smallest m >= n whose only prime factors are 2, 3, 5 and 7 (sizes FFTW transforms fastest). */
static PetscInt GoodFFTSize(PetscInt n)
{
  for (PetscInt m = PetscMax(n, 1);; m++) {
    PetscInt r = m;
    for (PetscInt f = 2; f <= 7; f++)
      while (r % f == 0) r /= f;
    if (r == 1) return m;
  }
}

/* Periodic images of the autocorrelation are farther than this many correlation lengths from any pair of samples. */
#define SK_ROUGH_PADDING 4.0
/* Largest periodic grid per direction (a field with l_c far above the grid spacing needs a long period). */
#define SK_ROUGH_MAX_GRID 8192

PetscErrorCode SKRandomFieldCreate(const SKRandomFieldParams *p, SKRandomField *field)
{
  SKRandomField f;
  SKRoughSpectrumFn spectrum;
  PetscReal sum = 0, dx[2];
  PetscInt m[2];
  PetscInt i;
  SKRegistryFn fn;

  PetscFunctionBegin;
  PetscCall(SKRoughInitializePackage());
  PetscCall(SKRegistryLookup(&SKRoughSpectra, PETSC_COMM_SELF, p->spectrum, &i));
  PetscCall(SKRegistryGet(&SKRoughSpectra, i, NULL, NULL, &fn));
  spectrum = (SKRoughSpectrumFn)fn;
  PetscCheck(p->rms >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "RMS roughness %g m must be >= 0", (double)p->rms);
  PetscCheck(p->correlation_length > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "correlation length %g m must be > 0",
             (double)p->correlation_length);
  for (PetscInt d = 0; d < 2; d++) {
    PetscCheck(p->n[d] >= 4 && p->length[d] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "a rough surface needs at least 4 samples over a positive length per direction (got %" PetscInt_FMT " over %g m)", p->n[d],
               (double)p->length[d]);
    dx[d] = p->length[d] / (p->n[d] - 1);
    PetscCheck(p->correlation_length >= dx[d], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "correlation length %g m is below the grid spacing %g m: the grid cannot resolve it", (double)p->correlation_length,
               (double)dx[d]);
    PetscCheck(p->n[d] - 1 + SK_ROUGH_PADDING * p->correlation_length / dx[d] <= SK_ROUGH_MAX_GRID, PETSC_COMM_SELF,
               PETSC_ERR_ARG_OUTOFRANGE, "correlation length %g m over a grid spacing %g m needs a periodic grid above %d points",
               (double)p->correlation_length, (double)dx[d], SK_ROUGH_MAX_GRID);
    m[d] = GoodFFTSize(p->n[d] - 1 + (PetscInt)PetscCeilReal(SK_ROUGH_PADDING * p->correlation_length / dx[d]));
  }
  /* every check before the first allocation: a refused parameter leaks nothing */
  PetscCall(PetscNew(&f));
  f->p = *p;
  for (PetscInt d = 0; d < 2; d++) f->dx[d] = dx[d], f->m[d] = m[d];
  PetscCall(PetscMalloc1(f->m[0] * f->m[1], &f->amp));
  for (PetscInt j = 0; j < f->m[1]; j++) {
    const PetscInt jj  = j <= f->m[1] / 2 ? j : j - f->m[1];
    const PetscReal ky = 2 * PETSC_PI * jj / (f->m[1] * f->dx[1]);
    for (PetscInt i = 0; i < f->m[0]; i++) {
      const PetscInt ii       = i <= f->m[0] / 2 ? i : i - f->m[0];
      const PetscReal kx      = 2 * PETSC_PI * ii / (f->m[0] * f->dx[0]);
      f->amp[j * f->m[0] + i] = spectrum(PetscSqrtReal(kx * kx + ky * ky), p->correlation_length);
      sum += f->amp[j * f->m[0] + i];
    }
  }
  if (!(sum > 0)) PetscCall(SKRandomFieldDestroy(&f));
  PetscCheck(sum > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "spectrum '%s' is zero on the whole grid", p->spectrum);
  /* the discrete spectrum sums to the variance: sum_k w_k cos(k r) is the autocorrelation of the real part */
  for (PetscInt k = 0; k < f->m[0] * f->m[1]; k++) f->amp[k] = p->rms * PetscSqrtReal(f->amp[k] / sum);
  f->work = fftw_alloc_complex((size_t)(f->m[0] * f->m[1]));
  PetscCheck(f->work, PETSC_COMM_SELF, PETSC_ERR_MEM, "FFTW could not allocate %" PetscInt_FMT " x %" PetscInt_FMT " values", f->m[0],
             f->m[1]);
  /* FFTW's row-major n0 x n1 array with n1 fastest: our y is its first dimension */
  f->plan = fftw_plan_dft_2d((int)f->m[1], (int)f->m[0], f->work, f->work, FFTW_BACKWARD, FFTW_ESTIMATE);
  PetscCheck(f->plan, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan a %" PetscInt_FMT " x %" PetscInt_FMT " transform", f->m[0],
             f->m[1]);
  *field = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRandomFieldDestroy(SKRandomField *field)
{
  PetscFunctionBegin;
  if (!*field) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*field)->plan) fftw_destroy_plan((*field)->plan);
  fftw_free((*field)->work);
  PetscCall(PetscFree((*field)->amp));
  PetscCall(PetscFree(*field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRandomFieldSample(SKRandomField f, PetscInt realisation, PetscReal h[])
{
  const PetscInt m0 = f->m[0], m1 = f->m[1];
  double *w = (double *)f->work; /* (re, im) pairs: fftw_complex may be C99 complex when complex.h is included */

  PetscFunctionBegin;
  PetscCheck(realisation >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "realisation %" PetscInt_FMT " must be >= 0", realisation);
  PetscCall(PetscLogEventBegin(SK_ROUGH_Sample, 0, 0, 0, 0));
  for (PetscInt k = 0; k < m0 * m1; k++) {
    PetscReal z0, z1;
    /* a wavenumber whose amplitude underflowed to zero (most of them for l_c far above the spacing) contributes nothing:
       the numbers are counter-based, so skipping them leaves every other wavenumber's, and the field, bitwise the same */
    if (f->amp[k] == 0) {
      w[2 * k] = w[2 * k + 1] = 0;
      continue;
    }
    SKRandomNormalPair(f->p.seed, (uint64_t)realisation, (uint64_t)k, &z0, &z1);
    w[2 * k]     = f->amp[k] * z0;
    w[2 * k + 1] = f->amp[k] * z1;
  }
  fftw_execute(f->plan);
  for (PetscInt j = 0; j < f->p.n[1]; j++)
    for (PetscInt i = 0; i < f->p.n[0]; i++) h[j * f->p.n[0] + i] = w[2 * (j * m0 + i)];
  PetscCall(PetscLogFlops(5.0 * m0 * m1 * PetscLog2Real((PetscReal)m0 * m1)));
  PetscCall(PetscLogEventEnd(SK_ROUGH_Sample, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRandomFieldGetPeriodicGrid(SKRandomField f, PetscInt *m0, PetscInt *m1)
{
  PetscFunctionBegin;
  if (m0) *m0 = f->m[0];
  if (m1) *m1 = f->m[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}
