# shellcheck shell=bash
# A pretend cluster of hosts with real links, for the network tests
# (design: docs/design-notes.md, "A pretend cluster with real links").
# Source this file, then:
#   netcluster_require || exit 77          # root, the tools, namespaces that work
#   netcluster_init WORKDIR                 # names, cleanup trap, reaper (a test that sets an EXIT
#                                           # trap of its own calls netcluster_cleanup in it)
#   netcluster_start HOSTS LEAVES [MBIT]    # h1..hHOSTS on leaves s1..sLEAVES under top
#   netcluster_slow_nic / _slow_pair / _slow_uplink, netcluster_shape_host (a host back to a
#   rate), netcluster_clear_uplink, netcluster_measure_mbit   (netcluster_shaping.sh)
#   netcluster_mpirun MPIRUN-ARGS...        (netcluster_mpi.sh)
#   netcluster_delay_host HOST MS (a relay adds MS each way; NETCLUSTER_RELAY is its binary),
#   netcluster_udp_rtt_ms SRC DST             (netcluster_delay.sh)
#   netcluster_slurm_start, netcluster_slurm  (netcluster_slurm.sh, sourced apart)
# Every host is a network namespace with one veth to its leaf bridge; the
# bridges live in a fabric namespace of their own, so nothing in the root
# namespace changes. Every name carries the run's prefix; whatever happens
# to the test, the trap or the reaper removes all of them.

NETCLUSTER_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# One private subnet: the hosts' only addresses, no default route, so MPI
# traffic cannot leave the pretend cluster. Host hI is 10.231.1.I, the
# head (where mpirun runs) 10.231.0.1.
NETCLUSTER_SUBNET=10.231.0.0/16
NETCLUSTER_HEAD_ADDR=10.231.0.1
# Every host link's rate unless netcluster_start is told otherwise: slow
# enough that 4 or 8 hosts sending at once stay far from what 2 shared
# cores can copy through veths (several Gbit/s), fast enough for MiB
# messages in well under a second.
NETCLUSTER_DEFAULT_MBIT=400

# Whether this machine can make the cluster: 0 yes; otherwise prints why
# and returns 77 (ctest's SKIP_RETURN_CODE in tests/CMakeLists.txt).
netcluster_require() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: the pretend cluster makes network namespaces and needs root"
    return 77
  fi
  local tool
  for tool in ip tc bridge unshare nsenter setsid; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is missing"; return 77; }
  done
  # Root in a container may still lack the right to make namespaces, or
  # the kernel veth, bridges or tbf: try them in a throwaway namespace,
  # which vanishes with the process.
  if ! unshare --net --uts sh -c 'hostname probe && ip link add name pa type veth peer name pb &&
       ip link add name ps type bridge && tc qdisc add dev pa root tbf rate 1mbit burst 64kb latency 20ms' >/dev/null 2>&1; then
    echo "SKIPPED: cannot make a network namespace with a veth, a bridge and tbf here"
    return 77
  fi
}

# The run's prefix of every namespace name: a tag from the work directory
# (ctest runs each test in its own) and this shell's pid, so two runs side
# by side, even of the same test, never share a name. The pid also lets a
# later run tell a dead run's leftovers from a live run's namespaces.
netcluster_prefix_for() {
  local tag
  tag=$(basename "$1" | tr -c 'a-zA-Z0-9\n' '_' | cut -c1-24)
  echo "bwsnc-$tag-$$-"
}

# Namespaces of our naming scheme whose run is gone (its pid is dead): a
# run killed together with its reaper (a machine reset) left them. Only
# names with a dead pid are touched, so a run beside this one is safe.
netcluster_reap_orphans() {
  local ns pid
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^bwsnc-' || true); do
    pid=$(sed -E 's/^bwsnc-[^-]*-([0-9]+)-.*$/\1/' <<<"$ns")
    [[ $pid =~ ^[0-9]+$ ]] || continue
    kill -0 "$pid" 2>/dev/null && continue
    netcluster_delete_ns "$ns"
  done
}

