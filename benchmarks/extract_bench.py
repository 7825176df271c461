"""Rule-extraction benchmark (glassworks.extract), three parts, all in one process on this machine.

speed   A 500-tree depth-7 GradientBoostingRegressor on >= 6,000 rows (Friedman #1, n = --speed-n): the node count,
        the time of one CBCD solution (cold start, lambda = 0.01 lambda_max) and of a 50-value warm-started path
        (lambda_max .. 1e-3 lambda_max). Numba is compiled on a small warm-up first. The paper's figures for the
        same size (wind, 6,574 rows): < 30 s for one solution, < 4 min for the path.
exact   The exact outer-approximation solver at Table 1's smallest size: 100 trees, depth 3, n = 1000, K = 20
        (Friedman #1), for several relative gammas (gamma * median ||M_i||^2), each with --exact-time-limit:
        time, status, OA iterations, objective, lower bound, relative gap, and the CBCD path's best q at K = 20.
        The paper reports 1.69 s without stating gamma.
quality 5-fold test R^2 at K in {10, 15, 20, 25} on regression data sets, GradientBoostingRegressor(n_estimators=
        --trees, max_depth in --depths, learning_rate=0.1, subsample=0.5) fitted per training fold; ours is
        RuleExtractor(gb, max_rules=K) with its defaults (relative gamma chosen by 3-fold CV of the extraction on the
        training fold), against
          - leaves-only: RuleExtractor(gb, max_rules=K, leaves_only=True), the same path and the same gamma CV
            restricted to leaf nodes (a FIRE-like leaf selector, L0 instead of MCP),
          - LASSO on all node columns (sklearn lasso_path, largest model with <= K non-zeros; RuleFit's selection
            step without its linear terms),
          - imodels RuleFitRegressor(max_rules=K, include_linear=False, random_state=0) on its own trees.
        Ours and leaves-only take the path model with <= K rules and the smallest training q; weights are the
        joint ridge w*(S) of Problem (1) on the support. Rows are capped at --max-rows (random subset).

Usage:
  python benchmarks/extract_bench.py [--parts speed exact quality] [--datasets diabetes friedman1 ...]
                                     [--trees 100] [--depths 3 5] [--max-rows 3000] [--out benchmarks/results/extract]
                                     [--n-jobs N]   (quality part only: its cases in N joblib workers, same table)
Raw tables (insurance, boston, wages, used_cars, happiness_2015) need GLASSWORKS_DATA; unavailable ones are skipped.
"""
from __future__ import annotations
import argparse, itertools, platform, time, warnings
from pathlib import Path
import numpy as np
import pandas as pd

from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3, load_diabetes
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import KFold

from glassworks.extract import node_table, RuleExtractor, cbcd, outer_approximation, ExtractionProblem
from glassworks.pruning import (relative_gamma as _relative_gamma, run_path as _run_path,
                                ridge_on_support as _ridge_on_support)

DATASETS = ['diabetes', 'friedman1', 'friedman2', 'friedman3', 'insurance', 'boston', 'wages', 'used_cars',
            'happiness_2015']
KS = [10, 15, 20, 25]


def load_regression(name, max_rows, seed=0):
    "(X, y) as floats: generated, bundled, or a raw table (categoricals coded, NaN rows dropped, id-like text dropped)."
    if name == 'diabetes':
        X, y = load_diabetes(return_X_y=True)
    elif name.startswith('friedman'):
        gen = {'friedman1': make_friedman1, 'friedman2': make_friedman2, 'friedman3': make_friedman3}[name]
        X, y = gen(n_samples=2000, noise={'friedman1': 1.0, 'friedman2': 100.0, 'friedman3': 0.1}[name], random_state=7)
    else:
        from glassworks.datasets import load
        d = load(name, download=False)
        Xd = d.X.copy()
        yv = pd.Series(np.asarray(d.y, dtype=float))
        ok = ~Xd.isna().any(axis=1).to_numpy() & np.isfinite(yv.to_numpy())
        Xd, yv = Xd.loc[ok].reset_index(drop=True), yv[ok].reset_index(drop=True)
        for c in list(Xd.columns):
            if Xd[c].dtype.kind not in 'biuf':
                if Xd[c].nunique() > 50:
                    Xd = Xd.drop(columns=c)
                    continue
                Xd[c] = pd.Categorical(Xd[c]).codes
        X, y = Xd.to_numpy(float), yv.to_numpy(float)
    if len(X) > max_rows:
        idx = np.random.default_rng(seed).choice(len(X), max_rows, replace=False)
        X, y = X[idx], y[idx]
    return np.asarray(X, float), np.asarray(y, float)


