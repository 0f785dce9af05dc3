#include "core/RowGather.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace bws {
namespace {

// Tags of their own, apart from any benchmark's message tags.
constexpr int kAskTag = 7301;
constexpr int kRowTag = 7302;

}  // namespace

void gather_rows(Communicator& comm, std::span<const float> my_row, MatrixSink& sink, const std::string& path,
                 std::uint64_t batch_bytes) {
  const std::uint64_t columns = my_row.size();
  const std::uint64_t row_bytes = columns * sizeof(float);
  if (comm.rank() != 0) {
    std::byte ask{};
    comm.post_receive(&ask, 1, 0, kAskTag);
    comm.wait_all();
    comm.post_send(reinterpret_cast<const std::byte*>(my_row.data()), row_bytes, 0, kRowTag);
    comm.wait_all();
    return;
  }
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const std::uint64_t rows_per_batch = std::max<std::uint64_t>(1, row_bytes == 0 ? ranks : batch_bytes / row_bytes);
  std::vector<float> batch(std::min(rows_per_batch, ranks) * columns);
  const std::byte ask{1};
  for (std::uint64_t first = 0; first < ranks; first += rows_per_batch) {
    const std::uint64_t end = std::min(ranks, first + rows_per_batch);
    for (std::uint64_t r = first; r < end; ++r) {
      float* row = batch.data() + (r - first) * columns;
      if (r == 0) {
        std::copy(my_row.begin(), my_row.end(), row);
        continue;
      }
      comm.post_receive(reinterpret_cast<std::byte*>(row), row_bytes, static_cast<int>(r), kRowTag);
      comm.post_send(&ask, 1, static_cast<int>(r), kAskTag);
    }
    comm.wait_all();
    sink.write_rows(path, first, std::span<const float>(batch.data(), (end - first) * columns));
  }
}

}  // namespace bws
