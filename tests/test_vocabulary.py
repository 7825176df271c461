"""One vocabulary (issue 44): the same name for the same role across the estimators and the command line.

The renamed parameters still work for a while with a FutureWarning naming the new one, and give the same model;
`max_rules` counts the rules besides the intercept everywhere; `class_weight` means the same on every classifier;
every estimator has a `summary()`; the command line's options follow the same names."""
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.exceptions import NotFittedError
from sklearn.utils.class_weight import compute_sample_weight

from glassworks.cli import OneLineParser, add_commands, run_fit, run_predict, CLIError
from glassworks.extract import RuleExtractor
from glassworks.hierscale import HierScaleRegressor
from glassworks.models import model_from_dict
from glassworks.ogb import RuleBoostingClassifier, RuleBoostingRegressor
from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.validation import ParameterError

# old name -> new name, per estimator: the deprecated aliases of issue 44
RENAMED = {RuleBoostingRegressor: {'n_rules': 'max_rules', 'reg': 'ridge'},
           RuleBoostingClassifier: {'n_rules': 'max_rules', 'reg': 'ridge'},
           RuleExtractor: {'penalty': 'regularization', 'gamma': 'ridge'}}


@pytest.fixture(scope='module')
def reg_data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({'a': rng.uniform(size=120), 'b': rng.integers(0, 4, 120).astype(float),
                      'c': rng.normal(size=120)})
    y = 3.0 + 2.0 * (X.a > 0.5) - 1.5 * (X.b >= 2) * (X.c > 0) + 0.3 * rng.normal(size=120)
    return X, y.to_numpy()


@pytest.fixture(scope='module')
def clf_data():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({'a': rng.uniform(size=200), 'b': rng.integers(0, 3, 200).astype(float)})
    y = np.where(rng.uniform(size=200) < 0.05 + 0.35 * (X.a > 0.6), 'rare', 'common')   # 'rare' is rare everywhere
    return X, y


@pytest.fixture(scope='module')
def gb(reg_data):
    X, y = reg_data
    return GradientBoostingRegressor(n_estimators=8, max_depth=2, random_state=0).fit(X, y)


def fit_warned(est, X, y, old, new, **fit_kw):
    "Fit `est` (built with the deprecated `old`); the fit must warn once, a FutureWarning naming `new`."
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        est.fit(X, y, **fit_kw)
    fw = [w for w in caught if issubclass(w.category, FutureWarning)]
    assert len(fw) == 1, [str(w.message) for w in fw]
    msg = str(fw[0].message)
    assert f'`{old}` is deprecated' in msg and f'use `{new}`' in msg, msg
    assert fw[0].filename == __file__          # stacklevel: the warning points at the caller of `fit`
    return est


def fit_quiet(est, X, y, **fit_kw):
    "Fit with the new names: no FutureWarning at all."
    with warnings.catch_warnings():
        warnings.simplefilter('error', FutureWarning)
        return est.fit(X, y, **fit_kw)


# ------------------------------------------------------------------------------------------ deprecated aliases
def test_ogb_reg_is_ridge(reg_data, clf_data):
    X, y = reg_data
    old = fit_warned(RuleBoostingRegressor(max_rules=3, reg=0.3, search='greedy'), X, y, 'reg', 'ridge')
    new = fit_quiet(RuleBoostingRegressor(max_rules=3, ridge=0.3, search='greedy'), X, y)
    assert old.conjunctions_ == new.conjunctions_
    np.testing.assert_array_equal(old.predict(X), new.predict(X))
    Xc, yc = clf_data
    old = fit_warned(RuleBoostingClassifier(max_rules=2, reg=2.0, search='greedy'), Xc, yc, 'reg', 'ridge')
    new = fit_quiet(RuleBoostingClassifier(max_rules=2, ridge=2.0, search='greedy'), Xc, yc)
    np.testing.assert_array_equal(old.predict_proba(Xc), new.predict_proba(Xc))


