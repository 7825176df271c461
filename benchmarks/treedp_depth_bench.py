#!/usr/bin/env python
"""Depth-limited optimal trees: glassworks' DP engine (with and without its depth-two solver) against pystreed.

    python benchmarks/treedp_depth_bench.py [--depths 3 4 5 6] [--lams 0.01 0.002 0.0005] [--cap 60]
                                            [--datasets a b ...] [--out benchmarks/results/treedp_depth]

For every (data set, depth, λ) the three solvers run in this one process on the same 0/1 matrix, each to certified
optimality of  loss / normaliser + λ · leaves  with at most `depth` splits on any path:
  * ours        `search_tree(..., max_depth=depth)` (the depth-two solver on: Proposition 9 of nbs/10_treedp),
  * ours_plain  the same with `depth_two=False` (the engine before that solver),
  * streed      pystreed's STreeDClassifier ('cost-complex-accuracy') or STreeDRegressor ('cost-complex-regression',
                equivalent-points lower bound), `cost_complexity = λ`, `max_depth = depth`.
Runs shorter than 0.2 s are repeated (`--repeat`, default 5, for every solver alike, in interleaved rounds) and the
fastest time kept, so that millisecond cases are not decided by one scheduler hiccup. Every objective is recomputed
from the tree the solver returned (misclassified fraction, resp. SSE / SST, + λ·leaves) and compared; a certified
objective of ours must never be worse than a peer's tree. Numba is compiled before timing;
the compile time of a first fit in a fresh process is measured once and reported separately.
Classification data: the OSDT tables shipped in glassworks/data, plus scikit-learn's wine (3 classes) and breast
cancer binarised by `Binarizer(n_bins=4)` (data not in ../shared). Regression: the OSRT tables, plus scikit-learn's
diabetes binarised the same way. Writes OUT.csv and OUT.md.
"""
from __future__ import annotations
import argparse, platform, subprocess, sys, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from _common import streed_tree_predict, objective_of, captured_output, interleaved, run_streed_regression  # noqa: E402
from glassworks.datasets import load                                                 # noqa: E402
from glassworks.treedp import TreeData, search_tree                                  # noqa: E402
from glassworks.binarize import Binarizer                                            # noqa: E402

CLASSIFICATION = ['monk1-train', 'monk2-train', 'monk3-train', 'tic-tac-toe', 'compas-binary', 'sk-wine',
                  'sk-breast_cancer']
REGRESSION = ['airfoil', 'real-estate', 'servo', 'yacht', 'enb-heat', 'sk-diabetes']


def load_binary(name):
    "(X 0/1 int matrix, y, task)."
    if name.startswith('sk-'):
        import sklearn.datasets as skd
        X, y = getattr(skd, f"load_{name[3:]}")(return_X_y=True)
        Xb = Binarizer(n_bins=4).fit_transform(X)
        task = 'regression' if name == 'sk-diabetes' else 'classification'
        return np.asarray(Xb, dtype=np.int64), y, task
    X, y, _ = load(name)
    task = 'regression' if name in REGRESSION else 'classification'
    return X.to_numpy().astype(np.int64), y.to_numpy(), task


def run_ours(X, y, task, lam, depth, cap, depth_two, switches=()):
    "TreeData (rows collapsed into units, statistics) and the search, both timed: pystreed's time includes its own."
    from glassworks.base import SearchMonitor
    t = time.perf_counter()
    data = TreeData(X, y, task=task)
    kw = dict(depth_two=depth_two)
    kw.update({k: bool(int(v)) for k, v in (sw.split('=') for sw in switches)})
    r = search_tree(data, lam, depth, monitor=SearchMonitor(time_limit=cap), **kw)
    return dict(sec=time.perf_counter() - t, obj=float(r.objective), optimal=bool(r.complete), leaves=r.tree.n_leaves,
                nodes=r.stats['nodes'])


