#!/usr/bin/env python
"""Build the glassworks documentation site from `nbs/` with Sphinx + myst-nb + pydata-sphinx-theme (no Quarto).

    python docs/build.py [--out docs/_site] [--nbs nbs] [--jobs N] [--stage DIR] [--keep-going]

1. **nbdev processing.** Every notebook goes through nbdev's own docs processors (`nbdev.processors.FilterDefaults`,
   what `nbdev_proc_nbs`/`nbdev_docs` run before Quarto), plus one of ours, `add_method_docs`, that gives the public
   methods defined in a class body a `show_doc` entry after the class's. The `show_doc` cells are executed: their
   markdown output is the API reference. `nbdev_proc_nbs` itself is not called (without Quarto it tries to install
   it, and it rewrites `nbs/nbdev.yml` and `<lib>/_modidx.py`).
2. **Staging.** The processed notebooks are written to a staging folder under their output names (nbdev's rule,
   `00_validation.ipynb` -> `validation`), turned into what myst-nb understands: the front matter becomes the page
   title and summary; `show_doc` outputs become markdown cells (API headings with nbdev's anchors, docstrings shown
   literally); Quarto callouts become admonitions and tabsets sphinx-design tabs; nbdev's links to `doc_host` become
   relative; `#|` options become myst-nb tags; machine-specific paths in saved outputs are scrubbed. The landing page
   gets the toctrees, one per section of `nbs/sidebar.yml`.
3. **Sphinx.** `sphinx-build` renders the staging folder with `docs/conf.py` (myst-nb, execution off; pydata theme;
   MathJax 3 vendored in `docs/_static/mathjax`). A last pass checks every internal link and anchor.
"""
from __future__ import annotations

import argparse, copy, html, json, os, re, shutil, subprocess, sys, tempfile, time, traceback
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
MARKER = '.glassworks-site'  # written into the output folder; we only ever wipe folders that carry it
REFERENCE = None  # docs/gw_reference.py when building the project's own notebooks (its API reference pages)


def _text(x) -> str:
    return ''.join(x) if isinstance(x, (list, tuple)) else (x or '')


def slugify(text: str) -> str:
    "Pandoc/Quarto-style identifier: what nbdev's links (`page.html#rule.simplify`) point at."
    s = re.sub(r'[^\w\s.-]', '', text, flags=re.UNICODE).strip().lower()
    s = re.sub(r'\s+', '-', s)
    s = re.sub(r'^[^a-z_]+', '', s)
    return s or 'section'


def out_stem(rel: str) -> str:
    "nbdev's default output name: `00_validation.ipynb` -> `validation` (numeric prefix dropped)."
    return re.sub(r'^\d+[a-zA-Z0-9]*_', '', PurePosixPath(rel).stem.lower())


def _public_lookup():
    """nbdev links every exported name in backticks to its docs anchor. A module's internal names (exported from
    `#| exporti` cells, outside its `__all__`: the tree engine's parts that the Rashomon search shares) have no docs
    entry, so linking them would leave dead links: keep only a module's public interface in nbdev's lookup table.
    nbdev caches its table (`lru_cache`): so does this filter, which nbdev calls for every markdown cell
    (`NbdevLookup()`); uncached, it re-imported thousands of names per call, 90% of a notebook's processing time."""
    import functools, importlib
    import nbdev.doclinks as dl
    build = dl._build_lookup_table
    if getattr(build, '_public_only', False): return
    modules = {}

    def module(name):
        "The module `name`, or None when it is not one (`glassworks.models.Tree`): each name is tried once."
        if name not in modules:
            try: modules[name] = importlib.import_module(name)
            except Exception: modules[name] = None
        return modules[name]

    @functools.lru_cache(maxsize=None)
    def public(*args, **kwargs):
        entries, syms = build(*args, **kwargs)
        hidden = set()
        for key, val in syms.items():
            mod, _, rest = key.rpartition('.')
            while mod and rest:                      # 'glassworks.models.Tree.to_text': the module is a prefix
                m = module(mod)
                if m is None:
                    mod, _, head = mod.rpartition('.')
                    rest = f'{head}.{rest}'
                    continue
                top = rest.split('.')[0]
                names = getattr(m, '__all__', None)
                if names is not None and not top.startswith('_') and top not in names: hidden.add(repr(val))
                break
        return entries, {k: v for k, v in syms.items() if repr(v) not in hidden}
    public._public_only = True
    dl._build_lookup_table = public


# ----------------------------------------------------------------------------------------------------------------
# 1. nbdev processing (in worker processes)

def _class_methods(nb) -> dict:
    "{class name: [public methods defined in its body]} over the exported cells of `nb`."
    import ast
    from nbdev.processors import _want_doc
    res = {}
    for cell in nb.cells:
        if not _want_doc(cell): continue
        try: tree = ast.parse(cell.source)
        except SyntaxError: continue
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or node.name.startswith('_'): continue
            meths = []
            for f in node.body:
                if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) or f.name.startswith('_'): continue
                decs = [ast.unparse(d) for d in f.decorator_list]
                if any(d == 'property' or d.endswith(('.setter', '.getter', '.deleter')) or 'cached_property' in d
                       for d in decs): continue  # attributes, not callables: the class's docs describe them
                meths.append(f.name)
            if meths: res[node.name] = meths
    return res


def add_method_docs_factory():
    from nbdev.process import Processor
    from nbdev.processors import _show_docs, _get_nm, NbCell
    from execnb.nbio import mk_cell
    from fastcore.foundation import L

    class add_method_docs(Processor):
        "After `show_doc(Cls)`, add `show_doc(Cls.method)` for each public method defined in the class body."
        def begin(self):
            nb = self.nb
            meths = _class_methods(nb)
            if not meths: return
            trees = L(nb.cells).map(NbCell.parsed_).concat()
            shown = {_get_nm(t) for t in _show_docs(trees)}
            i = 0
            while i < len(nb.cells):
                c = nb.cells[i]
                m = re.fullmatch(r'\s*show_doc\((\w+)\)\s*', c.source or '') if c.cell_type == 'code' else None
                if m and m.group(1) in meths:
                    for j, meth in enumerate(n for n in meths[m.group(1)] if f'{m.group(1)}.{n}' not in shown):
                        new = mk_cell(f'show_doc({m.group(1)}.{meth})')
                        new.has_sd = True
                        nb.cells.insert(i + 1 + j, new)
                        shown.add(f'{m.group(1)}.{meth}')
                i += 1
            if meths: nb.has_docs_ = True

    return add_method_docs


