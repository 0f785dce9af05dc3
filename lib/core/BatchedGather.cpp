#include "core/BatchedGather.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace bws {
namespace {

// Tags of their own, apart from the benchmarks' (b_eff: 1, 2), the phase
// rendezvous (from 1000 on) and the watchdog's (7201, 7202).
constexpr int kAskTag = 7101;
constexpr int kDataTag = 7102;

// Pieces of one payload share a tag: messages from one source with one tag
// are matched in the order they were sent, so they land in order.
void post_sends_in_pieces(Communicator& comm, std::span<const std::byte> data, int to_rank,
                          std::uint64_t piece_bytes) {
  for (std::uint64_t at = 0; at < data.size(); at += piece_bytes)
    comm.post_send(data.data() + at, std::min<std::uint64_t>(piece_bytes, data.size() - at), to_rank, kDataTag);
}

void post_receives_in_pieces(Communicator& comm, std::byte* data, std::uint64_t bytes, int from_rank,
                             std::uint64_t piece_bytes) {
  for (std::uint64_t at = 0; at < bytes; at += piece_bytes)
    comm.post_receive(data + at, std::min<std::uint64_t>(piece_bytes, bytes - at), from_rank, kDataTag);
}

std::vector<std::uint64_t> gather_sizes(Communicator& comm, std::uint64_t mine) {
  std::vector<std::uint64_t> sizes(comm.rank() == 0 ? static_cast<std::size_t>(comm.size()) : 0);
  comm.gather_to_root(std::as_bytes(std::span<const std::uint64_t>(&mine, 1)),
                      std::as_writable_bytes(std::span(sizes)));
  return sizes;
}

// Calls consume unless an earlier call failed; keeps the first failure.
void consume_unless_failed(const BatchConsumer& consume, const GatheredBatch& batch, std::exception_ptr& failure) {
  if (failure) return;
  try {
    consume(batch);
  } catch (...) {
    failure = std::current_exception();
  }
}

}  // namespace

std::vector<std::pair<int, int>> plan_gather_batches(const std::vector<std::uint64_t>& sizes,
                                                    std::uint64_t max_bytes_in_flight) {
  std::vector<std::pair<int, int>> batches;
  const int n = static_cast<int>(sizes.size());
  int first = 1;
  std::uint64_t bytes = 0;
  for (int r = 1; r < n; ++r) {
    if (r > first && bytes + sizes[static_cast<std::size_t>(r)] > max_bytes_in_flight) {
      batches.emplace_back(first, r);
      first = r;
      bytes = 0;
    }
    bytes += sizes[static_cast<std::size_t>(r)];
  }
  if (first < n) batches.emplace_back(first, n);
  return batches;
}

void gather_batches(Communicator& comm, std::span<const std::byte> mine, std::uint64_t max_bytes_in_flight,
                    const BatchConsumer& consume, std::uint64_t piece_bytes) {
  if (piece_bytes == 0) throw std::invalid_argument("gather_batches: piece_bytes must be at least 1");
  const std::vector<std::uint64_t> sizes = gather_sizes(comm, mine.size());
  if (comm.rank() != 0) {
    // Wait to be asked, so that unexpected (eager) messages cannot pile up on rank 0.
    std::byte ask{};
    comm.post_receive(&ask, 1, 0, kAskTag);
    comm.wait_all();
    post_sends_in_pieces(comm, mine, 0, piece_bytes);
    comm.wait_all();
    return;
  }
  std::exception_ptr failure;
  consume_unless_failed(consume, {0, std::span(sizes).first(1), mine}, failure);
  std::vector<std::byte> buffer;  // one batch, reused
  const std::byte ask{1};
  for (const auto& [first, last] : plan_gather_batches(sizes, max_bytes_in_flight)) {
    const auto batch_sizes = std::span(sizes).subspan(static_cast<std::size_t>(first),
                                                      static_cast<std::size_t>(last - first));
    std::uint64_t total = 0;
    for (const std::uint64_t s : batch_sizes) total += s;
    buffer.clear();  // a larger batch reallocates without copying the last one
    buffer.resize(total);
    std::uint64_t at = 0;
    for (int r = first; r < last; ++r) {
      const std::uint64_t bytes = sizes[static_cast<std::size_t>(r)];
      post_receives_in_pieces(comm, buffer.data() + at, bytes, r, piece_bytes);
      comm.post_send(&ask, 1, r, kAskTag);
      at += bytes;
    }
    comm.wait_all();
    consume_unless_failed(consume, {first, batch_sizes, std::span<const std::byte>(buffer.data(), total)}, failure);
  }
  if (failure) std::rethrow_exception(failure);
}

void gather_in_batches(Communicator& comm, std::span<const std::byte> mine, std::uint64_t max_bytes_in_flight,
                       const PayloadConsumer& consume, std::uint64_t piece_bytes) {
  gather_batches(
      comm, mine, max_bytes_in_flight,
      [&](const GatheredBatch& batch) {
        std::uint64_t at = 0;
        for (std::size_t i = 0; i < batch.sizes.size(); ++i) {
          consume(batch.first_rank + static_cast<int>(i), batch.bytes.subspan(at, batch.sizes[i]));
          at += batch.sizes[i];
        }
      },
      piece_bytes);
}

}  // namespace bws
