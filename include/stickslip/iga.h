/* stickslip iga: knot vectors, B-spline and Bernstein bases, NURBS patches (1D/2D/3D parametric, control points with
   weights stored in projective form), generators with exact rational arcs, h-/p-/k-refinement and Bezier extraction
   (Borden et al. 2011), so that every knot span of a patch becomes an element of the ordinary element loop.

   Conventions
   -----------
   Degree p >= 1 per parametric direction; a knot vector U[0..m-1] of a direction with n basis functions has
   m = n + p + 1 entries, is non-decreasing, open (the first and the last p + 1 knots equal) and no interior knot
   repeats more than p times (the basis stays continuous). Parameters u are in [U[0], U[m-1]] (dimensionless).
   Control points are numbered with parametric direction 0 fastest, then 1, then 2 (like the structured generators of
   the mesh module: x fastest). Projective control points Pw[i*(sdim+1) + c] = (w x, w y, [w z,] w), x in metres.
   Elements are the non-empty knot spans, direction 0 fastest; an element's (p0+1)(p1+1)(p2+1) control points are
   listed direction 0 fastest too. The element reference coordinates are xi in [-1, 1]^pdim (the Gauss rules of fem),
   mapped affinely onto the knot span.
   Faces of a patch have the names of the structured generators: left/right (u0 = lower/upper end), bottom/top (u1),
   back/front (u2); face id 2*d + (upper ? 1 : 0).

   Bezier extraction: on element e the B-spline functions N_a (a = 0..p) of one direction are N = C_e B with B the
   Bernstein polynomials of degree p on [-1, 1], B_i(xi) = binom(p, i) t^i (1 - t)^(p - i), t = (1 + xi) / 2. The 1D
   operators C_e[a*(p+1) + i] are computed by Borden's algorithm; an element's operator is their tensor product. */
#ifndef STICKSLIP_IGA_H
#define STICKSLIP_IGA_H

#include <stickslip/core.h>
#include <stickslip/input.h>

/* Largest degree per direction a patch may have (tricubic elements fill SK_ELEMENT_MAX_NODES = 64 of fem; the
   1D kernels work up to this degree). */
#define SK_IGA_MAX_DEGREE 8
/* The control point weights an input may give (SKNURBSPatchCreateFromInput()). Only the ratios of the weights of a
   patch matter (the rational basis and the geometry do not change when all are scaled), so the absolute range only keeps
   the projective coordinates w x and their sums far from overflow and underflow; the ratio bounds how small the basis
   function of a light control point gets against its neighbours' (its lumped mass and the critical time step shrink
   with it) and how close to the element the poles of the rational basis come, which the mass quadrature must resolve:
   docs/input.md and docs/theory.md give the measurements. */
#define SK_IGA_MIN_WEIGHT 1e-100
#define SK_IGA_MAX_WEIGHT 1e100
#define SK_IGA_MAX_WEIGHT_RATIO 1e6

/* ---- knot vectors, B-spline and Bernstein bases (pure kernels) ---- */

/* Checks a knot vector U[m] for degree p and n basis functions: m = n + p + 1, non-decreasing, open, interior
   multiplicities <= p, U[0] < U[m-1]. *ok = PETSC_TRUE if valid; otherwise reason (len chars, may be NULL) says what is
   wrong with the offending index and values. */
PETSC_EXTERN PetscErrorCode SKKnotVectorCheck(PetscInt p, PetscInt n, PetscInt m, const PetscReal U[], PetscBool *ok, char reason[],
                                              size_t len);
/* Number of non-empty knot spans (elements) of a valid knot vector U[m]. */
PETSC_EXTERN PetscInt SKKnotVectorNumSpans(PetscInt m, const PetscReal U[]);
/* Index i of the knot span holding u: U[i] <= u < U[i+1], p <= i <= n-1 (u = U[n] gives n-1); u is clamped to the
   parameter range. n = number of basis functions. */
PETSC_EXTERN PetscInt SKBSplineFindSpan(PetscInt p, PetscInt n, const PetscReal U[], PetscReal u);
/* Values and derivatives up to order nder (<= p) of the p + 1 B-spline functions N_{span-p} .. N_span that are
   non-zero at u: ders[k*(p+1) + j] = d^k N_{span-p+j} / du^k (Cox-de Boor recursion with the triangular table of
   Piegl and Tiller, written for this code). */
PETSC_EXTERN void SKBSplineBasis(PetscInt p, const PetscReal U[], PetscInt span, PetscReal u, PetscInt nder, PetscReal ders[]);
/* Bernstein polynomials of degree p on [-1, 1] at xi: B[i] and dB[i] = dB_i/dxi (dB may be NULL). */
PETSC_EXTERN void SKBernsteinBasis(PetscInt p, PetscReal xi, PetscReal B[], PetscReal dB[]);
/* Bezier extraction operators of a valid knot vector U[m] of degree p (Borden et al. 2011, Algorithm 1). C (caller's,
   nspan*(p+1)^2 entries) gets C[(e*(p+1) + a)*(p+1) + i]: B-spline a (local, = global first[e] + a) of element e in
   terms of Bernstein polynomial i; first[e] (may be NULL) is the index of the element's first basis function and
   range[2e], range[2e+1] (may be NULL) the ends of its knot span. nspan = SKKnotVectorNumSpans(m, U). */
