#!/usr/bin/env python3
"""Zero-energy modes of reduced Gauss rules on B-spline patches: the groundwork for a reduced quadrature of the internal
force of patches (docs/benchmarks.md, "The p = 3 patch force: two more rewrites that did not pay, and the reduced rule").

An independent model, not the solver's kernel: the linear-elastic stiffness (E = 1, nu = 0.3) of a B-spline patch of
degree P on the unit square/cube with open uniform knots (C^(P-1) between spans) and n_d spans per direction, integrated
with m_d Gauss points per span in direction d, assembled with numpy; its eigenvalues below 1e-10 of the largest are
counted as zero. The full rule (m = P + 1) must give exactly the rigid-body modes (3 in 2D, 6 in 3D): the script checks
that and fails otherwise. A count above the rigid-body modes is a spurious (hourglass) mode of the rule on that patch.
Prints one line per patch and, last,
  RESULT iga_reduced_modes p=P dim=D rule=m0xm1[xm2]:worst_spurious ...
(worst_spurious: the most zero modes beyond the rigid ones over the patches given).

Usage: iga_reduced_modes.py [--degree P] [--dim D] [--rules 4x4x4,3x3x3,4x4x3] [--spans 1x1x1,2x2x2,...]"""
import argparse
import itertools
import sys

import numpy as np


def tables(p, n, m):
    """Values N[s, g, a] and derivatives D[s, g, a] of the p + 1 B-splines nonzero on span s at its m Gauss points, and
    the Gauss weights W[s, g] times the span length (Cox-de Boor on the open uniform knot vector of n spans on [0, 1])."""
    knots = np.concatenate([np.zeros(p), np.linspace(0, 1, n + 1), np.ones(p)])
    xg, wg = np.polynomial.legendre.leggauss(m)
    N, D, W = np.zeros((n, m, p + 1)), np.zeros((n, m, p + 1)), np.zeros((n, m))

    def ratio(num, den):
        return num / den if den > 0 else 0.0

    for s in range(n):
        lo, hi, i = knots[p + s], knots[p + s + 1], p + s
        for g in range(m):
            x = lo + (hi - lo) * (xg[g] + 1) / 2
            W[s, g] = wg[g] * (hi - lo) / 2
            levels = [np.array([1.0])]  # degree k: the k + 1 B-splines i - k .. i
            for k in range(1, p + 1):
                prev, cur = levels[-1], np.zeros(k + 1)
                for j in range(k + 1):
                    r = i - k + j
                    if j > 0:
                        cur[j] += ratio(x - knots[r], knots[r + k] - knots[r]) * prev[j - 1]
                    if j < k:
                        cur[j] += ratio(knots[r + k + 1] - x, knots[r + k + 1] - knots[r + 1]) * prev[j]
                levels.append(cur)
            N[s, g], prev = levels[p], levels[p - 1]
            for j in range(p + 1):
                r = i - p + j
                D[s, g, j] = (p * ratio(prev[j - 1], knots[r + p] - knots[r]) if j > 0 else 0.0) - (
                    p * ratio(prev[j], knots[r + p + 1] - knots[r + 1]) if j < p else 0.0)
    return N, D, W


def stiffness(p, spans, rule, nu=0.3):
    dim = len(spans)
    lam, mu = nu / ((1 + nu) * (1 - 2 * nu)), 1 / (2 * (1 + nu))
    tab = [tables(p, spans[d], rule[d]) for d in range(dim)]
    ncp = [spans[d] + p for d in range(dim)]
    K = np.zeros((dim * int(np.prod(ncp)),) * 2)
    for span in itertools.product(*[range(n) for n in spans]):
        ids = np.ravel_multi_index(np.meshgrid(*[np.arange(span[d], span[d] + p + 1) for d in range(dim)], indexing="ij"), ncp).ravel()
        dofs = (ids[:, None] * dim + np.arange(dim)).ravel()
        for g in itertools.product(*[range(m) for m in rule]):
            w = np.prod([tab[d][2][span[d], g[d]] for d in range(dim)])
            grad = []
            for k in range(dim):
                gk = np.ones(1)
                for d in range(dim):
                    gk = np.multiply.outer(gk, tab[d][1 if d == k else 0][span[d], g[d]])
                grad.append(gk.ravel())
            G = np.array(grad)  # dim x nen: dN_A/dx_k
            nen = G.shape[1]
            Ke = np.zeros((nen, dim, nen, dim))
            for i in range(dim):
                for j in range(dim):
                    Ke[:, i, :, j] += lam * np.outer(G[i], G[j]) + mu * np.outer(G[j], G[i])
                Ke[:, i, :, i] += mu * (G.T @ G)
            K[np.ix_(dofs, dofs)] += w * Ke.reshape(nen * dim, nen * dim)
    return K


def zero_modes(p, spans, rule):
    ev = np.linalg.eigvalsh(stiffness(p, spans, rule))
    return int(np.sum(ev < 1e-10 * ev[-1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--degree", type=int, default=3)
    ap.add_argument("--dim", type=int, default=3)
    ap.add_argument("--rules", default="4x4x4,3x3x3,4x4x3")
    ap.add_argument("--spans", default="1x1x1,2x2x2,1x1x4,1x2x3,2x2x1,3x3x3")
    a = ap.parse_args()
    rigid = 3 if a.dim == 2 else 6
    rules = [tuple(int(c) for c in r.split("x")) for r in a.rules.split(",")]
    patches = [tuple(int(c) for c in s.split("x")) for s in a.spans.split(",")]
    if any(len(r) != a.dim for r in rules + patches):
        sys.exit("FAIL: every rule and patch needs %d factors" % a.dim)
    worst = {r: 0 for r in rules}
    for spans in patches:
        counts = {r: zero_modes(a.degree, spans, r) for r in rules}
        for r, c in counts.items():
            worst[r] = max(worst[r], c - rigid)
            if all(m == a.degree + 1 for m in r) and c != rigid:  # the full rule is exact: rigid modes only
                sys.exit("FAIL: full rule %s on %s spans has %d zero modes, not %d" % (r, spans, c, rigid))
        print("p = %d, %s spans: zero modes (rigid: %d) " % (a.degree, "x".join(map(str, spans)), rigid)
              + ", ".join("%s points: %d" % ("x".join(map(str, r)), c) for r, c in counts.items()), flush=True)
    print("RESULT iga_reduced_modes p=%d dim=%d " % (a.degree, a.dim) + " ".join("rule=%s:%d" % ("x".join(map(str, r)), worst[r]) for r in rules))


if __name__ == "__main__":
    main()
