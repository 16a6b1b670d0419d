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

/* Natural logarithm, lane-wise, written so that the lane loop vectorises (glibc's log is a scalar call): x = m 2^e
   with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) = 2 (s + s^3/3 + ...), s = (m - 1)/(m + 1), |s| < 0.172, so
   11 terms reach 1e-17 relative; e ln 2 in two parts keeps it exact. Agrees with log() to about 1 ulp for normal
   positive x; for x <= 0, NaN, inf or subnormal x the value is meaningless (the callers flag x <= 0 themselves). */
static inline void SKLanesLog(const PetscReal *restrict x, PetscReal *restrict y)
{
  const PetscReal ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  for (PetscInt l = 0; l < SK_L; l++) {
    uint64_t bits;
    PetscReal m;
    memcpy(&bits, &x[l], sizeof(bits));
    PetscReal e = (PetscReal)((int64_t)((bits >> 52) & 0x7ff) - 1023);
    bits        = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
    memcpy(&m, &bits, sizeof(m));
    if (m > 1.41421356237309504880) { /* a select, not a branch, after vectorisation */
      m *= 0.5;
      e += 1.0;
    }
    const PetscReal s = (m - 1.0) / (m + 1.0), z = s * s;
    const PetscReal p =
        2.0 / 3.0 +
        z * (2.0 / 5.0 +
             z * (2.0 / 7.0 +
                  z * (2.0 / 9.0 +
                       z * (2.0 / 11.0 + z * (2.0 / 13.0 + z * (2.0 / 15.0 + z * (2.0 / 17.0 + z * (2.0 / 19.0 + z * (2.0 / 21.0)))))))));
    y[l] = e * ln2_hi + (2.0 * s + (s * z * p + e * ln2_lo));
  }
}

PETSC_INTERN const SKMaterialOps SKMaterialLinearElastic;
PETSC_INTERN const SKMaterialOps SKMaterialSaintVenantKirchhoff;
PETSC_INTERN const SKMaterialOps SKMaterialNeoHookean;

#endif
