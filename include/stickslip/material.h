/* stickslip material: hyperelastic and linear elastic laws in total Lagrangian form (F -> first Piola-Kirchhoff P),
   as pure pointwise kernels behind a registry by name (linear_elastic, saint_venant_kirchhoff, neo_hookean).

   Tensors are row-major dim x dim arrays, A[i*dim+j] = A_ij, with dim = 3 (3D) or 2 (plane strain, plane stress).
   In 2D the out-of-plane stretch F33 is 1 (plane strain) or solved from S33 = 0 (plane stress) by the material.
   Batched kernels work on SK_LANES material points at once in "structure of arrays" layout,
   A[(i*dim+j)*SK_LANES + l] = A_ij of lane l, so that the lane loops vectorise.
   A non-positive J = det F is never an error inside a kernel: it is returned as a flag (bit mask) so that the
   caller, who knows the element and the time, can stop with a useful message. */
#ifndef STICKSLIP_MATERIAL_H
#define STICKSLIP_MATERIAL_H

#include <stickslip/core.h>
#include <stickslip/input.h>

/* Material points (or elements) processed together by the batched kernels; 8 doubles = one AVX-512 register. */
#define SK_LANES 8

typedef enum {
  SK_STRESS_STATE_3D           = 0, /* full 3D */
  SK_STRESS_STATE_PLANE_STRAIN = 1, /* 2D, F33 = 1 */
  SK_STRESS_STATE_PLANE_STRESS = 2  /* 2D, S33 = 0 (F33 solved per point) */
} SKStressState;

/* Names of the stress states as written in inputs: "3d", "plane_strain", "plane_stress". */
PETSC_EXTERN const char *const SKStressStateNames[];

/* Parameters of a material, as the kernels see them (read-only after SKMaterialCreate()). */
typedef struct {
  PetscReal E;      /* Young's modulus, Pa */
  PetscReal nu;     /* Poisson's ratio, in (-1, 0.5) */
  PetscReal rho;    /* reference mass density, kg/m^3 */
  PetscReal lambda; /* first Lame parameter (3D), Pa */
  PetscReal mu;     /* shear modulus, Pa */
  PetscInt dim;     /* 2 or 3: size of F */
  SKStressState state;
} SKMaterialParams;

typedef struct _n_SKMaterial *SKMaterial;

/* Everything known at one material point; filled by SKMaterialEvaluate(). In 2D, P and S use the first 4 entries
   (2 x 2, row-major); sigma is always the full symmetric 3 x 3 Cauchy stress (sigma_33 is non-zero in plane strain). */
typedef struct {
  PetscReal P[9];     /* first Piola-Kirchhoff stress, Pa */
  PetscReal S[9];     /* second Piola-Kirchhoff stress, Pa */
  PetscReal sigma[9]; /* Cauchy stress (3 x 3), Pa */
  PetscReal psi;      /* strain energy density per unit reference volume, J/m^3 */
  PetscReal J;        /* det F including the out-of-plane stretch in 2D */
  PetscReal F33;      /* out-of-plane stretch in 2D (1 for plane strain), 1 in 3D */
  PetscBool inverted; /* PETSC_TRUE when J <= 0: then the stresses are not defined (set to NaN) */
} SKMaterialPoint;

/* Lame parameters from Young's modulus E (Pa, > 0) and Poisson's ratio nu in (-1, 0.5).
   Outputs lambda, mu in Pa. Error PETSC_ERR_ARG_OUTOFRANGE (message with the value) when E <= 0 or nu is outside. */
PETSC_EXTERN PetscErrorCode SKMaterialLameFromYoung(PetscReal E, PetscReal nu, PetscReal *lambda, PetscReal *mu);

/* Creates a material of registered type `type` ("linear_elastic", "saint_venant_kirchhoff", "neo_hookean") for the
   given stress state, with E (Pa), nu (-), rho (kg/m^3, >= 0). Errors: unknown type (the message lists the known
   ones), out-of-range parameters, a stress state the type does not support. Caller destroys with SKMaterialDestroy(). */
