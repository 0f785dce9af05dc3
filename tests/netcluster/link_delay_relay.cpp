// A fixed delay on one link of the pretend cluster (tests/netcluster/
// netcluster.sh, netcluster_delay_host), in user space: this kernel has no
// netem. Every Ethernet frame that arrives on interface A leaves on B, and
// every one that arrives on B leaves on A, DELAY_MS after it arrived, in
// order: a queue per direction, drained by a poll that wakes when the
// oldest frame is due.
//
// The frames are read and written by AF_PACKET sockets with a virtio-net
// header (PACKET_VNET_HDR): a TCP segmentation (GSO) packet of up to 64 KiB
// crosses a veth whole, and the header carries its segment size and
// checksum offsets, so it is written out whole as what it is, and the
// kernel accepts it above the MTU. Without the header the relay would have
// to turn offloads off on every host's veth (no ethtool here) and relay
// 40 times as many frames.
//
// usage: link_delay_relay IFACE_A IFACE_B DELAY_MS
// Prints "ready" once both sockets are bound (the caller waits for it);
// ends on SIGTERM/SIGINT, printing what it relayed, or when an interface
// goes away.
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <vector>

namespace {

struct Frame {
  std::int64_t due_ns;
  std::vector<unsigned char> bytes;  // virtio-net header, then the frame
};

// One way through the relay: frames read from `from`, written to `to`.
struct Direction {
  int from = -1, to = -1;
  std::deque<Frame> queue;
  std::size_t queued_bytes = 0;
  std::uint64_t relayed = 0, dropped = 0;
};

// What one direction may hold: far above what a 400 Mbit/s link carries in
// a few ms (100 KB in 2 ms); a full queue drops, as a switch's would.
constexpr std::size_t kMaxQueuedBytes = std::size_t{32} << 20;
// A GSO packet is at most 64 KiB by default; room for a larger one.
constexpr std::size_t kMaxFrameBytes = std::size_t{256} << 10;
// Socket buffers for the bursts between two wake-ups, and for the frames a
// shaped interface (tbf) still holds.
constexpr int kSocketBufferBytes = 32 << 20;

volatile sig_atomic_t stop_requested = 0;
void request_stop(int) { stop_requested = 1; }

std::int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

void set_option(int fd, int level, int name, int value, const char* what) {
  if (setsockopt(fd, level, name, &value, sizeof value) != 0) {
    std::fprintf(stderr, "link_delay_relay: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
  }
}

// A raw socket on interface `name`, in promiscuous mode (the frames are for
// other hosts' addresses). Made with protocol 0 and bound with ETH_P_ALL, so
// no frame of another interface slips in before the bind.
int open_port(const char* name) {
  const unsigned index = if_nametoindex(name);
  if (index == 0) {
    std::fprintf(stderr, "link_delay_relay: no interface %s\n", name);
    std::exit(1);
  }
  const int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    std::perror("link_delay_relay: socket");
    std::exit(1);
  }
  set_option(fd, SOL_PACKET, PACKET_VNET_HDR, 1, "PACKET_VNET_HDR");
  // The frames this socket writes would come back to it as outgoing.
  set_option(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, 1, "PACKET_IGNORE_OUTGOING");
  set_option(fd, SOL_SOCKET, SO_RCVBUFFORCE, kSocketBufferBytes, "SO_RCVBUFFORCE");
  set_option(fd, SOL_SOCKET, SO_SNDBUFFORCE, kSocketBufferBytes, "SO_SNDBUFFORCE");
  sockaddr_ll address{};
  address.sll_family = AF_PACKET;
  address.sll_protocol = htons(ETH_P_ALL);
  address.sll_ifindex = static_cast<int>(index);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    std::perror("link_delay_relay: bind");
    std::exit(1);
  }
  packet_mreq promiscuous{};
  promiscuous.mr_ifindex = static_cast<int>(index);
  promiscuous.mr_type = PACKET_MR_PROMISC;
  if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &promiscuous, sizeof promiscuous) != 0) {
    std::perror("link_delay_relay: promiscuous mode");
    std::exit(1);
  }
  return fd;
}

// Reads every frame waiting on d.from into d's queue, due `delay_ns` from now.
void take_arrivals(Direction& d, std::int64_t delay_ns, std::vector<unsigned char>& buffer) {
  for (;;) {
    const ssize_t got = recv(d.from, buffer.data(), buffer.size(), MSG_TRUNC);
    if (got < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      std::fprintf(stderr, "link_delay_relay: recv: %s\n", std::strerror(errno));
      std::exit(errno == ENETDOWN || errno == ENXIO ? 0 : 1);
    }
    const auto size = static_cast<std::size_t>(got);
    if (size > buffer.size() || d.queued_bytes + size > kMaxQueuedBytes) {
      ++d.dropped;
      continue;
    }
    d.queue.push_back({now_ns() + delay_ns, std::vector<unsigned char>(buffer.begin(), buffer.begin() + got)});
    d.queued_bytes += size;
  }
}

