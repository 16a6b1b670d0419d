#!/usr/bin/env python3
"""Kinetic energy of a free rational patch in uniform motion: a 1 x 1 m plate (1 x 1 x 1 m block in 3D), rho = 1000
kg/m^3, velocity 0.1 m/s, control net 0 0 1  0.5 0 W  1 0 1  0 1 1  0.5 1 1  1 1 1 (degree 2 x 1, extruded in z in 3D)
must have kinetic energy rho V v^2 / 2 = 5 J at t = 0 for any weight W (the lumped masses add up to rho V). Before
the mass of rational cells was integrated adaptively the program gave 4.977, 4.013 and 0.798 J at W = 2, 10, 100 (2D).
Tolerance 1e-12 relative: the masses are integrated to round-off (measured at most 1.4e-15 here; docs/validation/iga.md).
Usage: check_rational_mass.py STICKSLIP"""
import os
import subprocess
import sys
import tempfile

import h5py

INPUT = """<explicit>
  <mesh>
    <patch name="plate">
      {knots}
      <controlpoints values="{net}"/>
    </patch>
  </mesh>
  <nodeset name="all" lower="{lo}" upper="{hi}"/>
  <block name="plate" material="linear_elastic" E="1e7" nu="0.3" rho="1000"{state}/>
  <initial_velocity nodeset="all" value="{v}"/>
  <time end="1e-4"/>
  <output histories="1" fields="0"/>
</explicit>
"""
TOL = 1e-12


def main():
    prog = sys.argv[1]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for dim in (2, 3):
            for W in (2, 10, 100):
                rows = ["0 0 1  0.5 0 %g  1 0 1" % W, "0 1 1  0.5 1 1  1 1 1"]
                if dim == 2:
                    net = "  ".join(rows)
                    knots = '<knots degree="2" values="0 0 0 1 1 1"/><knots degree="1" values="0 0 1 1"/>'
                else:  # the same rows at z = 0 and z = 1
                    net = "  ".join(" ".join(p.split()[:2] + [z] + p.split()[2:]) for z in "01" for r in rows for p in r.split("  "))
                    knots = '<knots degree="2" values="0 0 0 1 1 1"/><knots degree="1" values="0 0 1 1"/><knots degree="1" values="0 0 1 1"/>'
                text = INPUT.format(knots=knots, net=net, lo=" ".join(["-1"] * dim), hi=" ".join(["2"] * dim),
                                    state=' stress_state="plane_strain"' if dim == 2 else "", v=" ".join(["0.1"] + ["0"] * (dim - 1)))
                path = os.path.join(tmp, "plate%dd_W%g.xml" % (dim, W))
                open(path, "w").write(text)
                out = path[:-4]
                r = subprocess.run([prog, "run", path, "-o", out, "-quiet"], capture_output=True, text=True)
                if r.returncode:
                    sys.exit("FAIL: %s\n%s%s" % (path, r.stdout, r.stderr))
                ke = h5py.File(os.path.join(out, "results.h5"), "r")["/explicit/energy"][0][1]
                err = abs(ke - 5.0) / 5.0
                worst = max(worst, err)
                print("%dD W = %-4g kinetic energy at t = 0: %.16f J, relative error %.1e" % (dim, W, ke, err))
    if worst > TOL:
        sys.exit("FAIL: kinetic energy off by %.2e relative (tolerance %g)" % (worst, TOL))
    print("ok")


if __name__ == "__main__":
    main()
