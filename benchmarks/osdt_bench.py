#!/usr/bin/env python
"""OSDT benchmark: glassworks (dp and bnb modes) against the peers gosdt and pystreed, side by side.

    python benchmarks/osdt_bench.py [--quick] [--time-cap S] [--datasets a,b] [--lams 0.1,0.01] [--out PREFIX]

For every (dataset, λ) of the grid each solver is fitted in this one process, on the same 0/1 matrix, to certified
optimality of   misclassified fraction + λ · (number of leaves)   with no depth limit, under a per-run time cap.
Every objective is recomputed in double precision from the tree the solver returned. Writes PREFIX.csv and PREFIX.md
(default benchmarks/results/osdt; with --quick benchmarks/results/osdt.quick). See benchmarks/README.md.
"""
from __future__ import annotations

import argparse, csv, datetime, gc, json, math, os, platform, re, resource, statistics, sys, time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _common import captured_output, objective_of, streed_tree_predict          # noqa: E402
from glassworks.datasets import load
from glassworks.treedp import TreeData, search_tree
from glassworks.base import SearchMonitor

try:                                    # the estimator (both modes); the dp engine is the fallback for the dp column
    from glassworks.osdt import OSDTClassifier
except ImportError:
    OSDTClassifier = None
try:
    from gosdt import GOSDTClassifier
except ImportError:
    GOSDTClassifier = None
try:
    from pystreed import STreeDClassifier
except ImportError:
    STreeDClassifier = None

DATASETS = ['monk1-train', 'monk2-train', 'monk3-train', 'tic-tac-toe', 'compas-binary', 'fico_binary']
LAMS = [0.1, 0.05, 0.025, 0.01, 0.005, 0.001]
SOLVERS = ['dp', 'bnb', 'gosdt', 'streed']
STREED_MAX_DEPTH = 20                   # pystreed validates max_depth in [0, 20]
# s, the paper's Python OSDT on COMPAS λ=0.005 (241k pushes in an independent re-run of the reference code)
PUBLISHED_OSDT_COMPAS_0005 = 28.0
AGREE_TOL = 1e-6                        # gosdt computes its objective in single precision
EXACT_TOL = 1e-9                        # between double-precision recomputations

# Optimal objectives from an independent pure-Python exact solver, 6 decimals: an extra check of every solver.
SPEC_TRUTH = {
    ('monk1-train', 0.1): 0.466129, ('monk1-train', 0.05): 0.338710, ('monk1-train', 0.025): 0.200000,
    ('monk1-train', 0.01): 0.080000, ('monk1-train', 0.005): 0.040000,
    ('monk2-train', 0.1): 0.478698, ('monk2-train', 0.05): 0.428698, ('monk2-train', 0.025): 0.393935,
    ('monk2-train', 0.01): 0.265089, ('monk2-train', 0.005): 0.152751,
    ('monk3-train', 0.1): 0.521311, ('monk3-train', 0.05): 0.371311, ('monk3-train', 0.025): 0.272951,
    ('monk3-train', 0.01): 0.155574, ('monk3-train', 0.005): 0.094590,
    ('tic-tac-toe', 0.1): 0.446555, ('tic-tac-toe', 0.05): 0.396555, ('tic-tac-toe', 0.025): 0.348330,
    ('tic-tac-toe', 0.01): 0.250752, ('tic-tac-toe', 0.005): 0.154280,
    ('compas-binary', 0.025): 0.411083, ('compas-binary', 0.01): 0.374868, ('compas-binary', 0.005): 0.355969,
    ('compas-binary', 0.001): 0.334928,
    ('fico_binary', 0.05): 0.404044, ('fico_binary', 0.01): 0.324044, ('fico_binary', 0.005): 0.308651,
    ('fico_binary', 0.001): 0.287317,
}


# ---------------------------------------------------------------------------------------------------------------------
# helpers


