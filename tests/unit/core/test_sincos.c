/* SKSinCos (src/shared/sincos.h) against libm for |x| up to 1e6 (uniform and logarithmic samples, both signs, the quadrant
   boundaries k pi/2 and their neighbours): error within 4 ulp of max(|value|, 1/2), i.e. relative where the value is
   large and absolute (2 ulp of 1) near its zeros, which is what the modal sums need. The bound: the Taylor truncation
   is below 5e-17 on |r| <= pi/4 and the three-part pi/2 keeps the reduced argument exact to about one ulp of r, so a
   few ulp is what the construction promises; a wrong coefficient or quadrant shows up as O(1e-3) or O(1). */
#include <math.h>
#include <stickslip/core.h>
#include "shared/sincos.h"

static PetscErrorCode Check(PetscReal x, PetscReal *worst, PetscReal *where)
{
  const PetscReal ulp = 2.220446049250313e-16;
  PetscReal s, c, e;

  PetscFunctionBeginUser;
  SKSinCos(x, &s, &c);
  /* error in ulp of max(|value|, 1/2): relative where the value is large, absolute (2 ulp of 1) near its zeros */
  e = PetscMax(PetscAbsReal(s - PetscSinReal(x)) / PetscMax(PetscAbsReal(PetscSinReal(x)), 0.5),
               PetscAbsReal(c - PetscCosReal(x)) / PetscMax(PetscAbsReal(PetscCosReal(x)), 0.5)) /
      ulp;
  if (e > *worst) *worst = e, *where = x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscReal worst = 0, where = 0;
  PetscInt n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt i = -200000; i <= 200000; i++, n++) PetscCall(Check(i * 1e-4 * PETSC_PI / 3.7, &worst, &where)); /* |x| < 17 */
  for (PetscInt i = 0; i <= 120000; i++, n += 2) {                                                               /* 1e-12 .. 1e6 */
    PetscReal x = PetscPowReal(10.0, -12 + 18.0 * i / 120000);
    PetscCall(Check(x, &worst, &where));
    PetscCall(Check(-x, &worst, &where));
  }
  for (PetscInt k = -4000; k <= 4000; k++, n += 3) { /* the quadrant boundaries and just beside them */
    PetscReal x = k * PETSC_PI / 2;
    PetscCall(Check(x, &worst, &where));
    PetscCall(Check(nextafter(x, PETSC_MAX_REAL), &worst, &where));
    PetscCall(Check(x + 1e-9, &worst, &where));
  }
  { /* the batch form is the same function, element by element (it is what the vectoriser turns into SIMD code) */
    PetscReal x[1000], sa[1000], ca[1000], s, c;
    for (PetscInt i = 0; i < 1000; i++) x[i] = (i - 500) * 0.0731 * (1 + 1e-3 * i);
    SKSinCosArray(1000, x, sa, ca);
    for (PetscInt i = 0; i < 1000; i++) {
      SKSinCos(x[i], &s, &c);
      PetscCheck(s == sa[i] && c == ca[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKSinCosArray differs from SKSinCos at x = %.17g",
                 (double)x[i]);
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "SKSinCos: %" PetscInt_FMT " arguments, worst %.2f ulp at x = %.17g\n", n, (double)worst,
                        (double)where));
  PetscCheck(worst <= 4, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKSinCos is %g ulp off libm at x = %.17g (bound 4 ulp of max(|value|, 1/2))",
             (double)worst, (double)where);
  PetscCall(PetscFinalize());
  return 0;
}
