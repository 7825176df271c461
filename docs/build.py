#!/usr/bin/env python
"""Build the glassworks documentation site from `nbs/` without Quarto.

    python docs/build.py [--out docs/_site] [--nbs nbs] [--jobs N] [--proc-dir DIR]

Each notebook goes through nbdev's own docs processors (`nbdev.processors.FilterDefaults`, exactly what
`nbdev_proc_nbs` / `nbdev_docs` run on every notebook before handing `_proc/` to Quarto): front matter from
`# Title` + `> summary`, `#|hide`/`#|export` cells dropped, `show_doc` cells added after exported definitions and
executed (their markdown output is the API reference), `#| echo: false` etc. added as Quarto cell options.
We do *not* call `nbdev_proc_nbs` itself: in nbdev 2.4.14 it first tries to install Quarto (curl + sudo) when it is
missing, rewrites `nbs/nbdev.yml`/`_quarto.yml` and `<lib>/_modidx.py`. The processed notebooks are then rendered
to static HTML here (markdown via nbconvert's mistune renderer, code via pygments, MathJax 2 copied from
`jupyter_server_mathjax`), with a sidebar that follows `nbs/sidebar.yml`. No network access, no CDN.
"""
from __future__ import annotations

import argparse, base64, html, json, os, re, shutil, sys, time, traceback
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
MARKER = '.glassworks-site'  # written into the output folder; we only ever wipe folders that carry it
ASSETS = 'assets'

# ----------------------------------------------------------------------------------------------------------------
# Small helpers (used in the workers and in the main process)

_re_ansi = re.compile(r'\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])')
_re_opt = re.compile(r'^\s*#\|\s*([\w-]+)\s*(?::\s*(.*?))?\s*$')


def _text(x) -> str:
    return ''.join(x) if isinstance(x, (list, tuple)) else (x or '')


def split_options(src: str):
    "Split leading Quarto/nbdev `#|` option lines off a code cell; return `(options, code)`."
    opts, lines = {}, src.splitlines()
    i = 0
    while i < len(lines) and (_re_opt.match(lines[i]) or not lines[i].strip()):
        m = _re_opt.match(lines[i])
        if m: opts[m.group(1).lower()] = (m.group(2) or 'true').strip().strip('"\'')
        i += 1
    return opts, '\n'.join(lines[i:]).strip('\n')


def _false(v) -> bool: return str(v).strip().lower() in ('false', 'no', '0')


def slugify(text: str) -> str:
    "Pandoc/Quarto-style auto identifier (so nbdev doc links like `page.html#check_x` resolve)."
    s = re.sub(r'[^\w\s.-]', '', text, flags=re.UNICODE).strip().lower()
    s = re.sub(r'\s+', '-', s)
    s = re.sub(r'^[^a-z]+', '', s)
    return s or 'section'


_re_fdiv_open = re.compile(r'^:::+\s*\{([^}]*)\}\s*$')
_re_fdiv_close = re.compile(r'^:::+\s*$')


def fenced_divs(md: str) -> str:
    "Turn Quarto fenced divs (`::: {.callout-note}` ... `:::`) into HTML divs around markdown."
    if ':::' not in md: return md
    out = []
    for line in md.splitlines():
        m = _re_fdiv_open.match(line)
        if m:
            classes = ' '.join(t[1:] for t in m.group(1).split() if t.startswith('.'))
            out += ['', f'<div class="{html.escape(classes)}">', '']
        elif _re_fdiv_close.match(line): out += ['', '</div>', '']
        else: out.append(line)
    return '\n'.join(out)


_re_attr_link = re.compile(r'\[([^\]\n]+)\]\(([^)\s]+)\)\{([^}\n]*)\}')


def _attr_link(m) -> str:
    "Pandoc `[text](url){target=\"_blank\" ...}` (show_doc's source links) -> an HTML link."
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(3)))
    target = f' target="{html.escape(attrs["target"])}" rel="noopener"' if 'target' in attrs else ''
    cls = ' class="source-link"' if m.group(1).strip() == 'source' else ''
    return f'<a href="{html.escape(m.group(2))}"{cls}{target}>{m.group(1)}</a>'


