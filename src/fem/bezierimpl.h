/* Private part of the Bezier cells (bezier.c): the context of their basis, which their internal-force kernel
   (bezier_force.c) reads too. */
#ifndef STICKSLIP_BEZIERIMPL_H
#define STICKSLIP_BEZIERIMPL_H

#include "femimpl.h"
#include <stickslip/iga.h>

/* A Gauss rule of m points per direction on the Bezier elements of a basis: its tensor weights and the 1D B-splines of
   each span at its points, N[d][(k*m + g)*q + a] and dN[d] (tabulated once: they depend on the span and the point, not
   on the element). */
typedef struct {
  PetscInt m, nq; /* points per direction, per element (m^dim) */
  PetscReal wq[SK_ELEMENT_MAX_QP];
  PetscReal *N[3], *dN[3];
} SKBezierRule;

/* Context of a Bezier basis: per local element its span per direction and its control point weights; the rule of the
   internal force (the basis' quadrature: full, q = p + 1 points per direction, or reduced, p points;
   SKBasisReduceQuadrature()) and the full rule of the mass, which must stay exact. */
typedef struct {
  PetscInt dim, p, q, nen, nspan[3];
  const PetscReal *C[3]; /* 1D extraction operators of the patch (owned by the patch in the mesh) */
  PetscInt *span;        /* [nelem][dim] */
  PetscReal *w;          /* [nelem][nen] */
  SKBezierRule force, mass;
  /* the reference geometry of the block's elements at the force rule's points (SKBezierSetReference()), or NULL */
  PetscReal *geo;
} SKBezierBasis;

/* The internal force of SK_LANES-batched Bezier elements by sum factorisation (bezier_force.c): the kernel of a Bezier
   basis in 2D or 3D with q = 2 to 4 control points per direction (degree 1 to 3) and m = q (full) or q - 1 (reduced,
   q >= 3) Gauss points, NULL for the others (which take the generic element loop through the basis' geometry
   function). */
PETSC_INTERN SKBasisInternalForceFn SKBezierInternalForceKernel(PetscInt dim, PetscInt q, PetscInt m);

/* Stores the reference geometry (det J and dxi/dX at every Gauss point: 1 + dim^2 values, 80 bytes per point in 3D) of
   the NELEM elements CONN of the block at the coordinates X, for the internal-force kernel; every later force call of
   the basis must be over the same elements at the same X (the block's own loop and copies of its elements). */
PETSC_INTERN PetscErrorCode SKBezierSetReference(SKBasis basis, PetscInt nelem, const PetscInt conn[], const PetscReal X[]);

/* The element mass integrals of a Bezier basis (its element_mass, bezier_mass.c): exact to round-off for B-spline and
   rational elements alike. */
PETSC_INTERN PetscErrorCode SKBezierElementMass(SKBasis basis, PetscInt e, const PetscReal Xe[], PetscReal rowsum[], PetscReal diag[],
                                                PetscBool *inverted);

/* The consistent-mass product of a Bezier basis (its mass_apply, bezier_mass.c): with G[e*nq + g] = rho w_g det J / W^2
   at the nq = (p + 1)^dim Gauss points of the mass rule, (M x)_A = w_A sum_g N_A G_g sum_B N_B w_B x_B by sum factorisation. */
PETSC_INTERN PetscErrorCode SKBezierMassApply(SKBasis basis, const PetscReal G[], PetscInt nelem, const PetscInt elems[],
                                              const PetscInt conn[], PetscInt bs, PetscInt nvec, const PetscReal *const x[],
                                              PetscReal *const y[]);

#endif
