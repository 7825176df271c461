#!/usr/bin/env python
"""Cold start: what the first fit of each method costs in a new process, with an empty and with a warm numba cache.

    python benchmarks/cold_start.py [--methods osdt osdt-depth osrt hierscale ogb extract rashomon] [--repeat 1]
                                    [--out benchmarks/results/cold_start]

For every method, one small fit (the data of `glassworks tour`) runs in fresh Python processes:
  * cold   NUMBA_CACHE_DIR is a new empty folder: every kernel the fit needs is compiled;
  * warm   a second new process on the folder the cold run filled: kernels are loaded from the cache;
  * second the same fit again inside the warm process (nothing left to load or compile).
Each process reports the seconds of `import` and of each fit, and, through numba's `numba:compile` events, every
compilation it performed: the function, how many type specialisations, and its exclusive seconds (nested
compilations of callees subtracted). A warm process should compile nothing: what it does compile is listed.
`--repeat N` runs the cold/warm pair N times and keeps the median of each figure.
Writes OUT.md (summary + the costliest kernels of each cold fit) and OUT.csv, OUT_kernels.csv.
Timings are whole wall-clock seconds of a loaded or quiet machine, as stated in OUT.md: compare runs of one machine.
"""
from __future__ import annotations
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np
import pandas as pd

# The child: one method's fit, twice, with every compilation recorded. Kept as source so that it runs in a fresh
# interpreter (nothing imported or compiled by this parent process leaks into it).
CHILD = r'''
import json, os, sys, time, collections
t_start = time.perf_counter()
if os.environ.get('GLASSWORKS_SRC'):      # --src: measure another checkout (an editable install would shadow it)
    sys.meta_path = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]
    sys.path.insert(0, os.environ['GLASSWORKS_SRC'])
from numba.core import event

class Compiles(event.Listener):
    "Exclusive seconds of every numba compilation (time spent compiling callees is charged to them)."
    def __init__(self): self.stack, self.rows = [], collections.defaultdict(lambda: [0.0, 0])
    def on_start(self, ev): self.stack.append([time.perf_counter(), 0.0])
    def on_end(self, ev):
        t0, inner = self.stack.pop(); dt = time.perf_counter() - t0
        if self.stack: self.stack[-1][1] += dt
        f = ev.data['dispatcher'].py_func
        row = self.rows[f"{f.__module__}.{f.__qualname__}"]; row[0] += dt - inner; row[1] += 1

rec = Compiles(); event.register('numba:compile', rec)
method = sys.argv[1]
t0 = time.perf_counter()
import numpy as np
if method in ('osdt', 'osdt-depth', 'osdt-bnb'):
    from sklearn.datasets import load_breast_cancer
    from glassworks.binarize import Binarizer
    from glassworks.osdt import OSDTClassifier
    d = load_breast_cancer(as_frame=True)
    X = Binarizer(strategy='quantile', n_bins=3).fit_transform(d.data.iloc[:, :10]); y = d.target
    kw = dict(max_depth=3) if method == 'osdt-depth' else dict(search='bnb') if method == 'osdt-bnb' else {}
    fit = lambda: OSDTClassifier(regularization=0.005, **kw).fit(X, y)
elif method == 'osrt':
    from sklearn.datasets import load_diabetes
    from glassworks.binarize import Binarizer
    from glassworks.osrt import OSRTRegressor
    d = load_diabetes(as_frame=True)
    X = Binarizer(strategy='equal_width', n_bins=4).fit_transform(d.data); y = d.target
    fit = lambda: OSRTRegressor(regularization=0.01, max_depth=3).fit(X, y)
elif method == 'hierscale':
    from glassworks.datasets import make_hierarchical
    from glassworks.hierscale import HierScaleRegressor
    X, y, _ = make_hierarchical(n=300, p=30, k=4, setting='I', snr=10, random_state=0)
    fit = lambda: HierScaleRegressor(random_state=0).fit(X, y)
elif method == 'ogb':
    from sklearn.datasets import load_diabetes
    from glassworks.ogb import RuleBoostingRegressor
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    fit = lambda: RuleBoostingRegressor(max_rules=6, max_rule_length=2).fit(X, y)
elif method == 'extract':
    from sklearn.datasets import load_diabetes
    from sklearn.ensemble import GradientBoostingRegressor
    from glassworks.extract import RuleExtractor
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    gb = GradientBoostingRegressor(n_estimators=100, max_depth=3, random_state=0).fit(X, y)
    fit = lambda: RuleExtractor(gb, max_rules=15).fit(X, y)
elif method == 'rashomon':
    from sklearn.datasets import load_breast_cancer
    from glassworks.binarize import Binarizer
    from glassworks.osdt import OSDTClassifier
    d = load_breast_cancer(as_frame=True)
    X = Binarizer(strategy='quantile', n_bins=3).fit_transform(d.data.iloc[:, :10]); y = d.target
    fit = lambda: OSDTClassifier(regularization=0.005, max_depth=3).rashomon_set(X, y, epsilon=0.05).preorders(0, 100)
else: raise SystemExit(f"unknown method {method}")
t1 = time.perf_counter()
fit(); t2 = time.perf_counter()
first = {k: list(v) for k, v in rec.rows.items()}
fit(); t3 = time.perf_counter()
print(json.dumps(dict(python=t0 - t_start, imports=t1 - t0, first_fit=t2 - t1, second_fit=t3 - t2,
                      compiles=first)))
'''

