"""The API reference of the docs site: pages written into the staging folder and a Sphinx extension that renders them.

`docs/build.py` calls `write_pages(src)` before sphinx-build (one reST page per public estimator or group, plus an
overview with a summary table) and `toctree()` for the "Reference" section of the sidebar; `api_link(name, rel)`
gives the method pages' API entries a link to the reference. `docs/conf.py` loads this module as a Sphinx
extension (`setup`), which runs `sphinx.ext.autodoc` + `sphinx.ext.napoleon` over the installed package and turns
our docstrings into numpydoc sections before napoleon reads them:

* **Parameters** come from the signature (names in order, type annotation, default) and nbdev's docments comments
  (`def f(x:int, # the thing` - a comment line under it continues it), so the text lives in one place;
* **Returns** from a `Returns` section of the docstring, else from the return annotation and its docments comment;
* **Attributes**, **Notes**, **Raises** from numpydoc sections of the docstring (`Attributes` + a dashed line);
* **See also**: from `SEE_ALSO` below (other reference entries and the method's theory page);
* **Examples**: the docstring's doctests (its ```` ```python ```` blocks and the prose between them).

Docstring prose is markdown-flavoured plain text: `code` spans stay code (a public name becomes a link), `$x$`
becomes math, and `*`, `_`, `|` are shown as written.
"""
from __future__ import annotations

import dataclasses, functools, importlib, inspect, io, re, sys, textwrap, tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# ------------------------------------------------------------------------------------------------ what is documented
# (page slug, title, one-line intro, method page (output name of its notebook) or None, [objects])
# The estimators come from the package's list of methods (`glassworks.registry.METHODS`: order, classes, the method's
# page); the reference adds a one-line introduction of its own to each.
INTROS = {
    'OSDTClassifier': 'Certified-optimal sparse decision trees for classification.',
    'OSRTRegressor': 'Certified-optimal sparse regression trees.',
    'HierScaleRegressor': 'Sparse interaction models under strong hierarchy.',
    'RuleBoostingRegressor': 'Additive rule ensembles by orthogonal gradient boosting.',
    'RuleBoostingClassifier': 'Rule ensembles for binary classification (logistic loss).',
    'RuleExtractor': 'Short rule lists pruned from a fitted tree ensemble.',
}


def _estimator_pages() -> list:
    "One reference page per estimator of `METHODS`, in its order; an estimator without an introduction is an error."
    from glassworks.registry import METHODS
    pages = []
    for m in METHODS.values():
        for path in dict.fromkeys(m.estimators.values()):          # a class that fits two tasks: one page
            cls = path.rsplit('.', 1)[1]
            if cls not in INTROS: raise KeyError(f"docs/gw_reference.py: INTROS has no line for {cls} ({m.name})")
            pages.append((cls.lower(), cls, INTROS[cls], re.sub(r'^\d+_', '', m.page), [f'glassworks.{path}']))
    return pages


ESTIMATOR_PAGES = _estimator_pages()
PAGES = [*ESTIMATOR_PAGES,
    ('rashomonset', 'RashomonSet', 'Every good tree: the Rashomon set of OSDT/OSRT, counted exactly and read in order.',
     'rashomon', ['glassworks.rashomon.RashomonSet']),
    ('binarizer', 'Binarizer', 'Numeric and categorical columns as named 0/1 features.', 'binarize',
     ['glassworks.binarize.Binarizer']),
    ('models', 'Models', 'What the estimators return: trees, rule lists and rule ensembles, and their parts.', 'models',
     ['glassworks.models.Tree', 'glassworks.models.Leaf', 'glassworks.models.Split', 'glassworks.models.RuleList',
      'glassworks.models.RuleEnsemble', 'glassworks.models.Rule', 'glassworks.models.Condition',
      'glassworks.models.model_from_dict', 'glassworks.models.model_from_json']),
    ('datasets', 'Datasets', 'The benchmark tables: catalogue, download, checksum and cache.', 'datasets',
     ['glassworks.datasets.load', 'glassworks.datasets.list_datasets', 'glassworks.datasets.Dataset']),
    ('utilities', 'Saving, compilation and errors', 'Loading a saved estimator; compiling the numba kernels ahead of '
     'time; the errors glassworks raises.',
     None, ['glassworks.base.load_model', 'glassworks.registry.compile_all', 'glassworks.validation.InputError',
            'glassworks.validation.ParameterError']),
]
GROUPS = [('Estimators', [slug for slug, *_ in ESTIMATOR_PAGES]),
          ('Model sets', ['rashomonset']),
          ('Preprocessing', ['binarizer']), ('Models', ['models']), ('Data', ['datasets']),
          ('Utilities', ['utilities'])]
