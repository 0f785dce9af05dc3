#pragma once
// Message-size lists for the b_eff ring (HPCC_FPGA's b_eff
// model; docs/design-notes.md "b_eff").
// b_eff (Rabenseifner) uses 21 sizes: 1 B ... 4 KiB doubling (13), then
// 4 KiB * a^k for k = 1..8, where a is chosen so the last size is Lmax. With
// a = 2 that is 8 KiB ... 1 MiB. All sizes are whole bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bws::model {

inline constexpr std::size_t kBeffDoublingSizes = 13;        // 1 B ... 4 KiB
inline constexpr std::size_t kBeffGrowthSizes = 8;           // 4 KiB * a^k, k = 1..8
inline constexpr std::size_t kBeffSizeCount = 21;            // the "/ 21" of b_eff
inline constexpr std::uint64_t kBeffDoublingEndBytes = 4096; // last doubling size
inline constexpr double kBeffDefaultGrowth = 2.0;            // a: 8 KiB ... 1 MiB
// Largest message any size list may hold unless the caller passes its own
// (memory-derived) limit: 1 TiB, far beyond any buffer a rank can hold.
inline constexpr std::uint64_t kBeffMaxBytesLimit = std::uint64_t{1} << 40;

// HPCC_FPGA's sizes: 2^0 ... 2^20 (21).
std::vector<std::uint64_t> hpcc_fpga_message_sizes();
// The sizes of HPCC_FPGA's measurement table: 1 B ... 4 KiB doubling (13),
// then 16 KiB ... 2 MiB doubling (8); 8 KiB is not in it.
std::vector<std::uint64_t> seed_table_message_sizes();

// The 21 b_eff sizes for growth factor a: 1 ... 4096, then
// round(4096 * a^k) for k = 1..8. Throws bws::UsageError when a is not above
// 1, when rounding makes two sizes equal (a too close to 1: sizes must be
// strictly increasing), or when the last size exceeds limit_bytes.
std::vector<std::uint64_t> beff_message_sizes(double a, std::uint64_t limit_bytes = kBeffMaxBytesLimit);

// a = (max_bytes / 4096)^(1/8), so that the 21st size is max_bytes (as the
// original b_eff derives a from Lmax). Throws bws::UsageError naming
// --beff.max-bytes when max_bytes <= 4096, when it is so close to 4096 that
// the 8 rounded sizes would not be strictly increasing, or when it exceeds
// limit_bytes; the message gives the allowed range.
double growth_for_max_bytes(std::uint64_t max_bytes, std::uint64_t limit_bytes = kBeffMaxBytesLimit);

// beff_message_sizes(growth_for_max_bytes(max_bytes)); the last size is
// max_bytes exactly.
std::vector<std::uint64_t> beff_message_sizes_for_max_bytes(std::uint64_t max_bytes,
                                                            std::uint64_t limit_bytes = kBeffMaxBytesLimit);

// The smallest max_bytes growth_for_max_bytes accepts (4104: below it two of
// the rounded sizes 4 KiB * a^k coincide).
std::uint64_t beff_smallest_max_bytes();

}  // namespace bws::model
