/* stickslip app: <mesh> as a root element, so that `stickslip validate mesh.xml` reads and checks a mesh file. */
#include "app/appimpl.h"
#include <stickslip/mesh.h>

static PetscErrorCode SKMeshFileSetup(SKInput input, void **ctx)
{
  SKNode root;
  SKMesh mesh;

  PetscFunctionBegin;
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKMeshCreateFromInput(input, root, &mesh));
  *ctx = (void *)mesh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKMeshFileRun(void *ctx, SKOutput out)
{
  SKMesh mesh = (SKMesh)ctx;
  MPI_Comm comm;

  PetscFunctionBegin;
  (void)out;
  PetscCall(SKMeshGetComm(mesh, &comm));
  PetscCall(SKMeshView(mesh, PETSC_VIEWER_STDOUT_(comm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKMeshFileDestroy(void **ctx)
{
  SKMesh mesh = (SKMesh)*ctx;

  PetscFunctionBegin;
  PetscCall(SKMeshDestroy(&mesh));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SKSolverType SKSolverMeshFile = {"mesh",          "mesh.xsd",    "a mesh file (validate reads and checks it, run prints a summary)",
                                       SKMeshFileSetup, SKMeshFileRun, SKMeshFileDestroy};