PETSC_EXTERN PetscErrorCode SKMaterialCreate(const char type[], SKStressState state, PetscReal E, PetscReal nu, PetscReal rho,
                                             SKMaterial *mat);
/* A material type: its kernels and optional context and input hooks (src/material/materialimpl.h). */
typedef struct _n_SKMaterialOps SKMaterialOps;
/* Adds a material type (OPS must outlive every material of that type; its name must be new) to the registry of material
   types (src/shared/registry.h). The built-in types are registered in material.c; a new type is one file with its
   SKMaterialOps and one line there (docs/developing.md). An unknown type name is the error "unknown material 'NAME';
   known: ..." (PETSC_ERR_ARG_UNKNOWN_TYPE). */
PETSC_EXTERN PetscErrorCode SKMaterialRegister(const SKMaterialOps *ops);
/* Reads the type's own attributes (if it has any) from its <block> element NODE: FILE:LINE errors for bad values. */
PETSC_EXTERN PetscErrorCode SKMaterialSetFromXML(SKMaterial mat, SKInput input, SKNode node);
/* Frees a material and sets *mat = NULL. */
PETSC_EXTERN PetscErrorCode SKMaterialDestroy(SKMaterial *mat);
/* The material's parameters (pointer owned by the material). */
PETSC_EXTERN PetscErrorCode SKMaterialGetParams(SKMaterial mat, const SKMaterialParams **params);
/* The registered type name of the material (owned by the library). */
PETSC_EXTERN PetscErrorCode SKMaterialGetType(SKMaterial mat, const char **type);
/* Dilatational (P-) wave speed in the undeformed state, m/s, for critical time step estimates:
   sqrt((lambda + 2 mu)/rho) in 3D and plane strain, sqrt(E/(rho (1 - nu^2))) in plane stress. Error if rho = 0. */
PETSC_EXTERN PetscErrorCode SKMaterialGetWaveSpeed(SKMaterial mat, PetscReal *c);

/* Whether a type name is registered. */
PETSC_EXTERN PetscErrorCode SKMaterialTypeExists(const char type[], PetscBool *exists);
/* Comma-separated list of the registered type names, into buf (for error messages and --help). */
PETSC_EXTERN PetscErrorCode SKMaterialTypeList(char buf[], size_t len);

/* Evaluates the material at one point. F: dim x dim deformation gradient (row-major). Fills *pt (caller's struct).
   An inverted point (J <= 0) is not an error: pt->inverted is set and the caller reports it. */
PETSC_EXTERN PetscErrorCode SKMaterialEvaluate(SKMaterial mat, const PetscReal F[], SKMaterialPoint *pt);

/* Alignment of batched arrays: one cache line, so that the lane loops vectorise without peeling. A point's result
   does not depend on its lane: bit for bit without FMA contraction (every lane runs the same operations), to a few
   ulp with -ffp-contract=fast (the compiler may contract a lane's operations differently). */
#define SK_ALIGN _Alignas(64)

/* Storage class of the helpers of the hot loops (below, the fem module's geometry and its internal-force loop): inlined
   at every call whatever the size of the calling file, so that their sizes are compile-time constants there. Left to
   the compiler's heuristics, the Jacobian inverse stopped being inlined into the H8 internal force once other kernels
   were added to its file: a call with a run-time dim that spilled the vector registers (docs/benchmarks.md). */
#define SK_HOT_INLINE static inline __attribute__((always_inline))

/* SK_LANES material points for the batched kernels, layout A[(i*dim+j)*SK_LANES + l]. Declare it as a local variable
   (or inside such a struct): PetscMalloc does not guarantee the 64-byte alignment. */
typedef struct {
  SK_ALIGN PetscReal F[9 * SK_LANES]; /* in: deformation gradient (dim x dim) */
  SK_ALIGN PetscReal P[9 * SK_LANES]; /* out: first Piola-Kirchhoff stress (dim x dim), Pa */
  SK_ALIGN PetscReal psi[SK_LANES];   /* out when requested: strain energy density, J/m^3 */
  SK_ALIGN PetscReal J[SK_LANES];     /* out: det F (with F33 in 2D) */
  SK_ALIGN PetscReal F33[SK_LANES];   /* 2D: out-of-plane stretch (1 in plane strain) */
  SK_ALIGN PetscReal P33[SK_LANES];   /* 2D: out-of-plane first Piola-Kirchhoff stress, Pa */
} SKMaterialBatch;

