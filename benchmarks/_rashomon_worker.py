#!/usr/bin/env python
"""One timed Rashomon-set run in its own process, for `rashomon_bench.py` (not meant to be run by hand).

    <python> benchmarks/_rashomon_worker.py --solver sortd|ours --data CASE.npz --task classification|regression
             --depth D --lam L --eps E --cap S [--prefix 1000] [--dump N --dump-to TREES.npy]

`CASE.npz` holds `X` (0/1, int32) and `y` (0/1 int32, or float64 for regression). The worker imports its solver and
warms it up, prints `READY {"rss_mb": ...}` (the parent starts its clock there), runs, and prints one line
`RESULT {json}`; progress lines `STAGE {json}` come before it, so a run killed at the cap still leaves what finished.

* `--solver sortd` runs under SORTD's own virtualenv (pysortd, built from source; see README.md); it must not import
  glassworks. Two fresh fits: first with `max_num_trees=prefix` (SORTD stops once its count of trees reaches the
  prefix: the time to the first `prefix` trees, sorted by objective), then the full set. Each fit has
  `time_limit=cap` (SORTD's own clock, covering the optimal-tree search and the enumeration).
* `--solver ours` runs under the project's virtualenv and calls `rashomon_bench.run_ours`, after an untimed warm-up
  on a tiny problem (numba compilation).

Memory: `peak_rss_mb` is this process's peak resident set (`ru_maxrss`), `base_rss_mb` its resident set just before
the timed work (interpreter + imports + data + warm-up); the parent also polls VmHWM, for runs it has to kill.
"""
from __future__ import annotations
import argparse, json, resource, sys, time
from pathlib import Path

import numpy as np


def rss_mb():
    "Current resident set of this process (MB), from /proc."
    try:
        for line in Path('/proc/self/status').read_text().splitlines():
            if line.startswith('VmRSS:'): return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float('nan')


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024      # kB on Linux


def emit(tag, obj):
    print(f"{tag} {json.dumps(obj)}", flush=True)


# ---------------------------------------------------------------------------------------------------------------------
# SORTD (pysortd, zafeirisego/zaf-pysortd)
def sortd_preorder(node):
    "Split features of a pysortd tree in preorder, -1 for a leaf (left child = feature is 0, right = feature is 1)."
    out, stack = [], [node]
    while stack:
        nd = stack.pop()
        if nd.is_leaf_node():
            out.append(-1)
        else:
            out.append(int(nd.feature))
            stack.append(nd.right_child)
            stack.append(nd.left_child)
    return out


def sklearn_shim():
    """pysortd calls `self._validate_data(...)`, which scikit-learn 1.6 removed; where it is missing, give pysortd's
    estimator classes a method that forwards to `sklearn.utils.validation.validate_data(self, ...)`. (A no-op on a
    pysortd whose source was already patched to call validate_data.)"""
    import inspect
    from sklearn.base import BaseEstimator
    if hasattr(BaseEstimator, '_validate_data'): return
    from sklearn.utils.validation import validate_data
    import pysortd.base, pysortd.binarizer
    for mod in (pysortd.base, pysortd.binarizer):
        for _, c in inspect.getmembers(mod, inspect.isclass):
            if issubclass(c, BaseEstimator) and c.__module__.startswith('pysortd') and '_validate_data' not in vars(c):
                c._validate_data = lambda self, X='no_validation', **kw: validate_data(self, X, **kw)


def sortd_model(task, depth, lam, eps, cap, max_trees=None):
    sklearn_shim()
    from pysortd import SORTDClassifier, SORTDRegressor
    kw = dict(max_depth=depth, cost_complexity=lam, use_rashomon_multiplier=True, rashomon_multiplier=eps,
              time_limit=float(cap), verbose=False)
    if max_trees is not None: kw['max_num_trees'] = int(max_trees)
    if task == 'classification':
        return SORTDClassifier('cost-complex-accuracy', **kw)
    return SORTDRegressor('cost-complex-regression', **kw)


def sortd_fit(X, y, task, depth, lam, eps, cap, max_trees=None):
    import warnings
    m = sortd_model(task, depth, lam, eps, cap, max_trees)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        t = time.perf_counter()
        m.fit(X, y)
        sec = time.perf_counter() - t
    if not np.array_equal(m.train_X_, X):       # pysortd binarises its input first: it must have kept our 0/1 columns
        raise RuntimeError('pysortd re-encoded the features: its trees cannot be read on X')
    if not hasattr(m, 'fit_result'):
        return m, dict(sec=sec, count=None, feasible=False)
    r = m.fit_result
    return m, dict(sec=sec, count=int(m.rashomon_set_size), feasible=True, optimal=bool(r.is_optimal()),
                   exhausted=bool(r.is_exhausted()), complete=bool(r.is_complete_enumaration()))


def sortd_scale(y, task):
    "Divide SORTD's objective by this to get ours: N (classification) or the total sum of squares (regression)."
    if task == 'classification': return float(len(y))
    y = np.asarray(y, dtype=np.float64)
    return float(((y - y.mean()) ** 2).sum())


