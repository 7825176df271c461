"Property tests for glassworks.binarize: every output column is the predicate its description states."
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

from glassworks.binarize import Binarizer
from glassworks.validation import InputError, ParameterError

SETTINGS = dict(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STRATEGIES = ['quantile', 'midpoints', 'equal_width']


@st.composite
def numeric_frames(draw, min_rows=2, max_rows=30, max_cols=3):
    "Numeric frames mixing small integers, wide floats, nearly equal floats, 0/1 and constant columns."
    n = draw(st.integers(min_rows, max_rows))
    cols = {}
    for j in range(draw(st.integers(1, max_cols))):
        kind = draw(st.sampled_from(['int', 'float', 'close', 'binary', 'const']))
        if kind == 'int': v = draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
        elif kind == 'float':
            v = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False), min_size=n, max_size=n))
        elif kind == 'close':  # distinct values agreeing in their first ~10 digits
            base = draw(st.floats(-100, 100, allow_nan=False))
            v = [base + k * 1e-9 for k in draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))]
        elif kind == 'binary': v = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        else: v = [draw(st.floats(-10, 10, allow_nan=False))] * n
        cols[f'c{j}'] = np.asarray(v, dtype=np.float64)
    return pd.DataFrame(cols)


def predicate(info, x):
    "Recompute an output column from `feature_info_` (op, value) on the raw column `x`."
    op, v = info['op'], info['value']
    if op == 'isnan': return pd.isna(x)
    if op == '==': return np.array([xi == v for xi in x], dtype=bool) & ~pd.isna(x)
    x = np.asarray(x, dtype=np.float64)
    if op == '<=': return x <= v
    if op == 'in': return (x > v[0]) & (x <= v[1])
    raise AssertionError(f"unknown op {op!r}")


def check_name(info):
    "The printed name and negation state exactly the stored predicate."
    c, name, kind, v = info['column'], info['name'], info['kind'], info['value']
    if kind == 'threshold':
        s = name[len(f"{c} <= "):]
        assert name == f"{c} <= {s}" and float(s) == v and info['negation'] == f"{c} > {s}"
    elif kind == 'bin':
        if np.isinf(v[1]):
            s = name[len(f"{c} > "):]
            assert name == f"{c} > {s}" and float(s) == v[0] and info['negation'] == f"{c} <= {s}"
        else:
            a, b = name[len(f"{c} in ("):-1].split(', ')
            assert name == f"{c} in ({a}, {b}]" and (float(a), float(b)) == v
    elif kind == 'category': assert name == f"{c} == {v}" and info['negation'] == f"{c} != {v}"
    elif kind == 'binary': assert name == c and v == 1
    elif kind == 'missing': assert name == f"{c} is missing"


def check_described(bz, X, out):
    "Every output column of `out` (transform of X) equals its described predicate on the raw column."
    assert list(out.columns) == [f['name'] for f in bz.feature_info_]
    assert len(set(out.columns)) == out.shape[1]  # two different features never print the same
    for j, info in enumerate(bz.feature_info_):
        check_name(info)
        want = predicate(info, X[info['column']].to_numpy())
        np.testing.assert_array_equal(out.iloc[:, j].to_numpy(), want.astype(np.uint8), err_msg=info['name'])


@pytest.mark.parametrize('strategy', STRATEGIES)
@settings(**SETTINGS)
@given(X=numeric_frames(), Xnew=numeric_frames(max_cols=3), n_bins=st.integers(2, 6),
       cap=st.one_of(st.none(), st.integers(1, 4)))
def test_columns_are_their_predicates(strategy, X, Xnew, n_bins, cap):
    bz = Binarizer(strategy=strategy, n_bins=n_bins, max_thresholds=cap).fit(X)
    out = bz.transform(X)
    assert out.dtypes.eq(np.uint8).all() and out.shape[0] == len(X)
    check_described(bz, X, out)
    # new data with the same columns: the same rules apply
    new = pd.DataFrame({c: Xnew.iloc[:, 0].to_numpy() * (k + 1) for k, c in enumerate(X.columns)})
    check_described(bz, new, bz.transform(new))
    # row subsets are transformed consistently, and numpy output matches
    idx = np.arange(len(X))[::2]
    np.testing.assert_array_equal(bz.transform(X.iloc[idx]).to_numpy(), out.to_numpy()[idx])
    bz.set_params(output='numpy')
    np.testing.assert_array_equal(bz.transform(X), out.to_numpy())
    # passthrough and constant columns
    for c in X.columns:
        u = np.unique(X[c])
        mine = [f for f in bz.feature_info_ if f['column'] == c]
        if len(u) == 1: assert mine == []
        elif set(u) <= {0., 1.}: assert [f['name'] for f in mine] == [c]


@settings(**SETTINGS)
@given(X=numeric_frames())
def test_midpoints_separate_distinct_values(X):
    bz = Binarizer(strategy='midpoints').fit(X)
    out = bz.transform(X).to_numpy()
    for c in X.columns:
        cols = [j for j, f in enumerate(bz.feature_info_) if f['column'] == c]
        x = X[c].to_numpy()
        for i in range(len(x)):
            for k in range(len(x)):
                if x[i] != x[k]: assert (out[i, cols] != out[k, cols]).any(), (c, x[i], x[k])
        if cols and bz.feature_info_[cols[0]]['kind'] == 'threshold':
            assert len(cols) == len(np.unique(x)) - 1


