"""Run `cescope extract` on Apache Spark over JSONL pages, with RDD.pipe.

Each partition of the input's lines is piped through one cescope process
(`cescope extract --input - --input-format jsonl --output jsonl`), so every page
gives one JSONL output record exactly as on a single machine; the job's output is
the union of those records (one part file per partition).

The input is JSONL pages (`{"id", "url", "html", ...}`, see `cescope::batch::jsonl`;
`cescope extract --input CORPUS_OR_WARC --output pages` writes them). Give every
line an `id` or a `url`: the `line-N` fallback counts lines per partition.

Local mode (what tests/spark.rs runs):
    spark-submit --master 'local[2]' tests/spark/cescope_spark.py \
        --input pages.jsonl --output out/ --cescope target/release/cescope

On a cluster the cescope binary must be on every executor: ship it with
`--files target/release/cescope` and pass `--cescope ./cescope`.
"""

import argparse
import shlex

from pyspark.sql import SparkSession


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", required=True, help="JSONL pages (a path or URL Spark can read)")
    ap.add_argument("--output", required=True, help="output directory (must not exist)")
    ap.add_argument("--cescope", default="cescope", help="the cescope binary on the executors")
    ap.add_argument("--algo", default="danag", help="extractor (cescope algos)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="extractor parameter (repeatable)")
    ap.add_argument("--partitions", type=int, default=0,
                    help="minimum number of input partitions (default: Spark's)")
    ap.add_argument("--threads", type=int, default=1,
                    help="cescope worker threads per task (one task per core is Spark's way)")
    args = ap.parse_args()

    spark = SparkSession.builder.appName("cescope-extract").getOrCreate()
    sc = spark.sparkContext
    if args.partitions > 0:
        lines = sc.textFile(args.input, minPartitions=args.partitions)
    else:
        lines = sc.textFile(args.input)
    cmd = [args.cescope, "extract", "--input", "-", "--input-format", "jsonl",
           "--output", "jsonl", "--algo", args.algo, "--threads", str(args.threads)]
    for s in args.set:
        cmd += ["--set", s]
    # RDD.pipe splits the command with shlex; checkCode fails the task when cescope exits
    # non-zero (bad options, unwritable output) -- per-page errors are records, exit code 0.
    records = lines.pipe(" ".join(shlex.quote(c) for c in cmd), checkCode=True)
    records.saveAsTextFile(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
