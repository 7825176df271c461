#!/usr/bin/env python
"""Optimal classification trees on continuous features: glassworks' numeric engine (`glassworks.numdp`) against ConTree.

    python benchmarks/continuous_bench.py [--tables bank rice ...] [--depths 2 3 4] [--cap 60] [--out PREFIX] [--quick]

Problem: fewest training errors (unit weights, no leaf price) over all binary trees with at most d splits on any path,
splitting on every threshold of every numeric column (no binarisation). Tables: the ConTree benchmark tables
$GLASSWORKS_DATA/continuous/*.txt.gz (default ../shared/data beside the repository; gzipped, space separated, no header,
the label 0..k-1 first, then the features) and scikit-learn's bundled breast_cancer, wine and iris (`sk-*`).

Each (table, depth, solver) runs in its own fresh subprocess (`--worker SOLVER TABLE DEPTH CAP`, which prints one JSON
line), one after the other, under `timeout cap+60` as a safety net (a killed run is reported as such). A worker loads
the table, warms its solver up on 30 rows of the same table spread over the file (numba's cache load or compilation,
ConTree's first call; at depth 3 and at the run's depth), caps its address space, then times the fit alone with
time.perf_counter. Runs shorter than 0.2 s are repeated in the same worker (`--repeat`, default 5) and the fastest kept.
  * ours        `D = NumericData(X, y); search_numeric(D, 0.0, max_depth=d, monitor=SearchMonitor(time_limit=cap))`,
                NumericData (ranks and sorted orders of every column) inside the timing, as ConTree's preprocessing is
                inside its `fit`; certified = `res.complete`; lower bound = `res.lower_bound * n` (errors).
  * contree     `pycontree.base.ConTree(max_depth=d, time_limit=cap).fit(X, y)` (defaults: complexity_cost 0, max_gap 0,
                i.e. exact); certified = no "Fitting exceeds time limit." warning and its stopwatch within the limit;
                it reports no lower bound. It reads the features as float32 (`train_errors_f32` re-counts its tree's
                errors on X rounded to float32).
  * quantile32  our binary engine on 32 quantile cuts per column: `OSDTClassifier(regularization=0.0, max_depth=d,
                binarizer=Binarizer(strategy='quantile', n_bins=33), time_limit=cap)` (n_bins - 1 = 32 inner quantiles;
                fewer cuts where they fall in the same gap between distinct values); errors of its tree on the raw
                table; certified = `optimal_` (optimal over the 0/1 features only, not over all thresholds); its
                lower bound `lower_bound_ * n` bounds the binarised problem, not the raw one.
Training errors are always recounted from the returned tree's predictions on the raw X. Writes OUT.csv (one row per
run) and OUT.md after every run. See benchmarks/README.md.
"""
from __future__ import annotations
import argparse, datetime, gc, hashlib, json, math, os, platform, resource, shlex, subprocess, sys, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parent.parent
SOLVERS = ['contree', 'ours', 'quantile32']
SKLEARN = ['sk-iris', 'sk-wine', 'sk-breast_cancer']
DEPTHS = [2, 3, 4]
QUICK = dict(tables=['sk-iris', 'sk-wine', 'sk-breast_cancer', 'bank', 'rice'], depths=[2])
N_BINS = 33                       # 32 inner quantiles per column
WARM_ROWS = 30
SHORT = 0.2                       # runs shorter than this are repeated (best of --repeat)
RESULT = 'RESULT '                # the worker's JSON line starts with this


def data_dir():
    return Path(os.environ.get('GLASSWORKS_DATA', REPO.parent / 'shared' / 'data'))


def table_name(name):
    "'wine' or 'sk-wine' -> 'sk-wine'; a file name 'bank.txt.gz' -> 'bank'."
    name = name.split('/')[-1].split('.')[0]
    return f"sk-{name}" if name in ('iris', 'wine', 'breast_cancer') else name


def all_tables(folder):
    return SKLEARN + sorted(p.name.split('.')[0] for p in (folder / 'continuous').glob('*.txt.gz'))


