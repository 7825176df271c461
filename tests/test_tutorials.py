"""The tutorials (nbs/tutorials) are re-executed and must still say what their saved outputs and prose say.

The docs site shows a notebook's *saved* outputs and its prose; `nbdev_test` runs the tutorials but compares nothing.
Here every tutorial is executed afresh, in a Jupyter kernel as `jupyter nbconvert --execute` would (nbclient, the
kernel's working folder nbs/tutorials so that relative paths work; the tracked file is only read), and
* `test_saved_outputs_are_fresh` fails when a saved text output differs from the fresh one after `normalise`;
* `test_prose_numbers_are_outputs` fails when a number quoted in the markdown is in no fresh output (`prose_numbers`
  says which numbers are checked, `quoted` what counts as quoting one).
The kernel runs as on a fresh machine without network: no `GLASSWORKS_DATA`, an empty `GLASSWORKS_CACHE`, and
`GLASSWORKS_MIRROR` pointing at an empty folder, so a tutorial that needs a data set not shipped fails here.
Cells `nbdev_test` skips (`#| eval: false`, the flags in settings.ini's `tst_flags`, `nbdev_export()`) are skipped here
too; their saved outputs are neither compared nor evidence for the prose.

To refresh a tutorial after a change: `jupyter nbconvert --to notebook --execute --inplace nbs/tutorials/NAME.ipynb`
(with the numba cache warm, or the saved outputs show the first-use compile notice), `nbdev_clean --fname` it, then
reread its prose against the new outputs.
`python tests/test_tutorials.py [NAME ...]` executes tutorials and prints the differences and the timings.
"""
import copy, configparser, functools, json, os, re, sys, tempfile, time
from decimal import Decimal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = ROOT / 'nbs' / 'tutorials'
NOTEBOOKS = sorted(p.name for p in TUTORIALS.glob('*.ipynb'))
CELL_TIMEOUT = 600   # seconds; a tutorial cell should take a few


# ---------------------------------------------------------------------------------------------------- normalisation
# Only what legitimately varies between two runs of the same code on the same inputs is rewritten; every number that
# is a result (errors, R^2, objectives, bounds, weights, counts) is compared as printed. A tutorial whose output
# depends on timing (a search stopped by `time_limit`) is made deterministic (a `node_limit`, or a limit it never
# reaches), not normalised.
NORMALISE = [
    # numba compiles the kernels on first use (once per cache); the notice goes to stderr of whichever cell compiles
    (re.compile(r'^glassworks: compiling the numba kernels of .+ on first use \(once: .+\)$\n?', re.M), ''),
    (re.compile(r' \(\+\d+\.\d+s compiling numba kernels, once\)'), ''),      # and a `summary()` says how long it took
    # wall-clock seconds as the package prints them: "gap 0 (optimal), 3.08s", "built in 0.003s"
    (re.compile(r'(?<![\w.])\d+\.\d+s\b'), '<seconds>s'),
    (re.compile(r'\b0x[0-9a-fA-F]{6,16}\b'), '0x<address>'),                                       # object addresses
    (re.compile('(?:' + '|'.join(map(re.escape, sorted({'/tmp', '/var/folders', tempfile.gettempdir(),
                                                           os.path.realpath(tempfile.gettempdir())}))) +
                r')/[^\s\'"]+'), '<tmp path>'),                                                 # temporary files
]
_re_progress = re.compile(r'^[^\n]*\r(?!\n)', re.M)   # a progress bar redraws its line with '\r': keep the last draw


def normalise(text:str) -> str:
    "The text of an output with the run-dependent parts rewritten (see `NORMALISE`), lines right-stripped."
    text = _re_progress.sub('', text.replace('\r\n', '\n'))
    for pattern, repl in NORMALISE: text = pattern.sub(repl, text)
    return '\n'.join(line.rstrip() for line in text.strip('\n').splitlines())


def _text(x) -> str:
    return ''.join(x) if isinstance(x, list) else (x or '')


def shown(cell:dict) -> list:
    """What a code cell's outputs say, to compare: each stream (stdout, stderr) merged over the cell, then each rich
    output's `text/plain` and `text/html` (a wide DataFrame's text elides columns that its HTML shows; a figure's
    text is its size and axes, PNG/SVG bytes are not compared), then errors; all normalised, empty streams dropped."""
    streams, rich = {}, []
    for o in cell.get('outputs', []):
        kind = o.get('output_type')
        if kind == 'stream': streams[o['name']] = streams.get(o['name'], '') + _text(o.get('text'))
        elif kind in ('execute_result', 'display_data'):
            rich += [(f"{kind} {mime}", normalise(_text(o['data'][mime])))
                     for mime in ('text/plain', 'text/html') if mime in o.get('data', {})]
        elif kind == 'error': rich.append(('error', f"{o.get('ename')}: {normalise(_text(o.get('evalue')))}"))
    merged = [(name, normalise(t)) for name, t in sorted(streams.items())]
    return [(k, t) for k, t in merged if t] + rich