def render_markdown(md: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    return markdown2html_mistune(_re_attr_link.sub(_attr_link, fenced_divs(md)))


_re_svg_prolog = re.compile(r'^.*?(?=<svg\b)', re.S)


def clean_svg(svg: str) -> str:
    "Inline-able SVG: drop the XML declaration, DOCTYPE and leading comments graphviz writes."
    return _re_svg_prolog.sub('', svg, count=1).strip()


# ----------------------------------------------------------------------------------------------------------------
# Worker: nbdev processing + rendering of one notebook

def _highlight(code: str, lang: str) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try: lexer = get_lexer_by_name(lang or 'python')
    except ClassNotFound: lexer = get_lexer_by_name('text')
    return highlight(code, lexer, HtmlFormatter(cssclass='highlight'))


def _pre(text: str, cls: str) -> str:
    return f'<pre class="{cls}">{html.escape(_re_ansi.sub("", text))}</pre>'


class _Renderer:
    def __init__(self, page_stem: str):
        self.stem, self.files, self.n_img = page_stem, {}, 0

    def _img(self, data: str, ext: str, meta: dict) -> str:
        self.n_img += 1
        name = f'figures/{self.stem}-{self.n_img}.{ext}'
        self.files[name] = base64.b64decode(data)
        size = ''.join(f' {k}="{int(meta[k])}"' for k in ('width', 'height') if str(meta.get(k, '')).isdigit())
        return f'<img src="{name}" alt="figure {self.n_img}"{size}>'

    def output(self, out: dict, asis: bool) -> str:
        kind = out.get('output_type')
        if kind == 'stream':
            return _pre(_text(out.get('text')), f'output stream {out.get("name", "stdout")}')
        if kind == 'error':
            tb = '\n'.join(out.get('traceback') or [f"{out.get('ename')}: {out.get('evalue')}"])
            return _pre(tb, 'output error')
        if kind not in ('execute_result', 'display_data'): return ''
        data, meta = out.get('data', {}), out.get('metadata', {})
        if asis and 'text/markdown' in data:
            return f'<div class="output-asis">{render_markdown(_text(data["text/markdown"]))}</div>'
        if 'text/html' in data: return f'<div class="output html">{_text(data["text/html"])}</div>'
        if 'image/svg+xml' in data: return f'<div class="output svg">{clean_svg(_text(data["image/svg+xml"]))}</div>'
        for mime, ext in (('image/png', 'png'), ('image/jpeg', 'jpg'), ('image/gif', 'gif')):
            if mime in data:
                return f'<div class="output image">{self._img(_text(data[mime]), ext, meta.get(mime, {}))}</div>'
        if 'text/markdown' in data:
            return f'<div class="output markdown">{render_markdown(_text(data["text/markdown"]))}</div>'
        if 'text/latex' in data: return f'<div class="output latex">{html.escape(_text(data["text/latex"]))}</div>'
        if 'text/plain' in data: return _pre(_text(data['text/plain']), 'output text')
        return ''

    def markdown_cell(self, cell: dict) -> str:
        src = _text(cell.get('source'))
        for name, bundle in (cell.get('attachments') or {}).items():
            for mime, data in bundle.items():
                if mime.startswith('image/'):
                    self.n_img += 1
                    fn = f'figures/{self.stem}-{self.n_img}.{mime.split("/")[1].split("+")[0]}'
                    self.files[fn] = data.encode() if mime == 'image/svg+xml' else base64.b64decode(_text(data))
                    src = src.replace(f'attachment:{name}', fn)
                    break
        body = render_markdown(src)
        if not re.sub(r'<!--.*?-->', '', body, flags=re.S).strip(): return ''  # e.g. nbdev's "AUTOGENERATED" comment
        return f'<div class="cell markdown">{body}</div>'

    def code_cell(self, cell: dict) -> str:
        opts, code = split_options(_text(cell.get('source')))
        if _false(opts.get('include', 'true')): return ''
        show_src = not _false(opts.get('echo', 'true')) and code.strip()
        out_opt = opts.get('output', 'true').lower()
        parts = []
        if show_src:
            src_html = _highlight(code, (cell.get('metadata') or {}).get('language', 'python'))
            fold = opts.get('code-fold', '').lower()
            if fold in ('true', 'show'):
                summary = html.escape(opts.get('code-summary', 'Code'))
                src_html = f'<details class="code-fold"{" open" if fold == "show" else ""}><summary>{summary}</summary>{src_html}</details>'
            parts.append(f'<div class="source">{src_html}</div>')
        if out_opt != 'false':
            outs = [self.output(o, out_opt == 'asis') for o in cell.get('outputs', [])]
            outs = [o for o in outs if o]
            if outs: parts.append(f'<div class="outputs">{"".join(outs)}</div>')
        if not parts: return ''
        cls = 'cell code' + (' api' if not show_src and out_opt == 'asis' else '')
        return f'<div class="{cls}">{"".join(parts)}</div>'

    def raw_cell(self, cell: dict) -> str:
        fmt = ((cell.get('metadata') or {}).get('format') or (cell.get('metadata') or {}).get('raw_mimetype') or '')
        return _text(cell.get('source')) if fmt.lower() in ('text/html', 'html') else ''


_MIXED = 'Found cells containing imports and other code'


def process_notebook(src: str, rel: str, proc_dir: str | None = None) -> dict:
    "Run nbdev's docs processors on notebook `src` and render the body. Runs in a worker process."
    main_mod = sys.modules.get('__main__')  # IPython's shell (exec_show_docs) swaps __main__; the pool needs it back
    t0, mixed = time.perf_counter(), []
    try:
        os.environ['IN_TEST'] = '1'  # as nbdev.serve_drv does while processing
        if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))  # document this checkout's package
        # nbconvert -> nbformat -> jsonschema imports `rfc3987_syntax` when installed, which compiles a lark grammar
        # at import time (4-13 s per worker). We never validate IRIs here: make that optional import fail fast.
        if 'rfc3987_syntax' not in sys.modules: sys.modules['rfc3987_syntax'] = None
        import warnings
        from execnb.nbio import read_nb, write_nb
        from nbdev.processors import FilterDefaults
        nb = read_nb(src)
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter('always')
            try: FilterDefaults()(nb)  # the processors `nbdev_proc_nbs` runs; executes show_doc + needed cells
            finally:
                mixed = [str(w.message) for w in ws if _MIXED in str(w.message)]
                for w in ws:
                    if _MIXED not in str(w.message): warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        if proc_dir:
            dst = Path(proc_dir) / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            write_nb(nb, dst)
        fm = dict(getattr(nb, 'frontmatter_', None) or {})
        stem = PurePosixPath(rel).stem
        out_file = str(fm.get('output-file') or f'{stem}.html')
        r = _Renderer(PurePosixPath(out_file).stem)
        body = []
        for cell in nb.cells:
            ct = cell.get('cell_type')
            if cell.get('source') is None: continue
            if ct == 'raw' and _text(cell.get('source')).lstrip().startswith('---'): continue  # front matter
            body.append({'markdown': r.markdown_cell, 'code': r.code_cell, 'raw': r.raw_cell}.get(ct, lambda c: '')(cell))
        return dict(ok=True, rel=rel, title=str(fm.get('title') or stem), description=str(fm.get('description') or ''),
                    output_file=out_file, body='\n'.join(b for b in body if b), files=r.files,
                    seconds=time.perf_counter() - t0, mixed=len(mixed))
    except BaseException as e:  # report, don't crash the pool
        causes, c = [], e
        while c is not None:
            causes.append(f'{type(c).__name__}: {str(c).splitlines()[0] if str(c) else ""}'.rstrip(': '))
            c = c.__cause__
        msg = ' <- '.join(reversed(causes))
        src_txt = str(e).split(':\n', 1)[1] if ':\n' in str(e) else ''
        if src_txt and any(src_txt.strip() in m for m in mixed):
            msg += ('. nbdev runs this cell at docs time because it mixes imports with other code: '
                    'put the imports in a cell of their own (nbdev FAQ)')
        return dict(ok=False, rel=rel, error=msg, tb=traceback.format_exc())
    finally:
        if main_mod is not None: sys.modules['__main__'] = main_mod