def gosdt_tree_predict(node: dict, X: np.ndarray, classes):
    "Walk gosdt's JSON model ('true' branch: x_j = 1) → (predictions, leaves, depth)."
    pred = np.empty(len(X), dtype=np.asarray(classes).dtype)
    leaves, depth, stack = 0, 0, [(node, np.arange(len(X)), 0)]
    while stack:
        nd, rows, d = stack.pop()
        if 'prediction' in nd:
            pred[rows] = classes[nd['prediction']]
            leaves += 1
            depth = max(depth, d)
            continue
        on = X[rows, nd['feature']] == 1
        stack.append((nd['true'], rows[on], d + 1))
        stack.append((nd['false'], rows[~on], d + 1))
    return pred, leaves, depth




def blank(solver):
    return dict(solver=solver, status='n/a', seconds=math.nan, optimal=False, objective=math.nan,
                reported=math.nan, lower_bound=math.nan, leaves=None, depth=None, note='')


# ---------------------------------------------------------------------------------------------------------------------
# one fit per solver; each returns a dict like `blank`
def run_ours(mode, X, y, names, lam, cap):
    out = blank(mode)
    if OSDTClassifier is not None:
        clf = OSDTClassifier(regularization=lam, search=mode, time_limit=cap)
        gc.collect()
        t0 = time.perf_counter()
        clf.fit(X, y)
        out['seconds'] = time.perf_counter() - t0
        tree = clf.tree_
        out.update(optimal=bool(clf.optimal_), reported=float(clf.objective_), lower_bound=float(clf.lower_bound_),
                   note=f"fit_time_={getattr(clf, 'fit_time_', math.nan):.4g}")
    elif mode == 'dp':                  # the estimator is not there yet: the engine it wraps
        data_args = (X, y)
        gc.collect()
        t0 = time.perf_counter()
        res = search_tree(TreeData(*data_args, feature_names=names), lam, max_depth=None,
                          monitor=SearchMonitor(time_limit=cap))
        out['seconds'] = time.perf_counter() - t0
        tree = res.tree
        out.update(optimal=bool(res.complete), reported=float(res.objective), lower_bound=float(res.lower_bound),
                   note='search_tree (OSDTClassifier not importable)')
    else:
        out['note'] = 'not available (glassworks.osdt not importable)'
        return out
    out['objective'] = objective_of(tree.predict(X), y, tree.n_leaves, lam)
    out.update(leaves=tree.n_leaves, depth=tree.depth, status='optimal' if out['optimal'] else 'timeout')
    return out


def run_gosdt(X, y, lam, cap):
    out = blank('gosdt')
    if GOSDTClassifier is None:
        out['note'] = 'not installed'
        return out
    # allow_small_reg: otherwise λ < 1/N is silently raised to 1/N (e.g. Monk λ=0.005 < 1/124);
    # depth_budget=None → unlimited depth; time_limit is an int number of seconds.
    clf = GOSDTClassifier(regularization=lam, allow_small_reg=True, depth_budget=None,
                          time_limit=int(math.ceil(cap)), verbose=False)
    printed = []
    with captured_output(printed):
        gc.collect()
        t0 = time.perf_counter()
        clf.fit(X, y)
        out['seconds'] = time.perf_counter() - t0
    r = clf.result_
    status = getattr(r.status, 'name', str(r.status)).split('.')[-1]
    model = json.loads(r.model)[0]
    pred, leaves, depth = gosdt_tree_predict(model, X, clf.classes_)
    out.update(optimal=status == 'CONVERGED', reported=float(r.upperbound), lower_bound=float(r.lowerbound),
               objective=objective_of(pred, y, leaves, lam), leaves=leaves, depth=depth,
               status='optimal' if status == 'CONVERGED' else status.lower(),
               note=f"internal time {r.time:.4g}s; iterations {r.n_iterations}; graph {r.graph_size}")
    return out


