"""Compilation: the cache filled ahead of time leaves nothing to compile, the notice, time limits without compile
time."""
import json, os, subprocess, sys, tempfile, textwrap, time
import numpy as np
from numba import njit

from glassworks.base import SearchMonitor
from glassworks.compiling import compile_seconds, compiling, source_digest, PACKAGE_DIR


def _python(code:str, env:dict|None=None, timeout:float=900) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, '-c', textwrap.dedent(code)], capture_output=True, text=True,
                         env=dict(os.environ, **(env or {})), timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def test_after_compile_all_a_fresh_process_compiles_nothing():
    "`glassworks compile` (the CLI), then a new process fits every configuration of `compile_all` with 0 compilations."
    _python("import sys; from glassworks.__main__ import main; sys.exit(main(['compile']))")
    out = _python("""
        import json
        from numba.core import event
        names = []
        class L(event.Listener):
            def on_start(self, ev): names.append(ev.data['dispatcher'].py_func.__qualname__)
            def on_end(self, ev): pass
        event.register('numba:compile', L())
        from glassworks.registry import warmup_fits
        for name, fit in warmup_fits(): fit()
        print(json.dumps(names))
    """)
    assert set(json.loads(out.stdout.strip().splitlines()[-1])) <= {'_report'}


def test_notice_once_and_compile_seconds():
    "With an empty cache: one notice line on stderr for the first fit that compiles, none for the next; seconds kept."
    with tempfile.TemporaryDirectory() as cache:
        out = _python("""
            import glassworks.compiling as c; c.NOTICE_AFTER = 0.0
            import numpy as np
            from glassworks.ogb import RuleBoostingRegressor
            rng = np.random.default_rng(0); X = rng.normal(size=(40, 3)); y = X[:, 0] + rng.normal(0, .1, 40)
            a = RuleBoostingRegressor(n_rules=2).fit(X, y); b = RuleBoostingRegressor(n_rules=2).fit(X, y)
            print(a.compile_seconds_ > 0, b.compile_seconds_ == 0)
        """, env=dict(NUMBA_CACHE_DIR=cache))
        assert out.stdout.split() == ['True', 'True']
        lines = [l for l in out.stderr.splitlines() if l.startswith('glassworks: compiling')]
        assert len(lines) == 1 and 'RuleBoostingRegressor' in lines[0] and cache in lines[0]


def test_time_limit_excludes_compilation():
    "A monitor's clock does not count numba compilation in its thread; the limit then applies to the search alone."
    @njit
    def fresh(x):   # a new function: compiled on the first call below
        s = 0.0
        for i in range(x.shape[0]): s += np.sin(x[i]) * np.cos(x[i])
        return s
    mon = SearchMonitor(time_limit=0.05)
    t0, c0 = time.perf_counter(), compile_seconds(this_thread=True)
    fresh(np.arange(3.0))
    wall, comp = time.perf_counter() - t0, compile_seconds(this_thread=True) - c0
    assert comp > 0.05 and mon.compile_seconds >= comp - 1e-9      # the compilation was seen, and it is long
    assert mon.elapsed < wall - comp + 0.05                         # ... and it is not on the search clock
    assert not mon.expired()
    time.sleep(0.06)
    assert mon.expired() and mon.stopped_by == 'time_limit'


def test_nested_blocks_count_once():
    @njit
    def fresh2(x): return x + 2
    with compiling('outer', after=float('inf')) as outer:
        with compiling('inner', after=float('inf')): fresh2(1)
    assert outer.seconds > 0


def test_digest_changes_with_any_file(tmp_path):
    "Proposition 1 of nbs/07_compiling: one changed byte in any file of the package changes the stamp of every kernel."
    for name in ('a.py', 'b.py'): (tmp_path / name).write_text('x = 1\n')
    d0 = source_digest(tmp_path)
    (tmp_path / 'b.py').write_text('x = 2\n')
    assert source_digest(tmp_path) != d0
    assert source_digest(PACKAGE_DIR) == source_digest(PACKAGE_DIR)
