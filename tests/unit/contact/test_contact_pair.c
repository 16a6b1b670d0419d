/* Unit tests of the rigid-plane contact on the explicit solver (src/contact/contact_pair.c): the contact patch test
   with every element type, a block sliding under a constant tangential force with Coulomb friction, the
   sticking-time statistics (all sticking, all sliding, and a known sticking fraction), and the friction moduli in the
   automatic time step. */
#include <stickslip/contact.h>
#include "../dynamics/test_explicit_common.h"
#include "../../../src/dynamics/explicitimpl.h" /* white box: the solver's step estimates (normal load, friction dt) */

/* The I-th contact pair of the solver. */
static SKContactPair SKTestExplicitContact(SKExplicit ex, PetscInt i)
{
  SKContactPair cp = NULL;

  if (SKExplicitGetContactPair(ex, i, &cp)) return NULL;
  return cp;
}

/* A block of height H on the plane y = 0 (z = 0 in 3D), lid loaded by the pressure P, nu = 0, Coulomb friction. */
static const char patch2d[] =
    "<explicit>"
    "<mesh><rectangle type=\"%s\" cells=\"4 2\" lower=\"0 0\" upper=\"1 0.5\"/></mesh>"
    "<sideset name=\"base\" axis=\"y\" value=\"0\"/><sideset name=\"lid\" axis=\"y\" value=\"0.5\"/>"
    "<block name=\"body\" material=\"linear_elastic\" E=\"1e6\" nu=\"0\" rho=\"1000\" stress_state=\"plane_strain\"/>"
    "<traction sideset=\"lid\" value=\"0 -1e4\"/>"
    "<contact name=\"floor\" sideset=\"base\" point=\"0 0\" normal=\"0 2\" penalty=\"1e9\">"
    "<friction law=\"coulomb-modified\" mu_s=\"0.5\" mu_k=\"0.4\" eps_t=\"1e7\"/></contact>"
    "<time end=\"1\" safety=\"0.9\"/></explicit>";
static const char patch3d[] = "<explicit>"
                              "<mesh><box type=\"%s\" cells=\"3 2 2\" lower=\"0 0 0\" upper=\"1 0.8 0.5\"/></mesh>"
                              "<sideset name=\"base\" axis=\"z\" value=\"0\"/><sideset name=\"lid\" axis=\"z\" value=\"0.5\"/>"
                              "<block name=\"body\" material=\"linear_elastic\" E=\"1e6\" nu=\"0\" rho=\"1000\"/>"
                              "<traction sideset=\"lid\" value=\"0 0 -1e4\"/>"
                              "<contact name=\"floor\" sideset=\"base\" point=\"0 0 0\" normal=\"0 0 1\" penalty=\"1e9\">"
                              "<friction law=\"coulomb-modified\" mu_s=\"0.5\" mu_k=\"0.4\" eps_t=\"1e7\"/></contact>"
                              "<time end=\"1\" safety=\"0.9\"/></explicit>";

/* Sticking-time statistics of pair 0 after T seconds: the largest |T_stick,a / T - STICK| and |T_contact,a / T - 1|
   over the contact nodes, and the global ratio (SKContactPairGetStickingTimeRatio()). */
