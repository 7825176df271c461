#!/usr/bin/env python
"""Regression trees on raw numeric tables, every threshold of every column (`OSRTRegressor` without a binarizer):
time to certify the most accurate tree of depth 2 and 3 (regularization 0, 60 s cap) and its training R^2 against
CART's at the same depth. Categorical columns are one-hot encoded (0/1 columns); the tables are the raw regression
tables of `../shared/data/raw` (via `glassworks.datasets.load`, so `GLASSWORKS_DATA` must point there) and
scikit-learn's diabetes.

    GLASSWORKS_DATA=../shared/data python benchmarks/continuous_regression.py   # -> results/continuous_regression.md
"""
from __future__ import annotations
import datetime, time
from pathlib import Path

import pandas as pd
from sklearn.datasets import load_diabetes
from sklearn.tree import DecisionTreeRegressor

from glassworks.datasets import load
from glassworks.osrt import OSRTRegressor

TABLES = ['diabetes', 'boston', 'insurance', 'wages', 'used_cars']
OUT = Path(__file__).resolve().parent / 'results' / 'continuous_regression.md'


def table(name):
    "(X with categories one-hot encoded, y)."
    if name == 'diabetes':
        d = load_diabetes(as_frame=True)
        return d.data, d.target
    X, y, _ = load(name)
    return pd.get_dummies(X, drop_first=True, dtype=float), y


def main():
    OSRTRegressor(0.0, max_depth=2).fit(*[a[:40] for a in table('diabetes')])   # numba's cache, outside the timing
    rows = []
    for name in TABLES:
        X, y = table(name)
        for d in (2, 3):
            t = time.perf_counter()
            m = OSRTRegressor(regularization=0.0, max_depth=d, time_limit=60).fit(X, y)
            seconds = time.perf_counter() - t
            cart = DecisionTreeRegressor(max_depth=d, random_state=0).fit(X, y)
            rows.append(dict(table=name, rows=X.shape[0], columns=X.shape[1], depth=d, seconds=round(seconds, 2),
                             certified=m.optimal_, gap=m.gap_, train_r2=round(m.r2_, 4),
                             cart_train_r2=round(cart.score(X, y), 4)))
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    head = (f"# Regression trees on raw numeric tables, every threshold\n\n"
            f"Command: `GLASSWORKS_DATA=../shared/data python benchmarks/continuous_regression.py`  \n"
            f"Date (UTC): {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}; one process, fit time after "
            f"numba's cache load; regularization 0, 60 s cap per fit.\n\n")
    OUT.write_text(head + df.to_markdown(index=False) + '\n')
    print(f"wrote {OUT}")


if __name__ == '__main__': main()
