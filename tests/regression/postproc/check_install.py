"""The post-processing installs as a package offline: `pip install --no-deps --no-index SRC` into a fresh virtual
environment (with Debian's numpy, h5py and matplotlib from the system site packages) must succeed without reaching an
index (the build backend is postproc/_build_backend.py, standard library only), and its console script
`stickslip-post` must run the installed copy: `stickslip-post validate --list` lists the generated tables and
`python -c 'import postproc'` finds the package inside the environment, not the checkout.
Fails when the build needs a download (a backend from PyPI) or the script is missing: tried with the setuptools
backend in pyproject.toml, which pip cannot fetch offline. usage: check_install.py"""
import os
import subprocess
import sys
import tempfile

src = os.environ.get("SK_SOURCE_DIR", ".")


def run(*cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    print("$", " ".join(cmd), "->", p.returncode)
    if p.returncode:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    return p.stdout


with tempfile.TemporaryDirectory() as tmp:
    venv = os.path.join(tmp, "venv")
    run("/usr/bin/python3", "-m", "venv", "--system-site-packages", venv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run(os.path.join(venv, "bin", "pip"), "install", "--no-deps", "--no-index", "--no-cache-dir", src, env=env)
    where = run(os.path.join(venv, "bin", "python"), "-c", "import postproc; print(postproc.__file__)", cwd=tmp, env=env)
    if not where.startswith(venv):
        sys.exit(f"FAIL: postproc imported from {where.strip()}, not from the environment")
    listing = run(os.path.join(venv, "bin", "stickslip-post"), "validate", "--list", cwd=tmp, env={**env, "SK_SOURCE_DIR": src})
    if "crossval" not in listing:
        sys.exit(f"FAIL: stickslip-post validate --list does not list crossval:\n{listing}")
print("pass: installed offline, stickslip-post runs the installed package")
