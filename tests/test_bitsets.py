"""Property tests for `glassworks.bitsets`: every operation against plain numpy boolean arrays (the ground truth)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp
from numba import njit

from glassworks import bitsets as bs

SETTINGS = settings(max_examples=60, deadline=None)
EDGE_NS = [1, 63, 64, 65, 128, 200]
sizes = st.one_of(st.sampled_from(EDGE_NS), st.integers(1, 300))


def masks(n):
    "Boolean masks of length n, mixing arbitrary, sparse and dense patterns."
    arbitrary = hnp.arrays(np.bool_, n)
    sparse = st.lists(st.integers(0, n - 1), max_size=5).map(lambda ix: np.isin(np.arange(n), ix))
    return st.one_of(arbitrary, sparse, sparse.map(np.logical_not))


@st.composite
def one_mask(draw):
    n = draw(sizes)
    return n, draw(masks(n))


@st.composite
def two_masks(draw):
    n = draw(sizes)
    return n, draw(masks(n)), draw(masks(n))


def assert_set(bits, n, truth):
    "`bits` is the bitset of the boolean array `truth`, with the right length and zero padding."
    assert bits.dtype == np.uint64 and bits.shape == (bs.n_words(n),)
    assert bs.padding_ok(bits, n), "padding bits beyond n must stay zero"
    np.testing.assert_array_equal(bs.to_bool(bits, n), truth)
    # independent of to_bool: unpack the words with numpy
    unpacked = np.unpackbits(bits.view(np.uint8), bitorder='little')[:n].astype(bool) if n else np.zeros(0, bool)
    np.testing.assert_array_equal(unpacked, truth)


# --- construction -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('n', [0] + EDGE_NS + list(range(1, 140)))
def test_empty_full_not_padding(n):
    assert_set(bs.empty(n), n, np.zeros(n, bool))
    assert_set(bs.full(n), n, np.ones(n, bool))
    assert_set(bs.not_(bs.empty(n), n), n, np.ones(n, bool))
    assert_set(bs.not_(bs.full(n), n), n, np.zeros(n, bool))
    assert bs.popcount(bs.full(n)) == n


@SETTINGS
@given(one_mask())
def test_conversions(nm):
    n, m = nm
    b = bs.from_bool(m)
    assert_set(b, n, m)
    idx = np.flatnonzero(m)
    np.testing.assert_array_equal(bs.indices(b), idx)
    assert bs.indices(b).dtype == np.int64
    # order and duplicates don't matter
    shuffled = np.random.default_rng(n).permutation(np.concatenate([idx, idx[:3]]))
    assert_set(bs.from_indices(shuffled.astype(np.int64), n), n, m)
    assert_set(bs.bitset(m), n, m)
    assert_set(bs.bitset(m.astype(np.int8)), n, m)
    assert_set(bs.bitset(idx, n=n), n, m)
    assert bs.to_str(b, n) == ''.join('1' if v else '0' for v in m)
    assert bs.popcount(b) == m.sum()
    assert bs.any_(b) == m.any()


@SETTINGS
@given(one_mask(), st.integers(0, 299))
def test_single_bits(nm, i):
    n, m = nm
    i = i % n
    b = bs.from_bool(m)
    assert bs.get_bit(b, i) == m[i]
    bs.set_bit(b, i)
    t = m.copy()
    t[i] = True
    assert_set(b, n, t)
    bs.clear_bit(b, i)
    t[i] = False
    assert_set(b, n, t)


def test_index_errors():
    with pytest.raises(IndexError): bs.from_indices(np.array([5]), 5)
    with pytest.raises(IndexError): bs.from_indices(np.array([-1]), 5)
    with pytest.raises(IndexError): bs.classes_to_bits(np.array([0, 2]), 2)
    with pytest.raises(ValueError): bs.bitset([0, 2])
    with pytest.raises(ValueError): bs.bitset(np.ones((2, 2)))


@SETTINGS
@given(st.integers(0, 2**64 - 1))
def test_popcount64_and_trailing_zeros(v):
    x = np.uint64(v)
    assert bs.popcount64(x) == bin(v).count('1')
    if v:
        tz = (v & -v).bit_length() - 1
        assert bs.trailing_zeros(x) == tz
        assert int(bs.lowest_bit(x)) == 1 << tz
    else:
        assert bs.trailing_zeros(x) == 64


# --- algebra ------------------------------------------------------------------------------------------------------

OPS = [(bs.and_, bs.and_into, np.logical_and),
       (bs.andnot, bs.andnot_into, lambda p, q: p & ~q),
       (bs.or_, bs.or_into, np.logical_or),
       (bs.xor_, bs.xor_into, np.logical_xor)]


@SETTINGS
@given(two_masks())
def test_binary_ops(nmm):
    n, ma, mb = nmm
    a, b = bs.from_bool(ma), bs.from_bool(mb)
    a0, b0 = a.copy(), b.copy()
    for op, op_into, truth in OPS:
        want = truth(ma, mb)
        assert_set(op(a, b), n, want)
        out = np.full_like(a, np.uint64(0xFFFFFFFFFFFFFFFF))            # garbage in the buffer must be overwritten
        assert op_into(out, a, b) is out
        assert_set(out, n, want)
        alias = a.copy()
        op_into(alias, alias, b)
        assert_set(alias, n, want)  # out aliasing an operand
        alias = b.copy()
        op_into(alias, a, alias)
        assert_set(alias, n, want)
    assert_set(bs.not_(a, n), n, ~ma)
    out = np.zeros_like(a)
    bs.not_into(out, a, n)
    assert_set(out, n, ~ma)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)  # inputs untouched


@SETTINGS
@given(two_masks())
def test_counts_and_predicates(nmm):
    n, ma, mb = nmm
    a, b = bs.from_bool(ma), bs.from_bool(mb)
    assert bs.count_and(a, b) == np.count_nonzero(ma & mb)
    assert bs.count_andnot(a, b) == np.count_nonzero(ma & ~mb)
    assert bs.is_subset(a, b) == (not (ma & ~mb).any())
    assert bs.is_subset(bs.and_(a, b), a) and bs.is_subset(a, bs.or_(a, b))
    assert bs.is_disjoint(a, b) == (not (ma & mb).any())
    assert bs.equal(a, b) == np.array_equal(ma, mb)
    assert bs.equal(a, bs.from_indices(np.flatnonzero(ma), n))
    assert bs.any_(bs.and_(a, b)) == (ma & mb).any()


# --- matrices and weighted statistics -----------------------------------------------------------------------------

@SETTINGS
@given(st.data())
def test_matrix_conversions(data):
    n = data.draw(sizes)
    p = data.draw(st.integers(1, 70))
    X = data.draw(hnp.arrays(np.bool_, (n, p)))
    F = bs.columns_to_bits(X.astype(np.float64))
    assert F.shape == (p, bs.n_words(n)) and F.dtype == np.uint64
    for j in range(p): assert_set(F[j], n, X[:, j])
    np.testing.assert_array_equal(bs.columns_to_bits(X), F)
    np.testing.assert_array_equal(bs.columns_to_bits(X.astype(np.int64)), F)
    R = bs.rows_to_bits(X.astype(np.int8))
    assert R.shape == (n, bs.n_words(p))
    for i in range(n): assert_set(R[i], p, X[i])
    k = data.draw(st.integers(1, 5))
    y = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    C = bs.classes_to_bits(y, k)
    for c in range(k): assert_set(C[c], n, y == c)


@st.composite
def weighted(draw):
    n, m = draw(one_mask())
    k = draw(st.integers(1, 6))
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    w = draw(hnp.arrays(np.float64, n, elements=st.floats(0, 10, allow_nan=False)))
    yr = draw(hnp.arrays(np.float64, n, elements=st.floats(-100, 100, allow_nan=False)))
    return n, m, k, y, w, yr


@SETTINGS
@given(weighted())
def test_weighted_statistics(case):
    n, m, k, y, w, yr = case
    b = bs.from_bool(m)
    want = np.bincount(y[m], weights=w[m], minlength=k)
    got = bs.class_counts(b, y, w, k)
    assert got.dtype == np.float64 and got.shape == (k,)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    out = np.full(k, -7.0)
    np.testing.assert_allclose(bs.class_counts_into(out, b, y, w), want, rtol=1e-12, atol=1e-9)
    unit = bs.class_counts(b, y, np.ones(n), k)
    np.testing.assert_array_equal(unit, np.bincount(y[m], minlength=k))
    sw, swy, swy2 = bs.target_sums(b, yr, w)
    np.testing.assert_allclose([sw, swy, swy2], [w[m].sum(), (w * yr)[m].sum(), (w * yr * yr)[m].sum()],
                               rtol=1e-9, atol=1e-6)


# --- hashing and memo tables --------------------------------------------------------------------------------------

@SETTINGS
@given(two_masks())
def test_hash(nmm):
    n, ma, mb = nmm
    a = bs.from_bool(ma)
    h = bs.hash_bits(a)
    assert isinstance(h, int) and -2**63 <= h < 2**63
    rebuilt = bs.from_indices(np.random.default_rng(0).permutation(np.flatnonzero(ma)).astype(np.int64), n)
    assert bs.hash_bits(rebuilt) == h                                    # equal sets, built differently
    assert bs.hash_bits(bs.not_(bs.not_(a, n), n)) == h
    if not np.array_equal(ma, mb):
        assert bs.hash_bits(bs.from_bool(mb)) != h                       # a 64-bit clash here would be a red flag


@SETTINGS
@given(st.data())
def test_memo_interning(data):
    n = data.draw(sizes)
    sets = data.draw(st.lists(masks(n), min_size=1, max_size=12))
    sets = sets + data.draw(st.lists(st.sampled_from(sets), max_size=6))   # repeats
    table, keys = bs.memo_new(n, 1)
    truth = {}
    for m in sets:
        table, keys, slot, new = bs.memo_insert(table, keys, bs.from_bool(m))
        key = m.tobytes()
        assert new == (key not in truth)
        truth.setdefault(key, slot)
        assert slot == truth[key]
    assert bs.memo_size(table) == len(truth)
    for key, slot in truth.items():
        assert bs.memo_find(table, keys, bs.from_bool(np.frombuffer(key, dtype=bool))) == slot
        np.testing.assert_array_equal(bs.to_bool(keys[slot], n), np.frombuffer(key, dtype=bool))


def test_memo_forced_collisions():
    n = 100
    sets = [bs.from_indices(np.array([i]), n) for i in range(10)]
    table, keys = bs.memo_new(n, 2)
    for i, s in enumerate(sets):                               # every key hashes to 7: all collide
        table, keys, slot, new = bs._memo_insert_from(table, keys, s, 7)
        assert (slot, new) == (i, True)
    for i, s in enumerate(sets):
        assert bs._memo_find_from(table, keys, s, 7) == i
        assert bs._memo_insert_from(table, keys, s, 7)[2:] == (i, False)
    assert bs._memo_find_from(table, keys, bs.empty(n), 7) == -1


# --- callable from other numba code -------------------------------------------------------------------------------

@njit
def _split_stats(F, y, w, k):
    "A solver-shaped loop: for each feature, class counts of both children of the root plus their sizes."
    n = y.shape[0]
    root = bs.full(n)
    left = bs.empty(n)
    right = bs.empty(n)
    counts = np.zeros((F.shape[0], 2, k))
    sizes = np.zeros((F.shape[0], 2), dtype=np.int64)
    table, keys = bs.memo_new(n, 4)
    for j in range(F.shape[0]):
        bs.andnot_into(left, root, F[j])
        bs.and_into(right, root, F[j])
        bs.class_counts_into(counts[j, 0], left, y, w)
        bs.class_counts_into(counts[j, 1], right, y, w)
        sizes[j, 0] = bs.popcount(left)
        sizes[j, 1] = bs.count_and(root, F[j])
        table, keys, _, _ = bs.memo_insert(table, keys, left)
        table, keys, _, _ = bs.memo_insert(table, keys, right)
    return counts, sizes, bs.memo_size(table)


def test_njit_composition():
    rng = np.random.default_rng(3)
    n, p, k = 150, 6, 3
    X = rng.random((n, p)) < 0.5
    X[:, 1] = ~X[:, 0]                                                  # children of 0 and 1 coincide
    y = rng.integers(0, k, n)
    w = rng.random(n)
    counts, sizes, distinct = _split_stats(bs.columns_to_bits(X), y, w, k)
    for j in range(p):
        np.testing.assert_allclose(counts[j, 0], np.bincount(y[~X[:, j]], weights=w[~X[:, j]], minlength=k))
        np.testing.assert_allclose(counts[j, 1], np.bincount(y[X[:, j]], weights=w[X[:, j]], minlength=k))
        assert tuple(sizes[j]) == ((~X[:, j]).sum(), X[:, j].sum())
    assert distinct == len({X[:, j].tobytes() for j in range(p)} | {(~X[:, j]).tobytes() for j in range(p)})
