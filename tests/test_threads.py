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
