# shellcheck shell=bash
# Rates of the pretend cluster's links, and the faults made of them
# (sourced by netcluster.sh). This kernel has no netem: rates only, with
# tbf (one rate per link end) and htb (a rate per destination). A qdisc
# shapes what leaves its device, so a link is shaped both ways by shaping
# both ends of its veth.

# The token bucket of a link at $1 Mbit/s, in bytes: 1 ms of traffic, at
# least 64 KiB. Larger than a TSO/GSO packet (64 KiB), which tbf would
# otherwise cut up in software; small beside the MiB messages measured
# (64 KiB of a 16 MiB window lets 0.4 % through at line speed).
netcluster_burst_bytes() {
  local bytes=$(( $1 * 1000000 / 8 / 1000 ))
  [ "$bytes" -lt 196608 ] && bytes=196608
  echo "$bytes"
}

# Device $2 of namespace $1 sends at $3 Mbit/s at most. The queue holds
# 20 ms of traffic before it drops, so TCP keeps the link busy.
netcluster_tbf() {
  tc -n "$1" qdisc replace dev "$2" root tbf rate "${3}mbit" burst "$(netcluster_burst_bytes "$3")" latency 20ms
}

# Host $1's link at $2 Mbit/s both ways: its eth0 (what it sends) and the
# fabric's end of its veth (what it receives).
netcluster_shape_host() {
  netcluster_tbf "$NETCLUSTER_PREFIX$1" eth0 "$2"
  netcluster_tbf "$NETCLUSTER_FABRIC" "$1" "$2"
}

# Fault: host $1's NIC slow both ways, at $2 Mbit/s.
netcluster_slow_nic() {
  netcluster_shape_host "$1" "$2"
}

# Fault: what host $1 sends to host $2 goes at $3 Mbit/s; everything else
# it sends keeps the cluster's rate. An htb on $1's eth0 replaces its tbf:
# class 1:10 (the default) at the cluster's rate, class 1:20 at the slow
# rate, a u32 filter sends packets for $2's address to 1:20. ARP and other
# non-IP packets go to the default class.
netcluster_slow_pair() {
  local ns=$NETCLUSTER_PREFIX$1 dst slow=$3 fast=$NETCLUSTER_MBIT
  dst=$(netcluster_addr "$2")
  tc -n "$ns" qdisc replace dev eth0 root handle 1: htb default 10
  tc -n "$ns" class add dev eth0 parent 1: classid 1:10 htb rate "${fast}mbit" ceil "${fast}mbit" quantum 131072 \
    burst "$(netcluster_burst_bytes "$fast")"
  tc -n "$ns" class add dev eth0 parent 1: classid 1:20 htb rate "${slow}mbit" ceil "${slow}mbit" quantum 131072 \
    burst "$(netcluster_burst_bytes "$slow")"
  tc -n "$ns" filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$dst/32" flowid 1:20
}

# Fault: leaf $1's uplink (the veth between it and top) at $2 Mbit/s both
# ways: every path between its hosts and the other leaves' hosts.
netcluster_slow_uplink() {
  netcluster_tbf "$NETCLUSTER_FABRIC" "${1}up" "$2"
  netcluster_tbf "$NETCLUSTER_FABRIC" "${1}dn" "$2"
}

# Leaf $1's uplink unshaped again (its veth's default qdisc).
netcluster_clear_uplink() {
  tc -n "$NETCLUSTER_FABRIC" qdisc del dev "${1}up" root 2>/dev/null || true
  tc -n "$NETCLUSTER_FABRIC" qdisc del dev "${1}dn" root 2>/dev/null || true
}

# netcluster_measure_mbit SRC DST MIB: one TCP transfer of MIB MiB from
# host SRC to host DST (tests/netcluster/tcp_rate.py); prints the Mbit/s
# the receiver saw. The receiver listens in DST's namespace, where port
# 5201 is free whatever runs beside the test.
netcluster_measure_mbit() {
  local out=$NETCLUSTER_WORK/rate-$1-$2.txt receiver
  ip netns exec "$NETCLUSTER_PREFIX$2" /usr/bin/python3 "$NETCLUSTER_LIB_DIR/tcp_rate.py" receive 5201 >"$out" &
  receiver=$!
  ip netns exec "$NETCLUSTER_PREFIX$1" /usr/bin/python3 "$NETCLUSTER_LIB_DIR/tcp_rate.py" send \
    "$(netcluster_addr "$2")" 5201 "$3"
  wait "$receiver"
  cat "$out"
}
