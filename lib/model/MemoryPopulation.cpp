#include "model/MemoryPopulation.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/OptionText.hpp"

namespace bws::model {
namespace {


// dmidecode prints a string the structure does not have (index 0) as "Not
// Specified"; both parsers keep such a field empty.
std::string firmware_string(const std::string& s) {
  const std::string t = trim_text(s);
  return t == "Not Specified" ? "" : t;
}

// ---- where a slot sits ----

int to_int(const std::string& digits) {
  std::uint64_t value = 0;
  return read_whole_number(digits, value) == NumberRead::Ok && value <= INT_MAX ? static_cast<int>(value) : -1;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The locator names the slot on the board; the vendor schemes (upper-cased):
//   "CPU0_DIMM_A1", "CPU1_DIMMA1", "P1-DIMMA1"   socket, channel letter, slot
//   "PROC 1 DIMM 3" (HPE)                          socket only: HPE's slot numbers
//                                                  map to channels per board
//   "DIMM_A1", "DIMMA1" (one-socket boards)        channel letter, slot
//   "ChannelA-DIMM0", "Controller0-ChannelA-DIMM0" (laptops, desktops)
//   "P0 CHANNEL A" (some boards put it here)
DimmPlace place_from_locator(const std::string& text) {
  static const std::regex cpu_dimm_letter(R"(^(?:CPU|PROC|P)[ _-]*(\d+)[ _-]*DIMM[ _-]*([A-Z])\d+$)");
  static const std::regex cpu_dimm_number(R"(^(?:CPU|PROC|P)[ _-]*(\d+)[ _-]*DIMM[ _-]*\d+$)");
  static const std::regex dimm_letter(R"(^DIMM[ _-]*([A-Z])\d+$)");
  static const std::regex channel_dimm(R"(^(?:CONTROLLER[ _-]*(\d+)[ _-]*)?CHANNEL[ _-]*([A-Z0-9]+)[ _-]*DIMM[ _-]*\d+$)");
  static const std::regex p_channel(R"(^P(\d+)[ _-]*CHANNEL[ _-]*([A-Z0-9]+)$)");
  const std::string u = upper(trim_text(text));
  std::smatch m;
  if (std::regex_match(u, m, cpu_dimm_letter)) return {to_int(m[1]), m[2]};
  if (std::regex_match(u, m, cpu_dimm_number)) return {to_int(m[1]), ""};
  if (std::regex_match(u, m, dimm_letter)) return {0, m[1]};
  if (std::regex_match(u, m, channel_dimm)) return {0, m[1].matched ? m[1].str() + m[2].str() : m[2].str()};
  if (std::regex_match(u, m, p_channel)) return {to_int(m[1]), m[2]};
  return {};
}

// The bank locator, where the locator did not say:
//   "P0_Node0_Channel0_Dimm0" (Supermicro; Node is the memory controller)
//   "P0 CHANNEL A" (AMD reference boards, Locator "DIMM 0")
//   "CHANNEL A" (some desktops)
//   "BANK 0", "BANK 2" (laptops, where each bank is a channel)
DimmPlace place_from_bank(const std::string& text) {
  static const std::regex node_channel(R"(^P(\d+)_NODE(\d+)_CHANNEL(\d+)_DIMM\d+$)");
  static const std::regex p_channel(R"(^P(\d+)[ _-]*CHANNEL[ _-]*([A-Z0-9]+)$)");
  static const std::regex channel(R"(^CHANNEL[ _-]*([A-Z0-9]+)$)");
  static const std::regex bank(R"(^BANK[ _-]*(\d+)$)");
  const std::string u = upper(trim_text(text));
  std::smatch m;
  if (std::regex_match(u, m, node_channel))
    return {to_int(m[1]), "Node" + m[2].str() + "_Channel" + m[3].str()};
  if (std::regex_match(u, m, p_channel)) return {to_int(m[1]), m[2]};
  if (std::regex_match(u, m, channel)) return {-1, m[1]};
  if (std::regex_match(u, m, bank)) return {-1, m[1]};
  return {};
}

// Sockets as the locators number them (CPU0/CPU1, CPU1/CPU2, P0/P1) become
// 0, 1, ... in ascending order. A board whose locators name no CPU at all
// is taken for a one-socket board (laptops, desktops, "DIMM_A1").
void place_slots(std::vector<DimmSlot>& slots) {
  std::set<int> written;
  for (DimmSlot& slot : slots) {
    const DimmPlace place = dimm_place(slot.locator, slot.bank_locator);
    slot.socket = place.socket;
    slot.channel = place.channel;
    if (slot.socket >= 0) written.insert(slot.socket);
  }
  std::map<int, int> renumbered;
  for (int socket : written) renumbered.emplace(socket, static_cast<int>(renumbered.size()));
  for (DimmSlot& slot : slots) {
    if (slot.socket >= 0)
      slot.socket = renumbered.at(slot.socket);
    else if (written.empty())
      slot.socket = 0;
  }
}

// Readable when the bandwidth can be computed from the slots.
void judge_readable(MemoryPopulation& population, const std::string& no_records_reason) {
  place_slots(population.slots);
  if (population.slots.empty()) {
    population.readable = false;
    population.unknown_reason = no_records_reason;
    return;
  }
  int populated = 0, speed_unknown = 0;
  for (const DimmSlot& slot : population.slots) {
    if (slot.size_bytes == 0) continue;
    ++populated;
    if (slot.configured_mts <= 0 && slot.rated_mts <= 0) ++speed_unknown;
  }
  if (populated == 0) {
    population.readable = false;
    population.unknown_reason =
        "no populated memory device among " + std::to_string(population.slots.size()) + " SMBIOS type 17 records";
  } else if (speed_unknown > 0) {
    population.readable = false;
    population.unknown_reason = "speed unknown for " + std::to_string(speed_unknown) + " of " +
                                std::to_string(populated) + " populated DIMMs (a virtual machine's SMBIOS?)";
  } else {
    population.readable = true;
    population.unknown_reason.clear();
  }
}

// ---- dmidecode text ----

// "16 GB", "16384 MB", "512 kB", "No Module Installed", "Unknown".
std::uint64_t size_from_text(const std::string& value) {
  std::istringstream in(value);
  std::uint64_t amount = 0;
  std::string unit;
  if (!(in >> amount >> unit)) return 0;
  static const std::map<std::string, int> shift = {{"bytes", 0}, {"kB", 10}, {"KB", 10}, {"MB", 20},
                                                   {"GB", 30},   {"TB", 40}, {"PB", 50}};
  const auto it = shift.find(unit);
  if (it == shift.end() || amount > (UINT64_MAX >> it->second)) return 0;  // unknown, or beyond 64 bits
  return amount << it->second;
}

// "4800 MT/s"; dmidecode before 3.2 wrote the same number as "2666 MHz"
// (the SMBIOS field always held transfers per second). "Unknown" -> 0.
int mts_from_text(const std::string& value) {
  std::istringstream in(value);
  int amount = 0;
  std::string unit;
  if (!(in >> amount >> unit)) return 0;
  return (unit == "MT/s" || unit == "MHz") && amount > 0 ? amount : 0;
}

// "64 bits"; "Unknown" -> 0.
int bits_from_text(const std::string& value) {
  std::istringstream in(value);
  int amount = 0;
  std::string unit;
  if (!(in >> amount >> unit)) return 0;
  return unit == "bits" && amount > 0 ? amount : 0;
}

void set_field(DimmSlot& slot, const std::string& key, const std::string& value) {
  if (key == "Size") slot.size_bytes = size_from_text(value);
  else if (key == "Locator") slot.locator = firmware_string(value);
  else if (key == "Bank Locator") slot.bank_locator = firmware_string(value);
  else if (key == "Speed") slot.rated_mts = mts_from_text(value);
  else if (key == "Configured Memory Speed" || key == "Configured Clock Speed") slot.configured_mts = mts_from_text(value);
  else if (key == "Data Width") slot.data_width_bits = bits_from_text(value);
  else if (key == "Type") slot.type = firmware_string(value);
  else if (key == "Form Factor") slot.form_factor = firmware_string(value);
  else if (key == "Manufacturer") slot.manufacturer = firmware_string(value);
  else if (key == "Part Number") slot.part_number = firmware_string(value);
}

// ---- raw SMBIOS table ----

const char* memory_type_name(std::uint8_t code) {
  // SMBIOS 3.x 7.18.2, as dmidecode names them.
  static const char* const names[] = {
      "Other", "Unknown", "DRAM", "EDRAM", "VRAM", "SRAM", "RAM", "ROM", "Flash", "EEPROM", "FEPROM", "EPROM",
      "CDRAM", "3DRAM", "SDRAM", "SGRAM", "RDRAM", "DDR", "DDR2", "DDR2 FB-DIMM", "Reserved", "Reserved",
      "Reserved", "DDR3", "FBD2", "DDR4", "LPDDR", "LPDDR2", "LPDDR3", "LPDDR4", "Logical non-volatile device",
      "HBM", "HBM2", "DDR5", "LPDDR5"};
  constexpr std::size_t count = sizeof(names) / sizeof(names[0]);
  return code >= 1 && code <= count ? names[code - 1] : "<OUT OF SPEC>";
}

const char* form_factor_name(std::uint8_t code) {
  // SMBIOS 3.x 7.18.1.
  static const char* const names[] = {"Other", "Unknown", "SIMM",   "SIP",    "Chip",  "DIP",     "ZIP",
                                      "Proprietary Card", "DIMM", "TSOP", "Row Of Chips", "RIMM", "SODIMM",
                                      "SRIMM", "FB-DIMM", "Die"};
  constexpr std::size_t count = sizeof(names) / sizeof(names[0]);
  return code >= 1 && code <= count ? names[code - 1] : "<OUT OF SPEC>";
}

// One structure: its formatted area (header included) and its strings.
class Structure {
 public:
  Structure(const std::uint8_t* formatted, std::size_t length, std::vector<std::string> strings)
      : data_(formatted), length_(length), strings_(std::move(strings)) {}
  bool has(std::size_t offset, std::size_t bytes) const { return offset + bytes <= length_; }
  std::uint8_t byte(std::size_t offset) const { return data_[offset]; }
  std::uint16_t word(std::size_t offset) const {
    return static_cast<std::uint16_t>(data_[offset] | (data_[offset + 1] << 8));
  }
  std::uint32_t dword(std::size_t offset) const {
    return static_cast<std::uint32_t>(word(offset)) | (static_cast<std::uint32_t>(word(offset + 2)) << 16);
  }
  // String fields hold a 1-based index into the string set; 0 is none.
  std::string string_at(std::size_t offset) const {
    if (!has(offset, 1)) return "";
    const std::uint8_t index = data_[offset];
    if (index == 0 || index > strings_.size()) return "";
    return firmware_string(strings_[index - 1]);
  }

 private:
  const std::uint8_t* data_;
  std::size_t length_;
  std::vector<std::string> strings_;
};

// A speed word: 0 unknown; 0xFFFF means "see the 32-bit field", present
// only in structures long enough (SMBIOS 3.3).
int speed_field(const Structure& s, std::size_t word_offset, std::size_t extended_offset) {
  if (!s.has(word_offset, 2)) return 0;
  const std::uint16_t speed = s.word(word_offset);
  if (speed != 0xFFFF) return speed;
  if (!s.has(extended_offset, 4)) return 0;
  return static_cast<int>(s.dword(extended_offset) & 0x7FFFFFFFu);
}

DimmSlot slot_from_type17(const Structure& s) {
  // SMBIOS 3.x 7.18 offsets. A 2.1 structure ends at 0x15, 2.3 at 0x1B,
  // 2.7 at 0x22, 3.3 at 0x5C.
  DimmSlot slot;
  if (s.has(0x0A, 2)) {
    const std::uint16_t width = s.word(0x0A);
    slot.data_width_bits = width == 0xFFFF ? 0 : width;
  }
  if (s.has(0x0C, 2)) {
    const std::uint16_t size = s.word(0x0C);
    if (size == 0x7FFF && s.has(0x1C, 4)) {
      // Extended Size: MB in bits 30:0.
      slot.size_bytes = std::uint64_t{s.dword(0x1C) & 0x7FFFFFFFu} << 20;
    } else if (size != 0xFFFF) {
      // Bit 15 set: the rest counts kB, else MB.
      const std::uint64_t amount = size & 0x7FFFu;
      slot.size_bytes = (size & 0x8000u) ? amount << 10 : amount << 20;
    }
  }
  if (s.has(0x0E, 1)) slot.form_factor = form_factor_name(s.byte(0x0E));
  slot.locator = s.string_at(0x10);
  slot.bank_locator = s.string_at(0x11);
  if (s.has(0x12, 1)) slot.type = memory_type_name(s.byte(0x12));
  // As dmidecode: an empty slot's remaining fields are left alone.
  if (slot.size_bytes == 0) return slot;
  slot.rated_mts = speed_field(s, 0x15, 0x54);
  if (s.has(0x1A, 1)) {
    slot.manufacturer = s.string_at(0x17);
    slot.part_number = s.string_at(0x1A);
  }
  slot.configured_mts = speed_field(s, 0x20, 0x58);
  return slot;
}

// ---- bandwidth ----

bool is_ddr_dimm_type(const std::string& type) {
  return type == "DDR" || type == "DDR2" || type == "DDR3" || type == "DDR4" || type == "DDR5";
}

// The data width the arithmetic uses: the record's Data Width, else 64 bits
// for a DDR DIMM (its data bus, ECC excluded); 0 when neither says.
int data_width_for_bandwidth(const DimmSlot& slot) {
  if (slot.data_width_bits > 0) return slot.data_width_bits;
  return is_ddr_dimm_type(slot.type) ? 64 : 0;
}

int mts_for_bandwidth(const DimmSlot& slot) {
  return slot.configured_mts > 0 ? slot.configured_mts : slot.rated_mts;
}

std::string gb_per_s(double Bps) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB/s", Bps / 1e9);
  return text;
}

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%g GB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
  return text;
}

std::string socket_name(int socket) { return socket < 0 ? "socket ?" : "socket " + std::to_string(socket); }

// One channel's slots, in the order the table lists them.
struct ChannelSlots {
  int socket = -1;
  std::string channel;  // "" for a DIMM whose channel is not recognised
  std::vector<const DimmSlot*> slots;
  int dimms() const {
    return static_cast<int>(std::count_if(slots.begin(), slots.end(), [](const DimmSlot* s) { return s->size_bytes > 0; }));
  }
  std::uint64_t bytes() const {
    std::uint64_t sum = 0;
    for (const DimmSlot* s : slots) sum += s->size_bytes;
    return sum;
  }
};

// Channels by socket, each in the order of its first slot. A slot whose
// channel the locators do not name is a channel of its own when it holds a
// DIMM (so 2 DIMMs per channel count twice: an upper bound) and is left out
// when empty (an empty slot of unknown channel says nothing).
std::map<int, std::vector<ChannelSlots>> channels_by_socket(const MemoryPopulation& population) {
  std::map<int, std::vector<ChannelSlots>> sockets;
  for (const DimmSlot& slot : population.slots) {
    std::vector<ChannelSlots>& channels = sockets[slot.socket];
    if (slot.channel.empty()) {
      if (slot.size_bytes > 0) channels.push_back({slot.socket, "", {&slot}});
      continue;
    }
    auto it = std::find_if(channels.begin(), channels.end(),
                           [&](const ChannelSlots& c) { return c.channel == slot.channel; });
    if (it == channels.end())
      channels.push_back({slot.socket, slot.channel, {&slot}});
    else
      it->slots.push_back(&slot);
  }
  return sockets;
}

}  // namespace