def run_streed_classification(X, y, lam, depth, cap):
    from pystreed import STreeDClassifier
    clf = STreeDClassifier(optimization_task='cost-complex-accuracy', cost_complexity=lam, max_depth=depth,
                           time_limit=float(cap), verbose=False)
    Xi, yi = np.ascontiguousarray(X, dtype=np.int32), np.asarray(y, dtype=np.int32)
    with captured_output([]), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        t = time.perf_counter()
        clf.fit(Xi, yi)
        sec = time.perf_counter() - t
    pred, leaves, _ = streed_tree_predict(clf.tree_, clf.train_X_)
    return dict(sec=sec, obj=objective_of(pred, yi, leaves, lam), optimal=bool(clf.fit_result.is_optimal()),
                leaves=leaves)


def compile_time():
    "Seconds of a first fit in a fresh interpreter (numba loading its cache, or compiling if there is none)."
    code = ("import time, numpy as np; t = time.perf_counter(); from glassworks.treedp import TreeData, search_tree; "
            "search_tree(TreeData(np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1])), 0.01, 2); "
            "search_tree(TreeData(np.array([[0, 1], [1, 0], [1, 1]]), np.array([0., 1., 2.]), task='regression'), "
            "0.01, 2); "
            "print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else float('nan')


def run_grid(datasets, depths, lams, cap=60.0, repeat=5, switches=(), out=None, command=''):
    """Run the grid; write OUT.csv and OUT.md (if `out`); return the table."""
    search_tree(TreeData(np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1])), 0.01, 2)   # compile here too
    search_tree(TreeData(np.array([[0, 1], [1, 0], [1, 1]]), np.array([0., 1., 2.]), task='regression'), 0.01, 2)
    first_fit = compile_time()
    rows = []
    for name in datasets:
        X, y, task = load_binary(name)
        if task == 'classification': y = np.unique(y, return_inverse=True)[1]
        else: y = y.astype(float)
        print(f"{name}: n={len(y)} M={X.shape[1]} units={TreeData(X, y, task=task).U} {task}", flush=True)
        for depth in depths:
            for lam in lams:
                row = dict(dataset=name, task=task, n=len(y), M=X.shape[1], depth=depth, lam=lam)
                runs = {'ours': lambda: run_ours(X, y, task, lam, depth, cap, True, switches),
                        'ours_plain': lambda: run_ours(X, y, task, lam, depth, cap, False),
                        'streed': (lambda: run_streed_classification(X, y, lam, depth, cap)) if task == 'classification'
                        else (lambda: run_streed_regression(X, y, lam, depth, cap, 'equivalent'))}
                for label, res in interleaved(runs, repeat).items():
                    row.update({f"{label}_{k}": v for k, v in res.items()})
                row['ratio'] = row['ours_sec'] / row['streed_sec']
                row['ratio_plain'] = row['ours_plain_sec'] / row['streed_sec']
                row['ours_not_worse'] = bool(row['ours_obj'] <= row['streed_obj'] +
                                             1e-7 * max(1.0, abs(row['streed_obj'])))
                row['streed_wrong'] = bool(row['streed_optimal'] and row['ours_optimal'] and
                                           row['streed_obj'] > row['ours_obj'] + 1e-7 * max(1.0, abs(row['ours_obj'])))
                rows.append(row)
                print(f"  d={depth} lam={lam:<7g} ours {row['ours_sec']:.4f}s  plain {row['ours_plain_sec']:.4f}s  "
                      f"streed {row['streed_sec']:.4f}s  ratio {row['ratio']:.2f}  not_worse {row['ours_not_worse']}",
                      flush=True)
    df = pd.DataFrame(rows)
    if out is not None: write_report(df, Path(out), cap, repeat, first_fit, command, switches)
    return df