_MIXED = 'Found cells containing imports and other code'
_EXPORTED = {'export', 'exports', 'exporti', 'exec_doc'}


def imports_of_mixed(cell):
    """For a code cell that mixes imports with other code (not an exported or `exec_doc` cell): the source of its
    top-level imports (a `try:` whose body is only imports counts as one), else None. nbdev's docs processing runs
    every cell with an import so that `show_doc` finds the names; such a cell's other code is a check or an example
    (a fit, a timing), which costs the build time and would replace the cell's saved output."""
    import ast
    src = cell.source or ''
    if cell.cell_type != 'code' or ('import' not in src): return None
    if set(getattr(cell, 'directives_', {}) or {}) & _EXPORTED: return None
    try: tree = ast.parse('\n'.join(l for l in src.split('\n') if not l.lstrip().startswith(('%', '!'))))
    except SyntaxError: return None
    imp = (ast.Import, ast.ImportFrom)

    def is_import(n):
        return isinstance(n, imp) or (isinstance(n, ast.Try) and n.body and all(isinstance(b, imp) for b in n.body))
    keep = [n for n in tree.body if is_import(n)]
    if len(keep) == len(tree.body): return None  # imports only: nbdev runs it as it is
    if not keep and not any(isinstance(n, imp) for n in ast.walk(tree)): return None  # no import at all
    return '\n'.join(ast.unparse(n) for n in keep)


def exec_docs_factory():
    from nbdev.processors import exec_show_docs, _do_eval
    from fastcore.basics import str2bool

    class exec_docs(exec_show_docs):
        "nbdev's `exec_show_docs`, except that a cell mixing imports with other code runs only its imports."
        def __call__(self, cell):
            imports = imports_of_mixed(cell)
            if imports is None: return super().__call__(cell)
            if not self.nb.has_docs_ or not hasattr(self, 'k'): return
            if str2bool(getattr(self.nb, 'frontmatter_', {}).get('skip_showdoc', False)): return
            if not _do_eval(cell): return  # `#| eval: false` (nbdev's warning counts the cell as mixed)
            if imports.strip(): self.k.run(imports)
            if self.k.exc: raise Exception(f'Error in the imports of cell {cell.idx_}:\n{imports}') from self.k.exc

    return exec_docs


