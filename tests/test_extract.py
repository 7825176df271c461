"""glassworks.extract: exact solver == brute force over antichains on tiny ensembles (hypothesis), per-tree DP ==
brute force, antichain counts, formula identities (Woodbury, gradient, Prop. 1, separability), CBCD monotone,
lambda_max -> empty model, feasibility of every returned support, estimator contract and bad input."""
import itertools
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.base import clone
from sklearn.datasets import make_friedman1
from sklearn.ensemble import (GradientBoostingRegressor, RandomForestRegressor, ExtraTreesRegressor,
                              GradientBoostingClassifier)
from sklearn.tree import DecisionTreeRegressor

from glassworks.extract import (node_table, q_value, is_antichain, cbcd, rule_path, outer_approximation, RuleExtractor,
                                ExtractionProblem)
from glassworks.pruning import ridge_on_support as _ridge_on_support, relative_gamma as _relative_gamma, _antichain_dp
from glassworks.validation import InputError, ParameterError
from sklearn.utils.estimator_checks import parametrize_with_checks
from glassworks.extract import branch_and_bound, exact_solve, relax_and_enumerate, relax_and_branch, q_fractional
from glassworks.pruning import _table_from_arrays


# ---------------------------------------------------------------- independent oracles (plain Python, no DP)
def all_antichains(tab, tree):
    "Every antichain of one tree by filtering ALL subsets through the pairwise ancestor test (small trees only)."
    nodes = np.flatnonzero(tab.tree == tree)
    anc = {int(i): set(tab.path(i)[:-1]) for i in nodes}
    out = []
    for k in range(len(nodes) + 1):
        for S in itertools.combinations(nodes.tolist(), k):
            if all(a not in anc[b] and b not in anc[a] for a, b in itertools.combinations(S, 2)): out.append(S)
    return out


def brute_budget(prob, K):
    "min q over every support with a'z <= K that passes the pairwise antichain test (any size: some nodes may cost 0)."
    tab = prob.table
    cand = np.flatnonzero(prob.cand & (prob.a <= K)).tolist()
    anc = {int(i): set(tab.path(i)[:-1]) for i in cand}
    best = [0.5 * prob.y @ tab.weigh(prob.y), ()]          # the empty model (weighted residual)
    def grow(start, S, used):
        for j in range(start, len(cand)):
            i = cand[j]
            if used + prob.a[i] > K + 1e-12 or any(i in anc[s] or s in anc[i] for s in S): continue
            q = _ridge_on_support(tab, prob.y, np.asarray(sorted(S + [i]), np.int64), prob.gamma)[2]
            if q < best[0]: best[:] = [q, tuple(S + [i])]
            grow(j + 1, S + [i], used + prob.a[i])
    grow(0, [], 0.0)
    return tuple(best)


def q_direct(tab, y, z, gamma):
    "n x n form of q(z) for any z in [0,1]^m."
    M = tab.columns(np.arange(tab.m))
    return 0.5 * y @ np.linalg.solve(np.eye(len(y)) + gamma * (M * z) @ M.T, y)


def _full_tree(D, seed=0):
    X = np.arange(2.0 ** (D + 3))[:, None]          # y = x: the MSE split is the median, so the tree is full
    y = X[:, 0].copy() if D else np.zeros(len(X))
    return node_table(DecisionTreeRegressor(max_depth=max(D, 1)).fit(X, y), X)


# ---------------------------------------------------------------- node table
@pytest.mark.parametrize("D,count", [(0, 2), (1, 5), (2, 26), (3, 677)])
def test_antichain_counts(D, count):
    tab = _full_tree(D)
    assert tab.m == 2 ** (D + 1) - 1
    assert len(all_antichains(tab, 0)) == count


@pytest.mark.parametrize("make", [
    lambda: GradientBoostingRegressor(n_estimators=6, max_depth=3, subsample=0.7, random_state=0),
    lambda: RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0),
    lambda: ExtraTreesRegressor(n_estimators=5, max_depth=3, random_state=0),
    lambda: DecisionTreeRegressor(max_leaf_nodes=7, random_state=0)])
def test_leaf_columns_rebuild_the_ensemble(make):
    X, y = make_friedman1(150, random_state=2)
    ens = make().fit(X, y)
    tab = node_table(ens, X)
    diff = ens.predict(X) - tab.columns(np.flatnonzero(tab.is_leaf)).sum(1)
    assert np.ptp(diff) < 1e-9
    # membership by the preorder ranges == routing rows with the original tree (node sums of ones == counts)
    assert np.allclose(tab.node_sums(np.ones(len(X))), tab.count)
    assert np.all(tab.count[tab.parent[tab.parent >= 0]] >= tab.count[tab.parent >= 0])


def test_xgboost_lightgbm_tables():
    X, y = make_friedman1(150, random_state=2)
    for mod in ['xgboost', 'lightgbm']:
        lib = pytest.importorskip(mod)
        ens = (lib.XGBRegressor(n_estimators=5, max_depth=3) if mod == 'xgboost'
               else lib.LGBMRegressor(n_estimators=5, num_leaves=6, verbose=-1)).fit(X, y)
        tab = node_table(ens, X)
        assert np.ptp(ens.predict(X) - tab.columns(np.flatnonzero(tab.is_leaf)).sum(1)) < 1e-4
        ex = RuleExtractor(ens, max_rules=4).fit(X, y)
        assert ex.model_.n_rules <= 4 and ex.score(X, y) > 0


# ---------------------------------------------------------------- formula identities (spec 6.6 item 4)
def test_formula_identities():
    X, y = make_friedman1(120, random_state=3)
    tab = node_table(GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0).fit(X, y), X)
    yc, rng = y - y.mean(), np.random.default_rng(0)
    for gamma in [0.01, 0.3, 5.0]:
        for _ in range(5):
            S = np.asarray(sorted(rng.choice(tab.m, size=4, replace=False)), np.int64)
            z = np.zeros(tab.m)
            z[S] = 1
            q, g, w = q_value(tab, yc, S, gamma)
            assert np.isclose(q, q_direct(tab, yc, z, gamma), rtol=1e-9)          # Woodbury
            MS = tab.columns(S)
            assert np.isclose(q, 0.5 * np.sum((yc - MS @ w) ** 2) + 0.5 * w @ w / gamma, rtol=1e-9)  # Prop. 1
            h = 1e-5
            for i in rng.choice(tab.m, 4, replace=False):                           # gradient (one-sided at 0/1)
                e = np.zeros(tab.m)
                e[i] = h
                fd = (q_direct(tab, yc, z + e, gamma) - q_direct(tab, yc, z - e, gamma)) / (2 * h)
                assert np.isclose(g[i], fd, rtol=1e-4, atol=1e-6 * abs(q))
            u = rng.uniform(size=tab.m)                                             # convexity: cut below q
            assert q_direct(tab, yc, u, gamma) >= q + g @ (u - z) - 1e-7 * q


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), depth=st.integers(1, 3), lam=st.floats(0, 2), gamma=st.floats(0.05, 20),
       budget=st.sampled_from(['rules', 'depth', 'features']))