SEE_ALSO = {
    'OSDTClassifier': ['OSRTRegressor', 'Binarizer', 'Tree', 'RuleBoostingClassifier', 'RashomonSet'],
    'RashomonSet': ['OSDTClassifier', 'OSRTRegressor', 'Tree'],
    'OSRTRegressor': ['OSDTClassifier', 'Binarizer', 'Tree', 'HierScaleRegressor'],
    'HierScaleRegressor': ['OSRTRegressor', 'RuleBoostingRegressor'],
    'RuleBoostingRegressor': ['RuleBoostingClassifier', 'RuleExtractor', 'RuleEnsemble', 'Binarizer'],
    'RuleBoostingClassifier': ['RuleBoostingRegressor', 'OSDTClassifier', 'RuleEnsemble'],
    'RuleExtractor': ['RuleBoostingRegressor', 'RuleEnsemble'],
    'Binarizer': ['OSDTClassifier', 'OSRTRegressor'],
    'Tree': ['OSDTClassifier', 'OSRTRegressor', 'model_from_dict'],
    'RuleList': ['Rule', 'Tree', 'model_from_dict'], 'RuleEnsemble': ['RuleBoostingRegressor', 'RuleExtractor', 'Rule'],
    'Rule': ['Condition', 'RuleList', 'RuleEnsemble'], 'Condition': ['Rule'], 'Leaf': ['Split', 'Tree'],
    'Split': ['Leaf', 'Tree'], 'model_from_dict': ['model_from_json'], 'model_from_json': ['model_from_dict'],
    'load': ['list_datasets', 'Dataset'], 'list_datasets': ['load'], 'Dataset': ['load'],
    'compile_all': [], 'InputError': ['ParameterError'], 'ParameterError': ['InputError'],
}
PAGE_OF = {o.rsplit('.', 1)[1]: (slug, o) for slug, _, _, _, objs in PAGES for o in objs}
THEORY = {o.rsplit('.', 1)[1]: guide for _, _, _, guide, objs in PAGES for o in objs if guide}
THEORY.update(compile_all='registry', InputError='validation', ParameterError='validation')  # pages of their own


def _import(path: str):
    mod, name = path.rsplit('.', 1)
    return getattr(importlib.import_module(mod), name)


def methods(cls) -> list:
    "Public methods and static/class methods defined by `cls` or its glassworks bases (not scikit-learn's)."
    res = []
    for k in cls.__mro__:
        if not k.__module__.startswith('glassworks'): continue
        for a, v in vars(k).items():
            if a.startswith('_') or a in res or isinstance(v, property): continue
            if isinstance(v, (staticmethod, classmethod)) or inspect.isfunction(v): res.append(a)
    return res


@functools.lru_cache(maxsize=None)
def public_names() -> dict:
    "{short name: full name} of every object on the reference pages, methods included (`Tree.predict`)."
    res = {}
    for short, (slug, full) in PAGE_OF.items():
        res[short] = full
        try: obj = _import(full)
        except Exception: continue
        if inspect.isclass(obj):
            for m in methods(obj): res[f'{short}.{m}'] = f'{full}.{m}'
    return res


def api_link(name: str, rel: str = '') -> str:
    "HTML link from a method page's API entry `name` (`OSDTClassifier`, `Tree.predict`) to its reference entry."
    full = public_names().get(name)
    if not full: return ''
    slug = PAGE_OF[name.split('.')[0]][0]
    up = '../' * rel.count('/')
    return (f'<a class="gw-ref reference internal" href="{up}reference/{slug}.html#{full}" '
            f'title="API reference of {name}">reference</a>')


