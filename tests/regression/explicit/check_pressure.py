"""A dead pressure load (<pressure sideset value>) on Lagrange faces against the same load written as a traction: on a
flat face with outward normal n a pressure p is the traction -p n, so the two runs (Q4 and H8 blocks, pressure on the
top face, a ramp in time, the base held) must give the same energy histories (kinetic energy and external work) to
round-off: measured 0 (the same nodal loads to the last bit; bound 1e-12 of the largest value). A pressure of the
wrong sign or size, or on the wrong nodes, differs at order 1 (self-test, 2D: the traction 1 % larger must fail it).

usage: check_pressure.py PROGRAM"""
import os
import sys
import tempfile

import numpy as np

from postproc.results import Results
from tests.common.runs import stickslip_run

TOL = 1e-12  # round-off of the same loads summed in another order
BLOCK = """<?xml version="1.0"?>
<explicit>
  <mesh>{mesh}</mesh>
  <block name="body" material="linear_elastic" E="1e7" nu="0.3" rho="1000"/>
  <displacement nodeset="bottom" component="all"/>
  {load}
  <time end="2e-3"/>
  <output fields="0"/>
</explicit>
"""
MESHES = {2: '<rectangle type="Q4" cells="3 2" lower="0 0" upper="1 0.5"/>',
          3: '<box type="H8" cells="2 2 2" lower="0 0 0" upper="1 0.5 0.5"/>'}
RAMP = '<function type="ramp" t0="0" t1="1e-3" value="1"/>'


def energies(prog, tmp, name, dim, load):
    """Kinetic energy and external work histories of the block of dimension DIM under LOAD (an input element)."""
    path = os.path.join(tmp, name + ".xml")
    with open(path, "w") as f:
        f.write(BLOCK.format(mesh=MESHES[dim], load=load))
    stickslip_run(prog, path, os.path.join(tmp, name))
    e = Results(os.path.join(tmp, name, "results.h5")).history("/explicit/energy")
    return np.concatenate([np.asarray(e["kinetic"]), np.asarray(e["external_work"])])


def main():
    prog = sys.argv[1]
    fails, lines = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for dim in (2, 3):
            top = "top" if dim == 2 else "front"  # the face whose outward normal is +y (2D) or +z (3D)
            zero = " 0" * (dim - 1)
            ref = energies(prog, tmp, f"p{dim}", dim, f'<pressure sideset="{top}" value="1e4">{RAMP}</pressure>')
            for scale, must_pass in ((1.0, True), (1.01, False))[: 2 if dim == 2 else 1]:
                e = energies(prog, tmp, f"t{dim}_{scale}", dim, f'<traction sideset="{top}" value="{zero} {-1e4 * scale}">{RAMP}</traction>')
                diff = np.max(np.abs(e - ref)) / np.max(np.abs(ref))
                lines.append(f"{dim}D, traction x {scale}: {diff:.2g}")
                if (diff <= TOL) != must_pass:
                    fails.append(f"{dim}D, traction x {scale}: energies differ by {diff:.3g} (bound {TOL}, must {'pass' if must_pass else 'fail'})")
    print("; ".join(lines))
    if fails:
        raise SystemExit("FAIL: " + "; ".join(fails))


if __name__ == "__main__":
    main()