# ----------------------------------------------------------------------------------------------------------------
# Main process: sidebar, page assembly, assets

def read_settings(root: Path) -> dict:
    import configparser
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(root / 'settings.ini', encoding='utf-8')
    return dict(cp['DEFAULT']) if cp.has_section('DEFAULT') or cp.defaults() else {}


def find_notebooks(nbs: Path) -> list[str]:
    "Notebooks below `nbs`, skipping `_`/`.`-prefixed files and folders (nbdev's convention)."
    res = []
    for p in sorted(nbs.rglob('*.ipynb')):
        rel = p.relative_to(nbs)
        if any(part.startswith(('_', '.')) for part in rel.parts): continue
        res.append(rel.as_posix())
    return res


def read_sidebar(nbs: Path) -> list:
    "`website.sidebar.contents` of sidebar.yml (or _quarto.yml), or []"
    import yaml
    for name in ('sidebar.yml', '_quarto.yml'):
        f = nbs / name
        if not f.exists(): continue
        try: d = yaml.safe_load(f.read_text(encoding='utf-8')) or {}
        except yaml.YAMLError as e: raise SystemExit(f'docs/build.py: cannot parse {f}: {e}')
        sb = (d.get('website') or {}).get('sidebar')
        if isinstance(sb, list): sb = sb[0] if sb else {}
        if isinstance(sb, dict) and isinstance(sb.get('contents'), list): return sb['contents']
    return []


