"""Acceptance tests of glassworks.hierscale against independent oracles (HiGHS QP / LP, explicit interaction matrices)."""
import warnings

import numpy as np
import pytest

from glassworks.datasets import make_hierarchical
from glassworks.hierscale import (HierScaleRegressor, all_pairs, direct_qp, hierscale_path, kkt_lp, lambda_max_exact,
                                  pair_dots, penalty, prox, prox_qp, scan_pairs)
from glassworks.validation import InputError, ParameterError


def _random_prox_instance(rng):
    p = int(rng.integers(3, 8)); pairs = all_pairs(p)
    bt = rng.normal(size=p) * 2; tt = rng.normal(size=len(pairs)) * rng.choice([0.3, 1, 3])
    return p, pairs, bt, tt, rng.uniform(.5, 3), rng.uniform(.1, 1.5), rng.uniform(0, 2)


def test_prox_equals_highs_qp():
    rng = np.random.default_rng(11); worst = 0.0; big = 0
    for _ in range(25):
        p, pairs, bt, tt, L, l1, l2 = _random_prox_instance(rng)
        b, t, info = prox(bt, tt, pairs, L, l1, l2)
        bq, tq = prox_qp(bt, tt, pairs, L, l1, l2)
        worst = max(worst, np.abs(b - bq).max(), np.abs(t - tq).max())
        big += info['largest_edges'] >= 3
    assert worst < 1e-8
    assert big >= 5                                           # the BCA (not only soft-thresholding) was exercised


def test_prox_oracle_detects_a_wrong_prox():
    "The QP oracle is sharp enough to reject a slightly wrong answer (so the test above can fail)."
    rng = np.random.default_rng(12)
    p, pairs, bt, tt, L, l1, l2 = _random_prox_instance(rng)
    b, t, _ = prox(bt, tt, pairs, L, l1 * 1.001, l2)          # a prox with a 0.1% wrong lambda1
    bq, tq = prox_qp(bt, tt, pairs, L, l1, l2)
    assert max(np.abs(b - bq).max(), np.abs(t - tq).max()) > 1e-8


def test_prox_is_a_minimiser():
    "Perturbing the prox output never lowers the prox objective (independent of any solver)."
    rng = np.random.default_rng(13)
    for _ in range(10):
        p, pairs, bt, tt, L, l1, l2 = _random_prox_instance(rng)
        b, t, _ = prox(bt, tt, pairs, L, l1, l2)
        obj = lambda b_, t_: 0.5 * L * (np.sum((b_ - bt) ** 2) + np.sum((t_ - tt) ** 2)) + penalty(b_, t_, pairs, l1, l2)
        f0 = obj(b, t)
        for _ in range(50):
            db, dt = rng.normal(size=p) * 1e-3, rng.normal(size=len(tt)) * 1e-3
            assert obj(b + db, t + dt) >= f0 - 1e-12


def test_screening_pass_is_exact():
    rng = np.random.default_rng(14)
    X = rng.normal(size=(40, 23)); r = rng.normal(size=40); r -= r.mean()
    pairs = all_pairs(23); g = (X[:, pairs[:, 0]] * X[:, pairs[:, 1]]).T @ r
    I, J, gg, rowmax, thr, rownorm = scan_pairs(X, r, 2.5, norms=True, block=5)
    assert sorted(zip(I.tolist(), J.tolist())) == sorted(map(tuple, pairs[np.abs(g) > 2.5].tolist()))
    np.testing.assert_allclose(gg, pair_dots(np.ascontiguousarray(X.T), r, I, J), atol=1e-10)
    for i in range(22):                                        # per-row maximum of what was not returned
        rest = np.abs(g[(pairs[:, 0] == i) & (np.abs(g) <= 2.5)])
        assert rowmax[i] == pytest.approx(rest.max() if len(rest) else 0.0, abs=1e-10)


def _path_checks(X, y, **kw):
    path = hierscale_path(X, y, **kw)
    rel, lp = [], []
    for k in range(len(path)):
        s = path.solution(k)
        F = direct_qp(X, y, s['lambda1'], s['lambda2'])[3]
        rel.append(abs(s['objective'] - F) / F)
        lp.append(max(kkt_lp(X, y, s['intercept'], s['coef_main'], s['interactions'], s['lambda1'], s['lambda2'])))
        for i, j, _ in s['interactions']:                      # strong hierarchy in every solution
            assert s['coef_main'][i] != 0 and s['coef_main'][j] != 0
    return path, max(rel), max(lp)


@pytest.mark.parametrize("setting,seed", [('I', 1), ('II', 2), ('III', 3)])
def test_path_objective_kkt_and_hierarchy(setting, seed):
    X, y, _ = make_hierarchical(45, 6, 2 if setting != 'I' else 3, setting, random_state=seed)
    path, rel, lp = _path_checks(X, y, n_lambda=7)
    assert rel < 1e-6                                          # objective equals the direct QP along the path
    assert lp < 1e-5                                           # independent KKT LP
    assert path.stats_['max_kkt'] < 1e-5 and path.stats_['sh_violations'] == 0
    assert path.support_size()[0] == 0 and path.support_size()[-1] > 0


