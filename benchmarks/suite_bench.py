#!/usr/bin/env python
"""The optimal-decision-tree benchmark suite (DL8.5 / MurTree / STreeD): glassworks' DP engine against pystreed.

    python benchmarks/suite_bench.py [--datasets anneal vote ...] [--depths 2 3 4 5] [--lams 0 0.001 0.01] [--cap 60]
                                     [--out benchmarks/results/suite] [--quick]

For every (suite set, depth d, λ) both solvers run in this one process on the same 0/1 matrix, each to certified
optimality of   misclassified fraction + λ · leaves   with at most d splits on any path, under a per-run cap:
  * ours     `search_tree(TreeData(X, y), λ, max_depth=d, monitor=SearchMonitor(time_limit=cap))` (the engine with its
             defaults; TreeData is inside the timing, as pystreed's own preprocessing is inside its `fit`). λ = 0 is
             pure misclassification under the depth limit (the engine accepts it; the estimators do not).
  * streed   `pystreed.STreeDClassifier(optimization_task='cost-complex-accuracy', cost_complexity=λ, max_depth=d,
             time_limit=cap)`; for λ = 0 the task is 'accuracy' (`--streed-zero-task`), pystreed's own task for the
             literature's standard setting, which sets cost_complexity to 0 itself. Its cost is errors + λ·N per branch
             node = N·(our objective − λ) (a binary tree has leaves − 1 branch nodes): the same optimum.
Every objective is recomputed in double precision from the returned tree with `glassworks.treedp.tree_objective` (the
pystreed tree is converted to a glassworks `Tree`). Runs shorter than 0.2 s are repeated (`--repeat`, interleaved,
both solvers alike) and the fastest kept. For the cases neither solver certifies, the anytime view: objective and lower
bound at 1 s, 10 s and the cap; ours from the (time, incumbent, bound) trace of the capped run's SearchMonitor,
pystreed from separate runs with those time limits (pystreed reports no lower bound). Numba is compiled before timing.
Writes OUT.csv and OUT.md after every case. Data: `glassworks.datasets.load('dl85-<name>')` ($GLASSWORKS_DATA/dl85/,
the cache, or a checked download). See benchmarks/README.md.
"""
from __future__ import annotations
import argparse, datetime, gc, math, os, platform, subprocess, sys, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from _common import captured_output, streed_tree_predict, objective_of, interleaved   # noqa: E402
from treedp_depth_bench import compile_time                                          # noqa: E402
import glassworks                                                                        # noqa: E402
from glassworks.datasets import load, suite_datasets                                    # noqa: E402
from glassworks.treedp import TreeData, search_tree, tree_objective                     # noqa: E402
from glassworks.base import SearchMonitor                                               # noqa: E402
from glassworks.models import Tree, Split, Leaf                                         # noqa: E402

DEPTHS = [2, 3, 4, 5]
LAMS = [0.0, 0.001, 0.01]
QUICK = dict(datasets=['zoo-1', 'primary-tumor', 'hepatitis', 'lymph', 'vote', 'tic-tac-toe'], depths=[3],
             lams=LAMS, cap=10.0)
SNAPSHOTS = (1.0, 10.0)              # anytime view: seconds (plus the cap)
AGREE_TOL = 1e-9                     # relative, between double-precision recomputations of two trees' objectives


def suite_name(name):
    "'anneal' or 'dl85-anneal' -> 'dl85-anneal'."
    return name if name.startswith('dl85-') else f"dl85-{name}"


def load_suite(name):
    "(X int64 0/1, y int64 0/1) of a suite set."
    X, y, _ = load(suite_name(name))
    return X.to_numpy().astype(np.int64), y.to_numpy().astype(np.int64)


def at_time(trace, t):
    "(incumbent, bound) of a SearchMonitor trace at time t: its last entry at or before t (inf, -inf before any)."
    ub, lb = math.inf, -math.inf
    for s, u, l in trace:
        if s > t: break
        ub, lb = u, l
    return ub, lb


