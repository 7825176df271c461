"""OSRTRegressor: exactness against the independent exhaustive oracle (glassworks.oracles), bad input, anytime
behaviour, prediction consistency; and (opt-in, GLASSWORKS_SLOW=1 with `osrt` installed) agreement with the
reference C++ package wherever it is itself optimal."""
import os, pickle, time
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from glassworks.osrt import OSRTRegressor
from glassworks.models import Tree
from glassworks.validation import InputError, ParameterError
from glassworks.oracles import brute_regression


def _instance(rng, it):
    "Small random problem: duplicated rows, tied targets, optional weights, depth limit on/off, both losses."
    n, m = int(rng.integers(2, 22)), int(rng.integers(1, 6))
    X = rng.integers(0, 2, (n, m))
    if it % 2:
        X = np.r_[X, X[rng.integers(0, n, max(1, n // 2))]]             # duplicated rows
    n = len(X)
    scale = [1.0, 0.1, 1000.0][it % 3]
    y = rng.integers(0, 5, n) * scale if it % 4 else rng.normal(size=n).round(1) * scale   # ties, or few ties
    if np.ptp(y) == 0: y[0] += scale
    w = None if it % 3 == 0 else rng.integers(1, 4, n).astype(float)
    if it % 7 == 0 and w is not None: w[rng.integers(0, n)] = 0.0      # a zero weight: the row is ignored
    lam = float(rng.choice([0.001, 0.004, 0.02, 0.05, 0.1, 0.3, 1.5]))
    depth = [None, 0, 1, 2, 3, None][it % 6]
    metric = 'l1' if it % 5 == 4 else 'l2'
    return X, y, w, lam, depth, metric


def test_matches_oracle_on_random_instances():
    rng = np.random.default_rng(12345)
    done = 0
    for it in range(360):
        X, y, w, lam, depth, metric = _instance(rng, it)
        if w is not None:
            keep = w > 0
            if np.ptp(y[keep]) == 0: continue
        want = brute_regression(X, y, lam, depth, w, metric)[0]
        est = OSRTRegressor(lam, max_depth=depth, metric=metric).fit(X, y, sample_weight=w)
        assert est.optimal_, it
        assert abs(est.objective_ - want) < 1e-9, (it, est.objective_, want)
        assert abs(est.lower_bound_ - want) < 1e-9 and est.gap_ < 1e-9
        assert est.n_leaves_ == est.tree_.n_leaves and (depth is None or est.depth_ <= depth)
        # the reported objective is what the returned tree really costs
        p = est.predict(X)
        ww = np.ones(len(y)) if w is None else w
        if metric == 'l2':
            sst = np.sum(ww * (y - np.sum(ww * y) / ww.sum()) ** 2)
            assert abs(np.sum(ww * (y - p) ** 2) / sst + lam * est.n_leaves_ - est.objective_) < 1e-9
            assert abs(est.r2_ - (1 - est.loss_)) < 1e-9
        done += 1
    assert done >= 300, done


def test_equiv_bound_gives_same_optimum():
    rng = np.random.default_rng(7)
    for it in range(40):
        X, y, w, lam, depth, _ = _instance(rng, it)
        if w is not None and np.ptp(y[w > 0]) == 0: continue
        a = OSRTRegressor(lam, depth, bound='kmeans').fit(X, y, sample_weight=w)
        b = OSRTRegressor(lam, depth, bound='equiv').fit(X, y, sample_weight=w)
        assert abs(a.objective_ - b.objective_) < 1e-12


def test_weights_equal_duplication_and_scale_invariance():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (60, 6))
    y = X @ rng.normal(size=6) + rng.normal(scale=0.3, size=60)
    w = rng.integers(1, 4, 60)
    a = OSRTRegressor(0.01, 3).fit(X, y, sample_weight=w.astype(float))
    b = OSRTRegressor(0.01, 3).fit(np.repeat(X, w, 0), np.repeat(y, w))
    assert abs(a.objective_ - b.objective_) < 1e-12 and a.n_leaves_ == b.n_leaves_
    c = OSRTRegressor(0.01, 3).fit(X, 1000 * y - 7, sample_weight=w.astype(float))
    assert abs(a.objective_ - c.objective_) < 1e-9
    np.testing.assert_allclose(c.predict(X), 1000 * a.predict(X) - 7, rtol=1e-9, atol=1e-6)


def test_numeric_input_needs_a_depth():
    "Numeric columns are searched at every threshold (glassworks.numdp): that needs max_depth."
    for X in ([[0, 1], [1, 0], [2, 1], [0, 0]], [[0, 1], [1, 0], [0.5, 1], [0, 0]]):
        with pytest.raises(ParameterError, match='max_depth'): OSRTRegressor().fit(np.asarray(X), [1.0, 2.0, 4.0, 3.0])
    assert OSRTRegressor(max_depth=2).fit(np.asarray([[0, 1], [1, 0], [2, 1], [0, 0]]), [1.0, 2.0, 4.0, 3.0]).numeric_


@pytest.mark.parametrize('bad, msg', [
    (dict(y=[1.0, np.nan, 2.0, 3.0]), 'NaN/inf'),
    (dict(y=[1.0, np.inf, 2.0, 3.0]), 'NaN/inf'),
    (dict(y=[2.0, 2.0, 2.0, 2.0]), 'constant'),
    (dict(y=[1.0, 1.0, 4.0, 3.0], sample_weight=[1, 1, 0, 0]), 'constant'),
    (dict(sample_weight=[1, -1, 1, 1]), 'non-negative'),
    (dict(sample_weight=[1, 1, 1]), 'entries for 4 samples'),
    (dict(y=[1.0, 2.0, 3.0]), 'inconsistent numbers of samples'),
])
def test_bad_input(bad, msg):
    args = dict(X=[[0, 1], [1, 0], [1, 1], [0, 0]], y=[1.0, 2.0, 4.0, 3.0], sample_weight=None)
    args.update(bad)
    with pytest.raises(InputError, match=None) as e:
        OSRTRegressor().fit(np.asarray(args['X']), args['y'], sample_weight=args['sample_weight'])
    assert msg in str(e.value), str(e.value)


@pytest.mark.parametrize('params, msg', [
    (dict(regularization=0), '`regularization` must be > 0'),
    (dict(regularization=-0.5), '`regularization` must be >= 0'),
    (dict(regularization=float('nan')), 'must be finite'),
    (dict(max_depth=-1), '`max_depth` must be >= 0'),
    (dict(max_depth=2.5), '`max_depth` must be of type'),
    (dict(metric='mse'), '`metric` must be one of'),
    (dict(bound='kmeans', metric='l1'), "needs metric='l2'"),
    (dict(bound='none'), '`bound` must be one of'),
    (dict(time_limit=0), '`time_limit` must be > 0'),
    (dict(node_limit=0), '`node_limit` must be >= 1'),
])
def test_bad_parameters(params, msg):
    with pytest.raises(ParameterError) as e:
        OSRTRegressor(**params).fit(np.array([[0, 1], [1, 0], [1, 1]]), [1.0, 2.0, 4.0])
    assert msg in str(e.value), str(e.value)


def _hard_problem(seed=0, n=3000, m=40):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m))
    y = X[:, :8] @ rng.normal(size=8) + rng.normal(size=n)
    return X, y


def test_time_limit_returns_a_certified_incumbent():
    X, y = _hard_problem()
    OSRTRegressor(0.1, max_depth=2).fit(X[:50], y[:50])               # warm-up: loading compiled code is not search
    t = time.perf_counter()
    est = OSRTRegressor(0.0005, time_limit=0.5).fit(X, y)
    took = time.perf_counter() - t
    assert not est.optimal_ and est.stats_['stopped_by'] == 'time_limit'
    assert est.lower_bound_ <= est.objective_ and est.gap_ > 0
    assert est.objective_ < 0.5                                        # the greedy warm start, at least
    assert took < 5, took                                              # limits are checked between engine chunks
    tr = np.asarray(est.stats_['trace'])
    assert tr.ndim == 2 and tr.shape[1] == 3 and np.all(tr[:, 2] <= tr[:, 1] + 1e-12)
    assert np.all(np.diff(tr[:, 1]) <= 1e-12) and np.all(np.diff(tr[:, 2]) >= -1e-12)
    p = est.predict(X)                                                  # still a usable model
    assert abs(est.objective_ - (np.sum((y - p) ** 2) / np.sum((y - y.mean()) ** 2) + 0.0005 * est.n_leaves_)) < 1e-9


def test_node_limit():
    X, y = _hard_problem(1, 500, 20)
    est = OSRTRegressor(0.001, node_limit=5).fit(X, y)
    assert not est.optimal_ and est.stats_['stopped_by'] == 'node_limit' and est.lower_bound_ <= est.objective_


def test_predict_consistency_and_api():
    rng = np.random.default_rng(5)
    X = pd.DataFrame(rng.integers(0, 2, (80, 5)), columns=list('abcde'))
    y = 3 * X['a'] - 2 * X['b'] * X['c'] + rng.normal(scale=0.1, size=80) + 10
    est = OSRTRegressor(0.005, max_depth=3).fit(X, y)
    p = est.predict(X)
    assert np.allclose(p, est.tree_.predict(X.to_numpy()))
    assert np.allclose(est.predict(X[list('edcba')]), p)                     # columns matched by name
    assert abs(est.score(X, y) - est.r2_) < 1e-12                             # score = R^2 = 1 - loss (l2)
    assert abs(est.mse_ - np.mean((y - p) ** 2)) < 1e-12
    leaves = est.tree_.leaves()
    ids = est.tree_.apply(X.to_numpy())
    for k, lf in enumerate(leaves):                                           # leaf values: means in y's units
        assert abs(lf.value - y[ids == k].mean()) < 1e-9
    assert list(est.feature_names_in_) == list('abcde') and 'a' in est.tree_.to_text()
    t2 = Tree.from_json(est.tree_.to_json())
    assert np.allclose(t2.predict(X.to_numpy()), p)
    e2 = pickle.loads(pickle.dumps(est))
    assert np.allclose(e2.predict(X), p)
    c = clone(est)
    assert c.get_params() == est.get_params() and not hasattr(c, 'tree_')
    with pytest.raises(InputError):
        est.predict(np.ones((3, 4)))
    # a second fit on other data is independent of the first (no state kept between fits)
    est2 = OSRTRegressor(0.005, max_depth=3).fit(X, y)
    assert est2.objective_ == est.objective_
    # l1: leaves are weighted medians
    e1 = OSRTRegressor(0.01, max_depth=2, metric='l1').fit(X, y)
    ids = e1.tree_.apply(X.to_numpy())
    for k, lf in enumerate(e1.tree_.leaves()):
        v = np.sort(y[ids == k].to_numpy())
        assert v[(len(v) - 1) // 2] == lf.value


def test_from_osrt_config():
    e = OSRTRegressor.from_osrt_config({'regularization': 0.007, 'depth_budget': 6, 'allow_small_reg': True,
                                        'minimum_captured_points': 1, 'k_cluster': False, 'time_limit': 30})
    assert (e.regularization, e.max_depth, e.bound, e.time_limit) == (0.007, 5, 'equiv', 30.0)
    assert OSRTRegressor.from_osrt_config({'depth_budget': 0}).max_depth is None
    assert OSRTRegressor.from_osrt_config({'depth_budget': 1}).max_depth == 0
    assert OSRTRegressor.from_osrt_config({'metric': 'L1'}).metric == 'l1'
    assert OSRTRegressor.from_osrt_config({'minimum_captured_points': 7}).min_samples_leaf == 7
    assert OSRTRegressor.from_osrt_config({'minimum_captured_points': 1}).min_samples_leaf == 1


def _data(name):
    pytest.importorskip('glassworks.datasets')
    from glassworks.datasets import load
    if not os.environ.get('GLASSWORKS_DATA'): pytest.skip('GLASSWORKS_DATA not set')
    X, y, _ = load(name)
    return X, y


def test_readme_example_airfoil():
    X, y = _data('airfoil')
    est = OSRTRegressor(0.007, max_depth=5).fit(X, y)
    assert est.optimal_ and est.n_leaves_ == 16
    assert abs(est.objective_ - 0.744063) < 5e-7 and abs(est.mse_ - 30.0608) < 5e-5


def test_real_estate_case_the_reference_gets_wrong():
    X, y = _data('real-estate')
    for lam, want, k in [(0.01, 0.474612, 13), (0.009, 0.461612, 13)]:
        est = OSRTRegressor(lam, max_depth=5).fit(X, y)
        assert est.optimal_ and est.n_leaves_ == k and abs(est.objective_ - want) < 5e-7


@pytest.mark.skipif(not os.environ.get('GLASSWORKS_SLOW'), reason='slow: set GLASSWORKS_SLOW=1 (needs `osrt`)')
def test_agrees_with_reference_osrt():
    pytest.importorskip('osrt')
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'benchmarks'))
    from osrt_bench import run_osrt, run_ours
    for name in ['servo', 'sync', 'airquality', 'real-estate']:
        X, y = _data(name)
        X, y = X.to_numpy(), y.to_numpy().astype(float)
        for d in (2, 3, 4):
            for lam in (0.1, 0.01, 0.001):
                a, b = run_ours(X, y, lam, d, None), run_osrt(X, y, lam, d, 120)
                assert a['optimal'] and b['optimal']
                assert abs(a['obj'] - b['obj']) <= 1e-7, (name, d, lam, a, b)


