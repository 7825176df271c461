"""Cross-validation and lambda sweeps on a Dask cluster (issue 13 part 4): joblib's dask backend sends scikit-learn's
GridSearchCV fits and hierScale's CV folds to the workers of a `LocalCluster` (two worker processes, one thread each);
every result equals the serial run.

Skipped when dask.distributed is not installed, unless env CI is set (it is a dev requirement: then it fails).
"""
import os

import numpy as np
import pytest

if os.environ.get('CI'):
    try:
        import dask.distributed  # noqa: F401
    except ImportError as e:
        pytest.fail(f"dask[distributed] is in settings.ini dev_requirements but cannot be imported on CI: {e}",
                    pytrace=False)
distributed = pytest.importorskip('dask.distributed', reason='dask[distributed] is not installed '
                                  '(pip install glassworks[distributed])')

from joblib import parallel_config
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold

from glassworks.datasets import load, make_hierarchical
from glassworks.hierscale import HierScaleRegressor
from glassworks.osdt import OSDTClassifier


@pytest.fixture(scope='module')
def client():
    "Two worker processes with one thread each (and one numba thread each); closed after the module's tests."
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       env={'NUMBA_NUM_THREADS': '1', 'OMP_NUM_THREADS': '1'})
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()
    assert c.status == 'closed'


def _search():
    X, y, _ = load('monk1-train')
    grid = {'regularization': [0.005, 0.02, 0.05, 0.1], 'max_depth': [2, 3]}
    return GridSearchCV(OSDTClassifier(), grid, cv=KFold(4, shuffle=True, random_state=0), n_jobs=-1), X, y


def test_gridsearch_osdt_on_dask_equals_serial(client):
    search, X, y = _search()
    serial = clone(search).set_params(n_jobs=None).fit(X, y)
    with parallel_config(backend='dask'), distributed.get_task_stream(client) as ts:
        dist = search.fit(X, y)
    assert len(ts.data) >= 1, 'no task reached the cluster'
    for key in (('mean_test_score', 'std_test_score', 'rank_test_score')
                + tuple(f'split{k}_test_score' for k in range(4))):
        np.testing.assert_array_equal(dist.cv_results_[key], serial.cv_results_[key], err_msg=key)
    assert dist.best_params_ == serial.best_params_ and dist.best_score_ == serial.best_score_
    b, s = dist.best_estimator_, serial.best_estimator_
    assert b.objective_ == s.objective_ and str(b.tree_) == str(s.tree_)
    np.testing.assert_array_equal(b.predict(X), s.predict(X))


def test_hierscale_cv_on_dask_equals_serial(client):
    X, y, _ = make_hierarchical(n=200, p=8, random_state=0)
    est = HierScaleRegressor(n_lambda=20, cv=4, random_state=0, n_jobs=2)
    serial = clone(est).set_params(n_jobs=None).fit(X, y)
    with parallel_config(backend='dask'), distributed.get_task_stream(client) as ts:
        dist = clone(est).fit(X, y)
    ran = [t for t in ts.data if 'hierscale_fold_mse' in t['key']]
    assert len(ran) >= 1 and {t['worker'] for t in ts.data} <= set(client.scheduler_info()['workers']), ts.data[:2]
    np.testing.assert_array_equal(dist.cv_mse_, serial.cv_mse_)
    assert dist.best_index_ == serial.best_index_ and dist.stats_['folds'] == 4
    np.testing.assert_array_equal(dist.coef_main_, serial.coef_main_)
    np.testing.assert_array_equal(dist.predict(X), serial.predict(X))
