"""mu N = 100 agrees with the linear equivalent model (section 2.3), harmonic load: relative L2 difference of
displacement and velocity of both bars over the horizon, on the 81-point field grids, below 2 % (the acceptance bound, docs/design.md).
Usage: check_linear.py FRICTION_RUN LINEAR_RUN (FRICTION_RUN: inputs/bars2020/harmonic-muN100-fine.xml).

Measured (docs/validation/bars2020.md): 0.6 % (u1), 0.6 % (v1), 1.1 % (u2), 1.7 % (v2). What separates the two models
is physics, not the solver (check_fd_reference.py): exact Coulomb friction at mu N = 100 slips where the bars exchange
force at the overlap ends (0.4 / 0.5 / 0.8 / 1.3 % from the bonded model), and Threlfall's law adds creep that grows
with v95, which eq. 7 ties to dt (1.6 % in v2 at dt = 1 us, 2.0 % at 2 us, 6.3 % at the paper's 16 us, each solved
exactly). The friction force is evaluated at the end-of-step relative velocity (friction_update="implicit"); the
paper's start-of-step evaluation chatters where the bars stick and adds ~1 % in v1 at dt = 2 us.
Bar 2 is compared over its upper half z <= u0 = 10 m, which the wave reaches at 2 ms; the lower half is reached only
after ~7 ms (the paper's Fig. 7 likewise uses the upper half)."""
import sys
from postproc import bars2020 as B

fr, lin = B.load(sys.argv[1]), B.load(sys.argv[2])
u0 = lin["attrs"]["overlap0"]
checks = [("bar1_u", None, 0.02), ("bar1_v", None, 0.02), ("bar2_u", u0, 0.02), ("bar2_v", u0, 0.02)]
bad = []
for key, xmax, tol in checks:
    r = B.rel_l2(fr, lin, key, xmax=xmax)
    print("%s%s: relative L2 difference %.4f (tolerance %.2f)" % (key, "" if xmax is None else " (z <= %g m)" % xmax, r, tol))
    if not r < tol:
        bad.append(key)
for key in ("bar2_u", "bar2_v"):
    print("for information, %s over the whole bar: %.4f" % (key, B.rel_l2(fr, lin, key)))
print("FAILED: " + ", ".join(bad) if bad else "mu N = 100 agrees with the linear equivalent model")
sys.exit(1 if bad else 0)
