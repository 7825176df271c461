"""Issue 21 (hardening, second round): regression tests for the bad inputs fixed so far. Each failed before its fix
(a traceback, a hang, a silent wrong answer or a false certificate)."""
import json, subprocess, sys
import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import GradientBoostingRegressor

from glassworks import (OSDTClassifier, OSRTRegressor, HierScaleRegressor, RuleBoostingRegressor, RuleExtractor,
                        Binarizer, Tree, Leaf, Split, InputError, ParameterError, model_from_dict)


def gw(*argv):
    return subprocess.run([sys.executable, '-m', 'glassworks', *map(str, argv)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope='module')
def table(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('hard')
    rng = np.random.default_rng(0)
    df = pd.DataFrame({'a': rng.normal(size=80), 'b': rng.normal(size=80)})
    df['y'] = df.a * 2 + rng.normal(size=80) * 0.1
    df.to_csv(tmp / 't.csv', index=False)
    return tmp, df


# --- the command line --------------------------------------------------------------------------------------------
@pytest.mark.parametrize('opt', [('--max-rules', '0'), ('--max-depth', '0'), ('--n-bins', '0')])
def test_cli_zero_options_are_not_rewritten_to_defaults(table, opt):
    "`--max-rules 0` used to become 10 (`x or default`): now the estimator's own validation speaks."
    tmp, _ = table
    r = gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'ogb', *opt, '--out', tmp / 'z', '--no-draw')
    assert r.returncode == 2 and 'glassworks: error:' in r.stderr and 'Traceback' not in r.stderr, r.stderr


def test_cli_out_file_and_folder(table):
    tmp, _ = table
    (tmp / 'afile').write_text('x')
    r = gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--out', tmp / 'afile')
    assert r.returncode == 2 and 'is a file' in r.stderr and 'Traceback' not in r.stderr
    assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 2, '--out', tmp / 'm', '--no-draw').returncode == 0
    r = gw('predict', tmp / 'm' / 'model.json', tmp / 't.csv', '--out', tmp)
    assert r.returncode == 2 and 'is a folder' in r.stderr


def test_cli_predict_refuses_missing_values_the_model_never_saw(table):
    tmp, df = table
    assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 2, '--out', tmp / 'm2', '--no-draw').returncode == 0
    bad = df.copy(); bad.loc[3, 'a'] = np.nan; bad.to_csv(tmp / 'nan.csv', index=False)
    r = gw('predict', tmp / 'm2' / 'model.json', tmp / 'nan.csv', '--out', tmp / 'p.csv')
    assert r.returncode == 2 and 'missing value' in r.stderr, r.stderr


def _envelope(tmp):
    if not (tmp / 'm3' / 'model.json').exists():
        assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 1, '--out', tmp / 'm3', '--no-draw').returncode == 0
    return json.loads((tmp / 'm3' / 'model.json').read_text())


def _deep(n):
    node = {'node': 'leaf', 'value': 1.0}
    for _ in range(n): node = {'node': 'split', 'feature': 0, 'threshold': 0.5, 'left': node, 'right': {'node': 'leaf', 'value': 0.0}}
    return node


@pytest.mark.parametrize('damage', ['no columns', 'no model', 'bad info kind', 'string threshold', 'deep', 'root list',
                                    'feature float', 'no root'])
def test_cli_predict_damaged_envelopes(table, damage):
    tmp, _ = table
    env = _envelope(tmp)
    if damage == 'no columns': env.pop('columns')
    elif damage == 'no model': env.pop('model')
    elif damage == 'bad info kind': env['feature_info'][0]['kind'] = 'weird'
    elif damage == 'string threshold': env['feature_info'][0]['value'] = '0.5'
    elif damage == 'deep': env['model']['root'] = 'DEEP'
    elif damage == 'root list': env['model']['root'] = []
    elif damage == 'feature float': env['model']['root']['feature'] = 0.7
    elif damage == 'no root': env['model'].pop('root')
    text = json.dumps(env)
    if damage == 'deep':                     # 1,000 levels: written by hand (json.dumps itself would recurse too deep)
        leaf = '{"node": "leaf", "value": 0.0}'
        deep = '{"node": "split", "feature": 0, "threshold": 0.5, "left": ' * 1000 + leaf + (', "right": ' + leaf + '}') * 1000
        text = text.replace('"DEEP"', deep)
    p = tmp / f'bad-{damage.replace(" ", "-")}.json'; p.write_text(text)
    r = gw('predict', p, tmp / 't.csv', '--out', tmp / 'p.csv')
    assert r.returncode == 2 and 'Traceback' not in r.stderr and 'glassworks: error:' in r.stderr, r.stderr


