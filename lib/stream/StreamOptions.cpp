#include "stream/StreamOptions.hpp"

#include <algorithm>

#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::stream {
namespace {

// "double", "float", "both" or a comma list: STREAM's own grammar (both
// stands for two types, and the order given is the order they run).
std::vector<StreamType> parse_types(const std::string& text) {
  std::vector<StreamType> types;
  auto add = [&](StreamType t) {
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  };
  for (const std::string& raw : split_comma_list(text)) {
    const std::string token = lower_text(trim_text(raw));
    if (token == "double" || token == "both") add(StreamType::Double);
    if (token == "float" || token == "both") add(StreamType::Float);
    if (token != "double" && token != "float" && token != "both")
      throw UsageError(option_flag(kTypeOption) + ": unknown type '" + token +
                       "'; allowed: double, float, both (or a comma list such as double,float)");
  }
  if (types.empty())
    throw UsageError(option_flag(kTypeOption) + ": no type given; allowed: double, float, both (or a comma list such as "
                     "double,float)");
  return types;
}

// auto = STREAM 5.10's limit per type; else one number > 0 and < 1.
StreamValidationRule parse_epsilon(const std::string& raw) {
  const std::string text = trim_text(raw);
  if (lower_text(text) == "auto") return {};
  const std::string allowed = "auto, or a number > 0 and < 1";
  const double epsilon = parse_real_number(text, kValidateEpsilonOption, allowed);
  if (!(epsilon > 0 && epsilon < 1))
    throw UsageError(option_flag(kValidateEpsilonOption) + ": '" + text.substr(0, 32) +
                     "' is out of range; allowed: " + allowed);
  return StreamValidationRule{epsilon};
}

}  // namespace

const OptionSchema<StreamOptions>& stream_schema() {
  static const OptionSchema<StreamOptions> schema({
      bind_option(text_option(kBackendOption, kBackendDefault,
                              "STREAM: where it runs, a comma list of backends, each in turn into the one table (its "
                              "backend column): cpu (the rank's pinned threads), ocl (the rank's OpenCL device, "
                              "--ocl.platform/--ocl.device, with PCI write/read rows)"),
                  &StreamOptions::backends),
      bind_option(text_option(kElementsOption, kElementsDefault,
                              "STREAM: elements per array per rank, on every backend; 'auto' makes each array >= 4x "
                              "the device's last-level (global memory) cache and >= 10^7, with all ranks sharing its "
                              "memory within 40% of it; or a count such as 64M or 1e7 (K/M/G = x1024), allowed 1024 up "
                              "to what fits (on ocl a multiple of replications x vector-count x buffer-size)"),
                  &StreamOptions::elements_text),
      {text_option(kTypeOption, kTypeDefault,
                   "STREAM: element type: double, float, both, or a comma list (double,float)"),
       [](StreamOptions& o, const OptionValue& v) { o.types = parse_types(v.text); }},
      bind_option(whole_option(kNtimesOption, kNtimesDefault, kMinNtimes, kMaxNtimesDouble, "",
                               "STREAM: repetitions of the four kernels, the first dropped as warm-up (2..30 with "
                               "float: STREAM's values grow 15x per repetition)")
                      .quick(std::to_string(kQuickNtimes)),
                  &StreamOptions::reps),
      bind_option(one_of_option(kStoresOption, kStoresDefault, {"auto", "normal", "nontemporal"},
                                "STREAM: stores of the kernels: normal, nontemporal (x86 streaming stores, no "
                                "write-allocate), or auto (nontemporal when the three arrays exceed the rank's "
                                "last-level cache)"),
                  &StreamOptions::stores),
      bind_option(whole_option(kOffsetOption, kOffsetDefault, 0, 4032, "bytes",
                               "STREAM: bytes array k (0, 1, 2) is shifted by k times this within its page, against "
                               "4 KiB aliasing")
                      .note("in steps of 64"),
                  &StreamOptions::offset_bytes),
      {text_option(kValidateEpsilonOption, kValidateEpsilonDefault,
                   "STREAM (CPU and OpenCL device alike): largest average relative error of an array, avg |x - "
                   "expected| / |expected| (dimensionless); auto = STREAM 5.10's 1e-13 for double, 1e-6 for float; "
                   "or one number for both types")
           .note("auto, or a number > 0 and < 1"),
       [](StreamOptions& o, const OptionValue& v) { o.validation = parse_epsilon(v.text); }},
  });
  return schema;
}

}  // namespace bws::stream
