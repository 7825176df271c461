"""Tests for glassworks.datasets: every benchmark table, the search order, downloads and the generators.

The benchmark files come from the folder named by $GLASSWORKS_DATA. When it is missing the data tests are
skipped, except under CI (env `CI` set), where they fail.
"""
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from glassworks import datasets as gd
from glassworks.validation import ParameterError

# Row counts and feature counts from /shared/data/README.md (features after the documented cleaning).
# banknote: the README table says 1371, but the file holds 1372 data rows (its last line has no newline; 1372 is
# also the UCI count), so 1372 is expected here.
EXPECTED = {
    'compas-binary': (6907, 12), 'fico_binary': (10459, 17), 'monk1-train': (124, 11), 'monk2-train': (169, 11),
    'monk3-train': (122, 11), 'tic-tac-toe': (958, 18),
    'airfoil': (1503, 17), 'airquality': (111, 16), 'enb-heat': (768, 27), 'real-estate': (414, 18),
    'seoul-bike': (8760, 32), 'servo': (167, 15), 'sync': (557, 12), 'yacht': (308, 35),
    'titanic': (891, 7), 'tic_tac_toe': (958, 9), 'banknote': (1372, 4), 'ibm_hr': (1470, 33),
    'voice_gender': (3168, 20), 'magic04': (19020, 10), 'adult': (30162, 13), 'telco_churn': (7043, 19),
    'insurance': (1338, 6), 'wages': (1379, 5), 'used_cars': (1770, 7), 'boston': (506, 13),
    'happiness_2015': (158, 8), 'ships': (34, 4), 'smoking': (36, 3),
}
EMBEDDED = {'diabetes': (442, 10), 'breast_cancer': (569, 30), 'iris': (150, 4), 'wine': (178, 13)}
# The DL8.5 / MurTree / STreeD suite (dl85/ in the data folder): rows, 0/1 features, rows of class 1, counted in the
# files.
SUITE = {
    'dl85-anneal': (812, 93, 625), 'dl85-audiology': (216, 148, 57), 'dl85-australian-credit': (653, 125, 357),
    'dl85-breast-wisconsin': (683, 120, 444), 'dl85-diabetes': (768, 112, 500), 'dl85-heart-cleveland': (296, 95, 160),
    'dl85-hepatitis': (137, 68, 111), 'dl85-hypothyroid': (3247, 88, 2970), 'dl85-ionosphere': (351, 445, 225),
    'dl85-kr-vs-kp': (3196, 73, 1669), 'dl85-lymph': (148, 68, 81), 'dl85-mushroom': (8124, 119, 4208),
    'dl85-pendigits': (7494, 216, 780), 'dl85-primary-tumor': (336, 31, 82), 'dl85-soybean': (630, 50, 92),
    'dl85-splice-1': (3190, 287, 1655), 'dl85-tic-tac-toe': (958, 27, 626), 'dl85-vote': (435, 48, 267),
    'dl85-zoo-1': (101, 36, 41),
}
BINARIZED = [n for n in EXPECTED if gd._SPECS[n].folder in ('classification', 'regression')]
BINARY_LABEL = [n for n in EXPECTED if gd._SPECS[n].task == 'classification']


_ENV_DATA = os.environ.get('GLASSWORKS_DATA')   # read at import: some tests below isolate the environment


def _data_dir():
    env = _ENV_DATA
    if env and Path(env).is_dir():
        return Path(env)
    msg = f"GLASSWORKS_DATA is not set to an existing folder (got {env!r})"
    if os.environ.get('CI'):
        pytest.fail(msg + " and CI is set: the benchmark data must be available in CI.")
    pytest.skip(msg)


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    "No GLASSWORKS_* variables from outside; the cache is a fresh temporary folder."
    for k in ('GLASSWORKS_DATA', 'GLASSWORKS_CACHE', 'GLASSWORKS_MIRROR'):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv('GLASSWORKS_CACHE', str(tmp_path / 'cache'))
    return tmp_path


