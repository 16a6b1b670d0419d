/* stickslip contact: friction laws behind one interface, contact surfaces (rigid analytic, and the side set of another
   body), search, projection and the mortar treatment (sections 2.2-2.5 of the LuGre mortar paper, 2024). Theory:
   docs/theory.md.

   Layout of src/contact:
     friction.c             the law registry, XML reading, the package (log events), Stribeck curve, stick threshold
     friction_lugre.c       LuGre (eqs. 20-22): exact step over dt and the continuous form
     friction_coulomb.c     Coulomb classical and modified: return mapping (eqs. 16-19)
     friction_regularised.c regularised Coulomb laws (tanh, Threlfall)
     frictionimpl.h         the law's private structure and ops
     surface.c              rigid surfaces: creation, XML reading, translation, the checked projection
     surface_analytic.c     closed-form projections: plane, circle/cylinder, sphere
     surface_sine.c         the sine surface: safeguarded Newton projection
     surfaceimpl.h          the rigid surface's private structure and projection kernels
     contact_pair.c         the contact pair (contact nodes: weights, friction states, statistics, stability check,
                            implicit damping, restart, fields, histories): a slave side against a master surface
     contact_surface.c      the master surface of a pair behind an ops table: rigid analytic or deformable
     contact_side.c         the slave side of a pair behind an ops table: the contact nodes themselves (optionally
                            with the side set as a mortar surface) or the control points of a NURBS patch face
     contact_mesh.c         the deformable master surface: gathering, bucket-grid search, projection onto L2/T3/Q4
                            faces, point and mortar distribution of the reactions, partition-independent sums
     contact_patchface.c    the contact points of a NURBS patch face: weighted gaps and velocities, eq.-34 loads
     contactimpl.h          the private structures of the pair, the deformable surface, the surface and side ops

   A friction law is an opaque SKFrictionLaw made by name from a registry ("lugre", "coulomb", "coulomb-modified",
   "coulomb-tanh", "coulomb-threlfall"; SKFrictionLawRegister() adds one). Its physics lives in pure pointwise kernels
   (SKFrictionStepFn, SKFrictionRateFn) that take plain arrays and a read-only context and touch no globals; loops over
   contact nodes fetch them once with SKFrictionLawGetKernels() and call them directly.

   Conventions shared by every law:
     v     relative tangential velocity of the body with respect to the surface (m/s), DIM = 1 or 2 components
     N     normal force (N) pressing the point onto the surface, N >= 0; a traction (Pa) works as well (every law is
           homogeneous of degree one in N except the Coulomb penalty eps_t, which is then in Pa/m)
     F     friction force (unit of N) acting against the sliding: the body feels -F. F . v >= 0 in steady sliding.
     state per-point history of the law (SKFrictionLawGetStateSize()): LuGre bristle deflection z (m), Coulomb
           tangential force t_T (unit of N), none for the regularised laws. Zero is the virgin state.
   An implementation (src/contact/friction_<law>.c) provides, in SKFrictionLawOps:
     step   (required) the discrete update over one time step dt with v constant over the step (explicit dynamics)
     rate   (optional) the continuous form for ODE integrators: state rate, force and their derivatives, DIM = 1
     moduli (required) tangential stiffness and damping at normal force N, for critical time step estimates
   its own context (what the kernels read, built from the parameter record), the checks of the parameters it uses,
   and a set-type function that fills the ops (frictionimpl.h; the recipe is in docs/developing.md). */
#ifndef STICKSLIP_CONTACT_H
#define STICKSLIP_CONTACT_H

#include <stickslip/input.h>

/* Parameters read by the friction laws; each law documents which ones it uses. Per unit normal force where stated. */
typedef struct {
  PetscReal mu_s;           /* static coefficient of friction (1), mu_s >= mu_k */
  PetscReal mu_k;           /* kinetic coefficient of friction (1), mu_k >= 0 */
  PetscReal v_s;            /* Stribeck velocity (m/s), >= 0; 0 means G(v) = mu_k for every v != 0 (eq. 21 limit) */
  PetscReal theta;          /* Stribeck exponent (1), > 0; 2 is the Gaussian decay of Canudas de Wit et al. 1995 */
  PetscReal sigma0;         /* LuGre bristle stiffness per unit normal force (1/m), > 0 */
  PetscReal sigma1;         /* LuGre bristle damping per unit normal force (s/m), >= 0 */
  PetscReal sigma2;         /* viscous friction per unit normal force (s/m), >= 0 */
  PetscReal eps_t;          /* Coulomb tangential penalty (unit of N per m), > 0 */
  PetscReal v_reg;          /* regularised Coulomb: tanh velocity scale, Threlfall v95 (m/s), > 0 */
  PetscReal k_threlfall;    /* Threlfall shape factor k (1), > 0; 3 gives 95 % of the sliding force at v95 */
  PetscReal stick_velocity; /* statistics only: a point sticks while |v| < stick_velocity (m/s); see SKFrictionIsSticking() */
} SKFrictionParams;

/* Default parameters: Canudas de Wit et al. 1995 per unit normal force (sigma0 = 1e5 1/m, sigma1 = sqrt(1e5) s/m,
   sigma2 = 0.4 s/m, v_s = 1e-3 m/s, theta = 2), mu_s = mu_k = 0 (must be set), eps_t = 1e6, v_reg = 1e-3 m/s,
   k_threlfall = 3, stick_velocity = 0 (meaning: v_s, see SKFrictionIsSticking()). */
PETSC_EXTERN PetscErrorCode SKFrictionParamsSetDefaults(SKFrictionParams *p);

/* What a step or rate kernel reports besides the force (may be passed as NULL). */
typedef struct {
  PetscBool slipping;      /* law-internal slip flag: Coulomb return mapping active; LuGre/regularised: |v| >= stick velocity */
  PetscReal G;             /* LuGre/regularised: Stribeck curve G(v) (1); Coulomb: coefficient that bounds |F| / N */
  PetscReal stored_energy; /* energy held by the state at the end of the step (J for N in newtons): LuGre sigma0 N |z|^2 / 2,
                              Coulomb |t_T|^2 / (2 eps_t); the rest of F . v dt is dissipated */
} SKFrictionInfo;

