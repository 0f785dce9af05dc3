#!/usr/bin/env bash
# No bwreport command writes over an input. merge with
# OUT one of its inputs - the same name, another spelling, a symbolic or a
# hard link - is a usage error with --force too, and the inputs' bytes
# (sha256) are as they were; a run given twice is refused the same way.
# usage: bwreport_inputs.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT
set -euo pipefail
mpirun=$1 bwsurvey=$(realpath "$2") dir=$4 bwreport=$(realpath "$5")
rm -rf "$dir" && mkdir -p "$dir"
cd "$dir"
"$mpirun" -q -np 1 "$bwsurvey" --tests stream --quick --threads 1 --stream.elements 1M --out a.h5 >a.txt 2>&1 ||
  { cat a.txt; exit 1; }
"$mpirun" -q -np 2 --oversubscribe "$bwsurvey" --tests stream --quick --threads 1 --stream.elements 1M --out b.h5 \
  >b.txt 2>&1 || { cat b.txt; exit 1; }
ln -s a.h5 soft.h5
ln a.h5 hard.h5
mkdir sub
sums() { sha256sum a.h5 b.h5; }
before=$(sums)
refused() {  # refused PATTERN ARGS...: exit 2, one line matching PATTERN, inputs unchanged
  local pattern=$1 code
  shift
  set +e
  "$bwreport" merge "$@" >out.txt 2>&1
  code=$?
  set -e
  [ $code -eq 2 ] || { echo "bwreport merge $*: exit $code, expected 2"; cat out.txt; exit 1; }
  [ "$(wc -l <out.txt)" -eq 1 ] && grep -q "$pattern" out.txt || { echo "bwreport merge $*:"; cat out.txt; exit 1; }
  [ "$(sums)" = "$before" ] || { echo "bwreport merge $* changed an input"; exit 1; }
}
refused "OUT 'a.h5' is the input 'a.h5'" --force a.h5 a.h5 b.h5
refused "OUT 'a.h5' is the input 'a.h5'" a.h5 b.h5 a.h5
refused "OUT './sub/../a.h5' is the input 'a.h5'" --force ./sub/../a.h5 a.h5 b.h5
refused "OUT 'soft.h5' is the input 'a.h5'" --force soft.h5 b.h5 a.h5
refused "OUT 'hard.h5' is the input 'a.h5'" --force hard.h5 a.h5 b.h5
refused "OUT 'b.h5' is the input 'b.h5'" --force b.h5 a.h5 b.h5
refused "'soft.h5' and 'a.h5' are the same file" --force m.h5 a.h5 soft.h5
[ ! -e m.h5 ] || { echo "a refused merge left OUT behind"; exit 1; }
# A good merge reads its inputs only.
"$bwreport" merge m.h5 a.h5 b.h5 >merged.txt
[ "$(sums)" = "$before" ] || { echo "a merge changed an input"; exit 1; }
# export: its files never replace the input.
cp a.h5 stream_results.csv
set +e
"$bwreport" export --csv stream_results.csv --dir . >export.txt 2>&1
code=$?
set -e
[ $code -eq 2 ] && grep -q "is the input" export.txt || { echo "export over its input: exit $code"; cat export.txt; exit 1; }
cmp -s a.h5 stream_results.csv || { echo "export wrote over its input"; exit 1; }
echo "bwreport inputs OK"
