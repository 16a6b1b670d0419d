/* Private part of the material module: the table of functions a material type provides, and small
   lane-wise tensor helpers shared by the kernels (structure-of-arrays layout, see stickslip/material.h). */
#ifndef STICKSLIP_MATERIALIMPL_H
#define STICKSLIP_MATERIALIMPL_H

#include <stdint.h>
#include <string.h>
#include <stickslip/material.h>

/* What a material type provides (the kernels are pure: no globals, no allocation):
     name, description   registry name and one line for --help
     small_strain        PETSC_TRUE when P, S and sigma coincide (linear elasticity): no push-forward is done
     plane_stress_f33    from the in-plane b->F, the out-of-plane stretch b->F33 per lane with S33 = 0;
                         NULL when the type has no plane stress version
     stress              from b->F and, in 2D, b->F33, computes b->P, b->J, in 2D b->P33, and b->psi when want_energy;
                         returns the bit mask of lanes with J <= 0 (0 for laws that do not need J > 0)
     setup               optional: builds the type's own context in mat->data from the elastic record mat->params
                         (every type has the small-strain E, nu, rho: the critical time step uses them); without it the
                         kernels' context is the record itself
     setfromxml          optional: reads the type's own attributes of its <block> element into mat->data (after setup)
   The kernels receive the context (mat->data, or &mat->params) as const void *. */
struct _n_SKMaterialOps {
  const char *name;
  const char *description;
  PetscBool small_strain;
  void (*plane_stress_f33)(const void *ctx, SKMaterialBatch *b);
  unsigned (*stress)(const void *ctx, SKMaterialBatch *b, PetscBool want_energy);
  PetscErrorCode (*setup)(SKMaterial mat);
  PetscErrorCode (*setfromxml)(SKMaterial mat, SKInput input, SKNode node);
};

struct _n_SKMaterial {
  const SKMaterialOps *ops;
  SKMaterialParams params; /* the elastic record every type has */
  void *data;              /* the type's own context (setup), freed with PetscFree(); NULL: the kernels read params */
};

/* The kernels' context of MAT. */
static inline const void *SKMaterialContext(SKMaterial mat)
{
  return mat->data ? (const void *)mat->data : (const void *)&mat->params;
}

/* The Neo-Hookean kernel's helpers below work on GNU vector types (vector_size, accepted by GCC and Clang under -std=c11) of
   SK_LANES_VW lanes: a lane block of SK_L values is SK_LANES_NV vectors, read and written from one base pointer with
   offsets known at compile time, and the compiler emits full-width packed code whatever its auto-vectoriser would pick
   (128 bits on an AVX2 machine that splits 256-bit operations). Each vector expression is the lane-wise one of a lane
   loop, in the same order, so that results do not change bit for bit. */
#define SK_LANES_VW SK_VEC_WIDTH
#define SK_LANES_NV (SK_L / SK_LANES_VW)
typedef PetscReal SKLanesVec __attribute__((vector_size(SK_LANES_VW * sizeof(PetscReal))));
/* the same, for arrays aligned only to a PetscReal */
typedef PetscReal SKLanesVecU __attribute__((vector_size(SK_LANES_VW * sizeof(PetscReal)), aligned(sizeof(PetscReal))));

/* *det = det F (in-plane only in 2D) and g = F^{-T} = cof(F) / det F of SK_LANES_VW lanes, f[i dim + j] = F_ij and g
   likewise (pointers, not vector values: passing those by value would depend on the target's ABI). Lanes with det F <= 0
   get inf/NaN in g, flagged by the caller. The same expressions as SKLanesDetInvT() (stickslip/material.h), which the
   geometry of the fem module keeps in lane loops. */
