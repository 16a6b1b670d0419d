"""The build backend of pyproject.toml (PEP 517): builds the wheel of the `postproc` package with the standard library
alone, so that `pip install --no-deps .` works offline (a backend from PyPI, such as setuptools in pip's isolated build
environment, would have to be downloaded). It reads the name, version, description, Python requirement, dependencies
and console scripts from pyproject.toml's [project] table and packs every postproc/*.py but itself."""
import base64
import hashlib
import os
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "postproc"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist(p):
    return p["name"].replace("-", "_") + "-" + p["version"]


def _metadata(p):
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}", f"Summary: {p.get('description', '')}"]
    if "requires-python" in p:
        lines.append(f"Requires-Python: {p['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    dist = _dist(p)
    info = f"{dist}.dist-info"
    files = {}
    src = os.path.join(ROOT, PACKAGE)
    for name in sorted(os.listdir(src)):
        if name.endswith(".py") and name != os.path.basename(__file__):
            with open(os.path.join(src, name), "rb") as f:
                files[f"{PACKAGE}/{name}"] = f.read()
    files[f"{info}/METADATA"] = _metadata(p).encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: postproc/_build_backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    scripts = p.get("scripts", {})
    if scripts:
        files[f"{info}/entry_points.txt"] = ("[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items())).encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)  # fixed dates: reproducible
    return wheel
