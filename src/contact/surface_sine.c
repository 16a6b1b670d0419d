/* contact: closest-point projection onto the sine surface, the graph x_n = h(s) of a height function over np = dim - 1
   parameters s (the in-plane coordinates relative to the origin): Newton's method on the parameters (eq. 9 of the
   paper), started from the best point of a sampling of the only region that can hold the closest point, and
   safeguarded by a backtracking line search on the squared distance. */
#include "surfaceimpl.h"

/* Height h(s), its gradient dh[np] and Hessian ddh[3] = (h_11, h_22, h_12) of the sine surface; np = 1 uses only the
   first factor (the second is 1). */
static void SineHeight(const struct _p_SKRigidSurface *sf, const PetscReal s[], PetscReal *h, PetscReal dh[], PetscReal ddh[])
{
  const PetscReal A = sf->amplitude, k1 = sf->wavenumber[0], k2 = sf->wavenumber[1];
  const PetscReal s1 = PetscSinReal(k1 * s[0]), c1 = PetscCosReal(k1 * s[0]);
  const PetscReal s2 = sf->dim == 3 ? PetscSinReal(k2 * s[1]) : 1.0, c2 = sf->dim == 3 ? PetscCosReal(k2 * s[1]) : 0.0;

  *h     = A * s1 * s2;
  dh[0]  = A * k1 * c1 * s2;
  dh[1]  = A * k2 * s1 * c2;
  ddh[0] = -A * k1 * k1 * s1 * s2;
  ddh[1] = -A * k2 * k2 * s1 * s2;
  ddh[2] = A * k1 * k2 * c1 * c2;
}

/* Half the squared distance D(s) = (|s - q|^2 + (h(s) - q_n)^2) / 2 from the local point q (q[np] = q_n), with its
   gradient and Hessian when GRAD is not NULL. */
static PetscReal SineDistance2(const struct _p_SKRigidSurface *sf, const PetscReal q[], const PetscReal s[], PetscReal grad[],
                               PetscReal hess[])
{
  const PetscInt np = sf->dim - 1;
  PetscReal h, dh[2], ddh[3], D = 0, e;

  SineHeight(sf, s, &h, dh, ddh);
  e = h - q[np];
  for (PetscInt i = 0; i < np; i++) D += PetscSqr(s[i] - q[i]);
  D = 0.5 * (D + e * e);
  if (grad) {
    for (PetscInt i = 0; i < np; i++) grad[i] = s[i] - q[i] + e * dh[i];
    hess[0] = 1 + dh[0] * dh[0] + e * ddh[0];
    hess[1] = 1 + dh[1] * dh[1] + e * ddh[1];
    hess[2] = dh[0] * dh[1] + e * ddh[2];
  }
  return D;
}

/* Where the minimum can be: |x_bar - x| <= r0, the vertical distance, so |s_i - q_i| <= r0. The region is sampled with
   spacing at most 1/32 of the shortest wavelength, fine against the half-wavelength spacing of the local minima of the
   squared distance, so that the best sample lies in the basin of the global minimum except near ties (points about
   equally close to two parts of the surface, where either answer gives the right distance); at most 257 samples per
   parameter. */
static void SineBestSample(const struct _p_SKRigidSurface *sf, const PetscReal q[], PetscReal r0, PetscReal s[])
{
  const PetscInt np    = sf->dim - 1;
  const PetscReal kmax = PetscMax(sf->wavenumber[0], sf->wavenumber[1]), spacing = 2 * PETSC_PI / kmax / 32;
  const PetscInt m     = (PetscInt)PetscMin(128.0, PetscCeilReal(r0 / spacing)); /* samples q +- m steps per parameter */
  const PetscReal step = m > 0 ? r0 / m : 0;
  PetscReal best       = PETSC_MAX_REAL;

  for (PetscInt i = 0; i < np; i++) s[i] = q[i];
  for (PetscInt j1 = -m; j1 <= m; j1++)
    for (PetscInt j2 = (np == 2 ? -m : 0); j2 <= (np == 2 ? m : 0); j2++) {
      const PetscReal t[2] = {q[0] + j1 * step, np == 2 ? q[1] + j2 * step : 0};
      const PetscReal D    = SineDistance2(sf, q, t, NULL, NULL);
      if (D < best) best = D, s[0] = t[0], s[1] = t[1];
    }
}