SK_HOT_INLINE void SKLanesVecDetInvT(const PetscInt dim, const SKLanesVec *restrict f, SKLanesVec *restrict det, SKLanesVec *restrict g)
{
  if (dim == 2) {
    /* f[0 .. dim^2 - 1] are set by the caller */
    // cppcheck-suppress uninitvar
    const SKLanesVec a = f[0], b = f[1], c = f[2], d = f[3];
    const SKLanesVec dt = a * d - b * c, r = 1.0 / dt;
    *det = dt;
    g[0] = d * r;
    g[1] = -c * r;
    g[2] = -b * r;
    g[3] = a * r;
    return;
  }
  const SKLanesVec f00 = f[0], f01 = f[1], f02 = f[2], f10 = f[3], f11 = f[4], f12 = f[5], f20 = f[6], f21 = f[7], f22 = f[8];
  const SKLanesVec c00 = f11 * f22 - f12 * f21, c01 = f12 * f20 - f10 * f22, c02 = f10 * f21 - f11 * f20;
  const SKLanesVec c10 = f02 * f21 - f01 * f22, c11 = f00 * f22 - f02 * f20, c12 = f01 * f20 - f00 * f21;
  const SKLanesVec c20 = f01 * f12 - f02 * f11, c21 = f02 * f10 - f00 * f12, c22 = f00 * f11 - f01 * f10;
  const SKLanesVec dt = f00 * c00 + f01 * c01 + f02 * c02, r = 1.0 / dt;
  *det = dt;
  g[0] = c00 * r;
  g[1] = c01 * r;
  g[2] = c02 * r;
  g[3] = c10 * r;
  g[4] = c11 * r;
  g[5] = c12 * r;
  g[6] = c20 * r;
  g[7] = c21 * r;
  g[8] = c22 * r;
}

/* Natural logarithm of SK_LANES_VW lanes (glibc's log is a scalar call): x = m 2^e with m in [sqrt(1/2), sqrt(2)),
   ln m = 2 atanh(s) = 2 (s + s^3/3 + ...), s = (m - 1)/(m + 1), |s| < 0.172, so 11 terms reach 1e-17 relative; e ln 2 in
   two parts keeps it exact. Agrees with log() to about 1 ulp for normal positive x; for x <= 0, NaN, inf or subnormal x
   the value is meaningless (the callers flag x <= 0 themselves). Integer and select steps in bit operations, exact:
   e from its biased bits as (2^52 + e + 1023) - (2^52 + 1023) (AVX2 has no 64-bit integer to double conversion), and
   the reduction by sqrt(2) as m times 1/2 or 1 and e plus 1 or 0. */
typedef uint64_t SKLanesBits __attribute__((vector_size(SK_LANES_VW * sizeof(uint64_t))));
SK_HOT_INLINE void SKLanesVecLog(const SKLanesVec *restrict x, SKLanesVec *restrict y)
{
  const PetscReal ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const uint64_t one = 0x3ff0000000000000ULL, half = 0x3fe0000000000000ULL, two52 = 0x4330000000000000ULL;
  const SKLanesBits bits = (SKLanesBits)*x;
  SKLanesVec e           = (SKLanesVec)(((bits >> 52) & 0x7ff) | two52) - 4503599627371519.0; /* 2^52 + 1023 */
  SKLanesVec m           = (SKLanesVec)((bits & 0x000fffffffffffffULL) | one);
  const SKLanesBits big  = (SKLanesBits)(m > 1.41421356237309504880);
  m *= (SKLanesVec)((big & half) | (~big & one));
  e += (SKLanesVec)(big & one);
  const SKLanesVec s = (m - 1.0) / (m + 1.0), z = s * s;
  const SKLanesVec p =
      2.0 / 3.0 +
      z * (2.0 / 5.0 +
           z * (2.0 / 7.0 +
                z * (2.0 / 9.0 +
                     z * (2.0 / 11.0 + z * (2.0 / 13.0 + z * (2.0 / 15.0 + z * (2.0 / 17.0 + z * (2.0 / 19.0 + z * (2.0 / 21.0)))))))));
  *y = e * ln2_hi + (2.0 * s + (s * z * p + e * ln2_lo));
}

/* The same lane-wise, y[l] = ln x[l] for the SK_L lanes. */
static inline void SKLanesLog(const PetscReal *restrict x, PetscReal *restrict y)
{
  for (PetscInt c = 0; c < SK_LANES_NV; c++) {
    const SKLanesVec xc = ((const SKLanesVecU *)x)[c];
    SKLanesVec yc;
    SKLanesVecLog(&xc, &yc);
    ((SKLanesVecU *)y)[c] = yc;
  }
}

PETSC_INTERN const SKMaterialOps SKMaterialLinearElastic;
PETSC_INTERN const SKMaterialOps SKMaterialSaintVenantKirchhoff;
PETSC_INTERN const SKMaterialOps SKMaterialNeoHookean;

#endif
