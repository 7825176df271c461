"""Every Python block of README.md runs as written, in order, in one fresh namespace (a user pastes them)."""
import re, contextlib, io
from pathlib import Path

README = Path(__file__).resolve().parent.parent / 'README.md'


def _python_blocks(text):
    return re.findall(r'^```python\n(.*?)^```', text, flags=re.S | re.M)


def test_readme_python_blocks_run_as_written():
    blocks = _python_blocks(README.read_text())
    assert blocks, "README.md has no python block"
    ns = {}
    for code in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, str(README), 'exec'), ns)


def test_top_level_names():
    "The front door: the estimators, Binarizer, the models and load import from `glassworks`, lazily."
    import subprocess, sys
    code = ("import sys, glassworks; assert 'numba' not in sys.modules, 'import glassworks must stay light'\n"
            "from glassworks import (OSDTClassifier, OSRTRegressor, HierScaleRegressor, RuleBoostingRegressor,\n"
            "    RuleBoostingClassifier, RuleExtractor, Binarizer, Tree, Leaf, Split, Rule, RuleList, RuleEnsemble,\n"
            "    model_from_json, load, compile_all, InputError)\n"
            "from glassworks.osdt import OSDTClassifier as O; assert O is OSDTClassifier\n"
            "assert set(glassworks.__all__) <= set(dir(glassworks))\n"
            "try: glassworks.nothing\nexcept AttributeError: pass\nelse: raise SystemExit('no AttributeError')\n")
    subprocess.run([sys.executable, '-c', code], check=True)


def test_every_reference_name_imports_from_the_package():
    "The API reference says everything it lists imports from `glassworks`; RashomonSet and Dataset did not."
    import importlib.util, sys, glassworks
    spec = importlib.util.spec_from_file_location('gw_reference', README.parent / 'docs' / 'gw_reference.py')
    ref = importlib.util.module_from_spec(spec)
    sys.modules['gw_reference'] = ref
    spec.loader.exec_module(ref)
    for *_, objs in ref.PAGES:
        for path in objs:
            mod, name = path.rsplit('.', 1)
            assert getattr(glassworks, name) is getattr(importlib.import_module(mod), name), path


def test_readme_links_work_on_the_repository_page():
    "Relative links must name files of the repository (the site's `osdt.html` pages do not exist there)."
    text = README.read_text()
    links = re.findall(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', text)
    local = [u for u in links if not re.match(r'[a-z]+:', u)]
    assert local, "no relative links found"
    for u in local:
        assert not u.endswith('.html'), u
        assert (README.parent / u).exists(), u