def run_streed(X, y, lam, cap):
    out = blank('streed')
    if STreeDClassifier is None:
        out['note'] = 'not installed'
        return out
    # cost-complex-accuracy = errors + cost_complexity·N·(branch nodes) = N·(R_OSDT − λ) since branches = leaves − 1.
    # No optimal tree splits twice on one feature along a path (an empty leaf only costs λ), so depth ≤ M is no limit.
    depth_cap = min(X.shape[1], STREED_MAX_DEPTH)
    clf = STreeDClassifier(optimization_task='cost-complex-accuracy', cost_complexity=lam, max_depth=depth_cap,
                           time_limit=float(cap), verbose=False)
    Xi, yi = np.ascontiguousarray(X, dtype=np.int32), np.asarray(y, dtype=np.int32)
    printed = []
    with captured_output(printed), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        gc.collect()
        t0 = time.perf_counter()
        clf.fit(Xi, yi)
        out['seconds'] = time.perf_counter() - t0
    if not hasattr(clf, 'fit_result'):
        out.update(status='no tree', note='no feasible tree returned')
        return out
    res = clf.fit_result
    if not np.array_equal(clf.train_X_, Xi):
        out['note'] = 'pystreed re-encoded the features; '
    pred, leaves, depth = streed_tree_predict(clf.tree_, clf.train_X_)
    out.update(optimal=bool(res.is_optimal()), objective=objective_of(pred, yi, leaves, lam),
               reported=(1.0 - res.score()) + lam * (res.tree_nodes() + 1), leaves=leaves, depth=depth,
               status='optimal' if res.is_optimal() else 'timeout')
    out['note'] += f"max_depth={depth_cap} (M={X.shape[1]})"
    return out


# ---------------------------------------------------------------------------------------------------------------------
def warm_up(solvers) -> dict:
    """One untimed tiny fit per solver so that numba compilation is excluded from the timings; the first call's time
    minus a second identical call's time is reported as the compile time."""
    rng = np.random.default_rng(0)
    Xs = rng.integers(0, 2, (60, 5))
    ys = (Xs[:, 0] ^ Xs[:, 1] | (rng.random(60) < 0.1)).astype(np.int64)
    names = [f"f{j}" for j in range(5)]
    compile_s = {}
    for s in solvers:
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            if s in ('dp', 'bnb'): run_ours(s, Xs, ys, names, 0.02, 60)
            elif s == 'gosdt': run_gosdt(Xs, ys, 0.02, 60)
            else: run_streed(Xs, ys, 0.02, 60)
            times.append(time.perf_counter() - t0)
        compile_s[s] = max(0.0, times[0] - times[1])
    return compile_s


def ratio(a: dict, g: dict):
    "(value, text) of a['seconds'] / g['seconds']; '<' or '>' when one side hit the cap (then it is a bound)."
    if (not (a['seconds'] == a['seconds']) or not (g['seconds'] == g['seconds'])
            or a['status'] == 'n/a' or g['status'] == 'n/a'):
        return math.nan, '—'
    r = a['seconds'] / g['seconds']
    if a['optimal'] and g['optimal']: return r, f"{r:.3g}"
    if a['optimal'] and not g['optimal']: return r, f"<{r:.3g}"
    if g['optimal'] and not a['optimal']: return r, f">{r:.3g}"
    return math.nan, 'both t/o'


def fmt_s(o):
    if o['status'] == 'n/a': return 'n/a'
    if o['status'] in ('error', 'no tree'): return o['status']
    if not o['optimal']: return f"≥{o['seconds']:.1f} ({o['status']})"
    return f"{o['seconds']:.3f}" if o['seconds'] < 10 else f"{o['seconds']:.1f}"


def fmt_obj(v): return '—' if v != v else f"{v:.6f}"


