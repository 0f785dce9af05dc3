#include "pmbw/PmbwSizes.hpp"

#include <algorithm>

namespace bws::pmbw {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

}  // namespace

std::vector<std::uint64_t> pmbw_size_table(std::uint64_t limit_bytes) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t k : {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 192, 256, 384, 512, 768})
    sizes.push_back(k * KiB);
  for (std::uint64_t quarter = 4; quarter <= 12; ++quarter) sizes.push_back(quarter * MiB / 4);  // 1 .. 3 MiB
  for (std::uint64_t m = 4; m <= 10; ++m) sizes.push_back(m * MiB);
  for (std::uint64_t m : {12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64}) sizes.push_back(m * MiB);
  for (std::uint64_t s = 128 * MiB; s <= limit_bytes && s <= (1ull << 50); s *= 2) sizes.push_back(s);
  sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](std::uint64_t s) { return s > limit_bytes; }), sizes.end());
  return sizes;
}

std::vector<std::uint64_t> sizes_between(std::uint64_t min_bytes, std::uint64_t max_bytes) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t s : pmbw_size_table(max_bytes))
    if (s >= min_bytes) out.push_back(s);
  return out;
}

std::vector<std::uint64_t> quick_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t s : sizes_between(min_bytes, max_bytes)) {
    const std::uint64_t kib = s / KiB;
    const bool power_of_four = s % KiB == 0 && (kib & (kib - 1)) == 0 && (__builtin_ctzll(kib) % 2 == 0);
    if (power_of_four || s == max_bytes) out.push_back(s);
  }
  const auto all = sizes_between(min_bytes, max_bytes);
  if (!all.empty() && (out.empty() || out.back() != all.back())) out.push_back(all.back());
  return out;
}

PmbwThreadLayout thread_layout(std::uint64_t area_bytes, int threads, std::uint64_t block_bytes) {
  PmbwThreadLayout l;
  const auto p = static_cast<std::uint64_t>(std::max(1, threads));
  const std::uint64_t granule = std::max(block_bytes, kCacheLineBytes);
  l.area_bytes = area_bytes;
  l.thread_bytes = std::max(granule, round_up(area_bytes / p, granule));
  l.test_bytes = l.thread_bytes * p;
  l.spacing_bytes = std::max(l.thread_bytes, kMinAreaSpacingBytes);
  l.buffer_bytes = (p - 1) * l.spacing_bytes + l.thread_bytes;
  return l;
}

}  // namespace bws::pmbw
