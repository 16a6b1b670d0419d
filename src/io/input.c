/* stickslip io: safe loading of XML inputs, validation against the solver's embedded schema, typed access.
   Safety: no network, no entity substitution, no DTD loading, no XInclude; a DOCTYPE is refused as soon as the
   parser sees it (before any entity declaration is read), and every external resource request is refused. */
#include <stickslip/input.h>
#include <stickslip/solver.h>
#include "io/ioimpl.h"
#include <libxml/c14n.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlschemas.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* Inputs beyond this size are refused before parsing (the largest study input is a few kB; meshes live in their own files). */
#define SK_INPUT_MAX_BYTES (64 * 1024 * 1024)

struct _p_SKInput {
  MPI_Comm comm;
  char *filename;
  char *dir;
  char *text; /* the raw bytes, NUL-terminated */
  size_t size;
  xmlDocPtr doc;
};

/* First error reported by libxml2 during one parse or validation. */
typedef struct {
  PetscBool set;
  PetscBool refused; /* stopped by our own rule (DOCTYPE, external resource), not a syntax error */
  int line;
  char message[512];
} SKXmlErrorRecord;

static void SKXmlErrorRecordSet(SKXmlErrorRecord *rec, int line, const char *msg)
{
  size_t n;

  if (rec->set) return;
  rec->set  = PETSC_TRUE;
  rec->line = line;
  if (PetscStrncpy(rec->message, msg ? msg : "unknown XML error", sizeof(rec->message))) rec->message[0] = 0;
  /* libxml2 messages end in a newline; messages here are one line. */
  n = strlen(rec->message);
  while (n > 0 && (rec->message[n - 1] == '\n' || rec->message[n - 1] == ' ')) rec->message[--n] = 0;
}

static void SKXmlStructuredError(void *data, xmlErrorPtr err)
{
  SKXmlErrorRecordSet((SKXmlErrorRecord *)data, err ? err->line : 0, err ? err->message : NULL);
}

/* SAX hook: stop at the DOCTYPE, before entities (billion laughs) or external subsets (XXE) are looked at. */
static void SKRefuseDoctype(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id)
{
  xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
  SKXmlErrorRecord *rec = (SKXmlErrorRecord *)ctxt->_private;

  (void)name;
  (void)external_id;
  (void)system_id;
  SKXmlErrorRecordSet(rec, xmlSAX2GetLineNumber(ctx), "DOCTYPE declarations (DTDs, entities) are not allowed in stickslip inputs");
  rec->refused = PETSC_TRUE;
  xmlStopParser(ctxt);
}

/* Every external resource is refused while parsing inputs. */
static xmlParserInputPtr SKRefuseExternal(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
  (void)id;
  if (ctxt && ctxt->_private)
    SKXmlErrorRecordSet((SKXmlErrorRecord *)ctxt->_private, xmlSAX2GetLineNumber(ctxt),
                        "external resources are not allowed in stickslip inputs");
  (void)url;
  return NULL;
}

/* While compiling a schema, <xs:include schemaLocation="common.xsd"/> is served from the embedded table. */
static xmlParserInputPtr SKSchemaLoader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
  const char *base = url ? strrchr(url, '/') : NULL;
  const char *text = SKSchemaGet(base ? base + 1 : url);

  (void)id;
  if (!text) return NULL;
  return xmlNewStringInputStream(ctxt, (const xmlChar *)text);
}

static PetscErrorCode SKInputErrorAt(SKInput input, int line, const char msg[])
{
  PetscFunctionBegin;
  SETERRQ(input->comm, SK_ERR_INPUT, "%s:%d: %s", input->filename, line, msg);
}

