"""Kept only for nbs/13_osrt.ipynb, which still reaches into tests/ (`from oracles import brute_regression`); tests and
the other notebooks import the oracles from the package (`glassworks.oracles`). Delete once 13_osrt does too."""
from glassworks.oracles import brute_classification, brute_regression, exhaustive_tree, n_leaves, oracle_predict  # noqa: F401
