/* contact: closest-point projections with closed forms: plane, circle (2D) / cylinder (3D), sphere (3D). */
#include "surfaceimpl.h"

PetscBool SKSurfaceProject_Plane(const struct _p_SKRigidSurface *s, const PetscReal y[], PetscReal cutoff, SKSurfaceProjection *p)
{
  const PetscInt dim = s->dim;
  PetscReal g        = 0;

  (void)cutoff;
  for (PetscInt d = 0; d < dim; d++) g += (y[d] - s->point[d]) * s->direction[d];
  p->distance = g;
  for (PetscInt d = 0; d < dim; d++) {
    p->point[d]  = y[d] - g * s->direction[d];
    p->normal[d] = s->direction[d];
    for (PetscInt k = 0; k < dim - 1; k++) p->tangent[k][d] = s->tangent[k][d];
  }
  return PETSC_TRUE;
}

/* Circle and cylinder share the radial projection in the plane normal to the axis (no axis in 2D). On the axis the
   closest point is not unique: every direction is as close; we take the first tangent direction of the axis (2D: the
   x axis), so the result stays finite and deterministic. */
PetscBool SKSurfaceProject_Circle(const struct _p_SKRigidSurface *s, const PetscReal y[], PetscReal cutoff, SKSurfaceProjection *p)
{
  const PetscInt dim = s->dim;
  PetscReal r[3] = {0, 0, 0}, axial = 0, rho = 0, u[3] = {0, 0, 0};

  (void)cutoff;
  for (PetscInt d = 0; d < dim; d++) r[d] = y[d] - s->point[d];
  if (dim == 3) {
    for (PetscInt d = 0; d < 3; d++) axial += r[d] * s->direction[d];
    for (PetscInt d = 0; d < 3; d++) r[d] -= axial * s->direction[d];
  }
  for (PetscInt d = 0; d < dim; d++) rho += r[d] * r[d];
  rho = PetscSqrtReal(rho);
  if (rho > 0)
    for (PetscInt d = 0; d < dim; d++) u[d] = r[d] / rho;
  else if (dim == 2)
    u[0] = 1;
  else {
    PetscReal t[2][3];
    SKSurfaceTangents(3, s->direction, s->direction, t);
    for (PetscInt d = 0; d < 3; d++) u[d] = t[0][d];
  }
  p->distance = s->side * (rho - s->radius);
  for (PetscInt d = 0; d < dim; d++) {
    p->point[d]  = s->point[d] + (dim == 3 ? axial * s->direction[d] : 0) + s->radius * u[d];
    p->normal[d] = s->side * u[d];
  }
  /* 3D: the axis is a tangent everywhere, so the basis (axis, n x axis) never degenerates */
  SKSurfaceTangents(dim, p->normal, s->direction, p->tangent);
  return PETSC_TRUE;
}

/* At the centre every direction is as close; we take the reference direction. */
PetscBool SKSurfaceProject_Sphere(const struct _p_SKRigidSurface *s, const PetscReal y[], PetscReal cutoff, SKSurfaceProjection *p)
{
  PetscReal r[3], rho = 0, u[3];

  (void)cutoff;
  for (PetscInt d = 0; d < 3; d++) r[d] = y[d] - s->point[d], rho += r[d] * r[d];
  rho = PetscSqrtReal(rho);
  for (PetscInt d = 0; d < 3; d++) u[d] = rho > 0 ? r[d] / rho : s->direction[d];
  p->distance = s->side * (rho - s->radius);
  for (PetscInt d = 0; d < 3; d++) {
    p->point[d]  = s->point[d] + s->radius * u[d];
    p->normal[d] = s->side * u[d];
  }
  SKSurfaceTangents(3, p->normal, s->direction, p->tangent);
  return PETSC_TRUE;
}