def test_greedy_warm_start_is_a_valid_tree_never_better_than_the_optimum():
    from glassworks.osrt import greedy_regression_tree
    rng = np.random.default_rng(11)
    for it in range(40):
        X, y, w, lam, depth, _ = _instance(rng, it)
        ww = np.ones(len(y)) if w is None else w
        keep = ww > 0
        if np.ptp(y[keep]) == 0: continue
        X, y, ww = X[keep], y[keep], ww[keep]
        sst = np.sum(ww * (y - np.sum(ww * y) / ww.sum()) ** 2)
        g = greedy_regression_tree(X, y, ww, lam * sst, depth)
        obj = np.sum(ww * (y - g.predict(X)) ** 2) / sst + lam * g.n_leaves
        opt = OSRTRegressor(lam, depth).fit(X, y, sample_weight=ww).objective_
        assert obj >= opt - 1e-9 and (depth is None or g.depth <= depth)


def test_result_attributes_are_those_of_the_returned_tree():
    "objective_, lower_bound_, gap_ and optimal_ are set in one place and describe `tree_` (issue 11)."
    rng = np.random.default_rng(21)
    for it in range(30):
        X = rng.integers(0, 2, (60, 5))
        y = X @ rng.normal(size=5) + rng.normal(size=60) * 10.0 ** rng.integers(-6, 7)
        lam = float(rng.choice([0.001, 0.01, 0.05]))
        kw = dict(node_limit=int(rng.integers(1, 20))) if it % 2 else {}
        e = OSRTRegressor(lam, max_depth=3, **kw).fit(X, y)
        direct = np.sum((y - e.predict(X)) ** 2) / np.sum((y - y.mean()) ** 2) + lam * e.n_leaves_
        assert abs(e.objective_ - direct) <= 1e-12 * direct
        assert e.lower_bound_ <= e.objective_ and e.gap_ == max(0.0, e.objective_ - e.lower_bound_)
        if e.optimal_: assert e.stats_['stopped_by'] is None and e.gap_ <= 1e-9 * max(1.0, e.objective_)