/* Discrete update of one contact point over [t, t + dt] with the relative velocity V[DIM] constant over the step and
   normal force N at t + dt. STATE[] (size from SKFrictionLawGetStateSize()) is updated in place; F[DIM] receives the
   friction force at t + dt. Pure: no allocation, no globals, never fails (non-finite input gives non-finite output). */
typedef void (*SKFrictionStepFn)(const void *ctx, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[], PetscReal state[],
                                 PetscReal F[], SKFrictionInfo *info);
/* Continuous form for one tangential component (rigid-body ODE models): given v, N and the state z[], returns the state
   rate zdot[], the force *F and the derivatives dzdot_dz[ns*ns] (row-major), dzdot_dv[ns], dF_dz[ns], *dF_dv, where ns is
   the state size for DIM = 1. Derivatives of |v| at v = 0 use the one-sided value for v > 0. */
typedef void (*SKFrictionRateFn)(const void *ctx, PetscReal N, PetscReal v, const PetscReal z[], PetscReal zdot[], PetscReal *F,
                                 PetscReal dzdot_dz[], PetscReal dzdot_dv[], PetscReal dF_dz[], PetscReal *dF_dv, SKFrictionInfo *info);

typedef struct _p_SKFrictionLaw *SKFrictionLaw;

/* Registers the contact log events. Idempotent; SKFrictionLawCreate() calls it. (The built-in laws are registered on
   the first use of the friction-law registry.) */
PETSC_EXTERN PetscErrorCode SKContactInitializePackage(void);
/* Log event "ContactForce": one contact force evaluation of a pair (search: gaps and slip velocities; enforcement:
   penalty and friction law), i.e. the whole of SKContactPairForce(). */
PETSC_EXTERN PetscLogEvent SK_CONTACT_Force;
/* Log event "ContactSearch" (inside ContactForce for deformable pairs): gathering the master surface's nodes and
   checking how far they moved. */
PETSC_EXTERN PetscLogEvent SK_CONTACT_Search;
/* Log event "ContactGrid": one build of a deformable surface's bucket grid (at creation and when its nodes have moved
   more than the margin allows). */
PETSC_EXTERN PetscLogEvent SK_CONTACT_Grid;
/* Adds a friction law under NAME; CREATE fills the law's ops and context from its parameters (see frictionimpl.h). */
PETSC_EXTERN PetscErrorCode SKFrictionLawRegister(const char name[], PetscErrorCode (*create)(SKFrictionLaw));
/* Comma-separated names of the registered laws, into buf[len]. */
PETSC_EXTERN PetscErrorCode SKFrictionLawList(char buf[], size_t len);

/* Creates the law NAME with parameters P (copied). An unknown name is an error listing the known ones; parameters the
   law uses are checked (PETSC_ERR_ARG_OUTOFRANGE with the value). The caller owns *law (SKFrictionLawDestroy()). */
PETSC_EXTERN PetscErrorCode SKFrictionLawCreate(MPI_Comm comm, const char name[], const SKFrictionParams *p, SKFrictionLaw *law);
/* Reads a friction law from an XML element such as
     <friction law="lugre" mu_s="0.45" mu_k="0.3" v_s="1e-3" theta="2" sigma0="1e5" sigma1="316.2" sigma2="0.4"/>
   (attributes named as the SKFrictionParams fields, SI units, defaults from SKFrictionParamsSetDefaults()). Bad values
   (sigma0 <= 0, v_s < 0, mu_k > mu_s, unknown law, ...) are input errors "FILE:LINE: message". */
PETSC_EXTERN PetscErrorCode SKFrictionLawCreateFromXML(SKInput input, SKNode node, SKFrictionLaw *law);
PETSC_EXTERN PetscErrorCode SKFrictionLawDestroy(SKFrictionLaw *law);

/* The registered name and the parameters (owned by LAW, read-only). */
PETSC_EXTERN PetscErrorCode SKFrictionLawGetName(SKFrictionLaw law, const char *name[]);
PETSC_EXTERN PetscErrorCode SKFrictionLawGetParams(SKFrictionLaw law, const SKFrictionParams **p);
/* Number of state values per contact point for DIM tangential components (0 for stateless laws). */
PETSC_EXTERN PetscErrorCode SKFrictionLawGetStateSize(SKFrictionLaw law, PetscInt dim, PetscInt *nstate);
/* The pointwise kernels and their context (valid while LAW lives). *rate is NULL for laws without a continuous form
   (the Coulomb return mappings, which are defined only as discrete updates). */
PETSC_EXTERN PetscErrorCode SKFrictionLawGetKernels(SKFrictionLaw law, SKFrictionStepFn *step, SKFrictionRateFn *rate, const void **ctx);
/* Tangential stiffness (unit of N per m) and damping (unit of N per m/s) of the law at normal force N: the largest values
   the linearised law can present, for critical time step estimates (LuGre: sigma0 N and (sigma1 + sigma2) N). */
PETSC_EXTERN PetscErrorCode SKFrictionLawGetTangentModuli(SKFrictionLaw law, PetscReal N, PetscReal *stiffness, PetscReal *damping);

/* Convenience wrapper of the step kernel (checks DIM); hot loops should call the kernel from SKFrictionLawGetKernels(). */
PETSC_EXTERN PetscErrorCode SKFrictionLawStep(SKFrictionLaw law, PetscInt dim, PetscReal dt, PetscReal N, const PetscReal v[],
                                              PetscReal state[], PetscReal F[], SKFrictionInfo *info);

/* Stribeck curve of eq. 21, G(v) = mu_k + (mu_s - mu_k) exp(-|v / v_s|^theta) (1), with speed = |v| >= 0. With v_s = 0 it
   is the pointwise limit: mu_k for speed > 0 and mu_s at speed = 0. Pure. */
