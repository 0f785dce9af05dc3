#pragma once
// b_eff's options (declared here, parsed in plan_beff) and the resolved plan:
// message sizes, rings, seed, calibration target, repetitions, methods and
// the scaling check's threshold. Every bad value is a UsageError of one line
// naming the option, the value and what is allowed.
#include <boost/program_options/options_description.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "beff/BeffExchange.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Config.hpp"
#include "model/ChannelModel.hpp"

namespace bws::beff {

// Option keys (without the leading "--") and their defaults.
inline constexpr const char* kMaxBytesOption = "beff.max-bytes";
inline constexpr const char* kSizesOption = "beff.sizes";
inline constexpr const char* kRandomRingsOption = "beff.random-rings";
inline constexpr const char* kSeedOption = "beff.seed";
inline constexpr const char* kMinTimeOption = "beff.min-time";
inline constexpr const char* kRepsOption = "beff.reps";
inline constexpr const char* kMethodsOption = "beff.methods";
inline constexpr const char* kMinEfficiencyOption = "beff.min-efficiency";
inline constexpr const char* kHugePagesOption = "beff.huge-pages";
inline constexpr const char* kPathOption = "beff.path";

inline constexpr const char* kMaxBytesDefault = "1M";  // 4 KiB * 2^8: a = 2
inline constexpr const char* kSizesDefault = "";       // the 21 b_eff sizes
inline constexpr const char* kRandomRingsDefault = "3";
inline constexpr const char* kSeedDefault = "12345";
inline constexpr const char* kMinTimeDefault = "0.01";
inline constexpr const char* kRepsDefault = "10";
inline constexpr const char* kMethodsDefault = "sendrecv,nonblocking";
inline constexpr const char* kMinEfficiencyDefault = "0.8";
inline constexpr const char* kHugePagesDefault = "on";
inline constexpr const char* kPathDefault = "host";

inline constexpr double kQuickMinTimeSeconds = 0.001;  // --quick with the default min-time
inline constexpr double kMaxMinTimeSeconds = 60;
inline constexpr int kMaxRandomRings = 1000;
inline constexpr int kMaxReps = 100000;
// Each rank holds 4 buffers of the largest message (send right, send left,
// receive from left, receive from right); all ranks of a node together stay
// within this fraction of its memory, as STREAM's auto size does.
inline constexpr double kMemoryFraction = 0.40;
inline constexpr int kBuffersPerRank = 4;

// Test hook: BWSURVEY_BEFF_CORRUPT=<rank> makes that rank see every message
// from its left neighbour in the natural ring as stale (ExchangeFaults), so
// tests can see the payload check fail the run. Read only by plan_beff.
inline constexpr const char* kCorruptEnvironment = "BWSURVEY_BEFF_CORRUPT";

// Where messages start and end: in host memory (the MPI ring as HPCC runs
// it), or in device memory, copied device -> host before the send and
// host -> device after the receive inside the timed loop (HPCC_FPGA's PCIe
// path).
enum class BeffPath { Host, Device };
const char* path_name(BeffPath path);  // "host", "device"

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
  // --beff.model: seed 002's channel model to check b_eff against (BeffChannelCheck.hpp); none when off.
  std::optional<model::ChannelModelParams> channel_model;
  std::string channel_model_label;  // "520n", or the c,w,f,lambda text
  BeffPath path = BeffPath::Host;
  std::string device_name;  // the PCIe path's device on this rank (as planned)
  int local_rank = 0;       // this rank's index on its node: picks its device
  RankLayout layout;
  // Processors (hardware threads) online on this rank's node: more ranks
  // than these time-share cores, and linear scaling is not to be expected.
  int node_processors = 0;  // 0 when unknown

  std::uint64_t max_message_bytes() const { return sizes_bytes.empty() ? 0 : sizes_bytes.back(); }
};

void add_beff_options(boost::program_options::options_description& desc);

// Parses and validates the options against this rank's layout; throws
// UsageError. `device`: what can open device buffers for --beff.path
// device (lib/ocl's OpenCL provider), or nullptr in a build without one.
BeffParams plan_beff(const Config& config, const RankLayout& layout, const DeviceBuffersProvider* device = nullptr);
// The request for the PCIe path's four device buffers of the largest message.
DeviceBuffersRequest device_request(const BeffParams& params);

// "21 sizes 1 B..1 MiB, natural + 3 random rings (seed 12345), sendrecv+nonblocking, 10 repetitions of >= 10 ms"
std::string describe_beff(const BeffParams& params);

}  // namespace bws::beff
