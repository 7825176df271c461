"""Issue 21: a property-based bad-input battery (hypothesis).

Every public estimator (nine configurations), the Binarizer, model loading (`Tree.from_dict`, `model_from_dict`, ...)
and the command line (in-process, through `glassworks.__main__.main`) are run on generated bad inputs: arrays of wrong
shapes, NaN/inf, huge/tiny values, empty tables, one row, constant columns, non-0/1 values where 0/1 is required,
object/string dtypes and ragged lists; pandas frames with mixed, categorical and nullable dtypes and duplicate or
non-string column names; parameters that are negative, zero, NaN, huge, of the wrong type, strings or booleans; damaged
model JSON (missing keys, wrong types, deep nesting, NaN); damaged CSV files and options for the CLI.

The contract checked on each input: either an error of ours (a ValueError/TypeError subclass defined in glassworks,
with a message; the CLI: exit code 2 and one `glassworks: error:` line), or a correct result (fitted, predictions of the
right shape, finite, labels among `classes_`, probabilities that sum to one). Never another exception, never NaN out,
never a hang: each example has a hypothesis deadline and every test a hard guard (`faulthandler` ends the process with
the stacks of all threads if a test overruns, since a numba loop cannot be interrupted).

The total number of inputs run is counted, and `test_zz_battery_size` checks it reaches 1,000 when the whole file runs.
Deterministic (`derandomize=True`, no example database), ~1,500 inputs, about a minute once the numba kernels are cached
(the first run compiles them: minutes).
"""
import contextlib, copy, faulthandler, inspect, io, json, sys, tempfile, time, warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.ensemble import GradientBoostingRegressor

from glassworks import (Binarizer, HierScaleRegressor, OSDTClassifier, OSRTRegressor, RuleBoostingClassifier,
                        RuleBoostingRegressor, RuleExtractor, Tree, RuleEnsemble, model_from_dict, model_from_json)
from glassworks.models import RuleList
from glassworks.__main__ import main as cli_main
from glassworks.compiling import compiling


# --- the contract ---------------------------------------------------------------------------------------------------
def _our_errors():
    "Every ValueError/TypeError subclass defined in a glassworks module."
    import glassworks.validation, glassworks.base, glassworks.models, glassworks.binarize  # noqa: F401
    found = set()
    for name, mod in list(sys.modules.items()):
        if not (name == 'glassworks' or name.startswith('glassworks.')): continue
        for obj in vars(mod).values():
            if (inspect.isclass(obj) and issubclass(obj, (ValueError, TypeError))
                    and obj.__module__.startswith('glassworks')):
                found.add(obj)
    return tuple(sorted(found, key=lambda c: c.__name__))

OURS = _our_errors()
COUNT = Counter()          # inputs run, per test
RAN = set()                # tests that ran to the end

PER_EXAMPLE = 10.0   # seconds one input may take, numba's compilation excluded (typical: 1-100 ms)
PER_TEST = 600       # seconds before faulthandler ends a stuck test (and the run) with all stacks: a hang guard


def battery(n):
    """Settings of one battery: `n` inputs, deterministic, no database. The per-example deadline is ours (`attempt`):
    hypothesis's own would count the seconds numba spends compiling a kernel for a new argument type on a cold cache."""
    return settings(max_examples=n, derandomize=True, database=None, deadline=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
                                           HealthCheck.large_base_example])


@pytest.fixture(autouse=True)
def hard_guard(request):
    """A hang inside numba cannot be interrupted from Python: end the process, dumping every stack, instead of hanging
    CI."""
    faulthandler.dump_traceback_later(PER_TEST, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
    RAN.add(request.node.originalname)


@contextlib.contextmanager
def quiet():
    with (warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()),
          contextlib.redirect_stderr(io.StringIO())):
        warnings.simplefilter('ignore')
        yield


def attempt(label, fn):
    """Run `fn`: return its result, or the error of ours it raised (which must carry a message). Any other exception
    fails the test, named."""
    t = time.perf_counter()
    try:
        with compiling('the bad-input battery', after=1e9) as c, quiet(): return fn()
    except OURS as e:
        assert str(e).strip(), f"{label}: {type(e).__name__} without a message"
        return e
    except Exception as e:
        raise AssertionError(f"{label}: {type(e).__name__} (not an error of ours): {str(e)[:300]}") from e
    finally:
        took = time.perf_counter() - t - c.seconds
        assert took < PER_EXAMPLE, (f"{label}: took {took:.1f} s (+{c.seconds:.1f} s compiling), "
                                    f"over the {PER_EXAMPLE} s deadline")


def refused(r): return isinstance(r, OURS)


def snippet(x, n=3000):
    "repr(x), cut (and safe on a 1,000-level dict)."
    try: return repr(x)[:n]
    except RecursionError: return '<too deep to print>'


def n_rows(X):
    try: return len(X)
    except TypeError: return None


