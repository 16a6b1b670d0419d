/* The child iteration of input elements (input.h): SKNodeFirstChild()/SKNodeNextSibling() visit the child elements
   of one name (or all, NAME NULL) in document order, skipping comments, text and elements of other names;
   SKNodeCountChildren() counts them; NULL parents and the end of the list give NULL. Exact comparisons: names and counts
   have no tolerance. */
#include <stickslip/input.h>
#include <stickslip/solver.h>

/* The value of attribute 'name' of NODE ("" when NODE is NULL). */
static PetscErrorCode Name(SKInput input, SKNode node, char name[], size_t len)
{
  PetscFunctionBegin;
  name[0] = 0;
  if (node) PetscCall(SKInputGetString(input, node, "name", name, len, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *text = "<?xml version='1.0'?>\n<mesh dim='2'>\n  <nodes>0 0 1 0 0 1 1 1</nodes>\n"
                     "  <block name='a' type='T3'>0 1 2</block>\n  <!-- a comment between the blocks -->\n"
                     "  <block name='b' type='T3'>1 3 2</block>\n  <nodeset name='s1'>0 1</nodeset>\n"
                     "  <nodeset name='s2'>2</nodeset>\n</mesh>\n";
  SKInput input;
  SKNode root, c, first;
  char name[64], order[64] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SKSolverRegisterAll()); /* <mesh> as a root element */
  PetscCall(SKInputLoadMemory(PETSC_COMM_WORLD, "children.xml", text, strlen(text), &input));
  PetscCall(SKInputGetRoot(input, &root));

  /* one name: the blocks in document order, the comment and the other elements skipped */
  for (c = SKNodeFirstChild(root, "block"); c; c = SKNodeNextSibling(c, "block")) {
    PetscCall(Name(input, c, name, sizeof(name)));
    PetscCall(PetscStrlcat(order, name, sizeof(order)));
  }
  PetscCheck(!strcmp(order, "ab"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "blocks visited as '%s', expected 'ab'", order);
  /* all elements (NAME NULL): nodes, a, b, s1, s2 */
  order[0] = 0;
  for (c = SKNodeFirstChild(root, NULL); c; c = SKNodeNextSibling(c, NULL)) {
    PetscCall(PetscStrlcat(order, SKNodeName(c), sizeof(order)));
    PetscCall(PetscStrlcat(order, " ", sizeof(order)));
  }
  PetscCheck(!strcmp(order, "nodes block block nodeset nodeset "), PETSC_COMM_SELF, PETSC_ERR_PLIB, "elements visited as '%s'", order);
  /* from one name to the next element of another: block a -> nodeset s1 */
  PetscCall(Name(input, SKNodeNextSibling(SKNodeFirstChild(root, "block"), "nodeset"), name, sizeof(name)));
  PetscCheck(!strcmp(name, "s1"), PETSC_COMM_SELF, PETSC_ERR_PLIB, "the nodeset after block a is '%s', expected 's1'", name);
  /* counts, absent names, NULL and the end of the list */
  PetscCheck(SKNodeCountChildren(root, "block") == 2 && SKNodeCountChildren(root, "nodeset") == 2 && SKNodeCountChildren(root, NULL) == 5 &&
                 SKNodeCountChildren(root, "sideset") == 0 && SKNodeCountChildren(NULL, "block") == 0,
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "wrong child counts");
  PetscCheck(!SKNodeFirstChild(root, "sideset") && !SKNodeFirstChild(NULL, NULL) && !SKNodeNextSibling(NULL, NULL), PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "an absent child is not NULL");
  PetscCheck(!SKNodeNextSibling(SKNodeNextSibling(SKNodeFirstChild(root, "nodeset"), "nodeset"), "nodeset"), PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "the last nodeset has a next one");
  /* SKNodeGetChild() is the first of the iteration, also for NAME NULL */
  PetscCall(SKNodeGetChild(root, NULL, &first));
  PetscCheck(first == SKNodeFirstChild(root, NULL) && !strcmp(SKNodeName(first), "nodes"), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "SKNodeGetChild(root, NULL) is not the first element");
  PetscCall(SKInputDestroy(&input));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "child iteration ok\n"));
  PetscCall(PetscFinalize());
  return 0;
}