/* Batched stress for SK_LANES points (the hot path of the internal force): from b->F computes b->P, b->J, in 2D
   b->F33 and b->P33, and b->psi when want_energy. Returns in *inverted the bit mask of lanes with J <= 0 (bit l for
   lane l); those lanes' stresses are unspecified. */
PETSC_EXTERN PetscErrorCode SKMaterialStressBatch(SKMaterial mat, SKMaterialBatch *b, PetscBool want_energy, unsigned *inverted);

/* Lane-wise helpers shared by the batched kernels of material and fem (plain arrays, no state). */
#define SK_L SK_LANES
/* Component (i,j) of lane l in a dim x dim batch. */
#define SK_AT(A, dim, i, j, l) (A)[((i) * (dim) + (j)) * SK_L + (l)]

/* J = det(F) (in-plane only in 2D) and G = F^{-T}, lane-wise. J <= 0 lanes get inf/NaN in G, flagged by the caller. */
SK_HOT_INLINE void SKLanesDetInvT(const PetscInt dim, const PetscReal *restrict F, PetscReal *restrict J, PetscReal *restrict G)
{
  if (dim == 2) {
    for (PetscInt l = 0; l < SK_L; l++) {
      const PetscReal a = F[0 * SK_L + l], b = F[1 * SK_L + l], c = F[2 * SK_L + l], d = F[3 * SK_L + l];
      const PetscReal det = a * d - b * c, r = 1.0 / det;
      J[l]            = det;
      G[0 * SK_L + l] = d * r;
      G[1 * SK_L + l] = -c * r;
      G[2 * SK_L + l] = -b * r;
      G[3 * SK_L + l] = a * r;
    }
  } else {
    for (PetscInt l = 0; l < SK_L; l++) {
      const PetscReal f00 = F[0 * SK_L + l], f01 = F[1 * SK_L + l], f02 = F[2 * SK_L + l];
      const PetscReal f10 = F[3 * SK_L + l], f11 = F[4 * SK_L + l], f12 = F[5 * SK_L + l];
      const PetscReal f20 = F[6 * SK_L + l], f21 = F[7 * SK_L + l], f22 = F[8 * SK_L + l];
      /* cofactors: F^{-T} = cof(F)/det F */
      const PetscReal c00 = f11 * f22 - f12 * f21, c01 = f12 * f20 - f10 * f22, c02 = f10 * f21 - f11 * f20;
      const PetscReal c10 = f02 * f21 - f01 * f22, c11 = f00 * f22 - f02 * f20, c12 = f01 * f20 - f00 * f21;
      const PetscReal c20 = f01 * f12 - f02 * f11, c21 = f02 * f10 - f00 * f12, c22 = f00 * f11 - f01 * f10;
      const PetscReal det = f00 * c00 + f01 * c01 + f02 * c02, r = 1.0 / det;
      J[l]            = det;
      G[0 * SK_L + l] = c00 * r;
      G[1 * SK_L + l] = c01 * r;
      G[2 * SK_L + l] = c02 * r;
      G[3 * SK_L + l] = c10 * r;
      G[4 * SK_L + l] = c11 * r;
      G[5 * SK_L + l] = c12 * r;
      G[6 * SK_L + l] = c20 * r;
      G[7 * SK_L + l] = c21 * r;
      G[8 * SK_L + l] = c22 * r;
    }
  }
}

/* Bit mask of lanes with x <= 0 (also catches NaN, which compares false with > 0). */
SK_HOT_INLINE unsigned SKLanesNonPositive(const PetscReal *x)
{
  unsigned mask = 0;
  for (PetscInt l = 0; l < SK_L; l++) mask |= (unsigned)(!(x[l] > 0.0)) << l;
  return mask;
}

#endif