@settings(**SETTINGS)
@given(X=numeric_frames(), n_bins=st.integers(2, 7))
def test_equal_width_layout(X, n_bins):
    bz = Binarizer(strategy='equal_width', n_bins=n_bins).fit(X)
    out = bz.transform(X).to_numpy()
    wide = pd.DataFrame({c: np.linspace(-2e3, 2e3, 50) for c in X.columns})
    out_wide = bz.transform(wide).to_numpy()
    for c in X.columns:
        u = np.unique(X[c])
        cols = [j for j, f in enumerate(bz.feature_info_) if f['column'] == c]
        if len(u) > 1 and not set(u) <= {0., 1.}:
            assert len(cols) == n_bins - 1
            assert out[:, cols].sum(axis=1).max() <= 1 and out_wide[:, cols].sum(axis=1).max() <= 1
            # training minimum is in the dropped first bin, training maximum in the last bin
            assert out[np.argmin(X[c].to_numpy()), cols].sum() == 0
            assert out[np.argmax(X[c].to_numpy()), cols[-1]] == 1


@settings(**SETTINGS)
@given(levels=st.lists(st.sampled_from(['a', 'b', 'c', 'dd', 'e f']), min_size=2, max_size=25),
       x=st.lists(st.integers(0, 9), min_size=25, max_size=25), drop_first=st.booleans())
def test_categorical_one_hot(levels, x, drop_first):
    X = pd.DataFrame({'cat': levels, 'x': np.asarray(x[:len(levels)], float)})
    bz = Binarizer(drop_first=drop_first).fit(X)
    out = bz.transform(X)
    check_described(bz, X, out)
    cols = [j for j, f in enumerate(bz.feature_info_) if f['column'] == 'cat']
    seen = sorted(set(levels))
    if len(seen) == 1: assert cols == []
    else:
        assert bz.categories_['cat'] == (seen[1:] if drop_first else seen)
        s = out.iloc[:, cols].sum(axis=1).to_numpy()
        if drop_first: assert ((s == 1) == (X['cat'] != seen[0]).to_numpy()).all() and s.max() <= 1
        else: assert (s == 1).all()
        unseen = bz.transform(X.iloc[:1].assign(cat='zzz')).iloc[:, cols].to_numpy()
        assert unseen.sum() == 0


def gbdt_problem(seed, task):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(80, 3)).round(2), columns=['a', 'b', 'c'])
    signal = np.sin(2 * X.a) + (X.b > 0.3) + 0.3 * rng.normal(size=80)
    return X, (signal > 0.5).astype(int) if task == 'classification' else signal


@pytest.mark.parametrize('task', ['classification', 'regression'])
@pytest.mark.parametrize('seed', [0, 1, 2])
def test_gbdt_thresholds_and_score(seed, task):
    X, y = gbdt_problem(seed, task)
    bz = Binarizer(strategy='gbdt', gbdt_n_estimators=15, gbdt_max_depth=2, random_state=seed).fit(X, y)
    assert bz.gbdt_task_ == task
    out = bz.transform(X)
    check_described(bz, X, out)
    # an independently fitted ensemble with the same settings uses these thresholds
    cls = GradientBoostingClassifier if task == 'classification' else GradientBoostingRegressor
    make = lambda: cls(n_estimators=15, max_depth=2, random_state=bz.gbdt_seed_)
    gb = make().fit(X.to_numpy(), y)
    full_cols = []
    for j, c in enumerate(X.columns):
        x, u = X[c].to_numpy(), np.unique(X[c])
        raw = sorted({float(t) for e in np.ravel(gb.estimators_)
                      for f, t in zip(e.tree_.feature, e.tree_.threshold) if f == j})
        np.testing.assert_array_equal(bz.gbdt_thresholds_[c], raw)
        gaps = {}
        for t in raw: gaps.setdefault(np.searchsorted(u, t, 'right'), t)  # one per training gap
        for t in bz.thresholds_[c]:  # each kept (snapped) cut splits the data as one of the ensemble's thresholds
            g = np.searchsorted(u, t, 'right')
            assert g in gaps and abs(gaps[g] - t) <= 1e-3 * max(1, abs(t))
        full_cols += [x <= gaps[g] for g in sorted(gaps) if 0 < g < len(u)]
    assert set(bz.thresholds_['a']) | set(bz.thresholds_['b'])  # the signal columns are used
    full = make().fit(np.column_stack(full_cols).astype(np.uint8), y)
    full_score = full.score(np.column_stack(full_cols).astype(np.uint8), y)
    assert bz.gbdt_score_full_ == pytest.approx(full_score)
    assert out.shape[1] <= len(full_cols)
    kept = make().fit(out.to_numpy(), y)
    assert kept.score(out.to_numpy(), y) >= full_score - 1e-12  # pruning keeps the training score


