#!/usr/bin/env bash
# Makes or updates VENV (default target/py-venv) with the test requirements
# (python/requirements-test.txt) and the cescope package built from this checkout with the
# README's command, `pip install ./python` (maturin; a release build in the workspace's
# target/, so the crates a `cargo build --release` built are reused). Used by .ci/run and by
# tests/spark.rs; run it yourself before `pytest python/tests`.
#   python/venv.sh [VENV] [--bench | --requirements]
#     --bench: also trafilatura and resiliparse (python/requirements-bench.txt)
#     --requirements: the venv and the test requirements only, not the package (.ci/run
#       installs them from PyPI in the background while clippy runs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$root/target/py-venv}
mode=${2:-}
case "$mode" in
  "" | --bench | --requirements) ;;
  *) echo "python/venv.sh: unknown option $mode (--bench or --requirements)" >&2; exit 2 ;;
esac
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet -r "$root/python/requirements-test.txt"
if [ "$mode" = "--bench" ]; then
  "${pip[@]}" install --quiet -r "$root/python/requirements-bench.txt"
fi
if [ "$mode" = "--requirements" ]; then
  exit 0
fi
cd "$root"
# --locked: the build uses the committed Cargo.lock as it is (an out-of-date lock fails).
MATURIN_PEP517_ARGS="--locked ${MATURIN_PEP517_ARGS:-}" "${pip[@]}" install --quiet ./python
