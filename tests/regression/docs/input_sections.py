"""The sections of docs/input.md, shared by the checks of documented defaults (check_defaults.py,
check_documented_defaults.py)."""
import os
import re


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
