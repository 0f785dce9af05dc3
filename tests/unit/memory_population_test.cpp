// lib/model/MemoryPopulation and lib/run/MemoryDiscovery: the DIMM
// population from dmidecode text and from the raw SMBIOS table, and the
// theoretical bandwidth it gives. Expected bandwidths are worked out here
// from each fixture's stated configuration, never taken from the code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bws/Version.hpp"
#include "model/MemoryPopulation.hpp"
#include "run/MemoryDiscovery.hpp"

using namespace bws::model;

namespace {

std::string fixture(const std::string& name) {
  const std::string path = std::string(BWS_SOURCE_DIR) + "/tests/fixtures/dmidecode/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

constexpr std::uint64_t kGiB = 1ull << 30;
// One DDR5-4800 channel: 4800e6 transfers/s * 8 B per transfer (64 data bits).
constexpr double kDdr5_4800ChannelBps = 4800e6 * 8;  // 38.4e9

const DimmSlot* slot_at(const MemoryPopulation& p, const std::string& locator) {
  for (const DimmSlot& s : p.slots)
    if (s.locator == locator) return &s;
  return nullptr;
}

const ChannelBandwidth* channel_of(const TheoreticalBandwidth& b, int socket, const std::string& channel) {
  for (const ChannelBandwidth& c : b.channels)
    if (c.socket == socket && c.channel == channel) return &c;
  return nullptr;
}

std::vector<PopulationFinding> of_kind(const std::vector<PopulationFinding>& findings, const std::string& kind) {
  std::vector<PopulationFinding> out;
  for (const PopulationFinding& f : findings)
    if (f.kind == kind) out.push_back(f);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One populated type 17 record as dmidecode 3.x prints it.
std::string dmidecode_record(const std::string& locator, const std::string& bank, const std::string& size,
                             const std::string& speed, const std::string& configured,
                             const std::string& type = "DDR5") {
  return "Handle 0x0050, DMI type 17, 92 bytes\n"
         "Memory Device\n"
         "\tArray Handle: 0x0030\n"
         "\tError Information Handle: Not Provided\n"
         "\tTotal Width: 72 bits\n"
         "\tData Width: 64 bits\n"
         "\tSize: " + size + "\n"
         "\tForm Factor: DIMM\n"
         "\tSet: None\n"
         "\tLocator: " + locator + "\n"
         "\tBank Locator: " + bank + "\n"
         "\tType: " + type + "\n"
         "\tType Detail: Synchronous Registered (Buffered)\n"
         "\tSpeed: " + speed + "\n"
         "\tManufacturer: Hynix\n"
         "\tSerial Number: 8A1B2C3D\n"
         "\tAsset Tag: Not Specified\n"
         "\tPart Number: HMA84GR7CJR4N-XN\n"
         "\tRank: 2\n"
         "\tConfigured Memory Speed: " + configured + "\n"
         "\n";
}

const std::string kHeader = "# dmidecode 3.4\nGetting SMBIOS data from sysfs.\nSMBIOS 3.3.0 present.\n\n";

}  // namespace

// ---- dmidecode text: the fixtures ----

TEST(MemoryPopulation, ServerFixtureParsesEverySlot) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-4800.txt"));
  EXPECT_TRUE(p.readable) << p.unknown_reason;
  EXPECT_EQ(p.source, "dmidecode");
  // 2 sockets x 8 channels x 2 slots, the second slot of each channel empty.
  ASSERT_EQ(p.slots.size(), 32u);
  EXPECT_EQ(std::count_if(p.slots.begin(), p.slots.end(), [](const DimmSlot& s) { return s.size_bytes > 0; }), 16);

  const DimmSlot* a1 = slot_at(p, "CPU0_DIMM_A1");
  ASSERT_NE(a1, nullptr);
  EXPECT_EQ(a1->bank_locator, "NODE 0");
  EXPECT_EQ(a1->size_bytes, 32 * kGiB);
  EXPECT_EQ(a1->rated_mts, 4800);
  EXPECT_EQ(a1->configured_mts, 4800);
  EXPECT_EQ(a1->data_width_bits, 64);  // Total Width 80 bits: the ECC bits are not data
  EXPECT_EQ(a1->type, "DDR5");
  EXPECT_EQ(a1->form_factor, "DIMM");
  EXPECT_EQ(a1->manufacturer, "Samsung");
  EXPECT_EQ(a1->part_number, "M321R4GA3BB6-CQKET");  // padding trimmed
  EXPECT_EQ(a1->socket, 0);
  EXPECT_EQ(a1->channel, "A");

  const DimmSlot* h2 = slot_at(p, "CPU1_DIMM_H2");
  ASSERT_NE(h2, nullptr);
  EXPECT_EQ(h2->size_bytes, 0u);  // "No Module Installed"
  EXPECT_EQ(h2->rated_mts, 0);
  EXPECT_EQ(h2->socket, 1);
  EXPECT_EQ(h2->channel, "H");
}

TEST(MemoryPopulation, ServerFixtureBandwidthIsSixteenDdr5_4800Channels) {
  const TheoreticalBandwidth b =
      theoretical_bandwidth(parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-4800.txt")));
  ASSERT_TRUE(b.known) << b.unknown_reason;
  // 16 channels x 4800e6 transfers/s x 8 B = 614.4e9 B/s; 8 channels per socket.
  EXPECT_DOUBLE_EQ(b.node_Bps, 614.4e9);
  EXPECT_DOUBLE_EQ(b.node_Bps, 16 * kDdr5_4800ChannelBps);
  EXPECT_EQ(b.populated_channels, 16);
  EXPECT_EQ(b.total_channels, 16);
  EXPECT_EQ(b.configured_mts_min, 4800);
  EXPECT_EQ(b.unrecognised_channel_dimms, 0);
  ASSERT_EQ(b.sockets.size(), 2u);
  for (int socket = 0; socket < 2; ++socket) {
    EXPECT_EQ(b.sockets[socket].socket, socket);
    EXPECT_EQ(b.sockets[socket].populated_channels, 8);
    EXPECT_EQ(b.sockets[socket].total_channels, 8);
    EXPECT_DOUBLE_EQ(b.sockets[socket].Bps, 307.2e9);
  }
  ASSERT_EQ(b.channels.size(), 16u);
  for (const ChannelBandwidth& c : b.channels) {
    EXPECT_EQ(c.dimms, 1);
    EXPECT_EQ(c.mts, 4800);
    EXPECT_EQ(c.data_width_bits, 64);
    EXPECT_DOUBLE_EQ(c.Bps, 38.4e9);
  }
  EXPECT_TRUE(population_findings(parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-4800.txt"))).empty());
}

TEST(MemoryPopulation, OneMissingDimmLeavesFifteenChannelsAndUnevenSockets) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-4800-one-missing.txt"));
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  // Socket 1 channel D empty: 15 x 38.4e9 = 576e9; socket 1: 7 x 38.4e9 = 268.8e9.
  EXPECT_EQ(b.populated_channels, 15);
  EXPECT_EQ(b.total_channels, 16);
  EXPECT_DOUBLE_EQ(b.node_Bps, 576e9);
  ASSERT_EQ(b.sockets.size(), 2u);
  EXPECT_DOUBLE_EQ(b.sockets[0].Bps, 307.2e9);
  EXPECT_DOUBLE_EQ(b.sockets[1].Bps, 268.8e9);
  EXPECT_EQ(b.sockets[1].populated_channels, 7);
  EXPECT_EQ(b.sockets[1].total_channels, 8);
  EXPECT_EQ(channel_of(b, 1, "D"), nullptr);

  const std::vector<PopulationFinding> findings = population_findings(p);
  EXPECT_TRUE(of_kind(findings, "dimm_below_rated").empty());
  const std::vector<PopulationFinding> uneven = of_kind(findings, "uneven_channels");
  ASSERT_EQ(uneven.size(), 2u);
  EXPECT_EQ(uneven[0].subject, "socket 1");
  EXPECT_TRUE(contains(uneven[0].text, "channel D empty")) << uneven[0].text;
  EXPECT_TRUE(contains(uneven[0].text, "7 of 8")) << uneven[0].text;
  EXPECT_EQ(uneven[1].subject, "node");
  EXPECT_TRUE(contains(uneven[1].text, "socket 0: 8, socket 1: 7")) << uneven[1].text;
}

TEST(MemoryPopulation, DimmConfiguredBelowRatedSlowsItsChannel) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-one-at-4400.txt"));
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  // CPU1_DIMM_C1 runs at 4400: its channel 4400e6 x 8 = 35.2e9, the other 15 at 38.4e9.
  const ChannelBandwidth* c = channel_of(b, 1, "C");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->mts, 4400);
  EXPECT_DOUBLE_EQ(c->Bps, 35.2e9);
  EXPECT_DOUBLE_EQ(b.node_Bps, 15 * 38.4e9 + 35.2e9);
  EXPECT_DOUBLE_EQ(b.sockets[1].Bps, 7 * 38.4e9 + 35.2e9);
  EXPECT_EQ(b.configured_mts_min, 4400);

  const std::vector<PopulationFinding> findings = population_findings(p);
  const std::vector<PopulationFinding> slow = of_kind(findings, "dimm_below_rated");
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].subject, "CPU1_DIMM_C1");
  EXPECT_TRUE(contains(slow[0].text, "CPU1_DIMM_C1")) << slow[0].text;
  EXPECT_TRUE(contains(slow[0].text, "4400 MT/s")) << slow[0].text;
  EXPECT_TRUE(contains(slow[0].text, "rated 4800 MT/s")) << slow[0].text;
  EXPECT_TRUE(contains(slow[0].text, "35.2 GB/s")) << slow[0].text;
  EXPECT_TRUE(of_kind(findings, "uneven_channels").empty());
}