def test_ogb_n_rules_counts_steps_max_rules_counts_rules(reg_data):
    """n_rules=k keeps its meaning (k steps, the intercept's among them); on an uncentred target the intercept is
    chosen, so n_rules=k is max_rules=k-1; max_rules=k gives k rules besides the intercept."""
    X, y = reg_data
    old = fit_warned(RuleBoostingRegressor(n_rules=4, search='greedy'), X, y, 'n_rules', 'max_rules')
    new = fit_quiet(RuleBoostingRegressor(max_rules=3, search='greedy'), X, y)
    assert () in old.conjunctions_ and len(old.conjunctions_) == 4 and old.stopping_reason_ == 'n_rules'
    assert old.conjunctions_ == new.conjunctions_ and new.stopping_reason_ == 'max_rules'
    np.testing.assert_array_equal(old.predict(X), new.predict(X))
    assert new.model_.n_rules == 3
    centred = fit_quiet(RuleBoostingRegressor(max_rules=3, search='greedy', ridge=0.0), X, y - y.mean())
    assert centred.model_.n_rules == 3                     # no intercept chosen: three rules all the same


def test_extract_penalty_is_regularization(reg_data, gb):
    X, y = reg_data
    old = fit_warned(RuleExtractor(gb, penalty=0.05, ridge=1.0), X, y, 'penalty', 'regularization')
    new = fit_quiet(RuleExtractor(gb, regularization=0.05, ridge=1.0), X, y)
    np.testing.assert_array_equal(old.nodes_, new.nodes_)
    np.testing.assert_allclose(old.predict(X), new.predict(X), rtol=1e-12)
    with pytest.raises(ParameterError, match='penalty'):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', FutureWarning)
            RuleExtractor(gb, penalty=-1.0).fit(X, y)


def test_extract_gamma_is_one_over_ridge(reg_data, gb):
    X, y = reg_data
    old = fit_warned(RuleExtractor(gb, max_rules=4, gamma=4.0), X, y, 'gamma', 'ridge')
    new = fit_quiet(RuleExtractor(gb, max_rules=4, ridge=0.25), X, y)
    assert old.gamma_rel_ == new.gamma_rel_ == 4.0 and new.ridge_ == 0.25
    np.testing.assert_array_equal(old.nodes_, new.nodes_)
    np.testing.assert_allclose(old.predict(X), new.predict(X), rtol=1e-12)
    old = fit_warned(RuleExtractor(gb, max_rules=4, gamma=[0.01, 10.0]), X, y, 'gamma', 'ridge')
    new = fit_quiet(RuleExtractor(gb, max_rules=4, ridge=[100.0, 0.1]), X, y)
    assert old.cv_results_ == new.cv_results_ and sorted(new.cv_results_) == [0.01, 10.0]
    assert new.ridge_ == 1 / new.gamma_rel_
    # more ridge, more shrinkage: the weights' norm falls as `ridge` grows (the meaning of OGB's ridge)
    norms = [np.linalg.norm(fit_quiet(RuleExtractor(gb, max_rules=4, ridge=r), X, y).model_.weights)
             for r in (0.01, 1.0, 100.0)]
    assert norms[0] > norms[1] > norms[2]


@pytest.mark.parametrize('cls', list(RENAMED))
def test_deprecated_parameters_are_ordinary_parameters(cls, gb):
    "get_params lists the old names (default 'deprecated'), clone and set_params carry them."
    est = cls(gb) if cls is RuleExtractor else cls()
    params = est.get_params()
    for old, new in RENAMED[cls].items():
        assert params[old] == 'deprecated' and new in params
    old = next(iter(RENAMED[cls]))
    est.set_params(**{old: 3})
    assert clone(est).get_params()[old] == 3


def test_no_estimator_uses_an_old_name():
    "The names of the vocabulary: the old ones exist only as deprecated aliases; each role has one name."
    ests = [OSDTClassifier(), OSRTRegressor(), HierScaleRegressor(), RuleBoostingRegressor(), RuleBoostingClassifier(),
            RuleExtractor()]
    for est in ests:
        p = est.get_params()
        for old in ('n_rules', 'reg', 'penalty', 'gamma'):
            assert p.get(old, 'deprecated') == 'deprecated', (type(est).__name__, old)
    price = [type(e).__name__ for e in ests if 'regularization' in e.get_params()]
    assert price == ['OSDTClassifier', 'OSRTRegressor', 'RuleExtractor']
    ridge = [type(e).__name__ for e in ests if 'ridge' in e.get_params()]
    assert ridge == ['RuleBoostingRegressor', 'RuleBoostingClassifier', 'RuleExtractor']
    rules = [type(e).__name__ for e in ests if 'max_rules' in e.get_params()]
    assert rules == ['RuleBoostingRegressor', 'RuleBoostingClassifier', 'RuleExtractor']
    cw = [type(e).__name__ for e in ests if 'class_weight' in e.get_params()]
    assert cw == ['OSDTClassifier', 'RuleBoostingClassifier']          # every classifier


