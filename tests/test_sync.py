"""The exported package and README are in sync with the notebooks (notebooks are the source of truth)."""
import shutil, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_package_matches_notebooks(tmp_path):
    "Running nbdev_export on a copy of the notebooks reproduces the committed glassworks/ byte for byte."
    for name in ('settings.ini', 'setup.py', 'pyproject.toml'):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / 'nbs', tmp_path / 'nbs')
    shutil.copytree(ROOT / 'glassworks', tmp_path / 'glassworks', ignore=shutil.ignore_patterns('__pycache__'))
    exe = Path(sys.executable).with_name('nbdev_export')
    subprocess.run([str(exe)], cwd=tmp_path, check=True, capture_output=True)
    stale = [p.name for p in sorted((ROOT / 'glassworks').glob('*.py'))
             if p.read_text() != (tmp_path / 'glassworks' / p.name).read_text()]
    new = [p.name for p in (tmp_path / 'glassworks').glob('*.py') if not (ROOT / 'glassworks' / p.name).exists()]
    assert not stale and not new, f"run nbdev_export: out of sync {stale}, missing {new}"


def test_readme_matches_index():
    r = subprocess.run([sys.executable, str(ROOT / 'docs' / 'readme.py'), '--check'], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_notebooks_are_clean(tmp_path):
    "nbdev_clean leaves every committed notebook unchanged (no execution counts, stray metadata)."
    shutil.copy(ROOT / 'settings.ini', tmp_path / 'settings.ini')
    shutil.copytree(ROOT / 'nbs', tmp_path / 'nbs')
    exe = Path(sys.executable).with_name('nbdev_clean')
    subprocess.run([str(exe)], cwd=tmp_path, check=True, capture_output=True)
    nbs = [p.relative_to(ROOT / 'nbs') for p in sorted((ROOT / 'nbs').rglob('*.ipynb'))
           if '.ipynb_checkpoints' not in p.parts]
    assert any(p.parent.name == 'tutorials' for p in nbs)                     # sub-folders are checked too
    dirty = [str(p) for p in nbs if (ROOT / 'nbs' / p).read_text() != (tmp_path / 'nbs' / p).read_text()]
    assert not dirty, f"run nbdev_clean: {dirty}"
