"""A variant of an input with some attributes changed, written and run: for studies of one input under other settings
(the generated tables of postproc/studies.py run it as `{python} -m postproc.variant ...`).

    python3 -m postproc.variant PROGRAM INPUT OUTDIR PATH@ATTR=VALUE ... [-- PROGRAM OPTIONS]

writes OUTDIR/variant.xml, INPUT with attribute ATTR of the first element at PATH (an ElementTree path below the root
element, e.g. `contact`, `contact/friction`, `time`,
`displacement[@component="y"]/function`) set to VALUE, and runs `PROGRAM run OUTDIR/variant.xml -o OUTDIR
-force -quiet` with the options after `--`, if any. An element or attribute that is not there is an error (a misspelt change must not run the input as it
is). Files the input names by relative paths (meshes) are resolved against the input's own folder."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

FILE_ATTRS = ("file",)  # attributes that hold a path relative to the input


def write(base, out, changes):
    """OUT/variant.xml from the input BASE with CHANGES [PATH@ATTR=VALUE]; returns its path."""
    tree = ET.parse(base)
    root = tree.getroot()
    for c in changes:
        m = re.match(r"^(.*)@([A-Za-z_][\w.:-]*)=(.*)$", c)  # the last @ATTR= (PATH may hold predicates [@a='v'])
        if not m:
            sys.exit(f"postproc.variant: change '{c}' is not PATH@ATTR=VALUE")
        path, attr, value = m.groups()
        el = root.find(path) if path else root
        if el is None:
            sys.exit(f"postproc.variant: {base} has no element <{path}>")
        if el.get(attr) is None:
            sys.exit(f"postproc.variant: <{path}> of {base} has no attribute {attr}")
        el.set(attr, value)
    here = os.path.dirname(os.path.abspath(base))
    for el in root.iter():
        for a in FILE_ATTRS:
            v = el.get(a)
            if v and not os.path.isabs(v):
                el.set(a, os.path.join(here, v))
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "variant.xml")
    tree.write(path, xml_declaration=True, encoding="UTF-8")
    return path


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    program, base, out, rest = argv[0], argv[1], argv[2], argv[3:]
    changes, options = (rest[:rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
    inp = write(base, out, changes)
    subprocess.run([program, "run", inp, "-o", out, "-force", "-quiet", *options], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main(sys.argv[1:])