PETSC_EXTERN PetscReal SKFrictionStribeck(const SKFrictionParams *p, PetscReal speed);
/* Stick threshold used for statistics (sticking-time ratio, stick/slip flags in output), separate from the law:
   stick_velocity when > 0, else v_s (the paper's definition, section 3.2), else 0 (then nothing counts as sticking
   except exact rest). Returns the threshold (m/s). */
PETSC_EXTERN PetscReal SKFrictionStickThreshold(const SKFrictionParams *p);
/* PETSC_TRUE when a point with relative speed |v| (m/s) counts as sticking: speed < SKFrictionStickThreshold(p). */
PETSC_EXTERN PetscBool SKFrictionIsSticking(const SKFrictionParams *p, PetscReal speed);

/* ------------------------------------------------------------------------------------------------------------------
   Rigid surfaces (section 2.2 of the paper): the obstacle a contact side set presses on. Types, by name in the XML:
     plane    point p, unit normal n (2D and 3D)
     circle   2D: centre c, radius R             cylinder 3D: a point c of the axis, axis direction a, radius R
     sphere   3D: centre c, radius R (a reference direction e orients its tangent basis)
     sine     graph of a height function over the coordinate axes, origin o, amplitude A, wavelength(s) lambda:
              2D y = o_y + A sin(2 pi (x - o_x) / lambda),
              3D z = o_z + A sin(2 pi (x - o_x) / lambda_x) sin(2 pi (y - o_y) / lambda_y)
   Each surface carries the side the body is on (outside/inside a circle, cylinder or sphere; above/below a sine
   surface, along +y in 2D and +z in 3D; for a plane, where n points), and the whole surface translates with a
   constant velocity. A projection of a point x at time t returns the closest point x_bar of the surface, the signed
   distance g = (x - x_bar) . n (> 0 on the body side, < 0 when x penetrates), the unit normal n at x_bar pointing to
   the body side, an orthonormal tangent basis there that varies continuously along the surface (the frame of the
   friction state) and the surface velocity. Closed forms for plane, circle, cylinder and sphere; the sine surface
   is projected by Newton's method on its parameters, safeguarded (details and limits in docs/theory.md).
   ------------------------------------------------------------------------------------------------------------------ */
typedef struct _p_SKRigidSurface *SKRigidSurface;

/* The result of a projection; vectors have dim components (SKRigidSurfaceProjectPoint() leaves the others as they
   were, SKRigidSurfaceProject() sets them to zero). */
typedef struct {
  PetscReal distance;      /* signed distance g (m): > 0 on the body side, < 0 penetration */
  PetscReal point[3];      /* closest point x_bar of the surface at time t (m) */
  PetscReal normal[3];     /* unit normal at x_bar pointing to the body side */
  PetscReal tangent[2][3]; /* orthonormal tangent basis (dim - 1 vectors); (tangent..., normal) is right-handed */
  PetscReal velocity[3];   /* velocity of the surface at x_bar (m/s) */
  PetscInt iterations;     /* Newton iterations spent (0 for the closed forms) */
  PetscBool exact;         /* PETSC_FALSE: x is farther than the cutoff on the body side, only distance > 0 holds */
} SKSurfaceProjection;

/* The surface types, each for space dimension DIM (2 or 3); the caller owns *surface (SKRigidSurfaceDestroy()).
   Bad arguments (zero normal or axis, radius, amplitude or wavelength out of range, a type in the wrong dimension)
   are PETSC_ERR_ARG_OUTOFRANGE errors with the value. Lengths in m. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceCreatePlane(MPI_Comm comm, PetscInt dim, const PetscReal point[], const PetscReal normal[],
                                                      SKRigidSurface *surface);
/* Circle (DIM 2, AXIS ignored, may be NULL) or cylinder (DIM 3, AXIS[3] its direction, normalised here) of radius
   RADIUS > 0 about CENTER; the body is outside it unless INSIDE. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceCreateCircle(MPI_Comm comm, PetscInt dim, const PetscReal center[], const PetscReal axis[],
                                                       PetscReal radius, PetscBool inside, SKRigidSurface *surface);
/* Sphere (3D) of radius RADIUS > 0 about CENTER; the body is outside unless INSIDE. REFERENCE[3] (nonzero; NULL:
   the x axis) orients the tangent basis, which degenerates at the two poles center +- radius * reference. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceCreateSphere(MPI_Comm comm, const PetscReal center[], PetscReal radius,
                                                       const PetscReal reference[], PetscBool inside, SKRigidSurface *surface);
/* Sine surface with ORIGIN[dim], AMPLITUDE >= 0 and WAVELENGTH[dim - 1] > 0; the body is above it (+y in 2D, +z in
   3D) unless BELOW. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceCreateSine(MPI_Comm comm, PetscInt dim, const PetscReal origin[], PetscReal amplitude,
                                                     const PetscReal wavelength[], PetscBool below, SKRigidSurface *surface);
/* Reads the surface of a <contact> element: attributes surface (plane, circle, cylinder, sphere, sine; default
   plane), point, normal, center, axis, radius, side, amplitude, wavelength, velocity (see schema/explicit.xsd).
   A missing or bad value, or an attribute the type does not use, is an input error "FILE:LINE: message". */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceCreateFromXML(SKInput input, SKNode node, PetscInt dim, SKRigidSurface *surface);
PETSC_EXTERN PetscErrorCode SKRigidSurfaceDestroy(SKRigidSurface *surface);
/* Translates the surface rigidly with the constant VELOCITY[dim] (m/s): at time t it is the surface at t = 0 shifted
   by velocity t. Default zero. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceSetVelocity(SKRigidSurface surface, const PetscReal velocity[]);
/* The type name ("plane", ...) and the space dimension. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceGetType(SKRigidSurface surface, const char *type[], PetscInt *dim);
/* Projects X[dim] (m) at time T (s) onto the surface. Points on the body side whose distance is certainly above
   CUTOFF (m) may return early with exact = PETSC_FALSE and only distance > 0 meaningful (pass PETSC_MAX_REAL for a
   full projection every time). Returns PETSC_FALSE when the Newton projection did not converge (P then holds the
   last iterate, finite). Pure and thread-safe: hot loops call it directly. */