/* Compiles the embedded schema NAME. */
static PetscErrorCode SKSchemaCompile(SKInput input, const char name[], xmlSchemaPtr *schema)
{
  const char *text = SKSchemaGet(name);
  xmlSchemaParserCtxtPtr pctxt;
  xmlExternalEntityLoader saved;
  SKXmlErrorRecord rec = {PETSC_FALSE, PETSC_FALSE, 0, ""};

  PetscFunctionBegin;
  PetscCheck(text, PETSC_COMM_SELF, PETSC_ERR_PLIB, "schema '%s' is not embedded in this build", name);
  saved = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(SKSchemaLoader);
  pctxt = xmlSchemaNewMemParserCtxt(text, (int)strlen(text));
  xmlSchemaSetParserStructuredErrors(pctxt, SKXmlStructuredError, &rec);
  *schema = xmlSchemaParse(pctxt);
  xmlSchemaFreeParserCtxt(pctxt);
  xmlSetExternalEntityLoader(saved);
  (void)input;
  PetscCheck(*schema, PETSC_COMM_SELF, PETSC_ERR_PLIB, "embedded schema '%s' does not compile: line %d: %s", name, rec.line, rec.message);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parses and validates INPUT. With ROOT_NAME NULL the root element names a registered solver, whose schema applies;
   otherwise the root must be ROOT_NAME and SCHEMA_NAME applies (files that are not solver inputs, e.g. mesh files). */
static PetscErrorCode SKInputParse(SKInput input, const char root_name[], const char schema_name[])
{
  xmlParserCtxtPtr ctxt;
  xmlExternalEntityLoader saved;
  SKXmlErrorRecord rec = {PETSC_FALSE, PETSC_FALSE, 0, ""};
  xmlNodePtr root;
  const SKSolverType *type;
  xmlSchemaPtr schema;
  xmlSchemaValidCtxtPtr vctxt;
  int valid;
  char known[512], msg[768];

  PetscFunctionBegin;
  if (input->size == 0) PetscCall(SKInputErrorAt(input, 1, "the file is empty"));
  PetscCheck(input->size <= SK_INPUT_MAX_BYTES, input->comm, SK_ERR_INPUT,
             "%s:1: the file is larger than %d bytes; is it really a stickslip input?", input->filename, SK_INPUT_MAX_BYTES);
  ctxt = xmlNewParserCtxt();
  PetscCheck(ctxt, PETSC_COMM_SELF, PETSC_ERR_MEM, "xmlNewParserCtxt() failed");
  ctxt->_private            = &rec;
  ctxt->sax->internalSubset = SKRefuseDoctype;
  ctxt->sax->externalSubset = SKRefuseDoctype;
  xmlSetStructuredErrorFunc(&rec, SKXmlStructuredError);
  saved = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(SKRefuseExternal);
  /* NONET: no network; no NOENT (entities are not substituted), no DTDLOAD/DTDVALID, no HUGE (default limits). */
  input->doc = xmlCtxtReadMemory(ctxt, input->text, (int)input->size, input->filename, NULL,
                                 XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  xmlSetExternalEntityLoader(saved);
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlFreeParserCtxt(ctxt);
  if (rec.set || !input->doc) {
    if (input->doc) {
      xmlFreeDoc(input->doc);
      input->doc = NULL;
    }
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s%s",
                            rec.refused ? "" : "malformed XML: ", rec.set ? rec.message : "the parser gave no document"));
    PetscCall(SKInputErrorAt(input, rec.set && rec.line > 0 ? rec.line : 1, msg));
  }
  root = xmlDocGetRootElement(input->doc);
  if (!root) PetscCall(SKInputErrorAt(input, 1, "the document has no root element"));

  if (root_name) {
    if (strcmp((const char *)root->name, root_name)) {
      PetscCall(
          PetscSNPrintf(msg, sizeof(msg), "a %s file has the root element <%s>, not <%s>", root_name, root_name, (const char *)root->name));
      PetscCall(SKInputErrorAt(input, (int)xmlGetLineNo(root), msg));
    }
  } else {
    PetscCall(SKSolverFind((const char *)root->name, &type));
    if (!type) {
      PetscCall(SKSolverList(known, sizeof(known)));
      PetscCall(
          PetscSNPrintf(msg, sizeof(msg), "unknown root element <%s>: it must name a solver, one of: %s", (const char *)root->name, known));
      PetscCall(SKInputErrorAt(input, (int)xmlGetLineNo(root), msg));
    }
    root_name   = type->name;
    schema_name = type->schema;
  }
  PetscCall(SKSchemaCompile(input, schema_name, &schema));
  vctxt = xmlSchemaNewValidCtxt(schema);
  xmlSchemaSetValidStructuredErrors(vctxt, SKXmlStructuredError, &rec);
  valid = xmlSchemaValidateDoc(vctxt, input->doc);
  xmlSchemaFreeValidCtxt(vctxt);
  xmlSchemaFree(schema);
  if (valid != 0) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "does not match the schema of <%s> (%s): %s", root_name, schema_name,
                            rec.set ? rec.message : "validation failed"));
    PetscCall(SKInputErrorAt(input, rec.set && rec.line > 0 ? rec.line : 1, msg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKInputCreate(MPI_Comm comm, const char name[], SKInput *input)
{
  SKInput in;
  const char *slash;

  PetscFunctionBegin;
  PetscCall(SKIOInitializePackage());
  PetscCall(PetscNew(&in));
  in->comm = comm;
  PetscCall(PetscStrallocpy(name, &in->filename));
  slash = strrchr(name, '/');
  if (slash) {
    size_t n = (size_t)(slash - name);
    PetscCall(PetscMalloc1(n + 2, &in->dir));
    PetscCall(PetscMemcpy(in->dir, name, n ? n : 1));
    in->dir[n ? n : 1] = 0;
  } else
    PetscCall(PetscStrallocpy(".", &in->dir));
  *input = in;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKInputLoadMemoryAs(MPI_Comm comm, const char name[], const char *buffer, size_t size, const char root_name[],
                                          const char schema_name[], SKInput *input)
{
  SKInput in = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *input = NULL;
  PetscCall(SKIOInitializePackage());
  PetscCall(PetscLogEventBegin(SK_EVENT_InputLoad, 0, 0, 0, 0));
  PetscCall(SKInputCreate(comm, name, &in));
  PetscCall(PetscMalloc1(size + 1, &in->text));
  if (size) PetscCall(PetscMemcpy(in->text, buffer, size));
  in->text[size] = 0;
  in->size       = size;
  ierr           = SKInputParse(in, root_name, schema_name);
  PetscCall(PetscLogEventEnd(SK_EVENT_InputLoad, 0, 0, 0, 0));
  if (ierr) {
    PetscCall(SKInputDestroy(&in));
    /* Return the input error as raised (its message is already "FILE:LINE: ..."). */
    PetscFunctionReturn(ierr);
  }
  *input = in;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputLoadMemory(MPI_Comm comm, const char name[], const char *buffer, size_t size, SKInput *input)
{
  PetscFunctionBegin;
  PetscCall(SKInputLoadMemoryAs(comm, name, buffer, size, NULL, NULL, input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SKInputLoadAs(MPI_Comm comm, const char filename[], const char root_name[], const char schema_name[], SKInput *input)
{
  FILE *fp;
  char *buf   = NULL;
  size_t size = 0, cap = 0, n;

  PetscFunctionBegin;
  *input = NULL;
  fp     = fopen(filename, "rb");
  PetscCheck(fp, comm, SK_ERR_INPUT, "%s:1: cannot read the file: %s", filename, strerror(errno));
  /* Read in chunks: works for pipes and special files, and stops at the size limit. */
  do {
    if (size + 65536 > cap) {
      cap = cap ? 2 * cap : 65536;
      if (PetscRealloc(cap + 1, &buf)) {
        fclose(fp);
        SETERRQ(comm, PETSC_ERR_MEM, "out of memory reading %s", filename);
      }
    }
    n = fread(buf + size, 1, cap - size, fp);
    size += n;
  } while (n > 0 && size <= SK_INPUT_MAX_BYTES);
  if (ferror(fp)) {
    int err = errno;
    fclose(fp);
    PetscCall(PetscFree(buf));
    SETERRQ(comm, SK_ERR_INPUT, "%s:1: cannot read the file: %s", filename, strerror(err));
  }
  fclose(fp);
  {
    PetscErrorCode ierr = SKInputLoadMemoryAs(comm, filename, buf ? buf : "", size, root_name, schema_name, input);
    PetscCall(PetscFree(buf));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputLoad(MPI_Comm comm, const char filename[], SKInput *input)
{
  PetscFunctionBegin;
  PetscCall(SKInputLoadAs(comm, filename, NULL, NULL, input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputLoadWithSchema(MPI_Comm comm, const char filename[], const char root[], const char schema[], SKInput *input)
{
  PetscFunctionBegin;
  PetscCheck(root && schema, comm, PETSC_ERR_ARG_NULL, "SKInputLoadWithSchema() needs the root element and the schema name");
  PetscCall(SKInputLoadAs(comm, filename, root, schema, input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputDestroy(SKInput *input)
{
  PetscFunctionBegin;
  if (!*input) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*input)->doc) xmlFreeDoc((*input)->doc);
  PetscCall(PetscFree((*input)->filename));
  PetscCall(PetscFree((*input)->dir));
  PetscCall(PetscFree((*input)->text));
  PetscCall(PetscFree(*input));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetFileName(SKInput input, const char *name[])
{
  PetscFunctionBegin;
  *name = input->filename;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetDirectory(SKInput input, const char *dir[])
{
  PetscFunctionBegin;
  *dir = input->dir;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetText(SKInput input, const char *text[], size_t *size)
{
  PetscFunctionBegin;
  *text = input->text;
  if (size) *size = input->size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetComm(SKInput input, MPI_Comm *comm)
{
  PetscFunctionBegin;
  *comm = input->comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- navigation ---- */

#define SKX(node) ((xmlNodePtr)(node))

PetscErrorCode SKInputGetRoot(SKInput input, SKNode *root)
{
  PetscFunctionBegin;
  *root = (SKNode)xmlDocGetRootElement(input->doc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *SKNodeName(SKNode node)
{
  return node ? (const char *)SKX(node)->name : "";
}

int SKNodeLine(SKNode node)
{
  return node ? (int)xmlGetLineNo(SKX(node)) : 0;
}

/* An element named NAME (any element when NAME is NULL): the test of the child iteration. */
static PetscBool SKElementNamed(xmlNodePtr c, const char name[])
{
  return (PetscBool)(c->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)c->name, name)));
}

/* The first node from C on (C itself included) that is an element named NAME. */
static SKNode SKNextNamed(xmlNodePtr c, const char name[])
{
  while (c && !SKElementNamed(c, name)) c = c->next;
  return (SKNode)c;
}

SKNode SKNodeFirstChild(SKNode parent, const char name[])
{
  return parent ? SKNextNamed(SKX(parent)->children, name) : NULL;
}

SKNode SKNodeNextSibling(SKNode node, const char name[])
{
  return node ? SKNextNamed(SKX(node)->next, name) : NULL;
}

PetscInt SKNodeCountChildren(SKNode parent, const char name[])
{
  PetscInt n = 0;
  for (SKNode c = SKNodeFirstChild(parent, name); c; c = SKNodeNextSibling(c, name)) n++;
  return n;
}

PetscErrorCode SKNodeGetChild(SKNode parent, const char name[], SKNode *child)
{
  PetscFunctionBegin;
  *child = SKNodeFirstChild(parent, name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputRequireChild(SKInput input, SKNode parent, const char name[], SKNode *child)
{
  PetscFunctionBegin;
  PetscCall(SKNodeGetChild(parent, name, child));
  if (!*child) PetscCall(SKInputError(input, parent, "<%s> needs a <%s> element", SKNodeName(parent), name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies S (without surrounding whitespace) into buf or raises an input error if it does not fit. */
static PetscErrorCode SKCopyTrimmed(SKInput input, SKNode node, const char *what, const char *s, char buf[], size_t len)
{
  size_t n;

  PetscFunctionBegin;
  while (*s && strchr(" \t\r\n", *s)) s++;
  n = strlen(s);
  while (n > 0 && strchr(" \t\r\n", s[n - 1])) n--;
  if (n + 1 > len) PetscCall(SKInputError(input, node, "%s is too long (%zu characters; at most %zu)", what, n, len - 1));
  PetscCall(PetscMemcpy(buf, s, n));
  buf[n] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetText_Node(SKInput input, SKNode node, char buf[], size_t len)
{
  xmlChar *content = xmlNodeGetContent(SKX(node));
  PetscErrorCode ierr;
  char what[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what, sizeof(what), "the text of <%s>", SKNodeName(node)));
  ierr = SKCopyTrimmed(input, node, what, content ? (const char *)content : "", buf, len);
  xmlFree(content);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetString(SKInput input, SKNode node, const char attr[], char buf[], size_t len, PetscBool *found)
{
  xmlChar *value = node ? xmlGetProp(SKX(node), (const xmlChar *)attr) : NULL;
  PetscErrorCode ierr;
  char what[128];

  PetscFunctionBegin;
  if (found) *found = value ? PETSC_TRUE : PETSC_FALSE;
  if (!value) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "attribute '%s'", attr));
  ierr = SKCopyTrimmed(input, node, what, (const char *)value, buf, len);
  xmlFree(value);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputRequireString(SKInput input, SKNode node, const char attr[], char buf[], size_t len)
{
  PetscBool found = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(input, node, attr, buf, len, &found));
  if (!found) PetscCall(SKInputError(input, node, "<%s> needs the attribute '%s'", SKNodeName(node), attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parses one finite real from s; *end points after it. Overflow (1e999) and inf/nan are refused. */
static PetscBool SKParseReal(const char *s, PetscReal *v, const char **end)
{
  char *e;
  double d;

  errno = 0;
  d     = strtod(s, &e);
  if (e == s || !isfinite(d) || (errno == ERANGE && d != 0.0)) return PETSC_FALSE;
  *v   = (PetscReal)d;
  *end = e;
  return PETSC_TRUE;
}

PetscErrorCode SKInputGetReal(SKInput input, SKNode node, const char attr[], PetscReal *value, PetscBool *found)
{
  char buf[256];
  PetscBool has = PETSC_FALSE;
  const char *end;
  PetscReal v = 0;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(input, node, attr, buf, sizeof(buf), &has));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  if (!SKParseReal(buf, &v, &end) || *end)
    PetscCall(SKInputError(input, node, "attribute '%s' = '%s' is not a finite real number", attr, buf));
  *value = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputRequireReal(SKInput input, SKNode node, const char attr[], PetscReal *value)
{
  PetscBool found = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SKInputGetReal(input, node, attr, value, &found));
  if (!found) PetscCall(SKInputError(input, node, "<%s> needs the attribute '%s'", SKNodeName(node), attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetInt(SKInput input, SKNode node, const char attr[], PetscInt *value, PetscBool *found)
{
  char buf[64], *end;
  PetscBool has = PETSC_FALSE;
  long long v   = 0;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(input, node, attr, buf, sizeof(buf), &has));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  errno = 0;
  v     = strtoll(buf, &end, 10);
  if (end == buf || *end || errno == ERANGE || v > PETSC_MAX_INT || v < PETSC_MIN_INT)
    PetscCall(SKInputError(input, node, "attribute '%s' = '%s' is not an integer", attr, buf));
  *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputRequireInt(SKInput input, SKNode node, const char attr[], PetscInt *value)
{
  PetscBool found = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SKInputGetInt(input, node, attr, value, &found));
  if (!found) PetscCall(SKInputError(input, node, "<%s> needs the attribute '%s'", SKNodeName(node), attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetBool(SKInput input, SKNode node, const char attr[], PetscBool *value, PetscBool *found)
{
  char buf[16];
  PetscBool has = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(SKInputGetString(input, node, attr, buf, sizeof(buf), &has));
  if (found) *found = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS);
  if (!strcmp(buf, "true") || !strcmp(buf, "1"))
    *value = PETSC_TRUE;
  else if (!strcmp(buf, "false") || !strcmp(buf, "0"))
    *value = PETSC_FALSE;
  else
    PetscCall(SKInputError(input, node, "attribute '%s' = '%s' is not a boolean (true, false, 1, 0)", attr, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetRealList(SKInput input, SKNode node, const char attr[], PetscInt *n, PetscReal values[], PetscBool *found)
{
  xmlChar *raw = node ? xmlGetProp(SKX(node), (const xmlChar *)attr) : NULL;
  const char *s, *end;
  PetscInt cap = *n, count = 0;
  PetscReal v  = 0;
  PetscBool ok = PETSC_TRUE, overflow = PETSC_FALSE;

  PetscFunctionBegin;
  if (found) *found = raw ? PETSC_TRUE : PETSC_FALSE;
  *n = 0;
  if (!raw) PetscFunctionReturn(PETSC_SUCCESS);
  for (s = (const char *)raw;;) {
    while (*s && strchr(" \t\r\n,", *s)) s++;
    if (!*s) break;
    if (!SKParseReal(s, &v, &end) || (*end && !strchr(" \t\r\n,", *end))) {
      ok = PETSC_FALSE;
      break;
    }
    if (count == cap) {
      overflow = PETSC_TRUE;
      break;
    }
    values[count++] = v;
    s               = end;
  }
  xmlFree(raw);
  if (!ok) PetscCall(SKInputError(input, node, "attribute '%s' must be a list of finite real numbers", attr));
  if (overflow) PetscCall(SKInputError(input, node, "attribute '%s' has more than %" PetscInt_FMT " values", attr, cap));
  *n = count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputRequireFile(SKInput input, SKNode node, const char attr[], char path[], size_t len)
{
  char rel[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(SKInputRequireString(input, node, attr, rel, sizeof(rel)));
  if (rel[0] == '/')
    PetscCall(PetscStrncpy(path, rel, len));
  else
    PetscCall(PetscSNPrintf(path, len, "%s/%s", input->dir, rel));
  if (access(path, R_OK) != 0)
    PetscCall(SKInputError(input, node, "file '%s' (resolved to '%s') cannot be read: %s", rel, path, strerror(errno)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Formats the message and raises the input error "FILE:LINE: message". */
static PetscErrorCode SKFileErrorV(MPI_Comm comm, const char file[], int line, const char fmt[], va_list ap)
{
  char msg[1024];
  size_t used;

  PetscFunctionBegin;
  PetscCall(PetscVSNPrintf(msg, sizeof(msg), fmt, &used, ap));
  SETERRQ(comm, SK_ERR_INPUT, "%s:%d: %s", file, line, msg);
}

PetscErrorCode SKFileError(MPI_Comm comm, const char file[], int line, const char fmt[], ...)
{
  va_list ap;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  va_start(ap, fmt);
  ierr = SKFileErrorV(comm, file, line, fmt, ap);
  va_end(ap);
  PetscFunctionReturn(ierr);
}

PetscErrorCode SKInputError(SKInput input, SKNode node, const char fmt[], ...)
{
  va_list ap;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  va_start(ap, fmt);
  ierr = SKFileErrorV(input->comm, input->filename, node ? SKNodeLine(node) : 1, fmt, ap);
  va_end(ap);
  PetscFunctionReturn(ierr);
}

PetscErrorCode SKInputCheckPositive(SKInput input, SKNode node, const char attr[], PetscReal value)
{
  PetscFunctionBegin;
  PetscCall(
      SKInputCheck(input, node, value > 0, "attribute '%s' of <%s> must be positive (got %g)", attr, SKNodeName(node), (double)value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputCheckNonNegative(SKInput input, SKNode node, const char attr[], PetscReal value)
{
  PetscFunctionBegin;
  PetscCall(
      SKInputCheck(input, node, value >= 0, "attribute '%s' of <%s> must not be negative (got %g)", attr, SKNodeName(node), (double)value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The words of an <options> text as PETSc's PetscOptionsInsertString() reads them (separated by blanks, a double-quoted
   word may hold blanks): one that is neither an option name nor the value right after one is refused, since PETSc
   would drop it and the run use the default. */
static PetscErrorCode CheckOptionWords(SKInput input, SKNode opt, const char text[])
{
  char *copy, *p;
  const char **words;
  PetscInt n = 0, stray;
  size_t len;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(text, &len));
  PetscCall(PetscStrallocpy(text, &copy));
  PetscCall(PetscMalloc1(len / 2 + 1, &words));
  for (p = copy; *p;) {
    while (*p && isspace((unsigned char)*p)) p++;
    if (!*p) break;
    if (*p == '"') {
      words[n++] = ++p;
      while (*p && *p != '"') p++;
    } else {
      words[n++] = p;
      while (*p && !isspace((unsigned char)*p)) p++;
    }
    if (*p) *p++ = 0;
  }
  stray = SKOptionsStrayWord(n, words);
  ierr  = SKInputCheck(input, opt, stray < 0,
                       "'%s' in <options> is neither an option (-name) nor the value of the option before it; options are written "
                        "-name [value]",
                      stray >= 0 ? words[stray] : "");
  PetscCall(PetscFree(words));
  PetscCall(PetscFree(copy));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputInsertOptions(SKInput input)
{
  SKNode root, opt;
  char *cmdline = NULL, *text = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SKInputGetRoot(input, &root));
  PetscCall(SKNodeGetChild(root, "options", &opt));
  if (!opt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(4096, &text));
  PetscCall(SKInputGetText_Node(input, opt, text, 4096));
  ierr = CheckOptionWords(input, opt, text);
  if (ierr) (void)PetscFree(text);
  PetscCall(ierr);
  /* The database now holds the command line (and PETSC_OPTIONS); insert the file's options, then the
     command line again on top so that it wins. */
  PetscCall(PetscOptionsGetAll(NULL, &cmdline));
  PetscCall(PetscOptionsInsertString(NULL, text));
  PetscCall(PetscOptionsInsertString(NULL, cmdline));
  PetscCall(PetscFree(cmdline));
  PetscCall(PetscFree(text));
  /* PetscInitialize() starts the event log only when -log_view is on the command line; a -log_view from the file
     would otherwise make PetscFinalize() fail ("Must use -log_view or PetscLogDefaultBegin()"). */
  {
    PetscBool log_view;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-log_view", &log_view));
    if (log_view) PetscCall(PetscLogDefaultBegin());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKInputGetDigest(SKInput input, unsigned long long *digest)
{
  xmlChar *c14n = NULL;
  int n;

  PetscFunctionBegin;
  n = xmlC14NDocDumpMemory(input->doc, NULL, XML_C14N_1_0, NULL, 0, &c14n);
  PetscCheck(n >= 0 && c14n, input->comm, PETSC_ERR_LIB, "libxml2 could not canonicalise %s", input->filename);
  *digest = SKHashBytes(SK_FNV_SEED, c14n, (size_t)n);
  xmlFree(c14n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Options that steer output, diagnostics or the program, not the results (see SKOptionsGetRunDigest()). */
static PetscBool SKOptionIsRunNeutral(const char name[])
{
  static const char *const names[]    = {"o",
                                         "force",
                                         "restart",
                                         "quiet",
                                         "progress_interval",
                                         "help",
                                         "sk_traceback",
                                         "sk_allow_unused",
                                         "options_left",
                                         "explicit_kill_at_step",
                                         "info",
                                         "memory_view",
                                         "options_view",
                                         "no_signal_handler"};
  static const char *const prefixes[] = {"log_", "malloc"};

  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (!strcmp(name, names[i])) return PETSC_TRUE;
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
    if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return PETSC_TRUE;
  return PETSC_FALSE;
}

static int SKCompareStrings(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

PetscErrorCode SKOptionsGetRunDigest(char **canonical, unsigned long long *digest)
{
  char *all = NULL, *tok, *save = NULL, **pairs = NULL;
  size_t len = 1;
  PetscInt n = 0, cap = 16;

  PetscFunctionBegin;
  /* PetscOptionsGetAll() gives "-name [value] -name [value] ..."; a token that starts with '-' and a letter is a name */
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscMalloc1(cap, &pairs));
  for (tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    const PetscBool is_name = (PetscBool)(tok[0] == '-' && isalpha((unsigned char)tok[1]));
    if (is_name) {
      if (n == cap) {
        cap *= 2;
        PetscCall(PetscRealloc(sizeof(char *) * cap, &pairs));
      }
      pairs[n++] = tok;
    } else if (n) {
      tok[-1] = ' '; /* join the value to its name */
    }
  }
  /* drop the run-neutral names */
  {
    PetscInt k = 0;
    for (PetscInt i = 0; i < n; i++) {
      char name[256];
      size_t l = strcspn(pairs[i] + 1, " ");
      PetscCall(PetscStrncpy(name, pairs[i] + 1, PetscMin(l + 1, sizeof(name))));
      if (!SKOptionIsRunNeutral(name)) pairs[k++] = pairs[i];
    }
    n = k;
  }
  qsort(pairs, (size_t)n, sizeof(char *), SKCompareStrings);
  for (PetscInt i = 0; i < n; i++) len += strlen(pairs[i]) + 1;
  PetscCall(PetscMalloc1(len, canonical));
  /* joined by hand: PETSc 3.18's PetscStrlcat() limits by the length of the appended string, not of the buffer */
  len = 0;
  for (PetscInt i = 0; i < n; i++) {
    const size_t l = strlen(pairs[i]);
    if (i) (*canonical)[len++] = ' ';
    memcpy(*canonical + len, pairs[i], l);
    len += l;
  }
  (*canonical)[len] = 0;
  *digest           = SKHashBytes(SK_FNV_SEED, *canonical, strlen(*canonical));
  PetscCall(PetscFree(pairs));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}
