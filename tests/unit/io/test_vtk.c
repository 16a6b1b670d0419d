/* Unit test of the VTK writer and the .pvd collection: writes mixed 3D and 2D meshes with point and cell data in all
   four formats (legacy and XML, ASCII and binary), a time series on every rank, and expected.json (the exact inputs,
   as C99 hex floats) for check_vtk.py, which reads the files back with VTK's own readers. Also checks that misuse
   gives the documented errors.
   Run from the build directory: writes vtk_test_np<size>/. */
#include <stickslip/vtk.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

/* A small mesh in the form SKVTKWriteCells() takes. */
typedef struct {
  const char *name;
  PetscInt dim, npoints, ncells;
  const PetscReal *coords;
  const PetscInt *offsets, *connectivity;
  const SKVTKCellType *types;
} TestMesh;

/* Grid spacing that is not a binary fraction, so the coordinates exercise the %.17g round trip. */
#define SPACING 0.1

/* 3D: two hexes (points 0-11) with a tetra on top (apex 12), an H27 (points 13-39, VTK node order), and a vertex,
   a line, a triangle and a quad reusing points, so every 3D-relevant type meets the reader. */
static PetscReal coords3d[40 * 3];
static const PetscInt conn3d[]       = {0,  1,  4,  3,  6,  7,  10, 9,                                                          /* hex */
                                        1,  2,  5,  4,  7,  8,  11, 10,                                                         /* hex */
                                        6,  7,  9,  12,                                                                         /* tetra */
                                        13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, /* H27 */
                                        35, 36, 37, 38, 39, 12,                                                                 /* vertex */
                                        1,  12,                                                                                 /* line */
                                        0,  1,  12,     /* triangle */
                                        0,  1,  4,  3}; /* quad */
static const PetscInt offsets3d[]    = {0, 8, 16, 20, 47, 48, 50, 53, 57};
static const SKVTKCellType types3d[] = {SK_VTK_HEXAHEDRON, SK_VTK_HEXAHEDRON, SK_VTK_TETRA,    SK_VTK_TRIQUADRATIC_HEXAHEDRON,
                                        SK_VTK_VERTEX,     SK_VTK_LINE,       SK_VTK_TRIANGLE, SK_VTK_QUAD};
/* Lattice positions (in units of half a spacing) of the 27 H27 nodes in VTK order: corners, edges, faces, centre. */
static const PetscInt h27[27][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}, {1, 0, 0},
                                    {2, 1, 0}, {1, 2, 0}, {0, 1, 0}, {1, 0, 2}, {2, 1, 2}, {1, 2, 2}, {0, 1, 2}, {0, 0, 1}, {2, 0, 1},
                                    {2, 2, 1}, {0, 2, 1}, {0, 1, 1}, {2, 1, 1}, {1, 0, 1}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}, {1, 1, 1}};

/* 2D (points given with dim = 2): a Q4 (points 0-3), a T3 against its right side (point 4), a Q9 above (points 5-13). */
static PetscReal coords2d[14 * 2];
static const PetscInt conn2d[]       = {0, 1, 2, 3, 1, 4, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13};
static const PetscInt offsets2d[]    = {0, 4, 7, 16};
static const SKVTKCellType types2d[] = {SK_VTK_QUAD, SK_VTK_TRIANGLE, SK_VTK_BIQUADRATIC_QUAD};

/* A chain of line cells along a helix, long enough that every binary array crosses the writer's 64 kB buffer. */
#define NCHAIN 5001
static PetscReal coords_chain[NCHAIN * 3];
static PetscInt conn_chain[2 * (NCHAIN - 1)], offsets_chain[NCHAIN];
static SKVTKCellType types_chain[NCHAIN - 1];

