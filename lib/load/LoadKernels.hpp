#pragma once
// likwid-bench's load, store and update kernels on one array of doubles,
// as a data table (BabelStream's kernels-as-data) and as plain loops over
// a thread's share [begin, end). Bytes are counted as likwid-bench counts
// them: what the loop reads and writes, without write-allocate traffic (as
// STREAM counts). The array's initial values and the kernels' scalars keep
// every sum exact in double (multiples of 1/4), so validation compares
// checksums for equality, in any summation order.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bws::load {

enum class LoadKernel { Load, Store, Update };

struct LoadKernelSpec {
  LoadKernel kernel;
  std::string_view name;         // the --load.kernels word and the table's kernel column
  std::uint64_t reads_per_item;  // doubles read per array element
  std::uint64_t writes_per_item;
};

// In the order they run and appear in tables.
inline constexpr std::array<LoadKernelSpec, 3> kLoadKernels = {{
    {LoadKernel::Load, "load", 1, 0},      // sum += a[i]: one read, nothing written
    {LoadKernel::Store, "store", 0, 1},    // a[i] = s: one write (its write-allocate read not counted)
    {LoadKernel::Update, "update", 1, 1},  // a[i] = s * a[i]: the element read, then written back
}};

const LoadKernelSpec& spec_of(LoadKernel kernel);
// "load", "store", "update": the option's words and the kernel column's texts.
std::vector<std::string> kernel_names();

// Bytes one pass of `kernel` over n doubles reads and writes.
std::uint64_t bytes_read(LoadKernel kernel, std::uint64_t n);
std::uint64_t bytes_written(LoadKernel kernel, std::uint64_t n);

// The value store writes, and the factor update multiplies by (a sign
// change: exact, and no compiler may fold it into nothing).
inline constexpr double kStoreValue = 3.0;
inline constexpr double kUpdateScale = -1.0;

// a[i] before every kernel: 1, 1.25, 1.5, 1.75, 1, ...
double initial_value(std::uint64_t i);
void initialize(double* a, std::size_t begin, std::size_t end);

// The kernels. load_sum keeps 32 independent partial sums so that the
// compiler may vectorise it and the adds do not wait on each other; its
// result is returned, stored in the results table and validated, so the
// read loop cannot be dropped.
double load_sum(const double* a, std::size_t begin, std::size_t end);
void store(double* a, std::size_t begin, std::size_t end, double value);
void update(double* a, std::size_t begin, std::size_t end, double scale);

// The checksum (the sum of the n elements) each kernel leaves, worked out
// from the initial values: load's sum in every repetition; after `passes`
// passes of store or update, the array's sum.
double expected_checksum(LoadKernel kernel, std::uint64_t n, int passes);

}  // namespace bws::load