TEST(MemoryPopulation, LaptopTwoSodimmChannels) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("laptop-ddr4-3200.txt"));
  ASSERT_TRUE(p.readable) << p.unknown_reason;
  ASSERT_EQ(p.slots.size(), 2u);
  EXPECT_EQ(p.slots[0].locator, "ChannelA-DIMM0");
  EXPECT_EQ(p.slots[0].bank_locator, "BANK 0");
  EXPECT_EQ(p.slots[1].bank_locator, "BANK 2");
  EXPECT_EQ(p.slots[0].form_factor, "SODIMM");
  EXPECT_EQ(p.slots[0].type, "DDR4");
  EXPECT_EQ(p.slots[0].size_bytes, 16 * kGiB);
  EXPECT_EQ(p.slots[0].channel, "A");
  EXPECT_EQ(p.slots[1].channel, "B");
  EXPECT_EQ(p.slots[1].socket, 0);

  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  // 2 channels x 3200e6 x 8 B = 51.2e9 B/s.
  EXPECT_DOUBLE_EQ(b.node_Bps, 51.2e9);
  EXPECT_EQ(b.populated_channels, 2);
  ASSERT_EQ(b.sockets.size(), 1u);
  EXPECT_TRUE(population_findings(p).empty());
}

TEST(MemoryPopulation, VmWithoutRecordsIsUnknownWithAReason) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("vm-no-records.txt"));
  EXPECT_FALSE(p.readable);
  EXPECT_TRUE(p.slots.empty());
  EXPECT_TRUE(contains(p.unknown_reason, "no SMBIOS type 17")) << p.unknown_reason;
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  EXPECT_FALSE(b.known);
  EXPECT_EQ(b.unknown_reason, p.unknown_reason);
  EXPECT_TRUE(population_findings(p).empty());
  EXPECT_TRUE(numa_theoretical_Bps(b, {1}).empty());

  // A machine without SMBIOS at all (a container, firecracker).
  const MemoryPopulation none = parse_dmidecode_memory(
      "# dmidecode 3.4\nScanning /dev/mem for entry point.\n# No SMBIOS nor DMI entry point found, sorry.\n");
  EXPECT_FALSE(none.readable);
  EXPECT_TRUE(contains(none.unknown_reason, "no SMBIOS entry point")) << none.unknown_reason;
  EXPECT_FALSE(parse_dmidecode_memory("").readable);
}

