#!/usr/bin/env bash
# The history archive at scale (lib/history, `bwreport history`): generates
# an archive of NODES x 60 metrics x 100 surveys through the code `history
# add` writes with, then prints its size, the time of adding one more
# NODES-node survey, of `history show --node` and of `history show --metric`
# (movers), and the query plans. Builds nothing: build the target first
# (cmake --build build --target history_archive_scale). 1,000 nodes take
# about 80 s and 0.25 GB; 10,000 nodes about 15 min and 2.4 GB (on 2 cores).
#   bench/history-archive.sh [BUILD_DIR] ARCHIVE [--nodes N] [--metrics M] [--surveys S] [--reuse]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prog=$root/build/bench/history_archive_scale
if [ $# -gt 1 ] && [ -d "$1" ]; then prog=$1/bench/history_archive_scale; shift; fi
[ -x "$prog" ] || { echo "$prog not found: build it first (cmake --build build --target history_archive_scale)"; exit 2; }
echo "command: $prog $*"
echo "date: $(date -u +%FT%TZ), host: $(hostname), $(nproc) cores, sqlite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1)"
exec "$prog" "$@"
