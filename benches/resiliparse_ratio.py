#!/usr/bin/env python3
"""`learned` against resiliparse, single-threaded, on the same pages (issue 33, item 5).

    python benches/resiliparse_ratio.py [--corpus DIR] [--rounds N] [--repeat N]
                                        [--algo NAME] [--binary BIN ...]

Per round, interleaved: for each binary (default target/release/cescope), `BIN bench DIR --algo
learned --repeat N --format json` (a one-thread pool; each page decoded from its bytes in memory
and extracted end to end, the fastest of N passes; see src/bench.rs) and its `learned` row's
MB/s; then resiliparse in this process on the pages of DIR (bench_pages.load_pages: the same
files, decompressed in memory before any timing) —
`extract_plain_text(HTMLTree.parse_from_bytes(page, detect_encoding(page)), main_content=True)`,
its own encoding detection included — timed as cescope bench times a row: the sum of the
per-page times of a pass, the fastest of N passes. Prints every round's MB/s and the ratio
cescope / resiliparse, then the medians over the rounds. MB = 10^6 raw page bytes.

Several --binary flags compare builds in the same interleaved run (old and new). resiliparse
comes from pip (python/requirements-bench.txt, resiliparse==2.0.1; see docs/speed.md): without
it the script says so and exits with status 2.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_pages import load_pages, resiliparse_main_content

ROOT = Path(__file__).resolve().parents[1]


def cescope_row(binary: Path, corpus: Path, algo: str, repeat: int):
    """The `algo` row of `binary bench` on `corpus`: (MB/s, pages, bytes)."""
    cmd = [str(binary), "bench", str(corpus), "--algo", algo, "--repeat", str(repeat), "--format", "json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    rows = [row for row in json.loads(r.stdout) if row["algo"] == algo]
    if not rows:
        raise SystemExit(f"{' '.join(cmd)} printed no {algo} row")
    return rows[0]["mb_per_s"], rows[0]["pages"], rows[0]["bytes"]


def resiliparse_pass(extract, pages) -> float:
    """Seconds of one pass: the sum of the per-page times."""
    total = 0.0
    for raw in pages:
        t0 = time.perf_counter()
        extract(raw)
        total += time.perf_counter() - t0
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus/scrapinghub-dev")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3, help="passes per round and contender; the fastest counts")
    ap.add_argument("--algo", default="learned")
    ap.add_argument("--binary", type=Path, action="append",
                    help="a cescope binary (repeat the flag to compare builds); default target/release/cescope")
    args = ap.parse_args()

    extract = resiliparse_main_content()
    if extract is None:
        print(f"resiliparse is not installed in this Python ({sys.executable}).\n"
              "Install it in a virtual environment, e.g.\n"
              "  python3 -m venv target/py-venv && target/py-venv/bin/pip install -r python/requirements-bench.txt\n"
              "(or python/venv.sh target/py-venv --bench), then run this script with target/py-venv/bin/python.",
              file=sys.stderr)
        sys.exit(2)
    binaries = args.binary or [ROOT / "target/release/cescope"]
    for b in binaries:
        if not b.is_file():
            raise SystemExit(f"{b}: no such binary (build it: cargo build --release)")
    if not args.corpus.is_dir():
        raise SystemExit(f"{args.corpus}: no such corpus directory (--corpus)")

    pages = [raw for _, raw in load_pages(args.corpus)]
    total = sum(map(len, pages))
    extract(pages[0])  # warm up (imports, lazy tables)

    names = [str(b) for b in binaries]
    mbs = {n: [] for n in names + ["resiliparse"]}
    for r in range(args.rounds):
        for b, n in zip(binaries, names):
            mb, n_pages, n_bytes = cescope_row(b, args.corpus, args.algo, args.repeat)
            if (n_pages, n_bytes) != (len(pages), total):
                raise SystemExit(f"{n} measured {n_pages} pages / {n_bytes} bytes, resiliparse would get "
                                 f"{len(pages)} / {total}: not the same pages")
            mbs[n].append(mb)
        secs = min(resiliparse_pass(extract, pages) for _ in range(max(args.repeat, 1)))
        mbs["resiliparse"].append(total / secs / 1e6)
        line = ", ".join(f"{n} {mbs[n][-1]:.1f}" for n in names)
        ratios = ", ".join(f"{mbs[n][-1] / mbs['resiliparse'][-1]:.3f}" for n in names)
        print(f"round {r + 1}/{args.rounds}: MB/s {line}, resiliparse {mbs['resiliparse'][-1]:.1f}; "
              f"{args.algo} / resiliparse {ratios}", flush=True)

    print(f"\n{len(pages)} pages, {total / 1e6:.1f} MB ({args.corpus.name}), {args.algo}, single thread, "
          f"fastest of {args.repeat} passes per round, {args.rounds} interleaved rounds, medians:")
    med = {n: statistics.median(v) for n, v in mbs.items()}
    print("| contender | MB/s per round | median MB/s | / resiliparse |")
    print("|---|---|---:|---:|")
    for n in names + ["resiliparse"]:
        per = " / ".join(f"{x:.1f}" for x in mbs[n])
        print(f"| {n} | {per} | {med[n]:.1f} | {med[n] / med['resiliparse']:.3f} |")
    if len(names) > 1:
        for n in names[1:]:
            print(f"{n} / {names[0]}: {med[n] / med[names[0]]:.3f}")


if __name__ == "__main__":
    main()