# ---------------------------------------------------------------------------------------------------------------------
# one run per solver; each returns a dict with at least sec, obj, optimal (the keys `interleaved` reads)
def run_ours(X, y, lam, depth, cap, switches=()):
    kw = {k: bool(int(v)) for k, v in (sw.split('=') for sw in switches)}
    gc.collect()
    t = time.perf_counter()
    data = TreeData(X, y)
    mon = SearchMonitor(time_limit=cap)
    r = search_tree(data, lam, max_depth=depth, monitor=mon, **kw)
    sec = time.perf_counter() - t
    return dict(sec=sec, obj=tree_objective(data, r.tree, lam), optimal=bool(r.complete), lb=float(r.lower_bound),
                reported=float(r.objective), leaves=r.tree.n_leaves, tree_depth=r.tree.depth, nodes=r.stats['nodes'],
                stopped_by=mon.stopped_by or '', trace=list(mon.trace))


def streed_to_tree(node, M):
    "A pystreed tree (left child: x_j = 0, right child: x_j = 1) as a glassworks Tree over features f0..f{M-1}."
    def conv(nd):
        if nd.is_leaf_node(): return Leaf(int(nd.label))
        return Split(int(nd.feature), 0.5, conv(nd.left_child), conv(nd.right_child))
    return Tree(conv(node), [f"f{j}" for j in range(M)], task='classification', classes=[0, 1])


def streed_task(lam, zero_task):
    return zero_task if lam == 0 else 'cost-complex-accuracy'


def run_streed(X, y, lam, depth, cap, zero_task='accuracy'):
    from pystreed import STreeDClassifier
    task = streed_task(lam, zero_task)
    clf = STreeDClassifier(optimization_task=task, cost_complexity=lam, max_depth=depth, time_limit=float(cap),
                           verbose=False)
    Xi, yi = np.ascontiguousarray(X, dtype=np.int32), np.asarray(y, dtype=np.int32)
    printed = []
    with captured_output(printed), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        gc.collect()
        t = time.perf_counter()
        clf.fit(Xi, yi)
        sec = time.perf_counter() - t
    if not hasattr(clf, 'fit_result') or not clf.fit_result.is_feasible():
        return dict(sec=sec, obj=math.nan, optimal=False, lb=math.nan, leaves=None, tree_depth=None, task=task,
                    error='no tree returned')
    if not np.array_equal(clf.train_X_, Xi) or list(clf.classes_) != [0, 1]:
        raise RuntimeError('pystreed re-encoded the features or the labels: its tree cannot be read on X, y')
    tree = streed_to_tree(clf.tree_, X.shape[1])
    obj = tree_objective(TreeData(X, y), tree, lam)
    pred, leaves, _ = streed_tree_predict(clf.tree_, Xi)              # second reading of the same tree
    if abs(objective_of(pred, yi, leaves, lam) - obj) > 1e-12:
        raise RuntimeError('the two readings of the pystreed tree disagree')
    return dict(sec=sec, obj=obj, optimal=bool(clf.fit_result.is_optimal()), lb=math.nan, leaves=tree.n_leaves,
                tree_depth=tree.depth, task=task)


def warm_up(zero_task):
    "Untimed tiny fits: numba compilation and pystreed's first call are kept out of the timings."
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 6))
    y = (X[:, 0] ^ X[:, 1]) | (rng.random(60) < 0.1).astype(np.int64)
    for lam in (0.0, 0.01):
        run_ours(X, y, lam, 3, 60)
        run_streed(X, y, lam, 3, 60, zero_task)


