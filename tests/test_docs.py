"""The docs site (docs/build.py: nbdev processing + Sphinx/myst-nb/pydata-sphinx-theme) in headless Chromium.

Two sites are built (concurrently) into a tmp folder:
* the real one from `nbs/` (override the folder with env GLASSWORKS_DOCS_NBS);
* a small synthetic notebook written here (math, PNG, SVG, a DataFrame, a Quarto callout and tabset, an exported
  function and class with a method, hidden/echo-false cells), so each feature is exercised whatever the notebooks hold.
Both are served by a local HTTP server (as a reader's browser would get them). Needs /usr/bin/chromium and
/usr/bin/chromedriver (Debian `chromium chromium-driver`): skipped without them, unless env CI is set, then it fails.
Screenshots go to a tmp folder; with env GLASSWORKS_SCREENSHOTS=1 to docs/_screenshots/, where the committed ones live
(home, a reference page, a tutorial: refresh them with `GLASSWORKS_SCREENSHOTS=1 pytest tests/test_docs.py`).
"""
import base64, functools, http.server, importlib, inspect, json, os, re, shutil, struct, subprocess, sys, threading
import time, zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / 'docs' / 'build.py'
SHOTS = ROOT / 'docs' / '_screenshots' if os.environ.get('GLASSWORKS_SCREENSHOTS') else \
    Path(__import__('tempfile').gettempdir()) / 'glassworks-screenshots'
NBS = Path(os.environ.get('GLASSWORKS_DOCS_NBS') or ROOT / 'nbs')
CHROMIUM, CHROMEDRIVER = '/usr/bin/chromium', '/usr/bin/chromedriver'
CHROME_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
               '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
               '--disable-quic', '--hide-scrollbars']
_re_math = re.compile(r'\$\$.+?\$\$|(?<![\\$])\$[^$\s](?:[^$\n]*[^$\s\\])?\$(?!\d)|\\begin\{(?:align|equation)', re.S)


# ---------------------------------------------------------------------------------------------------- helpers
def sources(nbs: Path):
    "Pages the site must have: notebooks (recursive) and markdown pages; like nbdev, skip `_`/`.` names."
    return [p.relative_to(nbs).as_posix() for p in sorted([*nbs.rglob('*.ipynb'), *nbs.rglob('*.md')])
            if not any(part.startswith(('_', '.')) for part in p.relative_to(nbs).parts)]


def _src(cell):
    return ''.join(cell.get('source', '')) if isinstance(cell.get('source'), list) else cell.get('source', '')


def _shown(cell):
    "Would nbdev show this cell's content (not #|hide, #|export, include/output false)?"
    d = {k.lower(): v.lower() for k, v in re.findall(r'^\s*#\|\s*([\w-]+)\s*:?\s*(\S*)', _src(cell), re.M)}
    return not ({'hide', 'export', 'exporti', 'exports', 'default_exp'} & d.keys()) and \
        d.get('include') != 'false' and d.get('output') != 'false'


def expectations(path: Path):
    "What a page must show: math where the source has math, images where visible cells have PNG/SVG outputs."
    if path.suffix == '.md': return dict(math=bool(_re_math.search(path.read_text())), img=False)
    nb = json.loads(path.read_text(encoding='utf-8'))
    math = img = False
    for c in nb.get('cells', []):
        if c.get('cell_type') == 'markdown': math |= bool(_re_math.search(_src(c)))
        elif c.get('cell_type') == 'code' and _shown(c):
            for o in c.get('outputs', []):
                data = o.get('data', {})
                img |= bool({'image/png', 'image/svg+xml'} & data.keys()) and 'text/html' not in data
    return dict(math=math, img=img)


def _png(w=24, h=12, rgb=(200, 60, 40)):
    raw = b''.join(b'\x00' + bytes(rgb) * w for _ in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def _svg():
    "A real graphviz drawing when `dot` is installed, else a hand-written one."
    if shutil.which('dot'):
        r = subprocess.run(['dot', '-Tsvg'],
                           input=b'digraph { rankdir=LR; "x0 <= 3" -> "leaf A"; "x0 <= 3" -> "leaf B" }',
                           capture_output=True, timeout=20)
        if r.returncode == 0: return r.stdout.decode()
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            '<svg width="120pt" height="60pt" viewBox="0 0 120 60" xmlns="http://www.w3.org/2000/svg">'
            '<g id="graph0" class="graph"><ellipse cx="30" cy="30" rx="25" ry="15" fill="none" stroke="black"/>'
            '<text x="30" y="34" text-anchor="middle">x0</text></g></svg>')


def _cell(kind, src, outputs=None):
    c = {'cell_type': kind, 'metadata': {}, 'source': src}
    if kind == 'code': c.update(execution_count=None, outputs=outputs or [])
    return c


def _stream(text): return {'output_type': 'stream', 'name': 'stdout', 'text': [text]}


def write_fixture_notebook(path: Path):
    df_html = ('<div><table border="1" class="dataframe"><thead><tr style="text-align: right;"><th></th><th>age</th>'
               '<th>smoker</th></tr></thead><tbody><tr><th>0</th><td>25</td><td>0</td></tr>'
               '<tr><th>1</th><td>40</td><td>1</td></tr></tbody></table></div>')
    cells = [
        _cell('markdown', '# Fixture page\n\n> Synthetic notebook that exercises the `docs` pipeline.'),
        _cell('markdown', 'Inline math $a_i < b_j$ and $\\lambda \\ge 0$, then a display:\n\n'
                          '$$\\min_{w} \\sum_{i=1}^n \\ell(y_i, w^\\top x_i) + \\lambda \\|w\\|_1$$\n\nDone.'),
        _cell('markdown', '::: {.callout-note}\n## Heads up\nCallout body with `code`.\n:::\n\n'
                          '::: {.callout-warning title="Careful here"}\nSecond callout body.\n:::\n\n'
                          '::: {.panel-tabset}\n## First tab\nTAB_ONE_BODY\n\n## Second tab\nTAB_TWO_BODY\n:::'),
        _cell('code', '#| hide\nHIDDEN_MARKER_SOURCE = 1', [_stream('HIDDEN_MARKER_OUTPUT\n')]),
        _cell('code', '#| export\ndef fixture_fn(x:int, # the input\n               scale:float=2.0 # a factor\n'
                      '              )->float:\n'
                      '    "Multiply `x` by `scale`, 2**k times *not italic* a_b_c; weight $W$."\n'
                      '    return EXPORTED_BODY_MARKER * x'),
        _cell('code', '#| export\nclass FixtureThing:\n    "A thing with a method."\n'
                      '    def grow(self, k:int # how many doublings\n             ):\n'
                      '        "Double it 2**k times."\n        return 2**k\n'
                      '    def _private(self): pass'),
        _cell('code', '#| echo: false\nprint("ECHO_FALSE_SOURCE_MARKER")', [_stream('echo-false-output-visible\n')]),
        _cell('code', 'test_eq(fixture_fn(1), 2.0)  # CHECK_ONLY_MARKER\nassert FixtureThing().grow(1) == 2'),
        _cell('code', 'kept = fixture_fn(2)\ntest_eq(kept, 4.0)  # KEPT_CHECK_MARKER: a later cell reads `kept`'),
        _cell('code', 'print(kept)', [_stream('4.0\n')]),
        _cell('code', 'for i in range(3): print(i)', [_stream('line 0\n'), _stream('line 1\n'), _stream('line 2\n')]),
        _cell('code', 'plot_something()',
              [{'output_type': 'display_data', 'metadata': {},
                'data': {'image/png': base64.b64encode(_png()).decode(), 'text/plain': ['<Figure>']}}]),
        _cell('code', 'tree.draw()',
              [{'output_type': 'execute_result', 'execution_count': 1, 'metadata': {},
                'data': {'image/svg+xml': _svg(), 'text/plain': ['<graphviz.graphs.Digraph at 0x7f>']}}]),
        _cell('code', 'df',
              [{'output_type': 'execute_result', 'execution_count': 2, 'metadata': {},
                'data': {'text/html': [df_html], 'text/plain': ['   age  smoker']}}]),
    ]
    nb = {'cells': cells,
          'metadata': {'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
                       'language_info': {'name': 'python'}}, 'nbformat': 4, 'nbformat_minor': 5}
    path.write_text(json.dumps(nb, indent=1), encoding='utf-8')


