"""Real ParaView on the field output of NURBS patch runs (rational Bezier cells, VTK types 77 and 79): the quarter
annulus iga_annulus.xml (2D, p = 2, 2 x 3 elements) on 1 and 2 MPI ranks and the cylinder section iga_cylinder.xml
(3D, p = 2, 2 x 3 x 1 elements) on 1 rank, each opened by `xvfb-run -a pvbatch iga_cells_pvd.py` (ParaView 5.11).
Checked on what ParaView reports:

  1. time steps: the distinct times of the .pvd (5 frames: 0 to 2e-4 s every 5e-5 s);
  2. cells: 6, all of type 77 (2D) or 79 (3D), degrees 2 (HigherOrderDegrees), 9 or 27 points each (6 x 9 = 54 or
     6 x 27 = 162 on one rank: every cell has its own Bezier points, no control point is shown); arrays displacement,
     velocity (3 components), RationalWeights (1) on the points, cauchy_stress (9), von_mises, block_id, rank (1),
     HigherOrderDegrees (3) on the cells;
  3. the cells are curved exactly: every point VTK evaluates on a radial face of a cell (5 x 5 parametric grid: the
     cell's corners, edge points and interior face points, also on the vertical edges of the hexahedra) lies at the
     radius of that face, 0.5, 0.75 or 1 m, within 1e-9 m (the rational quadratic represents the circle exactly:
     round-off and VTK's evaluation, measured 2e-16). A cell drawn with straight sides between its corners would be
     off by up to r (1 - cos(15 deg)) = 0.034 m at r = 1 (the 3 elements span 30 degrees each). Mutations measured to
     fail: RationalWeights written as 1 (explicit_output.c; the cells are then polynomial Bezier: 7.3e-4 m off, fields
     2e-3 off), the vertical-edge order of SKBezierVTKPointIndex() (bezier.c) switched to corners 0, 1, 2, 3 (VTK then
     swaps two edges of every hexahedron: 0.125 m off);
  4. the fields on the cells: the displacement and velocity that VTK interpolates at the watch point p (located by
     VTK's own inversion of the curved cell) equal the watch history of results.h5 at the last frame (the same
     rational field, evaluated by the solver) within 1e-8 of the largest value (VTK's inversion of the cell stops at
     a tolerance of its own; measured 6e-16 here, while polynomial instead of rational cells are 2e-3 off);
  5. the PNG of the last frame is 640 x 360 and shows a coloured field (more than 20 distinct colours).

usage: check_iga_cells.py PROGRAM MPIEXEC PVBATCH PVPYTHON"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

from postproc.results import Results

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_paraview import pvbatch_run  # noqa: E402

SRC = os.path.abspath(os.environ.get("SK_SOURCE_DIR", "."))
HERE = os.path.join(SRC, "tests", "regression", "paraview")
RADII = np.array([0.5, 0.75, 1.0])
CASES = [("iga_annulus.xml", 2, 1, [0.6, 0.6]), ("iga_annulus.xml", 2, 2, [0.6, 0.6]), ("iga_cylinder.xml", 3, 1, [0.6, 0.6, 0.2])]


def main():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image

    prog, mpiexec, pvbatch, pvpython = sys.argv[1:5]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = pvpython
    script = os.path.join(HERE, "iga_cells_pvd.py")
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, dim, ranks, probe in CASES:
            tag = f"{name} on {ranks} rank(s)"
            out = os.path.join(tmp, f"{dim}d_np{ranks}")
            launcher = [mpiexec, "-n", str(ranks)] if ranks > 1 else []
            subprocess.run(launcher + [prog, "run", os.path.join(HERE, name), "-o", out, "-quiet"], check=True, stdout=subprocess.DEVNULL)
            pvd, png, js = os.path.join(out, "fields.pvd"), out + ".png", out + ".json"
            r = pvbatch_run(pvbatch, [script, pvd, png, js] + [str(v) for v in probe], env)
            if r.returncode or not os.path.exists(js):
                fails.append(f"{tag}: pvbatch failed (rc {r.returncode}):\n{r.stdout}{r.stderr}")
                continue
            seen = json.load(open(js))
            # 1. time steps
            listed = sorted({float(d.get("timestep")) for d in ET.parse(pvd).getroot().iter("DataSet")})
            if seen["times"] != listed or len(listed) != 5 or abs(listed[-1] - 2e-4) > 1e-15:
                fails.append(f"{tag}: ParaView sees the times {seen['times']}, the .pvd lists {listed}; expected 5 from 0 to 2e-4 s")
            # 2. cells and arrays
            npc = 3**dim
            want_type = 77 if dim == 2 else 79
            if seen["cells"] != 6 or seen["types"] != [want_type] or (ranks == 1 and seen["points"] != 6 * npc):
                fails.append(f"{tag}: {seen['cells']} cells of types {seen['types']}, {seen['points']} points; "
                             f"expected 6 of type {want_type} with {6 * npc} points")
            if not seen["degrees"] or any(d[:dim] != [2.0] * dim for d in seen["degrees"]):
                fails.append(f"{tag}: HigherOrderDegrees {seen['degrees']}")
            expected = {"displacement": ("point", 3), "velocity": ("point", 3), "RationalWeights": ("point", 1),
                        "cauchy_stress": ("cell", 9), "von_mises": ("cell", 1), "block_id": ("cell", 1), "rank": ("cell", 1),
                        "HigherOrderDegrees": ("cell", 3)}
            for a, (assoc, n) in expected.items():
                got = seen["arrays"].get(a)
                if not got or (got["association"], got["components"]) != (assoc, n):
                    fails.append(f"{tag}: array {a}: ParaView sees {got}, expected {(assoc, n)}")
            # 3. exact circles
            worst = 0.0
            for side in seen["radii"]:
                r = np.array(side)
                nearest = RADII[np.argmin(np.abs(RADII[:, None] - r[None, :]), axis=0)]
                worst = max(worst, np.max(np.abs(r - nearest)), np.ptp(r))  # one radius per face: spread 0 too
            if worst > 1e-9:
                fails.append(f"{tag}: points on the radial faces of the cells are {worst:.3g} m off the circles (tolerance 1e-9 m)")
            # 4. fields at the watch point
            h = Results(out).history("explicit/watch/p")
            res = seen["probe"]
            if res["cell"] < 0:
                fails.append(f"{tag}: VTK does not find the watch point {probe} in the cells")
                err = float("nan")
            else:
                err = 0.0
                for f, cols in (("displacement", "u"), ("velocity", "v")):
                    want = np.array([h[f"{cols}_{c}"][-1] for c in "xyz"[:dim]])
                    got = np.array(res[f][:dim])
                    e = np.max(np.abs(got - want)) / np.max(np.abs(want))
                    err = max(err, e)
                    if e > 1e-8 or abs(h["time"][-1] - 2e-4) > 1e-15:
                        fails.append(f"{tag}: {f} at the watch point: VTK {got}, results.h5 {want} (relative {e:.3g}, tolerance 1e-8)")
            # 5. the picture
            img = matplotlib.image.imread(png)
            colours = len(np.unique((img[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0))
            if img.shape[:2] != (360, 640) or colours <= 20:
                fails.append(f"{tag}: PNG {img.shape}, {colours} distinct colours")
            print(f"{tag}: {len(seen['times'])} times, {seen['cells']} cells of type {seen['types']}, {seen['points']} points, "
                  f"radius error {worst:.3g} m, watch point field error {err:.3g}, PNG {colours} colours")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
