#include "beff/BeffPayload.hpp"

#include <algorithm>
#include <cstring>

namespace bws::beff {
namespace {

// SplitMix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::uint64_t stamp_key(const PayloadStamp& s) {
  const std::uint64_t who = (std::uint64_t{s.sender} << 32) | s.iteration;
  return mix(mix(mix(who) ^ s.message_bytes) ^ static_cast<std::uint64_t>(s.direction));
}

std::uint32_t stamp_hash24(const PayloadStamp& s, std::uint64_t offset) {
  return static_cast<std::uint32_t>(mix(stamp_key(s) ^ offset) & 0xFFFFFFu);
}

struct StampWords {
  std::uint32_t w[4];
};

StampWords stamp_words(const PayloadStamp& s, std::uint64_t offset) {
  return {{s.sender, s.iteration, static_cast<std::uint32_t>(s.message_bytes),
           static_cast<std::uint32_t>(s.direction) | (stamp_hash24(s, offset) << 8)}};
}

// Offsets of the 16-byte stamps of a message of >= 32 bytes: 0, every
// 4096th byte while it stays clear of the last stamp, and L - 16.
template <class Visit>
void for_each_stamp_offset(std::uint64_t message_bytes, Visit visit) {
  const std::uint64_t last = message_bytes - kStampBytes;
  for (std::uint64_t offset = 0; offset + kStampBytes <= last; offset += kStampStrideBytes)
    if (!visit(offset)) return;
  visit(last);
}

// A short message is filled with hash words: byte i is byte i % 8 of
// mix(key ^ i / 8) (little-endian), one hash per 8 bytes so that the 8-byte
// latency exchange pays a few nanoseconds for it, not one hash per byte.
std::uint64_t short_word(std::uint64_t key, std::uint64_t block) { return mix(key ^ block); }

void fill_short(std::byte* message, std::uint64_t message_bytes, std::uint64_t key) {
  for (std::uint64_t at = 0; at < message_bytes; at += 8) {
    const std::uint64_t word = short_word(key, at / 8);
    std::memcpy(message + at, &word, std::min<std::uint64_t>(8, message_bytes - at));
  }
}

bool short_message_matches(const std::byte* message, std::uint64_t message_bytes, const PayloadStamp& s) {
  const std::uint64_t key = stamp_key(s);
  for (std::uint64_t at = 0; at < message_bytes; at += 8) {
    const std::uint64_t word = short_word(key, at / 8);
    if (std::memcmp(message + at, &word, std::min<std::uint64_t>(8, message_bytes - at)) != 0) return false;
  }
  return true;
}

// A short message carries no fields to read back: try the likely wrong
// stamps (an iteration or two off, the other direction) to name the problem.
PayloadProblem check_short_message(const std::byte* message, std::uint64_t message_bytes,
                                   const PayloadStamp& expected) {
  if (short_message_matches(message, message_bytes, expected)) return PayloadProblem::None;
  // A leftover of the last iteration is the likeliest fault, so it is tried
  // first: a 1-byte message can match several candidates by chance.
  PayloadStamp other = expected;
  for (std::uint32_t delta : {1u, 2u}) {
    other.iteration = expected.iteration - delta;
    if (short_message_matches(message, message_bytes, other)) return PayloadProblem::Stale;
    other.iteration = expected.iteration + delta;
    if (short_message_matches(message, message_bytes, other)) return PayloadProblem::Stale;
  }
  other = expected;
  other.direction = expected.direction == Direction::Rightward ? Direction::Leftward : Direction::Rightward;
  if (short_message_matches(message, message_bytes, other)) return PayloadProblem::WrongDirection;
  return PayloadProblem::Corrupted;
}

PayloadProblem check_stamp(const std::byte* at, std::uint64_t offset, const PayloadStamp& expected) {
  StampWords got;
  std::memcpy(got.w, at, kStampBytes);
  PayloadStamp found;
  found.sender = got.w[0];
  found.iteration = got.w[1];
  found.direction = static_cast<Direction>(got.w[3] & 0xFFu);
  // The hash covers the full 64-bit size; a stamp only holds its low 32
  // bits, which is all a message of at most 2 GiB needs.
  found.message_bytes = got.w[2];
  if ((found.direction != Direction::Rightward && found.direction != Direction::Leftward) ||
      (got.w[3] >> 8) != stamp_hash24(found, offset))
    return PayloadProblem::Corrupted;
  if (found.sender != expected.sender) return PayloadProblem::Misrouted;
  if (found.message_bytes != static_cast<std::uint32_t>(expected.message_bytes)) return PayloadProblem::WrongSize;
  if (found.direction != expected.direction) return PayloadProblem::WrongDirection;
  if (found.iteration != expected.iteration) return PayloadProblem::Stale;
  return PayloadProblem::None;
}

}  // namespace

