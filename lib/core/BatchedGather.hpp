#pragma once
// Moving every rank's payload to rank 0 without letting rank 0's memory or
// its queue of unexpected messages grow with the number of ranks: payload
// sizes are gathered first, then rank 0 asks the ranks for their payloads
// in batches whose bytes stay under a bound, and hands each batch to a
// consumer before it asks for the next. A rank sends only when asked, so
// rank 0 never has more than one batch of receives posted. Collective over
// `comm`; MPI-free (core/Communicator), so the record gather (run/) and the
// link map's rows (core/RowGather) share it.
//
// Failure: a consumer's failure on rank 0 does not stop the gather. Every
// rank is still asked and its payload received (else it would wait for
// ever); later batches go to no consumer, and the first failure is thrown
// on rank 0 once every rank was drained. The other ranks return normally.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "core/Communicator.hpp"

namespace bws {

// The largest single message: MPI counts are int, so a larger payload
// travels as several messages (same source and tag, matched in order).
inline constexpr std::uint64_t kGatherPieceBytes = std::uint64_t{1} << 30;

// Contiguous ranges [first, last) of source ranks 1..n-1 whose payloads sum
// to at most max_bytes_in_flight (a single larger payload gets a batch of
// its own; empty payloads join any batch). Rank 0's own payload is in no
// batch: it is never in flight. Pure: unit-tested without a communicator.
std::vector<std::pair<int, int>> plan_gather_batches(const std::vector<std::uint64_t>& sizes,
                                                    std::uint64_t max_bytes_in_flight);

// Rank 0's view of one batch: the payloads of ranks first_rank,
// first_rank + 1, ... (sizes.size() of them), back to back in `bytes`.
struct GatheredBatch {
  int first_rank = 0;
  std::span<const std::uint64_t> sizes;
  std::span<const std::byte> bytes;
};

using BatchConsumer = std::function<void(const GatheredBatch& batch)>;
using PayloadConsumer = std::function<void(int rank, std::span<const std::byte> payload)>;

// Collective. On rank 0 the consumer gets rank 0's payload first (a batch
// of its own), then the planned batches in rank order; `bytes` is valid
// during the call only. Other ranks' consumer is not called. piece_bytes:
// the largest message (>= 1; tests make it small).
void gather_batches(Communicator& comm, std::span<const std::byte> mine, std::uint64_t max_bytes_in_flight,
                    const BatchConsumer& consume, std::uint64_t piece_bytes = kGatherPieceBytes);

// gather_batches, handing rank 0's consumer one payload at a time, in rank order.
void gather_in_batches(Communicator& comm, std::span<const std::byte> mine, std::uint64_t max_bytes_in_flight,
                       const PayloadConsumer& consume, std::uint64_t piece_bytes = kGatherPieceBytes);

}  // namespace bws
