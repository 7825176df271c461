"""The house rules of CONTRIBUTING.md that a test can check: no import circle among the package's modules (or among
the benchmark scripts), and no private name imported from another module of the package."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / 'glassworks'


def _imports(path: Path, package: str | None):
    "(module imported, names imported) for every import in the file, at any depth (function-level ones too)."
    tree = ast.parse(path.read_text(encoding='utf-8'))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ''
            if node.level and package: mod = f"{package}.{mod}" if mod else package
            yield mod, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names: yield a.name, []


def _graph(files: dict, prefix: str):
    "{module: {modules of `files` it imports}} (an import of `package.x` or `from package import x` both count)."
    g = {}
    for name, path in files.items():
        deps = set()
        for mod, names in _imports(path, prefix.rstrip('.') or None):
            if mod in files and mod != name: deps.add(mod)
            for n in names:
                sub = f"{mod}.{n}" if mod else n
                if sub in files and sub != name: deps.add(sub)
        g[name] = deps
    return g


def _circle(g: dict):
    "One import circle as a list of modules, or None."
    state, stack = {}, []
    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(g[u]):
            if state.get(v) == 1: return stack[stack.index(v):] + [v]
            if v not in state:
                c = visit(v)
                if c: return c
        state[u] = 2
        stack.pop()
        return None
    for u in sorted(g):
        if u not in state:
            c = visit(u)
            if c: return c
    return None


def _package_files():
    return {f"glassworks.{p.stem}": p for p in PACKAGE.glob('*.py') if p.stem not in ('__init__', '_modidx')}


def test_no_import_circle_in_the_package():
    assert _circle(_graph(_package_files(), 'glassworks.')) is None


def test_no_import_circle_among_the_benchmarks():
    files = {p.stem: p for p in (ROOT / 'benchmarks').glob('*.py')}
    assert _circle(_graph(files, '')) is None


def test_no_private_name_crosses_a_module():
    bad = []
    for name, path in _package_files().items():
        for mod, names in _imports(path, 'glassworks'):
            if mod.startswith('glassworks') and mod != name:
                bad += [f"{name} imports {mod}.{n}" for n in names if n.startswith('_') and n != '__version__']
    assert not bad, bad


def test_the_checks_can_fail():
    "The circle finder finds a circle, and the graph sees imports inside functions."
    assert _circle({'a': {'b'}, 'b': {'c'}, 'c': {'a'}}) == ['a', 'b', 'c', 'a']
    assert _circle({'a': {'b'}, 'b': set()}) is None
    g = _graph(_package_files(), 'glassworks.')
    assert 'glassworks.views' in g['glassworks.cli']          # imported inside a function only
