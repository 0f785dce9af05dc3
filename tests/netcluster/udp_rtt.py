#!/usr/bin/env python3
"""Round trips of small UDP messages between two pretend hosts, as ping
would time them (this machine has no ping): tests/netcluster/
netcluster_delay.sh, netcluster_udp_rtt_ms.

  udp_rtt.py echo PORT            sends every datagram back, until killed
  udp_rtt.py ping ADDR PORT N     N timed round trips after one untimed
                                  (retried for 5 s while the echo starts);
                                  prints the best in ms (ping's "min": what
                                  a busy machine adds is only ever added)
"""
import socket
import sys
import time


def echo(port):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", port))
        while True:
            data, peer = s.recvfrom(64)
            s.sendto(data, peer)


def round_trip(s, addr, seq):
    start = time.monotonic()
    s.sendto(seq.to_bytes(4, "big"), addr)
    while True:
        data, _ = s.recvfrom(64)
        if int.from_bytes(data, "big") == seq:
            return time.monotonic() - start


def ping(host, port, count):
    addr = (host, port)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(0.2)
        deadline = time.monotonic() + 5
        seq = 0
        while True:  # the first answer: the echo is up, ARP is done
            try:
                round_trip(s, addr, seq)
                break
            except socket.timeout:
                if time.monotonic() > deadline:
                    sys.exit("no echo from %s:%d" % addr)
                seq += 1
        s.settimeout(2)
        times = [round_trip(s, addr, seq + 1 + k) for k in range(count)]
    print("%.3f" % (min(times) * 1e3))


if __name__ == "__main__":
    if sys.argv[1] == "echo":
        echo(int(sys.argv[2]))
    else:
        ping(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
