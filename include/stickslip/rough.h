/* stickslip iga: random rough surfaces (section 4 of lugre-mortar-explicit-contact-2024). Three layers:
     1. a counter-based random number generator: the numbers are a pure function of (seed, stream, counter), so a
        realisation is the same whatever rank, group or order computes it;
     2. a stationary Gaussian random field with prescribed RMS roughness and correlation length, sampled on an
        nx x ny grid by the spectral method (FFTW) over a periodic domain padded beyond the sampled rectangle;
     3. a C1 (bicubic B-spline) surface interpolating the samples, whose control net is the bottom face of an IGA patch,
        and a map that moves the bottom nodes of a finite-element plate onto it.
   Spectra are registered by name (SKRoughSpectrumRegister()): an isotropic spectral density is one function of the
   wavenumber and the correlation length plus one registration line in SKRoughSpectrumRegisterBuiltin(). Theory and choices
   in docs/theory.md ("Random rough surfaces"). SI units: lengths in m, wavenumbers in rad/m. */
#ifndef STICKSLIP_ROUGH_H
#define STICKSLIP_ROUGH_H

#include <stickslip/core.h>
#include <stdint.h>

/* ---- counter-based random numbers ---- */

/* 64-bit hash of (SEED, STREAM, COUNTER): three rounds of the splitmix64 finaliser (Steele et al. 2014), each
   round mixing in one argument. Pure; every bit of every argument changes about half of the output bits. */
PETSC_EXTERN uint64_t SKRandomHash(uint64_t seed, uint64_t stream, uint64_t counter);
/* Uniform number in (0, 1] from the top 53 bits of SKRandomHash(). Pure. */
PETSC_EXTERN PetscReal SKRandomUniform(uint64_t seed, uint64_t stream, uint64_t counter);
/* Two independent standard normal numbers (Box-Muller) from the uniforms at counters 2 COUNTER and 2 COUNTER + 1.
   Pure. */
PETSC_EXTERN void SKRandomNormalPair(uint64_t seed, uint64_t stream, uint64_t counter, PetscReal *z0, PetscReal *z1);

/* ---- spectra ---- */

/* An isotropic spectral density of a 2D field with unit variance and correlation length LC (m) at wavenumber K >= 0
   (rad/m), up to a constant factor (the generator normalises the discrete spectrum to the prescribed variance). The
   correlation length is where the autocorrelation falls to 1/e. Pure. Built in: "gaussian", C(r) = exp(-(r / lc)^2),
   S(k) proportional to exp(-(k lc)^2 / 4). */
typedef PetscReal (*SKRoughSpectrumFn)(PetscReal k, PetscReal lc);
/* Registers the log events of the rough-surface code. Idempotent. (The built-in spectra are registered on the first
   use of the spectrum registry.) */
PETSC_EXTERN PetscErrorCode SKRoughInitializePackage(void);
/* Adds spectrum NAME (a duplicate name is an error). */
PETSC_EXTERN PetscErrorCode SKRoughSpectrumRegister(const char name[], SKRoughSpectrumFn fn);
/* The spectrum NAME; *fn = NULL when unknown. */
PETSC_EXTERN PetscErrorCode SKRoughSpectrumFind(const char name[], SKRoughSpectrumFn *fn);
/* Comma-separated names of the registered spectra, into buf[len]. */
PETSC_EXTERN PetscErrorCode SKRoughSpectrumList(char buf[], size_t len);

/* ---- random field ---- */

typedef struct {
  PetscReal rms;                /* RMS roughness sigma (m), >= 0 (0: a flat surface) */
  PetscReal correlation_length; /* l_c (m), > 0 and >= the grid spacing */
  PetscReal length[2];          /* sides of the sampled rectangle (m), > 0 */
  PetscInt n[2];                /* samples per side, >= 4 (cubic interpolation); spacing length[d] / (n[d] - 1) */
  char spectrum[32];            /* registered spectrum name */
  uint64_t seed;                /* seed of the random numbers */
} SKRandomFieldParams;

/* Defaults: rms 0, correlation length 1, a unit square, 20 x 20 samples, "gaussian", seed 1. */
PETSC_EXTERN PetscErrorCode SKRandomFieldParamsSetDefaults(SKRandomFieldParams *p);

typedef struct _p_SKRandomField *SKRandomField;
/* Prepares the sampling of a field with parameters P (copied): the periodic grid (the sampled rectangle plus 4 l_c of
   padding in each direction, so that the periodic images of the autocorrelation are below exp(-16)), the discrete
   spectral weights (normalised to sum to rms^2) and the FFTW plan (FFTW_ESTIMATE: the same plan, hence the same bits,
   on every process). Bad parameters are PETSC_ERR_ARG_OUTOFRANGE errors with the value. Not collective. */
