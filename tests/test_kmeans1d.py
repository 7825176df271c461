"""Property tests of glassworks.kmeans1d against independent brute-force solvers written here."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, HealthCheck, strategies as st

from glassworks.kmeans1d import (kmeans1d, kmeans1d_costs, kmeans1d_costs_nb, kmeans_penalized, kmeans_penalized_nb,
                                 class_correction, constrained_kmeans_costs, kmeans_eq_bound, prefix_sums,
                                 cluster_cost, fill_row_quadratic, fill_row_dc)
from glassworks.validation import InputError, ParameterError

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- independent reference solvers
def group_cost(x, w):
    "Weighted squared deviation from the weighted mean, the textbook way (two passes)."
    x, w = np.asarray(x, float), np.asarray(w, float)
    if len(x) == 0:
        return 0.0
    m = (w * x).sum() / w.sum()
    return float((w * (x - m) ** 2).sum())


def brute_partitions(x, w, k):
    "Best cost over all cuts of the sorted data into k non-empty contiguous runs."
    o = np.argsort(x, kind="stable")
    xs, ws, n = np.asarray(x, float)[o], np.asarray(w, float)[o], len(x)
    best = np.inf
    for cuts in itertools.combinations(range(1, n), k - 1):
        b = (0, *cuts, n)
        best = min(best, sum(group_cost(xs[b[t]:b[t + 1]], ws[b[t]:b[t + 1]]) for t in range(k)))
    return best


def brute_assignments(x, w, k):
    "Best cost over all maps of the points onto exactly k non-empty labels (no sorting, no contiguity assumed)."
    x, w = np.asarray(x, float), np.asarray(w, float)
    x = x - x.mean()                                     # centre once so the sums below do not cancel
    labs = np.array(list(itertools.product(range(k), repeat=len(x))))
    total = np.zeros(len(labs))
    ok = np.ones(len(labs), bool)
    for c in range(k):
        m = (labs == c).astype(float)
        wc, sc, qc = m @ w, m @ (w * x), m @ (w * x * x)
        ok &= wc > 0
        total += np.where(wc > 0, qc - sc ** 2 / np.where(wc > 0, wc, 1.0), 0.0)
    return float(total[ok].min())


def reference_cost_table(xs, ws):
    "All WkM(1..n) by a plain O(k n^2) DP written independently of the package (pure numpy/python)."
    n = len(xs)
    d = np.array([[group_cost(xs[j:i + 1], ws[j:i + 1]) if j <= i else np.inf for i in range(n)] for j in range(n)])
    D = d[0].copy()
    out = [D[-1]]
    for q in range(1, n):
        new = np.full(n, np.inf)
        for i in range(q, n):
            new[i] = min(D[j - 1] + d[j, i] for j in range(q, i + 1))
        D = new
        out.append(D[-1])
    return np.array(out)


def tol(scale):
    return 1e-9 * max(1.0, scale)


# ---------------------------------------------------------------- strategies: ties, duplicates, weights
@st.composite
def weighted_points(draw, min_n=1, max_n=8, distinct=None):
    n = draw(st.integers(min_n, max_n))
    pool = distinct or draw(st.integers(1, 6))
    vals = draw(st.lists(st.integers(-pool, pool), min_size=n, max_size=n))
    scale = draw(st.sampled_from([1.0, 0.25, 10.0]))
    x = np.array(vals, float) * scale + draw(st.sampled_from([0.0, 1e3]))
    w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 1.0, 2.0, 3.7]), min_size=n, max_size=n)))
    return x, w


# ---------------------------------------------------------------- exactness of the DP
@settings(max_examples=80, **SETTINGS)
@given(weighted_points(max_n=9))
def test_dp_equals_brute_force_partitions_for_every_k(xw):
    x, w = xw
    n = len(x)
    costs = kmeans1d_costs(np.sort(x), w[np.argsort(x, kind="stable")])
    for k in range(1, n + 1):
        ref = brute_partitions(x, w, k)
        cost, labels, centers = kmeans1d(x, k, w)
        assert abs(cost - ref) <= tol(ref)
        assert abs(costs[k - 1] - ref) <= tol(ref)


@settings(max_examples=25, **SETTINGS)
@given(weighted_points(max_n=6))
def test_dp_equals_all_assignments(xw):
    x, w = xw
    for k in range(1, len(x) + 1):
        ref = brute_assignments(x, w, k)
        assert abs(kmeans1d(x, k, w)[0] - ref) <= tol(ref)


@settings(max_examples=60, **SETTINGS)
@given(weighted_points(min_n=1, max_n=9))
def test_labels_and_centers_consistent(xw):
    x, w = xw
    rng = np.random.default_rng(len(x))
    perm = rng.permutation(len(x))          # unsorted input: labels must follow it
    x, w = x[perm], w[perm]
    for k in range(1, len(x) + 1):
        cost, labels, centers = kmeans1d(x, k, w)
        assert labels.shape == x.shape and set(labels.tolist()) == set(range(k))     # exactly k non-empty clusters
        for c in range(k):
            m = labels == c
            assert abs(centers[c] - (w[m] * x[m]).sum() / w[m].sum()) <= 1e-9 * max(1, abs(centers[c]))
        assert np.all(np.diff(centers) >= -1e-9)
        recomputed = sum(group_cost(x[labels == c], w[labels == c]) for c in range(k))
        assert abs(cost - recomputed) <= tol(recomputed)
        # clusters are runs of the sorted order
        o = np.argsort(x, kind="stable")
        assert np.all(np.diff(labels[o]) >= 0)


@settings(max_examples=40, **SETTINGS)
@given(st.integers(2, 120), st.integers(0, 2**31 - 1), st.booleans())
def test_divide_and_conquer_rows_equal_quadratic_rows(n, seed, ties):
    rng = np.random.default_rng(seed)
    xs = np.sort(rng.integers(0, 10, n).astype(float) if ties else rng.normal(size=n) * 100)
    ws = rng.uniform(0.1, 5, n)
    W, S, Q = prefix_sums(xs, ws)
    prev = np.array([cluster_cost(W, S, Q, 0, i) for i in range(n)])
    for q in range(1, min(n, 12)):
        r1, a1 = np.empty(n), np.empty(n, np.int64)
        r2, a2 = np.empty(n), np.empty(n, np.int64)
        fill_row_quadratic(prev, r1, a1, q, W, S, Q)
        fill_row_dc(prev, r2, a2, q, W, S, Q)
        assert np.all(np.isinf(r1[:q])) and np.all(np.isinf(r2[:q]))
        assert np.allclose(r1[q:], r2[q:], rtol=1e-10, atol=1e-9 * max(1.0, r1[q]))
        # the d&c argmin attains the row value
        for i in range(q, n):
            assert abs(prev[a2[i] - 1] + cluster_cost(W, S, Q, a2[i], i) - r2[i]) <= 1e-9 * max(1.0, r2[i])
        prev = r1
    k = min(n, 12)
    assert np.allclose(kmeans1d_costs_nb(xs, ws, k, True), kmeans1d_costs_nb(xs, ws, k, False), rtol=1e-10, atol=1e-9)


def test_worked_example_spec_3_3():
    y = np.array([1.0, 2, 3, 10, 11, 12])
    assert kmeans1d_costs(y).tolist() == [125.5, 4.0, 2.5, 1.0, 0.5, 0.0]
    v, C = kmeans_penalized(y, 1.6)
    assert C == 2 and abs(v - 7.2) < 1e-12
    wc, mc, ssc = np.array([2.0, 1, 3]), np.array([1.5, 3, 11]), np.array([0.5, 0, 2])
    assert kmeans1d_costs(mc, wc).tolist() == [123.0, 1.5, 0.0]
    assert class_correction(wc, mc, ssc) == 2.5
    assert class_correction(wc, mc, np.array([5.0, 9, 365]), centred=False) == 2.5
    assert constrained_kmeans_costs(wc, mc, ssc).tolist() == [125.5, 4.0, 2.5]


# ---------------------------------------------------------------- penalised minimum: dynamic stop, no cap
@settings(max_examples=60, **SETTINGS)
@given(weighted_points(max_n=9), st.sampled_from([0.0, 1e-6, 0.01, 0.3, 1.0, 2.5, 10.0, 1e4]))
def test_penalized_equals_brute_min_over_all_C(xw, lam):
    x, w = xw
    o = np.argsort(x, kind="stable")
    n = len(x)
    f = np.array([brute_partitions(x, w, C) + lam * C for C in range(1, n + 1)])
    v, C = kmeans_penalized(x[o], lam, w[o])
    assert abs(v - f.min()) <= tol(f.min())
    assert abs(f[C - 1] - f.min()) <= tol(f.min())
    for c_max in range(1, n + 2):
        vc, Cc = kmeans_penalized(x[o], lam, w[o], c_max=c_max)
        assert Cc <= c_max and abs(vc - f[:c_max].min()) <= tol(f.min())


@pytest.mark.parametrize("seed", range(4))
def test_penalized_no_cap_large_optimum(seed):
    # distinct, roughly evenly spread points and a tiny lam: the optimum needs far more than 100 clusters
    rng = np.random.default_rng(seed)
    n = 180
    xs = np.sort(np.arange(n) + rng.uniform(-0.2, 0.2, n))
    ws = rng.uniform(0.5, 2.0, n)
    ref = reference_cost_table(xs, ws)
    for lam in (1e-3, 0.02, 0.2, 1.0):
        f = ref + lam * np.arange(1, n + 1)
        v, C = kmeans_penalized(xs, lam, ws)
        assert abs(v - f.min()) <= 1e-8 * max(1.0, f.min())
        assert abs(f[C - 1] - f.min()) <= 1e-8 * max(1.0, f.min())
        if lam <= 0.02:
            assert C > 100
    # grid with known answer: every merge of neighbours costs 0.5 > lam, so C* = n
    v, C = kmeans_penalized(np.arange(150.0), 0.1)
    assert C == 150 and abs(v - 15.0) < 1e-9


def test_penalized_numba_callable_and_grouped_bound():
    from numba import njit

    @njit
    def use(x, w, lam):
        return kmeans_penalized_nb(x, w, lam, 0)

    v, C = use(np.array([1.0, 2, 3, 10, 11, 12]), np.ones(6), 1.6)
    assert C == 2 and abs(v - 7.2) < 1e-12
    wc, mc, ssc = np.array([2.0, 1, 3]), np.array([1.5, 3, 11]), np.array([0.5, 0, 2])
    assert kmeans_eq_bound(wc, mc, ssc, 1.6) == (7.2, 2)
    # never below the equivalence loss 2.5 (+3 lam)
    assert kmeans_eq_bound(wc, mc, ssc, 0.01) == (pytest.approx(2.53, abs=1e-12), 3)


@settings(max_examples=40, **SETTINGS)
@given(st.lists(st.lists(st.integers(-4, 4), min_size=1, max_size=3), min_size=1, max_size=5),
       st.sampled_from([0.0, 0.1, 1.0, 5.0]), st.sampled_from([0.0, 1e4]))
def test_grouped_bound_equals_constrained_brute_force(classes, lam, offset):
    # each inner list is an equivalence class of raw targets (unit weights); a cluster must take whole classes
    ys = [np.array(c, float) + offset for c in classes]
    order = np.argsort([y.mean() for y in ys], kind="stable")
    ys = [ys[u] for u in order]
    wc = np.array([len(y) for y in ys], float)
    mc = np.array([y.mean() for y in ys])
    ssc = np.array([((y - y.mean()) ** 2).sum() for y in ys])
    m = len(ys)
    ckm = []
    for C in range(1, m + 1):
        best = np.inf
        for lab in itertools.product(range(C), repeat=m):
            if len(set(lab)) < C:
                continue
            best = min(best, sum(group_cost(np.concatenate([ys[u] for u in range(m) if lab[u] == c]),
                                            np.ones(int(sum(wc[u] for u in range(m) if lab[u] == c))))
                                 for c in range(C)))
        ckm.append(best)
    ckm = np.array(ckm)
    scale = max(1.0, ckm[0])
    assert np.allclose(constrained_kmeans_costs(wc, mc, ssc), ckm, rtol=0, atol=1e-9 * scale)
    b, C = kmeans_eq_bound(wc, mc, ssc, lam)
    f = ckm + lam * np.arange(1, m + 1)
    assert abs(b - f.min()) <= 1e-9 * scale and abs(f[C - 1] - f.min()) <= 1e-9 * scale


# ---------------------------------------------------------------- bad input
def test_bad_input_is_refused_clearly():
    with pytest.raises(InputError, match="NaN/inf"):
        kmeans1d([1.0, np.nan, 2.0], 2)
    with pytest.raises(InputError, match="NaN/inf"):
        kmeans1d_costs([1.0, np.inf])
    with pytest.raises(InputError, match="non-negative"):
        kmeans1d([1.0, 2.0], 1, w=[1.0, -2.0])
    with pytest.raises(InputError, match="strictly positive"):
        kmeans_penalized([1.0, 2.0], 0.1, w=[0.0, 1.0])
    with pytest.raises(InputError, match="NaN"):
        kmeans1d([1.0, 2.0], 1, w=[np.nan, 1.0])
    with pytest.raises(ParameterError, match=">= 1"):
        kmeans1d([1.0, 2.0], 0)
    with pytest.raises(ParameterError, match="only 2 point"):
        kmeans1d([1.0, 2.0], 3)
    with pytest.raises(ParameterError, match="only 3 point"):
        kmeans1d_costs([1.0, 2.0, 3.0], k_max=4)
    with pytest.raises(ParameterError):
        kmeans1d([1.0, 2.0], 1.0)
    with pytest.raises(InputError, match="sorted ascending"):
        kmeans_penalized([2.0, 1.0], 0.1)
    with pytest.raises(ParameterError, match="lam"):
        kmeans_penalized([1.0, 2.0], -0.5)
    with pytest.raises(ParameterError, match="c_max"):
        kmeans_penalized([1.0, 2.0], 0.5, c_max=0)
    with pytest.raises(InputError, match="empty"):
        kmeans1d([], 1)
    with pytest.raises(InputError, match="1-D"):
        kmeans1d([[1.0, 2.0]], 1)
    with pytest.raises(InputError, match="entries"):
        kmeans1d([1.0, 2.0], 1, w=[1.0])
    with pytest.raises(InputError, match="ss has 2 entries for 3 classes"):
        kmeans_eq_bound([1.0, 1, 1], [1.0, 2, 3], [0.0, 0], 0.1)
    with pytest.raises(InputError, match="sorted ascending"):
        constrained_kmeans_costs([1.0, 1], [2.0, 1], [0.0, 0])
