"""Acceptance tests of glassworks.hierscale against independent oracles (HiGHS QP / LP, explicit interaction
matrices)."""

import numpy as np
import pytest

from glassworks.datasets import make_hierarchical
from glassworks.hierscale import (HierScaleRegressor, all_pairs, direct_qp, hierscale_path, kkt_lp, pair_dots, penalty,
                                  prox, prox_qp, scan_pairs)
from glassworks.validation import InputError, ParameterError


def _random_prox_instance(rng):
    p = int(rng.integers(3, 8))
    pairs = all_pairs(p)
    bt = rng.normal(size=p) * 2
    tt = rng.normal(size=len(pairs)) * rng.choice([0.3, 1, 3])
    return p, pairs, bt, tt, rng.uniform(.5, 3), rng.uniform(.1, 1.5), rng.uniform(0, 2)


def test_prox_equals_highs_qp():
    rng = np.random.default_rng(11)
    worst = 0.0
    big = 0
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
        obj = lambda b_, t_: (0.5 * L * (np.sum((b_ - bt) ** 2) + np.sum((t_ - tt) ** 2))
                              + penalty(b_, t_, pairs, l1, l2))
        f0 = obj(b, t)
        for _ in range(50):
            db, dt = rng.normal(size=p) * 1e-3, rng.normal(size=len(tt)) * 1e-3
            assert obj(b + db, t + dt) >= f0 - 1e-12


def test_screening_pass_is_exact():
    rng = np.random.default_rng(14)
    X = rng.normal(size=(40, 23))
    r = rng.normal(size=40)
    r -= r.mean()
    pairs = all_pairs(23)
    g = (X[:, pairs[:, 0]] * X[:, pairs[:, 1]]).T @ r
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
    X = rng.normal(size=(80, 8))
    y = 3 * X[:, 0] * X[:, 1] + 2 * X[:, 2] * X[:, 3] + rng.normal(size=80)
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


# --- sample weights and feature importances -------------------------------------------------------------------------

def _dense_theta(path, k, p):
    th = np.zeros((p, p))
    I, J, t = path.interactions[k]
    th[I, J] = t
    return th


def _assert_same_path(a, b, X, rtol=1e-8):
    "Two paths agree solution by solution (coefficients, intercepts, objectives, predictions) to `rtol` of their scale."
    p = X.shape[1]
    assert len(a) == len(b)
    np.testing.assert_allclose(a.lambda1, b.lambda1, rtol=1e-12)
    np.testing.assert_allclose(a.objective, b.objective, rtol=rtol)
    for k in range(len(a)):
        ca = np.concatenate([a.coef_main[k], _dense_theta(a, k, p).ravel()])
        cb = np.concatenate([b.coef_main[k], _dense_theta(b, k, p).ravel()])
        np.testing.assert_allclose(ca, cb, rtol=rtol, atol=rtol * max(np.abs(cb).max(), 1e-12))
        assert a.intercept[k] == pytest.approx(b.intercept[k], rel=rtol, abs=rtol * np.abs(b.intercept).max())
        fb = b.predict(X, k)
        np.testing.assert_allclose(a.predict(X, k), fb, rtol=rtol, atol=rtol * np.abs(fb).max())


def _weighted_data(seed, standardize):
    X, y, _ = make_hierarchical(60, 7, 3, 'I', random_state=seed)
    rng = np.random.default_rng(100 + seed)
    if standardize: X = X * rng.uniform(0.5, 5, size=X.shape[1]) + 3.0     # so that the weighted scaling matters
    return X, y, rng.integers(0, 4, size=len(y))                              # integer weights, zeros included


@pytest.mark.parametrize("seed,standardize", [(0, False), (1, True), (2, False)])
def test_integer_weights_equal_repeated_rows(seed, standardize):
    "Weight k = the row repeated k times: the same lambda_max and grid, and the same solutions all along the path."
    X, y, w = _weighted_data(seed, standardize)
    Xr, yr = np.repeat(X, w, axis=0), np.repeat(y, w)
    a = hierscale_path(X, y, n_lambda=8, standardize=standardize, sample_weight=w)
    b = hierscale_path(Xr, yr, n_lambda=8, standardize=standardize)
    assert a.lambda_max == pytest.approx(b.lambda_max, rel=1e-12)
    assert a.support_size()[-1] > 0 and a.stats_['max_kkt'] < 1e-5
    _assert_same_path(a, b, X)
    if standardize:
        np.testing.assert_allclose(a.x_offset, Xr.mean(0), rtol=1e-12)
        np.testing.assert_allclose(a.x_scale, Xr.std(0), rtol=1e-12)
    # the estimator at one fixed lambda1 (no selection on a split): the same model
    lam = float(a.lambda1[5])
    ea = HierScaleRegressor(lambdas=[lam], standardize=standardize, random_state=0).fit(X, y, sample_weight=w)
    eb = HierScaleRegressor(lambdas=[lam], standardize=standardize, random_state=0).fit(Xr, yr)
    fb = eb.predict(X)
    np.testing.assert_allclose(ea.predict(X), fb, rtol=1e-8, atol=1e-8 * np.abs(fb).max())
    np.testing.assert_allclose(ea.coef_main_, eb.coef_main_, rtol=1e-8, atol=1e-8 * np.abs(eb.coef_main_).max())
    np.testing.assert_allclose(ea.feature_importances_, eb.feature_importances_, rtol=1e-8, atol=1e-10)


