/* stickslip core: options read with their valid values (include/stickslip/core.h, SKOptionsReal()). */
#include <stickslip/core.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <strings.h>
#include <stdarg.h>

/* The text of OPT in the block's database (*found false when absent). An option given without a value has "". */
static PetscErrorCode OptionText(PetscOptionItems *items, const char opt[], char text[], size_t len, PetscBool *found)
{
  PetscFunctionBegin;
  text[0] = 0;
  PetscCall(PetscOptionsGetString(items->options, items->prefix, opt, text, len, found));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keeps the first bad option of a block; the block goes on (an error inside PetscOptionsBegin/End would leak the
   block's strings) and SKOptionsCheck() raises it after PetscOptionsEnd(). */
static void Record(SKOptionsChecks *checks, const char format[], ...)
{
  va_list ap;

  if (checks->bad) return;
  checks->bad = PETSC_TRUE;
  va_start(ap, format);
  (void)vsnprintf(checks->message, sizeof(checks->message), format, ap);
  va_end(ap);
}

PetscErrorCode SKOptionsCheck(MPI_Comm comm, const SKOptionsChecks *checks)
{
  PetscFunctionBegin;
  PetscCheck(!checks->bad, comm, SK_ERR_INPUT, "%s", checks->message);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An interval of the real line written as at the call, "(0, inf)", "[0, 1)", "[-1, inf)": its bounds and whether each
   belongs to it. A malformed interval is a programming error. */
typedef struct {
  double lo, hi;
  PetscBool lo_in, hi_in;
} Interval;

static PetscErrorCode ParseInterval(const char range[], Interval *r)
{
  const char *s = range;
  char *end;

  PetscFunctionBegin;
  PetscCheck(*s == '(' || *s == '[', PETSC_COMM_SELF, PETSC_ERR_PLIB, "range \"%s\": starts with ( or [", range);
  r->lo_in = *s++ == '[' ? PETSC_TRUE : PETSC_FALSE;
  r->lo    = strtod(s, &end);
  PetscCheck(end != s && *end == ',', PETSC_COMM_SELF, PETSC_ERR_PLIB, "range \"%s\": no lower bound", range);
  s = end + 1;
  while (*s == ' ') s++;
  r->hi = strtod(s, &end);
  PetscCheck(end != s && (*end == ')' || *end == ']') && !end[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "range \"%s\": no upper bound", range);
  r->hi_in = *end == ']' ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool InInterval(double x, const Interval *r)
{
  if (!isfinite(x)) return PETSC_FALSE;
  if (x < r->lo || (x == r->lo && !r->lo_in)) return PETSC_FALSE;
  if (x > r->hi || (x == r->hi && !r->hi_in)) return PETSC_FALSE;
  return PETSC_TRUE;
}

PetscErrorCode SKOptionsReal_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[],
                                     const char man[], PetscReal current, PetscReal *value, PetscBool *set, const char range[])
{
  char str[256], help[512], *end;
  PetscBool found;
  Interval r;
  double x;

  PetscFunctionBegin;
  PetscCall(ParseInterval(range, &r));
  PetscCall(OptionText(items, opt, str, sizeof(str), &found));
  if (found) {
    errno = 0;
    x     = strtod(str, &end);
    if (!str[0] || end == str || *end || errno == ERANGE) {
      Record(checks, "option %s %s: not a number; it takes a real number in %s", opt, str[0] ? str : "(no value)", range);
      if (set) *set = PETSC_FALSE; /* not read: the caller's flag must not be left unset */
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (!InInterval(x, &r)) {
      Record(checks, "option %s %s: outside %s, the values it takes", opt, str, range);
      if (set) *set = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PetscSNPrintf(help, sizeof(help), "%s; in %s", text, range)); /* -help shows the range */
  PetscCall(PetscOptionsReal_Private(items, opt, help, man, current, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOptionsInt_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[], const char man[],
                                    PetscInt current, PetscInt *value, PetscBool *set, const char range[])
{
  char str[256], help[512], *end;
  PetscBool found;
  Interval r;
  long long x;

  PetscFunctionBegin;
  PetscCall(ParseInterval(range, &r));
  PetscCall(OptionText(items, opt, str, sizeof(str), &found));
  if (found) {
    errno = 0;
    x     = strtoll(str, &end, 10);
    if (!str[0] || end == str || *end || errno == ERANGE || x < PETSC_MIN_INT || x > PETSC_MAX_INT) {
      Record(checks, "option %s %s: not an integer; it takes an integer in %s", opt, str[0] ? str : "(no value)", range);
      if (set) *set = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (!InInterval((double)x, &r)) {
      Record(checks, "option %s %s: outside %s, the values it takes", opt, str, range);
      if (set) *set = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PetscSNPrintf(help, sizeof(help), "%s; in %s", text, range));
  PetscCall(PetscOptionsInt_Private(items, opt, help, man, current, value, set, PETSC_MIN_INT, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The words PETSc reads as a logical value (PetscOptionsStringToBool(), any case); no value means true. */
static PetscBool IsBoolWord(const char s[])
{
  static const char *const words[] = {"", "1", "0", "true", "false", "yes", "no", "on", "off"};

  for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
    if (!strcasecmp(s, words[i])) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode SKOptionsBool_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[],
                                     const char man[], PetscBool current, PetscBool *value, PetscBool *set)
{
  char str[256];
  PetscBool found;

  PetscFunctionBegin;
  PetscCall(OptionText(items, opt, str, sizeof(str), &found));
  if (found && !IsBoolWord(str)) {
    Record(checks, "option %s %s: not a logical value; it takes true or false (also yes/no, on/off, 1/0; no value means true)", opt, str);
    if (set) *set = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsBool_Private(items, opt, text, man, current, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOptionsEnum_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[],
                                     const char man[], const char *const *list, PetscEnum current, PetscEnum *value, PetscBool *set)
{
  char str[256], known[256] = "";
  PetscBool found, ok       = PETSC_FALSE;
  PetscInt n = 0;

  PetscFunctionBegin;
  /* a PETSc enum list: the names, then the enum's name, its prefix and NULL */
  while (list[n]) n++;
  PetscCheck(n >= 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: not a PETSc enum list", opt);
  PetscCall(OptionText(items, opt, str, sizeof(str), &found));
  if (found) {
    for (PetscInt i = 0; i < n - 2; i++) {
      if (!strcasecmp(str, list[i])) ok = PETSC_TRUE;
      PetscCall(PetscStrlcat(known, i ? ", " : "", sizeof(known)));
      PetscCall(PetscStrlcat(known, list[i], sizeof(known)));
    }
    if (!ok) {
      Record(checks, "option %s %s: unknown; it takes one of %s", opt, str[0] ? str : "(no value)", known);
      if (set) *set = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PetscOptionsEnum_Private(items, opt, text, man, list, current, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's reading of a word: an option name starts with '-' and is not a negative number ("-1", "-.5", "-1e-3" are
   values). */
static PetscBool IsOptionName(const char w[])
{
  return w[0] == '-' && w[1] && !isdigit((unsigned char)w[1]) && w[1] != '.' ? PETSC_TRUE : PETSC_FALSE;
}

PetscInt SKOptionsStrayWord(PetscInt n, const char *const words[])
{
  PetscBool after_name = PETSC_FALSE;

  for (PetscInt i = 0; i < n; i++) {
    if (IsOptionName(words[i]))
      after_name = PETSC_TRUE;
    else if (after_name)
      after_name = PETSC_FALSE; /* the value of the option before it */
    else
      return i;
  }
  return -1;
}
