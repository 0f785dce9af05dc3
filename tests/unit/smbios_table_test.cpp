// lib/model/MemoryPopulation: the DIMM population from the raw SMBIOS
// table (sysfs), on hand-built structure tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/MemoryPopulation.hpp"

using namespace bws::model;

namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- a hand-built SMBIOS structure table ----

void put16(std::vector<std::uint8_t>& s, std::size_t at, std::uint16_t v) {
  s[at] = static_cast<std::uint8_t>(v & 0xFF);
  s[at + 1] = static_cast<std::uint8_t>(v >> 8);
}
void put32(std::vector<std::uint8_t>& s, std::size_t at, std::uint32_t v) {
  put16(s, at, static_cast<std::uint16_t>(v & 0xFFFF));
  put16(s, at + 2, static_cast<std::uint16_t>(v >> 16));
}

// A structure: formatted area of `length` bytes (header: type, length,
// handle), `fill` sets its fields, then the strings and the closing NUL(s).
std::vector<std::uint8_t> smbios_structure(std::uint8_t type, std::uint8_t length, std::uint16_t handle,
                                           const std::vector<std::string>& strings,
                                           void (*fill)(std::vector<std::uint8_t>&) = nullptr) {
  std::vector<std::uint8_t> s(length, 0);
  s[0] = type;
  s[1] = length;
  put16(s, 2, handle);
  if (fill) fill(s);
  for (const std::string& text : strings) {
    s.insert(s.end(), text.begin(), text.end());
    s.push_back(0);
  }
  if (strings.empty()) s.push_back(0);
  s.push_back(0);
  return s;
}

void append(std::vector<std::uint8_t>& table, const std::vector<std::uint8_t>& structure) {
  table.insert(table.end(), structure.begin(), structure.end());
}

}  // namespace

// ---- the raw SMBIOS table ----

TEST(MemoryPopulation, RawSmbiosTableParsesType17ByOffsets) {
  std::vector<std::uint8_t> table;
  // Type 0 (BIOS), with strings, to walk past.
  append(table, smbios_structure(0, 0x18, 0x0000, {"Vendor", "1.2.3", "01/02/2024"}, [](std::vector<std::uint8_t>& s) {
           s[4] = 1, s[5] = 2, s[8] = 3;
         }));
  // Type 16 without strings: the formatted area then two NULs.
  append(table, smbios_structure(16, 0x17, 0x0030, {}, [](std::vector<std::uint8_t>& s) {
           s[4] = 0x03, s[5] = 0x03, s[6] = 0x06;
           put16(s, 0x0D, 3);
         }));
  // SMBIOS 3.3 type 17 (0x5C bytes): 64 GB through Extended Size, rated
  // 3200, configured through the 32-bit extended field (2933).
  append(table, smbios_structure(17, 0x5C, 0x0040, {"DIMM 0", "P0 CHANNEL A", "Micron Technology", "0F1E2D3C",
                                                    "36ASF8G72PZ-3G2E1   "},
                                 [](std::vector<std::uint8_t>& s) {
                                   put16(s, 0x04, 0x0030);
                                   put16(s, 0x06, 0xFFFE);
                                   put16(s, 0x08, 72);      // Total Width: with ECC
                                   put16(s, 0x0A, 64);      // Data Width
                                   put16(s, 0x0C, 0x7FFF);  // see Extended Size
                                   s[0x0E] = 0x09;          // DIMM
                                   s[0x10] = 1, s[0x11] = 2;
                                   s[0x12] = 0x1A;  // DDR4
                                   put16(s, 0x13, 0x2080);
                                   put16(s, 0x15, 3200);
                                   s[0x17] = 3, s[0x18] = 4, s[0x19] = 0, s[0x1A] = 5;
                                   s[0x1B] = 2;
                                   put32(s, 0x1C, 65536);   // MB
                                   put16(s, 0x20, 0xFFFF);  // see Extended Configured Memory Speed
                                   put32(s, 0x58, 2933);
                                 }));
  // An empty slot: what follows the type is not read (as dmidecode).
  append(table, smbios_structure(17, 0x5C, 0x0041, {"DIMM 0", "P0 CHANNEL B", "NO DIMM"},
                                 [](std::vector<std::uint8_t>& s) {
                                   put16(s, 0x08, 0xFFFF);
                                   put16(s, 0x0A, 0xFFFF);
                                   put16(s, 0x0C, 0);
                                   s[0x0E] = 0x09;
                                   s[0x10] = 1, s[0x11] = 2;
                                   s[0x12] = 0x02;  // Unknown
                                   put16(s, 0x15, 3200);
                                   s[0x17] = 3;
                                 }));
  // SMBIOS 2.3 type 17 (0x1B bytes): no configured speed, no extended fields.
  append(table, smbios_structure(17, 0x1B, 0x0042, {"DIMM 0", "P0 CHANNEL C", "Kingston", "KVR400X64C3A/1G"},
                                 [](std::vector<std::uint8_t>& s) {
                                   put16(s, 0x08, 64);
                                   put16(s, 0x0A, 64);
                                   put16(s, 0x0C, 1024);  // MB
                                   s[0x0E] = 0x09;
                                   s[0x10] = 1, s[0x11] = 2;
                                   s[0x12] = 0x12;  // DDR
                                   put16(s, 0x15, 400);
                                   s[0x17] = 3, s[0x1A] = 4;
                                 }));
  append(table, smbios_structure(127, 4, 0xFEFF, {}));
  // Past End-of-Table: not read.
  append(table, smbios_structure(17, 0x1B, 0x0043, {"DIMM 9"}, [](std::vector<std::uint8_t>& s) {
           put16(s, 0x0C, 1024);
           s[0x10] = 1;
         }));

  const MemoryPopulation p = parse_smbios_table(table);
  EXPECT_EQ(p.source, "sysfs");
  ASSERT_EQ(p.slots.size(), 3u);
  const DimmSlot& a = p.slots[0];
  EXPECT_EQ(a.locator, "DIMM 0");
  EXPECT_EQ(a.bank_locator, "P0 CHANNEL A");
  EXPECT_EQ(a.size_bytes, 64 * kGiB);
  EXPECT_EQ(a.data_width_bits, 64);
  EXPECT_EQ(a.form_factor, "DIMM");
  EXPECT_EQ(a.type, "DDR4");
  EXPECT_EQ(a.rated_mts, 3200);
  EXPECT_EQ(a.configured_mts, 2933);
  EXPECT_EQ(a.manufacturer, "Micron Technology");
  EXPECT_EQ(a.part_number, "36ASF8G72PZ-3G2E1");
  EXPECT_EQ(a.socket, 0);
  EXPECT_EQ(a.channel, "A");

  const DimmSlot& empty = p.slots[1];
  EXPECT_EQ(empty.size_bytes, 0u);
  EXPECT_EQ(empty.type, "Unknown");
  EXPECT_EQ(empty.data_width_bits, 0);
  EXPECT_EQ(empty.rated_mts, 0);
  EXPECT_EQ(empty.manufacturer, "");
  EXPECT_EQ(empty.channel, "B");

  const DimmSlot& old = p.slots[2];
  EXPECT_EQ(old.size_bytes, 1 * kGiB);
  EXPECT_EQ(old.type, "DDR");
  EXPECT_EQ(old.rated_mts, 400);
  EXPECT_EQ(old.configured_mts, 0);  // the 2.3 structure has no such field
  EXPECT_EQ(old.manufacturer, "Kingston");
  EXPECT_EQ(old.part_number, "KVR400X64C3A/1G");

  ASSERT_TRUE(p.readable) << p.unknown_reason;
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  // Channel A at its configured 2933e6 x 8 B; channel C at its rated
  // 400e6 x 8 B (no configured speed); channel B empty.
  EXPECT_DOUBLE_EQ(b.node_Bps, 2933e6 * 8 + 400e6 * 8);
  EXPECT_EQ(b.populated_channels, 2);
  EXPECT_EQ(b.total_channels, 3);
}

