#include "load/LoadKernels.hpp"

#include <algorithm>
#include <stdexcept>

namespace bws::load {
namespace {

// Partial sums in load_sum: four 512-bit (or eight 256-bit) registers of
// independent adds, so the loop waits on memory, not on the add latency.
constexpr std::size_t kLanes = 32;

// Sum of initial_value(i) for i < n: full groups of four give 5.5 each,
// then the first r of 1, 1.25, 1.5.
double initial_sum(std::uint64_t n) {
  const double groups = static_cast<double>(n / 4), r = static_cast<double>(n % 4);
  return 5.5 * groups + r + 0.125 * r * (r - 1);
}

}  // namespace

const LoadKernelSpec& spec_of(LoadKernel kernel) {
  for (const LoadKernelSpec& s : kLoadKernels)
    if (s.kernel == kernel) return s;
  throw std::logic_error("load: unknown kernel");
}

std::vector<std::string> kernel_names() {
  std::vector<std::string> names(kLoadKernels.size());
  std::transform(kLoadKernels.begin(), kLoadKernels.end(), names.begin(),
                 [](const LoadKernelSpec& s) { return std::string(s.name); });
  return names;
}

std::uint64_t bytes_read(LoadKernel kernel, std::uint64_t n) { return spec_of(kernel).reads_per_item * n * 8; }
std::uint64_t bytes_written(LoadKernel kernel, std::uint64_t n) { return spec_of(kernel).writes_per_item * n * 8; }

double initial_value(std::uint64_t i) { return 1.0 + 0.25 * static_cast<double>(i % 4); }

void initialize(double* a, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) a[i] = initial_value(i);
}

double load_sum(const double* a, std::size_t begin, std::size_t end) {
  double lane[kLanes] = {};
  std::size_t i = begin;
  for (; i + kLanes <= end; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j) lane[j] += a[i + j];
  double sum = 0;
  for (; i < end; ++i) sum += a[i];
  for (double s : lane) sum += s;
  return sum;
}

void store(double* a, std::size_t begin, std::size_t end, double value) {
  for (std::size_t i = begin; i < end; ++i) a[i] = value;
}

void update(double* a, std::size_t begin, std::size_t end, double scale) {
  for (std::size_t i = begin; i < end; ++i) a[i] = scale * a[i];
}

double expected_checksum(LoadKernel kernel, std::uint64_t n, int passes) {
  switch (kernel) {
    case LoadKernel::Load: return initial_sum(n);
    case LoadKernel::Store: return passes > 0 ? kStoreValue * static_cast<double>(n) : initial_sum(n);
    case LoadKernel::Update: return (passes % 2 == 0 ? 1.0 : kUpdateScale) * initial_sum(n);
  }
  throw std::logic_error("load: unknown kernel");
}

}  // namespace bws::load