# ---------------------------------------------------------------- catalogue
def test_catalogue_lists_everything():
    cat = gd.list_datasets()
    assert set(cat.name) == set(EXPECTED) | set(EMBEDDED) | set(SUITE)
    assert {'name', 'task', 'rows', 'features', 'folder', 'source'} <= set(cat.columns)
    assert set(cat.task) <= {'classification', 'regression', 'counts'}
    sizes = {**EXPECTED, **EMBEDDED, **{n: v[:2] for n, v in SUITE.items()}}
    for _, r in cat.iterrows():
        assert (r['rows'], r['features']) == sizes[r['name']]
    # the two tic-tac-toe tables are told apart
    tt = cat.set_index('name')
    assert 'BINARIZED' in tt.loc['tic-tac-toe', 'summary'] and 'RAW' in tt.loc['tic_tac_toe', 'summary']


def test_aliases_and_unknown_names():
    assert gd.resolve_name('compas') == 'compas-binary'
    assert gd.resolve_name('fico') == 'fico_binary'
    assert [gd.resolve_name(f'monk{i}') for i in (1, 2, 3)] == ['monk1-train', 'monk2-train', 'monk3-train']
    assert gd.resolve_name('tic-tac-toe') != gd.resolve_name('tic_tac_toe')
    with pytest.raises(ValueError, match='unknown dataset'):
        gd.resolve_name('no-such-data')


# ---------------------------------------------------------------- every data set
@pytest.mark.parametrize('name', list(EXPECTED))
def test_load_every_dataset(name):
    data = _data_dir()
    ds = gd.load(name, data_home=data, download=False)
    X, y, desc = ds                                   # unpacks as a triple
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series) and isinstance(desc, str)
    assert X.shape == EXPECTED[name]
    assert len(y) == len(X) and not y.isna().any()
    assert ds.name == name and ds.task == gd._SPECS[name].task
    assert ds.source_url.startswith('https://raw.githubusercontent.com/')
    assert 'Source:' in desc and f'{X.shape[0]} rows' in desc
    if name in BINARIZED:
        assert not X.isna().any().any()
        assert X.isin([0, 1]).all().all()
    if name in BINARY_LABEL:
        assert set(y.unique()) == {0, 1}
    if ds.task == 'regression':
        assert y.dtype == np.float64
    if ds.task == 'counts':
        assert (y >= 0).all() and y.dtype == np.int64


def test_via_environment_variable(monkeypatch, tmp_path):
    data = _data_dir()
    monkeypatch.setenv('GLASSWORKS_DATA', str(data))
    monkeypatch.setenv('GLASSWORKS_CACHE', str(tmp_path))
    X, y, _ = gd.load('compas')
    assert X.shape == (6907, 12) and y.name == 'recidivate-within-two-years:1'


def test_raw_cleaning():
    data = _data_dir()
    X, y, desc = gd.load('titanic', data_home=data)
    assert {'PassengerId', 'Name', 'Ticket', 'Cabin'}.isdisjoint(X.columns)
    assert X['Age'].isna().sum() == 177 and 'NaN' in desc
    X, y, desc = gd.load('ibm_hr', data_home=data)
    assert X.columns[0] == 'Age' and 'EmployeeNumber' not in X.columns and y.sum() == 237
    assert "'Yes' -> 1" in desc
    X, y, _ = gd.load('telco_churn', data_home=data)
    assert 'customerID' not in X.columns and X['TotalCharges'].dtype == np.float64
    assert X['TotalCharges'].isna().sum() == 11
    X, y, _ = gd.load('tic_tac_toe', data_home=data)
    assert set(np.unique(X.to_numpy().astype(str))) == {'x', 'o', 'b'} and y.sum() == 626
    X, y, _ = gd.load('voice_gender', data_home=data)
    assert y.sum() == 1584
    X, y, _ = gd.load('adult', data_home=data)
    assert y.sum() == 7508
    X, y, _ = gd.load('happiness_2015', data_home=data)
    assert {'Country', 'Happiness Rank', 'Standard Error'}.isdisjoint(X.columns)
    X, y, _ = gd.load('smoking', data_home=data)
    assert list(X.columns) == ['age', 'smoke', 'pop'] and y.name == 'dead'


