"""Issue 12: silent degenerate results and crashes with the wrong error type. Each test failed on the code before."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from glassworks.binarize import Binarizer
from glassworks.datasets import make_hierarchical
from glassworks.hierscale import HierScaleRegressor, hierscale_path
from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.validation import InputError, ParameterError

RNG = np.random.default_rng(0)
XB = (RNG.random((30, 3)) < .5).astype(int)


def test_osrt_predict_before_fit_is_not_fitted_error():
    with pytest.raises(NotFittedError):
        OSRTRegressor().predict(np.array([[0], [1]]))


def test_osdt_refuses_continuous_target():
    with pytest.raises(InputError, match='continuous'):
        OSDTClassifier().fit(XB, RNG.random(30))


def test_osdt_mixed_labels_clear_error():
    with pytest.raises(InputError, match='mixes'):
        OSDTClassifier().fit(XB, np.array([1, 'a'] * 15, dtype=object))


@pytest.mark.parametrize('X, word', [(np.array([[1 + 2j], [2 + 0j], [3j]]), 'Complex'),
                                     (pd.DataFrame({'a': [{'x': 1}, {'y': 2}, {'x': 1}]}), 'dict'),
                                     (np.array([[1.0, 2.0]]), 'at least 2')])
def test_binarizer_refuses_what_it_would_mangle(X, word):
    with pytest.raises(InputError, match=word):
        Binarizer().fit(X)


def _hier():
    X, y, _ = make_hierarchical(60, 6, k=3, random_state=0)
    return X, y


def test_hierscale_constant_y_clear_error():
    X, _ = _hier()
    with pytest.raises(InputError, match='constant'):
        hierscale_path(X, np.ones(len(X)))


@pytest.mark.parametrize('kw', [dict(time_limit=-1), dict(max_iter=0), dict(max_checks=0), dict(max_solutions=0)])
def test_hierscale_path_parameter_ranges(kw):
    X, y = _hier()
    with pytest.raises(ParameterError):
        hierscale_path(X, y, **kw)


@pytest.mark.parametrize('factor', [1e10, 1e20])
def test_hierscale_badly_scaled_refused_or_standardized(factor):
    X, y = _hier()
    with pytest.raises(InputError, match='standardize=True'):
        hierscale_path(X * factor, y)
    with warnings.catch_warnings():
        warnings.simplefilter('error')                   # standardize=True gives a certified path, no warning
        p = hierscale_path(X * factor, y, standardize=True, n_lambda=10)
    assert p.stats_['max_kkt'] < 1e-3 and np.count_nonzero(p.coef_main[-1]) > 0


def test_hierscale_uncertified_path_warns():
    X, y = _hier()
    with pytest.warns(UserWarning, match='NOT certified'):
        hierscale_path(X, y, max_iter=1, max_checks=1, n_lambda=10)


def test_hierscale_cv_more_folds_than_half_the_rows():
    X, y = _hier()
    with pytest.raises(ParameterError):
        HierScaleRegressor(cv=50).fit(X[:20], y[:20])


def test_hierscale_verbose_prints_a_final_line(capsys):
    X, y = _hier()
    HierScaleRegressor(verbose=1, n_lambda=10, random_state=0).fit(X, y)
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith('[hierscale] chose lambda1=')


def test_osrt_verbose_prints_a_final_line(capsys):
    X = (RNG.random((40, 4)) < .5).astype(int)
    y = X[:, 0] * 2.0 + RNG.random(40)
    OSRTRegressor(0.05, verbose=1).fit(X, y)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith('[osrt] done: OSRTRegressor: objective') and 'optimal' in last


def test_trees_take_a_numeric_table_through_binarizer():
    from glassworks.datasets import load
    X, y, _ = load('breast_cancer')
    raw = OSDTClassifier(0.02, max_depth=2).fit(X, y)                  # binarizer=None: every threshold (numdp)
    assert raw.numeric_ and raw.optimal_ and '<=' in raw.tree_.to_text()
    m = OSDTClassifier(0.02, max_depth=2, binarizer='quantile').fit(X, y)
    assert m.n_features_in_ == 30 and list(m.feature_names_in_) == list(X.columns)
    assert isinstance(m.binarizer_, Binarizer) and '<=' in m.tree_.to_text()     # thresholds in the original units
    assert (m.predict(X) == m.tree_.predict(m.binarizer_.transform(X).to_numpy())).all()
    assert m.score(X, y) > 0.9
    r = OSRTRegressor(0.05, max_depth=2, binarizer=Binarizer(n_bins=3)).fit(X.iloc[:, :5], X.iloc[:, 5])
    assert r.binarizer_.n_bins == 3 and r.predict(X.iloc[:5, :5]).shape == (5,)
    with pytest.raises(ParameterError, match='binarizer'):
        OSRTRegressor(binarizer='nope').fit(X.iloc[:, :5], X.iloc[:, 5])


def test_bnb_memory_limit_stops_with_best_tree_and_bound():
    "Issue 12 item 4: the branch-and-bound grew without bound; past `memory_limit` it stops with a tree and its bound."
    from glassworks.datasets import load
    X, y, _ = load('tic-tac-toe')                  # shipped; bnb cannot certify it (no duplicate rows)
    m = OSDTClassifier(0.005, search='bnb', time_limit=120, memory_limit=0.03).fit(X, y)
    assert m.stats_['stopped_by'] == 'memory_limit'
    assert m.fit_time_ < 60 and not m.optimal_
    assert m.lower_bound_ <= m.objective_ and m.gap_ > 0
    assert abs(m.tree_.n_leaves * 0.005 + (m.predict(X) != y).mean() - m.objective_) < 1e-9
    with pytest.raises(ParameterError): OSDTClassifier(memory_limit=0).fit(X, y)
