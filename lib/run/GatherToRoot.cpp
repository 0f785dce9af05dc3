#include "run/GatherToRoot.hpp"

#include <algorithm>
#include <climits>

namespace bws::run {
namespace {

constexpr int kTagGo = 7101;
constexpr int kTagData = 7102;
// MPI counts are int: larger payloads travel in pieces.
constexpr std::uint64_t kPieceBytes = std::uint64_t{1} << 30;

void send_pieces(const std::vector<std::byte>& data, int to, MPI_Comm comm) {
  for (std::uint64_t off = 0; off < data.size(); off += kPieceBytes) {
    const auto n = static_cast<int>(std::min<std::uint64_t>(kPieceBytes, data.size() - off));
    MPI_Send(data.data() + off, n, MPI_BYTE, to, kTagData, comm);
  }
}

void post_receives(std::vector<std::byte>& data, int from, MPI_Comm comm, std::vector<MPI_Request>& requests) {
  for (std::uint64_t off = 0; off < data.size(); off += kPieceBytes) {
    const auto n = static_cast<int>(std::min<std::uint64_t>(kPieceBytes, data.size() - off));
    requests.emplace_back();
    MPI_Irecv(data.data() + off, n, MPI_BYTE, from, kTagData, comm, &requests.back());
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
    if (r > first && bytes + sizes[r] > max_bytes_in_flight) {
      batches.emplace_back(first, r);
      first = r;
      bytes = 0;
    }
    bytes += sizes[r];
  }
  if (first < n) batches.emplace_back(first, n);
  return batches;
}

void gather_to_root(MPI_Comm comm, std::vector<std::byte> payload, std::uint64_t max_bytes_in_flight,
                    const PayloadConsumer& consume) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::uint64_t mine = payload.size();
  std::vector<std::uint64_t> sizes(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, comm);

  if (rank != 0) {
    // Wait to be asked, so that unexpected eager messages cannot pile up on rank 0.
    MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagGo, comm, MPI_STATUS_IGNORE);
    send_pieces(payload, 0, comm);
    return;
  }

  consume(0, payload);
  payload = {};
  for (const auto& [first, last] : plan_gather_batches(sizes, max_bytes_in_flight)) {
    std::vector<std::vector<std::byte>> buffers(static_cast<std::size_t>(last - first));
    std::vector<MPI_Request> requests;
    for (int r = first; r < last; ++r) {
      auto& buffer = buffers[static_cast<std::size_t>(r - first)];
      buffer.resize(sizes[static_cast<std::size_t>(r)]);
      post_receives(buffer, r, comm, requests);
      requests.emplace_back();
      MPI_Isend(nullptr, 0, MPI_BYTE, r, kTagGo, comm, &requests.back());
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    for (int r = first; r < last; ++r) consume(r, buffers[static_cast<std::size_t>(r - first)]);
  }
}

}  // namespace bws::run
