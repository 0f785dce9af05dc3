#pragma once
// --stream.backend, --bs.backend: a comma list of backend names ("cpu",
// "cpu,ocl"), each run in turn, the device being an axis of the benchmark.
#include <string>
#include <vector>

namespace bws {

inline constexpr const char* kBackendDefault = "cpu";

// The names in list order, without repeats; UsageError naming --option for
// an empty list or a name not in `known` ("allowed: a comma list of cpu, ocl").
std::vector<std::string> parse_backend_list(const std::string& text, const char* option,
                                            const std::vector<std::string>& known);

}  // namespace bws