# ---------------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope='module')
def sites(tmp_path_factory):
    "Build the real site and the fixture site concurrently; fail with the builder's message if either fails."
    tmp = tmp_path_factory.mktemp('docs')
    fx_nbs = tmp / 'fixture_nbs'
    fx_nbs.mkdir()
    write_fixture_notebook(fx_nbs / 'fixture.ipynb')
    # a tutorials/ notebook, a markdown page and a sidebar.yml with a section: nav, output names and links
    (fx_nbs / 'tutorials').mkdir()
    (fx_nbs / 'tutorials' / '01_first_steps.ipynb').write_text(json.dumps({
        'cells': [_cell('markdown', '# First steps\n\n> A tutorial.'),
                  _cell('markdown', 'Back to [the fixture](../fixture.ipynb) and `fixture_fn`.')],
        'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}))
    (fx_nbs / 'scaling_out.md').write_text('---\ntitle: Scaling out\ndescription: Many `cores`.\n---\n\n'
                                           'See [the fixture](fixture.ipynb).\n\n'
                                           '::: {.callout-tip}\n## Tip\nBody.\n:::\n')
    (fx_nbs / 'sidebar.yml').write_text('website:\n  sidebar:\n    contents:\n'
                                        '      - section: Guides\n        contents:\n'
                                        '          - fixture.ipynb\n          - auto: "*scaling_out*"\n'
                                        '      - section: Tutorials\n        contents: "tutorials/*"\n')
    runs = {'real': ['--nbs', str(NBS), '--out', str(tmp / 'site'), '--no-cache'],
            'fixture': ['--nbs', str(fx_nbs), '--out', str(tmp / 'fixture_site'), '--jobs', '1', '--sphinx-jobs', '1',
                        '--no-cache']}
    t0 = time.perf_counter()
    procs = {k: subprocess.Popen([sys.executable, str(BUILD), *a], cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for k, a in runs.items()}
    res = {k: (p.communicate(timeout=600), p.returncode) for k, p in procs.items()}
    for k, ((out, err), rc) in res.items():
        assert rc == 0, f'docs/build.py ({k}) exited {rc}:\n{err[-4000:]}\n{out[-2000:]}'
    print(f'\nbuilt both sites in {time.perf_counter() - t0:.1f}s\n{res["real"][0][0]}\n{res["real"][0][1][-3000:]}')
    return {'real': tmp / 'site', 'fixture': tmp / 'fixture_site', 'fixture_nbs': fx_nbs,
            'log': {k: r[0][1] for k, r in res.items()}}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass


@pytest.fixture(scope='module')
def server(sites):
    "Serve the tmp folder holding both sites on 127.0.0.1; yields {'real': url, 'fixture': url}."
    root = sites['real'].parent
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f'http://127.0.0.1:{httpd.server_address[1]}'
    yield {'base': base, 'real': f'{base}/{sites["real"].name}', 'fixture': f'{base}/{sites["fixture"].name}'}
    httpd.shutdown()


@pytest.fixture(scope='module')
def driver(tmp_path_factory):
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append('the selenium package')
    if missing:
        msg = (f'headless Chromium not available, missing: {", ".join(missing)} '
               '(apt-get install chromium chromium-driver)')
        if os.environ.get('CI'): pytest.fail(msg)
        pytest.skip(msg)
    opts = Options()
    opts.binary_location = CHROMIUM
    for a in CHROME_ARGS: opts.add_argument(a)
    opts.add_argument(f'--user-data-dir={tmp_path_factory.mktemp("chrome-profile")}')
    opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    # an explicit driver path: Selenium Manager never runs (it would try to download a driver)
    drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    drv.set_page_load_timeout(30)
    drv.set_script_timeout(30)
    drv.set_window_size(1280, 1000)
    yield drv
    drv.quit()


def load(drv, url, math=True):
    "Open `url`, wait for the load event and, where the page loads MathJax, for its typesetting; return console log."
    drv.get(url)
    t0 = time.time()
    while drv.execute_script('return document.readyState') != 'complete':
        assert time.time() - t0 < 20, f'{url} did not finish loading'
        time.sleep(0.05)
    if math:
        ok = drv.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const t0 = Date.now();
            (function wait() {
              if (!document.querySelector('script[src*="mathjax"]')) return done('no mathjax');
              if (window.MathJax && MathJax.startup && MathJax.startup.promise)
                return MathJax.startup.promise.then(() => done('ok'), e => done('error ' + e));
              if (Date.now() - t0 > 15000) return done('timeout');
              setTimeout(wait, 50); })();""")
        assert ok in ('ok', 'no mathjax'), f'{url}: MathJax did not typeset ({ok})'
    return drv.get_log('browser')


def shot(drv, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(SHOTS / name))


PAGE_INFO = ("""
const m = document.querySelector('main') || document.body;
const art = document.querySelector('article.bd-article') || m;
return {
  title: (art.querySelector('h1') || {textContent: ''}).textContent.replace(/#$/, '').trim(),
  desc: (art.querySelector('.gw-description') || {innerText: ''}).innerText,
  nav: [...document.querySelectorAll('.bd-docs-nav a.reference')]"""
    """.map(a => [a.getAttribute('href'), a.textContent.trim()]),
  captions: [...document.querySelectorAll('.bd-docs-nav p.caption')].map(p => p.textContent.trim()),
  active: [...document.querySelectorAll('.bd-docs-nav a.current')].map(a => a.textContent.trim()),
  text: art.innerText,
  jax: art.querySelectorAll('mjx-container').length,
  imgs: [...art.querySelectorAll('img')]"""
    """.map(i => [i.getAttribute('src'), i.complete, i.naturalWidth, i.getBoundingClientRect().width]),
  nested: document.querySelectorAll('a a').length,
  private: [...document.querySelectorAll('a[href*="#_"]')].map(a => a.getAttribute('href')),
  toc: document.querySelectorAll('#pst-secondary-sidebar nav.page-toc a, #pst-secondary-sidebar .page-toc a').length,
  prevnext: [...document.querySelectorAll('.prev-next-area a')].map(a => a.getAttribute('href')),
  streams: [...document.querySelectorAll('.cell_output')].map(o => {
      let n = 0, prev = null;
      for (const c of o.children) { const s = c.classList.contains('stream') ? [...c.classList].join(' ') : null;
                                    if (s && s === prev) n++; prev = s; }
      return n; }).reduce((a, b) => a + b, 0),
  remote: performance.getEntriesByType('resource').map(e => e.name)
      .concat([...document.querySelectorAll('script[src], link[href], img[src], iframe[src]')]"""
          """.map(e => e.src || e.href))
      .filter(u => !u.startsWith(location.origin + '/') && !u.startsWith('data:'))};
""")


PAGE_EXTRA = """
const art = document.querySelector('article.bd-article') || document.body;
const dl = art.querySelector('.gw-download a');
return {
  jaxErrors: [...art.querySelectorAll('mjx-merror')].map(e => e.getAttribute('data-mjx-error') || e.textContent),
  version: (document.querySelector('.bd-header .gw-version') || {textContent: ''}).textContent.trim(),
  repo: [...document.querySelectorAll('.bd-header a[href^="http"]')].map(a => a.getAttribute('href')),
  download: dl ? dl.getAttribute('href') : null,
  checkOnly: [...art.querySelectorAll('div.cell')].filter(c => !c.querySelector('.cell_output'))
      .map(c => (c.querySelector('.cell_input pre') || {innerText: ''}).innerText)
      .filter(t => { const ls = t.split('\\n').map(l => l.trim()).filter(l => l && !l.startsWith('#'));
                     return ls.length && ls.every(l => /^(test(_\\w+)?\\(|assert\\b)/.test(l)); })};
"""


@pytest.fixture(scope='module')
def real(driver, sites, server):
    "Visit every page of the real site once; record what it shows."
    site, base = sites['real'], server['real']
    pages = json.loads((site / 'pages.json').read_text())
    info, errors = {}, []
    for rel in sources(NBS):
        if rel not in pages: continue
        errors += load(driver, f'{base}/{pages[rel]["page"]}')
        info[rel] = driver.execute_script(PAGE_INFO)
        info[rel].update(driver.execute_script(PAGE_EXTRA))
        stem = Path(pages[rel]['page']).stem
        if rel == 'index.ipynb': shot(driver, 'index.png')
        if rel == 'tutorials/01_optimal_tree.ipynb': shot(driver, 'tutorial.png')
        if stem in ('validation', 'osdt', 'tour'): shot(driver, f'{stem}.png')
    return dict(pages=pages, info=info, errors=errors)


# ---------------------------------------------------------------------------------------------------- tests
def test_every_source_has_a_page_in_sidebar_order(real):
    expected = sources(NBS)
    assert expected, f'no notebooks in {NBS}'
    assert not set(expected) - real['pages'].keys(), f'no page for {set(expected) - real["pages"].keys()}'
    assert real['pages']['index.ipynb']['page'] == 'index.html'
    assert real['pages'].get('00_validation.ipynb', {}).get('page') == 'validation.html', 'nbdev output names changed'
    nav = real['info']['index.ipynb']['nav']
    hrefs = [h for h, _ in nav]
    nav_title = dict(nav)
    for rel in expected:
        if rel == 'index.ipynb': continue
        assert real['pages'][rel]['page'] in hrefs, f'{rel} has no sidebar link: {hrefs}'
    import yaml
    sb = yaml.safe_load((NBS / 'sidebar.yml').read_text())
    listed = [o for o in re.findall(r'[\w./-]+\.(?:ipynb|md)', yaml.safe_dump(sb))
              if o in real['pages'] and o != 'index.ipynb']
    order = [real['pages'][o]['page'] for o in listed]
    assert [h for h in hrefs if h in order] == order, f'sidebar order {hrefs} does not follow sidebar.yml {order}'
    sections = [s['section'] for s in sb['website']['sidebar']['contents'] if isinstance(s, dict) and 'section' in s]
    caps = real['info']['index.ipynb']['captions']
    for s in sections:
        has_pages = any(real['pages'].get(o) for o in re.findall(r'[\w./-]+\.(?:ipynb|md)', yaml.safe_dump(
            [x for x in sb['website']['sidebar']['contents'] if isinstance(x, dict) and x.get('section') == s])))
        if has_pages or any(r.startswith('tutorials/') for r in expected) and s == 'Tutorials':
            assert s in caps, f'section {s!r} missing from the sidebar captions {caps}'
    tutorials = [r for r in expected if r.startswith('tutorials/')]
    if tutorials: assert 'Tutorials' in caps
    for rel, p in real['info'].items():
        assert p['title'], f'{rel}: empty title'
        assert len(p['text']) > 20, f'{rel}: page looks empty'
        assert '#|' not in p['text'], f'{rel}: cell directives leaked into the page'
        if rel != 'index.ipynb':
            assert p['active'] == [nav_title[real['pages'][rel]['page']]], (
                f'{rel}: current page not marked in the nav: {p["active"]}')
            assert p['prevnext'], f'{rel}: no previous/next links'
    severe = [e for e in real['errors'] if e.get('level') == 'SEVERE']
    assert not severe, f'browser errors: {severe}'


def test_api_reference_methods_and_literal_docstrings(real, driver, server):
    base = server['real']
    load(driver, f'{base}/validation.html')
    sig = driver.execute_script("const s = document.getElementById('check_x'); "
                                "return s ? s.closest('section').innerText : ''")
    sig = re.sub(r'\s+', ' ', sig)
    assert 'def check_X(' in sig and 'feature_names' in sig and 'binary:bool=False' in sig, sig
    assert 'Validate a feature matrix' in sig
    t = real['info']['00_validation.ipynb']['text']
    assert 'from fastcore.test import' not in t, '#| hide cell is visible'
    assert 'if X is None: raise InputError' not in t, '#| export source is visible'
    assert real['info']['00_validation.ipynb']['toc'] > 3, 'no per-page contents in the secondary sidebar'
    # ... and it follows the reader: scrolled to an entry, that entry is the highlighted one
    driver.execute_script("document.getElementById('check_x').scrollIntoView(); "
                          "window.dispatchEvent(new Event('scroll'))")
    time.sleep(0.8)
    act = driver.execute_script("return [...document.querySelectorAll('#pst-secondary-sidebar a.active')]"
                                ".map(a => a.textContent.trim())")
    assert 'check_X' in act, f'the page contents do not follow the reader: active {act}'
    # methods defined in a class body get their own entry, with nbdev's anchor
    checked = 0
    for page, mod, cls, meth in [('models', 'models', 'Rule', 'simplify'), ('models', 'models', 'Tree', 'from_nested'),
                                 ('osrt', 'osrt', 'OSRTRegressor', 'from_osrt_config'),
                                 ('osdt', 'osdt', 'OSDTClassifier', 'warm_start')]:
        C = getattr(importlib.import_module(f'glassworks.{mod}'), cls)
        if meth not in C.__dict__: continue  # not (yet) in this checkout
        load(driver, f'{base}/{page}.html', math=False)
        head = driver.execute_script(f"const s = document.getElementById('{cls.lower()}.{meth}');"
                                     "return s ? s.closest('section').querySelector('h2,h3,h4').textContent : null")
        assert head and f'{cls}.{meth}' in head, f'{page}.html: no API entry #{cls.lower()}.{meth}'
        checked += 1
    assert checked >= 3
    # docstrings render literally: no emphasis from `*`/`_`, and their first line is shown as written
    for page, mod, names in [('treebnb', 'treebnb', ['max_leaves_apriori']),
                             ('hierscale', 'hierpath', ['restricted_solve', 'scan_pairs', 'lambda_max_exact',
                                                        'GradientScreen']),
                             ('kmeans1d', 'kmeans1d', ['kmeans_penalized_nb', 'kmeans_eq_bound_nb'])]:
        load(driver, f'{base}/{page}.html', math=False)
        m = importlib.import_module(f'glassworks.{mod}')
        for n in names:
            if not hasattr(m, n): continue
            r = driver.execute_script(f"""const s = document.getElementById('{n.lower()}');
                if (!s) return null; const sec = s.closest('section');
                return {{text: sec.innerText, em: sec.querySelectorAll('p em, p strong').length}}""")
            assert r, f'{page}.html: no API entry #{n.lower()}'
            assert r['em'] == 0, f'{page}.html#{n.lower()}: docstring text became italic/bold'
            first = inspect.getdoc(getattr(m, n)).split('\n')[0].replace('`', '')
            assert ' '.join(first.split()) in ' '.join(r['text'].split()), (
                f'{n}: docstring not shown literally: {first!r}')
    # links in signatures' comments (docments) are not shown as raw markdown
    for rel, p in real['info'].items():
        assert not re.search(r'\]\((?:https?:|[\w/.-]+\.html)', p['text']), f'{rel}: raw markdown link in the page'


def _inventory(path: Path) -> dict:
    "{name: (domain:role, uri)} of a Sphinx objects.inv (version 2: four header lines, then zlib-compressed lines)."
    raw = path.read_bytes()
    head, body = raw.split(b'\n', 4)[:4], raw.split(b'\n', 4)[4]
    assert head[0].startswith(b'# Sphinx inventory version 2'), head[0]
    res = {}
    for line in zlib.decompress(body).decode('utf-8').splitlines():
        m = re.match(r'(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)', line)
        if m:
            uri = m.group(4)
            res.setdefault(m.group(1), (m.group(2), uri[:-1] + m.group(1) if uri.endswith('$') else uri))
    return res


REFERENCE_ENTRY = ("""
const dl = document.getElementById(arguments[0]) && document.getElementById(arguments[0]).closest('dl');
if (!dl) return null;
const dd = dl.querySelector(':scope > dd');
const own = el => el.closest('dl.py') === dl;                      // not inside a method's entry
const field = label => [...dd.querySelectorAll('dl.field-list > dt')].filter(own)
    .find(dt => dt.textContent.trim().replace(/:$/, '') === label);
const params = field('Parameters');
const items = params ? [...params.nextElementSibling.querySelectorAll(':scope > ul > li, :scope > p')] : [];
const prose = dd.cloneNode(true);
prose.querySelectorAll('pre, code, mjx-container, script').forEach(e => e.remove());
return {
  params: items.map(li => (li.querySelector('strong') || {textContent: ''}).textContent.trim()),
  described: items.map(li => /\\s(–|--)\\s+\\S/.test(li.textContent)),
  attrs: [...dd.querySelectorAll('dl.py.attribute')].filter(a => own(a.parentElement))"""
    """.map(a => a.querySelector('dt .sig-name').textContent.trim()),
  rubrics: [...dd.querySelectorAll('p.rubric')].filter(own).map(p => p.textContent.trim()),
  seealso: [...dd.querySelectorAll('div.admonition.seealso a')].filter(own).map(a => a.getAttribute('href')),
  doctest: [...dd.querySelectorAll('pre')].filter(own).some(p => p.textContent.includes('>>>')),
  text: prose.innerText};
""")


def test_api_reference_pages(sites, driver, server):
    "Reference section: a page per public estimator with Parameters = the signature, Attributes, See also, Examples."
    import glassworks
    site, base = sites['real'], server['real']
    inv = _inventory(site / 'objects.inv')
    assert inv.get('glassworks.osdt.OSDTClassifier', ('',))[0] == 'py:class', 'objects.inv: no py:class OSDTClassifier'
    kinds = {'class': 'py:class', 'function': 'py:function', 'exception': 'py:exception'}
    public = {}
    for name, mod in glassworks._EXPORTS.items():  # the package's front door: every name has a reference entry
        obj = getattr(glassworks, name)
        full = f'glassworks.{mod}.{name}'
        kind = 'exception' if inspect.isclass(obj) and issubclass(obj, BaseException) else \
            'class' if inspect.isclass(obj) else 'function'
        assert inv.get(full, ('',))[0] == kinds[kind], f'objects.inv: {full} is not a {kinds[kind]}: {inv.get(full)}'
        assert inv[full][1].startswith('reference/'), f'{full} is documented outside the reference: {inv[full][1]}'
        public[name] = (obj, full, inv[full][1])
    index = (site / 'genindex.html').read_text(encoding='utf-8')
    assert 'glassworks.osdt.OSDTClassifier' in index and index.count('<li>') > 50, 'the general index is empty'
    estimators = [n for n in ('OSDTClassifier', 'OSRTRegressor', 'HierScaleRegressor', 'HierScaleClassifier',
                              'RuleBoostingRegressor', 'RuleBoostingClassifier', 'RuleExtractor', 'Binarizer')
                  if n in public]
    assert len(estimators) >= 7, estimators
    pages, checked = set(), []
    for name, (obj, full, uri) in public.items():
        page = uri.split('#')[0]
        if page not in pages:
            pages.add(page)
            load(driver, f'{base}/{page}')
            if name == 'OSDTClassifier': shot(driver, 'reference.png')
        r = driver.execute_script(REFERENCE_ENTRY, full)
        assert r, f'{page}: no entry #{full}'
        assert '$' not in r['text'], f'{full}: raw $ in the rendered docstring: {r["text"][:300]!r}'
        try: sig = [p for p in inspect.signature(obj).parameters]
        except (TypeError, ValueError): sig = None
        if sig is not None and not issubclass(obj if inspect.isclass(obj) else type, BaseException):
            assert r['params'] == sig, f'{full}: parameter table {r["params"]} != signature {sig}'
        if name in estimators:
            assert all(r['described']), f'{full}: parameters without a description: ' \
                f'{[p for p, d in zip(r["params"], r["described"]) if not d]}'
            assert r['attrs'] and all(a.endswith('_') for a in r['attrs']), (
                f'{full}: no fitted attributes: {r["attrs"]}')
            if hasattr(obj, 'fit'):
                assert {'n_features_in_'} <= set(r['attrs']), f'{full}: attributes {r["attrs"]}'
            assert 'Examples' in r['rubrics'] and r['doctest'], f'{full}: no Examples with a doctest: {r["rubrics"]}'
            assert r['seealso'], f'{full}: no See also'
            checked.append(name)
    assert len(checked) == len(estimators), checked
    # the reference overview and the sidebar's Reference section
    load(driver, f'{base}/reference/index.html', math=False)
    nav = driver.execute_script(PAGE_INFO)
    assert 'Reference' in nav['captions'], nav['captions']
    listed = driver.execute_script("return [...document.querySelectorAll('article table.autosummary a.reference')]"
                                   ".map(a => a.getAttribute('href'))")
    assert all(any(h.endswith('#' + public[n][1]) for h in listed) for n in estimators), listed
    # method pages keep their theory and link each API entry to the reference
    load(driver, f'{base}/osdt.html', math=False)
    ref = driver.execute_script("const a = document.querySelector('#osdtclassifier') && "
                                "document.querySelector('#osdtclassifier').closest('div').querySelector('a.gw-ref');"
                                "return a ? a.getAttribute('href') : null")
    assert ref == 'reference/osdtclassifier.html#glassworks.osdt.OSDTClassifier', ref


def test_defects_of_the_old_site_are_gone(real):
    for rel, p in real['info'].items():
        assert '`' not in p['desc'], f'{rel}: summary shows raw backticks: {p["desc"]!r}'
        assert p['nested'] == 0, f'{rel}: a link inside a link'
        assert not p['private'], f'{rel}: links to private names: {p["private"]}'
        assert p['streams'] == 0, f'{rel}: printed output of one cell split into several blocks'
        for leak in (r'/tmp/tmp\w', r'Loaded from: (?:\.\./|/)', re.escape(str(ROOT)), r'/home/\w', r'/root/\w'):
            assert not re.search(leak, p['text']), f'{rel}: a local path ({leak}) leaks into the page'
    for rel in ('91_main.ipynb', '05_datasets.ipynb', '13_osrt.ipynb', '90_tour.ipynb'):
        if rel in real['info']: assert real['info'][rel]['desc'], f'{rel}: no summary under the title'


def test_math_and_figures_render(real):
    for rel, p in real['info'].items():
        exp = expectations(NBS / rel)
        bad = [s for s, c, w, bw in p['imgs'] if not (c and w > 0 and bw > 0)]
        assert not bad, f'{rel}: images that did not render: {bad}'
        assert '$$' not in p['text'], f'{rel}: raw $$ left in the page (MathJax did not typeset it)'
        if exp['math']: assert p['jax'] > 0, f'{rel}: has math but nothing was typeset'
        if exp['img']: assert p['imgs'], f'{rel}: has PNG/SVG outputs but the page shows no image'


def _search(driver, base, q, n=5):
    "The hrefs of the first `n` results of the site's search for `q`, once the search has listed them."
    load(driver, f'{base}/search.html?q={q}', math=False)
    t0, got = time.time(), []
    while time.time() - t0 < 30:
        got = driver.execute_script("return [...document.querySelectorAll('#search-results li a')]"
                                    ".map(a => a.getAttribute('href'))")
        if len(got) >= n: break
        time.sleep(0.3)
    return got[:n]


def test_reference_links_its_tutorials_and_search_ranks_reader_pages(sites, driver, server):
    """Issue 44: a class's reference entry lists the tutorials and guide sections that use it (scanned), and the
    search puts a reader's page (tutorial, guide, reference, estimator page) before the internals."""
    sys.path.insert(0, str(ROOT / 'docs'))
    import gw_reference
    ref = (sites['real'] / 'reference' / 'osdtclassifier.html').read_text(encoding='utf-8')
    box = re.search(r'<div class="[^"]*\bgw-used-in\b[^"]*">(.*?)</div>', ref, re.S)
    assert box, 'OSDTClassifier: no "Used in" box'
    hrefs = re.findall(r'href="([^"]+)"', box.group(1))
    assert any(h.startswith('../tutorials/') for h in hrefs), hrefs
    assert any(h.startswith('../guide.html#') for h in hrefs), hrefs
    want = gw_reference.usage()['OSDTClassifier']
    assert [h for h, _ in want] == [h.replace('&amp;', '&') for h in hrefs], (want, hrefs)
    rs = (sites['real'] / 'reference' / 'rashomonset.html').read_text(encoding='utf-8')
    assert 'tutorials/how_many_good_trees.html' in rs, 'RashomonSet: its tutorial (rashomon_set(...)) not listed'
    user = gw_reference.user_pages()
    is_user = lambda h: any(h.split('#')[0] == p + '.html' or (p.endswith('/') and h.startswith(p)) for p in user)
    for q in ('rashomon', 'time limit', 'binarizer'):
        got = _search(driver, server['real'], q)
        assert got and is_user(got[0]), f'search {q!r}: an internal page ranks first: {got}'


def test_search_finds_regularization(driver, server):
    load(driver, f'{server["real"]}/search.html?q=regularization', math=False)
    t0 = time.time()
    n = 0
    while time.time() - t0 < 20:
        n = driver.execute_script("return document.querySelectorAll('#search-results li').length")
        if n: break
        time.sleep(0.2)
    shot(driver, 'search.png')
    assert n > 0, 'the search page found nothing for "regularization"'


def test_copy_button_copies_code(driver, server):
    driver.set_window_size(1280, 1000)
    load(driver, f'{server["real"]}/validation.html', math=False)
    r = driver.execute_script("""
        window.__copied = null;  // what the page hands to the clipboard (headless Chromium has no clipboard to read)
        const exec = document.execCommand.bind(document);
        document.execCommand = function(cmd) {
            const ok = exec.apply(null, arguments);
            if (cmd === 'copy') window.__copied = ok ? ((document.activeElement || {}).value """
                """|| (getSelection() || '').toString()) : 'FAILED';
            return ok; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
            const w = navigator.clipboard.writeText.bind(navigator.clipboard);
            navigator.clipboard.writeText = t => { window.__copied = t; return w(t); }; }
        const btn = document.querySelector('button.copybtn');
        if (!btn) return null;
        const pre = document.querySelector(btn.dataset.clipboardTarget);
        btn.scrollIntoView({block: 'center'});
        return {code: pre ? pre.innerText : null};""")
    assert r, 'no copy button on code'
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    btn = driver.find_element(By.CSS_SELECTOR, 'button.copybtn')  # a real (trusted) click: a user gesture may copy
    (ActionChains(driver).move_to_element(btn.find_element(By.XPATH, '..')).pause(0.3)
     .move_to_element(btn).click().perform())
    time.sleep(0.3)
    st = driver.execute_script("""const b = document.querySelector('button.copybtn');
        return {cls: b.className, tip: b.getAttribute('data-tooltip'), copied: window.__copied}""")
    assert 'success' in st['cls'] or (st['tip'] or '').lower().startswith('copied'), st
    assert st['copied'] and st['copied'] != 'FAILED' and st['copied'].strip().split('\n')[0] in r['code'], st
    assert '>>>' not in st['copied'], 'doctest prompts were copied'


def test_phone_layout(driver, server):
    driver.set_window_size(390, 844)
    try:
        load(driver, f'{server["real"]}/validation.html', math=False)
        r = driver.execute_script("""
            const h = window.innerHeight, """
                """main = document.querySelector('article.bd-article h1').getBoundingClientRect();
            const sb = document.querySelector('#pst-primary-sidebar'), cs = getComputedStyle(sb), """
                """side = sb.getBoundingClientRect();
            const tog = document.querySelector('.primary-toggle');
            return {h: h, w: window.innerWidth, top: main.top, """
                    """sideVisible: cs.visibility !== 'hidden' && cs.display !== 'none' && side.width > 0 """
                    """&& side.right > 0 && side.left < window.innerWidth,
                    toggle: !!tog && tog.getBoundingClientRect().width > 0, """
                    """scrollW: document.documentElement.scrollWidth}""")
        shot(driver, 'phone.png')
        assert r['top'] < r['h'] * 0.5, f'the page content starts below the first half screen: {r}'
        assert not r['sideVisible'], f'the navigation is not collapsed on a phone: {r}'
        assert r['toggle'], 'no button to open the navigation on a phone'
        driver.execute_script("document.querySelector('.primary-toggle').click()")
        time.sleep(0.5)
        opened = driver.execute_script("""const d = """
            """document.querySelector('dialog#pst-primary-sidebar-modal, #pst-primary-sidebar');
            const a = [...document.querySelectorAll('.bd-docs-nav a.reference')]"""
                """.filter(a => a.getBoundingClientRect().width > 0);
            return a.length""")
        shot(driver, 'phone_nav.png')
        assert opened > 5, 'the phone navigation does not open'
        for page in ('reference/osdtclassifier.html', 'reference/models.html'):  # long signatures wrap
            load(driver, f'{server["real"]}/{page}', math=False)
            r = driver.execute_script("""return {doc: document.documentElement.scrollWidth, w: window.innerWidth,
                sig: [...document.querySelectorAll('dt.sig')].filter(e => e.scrollWidth > e.clientWidth + 1)"""
                                      """.map(e => e.innerText.slice(0, 50))}""")
            assert not r['sig'] and r['doc'] <= r['w'], f'{page}: signatures cut off on a phone: {r}'
    finally:
        driver.set_window_size(1280, 1000)


def test_fixture_page(driver, sites, server):
    load(driver, f'{server["fixture"]}/fixture.html')
    shot(driver, 'fixture.png')
    r = driver.execute_script("""
        const m = document.querySelector('article.bd-article');
        return {text: m.innerText, inline: m.querySelectorAll('mjx-container:not([display="true"])').length,
                display: m.querySelectorAll('mjx-container[display="true"]').length,
                imgs: [...m.querySelectorAll('img')]"""
                    """.map(i => [i.complete, i.naturalWidth, i.getBoundingClientRect().width]),
                tables: m.querySelectorAll('table.dataframe').length,
                api: !!document.getElementById('fixture_fn'), meth: !!document.getElementById('fixturething.grow'),
                priv: !!document.getElementById('fixturething._private'),
                em: [...m.querySelectorAll('section p em')].map(e => e.textContent),
                adm: [...m.querySelectorAll('div.admonition')]"""
                    """.map(a => [a.className, (a.querySelector('.admonition-title')||{}).textContent]),
                headings: [...m.querySelectorAll('h1,h2,h3,h4')].map(h => h.textContent.replace(/#$/, '')),
                tabs: [...m.querySelectorAll('.sd-tab-set > label')].map(l => l.textContent.trim()),
                streams: [...m.querySelectorAll('.cell_output .output.stream')].map(o => o.innerText),
                title: m.querySelector('h1').textContent.replace(/#$/, ''),
                desc: (m.querySelector('.gw-description')||{}).innerText}""")
    assert (r['title'] == 'Fixture page' and 'exercises the docs pipeline' in r['desc']
            and '`' not in r['desc']), r['desc']
    assert r['display'] == 1 and r['inline'] >= 2, r
    assert '$$' not in r['text'] and '\\lambda' not in r['text'], 'raw TeX visible'
    assert len(r['imgs']) == 2 and all(c and w > 0 and bw > 0 for c, w, bw in r['imgs']), (
        f'PNG/SVG not rendered: {r["imgs"]}')
    assert r['tables'] == 1, 'DataFrame HTML output missing'
    assert r['api'] and r['meth'] and not r['priv'], 'API entries: function, public method (not the private one)'
    assert not r['em'], f'docstring text became italic: {r["em"]}'
    assert '2**k times *not italic* a_b_c' in r['text'] and 'Double it 2**k times' in r['text']
    assert [a[1] for a in r['adm']] == ['Heads up', 'Careful here'], r['adm']
    assert 'note' in r['adm'][0][0] and 'warning' in r['adm'][1][0], r['adm']
    assert 'Heads up' not in r['headings'] and 'First tab' not in r['headings'], r['headings']
    assert r['tabs'] == ['First tab', 'Second tab'], r['tabs']
    assert 'TAB_ONE_BODY' in r['text']
    assert (r['streams'] == ['line 0\nline 1\nline 2']
            or any('line 0\nline 1\nline 2' in s for s in r['streams'])), r['streams']
    t = r['text']
    assert 'HIDDEN_MARKER' not in t, '#| hide cell shown'
    assert 'EXPORTED_BODY_MARKER' not in t, '#| export source shown'
    assert 'ECHO_FALSE_SOURCE_MARKER' not in t and 'echo-false-output-visible' in t, '#| echo: false mishandled'
    assert 'plot_something()' in t, 'ordinary code cells should be shown'
    assert 'CHECK_ONLY_MARKER' not in t, 'a cell of checks only is shown'
    assert 'KEPT_CHECK_MARKER' in t, 'a check cell whose name a later cell reads was hidden'
    math_in_doc = driver.execute_script("const s = document.getElementById('fixture_fn'); "
                                        "return s ? s.closest('section').querySelectorAll('mjx-container').length : -1")
    assert '$W$' not in t and math_in_doc == 1, f'$W$ in a docstring is not math ({math_in_doc})'
    # navigation from the fixture's sidebar.yml: sections, a tutorials/ notebook, a markdown page
    nav = driver.execute_script(PAGE_INFO)
    assert nav['captions'] == ['Guides', 'Tutorials'], nav['captions']
    assert [h for h, _ in nav['nav']] == ['#', 'scaling_out.html', 'tutorials/first_steps.html'], nav['nav']
    load(driver, f'{server["fixture"]}/scaling_out.html', math=False)
    md = driver.execute_script(PAGE_INFO)
    assert md['title'] == 'Scaling out' and md['desc'] == 'Many cores.', md
    assert json.loads((sites['fixture'] / 'pages.json').read_text())['tutorials/01_first_steps.ipynb']['page'] == \
        'tutorials/first_steps.html'


_re_res = re.compile(r'<(script|link|img|iframe|source|embed|object|audio|video)\b[^>]*?'
                     r'\s(?:src|href|data)\s*=\s*["\']?\s*((?:https?:)?//[^"\'\s>]+)', re.I)
_re_cdn = re.compile(r'(?:https?:)?//[\w.-]*'
                     r'(?:cdn|jsdelivr|unpkg|googleapis|gstatic|cloudflare|bootstrapcdn|mathjax\.org)[\w.-]*/', re.I)


@pytest.mark.parametrize('key', ['real', 'fixture'])
def test_offline_no_cdn_anywhere(sites, key):
    "No page loads a remote script/style/font/image, and no file of the site names a CDN."
    site = sites[key]
    hits = []
    for f in sorted(site.rglob('*')):
        if not f.is_file() or f.suffix not in ('.html', '.css', '.js', '.json', '.txt'): continue
        text = f.read_text(encoding='utf-8', errors='replace')
        rel = f.relative_to(site).as_posix()
        hits += [(rel, m.group(0)[:80]) for m in _re_cdn.finditer(text)]
        if f.suffix == '.html': hits += [(rel, m.group(2)) for m in _re_res.finditer(text)]
        if f.suffix == '.css':
            hits += [(rel, u) for u in re.findall(r'(?:url\(|@import)\s*["\']?((?:https?:)?//[^"\')\s]+)', text)]
    assert not hits, f'remote resources / CDN references in the {key} site: {hits[:10]}'
    assert (site / '_static' / 'mathjax' / 'tex-chtml-full.js').exists(), 'MathJax is not bundled'


def test_offline_nothing_fetched(real):
    "In the browser: every resource loaded (incl. what MathJax loads on demand: fonts) comes from the site."
    for rel, p in real['info'].items():
        assert not p['remote'], f'{rel}: page fetched/points at non-local resources: {p["remote"]}'


@pytest.mark.parametrize('key', ['real', 'fixture'])
def test_no_dead_links(sites, key):
    "Every internal href (nav, prev/next, nbdev's backtick links, permalinks) names an existing file and #anchor."
    site, bad = sites[key], []
    ids = {f.relative_to(site).as_posix(): set(re.findall(r'\sid="([^"]+)"', f.read_text(encoding='utf-8')))
           for f in site.rglob('*.html')}
    for page in ids:
        text = (site / page).read_text(encoding='utf-8')
        for href in re.findall(r'<(?:a|link|script|img)\b[^>]*?\s(?:href|src)="([^"]+)"', text):
            import html as _h
            href = _h.unescape(href)
            if re.match(r'^[a-z][a-z0-9+.-]*:', href) or href.startswith('//'): continue  # external (source links)
            path, _, frag = href.partition('#')
            path = path.split('?')[0]
            target = os.path.normpath((Path(page).parent / path).as_posix() if path else page).replace(os.sep, '/')
            if not (site / target).exists(): bad.append(f'{page}: {href} (no such file)')
            elif frag and target in ids and frag not in ids[target]: bad.append(f'{page}: {href} (no such anchor)')
    assert not bad, f'{len(bad)} dead internal link(s):\n' + '\n'.join(bad[:30])
    # the build drops an anchor that does not exist (the link keeps its page) and says so: none may need it
    dropped = [l for l in sites['log'][key].splitlines()
               if 'without a target' in l or l.startswith('  ') and '(no ' in l]
    assert not dropped, 'links whose target anchor/page does not exist (docs/build.py):\n' + '\n'.join(dropped[:30])


@pytest.mark.parametrize('key', ['real', 'fixture'])
def test_no_link_inside_a_link(sites, key):
    "In the HTML source (a browser would silently split them): no <a> opened inside another <a>."
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth = 0
            self.nested = 0
        def handle_starttag(self, tag, attrs):
            if tag == 'a':
                self.nested += self.depth > 0
                self.depth += 1
        def handle_endtag(self, tag):
            if tag == 'a': self.depth = max(0, self.depth - 1)

    bad = []
    for f in sorted(sites[key].rglob('*.html')):
        p = P()
        p.feed(f.read_text(encoding='utf-8'))
        if p.nested: bad.append(f'{f.relative_to(sites[key])}: {p.nested}')
    assert not bad, f'links inside links: {bad}'


# ---------------------------------------------------------------------------------------------------- issue 24
def _settings():
    import configparser
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(ROOT / 'settings.ini', encoding='utf-8')
    return dict(cp['DEFAULT'])


def test_rendered_pages_have_no_leftovers(real):
    "No widget repr instead of its static view, no skipped example, no formula MathJax could not typeset."
    for rel, p in real['info'].items():
        assert 'VBox(' not in p['text'] and 'IntSlider(' not in p['text'], f'{rel}: a widget shows as its repr'
        assert 'SKIPPED' not in p['text'], f'{rel}: a saved output says an example was skipped'
        assert not p['jaxErrors'], f'{rel}: MathJax errors {p["jaxErrors"][:5]}'
        assert not re.search(r'^---\s*$\s*^jupyter:', p['text'], re.M), f'{rel}: a jupytext header is shown'
        assert not p['checkOnly'], f'{rel}: cells of checks only are shown: {p["checkOnly"][:2]}'


def test_sidebar_opens_with_user_guide_and_tutorials(real):
    caps = real['info']['index.ipynb']['captions']
    assert caps[:2] == ['User guide', 'Tutorials'], f'sidebar sections start {caps}'
    hrefs = [h for h, _ in real['info']['index.ipynb']['nav']]
    first = [h for h in hrefs if h not in ('#', 'index.html')][:2]
    assert first == ['install.html', 'guide.html'], f'the first pages are {first}'
    tut = min(i for i, h in enumerate(hrefs) if h.startswith('tutorials/'))
    meth = min(i for i, h in enumerate(hrefs) if h in ('osdt.html', 'treedp.html', 'validation.html'))
    assert tut < meth, 'tutorials come after the methods/internals'


def test_new_pages_version_repository_and_downloads(real, sites):
    pages = real['pages']
    for rel, words in {'install.md': ['pip install', '[distributed]', 'imodels', 'glassworks compile'],
                       'guide.md': ['regularization', 'lower_bound_', 'gap_', 'optimal_', 'time_limit'],
                       'whats_new.md': [_settings()['version']],
                       'citing.md': ['arxiv.org/abs/1904.12847', 'arxiv.org/abs/2211.14980', 'arxiv.org/abs/1902.01542',
                                     'arxiv.org/abs/2402.15691', 'arxiv.org/abs/2506.20114', '@software']}.items():
        assert rel in pages, f'no page for {rel}'
        html_text = (sites['real'] / pages[rel]['page']).read_text(encoding='utf-8')  # links: in the HTML
        for w in words: assert w in real['info'][rel]['text'] or w in html_text, f'{rel}: {w!r} missing'
    cfg = _settings()
    repo = cfg['git_url']
    for rel, p in real['info'].items():
        assert p['version'] == f'v{cfg["version"]}', f'{rel}: header version {p["version"]!r}'
        assert repo in p['repo'], f'{rel}: no link to {repo} in the header: {p["repo"]}'
        if rel.startswith('tutorials/'):
            assert p['download'] == Path(rel).name, f'{rel}: notebook download link {p["download"]!r}'
            got = sites['real'] / Path(pages[rel]['page']).parent / p['download']
            assert json.loads(got.read_text(encoding='utf-8'))['cells'], f'{rel}: the downloadable notebook is empty'


def test_code_fits_its_column_at_1400px(real, driver, server):
    "At 1,400 px no code block or output scrolls sideways, and the page contents column is not clipped."
    driver.set_window_size(1400, 1000)
    try:
        bad = []
        for rel, p in real['pages'].items():
            load(driver, f'{server["real"]}/{p["page"]}', math=False)
            r = driver.execute_script("""const art = document.querySelector('article.bd-article');
                const pres = [...art.querySelectorAll('pre')];
                const sec = document.querySelector('.bd-sidebar-secondary');
                return {n: pres.length, wide: pres.filter(e => e.scrollWidth > e.clientWidth + 1)"""
                    """.map(e => e.innerText.slice(0, 60)),
                        art: art.getBoundingClientRect().width,
                        sec: sec ? [sec.scrollWidth, sec.clientWidth] : [0, 0]}""")
            if r['wide']: bad.append(f'{rel}: {len(r["wide"])} of {r["n"]} blocks scroll, e.g. {r["wide"][0]!r}')
            if r['sec'][0] > r['sec'][1] + 1: bad.append(f'{rel}: the page contents column is clipped {r["sec"]}')
            assert r['art'] >= 800, f'{rel}: text column only {r["art"]:.0f} px wide at 1,400 px'
        assert not bad, '\n'.join(bad)
    finally:
        driver.set_window_size(1280, 1000)


def test_copying_a_doctest_copies_only_its_code(driver, server):
    driver.set_window_size(1280, 1000)
    load(driver, f'{server["real"]}/validation.html', math=False)
    idx = driver.execute_script("""
        window.__copied = null;
        const exec = document.execCommand.bind(document);
        document.execCommand = function(cmd) {
            const ok = exec.apply(null, arguments);
            if (cmd === 'copy') window.__copied = ok ? ((document.activeElement || {}).value """
                """|| (getSelection() || '').toString()) : 'FAILED';
            return ok; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
            const w = navigator.clipboard.writeText.bind(navigator.clipboard);
            navigator.clipboard.writeText = t => { window.__copied = t; return w(t); }; }
        const btns = [...document.querySelectorAll('button.copybtn')];
        return btns.findIndex(b => { const pre = document.querySelector(b.dataset.clipboardTarget);
            if (!pre) return false; const ls = pre.innerText.split('\\n').filter(l => l.trim());
            return ls.some(l => l.startsWith('>>> ')) """
                """&& ls.some(l => !l.startsWith('>>> ') && !l.startsWith('... ')); });""")
    if idx < 0: pytest.skip('no doctest with output on validation.html')
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    btn = driver.find_elements(By.CSS_SELECTOR, 'button.copybtn')[idx]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", btn)
    (ActionChains(driver).move_to_element(btn.find_element(By.XPATH, '..')).pause(0.3)
     .move_to_element(btn).click().perform())
    time.sleep(0.3)
    r = driver.execute_script("""const b = document.querySelectorAll('button.copybtn')[arguments[0]];
        return {copied: window.__copied, code: document.querySelector(b.dataset.clipboardTarget).innerText}""", idx)
    assert r['copied'] and r['copied'] != 'FAILED', r
    code = [l[4:] for l in r['code'].split('\n') if l.startswith(('>>> ', '... '))]
    outs = [l for l in r['code'].split('\n') if l.strip() and not l.startswith(('>>> ', '... '))]
    copied = r['copied'].rstrip('\n').split('\n')
    assert copied == code, f'copied {copied!r}, expected the code lines {code!r}'
    assert not set(outs) & set(copied), 'expected output was copied'


def test_search_snippets_show_no_raw_tex(driver, server):
    "Search results quote the page text; formulas there are plain text (docs/_static/gw-search.js), not TeX."
    load(driver, f'{server["real"]}/search.html?q=bound', math=False)
    t0, ctx = time.time(), []
    while time.time() - t0 < 30:
        ctx = driver.execute_script("return [...document.querySelectorAll('#search-results p.context')]"
                                    ".map(p => p.textContent)")
        n = driver.execute_script("return document.querySelectorAll('#search-results li').length")
        if n and len(ctx) >= min(n, 5): break
        time.sleep(0.3)
    assert ctx, 'no search snippets for "bound"'
    tex = [c for c in ctx if re.search(r'\\[()\[\]]|\\[A-Za-z]{2,}', c)]
    assert not tex, f'raw TeX in search snippets: {tex[:3]}'
