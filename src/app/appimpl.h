/* stickslip app: root-element types that the program registers besides the solvers (private to the library). */
#ifndef STICKSLIP_APPIMPL_H
#define STICKSLIP_APPIMPL_H

#include <stickslip/solver.h>

/* <mesh> as a root element (schema mesh.xsd): `stickslip validate mesh.xml` reads and checks a mesh file, `run` prints
   a summary. Lives in the app, not in mesh, so that the mesh module does not depend on the solver registry. */
extern const SKSolverType SKSolverMeshFile;

#endif