def process_notebook(src: str, rel: str) -> dict:
    "Run nbdev's docs processors (+ method entries) on notebook `src`; return the processed notebook as JSON."
    main_mod = sys.modules.get('__main__')  # IPython's shell (exec_show_docs) swaps __main__; the pool needs it back
    _public_lookup()
    t0, mixed = time.perf_counter(), []
    try:
        os.environ['IN_TEST'] = '1'  # as nbdev.serve_drv does while processing
        if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))  # document this checkout's package
        # jsonschema imports `rfc3987_syntax` when installed, which compiles a grammar at import time (seconds)
        if 'rfc3987_syntax' not in sys.modules: sys.modules['rfc3987_syntax'] = None
        import warnings
        from execnb.nbio import read_nb, nb2dict
        from nbdev.processors import FilterDefaults, add_show_docs, exec_show_docs

        class Procs(FilterDefaults):
            def base_procs(self):
                ps = list(super().base_procs())
                ps.insert(ps.index(add_show_docs) + 1, add_method_docs_factory())
                ps[ps.index(exec_show_docs)] = exec_docs_factory()
                return ps

        nb = read_nb(src)
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter('always')
            try: Procs()(nb)  # executes show_doc cells, exported cells and cells with imports
            finally:
                mixed = [str(w.message) for w in ws if _MIXED in str(w.message)]
                for w in ws:
                    if _MIXED not in str(w.message): warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        fm = dict(getattr(nb, 'frontmatter_', None) or {})
        d = nb2dict(nb)
        return dict(ok=True, rel=rel, nb=json.dumps(d), frontmatter=json.loads(json.dumps(fm, default=str)),
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
# 2. Markdown preprocessing (Quarto -> MyST) and link rewriting

_re_fence = re.compile(r'^\s*(`{3,}|~{3,})')
_re_div_open = re.compile(r'^(:{3,})\s*(?:\{([^}]*)\}|([\w-]+))\s*$')
_re_div_close = re.compile(r'^:{3,}\s*$')
_re_heading_line = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
CALLOUTS = {'note': 'note', 'tip': 'tip', 'warning': 'warning', 'important': 'important', 'caution': 'caution'}


def _parse_divs(lines):
    "Lines -> tree of str lines and dicts {attrs, children} for Quarto fenced divs (code fences are opaque)."
    root = {'attrs': '', 'children': []}
    stack, fence = [root], None
    for line in lines:
        if fence:
            stack[-1]['children'].append(line)
            if re.match(r'^\s*' + re.escape(fence) + r'\s*$', line): fence = None
            continue
        m = _re_fence.match(line)
        if m:
            fence = m.group(1)
            stack[-1]['children'].append(line)
            continue
        m = _re_div_open.match(line)
        if m:
            d = {'attrs': m.group(2) if m.group(2) is not None else '.' + m.group(3), 'children': []}
            stack[-1]['children'].append(d)
            stack.append(d)
        elif _re_div_close.match(line) and len(stack) > 1: stack.pop()
        else: stack[-1]['children'].append(line)
    return root


def _height(node) -> int:
    kids = [c for c in node['children'] if isinstance(c, dict)]
    return 1 + max((_height(k) for k in kids), default=0)


def _emit(children, out):
    for c in children:
        if isinstance(c, str):
            out.append(c)
            continue
        attrs = c['attrs']
        classes = re.findall(r'(?:^|\s)\.([\w-]+)', attrs)
        kv = dict(re.findall(r'([\w-]+)\s*=\s*"([^"]*)"', attrs))
        h = _height(c)
        callout = next((cl[8:] for cl in classes if cl.startswith('callout-')), None)
        if callout is not None:
            kids = list(c['children'])
            title = kv.get('title')
            first = next((i for i, k in enumerate(kids) if not (isinstance(k, str) and not k.strip())), None)
            if first is not None and isinstance(kids[first], str):
                m = _re_heading_line.match(kids[first])
                if m:
                    if title is None: title = m.group(2)
                    del kids[first]
            kind = CALLOUTS.get(callout, 'note')
            fence = ':' * (3 + h)
            out.append('')
            if title: out += [f'{fence}{{admonition}} {title}', f':class: {kind}']
            else: out.append(f'{fence}{{{kind}}}')
            _emit(kids, out)
            out += [fence, '']
        elif 'panel-tabset' in classes:
            # tabs are the top-level headings of the tabset's content
            kids, tabs, cur = c['children'], [], None
            level = None
            for k in kids:
                if isinstance(k, str):
                    m = _re_heading_line.match(k)
                    if m and (level is None or len(m.group(1)) <= level):
                        level = len(m.group(1))
                        cur = {'title': m.group(2), 'children': []}
                        tabs.append(cur)
                        continue
                if cur is None:
                    if isinstance(k, str) and not k.strip(): continue
                    cur = {'title': 'Tab', 'children': []}
                    tabs.append(cur)
                cur['children'].append(k)
            fo = ':' * (3 + h)
            out += ['', f'{fo}{{tab-set}}']
            for t in tabs:
                fi = ':' * (3 + h - 1)
                out.append(f'{fi}{{tab-item}} {t["title"]}')
                _emit(t['children'], out)
                out += [fi, '']
            out += [fo, '']
        else:  # any other div: a container with its classes (column-margin etc. have no meaning here)
            fence = ':' * (3 + h)
            out += ['', f'{fence}{{container}} {" ".join(classes)}'.rstrip()]
            _emit(c['children'], out)
            out += [fence, '']


def quarto_divs(md: str) -> str:
    "Quarto callouts -> MyST admonitions (title as the admonition's title); tabsets -> sphinx-design tabs."
    if ':::' not in md: return md
    out = []
    _emit(_parse_divs(md.split('\n'))['children'], out)
    return '\n'.join(out)


_re_md_link = re.compile(r'(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(\s+"[^"]*")?\s*\)(\{[^}\n]*\})?')
_re_nested = re.compile(r'\[([^\[\]]*)\[(`[^`\n]+`)\]\([^()\s]+\)([^\[\]]*)\]\(')


class Linker:
    "Rewrites links in markdown: nbdev's absolute doc links and `.ipynb`/`.md` links -> relative `page.html#anchor`."
    def __init__(self, doc_base: str, src2out: dict):
        self.doc_base, self.src2out = doc_base, src2out  # src2out: 'tutorials/01_x.ipynb' -> 'tutorials/x'

    def target(self, url: str, src_rel: str):
        "Site path (posix, without .html) + fragment for a link to our own docs, else None."
        path, _, frag = url.partition('#')
        if self.doc_base and url.startswith(self.doc_base):
            cand = path[len(self.doc_base):].lstrip('/') or 'index.html'
            if cand.endswith('.html'): return cand[:-5], frag
            return None
        if re.match(r'^[a-z][a-z0-9+.-]*:', path) or path.startswith('//') or not path: return None
        key = os.path.normpath((PurePosixPath(src_rel).parent / path).as_posix()).replace(os.sep, '/')
        if key in self.src2out: return self.src2out[key], frag
        return None

    def __call__(self, md: str, src_rel: str) -> str:
        prev = None
        while prev != md: prev, md = md, _re_nested.sub(r'[\1\2\3](', md)  # a link nbdev put inside a link
        here = PurePosixPath(self.src2out.get(src_rel, out_stem(src_rel))).parent.as_posix()

        def sub(m):
            bang, text, url, title, attrs = m.groups()
            if not bang and re.fullmatch(r'`[^`]+`', text.strip()):
                name = text.strip().strip('`').split('.')[-1]
                if name.startswith('_') and not name.startswith('__'): return text  # private: never linked
            t = self.target(url, src_rel)
            if t is not None:
                url = os.path.relpath(t[0] + '.html', here).replace(os.sep, '/') + (f'#{t[1]}' if t[1] else '')
            return f'{bang}[{text}]({url}{title or ""})'

        return _re_md_link.sub(sub, md)


_re_inline_math = r'(?<![\\$\w])\$[^$\s`](?:[^$\n`]*[^$\s\\`])?\$(?![\w$])'


def escape_literal(text: str) -> str:
    """Markdown that shows `text` literally (docstring prose): keep code spans, links and `$x$` formulas (as in the
    reference), escape what would format."""
    out = []
    for line in text.split('\n'):
        parts = re.split(r'(`[^`\n]+`|\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([^)\s]*\)|' + _re_inline_math + ')', line)
        for i, p in enumerate(parts):
            if i % 2 == 0: p = re.sub(r'([\\*_<>$~|#\[\]])', r'\\\1', p)
            parts[i] = p
        line = ''.join(parts)
        line = re.sub(r'^(\s*)([-+=]{3,}\s*)$', lambda m: m.group(1) + '\\' + m.group(2), line)  # setext headings
        out.append(line.lstrip() if line.startswith('    ') else line)  # no accidental indented code blocks
    return '\n'.join(out)


_re_source = re.compile(r'^\[source\]\(([^)\s]+)\)(\{[^}\n]*\})?\s*$')


def api_markdown(md: str, rel: str = '') -> str:
    "nbdev's `show_doc` markdown -> a MyST API entry: heading with nbdev's anchor, source link, signature, docstring."
    lines, out, i = md.split('\n'), [], 0
    src_url, heading = None, None
    body = []
    while i < len(lines):
        line = lines[i]
        if heading is None:
            if line.strip() in ('---', '') :
                i += 1
                continue
            m = _re_source.match(line.strip())
            if m:
                src_url = m.group(1)
                i += 1
                continue
            m = _re_heading_line.match(line)
            if m:
                heading = (m.group(1), m.group(2))
                i += 1
                continue
        body.append(line)
        i += 1
    if heading is None: return md  # not a show_doc entry we know: leave it
    level, name = heading
    name_txt = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', name).replace('`', '')
    anchor = slugify(name_txt)
    out += [f'{level} {name_txt}', '']
    src_html = (f'<a class="gw-source reference external" href="{html.escape(src_url)}" target="_blank" '
                f'rel="noopener">source</a>' if src_url else '')
    if REFERENCE: src_html += REFERENCE.api_link(name_txt, rel)  # the entry's page in the API reference
    out += [f'<div class="gw-api-anchor"><span id="{html.escape(anchor)}"></span>{src_html}</div>', '']
    # body: fenced blocks kept (signature links made plain), prose escaped so it shows literally
    fence, first_code, prose, wrapped, is_sig = None, True, [], [], False

    def flush():
        if not prose: return
        k = next((j for j, l in enumerate(prose) if l.strip()), None)
        if k is not None and not wrapped:  # nbdev shows the docstring's first line as *...*: not our markup
            m = re.match(r'^(\s*)\*(.*)\*(\s*)$', prose[k])
            if m:
                prose[k] = m.group(1) + m.group(2) + m.group(3)
                wrapped.append(1)
        out.append(escape_literal('\n'.join(prose)))
        prose.clear()

    for line in body:
        if fence:
            if re.match(r'^\s*' + re.escape(fence) + r'\s*$', line):
                fence = None
                out.append(line)
                continue
            line = re.sub(r'\[(`[^`\n]+`)\]\([^)\s]*\)', r'\1', line)  # nbdev links code too: back to `name`
            if is_sig and not line.strip(): continue
            out.append(line)
            continue
        m = _re_fence.match(line)
        if m:
            flush()
            fence, is_sig = m.group(1), first_code
            first_code = False
            out.append(line)
            continue
        prose.append(line)
    flush()
    if fence: out.append(fence)
    return '\n'.join(out).strip('\n') + '\n'


