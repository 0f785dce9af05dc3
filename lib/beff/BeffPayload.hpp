#pragma once
// Payload validation of the ring exchange: every message
// carries who sent it, in which iteration, at which size and in which
// direction, so the receiver sees a stale (last iteration's), duplicated,
// misrouted or damaged message. HPCC_FPGA's payload was one constant byte,
// so a stale message passed; this one cannot.
//
// Messages of 32 bytes and more carry 16-byte stamps at the first bytes,
// every 4096th byte and the last bytes; the rest of the message is not
// written, so stamping and checking cost a few stores and loads per page and
// hardly change the memory traffic of the timed loop. A stamp is four 32-bit
// words: sender, iteration, message bytes (low 32 bits), and the direction
// in the low byte under a 24-bit hash of all fields and the stamp's offset
// (a stamp moved within the message, or garbled, fails the hash).
// Shorter messages are filled with hash bytes of the same fields, all
// checked; a 1-byte message then passes a wrong payload with chance 1/256.
// Pure functions on plain memory: tests corrupt a message and see it named.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace bws::beff {

// Which way a message travels round the ring. A rank receives its left
// neighbour's rightward message and its right neighbour's leftward one.
enum class Direction : std::uint8_t { Rightward = 1, Leftward = 2 };

struct PayloadStamp {
  std::uint32_t sender = 0;     // the sender's rank in the ring's communicator
  std::uint32_t iteration = 0;  // exchanges done so far (wraps after 2^32)
  std::uint64_t message_bytes = 0;
  Direction direction = Direction::Rightward;
};

inline constexpr std::size_t kStampBytes = 16;
inline constexpr std::uint64_t kStampStrideBytes = 4096;
inline constexpr std::uint64_t kShortMessageBytes = 2 * kStampBytes;  // below: hash bytes throughout

// Writes the stamps (or the hash bytes) of `stamp` into an L-byte message.
void stamp_message(std::byte* message, std::uint64_t message_bytes, const PayloadStamp& stamp);

// What is wrong with a received message; the first problem found, in this
// order of precedence.
enum class PayloadProblem : std::uint8_t {
  None = 0,
  Corrupted,       // a stamp fails its hash (or short-message bytes match nothing expected)
  Misrouted,       // another sender's message
  WrongSize,       // stamped for another message size
  WrongDirection,  // the neighbour's message for the other direction
  Stale,           // another iteration's message: stale or duplicated
};
inline constexpr std::size_t kPayloadProblemKinds = 5;  // all but None
const char* payload_problem_name(PayloadProblem problem);  // "stale (wrong iteration)", ...

// Checks an L-byte message against what it should carry.
PayloadProblem check_message(const std::byte* message, std::uint64_t message_bytes, const PayloadStamp& expected);

// The PCIe path (--beff.path device): a sender's device buffer holds a
// body pattern of (sender, direction), the same at every iteration; each
// iteration the message is read from the device, stamped on the host, sent,
// checked and written to the receiver's device buffer. After a sample the
// receiver reads its device buffer back: the stamps must be the last
// iteration's and every byte between them the sender's pattern, which
// shows both device copies carried the data (a short message is all
// stamp bytes, so only its host-side round trip is shown).
// Byte o of the pattern depends on o only, not on the message size.
void fill_device_pattern(std::byte* message, std::uint64_t bytes, std::uint32_t sender, Direction direction);
// check_message, then (>= 32 bytes) the bytes between the stamps against
// the sender's pattern: Corrupted when they differ.
PayloadProblem check_device_message(const std::byte* message, std::uint64_t message_bytes,
                                    const PayloadStamp& expected);

// Messages found wrong, by problem.
struct PayloadTally {
  std::array<std::uint64_t, kPayloadProblemKinds> counts{};
  void add(PayloadProblem problem);
  std::uint64_t total() const;
  std::uint64_t of(PayloadProblem problem) const;
  // "3 stale (wrong iteration), 1 misrouted (wrong sender)"; "" when none.
  std::string describe() const;
};

}  // namespace bws::beff