PETSC_EXTERN PetscBool SKRigidSurfaceProjectPoint(SKRigidSurface surface, const PetscReal x[], PetscReal t, PetscReal cutoff,
                                                  SKSurfaceProjection *p);
/* Checked wrapper of SKRigidSurfaceProjectPoint() with a full projection: a failed projection is
   PETSC_ERR_NOT_CONVERGED with the point. */
PETSC_EXTERN PetscErrorCode SKRigidSurfaceProject(SKRigidSurface surface, const PetscReal x[], PetscReal t, SKSurfaceProjection *p);

/* ------------------------------------------------------------------------------------------------------------------
   Contact of a body's side set against a rigid surface (mortar nodal weighted penalty, eqs. 29-34 of the paper); the
   type keeps the name SKContactPair from when the plane was the only surface.

   Each contact node a carries the weight w_a = int_Gamma N_a dA over the contact side set (m^2 in 3D, m per unit
   thickness in 2D), the weighted gap g_a = w_a ((x_a - x_bar_a) . n_a) (x_a current position, x_bar_a its closest
   point on the surface, n_a the unit normal there pointing into the body side; for a plane x_bar_a - p is along the
   constant n) and the normal force f_a = eps_N max(0, -g_a) n_a, so that the nodal pressure f_a / w_a =
   eps_N max(0, -(x_a - x_bar_a) . n_a) (Pa) is uniform whenever the penetration is. One friction state per contact
   node, in the tangent basis of the surface at x_bar_a, updated with the friction-law step kernel at the node's
   tangential velocity relative to the surface.
   ------------------------------------------------------------------------------------------------------------------ */
#include <stickslip/output.h>

typedef struct _p_SKContactPair *SKContactPair;

/* Totals over the contact surface at the last force evaluation, summed over ranks. */
typedef struct {
  PetscReal normal_force;         /* sum_a |f_a| (N; N/m in 2D) */
  PetscReal friction_force[3];    /* friction force on the body, global components (N) */
  PetscReal cof;                  /* global coefficient of friction |friction_force| / normal_force (1); 0 without contact */
  PetscInt nactive;               /* contact nodes with g_a < 0 */
  PetscInt nnodes;                /* contact nodes (w_a > 0) */
  PetscReal penalty_energy;       /* stored normal penalty energy sum_a N_a^2 / (2 eps_N w_a) over penetrating nodes (J) */
  PetscReal stored_tangential;    /* energy held by the friction states (J): LuGre bristles, Coulomb's elastic slip */
  PetscReal friction_dissipation; /* dissipated by friction since the start (J): sum F . v_t dt - stored_tangential */
  PetscReal damping_dissipation;  /* dissipated by the implicit contact damping since the start (J) */
  PetscReal dissipation;          /* friction_dissipation + damping_dissipation (J) */
  PetscReal surface_work;         /* work of a moving rigid master surface on the body since the start (J): the integral of
                                     sum_a f_a . v_s dt (trapezoidal); 0 for a fixed surface or a deformable master */
  PetscReal discontinuity_work;   /* work of the normal penalty beyond its stored energy at the steps where a node opens or
                                     closes (J): the energy the one-sided penalty's switching gave the bodies (docs/theory.md,
                                     "Energy of contact"); not part of the balance, it explains part of its drift */
} SKContactPairStats;

/* Creates the contact of the local nodes with weight w[a] > 0 (w: nlocal values, complete on every copy of a node;
   only the first nowned nodes, the owned ones, carry forces and states) against the plane through POINT[dim] (m) with
   normal NORMAL[dim] (normalised here; zero is PETSC_ERR_ARG_OUTOFRANGE), penalty EPS_N (Pa/m, > 0). Takes ownership
   of LAW. Destroy with SKContactPairDestroy(). */
PETSC_EXTERN PetscErrorCode SKContactPairCreatePlane(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned, const PetscReal w[],
                                                     const PetscReal point[], const PetscReal normal[], PetscReal eps_n, SKFrictionLaw law,
                                                     SKContactPair *cp);
/* The same against any rigid SURFACE of dimension DIM (takes ownership of SURFACE and LAW): each node's gap, normal
   and tangent basis come from the closest-point projection of its current position. */
PETSC_EXTERN PetscErrorCode SKContactPairCreateWithSurface(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned,
                                                           const PetscReal w[], SKRigidSurface surface, PetscReal eps_n, SKFrictionLaw law,
                                                           SKContactPair *cp);
PETSC_EXTERN PetscErrorCode SKContactPairDestroy(SKContactPair *cp);

/* ------------------------------------------------------------------------------------------------------------------
   Contact points of a NURBS patch face (contact_patchface.c): the control points of the face are the contact nodes
   of a pair against a rigid surface; their weights are A_A = int R_A dgamma over the physical face (SKMeshPatchFaceWeights()),
   and the pair uses, instead of the control point's own position and velocity (control points lie off the surface),
   the weighted gap g_A = int R_A g(x(xi)) dgamma / A_A and the weighted velocity v_A = int R_A v dgamma / A_A
   (eqs. 30 and 32 of the paper), integrated at the Gauss points of the face. The penalty and friction laws, the
   friction state per contact node and the statistics are those of the pair. The friction damping must be explicit.
   ------------------------------------------------------------------------------------------------------------------ */
#include <stickslip/mesh.h>

typedef struct _p_SKContactPatchFace *SKContactPatchFace;

/* Collective. The face elements of every NURBS patch face that this rank's NSIDES sides (ELEMENTS[], FACES[]: local
   elements of MESH, Bezier cells, and their local faces) lie on, tabulated from the patches (the same on every
   rank). MESH must be made by SKMeshCreateFromNURBSPatches() (control points numbered patch after patch), possibly
   distributed. Destroy with SKContactPatchFaceDestroy(), or hand it to SKContactPairSetPatchFace(). */