def test_weights_with_splits_that_keep_copies_together():
    "CV splits rows; when every copy of a row sits in the fold of its original, the selection agrees as well."
    X, y, w = _weighted_data(3, False)
    fold = np.arange(len(y)) % 3
    fold_r = np.repeat(fold, w)
    splits = lambda f: [(np.flatnonzero(f != g), np.flatnonzero(f == g)) for g in range(3)]
    ea = HierScaleRegressor(n_lambda=8, cv=splits(fold)).fit(X, y, sample_weight=w)
    eb = HierScaleRegressor(n_lambda=8, cv=splits(fold_r)).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(ea.cv_mse_, eb.cv_mse_, rtol=1e-8)          # weighted validation errors
    assert ea.best_index_ == eb.best_index_ and ea.stats_['folds'] == 3
    fb = eb.predict(X)
    np.testing.assert_allclose(ea.predict(X), fb, rtol=1e-8, atol=1e-8 * np.abs(fb).max())


def test_zero_weights_equal_dropping_rows():
    X, y, w = _weighted_data(4, False)
    keep = w > 0
    assert not keep.all()
    # weights 0/1: the unweighted fit on the kept rows, path and estimator (the random folds included: zero-weight
    # rows are dropped before the split); equal up to rounding (BLAS results may depend on the arrays' alignment)
    w01 = keep.astype(float)
    a = hierscale_path(X, y, n_lambda=6, sample_weight=w01)
    b = hierscale_path(X[keep], y[keep], n_lambda=6)
    _assert_same_path(a, b, X, rtol=1e-12)
    for cv in (None, 3):
        ea = HierScaleRegressor(n_lambda=6, cv=cv, random_state=0).fit(X, y, sample_weight=w01)
        eb = HierScaleRegressor(n_lambda=6, cv=cv, random_state=0).fit(X[keep], y[keep])
        np.testing.assert_allclose(ea.cv_mse_, eb.cv_mse_, rtol=1e-10)
        assert ea.best_index_ == eb.best_index_
        np.testing.assert_allclose(ea.predict(X), eb.predict(X), rtol=1e-10, atol=1e-10 * np.abs(y).max())
    # general weights with zeros: the same as the positive-weight rows alone
    a = hierscale_path(X, y, n_lambda=6, sample_weight=w)
    b = hierscale_path(X[keep], y[keep], n_lambda=6, sample_weight=w[keep])
    _assert_same_path(a, b, X, rtol=1e-12)
    assert a.n_samples == keep.sum() and a.weight_sum == w.sum()


@pytest.mark.parametrize("weights,msg", [
    (lambda n: -np.ones(n), 'non-negative'),
    (lambda n: np.r_[np.ones(n - 1), -1.0], 'non-negative'),
    (lambda n: np.ones(n + 1), 'entries for'),
    (lambda n: np.ones(n - 1), 'entries for'),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], 'NaN'),
    (lambda n: np.r_[np.inf, np.ones(n - 1)], 'NaN/inf'),
    (lambda n: np.zeros(n), 'sums to zero'),
    (lambda n: np.r_[1.0, np.zeros(n - 1)], 'minimum of 2'),
])
def test_bad_sample_weight(weights, msg):
    X, y, _ = make_hierarchical(30, 5, 3, 'I', random_state=0)
    with pytest.raises(InputError, match=msg):
        hierscale_path(X, y, n_lambda=3, sample_weight=weights(len(y)))
    with pytest.raises(InputError, match=msg):
        HierScaleRegressor(n_lambda=3).fit(X, y, sample_weight=weights(len(y)))


def test_bad_cv_splits():
    X, y, _ = make_hierarchical(30, 5, 3, 'I', random_state=0)
    with pytest.raises(ParameterError, match='row indices'):
        HierScaleRegressor(n_lambda=3, cv=[(np.arange(20), np.arange(20, 31))]).fit(X, y)
    with pytest.raises(InputError, match='no row of positive weight'):
        HierScaleRegressor(n_lambda=3, cv=[(np.arange(20), np.arange(20, 30))]).fit(
            X, y, sample_weight=np.r_[np.ones(20), np.zeros(10)])


def test_feature_importances():
    X, y, _ = make_hierarchical(120, 6, 3, 'I', random_state=2)
    est = HierScaleRegressor(n_lambda=10, random_state=0).fit(X, y)
    imp = est.feature_importances_
    assert imp.shape == (est.n_features_in_,) and (imp >= 0).all() and imp.sum() == pytest.approx(1.0, abs=1e-12)
    # by hand: |beta_j| sd(X_j) + half of |theta_jk| sd(X_j X_k) to each of j and k, normalised
    raw = np.abs(est.coef_main_) * X.std(0)
    for i, j, t in est.interactions_:
        raw[[i, j]] += 0.5 * abs(t) * (X[:, i] * X[:, j]).std()
    assert raw.sum() > 0
    np.testing.assert_allclose(imp, raw / raw.sum(), rtol=1e-10)
    assert set(np.flatnonzero(imp)) == set(np.flatnonzero(est.coef_main_))     # strong hierarchy: parents are mains
    assert est.select(0).feature_importances_.tolist() == [0.0] * 6         # the empty model at lambda_max
    assert not hasattr(HierScaleRegressor(), 'feature_importances_')        # unfitted