# ----------------------------------------------------------------------------------------------------------------
# 2b. Staging notebooks

_re_opt = re.compile(r'^\s*#\|\s*([\w-]+)\s*(?::\s*(.*?))?\s*$')
_re_ansi = re.compile(r'\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])')


def split_options(src: str):
    "Split leading Quarto/nbdev `#|` option lines off a code cell; return `(options, code)`."
    opts, lines = {}, src.split('\n')
    i = 0
    while i < len(lines) and (_re_opt.match(lines[i]) or not lines[i].strip()):
        m = _re_opt.match(lines[i])
        if m: opts[m.group(1).lower()] = (m.group(2) or 'true').strip().strip('"\'')
        i += 1
    return opts, '\n'.join(lines[i:]).strip('\n')


def _false(v) -> bool: return str(v).strip().lower() in ('false', 'no', '0')


def path_scrubber():
    "Replace machine-specific paths in saved outputs (temporary folders, this checkout, the home folder)."
    subs = [(re.compile(r'(?:/private)?/(?:var/folders/[\w/]+/T|tmp)/tmp[\w.-]+'), '/tmp/…'),
            (re.compile(re.escape(str(ROOT))), '.'),
            (re.compile(r'(?:\.\./)+shared/data'), '<data>')]
    home = os.path.expanduser('~')
    if home not in ('/', '', '~'): subs.append((re.compile(re.escape(home) + r'(?=/)'), '~'))

    def scrub(s: str) -> str:
        for r, t in subs: s = r.sub(t, s)
        return s
    return scrub


def md_cell(src: str) -> dict:
    return {'cell_type': 'markdown', 'metadata': {}, 'source': src}


def stage_notebook(nb: dict, fm: dict, rel: str, linker: Linker, scrub) -> dict:
    "A processed notebook -> the notebook myst-nb renders."
    cells = []
    title, desc = str(fm.get('title') or PurePosixPath(rel).stem), str(fm.get('description') or '')
    head = f'# {title}\n'
    if desc: head += '\n{.gw-description}\n' + linker(desc, rel) + '\n'
    cells.append(md_cell(head))
    for c in nb.get('cells', []):
        ct, src = c.get('cell_type'), _text(c.get('source'))
        if ct == 'raw':
            if src.lstrip().startswith('---'): continue  # front matter (shown as the title above)
            fmt = ((c.get('metadata') or {}).get('format') or (c.get('metadata') or {}).get('raw_mimetype') or '')
            if fmt.lower() in ('text/html', 'html'): cells.append(md_cell(src))
            continue
        if ct == 'markdown':
            if not re.sub(r'<!--.*?-->', '', src, flags=re.S).strip(): continue  # nbdev's "AUTOGENERATED" comment
            cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': linker(quarto_divs(src), rel),
                          **({'attachments': c['attachments']} if c.get('attachments') else {})})
            continue
        if ct != 'code': continue
        opts, code = split_options(src)
        if _false(opts.get('include', 'true')): continue
        outs = c.get('outputs') or []
        echo, out_opt = not _false(opts.get('echo', 'true')), opts.get('output', 'true').lower()
        md_outs = [o for o in outs if o.get('output_type') in ('display_data', 'execute_result')
                   and 'text/markdown' in (o.get('data') or {})]
        if not echo and out_opt == 'asis' and md_outs and len(md_outs) == len(outs):
            for o in md_outs:
                md = _text(o['data']['text/markdown'])
                if re.match(r'^\s*show_doc\(', code): md = api_markdown(md, rel)
                cells.append(md_cell(linker(quarto_divs(md), rel)))
            continue
        tags = []
        if not echo or not code.strip(): tags.append('remove-input')
        if out_opt == 'false': tags.append('remove-output')
        if opts.get('code-fold', '').lower() in ('true', 'show'): tags.append('hide-input')
        new_outs = []
        for o in outs:
            o = copy.deepcopy(o)
            if o.get('output_type') == 'stream': o['text'] = scrub(_re_ansi.sub('', _text(o.get('text'))))
            elif o.get('output_type') == 'error':
                o['traceback'] = [scrub(t) for t in o.get('traceback') or []]
            else:
                data = o.get('data') or {}
                data.pop('application/vnd.jupyter.widget-view+json', None)
                if not data: continue
                for k in ('text/plain', 'text/html', 'text/markdown'):
                    if k in data: data[k] = scrub(_text(data[k]))
                if out_opt == 'asis' and 'text/markdown' in data:
                    data['text/markdown'] = linker(data['text/markdown'], rel)
            new_outs.append(o)
        if 'remove-input' in tags and (not new_outs or 'remove-output' in tags): continue
        cells.append({'cell_type': 'code', 'execution_count': None, 'metadata': {'tags': tags} if tags else {},
                      'source': code, 'outputs': new_outs})
    hide_checks(cells)
    for i, c in enumerate(cells): c['id'] = f'c{i}'  # nbformat 4.5 wants cell ids
    return {'cells': cells, 'nbformat': 4, 'nbformat_minor': 5,
            'metadata': {'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
                         'language_info': {'name': 'python', 'pygments_lexer': 'ipython3'}}}


CHECKS = re.compile(r'^(?:test(?:_\w+)?|assert_\w+)$')  # fastcore.test's test_eq, test_fail, ...; numpy's assert_*