def test_block_dp_equals_brute_force_and_is_separable(seed, depth, lam, gamma, budget):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(60, 3))
    r = rng.normal(size=60)
    tab = node_table(DecisionTreeRegressor(max_depth=depth, random_state=0).fit(X, rng.normal(size=60)), X)
    a = tab.attribute(budget)
    c = tab.mu * tab.node_sums(r)
    v = c ** 2 / (2 * (1 / gamma + tab.norms)) - lam * a
    best_bf = -np.inf
    for S in all_antichains(tab, 0):
        S = np.asarray(S, np.int64)
        exact = _ridge_on_support(tab, r, S, gamma)[2] + lam * a[S].sum()
        assert np.isclose(exact, 0.5 * r @ r - v[S].sum(), rtol=1e-10, atol=1e-10)   # orthogonality
        best_bf = max(best_bf, v[S].sum())
    best, take, chosen = np.zeros(tab.m), np.zeros(tab.m, np.bool_), np.zeros(tab.m, np.int64)
    k = _antichain_dp(v, 0, tab.m, tab.left, tab.right, tab.end, best, take, chosen)
    assert is_antichain(tab, chosen[:k])
    assert np.isclose(v[chosen[:k]].sum(), best_bf, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- exact solver vs brute force (spec 6.6 item 1)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), K=st.integers(1, 3), g_rel=st.sampled_from([0.1, 1.0, 5.0]),
       budget=st.sampled_from(['rules', 'depth']), root=st.booleans())
def test_exact_equals_brute_force(seed, K, g_rel, budget, root):
    X, y = make_friedman1(120, random_state=seed)
    tab = node_table(GradientBoostingRegressor(n_estimators=3, max_depth=2, random_state=seed).fit(X, y), X)
    prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute(budget), include_root=root and budget == 'rules')
    prob.gamma = _relative_gamma(tab, g_rel, prob.cand)
    res = outer_approximation(prob, K, max_iter=400)
    q_bf, S_bf = brute_budget(prob, K)
    assert res['status'] == 'optimal'
    assert np.isclose(res['upper'], q_bf, rtol=1e-6)
    assert res['lower'] <= q_bf * (1 + 1e-9) and res['lower'] >= q_bf * (1 - 1e-6)
    assert is_antichain(tab, res['nodes']) and prob.a[res['nodes']].sum() <= K


def test_cuts_reused_across_K_and_exact_never_worse_than_path():
    X, y = make_friedman1(200, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=8, max_depth=2, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute('rules'))
    prob.gamma = _relative_gamma(tab, 1.0, prob.cand)
    path = rule_path(gb, X, y, n_lambdas=30, gamma=1.0)
    cuts, prev = [], np.inf
    for K in [1, 2, 3, 4]:
        n_before = len(cuts)
        res = outer_approximation(prob, K, warm=[s.nodes for s in path.steps if s.budget_used <= K], cuts=cuts)
        assert len(cuts) > n_before and res['status'] == 'optimal'
        assert res['upper'] <= prev + 1e-9                           # more budget never hurts
        assert res['upper'] <= path.select(K).q * (1 + 1e-12)        # exact <= approximate (Fig. 9)
        prev = res['upper']


# ---------------------------------------------------------------- CBCD (spec 6.6 item 5)
def test_cbcd_monotone_lambda_max_and_feasible():
    X, y = make_friedman1(300, random_state=1)
    gb = GradientBoostingRegressor(n_estimators=40, max_depth=3, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    for budget in ['rules', 'depth', 'features']:
        prob = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute(budget))
        prob.gamma = _relative_gamma(tab, 10.0, prob.cand)
        lmax = prob.lambda_max()
        assert cbcd(prob, lmax).z.sum() == 0 and cbcd(prob, 3 * lmax).z.sum() == 0
        assert cbcd(prob, 0.95 * lmax).z.sum() >= 1
        for lam in [0.5 * lmax, 0.05 * lmax, 1e-3 * lmax]:
            tr = []
            s = cbcd(prob, lam, trace=tr)
            assert np.all(np.diff(tr) <= 1e-9 * abs(tr[0]))
            nodes = np.flatnonzero(s.z)
            assert is_antichain(tab, nodes) and np.all(prob.cand[nodes])
            # the residual kept by CBCD is y - sum M w
            assert np.allclose(s.r, prob.y - tab.columns(nodes) @ s.w[nodes], atol=1e-8)


def test_path_grows_and_objective_decreases():
    X, y = make_friedman1(300, random_state=1)
    gb = GradientBoostingRegressor(n_estimators=30, max_depth=3, random_state=0).fit(X, y)
    p = rule_path(gb, X, y, n_lambdas=25)
    df = p.to_frame()
    assert df.n_rules.iloc[0] == 0 and df.n_rules.iloc[-1] > 10
    assert np.all(np.diff(df.objective) <= 1e-9 * df.objective.iloc[0])   # F(lam) decreases as lam decreases
    for s in p.steps: assert is_antichain(p.table, s.nodes)
    step = p.select(5)
    assert step.budget_used <= 5
    m = p.model(step)
    # prediction on the training rows == y_mean + M_S w
    assert np.allclose(m.predict(X), p.y_mean + p.table.columns(step.nodes) @ step.weights)


