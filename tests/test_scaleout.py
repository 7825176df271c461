"""Scale-out (issue 13 part 4): every estimator of the package clones, pickles (fitted and unfitted) and fits inside
joblib worker processes; `n_jobs` in the package's own fold loops gives the serial result; workers load the numba
kernels from the cache instead of compiling them again.

The list of estimators is found by introspection, so a new estimator without a recipe below fails
`test_every_estimator_has_a_recipe` instead of being silently left out.
"""
import importlib
import inspect
import pickle
import pkgutil

import numpy as np
import pytest
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone

import glassworks


def _public_estimator_classes():
    "Every public scikit-learn estimator class defined in a glassworks module (the bases in glassworks.base excluded)."
    found = {}
    for mod in pkgutil.iter_modules(glassworks.__path__):
        if mod.name.startswith('_'): continue                     # __main__, _modidx
        m = importlib.import_module(f'glassworks.{mod.name}')
        for name, cls in vars(m).items():
            if (inspect.isclass(cls) and issubclass(cls, BaseEstimator) and not name.startswith('_')
                    and cls.__module__ == m.__name__ and cls.__module__ != 'glassworks.base'):
                found[name] = cls
    return found


def _data():
    rng = np.random.default_rng(0)
    Xb = (rng.random((80, 6)) < 0.5).astype(np.uint8)
    Xc = rng.normal(size=(80, 4))
    yr = Xc[:, 0] * Xc[:, 1] + Xc[:, 2] + 0.1 * rng.normal(size=80)
    return Xb, Xc, yr, (Xb[:, 0] ^ Xb[:, 1]).astype(int)


def _gb():
    from sklearn.ensemble import GradientBoostingRegressor
    return GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0)


def _recipes():
    """name -> list of (estimator, X, y, output method): one small fit each (several where settings change the code
    path)."""
    from glassworks.binarize import Binarizer
    from glassworks.osdt import OSDTClassifier
    from glassworks.osrt import OSRTRegressor
    from glassworks.hierscale import HierScaleRegressor
    from glassworks.ogb import RuleBoostingRegressor, RuleBoostingClassifier
    from glassworks.extract import RuleExtractor
    Xb, Xc, yr, yc = _data()
    return {
        'Binarizer': [(Binarizer(output='numpy'), Xc, None, 'transform')],
        'OSDTClassifier': [(OSDTClassifier(0.02, search='bnb'), Xb, yc, 'predict'),
                           (OSDTClassifier(0.02, search='dp'), Xb, yc, 'predict'),
                           (OSDTClassifier(0.05, max_depth=2, binarizer='quantile'), Xc, (yr > 0).astype(int),
                            'predict')],
        'OSRTRegressor': [(OSRTRegressor(0.02), Xb, Xb[:, 0] * 2.0 + Xb[:, 3], 'predict')],
        'HierScaleRegressor': [(HierScaleRegressor(n_lambda=10), Xc, yr, 'predict'),
                               (HierScaleRegressor(n_lambda=10, cv=3, n_jobs=2), Xc, yr, 'predict')],
        'RuleBoostingRegressor': [(RuleBoostingRegressor(max_rules=4), Xc, yr, 'predict')],
        'RuleBoostingClassifier': [(RuleBoostingClassifier(max_rules=4), Xc, (yr > 0).astype(int), 'predict_proba')],
        'RuleExtractor': [(RuleExtractor(_gb(), max_rules=4), Xc, yr, 'predict'),
                          (RuleExtractor(_gb(), max_rules=4, solver='exact', ridge=1.0), Xc, yr, 'predict')],
    }


def test_every_estimator_has_a_recipe():
    found, recipes = set(_public_estimator_classes()), set(_recipes())
    assert {'OSDTClassifier', 'OSRTRegressor', 'HierScaleRegressor', 'RuleBoostingRegressor', 'RuleBoostingClassifier',
            'RuleExtractor', 'Binarizer'} <= found, found
    assert found == recipes, f"estimators without a recipe in tests/test_scaleout.py: {sorted(found - recipes)}"


