"""The estimator contract of glassworks.base, exercised on a small exact solver defined here."""
import io
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from glassworks.base import SearchMonitor, ExactSolverMixin, GlassworksRegressor
from glassworks.validation import InputError, ParameterError


class MeanOnFeature(ExactSolverMixin, GlassworksRegressor):
    "Optimal one-split regressor on binary features (enumeration): a minimal exact solver."
    _binary_features = True

    def __init__(self, time_limit=None, verbose=0, shrink=0.0):
        self.time_limit, self.verbose, self.shrink = time_limit, verbose, shrink

    def fit(self, X, y, sample_weight=None):
        self._check_common_params()
        A, yy, w = self._validate_fit(X, y, task='regression', sample_weight=sample_weight)
        mon = SearchMonitor(self.time_limit, verbose=self.verbose)
        mu = np.average(yy, weights=w)
        self.split_, self.values_ = 0, (mu, mu)
        mon.update(upper=float(np.sum(w * (yy - mu) ** 2)), lower=0.0)
        for j in range(A.shape[1]):
            if mon.expired(nodes=j):
                break
            on = A[:, j] == 1
            if on.all() or not on.any():
                continue
            m1, m0 = np.average(yy[on], weights=w[on]), np.average(yy[~on], weights=w[~on])
            sse = np.sum(w[on] * (yy[on] - m1) ** 2) + np.sum(w[~on] * (yy[~on] - m0) ** 2)
            if sse < mon.upper:
                self.split_, self.values_ = j, (m0, m1)
            mon.update(upper=sse, nodes=j + 1)
        else:
            mon.update(lower=mon.upper)
        return self._set_result(mon, complete=mon.stopped_by is None)

    def predict(self, X):
        A = self._validate_predict(X)
        return np.where(A[:, self.split_] == 1, self.values_[1], self.values_[0])


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(40, 3)), columns=['a', 'b', 'c'])
    y = 3.0 * X['b'] + rng.normal(scale=0.1, size=40)
    return X, y


def test_contract(data):
    X, y = data
    est = MeanOnFeature().fit(X, y)
    assert est.split_ == 1 and est.optimal_ and est.gap_ == 0
    assert list(est.feature_names_in_) == ['a', 'b', 'c'] and est.feature_names_in_.dtype == object
    assert est.n_features_in_ == 3 and est.score(X, y) > 0.99
    assert est.get_params() == {'time_limit': None, 'verbose': 0, 'shrink': 0.0}
    assert repr(est) == 'MeanOnFeature()'
    assert repr(clone(est).set_params(shrink=0.5)) == 'MeanOnFeature(shrink=0.5)'
    assert {'time', 'time_to_best', 'nodes', 'stopped_by', 'trace'} <= set(est.stats_)
    assert 'optimal' in est.summary()


def test_numpy_input_has_no_feature_names_in(data):
    X, y = data
    est = MeanOnFeature().fit(X.to_numpy(), y.to_numpy())
    assert not hasattr(est, 'feature_names_in_') and est.feature_names_ == ['x0', 'x1', 'x2']
    # refitting on an array drops names learned from an earlier DataFrame fit
    est2 = MeanOnFeature().fit(X, y).fit(X.to_numpy(), y)
    assert not hasattr(est2, 'feature_names_in_')


def test_sklearn_tooling(data):
    X, y = data
    gs = GridSearchCV(MeanOnFeature(), {'shrink': [0.0, 1.0]}, cv=3).fit(X, y)
    assert gs.best_estimator_.split_ == 1
    pipe = make_pipeline(FunctionTransformer(lambda Z: Z), MeanOnFeature()).fit(X, y)
    assert pipe.score(X, y) > 0.99


def test_limits_give_best_so_far_with_gap(data):
    X, y = data
    est = MeanOnFeature(time_limit=1e-12).fit(X, y)
    assert not est.optimal_ and est.stats_['stopped_by'] == 'time_limit'
    assert est.gap_ == pytest.approx(est.objective_ - est.lower_bound_) and est.gap_ > 0
    assert np.allclose(est.predict(X), y.mean())  # the initial incumbent is still a valid model


def test_bad_input(data):
    X, y = data
    with pytest.raises(InputError, match='binary'):
        MeanOnFeature().fit(X * 2, y)
    with pytest.raises(InputError, match='inconsistent'):
        MeanOnFeature().fit(X, y[:5])
    with pytest.raises(InputError, match='NaN'):
        MeanOnFeature().fit(X.assign(a=np.nan), y)
    with pytest.raises(ParameterError, match='time_limit'):
        MeanOnFeature(time_limit=0).fit(X, y)
    with pytest.raises(ParameterError, match='verbose'):
        MeanOnFeature(verbose=-1).fit(X, y)
    with pytest.raises(InputError, match='sample_weight'):
        MeanOnFeature().fit(X, y, sample_weight=-np.ones(len(y)))
    est = MeanOnFeature().fit(X, y)
    with pytest.raises(InputError, match='MeanOnFeature is expecting 3 features as input'):
        est.predict(np.ones((2, 4)))
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        MeanOnFeature().predict(X)


def test_monitor_progress_and_trace_monotone():
    buf = io.StringIO()
    m = SearchMonitor(verbose=1, stream=buf, every=0.0)
    rng = np.random.default_rng(1)
    for _ in range(50):
        m.update(upper=rng.uniform(1, 2), lower=rng.uniform(0, 1))
    tr = np.array(m.trace)
    assert np.all(np.diff(tr[:, 1]) <= 0) and np.all(np.diff(tr[:, 2]) >= 0) and np.all(tr[:, 2] <= tr[:, 1])
    assert buf.getvalue().count('incumbent') == 50


def test_every_estimator_defines_fit_in_its_class_body():
    """`fit` must be in the class body (not added by `@patch` afterwards): `GlassworksEstimator.__init_subclass__`
    wraps it to report numba compilation (`compile_seconds_`), and scikit-learn builds `set_fit_request` from its
    signature when the class is created. A `fit` patched in later silently loses both."""
    from glassworks.registry import METHODS
    from glassworks.base import GlassworksEstimator
    classes = {m.estimator_class(t) for m in METHODS.values() for t in m.tasks}
    todo = [GlassworksEstimator]
    while todo:
        c = todo.pop()
        todo += c.__subclasses__()
        if (not c.__name__.startswith('_') and c.__module__.startswith('glassworks.')
                and c.__module__ != 'glassworks.base'):
            classes.add(c)
    assert len(classes) >= 6, classes
    for cls in classes:
        assert 'fit' in cls.__dict__ and hasattr(cls.fit, '__wrapped__'), f'{cls.__name__}.fit is not watched'
        assert hasattr(cls, 'set_fit_request'), f'{cls.__name__} has no set_fit_request'
