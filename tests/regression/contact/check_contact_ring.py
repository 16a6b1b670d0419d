"""Runs a block sliding inside a rigid ring or cylinder (inputs/explicit/contact_ring.xml, contact_ring3d.xml: Coulomb
mu = 0.3, no gravity, rigid rotation omega0 = 1 rad/s about the axis at the start) and checks the braking law of a rigid
block, omega = omega0 / (1 + beta omega0 t), and the energy balance.

usage: check_contact_ring.py PROGRAM INPUT"""
import math
import sys

import numpy as np

from contact_run import run_histories

R, B, H, MU, OMEGA0 = 1.0, 0.05, 0.025, 0.3, 1.0  # ring radius, block width and height (m), friction, rad/s


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    h = run_histories(prog, inp, ["/explicit/set/all", "/explicit/energy", "/explicit/contact/ring"])
    s, e, c = h["/explicit/set/all"], h["/explicit/energy"], h["/explicit/contact/ring"]
    t = s["time"]
    u = np.stack([s["mean_u_x"], s["mean_u_y"]], axis=1)
    v = np.stack([s["mean_v_x"], s["mean_v_y"]], axis=1)
    bal, kin, wc, diss = e["balance"], e["kinetic"], e["work_ring"], c["dissipation"]
    # the mass centre (the mean of the nodes of the uniform grid) and its angular velocity about the axis (through the
    # origin): omega = (x cross v) / |x|^2
    theta = math.asin(B / 2 / R)  # half the angle of the chord between the two outer corners
    rc = R * math.cos(theta) - H / 2
    x = np.array([0.0, -rc]) + u
    omega = (x[:, 0] * v[:, 1] - x[:, 1] * v[:, 0]) / np.sum(x * x, axis=1)
    # Rigid block (closed form): I_O omega' = -mu S R, I_O = m (r_c^2 + k^2), k^2 = (b^2 + h^2) / 12, S the sum of the
    # normal forces at the corners A (trailing) and B (leading). The tangential balance m r_c omega' =
    # (N_A - N_B) sin(theta) - mu S cos(theta) loads B more, N_A - N_B = -mu S c1 / sin(theta), c1 = r_c R / (r_c^2 + k^2)
    # - cos(theta), and the radial one, m omega^2 r_c = S cos(theta) + mu sin(theta) (N_A - N_B), then gives
    # S = m omega^2 r_c / (cos(theta) - mu^2 c1); so beta = mu R r_c / ((r_c^2 + k^2) (cos(theta) - mu^2 c1)).
    k2 = (B * B + H * H) / 12
    c1 = rc * R / (rc * rc + k2) - math.cos(theta)
    beta = MU * R * rc / ((rc * rc + k2) * (math.cos(theta) - MU * MU * c1))
    # 1 / omega - 1 / omega0 = beta t: fit over the run (least squares through the origin)
    y = 1 / omega - 1 / OMEGA0
    beta_run = np.dot(y, t) / np.dot(t, t)
    dev = abs(beta_run / beta - 1)
    fails = []
    # Tolerance: the closed form is for a rigid block with both corners on the ring. The lumped masses at the nodes of
    # the 4 x 2 grid give k^2 = 3.1e-4 m^2 instead of 2.6e-4 (5e-5 of I_O); the elastic block (E = 1e8 Pa) and the
    # penalty (1e8 Pa/m) move the corners by ~1e-6 m (the centripetal load is ~1 N); the radial penalty bounce started
    # from zero contact force averages out of the mean normal force. Measured 6e-5 (2D and 3D; 1.5e-2 with a linear
    # elastic block, whose linear strain is not invariant under the ~1 rad rotation); bound 5e-4.
    if dev > 5e-4:
        fails.append(f"braking rate beta {beta_run:.6g} 1/rad vs rigid-block closed form {beta:.6g} ({dev:.3g} relative)")
    # energy: kinetic energy lost = dissipated by friction (contact work), balance closes to 1e-3 of the initial kinetic
    drift = np.max(np.abs(bal - bal[0])) / kin[0]
    if drift > 1e-3:
        fails.append(f"energy balance drift {drift:.3g} of the initial kinetic energy > 1e-3")
    # the dissipation independently of the balance (which holds for any friction force): no gravity, no other load,
    # so the friction dissipates the kinetic energy lost (1/2 v^T M v, from the velocities, and held to the closed-form
    # braking law above), but for the elastic, penalty and stick-spring energy at the end (~1e-8 J). Measured 1.3e-5
    # (2D) and 8.5e-6 (3D) relative; bound 1e-3. Mutation tried: the pair's dissipation increment 1 % too large
    # (src/contact/contact_pair.c): fails; reverted.
    lost = kin[0] - kin[-1]
    if abs(diss[-1] - diss[0] - lost) > 1e-3 * lost:
        fails.append(f"dissipation {diss[-1] - diss[0]:.6g} J vs kinetic energy lost {lost:.6g} J")
    print(f"beta run {beta_run:.8g}, closed form {beta:.8g}, relative {dev:.3g}; omega(T) {omega[-1]:.6g} rad/s; "
          f"energy drift {drift:.3g}; dissipation {diss[-1]:.6g} J, contact work {wc[-1]:.6g} J")
    if fails:
        sys.exit("FAIL: " + "; ".join(fails))


if __name__ == "__main__":
    main()