# Ends every process still inside namespace $1 (an orted, a rank that
# hung: all started by this run, found by the namespace they are in), then
# removes the namespace. Removing the fabric namespace takes its bridges
# and every veth with it (a veth dies with either end).
netcluster_delete_ns() {
  local pids
  pids=$(ip netns pids "$1" 2>/dev/null || true)
  # shellcheck disable=SC2086  # a list of pids
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  ip netns delete "$1" 2>/dev/null || true
}

# Removes every namespace with prefix $1: the trap calls it on exit, the
# reaper once the test's shell is gone. Safe to run twice.
netcluster_cleanup() {
  local prefix=${1:-${NETCLUSTER_PREFIX:-}} ns
  [ -n "$prefix" ] || return 0
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -F "$prefix" || true); do
    [[ $ns == "$prefix"* ]] && netcluster_delete_ns "$ns"
  done
  return 0
}

# A process that waits for this shell to end and then removes the run's
# namespaces: the cleanup for a test killed with SIGKILL, where no trap
# runs. Started from a subshell that exits at once, so it is nobody's
# child (ctest's timeout kills the test's whole tree of children, found by
# parent pid), in a session of its own (a kill of the test's process group
# misses it), its output in a file (ctest would wait for its pipes).
netcluster_start_reaper() {
  (setsid bash "$NETCLUSTER_LIB_DIR/reaper.sh" "$$" "$NETCLUSTER_PREFIX" \
    </dev/null >"$NETCLUSTER_WORK/reaper.log" 2>&1 &)
}

# netcluster_init WORKDIR: the run's names, an EXIT trap (which also runs
# on SIGINT/SIGTERM, turned into exits here) and the reaper.
netcluster_init() {
  NETCLUSTER_WORK=$(realpath -m "$1")
  NETCLUSTER_PREFIX=$(netcluster_prefix_for "$NETCLUSTER_WORK")
  NETCLUSTER_FABRIC=${NETCLUSTER_PREFIX}fabric
  export NETCLUSTER_PREFIX NETCLUSTER_WORK
  mkdir -p "$NETCLUSTER_WORK"
  netcluster_reap_orphans
  trap 'netcluster_cleanup "$NETCLUSTER_PREFIX"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  netcluster_start_reaper
}

