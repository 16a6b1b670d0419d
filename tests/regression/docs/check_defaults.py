"""Documented defaults equal the schema's, so that a changed default cannot leave a stale statement behind. The XSD
`default=` of an attribute is what the program uses (the schema test of each solver pins that); everything else that
states a default in words is checked against it:

1. the schema's own xs:documentation of an attribute that has a `default=` ("implicit (default)", "default 0.9");
2. docs/input.md: every "`attr` ... (default X)" or "`X` (default)" of a section about `<root>` against the default of
   that attribute in the root's schema (default="..." or "Default X." in its documentation), where the schema has one;
   the friction table against common.xsd's friction attributes;
3. common.xsd's friction defaults against SKFrictionParamsSetDefaults(): its header comment (contact.h) and its body
   (src/contact/friction.c), which is what a run uses when the attribute is absent;
4. header comments of the form "<element attribute> defaults to X" (include/stickslip/*.h);
5. comments of the inputs in inputs/ ("the implicit damping (the default)", 'damping="explicit" (the default)'), and
   the critical step an input's comment states ("critical step 1.74e-4 s") against the one the program prints for
   that input (run over its first steps only: the critical step does not depend on the end time); a stated value has
   three significant digits, so it must agree to 1 % (rounding is 0.5 %). Needs PROGRAM; skipped without it.
Numbers compare by value (sqrt(1e5) is evaluated), words exactly. Fails listing every disagreement; prints how many
pairs it compared (a check that compares nothing would pass silently: it also fails below a minimum count).
Mutations tried: `safety` documented "(default 0.8)" in docs/input.md, and sigma2 = 0.5 in SKFrictionParamsSetDefaults():
both fail; it found contact.h saying <contact damping> defaulted to implicit (the schema says explicit), now fixed.
usage: check_defaults.py [PROGRAM]"""
import glob
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


XS = "{http://www.w3.org/2001/XMLSchema}"
src = os.environ.get("SK_SOURCE_DIR", ".")
bad, compared = [], []
# a default value: a word, number or call like sqrt(1e5), possibly in backticks
NUM = r"[-+]?[0-9.]+(?:e[-+]?[0-9]+)?"
VALUE = r"`?[^\s,;:()`]+(?:\([^)]*\))?`?"
# "(default the set's name)", "(default every step)": prose, not a value
PROSE = {"the", "every", "that", "a", "an", "its", "eq.", "all below"}


def input_sections(src):
    """{heading of a '### ' section: its lines} of SRC/docs/input.md, in file order."""
    sections, current = {}, None
    with open(os.path.join(src, "docs", "input.md"), encoding="utf-8") as f:
        for line in f.read().splitlines():
            m = re.match(r"^###\s+(.*)$", line)
            if m:
                current = m.group(1)
                sections[current] = []
            elif current is not None:
                sections[current].append(line)
    return sections


def value(text):
    """A default as a float when it is a number or an expression of one (sqrt(1e5), zero), else the bare word."""
    t = text.strip().strip("`").strip()
    if t == "zero":
        return 0.0
    try:
        return float(eval(t, {"__builtins__": {}}, {"sqrt": math.sqrt}))
    except Exception:
        return t


def run_critical_step(prog, text):
    """The critical step (s) the program prints for the input TEXT, run over 3 of its steps only."""
    m = re.search(r'<time ([^>]*)/>', text)
    dt = re.search(r'dt="([^"]+)"', m.group(1))
    end = 3 * float(dt.group(1)) if dt else 1e-9
    short = text.replace(m.group(0), re.sub(r'end="[^"]+"', f'end="{end!r}"', m.group(0)))
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "short.xml")
        with open(inp, "w", encoding="utf-8") as f:
            f.write(short)
        r = subprocess.run([prog, "run", inp, "-o", os.path.join(tmp, "o"), "-quiet"], capture_output=True, text=True)
    m = re.search(r"critical dt\s+(" + NUM + r") s", r.stdout)
    return float(m.group(1)) if m else None


def same(a, b):
    a, b = value(a), value(b)
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    return a == b


