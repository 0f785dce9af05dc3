#include "pmbw/PmbwPermutation.hpp"

#include <utility>

namespace bws::pmbw {
namespace {

// SplitMix64 (Steele, Lea, Flood): a small generator whose output for a
// given seed is the same everywhere, unlike std::uniform_int_distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by the multiply-shift map; the bias is below
  // bound / 2^64, nothing for any area that fits in memory.
  std::uint64_t below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }

 private:
  std::uint64_t state_;
};

// Sattolo: for i = n-1 .. 1 swap a[i] with a[j], j uniform in [0, i) (never
// i itself, which is what makes the result one cycle rather than any
// permutation). With a[] starting as the identity, a[i] is i's successor.
template <class Array>
void sattolo_in_place(Array& a, std::uint64_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  for (std::uint64_t i = 0; i < n; ++i) a[i] = i;
  for (std::uint64_t i = n; i-- > 1;) std::swap(a[i], a[rng.below(i)]);
}

}  // namespace

std::vector<std::uint64_t> sattolo_cycle(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::uint64_t> next(n);
  sattolo_in_place(next, n, seed);
  return next;
}

void write_pointer_cycle(std::uint64_t* cells, std::uint64_t n, std::uint64_t seed) {
  sattolo_in_place(cells, n, seed);
  for (std::uint64_t i = 0; i < n; ++i) cells[i] = reinterpret_cast<std::uint64_t>(cells + cells[i]);
}

std::uint64_t pointer_cycle_length(const std::uint64_t* cells, std::uint64_t n) {
  const auto first = reinterpret_cast<std::uint64_t>(cells);
  const std::uint64_t last = first + 8 * n;
  std::uint64_t p = first;
  for (std::uint64_t steps = 1; steps <= n; ++steps) {
    if (p < first || p >= last || (p - first) % 8 != 0) return 0;
    p = *reinterpret_cast<const std::uint64_t*>(p);
    if (p == first) return steps;
  }
  return 0;
}

std::uint64_t thread_seed(std::uint64_t run_seed, int thread) {
  SplitMix64 mix(run_seed ^ (0xA0761D6478BD642Full * static_cast<std::uint64_t>(thread + 1)));
  return mix.next();
}

}  // namespace bws::pmbw