def toctree() -> str:
    "The sidebar's Reference section (a toctree for the landing page)."
    return ('```{toctree}\n:hidden:\n:maxdepth: 1\n:caption: Reference\n\nreference/index\n' +
            ''.join(f'reference/{p[0]}\n' for p in PAGES) + '```\n')


def _rst_title(t: str, ch: str = '=') -> str: return f'{t}\n{ch * len(t)}\n'


def _write(path: Path, text: str):
    "Write unless unchanged (an incremental Sphinx build re-reads only the pages whose file changed)."
    if not path.exists() or path.read_text(encoding='utf-8') != text: path.write_text(text, encoding='utf-8')


def write_pages(src: Path) -> list:
    "Write reference/index.rst and one page per entry of `PAGES` into the staging folder `src`; return their names."
    d = src / 'reference'
    d.mkdir(parents=True, exist_ok=True)
    idx = [_rst_title('API reference'),
           'Every public class and function of glassworks, with its parameters, fitted attributes and examples. '
           'Everything listed here can be imported from the package itself (``from glassworks import '
           'OSDTClassifier``); the method pages (section "Methods") explain the algorithms behind them.', '',
           '.. toctree::', '   :hidden:', '', *[f'   {p[0]}' for p in PAGES], '']
    by_slug = {p[0]: p for p in PAGES}
    for title, slugs in GROUPS:
        idx += [_rst_title(title, '-'), '.. autosummary::', '   :nosignatures:', '']
        idx += [f'   ~{o}' for s in slugs for o in by_slug[s][4]]
        idx.append('')
    _write(d / 'index.rst', '\n'.join(idx) + '\n')
    written = ['reference/index']
    for slug, title, intro, guide, objs in PAGES:
        lines = [f'.. _ref-{slug}:', '', _rst_title(title), intro]
        estimator = any(slug in g[1] for g in GROUPS[:1])
        if guide: lines[-1] += (f' The method, its proofs and experiments: :doc:`/{guide}`.' if estimator else
                                f' Background and worked examples: :doc:`/{guide}`.')
        lines.append('')
        if len(objs) > 1:
            lines += ['.. autosummary::', '   :nosignatures:', '', *[f'   ~{o}' for o in objs], '']
        for o in objs:
            obj = _import(o)
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                lines += [f'.. autoexception:: {o}', '']
            elif inspect.isclass(obj):
                ms = methods(obj)
                lines += [f'.. autoclass:: {o}'] + ([f'   :members: {", ".join(ms)}', '   :undoc-members:']
                                                    if ms else []) + ['']
            else:
                lines += [f'.. autofunction:: {o}', '']
        _write(d / f'{slug}.rst', '\n'.join(lines) + '\n')
        written.append(f'reference/{slug}')
    return written


# ------------------------------------------------------------------------------------------------ docments
def _comments_of_signature(src: str) -> dict:
    """{param: comment} from a `def`'s signature: nbdev's docments (a comment after the parameter), and comment-only
    lines right under it continue it; a comment on a line of several parameters (`w, mean, ss, # per-class ...`)
    describes each of them. The comment after the closing `)` / `->` belongs to the return value, unless that line
    also holds a parameter (`def predict(self, X) -> T: # the data`): then it is the parameter's (but never
    `self`'s or `cls`'s: `def count(self) -> int: # the number` describes the return value)."""
    res, cur, depth, started, after_arrow = {}, None, 0, False, False
    expect_name, seen_def, on_line = False, False, {}

    def add(line: int, text: str):
        names = [n for n in on_line.get(line, []) if n not in ('self', 'cls')]
        keys = names or (['return'] if after_arrow else [cur] if cur else [])
        for k in keys: res[k] = (res.get(k, '') + ' ' + text[1:].strip()).strip()

    try: toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError): return res
    for t in toks:
        if not started:  # the `def`'s parenthesis, not a decorator's (`@njit(cache=True)`)
            if t.type == tokenize.NAME and t.string == 'def': seen_def = True
            elif seen_def and t.type == tokenize.OP and t.string == '(':
                started, depth, expect_name = True, 1, True
            continue
        if t.type == tokenize.OP:
            if t.string in '([{': depth += 1
            elif t.string in ')]}':
                depth -= 1
            elif t.string == ',' and depth == 1: expect_name = True
            elif t.string == '->' and depth == 0: after_arrow = True
            elif t.string == ':' and depth == 0:  # end of the signature; a comment on this line still counts
                for u in toks:
                    if u.type == tokenize.COMMENT and u.start[0] == t.start[0] and u.start > t.start:
                        add(u.start[0], u.string)
                break
            continue
        if t.type == tokenize.NAME and depth == 1 and expect_name:
            cur, expect_name = t.string, False
            on_line.setdefault(t.start[0], []).append(cur)
            continue
        if t.type == tokenize.COMMENT and cur: add(t.start[0], t.string)
    return res


