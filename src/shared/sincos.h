/* stickslip shared: fast sin/cos for the modal closed forms. Library-internal (not in include/, so not part of the API)
   and not any module's *impl.h, so rod1d (and any other module that needs it) includes it without reaching into
   another module's private state. */
#ifndef STICKSLIP_SHARED_SINCOS_H
#define STICKSLIP_SHARED_SINCOS_H

#include <petscsys.h>

/* sin(x) and cos(x) for the modal closed forms, where one solve evaluates them millions of times at moderate arguments:
   Cody-Waite reduction by pi/2 (three-part constant, exact products for |x| < 2^29) and Taylor polynomials of degree 15
   (sin) and 16 (cos) on |r| <= pi/4, whose truncation error (< 5e-17) is below the rounding; the quadrant is applied
   by selects, not branches, so that loops over many arguments (SKSinCosArray) vectorise. Error within a few ulp of
   max(|value|, 1/2) of libm for |x| <= 1e6 (tests/unit/core/test_sincos.c); not for |x| > 1e6. */
static inline void SKSinCos(PetscReal x, PetscReal *s, PetscReal *c)
{
  const PetscReal k =
      (x * 0.63661977236758134308 + 6755399441055744.0) - 6755399441055744.0; /* nearest multiple of pi/2 (1.5 2^52 rounds) */
  const PetscReal r  = ((x - k * 1.57079625129699707031e+00) - k * 7.54978941586159635336e-08) - k * 5.39030285815811905290e-15;
  const PetscReal r2 = r * r;
  const PetscReal S =
      r + r * r2 *
              (-1.0 / 6 +
               r2 * (1.0 / 120 +
                     r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800 - r2 / 1307674368000))))));
  const PetscReal C =
      1 + r2 * (-0.5 + r2 * (1.0 / 24 +
                             r2 * (-1.0 / 720 +
                                   r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
                                                             r2 * (1.0 / 479001600 + r2 * (-1.0 / 87178291200 + r2 / 20922789888000)))))));
  const int q       = (int)k & 3; /* x = k pi/2 + r: quadrant 0: (S, C), 1: (C, -S), 2: (-S, -C), 3: (-C, S) */
  const PetscReal a = (q & 1) ? C : S, b = (q & 1) ? S : C;
  *s = (q & 2) ? -a : a;
  *c = ((q + 1) & 2) ? -b : b;
}

/* SKSinCos() of N arguments X[] into S[], C[] (may not alias X). */
static inline void SKSinCosArray(PetscInt n, const PetscReal *restrict x, PetscReal *restrict s, PetscReal *restrict c)
{
  for (PetscInt i = 0; i < n; i++) SKSinCos(x[i], &s[i], &c[i]);
}

#endif