@pytest.mark.parametrize('name', list(EMBEDDED))
def test_embedded(name, isolated):
    X, y, desc = gd.load(name)
    assert X.shape == EMBEDDED[name] and all(isinstance(c, str) for c in X.columns)
    assert 'scikit-learn' in desc


# ---------------------------------------------------------------- search order
def _write(folder, name, rows, nested=True):
    spec = gd._SPECS[name]
    path = (folder / spec.folder / spec.file) if nested else (folder / spec.file)
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = ';'.join([f'f{j}' for j in range(2)] + [spec.target])
    path.write_text(cols + '\n' + ''.join(f'{r % 2};{(r // 2) % 2};{r % 2}\n' for r in range(rows)))
    return path


def test_search_order_explicit_env_cache(isolated, monkeypatch):
    tmp = isolated
    explicit, env, cache = tmp / 'explicit', tmp / 'env', tmp / 'cache'
    _write(explicit, 'monk1-train', 3)
    _write(env, 'monk1-train', 4, nested=False)        # flat layout is accepted too
    _write(cache, 'monk1-train', 5)
    monkeypatch.setenv('GLASSWORKS_DATA', str(env))
    with pytest.warns(UserWarning):                     # the fake files do not have the documented size
        assert len(gd.load('monk1', data_home=explicit, download=False).X) == 3
    with pytest.warns(UserWarning):
        assert len(gd.load('monk1', data_home=tmp / 'empty', download=False).X) == 4
    monkeypatch.delenv('GLASSWORKS_DATA')
    with pytest.warns(UserWarning):
        assert len(gd.load('monk1', download=False).X) == 5
    assert gd.fetch('monk1', download=False) == cache / 'classification' / 'monk1-train.csv'


def test_cache_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv('GLASSWORKS_CACHE', str(tmp_path / 'c'))
    assert gd.cache_dir() == tmp_path / 'c'
    monkeypatch.delenv('GLASSWORKS_CACHE')
    assert 'glassworks' in str(gd.cache_dir())


def test_clear_error_when_nothing_found(isolated):
    with pytest.raises(gd.DatasetNotFoundError) as e:
        gd.load('fico', data_home=isolated / 'nowhere', download=False)    # FICO is not shipped (its terms)
    msg = str(e.value)
    assert str(isolated / 'nowhere' / 'classification' / 'fico_binary.csv') in msg
    assert str(isolated / 'cache' / 'fico_binary.csv') in msg
    assert 'GLASSWORKS_DATA' in msg and 'data_home' in msg
    assert isinstance(e.value, FileNotFoundError)


def test_failed_download_reports_url(isolated, monkeypatch):
    def refuse(*a, **k): raise OSError('network is unreachable')
    monkeypatch.setattr(gd.urllib.request, 'urlopen', refuse)
    with pytest.raises(gd.DatasetNotFoundError, match='raw.githubusercontent.com/xiyanghu') as e:
        gd.load('fico')
    assert 'network is unreachable' in str(e.value)


# ---------------------------------------------------------------- downloads (offline: file:// URLs)
def test_download_from_file_url_into_cache(isolated, monkeypatch):
    data = _data_dir()
    monkeypatch.setenv('GLASSWORKS_MIRROR', data.resolve().as_uri())   # same layout as the public sources
    X, y, desc = gd.load('smoking')                     # a table that is not shipped with the package
    cached = isolated / 'cache' / 'raw' / 'smoking.csv'
    assert cached.is_file() and gd.sha256_of(cached) == gd._SPECS['smoking'].sha256
    assert X.shape == (36, 3) and str(cached) in desc
    assert not list(cached.parent.glob('*.part'))
    # the second call is served from the cache, even with downloads off
    assert gd.fetch('smoking', download=False) == cached


def test_download_sha256_mismatch(isolated, monkeypatch):
    mirror = isolated / 'mirror'
    _write(mirror, 'fico_binary', 7)                   # right name, wrong bytes
    monkeypatch.setenv('GLASSWORKS_MIRROR', mirror.as_uri())
    with pytest.raises(gd.ChecksumError, match='SHA-256 mismatch'):
        gd.load('fico')
    folder = isolated / 'cache' / 'classification'
    assert not folder.exists() or not any(folder.iterdir())   # nothing kept, not even a temp file


