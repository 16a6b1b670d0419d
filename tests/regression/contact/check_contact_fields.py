#!/usr/bin/env python3
"""VTK point data of contact (docs/output.md) on the patch test inputs/explicit/contact_patch.xml: every .vtu of the run has
contact_pressure (1 component, Pa), contact_traction (vector), contact_stick (integer 0/1) and contact_state (friction
state); off the contact face (y > 0) all are exactly zero; on it the pressure is uniform to 1e-6 relative (every node of
a row moves alike, so only round-off separates them: measured 4e-12 to 1.8e-10, the latter at 1.7 Pa as the block lifts off) at every output with contact, and the resting
block sticks there.

Usage: check_contact_fields.py STICKSLIP INPUT.xml [mpiexec -n N]"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

TOL = 1e-6  # relative spread of the pressure over the contact face (a patch test: uniform to round-off)


def read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    if g is None or g.GetNumberOfPoints() == 0:
        sys.exit("FAIL: cannot read %s" % path)
    pd = g.GetPointData()
    arrays = {}
    for name in ("contact_pressure", "contact_traction", "contact_stick", "contact_state"):
        a = pd.GetArray(name)
        if a is None:
            sys.exit("FAIL: %s has no point array %s" % (path, name))
        arrays[name] = vtk_to_numpy(a).reshape(g.GetNumberOfPoints(), -1)
    if arrays["contact_pressure"].shape[1] != 1 or not np.issubdtype(arrays["contact_stick"].dtype, np.integer):
        sys.exit("FAIL: %s: contact_pressure must have 1 component and contact_stick be integer" % path)
    return vtk_to_numpy(g.GetPoints().GetData()), arrays


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    launcher = sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(launcher + [prog, "run", inp, "-quiet", "-o", tmp], capture_output=True, text=True)
        if r.returncode:
            sys.exit("FAIL: run failed\n" + r.stdout + r.stderr)
        files = [d.get("file") for d in ET.parse(os.path.join(tmp, "fields.pvd")).getroot().iter("DataSet")]
        steps = {}
        for f in files:  # one piece per rank and output time: gather the pieces by file name stem
            steps.setdefault(f.split("_p")[0] if "_p" in f else f, []).append(f)
        with_contact = 0
        for key in sorted(steps):
            X, A = [], {}
            for piece in steps[key]:
                x, a = read(os.path.join(tmp, piece))
                X.append(x)
                for k, v in a.items():
                    A.setdefault(k, []).append(v)
            X = np.vstack(X)
            A = {k: np.vstack(v) for k, v in A.items()}
            face = X[:, 1] == 0.0
            for k, v in A.items():
                if np.any(v[~face] != 0):
                    sys.exit("FAIL: %s: %s nonzero off the contact face (max %g)" % (key, k, np.abs(v[~face]).max()))
            p = A["contact_pressure"][face, 0]
            if p.max() > 0:
                with_contact += 1
                spread = (p.max() - p.min()) / p.mean()
                if spread > TOL:
                    sys.exit("FAIL: %s: contact pressure not uniform: %s (spread %g > %g)" % (key, p, spread, TOL))
                if np.any(A["contact_stick"][face] != 1):
                    sys.exit("FAIL: %s: the resting block does not stick everywhere: %s" % (key, A["contact_stick"][face].ravel()))
                print("%s: pressure %.10g Pa on %d nodes, spread %.3g" % (key, p.mean(), len(p), spread))
        if with_contact < 2:
            sys.exit("FAIL: only %d outputs with contact" % with_contact)
        print("ok: %d outputs, %d with contact, fields zero off the face and the pressure uniform" % (len(steps), with_contact))


if __name__ == "__main__":
    main()
