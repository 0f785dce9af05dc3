#!/usr/bin/env bash
# The pretend cluster leaves nothing behind and changes nothing outside
# its namespaces: a cluster made by a child shell that exits with an
# error (the EXIT trap removes it), and one whose shell is killed with
# SIGKILL (no trap runs: the reaper removes it); the root namespace gains
# no link of the names the cluster uses, during or after.
# usage: cleanup_test.sh WORKDIR
set -euo pipefail
work=$1
lib=$(cd "$(dirname "$0")" && pwd)/netcluster.sh
# shellcheck source=netcluster.sh
. "$lib"
netcluster_require || exit 77
rm -rf "$work" && mkdir -p "$work"

root_links() { ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort; }
# Links of the cluster's names in the root namespace that were not there
# before (other software may add links of its own meanwhile: only these
# names would be ours).
new_cluster_links() {
  comm -13 <(echo "$before") <(root_links) | grep -E '^(h[0-9]+|head|top|s[0-9]+(up|dn)?|eth0)$' || true
}
ours() { ip netns list 2>/dev/null | awk '{print $1}' | grep -cF "$1" || true; }
# Polls (at most $2 s) until no namespace of prefix $1 is left.
expect_gone() {
  local t
  for t in $(seq 1 $(($2 * 10))); do
    [ "$(ours "$1")" -eq 0 ] && return 0
    sleep 0.1
  done
  echo "namespaces of $1 still there after $2 s:"; ip netns list | grep -F "$1"
  exit 1
}
# A child shell that makes a cluster of 4 hosts, writes its prefix to $2
# and then runs $3 (exit 1, or stops itself to be killed).
child() {
  bash -c '. "$1"; netcluster_init "$2"; netcluster_start 4 2; echo "$NETCLUSTER_PREFIX" >"$2/prefix"; eval "$3"' \
    child "$lib" "$1" "$2" </dev/null >"$1.log" 2>&1 &
  child_pid=$!
}
# The prefix the child wrote, once its cluster is up (at most 20 s).
prefix_of() {
  for _ in $(seq 1 200); do
    [ -s "$1/prefix" ] && { cat "$1/prefix"; return 0; }
    kill -0 "$child_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "the child made no cluster:" >&2; cat "$1.log" >&2; exit 1
}

before=$(root_links)
# Exit with an error: the trap removes everything at once.
child "$work/failing" 'exit 1'
wait "$child_pid" || true
prefix=$(cat "$work/failing/prefix")
[ "$(ours "$prefix")" -eq 0 ] || { echo "a failed test left namespaces of $prefix"; exit 1; }
echo "a failing test's cluster: removed by its trap"

# Killed with SIGKILL once the cluster is up: the reaper removes it.
child "$work/killed" 'kill -STOP $$'
prefix=$(prefix_of "$work/killed")
# head, fabric and 4 hosts
[ "$(ours "$prefix")" -eq 6 ] || { echo "expected 6 namespaces of $prefix, found $(ours "$prefix")"; exit 1; }
[ -z "$(new_cluster_links)" ] || { echo "the cluster made links in the root namespace: $(new_cluster_links)"; exit 1; }
kill -9 "$child_pid"
expect_gone "$prefix" 10
echo "a killed test's cluster: removed by the reaper ($(cat "$work/killed/reaper.log"))"

[ -z "$(new_cluster_links)" ] || { echo "links left in the root namespace: $(new_cluster_links)"; exit 1; }
echo "no link made in the root namespace (there: $(root_links | paste -sd' ' -))"