# ---------------------------------------------------------------- estimator
def test_estimator_contract_and_names():
    X, y = make_friedman1(300, random_state=0)
    Xf = pd.DataFrame(X, columns=[f"feat_{j}" for j in range(X.shape[1])])
    gb = GradientBoostingRegressor(n_estimators=30, max_depth=3, random_state=0).fit(Xf, y)
    ex = RuleExtractor(gb, max_rules=6).fit(Xf, y)
    assert ex.model_.n_rules <= 6 and 'feat_' in str(ex.model_)
    assert np.allclose(ex.predict(Xf), ex.model_.predict(X))
    assert ex.objective_ >= 0 and not ex.optimal_ and ex.lower_bound_ == 0
    assert 'heuristic' in ex.summary() and 'gap' not in ex.summary() and 'lower bound' not in ex.summary()
    # the exact solver on a small ensemble: never worse than the CBCD path it starts from, certified
    small = GradientBoostingRegressor(n_estimators=6, max_depth=2, random_state=0).fit(Xf, y)
    ex1 = RuleExtractor(small, max_rules=4, ridge=1 / 0.3).fit(Xf, y)
    ex2 = clone(ex1).set_params(solver='exact', time_limit=20).fit(Xf, y)
    assert ex2.objective_ <= ex1.objective_ + 1e-9
    assert ex2.optimal_ and ex2.lower_bound_ <= ex2.objective_ and ex2.gap_ >= 0 and ex2.stats_['trace']
    assert 'optimal' in ex2.summary() and 'lower bound' in ex2.summary()
    exp = RuleExtractor(gb, regularization=0.2).fit(Xf, y)
    assert exp.model_.n_rules >= 1
    assert RuleExtractor(gb, regularization=1.0).fit(Xf, y).model_.n_rules == 0


def test_unfitted_ensemble_is_fitted_and_time_limit():
    X, y = make_friedman1(200, random_state=0)
    ex = RuleExtractor(GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0), max_rules=3).fit(X, y)
    assert ex.model_.n_rules <= 3 and hasattr(ex.ensemble_, 'estimators_') and not hasattr(ex.ensemble, 'estimators_')
    gb = GradientBoostingRegressor(n_estimators=60, max_depth=3, random_state=0).fit(X, y)
    ex = RuleExtractor(gb, max_rules=10, solver='exact', ridge=0.1, time_limit=2).fit(X, y)
    assert ex.fit_time_ < 6 and ex.stats_['budget_used'] <= 10
    # stopped by the limit: the incumbent (a feasible model at least as good as the CBCD start) with an open gap
    assert ex.stats_['oa_status'] == 'time_limit' and not ex.optimal_
    assert 0 <= ex.lower_bound_ < ex.objective_ and ex.gap_ == pytest.approx(ex.objective_ - ex.lower_bound_)
    assert ex.objective_ <= RuleExtractor(gb, max_rules=10, ridge=0.1).fit(X, y).objective_ + 1e-9
    assert is_antichain(ex.table_, ex.nodes_) and 'time_limit' in ex.summary() and 'gap' in ex.summary()
    assert np.isclose(ex.objective_, _ridge_on_support(ex.table_, y - y.mean(), ex.nodes_, ex.gamma_)[2])


def test_bad_input():
    X, y = make_friedman1(80, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=3, max_depth=2).fit(X, y)
    Xn = X.copy()
    Xn[3, 2] = np.nan
    with pytest.raises(InputError, match='NaN'): RuleExtractor(gb, max_rules=2).fit(Xn, y)
    for K in [0, -1]:
        with pytest.raises(ParameterError, match='max_rules'): RuleExtractor(gb, max_rules=K).fit(X, y)
    with pytest.raises(ParameterError, match='max_rules'): RuleExtractor(gb, solver='exact').fit(X, y)
    with pytest.raises(InputError, match='classifier'):
        RuleExtractor(GradientBoostingClassifier(n_estimators=2).fit(X, y > 14), max_rules=2).fit(X, y)
    with pytest.raises(InputError, match='features'): RuleExtractor(gb, max_rules=2).fit(X[:, :4], y)
    with pytest.raises(InputError, match='not fitted'): node_table(GradientBoostingRegressor(), X)
    with pytest.raises(InputError, match="unsupported"): node_table(object(), X)
    with pytest.raises(ParameterError): RuleExtractor(gb, max_rules=2, solver='milp').fit(X, y)
    with pytest.raises(ParameterError): RuleExtractor(gb, max_rules=2, ridge=0).fit(X, y)
    ex = RuleExtractor(gb, max_rules=2).fit(X, y)
    with pytest.raises(InputError, match='expecting 10 features'): ex.predict(X[:, :3])
    with pytest.raises(InputError, match='NaN'): ex.predict(Xn)
    yn = y.copy()
    yn[5] = np.nan
    with pytest.raises(InputError, match='NaN'): RuleExtractor(gb, max_rules=2).fit(X, yn)
    with pytest.raises(InputError, match='classifier'):          # also when the classifier is unfitted
        RuleExtractor(GradientBoostingClassifier(n_estimators=2), max_rules=2).fit(X, y)
    with pytest.raises(InputError, match='unsupported'): RuleExtractor(object(), max_rules=2).fit(X, y)
    for K in [2.5, True, '3']:                                   # the built-in budgets are integers
        with pytest.raises(ParameterError, match='max_rules'): RuleExtractor(gb, max_rules=K).fit(X, y)
    with pytest.raises(ParameterError, match='max_rules'): RuleExtractor(gb, max_rules=2.5, budget='depth').fit(X, y)
    with pytest.raises(ParameterError, match='budget'): RuleExtractor(gb, max_rules=2, budget=np.ones(3)).fit(X, y)
    with pytest.raises(InputError, match='Reshape'): ex.predict(X[0])
    with pytest.raises(InputError, match='y to be passed'): RuleExtractor(gb, max_rules=2).fit(X, None)


