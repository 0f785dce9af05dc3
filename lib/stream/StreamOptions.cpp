#include "stream/StreamOptions.hpp"

#include <algorithm>

#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"

namespace bws::stream {
namespace {

// "auto" or a count with K/M/G (x1024) suffixes or an exponent: the least
// and the most (what fits in the node's memory) are plan_stream's checks.
ElementCount read_elements(const OptionValue& v) {
  if (lower_text(v.text) == "auto") return {std::nullopt, v.text};
  try {
    return {parse_size(v.text, v.flag), v.text};
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; allowed: auto or a count of elements such as 64M or 1e7");
  }
}

// "double", "float", "both" or a comma list: STREAM's own grammar (both
// stands for two types, and the order given is the order they run).
std::vector<StreamType> read_types(const OptionValue& v) {
  const std::string allowed = "allowed: double, float, both (or a comma list such as double,float)";
  std::vector<StreamType> types;
  auto add = [&](StreamType t) {
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  };
  for (const std::string& raw : split_comma_list(v.text)) {
    const std::string token = lower_text(trim_text(raw));
    if (token == "double" || token == "both") add(StreamType::Double);
    if (token == "float" || token == "both") add(StreamType::Float);
    if (token != "double" && token != "float" && token != "both")
      throw UsageError(v.flag + ": unknown type '" + token + "'; " + allowed);
  }
  if (types.empty()) throw UsageError(v.flag + ": no type given; " + allowed);
  return types;
}

}  // namespace

const OptionSchema<StreamOptions>& stream_schema() {
  static const OptionSchema<StreamOptions> schema({
      bind_option(backend_list_option("stream.backend", "STREAM", "--ocl.platform/--ocl.device, with PCI write/read rows"),
                  &StreamOptions::backends),
      bind_option(text_option("stream.elements", "auto",
                              "STREAM: elements per array per rank, on every backend; 'auto' makes each array >= 4x "
                              "the device's last-level (global memory) cache and >= 10^7, with all ranks sharing its "
                              "memory within 40% of it; or a count such as 64M or 1e7 (K/M/G = x1024), allowed 1024 up "
                              "to what fits (on ocl a multiple of replications x vector-count x buffer-size)"),
                  &StreamOptions::elements, read_elements),
      bind_option(text_option("stream.type", "double",
                              "STREAM: element type: double, float, both, or a comma list (double,float)"),
                  &StreamOptions::types, read_types),
      bind_option(whole_option("stream.reps", "20", kMinReps, kMaxRepsDouble, "",
                               "STREAM: repetitions of the four kernels, the first dropped as warm-up (2..30 with "
                               "float: STREAM's values grow 15x per repetition)")
                      .quick(std::to_string(kQuickReps))
                      .alias("stream.ntimes"),
                  &StreamOptions::reps),
      bind_option(one_of_option("stream.stores", "auto", {"auto", "normal", "nontemporal"},
                                "STREAM: stores of the kernels: normal, nontemporal (x86 streaming stores, no "
                                "write-allocate), or auto (nontemporal when the three arrays exceed the rank's "
                                "last-level cache)"),
                  &StreamOptions::stores),
      bind_option(whole_option("stream.offset-bytes", "256", 0, 4032, "bytes",
                               "STREAM: bytes array k (0, 1, 2) is shifted by k times this within its page, against "
                               "4 KiB aliasing")
                      .note("in steps of 64"),
                  &StreamOptions::offset_bytes),
      bind_option(real_option("stream.validate-epsilon", "auto", 0, 1, "",
                              "STREAM (CPU and OpenCL device alike): largest average relative error of an array, avg "
                              "|x - expected| / |expected| (dimensionless); auto = STREAM 5.10's 1e-13 for double, "
                              "1e-6 for float; or one number for both types")
                      .above_min()
                      .below_max()
                      .or_auto(),
                  &StreamOptions::validation,
                  // auto: STREAM 5.10's limit per type (an override of 0).
                  [](const OptionValue& v) { return StreamValidationRule{v.is_auto ? 0.0 : v.real}; }),
  });
  return schema;
}

}  // namespace bws::stream
