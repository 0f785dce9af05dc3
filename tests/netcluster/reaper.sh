#!/usr/bin/env bash
# The pretend cluster's cleanup for a test that cannot clean up itself
# (killed with SIGKILL, a ctest timeout): started by netcluster_init with
# setsid, it waits for the test's shell (pid $1) to end, then removes every
# namespace of prefix $2, and the processes still in them. The test's own
# EXIT trap usually did it already: then this finds nothing.
# usage: reaper.sh PID PREFIX
set -u
pid=$1 prefix=$2
# shellcheck source=netcluster.sh
. "$(dirname "$0")/netcluster.sh"
# Polling: the test is not this process's child, so `wait` cannot see it.
while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
netcluster_cleanup "$prefix"
left=$(ip netns list 2>/dev/null | awk '{print $1}' | grep -cF "$prefix" || true)
echo "reaper: $(date +%T.%N | cut -c1-12): test $pid ended; namespaces of $prefix left: $left"