# ---------------------------------------------------------------------------------------------------- skipped cells
def _skip_flags() -> set:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / 'settings.ini')
    return set(cfg['DEFAULT'].get('tst_flags', '').split())


def skipped(cell:dict, flags=None) -> bool:
    "Would `nbdev_test` skip this code cell? (`#| eval: false`, a test flag such as `#| slow`, `nbdev_export()`)"
    src = _text(cell.get('source'))
    if 'nbdev_export' + '(' in src: return True
    d = {k.lower(): v.lower() for k, v in re.findall(r'^\s*#\|\s*([\w-]+)\s*:?\s*(\S*)', src, re.M)}
    return d.get('eval') == 'false' or bool((_skip_flags() if flags is None else flags) & d.keys())


# ---------------------------------------------------------------------------------------------------- execution
def _kernel_env(empty:Path) -> dict:
    "The environment of a fresh machine without network: no local data folder, an empty cache, a mirror with nothing."
    env = {k: v for k, v in os.environ.items() if k not in ('GLASSWORKS_DATA', 'IN_TEST')}
    (empty / 'cache').mkdir()
    (empty / 'mirror').mkdir()
    env.update(GLASSWORKS_CACHE=str(empty / 'cache'), GLASSWORKS_MIRROR=(empty / 'mirror').as_uri())
    return env


@functools.lru_cache(maxsize=None)
def execute(name:str) -> tuple:
    """Execute tutorial `name` afresh: the executed notebook (a dict), seconds per code cell, and the run's
    seconds (`wall`; `compile`, the wall seconds the kernel spent compiling numba kernels; `cpu`, its CPU time)."""
    import nbformat
    from nbclient import NotebookClient
    saved = nbformat.read(TUTORIALS / name, as_version=4)
    nb = copy.deepcopy(saved)
    flags = _skip_flags()
    for c in nb.cells:
        if c.cell_type == 'code':
            c.outputs = []
            if skipped(c, flags): c.source = ''                  # keeps the cell indices; nothing runs
    # one cell more, removed below: the kernel's seconds of numba compilation (a cold cache compiles on first use)
    nb.cells.append(nbformat.v4.new_code_cell(
        "import sys\nprint(getattr(sys.modules.get('glassworks.compiling'), 'compile_seconds', float)())"))
    seconds = {}
    started = {}

    def on_start(cell, cell_index): started[cell_index] = time.perf_counter()

    def on_done(cell, cell_index, execute_reply): seconds[cell_index] = time.perf_counter() - started[cell_index]

    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name='python3', allow_errors=False,
                            resources={'metadata': {'path': str(TUTORIALS)}},
                            on_cell_start=on_start, on_cell_executed=on_done)
    t0, cpu0 = time.perf_counter(), _children_cpu()
    with tempfile.TemporaryDirectory() as d:
        client.execute(env=_kernel_env(Path(d)))
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    compiled = float(_text(nb.cells.pop().outputs[0]['text']))
    seconds.pop(len(nb.cells), None)
    return json.loads(nbformat.writes(nb)), seconds, dict(wall=wall, cpu=cpu, compile=compiled)


def _children_cpu() -> float:
    "CPU seconds of the finished child processes (the kernels): a timing that a loaded machine inflates less."
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _saved(name:str) -> dict:
    return json.loads((TUTORIALS / name).read_text(encoding='utf-8'))


def stale_outputs(saved:dict, fresh:dict, flags=None) -> list:
    "The code cells whose saved outputs differ from the fresh ones: (index, saved `shown`, fresh `shown`)."
    assert len(saved['cells']) == len(fresh['cells'])
    flags = _skip_flags() if flags is None else flags
    return [(i, shown(a), shown(b)) for i, (a, b) in enumerate(zip(saved['cells'], fresh['cells']))
            if a['cell_type'] == 'code' and not skipped(a, flags) and shown(a) != shown(b)]


def _report(name:str, stale:list) -> str:
    import difflib
    out = [f"{name}: {len(stale)} code cell(s) whose saved outputs differ from a fresh run (refresh the tutorial, "
           "then reread its prose):"]
    for i, a, b in stale:
        fmt = lambda s: [f"[{k}] {line}" for k, t in s for line in t.splitlines()]   # noqa: E731
        out += [f"--- cell {i}", *difflib.unified_diff(fmt(a), fmt(b), 'saved', 'fresh', lineterm='', n=1)]
    return '\n'.join(out)


