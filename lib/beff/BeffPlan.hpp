#pragma once
// b_eff's resolved plan, from its typed options (BeffOptions.hpp) and the
// rank layout: message sizes within memory, rings, seed, calibration
// target, repetitions, methods and the scaling check's threshold. Every bad
// value is a UsageError of one line naming the option, the value and what
// is allowed.
#include "core/ProgramOptionsFwd.hpp"
#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include "beff/BeffExchange.hpp"
#include "beff/BeffOptions.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Config.hpp"
#include "model/ChannelModel.hpp"

namespace bws::beff {

// Each rank holds 4 buffers of the largest message (send right, send left,
// receive from left, receive from right); all ranks of a node together stay
// within this fraction of its memory, as STREAM's auto size does.
inline constexpr double kMemoryFraction = 0.40;
inline constexpr int kBuffersPerRank = 4;

// Test hook: BWSURVEY_BEFF_CORRUPT=<rank> makes that rank see every message
// from its left neighbour in the natural ring as stale (ExchangeFaults), so
// tests can see the payload check fail the run. Read only by plan_beff.
inline constexpr const char* kCorruptEnvironment = "BWSURVEY_BEFF_CORRUPT";

struct BeffParams {
  std::vector<std::uint64_t> sizes_bytes;  // ascending, distinct
  bool sizes_explicit = false;             // from --beff.sizes
  std::uint64_t message_limit_bytes = 0;   // the largest L this node's memory (and MPI's int count) allows
  int random_rings = 3;
  std::uint64_t seed = 12345;  // only rank 0's is used (it builds the rings)
  bool seed_auto = false;
  double min_time_seconds = 0.01;
  int reps = 10;
  std::vector<ExchangeMethod> methods;  // in the order they run; the first calibrates
  double min_efficiency = 0.8;
  // Ask for 2 MiB pages for the message buffers (madvise): on one node,
  // Open MPI's single-copy transfers walk the buffers' page tables, and with
  // 4 KiB pages that, not the memory, limits large messages.
  bool huge_pages = true;
  int corrupt_rank = -1;  // the test hook's rank, -1 when unset
  // --beff.model: HPCC_FPGA b_eff's channel model to check b_eff against (BeffChannelCheck.hpp); none when off.
  std::optional<model::ChannelModelParams> channel_model;
  std::string channel_model_label;  // "520n", or the c,w,f,lambda text
  BeffPath path = BeffPath::Host;
  std::string device_name;  // the PCIe path's device on this rank (as planned)
  int local_rank = 0;       // this rank's index on its node: picks its device
  RankLayout layout;
  // Processors (hardware threads) online on this rank's node: more ranks
  // than these time-share cores, and linear scaling is not to be expected.
  int node_processors = 0;  // 0 when unknown
  // Bytes one rank sends per second in an exchange of the largest size on
  // the natural ring, as the probe before the run timed it (the slowest
  // rank's best of 2); 0 until probed. The estimate's network term: memory
  // speed alone said 3.6 s for a run of 12.5 s on 400 Mbit/s links.
  double probed_send_Bps = 0;
  std::string fitted;       // what --time-budget changed, "" when nothing
  std::map<std::string, std::string> chosen;  // option -> the value --time-budget chose

  std::uint64_t max_message_bytes() const { return sizes_bytes.empty() ? 0 : sizes_bytes.back(); }
};

// Parses and validates the options against this rank's layout; throws
// UsageError. `device`: what can open device buffers for --beff.path
// device (lib/ocl's OpenCL provider), or nullptr in a build without one.
BeffParams plan_beff(const Config& config, const RankLayout& layout, const DeviceBuffersProvider* device = nullptr);
// The plan from the typed options, the device path's device not yet checked.
BeffParams plan_beff(const BeffOptions& options, const RankLayout& layout);
// The request for the PCIe path's four device buffers of the largest message.
DeviceBuffersRequest device_request(const BeffParams& params);

// "21 sizes 1 B..1 MiB, natural + 3 random rings (seed 12345), sendrecv+nonblocking, 10 repetitions of >= 10 ms"
std::string describe_beff(const BeffParams& params);

}  // namespace bws::beff
