"""Rashomon sets against the independent brute-force enumerator (glassworks.oracles.brute_rashomon) on random small
instances: the same trees as a set, the same size, non-decreasing objectives in order; plus the estimator entry
points."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from glassworks.treedp import TreeData, search_tree
from glassworks.rashomon import RashomonSet
from glassworks.oracles import brute_rashomon
from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.validation import ParameterError


@st.composite
def instances(draw, task):
    n = draw(st.integers(2, 14))
    m = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    X = rng.integers(0, 2, (n, m))
    if draw(st.booleans()):                                  # copies, complements, constants (Proposition 4)
        cols = [X[:, rng.integers(m)], 1 - X[:, rng.integers(m)], np.zeros(n, int), np.ones(n, int)]
        X = np.column_stack([X] + cols[:draw(st.integers(1, 3))])
        X = X[:, rng.permutation(X.shape[1])]
    w = np.ones(n) if draw(st.booleans()) else rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], n)
    if w.sum() == 0: w[0] = 1.0
    lam = draw(st.sampled_from([0.0, 0.01, 0.03, 0.1]))
    depth = draw(st.integers(0, 3 if X.shape[1] <= 3 else 2))
    if lam > 0 and X.shape[1] <= 3 and draw(st.booleans()): depth = None
    if task == 'classification': y = rng.integers(0, draw(st.integers(1, 3)), n)
    else: y = rng.integers(0, 5, n).astype(float) * draw(st.sampled_from([1.0, 0.1, 1000.0]))
    min_leaf = draw(st.sampled_from([1, 1, 2]))
    slack = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    return X, y, w, lam, depth, min_leaf, slack


def _compare(X, y, w, lam, depth, min_leaf, slack, task, metric='l2'):
    keep = w > 0
    if task == 'regression' and np.ptp(y[keep]) == 0: return
    if np.sum(keep) < min_leaf: return
    data = TreeData(X[keep], y[keep], w[keep], task=task, metric=metric)
    opt = search_tree(data, lam, depth, min_leaf=min_leaf).objective
    theta = opt * (1 + slack) + slack * lam
    rs = RashomonSet(data, lam, depth, min_leaf, threshold=theta)
    brute = brute_rashomon(X, y, lam, theta, depth, w, task, metric, min_leaf)
    ours = [tuple(int(v) for v in p if v > -2) for p in rs.preorders()]
    assert rs.count == len(brute) == len(ours)
    assert set(ours) == {t for _, t in brute}
    obj = dict((t, o) for o, t in brute)
    seq = [obj[t] for t in ours]
    assert all(b >= a - 1e-9 for a, b in zip(seq, seq[1:]))
    assert abs(rs.optimum - brute[0][0]) < 1e-9
    assert sum(rs.counts) == rs.count
    for k in {0, len(ours) - 1, len(ours) // 2}:                  # objective(k) is the k-th tree's
        assert abs(rs.objective(k) - seq[k]) < 1e-9


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances('classification'))
def test_classification_set_matches_brute_force(inst):
    _compare(*inst, task='classification')


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances('regression'), st.sampled_from(['l2', 'l1']))
def test_regression_set_matches_brute_force(inst, metric):
    _compare(*inst, task='regression', metric=metric)


def test_feature_usage_counts_the_listed_trees():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (40, 4))
    X = np.c_[X, 1 - X[:, 0]]
    y = (X[:, 0] ^ X[:, 1]) | (rng.random(40) < 0.1)
    rs = RashomonSet(TreeData(X, y), 0.01, 3, epsilon=0.3)
    trees = list(rs)
    assert len(trees) == rs.count > 10
    assert rs.feature_usage().tolist() == [sum(f"x{j}" in t.features_used for t in trees) for j in range(5)]


def test_n_best_is_the_first_trees_of_a_larger_set():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, (60, 5))
    y = X[:, 0] | (X[:, 2] & X[:, 3])
    big = RashomonSet(TreeData(X, y), 0.01, 3, epsilon=1.0)
    best = RashomonSet(TreeData(X, y), 0.01, 3, n_best=25)
    assert big.count >= 25 and len(best) == 25
    assert [best.objective(k) for k in range(25)] == pytest.approx([big.objective(k) for k in range(25)], abs=1e-9)


def test_sampling_is_uniform_enough():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = X[:, 0] ^ X[:, 1]
    rs = RashomonSet(TreeData(X, y), 0.05, 2, threshold=10.0)
    assert rs.count == 1 + 2 * (1 + 1) ** 2
    seen = [str(t) for t in rs.sample(900, random_state=0)]
    counts = np.unique(seen, return_counts=True)[1]
    assert len(counts) == rs.count and counts.min() > 900 / rs.count / 2


def test_estimators_give_their_sets():
    from glassworks.datasets import load
    X, y, _ = load('monk1')
    est = OSDTClassifier(0.02, max_depth=3)
    rs = est.rashomon_set(X, y, epsilon=0.1)
    assert abs(rs.optimum - est.objective_) < 1e-9 and rs.count >= 1
    assert rs[0].feature_names == est.feature_names_
    P, exact = rs.predictions(X.iloc[:5])
    assert exact and P.shape == (rs.count, 5) and set(np.unique(P.astype(int))) <= {0, 1}
    Xr = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    yr = np.array([1., 1., 3., 5.] * 5)
    r = OSRTRegressor(regularization=0.01, max_depth=2)
    rs2 = r.rashomon_set(Xr, yr, epsilon=0.5)
    assert abs(rs2.optimum - r.objective_) < 1e-9 and len(rs2) == 3


def test_bad_requests_say_what_is_wrong():
    X = np.array([[0], [1]])
    y = np.array([0, 1])
    with pytest.raises(ParameterError, match='exactly one'): RashomonSet(TreeData(X, y), 0.1, 1)
    with pytest.raises(ParameterError, match='exactly one'): RashomonSet(TreeData(X, y), 0.1, 1, epsilon=0.1, n_best=3)
    with pytest.raises(ParameterError, match='leaf price'): RashomonSet(TreeData(X, y), 0.0, None, epsilon=0.1)
    with pytest.raises(ParameterError): OSDTClassifier(0.1, max_leaves=3).rashomon_set(X, y, epsilon=0.1)
    rs = RashomonSet(TreeData(X, y), 0.1, 1, epsilon=0.0)
    with pytest.raises(IndexError): rs[rs.count]