def test_missing_values():
    X = pd.DataFrame({'x': [1., np.nan, 3., 4., 2.], 'c': ['u', 'v', None, 'u', 'v']})
    with pytest.raises(InputError, match="NaN values in column"): Binarizer().fit(X)
    with pytest.raises(InputError, match="missing values in categorical column 'c'"):
        Binarizer().fit(X.assign(x=[1., 2., 3., 4., 5.]))
    for s in STRATEGIES:
        bz = Binarizer(strategy=s, missing='indicator').fit(X)
        out = bz.transform(X)
        check_described(bz, X, out)
        assert out['x is missing'].tolist() == [0, 1, 0, 0, 0] and out['c is missing'].tolist() == [0, 0, 1, 0, 0]
        assert out.loc[1, [n for n in out.columns if n.startswith('x ') and 'missing' not in n]].sum() == 0
    with pytest.raises(InputError, match="NaN"): Binarizer().fit(X.dropna()).transform(X)


def test_errors():
    X = pd.DataFrame({'x': np.arange(6.), 'y': [0, 1, 0, 1, 1, 0]})
    for bad in ['kmeans', None, 3]:
        with pytest.raises(ParameterError, match='`strategy` must be one of'): Binarizer(strategy=bad).fit(X)
    with pytest.raises(ParameterError, match='`n_bins` must be >= 2, got 1'): Binarizer(n_bins=1).fit(X)
    with pytest.raises(ParameterError, match='`n_bins` must be of type Integral'): Binarizer(n_bins='4').fit(X)
    with pytest.raises(ParameterError, match='`max_thresholds` must be >= 1'): Binarizer(max_thresholds=0).fit(X)
    with pytest.raises(ParameterError, match='`missing` must be one of'): Binarizer(missing='zero').fit(X)
    with pytest.raises(ParameterError, match='`output` must be one of'): Binarizer(output='polars').fit(X)
    with pytest.raises(ParameterError, match='`gbdt_n_estimators` must be >= 1'):
        Binarizer(strategy='gbdt', gbdt_n_estimators=0).fit(X, X.y)
    with pytest.raises(InputError, match='needs the target'): Binarizer(strategy='gbdt').fit(X)
    with pytest.raises(InputError, match='inconsistent numbers of samples'): Binarizer(strategy='gbdt').fit(X, [0, 1])
    with pytest.raises(InputError, match='must be 2-D'): Binarizer().fit(np.arange(5.))
    with pytest.raises(InputError, match=r'must be 2-D .* got shape \(2, 2, 2\)'): Binarizer().fit(np.ones((2, 2, 2)))
    with pytest.raises(InputError, match='NaN'): Binarizer().fit(np.array([[1., np.nan], [2., 3.]]))
    with pytest.raises(InputError, match='inf'): Binarizer(missing='indicator').fit(np.array([[1., np.inf], [2., 3.]]))
    bz = Binarizer().fit(X)
    with pytest.raises(InputError, match='has 3 features'): bz.transform(np.ones((2, 3)))
    with pytest.raises(InputError, match='missing column'): bz.transform(X[['x']])


def test_numpy_input_and_pipeline():
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier
    from sklearn.base import clone
    rng = np.random.default_rng(0)
    A = rng.normal(size=(60, 2))
    y = (A[:, 0] > 0.1).astype(int)
    bz = Binarizer(strategy='midpoints', max_thresholds=5).fit(A)
    assert list(bz.feature_names_in_) == ['x0', 'x1'] and len(bz.thresholds_['x0']) == 5
    pipe = make_pipeline(clone(bz), DecisionTreeClassifier(random_state=0)).fit(A, y)
    assert list(pipe[-1].feature_names_in_) == list(bz.get_feature_names_out())
    # an object array with a string column, categorical by position
    O = np.array([['a', 1.5], ['b', 2.5], ['a', 3.5]], dtype=object)
    out = Binarizer(categorical_features=[0], strategy='midpoints').fit(O).transform(O)
    assert list(out.columns) == ['x0 == a', 'x0 == b', 'x1 <= 2', 'x1 <= 3']


def test_gbdt_target_whole_number_regression():
    """A regressor's whole-number target is a regression target for the gbdt cuts (not 400 classes); 'auto' keeps
    guessing."""
    from glassworks.osrt import OSRTRegressor
    rng = np.random.default_rng(0)
    X = pd.DataFrame({'a': rng.normal(size=300), 'b': rng.normal(size=300)})
    y = np.round(20 * X['a'].to_numpy() + rng.normal(size=300)).astype(int)        # integers, many distinct values
    assert Binarizer(strategy='gbdt').fit(X, y).gbdt_task_ == 'classification'      # what 'auto' infers
    assert Binarizer(strategy='gbdt', target='regression').fit(X, y).gbdt_task_ == 'regression'
    m = OSRTRegressor(0.01, max_depth=2, binarizer='gbdt').fit(X, y)
    assert m.binarizer_.gbdt_task_ == 'regression'
    with pytest.raises(ValueError, match='target'):
        Binarizer(strategy='gbdt', target='ranking').fit(X, y)