def test_kkt_lp_detects_a_wrong_solution():
    X, y, _ = make_hierarchical(45, 6, 3, 'I', random_state=1)
    path = hierscale_path(X, y, n_lambda=8)
    s = path.solution(len(path) - 1)
    ok = max(kkt_lp(X, y, s['intercept'], s['coef_main'], s['interactions'], s['lambda1'], s['lambda2']))
    bad = max(kkt_lp(X, y, s['intercept'], 1.05 * s['coef_main'], s['interactions'], s['lambda1'], s['lambda2']))
    assert ok < 1e-5 and bad > 1e-3


def test_explicit_lambdas_standardize_and_alpha():
    X, y, _ = make_hierarchical(60, 6, 3, 'I', random_state=5)
    X = X * np.array([1, 10, 0.1, 1, 3, 1]) + 2.0
    base = hierscale_path(X, y, n_lambda=6)
    again = hierscale_path(X, y, lambdas=base.lambda1[2:5])
    np.testing.assert_allclose(again.objective, base.objective[2:5], rtol=1e-6)
    st = hierscale_path(X, y, n_lambda=6, standardize=True, alpha=1.0)
    Z = (X - X.mean(0)) / X.std(0)
    s = st.solution(4)
    F = direct_qp(Z, y, s['lambda1'], s['lambda2'])[3]
    assert abs(s['objective'] - F) / F < 1e-6
    np.testing.assert_allclose(st.predict(X, 4), s['intercept'] + Z @ s['coef_main'] +
                               sum(t * Z[:, i] * Z[:, j] for i, j, t in s['interactions']), atol=1e-9)


def test_lambda_max_exact_against_bisection():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 8)); y = 3 * X[:, 0] * X[:, 1] + 2 * X[:, 2] * X[:, 3] + rng.normal(size=80)
    path = hierscale_path(X, y, alpha=0.5, n_lambda=2, lambda_min_ratio=0.999)
    assert path.lambda_max_lp and path.lambda_max > np.abs(X.T @ (y - y.mean())).max() * 1.01
    assert path.support_size()[0] == 0 and path.support_size()[1] > 0   # just below lambda_max something enters


def test_estimator_selects_and_prints():
    X, y, truth = make_hierarchical(300, 10, 3, 'I', random_state=7)
    names = [f"f{i}" for i in range(10)]
    import pandas as pd
    est = HierScaleRegressor(n_lambda=25, cv=3, random_state=0).fit(pd.DataFrame(X, columns=names), y)
    assert est.hierarchy_respected() and est.score(pd.DataFrame(X, columns=names), y) > 0.8
    got = {(a, b) for a, b, _ in est.coef_inter_}
    assert {(f"f{i}", f"f{j}") for i, j, _ in truth.interactions} <= got
    text = str(est)
    assert 'strong hierarchy respected' in text and 'intercept' in text
    assert np.isfinite(est.cv_mse_[est.best_index_]) and est.stats_['kkt'] < 1e-5
    est.select(0)
    assert est.coef_inter_ == [] and not np.any(est.coef_main_)


@pytest.mark.parametrize("mutate,err,msg", [
    (lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), y), InputError, 'NaN'),
    (lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 7, np.inf, X), y), InputError, 'inf'),
    (lambda X, y: (X[:, :1], y), InputError, 'minimum of 2 is required'),
    (lambda X, y: (X[:1], y[:1]), InputError, 'minimum of 2 is required'),
    (lambda X, y: (np.column_stack([X, np.ones(len(y))]), y), InputError, 'constant'),
])
def test_bad_input(mutate, err, msg):
    X, y, _ = make_hierarchical(30, 5, 3, 'I', random_state=0)
    Xb, yb = mutate(X, y)
    with pytest.raises(err, match=msg):
        hierscale_path(Xb, yb)
    with pytest.raises(err, match=msg):
        HierScaleRegressor().fit(Xb, yb)


def test_bad_parameters_and_duplicates():
    X, y, _ = make_hierarchical(30, 5, 3, 'I', random_state=0)
    for bad in ([1.0, 0.0], [-1.0], []):
        with pytest.raises(ParameterError, match='> 0'):
            hierscale_path(X, y, lambdas=bad)
    with pytest.raises(ParameterError, match='alpha'):
        hierscale_path(X, y, alpha=0)
    with pytest.raises(ParameterError, match='non-increasing'):
        hierscale_path(X, y, lambdas=[1.0, 2.0])
    with pytest.warns(UserWarning, match='identical columns'):
        path = hierscale_path(np.column_stack([X, X[:, 0]]), y, n_lambda=5)
    assert np.isfinite(path.objective).all()
