"""Option values are checked like input values (docs/input.md, "Options"): a value that does not parse or lies outside
what the option takes stops `validate` (and so `run`) with exit status 1 and one line "option -NAME VALUE: ..." naming
the values it takes, before anything is written.
Before: PETSc's parsers stopped on "abc" or "1.5" with exit status 2 (a failure during the run) and "Input string abc
has no numeric value", which does not say which option; most options took any number (-explicit_energy_tolerance -1,
-rodpair_rtol 0, -rodpair_mmm_sample nan, -campaign_groups -1 all validated, and the run then failed, blew up or
silently used something else).
Checked: every option of the explicit, rodpair, bars2020, bowedstring and campaign solvers that the sources name, and
the program's own options, with a value just outside its range (or not of its type): exit 1, one line, the message
names the option, its value and the range; a value on the edge of each range that is inside validates; a bad value in
an input's <options> element is refused the same way; values that do not parse at all (1.5 for an integer, abc, nan,
inf). The table below must cover every option the sources name (a new option without a range fails here).
Under the sanitizers a subset: one refusal of each kind and of each solver's options block.
A word that is neither an option name nor the value right after one (an option without its dash, a second value),
which PETSc drops so that the run used the default, is refused on the command line and in <options>."""
import concurrent.futures
import glob
import os
import re
import shutil
import sys
from functools import partial

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from tests.common.runs import stickslip  # noqa: E402

exe, src, work = program("cli_option_values")
cli = partial(stickslip, exe, check=False, timeout=120)

EXPLICIT = "inputs/explicit/neohookean_block.xml"
RODPAIR = "inputs/rodpair/omega1-caseA.xml"
BARS = "inputs/bars2020/block-muN1.xml"
BOW = "inputs/bowedstring/section5.xml"
CAMPAIGN = "inputs/rough3d/campaign-reduced.xml"

# option: (input, a bad value, the range or kind the message must name, a good value on the edge of the range or None)
TABLE = {
    "-explicit_energy_tolerance": (EXPLICIT, "0", "(0, inf)", None),
    "-explicit_power_maxit": (EXPLICIT, "0", "[1, inf)", "1"),
    "-explicit_power_rtol": (EXPLICIT, "1", "(0, 1)", None),
    "-explicit_unsafe_safety": (EXPLICIT, "0", "(0, inf)", None),
    "-explicit_field_interval": (EXPLICIT, "-1", "[0, inf)", "0"),
    "-explicit_history_interval": (EXPLICIT, "-1", "[0, inf)", "0"),
    "-explicit_kill_at_step": (EXPLICIT, "-2", "[-1, inf)", "-1"),
    "-explicit_critical_step": (EXPLICIT, "fast", "auto, power, bound", "bound"),
    "-explicit_energy_booking": (EXPLICIT, "none", "one of", None),
    "-explicit_setup_view": (EXPLICIT, "maybe", "true or false", "no"),
    "-rodpair_solver": (RODPAIR, "euler", "rk45, cvode, mmm", "mmm"),
    "-rodpair_nodes": (RODPAIR, "2", "[3, inf)", "3"),
    "-rodpair_modes": (RODPAIR, "0", "[1, inf)", "1"),
    "-rodpair_rtol": (RODPAIR, "0", "(0, inf)", None),
    "-rodpair_atol": (RODPAIR, "-1e-10", "(0, inf)", None),
    "-rodpair_end": (RODPAIR, "0", "(0, inf)", None),
    "-rodpair_mmm_sample": (RODPAIR, "0", "(0, inf)", None),
    "-rodpair_mmm_coupling": (RODPAIR, "-0.5", "[0, inf)", "0"),
    "-rodpair_mmm_transform_min": (RODPAIR, "1", "[2, inf)", "2"),
    "-rodpair_mmm_transform_nodes": (RODPAIR, "0", "[1, inf)", "1"),
    "-rodpair_mmm_fft_measure": (RODPAIR, "2", "true or false", "on"),
    "-rodpair_max_step": (RODPAIR, "-1e-6", "[0, inf)", "0"),
    "-rodpair_output_state": (RODPAIR, "sometimes", "true or false", "1"),
    "-bars2020_modes": (BARS, "1", "[2, inf)", "2"),
    "-bars2020_dt": (BARS, "0", "(0, inf)", None),
    "-bowedstring_damping": (BOW, "1", "[0, 1)", "0"),
    "-bowedstring_modes": (BOW, "0", "[1, 1e7]", "1"),
    "-bowedstring_dt": (BOW, "-1e-4", "(0, inf)", None),
    "-bowedstring_full_rtol": (BOW, "0", "(0, inf)", None),
    "-campaign_groups": (CAMPAIGN, "-1", "[0, inf)", "0"),
    "-campaign_retry_failed": (CAMPAIGN, "maybe", "true or false", "false"),
    "-campaign_record_nodal": (CAMPAIGN, "maybe", "true or false", "yes"),
    "-campaign_kill_after": (CAMPAIGN, "-2", "[-1, inf)", "-1"),
    # the program's own options, read for every solver
    "-progress_interval": (RODPAIR, "0", "(0, inf)", "1e-3"),
    "-quiet": (RODPAIR, "3", "true or false", "true"),
    "-force": (RODPAIR, "maybe", "true or false", "false"),
    "-restart": (RODPAIR, "maybe", "true or false", "false"),
    "-sk_allow_unused": (RODPAIR, "maybe", "true or false", "off"),
    "-sk_traceback": (RODPAIR, "maybe", "true or false", "no"),  # before: exit 2 and PETSc's traceback
}
# values of no number at all, each against its kind
UNPARSED = [
    ("-rodpair_nodes", RODPAIR, "1.5", "not an integer"),
    ("-bowedstring_modes", BOW, "1e3", "not an integer"),
    ("-rodpair_rtol", RODPAIR, "abc", "not a number"),
    ("-explicit_energy_tolerance", EXPLICIT, "nan", "outside (0, inf)"),
    ("-bars2020_dt", BARS, "inf", "outside (0, inf)"),
    ("-rodpair_mmm_sample", RODPAIR, "", "not a number"),
]
# text options, checked where they are used: the output directory, the campaign's directory and task, the model name
TEXT = {"-bowedstring_model", "-campaign_dir"}

