/* Rod 2's in-vacuo modes (free at z2 = 0, fixed at z2 = L2), mass-normalised: int rho A psi_m psi_n dz = delta_mn.

   Uniform rod: the closed form psi_n = sqrt(2 / (rho A L2)) cos(k_n z), k_n = (2n - 1) pi / (2 L2), omega_n = c k_n.

   Layered rod (piecewise-constant EA_j, rho A_j on [zl_j, zl_j+1]): in layer j the axial wave has wavenumber
   k_j = omega / c_j, c_j = sqrt(EA_j / rho A_j), and impedance Z_j = sqrt(EA_j rho A_j), so u = R cos(phi + k_j xi) and
   N = EA u' = -Z_j omega R sin(phi + k_j xi) exactly (the transfer matrix of the layer). Across an interface u and N are
   continuous: tan(phi') = (Z_j / Z_j+1) tan(phi) with cos(phi') of the sign of cos(phi) (phi' stays within pi/2 of the
   same multiple of pi), R' = R sqrt(cos^2 phi + (Z_j / Z_j+1)^2 sin^2 phi). Starting from the free end (N = 0: phi = 0,
   R = 1), this modified Pruefer phase Phi(omega) at z2 = L2 is continuous and strictly increasing in omega (Sturm's
   comparison theorem), and the fixed end u(L2) = 0 holds where Phi = (n - 1/2) pi: mode n is the unique root of
   Phi(omega) = (n - 1/2) pi, so the bisection below can neither miss nor repeat a mode. For equal layers Phi = omega T
   with T = L2 / c: the uniform frequencies. */
#include "rodpairimpl.h"
#include "shared/sincos.h"

/* Pruefer phase at z2 = L2 for frequency W (rad/s); with AMP and PHASE (nlay2 entries each) also the amplitude and phase
   at the top of each layer (the amplitude starts at 1). */
static PetscReal Rod2Phase(const SKRodPairParams *p, PetscReal w, PetscReal amp[], PetscReal phase[])
{
  PetscReal phi = 0, R = 1;

  for (PetscInt j = 0; j < p->nseg2; j++) {
    if (amp) amp[j] = R, phase[j] = phi;
    phi += w * p->seg2_length[j] * PetscSqrtReal(p->seg2_rhoA[j] / p->seg2_EA[j]);
    if (j < p->nseg2 - 1) {
      const PetscReal alpha = PetscSqrtReal(p->seg2_EA[j] * p->seg2_rhoA[j] / (p->seg2_EA[j + 1] * p->seg2_rhoA[j + 1]));
      const PetscReal k = PetscFloorReal(phi / PETSC_PI + 0.5), r = phi - k * PETSC_PI, sr = PetscSinReal(r), cr = PetscCosReal(r);
      R *= PetscSqrtReal(cr * cr + alpha * alpha * sr * sr);
      phi = k * PETSC_PI + PetscAtan2Real(alpha * sr, cr);
    }
  }
  return phi;
}