PetscBool SKSurfaceProject_Sine(const struct _p_SKRigidSurface *sf, const PetscReal y[], PetscReal cutoff, SKSurfaceProjection *p)
{
  const PetscInt dim = sf->dim, np = dim - 1;
  PetscReal q[3], s[2]             = {0, 0}, h, hq, dh[2], ddh[3], r0, slope, len, m[3], D, g[2], H[3];
  PetscReal scale     = 2 * PETSC_PI / PetscMax(sf->wavenumber[0], sf->wavenumber[1]);
  PetscBool converged = PETSC_FALSE;
  PetscInt it;

  for (PetscInt d = 0; d < dim; d++) q[d] = y[d] - sf->point[d];
  SineHeight(sf, q, &hq, dh, ddh);
  r0            = PetscAbsReal(q[np] - hq);
  slope         = sf->amplitude * PetscSqrtReal(PetscSqr(sf->wavenumber[0]) + PetscSqr(sf->wavenumber[1]));
  p->iterations = 0;
  p->exact      = PETSC_TRUE;
  /* on the body side the distance is at least r0 / sqrt(1 + max |grad h|^2): far points skip the projection */
  if (sf->side * (q[np] - hq) > 0 && r0 / PetscSqrtReal(1 + slope * slope) > cutoff) {
    p->distance = r0 / PetscSqrtReal(1 + slope * slope);
    p->exact    = PETSC_FALSE;
    for (PetscInt d = 0; d < dim; d++) p->point[d] = y[d], p->normal[d] = d == np ? sf->side : 0;
    SKSurfaceTangents(dim, p->normal, (const PetscReal[3]){1, 0, 0}, p->tangent);
    return PETSC_TRUE;
  }
  SineBestSample(sf, q, r0, s);
  D = SineDistance2(sf, q, s, g, H);
  for (it = 0; it < SK_SURFACE_MAX_IT && !converged; it++) {
    PetscReal dir[2] = {-g[0], np == 2 ? -g[1] : 0}, slope_d = 0, alpha = 1, step = 0;
    const PetscReal det = np == 1 ? H[0] : H[0] * H[1] - H[2] * H[2];

    if (H[0] > 0 && det > 0) { /* Newton direction where the Hessian is positive definite, else steepest descent */
      if (np == 1)
        dir[0] = -g[0] / H[0];
      else
        dir[0] = -(H[1] * g[0] - H[2] * g[1]) / det, dir[1] = -(H[0] * g[1] - H[2] * g[0]) / det;
    }
    for (PetscInt i = 0; i < np; i++) slope_d += g[i] * dir[i], step += dir[i] * dir[i];
    step = PetscSqrtReal(step);
    if (step <= 1e-12 * scale) { /* this step brings the parameters to round-off: take it and stop */
      for (PetscInt i = 0; i < np; i++) s[i] += dir[i];
      converged = PETSC_TRUE;
      break;
    }
    /* close to the root (positive definite Hessian, a step below 1/20 wavelength) plain Newton converges
       quadratically, and a line search there could not tell the decrease of D from round-off; farther out the
       backtracking line search makes every step decrease D */
    if (H[0] > 0 && det > 0 && step <= 0.05 * scale) {
      for (PetscInt i = 0; i < np; i++) s[i] += dir[i];
      D = SineDistance2(sf, q, s, g, H);
      continue;
    }
    for (PetscInt ls = 0; ls < 60; ls++, alpha *= 0.5) { /* Armijo backtracking keeps D decreasing */
      const PetscReal t[2] = {s[0] + alpha * dir[0], s[1] + alpha * dir[1]};
      if (SineDistance2(sf, q, t, NULL, NULL) <= D + 1e-4 * alpha * slope_d) break;
    }
    for (PetscInt i = 0; i < np; i++) s[i] += alpha * dir[i];
    D = SineDistance2(sf, q, s, g, H);
  }
  p->iterations = it;
  D             = SineDistance2(sf, q, s, g, H);
  SineHeight(sf, s, &h, dh, ddh);
  len = 1;
  for (PetscInt i = 0; i < np; i++) len += dh[i] * dh[i];
  len = PetscSqrtReal(len);
  for (PetscInt i = 0; i < np; i++) m[i] = -dh[i] / len;
  m[np] = 1 / len;
  for (PetscInt d = 0; d < dim; d++) {
    p->point[d]  = sf->point[d] + (d < np ? s[d] : h);
    p->normal[d] = sf->side * m[d];
  }
  /* |x - x_bar| with the sign of the side the point is on (the vertical test is exact even if a tie picked the other
     of two equally close points) */
  p->distance = sf->side * (q[np] - hq) >= 0 ? PetscSqrtReal(2 * D) : -PetscSqrtReal(2 * D);
  /* the x axis is never parallel to the normal of a graph over (x, y), so the 3D basis is continuous everywhere */
  SKSurfaceTangents(dim, p->normal, (const PetscReal[3]){1, 0, 0}, p->tangent);
  return converged;
}