static void BuildCoordinates(void)
{
  for (PetscInt i = 0; i < NCHAIN; i++) {
    coords_chain[3 * i + 0] = cos(0.01 * i), coords_chain[3 * i + 1] = sin(0.01 * i), coords_chain[3 * i + 2] = i / 3.0e3;
    offsets_chain[i] = 2 * i;
    if (i + 1 < NCHAIN) conn_chain[2 * i] = i, conn_chain[2 * i + 1] = i + 1, types_chain[i] = SK_VTK_LINE;
  }
  for (PetscInt k = 0; k < 2; k++)
    for (PetscInt j = 0; j < 2; j++)
      for (PetscInt i = 0; i < 3; i++) {
        PetscReal *x = &coords3d[3 * (i + 3 * (j + 2 * k))];
        x[0] = i * SPACING, x[1] = j * SPACING, x[2] = k * SPACING;
      }
  coords3d[3 * 12 + 0] = 0.5 * SPACING, coords3d[3 * 12 + 1] = 0.3 * SPACING, coords3d[3 * 12 + 2] = 1.7 * SPACING;
  for (PetscInt n = 0; n < 27; n++)
    for (PetscInt d = 0; d < 3; d++) coords3d[3 * (13 + n) + d] = (d == 0 ? 3.0 * SPACING : 0.0) + 0.5 * SPACING * h27[n][d];
  {
    static const PetscReal q4t3[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {2, 0.5}};
    for (PetscInt n = 0; n < 5; n++)
      for (PetscInt d = 0; d < 2; d++) coords2d[2 * n + d] = q4t3[n][d] * SPACING;
    /* Q9 node order: corners, edge midpoints (bottom, right, top, left), centre */
    for (PetscInt n = 0; n < 9; n++) {
      coords2d[2 * (5 + n) + 0] = 0.5 * SPACING * h27[n < 8 ? (n < 4 ? n : n + 4) : 24][0];
      coords2d[2 * (5 + n) + 1] = SPACING * (1.0 + 0.5 * h27[n < 8 ? (n < 4 ? n : n + 4) : 24][1]);
    }
  }
}

/* Field values: irrational, spread over many decades, with extreme magnitudes in the first tuple, so both the %.17g
   round trip and the byte order of every component are exercised. */
static PetscReal FieldValue(PetscInt seed, PetscInt i, PetscInt k)
{
  if (i == 0 && k == 0) return seed % 2 ? -1.0e-300 : 1.0e300;
  return sin(1.0 + 0.37 * i + 1.3 * k + seed) / 3.0 * pow(10.0, (double)((i + k) % 7 - 3));
}