PETSC_EXTERN PetscErrorCode SKContactPatchFaceCreate(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[],
                                                     const PetscInt faces[], SKContactPatchFace *pf);
PETSC_EXTERN PetscErrorCode SKContactPatchFaceDestroy(SKContactPatchFace *pf);
/* The mortar rule (MORTAR true) against a NURBS master (docs/theory.md, "The mortar rule of NURBS patch faces"): a face
   element whose image meets several master faces has its integrals split where they meet, so that the master's shares,
   smooth on each part, are integrated as the face's own basis is; the master must give its face corners. Default: the
   Gauss points of each face element (the point distribution). */
PETSC_EXTERN PetscErrorCode SKContactPatchFaceSetMortar(SKContactPatchFace pf, PetscBool mortar);
/* The control points of the face (*n, natural numbers, sorted) and their weights A_A (m^(dim-1); owned by PF). */
PETSC_EXTERN PetscErrorCode SKContactPatchFaceGetWeights(SKContactPatchFace pf, PetscInt *n, const PetscInt *natural[],
                                                         const PetscReal *A[]);
/* Makes the contact nodes of CP (a pair against a rigid surface with explicit damping, whose nodes are control points
   of PF) use the weighted gaps and velocities of PF. Takes ownership of PF. */
PETSC_EXTERN PetscErrorCode SKContactPairSetPatchFace(SKContactPair cp, SKContactPatchFace pf);
/* For a pair on a patch face (nothing otherwise): the sticking-time ratio on the physical face, sum_A R_A r_A of the
   control points' ratios r_A = stick time / ELAPSED (s), at the face's Gauss points, written as GROUP/surface_points
   ([n][dim], reference coordinates, m) and GROUP/surface_sticking_time_ratio ([n], 1) of OUT. Collective. */
PETSC_EXTERN PetscErrorCode SKContactPairWriteSurfaceStickRatio(SKContactPair cp, PetscReal elapsed, SKOutput out, const char group[]);

/* ------------------------------------------------------------------------------------------------------------------
   Deformable master surface (contact_mesh.c): the side set of another body, replicated on every rank (faces over the
   master nodes in natural order, so the same surface whatever the partition). Each force evaluation gathers the
   master nodes' current positions and velocities from their owners, finds each slave node's candidate faces in a
   bucket grid, projects it onto the nearest face (L2 in 2D; T3, Q4 in 3D) and distributes its reaction to that face's
   nodes with the shape functions at the projection, then sums the reactions back to the owners (docs/theory.md,
   "Contact between deformable bodies").
   ------------------------------------------------------------------------------------------------------------------ */
typedef struct _p_SKContactMeshSurface *SKContactMeshSurface;

/* Collective. This rank's NSIDES faces of the master side set: SIDE_KEY[s] = natural element * 8 + local face (the
   order key), SIDE_NODES[s * nfn + a] their NFN local nodes in the face order of mesh.h (outward normal by the right-hand
   rule). NATURAL[nlocal] the natural numbers of the local nodes (the first NOWNED owned), X[nlocal * dim] the reference
   coordinates (m), MASS[nlocal] the assembled lumped masses (kg). Faces other than L2 (2D), T3, Q4 (3D) are
   PETSC_ERR_SUP. The caller owns *ms (SKContactMeshSurfaceDestroy(), or hand it to SKContactPairCreateWithMesh()). */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceCreate(MPI_Comm comm, PetscInt dim, PetscInt nfn, PetscInt nsides,
                                                       const PetscInt side_key[], const PetscInt side_nodes[], PetscInt nlocal,
                                                       PetscInt nowned, const PetscInt natural[], const PetscReal X[],
                                                       const PetscReal mass[], SKContactMeshSurface *ms);
/* Releases a reference to MS (destroyed with the last one). */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceDestroy(SKContactMeshSurface *ms);
/* Adds a reference to MS: the two passes of a pair share its two surfaces. */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceReference(SKContactMeshSurface ms);
/* Sizes of the surface: master nodes and faces (global), the penetration depth the search guarantees to find (m; half
   the smallest face size: deeper penetration may be missed) and the number of grid builds so far. Any may be NULL. */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceGetInfo(SKContactMeshSurface ms, PetscInt *nnodes, PetscInt *nfaces, PetscReal *depth,
                                                        PetscInt *nrebuild);
/* The face of MS nearest to X (m) in the reference configuration, searched over every face (set-up checks, not the
   run): the distance (m), the face's unit outward normal NORMAL[dim] and whether X projects inside the face (not onto
   its boundary). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceNearestFace(SKContactMeshSurface ms, const PetscReal x[], PetscReal *distance,
                                                            PetscReal normal[], PetscBool *inside);
/* As the slave side of a 3D mortar distribution: the shares of a slave face are computed again at a force evaluation
   only when one of its nodes or of the master nodes under it has moved by more than TOL times the face's size since
   they were last computed (0: at every evaluation). docs/theory.md, "Contact between deformable bodies". */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceSetMortarTolerance(SKContactMeshSurface ms, PetscReal tol);
/* The faces' keys (natural element * 8 + local face, sorted; owned by MS), one per face. */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceGetFaceKeys(SKContactMeshSurface ms, PetscInt *nfaces, const PetscInt *keys[]);
/* Signed distance (m) of each point PTS[n * dim] to the surface in its reference configuration into DIST[n]
   (PETSC_MAX_REAL where no face is within the search margin). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactMeshSurfaceDistance(SKContactMeshSurface ms, PetscInt n, const PetscReal pts[], PetscReal dist[]);
/* The pair of the slave nodes with weight w[a] > 0 (as SKContactPairCreatePlane()) against the deformable surface MS, with
   SLAVE the slave side set as a surface (2D: the reactions are distributed by the mortar integrals int N_a N_b over the
   slave faces, which passes the contact patch test; NULL, or 3D: by the shape values at each slave node's projection).
   Takes a reference to each surface (SKContactMeshSurfaceReference() to keep one) and ownership of LAW. NATURAL[nlocal]
   the natural node numbers, which order the sums of the reactions so that they do not depend on the partition.
   Collective, also in SKContactPairForce() (reductions over the nodes of both surfaces and the slave nodes per
   evaluation). The implicit contact damping is not available with a deformable surface (PETSC_ERR_SUP from
   SKContactPairSetDamping()). */
