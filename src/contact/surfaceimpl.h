/* contact: private structure of a rigid surface (surface*.c) and the projection kernels of the built-in types. Only
   src/contact and white-box unit tests include it. */
#ifndef STICKSLIP_SURFACEIMPL_H
#define STICKSLIP_SURFACEIMPL_H

#include <stickslip/contact.h>

/* Projection of Y (the point in the surface's frame at t = 0) by one surface type: fills distance, point, normal,
   tangent, iterations and exact of P (not the velocity); returns PETSC_FALSE when it did not converge. Pure. */
typedef PetscBool (*SKSurfaceProjectFn)(const struct _p_SKRigidSurface *s, const PetscReal y[], PetscReal cutoff, SKSurfaceProjection *p);

struct _p_SKRigidSurface {
  MPI_Comm comm;
  const char *type; /* registered name, static storage */
  PetscInt dim;
  SKSurfaceProjectFn project;
  PetscReal velocity[3];   /* rigid translation velocity (m/s) */
  PetscBool moving;        /* velocity != 0 */
  PetscReal point[3];      /* plane: a point; circle, cylinder, sphere: the centre; sine: the origin (m) */
  PetscReal direction[3];  /* plane: unit normal; cylinder: unit axis; sphere: unit tangent reference direction */
  PetscReal tangent[2][3]; /* plane: its constant tangent basis */
  PetscReal radius;        /* circle, cylinder, sphere (m) */
  PetscReal side;          /* +1 body outside / above, -1 inside / below (plane: +1, the normal says it) */
  PetscReal amplitude;     /* sine (m) */
  PetscReal wavenumber[2]; /* sine: 2 pi / wavelength (1/m); the second is 0 in 2D */
};

PETSC_INTERN PetscBool SKSurfaceProject_Plane(const struct _p_SKRigidSurface *, const PetscReal[], PetscReal, SKSurfaceProjection *);
PETSC_INTERN PetscBool SKSurfaceProject_Circle(const struct _p_SKRigidSurface *, const PetscReal[], PetscReal, SKSurfaceProjection *);
PETSC_INTERN PetscBool SKSurfaceProject_Sphere(const struct _p_SKRigidSurface *, const PetscReal[], PetscReal, SKSurfaceProjection *);
PETSC_INTERN PetscBool SKSurfaceProject_Sine(const struct _p_SKRigidSurface *, const PetscReal[], PetscReal, SKSurfaceProjection *);

/* Tangent basis at a point with unit normal N (DIM 2: T[0] = N turned by +90 degrees; DIM 3: T[0] = the part of the
   unit reference E orthogonal to N, normalised, T[1] = N x T[0]). In 3D the basis is continuous wherever E is not
   parallel to N; within 1e-8 of parallel it switches to the coordinate axis least aligned with N (no NaN). Pure.
   Inline: every contact node calls it at every evaluation. */
static inline void SKSurfaceTangents(PetscInt dim, const PetscReal n[], const PetscReal e[], PetscReal t[2][3])
{
  PetscReal dot = 0, s = 0, ref[3] = {0, 0, 0};

  if (dim == 2) {
    t[0][0] = -n[1], t[0][1] = n[0], t[0][2] = 0;
    return;
  }
  for (PetscInt d = 0; d < 3; d++) dot += e[d] * n[d];
  for (PetscInt d = 0; d < 3; d++) t[0][d] = e[d] - dot * n[d], s += PetscSqr(t[0][d]);
  if (s < 1e-16) { /* E (nearly) parallel to N: the pole of the basis, where no continuous choice exists */
    PetscInt k = 0;
    for (PetscInt d = 1; d < 3; d++)
      if (PetscAbsReal(n[d]) < PetscAbsReal(n[k])) k = d;
    ref[k] = 1;
    s      = 0;
    for (PetscInt d = 0; d < 3; d++) t[0][d] = ref[d] - n[k] * n[d], s += PetscSqr(t[0][d]);
  }
  s = 1 / PetscSqrtReal(s);
  for (PetscInt d = 0; d < 3; d++) t[0][d] *= s;
  t[1][0] = n[1] * t[0][2] - n[2] * t[0][1];
  t[1][1] = n[2] * t[0][0] - n[0] * t[0][2];
  t[1][2] = n[0] * t[0][1] - n[1] * t[0][0];
}

/* Newton iterations allowed to a projection before it counts as failed */
#define SK_SURFACE_MAX_IT 60

#endif
