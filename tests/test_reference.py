"""The API reference is complete (issue 44): every parameter and every meaningful return value it lists is described.

Fast (no site build): walks what `docs/gw_reference.py` documents (`public_names()`: every object of the reference
pages, the public methods of each class included) and reads descriptions the way the reference renders them
(`docments_of`: nbdev's docments comments `def f(x:int, # what x is`, dataclass field comments; a numpydoc
`Parameters` / `Returns` / `Yields` section of the docstring).

Rules, each with its reason:
* `self` / `cls` (a method's first parameter) need no description: the reader calls the method on the object.
* `*args` / `**kwargs` that the function only passes on to another call (`g(*args, **kwargs)` in its body) need none:
  their meaning is the callee's, which the docstring names. Any other `*args` / `**kwargs` does.
* A function or method "returns something" when its body has a `return <value>` other than `return None`, or a
  `yield`. One whose every `return` is `return self` (scikit-learn's `fit`, `set_params`) is exempt: the reference
  renders the Returns entry for it (`self`, for chaining). Everything else that returns something needs a return
  description: a docments comment after `-> T:` on a line of its own (`) -> T: # what it is`), or a numpydoc
  `Returns`/`Yields` section. A comment on a line that also holds a parameter is that parameter's description.
"""
import ast, inspect, re, sys, textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / 'docs'), str(ROOT)]  # gw_reference, and this checkout's package
import gw_reference as R  # noqa: E402


def _entries():
    "[(name shown in the reference, object, what)] for every class, its public methods and every function listed."
    res = []
    names = R.public_names()
    for short, full in names.items():
        if '.' in short: continue
        obj = R._import(full)
        if inspect.isclass(obj):
            if issubclass(obj, BaseException): continue  # exceptions: raised by glassworks, not built by readers
            res.append((short, obj, 'class'))
            for m in R.methods(obj):
                raw = inspect.getattr_static(obj, m)
                res.append((f'{short}.{m}', getattr(obj, m), 'function' if isinstance(raw, staticmethod) else 'method'))
        else: res.append((short, obj, 'function'))
    return res


ENTRIES = _entries()


def _func(obj, what):
    "The function whose source holds the signature (a class: its `__init__`), or None (a dataclass, no own init)."
    if what == 'class':
        if R.dataclasses.is_dataclass(obj): return None
        obj = next((k.__dict__['__init__'] for k in obj.__mro__ if '__init__' in k.__dict__), None)
    obj = getattr(obj, '__func__', obj)
    return inspect.unwrap(obj) if inspect.isfunction(obj) else None


def _tree(f):
    try: src = textwrap.dedent(inspect.getsource(f))
    except (OSError, TypeError): return None
    node = ast.parse(src).body[0]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _own_nodes(fn):
    "The nodes of `fn`'s body, not those of functions or classes defined inside it."
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)): continue
        stack.extend(ast.iter_child_nodes(n))


def passed_through(fn, name: str) -> bool:
    "Is `*name` / `**name` handed on whole to a call in the body (`g(*args)`, `g(**kwargs)`)?"
    for n in _own_nodes(fn):
        if isinstance(n, ast.Call):
            if any(isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == name for a in n.args):
                return True
            if any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == name for k in n.keywords):
                return True
    return False


def returns(fn) -> str:
    "'value' when `fn` returns or yields something, 'self' when it only ever returns `self`, '' when nothing."
    vals = [n.value for n in _own_nodes(fn) if isinstance(n, ast.Return) and n.value is not None
            and not (isinstance(n.value, ast.Constant) and n.value.value is None)]
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(fn)): return 'value'
    if not vals: return ''
    if all(isinstance(v, ast.Name) and v.id == 'self' for v in vals): return 'self'
    return 'value'


def _sections(obj) -> set:
    return {m.group(1) for m in R._re_section.finditer(inspect.getdoc(obj) or '')}


def _param_doc_section(obj) -> str:
    "The docstring's numpydoc Parameters section (the reference shows it instead of the docments), or ''."
    doc = inspect.getdoc(obj) or ''
    heads = list(R._re_section.finditer(doc))
    for k, h in enumerate(heads):
        if h.group(1) == 'Parameters':
            return doc[h.end():heads[k + 1].start() if k + 1 < len(heads) else len(doc)]
    return ''