SRC = None   # --src
METHODS = ['osdt', 'osdt-depth', 'osrt', 'hierscale', 'ogb', 'extract', 'rashomon']


def run_child(method:str, cache:str) -> dict:
    "One fresh process for `method` with NUMBA_CACHE_DIR=cache: its timings and compilations (JSON from the child)."
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    if SRC: env['GLASSWORKS_SRC'] = SRC
    t = time.perf_counter()
    out = subprocess.run([sys.executable, '-c', CHILD, method], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if out.returncode != 0: raise RuntimeError(f"{method}: child failed\n{out.stderr[-3000:]}")
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res['process'] = wall
    return res


def measure(method:str) -> tuple[dict, list]:
    "Cold then warm process for `method` on one new cache folder: (summary row, kernel rows of the cold run)."
    with tempfile.TemporaryDirectory(prefix='gw-numba-') as cache:
        cold = run_child(method, cache)
        warm = run_child(method, cache)
    row = dict(method=method, cold_first_fit=cold['first_fit'], cold_process=cold['process'],
               warm_imports=warm['imports'], warm_first_fit=warm['first_fit'], warm_process=warm['process'],
               second_fit=warm['second_fit'], cold_compiles=sum(v[1] for v in cold['compiles'].values()),
               cold_compile_s=sum(v[0] for v in cold['compiles'].values()),
               warm_compiles=sum(v[1] for v in warm['compiles'].values()),
               warm_compiled=' '.join(sorted(warm['compiles'])))
    kernels = [dict(method=method, kernel=k, seconds=v[0], specialisations=v[1]) for k, v in cold['compiles'].items()]
    return row, kernels


def to_markdown(df:pd.DataFrame, kernels:pd.DataFrame, note:str) -> str:
    lines = ['# Cold start: first fit in a new process', '', note, '',
             '| method | cold first fit (s) | cold process (s) | compilations | warm import (s) | warm first fit (s) '
             '| warm process (s) | second fit (s) | compiled when warm |', '|---|---|---|---|---|---|---|---|---|']
    for r in df.itertuples():
        lines.append(f"| {r.method} | {r.cold_first_fit:.2f} | {r.cold_process:.2f} | {r.cold_compiles} "
                     f"| {r.warm_imports:.2f} | {r.warm_first_fit:.3f} | {r.warm_process:.2f} | {r.second_fit:.3f} "
                     f"| {r.warm_compiled or '-'} |")
    lines += ['', '## The costliest compilations of each cold first fit (exclusive seconds)', '']
    for m, g in kernels.groupby('method', sort=False):
        g = g.sort_values('seconds', ascending=False)
        top = ', '.join(f"{k.split('.')[-1] if k.startswith('glassworks') else k} {s:.2f}"
                        + (f" (×{n})" if n > 1 else '') for k, s, n in zip(g.kernel, g.seconds, g.specialisations)
                        if s >= 0.3)
        lines.append(f"- **{m}** ({len(g)} functions, {g.specialisations.sum()} compilations, "
                     f"{g.seconds.sum():.1f} s): {top}")
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--methods', nargs='+', default=METHODS)
    ap.add_argument('--repeat', type=int, default=1, help='cold/warm pairs per method (median kept)')
    ap.add_argument('--out', default=str(Path(__file__).parent / 'results' / 'cold_start'))
    ap.add_argument('--note', default='', help='a line saying how loaded the machine was')
    ap.add_argument('--src', default=None, help='measure the glassworks package of another checkout (A/B)')
    a = ap.parse_args()
    global SRC
    SRC = a.src
    rows, kernels = [], []
    for m in a.methods:
        runs = [measure(m) for _ in range(a.repeat)]
        num = [k for k, v in runs[0][0].items() if isinstance(v, (int, float))]
        row = dict(runs[0][0])
        row.update({k: float(np.median([r[0][k] for r in runs])) for k in num})
        rows.append(row)
        kernels += runs[0][1]
        print(f"{m:11s} cold first fit {row['cold_first_fit']:7.2f} s ({row['cold_compiles']:.0f} compilations)  "
              f"warm first fit {row['warm_first_fit']:.3f} s  warm import {row['warm_imports']:.2f} s  "
              f"second fit {row['second_fit']:.3f} s", flush=True)
    df, kd = pd.DataFrame(rows), pd.DataFrame(kernels)
    note = (f"`python benchmarks/cold_start.py {' '.join(sys.argv[1:])}` on {platform.node()} "
            f"({os.cpu_count()} cores, Python {platform.python_version()}, numba "
            f"{__import__('numba').__version__}); {time.strftime('%Y-%m-%d %H:%M')}. {a.note}")
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(f"{out}.csv", index=False)
    kd.to_csv(f"{out}_kernels.csv", index=False)
    Path(f"{out}.md").write_text(to_markdown(df, kd, note))
    print(f"wrote {out}.md")


if __name__ == '__main__':
    main()