def test_max_rules_counts_the_same_rules(reg_data, gb):
    "max_rules=k: at most k rules besides the intercept in both rule methods (`RuleEnsemble.n_rules`)."
    X, y = reg_data
    for k in (1, 3):
        m = fit_quiet(RuleBoostingRegressor(max_rules=k, search='greedy'), X, y)
        e = fit_quiet(RuleExtractor(gb, max_rules=k, ridge=1.0), X, y)
        assert m.model_.n_rules == k and e.model_.n_rules <= k   # the path may jump past k: fewer then


# ------------------------------------------------------------------------------------------------- class_weight
def test_class_weight_balanced_is_balanced_sample_weights(clf_data):
    "As scikit-learn's class_weight: 'balanced' is the same fit as compute_sample_weight('balanced', y)."
    X, y = clf_data
    sw = compute_sample_weight('balanced', y)
    for kw in (dict(search='greedy'), dict(search='bnb', max_rule_length=2)):
        a = fit_quiet(RuleBoostingClassifier(max_rules=3, class_weight='balanced', **kw), X, y)
        b = fit_quiet(RuleBoostingClassifier(max_rules=3, **kw), X, y, sample_weight=sw)
        assert a.conjunctions_ == b.conjunctions_
        np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=0, atol=1e-12)
    plain = fit_quiet(RuleBoostingClassifier(max_rules=3, search='greedy'), X, y)
    assert (a.predict(X) == 'rare').sum() > (plain.predict(X) == 'rare').sum()   # the rare class gains


def test_class_weight_dict_and_sample_weight_multiply(clf_data):
    X, y = clf_data
    sw = np.random.default_rng(1).integers(1, 4, len(y)).astype(float)
    a = fit_quiet(RuleBoostingClassifier(max_rules=2, search='greedy', class_weight={'rare': 3.0}), X, y,
                  sample_weight=sw)
    b = fit_quiet(RuleBoostingClassifier(max_rules=2, search='greedy'), X, y,
                  sample_weight=sw * np.where(y == 'rare', 3.0, 1.0))
    assert a.conjunctions_ == b.conjunctions_
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), rtol=0, atol=1e-12)
    # the same semantics as OSDTClassifier: one implementation, GlassworksClassifier._class_weighted
    assert RuleBoostingClassifier._class_weighted is OSDTClassifier._class_weighted
    with pytest.raises(ParameterError, match='class_weight'):
        RuleBoostingClassifier(max_rules=2, class_weight='bogus').fit(X, y)
    with pytest.raises(ParameterError, match='class_weight'):
        RuleBoostingClassifier(max_rules=2, class_weight={'rare': -1.0}).fit(X, y)
    assert clone(RuleBoostingClassifier(class_weight='balanced')).class_weight == 'balanced'


# ---------------------------------------------------------------------------------------------------- summary()
def test_summary_on_every_estimator(reg_data, clf_data, gb):
    X, y = reg_data
    Xc, yc = clf_data
    Xb = (X[['a', 'c']] > [0.5, 0.0]).astype(int).to_numpy()
    fits = [(OSDTClassifier(0.02), Xb, (yc[:120] == 'rare').astype(int)), (OSRTRegressor(0.02), Xb, y),
            (HierScaleRegressor(n_lambda=8, random_state=0), X.to_numpy(), y),
            (RuleBoostingRegressor(max_rules=2, search='greedy'), X, y),
            (RuleBoostingClassifier(max_rules=2, search='greedy'), Xc, yc), (RuleExtractor(gb, max_rules=3), X, y)]
    for est, A, t in fits:
        name = type(est).__name__
        with pytest.raises(NotFittedError):
            est.summary()
        s = fit_quiet(est, A, t).summary()
        assert s.startswith(f'{name}: ') and '\n' not in s, s
        assert s.rstrip(')').split(' (+')[0].endswith('s'), s          # the time, last
        certified = any(w in s for w in ('optimal', 'heuristic', 'not certified'))
        assert certified, s                                               # says whether it is certified


# ----------------------------------------------------------------------------------------------- command line
@pytest.fixture()
def tables(tmp_path, clf_data, reg_data):
    Xc, yc = clf_data
    X, y = reg_data
    pd.DataFrame({'a': Xc.a, 'b': Xc.b, 'label': yc}).to_csv(tmp_path / 'c.csv', index=False)
    pd.DataFrame({'a': X.a, 'b': X.b, 'c': X.c, 'y': y}).to_csv(tmp_path / 'r.csv', index=False)
    return tmp_path


