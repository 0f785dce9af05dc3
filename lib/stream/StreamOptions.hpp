#pragma once
// STREAM's options, declared once (core/OptionSchema.hpp), and the typed
// values its planning receives. Every name lives in the declaration; a
// message names a field: o.flag(&StreamOptions::reps). What depends on the
// node (the elements that fit in its memory, the float limit of the
// repetitions, whether this build has non-temporal kernels) stays with
// plan_stream.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/OptionSchema.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::stream {

inline constexpr int kMinReps = 2;  // the first repetition is dropped: one must remain
// STREAM's values grow 15x per repetition (a = 2*15^k): beyond these counts
// they overflow to infinity and validation proves nothing.
inline constexpr int kMaxRepsDouble = 250;  // 2*15^262 > DBL_MAX
inline constexpr int kMaxRepsFloat = 30;    // 2*15^33 > FLT_MAX
inline constexpr int kQuickReps = 5;        // --quick with the default repetitions

enum class StoresRequest { Auto, Normal, Nontemporal };  // in the order of the option's choices

// --stream.elements: auto, or a count (its least and most depend on the
// node or the device: plan's checks).
struct ElementCount {
  std::optional<std::uint64_t> count;  // nullopt: auto
  std::string text;                    // as typed ("64M"), for plan's messages
};

struct StreamOptions : TypedOptions {
  std::string backends;                   // read by core/BackendList
  ElementCount elements;                  // resolved against the node's (or the device's) memory
  std::vector<StreamType> types;          // in the order they run, no repeats
  int reps = 20;                          // repetitions including the dropped first one (at most 250, checked)
  StoresRequest stores = StoresRequest::Auto;
  std::size_t offset_bytes = 256;
  StreamValidationRule validation;
};

// Its options; stream_schema().read(config, quick) gives the typed values.
const OptionSchema<StreamOptions>& stream_schema();

}  // namespace bws::stream
