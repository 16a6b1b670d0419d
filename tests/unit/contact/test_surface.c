/* Unit tests of the rigid surfaces (src/contact/surface*.c): closest-point projections against closed forms (plane,
   circle, cylinder, sphere) and against a brute-force minimiser (sine, 2D and 3D), ambiguous points (centres, centres
   of curvature) without NaN, continuity of the tangent basis and the moving surface. */
#include <stickslip/contact.h>

/* Deterministic pseudo-random numbers in [lo, hi) (the test must not depend on the platform's rand()). */
static PetscReal Uniform(unsigned long long *seed, PetscReal lo, PetscReal hi)
{
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * (PetscReal)(*seed >> 11) / 9007199254740992.0;
}

static PetscReal Dot(const PetscReal a[], const PetscReal b[])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* What every projection must give whatever the surface: finite values, a unit normal, an orthonormal tangent basis
   with (t..., n) right-handed, and x - x_bar = g n (the defining property of the closest point). Bound 1e-12: each of
   these is a handful of rounded operations on O(1) numbers (measured <= 4e-16 on unit vectors, ~1e-15 m on x - x_bar). */
static PetscErrorCode CheckFrame(PetscInt dim, const PetscReal x[], const SKSurfaceProjection *p, const char what[])
{
  PetscReal r[3] = {0, 0, 0}, err = 0, c[3];

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(PetscIsNormalReal(p->normal[d] + 2) && PetscIsNormalReal(p->tangent[0][d] + 2) && PetscIsNormalReal(p->point[d] + 1e30) &&
                   PetscIsNormalReal(p->distance + 1e30),
               PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: non-finite projection", what);
  }
  err = PetscMax(err, PetscAbsReal(Dot(p->normal, p->normal) - 1));
  err = PetscMax(err, PetscAbsReal(Dot(p->tangent[0], p->tangent[0]) - 1));
  err = PetscMax(err, PetscAbsReal(Dot(p->tangent[0], p->normal)));
  if (dim == 2) {
    err =
        PetscMax(err, PetscAbsReal(p->tangent[0][0] * p->normal[1] - p->tangent[0][1] * p->normal[0] + 1)); /* t x n = -e_z: n = t turned */
  } else {
    err  = PetscMax(err, PetscAbsReal(Dot(p->tangent[1], p->tangent[1]) - 1));
    err  = PetscMax(err, PetscAbsReal(Dot(p->tangent[1], p->normal)) + PetscAbsReal(Dot(p->tangent[0], p->tangent[1])));
    c[0] = p->tangent[0][1] * p->tangent[1][2] - p->tangent[0][2] * p->tangent[1][1];
    c[1] = p->tangent[0][2] * p->tangent[1][0] - p->tangent[0][0] * p->tangent[1][2];
    c[2] = p->tangent[0][0] * p->tangent[1][1] - p->tangent[0][1] * p->tangent[1][0];
    err  = PetscMax(err, PetscAbsReal(Dot(c, p->normal) - 1));
  }
  if (p->exact) {
    for (PetscInt d = 0; d < dim; d++) r[d] = x[d] - p->point[d] - p->distance * p->normal[d];
    err = PetscMax(err, PetscSqrtReal(Dot(r, r)));
  }
  PetscCheck(err < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: frame error %g at (%g, %g, %g)", what, (double)err, (double)x[0],
             (double)x[1], (double)x[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Circle, cylinder and sphere: the distance is |x - c|_perp - R exactly (outside) and its negative (inside); relative
   bound 1e-14 of the radius (the closed form differs from the test's formula only by rounding). At the centre (and on
   the axis) every direction is as close: the result must be finite with distance -R (outside) or R (inside). */
static PetscErrorCode TestRound(void)
{
  const PetscReal c[3] = {0.3, -0.2, 0.1}, R = 0.7, axis[3] = {1, 1, 0}, ref[3] = {0, 0, 1};
  unsigned long long seed = 1;
  PetscReal maxerr        = 0;

  PetscFunctionBeginUser;
  for (PetscInt kind = 0; kind < 3; kind++) /* circle, cylinder, sphere */
    for (PetscInt inside = 0; inside < 2; inside++) {
      const PetscInt dim = kind == 0 ? 2 : 3;
      const char *name[] = {"circle", "cylinder", "sphere"};
      SKRigidSurface s;
      SKSurfaceProjection p;

      if (kind == 2)
        PetscCall(SKRigidSurfaceCreateSphere(PETSC_COMM_SELF, c, R, ref, (PetscBool)inside, &s));
      else
        PetscCall(SKRigidSurfaceCreateCircle(PETSC_COMM_SELF, dim, c, axis, R, (PetscBool)inside, &s));
      for (PetscInt i = 0; i < 2000; i++) {
        PetscReal x[3] = {0, 0, 0}, r[3] = {0, 0, 0}, rho, exact;
        for (PetscInt d = 0; d < dim; d++) x[d] = c[d] + Uniform(&seed, -2, 2), r[d] = x[d] - c[d];
        if (kind == 1) {
          const PetscReal a = (r[0] + r[1]) / 2; /* remove the part along (1, 1, 0) / sqrt(2) */
          r[0] -= a, r[1] -= a;
        }
        rho   = PetscSqrtReal(Dot(r, r));
        exact = inside ? R - rho : rho - R;
        PetscCall(SKRigidSurfaceProject(s, x, 0.0, &p));
        PetscCall(CheckFrame(dim, x, &p, name[kind]));
        maxerr = PetscMax(maxerr, PetscAbsReal(p.distance - exact) / R);
        if (kind == 1) { /* the cylinder's first tangent is its axis: continuous everywhere */
          PetscCheck(PetscAbsReal(p.tangent[0][0] - PetscSqrtReal(0.5)) < 1e-14 &&
                         PetscAbsReal(p.tangent[0][1] - PetscSqrtReal(0.5)) < 1e-14,
                     PETSC_COMM_SELF, PETSC_ERR_PLIB, "cylinder tangent is not the axis");
        }
      }
      { /* the centre */
        PetscReal x[3] = {c[0], c[1], c[2]};
        PetscCall(SKRigidSurfaceProject(s, x, 0.0, &p));
        PetscCall(CheckFrame(dim, x, &p, "centre"));
        PetscCheck(PetscAbsReal(p.distance - (inside ? R : -R)) < 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: distance %g at the centre",
                   name[kind], (double)p.distance);
      }
      PetscCall(SKRigidSurfaceDestroy(&s));
    }
  PetscCheck(maxerr < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "round surfaces: distance error %g of R", (double)maxerr);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "circle, cylinder, sphere: max |g - g_exact| / R = %.3g over 12000 points\n", (double)maxerr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sphere poles: the tangent basis from the reference direction degenerates where the normal is parallel to it; the
   projection must stay finite and orthonormal there and at 1e-12 rad from it (checked by CheckFrame). Away from the
   poles the basis is continuous: two points 1e-6 rad apart give tangents within 1e-5 (|dt| ~ angle / sin(polar
   angle), polar angle >= 0.1 here). */
static PetscErrorCode TestSpherePoles(void)
{
  const PetscReal c[3] = {0, 0, 0}, ref[3] = {0, 0, 1};
  SKRigidSurface s;
  SKSurfaceProjection p, q;

  PetscFunctionBeginUser;
  PetscCall(SKRigidSurfaceCreateSphere(PETSC_COMM_SELF, c, 1.0, ref, PETSC_FALSE, &s));
  for (PetscInt i = 0; i < 4; i++) {
    const PetscReal eps[4] = {0, 1e-12, 1e-9, -1e-12};
    PetscReal x[3]         = {eps[i], 0.5 * eps[i], 2};
    PetscCall(SKRigidSurfaceProject(s, x, 0.0, &p));
    PetscCall(CheckFrame(3, x, &p, "sphere pole"));
  }
  for (PetscReal th = 0.1; th < PETSC_PI - 0.1; th += 0.05)
    for (PetscReal ph = 0; ph < 2 * PETSC_PI; ph += 0.3) {
      PetscReal x[3] = {2 * PetscSinReal(th) * PetscCosReal(ph), 2 * PetscSinReal(th) * PetscSinReal(ph), 2 * PetscCosReal(th)};
      PetscReal y[3] = {2 * PetscSinReal(th + 1e-6) * PetscCosReal(ph + 1e-6), 2 * PetscSinReal(th + 1e-6) * PetscSinReal(ph + 1e-6),
                        2 * PetscCosReal(th + 1e-6)};
      PetscReal dt   = 0;
      PetscCall(SKRigidSurfaceProject(s, x, 0.0, &p));
      PetscCall(SKRigidSurfaceProject(s, y, 0.0, &q));
      for (PetscInt d = 0; d < 3; d++)
        dt = PetscMax(dt, PetscAbsReal(p.tangent[0][d] - q.tangent[0][d]) + PetscAbsReal(p.tangent[1][d] - q.tangent[1][d]));
      PetscCheck(dt < 1e-5, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sphere tangent basis jumps by %g at polar angle %g", (double)dt, (double)th);
    }
  PetscCall(SKRigidSurfaceDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Half the squared distance from x to the sine surface point with parameters s (the test's own formula). */
static PetscReal SineD(PetscInt dim, PetscReal A, const PetscReal k[], const PetscReal o[], const PetscReal x[], const PetscReal s[])
{
  const PetscReal h = o[dim - 1] + A * PetscSinReal(k[0] * (s[0] - o[0])) * (dim == 3 ? PetscSinReal(k[1] * (s[1] - o[1])) : 1.0);
  PetscReal D       = PetscSqr(h - x[dim - 1]);
  for (PetscInt i = 0; i < dim - 1; i++) D += PetscSqr(s[i] - x[i]);
  return 0.5 * D;
}

/* Brute force: the best of a dense grid (n points per parameter over x +- r, r the vertical distance, which bounds
   the closest point), then zoomed: a grid of 21 points per parameter over +- 2 spacings around the best, ten times.
   Each zoom divides the spacing by 5, so 10 zooms take it from r / n to below 1e-7 r / n, and the distance, which is
   quadratic in the parameter error at the minimum, is found to well below 1e-12. Only a near-tie between two far
   apart minima could make it pick another basin, and then both have the same distance to that accuracy. */
static PetscReal SineBrute(PetscInt dim, PetscReal A, const PetscReal k[], const PetscReal o[], const PetscReal x[], PetscInt n)
{
  const PetscInt np = dim - 1;
  PetscReal h       = o[dim - 1] + A * PetscSinReal(k[0] * (x[0] - o[0])) * (dim == 3 ? PetscSinReal(k[1] * (x[1] - o[1])) : 1.0);
  PetscReal r = PetscAbsReal(x[dim - 1] - h), best[2] = {x[0], x[1]}, Dbest = PETSC_MAX_REAL, step = r / n;
  PetscInt m = n;

  for (PetscInt zoom = 0; zoom <= 10; zoom++) {
    const PetscReal c[2] = {best[0], best[1]};
    for (PetscInt i = -m; i <= m; i++)
      for (PetscInt j = (np == 2 ? -m : 0); j <= (np == 2 ? m : 0); j++) {
        const PetscReal s[2] = {c[0] + i * step, c[1] + j * step};
        const PetscReal D    = SineD(dim, A, k, o, x, s);
        if (D < Dbest) Dbest = D, best[0] = s[0], best[1] = s[1];
      }
    step /= 5;
    m = 10;
  }
  return PetscSqrtReal(2 * Dbest);
}

/* The sine surface against the brute-force minimiser to 1e-10 (the acceptance bound, docs/design.md) for random points from far above
   to deep below the surface, in 2D and 3D, both sides; and the points where the projection is ambiguous: the centres
   of curvature of crest and trough, and points below them. */
static PetscErrorCode TestSine(void)
{
  const PetscReal o[3] = {0.1, -0.05, 0.02}, A = 0.05, wl[2] = {0.4, 0.3};
  unsigned long long seed = 7;

  PetscFunctionBeginUser;
  for (PetscInt dim = 2; dim <= 3; dim++)
    for (PetscInt below = 0; below < 2; below++) {
      const PetscReal k[2] = {2 * PETSC_PI / wl[0], 2 * PETSC_PI / wl[1]},
                      rc   = 1 / (A * k[0] * k[0]); /* radius of curvature at a crest (2D) */
      const PetscInt npts  = dim == 2 ? 400 : 60;
      PetscReal maxerr = 0, maxit = 0;
      SKRigidSurface s;
      SKSurfaceProjection p;

      PetscCall(SKRigidSurfaceCreateSine(PETSC_COMM_SELF, dim, o, A, wl, (PetscBool)below, &s));
      for (PetscInt i = 0; i < npts + 6; i++) {
        PetscReal x[3] = {0, 0, 0}, ref, h;
        for (PetscInt d = 0; d < dim - 1; d++) x[d] = Uniform(&seed, -0.5, 0.5);
        x[dim - 1] = Uniform(&seed, -0.2, 0.2);
        if (i >= npts) { /* crest (x = o + lambda/4) and trough (o - lambda/4), at and below/above the centre of curvature */
          const PetscInt j    = i - npts;
          const PetscReal sgn = j % 2 ? -1 : 1, depth[3] = {1, 1.5, 3};
          for (PetscInt d = 0; d < dim - 1; d++) x[d] = o[d] + sgn * wl[d] / 4;
          x[dim - 1] = o[dim - 1] + sgn * (A - depth[j / 2] * rc);
        }
        PetscCall(SKRigidSurfaceProject(s, x, 0.0, &p));
        PetscCall(CheckFrame(dim, x, &p, "sine"));
        ref = SineBrute(dim, A, k, o, x, dim == 2 ? 2000 : 150);
        h   = o[dim - 1] + A * PetscSinReal(k[0] * (x[0] - o[0])) * (dim == 3 ? PetscSinReal(k[1] * (x[1] - o[1])) : 1.0);
        if ((x[dim - 1] - h) * (below ? -1 : 1) < 0) ref = -ref;
        maxerr = PetscMax(maxerr, PetscAbsReal(p.distance - ref));
        maxit  = PetscMax(maxit, (PetscReal)p.iterations);
        PetscCheck(PetscAbsReal(p.distance - ref) < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "sine %" PetscInt_FMT "D: distance %.15g, brute force %.15g at (%g, %g, %g)", dim, (double)p.distance, (double)ref,
                   (double)x[0], (double)x[1], (double)x[2]);
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF,
                            "sine %" PetscInt_FMT "D %s: max |g - g_brute| = %.3g m over %" PetscInt_FMT
                            " points, at most %.0f Newton iterations\n",
                            dim, below ? "below" : "above", (double)maxerr, npts + 6, (double)maxit));
      PetscCall(SKRigidSurfaceDestroy(&s));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Along the 2D sine the tangent turns smoothly and never flips: consecutive points 1e-4 m apart just above the surface
   have t . t' > 0.99 (the angle between them is about curvature x 1e-4 <= 1.3e-3 rad here); and the first tangent of
   the 3D surface keeps a positive x component (it is e_x made orthogonal to n). The cutoff: a point far above returns
   early (exact = false) with a positive lower bound of the distance, below the exact one. */
static PetscErrorCode TestSineContinuityAndCutoff(void)
{
  const PetscReal o[3] = {0, 0, 0}, A = 0.05, wl[2] = {0.4, 0.4};
  SKRigidSurface s2, s3;
  SKSurfaceProjection p, q;
  PetscReal prev[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  PetscCall(SKRigidSurfaceCreateSine(PETSC_COMM_SELF, 2, o, A, wl, PETSC_FALSE, &s2));
  PetscCall(SKRigidSurfaceCreateSine(PETSC_COMM_SELF, 3, o, A, wl, PETSC_FALSE, &s3));
  for (PetscInt i = 0; i <= 8000; i++) {
    const PetscReal x = -0.4 + 1e-4 * i, pt[3] = {x, A * PetscSinReal(2 * PETSC_PI * x / wl[0]) + 1e-3, 0};
    PetscCall(SKRigidSurfaceProject(s2, pt, 0.0, &p));
    PetscCheck(i == 0 || Dot(p.tangent[0], prev) > 0.99, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2D sine tangent jumps at x = %g", (double)x);
    for (PetscInt d = 0; d < 3; d++) prev[d] = p.tangent[0][d];
    {
      const PetscReal p3[3] = {x, 0.37 * x + 0.05, 0.2};
      PetscCall(SKRigidSurfaceProject(s3, p3, 0.0, &q));
      PetscCheck(q.tangent[0][0] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "3D sine tangent flips at x = %g", (double)x);
    }
  }
  {
    const PetscReal far[2] = {0.1, 1.0};
    PetscCheck(SKRigidSurfaceProjectPoint(s2, far, 0.0, 0.0, &p), PETSC_COMM_SELF, PETSC_ERR_PLIB, "cutoff projection failed");
    PetscCall(SKRigidSurfaceProject(s2, far, 0.0, &q));
    PetscCheck(!p.exact && q.exact && p.distance > 0 && p.distance <= q.distance, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "cutoff: bound %g, exact %g", (double)p.distance, (double)q.distance);
  }
  PetscCall(SKRigidSurfaceDestroy(&s2));
  PetscCall(SKRigidSurfaceDestroy(&s3));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A plane moving with velocity V: at time t it is the plane at 0 shifted by V t (closed form), the projection
   reports V as the surface velocity, and a plane through p with normal n gives (x - p - V t) . n / |n|. */
static PetscErrorCode TestPlaneMoving(void)
{
  const PetscReal pt[3] = {0.1, 0.2, 0.3}, n[3] = {1, 2, 2}, V[3] = {0.5, -1, 0.25}, t = 0.3, x[3] = {1, -0.5, 0.7};
  SKRigidSurface s;
  SKSurfaceProjection p;
  PetscReal exact = 0;

  PetscFunctionBeginUser;
  PetscCall(SKRigidSurfaceCreatePlane(PETSC_COMM_SELF, 3, pt, n, &s));
  PetscCall(SKRigidSurfaceSetVelocity(s, V));
  PetscCall(SKRigidSurfaceProject(s, x, t, &p));
  PetscCall(CheckFrame(3, x, &p, "plane"));
  for (PetscInt d = 0; d < 3; d++) exact += (x[d] - pt[d] - V[d] * t) * n[d] / 3;
  PetscCheck(PetscAbsReal(p.distance - exact) < 1e-15 && p.velocity[0] == V[0] && p.velocity[1] == V[1] && p.velocity[2] == V[2],
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "moving plane: distance %g, exact %g", (double)p.distance, (double)exact);
  PetscCall(SKRigidSurfaceDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bad arguments are refused with the value (PETSC_ERR_ARG_OUTOFRANGE). */
static PetscErrorCode TestBadArguments(void)
{
  const PetscReal zero[3] = {0, 0, 0}, wl[2] = {-1, 1};
  SKRigidSurface s = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKRigidSurfaceCreatePlane(PETSC_COMM_SELF, 2, zero, zero, &s);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero normal accepted");
  ierr = SKRigidSurfaceCreateCircle(PETSC_COMM_SELF, 2, zero, NULL, 0.0, PETSC_FALSE, &s);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero radius accepted");
  ierr = SKRigidSurfaceCreateCircle(PETSC_COMM_SELF, 3, zero, zero, 1.0, PETSC_FALSE, &s);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero axis accepted");
  ierr = SKRigidSurfaceCreateSine(PETSC_COMM_SELF, 3, zero, 0.1, wl, PETSC_FALSE, &s);
  PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "negative wavelength accepted");
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a refused surface was created");
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestRound());
  PetscCall(TestSpherePoles());
  PetscCall(TestSine());
  PetscCall(TestSineContinuityAndCutoff());
  PetscCall(TestPlaneMoving());
  PetscCall(TestBadArguments());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rigid surfaces: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
