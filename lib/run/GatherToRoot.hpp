#pragma once
// Moving every rank's records to rank 0 without letting rank 0's memory grow
// with the number of ranks: payload sizes are gathered first, then rank 0
// asks for them in batches whose bytes in flight stay under a limit, and
// hands each payload to a consumer (which appends it to the file) before
// the next batch.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace bws::run {

// Contiguous ranges [first, last) of source ranks 1..n-1 whose payloads sum
// to at most max_bytes_in_flight (a single larger payload gets a batch of
// its own). Pure: unit-tested without MPI.
std::vector<std::pair<int, int>> plan_gather_batches(const std::vector<std::uint64_t>& sizes,
                                                    std::uint64_t max_bytes_in_flight);

using PayloadConsumer = std::function<void(int rank, std::vector<std::byte>& payload)>;

// Collective. Rank 0's consumer is called for every rank in rank order,
// rank 0 first; other ranks' consumer is not called.
void gather_to_root(MPI_Comm comm, std::vector<std::byte> payload, std::uint64_t max_bytes_in_flight,
                    const PayloadConsumer& consume);

}  // namespace bws::run