def test_cli_parses_the_new_options():
    p = OneLineParser(prog='glassworks')
    add_commands(p.add_subparsers(dest='cmd'))
    a = p.parse_args(['fit', 't.csv', '--target', 'y', '--method', 'ogb', '--ridge', '0.5', '--class-weight',
                      'balanced', '--min-samples-leaf', '0.1', '--max-rules', '4'])
    assert (a.ridge, a.class_weight, a.min_samples_leaf, a.max_rules) == (0.5, 'balanced', 0.1, 4)
    assert p.parse_args(['fit', 't.csv', '--target', 'y', '--method', 'osdt', '--min-samples-leaf', '5']) \
        .min_samples_leaf == 5
    assert p.parse_args(['predict', 'm.json', 't.csv', '--proba']).proba
    with pytest.raises(SystemExit):
        p.parse_args(['fit', 't.csv', '--target', 'y', '--method', 'osdt', '--min-samples-leaf', 'many'])


def test_cli_class_weight_and_min_samples_leaf_reach_the_estimators(tables, clf_data):
    Xc, yc = clf_data
    env = run_fit(tables / 'c.csv', 'label', 'ogb', out=tables / 'o1', max_rules=3, class_weight='balanced',
                  draw=False, quiet=True)
    assert env['fit']['options']['class_weight'] == 'balanced'
    m = RuleBoostingClassifier(max_rules=3, class_weight='balanced').fit(Xc, yc)
    pred = run_predict(tables / 'o1' / 'model.json', tables / 'c.csv', out=tables / 'p1.csv', quiet=True,
                       proba=True)
    np.testing.assert_array_equal(pred['prediction'], m.predict(Xc))
    np.testing.assert_allclose(pred[['proba_common', 'proba_rare']].to_numpy(), m.predict_proba(Xc), rtol=1e-9)
    env = run_fit(tables / 'c.csv', 'label', 'osdt', out=tables / 'o2', class_weight='rare=4', min_samples_leaf=5,
                  max_depth=2, draw=False, quiet=True)
    tree = model_from_dict(env['model'])
    assert env['fit']['options']['min_samples_leaf'] == 5 and min(lf.n_samples for lf in tree.leaves()) >= 5
    with pytest.raises(CLIError, match='not a class of the target'):
        run_fit(tables / 'c.csv', 'label', 'osdt', out=tables / 'o3', class_weight='often=2', draw=False, quiet=True)


def test_cli_ridge_and_the_deprecated_regularization(tables, reg_data, capsys):
    X, y = reg_data
    run_fit(tables / 'r.csv', 'y', 'ogb', out=tables / 'g1', max_rules=2, ridge=3.0, draw=False, quiet=True)
    assert 'deprecated' not in capsys.readouterr().err
    run_fit(tables / 'r.csv', 'y', 'ogb', out=tables / 'g2', max_rules=2, regularization=3.0, draw=False, quiet=True)
    err = capsys.readouterr().err
    assert 'glassworks: warning: --regularization with method ogb is deprecated' in err and '--ridge 3' in err
    a, b = (json.loads((tables / d / 'model.json').read_text())['model'] for d in ('g1', 'g2'))
    assert a == b
    m = RuleBoostingRegressor(max_rules=2, ridge=3.0).fit(X, y)
    pred = run_predict(tables / 'g1' / 'model.json', tables / 'r.csv', out=tables / 'pg.csv', quiet=True)
    np.testing.assert_allclose(pred['prediction'], m.predict(X), rtol=1e-9)
    run_fit(tables / 'r.csv', 'y', 'extract', out=tables / 'e1', max_rules=3, regularization=4.0, draw=False,
            quiet=True)
    assert '--ridge 0.25' in capsys.readouterr().err                     # extraction's old value was gamma = 1/ridge
    with pytest.raises(CLIError, match='--proba needs a classifier'):
        run_predict(tables / 'g1' / 'model.json', tables / 'r.csv', out=tables / 'pp.csv', quiet=True, proba=True)


def test_cli_notes_options_a_method_does_not_use(tables, capsys):
    run_fit(tables / 'r.csv', 'y', 'osrt', out=tables / 'n1', ridge=1.0, class_weight='balanced', max_depth=2,
            draw=False)
    out = capsys.readouterr().out
    assert 'note: method osrt does not use' in out and '--ridge' in out and '--class-weight' in out
