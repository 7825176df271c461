"""Property tests for glassworks.models: every view of a model (tree, rules, rule ensemble, JSON) predicts the same."""
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

try:
    import glassworks  # noqa: F401
except ImportError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from glassworks.models import (Condition, Leaf, Rule, RuleEnsemble, RuleList, Split, Tree, model_from_dict,
                               model_from_json, negate_name)
from glassworks.validation import InputError

P = 4
NAMES = ['smoker', 'age', 'income <= 40k', 'color == red']
THRESHOLDS = [0.5, -1.0, 0.0, 1.5, 2.25]
# feature values include every threshold, so the `<=` boundary is exercised on both sides
VALUES = [-2.0, -1.0, 0.0, 0.5, 0.7, 1.0, 1.5, 2.25, 3.0]
CLASSES = ['a', 'b', 'c']


def _split(children):
    return st.builds(Split, st.integers(0, P - 1), st.sampled_from(THRESHOLDS), children, children)


class_leaves = st.builds(Leaf, st.sampled_from(CLASSES), st.one_of(st.none(), st.integers(0, 100)),
                         st.one_of(st.none(), st.lists(st.integers(0, 20), min_size=3, max_size=3)))
reg_leaves = st.builds(Leaf, st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
                       st.one_of(st.none(), st.integers(0, 100)))
class_nodes = st.recursive(class_leaves, _split, max_leaves=20)
reg_nodes = st.recursive(reg_leaves, _split, max_leaves=20)
Xs = hnp.arrays(np.float64, st.tuples(st.integers(1, 40), st.just(P)), elements=st.sampled_from(VALUES))


def _class_tree(root):
    return Tree(root, NAMES, 'classification', classes=CLASSES)


@settings(max_examples=100, deadline=None)
@given(root=class_nodes, X=Xs)
def test_classification_views_agree(root, X):
    tree = _class_tree(root)
    y = tree.predict(X)
    rules = tree.to_rules()
    assert rules.n_rules == tree.n_leaves and rules.default is None
    np.testing.assert_array_equal(rules.predict(X), y)
    # the leaf rules partition the space and the covering rule is the leaf `apply` finds
    cover = np.column_stack([r.covers(X) for r in rules.rules])
    np.testing.assert_array_equal(cover.sum(axis=1), 1)
    np.testing.assert_array_equal(cover.argmax(axis=1), tree.apply(X))
    np.testing.assert_array_equal(np.asarray(CLASSES)[[CLASSES.index(lf.value) for lf in tree.leaves()]][tree.apply(X)],
                                  y)
    back = Tree.from_dict(json.loads(json.dumps(tree.to_dict())))
    assert back == tree
    np.testing.assert_array_equal(back.predict(X), y)
    np.testing.assert_array_equal(Tree.from_json(tree.to_json()).predict(X), y)
    assert model_from_json(rules.to_json()) == rules
    np.testing.assert_array_equal(pd.DataFrame(X, columns=NAMES)[NAMES[::-1]].pipe(tree.predict), y)
    if all(lf.counts is not None for lf in tree.leaves()):
        proba = tree.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert set(np.asarray(CLASSES)[proba.argmax(axis=1)]) <= set(CLASSES)


@settings(max_examples=100, deadline=None)
@given(root=reg_nodes, X=Xs)
def test_regression_views_agree(root, X):
    tree = Tree(root, NAMES, 'regression')
    y = tree.predict(X)
    assert y.dtype == np.float64
    np.testing.assert_array_equal(tree.to_rules().predict(X), y)
    np.testing.assert_array_equal(Tree.from_dict(tree.to_dict()).predict(X), y)
    ens = tree.to_rule_ensemble()
    assert ens.intercept == 0 and ens.n_rules == tree.n_leaves
    np.testing.assert_array_equal(ens.predict(X), y)  # exact: one weight times one, the rest times zero
    assert RuleEnsemble.from_json(ens.to_json()) == ens
    np.testing.assert_array_equal(model_from_dict(ens.to_dict()).predict(X), y)


@settings(max_examples=100, deadline=None)
@given(root=class_nodes)
def test_structure_and_text(root):
    tree = _class_tree(root)
    leaves = tree.leaves()
    assert tree.n_leaves == len(leaves) == str(tree).count('predict ')
    assert tree.depth == max(r.length for r in [Rule(p) for p in _paths(tree.root)])
    src = tree.to_graphviz().source
    for name in tree.features_used: assert name in src or negate_name(name) in src
    assert src.count('predict ') == tree.n_leaves


