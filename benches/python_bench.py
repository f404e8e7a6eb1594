#!/usr/bin/env python3
"""Extraction throughput from Python (issue 32, item 4): cescope against trafilatura and
resiliparse, called the same way on the same pages, in one Python process.

    python benches/python_bench.py [--corpus DIR] [--rounds N] [--algo NAME] [--binary BIN]

Pages: every page of DIR (default ../shared/corpus/scrapinghub-dev, `.html` or `.html.gz`),
read and decompressed in memory before any timing; every extractor gets the raw bytes and
decodes them itself (cescope: its decoding order; trafilatura: its own detection;
resiliparse: `detect_encoding`). Contenders, each over all pages per round, rounds
interleaved (round 1 of every contender, then round 2, ...), the median round reported:

- `cescope.extract_many(pages, threads=1)` and `threads=2` (the GIL released);
- `trafilatura.extract(page)` in a loop, and on 2 threads (a ThreadPoolExecutor);
- resiliparse `extract_plain_text(HTMLTree.parse_from_bytes(page, detect_encoding(page)),
  main_content=True)` in a loop, and on 2 threads;
- `cescope.extract(page)` in a loop (one call per page, a new extractor each call), and the
  cescope binary's batch mode on the same pages written to a temporary directory
  (`cescope extract --input DIR --threads 1`, process start and JSONL output included): the
  difference per page is the per-call overhead of the Python route;
- `cescope.extract("<p>x</p>")`: the fixed cost of one call on a trivial page.

MB are 10^6 bytes of raw (decompressed) page bytes. Needs `cescope` (pip install ./python);
trafilatura and resiliparse are measured when importable (python/requirements-bench.txt).
"""

import argparse
import concurrent.futures
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cescope
from bench_pages import load_pages, resiliparse_main_content

ROOT = Path(__file__).resolve().parents[1]


def on_threads(fn, pages, threads):
    if threads == 1:
        return [fn(p) for p in pages]
    with concurrent.futures.ThreadPoolExecutor(threads) as ex:
        return list(ex.map(fn, pages))


def contenders(algo, binary, workdir):
    out = {}
    out[f"cescope.extract_many, 1 thread ({algo})"] = lambda pages: cescope.extract_many(
        pages, algo=algo, threads=1, errors="none")
    out[f"cescope.extract_many, 2 threads ({algo})"] = lambda pages: cescope.extract_many(
        pages, algo=algo, threads=2, errors="none")

    def one_by_one(pages):
        res = []
        for p in pages:
            try:
                res.append(cescope.extract(p, algo=algo))
            except cescope.CescopeError:
                res.append(None)
        return res

    out[f"cescope.extract per page, 1 thread ({algo})"] = one_by_one
    if binary:
        def batch(_pages):
            r = subprocess.run([str(binary), "extract", "--algo", algo, "--threads", "1", "--input", str(workdir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                raise SystemExit(f"{binary} failed")
        out[f"cescope binary batch (--input DIR), 1 thread ({algo})"] = batch
    try:
        import trafilatura

        def traf(p):
            try:
                return trafilatura.extract(p)
            except Exception:  # noqa: BLE001 -- a failing page counts as done
                return None
        out["trafilatura.extract, 1 thread"] = lambda pages: on_threads(traf, pages, 1)
        out["trafilatura.extract, 2 threads"] = lambda pages: on_threads(traf, pages, 2)
    except ImportError:
        print("(trafilatura not installed: skipped)", file=sys.stderr)
    resi = resiliparse_main_content()
    if resi is not None:
        out["resiliparse main_content, 1 thread"] = lambda pages: on_threads(resi, pages, 1)
        out["resiliparse main_content, 2 threads"] = lambda pages: on_threads(resi, pages, 2)
    else:
        print("(resiliparse not installed: skipped)", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus/scrapinghub-dev")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--algo", default="learned")
    ap.add_argument("--binary", type=Path, default=ROOT / "target/release/cescope",
                    help="the cescope binary for the batch-mode comparison (skipped when missing)")
    args = ap.parse_args()

    named = load_pages(args.corpus)
    pages = [raw for _, raw in named]
    total = sum(map(len, pages))
    binary = args.binary if args.binary.is_file() else None
    if binary is None:
        print(f"({args.binary} not found: the binary's batch mode is skipped)", file=sys.stderr)
    workdir = Path(tempfile.mkdtemp(prefix="cescope-pybench-"))
    try:
        for name, raw in named:
            (workdir / name).write_bytes(raw)
        runs = contenders(args.algo, binary, workdir)
        times = {k: [] for k in runs}
        for r in range(args.rounds):
            for k, fn in runs.items():
                t0 = time.perf_counter()
                fn(pages)
                times[k].append(time.perf_counter() - t0)
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
        # The fixed cost of one call on a trivial page.
        tiny = "<p>x</p>"
        n = 20000
        t0 = time.perf_counter()
        for _ in range(n):
            cescope.extract(tiny, algo=args.algo)
        per_call_tiny = (time.perf_counter() - t0) / n
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print(f"{len(pages)} pages, {total / 1e6:.1f} MB ({args.corpus.name}), median of {args.rounds} "
          f"interleaved rounds, {os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    print("| extractor | s / round | MB/s | pages/s |")
    print("|---|---:|---:|---:|")
    med = {}
    for k, ts in times.items():
        m = statistics.median(ts)
        med[k] = m
        print(f"| {k} | {m:.2f} | {total / 1e6 / m:.2f} | {len(pages) / m:.0f} |")
    per_page = next(v for k, v in med.items() if k.startswith("cescope.extract per page"))
    many = next(v for k, v in med.items() if k.startswith("cescope.extract_many, 1 thread"))
    print()
    print(f"cescope.extract on a trivial page: {per_call_tiny * 1e6:.1f} µs per call")
    print(f"cescope.extract per page vs extract_many (1 thread): {(per_page - many) / len(pages) * 1e6:+.1f} µs per page")
    if binary:
        b = next(v for k, v in med.items() if k.startswith("cescope binary"))
        print(f"cescope.extract per page vs the binary's batch mode (1 thread): "
              f"{(per_page - b) / len(pages) * 1e6:+.1f} µs per page")


if __name__ == "__main__":
    main()
