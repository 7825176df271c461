"""`glassworks fit` / `glassworks predict` run as real commands (`python -m glassworks ...` in a subprocess) on tiny
tables: every method, the predictions round-tripped against the same estimator fitted in this process, every error."""
import json, subprocess, sys
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_breast_cancer
from sklearn.ensemble import GradientBoostingRegressor

from glassworks.binarize import Binarizer
from glassworks.osdt import OSDTClassifier
from glassworks.osrt import OSRTRegressor
from glassworks.hierscale import HierScaleRegressor
from glassworks.ogb import RuleBoostingRegressor, RuleBoostingClassifier
from glassworks.extract import RuleExtractor
from glassworks.cli import parquet_engine


def gw(*argv, cwd=None):
    "Run `python -m glassworks argv...`; returns the CompletedProcess."
    return subprocess.run([sys.executable, '-m', 'glassworks', *map(str, argv)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.fixture(scope='module')
def data(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('cli')
    d = load_diabetes(as_frame=True).frame[['age', 'bmi', 'bp', 's5', 'target']].iloc[:120]
    d = d.rename(columns={'target': 'progression'})
    d.to_csv(tmp / 'diabetes.csv', index=False)
    c = load_breast_cancer(as_frame=True).frame[['mean radius', 'mean texture', 'mean concavity', 'target']].iloc[:150]
    c = c.assign(diagnosis=np.where(c.pop('target') == 1, 'benign', 'malignant'))
    c['size'] = np.where(c['mean radius'] > 14, 'large', 'small')      # a categorical column to binarise
    c.to_csv(tmp / 'cancer.csv', index=False)
    return tmp, d, c


def _new_rows(df, target):
    "The table as a user would bring it at predict time: no target, columns in another order, an extra column."
    X = df.drop(columns=[target])
    return X[X.columns[::-1]].assign(extra=1.0)


def fit_and_predict(tmp, table, target, method, *opts):
    out = tmp / f'{method}-{table.split(".")[0]}'
    r = gw('fit', tmp / table, '--target', target, '--method', method, '--out', out, *opts)
    assert r.returncode == 0, r.stderr
    env = json.loads((out / 'model.json').read_text())
    df = pd.read_csv(tmp / table)
    _new_rows(df, target).to_csv(tmp / 'new.csv', index=False)
    r2 = gw('predict', out / 'model.json', tmp / 'new.csv', '--out', out / 'pred.csv')
    assert r2.returncode == 0, r2.stderr
    return r.stdout, env, out, pd.read_csv(out / 'pred.csv')['prediction'].to_numpy()


def test_osdt(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'cancer.csv', 'diagnosis', 'osdt', '--regularization', 0.02,
                                             '--max-depth', 3, '--n-bins', 3, '--time-limit', 20)
    X, y = c.drop(columns='diagnosis'), c['diagnosis']
    bz = Binarizer(n_bins=3).fit(X)
    m = OSDTClassifier(regularization=0.02, max_depth=3, time_limit=20).fit(bz.transform(X), y)
    assert m.optimal_
    np.testing.assert_array_equal(pred, m.predict(bz.transform(X)))
    assert env['encoding'] == 'binarized' and env['classes'] == ['benign', 'malignant']
    assert 'optimal' in stdout and 'if ' in stdout
    assert (out / 'model.svg').exists() or (out / 'model.gv').exists()


def test_osrt(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'diabetes.csv', 'progression', 'osrt', '--regularization', 0.02,
                                             '--max-depth', 2, '--n-bins', 3, '--time-limit', 20, '--verbose')
    X, y = d.drop(columns='progression'), d['progression']
    bz = Binarizer(n_bins=3).fit(X)
    m = OSRTRegressor(regularization=0.02, max_depth=2, time_limit=20).fit(bz.transform(X), y)
    assert m.gap_ == 0
    np.testing.assert_allclose(pred, m.predict(bz.transform(X)), rtol=1e-12)
    assert env['model']['type'] == 'Tree' and 'binarised 4 columns' in stdout


def test_trees_search_every_threshold_of_a_table_of_numbers(data):
    "Issue 41: with --max-depth and no --n-bins, osdt/osrt fit the numeric columns as they are (every threshold)."
    tmp, d, c = data
    d.to_csv(tmp / 'progress.csv', index=False)                  # its own output folder (osrt-progress)
    stdout, env, out, pred = fit_and_predict(tmp, 'progress.csv', 'progression', 'osrt', '--regularization', 0.02,
                                             '--max-depth', 2, '--time-limit', 60)
    X, y = d.drop(columns='progression'), d['progression']
    m = OSRTRegressor(regularization=0.02, max_depth=2).fit(X, y)
    assert m.numeric_ and m.gap_ == 0 and env['encoding'] == 'raw' and 'every threshold' in stdout
    np.testing.assert_allclose(pred, m.predict(X), rtol=1e-12)
    c.drop(columns='size').to_csv(tmp / 'numbers.csv', index=False)
    stdout, env, out, pred = fit_and_predict(tmp, 'numbers.csv', 'diagnosis', 'osdt', '--regularization', 0.02,
                                             '--max-depth', 2, '--time-limit', 60)
    X, y = c.drop(columns=['diagnosis', 'size']), c['diagnosis']
    m = OSDTClassifier(regularization=0.02, max_depth=2).fit(X, y)
    assert m.numeric_ and m.optimal_ and env['encoding'] == 'raw' and 'every threshold' in stdout
    np.testing.assert_array_equal(pred, m.predict(X))


def test_hierscale(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'diabetes.csv', 'progression', 'hierscale', '--max-depth', 3)
    X, y = d.drop(columns='progression'), d['progression']
    m = HierScaleRegressor(n_lambda=30, random_state=0).fit(X, y)
    np.testing.assert_allclose(pred, m.predict(X), rtol=1e-9)
    assert env['model']['type'] == 'HierScaleModel' and env['encoding'] == 'raw'
    assert 'note: method hierscale does not use --max-depth' in stdout
    assert (out / 'path.png').exists()


def test_ogb_regression(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'diabetes.csv', 'progression', 'ogb', '--max-rules', 3,
                                             '--max-depth', 2, '--time-limit', 20)
    X, y = d.drop(columns='progression'), d['progression']
    m = RuleBoostingRegressor(max_rules=3, max_rule_length=2, time_limit=20).fit(X, y)
    np.testing.assert_allclose(pred, m.predict(X), rtol=1e-9)
    assert env['estimator'] == 'RuleBoostingRegressor' and (out / 'risk_complexity.png').exists()


def test_ogb_classification(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'cancer.csv', 'diagnosis', 'ogb', '--max-rules', 3,
                                             '--max-depth', 2, '--time-limit', 20)
    X, y = c.drop(columns='diagnosis'), c['diagnosis']
    m = RuleBoostingClassifier(max_rules=3, max_rule_length=2, time_limit=20).fit(X, y)
    np.testing.assert_array_equal(pred, m.predict(X))
    assert env['estimator'] == 'RuleBoostingClassifier' and 'log-odds of malignant' in stdout


def test_extract(data):
    tmp, d, c = data
    stdout, env, out, pred = fit_and_predict(tmp, 'diabetes.csv', 'progression', 'extract', '--max-rules', 4,
                                             '--max-depth', 2)
    X, y = d.drop(columns='progression'), d['progression']
    m = RuleExtractor(GradientBoostingRegressor(n_estimators=50, max_depth=2, random_state=0), max_rules=4).fit(X, y)
    np.testing.assert_allclose(pred, m.predict(X), rtol=1e-9)
    assert env['model']['type'] == 'RuleEnsemble' and 'RuleExtractor:' in stdout


def _error(r, *words):
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and 'Traceback' not in r.stderr, r.stderr
    for w in words: assert w in lines[0], lines[0]


def test_errors(data):
    tmp, d, c = data
    (tmp / 'bad.csv').write_bytes(b'\xff\xfe\x00a,b\n\x81\x82,3\n')
    (tmp / 'notes.json').write_text('not json')
    d.assign(bmi=d['bmi'].astype(str) + 'x').to_csv(tmp / 'text_bmi.csv', index=False)
    _error(gw('fit', tmp / 'nope.csv', '--target', 'y', '--method', 'osrt'), 'no such file')
    _error(gw('fit', tmp / 'bad.csv', '--target', 'y', '--method', 'osrt'), 'cannot read')
    _error(gw('fit', tmp / 'diabetes.csv', '--target', 'y', '--method', 'osrt'), "no column 'y'")
    _error(gw('fit', tmp / 'cancer.csv', '--target', 'diagnosis', '--method', 'osrt'), 'numeric target')
    _error(gw('fit', tmp / 'cancer.csv', '--target', 'diagnosis', '--method', 'extract'), 'numeric target')
    _error(gw('fit', tmp / 'diabetes.csv', '--target', 'progression', '--method', 'cart'), 'unknown method')
    _error(gw('fit', tmp / 'diabetes.csv', '--method', 'osrt'), '--target')                  # argparse's own error
    _error(gw('fit', tmp / 'diabetes.csv', '--target', 'progression', '--method', 'osrt', '--max-depth', 'two'),
           'max-depth')
    _error(gw('fit', tmp / 'cancer.csv', '--target', 'mean radius', '--method', 'hierscale'),
           "'diagnosis'", 'numeric columns')
    d.assign(bmi=d['bmi'].where(d.index % 5 > 0)).to_csv(tmp / 'nan_bmi.csv', index=False)
    _error(gw('fit', tmp / 'nan_bmi.csv', '--target', 'progression', '--method', 'osdt'), 'binarise', 'bmi')
    d.assign(flag=d['progression'] > 150).to_csv(tmp / 'bool_target.csv', index=False)
    _error(gw('fit', tmp / 'bool_target.csv', '--target', 'flag', '--method', 'osrt'), 'numeric target')
    (tmp / 'empty.csv').write_text('')
    _error(gw('fit', tmp / 'empty.csv', '--target', 'y', '--method', 'osrt'), 'empty')
    _error(gw('predict', tmp / 'notes.json', tmp / 'diabetes.csv'), 'cannot read')
    _error(gw('predict', tmp / 'nope.json', tmp / 'diabetes.csv'), 'no such file')


def test_predict_errors(data):
    tmp, d, c = data
    out = tmp / 'osrt-err'
    assert gw('fit', tmp / 'diabetes.csv', '--target', 'progression', '--method', 'osrt', '--max-depth', 1,
              '--n-bins', 2, '--out', out, '--no-draw').returncode == 0
    _error(gw('predict', out / 'model.json', tmp / 'cancer.csv'), 'lacks column', "'bmi'")
    d.assign(bmi=d['bmi'].astype(str) + 'x').to_csv(tmp / 'text_bmi.csv', index=False)
    _error(gw('predict', out / 'model.json', tmp / 'text_bmi.csv'), "'bmi'", 'numeric')


def test_parquet(data):
    "Parquet is read when pyarrow or fastparquet is installed; otherwise the command says which package is missing."
    tmp, d, c = data
    if parquet_engine() is None:
        (tmp / 'diabetes.parquet').write_bytes(b'PAR1')
        _error(gw('fit', tmp / 'diabetes.parquet', '--target', 'progression', '--method', 'osrt'),
               'pyarrow or fastparquet')
    else:
        d.to_parquet(tmp / 'diabetes.parquet')
        r = gw('fit', tmp / 'diabetes.parquet', '--target', 'progression', '--method', 'osrt', '--max-depth', 1,
               '--out', tmp / 'pq', '--no-draw')
        assert r.returncode == 0, r.stderr


def test_progress_and_quiet(data, monkeypatch):
    """Long stages report on stderr (here every stage: the threshold is set to 0); `--quiet` prints the model only."""
    import contextlib, io
    from glassworks import cli
    from glassworks.__main__ import main
    tmp, d, _ = data
    monkeypatch.setattr(cli, 'PROGRESS_AFTER', 0.0)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(['fit', str(tmp / 'diabetes.csv'), '--target', 'progression', '--method', 'osrt',
                     '--max-depth', '2', '--n-bins', '4', '--out', str(tmp / 'p1'), '--no-draw'])   # binarised
    assert code == 0
    e = err.getvalue()
    for stage in ('reading diabetes.csv', 'binarising 4 columns', 'fitting OSRTRegressor'):
        assert f"glassworks: {stage}" in e, e
    assert 'read ' in out.getvalue() and 'wrote ' in out.getvalue()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(['fit', str(tmp / 'diabetes.csv'), '--target', 'progression', '--method', 'osrt',
                     '--max-depth', '2', '--out', str(tmp / 'p2'), '--no-draw', '--quiet'])
    assert code == 0 and err.getvalue() == ''
    text = out.getvalue()
    assert 'read ' not in text and 'wrote ' not in text and text.startswith('if ')
    r = gw('predict', tmp / 'p2' / 'model.json', tmp / 'diabetes.csv', '--out', tmp / 'q.csv', '--quiet')
    assert r.returncode == 0 and r.stdout == '' and r.stderr == ''