def undescribed_parameters() -> list:
    "['Name(param)  [module]', ...] for every parameter the reference shows without a description."
    bad = []
    for name, obj, what in ENTRIES:
        params = R.signature_params(obj, 'method' if what == 'method' else what)
        if what == 'function' and params and params[0].name in ('self', 'cls'): params = params[1:]
        if not params: continue
        doc, section = R.docments_of(obj), _param_doc_section(obj)
        fn = _func(obj, what)
        tree = _tree(fn) if fn else None
        for p in params:
            if doc.get(p.name) or re.search(rf'^\*{{0,2}}{re.escape(p.name)}\b', section, re.M): continue
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and tree is not None and passed_through(tree, p.name):
                continue
            star = '*' if p.kind == p.VAR_POSITIONAL else '**' if p.kind == p.VAR_KEYWORD else ''
            bad.append(f'{name}({star}{p.name})  [{getattr(fn, "__module__", "?")}]')
    return bad


def undescribed_returns() -> list:
    "['Name  [module]', ...] for every function/method that returns a value the reference does not describe."
    bad = []
    for name, obj, what in ENTRIES:
        if what == 'class': continue
        fn = _func(obj, what)
        tree = _tree(fn) if fn else None
        if tree is None or returns(tree) != 'value': continue
        if R.docments_of(obj).get('return') or {'Returns', 'Yields'} & _sections(obj): continue
        bad.append(f'{name}  [{fn.__module__}]')
    return bad


def test_walk_covers_the_reference():
    "The walk sees the estimators, their fit and the model classes' methods (it would pass vacuously otherwise)."
    names = {n for n, _, _ in ENTRIES}
    assert {'OSDTClassifier', 'OSDTClassifier.fit', 'Tree.predict', 'RashomonSet', 'load'} <= names, sorted(names)
    assert len(ENTRIES) > 80, len(ENTRIES)


def test_every_parameter_is_described():
    bad = undescribed_parameters()
    total = sum(len(R.signature_params(o, 'method' if w == 'method' else w)) for _, o, w in ENTRIES)
    assert not bad, (f'{len(bad)} of ~{total} parameters on the reference pages have no description (add a docments '
                     'comment after the parameter in its notebook):\n  ' + '\n  '.join(bad))


def test_every_return_value_is_described():
    bad = undescribed_returns()
    assert not bad, (f'{len(bad)} public functions/methods return a value the reference does not describe (a '
                     '`) -> T: # what it is` comment on its own line, or a Returns section):\n  ' + '\n  '.join(bad))


def test_rules_of_the_walk():
    "The rules above on small functions: pass-through, returns, a one-line def's comment."
    def f(a, *args, **kwargs): return g(a, *args, **kwargs)  # noqa: F821
    def h(self, **kw): return self
    def k(x):
        def inner(): return 1
        x.append(inner)
    t = [_tree(x) for x in (f, h, k)]
    assert passed_through(t[0], 'args') and passed_through(t[0], 'kwargs') and not passed_through(t[1], 'kw')
    assert (returns(t[0]), returns(t[1]), returns(t[2])) == ('value', 'self', '')
    src = 'def f(a, # the a\n      b) -> int: # the b\n    return 1\n'
    assert R._comments_of_signature(src) == {'a': 'the a', 'b': 'the b'}
    src = 'def f(a, # the a\n     ) -> int: # the result\n    return 1\n'
    assert R._comments_of_signature(src) == {'a': 'the a', 'return': 'the result'}
    src = '@njit(cache=True)\ndef f(a, # the a\n      b): # the b\n    return 1\n'  # a decorator's parenthesis
    assert R._comments_of_signature(src) == {'a': 'the a', 'b': 'the b'}
    assert R._comments_of_signature('def count(self) -> int: # how many\n    return 1\n') == {'return': 'how many'}
    src = 'def f(w, mean, # per class\n      k): # how many\n    return 1\n'  # one comment, two parameters
    assert R._comments_of_signature(src) == {'w': 'per class', 'mean': 'per class', 'k': 'how many'}


@pytest.mark.parametrize('name', ['OSDTClassifier.fit'])
def test_fit_returns_self_is_rendered(name):
    "A method that only returns `self` gets a Returns entry in the reference (the test exempts it for that reason)."
    obj = dict((n, o) for n, o, _ in ENTRIES)[name]
    lines = R.numpydoc_lines('method', f'glassworks.x.{name}', obj, (inspect.getdoc(obj) or '').split('\n'), {})
    text = '\n'.join(lines)
    assert re.search(r'^Returns\n-------\nself\b', text, re.M), text