def depth_grid_main(argv):
    """`--depth-grid`: the depth-limited grid (depths 3-6, lambda down to 0.0005, data sets inside and outside
    ../shared) against pystreed, by benchmarks/treedp_depth_bench.py; writes results/osdt_depth.{csv,md}."""
    import treedp_depth_bench as tdb
    return tdb.grid_main(argv, tdb.CLASSIFICATION, 'osdt_depth', 'benchmarks/osdt_bench.py')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if '--depth-grid' in argv: return depth_grid_main(argv)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true',
                    help='small grid (Monk1/2/3, COMPAS; λ ∈ {0.1, 0.025, 0.01}), cap 10 s')
    ap.add_argument('--time-cap', type=float, default=None, help='seconds per fit (default 120; 10 with --quick)')
    ap.add_argument('--datasets', default=None, help='comma-separated dataset names')
    ap.add_argument('--lams', default=None, help='comma-separated λ values')
    ap.add_argument('--solvers', default=','.join(SOLVERS), help='subset of dp,bnb,gosdt,streed')
    ap.add_argument('--out', default=None, help='output prefix (writes PREFIX.csv and PREFIX.md)')
    ap.add_argument('--max-mem-gb', type=float, default=None,
                    help='address-space headroom for the fits (RLIMIT_AS above the size after warm-up); a fit that '
                         'needs more fails with MemoryError and is reported. Default: MemAvailable − 2 GB, ≤ 16 GB')
    a = ap.parse_args(argv)
    cap = a.time_cap if a.time_cap is not None else (10.0 if a.quick else 120.0)
    datasets = a.datasets.split(',') if a.datasets else (
        ['monk1-train', 'monk2-train', 'monk3-train', 'compas-binary'] if a.quick else DATASETS)
    lams = [float(v) for v in a.lams.split(',')] if a.lams else ([0.1, 0.025, 0.01] if a.quick else LAMS)
    solvers = [s for s in a.solvers.split(',') if s]
    here = Path(__file__).resolve().parent
    prefix = Path(a.out) if a.out else here / 'results' / ('osdt.quick' if a.quick else 'osdt')
    prefix.parent.mkdir(parents=True, exist_ok=True)

    versions = {'python': platform.python_version(), 'numpy': np.__version__}
    for mod in ('glassworks', 'numba', 'gosdt', 'pystreed', 'sklearn'):
        try:
            m = __import__(mod)
            versions[mod] = getattr(m, '__version__', '?')
        except ImportError:
            versions[mod] = 'missing'
    if 'pystreed' in versions and versions['pystreed'] == '?':
        from importlib.metadata import version
        versions['pystreed'] = version('pystreed')
    print(f"osdt_bench: cap {cap:g}s, datasets {datasets}, λ {lams}, solvers {solvers}", flush=True)
    print('versions: ' + ', '.join(f"{k} {v}" for k, v in versions.items()), flush=True)
    print(f"OSDTClassifier importable: {OSDTClassifier is not None}", flush=True)
    compile_s = warm_up(solvers)
    print('warm-up (compile) seconds: ' + ', '.join(f"{k} {v:.2f}" for k, v in compile_s.items()), flush=True)
    mem_gb = memory_guard(a.max_mem_gb)
    print(f"memory guard: {mem_gb:.1f} GB of address space headroom per fit "
          f"({'fixed' if a.max_mem_gb else 'MemAvailable − 2 GB, ≤ 16 GB, re-read before each fit'})", flush=True)
    meta = dict(cap=cap, versions=versions, compile_s=compile_s, total=0.0, solvers=solvers, quick=a.quick,
                estimator=OSDTClassifier is not None, mem_gb=mem_gb,
                argv=''.join(' ' + x for x in (sys.argv[1:] if argv is None else argv)))

    rows = []
    t_start = time.perf_counter()
    for name in datasets:
        X_df, y_s, _ = load(name)
        X = np.ascontiguousarray(X_df.to_numpy(dtype=np.int64))
        names = [str(c) for c in X_df.columns]
        classes, y = np.unique(y_s.to_numpy(), return_inverse=True)
        y = y.astype(np.int64)
        for lam in lams:
            res = {}
            for s in solvers:
                headroom = memory_guard(a.max_mem_gb)
                try:
                    if s in ('dp', 'bnb'): res[s] = run_ours(s, X, y, names, lam, cap)
                    elif s == 'gosdt': res[s] = run_gosdt(X, y, lam, cap)
                    elif s == 'streed': res[s] = run_streed(X, y, lam, cap)
                except Exception as e:              # a crashing solver is a result, not the end of the benchmark
                    res[s] = blank(s)
                    res[s].update(status='error',
                                  note=f"{type(e).__name__}: {e}"[:160] + f" (headroom {headroom:.1f} GB)")
            for s in SOLVERS:
                res.setdefault(s, blank(s))
            ref = res['dp'] if res['dp']['optimal'] else (res['bnb'] if res['bnb']['optimal'] else None)
            g, st = res['gosdt'], res['streed']
            row = dict(dataset=name, n=len(y), m=X.shape[1], lam=lam,
                       objective=ref['objective'] if ref else math.nan,
                       leaves=ref['leaves'] if ref else None, depth=ref['depth'] if ref else None,
                       spec_truth=SPEC_TRUTH.get((name, lam), math.nan))
            for s in SOLVERS:
                o = res[s]
                row.update({f"{s}_status": o['status'], f"{s}_seconds": o['seconds'], f"{s}_optimal": o['optimal'],
                            f"{s}_objective": o['objective'], f"{s}_reported": o['reported'],
                            f"{s}_lower_bound": o['lower_bound'], f"{s}_leaves": o['leaves'],
                            f"{s}_depth": o['depth'], f"{s}_note": o['note']})
            for s in ('dp', 'bnb', 'streed'):
                row[f"{s}_over_gosdt"], row[f"{s}_over_gosdt_text"] = ratio(res[s], g)

            def agree(o, tol, key='objective'):
                if ref is None or not o['optimal']: return ''
                return 'yes' if abs(o[key] - ref['objective']) <= tol else 'NO'
            row['agree_gosdt'] = agree(g, AGREE_TOL, 'reported')            # its certified (float32) objective
            row['agree_gosdt_tree'] = agree(g, EXACT_TOL)                    # its tree, recomputed in double
            row['agree_streed'] = agree(st, EXACT_TOL)
            row['agree_bnb'] = agree(res['bnb'], EXACT_TOL)
            row['agree_dp'] = agree(res['dp'], EXACT_TOL)
            row['agree_spec'] = ('' if ref is None or row['spec_truth'] != row['spec_truth'] else
                                 'yes' if abs(ref['objective'] - row['spec_truth']) <= 5e-7 else 'NO')
            # pystreed's depth cap is not binding when our optimal tree is no deeper (always true for M ≤ 20)
            row['streed_cap_binding'] = bool(ref is not None and X.shape[1] > STREED_MAX_DEPTH
                                             and ref['depth'] > STREED_MAX_DEPTH)
            rows.append(row)
            print(f"{name:14s} λ={lam:<6g} R*={fmt_obj(row['objective'])} "
                  + '  '.join(f"{s} {fmt_s(res[s])}" for s in solvers)
                  + f"  agree gosdt={row['agree_gosdt']} streed={row['agree_streed']} bnb={row['agree_bnb']}"
                  f" spec={row['agree_spec']}", flush=True)
            meta['total'] = time.perf_counter() - t_start          # results so far, rewritten after every case
            write_csv(prefix.with_suffix('.csv'), rows)
            write_md(prefix.with_suffix('.md'), rows, meta)
    print(f"wrote {prefix.with_suffix('.csv')} and {prefix.with_suffix('.md')} ({meta['total']:.0f}s)", flush=True)
    return rows


