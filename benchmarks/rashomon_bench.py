#!/usr/bin/env python
"""Rashomon sets of depth-limited sparse trees: `glassworks.rashomon` against SORTD (Arslan et al., NeurIPS 2025).

    python benchmarks/rashomon_bench.py [--datasets compas monk1 ...] [--depths 3 4 5] [--eps 0.01 0.05 0.1]
                                        [--lam 0.01] [--cap 60] [--task classification regression]
                                        [--ours | --no-ours] [--sortd-python /tmp/sortd/venv/bin/python]
                                        [--out benchmarks/results/rashomon] [--quick]

The set: every tree of depth ≤ d on the 0/1 features whose objective is ≤ (1 + ε) · the optimum, where the objective
is  misclassified fraction + λ·leaves  (classification, 0/1 labels) or  SSE/SST + λ·leaves  (regression, squared
error). Depth d = at most d splits on any root-to-leaf path (d = 0 is a single leaf).

Each (data set, d, ε) runs each solver in a fresh subprocess (`_rashomon_worker.py`), one after the other, never two
at once, with a per-run cap (`--cap`, default 60 s):
  * sortd  pysortd built from source (github zafeirisego/zaf-pysortd, see README.md) in its own virtualenv
           (`--sortd-python`, default $SORTD_PYTHON or /tmp/sortd/venv/bin/python):
           `SORTDClassifier('cost-complex-accuracy', max_depth=d, cost_complexity=λ, use_rashomon_multiplier=True,
           rashomon_multiplier=ε, time_limit=cap)` (regression: `SORTDRegressor('cost-complex-regression', ...)`).
           Its objective is N·ours (classification: errors + λ·N per leaf) or SST·ours (regression: SSE + λ·SST
           per leaf), so its bound (1 + ε)·optimum is ours scaled: the same set. Full set = one fit (the sorted set in
           SORTD's compact form, counted); first 1,000 = a second fresh fit with `max_num_trees=1000`.
  * ours   `run_ours` below (`RashomonSet.from_data`): build (counted, nothing materialised), then `preorders(0, 1000)`
           (first 1,000) and `preorders(0, count)` (full set materialised, when count ≤ 10^6). Numba is compiled in
           the worker before timing.
SORTD drops, before it searches, every constant feature and every feature equal to an earlier one or to its
complement (it flips features that are 1 in more than ⌊N/2⌋ rows, then removes duplicates): it does not count the
trees that use such a copy. Where a data set has such features, ours is run a second time on SORTD's reduced feature
set, and `counts_equal` compares SORTD with that run (`ours_count_sortd_features`); `ours_count` is ours on all
features. When counts still differ, the first `--compare-trees` trees of both are compared as sets of preorders and the
differences are listed in OUT.md.
Memory: peak resident set of each worker process (ru_maxrss; VmHWM polled by this script for a run it kills) and its
resident set just before the timed work (interpreter, imports, data, warm-up). Runs shorter than 0.2 s are repeated
(`--repeat`, inside the worker, both solvers alike) and the fastest kept.
Writes OUT.csv and OUT.md after every case. Data: `glassworks.datasets.load` ($GLASSWORKS_DATA). See README.md.
"""
from __future__ import annotations
import argparse, datetime, gc, json, math, os, platform, statistics, subprocess, sys, tempfile, threading, time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORKER = HERE / '_rashomon_worker.py'
SORTD_REPO = 'https://github.com/zafeirisego/zaf-pysortd'
SORTD_COMMIT = '94530c5a885d3d7b8d8271bf011372186884df91'   # the newest commit (b97d2ff) does not compile
CLS_DATASETS = ['compas', 'monk1', 'monk2', 'monk3', 'tic-tac-toe']      # + the DL8.5 suite (suite_datasets())
REG_DATASETS = ['airfoil', 'airquality', 'enb-heat', 'real-estate', 'seoul-bike', 'servo', 'sync', 'yacht']
DEPTHS = [3, 4, 5]
EPSILONS = [0.01, 0.05, 0.1]
QUICK = dict(datasets=['compas', 'monk1', 'monk2', 'monk3', 'tic-tac-toe'], depths=[3, 4], eps=[0.01, 0.05], cap=20.0)
PREFIX = 1000
MATERIALISE_MAX = 10 ** 6