PETSC_EXTERN PetscErrorCode SKContactPairCreateWithMesh(MPI_Comm comm, PetscInt dim, PetscInt nlocal, PetscInt nowned,
                                                        const PetscInt natural[], const PetscReal w[], SKContactMeshSurface ms,
                                                        SKContactMeshSurface slave, PetscReal eps_n, SKFrictionLaw law, SKContactPair *cp);
/* The pair of the slave nodes with weight w[a] > 0 against the NURBS patch faces of MESH named by this rank's NSIDES sides
   (ELEMENTS[s], local face FACES[s]) as a deformable master surface (2D or 3D): each slave node is projected onto the
   deformed boundary curve or surface and its reaction goes to the control points of the face element it projects onto
   with the rational basis values there (point distribution; docs/theory.md, "NURBS patch faces as deformable masters").
   NLOCAL, NOWNED, NATURAL, X, MASS as SKContactMeshSurfaceCreate(); takes ownership of LAW. Collective, also in
   SKContactPairForce(). */
PETSC_EXTERN PetscErrorCode SKContactPairCreateWithPatchMaster(MPI_Comm comm, SKMesh mesh, PetscInt nsides, const PetscInt elements[],
                                                               const PetscInt faces[], PetscInt nlocal, PetscInt nowned,
                                                               const PetscInt natural[], const PetscReal X[], const PetscReal mass[],
                                                               const PetscReal w[], PetscReal eps_n, SKFrictionLaw law, SKContactPair *cp);
/* Moves the plane rigidly with the constant velocity VELOCITY[dim] (m/s): its point is point + velocity t, and the
   friction laws see the node's velocity relative to it. Default zero. */
PETSC_EXTERN PetscErrorCode SKContactPairSetVelocity(SKContactPair cp, const PetscReal velocity[]);
/* Force term with the signature of SKExplicitForceFn (include/stickslip/dynamics.h), ctx = the SKContactPair: ADDS the
   contact forces (N) of the owned contact nodes at time t (s) to f, from reference coordinates X, displacements u and the
   half-step velocities v. The friction states advance by dt = t - (previous time); repeated calls at the same t
   recompute from the same committed state, so the update is idempotent. */
PETSC_EXTERN PetscErrorCode SKContactPairForce(void *ctx, PetscReal t, PetscInt nlocal, const PetscReal X[], const PetscReal u[],
                                               const PetscReal v[], PetscReal f[]);
/* Largest stable time step (s) of central differences for a body whose own largest omega^2 is OMEGA2 (1/s^2) in contact
   through CP, node by node: dt_a = 4 / (c_a/m_a + sqrt((c_a/m_a)^2 + 4 omega_a^2)), the root of
   dt^2 omega_a^2 + 2 dt c_a / m_a = 4, with omega_a^2 = OMEGA2 + (eps_N w_a + k_t(N_a)) / m_a and (k_t, c_t) the friction
   law's tangent moduli at the node's share N_a = NORMAL_LOAD w_a / sum_b w_b of the normal load NORMAL_LOAD (N) on the
   pair; c_a = c_t(N_a) with explicit damping, 0 with implicit damping (SKContactPairSetDamping(), stable for any
   damping). *DT is the smallest dt_a, PETSC_MAX_REAL when nothing bounds it. NORMAL_LOAD = 0 gives the bound of the
   penalty and of the law at rest (Coulomb eps_t): adding eps_N w_a / m_a to the body's largest omega^2 bounds the
   coupled one from above (lambda_max(A + B) <= lambda_max(A) + lambda_max(B)). The LuGre stiffness sigma0 N and every
   law's damping grow with the nodal normal force, known only during the run: SKContactPairSetStabilityCheck() checks
   them at every force evaluation. MASS: lumped nodal masses (kg), nlocal values. Collective. */
PETSC_EXTERN PetscErrorCode SKContactPairGetStepBound(SKContactPair cp, const PetscReal mass[], PetscReal omega2, PetscReal normal_load,
                                                      PetscReal *dt);
/* The pair is one of PASSES (>= 1) pairs over one interface (a two-pass contact between deformable bodies), each with
   1/PASSES of the penalty: its nodal fields (SKContactPairAddNodalFields()) then show PASSES times its own force per area,
   the interface pressure and traction (exact where both passes see the same pressure, e.g. uniform); its histories and
   statistics stay its own. Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairSetPasses(SKContactPair cp, PetscInt passes);
/* Whether the pair's law has mu_s = mu_k = 0: no friction, and so no sticking (its sticking-time statistics stay 0 and
   the explicit solver reports none). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairIsFrictionless(SKContactPair cp, PetscBool *frictionless);
/* The pair's contact dt (s) from the last SKContactPairGetStepBound(): the step the one-sided switching of its stiffest
   node allows, margin / omega_c with omega_c^2 = (eps_N w_a + k_t(N_a)) / m_a (plus the master surface's nodes), the
   margin measured (docs/theory.md, "Energy of contact"); PETSC_MAX_REAL when no node has a mass. Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairGetContactStep(SKContactPair cp, PetscReal *dt);
/* When the energy balance drifts and the pair NAME gave the bodies INJECTED (J) beyond its booked energy at step DT (s):
   a sentence naming the pair, its penalty, its contact dt and what to change, into MSG[LEN]. Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairDiagnoseDrift(SKContactPair cp, const char name[], PetscReal dt, PetscReal injected, char msg[],
                                                       size_t len);
/* Arms the run-time stability check of SKContactPairForce() for the time step DT (s) chosen for OMEGA2 (1/s^2, the
   omega_max^2 of body and contact, e.g. 4 / dt_critical^2), MASS the lumped nodal masses (kg, nlocal values, copied).
   At every force evaluation each node in contact must satisfy dt^2 omega_a^2 + 2 dt c_a / m_a <= 4 with
   omega_a^2 = OMEGA2 + (k_t(N_a) - k_t(0)) / m_a and (k_t, c_t) the law's tangent moduli at its normal force N_a (the
   exact stability limit of central differences for one degree of freedom with velocity-proportional damping from the
   previous half step; with implicit damping, SKContactPairSetDamping(), the c_a term is left out since that scheme is
   stable for any damping); otherwise the evaluation fails on every rank (PETSC_ERR_NOT_CONVERGED) with the node, its
   normal force, the moduli, the time step it needs and what to change. Armed, the evaluation also fails when a node is
   farther behind the surface than its contact length (w_a in 2D, sqrt(w_a) in 3D), or when a node in contact at the
   previous step is no longer found by a deformable master's search: the bodies passed through each other. Collective in
   SKContactPairForce() on more than one rank (one reduction per evaluation). */