def _paths(node, path=()):
    if isinstance(node, Leaf): return [path]
    return (_paths(node.left, path + (Condition(node.feature, '<=', node.threshold),)) +
            _paths(node.right, path + (Condition(node.feature, '>', node.threshold),)))


conditions = st.builds(Condition, st.integers(0, P - 1), st.sampled_from(['<=', '>']), st.sampled_from(THRESHOLDS))


@settings(max_examples=100, deadline=None)
@given(conds=st.lists(conditions, max_size=8), X=Xs)
def test_simplify_keeps_coverage(conds, X):
    rule = Rule(tuple(conds), value=1)
    simple = rule.simplify()
    np.testing.assert_array_equal(simple.covers(X), rule.covers(X))
    assert simple.length <= rule.length
    assert len({(c.feature, c.op) for c in simple.conditions}) == simple.length


@pytest.mark.parametrize('seed', range(6))
def test_from_sklearn_classifier(seed):
    from sklearn.tree import DecisionTreeClassifier
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 5)).astype(np.float32).astype(np.float64)  # sklearn compares in float32
    y = rng.choice([3, 7, 9], size=300)
    y[X[:, 0] > 0.3] = 7
    clf = DecisionTreeClassifier(max_depth=int(rng.integers(1, 8)), random_state=seed).fit(X, y)
    tree = Tree.from_sklearn(clf)
    Xt = rng.normal(size=(500, 5)).astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(tree.predict(Xt), clf.predict(Xt))
    np.testing.assert_allclose(tree.predict_proba(Xt), clf.predict_proba(Xt))
    assert tree.n_leaves == clf.get_n_leaves() and tree.depth == clf.get_depth()
    assert tree.classes == [3, 7, 9] and all(type(c) is int for c in Tree.from_json(tree.to_json()).classes)
    assert tree.feature_names == [f'x{j}' for j in range(5)]
    np.testing.assert_array_equal(Tree.from_sklearn(clf.tree_).predict(Xt), np.searchsorted([3, 7, 9], clf.predict(Xt)))


@pytest.mark.parametrize('seed', range(6))
def test_from_sklearn_regressor(seed):
    from sklearn.tree import DecisionTreeRegressor
    rng = np.random.default_rng(100 + seed)
    X = pd.DataFrame(rng.normal(size=(300, 3)).astype(np.float32).astype(np.float64), columns=['u', 'v', 'w'])
    y = np.sin(3 * X['u']) + X['v'] ** 2 + 0.1 * rng.normal(size=300)
    reg = DecisionTreeRegressor(max_depth=None if seed % 2 else 4, min_samples_leaf=3, random_state=seed).fit(X, y)
    tree = Tree.from_sklearn(reg)
    assert tree.task == 'regression' and tree.feature_names == ['u', 'v', 'w']
    Xt = pd.DataFrame(rng.normal(size=(400, 3)).astype(np.float32).astype(np.float64), columns=['u', 'v', 'w'])
    np.testing.assert_allclose(tree.predict(Xt), reg.predict(Xt), rtol=0, atol=1e-12)
    np.testing.assert_allclose(tree.to_rule_ensemble().predict(Xt), reg.predict(Xt), rtol=0, atol=1e-12)


def _hand_tree():
    return Tree(Split(0, 0.5,
                      left=Split(1, 25.5, Leaf('no', 50), Leaf('yes', 20)),
                      right=Split(2, 0.5, Leaf('yes', 7), Leaf('no', 3))),
                NAMES[:3])


def test_hand_built_tree_text():
    assert str(_hand_tree()) == (
        "if smoker:\n"
        "    if income <= 40k: predict no  (n=3)\n"
        "    else: predict yes  (n=7)\n"
        "else:\n"
        "    if age <= 25.5: predict no  (n=50)\n"
        "    else: predict yes  (n=20)")
    assert repr(_hand_tree()) == "Tree(n_leaves=4, depth=2, task='classification')"
    assert str(_hand_tree().to_rules()).splitlines() == [
        "IF not smoker AND age <= 25.5 THEN predict no  (n=50)",
        "ELSE IF not smoker AND age > 25.5 THEN predict yes  (n=20)",
        "ELSE IF smoker AND income > 40k THEN predict yes  (n=7)",
        "ELSE IF smoker AND income <= 40k THEN predict no  (n=3)"]