def test_real_budget_constant_y_and_pandas_unfitted():
    X, y = make_friedman1(120, random_state=0)
    gb = GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=0).fit(X, y)
    tab = node_table(gb, X)
    ex = RuleExtractor(gb, max_rules=2.5, budget=0.5 + tab.depth).fit(X, y)   # a user cost array takes a real K
    assert ex.stats_['budget_used'] <= 2.5 and ex.model_.n_rules >= 1
    # penalty + exact: OA starts from the penalised CBCD solution, so it is never worse
    e0 = RuleExtractor(gb, max_rules=6, regularization=0.2, ridge=1.0).fit(X, y)
    e1 = clone(e0).set_params(solver='exact', time_limit=10).fit(X, y)
    assert e1.objective_ <= e0.objective_ + 1e-9 and e1.stats_['budget_used'] <= 6
    # constant y: nothing to explain, the empty model predicting the constant (also with an unfitted ensemble)
    for ens in [gb, GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=0)]:
        ec = RuleExtractor(ens, max_rules=3).fit(X, np.full(len(X), 4.0))
        assert ec.model_.n_rules == 0 and np.allclose(ec.predict(X), 4.0) and ec.objective_ == 0
    # pandas in, an unfitted ensemble fitted inside, the column names in the rule text and checked at predict
    Xf = pd.DataFrame(X, columns=[f"col {j}" for j in range(X.shape[1])])
    ep = RuleExtractor(GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0), max_rules=3).fit(Xf, y)
    assert list(ep.feature_names_in_) == list(Xf.columns) and 'col ' in ep.model_.to_text()
    assert np.allclose(ep.predict(Xf[Xf.columns[::-1]]), ep.predict(Xf))      # column order by name
    with pytest.raises(InputError, match='missing'): ep.predict(Xf.drop(columns='col 3'))
    # an ensemble fitted on named columns: a reordered DataFrame is aligned by name (it used to be routed by position)
    gbf = GradientBoostingRegressor(n_estimators=10, max_depth=2, random_state=0).fit(Xf, y)
    rev = Xf[Xf.columns[::-1]]
    e_ok, e_rev = RuleExtractor(gbf, max_rules=4).fit(Xf, y), RuleExtractor(gbf, max_rules=4).fit(rev, y)
    assert np.allclose(e_rev.predict(Xf), e_ok.predict(Xf)) and e_rev.score(Xf, y) > 0.5
    assert np.allclose(node_table(gbf, rev).leaf_of, node_table(gbf, Xf).leaf_of)
    assert rule_path(gbf, rev, y, n_lambdas=8).steps[-1].q == pytest.approx(
        rule_path(gbf, Xf, y, n_lambdas=8).steps[-1].q)
    with pytest.raises(InputError, match='differ'):
        RuleExtractor(gbf, max_rules=4).fit(Xf.rename(columns={'col 0': 'z'}), y)


def test_faithful_block_oa_equals_dp():
    from glassworks.pruning import _block_outer_approximation
    X, y = make_friedman1(150, random_state=4)
    tab = node_table(GradientBoostingRegressor(n_estimators=4, max_depth=3, random_state=0).fit(X, y), X)
    p_dp = ExtractionProblem(tab, y - y.mean(), 1.0, tab.attribute('rules'))
    p_dp.gamma = _relative_gamma(tab, 2.0, p_dp.cand)
    lam = 0.05 * p_dp.lambda_max()
    for t in range(tab.n_trees):
        S, w, val = _block_outer_approximation(p_dp, t, p_dp.y, lam)
        s = p_dp.empty()
        p_dp.sweep(s, lam, [t])
        assert np.isclose(val, p_dp.objective(s, lam), rtol=1e-7)
        assert is_antichain(tab, S)
    p_oa = ExtractionProblem(tab, y - y.mean(), p_dp.gamma, tab.attribute('rules'))
    p_oa.block = 'oa'
    tr = []
    s_oa = cbcd(p_oa, lam, trace=tr)
    assert np.all(np.diff(tr) <= 1e-9 * abs(tr[0]))
    assert np.isclose(p_oa.objective(s_oa, lam), p_dp.objective(cbcd(p_dp, lam), lam), rtol=1e-6)


def test_validation_selection():
    X, y = make_friedman1(300, random_state=1)
    Xv, yv = make_friedman1(200, random_state=2)
    gb = GradientBoostingRegressor(n_estimators=20, max_depth=3, random_state=0).fit(X, y)
    p = rule_path(gb, X, y, n_lambdas=20)
    best, loose = p.select_validation(Xv, yv), p.select_validation(Xv, yv, tol=0.05)
    assert loose.budget_used <= best.budget_used