def stated_defaults(text):
    """Values TEXT states as a default: "X (default)", "`X` (default: ...", "(default X)", "(default: X, ..."."""
    out = [m.group(1) for m in re.finditer(r"`?([\w.+-]+)`? \(default[):]", text)]
    out += [m.group(1) for m in re.finditer(r"\([Dd]efault:? `?(" + NUM + r"|[a-z][\w-]*)`?[),;:]", text)]
    return out


def schema_defaults(path):
    """{attribute name: {default values}} of one schema file (attributes of the same name on several elements may differ)."""
    out = {}
    for a in ET.parse(path).getroot().iter(XS + "attribute"):
        name = a.get("name")
        if not name:
            continue
        d = a.get("default")
        if d is None:
            doc = "".join(x.text or "" for x in a.iter(XS + "documentation"))
            m = re.search(r"\bDefault ([^\s,;]+?)[.,;]?(\s|$)", doc)
            d = m.group(1) if m else None
        if d is not None:
            out.setdefault(name, set()).add(d)
    return out


def documented(text):
    """(attribute, default) pairs stated in one docs/input.md section."""
    pairs = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        row_attr = None
        for c in cells[:2]:
            m = re.fullmatch(r"`(\w+)`", c)
            if m:
                row_attr = m.group(1)
        if row_attr:
            # a row about one attribute: "`X` (default)" or "(default X)" in its text
            text_cell = cells[-1]
            m = re.search(r"`([\w.-]+)` \(default[):]", text_cell) or re.search(r"\(default:? (%s)" % VALUE, text_cell)
            if m:
                pairs.append((row_attr, m.group(1)))
        else:
            # several attributes in one cell: "`attr` words (..., default X)", no other name before its parenthesis
            for m in re.finditer(r"`(\w+)`[^`|(]*\(([^()`|]*?)\bdefault:? (%s)" % VALUE, line):
                pairs.append((m.group(1), m.group(3)))
    return [(a, d) for a, d in pairs if d.strip("`") not in PROSE]


sections = {head: "".join(line + "\n" for line in lines) for head, lines in input_sections(src).items()}

schemas = {}
for fname in sorted(os.listdir(os.path.join(src, "schema"))):
    if fname.endswith(".xsd"):
        path = os.path.join(src, "schema", fname)
        roots = [e.get("name") for e in ET.parse(path).getroot().findall(XS + "element")]
        schemas[fname] = (roots, schema_defaults(path))
common = schemas["common.xsd"][1]

# 1. each schema's documentation of an attribute against its default=
for fname in schemas:
    for at in ET.parse(os.path.join(src, "schema", fname)).getroot().iter(XS + "attribute"):
        if at.get("default") is None:
            continue
        doc = " ".join(x.text or "" for x in at.iter(XS + "documentation"))
        for v in stated_defaults(doc):
            compared.append((fname, at.get("name")))
            if not same(v, at.get("default")):
                bad.append(f"schema/{fname}: attribute {at.get('name')} has default=\"{at.get('default')}\" but its documentation says default {v}")

# 2. docs/input.md against the schemas
for head, body in sections.items():
    files = [f for f, (roots, _) in schemas.items() if any(f"`<{r}>`" in head for r in roots)]
    defaults = {}
    for f in files:
        for k, v in schemas[f][1].items():
            defaults.setdefault(k, set()).update(v)
    if head.startswith("Friction laws"):
        files, defaults = ["common.xsd"], common
    for attr, d in documented(body):
        if attr not in defaults or value(d) in ("`v_s`", "v_s"):
            continue
        compared.append((head, attr))
        if not any(same(d, s) for s in defaults[attr]):
            bad.append(f"docs/input.md, '{head}': `{attr}` default {d}, but {'/'.join(files)} says {' or '.join(sorted(defaults[attr]))}")

