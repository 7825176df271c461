#!/usr/bin/env bash
# glassworks: one entry point that sets everything up, then runs what you ask.
#   ./run.sh tour [--out DIR]   set up, then fit every method on embedded data, print models, write figures
#   ./run.sh test               set up, then ruff check, nbdev_test over every notebook, doctests, pytest tests/
#   ./run.sh docs [--out DIR]   set up, then build the static docs site (Sphinx + myst-nb, no Quarto) into docs/_site
#   ./run.sh slow               set up, then run the long (#| slow) notebook experiments too
#   ./run.sh setup              only set up: .venv with glassworks (editable) + dev extras; system packages
# Needs: Debian/Ubuntu-like system with Python >= 3.10. System packages (graphviz for drawings, chromium and
# chromium-driver for the docs browser test, python3-venv) are installed with apt-get when run as root or with sudo.
set -euo pipefail
cd "$(dirname "$0")"
VENV=${GLASSWORKS_VENV:-.venv}
PY=${PYTHON:-python3}

say() { printf '\033[1m[glassworks]\033[0m %s\n' "$*" >&2; }

apt_install() {  # apt_install pkg...: install missing Debian packages if we can
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
      say "please install with your package manager: ${missing[*]} (not root, no sudo)"; return 0; fi
  fi
  command -v apt-get >/dev/null 2>&1 || { say "no apt-get: please install ${missing[*]}"; return 0; }
  say "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/glassworks-apt.log 2>&1 || {
    $SUDO apt-get update -q >>/tmp/glassworks-apt.log 2>&1
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/glassworks-apt.log 2>&1 ||
      say "apt-get failed (see /tmp/glassworks-apt.log)"; }
}

setup() {
  "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { say "Python >= 3.10 required"; exit 1; }
  apt_install graphviz ${GLASSWORKS_SYSTEM_EXTRAS:-}
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    "$PY" -m venv "$VENV" 2>/dev/null || { apt_install python3-venv; rm -rf "$VENV"; "$PY" -m venv "$VENV"; }
  fi
  local stamp="$VENV/.glassworks-setup" want
  want=$(cat settings.ini setup.py pyproject.toml | sha256sum | cut -c1-16)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing glassworks (editable) with dev extras"
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$VENV/bin/python" -m pip install -q -e ".[dev]"
    echo "$want" > "$stamp"
  fi
  export PATH="$PWD/$VENV/bin:$PATH"
  compile_kernels
}

compile_kernels() {  # fill numba's cache once per version of the package's source (GLASSWORKS_SKIP_COMPILE=1: don't)
  [ -n "${GLASSWORKS_SKIP_COMPILE:-}" ] && return 0
  local stamp="$VENV/.glassworks-compiled" want
  want=$("$VENV/bin/python" -c 'from glassworks.compiling import source_digest; print(source_digest())')
  [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
  say "compiling the numba kernels of every method into the cache (once per version; 1-3 minutes on 2 cores)"
  "$VENV/bin/glassworks" compile --jobs "${GLASSWORKS_COMPILE_JOBS:-2}"
  echo "$want" > "$stamp"
}

cmd=${1:-help}; [ $# -gt 0 ] && shift
case "$cmd" in
  setup) setup; say "ready: source $VENV/bin/activate" ;;
  tour)  setup; exec glassworks tour "$@" ;;
  test)
    GLASSWORKS_SYSTEM_EXTRAS="chromium chromium-driver" setup
    say "ruff check: the notebooks, tests, benchmarks and docs scripts (configuration in pyproject.toml)"
    ruff check
    say "nbdev_test over every notebook"
    nbdev_test --n_workers "${GLASSWORKS_WORKERS:-2}" --timing
    say "doctests: the examples in the docstrings of glassworks/"
    python -m pytest --doctest-modules glassworks -q
    say "pytest tests/"
    python -m pytest tests/ -q "$@" ;;
  slow)  setup; nbdev_test --n_workers 1 --flags slow --timing ;;
  docs)  setup; python docs/build.py "$@" ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; [ "$cmd" = help ] || exit 2 ;;
esac
