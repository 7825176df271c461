"""Helpers shared by the tree benchmarks (osdt_bench, osrt_bench, treedp_depth_bench, suite_bench): capturing a peer's
output, recomputing objectives from returned trees, pystreed's regression run, interleaved best-of-n timing.

Each benchmark imports from here and from no other benchmark script, except the two that run the depth grid of
treedp_depth_bench (`osdt_bench.py --depth-grid`, `osrt_bench.py --depth-grid`), which import that script.
"""
from __future__ import annotations
import contextlib, os, sys, tempfile, time

import numpy as np


@contextlib.contextmanager
def captured_output(sink: list):
    """Redirect the process-level stdout/stderr (file descriptors 1 and 2, so C++ output too) into `sink`."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile(mode='w+b') as tmp:
        os.dup2(tmp.fileno(), 1)
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            tmp.seek(0)
            sink.append(tmp.read().decode(errors='replace'))


def objective_of(pred, y, n_leaves, lam) -> float:
    "Misclassified fraction + λ·leaves, in double precision."
    return float(np.mean(np.asarray(pred) != np.asarray(y))) + lam * n_leaves


def streed_tree_predict(node, X: np.ndarray):
    "Walk a pystreed tree (left child: feature not satisfied, x_j = 0) → (predictions, leaves, depth)."
    pred = np.empty(len(X), dtype=np.int64)
    leaves, depth, stack = 0, 0, [(node, np.arange(len(X)), 0)]
    while stack:
        nd, rows, d = stack.pop()
        if nd.is_leaf_node():
            pred[rows] = nd.label
            leaves += 1
            depth = max(depth, d)
            continue
        on = X[rows, nd.feature] == 1
        stack.append((nd.right_child, rows[on], d + 1))
        stack.append((nd.left_child, rows[~on], d + 1))
    return pred, leaves, depth


def objective_from_groups(groups, y, lam):
    "SSE/SST + lam * leaves for a partition of the rows given as group ids, in float64 with centred sums."
    y = np.asarray(y, float)
    sst = np.sum((y - y.mean()) ** 2)
    _, g = np.unique(groups, return_inverse=True)
    g = g.ravel()
    k = g.max() + 1
    cnt = np.bincount(g, minlength=k)
    mu = np.bincount(g, weights=y, minlength=k) / cnt
    return float(np.sum((y - mu[g]) ** 2) / sst + lam * k), int(k)


@contextlib.contextmanager
def quiet_fd():
    "Silence stdout at the file-descriptor level (the C++ extension prints there)."
    sys.stdout.flush()
    fd = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try: yield
    finally:
        sys.stdout.flush()
        os.dup2(fd, 1)
        os.close(fd)
        os.close(null)


def run_streed_regression(X, y, lam, d, cap, bound):
    "pystreed's cost-complex regression tree, timed; its objective recomputed from its predictions."
    from pystreed import STreeDRegressor
    m = STreeDRegressor(optimization_task='cost-complex-regression', max_depth=d, cost_complexity=lam,
                        regression_lower_bound=bound, time_limit=cap)
    t = time.perf_counter()
    with quiet_fd(): m.fit(X, y)
    sec = time.perf_counter() - t
    # leaves predict their exact (double) means; rows with equal predictions can be grouped without changing SSE
    k = int(m.get_n_leaves())
    obj = objective_from_groups(m.predict(X), y, 0.0)[0] + lam * k
    return dict(sec=sec, obj=obj, leaves=k, optimal=bool(m.fit_result.is_optimal()))


def _attempt(run):
    try: return run()
    except Exception as e:   # noqa: BLE001 - a peer failing must not stop the benchmark
        return dict(sec=np.nan, obj=np.nan, optimal=False, error=f"{type(e).__name__}: {e}")


def interleaved(runs, repeat, short=0.2):
    """Run every solver once, in turn; then, for up to `repeat - 1` more rounds, again every solver whose fastest run
    so far is shorter than `short` seconds, in turn (so that a burst of load on a shared machine hits all of them
    alike). Keeps each solver's fastest run."""
    best = {k: _attempt(f) for k, f in runs.items()}
    for _ in range(repeat - 1):
        again = [k for k, r in best.items() if r['sec'] < short]
        if not again: break
        for k in again:
            r = _attempt(runs[k])
            if r['sec'] < best[k]['sec']: best[k] = r
    return best
