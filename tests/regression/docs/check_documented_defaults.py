"""Defaults stated in prose agree with the schemas (the XSD `default=` of an attribute is what the program uses; the
schema test of each solver pins that). Three places state defaults in words:

  1. the schema's own xs:documentation of an attribute that has a `default=` ("implicit (default)", "default 0.9");
  2. the rows of docs/input.md (`| ... | `attr` | unit | ... (default X) ... |`, "`X` (default)"), in the section of
     that schema's root element;
  3. comments of the inputs in inputs/ ("the implicit damping (the default)", 'damping="explicit" (the default)'),
     and the critical step an input's comment states ("critical step 1.74e-4 s"), against the one the program prints
     for that input (run to its first steps only: the critical step does not depend on the end time); a stated value
     has three significant digits, so it must agree to 1 % (rounding is 0.5 %).

Fails listing each disagreement with its file. usage: check_documented_defaults.py [PROGRAM]"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from input_sections import input_sections

XS = "{http://www.w3.org/2001/XMLSchema}"
src = os.environ.get("SK_SOURCE_DIR", ".")
NUM = r"[-+]?[0-9.]+(?:e[-+]?[0-9]+)?"


def same(a, b):
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


def stated_defaults(text):
    """Values TEXT states as a default: "X (default)", "`X` (default: ...", "(default X)", "(default: X, ..."."""
    out = [m.group(1) for m in re.finditer(r"`?([\w.+-]+)`? \(default[):]", text)]
    out += [m.group(1) for m in re.finditer(r"\([Dd]efault:? `?(" + NUM + r"|[a-z][\w-]*)`?[),;:]", text)]
    return out


def main():
    prog = sys.argv[1] if len(sys.argv) > 1 else None
    fails = []
    defaults = {}  # schema file -> {attribute: set of defaults}
    roots = {}
    for path in sorted(glob.glob(os.path.join(src, "schema", "*.xsd"))):
        name = os.path.basename(path)
        tree = ET.parse(path)
        roots[name] = [e.get("name") for e in tree.getroot().findall(XS + "element")]
        d = defaults.setdefault(name, {})
        for a in tree.getroot().iter(XS + "attribute"):
            if a.get("default") is None:
                continue
            d.setdefault(a.get("name"), set()).add(a.get("default"))
            doc = " ".join(x.text or "" for x in a.iter(XS + "documentation"))
            for v in stated_defaults(doc):
                if not same(v, a.get("default")):
                    fails.append(f"schema/{name}: attribute {a.get('name')} has default=\"{a.get('default')}\" but its documentation says default {v}")
    every = {}
    for d in defaults.values():
        for k, v in d.items():
            every.setdefault(k, set()).update(v)

    # 2. docs/input.md: rows of the section of each schema's root
    sections = input_sections(src)
    for name, d in defaults.items():
        rows = [r for h, body in sections.items() for r in body if any(f"`<{root}>`" in h for root in roots[name])]
        for row in rows:
            cells = [c.strip() for c in row.split("|")]
            if len(cells) < 5:
                continue
            m = re.fullmatch(r"`(\w+)`", cells[2])
            if not m or m.group(1) not in d:
                continue
            for v in stated_defaults(" ".join(cells[3:])):
                if not any(same(v, x) for x in d[m.group(1)]):
                    fails.append(f"docs/input.md: `{m.group(1)}` documented with default {v}, schema/{name} says {sorted(d[m.group(1)])}")

    # 3. comments of the inputs
    for path in sorted(glob.glob(os.path.join(src, "inputs", "*", "*.xml"))):
        text = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, src)
        comments = " ".join(re.sub(r"\s+", " ", c) for c in re.findall(r"<!--(.*?)-->", text, re.S))
        claims = [(m.group(2), m.group(1)) for m in re.finditer(r"\bthe (\w+) (\w+) \(the default\)", comments)]
        claims += [(m.group(1), m.group(2)) for m in re.finditer(r'(\w+)="([^"]+)" \(the default\)', comments)]
        for attr, value in claims:
            if attr in every and not any(same(value, x) for x in every[attr]):
                fails.append(f"{rel}: a comment calls {attr}=\"{value}\" the default; the schema says {sorted(every[attr])}")
        stated = [float(m.group(1)) for m in re.finditer(r"critical step (" + NUM + r") s", comments)]
        if stated and prog:
            printed = run_critical_step(prog, text)
            for v in stated:
                if printed is None or abs(v - printed) > 0.01 * printed:
                    fails.append(f"{rel}: a comment states the critical step {v:g} s; the program prints {printed} s")
            print(f"{rel}: stated critical step {stated}, printed {printed}")
    for f in fails:
        print("FAIL:", f)
    print("documented defaults agree with the schemas" if not fails else f"{len(fails)} disagreements")
    return 1 if fails else 0


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


if __name__ == "__main__":
    sys.exit(main())
