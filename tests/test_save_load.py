"""Issue 44: every fitted estimator saves to JSON and loads back predicting the raw table exactly as before, with
every binarizer; the file is data only (no pickle), and what is not data is said to be left out."""
import json
import numpy as np
import pandas as pd
import pytest

import glassworks
from glassworks.base import load_model
from glassworks.validation import InputError


def _tables():
    rng = np.random.default_rng(0)
    n = 120
    X = pd.DataFrame({'age': rng.normal(40, 10, n).round(1), 'income': rng.gamma(2.0, 20.0, n).round(2),
                      'score': rng.integers(0, 5, n).astype(float), 'x4': rng.normal(size=n)})
    yr = X['age'] / 10 + (X['income'] > 40) * 2 + rng.normal(size=n) * 0.3
    yc = np.where(yr > yr.median(), 'high', 'low')
    return X, yr.to_numpy(), yc


def _cases():
    from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
    G = glassworks
    X, yr, yc = _tables()
    gb = GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0).fit(X, yr)
    rf = RandomForestRegressor(n_estimators=3, max_depth=2, random_state=0).fit(X, yr)
    yield 'osdt numeric', G.OSDTClassifier(0.02, max_depth=2), X, yc
    for b in ('quantile', 'gbdt', 'midpoints'):
        yield f'osdt {b}', G.OSDTClassifier(0.02, max_depth=2, binarizer=b), X, yc
        yield f'osrt {b}', G.OSRTRegressor(0.02, max_depth=2, binarizer=b), X, yr
    yield 'osdt bnb', G.OSDTClassifier(0.05, binarizer='quantile', search='bnb', max_leaves=3), X, yc
    yield 'osrt numeric', G.OSRTRegressor(0.02, max_depth=2), X, yr
    yield 'hierscale', G.HierScaleRegressor(n_lambda=5), X, yr
    yield 'ogb regressor', G.RuleBoostingRegressor(n_rules=3), X, yr
    yield 'ogb classifier', G.RuleBoostingClassifier(n_rules=3), X, yc
    yield 'extract gb', G.RuleExtractor(gb, max_rules=3), X, yr
    yield 'extract rf exact', G.RuleExtractor(rf, max_rules=3, solver='exact'), X, yr


@pytest.mark.parametrize('case', list(_cases()), ids=lambda c: c[0])
def test_save_load_predicts_the_raw_table_as_before(case, tmp_path):
    name, est, X, y = case
    est.fit(X, y)
    path = est.save(tmp_path / 'model.json')
    doc = json.loads(path.read_text())                      # plain JSON
    assert doc['type'].endswith(type(est).__name__)
    back = type(est).load(path)
    assert type(back) is type(est)
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_array_equal(back.predict(X.to_numpy()), est.predict(X.to_numpy()))
    if hasattr(est, 'predict_proba'): np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    assert back.get_params(deep=False).keys() == est.get_params(deep=False).keys()
    if name.startswith('extract'): assert back.ensemble is None      # a scikit-learn object: not data, not saved
    other = load_model(path)
    np.testing.assert_array_equal(other.predict(X.iloc[:7]), est.predict(X.iloc[:7]))


def test_a_file_of_another_class_is_refused(tmp_path):
    X, yr, _ = _tables()
    glassworks.OSRTRegressor(0.05, max_depth=2).fit(X, yr).save(tmp_path / 'm.json')
    with pytest.raises(InputError, match='holds a OSRTRegressor, not a OSDTClassifier'):
        glassworks.OSDTClassifier.load(tmp_path / 'm.json')
    assert isinstance(glassworks.load_model(tmp_path / 'm.json'), glassworks.OSRTRegressor)
