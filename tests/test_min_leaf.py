"""Minimum leaf size (issue 22): OSDT and OSRT against the brute-force oracle restricted to admissible trees."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.oracles import brute_classification, brute_regression
from glassworks.validation import InputError, ParameterError


def _rows_per_leaf(m, X, w):
    return np.bincount(m.tree_._apply(np.asarray(X, float)), weights=(np.asarray(w) > 0).astype(float),
                       minlength=m.tree_.n_leaves)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(3, 24), m=st.integers(1, 4), depth=st.integers(1, 3),
       ml=st.integers(1, 6), lam=st.sampled_from([0.0, 0.01, 0.05]), frac=st.booleans())
def test_osdt_min_samples_leaf_matches_oracle(seed, n, m, depth, ml, lam, frac):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m))
    y = rng.integers(0, 2 + seed % 2, n)
    w = rng.choice([1.0, 2.0, 0.0], n, p=[.6, .25, .15])
    w[0] = 1.0
    npos = int((w > 0).sum())
    param = (min(ml, npos) / (npos + 1)) if frac else ml   # a fraction (< 1) of the rows, rounded up
    rows = max(1, int(np.ceil(param * npos - 1e-9))) if frac else ml
    if rows > npos:
        with pytest.raises(InputError, match='min_samples_leaf'):
            OSDTClassifier(lam, max_depth=depth, min_samples_leaf=param).fit(X, y, sample_weight=w)
        return
    want = brute_classification(X, y, lam, depth, sample_weight=w, min_leaf=rows)[0]
    e = OSDTClassifier(lam, max_depth=depth, min_samples_leaf=param).fit(X, y, sample_weight=w)
    assert e.optimal_ and abs(e.objective_ - want) < 1e-9, (want, e.objective_)
    assert _rows_per_leaf(e, X, w).min() >= rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(3, 24), m=st.integers(1, 4), depth=st.sampled_from([1, 2, 3, None]),
       ml=st.integers(1, 6), lam=st.sampled_from([0.01, 0.05]), metric=st.sampled_from(['l2', 'l1']))
def test_osrt_min_samples_leaf_matches_oracle(seed, n, m, depth, ml, lam, metric):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m))
    y = rng.normal(size=n).round(1)
    if np.ptp(y) == 0 or ml > n: return
    want = brute_regression(X, y, lam, depth, metric=metric, min_leaf=ml)[0]
    e = OSRTRegressor(lam, max_depth=depth, metric=metric, min_samples_leaf=ml).fit(X, y)
    assert e.optimal_ and abs(e.objective_ - want) < 1e-9, (want, e.objective_)
    assert _rows_per_leaf(e, X, np.ones(n)).min() >= ml


def test_min_samples_leaf_bad_values():
    X, y = np.array([[0], [1], [1], [0]]), np.array([0, 1, 1, 0])
    for bad in (0, -1, 1.0, 0.0, 1.5, 'a'):
        with pytest.raises((ParameterError, InputError)): OSDTClassifier(0.1, min_samples_leaf=bad).fit(X, y)
    with pytest.raises(InputError, match='5 rows'): OSRTRegressor(0.1, min_samples_leaf=5).fit(X, y * 1.0)
    with pytest.raises(ParameterError, match="search='dp'"):
        OSDTClassifier(0.1, search='bnb', min_samples_leaf=2).fit(X, y)


def test_min_samples_leaf_under_a_time_limit_returns_an_admissible_tree():
    "The greedy incumbent seeds the search under a limit; it is used only if admissible, and the result always is."
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (400, 12))
    y = X[:, 0] * 2.0 + X[:, 1] * X[:, 2] + rng.normal(size=400) * 0.1
    e = OSRTRegressor(0.0005, max_depth=5, min_samples_leaf=40, node_limit=30).fit(X, y)
    assert _rows_per_leaf(e, X, np.ones(400)).min() >= 40
