#!/usr/bin/env bash
# install_run_path_minimal: the installed programs work on their own. The
# tree is installed into a temporary prefix outside the build tree; with
# PATH holding only <prefix>/bin and /usr/bin, from a directory of its own,
# bwsurvey runs a quick STREAM survey, bwreport summarises it and plots it
# (bwreport finds the installed analysis/), and without the installed
# analysis/ the plot fails: it does not fall back to the source tree.
# Usage: install_run_test.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d "${TMPDIR:-/tmp}/bws-install-run.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/p" >"$prefix/install.log" 2>&1 || { cat "$prefix/install.log"; exit 1; }
mkdir "$prefix/work"
cd "$prefix/work"
# A clean environment (a sanitizer build keeps its ASan/UBSan options).
run() {
  env -i HOME="$HOME" PATH="$prefix/p/bin:/usr/bin" LANG=C.UTF-8 \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} "$@"
}

[ "$(run bash -c 'command -v bwsurvey')" = "$prefix/p/bin/bwsurvey" ] || { echo "FAIL: bwsurvey is not found on PATH"; exit 1; }
run bwsurvey --version | head -1 | grep -q '^bwsurvey [0-9]' || { echo "FAIL: installed bwsurvey --version"; exit 1; }

if ! run bwsurvey --quick --tests stream --threads 1 --stream.elements 1M --out survey.h5 >survey.txt 2>&1; then
  echo "FAIL: the installed bwsurvey did not complete a quick STREAM survey:"; cat survey.txt; exit 1
fi
[ -s survey.h5 ] || { echo "FAIL: no survey.h5"; exit 1; }

if ! run bwreport summary survey.h5 >summary.txt 2>&1; then
  echo "FAIL: installed bwreport summary:"; cat summary.txt; exit 1
fi
grep -qi "triad" summary.txt || { echo "FAIL: the summary names no Triad result:"; cat summary.txt; exit 1; }

if ! run bwreport plot survey.h5 -o report >plot.txt 2>&1; then
  echo "FAIL: installed bwreport plot (its analysis/ in $prefix/p/share/bwsurvey/analysis):"; cat plot.txt; exit 1
fi
[ -s report/index.html ] || { echo "FAIL: bwreport plot wrote no index.html"; exit 1; }

# Without the installed report script, no other analysis/ is used.
rm "$prefix/p/share/bwsurvey/analysis/survey_report.py"
if run bwreport plot survey.h5 -o report2 >plot2.txt 2>&1; then
  echo "FAIL: bwreport plot ran without the installed survey_report.py (it found another analysis/)"; exit 1
fi
grep -q "cannot find analysis/survey_report.py" plot2.txt || { echo "FAIL: unexpected error:"; cat plot2.txt; exit 1; }
echo "installed bwsurvey and bwreport work from $prefix/p alone"
