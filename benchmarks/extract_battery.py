"""Tiny-instance battery for the exact extraction solver (issue 23): every answer against brute-force enumeration.
GBM(n_estimators=T, max_depth=D, random_state=0) on Friedman #1 with n rows (data seed: instance index mod 7), rule
budget. Grid: T in {2,3,4} x D in {2,3} x n in {30,45,60} x K in {2,3,4} x gamma_rel in {0.1,1,10} = 162 instances;
each one is solved with a time limit (--tl, 15 s) and then enumerated exhaustively (every feasible support) as the
truth.
Usage: python benchmarks/extract_battery.py [--solver exact_solve|oa|branch_and_bound] [--tl 15] [--limit N]"""
import time, itertools, json
import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.ensemble import GradientBoostingRegressor
from glassworks.extract import node_table, ExtractionProblem, outer_approximation
from glassworks.pruning import relative_gamma as _relative_gamma, ridge_on_support as _ridge_on_support
import glassworks.extract as E

def brute(prob, K):
    tab = prob.table
    cand = np.flatnonzero(prob.cand & (prob.a <= K))
    anc = {int(i): set(tab.path(i)[:-1]) for i in cand}
    best, cnt = 0.5 * prob.y @ prob.y, 1
    for k in range(1, int(K) + 1):
        for S in itertools.combinations(cand.tolist(), k):
            if any(a in anc[b] or b in anc[a] for a, b in itertools.combinations(S, 2)): continue
            cnt += 1
            q = _ridge_on_support(tab, prob.y, np.asarray(S, np.int64), prob.gamma)[2]
            best = min(best, q)
    return best, cnt

def instances():
    for T, D, n, K, g in itertools.product([2, 3, 4], [2, 3], [30, 45, 60], [2, 3, 4], [0.1, 1.0, 10.0]):
        yield T, D, n, K, g

def main(tl=15.0, solver='oa', limit=None, out=None):
    rows = []
    for idx, (T, D, n, K, g) in enumerate(instances()):
        if limit and idx >= limit: break
        X, y = make_friedman1(n, random_state=idx % 7)
        gb = GradientBoostingRegressor(n_estimators=T, max_depth=D, random_state=0).fit(X, y)
        tab = node_table(gb, X)
        prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute('rules'))
        prob.gamma = _relative_gamma(tab, g, prob.cand)
        t0 = time.perf_counter()
        if solver == 'oa': res = outer_approximation(prob, K, time_limit=tl)
        else: res = getattr(E, solver)(prob, K, time_limit=tl)
        dt = time.perf_counter() - t0
        qb, cnt = brute(prob, K)
        ok = res['status'] == 'optimal'
        rows.append(dict(T=T, D=D, n=n, K=K, g=g, supports=cnt, status=res['status'], sec=dt, upper=res['upper'],
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
    a = p.parse_args()
    main(a.tl, a.solver, a.limit)