def test_gamma_cv_prefers_shrinkage_on_noise():
    """On a pure-noise target the extraction's CV picks a strong ridge (small gamma), and generalises better than
    gamma=10."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(400, 5))
    y = rng.normal(size=400)
    Xt = rng.uniform(size=(400, 5))
    yt = rng.normal(size=400)
    gb = GradientBoostingRegressor(n_estimators=50, max_depth=4, random_state=0).fit(X, y)
    e_cv = RuleExtractor(gb, max_rules=20).fit(X, y)
    e_10 = RuleExtractor(gb, max_rules=20, ridge=0.1).fit(X, y)
    assert e_cv.gamma_rel_ <= 0.1 and e_cv.gamma_rel_ == min(e_cv.cv_results_, key=e_cv.cv_results_.get)
    mse = lambda e: np.mean((yt - e.predict(Xt)) ** 2)
    assert mse(e_cv) < mse(e_10)


def test_gamma_cv_keeps_weak_ridge_without_noise():
    "On a noise-free piecewise-constant target the CV does not pick the strongest ridge."
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(400, 3))
    y = 3.0 * (X[:, 0] > 0.5) + 2.0 * (X[:, 1] > 0.3) * (X[:, 2] <= 0.6)
    gb = GradientBoostingRegressor(n_estimators=30, max_depth=3, random_state=0).fit(X, y)
    e = RuleExtractor(gb, max_rules=10).fit(X, y)
    assert e.gamma_rel_ > min(e.cv_results_)


def test_leaves_only():
    X, y = make_friedman1(300, random_state=1)
    gb = GradientBoostingRegressor(n_estimators=20, max_depth=3, random_state=0).fit(X, y)
    e = RuleExtractor(gb, max_rules=8, leaves_only=True, ridge=1.0).fit(X, y)
    assert e.model_.n_rules <= 8 and e.table_.is_leaf[e.nodes_].all()
    assert (e.table_.depth[e.nodes_] == 3).all()


# ---------------------------------------------------------------- scikit-learn's estimator checks

_EXPECTED_CHECKS = {'RandomForestRegressor': {
    'check_sample_weight_equivalence_on_dense_data':
        "the unfitted forest is fitted inside, and a random forest is not weight-equivalent itself: its bootstrap "
        "draws rows, so a row repeated k times is drawn differently from a weight of k (scikit-learn expects the "
        "same failure of RandomForestRegressor); the extraction's own equivalence is tested with fitted ensembles "
        "(test_sample_weight_*)"}}


@parametrize_with_checks([RuleExtractor(DecisionTreeRegressor(max_depth=3, random_state=0)),
                          RuleExtractor(GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=0),
                                        max_rules=4, n_lambdas=20),
                          RuleExtractor(RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0),
                                        regularization=0.1, budget='depth')],
                         expected_failed_checks=lambda est: _EXPECTED_CHECKS.get(type(est.ensemble).__name__, {}))
def test_sklearn_estimator_checks(estimator, check):
    """Every check passes but one, listed with its reason. The inner ensembles get a `random_state`: scikit-learn's
    checks seed only a top-level `random_state`, and an unseeded boosting ensemble breaks ties between features at
    random. (`solver='exact'` also passes every check, run once by hand, but its time limits make it ~2 min: not
    here.)"""
    check(estimator)


def test_exact_solver_after_another_highs_model():
    "HiGHS >= 1.16 keeps one thread pool per process: the exact solver must still solve after another model ran."
    import highspy
    h = highspy.Highs()
    h.setOptionValue('output_flag', False)
    h.addCols(2, np.array([-1., -1.]), np.zeros(2), np.ones(2), 0, np.array([], np.int32), np.array([], np.int32),
              np.array([]))
    h.run()
    X, y = make_friedman1(200, random_state=1)
    gb = GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0).fit(X, y)
    ex = RuleExtractor(gb, max_rules=2, solver='exact', ridge=1 / 0.3).fit(X, y)
    assert ex.optimal_ and ex.stats_['oa_iterations'] < 100


# ---------------------------------------------------------------- sample weights
def _weighted_data(seed, n=60, zeros=True):
    "A small boosted ensemble fitted WITHOUT weights (so only the extraction sees them) and integer weights."
    X, y = make_friedman1(n, random_state=seed)
    gb = GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=seed).fit(X, y)
    w = np.random.default_rng(seed).integers(0 if zeros else 1, 4, size=n)
    return X, y, gb, w


def _repeat(X, y, w, seed, *cols):
    "Each row k repeated w_k times (rows with w_k = 0 removed), in shuffled order; extra columns repeated alongside."
    idx = np.random.default_rng(100 + seed).permutation(np.repeat(np.arange(len(y)), w))
    return (X[idx], y[idx], *[np.asarray(c)[idx] for c in cols])


def _assert_same_fit(e1, e2, X):
    assert np.array_equal(e1.nodes_, e2.nodes_)
    np.testing.assert_allclose(e1.model_.weights, e2.model_.weights, rtol=1e-8, atol=1e-10)
    assert e1.y_mean_ == pytest.approx(e2.y_mean_, rel=1e-12)
    assert e1.objective_ == pytest.approx(e2.objective_, rel=1e-8)
    assert e1.gamma_ == pytest.approx(e2.gamma_, rel=1e-12)
    assert [r.n_samples for r in e1.model_.rules] == [r.n_samples for r in e2.model_.rules]
    np.testing.assert_allclose(e1.predict(X), e2.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("params", [dict(solver='cbcd', max_rules=4), dict(solver='cbcd', regularization=0.05),
                                    dict(solver='exact', max_rules=3, time_limit=30)])
def test_sample_weight_integer_equals_repeated_rows(seed, params):
    "Integer weights (zeros included) == the rows repeated that many times, at a fixed gamma, path and exact solver."
    X, y, gb, w = _weighted_data(seed)
    Xr, yr = _repeat(X, y, w, seed)
    e_w = RuleExtractor(gb, ridge=2.0, **params).fit(X, y, sample_weight=w)
    e_r = RuleExtractor(gb, ridge=2.0, **params).fit(Xr, yr)
    _assert_same_fit(e_w, e_r, X)
    assert e_w.model_.n_rules >= 1
    if params['solver'] == 'exact': assert e_w.optimal_ and e_r.optimal_
    # and the weights matter: the unweighted fit is a different model
    e_u = RuleExtractor(gb, ridge=2.0, **params).fit(X, y)
    assert not np.isclose(e_u.y_mean_, e_w.y_mean_)


def test_sample_weight_cv_score_is_weighted():
    "With the same (train, validation) split of the original rows, the CV errors of weights and repeats agree."
    X, y, gb, w = _weighted_data(3, zeros=False)
    g = np.arange(len(y)) % 3
    Xr, yr, gr = _repeat(X, y, w, 3, g)
    split = lambda grp: [(np.flatnonzero(grp != k), np.flatnonzero(grp == k)) for k in range(3)]
    e_w = RuleExtractor(gb, max_rules=4, ridge=[100.0, 1.0, 0.1], cv=split(g)).fit(X, y, sample_weight=w)
    e_r = RuleExtractor(gb, max_rules=4, ridge=[100.0, 1.0, 0.1], cv=split(gr)).fit(Xr, yr)
    assert sorted(e_w.cv_results_) == sorted(e_r.cv_results_) == [0.01, 1.0, 10.0]
    for k in e_w.cv_results_: assert e_w.cv_results_[k] == pytest.approx(e_r.cv_results_[k], rel=1e-8)
    assert e_w.gamma_rel_ == e_r.gamma_rel_
    _assert_same_fit(e_w, e_r, X)


@pytest.mark.parametrize("ridge", [2.0, 'cv'])
@pytest.mark.parametrize("solver", ['cbcd', 'exact'])
def test_sample_weight_zero_equals_dropping_rows(ridge, solver):
    "Zero weights remove their rows, also from the CV folds (the folds are drawn over the rows with positive weight)."
    X, y, gb, _ = _weighted_data(4)
    keep = np.random.default_rng(4).uniform(size=len(y)) > 0.3
    params = dict(max_rules=3, ridge=ridge, solver=solver, time_limit=30)
    e_z = RuleExtractor(gb, **params).fit(X, y, sample_weight=keep.astype(float))
    e_d = RuleExtractor(gb, **params).fit(X[keep], y[keep])
    _assert_same_fit(e_z, e_d, X)
    assert e_z.cv_results_.keys() == e_d.cv_results_.keys()
    for k in e_z.cv_results_: assert e_z.cv_results_[k] == pytest.approx(e_d.cv_results_[k], rel=1e-10)
    # unit weights are the unweighted fit, bit for bit
    e_1 = RuleExtractor(gb, **params).fit(X, y, sample_weight=np.ones(len(y)))
    e_0 = RuleExtractor(gb, **params).fit(X, y)
    assert np.array_equal(e_1.nodes_, e_0.nodes_) and np.array_equal(e_1.model_.weights, e_0.model_.weights)


def test_sample_weight_bad_input():
    X, y, gb, _ = _weighted_data(0, n=40)
    ex = RuleExtractor(gb, max_rules=2, ridge=1.0)
    bad = {'negative': np.r_[-1.0, np.ones(39)], 'NaN': np.r_[np.nan, np.ones(39)], 'entries': np.ones(39),
           'zero': np.zeros(40)}
    for msg, sw in bad.items():
        with pytest.raises(InputError, match=msg): ex.fit(X, y, sample_weight=sw)
    with pytest.raises(InputError): ex.fit(X, y, sample_weight=np.ones((40, 2)))
    with pytest.raises(InputError, match='negative'): node_table(gb, X, sample_weight=np.r_[-1.0, np.ones(39)])


class _NoWeightTree(DecisionTreeRegressor):
    "A regressor whose fit takes no sample_weight."
    def fit(self, X, y): return super().fit(X, y)


def test_sample_weight_passed_to_unfitted_ensemble():
    X, y, _, w = _weighted_data(5, zeros=False)
    gb = GradientBoostingRegressor(n_estimators=5, max_depth=2, random_state=0)
    ex = RuleExtractor(gb, max_rules=3, ridge=1.0).fit(X, y, sample_weight=w)
    ref = clone(gb).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ex.ensemble_.predict(X), ref.predict(X))
    assert not np.array_equal(ex.ensemble_.predict(X), clone(gb).fit(X, y).predict(X))
    # the extraction then sees the same weights: as if the weighted ensemble had been passed in fitted
    _assert_same_fit(ex, RuleExtractor(ref, max_rules=3, ridge=1.0).fit(X, y, sample_weight=w), X)
    nw = _NoWeightTree(max_depth=2, random_state=0)
    assert RuleExtractor(nw, max_rules=2, ridge=1.0).fit(X, y).model_.n_rules >= 1   # no weights: fine
    with pytest.raises(InputError, match='sample_weight'):
        RuleExtractor(nw, max_rules=2, ridge=1.0).fit(X, y, sample_weight=w)


# ---------------------------------------------------------- branch-and-bound exact solver vs brute force (issue 23)


def _assert_optimal(prob, K, q_bf, res):
    "A certified answer: status optimal, the brute-force optimum, a bound below it, a feasible support."
    assert res['status'] == 'optimal' and np.isclose(res['upper'], q_bf, rtol=1e-8)
    _assert_valid(prob, K, q_bf, res)


def _assert_valid(prob, K, q_bf, res):
    "Any answer, stopped early or not: a lower bound below the optimum and a feasible incumbent not below it."
    assert res['lower'] <= q_bf * (1 + 1e-9) + 1e-12 and res['upper'] >= q_bf * (1 - 1e-9)
    assert is_antichain(prob.table, res['nodes']) and prob.a[res['nodes']].sum() <= K + 1e-9


def _tiny_problem(seed, trees, depth, n, g_rel, budget='rules', weighted=False, include_root=False):
    X, y = make_friedman1(n, random_state=seed)
    gb = GradientBoostingRegressor(n_estimators=trees, max_depth=depth, random_state=seed).fit(X, y)
    sw = np.random.default_rng(seed).integers(0, 3, n).astype(float) if weighted else None
    tab = node_table(gb, X, sample_weight=sw)
    yc = y - (y.mean() if sw is None else np.average(y, weights=sw))
    a = tab.attribute('rules') * (tab.depth != 1) if budget == 'depth1_free' else tab.attribute(budget)
    prob = ExtractionProblem(tab, yc, 1.0, a, include_root=include_root)
    prob.gamma = _relative_gamma(tab, g_rel, prob.cand)
    return prob


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), trees=st.integers(2, 4), depth=st.integers(2, 3), n=st.integers(30, 60),
       K=st.integers(1, 3), g_rel=st.sampled_from([0.01, 0.1, 1.0, 10.0, 100.0]),
       budget=st.sampled_from(['rules', 'rules', 'depth']), weighted=st.booleans())
def test_branch_and_bound_equals_brute_force(seed, trees, depth, n, K, g_rel, budget, weighted):
    prob = _tiny_problem(seed, trees, depth, n, g_rel, budget, weighted)
    q_bf, S_bf = brute_budget(prob, K)
    res = branch_and_bound(prob, K, time_limit=60)
    assert res['status'] == 'optimal'                                  # small instances: always certified
    assert np.isclose(res['upper'], q_bf, rtol=1e-8)                   # the certified answer is the optimum
    assert res['lower'] <= q_bf * (1 + 1e-9) + 1e-12                   # the bound is a bound
    assert is_antichain(prob.table, res['nodes']) and prob.a[res['nodes']].sum() <= K + 1e-9
    # stopped early: still a valid bound, feasible incumbent
    for max_nodes in (1, 2, 5):
        early = branch_and_bound(prob, K, max_nodes=max_nodes)
        _assert_valid(prob, K, q_bf, early)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), K=st.integers(2, 3), g_rel=st.sampled_from([0.1, 1.0, 10.0]),
       share=st.sampled_from([0, 300]))
def test_exact_solve_bound_below_optimum(seed, K, g_rel, share):
    """exact_solve with or without branch-and-bound (share=0: relaxation and branching only) never reports a lower
    bound above the optimum, and certifies only the optimum."""
    prob = _tiny_problem(seed, 3, 2, 45, g_rel)
    q_bf, _ = brute_budget(prob, K)
    for tl in (0.05, 30.0):
        res = exact_solve(prob, K, time_limit=tl, max_candidates=share)
        assert res['lower'] <= q_bf * (1 + 1e-9) + 1e-12 and res['upper'] >= q_bf * (1 - 1e-9)
        if res['status'] == 'optimal': assert np.isclose(res['upper'], q_bf, rtol=1e-6)
    assert exact_solve(prob, K, max_candidates=300)['status'] == 'optimal'


def test_estimator_exact_certifies_small_ensemble():
    X, y = make_friedman1(50, random_state=3)
    gb = GradientBoostingRegressor(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
    ex = RuleExtractor(gb, max_rules=3, solver='exact', ridge=0.1).fit(X, y)
    assert ex.optimal_ and ex.stats_['exact_method'] in ('enum', 'enum+bnb')
    prob = ExtractionProblem(ex.table_, y - y.mean(), ex.gamma_, ex.table_.attribute('rules'))
    assert np.isclose(ex.objective_, brute_budget(prob, 3)[0], rtol=1e-8)


# ---------------------------------------------------------------- relaxation + listing (Props. E1-E3, issue 23)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), trees=st.integers(2, 3), depth=st.integers(2, 3), n=st.integers(30, 60),
       K=st.integers(0, 3), g_rel=st.sampled_from([0.001, 0.1, 1.0, 10.0, 100.0]),
       budget=st.sampled_from(['rules', 'depth']), weighted=st.booleans())
def test_relax_and_enumerate_equals_brute_force(seed, trees, depth, n, K, g_rel, budget, weighted):
    prob = _tiny_problem(seed, trees, depth, n, g_rel, budget, weighted)
    q_bf, _ = brute_budget(prob, K)
    res = relax_and_enumerate(prob, K, max_supports=10**6)
    assert res['status'] == 'optimal' and np.isclose(res['upper'], q_bf, rtol=1e-8)
    assert is_antichain(prob.table, res['nodes']) and prob.a[res['nodes']].sum() <= K + 1e-9
    for limit in (0, 1):                                   # a list cut short: a valid bound and a feasible incumbent
        early = relax_and_enumerate(prob, K, max_fw=1, max_supports=limit)
        assert early['lower'] <= q_bf * (1 + 1e-9) + 1e-12 and early['upper'] >= q_bf * (1 - 1e-9)
        assert early['status'] in ('optimal', 'enumeration_limit')
        assert is_antichain(prob.table, early['nodes']) and prob.a[early['nodes']].sum() <= K + 1e-9
    fz = np.zeros(prob.table.m)
    fz[res['nodes']] = 1.0  # q_fractional at a 0/1 point is q_value
    assert np.allclose(q_fractional(prob.table, prob.y, fz, prob.gamma)[0],
                       q_value(prob.table, prob.y, res['nodes'], prob.gamma)[0])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), trees=st.integers(2, 3), depth=st.integers(2, 3), n=st.integers(30, 60),
       K=st.integers(0, 3), g_rel=st.sampled_from([0.01, 1.0, 10.0, 100.0]),
       budget=st.sampled_from(['rules', 'depth', 'depth1_free']), weighted=st.booleans(), include_root=st.booleans(),
       max_list=st.sampled_from([0, 1, 50]))
def test_relax_and_branch_equals_brute_force(seed, trees, depth, n, K, g_rel, budget, weighted, include_root, max_list):
    "Made to branch (short lists); with 'depth1_free' the roots' children cost nothing: certified, the optimum."
    prob = _tiny_problem(seed, trees, depth, n, g_rel, budget, weighted, include_root)
    q_bf, _ = brute_budget(prob, K)
    res = relax_and_branch(prob, K, max_list=max_list)
    _assert_optimal(prob, K, q_bf, res)
    # as exact_solve hands it on: incumbent and planes
    first = relax_and_enumerate(prob, K, max_fw=1, max_supports=0)
    handed = relax_and_branch(prob, K, warm=[first['nodes']], cuts=first['cuts'], max_list=max_list)
    assert handed['status'] == 'optimal' and np.isclose(handed['upper'], q_bf, rtol=1e-8)
    for limit in (1, 3):                                   # stopped early: a valid bound and a feasible incumbent
        early = relax_and_branch(prob, K, max_list=max_list, node_limit=limit)
        _assert_valid(prob, K, q_bf, early)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), trees=st.integers(2, 3), depth=st.integers(2, 3), n=st.integers(30, 60),
       K=st.integers(0, 3), g_rel=st.sampled_from([0.01, 1.0, 10.0, 100.0]),
       budget=st.sampled_from(['rules', 'depth', 'depth1_free']), weighted=st.booleans(), include_root=st.booleans(),
       max_list=st.sampled_from([0, 1]), branching=st.sampled_from(['fractional', 'pseudocost', 'gradient']))
def test_relax_and_branch_diving_and_branching_rules_equal_brute_force(seed, trees, depth, n, K, g_rel, budget,
                                                                       weighted, include_root, max_list, branching):
    "Dives as often as the rule allows (dive_every=1, no cap on their time), each branching rule: certified, optimal."
    prob = _tiny_problem(seed, trees, depth, n, g_rel, budget, weighted, include_root)
    q_bf, _ = brute_budget(prob, K)
    res = relax_and_branch(prob, K, max_list=max_list, dive_every=1, dive_share=1.0, branching=branching)
    _assert_optimal(prob, K, q_bf, res)
    early = relax_and_branch(prob, K, max_list=max_list, node_limit=2, dive_every=1, dive_share=1.0,
                             branching=branching)
    _assert_valid(prob, K, q_bf, early)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), trees=st.integers(2, 3), depth=st.integers(2, 3), n=st.integers(30, 60),
       K=st.integers(0, 3), g_rel=st.sampled_from([0.01, 1.0, 10.0, 100.0]),
       budget=st.sampled_from(['rules', 'depth', 'depth1_free']), weighted=st.booleans(), include_root=st.booleans(),
       max_list=st.sampled_from([0, 1]), mix=st.integers(0, 3))
def test_relax_and_branch_warm_starts_and_mixed_planes_equal_brute_force(seed, trees, depth, n, K, g_rel, budget,
                                                                         weighted, include_root, max_list, mix):
    "Claim E7: children started at their parent's point, planes mixed: certified and optimal; stopped early, valid."
    prob = _tiny_problem(seed, trees, depth, n, g_rel, budget, weighted, include_root)
    q_bf, _ = brute_budget(prob, K)
    res = relax_and_branch(prob, K, max_list=max_list, warm_start=True, mix=mix)
    _assert_optimal(prob, K, q_bf, res)
    early = relax_and_branch(prob, K, max_list=max_list, node_limit=3, warm_start=True, mix=mix)
    _assert_valid(prob, K, q_bf, early)


def test_dive_at_the_root_finds_the_optimum_best_first_misses():
    "One branch, lists off: best first alone stops with a worse incumbent; the dive from the root finds the optimum."
    prob = _tiny_problem(0, 3, 3, 50, 10.0)
    q_bf, _ = brute_budget(prob, 3)
    alone = relax_and_branch(prob, 3, max_list=0, node_limit=1, dive_every=0)
    dived = relax_and_branch(prob, 3, max_list=0, node_limit=1, dive_every=1, dive_share=1.0)
    assert alone['upper'] > q_bf * (1 + 1e-3)
    assert np.isclose(dived['upper'], q_bf, rtol=1e-9) and is_antichain(prob.table, dived['nodes'])
    assert dived['lower'] <= q_bf * (1 + 1e-9) and prob.a[dived['nodes']].sum() <= 3


def test_branching_rules_and_pseudo_costs():
    "split: most fractional, gradient-weighted, and pseudo-costs (fallback to most fractional before any observation)."
    from glassworks.pruning import _BranchSearch, _Branch
    from glassworks.base import SearchMonitor
    prob = _tiny_problem(0, 3, 2, 40, 1.0)
    tab = prob.table
    picks = {}
    for rule in ('fractional', 'gradient', 'pseudocost'):
        B = _BranchSearch(prob, 3, SearchMonitor(None), 1e-9, 10, 100, branching=rule)
        root = _Branch([], np.zeros(tab.m, np.bool_), B.allowed, B.a, B.Ki, tab, [])
        p1, p2, p3 = np.flatnonzero(root.allowed & (B.a <= root.K))[:3]
        z, g = np.zeros(tab.m), np.zeros(tab.m)
        z[[p1, p2, p3]], g[[p1, p2, p3]] = [0.5, 0.3, 0.2], [-1.0, -10.0, -1.0]
        first = B.split(root, z, g)
        B.learn(_Branch([], root.out, B.allowed, B.a, B.Ki, tab, [], (int(p3), 1, 0.8, 1.0)), 3.0)   # up: 2.5/unit
        B.learn(_Branch([], root.out, B.allowed, B.a, B.Ki, tab, [], (int(p3), 0, 0.2, 1.0)), 1.5)   # down: 2.5/unit
        B.learn(_Branch([], root.out, B.allowed, B.a, B.Ki, tab, [], (int(p1), 1, 0.5, 1.0)), 1.0)   # no rise
        B.learn(_Branch([], root.out, B.allowed, B.a, B.Ki, tab, [], (int(p1), 0, 1e-9, 1.0)), 9.0)  # ignored: frac 0
        picks[rule] = (first, B.split(root, z, g))
    assert picks['fractional'] == (p1, p1)
    assert picks['gradient'] == (p2, p2)
    # p3 observed: 2.5 * 0.2 * 2.5 * 0.8 = 1.0; p2 unobserved gets the averages (down 2.5, up 1.25):
    # 2.5 * 0.3 * 1.25 * 0.7 = 0.656; p1 observed up with no rise: eps
    assert picks['pseudocost'] == (p1, p3)
    assert B.pc_n[0, p1] == 0 and B.pc_n[1, p1] == 1


def test_relax_and_enumerate_fractional_gradient_and_cases():
    prob = _tiny_problem(3, 3, 3, 50, 1.0)
    rng = np.random.default_rng(0)
    z = rng.uniform(0.1, 1.0, prob.table.m) * prob.cand
    q, g = q_fractional(prob.table, prob.y, z, prob.gamma)
    for i in np.flatnonzero(prob.cand)[:6]:                # the gradient of Prop. E3 against a central difference
        e = np.zeros_like(z)
        e[i] = 1e-6
        fd = (q_fractional(prob.table, prob.y, z + e, prob.gamma)[0]
              - q_fractional(prob.table, prob.y, z - e, prob.gamma)[0]) / 2e-6
        assert np.isclose(g[i], fd, rtol=1e-4, atol=1e-8)
    real = relax_and_enumerate(ExtractionProblem(prob.table, prob.y, prob.gamma, prob.a * 0.5), 2)   # non-integer costs
    assert real['status'] == 'not_applicable' and real['lower'] == 0.0
    assert (relax_and_branch(ExtractionProblem(prob.table, prob.y, prob.gamma, prob.a * 0.5), 2)['status']
            == 'not_applicable')
    res = exact_solve(ExtractionProblem(prob.table, prob.y, prob.gamma, prob.a * 1.5), 3.0)   # then the next stages
    assert res['status'] == 'optimal' and res['method'] in ('bnb', 'oa', 'bnb+oa')
    assert np.isclose(res['upper'],
                      brute_budget(ExtractionProblem(prob.table, prob.y, prob.gamma, prob.a * 1.5), 3.0)[0])
    staged = exact_solve(prob, 2, time_limit=30)
    assert staged['status'] == 'optimal' and staged['method'].startswith('enum')


@pytest.mark.parametrize('scale', [1e-7, 1e-3, 1e4])
def test_exact_certificates_do_not_depend_on_the_scale_of_y(scale):
    "q scales with y^2: a certificate at one scale is a certificate at every scale (tolerances are relative)."
    base = _tiny_problem(11, 3, 3, 60, 1.0)
    small = ExtractionProblem(base.table, base.y * scale, base.gamma, base.a)
    q_bf, S_bf = brute_budget(small, 3)
    for solve in (relax_and_enumerate, exact_solve, outer_approximation,
                  lambda p, K: relax_and_branch(p, K, max_list=1)):
        res = solve(small, 3)
        assert res['lower'] <= q_bf * (1 + 1e-9) + 1e-300                     # never above the optimum
        if res['status'] == 'optimal':
            assert abs(res['upper'] - q_bf) <= 1e-6 * q_bf   # relative only (q ~ 1e-12 at 1e-7)
    assert relax_and_enumerate(small, 3)['nodes'].tolist() == sorted(S_bf)


@pytest.mark.xfail(strict=True, reason="known: HiGHS's dual bound on an ill-conditioned master (gamma 1e5, "
                   "near-perfect fit) lies above the optimum, so outer approximation certifies a worse support; "
                   "exact_solve uses it only for non-integer budget attributes (found by a reviewer, 2026-11-25)")
def test_outer_approximation_bound_on_an_ill_conditioned_master():
    x = np.arange(8)
    half = np.where(x <= 3.5, 1, 2)
    stump = lambda lo, hi: ([1, -1, -1], [2, -1, -1], [0, -1, -1], [3.5, 0, 0], [0.0, lo, hi])
    tab = _table_from_arrays([stump(-1.708, 2.024), stump(-0.726, 0.721), stump(-1.134, 1.175)],
                             np.c_[half, half, half], ['x'])
    noise = np.array([0.009, -0.0035, -0.0148, -0.0011, -0.0045, 0.0078, 0.0019, -0.0163])
    prob = ExtractionProblem(tab, 1000 * (np.where(x <= 3.5, -1.0, 1.0) + noise), 1e5, np.full(tab.m, 1.5))
    q_bf, _ = brute_budget(prob, 3.0)                                        # 305.96, nodes (1, 2)
    assert outer_approximation(prob, 3.0)['lower'] <= q_bf * (1 + 1e-9)    # HiGHS: 314.31