TEST(MemoryPopulation, RawSmbiosShortAndBrokenStructures) {
  // SMBIOS 2.1 type 17 (0x15 bytes): size with bit 15 set counts kB; no
  // speed field, so the population is not readable for bandwidth.
  std::vector<std::uint8_t> old;
  append(old, smbios_structure(17, 0x15, 0x0011, {"SIMM 0"}, [](std::vector<std::uint8_t>& s) {
           put16(s, 0x0C, 0x8000 | 512);
           s[0x10] = 1;
           s[0x12] = 0x03;  // DRAM
         }));
  const MemoryPopulation p = parse_smbios_table(old);
  ASSERT_EQ(p.slots.size(), 1u);
  EXPECT_EQ(p.slots[0].size_bytes, 512u * 1024);
  EXPECT_EQ(p.slots[0].locator, "SIMM 0");
  EXPECT_EQ(p.slots[0].rated_mts, 0);
  EXPECT_FALSE(p.readable);
  EXPECT_TRUE(contains(p.unknown_reason, "speed unknown"));

  // A structure whose length runs past the table, and one with a length
  // under 4: the walk stops without reading past the end.
  std::vector<std::uint8_t> truncated = smbios_structure(17, 0x5C, 0x0040, {"DIMM 0"});
  truncated.resize(0x30);
  EXPECT_TRUE(parse_smbios_table(truncated).slots.empty());
  EXPECT_TRUE(parse_smbios_table({17, 2, 0, 0, 0, 0}).slots.empty());
  std::vector<std::uint8_t> unterminated = smbios_structure(17, 0x15, 0x0040, {"DIMM 0"});
  unterminated.resize(unterminated.size() - 2);
  EXPECT_TRUE(parse_smbios_table(unterminated).slots.empty());
  const MemoryPopulation nothing = parse_smbios_table({});
  EXPECT_FALSE(nothing.readable);
  EXPECT_TRUE(contains(nothing.unknown_reason, "no SMBIOS type 17"));
}