# The address of host $1 (hI) on the test subnet.
netcluster_addr() {
  local i=${1#h}
  echo "10.231.1.$i"
}

# A namespace with its loopback up (Open MPI's local paths use it).
netcluster_make_ns() {
  ip netns add "$1"
  ip -n "$1" link set lo up
}

# Bridge $1 in the fabric namespace, a switch that forwards at once (no
# STP, so no forwarding delay).
netcluster_add_switch() {
  ip -n "$NETCLUSTER_FABRIC" link add "$1" type bridge stp_state 0
  ip -n "$NETCLUSTER_FABRIC" link set "$1" up
}

# A veth made inside the fabric namespace, its far end moved straight into
# namespace $3 as eth0: the root namespace never sees either end.
# netcluster_attach FABRIC-END SWITCH HOST-NS ADDR
netcluster_attach() {
  local end=$1 switch=$2 ns=$3 addr=$4
  ip -n "$NETCLUSTER_FABRIC" link add "$end" type veth peer name eth0 netns "$ns"
  ip -n "$NETCLUSTER_FABRIC" link set "$end" master "$switch" up
  ip -n "$ns" addr add "$addr/16" dev eth0
  ip -n "$ns" link set eth0 up
}

# Leaf $1 (sI) joined to the top bridge by a veth: sIup on the leaf, sIdn
# on top. Each leaf has its own uplink, as a switch tree has, so one can
# be slowed alone.
netcluster_add_uplink() {
  ip -n "$NETCLUSTER_FABRIC" link add "${1}up" type veth peer name "${1}dn"
  ip -n "$NETCLUSTER_FABRIC" link set "${1}up" master "$1" up
  ip -n "$NETCLUSTER_FABRIC" link set "${1}dn" master top up
}

# Host hI on leaf $2: its namespace, its veth, its link shaped both ways.
netcluster_add_host() {
  local host=$1 leaf=$2 ns=$NETCLUSTER_PREFIX$1
  netcluster_make_ns "$ns"
  netcluster_attach "$host" "$leaf" "$ns" "$(netcluster_addr "$host")"
  netcluster_shape_host "$host" "$NETCLUSTER_MBIT"
}

# The leaf of host hI: hosts in equal blocks, h1.. on s1, then s2, ...
netcluster_leaf_of() {
  local i=${1#h}
  echo "s$(( (i - 1) * NETCLUSTER_LEAVES / NETCLUSTER_HOSTS + 1 ))"
}

# netcluster_start HOSTS LEAVES [MBIT]: the fabric (leaves s1..sLEAVES
# under top), the head namespace on top (unshaped: only mpirun's control
# traffic) and hosts h1..hHOSTS, every host link at MBIT both ways.
netcluster_start() {
  NETCLUSTER_HOSTS=$1 NETCLUSTER_LEAVES=$2 NETCLUSTER_MBIT=${3:-$NETCLUSTER_DEFAULT_MBIT}
  local i
  netcluster_make_ns "$NETCLUSTER_FABRIC"
  netcluster_add_switch top
  for i in $(seq 1 "$NETCLUSTER_LEAVES"); do
    netcluster_add_switch "s$i"
    netcluster_add_uplink "s$i"
  done
  netcluster_make_ns "${NETCLUSTER_PREFIX}head"
  netcluster_attach head top "${NETCLUSTER_PREFIX}head" "$NETCLUSTER_HEAD_ADDR"
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do
    netcluster_add_host "h$i" "$(netcluster_leaf_of "h$i")"
  done
  netcluster_wait_forwarding
}

# Waits until every bridge port forwards (without STP a port does at
# once; this only makes a fabric that failed to come up fail here, with
# its ports shown, rather than as an MPI start-up error), at most 5 s.
netcluster_wait_forwarding() {
  for _ in $(seq 1 50); do
    bridge -n "$NETCLUSTER_FABRIC" link show | grep -vq "state forwarding" || return 0
    sleep 0.1
  done
  echo "netcluster: bridge ports not forwarding:" >&2
  bridge -n "$NETCLUSTER_FABRIC" link show >&2
  return 1
}

# Runs a command on host $1 (or head): in its network namespace and a UTS
# namespace of its own with that host name, as an ssh to it would.
netcluster_exec() {
  local host=$1
  shift
  ip netns exec "$NETCLUSTER_PREFIX$host" unshare --uts -- sh -c 'hostname "$1" && shift && exec "$@"' netcluster "$host" "$@"
}

# A Slurm topology.conf of the cluster's tree (the names bwsurvey's
# --links.topology and slurmctld read): each leaf's hosts, top above.
netcluster_topology_conf() {
  local i
  for i in $(seq 1 "$NETCLUSTER_LEAVES"); do
    echo "SwitchName=s$i Nodes=$(netcluster_hosts_of_leaf "s$i")"
  done
  echo "SwitchName=top Switches=s[1-$NETCLUSTER_LEAVES]"
}

# The hosts of leaf $1, comma-separated.
netcluster_hosts_of_leaf() {
  local i out=()
  for i in $(seq 1 "$NETCLUSTER_HOSTS"); do
    [ "$(netcluster_leaf_of "h$i")" = "$1" ] && out+=("h$i")
  done
  (IFS=,; echo "${out[*]}")
}

. "$NETCLUSTER_LIB_DIR/netcluster_shaping.sh"
. "$NETCLUSTER_LIB_DIR/netcluster_mpi.sh"
. "$NETCLUSTER_LIB_DIR/netcluster_delay.sh"
