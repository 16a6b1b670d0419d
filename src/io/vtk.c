/* stickslip io: VTK UNSTRUCTURED_GRID writer, legacy (version 3.0, ASCII or big-endian binary) or XML (.vtu, ASCII or
   base64 big-endian binary), and the .pvd collection. Every number goes through one small stream (SKVTKPut*), so the
   four encodings share one code path per array and cannot drift apart. */
#include "shared/h5.h"
#include <stickslip/vtk.h>
#include <stickslip/output.h>
#include "io/ioimpl.h"
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* Binary output is staged in a buffer of this many bytes before it is written (raw) or encoded (base64). */
#define SK_VTK_BUFFER_SIZE 65535
/* PETSc 3.18 keeps PetscValidPointer() in a private header; this is the public-API equivalent for our arguments. */
#define SKCheckPointer(p, arg) PetscCheck((p) != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer in argument %d (%s)", (arg), #p)
/* The legacy format reads titles and array names into 256-character buffers. */
#define SK_VTK_MAX_LINE 256
/* Room for the NumberOfCells value of an XML Piece (digits, closing quote and padding blanks, which XML allows before
   the '>'), written before the cells are known and filled in by SKVTKWriteCells(). */
#define SK_VTK_COUNT_WIDTH 20

/* Which part of the file comes next; the legacy format fixes this order and the XML writer keeps it. */
typedef enum {
  SK_VTK_STAGE_POINTS,
  SK_VTK_STAGE_CELLS,
  SK_VTK_STAGE_DATA,
} SKVTKStage;

struct _p_SKVTK {
  FILE *fp;
  char filename[PETSC_MAX_PATH_LEN];
  PetscBool xml, binary;
  SKVTKStage stage;
  PetscInt npoints, ncells;
  long ncells_pos;             /* XML: file offset of the NumberOfCells placeholder */
  PetscBool section_open[2];   /* a POINT_DATA / CELL_DATA section has been started */
  PetscBool section_closed[2]; /* the other section has been started after it; it cannot be reopened */
  unsigned char buffer[SK_VTK_BUFFER_SIZE];
  char encoded[4 * (SK_VTK_BUFFER_SIZE / 3) + 4];   /* base64 of a full buffer */
  size_t used;                                      /* bytes in buffer */
  PetscBool line_start;                             /* ASCII: no value on the current line yet */
  char attributes[2][4 * 2 * SK_VTK_MAX_LINE + 32]; /* XML: ' Attribute="name"' pairs of the PointData/CellData tags */
  char failure[PETSC_MAX_PATH_LEN + 128];           /* the first failed write or seek ("" while none): later ones are skipped */
};

/* Records the first I/O failure of VTK (errno's reason); SKVTKClose() raises it. */
static void SKVTKFail(SKVTK vtk, const char what[])
{
  if (!vtk->failure[0]) (void)PetscSNPrintf(vtk->failure, sizeof(vtk->failure), "%s %s failed: %s", what, vtk->filename, strerror(errno));
}

static const char *const SKVTKSectionName[2][2] = {{"POINT_DATA", "CELL_DATA"}, {"PointData", "CellData"}};

PetscInt SKVTKCellTypeNumNodes(SKVTKCellType type)
{
  switch (type) {
  case SK_VTK_VERTEX:
    return 1;
  case SK_VTK_LINE:
    return 2;
  case SK_VTK_TRIANGLE:
  case SK_VTK_QUADRATIC_EDGE:
    return 3;
  case SK_VTK_QUAD:
  case SK_VTK_TETRA:
    return 4;
  case SK_VTK_QUADRATIC_TRIANGLE:
    return 6;
  case SK_VTK_HEXAHEDRON:
  case SK_VTK_QUADRATIC_QUAD:
    return 8;
  case SK_VTK_BIQUADRATIC_QUAD:
    return 9;
  case SK_VTK_QUADRATIC_TETRA:
    return 10;
  case SK_VTK_QUADRATIC_HEXAHEDRON:
    return 20;
  case SK_VTK_TRIQUADRATIC_HEXAHEDRON:
    return 27;
  case SK_VTK_BEZIER_QUADRILATERAL:
  case SK_VTK_BEZIER_HEXAHEDRON:
    return 0;
  }
  return -1;
}

