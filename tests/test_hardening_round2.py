"""Issue 21, second round: regression tests for the items fixed after tests/test_hardening.py (each failed before)."""
import time
import numpy as np
import pandas as pd
import pytest
from glassworks.cli import CLIError, apply_feature_info, run_fit, split_target


def test_a_numeric_column_with_a_stray_string_is_refused(tmp_path):
    "Read as text, the column became hundreds of one-hot levels and osrt/ogb ran for minutes."
    rng = np.random.default_rng(0)
    df = pd.DataFrame({'age': rng.normal(40, 10, 300).round(1), 'y': rng.normal(size=300)})
    df['age'] = df['age'].astype(object)
    df.loc[17, 'age'] = '?'
    p = tmp_path / 't.csv'
    df.to_csv(p, index=False)
    with pytest.raises(CLIError, match=r"column 'age' holds numbers except 1 cell\(s\) such as '\?' \(row 17\)"):
        run_fit(str(p), 'y', 'osrt', out=str(tmp_path / 'm'), quiet=True)
    text = pd.DataFrame({'city': ['Oslo', 'Rome', '12'] * 10, 'y': range(30)})       # a real text column stays one
    assert list(split_target(text, 'y', 'ogb')[0].columns) == ['city']


def test_many_categories_are_applied_in_one_pass():
    "One comparison per category cost rows x categories (20,000 levels: over a minute)."
    n = 20_000
    vals = [f'c{i}' for i in range(n)]
    info = [dict(column='c', kind='category', op='==', value=v) for v in vals] + \
           [dict(column='c', kind='category', op='==', value='c5'),
            dict(column='c', kind='missing', op='is', value=None)]
    df = pd.DataFrame({'c': vals[::-1][:n - 1] + [None]})
    t = time.perf_counter()
    out = apply_feature_info(df, info)
    seconds = time.perf_counter() - t
    assert out[:, :n].sum() == n - 1 and out[0, n - 1] == 1 and out[-1].tolist() == [0] * (n + 1) + [1]
    np.testing.assert_array_equal(out[:, n], out[:, 5])                    # a value listed twice: the same column
    assert seconds < 20


def test_extraction_within_a_budget_below_every_cost():
    "A budget below every priced node's cost: the model of cost 0 (free nodes, or none) fits; it raised before."
    from sklearn.ensemble import GradientBoostingRegressor
    from glassworks.extract import RuleExtractor, node_table
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = X[:, 0] + rng.normal(size=80) * 0.1
    gb = GradientBoostingRegressor(n_estimators=3, max_depth=2, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    for free in (0, 1, 4):                          # node 0 is a root (not a candidate), 1 and 4 are not
        a = np.full(tab.m, 5.0)
        a[free] = 0.0
        for solver in ('cbcd', 'exact'):
            m = RuleExtractor(gb, max_rules=1.0, budget=a, solver=solver).fit(X, y)
            assert float(a[m.nodes_].sum()) <= 1.0 and set(m.nodes_) <= {free}
            assert np.isfinite(m.predict(X)).all()


@pytest.fixture
def memory_grows(monkeypatch):
    "Every read of the resident memory shows 1 GB more than the last: a limit below that is passed at the next read."
    import glassworks.base as base
    reads = iter(range(10**9))
    monkeypatch.setattr(base, 'resident_bytes', lambda: 2**30 * next(reads))
    monkeypatch.setattr(base.SearchMonitor, 'MEMORY_EVERY', 0.0)


def test_every_exact_solver_has_a_memory_limit(memory_grows):
    "OSRT, rule boosting and rule extraction stop with their best model past `memory_limit`, as OSDT did."
    from sklearn.ensemble import GradientBoostingRegressor
    from glassworks.osrt import OSRTRegressor
    from glassworks.ogb import RuleBoostingRegressor, RuleBoostingClassifier
    from glassworks.extract import RuleExtractor
    rng = np.random.default_rng(3)
    X01 = rng.integers(0, 2, (300, 14))
    y = X01[:, 0] * 2.0 + X01[:, 1] * X01[:, 2] + rng.normal(size=300)
    m = OSRTRegressor(0.0001, max_depth=6, memory_limit=0.5, node_limit=10**7).fit(X01, y)
    assert m.stats_['stopped_by'] == 'memory_limit' and not m.optimal_ and m.lower_bound_ <= m.objective_
    Xc = rng.normal(size=(300, 4))
    r = RuleBoostingRegressor(max_rules=20, memory_limit=0.5).fit(Xc, Xc[:, 0] + rng.normal(size=300))
    assert r.stopping_reason_ == 'memory_limit' and np.isfinite(r.predict(Xc)).all()
    c = RuleBoostingClassifier(max_rules=20, memory_limit=0.5).fit(Xc, Xc[:, 0] > 0)
    assert c.stopping_reason_ == 'memory_limit'
    gb = GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=0).fit(Xc, Xc[:, 0])
    e = RuleExtractor(gb, max_rules=3, ridge=1.0, solver='exact', memory_limit=0.5).fit(Xc, Xc[:, 0])
    assert e.stats_['oa_status'] == 'memory_limit' and not e.optimal_ and np.isfinite(e.predict(Xc)).all()


@pytest.mark.parametrize('make', ['OSRTRegressor', 'RuleBoostingRegressor', 'RuleExtractor'])
def test_memory_limit_is_validated(make):
    from glassworks import osrt, ogb, extract
    from glassworks.validation import ParameterError
    from sklearn.ensemble import GradientBoostingRegressor
    cls = dict(OSRTRegressor=osrt.OSRTRegressor, RuleBoostingRegressor=ogb.RuleBoostingRegressor,
               RuleExtractor=extract.RuleExtractor)[make]
    kw = dict(ensemble=GradientBoostingRegressor(n_estimators=2)) if make == 'RuleExtractor' else {}
    X = np.random.default_rng(0).integers(0, 2, (20, 3))
    y = np.arange(20.0)
    for bad in (0, -1.0, 'lots'):
        with pytest.raises((ParameterError, TypeError)): cls(memory_limit=bad, **kw).fit(X, y)


def test_extraction_refuses_values_trees_cannot_read():
    "X = 1e308 reached scikit-learn's float32 cast inside the ensemble (its ValueError, not ours)."
    import pandas as pd
    from sklearn.ensemble import GradientBoostingRegressor
    from glassworks.extract import RuleExtractor
    from glassworks.validation import InputError
    with pytest.raises(InputError, match="float32"):
        RuleExtractor(GradientBoostingRegressor(n_estimators=2), max_rules=2, ridge=1.0).fit(
            pd.DataFrame({'c0': [1e308, 1.0, 2.0]}), [0.0, 1.0, 2.0])