PETSC_EXTERN PetscErrorCode SKContactPairSetStabilityCheck(SKContactPair cp, PetscReal dt, PetscReal omega2, const PetscReal mass[]);
/* How the integrator treats the velocity-proportional (damping) part of the friction force of a pair:
   SK_CONTACT_DAMPING_EXPLICIT: as the rest of the force, from the previous half-step velocity; central differences then
   need dt^2 omega^2 + 2 dt c / m <= 4 per contact node (SKContactPairSetStabilityCheck() checks it).
   SK_CONTACT_DAMPING_IMPLICIT: linearly implicit per contact node: the integrator converts force to acceleration with
   the tangential mass m_a + dt c_a (SKContactDampedAcceleration()) and applies the force f - dt c_a a_t
   (SKContactPairAddDampingForce()); stable for any c_a dt / m_a, so only dt^2 omega^2 <= 4 remains (docs/theory.md,
   "Stability of the contact forces in the explicit scheme"). */
typedef enum { SK_CONTACT_DAMPING_EXPLICIT, SK_CONTACT_DAMPING_IMPLICIT } SKContactDamping;
/* Selects the damping treatment of CP (default SK_CONTACT_DAMPING_EXPLICIT: the pair's force alone is then the law's
   force at the given velocities; the input's <contact damping> defaults to implicit). Implicit needs a law whose
   tangent moduli are affine in the normal force (every built-in law): PETSC_ERR_SUP otherwise. */
PETSC_EXTERN PetscErrorCode SKContactPairSetDamping(SKContactPair cp, SKContactDamping damping);
PETSC_EXTERN PetscErrorCode SKContactPairGetDamping(SKContactPair cp, SKContactDamping *damping);
/* Per owned contact node, for the implicit damping: *n nodes, their local numbers, the tangential damping coefficient
   c_a >= 0 (N s/m) and the unit surface normal n_a (dim per node), whose orthogonal complement is the tangent plane c_a
   acts in. After SKContactPairForce() c_a is the local slope dF/dv of the law's step, clamped to [0, c_t(N_a)] with
   c_t the law's damping modulus (LuGre (sigma1 + sigma2) N_a at rest, sigma2 N_a in steady sliding; Coulomb 0; 0 out
   of contact); SKContactPairDampedAccelerations() replaces it with the secant it solves for. *n is 0 when the damping
   is explicit. Arrays owned by CP. Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairGetNodalDamping(SKContactPair cp, PetscInt *n, const PetscInt *nodes[], const PetscReal *c[],
                                                         const PetscReal *normal[]);
/* Acceleration A[dim] (m/s^2) of one node of lumped mass M (kg) under the force F[dim] (N) with the damping C (N s/m)
   taken implicitly over the step DT (s) in the plane normal to the unit vector N[dim]: the solution of
   (m I + dt c (I - n n^T)) a = f on the dofs whose bit is clear in PRESCRIBED, the others keeping the given A[d]
   (their rows carry the reaction). Closed form (Sherman-Morrison on the free dofs); c = 0 gives a = f / m. Pure. */
PETSC_EXTERN void SKContactDampedAcceleration(PetscInt dim, PetscReal m, PetscReal dt, PetscReal c, const PetscReal n[],
                                              const PetscReal f[], PetscInt prescribed, PetscReal a[]);
/* Implicit damping: the accelerations A[] (m/s^2, local dofs) of the owned contact nodes in contact from the total
   forces F[] (N, complete on the owner) and lumped masses MASS[] (kg) over the step DT (s), with SKContactDampedAcceleration();
   dofs with DOF_PRESCRIBED[] >= 0 keep their A. The damping c_a starts from the local slope of the law and is raised
   to the secant (F(v_t + dv_t) - F(v_t)) . dv_t / |dv_t|^2 over the velocity change dv_t = dt a_t it gives, clamped
   to c_t(N_a), until it no longer grows (at most SK_CONTACT_DAMPING_MAX_IT times): the damping force is then the law's
   force at the new velocity, which is stable across the kink of |v| at zero and adds no drag in sliding. Other
   nodes' A are not touched. Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairDampedAccelerations(SKContactPair cp, PetscReal dt, const PetscReal mass[], const PetscReal f[],
                                                             const PetscInt dof_prescribed[], PetscReal a[]);
/* Implicit damping: adds to F[] (and to G[] when not NULL; local dof arrays) the force -dt c_a (I - n_a n_a^T) a_a of each
   owned contact node from the accelerations A[] (m/s^2, local dofs) of the step just finished, DT (s) the time step,
   so that the force the body feels is the law's force f minus dt c_a a_t. The pair's friction force (statistics,
   nodal traction) and its dissipation (with the tangential velocities V[] relative to the surface, as in
   SKContactPairForce()) include it. Call it once after each SKContactPairForce(). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairAddDampingForce(SKContactPair cp, PetscReal dt, const PetscReal a[], const PetscReal v[],
                                                         PetscReal f[], PetscReal g[]);
/* Totals at the last force evaluation (collective). */
PETSC_EXTERN PetscErrorCode SKContactPairGetStats(SKContactPair cp, SKContactPairStats *stats);
/* Per owned contact node at the last force evaluation: *n nodes, their local numbers, weights w_a, normal force |f_a|
   (N) and friction force components (dim per node, global axes, force on the body). Arrays owned by CP. */
