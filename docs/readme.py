"""Write README.md from nbs/index.ipynb without Quarto.

`nbdev_readme` renders the landing notebook with Quarto, which cannot be installed everywhere. This script does the
same job for our landing page: markdown cells verbatim, visible code cells as fenced Python, text outputs as fenced
blocks; cells marked `#| hide` (or `#| echo: false` for the source) are left out. Run: `python docs/readme.py`
(`--check` exits 1 when README.md is out of date).
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_DIRECTIVE = re.compile(r'^\s*#\s*\|\s*(.*)$')


def _directives(src):
    "Split nbdev `#|` directives from the rest of a code cell."
    dirs, body = [], []
    for line in src.splitlines():
        m = _DIRECTIVE.match(line)
        (dirs.append(m.group(1).strip()) if m and not body else body.append(line))
    return dirs, '\n'.join(body).strip('\n')


def _text_output(out):
    if out.get('output_type') == 'stream': return ''.join(out.get('text', ''))
    data = out.get('data', {})
    if 'text/markdown' in data: return None  # markdown outputs are inserted as markdown
    if 'text/plain' in data: return ''.join(data['text/plain'])
    return ''


def _pages() -> dict:
    "Site page name (the notebook's or markdown file's path under nbs/ without its number prefix) -> its file."
    out = {}
    for f in sorted((ROOT / 'nbs').rglob('*')):
        if f.suffix not in ('.ipynb', '.md') or '.ipynb_checkpoints' in f.parts: continue
        rel = f.relative_to(ROOT / 'nbs').with_suffix('')
        out[str(rel.parent / re.sub(r'^\d+[a-z]?_', '', rel.name)).lstrip('./')] = f.relative_to(ROOT).as_posix()
    return out


def repository_links(md:str) -> str:
    """The site's relative links (`osdt.html`, `tutorials/raw_table.html#a`) as paths in the repository
    (`nbs/11_osdt.ipynb`), which work on the repository page and in a clone; a link to no page is an error."""
    pages = _pages()
    def one(m):
        name, anchor = m.group(1), m.group(2) or ''
        if name not in pages: raise KeyError(f"README links to {name}.html, which no notebook or page of nbs/ makes")
        return f"]({pages[name]}{anchor})"
    return re.sub(r'\]\(((?:[\w-]+/)*[\w-]+)\.html(#[\w-]+)?\)', one, md)


def render(nb_path=ROOT / 'nbs' / 'index.ipynb'):
    "Markdown for the README from the landing notebook."
    nb, parts = json.loads(Path(nb_path).read_text()), []
    for cell in nb['cells']:
        src = ''.join(cell['source'])
        if cell['cell_type'] == 'markdown':
            parts.append(src.strip('\n'))
            continue
        if cell['cell_type'] != 'code': continue
        dirs, body = _directives(src)
        if any(d.startswith(('hide', 'exporti', 'default_exp')) for d in dirs) or 'include: false' in dirs: continue
        if body and 'echo: false' not in dirs: parts.append(f"```python\n{body}\n```")
        for out in cell.get('outputs', []):
            txt = _text_output(out)
            if txt is None: parts.append(''.join(out['data']['text/markdown']).strip('\n'))
            elif txt.strip(): parts.append(f"```\n{txt.rstrip()}\n```")
    header = '<!-- generated from nbs/index.ipynb by docs/readme.py (or nbdev_readme): edit the notebook -->'
    return header + '\n\n' + repository_links('\n\n'.join(parts)) + '\n'


if __name__ == '__main__':
    text, out = render(), ROOT / 'README.md'
    if '--check' in sys.argv:
        ok = out.exists() and out.read_text() == text
        print('README.md is up to date' if ok else 'README.md is out of date: run python docs/readme.py')
        sys.exit(0 if ok else 1)
    out.write_text(text)
    print(f'wrote {out}')
