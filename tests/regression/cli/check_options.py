"""Options and what `validate` checks (docs/input.md, "Options").
Before: a misspelled option (-rodpair_solvr mmm) was silently ignored and another solver ran; `stickslip -help` showed
PETSc's generic options and then "no command given"; `run X -help` listed none of stickslip's options; `validate`
accepted the solver mmm with a table load (which `run` then refused) and refused a Gmsh .msh given directly.
Checked:
1. an option nothing uses, on the command line or in <options>, is an input error (exit 1, one line naming it and
   -sk_allow_unused) for validate and run, and runs nothing; -sk_allow_unused lets it pass; options that are used
   (the solver's, the TS options of the rigid solvers, PETSc's -log_view) pass; -log_view given in <options> writes
   the event log and exits 0;
2. `stickslip -help` lists the program's options and no usage error; `run X -help` lists the solver's options with
   their defaults, exits 0 and writes nothing;
3. validate refuses what run refuses: mmm with a table load, at the line of the load function;
4. validate reads a Gmsh .msh (exit 0 for meshes/box.msh; a damaged one is a FILE:LINE error)."""
import os
import re
import sys
from functools import partial

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common"))
from checklist import check, finish, program  # noqa: E402
from tests.common.runs import stickslip  # noqa: E402

exe, src, work = program("cli_options")


cli = partial(stickslip, exe, check=False, timeout=300)  # the program with ARGS, its output captured


def one_line(p):
    return [l for l in p.stderr.splitlines() if l.strip()]


rodpair = os.path.join(src, "inputs/rodpair/omega1-caseA.xml")
out = os.path.join(work, "out")
for command in (["validate", rodpair], ["run", rodpair, "-o", out]):
    p = cli(*command, "-rodpair_solvr", "mmm")
    err = one_line(p)
    check(p.returncode == 1 and len(err) == 1 and "-rodpair_solvr" in err[0] and "-sk_allow_unused" in err[0],
          f"{command[0]}: a misspelled option is an error naming it ({p.returncode}: {err[:2]})")
check(not os.path.exists(os.path.join(out, "results.h5")), "run with a misspelled option wrote nothing")
text = open(rodpair).read().replace("</rodpair>", "  <options>-rodpair_sovler mmm</options>\n</rodpair>")
opt_in = os.path.join(work, "options.xml")
open(opt_in, "w").write(text)
p = cli("validate", opt_in)
check(p.returncode == 1 and "-rodpair_sovler" in p.stderr, "a misspelled option in <options> is an error: " + p.stderr.strip()[:200])
p = cli("validate", rodpair, "-rodpair_solvr", "mmm", "-sk_allow_unused")
check(p.returncode == 0, "-sk_allow_unused lets an unused option pass")
p = cli("validate", rodpair, "-rodpair_solver", "mmm", "-rodpair_end", "0.5", "-quiet", "-o", out, "-log_view", "ascii:" + os.path.join(work, "log"))
check(p.returncode == 0, "used options pass: " + p.stderr.strip()[:200])
# -log_view in the file's <options> (not on the command line): PetscInitialize() had not started the event log, so the
# run ended with a PETSc error printed by PetscFinalize() and no event log.
text = open(rodpair).read().replace("</rodpair>", "  <options>-log_view ascii:%s</options>\n</rodpair>" % os.path.join(work, "log_in_file"))
logview_in = os.path.join(work, "logview.xml")
open(logview_in, "w").write(text)
p = cli("run", logview_in, "-o", os.path.join(work, "logview"), "-quiet", "-rodpair_end", "0.01")
log_text = open(os.path.join(work, "log_in_file")).read() if os.path.exists(os.path.join(work, "log_in_file")) else ""
check(p.returncode == 0 and "Event" in log_text and "PETSC ERROR" not in p.stderr,
      "-log_view in <options> writes the event log and exits 0: %d %s" % (p.returncode, p.stderr.strip()[:200]))
p = cli("validate", os.path.join(src, "inputs/bk/bk-n5.xml"), "-burridgeknopoff_ts_type", "bdf", "-burridgeknopoff_ts_bdf_order", "2")
check(p.returncode == 0, "the TS options of a rigid solver are used: " + p.stderr.strip()[:200])
p = cli("validate", os.path.join(src, "inputs/explicit/neohookean_block.xml"), "-explicit_kill_at_step", "5", "-explicit_power_rtol", "1e-7")
check(p.returncode == 0, "the explicit solver's options are used: " + p.stderr.strip()[:200])

p = cli("-help")
check(p.returncode == 0 and "-sk_allow_unused" in p.stdout and "no command" not in p.stderr, "stickslip -help lists the program's options")
p = cli("run", rodpair, "-o", os.path.join(work, "help"), "-help")
check(p.returncode == 0 and re.search(r"-rodpair_solver <now rk45", p.stdout) and re.search(r"-rodpair_nodes <now 301", p.stdout)
      and "-sk_allow_unused" in p.stdout, "run X -help lists the solver's options with their defaults")
check(not os.path.exists(os.path.join(work, "help")), "run X -help runs nothing")

# mmm with a table load: run refused it only when the run started; validate now refuses it at the load's function
text = open(rodpair).read()
text = re.sub(r'<function type="harmonic"[^>]*/>', '<function type="table" times="0 1" values="0 2e4"/>', text)
table_in = os.path.join(work, "table.xml")
open(table_in, "w").write(text)
line = next(i + 1 for i, l in enumerate(text.splitlines()) if 'type="table"' in l)
for command in (["validate", table_in], ["run", table_in, "-o", os.path.join(work, "table")]):
    p = cli(*command, "-rodpair_solver", "mmm")
    check(p.returncode == 1 and re.search(rf"table\.xml:{line}: .*mmm needs a harmonic, constant or pulse load", p.stderr),
          f"{command[0]}: mmm with a table load refused at line {line}: {p.stderr.strip()[:200]}")

# a Gmsh mesh given directly
p = cli("validate", os.path.join(src, "meshes/box.msh"))
check(p.returncode == 0 and "valid Gmsh mesh" in p.stdout, "validate reads meshes/box.msh: " + p.stderr.strip()[:200])
bad = os.path.join(work, "bad.msh")
open(bad, "w").write(open(os.path.join(src, "meshes/box.msh")).read().replace("$EndNodes", "$EndNodez"))
p = cli("validate", bad)
check(p.returncode == 1 and re.match(re.escape(bad) + r":\d+: ", p.stderr), "a damaged .msh is a FILE:LINE error: " + p.stderr.strip()[:200])
finish("check_options")