/* Layered modes: frequencies by bisection on the phase, then amplitudes normalised by the modal mass. */
static PetscErrorCode Rod2LayeredModes(const SKRodPairParams *p, SKRodPairModel *m)
{
  const PetscInt J = p->nseg2, Nm = p->Nm;
  PetscReal T = 0, lo = 0, rtol = 4 * PETSC_MACHINE_EPSILON;

  PetscFunctionBegin;
  m->nlay2 = J;
  PetscCall(PetscMalloc4(J + 1, &m->zl2, J, &m->slow2, Nm * J, &m->amp2, Nm * J, &m->phase2));
  m->zl2[0] = 0;
  for (PetscInt j = 0; j < J; j++) {
    m->slow2[j]   = PetscSqrtReal(p->seg2_rhoA[j] / p->seg2_EA[j]);
    m->zl2[j + 1] = j == J - 1 ? p->L2 : m->zl2[j] + p->seg2_length[j];
    T += p->seg2_length[j] * m->slow2[j];
  }
  m->psi_amp = 0;
  for (PetscInt n = 0; n < Nm; n++) {
    const PetscReal target = (n + 0.5) * PETSC_PI;
    PetscReal hi = lo + PETSC_PI / (2 * T), mass = 0, *R = m->amp2 + n * J, *phi = m->phase2 + n * J;
    PetscInt it = 0;

    /* bracket: Phi(lo) < target (lo is 0 or the previous mode, where Phi = target - pi); grow hi until Phi(hi) >= target */
    while (Rod2Phase(p, hi, NULL, NULL) < target) {
      hi += PETSC_PI / (2 * T);
      PetscCheck(++it < 100000, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "Rod 2 mode %" PetscInt_FMT ": no frequency found below %g rad/s",
                 n + 1, (double)hi);
    }
    for (it = 0; it < 200 && hi - lo > rtol * hi; it++) {
      const PetscReal mid = 0.5 * (lo + hi);
      if (Rod2Phase(p, mid, NULL, NULL) < target)
        lo = mid;
      else
        hi = mid;
    }
    m->omega[n] = 0.5 * (lo + hi);
    (void)Rod2Phase(p, m->omega[n], R, phi);
    for (PetscInt j = 0; j < J; j++) {
      const PetscReal k = m->omega[n] * m->slow2[j], l = m->zl2[j + 1] - m->zl2[j];
      /* int_0^l cos^2(phi + k xi) dxi = l / 2 + (sin 2(phi + k l) - sin 2 phi) / (4 k) = l/2 + cos(2 phi + k l) sin(k l) / (2 k) */
      mass += p->seg2_rhoA[j] * R[j] * R[j] *
              (0.5 * l + 0.5 * l * PetscCosReal(2 * phi[j] + k * l) * (k * l > 1e-8 ? PetscSinReal(k * l) / (k * l) : 1));
    }
    for (PetscInt j = 0; j < J; j++) {
      R[j] /= PetscSqrtReal(mass);
      m->psi_amp = PetscMax(m->psi_amp, PetscAbsReal(R[j]));
    }
    lo = m->omega[n];
  }
  m->rod2_root_rtol = rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairRod2Modes(const SKRodPairParams *p, SKRodPairModel *m)
{
  PetscFunctionBegin;
  if (p->nseg2 > 0) {
    PetscCall(Rod2LayeredModes(p, m));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  m->nlay2          = 0;
  m->k1             = PETSC_PI / (2 * p->L2);
  m->psi_amp        = PetscSqrtReal(2 / (p->rhoA2 * p->L2));
  m->rod2_root_rtol = 0; /* closed form */
  for (PetscInt n = 0; n < p->Nm; n++) m->omega[n] = PetscSqrtReal(p->EA2 / p->rhoA2) * (2 * n + 1) * m->k1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKRodPairRod2Destroy(SKRodPairModel *m)
{
  PetscFunctionBegin;
  if (m->nlay2 > 0) PetscCall(PetscFree4(m->zl2, m->slow2, m->amp2, m->phase2));
  m->nlay2 = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layer that holds z (the last one for z >= L2) */
static PetscInt Rod2Layer(const SKRodPairModel *m, PetscReal z)
{
  PetscInt j = 0;
  while (j < m->nlay2 - 1 && z >= m->zl2[j + 1]) j++;
  return j;
}

PetscReal SKRodPairRod2Shape(const SKRodPairModel *m, PetscInt n, PetscReal z)
{
  PetscInt j;

  if (m->nlay2 == 0) return m->psi_amp * PetscCosReal((2 * n + 1) * m->k1 * z);
  j = Rod2Layer(m, z);
  return m->amp2[n * m->nlay2 + j] * PetscCosReal(m->phase2[n * m->nlay2 + j] + m->omega[n] * m->slow2[j] * (z - m->zl2[j]));
}

/* per layer piece [lo, hi] of [a, b]: R int cos(phi + k (z - zl)) dz = R d cos(phi + k (c - zl)) sin(k d/2) / (k d/2), with
   c and d the piece's centre and length (no cancellation on short pieces) */
void SKRodPairRod2Average(const SKRodPairModel *m, PetscReal a, PetscReal b, PetscReal g[])
{
  const PetscInt J = m->nlay2;

  for (PetscInt n = 0; n < m->Nm; n++) g[n] = 0;
  for (PetscInt j = Rod2Layer(m, a); j < J && m->zl2[j] < b; j++) {
    const PetscReal lo = PetscMax(a, m->zl2[j]), hi = PetscMin(b, m->zl2[j + 1]), d = hi - lo, c = 0.5 * (lo + hi) - m->zl2[j];
    if (d <= 0) continue;
    for (PetscInt n = 0; n < m->Nm; n++) {
      const PetscReal k = m->omega[n] * m->slow2[j], x = 0.5 * k * d;
      PetscReal sx, cx, sa, ca;
      SKSinCos(x, &sx, &cx);
      SKSinCos(m->phase2[n * J + j] + k * c, &sa, &ca);
      g[n] += m->amp2[n * J + j] * d * ca * (x > 1e-8 ? sx / x : 1.0);
    }
  }
  for (PetscInt n = 0; n < m->Nm; n++) g[n] /= b - a;
}
