"""Run cescope's extraction on Apache Spark over JSONL pages.

Each partition of the input's lines is extracted in the Python worker by the `cescope`
package (`pip install ./python` on every executor) inside `mapPartitions`: one
`cescope.Extractor` per partition, pages in chunks through `Extractor.extract_many` (the GIL
released, `--threads` worker threads per task). Every page gives one JSONL record exactly as
`cescope extract --input pages.jsonl` writes it on a single machine (`{"id", "url", "algo",
"text", "error"?, "bytes"}`); the job's output is the union of those records, one part file
per partition.

The input is JSONL pages (`{"id", "url", "html", ...}`, see `cescope::batch::jsonl`;
`cescope extract --input CORPUS_OR_WARC --output pages` writes them). Give every line an `id`
or a `url`: the `line-N` fallback counts lines per partition.

Local mode (what tests/spark.rs runs):
    spark-submit --master 'local[2]' tests/spark/cescope_spark.py \
        --input pages.jsonl --output out/

Clusters without the wheel: `--cescope BIN` pipes each partition through the cescope binary
instead (`RDD.pipe` into `cescope extract --input - --input-format jsonl --output jsonl`);
ship the binary with `--files target/release/cescope` and pass `--cescope ./cescope`.
Both routes give the same records.
"""

import argparse
import json
import shlex

from pyspark.sql import SparkSession

# Pages handed to one extract_many call: bounds a task's memory to CHUNK pages (and their
# texts) whatever the partition's size.
CHUNK = 256


def _record(id_, url, algo, text, error, nbytes):
    """One output record, serialised as the binary writes it (fields in its order, `error`
    only when set, UTF-8 unescaped, no spaces)."""
    rec = {"id": id_, "url": url, "algo": algo, "text": text}
    if error is not None:
        rec["error"] = error
    rec["bytes"] = nbytes
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def extract_partition(lines, algo, params, threads):
    """The records of one partition's JSONL lines (run on the executor)."""
    import cescope

    ex = cescope.Extractor(algo, params=params)
    name = ex.name
    pending = []  # (id, url, html) of the current chunk

    def flush():
        texts = ex.extract_many([p[2] for p in pending], threads=threads, errors="none")
        for (id_, url, html), text in zip(pending, texts):
            error = None
            if text is None:
                # A page that failed (rare): run it alone for cescope's message.
                try:
                    text = ex.extract(html)
                except cescope.CescopeError as e:
                    text, error = "", str(e)
            yield _record(id_, url, name, text, error, len(html.encode("utf-8", "surrogatepass")))
        pending.clear()

    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            page = json.loads(line)
            html = page["html"]
            if not isinstance(html, str):
                raise ValueError("`html` is not a string")
        except (ValueError, KeyError, TypeError) as e:
            yield _record(f"line-{n}", None, name, "", f"line {n}: not a JSONL page: {e}", 0)
            continue
        id_, url = page.get("id"), page.get("url")
        id_ = str(id_) if id_ is not None else (url if url is not None else f"line-{n}")
        pending.append((id_, url, html))
        if len(pending) >= CHUNK:
            yield from flush()
    if pending:
        yield from flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", required=True, help="JSONL pages (a path or URL Spark can read)")
    ap.add_argument("--output", required=True, help="output directory (must not exist)")
    ap.add_argument("--algo", default="learned", help="extractor (cescope algos), a set FILE.toml or model FILE.json")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="extractor parameter (repeatable)")
    ap.add_argument("--partitions", type=int, default=0,
                    help="minimum number of input partitions (default: Spark's)")
    ap.add_argument("--threads", type=int, default=1,
                    help="cescope worker threads per task (one task per core is Spark's way)")
    ap.add_argument("--cescope", metavar="BIN",
                    help="pipe partitions through this cescope binary instead of the Python package")
    args = ap.parse_args()

    spark = SparkSession.builder.appName("cescope-extract").getOrCreate()
    sc = spark.sparkContext
    if args.partitions > 0:
        lines = sc.textFile(args.input, minPartitions=args.partitions)
    else:
        lines = sc.textFile(args.input)
    if args.cescope:
        cmd = [args.cescope, "extract", "--input", "-", "--input-format", "jsonl",
               "--output", "jsonl", "--algo", args.algo, "--threads", str(args.threads)]
        for s in args.set:
            cmd += ["--set", s]
        # RDD.pipe splits the command with shlex; checkCode fails the task when cescope exits
        # non-zero (bad options, unwritable output) -- per-page errors are records, exit code 0.
        records = lines.pipe(" ".join(shlex.quote(c) for c in cmd), checkCode=True)
    else:
        import cescope

        params = {}
        for s in args.set:
            name, sep, value = s.partition("=")
            if not sep:
                ap.error(f"--set {s!r}: expected NAME=VALUE")
            params[name] = value
        # Fail on the driver, before any task, on a bad algorithm or parameter.
        cescope.Extractor(args.algo, params=params)
        algo, threads = args.algo, args.threads
        records = lines.mapPartitions(lambda part: extract_partition(part, algo, params, threads))
    records.saveAsTextFile(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