def check_predictions(est, X, task, label):
    "A fitted estimator must predict on the X it accepted: right shape, finite, labels it knows, probabilities."
    n = n_rows(X)
    with quiet(): pred = est.predict(X)
    pred = np.asarray(pred)
    assert pred.shape == (n,), f"{label}: predictions of shape {pred.shape} for {n} rows"
    if task == 'regression':
        assert np.isfinite(pred.astype(float)).all(), f"{label}: non-finite predictions {pred[:5]}"
    else:
        assert set(pred.tolist()) <= set(np.asarray(est.classes_).tolist()), f"{label}: unknown labels {pred[:5]}"
        if hasattr(est, 'predict_proba'):
            with quiet(): P = np.asarray(est.predict_proba(X))
            assert P.shape == (n, len(est.classes_)) and np.isfinite(P).all(), f"{label}: bad probabilities"
            assert np.allclose(P.sum(1), 1), f"{label}: probabilities do not sum to one"


# --- the nine estimator configurations -------------------------------------------------------------------------------
def _gb(): return GradientBoostingRegressor(n_estimators=3, max_depth=2, random_state=0)

# name: (class, defaults, needs 0/1 X, task)
CONFIGS = {
    'osdt-dp':       (OSDTClassifier, dict(regularization=0.05, search='dp', time_limit=3), True, 'classification'),
    'osdt-bnb':      (OSDTClassifier, dict(regularization=0.05, search='bnb', time_limit=3), True, 'classification'),
    'osdt-quantile': (OSDTClassifier, dict(regularization=0.05, binarizer='quantile', time_limit=3), False,
                      'classification'),
    'osrt-l2':       (OSRTRegressor, dict(regularization=0.05, metric='l2', time_limit=3), True, 'regression'),
    'osrt-l1':       (OSRTRegressor, dict(regularization=0.05, metric='l1', time_limit=3), True, 'regression'),
    'hierscale':     (HierScaleRegressor, dict(n_lambda=5, random_state=0), False, 'regression'),
    'ogb-reg':       (RuleBoostingRegressor, dict(max_rules=2, n_cutpoints=2, max_rule_length=2, time_limit=3), False,
                      'regression'),
    'ogb-clf':       (RuleBoostingClassifier, dict(max_rules=2, n_cutpoints=2, max_rule_length=2, time_limit=3), False,
                      'classification'),
    'extract':       (RuleExtractor, dict(ensemble=_gb(), max_rules=3, ridge=1.0, n_lambdas=5, time_limit=3), False,
                      'regression'),
}
NAMES = list(CONFIGS)


def make(name, **params):
    cls, defaults, _, _ = CONFIGS[name]
    kw = {k: (copy.deepcopy(v) if k == 'ensemble' else v) for k, v in defaults.items()}
    kw.update(params)
    return cls(**kw)


def good_data(name, n=16, seed=0):
    _, _, binary, task = CONFIGS[name]
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 3)).astype(float) if binary else rng.normal(size=(n, 3))
    y = ((X[:, 0] + X[:, 1]) > (1 if binary else 0)).astype(int)
    y[:2] = [0, 1]
    if task == 'regression': y = y + rng.normal(size=n) * 0.1
    return X, y


def fit_and_check(name, X, y, sample_weight=None, label=None, **params):
    "Fit config `name` on (X, y): an error of ours, or a fitted model that predicts correctly on X."
    label = label or name
    task = CONFIGS[name][3]
    est = attempt(label + ': construct', lambda: make(name, **params))
    if refused(est): return est
    r = attempt(label + ': fit',
                lambda: est.fit(X, y) if sample_weight is None else est.fit(X, y, sample_weight=sample_weight))
    if refused(r): return r
    assert r is est
    check_predictions(est, X, task, label)
    return est


@pytest.fixture(scope='module', autouse=True)
def warm():
    "Compile (or load) every kernel once, before the deadlines apply."
    for name in NAMES:
        X, y = good_data(name)
        with quiet():
            make(name).fit(X, y)
            if 'max_depth' in param_names(name): make(name, max_depth=2).fit(X, y)   # the kernels' other specialisation


# --- strategies: arrays ----------------------------------------------------------------------------------------------
SPECIAL = [np.nan, np.inf, -np.inf, 1e308, -1e308, 1e-308, 5e-324, 1e155, -1e155, 2.0, -1.0, 0.5, 1e15 + 0.5, -0.0,
           3e38]
FLOATS = st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=True, allow_infinity=True))
WEIRD = st.one_of(st.none(), st.text(max_size=3), st.booleans(),
                  st.sampled_from(['1', '0', 'nan', 'inf', '', ' ', 'a']),
                  st.integers(-2**70, 2**70), st.just([1]), st.just({}), st.just(1 + 2j))


