#pragma once
// Where the three arrays lie in the rank's one buffer. Each array starts on
// its own page plus k x offset bytes (k = 0, 1, 2 for a, b, c): equally
// aligned arrays map to the same 4 KiB-aliasing slots and can halve the
// bandwidth on some CPUs. Offsets are multiples of 64, so every array base
// stays cache-line (and AVX-512) aligned.
#include <array>
#include <cstddef>
#include <cstdint>

namespace bws::stream {

inline constexpr std::size_t kPageBytes = 4096;
inline constexpr std::size_t kLineBytes = 64;

struct StreamLayout {
  std::array<std::size_t, 3> array_begin_bytes{};  // from the buffer start: a, b, c
  std::size_t array_bytes = 0;                     // n x sizeof(T)
  std::size_t total_bytes = 0;                     // buffer bytes needed
};

StreamLayout make_stream_layout(std::uint64_t elements, std::size_t element_bytes, std::size_t offset_bytes);

}  // namespace bws::stream
