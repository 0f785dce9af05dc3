#pragma once
// --stream.backend, --bs.backend: a comma list of backend names ("cpu",
// "cpu,ocl"), each run in turn, the device being an axis of the benchmark.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/OptionSchema.hpp"

namespace bws {

inline constexpr const char* kBackendDefault = "cpu";

// The backend-list option of a benchmark ("stream.backend"), declared alike
// for every benchmark; `label` starts its help ("STREAM"), `device_note`
// says what the benchmark does on the OpenCL device.
OptionSpec backend_list_option(const std::string& name, const std::string& label, const std::string& device_note);

// The names in list order, without repeats; UsageError naming --option for
// an empty list or a name not in `known` ("allowed: a comma list of cpu, ocl").
std::vector<std::string> parse_backend_list(const std::string& text, const std::string& flag,
                                            const std::vector<std::string>& known);

// The planned run of a benchmark over the backends of its list: each
// backend's planned device run (Run: describe, memory_bytes, prepare,
// release) in list order. The benchmark's driver adds run().
template <class Run>
class PlannedDeviceRuns : public PlannedRun {
 public:
  explicit PlannedDeviceRuns(std::vector<std::unique_ptr<Run>> runs) : runs_(std::move(runs)) {}

  std::string describe() const override {
    std::string text;
    for (const auto& r : runs_) text += (text.empty() ? "" : "; ") + r->describe();
    return text;
  }
  std::uint64_t memory_bytes() const override {  // every backend's buffers stay until release()
    std::uint64_t bytes = 0;
    for (const auto& r : runs_) bytes += r->memory_bytes();
    return bytes;
  }
  void prepare(topo::Team& team) override {
    for (auto& r : runs_) r->prepare(team);
  }
  void release() override {
    for (auto& r : runs_) r->release();
  }

 protected:
  std::vector<std::unique_ptr<Run>> runs_;
};

}  // namespace bws
