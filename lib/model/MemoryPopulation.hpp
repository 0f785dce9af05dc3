#pragma once
// The node's DIMM population as the firmware describes it (SMBIOS type 17,
// "Memory Device", one record per slot) and the memory bandwidth those DIMMs
// can deliver at most:
//     B = sum over populated channels of  transfers/s * bytes per transfer
// where a channel runs at its slowest DIMM's configured rate and moves its
// data width (64 bits = 8 B for a DDR4/DDR5 DIMM; the ECC bits do not carry
// data). A measured STREAM triad is compared against this ceiling.
// Pure functions: the text and bytes are read elsewhere (run/MemoryDiscovery).
#include <cstdint>
#include <string>
#include <vector>

namespace bws::model {

struct DimmSlot {
  std::string locator, bank_locator;  // "CPU0_DIMM_A1", "P0 CHANNEL A"; "" when not specified
  std::uint64_t size_bytes = 0;       // 0: empty slot ("No Module Installed", or size unknown)
  int rated_mts = 0;                  // "Speed": what the DIMM is rated for [MT/s]; 0 unknown
  int configured_mts = 0;             // "Configured Memory Speed": what it runs at [MT/s]; 0 unknown
  int data_width_bits = 0;            // "Data Width" (without ECC); 0 unknown
  std::string type;                   // "DDR5", "DDR4", "RAM", "Unknown"
  std::string form_factor;            // "DIMM", "SODIMM"
  std::string manufacturer, part_number;
  int socket = -1;       // 0-based, in the order of the locators' CPU numbers; -1 unknown
  std::string channel;   // "A", "Node0_Channel1", "0"; "" when the locators do not say
};

struct MemoryPopulation {
  // True when the slots tell the bandwidth: at least one populated DIMM and
  // every populated DIMM's speed known. A VM's records (QEMU: "Speed:
  // Unknown") are kept in `slots` but leave this false.
  bool readable = false;
  std::string source;          // "dmidecode", "sysfs"; "" when nothing was read
  std::string unknown_reason;  // why not readable
  std::vector<DimmSlot> slots;  // every type 17 record, empty slots included, in table order
};

// Where a slot sits, from its Locator and Bank Locator texts, for the common
// vendor schemes (see DimmPlacement.cpp). The socket is the number as
// written (CPU1 -> 1); the parsers renumber sockets from 0 afterwards.
struct DimmPlace {
  int socket = -1;      // -1 when neither text names a CPU
  std::string channel;  // "" when neither text names a channel
};
DimmPlace dimm_place(const std::string& locator, const std::string& bank_locator);

// `dmidecode -t memory` or `dmidecode -t 17` output (dmidecode 2.x and 3.x;
// with or without -q). Every "Memory Device" record becomes a slot.
MemoryPopulation parse_dmidecode_memory(const std::string& text);

// The raw SMBIOS structure table, as Linux exposes it in
// /sys/firmware/dmi/tables/DMI (no entry point). Type 17 fields per SMBIOS
// 3.x, each read only when the structure is long enough to hold it.
MemoryPopulation parse_smbios_table(const std::vector<std::uint8_t>& raw);

struct ChannelBandwidth {
  int socket = -1;
  std::string channel;      // "" when not recognised: the channel of a single DIMM
  int dimms = 0;            // populated DIMMs on the channel (2 with 2 DIMMs per channel)
  int mts = 0;              // the slowest DIMM's configured (else rated) MT/s
  int data_width_bits = 0;  // the narrowest DIMM's data width
  double Bps = 0;           // mts * 1e6 * data_width_bits / 8
};

struct SocketBandwidth {
  int socket = -1;
  int populated_channels = 0;  // channels with at least one DIMM
  int total_channels = 0;      // channels the slots name, empty ones included
  double Bps = 0;              // sum over its populated channels
};

struct TheoreticalBandwidth {
  bool known = false;
  std::string unknown_reason;
  double node_Bps = 0;          // sum over the sockets
  int populated_channels = 0;
  int total_channels = 0;
  int configured_mts_min = 0;   // the slowest channel's MT/s
  std::vector<SocketBandwidth> sockets;    // ascending socket
  std::vector<ChannelBandwidth> channels;  // populated channels, by socket then first slot
  // Channels the locators did not name, each populated DIMM counted as a
  // channel of its own (an upper bound with 2 DIMMs per channel).
  int unrecognised_channel_dimms = 0;
};

// The ceiling of a population; known = false (with the reason) when the
// population is not readable or a populated DIMM's data width is unknown.
TheoreticalBandwidth theoretical_bandwidth(const MemoryPopulation& population);

struct PopulationFinding {
  std::string kind;     // "dimm_below_rated", "uneven_channels"
  std::string subject;  // the DIMM's locator, "socket 1", or "node"
  std::string text;     // one sentence, for the report
};

// What in the population costs bandwidth: a DIMM configured below its rated
// speed, channels populated unevenly within a socket (some empty, different
// DIMM counts or capacities), sockets populating different numbers of
// channels. Nothing for a population that is not readable (a VM).
std::vector<PopulationFinding> population_findings(const MemoryPopulation& population);

// The ceiling per NUMA node: each socket's bandwidth split evenly over its
// NUMA nodes (sub-NUMA clustering, NPS2/NPS4), nodes numbered socket by
// socket as Linux numbers them. numa_nodes_per_socket has one entry per
// entry of bandwidth.sockets. Empty when the bandwidth is unknown or the
// counts do not fit.
std::vector<double> numa_theoretical_Bps(const TheoreticalBandwidth& bandwidth,
                                         const std::vector<int>& numa_nodes_per_socket);

}  // namespace bws::model