def _comments_of_fields(cls) -> dict:
    "{field: comment} of a dataclass body (`name: type = default # comment`, continued by comment-only lines)."
    try: src = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError): return {}
    res, cur = {}, None
    fields = {f.name for f in dataclasses.fields(cls)}
    for line in src.split('\n')[1:]:
        m = re.match(r'^\s*(\w+)\s*:[^#]*?(?:#\s?(.*))?$', line)
        if m and m.group(1) in fields:
            cur = m.group(1)
            if m.group(2): res[cur] = m.group(2).strip()
            continue
        m = re.match(r'^\s*#\s?(.*)$', line)
        if m and cur and cur in res:
            res[cur] += ' ' + m.group(1).strip()
            continue
        cur = None
    return res


def docments_of(obj) -> dict:
    "{param: comment, 'return': comment} for a function, method or class (its `__init__`, or dataclass fields)."
    if inspect.isclass(obj):
        if dataclasses.is_dataclass(obj): return _comments_of_fields(obj)
        init = obj.__dict__.get('__init__') or next((k.__dict__['__init__'] for k in obj.__mro__[1:]
                                                      if '__init__' in k.__dict__), None)
        if init is None or not inspect.isfunction(init): return {}
        obj = init
    obj = getattr(obj, '__func__', obj)
    try: src = textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError): return {}
    return _comments_of_signature(src)


def returns_only_self(obj) -> bool:
    "Does every `return` of `obj`'s body return `self` (scikit-learn's `fit`)? False without source or returns."
    import ast
    f = inspect.unwrap(getattr(obj, '__func__', obj))
    try: fn = ast.parse(textwrap.dedent(inspect.getsource(f))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError): return False
    stack, vals = list(getattr(fn, 'body', [])), []
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)): continue
        if isinstance(n, ast.Return): vals.append(n.value)
        stack.extend(ast.iter_child_nodes(n))
    return bool(vals) and all(isinstance(v, ast.Name) and v.id == 'self' for v in vals)


# ------------------------------------------------------------------------------------------------ docstring -> numpydoc
SECTIONS = ('Parameters', 'Returns', 'Yields', 'Raises', 'Warns', 'Attributes', 'See Also', 'Notes', 'References',
            'Examples', 'Methods')
_re_section = re.compile(r'^(' + '|'.join(SECTIONS) + r')\s*\n\s*-{3,}\s*$', re.M)
_re_fence = re.compile(r'^```[\w-]*\s*\n(.*?)^```\s*$', re.M | re.S)


def prose_to_rst(text: str, names: dict) -> str:
    "Docstring prose -> reST: `code` (a public name links), $math$, [text](url), everything else literal."
    def code(m):
        c = m.group(1)
        bare = c[:-2] if c.endswith('()') else c
        if bare in names: return f':py:obj:`{c} <{names[bare]}>`'
        return f'``{c}``' if not c.startswith(' ') and not c.endswith(' ') else f':code:`{c}`'

    out = []
    parts = re.split(r'(`[^`\n]+`|\$\$[^$]+\$\$|(?<![\\$\w])\$[^$\n]+?\$(?![\w$])'
                     r'|\[[^\]\n]+\]\(https?://[^)\s]+\))', text)
    for i, p in enumerate(parts):
        if i % 2:
            if p.startswith('`'): r = code(re.match(r'`(.*)`', p, re.S))
            elif p.startswith('$$'): r = f':math:`{p[2:-2].strip()}`'
            elif p.startswith('$'): r = f':math:`{p[1:-1]}`'
            else:
                m = re.match(r'\[([^\]]+)\]\(([^)]+)\)', p)
                r = f'`{m.group(1)} <{m.group(2)}>`__'
            # inline markup must stand apart from words: an escaped space ("\ ") renders as nothing
            if out and out[-1] and not out[-1][-1].isspace() and out[-1][-1] not in '([{<\'"-/': r = '\\ ' + r
            nxt = parts[i + 1] if i + 1 < len(parts) else ''
            if nxt and not nxt[0].isspace() and nxt[0] not in ')]}>.,;:!?\'"-/': r += '\\ '
            out.append(r)
        else:
            out.append(re.sub(r'([\\*|_`])', r'\\\1', p))
    s = ''.join(out)
    return s


