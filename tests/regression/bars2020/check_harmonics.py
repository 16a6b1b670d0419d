"""Paper Fig. 6: with mu N = 1 under the harmonic load (1000 rad/s), bar 2 responds at the odd harmonics of
the load (friction ~ muN sgn(dv) is odd in the relative velocity). Amplitudes of bar 2's velocity at z = 2.5 m at
k * 1000 rad/s by least squares over 0.03-0.1 s (postproc.bars2020.harmonic_amplitudes). Measured (docs/validation/
bars2020.md): A3/A1 = 0.093, A5/A1 = 0.030 against even A2, A4, A6 <= 0.006; for mu N = 100 (no sliding) A3/A1 = 0.004.
Checked: A3 > 5 max(A2, A4) and A5 > 3 max(A4, A6) and A3 > 0.03 (margins of ~3x and ~2x on the measurements).
Usage: check_harmonics.py RUN."""
import sys
from postproc import bars2020 as B

r = B.load(sys.argv[1])
if r["t"][-1] < 0.03 + 4 * 2 * 3.141592653589793 / 1000:
    sys.exit("FAILED: the run ends at %g s; this check needs the 0.1 s horizon of harmonic-muN1-long.xml" % r["t"][-1])
a = B.harmonic_amplitudes(r, z=2.5, tmin=0.03)
print("bar 2 velocity at z = 2.5 m, harmonic amplitudes / fundamental: " + " ".join("%d: %.4f" % kv for kv in a.items()))
ok = a[3] > 5 * max(a[2], a[4]) and a[5] > 3 * max(a[4], a[6]) and a[3] > 0.03
print("odd harmonics dominate" if ok else "FAILED: odd harmonics do not dominate")
sys.exit(0 if ok else 1)