@st.composite
def tables(draw, binary, min_rows=0, max_rows=12, max_cols=4):
    "A numeric table (0/1 or real) with 0-3 corruptions, as a (n, p) float array."
    n = draw(st.integers(min_rows, max_rows))
    p = draw(st.integers(0, max_cols))
    elems = st.sampled_from([0.0, 1.0]) if binary else st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
    A = draw(hnp.arrays(np.float64, (n, p), elements=elems))
    for _ in range(draw(st.integers(0, 3))):
        if A.size == 0: break
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, p - 1))
        kind = draw(st.sampled_from(['cell', 'column', 'constant', 'scale', 'duplicate-rows', 'non01']))
        if kind == 'cell': A[i, j] = draw(FLOATS)
        elif kind == 'column': A[:, j] = draw(FLOATS)
        elif kind == 'constant': A[:, j] = A[i, j]
        elif kind == 'scale':
            with np.errstate(over='ignore'):
                A[:, j] = A[:, j] * draw(st.sampled_from([1e300, 1e-300, 1e155, -1e200, 1e308]))
        elif kind == 'duplicate-rows': A[:] = A[i]
        else: A[i, j] = draw(st.sampled_from([2.0, -1.0, 0.5, 0.999999, 1.0000001, 255.0]))
    return A


@st.composite
def shaped(draw, A):
    "`A` as the user might pass it: a list, ints, float32, object, strings, bools, a ragged list, a wrong shape, ..."
    rep = draw(st.sampled_from(['array', 'array', 'list', 'int', 'float32', 'float16', 'object', 'str', 'bool',
                                'fortran', 'strided', '1d', '3d', 'scalar', 'transposed', 'ragged', 'weird-cell',
                                'none', 'string', 'dict', 'complex', 'uint8', 'datetime']))
    if rep == 'array': return A
    if rep == 'list': return A.tolist()
    if rep == 'int':
        with np.errstate(all='ignore'): return np.nan_to_num(A).astype(np.int64)
    if rep == 'float32':
        with np.errstate(all='ignore'): return A.astype(np.float32)
    if rep == 'float16':
        with np.errstate(all='ignore'): return A.astype(np.float16)
    if rep == 'object': return A.astype(object)
    if rep == 'str': return A.astype(str)
    if rep == 'bool': return A.astype(bool)
    if rep == 'fortran': return np.asfortranarray(A)
    if rep == 'strided': return np.repeat(A, 2, axis=1)[:, ::2]
    if rep == '1d': return A.ravel()
    if rep == '3d': return A[None]
    if rep == 'scalar': return draw(st.sampled_from([0, 1.5, np.float64(2)]))
    if rep == 'transposed': return A.T
    if rep == 'ragged':
        L = A.tolist()
        if L and L[0]: L[0] = L[0][:-1]
        else: L = [[0.0, 1.0], [1.0]]
        return L
    if rep == 'weird-cell':
        L = A.astype(object)
        if L.size: L[draw(st.integers(0, L.shape[0] - 1)), draw(st.integers(0, L.shape[1] - 1))] = draw(WEIRD)
        return L
    if rep == 'none': return None
    if rep == 'string': return 'X.csv'
    if rep == 'dict': return {'a': A[:, 0].tolist() if A.shape[1] else []}
    if rep == 'complex': return A.astype(complex)
    if rep == 'uint8':
        with np.errstate(all='ignore'): return np.nan_to_num(A).clip(0, 255).astype(np.uint8)
    return A.astype('datetime64[s]') if np.isfinite(A).all() and (np.abs(A) < 1e9).all() else A.astype(object)


