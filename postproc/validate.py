"""Validation pages that stay true: reruns the studies of docs/validation/ and writes their tables into the pages, or
checks that the numbers a page shows are the ones the code computes now.

    python3 -m postproc.validate [STUDY ...]          rerun and rewrite the generated blocks of the pages (`make validate`)
    python3 -m postproc.validate --check STUDY ...    rerun and compare with the page: exit 1 when a documented number
                                                      differs from the recomputed one beyond its tolerance (`ctest -L docs`)
    python3 -m postproc.validate --list               the registry: tables, pages, run counts, whether ctest checks them

STUDY is a table name (e.g. `crossval`) or a page stem (`bk`: every table of docs/validation/bk.md); none: every table.
Options: --program PATH (default $STICKSLIP or build/bin/stickslip), --out DIR (run directories, default
build/validate), --reuse (take a run whose results.h5 is already in DIR instead of rerunning it), --rows ID,... (only
the rows of these ids, by default their first cells; --check then compares only those), --page FILE (check this file instead of the
table's page: the self-test checks an altered copy), -j N (runs at once).

A run is the program's arguments, or a post-processing command that runs the program ('{python}', e.g. to write a
variant of an input first), run in the repository with it on PYTHONPATH. A table lives in its page between
`<!-- validate:NAME begin -->` and `<!-- validate:NAME end -->`. The block is written whole: a line saying that it is
generated, at which commit and on which date its numbers were made, the commands, the table, and the tolerance of every checked column with its origin. The registry (postproc/studies.py)
says per table: the page, the runs (program arguments), the function that turns the runs into a row, and per column
the tolerance. A documented number agrees with the recomputed value v when |doc - v| <= max(rel |v|, abs, half a unit
of the last digit printed in the page); a column without a tolerance (wall and CPU times) is not compared. A row of
the page that the registry does not have, a header that differs or a cell with another count of numbers fails too."""
import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Optional

_CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the repository: $SK_SOURCE_DIR, the checkout this file is in, or (installed by pip) the current directory
SRC = os.environ.get("SK_SOURCE_DIR") or (_CHECKOUT if os.path.isdir(os.path.join(_CHECKOUT, "docs", "validation")) else os.getcwd())
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w.])")
# the parts of the tree the numbers depend on (the program, its inputs, the post-processing): a change elsewhere (docs,
# test scripts) does not make them "uncommitted"
RUN_INPUTS = ["src", "include", "schema", "inputs", "meshes", "postproc", "CMakeLists.txt", "cmake", ":(glob)tests/**/*.xml"]


@dataclass(frozen=True)
class Tol:
    """Tolerance of one column: relative (to the recomputed value) and absolute, and where it comes from."""
    rel: float = 0.0
    abs: float = 0.0
    origin: str = ""

    def text(self):
        parts = [f"{self.rel:g} relative" if self.rel else "", f"{self.abs:g} absolute" if self.abs else ""]
        return " or ".join(p for p in parts if p) or "the printed digits"


@dataclass
class Column:
    """A column of a generated table: header, how a value is printed, its tolerance (None: not compared, for the
    reason `why`, which the block prints)."""
    header: str
    fmt: Callable = str
    tol: Optional[Tol] = None
    why: str = ""


@dataclass
class Row:
    """A row: its first cell, the runs it reads (names in Table.runs) and the function of their directories
    {run name: directory} that returns one value per column after the first (a number, a tuple of numbers or a
    string); id names it for --rows (default: the first cell)."""
    key: str
    runs: list
    values: Callable
    id: str = ""

    def __post_init__(self):
        self.id = self.id or self.key


@dataclass
class Table:
    """A generated block of a page. runs: {run name: program arguments}; '{program}' and '{out}' (the run's
    own directory) are substituted. ctest: which rows `ctest -L docs` checks ("" none: make validate only). run_note:
    one line on what the runs cost (shown in --list)."""
    name: str
    page: str
    columns: list
    rows: list
    runs: dict
    intro: str = ""
    ctest: str = ""
    run_note: str = ""

    @property
    def stem(self):
        """The page's file name without .md: runs of one page share OUT/<stem>/."""
        return os.path.splitext(os.path.basename(self.page))[0]

    def command(self, run, program="build/bin/stickslip", out=None, python="python3"):
        """The run's arguments with '{program}', '{out}' and '{python}' (the interpreter of a post-processing step that
        runs the program itself, e.g. on an input it writes) substituted; the defaults are what the page shows."""
        out = out or f"out/{self.stem}/{run}"
        return [a.format(program=program, out=out, python=python) for a in self.runs[run]]