def build_nav(contents: list, pages: dict) -> list:
    "Nav tree [('page', rel) | ('section', title, [children])]; notebooks not listed are appended, sorted."
    seen = set()

    def walk(items):
        res = []
        for it in items or []:
            if isinstance(it, str):
                key = it.lstrip('./')
                if key in pages and key not in seen: seen.add(key); res.append(('page', key))
            elif isinstance(it, dict):
                if 'section' in it or 'contents' in it:
                    kids = walk(it.get('contents') if isinstance(it.get('contents'), list) else [])
                    href = str(it.get('href', '')).lstrip('./')
                    if href in pages and href not in seen: seen.add(href); kids.insert(0, ('page', href))
                    if kids: res.append(('section', str(it.get('section') or it.get('text') or ''), kids))
                elif 'href' in it:
                    key = str(it['href']).lstrip('./')
                    if key in pages and key not in seen: seen.add(key); res.append(('page', key))
        return res

    nav = walk(contents)
    rest = [k for k in sorted(pages) if k not in seen]
    if 'index.ipynb' in rest:  # the landing page goes first when sidebar.yml forgets it
        rest.remove('index.ipynb'); nav.insert(0, ('page', 'index.ipynb'))
    nav += [('page', k) for k in rest]
    return nav


def relpath(target: str, current: str) -> str:
    "Relative URL from page `current` to site path `target` (both posix, relative to the site root)."
    return os.path.relpath(target, PurePosixPath(current).parent.as_posix() or '.').replace(os.sep, '/')


def render_nav(nav, pages: dict, current: str) -> str:
    cur_out = pages[current]['out']

    def items(nodes):
        h = []
        for n in nodes:
            if n[0] == 'page':
                p = pages[n[1]]
                active = ' class="active" aria-current="page"' if n[1] == current else ''
                h.append(f'<li><a href="{relpath(p["out"], cur_out)}" data-nb="{html.escape(n[1])}"{active}>'
                         f'{html.escape(p["title"])}</a></li>')
            else:
                h.append(f'<li class="section"><span class="section-title">{html.escape(n[1])}</span>'
                         f'<ul>{items(n[2])}</ul></li>')
        return ''.join(h)

    return f'<ul class="nav">{items(nav)}</ul>'


