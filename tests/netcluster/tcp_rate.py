#!/usr/bin/env python3
"""One TCP transfer between two pretend hosts, to measure what a link's
shaping lets through (tests/netcluster/shaping_test.sh).

  tcp_rate.py receive PORT       accepts one connection, reads it to the
                                 end, prints the rate in Mbit/s (from the
                                 first byte to the last: connecting is not
                                 counted)
  tcp_rate.py send ADDR PORT MB  sends MB MiB (connects with retries for
                                 5 s, while the receiver starts)
"""
import socket
import sys
import time

CHUNK = 1 << 20


def receive(port):
    with socket.create_server(("0.0.0.0", port)) as server:
        server.settimeout(30)
        conn, _ = server.accept()
        with conn:
            conn.settimeout(30)
            first = conn.recv(CHUNK)
            start = time.monotonic()
            total = 0
            while True:
                data = conn.recv(CHUNK)
                if not data:
                    break
                total += len(data)
            seconds = time.monotonic() - start
    del first  # its bytes arrived before the clock started
    print(f"{total * 8 / seconds / 1e6:.1f}")


def send(addr, port, mib):
    deadline = time.monotonic() + 5
    while True:
        try:
            conn = socket.create_connection((addr, port), timeout=5)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    with conn:
        block = b"\0" * CHUNK
        for _ in range(mib):
            conn.sendall(block)


if __name__ == "__main__":
    if sys.argv[1] == "receive":
        receive(int(sys.argv[2]))
    else:
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
