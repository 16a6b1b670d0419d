/* Private state of the rough-surface code (module iga): the random field generator and the B-spline height surface. */
#ifndef STICKSLIP_ROUGHIMPL_H
#define STICKSLIP_ROUGHIMPL_H

#include <stickslip/rough.h>
#include <fftw3.h>

struct _p_SKRandomField {
  SKRandomFieldParams p;
  PetscInt m[2];      /* periodic grid, points per direction */
  PetscReal dx[2];    /* grid spacing (m) */
  PetscReal *amp;     /* sqrt of the discrete spectral weights, m[0] m[1] values, x fastest */
  fftw_complex *work; /* m[0] m[1] values: the random coefficients, then the field */
  fftw_plan plan;     /* in-place backward 2D transform of work */
};

struct _p_SKRoughSurface {
  PetscInt n[2];
  PetscReal length[2];
  PetscReal *knots[2]; /* clamped cubic knot vectors, n[d] + 4 values (m) */
  PetscReal *points;   /* control net, 3 n[0] n[1] values (m) */
  PetscReal *z;        /* control heights, n[0] n[1] values (m) */
};

/* log events (registered by SKRoughInitializePackage) */
PETSC_EXTERN PetscLogEvent SK_ROUGH_Sample, SK_ROUGH_Interpolate;

#endif