# ---------------------------------------------------------------------------------------------------------------------
# ours: the one function to adapt to the API of glassworks.rashomon
def run_ours(X, y, task, depth, lam, eps, cap, prefix=PREFIX, dump=0, dump_to=None, progress=None):
    """Time our Rashomon set on a 0/1 matrix X. Returns count, build_s, first_s (build + first `prefix` trees
    materialised), full_s (build + all trees materialised; None above MATERIALISE_MAX). `cap` is enforced by the parent
    (it kills the worker); pass it on here if the API grows a time limit. If `dump`, saves the first `dump`
    preorders."""
    from glassworks.rashomon import RashomonSet
    kw = dict(task=task, max_depth=depth, regularization=lam, epsilon=eps)
    if task == 'regression': kw['metric'] = 'l2'
    progress = progress or (lambda **_: None)
    gc.collect()
    t0 = time.perf_counter()
    rs = RashomonSet.from_data(X, y, **kw)
    build = time.perf_counter() - t0
    count = int(rs.count)
    out = dict(count=count, build_s=build, reported_build_s=float(getattr(rs, 'build_seconds', math.nan)))
    progress(stage='build', **out)
    t = time.perf_counter()
    P = rs.preorders(0, min(prefix, count))
    out['first_s'] = build + time.perf_counter() - t
    out['first_count'] = int(len(P))
    progress(stage='first', **out)
    out['full_s'] = None
    if count <= MATERIALISE_MAX:
        del P
        gc.collect()
        t = time.perf_counter()
        P = rs.preorders(0, count)
        out['full_s'] = build + time.perf_counter() - t
        if len(P) != count: out['error'] = f"preorders(0, count) returned {len(P)} rows, count is {count}"
    if dump and dump_to and count:
        np.save(dump_to, np.asarray(P[:dump] if len(P) >= min(dump, count) else rs.preorders(0, min(dump, count))))
        out['dumped'] = min(dump, count)
    return out


def warm_up_ours(task):
    "Untimed tiny runs: numba compilation (or cache load) kept out of the timings."
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 6))
    for t in ('classification', 'regression'):
        y = (X[:, 0] ^ X[:, 1]) | (rng.random(60) < 0.1) if t == 'classification' else X[:, 0] + rng.random(60)
        run_ours(X, y.astype(np.int64 if t == 'classification' else np.float64), t, 3, 0.01, 0.05, 60)


# ---------------------------------------------------------------------------------------------------------------------
# data
def load_case(name, task):
    "(X int32 0/1, y, description) of a data set; non-binary columns are binarised (quantile thresholds)."
    from glassworks.datasets import load
    X, y, _ = load(name)
    Xv = X.to_numpy() if hasattr(X, 'to_numpy') else np.asarray(X)
    binary = Xv.dtype.kind in 'biu' and np.isin(Xv, (0, 1)).all()
    note = ''
    if not binary:
        from glassworks.binarize import Binarizer
        Xv = np.asarray(Binarizer(strategy='quantile', n_bins=4, output='numpy').fit_transform(X))
        note = f'binarised ({Xv.shape[1]} features, quantile n_bins=4)'
    yv = y.to_numpy() if hasattr(y, 'to_numpy') else np.asarray(y)
    if task == 'classification':
        classes = np.unique(yv)
        if len(classes) != 2: raise ValueError(f"{name}: {len(classes)} classes; SORTD needs 0/1 labels")
        yv = (yv == classes[1]).astype(np.int32)
    else:
        yv = yv.astype(np.float64)
    return np.ascontiguousarray(Xv, dtype=np.int32), yv, note


