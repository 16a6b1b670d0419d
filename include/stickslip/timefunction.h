/* stickslip dynamics: time functions f(t) for loads and prescribed motions.
   XML form (schema type "timeFunction" in schema/common.xsd), on any element that takes a load:
     <function type="constant" value="1"/>
     <function type="ramp" t0="0" t1="1" value="1"/>               0 before t0, linear to value at t1, then value
     <function type="smoothstep" t0="0" t1="1" value="1"/>         C1 cubic step from 0 at t0 to value at t1
     <function type="harmonic" amplitude="2e4" omega="20" phase="0"/>   amplitude sin(omega t + phase)
     <function type="pulse" amplitude="2e4" start="0" duration="0.01"/>  amplitude on [start, start + duration)
     <function type="table" times="0 1 2" values="0 1 0"/>          piecewise linear, constant outside
   The parameters are public so that solvers with closed-form integrals (rod1d mode matching) can use them. */
#ifndef STICKSLIP_TIMEFUNCTION_H
#define STICKSLIP_TIMEFUNCTION_H

#include <stickslip/input.h>

typedef enum { SK_TF_CONSTANT, SK_TF_RAMP, SK_TF_SMOOTHSTEP, SK_TF_HARMONIC, SK_TF_PULSE, SK_TF_TABLE } SKTimeFunctionType;

PETSC_EXTERN const char *const SKTimeFunctionTypes[];

typedef struct {
  SKTimeFunctionType type;
  PetscReal amplitude; /* constant: value; ramp/smoothstep: final value; harmonic/pulse: amplitude */
  PetscReal omega;     /* harmonic: angular frequency (rad/s) */
  PetscReal phase;     /* harmonic: phase (rad) */
  PetscReal t0, t1;    /* ramp/smoothstep: start and end (s); pulse: start and end (s) */
  PetscInt ntable;     /* table: number of points */
  PetscReal *times;    /* table: strictly increasing times (s), owned */
  PetscReal *values;   /* table: values, owned */
} SKTimeFunction;

/* Reads a <function> element into F (input errors for unknown type, missing or bad parameters,
   non-increasing table times, negative pulse duration, ...). F must later be released with SKTimeFunctionReset(). */
PETSC_EXTERN PetscErrorCode SKTimeFunctionFromXML(SKInput input, SKNode node, SKTimeFunction *f);
/* Value at time t. Pure; safe in hot loops. */
PETSC_EXTERN PetscReal SKTimeFunctionEval(const SKTimeFunction *f, PetscReal t);
/* Frees table storage and zeroes F. */
PETSC_EXTERN PetscErrorCode SKTimeFunctionReset(SKTimeFunction *f);

#endif
