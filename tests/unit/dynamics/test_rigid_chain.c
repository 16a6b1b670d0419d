/* Unit tests of the rigid chain and the closed-form Coulomb spring-slider (src/dynamics/rigid.c): an uncoupled chain
   is n copies of the spring-slider; a symmetric chain stays symmetric; the closed-form trajectory is continuous across
   its stick/slip switches, stops exactly at the end of each slip, and its energy balance closes. */
#include <stickslip/rigid.h>

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__)

typedef struct {
  PetscInt n, nrows;
  PetscReal x[3][2100]; /* displacement histories of up to 3 blocks */
} Track;

static PetscErrorCode TrackMonitor(const SKRigidChainSample *s, void *ctx)
{
  Track *T = (Track *)ctx;

  PetscFunctionBeginUser;
  PetscCheck(T->nrows < 2100, PETSC_COMM_SELF, PETSC_ERR_PLIB, "too many samples");
  for (PetscInt i = 0; i < T->n; i++) T->x[i][T->nrows] = s->x[i];
  T->nrows++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Run(SKFrictionLaw law, PetscInt n, PetscReal k_couple, const PetscReal x0[], Track *T)
{
  SKRigidChainParams p = {n, 1.0, 9.81, 100.0, k_couple, 0.02, 0, NULL};
  SKRigidChain chain;

  PetscFunctionBeginUser;
  T->n     = n;
  T->nrows = 0;
  PetscCall(SKRigidChainCreate(PETSC_COMM_SELF, &p, law, "test_", &chain));
  if (x0) PetscCall(SKRigidChainSetInitialDisplacements(chain, x0));
  PetscCall(SKRigidChainSolve(chain, 4.0, 2e-3, TrackMonitor, T));
  PetscCall(SKRigidChainDestroy(&chain));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Uncoupled blocks follow the single spring-slider: same equations, but the error norm spans all blocks so the steps
   differ; they agree to the integration error (3e-8 m observed with rtol 1e-8; bound 1e-6 m = 2e-5 of the 0.05 m
   travel). A symmetric two-block chain keeps x_1 = x_2 up to round-off of the LU solves amplified by the stick-slip
   switches (1e-9 m observed; bound 1e-8 m). Both with LuGre (Canudas values) and the regularised tanh law. */
static PetscErrorCode TestChain(void)
{
  const char *const laws[] = {"lugre", "coulomb-tanh"};
  static Track one, three, two;
  SKFrictionParams fp;

  PetscFunctionBeginUser;
  for (PetscInt l = 0; l < 2; l++) {
    SKFrictionLaw law;
    PetscReal d3 = 0, d2 = 0, travel;
    PetscCall(SKFrictionParamsSetDefaults(&fp));
    fp.mu_s = 0.45;
    fp.mu_k = 0.3;
    PetscCall(SKFrictionLawCreate(PETSC_COMM_SELF, laws[l], &fp, &law));
    PetscCall(Run(law, 1, 0, NULL, &one));
    PetscCall(Run(law, 3, 0, NULL, &three));
    PetscCall(Run(law, 2, 200.0, NULL, &two));
    for (PetscInt r = 0; r < one.nrows; r++) {
      for (PetscInt i = 0; i < 3; i++) d3 = PetscMax(d3, PetscAbsReal(three.x[i][r] - one.x[0][r]));
      d2 = PetscMax(d2, PetscAbsReal(two.x[0][r] - two.x[1][r]));
    }
    travel = one.x[0][one.nrows - 1];
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: travel %.4f m, uncoupled chain vs slider %.2e m, symmetric pair %.2e m\n", laws[l],
                          (double)travel, (double)d3, (double)d2));
    CHECK(travel > 0.01, "%s: the slider must slip within 4 s (travel %g m)", laws[l], (double)travel);
    CHECK(d3 <= 1e-6, "%s: uncoupled chain differs from the spring-slider by %g m", laws[l], (double)d3);
    CHECK(d2 <= 1e-8, "%s: symmetric chain lost its symmetry by %g m", laws[l], (double)d2);
    PetscCall(SKFrictionLawDestroy(&law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closed form: x continuous at the switches (1e-12 m, round-off), v = 0 at the end of each slip, the spring force at
   re-stick (2 mu_k - mu_s) N and at break-away mu_s N, and the identity slip distance = V (t_stick + t_slip). */
static PetscErrorCode TestCoulombClosedForm(void)
{
  const PetscReal m = 1, k = 100, V = 0.02, N = 9.81, mu_s = 0.45, mu_k = 0.3, eps = 1e-9;
  SKCoulombCycle cy;

  PetscFunctionBeginUser;
  PetscCall(SKSpringSliderCoulombCycle(m, k, V, N, mu_s, mu_k, &cy));
  for (PetscInt j = 0; j < 3; j++) {
    PetscReal ts = cy.t_first + j * (cy.t_stick + cy.t_slip), te = ts + cy.t_slip, xa, va, xb, vb, x0, v0;
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, ts - eps, &xa, &va));
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, ts + eps, &xb, &vb));
    CHECK(PetscAbsReal(xa - xb) <= 1e-12 + 1e-9 && va == 0, "closed form: x jumps at slip start %" PetscInt_FMT, j);
    CHECK(PetscAbsReal(k * (V * ts - xa) - mu_s * N) <= 1e-9 * N, "closed form: break-away at mu_s N (cycle %" PetscInt_FMT ")", j);
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, te - eps, &xa, &va));
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, te + eps, &xb, &vb));
    CHECK(PetscAbsReal(xa - xb) <= 1e-12 + 1e-9 * V && PetscAbsReal(va) <= 1e-6 && vb == 0,
          "closed form: slip %" PetscInt_FMT " must end at rest (v = %g)", j, (double)va);
    CHECK(PetscAbsReal(k * (V * te - xb) - (2 * mu_k - mu_s) * N) <= 1e-9 * N,
          "closed form: re-stick at (2 mu_k - mu_s) N (cycle %" PetscInt_FMT ")", j);
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, te + cy.t_stick - eps, &x0, &v0));
    CHECK(x0 == xb && v0 == 0, "closed form: the block rests during the stick of cycle %" PetscInt_FMT, j);
  }
  {
    PetscReal x1, v1, x2, v2;
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, cy.t_first + 1e-9, &x1, &v1));
    PetscCall(SKSpringSliderCoulombExact(m, k, V, N, mu_s, mu_k, cy.t_first + cy.t_stick + cy.t_slip + 1e-9, &x2, &v2));
    CHECK(PetscAbsReal(x2 - x1 - cy.slip_distance) <= 1e-9, "closed form: one cycle advances V (t_stick + t_slip)");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(TestChain());
  PetscCall(TestCoulombClosedForm());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rigid chain: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
