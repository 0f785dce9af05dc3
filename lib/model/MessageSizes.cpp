#include "model/MessageSizes.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/Errors.hpp"

namespace bws::model {

namespace {

inline constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

std::vector<std::uint64_t> doubling_sizes(unsigned first_exponent, unsigned last_exponent) {
  std::vector<std::uint64_t> sizes;
  for (unsigned e = first_exponent; e <= last_exponent; ++e) sizes.push_back(std::uint64_t{1} << e);
  return sizes;
}

// The 8 sizes above 4 KiB, rounded to whole bytes; nullopt when one exceeds
// limit_bytes or 2^63 (checked in double before converting, so a huge a
// cannot overflow the integer).
std::optional<std::vector<std::uint64_t>> growth_sizes(double a, std::uint64_t limit_bytes) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t k = 1; k <= kBeffGrowthSizes; ++k) {
    const double bytes = std::round(static_cast<double>(kBeffDoublingEndBytes) * std::pow(a, static_cast<double>(k)));
    if (!(bytes <= static_cast<double>(limit_bytes)) || bytes >= 0x1p63) return std::nullopt;
    sizes.push_back(static_cast<std::uint64_t>(bytes));
  }
  return sizes;
}

// Strictly increasing, starting above the last doubling size.
bool grows_strictly(const std::vector<std::uint64_t>& growth) {
  std::uint64_t previous = kBeffDoublingEndBytes;
  for (std::uint64_t bytes : growth) {
    if (bytes <= previous) return false;
    previous = bytes;
  }
  return true;
}

double growth_of(std::uint64_t max_bytes) {
  return std::pow(static_cast<double>(max_bytes) / static_cast<double>(kBeffDoublingEndBytes),
                  1.0 / static_cast<double>(kBeffGrowthSizes));
}

std::string allowed_max_bytes(std::uint64_t limit_bytes) {
  return "allowed: " + std::to_string(beff_smallest_max_bytes()) + ".." + std::to_string(limit_bytes);
}

}  // namespace

std::vector<std::uint64_t> hpcc_fpga_message_sizes() { return doubling_sizes(0, 20); }

std::vector<std::uint64_t> seed_table_message_sizes() {
  std::vector<std::uint64_t> sizes = doubling_sizes(0, 12);  // 1 B ... 4 KiB
  for (std::uint64_t bytes : doubling_sizes(14, 21)) sizes.push_back(bytes);  // 16 KiB ... 2 MiB
  return sizes;
}

std::vector<std::uint64_t> beff_message_sizes(double a, std::uint64_t limit_bytes) {
  const std::string what = "b_eff growth factor a = " + std::to_string(a);
  if (!(std::isfinite(a) && a > 1))
    throw UsageError(what + ": must be above 1 (the sizes 4 KiB*a^k, k=1..8, must grow)");
  const auto growth = growth_sizes(a, limit_bytes);
  if (!growth)
    throw UsageError(what + ": the last size 4 KiB*a^8 is above the limit of " + std::to_string(limit_bytes) +
                     " bytes");
  if (!grows_strictly(*growth))
    throw UsageError(what + ": too close to 1, two of the sizes 4 KiB*a^k round to the same byte count; "
                            "allowed: a >= 1.000244 (1 + 1/4096)");
  std::vector<std::uint64_t> sizes = doubling_sizes(0, 12);
  sizes.insert(sizes.end(), growth->begin(), growth->end());
  return sizes;
}

std::uint64_t beff_smallest_max_bytes() {
  // Rounded sizes are distinct once 4096*(a-1) >= 1 byte, i.e. from about
  // 4104 on; below that some max values fail, so search from 4097 up.
  static const std::uint64_t smallest = [] {
    std::uint64_t max_bytes = kBeffDoublingEndBytes + 1;
    while (!grows_strictly(*growth_sizes(growth_of(max_bytes), kNoLimit))) ++max_bytes;
    return max_bytes;
  }();
  return smallest;
}

double growth_for_max_bytes(std::uint64_t max_bytes, std::uint64_t limit_bytes) {
  const std::string what = "--beff.max-bytes: " + std::to_string(max_bytes);
  if (max_bytes <= kBeffDoublingEndBytes)
    throw UsageError(what + " must be above 4096 (the 13 doubling sizes end at 4 KiB); " +
                     allowed_max_bytes(limit_bytes));
  if (max_bytes > limit_bytes)
    throw UsageError(what + " is above the largest message this run allows; " + allowed_max_bytes(limit_bytes));
  if (max_bytes < beff_smallest_max_bytes())
    throw UsageError(what + " is too close to 4096: two of the 8 sizes above 4 KiB would round to the same "
                            "byte count; " +
                     allowed_max_bytes(limit_bytes));
  return growth_of(max_bytes);
}

std::vector<std::uint64_t> beff_message_sizes_for_max_bytes(std::uint64_t max_bytes, std::uint64_t limit_bytes) {
  const double a = growth_for_max_bytes(max_bytes, limit_bytes);
  // a^8 can land a rounding error away from max/4096; max_bytes is what the
  // user asked for, so it is the last size exactly (the limit was checked).
  std::vector<std::uint64_t> sizes = beff_message_sizes(a, kNoLimit);
  sizes.back() = max_bytes;
  return sizes;
}

}  // namespace bws::model
