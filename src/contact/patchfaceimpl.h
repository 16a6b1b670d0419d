/* contact: private interface of the contact points of a NURBS patch face (contact_patchface.c) that its slave-side
   kind (contact_side.c) calls for the contact pair. */
#ifndef STICKSLIP_PATCHFACEIMPL_H
#define STICKSLIP_PATCHFACEIMPL_H

#include "contactimpl.h"

/* Gathers the current positions X + u and velocities v (local arrays) of the face's control points and computes, for
   every control point A, the weighted gap g_A = int R_A g dgamma / A_A against SURFACE at time T (one projection per
   quadrature point of the physical face), the weighted position and the weighted velocity (eq. 30 and 32 of the
   paper). Collective. */
PETSC_INTERN PetscErrorCode SKContactPatchFaceUpdate(SKContactPatchFace pf, const PetscReal X[], const PetscReal u[], const PetscReal v[],
                                                     SKContactSurface surface, PetscReal t);
/* The (patch, face) pairs the local sides (ELEMENTS[s], FACES[s]) of a side set name, on every rank: FLAGS[6 b + f] = 1
   for face F of the patch of block B (FLAGS of 6 entries per block, zeroed by the caller). An error for a side that is
   not on a patch. Collective. */
PETSC_INTERN PetscErrorCode SKContactPatchFaceFlags(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[],
                                                    const PetscInt faces[], PetscInt flags[]);
/* The communicator and space dimension of PF. */
PETSC_INTERN void SKContactPatchFaceGetComm(SKContactPatchFace pf, MPI_Comm *comm, PetscInt *dim);
/* Index of the control point of local node NODE in PF (-1 if it has none). */
PETSC_INTERN PetscInt SKContactPatchFaceFindLocal(SKContactPatchFace pf, PetscInt node);
/* The force of control point M (1 + dim values: the normal force N_A (N) and the tangential force on the body F_A (N)),
   set by the point's owner after SKContactPatchFaceUpdate(), which zeroes them. */
PETSC_INTERN PetscReal *SKContactPatchFaceGetLoad(SKContactPatchFace pf, PetscInt m);
/* Adds to the local force array F the forces of the face on its owned control points, eq. 34 of the paper: the loads
   N_A, F_A set for this evaluation are interpolated over the face as a pressure and traction and integrated against
   each R_B, the transpose of the weighting of the gaps and velocities, so the forces are the derivative of the stored
   penalty energy and do on the body the work the law sees. POWER: the power of the (rigid) surface's motion through the
   normal pressure on the owned points' shares (W). Against a master that takes reactions (a deformable body), the
   opposite force of each Gauss point goes to the master through its shares at the point's projection (the master's
   applyreaction), and POWER is 0. Collective. */
PETSC_INTERN PetscErrorCode SKContactPatchFaceDistribute(SKContactPatchFace pf, PetscReal f[], PetscReal *power);
/* The weighted quantities of control point M of the last update: gap (m), position x[dim] (m) and a pointer to the
   velocity (m/s, dim values). */
PETSC_INTERN void SKContactPatchFaceGetPoint(SKContactPatchFace pf, PetscInt m, PetscReal *gap, PetscReal x[], const PetscReal **v);
/* Against a master that takes reactions (a deformable body): in *VM the master's weighted velocity of control point M
   of the last update, int R_A v dgamma / A_A with v the master's velocity at each Gauss point's projection (the face's
   own where no master face is near), so that v_A - vm_A is the weighted slip on which the face's tangential tractions
   work; PETSC_FALSE against a rigid surface (the pair takes its velocity at the point's projection). */
PETSC_INTERN PetscBool SKContactPatchFaceGetMasterVelocity(SKContactPatchFace pf, PetscInt m, const PetscReal **vm);

/* The sticking-time ratios STICK[i] / ELAPSED of the N control points INDEX[i] (owned here; ratio 0 when ELAPSED is 0),
   interpolated on the physical face: GROUP/surface_points ([n][dim], reference coordinates, m) and
   GROUP/surface_sticking_time_ratio ([n], 1) of OUT. Collective. */
PETSC_INTERN PetscErrorCode SKContactPatchFaceWriteStickRatio(SKContactPatchFace pf, PetscInt n, const PetscInt index[],
                                                              const PetscReal stick[], PetscReal elapsed, SKOutput out, const char group[]);

#endif
