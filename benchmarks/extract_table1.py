"""Table 1 rows of `41_extract_experiments` one at a time: the exact solver at the paper's sizes (issue 23).

Each row is rebuilt as the "## Table 1" cell of nbs/41_extract_experiments.ipynb builds it: Friedman #1 (noise 1,
random_state 0) with n rows, GradientBoostingRegressor(n_estimators=T, max_depth=D, random_state=0), K = 20 rules,
the relative ridge gamma_rel (`relative_gamma`), the CBCD path `run_path(prob, 50, 1e-3, max_budget=K)` as warm
starts, then `exact_solve(prob, K, warm=..., time_limit=--time-limit)`. Relax-and-round (the cell's other column) is
not run. Printed per row: path and exact-solve seconds, status, relative gap in %, q of the exact solve and of the
path model at K, the branches expanded (the last stage's `iterations`), the dives made and their seconds, the stages
run.

Rows are written T/D/n/gamma_rel, e.g. 500/4/3000/1e-3; `--rows strong` is the six strong-ridge rows that ended at
the limit on 2026-11-25, `--rows weak` the three weak-ridge ones. `--dive-every`, `--dive-share`, `--branching`,
`--warm-start` and `--mix` are passed to `relax_and_branch` through `exact_solve(..., branch_options=...)` (unset:
its defaults). `--nodes N` runs `relax_and_branch` alone instead (started from the path's supports and the plane at
z = 0, no enumeration stage), stopped after N branches: the bound it reaches for a fixed amount of search, which does
not depend on the machine's speed; `lower` is then printed beside the gap.

Usage:
  taskset -c 0 python benchmarks/extract_table1.py [--rows strong | 100/3/1000/1e-2 ...] [--time-limit 60]
                                                   [--dive-every N] [--dive-share S] [--branching RULE]
                                                   [--warm-start] [--mix K] [--nodes N]
"""
from __future__ import annotations
import argparse, time

from sklearn.datasets import make_friedman1
from sklearn.ensemble import GradientBoostingRegressor

from glassworks.extract import node_table, ExtractionProblem, exact_solve
from glassworks.pruning import relative_gamma as _relative_gamma, run_path as _run_path, relax_and_branch

STRONG = ['100/3/1000/1e-2', '100/5/1000/1e-3', '500/4/1000/1e-4', '100/5/3000/1e-3', '500/4/3000/1e-4',
          '500/4/3000/1e-3']
WEAK = ['100/5/1000/1e-2', '500/4/1000/1e-3', '500/4/1000/1e-2']


def run_row(spec:str, time_limit:float, K:int=20, branch_options:dict|None=None, nodes:int|None=None) -> dict:
    """One Table 1 row, built as the notebook cell builds it; with `nodes`, `relax_and_branch` alone (from the path's
    supports and the plane at z = 0) stopped after that many branches instead of `exact_solve` with a time limit."""
    T, D, n, g_rel = spec.split('/')
    T, D, n, g_rel = int(T), int(D), int(n), float(g_rel)
    X, y = make_friedman1(n, noise=1.0, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=T, max_depth=D, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute('rules'))
    prob.gamma = _relative_gamma(tab, g_rel, prob.cand)
    t0 = time.perf_counter()
    path = _run_path(prob, 50, 1e-3, max_budget=K)
    t_path = time.perf_counter() - t0
    step = path.select(K)
    t0 = time.perf_counter()
    warm = [s.nodes for s in path.steps if s.budget_used <= K]
    if nodes:
        res = dict(relax_and_branch(prob, K, warm, node_limit=nodes, **(branch_options or {})), method='branch')
    else:
        res = exact_solve(prob, K, warm=warm, time_limit=time_limit,
                          **({'branch_options': branch_options} if branch_options else {}))
    t_ex = time.perf_counter() - t0
    return dict(row=spec, m=tab.m, path_s=t_path, exact_s=t_ex, status=res['status'], method=res['method'],
                gap_pct=100 * (res['upper'] - res['lower']) / res['upper'], q_exact=res['upper'], q_path=step.q,
                lower=res['lower'], nodes=res['iterations'], dives=res.get('dives', 0),
                dive_s=res.get('dive_seconds', 0.0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', nargs='+', default=['strong'], help="T/D/n/gamma_rel specs, or 'strong' / 'weak'")
    ap.add_argument('--time-limit', type=float, default=60.0)
    ap.add_argument('--dive-every', type=int)
    ap.add_argument('--dive-share', type=float)
    ap.add_argument('--branching', choices=['fractional', 'pseudocost', 'gradient'])
    ap.add_argument('--warm-start', action='store_true', help="children's Frank-Wolfe steps start at the parent's")
    ap.add_argument('--mix', type=int, help='planes mixed with the best at each node (0: none)')
    ap.add_argument('--nodes', type=int, help='relax_and_branch alone, stopped after this many branches')
    args = ap.parse_args()
    opts = {k: v for k, v in [('dive_every', args.dive_every), ('dive_share', args.dive_share),
                              ('branching', args.branching), ('mix', args.mix),
                              ('warm_start', True if args.warm_start else None)] if v is not None}
    print(f"branch options: {opts or 'defaults'}", flush=True)
    rows = []
    for r in args.rows: rows += STRONG if r == 'strong' else WEAK if r == 'weak' else [r]
    # numba compilation on a small instance first, so the first row's time is not the compiler's
    run_row('5/2/200/1e-2', 5.0, K=3, branch_options=opts)
    print(f"{'row':18} {'m':>6} {'path_s':>7} {'exact_s':>7} {'status':>11} {'gap_%':>7} {'q_exact':>11} "
          f"{'q_path':>11} {'nodes':>6} {'dives':>5} {'dive_s':>6} {'lower':>11}  method", flush=True)
    for spec in rows:
        d = run_row(spec, args.time_limit, branch_options=opts, nodes=args.nodes)
        print(f"{d['row']:18} {d['m']:6d} {d['path_s']:7.1f} {d['exact_s']:7.1f} {d['status']:>11} "
              f"{d['gap_pct']:7.3f} {d['q_exact']:11.2f} {d['q_path']:11.2f} {d['nodes']:6d} {d['dives']:5d} "
              f"{d['dive_s']:6.1f} {d['lower']:11.2f}  {d['method']}", flush=True)


if __name__ == '__main__':
    main()
