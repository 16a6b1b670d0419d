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

/* Keeps the first bad option of a block and marks the option as not read (SET false: a caller may read its flag
   before SKOptionsCheck()); the block goes on (an error inside PetscOptionsBegin/End would leak the block's strings)
   and SKOptionsCheck() raises it after PetscOptionsEnd(). */
static void Refuse(SKOptionsChecks *checks, PetscBool *set, const char format[], ...)
{
  va_list ap;

  if (set) *set = PETSC_FALSE;
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

/* The text of a numeric option against RANGE (INTEGER: a PetscInt); *ok false, and the problem kept, when it is given
   and does not parse or lies outside. */
static PetscErrorCode CheckNumber(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char range[], PetscBool integer,
                                  PetscBool *set, PetscBool *ok)
{
  char str[256], *end;
  PetscBool found;
  Interval r;
  double x;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(ParseInterval(range, &r));
  PetscCall(OptionText(items, opt, str, sizeof(str), &found));
  if (!found) PetscFunctionReturn(PETSC_SUCCESS);
  errno = 0;
  if (integer) {
    const long long k = strtoll(str, &end, 10);
    x                 = k < PETSC_MIN_INT || k > PETSC_MAX_INT ? NAN : (double)k;
  } else
    x = strtod(str, &end);
  if (!str[0] || end == str || *end || errno == ERANGE || (integer && isnan(x))) {
    Refuse(checks, set, "option %s %s: not %s; it takes %s in %s", opt, str[0] ? str : "(no value)", integer ? "an integer" : "a number",
           integer ? "an integer" : "a real number", range);
    *ok = PETSC_FALSE;
  } else if (!InInterval(x, &r)) {
    Refuse(checks, set, "option %s %s: outside %s, the values it takes", opt, str, range);
    *ok = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOptionsReal_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[],
                                     const char man[], PetscReal current, PetscReal *value, PetscBool *set, const char range[])
{
  char help[512];
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(CheckNumber(items, checks, opt, range, PETSC_FALSE, set, &ok));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(help, sizeof(help), "%s; in %s", text, range)); /* -help shows the range */
  PetscCall(PetscOptionsReal_Private(items, opt, help, man, current, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SKOptionsInt_Private(PetscOptionItems *items, SKOptionsChecks *checks, const char opt[], const char text[], const char man[],
                                    PetscInt current, PetscInt *value, PetscBool *set, const char range[])
{
  char help[512];
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(CheckNumber(items, checks, opt, range, PETSC_TRUE, set, &ok));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
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
    Refuse(checks, set, "option %s %s: not a logical value; it takes true or false (also yes/no, on/off, 1/0; no value means true)", opt,
           str);
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
      Refuse(checks, set, "option %s %s: unknown; it takes one of %s", opt, str[0] ? str : "(no value)", known);
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