def _examples_rst(text: str, names: dict) -> list:
    "The docstring's examples part (fenced doctests and prose) -> reST lines."
    lines, pos = [], 0
    for m in _re_fence.finditer(text):
        pre = text[pos:m.start()].strip()
        if pre: lines += [prose_to_rst(pre, names), '']
        code = m.group(1).rstrip()
        if code.strip():
            lines += ['.. code-block:: pycon', ''] + ['   ' + l if l.strip() else '' for l in code.split('\n')] + ['']
        pos = m.end()
    post = text[pos:].strip()
    if post: lines += [prose_to_rst(post, names), '']
    return lines


def _default(p: inspect.Parameter) -> str:
    if p.default is inspect.Parameter.empty: return ''
    r = repr(p.default)
    return r if len(r) < 60 else '...'


def _type_of(p: inspect.Parameter) -> str:
    a = p.annotation
    if a is inspect.Parameter.empty: return ''
    return a if isinstance(a, str) else getattr(a, '__name__', str(a))


def signature_params(obj, what: str) -> list:
    "Parameters as `inspect.signature` names them (no self/cls); [] when there is no signature."
    try: sig = inspect.signature(obj)
    except (TypeError, ValueError): return []
    ps = list(sig.parameters.values())
    if what in ('method',) and ps and ps[0].name in ('self', 'cls'): ps = ps[1:]
    return ps


def numpydoc_lines(what: str, name: str, obj, lines: list, names: dict) -> list:
    "Our docstring (markdown-flavoured, doctests in fences, optional numpydoc sections) -> numpydoc for napoleon."
    text = '\n'.join(lines)
    heads = list(_re_section.finditer(text))
    body = text[:heads[0].start()] if heads else text
    sections = {}
    for k, h in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        sections[h.group(1)] = text[h.end():end].strip('\n')
    # body: description, then the examples from the first fenced block on
    f = _re_fence.search(body)
    desc, examples = (body[:f.start()], body[f.start():]) if f else (body, '')
    out = [prose_to_rst(desc.strip(), names), '']
    # Parameters: the signature's, in order, described by docments
    doc = docments_of(obj) if what in ('class', 'exception', 'function', 'method') else {}
    params = signature_params(obj, what) if what in ('class', 'function', 'method') else []
    if params and 'Parameters' not in sections:
        out += ['Parameters', '----------']
        for p in params:
            if p.kind == p.VAR_POSITIONAL: pn = f'\\*{p.name}'
            elif p.kind == p.VAR_KEYWORD: pn = f'\\*\\*{p.name}'
            else: pn = p.name
            typ = ', '.join(x for x in (_type_of(p), (f'default={_default(p)}' if _default(p) else '')) if x)
            out.append(f'{pn} : {typ}' if typ else pn)
            d = doc.get(p.name)
            out += ['    ' + prose_to_rst(d, names) if d else '', '']
            if not d: out.pop()
        out.append('')
    elif 'Parameters' in sections: out += ['Parameters', '----------', sections.pop('Parameters'), '']
    if what in ('function', 'method') and 'Returns' not in sections:
        try: ann = inspect.signature(obj).return_annotation
        except (TypeError, ValueError): ann = inspect.Signature.empty
        rdoc = doc.get('return')
        if ann not in (inspect.Signature.empty, None, 'None') or rdoc:
            t = ann if isinstance(ann, str) else getattr(ann, '__name__', '')
            t = t if t and t != 'None' and ann is not inspect.Signature.empty else ''
            t = names.get(t, t)
            out += ['Returns', '-------', (t or 'result')]
            if rdoc: out.append('    ' + prose_to_rst(rdoc, names))
            out.append('')
        elif what == 'method' and returns_only_self(obj):
            out += ['Returns', '-------', 'self', '    the object itself, so that calls can be chained', '']
    for s in ('Returns', 'Yields', 'Raises', 'Warns'):
        if s in sections: out += [s, '-' * len(s), _section_rst(sections.pop(s), names), '']
    if 'Attributes' in sections: out += attributes_rst(sections.pop('Attributes'), names)
    if 'See Also' in sections: out += ['See Also', '--------', sections.pop('See Also'), '']
    for s in ('Notes', 'References'):
        if s in sections: out += [s, '-' * len(s), prose_to_rst(sections.pop(s), names), '']
    ex = examples.strip()
    if 'Examples' in sections: ex = (ex + '\n\n' + sections.pop('Examples')).strip()
    if ex: out += ['Examples', '--------', *_examples_rst(ex, names)]
    return '\n'.join(out).split('\n')


