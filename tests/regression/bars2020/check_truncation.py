"""Paper eq. 29 and Fig. 7: block load, mu N = 10, 0.9 N (225) versus N (250) modes. delta(x, t) =
|u_225 - u_250| / |u_250| must be below 1 % once the first wave has arrived: at x from t_front(x) + t_block on, where
t_front is when |u_250(x, .)| first exceeds 1 % of its maximum over the horizon and t_block = 1 ms is the block
duration (the whole front has passed). Bar 1 entire, bar 2 on its upper half z <= 10 m (as in the paper: the final
wave front has just passed half of bar 2). Where |u_250| drops below 20 % of the bar's maximum at that time the ratio
measures a near-zero denominator, not truncation (the paper notes the same for the arrival); those samples are
reported but not held to 1 %. At the final time (eq. 29 proper) the paper reports < 0.1 %: checked at 0.1 %.
Usage: check_truncation.py RUN_0.9N RUN_N."""
import sys
import numpy as np
from postproc import bars2020 as B

c, f = B.load(sys.argv[1]), B.load(sys.argv[2])
t_block = 1e-3
bad = []
for bar, xmax in (("bar1", None), ("bar2", 10.0)):
    key = bar + "_u"
    A, U, x, t = B._on_times(c, f, key), f[key], f[bar + "_x"], f["t"]
    sel = np.ones(len(x), bool) if xmax is None else x <= xmax + 1e-12
    A, U = A[:, sel], U[:, sel]
    front = np.argmax(np.abs(U) >= 0.01 * np.abs(U).max(axis=0), axis=0)
    arrived = t[:, None] >= t[front][None, :] + t_block
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.abs(A - U) / np.abs(U)
    d[~arrived] = np.nan
    small = np.abs(U) < 0.2 * np.abs(U).max(axis=1, keepdims=True)
    dd = np.where(small, np.nan, d)
    final = np.nanmax(np.abs(A[-1] - U[-1]) / np.abs(U[-1]))
    print("%s: max delta after arrival %.2e (%.2e including near-zero |u|), 99.9th percentile %.2e, at the final time %.2e"
          % (bar, np.nanmax(dd), np.nanmax(d), np.nanpercentile(d, 99.9), final))
    if not np.nanmax(dd) < 0.01:
        bad.append(bar + " after arrival")
    if not final < 1e-3:
        bad.append(bar + " final time")
print("FAILED: " + ", ".join(bad) if bad else "eq. 29 truncation criterion met")
sys.exit(1 if bad else 0)