def sortd_kept_features(X):
    """The features SORTD keeps (its global preprocessing, re-stated): drop a feature that is constant (fewer than
    min_leaf_node_size = 1 rows on either side) or, after flipping every feature that is 1 in more than ⌊N/2⌋ rows,
    equal to an earlier kept feature (so duplicates and complements go)."""
    n = len(X)
    ones = X.sum(axis=0)
    Xf = np.where(ones > n // 2, 1 - X, X)
    keep, seen = [], {}
    for f in range(X.shape[1]):
        if ones[f] < 1 or ones[f] > n - 1: continue
        key = Xf[:, f].tobytes()
        if key in seen: continue
        seen[key] = f
        keep.append(f)
    return keep


# ---------------------------------------------------------------------------------------------------------------------
# subprocess runs
def _proc_kb(pid, field):
    try:
        for line in Path(f'/proc/{pid}/status').read_text().splitlines():
            if line.startswith(field + ':'): return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def run_worker(python, args, limit, startup=600.0, mem_gb=16.0):
    """Run the worker; the clock (`limit` seconds) starts at its READY line. Returns (status, result dict):
    status 'ok', 'cap' (killed at the limit), 'mem' (killed above mem_gb), or 'error'."""
    cmd = [str(python), str(WORKER)] + [str(a) for a in args]
    err = tempfile.TemporaryFile(mode='w+')
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1,
                         env={**os.environ, 'PYTHONUNBUFFERED': '1'})
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(p.stdout.readline, '')), daemon=True)
    reader.start()
    t_start, t_ready, hwm, status = time.perf_counter(), None, 0, None
    while p.poll() is None:
        time.sleep(0.05)
        now = time.perf_counter()
        if t_ready is None and any(l.startswith('READY') for l in lines): t_ready = now
        hwm = max(hwm, _proc_kb(p.pid, 'VmHWM') or 0)
        if (_proc_kb(p.pid, 'VmRSS') or 0) > mem_gb * 2 ** 20: status = 'mem'
        elif t_ready is not None and now - t_ready > limit: status = 'cap'
        elif t_ready is None and now - t_start > startup: status = 'cap'
        if status:
            p.kill()
            p.wait()
            break
    reader.join(timeout=5)
    res = {}
    for l in lines:                                   # STAGE lines first, RESULT last: later keys win
        tag, _, body = l.partition(' ')
        if tag in ('STAGE', 'RESULT', 'READY'):
            try: d = json.loads(body)
            except json.JSONDecodeError: continue
            if tag == 'READY': res['ready_rss_mb'] = d.get('rss_mb')
            else: res.update(d)
            if tag == 'RESULT': status = status or 'ok'
    res['hwm_mb'] = hwm / 1024
    if status is None:
        err.seek(0)
        tail = err.read()[-600:].strip().replace('\n', ' | ')
        status, res['error'] = 'error', f"exit {p.returncode}: {tail}"
    err.close()
    res.setdefault('peak_rss_mb', res['hwm_mb'])
    return status, res


def worker_args(solver, npz, task, depth, lam, eps, cap, repeat, dump, dump_to):
    a = ['--solver', solver, '--data', npz, '--task', task, '--depth', depth, '--lam', lam, '--eps', eps, '--cap', cap,
         '--prefix', PREFIX, '--repeat', repeat]
    if dump: a += ['--dump', dump, '--dump-to', dump_to]
    return a


# ---------------------------------------------------------------------------------------------------------------------
def compare_sets(a_path, b_path, keep_b=None):
    """Compare two dumps of preorders (rows padded with -2) as sets of trees. keep_b maps b's feature indices (a run
    on reduced features) back to the original ones. Returns (only in a, only in b) as lists of tuples."""
    def rows(path, keep=None):
        A = np.load(path)
        out = set()
        for r in A:
            r = [int(v) for v in r if v != -2]
            if keep is not None: r = [keep[v] if v >= 0 else v for v in r]
            out.add(tuple(r))
        return out
    a, b = rows(a_path), rows(b_path, keep_b)
    return sorted(a - b), sorted(b - a)