def _names(node, ctx) -> set:
    import ast
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def check_cell(code: str):
    """A cell that only checks: every top-level statement is an `assert`, a check call (`test_eq(...)`,
    `test_fail(...)`), an assignment, an import, a `del`, or a `for`/`with`/`if`/`try` block of those, at least one
    check among them, and no definition but private helpers (`def _f`). Returns (names it binds, names it reads),
    or None for any other cell (a definition, a bare expression whose value Jupyter shows, a call like `fit(...)`)."""
    import ast
    try: tree = ast.parse(code)
    except SyntaxError: return None  # IPython magics, shell lines: a reader's cell

    def ok(nodes) -> tuple:
        "(all allowed, some check)"
        found = False
        for n in nodes:
            if isinstance(n, ast.Assert): found = True
            elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call):
                f = n.value.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ''
                if not CHECKS.match(name): return False, found
                found = True
            elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.Delete,
                                ast.Pass, ast.Continue, ast.Break)): pass
            elif isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name.startswith('_'): pass
            elif isinstance(n, (ast.For, ast.While, ast.With, ast.If, ast.Try)):
                blocks = [n.body, getattr(n, 'orelse', []), getattr(n, 'finalbody', [])]
                blocks += [h.body for h in getattr(n, 'handlers', [])]
                for b in blocks:
                    a, f2 = ok(b)
                    if not a: return False, found
                    found |= f2
            else: return False, found
        return True, found

    allowed, found = ok(tree.body)
    if not (allowed and found): return None
    binds = _names(tree, ast.Store) | {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    binds |= {(a.asname or a.name).split('.')[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    return binds, _names(tree, ast.Load)


def hide_checks(cells: list) -> int:
    """Tag `remove-cell` the code cells that only check (see `check_cell`), have no output and bind no name that a
    cell shown after them reads without setting it first: the notebook keeps its checks (nbdev_test runs them), the
    page shows the prose, the examples and their outputs. Returns how many cells were hidden."""
    import ast
    read_later, hidden = set(), 0
    for c in reversed(cells):
        if c.get('cell_type') != 'code': continue
        tags = c.setdefault('metadata', {}).setdefault('tags', [])
        chk = None if c.get('outputs') or 'remove-input' in tags else check_cell(_text(c.get('source')))
        if chk is not None and not (chk[0] & read_later):
            tags.append('remove-cell')
            hidden += 1
            continue
        try:  # names it reads but does not bind itself (a later cell that sets `X` first needs no earlier `X`)
            t = ast.parse(_text(c.get('source')))
            read_later |= _names(t, ast.Load) - _names(t, ast.Store)
        except SyntaxError: read_later |= set(re.findall(r'\b\w+\b', _text(c.get('source'))))
        if not tags: del c['metadata']['tags']
    return hidden


def download_html(rel: str) -> str:
    "The download link a tutorial page gets under its title (raw HTML: the link rewriter leaves it alone)."
    name = html.escape(PurePosixPath(rel).name)
    return (f'<p class="gw-download"><a class="reference download" href="{name}" download="{name}">'
            f'Download this notebook</a> (<code>{name}</code>) to run it in Jupyter.</p>\n')


def stage_markdown(text: str, rel: str, linker: Linker, nblinker=None) -> str:
    "A markdown page (nbs/*.md): YAML front matter -> title + summary, nbdev's backtick links, Quarto divs."
    title = desc = None
    m = re.match(r'^---\s*\n(.*?)\n---\s*\n', text, re.S)
    if m:
        import yaml
        try: meta = yaml.safe_load(m.group(1)) or {}
        except yaml.YAMLError: meta = {}
        title, desc = meta.get('title'), meta.get('description')
        text = text[m.end():]
    try:
        from nbdev.doclinks import NbdevLookup
        _public_lookup()
        text = NbdevLookup().linkify(text)
    except Exception as e:  # links are a nicety; the page must still build
        print(f'docs/build.py: warning: no nbdev links in {rel}: {e}', file=sys.stderr)
    head = ''
    if title and not re.search(r'^#\s', text, re.M): head = f'# {title}\n\n'
    if desc: head += '{.gw-description}\n' + str(desc) + '\n\n'
    return linker(quarto_divs(head + text), rel)


# ----------------------------------------------------------------------------------------------------------------
# Navigation (nbs/sidebar.yml) -> toctrees

def read_settings(root: Path) -> dict:
    import configparser
    cp = configparser.ConfigParser(interpolation=None)
    cp.read(root / 'settings.ini', encoding='utf-8')
    return dict(cp['DEFAULT']) if cp.has_section('DEFAULT') or cp.defaults() else {}


def find_sources(nbs: Path) -> list[str]:
    "Notebooks (recursive) and markdown pages below `nbs`, skipping `_`/`.`-prefixed files and folders."
    res = []
    for p in sorted([*nbs.rglob('*.ipynb'), *nbs.rglob('*.md')]):
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
        except yaml.YAMLError as e: raise SystemExit(f'docs/build.py: cannot parse {f}: {e}') from None
        sb = (d.get('website') or {}).get('sidebar')
        if isinstance(sb, list): sb = sb[0] if sb else {}
        if isinstance(sb, dict) and isinstance(sb.get('contents'), list): return sb['contents']
    return []


def build_nav(contents: list, pages: list) -> list:
    """Nav [('page', rel) | ('section', title, [rels])] from sidebar.yml (Quarto's `auto: folder-or-glob` included;
    nested sections are flattened into their top-level section); pages it does not list are appended."""
    import fnmatch
    seen = set()

    def match(entry) -> list:
        if isinstance(entry, str) and '*' in entry: entry = {'auto': entry}  # Quarto: `contents: tutorials/*`
        if isinstance(entry, dict) and 'auto' in entry:
            pats = entry['auto'] if isinstance(entry['auto'], list) else [entry['auto']]
            res = []
            for pat in pats:
                pat = str(pat).lstrip('./').rstrip('/')
                res += [p for p in pages if p not in res and (p.startswith(pat + '/') or fnmatch.fnmatch(p, pat)
                                                              or fnmatch.fnmatch(p, pat + '.*'))]
            return res
        key = str(entry.get('href', '') if isinstance(entry, dict) else entry).lstrip('./')
        return [key] if key in pages else []

    def flat(items) -> list:
        res = []
        for it in items or []:
            if isinstance(it, dict) and ('section' in it or 'contents' in it):
                res += match({'href': it['href']}) if it.get('href') else []
                res += flat(it.get('contents') if isinstance(it.get('contents'), list) else [it.get('contents')])
            elif it is not None: res += match(it)
        return res

    nav = []
    for it in contents:
        if isinstance(it, dict) and ('section' in it or 'contents' in it):
            kids = [k for k in dict.fromkeys(flat([it])) if k not in seen]
            seen.update(kids)
            if kids: nav.append(('section', str(it.get('section') or it.get('text') or ''), kids))
        else:
            for k in match(it):
                if k not in seen:
                    seen.add(k)
                    nav.append(('page', k))
    rest = [k for k in pages if k not in seen]
    if 'index.ipynb' in rest:
        rest.remove('index.ipynb')
        nav.insert(0, ('page', 'index.ipynb'))
    tut = [k for k in rest if k.startswith('tutorials/')]
    if tut: nav.append(('section', 'Tutorials', tut))
    nav += [('page', k) for k in rest if k not in tut]
    return nav


def toctree_md(nav: list, src2out: dict, root_rel: str | None) -> str:
    "MyST toctrees for the root page: one per section (its caption), loose pages in uncaptioned ones."
    blocks, loose = [], []

    def flush_loose():
        if loose: blocks.append('```{toctree}\n:hidden:\n:maxdepth: 2\n\n' + '\n'.join(loose) + '\n```')
        loose.clear()

    for n in nav:
        if n[0] == 'page':
            if n[1] != root_rel: loose.append(src2out[n[1]])
        else:
            flush_loose()
            kids = [src2out[k] for k in n[2] if k != root_rel]
            if kids: blocks.append(f'```{{toctree}}\n:hidden:\n:maxdepth: 2\n:caption: {n[1]}\n\n'
                                   + '\n'.join(kids) + '\n```')
    flush_loose()
    return '\n\n'.join(blocks) + '\n'


# ----------------------------------------------------------------------------------------------------------------
# 3. After Sphinx: every internal link resolves

_re_a = re.compile(r'<a\b([^>]*?)\shref="([^"]*)"([^>]*)>(.*?)</a>', re.S)


def check_links(out: Path, fix: bool = True) -> list:
    "Internal links whose page or anchor does not exist: reported; with `fix`, links to a missing anchor keep the page."
    files = {f.relative_to(out).as_posix(): f for f in out.rglob('*.html')}
    ids = {k: set(re.findall(r'\sid="([^"]+)"', f.read_text(encoding='utf-8'))) for k, f in files.items()}
    problems = []
    for page, f in files.items():
        text = f.read_text(encoding='utf-8')

        def sub(m):
            href = html.unescape(m.group(2))
            if re.match(r'^[a-z][a-z0-9+.-]*:', href) or href.startswith('//'): return m.group(0)
            path, _, frag = href.partition('#')
            target = os.path.normpath((PurePosixPath(page).parent / path).as_posix()
                                      if path else page).replace(os.sep, '/')
            if path and (out / target).is_dir(): target = (PurePosixPath(target) / 'index.html').as_posix()
            if target in ids:
                if not frag or frag in ids[target]: return m.group(0)
                problems.append(f'{page}: {href} (no #{frag} on {target})')
                if fix: return f'<a{m.group(1)} href="{html.escape(path or "#")}"{m.group(3)}>{m.group(4)}</a>'
                return m.group(0)
            if (out / target).exists(): return m.group(0)  # e.g. a downloadable file
            problems.append(f'{page}: {href} (no such page)')
            return m.group(4) if fix else m.group(0)  # unlink: keep the text

        new = _re_a.sub(sub, text)
        if new != text: f.write_text(new, encoding='utf-8')
    return problems


# ----------------------------------------------------------------------------------------------------------------
# Driver

def check_out(out: Path):
    "Refuse to build into anything but a new/empty folder or a previous site build (we wipe it)."
    if out.exists():
        if not out.is_dir(): raise SystemExit(f'docs/build.py: {out} exists and is not a directory')
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise SystemExit(f'docs/build.py: refusing to wipe {out}: not empty and not a previous site build '
                             f'(no {MARKER} file). Choose another --out.')
    if out == ROOT or out in ROOT.parents: raise SystemExit(f'docs/build.py: refusing to build into {out}')


CACHE = ROOT / 'docs' / '_build' / 'cache'  # gitignored; `--no-cache` builds from scratch


def _lib() -> Path: return ROOT / (read_settings(ROOT).get('lib_path') or 'glassworks')


def inputs_digest(nbs: Path) -> str:
    """What every notebook's nbdev processing depends on besides the notebook and its modules (`_cache_key`): this
    file (the processors), settings.ini, the package's list of names (`_modidx.py`: nbdev's links) and the versions
    of nbdev, execnb and fastcore."""
    import hashlib
    from importlib.metadata import version
    h = hashlib.sha256()
    for f in [Path(__file__), ROOT / 'settings.ini', _lib() / '_modidx.py']:
        if f.exists(): h.update(f.as_posix().encode() + b'\0' + f.read_bytes() + b'\0')
    for pkg in ('nbdev', 'execnb', 'fastcore'):
        try: h.update(f'{pkg}={version(pkg)}'.encode())
        except Exception: pass
    h.update(str(nbs.resolve()).encode())
    return h.hexdigest()


def _cache_key(digest: str, nbs: Path, rel: str) -> str:
    """A notebook's processed form depends on the notebook and on the modules it exports to (`#| default_exp`,
    `#| export mod`): `show_doc` renders their signatures and docstrings. Other modules' edits leave it valid."""
    import hashlib
    raw = (nbs / rel).read_bytes()
    h = hashlib.sha256(digest.encode() + rel.encode() + b'\0' + raw)
    mods = sorted(set(re.findall(rb'#\|\s*(?:default_exp|export[si]?)\s+([\w.]+)', raw)))
    for m in mods:
        f = _lib() / (m.decode().replace('.', '/') + '.py')
        h.update(m + b'\0' + (f.read_bytes() if f.exists() else b'-'))
    return h.hexdigest()[:32]


def write_if_changed(path: Path, text: str) -> bool:
    "Write `text` unless the file already holds it (Sphinx then keeps the page's doctree: an incremental build)."
    try:
        if path.read_text(encoding='utf-8') == text: return False
    except OSError: pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    return True


def build(out: Path, nbs: Path, jobs: int, stage: Path | None = None, quiet: bool = False,
          keep_going: bool = False, sphinx_jobs: str = 'auto', cache: Path | None = None) -> dict:
    """Build the site into `out`. With `cache` (a folder), each notebook's processed form is kept under a digest of
    the notebook and of what processing depends on (`inputs_digest`), and the staging folder, Sphinx's doctrees and
    its output are kept there too, so a rebuild redoes only what changed; without it, everything is built afresh."""
    t0 = time.perf_counter()
    os.chdir(ROOT)  # nbdev's get_config() finds settings.ini from the working directory
    cfg = read_settings(ROOT)
    check_out(out)
    if not nbs.is_dir(): raise SystemExit(f'docs/build.py: notebook folder {nbs} not found')
    rels = find_sources(nbs)
    global REFERENCE
    REFERENCE = None
    if nbs.resolve() == (ROOT / (cfg.get('nbs_path') or 'nbs')).resolve():
        sys.path.insert(0, str(HERE))
        import gw_reference as REFERENCE
    nb_rels = [r for r in rels if r.endswith('.ipynb')]
    if not rels: raise SystemExit(f'docs/build.py: no notebooks in {nbs}')
    for rel in nb_rels:  # fail early and clearly on a broken/half-written notebook
        try: json.loads((nbs / rel).read_text(encoding='utf-8'))
        except Exception as e: raise SystemExit(f'docs/build.py: {nbs / rel} is not a valid notebook: {e}') from None

    results, todo, keys = [], list(nb_rels), {}
    if cache is not None:
        digest, proc_dir = inputs_digest(nbs), cache / 'processed'
        proc_dir.mkdir(parents=True, exist_ok=True)
        keys = {rel: _cache_key(digest, nbs, rel) for rel in nb_rels}
        todo = []
        for rel in nb_rels:
            try: results.append(dict(json.loads((proc_dir / f'{keys[rel]}.json').read_text()), cached=True))
            except (OSError, ValueError): todo.append(rel)
    jobs = max(1, min(jobs, len(todo) or 1))
    if todo:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context('spawn')) as ex:
            done = list(ex.map(process_notebook, [str(nbs / r) for r in todo], todo))
        results += done
        if cache is not None:
            live = set(keys.values())
            for f in proc_dir.glob('*.json'):  # entries of older versions of the notebooks go
                if f.stem not in live: f.unlink(missing_ok=True)
            for r in done:
                if r['ok']: (proc_dir / f'{keys[r["rel"]]}.json').write_text(json.dumps(r))
    results.sort(key=lambda r: nb_rels.index(r['rel']))
    t_proc = time.perf_counter() - t0
    failed = [r for r in results if not r['ok']]
    fail_msg = ''
    if failed:
        for r in failed: print(f'\n--- {nbs / r["rel"]} ---\n{r["tb"]}', file=sys.stderr)
        fail_msg = ('docs/build.py: nbdev processing failed (details above):\n' +
                    '\n'.join(f'  {nbs / r["rel"]}: {r["error"]}' for r in failed))
        if not keep_going: raise SystemExit(fail_msg)
    res = {r['rel']: r for r in results}

    # output names: nbdev's front matter `output-file` (as Quarto would name the page), else nbdev's rule
    src2out, used = {}, set()
    for rel in rels:
        r = res.get(rel) or {}
        fm = r.get('frontmatter') or {}
        name = str(fm.get('output-file') or '')
        stem = PurePosixPath(name).stem if name else (out_stem(rel) if rel.endswith('.ipynb')
                                                      else PurePosixPath(rel).stem)
        o = (PurePosixPath(rel).parent / stem).as_posix()
        if o in used or o in ('search', 'genindex'):
            alt = (PurePosixPath(rel).parent / PurePosixPath(rel).stem).as_posix()
            print(f'docs/build.py: warning: {rel} also maps to {o}.html; using {alt}.html', file=sys.stderr)
            o = alt
        used.add(o)
        src2out[rel] = o

    doc_base = (cfg.get('doc_host', '').rstrip('/') + '/' + cfg.get('doc_baseurl', '').strip('/')).rstrip('/') + '/'
    if doc_base == '/': doc_base = ''
    linker, scrub = Linker(doc_base, src2out), path_scrubber()

    tmp, keep = None, stage is None and cache is not None  # keep: an incremental Sphinx build in the cache
    if keep:  # one staging folder per notebook folder (the tests' fixture site is another)
        import hashlib
        stage = cache / 'stage' / hashlib.sha256(str(nbs.resolve()).encode()).hexdigest()[:12]
    elif stage is None: stage = Path(tmp := tempfile.mkdtemp(prefix='glassworks-docs-'))
    elif stage.exists(): shutil.rmtree(stage)
    stage.mkdir(parents=True, exist_ok=True)
    try:
        src = stage / 'src'
        src.mkdir(exist_ok=True)
        staged = set()
        root_rel = next((r for r in ('index.ipynb', 'index.md') if r in src2out and src2out[r] == 'index'), None)
        nav = build_nav(read_sidebar(nbs), rels)
        toc = toctree_md(nav, src2out, root_rel)
        if REFERENCE: toc += '\n' + REFERENCE.toctree()  # docs/gw_reference.py: the API reference's pages
        titles = {}
        for rel in rels:
            dst = src / (src2out[rel] + ('.ipynb' if rel.endswith('.ipynb') else '.md'))
            dst.parent.mkdir(parents=True, exist_ok=True)
            if rel.endswith('.md'):
                text = stage_markdown((nbs / rel).read_text(encoding='utf-8'), rel, linker)
                if rel == root_rel: text += '\n\n' + toc
                write_if_changed(dst, text)
                staged.add(dst)
                m = re.search(r'^#\s+(.+)$', text, re.M)
                titles[rel] = m.group(1).strip() if m else PurePosixPath(rel).stem
                continue
            r = res[rel]
            if not r['ok']:  # --keep-going: a page that shows the error; the exit status stays 1
                snb = {'cells': [dict(id='c0', **md_cell(f'# {PurePosixPath(rel).stem}\n\n'
                                         '**This page failed to build.**\n\n'
                                         f'```text\n{r["error"]}\n```\n'))],
                       'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}
                titles[rel] = PurePosixPath(rel).stem
            else:
                snb = stage_notebook(json.loads(r['nb']), r['frontmatter'], rel, linker, scrub)
                if rel.startswith('tutorials/'):  # the notebook itself, copied beside the page after Sphinx
                    snb['cells'].insert(1, dict(id='download', **md_cell(download_html(rel))))
                titles[rel] = str(r['frontmatter'].get('title') or PurePosixPath(rel).stem)
            if rel == root_rel: snb['cells'].append(dict(id='toctree', **md_cell(toc)))
            write_if_changed(dst, json.dumps(snb, indent=1))
            staged.add(dst)
        if root_rel is None:  # no landing page in nbs/: a generated one with the toctrees
            write_if_changed(src / 'index.md', f'# {cfg.get("title") or "Documentation"}\n\n'
                                               f'{cfg.get("description", "")}\n\n' + toc)
            staged.add(src / 'index.md')
        if REFERENCE: staged |= {src / f'{n}.rst' for n in REFERENCE.write_pages(src)}
        for f in [f for f in src.rglob('*') if f.is_file() and f not in staged]: f.unlink()  # pages gone since
        # Sphinx
        build_dir = stage / 'html'
        env = dict(os.environ, GLASSWORKS_DOCS_ROOT=str(ROOT), PYTHONWARNINGS='ignore')
        cmd = [sys.executable, '-m', 'sphinx', '-b', 'html', '-c', str(HERE), '-d', str(stage / 'doctrees'),
               '-j', str(sphinx_jobs), '-q', str(src), str(build_dir)]
        t1 = time.perf_counter()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        t_sphinx = time.perf_counter() - t1
        if p.returncode != 0:
            raise SystemExit(f'docs/build.py: sphinx-build failed ({p.returncode}):\n'
                             f'{p.stderr[-6000:]}\n{p.stdout[-2000:]}')
        if keep:  # the cache keeps Sphinx's own output (incremental builds); the site is a copy of it
            site = stage / 'site'
            if site.exists(): shutil.rmtree(site)
            shutil.copytree(build_dir, site)
            build_dir = site
            used = {m for f in site.rglob('*.html')
                    for m in re.findall(r'_images/([^"\'\s)?#]+)', f.read_text(encoding='utf-8'))}
            for f in (site / '_images').glob('*'):  # figures of older versions of a page (Sphinx keeps them)
                if f.is_file() and f.name not in used: f.unlink()
        warns = [l for l in p.stderr.splitlines() if 'WARNING' in l or 'ERROR' in l]
        if warns and not quiet:
            print(f'docs/build.py: sphinx reported {len(warns)} warning(s):\n  ' + '\n  '.join(warns[:40]),
                  file=sys.stderr)
        manifest = {rel: {'page': src2out[rel] + '.html', 'title': titles[rel]} for rel in rels}
        (build_dir / 'pages.json').write_text(json.dumps(manifest, indent=1, sort_keys=True) + '\n')
        (build_dir / '.nojekyll').write_text('')  # GitHub Pages: serve _static/ and _images/ as they are
        (build_dir / MARKER).write_text('built by docs/build.py; this folder is wiped on every build\n')
        (build_dir / '.buildinfo').unlink(missing_ok=True)
        for junk in ('_static/webpack-macros.html', '_sources'):  # a theme template copied as a static file; no sources
            j = build_dir / junk
            if j.is_dir(): shutil.rmtree(j)
            elif j.exists(): j.unlink()
        for rel in rels:  # tutorials: the source notebook (saved outputs included) next to its page
            if rel.startswith('tutorials/') and rel.endswith('.ipynb'):
                dst = build_dir / PurePosixPath(src2out[rel]).parent / PurePosixPath(rel).name
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(nbs / rel, dst)
        problems = check_links(build_dir)
        if problems:
            print(f'docs/build.py: {len(problems)} internal link(s) without a target (anchor dropped / unlinked):\n  '
                  + '\n  '.join(problems[:40]), file=sys.stderr)
        check_out(out)
        if out.exists(): shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(build_dir), str(out))
    finally:
        if tmp: shutil.rmtree(tmp, ignore_errors=True)
    dt = time.perf_counter() - t0
    if not quiet:
        for rel in rels:
            r = res.get(rel)
            note = (f'  ({r["mixed"]} cell(s) mixing imports and code: their imports were run)'
                    if r and r.get('mixed') else '')
            secs = (' cache' if r and r.get('cached') else f'{r["seconds"]:5.1f}s' if r and r.get('ok') else '     ')
            print(f'  {rel:<32} -> {src2out[rel] + ".html":<28} {secs}{note}')
        n_cached = sum(1 for r in results if r.get('cached'))
        print(f'docs/build.py: built {len(rels)} page(s) from {nbs} into {out} in {dt:.1f}s '
              f'(nbdev processing {t_proc:.1f}s' + (f', {n_cached} notebook(s) from the cache' if n_cached else '') +
              f', sphinx {t_sphinx:.1f}s)')
    if fail_msg: raise SystemExit(fail_msg)
    return manifest


def main(argv=None):
    ap = argparse.ArgumentParser(
        description='Build the static docs site from the notebooks (nbdev processors + Sphinx).')
    ap.add_argument('--out', default=str(ROOT / 'docs' / '_site'), help='output folder (wiped; default docs/_site)')
    ap.add_argument('--nbs', default=None, help='notebook folder (default: nbs_path of settings.ini)')
    ap.add_argument('--jobs', type=int, default=min(4, os.cpu_count() or 1), help='parallel nbdev worker processes')
    ap.add_argument('--sphinx-jobs', default='auto', help="sphinx-build -j (default 'auto')")
    ap.add_argument('--stage', default=None, help='keep the staging folder (myst-nb sources, Sphinx output) here')
    ap.add_argument('--cache', default=str(CACHE),
                    help='reuse processed notebooks and Sphinx\'s doctrees from here (default docs/_build/cache)')
    ap.add_argument('--no-cache', action='store_true', help='build everything afresh (what the tests do)')
    ap.add_argument('--keep-going', action='store_true',
                    help='still write the site when notebooks fail (error pages for them); exit status stays 1')
    ap.add_argument('--quiet', action='store_true')
    a = ap.parse_args(argv)
    out = Path(a.out).resolve()
    nbs = Path(a.nbs).resolve() if a.nbs else (ROOT / (read_settings(ROOT).get('nbs_path') or 'nbs')).resolve()
    stage = Path(a.stage).resolve() if a.stage else None
    try:
        build(out, nbs, a.jobs, stage, a.quiet, a.keep_going, a.sphinx_jobs,
              None if a.no_cache else Path(a.cache).resolve())
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            return 1
        return e.code or 0
    except Exception:
        traceback.print_exc()
        print('docs/build.py: build failed (see the traceback above)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
