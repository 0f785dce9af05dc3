#!/usr/bin/env bash
# pmbw's own plotting on bwsurvey's --pmbw.stats files: builds pmbw's
# stats2gnuplot from its public source (cloned into a temporary folder
# outside the repository, never kept), runs a short pmbw survey on 2 ranks
# with --pmbw.stats DIR/stats-%h-%r.txt (one file per host and rank: the
# tool refuses a file with several hosts), and runs stats2gnuplot on each
# file: its gnuplot script must plot every routine the file holds, and
# gnuplot (when installed) must turn it into a PDF. Exit 77 (skipped) when
# the source cannot be fetched or built.
# usage: pmbw_stats2gnuplot.sh MPIRUN BWSURVEY WORKDIR
# BWS_PMBW_SOURCE: where to clone pmbw from (default: its GitHub repository).
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$3
source_url=${BWS_PMBW_SOURCE:-https://github.com/bingmann/pmbw}
rm -rf "$dir" && mkdir -p "$dir"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

if ! git clone --quiet --depth 1 "$source_url" "$src/pmbw" >"$dir/clone.txt" 2>&1; then
  echo "SKIPPED: cannot fetch pmbw from $source_url (set BWS_PMBW_SOURCE to a clone): $(tail -1 "$dir/clone.txt")"
  exit 77
fi
# VERSION comes from autoconf's config.h in pmbw's own build: its AC_INIT.
version=$(sed -n 's/^AC_INIT(\[*pmbw\]*, *\[*\([0-9.]*\).*/\1/p' "$src/pmbw/configure.ac" 2>/dev/null | head -1)
if ! g++ -O1 -DVERSION="\"${version:-unknown}\"" -o "$dir/stats2gnuplot" "$src/pmbw/stats2gnuplot.cc" \
    >"$dir/build.txt" 2>&1; then
  echo "SKIPPED: pmbw's stats2gnuplot.cc does not build here: $(head -3 "$dir/build.txt")"
  exit 77
fi

source "$(dirname "$0")/survey_run.sh"
run_survey "$mpirun" -np 2 --oversubscribe "$bwsurvey" --tests pmbw --quick --out "$dir/p.h5" \
  --pmbw.stats "$dir/stats-%h-%r.txt" --pmbw.max-bytes 1M --pmbw.min-time 0.002 \
  --pmbw.routines ScanRead64PtrUnrollLoop,ScanWrite64PtrSimpleLoop,PermRead64UnrollLoop
expect_success

fail() { echo "$1"; exit 1; }
host=$(hostname)
files=$(cd "$dir" && ls stats-*.txt | sort | tr '\n' ' ')
# both ranks run on this host; the host's name as it goes into a file name
safe_host=$(printf '%s' "$host" | tr -c 'A-Za-z0-9._-' '_')
[ "$files" = "stats-$safe_host-0.txt stats-$safe_host-1.txt " ] || fail "stats files: '$files'"

for rank in 0 1; do
  stats="$dir/stats-$safe_host-$rank.txt"
  grep -q . "$stats" || fail "$stats is empty"
  if grep -v -q "^RESULT	" "$stats"; then fail "$stats holds a line that is no RESULT line"; fi
  [ "$(cut -f3 "$stats" | sort -u)" = "host=$host" ] || fail "$stats: more than this host: $(cut -f3 "$stats" | sort -u)"
  (cd "$dir" && ./stats2gnuplot "stats-$safe_host-$rank.txt" >"plot-$rank.gp" 2>"plot-$rank.err") \
    || fail "stats2gnuplot on $stats exited $?: $(cat "$dir/plot-$rank.err")"
  lines=$(wc -l <"$stats")
  grep -q "Parsed $lines RESULT lines" "$dir/plot-$rank.err" || fail "stats2gnuplot did not parse $lines lines: $(cat "$dir/plot-$rank.err")"
  if grep -q "Multiple\|Unknown funcname" "$dir/plot-$rank.err"; then fail "stats2gnuplot: $(cat "$dir/plot-$rank.err")"; fi
  grep -q "^set output 'plots-$host.pdf'" "$dir/plot-$rank.gp" || fail "plot-$rank.gp: no output for $host"
  for routine in $(cut -f5 "$stats" | sed 's/^funcname=//' | sort -u); do
    grep -q "title '$routine'" "$dir/plot-$rank.gp" || fail "plot-$rank.gp does not plot $routine"
  done
  if command -v gnuplot >/dev/null; then
    rm -f "$dir/plots-$host.pdf"
    (cd "$dir" && gnuplot "plot-$rank.gp" 2>"gnuplot-$rank.err") || fail "gnuplot: $(cat "$dir/gnuplot-$rank.err")"
    [ -s "$dir/plots-$host.pdf" ] || fail "gnuplot made no plots-$host.pdf"
    echo "gnuplot drew plots-$host.pdf from rank $rank's file"
  else
    echo "gnuplot is not installed: its script checked, not drawn"
  fi
done
echo "stats2gnuplot plots both ranks' --pmbw.stats files"
