"""Tiny-instance battery for the exact extraction solver (issue 23): every answer against brute-force enumeration.
GBM(n_estimators=T, max_depth=D, random_state=0) on Friedman #1 with n rows (data seed: instance index mod 7), rule
budget. Grid: T in {2,3,4} x D in {2,3} x n in {30,45,60} x K in {2,3,4} x gamma_rel in {0.1,1,10} = 162 instances;
each one is solved with a time limit (--tl, 15 s) and then enumerated exhaustively (every feasible support) as the
truth.
`--wide` runs a second grid instead, for budgets other than one per rule: T in {2,3,4} x D in {2,3} x n in {30,60} x
K in {2,3,4} x gamma_rel in {0.1,10} x budget attribute in {rules, depth, features, user} x roots allowed or not =
576 instances (user: costs drawn uniformly from [1, 2.5], not integers, so the relaxation's walk does not apply);
every third instance also has random integer row weights 0..3 (a weight 0 removes its row).
Usage: python benchmarks/extract_battery.py [--solver exact_solve|oa|branch_and_bound] [--tl 15] [--limit N] [--wide]"""
import time, itertools, json
import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.ensemble import GradientBoostingRegressor
from glassworks.extract import node_table, ExtractionProblem, outer_approximation
from glassworks.pruning import relative_gamma as _relative_gamma, ridge_on_support as _ridge_on_support
import glassworks.extract as E

def brute(prob, K):
    "Every antichain support within the budget (sum of a_i <= K), depth first: the least q and the number of supports."
    tab = prob.table
    cand = np.flatnonzero(prob.cand & (prob.a <= K + 1e-12)).tolist()
    anc = {int(i): set(tab.path(i)[:-1]) for i in cand}
    best = [_ridge_on_support(tab, prob.y, np.zeros(0, np.int64), prob.gamma)[2], 1]     # [least q, supports]
    def walk(start, S, used):
        for j in range(start, len(cand)):
            i = cand[j]
            if used + prob.a[i] > K + 1e-12 or any(i in anc[b] or b in anc[i] for b in S): continue
            S.append(i)
            best[1] += 1
            best[0] = min(best[0], _ridge_on_support(tab, prob.y, np.asarray(S, np.int64), prob.gamma)[2])
            walk(j + 1, S, used + prob.a[i])
            S.pop()
    walk(0, [], 0.0)
    return best[0], best[1]

def instances(wide=False):
    if not wide:
        for T, D, n, K, g in itertools.product([2, 3, 4], [2, 3], [30, 45, 60], [2, 3, 4], [0.1, 1.0, 10.0]):
            yield T, D, n, K, g, 'rules', False
        return
    for T, D, n, K, g, b, root in itertools.product([2, 3, 4], [2, 3], [30, 60], [2, 3, 4], [0.1, 10.0],
                                                    ['rules', 'depth', 'features', 'user'], [False, True]):
        yield T, D, n, K, g, b, root

def build(idx, T, D, n, g, budget, root):
    "The instance: boosted trees on Friedman #1, its budget attribute, roots allowed or not, maybe row weights."
    rng = np.random.default_rng(idx)
    X, y = make_friedman1(n, random_state=idx % 7)
    w = rng.integers(0, 4, n).astype(float) if budget != 'rules' and idx % 3 == 2 else None
    gb = GradientBoostingRegressor(n_estimators=T, max_depth=D, random_state=0).fit(X, y)
    tab = node_table(gb, X, sample_weight=w)
    a = rng.uniform(1.0, 2.5, tab.m) if budget == 'user' else tab.attribute(budget)
    yc = y - (np.average(y, weights=w) if w is not None else y.mean())
    prob = ExtractionProblem(tab, yc, 1.0, a, include_root=root)
    prob.gamma = _relative_gamma(tab, g, prob.cand)
    return prob, w is not None

def main(tl=15.0, solver='oa', limit=None, out=None, wide=False):
    rows = []
    for idx, (T, D, n, K, g, budget, root) in enumerate(instances(wide)):
        if limit and idx >= limit: break
        prob, weighted = build(idx, T, D, n, g, budget, root)
        t0 = time.perf_counter()
        if solver == 'oa': res = outer_approximation(prob, K, time_limit=tl)
        else: res = getattr(E, solver)(prob, K, time_limit=tl)
        dt = time.perf_counter() - t0
        qb, cnt = brute(prob, K)
        ok = res['status'] == 'optimal'
        rows.append(dict(T=T, D=D, n=n, K=K, g=g, budget=budget, root=root, weighted=weighted, supports=cnt,
                         status=res['status'], method=res.get('method', solver), sec=dt, upper=res['upper'],
                         lower=res['lower'], brute=qb, lb_ok=bool(res['lower'] <= qb * (1 + 1e-9) + 1e-9),
                         ub_ok=bool((not ok) or abs(res['upper'] - qb) <= 1e-6 * max(1, abs(qb)))))
        print(json.dumps(rows[-1]), flush=True)
    n_ok = sum(r['status'] == 'optimal' for r in rows)
    print(f"certified {n_ok}/{len(rows)}; wrong certified {sum(not r['ub_ok'] for r in rows)}; "
          f"bad LB {sum(not r['lb_ok'] for r in rows)}; "
          f"max sec {max(r['sec'] for r in rows):.2f}; total {sum(r['sec'] for r in rows):.1f}")

if __name__ == '__main__':
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument('--tl', type=float, default=15.0)
    p.add_argument('--solver', default='exact_solve')  # or 'oa' (outer approximation only), 'branch_and_bound'
    p.add_argument('--limit', type=int, default=None)
    p.add_argument('--wide', action='store_true', help='the second grid: other budgets, roots, row weights')
    a = p.parse_args()
    main(a.tl, a.solver, a.limit, wide=a.wide)
