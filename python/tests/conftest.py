"""Shared fixtures of the Python package's tests (run by `.ci/run`: `pytest python/tests`).

The tests compare the package with the `cescope` binary (the same text for the same page):
the binary is `$CESCOPE_BIN`, else `target/release/cescope`, else `target/debug/cescope`.
Without one the comparisons are skipped — except in CI (`CI` set), where a missing
prerequisite fails the test.
"""

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

# No example database: the tests write nothing into the checkout (.hypothesis/).
settings.register_profile("cescope", database=None)
settings.load_profile("cescope")

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample-pages"


def missing(why: str) -> None:
    """A prerequisite is missing: fail in CI, skip elsewhere (also at module level)."""
    if os.environ.get("CI"):
        pytest.fail(f"{why} (in CI a missing prerequisite fails the test)")
    pytest.skip(why, allow_module_level=True)


@pytest.fixture(scope="session")
def samples():
    """The sample pages' paths, sorted by name (every one authored for the project)."""
    pages = sorted(SAMPLES.glob("*.html"))
    assert len(pages) >= 10, pages
    return pages


@pytest.fixture(scope="session")
def cescope_bin():
    """The cescope binary to compare with."""
    env = os.environ.get("CESCOPE_BIN")
    candidates = [Path(env)] if env else [ROOT / "target/release/cescope", ROOT / "target/debug/cescope"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    missing(f"no cescope binary (looked at {', '.join(map(str, candidates))}; set CESCOPE_BIN)")


def run_bin(binary, *args, stdin=None) -> str:
    """Runs the binary, returns its standard output (fails the test on a non-zero exit)."""
    out = subprocess.run([str(binary), *map(str, args)], input=stdin, capture_output=True)
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    return out.stdout.decode("utf-8")
