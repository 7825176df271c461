"""Issue 43, third hardening round, the rule methods: rule boosting (OGB), hierScale and rule extraction. Each test
failed before its fix: a crash on two cut points of one name, time limits that did not cover the binarisation (OGB)
or did not exist (hierScale), an incumbent lost on Ctrl-C (RuleExtractor's exact solver), unvalidated parameters;
then hypothesis properties over parameters and small random fits."""
import os, signal, threading, time
import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning
from glassworks.ogb import RuleBoostingRegressor, RuleBoostingClassifier
from glassworks.boosting import ThresholdEncoder, threshold_propositions


@pytest.fixture
def ctrl_c_live():
    "Python's default SIGINT handler (a shell may start background jobs with SIGINT ignored; see test_interrupt)."
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, outer)


def _interrupt_after(seconds):
    "A started timer that sends SIGINT to this process after `seconds`."
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    t.start()
    return t


main_thread_only = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                      reason='signals reach the main thread only')


# ---- 1. OGB: two cut points of one printed name ------------------------------------------------------------------
X_TIE = np.repeat([0., 1, 2, 3, 4, 5], [9, 13, 12, 8, 7, 7]).reshape(-1, 1)


@pytest.mark.parametrize('seed', range(21))
def test_ogb_cut_points_that_print_alike(seed):
    """qcut's edges on X_TIE include 2 and 2 + 1.4e-14 (its quantile at level 0.6 lands a rounding error above 2):
    both printed as `x0 <= 2`, the feature names repeated and the fit raised "feature names must be unique"."""
    y = np.random.default_rng(seed).normal(size=len(X_TIE))
    m = RuleBoostingRegressor(n_rules=1).fit(X_TIE, y)
    names = list(m.binarizer_.get_feature_names_out())
    assert len(set(names)) == len(names)
    assert np.isfinite(m.predict(X_TIE)).all()


def test_ogb_thresholds_closer_than_six_digits():
    "Distinct data values 1, 1 + 1e-9, ... : every split is kept, and the names print enough digits to differ."
    x = (1 + np.arange(40) % 4 * 1e-9).reshape(-1, 1)
    y = np.random.default_rng(0).normal(size=40)
    for lang in ('paper', 'fastogb', 'quantile'):
        m = RuleBoostingRegressor(n_rules=3, language=lang).fit(x, y)
        names = list(m.binarizer_.get_feature_names_out())
        assert len(set(names)) == len(names), (lang, names)
        assert np.isfinite(m.predict(x)).all()
    m = RuleBoostingRegressor(n_rules=1).fit(X_TIE, X_TIE.ravel())
    assert np.isfinite(m.predict(X_TIE)).all()
    assert RuleBoostingClassifier(n_rules=2).fit(X_TIE, X_TIE.ravel() > 2).predict(X_TIE).shape == (len(X_TIE),)


def test_threshold_encoder_columns_at_once_equal_one_by_one():
    "The vectorised encoder gives each column `threshold_propositions` of that column (and so pandas' qcut edges)."
    rng = np.random.default_rng(1)
    X = np.column_stack([X_TIE.ravel(), rng.integers(0, 4, 56), rng.normal(size=56), rng.integers(0, 40, 56) / 7,
                         np.r_[np.zeros(40), rng.normal(size=16)], np.ones(56)])
    for lang in ('paper', 'fastogb'):
        for k in (1, 2, 4, 7):
            enc = ThresholdEncoder(lang, k).fit(X)
            for j in range(X.shape[1]):
                got = [(f['op'], f['value']) for f in enc.feature_info_ if f['index'] == j]
                ref = threshold_propositions(X[:, j], lang, k)
                assert got == ref if j != 5 else got == []
            qc = pd.qcut(pd.Series(X[:, 2]), k + 1, retbins=True, duplicates='drop')[1][1:]
            if lang == 'paper': assert [t for op, t in threshold_propositions(X[:, 2], lang, k)][::2] == list(qc)


# ---- 2. OGB: the time limit covers the binarisation ---------------------------------------------------------------
@pytest.fixture(scope='module')
def wide():
    "30 rows x 5,000 numeric columns (the issue's table); the kernels are compiled on a small slice first."
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 5000)), rng.normal(size=30)
    RuleBoostingRegressor(n_rules=2).fit(X[:, :5], y)
    RuleBoostingClassifier(n_rules=2).fit(X[:, :5], y > 0)
    return X, y