// Writes the frames of d that are due. A frame the interface refuses (its
// shaper's queue is full) is dropped, as a full switch port drops it.
void release_due(Direction& d, std::int64_t now) {
  while (!d.queue.empty() && d.queue.front().due_ns <= now) {
    const Frame& f = d.queue.front();
    if (send(d.to, f.bytes.data(), f.bytes.size(), MSG_DONTWAIT) < 0)
      ++d.dropped;
    else
      ++d.relayed;
    d.queued_bytes -= f.bytes.size();
    d.queue.pop_front();
  }
}

// How long poll may sleep: until the earliest due frame, or indefinitely.
bool next_wakeup(const Direction (&ways)[2], std::int64_t now, timespec& wait) {
  std::int64_t due = INT64_MAX;
  for (const Direction& d : ways)
    if (!d.queue.empty()) due = std::min(due, d.queue.front().due_ns);
  if (due == INT64_MAX) return false;
  const std::int64_t left = std::max<std::int64_t>(0, due - now);
  wait = {static_cast<time_t>(left / 1000000000), static_cast<long>(left % 1000000000)};
  return true;
}

// Whether the socket's error says its interface went away (its namespace
// was deleted): then there is nothing left to relay.
bool interface_gone(int fd) {
  int error = 0;
  socklen_t size = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) return true;
  if (error != 0 && error != ENETDOWN && error != ENXIO)
    std::fprintf(stderr, "link_delay_relay: socket error %s\n", std::strerror(error));
  return error == ENETDOWN || error == ENXIO;
}

// A real-time priority where allowed: on a loaded machine a frame's delay
// is then the one asked for, not that plus the scheduler's. The relay
// sleeps between frames, so it cannot starve anything.
void prefer_real_time() {
  sched_param priority{};
  priority.sched_priority = 1;
  if (sched_setscheduler(0, SCHED_FIFO, &priority) != 0)
    std::fprintf(stderr, "link_delay_relay: no real-time priority (%s): delays may run late on a busy machine\n",
                 std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: link_delay_relay IFACE_A IFACE_B DELAY_MS\n");
    return 2;
  }
  char* end = nullptr;
  const double delay_ms = std::strtod(argv[3], &end);
  if (end == argv[3] || *end != '\0' || !(delay_ms >= 0) || delay_ms > 10000) {
    std::fprintf(stderr, "link_delay_relay: DELAY_MS must be a number of ms from 0 to 10000\n");
    return 2;
  }
  const auto delay_ns = static_cast<std::int64_t>(delay_ms * 1e6);
  struct sigaction on_stop {};
  on_stop.sa_handler = request_stop;
  sigaction(SIGTERM, &on_stop, nullptr);
  sigaction(SIGINT, &on_stop, nullptr);
  prefer_real_time();

  const int a = open_port(argv[1]), b = open_port(argv[2]);
  Direction ways[2];
  ways[0].from = a, ways[0].to = b;
  ways[1].from = b, ways[1].to = a;
  std::printf("ready: %s <-> %s, %.3f ms each way\n", argv[1], argv[2], delay_ms);
  std::fflush(stdout);

  std::vector<unsigned char> buffer(kMaxFrameBytes);
  pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
  while (!stop_requested) {
    timespec wait{};
    const bool timed = next_wakeup(ways, now_ns(), wait);
    if (ppoll(fds, 2, timed ? &wait : nullptr, nullptr) < 0 && errno != EINTR) {
      std::perror("link_delay_relay: ppoll");
      return 1;
    }
    for (int i = 0; i < 2; ++i) {
      if ((fds[i].revents & (POLLERR | POLLHUP | POLLNVAL)) && interface_gone(fds[i].fd)) {
        std::fprintf(stderr, "link_delay_relay: %s went away\n", argv[1 + i]);
        return 0;
      }
      if (fds[i].revents & POLLIN) take_arrivals(ways[i], delay_ns, buffer);
    }
    const std::int64_t now = now_ns();
    for (Direction& d : ways) release_due(d, now);
  }
  std::printf("stopped: %s -> %s %llu frames (%llu dropped), %s -> %s %llu frames (%llu dropped)\n", argv[1], argv[2],
              static_cast<unsigned long long>(ways[0].relayed), static_cast<unsigned long long>(ways[0].dropped),
              argv[2], argv[1], static_cast<unsigned long long>(ways[1].relayed),
              static_cast<unsigned long long>(ways[1].dropped));
  return 0;
}
