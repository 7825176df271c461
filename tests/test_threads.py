"""Concurrent fits: every estimator keeps its own time limit and result when fitted in threads (issue 12, item 2)."""
import threading
import time

import numpy as np
import pytest

from glassworks.osdt import OSDTClassifier


def _hard(seed):
    "Random labels on 16 random binary features with a tiny leaf price: far too hard to certify in a second."
    rng = np.random.default_rng(seed)
    return (rng.random((300, 16)) < 0.5).astype(np.uint8), (rng.random(300) < 0.5).astype(int)


def test_bnb_time_limits_hold_in_threads():
    OSDTClassifier(0.1, search='bnb').fit(*_hard(9))          # compile outside the timed part
    out, limit = {}, 0.5
    def fit(k):
        t = time.perf_counter()
        m = OSDTClassifier(0.001, search='bnb', time_limit=limit).fit(*_hard(k))
        out[k] = (time.perf_counter() - t, m)
    threads = [threading.Thread(target=fit, args=(k,), daemon=True) for k in range(3)]
    for th in threads: th.start()
    for th in threads: th.join(timeout=30)
    # with a module-global callback, the first fit to finish cleared it and the others ran on without a limit
    assert not any(th.is_alive() for th in threads), 'a threaded fit lost its time limit'
    for k, (secs, m) in out.items():
        assert m.stats_['stopped_by'] == 'time_limit' and not m.optimal_, k
        assert secs < limit + 10, (k, secs)


def test_threaded_results_equal_serial():
    data = [_hard(k) for k in range(4)]
    data = [(X[:60, :8], y[:60]) for X, y in data]
    serial = [OSDTClassifier(0.02, search='bnb').fit(X, y).objective_ for X, y in data]
    got = [None] * len(data)
    def fit(i): got[i] = OSDTClassifier(0.02, search='bnb').fit(*data[i]).objective_
    threads = [threading.Thread(target=fit, args=(i,)) for i in range(len(data))]
    for th in threads: th.start()
    for th in threads: th.join()
    assert got == serial


# ---------------------------------------------------------------- every estimator, threads and processes
def _estimators():
    "(name, estimator, X, y): one small fit per estimator of the package."
    from sklearn.ensemble import GradientBoostingRegressor
    from glassworks.osrt import OSRTRegressor
    from glassworks.hierscale import HierScaleRegressor
    from glassworks.ogb import RuleBoostingRegressor, RuleBoostingClassifier
    from glassworks.extract import RuleExtractor
    rng = np.random.default_rng(0)
    Xb = (rng.random((80, 6)) < 0.5).astype(np.uint8)
    Xc = rng.normal(size=(80, 4))
    yr = Xc[:, 0] * Xc[:, 1] + Xc[:, 2] + 0.1 * rng.normal(size=80)
    yc = (Xb[:, 0] ^ Xb[:, 1]).astype(int)
    return [('osdt_bnb', OSDTClassifier(0.02, search='bnb'), Xb, yc),
            ('osdt_dp', OSDTClassifier(0.02, search='dp'), Xb, yc),
            ('osrt', OSRTRegressor(0.02), Xb, Xb[:, 0] * 2.0 + Xb[:, 3]),
            ('hierscale', HierScaleRegressor(n_lambda=10), Xc, yr),
            ('ogb', RuleBoostingRegressor(max_rules=4), Xc, yr),
            ('ogb_clf', RuleBoostingClassifier(max_rules=4), Xc, (yr > 0).astype(int)),
            ('extract', RuleExtractor(GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0),
                                      max_rules=4), Xc, yr)]


def _fit_predict(est, X, y):
    from sklearn.base import clone
    return clone(est).fit(X, y).predict(X)


@pytest.mark.parametrize('backend', ['threading', 'loky'])
def test_every_estimator_fits_concurrently(backend):
    "Two copies of each estimator fitted at once (threads, then worker processes) predict what a serial fit predicts."
    from joblib import Parallel, delayed
    cases = _estimators()
    serial = [_fit_predict(est, X, y) for _, est, X, y in cases]
    got = Parallel(n_jobs=2, backend=backend)(delayed(_fit_predict)(est, X, y) for _, est, X, y in cases + cases)
    for (name, *_), s, a, b in zip(cases, serial, got[:len(cases)], got[len(cases):]):
        np.testing.assert_allclose(a, s, rtol=1e-9, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(b, s, rtol=1e-9, atol=1e-12, err_msg=name)
