"""Optimal trees on numeric columns (`glassworks.numdp` and the two tree estimators on raw tables): exact over every
threshold against the brute-force oracle, on ties, repeated values, constant columns, weights, several classes,
regression, leaf prices, leaf-size floors and depth limits; anytime behaviour; the estimators' round trips."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from glassworks.models import Tree, Leaf
from glassworks.numdp import NumericData, search_numeric
from glassworks.oracles import brute_thresholds, brute_classification, brute_regression, every_threshold
from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.validation import ParameterError


def _problem(seed, task, n_max=11, p_max=3):
    "Small data with ties and sometimes constant columns, several classes or a real target, optional weights."
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(2, n_max + 1)), int(rng.integers(1, p_max + 1))
    X = rng.integers(0, int(rng.integers(1, 6)), size=(n, p)) * rng.choice([1.0, 0.5, -2.25])
    if task == 'classification': y = rng.integers(0, int(rng.integers(2, 4)), size=n)
    else: y = rng.normal(size=n).round(1) * rng.choice([1.0, 1e4])
    w = rng.choice([0.5, 1.0, 2.0, 3.0], size=n) if rng.random() < 0.4 else None
    return X, y, w, rng


def _oracle_objective(X, y, w, task, lam, depth, min_leaf):
    "The estimators' objective by exhaustion over every threshold (the oracles of the 0/1 engines on every cut)."
    A, _ = every_threshold(X)
    if task == 'classification': return brute_classification(A, y, lam, depth, w, min_leaf)[0]
    return brute_regression(A, y, lam, depth, w, 'l2', min_leaf)[0]


@given(st.integers(0, 2**31 - 1), st.sampled_from(['classification', 'regression']),
       st.sampled_from([0.0, 0.01, 0.05, 0.2]), st.sampled_from([None, 1, 2, 3]), st.sampled_from([1, 1, 2, 3]))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_estimators_optimal_over_every_threshold(seed, task, lam, depth, min_leaf):
    "OSDTClassifier / OSRTRegressor on numeric X equal the exhaustive optimum over every threshold, certified."
    X, y, w, _ = _problem(seed, task)
    if task == 'regression' and np.ptp(y) == 0: y = y + np.arange(len(y))
    if depth is None:
        with pytest.raises(ParameterError, match='max_depth'):
            Est = OSDTClassifier if task == "classification" else OSRTRegressor
            Est(max(lam, 0.01)).fit(X + 0.3, y)                        # + 0.3: never a 0/1 table
        depth = 2
    if min_leaf * 1 > len(y): min_leaf = 1
    want = _oracle_objective(X, y, w, task, lam, depth, min_leaf)
    Est = OSDTClassifier if task == 'classification' else OSRTRegressor
    m = Est(regularization=lam, max_depth=depth, min_samples_leaf=min_leaf).fit(X, y, sample_weight=w)
    assert abs(m.objective_ - want) < 1e-9, (m.objective_, want)
    assert m.optimal_ and m.gap_ == 0
    if m.numeric_:                                   # the tree's own predictions score its objective
        pred = m.predict(X)
        ww = np.ones(len(y)) if w is None else w
        if task == 'classification': loss = np.sum(ww * (pred != y)) / ww.sum()
        else: loss = np.sum(ww * (pred - y) ** 2) / np.sum(ww * (y - np.sum(ww * y) / ww.sum()) ** 2)
        assert abs(loss + lam * m.n_leaves_ - m.objective_) < 1e-9
        assert depth is None or m.tree_.depth <= depth


@given(st.integers(0, 2**31 - 1), st.sampled_from(['classification', 'regression']), st.integers(1, 3))
@settings(max_examples=120, deadline=None)
def test_engine_against_brute_force(seed, task, depth):
    "search_numeric itself, in raw units, against `brute_thresholds` with the same leaf cost."
    X, y, w, rng = _problem(seed, task, n_max=12)
    D = NumericData(X, y if task == 'classification' else y.astype(float), w, task)
    lam = float(rng.choice([0.0, 0.03]))
    res = search_numeric(D, lam, depth)
    yy = D.label if task == 'classification' else D.target
    def cost(S):
        i = list(S)
        if task == 'classification':
            c = np.bincount(yy[i], weights=D.w[i], minlength=D.K)
            return c.sum() - c.max() + lam * D.norm
        mu = np.sum(D.w[i] * yy[i]) / D.w[i].sum()
        return float(np.sum(D.w[i] * (yy[i] - mu) ** 2)) + lam * D.norm
    want = brute_thresholds(X, yy, D.w, cost, max_depth=depth)[0]
    assert abs(res.objective * D.norm - want) < 1e-7
    assert res.complete and res.lower_bound == res.objective


@given(st.integers(0, 2**31 - 1), st.sampled_from(['classification', 'regression']))
@settings(max_examples=30, deadline=None)
def test_engine_depth_four_against_brute_force(seed, task):
    "Depth four: two levels above the exact depth-two solves, where the lookahead orders the search (its hints)."
    X, y, w, rng = _problem(seed, task, n_max=9)
    D = NumericData(X, y if task == 'classification' else y.astype(float), w, task)
    res = search_numeric(D, 0.0, 4)
    yy = D.label if task == 'classification' else D.target
    def cost(S):
        i = list(S)
        if task == 'classification':
            c = np.bincount(yy[i], weights=D.w[i], minlength=D.K)
            return c.sum() - c.max()
        mu = np.sum(D.w[i] * yy[i]) / D.w[i].sum()
        return float(np.sum(D.w[i] * (yy[i] - mu) ** 2))
    want = brute_thresholds(X, yy, D.w, cost, max_depth=4)[0]
    assert abs(res.objective * D.norm - want) < 1e-7 and res.complete


def test_ties_and_constant_columns():
    "Repeated values split only between distinct values; a constant column is never split; thresholds are midpoints."
    X = np.array([[1., 7.], [1., 7.], [2., 7.], [2., 7.], [3., 7.]])
    y = np.array([0, 0, 1, 1, 0])
    m = OSDTClassifier(0.0, max_depth=2).fit(X, y)
    assert m.objective_ == 0 and m.tree_.features_used == ['x0']
    def thresholds(node):
        return [] if isinstance(node, Leaf) else [node.threshold, *thresholds(node.left), *thresholds(node.right)]
    assert sorted(thresholds(m.tree_.root)) == [1.5, 2.5]


def test_pandas_names_json_round_trip():
    "Column names in the printed tree, the JSON round trip predicts the raw table alike."
    rng = np.random.default_rng(3)
    df = pd.DataFrame({'age': rng.integers(18, 80, 200).astype(float), 'income': rng.normal(50, 10, 200),
                       'smoker': rng.integers(0, 2, 200)})
    y = ((df.age > 50) & (df.income > 48) | (df.smoker == 1) & (df.age < 30)).astype(int)
    m = OSDTClassifier(0.005, max_depth=3).fit(df, y)
    assert m.numeric_ and m.search_ == 'numeric' and m.score(df, y) == 1.0
    text = m.tree_.to_text()
    assert 'age <=' in text and 'if smoker:' in text
    t2 = Tree.from_json(m.tree_.to_json())
    assert (t2.predict(df) == m.predict(df)).all()
    r = OSRTRegressor(0.01, max_depth=2).fit(df, df.income * 2 + (df.age > 40) * 30)
    assert r.numeric_ and r.optimal_ and 'age <=' in r.tree_.to_text()


def test_binary_input_keeps_the_binary_engine():
    "0/1 columns alone take today's engines (same trees, 'dp'/'bnb'); numeric input refuses what needs 0/1."
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = X[:, 0] ^ X[:, 1]
    m = OSDTClassifier(0.05).fit(X, y)
    assert m.search_ == 'dp' and not m.numeric_
    Xn = X + 0.5 * np.arange(12)[:, None]
    with pytest.raises(ParameterError, match='binarizer'): OSDTClassifier(0.05, search='bnb').fit(Xn, y)
    with pytest.raises(ParameterError, match='binarizer'): OSDTClassifier(0.05, max_leaves=3).fit(Xn, y)
    with pytest.raises(ParameterError, match='binarizer'): OSRTRegressor(0.05, metric='l1').fit(Xn, y + 0.5)
    with pytest.raises(ParameterError, match='binarizer'): OSDTClassifier(0.05, max_depth=2).rashomon_set(Xn, y,
                                                                                                          epsilon=0.1)
    b = OSDTClassifier(0.05, binarizer='quantile').fit(Xn, y)                  # the explicit trade stays
    assert b.search_ == 'dp' and hasattr(b, 'binarizer_')


def test_time_limit_returns_best_with_bound():
    "Under a time limit: a tree within the depth, its objective scored by its predictions, a bound below it."
    from sklearn.datasets import load_breast_cancer
    d = load_breast_cancer()
    m = OSDTClassifier(0.0, max_depth=3, time_limit=0.5).fit(d.data, d.target)
    assert not m.optimal_ and m.stats_['stopped_by'] == 'time_limit'
    assert m.lower_bound_ <= m.objective_ and m.tree_.depth <= 3
    assert abs(np.mean(m.predict(d.data) != d.target) - m.objective_) < 1e-12
    assert m.fit_time_ < 5


def test_multiclass_weights_and_min_leaf_on_a_real_table():
    "Wine (3 classes, 13 numeric columns), depth 2 with class weights and a leaf floor: a valid certified tree."
    from sklearn.datasets import load_wine
    d = load_wine()
    m = OSDTClassifier(0.0, max_depth=2, class_weight='balanced', min_samples_leaf=10).fit(d.data, d.target)
    assert m.optimal_ and m.numeric_
    assert min(lf.n_samples for lf in m.tree_.leaves()) >= 10
