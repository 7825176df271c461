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