def ratio(a, b):
    return a / b if (a is not None and b is not None and b > 0 and a == a) else math.nan


def run_case(name, task, X, y, depth, lam, eps, cap, a, tmp):
    n, M = X.shape
    keep = sortd_kept_features(X)
    row = dict(dataset=name, task=task, n=n, features=M, sortd_features=len(keep), depth=depth, lam=lam, eps=eps)
    npz = tmp / 'case.npz'
    np.savez(npz, X=X, y=y)
    dump = a.compare_trees
    st, s = run_worker(a.sortd_python, worker_args('sortd', npz, task, depth, lam, eps, cap, a.repeat, dump,
                                                   tmp / 'sortd.npy'), 2 * cap + 15, mem_gb=a.mem_gb)
    complete = st == 'ok' and bool(s.get('exhausted')) and bool(s.get('complete')) and bool(s.get('optimal'))
    row.update(sortd_status=st if st != 'ok' else ('ok' if complete else 'cap'), sortd_count=s.get('count'),
               sortd_s=s.get('full_s'), sortd_first1000_s=s.get('prefix_s'), sortd_first_count=s.get('prefix_count'),
               sortd_opt=s.get('opt'), sortd_worst=s.get('worst_in_set'), sortd_peak_mb=s.get('peak_rss_mb'),
               sortd_base_mb=s.get('base_rss_mb'), sortd_error=s.get('error', ''))
    if a.ours:
        runs = [('', X, None)]
        if len(keep) < M: runs.append(('_sortd_features', X[:, keep], keep))
        for suffix, Xr, kp in runs:
            np.savez(npz, X=Xr, y=y)
            dump_to = tmp / f'ours{suffix}.npy'
            st, o = run_worker(sys.executable if a.ours_python is None else a.ours_python,
                               worker_args('ours', npz, task, depth, lam, eps, cap, a.repeat, dump, dump_to),
                               cap + 10, mem_gb=a.mem_gb)
            row[f'ours{suffix}_status'] = st if not o.get('error') or st != 'ok' else 'error'
            row[f'ours{suffix}_count'] = o.get('count')
            if suffix:
                row['ours_sortd_features_s'] = o.get('full_s')
                row['ours_sortd_features_build_s'] = o.get('build_s')
            else:
                row.update(ours_build_s=o.get('build_s'), ours_first1000_s=o.get('first_s'), ours_s=o.get('full_s'),
                           ours_reported_build_s=o.get('reported_build_s'), ours_peak_mb=o.get('peak_rss_mb'),
                           ours_base_mb=o.get('base_rss_mb'), ours_error=o.get('error', ''))
        ours_cmp = row.get('ours_sortd_features_count', row.get('ours_count'))
        both = row['sortd_status'] == 'ok' and row.get('ours_status') == 'ok' and (
            len(keep) == M or row.get('ours_sortd_features_status') == 'ok')
        row['counts_equal'] = (row['sortd_count'] == ours_cmp) if both else None
        row['ratio'] = ratio(row.get('ours_s'), row['sortd_s']) if both else math.nan
        row['build_ratio'] = ratio(row.get('ours_build_s'), row['sortd_s']) if both else math.nan
        # the same set: ours on SORTD's features where it drops some (else the run above)
        same = row.get('ours_sortd_features_s', row.get('ours_s'))
        row['ratio_same_set'] = ratio(same, row['sortd_s']) if both else math.nan
        row['first1000_ratio'] = ratio(row.get('ours_first1000_s'), row['sortd_first1000_s'])
        row['sets_equal'], row['diff_note'] = None, ''
        if both:
            kp = keep if len(keep) < M else None
            ours_dump = tmp / ('ours_sortd_features.npy' if kp is not None else 'ours.npy')
            if (max(row['sortd_count'] or 0, ours_cmp or 0) <= dump and (tmp / 'sortd.npy').exists()
                    and ours_dump.exists()):
                only_s, only_o = compare_sets(tmp / 'sortd.npy', ours_dump, kp)
                row['sets_equal'] = not only_s and not only_o
                if not row['sets_equal']:
                    row['diff_note'] = (f"{len(only_s)} trees only in SORTD (e.g. {only_s[:2]}), {len(only_o)} only in "
                                        f"ours (e.g. {only_o[:2]}); preorders over the original feature indices, "
                                        "-1 = leaf")
            elif not row['counts_equal']:
                row['diff_note'] = f'sets larger than --compare-trees {dump}: not compared tree by tree'
    for f in tmp.glob('*.np[yz]'): f.unlink()
    return row


