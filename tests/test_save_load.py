"""Issue 44: every fitted estimator saves to JSON and loads back predicting the raw table exactly as before, with
every binarizer; the file is data only (no pickle), and what is not data is said to be left out."""
import json
import numpy as np
import pandas as pd
import pytest

import glassworks
from glassworks.base import load_model
from glassworks.binarize import Binarizer
from glassworks.models import RuleEnsemble, RuleList, Tree, model_from_json
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
    yield 'ogb regressor', G.RuleBoostingRegressor(max_rules=2), X, yr
    yield 'ogb classifier', G.RuleBoostingClassifier(max_rules=2), X, yc
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


# --- the models alone: a fitted model object predicts the raw table, before and after JSON and save/load ------------
def _mixed():
    "The table of `_tables` with a categorical column and missing values in one numeric column."
    X, yr, yc = _tables()
    rng = np.random.default_rng(1)
    X = X.assign(city=rng.choice(['Oslo', 'Rome', 'Lima'], len(X)))
    yr = yr + (X['city'] == 'Rome') * 1.5
    yc = np.where(yr > np.median(yr), 'high', 'low')
    return X, yr, yc


def _model_cases():
    "Every estimator that exposes a model object, with every binarizer strategy and rule boosting's languages."
    from sklearn.ensemble import GradientBoostingRegressor
    G = glassworks
    X, yr, yc = _tables()
    M, mr, mc = _mixed()
    Mn = M.assign(income=M['income'].mask(M.index % 6 == 0))                  # NaN in 'income'
    for b in ('quantile', 'midpoints', 'equal_width', 'gbdt'):
        yield f'osdt {b}', G.OSDTClassifier(0.02, max_depth=2, binarizer=b), M, mc
        yield f'osrt {b}', G.OSRTRegressor(0.02, max_depth=2, binarizer=b), M, mr
        nan = Binarizer(strategy=b, n_bins=3, missing='indicator')
        yield f'osdt {b} nan', G.OSDTClassifier(0.02, max_depth=2, binarizer=nan), Mn, mc
        yield f'osrt {b} nan', G.OSRTRegressor(0.02, max_depth=2, binarizer=nan), Mn, mr
    yield 'osdt bnb', G.OSDTClassifier(0.05, binarizer='quantile', search='bnb', max_leaves=3), M, mc
    yield 'osdt numeric', G.OSDTClassifier(0.02, max_depth=2), X, yc
    yield 'osrt numeric', G.OSRTRegressor(0.02, max_depth=2), X, yr
    for lang in ('quantile', 'paper', 'fastogb'):
        yield f'ogb regressor {lang}', G.RuleBoostingRegressor(max_rules=3, language=lang), M, mr
        yield f'ogb classifier {lang}', G.RuleBoostingClassifier(max_rules=3, language=lang), M, mc
    gb = GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0).fit(X, yr)
    yield 'extract', G.RuleExtractor(gb, max_rules=3), X, yr


def _model_of(est):
    return next(v for k, v in vars(est).items() if k in ('tree_', 'model_'))


def _unseen(X):
    "X with an unseen level, missing values where the training table had none, and its columns in another order."
    out = X.iloc[::-1].copy()
    if 'city' in out: out['city'] = np.where(np.arange(len(out)) % 4 == 0, 'Atlantis', out['city'])
    out['x4'] = out['x4'].mask(np.arange(len(out)) % 5 == 0)
    return out[out.columns[::-1]]


@pytest.mark.parametrize('case', list(_model_cases()), ids=lambda c: c[0])
def test_the_model_alone_predicts_the_raw_table(case, tmp_path):
    """Issue 44, item 4: `est.tree_` / `est.model_` of an estimator that binarised its input predicts the raw table
    (DataFrame and array) as `est.predict` does, also after `to_json` and after `save`/`load`; unseen levels and
    missing values behave as in `est.predict` (the same predictions, or both refuse); its 0/1 features still work."""
    name, est, X, y = case
    est.fit(X, y)
    model = _model_of(est)
    assert isinstance(model, (Tree, RuleList, RuleEnsemble))
    binarised = getattr(est, 'binarizer_', None) is not None
    assert (model.feature_info is not None) == binarised and (model.raw_input is not None) == binarised
    again = model_from_json(model.to_json())
    loaded = _model_of(load_model(est.save(tmp_path / 'm.json')))
    assert again == model and loaded == model
    tables = [X, X.to_numpy(), X.iloc[:7], X[X.columns[::-1]]]
    for Xp in tables:
        want = est.predict(Xp)
        for m in (model, again, loaded): np.testing.assert_array_equal(m.predict(Xp), want)
    if hasattr(est, 'predict_proba'):
        np.testing.assert_allclose(again.predict_proba(X), est.predict_proba(X), rtol=1e-12, atol=1e-12)
    odd = _unseen(X)
    try: want = est.predict(odd)
    except InputError:
        for m in (model, again):
            with pytest.raises(InputError, match='missing value' if binarised else 'NaN'): m.predict(odd)
    else:
        for m in (model, again): np.testing.assert_array_equal(m.predict(odd), want)
    if binarised:                                                          # its own 0/1 features, as before
        B = np.asarray(est.binarizer_.transform(X), dtype=float)
        assert B.shape[1] != X.shape[1]                                    # (an array's width says which it is)
        np.testing.assert_array_equal(again.predict(B), est.predict(X))


def test_nan_and_unseen_levels_as_the_estimator():
    """A NaN in a column that had none at fit: every test on it false under missing='indicator' (as
    `Binarizer.transform`), refused under 'error'; an unseen level matches no feature."""
    X, _, yc = _mixed()
    est = glassworks.OSDTClassifier(0.02, max_depth=2, binarizer=Binarizer(missing='indicator')).fit(X, yc)
    odd = X.assign(age=np.nan, city='Atlantis')
    np.testing.assert_array_equal(est.tree_.predict(odd), est.predict(odd))
    strict = glassworks.OSDTClassifier(0.02, max_depth=2, binarizer='quantile').fit(X, yc)
    with pytest.raises(InputError): strict.predict(odd)
    with pytest.raises(InputError, match="column 'age' has 120 missing value"): strict.tree_.predict(odd)
    with pytest.raises(InputError, match='missing column'): strict.tree_.predict(X.drop(columns='city'))