# ---------------------------------------------------------------------------------------------------- prose numbers
# Which numbers in the markdown are checked:
# * every number with a fractional part ("0.275", "3.5"): such a number is nearly always a result;
# * every number, integers too, in a paragraph marked by the author with the HTML comment `<!-- results -->` (the
#   marker is invisible in Jupyter and on the site; it covers the text up to the next blank line).
# Numbers inside LaTeX ($...$), link targets and HTML comments are not prose. A checked number must be *quoted* from
# the notebook (`quoted`). A prose number that is no output (a date, a citation, an equation number) goes in
# `NOT_OUTPUTS` with the reason; keep that list short.
MARKER = '<!-- results -->'
NOT_OUTPUTS = {   # notebook -> {number: why it is not an output}
    '03_interactions.ipynb': {'0.05': "HierScaleRegressor's default lambda_min_ratio, which the code overrides"},
}
_re_math = re.compile(r'\$\$.+?\$\$|\$[^$\n]+\$', re.S)
_re_link_target = re.compile(r'\]\([^)]*\)')
_re_comment = re.compile(r'<!--.*?-->', re.S)
_re_prose_number = re.compile(r'(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w.]?\d)(?!\w)')
_re_output_number = re.compile(r'(?<![\d.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?')


def _plain(md:str) -> str:
    return _re_link_target.sub('](...)', _re_math.sub(' ', _re_comment.sub(' ', md)))


def prose_numbers(md:str) -> list:
    "The numbers of a markdown cell's text that are checked (see above), as strings without thousands separators."
    found = []
    for para in re.split(r'\n\s*\n', md):
        marked = MARKER in para
        for m in _re_prose_number.finditer(_plain(para)):
            if marked or m.group(2): found.append((m.group(1) + (m.group(2) or '')).replace(',', ''))
    return found


def _places(s:str) -> int:
    return len(s.split('.')[1]) if '.' in s else 0


def quoted(number:str, outputs:set, code:set) -> bool:
    """Is prose `number` quoted from the notebook? It equals a number of a fresh output or of the code (a parameter
    quoted in the text), or, shown with two decimals or more, an output's number rounded to them ("0.29" for
    0.287; "0.4" is not quoted by 0.393: a single decimal would match too much). Signs are ignored."""
    p = Decimal(number)
    if any(Decimal(o) == p for o in outputs | code): return True
    if _places(number) < 2: return False
    q = Decimal(1).scaleb(-_places(number))
    return any(_places(o) > _places(number) and Decimal(o).quantize(q, rounding='ROUND_HALF_UP') == p
               for o in outputs if 'e' not in o.lower())


def numbers_in(text:str) -> set:
    return {m.group(0).replace(',', '') for m in _re_output_number.finditer(text)}


def unquoted_prose_numbers(nb:dict, name:str='', flags=None) -> list:
    "(cell index, number) for every checked prose number of `nb` that is not `quoted` from its outputs or code."
    outputs, code, flags = set(), set(), _skip_flags() if flags is None else flags
    for c in nb['cells']:
        if c['cell_type'] != 'code' or skipped(c, flags): continue
        code |= numbers_in(_text(c['source']))
        for o in c.get('outputs', []):
            outputs |= numbers_in(_text(o.get('text')) + '\n' + _text(o.get('data', {}).get('text/plain')))
    allowed = NOT_OUTPUTS.get(name, {})
    return [(i, n) for i, c in enumerate(nb['cells']) if c['cell_type'] == 'markdown'
            for n in prose_numbers(_text(c['source'])) if n not in allowed and not quoted(n, outputs, code)]


# ---------------------------------------------------------------------------------------------------- the checks
def test_normalise_keeps_results():
    "The normalisation rewrites timings, addresses, temporary paths and compile notices, and no result."
    line = 'OSDTClassifier: objective 0.0726633, lower bound 0.0726633, gap 0 (optimal), 3.08s'
    assert normalise(line) == 'OSDTClassifier: objective 0.0726633, lower bound 0.0726633, gap 0 (optimal), <seconds>s'
    assert normalise('epsilon 0.05:     2,313 trees, 112 distinct objectives, built in 0.008s') == \
        'epsilon 0.05:     2,313 trees, 112 distinct objectives, built in <seconds>s'
    for kept in ['10      0.322 (10)          0.275 (10)  0.262 (10)', '+50.633  IF s5 > 4.879 AND bmi > 27.65  (n=56)',
                 '(17, True, 0.947, 0.45)', 'RashomonSet(2313 trees, optimum 0.374868)', 's5 <= 4.769: predict 1s']:
        assert normalise(kept) == kept
    notice = ('glassworks: compiling the numba kernels of OSDTClassifier on first use (once: they are cached in '
              '/x/__pycache__; `glassworks compile` does it ahead of time)\n')
    assert normalise(notice + 'done\n') == 'done'
    assert normalise('gap 0 (optimal), 0.79s (+6.6s compiling numba kernels, once)') == 'gap 0 (optimal), <seconds>s'
    assert normalise('<Tree at 0x7f3a2b4c5d60> wrote /tmp/tmpab12/x.json') == '<Tree at 0x<address>> wrote <tmp path>'
    assert normalise(' 10%|#         | 1/10\r 100%|##########| 10/10\n') == ' 100%|##########| 10/10'


