"""OSRT benchmark: glassworks' OSRTRegressor against the reference C++ package `osrt` (0.2.2) and `pystreed`.

All three solvers run side by side in this one process, on the shipped binarised regression data sets, for every
depth d and leaf price lambda of the grid, each to certified optimality or until a per-run time cap. Every
objective is recomputed here in double precision from the returned tree (SSE of each leaf around its mean, / SST,
+ lambda * leaves), so no solver's own (possibly float32) figure is trusted.

Settings that put the peers on our scale (objective SSE/SST + lambda * leaves, depth = splits on a path):
* osrt: depth_budget = d + 1 (it counts the root as level 1), minimum_captured_points = 1 and allow_small_reg =
  true (v0.2.x otherwise forces small nodes to be leaves and raises lambda to 1/N), k_cluster = true (its default
  bound), model_limit = 1, worker_limit = 1, time_limit = cap.
* pystreed: STreeDRegressor(optimization_task='cost-complex-regression', cost_complexity = lambda, max_depth = d).
  Its objective is SSE + lambda * SST * (branching nodes) = SST * (ours - lambda): same minimisers, objectives
  shifted by the constant lambda. Run with regression_lower_bound='equivalent' (the column `streed`) and with its
  default 'kmeans' bound (the column `streed_km`, shown because it can return sub-optimal trees flagged optimal).

Usage:  python benchmarks/osrt_bench.py [--datasets airfoil servo ...] [--depths 2 3 4 5]
                                        [--lams 0.1 0.05 0.01 0.005 0.001] [--cap 60] [--out benchmarks/results/osrt]
Needs GLASSWORKS_DATA (the shipped CSVs) and, for the peers, `pip install osrt==0.2.2 pystreed` (a peer that
cannot be imported is skipped).
"""
from __future__ import annotations
import argparse, os, platform, sys, time
from pathlib import Path
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from _common import objective_from_groups, quiet_fd, interleaved                 # noqa: E402
from _common import run_streed_regression as run_streed                            # noqa: E402
from glassworks.datasets import load
from glassworks.osrt import OSRTRegressor

DATASETS = ['airfoil', 'airquality', 'enb-heat', 'real-estate', 'seoul-bike', 'servo', 'sync', 'yacht']
TOL = 1e-7          # objectives closer than this (relative to max(1, |objective|)) agree


def osrt_leaf_ids(node, X):
    "Leaf number of each row in an `osrt` JSON tree (tests `x[feature] == reference`; true branch if it holds)."
    ids = np.zeros(len(X), np.int64)
    counter = [0]
    def walk(nd, rows):
        if 'prediction' in nd:
            ids[rows] = counter[0]
            counter[0] += 1
            return
        assert nd['relation'] == '==', nd['relation']
        hit = X[rows, nd['feature']] == nd['reference']
        walk(nd['true'], rows[hit])
        walk(nd['false'], rows[~hit])
    walk(node, np.arange(len(X)))
    return ids


def run_ours(X, y, lam, d, cap):
    t = time.perf_counter()
    est = OSRTRegressor(lam, max_depth=d, time_limit=cap).fit(X, y)
    sec = time.perf_counter() - t
    obj, k = objective_from_groups(est.tree_.apply(X), y, lam)
    return dict(sec=sec, obj=obj, leaves=k, optimal=bool(est.optimal_), lb=est.lower_bound_, nodes=est.stats_['nodes'])


def run_osrt(X, y, lam, d, cap):
    from osrt import OSRT
    cfg = dict(regularization=lam, depth_budget=d + 1, k_cluster=True, allow_small_reg=True,
               minimum_captured_points=1, model_limit=1, worker_limit=1, time_limit=int(np.ceil(cap)),
               verbose=False, diagnostics=False)
    Xd, yd = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]), pd.DataFrame(y)
    m = OSRT(cfg)
    t = time.perf_counter()
    with quiet_fd(): m.fit(Xd, yd)
    sec = time.perf_counter() - t
    obj, k = objective_from_groups(osrt_leaf_ids(m.tree.source, X), y, lam)
    return dict(sec=sec, obj=obj, leaves=k, optimal=(not m.timeout) and abs(m.ub - m.lb) <= 1.2e-7,
                reported=float(m.ub), internal_sec=float(m.time), iterations=int(m.iterations))





