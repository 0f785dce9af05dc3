#pragma once
// What the HDF5 file tests share: a fresh directory per test and a small
// STREAM-like table to write, plus readers of what a file holds.
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "TestSupport.hpp"

// A named namespace: gtest wants one fixture class per suite across the
// test files that include this header.
namespace h5_test_support {

namespace fs = std::filesystem;
using bws::RuntimeFailure;
using bws::Table;
using bws::UsageError;
using bws::h5::ResultFile;
using bws::h5::ResultReader;

// A fresh directory per test, removed afterwards.
class H5Test : public bws::test::TempDirTest {
 protected:
  H5Test() : TempDirTest("bws_h5_test") {}
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);  // a test may have made it read-only
    TempDirTest::TearDown();
  }
};

// The root attributes of a complete survey file, as bwsurvey writes them.
inline void set_survey_root(ResultFile& f, const std::string& tool_version, std::int64_t n_nodes,
                            std::int64_t n_ranks, const std::string& tests) {
  f.set_attribute("/", "tool_version", tool_version);
  f.set_attribute("/", "status", std::string("complete"));
  f.set_attribute("/", "created_utc", std::string("2025-01-31T12:00:00Z"));
  f.set_attribute("/", "n_nodes", n_nodes);
  f.set_attribute("/", "n_ranks", n_ranks);
  f.set_attribute("/", "tests", tests);
}

inline Table stream_table() {
  return Table("stream/results",
               {bws::int_column("rank"), bws::text_column("host", 16), bws::text_column("kernel", 8),
                bws::int_column("bytes", "B"), bws::real_column("bandwidth", "B/s")},
               "stream/times");
}

inline void add_stream_row(Table& table, int rank, const std::string& kernel, double bandwidth, std::vector<double> samples) {
  table.add_row({{"rank", rank},
                 {"host", "node-" + std::to_string(rank)},
                 {"kernel", kernel},
                 {"bytes", std::int64_t{1} << 30},
                 {"bandwidth", bandwidth}},
                std::move(samples));
}

// The raw samples dataset as stored (NaN padding included), via the C API.
inline std::vector<std::vector<double>> stored_samples(const std::string& path, const std::string& dataset) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t data = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(data);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  std::vector<double> flat(dims[0] * dims[1]);
  if (!flat.empty()) H5Dread(data, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data());
  H5Sclose(space);
  H5Dclose(data);
  H5Fclose(file);
  std::vector<std::vector<double>> rows(dims[0]);
  for (hsize_t r = 0; r < dims[0]; ++r) rows[r].assign(flat.begin() + r * dims[1], flat.begin() + (r + 1) * dims[1]);
  return rows;
}

// A bare HDF5 file whose root carries `schema_version` (none when empty).
inline void write_foreign_file(const std::string& path, const std::string& schema_version) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!schema_version.empty()) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, schema_version.size());  // fixed-length, as other tools write it
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, "schema_version", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, type, schema_version.data());
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
  }
  H5Fclose(file);
}

template <typename F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

inline int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace h5_test_support

using namespace h5_test_support;  // NOLINT: the tests name these unqualified
