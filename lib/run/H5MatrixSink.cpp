#include "run/H5MatrixSink.hpp"

namespace bws::run {

void H5MatrixSink::begin(const MatrixShape& shape) {
  results_.write([&](h5::ResultFile& file) { file.begin_matrix(shape); });
}

void H5MatrixSink::write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> values) {
  results_.write([&](h5::ResultFile& file) { file.write_matrix_rows(path, first_row, values); });
}

}  // namespace bws::run
