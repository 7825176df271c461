"""Kept for notebooks and tests that still `import oracles`: the oracles are package code now (glassworks.oracles)."""
from glassworks.oracles import brute_classification, brute_regression, exhaustive_tree, n_leaves, oracle_predict  # noqa: F401