@st.composite
def targets(draw, n, task):
    "A target for `n` rows, possibly bad: wrong length, NaN/inf, huge, strings, mixed, 2-D, one class, ..."
    base = draw(hnp.arrays(np.int64, (n,), elements=st.integers(0, 1))) if task == 'classification' else \
        draw(hnp.arrays(np.float64, (n,), elements=st.floats(-10, 10)))
    if n >= 2: base[0], base[1] = 0, 1
    kind = draw(st.sampled_from(['good', 'good', 'good', 'short', 'long', 'nan', 'inf', 'huge', 'strings', 'mixed',
                                 'column', 'matrix', 'one-class', 'three-class', 'float-labels', 'none', 'bools',
                                 'object-none', 'series', 'categorical', 'tiny', 'constant', 'scalar', 'list']))
    y = base.astype(float)
    if kind == 'good': return base
    if kind == 'short': return base[:-1]
    if kind == 'long': return np.r_[base, base[:1]]
    if kind == 'nan' and n:
        y[draw(st.integers(0, n - 1))] = np.nan
        return y
    if kind == 'inf' and n:
        y[draw(st.integers(0, n - 1))] = draw(st.sampled_from([np.inf, -np.inf]))
        return y
    if kind == 'huge': return y * draw(st.sampled_from([1e155, 1e300, 1e200, -1e250, 1e150]))
    if kind == 'tiny': return y * draw(st.sampled_from([1e-300, 5e-324, 1e-160]))
    if kind == 'strings': return np.array([draw(st.sampled_from(['a', 'b', ''])) for _ in range(n)], dtype=object)
    if kind == 'mixed': return np.array([1, 'a'] * (n // 2) + [2] * (n % 2), dtype=object)
    if kind == 'column': return base[:, None]
    if kind == 'matrix': return np.c_[base, base]
    if kind == 'one-class': return np.zeros(n, int)
    if kind == 'three-class': return np.arange(n) % 3
    if kind == 'float-labels': return y + 0.5
    if kind == 'none': return None
    if kind == 'bools': return base.astype(bool)
    if kind == 'object-none' and n:
        o = base.astype(object)
        o[0] = None
        return o
    if kind == 'series': return pd.Series(base, index=np.arange(n)[::-1])
    if kind == 'categorical': return pd.Categorical(base)
    if kind == 'constant': return np.full(n, draw(st.sampled_from([0.0, 1.0, 7.5, 1e300])))
    if kind == 'scalar': return 1.0
    if kind == 'list': return base.tolist()
    return base


@st.composite
def weights(draw, n):
    kind = draw(st.sampled_from(['none', 'none', 'ones', 'zeros', 'negative', 'nan', 'inf', 'huge', 'tiny', 'short',
                                 'strings', 'matrix', 'one-positive', 'scalar']))
    if kind == 'none': return None
    w = np.ones(n)
    if kind == 'zeros': return np.zeros(n)
    if kind == 'negative' and n:
        w[0] = -1
        return w
    if kind == 'nan' and n:
        w[0] = np.nan
        return w
    if kind == 'inf' and n:
        w[0] = np.inf
        return w
    if kind == 'huge': return w * draw(st.sampled_from([1e300, 1e155, 1e308]))
    if kind == 'tiny': return w * draw(st.sampled_from([1e-300, 5e-324]))
    if kind == 'short': return w[:-1]
    if kind == 'strings': return np.array(['1'] * n)
    if kind == 'matrix': return np.ones((n, 2))
    if kind == 'one-positive' and n:
        w[:] = 0
        w[0] = 1
        return w
    if kind == 'scalar': return 2.0
    return w


@st.composite
def datasets(draw, name):
    _, _, binary, task = CONFIGS[name]
    A = draw(tables(binary))
    X = draw(shaped(A))
    y = draw(targets(A.shape[0], task))
    w = draw(weights(A.shape[0]))
    return X, y, w


# --- strategies: frames ----------------------------------------------------------------------------------------------
@st.composite
def frames(draw, binary, n=None):
    "A DataFrame with mixed dtypes, categoricals, nullable types, duplicate or non-string column names."
    n = draw(st.integers(1, 12)) if n is None else n
    p = draw(st.integers(1, 4))
    cols = {}
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    for j in range(p):
        kind = draw(st.sampled_from(['01', '01', 'float', 'int', 'bool', 'str', 'category', 'Int64', 'boolean',
                                     'object', 'datetime', 'nan', 'string', 'constant', 'huge', 'Float64']))
        b = rng.integers(0, 2, n)
        if kind == '01': c = b.astype(float) if binary else rng.normal(size=n)
        elif kind == 'float': c = rng.normal(size=n) * draw(st.sampled_from([1, 1e-300, 1e300]))
        elif kind == 'int': c = b if binary else rng.integers(-5, 5, n)
        elif kind == 'bool': c = b.astype(bool)
        elif kind == 'str': c = np.array(['a', 'b'])[b]
        elif kind == 'category': c = pd.Categorical(np.array(['u', 'v'])[b] if draw(st.booleans()) else b)
        elif kind == 'Int64':
            c = pd.array(b, dtype='Int64')
            c[0] = pd.NA if draw(st.booleans()) else c[0]
        elif kind == 'boolean': c = pd.array(b.astype(bool), dtype='boolean')
        elif kind == 'object': c = np.array([1, 'x', None, 2.5] * n, dtype=object)[:n]
        elif kind == 'datetime': c = pd.date_range('2020-01-01', periods=n)
        elif kind == 'nan': c = np.where(b, np.nan, b)
        elif kind == 'string': c = pd.array(np.array(['a', 'b'])[b], dtype='string')
        elif kind == 'constant': c = np.ones(n)
        elif kind == 'huge': c = b * 1e308
        else: c = pd.array(b.astype(float), dtype='Float64')
        cols[j] = c
    df = pd.DataFrame(cols)
    names = draw(st.sampled_from(['str', 'int', 'duplicate', 'mixed', 'tuple', 'none', 'empty', 'unicode',
                                  'multiindex']))
    if names == 'str': df.columns = [f'c{j}' for j in range(p)]
    elif names == 'duplicate': df.columns = ['a'] * p
    elif names == 'mixed': df.columns = [j if j % 2 else f'{j}' for j in range(p)]
    elif names == 'tuple': df.columns = [(j, 'x') for j in range(p)]
    elif names == 'none': df.columns = [None] * p
    elif names == 'empty': df.columns = [''] * p
    elif names == 'unicode': df.columns = ['é\n\x00' + str(j) for j in range(p)]
    elif names == 'multiindex': df.columns = pd.MultiIndex.from_tuples([(j, 'x') for j in range(p)])
    if draw(st.booleans()): df.index = pd.Index(np.arange(n)[::-1] * 7)
    return df


# --- strategies: parameters ------------------------------------------------------------------------------------------
BAD_VALUES = st.one_of(
    st.sampled_from([-1, 0, 1, 2, 10**9, 10**18, -10**9, 0.0, -0.5, 1e-300, 1e308, float('nan'), float('inf'),
                     -float('inf'), True, False, None, '', 'auto', 'nonsense', 'NaN', '3', [], [1, 2], {}, {'a': 1},
                     (1,), np.float64('nan'), np.int64(3), np.int64(-3), np.float32(0.5), 2.5, 0.999, 1.0, 1 + 1j]),
    st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4))

# parameters that would only make the data bigger or the machine busier without finding anything (no hang checks)
SKIP_PARAMS = {'n_jobs'}   # joblib: a worker count is joblib's to refuse; tested separately below


def param_names(name):
    cls = CONFIGS[name][0]
    return sorted(set(inspect.signature(cls.__init__).parameters) - {'self'} - SKIP_PARAMS)


# --- the estimator batteries -----------------------------------------------------------------------------------------
@pytest.mark.parametrize('name', NAMES)
@battery(45)
@given(data=st.data())
def test_estimators_on_bad_arrays(name, data):
    COUNT['test_estimators_on_bad_arrays'] += 1
    X, y, w = data.draw(datasets(name))
    note(f'X={X!r}\ny={y!r}\nw={w!r}')
    fit_and_check(name, X, y, sample_weight=w, label=f'{name} arrays')


@pytest.mark.parametrize('name', NAMES)
@battery(25)
@given(data=st.data())
def test_estimators_on_bad_frames(name, data):
    COUNT['test_estimators_on_bad_frames'] += 1
    _, _, binary, task = CONFIGS[name]
    df = data.draw(frames(binary))
    y = data.draw(targets(len(df), task))
    note(f'df=\n{df!r}\ndtypes={df.dtypes.tolist()}\ny={y!r}')
    fit_and_check(name, df, y, label=f'{name} frames')


@pytest.mark.parametrize('name', NAMES)
@battery(35)
@given(data=st.data())
def test_estimators_with_bad_parameters(name, data):
    COUNT['test_estimators_with_bad_parameters'] += 1
    names = param_names(name)
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
    params = {k: data.draw(BAD_VALUES, label=k) for k in chosen}
    X, y = good_data(name, n=data.draw(st.integers(2, 16)))
    fit_and_check(name, X, y, label=f'{name} params {params}', **params)


FITTED = {}

def fitted(name):
    if name not in FITTED:
        X, y = good_data(name)
        with quiet():
            FITTED[name] = make(name).fit(pd.DataFrame(X, columns=['a', 'b', 'c']) if name == 'hierscale' else X, y)
    return FITTED[name]


@pytest.mark.parametrize('name', NAMES)
@battery(25)
@given(data=st.data())
def test_predict_on_bad_inputs(name, data):
    COUNT['test_predict_on_bad_inputs'] += 1
    _, _, binary, task = CONFIGS[name]
    est = fitted(name)
    A = data.draw(tables(binary, max_cols=4))
    X = data.draw(st.one_of(shaped(A), frames(binary)))
    note(f'X={X!r}')
    label = f'{name} predict'
    for method in ('predict', 'predict_proba'):
        if not hasattr(est, method): continue
        r = attempt(f'{label}.{method}', lambda: getattr(est, method)(X))
        if refused(r): continue
        r = np.asarray(r)
        n = n_rows(X)
        assert r.shape[0] == n, f'{label}: {r.shape} for {n} rows'
        if method == 'predict_proba' or task == 'regression':
            assert np.isfinite(r.astype(float)).all(), f'{label}.{method}: non-finite output'
        else:
            assert set(r.tolist()) <= set(est.classes_.tolist())


# --- the Binarizer ---------------------------------------------------------------------------------------------------
@battery(60)
@given(data=st.data())
def test_binarizer_on_bad_inputs(data):
    COUNT['test_binarizer_on_bad_inputs'] += 1
    A = data.draw(tables(False))
    X = data.draw(st.one_of(shaped(A), frames(False)))
    chosen = data.draw(st.lists(st.sampled_from(sorted(set(inspect.signature(Binarizer.__init__).parameters)
                                                       - {'self'})),
                                max_size=2, unique=True))
    params = {k: data.draw(BAD_VALUES, label=k) for k in chosen}
    if params.get('strategy') is None: params.pop('strategy', None)
    y = data.draw(targets(n_rows(A), 'regression'))
    note(f'X={X!r}\nparams={params}')
    B = attempt('binarizer construct', lambda: Binarizer(**params))
    if refused(B): return
    r = attempt('binarizer fit', lambda: B.fit(X, y))
    if refused(r): return
    T = attempt('binarizer transform', lambda: B.transform(X))
    if refused(T): return       # e.g. a value the fitted columns cannot encode
    T = np.asarray(T, dtype=float)
    assert T.shape[0] == n_rows(X) and set(np.unique(T)) <= {0.0, 1.0}, 'Binarizer output is not 0/1'


# --- model files -----------------------------------------------------------------------------------------------------
def _base_models():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = X[:, 0] + (X[:, 1] > 0)
    with quiet():
        tr = OSRTRegressor(0.05, binarizer=None).fit((X > 0).astype(float), y).tree_
        tc = OSDTClassifier(0.05).fit((X > 0).astype(float), np.where(y > 0.5, 'yes', 'no')).tree_
        ens = RuleBoostingRegressor(max_rules=3, search='greedy').fit(X, y).model_
        cens = RuleBoostingClassifier(max_rules=2, search='greedy').fit(X, y > 0.5).model_
    return [tr.to_dict(), tc.to_dict(), ens.to_dict(), cens.to_dict(), tc.to_rules().to_dict()]

BASE_MODELS = _base_models()
JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                        st.floats(allow_nan=True, allow_infinity=True),
                        st.text(max_size=4), st.sampled_from(['leaf', 'split', 'Tree', 'RuleEnsemble', 'classification',
                                                              'regression', 'logit', '<=', '>', '==', 'identity']),
                        st.lists(st.integers(-2, 5), max_size=3),
                        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


def _paths(obj, prefix=()):
    if prefix: yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items(): yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj): yield from _paths(v, prefix + (i,))