void stamp_message(std::byte* message, std::uint64_t message_bytes, const PayloadStamp& stamp) {
  if (message_bytes < kShortMessageBytes) {
    fill_short(message, message_bytes, stamp_key(stamp));
    return;
  }
  PayloadStamp low = stamp;
  low.message_bytes = static_cast<std::uint32_t>(stamp.message_bytes);  // what the stamp can hold
  for_each_stamp_offset(message_bytes, [&](std::uint64_t offset) {
    const StampWords words = stamp_words(low, offset);
    std::memcpy(message + offset, words.w, kStampBytes);
    return true;
  });
}

PayloadProblem check_message(const std::byte* message, std::uint64_t message_bytes, const PayloadStamp& expected) {
  if (message_bytes < kShortMessageBytes) return check_short_message(message, message_bytes, expected);
  PayloadProblem problem = PayloadProblem::None;
  for_each_stamp_offset(message_bytes, [&](std::uint64_t offset) {
    problem = check_stamp(message + offset, offset, expected);
    return problem == PayloadProblem::None;
  });
  return problem;
}

namespace {

std::uint64_t pattern_key(std::uint32_t sender, Direction direction) {
  return mix(mix(0x5eedb0d1ULL ^ (std::uint64_t{sender} << 8)) ^ static_cast<std::uint64_t>(direction));
}

std::byte pattern_byte(std::uint64_t key, std::uint64_t offset) {
  const std::uint64_t word = mix(key ^ (offset / 8));
  return static_cast<std::byte>((word >> (8 * (offset % 8))) & 0xFFu);
}

bool pattern_matches(const std::byte* message, std::uint64_t begin, std::uint64_t end, std::uint64_t key) {
  for (std::uint64_t o = begin; o < end; ++o)
    if (message[o] != pattern_byte(key, o)) return false;
  return true;
}

}  // namespace

void fill_device_pattern(std::byte* message, std::uint64_t bytes, std::uint32_t sender, Direction direction) {
  // pattern_byte's bytes, one hash per 8 (every timed run on the PCIe path refills it).
  const std::uint64_t key = pattern_key(sender, direction);
  for (std::uint64_t at = 0; at < bytes; at += 8) {
    const std::uint64_t word = mix(key ^ (at / 8));
    for (std::uint64_t o = at; o < std::min<std::uint64_t>(bytes, at + 8); ++o)
      message[o] = static_cast<std::byte>((word >> (8 * (o - at))) & 0xFFu);
  }
}

PayloadProblem check_device_message(const std::byte* message, std::uint64_t message_bytes,
                                    const PayloadStamp& expected) {
  const PayloadProblem stamps = check_message(message, message_bytes, expected);
  if (stamps != PayloadProblem::None || message_bytes < kShortMessageBytes) return stamps;
  const std::uint64_t key = pattern_key(expected.sender, expected.direction);
  std::uint64_t body_begin = 0;
  bool body_ok = true;
  for_each_stamp_offset(message_bytes, [&](std::uint64_t offset) {
    body_ok = body_ok && pattern_matches(message, body_begin, offset, key);
    body_begin = offset + kStampBytes;
    return body_ok;
  });
  return body_ok ? PayloadProblem::None : PayloadProblem::Corrupted;
}

const char* payload_problem_name(PayloadProblem problem) {
  switch (problem) {
    case PayloadProblem::None:
      return "ok";
    case PayloadProblem::Corrupted:
      return "corrupted";
    case PayloadProblem::Misrouted:
      return "misrouted (wrong sender)";
    case PayloadProblem::WrongSize:
      return "wrong size";
    case PayloadProblem::WrongDirection:
      return "wrong direction";
    case PayloadProblem::Stale:
      return "stale (wrong iteration)";
  }
  return "?";
}

void PayloadTally::add(PayloadProblem problem) {
  if (problem != PayloadProblem::None) ++counts[static_cast<std::size_t>(problem) - 1];
}

std::uint64_t PayloadTally::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t c : counts) sum += c;
  return sum;
}

std::uint64_t PayloadTally::of(PayloadProblem problem) const {
  return problem == PayloadProblem::None ? 0 : counts[static_cast<std::size_t>(problem) - 1];
}

std::string PayloadTally::describe() const {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(counts[i]) + " " + payload_problem_name(static_cast<PayloadProblem>(i + 1));
  }
  return text;
}

}  // namespace bws::beff
