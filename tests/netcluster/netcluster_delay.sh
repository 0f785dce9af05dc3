# shellcheck shell=bash
# A fixed delay on one host's link (sourced by netcluster.sh). This kernel
# has no netem, so tc cannot delay: a user-space relay
# (tests/netcluster/link_delay_relay.cpp) does. The host's veth end in the
# fabric (hI, still shaped by its tbf) leaves its leaf bridge; a second
# veth hIr-hIb joins the bridge instead (hIb a port of the leaf), and the
# relay, a process in the fabric namespace, copies every frame between hI
# and hIr, each DELAY_MS after it arrived. Being in the fabric namespace,
# the relay is ended with it by netcluster_cleanup, the trap or the reaper.

# The relay's binary: the caller sets it (ctest passes the build's).
NETCLUSTER_RELAY=${NETCLUSTER_RELAY:-}

# netcluster_delay_host HOST MS: MS milliseconds added each way on HOST's
# link (a round trip to HOST rises by 2 x MS). Once per host; the rates of
# the host's link stay as they were (both tbfs are untouched).
netcluster_delay_host() {
  local host=$1 ms=$2 leaf log relay
  [ -x "$NETCLUSTER_RELAY" ] || { echo "netcluster: NETCLUSTER_RELAY is not the relay's binary: '$NETCLUSTER_RELAY'" >&2; return 1; }
  leaf=$(netcluster_leaf_of "$host")
  log=$NETCLUSTER_WORK/relay-$host.log
  ip -n "$NETCLUSTER_FABRIC" link add "${host}r" type veth peer name "${host}b"
  ip -n "$NETCLUSTER_FABRIC" link set "${host}b" master "$leaf" up
  ip -n "$NETCLUSTER_FABRIC" link set "${host}r" up
  ip -n "$NETCLUSTER_FABRIC" link set "$host" nomaster
  ip netns exec "$NETCLUSTER_FABRIC" "$NETCLUSTER_RELAY" "$host" "${host}r" "$ms" </dev/null >"$log" 2>&1 &
  # Out of the job table: the cleanup kills it, and the shell would say so.
  relay=$!
  disown "$relay"
  # The relay says "ready" once it reads both interfaces.
  for _ in $(seq 1 50); do
    grep -q '^ready' "$log" 2>/dev/null && { netcluster_wait_forwarding; return; }
    kill -0 "$relay" 2>/dev/null || break
    sleep 0.1
  done
  echo "netcluster: the delay relay of $host did not start:" >&2
  cat "$log" >&2
  return 1
}

# netcluster_udp_rtt_ms SRC DST: the best round trip, in ms, of 20 small
# UDP messages from host SRC to an echo on host DST (this machine has no
# ping; tests/netcluster/udp_rtt.py).
netcluster_udp_rtt_ms() {
  local echo_pid rtt
  ip netns exec "$NETCLUSTER_PREFIX$2" /usr/bin/python3 "$NETCLUSTER_LIB_DIR/udp_rtt.py" echo 5202 &
  echo_pid=$!
  rtt=$(ip netns exec "$NETCLUSTER_PREFIX$1" /usr/bin/python3 "$NETCLUSTER_LIB_DIR/udp_rtt.py" ping \
    "$(netcluster_addr "$2")" 5202 20)
  kill "$echo_pid" 2>/dev/null
  wait "$echo_pid" 2>/dev/null
  echo "$rtt"
}
