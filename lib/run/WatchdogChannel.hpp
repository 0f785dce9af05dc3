#pragma once
// The watchdogs' own channel, outside MPI: rank 0's watchdog asks the other
// ranks' watchdogs where their main thread is over TCP, so that MPI never
// has to be called from the watchdog thread (MPI_THREAD_MULTIPLE makes
// Open MPI lock on every call: twice the ring latency).
//
// Every rank but 0 listens on an ephemeral port; its endpoint (port and the
// host's addresses) reaches rank 0 through MPI at start-up, on the main
// thread. A connection is answered at once with one line that names the
// job (a nonce from rank 0) and the rank, so a wrong address (a bridge
// found on every host, loopback on another host) is told from the right one.
// No MPI here: unit-tested over loopback.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bws::run {

struct WatchdogEndpoint {
  int rank = 0;
  std::uint16_t port = 0;               // 0: this rank could not listen
  std::vector<std::string> addresses;   // numeric IPv4/IPv6, tried in order
};

// "port addr addr ..." and back (the text rank 0 gathers); a malformed
// text gives an endpoint with port 0.
std::string endpoint_text(const WatchdogEndpoint& endpoint);
WatchdogEndpoint parse_endpoint(int rank, const std::string& text);

// The host's addresses other ranks may reach: non-loopback IPv4, global
// IPv6 (when `ipv6`), then 127.0.0.1 (same host, pretend nodes).
std::vector<std::string> reachable_addresses(bool ipv6);

// The answer line and its check.
std::string answer_line(std::uint64_t nonce, int rank, const std::string& position);
// The position when `line` answers for `rank` of the job `nonce`; else false.
bool parse_answer(const std::string& line, std::uint64_t nonce, int rank, std::string* position);

// One rank's listening socket (non-blocking, all interfaces, port 0).
class PositionListener {
 public:
  PositionListener();
  ~PositionListener();
  PositionListener(const PositionListener&) = delete;
  PositionListener& operator=(const PositionListener&) = delete;

  int fd() const { return fd_; }  // poll it for POLLIN; -1 when it could not listen
  WatchdogEndpoint endpoint(int rank) const;
  // Accepts every pending connection and sends it `line`; never blocks.
  void answer_pending(const std::string& line);

 private:
  int fd_ = -1;
  bool ipv6_ = false;
  std::uint16_t port_ = 0;
};

// Rank 0: connects to every endpoint at once (at most `max_open` sockets
// open together, each address given `attempt_seconds`) and returns the
// positions of the ranks that answered within `budget_seconds` in all.
std::map<int, std::string> ask_positions(const std::vector<WatchdogEndpoint>& endpoints, std::uint64_t nonce,
                                         double budget_seconds, double attempt_seconds, std::size_t max_open);

// The number of sockets rank 0 may keep open at once: 512, less when
// RLIMIT_NOFILE is low.
std::size_t max_open_sockets();

}  // namespace bws::run
