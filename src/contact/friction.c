/* contact: the friction-law registry, creation from parameters or XML, parameter checks, and the Stribeck curve and
   stick threshold shared by every law. The laws themselves are in friction_<law>.c. */
#include <stddef.h>
#include <string.h>
#include "frictionimpl.h"
#include "shared/registry.h"

/* The registry (shared/registry.h): law name -> the law's create function; the built-in laws first. */
static PetscErrorCode SKFrictionLawRegisterBuiltin(void)
{
  PetscFunctionBegin;
  PetscCall(SKFrictionLawRegister("lugre", SKFrictionLawCreate_LuGre));
  PetscCall(SKFrictionLawRegister("coulomb", SKFrictionLawCreate_Coulomb));
  PetscCall(SKFrictionLawRegister("coulomb-modified", SKFrictionLawCreate_CoulombModified));
  PetscCall(SKFrictionLawRegister("coulomb-tanh", SKFrictionLawCreate_CoulombTanh));
  PetscCall(SKFrictionLawRegister("coulomb-threlfall", SKFrictionLawCreate_CoulombThrelfall));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static SKRegistry SKFrictionLaws =
    SK_REGISTRY_INITIALIZER("friction law", sizeof(((struct _p_SKFrictionLaw *)NULL)->name) - 1, SKFrictionLawRegisterBuiltin);
static PetscBool SKContactPackageInitialized = PETSC_FALSE;
PetscLogEvent SK_CONTACT_Force, SK_CONTACT_Search, SK_CONTACT_Grid;

static PetscErrorCode SKContactFinalizePackage(void)
{
  PetscFunctionBegin;
  SKContactPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKContactInitializePackage(void)
{
  PetscFunctionBegin;
  if (SKContactPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  SKContactPackageInitialized = PETSC_TRUE;
  PetscCall(SKInitializePackage());
  PetscCall(PetscLogEventRegister("ContactForce", SK_CLASSID, &SK_CONTACT_Force));
  PetscCall(PetscLogEventRegister("ContactSearch", SK_CLASSID, &SK_CONTACT_Search));
  PetscCall(PetscLogEventRegister("ContactGrid", SK_CLASSID, &SK_CONTACT_Grid));
  PetscCall(PetscRegisterFinalize(SKContactFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawRegister(const char name[], PetscErrorCode (*create)(SKFrictionLaw))
{
  PetscFunctionBegin;
  PetscCall(SKRegistryAdd(&SKFrictionLaws, name, NULL, (SKRegistryFn)create, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawList(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(SKContactInitializePackage());
  PetscCall(SKRegistryList(&SKFrictionLaws, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionParamsSetDefaults(SKFrictionParams *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->v_s         = 1e-3;
  p->theta       = 2;
  p->sigma0      = 1e5;
  p->sigma1      = PetscSqrtReal(1e5);
  p->sigma2      = 0.4;
  p->eps_t       = 1e6;
  p->v_reg       = 1e-3;
  p->k_threlfall = 3;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checks every law shares (properties of friction itself), then the law's own (ops.check), in a fixed order; the
   first failing one is reported. Shared by SKFrictionLawCreate() (PETSc error) and SKFrictionLawCreateFromXML()
   (FILE:LINE input error) so both refuse exactly the same values. */
static PetscErrorCode FrictionParamsCheck(SKFrictionLaw law, SKFrictionCheck *fail)
{
  const SKFrictionParams *p = &law->params;

  PetscFunctionBegin;
  fail->ok = PETSC_TRUE;
  SKFrictionCheckThat(fail, "mu_k", p->mu_k >= 0 && PetscIsNormalReal(p->mu_k + 1), "friction mu_k = %g must be >= 0", (double)p->mu_k);
  SKFrictionCheckThat(fail, "mu_k", p->mu_k <= p->mu_s, "friction mu_k = %g must not exceed mu_s = %g", (double)p->mu_k, (double)p->mu_s);
  if (law->ops.check) PetscCall(law->ops.check(p, fail));
  SKFrictionCheckThat(fail, "stick_velocity", p->stick_velocity >= 0, "friction stick_velocity = %g m/s must be >= 0",
                      (double)p->stick_velocity);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A law of registered type NAME with parameter record P and its ops (not yet checked or set up); NULL when NAME is not
   registered. */
static PetscErrorCode FrictionLawNew(MPI_Comm comm, const char name[], const SKFrictionParams *p, SKFrictionLaw *law)
{
  SKRegistryFn create;
  SKFrictionLaw l;
  PetscInt i;

  PetscFunctionBegin;
  *law = NULL;
  PetscCall(SKRegistryFind(&SKFrictionLaws, name, &i));
  if (i < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SKRegistryGet(&SKFrictionLaws, i, NULL, NULL, &create));
  PetscCall(PetscNew(&l));
  l->comm   = comm;
  l->params = *p;
  PetscCall(PetscStrncpy(l->name, name, sizeof(l->name)));
  PetscCall(((PetscErrorCode(*)(SKFrictionLaw))create)(l));
  PetscCheck(l->ops.step && l->ops.state_size && l->ops.moduli && l->ops.setup, comm, PETSC_ERR_PLIB,
             "friction law '%s' did not set its step, state_size, moduli and setup ops", name);
  *law = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawCreate(MPI_Comm comm, const char name[], const SKFrictionParams *p, SKFrictionLaw *law)
{
  SKFrictionLaw l;
  SKFrictionCheck fail;
  char unknown[1280] = "";

  PetscFunctionBegin;
  *law = NULL;
  PetscCall(SKContactInitializePackage());
  PetscCall(FrictionLawNew(comm, name, p, &l));
  if (!l) PetscCall(SKRegistryUnknown(&SKFrictionLaws, name, unknown, sizeof(unknown)));
  PetscCheck(l, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "%s", unknown);
  PetscCall(FrictionParamsCheck(l, &fail));
  if (!fail.ok) PetscCall(SKFrictionLawDestroy(&l));
  PetscCheck(fail.ok, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s", fail.msg);
  PetscCall(l->ops.setup(l));
  *law = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the space-separated LIST holds the word NAME. */
static PetscBool ListHas(const char *list, const char *name)
{
  const size_t n = strlen(name);
  for (const char *s = list; (s = strstr(s, name)); s += n)
    if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0')) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode SKFrictionLawCreateFromXML(SKInput input, SKNode node, SKFrictionLaw *law)
{
  static const struct {
    const char *attr;
    size_t offset;
  } attrs[] = {
      {"mu_s", offsetof(SKFrictionParams, mu_s)},
      {"mu_k", offsetof(SKFrictionParams, mu_k)},
      {"v_s", offsetof(SKFrictionParams, v_s)},
      {"theta", offsetof(SKFrictionParams, theta)},
      {"sigma0", offsetof(SKFrictionParams, sigma0)},
      {"sigma1", offsetof(SKFrictionParams, sigma1)},
      {"sigma2", offsetof(SKFrictionParams, sigma2)},
      {"eps_t", offsetof(SKFrictionParams, eps_t)},
      {"v_reg", offsetof(SKFrictionParams, v_reg)},
      {"k_threlfall", offsetof(SKFrictionParams, k_threlfall)},
      {"stick_velocity", offsetof(SKFrictionParams, stick_velocity)},
  };
  SKFrictionParams p;
  SKFrictionLaw l;
  SKFrictionCheck fail;
  MPI_Comm comm;
  char name[64], unknown[1280] = "";
  PetscBool has_mu_s;

  PetscFunctionBegin;
  *law = NULL;
  PetscCall(SKContactInitializePackage());
  PetscCall(SKInputGetComm(input, &comm));
  PetscCall(SKFrictionParamsSetDefaults(&p));
  PetscCall(SKInputRequireString(input, node, "law", name, sizeof(name)));
  for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
    PetscCall(SKInputGetReal(input, node, attrs[i].attr, (PetscReal *)((char *)&p + attrs[i].offset), NULL));
  /* classical Coulomb has one coefficient: mu_k alone means mu_s = mu_k */
  PetscCall(SKInputGetReal(input, node, "mu_s", &p.mu_s, &has_mu_s));
  if (!has_mu_s) p.mu_s = p.mu_k;
  PetscCall(FrictionLawNew(comm, name, &p, &l));
  if (!l) PetscCall(SKRegistryUnknown(&SKFrictionLaws, name, unknown, sizeof(unknown)));
  PetscCall(SKInputCheck(input, node, l != NULL, "%s", unknown));
  /* a parameter the law does not read is a mistake (a value meant for another law, a misplaced attribute): refused */
  for (size_t i = 0; l->ops.params && i < sizeof(attrs) / sizeof(attrs[0]); i++) {
    const char *params = l->ops.params; /* a string constant of the law: outlives l */
    char value[64];
    PetscBool given;
    if (!strcmp(attrs[i].attr, "stick_velocity") || ListHas(params, attrs[i].attr)) continue;
    PetscCall(SKInputGetString(input, node, attrs[i].attr, value, sizeof(value), &given));
    if (given) PetscCall(SKFrictionLawDestroy(&l));
    PetscCall(SKInputCheck(input, node, !given, "friction law '%s' does not use %s (its parameters: %s stick_velocity)", name,
                           attrs[i].attr, params));
  }
  PetscCall(FrictionParamsCheck(l, &fail));
  if (!fail.ok) PetscCall(SKFrictionLawDestroy(&l));
  PetscCall(SKInputCheck(input, node, fail.ok, "%s", fail.msg));
  if (l->ops.setfromxml) { /* a law's own attributes: refused, the law is freed here */
    PetscErrorCode ierr = l->ops.setfromxml(l, input, node);
    if (ierr) PetscCall(SKFrictionLawDestroy(&l));
    PetscCall(ierr);
  }
  PetscCall(l->ops.setup(l));
  *law = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawDestroy(SKFrictionLaw *law)
{
  PetscFunctionBegin;
  if (!law || !*law) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*law)->data));
  PetscCall(PetscFree(*law));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawGetName(SKFrictionLaw law, const char *name[])
{
  PetscFunctionBegin;
  *name = law->name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawGetParams(SKFrictionLaw law, const SKFrictionParams **p)
{
  PetscFunctionBegin;
  *p = &law->params;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawGetStateSize(SKFrictionLaw law, PetscInt dim, PetscInt *nstate)
{
  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 2, law->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "friction laws take 1 or 2 tangential components, not %" PetscInt_FMT, dim);
  *nstate = law->ops.state_size(dim);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawGetKernels(SKFrictionLaw law, SKFrictionStepFn *step, SKFrictionRateFn *rate, const void **ctx)
{
  PetscFunctionBegin;
  if (step) *step = law->ops.step;
  if (rate) *rate = law->ops.rate;
  if (ctx) *ctx = law->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawGetTangentModuli(SKFrictionLaw law, PetscReal N, PetscReal *stiffness, PetscReal *damping)
{
  PetscReal k = 0, c = 0;

  PetscFunctionBegin;
  law->ops.moduli(law->data, N, &k, &c);
  if (stiffness) *stiffness = k;
  if (damping) *damping = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKFrictionLawStep(SKFrictionLaw law, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[],
                                 PetscReal F[], SKFrictionInfo *info)
{
  PetscFunctionBegin;
  PetscCheck(dim >= 1 && dim <= 2, law->comm, PETSC_ERR_ARG_OUTOFRANGE,
             "friction laws take 1 or 2 tangential components, not %" PetscInt_FMT, dim);
  PetscCheck(dt >= 0 && N >= 0, law->comm, PETSC_ERR_ARG_OUTOFRANGE, "friction step needs dt >= 0 and N >= 0 (got dt = %g s, N = %g)",
             (double)dt, (double)N);
  law->ops.step(law->data, dim, dt, N, v, state, F, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal SKFrictionStribeck(const SKFrictionParams *p, PetscReal speed)
{
  const SKStribeckCurve c = SKStribeckCurveFromParams(p);
  return SKStribeckValue(&c, speed);
}

void SKStribeckDerivative(const SKStribeckCurve *p, PetscReal speed, PetscReal *G, PetscReal *dG)
{
  PetscReal r, e;

  *G  = SKStribeckValue(p, speed);
  *dG = 0;
  if (p->v_s <= 0) return;
  r = speed / p->v_s;
  if (speed == 0 && p->theta < 1) return;
  e   = PetscExpReal(-PetscPowReal(r, p->theta));
  *dG = -(p->mu_s - p->mu_k) * e * p->theta * (p->theta == 1 ? 1 : PetscPowReal(r, p->theta - 1)) / p->v_s;
}

PetscReal SKFrictionStickThreshold(const SKFrictionParams *p)
{
  return p->stick_velocity > 0 ? p->stick_velocity : p->v_s;
}

PetscBool SKFrictionIsSticking(const SKFrictionParams *p, PetscReal speed)
{
  return SKFrictionBelowThreshold(SKFrictionStickThreshold(p), speed);
}
