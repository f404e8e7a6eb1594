#!/bin/sh
# Hashes of every nameable extractor's output over the shared corpora, to check that a change
# leaves every selection as it was (the architecture and guideline issues' "byte-identical"
# checks). For each extractor (`cescope algos --names`: the shipped `learned` included) and each
# corpus, the batch output (one JSONL record per page: id, url, algo, text, bytes) is written
# to OUT/ALGO.CORPUS.jsonl and its SHA-256 to OUT/sums.txt. Compare two runs with
# `diff OUT1/sums.txt OUT2/sums.txt`; `cmp` a differing pair's files to find the page.
#
#   benches/selections.sh BIN OUT [EXTRA ARGS...]
#
# EXTRA ARGS go to every `extract` call (e.g. `--guideline article`). Nothing is written in
# the repository unless OUT is inside it.
set -eu
BIN=$1; OUT=$2; shift 2
CORPUS=${CORPUS:-../shared/corpus}
mkdir -p "$OUT"
: > "$OUT/sums.txt"
ALGOS=$("$BIN" algos --names | cut -f1)
# Binaries older than the one registry did not list the shipped model: name it for them.
case " $(echo $ALGOS) " in *" learned "*) ;; *) ALGOS="$ALGOS learned" ;; esac
for algo in $ALGOS; do
    for c in scrapinghub-dev readability wcxb-dev cleaneval-dev; do
        f="$OUT/$algo.$c.jsonl"
        "$BIN" extract --input "$CORPUS/$c" --algo "$algo" --threads 2 "$@" > "$f" 2>/dev/null
        printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$algo.$c" >> "$OUT/sums.txt"
    done
done