def load_table(name, folder):
    "(X float64 (n, p) C-contiguous, y intc class codes 0..k-1) of a table."
    if name.startswith('sk-'):
        from sklearn import datasets
        d = getattr(datasets, f"load_{name[3:]}")()
        X, y = np.asarray(d.data, dtype=np.float64), np.asarray(d.target)
    else:
        df = pd.read_csv(folder / 'continuous' / f"{name}.txt.gz", sep=r'\s+', header=None, compression='gzip')
        y, X = df.iloc[:, 0].to_numpy(), df.iloc[:, 1:].to_numpy(dtype=np.float64)
    _, y = np.unique(y, return_inverse=True)
    return np.ascontiguousarray(X), y.ravel().astype(np.intc)


# ---------------------------------------------------------------------------------------------------------------------
# the worker: one solver, one table, one depth
def fit_ours(X, y, d, cap):
    from glassworks.numdp import NumericData, search_numeric
    from glassworks.base import SearchMonitor
    gc.collect()
    t = time.perf_counter()
    D = NumericData(X, y)
    t1 = time.perf_counter()
    mon = SearchMonitor(time_limit=cap)
    res = search_numeric(D, 0.0, max_depth=d, monitor=mon)
    sec = time.perf_counter() - t
    pred = np.asarray(res.tree.predict(X))
    return dict(seconds=sec, data_seconds=t1 - t, train_errors=int(np.sum(pred != y)),
                reported_errors=round(float(res.objective) * D.n, 6), certified=bool(res.complete),
                lower_bound=round(float(res.lower_bound) * D.n, 6), leaves=int(res.tree.n_leaves),
                tree_depth=int(res.tree.depth), stopped_by=mon.stopped_by or '',
                note=json.dumps({k: int(v) for k, v in res.stats.items()}))


def fit_contree(X, y, d, cap):
    from pycontree.base import ConTree
    m = ConTree(max_depth=d, time_limit=cap)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        gc.collect()
        t = time.perf_counter()
        m.fit(X, y)
        sec = time.perf_counter() - t
    timed_out = any('exceeds time limit' in str(w.message) for w in caught) or not m._config.is_within_time_limit()
    pred = np.asarray(m.predict(X))
    pred32 = np.asarray(m.tree_.predict(np.ascontiguousarray(X.astype(np.float32).astype(np.float64))))
    return dict(seconds=sec, train_errors=int(np.sum(pred != y)), train_errors_f32=int(np.sum(pred32 != y)),
                certified=not timed_out, lower_bound=math.nan, leaves=int(m.get_num_leaf_nodes()),
                tree_depth=int(m.get_depth()), stopped_by='time_limit' if timed_out else '')


def fit_quantile32(X, y, d, cap):
    from glassworks.osdt import OSDTClassifier
    from glassworks.binarize import Binarizer
    m = OSDTClassifier(regularization=0.0, max_depth=d, binarizer=Binarizer(strategy='quantile', n_bins=N_BINS),
                       time_limit=cap)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        gc.collect()
        t = time.perf_counter()
        m.fit(X, y)
        sec = time.perf_counter() - t
    pred = np.asarray(m.predict(X))
    return dict(seconds=sec, train_errors=int(np.sum(pred != y)), certified=bool(m.optimal_),
                lower_bound=round(float(m.lower_bound_) * len(y), 6), leaves=int(m.n_leaves_),
                tree_depth=int(m.tree_.depth), stopped_by=str(m.stats_.get('stopped_by') or ''),
                note=f"{len(m.feature_names_)} binary features, search {m.search_}")


FITS = dict(ours=fit_ours, contree=fit_contree, quantile32=fit_quantile32)


