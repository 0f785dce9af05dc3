#include "model/MemoryPopulation.hpp"

#include <cstdint>
#include <sstream>

#include "core/OptionText.hpp"
#include "model/DimmPlacement.hpp"

// The two readers of the SMBIOS type 17 records: dmidecode's text and the
// raw table Linux exposes in sysfs.
namespace bws::model {
namespace {

// dmidecode prints a string the structure does not have (index 0) as "Not
// Specified"; both parsers keep such a field empty.
std::string firmware_string(const std::string& s) {
  const std::string t = trim_text(s);
  return t == "Not Specified" ? "" : t;
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

}  // namespace

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

}  // namespace bws::model