def test_download_file_with_patched_opener(tmp_path, monkeypatch):
    import io
    payload = b'a,b\n1,2\n'
    seen = {}
    class Resp(io.BytesIO):
        def __enter__(self): return self
        def __exit__(self, *a): self.close()
    def opener(url, timeout=None):
        seen.update(url=url, timeout=timeout)
        return Resp(payload)
    monkeypatch.setattr(gd.urllib.request, 'urlopen', opener)
    import hashlib
    out = gd.download_file('https://example.org/x.csv', tmp_path / 'd' / 'x.csv',
                           hashlib.sha256(payload).hexdigest(), timeout=5)
    assert out.read_bytes() == payload and seen == {'url': 'https://example.org/x.csv', 'timeout': 5}


def test_source_urls_are_recorded():
    for name in list(EXPECTED) + list(SUITE):
        spec = gd._SPECS[name]
        assert spec.url.startswith('https://raw.githubusercontent.com/')
        assert spec.url.endswith('.txt' if name in SUITE else '.csv')
        assert len(spec.sha256) == 64
    assert gd._SPECS['compas-binary'].url.endswith(
        'xiyanghu/OSDT/d28ff434d5a90a1e49ffcbcab170c9ce457a605f/data/preprocessed/compas-binary.csv')
    assert gd._SPECS['dl85-kr-vs-kp'].url.endswith(
        'aia-uclouvain/pydl8.5/a7f0fee72b4c17bbcb727050ba102db7dda10119/datasets/kr-vs-kp.txt')
    for name in list(EXPECTED) + list(SUITE):           # pinned to a commit, never a moving branch
        assert '/HEAD/' not in gd._SPECS[name].url and re.search('/[0-9a-f]{40}/', gd._SPECS[name].url), name


# ---------------------------------------------------------------- shipped tables (no network, no data folder)
SHIPPED = sorted(gd._BUNDLED)


def test_shipped_tables_are_the_upstream_bytes():
    import gzip, hashlib
    assert 'fico_binary' not in SHIPPED                 # FICO's terms do not allow redistribution
    assert {'compas-binary', 'monk1-train', 'tic-tac-toe', 'airfoil', 'servo', 'real-estate'} <= set(SHIPPED)
    for name in SHIPPED:
        spec = gd._SPECS[name]
        path = gd._BUNDLE_DIR / spec.folder / f"{spec.file}.gz"
        assert hashlib.sha256(gzip.open(path).read()).hexdigest() == spec.sha256, name


@pytest.mark.parametrize('name', SHIPPED)
def test_shipped_tables_load_offline(name, isolated, monkeypatch):
    def refuse(*a, **k): raise AssertionError('no download may be attempted for a shipped table')
    monkeypatch.setattr(gd.urllib.request, 'urlopen', refuse)
    X, y, desc = gd.load(name)
    assert X.shape == EXPECTED[name] and str(gd._BUNDLE_DIR) in desc
    assert gd.fetch(name, download=False).name.endswith('.csv.gz')
    assert X.isin([0, 1]).all().all()


def test_user_copy_wins_over_shipped(isolated):
    _write(isolated / 'cache', 'monk1-train', 5)
    with pytest.warns(UserWarning):
        assert len(gd.load('monk1', download=False).X) == 5


# ---------------------------------------------------------------- the DL8.5 / MurTree / STreeD suite
def _suite_dir():
    "The data folder, when it holds dl85/ (skip otherwise; fail under CI like the other data tests)."
    data = _data_dir()
    if not (data / 'dl85').is_dir():
        msg = f"{data} has no dl85/ folder (the DL8.5 / MurTree / STreeD suite)"
        if os.environ.get('CI'): pytest.fail(msg + " and CI is set.")
        pytest.skip(msg)
    return data


