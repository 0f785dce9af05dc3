// Rank 0's side of the watchdog channel (WatchdogChannel.hpp): every
// endpoint asked at once with non-blocking connects and one poll(), so that
// 10,000 ranks take one attempt's time, not 10,000; at most `max_open`
// sockets open together, to stay under RLIMIT_NOFILE.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/SteadyClock.hpp"
#include "run/WatchdogChannel.hpp"

namespace bws::run {
namespace {

constexpr std::size_t kMostAnswerBytes = 512;

// A non-blocking connect under way to one address; -1 when it failed at once.
int start_connect(const std::string& address, std::uint16_t port) {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = AF_INET;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (::inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    length = sizeof *v4;
  } else if (::inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
    family = AF_INET6;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    length = sizeof *v6;
  } else {
    return -1;
  }
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&storage), length) == 0 || errno == EINPROGRESS) return fd;
  ::close(fd);
  return -1;
}

struct Attempt {
  const WatchdogEndpoint* endpoint = nullptr;
  std::size_t address = 0;  // index into endpoint->addresses
  int fd = -1;
  bool connected = false;
  double give_up = 0;
  std::string received;
};

class Asker {
 public:
  Asker(std::uint64_t nonce, double attempt_seconds) : nonce_(nonce), attempt_seconds_(attempt_seconds) {}

  // Starts `attempt` at its address or the next one that can be tried;
  // false when none is left (the rank stays unanswered).
  bool start(Attempt& attempt, double now) {
    const WatchdogEndpoint& endpoint = *attempt.endpoint;
    for (; endpoint.port != 0 && attempt.address < endpoint.addresses.size(); ++attempt.address) {
      attempt.fd = start_connect(endpoint.addresses[attempt.address], endpoint.port);
      if (attempt.fd < 0) continue;
      attempt.connected = false;
      attempt.received.clear();
      attempt.give_up = now + attempt_seconds_;
      return true;
    }
    return false;
  }

  // Closes the attempt's socket and moves on to its next address.
  bool retry(Attempt& attempt, double now) {
    ::close(attempt.fd);
    attempt.fd = -1;
    ++attempt.address;
    return start(attempt, now);
  }

  // Handles poll()'s events; false when the attempt is over (answered, or
  // no address left).
  bool progress(Attempt& attempt, short revents, double now, std::map<int, std::string>& answers) {
    if (!attempt.connected && revents != 0) {
      int error = 0;
      socklen_t length = sizeof error;
      if (::getsockopt(attempt.fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0)
        return retry(attempt, now);
      attempt.connected = true;
      return true;
    }
    if (attempt.connected && revents != 0) {
      char bytes[256];
      const ssize_t n = ::recv(attempt.fd, bytes, sizeof bytes, 0);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
      if (n > 0) attempt.received.append(bytes, static_cast<std::size_t>(n));
      const bool complete = n <= 0 || attempt.received.find('\n') != std::string::npos;
      if (n > 0 && !complete && attempt.received.size() < kMostAnswerBytes) return true;
      std::string position;
      const std::string line = attempt.received.substr(0, attempt.received.find('\n') + 1);
      if (!parse_answer(line, nonce_, attempt.endpoint->rank, &position)) return retry(attempt, now);
      answers[attempt.endpoint->rank] = position;
      ::close(attempt.fd);
      attempt.fd = -1;
      return false;
    }
    if (now >= attempt.give_up) return retry(attempt, now);
    return true;
  }

 private:
  std::uint64_t nonce_;
  double attempt_seconds_;
};

}  // namespace

std::map<int, std::string> ask_positions(const std::vector<WatchdogEndpoint>& endpoints, std::uint64_t nonce,
                                         double budget_seconds, double attempt_seconds, std::size_t max_open) {
  std::map<int, std::string> answers;
  Asker asker(nonce, attempt_seconds);
  const double until = steady_seconds() + budget_seconds;
  max_open = std::max<std::size_t>(max_open, 1);
  std::vector<Attempt> open;
  std::vector<pollfd> fds;
  std::size_t next = 0;
  for (double now = steady_seconds(); now < until; now = steady_seconds()) {
    while (open.size() < max_open && next < endpoints.size()) {
      Attempt attempt;
      attempt.endpoint = &endpoints[next++];
      if (asker.start(attempt, now)) open.push_back(std::move(attempt));
    }
    if (open.empty()) break;
    fds.clear();
    double wake = until;
    for (const Attempt& attempt : open) {
      fds.push_back(pollfd{attempt.fd, static_cast<short>(attempt.connected ? POLLIN : POLLOUT), 0});
      wake = std::min(wake, attempt.give_up);
    }
    const int wait_ms = std::max(0, static_cast<int>((wake - now) * 1000) + 1);
    if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) break;
    now = steady_seconds();
    std::vector<Attempt> still;
    for (std::size_t i = 0; i < open.size(); ++i)
      if (asker.progress(open[i], fds[i].revents, now, answers)) still.push_back(std::move(open[i]));
    open.swap(still);
  }
  for (const Attempt& attempt : open) ::close(attempt.fd);
  return answers;
}

}  // namespace bws::run
