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
    return subprocess.run([sys.executable, '-m', 'glassworks', *map(str, argv)], capture_output=True, text=True,
                          timeout=300)


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
    assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 2, '--out', tmp / 'm',
              '--no-draw').returncode == 0
    r = gw('predict', tmp / 'm' / 'model.json', tmp / 't.csv', '--out', tmp)
    assert r.returncode == 2 and 'is a folder' in r.stderr


@pytest.mark.parametrize('bins, words', [((), 'contains NaN'), (('--n-bins', 4), 'missing value')])
def test_cli_predict_refuses_missing_values_the_model_never_saw(table, bins, words):
    "Both envelopes: a tree on the raw numbers (every threshold) and one on binarised columns."
    tmp, df = table
    out = tmp / f'm2-{len(bins)}'
    assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 2, *bins, '--out', out,
              '--no-draw').returncode == 0
    bad = df.copy()
    bad.loc[3, 'a'] = np.nan
    bad.to_csv(tmp / 'nan.csv', index=False)
    r = gw('predict', out / 'model.json', tmp / 'nan.csv', '--out', tmp / f'p{len(bins)}.csv')
    assert r.returncode == 2 and words in r.stderr, r.stderr


def _envelope(tmp):
    if not (tmp / 'm3' / 'model.json').exists():
        assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'osrt', '--max-depth', 1, '--n-bins', 4,
                  '--out', tmp / 'm3', '--no-draw').returncode == 0          # binarised: damage its feature_info
    return json.loads((tmp / 'm3' / 'model.json').read_text())


def _deep(n):
    node = {'node': 'leaf', 'value': 1.0}
    for _ in range(n):
        node = {'node': 'split', 'feature': 0, 'threshold': 0.5, 'left': node, 'right': {'node': 'leaf', 'value': 0.0}}
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
        deep = ('{"node": "split", "feature": 0, "threshold": 0.5, "left": ' * 1000 + leaf
                + (', "right": ' + leaf + '}') * 1000)
        text = text.replace('"DEEP"', deep)
    p = tmp / f'bad-{damage.replace(" ", "-")}.json'
    p.write_text(text)
    r = gw('predict', p, tmp / 't.csv', '--out', tmp / 'p.csv')
    assert r.returncode == 2 and 'Traceback' not in r.stderr and 'glassworks: error:' in r.stderr, r.stderr


@pytest.mark.parametrize('damage', ['index -1', 'zero scale', 'nan coefficient'])
def test_cli_predict_damaged_hierscale(table, damage):
    tmp, _ = table
    if not (tmp / 'h' / 'model.json').exists():
        assert gw('fit', tmp / 't.csv', '--target', 'y', '--method', 'hierscale', '--out', tmp / 'h',
                  '--no-draw').returncode == 0
    env = json.loads((tmp / 'h' / 'model.json').read_text())
    m = env['model']
    if damage == 'index -1': m['interactions'] = [[-1, 1, 0.5]]
    elif damage == 'zero scale':
        m['x_scale'] = [0.0] * len(m['coef_main'])
        m['x_offset'] = m['x_offset'] or [0.0] * len(m['coef_main'])
    else: m['coef_main'][0] = float('nan')
    p = tmp / f'hs-{damage.replace(" ", "-")}.json'
    p.write_text(json.dumps(env).replace('NaN', 'NaN'))
    r = gw('predict', p, tmp / 't.csv', '--out', tmp / 'p.csv')
    assert r.returncode == 2 and 'Traceback' not in r.stderr and 'not valid' in r.stderr, r.stderr


# --- model files -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('root', [None, [], 'missing', _deep(1000), {'node': 'split', 'feature': 1.7, 'threshold': 0.5,
                                   'left': {'node': 'leaf', 'value': 0}, 'right': {'node': 'leaf', 'value': 1}},
                                  {'node': 'split', 'feature': 0, 'threshold': '0.5',
                                   'left': {'node': 'leaf', 'value': 0}, 'right': {'node': 'leaf', 'value': 1}},
                                  {'node': 'leaf'}])
def test_tree_from_damaged_dicts(root):
    d = Tree(Split(0, 0.5, Leaf(0), Leaf(1)), ['a', 'b']).to_dict()
    if isinstance(root, str): d.pop('root')
    else: d['root'] = root
    with pytest.raises(InputError): model_from_dict(d)


