#include "run/MpiCommunicator.hpp"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace bws::run {
namespace {

MPI_Op op_of(Reduction op) {
  switch (op) {
    case Reduction::Sum: return MPI_SUM;
    case Reduction::Min: return MPI_MIN;
    case Reduction::Max: return MPI_MAX;
  }
  return MPI_OP_NULL;
}

template <class T>
MPI_Datatype type_of() {
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else return MPI_UINT64_T;
}

// Byte counts go to MPI as int: a longer message would be cut short, so it
// is refused (b_eff's plan keeps messages <= INT_MAX; core/BatchedGather
// sends larger payloads in pieces).
int count_of(std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX))
    throw std::length_error("MpiCommunicator: a message of " + std::to_string(bytes) +
                            " bytes exceeds MPI's int count");
  return static_cast<int>(bytes);
}

template <class T>
void reduce_at_root(MPI_Comm comm, std::span<const T> mine, std::span<T> on_root, Reduction op) {
  MPI_Reduce(mine.data(), on_root.data(), static_cast<int>(mine.size()), type_of<T>(), op_of(op), 0, comm);
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  pending_.reserve(4);
}

MpiCommunicator::MpiCommunicator(MPI_Comm comm, Owned) : MpiCommunicator(comm) { owned_ = true; }

MpiCommunicator::~MpiCommunicator() {
  if (owned_) MPI_Comm_free(&comm_);
}

void MpiCommunicator::barrier() { MPI_Barrier(comm_); }

void MpiCommunicator::post_send(const std::byte* data, std::uint64_t bytes, int to_rank, int tag) {
  MPI_Isend(data, count_of(bytes), MPI_BYTE, to_rank, tag, comm_, &sends_.emplace_back());
}

void MpiCommunicator::post_receive(std::byte* data, std::uint64_t bytes, int from_rank, int tag) {
  MPI_Irecv(data, count_of(bytes), MPI_BYTE, from_rank, tag, comm_, &pending_.emplace_back());
}

void MpiCommunicator::post_barrier() { MPI_Ibarrier(comm_, &pending_.emplace_back()); }

// One MPI call for everything posted (b_eff's timed loop calls this once
// per exchange): the sends join the other requests first.
void MpiCommunicator::wait_all() {
  pending_.insert(pending_.end(), sends_.begin(), sends_.end());
  sends_.clear();
  MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
  pending_.clear();
}

void MpiCommunicator::wait_sends() {
  MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
  sends_.clear();
}

bool MpiCommunicator::test_all() {
  pending_.insert(pending_.end(), sends_.begin(), sends_.end());
  sends_.clear();
  int done = 0;
  MPI_Testall(static_cast<int>(pending_.size()), pending_.data(), &done, MPI_STATUSES_IGNORE);
  if (done) pending_.clear();
  return done != 0;
}

void MpiCommunicator::send_receive(const std::byte* send, int to_rank, std::byte* receive, int from_rank,
                                   std::uint64_t bytes, int tag) {
  const int n = count_of(bytes);
  MPI_Sendrecv(send, n, MPI_BYTE, to_rank, tag, receive, n, MPI_BYTE, from_rank, tag, comm_, MPI_STATUS_IGNORE);
}

void MpiCommunicator::all_reduce(std::span<int> values, Reduction op) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT, op_of(op), comm_);
}

void MpiCommunicator::all_reduce(std::span<double> values, Reduction op) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, op_of(op), comm_);
}

void MpiCommunicator::reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction op) {
  reduce_at_root(comm_, mine, on_root, op);
}

void MpiCommunicator::reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction op) {
  reduce_at_root(comm_, mine, on_root, op);
}

void MpiCommunicator::reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root,
                                     Reduction op) {
  reduce_at_root(comm_, mine, on_root, op);
}

void MpiCommunicator::broadcast_from_root(std::span<int> values) {
  MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_INT, 0, comm_);
}

void MpiCommunicator::gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) {
  const int n = static_cast<int>(mine.size());
  MPI_Gather(mine.data(), n, MPI_BYTE, on_root.data(), n, MPI_BYTE, 0, comm_);
}

std::unique_ptr<Communicator> MpiCommunicator::split_members(bool member) {
  MPI_Comm part = MPI_COMM_NULL;
  MPI_Comm_split(comm_, member ? 0 : MPI_UNDEFINED, rank_, &part);
  if (part == MPI_COMM_NULL) return nullptr;
  return std::unique_ptr<Communicator>(new MpiCommunicator(part, Owned{}));
}

}  // namespace bws::run