def _section_rst(text: str, names: dict) -> str:
    "A numpydoc `name : type` + indented description section: descriptions through `prose_to_rst`."
    res = []
    for line in text.split('\n'):
        if line.startswith((' ', '\t')) and line.strip(): res.append('    ' + prose_to_rst(line.strip(), names))
        elif ' : ' in line: res.append(line.split(' : ', 1)[0] + ' : ' + type_to_rst(line.split(' : ', 1)[1], names))
        else: res.append(line)
    return '\n'.join(res)


def attributes_rst(text: str, names: dict) -> list:
    """A numpydoc Attributes section -> `py:attribute` entries (in the index and objects.inv), the type beside the
    name; napoleon leaves reST it does not know alone."""
    items, cur = [], None
    for line in text.split('\n'):
        if line.strip() and not line.startswith((' ', '\t')):
            name, _, typ = line.partition(' : ')
            cur = [name.strip(), typ.strip(), []]
            items.append(cur)
        elif cur is not None and line.strip(): cur[2].append(line.strip())
    out = ['.. rubric:: Attributes', '']
    for name, typ, desc in items:
        t = re.sub(r'\b[A-Za-z_]\w*\b',
                   lambda m: names.get(m.group(0), m.group(0)) if '.' not in m.group(0) else m.group(0), typ)
        out += [f'.. py:attribute:: {name}', '   :no-contents-entry:'] + ([f'   :type: {t}'] if t else []) + ['']
        out += ['   ' + prose_to_rst(' '.join(desc), names), ''] if desc else []
    return out


def type_to_rst(t: str, names: dict) -> str:
    "A numpydoc type (`ndarray of shape (n_features_in_,)`, `Tree`): public names link, the rest shows as written."
    parts = re.split(r'(\b[A-Za-z_]\w*\b)', t)
    out = []
    for i, p in enumerate(parts):
        if i % 2 and p in names and '.' not in p: out.append(f':py:obj:`~{names[p]}`')
        else: out.append(re.sub(r'([\\*|_`])', r'\\\1', p))
    return ''.join(out)


# ------------------------------------------------------------------------------------------------ Sphinx extension
def _process_docstring(app, what, name, obj, options, lines):
    if not name.startswith('glassworks'): return
    names = public_names()
    new = numpydoc_lines(what, name, obj, list(lines), names)
    lines[:] = new


def _add_see_also(app, what, name, obj, options, lines):
    "After napoleon: a See also box (other reference entries and the theory page) before the Examples."
    if not name.startswith('glassworks') or what not in ('class', 'exception', 'function'): return
    short = name.rsplit('.', 1)[1]
    names = public_names()
    refs = [f':py:obj:`~{names[s]}`' for s in SEE_ALSO.get(short, []) if s in names]
    if short in THEORY: refs.append(f':doc:`/{THEORY[short]}` (the method page)')
    if not refs: return
    block = ['.. seealso::', '', *[f'   {r}' + (',' if i < len(refs) - 1 else '') for i, r in enumerate(refs)], '']
    at = next((i for i, l in enumerate(lines) if l.strip() == '.. rubric:: Examples'), len(lines))
    lines[at:at] = block