_re_heading = re.compile(r'<h([1-6])(?:\s[^>]*)?>(.*?)</h\1>', re.S)
_re_anchor = re.compile(r'<a class="anchor-link"[^>]*>.*?</a>', re.S)
_re_tags = re.compile(r'<[^>]+>')
_re_href = re.compile(r'(<a\b[^>]*?\shref=")([^"]*)(")')


def fix_headings(body: str):
    "Quarto-style heading ids (+ permalink); return body and a TOC of h2/h3."
    used, toc = {}, []

    def sub(m):
        level, inner = m.group(1), _re_anchor.sub('', m.group(2))
        text = html.unescape(_re_tags.sub('', inner)).strip()
        base = slugify(text)
        n = used.get(base, 0); used[base] = n + 1
        sid = base if n == 0 else f'{base}-{n}'
        if level in ('2', '3'): toc.append((int(level), sid, text))
        return f'<h{level} id="{sid}" class="anchored">{inner}<a class="anchor-link" href="#{sid}" aria-label="link to this section">#</a></h{level}>'

    return _re_heading.sub(sub, body), toc


def fix_links(body: str, current: str, pages: dict, nb_rel: str, doc_base: str) -> str:
    "Make links to our own docs (absolute doc_host links, `*.ipynb` links) relative to the current page."
    by_out = {p['out']: p for p in pages.values()}
    nb_dir = PurePosixPath(nb_rel).parent

    def sub(m):
        href = m.group(2)
        path, frag = (href.split('#', 1) + [''])[:2]
        target = None
        if doc_base and href.startswith(doc_base):
            cand = path[len(doc_base):].lstrip('/') or 'index.html'
            if cand in by_out: target = cand
        elif not re.match(r'^[a-z][a-z0-9+.-]*:', path) and path.endswith('.ipynb'):
            key = os.path.normpath((nb_dir / path).as_posix()).replace(os.sep, '/')
            if key in pages: target = pages[key]['out']
        if target is None: return m.group(0)
        url = relpath(target, current) + (f'#{frag}' if frag else '')
        return f'{m.group(1)}{html.escape(url)}{m.group(3)}'

    return _re_href.sub(sub, body)


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="glassworks docs/build.py (nbdev processors, no Quarto)">
<meta name="source" content="{source}">
<meta name="description" content="{meta_desc}">
<title>{page_title}</title>
<link rel="stylesheet" href="{root}assets/pygments.css">
<link rel="stylesheet" href="{root}assets/site.css">
<script type="text/x-mathjax-config">
MathJax.Hub.Config({{
  tex2jax: {{inlineMath: [['$','$'], ['\\\\(','\\\\)']], displayMath: [['$$','$$'], ['\\\\[','\\\\]']],
            processEscapes: true, processEnvironments: true}},
  TeX: {{equationNumbers: {{autoNumber: "AMS"}}}},
  "HTML-CSS": {{availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null, linebreaks: {{automatic: true}}}},
  "fast-preview": {{disabled: true}},
  messageStyle: "none", showMathMenu: false
}});
</script>
<script src="{root}assets/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"></script>
</head>
<body>
<nav class="sidebar" aria-label="Site navigation">
<div class="brand"><a href="{index}">{site_title}</a></div>
<p class="tagline">{site_desc}</p>
{nav}
</nav>
<div class="layout">
<main class="content" id="content">
<header class="page-header">
<h1 class="title">{title}</h1>
{description}
</header>
{body}
<footer class="page-footer">{copyright}</footer>
</main>
{toc}
</div>
</body>
</html>
"""


def copy_mathjax(dest: Path):
    "Copy MathJax 2 from jupyter_server_mathjax (HTML-CSS output with STIX-Web fonts) into the site."
    try:
        import jupyter_server_mathjax
    except ImportError:
        raise SystemExit('docs/build.py: jupyter-server-mathjax is not installed (pip install jupyter-server-mathjax)')
    src = Path(jupyter_server_mathjax.__file__).parent / 'static'
    if not (src / 'MathJax.js').exists():
        raise SystemExit(f'docs/build.py: no MathJax.js in {src}')

    def ignore(d, names):
        d = Path(d).relative_to(src).as_posix()
        skip = set()
        if d == 'localization': skip |= {n for n in names if n != 'en'}
        if d == 'extensions': skip.add('a11y')
        if d == 'jax/output': skip.add('SVG')  # no SVG jax.js in this MathJax copy, only its fonts
        return skip

    shutil.copytree(src, dest, ignore=ignore)


def check_out(out: Path):
    "Refuse to build into anything but a new/empty folder or a previous site build (we wipe it)."
    if out.exists():
        if not out.is_dir(): raise SystemExit(f'docs/build.py: {out} exists and is not a directory')
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise SystemExit(f'docs/build.py: refusing to wipe {out}: not empty and not a previous site build '
                             f'(no {MARKER} file). Choose another --out.')
    if out == ROOT or out in ROOT.parents: raise SystemExit(f'docs/build.py: refusing to build into {out}')


def prepare_out(out: Path):
    check_out(out)
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text('built by docs/build.py; this folder is wiped on every build\n')


def build(out: Path, nbs: Path, jobs: int, proc_dir: Path | None = None, quiet: bool = False,
          keep_going: bool = False) -> dict:
    t0 = time.perf_counter()
    os.chdir(ROOT)  # nbdev's get_config() finds settings.ini from the working directory
    cfg = read_settings(ROOT)
    check_out(out)
    if not nbs.is_dir(): raise SystemExit(f'docs/build.py: notebook folder {nbs} not found')
    rels = find_notebooks(nbs)
    if not rels: raise SystemExit(f'docs/build.py: no notebooks in {nbs}')
    for rel in rels:  # fail early and clearly on a broken/half-written notebook
        try: json.loads((nbs / rel).read_text(encoding='utf-8'))
        except Exception as e: raise SystemExit(f'docs/build.py: {nbs / rel} is not a valid notebook: {e}')

    jobs = max(1, min(jobs, len(rels)))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context('spawn')) as ex:
        results = list(ex.map(process_notebook, [str(nbs / r) for r in rels], rels,
                              [str(proc_dir) if proc_dir else None] * len(rels)))
    failed = [r for r in results if not r['ok']]
    fail_msg = ''
    if failed:
        for r in failed: print(f'\n--- {nbs / r["rel"]} ---\n{r["tb"]}', file=sys.stderr)
        fail_msg = ('docs/build.py: nbdev processing failed (details above):\n' +
                    '\n'.join(f'  {nbs / r["rel"]}: {r["error"]}' for r in failed))
        if not keep_going: raise SystemExit(fail_msg)
        for r in failed:  # --keep-going: a placeholder page that shows the error; the exit status stays 1
            stem = PurePosixPath(r['rel']).stem  # output name as nbdev's front matter would give it:
            r.update(title=stem, description='', output_file=re.sub(r'^\d+[a-zA-Z0-9]*_', '', stem.lower()) + '.html', files={}, seconds=0., mixed=0,
                     body=f'<div class="build-error"><p><strong>This page failed to build.</strong></p>'
                          f'<pre class="output error">{html.escape(r["error"])}</pre></div>')

    pages = {}
    for r in results:
        out_file = (PurePosixPath(r['rel']).parent / r['output_file']).as_posix()
        if out_file in {p['out'] for p in pages.values()}:  # two notebooks with the same output-file
            alt = (PurePosixPath(r['rel']).parent / (PurePosixPath(r['rel']).stem + '.html')).as_posix()
            print(f'docs/build.py: warning: {r["rel"]} also maps to {out_file}; using {alt}', file=sys.stderr)
            out_file = alt
        pages[r['rel']] = dict(r, out=out_file)

    prepare_out(out)
    (out / ASSETS).mkdir()
    copy_mathjax(out / ASSETS / 'mathjax')
    shutil.copy2(HERE / 'site.css', out / ASSETS / 'site.css')
    from pygments.formatters import HtmlFormatter
    (out / ASSETS / 'pygments.css').write_text(HtmlFormatter(style='default').get_style_defs('.highlight'))

    nav = build_nav(read_sidebar(nbs), pages)
    doc_base = (cfg.get('doc_host', '').rstrip('/') + '/' + cfg.get('doc_baseurl', '').strip('/')).rstrip('/') + '/'
    if doc_base == '/': doc_base = ''
    site_title = cfg.get('title') or cfg.get('lib_name') or 'Documentation'
    index_out = pages.get('index.ipynb', {}).get('out') or pages[rels[0]]['out']
    for rel, p in pages.items():
        cur = p['out']
        root = relpath('.', cur) + '/'
        root = '' if root == './' else root
        for name, data in p['files'].items():  # figures live next to the page that shows them
            f = out / PurePosixPath(cur).parent / name
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)
        body, toc = fix_headings(p['body'])
        body = fix_links(body, cur, pages, rel, doc_base)
        toc_html = ''
        if len(toc) > 1:
            toc_html = ('<aside class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>' +
                        ''.join(f'<li class="l{lv}"><a href="#{sid}">{html.escape(t)}</a></li>' for lv, sid, t in toc) +
                        '</ul></aside>')
        desc = p['description']
        page = PAGE.format(
            source=html.escape(rel), meta_desc=html.escape(desc or cfg.get('description', '')),
            page_title=html.escape(p['title'] if p['title'] == site_title else f'{p["title"]} – {site_title}'),
            root=root, index=relpath(index_out, cur), site_title=html.escape(site_title),
            site_desc=html.escape(cfg.get('description', '')), nav=render_nav(nav, pages, rel),
            title=html.escape(p['title']),
            description=f'<p class="description">{html.escape(desc)}</p>' if desc else '',
            body=body, toc=toc_html,
            copyright=f'© {html.escape(cfg.get("copyright", ""))}' if cfg.get('copyright') else '')
        dest = out / cur
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(page, encoding='utf-8')
    manifest = {rel: {'page': p['out'], 'title': p['title']} for rel, p in pages.items()}
    (out / 'pages.json').write_text(json.dumps(manifest, indent=1, sort_keys=True) + '\n')
    dt = time.perf_counter() - t0
    if not quiet:
        for rel, p in pages.items():
            note = f'  ({p["mixed"]} cell(s) mixing imports and code were executed)' if p['mixed'] else ''
            print(f'  {rel:<28} -> {p["out"]:<24} {p["seconds"]:5.1f}s{note}')
        print(f'docs/build.py: built {len(pages)} page(s) from {nbs} into {out} in {dt:.1f}s')
    if fail_msg: raise SystemExit(fail_msg)
    return manifest


def main(argv=None):
    ap = argparse.ArgumentParser(description='Build the static docs site from the notebooks (nbdev processors, no Quarto).')
    ap.add_argument('--out', default=str(ROOT / 'docs' / '_site'), help='output folder (wiped; default docs/_site)')
    ap.add_argument('--nbs', default=None, help='notebook folder (default: nbs_path of settings.ini)')
    ap.add_argument('--jobs', type=int, default=min(4, os.cpu_count() or 1), help='parallel worker processes')
    ap.add_argument('--proc-dir', default=None, help='also write the nbdev-processed notebooks here (for debugging)')
    ap.add_argument('--keep-going', action='store_true',
                    help='still write the site when notebooks fail (error pages for them); exit status stays 1')
    ap.add_argument('--quiet', action='store_true')
    a = ap.parse_args(argv)
    out = Path(a.out).resolve()
    nbs = Path(a.nbs).resolve() if a.nbs else (ROOT / (read_settings(ROOT).get('nbs_path') or 'nbs')).resolve()
    proc = Path(a.proc_dir).resolve() if a.proc_dir else None
    try:
        build(out, nbs, a.jobs, proc, a.quiet, a.keep_going)
    except SystemExit as e:
        if isinstance(e.code, str): print(e.code, file=sys.stderr); return 1
        return e.code or 0
    except Exception:
        traceback.print_exc()
        print('docs/build.py: build failed (see the traceback above)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
