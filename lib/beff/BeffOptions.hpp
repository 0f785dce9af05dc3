#pragma once
// b_eff's options, declared once (core/OptionSchema.hpp), and the typed
// values plan_beff() receives. The channel model's text (--beff.model) is
// read here too, into its parameters.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "beff/BeffChannelCheck.hpp"
#include "beff/BeffMeasurement.hpp"
#include "core/Config.hpp"
#include "core/OptionSchema.hpp"

namespace bws::beff {

// Where messages start and end: in host memory (the MPI ring as HPCC runs
// it), or in device memory, copied device -> host before the send and
// host -> device after the receive inside the timed loop (HPCC_FPGA's PCIe
// path). In the order of --beff.path's choices.
enum class BeffPath { Host, Device };
const char* path_name(BeffPath path);  // "host", "device"

// The values as read; a message of plan() names an option by its field:
// o.flag(&BeffOptions::sizes_bytes) gives "--beff.sizes".
struct BeffOptions : TypedOptions {
  std::uint64_t max_bytes = 0;
  bool max_bytes_is_default = true;        // equal to the default's value (however written)
  std::string max_bytes_default;           // the default as declared ("1M"), for messages
  std::vector<std::uint64_t> sizes_bytes;  // --beff.sizes as given; empty: the 21 sizes
  int random_rings = 0;
  std::optional<std::uint64_t> seed;  // nullopt: auto (from the clock)
  double min_time_seconds = 0;
  int reps = 0;
  std::vector<ExchangeMethod> methods;  // in the order given
  double min_efficiency = 0;
  ChannelModelChoice channel_model;     // --beff.model (BeffChannelCheck.hpp)
  bool huge_pages = true;
  BeffPath path = BeffPath::Host;
};

// Its options; beff_schema().read(config, quick) gives the typed values.
const OptionSchema<BeffOptions>& beff_schema();

}  // namespace bws::beff