PETSC_EXTERN PetscErrorCode SKContactPairGetNodal(SKContactPair cp, PetscInt *n, const PetscInt *nodes[], const PetscReal *w[],
                                                  const PetscReal *fn[], const PetscReal *ft[]);
/* Values of the pair's restart state (SKContactPairPackRestart): per node and per rank (not per node). */
#define SK_CONTACT_RESTART_NSCALAR 12
/* Number of restart values the pair stores per node (friction state and trial, stored energy, forces; deformable pairs
   also the positions of the search grids' last build on the nodes of their surfaces). */
PETSC_EXTERN PetscErrorCode SKContactPairGetRestartSize(SKContactPair cp, PetscInt *width);
/* Packs everything the pair carries across steps: nodal[nowned * width] (caller-allocated, node a of the owned nodes
   at a * width, zero off the contact surface) and scalars[SK_CONTACT_RESTART_NSCALAR] (this rank's times (s) and call
   flag, then its local energy sums: dissipations, surface work and power, discontinuity work, committed and trial). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairPackRestart(SKContactPair cp, PetscInt nowned, PetscReal nodal[], PetscReal scalars[]);
/* Inverse of SKContactPairPackRestart: restores the pair bitwise from the packed arrays (not owned). Collective (a
   deformable pair rebuilds its search grid). */
PETSC_EXTERN PetscErrorCode SKContactPairUnpackRestart(SKContactPair cp, PetscInt nowned, const PetscReal nodal[],
                                                       const PetscReal scalars[]);
/* Restart state of the pair that is the same on every rank (the per-face epochs of a 3D mortar distribution with a
   tolerance): its size *n (0: none), packed into buf[n], restored from buf[n] (not owned). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairGetGlobalRestartSize(SKContactPair cp, PetscInt *n);
PETSC_EXTERN PetscErrorCode SKContactPairPackGlobalRestart(SKContactPair cp, PetscReal buf[]);
PETSC_EXTERN PetscErrorCode SKContactPairUnpackGlobalRestart(SKContactPair cp, PetscInt n, const PetscReal buf[]);
/* Number of friction state values per contact node (LuGre: bristle deflection z, m; Coulomb: elastic slip, m). */
PETSC_EXTERN PetscErrorCode SKContactPairGetStateSize(SKContactPair cp, PetscInt *nstate);
/* Adds the pair's nodal fields at the last force evaluation into arrays over local nodes (only the owned contact
   nodes are touched; callers zero them and fill ghosts): pressure[] = |f_a| / w_a (Pa), traction[dim per node] =
   friction force / w_a (Pa, global axes, on the body), stick[] = 1 where the node is in contact and |v_t| (relative
   to the plane, from V, local velocities in m/s) is below the law's stick threshold, else 0, state[ncomp per node]
   = the friction state (its first min(ncomp, nstate) values). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairAddNodalFields(SKContactPair cp, const PetscReal v[], PetscReal pressure[], PetscReal traction[],
                                                        PetscReal stick[], PetscInt ncomp, PetscReal state[]);
/* Sticking-time statistics (paper section 3.2) per owned contact node, accumulated over the steps since the
   start (s): STICK[i], the time in contact and sticking (normal force > 0 at the end of the step and the slip speed
   relative to the plane over the step below the law's stick threshold, SKFrictionIsSticking()), and CONTACT[i], the
   time in contact. Same node order as SKContactPairGetNodal(); arrays owned by CP; kept across checkpoint/restart. */
PETSC_EXTERN PetscErrorCode SKContactPairGetStickTimes(SKContactPair cp, PetscInt *n, const PetscReal *stick[], const PetscReal *contact[]);
/* Global sticking-time ratio over ELAPSED seconds: the weighted mean of the nodal ratios, *ratio = sum_a w_a
   T_stick,a / (ELAPSED sum_a w_a), i.e. the time-averaged share of the contact surface that sticks (1); and
   *contact_ratio = sum_a w_a T_stick,a / sum_a w_a T_contact,a, the same over the time in contact only (0 without
   contact). Either may be NULL. Collective. */
PETSC_EXTERN PetscErrorCode SKContactPairGetStickingTimeRatio(SKContactPair cp, PetscReal elapsed, PetscReal *ratio,
                                                              PetscReal *contact_ratio);
/* The pair's stick threshold for statistics, SKFrictionStickThreshold() of its law (m/s). */
PETSC_EXTERN PetscErrorCode SKContactPairGetStickThreshold(SKContactPair cp, PetscReal *threshold);
/* Adds the nodal sticking-time ratio T_stick,a / ELAPSED (1) of the owned contact nodes into ratio[] over local nodes
   (callers zero it and fill ghosts). Not collective. */
PETSC_EXTERN PetscErrorCode SKContactPairAddNodalStickRatio(SKContactPair cp, PetscReal elapsed, PetscReal ratio[]);
/* History of the pair at PATH in OUT (e.g. /explicit/contact/NAME), columns: time (s), normal_force (N), friction_x,
   friction_y[, friction_z] (N, on the body), cof (1), nodes_in_contact (1), contact_fraction (1, of the contact nodes),
   dissipation (J). The history is owned by OUT. Collective. */
PETSC_EXTERN PetscErrorCode SKContactPairHistoryCreate(SKContactPair cp, SKOutput out, const char path[], SKHistory *hist);
/* Appends the row at time t (s) from the last force evaluation (collective; HIST may be NULL on ranks without output). */
PETSC_EXTERN PetscErrorCode SKContactPairHistoryAppend(SKContactPair cp, SKHistory hist, PetscReal t);

#endif
