#pragma once
// Sizes and counts from the command line: "64M", "1GiB", "1e7", "4096".
// Binary suffixes K, M, G, T and KiB, MiB, GiB, TiB (any case) multiply by
// powers of 1024, as dd and pmbw read them; decimal suffixes KB, MB, GB, TB
// by powers of 1000, as likwid and the SI read them. "B" alone means bytes.
#include <cstdint>
#include <string>
#include <string_view>

namespace bws {

// Parses a positive size. Throws UsageError naming `option` for text that is
// not a number, negative, zero, fractional after scaling, or above `max`.
std::uint64_t parse_size(std::string_view text, std::string_view option,
                         std::uint64_t max = UINT64_C(1) << 50);

// "1.50 GiB", "512 KiB", "17 B": binary units for byte counts.
std::string format_bytes(double bytes);
// "28.31 GB/s": decimal units for rates, as STREAM prints them.
std::string format_rate(double bytes_per_second);

}  // namespace bws