# ------------------------------------------------------------------------------------------------ "Used in"
def _snake(name: str) -> str: return re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', name).lower()


def _page_name(rel: str) -> str:
    "Output name of a source page under nbs/ (docs/build.py's rule): `tutorials/01_x.ipynb` -> `tutorials/x`."
    p = Path(rel)
    stem = re.sub(r'^\d+[a-zA-Z0-9]*_', '', p.stem.lower()) if p.suffix == '.ipynb' else p.stem
    return (p.parent / stem).as_posix()


def _sources_of(path: Path) -> tuple:
    "(title, [(section title or None, text a reader runs or names: code and `code` spans)]) of a notebook or .md page."
    if path.suffix == '.ipynb':
        import json
        cells = json.loads(path.read_text(encoding='utf-8')).get('cells', [])
        src = lambda c: ''.join(c.get('source') or '')
        title = next((m.group(1).strip() for c in cells if c.get('cell_type') == 'markdown'
                      for m in [re.search(r'^#\s+(.+)$', src(c), re.M)] if m), path.stem)
        text = '\n'.join(src(c) if c.get('cell_type') == 'code' else ' '.join(re.findall(r'`([^`\n]+)`', src(c)))
                         for c in cells)
        return title, [(None, text)]
    md = path.read_text(encoding='utf-8')
    m = re.match(r'^---\s*\n(.*?)\n---\s*\n', md, re.S)
    title = (re.search(r'^title:\s*(.+)$', m.group(1), re.M) or [None, path.stem])[1].strip(' "\'') if m else path.stem
    md = md[m.end():] if m else md
    secs, cur, buf = [], None, []
    for line in md.split('\n') + ['## ']:
        h = re.match(r'^#{2,3}\s+(.*)$', line)
        if h:
            body = '\n'.join(buf)
            code = re.findall(r'^```.*?\n(.*?)^```', body, re.M | re.S) + re.findall(r'`([^`\n]+)`', body)
            if buf: secs.append((cur, '\n'.join(code)))
            cur, buf = h.group(1).strip(), []
        else: buf.append(line)
    return title, secs


def _usage_sources() -> list:
    "The pages `usage` scans, relative to nbs/: the tutorials, then the sidebar's User guide section."
    import yaml
    nbs = ROOT / 'nbs'
    try: side = yaml.safe_load((nbs / 'sidebar.yml').read_text(encoding='utf-8'))['website']['sidebar']['contents']
    except Exception: side = []
    guide = [r for s in side if isinstance(s, dict) and s.get('section') == 'User guide' for r in s.get('contents', [])
             if isinstance(r, str)]
    return [*(p.relative_to(nbs).as_posix() for p in sorted((nbs / 'tutorials').glob('*.ipynb'))),
            *(r for r in guide if (nbs / r).exists())]


@functools.lru_cache(maxsize=None)
def usage() -> dict:
    """{class name: [(link from a reference page, label)]}: the tutorials (`nbs/tutorials/`) and the user-guide pages
    and sections (nbs/sidebar.yml's "User guide") whose code or `code` spans use the class: its name, or a method
    named after it (`rashomon_set(` for `RashomonSet`). Found by scanning the sources, in sidebar order."""
    from docutils.nodes import make_id
    nbs, rels = ROOT / 'nbs', _usage_sources()
    classes = [n for n, (_, full) in PAGE_OF.items() if inspect.isclass(_import(full))
               and not issubclass(_import(full), BaseException)]
    res = {c: [] for c in classes}
    for rel in rels:
        title, secs = _sources_of(nbs / rel)
        kind = 'Tutorial' if rel.startswith('tutorials/') else 'Guide'
        for sec, text in secs:
            for c in classes:
                if re.search(rf'\b{c}\b|\.{_snake(c)}\(', text):
                    name = re.sub(r'`', '', sec) if sec else None
                    href = f'../{_page_name(rel)}.html' + (f'#{make_id(name)}' if name else '')
                    label = f'{kind}: {title}' + (f' \N{RIGHTWARDS ARROW} {name}' if name else '')
                    if (href, label) not in res[c]: res[c].append((href, label))
    return res