/* Writes "[v0, v1, ...]" with C99 hex floats: exact, and parsed by Python's float.fromhex(). */
static PetscErrorCode JSONReals(FILE *json, PetscInt n, const PetscReal v[])
{
  PetscFunctionBeginUser;
  fputc('[', json);
  for (PetscInt i = 0; i < n; i++) fprintf(json, "%s\"%a\"", i ? ", " : "", (double)v[i]);
  fputc(']', json);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode JSONInts(FILE *json, PetscInt n, const PetscInt v[])
{
  PetscFunctionBeginUser;
  fputc('[', json);
  for (PetscInt i = 0; i < n; i++) fprintf(json, "%s%" PetscInt_FMT, i ? ", " : "", v[i]);
  fputc(']', json);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The arrays of a test file, one table so writing and recording cannot disagree. kind: s = SCALARS (ncomp), i = int
   scalars, v = VECTORS (ncomp = input dimension), t = TENSORS (ncomp = dim, dim*dim values per tuple). */
typedef struct {
  SKVTKLocation loc;
  const char *name;
  char kind;
  PetscInt ncomp;
} TestArray;

static PetscErrorCode WriteArray(SKVTK vtk, const TestMesh *mesh, const TestArray *a, PetscInt seed, PetscMPIInt rank, FILE *json)
{
  PetscInt n       = a->loc == SK_VTK_POINT_DATA ? mesh->npoints : mesh->ncells;
  PetscInt ncomp   = a->kind == 'i' ? 1 : (a->kind == 't' ? a->ncomp * a->ncomp : a->ncomp);
  PetscReal *reals = NULL;
  PetscInt *ints   = NULL;

  PetscFunctionBeginUser;
  if (a->kind == 'i') {
    PetscCall(PetscMalloc1(n, &ints));
    /* block ids with a negative one (sign of binary ints), or the rank */
    for (PetscInt i = 0; i < n; i++) ints[i] = !strcmp(a->name, "rank") ? rank : (i == 1 ? -7 : 1 + i % 3);
    PetscCall(SKVTKWriteIntScalars(vtk, a->loc, a->name, n, ints));
  } else {
    PetscCall(PetscMalloc1(n * ncomp, &reals));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt k = 0; k < ncomp; k++) reals[i * ncomp + k] = FieldValue(seed, i, k);
    if (a->kind == 's')
      PetscCall(SKVTKWriteScalars(vtk, a->loc, a->name, a->ncomp, n, reals));
    else if (a->kind == 'v')
      PetscCall(SKVTKWriteVectors(vtk, a->loc, a->name, a->ncomp, n, reals));
    else
      PetscCall(SKVTKWriteTensors(vtk, a->loc, a->name, a->ncomp, n, reals));
  }
  if (json) {
    fprintf(json, "      {\"location\": \"%s\", \"name\": \"%s\", \"kind\": \"%c\", \"ncomp\": %" PetscInt_FMT ", \"values\": ",
            a->loc == SK_VTK_POINT_DATA ? "point" : "cell", a->name, a->kind, a->ncomp);
    if (ints)
      PetscCall(JSONInts(json, n, ints));
    else
      PetscCall(JSONReals(json, n * ncomp, reals));
    fputc('}', json);
  }
  PetscCall(PetscFree(reals));
  PetscCall(PetscFree(ints));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes MESH with ARRAYS to DIR/FILE and, if JSON is given, its expected content. */
static PetscErrorCode WriteCase(const char dir[], const char file[], SKVTKFormat format, const TestMesh *mesh, PetscInt narrays,
                                const TestArray arrays[], PetscMPIInt rank, FILE *json, PetscBool first)
{
  char path[PETSC_MAX_PATH_LEN];
  SKVTK vtk;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, file));
  PetscCall(SKVTKOpen(path, format, mesh->name, &vtk));
  PetscCall(SKVTKWritePoints(vtk, mesh->npoints, mesh->dim, mesh->coords));
  PetscCall(SKVTKWriteCells(vtk, mesh->ncells, mesh->offsets, mesh->connectivity, mesh->types));
  if (json) {
    static const char *const format_names[] = {"ascii", "binary", "xml_ascii", "xml_binary"};

    fprintf(json, "%s    {\"file\": \"%s\", \"format\": \"%s\", \"title\": \"%s\", \"dim\": %" PetscInt_FMT ",\n     \"points\": ",
            first ? "" : ",\n", file, format_names[format], mesh->name, mesh->dim);
    PetscCall(JSONReals(json, mesh->npoints * mesh->dim, mesh->coords));
    fputs(",\n     \"offsets\": ", json);
    PetscCall(JSONInts(json, mesh->ncells + 1, mesh->offsets));
    fputs(",\n     \"connectivity\": ", json);
    PetscCall(JSONInts(json, mesh->offsets[mesh->ncells], mesh->connectivity));
    fputs(",\n     \"types\": [", json);
    for (PetscInt c = 0; c < mesh->ncells; c++) fprintf(json, "%s%d", c ? ", " : "", (int)mesh->types[c]);
    fputs("],\n     \"arrays\": [\n", json);
  }
  for (PetscInt a = 0; a < narrays; a++) {
    PetscCall(WriteArray(vtk, mesh, &arrays[a], a, rank, json));
    if (json) fputs(a + 1 < narrays ? ",\n" : "]}", json);
  }
  PetscCall(SKVTKClose(&vtk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Expects CALL to fail with error code CODE (errors are returned silently while this test runs). */
#define EXPECT_ERROR(call, code)                                                                                                   \
  do {                                                                                                                             \
    PetscErrorCode ierr_;                                                                                                          \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                                                               \
    ierr_ = (call);                                                                                                                \
    PetscCall(PetscPopErrorHandler());                                                                                             \
    PetscCheck(ierr_ == (code), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s gave error %d, expected %d", #call, (int)ierr_, (int)(code)); \
  } while (0)

/* Misuse must be refused with errors that say what to do, not produce a file the reader mangles. */
static PetscErrorCode TestErrors(const char dir[])
{
  char path[PETSC_MAX_PATH_LEN];
  SKVTK vtk;
  const PetscReal x[3 * 2] = {0, 0, 1, 0, 0, 1};
  const PetscReal s[3]     = {1, 2, 3};
  const PetscInt tri[3] = {0, 1, 2}, bad[3] = {0, 1, 3};
  const PetscInt off[2]       = {0, 3};
  const SKVTKCellType ttri[1] = {SK_VTK_TRIANGLE}, tquad[1] = {SK_VTK_QUAD};
  SKPVD pvd;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/errors.vtk", dir));
  PetscCall(SKVTKOpen(path, SK_VTK_ASCII, NULL, &vtk));
  EXPECT_ERROR(SKVTKWriteCells(vtk, 1, off, tri, ttri), PETSC_ERR_ORDER);
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s", 1, 3, s), PETSC_ERR_ORDER);
  EXPECT_ERROR(SKVTKWritePoints(vtk, 3, 4, x), PETSC_ERR_ARG_OUTOFRANGE);
  PetscCall(SKVTKWritePoints(vtk, 3, 2, x));
  EXPECT_ERROR(SKVTKWritePoints(vtk, 3, 2, x), PETSC_ERR_ORDER);
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s", 1, 3, s), PETSC_ERR_ORDER);
  EXPECT_ERROR(SKVTKWriteCells(vtk, 1, off, tri, tquad), PETSC_ERR_ARG_SIZ);
  EXPECT_ERROR(SKVTKWriteCells(vtk, 1, off, bad, ttri), PETSC_ERR_ARG_OUTOFRANGE);
  PetscCall(SKVTKWriteCells(vtk, 1, off, tri, ttri));
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s", 1, 2, s), PETSC_ERR_ARG_SIZ);
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s", 5, 3, s), PETSC_ERR_ARG_OUTOFRANGE);
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "two words", 1, 3, s), PETSC_ERR_ARG_WRONG);
  EXPECT_ERROR(SKVTKWriteTensors(vtk, SK_VTK_CELL_DATA, "t", 1, 1, s), PETSC_ERR_ARG_OUTOFRANGE);
  PetscCall(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s", 1, 3, s));
  PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "c", 1, 1, s));
  EXPECT_ERROR(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, "s2", 1, 3, s), PETSC_ERR_ORDER);
  PetscCall(SKVTKWriteScalars(vtk, SK_VTK_CELL_DATA, "c2", 1, 1, s));
  PetscCall(SKVTKClose(&vtk));
  PetscCheck(!vtk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKVTKClose() must zero the handle");

  /* closing an incomplete file is an error, but still frees (no leak under ASan) */
  PetscCall(SKVTKOpen(path, SK_VTK_BINARY, "incomplete", &vtk));
  EXPECT_ERROR(SKVTKClose(&vtk), PETSC_ERR_ORDER);
  PetscCheck(!vtk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKVTKClose() must zero the handle on error too");
  EXPECT_ERROR(SKVTKOpen(path, SK_VTK_ASCII, "two\nlines", &vtk), PETSC_ERR_ARG_WRONG);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/no/such/dir/x.vtk", dir));
  EXPECT_ERROR(SKVTKOpen(path, SK_VTK_ASCII, NULL, &vtk), PETSC_ERR_FILE_OPEN);

  /* a full disk (/dev/full: every write fails with ENOSPC): the writes go on without raising, so that a parallel writer
     keeps step with the other ranks, and the close reports the failure; a discarded file raises nothing */
  if (access("/dev/full", W_OK) == 0) {
    PetscCall(SKVTKOpen("/dev/full", SK_VTK_XML_BINARY, NULL, &vtk));
    PetscCall(SKVTKWritePoints(vtk, 3, 2, x));
    PetscCall(SKVTKWriteCells(vtk, 1, off, tri, ttri));
    for (PetscInt k = 0; k < 200; k++) { /* past stdio's buffer */
      char name[16];
      PetscCall(PetscSNPrintf(name, sizeof(name), "s%" PetscInt_FMT, k));
      PetscCall(SKVTKWriteScalars(vtk, SK_VTK_POINT_DATA, name, 1, 3, s));
    }
    EXPECT_ERROR(SKVTKClose(&vtk), PETSC_ERR_FILE_WRITE);
    PetscCheck(!vtk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKVTKClose() must zero the handle after a failed write");
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/discarded.vtu", dir));
  PetscCall(SKVTKOpen(path, SK_VTK_XML_BINARY, NULL, &vtk));
  PetscCall(SKVTKDiscard(&vtk));
  PetscCheck(!vtk && access(path, F_OK) != 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SKVTKDiscard() must free the handle and remove %s", path);

  /* a .pvd of legacy files would crash ParaView's PVD reader (it reads only XML files), so it is refused */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/errors.pvd", dir));
  PetscCall(SKPVDCreate(PETSC_COMM_SELF, path, &pvd));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/errors.vtk", dir));
  EXPECT_ERROR(SKPVDAddStep(pvd, 0.0, path), PETSC_ERR_ARG_WRONG);
  EXPECT_ERROR(SKPVDAddStep(pvd, 0.0, "/elsewhere/x.vtu"), PETSC_ERR_ARG_WRONG);
  PetscCall(SKPVDDestroy(&pvd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A time series of NSTEPS steps, one piece per rank per step, each with its rank as cell data. */
static PetscErrorCode WriteSeries(const char dir[], const TestMesh *mesh, PetscInt nsteps, PetscMPIInt rank, FILE *json)
{
  static const TestArray arrays[] = {{SK_VTK_CELL_DATA, "rank", 'i', 1}, {SK_VTK_POINT_DATA, "u", 'v', 2}};
  char pvdname[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
  SKPVD pvd;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(pvdname, sizeof(pvdname), "%s/series.pvd", dir));
  PetscCall(SKPVDCreate(PETSC_COMM_WORLD, pvdname, &pvd));
  for (PetscInt step = 0; step < nsteps; step++) {
    SKVTK vtk;

    PetscCall(SKPVDGetStepFileName(pvd, step, path, sizeof(path)));
    PetscCall(SKVTKOpen(path, step % 2 ? SK_VTK_XML_BINARY : SK_VTK_XML_ASCII, "series", &vtk));
    PetscCall(SKVTKWritePoints(vtk, mesh->npoints, mesh->dim, mesh->coords));
    PetscCall(SKVTKWriteCells(vtk, mesh->ncells, mesh->offsets, mesh->connectivity, mesh->types));
    for (PetscInt a = 0; a < 2; a++) PetscCall(WriteArray(vtk, mesh, &arrays[a], step, rank, NULL));
    PetscCall(SKVTKClose(&vtk));
    PetscCall(SKPVDAddStep(pvd, 0.25 * step / 3.0, path));
  }
  PetscCall(SKPVDDestroy(&pvd));
  if (json) {
    fputs("  \"pvd\": {\"file\": \"series.pvd\", \"times\": [", json);
    for (PetscInt step = 0; step < nsteps; step++) fprintf(json, "%s\"%a\"", step ? ", " : "", 0.25 * step / 3.0);
    fputs("]},\n", json);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* 3D: point data first, then cell data; 2D: the other order, both are legal */
  static const TestArray arrays3d[] = {
      {SK_VTK_POINT_DATA, "pressure", 's', 1}, {SK_VTK_POINT_DATA, "rgba", 's', 4},    {SK_VTK_POINT_DATA, "displacement", 'v', 3},
      {SK_VTK_POINT_DATA, "stress", 't', 3},   {SK_VTK_CELL_DATA, "volume", 's', 1},   {SK_VTK_CELL_DATA, "block", 'i', 1},
      {SK_VTK_CELL_DATA, "rank", 'i', 1},      {SK_VTK_CELL_DATA, "traction", 'v', 3}, {SK_VTK_CELL_DATA, "strain", 't', 3},
  };
  static const TestArray arrays2d[] = {
      {SK_VTK_CELL_DATA, "area", 's', 1},         {SK_VTK_CELL_DATA, "block", 'i', 1}, {SK_VTK_CELL_DATA, "stress", 't', 2},
      {SK_VTK_POINT_DATA, "temperature", 's', 1}, {SK_VTK_POINT_DATA, "uv", 's', 2},   {SK_VTK_POINT_DATA, "displacement", 'v', 2},
      {SK_VTK_POINT_DATA, "strain", 't', 2},
  };
  const TestMesh mesh3d                 = {"mixed_3d_hex_tet_h27", 3, 40, 8, coords3d, offsets3d, conn3d, types3d};
  static const TestArray arrays_chain[] = {
      {SK_VTK_POINT_DATA, "velocity", 'v', 3},
      {SK_VTK_POINT_DATA, "rgba", 's', 4},
      {SK_VTK_CELL_DATA, "block", 'i', 1},
      {SK_VTK_CELL_DATA, "length", 's', 1},
  };
  const TestMesh mesh2d     = {"mixed_2d_q4_t3_q9", 2, 14, 3, coords2d, offsets2d, conn2d, types2d};
  const TestMesh mesh_chain = {"helix_of_lines", 3, NCHAIN, NCHAIN - 1, coords_chain, offsets_chain, conn_chain, types_chain};
  char dir[PETSC_MAX_PATH_LEN];
  PetscMPIInt rank, size;
  FILE *json = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(SKVTKCellTypeNumNodes(SK_VTK_TRIQUADRATIC_HEXAHEDRON) == 27 && SKVTKCellTypeNumNodes((SKVTKCellType)7) == -1, PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "SKVTKCellTypeNumNodes");
  BuildCoordinates();
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "vtk_test_np%d", (int)size));
  if (rank == 0) {
    char path[PETSC_MAX_PATH_LEN];
    PetscBool exists;

    /* start empty, so files of an earlier run cannot satisfy the check */
    PetscCall(PetscTestDirectory(dir, 'w', &exists));
    if (exists) PetscCall(PetscRMTree(dir));
    PetscCall(PetscMkdir(dir));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/expected.json", dir));
    json = fopen(path, "w");
    PetscCheck(json, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s", path);
    fprintf(json, "{\n  \"nranks\": %d,\n", (int)size);
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(WriteSeries(dir, &mesh2d, 3, rank, json));
  if (rank == 0) {
    static const char *const suffix[]  = {"ascii.vtk", "binary.vtk", "xml_ascii.vtu", "xml_binary.vtu"};
    static const SKVTKFormat formats[] = {SK_VTK_ASCII, SK_VTK_BINARY, SK_VTK_XML_ASCII, SK_VTK_XML_BINARY};
    static const char *const stems[]   = {"mixed3d", "mixed2d", "chain"};
    const TestMesh *const meshes[]     = {&mesh3d, &mesh2d, &mesh_chain};
    const TestArray *const arrays[]    = {arrays3d, arrays2d, arrays_chain};
    const PetscInt narrays[]           = {PETSC_STATIC_ARRAY_LENGTH(arrays3d), PETSC_STATIC_ARRAY_LENGTH(arrays2d),
                                          PETSC_STATIC_ARRAY_LENGTH(arrays_chain)};

    fputs("  \"files\": [\n", json);
    for (PetscInt m = 0; m < 3; m++)
      for (PetscInt f = 0; f < 4; f++) {
        char file[64];

        PetscCall(PetscSNPrintf(file, sizeof(file), "%s_%s", stems[m], suffix[f]));
        PetscCall(WriteCase(dir, file, formats[f], meshes[m], narrays[m], arrays[m], rank, json, (PetscBool)(m == 0 && f == 0)));
      }
    fputs("\n  ]\n}\n", json);
    PetscCheck(!ferror(json) && fclose(json) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing %s/expected.json failed", dir);
    PetscCall(TestErrors(dir));
  }
  PetscCall(PetscFinalize());
  return 0;
}
