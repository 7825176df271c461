"""Sphinx configuration for the glassworks docs site; `docs/build.py` stages the notebooks and runs sphinx-build
with `-c docs`. Project facts come from settings.ini (nbdev's); nothing here is fetched from the network."""
import configparser, os
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get('GLASSWORKS_DOCS_ROOT') or HERE.parent)
_cp = configparser.ConfigParser(interpolation=None)
_cp.read(ROOT / 'settings.ini', encoding='utf-8')
S = dict(_cp['DEFAULT'])

project = S.get('title', 'glassworks')
author = S.get('author', '')
copyright = S.get('copyright', '')
release = version = S.get('version', '')

extensions = ['myst_nb', 'sphinx_copybutton', 'sphinx_design', 'sphinx.ext.mathjax']
import sys  # noqa: E402 (conf.py reads settings.ini first)
sys.path.insert(0, str(HERE))  # docs/gw_reference.py: the API reference (autodoc + napoleon over
extensions.append('gw_reference')             # the package, Parameters from nbdev's docments comments)
default_role = 'code'                          # `x` in reST docstrings is code, as in markdown
root_doc = 'index'
exclude_patterns = ['**.ipynb_checkpoints']
templates_path = [str(HERE / '_templates')]
html_static_path = [str(HERE / '_static')]
html_css_files = ['glassworks.css']
html_js_files = ['gw-search.js']     # search snippets: formulas as plain text, not TeX

# myst-nb: render the saved outputs (+ the executed show_doc entries, already markdown cells); never execute
nb_execution_mode = 'off'
nb_merge_streams = True           # consecutive prints of one cell: one output block
nb_ipywidgets_js = {}             # no widget manager from a CDN
nb_output_stderr = 'show'
nb_render_markdown_format = 'myst'
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence', 'attrs_block', 'html_image']
myst_all_links_external = True    # docs/build.py already made every link a relative `page.html#anchor`
myst_dmath_double_inline = True
suppress_warnings = ['myst.header', 'myst.xref_missing', 'mystnb.unknown_mime_type', 'misc.highlighting_failure',
                     'toc.not_included']

# math offline: MathJax 3 vendored in docs/_static/mathjax (CommonHTML output, woff-v2 fonts beside it)
mathjax_path = 'mathjax/tex-chtml-full.js'
mathjax3_config = {'options': {'enableMenu': False}}  # the menu's speech/explorer parts would load more code

# copy buttons on code (not on outputs); doctest prompts are not copied
copybutton_selector = ':not(.output) > div.highlight pre'
copybutton_prompt_text = r'>>> |\.\.\. '
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True   # a doctest copies its code, not its expected output

smartquotes = False             # docstrings and outputs show ' and -- as written

html_theme = 'pydata_sphinx_theme'
html_title = project
html_favicon = str(HERE / '_static' / 'favicon.svg')
html_context = {'default_mode': 'auto'}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_sidebars = {'**': ['gw-sidebar-nav']}
html_theme_options = {
    'navbar_start': ['navbar-logo', 'gw-version'],
    'navbar_center': [],
    'navbar_end': ['theme-switcher', 'navbar-icon-links'],
    'icon_links': [{'name': 'Source code on GitHub', 'url': S.get('git_url', ''), 'icon': 'fa-brands fa-github'}],
    'navbar_persistent': ['search-button-field'],
    'secondary_sidebar_items': ['page-toc'],
    'show_toc_level': 2,
    'show_prev_next': True,
    'navigation_with_keys': False,
    'footer_start': ['copyright'],
    'footer_center': [],
    'footer_end': [],
    'pygments_light_style': 'default',
    'pygments_dark_style': 'monokai',
}