PETSC_EXTERN PetscErrorCode SKRandomFieldCreate(const SKRandomFieldParams *p, SKRandomField *field);
PETSC_EXTERN PetscErrorCode SKRandomFieldDestroy(SKRandomField *field);
/* Samples realisation REALISATION (>= 0; the stream of the random numbers) into h[n[0] * n[1]] (m, x fastest: h[j
   n[0] + i] at (i dx, j dy)). A pure function of the parameters and REALISATION. */
PETSC_EXTERN PetscErrorCode SKRandomFieldSample(SKRandomField field, PetscInt realisation, PetscReal h[]);
/* The size of the periodic grid (points per direction), for logs and benchmarks. Either output may be NULL. */
PETSC_EXTERN PetscErrorCode SKRandomFieldGetPeriodicGrid(SKRandomField field, PetscInt *m0, PetscInt *m1);

/* ---- bicubic B-spline surface ---- */

typedef struct _p_SKRoughSurface *SKRoughSurface;
/* The C1 (in fact C2) bicubic B-spline height surface z = s(x, y) over [0, LENGTH[0]] x [0, LENGTH[1]] that
   interpolates the samples h[n[0] * n[1]] (layout of SKRandomFieldSample()) at the grid points: clamped cubic knot
   vectors with the interior knots averaged from the uniform sample parameters (Piegl and Tiller 1997, eq. 9.8), and two
   sets of 1D banded solves (along x for every row, then along y for every column). N[d] >= 4. */
PETSC_EXTERN PetscErrorCode SKRoughSurfaceCreate(const PetscInt n[2], const PetscReal length[2], const PetscReal h[],
                                                 SKRoughSurface *surface);
/* SKRoughSurfaceCreate() with given clamped cubic knot vectors KNOTS_X[n[0] + 4], KNOTS_Y[n[1] + 4] (m, on [0, LENGTH[d]];
   either may be NULL for the averaged one): the global interpolation system of Piegl and Tiller (1997, section 9.2.5)
   on the knots of an IGA patch, so that the patch's face is the interpolating surface. Knots whose basis cannot
   interpolate at the uniform sample points (Schoenberg-Whitney: N_i(x_i) = 0 for some i) are a PETSC_ERR_ARG_WRONG
   error that says which. */
PETSC_EXTERN PetscErrorCode SKRoughSurfaceCreateWithKnots(const PetscInt n[2], const PetscReal length[2], const PetscReal knots_x[],
                                                          const PetscReal knots_y[], const PetscReal h[], SKRoughSurface *surface);
PETSC_EXTERN PetscErrorCode SKRoughSurfaceDestroy(SKRoughSurface *surface);
/* Height s(x, y) (m) at (X, Y) (m; points outside the rectangle are clamped onto it). Pure after creation. */
PETSC_EXTERN PetscReal SKRoughSurfaceHeight(SKRoughSurface surface, PetscReal x, PetscReal y);
/* The control net for an IGA patch: n[0] x n[1] control points (x fastest), points[3 * (j n[0] + i)] = (x, y, z)
   (m; x and y are the Greville abscissae, which makes the surface an exact graph over the rectangle), and the knot
   vectors knots_x[n[0] + 4], knots_y[n[1] + 4] (m). Arrays owned by SURFACE; any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKRoughSurfaceGetControlNet(SKRoughSurface surface, PetscInt n[2], const PetscReal *points[],
                                                        const PetscReal *knots_x[], const PetscReal *knots_y[]);
/* Maps the nodes of a plate onto the surface: COORDS[nnodes][3] (m) of a body that fills the box [LOWER, UPPER] are
   moved in z by (s(x - lower_x, y - lower_y) - SHIFT) (upper_z - z) / (upper_z - lower_z), so that the nodes of the
   bottom face follow the surface lowered by SHIFT, the top face stays where it is and the nodes in between are blended
   linearly (elements stay valid while the height differences over an element are small against its height; the
   caller checks the mesh afterwards). Pass SHIFT = the minimum of the surface over the bottom nodes to rest the plate
   on its highest asperity. */
PETSC_EXTERN PetscErrorCode SKRoughSurfaceMapNodes(SKRoughSurface surface, const PetscReal lower[3], const PetscReal upper[3],
                                                   PetscReal shift, PetscInt nnodes, PetscReal coords[]);

#endif
