/* Shared by the rodpair unit tests: the harmonic load P(t) = P0 sin(W t) (N) and the parameters of the validation case
   omega1-caseA of Tsetas et al. 2022 (Table 1) on a coarse grid. */
#ifndef STICKSLIP_TEST_RODPAIR_HARMONIC_H
#define STICKSLIP_TEST_RODPAIR_HARMONIC_H

#include "../../../src/rod1d/rodpairimpl.h"

typedef struct {
  PetscReal P0, W; /* amplitude (N) and circular frequency (rad/s) */
} Harmonic;

static inline PetscReal Load(void *ctx, PetscReal t)
{
  Harmonic *h = (Harmonic *)ctx;
  return h->P0 * PetscSinReal(h->W * t);
}

/* omega1-caseA (rods, friction mu_s = mu_k = 0.6, N_F = 1000 N/m) with N nodes and NM modes */
static inline SKRodPairParams RodPairCaseA(PetscInt N, PetscInt Nm)
{
  SKRodPairParams p = {0};
  p.EA1             = 1e9;
  p.rhoA1           = 1e3;
  p.L1              = 50;
  p.EA2             = 1e13;
  p.rhoA2           = 1e7;
  p.L2              = 50;
  p.l1              = 25;
  p.mu_s = p.mu_k = 0.6;
  p.NF            = 1000;
  p.N             = N;
  p.Nm            = Nm;
  return p;
}

/* A rod pair of P under the harmonic load HM, at tight tolerances (rtol 1e-10, atol 1e-14), with the MMM's load form. */
static inline PetscErrorCode HarmonicRodPairCreate(const SKRodPairParams *p, Harmonic *hm, SKRodPair *rp)
{
  PetscFunctionBegin;
  PetscCall(SKRodPairCreate(PETSC_COMM_SELF, p, Load, hm, rp));
  PetscCall(SKRodPairSetTolerances(*rp, 1e-10, 1e-14));
  PetscCall(SKRodPairSetLoadForm(*rp, hm->P0, hm->W, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rod 1's displacements u[N] at the end of a solve of RP by METHOD to T; destroys RP. */
static inline PetscErrorCode HarmonicRodPairFinish(SKRodPair *rp, const SKRodPairParams *p, SKRodPairMethod method, PetscReal T,
                                                   PetscReal u[])
{
  const PetscReal *u1;

  PetscFunctionBegin;
  PetscCall(SKRodPairSolve(*rp, method, T));
  PetscCall(SKRodPairGetState(*rp, NULL, &u1, NULL, NULL, NULL, NULL));
  for (PetscInt i = 0; i < p->N; i++) u[i] = u1[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif
