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
    return header + '\n\n' + '\n\n'.join(parts) + '\n'


if __name__ == '__main__':
    text, out = render(), ROOT / 'README.md'
    if '--check' in sys.argv:
        ok = out.exists() and out.read_text() == text
        print('README.md is up to date' if ok else 'README.md is out of date: run python docs/readme.py')
        sys.exit(0 if ok else 1)
    out.write_text(text)
    print(f'wrote {out}')