def write_report(df, out, cap, repeat, first_fit, command, switches=()):
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out.with_suffix('.csv'), index=False)
    both = df[df.ours_optimal & df.streed_optimal]
    off = f" Switches of `ours`: {', '.join(switches)}." if switches else ''
    lines = [f"# Depth-limited trees: ours against pystreed (`{command}`)", '',
             f"Machine: {platform.machine()}, Python {platform.python_version()}, one process; per-run cap {cap} s; "
             f"runs < 0.2 s: best of {repeat} (every solver). `ours` = TreeData + search_tree (depth-two solver, "
             f"incremental statistics; defaults), `plain` = the engine without the depth-two solver. First fit in a "
             f"fresh process (numba cache load or compile): {first_fit:.2f} s, not in the timings.{off}", '',
             "| task | cases | both certified | median ours/streed | median plain/streed | worst ours/streed | "
             "cases > 3x | ours never worse | streed wrong |",
             "|---|---|---|---|---|---|---|---|---|"]
    for task in ['classification', 'regression', 'all']:
        g = both if task == 'all' else both[both.task == task]
        if len(g):
            lines.append(f"| {task} | {len(df if task == 'all' else df[df.task == task])} | {len(g)} | "
                         f"{g.ratio.median():.3f} | {g.ratio_plain.median():.3f} | {g.ratio.max():.2f} | "
                         f"{int((g.ratio > 3).sum())} | {bool(g.ours_not_worse.all())} | {int(g.streed_wrong.sum())} |")
    cols = ['dataset', 'depth', 'lam', 'ours_sec', 'ours_plain_sec', 'streed_sec', 'ratio', 'ours_obj', 'streed_obj',
            'ours_optimal', 'streed_optimal', 'ours_nodes', 'ours_plain_nodes']
    fmt = lambda v: f"{v:.4g}" if isinstance(v, float) else str(v)
    lines += ['', '| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]
    lines += ['| ' + ' | '.join(fmt(r[c]) for c in cols) + ' |' for _, r in df.iterrows()]
    out.with_suffix('.md').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines[:10]))


def add_grid_arguments(ap, default_out):
    ap.add_argument('--depths', nargs='+', type=int, default=[3, 4, 5, 6])
    ap.add_argument('--lams', nargs='+', type=float, default=[0.01, 0.002, 0.0005])
    ap.add_argument('--cap', type=float, default=60.0, help='seconds per run and solver')
    ap.add_argument('--out', default=default_out)
    ap.add_argument('--repeat', type=int, default=5,
                    help='runs shorter than 0.2 s are repeated up to this many times (each solver) '
                         'and the fastest kept')
    ap.add_argument('--switch', dest='switches', nargs='*', default=[], metavar='NAME=0|1',
                    help="search_tree switches for the 'ours' column, e.g. similarity=1 incremental=0 (ablation)")


def grid_main(argv, datasets, out_name, script):
    "The command line of a grid run from another script (`osdt_bench.py --depth-grid`, `osrt_bench.py --depth-grid`)."
    ap = argparse.ArgumentParser(description=f"{script} --depth-grid: depth-limited trees against pystreed")
    ap.add_argument('--depth-grid', action='store_true')
    ap.add_argument('--datasets', nargs='+', default=datasets)
    add_grid_arguments(ap, str(Path(__file__).resolve().parent / 'results' / out_name))
    a = ap.parse_args(argv)
    return run_grid(a.datasets, a.depths, a.lams, a.cap, a.repeat, a.switches, a.out,
                    f'python {script} ' + ' '.join(argv))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--datasets', nargs='+', default=CLASSIFICATION + REGRESSION)
    add_grid_arguments(ap, str(Path(__file__).parent / 'results' / 'treedp_depth'))
    a = ap.parse_args(argv)
    run_grid(a.datasets, a.depths, a.lams, a.cap, a.repeat, a.switches, a.out,
             'python benchmarks/treedp_depth_bench.py ' + ' '.join(argv if argv is not None else sys.argv[1:]))


if __name__ == '__main__':
    main()
