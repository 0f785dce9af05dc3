#!/usr/bin/env bash
# Open MPI's rsh launch agent for the pretend cluster (--mca
# plm_rsh_agent): mpirun calls it as ssh would be called,
#   rsh_agent.sh HOST COMMAND-WORDS...
# and it runs the words, joined by blanks and read by a shell as sshd's
# shell would read them, inside HOST's network namespace and a UTS
# namespace of its own named HOST: the orted and its ranks see that host's
# address and host name. NETCLUSTER_PREFIX (exported by netcluster_init)
# says which run's namespaces the names mean.
set -eu
host=$1
shift
if ! [[ $host =~ ^(h[0-9]+|head)$ ]]; then
  echo "rsh_agent: $host is not a host of the pretend cluster" >&2
  exit 255
fi
exec ip netns exec "${NETCLUSTER_PREFIX:?}$host" unshare --uts -- \
  sh -c 'hostname "$1" && shift && eval "$*"' rsh_agent "$host" "$@"
