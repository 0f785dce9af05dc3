#pragma once
// STREAM's options (declared here, parsed in plan_stream) and the resolved
// plan of one rank: types, elements per array, repetitions, store variant per
// type and the buffer layout. Every bad value is a UsageError of one line
// naming the option, the value and what is allowed.
#include <boost/program_options/options_description.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "stream/StreamDevice.hpp"
#include "stream/StreamValidation.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

// Option keys (without the leading "--") and their defaults.
inline constexpr const char* kElementsOption = "stream.elements";
inline constexpr const char* kTypeOption = "stream.type";
inline constexpr const char* kNtimesOption = "stream.ntimes";
inline constexpr const char* kStoresOption = "stream.stores";
inline constexpr const char* kOffsetOption = "stream.offset-bytes";
inline constexpr const char* kBackendOption = "stream.backend";  // default core/BackendList.hpp's "cpu"

inline constexpr const char* kElementsDefault = "auto";
inline constexpr const char* kTypeDefault = "double";
inline constexpr const char* kNtimesDefault = "20";
inline constexpr const char* kStoresDefault = "auto";
inline constexpr const char* kOffsetDefault = "256";

inline constexpr int kMinNtimes = 2;  // the first repetition is dropped: one must remain
// STREAM's values grow 15x per repetition (a = 2*15^k): beyond these counts
// they overflow to infinity and validation proves nothing.
inline constexpr int kMaxNtimesDouble = 250;  // 2*15^262 > DBL_MAX
inline constexpr int kMaxNtimesFloat = 30;    // 2*15^33 > FLT_MAX
inline constexpr int kQuickNtimes = 5;  // --quick with the default repetitions
inline constexpr std::uint64_t kMinElements = 1024;
inline constexpr std::uint64_t kAutoMinElements = 10000000;  // STREAM 5.10's 10^7
inline constexpr std::uint64_t kAutoLlcMultiple = 4;         // each array >= 4x the LLC
inline constexpr double kAutoMemoryFraction = 0.40;          // all ranks of a node within 40% of its memory

enum class StoresRequest { Auto, Normal, Nontemporal };

// One element type's run: its store variant and where its arrays lie.
struct StreamTypeRun {
  StreamType type = StreamType::Double;
  StoreKind stores = StoreKind::Normal;
  StreamLayout layout;
};

struct StreamParams {
  std::vector<StreamTypeRun> runs;  // in the order they run
  std::uint64_t elements = 0;       // per array, per rank
  bool elements_auto = true;
  int ntimes = 20;  // repetitions including the dropped first one
  StoresRequest stores_request = StoresRequest::Auto;
  std::size_t offset_bytes = 256;
  std::size_t buffer_bytes = 0;  // one buffer, sized for the largest type
  int ranks_on_node = 1;
  StreamValidationRule validation;  // --stream.validate-epsilon
};

// --stream.validate-epsilon, read by both STREAM backends (this one and the
// OpenCL device's): "auto" = STREAM 5.10's limit per type; UsageError
// naming the option unless auto or a number > 0 and < 1.
inline constexpr const char* kValidateEpsilonOption = "stream.validate-epsilon";
inline constexpr const char* kValidateEpsilonDefault = "auto";
StreamValidationRule parse_validation_rule(const Config& config);

void add_stream_options(boost::program_options::options_description& desc);

// The options every backend shares (types, repetitions, validation rule).
StreamCommonParams plan_stream_common(const Config& config, bool quick);

// The CPU backend's plan: parses and validates the options against this
// rank's node; throws UsageError.
StreamParams plan_stream(const Config& config, const NodeContext& node);
StreamParams plan_stream(const Config& config, const NodeContext& node, const StreamCommonParams& common);

// "double, 16777216 elements/array, 384 MiB/rank, nontemporal stores (auto), 20 repetitions"
std::string describe_stream(const StreamParams& params);

}  // namespace bws::stream
