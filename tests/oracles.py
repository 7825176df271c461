"""Brute-force oracles for the optimal-tree solvers, written independently of glassworks' engines.

Plain Python, exhaustive: the optimum over *all* binary trees on the given binary features (optionally with a depth
limit), by the recursion  f(S, d) = min( leaf(S), min_j f(S ∩ {x_j=0}, d-1) + f(S ∩ {x_j=1}, d-1) )  over features
that split S into two non-empty parts. No bounds, no pruning; memoised on (frozenset of rows, depth) only so that
small instances finish. Use on n <= ~40 rows and <= ~6 features.
"""
from functools import lru_cache
import numpy as np


def _solve(X, leaf_cost, max_depth):
    n, m = X.shape
    cols = [frozenset(np.flatnonzero(X[:, j] == 1).tolist()) for j in range(m)]

    @lru_cache(maxsize=None)
    def f(S, d):
        best = (leaf_cost(S), ('leaf', S))
        if d == 0 or len(S) < 2:
            return best
        for j in range(m):
            right = S & cols[j]
            left = S - right
            if not left or not right:
                continue
            cl, tl = f(left, d - 1)
            cr, tr = f(right, d - 1)
            if cl + cr < best[0] - 1e-12:
                best = (cl + cr, ('split', j, tl, tr))
        return best

    depth = max_depth if max_depth is not None else m + 1
    return f(frozenset(range(n)), depth)


def n_leaves(t):
    return 1 if t[0] == 'leaf' else n_leaves(t[2]) + n_leaves(t[3])


def brute_classification(X, y, lam, max_depth=None, sample_weight=None):
    """Optimal (misclassified weight / total weight) + lam * leaves. Returns (objective, tree)."""
    X, y = np.asarray(X), np.asarray(y)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    total = w.sum()
    labels = np.unique(y)

    def leaf(S):
        idx = list(S)
        if not idx:
            return lam
        per = [w[idx][y[idx] == c].sum() for c in labels]
        return (w[idx].sum() - max(per)) / total + lam

    return _solve(X, leaf, max_depth)


def _sae(y, w):
    "Smallest weighted sum of absolute deviations over all constants (the minimum is at a data point)."
    return min(float(np.sum(w * np.abs(y - c))) for c in y)


def brute_regression(X, y, lam, max_depth=None, sample_weight=None, metric='l2'):
    """Optimal loss/loss(root) + lam * leaves, loss = weighted SSE around the mean (l2) or weighted SAE around the
    best constant (l1). Returns (objective, tree)."""
    X, y = np.asarray(X), np.asarray(y, float)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    if metric == 'l2':
        mu = np.sum(w * y) / w.sum()
        norm = np.sum(w * (y - mu) ** 2)
    else:
        norm = _sae(y, w)

    def leaf(S):
        idx = list(S)
        if not idx:
            return lam
        ww, yy = w[idx], y[idx]
        if ww.sum() == 0:
            return lam
        if metric == 'l1':
            return _sae(yy, ww) / norm + lam
        m = np.sum(ww * yy) / ww.sum()
        return float(np.sum(ww * (yy - m) ** 2)) / norm + lam

    return _solve(X, leaf, max_depth)