def test_suite_registry():
    names = gd.suite_datasets()
    assert names == sorted(SUITE) and len(names) == 19
    cat = gd.list_datasets().set_index('name')
    for name in names:
        spec = gd._SPECS[name]
        assert gd.resolve_name(name) == name and gd.resolve_name(name.upper() + '.txt') == name
        assert (spec.folder, spec.task, spec.binary, spec.target) == ('dl85', 'classification', True, 'class')
        assert spec.file == name[len('dl85-'):] + '.txt' and spec.sep == ' '
        assert (spec.rows, spec.features) == SUITE[name][:2] == (cat.loc[name, 'rows'], cat.loc[name, 'features'])
        assert cat.loc[name, 'source'] == 'github.com/aia-uclouvain/pydl8.5'
        assert re.fullmatch('[0-9a-f]{64}', spec.sha256)
    # the prefix keeps the suite apart from tables with the same file stem
    assert gd.resolve_name('tic-tac-toe') == 'tic-tac-toe' and gd._SPECS['dl85-tic-tac-toe'].features == 27
    assert gd.resolve_name('diabetes') == 'diabetes' and gd._SPECS['diabetes'].folder == 'sklearn'


def test_read_dl85_parser(tmp_path):
    p = tmp_path / 'tiny.txt'
    p.write_text('1 0 1 1\n0 1 1 0\n1 1 0 0\n')
    X, y = gd.read_dl85(p)
    assert list(X.columns) == ['f0', 'f1', 'f2'] and (X.dtypes == np.int64).all()
    assert X.to_numpy().tolist() == [[0, 1, 1], [1, 1, 0], [1, 0, 0]]
    assert y.name == 'class' and y.tolist() == [1, 0, 1] and y.dtype == np.int64
    p.write_text('1  0 1\n0 1  1\n')                     # runs of spaces are one separator
    assert gd.read_dl85(p)[0].shape == (2, 2)
    for text, match in [('1 0 1\n0 1\n', 'not in the DL8.5 format'), ('1 0 1\n0 1 1 1\n', 'not in the DL8.5 format'),
                        ('1 0 x\n', 'not in the DL8.5 format'),
                        ('1 0 1\n0 3 1\n', 'line 2 has a feature other than 0/1'),
                        ('1\n0\n', 'at least one feature'), ('', 'not in the DL8.5 format')]:
        p.write_text(text)
        with pytest.raises(ValueError, match=match):
            gd.read_dl85(p)


def test_suite_load_from_synthetic_folder(isolated, monkeypatch):
    "The search order and the Dataset for a suite name, on a fake dl85/ file (warns: not the documented size)."
    folder = isolated / 'data' / 'dl85'
    folder.mkdir(parents=True)
    (folder / 'zoo-1.txt').write_text('1 0 1\n0 1 1\n')
    monkeypatch.setenv('GLASSWORKS_DATA', str(isolated / 'data'))
    assert gd.fetch('dl85-zoo-1', download=False) == folder / 'zoo-1.txt'
    with pytest.warns(UserWarning, match='expected 101 rows'):
        ds = gd.load('dl85-zoo-1', download=False)
    assert isinstance(ds, gd.Dataset) and ds.name == 'dl85-zoo-1' and ds.task == 'classification'
    assert list(ds.X.columns) == ['f0', 'f1'] and ds.y.tolist() == [1, 0]
    assert 'pydl8.5' in ds.description and 'f0 ... f35' in ds.description
    assert ds.source_url.endswith('/datasets/zoo-1.txt')


def test_suite_download_checked_into_cache(isolated, monkeypatch):
    "A download goes to <cache>/dl85/<stem>.txt and is checked against the recorded digest."
    mirror = isolated / 'mirror' / 'dl85'
    mirror.mkdir(parents=True)
    (mirror / 'vote.txt').write_text('1 0 1\n')         # right name, wrong bytes
    monkeypatch.setenv('GLASSWORKS_MIRROR', (isolated / 'mirror').as_uri())
    with pytest.raises(gd.ChecksumError, match='SHA-256 mismatch'):
        gd.load('dl85-vote')
    assert not (isolated / 'cache' / 'dl85' / 'vote.txt').exists()


@pytest.mark.parametrize('name', sorted(SUITE))
def test_suite_files_sha256_and_load(name):
    data = _suite_dir()
    spec = gd._SPECS[name]
    path = data / 'dl85' / spec.file
    assert gd.sha256_of(path) == spec.sha256
    ds = gd.load(name, data_home=data, download=False)
    rows, features, ones = SUITE[name]
    assert ds.X.shape == (rows, features) and list(ds.X.columns) == [f'f{j}' for j in range(features)]
    assert (ds.X.dtypes == np.int64).all() and ds.X.isin([0, 1]).all().all()
    assert set(ds.y.unique()) == {0, 1} and int(ds.y.sum()) == ones
    assert str(path) in ds.description and ds.source_url == spec.url