PETSC_EXTERN PetscErrorCode SKBezierExtraction1D(PetscInt p, PetscInt m, const PetscReal U[], PetscReal C[], PetscInt first[],
                                                 PetscReal range[]);

/* Tensor-product rational basis of one element or point (pure kernel): from the 1D B-spline values N1[d][a] and
   derivatives dN1[d][a] (a = 0..p[d], d < pdim; rows of SK_IGA_MAX_DEGREE + 1) and the weights w[] of the
   prod (p[d]+1) control points (direction 0 fastest), R[a] = w_a N_a / W and dR[a*pdim + k] = dR_a/dx_k (dR may be
   NULL), x being whatever the 1D derivatives are taken with respect to. */
PETSC_EXTERN void SKRationalTensorBasis(PetscInt pdim, const PetscInt p[], const PetscReal N1[][SK_IGA_MAX_DEGREE + 1],
                                        const PetscReal dN1[][SK_IGA_MAX_DEGREE + 1], const PetscReal w[], PetscReal R[], PetscReal dR[]);

/* ---- NURBS patches ---- */

typedef struct _p_SKNURBSPatch *SKNURBSPatch;

/* Creates a patch with PDIM (1, 2, 3) parametric directions in SDIM (>= pdim, <= 3) space dimensions: degree[d],
   number of control points num_cp[d] and knot vector knots[d] (num_cp[d] + degree[d] + 1 entries, copied) per direction;
   control point coordinates coords[i*sdim + c] (m) and weights[i] > 0 (NULL: all 1) for the prod num_cp points. Errors
   (PETSC_ERR_ARG_WRONG, message with the direction and the values): invalid knot vector, non-positive weight, a
   degree above SK_IGA_MAX_DEGREE. Callers that read user input check first (SKKnotVectorCheck) to report file:line. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchCreate(PetscInt pdim, PetscInt sdim, const PetscInt degree[], const PetscInt num_cp[],
                                               const PetscReal *const knots[], const PetscReal coords[], const PetscReal weights[],
                                               SKNURBSPatch *patch);
/* The patch of an input element <patch> (schema/mesh.xsd) in a DIM-dimensional mesh: a generator child (<rectangle>,
   <box>, <annulus>, <cylinder>) or explicit <knots>/<controlpoints>, then elevated to the attribute degree in every
   direction and every span split into refine[d] parts (k-refinement). Every problem is an input error at its line:
   invalid knots, a wrong number of control point values, a non-positive weight, a dimension other than DIM. After an
   error *patch is NULL or the patch read so far, which the caller destroys (SKNURBSPatchDestroy() takes both). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchCreateFromInput(SKInput input, SKNode node, PetscInt dim, SKNURBSPatch *patch);
/* A deep copy. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchDuplicate(SKNURBSPatch patch, SKNURBSPatch *copy);
/* Frees the patch; *patch = NULL. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchDestroy(SKNURBSPatch *patch);

/* Box [lower, upper] (m) in dimension dim = 1, 2, 3 (pdim = sdim = dim): degree 1, two control points per direction,
   weights 1. Refine it to the wanted mesh. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchCreateBox(PetscInt dim, const PetscReal lower[], const PetscReal upper[], SKNURBSPatch *patch);
/* 2D annulus sector centred at the origin: radii r_inner < r_outer (m), from the x axis to the angle `angle` (rad,
   0 < angle <= pi/2) counter-clockwise. Direction 0 is radial (degree 1: left = inner arc, right = outer arc),
   direction 1 the angle (degree 2, one exact rational arc, middle weight cos(angle/2): bottom = edge on the x axis,
   top = the other edge). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchCreateAnnulus(PetscReal r_inner, PetscReal r_outer, PetscReal angle, SKNURBSPatch *patch);
/* 3D cylinder section: the annulus sector above extruded along z from 0 to `length` (m), direction 2 (degree 1;
   back = z 0, front = z length). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchCreateCylinderSection(PetscReal r_inner, PetscReal r_outer, PetscReal angle, PetscReal length,
                                                              SKNURBSPatch *patch);

/* Parametric and spatial dimension, degree[d] and num_cp[d] per direction (arrays of 3; unused directions 0 and 1).
   Any output may be NULL. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetSizes(SKNURBSPatch patch, PetscInt *pdim, PetscInt *sdim, PetscInt degree[], PetscInt num_cp[]);
/* Knot vector of direction d (m entries; owned by the patch, valid until the patch changes). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetKnots(SKNURBSPatch patch, PetscInt d, PetscInt *m, const PetscReal *U[]);
/* Number of control points and the projective control net Pw[i*(sdim+1) + c] (owned by the patch). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetControlNet(SKNURBSPatch patch, PetscInt *n, const PetscReal *Pw[]);
/* Cartesian control point coordinates coords[i*sdim + c] (m) and weights[i] into caller arrays (either may be NULL). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetControlPoints(SKNURBSPatch patch, PetscReal coords[], PetscReal weights[]);
/* Point x (m, sdim) and, when dxdu != NULL, the tangents dxdu[c*pdim + k] = dx_c/du_k at parameters u[pdim]. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchEvaluate(SKNURBSPatch patch, const PetscReal u[], PetscReal x[], PetscReal dxdu[]);
/* The rational basis at parameters u[pdim]: the *nb = prod (p_d+1) functions that are non-zero there, their control
   points idx[a], values R[a] and, when dR != NULL, derivatives dR[a*pdim + k] = dR_a/du_k. Arrays of the caller,
   (SK_IGA_MAX_DEGREE+1)^pdim entries suffice. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchBasis(SKNURBSPatch patch, const PetscReal u[], PetscInt *nb, PetscInt idx[], PetscReal R[],
                                              PetscReal dR[]);
/* Parameters u[pdim] of the point of the patch nearest to x (m, sdim entries; Newton from the best of a sampling of
   the parameter domain, clamped to it). *distance = |x(u) - x| (m). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchInvert(SKNURBSPatch patch, const PetscReal x[], PetscReal u[], PetscReal *distance);

/* ---- refinement (the geometry and the parametrisation are unchanged) ---- */