def test_checks_can_fail():
    "A changed result in an output, or a prose number no output holds, is reported (no tutorial is executed)."
    nb = _saved(NOTEBOOKS[0])
    assert not stale_outputs(nb, nb) and shown(nb['cells'][0]) == []
    changed = copy.deepcopy(nb)
    i, cell = next((i, c) for i, c in enumerate(changed['cells']) if c['cell_type'] == 'code' and shown(c))
    o = next(o for o in cell['outputs'] if o.get('text') or o.get('data'))
    text = _text(o.get('text') or o['data']['text/plain'])
    digit = re.search(r'\d', text).start()
    new = text[:digit] + str((int(text[digit]) + 1) % 10) + text[digit + 1:]
    if 'text' in o: o['text'] = new
    else: o['data']['text/plain'] = new
    assert [s[0] for s in stale_outputs(nb, changed)] == [i]
    md = {'cell_type': 'markdown', 'source': f'It peaks at 10 rules (0.123456) and 40 rules.\n\n{MARKER} 40 rules.'}
    assert prose_numbers(md['source']) == ['0.123456', '40']
    added = [n for i, n in unquoted_prose_numbers({'cells': [*nb['cells'], md]}) if i == len(nb['cells'])]
    assert added == ['0.123456', '40']


def test_prose_number_rules():
    "Which prose numbers are checked and what quotes them."
    assert prose_numbers('R$^2$ of 0.275 at $K=15$, [page](../x_1.5.html), s5, 2,313 trees, v1.2.3, 30 %') == \
        ['0.275']
    assert prose_numbers(f'{MARKER}\n7 rules (0.331), 2,313 trees\n\n8 rules') == ['7', '0.331', '2313']
    outputs = {'0.287', '0.331', '2313', '7', '0.393'}
    assert quoted('0.29', outputs, set()) and quoted('0.33', outputs, set()) and not quoted('0.4', outputs, set())
    assert quoted('2313', outputs, set()) and quoted('0.05', set(), {'0.05'})
    assert not quoted('0.275', outputs, {'0.2'}) and not quoted('0.5', outputs, set()) and not quoted('8', outputs,
                                                                                                     set())


def test_skipped_like_nbdev_test():
    flags = _skip_flags()
    assert {'slow', 'notest'} <= flags
    assert skipped({'source': '#| eval: false\nfit()'}) and skipped({'source': ['#| slow\n', 'fit()']})
    assert skipped({'source': 'nbdev.nbdev_export()'}) and not skipped({'source': '# slow\nfit()'})


@pytest.mark.parametrize('name', NOTEBOOKS)
def test_saved_outputs_are_fresh(name):
    fresh, seconds, t = execute(name)
    slow = sorted(seconds.items(), key=lambda kv: -kv[1])[:3]
    print(f"{name}: {t['wall']:.1f}s ({t['compile']:.1f}s of it compiling numba kernels), kernel CPU {t['cpu']:.1f}s "
          f"(slowest cells: {', '.join(f'{i}: {s:.1f}s' for i, s in slow)})")
    stale = stale_outputs(_saved(name), fresh)
    assert not stale, _report(name, stale)


@pytest.mark.parametrize('name', NOTEBOOKS)
def test_prose_numbers_are_outputs(name):
    fresh = execute(name)[0]
    missing = unquoted_prose_numbers(fresh, name)
    assert not missing, (f"{name}: numbers in the prose that no fresh output (nor the code) holds, as "
                         f"(markdown cell, number): {missing}; rewrite the prose from the outputs, or list a number "
                         "that is not an output (a date, a citation) in NOT_OUTPUTS with the reason")


if __name__ == '__main__':
    for name in sys.argv[1:] or NOTEBOOKS:
        name = Path(name).with_suffix('.ipynb').name
        fresh, seconds, t = execute(name)
        print(f"== {name}: {t['wall']:.1f}s ({t['compile']:.1f}s of it compiling numba kernels), kernel CPU "
              f"{t['cpu']:.1f}s; seconds per code cell: " + ', '.join(f'{i}: {s:.1f}' for i, s in seconds.items()))
        stale = stale_outputs(_saved(name), fresh)
        print(_report(name, stale) if stale else 'outputs: fresh')
        print('prose numbers not quoted from the outputs:', unquoted_prose_numbers(fresh, name))
