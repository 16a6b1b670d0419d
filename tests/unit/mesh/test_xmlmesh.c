/* Unit test of XML mesh files and the <mesh> element: explicit data, generators, file references, and refusal of
   bad meshes with "FILE:LINE:" messages at the offending element (node out of range, inverted element, unknown
   type, empty set, ...). */
#include "mesh_test_util.h"

/* Lines: 1 declaration, 2 <mesh>, 3 <nodes>, 4 Q4 block, 5 T3 block, 6 node set, 7 side set, 8 </mesh>. */
static const char plate[] = "<?xml version=\"1.0\"?>\n"
                            "<mesh dim=\"2\">\n"
                            "  <nodes>0 0  1 0  2 0  0 1  1 1  2 1</nodes>\n"
                            "  <block name=\"left\" id=\"7\" type=\"Q4\">0 1 4 3</block>\n"
                            "  <block name=\"right\" type=\"T3\">1 2 5  1 5 4</block>\n"
                            "  <nodeset name=\"clamp\">0 3</nodeset>\n"
                            "  <sideset name=\"bottom\">0 0  1 0</sideset>\n"
                            "</mesh>\n";

/* Reads TEXT with FROM replaced by TO as DIR/x.xml and expects an input error "x.xml:LINE:" containing WANT. */
static PetscErrorCode CheckPlate(const char dir[])
{
  char path[PETSC_MAX_PATH_LEN];
  SKMesh mesh;
  PetscInt ne, nb, id, n, first;
  const PetscInt *nodes, *elements, *faces;
  const char *name;
  SKElementType type;

  PetscFunctionBegin;
  PetscCall(WriteTempFile(dir, "x.xml", plate, path, sizeof(path)));
  PetscCall(SKMeshCreateFromFile(PETSC_COMM_SELF, path, &mesh));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  PetscCall(SKMeshGetNumBlocks(mesh, &nb));
  PetscCheck(ne == 3 && nb == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "plate: %" PetscInt_FMT " elements, %" PetscInt_FMT " blocks", ne, nb);
  PetscCall(SKMeshGetBlock(mesh, 1, &name, &id, &type, &n, &first, &nodes));
  /* The second block gets the default id 1 + its position. */
  PetscCheck(!strcmp(name, "right") && id == 2 && type == SK_ELEMENT_T3 && n == 2 && first == 1 && nodes[5] == 4, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "plate: block 'right'");
  PetscCall(SKMeshGetBlock(mesh, 0, NULL, &id, NULL, NULL, NULL, NULL));
  PetscCheck(id == 7, PETSC_COMM_SELF, PETSC_ERR_PLIB, "plate: block id %" PetscInt_FMT, id);
  PetscCall(SKMeshGetSideSet(mesh, 0, &name, &n, &elements, &faces, NULL));
  PetscCheck(n == 2 && elements[1] == 1 && faces[1] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "plate: side set");
  /* Boundary: 6 edges; (1,4) and (1,5) are shared. */
  PetscCall(SKMeshGetBoundaryFaces(mesh, &n, NULL, NULL));
  PetscCheck(n == 6, PETSC_COMM_SELF, PETSC_ERR_PLIB, "plate: %" PetscInt_FMT " boundary faces", n);
  PetscCall(SKMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A generator in a mesh file gives the mesh of SKMeshCreateBox(). */
static PetscErrorCode CheckGenerator(const char dir[])
{
  const char text[]        = "<mesh>\n  <box type=\"H27\" cells=\"2 1 1\" lower=\"0 0 0\" upper=\"1 1 1\" ratio=\"1 1 2\"/>\n</mesh>\n";
  const PetscInt cells[3]  = {2, 1, 1};
  const PetscReal lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1}, ratio[3] = {1, 1, 2};
  char path[PETSC_MAX_PATH_LEN];
  SKMesh a, b;

  PetscFunctionBegin;
  PetscCall(WriteTempFile(dir, "x.xml", text, path, sizeof(path)));
  PetscCall(SKMeshCreateFromFile(PETSC_COMM_SELF, path, &a));
  PetscCall(SKMeshCreateBox(PETSC_COMM_SELF, SK_ELEMENT_H27, cells, lower, upper, ratio, &b));
  /* Same code path for the coordinates: they must agree exactly. */
  PetscCall(CompareMeshes(a, b, 0.0, PETSC_TRUE));
  PetscCall(SKMeshDestroy(&a));
  PetscCall(SKMeshDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A study's <mesh file="..."/> (read through SKMeshCreateFromInput) resolves the path against the input's directory. */
static PetscErrorCode CheckFileReference(const char dir[])
{
  const char *src = getenv("SK_SOURCE_DIR"); /* set by ctest (tests/CMakeLists.txt) */
  char text[PETSC_MAX_PATH_LEN + 64], path[PETSC_MAX_PATH_LEN];
  SKInput input;
  SKNode root;
  SKMesh mesh;
  PetscInt ne;

  PetscFunctionBegin;
  PetscCheck(src, PETSC_COMM_SELF, PETSC_ERR_USER, "set SK_SOURCE_DIR to the source tree (ctest does)");
  PetscCall(PetscSNPrintf(text, sizeof(text), "<mesh file=\"%s/meshes/box.msh\"/>\n", src));
  PetscCall(WriteTempFile(dir, "x.xml", text, path, sizeof(path)));
  PetscCall(SKInputLoadWithSchema(PETSC_COMM_SELF, path, "mesh", "mesh.xsd", &input));
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKMeshCreateFromInput(input, root, &mesh));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  PetscCheck(ne == 24, PETSC_COMM_SELF, PETSC_ERR_PLIB, "box.msh through <mesh file>: %" PetscInt_FMT " elements", ne);
  PetscCall(SKMeshDestroy(&mesh));
  PetscCall(SKInputDestroy(&input));

  /* The shipped example: two blocks, one node set, two side sets; side "right" is the edge x = 2. */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/meshes/plate.xml", src));
  PetscCall(SKMeshCreateFromFile(PETSC_COMM_SELF, path, &mesh));
  {
    PetscInt n, nf, fn[3], nb;
    const PetscInt *elements, *faces;
    const PetscReal *x;

    PetscCall(SKMeshGetNumBlocks(mesh, &nb));
    PetscCall(SKMeshGetNodes(mesh, NULL, &x));
    PetscCall(SKMeshGetSideSet(mesh, 1, NULL, &n, &elements, &faces, NULL));
    PetscCall(SKMeshGetFaceNodes(mesh, elements[0], faces[0], &nf, fn));
    PetscCheck(nb == 2 && n == 1 && nf == 2 && x[2 * fn[0]] == 2 && x[2 * fn[1]] == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "meshes/plate.xml: side set 'right'");
  }
  PetscCall(SKMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char dir[PETSC_MAX_PATH_LEN];
  static const char *files[] = {"x.xml", NULL};
  const char rect[]          = "<mesh>\n  <rectangle type=\"Q4\" cells=\"2 2\" lower=\"0 0\" upper=\"1 1\"/>\n</mesh>\n";

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(MakeTempDir(dir, sizeof(dir)));
  PetscCall(CheckPlate(dir));
  PetscCall(CheckGenerator(dir));
  PetscCall(CheckFileReference(dir));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 1 4 3", "0 1 4 9", 4, "references node 9, which does not exist"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 1 4 3", "0 3 4 1", 4, "inverted"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 1 4 3", "0 1 4", 4, "needs 4 node numbers per element"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "type=\"Q4\"", "type=\"Q8\"", 4, "Q8"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "type=\"Q4\"", "type=\"H8\"", 4, "needs a 2D element type"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "name=\"right\"", "name=\"left\"", 5, "a second block named 'left'"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, ">0 3</nodeset>", "></nodeset>", 6, "node set 'clamp' is empty"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, ">0 3</nodeset>", ">0 6</nodeset>", 6, "node 6 does not exist"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 0  1 0</sideset>", "0 4  1 0</sideset>", 7, "faces 0 to 3, not 4"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 0  1 0</sideset>", "0 0  3 0</sideset>", 7, "element 3 does not exist"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "0 0  1 0</sideset>", "0 0  1</sideset>", 7, "pairs"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "<mesh dim=\"2\">", "<mesh>", 2, "needs dim"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", plate, "<mesh dim=\"2\">", "<mesh dim=\"2\" file=\"other.msh\">", 2,
                             "cannot refer to another mesh file"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", rect, "type=\"Q4\"", "type=\"T4\"", 2, "needs a 2D element type"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", rect, "cells=\"2 2\"", "cells=\"2 2 2\"", 2, "needs 2 values"));
  PetscCall(ExpectBrokenFile(dir, "x.xml", rect, "upper=\"1 1\"", "upper=\"1 0\"", 2, "must be above lower corner"));
  PetscCall(RemoveTempFiles(dir, files));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "XML meshes: OK\n"));
  PetscCall(PetscFinalize());
  return 0;
}
