"""Real Gmsh meshes in a run: each .geo of meshes/ is meshed by the installed gmsh (gmsh -2|-3 [-order 2] FILE.geo
-format msh41), read by stickslip through <mesh file>, and run with a uniform initial velocity v0 on every node and a
contact pair on the physical group "bottom" against a plane 1 m below it (never reached), so the body translates
rigidly. Checked, per mesh:

  1. the element kinds Gmsh wrote (T3, Q4, Q9 + 3-node lines, T4, H8, H27: the Gmsh type numbers in $Elements);
  2. the mass: the kinetic energy at t = 0 is rho V |v0|^2 / 2 with V the area or volume of the geometry (lumped mass
     sums to the element volumes; exact for straight-sided elements up to round-off, bound 1e-12 relative);
  3. the physical group "bottom": the contact weights of its faces sum to its length or area (bound 1e-12 relative);
  4. rigid translation (the shape-function gradients sum to zero): every node moves by v0 t, to 1e-12 relative, and
     the internal energy stays below 1e-20 J (round-off of a zero strain);
  5. the same run on 2 MPI ranks (METIS partition of the Gmsh mesh) gives the same kinetic energy and final state to
     1e-12.

usage: check_gmsh.py GMSH PROGRAM MPIEXEC"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from postproc.results import Results

SRC = os.path.abspath(os.environ.get("SK_SOURCE_DIR", "."))
RHO = 1000.0
# (.geo, gmsh options, Gmsh element types expected, dimension, area or volume, bottom length or area)
CASES = [
    ("lshape_tri", ["-2"], {1, 2}, 2, 0.035, 0.4),
    ("plate_quad", ["-2"], {1, 3}, 2, 0.04, 0.4),
    ("plate_quad", ["-2", "-order", "2"], {8, 10}, 2, 0.04, 0.4),
    ("wedge_tet", ["-3"], {2, 4}, 3, 0.004, 0.04),
    ("box", ["-3"], {3, 5}, 3, 1.0, 1.0),
    ("box_h27", ["-3"], {10, 12}, 3, 1.0, 1.0),
]

INPUT = """<?xml version="1.0" encoding="UTF-8"?>
<explicit>
  <description>Gmsh mesh {msh}, rigid translation</description>
  <mesh file="{msh}"/>
  <block name="body" material="linear_elastic" E="1e7" nu="0.25" rho="{rho}"{extra}/>
  <initial_velocity nodeset="all" value="{v0}"/>
  <contact name="floor" sideset="bottom" point="{point}" normal="{normal}" penalty="1e7">
    <friction law="coulomb" mu_s="0.3" mu_k="0.3" eps_t="1e8"/>
  </contact>
  <time end="{end}"/>
  <output fields="0"/>
</explicit>
"""


def element_types(msh):
    lines = open(msh).read().split("\n")
    i = lines.index("$Elements")
    blocks, k, types = int(lines[i + 1].split()[0]), i + 2, set()
    for _ in range(blocks):
        _, _, etype, n = map(int, lines[k].split())
        types.add(etype)
        k += 1 + n
    return types


def main():
    gmsh, prog, mpiexec = sys.argv[1:4]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for geo, opts, types, dim, vol, bottom in CASES:
            tag = geo + "".join(opts).replace("-", "_")
            msh = os.path.join(tmp, tag + ".msh")
            g = subprocess.run([gmsh] + opts + [os.path.join(SRC, "meshes", geo + ".geo"), "-format", "msh41", "-o", msh],
                               capture_output=True, text=True)
            if g.returncode or not os.path.exists(msh):
                fails.append(f"{tag}: gmsh failed:\n{g.stdout}{g.stderr}")
                continue
            got = element_types(msh)
            if got != types:
                fails.append(f"{tag}: Gmsh element types {sorted(got)}, expected {sorted(types)}")
            v0 = np.array([1.0, 0.5, 0.25][:dim])
            end = 1e-4
            inp = os.path.join(tmp, tag + ".xml")
            with open(inp, "w", encoding="utf-8") as f:
                f.write(INPUT.format(msh=msh, rho=RHO, extra=' stress_state="plane_strain"' if dim == 2 else "",
                                     v0=" ".join(map(repr, v0)), point=" ".join(["0", "-1", "0"][:dim]),
                                     normal=" ".join(["0", "1", "0"][:dim]), end=end))
            runs = {}
            for ranks in (1, 2):
                out = os.path.join(tmp, f"{tag}-{ranks}")
                launcher = [mpiexec, "-n", "2"] if ranks == 2 else []
                r = subprocess.run(launcher + [prog, "run", inp, "-o", out, "-quiet"], capture_output=True, text=True)
                if r.returncode:
                    fails.append(f"{tag}: run on {ranks} rank(s) failed:\n{r.stdout}{r.stderr}")
                    break
                res = Results(out)
                runs[ranks] = (res.history("explicit/energy"), res.array("explicit/final/displacement"),
                               res.array("explicit/contact_nodes/floor/weight"), res.attrs("explicit"))
            if len(runs) < 2:
                continue
            e, u, w, attrs = runs[1]
            ke0 = 0.5 * RHO * vol * v0 @ v0
            t_end = e["time"][-1]
            checks = [
                ("kinetic energy at t = 0", e["kinetic"][0], ke0, 1e-12),
                ("sum of the bottom's contact weights", np.sum(w), bottom, 1e-12),
                ("end time", t_end, end, 1e-12),
            ]
            for what, value, want, tol in checks:
                if abs(value - want) > tol * abs(want):
                    fails.append(f"{tag}: {what} {value!r}, expected {want!r} (relative {abs(value - want) / abs(want):.3g} > {tol:g})")
            dev = np.max(np.abs(u - v0 * t_end)) / (np.linalg.norm(v0) * t_end)
            if dev > 1e-12 or np.max(np.abs(e["internal"])) > 1e-20:
                fails.append(f"{tag}: not a rigid translation: displacement off by {dev:.3g}, internal energy {np.max(np.abs(e['internal'])):.3g} J")
            e2, u2, _, _ = runs[2]
            d2 = max(abs(e2["kinetic"][0] - e["kinetic"][0]) / ke0, np.max(np.abs(u2 - u)) / (np.linalg.norm(v0) * t_end))
            if d2 > 1e-12:
                fails.append(f"{tag}: 2 ranks differ from 1 by {d2:.3g}")
            print(f"{tag}: Gmsh types {sorted(got)}, {attrs['elements']} elements, {attrs['nodes']} nodes; volume "
                  f"{2 * e['kinetic'][0] / (RHO * v0 @ v0):.15g} (geometry {vol}), bottom {np.sum(w):.15g} (geometry {bottom}), "
                  f"translation {dev:.2g}, 2 ranks {d2:.2g}")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
