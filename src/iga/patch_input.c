/* stickslip iga: a NURBS patch from its input element <patch> (generator or explicit knots and control net, then
   degree elevation and uniform refinement), every problem reported as "FILE:LINE: message". */
#include "iga/igaimpl.h"
#include <stickslip/input.h>
#include <stickslip/mesh.h>
#include <string.h>

/* A generator child of <patch>: <rectangle>/<box> lower upper, <annulus>/<cylinder> r_inner r_outer angle [length]. */
static PetscErrorCode SKPatchGenerator(SKInput input, SKNode gen, SKNURBSPatch *patch)
{
  const char *kind = SKNodeName(gen);

  PetscFunctionBegin;
  if (!strcmp(kind, "rectangle") || !strcmp(kind, "box")) {
    const PetscInt dim = strcmp(kind, "box") ? 2 : 3;
    PetscReal lo[4], hi[4];
    PetscInt nl = 4, nh = 4;
    PetscBool fl, fh;
    PetscCall(SKInputGetRealList(input, gen, "lower", &nl, lo, &fl));
    PetscCall(SKInputGetRealList(input, gen, "upper", &nh, hi, &fh));
    PetscCall(SKInputCheck(input, gen, fl && fh && nl == dim && nh == dim, "<%s> needs lower and upper with %" PetscInt_FMT " values each",
                           kind, dim));
    for (PetscInt d = 0; d < dim; d++)
      PetscCall(SKInputCheck(input, gen, hi[d] > lo[d], "<%s>: upper %g must be above lower %g in direction %c", kind, (double)hi[d],
                             (double)lo[d], (char)('x' + d)));
    PetscCall(SKNURBSPatchCreateBox(dim, lo, hi, patch));
  } else {
    PetscReal ri, ro, angle, length = 0.0;
    PetscCall(SKInputRequireReal(input, gen, "r_inner", &ri));
    PetscCall(SKInputRequireReal(input, gen, "r_outer", &ro));
    PetscCall(SKInputRequireReal(input, gen, "angle", &angle));
    PetscCall(SKInputCheck(input, gen, ri > 0 && ro > ri, "<%s>: need 0 < r_inner < r_outer, not %g, %g", kind, (double)ri, (double)ro));
    PetscCall(SKInputCheck(input, gen, angle > 0 && angle <= 90, "<%s>: angle %g degrees must be in (0, 90]", kind, (double)angle));
    angle *= PETSC_PI / 180.0;
    if (!strcmp(kind, "cylinder")) {
      PetscCall(SKInputRequireReal(input, gen, "length", &length));
      PetscCall(SKInputCheckPositive(input, gen, "length", length));
      PetscCall(SKNURBSPatchCreateCylinderSection(ri, ro, angle, length, patch));
    } else
      PetscCall(SKNURBSPatchCreateAnnulus(ri, ro, angle, patch));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The arrays of an explicit patch's reading (knot vectors, values, control points, weights), freed together by
   SKPatchExplicit() whatever happens. */
typedef struct {
  PetscReal *U[3], *values, *X, *w;
} SKPatchWork;

/* Explicit <knots degree values/> (one per direction, in order) and <controlpoints values/> (x y [z] w per point,
   direction 0 fastest), with the arrays of WK. */
static PetscErrorCode SKPatchExplicitRead(SKInput input, SKNode node, PetscInt dim, SKPatchWork *wk, SKNURBSPatch *patch)
{
  SKNode cps;
  PetscInt nk = SKNodeCountChildren(node, "knots"), deg[3], ncp[3], total = 1, nv, d = 0;
  PetscReal *X, *w;
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(SKInputCheck(input, node, nk == dim,
                         "a %" PetscInt_FMT "D <patch> needs %" PetscInt_FMT " <knots> (one per direction), it has %" PetscInt_FMT, dim,
                         dim, nk));
  for (SKNode knots = SKNodeFirstChild(node, "knots"); knots; knots = SKNodeNextSibling(knots, "knots"), d++) {
    PetscInt m = 1024;
    char reason[256];
    PetscBool ok;
    PetscCall(SKInputRequireInt(input, knots, "degree", &deg[d]));
    PetscCall(PetscMalloc1(m, &wk->U[d]));
    PetscCall(SKInputGetRealList(input, knots, "values", &m, wk->U[d], &found));
    PetscCall(SKInputCheck(input, knots, found, "<knots> needs values=\"...\""));
    ncp[d] = m - deg[d] - 1;
    PetscCall(SKKnotVectorCheck(deg[d], ncp[d], m, wk->U[d], &ok, reason, sizeof(reason)));
    PetscCall(SKInputCheck(input, knots, ok, "knot vector of direction %" PetscInt_FMT ": %s", d, reason));
    total *= ncp[d];
  }
  PetscCall(SKInputRequireChild(input, node, "controlpoints", &cps));
  nv = (dim + 1) * total + 1; /* one more than needed, to tell "too many" from "just right" */
  PetscCall(PetscMalloc3(nv, &wk->values, dim * total, &wk->X, total, &wk->w));
  X = wk->X, w = wk->w;
  PetscCall(SKInputGetRealList(input, cps, "values", &nv, wk->values, &found));
  PetscCall(SKInputCheck(input, cps, found && nv == (dim + 1) * total,
                         "<controlpoints> has %" PetscInt_FMT "%s values: the knots and degrees give %" PetscInt_FMT
                         " control points, so %" PetscInt_FMT " values (x y%s w per point)",
                         nv, nv == (dim + 1) * total + 1 ? " or more" : "", total, (dim + 1) * total, dim == 3 ? " z" : ""));
  for (PetscInt i = 0; i < total; i++) {
    for (PetscInt c = 0; c < dim; c++) X[i * dim + c] = wk->values[i * (dim + 1) + c];
    w[i] = wk->values[i * (dim + 1) + dim];
    PetscCall(SKInputCheck(input, cps, w[i] > 0, "control point %" PetscInt_FMT ": weight %g is not positive", i, (double)w[i]));
    PetscCall(SKInputCheck(input, cps, w[i] >= SK_IGA_MIN_WEIGHT && w[i] <= SK_IGA_MAX_WEIGHT,
                           "control point %" PetscInt_FMT ": weight %g is outside [%g, %g]: only the ratios of the weights matter, so "
                           "scale them all",
                           i, (double)w[i], SK_IGA_MIN_WEIGHT, SK_IGA_MAX_WEIGHT));
  }
  {
    PetscInt lo = 0, hi = 0;
    for (PetscInt i = 1; i < total; i++) {
      if (w[i] < w[lo]) lo = i;
      if (w[i] > w[hi]) hi = i;
    }
    PetscCall(SKInputCheck(input, cps, w[hi] <= SK_IGA_MAX_WEIGHT_RATIO * w[lo],
                           "weights from %g (control point %" PetscInt_FMT ") to %g (control point %" PetscInt_FMT
                           "): their ratio %g is above %g (the light control point's basis function, its mass and the critical "
                           "time step all but vanish; docs/input.md)",
                           (double)w[lo], lo, (double)w[hi], hi, (double)(w[hi] / w[lo]), SK_IGA_MAX_WEIGHT_RATIO));
  }
  PetscCall(SKNURBSPatchCreate(dim, dim, deg, ncp, (const PetscReal *const *)wk->U, X, w, patch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SKPatchExplicitRead() with its arrays freed also when the input is refused. */
static PetscErrorCode SKPatchExplicit(SKInput input, SKNode node, PetscInt dim, SKNURBSPatch *patch)
{
  SKPatchWork wk = {{NULL, NULL, NULL}, NULL, NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = SKPatchExplicitRead(input, node, dim, &wk, patch);
  PetscCall(PetscFree3(wk.values, wk.X, wk.w));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(wk.U[d]));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKNURBSPatchCreateFromInput(SKInput input, SKNode node, PetscInt dim, SKNURBSPatch *patch)
{
  static const char *const generators[] = {"rectangle", "box", "annulus", "cylinder"};
  SKNode gen                            = NULL;
  PetscInt pdim, deg[3], target = 0, nr = 4;
  PetscReal refine[4] = {1, 1, 1, 1};
  PetscBool found;

  PetscFunctionBegin;
  for (PetscInt g = 0; g < 4 && !gen; g++) PetscCall(SKNodeGetChild(node, generators[g], &gen));
  if (gen)
    PetscCall(SKPatchGenerator(input, gen, patch));
  else
    PetscCall(SKPatchExplicit(input, node, dim, patch));
  PetscCall(SKNURBSPatchGetSizes(*patch, &pdim, NULL, deg, NULL));
  if (pdim != dim) {
    PetscCall(SKNURBSPatchDestroy(patch));
    PetscCall(SKInputError(input, gen ? gen : node,
                           "a %" PetscInt_FMT "D patch in a %" PetscInt_FMT "D mesh (all patches of a mesh have its dimension)", pdim,
                           dim));
  }
  for (PetscInt d = 0; d < dim; d++) target = PetscMax(target, deg[d]);
  PetscCall(SKInputGetInt(input, node, "degree", &target, &found));
  PetscCall(SKInputCheck(input, node, target >= 1 && target <= (dim == 2 ? 7 : 3),
                         "degree %" PetscInt_FMT ": need 1..%d in %" PetscInt_FMT "D", target, dim == 2 ? 7 : 3, dim));
  PetscCall(SKInputGetRealList(input, node, "refine", &nr, refine, &found));
  PetscCall(SKInputCheck(input, node, !found || nr == dim,
                         "attribute 'refine' needs %" PetscInt_FMT " values (one per direction), not %" PetscInt_FMT, dim, nr));
  { /* the size of the refined patch, before anything is allocated for it: as the mesh generators check theirs */
    PetscInt ncp[3];
    PetscReal nodes = 1, elements = 1;
    char msg[512];
    PetscCall(SKNURBSPatchGetSizes(*patch, NULL, NULL, NULL, ncp));
    for (PetscInt d = 0; d < dim; d++) {
      const PetscReal r = refine[d];
      PetscInt m, nspan;
      const PetscReal *U;
      PetscCall(SKNURBSPatchGetKnots(*patch, d, &m, &U));
      nspan = SKKnotVectorNumSpans(m, U);
      PetscCall(SKInputCheck(input, node, r >= 1 && r <= 1e4 && r == PetscFloorReal(r),
                             "attribute 'refine': %g is not a whole number of parts between 1 and 10000", (double)r));
      /* elevation by t adds t control points per span (each distinct knot gains multiplicity t), splitting a span into r
         parts r - 1 more */
      nodes *= (PetscReal)ncp[d] + (PetscReal)PetscMax(target - deg[d], 0) * nspan + (r - 1) * nspan;
      elements *= r * nspan;
    }
    /* per element: its (p + 1)^dim control points, and the reference geometry the force kernel keeps at as many Gauss
       points, 8 (1 + dim^2) bytes each (SKBasisSetReference()) */
    PetscCall(SKMeshCheckSize(dim, nodes, elements, PetscPowInt(target + 1, dim), 8.0 * (1 + dim * dim) * PetscPowInt(target + 1, dim), msg,
                              sizeof(msg)));
    if (msg[0]) PetscCall(SKInputError(input, node, "patch of degree %" PetscInt_FMT ": %s", target, msg));
  }
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(SKInputCheck(input, node, deg[d] <= target,
                           "degree=\"%" PetscInt_FMT "\" is below the degree %" PetscInt_FMT " of direction %" PetscInt_FMT, target, deg[d],
                           d));
    /* k-refinement: elevate first, then split the spans (C^{p-1} across the new knots) */
    PetscCall(SKNURBSPatchElevateDegree(*patch, d, target - deg[d]));
    PetscCall(SKNURBSPatchRefine(*patch, d, (PetscInt)refine[d]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