def _git(*args):
    p = subprocess.run(["git", "-C", SRC, *args], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else ""


def provenance(reused=False):
    """'commit abc1234 (with uncommitted changes), 2026-11-27, 2 cores at load average 1.9': where and when the
    numbers were made (the load explains the wall times); REUSED: the runs were there before (--reuse), so the load
    of this moment says nothing about them."""
    commit = _git("rev-parse", "--short=10", "HEAD") or "unknown"
    if _git("status", "--porcelain", "--", *RUN_INPUTS):
        commit += " with uncommitted changes"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    if reused:
        return f"commit {commit}, {date} (from runs made before, --reuse)"
    return f"commit {commit}, {date}, {os.cpu_count()} cores at load average {os.getloadavg()[0]:.1f}"


def _printer(one, sep):
    """A column printer from ONE (a number -> text): a tuple is printed joined by SEP, a text as it is."""
    def f(v):
        if isinstance(v, str):
            return v
        return sep.join(one(float(x)) for x in v) if isinstance(v, (tuple, list)) else one(float(v))
    return f


def fmt_g(digits, sep=", "):
    """Printer to DIGITS significant digits, trailing zeros kept (4.00, 157)."""
    return _printer(lambda x: f"{x:#.{digits}g}".rstrip("."), sep)


def fmt_e(digits, sep=", "):
    """Printer in e-notation with DIGITS significant digits and a short exponent (1.7e-4)."""
    return _printer(lambda x: re.sub(r"e([-+])0*(\d)", lambda m: "e" + m.group(1).replace("+", "") + m.group(2),
                                     f"{x:.{digits - 1}e}"), sep)


def fmt_f(decimals, sep=", "):
    """Printer with a fixed number of DECIMALS."""
    return _printer(lambda x: f"{x:.{decimals}f}", sep)


def numbers(cell):
    """[(value, half a unit of its last printed digit, text)] of every number in a cell, in order."""
    out = []
    for m in NUMBER.finditer(cell.replace("`", " ")):
        s = m.group(0)
        mant, _, exp = s.lower().partition("e")
        decimals = len(mant.split(".")[1]) if "." in mant else 0
        out.append((float(s), 0.5 * 10.0 ** (int(exp or 0) - decimals), s))
    return out


def flat(value):
    """The numbers of a computed value: a number, a tuple of numbers or a text (its numbers)."""
    if isinstance(value, str):
        return [v for v, _, _ in numbers(value)]
    return [float(v) for v in value] if isinstance(value, (tuple, list)) else [float(value)]


_done = set()  # run directories made by this process (tables of one page share runs)


def execute(table, needed, program, outroot, reuse, jobs):
    """Runs the table's runs in NEEDED into OUTROOT/<page stem>/<run>; returns {run: directory}."""
    dirs = {r: os.path.join(outroot, table.stem, r) for r in needed}

    def one(run):
        d = dirs[run]
        if d in _done or (reuse and os.path.exists(os.path.join(d, "results.h5"))):
            return
        os.makedirs(os.path.dirname(d), exist_ok=True)
        cmd = table.command(run, program, d, sys.executable)
        print("  " + shlex.join(cmd), flush=True)
        p = subprocess.run(cmd, cwd=SRC, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")]))})
        if p.returncode:
            raise SystemExit(f"{table.name}: run {run} failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
        _done.add(d)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, sorted(needed)))
    return dirs


def compute(table, rows, program, outroot, reuse, jobs):
    """{row key: [cell values]} of the selected ROWS."""
    needed = {r for row in rows for r in row.runs}
    dirs = execute(table, needed, program, outroot, reuse, jobs)
    out = {}
    for row in rows:
        vals = list(row.values({r: dirs[r] for r in row.runs}))
        if len(vals) != len(table.columns) - 1:
            raise SystemExit(f"{table.name}: row {row.key} gave {len(vals)} values for {len(table.columns) - 1} columns")
        out[row.key] = vals
    return out


def render(table, values, prov):
    """The whole block between the markers (without them), from {row key: values} of every row."""
    lines = [f"<!-- generated by `python3 -m postproc.validate {table.name}` (`make validate`); do not edit by hand: "
             f"`ctest -L docs` compares the page with a rerun -->"]
    if table.intro:
        lines += [table.intro.strip(), ""]
    lines += [f"Numbers made at {prov} by:", ""]
    lines += ["    " + shlex.join(table.command(r)) for r in table.runs]  # quoted where a shell needs it
    lines += ["", "| " + " | ".join(c.header for c in table.columns) + " |", "|" + "---|" * len(table.columns)]
    for row in table.rows:
        cells = [row.key] + [c.fmt(v) for c, v in zip(table.columns[1:], values[row.key])]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    groups = {}  # columns of one tolerance named together
    for c in table.columns[1:]:
        if c.tol:
            groups.setdefault(c.tol, []).append(c.header)
    tols = [f"{', '.join(h)}: {t.text()} ({t.origin})" for t, h in groups.items()]
    skipped = [f"{c.header} ({c.why})" for c in table.columns[1:] if not c.tol and c.why]
    lines.append("Checked against a rerun" + (f" by `ctest -L docs` ({table.ctest})" if table.ctest else
                                               " by `python3 -m postproc.validate --check` (not in ctest: the runs take minutes)")
                 + ", a number passing within the larger of its tolerance and half a unit of its last printed digit: "
                 + "; ".join(tols) + "." + (f" Not compared: {'; '.join(skipped)}." if skipped else ""))
    return "\n".join(lines)


def block_span(text, name, page):
    """(start, end) of the content of the block NAME in TEXT (the page PAGE), between its two markers."""
    begin, end = f"<!-- validate:{name} begin -->", f"<!-- validate:{name} end -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i or text.count(begin) != 1:
        raise SystemExit(f"{page}: not one block '{begin}' ... '{end}'")
    return i + len(begin), j


def write(table, values, reused):
    path = os.path.join(SRC, table.page)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i, j = block_span(text, table.name, table.page)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:i] + "\n" + render(table, values, provenance(reused)) + "\n" + text[j:])


