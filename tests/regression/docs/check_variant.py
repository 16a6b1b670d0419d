#!/usr/bin/env python3
"""postproc.variant, the writer of an input's variants that the generated tables run: a change lands on the element
and attribute it names and nothing else changes; relative file references still find their files; a change naming an
element or attribute the input does not have is refused (a misspelt change must not run the input as it is)."""
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)
from postproc.variant import write  # noqa: E402

BASE = os.path.join(ROOT, "inputs", "crossval", "omega1-caseA-coulomb.xml")


def attrs(path):
    """{(element path index, tag): attributes} of every element of the input at PATH"""
    return {(i, el.tag): dict(el.attrib) for i, el in enumerate(ET.parse(path).getroot().iter())}


def main():
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        out = write(BASE, os.path.join(tmp, "v"), ["contact@penalty=123", "time@end=0.5"])
        a, b = attrs(BASE), attrs(out)
        changed = {k for k in a if a[k] != b.get(k)}
        root = ET.parse(out).getroot()
        if root.find("contact").get("penalty") != "123" or root.find("time").get("end") != "0.5":
            fails.append("the changes did not land")
        mesh = root.find("mesh").get("file")
        if not os.path.isfile(mesh):
            fails.append(f"the mesh file {mesh} is not found from the variant")
        tags = sorted(k[1] for k in changed)
        if tags != ["contact", "mesh", "time"]:
            fails.append(f"elements changed: {tags} (expected contact, mesh (its path), time)")
        for bad in (["contact@penalti=1"], ["kontact@penalty=1"], ["contact.penalty=1"]):
            try:
                write(BASE, os.path.join(tmp, "bad"), bad)
                fails.append(f"{bad[0]} was accepted")
            except SystemExit as e:
                print(f"{bad[0]}: refused ({e})")
    for f in fails:
        print("FAIL: " + f)
    print("ok" if not fails else "")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
