#include "model/MemoryPopulation.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace bws::model {
namespace {

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