static PetscErrorCode StickTimeDeviation(SKExplicit ex, PetscReal T, PetscReal stick, PetscReal *dev_stick, PetscReal *dev_contact,
                                         PetscReal *global)
{
  const PetscReal *ts, *tc;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(SKContactPairGetStickTimes(SKTestExplicitContact(ex, 0), &n, &ts, &tc));
  *dev_stick = *dev_contact = 0;
  for (PetscInt i = 0; i < n; i++) {
    *dev_stick   = PetscMax(*dev_stick, PetscAbsReal(ts[i] / T - stick));
    *dev_contact = PetscMax(*dev_contact, PetscAbsReal(tc[i] / T - 1));
  }
  PetscCall(SKContactPairGetStickingTimeRatio(SKTestExplicitContact(ex, 0), T, global, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Patch test: starting from the exact static state (uniform strain -P/E, penetration P/eps_N), 200 steps later the
   nodal pressure f_a / w_a equals P at every contact node to 1e-6 relative (the static state is an exact discrete
   equilibrium of every element type, so only round-off moves it: measured 1.8e-13 at worst, H27/Q9) and the friction force is
   below 1e-9 N per N of normal force (nothing slides; round-off velocities only: measured 1.8e-14). */
static PetscErrorCode PatchTest(const char type[], PetscInt dim)
{
  const PetscReal P = 1e4, E = 1e6, eps_n = 1e9, d = P / eps_n;
  char text[2048];
  SKInput input;
  SKExplicit ex;
  PetscReal *u, *v, maxdev = 0, maxft = 0, ptot = 0;
  const PetscReal *w, *fn, *ft;
  const PetscInt *nodes;
  PetscInt nl, n;
  SKMesh mesh;
  const PetscReal *X;
  SKContactPairStats st;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(text, sizeof(text), dim == 2 ? patch2d : patch3d, type));
  PetscCall(SKTestExplicitCreate("patch", text, &input, &ex));
  PetscCall(SKExplicitGetMesh(ex, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &nl, &X));
  PetscCall(SKExplicitGetStateWrite(ex, &u, &v));
  for (PetscInt a = 0; a < nl; a++) u[a * dim + dim - 1] = -d - P / E * X[a * dim + dim - 1];
  PetscCall(SKExplicitRestoreState(ex, &u, &v));
  PetscCall(SKExplicitAdvance(ex, 200));
  PetscCall(SKContactPairGetNodal(SKTestExplicitContact(ex, 0), &n, &nodes, &w, &fn, &ft));
  PetscCall(SKContactPairGetStats(SKTestExplicitContact(ex, 0), &st));
  { /* the penalty enters the critical step: dt_critical <= 2 / sqrt(max_a eps_N w_a / m_a) (it dominates here) */
    const PetscReal *mass;
    PetscReal dt, dtc, dte, w2 = 0;
    PetscCall(SKExplicitGetState(ex, NULL, NULL, NULL, NULL, &mass));
    PetscCall(SKExplicitGetTimeStep(ex, &dt, &dtc, &dte));
    for (PetscInt i = 0; i < n; i++) w2 = PetscMax(w2, eps_n * w[i] / mass[nodes[i]]);
    PetscCheck(dtc <= 2 / PetscSqrtReal(w2) * (1 + 1e-12), PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "%s: critical step %g above the contact bound %g", type, (double)dtc, (double)(2 / PetscSqrtReal(w2)));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal f2 = 0;
    maxdev       = PetscMax(maxdev, PetscAbsReal(fn[i] / w[i] - P) / P);
    for (PetscInt c = 0; c < dim; c++) f2 += PetscSqr(ft[i * dim + c]);
    maxft = PetscMax(maxft, PetscSqrtReal(f2) / fn[i]);
    ptot += w[i];
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "patch %s: %" PetscInt_FMT " contact nodes, max |p_a - P| / P = %.3g, max |f_T| / f_N = %.3g, COF %.3g\n", type, n,
                        (double)maxdev, (double)maxft, (double)st.cof));
  PetscCheck(n > 0 && st.nactive == n, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " nodes in contact",
             type, st.nactive, n);
  PetscCheck(maxdev < 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: contact pressure not uniform: %g", type, (double)maxdev);
  PetscCheck(maxft < 1e-9, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: spurious friction force %g", type, (double)maxft);
  PetscCheck(PetscAbsReal(st.normal_force - P * ptot) < 1e-6 * P * ptot, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "%s: total normal force %g, expected %g", type, (double)st.normal_force, (double)(P * ptot));
  { /* nothing moves, so every node is in contact and sticks all the time: ratio 1 up to the round-off of summing dt */
    PetscReal t, ds, dc, global;
    PetscInt step;
    PetscCall(SKExplicitGetTime(ex, &t, &step));
    PetscCall(StickTimeDeviation(ex, t, 1.0, &ds, &dc, &global));
    PetscCheck(ds < 1e-12 && dc < 1e-12 && PetscAbsReal(global - 1) < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
               "%s: sticking-time ratio off 1 by %g (contact time by %g, global %g)", type, (double)ds, (double)dc, (double)global);
  }
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block 0.4 x 0.1 on the plane y = 0 under gravity (0, -10) and a body force (fx, 0) per unit mass, Coulomb mu = 0.3,
   from v0 in x, the plane moving at vp in x; the relative velocity keeps its sign over the run (it never sticks). */
static const char slide[] =
    "<explicit>"
    "<mesh><rectangle type=\"Q4\" cells=\"8 2\" lower=\"0 0\" upper=\"0.4 0.1\"/></mesh>"
    "<sideset name=\"base\" axis=\"y\" value=\"0\"/>"
    "<block name=\"body\" material=\"linear_elastic\" E=\"1e7\" nu=\"0\" rho=\"1000\" stress_state=\"plane_strain\"/>"
    "<gravity acceleration=\"%g -10\"/>"
    "<initial_velocity nodeset=\"all\" value=\"%g 0\"/>"
    "<contact name=\"floor\" sideset=\"base\" point=\"0 0\" normal=\"0 1\" velocity=\"%g 0\" penalty=\"1e7\">"
    "<friction law=\"coulomb\" mu_s=\"0.3\" mu_k=\"0.3\" eps_t=\"1e8\" %s/></contact>"
    "<time end=\"0.2\" safety=\"0.9\"/></explicit>";

/* The solver of the slide template (FRICTION: extra attributes of <friction>) started from the static state under
   gravity; *vyc the initial mass-centre vertical velocity, *ebal0 the initial energy balance. */
static PetscErrorCode SlideCreate(PetscReal fx, PetscReal v0, PetscReal vp, const char friction[], SKInput *input, SKExplicit *ex,
                                  PetscReal *m, PetscReal *vyc, PetscReal *ebal0)
{
  const PetscReal g = 10, rho = 1000, E = 1e7, H = 0.1, eps_n = 1e7;
  char text[2048];
  PetscReal *u, *v;
  const PetscReal *mass, *uu, *vv, *aa, *X;
  PetscInt nl;
  SKMesh mesh;
  SKExplicitEnergy e0;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(text, sizeof(text), slide, (double)fx, (double)v0, (double)vp, friction));
  PetscCall(SKTestExplicitCreate("slide", text, input, ex));
  PetscCall(SKExplicitGetMesh(*ex, &mesh));
  PetscCall(SKMeshGetNodes(mesh, &nl, &X));
  PetscCall(SKExplicitGetStateWrite(*ex, &u, &v));
  for (PetscInt a = 0; a < nl; a++) {
    const PetscReal y = X[a * 2 + 1];
    u[a * 2 + 1]      = -rho * g * H / eps_n - rho * g / E * (H * y - 0.5 * y * y); /* static under gravity */
  }
  PetscCall(SKExplicitRestoreState(*ex, &u, &v));
  PetscCall(SKExplicitGetEnergy(*ex, &e0));
  *ebal0 = e0.balance;
  PetscCall(SKExplicitGetState(*ex, &nl, &uu, &vv, &aa, &mass));
  *m = *vyc = 0;
  for (PetscInt a = 0; a < nl; a++) *vyc += mass[a] * vv[a * 2 + 1], *m += mass[a];
  *vyc /= *m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rigid-body check: the mass-centre velocity gains (F/m + s mu_k g) T, s the sign of vp - v; friction acts at mu_k N(t)
   on every node as long as it slides, so the exact gain is (F/m + s mu_k g) T + s mu_k dv_y (dv_y: change of the mass-centre
   vertical velocity, from the normal oscillation about the approximate initial state). Measured relative error of the
   gain 5.1e-4 (time discretisation); bound 2e-3. The energy balance (the solver's, with the contact work column)
   closes to 1e-3 of the work in play as required (docs/design.md) (measured 1.1e-7). At the end every node slides, so the global
   COF is mu_k to round-off (bound 1e-6). */
static PetscErrorCode SlideTest(PetscReal fx, PetscReal v0, PetscReal vp)
{
  const PetscReal g = 10, mu = 0.3, sgn = vp > v0 ? 1 : -1;
  SKInput input;
  SKExplicit ex;
  PetscReal t, m, vc = 0, vyc, expected, rel, ebal, ebal0;
  const PetscReal *mass, *uu, *vv, *aa;
  PetscInt nl, step;
  SKExplicitEnergy e1;
  SKContactPairStats st, st0;

  PetscFunctionBeginUser;
  PetscCall(SlideCreate(fx, v0, vp, "", &input, &ex, &m, &vyc, &ebal0));
  PetscCall(SKContactPairGetStats(SKTestExplicitContact(ex, 0), &st0));
  {
    PetscReal dt, dtc, dte;
    PetscCall(SKExplicitGetTimeStep(ex, &dt, &dtc, &dte));
    PetscCall(SKExplicitAdvance(ex, (PetscInt)PetscCeilReal(0.2 / dt - 0.5)));
  }
  PetscCall(SKExplicitGetTime(ex, &t, &step));
  PetscCall(SKExplicitGetState(ex, &nl, &uu, &vv, &aa, &mass));
  {
    PetscReal vy = 0;
    for (PetscInt a = 0; a < nl; a++) vc += mass[a] * vv[a * 2], vy += mass[a] * vv[a * 2 + 1];
    vc /= m;
    vyc = vy / m - vyc;
  }
  expected = v0 + (fx + sgn * mu * g) * t + sgn * mu * vyc;
  rel      = PetscAbsReal(vc - expected) / PetscAbsReal((fx + sgn * mu * g) * t);
  PetscCall(SKExplicitGetEnergy(ex, &e1));
  ebal = PetscAbsReal(e1.balance - ebal0) / PetscMax(PetscAbsReal(e1.external_work), PetscAbsReal(e1.work_terms[0]));
  PetscCall(SKContactPairGetStats(SKTestExplicitContact(ex, 0), &st));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "slide: t = %g s (%" PetscInt_FMT
                        " steps), v_c = %.8g m/s, expected %.8g (rel. error of the gain %.3g, mu dv_y = %.3g), "
                        "COF %.6g, energy balance drift / W_ext = %.3g, dissipation %.6g J, W_contact %.6g J, penalty energy %.3g J\n",
                        (double)t, step, (double)vc, (double)expected, (double)rel, (double)(mu * vyc), (double)st.cof, (double)ebal,
                        (double)st.dissipation, (double)e1.work_terms[0], (double)st.penalty_energy));
  PetscCheck(rel < 2e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "mass-centre acceleration off by %g relative", (double)rel);
  PetscCheck(PetscAbsReal(st.cof - mu) < 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "global COF %g while sliding, expected mu_k = %g",
             (double)st.cof, (double)mu);
  PetscCheck(ebal < 1e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "energy balance drift %g of the external work", (double)ebal);
  /* the contact's work is minus (change of the penalty energy + dissipation + the elastic energy of the Coulomb stick
     springs, below (mu N)^2 / (2 eps_t) = 1e-6 J per node here); the friction work is a one-sided rectangle rule against
     the solver's trapezoidal work, so 1e-3 (measured 8e-5) */
  PetscCheck(vp != 0 || PetscAbsReal(e1.work_terms[0] + st.penalty_energy - st0.penalty_energy + st.dissipation) < 1e-3 * st.dissipation,
             PETSC_COMM_WORLD, PETSC_ERR_PLIB, "contact work %g vs -(penalty energy %g + dissipation %g)", (double)e1.work_terms[0],
             (double)st.penalty_energy, (double)st.dissipation);
  { /* it slides at 0.1 m/s or more all the time, far above the stick threshold v_s = 1e-3 m/s: no sticking at all */
    PetscReal ds, dc, global;
    PetscCall(StickTimeDeviation(ex, t, 0.0, &ds, &dc, &global));
    PetscCheck(ds == 0 && global == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "sliding block: sticking-time ratio %g (global %g), expected 0",
               (double)ds, (double)global);
  }
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A known sticking fraction: the block, at rest on the plane that moves at 1 m/s, is dragged at mu g = 3 m/s^2, so
   its slip speed 1 - 3 t falls below the stick threshold v_thr at t* = (1 - v_thr) / 3 and it then rides with the
   plane (static friction: the Coulomb law's elastic stick, the body's waves only). Over T = 0.5 s the sticking-time
   ratio of every node is (T - t*) / T. The threshold v_thr = 0.02 m/s lies above the tangential velocity
   oscillations after the stick (shear wave, amplitude about mu rho g H / (rho c_s) = 5e-3 m/s); the onset is found to
   within a step (dt = 1.4e-4 s, 2.7e-4 of T) plus the time the waves keep the slip speed above v_thr (measured 2.7e-3
   of T at worst, nodes near the ends): bound 5e-3 of T. */
static PetscErrorCode StickOnsetTest(void)
{
  const PetscReal T = 0.5, vthr = 0.02, expected = (T - (1 - vthr) / 3) / T;
  SKInput input;
  SKExplicit ex;
  PetscReal m, vyc, ebal0, dt, dtc, dte, t, ds, dc, global;
  PetscInt step;

  PetscFunctionBeginUser;
  PetscCall(SlideCreate(0, 0, 1, "stick_velocity=\"0.02\"", &input, &ex, &m, &vyc, &ebal0));
  PetscCall(SKExplicitGetTimeStep(ex, &dt, &dtc, &dte));
  PetscCall(SKExplicitAdvance(ex, (PetscInt)PetscCeilReal(T / dt - 0.5)));
  PetscCall(SKExplicitGetTime(ex, &t, &step));
  PetscCall(StickTimeDeviation(ex, t, (t - (1 - vthr) / 3) / t, &ds, &dc, &global));
  PetscCall(
      PetscPrintf(PETSC_COMM_WORLD,
                  "stick onset: t = %g s, expected ratio %.6g, max nodal deviation %.3g, global %.6g, max contact-time deviation %.3g\n",
                  (double)t, (double)expected, (double)ds, (double)global, (double)dc));
  PetscCheck(ds < 5e-3 && PetscAbsReal(global - (t - (1 - vthr) / 3) / t) < 5e-3, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "stick onset: nodal sticking-time ratio off by %g (global %g), expected %g", (double)ds, (double)global, (double)expected);
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block 0.4 x 0.1 (40 kg per metre) on the plane y = 0 with the default LuGre moduli, body force (3, -4) N/kg. */
static const char lugre_block[] = "<explicit>"
                                  "<mesh><rectangle type=\"Q4\" cells=\"4 1\" lower=\"0 0\" upper=\"0.4 0.1\"/></mesh>"
                                  "<sideset name=\"base\" axis=\"y\" value=\"0\"/>"
                                  "<block name=\"body\" material=\"linear_elastic\" E=\"1e7\" nu=\"0\" rho=\"1000\" "
                                  "stress_state=\"plane_strain\"/>"
                                  "<gravity acceleration=\"3 -4\"/>"
                                  "<contact name=\"floor\" sideset=\"base\" point=\"0 0\" normal=\"0 1\" penalty=\"1e7\" damping=\"%s\">"
                                  "<friction law=\"lugre\" mu_s=\"0.45\" mu_k=\"0.3\"/></contact>"
                                  "<time end=\"0.1\" safety=\"0.9\"/></explicit>";

/* The friction moduli in the automatic step (SKContactPairGetStepBound(), docs/theory.md "Critical time step"): the
   estimated normal load is twice the peak load resultant, 2 * 40 kg * 5 N/kg = 400 N; the bound is the smallest
   dt_a = 4 / (c_a/m_a + sqrt((c_a/m_a)^2 + 4 (omega2 + (eps_N w_a + sigma0 N_a)/m_a))) with N_a = 400 N w_a / sum w and
   c_a = (sigma1 + sigma2) N_a when the damping is explicit, 0 when implicit (closed form evaluated here; the two differ
   only by round-off: bound 1e-13); and the automatic step is safety times the smaller of the two critical steps. */
static PetscErrorCode StepBoundTest(const char damping[])
{
  const PetscReal omega2 = 1e7, load = 400, eps_n = 1e7, sigma0 = 1e5, sigma12 = PetscSqrtReal(1e5) + 0.4;
  const PetscBool explicit_damping = (PetscBool)(damping[0] == 'e');
  char text[2048];
  SKInput input;
  SKExplicit ex;
  SKContactPair cp;
  const PetscReal *w, *fn, *ft, *mass;
  const PetscInt *nodes;
  PetscInt n;
  PetscReal wsum = 0, want = PETSC_MAX_REAL, want_contact = PETSC_MAX_REAL, got, got_contact, dt, dtc;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(text, sizeof(text), lugre_block, damping));
  PetscCall(SKTestExplicitCreate("lugre", text, &input, &ex));
  cp = SKTestExplicitContact(ex, 0);
  PetscCall(SKContactPairGetNodal(cp, &n, &nodes, &w, &fn, &ft));
  PetscCall(SKExplicitGetState(ex, NULL, NULL, NULL, NULL, &mass));
  for (PetscInt i = 0; i < n; i++) wsum += w[i];
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal m = mass[nodes[i]], N = load * w[i] / wsum, cm = explicit_damping ? sigma12 * N / m : 0;
    want = PetscMin(want, 4 / (cm + PetscSqrtReal(cm * cm + 4 * (omega2 + (eps_n * w[i] + sigma0 * N) / m))));
    /* the contact dt: margin 0.8 over the node's frequency on its contact springs alone (docs/theory.md, "Energy of contact") */
    want_contact = PetscMin(want_contact, 0.8 / PetscSqrtReal((eps_n * w[i] + sigma0 * N) / m));
  }
  PetscCall(SKContactPairGetStepBound(cp, mass, omega2, load, &got));
  PetscCall(SKContactPairGetContactStep(cp, &got_contact));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "contact dt (%s damping): %.15g s, closed form %.15g s\n", damping, (double)got_contact,
                        (double)want_contact));
  PetscCheck(PetscAbsReal(got_contact - want_contact) <= 1e-13 * want_contact, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "contact dt %.17g s, closed form %.17g s", (double)got_contact, (double)want_contact);
  PetscCall(SKExplicitGetTimeStep(ex, &dt, &dtc, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step bound (%s damping): %.15g s, closed form %.15g s; normal load estimate %g N\n", damping,
                        (double)got, (double)want, (double)ex->normal_load));
  PetscCheck(PetscAbsReal(got - want) <= 1e-13 * want, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step bound %.17g s, closed form %.17g s",
             (double)got, (double)want);
  PetscCheck(PetscAbsReal(ex->normal_load - load) <= 1e-12 * load, PETSC_COMM_WORLD, PETSC_ERR_PLIB,
             "normal load estimate %g N, expected %g N", (double)ex->normal_load, (double)load);
  PetscCheck(ex->dt_friction <= dtc && dt == 0.1 / PetscCeilReal(0.1 / (0.9 * PetscMin(ex->dt_friction, got_contact))), PETSC_COMM_WORLD,
             PETSC_ERR_PLIB, "automatic step %g s from the critical steps %g s, %g s (friction) and %g s (contact)", (double)dt,
             (double)dtc, (double)ex->dt_friction, (double)got_contact);
  PetscCall(SKExplicitDestroy(&ex));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *types2[] = {"Q4", "Q9", "T3"}, *types3[] = {"H8", "H27", "T4"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (PetscInt i = 0; i < 3; i++) PetscCall(PatchTest(types2[i], 2));
  for (PetscInt i = 0; i < 3; i++) PetscCall(PatchTest(types3[i], 3));
  PetscCall(SlideTest(5, 0.1, 0)); /* pushed: a = 5 - 0.3 * 10 = 2 m/s^2 */
  PetscCall(SlideTest(0, 0, 1));   /* dragged by the plane moving at 1 m/s: a = +3 m/s^2, slower than the plane up to 0.2 s */
  PetscCall(StickOnsetTest());
  PetscCall(StepBoundTest("explicit"));
  PetscCall(StepBoundTest("implicit"));
  PetscCall(PetscFinalize());
  return 0;
}