DimmPlace dimm_place(const std::string& locator, const std::string& bank_locator) {
  DimmPlace place = place_from_locator(locator);
  if (place.socket < 0 || place.channel.empty()) {
    const DimmPlace from_bank = place_from_bank(bank_locator);
    if (place.socket < 0) place.socket = from_bank.socket;
    if (place.channel.empty()) place.channel = from_bank.channel;
  }
  return place;
}

MemoryPopulation parse_dmidecode_memory(const std::string& text) {
  MemoryPopulation population;
  population.source = "dmidecode";
  std::istringstream in(text);
  std::string line;
  DimmSlot current;
  bool in_record = false;
  const auto close_record = [&] {
    if (in_record) population.slots.push_back(current);
    in_record = false;
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const bool indented = !line.empty() && (line[0] == '\t' || line[0] == ' ');
    if (!indented) {
      // A record's name line ("Memory Device") follows its "Handle ..., DMI
      // type 17" line; with -q there is no handle line. Anything else at
      // column 0 ends the record.
      close_record();
      if (trim_text(line) == "Memory Device") {
        current = DimmSlot{};
        in_record = true;
      }
      continue;
    }
    if (!in_record) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;  // a list item of a multi-line attribute
    set_field(current, trim_text(line.substr(0, colon)), trim_text(line.substr(colon + 1)));
  }
  close_record();
  std::string reason = "no SMBIOS type 17 (Memory Device) records in the dmidecode output";
  if (text.find("No SMBIOS nor DMI entry point found") != std::string::npos)
    reason += " (dmidecode found no SMBIOS entry point)";
  judge_readable(population, reason);
  return population;
}