def _deep(depth, leaf):
    node = leaf
    for _ in range(depth): node = {'node': 'split', 'feature': 0, 'threshold': 0.5, 'left': node, 'right': dict(leaf)}
    return node


@st.composite
def damaged(draw, base):
    "A copy of model dict `base` with 1-3 damages: a key deleted, a value replaced, nested deep, wrapped in a list."
    d = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(d))
        if not paths: break
        path = draw(st.sampled_from(paths))
        parent = d
        for k in path[:-1]: parent = parent[k]
        key = path[-1]
        op = draw(st.sampled_from(['delete', 'replace', 'replace', 'deep', 'wrap', 'nan']))
        if op == 'delete':
            if isinstance(parent, dict): del parent[key]
            else: parent.pop(key)
        elif op == 'replace': parent[key] = draw(JSON_VALUES)
        elif op == 'deep':   # the last damage (a 1,000-level tree is not walked again here)
            parent[key] = _deep(draw(st.sampled_from([5, 199, 201, 1000])), {'node': 'leaf', 'value': 1.0})
            break
        elif op == 'wrap': parent[key] = [parent[key]]
        else: parent[key] = draw(st.sampled_from([float('nan'), float('inf'), -float('inf')]))
    return d


def deep_json(d):
    "json.dumps that also writes a 1,000-level tree (json.dumps itself would recurse too deep)."
    try: return json.dumps(d)
    except RecursionError: pass
    holes = []
    def cut(x, depth=0):
        if depth > 100 and isinstance(x, dict):
            holes.append(x)
            return f'@@HOLE{len(holes) - 1}@@'
        if isinstance(x, dict): return {k: cut(v, depth + 1) for k, v in x.items()}
        if isinstance(x, list): return [cut(v, depth + 1) for v in x]
        return x
    text = json.dumps(cut(d))
    while '@@HOLE' in text:
        i = text.index('"@@HOLE')
        j = text.index('@@"', i + 7)
        text = text[:i] + deep_json(holes[int(text[i + 7:j])]) + text[j + 3:]
    return text