def _cases():
    return [pytest.param(name, i, id=f'{name}-{i}') for name, rs in _recipes().items() for i in range(len(rs))]


def _out(est, X, method):
    return np.asarray(getattr(est, method)(X), dtype=float)


def _fit_out(est, X, y, method):
    "Fit a clone and return (its output on X, the fitted estimator): what a worker sends back."
    m = clone(est).fit(X, y)
    return _out(m, X, method), m


@pytest.mark.parametrize('name,i', _cases())
def test_clone_and_pickle(name, i):
    est, X, y, method = _recipes()[name][i]
    c = clone(est)
    assert type(c) is type(est) and c.get_params(deep=False).keys() == est.get_params(deep=False).keys()
    u = pickle.loads(pickle.dumps(est))                                   # unfitted round trip, then fitted
    assert repr(u) == repr(est)
    ref, fitted = _fit_out(est, X, y, method)
    np.testing.assert_array_equal(_out(u.fit(X, y), X, method), ref)
    back = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(_out(back, X, method), ref)
    # a clone of a fitted one refits the same
    np.testing.assert_array_equal(_out(clone(back).fit(X, y), X, method), ref)


def test_every_estimator_fits_in_loky_workers():
    "Fitted in loky worker processes and sent back: same outputs in the worker and after the trip, as a serial fit."
    cases = [r for rs in _recipes().values() for r in rs]
    serial = [_fit_out(est, X, y, m)[0] for est, X, y, m in cases]
    got = Parallel(n_jobs=2, backend='loky')(delayed(_fit_out)(est, X, y, m) for est, X, y, m in cases)
    for (est, X, y, m), s, (w, fitted) in zip(cases, serial, got):
        np.testing.assert_array_equal(w, s, err_msg=repr(est))
        np.testing.assert_array_equal(_out(fitted, X, m), s, err_msg=repr(est))


# ---------------------------------------------------------------- n_jobs in the package's own loops
def test_hierscale_cv_n_jobs_equals_serial():
    from glassworks.hierscale import HierScaleRegressor
    from glassworks.datasets import make_hierarchical
    X, y, _ = make_hierarchical(n=150, p=6, random_state=3)
    ser = HierScaleRegressor(n_lambda=15, cv=4, random_state=1).fit(X, y)
    for n_jobs in (1, 2, -1):
        par = HierScaleRegressor(n_lambda=15, cv=4, random_state=1, n_jobs=n_jobs).fit(X, y)
        np.testing.assert_array_equal(par.cv_mse_, ser.cv_mse_)
        assert par.best_index_ == ser.best_index_ and par.stats_['folds'] == 4
        np.testing.assert_array_equal(par.predict(X), ser.predict(X))


def test_hierscale_fold_errors_are_the_folds_mean():
    "The parallel reduction is the one of the definition: cv_mse_ is the mean over folds of each fold's validation MSE."
    from glassworks.hierscale import HierScaleRegressor, hierscale_path
    rng = np.random.default_rng(5)
    X = rng.normal(size=(90, 4))
    y = X[:, 0] * X[:, 1] + X[:, 2] + 0.1 * rng.normal(size=90)
    est = HierScaleRegressor(n_lambda=6, cv=3, random_state=2, n_jobs=2).fit(X, y)
    folds = np.array_split(np.random.default_rng(2).permutation(90), 3)
    mse = []
    for val in folds:
        tr = np.setdiff1d(np.arange(90), val)
        p = hierscale_path(X[tr], y[tr], lambdas=est.path_.lambda1, alpha=est.alpha, tol=est.tol)
        mse.append([np.mean((y[val] - p.predict(X[val], k)) ** 2) for k in range(len(p))])
    K = min(len(m) for m in mse)
    np.testing.assert_allclose(est.cv_mse_[:K], np.mean([m[:K] for m in mse], axis=0), rtol=1e-12)