def test_leaf_count_bound_is_ceil_one_over_lambda():
    """Proposition 2 of nbs/13_osrt: an optimum better than the single leaf has at most ceil(1/lambda) leaves, and a
    3-bit parity next to a two-row block reaches 10 leaves at lambda = 0.1."""
    import itertools, math
    rows = [(0, *b, 0, 1.0 if sum(b) % 2 else -1.0) for b in itertools.product([0, 1], repeat=3)]
    rows += [(1, 0, 0, 0, 0, 1.0), (1, 0, 0, 0, 1, -1.0)]
    R = np.array(rows)
    e = OSRTRegressor(0.1).fit(R[:, :5].astype(int), R[:, 5])
    assert e.optimal_ and e.n_leaves_ == 10 and abs(e.objective_ - 1.0) < 1e-12
    rng = np.random.default_rng(22)
    for it in range(80):
        X = rng.integers(0, 2, (40, 6))
        y = rng.normal(size=40)
        lam = float(rng.choice([0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0]))
        h = OSRTRegressor(lam).fit(X, y).n_leaves_
        assert h <= math.ceil(1 / lam), (it, lam, h)


def test_explore_hybrid_same_optimum_and_checked():
    "explore='hybrid' (best-first descents, treedp Prop. 12) certifies the same optimum; a bad value is refused."
    import pytest
    from glassworks.validation import InputError
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, (120, 7))
    y = X[:, 0] * 2.0 + X[:, 1] * X[:, 2] + rng.normal(0, 0.3, 120)
    a = OSRTRegressor(0.005, max_depth=4).fit(X, y)
    b = OSRTRegressor(0.005, max_depth=4, explore='hybrid').fit(X, y)
    assert a.optimal_ and b.optimal_ and abs(a.objective_ - b.objective_) < 1e-12
    with pytest.raises((InputError, ValueError), match='explore'):
        OSRTRegressor(0.005, explore='breadth').fit(X, y)


def test_zero_regularization_with_depth_is_most_accurate():
    "regularization=0 with max_depth: the least squared error of that depth (the oracle at lam = 0)."
    from glassworks.oracles import brute_regression
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, (16, 3))
    y = rng.normal(size=16)
    for depth in (1, 2):
        m = OSRTRegressor(0, max_depth=depth).fit(X, y)
        want, _ = brute_regression(X, y, 0.0, depth)
        assert m.optimal_ and abs(m.objective_ - want) < 1e-9 and m.tree_.depth <= depth