TEST(MemoryPopulation, QemuRecordsAreKeptButSpeedUnknown) {
  const MemoryPopulation p = parse_dmidecode_memory(fixture("vm-qemu.txt"));
  ASSERT_EQ(p.slots.size(), 1u);
  EXPECT_EQ(p.slots[0].locator, "DIMM 0");
  EXPECT_EQ(p.slots[0].bank_locator, "");  // "Not Specified"
  EXPECT_EQ(p.slots[0].manufacturer, "QEMU");
  EXPECT_EQ(p.slots[0].type, "RAM");
  EXPECT_EQ(p.slots[0].size_bytes, 16 * kGiB);
  EXPECT_EQ(p.slots[0].rated_mts, 0);
  EXPECT_EQ(p.slots[0].data_width_bits, 0);
  EXPECT_FALSE(p.readable);
  EXPECT_TRUE(contains(p.unknown_reason, "speed unknown")) << p.unknown_reason;
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  EXPECT_FALSE(b.known);
  EXPECT_TRUE(contains(b.unknown_reason, "speed unknown"));
  EXPECT_TRUE(population_findings(p).empty());
}

// ---- dmidecode text: other forms ----

TEST(MemoryPopulation, OlderDmidecodeWordingAndQuietMode) {
  // dmidecode 2.x: "MHz", "Configured Clock Speed", sizes in MB; -q drops
  // the Handle lines.
  const std::string text =
      "Memory Device\n"
      "\tTotal Width: 72 bits\n"
      "\tData Width: 64 bits\n"
      "\tSize: 16384 MB\n"
      "\tForm Factor: DIMM\n"
      "\tLocator: PROC 1 DIMM 1\n"
      "\tBank Locator: Not Specified\n"
      "\tType: DDR4\n"
      "\tSpeed: 2666 MHz\n"
      "\tManufacturer: HPE\n"
      "\tPart Number: 840756-091\n"
      "\tConfigured Clock Speed: 2400 MHz\n"
      "\n";
  const MemoryPopulation p = parse_dmidecode_memory(text);
  ASSERT_EQ(p.slots.size(), 1u);
  EXPECT_EQ(p.slots[0].size_bytes, 16 * kGiB);
  EXPECT_EQ(p.slots[0].rated_mts, 2666);
  EXPECT_EQ(p.slots[0].configured_mts, 2400);
  EXPECT_EQ(p.slots[0].socket, 0);  // PROC 1, the only CPU named
  EXPECT_EQ(p.slots[0].channel, "");
  EXPECT_TRUE(p.readable);
}