def test_rule_ensemble_text_and_predictions():
    ens = RuleEnsemble([Rule([(1, '<=', 25.5), (0, '>', 0.5)]), Rule([(3, '<=', 0.5)])], [2.0, -0.5], 0.25, NAMES,
                       task='classification', link='logit', classes=['neg', 'pos'])
    assert ens.to_text(sort=True).splitlines()[1:] == [
        "+0.25  intercept", "   +2  IF age <= 25.5 AND smoker", " -0.5  IF color != red"]
    X = np.array([[1, 20, 0, 1], [0, 30, 0, 0], [0, 30, 0, 1]])
    np.testing.assert_allclose(ens.decision_function(X), [2.25, -0.25, 0.25])
    np.testing.assert_array_equal(ens.predict(X), ['pos', 'neg', 'pos'])
    np.testing.assert_allclose(ens.predict_proba(X)[:, 1], 1 / (1 + np.exp(-np.array([2.25, -0.25, 0.25]))))
    assert ens.n_rules == 2 and ens.complexity == 3


def test_graphviz_source_has_feature_names():
    src = _hand_tree().to_graphviz().source
    for name in ('smoker', 'age <= 25.5', 'income <= 40k'): assert name in src
    assert 'yes' in src and 'no' in src
    ens_src = _hand_tree().to_rules().rules[0:1]
    assert 'age <= 25.5' in RuleEnsemble(ens_src, [1.0], 0.0, NAMES[:3]).to_graphviz().source


@pytest.mark.parametrize('make', [lambda: _hand_tree(), lambda: _hand_tree().to_rules(),
                                  lambda: Tree(Leaf(1.0), NAMES[:3], 'regression').to_rule_ensemble()])
def test_bad_input_raises(make):
    model = make()
    good = np.zeros((2, 3))
    model.predict(good)
    with pytest.raises(InputError, match='NaN'): model.predict(np.array([[0., np.nan, 1.]]))
    with pytest.raises(InputError, match='fitted with 3'): model.predict(np.zeros((2, 4)))
    with pytest.raises(InputError, match='fitted with 3'): model.predict(np.zeros((2, 2)))
    with pytest.raises(InputError, match='2-D'): model.predict(np.zeros(3))
    with pytest.raises(InputError, match='missing column'): model.predict(pd.DataFrame(good[:, :2], columns=NAMES[:2]))


def test_negate_name():
    pairs = [('age <= 25.5', 'age > 25.5'), ('color == red', 'color != red'),
             ('age in (25, 40]', 'age not in (25, 40]'), ('smoker', 'not smoker')]
    for a, b in pairs: assert negate_name(a) == b and negate_name(b) == a


def test_json_keeps_types_and_header():
    t = Tree.from_nested((0, np.int64(0), np.int64(1)), ['f'], classes=np.array([0, 1]))
    d = json.loads(t.to_json())
    assert d['type'] == 'Tree' and d['format_version'] == 1 and d['classes'] == [0, 1]
    assert type(Tree.from_dict(d).root.left.value) is int
    s = Tree.from_nested((0, 'x', 'y'), ['f'])
    assert Tree.from_json(s.to_json()).classes == ['x', 'y']
    with pytest.raises(InputError): Tree.from_dict({**d, 'format_version': 99})
    with pytest.raises(InputError): RuleList.from_dict(d)


# --- rule text: conditions on one column merge into the tightest interval (issue 11) ---------------------------------
EDGES = [-1.0, -0.25, 0.5, 1.25, 2.0]
BIN_NAMES = ([f"v in ({a}, {b}]" for a, b in zip(EDGES, EDGES[1:])] + [f"v <= {t}" for t in EDGES]
             + [f"v > {t}" for t in EDGES])
BIN_INFO = ([dict(column='v', kind='bin', op='in', value=(a, b)) for a, b in zip(EDGES, EDGES[1:])]
            + [dict(column='v', kind='threshold', op='<=', value=t) for t in EDGES]
            + [dict(column='v', kind='threshold', op='>', value=t) for t in EDGES])


def _name_truth(name, v):
    "What the 0/1 column `name` is on value v (independent of the models' parser)."
    if ' in (' in name:
        a, b = name.split('(')[1].rstrip(']').split(', ')
        return float(a) < v <= float(b)
    col, op, t = name.split(' ')
    return v <= float(t) if op == '<=' else v > float(t)


def _text_set(text, grid):
    "Evaluate the merged text on a grid of values of `v`; None when it is not one interval or its complement."
    out = np.ones(len(grid), bool)
    for part in text.split(' AND '):
        toks = part.split(' ')
        if len(toks) == 5 and toks[1] == '<':                      # a < v <= b
            out &= (grid > float(toks[0])) & (grid <= float(toks[4]))
        elif len(toks) == 3 and toks[1] == '<=': out &= grid <= float(toks[2])
        elif len(toks) == 3 and toks[1] == '>': out &= grid > float(toks[2])
        elif part.startswith('v not in ('):
            a, b = part[len('v not in ('):].rstrip(']').split(', ')
            out &= ~((grid > float(a)) & (grid <= float(b)))
        else: return None
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(BIN_NAMES) - 1), st.booleans()), min_size=1, max_size=5),
       st.booleans())
