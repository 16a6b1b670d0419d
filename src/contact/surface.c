/* contact: rigid surfaces, the obstacles of contact pairs: creation by type, from a <contact> element, and the
   projection entry points. The projections themselves are in surface_analytic.c and surface_sine.c. */
#include "surfaceimpl.h"

static PetscErrorCode SurfaceCreate(MPI_Comm comm, PetscInt dim, const char type[], SKSurfaceProjectFn project, SKRigidSurface *surface)
{
  SKRigidSurface s;

  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "Rigid surface needs dim 2 or 3, not %" PetscInt_FMT, dim);
  PetscCall(PetscNew(&s));
  s->comm    = comm;
  s->dim     = dim;
  s->type    = type;
  s->project = project;
  s->side    = 1;
  *surface   = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* V[dim] / |V| into U; an error naming WHAT when V is zero or not finite. */
static PetscErrorCode SurfaceNormalise(MPI_Comm comm, PetscInt dim, const PetscReal v[], const char what[], PetscReal u[])
{
  PetscReal n = 0;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim; d++) n += v[d] * v[d];
  n = PetscSqrtReal(n);
  PetscCheck(n > 0 && PetscIsNormalReal(n), comm, PETSC_ERR_ARG_OUTOFRANGE, "%s is zero or not finite", what);
  for (PetscInt d = 0; d < dim; d++) u[d] = v[d] / n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceCreatePlane(MPI_Comm comm, PetscInt dim, const PetscReal point[], const PetscReal normal[],
                                         SKRigidSurface *surface)
{
  SKRigidSurface s;
  PetscReal e[3] = {0, 0, 0};
  PetscInt k     = 0;

  PetscFunctionBegin;
  PetscCall(SurfaceNormalise(comm, dim, normal, "Contact plane normal", e)); /* before allocating: no leak on error */
  PetscCall(SurfaceCreate(comm, dim, "plane", SKSurfaceProject_Plane, &s));
  for (PetscInt d = 0; d < dim; d++) s->direction[d] = e[d], e[d] = 0;
  for (PetscInt d = 0; d < dim; d++) s->point[d] = point[d];
  /* a plane's basis is constant: t1 from the axis least aligned with n */
  for (PetscInt d = 1; d < dim; d++)
    if (PetscAbsReal(s->direction[d]) < PetscAbsReal(s->direction[k])) k = d;
  e[k] = 1;
  SKSurfaceTangents(dim, s->direction, e, s->tangent);
  *surface = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceCreateCircle(MPI_Comm comm, PetscInt dim, const PetscReal center[], const PetscReal axis[], PetscReal radius,
                                          PetscBool inside, SKRigidSurface *surface)
{
  SKRigidSurface s;
  PetscReal a[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCheck(radius > 0 && PetscIsNormalReal(radius), comm, PETSC_ERR_ARG_OUTOFRANGE, "Circle or cylinder radius %g m must be > 0",
             (double)radius);
  if (dim == 3) PetscCall(SurfaceNormalise(comm, 3, axis, "Cylinder axis", a));
  PetscCall(SurfaceCreate(comm, dim, dim == 2 ? "circle" : "cylinder", SKSurfaceProject_Circle, &s));
  for (PetscInt d = 0; d < 3; d++) s->direction[d] = a[d];
  for (PetscInt d = 0; d < dim; d++) s->point[d] = center[d];
  s->radius = radius;
  s->side   = inside ? -1 : 1;
  *surface  = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceCreateSphere(MPI_Comm comm, const PetscReal center[], PetscReal radius, const PetscReal reference[],
                                          PetscBool inside, SKRigidSurface *surface)
{
  const PetscReal ex[3] = {1, 0, 0};
  PetscReal e[3];
  SKRigidSurface s;

  PetscFunctionBegin;
  PetscCheck(radius > 0 && PetscIsNormalReal(radius), comm, PETSC_ERR_ARG_OUTOFRANGE, "Sphere radius %g m must be > 0", (double)radius);
  PetscCall(SurfaceNormalise(comm, 3, reference ? reference : ex, "Sphere reference direction", e));
  PetscCall(SurfaceCreate(comm, 3, "sphere", SKSurfaceProject_Sphere, &s));
  for (PetscInt d = 0; d < 3; d++) s->direction[d] = e[d];
  for (PetscInt d = 0; d < 3; d++) s->point[d] = center[d];
  s->radius = radius;
  s->side   = inside ? -1 : 1;
  *surface  = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceCreateSine(MPI_Comm comm, PetscInt dim, const PetscReal origin[], PetscReal amplitude,
                                        const PetscReal wavelength[], PetscBool below, SKRigidSurface *surface)
{
  SKRigidSurface s;

  PetscFunctionBegin;
  PetscCheck(amplitude >= 0 && PetscIsNormalReal(amplitude + 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "Sine amplitude %g m must be >= 0",
             (double)amplitude);
  for (PetscInt i = 0; i < dim - 1; i++)
    PetscCheck(wavelength[i] > 0 && PetscIsNormalReal(wavelength[i]), comm, PETSC_ERR_ARG_OUTOFRANGE, "Sine wavelength %g m must be > 0",
               (double)wavelength[i]);
  PetscCall(SurfaceCreate(comm, dim, "sine", SKSurfaceProject_Sine, &s));
  for (PetscInt d = 0; d < dim; d++) s->point[d] = origin[d];
  for (PetscInt i = 0; i < dim - 1; i++) s->wavenumber[i] = 2 * PETSC_PI / wavelength[i];
  s->amplitude = amplitude;
  s->side      = below ? -1 : 1;
  *surface     = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceDestroy(SKRigidSurface *surface)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*surface));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceSetVelocity(SKRigidSurface s, const PetscReal velocity[])
{
  PetscFunctionBegin;
  s->moving = PETSC_FALSE;
  for (PetscInt d = 0; d < s->dim; d++) s->velocity[d] = velocity[d], s->moving = (PetscBool)(s->moving || velocity[d] != 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceGetType(SKRigidSurface s, const char *type[], PetscInt *dim)
{
  PetscFunctionBegin;
  if (type) *type = s->type;
  if (dim) *dim = s->dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool SKRigidSurfaceProjectPoint(SKRigidSurface s, const PetscReal x[], PetscReal t, PetscReal cutoff, SKSurfaceProjection *p)
{
  PetscReal y[3] = {0, 0, 0};
  PetscBool ok;

  /* the surface at time t is the one at 0 shifted by velocity t: project x - velocity t, shift the point back */
  for (PetscInt d = 0; d < s->dim; d++) y[d] = x[d] - s->velocity[d] * t;
  p->iterations = 0;
  p->exact      = PETSC_TRUE;
  ok            = s->project(s, y, cutoff, p);
  for (PetscInt d = 0; d < s->dim; d++) p->velocity[d] = s->velocity[d];
  /* only when moving: the hot path would otherwise reload the point just stored by the projection (a stall) */
  if (s->moving)
    for (PetscInt d = 0; d < s->dim; d++) p->point[d] += s->velocity[d] * t;
  return ok;
}

PetscErrorCode SKRigidSurfaceProject(SKRigidSurface s, const PetscReal x[], PetscReal t, SKSurfaceProjection *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p))); /* the components beyond dim read zero */
  PetscCheck(SKRigidSurfaceProjectPoint(s, x, t, PETSC_MAX_REAL, p), s->comm, PETSC_ERR_NOT_CONVERGED,
             "Closest-point projection of (%g, %g, %g) m onto the %s surface did not converge in %d Newton iterations", (double)x[0],
             (double)x[1], (double)(s->dim == 3 ? x[2] : 0.0), s->type, SK_SURFACE_MAX_IT);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Reading a surface from a <contact> element. */

/* Which attributes each type reads; any other surface attribute given is an input error (a likely typo). */
static const char *const SurfaceAttributes[] = {"point", "normal", "center", "axis", "radius", "side", "amplitude", "wavelength"};
#define SK_SURFACE_NATTR 8
static const struct {
  const char *name;
  PetscInt dim; /* 0: both */
  const char *uses;
  const char *sides;    /* values of side; NULL: no side attribute */
  const char *inverted; /* the value that puts the body inside / below; the other one is the default */
} SurfaceTypes[] = {
    {"plane", 0, " point normal ", NULL, NULL},
    {"circle", 2, " center radius side ", "outside inside", "inside"},
    {"cylinder", 3, " center axis radius side ", "outside inside", "inside"},
    {"sphere", 3, " center axis radius side ", "outside inside", "inside"},
    {"sine", 0, " point amplitude wavelength side ", "above below", "below"},
};

/* Reads the list attribute ATTR of NODE into v[0..count) (count values required when present; default zeros). */
static PetscErrorCode SurfaceReadVector(SKInput input, SKNode node, const char attr[], PetscInt count, PetscBool required, PetscReal v[],
                                        PetscBool *found)
{
  PetscReal buf[3];
  PetscInt n = 3;
  PetscBool has;

  PetscFunctionBegin;
  PetscCall(SKInputGetRealList(input, node, attr, &n, buf, &has));
  PetscCall(SKInputCheck(input, node, has || !required, "the rigid surface needs the attribute '%s'", attr));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKInputCheck(input, node, n == count, "attribute '%s' needs %" PetscInt_FMT " values, got %" PetscInt_FMT, attr, count, n));
  for (PetscInt d = 0; d < count; d++) v[d] = buf[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRigidSurfaceCreateFromXML(SKInput input, SKNode node, PetscInt dim, SKRigidSurface *surface)
{
  char type[32] = "plane", side[32] = "";
  PetscReal point[3] = {0, 0, 0}, normal[3] = {0, 0, 0}, axis[3] = {0, 0, 0}, vel[3] = {0, 0, 0}, radius = 0, amplitude = 0,
            wl[3] = {0, 0, 0};
  PetscInt t = -1, nwl    = 3;
  PetscBool has, inverted = PETSC_FALSE;
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscCall(SKInputGetComm(input, &comm));
  PetscCall(SKInputGetString(input, node, "surface", type, sizeof(type), NULL));
  for (PetscInt i = 0; i < (PetscInt)PETSC_STATIC_ARRAY_LENGTH(SurfaceTypes); i++) {
    PetscBool match;
    PetscCall(PetscStrcmp(type, SurfaceTypes[i].name, &match));
    if (match) t = i;
  }
  PetscCall(SKInputCheck(input, node, t >= 0, "unknown rigid surface '%s' (known: plane, circle, cylinder, sphere, sine)", type));
  PetscCall(SKInputCheck(input, node, SurfaceTypes[t].dim == 0 || SurfaceTypes[t].dim == dim,
                         "surface '%s' is %s; in %" PetscInt_FMT "D use %s", type,
                         SurfaceTypes[t].dim == 2 ? "two-dimensional" : "three-dimensional", dim,
                         dim == 3 ? "'cylinder' (a circle with an axis) or 'sphere'" : "'circle'"));
  for (PetscInt a = 0; a < SK_SURFACE_NATTR; a++) {
    char buf[64];
    PetscBool used;
    PetscCall(SKInputGetString(input, node, SurfaceAttributes[a], buf, sizeof(buf), &has));
    PetscCall(PetscStrInList(SurfaceAttributes[a], SurfaceTypes[t].uses, ' ', &used));
    PetscCall(SKInputCheck(input, node, !has || used, "attribute '%s' is not used by surface '%s' (it reads:%s)", SurfaceAttributes[a],
                           type, SurfaceTypes[t].uses));
  }
  if (SurfaceTypes[t].sides) {
    PetscBool known = PETSC_TRUE;
    PetscCall(SKInputGetString(input, node, "side", side, sizeof(side), &has));
    if (has) PetscCall(PetscStrInList(side, SurfaceTypes[t].sides, ' ', &known));
    PetscCall(SKInputCheck(input, node, !has || (known && side[0]), "side '%s' is not one of '%s' for surface '%s'", side,
                           SurfaceTypes[t].sides, type));
    if (has) PetscCall(PetscStrcmp(side, SurfaceTypes[t].inverted, &inverted));
  }
  PetscCall(SurfaceReadVector(input, node, "velocity", dim, PETSC_FALSE, vel, NULL));
  switch (t) {
  case 0: /* plane */
    PetscCall(SurfaceReadVector(input, node, "point", dim, PETSC_TRUE, point, NULL));
    PetscCall(SurfaceReadVector(input, node, "normal", dim, PETSC_TRUE, normal, NULL));
    PetscCall(SKInputCheck(input, node, normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2] > 0,
                           "the normal of the rigid plane is zero"));
    PetscCall(SKRigidSurfaceCreatePlane(comm, dim, point, normal, surface));
    break;
  case 1: /* circle */
  case 2: /* cylinder */
  case 3: /* sphere */
    PetscCall(SurfaceReadVector(input, node, "center", dim, PETSC_TRUE, point, NULL));
    PetscCall(SKInputRequireReal(input, node, "radius", &radius));
    PetscCall(SKInputCheckPositive(input, node, "radius", radius));
    axis[0] = 1; /* the sphere's default tangent reference */
    PetscCall(SurfaceReadVector(input, node, "axis", 3, t == 2, axis, &has));
    PetscCall(SKInputCheck(input, node, axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] > 0, "the axis of the %s is zero", type));
    if (t == 3)
      PetscCall(SKRigidSurfaceCreateSphere(comm, point, radius, axis, inverted, surface));
    else
      PetscCall(SKRigidSurfaceCreateCircle(comm, dim, point, axis, radius, inverted, surface));
    break;
  default: /* sine */
    PetscCall(SurfaceReadVector(input, node, "point", dim, PETSC_FALSE, point, NULL));
    PetscCall(SKInputRequireReal(input, node, "amplitude", &amplitude));
    PetscCall(SKInputCheckNonNegative(input, node, "amplitude", amplitude));
    PetscCall(SKInputGetRealList(input, node, "wavelength", &nwl, wl, &has));
    PetscCall(SKInputCheck(input, node, has, "the rigid surface needs the attribute 'wavelength'"));
    PetscCall(SKInputCheck(input, node, nwl == 1 || nwl == dim - 1,
                           "attribute 'wavelength' needs 1 or %" PetscInt_FMT " values, got %" PetscInt_FMT, dim - 1, nwl));
    if (nwl == 1) wl[1] = wl[0];
    for (PetscInt i = 0; i < dim - 1; i++) PetscCall(SKInputCheckPositive(input, node, "wavelength", wl[i]));
    PetscCall(SKRigidSurfaceCreateSine(comm, dim, point, amplitude, wl, inverted, surface));
    break;
  }
  PetscCall(SKRigidSurfaceSetVelocity(*surface, vel));
  PetscFunctionReturn(PETSC_SUCCESS);
}
