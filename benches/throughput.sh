#!/bin/sh
# Batch-extraction throughput and memory (issue 14): pages/s and MB/s with 1 and 2 threads on
# a >= 500 MB input built by repetition from the shared corpora, JSONL and WARC.gz, and the peak
# RSS for 50 MB vs 500 MB inputs.
#
#   benches/throughput.sh [WORKDIR] [ALGO]
#
# WORKDIR (default /tmp/cescope-bench) receives the inputs (~1.2 GB); nothing is written in
# the repository. Run from the repository root; builds the release binary first. Each line of
# the output is the run's summary (cescope's own, on standard error) followed by the
# "Maximum resident set size" of /usr/bin/time -v.
set -eu
WORK=${1:-/tmp/cescope-bench}
ALGO=${2:-danag}
CORPUS=${CORPUS:-../shared/corpus}
mkdir -p "$WORK"
nice cargo build --release --quiet
BIN=target/release/cescope

if [ ! -s "$WORK/base.jsonl" ]; then
    for c in readability scrapinghub-dev wcxb-dev; do
        "$BIN" extract --input "$CORPUS/$c" --output pages 2>/dev/null
    done > "$WORK/base.jsonl"
fi
for mb in 50 500; do
    [ -s "$WORK/in$mb.warc.gz" ] || python3 benches/make_inputs.py "$WORK/base.jsonl" "$WORK/in$mb" "$mb"
done
ls -l "$WORK"

run() { # label, args…
    label=$1; shift
    /usr/bin/time -v -o "$WORK/time.txt" nice "$BIN" extract --algo "$ALGO" "$@" \
        > /dev/null 2> "$WORK/summary.txt"
    printf '%-28s %s | time -v max RSS %s KiB\n' "$label" \
        "$(tail -1 "$WORK/summary.txt" | sed 's/^cescope: //')" \
        "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.txt")"
}
for fmt in jsonl warc.gz; do
    for t in 1 2; do
        run "500 MB $fmt, $t thread(s)" --input "$WORK/in500.$fmt" --threads "$t"
    done
    run "50 MB $fmt, 2 threads" --input "$WORK/in50.$fmt" --threads 2
done
run "500 MB jsonl, 2 thr, unordered" --input "$WORK/in500.jsonl" --threads 2 --unordered