def engine_version():
    "Which engine was measured: the git commit of the imported glassworks and whether treedp.py differs from it."
    where = Path(glassworks.__file__).resolve().parent
    try:
        head = subprocess.run(['git', '-C', str(where), 'rev-parse', '--short', 'HEAD'], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', str(where), 'diff', '--quiet', 'HEAD', '--', 'treedp.py']).returncode
        return f"glassworks from {where} at commit {head}" + (' (treedp.py modified)' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return f"glassworks from {where} (not a git checkout)"


# ---------------------------------------------------------------------------------------------------------------------
def compare(row):
    "Ratio text and agreement flags of one case."
    o, s = row['ours_optimal'], row['streed_optimal']
    r = row['ours_sec'] / row['streed_sec'] if row['streed_sec'] > 0 else math.nan
    row['ratio'] = r if (o and s) else math.nan
    row['ratio_text'] = (f"{r:.3g}" if o and s else f"<{r:.3g}" if o else f">{r:.3g}" if s else 'both t/o')
    a, b = row['ours_obj'], row['streed_obj']
    tol = AGREE_TOL * max(1.0, abs(a)) if a == a else 0.0
    row['agree'] = ('' if not (o and s) else 'yes' if abs(a - b) <= tol else 'NO')
    # ours certified: no tree of pystreed may be better; pystreed certified but worse than our certified tree:
    # wrong claim
    row['ours_not_worse'] = ('' if not (a == a and b == b) else 'yes' if a <= b + tol else 'NO')
    row['streed_wrong'] = bool(o and s and b > a + tol)


def anytime(row, ours_trace, X, y, lam, depth, cap, zero_task):
    "Objective and lower bound at 1 s, 10 s and the cap, for a case neither solver certified."
    for t in SNAPSHOTS:
        if t >= cap: continue
        ub, lb = at_time(ours_trace, t)
        row[f"ours_obj_{t:g}s"], row[f"ours_lb_{t:g}s"] = ub, lb
        s = interleaved({'streed': lambda: run_streed(X, y, lam, depth, t, zero_task)}, 1)['streed']
        row[f"streed_obj_{t:g}s"] = s['obj']
        row[f"streed_opt_{t:g}s"] = s['optimal']


def run_grid(datasets, depths, lams, cap, out, repeat=5, zero_task='accuracy', switches=(), command=''):
    warm_up(zero_task)
    meta = dict(first_fit=compile_time(), cap=cap, repeat=repeat, command=command, zero_task=zero_task,
                switches=switches, engine=engine_version(), start=time.perf_counter(),
                versions=versions(), date=f"{datetime.datetime.now():%Y-%m-%d %H:%M}")
    rows = []
    for name in datasets:
        X, y = load_suite(name)
        units = TreeData(X, y).U
        print(f"{suite_name(name)}: n={len(y)} M={X.shape[1]} units={units}", flush=True)
        for depth in depths:
            for lam in lams:
                row = dict(dataset=suite_name(name)[5:], n=len(y), M=X.shape[1], units=units, depth=depth, lam=lam)
                runs = {'ours': lambda: run_ours(X, y, lam, depth, cap, switches),
                        'streed': lambda: run_streed(X, y, lam, depth, cap, zero_task)}
                res = interleaved(runs, repeat)
                trace = res['ours'].pop('trace', [])
                for label, r in res.items():
                    row.update({f"{label}_{k}": v for k, v in r.items()})
                compare(row)
                if not row['ours_optimal'] and not row['streed_optimal']:
                    anytime(row, trace, X, y, lam, depth, cap, zero_task)
                rows.append(row)
                print(f"  d={depth} lam={lam:<6g} ours {row['ours_sec']:.3f}s{'' if row['ours_optimal'] else ' (cap)'} "
                      f"streed {row['streed_sec']:.3f}s{'' if row['streed_optimal'] else ' (cap)'} "
                      f"ratio {row['ratio_text']}  obj {row['ours_obj']:.6f} / {row['streed_obj']:.6f} "
                      f"agree {row['agree'] or '-'}", flush=True)
                meta['total'] = time.perf_counter() - meta['start']
                write_report(rows, Path(out), meta)
    print(f"wrote {out}.csv and {out}.md ({meta['total']:.0f} s)", flush=True)
    return pd.DataFrame(rows)


def versions():
    from importlib.metadata import version
    out = {}
    for p in ('glassworks', 'pystreed', 'numba', 'numpy'):
        try: out[p] = version(p)
        except Exception: out[p] = '?'           # noqa: BLE001
    return out


# ---------------------------------------------------------------------------------------------------------------------
def fmt_sec(sec, optimal):
    if sec != sec: return 'error'
    return (f"{sec:.3f}" if sec < 10 else f"{sec:.1f}") if optimal else f"≥{sec:.1f} (cap)"


def fmt_obj(v):
    return '—' if v is None or v != v else ('∞' if v == math.inf else '−∞' if v == -math.inf else f"{v:.6f}")


def write_report(rows, out, meta):
    out.parent.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)                             # later rows may add columns (anytime view, errors)
    df.to_csv(f"{out}.csv", index=False, float_format='%.10g')
    both = df[df.ours_optimal & df.streed_optimal]
    L = ['# The optimal-tree benchmark suite (DL8.5 / MurTree / STreeD): ours against pystreed', '',
         f"Generated {meta['date']} by `{meta['command']}` on {platform.node()} ({os.cpu_count()} CPUs, "
         f"{platform.machine()}, Python {platform.python_version()}); one process, the two solvers one after the other "
         f"on the same 0/1 matrix; cap {meta['cap']:g} s per run; runs < 0.2 s: best of {meta['repeat']} (both "
         f"solvers). Total {meta.get('total', 0):.0f} s.  ",
         'Versions: ' + ', '.join(f"{k} {v}" for k, v in meta['versions'].items()) + f"; {meta['engine']}.  ",
         "ours = `TreeData` + `search_tree` "
         f"(engine defaults{', switches ' + ' '.join(meta['switches']) if meta['switches'] else ''}); "
         f"pystreed task 'cost-complex-accuracy' (λ > 0) and '{meta['zero_task']}' (λ = 0). First fit in a fresh "
         f"process (numba cache load or compile): {meta['first_fit']:.2f} s, not in the timings.", '',
         '## Summary', '']
    n = len(df)
    L.append(f"* Cases: {n}; certified within the cap: ours {int(df.ours_optimal.sum())}, pystreed "
             f"{int(df.streed_optimal.sum())}, both {len(both)}, "
             f"neither {int((~df.ours_optimal & ~df.streed_optimal).sum())}.")
    if len(both):
        w = both.loc[both.ratio.idxmax()]
        L.append(f"* **Median ours/pystreed time ratio {both.ratio.median():.3f}** over the {len(both)} cases both "
                 f"certified (< 1: ours faster); worst {w.ratio:.2f} ({w.dataset} d={w.depth} λ={w.lam:g}); cases "
                 f"> 1.5×: {int((both.ratio > 1.5).sum())}.")
        for key in ('depth', 'lam'):
            parts = [f"{k:g}: {g.ratio.median():.3f} ({len(g)})" for k, g in both.groupby(key)]
            L.append(f"* Median ratio by {'depth' if key == 'depth' else 'λ'} (cases): " + ', '.join(parts) + '.')
    only_s = df[~df.ours_optimal & df.streed_optimal]
    only_o = df[df.ours_optimal & ~df.streed_optimal]
    L.append('* Certified by pystreed only: ' + (', '.join(f"{r.dataset} d={r.depth} λ={r.lam:g} ({r.streed_sec:.1f} s)"
                                                         for r in only_s.itertuples()) or 'none') + '.')
    L.append('* Certified by ours only: ' + (', '.join(f"{r.dataset} d={r.depth} λ={r.lam:g} ({r.ours_sec:.1f} s)"
                                                     for r in only_o.itertuples()) or 'none') + '.')
    bad = df[df.agree == 'NO']
    L.append(f"* Objective agreement where both certified (|Δ| ≤ {AGREE_TOL:g}·max(1, obj), "
             "recomputed from the trees): "
             f"{int((df.agree == 'yes').sum())} agree, " + (f"**{len(bad)} disagree**: " + '; '.join(
                 f"{r.dataset} d={r.depth} λ={r.lam:g} ours {r.ours_obj:.9f} pystreed {r.streed_obj:.9f}"
                 for r in bad.itertuples()) if len(bad) else 'none disagrees') + '.')
    worse = df[df.ours_not_worse == 'NO']
    L.append('* Cases where our returned tree is worse than pystreed\'s: ' + ('; '.join(
        f"{r.dataset} d={r.depth} λ={r.lam:g} ours {r.ours_obj:.6f}{'' if r.ours_optimal else ' (cap)'} pystreed "
        f"{r.streed_obj:.6f}{'' if r.streed_optimal else ' (cap)'}" for r in worse.itertuples()) or 'none') + '.')
    errs = [f"{r['dataset']} d={r['depth']} λ={r['lam']:g} {s}: {r[f'{s}_error']}"
            for r in rows for s in ('ours', 'streed') if isinstance(r.get(f'{s}_error'), str) and r.get(f'{s}_error')]
    if errs: L.append('* Errors: ' + '; '.join(errs) + '.')
    L.append('')
    cols = ['dataset', 'n', 'M', 'depth', 'λ', 'ours s', 'pystreed s', 'ours/pystreed', 'ours objective', 'ours bound',
            'pystreed objective', 'agree', 'ours leaves', 'pystreed leaves']
    L += ['## Per case', '',
          'Seconds: `≥t (cap)` = not certified within the cap. Ratio: `<r` ours certified and pystreed did not (the '
          'true ratio is smaller), `>r` the reverse, `both t/o` neither. Objectives are recomputed from the returned '
          'trees (misclassified fraction + λ·leaves); for a capped run it is the best tree found. `ours bound` is our '
          'certified lower bound (pystreed reports none). `agree` is filled only where both certified.', '',
          '| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]
    for r in rows:
        L.append(f"| {r['dataset']} | {r['n']} | {r['M']} | {r['depth']} | {r['lam']:g} | "
                 f"{fmt_sec(r['ours_sec'], r['ours_optimal'])} | {fmt_sec(r['streed_sec'], r['streed_optimal'])} | "
                 f"{r['ratio_text']} | {fmt_obj(r['ours_obj'])} | {fmt_obj(r.get('ours_lb'))} | "
                 f"{fmt_obj(r['streed_obj'])} | {r['agree'] or '—'} | {r.get('ours_leaves', '—')} | "
                 f"{r.get('streed_leaves', '—')} |")
    neither = [r for r in rows if not r['ours_optimal'] and not r['streed_optimal']]
    if neither:
        snaps = [t for t in SNAPSHOTS if t < meta['cap']]
        head = ['dataset', 'depth', 'λ'] + [f"{w} {t:g}s" for t in snaps
                                            for w in ('ours obj', 'ours bound', 'pystreed obj')] \
            + [f"{w} cap" for w in ('ours obj', 'ours bound', 'pystreed obj')]
        L += ['', '## Anytime view (cases neither certified)', '',
              'Ours: incumbent and certified lower bound from the SearchMonitor trace of the capped run (the last '
              'update at or before the time; ∞ / −∞ = none yet; the trace values are the search\'s own sums, the cap '
              'columns are the end of the capped run, recomputed from the returned tree; the engine checks its clock '
              'between rounds of nodes, so a run can end after the cap: see `ours s`). pystreed: separate runs with '
              'time_limit 1 s and 10 s, objective recomputed from the returned tree (a certified run is marked ✓); '
              'pystreed reports no lower bound.', '',
              '| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
        for r in neither:
            cells = [r['dataset'], str(r['depth']), f"{r['lam']:g}"]
            for t in snaps:
                cells += [fmt_obj(r.get(f"ours_obj_{t:g}s")), fmt_obj(r.get(f"ours_lb_{t:g}s")),
                          fmt_obj(r.get(f"streed_obj_{t:g}s")) + (' ✓' if r.get(f"streed_opt_{t:g}s") else '')]
            cells += [fmt_obj(r['ours_obj']), fmt_obj(r['ours_lb']), fmt_obj(r['streed_obj'])]
            L.append('| ' + ' | '.join(cells) + ' |')
    Path(f"{out}.md").write_text('\n'.join(L) + '\n')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--datasets', nargs='+', default=None,
                    help='suite sets, with or without the dl85- prefix (default: all 19; --quick: 6 small ones)')
    ap.add_argument('--depths', nargs='+', type=int, default=None, help='default 2 3 4 5 (--quick: 3)')
    ap.add_argument('--lams', nargs='+', type=float, default=None, help='default 0 0.001 0.01')
    ap.add_argument('--cap', type=float, default=None, help='seconds per run and solver (default 60; --quick: 10)')
    ap.add_argument('--out', default=None,
                    help='output prefix (default benchmarks/results/suite, --quick: suite.quick)')
    ap.add_argument('--quick', action='store_true',
                    help=f"a few small sets, depth 3, cap 10 s: {', '.join(QUICK['datasets'])}")
    ap.add_argument('--repeat', type=int, default=5,
                    help='runs shorter than 0.2 s are repeated up to this many times (both solvers) '
                         'and the fastest kept')
    ap.add_argument('--streed-zero-task', default='accuracy', choices=['accuracy', 'cost-complex-accuracy'],
                    help="pystreed's task for λ = 0 (default 'accuracy'; both give the same optimum)")
    ap.add_argument('--switch', dest='switches', nargs='*', default=[], metavar='NAME=0|1',
                    help="search_tree switches for ours, e.g. similarity=1 anytime=1 (ablation)")
    a = ap.parse_args(argv)
    q = QUICK if a.quick else dict(datasets=[n[5:] for n in suite_datasets()], depths=DEPTHS, lams=LAMS, cap=60.0)
    results = Path(__file__).resolve().parent / 'results'
    out = a.out or str(results / ('suite.quick' if a.quick else 'suite'))
    return run_grid(a.datasets or q['datasets'], a.depths or q['depths'], a.lams if a.lams is not None else q['lams'],
                    a.cap if a.cap is not None else q['cap'], out, a.repeat, a.streed_zero_task, a.switches,
                    'python benchmarks/suite_bench.py ' + ' '.join(argv))


if __name__ == '__main__':
    main()
