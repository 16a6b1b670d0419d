/* Unit test of the force-term seam of the explicit solver (SKExplicitTermOps in src/dynamics/explicitimpl.h,
   docs/developing.md "A force term"): a term with a state, written here outside the library, checkpoints that state
   through its ops, and a fresh solver loaded from the checkpoint continues bit for bit like the original (the
   explicit loop, the checkpoint writer and reader reach the term only through its ops). Without the restored state
   the continuation differs: the test sees the state. */
#include "test_explicit_common.h"
#include "../../../src/dynamics/explicitimpl.h" /* white box: SKExplicitAddTerm, the nodes' coordinates */
#include <stdio.h>
#include <unistd.h>

static const char text[] = "<explicit>"
                           "<mesh><rectangle type=\"Q4\" cells=\"8 2\" lower=\"0 0\" upper=\"0.4 0.1\"/></mesh>"
                           "<block name=\"body\" material=\"neo_hookean\" E=\"1e6\" nu=\"0.3\" rho=\"1000\"/>"
                           "<displacement nodeset=\"left\" component=\"all\"/>"
                           "<gravity acceleration=\"0 -9.81\"/>"
                           "<initial_velocity nodeset=\"all\" value=\"0 0.3\"/>"
                           "<time end=\"1\"/>"
                           "</explicit>";

/* The test's term: a stiffening spring to ground on the nodes at x = 0.4, f = -k (1 + umax / 0.01 m) u, where umax is
   the largest |u_y| the node has had (a state: it depends on the whole history). */
typedef struct {
  PetscInt n, nodes[8];
  PetscReal k, umax[8];
} TestTerm;

static PetscErrorCode TestTermForce(void *ctx, PetscReal t, PetscInt nlocal, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                    PetscReal f[])
{
  TestTerm *tt = (TestTerm *)ctx;

  PetscFunctionBeginUser;
  (void)t, (void)nlocal, (void)X, (void)v;
  for (PetscInt i = 0; i < tt->n; i++) {
    const PetscInt a = tt->nodes[i];
    tt->umax[i]      = PetscMax(tt->umax[i], PetscAbsReal(u[2 * a + 1]));
    for (PetscInt d = 0; d < 2; d++) f[2 * a + d] -= tt->k * (1 + tt->umax[i] / 0.01) * u[2 * a + d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTermRestartSize(void *ctx, PetscInt *width)
{
  PetscFunctionBeginUser;
  (void)ctx;
  *width = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTermPack(void *ctx, PetscInt nowned, PetscReal nodal[], PetscReal scalars[])
{
  const TestTerm *tt = (const TestTerm *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt a = 0; a < nowned; a++) nodal[a] = 0;
  for (PetscInt i = 0; i < tt->n; i++) nodal[tt->nodes[i]] = tt->umax[i];
  for (PetscInt k = 0; k < SK_EXPLICIT_TERM_RESTART_NSCALAR; k++) scalars[k] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTermUnpack(void *ctx, PetscInt nowned, const PetscReal nodal[], const PetscReal scalars[])
{
  TestTerm *tt = (TestTerm *)ctx;

  PetscFunctionBeginUser;
  (void)nowned, (void)scalars;
  for (PetscInt i = 0; i < tt->n; i++) tt->umax[i] = nodal[tt->nodes[i]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTermDestroy(void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SKExplicitTermOps TestTermOps = {.type          = "test-spring",
                                              .restartsize   = TestTermRestartSize,
                                              .packrestart   = TestTermPack,
                                              .unpackrestart = TestTermUnpack,
                                              .destroy       = TestTermDestroy};

/* A solver of the input above with the test's term registered on it. */
static PetscErrorCode CreateWithTerm(const char name[], SKInput *in, SKExplicit *ex, TestTerm **term)
{
  TestTerm *tt;

  PetscFunctionBeginUser;
  PetscCall(SKTestExplicitCreate(name, text, in, ex));
  PetscCall(PetscNew(&tt));
  tt->k = 2e4;
  for (PetscInt a = 0; a < (*ex)->nowned; a++)
    if (PetscAbsReal((*ex)->X[2 * a] - 0.4) < 1e-12 && tt->n < 8) tt->nodes[tt->n++] = a;
  PetscCheck(tt->n == 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the right end has %" PetscInt_FMT " nodes, expected 3", tt->n);
  PetscCall(SKExplicitAddTerm(*ex, "test-spring", TestTermForce, &TestTermOps, tt, -1));
  PetscCall(SKExplicitFinishStep(*ex, PETSC_TRUE)); /* the term acts from now on */
  *term = tt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  SKInput in1, in2, in3;
  SKExplicit a, b, c;
  TestTerm *ta, *tb, *tc;
  char dir[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  const PetscReal *ua, *ub, *uc;
  PetscInt n;
  PetscBool differs = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "term_checkpoint_test_%d", (int)getpid()));
  PetscCall(CreateWithTerm("a", &in1, &a, &ta));
  PetscCall(SKExplicitAdvance(a, 60));
  PetscCall(SKExplicitWriteCheckpoint(a, dir, 1));
  PetscCall(SKExplicitAdvance(a, 40));
  PetscCheck(ta->umax[0] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the term's state never changed");

  /* a fresh solver loaded from step 60 reaches step 100 with exactly the original's state */
  PetscCall(CreateWithTerm("b", &in2, &b, &tb));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint_%010d.h5", dir, 60));
  PetscCall(SKExplicitLoadCheckpoint(b, path));
  PetscCall(SKExplicitAdvance(b, 40));
  PetscCall(SKExplicitGetState(a, &n, &ua, NULL, NULL, NULL));
  PetscCall(SKExplicitGetState(b, NULL, &ub, NULL, NULL, NULL));
  for (PetscInt i = 0; i < 2 * n; i++)
    PetscCheck(ua[i] == ub[i], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "dof %" PetscInt_FMT " differs after the restart: %.17g, %.17g", i,
               (double)ua[i], (double)ub[i]);
  for (PetscInt i = 0; i < ta->n; i++)
    PetscCheck(ta->umax[i] == tb->umax[i], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the term's state differs after the restart");

  /* the same restart with the term's state lost: the motion differs, so the comparison above saw the state */
  PetscCall(CreateWithTerm("c", &in3, &c, &tc));
  PetscCall(SKExplicitLoadCheckpoint(c, path));
  for (PetscInt i = 0; i < tc->n; i++) tc->umax[i] = 0;
  PetscCall(SKExplicitAdvance(c, 40));
  PetscCall(SKExplicitGetState(c, NULL, &uc, NULL, NULL, NULL));
  for (PetscInt i = 0; i < 2 * n; i++) differs = (PetscBool)(differs || ua[i] != uc[i]);
  PetscCheck(differs, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the motion does not depend on the term's state: the test cannot fail");

  (void)unlink(path);
  (void)rmdir(dir);
  PetscCall(SKExplicitDestroy(&a));
  PetscCall(SKExplicitDestroy(&b));
  PetscCall(SKExplicitDestroy(&c));
  PetscCall(SKInputDestroy(&in1));
  PetscCall(SKInputDestroy(&in2));
  PetscCall(SKInputDestroy(&in3));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "force-term seam: a term's state checkpointed through its ops restarts bit for bit\n"));
  PetscCall(PetscFinalize());
  return 0;
}
