/* Rod 2's modes from the transfer matrices of its layers (src/rod1d/rodpair_rod2.c).
   1. Equal layers give the uniform rod's closed-form frequencies, shapes and segment averages to round-off, and a
      whole mode-matching run the uniform run's displacements.
   2. Two different layers: the frequencies are roots of the two-layer characteristic equation written directly as the
      product of the layers' transfer matrices (no Pruefer phase), cos(k1 a) cos(k2 b) - (Z1/Z2) sin(k1 a) sin(k2 b) = 0;
      that function changes sign exactly Nm times below the highest computed frequency (no mode missed or repeated);
      the shapes are mass-orthonormal (Gauss quadrature per layer) and satisfy u(L2) = 0; the segment averages equal the
      quadrature of the shapes.
   Mutations caught: a wrong interface ratio (Z2/Z1 instead of Z1/Z2) fails 2's residual by O(1); a target phase of
   n pi (fixed-free instead of free-fixed) fails 1; dropping the normalisation fails the orthonormality. */
#include "rodpair_harmonic.h"

static PetscErrorCode Check(PetscBool ok, const char what[], PetscReal value, PetscReal tol)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-62s %.3e (tolerance %.0e)\n", what, (double)value, (double)tol));
  PetscCheck(ok && value <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %g > %g", what, (double)value, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the two-layer characteristic function: u(L2) of the transfer-matrix solution with u(0) = 1, N(0) = 0 */
static PetscReal TwoLayer(const SKRodPairParams *p, PetscReal w)
{
  const PetscReal a = p->seg2_length[0], b = p->seg2_length[1];
  const PetscReal k1 = w * PetscSqrtReal(p->seg2_rhoA[0] / p->seg2_EA[0]), k2 = w * PetscSqrtReal(p->seg2_rhoA[1] / p->seg2_EA[1]);
  const PetscReal Z = PetscSqrtReal(p->seg2_EA[0] * p->seg2_rhoA[0] / (p->seg2_EA[1] * p->seg2_rhoA[1]));
  return PetscCosReal(k1 * a) * PetscCosReal(k2 * b) - Z * PetscSinReal(k1 * a) * PetscSinReal(k2 * b);
}

/* 8-point Gauss-Legendre on [lo, hi] of f(z) = psi_m(z) psi_n(z) rhoA (or psi_m alone with n < 0) */
static PetscErrorCode Quad(const SKRodPairModel *m, PetscInt mm, PetscInt n, PetscReal rhoA, PetscReal lo, PetscReal hi, PetscReal *sum)
{
  static const PetscReal x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const PetscReal w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

  PetscFunctionBegin;
  *sum = 0;
  for (PetscInt q = 0; q < 8; q++) {
    const PetscReal s = q < 4 ? -x[q] : x[q - 4], z = 0.5 * (lo + hi) + 0.5 * (hi - lo) * s;
    const PetscReal f = SKRodPairRod2Shape(m, mm, z) * (n >= 0 ? rhoA * SKRodPairRod2Shape(m, n, z) : 1);
    *sum += 0.5 * (hi - lo) * w[q % 4] * f;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* displacements of rod 1 at T by METHOD */
static PetscErrorCode Run(const SKRodPairParams *p, Harmonic *hm, SKRodPairMethod method, PetscReal T, PetscReal u[])
{
  SKRodPair rp;

  PetscFunctionBegin;
  PetscCall(HarmonicRodPairCreate(p, hm, &rp));
  PetscCall(HarmonicRodPairFinish(&rp, p, method, T, u));
  PetscCall(SKRodPairDestroy(&rp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* the soft rod 2 of soft-omega1-caseB (rod 2 as rod 1), 20 modes */
  SKRodPairParams p = RodPairCaseA(31, 20), q, r;
  SKRodPairModel mu, ml, m2;
  Harmonic hm = {.P0 = 2e4, .W = 20};
  PetscReal err, scale, g1[20], g2[20], ua[31], ub[31];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  p.EA2 = 1e9, p.rhoA2 = 1e3, p.mu_s = p.mu_k = 1.0;
  q       = p;
  q.nseg2 = 3;
  q.EA2 = q.rhoA2 = 0;
  for (PetscInt s = 0; s < 3; s++) q.seg2_EA[s] = p.EA2, q.seg2_rhoA[s] = p.rhoA2;
  q.seg2_length[0] = 7, q.seg2_length[1] = 18, q.seg2_length[2] = 25;

  /* 1. equal layers against the closed form */
  PetscCall(SKRodPairModelCreate(&p, &mu));
  PetscCall(SKRodPairModelCreate(&q, &ml));
  err = 0;
  for (PetscInt n = 0; n < p.Nm; n++) err = PetscMax(err, PetscAbsReal(ml.omega[n] / mu.omega[n] - 1));
  /* bisection to 4 eps of the bracket, and the phase summed over 3 layers: a few ulp */
  PetscCall(Check(PETSC_TRUE, "equal layers: frequencies vs closed form (relative)", err, 1e-14));
  err = 0;
  for (PetscInt n = 0; n < p.Nm; n++)
    for (PetscReal z = 0; z <= p.L2; z += 0.37)
      err = PetscMax(err, PetscAbsReal(SKRodPairRod2Shape(&ml, n, z) - SKRodPairRod2Shape(&mu, n, z)));
  /* phases up to 20 pi carry the frequencies' relative error times 60: 1e-13 of the amplitude */
  PetscCall(Check(PETSC_TRUE, "equal layers: shapes vs closed form (of the amplitude)", err / mu.psi_amp, 1e-12));
  err = 0;
  for (PetscReal c = 0.3; c < p.L2; c += 2.9) {
    (void)SKRodPairCoupling(&mu, c, 0.8, 0.8, g1);
    (void)SKRodPairCoupling(&ml, c, 0.8, 0.8, g2);
    for (PetscInt n = 0; n < p.Nm; n++) err = PetscMax(err, PetscAbsReal(g1[n] - g2[n]));
  }
  PetscCall(Check(PETSC_TRUE, "equal layers: segment averages vs closed form (of the amplitude)", err / mu.psi_amp, 1e-12));
  {
    /* the couplings four nodes at a time (SKRodPairCouplings) against one by one: twelve embedded nodes of the
       uniform model, the tenth off rod 2, so the batch stops after the second group of four. The same operations per
       node, so within a few ulp of the sine and cosine (which the vectorised code may contract otherwise) carried
       through the 20 rotations: 1e-14 of the amplitude; a wrong angle or order is off by O(1) */
    PetscInt idx[12], done;
    PetscReal zb[12], len[12], gb[12][20], *gp[12], lerr = 0;
    err = 0;
    for (PetscInt b = 0; b < 12; b++) {
      idx[b] = 16 + b; /* nodes in the embedded part of rod 1 */
      zb[b]  = b == 9 ? -5 : mu.z[idx[b]] - mu.l1 + 0.37 * b;
      gp[b]  = gb[b];
    }
    done = SKRodPairCouplings(&mu, 12, idx, zb, gp, len);
    for (PetscInt b = 0; b < done; b++) {
      PetscReal l1 = SKRodPairCoupling(&mu, zb[b], mu.hl[idx[b]], mu.hr[idx[b]], g1);
      lerr         = PetscMax(lerr, PetscAbsReal(l1 - len[b]));
      for (PetscInt n = 0; n < p.Nm; n++) err = PetscMax(err, PetscAbsReal(g1[n] - gb[b][n]));
    }
    PetscCall(
        Check((PetscBool)(done == 8 && lerr == 0), "couplings in vector lanes vs one by one (of amplitude)", err / mu.psi_amp, 1e-14));
  }
  PetscCall(SKRodPairModelDestroy(&mu));
  PetscCall(SKRodPairModelDestroy(&ml));
  /* Whole runs. RK45: equal layers give the uniform run to 3.6e-14 of the peak (measured); 1e-9 as for equal segments
     of rod 1 (test_rodpair_layers). Mode matching: this stick-slip case is sensitive to round-off (a relative change of
     1e-13 in EA2 of the uniform rod adds or removes events and moves u1 by 8e-5 of the peak, measured), so there
     "to round-off" means: no more than 3 times what that perturbation of the uniform rod does (a wrong shape or
     frequency differs by O(1)). */
  for (PetscInt k = 0; k < 2; k++) {
    const SKRodPairMethod method = k == 0 ? SK_RODPAIR_RK45 : SK_RODPAIR_MMM;
    SKRodPairParams pp           = p;
    PetscReal uc[31], dpert = 0;
    pp.EA2 *= 1 + 1e-13;
    PetscCall(Run(&p, &hm, method, 0.2, ua));
    PetscCall(Run(&q, &hm, method, 0.2, ub));
    PetscCall(Run(&pp, &hm, method, 0.2, uc));
    err = scale = 0;
    for (PetscInt i = 0; i < p.N; i++) {
      err   = PetscMax(err, PetscAbsReal(ua[i] - ub[i]));
      dpert = PetscMax(dpert, PetscAbsReal(ua[i] - uc[i]));
      scale = PetscMax(scale, PetscAbsReal(ua[i]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: a 1e-13 change of EA2 moves u1 at 0.2 s by %.3e of the peak\n", SKRodPairMethods[method],
                          (double)(dpert / scale)));
    PetscCall(
        Check(PETSC_TRUE,
              k == 0 ? "equal layers: RK45 run, u1 at 0.2 s (of the peak)" : "equal layers: mode-matching run, u1 at 0.2 s (of the peak)",
              err / scale, k == 0 ? 1e-9 : PetscMax(3 * dpert / scale, 1e-12)));
  }

  /* 2. two different layers */
  r                = q;
  r.nseg2          = 2;
  r.seg2_length[0] = 20, r.seg2_EA[0] = 1e9, r.seg2_rhoA[0] = 1e3;
  r.seg2_length[1] = 30, r.seg2_EA[1] = 4e9, r.seg2_rhoA[1] = 2e3;
  PetscCall(SKRodPairModelCreate(&r, &m2));
  {
    PetscReal res = 0, wmax = m2.omega[r.Nm - 1], prev = TwoLayer(&r, 0), dw = wmax / 200000;
    PetscInt changes = 0;
    for (PetscInt n = 0; n < r.Nm; n++) {
      /* relative to the slope scale of the function: |f'| ~ omega T, so f(omega (1 + e)) ~ e omega T */
      const PetscReal T = 20 * PetscSqrtReal(1e3 / 1e9) + 30 * PetscSqrtReal(2e3 / 4e9);
      res               = PetscMax(res, PetscAbsReal(TwoLayer(&r, m2.omega[n])) / (m2.omega[n] * T));
    }
    PetscCall(Check(PETSC_TRUE, "two layers: characteristic equation at the frequencies", res, 1e-13));
    for (PetscInt k = 1; k <= 200000; k++) {
      PetscReal f = TwoLayer(&r, k * dw * (1 + 1e-12)); /* just above the top frequency at the last point */
      if ((f > 0) != (prev > 0)) changes++;
      prev = f;
    }
    PetscCall(
        Check(changes == r.Nm, "two layers: sign changes below the top frequency minus Nm", PetscAbsReal((PetscReal)(changes - r.Nm)), 0));
  }
  err = 0;
  for (PetscInt a = 0; a < r.Nm; a++) {
    PetscReal sum, uend = PetscAbsReal(SKRodPairRod2Shape(&m2, a, r.L2));
    err = PetscMax(err, uend / m2.psi_amp);
    for (PetscInt b = a; b < r.Nm; b++) {
      PetscReal total = 0;
      for (PetscInt j = 0; j < 2; j++)
        for (PetscInt piece = 0; piece < 40; piece++) {
          const PetscReal z0 = m2.zl2[j], l = (m2.zl2[j + 1] - z0) / 40;
          PetscCall(Quad(&m2, a, b, r.seg2_rhoA[j], z0 + piece * l, z0 + (piece + 1) * l, &sum));
          total += sum;
        }
      err = PetscMax(err, PetscAbsReal(total - (a == b ? 1 : 0)));
    }
  }
  /* 8-point Gauss on 40 pieces per layer integrates products of cosines up to mode 20 to ~1e-15 */
  PetscCall(Check(PETSC_TRUE, "two layers: mass orthonormality and u(L2) = 0", err, 1e-12));
  err = 0;
  for (PetscReal c = 0.5; c < r.L2; c += 3.1) {
    const PetscReal lo = PetscMax(c - 1.3, 0), hi = PetscMin(c + 0.9, r.L2);
    (void)SKRodPairCoupling(&m2, c, 1.3, 0.9, g1);
    for (PetscInt n = 0; n < r.Nm; n++) {
      PetscReal total = 0, sum;
      for (PetscInt j = 0; j < 2; j++) { /* each layer's part separately: psi' has a kink at the interface */
        const PetscReal a = PetscMax(lo, m2.zl2[j]), b = PetscMin(hi, m2.zl2[j + 1]);
        for (PetscInt piece = 0; piece < 8 && b > a; piece++) {
          PetscCall(Quad(&m2, n, -1, 1, a + piece * (b - a) / 8, a + (piece + 1) * (b - a) / 8, &sum));
          total += sum;
        }
      }
      err = PetscMax(err, PetscAbsReal(total / (hi - lo) - g1[n]) / m2.psi_amp);
    }
  }
  /* 8-point Gauss on 8 pieces of at most 2.2 m integrates cos(k z) with k up to 0.6 1/m to round-off; a wrong phase or
     layer offset in the closed-form average is O(1) */
  PetscCall(Check(PETSC_TRUE, "two layers: segment averages vs quadrature (of the amplitude)", err, 1e-12));
  PetscCall(SKRodPairModelDestroy(&m2));
  PetscCall(PetscFinalize());
  return 0;
}
