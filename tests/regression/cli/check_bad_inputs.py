"""Bad inputs: each must give exactly one `FILE:LINE: message` line on stderr, a non-zero exit, no crash
(exit by signal) and no hang (a 20 s limit; every case here takes milliseconds).

Cases are written into a scratch directory; solver-specific cases are derived from a valid study input by
substituting one attribute, so they follow the schemas as they evolve."""
import os
import re
import stat
import subprocess
import sys

exe = os.environ.get("STICKSLIP", "build/bin/stickslip")
src = os.environ.get("SK_SOURCE_DIR", ".")
work = os.path.abspath("cli_bad_inputs")
os.makedirs(work, exist_ok=True)
failures = []

LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rodpair><description>&lol9;</description></rodpair>
"""

XXE = """<?xml version="1.0"?>
<!DOCTYPE rodpair [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<rodpair><description>&xxe;</description></rodpair>
"""

XXE_PARAM = """<?xml version="1.0"?>
<!DOCTYPE rodpair SYSTEM "http://127.0.0.1:9/evil.dtd">
<rodpair/>
"""

# (name, file content or None for "do not create", expected line, regex on the message)
generic = [
    ("malformed", "<rodpair>\n  <rod1 E='1'>\n</rodpair>\n", 3, r"malformed XML"),
    ("empty", "", 1, r"empty"),
    ("whitespace-only", "   \n\n", None, r"malformed XML|no root"),
    ("not-xml", "\x7fELF\x02\x01\x01binary junk", 1, r"malformed XML"),
    ("unknown-root", "<?xml version='1.0'?>\n\n<frobnicator/>\n", 3, r"unknown root element <frobnicator>.*one of: "),
    ("billion-laughs", LAUGHS, 2, r"DOCTYPE"),
    ("xxe", XXE, 2, r"DOCTYPE"),
    ("xxe-external-dtd", XXE_PARAM, 2, r"DOCTYPE"),
    ("missing", None, 1, r"cannot read the file"),
]


def write(name, text):
    path = os.path.join(work, name + ".xml")
    if os.path.exists(path):
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    with open(path, "w", encoding="latin-1") as f:
        f.write(text)
    return path


def run_case(name, path, line, pattern):
    try:
        proc = subprocess.run([exe, "validate", path], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: hangs")
        return
    err = [l for l in proc.stderr.splitlines() if l.strip()]
    ok = True
    if proc.returncode <= 0:
        failures.append(f"{name}: exit status {proc.returncode} (expected a positive status, no signal)")
        ok = False
    if len(err) != 1:
        failures.append(f"{name}: expected one line on stderr, got {len(err)}: {err[:5]}")
        ok = False
    elif line is not None and not err[0].startswith(f"{path}:{line}: "):
        failures.append(f"{name}: expected '{path}:{line}: ...', got '{err[0]}'")
        ok = False
    elif not re.match(rf"^{re.escape(path)}:\d+: ", err[0]) or not re.search(pattern, err[0]):
        failures.append(f"{name}: message '{err[0]}' does not match /{pattern}/")
        ok = False
    print(("ok  " if ok else "FAIL"), name, "|", err[0] if err else "")


for name, text, line, pattern in generic:
    path = os.path.join(work, name + ".xml") if text is None else write(name, text)
    if text is None and os.path.exists(path):
        os.remove(path)
    run_case(name, path, line, pattern)

# Unreadable file (root can read anything: only meaningful as a normal user).
if os.geteuid() != 0:
    path = write("unreadable", "<rodpair/>\n")
    os.chmod(path, 0)
    run_case("unreadable", path, 1, r"cannot read the file")
# A directory instead of a file, and a file whose read fails with EIO (unreadable even for root, as in CI).
run_case("directory", work, 1, r"cannot read the file")
if os.path.exists("/proc/self/mem"):
    run_case("read-error", "/proc/self/mem", 1, r"cannot read the file")

# Solver-specific cases: (name, study input, (regex to find, replacement), expected regex).
derived = []
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from cases import DERIVED  # written beside this script as solvers land
    derived = DERIVED
except ImportError:
    pass
for name, base, (find, repl), pattern in derived:
    text = open(os.path.join(src, base), encoding="utf-8").read()
    new, n = re.subn(find, repl, text, count=1)
    if n != 1:
        failures.append(f"{name}: could not derive the case from {base} (/{find}/ not found)")
        continue
    run_case(name, write(name, new), None, pattern)

print(f"{len(failures)} failed" if failures else "all bad inputs refused correctly")
for f in failures:
    print("  ", f)
sys.exit(1 if failures else 0)
