"""What practitioners expect of every fitted model (issue 22): feature importances, probabilities, class weights."""
import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_breast_cancer
from sklearn.ensemble import GradientBoostingRegressor

from glassworks import (OSDTClassifier, OSRTRegressor, HierScaleRegressor, RuleBoostingRegressor,
                        RuleBoostingClassifier, RuleExtractor)


def _reg():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return X.iloc[:200], y.iloc[:200]


def _cls():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    return X.iloc[:200, :8], y.iloc[:200]


ESTIMATORS = {
    'osdt': (lambda: OSDTClassifier(0.01, max_depth=2, binarizer='quantile'), _cls),
    'osrt': (lambda: OSRTRegressor(0.02, max_depth=2, binarizer='quantile'), _reg),
    'osrt-l1': (lambda: OSRTRegressor(0.02, max_depth=2, metric='l1', binarizer='quantile'), _reg),
    'hierscale': (lambda: HierScaleRegressor(n_lambda=8), _reg),
    'ogb-reg': (lambda: RuleBoostingRegressor(max_rules=3, search='greedy'), _reg),
    'ogb-cls': (lambda: RuleBoostingClassifier(max_rules=3, search='greedy'), _cls),
    'extract': (lambda: RuleExtractor(GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0),
                                      max_rules=4, ridge=1.0), _reg),
}


@pytest.mark.parametrize('name', list(ESTIMATORS))
def test_feature_importances_over_input_columns(name):
    make, data = ESTIMATORS[name]
    X, y = data()
    m = make().fit(X, y)
    fi = m.feature_importances_
    assert fi.shape == (X.shape[1],) and (fi >= 0).all() and abs(fi.sum() - 1) < 1e-12
    assert not hasattr(make(), 'feature_importances_')            # set by fit only


def test_tree_importances_credit_the_columns_the_tree_splits_on():
    X, y = _reg()
    m = OSRTRegressor(0.02, max_depth=2, binarizer='quantile').fit(X, y)
    used = {m.binarizer_.feature_info_[m.tree_.feature_names.index(f)]['column'] for f in m.tree_.features_used}
    assert set(X.columns[m.feature_importances_ > 0]) <= used


def test_osdt_predict_proba_orders_like_classes():
    X = np.array([[0], [0], [0], [1], [1], [1], [1]])
    y = np.array(['z', 'z', 'a', 'a', 'a', 'a', 'z'])
    m = OSDTClassifier(0.01).fit(X, y)
    P = m.predict_proba(X)
    assert list(m.classes_) == ['a', 'z']
    assert np.allclose(P.sum(1), 1) and (m.classes_[P.argmax(1)] == m.predict(X)).all()
    assert np.allclose(P[0], [1 / 3, 2 / 3]) and np.allclose(P[-1], [3 / 4, 1 / 4])


def test_osdt_class_weight_equals_sample_weight():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 4))
    y = rng.integers(0, 2, 60)
    a = OSDTClassifier(0.02, max_depth=3, class_weight={1: 3.0}).fit(X, y)
    b = OSDTClassifier(0.02, max_depth=3).fit(X, y, sample_weight=np.where(y == 1, 3.0, 1.0))
    assert abs(a.objective_ - b.objective_) < 1e-12 and a.tree_ == b.tree_
    bal = OSDTClassifier(0.02, max_depth=3, class_weight='balanced').fit(X, y)
    W = np.bincount(y)
    w = (60 / (2 * W))[y]
    c = OSDTClassifier(0.02, max_depth=3).fit(X, y, sample_weight=w)
    assert abs(bal.objective_ - c.objective_) < 1e-12