@pytest.mark.parametrize('cls', [RuleBoostingRegressor, RuleBoostingClassifier])
def test_ogb_time_limit_counts_the_binarisation(wide, cls):
    "A 1 s limit on 30 x 5,000: the binarisation alone took ~8 s before (a 5 s limit ran 12.6 s)."
    X, y = wide
    target = y if cls is RuleBoostingRegressor else y > 0
    t = time.perf_counter()
    with pytest.warns(ConvergenceWarning, match='time_limit'):
        m = cls(time_limit=1.0).fit(X, target)
    seconds = time.perf_counter() - t
    assert m.stopping_reason_ == 'time_limit' and m.fit_time_ <= seconds
    assert seconds < 3.5, seconds                  # the Binarizer's own checks (not interruptible) cost ~1 s here
    assert m.predict(X).shape == (30,)


@main_thread_only
def test_ogb_ctrl_c_during_the_binarisation(wide, ctrl_c_live):
    X, y = wide
    timer = _interrupt_after(1.2)
    try:
        t = time.perf_counter()
        with pytest.warns(ConvergenceWarning, match='interrupt'):
            m = RuleBoostingRegressor(n_rules=50).fit(X, y)
        seconds = time.perf_counter() - t
    finally: timer.cancel()
    assert m.stopping_reason_ == 'interrupt' and seconds < 4.0
    assert np.isfinite(m.predict(X)).all()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# ---- 3. hierScale: time limit, memory limit, Ctrl-C ---------------------------------------------------------------
@pytest.fixture(scope='module')
def hier_data():
    "300 x 80 with an interaction: a 50-lambda path with 3-fold CV takes seconds (kernels compiled on a slice first)."
    from glassworks.hierscale import HierScaleRegressor
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 80))
    y = X[:, 0] * X[:, 1] + X[:, 2] + rng.normal(size=300)
    HierScaleRegressor(n_lambda=5).fit(X[:, :5], y)
    return X, y


@pytest.mark.parametrize('limit', [1e-6, 0.3, 1.0])
def test_hierscale_time_limit(hier_data, limit):
    "No `time_limit` before: the whole path and every fold ran to the end."
    from glassworks.hierscale import HierScaleRegressor
    X, y = hier_data
    t = time.perf_counter()
    with pytest.warns(ConvergenceWarning, match='stopped by time_limit'):
        m = HierScaleRegressor(n_lambda=50, cv=3, time_limit=limit).fit(X, y)
    assert time.perf_counter() - t < limit + 0.6
    assert m.stats_['stopped_by'] == 'time_limit' and not m.stats_['complete']
    assert m.path_.stats_['stopped_by'] == 'time_limit' and len(m.path_) < 50
    assert 1 <= m.stats_['validated'] <= len(m.path_) and np.isfinite(m.cv_mse_[m.best_index_])
    assert np.isfinite(m.predict(X)).all() and m.hierarchy_respected()


def test_hierscale_path_function_limits(hier_data):
    from glassworks.hierpath import hierscale_path
    X, y = hier_data
    with pytest.warns(ConvergenceWarning, match='hierscale_path stopped by time_limit after 1 of 50'):
        p = hierscale_path(X, y, n_lambda=50, time_limit=1e-9)
    assert len(p) == 1 and p.stats_['stopped_by'] == 'time_limit'
    p = hierscale_path(X[:, :6], y, n_lambda=5, time_limit=60)      # a path that ends is not stopped
    assert len(p) == 5 and p.stats_['stopped_by'] is None


@pytest.fixture
def memory_grows(monkeypatch):
    "Every read of the resident memory shows 1 GB more than the last (as in test_hardening_round2)."
    import glassworks.base as base
    reads = iter(range(10**9))
    monkeypatch.setattr(base, 'resident_bytes', lambda: 2**30 * next(reads))
    monkeypatch.setattr(base.SearchMonitor, 'MEMORY_EVERY', 0.0)


def test_hierscale_memory_limit(hier_data, memory_grows):
    from glassworks.hierscale import HierScaleRegressor
    X, y = hier_data
    with pytest.warns(ConvergenceWarning, match='memory_limit'):
        m = HierScaleRegressor(n_lambda=50, memory_limit=2.5).fit(X, y)
    assert m.stats_['stopped_by'] == 'memory_limit' and not m.stats_['complete'] and len(m.path_) < 50
    assert np.isfinite(m.predict(X)).all()


@main_thread_only
def test_hierscale_ctrl_c_returns_the_best_model_so_far(hier_data, ctrl_c_live):
    from glassworks.hierscale import HierScaleRegressor
    X, y = hier_data
    timer = _interrupt_after(0.8)
    try:
        t = time.perf_counter()
        with pytest.warns(ConvergenceWarning, match='interrupt'):
            m = HierScaleRegressor(n_lambda=200, lambda_min_ratio=0.01, cv=5).fit(X, y)
        seconds = time.perf_counter() - t
    finally: timer.cancel()
    assert m.stats_['stopped_by'] == 'interrupt' and not m.stats_['complete'] and seconds < 2.5
    assert np.isfinite(m.predict(X)).all()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
