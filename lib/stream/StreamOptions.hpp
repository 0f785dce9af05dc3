#pragma once
// STREAM's options, declared once (core/OptionSchema.hpp), and the typed
// values its planning receives. What depends on the node (the elements
// that fit in its memory, the float limit of the repetitions, whether this
// build has non-temporal kernels) stays with plan_stream.
#include <cstddef>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/OptionSchema.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::stream {

// Option keys (without the leading "--") and their defaults.
inline constexpr const char* kElementsOption = "stream.elements";
inline constexpr const char* kTypeOption = "stream.type";
inline constexpr const char* kNtimesOption = "stream.ntimes";
inline constexpr const char* kStoresOption = "stream.stores";
inline constexpr const char* kOffsetOption = "stream.offset-bytes";
inline constexpr const char* kBackendOption = "stream.backend";  // default core/BackendList.hpp's "cpu"
inline constexpr const char* kValidateEpsilonOption = "stream.validate-epsilon";

inline constexpr const char* kElementsDefault = "auto";
inline constexpr const char* kTypeDefault = "double";
inline constexpr const char* kNtimesDefault = "20";
inline constexpr const char* kStoresDefault = "auto";
inline constexpr const char* kOffsetDefault = "256";
inline constexpr const char* kValidateEpsilonDefault = "auto";

inline constexpr int kMinNtimes = 2;  // the first repetition is dropped: one must remain
// STREAM's values grow 15x per repetition (a = 2*15^k): beyond these counts
// they overflow to infinity and validation proves nothing.
inline constexpr int kMaxNtimesDouble = 250;  // 2*15^262 > DBL_MAX
inline constexpr int kMaxNtimesFloat = 30;    // 2*15^33 > FLT_MAX
inline constexpr int kQuickNtimes = 5;        // --quick with the default repetitions

enum class StoresRequest { Auto, Normal, Nontemporal };  // in the order of the option's choices

struct StreamOptions : TypedOptions {
  std::string backends;           // read by core/BackendList
  std::string elements_text;      // auto or a count: resolved against the node's memory
  std::vector<StreamType> types;  // in the order they run, no repeats
  int reps = 20;                  // repetitions including the dropped first one (at most 250, checked)
  StoresRequest stores = StoresRequest::Auto;
  std::size_t offset_bytes = 256;
  StreamValidationRule validation;
};

// Its options; stream_schema().read(config, quick) gives the typed values.
const OptionSchema<StreamOptions>& stream_schema();

}  // namespace bws::stream
