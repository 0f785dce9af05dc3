#pragma once
// The Communicator a collective benchmark gets, on an MPI communicator: each
// call is the one MPI call it names (MPI_Isend, MPI_Sendrecv, MPI_Allreduce,
// ...), so b_eff measures what it measured when it called MPI itself.
#include <mpi.h>

#include <memory>
#include <vector>

#include "core/Communicator.hpp"

namespace bws::run {

class MpiCommunicator final : public Communicator {
 public:
  // Uses `comm` (MPI_COMM_WORLD, say) without owning it.
  explicit MpiCommunicator(MPI_Comm comm);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override;
  void post_send(const std::byte* data, std::uint64_t bytes, int to_rank, int tag) override;
  void post_receive(std::byte* data, std::uint64_t bytes, int from_rank, int tag) override;
  void post_barrier() override;
  void wait_all() override;
  void wait_sends() override;
  bool test_all() override;
  void send_receive(const std::byte* send, int to_rank, std::byte* receive, int from_rank, std::uint64_t bytes,
                    int tag) override;
  void all_reduce(std::span<int> values, Reduction op) override;
  void all_reduce(std::span<double> values, Reduction op) override;
  void reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction op) override;
  void reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction op) override;
  void reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root, Reduction op) override;
  void broadcast_from_root(std::span<int> values) override;
  void gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) override;
  std::unique_ptr<Communicator> split_members(bool member) override;

 private:
  struct Owned {};  // split_members' communicators are freed with their object
  MpiCommunicator(MPI_Comm comm, Owned);

  MPI_Comm comm_;
  bool owned_ = false;
  int rank_ = 0, size_ = 1;
  // Posted, not yet completed (sends apart, for wait_sends); reused, so no allocation per message.
  std::vector<MPI_Request> pending_, sends_;
};

}  // namespace bws::run
