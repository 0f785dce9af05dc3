#pragma once
// b_eff's options, declared once (core/OptionSchema.hpp), and the typed
// values plan_beff() receives. The channel model's text (--beff.model) is
// read here too, into its parameters.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "beff/BeffMeasurement.hpp"
#include "core/Config.hpp"
#include "core/OptionSchema.hpp"
#include "model/ChannelModel.hpp"

namespace bws::beff {

// Option keys (without the leading "--").
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

// Where messages start and end: in host memory (the MPI ring as HPCC runs
// it), or in device memory, copied device -> host before the send and
// host -> device after the receive inside the timed loop (HPCC_FPGA's PCIe
// path). In the order of --beff.path's choices.
enum class BeffPath { Host, Device };
const char* path_name(BeffPath path);  // "host", "device"

struct BeffOptions : TypedOptions {
  std::uint64_t max_bytes = 0;
  bool max_bytes_is_default = true;        // equal to the default's value (however written)
  std::vector<std::uint64_t> sizes_bytes;  // --beff.sizes as given; empty: the 21 sizes
  int random_rings = 0;
  std::optional<std::uint64_t> seed;  // nullopt: auto (from the clock)
  double min_time_seconds = 0;
  int reps = 0;
  std::vector<ExchangeMethod> methods;  // in the order given
  double min_efficiency = 0;
  std::optional<model::ChannelModelParams> channel_model;  // --beff.model; nullopt: off
  std::string channel_model_label;                          // "520n", or the c,w,f,lambda text
  bool huge_pages = true;
  BeffPath path = BeffPath::Host;
};

// Its options; beff_schema().read(config, quick) gives the typed values.
const OptionSchema<BeffOptions>& beff_schema();

}  // namespace bws::beff