def limit_memory(gb):
    "Cap the address space at its current size plus `gb` GB: a run that needs more fails with MemoryError."
    with open('/proc/self/status') as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith('VmSize:'))
    cap = vm + int(gb * 2 ** 30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def worker(solver, name, depth, cap, repeat, mem_gb, folder):
    X, y = load_table(name, folder)
    fit = FITS[solver]
    import glassworks.numdp
    numdp_sha = hashlib.sha256(Path(glassworks.numdp.__file__).read_bytes()).hexdigest()[:12]
    rows = np.unique(np.linspace(0, len(y) - 1, min(WARM_ROWS, len(y))).astype(int))
    t = time.perf_counter()
    for d in sorted({3, depth}):
        fit(X[rows], y[rows], d, 60.0)
    out = dict(warmup_seconds=time.perf_counter() - t, load_1min=os.getloadavg()[0], numdp_sha=numdp_sha)
    if mem_gb > 0: limit_memory(mem_gb)
    try:
        best = fit(X, y, depth, cap)
        for _ in range(repeat - 1):
            if best['seconds'] >= SHORT: break
            r = fit(X, y, depth, cap)
            if r['seconds'] < best['seconds']: best = r
        out.update(best)
    except MemoryError as e:
        out.update(error=f"MemoryError (address space capped at +{mem_gb:g} GB): {e}")
    print(RESULT + json.dumps(out), flush=True)


# ---------------------------------------------------------------------------------------------------------------------
# the driver
def run_one(solver, name, depth, cap, repeat, mem_gb, folder):
    "Run one worker under `timeout cap+60`; its result dict (seconds NaN and an `error` when it failed)."
    cmd = ['timeout', '-k', '10', f"{cap + 60:g}", sys.executable, str(Path(__file__).resolve()), '--worker', solver,
           name, str(depth), f"{cap:g}", '--repeat', str(repeat), '--mem-gb', f"{mem_gb:g}", '--data', str(folder)]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    lines = [s for s in p.stdout.splitlines() if s.startswith(RESULT)]
    if p.returncode == 0 and lines:
        r = json.loads(lines[-1][len(RESULT):])
    else:
        why = (f"killed by timeout after {wall:.0f} s (cap + 60 s, warm-up included)" if p.returncode in (124, 137)
               else f"exit {p.returncode}: " + ' | '.join(p.stderr.strip().splitlines()[-3:]))
        r = dict(error=why)
    if 'error' in r:
        r.setdefault('seconds', math.nan)
        r.update(train_errors=r.get('train_errors', math.nan), certified=False)
    r['worker_wall'] = wall
    r['finished_utc'] = datetime.datetime.now(datetime.timezone.utc).strftime('%H:%M:%S')
    return r


def versions():
    from importlib.metadata import version
    out = {}
    for p in ('glassworks', 'pycontree', 'numba', 'numpy'):
        try: out[p] = version(p)
        except Exception: out[p] = '?'           # noqa: BLE001
    return out


def engine_version():
    "The commit of the checkout and the state of glassworks/numdp.py (sha256 prefix; tracked or not)."
    src = REPO / 'glassworks' / 'numdp.py'
    sha = hashlib.sha256(src.read_bytes()).hexdigest()[:12] if src.exists() else 'missing'
    try:
        head = subprocess.run(['git', '-C', str(REPO), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True,
                              check=True).stdout.strip()
        st = subprocess.run(['git', '-C', str(REPO), 'status', '--porcelain', '--', 'glassworks/numdp.py'],
                            capture_output=True, text=True, check=True).stdout.strip()
        state = 'untracked' if st.startswith('??') else 'modified' if st else 'as committed'
        return f"commit {head}, glassworks/numdp.py sha256 {sha} ({state})"
    except (OSError, subprocess.CalledProcessError):
        return f"glassworks/numdp.py sha256 {sha}"


def earlier_rows(out):
    "The rows of an interrupted run's OUT.csv (error counts back to int) and the command line of its OUT.md."
    df = pd.read_csv(f"{out}.csv", dtype={'numdp_sha': str, 'finished_utc': str})
    rows = [{k: v for k, v in r.items() if not (isinstance(v, float) and v != v and k in ('error', 'note',
                                                                                          'stopped_by'))}
            for r in df.to_dict('records')]
    for r in rows:
        if r['train_errors'] == r['train_errors']: r['train_errors'] = int(r['train_errors'])
        if r.get('train_errors_f32') == r.get('train_errors_f32'): r['train_errors_f32'] = int(r['train_errors_f32'])
        r['certified'] = bool(r['certified'])
    md = Path(f"{out}.md")
    old = [s for s in md.read_text().splitlines() if s.startswith('Command')] if md.exists() else []
    return rows, (old[0].split(': ', 1)[1].strip() if old else '')


def run_grid(tables, depths, cap, out, repeat, mem_gb, folder, command, note, resume=False):
    rows, before = earlier_rows(out) if resume and Path(f"{out}.csv").exists() else ([], '')
    done = {(r['table'], r['depth'], r['solver']) for r in rows}
    meta = dict(command=f"{before}, resumed by `{command}`" if before else f"`{command}`",
                date=datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d'),
                load_start=os.getloadavg(), cap=cap, repeat=repeat, note=note, versions=versions(),
                engine=engine_version(), start=time.perf_counter())
    for name in tables:
        X, y = load_table(name, folder)
        n, p, k = len(y), X.shape[1], int(y.max()) + 1
        print(f"{name}: n={n} p={p} k={k}", flush=True)
        for depth in depths:
            for solver in SOLVERS:
                if (name, depth, solver) in done: continue
                r = run_one(solver, name, depth, cap, repeat, mem_gb, folder)
                rows.append(dict(table=name, n=n, p=p, k=k, depth=depth, solver=solver, **r))
                lb = r.get('lower_bound', math.nan)
                print(f"  d={depth} {solver:<10} {r['seconds']:8.3f} s  errors {r['train_errors']}"
                      f"{'' if r['certified'] else ' (not certified)'}{f'  lb {lb:g}' if lb == lb else ''}"
                      f"{'  ERROR ' + r['error'] if 'error' in r else ''}", flush=True)
                meta['load_end'], meta['total'] = os.getloadavg(), time.perf_counter() - meta['start']
                write_report(rows, Path(out), meta)
    meta['load_end'], meta['total'] = os.getloadavg(), time.perf_counter() - meta['start']
    if rows: write_report(rows, Path(out), meta)
    print(f"wrote {out}.csv and {out}.md ({meta['total']:.0f} s)", flush=True)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------------------------------
# the report
CSV_COLUMNS = ['table', 'n', 'p', 'k', 'depth', 'solver', 'seconds', 'train_errors', 'certified', 'lower_bound',
               'reported_errors', 'train_errors_f32', 'data_seconds', 'leaves', 'tree_depth', 'stopped_by',
               'warmup_seconds', 'load_1min', 'worker_wall', 'finished_utc', 'numdp_sha', 'note', 'error']


def fmt_sec(r):
    if r is None: return '—'
    if 'error' in r and isinstance(r['error'], str): return 'error' if 'killed' not in r['error'] else 'killed'
    s = r['seconds']
    t = f"{s:.3f}" if s < 10 else f"{s:.1f}"
    return t if r['certified'] else f"≥{t} (cap)"


def fmt_err(r, bound=False):
    if r is None or not isinstance(r.get('train_errors'), (int, np.integer)): return '—'
    e = str(r['train_errors'])
    if bound and not r['certified'] and r.get('lower_bound') == r.get('lower_bound'):
        e += f" (lb {r['lower_bound']:g})"
    return e


def case_table(rows):
    "{(table, depth): {solver: row}} in run order."
    cases = {}
    for r in rows:
        cases.setdefault((r['table'], r['depth']), {})[r['solver']] = r
    return cases


def errors_of(r):
    return r['train_errors'] if r is not None and isinstance(r.get('train_errors'), (int, np.integer)) else None


def anomalies(cases):
    "Wrong answers: (table, depth, text)."
    out = []
    for (t, d), c in cases.items():
        o, s, q = c.get('ours'), c.get('contree'), c.get('quantile32')
        eo, es, eq = errors_of(o), errors_of(s), errors_of(q)
        for who, r in (('ours', o), ('ConTree', s), ('quantile-32', q)):
            if r is not None and isinstance(r.get('error'), str): out.append((t, d, f"{who} failed: {r['error']}"))
        if o is not None and eo is not None and o.get('reported_errors') is not None \
                and abs(o['reported_errors'] - eo) > 1e-6:
            out.append((t, d, f"ours reports {o['reported_errors']:g} errors, its tree makes {eo} on X"))
        if eo is None or es is None: continue
        if s['certified'] and eo < es:
            out.append((t, d, f"ours {eo} errors, below ConTree's certified optimum {es} (ConTree on float32 X: "
                              f"{s.get('train_errors_f32')})"))
        if o['certified'] and es < eo:
            out.append((t, d, f"ours certified with {eo} errors, ConTree's tree makes {es}"
                              f"{' (ConTree certified)' if s['certified'] else ''}"))
        lb = o.get('lower_bound')
        if lb is not None and lb == lb and lb > es + 1e-6:
            out.append((t, d, f"our lower bound {lb:g} is above ConTree's tree's errors {es}"))
        if eq is not None and o['certified'] and eq < eo:
            out.append((t, d, f"quantile-32 tree {eq} errors, below our certified {eo}"))
    return out


def write_report(rows, out, meta):
    out.parent.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)
    df = df[[c for c in CSV_COLUMNS if c in df.columns] + [c for c in df.columns if c not in CSV_COLUMNS]]
    df.to_csv(f"{out}.csv", index=False, float_format='%.6g')
    cases = case_table(rows)
    ls, le = meta['load_start'], meta.get('load_end', meta['load_start'])
    v = meta['versions']
    L = ['# Optimal classification trees on continuous features: ours (`glassworks.numdp`) against ConTree', '',
         f"Command: {meta['command']}  ",
         f"Date (UTC): {meta['date']}; {platform.node()}, {os.cpu_count()} CPUs, {platform.machine()}, "
         f"Python {platform.python_version()}; total {meta.get('total', 0):.0f} s.  ",
         f"Machine load: 1/5/15-min load averages {ls[0]:.2f}/{ls[1]:.2f}/{ls[2]:.2f} at the start, "
         f"{le[0]:.2f}/{le[1]:.2f}/{le[2]:.2f} at the last write; per-run 1-min load in the CSV (`load_1min`)."
         + (f" {meta['note']}" if meta['note'] else '') + '  ',
         'Versions: ' + ', '.join(f"{k} {x}" for k, x in v.items()) + f"; {meta['engine']}.", '',
         f"Fewest training errors with at most d splits on a path, every threshold of every column. Each run is a "
         f"fresh subprocess, one at a time, warmed up on {WARM_ROWS} rows of the same table; fit time only "
         f"(perf_counter; ours includes building `NumericData`); cap {meta['cap']:g} s per run (`≥t (cap)` = not "
         f"certified), `timeout cap+60` as a safety net; runs < {SHORT} s: best of {meta['repeat']}. Ratio: `<r` ours "
         "certified and ConTree did not, `>r` the reverse, `both t/o` neither. `errors ours (lb b)`: our certified "
         "lower bound when not certified. quantile-32: our binary engine on 32 quantile cuts per column "
         "(`Binarizer(strategy='quantile', n_bins=33)`), errors on the raw table, ✓ = optimal over those cuts.", '']
    depths = sorted({d for _, d in cases})
    for depth in depths:
        L += [f"## Depth {depth}", '',
              '| table | n×p | ConTree s | ours s | ratio ours/ConTree | errors ConTree | errors ours | '
              'certified (C/ours) | quantile-32 s, errors |', '|---|---|---|---|---|---|---|---|---|']
        for (t, d), c in cases.items():
            if d != depth: continue
            o, s, q = c.get('ours'), c.get('contree'), c.get('quantile32')
            any_r = o or s or q
            ratio = ''
            if o is not None and s is not None and o['seconds'] == o['seconds'] and s['seconds'] == s['seconds']:
                r = o['seconds'] / s['seconds'] if s['seconds'] > 0 else math.inf
                ratio = (f"{r:.3g}" if o['certified'] and s['certified'] else f"<{r:.3g}" if o['certified']
                         else f">{r:.3g}" if s['certified'] else 'both t/o')
            cert = '/'.join(('—' if r is None else 'yes' if r['certified'] else 'no') for r in (s, o))
            qcell = '—' if q is None else f"{fmt_sec(q)}, {fmt_err(q)}{' ✓' if q['certified'] else ''}"
            L.append(f"| {t} | {any_r['n']}×{any_r['p']} | {fmt_sec(s)} | {fmt_sec(o)} | {ratio or '—'} | "
                     f"{fmt_err(s)} | {fmt_err(o, bound=True)} | {cert} | {qcell} |")
        L.append('')
    L += ['## Summary', '']
    for depth in depths:
        both = [(o['seconds'] / s['seconds'], t) for (t, d), c in cases.items() if d == depth
                for o, s in [(c.get('ours'), c.get('contree'))]
                if o is not None and s is not None and o['certified'] and s['certified'] and s['seconds'] > 0]
        med = f"**{np.median([r for r, _ in both]):.3g}**" if both else 'n/a'
        L.append(f"* Depth {depth}: median ours/ConTree time ratio {med} over the {len(both)} cases both certified"
                 + (f" (range {min(both)[0]:.3g} {min(both)[1]} – {max(both)[0]:.3g} {max(both)[1]})" if both else '')
                 + '.')
    only_c = [f"{t} d={d} (ConTree {c['contree']['seconds']:.3g} s)" for (t, d), c in cases.items()
              if 'contree' in c and 'ours' in c and c['contree']['certified'] and not c['ours']['certified']]
    only_o = [f"{t} d={d} (ours {c['ours']['seconds']:.3g} s)" for (t, d), c in cases.items()
              if 'contree' in c and 'ours' in c and c['ours']['certified'] and not c['contree']['certified']]
    L.append('* ConTree certified and ours did not: ' + ('; '.join(only_c) or 'none') + '.')
    L.append('* Ours certified and ConTree did not: ' + ('; '.join(only_o) or 'none') + '.')
    diff = []
    for (t, d), c in cases.items():
        eo, es = errors_of(c.get('ours')), errors_of(c.get('contree'))
        if eo is not None and es is not None and eo != es:
            tag = lambda r: '' if r['certified'] else ' (not certified)'
            diff.append(f"{t} d={d} ConTree {es}{tag(c['contree'])}, ours {eo}{tag(c['ours'])}")
    L.append('* Errors differ (ConTree vs ours): ' + ('; '.join(diff) or 'none') + '.')
    if 'numdp_sha' in df.columns:
        seen = df['numdp_sha'].fillna('not recorded').value_counts(sort=False)
        L.append('* `glassworks/numdp.py` as the workers read it (sha256 prefix: runs): '
                 + ', '.join(f"{k}: {v}" for k, v in seen.items()) + '.')
    bad = anomalies(cases)
    L.append('* Anomalies (failures, wrong answers, inconsistent bounds): '
             + ('; '.join(f"**{t} d={d}: {x}**" for t, d, x in bad) or 'none') + '.')
    Path(f"{out}.md").write_text('\n'.join(L) + '\n')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--tables', nargs='+', default=None,
                    help='tables (file stems of continuous/*.txt.gz, or iris/wine/breast_cancer); default all')
    ap.add_argument('--depths', nargs='+', type=int, default=None, help='default 2 3 4 (--quick: 2)')
    ap.add_argument('--cap', type=float, default=60.0, help='seconds per run (default 60)')
    ap.add_argument('--out', default=None,
                    help='output prefix (default benchmarks/results/continuous; --quick: continuous.quick)')
    ap.add_argument('--quick', action='store_true', help=f"depth 2 on {', '.join(QUICK['tables'])}")
    ap.add_argument('--repeat', type=int, default=5, help=f"runs < {SHORT} s: best of this many (default 5)")
    ap.add_argument('--mem-gb', type=float, default=8.0,
                    help='a worker may grow its address space by this many GB after warm-up (0: no cap; default 8)')
    ap.add_argument('--resume', action='store_true',
                    help='keep the rows of OUT.csv (an interrupted run) and run only the missing cases')
    ap.add_argument('--note', default='', help='free text for the machine-load line of the report')
    ap.add_argument('--data', default=None, help='data folder (default $GLASSWORKS_DATA or ../shared/data)')
    ap.add_argument('--worker', nargs=4, metavar=('SOLVER', 'TABLE', 'DEPTH', 'CAP'), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    folder = Path(a.data) if a.data else data_dir()
    if a.worker:
        solver, name, depth, cap = a.worker
        if solver not in FITS: ap.error(f"unknown solver {solver!r}")
        return worker(solver, table_name(name), int(depth), float(cap), a.repeat, a.mem_gb, folder)
    tables = [table_name(t) for t in a.tables] if a.tables else QUICK['tables'] if a.quick else all_tables(folder)
    depths = a.depths or (QUICK['depths'] if a.quick else DEPTHS)
    out = a.out or str(REPO / 'benchmarks' / 'results' / ('continuous.quick' if a.quick else 'continuous'))
    return run_grid(tables, depths, a.cap, out, a.repeat, a.mem_gb, folder,
                    shlex.join(['python', 'benchmarks/continuous_bench.py', *argv]), a.note, a.resume)


if __name__ == '__main__':
    main()