TEST(MemoryPopulation, UnrecognisedChannelsCountEachDimmAsAChannel) {
  // HPE: "PROC n DIMM m" names the socket, not the channel. Two DDR4-2933
  // DIMMs per socket: each counts as a channel, 2 x 2933e6 x 8 per socket.
  const std::string text = kHeader + dmidecode_record("PROC 1 DIMM 1", "Not Specified", "32 GB", "2933 MT/s",
                                                      "2933 MT/s", "DDR4") +
                           dmidecode_record("PROC 1 DIMM 2", "Not Specified", "No Module Installed", "", "", "DDR4") +
                           dmidecode_record("PROC 1 DIMM 3", "Not Specified", "32 GB", "2933 MT/s", "2933 MT/s", "DDR4") +
                           dmidecode_record("PROC 2 DIMM 1", "Not Specified", "32 GB", "2933 MT/s", "2933 MT/s", "DDR4") +
                           dmidecode_record("PROC 2 DIMM 3", "Not Specified", "32 GB", "2933 MT/s", "2933 MT/s", "DDR4");
  const MemoryPopulation p = parse_dmidecode_memory(text);
  ASSERT_TRUE(p.readable) << p.unknown_reason;
  EXPECT_EQ(slot_at(p, "PROC 1 DIMM 1")->socket, 0);  // PROC 1, 2 -> sockets 0, 1
  EXPECT_EQ(slot_at(p, "PROC 2 DIMM 3")->socket, 1);
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  EXPECT_EQ(b.unrecognised_channel_dimms, 4);
  EXPECT_EQ(b.populated_channels, 4);
  EXPECT_EQ(b.total_channels, 4);  // the empty slot of unknown channel says nothing
  ASSERT_EQ(b.sockets.size(), 2u);
  EXPECT_DOUBLE_EQ(b.sockets[0].Bps, 2 * 2933e6 * 8);
  EXPECT_DOUBLE_EQ(b.node_Bps, 4 * 2933e6 * 8);
  EXPECT_TRUE(population_findings(p).empty());
}

TEST(MemoryPopulation, TwoDimmsPerChannelCountOnceAtTheSlowerRate) {
  // AMD: Locator "DIMM 0"/"DIMM 1", Bank Locator "P0 CHANNEL A". Channel A
  // holds two DIMMs (one configured at 4400), channel B one.
  const std::string text =
      kHeader + dmidecode_record("DIMM 0", "P0 CHANNEL A", "32 GB", "4800 MT/s", "4800 MT/s") +
      dmidecode_record("DIMM 1", "P0 CHANNEL A", "32 GB", "4800 MT/s", "4400 MT/s") +
      dmidecode_record("DIMM 0", "P0 CHANNEL B", "64 GB", "4800 MT/s", "4800 MT/s");
  const MemoryPopulation p = parse_dmidecode_memory(text);
  const TheoreticalBandwidth b = theoretical_bandwidth(p);
  ASSERT_TRUE(b.known) << b.unknown_reason;
  ASSERT_EQ(b.channels.size(), 2u);
  EXPECT_EQ(b.channels[0].channel, "A");
  EXPECT_EQ(b.channels[0].dimms, 2);
  EXPECT_EQ(b.channels[0].mts, 4400);
  // One channel at 4400e6 x 8 B, one at 4800e6 x 8 B.
  EXPECT_DOUBLE_EQ(b.node_Bps, 4400e6 * 8 + 4800e6 * 8);
  EXPECT_EQ(b.populated_channels, 2);

  const std::vector<PopulationFinding> findings = population_findings(p);
  ASSERT_EQ(of_kind(findings, "dimm_below_rated").size(), 1u);
  const std::vector<PopulationFinding> uneven = of_kind(findings, "uneven_channels");
  ASSERT_EQ(uneven.size(), 1u);
  EXPECT_EQ(uneven[0].subject, "socket 0");
  EXPECT_TRUE(contains(uneven[0].text, "different numbers of DIMMs (A: 2, B: 1)")) << uneven[0].text;
}