def mem_available_gb() -> float:
    m = re.search(r'MemAvailable:\s+(\d+)', Path('/proc/meminfo').read_text())
    return int(m.group(1)) / 2**20 if m else 8.0


def memory_guard(fixed_gb=None) -> float:
    """Cap this process's address space (RLIMIT_AS) at its current size + headroom, so that a fit that would exhaust
    the machine (gosdt reached 13 GB on FICO λ=0.001) fails with MemoryError instead; returns the headroom in GB."""
    gb = fixed_gb if fixed_gb is not None else max(2.0, min(16.0, mem_available_gb() - 2.0))
    vm = int(re.search(r'VmSize:\s+(\d+)', Path('/proc/self/status').read_text()).group(1)) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (vm + int(gb * 2**30), resource.getrlimit(resource.RLIMIT_AS)[1]))
    return gb


def write_csv(path, rows):
    keys = list(rows[0].keys()) if rows else []
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.10g}" if isinstance(v, float) else v) for k, v in r.items()})


def median_ratio(rows, s):
    both = [r[f"{s}_over_gosdt"] for r in rows if r[f"{s}_optimal"] and r['gosdt_optimal']]
    return (statistics.median(both), len(both)) if both else (math.nan, 0)


def write_md(path, rows, meta):
    L = []
    L.append('# OSDT benchmark: glassworks vs gosdt vs pystreed\n')
    L.append(f"Generated {datetime.datetime.now():%Y-%m-%d %H:%M} by `python benchmarks/osdt_bench.py"
             f"{meta['argv']}` (cap {meta['cap']:g} s per fit) on {platform.node()} "
             f"({os.cpu_count()} CPUs, {platform.processor() or platform.machine()}); one process, fits run "
             f"one after another on the same 0/1 matrix. Total {meta['total']:.0f} s.\n")
    L.append('Versions: ' + ', '.join(f"{k} {v}" for k, v in meta['versions'].items()) + '.  ')
    L.append(f"`glassworks.osdt.OSDTClassifier` importable: **{meta['estimator']}**"
             + ('' if meta['estimator'] else ' — the dp column is the engine `glassworks.treedp.search_tree`, '
                'bnb is not available') + '.  ')
    L.append('Warm-up (untimed tiny fit; first call minus second call, i.e. numba compile/load time): '
             + ', '.join(f"{k} {v:.2f} s" for k, v in meta['compile_s'].items()) + '.  ')
    L.append("Memory guard: before each fit the process's address space is capped at its size + headroom "
             "(`--max-mem-gb`, default MemAvailable − 2 GB, at most 16 GB); a fit that needs more fails with "
             "MemoryError and is reported as `error` (the CSV note gives the headroom).\n")

    L.append('## Summary\n')
    m, k = median_ratio(rows, 'dp')
    L.append(f"* **Median time ratio dp / gosdt: {m:.3g}** over the {k} cases both certified "
             f"(< 1 means dp is faster; goal: ≤ 1).")
    for s in ('bnb', 'streed'):
        ms, ks = median_ratio(rows, s)
        if ks: L.append(f"* Median time ratio {s} / gosdt: {ms:.3g} over {ks} cases both certified.")
    both = [r['dp_seconds'] / r['streed_seconds'] for r in rows if r.get('dp_optimal') and r.get('streed_optimal')]
    if both: L.append(f"* **Median time ratio dp / pystreed: {statistics.median(both):.3g}** over {len(both)} cases "
                      f"both certified (worst {max(both):.3g}).")
    n_to = {s: sum(1 for r in rows if r[f"{s}_status"] not in ('optimal', 'n/a')) for s in SOLVERS}
    L.append('* Runs not certified within the cap (timeouts/errors): '
             + ', '.join(f"{s} {n_to[s]}" for s in SOLVERS if s in meta['solvers']) + f" of {len(rows)}.")
    for r in rows:
        if r['dataset'] == 'compas-binary' and abs(r['lam'] - 0.005) < 1e-12:
            if r['bnb_status'] == 'optimal':
                sp = PUBLISHED_OSDT_COMPAS_0005 / r['bnb_seconds']
                L.append(f"* **bnb on COMPAS λ=0.005: {r['bnb_seconds']:.3f} s vs ≈{PUBLISHED_OSDT_COMPAS_0005:g} s** "
                         f"for the published Python OSDT → {sp:.0f}× faster (goal ≥ 50×, i.e. ≤ "
                         f"{PUBLISHED_OSDT_COMPAS_0005 / 50:.2f} s).")
            else:
                L.append(f"* bnb on COMPAS λ=0.005: {r['bnb_status']} ({r['bnb_note'] or 'no certified run'}); the "
                         f"published Python OSDT took ≈{PUBLISHED_OSDT_COMPAS_0005:g} s.")
    bad = [r for r in rows if 'NO' in (r['agree_gosdt'], r['agree_gosdt_tree'], r['agree_streed'], r['agree_bnb'],
                                      r['agree_dp'], r['agree_spec'])]
    checked = sum(1 for r in rows if r['agree_gosdt'])
    L.append(f"* Agreement of certified objectives: {checked} cases compared with gosdt (|Δ| ≤ 1e-6), "
             f"{sum(1 for r in rows if r['agree_streed'])} with pystreed, "
             f"{sum(1 for r in rows if r['agree_spec'])} with an independent solver's optima; "
             + ('**no disagreement**.' if not bad else f"**{len(bad)} disagreement(s)**:"))
    for r in bad:
        L.append(f"  * {r['dataset']} λ={r['lam']:g}: ours {fmt_obj(r['objective'])}, gosdt reported "
                 f"{r['gosdt_reported']:.8f} / tree {fmt_obj(r['gosdt_objective'])}, pystreed "
                 f"{fmt_obj(r['streed_objective'])}, bnb {fmt_obj(r['bnb_objective'])}, "
                 f"spec {fmt_obj(r['spec_truth'])}")
    if any(r['streed_cap_binding'] for r in rows):
        L.append('* pystreed depth cap (20) binding in: ' + ', '.join(
            f"{r['dataset']} λ={r['lam']:g}" for r in rows if r['streed_cap_binding']) + ' (excluded from agreement).')
    L.append('')

    L.append('## Seconds per fit (wall clock around `fit`) and ratio to gosdt\n')
    L.append('| dataset | N | M | λ | R* | leaves | depth | dp s | bnb s | gosdt s | pystreed s | dp/gosdt | '
             'bnb/gosdt | pystreed/gosdt |')
    L.append('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        def o(s): return dict(status=r[f"{s}_status"], optimal=r[f"{s}_optimal"], seconds=r[f"{s}_seconds"])
        L.append(f"| {r['dataset']} | {r['n']} | {r['m']} | {r['lam']:g} | {fmt_obj(r['objective'])} | "
                 f"{r['leaves'] if r['leaves'] is not None else '—'} | "
                 f"{r['depth'] if r['depth'] is not None else '—'} | "
                 + ' | '.join(fmt_s(o(s)) for s in SOLVERS) + ' | '
                 + ' | '.join(r[f"{s}_over_gosdt_text"] for s in ('dp', 'bnb', 'streed')) + ' |')
    L.append('')
    L.append('## Objectives (double precision, recomputed from each returned tree) and agreement\n')
    L.append('| dataset | λ | dp | bnb | gosdt reported (float32) | gosdt tree | pystreed tree | independent solver | '
             'gosdt ≤1e-6 | gosdt tree | pystreed | bnb | spec |')
    L.append('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        rep = '—' if r['gosdt_reported'] != r['gosdt_reported'] else f"{r['gosdt_reported']:.8f}"
        L.append(f"| {r['dataset']} | {r['lam']:g} | {fmt_obj(r['dp_objective'])} | {fmt_obj(r['bnb_objective'])} | "
                 f"{rep} | {fmt_obj(r['gosdt_objective'])} | {fmt_obj(r['streed_objective'])} | "
                 f"{fmt_obj(r['spec_truth'])} | {r['agree_gosdt'] or '—'} | {r['agree_gosdt_tree'] or '—'} | "
                 f"{r['agree_streed'] or '—'} | {r['agree_bnb'] or '—'} | {r['agree_spec'] or '—'} |")
    L.append('')
    L.append('Objective columns of runs that hit the cap show the best tree found (not certified). An agreement '
             'cell is empty (—) unless both runs were certified. See `benchmarks/README.md` for how each peer is '
             'configured; per-run notes (gosdt internal time and iterations, pystreed max_depth, estimator '
             '`fit_time_`) are in the CSV.')
    Path(path).write_text('\n'.join(L) + '\n')


if __name__ == '__main__':
    main()
