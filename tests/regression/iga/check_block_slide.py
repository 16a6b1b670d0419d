#!/usr/bin/env python3
"""A NURBS block sliding with Coulomb friction on a rigid plane (inputs/explicit/iga_block_slide.xml; contact on a patch
face with weighted gaps and velocities): the rigid-block closed forms with the input's gravity ramp (smoothstep over T),
stopping distance v0^2 / (2 mu g) + v0 T / 2 - mu g T^2 / 40 and dissipated energy M v0^2 / 2, each to 1 %, and the
total contact reaction equal to the weight M g while it slides and once it rests.
Usage: check_block_slide.py STICKSLIP INPUT"""
import subprocess
import sys
import tempfile

import h5py
import numpy as np

V0, MU, G, T, M = 1.0, 0.3, 10.0, 0.05, 1000.0 * 0.2 * 0.05


def main():
    prog, inp = sys.argv[1:3]
    cmd = [prog, "run", inp, "-quiet"]
    if len(sys.argv) > 3:
        cmd = [sys.argv[3], "-n", "2", "--oversubscribe"] + cmd
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(cmd + ["-o", tmp + "/out"], capture_output=True, text=True)
        if r.returncode:
            sys.exit("FAIL: %s\n%s%s" % (inp, r.stdout, r.stderr))
        with h5py.File(tmp + "/out/results.h5", "r") as f:
            c, w = f["/explicit/contact/slide"][()], f["/explicit/watch/centre"][()]
            cols = [x.decode() if isinstance(x, bytes) else str(x) for x in f["/explicit/contact/slide"].attrs["columns"]]
    fails = []
    d0 = V0**2 / (2 * MU * G) + V0 * T / 2 - MU * G * T**2 / 40
    t_stop = V0 / (MU * G) + T / 2
    dist = w[-1, 1]  # the centre point of the block: its mass centre, up to the elastic strain (~1e-6 m)
    if abs(dist / d0 - 1) > 0.01:  # the required bound (docs/design.md); measured 1e-6
        fails.append(f"stopping distance {dist:.6g} m, expected {d0:.6g} m")
    diss = c[-1, cols.index("dissipation")]
    if abs(diss / (0.5 * M * V0**2) - 1) > 0.01:  # measured 4e-5 (the rest is elastic energy of the block)
        fails.append(f"dissipation {diss:.6g} J, expected M v0^2 / 2 = {0.5 * M * V0**2:.6g} J")
    # the weight after the ramp: in statics exactly M g; the ramp leaves vibrations of the penalty mode
    # (omega = sqrt(eps_N L / M) = 5657 1/s) of relative amplitude ~12 / (omega T)^2 = 1.5e-4, and the friction starting
    # at t = 0 and stopping at t_stop (a jump of mu M g at the bottom face) rocks the block: measured 7.7e-4; 2e-3
    sliding, resting = (c[:, 0] > 1.2 * T) & (c[:, 0] < t_stop - 0.01), c[:, 0] > t_stop + 0.01
    for name, sel in (("sliding", sliding), ("resting", resting)):
        dev = np.abs(c[sel, 1] / (M * G) - 1).max()
        if not sel.any() or dev > 2e-3:
            fails.append(f"{name}: the normal force deviates from the weight by {dev:.3g} (relative) > 2e-3")
    msg = (f"stopping distance {dist:.7g} m (closed form {d0:.7g}), dissipation {diss:.6g} J (closed form "
           f"{0.5 * M * V0**2:.6g}), normal force {c[sliding, 1].min():.5g} .. {c[sliding, 1].max():.5g} N sliding, "
           f"{c[resting, 1].min():.5g} .. {c[resting, 1].max():.5g} N resting (weight {M * G:.5g})")
    print(msg)
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))
    print("ok")


if __name__ == "__main__":
    main()