def available(mod):
    try:
        __import__(mod)
        return True
    except Exception: return False


def depth_grid_main(argv):
    """`--depth-grid`: the depth-limited grid (depths 3-6, lambda down to 0.0005, data sets inside and outside
    ../shared) against pystreed, by benchmarks/treedp_depth_bench.py; writes results/osrt_depth.{csv,md}."""
    import treedp_depth_bench as tdb
    return tdb.grid_main(argv, tdb.REGRESSION, 'osrt_depth', 'benchmarks/osrt_bench.py')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if '--depth-grid' in argv: return depth_grid_main(argv)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--datasets', nargs='+', default=DATASETS)
    ap.add_argument('--depths', nargs='+', type=int, default=[2, 3, 4, 5])
    ap.add_argument('--lams', nargs='+', type=float, default=[0.1, 0.05, 0.01, 0.005, 0.001])
    ap.add_argument('--cap', type=float, default=60.0, help='seconds per run and solver')
    ap.add_argument('--out', default=str(Path(__file__).parent / 'results' / 'osrt'))
    ap.add_argument('--resume', action='store_true', help='keep the runs already in OUT.csv and do the rest')
    ap.add_argument('--skip-osrt', nargs='*', default=[], metavar='DATASET:DEPTH:LAM',
                    help='do not run osrt on these settings (e.g. where it exhausted memory); recorded as an error')
    ap.add_argument('--report-only', action='store_true', help='rewrite OUT.md from OUT.csv without running')
    ap.add_argument('--without', nargs='*', default=[], choices=['osrt', 'streed'], help='leave these peers out')
    ap.add_argument('--repeat', type=int, default=5, help='fits shorter than 0.2 s are repeated (interleaved, every '
                    'solver but osrt) up to this many times and the fastest kept')
    a = ap.parse_args(argv)
    if a.report_only:
        df = pd.read_csv(a.out + '.csv')
        return write_markdown(df, a, {'osrt': 'osrt_obj' in df, 'streed': 'streed_obj' in df})
    peers = {'osrt': available('osrt') and 'osrt' not in a.without,
             'streed': available('pystreed') and 'streed' not in a.without}
    print(f"peers available: {peers}", flush=True)
    # warm up: numba compilation is a one-off cost, not part of a fit
    Xw, yw, _ = load('servo')
    OSRTRegressor(0.05, max_depth=2).fit(Xw.to_numpy(), yw.to_numpy())
    rows = pd.read_csv(a.out + '.csv').to_dict('records') if a.resume and Path(a.out + '.csv').exists() else []
    done = {(r['dataset'], int(r['depth']), float(r['lam'])) for r in rows}
    skip = {(k.split(':')[0], int(k.split(':')[1]), float(k.split(':')[2])) for k in a.skip_osrt}
    for name in a.datasets:
        X, y, _ = load(name)
        X = X.to_numpy().astype(np.int64)
        y = y.to_numpy().astype(float)
        for d in a.depths:
            for lam in a.lams:
                if (name, d, lam) in done: continue
                r = dict(dataset=name, n=len(y), depth=d, lam=lam)
                runs = {'ours': lambda: run_ours(X, y, lam, d, a.cap)}
                if peers['osrt']:
                    runs['osrt'] = (lambda: run_osrt(X, y, lam, d, a.cap)) if (name, d, lam) not in skip else \
                        (lambda: (_ for _ in ()).throw(MemoryError('not run: exhausted memory (OOM-killed) '
                                                                   'in an earlier run')))
                if peers['streed']:
                    runs['streed'] = lambda: run_streed(X, y, lam, d, a.cap, 'equivalent')
                    runs['streed_km'] = lambda: run_streed(X, y, lam, d, a.cap, 'kmeans')
                quick = {k: f for k, f in runs.items() if k != 'osrt'}      # osrt (seconds per fit) runs once
                results = interleaved(quick, a.repeat)
                if 'osrt' in runs: results['osrt'] = interleaved({'osrt': runs['osrt']}, 1)['osrt']
                for key, out in results.items():
                    if 'error' in out: out = dict(out, leaves=-1)
                    r.update({f"{key}_{k}": v for k, v in out.items()})
                rows.append(r)
                best = np.nanmin([r.get(f"{k}_obj", np.nan) for k in runs])
                line = '  '.join(f"{k} {r[f'{k}_sec']:.3f}s {r[f'{k}_obj']:.6f}"
                                 f"{'' if r[f'{k}_optimal'] else '(not opt)'}"
                                 for k in runs)
                print(f"{name:12s} d={d} lam={lam:<6} best {best:.6f} | {line}", flush=True)
                pd.DataFrame(rows).to_csv(a.out + '.csv', index=False)
    df = pd.DataFrame(rows)
    df.to_csv(a.out + '.csv', index=False)
    write_markdown(df, a, peers)