def check_model(m, label):
    "A model that loaded must predict on a table of its width: right shape, and no NaN."
    p = len(m.feature_names)
    X = np.random.default_rng(1).normal(size=(6, p)) if p < 100 else np.zeros((6, p))
    for Xp in (X, (X > 0).astype(float)):
        r = attempt(label + ' predict', lambda: m.predict(Xp))
        if refused(r): continue
        r = np.asarray(r)
        assert r.shape == (6,), f'{label}: predictions of shape {r.shape}'
        if m.task == 'regression' or r.dtype.kind == 'f':
            assert not np.isnan(r.astype(float)).any(), f'{label}: NaN predictions {r}'


@battery(200)
@given(data=st.data())
def test_model_dicts_damaged(data):
    COUNT['test_model_dicts_damaged'] += 1
    base = data.draw(st.sampled_from(BASE_MODELS))
    d = data.draw(damaged(base))
    note('d=' + snippet(d))
    loader = data.draw(st.sampled_from(['model_from_dict', 'own', 'json']))
    cls = {'Tree': Tree, 'RuleEnsemble': RuleEnsemble, 'RuleList': RuleList}[base['type']]
    if loader == 'model_from_dict': fn = lambda: model_from_dict(d)
    elif loader == 'own': fn = lambda: cls.from_dict(d)
    else:
        s = deep_json(d)
        fn = lambda: model_from_json(s)
    m = attempt(f'model {loader}', fn)
    if refused(m): return
    check_model(m, f'model {loader}')