# 3. the friction defaults in contact.h's comment and in SKFrictionParamsSetDefaults() against common.xsd
header = open(os.path.join(src, "include", "stickslip", "contact.h"), encoding="utf-8").read()
m = re.search(r"/\* Default parameters:(.*?)\*/\s*PETSC_EXTERN PetscErrorCode SKFrictionParamsSetDefaults", header, re.S)
comment = dict(re.findall(r"\b(\w+) = ([^\s,;()]+(?:\([^)]*\))?)", m.group(1))) if m else {}
code = open(os.path.join(src, "src", "contact", "friction.c"), encoding="utf-8").read()
m2 = re.search(r"PetscErrorCode SKFrictionParamsSetDefaults\(SKFrictionParams \*p\)\s*\{(.*?)\n\}", code, re.S)
body = dict(re.findall(r"p->(\w+)\s*=\s*([^;]+);", m2.group(1))) if m2 else {}
body = {k: v.replace("PetscSqrtReal", "sqrt") for k, v in body.items()}
if not comment or not body:
    bad.append("could not read SKFrictionParamsSetDefaults()'s comment (contact.h) or body (friction.c)")
for attr, ds in common.items():
    if attr == "stick_velocity":
        continue  # 0 in the code means "v_s" (both say so)
    for where, table in (("contact.h comment of SKFrictionParamsSetDefaults()", comment), ("SKFrictionParamsSetDefaults() in friction.c", body)):
        if attr not in table:
            bad.append(f"{where}: no default for {attr} (common.xsd: {' or '.join(ds)})")
            continue
        compared.append((where, attr))
        if not any(same(table[attr], d) for d in ds):
            bad.append(f"{where}: {attr} = {table[attr]}, but common.xsd says {' or '.join(ds)}")

# 4. "<element attribute> defaults to X" in the public headers
for h in sorted(os.listdir(os.path.join(src, "include", "stickslip"))):
    text = re.sub(r"\s+", " ", open(os.path.join(src, "include", "stickslip", h), encoding="utf-8").read())
    for el, attr, d in re.findall(r"<(\w+) (\w+)> defaults to (\w+)", text):
        ds = set().union(*[s[1].get(attr, set()) for s in schemas.values()])
        compared.append((h, attr))
        if not any(same(d, s) for s in ds):
            bad.append(f"include/stickslip/{h}: <{el} {attr}> defaults to {d}, but the schemas say {' or '.join(sorted(ds)) or 'nothing'}")

# 5. comments of the inputs: defaults named in words, and stated critical steps against the program's
every = {}
for _, (_, d) in schemas.items():
    for k, v in d.items():
        every.setdefault(k, set()).update(v)
prog = sys.argv[1] if len(sys.argv) > 1 else None
for path in sorted(glob.glob(os.path.join(src, "inputs", "*", "*.xml"))):
    text = open(path, encoding="utf-8").read()
    rel = os.path.relpath(path, src)
    comments = " ".join(re.sub(r"\s+", " ", c) for c in re.findall(r"<!--(.*?)-->", text, re.S))
    claims = [(m.group(2), m.group(1)) for m in re.finditer(r"\bthe (\w+) (\w+) \(the default\)", comments)]
    claims += [(m.group(1), m.group(2)) for m in re.finditer(r'(\w+)="([^"]+)" \(the default\)', comments)]
    for attr, v in claims:
        if attr in every:
            compared.append((rel, attr))
            if not any(same(v, x) for x in every[attr]):
                bad.append(f"{rel}: a comment calls {attr}=\"{v}\" the default; the schema says {sorted(every[attr])}")
    stated = [float(m.group(1)) for m in re.finditer(r"critical step (" + NUM + r") s", comments)]
    if stated and prog:
        printed = run_critical_step(prog, text)
        for v in stated:
            compared.append((rel, "critical step"))
            if printed is None or abs(v - printed) > 0.01 * printed:
                bad.append(f"{rel}: a comment states the critical step {v:g} s; the program prints {printed} s")
        print(f"{rel}: stated critical step {stated}, printed {printed}")

for b in bad:
    print("FAIL:", b)
print(f"{len(compared)} documented defaults compared with the schemas")
# the pages document about 50 defaults today; far fewer means the parsing broke, not that the docs agree
if len(compared) < 40:
    bad.append(f"only {len(compared)} defaults found: the check no longer reads the docs")
    print("FAIL:", bad[-1])
sys.exit(1 if bad else 0)