def run_sortd(X, y, task, depth, lam, eps, cap, prefix=1000, dump=0, dump_to=None):
    X = np.ascontiguousarray(X, dtype=np.int32)
    y = np.asarray(y, dtype=np.int32 if task == 'classification' else np.float64)
    out = dict(solver='sortd')
    base = rss_mb()
    out['base_rss_mb'] = base
    _, p = sortd_fit(X, y, task, depth, lam, eps, cap, max_trees=prefix)
    out.update(prefix_s=p['sec'], prefix_count=p['count'], prefix_optimal=p.get('optimal'))
    emit('STAGE', dict(stage='prefix', **out))
    m, f = sortd_fit(X, y, task, depth, lam, eps, cap)
    out.update(full_s=f['sec'], count=f['count'], optimal=f.get('optimal'), exhausted=f.get('exhausted'),
               complete=f.get('complete'), feasible=f['feasible'])
    if f['feasible']:
        # objective of each group of equal-objective trees, in SORTD's order; the first is the optimum
        sols = m.get_solution_list()
        objs = np.array([s.objective for s in sols], dtype=np.float64)
        scale = sortd_scale(y, task)
        sizes = np.array([s.num_solutions for s in sols], dtype=np.int64)
        inside = np.cumsum(sizes) <= out['count']        # the list may end with one group beyond the bound
        out['opt'] = float(objs[0] / scale) if len(objs) else None            # in our scale
        out['worst_in_set'] = float(objs[inside][-1] / scale) if inside.any() else None
        out['groups'] = int(inside.sum())
        if dump and dump_to and out['count']:
            k = min(dump, out['count'])
            rows = [sortd_preorder(m.get_tree_n(i)) for i in range(k)]
            L = max(map(len, rows))
            A = np.full((k, L), -2, dtype=np.int32)
            for i, r in enumerate(rows): A[i, :len(r)] = r
            np.save(dump_to, A)
            out['dumped'] = k
    out['peak_rss_mb'] = peak_mb()
    return out


def best_of(run, repeat, keys, short=0.2):
    """run(i) for i = 0, 1, ... while its slowest timed key is < `short` s (at most `repeat` runs); keep each key's
    minimum."""
    best, runs = run(0), 1
    while runs < repeat:
        times = [best.get(k) for k in keys if best.get(k) is not None]
        if not times or max(times) >= short: break
        r = run(runs)
        runs += 1
        for k in keys:
            if r.get(k) is not None and best.get(k) is not None: best[k] = min(best[k], r[k])
    best['runs'] = runs
    return best


# ---------------------------------------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--solver', required=True, choices=['sortd', 'ours'])
    ap.add_argument('--data', required=True)
    ap.add_argument('--task', default='classification', choices=['classification', 'regression'])
    ap.add_argument('--depth', type=int, required=True)
    ap.add_argument('--lam', type=float, required=True)
    ap.add_argument('--eps', type=float, required=True)
    ap.add_argument('--cap', type=float, default=60.0)
    ap.add_argument('--prefix', type=int, default=1000)
    ap.add_argument('--repeat', type=int, default=5,
                    help='a timed run shorter than 0.2 s is repeated up to this many times')
    ap.add_argument('--dump', type=int, default=0, help='save the first N trees (preorders) to --dump-to')
    ap.add_argument('--dump-to', default=None)
    a = ap.parse_args()
    d = np.load(a.data)
    X, y = d['X'], d['y']
    if a.solver == 'sortd':
        import pysortd  # noqa: F401  (import before READY: not timed)
        from pysortd import SORTDClassifier  # noqa: F401
        # untimed warm-up: first call into the extension module
        Xw = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 3, dtype=np.int32)
        yw = (Xw[:, 0] ^ Xw[:, 1]).astype(np.int32)
        sortd_fit(Xw, yw, 'classification', 2, 0.01, 0.1, 10)
        emit('READY', dict(rss_mb=rss_mb()))
        res = best_of(lambda i: run_sortd(X, y, a.task, a.depth, a.lam, a.eps, a.cap, a.prefix,
                                          a.dump if i == 0 else 0, a.dump_to), a.repeat, ('prefix_s', 'full_s'))
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from rashomon_bench import run_ours, warm_up_ours
        warm_up_ours(a.task)
        emit('READY', dict(rss_mb=rss_mb()))
        res = dict(solver='ours', base_rss_mb=rss_mb())
        res.update(best_of(lambda i: run_ours(X, y, a.task, a.depth, a.lam, a.eps, a.cap, prefix=a.prefix,
                                              dump=a.dump if i == 0 else 0, dump_to=a.dump_to,
                                              progress=lambda **kw: emit('STAGE', kw)),
                           a.repeat, ('build_s', 'first_s', 'full_s')))
        res['peak_rss_mb'] = peak_mb()
    emit('RESULT', res)


if __name__ == '__main__':
    main()
