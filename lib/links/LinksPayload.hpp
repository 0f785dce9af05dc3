#pragma once
// The payload of a link map's message: every 8-byte word stamped with the
// sender, the receiver, the round and its index, so a message from the
// wrong peer, a stale one from another round or direction or a corrupt word
// all show. The stamp is written once per round and direction, before
// timing; the check runs on the verification exchange only, outside the
// timed region. Pure.
#include <cstddef>
#include <cstdint>
#include <span>

namespace bws::links {

struct PayloadStamp {
  int sender = 0, receiver = 0, round = 0;
};

// The word at index `word` of a message stamped so (splitmix64 of the fields).
std::uint64_t payload_word(const PayloadStamp& stamp, std::uint64_t word);

// Fills `message` (any length: a last partial word takes its first bytes).
void stamp_payload(std::span<std::byte> message, const PayloadStamp& stamp);

// The number of 8-byte words (a last partial one counted as one) of
// `message` that differ from the stamp: 0 for an intact message.
std::uint64_t payload_problems(std::span<const std::byte> message, const PayloadStamp& stamp);

}  // namespace bws::links
