"""`stickslip run INPUT -help` lists every option the solver of INPUT reads (docs/input.md, "Options").
Before: the overrides of <bowedstring>, <bars2020> and the output intervals of <explicit> were each read in an options
block of their own, all with the same title; PETSc prints a (prefix, title) pair once per process and skips every later
block with it, so -help showed only the first of them (-bowedstring_damping, -bars2020_modes,
-explicit_field_interval); -explicit_critical_step, -explicit_setup_view and -explicit_unsafe_safety were read outside
any block and never listed.
Checked, for a bowedstring, a bars2020, an explicit, a rodpair and a campaign input: exit 0, nothing written, and an
option line "-name <value ...>" (current value and default) for each option named below and for every option of
the solver's prefix that the sources name as a string literal ("-bowedstring_..." etc. in src/), so that an option read
later without a block, or in a second block with a title already used, fails here."""
import glob
import os
import re
import sys
from functools import partial

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from tests.common.runs import stickslip  # noqa: E402

exe, src, work = program("cli_help")
cli = partial(stickslip, exe, check=False, timeout=300)

# the options of each prefix named as string literals in the sources (option names start a C string)
sources = "".join(open(f, errors="replace").read() for f in glob.glob(os.path.join(src, "src", "**", "*.c"), recursive=True))


def named(prefix):
    return set(re.findall(r'"(-' + prefix + r'_[a-z0-9_]+)', sources))


cases = [
    ("inputs/bowedstring/section5.xml", ["bowedstring"],
     ["-bowedstring_damping", "-bowedstring_modes", "-bowedstring_dt", "-bowedstring_full_rtol", "-bowedstring_model"]),
    ("inputs/bars2020/block-muN1.xml", ["bars2020"], ["-bars2020_modes", "-bars2020_dt"]),
    ("inputs/explicit/neohookean_block.xml", ["explicit"],
     ["-explicit_field_interval", "-explicit_history_interval", "-explicit_critical_step", "-explicit_setup_view",
      "-explicit_unsafe_safety", "-explicit_energy_tolerance", "-explicit_power_maxit", "-explicit_power_rtol"]),
    ("inputs/rodpair/omega1-caseA.xml", ["rodpair"], ["-rodpair_solver", "-rodpair_nodes", "-rodpair_end"]),
    ("inputs/rough3d/campaign-reduced.xml", ["campaign", "explicit"], ["-campaign_groups", "-explicit_history_interval"]),
]
for rel, prefixes, must in cases:
    name = os.path.splitext(os.path.basename(rel))[0]
    out = os.path.join(work, name)
    p = cli("run", os.path.join(src, rel), "-o", out, "-help")
    check(p.returncode == 0, f"{rel} -help exits 0 ({p.returncode}: {p.stderr.strip()[:200]})")
    check(not os.path.exists(out), f"{rel} -help runs nothing")
    want = set(must)
    for prefix in prefixes:
        want |= named(prefix)
    # an option line: the name, then its current value and default in <...> (booleans: "-name: <FALSE : FALSE>")
    listed = set(re.findall(r"^\s+(-[a-z0-9_]+):? <", p.stdout, re.M))
    missing = sorted(want - listed)
    check(not missing, f"{rel} -help lists {len(want)} options with their values, missing: {missing}")
finish("check_help")