def page_rows(table, path):
    """(header cells, {first cell: [cells]}) of the table inside the block of the page at PATH."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i, j = block_span(text, table.name, path)
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in text[i:j].splitlines()
            if line.startswith("|") and not re.match(r"^\|(\s*-+\s*\|)+\s*$", line)]
    if not rows:
        raise SystemExit(f"{path}: block {table.name} holds no table")
    return rows[0], {r[0]: r[1:] for r in rows[1:]}


def check(table, values, path):
    """Every compared number of the page's block against VALUES; returns the list of disagreements and the count
    compared."""
    header, doc = page_rows(table, path)
    bad, compared = [], 0
    if header != [c.header for c in table.columns]:
        return [f"{path}: {table.name}: the header is {header}, the registry's {[c.header for c in table.columns]}"], 0
    bad += [f"{path}: {table.name}: row '{key}' is not in the registry (added by hand?)" for key in doc
            if key not in {r.key for r in table.rows}]
    for key, vals in values.items():
        if key not in doc:
            bad.append(f"{path}: {table.name}: no row '{key}'")
            continue
        for col, cell, v in zip(table.columns[1:], doc[key], vals):
            if col.tol is None:
                continue
            got, want = numbers(cell), flat(v)
            if len(got) != len(want):
                bad.append(f"{path}: {table.name}, {key}, {col.header}: '{cell}' has {len(got)} numbers, the rerun {len(want)}")
                continue
            for (d, half, text), w in zip(got, want):
                compared += 1
                # (1 + 1e-9): a value on the rounding boundary of the printed digit passes either way
                allowed = max(col.tol.rel * abs(w), col.tol.abs, half * (1 + 1e-9))
                if not abs(d - w) <= allowed:
                    bad.append(f"{path}: {table.name}, {key}, {col.header}: the page says {text}, the rerun gives {w:.4g} "
                               f"(difference {abs(d - w):.2g} > {allowed:.2g}: {col.tol.origin})")
    return bad, compared


def select(registry, names):
    if not names:
        return list(registry.values())
    out = []
    for n in names:
        hit = [t for t in registry.values() if n in (t.name, t.stem)]
        if not hit:
            raise SystemExit(f"unknown study '{n}'; known: {', '.join(registry)} (or a page stem)")
        out += [t for t in hit if t not in out]
    return out


def main(argv=None):
    from postproc.studies import REGISTRY

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("studies", nargs="*")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--program", default=os.environ.get("STICKSLIP") or os.path.join(SRC, "build", "bin", "stickslip"))
    ap.add_argument("--out", default=os.path.join(SRC, "build", "validate"))
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--rows", default="")
    ap.add_argument("--page")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    tables = select(REGISTRY, a.studies)
    if a.list:
        for t in tables:
            print(f"{t.name:24s} {t.page:32s} {len(t.rows):3d} rows {len(t.runs):3d} runs  "
                  f"{'ctest -L docs' if t.ctest else 'make validate only':18s} {t.run_note}")
        return 0
    keys = [k for k in a.rows.split(",") if k]
    failures, compared = [], 0
    for t in tables:
        rows = [r for r in t.rows if not keys or r.id in keys]
        if not rows:
            continue
        if not a.check and len(rows) != len(t.rows):
            raise SystemExit("--rows only with --check: a generated block has every row")
        print(f"{t.name}: {len(rows)} rows, {len({r for row in rows for r in row.runs})} runs", flush=True)
        values = compute(t, rows, a.program, os.path.abspath(a.out), a.reuse, a.jobs)
        if a.check:
            bad, n = check(t, values, a.page or os.path.join(SRC, t.page))
            failures += bad
            compared += n
            print(f"{t.name}: {n} numbers compared, {len(bad)} problems", flush=True)
        else:
            write(t, values, a.reuse)
            print(f"{t.name}: wrote {t.page}", flush=True)
    if a.check:
        for b in failures:
            print("FAIL:", b)
        if compared == 0 and not failures:
            print("FAIL: nothing was compared (no row selected?)")
            return 1
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
