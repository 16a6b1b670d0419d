/* contact: private structure of a friction law (ops table, parameter record, the law's own context) and the set-type
   functions of the built-in laws.
   Only src/contact/friction*.c and white-box unit tests include this header. */
#ifndef STICKSLIP_FRICTIONIMPL_H
#define STICKSLIP_FRICTIONIMPL_H

#include <stickslip/contact.h>

/* The first failing parameter check of a law: the attribute it concerns (for FILE:LINE messages) and the message. */
typedef struct {
  const char *attr;
  PetscBool ok;
  char msg[160];
} SKFrictionCheck;

/* Records check COND on attribute A into the SKFrictionCheck *F unless an earlier check failed (printf-style message). */
#define SKFrictionCheckThat(f, a, cond, ...)                             \
  do {                                                                   \
    if ((f)->ok && !(cond)) {                                            \
      (f)->ok   = PETSC_FALSE;                                           \
      (f)->attr = a;                                                     \
      PetscCall(PetscSNPrintf((f)->msg, sizeof((f)->msg), __VA_ARGS__)); \
    }                                                                    \
  } while (0)

/* What a law implements. The kernels and moduli see only the law's own context (law->data), built by setup() from the
   common parameter record after check() accepted it; a law with parameters beyond the record reads them in
   setfromxml() (from its <friction> element) into a context it allocates there. */
typedef struct {
  SKFrictionStepFn step;                /* required */
  SKFrictionRateFn rate;                /* NULL: no continuous form */
  PetscInt (*state_size)(PetscInt dim); /* required: values of state per point for DIM tangential components */
  void (*moduli)(const void *ctx, PetscReal N, PetscReal *stiffness, PetscReal *damping); /* required */
  PetscErrorCode (*check)(const SKFrictionParams *p, SKFrictionCheck *fail);              /* checks of the parameters the law uses */
  PetscErrorCode (*setfromxml)(SKFrictionLaw law, SKInput input, SKNode node);            /* optional */
  PetscErrorCode (*setup)(SKFrictionLaw law);                                             /* required: law->data from law->params */
  /* the attributes of the common record the law reads, space-separated (stick_velocity, which every law's statistics
     use, need not be listed); an input giving it another one of the record's attributes is refused. NULL: not checked */
  const char *params;
} SKFrictionLawOps;

struct _p_SKFrictionLaw {
  MPI_Comm comm;
  char name[64];
  SKFrictionParams params; /* the common record as given (SKFrictionLawGetParams()) */
  void *data;              /* the law's own context: what its kernels read; freed with PetscFree() */
  SKFrictionLawOps ops;
};

/* Set-type functions of the built-in laws: fill law->ops (designated initialisers), nothing else. */
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_LuGre(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_Coulomb(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombModified(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombTanh(SKFrictionLaw);
PETSC_INTERN PetscErrorCode SKFrictionLawCreate_CoulombThrelfall(SKFrictionLaw);

/* The Stribeck curve of eq. 21 as a law's context holds it. */
typedef struct {
  PetscReal mu_s, mu_k, v_s, theta;
} SKStribeckCurve;

static inline SKStribeckCurve SKStribeckCurveFromParams(const SKFrictionParams *p)
{
  SKStribeckCurve c = {.mu_s = p->mu_s, .mu_k = p->mu_k, .v_s = p->v_s, .theta = p->theta};
  return c;
}

/* G(speed), speed >= 0 (SKFrictionStribeck()). Pure. */
static inline PetscReal SKStribeckValue(const SKStribeckCurve *c, PetscReal speed)
{
  if (c->v_s <= 0) return speed > 0 ? c->mu_k : c->mu_s;
  return c->mu_k + (c->mu_s - c->mu_k) * PetscExpReal(-PetscPowReal(speed / c->v_s, c->theta));
}

/* G(speed) and dG/dspeed (speed >= 0); at speed = 0 the derivative is the one-sided value where finite (theta >= 1) and
   0 otherwise (only Jacobians use it). */
PETSC_INTERN void SKStribeckDerivative(const SKStribeckCurve *c, PetscReal speed, PetscReal *G, PetscReal *dG);

/* Whether a speed counts as sticking for a stick threshold VT (SKFrictionIsSticking()). */
static inline PetscBool SKFrictionBelowThreshold(PetscReal vt, PetscReal speed)
{
  return (vt > 0 ? speed < vt : speed == 0) ? PETSC_TRUE : PETSC_FALSE;
}

/* Euclidean norm of a DIM-vector (DIM = 1 or 2, or 3 for callers that pass a full vector). */
static inline PetscReal SKFrictionNorm(PetscInt dim, const PetscReal a[])
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < dim; i++) s += a[i] * a[i];
  return PetscSqrtReal(s);
}

#endif