def test_tree_from_dict_accepts_integral_floats():
    d = Tree(Split(1, 0.5, Leaf(0), Leaf(1)), ['a', 'b']).to_dict()
    d['root']['feature'] = 1.0
    assert model_from_dict(d).root.feature == 1


# --- estimators ---------------------------------------------------------------------------------------------------
def test_huge_targets_are_refused_not_hung():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, (40, 3))
    y = rng.normal(size=40) * 1e155
    for est in (OSRTRegressor(0.05, max_depth=3),
                RuleExtractor(GradientBoostingRegressor(n_estimators=5, max_depth=2), max_rules=3),
                HierScaleRegressor(n_lambda=5), RuleBoostingRegressor(max_rules=2, search='greedy')):
        with pytest.raises(InputError, match='too large'): est.fit(X.astype(float), y)


def test_unsound_bound_never_certifies():
    Xa, ya = np.array([(1, 1), (0, 1), (0, 1), (0, 0)]), np.array([1, 0, 0, 1])
    m = OSDTClassifier(0.2, search='bnb', incumbent=None, bounds={'leaf_count': 'reference'}).fit(Xa, ya)
    assert not m.optimal_ and m.lower_bound_ == 0.0


def test_absurd_sizes_are_clamped_or_refused():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, (30, 3))
    y = X[:, 0] ^ X[:, 1]
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
    assert time.perf_counter() - t < 15
    few = ids.iloc[:4000]
    t = time.perf_counter()
    B = Binarizer(max_categories=None, output='numpy').fit(few).transform(few)      # 4,000 levels: was 2.5 s, quadratic
    assert time.perf_counter() - t < 12 and B.shape == (4000, 4000 + 3) and (B[:, :4000].sum(1) == 1).all()


def test_logistic_boosting_without_regularisation_stops_on_separation():
    from glassworks import RuleBoostingClassifier
    rng = np.random.default_rng(4)
    X = pd.DataFrame({'a': rng.normal(size=200), 'b': rng.normal(size=200)})
    y = (X.a > 0).astype(int)                                     # separable by one rule
    m = RuleBoostingClassifier(max_rules=5, ridge=0.0, search='greedy').fit(X, y)
    assert m.stopping_reason_ == 'separated'
    assert all(np.isfinite(h['objective']) and abs(h['objective']) < 1e100 for h in m.history_[1:])
    assert np.isfinite(m.predict_proba(X)).all()


# --- found by the property-based battery (tests/test_bad_inputs.py) ---------------------------------------------------
def test_rule_boosting_on_constant_columns_predicts_its_intercept():
    "Fit accepted an all-constant X (no cut-point: the intercept alone) and predict then refused it (0 features)."
    m = RuleBoostingRegressor(max_rules=2).fit(np.array([[0.0], [0.0], [0.0]]), [0.0, 1.0, 2.0])
    p = m.predict(np.array([[0.0], [5.0]]))
    assert p.shape == (2,) and np.isfinite(p).all() and p[0] == p[1]


@pytest.mark.parametrize('make', [lambda: OSDTClassifier(0.1).fit([[0, 1], [1, 0]], [0, 1]),
                                  lambda: HierScaleRegressor(n_lambda=3).fit(
                                      np.random.default_rng(0).normal(size=(20, 2)),
                                      np.random.default_rng(1).normal(size=20)),
                                  lambda: RuleExtractor(GradientBoostingRegressor(n_estimators=3), max_rules=2,
                                                        ridge=1.0).fit(
                                      np.random.default_rng(0).normal(size=(20, 2)),
                                      np.random.default_rng(1).normal(size=20)),
                                  lambda: RuleBoostingRegressor(max_rules=2).fit(
                                      np.random.default_rng(0).normal(size=(20, 2)),
                                      np.random.default_rng(1).normal(size=20))])
def test_ragged_lists_are_refused_with_our_error(make):
    """numpy's 'inhomogeneous shape' ValueError escaped predict (np.ndim on a ragged list) and
    RuleExtractor/RuleBoosting fit."""
    m = make()
    with pytest.raises(InputError): m.predict([[0.0, 1.0], [1.0]])
    from sklearn.base import clone
    with pytest.raises(InputError): clone(m).fit([[0.0, 1.0], [1.0]], [0.0, 1.0])


