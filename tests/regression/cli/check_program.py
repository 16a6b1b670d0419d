"""The stickslip program end to end, on a short rod-pair run (0.01 s):
- --help lists every registered solver, --version prints the version, a missing command is a usage error;
- run writes OUTDIR/results.h5 with the input copied into /meta; a second run into the same OUTDIR is refused
  (exit 1, message naming -force) and leaves the first results untouched; -force overwrites them;
- options: <options> in the input apply, and the command line wins over them (solver name stored by the run);
- a progress line on a terminal; -quiet silences it; in a pipe, plain lines every -progress_interval seconds (none in a
  short run at the default of 60 s), also under mpiexec, whose ranks' stdout is a pseudo-terminal (before: the
  redrawn line with its carriage returns and escape codes went into the job's output); a campaign's lines count the
  realisations started."""
import os
import re
import shutil
import subprocess
import sys
from functools import partial

from postproc.results import Results
from tests.common.runs import stickslip

exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
src = os.environ.get("SK_SOURCE_DIR", ".")
work = os.path.abspath("cli_program")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, what):
    print(("ok  " if cond else "FAIL"), what)
    if not cond:
        failures.append(what)


cli = partial(stickslip, exe, check=False, timeout=120)  # the program with ARGS, its output captured


p = cli("--help")
check(p.returncode == 0, "--help exits 0")
for solver in ("rodpair", "bars2020", "bowedstring", "springslider", "burridgeknopoff", "explicit"):
    check(re.search(rf"^\s+{solver}\s", p.stdout, re.M) is not None, f"--help lists the solver {solver}")
p = cli("--version")
check(p.returncode == 0 and re.match(r"stickslip \d+\.\d+\.\d+", p.stdout), "--version")
p = cli()
check(p.returncode == 1, "no command: exit status 1")
p = cli("frobnicate", "x.xml")
check(p.returncode == 1 and "unknown command" in p.stderr, "unknown command refused")

# A short run of the validation input, with an <options> element added: the solver in the input is rk45, the
# options ask for mmm.
text = open(os.path.join(src, "inputs/rodpair/omega1-caseA.xml")).read()
text = text.replace("</rodpair>", "  <options>-rodpair_solver mmm -rodpair_end 0.01</options>\n</rodpair>")
inp = os.path.join(work, "short.xml")
open(inp, "w").write(text)
out = os.path.join(work, "out")

p = cli("run", inp, "-o", out)
check(p.returncode == 0, "run succeeds: " + p.stderr.strip()[-300:])
check("ETA" not in p.stdout, "no progress line in a pipe")
r = Results(out)
check(r.input_text == text, "/meta/input is the input byte for byte")
check(r.attrs("rodpair").get("solver") == "mmm", "options in the input apply (solver mmm)")
check("-rodpair_solver mmm" in (r.options or ""), "/meta/options records the options")
mtime = os.path.getmtime(os.path.join(out, "results.h5"))

p = cli("run", inp, "-o", out, "-rodpair_solver", "rk45")
check(p.returncode == 1, f"second run into the same OUTDIR refused (exit {p.returncode})")
check("-force" in p.stderr and len([l for l in p.stderr.splitlines() if l.strip()]) == 1, "one-line refusal naming -force: " + p.stderr.strip())
check(os.path.getmtime(os.path.join(out, "results.h5")) == mtime, "refused run left results.h5 untouched")

p = cli("run", inp, "-o", out, "-force", "-rodpair_solver", "rk45", "-quiet")
check(p.returncode == 0, "-force overwrites")
check(Results(out).attrs("rodpair").get("solver") == "rk45", "the command line wins over <options> (solver rk45)")

# Started without a launcher, the program chooses Open MPI's messaging layer itself where the environment does not (the
# test environment sets it for every test program): the run works with it unset, and a value the user set wins (a
# messaging layer that does not exist stops MPI's start; the program's own ob1 would have let it run, exit 0). The exit
# status is the check: Open MPI's own report of the failed start names the layer only when its help system is not
# itself disturbed (with six starts at once it printed "ORTE_ERROR_LOG: Out of resource" instead in 2 of 6).
bare = {k: v for k, v in os.environ.items() if k != "OMPI_MCA_pml"}
p = cli("run", inp, "-o", out, "-force", "-quiet", env=bare)
check(p.returncode == 0, "run with Open MPI's messaging layer left to the program: " + p.stderr.strip()[-300:])
p = cli("validate", inp, env={**bare, "OMPI_MCA_pml": "no-such-layer"})
check(p.returncode != 0, f"the user's OMPI_MCA_pml is kept: MPI's start fails (exit {p.returncode})")

# On a terminal the run shows a progress line (time, step, percent, ETA); -quiet silences it. `script` gives the
# program a pseudo-terminal; the run is made long enough (0.5 s of RK45) for the 4-per-second updates to show.
if shutil.which("script"):
    def tty(*extra):
        cmd = " ".join([exe, "run", inp, "-o", os.path.join(work, "tty"), "-force", "-rodpair_solver", "rk45", "-rodpair_end", "0.5", *extra])
        # bytes, not text: text mode would turn the line's carriage returns into newlines
        return subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=120).stdout.decode()
    shown = tty()
    check(re.search(r"\rrodpair: t = .* step .*%.*ETA", shown) is not None, "progress line with time, step, percent and ETA on a terminal")
    check("ETA" not in tty("-quiet"), "-quiet silences the progress line on a terminal")

# Not on a terminal (a pipe here, a batch job's log file), plain lines every -progress_interval seconds; none in a
# run shorter than the default 60 s. Under mpiexec (1 rank is enough: Open MPI gives it a pseudo-terminal as stdout
# while mpiexec's own stdout is this pipe) the same plain lines.
long_run = ["-o", os.path.join(work, "lines"), "-force", "-rodpair_solver", "rk45", "-rodpair_end", "0.5"]
line = r"^rodpair: t = \S+ s  step \d+ +[\d.]+ %  ETA \d+:\d\d:\d\d$"
for label, prefix in (("a pipe", ()), ("mpiexec -n 1 into a pipe", ("mpiexec", "-n", "1"))):
    p = cli("run", inp, *long_run, "-progress_interval", "0.1", prefix=prefix)
    lines = [l for l in p.stdout.splitlines() if l.startswith("rodpair: t =")]
    check(p.returncode == 0 and len(lines) >= 2 and all(re.match(line, l) for l in lines),
          f"{label}: plain progress lines every 0.1 s ({len(lines)}: {lines[:2]})")
    check("\r" not in p.stdout and "\033" not in p.stdout, f"{label}: no carriage return or escape code in the output")
p = cli("run", inp, *long_run)
check(p.returncode == 0 and "rodpair: t =" not in p.stdout, "a pipe, default interval of 60 s: no progress line in a 0.5 s run")
# a campaign reports the realisations handed out (its log showed nothing until the end)
p = cli("run", os.path.join(src, "tests", "regression", "rough3d", "campaign_tiny.xml"), "-o", os.path.join(work, "campaign"), "-force",
        "-progress_interval", "0.01")
counts = [int(m.group(1)) for m in re.finditer(r"^campaign: (\d+) of 6 realisations started +[\d.]+ %  ETA \d+:\d\d:\d\d$", p.stdout, re.M)]
check(p.returncode == 0 and counts and counts == sorted(counts) and counts[-1] <= 6,
      f"a campaign into a pipe: lines 'campaign: k of 6 realisations started' ({counts}; exit {p.returncode})")

print("check_program:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
