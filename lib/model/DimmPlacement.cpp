#include "model/DimmPlacement.hpp"

#include <cctype>
#include <climits>
#include <map>
#include <regex>
#include <set>

#include "core/OptionText.hpp"

namespace bws::model {
namespace {

int to_int(const std::string& digits) {
  std::uint64_t value = 0;
  return read_whole_number(digits, value) == NumberRead::Ok && value <= INT_MAX ? static_cast<int>(value) : -1;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The vendor schemes of the Locator and Bank Locator texts (upper-cased),
// built once. The locator names the slot on the board:
//   "CPU0_DIMM_A1", "CPU1_DIMMA1", "P1-DIMMA1"   socket, channel letter, slot
//   "PROC 1 DIMM 3" (HPE)                          socket only: HPE's slot numbers
//                                                  map to channels per board
//   "DIMM_A1", "DIMMA1" (one-socket boards)        channel letter, slot
//   "ChannelA-DIMM0", "Controller0-ChannelA-DIMM0" (laptops, desktops)
//   "P0 CHANNEL A" (some boards put it here)
// The bank locator, where the locator did not say:
//   "P0_Node0_Channel0_Dimm0" (Supermicro; Node is the memory controller)
//   "P0 CHANNEL A" (AMD reference boards, Locator "DIMM 0")
//   "CHANNEL A" (some desktops)
//   "BANK 0", "BANK 2" (laptops, where each bank is a channel)
struct LocatorPatterns {
  std::regex cpu_dimm_letter{R"(^(?:CPU|PROC|P)[ _-]*(\d+)[ _-]*DIMM[ _-]*([A-Z])\d+$)"};
  std::regex cpu_dimm_number{R"(^(?:CPU|PROC|P)[ _-]*(\d+)[ _-]*DIMM[ _-]*\d+$)"};
  std::regex dimm_letter{R"(^DIMM[ _-]*([A-Z])\d+$)"};
  std::regex channel_dimm{R"(^(?:CONTROLLER[ _-]*(\d+)[ _-]*)?CHANNEL[ _-]*([A-Z0-9]+)[ _-]*DIMM[ _-]*\d+$)"};
  std::regex p_channel{R"(^P(\d+)[ _-]*CHANNEL[ _-]*([A-Z0-9]+)$)"};
  std::regex node_channel{R"(^P(\d+)_NODE(\d+)_CHANNEL(\d+)_DIMM\d+$)"};
  std::regex channel{R"(^CHANNEL[ _-]*([A-Z0-9]+)$)"};
  std::regex bank{R"(^BANK[ _-]*(\d+)$)"};
};

const LocatorPatterns& patterns() {
  static const LocatorPatterns built;
  return built;
}

DimmPlace place_from_locator(const std::string& text) {
  const LocatorPatterns& p = patterns();
  const std::string u = upper(trim_text(text));
  std::smatch m;
  if (std::regex_match(u, m, p.cpu_dimm_letter)) return {to_int(m[1]), m[2]};
  if (std::regex_match(u, m, p.cpu_dimm_number)) return {to_int(m[1]), ""};
  if (std::regex_match(u, m, p.dimm_letter)) return {0, m[1]};
  if (std::regex_match(u, m, p.channel_dimm)) return {0, m[1].matched ? m[1].str() + m[2].str() : m[2].str()};
  if (std::regex_match(u, m, p.p_channel)) return {to_int(m[1]), m[2]};
  return {};
}

DimmPlace place_from_bank(const std::string& text) {
  const LocatorPatterns& p = patterns();
  const std::string u = upper(trim_text(text));
  std::smatch m;
  if (std::regex_match(u, m, p.node_channel))
    return {to_int(m[1]), "Node" + m[2].str() + "_Channel" + m[3].str()};
  if (std::regex_match(u, m, p.p_channel)) return {to_int(m[1]), m[2]};
  if (std::regex_match(u, m, p.channel)) return {-1, m[1]};
  if (std::regex_match(u, m, p.bank)) return {-1, m[1]};
  return {};
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

}  // namespace bws::model