def _add_used_in(app, what, name, obj, options, lines):
    "After napoleon: a class's *Used in* box (tutorials and guide sections that use it), before the Examples."
    if what != 'class' or not name.startswith('glassworks'): return
    for rel in ['sidebar.yml', *_usage_sources()]:  # an incremental build re-reads the page when one changes
        app.env.note_dependency(str(ROOT / 'nbs' / rel))
    uses = usage().get(name.rsplit('.', 1)[1])
    if not uses: return
    block = ['.. admonition:: Used in', '   :class: gw-used-in', '',
             *[f'   * `{label.replace("`", "")} <{href}>`__' for href, label in uses], '']
    at = next((i for i, l in enumerate(lines) if l.strip() == '.. rubric:: Examples'), len(lines))
    lines[at:at] = block


# ------------------------------------------------------------------------------------------------ search ranking
USER_BOOST = 20  # added to a search result's score on a reader's page; a title match scores 15, a word in the text 5


def user_pages() -> list:
    """Output names of the pages a reader starts from: the landing page, the sidebar's "User guide" and "Tutorials",
    the reference, and the estimators' method pages (the Rashomon set's included). The rest (foundations, engines,
    experiments, checks) is the internals."""
    import yaml
    try: side = yaml.safe_load((ROOT / 'nbs' / 'sidebar.yml').read_text(encoding='utf-8'))['website']['sidebar']
    except Exception: side = {'contents': []}
    res = ['index', 'reference/']
    for s in side.get('contents', []):
        if isinstance(s, dict) and s.get('section') in ('User guide', 'Tutorials'):
            kids = s.get('contents')
            for r in kids if isinstance(kids, list) else [kids]:
                if isinstance(r, str): res.append(_page_name(r.rstrip('*').rstrip('/')) + ('/' if '*' in r else ''))
    readers = {slug for title, slugs in GROUPS if title in ('Estimators', 'Model sets') for slug in slugs}
    res += [guide for slug, _, _, guide, _ in PAGES if guide and slug in readers]
    return list(dict.fromkeys(res))


def _search_scorer(app):
    "Sphinx's search scorer (`html_search_scorer`): its defaults, plus `USER_BOOST` for results on `user_pages()`."
    pages = user_pages()
    js = ('var Scorer = {\n'
          f'  gwUser: {json_dumps(pages)},\n'
          '  score: function (result) {\n'
          '    const doc = result[0];\n'
          '    const user = Scorer.gwUser.some(p => p.endsWith("/") ? doc.startsWith(p) : doc === p);\n'
          f'    return result[4] + (user ? {USER_BOOST} : 0);\n'
          '  },\n'
          '  objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,\n'
          '  title: 15, partialTitle: 7, term: 5, partialTerm: 2,\n};\n')
    f = Path(app.doctreedir) / 'gw-search-scorer.js'
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(js, encoding='utf-8')
    app.config.html_search_scorer = str(f)


def json_dumps(x) -> str:
    import json
    return json.dumps(x)


def _config(app, config):
    for k, v in dict(napoleon_google_docstring=False, napoleon_numpy_docstring=True, napoleon_use_param=True,
                     napoleon_use_rtype=False, napoleon_use_ivar=False, napoleon_preprocess_types=False,
                     napoleon_use_admonition_for_examples=False, autodoc_typehints='none',
                     autodoc_member_order='bysource', autodoc_class_signature='mixed', autoclass_content='class',
                     autosummary_generate=False, add_module_names=True, toc_object_entries_show_parents='hide',
                     python_use_unqualified_type_names=True).items():
        config[k] = v


def setup(app):
    if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))  # document this checkout's package
    app.setup_extension('sphinx.ext.autodoc')
    app.setup_extension('sphinx.ext.napoleon')
    app.setup_extension('sphinx.ext.autosummary')
    app.connect('config-inited', _config)
    app.add_css_file('gw-reference.css')  # docs/_static (html_static_path)
    app.connect('autodoc-process-docstring', _process_docstring, priority=400)  # napoleon runs at 500
    app.connect('autodoc-process-docstring', _add_see_also, priority=600)
    app.connect('autodoc-process-docstring', _add_used_in, priority=610)
    app.connect('builder-inited', _search_scorer)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
