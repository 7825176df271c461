"""A/B timing of extraction's CBCD on one 500-tree depth-7 ensemble, for comparing two versions of the package.

Run it once per version, in separate processes, alternating (never two versions in one process: numba's cache), e.g.

    for i in 1 2 3 4 5 6; do
      PYTHONPATH=/path/to/before taskset -c 1 python benchmarks/extract_ab.py
      PYTHONPATH=/path/to/after  taskset -c 1 python benchmarks/extract_ab.py
    done

Each run prints the package path, then for one CBCD solution at lambda = 0.01 and 0.1 lambda_max the best and median
of `--reps` solves, and for the 50-value path (`--parts path`) the best of `--path-reps`. The ensemble (Friedman #1,
n = 6,500, as `extract_bench.py --parts speed`) is fitted once and kept in `--cache` so both versions see the same
trees.
"""
from __future__ import annotations
import argparse, pickle, time
from pathlib import Path
import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.ensemble import GradientBoostingRegressor
import glassworks
from glassworks.extract import node_table, cbcd, ExtractionProblem
try:
    from glassworks.pruning import relative_gamma, run_path
except ImportError:                                   # versions before the engine moved to glassworks.pruning
    from glassworks.extract import _relative_gamma as relative_gamma, _run_path as run_path


def ensemble(cache: Path):
    if cache.exists(): return pickle.loads(cache.read_bytes())
    X, y = make_friedman1(6500, noise=1.0, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=500, max_depth=7, learning_rate=0.1, subsample=0.5,
                                   random_state=0).fit(X, y)
    cache.write_bytes(pickle.dumps((X, y, gb)))
    return X, y, gb


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--parts', nargs='+', default=['one', 'path'], choices=['one', 'path'])
    ap.add_argument('--reps', type=int, default=15)
    ap.add_argument('--path-reps', type=int, default=3)
    ap.add_argument('--cache', type=Path, default=Path('/tmp/glassworks_extract_ab.pkl'))
    args = ap.parse_args(argv)
    X, y, gb = ensemble(args.cache)
    tab = node_table(gb, X)
    prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute('rules'))
    prob.gamma = relative_gamma(tab, 10.0, prob.cand)
    lmax = prob.lambda_max()
    cbcd(prob, 0.01 * lmax)                                         # compile, or load the cache
    out = [str(Path(glassworks.__file__).parent)]
    if 'one' in args.parts:
        for f in (0.01, 0.1):
            ts = []
            for _ in range(args.reps):
                t = time.perf_counter()
                cbcd(prob, f * lmax)
                ts.append(time.perf_counter() - t)
            out.append(f'one@{f}: best {min(ts):.4f} s, median {np.median(ts):.4f} s')
    if 'path' in args.parts:
        ts = []
        for _ in range(args.path_reps):
            t = time.perf_counter()
            run_path(prob, 50, 1e-3, y_mean=float(y.mean()))
            ts.append(time.perf_counter() - t)
        out.append(f'path: best {min(ts):.3f} s')
    print(' | '.join(out), flush=True)


if __name__ == '__main__':
    main()
