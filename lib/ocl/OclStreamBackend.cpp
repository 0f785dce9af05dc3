// STREAM on the rank's OpenCL device: planned per element type against the
// device (OclStreamPlan), one device opened in prepare(), the arrays of one
// type on it at a time (cl/OclStreamRunner.cpp).
#include "ocl/OclStreamBackend.hpp"

#include <algorithm>
#include <stdexcept>

#include "ocl/OclDeviceTable.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclRateCeiling.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {
namespace {

class OclStreamRun final : public stream::StreamDeviceRun {
 public:
  OclStreamRun(OclRankDevice device, std::vector<OclStreamParams> plans)
      : device_(std::move(device)), plans_(std::move(plans)) {}

  std::string describe() const override {
    std::string text = "ocl: " + device_.choice.device.label();
    if (device_.choice.candidates > 1)
      text += " (1 of " + std::to_string(device_.choice.candidates) + " devices, by local rank)";
    for (const OclStreamParams& p : plans_) text += "; " + describe_ocl_stream(p);
    return text;
  }
  std::uint64_t memory_bytes() const override {  // the host copies of A, B, C of one type at a time
    std::uint64_t bytes = 0;
    for (const OclStreamParams& p : plans_) bytes = std::max(bytes, p.device_bytes());
    return bytes;
  }
  std::uint64_t elements(stream::StreamType type) const override { return params_of(type).elements; }
  stream::StreamDeviceInfo info(const topo::Team&) const override {
    const OclDeviceInfo& d = device_.choice.device;
    return {kBackendOcl, d.label(), d.compute_units, device_rate_ceiling_Bps(d), true};
  }
  void prepare(topo::Team&) override { opened_ = open_ocl_device(device_.choice.device); }
  stream::StreamDeviceArrays& arrays(topo::Team&, stream::StreamType type) override {
    if (!opened_) throw std::logic_error("ocl stream: run() called before prepare()");
    current_.reset();  // one type's buffers on the device at a time
    current_ = make_ocl_stream_arrays(opened_, params_of(type));
    return *current_;
  }
  void release() override {
    current_.reset();
    opened_.reset();
  }
  std::vector<Table> device_tables(const std::string& benchmark) const override {
    return ocl_devices_tables(device_, benchmark);
  }

 private:
  const OclStreamParams& params_of(stream::StreamType type) const {
    const auto it = std::find_if(plans_.begin(), plans_.end(), [&](const OclStreamParams& p) { return p.type == type; });
    if (it == plans_.end()) throw std::logic_error("ocl stream: type not planned");
    return *it;
  }

  OclRankDevice device_;
  std::vector<OclStreamParams> plans_;  // per type of --stream.type
  std::shared_ptr<OclDevice> opened_;
  std::unique_ptr<stream::StreamDeviceArrays> current_;
};

class OclStreamBackend final : public stream::StreamBackend {
 public:
  void add_options(boost::program_options::options_description& desc) const override { add_ocl_stream_options(desc); }
  std::unique_ptr<stream::StreamDeviceRun> plan(const Config& config, const stream::StreamOptions& options,
                                                const NodeContext& node,
                                                const stream::StreamCommonParams& common) const override {
    OclRankDevice device = choose_rank_device(config, node, options.flag(&stream::StreamOptions::backends) + " ocl");
    const OclStreamShapeOptions shape = ocl_stream_schema().read(config, node.quick);
    std::vector<OclStreamParams> plans;
    for (stream::StreamType type : common.types)
      plans.push_back(
          plan_ocl_stream(options, shape, device.choice.device, device.choice.ranks_on_device, common, type));
    return std::make_unique<OclStreamRun>(std::move(device), std::move(plans));
  }
};

}  // namespace

std::shared_ptr<const stream::StreamBackend> ocl_stream_backend() { return std::make_shared<OclStreamBackend>(); }

}  // namespace bws::ocl
