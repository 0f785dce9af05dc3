#pragma once
// STREAM's plan of one rank (its options: StreamOptions.hpp): types, elements per array, repetitions, store variant per
// type and the buffer layout. Every bad value is a UsageError of one line
// naming the option, the value and what is allowed.
#include "core/ProgramOptionsFwd.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "stream/StreamDevice.hpp"
#include "stream/StreamValidation.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamOptions.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

inline constexpr std::uint64_t kMinElements = 1024;
inline constexpr std::uint64_t kAutoMinElements = 10000000;  // STREAM 5.10's 10^7
inline constexpr std::uint64_t kAutoLlcMultiple = 4;         // each array >= 4x the LLC
inline constexpr double kAutoMemoryFraction = 0.40;          // all ranks of a node within 40% of its memory

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
  StoresRequest stores_request = StoresRequest::Auto;
  std::size_t offset_bytes = 256;
  std::size_t buffer_bytes = 0;  // one buffer, sized for the largest type
  int ranks_on_node = 1;
  StreamValidationRule validation;  // --stream.validate-epsilon
};

void add_stream_options(boost::program_options::options_description& desc);

// The options every backend shares (types, repetitions, validation rule).
StreamCommonParams plan_stream_common(const StreamOptions& options);
StreamCommonParams plan_stream_common(const Config& config, bool quick);  // reads the schema once (a test's entry)

// The CPU backend's plan: checks the options against this rank's node;
// throws UsageError. The Config form reads the schema once (a test's entry).
StreamParams plan_stream(const Config& config, const NodeContext& node);
StreamParams plan_stream(const StreamOptions& options, const NodeContext& node, const StreamCommonParams& common);

// "double, 16777216 elements/array, 384 MiB/rank, nontemporal stores (auto)" (the repetitions are the
// driver's, StreamCommonParams: one count for every backend)
std::string describe_stream(const StreamParams& params);

}  // namespace bws::stream
