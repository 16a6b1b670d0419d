/* Unit test of the Gmsh .msh 4.1 reader: meshes/box.msh and meshes/box_h27.msh equal the generated boxes (same nodes
   up to numbering, same elements, same block and sets), and broken files are refused with
   "FILE:LINE:" messages that point at the right line. */
#include "mesh_test_util.h"

/* The .msh files are Gmsh 4.8's: it places the nodes of a progression up to 6.0e-10 m from the closed form
   x_i = L (r^i - 1) / (r^n - 1) the generator uses (measured on box.msh); 1e-9 m is above that and far below a cell
   (0.25 m). */
#define TOL 1e-9

/* A unit cube: one hexahedron (line 39) with its bottom face as side set "bottom" (quad at line 37). */
static const char cube[] = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                           "$PhysicalNames\n2\n2 1 \"bottom\"\n3 2 \"body\"\n$EndPhysicalNames\n"
                           "$Entities\n0 0 1 1\n1 0 0 0 1 1 0 1 1 0\n1 0 0 0 1 1 1 1 2 0\n$EndEntities\n"
                           "$Nodes\n1 8 1 8\n3 1 0 8\n1\n2\n3\n4\n5\n6\n7\n8\n"
                           "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n$EndNodes\n"
                           "$Elements\n2 2 1 2\n2 1 3 1\n1 1 2 3 4\n3 1 5 1\n2 1 2 3 4 5 6 7 8\n$EndElements\n";

/* Loads CUBE with FROM replaced by TO and expects an input error with "cube.msh:LINE:" and WANT in its message. */
static PetscErrorCode CheckCube(const char dir[])
{
  char path[PETSC_MAX_PATH_LEN];
  SKMesh mesh;
  PetscInt ne, n, global;
  const PetscInt *elements, *faces, *nodes;
  const char *name;

  PetscFunctionBegin;
  PetscCall(WriteTempFile(dir, "cube.msh", cube, path, sizeof(path)));
  PetscCall(SKMeshCreateGmsh(PETSC_COMM_SELF, path, &mesh));
  PetscCall(SKMeshGetNumElements(mesh, &ne));
  PetscCheck(ne == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cube: %" PetscInt_FMT " elements", ne);
  PetscCall(SKMeshGetBlock(mesh, 0, &name, &n, NULL, NULL, NULL, NULL));
  PetscCheck(!strcmp(name, "body") && n == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cube: block '%s' id %" PetscInt_FMT, name, n);
  PetscCall(SKMeshGetSideSet(mesh, 0, &name, &n, &elements, &faces, &global));
  /* The quad (1 2 3 4) is the z = 0 face, local face 4 of an H8. */
  PetscCheck(!strcmp(name, "bottom") && n == 1 && elements[0] == 0 && faces[0] == 4, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cube: side set '%s'",
             name);
  PetscCall(SKMeshGetNodeSet(mesh, 0, &name, &n, &nodes, NULL));
  PetscCheck(!strcmp(name, "bottom") && n == 4 && nodes[0] == 0 && nodes[3] == 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cube: node set '%s'",
             name);
  PetscCall(SKMeshDestroy(&mesh));

  /* Without physical groups every element is saved: the hexahedron forms block "default" (id 0), the quad is ignored. */
  {
    const char *names = strstr(cube, "$PhysicalNames"), *nodes_at = strstr(cube, "$Nodes");
    char text[2048];
    PetscInt nsets, nb;

    PetscCall(PetscSNPrintf(text, sizeof(text), "%.*s%s1 0 0 0 1 1 0 0 0\n1 0 0 0 1 1 1 0 0\n$EndEntities\n%s", (int)(names - cube), cube,
                            "$Entities\n0 0 1 1\n", nodes_at));
    PetscCall(WriteTempFile(dir, "cube.msh", text, path, sizeof(path)));
    PetscCall(SKMeshCreateGmsh(PETSC_COMM_SELF, path, &mesh));
    PetscCall(SKMeshGetNumBlocks(mesh, &nb));
    PetscCall(SKMeshGetBlock(mesh, 0, &name, &n, NULL, NULL, NULL, NULL));
    PetscCall(SKMeshGetNumNodeSets(mesh, &nsets));
    PetscCheck(nb == 1 && !strcmp(name, "default") && n == 0 && nsets == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "cube without groups: block '%s'", name);
    PetscCall(SKMeshDestroy(&mesh));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* meshes/NAME against SKMeshCreateBox() with the parameters of meshes/box.geo: same nodes and elements; Gmsh starts
   each hexahedron at a corner of its own choosing, so the node order within an element is not compared. */
static PetscErrorCode CheckBox(const char name[], SKElementType type)
{
  const PetscInt cells[3]  = {4, 3, 2};
  const PetscReal lower[3] = {0, 0, 0}, upper[3] = {2, 1, 0.5}, ratio[3] = {1.2, 1, 1};
  const char *src = getenv("SK_SOURCE_DIR"); /* set by ctest (tests/CMakeLists.txt) */
  char path[PETSC_MAX_PATH_LEN];
  SKMesh imported, generated;

  PetscFunctionBegin;
  PetscCheck(src, PETSC_COMM_SELF, PETSC_ERR_USER, "set SK_SOURCE_DIR to the source tree (ctest does)");
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/meshes/%s", src, name));
  PetscCall(SKMeshCreateGmsh(PETSC_COMM_SELF, path, &imported));
  PetscCall(SKMeshCreateBox(PETSC_COMM_SELF, type, cells, lower, upper, ratio, &generated));
  PetscCall(CompareMeshes(imported, generated, TOL, PETSC_FALSE));
  PetscCall(SKMeshDestroy(&imported));
  PetscCall(SKMeshDestroy(&generated));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char dir[PETSC_MAX_PATH_LEN];
  static const char *files[] = {"cube.msh", NULL};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(CheckBox("box.msh", SK_ELEMENT_H8));
  PetscCall(CheckBox("box_h27.msh", SK_ELEMENT_H27));
  PetscCall(MakeTempDir(dir, sizeof(dir)));
  PetscCall(CheckCube(dir));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "4.1 0 8", "2.2 0 8", 2, "format 4.1"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "4.1 0 8", "4.1 1 8", 2, "binary"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "2 1 2 3 4 5 6 7 8", "2 1 2 3 4 5 6 7 9", 39, "node 9, which does not exist"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "2 1 2 3 4 5 6 7 8", "2 5 6 7 8 1 2 3 4", 39, "inverted"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "2 1 2 3 4 5 6 7 8", "2 1 2 3 4 5 6 7", 39, "needs 8 node tags"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "3 1 5 1", "3 1 11 1", 38, "type 11 is not supported"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "1 1 2 3 4", "1 1 3 6 8", 37, "is not a face"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "2\n2 1 \"bottom\"", "3\n2 7 \"top\"\n2 1 \"bottom\"", 6,
                             "'top' (dimension 2, tag 7) has no elements"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "1 1 2 3 4\n3 1 5 1", "1 1 2 3 4\n3 1 5 2", 38, "more than the 2 elements announced"));
  PetscCall(ExpectBrokenFile(dir, "cube.msh", cube, "0 0 1\n1 0 1", "0 0 1\n1 0 x", 30, "a node coordinate"));
  PetscCall(RemoveTempFiles(dir, files));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gmsh reader: OK\n"));
  PetscCall(PetscFinalize());
  return 0;
}