def test_non_numeric_entries_are_our_errors():
    "RuleExtractor raised numpy's ValueError on strings and a bare TypeError on dicts; RuleBoosting a bare TypeError."
    from glassworks.validation import InputTypeError
    X = np.array([[1.0, 'a'], [2.0, 'b'], [3.0, 'c']], dtype=object)
    with pytest.raises(InputError):
        RuleExtractor(GradientBoostingRegressor(n_estimators=3), max_rules=2).fit(X, [1.0, 2.0, 3.0])
    X = np.array([[1.0, {'a': 1}], [2.0, 3.0], [3.0, 4.0]], dtype=object)
    for est in (RuleExtractor(GradientBoostingRegressor(n_estimators=3), max_rules=2),
                RuleBoostingRegressor(max_rules=2)):
        with pytest.raises(InputTypeError, match='argument must be a string.* number'): est.fit(X, [1.0, 2.0, 3.0])
    assert issubclass(InputTypeError, TypeError) and issubclass(InputTypeError, InputError)


@pytest.mark.parametrize('param', ['include_root', 'leaves_only', 'refit'])
def test_rule_extractor_boolean_parameters_are_checked(param):
    "include_root=0.0 failed inside numpy ('bitwise_or' not supported); refit='no' was taken as True."
    rng = np.random.default_rng(0)
    for bad in (0.0, 'no', None):
        with pytest.raises(ParameterError, match=param):
            RuleExtractor(GradientBoostingRegressor(n_estimators=3), max_rules=2, **{param: bad}).fit(
                rng.normal(size=(20, 2)), rng.normal(size=20))


