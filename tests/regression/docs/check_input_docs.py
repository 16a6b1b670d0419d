"""docs/input.md is kept in sync with the schemas: for every schema/<name>.xsd (except common.xsd) there is a
section whose heading contains `<root>` for each global element of the schema, and every element and attribute
the schema declares appears in that section in backticks (`name`). Fails listing what is undocumented."""
import os
import re
import sys
import xml.etree.ElementTree as ET

XS = "{http://www.w3.org/2001/XMLSchema}"
src = os.environ.get("SK_SOURCE_DIR", ".")
doc = open(os.path.join(src, "docs", "input.md"), encoding="utf-8").read()

# Split the page into sections at level-3 headings.
sections = {}
current = None
for line in doc.splitlines():
    m = re.match(r"^###\s+(.*)$", line)
    if m:
        current = m.group(1)
        sections[current] = line + "\n"
    elif current:
        sections[current] += line + "\n"

missing = []
for fname in sorted(os.listdir(os.path.join(src, "schema"))):
    if not fname.endswith(".xsd") or fname == "common.xsd":
        continue
    tree = ET.parse(os.path.join(src, "schema", fname))
    roots = [e.get("name") for e in tree.getroot().findall(XS + "element")]
    names = set()
    for e in tree.getroot().iter():
        if e.tag in (XS + "element", XS + "attribute") and e.get("name"):
            names.add(e.get("name"))
    for root in roots:
        body = [b for h, b in sections.items() if f"`<{root}>`" in h]
        if not body:
            missing.append(f"{fname}: no '### ... `<{root}>`' section in docs/input.md")
            continue
        text = "".join(body)
        for n in sorted(names):
            if f"`{n}`" not in text and f"`<{n}>`" not in text and f"<{n}" not in text:
                missing.append(f"{fname}: `{n}` is not documented in the `<{root}>` section of docs/input.md")

for m in missing:
    print(m)
print("docs/input.md covers every schema" if not missing else f"{len(missing)} undocumented names")
sys.exit(1 if missing else 0)