def test_merged_rule_text_describes_the_same_set(picks, use_info):
    "The merged text of a rule over binarised columns holds exactly where all its conditions hold."
    rule = Rule([Condition(j, '>' if true else '<=', 0.5) for j, true in picks])
    names = [f"f{j}" for j in range(len(BIN_NAMES))] if use_info else BIN_NAMES
    m = RuleEnsemble([rule], [1.0], 0.0, names, feature_info=BIN_INFO if use_info else None)
    text = m.to_text().splitlines()[2].split('IF ', 1)[1]
    grid = np.linspace(-2, 3, 401)
    want = np.ones(len(grid), bool)
    for j, true in picks: want &= np.array([_name_truth(BIN_NAMES[j], v) for v in grid]) == true
    got = _text_set(text, grid)
    assert got is not None, text                                    # every part is an interval or its complement
    assert (got == want).all(), (text, [BIN_NAMES[j] + ('' if t else ' (false)') for j, t in picks])
    runs = int(want[0]) + int(np.sum(want[1:] & ~want[:-1]))        # pieces of the set on the grid
    if runs == 1 or (runs == 2 and want[0] and want[-1]):           # one interval or the complement of one
        assert text.count(' AND ') == 0, text                       # -> printed as one condition


def test_issue_example_and_one_precision():
    names = ['bmi in (-0.02507, 0.040139965]', 'bmi in (0.040139965, 0.1053]', 'bmi > 0.1053', 's6 <= 0.06727']
    r = Rule([(0, '<=', 0.5), (1, '<=', 0.5), (2, '<=', 0.5), (3, '>', 0.5)])
    assert r.to_text(names) == 'bmi <= -0.0251 AND s6 <= 0.0673'
    assert r.to_text(names, precision=5) == 'bmi <= -0.02507 AND s6 <= 0.06727'
    tree = Tree.from_nested((0, (1, (2, 'lo', 'top'), 'mid'), 'hi'), names, binary_features=True)
    assert str(tree.to_rules()).splitlines() == [
        'IF bmi <= -0.0251 THEN predict lo',
        'ELSE IF bmi > 0.105 THEN predict top',
        'ELSE IF 0.0401 < bmi <= 0.105 THEN predict mid',
        'ELSE IF -0.0251 < bmi <= 0.0401 THEN predict hi']
    assert str(Tree.from_nested((0, (1, 'out', 'mid'), 'hi'), names).to_rules()).splitlines()[0] == \
        'IF bmi not in (-0.0251, 0.105] THEN predict out'


def test_feature_info_survives_json_and_is_validated():
    info = [dict(column='bmi', kind='bin', op='in', value=(0.0, np.inf), name='bmi > 0'), None]
    t = Tree(Split(0, 0.5, Leaf(1.0), Leaf(2.0)), ['b0', 'b1'], task='regression', feature_info=info)
    assert t.feature_info[0] == {'column': 'bmi', 'kind': 'bin', 'op': 'in', 'value': [0.0, None]}
    s = t.to_json(allow_nan=False)                                  # strict JSON: no Infinity
    assert Tree.from_json(s) == t and model_from_json(s).feature_info == t.feature_info
    assert str(t.to_rules()).splitlines()[0] == 'IF bmi <= 0 THEN predict 1'
    for m in (t.to_rules(), t.to_rule_ensemble()):
        assert model_from_json(m.to_json(allow_nan=False)) == m
    with pytest.raises(InputError, match='1 entries for 2 features'):
        Tree(Leaf(1.0), ['a', 'b'], task='regression', feature_info=[None])


def test_tree_methods_are_patched_and_indexed():
    "Methods live on Tree under their own names (fastcore @patch), so nbdev's index lists Tree.to_text and co."
    from glassworks._modidx import d
    syms = d['syms']['glassworks.models']
    for m in ('to_text', 'to_graphviz', 'to_rules', 'to_rule_ensemble', 'to_dict', 'from_dict', 'to_json', 'from_json',
              'from_sklearn'):
        assert getattr(Tree, m).__name__ == m
        assert f'glassworks.models.Tree.{m}' in syms, m
    assert not any('_tree_text_method' in k or '_tree_to_dict' in k for k in syms)