MemoryPopulation parse_smbios_table(const std::vector<std::uint8_t>& raw) {
  MemoryPopulation population;
  population.source = "sysfs";
  std::size_t at = 0;
  // Each structure: type (1 byte), length of the formatted area (1 byte,
  // header included), handle (2 bytes), the rest of the formatted area,
  // then NUL-terminated strings ended by one more NUL (two NULs when none).
  while (at + 4 <= raw.size()) {
    const std::uint8_t type = raw[at];
    const std::size_t length = raw[at + 1];
    if (length < 4 || at + length > raw.size()) break;  // broken table: stop, as dmidecode does
    // The string set ends at the first pair of NULs at or after the
    // formatted area (an empty set is just the pair).
    std::size_t end = at + length;
    while (end + 1 < raw.size() && !(raw[end] == 0 && raw[end + 1] == 0)) ++end;
    if (end + 1 >= raw.size()) break;  // the strings run past the table
    std::vector<std::string> strings;
    for (std::size_t from = at + length; from < end;) {
      std::size_t to = from;
      while (to < end && raw[to] != 0) ++to;
      strings.emplace_back(raw.begin() + static_cast<std::ptrdiff_t>(from), raw.begin() + static_cast<std::ptrdiff_t>(to));
      from = to + 1;
    }
    const std::size_t next = end + 2;
    if (type == 17) population.slots.push_back(slot_from_type17(Structure(&raw[at], length, std::move(strings))));
    if (type == 127) break;  // End-of-Table
    at = next;
  }
  judge_readable(population, "no SMBIOS type 17 (Memory Device) structures in the DMI table");
  return population;
}