@pytest.mark.parametrize('damage', ['index -1', 'zero scale', 'nan coefficient'])
def test_cli_predict_damaged_hierscale(table, damage):
    tmp, _ = table
    if not (tmp / 'h' / 'model.json').exists():
        assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'hierscale', '--out', tmp / 'h', '--no-draw').returncode == 0
    env = json.loads((tmp / 'h' / 'model.json').read_text())
    m = env['model']
    if damage == 'index -1': m['interactions'] = [[-1, 1, 0.5]]
    elif damage == 'zero scale': m['x_scale'] = [0.0] * len(m['coef_main']); m['x_offset'] = m['x_offset'] or [0.0] * len(m['coef_main'])
    else: m['coef_main'][0] = float('nan')
    p = tmp / f'hs-{damage.replace(" ", "-")}.json'; p.write_text(json.dumps(env).replace('NaN', 'NaN'))
    r = gw('predict', p, tmp / 't.csv', '--out', tmp / 'p.csv')
    assert r.returncode == 2 and 'Traceback' not in r.stderr and 'not valid' in r.stderr, r.stderr


# --- model files -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('root', [None, [], 'missing', _deep(1000), {'node': 'split', 'feature': 1.7, 'threshold': 0.5,
                                   'left': {'node': 'leaf', 'value': 0}, 'right': {'node': 'leaf', 'value': 1}},
                                  {'node': 'split', 'feature': 0, 'threshold': '0.5', 'left': {'node': 'leaf', 'value': 0},
                                   'right': {'node': 'leaf', 'value': 1}}, {'node': 'leaf'}])
def test_tree_from_damaged_dicts(root):
    d = Tree(Split(0, 0.5, Leaf(0), Leaf(1)), ['a', 'b']).to_dict()
    if isinstance(root, str): d.pop('root')
    else: d['root'] = root
    with pytest.raises(InputError): model_from_dict(d)


def test_tree_from_dict_accepts_integral_floats():
    d = Tree(Split(1, 0.5, Leaf(0), Leaf(1)), ['a', 'b']).to_dict(); d['root']['feature'] = 1.0
    assert model_from_dict(d).root.feature == 1


# --- estimators ---------------------------------------------------------------------------------------------------
def test_huge_targets_are_refused_not_hung():
    rng = np.random.default_rng(1); X = rng.integers(0, 2, (40, 3)); y = rng.normal(size=40) * 1e155
    for est in (OSRTRegressor(0.05, max_depth=3), RuleExtractor(GradientBoostingRegressor(n_estimators=5, max_depth=2), max_rules=3),
                HierScaleRegressor(n_lambda=5), RuleBoostingRegressor(n_rules=2, search='greedy')):
        with pytest.raises(InputError, match='too large'): est.fit(X.astype(float), y)


def test_unsound_bound_never_certifies():
    Xa, ya = np.array([(1, 1), (0, 1), (0, 1), (0, 0)]), np.array([1, 0, 0, 1])
    m = OSDTClassifier(0.2, search='bnb', incumbent=None, bounds={'leaf_count': 'reference'}).fit(Xa, ya)
    assert not m.optimal_ and m.lower_bound_ == 0.0


def test_absurd_sizes_are_clamped_or_refused():
    rng = np.random.default_rng(2); X = rng.integers(0, 2, (30, 3)); y = X[:, 0] ^ X[:, 1]
    assert OSDTClassifier(0.01, max_depth=10**9).fit(X, y).optimal_                     # clamped to the 3 features
    assert OSDTClassifier(0.01, max_depth=10**9, search='bnb').fit(X, y).optimal_
    assert OSRTRegressor(0.01, max_depth=10**9).fit(X, y * 1.0 + rng.normal(size=30)).optimal_
    Xc = rng.normal(size=(30, 2))
    for est in (HierScaleRegressor(n_lambda=10**9), RuleBoostingRegressor(n_cutpoints=10**9),
                RuleExtractor(GradientBoostingRegressor(n_estimators=3), n_lambdas=10**9)):
        with pytest.raises(ParameterError): est.fit(Xc, rng.normal(size=30))
    with pytest.raises(ParameterError): Binarizer(n_bins=10**9).fit(Xc)


def test_binarizer_many_levels_refused_and_linear():
    import time
    ids = pd.DataFrame({'id': [f'row{i}' for i in range(20000)], 'x': np.arange(20000.0)})
    t = time.perf_counter()
    with pytest.raises(InputError, match='max_categories'): Binarizer().fit(ids)
    assert time.perf_counter() - t < 5
    few = ids.iloc[:4000]
    t = time.perf_counter()
    B = Binarizer(max_categories=None, output='numpy').fit(few).transform(few)      # 4,000 levels: was 2.5 s, quadratic
    assert time.perf_counter() - t < 3 and B.shape == (4000, 4000 + 3) and (B[:, :4000].sum(1) == 1).all()


def test_logistic_boosting_without_regularisation_stops_on_separation():
    from glassworks import RuleBoostingClassifier
    rng = np.random.default_rng(4); X = pd.DataFrame({'a': rng.normal(size=200), 'b': rng.normal(size=200)})
    y = (X.a > 0).astype(int)                                     # separable by one rule
    m = RuleBoostingClassifier(n_rules=5, reg=0.0, search='greedy').fit(X, y)
    assert m.stopping_reason_ == 'separated'
    assert all(np.isfinite(h['objective']) and abs(h['objective']) < 1e100 for h in m.history_[1:])
    assert np.isfinite(m.predict_proba(X)).all()
