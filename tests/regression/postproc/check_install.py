"""The post-processing installs as a package offline: `pip install --no-deps --no-index SRC` into a fresh virtual
environment (with Debian's numpy, h5py and matplotlib from the system site packages) must succeed without reaching an
index (the build backend is postproc/_build_backend.py, standard library only), and its console script
`stickslip-post` must run the installed copy: `stickslip-post validate --list` lists the generated tables and
`python -c 'import postproc'` finds the package inside the environment, not the checkout.
Fails when the build needs a download (a backend from PyPI) or the script is missing: tried with the setuptools
backend in pyproject.toml, which pip cannot fetch offline. usage: check_install.py"""
import os
import sys
import tempfile

from tests.common.runs import run_command

src = os.environ.get("SK_SOURCE_DIR", ".")


with tempfile.TemporaryDirectory() as tmp:
    venv = os.path.join(tmp, "venv")
    run_command(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], show="command")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run_command([os.path.join(venv, "bin", "pip"), "install", "--no-deps", "--no-index", "--no-cache-dir", src], env=env, show="command")
    where = run_command([os.path.join(venv, "bin", "python"), "-c", "import postproc; print(postproc.__file__)"], cwd=tmp, env=env, show="command").stdout
    if not where.startswith(venv):
        sys.exit(f"FAIL: postproc imported from {where.strip()}, not from the environment")
    listing = run_command([os.path.join(venv, "bin", "stickslip-post"), "validate", "--list"], cwd=tmp, env={**env, "SK_SOURCE_DIR": src}, show="command").stdout
    if "crossval" not in listing:
        sys.exit(f"FAIL: stickslip-post validate --list does not list crossval:\n{listing}")
print("pass: installed offline, stickslip-post runs the installed package")