TheoreticalBandwidth theoretical_bandwidth(const MemoryPopulation& population) {
  TheoreticalBandwidth result;
  if (!population.readable) {
    result.unknown_reason =
        population.unknown_reason.empty() ? "memory population not readable" : population.unknown_reason;
    return result;
  }
  int mts_min = std::numeric_limits<int>::max();
  for (const auto& [socket, channels] : channels_by_socket(population)) {
    SocketBandwidth socket_bandwidth;
    socket_bandwidth.socket = socket;
    socket_bandwidth.total_channels = static_cast<int>(channels.size());
    for (const ChannelSlots& channel : channels) {
      ChannelBandwidth c;
      c.socket = socket;
      c.channel = channel.channel;
      // With 2 DIMMs per channel both share the one channel's bus, which
      // runs at the slower DIMM's rate: the channel counts once.
      for (const DimmSlot* slot : channel.slots) {
        if (slot->size_bytes == 0) continue;
        const int width = data_width_for_bandwidth(*slot);
        if (width <= 0) {
          result.unknown_reason = "data width unknown for " + slot->locator + " (type " + slot->type + ")";
          return result;
        }
        const int mts = mts_for_bandwidth(*slot);
        c.mts = c.dimms == 0 ? mts : std::min(c.mts, mts);
        c.data_width_bits = c.dimms == 0 ? width : std::min(c.data_width_bits, width);
        ++c.dimms;
      }
      if (c.dimms == 0) continue;
      // One channel: transfers/s (MT/s * 1e6) * bytes per transfer (data
      // width / 8: 64 bits -> 8 B). DDR5-4800: 4800e6 * 8 = 38.4e9 B/s.
      c.Bps = c.mts * 1e6 * (c.data_width_bits / 8.0);
      if (c.channel.empty()) ++result.unrecognised_channel_dimms;
      ++socket_bandwidth.populated_channels;
      socket_bandwidth.Bps += c.Bps;
      mts_min = std::min(mts_min, c.mts);
      result.channels.push_back(c);
    }
    // A socket is the sum of its channels, the node the sum of its sockets:
    // channels * transfers/s * bytes per transfer when they all agree.
    result.node_Bps += socket_bandwidth.Bps;
    result.populated_channels += socket_bandwidth.populated_channels;
    result.total_channels += socket_bandwidth.total_channels;
    result.sockets.push_back(socket_bandwidth);
  }
  result.known = true;
  result.configured_mts_min = mts_min == std::numeric_limits<int>::max() ? 0 : mts_min;
  return result;
}

