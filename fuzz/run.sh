#!/usr/bin/env bash
# Runs one cescope fuzz target under AFL++ (cargo-afl) for a while.
#
#   fuzz/run.sh TARGET [SECONDS] [extra afl-fuzz options]
#
# TARGET is one of decode_lex, page, extractors, gold, keymap. Seeds come from the project's own
# files (sample-pages/, gold/, keymaps/); findings go to fuzz/out/TARGET/default/{crashes,hangs}.
# Needs `cargo install cargo-afl` once (it builds AFL++ on first use: `cargo afl config --build`).
# Runs under `nice -n 19`. A second run of the same target resumes its queue.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?usage: fuzz/run.sh TARGET [SECONDS]}
secs=${2:-1800}
shift $(( $# >= 2 ? 2 : 1 ))

case $target in
  decode_lex|page|extractors) dict=dict/html.dict ;;
  gold) dict=dict/gold.dict ;;
  keymap) dict=dict/keymap.dict ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac

seeds=out/seeds-$target
if [ ! -d "$seeds" ]; then
  mkdir -p "$seeds"
  case $target in
    decode_lex|page|extractors)
      i=0
      for f in ../sample-pages/*.html; do
        i=$((i + 1))
        # First 4 KiB: small inputs keep AFL fast. decode_lex reads the first byte as its option
        # selector and extractors the first 8 bytes as the parameter seed; prefix a few variants.
        head -c 4096 "$f" > "$seeds/page$i"
        { printf '\x0%d' $((i % 4)); head -c 4096 "$f"; } > "$seeds/sel$i"
      done
      printf '<p>one</p><script>x</script><!-- c --><p>two &amp; three</p>' > "$seeds/tiny"
      ;;
    gold) cp ../gold/*.json "$seeds/" ;;
    keymap) cp ../keymaps/*.toml "$seeds/" ;;
  esac
fi

input=$seeds
if [ -d "out/$target/default/queue" ]; then input=-; fi # resume

cargo afl build --release --bin "$target"
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_NO_UI=1
exec nice -n 19 cargo afl fuzz -V "$secs" -t 5000 -i "$input" -o "out/$target" -x "$dict" "$@" \
  "target/release/$target"
