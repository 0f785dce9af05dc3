#pragma once
// Who measured a result row: the leading columns every benchmark's
// per-rank rows start with (core/ResultColumns.hpp's leading_result_columns).
#include <string>

namespace bws {

struct RankIdentity {
  int rank = 0;
  std::string host;
  int threads = 1;               // the Team's threads; a device's compute units
  std::string backend = "cpu";   // the pinned Team; "ocl" for the OpenCL device
};

}  // namespace bws
