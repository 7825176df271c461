"""Every public function and class of the foundation modules carries a real example in its docstring, and it runs.

(`./run.sh test` runs all doctests with `pytest --doctest-modules glassworks`; this test makes a missing example
fail.)"""
import doctest
import importlib
import inspect

import pytest

MODULES = ['glassworks.bitsets', 'glassworks.models', 'glassworks.treedp', 'glassworks.kmeans1d', 'glassworks.oracles',
           'glassworks.validation', 'glassworks.osrt', 'glassworks.hierscale', 'glassworks.datasets',
           'glassworks.binarize', 'glassworks.boosting', 'glassworks.ogb', 'glassworks.extract', 'glassworks.osdt',
           'glassworks.treebnb', 'glassworks.base', 'glassworks.pruning', 'glassworks.hierpath', 'glassworks.numdp']


def _public(mod):
    for name in getattr(mod, '__all__', []):
        obj = getattr(mod, name)
        if inspect.isclass(obj) or callable(obj): yield name, obj


@pytest.mark.parametrize('modname', MODULES)
def test_every_public_callable_has_an_example(modname):
    mod = importlib.import_module(modname)
    finder = doctest.DocTestFinder()
    missing = []
    for name, obj in _public(mod):
        tests = finder.find(obj, name, module=mod, globs=vars(mod))
        if not any(t.examples for t in tests): missing.append(name)
    assert not missing, f"{modname}: no `>>>` example in {missing}"


@pytest.mark.parametrize('modname', MODULES)
def test_examples_pass(modname):
    mod = importlib.import_module(modname)
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    res = doctest.testmod(mod, optionflags=flags, verbose=False)
    assert res.failed == 0 and res.attempted > 0, res
