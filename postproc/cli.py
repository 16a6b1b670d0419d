"""stickslip-post: the post-processing as one command (the console script of pyproject.toml, and
scripts/stickslip-post in a checkout).

    stickslip-post MODULE [ARGS ...]     the same as python3 -m postproc.MODULE ARGS ...
    stickslip-post --help                the modules

e.g. `stickslip-post summary out/demo --figures`, `stickslip-post validate --check crossval`."""
import os
import runpy
import sys


def commands():
    """The modules of postproc that run as a program (those with a __main__ block), by name."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in sorted(os.listdir(here)):
        if name.endswith(".py") and not name.startswith("_") and name != "cli.py":
            with open(os.path.join(here, name), encoding="utf-8") as f:
                if 'if __name__ == "__main__"' in f.read():
                    out.append(name[:-3])
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    known = commands()
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__ + "\n\nmodules: " + ", ".join(known))
        return 0 if argv else 2
    if argv[0] not in known:
        print(f"stickslip-post: unknown module '{argv[0]}'; known: {', '.join(known)}", file=sys.stderr)
        return 2
    sys.argv = [f"stickslip-post {argv[0]}", *argv[1:]]
    runpy.run_module(f"postproc.{argv[0]}", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