def to_md(df, fmt='.3g'):
    "A pipe table without the optional `tabulate` dependency."
    cell = lambda v: format(v, fmt) if isinstance(v, (float, np.floating)) else str(v)
    lines = ['| ' + ' | '.join(map(str, df.columns)) + ' |', '|' + '---|' * len(df.columns)]
    lines += ['| ' + ' | '.join(cell(v) for v in row) + ' |' for row in df.itertuples(index=False)]
    return '\n'.join(lines)


def r2(y, f): return 1 - np.sum((y - f) ** 2) / np.sum((y - y.mean()) ** 2)


# ---------------------------------------------------------------- speed
def part_speed(args):
    X, y = make_friedman1(args.speed_n, noise=1.0, random_state=0)
    warm = GradientBoostingRegressor(n_estimators=3, max_depth=2).fit(X[:200], y[:200])
    RuleExtractor(warm, max_rules=3).fit(X[:200], y[:200])                       # numba compile
    t = time.perf_counter()
    gb = GradientBoostingRegressor(n_estimators=500, max_depth=7, learning_rate=0.1, subsample=0.5,
                                   random_state=0).fit(X, y)
    t_gb = time.perf_counter() - t
    t = time.perf_counter()
    tab = node_table(gb, X)
    t_tab = time.perf_counter() - t
    yc = y - y.mean()
    prob = ExtractionProblem(tab, yc, 1.0, tab.attribute('rules'))
    prob.gamma = _relative_gamma(tab, 10.0, prob.cand)
    lmax = prob.lambda_max()
    t = time.perf_counter()
    s = cbcd(prob, 0.01 * lmax)
    t_one = time.perf_counter() - t
    t = time.perf_counter()
    path = _run_path(prob, 50, 1e-3, y_mean=float(y.mean()))
    t_path = time.perf_counter() - t
    sizes = [st.n_rules for st in path.steps]
    rows = [dict(what='node table (500 trees, depth 7)', n=len(X), nodes=tab.m, seconds=t_tab, paper='-'),
            dict(what=f'one CBCD solution (lambda=0.01 lambda_max, {int(s.z.sum())} rules, {s.sweeps} sweeps)',
                 n=len(X), nodes=tab.m, seconds=t_one, paper='< 30 s'),
            dict(what=f'50-value CBCD path (sizes {sizes[0]}..{sizes[-1]})', n=len(X), nodes=tab.m, seconds=t_path,
                 paper='< 4 min (Table 2: 3 m 30 s at n=5000)'),
            dict(what='(fitting the GBR itself, for scale)', n=len(X), nodes=tab.m, seconds=t_gb, paper='-')]
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- exact
def part_exact(args):
    X, y = make_friedman1(1000, noise=1.0, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=100, max_depth=3, learning_rate=0.1, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    yc = y - y.mean()
    rows = []
    for g_rel in args.gammas:
        prob = ExtractionProblem(tab, yc, 1.0, tab.attribute('rules'))
        prob.gamma = _relative_gamma(tab, g_rel, prob.cand)
        t = time.perf_counter()
        path = _run_path(prob, 50, 1e-3, max_budget=20)
        warm = [s.nodes for s in path.steps if s.budget_used <= 20]
        q_path = min(_ridge_on_support(tab, yc, w, prob.gamma)[2] for w in warm)
        res = outer_approximation(prob, 20, warm=warm, time_limit=args.exact_time_limit)
        rows.append(dict(gamma_rel=g_rel, gamma_abs=prob.gamma, m=tab.m, binaries=res['n_binaries'],
                         seconds=time.perf_counter() - t, status=res['status'], oa_iterations=res['iterations'],
                         q_path=q_path, objective=res['upper'], lower_bound=res['lower'],
                         rel_gap=(res['upper'] - res['lower']) / res['upper'],
                         path_excess=(q_path - res['upper']) / res['upper']))
        print(rows[-1], flush=True)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- quality
def node_matrix(tab):
    "Sparse n x m matrix of all node columns (for the LASSO baseline)."
    from scipy import sparse
    n, T = tab.leaf_of.shape
    rows, cols = [], []
    for t in range(T):
        for k_leaf in np.unique(tab.leaf_of[:, t]):
            members = np.flatnonzero(tab.leaf_of[:, t] == k_leaf)
            for i in tab.path(k_leaf):
                rows.append(members)
                cols.append(np.full(len(members), i))
    r, c = np.concatenate(rows), np.concatenate(cols)
    return sparse.csc_matrix((tab.mu[c], (r, c)), shape=(n, tab.m))


def lasso_models(tab_tr, y_tr, Ks):
    from sklearn.linear_model import lasso_path
    M = node_matrix(tab_tr)
    yc = y_tr - y_tr.mean()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        alphas, coefs, _ = lasso_path(M, yc, n_alphas=100, eps=1e-4)
    nnz = (coefs != 0).sum(0)
    out = {}
    for K in Ks:
        ok = np.flatnonzero(nnz <= K)
        out[K] = coefs[:, ok[-1]] if len(ok) else np.zeros(tab_tr.m)
    return out


def quality_case(name, X, y, depth, fold, tr, te, args):
    "The rows of one (data set, depth, fold) case of the quality part: every method on the same training fold."
    rows = []
    Xtr, Xte, ytr, yte = X[tr], X[te], y[tr], y[te]
    gb = GradientBoostingRegressor(n_estimators=args.trees, max_depth=depth, learning_rate=0.1,
                                   subsample=0.5, random_state=fold).fit(Xtr, ytr)
    full = r2(yte, gb.predict(Xte))
    tab = node_table(gb, Xtr)
    tab_te = node_table(gb, Xte)
    base = dict(dataset=name, depth=depth, fold=fold, n=len(X), full_ensemble=full)
    rows.append(dict(base, method='full_ensemble', K=0, rules=tab.m, r2=full, seconds=np.nan))
    for method in ['ours', 'leaves_only']:
        for K in args.ks:
            t = time.perf_counter()
            ridge = args.gamma if args.gamma == 'cv' else 1 / args.gamma          # the estimator's ridge is 1 / gamma
            ex = RuleExtractor(gb, max_rules=K, ridge=ridge, leaves_only=method == 'leaves_only').fit(Xtr, ytr)
            rows.append(dict(base, method=method, K=K, rules=ex.model_.n_rules, gamma=ex.gamma_rel_,
                             r2=r2(yte, ex.predict(Xte)), seconds=time.perf_counter() - t))
    t = time.perf_counter()
    for K, w in lasso_models(tab, ytr, args.ks).items():
        nz = np.flatnonzero(w)
        f = ytr.mean() + tab_te.columns(nz) @ w[nz]
        rows.append(dict(base, method='lasso_nodes', K=K, rules=len(nz), r2=r2(yte, f),
                         seconds=time.perf_counter() - t))
    if depth != args.depths[0]: return rows   # RuleFit grows its own trees: once per fold
    try:
        from imodels import RuleFitRegressor
        for K in args.ks:
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                rf = RuleFitRegressor(max_rules=K, include_linear=False, random_state=0).fit(Xtr, ytr)
            nr = int(np.sum(np.asarray(rf.coef) != 0)) if hasattr(rf, 'coef') else np.nan
            rows.append(dict(base, depth=0, full_ensemble=np.nan, method='rulefit', K=K, rules=nr,
                             r2=r2(yte, rf.predict(Xte)), seconds=time.perf_counter() - t))
    except ImportError:
        pass
    return rows


def part_quality(args):
    """Every (data set, depth, fold) case, in this order; with `--n-jobs` the cases run in joblib workers (the active
    joblib backend, e.g. loky processes) and their rows are gathered in the same order, so the table is the serial
    one. Only R^2 is compared in this part; its `seconds` column is then measured under contention."""
    from joblib import Parallel, delayed
    cases = []
    for name in args.datasets:
        try: X, y = load_regression(name, args.max_rows)
        except Exception as e:
            print(f"skip {name}: {type(e).__name__}: {e}")
            continue
        print(f"{name}: n={len(X)} p={X.shape[1]}", flush=True)
        for depth, (fold, (tr, te)) in itertools.product(args.depths,
                                                         enumerate(KFold(5, shuffle=True, random_state=0).split(X))):
            cases.append((name, X, y, depth, fold, tr, te))
    out = Parallel(n_jobs=args.n_jobs)(delayed(quality_case)(*c, args) for c in cases)
    return pd.DataFrame([r for rows in out for r in rows])


def quality_tables(q, args):
    "Markdown: per depth, mean test R^2 per (dataset, K) and method, fold standard deviations, and the win shares."
    md = []
    rf = q[q.method == 'rulefit'].groupby(['dataset', 'K']).r2.agg(['mean', 'std'])
    for depth in args.depths:
        d = q[(q.depth == depth) & (q.method != 'full_ensemble')]
        tab = d.pivot_table(index=['dataset', 'K'], columns='method', values='r2', aggfunc='mean')
        tab['rulefit'] = rf['mean']
        full = q[(q.depth == depth) & (q.method == 'full_ensemble')].groupby('dataset').r2.mean()
        tab['full_ensemble'] = [full[ds] for ds, _ in tab.index]
        sd = d.pivot_table(index=['dataset', 'K'], columns='method', values='r2', aggfunc='std').add_suffix('_sd')
        gam = d[d.method == 'ours'].groupby(['dataset', 'K']).gamma.agg(
            lambda g: '/'.join(f"{v:g}" for v in sorted(set(g))))
        show = pd.concat([tab[['ours', 'leaves_only', 'rulefit', 'lasso_nodes', 'full_ensemble']],
                          sd[['ours_sd']], rf['std'].rename('rulefit_sd'), gam.rename('gamma_cv_ours')], axis=1)
        print(show.round(3).to_string())
        beat = (tab['ours'] >= tab['rulefit'] - 1e-12) & (tab['ours'] >= tab['leaves_only'] - 1e-12)
        per_ds = beat.groupby(level=0).all()
        wins = {m: float((tab['ours'] >= tab[m] - 1e-12).mean()) for m in ['leaves_only', 'rulefit', 'lasso_nodes']}
        md += [f"## Quality, depth {depth}: mean 5-fold test R^2 ({args.trees} trees, depth {depth}, "
               f"gamma {args.gamma})\n",
               to_md(show.reset_index(), '.3f'), '',
               'Share of (dataset, K) cells where ours >= the other method (mean over folds): '
               + ', '.join(f"{m}: {v:.2f}" for m, v in wins.items()) + '. ',
               f"Data sets where ours >= RuleFit and >= leaves-only at every K: {int(per_ds.sum())} of {len(per_ds)} "
               f"({', '.join(ds for ds, ok in per_ds.items() if ok)}).", '']
    return md


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--parts', nargs='+', default=['speed', 'exact', 'quality'], choices=['speed', 'exact', 'quality'])
    ap.add_argument('--datasets', nargs='+', default=DATASETS)
    ap.add_argument('--ks', nargs='+', type=int, default=KS)
    ap.add_argument('--trees', type=int, default=100, help='boosting trees in the quality part')
    ap.add_argument('--depths', nargs='+', type=int, default=[3, 5], help='tree depths in the quality part')
    ap.add_argument('--max-rows', type=int, default=3000)
    ap.add_argument('--gamma', default='cv', type=lambda v: v if v == 'cv' else float(v),
                    help="relative gamma of ours and leaves-only in the quality part: 'cv' (RuleExtractor's default) "
                         "or a number")
    ap.add_argument('--speed-n', type=int, default=6500)
    ap.add_argument('--gammas', nargs='+', type=float, default=[0.01, 0.1, 1.0])
    ap.add_argument('--exact-time-limit', type=float, default=60.0)
    ap.add_argument('--out', default='benchmarks/results/extract')
    ap.add_argument('--n-jobs', type=int, default=None,
                    help='joblib jobs over the (data set, depth, fold) cases of the quality part only '
                         '(R^2, not timed); the speed and exact parts always run serially')
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    md = [f"# Rule extraction benchmark\n\nMachine: {platform.machine()}, {platform.python_version()}; "
          f"command: `python benchmarks/extract_bench.py {' '.join(argv or __import__('sys').argv[1:])}`\n"]
    if 'speed' in args.parts:
        sp = part_speed(args)
        sp.to_csv(f"{out}_speed.csv", index=False)
        print(sp.to_string())
        md += ["## Speed (500 trees, depth 7)\n", to_md(sp), '']
    if 'exact' in args.parts:
        ex = part_exact(args)
        ex.to_csv(f"{out}_exact.csv", index=False)
        print(ex.to_string())
        md += ["## Exact solver, 100 trees / depth 3 / n = 1000 / K = 20\n", to_md(ex, '.4g'), '']
    if 'quality' in args.parts:
        q = part_quality(args)
        q.to_csv(f"{out}.csv", index=False)
        md += quality_tables(q, args)
    Path(f"{out}.md").write_text('\n'.join(md) + '\n')


if __name__ == '__main__':
    main()