def test_tree_text_uses_one_precision_for_binarised_names():
    names = ['bmi in (-0.02507, 0.040139965]', 's6 <= 0.06727']
    t = Tree.from_nested((0, (1, 1.0, 2.0), 3.0), names, task='regression')
    assert t.to_text().splitlines() == ['if -0.0251 < bmi <= 0.0401: predict 3', 'else:',
                                        '    if s6 <= 0.0673: predict 2', '    else: predict 1']
    assert t.to_text(precision=6).splitlines()[0] == 'if -0.02507 < bmi <= 0.04014: predict 3'
    assert 'bmi' in t.to_graphviz().source and '0.0401' in t.to_graphviz().source


# --- issue 44, item 4: a model that carries feature_info and raw_input predicts the raw table -----------------------
INFO = [dict(column='age', kind='threshold', op='<=', value=30.0), dict(column='city', kind='category', op='==',
                                                                        value='Oslo'),
        dict(column='city', kind='category', op='==', value='Oslo', negated=True),
        dict(column='bmi', kind='bin', op='in', value=[20.0, None]), dict(column='bmi', kind='missing', op='isnan',
                                                                          value=None)]
RAW = {'columns': ['age', 'bmi', 'city'], 'categorical': [False, False, True], 'missing': 'indicator'}
FEATURES = ['age <= 30', 'city == Oslo', 'city != Oslo', 'bmi > 20', 'bmi is missing']
TABLE = pd.DataFrame({'city': ['Oslo', 'Rome', 'Lima', 'Oslo'], 'bmi': [25.0, np.nan, 18.0, 30.0],
                      'age': [25, 40, 35, 31]})
BINARY = np.array([[1, 1, 0, 1, 0], [0, 0, 1, 0, 1], [0, 0, 1, 0, 0], [0, 1, 0, 1, 0]])


def _raw_tree():
    t = Tree.from_nested((0, ('city == Oslo', 'b', 'c'), ('bmi > 20', 'd', ('bmi is missing', 'e', 'f'))), FEATURES,
                         feature_info=INFO, raw_input=RAW)
    return t


def test_a_model_reads_the_raw_table_as_its_features():
    t = _raw_tree()
    want = t.predict(BINARY)
    for X in (TABLE, TABLE.to_numpy()[:, [2, 1, 0]], TABLE[['age', 'city', 'bmi', ]].assign(other=1)):
        np.testing.assert_array_equal(t.predict(X), want)
    for m in (t.to_rules(), model_from_json(t.to_json())):
        np.testing.assert_array_equal(m.predict(TABLE), want)
    ens = RuleEnsemble([Rule([(2, '>', 0.5)]), Rule([(4, '>', 0.5)])], [1.0, 10.0], 0.0, FEATURES,
                       feature_info=INFO, raw_input=RAW)
    np.testing.assert_array_equal(ens.predict(TABLE), [0.0, 11.0, 1.0, 0.0])
    np.testing.assert_array_equal(ens.predict(TABLE), ens.predict(BINARY))
    np.testing.assert_allclose(t.feature_importances(TABLE, want), t.feature_importances(BINARY, want))
    assert 'city != Oslo' in ens.to_text()                                  # a negated feature reads as its test
    with pytest.raises(InputError, match='missing column'): t.predict(TABLE.drop(columns='bmi'))
    without = Tree(t.root, FEATURES, feature_info=INFO)                     # no raw_input: DataFrames only
    np.testing.assert_array_equal(without.predict(TABLE), want)
    with pytest.raises(InputError): without.predict(TABLE.to_numpy())


@pytest.mark.parametrize('damage, message', [
    (dict(missing='maybe'), "missing must be 'error' or 'indicator'"),
    (dict(columns=['age', 'bmi']), 'one bool per column'),
    (dict(columns=['age', 'bmi', 'town']), "column 'city', not in raw_input"),
    (dict(categorical=[False, True, True]), "a bin feature on column 'bmi'"),
    (dict(categorical='yes'), 'one bool per column'),
    (dict(columns=['age', 'age', 'city']), 'distinct'),
])
def test_a_damaged_raw_input_is_refused(damage, message):
    d = _raw_tree().to_dict()
    d['raw_input'] = dict(d['raw_input'], **damage)
    with pytest.raises(InputError, match=message): Tree.from_dict(d)
    d = _raw_tree().to_dict()
    d['feature_info'] = None
    with pytest.raises(InputError, match='needs a feature_info entry'): Tree.from_dict(d)
    d['feature_info'] = [dict(INFO[0], negated='yes')] + INFO[1:]
    with pytest.raises(InputError, match='must be true or false'): Tree.from_dict(d)
