/* Compressible Neo-Hookean law, psi = mu/2 (I1 - 3) - mu ln J + lambda/2 (ln J)^2, total Lagrangian:
   P = mu F + (lambda ln J - mu) F^{-T}. Written lane-wise so that the internal-force hot loop vectorises. */
#include <math.h>
#include "materialimpl.h"

/* Plane stress: S33 = mu (1 - 1/c) + lambda ln J / c = 0 with c = F33^2 and J = J2 sqrt(c), i.e.
   g(s) = mu (e^s - 1) + lambda (ln J2 + s/2) = 0 in s = ln c. g is increasing and convex, so Newton's iterates
   are monotone after the first step and converge from s = 0. */
static void NeoHookeanPlaneStressF33(const void *ctx, SKMaterialBatch *b)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  for (PetscInt l = 0; l < SK_L; l++) {
    const PetscReal J2 = b->F[0 * SK_L + l] * b->F[3 * SK_L + l] - b->F[1 * SK_L + l] * b->F[2 * SK_L + l];
    PetscReal s        = 0.0;
    if (!(J2 > 0.0)) { /* inverted in-plane: leave F33 = 1 so that the stress kernel flags the lane */
      b->F33[l] = 1.0;
      continue;
    }
    const PetscReal lnJ2 = log(J2);
    for (PetscInt it = 0; it < 60; it++) {
      const PetscReal es = exp(s), g = p->mu * (es - 1.0) + p->lambda * (lnJ2 + 0.5 * s), ds = g / (p->mu * es + 0.5 * p->lambda);
      s -= ds;
      if (fabs(ds) <= 1e-15 * (1.0 + fabs(s))) break;
    }
    b->F33[l] = exp(0.5 * s);
  }
}

static inline unsigned NeoHookeanKernel(const SKMaterialParams *p, const PetscInt dim, SKMaterialBatch *b, PetscBool want_energy)
{
  const PetscReal mu = p->mu, lambda = p->lambda;
  SK_ALIGN PetscReal lnJ[SK_L];

  /* vector by vector of lanes (the batch's arrays are aligned to a vector): F^{-T}, J, ln J and P in registers */
  for (PetscInt c = 0; c < SK_LANES_NV; c++) {
    const SKLanesVec *F = (const SKLanesVec *)b->F + c;
    SKLanesVec f[9], g[9], J, lj, *P = (SKLanesVec *)b->P + c;
    for (PetscInt k = 0; k < dim * dim; k++) f[k] = F[k * SK_LANES_NV];
    SKLanesVecDetInvT(dim, f, &J, g);
    if (dim == 2) J *= ((const SKLanesVec *)b->F33)[c];
    ((SKLanesVec *)b->J)[c] = J;
    SKLanesVecLog(&J, &lj);
    const SKLanesVec coef  = lambda * lj - mu;
    ((SKLanesVec *)lnJ)[c] = lj;
    for (PetscInt k = 0; k < dim * dim; k++) P[k * SK_LANES_NV] = mu * f[k] + coef * g[k];
    if (dim == 2) ((SKLanesVec *)b->P33)[c] = mu * ((const SKLanesVec *)b->F33)[c] + coef / ((const SKLanesVec *)b->F33)[c];
  }
  if (want_energy) {
    for (PetscInt l = 0; l < SK_L; l++) {
      PetscReal I1 = (dim == 2) ? b->F33[l] * b->F33[l] : 0.0;
      for (PetscInt k = 0; k < dim * dim; k++) I1 += b->F[k * SK_L + l] * b->F[k * SK_L + l];
      b->psi[l] = 0.5 * mu * (I1 - 3.0) - mu * lnJ[l] + 0.5 * lambda * lnJ[l] * lnJ[l];
    }
  }
  return SKLanesNonPositive(b->J);
}

static unsigned NeoHookeanStress(const void *ctx, SKMaterialBatch *b, PetscBool want_energy)
{
  const SKMaterialParams *p = (const SKMaterialParams *)ctx; /* these types' context is the elastic record */
  /* constant dim per call lets the compiler unroll the tensor loops */
  return p->dim == 3 ? NeoHookeanKernel(p, 3, b, want_energy) : NeoHookeanKernel(p, 2, b, want_energy);
}

const SKMaterialOps SKMaterialNeoHookean = {.name             = "neo_hookean",
                                            .description      = "compressible Neo-Hookean, psi = mu/2 (I1-3) - mu ln J + lambda/2 (ln J)^2",
                                            .small_strain     = PETSC_FALSE,
                                            .plane_stress_f33 = NeoHookeanPlaneStressF33,
                                            .stress           = NeoHookeanStress};