def test_seeds_and_switches_are_checked():
    """random_state=0.5 raised numpy's TypeError (hierScale) or scikit-learn's ValueError (Binarizer); standardize=-1
    was taken."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    for bad in (0.5, -1, 'seed', True):
        with pytest.raises(ParameterError, match='random_state'):
            HierScaleRegressor(n_lambda=3, random_state=bad).fit(X, y)
        with pytest.raises(ParameterError, match='random_state'): Binarizer(strategy='gbdt', random_state=bad).fit(X, y)
    with pytest.raises(ParameterError, match='standardize'): HierScaleRegressor(n_lambda=3, standardize=-1).fit(X, y)
    # a legacy seed works too
    a = HierScaleRegressor(n_lambda=3, random_state=np.random.RandomState(0)).fit(X, y).predict(X)
    assert np.isfinite(a).all()


def test_hierscale_integer_tolerance_is_a_float_for_the_kernels():
    "tol=1 (an int) compiled a second version of every numba kernel (3-20 s); it is now passed on as a float."
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    HierScaleRegressor(n_lambda=3, tol=1e-6).fit(X, y)            # compiled (or loaded) once
    m = HierScaleRegressor(n_lambda=3, tol=1, alpha=2).fit(X, y)
    assert m.compile_seconds_ < 0.5, m.compile_seconds_            # no second version of the kernels to compile


@pytest.mark.parametrize('d', [{'type': []}, {'type': {}}, {'type': ['Tree']}])
def test_model_from_dict_unhashable_type(d):
    "{'type': []} raised TypeError: unhashable type: 'list'."
    with pytest.raises(InputError, match='unknown model type'): model_from_dict(d)


@pytest.mark.parametrize('counts', [{'a': 1}, [[1, 2], [3]], ['x', 1]])
def test_leaf_counts_that_are_not_numbers(counts):
    "A model file with counts {...} or a ragged list raised numpy's TypeError/ValueError."
    d = Tree(Split(0, 0.5, Leaf(0, counts=[1, 0]), Leaf(1)), ['a']).to_dict()
    d['root']['left']['counts'] = counts
    with pytest.raises(InputError, match='counts'): model_from_dict(d)


def test_cli_predict_hierscale_refuses_infinite_inputs(tmp_path):
    "`glassworks predict` with a hierScale model wrote `inf` for a row holding inf (the Python API refuses it)."
    rng = np.random.default_rng(0)
    df = pd.DataFrame({'a': rng.normal(size=40), 'b': rng.normal(size=40)})
    df['y'] = df.a - df.b
    df.to_csv(tmp_path / 't.csv', index=False)
    assert gw('fit', tmp_path / 't.csv', '--target', 'y', '--method', 'hierscale', '--out', tmp_path / 'h',
              '--no-draw').returncode == 0
    (tmp_path / 'inf.csv').write_text('a,b,y\ninf,1,0.5\n')
    r = gw('predict', tmp_path / 'h' / 'model.json', tmp_path / 'inf.csv', '--out', tmp_path / 'p.csv')
    assert r.returncode == 2 and 'infinite' in r.stderr, r.stderr


@pytest.mark.parametrize('text', ['{bad', None, '{"type": "Tree", "root": ' + '[' * 5000 + ']' * 5000 + '}'])
def test_model_from_json_refuses_bad_text(text):
    "model_from_json/Tree.from_json raised json's JSONDecodeError, a TypeError, or a RecursionError on deep nesting."
    from glassworks import model_from_json
    for load in (model_from_json, Tree.from_json):
        with pytest.raises(InputError): load(text)


def _tree_dict():
    return Tree(Split(0, 0.5, Leaf('no', counts=[2, 1]), Leaf('yes', counts=[0, 3])), ['a', 'b'],
                classes=['no', 'yes']).to_dict()


@pytest.mark.parametrize('where, value', [('classes', float('-inf')), ('classes', [['no'], 'yes']),
                                          ('classes', ['no', 'no']),
                                          ('feature_names', ['a', {'x': 1}]), ('feature_names', 3.5),
                                          ('leaf value', {'node': 'split'}), ('leaf n_samples', [1, 2]),
                                          ('leaf loss', 'low'),
                                          ('split n_samples', {'a': 1})])
def test_model_dicts_with_nested_or_wrong_kinds(where, value):
    """classes=-inf raised TypeError ('float' is not iterable); ragged classes a numpy ValueError at predict; a nested
    dict as a leaf value, n_samples or feature name recursed in _plain/str (RecursionError when 1,000 levels deep)."""
    d = _tree_dict()
    if where in ('classes', 'feature_names'): d[where] = value
    elif where == 'leaf value': d['root']['left']['value'] = value
    elif where == 'leaf n_samples': d['root']['left']['n_samples'] = value
    elif where == 'leaf loss': d['root']['left']['loss'] = value
    else: d['root']['n_samples'] = value
    with pytest.raises(InputError): model_from_dict(d)


def test_rule_ensemble_and_rule_list_dicts_with_bad_classes():
    from glassworks import RuleBoostingClassifier
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    ens = RuleBoostingClassifier(max_rules=2, search='greedy').fit(X, X[:, 0] > 0).model_.to_dict()
    ens['classes'] = [[0, 1], 'x']
    with pytest.raises(InputError): model_from_dict(ens)
    rl = Tree(Split(0, 0.5, Leaf('no'), Leaf('yes')), ['a']).to_rules().to_dict()
    rl['rules'][0]['n_samples'] = {'deep': {'deeper': 1}}
    with pytest.raises(InputError): model_from_dict(rl)


@pytest.mark.parametrize('flags', [float('nan'), 'yes', [{'a': 1}, True]])
def test_model_dict_binary_features_of_the_wrong_kind(flags):
    "binary_features=NaN raised TypeError ('float' object is not iterable)."
    d = Tree(Split(0, 0.5, Leaf(0.0), Leaf(1.0)), ['a', 'b'], task='regression').to_dict()
    d['binary_features'] = flags
    with pytest.raises(InputError, match='binary_features'): model_from_dict(d)


def test_rule_boosting_classifier_on_subnormal_values():
    "X of subnormal numbers (2.2e-311) made pandas' qcut fail formatting interval labels (a pandas ValueError)."
    from glassworks import RuleBoostingClassifier
    X = np.array([[2.22507386e-311], [0.0], [1e-310], [3e-311], [5e-311]])
    m = RuleBoostingClassifier(max_rules=2, n_cutpoints=2, max_rule_length=2).fit(X, [0, 1, 0, 0, 1])
    assert m.predict(X).shape == (5,)