def test_extractor_gamma_cv_n_jobs_equals_serial():
    from sklearn.datasets import make_friedman1
    from glassworks.extract import RuleExtractor
    X, y = make_friedman1(200, random_state=0)
    gb = _gb().set_params(n_estimators=20, max_depth=3).fit(X, y)
    ser = RuleExtractor(gb, max_rules=6).fit(X, y)
    assert len(ser.cv_results_) == 5
    for n_jobs in (2, -1):
        par = RuleExtractor(gb, max_rules=6, n_jobs=n_jobs).fit(X, y)
        assert par.cv_results_ == ser.cv_results_ and par.gamma_rel_ == ser.gamma_rel_
        np.testing.assert_array_equal(par.nodes_, ser.nodes_)
        np.testing.assert_array_equal(par.predict(X), ser.predict(X))


def test_extractor_gamma_cv_time_limit_in_parallel():
    """A time limit already spent stops the parallel CV as it stops the serial one: no candidate scored, the strongest
    ridge."""
    from glassworks.extract import _cv_gamma
    from glassworks.base import SearchMonitor
    from sklearn.datasets import make_friedman1
    X, y = make_friedman1(60, random_state=0)
    gb = _gb().fit(X, y)
    from glassworks.extract import node_table
    a = node_table(gb, X).attribute('rules')
    for n_jobs in (None, 2):
        g, scores = _cv_gamma(gb, X, y, None, a, (0.1, 1.0, 10.0), 3, monitor=SearchMonitor(time_limit=0.0),
                              n_jobs=n_jobs)
        assert (g, scores) == (10.0, {})


# ---------------------------------------------------------------- numba kernels come from the cache in workers
def _glassworks_dispatchers():
    from numba.core.registry import CPUDispatcher
    out = {}
    for mod in pkgutil.iter_modules(glassworks.__path__):
        if mod.name.startswith('_'): continue
        m = importlib.import_module(f'glassworks.{mod.name}')
        out.update({f'{mod.name}.{k}': v for k, v in vars(m).items()
                    if isinstance(v, CPUDispatcher) and v.py_func.__module__ == m.__name__})
    return out


def test_every_kernel_is_cached():
    import re
    from pathlib import Path
    src = {p.name: p.read_text() for p in Path(glassworks.__file__).parent.glob('*.py')}
    uncached = [(f, m.group(0)) for f, t in src.items()
                for m in re.finditer(r'@(?:numba\.)?n?jit\b[^\n]*', t)
                if 'cache=True' not in m.group(0) and 'cache=_CACHE_RECORDS' not in m.group(0)]   # (see treedp)
    assert uncached == [], f"numba kernels without cache=True: {uncached}"
    ds = _glassworks_dispatchers()
    assert len(ds) == sum(len(re.findall(r'@(?:numba\.)?n?jit\b', t)) for t in src.values()) > 100
    # @njit(cache=True) gives the dispatcher a FunctionCache (on disk); a plain @njit a NullCache
    assert [k for k, d in ds.items() if type(d._cache).__name__ != 'FunctionCache'] == []


def _fit_and_count_misses(est, X, y):
    clone(est).fit(X, y)
    return sum(sum(d.stats.cache_misses.values()) for d in _glassworks_dispatchers().values())


def test_workers_load_kernels_from_the_cache():
    "Once the parent has compiled (and so cached) the kernels, a fresh worker process compiles none of them."
    cases = [r[:3] for rs in _recipes().values() for r in rs]
    for est, X, y in cases: clone(est).fit(X, y)                           # compile and cache here
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)                            # fresh workers: nothing compiled in them yet
    misses = Parallel(n_jobs=2, backend='loky')(delayed(_fit_and_count_misses)(est, X, y) for est, X, y in cases)
    assert misses == [0] * len(cases)