static PetscErrorCode SKVTKPrintf(SKVTK vtk, const char fmt[], ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
static PetscErrorCode SKVTKPrintf(SKVTK vtk, const char fmt[], ...)
{
  va_list ap;
  int n;

  PetscFunctionBegin;
  if (vtk->failure[0]) PetscFunctionReturn(PETSC_SUCCESS);
  va_start(ap, fmt);
  n = vfprintf(vtk->fp, fmt, ap);
  va_end(ap);
  if (n < 0) SKVTKFail(vtk, "Writing");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes the first N bytes of the buffer: raw for legacy binary, base64 for XML binary (N a multiple of 3 except at
   the end of an array, where '=' pads the last group as base64 requires). */
static PetscErrorCode SKVTKWriteBytes(SKVTK vtk, size_t n)
{
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t written;

  PetscFunctionBegin;
  if (vtk->failure[0]) {
    written = n; /* dropped: the file is already lost */
  } else if (!vtk->xml) {
    written = fwrite(vtk->buffer, 1, n, vtk->fp);
  } else {
    char *out = vtk->encoded;
    size_t m  = 0;

    for (size_t i = 0; i < n; i += 3) {
      uint32_t group = (uint32_t)vtk->buffer[i] << 16;

      if (i + 1 < n) group |= (uint32_t)vtk->buffer[i + 1] << 8;
      if (i + 2 < n) group |= (uint32_t)vtk->buffer[i + 2];
      out[m++] = b64[(group >> 18) & 63];
      out[m++] = b64[(group >> 12) & 63];
      out[m++] = i + 1 < n ? b64[(group >> 6) & 63] : '=';
      out[m++] = i + 2 < n ? b64[group & 63] : '=';
    }
    written = fwrite(out, 1, m, vtk->fp) == m ? n : 0;
  }
  if (written != n) SKVTKFail(vtk, "Writing");
  memmove(vtk->buffer, vtk->buffer + n, vtk->used - n);
  vtk->used -= n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Appends the NBYTES lowest bytes of BITS most significant first: big-endian by construction, on any host. */
static PetscErrorCode SKVTKPutBigEndian(SKVTK vtk, uint64_t bits, int nbytes)
{
  PetscFunctionBegin;
  /* keep whole base64 groups (3 bytes) together until the array ends */
  if (vtk->used + (size_t)nbytes > sizeof(vtk->buffer)) PetscCall(SKVTKWriteBytes(vtk, vtk->used - vtk->used % 3));
  for (int b = nbytes - 1; b >= 0; b--) vtk->buffer[vtk->used++] = (unsigned char)((bits >> (8 * b)) & 0xff);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKVTKPutReal(SKVTK vtk, PetscReal value)
{
  PetscFunctionBegin;
  if (vtk->binary) {
    double d = (double)value;
    uint64_t bits;

    memcpy(&bits, &d, sizeof(bits));
    PetscCall(SKVTKPutBigEndian(vtk, bits, 8));
  } else {
    /* 17 significant digits make every double round-trip exactly */
    PetscCall(SKVTKPrintf(vtk, vtk->line_start ? "%.17g" : " %.17g", (double)value));
    vtk->line_start = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An integer of NBYTES bytes (4: Int32, 1: UInt8 for XML cell types); range-checked in both encodings. */
static PetscErrorCode SKVTKPutInteger(SKVTK vtk, PetscInt value, int nbytes)
{
  PetscFunctionBegin;
  if (nbytes == 1)
    PetscCheck(value >= 0 && value <= UINT8_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "%s: value %" PetscInt_FMT " does not fit in a byte", vtk->filename, value);
  else
    PetscCheck(value >= INT32_MIN && value <= INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "%s: value %" PetscInt_FMT " does not fit the 32-bit ints of VTK files", vtk->filename, value);
  if (vtk->binary) {
    PetscCall(SKVTKPutBigEndian(vtk, (uint64_t)(uint32_t)(int32_t)value, nbytes));
  } else {
    PetscCall(SKVTKPrintf(vtk, vtk->line_start ? "%d" : " %d", (int)value));
    vtk->line_start = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKVTKPutInt(SKVTK vtk, PetscInt value)
{
  PetscFunctionBegin;
  PetscCall(SKVTKPutInteger(vtk, value, 4));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ends a tuple: a line in ASCII, nothing in binary (binary data is one block per array). */
static PetscErrorCode SKVTKEndTuple(SKVTK vtk)
{
  PetscFunctionBegin;
  if (!vtk->binary) {
    PetscCall(SKVTKPrintf(vtk, "\n"));
    vtk->line_start = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts an array of NTUPLES x NCOMP values of TYPE (XML type name: Float64, Int32, UInt8), with the legacy header
   line LEGACY (NULL: none) or the XML DataArray tag (NAME NULL: no Name attribute). XML binary data starts with its
   size in bytes as a big-endian UInt64 inside the base64 stream, as header_type="UInt64" declares. */
static PetscErrorCode SKVTKBeginArray(SKVTK vtk, const char legacy[], const char type[], const char name[], PetscInt ntuples,
                                      PetscInt ncomp)
{
  PetscFunctionBegin;
  if (!vtk->xml) {
    if (legacy) PetscCall(SKVTKPrintf(vtk, "%s\n", legacy));
  } else {
    size_t width = !strcmp(type, "Float64") ? 8 : (!strcmp(type, "Int32") ? 4 : 1);

    PetscCall(SKVTKPrintf(vtk, "<DataArray type=\"%s\"", type));
    if (name) PetscCall(SKVTKPrintf(vtk, " Name=\"%s\"", name));
    PetscCall(SKVTKPrintf(vtk, " NumberOfComponents=\"%" PetscInt_FMT "\" format=\"%s\">\n", ncomp, vtk->binary ? "binary" : "ascii"));
    if (vtk->binary) PetscCall(SKVTKPutBigEndian(vtk, (uint64_t)ntuples * (uint64_t)ncomp * width, 8));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ends an array: binary blocks are followed by a newline so the next keyword or tag starts a line. */
static PetscErrorCode SKVTKEndArray(SKVTK vtk)
{
  PetscFunctionBegin;
  if (vtk->binary) {
    PetscCall(SKVTKWriteBytes(vtk, vtk->used));
    PetscCall(SKVTKPrintf(vtk, "\n"));
  }
  if (vtk->xml) PetscCall(SKVTKPrintf(vtk, "</DataArray>\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Writes N tuples of NOUT reals; output component k is values[i*nin + map[k]], or 0 where map[k] < 0. This one
   loop serves points and vectors (padding to 3D), tensors (2x2 into 3x3) and plain scalars. */
static PetscErrorCode SKVTKPutRealTuples(SKVTK vtk, PetscInt n, PetscInt nin, PetscInt nout, const PetscInt map[], const PetscReal values[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt k = 0; k < nout; k++) PetscCall(SKVTKPutReal(vtk, map[k] < 0 ? 0.0 : values[i * nin + map[k]]));
    PetscCall(SKVTKEndTuple(vtk));
  }
  PetscCall(SKVTKEndArray(vtk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The map of SKVTKPutRealTuples() that places a DIM-vector (DIM <= 3) into 3 components. */
static void SKVTKVectorMap(PetscInt dim, PetscInt map[3])
{
  for (PetscInt k = 0; k < 3; k++) map[k] = k < dim ? k : -1;
}

PetscErrorCode SKVTKOpen(const char filename[], SKVTKFormat format, const char title[], SKVTK *vtk)
{
  SKVTK v;

  PetscFunctionBegin;
  SKCheckPointer(filename, 1);
  SKCheckPointer(vtk, 4);
  PetscCall(SKIOInitializePackage());
  if (!title) title = "stickslip";
  PetscCheck(strlen(title) < SK_VTK_MAX_LINE && !strchr(title, '\n') && !strchr(title, '\r'), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "VTK title must be one line of fewer than %d characters: '%s'", SK_VTK_MAX_LINE, title);
  PetscCheck(format >= SK_VTK_ASCII && format <= SK_VTK_XML_BINARY, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown VTK format %d",
             (int)format);
  PetscCall(PetscNew(&v));
  PetscCall(PetscStrncpy(v->filename, filename, sizeof(v->filename)));
  v->xml        = (PetscBool)(format == SK_VTK_XML_ASCII || format == SK_VTK_XML_BINARY);
  v->binary     = (PetscBool)(format == SK_VTK_BINARY || format == SK_VTK_XML_BINARY);
  v->stage      = SK_VTK_STAGE_POINTS;
  v->line_start = PETSC_TRUE;
  v->fp         = fopen(filename, "wb");
  if (!v->fp) {
    int err = errno;

    PetscCall(PetscFree(v));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create VTK file %s: %s", filename, strerror(err));
  }
  *vtk = v;
  if (v->xml) {
    /* the title has no place in a .vtu; the byte order applies to binary data and their UInt64 size headers */
    PetscCall(SKVTKPrintf(v, "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"BigEndian\" "
                             "header_type=\"UInt64\">\n<UnstructuredGrid>\n"));
  } else {
    PetscCall(SKVTKPrintf(v, "# vtk DataFile Version 3.0\n%s\n%s\nDATASET UNSTRUCTURED_GRID\n", title, v->binary ? "BINARY" : "ASCII"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKClose(SKVTK *vtk)
{
  SKVTK v;
  SKVTKStage stage;
  char filename[PETSC_MAX_PATH_LEN];
  PetscBool ok;
  int closed;

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  v = *vtk;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  *vtk  = NULL;
  stage = v->stage;
  PetscCall(PetscStrncpy(filename, v->filename, sizeof(filename)));
  /* Finish the document and release everything before checking, so that the checks cannot leak the file or the object. */
  ok = PETSC_TRUE;
  if (v->xml && stage == SK_VTK_STAGE_DATA) {
    for (int s = 0; s < 2; s++)
      if (v->section_open[s] && !v->section_closed[s]) ok = (PetscBool)(ok && fprintf(v->fp, "</%s>\n", SKVTKSectionName[1][s]) > 0);
    ok = (PetscBool)(ok && fprintf(v->fp, "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n") > 0);
  }
  ok     = (PetscBool)(ok && fflush(v->fp) == 0 && !ferror(v->fp));
  closed = fclose(v->fp);
  if (v->failure[0]) {
    char failure[sizeof(v->failure)];
    PetscCall(PetscStrncpy(failure, v->failure, sizeof(failure)));
    PetscCall(PetscFree(v));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s", failure);
  }
  PetscCall(PetscFree(v));
  PetscCheck(ok && closed == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing VTK file %s failed (disk full?)", filename);
  PetscCheck(stage != SK_VTK_STAGE_POINTS, PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "VTK file %s closed without points: call SKVTKWritePoints() and SKVTKWriteCells() first", filename);
  PetscCheck(stage != SK_VTK_STAGE_CELLS, PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "VTK file %s closed without cells: call SKVTKWriteCells() first", filename);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKDiscard(SKVTK *vtk)
{
  SKVTK v;

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  v = *vtk;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  *vtk = NULL;
  (void)fclose(v->fp);
  (void)remove(v->filename);
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWritePoints(SKVTK vtk, PetscInt npoints, PetscInt dim, const PetscReal coords[])
{
  char legacy[64];
  PetscInt map[3];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCheck(vtk->stage == SK_VTK_STAGE_POINTS, PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "%s: points are already written; SKVTKWritePoints() comes once, right after SKVTKOpen()", vtk->filename);
  PetscCheck(npoints >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: number of points %" PetscInt_FMT " < 0", vtk->filename, npoints);
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: point dimension %" PetscInt_FMT " is not 1, 2 or 3",
             vtk->filename, dim);
  if (npoints) SKCheckPointer(coords, 4);
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  if (vtk->xml) {
    /* NumberOfCells is not known yet: reserve a fixed-width field and fill it in SKVTKWriteCells() */
    PetscCall(SKVTKPrintf(vtk, "<Piece NumberOfPoints=\"%" PetscInt_FMT "\" NumberOfCells=\"", npoints));
    vtk->ncells_pos = vtk->failure[0] ? 0 : ftell(vtk->fp);
    if (vtk->ncells_pos < 0) SKVTKFail(vtk, "Seeking in (an XML VTK file must be seekable)");
    PetscCall(SKVTKPrintf(vtk, "%-*s>\n<Points>\n", SK_VTK_COUNT_WIDTH, "0\""));
  }
  PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "POINTS %" PetscInt_FMT " double", npoints));
  PetscCall(SKVTKBeginArray(vtk, legacy, "Float64", NULL, npoints, 3));
  SKVTKVectorMap(dim, map);
  PetscCall(SKVTKPutRealTuples(vtk, npoints, dim, 3, map, coords));
  if (vtk->xml) PetscCall(SKVTKPrintf(vtk, "</Points>\n"));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  vtk->npoints = npoints;
  vtk->stage   = SK_VTK_STAGE_CELLS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWriteCells(SKVTK vtk, PetscInt ncells, const PetscInt offsets[], const PetscInt connectivity[],
                               const SKVTKCellType types[])
{
  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCheck(vtk->stage != SK_VTK_STAGE_POINTS, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: call SKVTKWritePoints() before SKVTKWriteCells()",
             vtk->filename);
  PetscCheck(vtk->stage == SK_VTK_STAGE_CELLS, PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "%s: cells are already written; SKVTKWriteCells() comes once, before the data arrays", vtk->filename);
  PetscCheck(ncells >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: number of cells %" PetscInt_FMT " < 0", vtk->filename, ncells);
  SKCheckPointer(offsets, 3);
  if (ncells) {
    SKCheckPointer(connectivity, 4);
    SKCheckPointer(types, 5);
  }
  /* Check everything before writing a byte, so a bad mesh leaves no half-written section behind the error. */
  PetscCheck(offsets[0] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: offsets[0] = %" PetscInt_FMT ", must be 0", vtk->filename,
             offsets[0]);
  for (PetscInt c = 0; c < ncells; c++) {
    PetscInt nnodes = SKVTKCellTypeNumNodes(types[c]);

    PetscCheck(nnodes >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "%s: cell %" PetscInt_FMT " has VTK cell type %d, which this writer does not know", vtk->filename, c, (int)types[c]);
    if (nnodes == 0) { /* Bezier: (p+1)^dim nodes for some degree p >= 1, in XML files */
      const PetscInt dim = types[c] == SK_VTK_BEZIER_QUADRILATERAL ? 2 : 3, n = offsets[c + 1] - offsets[c];
      PetscInt q = 2;

      PetscCheck(vtk->xml, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
                 "%s: cell %" PetscInt_FMT
                 " is a Bezier cell (VTK type %d), which needs the XML formats (.vtu) for its weights and degrees",
                 vtk->filename, c, (int)types[c]);
      while (PetscPowInt(q, dim) < n) q++;
      nnodes = PetscPowInt(q, dim) == n ? n : PetscPowInt(q, dim);
    }
    PetscCheck(offsets[c + 1] - offsets[c] == nnodes, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
               "%s: cell %" PetscInt_FMT " of VTK type %d has %" PetscInt_FMT " nodes, the type needs %" PetscInt_FMT, vtk->filename, c,
               (int)types[c], offsets[c + 1] - offsets[c], nnodes);
    for (PetscInt j = offsets[c]; j < offsets[c + 1]; j++)
      PetscCheck(connectivity[j] >= 0 && connectivity[j] < vtk->npoints, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                 "%s: cell %" PetscInt_FMT " refers to point %" PetscInt_FMT ", the file has %" PetscInt_FMT " points", vtk->filename, c,
                 connectivity[j], vtk->npoints);
  }
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  if (vtk->xml) {
    long end = vtk->failure[0] ? 0 : ftell(vtk->fp);
    char count[SK_VTK_COUNT_WIDTH + 1];

    if (!vtk->failure[0] && (end < 0 || fseek(vtk->fp, vtk->ncells_pos, SEEK_SET) != 0)) SKVTKFail(vtk, "Seeking in");
    PetscCall(PetscSNPrintf(count, sizeof(count), "%" PetscInt_FMT "\"", ncells));
    PetscCall(SKVTKPrintf(vtk, "%-*s", SK_VTK_COUNT_WIDTH, count));
    if (!vtk->failure[0] && fseek(vtk->fp, end, SEEK_SET) != 0) SKVTKFail(vtk, "Seeking in");
    /* XML: connectivity, then the end offset of each cell, then the types as bytes */
    PetscCall(SKVTKPrintf(vtk, "<Cells>\n"));
    PetscCall(SKVTKBeginArray(vtk, NULL, "Int32", "connectivity", offsets[ncells], 1));
    for (PetscInt c = 0; c < ncells; c++) {
      for (PetscInt j = offsets[c]; j < offsets[c + 1]; j++) PetscCall(SKVTKPutInt(vtk, connectivity[j]));
      PetscCall(SKVTKEndTuple(vtk));
    }
    PetscCall(SKVTKEndArray(vtk));
    PetscCall(SKVTKBeginArray(vtk, NULL, "Int32", "offsets", ncells, 1));
    for (PetscInt c = 0; c < ncells; c++) {
      PetscCall(SKVTKPutInt(vtk, offsets[c + 1]));
      PetscCall(SKVTKEndTuple(vtk));
    }
    PetscCall(SKVTKEndArray(vtk));
    PetscCall(SKVTKBeginArray(vtk, NULL, "UInt8", "types", ncells, 1));
  } else {
    char legacy[64];

    /* legacy 3.0 cell list: each cell is its node count followed by its nodes */
    PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "CELLS %" PetscInt_FMT " %" PetscInt_FMT, ncells, ncells + offsets[ncells]));
    PetscCall(SKVTKBeginArray(vtk, legacy, "Int32", NULL, ncells + offsets[ncells], 1));
    for (PetscInt c = 0; c < ncells; c++) {
      PetscCall(SKVTKPutInt(vtk, offsets[c + 1] - offsets[c]));
      for (PetscInt j = offsets[c]; j < offsets[c + 1]; j++) PetscCall(SKVTKPutInt(vtk, connectivity[j]));
      PetscCall(SKVTKEndTuple(vtk));
    }
    PetscCall(SKVTKEndArray(vtk));
    PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "CELL_TYPES %" PetscInt_FMT, ncells));
    PetscCall(SKVTKBeginArray(vtk, legacy, "Int32", NULL, ncells, 1));
  }
  for (PetscInt c = 0; c < ncells; c++) {
    PetscCall(SKVTKPutInteger(vtk, (PetscInt)types[c], vtk->xml ? 1 : 4));
    PetscCall(SKVTKEndTuple(vtk));
  }
  PetscCall(SKVTKEndArray(vtk));
  if (vtk->xml) PetscCall(SKVTKPrintf(vtk, "</Cells>\n"));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  vtk->ncells = ncells;
  vtk->stage  = SK_VTK_STAGE_DATA;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks the order and sizes for a data array, starts its section (POINT_DATA n / <PointData>...) if needed, and
   starts the array: legacy header lines LEGACY (already formatted) or an XML DataArray of TYPE with NCOMP components. */
static PetscErrorCode SKVTKBeginDataArray(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt n, const char legacy[],
                                          const char type[], PetscInt ncomp)
{
  PetscInt expected;

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  SKCheckPointer(name, 3);
  PetscCheck(loc == SK_VTK_POINT_DATA || loc == SK_VTK_CELL_DATA, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: unknown data location %d",
             vtk->filename, (int)loc);
  PetscCheck(vtk->stage != SK_VTK_STAGE_POINTS, PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "%s: call SKVTKWritePoints() and SKVTKWriteCells() before writing array '%s'", vtk->filename, name);
  PetscCheck(vtk->stage != SK_VTK_STAGE_CELLS, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: call SKVTKWriteCells() before writing array '%s'",
             vtk->filename, name);
  /* one word (the legacy reader splits at white space) that needs no XML escaping */
  PetscCheck(name[0] && strlen(name) < SK_VTK_MAX_LINE && !strpbrk(name, " \t\r\n\"'<>&"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "%s: array name '%s' must be one word of fewer than %d characters without quotes, '<', '>' or '&'", vtk->filename, name,
             SK_VTK_MAX_LINE);
  expected = loc == SK_VTK_POINT_DATA ? vtk->npoints : vtk->ncells;
  PetscCheck(n == expected, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "%s: %s array '%s' has %" PetscInt_FMT " tuples, the file has %" PetscInt_FMT " %s", vtk->filename, SKVTKSectionName[0][loc],
             name, n, expected, loc == SK_VTK_POINT_DATA ? "points" : "cells");
  PetscCheck(!vtk->section_closed[loc], PETSC_COMM_SELF, PETSC_ERR_ORDER,
             "%s: %s array '%s' comes after the %s section; write all %s arrays together", vtk->filename, SKVTKSectionName[0][loc], name,
             SKVTKSectionName[0][1 - loc], SKVTKSectionName[0][loc]);
  if (!vtk->section_open[loc]) {
    if (vtk->section_open[1 - loc]) {
      vtk->section_closed[1 - loc] = PETSC_TRUE;
      if (vtk->xml) PetscCall(SKVTKPrintf(vtk, "</%s>\n", SKVTKSectionName[1][1 - loc]));
    }
    vtk->section_open[loc] = PETSC_TRUE;
    if (vtk->xml)
      PetscCall(SKVTKPrintf(vtk, "<%s%s>\n", SKVTKSectionName[1][loc], vtk->attributes[loc]));
    else
      PetscCall(SKVTKPrintf(vtk, "%s %" PetscInt_FMT "\n", SKVTKSectionName[0][loc], n));
  }
  PetscCall(SKVTKBeginArray(vtk, legacy, type, name, n, ncomp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKSetAttribute(SKVTK vtk, SKVTKLocation loc, const char attribute[], const char name[])
{
  char pair[2 * SK_VTK_MAX_LINE + 8];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  SKCheckPointer(attribute, 3);
  SKCheckPointer(name, 4);
  PetscCheck(loc == SK_VTK_POINT_DATA || loc == SK_VTK_CELL_DATA, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: unknown data location %d",
             vtk->filename, (int)loc);
  PetscCheck(vtk->xml, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "%s: legacy VTK files cannot declare the attribute %s=\"%s\": write a .vtu (SK_VTK_XML_ASCII or SK_VTK_XML_BINARY)",
             vtk->filename, attribute, name);
  PetscCheck(!vtk->section_open[loc], PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: attribute %s=\"%s\" set after the first %s array",
             vtk->filename, attribute, name, SKVTKSectionName[0][loc]);
  for (int k = 0; k < 2; k++) {
    const char *word = k ? name : attribute;
    PetscCheck(word[0] && strlen(word) < SK_VTK_MAX_LINE && !strpbrk(word, " \t\r\n\"'<>&="), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "%s: attribute or array name '%s' must be one word of fewer than %d characters without quotes, '<', '>', '&' or '='",
               vtk->filename, word, SK_VTK_MAX_LINE);
  }
  PetscCall(PetscSNPrintf(pair, sizeof(pair), " %s=\"%s\"", attribute, name));
  PetscCheck(strlen(vtk->attributes[loc]) + strlen(pair) < sizeof(vtk->attributes[loc]), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "%s: too many attributes for the %s section (at most 4)", vtk->filename, SKVTKSectionName[0][loc]);
  PetscCall(PetscStrlcat(vtk->attributes[loc], pair, sizeof(vtk->attributes[loc])));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWriteScalars(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt ncomp, PetscInt n, const PetscReal values[])
{
  char legacy[2 * SK_VTK_MAX_LINE];
  PetscInt map[4];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCheck(ncomp >= 1 && ncomp <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "%s: SCALARS '%s' with %" PetscInt_FMT " components; the legacy format allows 1 to 4", vtk->filename, name, ncomp);
  PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "SCALARS %s double %" PetscInt_FMT "\nLOOKUP_TABLE default", name, ncomp));
  PetscCall(SKVTKBeginDataArray(vtk, loc, name, n, legacy, "Float64", ncomp));
  if (n) SKCheckPointer(values, 6);
  for (PetscInt k = 0; k < ncomp; k++) map[k] = k;
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscCall(SKVTKPutRealTuples(vtk, n, ncomp, ncomp, map, values));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWriteIntScalars(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt n, const PetscInt values[])
{
  char legacy[2 * SK_VTK_MAX_LINE];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "SCALARS %s int 1\nLOOKUP_TABLE default", name));
  PetscCall(SKVTKBeginDataArray(vtk, loc, name, n, legacy, "Int32", 1));
  if (n) SKCheckPointer(values, 5);
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(SKVTKPutInt(vtk, values[i]));
    PetscCall(SKVTKEndTuple(vtk));
  }
  PetscCall(SKVTKEndArray(vtk));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWriteVectors(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt dim, PetscInt n, const PetscReal values[])
{
  char legacy[2 * SK_VTK_MAX_LINE];
  PetscInt map[3];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCheck(dim >= 1 && dim <= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "%s: VECTORS '%s' of dimension %" PetscInt_FMT "; must be 1, 2 or 3", vtk->filename, name, dim);
  PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "VECTORS %s double", name));
  PetscCall(SKVTKBeginDataArray(vtk, loc, name, n, legacy, "Float64", 3));
  if (n) SKCheckPointer(values, 6);
  SKVTKVectorMap(dim, map);
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscCall(SKVTKPutRealTuples(vtk, n, dim, 3, map, values));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKVTKWriteTensors(SKVTK vtk, SKVTKLocation loc, const char name[], PetscInt dim, PetscInt n, const PetscReal values[])
{
  char legacy[2 * SK_VTK_MAX_LINE];
  PetscInt map[9];

  PetscFunctionBegin;
  SKCheckPointer(vtk, 1);
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "%s: TENSORS '%s' of dimension %" PetscInt_FMT "; must be 2 or 3", vtk->filename, name, dim);
  PetscCall(PetscSNPrintf(legacy, sizeof(legacy), "TENSORS %s double", name));
  PetscCall(SKVTKBeginDataArray(vtk, loc, name, n, legacy, "Float64", 9));
  if (n) SKCheckPointer(values, 6);
  for (PetscInt r = 0; r < 3; r++)
    for (PetscInt c = 0; c < 3; c++) map[3 * r + c] = (r < dim && c < dim) ? r * dim + c : -1;
  PetscCall(PetscLogEventBegin(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscCall(SKVTKPutRealTuples(vtk, n, dim * dim, 9, map, values));
  PetscCall(PetscLogEventEnd(SK_EVENT_VTKWrite, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------------------ */

typedef struct {
  PetscReal time;
  PetscInt part;
  char *file; /* relative to the pvd's directory */
} SKPVDEntry;

struct _p_SKPVD {
  MPI_Comm comm;
  char filename[PETSC_MAX_PATH_LEN];
  char dir[PETSC_MAX_PATH_LEN];  /* directory prefix of filename including the trailing '/', or "" */
  char stem[PETSC_MAX_PATH_LEN]; /* file name without directory and extension */
  SKPVDEntry *entries;           /* rank 0 only */
  PetscInt nentries, capacity;
};

/* Writes S with the five XML special characters escaped (file names may contain '&'). */
static PetscErrorCode SKPVDPutEscaped(FILE *fp, const char s[])
{
  PetscFunctionBegin;
  for (const char *p = s; *p; p++) {
    switch (*p) {
    case '&':
      fputs("&amp;", fp);
      break;
    case '<':
      fputs("&lt;", fp);
      break;
    case '>':
      fputs("&gt;", fp);
      break;
    case '"':
      fputs("&quot;", fp);
      break;
    case '\'':
      fputs("&apos;", fp);
      break;
    default:
      fputc(*p, fp);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rewrites the whole collection into FILENAME.tmp and renames it over FILENAME: rename() is atomic, so a reader or a
   killed run sees either the previous complete collection or the new one. Rank 0 only. */
static PetscErrorCode SKPVDWrite(SKPVD pvd)
{
  char tmp[PETSC_MAX_PATH_LEN + 8];
  FILE *fp;
  int failed;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", pvd->filename));
  fp = fopen(tmp, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", tmp, strerror(errno));
  /* byte_order only matters for XML data files; the pieces are legacy files that state their own encoding */
  fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"BigEndian\">\n  <Collection>\n", fp);
  for (PetscInt i = 0; i < pvd->nentries; i++) {
    fprintf(fp, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%" PetscInt_FMT "\" file=\"", (double)pvd->entries[i].time,
            pvd->entries[i].part);
    PetscCall(SKPVDPutEscaped(fp, pvd->entries[i].file));
    fputs("\"/>\n", fp);
  }
  fputs("  </Collection>\n</VTKFile>\n", fp);
  failed = ferror(fp);
  failed = fclose(fp) || failed;
  PetscCheck(!failed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing %s failed (disk full?)", tmp);
  PetscCall(SKFileCommit(tmp, pvd->filename));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills a new collection object for FILENAME without writing anything. */
static PetscErrorCode SKPVDSetUp(MPI_Comm comm, const char filename[], SKPVD *pvd)
{
  SKPVD p;
  const char *slash, *base, *dot;

  PetscFunctionBegin;
  SKCheckPointer(filename, 2);
  SKCheckPointer(pvd, 3);
  PetscCall(SKIOInitializePackage());
  PetscCheck(strlen(filename) + 1 < sizeof(p->filename), comm, PETSC_ERR_ARG_SIZ, "pvd file name too long: %s", filename);
  PetscCall(PetscNew(&p));
  p->comm = comm;
  PetscCall(PetscStrncpy(p->filename, filename, sizeof(p->filename)));
  slash = strrchr(filename, '/');
  base  = slash ? slash + 1 : filename;
  PetscCall(PetscStrncpy(p->dir, filename, (size_t)(base - filename) + 1));
  PetscCall(PetscStrncpy(p->stem, base, sizeof(p->stem)));
  dot = strrchr(p->stem, '.');
  if (dot && dot != p->stem) p->stem[dot - p->stem] = '\0';
  *pvd = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKPVDCreate(MPI_Comm comm, const char filename[], SKPVD *pvd)
{
  PetscMPIInt rank;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKPVDSetUp(comm, filename, pvd));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  /* a collection that rank 0 cannot write is an error of every rank (the others would wait for it in the next step) */
  if (rank == 0) ierr = SKPVDWrite(*pvd);
  PetscCall(SKCheckCollective(comm, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Undoes SKPVDPutEscaped() in place. */
static void SKPVDUnescape(char s[])
{
  static const char *const ent[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
  static const char chr[]        = {'&', '<', '>', '"', '\''};
  char *w                        = s;

  for (const char *r = s; *r;) {
    PetscInt k;
    for (k = 0; k < 5; k++)
      if (!strncmp(r, ent[k], strlen(ent[k]))) break;
    if (k < 5) {
      *w++ = chr[k];
      r += strlen(ent[k]);
    } else
      *w++ = *r++;
  }
  *w = '\0';
}

/* Appends one entry (rank 0). */
static PetscErrorCode SKPVDPush(SKPVD pvd, PetscReal time, PetscInt part, const char file[])
{
  SKPVDEntry *e;

  PetscFunctionBegin;
  if (pvd->nentries == pvd->capacity) {
    PetscInt capacity = PetscMax(16, 2 * pvd->capacity);
    SKPVDEntry *entries;

    PetscCall(PetscMalloc1(capacity, &entries));
    if (pvd->nentries) PetscCall(PetscArraycpy(entries, pvd->entries, pvd->nentries));
    PetscCall(PetscFree(pvd->entries));
    pvd->entries  = entries;
    pvd->capacity = capacity;
  }
  e       = &pvd->entries[pvd->nentries++];
  e->time = time;
  e->part = part;
  PetscCall(PetscStrallocpy(file, &e->file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of SKPVDOpen(): reads the entries of the existing collection up to time T_KEEP and rewrites it. */
static PetscErrorCode SKPVDRead(SKPVD pvd, PetscReal t_keep)
{
  FILE *fp;
  char line[PETSC_MAX_PATH_LEN + 128], file[PETSC_MAX_PATH_LEN];
  double time;
  int part;

  PetscFunctionBegin;
  fp = fopen(pvd->filename, "r");
  if (fp) {
    /* Our own format, one DataSet per line (SKPVDWrite()). */
    while (fgets(line, sizeof(line), fp)) {
      if (sscanf(line, " <DataSet timestep=\"%lf\" group=\"\" part=\"%d\" file=\"%4095[^\"]\"", &time, &part, file) != 3) continue;
      if ((PetscReal)time > t_keep) continue;
      SKPVDUnescape(file);
      if (SKPVDPush(pvd, (PetscReal)time, (PetscInt)part, file)) {
        fclose(fp);
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory reading %s", pvd->filename);
      }
    }
    fclose(fp);
  }
  PetscCall(SKPVDWrite(pvd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKPVDOpen(MPI_Comm comm, const char filename[], PetscReal t_keep, SKPVD *pvd)
{
  PetscMPIInt rank;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(SKPVDSetUp(comm, filename, pvd));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) ierr = SKPVDRead(*pvd, t_keep);
  PetscCall(SKCheckCollective(comm, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKPVDDestroy(SKPVD *pvd)
{
  PetscFunctionBegin;
  SKCheckPointer(pvd, 1);
  if (!*pvd) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < (*pvd)->nentries; i++) PetscCall(PetscFree((*pvd)->entries[i].file));
  PetscCall(PetscFree((*pvd)->entries));
  PetscCall(PetscFree(*pvd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKPVDGetStepFileName(SKPVD pvd, PetscInt step, char path[], size_t len)
{
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  SKCheckPointer(pvd, 1);
  SKCheckPointer(path, 3);
  PetscCallMPI(MPI_Comm_rank(pvd->comm, &rank));
  PetscCallMPI(MPI_Comm_size(pvd->comm, &size));
  if (size == 1)
    PetscCall(PetscSNPrintf(path, len, "%s%s_%06" PetscInt_FMT ".vtu", pvd->dir, pvd->stem, step));
  else
    PetscCall(PetscSNPrintf(path, len, "%s%s_%06" PetscInt_FMT "_p%04d.vtu", pvd->dir, pvd->stem, step, (int)rank));
  PetscCheck(strlen(path) + 1 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Buffer of %zu characters too short for the step file name %s",
             len, path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKPVDAddStep(SKPVD pvd, PetscReal time, const char file[])
{
  char relative[PETSC_MAX_PATH_LEN] = {0};
  char *all                         = NULL;
  size_t ndir;
  PetscMPIInt rank, size;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  SKCheckPointer(pvd, 1);
  SKCheckPointer(file, 3);
  ndir = strlen(pvd->dir);
  if (ndir && !strncmp(file, pvd->dir, ndir)) file += ndir;
  PetscCheck(file[0] && file[0] != '/', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "pvd %s: step file '%s' must lie in the pvd's directory '%s'",
             pvd->filename, file, pvd->dir);
  PetscCheck(strlen(file) < sizeof(relative), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "pvd %s: step file name too long: %s", pvd->filename,
             file);
  /* ParaView's PVD reader picks the reader of a DataSet by its extension and knows only the XML formats */
  PetscCheck(strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".vtu"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "pvd %s: step file '%s' must be a .vtu written with SK_VTK_XML_ASCII or SK_VTK_XML_BINARY; ParaView cannot read legacy .vtk "
             "files through a .pvd",
             pvd->filename, file);
  PetscCall(PetscStrncpy(relative, file, sizeof(relative)));
  PetscCallMPI(MPI_Comm_rank(pvd->comm, &rank));
  PetscCallMPI(MPI_Comm_size(pvd->comm, &size));
  if (rank == 0) PetscCall(PetscMalloc1((size_t)size * PETSC_MAX_PATH_LEN, &all));
  PetscCallMPI(MPI_Gather(relative, PETSC_MAX_PATH_LEN, MPI_CHAR, all, PETSC_MAX_PATH_LEN, MPI_CHAR, 0, pvd->comm));
  if (rank == 0) {
    for (PetscMPIInt r = 0; r < size; r++) PetscCall(SKPVDPush(pvd, time, r, all + (size_t)r * PETSC_MAX_PATH_LEN));
    PetscCall(PetscFree(all));
    ierr = SKPVDWrite(pvd);
  }
  PetscCall(SKCheckCollective(pvd->comm, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