TEST(MemoryPopulation, DifferentCapacitiesPerChannelAreUneven) {
  const std::string text = kHeader + dmidecode_record("DIMM_A1", "BANK 0", "16 GB", "4800 MT/s", "4800 MT/s") +
                           dmidecode_record("DIMM_B1", "BANK 2", "32 GB", "4800 MT/s", "4800 MT/s");
  const std::vector<PopulationFinding> findings = population_findings(parse_dmidecode_memory(text));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "uneven_channels");
  EXPECT_TRUE(contains(findings[0].text, "different capacities (A: 16 GB, B: 32 GB)")) << findings[0].text;
}

TEST(MemoryPopulation, LocatorSchemes) {
  const auto expect_place = [](const std::string& locator, const std::string& bank, int socket,
                               const std::string& channel) {
    const DimmPlace place = dimm_place(locator, bank);
    EXPECT_EQ(place.socket, socket) << locator << " / " << bank;
    EXPECT_EQ(place.channel, channel) << locator << " / " << bank;
  };
  expect_place("DIMM 0", "P0 CHANNEL A", 0, "A");  // AMD reference, Supermicro H11/H12
  expect_place("DIMM 1", "P1 CHANNEL H", 1, "H");
  expect_place("CPU0_DIMM_A1", "NODE 0", 0, "A");  // Intel
  expect_place("CPU1_DIMM_H2", "NODE 1", 1, "H");
  expect_place("CPU1_DIMMA1", "", 1, "A");          // ASUS, Gigabyte
  expect_place("P2-DIMMB1", "P1_Node0_Channel1_Dimm0", 2, "B");  // Supermicro: the locator wins
  expect_place("DIMM_A1", "BANK 0", 0, "A");        // one-socket boards: per-slot banks
  expect_place("DIMM_B2", "BANK 3", 0, "B");
  expect_place("PROC 1 DIMM 3", "", 1, "");         // HPE: no channel in the texts
  expect_place("DIMM 0", "P0_Node1_Channel1_Dimm0", 0, "Node1_Channel1");
  expect_place("ChannelA-DIMM0", "BANK 0", 0, "A");  // laptops
  expect_place("ChannelB-DIMM0", "BANK 2", 0, "B");
  expect_place("Controller1-ChannelA-DIMM0", "BANK 0", 0, "1A");
  expect_place("DIMM 1", "BANK 1", -1, "1");  // the bank is the channel
  expect_place("DIMM 0", "CHANNEL B", -1, "B");
  expect_place("A1", "", -1, "");  // Dell: neither
  expect_place("", "", -1, "");
}


// ---- NUMA ----

TEST(MemoryPopulation, NumaNodesSplitTheirSocket) {
  const TheoreticalBandwidth b =
      theoretical_bandwidth(parse_dmidecode_memory(fixture("server-2s-16ch-ddr5-4800.txt")));
  // Sub-NUMA clustering, 2 nodes per socket: 307.2e9 / 2 = 153.6e9 each.
  const std::vector<double> per_node = numa_theoretical_Bps(b, {2, 2});
  ASSERT_EQ(per_node.size(), 4u);
  for (double Bps : per_node) EXPECT_DOUBLE_EQ(Bps, 153.6e9);
  const std::vector<double> one_each = numa_theoretical_Bps(b, {1, 1});
  ASSERT_EQ(one_each.size(), 2u);
  EXPECT_DOUBLE_EQ(one_each[1], 307.2e9);
  EXPECT_TRUE(numa_theoretical_Bps(b, {2}).empty());     // counts do not fit the sockets
  EXPECT_TRUE(numa_theoretical_Bps(b, {2, 0}).empty());
}

// ---- discovery on this machine ----

TEST(MemoryDiscovery, NeverThrowsAndSaysWhy) {
  const MemoryPopulation p = bws::run::read_memory_population();
  if (p.slots.empty()) {
    EXPECT_FALSE(p.readable);
    EXPECT_EQ(p.source, "");
    EXPECT_TRUE(contains(p.unknown_reason, "no SMBIOS memory records")) << p.unknown_reason;
  } else {
    EXPECT_TRUE(p.source == "dmidecode" || p.source == "sysfs") << p.source;
    EXPECT_EQ(p.readable, p.unknown_reason.empty()) << p.unknown_reason;
  }
}
