"""OSDT: both search modes against the brute-force oracle, the paper's toy errata, bad input and anytime behaviour."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from glassworks.osdt import OSDTClassifier
from glassworks.treebnb import POLICIES, max_leaves_apriori
from glassworks.models import Tree
from glassworks.validation import InputError, ParameterError
from glassworks.oracles import brute_classification

LAMS = (0.01, 0.02, 0.05, 0.1, 0.2)


def _instance(rng, i):
    "A small random problem: binary or 3-class labels, some duplicated rows, some ties, optional depth limit."
    n, m = int(rng.integers(2, 22)), int(rng.integers(1, 6))
    X = rng.integers(0, 2, (n, m))
    if i % 3 == 0:                                     # duplicated rows (equivalent points)
        X = np.vstack([X, X[rng.integers(0, n, int(rng.integers(1, n + 1)))]])
    K = 3 if i % 4 == 3 else 2
    y = rng.integers(0, K, len(X))
    if i % 5 == 0: y = (X[:, 0] ^ X[:, -1]).astype(int)            # structured labels, many exact ties
    lam = float(rng.choice(LAMS + (1 / len(X), 0.5 / len(X))))
    md = [None, None, 1, 2, 3][i % 5]
    return X, y, lam, md


@pytest.mark.parametrize('block', range(6))
def test_both_modes_match_oracle(block):
    "300 instances in all (6 blocks of 50): both modes return exactly the oracle optimum, certified."
    rng = np.random.default_rng(100 + block)
    for i in range(50):
        X, y, lam, md = _instance(rng, i)
        R, _ = brute_classification(X, y, lam, md)
        for search in ('bnb', 'dp'):
            m = OSDTClassifier(lam, search=search, max_depth=md, policy=POLICIES[i % len(POLICIES)]).fit(X, y)
            assert abs(m.objective_ - R) < 1e-9, (block, i, search, m.objective_, R)
            assert m.optimal_ and m.gap_ == 0
            assert m.tree_.n_leaves == m.n_leaves_
            if md is not None: assert m.tree_.depth <= md
            acc = np.mean(m.predict(X) == y)
            assert abs(acc - (1 - (R - lam * m.n_leaves_))) < 1e-9


def test_bnb_switches_and_incumbents_stay_exact():
    "Each bound switched off, each warm start: the optimum does not change."
    rng = np.random.default_rng(5)
    switches = [{'lookahead': False, 'leaf_count': False}, {'equivalent': False}, {'support': 'paper'},
                {'support': False}, {'incremental': False}, {'accuracy': False}, {'symmetry': False},
                {'push_prune': False}, {'hierarchical': False}]
    for i in range(30):
        X, y, lam, md = _instance(rng, i)
        X = X[:, :4]
        R, _ = brute_classification(X, y, lam, md)
        for sw in switches:
            m = OSDTClassifier(lam, search='bnb', max_depth=md, bounds=sw, incumbent=None).fit(X, y)
            assert abs(m.objective_ - R) < 1e-9, (i, sw)
        for ws in ('greedy', None, R + 1e-3, OSDTClassifier(lam, search='dp', max_depth=md).fit(X, y).tree_):
            m = OSDTClassifier(lam, search='bnb', max_depth=md, incumbent=ws).fit(X, y)
            assert abs(m.objective_ - R) < 1e-9, (i, ws)


def test_max_leaves():
    "max_leaves (bnb only): equal to the oracle restricted to trees with at most that many leaves."
    rng = np.random.default_rng(9)
    for _ in range(15):
        X = rng.integers(0, 2, (12, 3))
        y = rng.integers(0, 2, 12)
        lam = 0.01
        full = OSDTClassifier(lam, search='bnb').fit(X, y)
        for L in (1, 2, 3):
            m = OSDTClassifier(lam, max_leaves=L).fit(X, y)
            assert m.search_ == 'bnb' and m.n_leaves_ <= L and m.optimal_
            assert m.objective_ >= full.objective_ - 1e-12
            if full.n_leaves_ <= L: assert abs(m.objective_ - full.objective_) < 1e-12
        one = OSDTClassifier(lam, max_leaves=1).fit(X, y)
        assert abs(one.objective_ - (min(y.mean(), 1 - y.mean()) + lam)) < 1e-12


def test_toy_errata():
    "Spec 5.3/5.4: the published leaf-count floor prunes the optimum; the corrected one does not."
    Xa, ya = np.array([(1, 1), (0, 1), (0, 1), (0, 0)]), np.array([1, 0, 0, 1])
    Xb, yb = np.r_[np.ones((9, 1)), np.zeros((11, 1))], np.r_[np.ones(9), np.zeros(11)]
    for X, y, lam, wrong, leaves in ((Xa, ya, 0.2, 0.65, 3), (Xb, yb, 0.3, 0.75, 2)):
        bad = OSDTClassifier(lam, search='bnb', incumbent=None, bounds={'leaf_count': 'reference'}).fit(X, y)
        assert abs(bad.objective_ - wrong) < 1e-12 and not bad.optimal_   # an unsound bound never certifies
        for s in ('bnb', 'dp'):
            good = OSDTClassifier(lam, search=s, incumbent=None).fit(X, y)
            assert abs(good.objective_ - 0.6) < 1e-12 and good.n_leaves_ == leaves and good.score(X, y) == 1.0
    assert 3 > int(1 / (2 * 0.2)) and 3 <= max_leaves_apriori(0.2)


def test_numeric_input_needs_a_depth():
    "Numeric columns are searched at every threshold (glassworks.numdp): that needs max_depth, whichever search."
    for s in ('bnb', 'dp', 'auto'):
        with pytest.raises(ParameterError, match='max_depth'): OSDTClassifier(search=s).fit([[0, 2], [1, 0]], [0, 1])


@pytest.mark.parametrize('X, y, msg', [
    ([[0, np.nan], [1, 0]], [0, 1], 'NaN'),
    ([[0], [1]], [0, 1, 1], 'inconsistent'),
])
def test_bad_input(X, y, msg):
    for s in ('bnb', 'dp'):
        with pytest.raises(InputError, match=msg): OSDTClassifier(search=s).fit(X, y)


@pytest.mark.parametrize('lam', [0, -0.1, np.nan])
def test_bad_regularization(lam):
    with pytest.raises(ParameterError, match='regularization'): OSDTClassifier(lam).fit([[0], [1]], [0, 1])


def test_bad_params():
    X, y = [[0], [1]], [0, 1]
    with pytest.raises(ParameterError): OSDTClassifier(search='magic').fit(X, y)
    with pytest.raises(ParameterError): OSDTClassifier(policy='random').fit(X, y)
    with pytest.raises(ParameterError, match='unknown bound'): OSDTClassifier(bounds={'lookahed': False}).fit(X, y)
    with pytest.raises(ParameterError, match='max_leaves'): OSDTClassifier(search='dp', max_leaves=2).fit(X, y)
    with pytest.raises(ParameterError, match='incumbent'): OSDTClassifier(incumbent='cart').fit(X, y)


def test_predict_rejects_non_binary():
    m = OSDTClassifier(0.1).fit([[0, 1], [1, 0], [1, 1]], [0, 1, 1])
    with pytest.raises(InputError, match='binary'): m.predict([[0.5, 1]])


@pytest.mark.parametrize('search', ['bnb', 'dp'])
def test_single_class_is_one_leaf(search):
    m = OSDTClassifier(0.01, search=search).fit([[0, 1], [1, 1], [1, 0], [0, 0]], ['yes'] * 4)
    assert m.n_leaves_ == 1 and m.optimal_ and list(m.predict([[1, 1]])) == ['yes']
    assert abs(m.objective_ - 0.01) < 1e-12


def test_labels_and_names_round_trip():
    pd = pytest.importorskip('pandas')
    X = pd.DataFrame({'a': [0, 1, 0, 1, 1, 0], 'b': [1, 1, 0, 0, 1, 0]})
    y = np.array(['no', 'yes', 'no', 'yes', 'yes', 'maybe'])
    for s in ('bnb', 'dp'):
        m = OSDTClassifier(0.05, search=s).fit(X, y)
        assert set(m.predict(X)) <= set(y) and list(m.feature_names_in_) == ['a', 'b']
        assert Tree.from_json(m.tree_.to_json()) == m.tree_
        assert 'predict' in m.tree_.to_text()


def _compas():
    from glassworks.datasets import load
    try: return load('compas-binary', download=False)
    except Exception: pytest.skip('COMPAS data not available (set GLASSWORKS_DATA)')


def test_time_limit_is_anytime():
    "A tiny node budget: a valid tree, optimal_=False, a gap >= 0 and a bound below the true optimum."
    X, y, _ = _compas()
    for kw in (dict(node_limit=200), dict(time_limit=1e-4)):
        m = OSDTClassifier(0.005, search='bnb', incumbent=None, bounds={'push_prune': False}, **kw).fit(X, y)
        assert not m.optimal_ and m.gap_ >= 0 and m.stats_['stopped_by'] in ('node_limit', 'time_limit')
        assert m.lower_bound_ <= 0.3559686 <= m.objective_ + 1e-9
        assert abs(m.objective_ - (1 - m.score(X, y) + 0.005 * m.n_leaves_)) < 1e-9


def test_compas_optima_and_dp_agreement():
    "COMPAS 0.005 / 0.007 (spec 5.2): both modes, same certified objective; bnb on row subsets = dp (second oracle)."
    X, y, _ = _compas()
    for lam, R, leaves in ((0.005, 0.355969, 5), (0.007, 0.365773, 4)):
        for s in ('bnb', 'dp'):
            m = OSDTClassifier(lam, search=s).fit(X, y)
            assert abs(m.objective_ - R) < 1e-6 and m.n_leaves_ == leaves and m.optimal_
    rng = np.random.default_rng(3)
    for _ in range(6):
        idx = rng.choice(len(y), 400, replace=False)
        lam = float(rng.choice([0.01, 0.015, 0.02]))
        a = OSDTClassifier(lam, search='bnb').fit(X.iloc[idx], y.iloc[idx])
        b = OSDTClassifier(lam, search='dp').fit(X.iloc[idx], y.iloc[idx])
        assert a.optimal_ and b.optimal_ and abs(a.objective_ - b.objective_) < 1e-9


def test_explore_hybrid_same_optimum_and_checked():
    "explore='hybrid' (best-first descents, treedp Prop. 12) certifies the same optimum; a bad value is refused."
    import pytest
    rng = np.random.default_rng(6)
    X = rng.integers(0, 2, (150, 8))
    y = (X[:, 0] ^ X[:, 1]) | (rng.random(150) < 0.1)
    a = OSDTClassifier(0.005, search='dp', max_depth=4).fit(X, y)
    b = OSDTClassifier(0.005, search='dp', max_depth=4, explore='hybrid').fit(X, y)
    assert a.optimal_ and b.optimal_ and abs(a.objective_ - b.objective_) < 1e-12
    with pytest.raises(ValueError, match='explore'):
        OSDTClassifier(0.005, explore='breadth').fit(X, y)


@given(st.integers(0, 2**31 - 1), st.integers(1, 3), st.booleans())
@settings(max_examples=40, deadline=None)
def test_zero_regularization_with_depth_is_most_accurate(seed, depth, weighted):
    """regularization=0 with max_depth: the most accurate tree of that depth (the oracle at lam = 0); refused without
    a depth limit and for the branch-and-bound."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (int(rng.integers(4, 20)), int(rng.integers(1, 5))))
    y = rng.integers(0, 3, len(X))
    w = rng.integers(1, 4, len(X)).astype(float) if weighted else None
    m = OSDTClassifier(0, max_depth=depth).fit(X, y, sample_weight=w)
    want, _ = brute_classification(X, y, 0.0, depth, sample_weight=w)
    assert m.optimal_ and abs(m.objective_ - want) < 1e-9 and m.tree_.depth <= depth


def test_zero_regularization_needs_depth_and_dp():
    X, y = [[0], [1]], [0, 1]
    with pytest.raises(ParameterError, match='max_depth'): OSDTClassifier(0).fit(X, y)
    with pytest.raises(ParameterError, match='DP search'): OSDTClassifier(0, max_depth=2, search='bnb').fit(X, y)
    assert OSDTClassifier(0, max_depth=1).fit(X, y).objective_ == 0.0
