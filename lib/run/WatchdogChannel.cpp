#include "run/WatchdogChannel.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <sstream>

namespace bws::run {
namespace {

constexpr const char* kAnswerTag = "bwsurvey-watchdog";

// A listening socket on every interface, port 0; -1 when it cannot be made.
int listen_on(int family) {
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int ok = 0;
  if (family == AF_INET6) {
    const int v6only = 0;  // IPv4 connections too (as ::ffff:a.b.c.d)
    ok = ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_any;
    if (ok == 0) ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  } else {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  }
  if (ok == 0) ok = ::listen(fd, SOMAXCONN);
  if (ok != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::uint16_t port_of(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

}  // namespace

std::string endpoint_text(const WatchdogEndpoint& endpoint) {
  std::string text = std::to_string(endpoint.port);
  for (const std::string& address : endpoint.addresses) text += " " + address;
  return text;
}

WatchdogEndpoint parse_endpoint(int rank, const std::string& text) {
  WatchdogEndpoint endpoint;
  endpoint.rank = rank;
  std::istringstream in(text);
  long port = 0;
  if (!(in >> port) || port <= 0 || port > 65535) return endpoint;
  endpoint.port = static_cast<std::uint16_t>(port);
  for (std::string address; in >> address;) endpoint.addresses.push_back(address);
  return endpoint;
}

std::vector<std::string> reachable_addresses(bool ipv6) {
  std::vector<std::string> addresses;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) == 0) {
    for (const ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
      if (entry->ifa_addr == nullptr || (entry->ifa_flags & IFF_UP) == 0 || (entry->ifa_flags & IFF_LOOPBACK) != 0)
        continue;
      char text[INET6_ADDRSTRLEN] = {};
      if (entry->ifa_addr->sa_family == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr, text, sizeof text);
      } else if (ipv6 && entry->ifa_addr->sa_family == AF_INET6) {
        const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(entry->ifa_addr)->sin6_addr;
        if (IN6_IS_ADDR_LINKLOCAL(&a) || IN6_IS_ADDR_LOOPBACK(&a)) continue;  // link-local needs a scope id
        ::inet_ntop(AF_INET6, &a, text, sizeof text);
      }
      if (text[0] != '\0' && std::find(addresses.begin(), addresses.end(), text) == addresses.end())
        addresses.emplace_back(text);
    }
    ::freeifaddrs(list);
  }
  addresses.emplace_back("127.0.0.1");
  return addresses;
}

std::string answer_line(std::uint64_t nonce, int rank, const std::string& position) {
  return std::string(kAnswerTag) + " " + std::to_string(nonce) + " " + std::to_string(rank) + " " + position + "\n";
}

bool parse_answer(const std::string& line, std::uint64_t nonce, int rank, std::string* position) {
  std::istringstream in(line);
  std::string tag;
  unsigned long long their_nonce = 0;
  int their_rank = -1;
  if (!(in >> tag >> their_nonce >> their_rank) || tag != kAnswerTag || their_nonce != nonce || their_rank != rank)
    return false;
  std::string rest;
  std::getline(in, rest);
  const auto first = rest.find_first_not_of(' ');
  rest = first == std::string::npos ? std::string() : rest.substr(first);
  if (rest.empty() || line.back() != '\n') return false;
  *position = rest;
  return true;
}

PositionListener::PositionListener() {
  fd_ = listen_on(AF_INET6);
  ipv6_ = fd_ >= 0;
  if (fd_ < 0) fd_ = listen_on(AF_INET);
  if (fd_ >= 0) port_ = port_of(fd_);
}

PositionListener::~PositionListener() {
  if (fd_ >= 0) ::close(fd_);
}

WatchdogEndpoint PositionListener::endpoint(int rank) const {
  WatchdogEndpoint endpoint;
  endpoint.rank = rank;
  if (fd_ < 0 || port_ == 0) return endpoint;
  endpoint.port = port_;
  endpoint.addresses = reachable_addresses(ipv6_);
  return endpoint;
}

void PositionListener::answer_pending(const std::string& line) {
  if (fd_ < 0) return;
  for (;;) {
    const int connection = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (connection < 0) return;  // EAGAIN: none left (or an error: nothing to answer)
    // A fresh socket's buffer holds the short line: one send, never blocking.
    [[maybe_unused]] const ssize_t sent = ::send(connection, line.data(), line.size(), MSG_NOSIGNAL);
    ::close(connection);
  }
}

std::size_t max_open_sockets() {
  constexpr std::size_t kMost = 512;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kMost;
  // Leave half the descriptors to HDF5, MPI and the rest of the process.
  return std::clamp<std::size_t>(static_cast<std::size_t>(limit.rlim_cur) / 2, 1, kMost);
}

}  // namespace bws::run
