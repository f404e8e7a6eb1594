#!/usr/bin/env bash
# Makes or updates VENV (default target/py-venv) with the test requirements
# (python/requirements-test.txt) and the cescope package built from this checkout with the
# README's command, `pip install ./python` (maturin; a release build in the workspace's
# target/, so the crates a `cargo build --release` built are reused). Used by .ci/run and by
# tests/spark.rs; run it yourself before `pytest python/tests`.
#   python/venv.sh [VENV] [--bench]   (--bench: also trafilatura and resiliparse)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$root/target/py-venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet -r "$root/python/requirements-test.txt"
if [ "${2:-}" = "--bench" ]; then
  "${pip[@]}" install --quiet -r "$root/python/requirements-bench.txt"
fi
cd "$root"
# --locked: the build uses the committed Cargo.lock as it is (an out-of-date lock fails).
MATURIN_PEP517_ARGS="--locked ${MATURIN_PEP517_ARGS:-}" "${pip[@]}" install --quiet ./python