# ---------------------------------------------------------------------------------------------------------------------
def sortd_version(python):
    code = ("import importlib.metadata as m, pysortd, sklearn; "
            "print(f\"pysortd {m.version('pysortd')} at {pysortd.__file__}, scikit-learn {sklearn.__version__}\")")
    r = subprocess.run([str(python), '-c', code], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else f'not importable: {r.stderr.strip()[-300:]}'


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and v != v): return '—'
    if isinstance(v, float): return f"{v:.{digits}g}" if v < 10 else f"{v:.1f}"
    return str(v)


def fmt_count(v, status):
    s = '—' if v is None else f"{int(v):,}"
    return s if status in ('ok', None) else f"{s} ({status})" if v is not None else status


def write_report(rows, out, meta):
    import pandas as pd
    out.parent.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)
    df.to_csv(f"{out}.csv", index=False, float_format='%.10g')
    L = ['# Rashomon sets of depth-limited sparse trees: ours against SORTD', '',
         f"Generated {meta['date']} by `{meta['command']}` on {platform.node()} ({os.cpu_count()} CPUs, "
         f"{platform.machine()}, Python {platform.python_version()}); each solver in its own subprocess, one run at a "
         f"time; cap {meta['cap']:g} s per run; runs < 0.2 s: best of {meta['repeat']}. "
         f"Total {meta.get('total', 0):.0f} s.  ",
         f"SORTD: {SORTD_REPO} at commit {SORTD_COMMIT[:12]} ({meta['sortd']}), "
         f"`rashomon_multiplier=ε`, `cost_complexity=λ`, `max_depth=d`, defaults otherwise.  ",
         f"Ours: {'run' if meta['ours'] else 'not run (--no-ours)'}.", '',
         '## Summary', '']
    L.append(f"* Cases: {len(df)}; SORTD finished (set exhausted, optimum certified) in "
             f"{int((df.sortd_status == 'ok').sum())}.")
    if meta['ours'] and 'counts_equal' in df:
        both = df[df.counts_equal.notna()]
        L.append(f"* Both finished: {len(both)}; counts equal in {int((both.counts_equal == True).sum())}.")  # noqa: E712
        for col, what in (('ratio', 'full set (ours materialised, all features; SORTD compact)'),
                          ('ratio_same_set', "full set, ours on SORTD's features M′ (the same set)"),
                          ('build_ratio', 'ours build only (counted, compact; all features) vs SORTD full'),
                          ('first1000_ratio', 'first 1,000 trees (all features)')):
            v = df[col].dropna() if col in df else []
            if len(v):
                L.append(f"* **Median ours/SORTD time ratio, {what}: {statistics.median(v):.3g}** over {len(v)} cases "
                         "(< 1: ours faster).")
        same = df[df.sets_equal.notna()] if 'sets_equal' in df else df.iloc[:0]
        L.append(f"* Compared tree by tree (both sets ≤ {meta['compare']:,} trees, as sets of preorders): "
                 f"{len(same)} cases, identical in {int((same.sets_equal == True).sum())}.")                  # noqa: E712
        bad = df[(df.counts_equal == False) | (df.get('sets_equal') == False)]               # noqa: E712
        L.append('* Count or set mismatches: ' + ('none.' if not len(bad) else ''))
        for r in bad.itertuples():
            oc = r.ours_sortd_features_count if r.features != r.sortd_features else r.ours_count
            L.append(f"  * {r.dataset} d={r.depth} ε={r.eps:g}: SORTD {fmt_count(r.sortd_count, None)}, ours "
                     f"{fmt_count(oc if oc == oc else None, None)}"
                     f" ({r.diff_note or 'counts differ'})")
    errs = [f"{r['dataset']} d={r['depth']} ε={r['eps']:g} {s}: {r.get(f'{s}_error')}"
            for r in rows for s in ('sortd', 'ours') if r.get(f'{s}_error')]
    if errs: L.append('* Errors: ' + '; '.join(errs))
    L += ['', '## Per case', '',
          'Counts: `(cap)` = not finished within the cap (SORTD: its count so far), `(mem)` killed above the memory '
          'limit. `M′` = features SORTD keeps (it drops constant, duplicate and complementary features; ours is then '
          'also run on those, `ours on M′`). Seconds: SORTD full = one fit (sorted set, compact form); ours build = '
          'counted set, ours full = build + all trees materialised as preorders (— above 10^6 trees); first 1,000: '
          'SORTD a fit with `max_num_trees=1000`, ours build + `preorders(0, 1000)`. `same trees`: both sets dumped as '
          'preorders (split features, leaves −1; ours on M′ mapped back to the original indices) and compared as sets, '
          f"when both have at most {meta['compare']:,} trees. Memory: peak RSS of the worker process / RSS before "
          'the timed work (MB).', '']
    cols = ['dataset', 'n', 'M', 'M′', 'd', 'ε', 'SORTD count', 'ours count', 'ours on M′', 'equal', 'same trees',
            'SORTD s', 'ours build s', 'ours full s', 'ours/SORTD', 'SORTD 1k s', 'ours 1k s', 'SORTD MB', 'ours MB']
    L += ['| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]
    for r in rows:
        eq = r.get('counts_equal')
        L.append('| ' + ' | '.join([
            r['dataset'] + ('' if r['task'] == 'classification' else ' (reg)'), str(r['n']), str(r['features']),
            str(r['sortd_features']), str(r['depth']), f"{r['eps']:g}",
            fmt_count(r['sortd_count'], r['sortd_status']), fmt_count(r.get('ours_count'), r.get('ours_status')),
            fmt_count(r.get('ours_sortd_features_count'), r.get('ours_sortd_features_status'))
            if 'ours_sortd_features_status' in r else '=',
            '—' if eq is None else 'yes' if eq else '**NO**',
            {None: '—', True: 'yes', False: '**NO**'}[r.get('sets_equal')], fmt(r['sortd_s']),
            fmt(r.get('ours_build_s')), fmt(r.get('ours_s')), fmt(r.get('ratio')), fmt(r['sortd_first1000_s']),
            fmt(r.get('ours_first1000_s')),
            f"{fmt(r['sortd_peak_mb'], 4)} / {fmt(r['sortd_base_mb'], 4)}",
            f"{fmt(r.get('ours_peak_mb'), 4)} / {fmt(r.get('ours_base_mb'), 4)}" if r.get('ours_status')
            else '—']) + ' |')
    Path(f"{out}.md").write_text('\n'.join(L) + '\n')


def run_grid(a, cases):
    tmpdir = tempfile.TemporaryDirectory(prefix='rashomon_bench_')
    tmp = Path(tmpdir.name)
    meta = dict(cap=a.cap, repeat=a.repeat, compare=a.compare_trees, command=a.command, ours=a.ours,
                sortd=sortd_version(a.sortd_python),
                date=f"{datetime.datetime.now():%Y-%m-%d %H:%M}", start=time.perf_counter())
    print(f"SORTD: {meta['sortd']}", flush=True)
    rows, out = [], Path(a.out)
    for name, task in cases:
        try:
            X, y, note = load_case(name, task)
        except Exception as e:                                                    # noqa: BLE001
            print(f"{name}: skipped ({e})", flush=True)
            continue
        print(f"{name} ({task}): n={len(y)} M={X.shape[1]} SORTD keeps {len(sortd_kept_features(X))} {note}",
              flush=True)
        for depth in a.depths:
            for eps in a.eps:
                row = run_case(name, task, X, y, depth, a.lam, eps, a.cap, a, tmp)
                rows.append(row)
                print(f"  d={depth} eps={eps:<5g} SORTD {fmt_count(row['sortd_count'], row['sortd_status'])} "
                      f"{fmt(row['sortd_s'])}s (1k {fmt(row['sortd_first1000_s'])}s, {fmt(row['sortd_peak_mb'], 4)} MB)"
                      + (f" | ours {fmt_count(row.get('ours_count'), row.get('ours_status'))}"
                         + (f" / M′ {row.get('ours_sortd_features_count')}"
                            if 'ours_sortd_features_count' in row else '')
                         + f" build {fmt(row.get('ours_build_s'))}s full {fmt(row.get('ours_s'))}s "
                           f"equal {row.get('counts_equal')} ratio {fmt(row.get('ratio'))}" if a.ours else ''),
                      flush=True)
                meta['total'] = time.perf_counter() - meta['start']
                write_report(rows, out, meta)
    print(f"wrote {out}.csv and {out}.md ({meta.get('total', 0):.0f} s)", flush=True)
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--datasets', nargs='+', default=None,
                    help='names for glassworks.datasets.load (default: compas monk1-3 tic-tac-toe + the DL8.5 suite; '
                         'regression: the 8 regression tables)')
    ap.add_argument('--task', nargs='+', default=['classification'], choices=['classification', 'regression'],
                    help='default classification; add regression for the regression tables (SORTDRegressor)')
    ap.add_argument('--depths', nargs='+', type=int, default=None, help='default 3 4 5')
    ap.add_argument('--eps', nargs='+', type=float, default=None, help='default 0.01 0.05 0.1')
    ap.add_argument('--lam', type=float, default=0.01, help='λ, the cost per leaf (default 0.01)')
    ap.add_argument('--cap', type=float, default=None, help='seconds per run and solver (default 60; --quick 20)')
    ap.add_argument('--ours', action=argparse.BooleanOptionalAction, default=True,
                    help='run ours too (--no-ours: SORTD alone)')
    ap.add_argument('--sortd-python', default=os.environ.get('SORTD_PYTHON', '/tmp/sortd/venv/bin/python'),
                    help="python of SORTD's virtualenv")
    ap.add_argument('--ours-python', default=None, help='python for ours (default: this interpreter)')
    ap.add_argument('--compare-trees', type=int, default=20000,
                    help='on a count mismatch, compare the sets tree by tree when both have at most this many trees')
    ap.add_argument('--repeat', type=int, default=5, help='runs < 0.2 s: best of this many (both solvers)')
    ap.add_argument('--mem-gb', type=float, default=16.0, help='kill a worker whose RSS exceeds this')
    ap.add_argument('--out', default=None, help='output prefix (default benchmarks/results/rashomon[.quick])')
    ap.add_argument('--quick', action='store_true', help="compas, monk1-3, tic-tac-toe; d 3 4; ε 0.01 0.05; cap 20 s")
    a = ap.parse_args(argv)
    from glassworks.datasets import suite_datasets
    q = QUICK if a.quick else dict(datasets=None, depths=DEPTHS, eps=EPSILONS, cap=60.0)
    a.depths, a.eps = a.depths or q['depths'], a.eps or q['eps']
    a.cap = a.cap if a.cap is not None else q['cap']
    a.out = a.out or str(HERE / 'results' / ('rashomon.quick' if a.quick else 'rashomon'))
    a.command = 'python benchmarks/rashomon_bench.py ' + ' '.join(argv)
    if a.datasets:                     # a named set: regression if it is one of the regression tables
        cases = [(n, 'regression' if n in REG_DATASETS else 'classification') for n in a.datasets]
    else:
        cases = [(n, t) for t in a.task for n in
                 ((q['datasets'] or CLS_DATASETS + suite_datasets()) if t == 'classification' else REG_DATASETS)]
    return run_grid(a, cases)


if __name__ == '__main__':
    main()
