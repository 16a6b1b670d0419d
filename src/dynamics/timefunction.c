/* stickslip dynamics: time functions f(t) for loads and prescribed motions (XML form in timefunction.h). */
#include <stickslip/timefunction.h>
#include <string.h>

const char *const SKTimeFunctionTypes[] = {"constant", "ramp", "smoothstep", "harmonic", "pulse", "table", NULL};

/* Largest table accepted from an input attribute; longer histories belong in a file. */
#define SK_TF_MAX_TABLE 100000

static PetscErrorCode SKTimeFunctionReadTable(SKInput input, SKNode node, SKTimeFunction *f)
{
  PetscInt nt = SK_TF_MAX_TABLE, nv = SK_TF_MAX_TABLE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(SK_TF_MAX_TABLE, &f->times, SK_TF_MAX_TABLE, &f->values));
  PetscCall(SKInputGetRealList(input, node, "times", &nt, f->times, NULL));
  PetscCall(SKInputGetRealList(input, node, "values", &nv, f->values, NULL));
  f->ntable = nt;
  PetscCall(SKInputCheck(input, node, nt >= 1 && nt == nv,
                         "a table function needs as many 'values' as 'times' and at least one (got %" PetscInt_FMT " times, %" PetscInt_FMT
                         " values)",
                         nt, nv));
  for (PetscInt i = 1; i < nt; i++)
    PetscCall(SKInputCheck(input, node, f->times[i] > f->times[i - 1],
                           "table 'times' must increase strictly (entry %" PetscInt_FMT ": %g after %g)", i, (double)f->times[i],
                           (double)f->times[i - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKTimeFunctionFromXML(SKInput input, SKNode node, SKTimeFunction *f)
{
  char type[32];
  PetscInt t;
  PetscReal duration = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscCall(SKInputRequireString(input, node, "type", type, sizeof(type)));
  for (t = 0; SKTimeFunctionTypes[t]; t++)
    if (!strcmp(type, SKTimeFunctionTypes[t])) break;
  if (!SKTimeFunctionTypes[t])
    PetscCall(SKInputError(input, node, "unknown function type '%s' (known: constant, ramp, smoothstep, harmonic, pulse, table)", type));
  f->type = (SKTimeFunctionType)t;
  switch (f->type) {
  case SK_TF_CONSTANT:
    PetscCall(SKInputRequireReal(input, node, "value", &f->amplitude));
    break;
  case SK_TF_RAMP:
  case SK_TF_SMOOTHSTEP:
    PetscCall(SKInputRequireReal(input, node, "value", &f->amplitude));
    PetscCall(SKInputRequireReal(input, node, "t0", &f->t0));
    PetscCall(SKInputRequireReal(input, node, "t1", &f->t1));
    PetscCall(SKInputCheck(input, node, f->t1 > f->t0, "%s function needs t1 > t0 (got t0 = %g s, t1 = %g s)", type, (double)f->t0,
                           (double)f->t1));
    break;
  case SK_TF_HARMONIC:
    PetscCall(SKInputRequireReal(input, node, "amplitude", &f->amplitude));
    PetscCall(SKInputRequireReal(input, node, "omega", &f->omega));
    PetscCall(SKInputGetReal(input, node, "phase", &f->phase, NULL));
    PetscCall(SKInputCheckNonNegative(input, node, "omega", f->omega));
    break;
  case SK_TF_PULSE:
    PetscCall(SKInputRequireReal(input, node, "amplitude", &f->amplitude));
    PetscCall(SKInputGetReal(input, node, "start", &f->t0, NULL));
    PetscCall(SKInputRequireReal(input, node, "duration", &duration));
    PetscCall(SKInputCheck(input, node, duration > 0, "pulse 'duration' must be positive (got %g s)", (double)duration));
    f->t1 = f->t0 + duration;
    break;
  case SK_TF_TABLE:
    PetscCall(SKTimeFunctionReadTable(input, node, f));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKTimeFunctionEval(const SKTimeFunction *f, PetscReal t)
{
  PetscReal s;

  switch (f->type) {
  case SK_TF_CONSTANT:
    return f->amplitude;
  case SK_TF_RAMP:
    s = (t - f->t0) / (f->t1 - f->t0);
    return f->amplitude * PetscMax(0.0, PetscMin(1.0, s));
  case SK_TF_SMOOTHSTEP:
    s = PetscMax(0.0, PetscMin(1.0, (t - f->t0) / (f->t1 - f->t0)));
    return f->amplitude * s * s * (3.0 - 2.0 * s);
  case SK_TF_HARMONIC:
    return f->amplitude * PetscSinReal(f->omega * t + f->phase);
  case SK_TF_PULSE:
    return (t >= f->t0 && t < f->t1) ? f->amplitude : 0.0;
  case SK_TF_TABLE: {
    PetscInt lo = 0, hi = f->ntable - 1;
    if (t <= f->times[0]) return f->values[0];
    if (t >= f->times[hi]) return f->values[hi];
    while (hi - lo > 1) { /* bisection: tables may be long */
      PetscInt mid = (lo + hi) / 2;
      if (f->times[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
    s = (t - f->times[lo]) / (f->times[hi] - f->times[lo]);
    return (1 - s) * f->values[lo] + s * f->values[hi];
  }
  }
  return 0.0;
}

PetscErrorCode SKTimeFunctionReset(SKTimeFunction *f)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(f->times, f->values));
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
