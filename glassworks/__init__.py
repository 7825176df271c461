__version__ = "0.1.0"

# The front door: `from glassworks import OSDTClassifier, Binarizer, load, ...`. Names resolve on first use
# (PEP 562), so `import glassworks` does not import numba or compile anything; each lives in its module.
# (This file is not exported from a notebook: nbdev only keeps `__version__` in it up to date.)
_EXPORTS = {
    'OSDTClassifier': 'osdt', 'OSRTRegressor': 'osrt', 'HierScaleRegressor': 'hierscale',
    'RuleBoostingRegressor': 'ogb', 'RuleBoostingClassifier': 'ogb', 'RuleExtractor': 'extract',
    'Binarizer': 'binarize',
    'Tree': 'models', 'Leaf': 'models', 'Split': 'models', 'Rule': 'models', 'Condition': 'models',
    'RuleList': 'models', 'RuleEnsemble': 'models', 'model_from_dict': 'models', 'model_from_json': 'models',
    'load': 'datasets', 'list_datasets': 'datasets', 'Dataset': 'datasets', 'RashomonSet': 'rashomon',
    'compile_all': 'registry', 'load_model': 'base',
    'InputError': 'validation', 'ParameterError': 'validation',
}
__all__ = ['__version__', *_EXPORTS]


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None: raise AttributeError(f"module 'glassworks' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f'{__name__}.{mod}'), name)
    globals()[name] = value          # later lookups skip this function
    return value


def __dir__(): return sorted(set(globals()) | set(_EXPORTS))
