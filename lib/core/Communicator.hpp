#pragma once
// What a collective benchmark (the b_eff ring) may do across ranks, as a
// node-local one gets NodeSync: exactly the operations b_eff uses, on bytes
// and on a few small values. An interface, so that no benchmark library
// includes <mpi.h> or links MPI; run/MpiCommunicator implements it on an
// MPI communicator. One virtual call per message costs nanoseconds against
// the microseconds of the smallest message b_eff times.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace bws {

enum class Reduction { Sum, Min, Max };

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void barrier() = 0;

  // Point to point, non-blocking: post, then wait_all() (or test_all() until
  // true) completes every operation posted since. The buffers must stay
  // untouched until then.
  virtual void post_send(const std::byte* data, std::uint64_t bytes, int to_rank, int tag) = 0;
  virtual void post_receive(std::byte* data, std::uint64_t bytes, int from_rank, int tag) = 0;
  // A barrier that does not block: it completes with the posted operations.
  virtual void post_barrier() = 0;
  virtual void wait_all() = 0;
  // Completes every posted send (its buffer may be reused); posted receives
  // may stay pending until wait_all(). The link map times a window's sends
  // and receives apart, as mpiGraph does.
  virtual void wait_sends() = 0;
  // True (and nothing left posted) when every posted operation completed.
  virtual bool test_all() = 0;
  // Sends `bytes` to `to_rank` while receiving as many from `from_rank`, in
  // one blocking call that cannot deadlock a ring (MPI_Sendrecv).
  virtual void send_receive(const std::byte* send, int to_rank, std::byte* receive, int from_rank,
                            std::uint64_t bytes, int tag) = 0;

  // Small values. all_reduce: in place, every rank gets the result;
  // reduce_to_root: `on_root` (as long as `mine`) is written on rank 0 only.
  virtual void all_reduce(std::span<int> values, Reduction op) = 0;
  virtual void all_reduce(std::span<double> values, Reduction op) = 0;
  virtual void reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction op) = 0;
  virtual void reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction op) = 0;
  virtual void reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root, Reduction op) = 0;
  // Rank 0's values, on every rank.
  virtual void broadcast_from_root(std::span<int> values) = 0;
  // Every rank's `mine` (the same length on all), in rank order, into
  // `on_root` on rank 0 (size() times as long there, ignored elsewhere).
  virtual void gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) = 0;
  // Collective: the ranks with `member` get a communicator of their own
  // (ranked in this one's order), the others nullptr.
  virtual std::unique_ptr<Communicator> split_members(bool member) = 0;
};

// Waits for every rank of `comm` at a barrier without spinning: ranks that
// take no part in a measurement (b_eff's reference pair, the link map's
// non-members) wait here, leaving the cores to the ranks that measure.
void wait_quietly_at_barrier(Communicator& comm);

}  // namespace bws
