#pragma once
// The seven Benchmark Streaming tests of Chalmers & Warburton (
// streamParanumal): names, what each does and the bytes it moves.
#include <array>
#include <cstdint>
#include <string>

namespace bws::bs {

enum class BsTest { Copy = 1, Axpy = 2, Norm = 3, Dot = 4, CgUpdate = 5, Gather = 6, Scatter = 7 };

struct BsTestSpec {
  BsTest test;
  const char* option_name;  // "bs1": as --bs.tests names it
  const char* label;        // "BS1": the test column
  const char* what;         // "copy y = x"
  int bytes_per_entry;      // BS1-BS5: bytes per vector entry (the paper's); 0 for the mesh tests
  int arrays;               // BS1-BS5: double arrays of n entries it needs
};

inline constexpr std::array<BsTestSpec, 7> kBsTests = {{
    {BsTest::Copy, "bs1", "BS1", "copy y = x", 16, 2},
    {BsTest::Axpy, "bs2", "BS2", "axpy y = a*x + b*y", 24, 2},
    {BsTest::Norm, "bs3", "BS3", "norm sum x*x", 8, 1},
    {BsTest::Dot, "bs4", "BS4", "dot sum x*y", 16, 2},
    {BsTest::CgUpdate, "bs5", "BS5", "fused CG update x+=a*p, r-=a*Ap, r*r", 48, 4},
    {BsTest::Gather, "bs6", "BS6", "gather x_G = Z^T x_L", 0, 0},
    {BsTest::Scatter, "bs7", "BS7", "scatter x_L = Z x_G", 0, 0},
}};

inline const BsTestSpec& bs_spec(BsTest t) { return kBsTests[static_cast<std::size_t>(t) - 1]; }
inline bool is_mesh_test(BsTest t) { return t == BsTest::Gather || t == BsTest::Scatter; }

// Bytes one call of BS1-BS5 moves on n entries: reads and writes counted
// once each, as the paper counts them (16, 24, 8, 16, 48 bytes per entry).
inline std::uint64_t vector_test_bytes(BsTest t, std::uint64_t entries) {
  return static_cast<std::uint64_t>(bs_spec(t).bytes_per_entry) * entries;
}

}  // namespace bws::bs