sources = "".join(open(f, errors="replace").read() for f in glob.glob(os.path.join(src, "src", "**", "*.c"), recursive=True))
named = set(re.findall(r'"(-(?:explicit|rodpair|bars2020|bowedstring|campaign)_[a-z0-9_]+)"', sources))
missing = sorted(named - set(TABLE) - TEXT)
check(not missing, f"every option the sources name has a row in the table ({len(named)} named; missing: {missing})")


def validate(inp, *opts):
    return cli("validate", os.path.join(src, inp), *opts)


def refused(opt, inp, value, needle):
    p = validate(inp, opt, value)
    lines = p.stderr.strip().splitlines()
    shown = value if value else "(no value)"
    ok = (p.returncode == 1 and len(lines) == 1 and lines[0].startswith(f"option {opt} {shown}:") and needle in lines[0])
    return ok, f"{opt} {value!r}: exit 1, one line 'option {opt} {shown}: ...' naming '{needle}' ({p.returncode}: {p.stderr.strip()[:200]})"


def accepted(opt, inp, value):
    p = validate(inp, opt, value)
    return p.returncode == 0, f"{opt} {value}: on the edge of its range, validates ({p.returncode}: {p.stderr.strip()[:200]})"


# Under the sanitizers (make asan-check sets ASAN_OPTIONS) one refusal of each kind and of each solver's options block
# is enough to check that a refused option leaks nothing; every row takes 1 to 3 s there.
SANITIZED = "ASAN_OPTIONS" in os.environ
SUBSET = {"-explicit_energy_tolerance", "-explicit_critical_step", "-rodpair_nodes", "-rodpair_output_state", "-bars2020_dt",
          "-bowedstring_damping", "-campaign_groups", "-progress_interval", "-quiet"}
jobs = []
for opt, (inp, bad, needle, good) in TABLE.items():
    if SANITIZED and opt not in SUBSET:
        continue
    jobs.append((refused, (opt, inp, bad, needle)))
    if good is not None and not SANITIZED:
        jobs.append((accepted, (opt, inp, good)))
for opt, inp, value, needle in UNPARSED[:2] if SANITIZED else UNPARSED:
    jobs.append((refused, (opt, inp, value, needle)))
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for ok, what in pool.map(lambda job: job[0](*job[1]), jobs):
        check(ok, what)

# the same value from the input's <options> element: the same refusal
with open(os.path.join(src, RODPAIR)) as f:
    text = f.read()
inp = os.path.join(work, "options-in-input.xml")
with open(inp, "w") as f:
    f.write(text.replace("</rodpair>", "  <options>-rodpair_nodes 2</options>\n</rodpair>"))
p = cli("validate", inp)
check(p.returncode == 1 and p.stderr.strip() == "option -rodpair_nodes 2: outside [3, inf), the values it takes",
      f"<options>-rodpair_nodes 2</options>: the same refusal ({p.returncode}: {p.stderr.strip()[:200]})")

# a word that is neither an option nor the value right after one: PETSc drops it, so the run used the default (before:
# both validated and ran with 301 nodes); the same in <options>, where it is refused at the element's line
for words, stray in ((["rodpair_nodes", "5"], "rodpair_nodes"), (["-rodpair_nodes", "5", "7"], "7")):
    p = cli("validate", os.path.join(src, RODPAIR), *words)
    check(p.returncode == 1 and p.stderr.strip() == f"stickslip validate: '{stray}' is neither an option (-name) nor the value of the "
          "option before it; options are written -name [value]", f"command line {' '.join(words)}: refused ({p.returncode}: {p.stderr.strip()[:200]})")
with open(inp, "w") as f:
    f.write(text.replace("</rodpair>", '  <options>-rodpair_end 0.5 -sk_allow_unused "yes" rodpair_nodes 5</options>\n</rodpair>'))
p = cli("validate", inp)
check(p.returncode == 1 and re.fullmatch(r".*options-in-input\.xml:\d+: 'rodpair_nodes' in <options> is neither an option \(-name\) "
                                         r"nor the value of the option before it; options are written -name \[value\]", p.stderr.strip()),
      f"<options> with 'rodpair_nodes 5': refused at its line ({p.returncode}: {p.stderr.strip()[:200]})")
with open(inp, "w") as f:
    f.write(text.replace("</rodpair>", '  <options>-rodpair_end 0.5 -rodpair_mmm_coupling -0 -sk_allow_unused "yes"</options>\n</rodpair>'))
p = cli("validate", inp)
check(p.returncode == 0, f"<options> with a quoted value and a negative number as a value: valid ({p.returncode}: {p.stderr.strip()[:200]})")

# run refuses before it writes anything
out = os.path.join(work, "run")
p = cli("run", os.path.join(src, RODPAIR), "-o", out, "-rodpair_rtol", "-1")
check(p.returncode == 1 and not os.path.exists(out), f"run with -rodpair_rtol -1: exit 1, nothing written ({p.returncode})")
shutil.rmtree(work, ignore_errors=True)
finish("cli_option_values")
