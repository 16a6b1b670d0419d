/* Unit tests of the "springslider" and "burridgeknopoff" solvers through the solver interface (independent of the app's
   registration list): valid inputs set up and run into results.h5; bad physics values are refused by setup with an
   input error "NAME:LINE: message" at the offending element (sigma0 <= 0, v_s < 0, mu_k > mu_s, ...). */
#include <string.h>
#include <stickslip/rigid.h>

#define CHECK(cond, ...) PetscCheck(cond, PETSC_COMM_SELF, PETSC_ERR_PLIB, __VA_ARGS__)

static const char *const springslider = "<springslider>\n"
                                        "  <block mass=\"1\" gravity=\"9.81\"/>\n"
                                        "  <spring stiffness=\"100\" velocity=\"0.02\"/>\n"
                                        "  <friction law=\"lugre\" mu_s=\"0.45\" mu_k=\"0.3\" v_s=\"1e-3\" sigma0=\"1e5\"/>\n" /* line 4 */
                                        "  <time end=\"0.5\" output=\"1e-2\"/>\n"
                                        "</springslider>\n";
static const char *const bk = "<burridgeknopoff>\n"
                              "  <blocks n=\"3\" mass=\"1\" perturbation=\"1e-3\"/>\n" /* line 2 */
                              "  <support stiffness=\"100\" velocity=\"0.02\"/>\n"
                              "  <coupling stiffness=\"200\"/>\n"
                              "  <friction law=\"lugre\" mu_s=\"0.45\" mu_k=\"0.3\" v_s=\"1e-3\" sigma0=\"1e5\"/>\n" /* line 5 */
                              "  <time end=\"0.5\" output=\"1e-2\"/>\n"
                              "</burridgeknopoff>\n";

/* Replaces the first OLD in TEXT by NEW into buf. */
static PetscErrorCode Substitute(const char text[], const char old[], const char new_[], char buf[], size_t len)
{
  char *hit;
  size_t pre;

  PetscFunctionBeginUser;
  PetscCall(PetscStrstr(text, old, &hit));
  CHECK(hit, "'%s' not in the base input", old);
  pre = (size_t)(hit - text);
  CHECK(pre + strlen(new_) + strlen(hit + strlen(old)) < len, "buffer too small");
  memcpy(buf, text, pre);
  strcpy(buf + pre, new_);
  strcat(buf, hit + strlen(old));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Loads TEXT and runs setup (and, if RUN, the study into a scratch directory); returns the error code of the first
   failure and its message. */
static PetscErrorCode TrySetup(const char text[], PetscBool run, PetscErrorCode *err, char msg[], size_t len)
{
  SKInput input            = NULL;
  const SKSolverType *type = NULL;
  void *ctx                = NULL;
  SKNode root;
  SKOutput out = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  msg[0] = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SKInputLoadMemory(PETSC_COMM_SELF, "mem.xml", text, strlen(text), &input);
  if (!ierr) ierr = SKInputGetRoot(input, &root);
  if (!ierr) ierr = SKSolverFind(SKNodeName(root), &type);
  if (!ierr) ierr = type->setup(input, &ctx);
  if (!ierr && run) ierr = SKOutputCreate(PETSC_COMM_SELF, "rigid_solvers_out", PETSC_TRUE, input, &out);
  if (!ierr && run) ierr = type->run(ctx, out);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    const char *text_;
    char *specific;
    PetscCall(PetscErrorMessage(ierr, &text_, &specific));
    PetscCall(PetscStrncpy(msg, specific ? specific : "", len));
  }
  *err = ierr;
  if (out) PetscCall(SKOutputDestroy(&out));
  if (type && ctx) PetscCall(type->destroy(&ctx));
  PetscCall(SKInputDestroy(&input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* (base, attribute text, replacement, expected line, expected message part) */
  const struct {
    const char *base, *old, *new_;
    int line;
    const char *expect;
  } bad[] = {
      {springslider, "sigma0=\"1e5\"", "sigma0=\"0\"", 4, "sigma0 = 0"},
      {springslider, "v_s=\"1e-3\"", "v_s=\"-1e-3\"", 4, "v_s = -0.001 m/s must be >= 0"},
      {springslider, "mu_k=\"0.3\"", "mu_k=\"0.5\"", 4, "must not exceed mu_s"},
      {springslider, "law=\"lugre\"", "law=\"dahl\"", 4, "unknown friction law 'dahl'; known: lugre"},
      {bk, "sigma0=\"1e5\"", "sigma0=\"-5\"", 5, "sigma0 = -5"},
      {bk, "law=\"lugre\" mu_s=\"0.45\" mu_k=\"0.3\" v_s=\"1e-3\" sigma0=\"1e5\"", "law=\"coulomb-modified\" mu_s=\"0.45\" mu_k=\"0.3\"", 5,
       "without a continuous form"},
      {bk, "law=\"lugre\"", "law=\"coulomb-modified\"", 5, "friction law 'coulomb-modified' does not use v_s"}, /* the LuGre parameters */
      {bk, "perturbation=\"1e-3\"", "initial=\"0 0\"", 2, "initial lists 2 displacements for n = 3 blocks"},
  };
  char buf[2048], msg[512], expect[64];
  PetscErrorCode err;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKInitializePackage());
  {
    const SKSolverType *t;
    PetscCall(SKSolverFind("springslider", &t));
    if (!t) PetscCall(SKSolverRegister(&SKSolverSpringSlider));
    PetscCall(SKSolverFind("burridgeknopoff", &t));
    if (!t) PetscCall(SKSolverRegister(&SKSolverBurridgeKnopoff));
  }
  PetscCall(TrySetup(springslider, PETSC_TRUE, &err, msg, sizeof(msg)));
  CHECK(!err, "valid springslider input failed: %s", msg);
  PetscCall(TrySetup(bk, PETSC_TRUE, &err, msg, sizeof(msg)));
  CHECK(!err, "valid burridgeknopoff input failed: %s", msg);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char *hit;
    PetscCall(Substitute(bad[i].base, bad[i].old, bad[i].new_, buf, sizeof(buf)));
    PetscCall(TrySetup(buf, PETSC_FALSE, &err, msg, sizeof(msg)));
    PetscCall(PetscSNPrintf(expect, sizeof(expect), "mem.xml:%d: ", bad[i].line));
    PetscCall(PetscStrstr(msg, bad[i].expect, &hit));
    CHECK(err == SK_ERR_INPUT && !strncmp(msg, expect, strlen(expect)) && hit,
          "bad input %zu: error %d, message '%s' (expected '%s... %s')", i, (int)err, msg, expect, bad[i].expect);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "refused: %s\n", msg));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rigid solvers: all checks passed\n"));
  PetscCall(PetscFinalize());
  return 0;
}
