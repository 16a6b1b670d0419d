"""Self-test of the page check (postproc/validate.py --check): a documented number changed by hand must fail it.
Copies the page of TABLE, replaces the NTH number (0-based) of COLUMN in the row ROW_ID of its generated block by VALUE,
and checks the copy against the runs another test left in OUTDIR (--reuse: nothing is rerun). The unchanged copy must
pass and the changed one must fail, naming the row and the column. ctest puts back the 1.6e-4 that crossval.md once
showed by hand for the soft case (the code gives 4.7e-3). Tried by hand as well (2026-11-27): 4.8e-3 there (the page's
hand-rounded value before it was generated; allowed 5e-5, off by 5.7e-5) and 12.3 slips per block for the n = 5 chain
of bk.md (12.2) fail too.

usage: check_validate_selftest.py OUTDIR TABLE ROW_ID COLUMN NTH VALUE"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from postproc.studies import REGISTRY
from postproc.validate import NUMBER, SRC, block_span


def check(outdir, table, row_id, page):
    return subprocess.run([sys.executable, "-m", "postproc.validate", "--check", "--reuse", "--out", outdir, "--rows", row_id,
                           "--page", page, table], capture_output=True, text=True)


def main():
    outdir, name, row_id, column, nth, value = sys.argv[1:7]
    table = REGISTRY[name]
    row = next(r for r in table.rows if r.id == row_id)
    col = [c.header for c in table.columns].index(column)
    tmp = tempfile.mkdtemp()
    page = os.path.join(tmp, os.path.basename(table.page))
    shutil.copy(os.path.join(SRC, table.page), page)
    p = check(outdir, name, row_id, page)
    if p.returncode:
        raise SystemExit(f"FAIL: the unchanged page does not pass:\n{p.stdout}{p.stderr}")
    with open(page, encoding="utf-8") as f:
        text = f.read()
    i, j = block_span(text, name, page)
    lines = text[i:j].split("\n")
    k = next(n for n, line in enumerate(lines) if line.startswith(f"| {row.key} |"))
    cells = lines[k].split("|")
    hits = list(NUMBER.finditer(cells[col + 1]))
    m = hits[int(nth)]
    print(f"{name}, {row_id}, {column}: {m.group(0)} -> {value}")
    cells[col + 1] = cells[col + 1][:m.start()] + value + cells[col + 1][m.end():]
    lines[k] = "|".join(cells)
    with open(page, "w", encoding="utf-8") as f:
        f.write(text[:i] + "\n".join(lines) + text[j:])
    p = check(outdir, name, row_id, page)
    print(p.stdout.strip())
    named = re.search(rf"FAIL: .*{re.escape(row.key)}, {re.escape(column)}: the page says", p.stdout)
    if p.returncode == 0 or not named:
        raise SystemExit(f"FAIL (selftest): the changed number passed the check (exit {p.returncode})")
    print("selftest: the changed number is caught")


if __name__ == "__main__":
    main()