def _agree(a, b): return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def write_markdown(df, a, peers):
    L = ["# OSRT benchmark: glassworks vs `osrt` 0.2.2 (C++) vs `pystreed`", "",
         f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs (shared; timings "
         "are wall-clock seconds of one `fit`, single-threaded, in one process). "
         f"Per-run cap: {a.cap:g} s; fits shorter than 0.2 s are repeated in interleaved rounds (every solver but "
         f"osrt) and the fastest of up to {getattr(a, 'repeat', 1)} kept. Objectives are SSE/SST + lambda * leaves "
         "recomputed in float64 from each returned tree. `ratio` = seconds / osrt seconds (< 1: faster than the "
         "reference). `opt` = the solver claims certified optimality. Flags: `osrt_wrong` = osrt claims optimality but "
         "its tree is worse than ours; `ours_wrong` = some peer found a strictly better tree than ours (never "
         "expected); `streed_wrong` / `km_wrong` = pystreed (equivalent-points / k-means bound) claims optimality "
         "on a worse tree.", ""]
    df = df.copy()
    if peers['osrt']:
        df['ratio'] = df['ours_sec'] / df['osrt_sec']
        if peers['streed']: df['streed_ratio'] = df['streed_sec'] / df['osrt_sec']
        df['osrt_wrong'] = [bool(o and not _agree(x, z) and x > z) for o, x, z in
                            zip(df['osrt_optimal'], df['osrt_obj'], df['ours_obj'])]
    objs = [c for c in ('osrt_obj', 'streed_obj', 'streed_km_obj') if c in df]
    for c in [c for c in df.columns if c.endswith('_optimal')]: df[c] = df[c].fillna(False).astype(bool)
    df['ours_wrong'] = [any(np.isfinite(r[c]) and r[c] < r['ours_obj'] and not _agree(r[c], r['ours_obj'])
                            for c in objs) for _, r in df.iterrows()]
    if 'streed_obj' in df:
        df['streed_wrong'] = [bool(o and not _agree(x, z) and x > z) for o, x, z in
                              zip(df['streed_optimal'], df['streed_obj'], df['ours_obj'])]
    if 'streed_km_obj' in df:
        df['km_wrong'] = [bool(o and not _agree(x, z) and x > z) for o, x, z in
                          zip(df['streed_km_optimal'], df['streed_km_obj'], df['ours_obj'])]
    L += ["## Summary", ""]
    L.append(f"* runs: {len(df)}; ours certified optimal in {int(df['ours_optimal'].sum())}, "
             f"median {df['ours_sec'].median():.3f} s, max {df['ours_sec'].max():.2f} s.")
    if peers['osrt']:
        ok = df['osrt_optimal'] & df['ours_optimal']
        L.append(f"* osrt certified optimal (no timeout) in {int(df['osrt_optimal'].sum())}; "
                 f"median {df['osrt_sec'].median():.3f} s"
                 f" (timeouts counted at the cap). On runs both certified: median ratio ours/osrt = "
                 f"{df.loc[ok, 'ratio'].median():.4f} "
                 f"(geometric mean {np.exp(np.log(df.loc[ok, 'ratio']).mean()):.4f}); "
                 f"ours faster in {int((df.loc[ok, 'ratio'] < 1).sum())} of {int(ok.sum())}. Over all runs "
                 f"(osrt timeouts at the cap) median ratio {df['ratio'].median():.4f}.")
        agree = [_agree(x, z) for x, z in zip(df.loc[ok, 'osrt_obj'], df.loc[ok, 'ours_obj'])]
        L.append(f"* objectives agree with osrt (tol {TOL:g}) in {sum(agree)} of {int(ok.sum())} runs where both "
                 f"certify; osrt claims optimality on a worse tree in {int(df['osrt_wrong'].sum())}: "
                 + (', '.join(f"{r.dataset} d={r.depth} lam={r.lam} (osrt {r.osrt_obj:.6f}, {r.osrt_leaves} leaves"
                              f" vs ours {r.ours_obj:.6f}, {r.ours_leaves} leaves)"
                              for r in df[df['osrt_wrong']].itertuples()) or 'none') + '.')
    if peers['streed']:
        ok = df['streed_optimal'] & df['ours_optimal']
        agree = [_agree(x, z) for x, z in zip(df.loc[ok, 'streed_obj'], df.loc[ok, 'ours_obj'])]
        L.append(f"* pystreed (equivalent-points bound): certified in {int(df['streed_optimal'].sum())}; "
                 f"objectives agree with ours in {sum(agree)} of {int(ok.sum())}; "
                 f"median {df['streed_sec'].median():.3f} s"
                 + (f", median ratio to osrt {df['streed_ratio'].median():.4f}" if 'streed_ratio' in df else '')
                 + f"; claims optimality on a worse tree in {int(df['streed_wrong'].sum())}: "
                 + (', '.join(f"{r.dataset} d={r.depth} lam={r.lam} ({r.streed_obj:.9f} vs ours {r.ours_obj:.9f})"
                              for r in df[df['streed_wrong']].itertuples()) or 'none') + '.')
        r_os = df.loc[ok, 'ours_sec'] / df.loc[ok, 'streed_sec']
        L.append(f"* **median time ratio ours/pystreed = {r_os.median():.3f}** on the {int(ok.sum())} runs "
                 f"both certify (ours faster in {int((r_os < 1).sum())}; worst {r_os.max():.2f}).")
        L.append(f"* pystreed with its default k-means bound claims optimality on a worse tree in "
                 f"{int(df['km_wrong'].sum())} of {len(df)} runs.")
    for key in ('osrt', 'streed', 'streed_km'):
        if f'{key}_error' in df:
            for r in df[df[f'{key}_error'].notna()].itertuples():
                L.append(f"* {key} failed on {r.dataset} d={r.depth} lam={r.lam}: {getattr(r, key + '_error')}")
    if peers['osrt']:
        late = df[~df['osrt_optimal'] & df['osrt_sec'].notna()]
        L.append(f"* osrt stopped by the cap (uncertified; its limit is whole seconds and checked periodically, so it "
                 f"overran to {late['osrt_sec'].max():.0f} s) in {len(late)}: "
                 + ', '.join(f"{r.dataset} d={r.depth} lam={r.lam}" for r in late.itertuples()) + '.')
    L.append(f"* some peer found a better tree than ours: {int(df['ours_wrong'].sum())} runs.")
    L += ["", "## All runs", ""]
    cols = ['dataset', 'depth', 'lam', 'ours_sec']
    if peers['osrt']: cols += ['osrt_sec', 'ratio']
    if peers['streed']: cols += ['streed_sec', 'streed_km_sec']
    cols += ['ours_obj', 'ours_leaves', 'ours_optimal']
    if peers['osrt']: cols += ['osrt_obj', 'osrt_reported', 'osrt_leaves', 'osrt_optimal', 'osrt_wrong']
    if peers['streed']: cols += ['streed_obj', 'streed_optimal', 'streed_wrong', 'streed_km_obj', 'km_wrong']
    cols += ['ours_wrong']
    t = df[cols].copy()
    for c in t.columns:
        if c.endswith('_sec') or c.endswith('ratio'): t[c] = t[c].map(lambda v: f"{v:.3f}")
        elif c.endswith('_obj') or c.endswith('_reported'): t[c] = t[c].map(lambda v: f"{v:.6f}")
    L.append('| ' + ' | '.join(cols) + ' |')
    L.append('|' + '---|' * len(cols))
    for _, r in t.iterrows(): L.append('| ' + ' | '.join(str(v) for v in r) + ' |')
    Path(a.out + '.md').write_text('\n'.join(L) + '\n')
    print('\n'.join(L[:20]))


if __name__ == '__main__':
    main()
