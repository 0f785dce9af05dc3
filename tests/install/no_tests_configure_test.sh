#!/usr/bin/env bash
# build_without_tests_configures: -DBUILD_TESTING=OFF needs no GoogleTest.
# A second build directory is configured with GoogleTest made impossible to
# find (CMAKE_DISABLE_FIND_PACKAGE_GTest, GTest_DIR=/nonexistent) and
# without help2man: the configure succeeds, the build system has bwsurvey
# and bwreport but no test target and no man pages, no compile command
# names gtest, and CMake says the man pages are left out.
# Usage: no_tests_configure_test.sh SOURCE_DIR
set -euo pipefail
src=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bws-no-tests.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if ! cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
     -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DGTest_DIR=/nonexistent \
     -DBWS_HELP2MAN=/nonexistent/help2man >"$dir/configure.log" 2>&1; then
  echo "FAIL: configure with BUILD_TESTING=OFF and no GoogleTest:"; cat "$dir/configure.log"; exit 1
fi
fail=0
targets=$(cmake --build "$dir" --target help)
for t in bwsurvey bwreport; do
  echo "$targets" | grep -qw "$t" || { echo "FAIL: no target $t"; fail=1; }
done
for t in bws_unit_tests bws_man_pages; do
  echo "$targets" | grep -qw "$t" && { echo "FAIL: target $t exists with BUILD_TESTING=OFF and no help2man"; fail=1; }
done
grep -qi "gtest" "$dir/compile_commands.json" && { echo "FAIL: a compile command names gtest"; fail=1; }
grep -q "^GTEST_" "$dir/CMakeCache.txt" && { echo "FAIL: CMakeCache.txt has GoogleTest entries"; fail=1; }
grep -q "help2man not found: no man pages" "$dir/configure.log" || { echo "FAIL: no message about the man pages"; fail=1; }
[ -f "$dir/CTestTestfile.cmake" ] && grep -q "add_test" "$dir/CTestTestfile.cmake" && { echo "FAIL: tests registered"; fail=1; }
[ "$fail" -eq 0 ] && echo "BUILD_TESTING=OFF configures without GoogleTest and help2man"
exit "$fail"