@battery(60)
@given(d=st.recursive(JSON_VALUES, lambda c: st.one_of(st.lists(c, max_size=3),
                                                        st.dictionaries(st.sampled_from(['type', 'root', 'node',
                                                                                         'value', 'feature', 'rules',
                                                                                         'weights', 'format_version',
                                                                                         'task']),
                                                                        c, max_size=5)), max_leaves=20))
def test_model_dicts_random(d):
    COUNT['test_model_dicts_random'] += 1
    for fn, label in ((lambda: model_from_dict(d), 'random model_from_dict'),
                      (lambda: Tree.from_dict(d), 'random Tree.from_dict'),
                      (lambda: RuleEnsemble.from_dict(d), 'random RuleEnsemble.from_dict')):
        m = attempt(label, fn)
        if not refused(m): check_model(m, label)


# --- the command line ------------------------------------------------------------------------------------------------
METHODS = ['osdt', 'osrt', 'hierscale', 'ogb', 'extract']


def run_cli(*argv):
    "`glassworks argv` in-process: (exit code, stderr). An exception that escapes main fails the test."
    out, err = io.StringIO(), io.StringIO()
    t = time.perf_counter()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            compiling('the bad-input battery', after=1e9) as c:
        warnings.simplefilter('ignore')
        try: code = cli_main([str(a) for a in argv])
        except SystemExit as e: code = e.code
        except Exception as e:
            raise AssertionError(f"glassworks {' '.join(map(str, argv))}: "
                                 f"{type(e).__name__} escaped: {str(e)[:300]}") from e
    took = time.perf_counter() - t - c.seconds
    assert took < 3 * PER_EXAMPLE, f"glassworks {' '.join(map(str, argv))}: took {took:.1f} s"
    e = err.getvalue()
    assert code in (0, 2), f'exit code {code}: {e[-500:]}'
    assert 'Traceback' not in e, e[-2000:]
    if code == 2: assert 'error:' in e and len(e.strip()) > len('glassworks: error:'), e
    return code, e


@st.composite
def csv_texts(draw):
    "The text of a CSV table (columns a, b, c and targets y, k) with damages; or raw junk."
    n = draw(st.integers(0, 15))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    df = pd.DataFrame({'a': rng.normal(size=n).round(3), 'b': rng.integers(0, 3, n), 'c': rng.choice(['u', 'v'], n),
                       'y': rng.normal(size=n).round(3), 'k': rng.choice(['no', 'yes'], n)}).astype(object)
    for _ in range(draw(st.integers(0, 3))):
        if n == 0: break
        i = draw(st.integers(0, n - 1))
        col = draw(st.sampled_from(list(df.columns)))
        df.loc[i, col] = draw(st.sampled_from(['', 'nan', 'NA', 'inf', '-inf', '1e400', '1e308', '-1e308', 'x', 'True',
                                               '  3 ', '1,5', '"q"', '1e-320', '0x10', 'None']))
    if draw(st.booleans()) and n: df['y'] = draw(st.sampled_from([0, 1e300, 'z', '']))     # a constant/huge/text target
    text = df.to_csv(index=False)
    junk = draw(st.sampled_from(['none', 'none', 'none', 'empty', 'header-dup', 'bytes', 'semicolon', 'ragged', 'bom',
                                 'only-header', 'blank-lines', 'quote']))
    if junk == 'empty': text = ''
    elif junk == 'header-dup': text = text.replace('a,b,c', 'a,a,c', 1)
    elif junk == 'bytes': return b'\xff\xfe\x00a,b\n\x80\x81,2\n'
    elif junk == 'semicolon': text = text.replace(',', ';')
    elif junk == 'ragged': text = text + '1,2\n1,2,3,4,5,6,7\n'
    elif junk == 'bom': text = '\ufeff' + text
    elif junk == 'only-header': text = text.splitlines()[0] + '\n' if text else text
    elif junk == 'blank-lines': text = text.replace('\n', '\n\n')
    elif junk == 'quote': text = text + '"unterminated,1,2\n'
    return text