/* h: inserts the n knots[] (each inside the parameter range; a knot may appear several times) in direction d
   (Boehm's algorithm on the projective net). Error if a knot would get a multiplicity above the degree. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchInsertKnots(SKNURBSPatch patch, PetscInt d, PetscInt n, const PetscReal knots[]);
/* h, uniform: splits every knot span of direction d into `parts` equal spans (parts >= 1). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchRefine(SKNURBSPatch patch, PetscInt d, PetscInt parts);
/* p: raises the degree of direction d by t >= 0, keeping the continuity at every knot (each distinct knot gains
   multiplicity t). The new net is the exact representation of the same patch in the elevated space, found by
   collocation at the Greville abscissae of the new basis (a square system, solved by LAPACK). k-refinement is
   SKNURBSPatchElevateDegree() followed by SKNURBSPatchRefine(). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchElevateDegree(SKNURBSPatch patch, PetscInt d, PetscInt t);

/* ---- elements (Bezier extraction) and faces ---- */

/* Number of elements (knot spans) in total and per direction (nel[3], unused directions 1; may be NULL). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetNumElements(SKNURBSPatch patch, PetscInt *nelem, PetscInt nel[]);
/* Number of control points of one element, prod (p_d + 1). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetElementSize(SKNURBSPatch patch, PetscInt *nen);
/* Control points of element e (nen entries into idx[], direction 0 fastest). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetElementControlPoints(SKNURBSPatch patch, PetscInt e, PetscInt idx[]);
/* 1D extraction operators of direction d (owned by the patch, computed once per refinement state):
   C[(k*(p+1) + a)*(p+1) + i] of span k of that direction (see SKBezierExtraction1D), and the span ends range[2k..2k+1]. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetExtraction(SKNURBSPatch patch, PetscInt d, PetscInt *nspan, const PetscReal *C[],
                                                      const PetscReal *range[]);
/* Element e's span index per direction, k[pdim]. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetElementSpans(SKNURBSPatch patch, PetscInt e, PetscInt k[]);
/* The rational basis of element e at reference coordinates xi[pdim] in [-1,1]: R[a] and dR[a*pdim + k] = dR_a/dxi_k
   (dR may be NULL) for its nen control points, by Bezier extraction. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchElementBasis(SKNURBSPatch patch, PetscInt e, const PetscReal xi[], PetscReal R[], PetscReal dR[]);
/* Face id (0 .. 2 pdim - 1) of a face name (left, right, bottom, top, back, front); *found = PETSC_FALSE if the name
   is unknown or the patch has no such direction. */
PETSC_EXTERN PetscErrorCode SKNURBSPatchFaceFromName(SKNURBSPatch patch, const char name[], PetscInt *face, PetscBool *found);
/* Name of face id f. */
PETSC_EXTERN const char *SKNURBSPatchFaceName(PetscInt f);
/* The control points of face f (those with index 0 or num_cp[d] - 1 in direction d = f/2), ascending, into idx[] (the
   caller's; *n of them, at most the number of control points). */
PETSC_EXTERN PetscErrorCode SKNURBSPatchGetFaceControlPoints(SKNURBSPatch patch, PetscInt f, PetscInt *n, PetscInt idx[]);

#endif
