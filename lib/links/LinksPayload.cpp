#include "links/LinksPayload.hpp"

#include <algorithm>
#include <cstring>

namespace bws::links {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t payload_word(const PayloadStamp& s, std::uint64_t word) {
  const std::uint64_t who = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.sender)) << 32) |
                            static_cast<std::uint32_t>(s.receiver);
  return splitmix64(splitmix64(who ^ splitmix64(static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.round)))) + word);
}

void stamp_payload(std::span<std::byte> message, const PayloadStamp& stamp) {
  for (std::size_t at = 0, word = 0; at < message.size(); at += 8, ++word) {
    const std::uint64_t value = payload_word(stamp, word);
    std::memcpy(message.data() + at, &value, std::min<std::size_t>(8, message.size() - at));
  }
}

std::uint64_t payload_problems(std::span<const std::byte> message, const PayloadStamp& stamp) {
  std::uint64_t problems = 0;
  for (std::size_t at = 0, word = 0; at < message.size(); at += 8, ++word) {
    const std::uint64_t value = payload_word(stamp, word);
    if (std::memcmp(message.data() + at, &value, std::min<std::size_t>(8, message.size() - at)) != 0) ++problems;
  }
  return problems;
}

}  // namespace bws::links