CLI_VALUES = st.sampled_from(['0', '-1', '1', '2', '1000000000', 'nan', 'inf', '-inf', '1e308', '0.5', 'x', '',
                              '1e-300', '3'])
CLI_OPTIONS = ['--regularization', '--max-depth', '--time-limit', '--max-rules', '--n-bins']


@battery(50)
@given(data=st.data())
def test_cli_fit_and_predict_on_bad_tables(data):
    COUNT['test_cli_fit_and_predict_on_bad_tables'] += 1
    text = data.draw(csv_texts())
    method = data.draw(st.sampled_from(METHODS))
    target = data.draw(st.sampled_from(['y', 'y', 'k', 'a', 'missing', 'c']))
    opts = []
    for o in data.draw(st.lists(st.sampled_from(CLI_OPTIONS), max_size=2, unique=True)):
        opts += [o, data.draw(CLI_VALUES, label=o)]
    if '--time-limit' not in opts and method in ('ogb', 'extract'): opts += ['--time-limit', '3']
    note(f'text={text!r}\nmethod={method} target={target} opts={opts}')
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        table = tmp / 't.csv'
        (table.write_bytes if isinstance(text, bytes) else table.write_text)(text)
        code, _ = run_cli('fit', table, '--target', target, '--method', method, '--out', tmp / 'm', '--no-draw',
                          '--quiet', *opts)
        if code: return
        assert (tmp / 'm' / 'model.json').exists()
        code, _ = run_cli('predict', tmp / 'm' / 'model.json', table, '--out', tmp / 'p.csv', '--quiet')
        if code: return
        p = pd.read_csv(tmp / 'p.csv')['prediction']
        assert len(p) == len(pd.read_csv(table)), 'one prediction per row'
        if method != 'osdt' and target != 'k':
            assert np.isfinite(p.astype(float)).all(), f'non-finite predictions {p.tolist()}'


def _envelopes():
    rng = np.random.default_rng(3)
    n = 30
    df = pd.DataFrame({'a': rng.normal(size=n).round(3), 'b': rng.integers(0, 3, n), 'c': rng.choice(['u', 'v'], n)})
    df['y'] = df.a + df.b
    df['k'] = np.where(df.y > 1, 'yes', 'no')
    tmp = Path(tempfile.mkdtemp(prefix='gw-bad-'))
    df.to_csv(tmp / 't.csv', index=False)
    envs = {}
    for method in METHODS:
        target = 'k' if method == 'osdt' else 'y'
        cols = ['a', 'b', 'y'] if method in ('hierscale', 'extract') else None
        table = tmp / 't.csv'
        if cols:
            df[cols].to_csv(tmp / 'num.csv', index=False)
            table = tmp / 'num.csv'
        with quiet():
            code = cli_main(['fit', str(table), '--target', target, '--method', method, '--out', str(tmp / method),
                             '--no-draw', '--quiet', '--time-limit', '5'])
        assert code == 0, method
        envs[method] = json.loads((tmp / method / 'model.json').read_text())
    return tmp, df, envs

ENVS = None

def envelopes():
    global ENVS
    if ENVS is None: ENVS = _envelopes()
    return ENVS


@battery(60)
@given(data=st.data())
def test_cli_predict_damaged_model_files(data):
    COUNT['test_cli_predict_damaged_model_files'] += 1
    tmp, df, envs = envelopes()
    method = data.draw(st.sampled_from(METHODS))
    env = data.draw(damaged(envs[method])) if data.draw(st.integers(0, 4)) else envs[method]
    table = data.draw(st.sampled_from(['same', 'csv']))
    note(f'method={method}\nenv=' + snippet(env))
    with tempfile.TemporaryDirectory() as t:
        t = Path(t)
        (t / 'model.json').write_text(deep_json(env))
        if table == 'same': df.to_csv(t / 't.csv', index=False)
        else:
            csv = data.draw(csv_texts())
            (t / 't.csv').write_bytes(csv) if isinstance(csv, bytes) else (t / 't.csv').write_text(csv)
        code, _ = run_cli('predict', t / 'model.json', t / 't.csv', '--out', t / 'p.csv', '--quiet')
        if code: return
        p = pd.read_csv(t / 'p.csv')['prediction']
        if method != 'osdt': assert np.isfinite(p.astype(float)).all(), f'non-finite predictions {p.tolist()}'


# --- the size of the battery -----------------------------------------------------------------------------------------
def test_zz_battery_size():
    "At least 1,000 generated bad inputs ran (checked when the whole file ran, in one process)."
    tests = {n for n, f in globals().items() if n.startswith('test_') and n != 'test_zz_battery_size'}
    if not tests <= RAN: pytest.skip(f'partial run: {sorted(tests - RAN)} did not run here')
    total = sum(COUNT.values())
    print(f'bad-input battery: {total} inputs', dict(COUNT.most_common(12)))
    assert total >= 1000, f'only {total} bad inputs ran: {COUNT}'