def test_suite_download_from_mirror(isolated, monkeypatch):
    "A download of a real suite file (file:// mirror of the data folder) is accepted and cached."
    data = _suite_dir()
    monkeypatch.setenv('GLASSWORKS_MIRROR', data.resolve().as_uri())
    X, y, _ = gd.load('dl85-zoo-1')
    cached = isolated / 'cache' / 'dl85' / 'zoo-1.txt'
    assert cached.is_file() and gd.sha256_of(cached) == gd._SPECS['dl85-zoo-1'].sha256 and X.shape == (101, 36)
    assert gd.fetch('dl85-zoo-1', download=False) == cached


# ---------------------------------------------------------------- hierScale generator
@pytest.mark.parametrize('setting', ['I', 'II', 'III'])
def test_hierarchical_shapes_and_structure(setting):
    X, y, truth = gd.make_hierarchical(n=120, p=40, k=5, setting=setting, random_state=11)
    assert X.shape == (120, 40) and y.shape == (120,)
    assert truth.beta.shape == (40,) and np.count_nonzero(truth.beta) == 5
    assert set(np.unique(truth.beta)) == {0.0, 1.0}
    pairs = [(i, j) for i, j, _ in truth.interactions]
    assert all(i < j for i, j in pairs) and len(set(pairs)) == len(pairs)
    assert all(t == 1.0 for _, _, t in truth.interactions)
    if setting == 'I':
        assert len(pairs) == 5 and truth.is_strongly_hierarchical()
    elif setting == 'II':
        assert len(pairs) == 5 and truth.is_anti_hierarchical()
    else:
        assert pairs == []
    assert truth.n_nonzero == 5 + len(pairs)
    np.testing.assert_allclose(truth.sigma, np.sqrt(truth.n_nonzero / 10.0))


@pytest.mark.parametrize('setting', ['I', 'II', 'III'])
def test_hierarchical_snr_convention(setting):
    X, y, truth = gd.make_hierarchical(n=40_000, p=30, k=4 if setting != 'I' else 5, setting=setting,
                                       snr=5.0, random_state=2)
    f = truth.signal(X)
    assert abs(f.var() / truth.sigma**2 - 5.0) < 0.3       # population variance = number of non-zeros
    assert abs((y - f).std() - truth.sigma) < 0.02 * truth.sigma


def test_hierarchical_reproducible_and_large_p():
    a = gd.make_hierarchical(50, 30_000, k=5, random_state=7)
    b = gd.make_hierarchical(50, 30_000, k=5, random_state=7)
    c = gd.make_hierarchical(50, 30_000, k=5, random_state=8)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[2].interactions == b[2].interactions
    assert not np.array_equal(a[1], c[1])


def test_hierarchical_parameter_errors():
    with pytest.raises(ParameterError, match='k >= 3'):
        gd.make_hierarchical(setting='I', k=2)
    with pytest.raises(ParameterError):
        gd.make_hierarchical(setting='II', p=5, k=4)
    with pytest.raises(ParameterError):
        gd.make_hierarchical(snr=0)
    with pytest.raises(ParameterError):
        gd.make_hierarchical(setting='hier')


# ---------------------------------------------------------------- Friedman
@pytest.mark.parametrize('problem,p', [(1, 10), (2, 4), (3, 4)])
def test_friedman(problem, p):
    X, y = gd.make_friedman(300, problem=problem, noise=0.5, random_state=0)
    assert X.shape == (300, p) and list(X.columns) == [f'x{j}' for j in range(p)]
    assert isinstance(y, pd.Series) and len(y) == 300
    X2, y2 = gd.make_friedman(300, problem=problem, noise=0.5, random_state=0)
    pd.testing.assert_series_equal(y, y2)
    with pytest.raises(ParameterError):
        gd.make_friedman(10, problem=4)