std::vector<PopulationFinding> population_findings(const MemoryPopulation& population) {
  std::vector<PopulationFinding> findings;
  if (!population.readable) return findings;

  const TheoreticalBandwidth bandwidth = theoretical_bandwidth(population);
  for (const DimmSlot& slot : population.slots) {
    if (slot.size_bytes == 0 || slot.configured_mts <= 0 || slot.rated_mts <= 0) continue;
    if (slot.configured_mts >= slot.rated_mts) continue;
    const int width_bytes = data_width_for_bandwidth(slot) / 8;
    std::string text = slot.locator + " runs at " + std::to_string(slot.configured_mts) + " MT/s, below its rated " +
                       std::to_string(slot.rated_mts) + " MT/s";
    if (width_bytes > 0)
      text += ": its channel gives " + std::to_string(slot.configured_mts) + " MT/s x " + std::to_string(width_bytes) +
              " B = " + gb_per_s(slot.configured_mts * 1e6 * width_bytes) + " instead of " +
              gb_per_s(slot.rated_mts * 1e6 * width_bytes);
    findings.push_back({"dimm_below_rated", slot.locator, text});
  }

  // Within a socket: only channels the locators name can be compared.
  for (const auto& [socket, channels] : channels_by_socket(population)) {
    std::vector<const ChannelSlots*> named, empty;
    for (const ChannelSlots& c : channels) {
      if (c.channel.empty()) continue;
      named.push_back(&c);
      if (c.dimms() == 0) empty.push_back(&c);
    }
    const std::size_t populated = named.size() - empty.size();
    if (!empty.empty() && populated > 0) {
      std::string names;
      for (const ChannelSlots* c : empty) names += (names.empty() ? "" : ", ") + c->channel;
      findings.push_back({"uneven_channels", socket_name(socket),
                          socket_name(socket) + ": channel" + (empty.size() > 1 ? "s " : " ") + names + " empty while " +
                              std::to_string(populated) + " of " + std::to_string(named.size()) +
                              " channels hold DIMMs"});
    }
    std::set<int> dimm_counts;
    std::set<std::uint64_t> capacities;
    std::string counts_text, capacities_text;
    for (const ChannelSlots* c : named) {
      if (c->dimms() == 0) continue;
      dimm_counts.insert(c->dimms());
      capacities.insert(c->bytes());
      counts_text += (counts_text.empty() ? "" : ", ") + c->channel + ": " + std::to_string(c->dimms());
      capacities_text += (capacities_text.empty() ? "" : ", ") + c->channel + ": " + gib(c->bytes());
    }
    if (dimm_counts.size() > 1)
      findings.push_back({"uneven_channels", socket_name(socket),
                          socket_name(socket) + ": channels hold different numbers of DIMMs (" + counts_text + ")"});
    else if (capacities.size() > 1)
      findings.push_back({"uneven_channels", socket_name(socket),
                          socket_name(socket) + ": channels hold different capacities (" + capacities_text + ")"});
  }

  // Across sockets: a socket with fewer channels is a slower NUMA domain.
  if (bandwidth.known && bandwidth.sockets.size() > 1) {
    std::set<int> counts;
    std::string text;
    for (const SocketBandwidth& s : bandwidth.sockets) {
      counts.insert(s.populated_channels);
      text += (text.empty() ? "" : ", ") + socket_name(s.socket) + ": " + std::to_string(s.populated_channels);
    }
    if (counts.size() > 1) {
      std::string note;
      if (bandwidth.unrecognised_channel_dimms > 0)
        note = " (channels not named by the locators: each DIMM counted as a channel)";
      findings.push_back({"uneven_channels", "node",
                          "sockets populate different numbers of channels (" + text + ")" + note});
    }
  }
  return findings;
}

std::vector<double> numa_theoretical_Bps(const TheoreticalBandwidth& bandwidth,
                                         const std::vector<int>& numa_nodes_per_socket) {
  std::vector<double> per_node;
  if (!bandwidth.known || numa_nodes_per_socket.size() != bandwidth.sockets.size()) return per_node;
  for (std::size_t i = 0; i < bandwidth.sockets.size(); ++i) {
    const int nodes = numa_nodes_per_socket[i];
    if (nodes < 1) return {};
    // Sub-NUMA clustering gives each node its share of the socket's
    // controllers; with channels populated evenly, an equal share.
    for (int n = 0; n < nodes; ++n) per_node.push_back(bandwidth.sockets[i].Bps / nodes);
  }
  return per_node;
}

}  // namespace bws::model
